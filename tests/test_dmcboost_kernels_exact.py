"""The compiled passes of DMCBoost's objectives against the numpy expressions they replace.

Each kernel must give bit for bit what the numpy code gave (the committed DMCBoost results
were computed with it): the sums that depend on the order of additions use numpy's own
pairwise summation (``pairwise_sum``, tested against ``numpy.sum``); the others are sums of
whole numbers, or ranks, exact in any order.
"""

from __future__ import annotations

import numpy as np
import pytest

from marginboost.boosting.dmcboost import MarginSlopeObjective, ZeroOneTreeObjective
from marginboost.boosting.dmcboost import _phase2_kernels as _k
from marginboost.boosting.dmcboost.search import _bottom, _lines, _tail, zero_one_sweep


def _bits(a):
    return np.asarray(a, dtype=np.float64).view(np.uint64)


@pytest.mark.parametrize(
    "n", [0, 1, 7, 8, 9, 127, 128, 129, 255, 256, 257, 1000, 8193, 48_842, 525_010]
)
def test_pairwise_sum_is_numpys_sum_bit_for_bit(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n + 11) * 10.0 ** rng.uniform(-6, 6, n + 11)
    assert _bits(_k.pairwise_sum(a, 0, n)) == _bits(a[:n].sum())
    assert _bits(_k.pairwise_sum(a, 5, n)) == _bits(a[5 : 5 + n].sum())


def _scores_with_ties(rng, n, K):
    """Scores on a coarse grid, so that labels tie and crossings repeat."""
    return np.ascontiguousarray(rng.integers(-4, 5, size=(n, K)) * 0.25)


def _reference_ranges(F, y):
    """``ZeroOneTreeObjective``'s crossings and error ranges, the numpy way."""
    n, K = F.shape
    rows = np.arange(n)
    a_true = F[rows, y]
    wrong = F.copy()
    wrong[rows, y] = -np.inf
    a_l = wrong.max(axis=1)
    own = y[:, None] == np.arange(K)
    correct = (a_true > a_l)[:, None]
    q1 = a_l - a_true
    q2 = a_true[:, None] - F
    V = np.unique(np.concatenate([q1[q1 > 0], q2[~own & correct & (q2 > 0)]]))
    hi = np.full((n, K), V.size + 1, dtype=np.int64)
    hi[rows, y] = np.where(q1 > 0, np.searchsorted(V, np.maximum(q1, 0.0)) + 1, 0)
    lo = np.where(~own & correct, np.searchsorted(V, q2) + 1, 0).astype(np.int64)
    lo[rows, y] = 0
    return V, lo, hi


@pytest.mark.parametrize("seed", range(4))
def test_phase1_crossings_and_ranges_are_the_numpy_ones(seed):
    rng = np.random.default_rng(seed)
    n, K = 400, 2 + seed
    F = _scores_with_ties(rng, n, K) + (rng.standard_normal((n, K)) if seed % 2 else 0.0)
    y = rng.integers(0, K, size=n)
    objective = ZeroOneTreeObjective(F, y)
    V, lo, hi = _reference_ranges(F, y)
    np.testing.assert_array_equal(_bits(objective.V), _bits(V))
    np.testing.assert_array_equal(objective.lo, lo)
    np.testing.assert_array_equal(objective.hi, hi)
    # the loss parts, written in place, are the numpy expressions
    rows = np.arange(n)
    diff = np.where(y[:, None] == np.arange(K), -np.inf, F - F[rows, y][:, None])
    u = np.exp(diff - diff.max())
    w = u.sum(axis=1)
    own = y[:, None] == np.arange(K)
    np.testing.assert_array_equal(_bits(objective.Bk), _bits(u))
    np.testing.assert_array_equal(_bits(objective.Gk), _bits(np.where(own, w[:, None], 0.0)))
    expected_r = np.where(own, 0.0, np.maximum(w[:, None] - u, 0.0))
    np.testing.assert_array_equal(_bits(objective.Rk), _bits(expected_r))


def _problem(seed, n, K):
    """``(rng, F, y, h)``: tied scores, labels and a tree's leaf classes, drawn in that order."""
    rng = np.random.default_rng(seed)
    F = _scores_with_ties(rng, n, K)
    y = rng.integers(0, K, size=n)
    h = rng.integers(0, K, size=n)
    return rng, F, y, h


@pytest.mark.parametrize("seed", range(3))
def test_sweep_with_the_objectives_loss_terms_is_the_same_sweep(seed):
    _, F, y, h = _problem(10 + seed, 300, 4)
    objective = ZeroOneTreeObjective(F, y)
    for step in ("best-midpoint", "midpoint", "exp-loss"):
        plain = zero_one_sweep(F, y, h, step=step)
        shared = zero_one_sweep(F, y, h, step=step, loss_terms=objective.Bk)
        assert _bits(plain.alpha) == _bits(shared.alpha)
        assert plain.errors == shared.errors
    with pytest.raises(ValueError, match="loss_terms must have shape"):
        zero_one_sweep(F, y, h, loss_terms=objective.Bk[:10])


def _reference_bottom(lines, n_prime, b):
    value, slope = _k.lines_at(*lines, float(b))
    vstar = np.partition(value, n_prime - 1)[n_prime - 1]
    less = value < vstar
    m = int(np.count_nonzero(less))
    S = float(value[less].sum() + (n_prime - m) * vstar)
    tied = np.sort(slope[value == vstar])[: n_prime - m]
    return S, float(slope[less].sum() + tied.sum())


@pytest.mark.parametrize("seed", range(4))
def test_bottom_sum_is_the_numpy_expression(seed):
    n = 2000
    _, F, y, h = _problem(20 + seed, n, 3 + seed)
    for sign in (1, -1):
        lines = _lines(F, y, h, sign)
        for n_prime in (1, 7, n // 3, n):
            for b in (0.0, 0.25, 0.3, 1.0, 5.0):
                got = _bottom(lines, n_prime, b)
                want = _reference_bottom(lines, n_prime, b)
                assert _bits(got[0]) == _bits(want[0]) and got[1] == want[1]


def _reference_tail(lines, n_prime):
    """``_tail`` as it was computed: the n' smallest tails by (slope, intercept), lexsorted."""
    p1, s1, p2, s2 = lines
    use2 = np.isfinite(p2) & (~np.isfinite(p1) | (s2 < s1) | ((s2 == s1) & (p2 < p1)))
    p, s = np.where(use2, p2, p1), np.where(use2, s2, s1)
    pick = np.lexsort((p, s))[:n_prime]
    return float(p[pick].sum()), float(s[pick].sum())


@pytest.mark.parametrize("K", [2, 3, 5])
def test_tail_is_the_lexsorted_sum(K):
    """Tied scores, and K = 2 (infinite intercepts on the negative side)."""
    n = 1500
    rng = np.random.default_rng(K)
    F, y, h = _scores_with_ties(rng, n, K), rng.integers(0, K, n), rng.integers(0, K, n)
    for sign in (1, -1):
        lines = _lines(F, y, h, sign)
        for n_prime in (1, 7, n // 10, n // 3, n - 1, n):
            got, want = _tail(lines, n_prime, 1.0), _reference_tail(lines, n_prime)
            assert _bits(got[0]) == _bits(want[0]) and got[1] == want[1]


def test_bottom_sum_refuses_slopes_it_cannot_count():
    value = np.array([1.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="slopes must be -1, 0 or \\+1"):
        _k.bottom_sum(value, np.array([0.5, 1.0, 0.0]), 1.0, 2)


@pytest.mark.parametrize("seed", range(3))
def test_slope_parts_are_the_numpy_counts(seed):
    n = 500
    rng, F, y, h = _problem(30 + seed, n, 4)
    objective = MarginSlopeObjective(F, y, n_prime=n // 4, sign=1)
    mask = rng.random(n) < 0.7
    s = objective.slope[np.arange(n), h]
    less = int(s[mask & (objective.status == 0)].sum())
    tied = s[mask & (objective.status == 1)]
    counts = np.array([np.count_nonzero(tied == v) for v in (-1, 0, 1)], np.int64)
    got_less, got_counts = objective._parts(h, mask)
    assert got_less == less
    np.testing.assert_array_equal(got_counts, counts)
