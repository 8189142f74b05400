"""``DoomII`` against the plain-numpy DOOM II of ``tests/reference/doom2.py``, round by round.

The reference runs over an explicit pool of every distinct stump of a small data set (columns of
a prediction matrix), so a hypothesis the estimator fits is identified with a pool column by its
predictions on the training set.  With the exact learner (``sampling="reweight"``) both must
choose the same first stump and stop after it; with boosting by resampling the reference is
handed the estimator's choices and must reproduce the weights given to the learner, the edges,
the combination and its cost in every round.

Tolerance: 1e-10 relative (1e-12 absolute on values of order 1): the two implementations sum
the same terms in different orders over at most 60 examples and repeat the normalisation
``(F + eps h) / (1 + eps)`` for at most 40 rounds, so they differ by a few hundred ulps at most.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import doom2 as ref

from marginboost.boosting import DoomII

RTOL, ATOL = 1e-10, 1e-12


def small_problem(n=60, seed=7):
    """Few distinct values per feature (a small pool) and label noise."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, size=(n, 3)).astype(float)
    y = np.where(X[:, 0] - 0.6 * X[:, 1] + 1.5 * rng.normal(size=n) > 0.5, 1.0, -1.0)
    return X, y


def dominated_problem(n=60, seed=8):
    """Feature 0 is the label with a few flips, far better than any other stump: a bootstrap
    sample's best stump is almost surely the same one (the situation of splice)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    clean = np.where(rng.random(n) < 0.08, -y, y)
    X = np.column_stack([clean, rng.integers(0, 3, size=n), rng.integers(0, 3, size=n)]).astype(
        float
    )
    return X, y


class RecordingDoomII(DoomII):
    """DoomII that logs the example weights ``D`` of every round (the resampling distribution)."""

    def _direction(self, learner, codes, y, gradient_weights, scores, sample_weight):  # type: ignore[no-untyped-def]
        self.weights_log_.append(np.asarray(gradient_weights, dtype=float).copy())
        return super()._direction(learner, codes, y, gradient_weights, scores, sample_weight)

    def fit(self, X, y, sample_weight=None, **kwargs):  # type: ignore[no-untyped-def]
        self.weights_log_: list[np.ndarray] = []
        return super().fit(X, y, sample_weight, **kwargs)


def chosen_columns(model, X, H):
    codes = model.mapper_.transform(X)
    return [ref.column_of(H, tree.predict(codes)) for tree in model.estimators_]


@pytest.mark.parametrize("lam", [0.5, 2.0, 5.0, 20.0])
def test_exact_doom2_stops_with_its_first_stump_like_the_reference(lam):
    X, y = small_problem()
    H, _ = ref.stump_pool(X)
    record = ref.doom2(H, y, lam, n_rounds=50, stop="moved")
    assert record["stop"] == "not downhill" and len(record["chosen"]) == 1
    model = DoomII(steepness=lam, n_estimators=50, sampling="reweight").fit(X, y)
    assert model.n_estimators_ == 1
    assert model.stop_reason_ == "weak learner does not point downhill"
    assert chosen_columns(model, X, H) == record["chosen"]
    np.testing.assert_allclose(model.decision_function(X), record["F"][0], rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(model.history_["objective"], record["cost"], rtol=RTOL)
    np.testing.assert_allclose(model.history_["edge"], record["edge"], rtol=RTOL)


@pytest.mark.parametrize("lam", [0.5, 2.0, 20.0])
@pytest.mark.parametrize("eps", [0.01, 0.05, 0.5])
def test_a_single_stump_is_a_local_minimum_of_the_normalized_sigmoid_cost(lam, eps):
    """From F = h_k, one step towards h_j changes the cost by (c(r) - c(1)) (L_j - G_j) / m with
    r = (1 - eps) / (1 + eps), L_j (G_j) the examples h_k gets right (wrong) and h_j wrong
    (right): c(z) + c(-z) = 2 makes the other terms cancel.  For the best stump k, G_j <= L_j
    for every j, so no step of any size eps and no steepness lam lowers the cost."""
    X, y = small_problem()
    H, _ = ref.stump_pool(X)
    k = int(np.argmax(y @ H))
    changes = ref.step_cost_changes(H, y, lam, k, eps=eps)
    right_k, right_j = (H[:, [k]] == y[:, None]), (H == y[:, None])
    losses = np.sum(right_k & ~right_j, axis=0)
    gains = np.sum(~right_k & right_j, axis=0)
    c = lambda z: 1.0 - np.tanh(lam * z)  # noqa: E731
    r = (1.0 - eps) / (1.0 + eps)
    np.testing.assert_allclose(
        changes, (c(r) - c(1.0)) * (losses - gains) / y.shape[0], rtol=1e-9, atol=1e-15
    )
    assert np.all(gains <= losses)
    assert changes.min() >= -1e-15


@pytest.mark.parametrize("lam", [2.0, 10.0])
def test_resampled_doom2_matches_the_reference_round_by_round(lam):
    X, y = small_problem()
    H, _ = ref.stump_pool(X)
    model = RecordingDoomII(steepness=lam, n_estimators=40, random_state=5).fit(X, y)
    chosen = chosen_columns(model, X, H)
    assert len(set(chosen)) > 1, "the resampled run should leave its first stump on this problem"
    assert model.stop_reason_ == "n_estimators"
    assert chosen[0] == int(np.argmax(y @ H))  # round 1 (F_0 = 0) uses the exact learner
    record = ref.doom2(
        H, y, lam, n_rounds=len(chosen), stop="algorithm1", choose=lambda t, D: chosen[t]
    )
    assert record["chosen"] == chosen
    for t, (ours, theirs) in enumerate(zip(model.weights_log_, record["D"])):
        np.testing.assert_allclose(
            ours,
            theirs,
            rtol=RTOL,
            atol=1e-300,
            err_msg=f"weights given to the learner differ in round {t + 1}",
        )
    np.testing.assert_allclose(model.history_["edge"], record["edge"], rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(model.history_["objective"], record["cost"], rtol=RTOL)
    staged = list(model.staged_decision_function(X))
    for t, (ours, theirs) in enumerate(zip(staged, record["F"])):
        np.testing.assert_allclose(
            ours, theirs, rtol=RTOL, atol=ATOL, err_msg=f"combination differs after round {t + 1}"
        )
    margins = [y * F for F in record["F"]]
    np.testing.assert_allclose(model.history_["min_margin"], [m.min() for m in margins], atol=ATOL)
    np.testing.assert_allclose(
        model.history_["mean_margin"], [m.mean() for m in margins], atol=ATOL
    )
    # the weight of each pool column in the final combination
    per_column = np.zeros(H.shape[1])
    np.add.at(per_column, chosen, model.alphas_)
    np.testing.assert_allclose(per_column, record["w"][-1], rtol=RTOL, atol=ATOL)
    assert per_column.sum() == pytest.approx(1.0, abs=ATOL)


def test_resampling_cannot_leave_a_dominant_first_stump():
    """The splice situation: every resampled learner returns the first stump again, so the
    combination stays F = f_1 for all rounds and its cost never changes."""
    X, y = dominated_problem()
    H, _ = ref.stump_pool(X)
    model = RecordingDoomII(steepness=5.0, n_estimators=40, random_state=0).fit(X, y)
    chosen = chosen_columns(model, X, H)
    assert model.n_estimators_ == 40 and set(chosen) == {chosen[0]}
    record = ref.doom2(H, y, 5.0, n_rounds=40, stop="algorithm1", choose=lambda t, D: chosen[t])
    np.testing.assert_allclose(record["w"][-1], np.eye(H.shape[1])[chosen[0]], atol=ATOL)
    np.testing.assert_allclose(model.decision_function(X), H[:, chosen[0]], rtol=RTOL, atol=ATOL)
    # the weights stay uniform: every margin is +-1 and c' is even
    for D in model.weights_log_[1:]:
        np.testing.assert_allclose(D, np.full(y.shape[0], 1.0 / y.shape[0]), rtol=RTOL)
    np.testing.assert_allclose(model.history_["objective"], record["cost"][0], rtol=RTOL)
