"""Tests of marginboost.weak.lda: weighted Fisher LDA weak learner (Shen & Li 2010, Sec. 4.1)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from marginboost.weak import LDALearner
from marginboost.weak.lda import best_threshold


def gaussian_classes(seed, n=120, d=3):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.4, 1.0, -1.0)
    X = rng.normal(size=(n, d)) @ rng.normal(size=(d, d)) + np.outer(y, rng.normal(size=d))
    return rng, X, y


def test_direction_matches_direct_numpy_computation():
    rng, X, y = gaussian_classes(0)
    weight = rng.uniform(0.1, 2.0, size=y.size)
    fitted = LDALearner(ridge=1e-4).fit_binary(X, y, weight)
    p = weight / weight.sum()
    means = {}
    scatter = 1e-4 * np.eye(X.shape[1])
    for label in (-1.0, 1.0):
        rows = y == label
        means[label] = (p[rows, None] * X[rows]).sum(axis=0) / p[rows].sum()
        for i in np.flatnonzero(rows):
            diff = X[i] - means[label]
            scatter += p[i] * np.outer(diff, diff)
    expected = np.linalg.inv(scatter) @ (means[1.0] - means[-1.0])
    np.testing.assert_allclose(fitted.direction_, expected, rtol=1e-10)


def test_direction_matches_sklearn_lda_in_the_unweighted_limit():
    """With uniform weights and no ridge, S_w is scikit-learn's pooled covariance."""
    for seed in range(3):
        _, X, y = gaussian_classes(seed)
        ours = LDALearner(ridge=0.0).fit_binary(X, y).direction_
        reference = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y).coef_[0]
        cosine = ours @ reference / np.linalg.norm(ours) / np.linalg.norm(reference)
        assert cosine == pytest.approx(1.0, abs=1e-10)


def test_integer_weights_equal_repeated_samples():
    rng, X, y = gaussian_classes(4, n=40)
    counts = rng.integers(1, 4, size=40)
    weighted = LDALearner().fit_binary(X, y, counts.astype(float))
    repeated = LDALearner().fit_binary(np.repeat(X, counts, axis=0), np.repeat(y, counts))
    np.testing.assert_allclose(weighted.direction_, repeated.direction_, rtol=1e-9)
    assert weighted.threshold_ == pytest.approx(repeated.threshold_)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000), st.integers(2, 30))
def test_threshold_maximizes_the_edge_brute_force(seed, n):
    rng = np.random.default_rng(seed)
    z = np.round(rng.normal(size=n), 1)  # with ties
    y = rng.choice([-1.0, 1.0], size=n)
    weight = rng.uniform(0.0, 1.0, size=n)
    threshold, polarity = best_threshold(z, y, weight)
    achieved = np.sum(weight * y * polarity * np.where(z > threshold, 1.0, -1.0))
    candidates = np.concatenate([[z.min() - 1.0], np.unique(z)])
    best = max(
        np.sum(weight * y * s * np.where(z > t, 1.0, -1.0)) for t in candidates for s in (1, -1)
    )
    assert achieved == pytest.approx(best, rel=1e-12, abs=1e-12)


def test_predictions_and_weighted_error_are_consistent():
    rng, X, y = gaussian_classes(1, n=300)
    weight = rng.uniform(0.1, 1.0, size=300)
    fitted = LDALearner().fit_binary(X, y, weight)
    prediction = fitted.predict(X)
    assert set(np.unique(prediction)) <= {-1.0, 1.0}
    # separable-ish data: the edge is large and equals the sign-weighted decision function
    edge = np.sum(weight * y * prediction) / weight.sum()
    assert edge > 0.5
    np.testing.assert_array_equal(prediction, np.where(fitted.decision_function(X) > 0, 1.0, -1.0))


def test_ridge_avoids_singular_scatter():
    X = np.array([[0.0, 1.0], [1.0, 1.0], [3.0, 1.0], [4.0, 1.0]])  # second feature constant
    y = np.array([-1, -1, 1, 1])
    fitted = LDALearner(ridge=1e-4).fit_binary(X, y)
    np.testing.assert_array_equal(fitted.predict(X), y)
    with pytest.raises(ValueError, match="singular"):
        LDALearner(ridge=0.0).fit_binary(X, y)


def test_bad_inputs():
    X = np.zeros((4, 2))
    y = np.array([1, -1, 1, -1])
    with pytest.raises(ValueError, match="column 1"):
        LDALearner().fit_binary(np.array([[0, 0], [0, np.nan], [1, 1], [1, 1.0]]), y)
    with pytest.raises(ValueError, match="-1 and \\+1"):
        LDALearner().fit_binary(X, np.array([0, 1, 0, 1]))
    with pytest.raises(ValueError, match="non-negative"):
        LDALearner().fit_binary(X, y, np.array([1.0, -1.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="both classes"):
        LDALearner().fit_binary(X, y, np.array([1.0, 0.0, 1.0, 0.0]))
    with pytest.raises(ValueError, match="ridge"):
        LDALearner(ridge=-1.0).fit_binary(X, y)
    with pytest.raises(ValueError, match="fitted on 2"):
        LDALearner().fit_binary(np.eye(4)[:, :2], y).predict(np.zeros((2, 3)))


def test_one_row_is_scored_and_no_rows_are_refused():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    lda = LDALearner().fit_binary(X, y, np.full(20, 0.05))
    one = lda.decision_function(X[:1])
    assert one.shape == (1,) and one[0] == lda.decision_function(X)[0]
    with pytest.raises(ValueError, match=r"X must be a non-empty 2-D array; got shape \(0, 2\)"):
        lda.decision_function(np.zeros((0, 2)))


def test_best_threshold_is_the_midpoint_between_the_separated_projections():
    """Projections 0, 1, 3, 4 with labels -, -, +, +: the best cut lies between 1 and 3, and
    the threshold is their midpoint (a new point at 1.5 goes to the negative side, 2.5 to the
    positive one)."""
    z = np.array([3.0, 0.0, 4.0, 1.0])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    threshold, polarity = best_threshold(z, y, np.full(4, 0.25))
    assert (threshold, polarity) == (2.0, 1.0)
    threshold, polarity = best_threshold(z, -y, np.full(4, 0.25))
    assert (threshold, polarity) == (2.0, -1.0)
