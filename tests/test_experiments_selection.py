"""Tests of validation-based model selection against brute-force implementations."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marginboost.experiments import (
    best_round,
    early_stopping_round,
    select_hyperparameter,
    select_per_fold,
)

# few distinct values, so ties are frequent
errors_lists = st.lists(st.sampled_from([0.1, 0.2, 0.25, 0.3]), min_size=1, max_size=30)


def brute_best_round(errors):
    best = None
    for t in range(1, len(errors) + 1):  # rounds counted from 1
        if best is None or errors[t - 1] < errors[best - 1]:
            best = t
    return best


@settings(max_examples=200, deadline=None)
@given(errors_lists)
def test_best_round_matches_brute_force(errors):
    assert best_round(errors) == brute_best_round(errors)
    assert best_round(np.asarray(errors)) == brute_best_round(errors)


def test_best_round_examples_and_ties():
    assert best_round([0.3, 0.2, 0.2, 0.25]) == 2  # tie: the earliest (smallest) round
    assert best_round([0.5]) == 1
    assert best_round([0.30, 0.201, 0.2, 0.25], atol=0.005) == 2
    assert best_round([0.30, 0.201, 0.2, 0.25]) == 3


@pytest.mark.parametrize(
    "errors, match", [([], "empty"), ([0.1, np.nan], "entry 1"), ([[0.1, 0.2]], "one-dimensional")]
)
def test_best_round_rejects_bad_input(errors, match):
    with pytest.raises(ValueError, match=match):
        best_round(errors)
    with pytest.raises(ValueError, match="atol"):
        best_round([0.1], atol=-1.0)


@settings(max_examples=100, deadline=None)
@given(errors_lists, st.integers(min_value=1, max_value=40))
def test_early_stopping_round_uses_only_the_budget(errors, max_rounds):
    consumed = []

    def staged():
        for e in errors:
            consumed.append(e)
            yield e

    chosen = early_stopping_round(staged(), max_rounds)
    assert chosen == brute_best_round(errors[:max_rounds])
    assert len(consumed) == min(len(errors), max_rounds)  # never looks past the budget


def test_early_stopping_round_rejects_bad_budget():
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="max_rounds"):
            early_stopping_round([0.1, 0.2], bad)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([0.1, 0.2, 0.3]), min_size=1, max_size=10),
    st.sampled_from(["smallest", "largest"]),
    st.randoms(use_true_random=False),
)
def test_select_hyperparameter_matches_brute_force(errors, tie, random):
    values = random.sample(range(100), len(errors))  # distinct, in random order
    best = min(errors)
    candidates = [v for v, e in zip(values, errors) if e == best]
    expected = min(candidates) if tie == "smallest" else max(candidates)
    assert select_hyperparameter(values, errors, tie=tie) == expected


def test_select_hyperparameter_mcboost_rule():
    grid = [0.1, 0.3, 0.5, 0.7]
    errors = [0.20, 0.15, 0.15, 0.18]
    assert select_hyperparameter(grid, errors, tie="largest") == 0.5
    assert select_hyperparameter(grid, errors, tie="smallest") == 0.3
    # order of the grid does not matter, only the values
    assert select_hyperparameter(grid[::-1], errors[::-1], tie="largest") == 0.5


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        (([1, 2], [0.1]), {}, ValueError, "2 entries but validation_errors has 1"),
        (([1, 1], [0.1, 0.2]), {}, ValueError, "distinct"),
        (([1, 2], [0.1, 0.2]), {"tie": "first"}, ValueError, "tie must be one of"),
        (([1, "a"], [0.1, 0.1]), {}, TypeError, "comparable"),
    ],
)
def test_select_hyperparameter_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        select_hyperparameter(*args, **kwargs)


def _random_table(rng, n_folds=5, datasets=("heart", "sonar")):
    rows = []
    for dataset, fold, E, depth in itertools.product(
        datasets, range(n_folds), [0.1, 0.3, 0.5], [1, 3]
    ):
        rows.append(
            {
                "dataset": dataset,
                "fold": fold,
                "E": E,
                "depth": depth,
                "validation_error": rng.choice([0.1, 0.2, 0.3]),
                "test_error": rng.uniform(),
            }
        )
    frame = pd.DataFrame(rows)
    return frame.sample(frac=1.0, random_state=int(rng.integers(1 << 30))).reset_index(drop=True)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("tie", ["smallest", "largest"])
def test_select_per_fold_matches_brute_force(seed, tie):
    table = _random_table(np.random.default_rng(seed))
    chosen = select_per_fold(table, ["E", "depth"], group_by=["dataset"], tie=tie)
    assert list(chosen.columns) == [
        "dataset",
        "fold",
        "E",
        "depth",
        "validation_error",
        "test_error",
    ]
    assert len(chosen) == 2 * 5
    for row in chosen.itertuples(index=False):
        part = table[(table.dataset == row.dataset) & (table.fold == row.fold)]
        best = part.validation_error.min()
        ties = sorted(
            (r.E, r.depth, r.test_error) for r in part.itertuples() if r.validation_error == best
        )
        E, depth, test_error = ties[0] if tie == "smallest" else ties[-1]
        assert (row.E, row.depth, row.test_error) == (E, depth, test_error)
        assert row.validation_error == best


def test_select_per_fold_single_setting_and_errors():
    table = pd.DataFrame(
        {
            "fold": [0, 0, 1, 1],
            "T": [10, 20, 10, 20],
            "validation_error": [0.2, 0.1, 0.1, 0.1],
            "test_error": [0.3, 0.25, 0.4, 0.35],
        }
    )
    chosen = select_per_fold(table, "T", tie="largest")
    assert chosen["T"].tolist() == [20, 20]
    assert chosen["test_error"].tolist() == [0.25, 0.35]
    assert select_per_fold(table, "T")["test_error"].tolist() == [0.25, 0.4]
    with pytest.raises(ValueError, match=r"lacks columns \['depth'\]"):
        select_per_fold(table, "depth")
    with pytest.raises(ValueError, match="more than one row"):
        select_per_fold(pd.concat([table, table.iloc[:1]]), "T")
    with pytest.raises(TypeError, match="DataFrame"):
        select_per_fold(table.to_dict(), "T")
