"""What recomputing every stored grid cell would cost: the sums, and the performance page's
pointer to the appendix page that shows them."""

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
    """A pointer to the appendix page that sums these costs (:mod:`.._repo.protocols_page`)."""
    if not recompute_cost(root):
        return []
    total = sum(r["core_seconds"] for r in recompute_cost(root))
    return [
        "",
        "## The cost of recomputing this book",
        "",
        f"Recomputing every committed full-profile grid cell takes about {total / 3600:.0f} "
        f"core-hours ({total / 7200:.0f} hours on 2 cores), summed from the cells' own records; "
        "[Running the papers' full protocols](full-protocols.md) gives the sums per paper and "
        "grid and the commands.",
    ]
