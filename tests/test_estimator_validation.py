"""scikit-learn conventions and input validation of the stage-wise estimators."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone

from marginboost.boosting import (
    AdaBoost,
    AnyBoost,
    ArcGv,
    ArcX4,
    DoomII,
    L2Boost,
    LogitBoost,
    MadaBoost,
    RealAdaBoost,
)

ESTIMATORS = [
    AdaBoost(n_estimators=5),
    ArcGv(n_estimators=5),
    ArcX4(n_estimators=5),
    RealAdaBoost(n_estimators=5),
    LogitBoost(n_estimators=5),
    DoomII(n_estimators=5),
    DoomII(n_estimators=5, sampling="reweight"),
    L2Boost(n_estimators=5),
    MadaBoost(n_estimators=5),
    AnyBoost(cost="logistic", step="newton", n_estimators=5),
]


# scikit-learn's estimator checks of every estimator: tests/test_sklearn_compliance.py


def data(n=30, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, np.where(X[:, 0] > 0, "yes", "no")


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_three_classes_are_refused_with_a_pointer_to_multiclass_boosters(estimator):
    X, _ = data()
    y = np.arange(30) % 3
    name = type(estimator).__name__
    with pytest.raises(ValueError, match=f"y has 3 classes; {name} is binary, use a multi-class"):
        clone(estimator).fit(X, y)


@pytest.mark.parametrize(
    "bad, message",
    [
        (lambda X, y: (X, np.full(30, "yes")), "only one class"),
        (lambda X, y: (np.where(np.arange(90).reshape(30, 3) == 4, np.nan, X), y), "NaN"),
        (lambda X, y: (np.where(np.arange(90).reshape(30, 3) == 4, np.inf, X), y), "infinity"),
        (lambda X, y: (X[:29], y), "inconsistent numbers of samples"),
    ],
)
def test_bad_training_data(bad, message):
    X, y = data()
    X_bad, y_bad = bad(X, y)
    with pytest.raises(ValueError, match=message):
        AdaBoost().fit(X_bad, y_bad)


@pytest.mark.parametrize(
    "weights, message",
    [
        (np.ones(29), r"sample_weight.shape == \(29,\), expected \(30,\)"),
        (-np.ones(30), "Negative values in data passed to `sample_weight`"),
        (np.zeros(30), "at least one non-zero"),
        (np.r_[np.nan, np.ones(29)], "NaN"),
    ],
)
def test_bad_sample_weight(weights, message):
    X, y = data()
    with pytest.raises(ValueError, match=message):
        AdaBoost().fit(X, y, sample_weight=weights)


@pytest.mark.parametrize(
    "estimator, message",
    [
        (AdaBoost(n_estimators=0), "The 'n_estimators' parameter of"),
        (AdaBoost(max_depth=0), "The 'max_depth' parameter of"),
        (AdaBoost(tol=-1.0), "The 'tol' parameter of"),
        (AdaBoost(validation_fraction=1.0), "The 'validation_fraction' parameter of"),
        (AnyBoost(step="gradient"), "The 'step' parameter of"),
        (AnyBoost(cost="cubic"), "The 'cost' parameter of"),
        (AnyBoost(normalization="l2"), "The 'normalization' parameter of"),
        (
            AnyBoost(cost="exponential", step="lipschitz"),
            "needs a cost whose derivative is Lipschitz",
        ),
        (ArcX4(variant="x5"), "The 'variant' parameter of"),
        (L2Boost(form="tree"), "The 'form' parameter of"),
        (DoomII(step_size=0.0), "The 'step_size' parameter of"),
        (RealAdaBoost(smoothing=-1.0), "The 'smoothing' parameter of"),
    ],
)
def test_bad_parameters_are_named(estimator, message):
    X, y = data()
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, y)


def test_labels_are_mapped_through_classes_and_checked_in_margins():
    X, y = data()
    model = AdaBoost(n_estimators=10).fit(X, y)
    np.testing.assert_array_equal(model.classes_, ["no", "yes"])
    assert set(model.predict(X)) <= {"no", "yes"}
    margins = model.margins(X, y)
    signed = np.where(y == "yes", 1.0, -1.0)
    np.testing.assert_allclose(margins, signed * model.decision_function(X) / model.alphas_.sum())
    with pytest.raises(ValueError, match="not seen in fit"):
        model.margins(X, np.where(y == "yes", "maybe", "no"))
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :2])


def test_validation_data_must_come_in_pairs():
    X, y = data()
    with pytest.raises(ValueError, match="pass both X_val and y_val"):
        AdaBoost().fit(X, y, X_val=X)


@pytest.mark.parametrize("name", ["AdaBoost", "LogitBoost", "DoomII", "BrownBoost"])
def test_identical_rows_with_opposite_labels_get_a_clear_error(name):
    """No weak hypothesis separates identical rows: a ValueError that names the likely cause."""
    import marginboost
    from marginboost.boosting import NoEdgeError

    X = np.ones((4, 2))
    with pytest.raises(NoEdgeError, match="identical"):
        getattr(marginboost, name)(n_estimators=3).fit(X, ["a", "b", "a", "b"])


def test_round_count_of_the_T_heuristic_must_be_at_least_one():
    """``adaboost_T_heuristic`` runs AdaBoost for ``n_rounds`` rounds: 0 is an error naming
    the bound (a function, so no estimator parameter check runs first)."""
    from marginboost.boosting.corrective import adaboost_T_heuristic

    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([-1, -1, 1, 1])
    with pytest.raises(ValueError, match=r"n_rounds must be an integer >= 1; got 0"):
        adaboost_T_heuristic(X, y, n_rounds=0)
