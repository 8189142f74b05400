"""Multi-class boosting with multi-class trees: SAMME and AdaBoost.M1.

Agreement with scikit-learn
---------------------------
Our SAMME is compared with scikit-learn's ``AdaBoostClassifier`` (in scikit-learn 1.9 it
implements only SAMME) fitted with ``DecisionTreeClassifier(max_depth=d)`` to *our* bin codes
(``model.mapper_.transform(X)``), so both see the same inputs and the same candidate
thresholds.  Both grow gini trees, split nodes in the same way and predict the weighted
majority of a leaf; they differ only in how exact ties between splits are broken
(scikit-learn: first in a random feature order, ours: lowest feature, then lowest bin).  With
continuous random features and noisy labels (one case also with random initial example
weights), exact ties between two different partitions do not occur, so the trees must
coincide round by round.  The test asserts that they do (identical training predictions of
every tree; as the example weights of a round follow from the earlier trees and weights,
identical trees and weights mean identical example weights in every round), then compares
the weights ``alphas_`` with ``estimator_weights_`` and the weighted errors with
``estimator_errors_`` to 1e-10 relative (rounding: ~1e-15), and the decision functions through
the exact affine map between the two (scikit-learn codes a vote for class k as 1 and the
others as -1/(K-1) and divides by the sum of the weights).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.ensemble import AdaBoostClassifier
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier

import marginboost
from marginboost.boosting import SAMME, AdaBoost, AdaBoostM1, NotBoostedWarning
from marginboost.boosting.multiclass import ERROR_LIMIT_RTOL

RTOL = 1e-10


def noisy_classes(n=240, n_classes=4, n_features=5, seed=0, labels=None):
    """Continuous features; the class is a noisy binning of a linear score."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features))
    score = X[:, 0] + 0.5 * X[:, 1] - 0.3 * X[:, 2] + 0.6 * rng.normal(size=n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))
    if labels is not None:
        y = np.asarray(labels)[y]
    return X, y


def sklearn_scores(votes, alphas):
    """scikit-learn's decision_function from our votes f(x, k) (K > 2)."""
    K = votes.shape[1]
    total = alphas.sum()
    return (K / (K - 1) * votes - total / (K - 1)) / total


# ---- agreement with scikit-learn ---------------------------------------------------------------
@pytest.mark.parametrize(
    "n_classes, depth, labels, weighted",
    [
        (3, 1, None, False),
        (4, 3, ["c", "a", "d", "b"], True),
        (6, 2, [10, 20, 30, 40, 50, 60], False),
    ],
)
def test_samme_equals_scikit_learn_on_the_same_trees(n_classes, depth, labels, weighted):
    X, y = noisy_classes(n_classes=n_classes, labels=labels)
    rng = np.random.default_rng(1)
    weights = rng.uniform(0.5, 2.0, size=y.shape[0]) if weighted else None
    n_rounds = 15
    ours = SAMME(n_estimators=n_rounds, max_depth=depth).fit(X, y, sample_weight=weights)
    codes = ours.mapper_.transform(X).astype(np.float64)
    ref = AdaBoostClassifier(
        DecisionTreeClassifier(max_depth=depth), n_estimators=n_rounds, random_state=0
    ).fit(codes, y, sample_weight=weights)
    assert ours.stop_reason_ == "n_estimators" and ours.boosted_
    assert ours.n_estimators_ == len(ref.estimators_) == n_rounds
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    train_codes = ours.mapper_.transform(X)
    for t, (tree, ref_tree) in enumerate(zip(ours.estimators_, ref.estimators_)):
        ours_labels = ours.classes_[tree.predict(train_codes).astype(int)]
        np.testing.assert_array_equal(ours_labels, ref_tree.predict(codes), err_msg=f"round {t}")
    np.testing.assert_allclose(ours.alphas_, ref.estimator_weights_, rtol=RTOL)
    np.testing.assert_allclose(ours.history_["weighted_error"], ref.estimator_errors_, rtol=RTOL)
    votes = ours.decision_function(X)
    np.testing.assert_allclose(
        sklearn_scores(votes, ours.alphas_), ref.decision_function(codes), rtol=RTOL, atol=1e-12
    )
    top2 = np.sort(votes, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-9
    np.testing.assert_array_equal(ours.predict(X)[clear], ref.predict(codes)[clear])
    assert clear.mean() > 0.9


def test_samme_and_adaboost_m1_stop_rules_differ_by_the_limit_only():
    """The first round fits the same tree; alpha differs by log(K - 1)."""
    X, y = noisy_classes(n_classes=5)
    samme = SAMME(n_estimators=1, max_depth=3).fit(X, y)
    m1 = AdaBoostM1(n_estimators=1, max_depth=3).fit(X, y)
    assert samme.estimators_[0].splits() == m1.estimators_[0].splits()
    error = samme.history_["weighted_error"][0]
    assert error < 0.5
    np.testing.assert_allclose(m1.alphas_[0], np.log((1 - error) / error), rtol=RTOL)
    np.testing.assert_allclose(samme.alphas_[0] - m1.alphas_[0], np.log(4), rtol=RTOL)


# ---- K = 2 -----------------------------------------------------------------------------------
def test_two_classes_samme_equals_adaboost_m1_and_binary_adaboost():
    X, y = noisy_classes(n_classes=2, labels=["no", "yes"])
    samme = SAMME(n_estimators=12, max_depth=1, criterion="multiclass_error").fit(X, y)
    m1 = AdaBoostM1(n_estimators=12, max_depth=1, criterion="multiclass_error").fit(X, y)
    np.testing.assert_array_equal(samme.alphas_, m1.alphas_)
    assert [t.splits() for t in samme.estimators_] == [t.splits() for t in m1.estimators_]
    np.testing.assert_array_equal(samme.decision_function(X), m1.decision_function(X))
    # binary AdaBoost (error-minimizing stumps, alpha = 1/2 log((1 - e)/e)): half the weights,
    # the same stumps, the same votes: f(x, 1) - f(x, 0) = 2 F(x)
    binary = AdaBoost(n_estimators=12, max_depth=1).fit(X, y)
    np.testing.assert_allclose(samme.alphas_, 2 * binary.alphas_, rtol=RTOL)
    votes = samme.decision_function(X)
    np.testing.assert_allclose(
        votes[:, 1] - votes[:, 0], 2 * binary.decision_function(X), rtol=RTOL, atol=1e-12
    )
    np.testing.assert_array_equal(samme.predict(X), binary.predict(X))


# ---- AdaBoost.M1's stopping rule -------------------------------------------------------------
def test_adaboost_m1_cannot_boost_stumps_with_many_classes():
    """Six balanced classes: a stump predicts at most two of them, so its error is >= 2/3."""
    X, y = noisy_classes(n=300, n_classes=6)
    with pytest.warns(NotBoostedWarning, match="AdaBoost.M1 was not able to boost"):
        m1 = AdaBoostM1(n_estimators=10, max_depth=1).fit(X, y)
    assert not m1.boosted_ and m1.n_estimators_ == 0 and m1.estimators_ == []
    assert m1.stop_reason_.startswith("weighted error 0.")
    assert ">= 1/2 in round 1 (K = 6)" in m1.stop_reason_
    assert float(m1.stop_reason_.split()[2]) >= 2 / 3 - 1e-12
    not_boosted = r"not able to boost \(weighted error .*\(boosted_ is False\)"
    for method in (m1.predict, m1.decision_function, lambda X: list(m1.staged_predict(X))):
        with pytest.raises(ValueError, match=not_boosted):
            method(X)
    # SAMME's limit is 1 - 1/K = 5/6: the same stumps boost
    with warnings.catch_warnings():
        warnings.simplefilter("error", NotBoostedWarning)
        samme = SAMME(n_estimators=10, max_depth=1).fit(X, y)
    assert samme.boosted_ and samme.n_estimators_ == 10
    assert (samme.history_["weighted_error"] >= 0.5).all()


def test_adaboost_m1_stops_when_a_later_round_reaches_one_half():
    X, y = noisy_classes(n_classes=4)
    m1 = AdaBoostM1(n_estimators=50, max_depth=3).fit(X, y)
    t = m1.n_estimators_
    assert m1.boosted_ and 1 <= t < 50
    assert m1.stop_reason_.startswith("weighted error") and f"in round {t + 1} " in m1.stop_reason_
    assert (m1.history_["weighted_error"] < 0.5).all()
    # the tree that failed is the next one the weights call for: refit it and check its error
    from marginboost.weak import DecisionTree

    codes = m1.mapper_.transform(X)
    y_index = np.searchsorted(m1.classes_, y)
    incorrect = np.array([tree.predict(codes) != y_index for tree in m1.estimators_])
    log_w = m1.alphas_ @ incorrect
    w = np.exp(log_w - log_w.max())
    w /= w.sum()
    tree = DecisionTree(max_depth=3, criterion="gini").fit_multiclass(codes, y_index, w)
    error = w[tree.predict(codes) != y_index].sum()
    assert error >= 0.5 * (1 - ERROR_LIMIT_RTOL)
    assert f"weighted error {error:.6g} >= 1/2" in m1.stop_reason_


@pytest.mark.parametrize("seed", range(6))
def test_a_weighted_error_at_the_limit_up_to_rounding_ends_training(seed):
    """The update puts the round's own tree exactly on the limit, so stumps on one informative
    feature keep returning to it; an error a few units of rounding below 1/2 must stop the fit
    (exact arithmetic), not add votes of about 1e-16 until ``n_estimators`` as the plain
    ``error >= 1/2`` did on these data (200 rounds, smallest vote 2.2e-16)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(300, 2)).astype(float)
    y = np.where(rng.random(300) < 0.8, X[:, 0] % 2, 1 - X[:, 0] % 2).astype(int)
    m1 = AdaBoostM1(n_estimators=200, max_depth=1).fit(X, y)
    assert m1.n_estimators_ < 200 and m1.stop_reason_.startswith("weighted error 0.5 >= 1/2")
    # every vote is a step: log((1 - e) / e) ~ 4 (1/2 - e) > 4 * ERROR_LIMIT_RTOL / 2
    assert np.abs(m1.alphas_).min() > 2 * ERROR_LIMIT_RTOL


def test_perfect_weak_learner_ends_training_with_a_finite_weight():
    X, _ = noisy_classes(n_classes=3)
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    model = SAMME(n_estimators=10, max_depth=2).fit(X, y)
    assert model.stop_reason_ == "perfect weak learner" and model.n_estimators_ == 1
    assert np.isfinite(model.alphas_).all()
    np.testing.assert_array_equal(model.predict(X), y)


# ---- the fitted model ------------------------------------------------------------------------
@pytest.mark.parametrize("Model", [SAMME, AdaBoostM1])
def test_staged_outputs_history_and_determinism(Model):
    X, y = noisy_classes(n_classes=3, labels=[2, 5, 9])
    model = Model(n_estimators=8, max_depth=2).fit(X, y)
    staged = list(model.staged_decision_function(X))
    assert len(staged) == model.n_estimators_
    np.testing.assert_allclose(staged[-1], model.decision_function(X), rtol=1e-12)
    assert staged[-1].shape == (X.shape[0], 3)
    errors = [np.mean(p != y) for p in model.staged_predict(X)]
    np.testing.assert_allclose(errors, model.history_["train_error"])
    np.testing.assert_allclose(list(model.staged_score(X, y)), 1 - np.array(errors))
    assert set(model.predict(X)) <= {2, 5, 9}
    again = clone(model).fit(X, y)
    np.testing.assert_array_equal(again.alphas_, model.alphas_)
    np.testing.assert_array_equal(again.decision_function(X), model.decision_function(X))


def test_estimators_are_exported_by_the_package():
    assert marginboost.SAMME is SAMME and marginboost.AdaBoostM1 is AdaBoostM1
    assert {"SAMME", "AdaBoostM1"} <= set(marginboost.__all__)


# ---- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize("Model", [SAMME, AdaBoostM1])
@pytest.mark.parametrize(
    "bad, message",
    [
        (
            lambda X, y: (X, np.full(y.shape, 7)),
            r"y has only one class \(7\); (SAMME|AdaBoostM1) needs .* at least two classes",
        ),
        (lambda X, y: (np.where(np.arange(X.size).reshape(X.shape) == 4, np.nan, X), y), "NaN"),
        (
            lambda X, y: (np.where(np.arange(X.size).reshape(X.shape) == 4, np.inf, X), y),
            "infinity",
        ),
        (lambda X, y: (X[:-1], y), "inconsistent numbers of samples"),
        (lambda X, y: (X, np.c_[y, y]), r"y should be a 1d array, got an array of shape \(60, 2\)"),
        (lambda X, y: (X, y + 0.5), "Unknown label type"),
    ],
)
def test_bad_training_data(Model, bad, message):
    X, y = noisy_classes(n=60, n_classes=3)
    X_bad, y_bad = bad(X, y.astype(float))
    with pytest.raises(ValueError, match=message):
        Model().fit(X_bad, y_bad)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"n_estimators": 0}, "The 'n_estimators' parameter of"),
        ({"max_depth": 0}, "The 'max_depth' parameter of"),
        ({"criterion": "error"}, "The 'criterion' parameter of"),
        ({"max_bins": 1}, "The 'max_bins' parameter of"),
    ],
)
def test_bad_parameters(params, message):
    X, y = noisy_classes(n=60, n_classes=3)
    with pytest.raises(ValueError, match=message):
        SAMME(**params).fit(X, y)


def test_bad_prediction_input():
    X, y = noisy_classes(n=60, n_classes=3)
    with pytest.raises(NotFittedError):
        SAMME().predict(X)
    model = SAMME(n_estimators=3).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :-1])
    with pytest.raises(ValueError, match="NaN"):
        model.decision_function(np.where(X > 1, np.nan, X))


# ---- scikit-learn conventions ----------------------------------------------------------------
# scikit-learn's estimator checks: tests/test_sklearn_compliance.py
