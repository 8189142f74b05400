"""``marginboost results update``: the one way committed results change.

Runs (``make book``, ``marginboost reproduce``, ``make notebooks``, the tests) write key numbers
and new grid records under :func:`marginboost._paths.results_dir` (``_build/results`` in a
checkout) and only *read* the committed evidence ``data/results``.  This module compares what a
run wrote with what is committed, says what changed and by how much, and copies it over:

* key-number files ``<paper>/<item>.<profile>.json``: new, unchanged, or changed (how many
  numbers, the largest absolute and relative difference, and whether every difference is within
  the tolerances committed with the number);
* full-profile grid records ``<paper>/store-full/**``: records the committed store lacks are
  added (the store is append-only: a record that exists with other metrics is an error);
* the files generated from registries and results (the book's datasets, scoreboard, "what did
  not reproduce", performance, API and citation pages, and the verdicts
  ``data/results/scoreboard.yaml``), rewritten where they differ.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._paths import committed_results_dir, require_project_root, results_dir
from .store import RecordConflictError, ResultStore

__all__ = ["ResultsUpdate", "update_results", "describe_key_number_change"]


@dataclass
class ResultsUpdate:
    """What :func:`update_results` found (and, unless a dry run, did)."""

    lines: list[str] = field(default_factory=list)
    changed_files: list[Path] = field(default_factory=list)
    new_records: int = 0
    unchanged: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.changed_files) or self.new_records > 0


def _largest(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    both = np.isfinite(a) & np.isfinite(b)
    if not both.any():
        return 0.0, 0.0
    diff = np.abs(a[both] - b[both])
    scale = np.maximum(np.abs(a[both]), np.abs(b[both]))
    rel = np.divide(diff, scale, out=np.zeros_like(diff), where=scale > 0)
    return float(diff.max()), float(rel.max())


def describe_key_number_change(committed: dict, fresh: dict) -> str | None:
    """One line describing how ``fresh`` differs from ``committed`` (``None``: identical).

    Differences are measured per number; the line gives how many numbers changed, the largest
    absolute and relative difference, and whether all are within the committed tolerances.
    """
    if committed == fresh:
        return None
    from ..reporting import DEFAULT_ATOL, DEFAULT_RTOL

    old, new = committed.get("numbers", {}), fresh.get("numbers", {})
    added = sorted(set(new) - set(old))
    removed = sorted(set(old) - set(new))
    changed, worst, outside = [], (0.0, 0.0, ""), []
    for name in sorted(set(old) & set(new)):
        a = np.asarray(old[name], dtype=float)
        b = np.asarray(new[name], dtype=float)
        if a.shape != b.shape:
            changed.append(name)
            outside.append(name)
            continue
        if np.array_equal(a, b, equal_nan=True):
            continue
        changed.append(name)
        absolute, relative = _largest(a, b)
        if absolute >= worst[0]:
            worst = (absolute, relative, name)
        tol = {**committed.get("tolerance", {}), **committed.get("tolerances", {}).get(name, {})}
        if not np.allclose(
            a,
            b,
            rtol=tol.get("rtol", DEFAULT_RTOL),
            atol=tol.get("atol", DEFAULT_ATOL),
            equal_nan=True,
        ):
            outside.append(name)
    parts = []
    if changed:
        parts.append(f"{len(changed)} of {len(old)} numbers changed")
        if worst[2]:
            parts.append(
                f"largest difference {worst[0]:.3g} (relative {worst[1]:.3g}) in {worst[2]}"
            )
        parts.append(
            f"beyond the committed tolerances: {', '.join(outside)}"
            if outside
            else "all within the committed tolerances"
        )
    if added:
        parts.append(f"new numbers: {', '.join(added)}")
    if removed:
        parts.append(f"removed numbers: {', '.join(removed)}")
    if committed.get("tolerance") != fresh.get("tolerance") or committed.get(
        "tolerances"
    ) != fresh.get("tolerances"):
        parts.append("tolerances changed")
    return "; ".join(parts) or "metadata changed"


def only_within_tolerance(committed: dict, fresh: dict) -> bool:
    """Whether ``fresh`` differs from ``committed`` only by numbers within the committed
    tolerances (the same names, shapes and tolerances; last digits of another machine)."""
    from ..reporting import compare_key_numbers

    return (
        set(committed.get("numbers", {})) == set(fresh.get("numbers", {}))
        and committed.get("tolerance") == fresh.get("tolerance")
        and committed.get("tolerances") == fresh.get("tolerances")
        and not compare_key_numbers(committed, fresh)
    )


def update_results(
    *,
    paper: str | None = None,
    profile: str | None = None,
    dry_run: bool = False,
    pages: bool = True,
    exact: bool = False,
    source: Path | None = None,
    target: Path | None = None,
) -> ResultsUpdate:
    """Copy what runs wrote (``source``, default ``_build/results``) into the committed
    ``data/results`` (``target``), saying what changed.

    Parameters
    ----------
    paper, profile
        Restrict the update to one paper and/or profile.
    dry_run
        Only report; write nothing.
    pages
        Also regenerate the generated book pages (datasets, scoreboard, performance).
    exact
        Also write key-number files whose numbers differ only within the committed tolerances
        (by default those keep the committed values: last digits that another machine, BLAS
        or thread count moves are not a change of the result).
    """
    source = Path(source) if source is not None else results_dir()
    target = Path(target) if target is not None else committed_results_dir()
    if target is None:
        raise FileNotFoundError(
            "no checkout found: committed results live in data/results of "
            "a clone of the marginboost repository"
        )
    if source.resolve() == target.resolve():
        raise ValueError(
            f"the results of runs and the committed results are the same folder "
            f"({source}); unset MARGINBOOST_RESULTS_DIR"
        )
    report = ResultsUpdate()
    if not source.is_dir():
        report.lines.append(
            f"no results of runs in {source}: run `marginboost reproduce` or `make notebooks` first"
        )
    else:
        _update_key_numbers(source, target, paper, profile, dry_run, report, exact)
        if profile in (None, "full"):
            _update_stores(source, target, paper, dry_run, report)
    if pages:
        _update_pages(dry_run, report)
    verb = "would change" if dry_run else "changed"
    report.lines.append(
        f"{verb} {len(report.changed_files)} files, {'would add' if dry_run else 'added'} "
        f"{report.new_records} grid records; {report.unchanged} key-number files unchanged"
    )
    return report


def _update_key_numbers(
    source: Path, target: Path, paper, profile, dry_run, report, exact: bool = False
) -> None:
    for fresh_path in sorted(source.glob("*/*.json")):
        paper_id = fresh_path.parent.name
        stem = fresh_path.name[: -len(".json")]
        item, _, prof = stem.rpartition(".")
        if not item or (paper and paper_id != paper) or (profile and prof != profile):
            continue
        fresh = json.loads(fresh_path.read_text())
        committed_path = target / paper_id / fresh_path.name
        rel = f"data/results/{paper_id}/{fresh_path.name}"
        if committed_path.exists():
            committed = json.loads(committed_path.read_text())
            change = describe_key_number_change(committed, fresh)
            if change is None:
                report.unchanged += 1
                continue
            if not exact and only_within_tolerance(committed, fresh):
                report.unchanged += 1
                report.lines.append(f"kept     {rel}: {change} (use --exact to write them)")
                continue
            report.lines.append(f"changed  {rel}: {change}")
        else:
            report.lines.append(f"new      {rel}")
        report.changed_files.append(committed_path)
        if not dry_run:
            committed_path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(fresh_path, committed_path)


def _update_stores(source: Path, target: Path, paper, dry_run, report) -> None:
    for store_dir in sorted(source.glob("*/store-full")):
        paper_id = store_dir.parent.name
        if paper and paper_id != paper:
            continue
        fresh, committed = ResultStore(store_dir), ResultStore(target / paper_id / "store-full")
        added = 0
        for record in fresh.own_records():
            path = committed.record_path(record["key"])
            if path.is_file():
                stored = json.loads(path.read_text())
                if stored["metrics"] != record["metrics"]:
                    raise RecordConflictError(
                        f"{path} already holds other metrics for this cell; the committed "
                        "store is append-only (remove the record deliberately to replace it)"
                    )
                continue
            added += 1
            if not dry_run:
                path.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(fresh.record_path(record["key"]), path)
        if added:
            report.lines.append(
                f"added    {added} grid records to data/results/{paper_id}/store-full"
            )
            report.new_records += added


def _update_pages(dry_run, report) -> None:
    from .._repo.notebooks import generated_pages
    from .scoreboard import scoreboard_yaml

    root = require_project_root()
    files = {f"book/{name}": text for name, text in generated_pages(root).items()}
    files["data/results/scoreboard.yaml"] = scoreboard_yaml(root=root)  # the computed verdicts
    for name, text in files.items():
        path = root / name
        if path.exists() and path.read_text() == text:
            continue
        report.lines.append(f"changed  {name} (generated)")
        report.changed_files.append(path)
        if not dry_run:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
