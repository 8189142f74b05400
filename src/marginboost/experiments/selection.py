"""Model selection on validation data, with the tie rules the papers state.

Rounds are counted from 1: ``validation_errors[t]`` is the error of the ensemble after ``t + 1``
boosting rounds (the ``t``-th item of ``staged_decision_function``), and the functions return a
number of rounds, which is what ``n_estimators`` should be set to.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "best_round",
    "early_stopping_round",
    "select_hyperparameter",
    "select_per_fold",
    "TIE_RULES",
]

#: Tie rules of :func:`select_hyperparameter`.
TIE_RULES = ("smallest", "largest")


def _errors_array(values: Iterable[float], name: str) -> np.ndarray:
    errors = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=float)
    if errors.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {errors.shape}")
    if errors.size == 0:
        raise ValueError(f"{name} is empty; at least one value is needed")
    if not np.all(np.isfinite(errors)):
        bad = int(np.flatnonzero(~np.isfinite(errors))[0])
        raise ValueError(f"{name} must be finite; entry {bad} is {errors[bad]!r}")
    return errors


def _check_atol(atol: float) -> float:
    atol = float(atol)
    if not (atol >= 0):
        raise ValueError(f"atol must be >= 0, got {atol!r}")
    return atol


def best_round(validation_errors: Sequence[float] | np.ndarray, *, atol: float = 0.0) -> int:
    """Return the smallest number of rounds that attains the best validation error.

    This is the rule of Guo & Chen (MCBoost, Sec. 5) for AdaBoost and L2Boost: "the smallest
    iteration count achieving the optimal validation error".  On ties the earliest round wins,
    which gives the smallest ensemble.

    Parameters
    ----------
    validation_errors
        ``validation_errors[t]`` = validation error after ``t + 1`` rounds.
    atol
        Errors within ``atol`` of the minimum count as ties (0: exact equality, right for
        error rates computed from counts on one validation set).

    Returns
    -------
    int
        Number of rounds, between 1 and ``len(validation_errors)``.

    Raises
    ------
    ValueError
        If ``validation_errors`` is empty, not one-dimensional or not finite, or ``atol`` is
        negative.

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript, Nanjing
    University of Aeronautics and Astronautics.

    Examples
    --------
    >>> from marginboost.experiments import best_round
    >>> best_round([0.30, 0.20, 0.25, 0.20])  # rounds 2 and 4 tie: the earlier wins
    2
    >>> best_round([0.30, 0.21, 0.20], atol=0.02)  # within atol of the minimum counts as a tie
    2
    """
    errors = _errors_array(validation_errors, "validation_errors")
    atol = _check_atol(atol)
    return int(np.flatnonzero(errors <= errors.min() + atol)[0]) + 1


def early_stopping_round(
    staged_errors: Iterable[float], max_rounds: int, *, atol: float = 0.0
) -> int:
    """Validation-based early stopping: best round among the first ``max_rounds`` rounds.

    The papers run the stage-wise baselines up to a budget of rounds (1000 in MCBoost, 5000 in
    DMCBoost) and keep the round with minimum validation error; ties go to the earliest round
    (see :func:`best_round`).  ``staged_errors`` may be a lazy iterator (for example a generator
    over ``staged_predict``); at most ``max_rounds`` items are consumed.  It may also be shorter
    than ``max_rounds`` when the algorithm stopped by itself.

    Parameters
    ----------
    staged_errors : iterable of float
        Validation error after 1, 2, ... rounds (a list, array or lazy iterator).
    max_rounds : int
        Budget of rounds (positive).
    atol : float, optional
        Errors within ``atol`` of the minimum count as ties (see :func:`best_round`).

    Returns
    -------
    int
        Number of rounds, between 1 and ``min(max_rounds, len(staged_errors))``.

    Raises
    ------
    ValueError
        If ``max_rounds`` is not a positive integer, or as :func:`best_round`.

    Examples
    --------
    >>> from marginboost.experiments import early_stopping_round
    >>> errors = iter([0.30, 0.20, 0.25, 0.10])
    >>> early_stopping_round(errors, max_rounds=3)  # round 4 lies beyond the budget
    2
    >>> next(errors)  # no more than max_rounds items were consumed
    0.1
    """
    if (
        isinstance(max_rounds, bool)
        or not isinstance(max_rounds, (int, np.integer))
        or max_rounds < 1
    ):
        raise ValueError(f"max_rounds must be a positive integer, got {max_rounds!r}")
    taken = list(itertools.islice(iter(staged_errors), int(max_rounds)))
    return best_round(taken, atol=atol)


def select_hyperparameter(
    grid_values: Sequence[Any],
    validation_errors: Sequence[float],
    tie: str = "smallest",
    *,
    atol: float = 0.0,
) -> Any:
    """Return the grid value with the lowest validation error, breaking ties by value.

    Parameters
    ----------
    grid_values : sequence
        Candidate values (numbers, or tuples compared lexicographically); must be distinct.
    validation_errors : sequence of float
        Validation error of each candidate, same length.
    tie : {"smallest", "largest"}, optional
        ``"smallest"`` or ``"largest"``: which of the tied values to return.  MCBoost (Guo &
        Chen, Sec. 5) picks the *largest* E among ties, since a larger desired margin gives a
        sparser ensemble; pass ``tie="largest"`` there.
    atol
        Errors within ``atol`` of the minimum count as ties.

    Returns
    -------
    object
        The chosen element of ``grid_values``.

    Raises
    ------
    ValueError
        On an unknown ``tie``, lengths that differ, repeated grid values, or errors that are
        empty, not one-dimensional or not finite.
    TypeError
        If tied values cannot be compared.

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript, Nanjing
    University of Aeronautics and Astronautics.

    Examples
    --------
    >>> from marginboost.experiments import select_hyperparameter
    >>> margins = [0.05, 0.1, 0.2]
    >>> errors = [0.20, 0.15, 0.15]
    >>> select_hyperparameter(margins, errors)
    0.1
    >>> select_hyperparameter(margins, errors, tie="largest")  # MCBoost's rule for E
    0.2
    """
    if tie not in TIE_RULES:
        raise ValueError(f"tie must be one of {TIE_RULES}, got {tie!r}")
    values = list(grid_values)
    errors = _errors_array(validation_errors, "validation_errors")
    if len(values) != errors.size:
        raise ValueError(
            f"grid_values has {len(values)} entries but validation_errors has {errors.size}"
        )
    if len(set(map(_hashable, values))) != len(values):
        raise ValueError(f"grid_values must be distinct, got {values!r}")
    atol = _check_atol(atol)
    tied = [v for v, e in zip(values, errors) if e <= errors.min() + atol]
    try:
        return min(tied) if tie == "smallest" else max(tied)
    except TypeError as exc:
        raise TypeError(f"grid values must be comparable to break ties, got {tied!r}") from exc


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def select_per_fold(
    table: pd.DataFrame,
    setting: str | Sequence[str],
    *,
    validation: str = "validation_error",
    test: str = "test_error",
    fold: str = "fold",
    group_by: Sequence[str] = (),
    tie: str = "smallest",
    atol: float = 0.0,
) -> pd.DataFrame:
    """Pick the setting with the best validation error in every fold; report its test error.

    Parameters
    ----------
    table
        One row per (group, fold, setting) with the validation and the test error.
    setting
        Column (or columns) naming a candidate setting, e.g. ``"E"`` or ``["depth", "n_bottom"]``.
        With several columns, ties are broken on the tuple of values, lexicographically.
    validation, test, fold
        Column names of the validation error, test error and fold.
    group_by
        Columns that identify separate experiments (dataset, algorithm, noise rate ...);
        a selection is made per group and fold.
    tie
        ``"smallest"`` or ``"largest"`` setting among ties (see :func:`select_hyperparameter`).
    atol
        Validation errors within ``atol`` of the fold minimum count as ties.

    Returns
    -------
    pandas.DataFrame
        One row per group and fold with the group columns, ``fold``, the chosen setting
        column(s), and the validation and test errors at the chosen setting.

    Raises
    ------
    TypeError
        If ``table`` is not a DataFrame.
    ValueError
        If a named column is missing, no setting column is named, or a group, fold and
        setting occur in more than one row.

    Examples
    --------
    >>> import pandas as pd
    >>> from marginboost.experiments import select_per_fold
    >>> table = pd.DataFrame({"fold": [0, 0, 1, 1], "E": [0.1, 0.2, 0.1, 0.2],
    ...                       "validation_error": [0.20, 0.20, 0.30, 0.25],
    ...                       "test_error": [0.22, 0.21, 0.28, 0.26]})
    >>> print(select_per_fold(table, "E", tie="largest").to_string(index=False))
    fold   E  validation_error  test_error
       0 0.2              0.20        0.21
       1 0.2              0.25        0.26
    >>> select_per_fold(table, "E")["E"].tolist()  # fold 0 ties; the smallest E is taken
    [0.1, 0.2]
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a pandas DataFrame, got {type(table).__name__}")
    settings = [setting] if isinstance(setting, str) else list(setting)
    groups = list(group_by)
    needed = groups + [fold] + settings + [validation, test]
    missing = [c for c in needed if c not in table.columns]
    if missing:
        raise ValueError(f"table lacks columns {missing}; it has {list(table.columns)}")
    if not settings:
        raise ValueError("setting must name at least one column")
    duplicated = table.duplicated(subset=groups + [fold] + settings)
    if duplicated.any():
        row = table.loc[duplicated].iloc[0][groups + [fold] + settings].to_dict()
        raise ValueError(f"table has more than one row for {row}")
    rows = []
    for key, part in table.groupby(groups + [fold], sort=True, dropna=False):
        values = [tuple(r) for r in part[settings].itertuples(index=False, name=None)]
        chosen = select_hyperparameter(
            values, part[validation].to_numpy(dtype=float), tie=tie, atol=atol
        )
        position = values.index(chosen)
        picked = part.iloc[position]
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(groups + [fold], key))
        row.update(zip(settings, chosen))
        row[validation] = float(picked[validation])
        row[test] = float(picked[test])
        rows.append(row)
    return pd.DataFrame(rows, columns=groups + [fold] + settings + [validation, test])
