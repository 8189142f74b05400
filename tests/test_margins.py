"""Margins, bottom-n' averages, order statistics and margin distributions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from marginboost.margins import (
    binary_margins,
    bottom_margin_average,
    bottom_margin_indices,
    cumulative_margin_distribution,
    margin_bias_variance,
    margin_mean_variance,
    margin_order_statistic,
    multiclass_margins,
    normalized_margins,
)

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
margin_arrays = arrays(np.float64, st.integers(1, 40), elements=finite)


def test_binary_and_normalized_margins():
    y = np.array([1, -1, 1])
    scores = np.array([2.0, 1.0, -0.5])
    np.testing.assert_array_equal(binary_margins(y, scores), [2.0, -1.0, -0.5])
    np.testing.assert_array_equal(normalized_margins(y, scores, [1.0, -3.0]), [0.5, -0.25, -0.125])


def test_multiclass_margin_is_own_score_minus_best_other():
    scores = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 5.0], [1.0, 0.0, 4.0]])
    y = np.array([0, 1, 0])
    np.testing.assert_array_equal(multiclass_margins(scores, y), [1.0, 0.0, -3.0])
    np.testing.assert_array_equal(
        multiclass_margins(scores, y, alphas=[2.0, -2.0]), [0.25, 0.0, -0.75]
    )


@given(st.integers(2, 6), st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_two_class_multiclass_margin_equals_binary_margin_of_the_score_difference(k, n, seed):
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(n, 2))
    y = rng.integers(0, 2, size=n)
    expected = binary_margins(np.where(y == 1, 1, -1), scores[:, 1] - scores[:, 0])
    np.testing.assert_allclose(multiclass_margins(scores, y), expected)
    wide = rng.normal(size=(n, k))
    labels = rng.integers(0, k, size=n)
    margins = multiclass_margins(wide, labels)
    assert np.all((margins > 0) == (wide.argmax(axis=1) == labels) | (margins == 0))


@given(margin_arrays, st.data())
@settings(max_examples=60)
def test_bottom_average_identities(margins, data):
    n = margins.size
    k = data.draw(st.integers(1, n))
    average = bottom_margin_average(margins, k)
    ordered = np.sort(margins)
    assert average == pytest.approx(ordered[:k].mean(), rel=1e-12, abs=1e-9)
    assert bottom_margin_average(margins, 1) == margins.min()
    assert bottom_margin_average(margins, n) == pytest.approx(margins.mean(), rel=1e-12, abs=1e-9)
    assert margin_order_statistic(margins, k) == ordered[k - 1]
    slack = 1e-12 * (1 + np.abs(ordered).max())  # the mean of equal values may round by an ulp
    assert ordered[0] - slack <= average <= margin_order_statistic(margins, k) + slack
    np.testing.assert_array_equal(np.sort(margins[bottom_margin_indices(margins, k)]), ordered[:k])
    if k < n:  # the bottom average is non-decreasing in n'
        assert bottom_margin_average(margins, k + 1) >= average - 1e-9 * (1 + abs(average))


@given(margin_arrays, arrays(np.float64, st.integers(1, 20), elements=finite))
def test_cumulative_distribution_counts_margins_at_most_x(margins, grid):
    x, fraction = cumulative_margin_distribution(margins, grid)
    expected = [(margins <= g).mean() for g in grid]
    np.testing.assert_allclose(fraction, expected)
    order = np.argsort(x)
    assert np.all(np.diff(fraction[order]) >= 0)


def test_default_grid_spans_minus_one_to_one():
    x, fraction = cumulative_margin_distribution(np.array([-0.5, 0.0, 0.5, 2.0]))
    assert x[0] == -1 and x[-1] == 1 and len(x) == 201
    assert fraction[0] == 0 and fraction[-1] == 0.75


@given(margin_arrays, st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False))
def test_mean_variance_decomposition(margins, E):
    """(1/n) sum (m_i - E)^2 = var + (mean - E)^2 (Guo & Chen, eqs. (10)-(11))."""
    mean, variance = margin_mean_variance(margins)
    assert variance >= 0
    deviation, variance_term, bias = margin_bias_variance(margins, E)
    assert variance_term == variance and bias == (mean - E) ** 2
    assert deviation == pytest.approx(np.mean((margins - E) ** 2), rel=1e-12, abs=1e-12)
    assert deviation == pytest.approx(variance + bias, rel=1e-9, abs=1e-6)


@pytest.mark.parametrize("E", [0.1, 0.5])
def test_bias_variance_of_mcboost_margins(E):
    """MCBoost's objective (12) after every column-generation iteration is M times the mean
    squared deviation of that iteration's (normalized) training margins from E."""
    from marginboost import MCBoost
    from marginboost.data import mcboost_toy

    ds = mcboost_toy(120, seed=3)
    X, y = ds.X, ds.y_signed()
    model = MCBoost(E=E, n_estimators=60).fit(X, y)
    stages = list(model.staged_decision_function(X))  # the weights of every stage sum to 1
    assert len(stages) == len(model.history_["objective"])
    for objective, scores in zip(model.history_["objective"], stages):
        deviation, variance, bias = margin_bias_variance(y * scores, E)
        assert objective == pytest.approx(len(y) * deviation, rel=1e-9, abs=1e-12)
        assert deviation == pytest.approx(variance + bias, rel=1e-12, abs=1e-15)
    final = normalized_margins(y, model.decision_function(X), model.alphas_)
    assert margin_bias_variance(final, E)[0] == pytest.approx(
        model.history_["objective"][-1] / len(y), rel=1e-9
    )


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: bottom_margin_average([1.0, 2.0], 3), "n_bottom must be between 1"),
        (lambda: bottom_margin_average([1.0, 2.0], 0), "n_bottom must be between 1"),
        (lambda: bottom_margin_average([1.0, np.nan], 1), "must be finite"),
        (lambda: binary_margins([1, 0], [1.0, 2.0]), r"labels in \{-1, \+1\}"),
        (lambda: binary_margins([1, -1], [1.0]), "have 2 entries"),
        (lambda: normalized_margins([1], [1.0], [0.0]), "sum |alphas| > 0"),
        (lambda: multiclass_margins(np.ones((2, 3)), np.array([0, 3])), "class indices in 0..2"),
        (lambda: multiclass_margins(np.ones(3), np.array([0])), "shape"),
        (lambda: margin_bias_variance([0.1, np.inf], 0.3), "must be finite"),
        (lambda: margin_bias_variance([[0.1, 0.2]], 0.3), "one-dimensional"),
        (lambda: margin_bias_variance([], 0.3), "at least one margin"),
        (lambda: margin_bias_variance([0.1, 0.2], np.nan), "target margin E must be"),
        (lambda: margin_bias_variance([0.1, 0.2], np.inf), "target margin E must be"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("values", [["0.5", "high"], [1.0, object()], [{"a": 1}]])
def test_values_that_are_not_numbers_raise_type_error(values):
    """Strings that are not numbers (numpy: ValueError) and objects (numpy: TypeError) both
    get the same TypeError naming the argument."""
    with pytest.raises(TypeError, match="margins must be an array of real numbers"):
        bottom_margin_average(values, 1)
