"""Weak learners on raw features (LDA) inside the boosting engines."""

from __future__ import annotations

import numpy as np
import pytest

from marginboost.boosting import AdaBoost, AdaBoostCG
from marginboost.weak import LDALearner, RawFeatures


def data(seed=0, n=120):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X @ np.array([1.0, -0.5, 0.2]) + 0.4 * np.sin(3 * X[:, 0]) > 0, 1, -1)
    return X, y


def test_raw_features_mapper_checks_its_input():
    mapper = RawFeatures().fit(np.zeros((3, 2)))
    assert mapper.transform(np.ones((2, 2))).dtype == np.float64
    with pytest.raises(ValueError, match="fitted on 2"):
        mapper.transform(np.ones((2, 3)))
    with pytest.raises(ValueError, match="NaN"):
        mapper.transform(np.array([[np.nan, 1.0]]))


def test_adaboost_with_lda_matches_a_hand_written_loop():
    X, y = data()
    model = AdaBoost(n_estimators=5, estimator=LDALearner()).fit(X, y)
    assert isinstance(model.mapper_, RawFeatures)
    weights = np.full(y.size, 1.0 / y.size)
    scores = np.zeros(y.size)
    for t in range(5):
        h = LDALearner().fit_binary(X, y, weights).predict(X)
        error = weights[h != y].sum()
        alpha = 0.5 * np.log((1 - error) / error)
        scores += alpha * h
        weights = np.exp(-y * scores)
        weights /= weights.sum()
        np.testing.assert_allclose(model.alphas_[t], alpha, rtol=1e-9)
    np.testing.assert_allclose(model.decision_function(X), scores, rtol=1e-9, atol=1e-12)


def test_adaboost_cg_accepts_lda_and_predicts_from_raw_features():
    X, y = data(seed=1)
    model = AdaBoostCG(T=0.1, n_estimators=30, estimator=LDALearner()).fit(X, y)
    assert model.score(X, y) > 0.8
    assert np.isclose(model.alphas_.sum(), 10.0)


def test_an_estimator_without_the_needed_method_is_refused():
    class OnlyRegression:
        def fit_regression(self, codes, y, w):
            raise AssertionError("not called")

    X, y = data()
    with pytest.raises(TypeError, match="fit_binary"):
        AdaBoost(n_estimators=2, estimator=OnlyRegression()).fit(X, y)
