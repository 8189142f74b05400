"""All 25 public estimators under scikit-learn's estimator checks.

The checks an estimator fails by design are listed, with their reasons, in one place:
:data:`marginboost._sklearn.EXPECTED_FAILED_CHECKS`; they run as expected failures (a check that
starts passing shows as XPASS and should leave the list).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

import marginboost
from marginboost._sklearn import EXPECTED_FAILED_CHECKS, expected_failed_checks

#: Few rounds keep the checks fast; the fixed-pool methods have no round limit.
ESTIMATORS = [
    getattr(marginboost, name)()
    if name in ("AdaBoostL1", "AdaBoostQP", "LPBoost")
    else getattr(marginboost, name)(n_estimators=5)
    for name in marginboost._ESTIMATORS
]


def test_every_public_estimator_is_checked():
    assert sorted(type(e).__name__ for e in ESTIMATORS) == sorted(marginboost._ESTIMATORS)
    assert len(ESTIMATORS) == 25
    assert set(EXPECTED_FAILED_CHECKS) <= set(marginboost._ESTIMATORS)
    assert all(
        reason.strip() for checks in EXPECTED_FAILED_CHECKS.values() for reason in checks.values()
    )


#: Parameter settings that take other code paths.
VARIANTS = [
    marginboost.DoomII(n_estimators=5, sampling="reweight"),
    marginboost.AnyBoost(cost="logistic", step="newton", n_estimators=5),
    marginboost.RealAdaBoost(smoothing=0.01, n_estimators=5),
    marginboost.BrownBoost(c=3.0, max_depth=2),
]


@parametrize_with_checks(ESTIMATORS + VARIANTS, expected_failed_checks=expected_failed_checks)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def _binary_data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, "yes", "no")


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_predict_proba_agrees_with_predict_and_staged_versions(estimator):
    """Rows sum to 1, the largest column is the predicted class (string labels), and the last
    staged probabilities are the final ones."""
    X, y = _binary_data()
    if estimator.__sklearn_tags__().classifier_tags.multi_class:
        y = np.array(["a", "b", "c"])[np.digitize(X[:, 0], [-0.4, 0.4])]
    model = estimator.fit(X, y)
    proba = model.predict_proba(X)
    assert proba.shape == (X.shape[0], model.classes_.size)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert np.all((proba >= 0) & (proba <= 1))
    np.testing.assert_array_equal(model.classes_[np.argmax(proba, axis=1)], model.predict(X))
    # the staged recurrence and the final weighted sum add the same terms in another order:
    # they agree up to rounding (a few ulps of the scores, far below 1e-12)
    np.testing.assert_allclose(list(model.staged_predict_proba(X))[-1], proba, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(list(model.staged_predict(X))[-1], model.predict(X))


def test_pandas_input_records_feature_names():
    pd = pytest.importorskip("pandas")
    X, y = _binary_data()
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    for estimator in ESTIMATORS:
        if estimator.__sklearn_tags__().classifier_tags.multi_class:
            labels = np.array(["a", "b", "c"])[np.digitize(X[:, 0], [-0.4, 0.4])]
        else:
            labels = y
        model = estimator.fit(frame, labels)
        assert list(model.feature_names_in_) == ["a", "b", "c"], type(estimator).__name__


@pytest.mark.parametrize(
    "name, link",
    [
        ("AdaBoost", lambda F: 1 / (1 + np.exp(-2 * F))),
        ("LogitBoost", lambda F: 1 / (1 + np.exp(-2 * F))),
        ("LogitBoostCG", lambda F: 1 / (1 + np.exp(-F))),
    ],
)
def test_calibrated_probabilities_use_the_link_of_the_loss(name, link):
    """AdaBoost's exponential loss and LogitBoost's parametrisation p = e^F/(e^F + e^-F) give
    P(y=1|x) = 1/(1 + e^{-2F}) (Friedman, Hastie & Tibshirani 2000, eq. (5), Alg. 3);
    LogitBoost-CG minimizes log(1 + e^{-yF}), whose link is 1/(1 + e^{-F})."""
    X, y = _binary_data()
    model = getattr(marginboost, name)(n_estimators=10).fit(X, y)
    np.testing.assert_allclose(
        model.predict_proba(X)[:, 1], link(model.decision_function(X)), rtol=1e-12, atol=0
    )


@pytest.mark.parametrize("name", ["SAMME", "AdaBoostM1", "AdaBoostMH", "GDMCBoost", "DMCBoost"])
def test_multiclass_estimators_ravel_a_column_vector_y_as_the_binary_ones(name):
    X, _ = _binary_data()
    y = np.array(["a", "b", "c"])[np.digitize(X[:, 0], [-0.4, 0.4])]
    flat = getattr(marginboost, name)(n_estimators=3).fit(X, y)
    with pytest.warns(DataConversionWarning, match="column-vector y"):
        column = getattr(marginboost, name)(n_estimators=3).fit(X, y[:, None])
    np.testing.assert_array_equal(column.predict(X), flat.predict(X))
