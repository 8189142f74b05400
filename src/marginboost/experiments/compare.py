"""Side-by-side tables of the paper's numbers and ours, with a verdict per number."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from ..reporting import TEXT_WIDTH as _TEXT_WIDTH
from .targets import TABLE_COLUMNS, target_table

__all__ = [
    "compare",
    "compare_tables",
    "verdict",
    "agreement_tolerance",
    "verdict_counts",
    "describe_agreement",
    "VERDICT_RULE",
    "VERDICTS",
    "RULE_VARIANTS",
    "SE_MULTIPLE",
    "FLOOR_POINTS",
    "POINT",
]

#: Standard errors of the difference within which a number agrees (the rule's ``k``).
SE_MULTIPLE = 2.0
#: The least tolerance, in points of the table's unit (:data:`POINT`).
FLOOR_POINTS = 1.0
#: One point in each unit of ``data/targets/`` (a percentage point; 0.01 for error fractions).
#: Tables in other units state their floor with the comparison (``atol=``).
POINT = {"percent": 1.0, "fraction": 0.01}

#: The rule and the two variants shown beside it: name -> (multiple of SE_diff, floor in points).
RULE_VARIANTS = {"stricter": (1.0, 0.5), "rule": (SE_MULTIPLE, FLOOR_POINTS), "looser": (3.0, 2.0)}

DEFAULT_ATOL = None

_ROUNDING_SLACK = 1e-9

#: The possible verdicts, in the order they are checked.
VERDICTS = ("no paper value", "not run", "agrees", "differs")

#: How a verdict is reached (printed by every comparison notebook through
#: :func:`describe_agreement`, and shown in the API reference).
VERDICT_RULE = (
    "A number 'agrees' when |ours - paper| <= max(2 * SE_diff, 1 point), where SE_diff = "
    "sqrt(s_paper^2 / n_paper + s_ours^2 / n_ours) is the standard error of the difference of the "
    "two means: s are the standard deviations over runs (splits, folds or rotations) and n the "
    "numbers of runs; otherwise it 'differs'. n_paper is the paper's number of runs where "
    "data/targets states it; where the paper does not state it we assume it ran as many as we "
    "did. Where the paper prints no standard deviation we assume its run-to-run spread equals "
    "ours; where neither spread is known (a single run each) only the floor applies. One point "
    "is one percentage point for percent errors and 0.01 for error fractions; a table in another "
    "unit states its floor beside the comparison. Beside the verdict counts every comparison "
    "shows the counts under a stricter rule (1 * SE_diff, floor 0.5 point) and a looser one "
    "(3 * SE_diff, floor 2 points). 'not run' means we have no value for the number; 'no paper "
    "value' means the paper prints none (a '-' cell, or a number we report that the paper does "
    "not)."
)


def _missing(x) -> bool:
    return x is None or (isinstance(x, (float, np.floating)) and math.isnan(x))


def _point(unit: str | None, atol: float | None) -> float:
    """One point of a table: ``atol`` where stated, else from the unit (0 for other units)."""
    if atol is not None:
        return float(atol) / FLOOR_POINTS
    return POINT.get(unit or "none", 0.0)


def agreement_tolerance(
    paper_std: float | None,
    paper_runs: float | None,
    ours_std: float | None,
    ours_runs: float | None,
    *,
    point: float,
    se_multiple: float = SE_MULTIPLE,
    floor_points: float = FLOOR_POINTS,
) -> tuple[float, float]:
    """``(tolerance, SE_diff)`` of one number under :data:`VERDICT_RULE`.

    Missing values (NaN or None) follow the rule's assumptions: a missing paper std is taken to
    equal ours, a missing paper run count to equal ours; a missing std of ours (or a single run)
    leaves only the paper's term, and with neither spread known ``SE_diff`` is NaN and only the
    floor ``floor_points * point`` applies.
    """
    s_ours = None if ours_std is None or _missing(ours_std) else abs(float(ours_std))
    n_ours = (
        None
        if ours_runs is None or _missing(ours_runs) or float(ours_runs) < 1
        else float(ours_runs)
    )
    s_paper = s_ours if paper_std is None or _missing(paper_std) else abs(float(paper_std))
    n_paper = (
        n_ours
        if paper_runs is None or _missing(paper_runs) or float(paper_runs) < 1
        else float(paper_runs)
    )
    terms = []
    for s, n in ((s_paper, n_paper), (s_ours, n_ours)):
        if s is not None and n is not None:
            terms.append(s * s / n)
    se = math.sqrt(sum(terms)) if terms else math.nan
    floor = floor_points * point
    return (floor if math.isnan(se) else max(se_multiple * se, floor)), se


def verdict(
    paper_mean: float,
    paper_std: float | None,
    ours_mean: float,
    *,
    ours_std: float | None = None,
    paper_runs: float | None = None,
    ours_runs: float | None = None,
    point: float = 1.0,
    se_multiple: float = SE_MULTIPLE,
    floor_points: float = FLOOR_POINTS,
) -> str:
    """Verdict for one number according to :data:`VERDICT_RULE`.

    NaN (or None) stands for a missing value: a missing paper value gives ``"no paper value"``,
    a missing value of ours ``"not run"``; missing spreads and run counts follow the rule's
    assumptions (:func:`agreement_tolerance`).  ``point`` is one point in the table's unit.
    """
    if _missing(paper_mean):
        return "no paper value"
    if _missing(ours_mean):
        return "not run"
    tolerance, _ = agreement_tolerance(
        paper_std,
        paper_runs,
        ours_std,
        ours_runs,
        point=point,
        se_multiple=se_multiple,
        floor_points=floor_points,
    )
    # a tiny slack so that a difference equal to the tolerance in decimal still agrees
    slack = _ROUNDING_SLACK * max(1.0, abs(float(paper_mean)))
    return "agrees" if abs(float(ours_mean) - float(paper_mean)) <= tolerance + slack else "differs"


def _verdicts(
    table: pd.DataFrame, point: float, se_multiple: float, floor_points: float
) -> list[str]:
    return [
        verdict(
            p,
            s,
            o,
            ours_std=so,
            paper_runs=pn,
            ours_runs=on,
            point=point,
            se_multiple=se_multiple,
            floor_points=floor_points,
        )
        for p, s, o, so, pn, on in zip(
            table["paper"],
            table["paper_std"],
            table["ours"],
            table["ours_std"],
            table["paper_runs"],
            table["n_runs"],
        )
    ]


def verdict_counts(table: pd.DataFrame) -> pd.DataFrame:
    """How many numbers agree and differ under the rule and its two variants.

    Parameters
    ----------
    table : pandas.DataFrame
        A comparison from :func:`compare` or :func:`compare_tables` (or a subset of its rows);
        its ``attrs["point"]`` gives one point in the table's unit.

    Returns
    -------
    pandas.DataFrame
        One row per variant of :data:`~marginboost.experiments.compare.RULE_VARIANTS`
        (stricter, rule, looser) with the multiple of ``SE_diff``, the floor in points and the
        counts of ``agrees`` and ``differs``; rows without a paper value or without a value of
        ours are not counted.

    Examples
    --------
    >>> import pandas as pd
    >>> from marginboost.experiments import compare_tables, verdict_counts
    >>> paper = pd.DataFrame({"dataset": "sonar", "algorithm": ["A", "B"], "metric": "test_error",
    ...                       "mean": [20.0, 15.0], "std": [4.0, float("nan")]})
    >>> paper.attrs.update(unit="percent", paper_runs=10, paper_runs_note="10 random splits")
    >>> ours = pd.DataFrame({"dataset": "sonar", "algorithm": ["A", "B"], "metric": "test_error",
    ...                      "mean": [21.5, 19.0], "std": [3.0, 2.0], "n_runs": 10})
    >>> table = compare_tables(paper, ours)
    >>> print(verdict_counts(table).to_string(index=False))
        rule  k * SE_diff  floor (points)  agrees  differs
    stricter          1.0             0.5       1        1
        rule          2.0             1.0       1        1
      looser          3.0             2.0       1        1
    """
    point = table.attrs.get("point", 1.0)
    rows = []
    for name, (k, floor) in RULE_VARIANTS.items():
        got = pd.Series(_verdicts(table, point, k, floor), dtype=object)
        rows.append(
            {
                "rule": name,
                "k * SE_diff": k,
                "floor (points)": floor,
                "agrees": int((got == "agrees").sum()),
                "differs": int((got == "differs").sum()),
            }
        )
    return pd.DataFrame(rows)


#: The widest line of the text this module prints: a book page's output column shows about 77
#: monospace characters at a 1280 px window; the rest is a margin for wider fonts.
TEXT_WIDTH = _TEXT_WIDTH


def describe_agreement(table: pd.DataFrame, *, rule: bool = True) -> str:
    """The agreement rule (:data:`VERDICT_RULE`) and the verdict counts of ``table`` under it
    and under the stricter and looser variants, as text for a notebook to print.

    Parameters
    ----------
    table : pandas.DataFrame
        A comparison from :func:`compare` or :func:`compare_tables` (or a subset of its rows).
    rule : bool, optional
        Begin with the text of :data:`VERDICT_RULE` (default).  Every line is at most
        :data:`TEXT_WIDTH` characters wide, so that none is cut off on a book page.

    Returns
    -------
    str
        The rule, a line stating one point in the table's unit and the paper's number of runs
        (``attrs["paper_runs_note"]``), and the table of :func:`verdict_counts`.

    Examples
    --------
    >>> import pandas as pd
    >>> from marginboost.experiments import compare_tables, describe_agreement
    >>> paper = pd.DataFrame({"dataset": "sonar", "algorithm": ["A", "B"], "metric": "test_error",
    ...                       "mean": [20.0, 15.0], "std": [4.0, float("nan")]})
    >>> paper.attrs.update(unit="percent", paper_runs=10, paper_runs_note="10 random splits")
    >>> ours = pd.DataFrame({"dataset": "sonar", "algorithm": ["A", "B"], "metric": "test_error",
    ...                      "mean": [21.5, 19.0], "std": [3.0, 2.0], "n_runs": 10})
    >>> table = compare_tables(paper, ours)
    >>> print(describe_agreement(table, rule=False))
    here: one point = 1 (percent); the paper's runs: 10 random splits
        rule  k * SE_diff  floor (points)  agrees  differs
    stricter          1.0             0.5       1        1
        rule          2.0             1.0       1        1
      looser          3.0             2.0       1        1
    >>> print(describe_agreement(table).splitlines()[0])
    A number 'agrees' when |ours - paper| <= max(2 * SE_diff, 1 point),
    """
    point = table.attrs.get("point", 1.0)
    unit = table.attrs.get("unit", "none")
    runs = table.attrs.get("paper_runs_note") or "not stated (assumed equal to ours)"
    lines = []
    if rule:
        lines += textwrap.wrap(VERDICT_RULE, TEXT_WIDTH) + [""]
    lines += textwrap.wrap(
        f"here: one point = {point:g} ({unit}); the paper's runs: {runs}", TEXT_WIDTH
    )
    lines.append(verdict_counts(table).to_string(index=False))
    return "\n".join(lines)


def _check_atol(atol) -> None:
    if atol is None:
        return
    if not (isinstance(atol, (int, float)) and math.isfinite(atol) and atol >= 0):
        raise ValueError(f"atol must be a finite number >= 0 or None, got {atol!r}")


def _check_ours(ours: pd.DataFrame) -> pd.DataFrame:
    if not isinstance(ours, pd.DataFrame):
        raise TypeError(f"ours must be a pandas DataFrame, got {type(ours).__name__}")
    required = ["dataset", "algorithm", "metric", "mean"]
    missing = [c for c in required if c not in ours.columns]
    if missing:
        raise ValueError(
            f"ours lacks columns {missing}; it needs {required} (and optionally "
            f"std, n_runs), it has {list(ours.columns)}"
        )
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


def _paper_runs(attrs: dict, datasets) -> list[float]:
    runs = attrs.get("paper_runs")
    if runs is None:
        return [math.nan] * len(datasets)
    if isinstance(runs, dict):
        default: float = runs.get("default", math.nan)
        return [float(runs.get(d, default)) for d in datasets]
    return [float(runs)] * len(datasets)


def compare_tables(
    paper_table: pd.DataFrame, ours: pd.DataFrame, *, atol: float | None = DEFAULT_ATOL
) -> pd.DataFrame:
    r"""Join a paper table (from :func:`~marginboost.experiments.target_table`) with ours.

    ``paper_table.attrs`` may carry ``unit`` (which fixes one point, :data:`POINT`) and
    ``paper_runs`` (the paper's number of runs: a number, or a mapping from data set to number
    with an optional ``default``); ``atol`` states the floor of the rule in the table's unit
    where the unit has no point (or overrides it).

    Parameters
    ----------
    paper_table : pandas.DataFrame
        The paper's numbers, columns ``dataset, algorithm, metric, mean, std`` (as returned by
        :func:`~marginboost.experiments.target_table`).
    ours : pandas.DataFrame
        Our numbers: columns ``dataset, algorithm, metric, mean`` and optionally ``std`` and
        ``n_runs`` (the number of runs behind each mean), labelled as in ``paper_table`` and in
        the same unit; at most one row per label.
    atol : float, optional
        One point (the floor of the rule) in the table's unit; ``None`` takes it from
        ``paper_table.attrs["unit"]`` (0 for a unit without a point).

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, algorithm, metric, paper, paper_std, paper_runs, ours, ours_std,
        n_runs, difference, tolerance, verdict``: first the paper's rows in its order, then rows
        only we report.  ``difference`` is ``ours - paper``; ``tolerance`` is
        ``max(2 * SE_diff, 1 point)`` of :data:`VERDICT_RULE`.  ``attrs`` holds the rule, the
        point and the paper's runs, which :func:`verdict_counts` and
        :func:`describe_agreement` use.

    Raises
    ------
    TypeError
        If ``ours`` is not a DataFrame.
    ValueError
        If a required column is missing or not numeric, ``ours`` repeats a label, or ``atol``
        is negative or not finite.

    Notes
    -----
    For each number, with :math:`s` the standard deviations over runs and :math:`n` the
    numbers of runs,

    .. math::

        \mathrm{SE}_{\mathrm{diff}} = \sqrt{s_{\mathrm{paper}}^2 / n_{\mathrm{paper}}
        + s_{\mathrm{ours}}^2 / n_{\mathrm{ours}}},

    and the number agrees when :math:`|\mathrm{ours} - \mathrm{paper}| \le
    \max(2\,\mathrm{SE}_{\mathrm{diff}}, 1\ \mathrm{point})`.  A missing paper standard
    deviation is taken equal to ours, a missing paper run count equal to ours; with neither
    spread known only the floor applies (:data:`VERDICT_RULE`).

    Examples
    --------
    The paper gives no standard deviation for B, so ours stands in for it:

    >>> import pandas as pd
    >>> from marginboost.experiments import compare_tables
    >>> paper = pd.DataFrame({"dataset": "sonar", "algorithm": ["A", "B"], "metric": "test_error",
    ...                       "mean": [20.0, 15.0], "std": [4.0, float("nan")]})
    >>> paper.attrs.update(unit="percent", paper_runs=10, paper_runs_note="10 random splits")
    >>> ours = pd.DataFrame({"dataset": "sonar", "algorithm": ["A", "B"], "metric": "test_error",
    ...                      "mean": [21.5, 19.0], "std": [3.0, 2.0], "n_runs": 10})
    >>> table = compare_tables(paper, ours)
    >>> print(table[["algorithm", "difference", "tolerance", "verdict"]].round(2)
    ...       .to_string(index=False))
    algorithm  difference  tolerance verdict
            A         1.5       3.16  agrees
            B         4.0       1.79 differs
    """
    _check_atol(atol)
    missing = [c for c in TABLE_COLUMNS if c not in paper_table.columns]
    if missing:
        raise ValueError(f"paper_table lacks columns {missing}")
    ours = _check_ours(ours)
    keys = ["dataset", "algorithm", "metric"]
    left = paper_table[list(TABLE_COLUMNS)].rename(columns={"mean": "paper", "std": "paper_std"})
    right = ours[keys + ["mean", "std", "n_runs"]].rename(
        columns={"mean": "ours", "std": "ours_std"}
    )
    table = left.merge(right, on=keys, how="outer", sort=False, indicator=True)
    # paper rows first (in the paper's order), then ours-only rows in our order
    order = {k: i for i, k in enumerate(map(tuple, left[keys].to_numpy()))}
    extra = {k: len(order) + i for i, k in enumerate(map(tuple, right[keys].to_numpy()))}
    rank = [order.get(k, extra.get(k)) for k in map(tuple, table[keys].to_numpy())]
    table = table.assign(_rank=rank).sort_values("_rank").drop(columns=["_rank", "_merge"])
    table = table.reset_index(drop=True)
    table["paper_runs"] = _paper_runs(paper_table.attrs, table["dataset"])
    point = _point(paper_table.attrs.get("unit"), atol)
    table["difference"] = table["ours"] - table["paper"]
    table["tolerance"] = [
        agreement_tolerance(s, pn, so, on, point=point)[0] if not _missing(o) else math.nan
        for s, pn, so, on, o in zip(
            table["paper_std"],
            table["paper_runs"],
            table["ours_std"],
            table["n_runs"],
            table["ours"],
        )
    ]
    table["verdict"] = _verdicts(table, point, SE_MULTIPLE, FLOOR_POINTS)
    table = table[
        keys
        + [
            "paper",
            "paper_std",
            "paper_runs",
            "ours",
            "ours_std",
            "n_runs",
            "difference",
            "tolerance",
            "verdict",
        ]
    ].copy()
    table.attrs.update(paper_table.attrs)
    table.attrs.update(verdict_rule=VERDICT_RULE, point=point, atol=atol)
    return table


def compare(
    paper: str,
    item: str,
    ours: pd.DataFrame,
    *,
    atol: float | None = DEFAULT_ATOL,
    directory: str | Path | None = None,
) -> pd.DataFrame:
    """Compare our numbers with one table (or figure) of a paper.

    Parameters
    ----------
    paper, item
        Target identifiers, e.g. ``("mcboost", "table1")``.
    ours
        Columns ``dataset, algorithm, metric, mean`` and optionally ``std, n_runs``, labelled as
        in :func:`~marginboost.experiments.target_table` (same units as the paper).
    atol
        The floor of the rule (one point) in the table's unit, for tables whose unit has no
        point (:data:`POINT`); ``None`` takes it from the unit.
    directory
        Folder of the target files (default: the checkout's ``data/targets``).

    Returns
    -------
    pandas.DataFrame
        See :func:`compare_tables`; print :func:`describe_agreement` of it (or of the rows
        shown) to state the rule and the counts under its stricter and looser variants.

    Raises
    ------
    ValueError
        If the paper or item is unknown or has no comparable numbers, or ``ours`` is malformed
        (see :func:`compare_tables`).

    Examples
    --------
    Two numbers of MCBoost's Table 1 (test error in percent over 50 random splits); the
    paper's other numbers have no value of ours:

    >>> import pandas as pd
    >>> from marginboost.experiments import compare
    >>> ours = pd.DataFrame({"dataset": "banana", "algorithm": ["MC", "AB"],
    ...                      "metric": "test_error", "mean": [26.9, 31.0], "std": [1.0, 1.4],
    ...                      "n_runs": 50})
    >>> table = compare("mcboost", "table1", ours)
    >>> print(table.head(2)[["dataset", "algorithm", "paper", "ours", "verdict"]]
    ...       .to_string(index=False))
    dataset algorithm  paper  ours verdict
     banana        MC   26.5  26.9  agrees
     banana        AB   27.1  31.0 differs
    >>> bool((table["verdict"][2:] == "not run").all())
    True
    """
    return compare_tables(target_table(paper, item, directory=directory), ours, atol=atol)
