"""DMCBoost objectives and phase-II stopping against plain numpy recomputations.

Checked here, each against an independent computation on a tiny problem:

* the phase-II derivative ``S'(0+)`` of the bottom-n' margin sum along a classifier, for
  every n' and both half-lines, against a one-sided finite difference of the bottom-n' sum
  of the margins (margins far apart, so the difference is exact);
* the near-tie band of the n'-th margin, ``near_tie * max(1, max |F|)``, at scores below 1;
* phase I's multi-class exponential loss and its error count after the chosen step, against
  the loss and the 0-1 errors recomputed from the shifted score matrix;
* the ``max_intervals`` cap of phase I on a node with many codes (the splits are scored on the
  capped intervals only, whichever kernel runs), and ``max_intervals=2`` is accepted;
* the patience rule of relaxed phase II: the fit runs exactly until ``n_iter_no_change``
  rounds in a row without a new best value of (5), and is cut back to the best round.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from marginboost.boosting import DMCBoost
from marginboost.boosting.dmcboost import MarginSlopeObjective, ZeroOneTreeObjective
from marginboost.weak import DirectNode, DirectTreeState


def _numerators(F, y, h, alpha):
    """Margin numerators a_y - max_{k != y} a_k after adding ``h`` with weight ``alpha``."""
    G = F.copy()
    G[np.arange(len(y)), h] += alpha
    true = G[np.arange(len(y)), y]
    G[np.arange(len(y)), y] = -np.inf
    return true - G.max(axis=1)


def _bottom_sum(values, n_prime):
    return float(np.sort(values)[:n_prime].sum())


def _distinct_margin_scores(rng, n, K):
    """Scores whose margins are distinct integers (at least 1 apart) and whose wrong classes
    often tie for the largest wrong score."""
    y = rng.integers(0, K, n)
    F = rng.integers(0, 3, size=(n, K)).astype(float)
    wrong = np.where(y[:, None] == np.arange(K), -np.inf, F).max(axis=1)
    F[np.arange(n), y] = wrong + rng.permutation(n) - n // 2
    return F, y


@pytest.mark.parametrize("seed", range(4))
def test_margin_slope_is_the_one_sided_derivative_of_the_bottom_sum(seed):
    """With margins at least 1 apart, the bottom-n' sum is linear on [0, 1e-3] along any
    classifier on either half-line, so (S(b) - S(0)) / b is S'(0+) up to rounding."""
    rng = np.random.default_rng(seed)
    n, K, b = 9, 3, 1e-3
    F, y = _distinct_margin_scores(rng, n, K)
    for _ in range(4):
        h = rng.integers(0, K, n)
        start = _numerators(F, y, h, 0.0)
        for sign in (1, -1):
            moved = _numerators(F, y, h, sign * b)
            for n_prime in range(1, n + 1):
                slope = (_bottom_sum(moved, n_prime) - _bottom_sum(start, n_prime)) / b
                expected = round(slope)
                assert abs(slope - expected) < 1e-6
                objective = MarginSlopeObjective(F, y, n_prime, sign)
                assert objective.need == 1  # distinct margins: only the n'-th one is tied
                assert objective.score(h) == expected


def test_near_tie_band_is_absolute_below_unit_scores():
    """With max |F| below 1 the band is ``near_tie`` itself: a margin 0.8e-12 above the
    n'-th one is tied (the steeper side fills the bottom set), one 1.5e-12 above is not (the
    n'-th example alone is the bottom set and rises)."""
    y, h = np.array([0, 0]), np.array([0, 1])
    assert MarginSlopeObjective.near_tie == 1e-12
    tied = np.array([[0.5, 0.0], [0.5 + 0.8e-12, 0.0]])
    assert MarginSlopeObjective(tied, y, 1, 1).score(h) == -1
    apart = np.array([[0.5, 0.0], [0.5 + 1.5e-12, 0.0]])
    objective = MarginSlopeObjective(apart, y, 1, 1)
    assert objective.status.tolist() == [1, 2]
    assert objective.score(h) == 1


def _direct_log_loss(F, y, h, alpha):
    """log sum_i sum_{k != y_i} exp(f_k - f_y) after adding ``h`` with weight ``alpha``."""
    G = F.copy()
    G[np.arange(len(y)), h] += alpha
    diff = G - G[np.arange(len(y)), y][:, None]
    diff[np.arange(len(y)), y] = -np.inf
    return float(np.log(np.exp(diff).sum()))


def _errors_after(F, y, h, alpha):
    return int(np.count_nonzero(_numerators(F, y, h, alpha) <= 0))


@pytest.mark.parametrize("seed", range(4))
def test_phase1_loss_and_errors_equal_direct_recomputation(seed):
    """``log_loss`` is the log of the multi-class exponential loss; ``score`` gives the fewest
    errors over the steps and the step it reports reaches them."""
    rng = np.random.default_rng(10 + seed)
    n, K = 12, 4
    F = rng.normal(scale=1.5, size=(n, K))
    y = rng.integers(0, K, n)
    objective = ZeroOneTreeObjective(F, y)
    assert objective.reference == pytest.approx(_direct_log_loss(F, y, y, 0.0), rel=1e-12)
    steps = np.concatenate([[1e-3, 0.3, 1.0, 2.5, 7.0], objective.V + 1e-7])
    for _ in range(5):
        h = rng.integers(0, K, n)
        for alpha in (0.0, 0.4, 1.7, 5.0):
            assert objective.log_loss(h, alpha) == pytest.approx(
                _direct_log_loss(F, y, h, alpha), rel=1e-10, abs=1e-12
            )
        errors, alpha, score = objective.score(h)
        assert errors == min(_errors_after(F, y, h, a) for a in steps)
        assert _errors_after(F, y, h, alpha) == errors
        assert errors <= -score < errors + 1


def test_interval_cap_applies_on_a_node_with_many_codes():
    """``max_intervals=3`` scores each split by its fewest errors at the first, middle and
    last interval of the line search, also when the node has many more codes than samples."""
    rng = np.random.default_rng(0)
    n, K = 12, 3
    F = rng.integers(0, 4, size=(n, K)).astype(float) + 0.5 * rng.integers(0, 2, size=(n, K))
    y = rng.integers(0, K, n)
    codes = np.asfortranarray(
        np.stack([rng.permutation(n) * 20, rng.permutation(n) * 17], axis=1).astype(np.uint8)
    )
    capped = ZeroOneTreeObjective(F, y, max_intervals=3)
    V, m = capped.V, capped.V.size
    assert m >= 4 and capped.J.tolist() == [0, int(np.rint(m / 2)), m]
    # a step inside each interval (the last one is unbounded), and inside the capped ones
    bounds = np.concatenate([[0.0], V, [V[-1] + 2.0]])
    inside = 0.5 * (bounds[:-1] + bounds[1:])
    steps = inside[capped.J]
    state = DirectTreeState(np.zeros(n, np.int64), {0: 0.0})
    node = DirectNode(0, 0, np.arange(n, dtype=np.int64))
    scores = capped.split_scores(codes, node, state)[0]
    cheaper_everywhere = 0
    for f in range(2):
        for t in np.unique(codes[:, f])[:-1]:
            on_cap, everywhere = n + 1, n + 1
            for left, right in itertools.product(range(K), repeat=2):
                h = np.where(codes[:, f] <= t, left, right)
                on_cap = min(on_cap, min(_errors_after(F, y, h, a) for a in steps))
                everywhere = min(everywhere, min(_errors_after(F, y, h, a) for a in inside))
            assert int(np.floor(-scores[f, t])) == on_cap
            cheaper_everywhere += everywhere < on_cap
    assert cheaper_everywhere > 0  # the cap changes some split's error count


def test_two_intervals_are_the_smallest_cap():
    """``max_intervals=2`` (the first and the last interval) is a valid cap."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.4).astype(int)
    model = DMCBoost(max_intervals=2, n_estimators=5, phase2=False, max_depth=1).fit(X, y)
    assert model.max_intervals_ == 2
    assert np.all(np.diff(model.history_["errors"]) <= 0)
    with pytest.raises(ValueError, match="max_intervals"):
        DMCBoost(max_intervals=1, n_estimators=2).fit(X, y)


class _Recording(DMCBoost):
    """DMCBoost that keeps the objective of every round, also those cut back."""

    def _add(self, state, phase, tree, h, alpha):
        super()._add(state, phase, tree, h, alpha)
        self.rounds_.append((phase, state.history["objective"][-1]))

    def fit(self, X, y, sample_weight=None):
        self.rounds_ = []
        return super().fit(X, y, sample_weight)


def _tiny(seed, n=40, d=2, K=3):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, d)).astype(float)
    y = (X[:, 0] + (X[:, 1] > 1) + (rng.random(n) < 0.3)).astype(int) % K
    return X, y


@pytest.mark.filterwarnings("ignore::marginboost.boosting.PhaseTwoWarning")
@pytest.mark.parametrize(("seed", "patience"), [(4, 2), (1, 3)])
def test_relaxed_phase2_stops_after_patience_rounds_without_a_new_best(seed, patience):
    """Relaxed phase II (four phase-I rounds, then the bottom 5 margins) runs until
    ``patience`` rounds in a row bring no new best value of (5), then is cut back to the best
    round.  (Phase II ends with more errors than phase I here; that warning is not the
    subject.)"""
    X, y = _tiny(seed)
    model = _Recording(
        max_depth=1,
        n_estimators=120,
        epsilon=0.01,
        n_iter_no_change=patience,
        n_prime=5,
        max_phase1_rounds=4,
    ).fit(X, y)
    phases = [phase for phase, _ in model.rounds_]
    values = [value for _, value in model.rounds_]
    n1 = model.n_phase1_
    assert phases == [1] * n1 + [2] * (len(values) - n1)
    # replay the rule: a new best resets the count, patience rounds without one stop
    best, best_rounds, stall, stop = values[n1 - 1], n1, 0, None
    for rounds in range(n1 + 1, len(values) + 1):
        if values[rounds - 1] > best:
            best, best_rounds, stall = values[rounds - 1], rounds, 0
        else:
            stall += 1
            if stall >= patience:
                stop = rounds
                break
    assert stop == len(values) < 120  # ran exactly until the patience ran out
    assert stop - best_rounds == patience
    assert model.stop_reason_ == (
        f"phase II no improvement within patience; cut back to the best round {best_rounds}"
    )
    assert model.n_estimators_ == best_rounds
    np.testing.assert_array_equal(model.history_["objective"], values[:best_rounds])
