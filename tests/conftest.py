"""Test-session set-up shared by the whole suite.

``make test`` runs the files on pytest-xdist workers, one file per worker at a time, in the
order they are collected (``--no-loadscope-reorder``; xdist would otherwise start with the
files that hold the most tests).  The files that take longest (measured with
``--durations=0`` on a fresh clone, two workers) are moved to the front, longest first, so
that the short files and the notebooks fill in at the end instead of one long file running
alone while the other workers wait.  The order of the tests inside a file is unchanged.
"""

from __future__ import annotations

from pathlib import Path

#: The slowest files first, longest first (paths relative to the repository root).
SLOW_FIRST = (
    "tests/test_sklearn_compliance.py",
    "tests/test_book_browser.py",
    "tests/test_docstrings.py",
    "tests/test_stored_results.py",
    "tests/test_fast_histograms.py",
    "tests/test_dmcboost.py",
    "notebooks/directboost-table2.ipynb",
    "notebooks/shen_li-duality-checks.ipynb",
    "tests/test_dmcboost_reference.py",
    "tests/test_directboost_edges.py",
    "tests/test_experiments_runner.py",
    "tests/test_directboost.py",
    "tests/test_notebooks.py",
    "notebooks/shen_li-table5-8.ipynb",
    "tests/test_duality_pairs.py",
    "tests/test_data_poker.py",
    "notebooks/mcboost-table1-2.ipynb",
    "tests/test_directboost_reference.py",
    "notebooks/anyboost-figure1.ipynb",
    "tests/test_stagewise.py",
    "notebooks/shen_li-table2-3.ipynb",
)

_ROOT = Path(__file__).resolve().parents[1]


def pytest_collection_modifyitems(session, config, items):
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}

    def key(item) -> int:
        try:
            path = Path(str(item.fspath)).resolve().relative_to(_ROOT).as_posix()
        except ValueError:
            return len(rank)
        return rank.get(path, len(rank))

    items.sort(key=key)  # stable: the order within a file and among the others is kept
