"""The claims scoreboard: every claim of the five papers with its reproduction status.

Statuses are recorded in ``data/results/scoreboard.yaml``, a mapping::

    shen_li/C8:
      status: partly
      evidence: ../notebooks/shen_li-tableII.md
      note: QP wins on 7 of 14 datasets, not 9.

A claim without an entry (or a missing file) is "not yet run".  The claims themselves come from
the target files (:func:`marginboost.experiments.claims`).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pandas as pd
import yaml

from .._paths import project_root
from .targets import claims, list_papers, load_targets

__all__ = ["STATUSES", "STATUS_MEANINGS", "load_statuses", "scoreboard", "scoreboard_markdown",
           "statuses_path"]

#: What each status means (also printed on the scoreboard page).
STATUS_MEANINGS = {
    "reproduced": "our runs support the claim as stated",
    "partly": "part of the claim holds in our runs, or it holds only under a changed protocol",
    "not reproduced": "our runs contradict the claim",
    "not checkable": "the paper gives too little (numbers, protocol or data) to check it",
    "not yet run": "no evidence has been recorded yet",
}
#: The allowed statuses.
STATUSES = tuple(STATUS_MEANINGS)
_ENTRY_FIELDS = {"status", "evidence", "note"}


def statuses_path() -> Path:
    """Default status file: ``<checkout>/data/results/scoreboard.yaml``."""
    root = project_root()
    if root is None:
        raise FileNotFoundError(
            "the scoreboard statuses live in data/results/scoreboard.yaml of the marginboost "
            "repository, which was not found; run from inside a clone or pass statuses=")
    return root / "data" / "results" / "scoreboard.yaml"


def load_statuses(path: str | Path | None = None, *,
                  targets_directory: str | Path | None = None) -> dict[str, dict]:
    """Read and validate the status file; a missing file means no statuses yet.

    Returns
    -------
    dict
        ``{"paper/claim_id": {"status": ..., "evidence": ..., "note": ...}}``.

    Raises
    ------
    ValueError
        On an unknown status, an unknown paper or claim, or malformed entries.
    """
    path = statuses_path() if path is None else Path(path)
    if not path.is_file():
        return {}
    with open(path, encoding="utf-8") as fh:
        try:
            data = yaml.safe_load(fh)
        except yaml.YAMLError as exc:
            raise ValueError(f"status file {path} is not valid YAML: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise ValueError(f"status file {path} must map 'paper/claim_id' to entries")
    papers = list_papers(targets_directory)
    known: dict[str, set[str]] = {}
    out: dict[str, dict] = {}
    for key, entry in data.items():
        where = f"status file {path}, entry {key!r}"
        if not isinstance(key, str) or key.count("/") != 1:
            raise ValueError(f"{where}: keys must look like 'paper/claim_id'")
        paper, claim_id = key.split("/")
        if paper not in papers:
            raise ValueError(f"{where}: unknown paper {paper!r}; known papers: {papers}")
        if paper not in known:
            known[paper] = {c["id"] for c in claims(paper, directory=targets_directory)}
        if claim_id not in known[paper]:
            raise ValueError(f"{where}: paper {paper!r} has no claim {claim_id!r}; its claims "
                             f"are {sorted(known[paper])}")
        if not isinstance(entry, Mapping) or "status" not in entry:
            raise ValueError(f"{where}: an entry needs at least a 'status'")
        extra = set(entry) - _ENTRY_FIELDS
        if extra:
            raise ValueError(f"{where}: unknown fields {sorted(extra)}; allowed: "
                             f"{sorted(_ENTRY_FIELDS)}")
        if entry["status"] not in STATUSES:
            raise ValueError(f"{where}: unknown status {entry['status']!r}; allowed: "
                             f"{list(STATUSES)}")
        for field in ("evidence", "note"):
            if entry.get(field) is not None and not isinstance(entry[field], str):
                raise ValueError(f"{where}: '{field}' must be text")
        if entry["status"] != "not yet run" and not entry.get("evidence"):
            raise ValueError(f"{where}: status {entry['status']!r} needs an 'evidence' link")
        out[key] = {"status": entry["status"], "evidence": entry.get("evidence") or "",
                    "note": entry.get("note") or ""}
    return out


def scoreboard(*, statuses: str | Path | None = None,
               targets_directory: str | Path | None = None) -> pd.DataFrame:
    """Every claim of every paper with its status.

    Returns
    -------
    pandas.DataFrame
        Columns ``paper, claim, statement, source, status, evidence, note``, papers in
        alphabetical order and claims in file order.
    """
    recorded = load_statuses(statuses, targets_directory=targets_directory)
    rows = []
    for paper in list_papers(targets_directory):
        for claim in claims(paper, directory=targets_directory):
            entry = recorded.get(f"{paper}/{claim['id']}",
                                 {"status": "not yet run", "evidence": "", "note": ""})
            note = entry["note"] or claim.get("note", "")
            rows.append({"paper": paper, "claim": claim["id"], "statement": claim["statement"],
                         "source": claim["source"], "status": entry["status"],
                         "evidence": entry["evidence"], "note": note})
    return pd.DataFrame(rows, columns=["paper", "claim", "statement", "source", "status",
                                       "evidence", "note"])


# Every ASCII punctuation character may be backslash-escaped in CommonMark; these are the ones
# that could start markup in a table cell (emphasis, links, HTML, roles, math, pipes).
_MARKUP = re.compile(r"([\\`*_\[\]<>|$~{}#!&^])")


def _escape(text: str) -> str:
    """Plain text for a pipe-table cell: markup characters escaped, one line."""
    text = " ".join(str(text).split())
    return _MARKUP.sub(r"\\\1", text)


def _evidence_cell(evidence: str) -> str:
    if not evidence:
        return ""
    label = _escape(Path(evidence.split("#")[0]).stem or evidence)
    target = evidence.replace("<", "%3C").replace(">", "%3E")
    return f"[{label}](<{target}>)"


def scoreboard_markdown(*, statuses: str | Path | None = None,
                        targets_directory: str | Path | None = None) -> str:
    """Render the scoreboard as a MyST Markdown page (jupyter-book 1.x).

    The page has a ``# Scoreboard`` title, the meaning of each status, a count of statuses per
    paper and one pipe table per paper (claim, statement, source, status, evidence).  Statements
    are plain text: characters that Markdown or MyST would read as markup (``$``, ``|``, ``*``,
    ``_`` ...) are backslash-escaped, so formulas written in the target files appear verbatim.
    """
    board = scoreboard(statuses=statuses, targets_directory=targets_directory)
    lines = ["# Scoreboard", "",
             "Every checkable claim of the five papers, with the status of its reproduction "
             "and a link to the evidence (the notebook or page that checks it).", ""]
    lines += [f"- **{status}**: {_escape(meaning)}" for status, meaning in STATUS_MEANINGS.items()]
    lines += ["", "## Summary", "",
              "| paper | " + " | ".join(STATUSES) + " | claims |",
              "|---|" + "---:|" * (len(STATUSES) + 1)]
    for paper, part in board.groupby("paper", sort=True):
        counts = part["status"].value_counts()
        lines.append(f"| {_escape(paper)} | "
                     + " | ".join(str(int(counts.get(s, 0))) for s in STATUSES)
                     + f" | {len(part)} |")
    for paper, part in board.groupby("paper", sort=True):
        info = load_targets(paper, directory=targets_directory)["paper"]
        authors = ", ".join(info.get("authors", []))
        lines += ["", f"## {_escape(info.get('title', paper))}", "",
                  _escape(f"{authors} ({info.get('venue', '')}). Target file: "
                          f"data/targets/{paper}.yaml."), "",
                  "| claim | statement | source in paper | status | evidence |",
                  "|---|---|---|---|---|"]
        for row in part.itertuples(index=False):
            statement = _escape(row.statement)
            if row.note:
                statement += f" *Note: {_escape(row.note)}*"
            lines.append(f"| {_escape(row.claim)} | {statement} | {_escape(row.source)} | "
                         f"{row.status} | {_evidence_cell(row.evidence)} |")
    return "\n".join(lines) + "\n"
