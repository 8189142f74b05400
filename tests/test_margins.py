"""Margins, bottom-n' averages, order statistics and margin distributions."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from marginboost.margins import (binary_margins, bottom_margin_average, bottom_margin_indices,
                                 cumulative_margin_distribution, margin_mean_variance,
                                 margin_order_statistic, multiclass_margins, normalized_margins)

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
    np.testing.assert_array_equal(multiclass_margins(scores, y, alphas=[2.0, -2.0]), [0.25, 0.0, -0.75])


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


@given(margin_arrays)
def test_mean_variance_decomposition(margins):
    """(1/n) sum (m_i - E)^2 = var + (mean - E)^2 (Guo & Chen, eqs. (10)-(11))."""
    mean, variance = margin_mean_variance(margins)
    assert variance >= 0
    target = 0.3
    lhs = np.mean((margins - target) ** 2)
    assert lhs == pytest.approx(variance + (mean - target) ** 2, rel=1e-9, abs=1e-6)


@pytest.mark.parametrize("call, message", [
    (lambda: bottom_margin_average([1.0, 2.0], 3), "n_bottom must be between 1"),
    (lambda: bottom_margin_average([1.0, 2.0], 0), "n_bottom must be between 1"),
    (lambda: bottom_margin_average([1.0, np.nan], 1), "must be finite"),
    (lambda: binary_margins([1, 0], [1.0, 2.0]), r"labels in \{-1, \+1\}"),
    (lambda: binary_margins([1, -1], [1.0]), "have 2 entries"),
    (lambda: normalized_margins([1], [1.0], [0.0]), "sum |alphas| > 0"),
    (lambda: multiclass_margins(np.ones((2, 3)), np.array([0, 3])), "class indices in 0..2"),
    (lambda: multiclass_margins(np.ones(3), np.array([0])), "shape"),
])
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()
