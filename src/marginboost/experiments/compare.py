"""Side-by-side tables of the paper's numbers and ours, with a verdict per number."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from .targets import TABLE_COLUMNS, target_table

__all__ = ["compare", "compare_tables", "verdict", "VERDICT_RULE", "VERDICTS", "DEFAULT_RTOL",
           "DEFAULT_ATOL"]

#: Relative part of the agreement tolerance (fraction of the paper's value).
DEFAULT_RTOL = 0.10
#: Absolute part of the agreement tolerance (in the table's unit); 0 unless the caller sets it.
DEFAULT_ATOL = 0.0

_ROUNDING_SLACK = 1e-9

#: The possible verdicts, in the order they are checked.
VERDICTS = ("no paper value", "not run", "agrees", "differs")

#: How a verdict is reached (shown in the book next to every comparison table).
VERDICT_RULE = (
    "A number 'agrees' when |ours - paper| <= max(paper std, rtol * |paper|, atol): within one "
    "standard deviation the paper reports for it (the run-to-run spread under the paper's own "
    "protocol), or within rtol = 10% of the paper's value where that is larger (this covers "
    "numbers printed without a std or with std 0), or within an absolute tolerance atol stated "
    "with the table (0 by default), up to floating-point rounding. Otherwise it 'differs'. "
    "'not run' means we have no value for it; 'no paper value' means the paper prints none "
    "(a '-' cell, or a number we report that the paper does not)."
)


def verdict(paper_mean: float, paper_std: float, ours_mean: float, *,
            rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL) -> str:
    """Verdict for one number according to :data:`VERDICT_RULE`.

    NaN (or None) stands for a missing value: a missing paper value gives ``"no paper value"``,
    a missing value of ours ``"not run"``; a missing paper std counts as 0.
    """
    def missing(x) -> bool:
        return x is None or (isinstance(x, (float, np.floating)) and math.isnan(x))

    if missing(paper_mean):
        return "no paper value"
    if missing(ours_mean):
        return "not run"
    std = 0.0 if missing(paper_std) else abs(float(paper_std))
    tolerance = max(std, rtol * abs(float(paper_mean)), atol)
    # a tiny slack so that a difference equal to the tolerance in decimal still agrees
    slack = _ROUNDING_SLACK * max(1.0, abs(float(paper_mean)))
    return ("agrees" if abs(float(ours_mean) - float(paper_mean)) <= tolerance + slack
            else "differs")


def _check_tolerances(rtol: float, atol: float) -> None:
    for name, value in (("rtol", rtol), ("atol", atol)):
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")


def _check_ours(ours: pd.DataFrame) -> pd.DataFrame:
    if not isinstance(ours, pd.DataFrame):
        raise TypeError(f"ours must be a pandas DataFrame, got {type(ours).__name__}")
    required = ["dataset", "algorithm", "metric", "mean"]
    missing = [c for c in required if c not in ours.columns]
    if missing:
        raise ValueError(f"ours lacks columns {missing}; it needs {required} (and optionally "
                         f"std, n_runs), it has {list(ours.columns)}")
    ours = ours.copy()
    for column in ("std", "n_runs"):
        if column not in ours:
            ours[column] = np.nan
    for column in ("mean", "std", "n_runs"):
        try:
            ours[column] = pd.to_numeric(ours[column]).astype(float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"ours column {column!r} must be numeric: {exc}") from exc
    for column in ("dataset", "algorithm", "metric"):
        ours[column] = ours[column].astype(str)
    duplicated = ours.duplicated(subset=["dataset", "algorithm", "metric"])
    if duplicated.any():
        row = ours.loc[duplicated, ["dataset", "algorithm", "metric"]].iloc[0].to_dict()
        raise ValueError(f"ours has more than one row for {row}")
    return ours


def compare_tables(paper_table: pd.DataFrame, ours: pd.DataFrame, *, rtol: float = DEFAULT_RTOL,
                   atol: float = DEFAULT_ATOL) -> pd.DataFrame:
    """Join a paper table (from :func:`~marginboost.experiments.target_table`) with ours.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, algorithm, metric, paper, paper_std, ours, ours_std, n_runs,
        difference, verdict``: first the paper's rows in its order, then rows only we report.
        ``difference`` is ``ours - paper``.
    """
    _check_tolerances(rtol, atol)
    missing = [c for c in TABLE_COLUMNS if c not in paper_table.columns]
    if missing:
        raise ValueError(f"paper_table lacks columns {missing}")
    ours = _check_ours(ours)
    keys = ["dataset", "algorithm", "metric"]
    left = paper_table[list(TABLE_COLUMNS)].rename(columns={"mean": "paper", "std": "paper_std"})
    right = ours[keys + ["mean", "std", "n_runs"]].rename(
        columns={"mean": "ours", "std": "ours_std"})
    table = left.merge(right, on=keys, how="outer", sort=False, indicator=True)
    # paper rows first (in the paper's order), then ours-only rows in our order
    order = {k: i for i, k in enumerate(map(tuple, left[keys].to_numpy()))}
    extra = {k: len(order) + i for i, k in enumerate(map(tuple, right[keys].to_numpy()))}
    rank = [order.get(k, extra.get(k)) for k in map(tuple, table[keys].to_numpy())]
    table = table.assign(_rank=rank).sort_values("_rank").drop(columns=["_rank", "_merge"])
    table = table.reset_index(drop=True)
    table["difference"] = table["ours"] - table["paper"]
    table["verdict"] = [verdict(p, s, o, rtol=rtol, atol=atol)
                        for p, s, o in zip(table["paper"], table["paper_std"], table["ours"])]
    table.attrs.update(paper_table.attrs)
    table.attrs["verdict_rule"] = VERDICT_RULE
    table.attrs["rtol"], table.attrs["atol"] = rtol, atol
    return table[keys + ["paper", "paper_std", "ours", "ours_std", "n_runs", "difference",
                         "verdict"]]


def compare(paper: str, item: str, ours: pd.DataFrame, *, rtol: float = DEFAULT_RTOL,
            atol: float = DEFAULT_ATOL, directory: str | Path | None = None) -> pd.DataFrame:
    """Compare our numbers with one table (or figure) of a paper.

    Parameters
    ----------
    paper, item
        Target identifiers, e.g. ``("mcboost", "table1")``.
    ours
        Columns ``dataset, algorithm, metric, mean`` and optionally ``std, n_runs``, labelled as
        in :func:`~marginboost.experiments.target_table` (same units as the paper).
    rtol, atol
        Tolerances of the verdict rule (:data:`VERDICT_RULE`).
    directory
        Folder of the target files (default: the checkout's ``data/targets``).

    Returns
    -------
    pandas.DataFrame
        ``dataset, algorithm, metric, paper, paper_std, ours, ours_std, n_runs, difference,
        verdict`` (see :func:`compare_tables`).
    """
    return compare_tables(target_table(paper, item, directory=directory), ours, rtol=rtol,
                          atol=atol)
