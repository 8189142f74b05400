"""The book's performance page, rendered from the benchmark results in ``benchmarks/results``.

Each benchmark script in ``benchmarks/`` writes one JSON file of measured cases; this module turns
them into a MyST page.  Nothing here measures anything: the page shows what the last run of
``marginboost bench`` measured, with the machine it ran on.
"""

from __future__ import annotations

from pathlib import Path

from .common import (
    ADABOOST_GOALS,
    COLUMN_GENERATION_GOALS,
    DIRECTBOOST_GOALS,
    LIGHTGBM_GOALS,
    MULTICLASS_GOALS,
    STARTUP_GOALS,
    load_benchmark_results,
)
from .cost import recompute_cost, recompute_cost_section
from .direct import directboost_scaling_section, directboost_section
from .masters import (
    column_generation_section,
    dual_masters_section,
    lpboost_convergence_section,
    margin_masters_section,
    write_lpboost_convergence_figure,
)
from .trees import (
    adaboost_section,
    lightgbm_section,
    multiclass_section,
    scaling_fits,
    startup_section,
    write_scaling_figure,
)

__all__ = [
    "performance_page_markdown",
    "load_benchmark_results",
    "ADABOOST_GOALS",
    "COLUMN_GENERATION_GOALS",
    "DIRECTBOOST_GOALS",
    "MULTICLASS_GOALS",
    "STARTUP_GOALS",
    "LIGHTGBM_GOALS",
    "recompute_cost",
    "scaling_fits",
    "write_scaling_figure",
    "write_lpboost_convergence_figure",
    "fold_wide_tables",
]


def performance_page_markdown(root: Path | None = None) -> str:
    """The MyST text of ``book/performance.md``."""
    results = load_benchmark_results(root)
    lines = [
        "# Performance",
        "",
        "Speed goals are ratios against a named reference measured in the same run on the "
        "same machine, never absolute timings asserted in tests. Rerun with "
        "`marginboost bench NAME`; the page is regenerated from `benchmarks/results/`.",
        "",
    ]
    if "adaboost" in results:
        lines += adaboost_section(results["adaboost"])
    if "column_generation" in results:
        lines += column_generation_section(results["column_generation"])
    if "lpboost_convergence" in results:
        lines += lpboost_convergence_section(
            results["lpboost_convergence"], results.get("directboost")
        )
    if "margin_masters" in results:
        lines += margin_masters_section(results["margin_masters"])
    if "directboost" in results:
        lines += directboost_section(results["directboost"])
    if "directboost_scaling" in results:
        lines += directboost_scaling_section(results["directboost_scaling"])
    if "dual_masters" in results:
        lines += dual_masters_section(results["dual_masters"])
    if not results:
        lines += ["No benchmark has been run yet."]
    lines += multiclass_section(results.get("multiclass"))
    if "lightgbm" in results:
        lines += lightgbm_section(results["lightgbm"])
    if "startup" in results:
        lines += startup_section(results["startup"])
    lines += recompute_cost_section(root)
    return "\n".join(fold_wide_tables("\n".join(lines).split("\n"))) + "\n"


#: The most columns a table of the page shows side by side: more do not fit the text column of
#: a book page at 1280 px (about 690 px) with the page's numbers and headers.
PAGE_TABLE_COLUMNS = 7


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip()[1:-1].split(" | ")]


def _md_table(header: list[str], rows: list[list[str]], columns: list[int]) -> list[str]:
    """The markdown lines of the table of ``header`` and ``rows`` restricted to ``columns``."""
    return [
        "| " + " | ".join(header[c] for c in columns) + " |",
        "|" + "---|" * len(columns),
        *("| " + " | ".join(r[c] for c in columns) + " |" for r in rows),
    ]


def fold_wide_tables(lines: list[str], max_columns: int = PAGE_TABLE_COLUMNS) -> list[str]:
    """The page's lines with every markdown table of more than ``max_columns`` columns folded
    in two: the first ``max_columns`` columns, then, under "The same rows, continued:", the
    columns that identify a row (the shortest leading run of columns whose values differ
    from row to row) and the rest.

    >>> fold_wide_tables(["| a | b | c |", "|---|---|---|", "| x | 1 | 2 |", "| y | 3 | 4 |"], 2)
    ['| a | b |', '|---|---|', '| x | 1 |', '| y | 3 |', '', 'The same rows, continued:', \
'', '| a | c |', '|---|---|', '| x | 2 |', '| y | 4 |']
    """
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not (lines[i].startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|-")):
            out.append(lines[i])
            i += 1
            continue
        end = i + 2
        while end < len(lines) and lines[end].startswith("| "):
            end += 1
        header, rows = _cells(lines[i]), [_cells(line) for line in lines[i + 2 : end]]
        if len(header) <= max_columns or any(len(r) != len(header) for r in rows):
            out += lines[i:end]
            i = end
            continue
        keys = 1
        while keys < max_columns - 1 and len({tuple(r[:keys]) for r in rows}) < len(rows):
            keys += 1

        rest = list(range(max_columns, len(header)))
        out += _md_table(header, rows, list(range(max_columns)))
        out += ["", "The same rows, continued:", ""]
        for start in range(0, len(rest), max_columns - keys):
            if start:
                out += [""]
            out += _md_table(
                header, rows, list(range(keys)) + rest[start : start + max_columns - keys]
            )
        i = end
    return out
