"""The ``marginboost`` command's arguments: one parser, read by the command and by its page.

Each subcommand names the function of :mod:`marginboost.cli` that runs it (``func``, by name),
so the parser can be built (for ``--help`` and for the book's command reference) without
importing the commands or anything they use.
"""

from __future__ import annotations

import argparse

__all__ = ["build_parser"]


def _positive_jobs(text: str) -> int:
    """``--jobs``: a whole number of worker processes, at least 1 (checked before any work)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"must be a whole number >= 1 (the worker processes of a grid); got {value}"
        )
    return value


def _add_grid_options(parser: argparse.ArgumentParser) -> None:
    """``--jobs`` and ``--scheduler``: where a command's grid cells run."""
    parser.add_argument(
        "--jobs", type=_positive_jobs, default=1, help="parallel workers for grids (>= 1)"
    )
    parser.add_argument(
        "--scheduler",
        default=None,
        help="address of a running dask.distributed scheduler (tcp://host:port)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``marginboost`` command."""
    from . import __version__
    from ._profiles import PROFILES

    parser = argparse.ArgumentParser(
        prog="marginboost",
        description="Margin-based boosting: data, reproductions of five papers, and the book.",
    )
    parser.add_argument("--version", action="version", version=f"marginboost {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    data = sub.add_parser("data", help="the dataset registry")
    data_sub = data.add_subparsers(dest="data_command", required=True)
    data_sub.add_parser("list", help="print the registry as a table").set_defaults(
        func="_cmd_data_list"
    )
    verify = data_sub.add_parser(
        "verify", help="check every data file's sha256; exit 1 on problems"
    )
    verify.add_argument(
        "--mirror",
        default=None,
        help="mirror folder (default: $MARGINBOOST_DATA_MIRROR, then the cache)",
    )
    verify.set_defaults(func="_cmd_data_verify")
    fetch = data_sub.add_parser(
        "fetch", help="download data files into the cache (checked against their sha256)"
    )
    fetch.add_argument("names", nargs="*", help="dataset names (default: every registered file)")
    fetch.add_argument(
        "--mirror",
        default=None,
        help="mirror folder to take files from (default: $MARGINBOOST_DATA_MIRROR)",
    )
    fetch.set_defaults(func="_cmd_data_fetch")

    rep = sub.add_parser("reproduce", help="execute a paper's notebooks (one item or all)")
    rep.add_argument(
        "paper",
        help="paper id: anyboost, shen_li, mcboost, directboost or dmcboost (the registry "
        "marginboost.papers.PROTOCOLS; an unknown id is answered with the list)",
    )
    rep.add_argument("item", nargs="?", default=None, help="table/figure id, e.g. table1")
    rep.add_argument("--profile", choices=PROFILES, default="quick")
    _add_grid_options(rep)
    rep.add_argument(
        "--protocol",
        choices=("book", "paper"),
        default="book",
        help="'paper': DMCBoost's Tables 2-4 on the paper's protocol in full (every data set, "
        "rotation, depth and noise rate; the full profile only), for a cluster; the executed "
        "notebooks go to a folder of their own and the book's results are left as they are",
    )
    rep.set_defaults(func="_cmd_reproduce")

    cells = sub.add_parser(
        "cells",
        help="compute cells of DMCBoost's Tables 2-4 on the paper's protocol that the result "
        "store lacks, chosen by table, data set and method",
        description="Compute the cells of DMCBoost's Tables 2-4 on the paper's protocol (every "
        "data set, rotation, depth and noise rate) that the result store lacks: all of them, "
        "or those of the tables, data sets (--dataset) and methods (--method) named. Each "
        "finished cell is stored at once (an interrupted run loses only the cells in progress, "
        "and DMCBoost's cells go on from their last checkpoint); the estimated CPU hours are "
        "printed first. Then the DMCBoost cells of the tables named whose chosen n' ended on "
        "the safety cap run again with a cap four times larger (Table 4's first, as its "
        "notebook does; then Tables 2 and 3's, whose notebook shows them beside the capped "
        "runs). `marginboost results update dmcboost --profile full` then records the cells "
        "with the committed results.",
    )
    cells.add_argument("paper", help="paper id (only dmcboost has such a protocol)")
    cells.add_argument(
        "tables", nargs="*", default=[], help="table2, table3 and/or table4 (default: all)"
    )
    cells.add_argument(
        "--dataset",
        action="append",
        default=[],
        help="only this data set, by the paper's name (e.g. Waveform); repeat for more",
    )
    cells.add_argument(
        "--method",
        action="append",
        default=[],
        help="only this method (AdaBoost.M1, AdaBoost.MH, SAMME, GD-MCBoost, DMCBoost); "
        "repeat for more",
    )
    _add_grid_options(cells)
    cells.add_argument(
        "--dry-run", action="store_true", help="list the cells and their estimated cost only"
    )
    cells.set_defaults(func="_cmd_cells")

    results = sub.add_parser("results", help="the committed results under data/results")
    results_sub = results.add_subparsers(dest="results_command", required=True)
    update = results_sub.add_parser(
        "update",
        help="copy the results of runs (_build/results) into data/results, saying "
        "what changed and by how much; regenerate the generated pages",
    )
    update.add_argument("paper", nargs="?", default=None, help="only this paper")
    update.add_argument("--profile", choices=PROFILES, default=None, help="only this profile")
    update.add_argument("--dry-run", action="store_true", help="report only; write nothing")
    update.add_argument(
        "--exact",
        action="store_true",
        help="also write numbers that moved only within their committed "
        "tolerances (kept by default)",
    )
    update.set_defaults(func="_cmd_results_update")

    score = sub.add_parser("scoreboard", help="status of every claim of the five papers")
    score.add_argument("--output", default=None, help="write the MyST page to this file")
    score.add_argument(
        "--update",
        action="store_true",
        help="run the unit tests the claims name and record their outcomes "
        "(data/results/unit_checks.yaml), then regenerate data/results/scoreboard.yaml, "
        "book/scoreboard.md and book/not_reproduced.md from the claims' predicates",
    )
    score.add_argument(
        "--no-tests",
        action="store_true",
        help="with --update: keep the recorded test outcomes instead of running the tests again",
    )
    score.set_defaults(func="_cmd_scoreboard")

    book = sub.add_parser("book", help="execute the notebooks and build the HTML book")
    book.add_argument("--profile", choices=PROFILES, default="quick")
    book.add_argument("--strict", action="store_true", help="treat Sphinx warnings as errors")
    book.add_argument(
        "--no-execute",
        action="store_true",
        help="reuse the executed notebooks in _build/executed/<profile>",
    )
    book.add_argument(
        "--jobs",
        type=_positive_jobs,
        default=None,
        help="notebooks executed at once (default: one per core, at most 8)",
    )
    book.set_defaults(func="_cmd_book")

    compile_ = sub.add_parser(
        "compile",
        help="compile and cache the numba kernels ahead of the first fit (a bar of the estimators)",
    )
    compile_.set_defaults(func="_cmd_compile")

    bench = sub.add_parser("bench", help="run speed benchmarks and regenerate the performance page")
    bench.add_argument("name", nargs="?", default=None, help="benchmark name (default: all)")
    bench.add_argument("--quick", action="store_true", help="a short smoke run")
    bench.add_argument(
        "--output-dir",
        default=None,
        help="write the results here instead of benchmarks/results, and leave the performance "
        "page as it is (for smoke runs: `marginboost bench --quick --output-dir DIR`)",
    )
    bench.set_defaults(func="_cmd_bench")

    nbs = sub.add_parser("notebooks", help="maintain the committed reference notebooks")
    nbs_sub = nbs.add_subparsers(dest="notebooks_command", required=True)
    refresh = nbs_sub.add_parser(
        "refresh", help="re-execute notebooks (quick profile) into their paired .ipynb"
    )
    refresh.add_argument("names", nargs="*", help="notebook names (default: all)")
    refresh.set_defaults(func="_cmd_notebooks_refresh")
    return parser
