"""The book's appendix page "Running the papers' full protocols" (``book/full-protocols.md``).

It gathers what a chapter only points to: how the full profile's results are recomputed, what
that costs (summed from the committed store's own records), and how much of DMCBoost's
protocol, the one paper whose protocol the book runs only in part, is computed and what the
rest would cost (from the key numbers the DMCBoost Table 2 notebook records).  Every number on
the page is read from committed results; the page is regenerated with the other generated
pages (``marginboost results update``) and a test checks that the committed copy is current.
"""

from __future__ import annotations

import json
from pathlib import Path

from .._paths import require_project_root
from .performance.cost import recompute_cost

#: The page's file name under ``book/``.
PAGE = "full-protocols.md"

#: DMCBoost's methods in the paper's column order (Table 2).
_DMCBOOST_METHODS = ("AdaBoost.M1", "SAMME", "GD-MCBoost", "DMCBoost")


def _dmcboost_numbers(root: Path) -> dict[str, float] | None:
    path = root / "data" / "results" / "dmcboost" / "table2.full.json"
    if not path.exists():
        return None
    return json.loads(path.read_text())["numbers"]


def _hours(value: float) -> str:
    return f"{value:.1f}" if value < 10 else f"{value:.0f}"


def _recompute_section(root: Path) -> list[str]:
    rows = recompute_cost(root)
    if not rows:
        return []
    per_paper: dict[str, dict] = {}
    for r in rows:
        p = per_paper.setdefault(r["paper"], {"grids": 0, "cells": 0, "core_seconds": 0.0})
        p["grids"] += 1
        p["cells"] += r["cells"]
        p["core_seconds"] += r["core_seconds"]
    total = sum(r["core_seconds"] for r in rows)
    lines = [
        "## The cost of recomputing this book",
        "",
        "Every full-profile grid cell committed under `data/results/<paper>/store-full/` "
        "records the seconds it took (one cell runs on one core; the cells were computed on "
        "2-core machines, some while the machine did other work, so these are upper-end "
        "estimates; the exceptions are DMCBoost's 500-round cells for rotations 1-4 of "
        "CNAE-9, computed on a 16-core machine eight cells at a time with two threads each, "
        "whose seconds are wall-clock seconds there, and its cells on the paper's protocol for "
        "rotations 2-4, run three at a time on two cores). Summed, they say what a reader "
        "pays to recompute the book's evidence instead of loading it:",
        "",
        "| paper | grids | cells | core-hours | hours on 2 cores |",
        "|---|---:|---:|---:|---:|",
    ]
    for paper, p in sorted(per_paper.items()):
        lines.append(
            f"| {paper} | {p['grids']} | {p['cells']} | {p['core_seconds'] / 3600:.2f} | "
            f"{p['core_seconds'] / 7200:.2f} |"
        )
    lines += [
        f"| **all** | {len(rows)} | {sum(r['cells'] for r in rows)} | "
        f"**{total / 3600:.2f}** | **{total / 7200:.2f}** |",
        "",
        "Per grid, with the longest single cell:",
        "",
        "| paper | grid | cells | core-hours | largest cell (s) |",
        "|---|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['paper']} | {r['grid']} | {r['cells']} | "
            f"{r['core_seconds'] / 3600:.2f} | {r['largest_cell_s']:.0f} |"
        )
    lines += [
        "",
        "To recompute one paper's grids from scratch, move its committed store aside "
        "(`data/results/<paper>/store-full/`) and run its notebooks with the full profile, "
        "on local processes or on a dask cluster:",
        "",
        "```bash",
        "marginboost reproduce mcboost --profile full --jobs 2",
        "marginboost reproduce dmcboost --profile full --scheduler tcp://HOST:8786",
        "marginboost results update --dry-run   # what changed, and by how much",
        "```",
        "",
    ]
    return lines


def _dmcboost_section(root: Path) -> list[str]:
    k = _dmcboost_numbers(root)
    if k is None:
        return []
    lines = [
        "## DMCBoost: the paper's protocol in full",
        "",
        "Zhai, Xia & Wang (2014, Sec. 3) run every method on five rotations of every data set "
        "(the fixed splits of Segmentation and Poker525k once), the baselines up to 5000 "
        "rounds with early stopping on validation data and DMCBoost until its own stop rule; "
        "Table 2 at depth 3, Table 3 at depths 3, 5, 8 and 12 with AdaBoost.MH added, Table 4 "
        "on Car and Nursery at those depths with 0, 5 and 20% label noise. The book's Table 2 "
        "runs this protocol on every set; Tables 3 and 4 run it where the store holds the "
        "cells and a reduced protocol elsewhere, stated beside every number they show "
        "([DMCBoost chapter](dmcboost.md)). The cells of the paper's protocol, how many the "
        "committed store holds, and an estimate of the rest on this machine (the mean seconds "
        "of the computed cells of the same set, method and depth, and noise rate where there "
        "are such cells, or else the set's depth-3 cells scaled by the method's depth factor; "
        "deeper trees can make a cell cheaper as well as dearer, so this is an estimate, not a "
        "bound; a method never run on a set has none):",
        "",
        "| table | cells | in the store | missing | estimated CPU hours | without an estimate |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for table in ("table2", "table3", "table4"):
        cells = int(k[f"{table}_paper_cells"])
        done = int(k[f"{table}_paper_cells_computed"])
        unestimated = int(k.get(f"{table}_missing_unestimated", 0))
        lines.append(
            f"| Table {table[5:]} | {cells} | {done} | {cells - done} | "
            f"{_hours(k[f'{table}_missing_cpu_h'])} | {unestimated} |"
        )
    if "table4_raised_reruns" in k:
        reruns = int(k["table4_raised_reruns"])
        lines += [
            "",
            f"Besides, {reruns} of Table 4's DMCBoost cells chose an $n'$ whose run ended on "
            "our 5000-round safety cap; Table 4 runs each again with a cap four times larger "
            f"(the longer run replaces the capped one). The store holds "
            f"{int(k['table4_raised_reruns_computed'])} of these reruns; the rest take at most "
            f"{_hours(k['table4_raised_missing_cpu_h_max'])} CPU hours (four times the capped "
            "cells' own), and `marginboost cells dmcboost table4` computes them after the "
            "table's missing cells.",
        ]
    lines += [
        "",
        "One command computes the rest, on local processes (`--jobs`) or on a dask cluster "
        "(`--scheduler tcp://HOST:8786`), "
        "reusing the cells already stored; its executed notebooks go to a folder of their own "
        "and leave the book's results as they are. A part of the protocol, chosen by table, "
        "data set and method, runs without the notebooks; it prints the missing cells and "
        "their estimate first (`--dry-run` prints only that):",
        "",
        "```bash",
        "marginboost reproduce dmcboost --profile full --protocol paper --jobs 2",
        "marginboost cells dmcboost table3 --dataset Letter --dry-run",
        "marginboost results update dmcboost   # record the new cells",
        "```",
        "",
        "**What Table 2 costs on the paper's protocol.** The Table 2 notebook's cost model "
        "prices each cell's rounds at the seconds per round measured in that cell. DMCBoost's "
        "phase I runs once per cell and its phase II once per value of $n'$; where a cell "
        "records phase I's seconds, phase II's rounds are priced at phase II's own rate (a "
        "phase-I round can cost many times a phase-II round). The projection counts 5 "
        "rotations (1 on the fixed splits) and, for a run that reached a cap of ours, 5000 "
        "rounds; such a DMCBoost run would go on to its own stop rule, so on the "
        f"{int(k['cost_lower_bound_sets'])} data sets where one did the projection is a lower "
        "bound. Cells recorded before phase I's seconds were kept separately have only a "
        "blended rate (their seconds over their rounds), which overstates the many phase-II "
        "rounds of a capped set; a relaxed phase II that stopped by its patience rule trained "
        "50 rounds beyond the round it keeps, and the model adds them. The seconds are "
        "wall-clock seconds of cells run on a two-core machine, mostly "
        "one cell per core; DMCBoost's cells for CNAE-9's rotations 2 to 4 ran three at a time, "
        "so theirs overstate their CPU time by up to half. CPU hours of the paper's protocol at "
        "our speed:",
        "",
        "| data set | " + " | ".join(_DMCBOOST_METHODS) + " |",
        "|---|" + "---:|" * len(_DMCBOOST_METHODS),
    ]
    sets = sorted(
        {name.split("_")[0] for name in k if name.endswith("_DMCBoost_paper_cpu_h")}, key=str
    )
    for name in sets:
        values = [k.get(f"{name}_{method}_paper_cpu_h") for method in _DMCBOOST_METHODS]
        lines.append(
            f"| {name} | " + " | ".join("–" if v is None else f"{v:.2f}" for v in values) + " |"
        )
    lines += [
        "",
        f"In all {k['cost_paper_cpu_h']:.1f} CPU hours, {k['cost_paper_dmc_cpu_h']:.1f} of "
        f"them DMCBoost's; the cells behind the book's Table 2 took "
        f"{k['cost_cells_cpu_h']:.1f} CPU hours. The [performance page](performance.md) has "
        "today's seconds per round on Poker525k, Letter and Abalone.",
        "",
    ]
    return lines


def full_protocols_page_markdown(root: Path | None = None) -> str:
    """The MyST text of ``book/full-protocols.md``."""
    root = Path(root) if root is not None else require_project_root()
    lines = [
        "# Running the papers' full protocols",
        "",
        "Every notebook of this book runs in one of two profiles. The `quick` profile runs "
        "small grids in seconds; `pytest --nbval` compares its outputs with the committed "
        "notebooks. The `full` profile runs the paper's protocol (its splits, grids, stop "
        "rules and round limits) and is the one the book shows. Its grid cells are stored as "
        "records keyed by everything that determines them and committed under "
        "`data/results/<paper>/store-full/`, so `make book` loads them instead of computing "
        "them, a rerun skips what is stored, and an interrupted run loses only the cells in "
        "flight. Where a chapter shows a result of less than the paper's protocol, the "
        "reduction is stated beside that result; this page says what the full runs cost and "
        "how to run them.",
        "",
        "```bash",
        "make book                                        # loads every stored cell",
        "marginboost reproduce shen_li figure2 --profile full   # rerun one notebook",
        "```",
        "",
    ]
    lines += _recompute_section(root)
    lines += _dmcboost_section(root)
    return "\n".join(lines).rstrip("\n") + "\n"
