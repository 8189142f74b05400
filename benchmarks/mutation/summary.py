"""Write ``SUMMARY.md`` from the cosmic-ray sessions of ``run.py``."""

from __future__ import annotations

import json
import math
import sqlite3
import tomllib
from datetime import date
from pathlib import Path


def _changed_lines(diff: str) -> tuple[str, str]:
    before = [
        line[1:].strip()
        for line in diff.splitlines()
        if line.startswith("-") and not line.startswith("---")
    ]
    after = [
        line[1:].strip()
        for line in diff.splitlines()
        if line.startswith("+") and not line.startswith("+++")
    ]
    # blank lines of a diff (a removed decorator shifts one) leave no text of their own
    return " ".join(b for b in before if b), " ".join(a for a in after if a)


def _cell(text: str) -> str:
    """Code for a markdown table cell: a ``|`` would end the cell."""
    return text.replace("|", "\\|")


def load_equivalents(path: Path) -> dict[tuple[str, str, str], str]:
    if not path.exists():
        return {}
    entries = tomllib.loads(path.read_text()).get("equivalent", [])
    return {(e["module"], e["before"].strip(), e["after"].strip()): e["reason"] for e in entries}


def wilson(killed: int, tested: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a kill rate estimated from a random sample."""
    if tested == 0:
        return 0.0, 1.0
    p = killed / tested
    centre = (p + z * z / (2 * tested)) / (1 + z * z / tested)
    half = (
        z * math.sqrt(p * (1 - p) / tested + z * z / (4 * tested * tested)) / (1 + z * z / tested)
    )
    return max(0.0, centre - half), min(1.0, centre + half)


def session_rows(session: Path) -> list[tuple]:
    with sqlite3.connect(session) as db:
        return db.execute(
            "SELECT s.operator_name, s.start_pos_row, r.worker_outcome, r.test_outcome, r.diff, "
            "s.job_id "
            "FROM mutation_specs s LEFT JOIN work_results r ON r.job_id = s.job_id "
            "ORDER BY s.start_pos_row, s.operator_name"
        ).fetchall()


def write_summary(
    build: Path,
    modules: list[str],
    equivalent_file: Path,
    out: Path,
    chosen: dict[str, set[str]],
    sampling: dict,
    annotations: dict[str, set[str]],
    guided: dict[str, set[str]] | None = None,
) -> Path:
    """Rewrite ``out`` from the sessions; ``chosen`` holds each module's sampled job ids and
    ``guided`` the part of the sample whose survivors tests were written for (the rest of the
    sample is scored apart, as held out)."""
    guided = guided or {}
    held = {"killed": 0, "survived": 0, "killed_later": 0}
    # mutants that survived their first test and were tested again after new tests: the
    # held-out score counts them by that first outcome
    first_file = build / "first_survivors.json"
    first_survivors = set(json.loads(first_file.read_text())) if first_file.exists() else set()
    equivalents = load_equivalents(equivalent_file)
    table, survivors, equivalent_rows, missing = [], [], [], []
    totals = dict.fromkeys(
        ("mutants", "sampled", "killed", "survived", "equivalent", "incompetent", "pending"), 0
    )
    weighted, weight = 0.0, 0
    for module in modules:
        session = build / (module.replace("/", "__").removesuffix(".py") + ".sqlite")
        if not session.exists():
            missing.append(module)
            continue
        counts = dict.fromkeys(totals, 0)
        for operator, row, worker, test, diff, job in session_rows(session):
            if worker == "SKIPPED" or job in annotations.get(module, ()):
                continue
            counts["mutants"] += 1
            if job not in chosen.get(module, ()):
                continue
            counts["sampled"] += 1
            if worker is None:
                counts["pending"] += 1
            elif worker != "NORMAL" or test == "INCOMPETENT":
                counts["incompetent"] += 1
            elif test == "KILLED":
                counts["killed"] += 1
                if module in guided and job not in guided[module]:
                    if job in first_survivors:
                        held["survived"] += 1
                        held["killed_later"] += 1
                    else:
                        held["killed"] += 1
            else:
                before, after = _changed_lines(diff or "")
                reason = equivalents.get((module, before, after))
                if reason is None:  # an entry for every mutant of the line: after = "*"
                    reason = equivalents.get((module, before, "*"))
                if reason is None:
                    counts["survived"] += 1
                    if module in guided and job not in guided[module]:
                        held["survived"] += 1
                    survivors.append((module, row, operator, _cell(before), _cell(after)))
                else:
                    counts["equivalent"] += 1
                    equivalent_rows.append((module, row, _cell(before), _cell(after), reason))
        for key in totals:
            totals[key] += counts[key]
        tested = counts["killed"] + counts["survived"]
        if tested:
            low, high = wilson(counts["killed"], tested)
            score = f"{100 * counts['killed'] / tested:.1f}%"
            interval = f"{100 * low:.0f}-{100 * high:.0f}%"
            weighted += counts["mutants"] * counts["killed"] / tested
            weight += counts["mutants"]
        else:
            score, interval = "-", "-"
        table.append(
            f"| `{module}` | {counts['mutants']} | {counts['sampled']} | {counts['killed']} | "
            f"{counts['survived']} | {counts['equivalent']} | {counts['incompetent']} | "
            f"{counts['pending']} | {score} | {interval} |"
        )
    tested = totals["killed"] + totals["survived"]
    score = f"{100 * totals['killed'] / tested:.1f}%" if tested else "-"
    interval = "-"
    if tested:
        low, high = wilson(totals["killed"], tested)
        interval = f"{100 * low:.1f}-{100 * high:.1f}%"
    stratified = f"{100 * weighted / weight:.1f}%" if weight else "-"
    held_tested = held["killed"] + held["survived"]
    held_line = []
    if guided and held_tested:
        low, high = wilson(held["killed"], held_tested)
        size = sampling.get("guided")
        held_line = [
            f"**Held out.** New tests were written for the survivors among the first {size} "
            f"mutants of each module's draw; the others in the sample were tested only "
            f"afterwards. On those {held_tested} held-out mutants the score is "
            f"**{100 * held['killed'] / held_tested:.1f}%** ({100 * low:.1f}-{100 * high:.1f}%), "
            "the unbiased estimate for the test suite as it was before their survivors were "
            "looked at"
            + (
                f" (each counted by its first test: {held['killed_later']} of those that "
                "survived are killed by tests written afterwards)."
                if held["killed_later"]
                else "."
            ),
            "",
        ]
    size = sampling.get("sample")
    how = (
        "every mutant of each module"
        if size is None
        else f"a seeded random sample of {size} mutants per module (seed {sampling.get('seed', 0)}; "
        "`--sample`/`--seed`), so the scores are estimates with their 95% Wilson interval"
    )
    lines = [
        "# Mutation testing: last result",
        "",
        f"Written by `make mutation` (`benchmarks/mutation/run.py`, cosmic-ray) on {date.today()}.",
        f"Tested: {how}.",
        "Each mutant of a module is tested by that module's fast tests (`GROUPS` in `run.py`);",
        "modules with numba kernels get a fresh `NUMBA_CACHE_DIR` per mutant. **Score** = killed /",
        "(killed + survived); equivalent mutants (listed below with their reason, maintained in",
        "`equivalent.toml`) and incompetent ones (the mutation cannot be applied) are left out of it;",
        "**pending** mutants of the sample were not run yet (rerun `make mutation` to continue).",
        "**mutants** counts every mutant of the module after the operator filter, less those inside",
        "type annotations (never evaluated: every core module has `from __future__ import",
        "annotations`).",
        "",
        "| module | mutants | sampled | killed | survived | equivalent | incompetent | pending "
        "| score | 95% interval |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *table,
        f"| **all** | {totals['mutants']} | {totals['sampled']} | {totals['killed']} | "
        f"{totals['survived']} | {totals['equivalent']} | {totals['incompetent']} | "
        f"{totals['pending']} | **{score}** | {interval} |",
        "",
        f"Weighting each module's score by its number of mutants (a stratified estimate of the "
        f"score over all {totals['mutants']} mutants of the modules run): **{stratified}**.",
        "",
        *held_line,
    ]
    if missing:
        lines += ["**Not run yet** (no session): " + ", ".join(f"`{m}`" for m in missing) + ".", ""]
    lines += ["## Survivors", ""]
    if survivors:
        lines += ["| module | line | operator | original | mutant |", "|---|---:|---|---|---|"]
        lines += [
            f"| `{m}` | {r} | {o.removeprefix('core/')} | `{b}` | `{a}` |"
            for m, r, o, b, a in survivors
        ]
    else:
        lines += ["None."]
    lines += ["", "## Equivalent mutants", ""]
    if equivalent_rows:
        lines += [
            "| module | line | original | mutant | why it cannot change a result |",
            "|---|---:|---|---|---|",
        ]
        lines += [f"| `{m}` | {r} | `{b}` | `{a}` | {why} |" for m, r, b, a, why in equivalent_rows]
    else:
        lines += ["None."]
    out.write_text("\n".join(lines) + "\n")
    return out
