"""Write ``SUMMARY.md`` from the cosmic-ray sessions of ``run.py``."""

from __future__ import annotations

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
    return " ".join(before), " ".join(after)


def _cell(text: str) -> str:
    """Code for a markdown table cell: a ``|`` would end the cell."""
    return text.replace("|", "\\|")


def load_equivalents(path: Path) -> dict[tuple[str, str, str], str]:
    if not path.exists():
        return {}
    entries = tomllib.loads(path.read_text()).get("equivalent", [])
    return {(e["module"], e["before"].strip(), e["after"].strip()): e["reason"] for e in entries}


def session_rows(session: Path) -> list[tuple]:
    with sqlite3.connect(session) as db:
        return db.execute(
            "SELECT s.operator_name, s.start_pos_row, r.worker_outcome, r.test_outcome, r.diff "
            "FROM mutation_specs s LEFT JOIN work_results r ON r.job_id = s.job_id "
            "ORDER BY s.start_pos_row, s.operator_name"
        ).fetchall()


def write_summary(build: Path, modules: list[str], equivalent_file: Path, out: Path) -> Path:
    equivalents = load_equivalents(equivalent_file)
    table, survivors, equivalent_rows, missing = [], [], [], []
    totals = dict.fromkeys(
        ("mutants", "killed", "survived", "equivalent", "incompetent", "pending"), 0
    )
    for module in modules:
        session = build / (module.replace("/", "__").removesuffix(".py") + ".sqlite")
        if not session.exists():
            missing.append(module)
            continue
        counts = dict.fromkeys(totals, 0)
        for operator, row, worker, test, diff in session_rows(session):
            if worker == "SKIPPED":
                continue
            counts["mutants"] += 1
            if worker is None:
                counts["pending"] += 1
            elif worker != "NORMAL" or test == "INCOMPETENT":
                counts["incompetent"] += 1
            elif test == "KILLED":
                counts["killed"] += 1
            else:
                before, after = _changed_lines(diff or "")
                reason = equivalents.get((module, before, after))
                if reason is None:
                    counts["survived"] += 1
                    survivors.append((module, row, operator, _cell(before), _cell(after)))
                else:
                    counts["equivalent"] += 1
                    equivalent_rows.append((module, row, _cell(before), _cell(after), reason))
        for key in totals:
            totals[key] += counts[key]
        tested = counts["killed"] + counts["survived"]
        score = f"{100 * counts['killed'] / tested:.1f}%" if tested else "-"
        table.append(
            f"| `{module}` | {counts['mutants']} | {counts['killed']} | "
            f"{counts['survived']} | {counts['equivalent']} | {counts['incompetent']} | "
            f"{counts['pending']} | {score} |"
        )
    tested = totals["killed"] + totals["survived"]
    score = f"{100 * totals['killed'] / tested:.1f}%" if tested else "-"
    lines = [
        "# Mutation testing: last result",
        "",
        f"Written by `make mutation` (`benchmarks/mutation/run.py`, cosmic-ray) on {date.today()}.",
        "Each mutant of a module is tested by that module's fast tests (`GROUPS` in `run.py`);",
        "modules with numba kernels get a fresh `NUMBA_CACHE_DIR` per mutant. **Score** = killed /",
        "(killed + survived); equivalent mutants (listed below with their reason, maintained in",
        "`equivalent.toml`) and incompetent ones (the mutant does not import) are left out of it;",
        "**pending** mutants were not run yet (rerun `make mutation` to continue).",
        "",
        "| module | mutants | killed | survived | equivalent | incompetent | pending | score |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
        *table,
        f"| **all run** | {totals['mutants']} | {totals['killed']} | {totals['survived']} | "
        f"{totals['equivalent']} | {totals['incompetent']} | {totals['pending']} | **{score}** |",
        "",
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
