"""The page's section on what recomputing every stored grid cell would cost."""

from __future__ import annotations

import json
from pathlib import Path


def recompute_cost(root: Path | None = None) -> list[dict]:
    """What recomputing the committed full-profile grids costs, from the stores' own records.

    One row per paper and grid (the ``table``/``figure`` field of the cell specs, else the
    protocol), counting the cells the paper's notebooks compute
    (:func:`~marginboost.papers.notebook_cells`): the number of cells, the sum of their recorded ``elapsed_seconds`` (each cell runs
    on one core, so this is core-seconds) and the largest single cell.
    """

    from ..._paths import require_project_root
    from ...experiments.store import cell_key
    from ...papers import PROTOCOLS, notebook_cells

    root = Path(root) if root is not None else require_project_root()
    rows: dict[tuple[str, str], dict] = {}
    referenced: dict[str, set[str]] = {}
    for path in sorted((root / "data" / "results").glob("*/store-full/*/*.json")):
        paper = path.parts[-4]
        if paper in PROTOCOLS and paper not in referenced:
            referenced[paper] = {cell_key(c) for c in notebook_cells(paper, "full")}
        if paper in referenced and path.stem not in referenced[paper]:
            continue  # a record of an earlier protocol: no notebook computes it
        record = json.loads(path.read_text())
        spec = record["spec"]
        grid = str(spec.get("table") or spec.get("figure") or spec.get("protocol") or "?")
        row = rows.setdefault(
            (paper, grid),
            {"paper": paper, "grid": grid, "cells": 0, "core_seconds": 0.0, "largest_cell_s": 0.0},
        )
        row["cells"] += 1
        row["core_seconds"] += float(record["elapsed_seconds"])
        row["largest_cell_s"] = max(row["largest_cell_s"], float(record["elapsed_seconds"]))
    return [rows[key] for key in sorted(rows)]


def recompute_cost_section(root: Path | None) -> list[str]:
    rows = recompute_cost(root)
    if not rows:
        return []
    total = sum(r["core_seconds"] for r in rows)
    lines = [
        "",
        "## The cost of recomputing this book",
        "",
        "Every full-profile grid cell committed under `data/results/<paper>/store-full/` "
        "records the seconds it took (one cell runs on one core; the cells were computed on "
        "2-core machines, some while the machine did other work, so these are upper-end "
        "estimates; the exceptions are DMCBoost's 500-round cells for rotations 1-4 of "
        "CNAE-9, computed on a 16-core machine eight cells at a time with two threads each, "
        "whose seconds are wall-clock seconds there, and its cells on the paper's protocol for "
        "rotations 2-4, run three at a time on two cores). Summed per grid, they say what a "
        "reader "
        "pays to recompute the book's evidence instead of loading it:",
        "",
        "| paper | grid | cells | core-hours | hours on 2 cores | largest cell (s) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['paper']} | {r['grid']} | {r['cells']} | "
            f"{r['core_seconds'] / 3600:.2f} | {r['core_seconds'] / 7200:.2f} | "
            f"{r['largest_cell_s']:.0f} |"
        )
    lines += [
        f"| **all** | | {sum(r['cells'] for r in rows)} | **{total / 3600:.2f}** | "
        f"**{total / 7200:.2f}** | |",
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
    ]
    return lines
