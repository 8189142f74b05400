r"""numba kernels of DMCBoost's phase I, the 0-1 loss (Zhai, Xia & Wang 2014, Alg. 1.2):
the per-example pieces (scores, crossings, error ranges, loss sums) and the step on an
error profile; the split kernels that use them are
:mod:`~marginboost.boosting.dmcboost._phase1_split_kernels`.

Let :math:`V_0 < \dots < V_{m-1}` be the distinct positive intersection points of Figure 1 over
*every* example and *every* label (scenario 1: :math:`a_l - a_y`; scenario 2:
:math:`a_y - a_k`, :math:`k \ne y_i`), and number the open intervals of :math:`\alpha > 0`
between them :math:`j = 0, \dots, m`.  Example :math:`i` with predicted label :math:`k` is an
error exactly on the intervals ``lo[i, k] <= j < hi[i, k]`` (scenario 1: a prefix, scenario 2:
a suffix, scenario 3: all of them).  The errors of a tree on interval :math:`j` are therefore a
sum of such ranges; growing a node, its samples move from the right child (label
:math:`\ell_R`) to the left one (label :math:`\ell_L`) bin by bin, each move two range updates
of a segment tree that keeps :math:`\min_j` (DirectBoost's kernels, reused): all the splits of
one feature and one label pair cost :math:`O(m + n_{node}\log m)`, :math:`m \le nK`.

Ties between candidates with the same error count are ranked by the multi-class exponential
loss :math:`\sum_i\sum_{k \ne y_i} e^{f(x_i,k) - f(x_i,y_i)}` at the step chosen on the grid
(DirectBoost's rule; for ``K = 2`` it is DirectBoost's loss).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._direct_common import clipped_alpha, exp_loss_minimizer, interval_alpha, log_exp_loss

#: Phase I's step rules (``DMCBoost(step=...)``) as the kernels number them.
STEP_MODES = {"midpoint": 0, "best-midpoint": 1, "exp-loss": 2}


def step_mode(step: str) -> int:
    """The kernels' number of the step rule ``step`` (:data:`STEP_MODES`); the one check of the
    parameter, shared by the estimator, the phase-I objective and the sweep."""
    if step not in STEP_MODES:
        raise ValueError(f"step must be one of {sorted(STEP_MODES)}; got {step!r}")
    return STEP_MODES[step]


NEG = -np.inf


@njit(cache=True)
def row_scores(F, y, h):  # pragma: no cover - compiled
    """Per example: the true class's score, the best wrong score, the score of ``h``'s class
    and the best wrong score other than ``h``'s (``-inf`` when there is none), in one pass."""
    n, K = F.shape
    a_true = np.empty(n)
    a_l = np.empty(n)
    a_h = np.empty(n)
    a_l2 = np.empty(n)
    for i in range(n):
        yi = y[i]
        hi = h[i]
        best = -np.inf
        best2 = -np.inf
        for k in range(K):
            if k != yi:
                v = F[i, k]
                if v > best:
                    best = v
                if k != hi and v > best2:
                    best2 = v
        a_true[i] = F[i, yi]
        a_l[i] = best
        a_h[i] = F[i, hi]
        a_l2[i] = best2
    return a_true, a_l, a_h, a_l2


@njit(cache=True)
def phase1_crossings(F, y):  # pragma: no cover - compiled
    """Phase I's crossing points, in one pass over the scores ``F`` (n, K).

    Returns ``(a_true, a_l, points)``: the true label's score, the best wrong label's, and
    the positive crossings in no particular order: ``a_l - a_true`` where positive
    (scenario 1) and ``a_true - F[i, k]`` where positive for the wrong labels of the
    examples classified right (scenario 2).
    """
    n, K = F.shape
    a_true = np.empty(n)
    a_l = np.empty(n)
    points = np.empty(n * K)
    m = 0
    for i in range(n):
        t = F[i, y[i]]
        best = -np.inf
        for k in range(K):
            if k != y[i] and F[i, k] > best:
                best = F[i, k]
        a_true[i] = t
        a_l[i] = best
        q1 = best - t
        if q1 > 0:
            points[m] = q1
            m += 1
        if t > best:
            for k in range(K):
                if k != y[i]:
                    q2 = t - F[i, k]
                    if q2 > 0:
                        points[m] = q2
                        m += 1
    return a_true, a_l, points[:m].copy()


@njit(cache=True)
def phase1_ranges(F, y, a_true, a_l, V):  # pragma: no cover - compiled
    """``(lo, hi)`` of ``ZeroOneTreeObjective``: per example and label, the intervals of
    the crossing points ``V`` (sorted, distinct) on which that label is an error are
    ``lo <= j < hi`` (see there)."""
    n, K = F.shape
    m = V.shape[0]
    lo = np.zeros((n, K), dtype=np.int64)
    hi = np.full((n, K), m + 1, dtype=np.int64)
    for i in range(n):
        q1 = a_l[i] - a_true[i]
        hi[i, y[i]] = np.searchsorted(V, q1) + 1 if q1 > 0 else 0
        if a_true[i] > a_l[i]:
            for k in range(K):
                if k != y[i]:
                    lo[i, k] = np.searchsorted(V, a_true[i] - F[i, k]) + 1
    return lo, hi


@njit(cache=True)
def log_loss3(alpha, G, B, R, shift):  # pragma: no cover - compiled
    r""":math:`\log(G e^{-\alpha} + B e^{\alpha} + R) + shift` without overflow."""
    u = np.log(G) - alpha if G > 0 else NEG
    v = np.log(B) + alpha if B > 0 else NEG
    w = np.log(R) if R > 0 else NEG
    top = max(u, max(v, w))
    if top == NEG:
        return NEG
    return shift + top + np.log(np.exp(u - top) + np.exp(v - top) + np.exp(w - top))


@njit(cache=True)
def errors_profile(lo, hi, h, mask, m):  # pragma: no cover - compiled
    """Errors on every interval ``0..m`` of the examples with ``mask`` predicting ``h``."""
    diff = np.zeros(m + 2, dtype=np.int64)
    for i in range(h.shape[0]):
        if mask[i]:
            diff[lo[i, h[i]]] += 1
            diff[hi[i, h[i]]] -= 1
    out = np.empty(m + 1, dtype=np.int64)
    run = 0
    for j in range(m + 1):
        run += diff[j]
        out[j] = run
    return out


@njit(cache=True)
def loss_sums(Gk, Bk, Rk, h, mask):  # pragma: no cover - compiled
    G = 0.0
    B = 0.0
    R = 0.0
    for i in range(h.shape[0]):
        if mask[i]:
            G += Gk[i, h[i]]
            B += Bk[i, h[i]]
            R += Rk[i, h[i]]
    return G, B, R


@njit(cache=True)
def log_sums(G, B):  # pragma: no cover - compiled
    """``(log G, log B)`` with ``log 0 = -inf``."""
    return (np.log(G) if G > 0 else NEG), (np.log(B) if B > 0 else NEG)


@njit(cache=True)
def profile_step(E, J, V, mode, G, B):  # pragma: no cover - compiled
    r"""``(errors, alpha)``: phase I's step from the errors ``E[g]`` on the intervals ``J[g]``
    (increasing) of the breakpoints ``V``.

    ``mode`` 0 (``"midpoint"``): the midpoint of the first interval with the fewest errors;
    1 (``"best-midpoint"``): of the intervals with the fewest errors, the midpoint with the
    smallest exponential loss :math:`G e^{-\alpha} + B e^{\alpha} + R` (ties: the smaller
    step); 2 (``"exp-loss"``): the loss minimizer clipped into each such interval
    (:func:`~marginboost.boosting._direct_common.clipped_alpha`), the best of them.  ``G`` and
    ``B`` are the loss's coefficients (any common scale)."""
    n = E.shape[0]
    emin = E[0]
    first = 0
    for g in range(1, n):
        if E[g] < emin:
            emin = E[g]
            first = g
    if mode == 0:
        return emin, interval_alpha(J[first], V)
    lg, lb = log_sums(G, B)
    star = exp_loss_minimizer(lg, lb)
    best_alpha = np.nan
    best_loss = np.inf
    for g in range(first, n):
        if E[g] != emin:
            continue
        alpha = interval_alpha(J[g], V) if mode == 1 else clipped_alpha(J[g], V, star)
        loss = log_exp_loss(alpha, lg, lb, 0.0)
        if loss < best_loss:
            best_loss = loss
            best_alpha = alpha
    return emin, best_alpha
