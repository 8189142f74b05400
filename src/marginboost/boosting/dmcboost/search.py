r"""DMCBoost's exact one-dimensional searches (Zhai, Xia & Wang, KDD 2014), as pure functions.

Notation.  Before round :math:`t` the ensemble's votes are the score matrix
``F[i, k]`` :math:`= a(x_i, k) = \sum_{s<t}\alpha_s 1(h_s(x_i) = k)` (``n x K``), the labels are
``y[i]`` in ``0 .. K-1`` (the paper's :math:`1..K` shifted by one) and a candidate multi-class
weak hypothesis is given by its predicted class per example, ``h[i]``.  Adding it with weight
:math:`\alpha` adds :math:`\alpha` to ``F[i, h[i]]`` only (eq. (3)).  Write
:math:`a_{y} = a(x_i, y_i)`, :math:`l = \arg\max_{k \ne y_i} a(x_i, k)` and
:math:`a_l` its score.

Phase I -- Algorithms 1 and 1.1, Figure 1 (:func:`zero_one_sweep`)
    The training 0-1 error is piecewise constant in :math:`\alpha`.  Per example:

    * scenario 1, :math:`h_i = y_i`: the true score rises; correct for
      :math:`\alpha > q = a_l - a_y`, an error to the left (error update :math:`-1` at
      :math:`q`);
    * scenario 2, :math:`h_i = k \ne y_i` and :math:`a_y > a_l`: class :math:`k` rises and
      overtakes the true class at :math:`q = a_y - a_k > 0` (error update :math:`+1`).  The paper
      prints :math:`q = a(x_i, y) - a(x_i, y_i)`, a sign typo: the line
      :math:`a_k + \alpha` meets the constant :math:`a_y` at :math:`a_y - a_k`;
    * scenario 3, :math:`h_i = k \ne y_i` and :math:`a_y \le a_l`: an error for every
      :math:`\alpha \ge 0`.

    Sorting the intersection points and accumulating the updates gives the error on every open
    interval between them; the step is the midpoint of the first (smallest-:math:`\alpha`)
    interval with the fewest errors (Algorithm 1, line 5).

Phase II -- Algorithms 2 and 2.1, Figure 2 (:func:`margin_line_search`)
    The normalized multi-class margin (4)/(7) along the coordinate is

    .. math:: M_i(\alpha) = \frac{a_y + \alpha 1(h_i = y_i)
              - \max_{k \ne y_i}\,(a_k + \alpha 1(h_i = k))}{c + |\alpha|},
              \qquad c = \sum_{s<t} |\alpha_s| > 0,

    and the objective (5) is the average of the :math:`n'` smallest :math:`M_i`.  For
    :math:`\alpha \ge 0` the three scenarios of Figure 2 are: :math:`h_i = y_i` (numerator
    :math:`a_y - a_l + \alpha`, increasing), :math:`h_i = l` (numerator
    :math:`a_y - a_l - \alpha`, decreasing) and :math:`h_i = k \notin \{y_i, l\}` (numerator
    :math:`a_y - a_l` up to :math:`\alpha = a_l - a_k`, then :math:`a_y - a_k - \alpha`; the paper
    prints the switch point as :math:`a_k - a_l`, a sign typo).  For :math:`\alpha < 0` (the
    paper: "similarly identified") the mirrored scenarios are: :math:`h_i = y_i` falling,
    :math:`h_i = k \ne y_i` rising until the next wrong class :math:`l_2 \ne k` takes over (never,
    when :math:`K = 2`).

    Every numerator :math:`N_i(\alpha)` is concave (a line minus a maximum of lines), so the
    sum :math:`S` of the :math:`n'` smallest is concave and, on each half-line, the objective
    :math:`S(\alpha)/(n'(c + |\alpha|))` is quasiconcave (Theorem 3 restricted to one
    coordinate; on a half-line the denominator is affine, so every upper level set is convex
    whatever the sign of the level).  More precisely the sign of its one-sided derivative (9),
    which is the sign of :math:`\varphi = S'(c + |\alpha|) - S`, can only go from :math:`+` to
    :math:`0` to :math:`-` as :math:`|\alpha|` grows (:math:`\varphi' = S''(c+|\alpha|) \le 0`),
    so the bisection of Algorithm 2.1 on that sign converges to the leftmost maximizer.

Conventions chosen where the paper is silent (each is tested):

* **Ties are errors.**  An example is correct only when its true score is *strictly* larger
  than every other score (margin :math:`> 0`), as DirectBoost's margin :math:`\le 0` rule in
  :mod:`~marginboost.boosting.directboost`.  The paper's eq. (1) uses :math:`\arg\max` without a tie
  rule; its scenario 2 requires :math:`a(x_i, y_i) > a(x_i, y)` strictly, consistent with this.
  Errors on the open intervals do not depend on the rule; it fixes the error *at* a breakpoint
  (reported in :attr:`ZeroOneSweep.breakpoint_errors`) and sends :math:`a_y = a_l` with
  :math:`h_i \ne y_i` to scenario 3.
* **Phase I searches** :math:`\alpha > 0` **only** (as DirectBoost does); intersection points
  :math:`q \le 0` are folded into the error count just right of 0.  The paper's Algorithm 1.1
  inserts every :math:`q` whatever its sign; for :math:`\alpha < 0` its scenario 3 is not "always
  an error" (a falling wrong class may uncover the true one), so the sweep is only exact for
  :math:`\alpha \ge 0`, and Algorithm 1.2 chooses leaf *labels*, i.e. votes with positive weight.
* **Unbounded best interval** :math:`(low, \infty)`: :math:`\alpha = 2\,low`, or ``1.0`` when
  :math:`low = 0`, mirroring :func:`marginboost.boosting.directboost.zero_one_line_search`.
* **Phase II interval** (Algorithm 2.1's ``[begin, end]`` is not given): ``begin = 0``;
  ``end`` doubles from :math:`\max(c, th)` until the derivative there is :math:`\le 0`.  If the
  derivative stays positive as :math:`|\alpha| \to \infty` (checked exactly from the lines each
  numerator ends on), the supremum is the limit :math:`|\alpha| \to \infty` and the result is
  ``inf`` with the limiting value, as in DirectBoost's margin search.  If the one-sided
  derivative at 0 is already :math:`\le 0` the maximizer is 0 exactly (the bisection's limit).
* **Both signs** of :math:`\alpha` are searched by default (``negative=True``); the half-line
  with the larger value wins, ties going to :math:`\alpha \ge 0`.
* **Derivative at kinks and ties** of the bottom set: the one-sided derivative away from 0;
  among margins tied at the :math:`n'`-th place, those with the smaller slope count in
  :math:`B_{n'}` (this is the exact one-sided derivative of the bottom-:math:`n'` sum).
* **epsilon-relaxation** (Bertsekas; the paper's :math:`\epsilon = 0.01`): with ``relax=True`` the
  step is the maximizer moved :math:`\epsilon` further from 0 (:math:`q^* + \epsilon` on the
  positive side, :math:`q^* - \epsilon` on the negative side), as DirectBoost's ``q + epsilon``.
* Derivative (10) as printed has typos; the implementation uses the derivative of (7) itself:
  scenario 3's first piece is :math:`-(a_y - a_l)/(c+\alpha)^2` (printed
  :math:`(-a_y - a_l)/(c+\alpha)^2`) and its second piece :math:`(-c - (a_y - a_k))/(c+\alpha)^2`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...margins import bottom_margin_average, check_n_prime, multiclass_margins
from . import _phase1_kernels as _k1
from . import _phase2_kernels as _k2

__all__ = [
    "ZeroOneSweep",
    "zero_one_scenarios",
    "zero_one_sweep",
    "zero_one_errors_at",
    "margin_scenarios",
    "margin_numerators",
    "bottom_average_along",
    "bottom_average_slope",
    "MarginLineSearch",
    "margin_line_search",
    "kl_inverse",
    "generalization_bound",
    "TH",
    "EPSILON",
]

FloatArray = NDArray[np.float64]
#: The numerators as ``min(p1 + s1 b, p2 + s2 b)``: ``(p1, s1, p2, s2)`` (see :func:`_lines`).
_Lines = tuple[FloatArray, FloatArray, FloatArray, FloatArray]

#: Algorithm 2.1's bisection threshold and the relaxation of the paper's experiments (Sec. 3).
TH = 1e-5
EPSILON = 0.01


# ---- input checks -----------------------------------------------------------------------------
def _labels(values: ArrayLike, n: int, K: int, what: str) -> NDArray[np.int64]:
    arr = np.asarray(values)
    if arr.shape != (n,):
        raise ValueError(f"{what} must have shape ({n},) to match F; got shape {arr.shape}")
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise ValueError(
            f"{what} must hold integer class indices in 0..{K - 1}; got dtype {arr.dtype}"
        )
    if np.issubdtype(arr.dtype, np.floating):
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise ValueError(
                f"{what} must hold integer class indices in 0..{K - 1}; got non-integer values"
            )
    if arr.size and (arr.min() < 0 or arr.max() > K - 1):
        bad = np.unique(arr[(arr < 0) | (arr > K - 1)])[:5]
        raise ValueError(f"{what} must hold class indices in 0..{K - 1}; got {bad.tolist()}")
    return arr.astype(np.int64)


def _check(
    F: ArrayLike, y: ArrayLike, h: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]:
    try:
        F = np.asarray(F, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"F must be a real (n, K) array of class scores; got {F!r}") from exc
    if F.ndim != 2:
        raise ValueError(f"F must be a 2-D (n, K) array of class scores; got shape {F.shape}")
    n, K = F.shape
    if K < 2:
        raise ValueError(f"F must have K >= 2 classes (columns); got K = {K}")
    if n < 1:
        raise ValueError("the line search needs at least one example (F has 0 rows)")
    if not np.all(np.isfinite(F)):
        raise ValueError("F contains NaN or infinite values")
    return F, _labels(y, n, K, "y"), _labels(h, n, K, "h")


def _check_c(c: float) -> float:
    c = float(c)
    if not (math.isfinite(c) and c > 0):
        raise ValueError(
            f"c (the sum of |alpha| of the current ensemble) must be positive and finite; got {c!r}"
        )
    return c


def _scores(
    F: NDArray[np.float64], y: NDArray[np.int64], h: NDArray[np.int64]
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """True score, best wrong score, score of h's class, best wrong score other than h's."""
    # a_l2 is -inf when K == 2 and h != y
    a_true, a_l, a_h, a_l2 = _k1.row_scores(
        np.ascontiguousarray(F, dtype=np.float64),
        np.asarray(y, dtype=np.int64),
        np.asarray(h, dtype=np.int64),
    )
    return a_true, a_l, a_h, a_l2


# ---- phase I ----------------------------------------------------------------------------------
def zero_one_scenarios(
    F: ArrayLike, y: ArrayLike, h: ArrayLike
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Figure 1: the scenario (1, 2 or 3) of every example and its intersection point ``q``
    (``nan`` in scenario 3), for :math:`\\alpha \\ge 0` (see the module docstring)."""
    return _scenarios(*_check(F, y, h))


def _scenarios(
    F: NDArray[np.float64], y: NDArray[np.int64], h: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """:func:`zero_one_scenarios` on checked arrays."""
    a_true, a_l, a_h, _ = _scores(F, y, h)
    s1 = h == y
    s2 = ~s1 & (a_true > a_l)  # strictly: a tie with the best wrong class is an error
    scenario = np.where(s1, 1, np.where(s2, 2, 3)).astype(np.int64)
    q = np.full(F.shape[0], np.nan)
    q[s1] = a_l[s1] - a_true[s1]
    q[s2] = a_true[s2] - a_h[s2]  # > 0: a_true > a_l >= a_h
    return scenario, q


@dataclass(frozen=True)
class ZeroOneSweep:
    r"""The training 0-1 error along one coordinate, :math:`\alpha > 0` (Algorithm 1.1).

    Attributes
    ----------
    breakpoints : array (m,)
        The distinct positive intersection points :math:`p_1 < \dots < p_m`.
    interval_errors : int array (m + 1,)
        Misclassified examples on each open interval :math:`(0, p_1), (p_1, p_2), \dots,
        (p_m, \infty)`.
    breakpoint_errors : int array (m,)
        Misclassified examples exactly at each :math:`p_j` (ties count as errors).
    best_interval : int
        Index of the interval with the fewest errors that holds the step (the first such
        interval for ``step="midpoint"``).
    low, high : float
        That interval; ``high`` is ``inf`` for the last one.
    alpha : float
        The step (see :func:`zero_one_sweep`'s ``step``): a midpoint is that of a bounded
        interval, or ``2 * low`` (``1.0`` if ``low == 0``) for the unbounded one
        (DirectBoost's convention).
    errors : int
        ``interval_errors[best_interval]``.
    initial_errors : int
        Errors just right of :math:`\alpha = 0` (``interval_errors[0]``).
    current_errors : int
        Errors at :math:`\alpha = 0`, i.e. of the current ensemble.
    """

    breakpoints: NDArray[np.float64]
    interval_errors: NDArray[np.int64]
    breakpoint_errors: NDArray[np.int64]
    best_interval: int
    low: float
    high: float
    alpha: float
    errors: int
    initial_errors: int
    current_errors: int


def zero_one_sweep(
    F: ArrayLike,
    y: ArrayLike,
    h: ArrayLike,
    step: str = "best-midpoint",
    *,
    loss_terms: NDArray[np.float64] | None = None,
) -> ZeroOneSweep:
    """Algorithm 1.1: the 0-1 error on every interval of :math:`\\alpha > 0` and the step of
    Algorithm 1 (midpoint of the best interval), in :math:`O(nK + n \\log n)`.

    Parameters
    ----------
    F : array (n, K), K >= 2
        Current class scores ``F[i, k]`` of the ensemble.
    y : int array (n,)
        Labels in ``0 .. K-1``.
    h : int array (n,)
        The candidate's predicted class per example (``0 .. K-1``).
    step : {"best-midpoint", "midpoint", "exp-loss"}, default "best-midpoint"
        Which point of the intervals with the fewest errors: the midpoint with the smallest
        multi-class exponential loss :math:`\\sum_i \\sum_{k \\ne y_i} e^{f_k - f_{y_i}}`
        after the step, the midpoint of the first (smallest-:math:`\\alpha`) one, or the loss
        minimizer clipped into the best one (see :class:`~marginboost.boosting.DMCBoost`).
    loss_terms : array (n, K), optional
        The loss terms :math:`e^{f_k - f_{y_i} - s}` (0 at :math:`k = y_i`, :math:`s` their
        largest exponent) when the caller has them already, as
        :class:`~marginboost.boosting.dmcboost.ZeroOneTreeObjective` does (its ``Bk``);
        computed from ``F`` otherwise.
    """
    mode = _k1.step_mode(step)
    F, y, h = _check(F, y, h)
    scenario, q = _scenarios(F, y, h)
    s1, s2 = scenario == 1, scenario == 2
    # errors just right of 0: scenario 3, and scenario 1 whose crossing is still ahead
    initial = int(np.count_nonzero(scenario == 3) + np.count_nonzero(s1 & (q > 0)))
    current = int(np.count_nonzero(scenario == 3) + np.count_nonzero(s1 & (q >= 0)))
    falling = s1 & (q > 0)  # error -> correct at q
    keys = np.concatenate([q[falling], q[s2]])
    updates = np.concatenate(
        [np.full(int(falling.sum()), -1, np.int64), np.full(int(s2.sum()), 1, np.int64)]
    )
    points, inverse = np.unique(keys, return_inverse=True)
    delta = np.zeros(points.size, np.int64)
    np.add.at(delta, inverse, updates)
    gained = np.zeros(points.size, np.int64)  # scenario-2 examples that become ties at p
    np.add.at(gained, inverse, (updates > 0).astype(np.int64))
    interval_errors = initial + np.concatenate([[0], np.cumsum(delta)]).astype(np.int64)
    # at p: the left interval's errors (scenario 1 is still wrong at its tie) plus the
    # scenario-2 examples tied there
    breakpoint_errors = interval_errors[:-1] + gained
    G, B = _loss_coefficients(F, y, h, loss_terms)
    errors, alpha = _k1.profile_step(
        interval_errors,
        np.arange(points.size + 1, dtype=np.int64),
        points,
        mode,
        G,
        B,
    )
    best = int(np.searchsorted(points, alpha))  # alpha lies inside its interval
    edges = np.concatenate([[0.0], points, [np.inf]])
    low, high = float(edges[best]), float(edges[best + 1])
    return ZeroOneSweep(
        breakpoints=points,
        interval_errors=interval_errors,
        breakpoint_errors=breakpoint_errors,
        best_interval=best,
        low=low,
        high=high,
        alpha=float(alpha),
        errors=int(interval_errors[best]),
        initial_errors=initial,
        current_errors=current,
    )


def _loss_coefficients(
    F: NDArray[np.float64],
    y: NDArray[np.int64],
    h: NDArray[np.int64],
    terms: NDArray[np.float64] | None = None,
) -> tuple[float, float]:
    r"""``(G, B)`` of the multi-class exponential loss along ``h``, :math:`G e^{-\alpha} +
    B e^{\alpha} + R`, up to a common factor: :math:`G` sums the terms of the examples ``h``
    classifies right (each of their terms falls), :math:`B` the term of the class ``h``
    predicts wrongly (it grows).  ``terms``: the terms themselves, if computed already."""
    rows = np.arange(F.shape[0])
    if terms is None:
        diff = F - F[rows, y][:, None]
        diff[rows, y] = -np.inf
        u = np.exp(diff - diff.max())
    else:
        if terms.shape != F.shape:
            raise ValueError(f"loss_terms must have shape {F.shape}; got {terms.shape}")
        u = terms
    right = h == y
    G = float(u[right].sum())
    B = float(u[~right, h[~right]].sum())
    return G, B


def _shifted(F: NDArray[np.float64], h: NDArray[np.int64], alpha: float) -> NDArray[np.float64]:
    G = F.copy()
    G[np.arange(F.shape[0]), h] += alpha
    return G


def zero_one_errors_at(F: ArrayLike, y: ArrayLike, h: ArrayLike, alpha: float) -> int:
    """Misclassified examples (margin :math:`\\le 0`, ties are errors) after adding ``h`` with
    weight ``alpha``, recomputed from the scores (the brute-force reference)."""
    F, y, h = _check(F, y, h)
    margins = multiclass_margins(_shifted(F, h, float(alpha)), y)
    return int(np.count_nonzero(margins <= 0.0))


# ---- phase II ---------------------------------------------------------------------------------
def margin_scenarios(F: ArrayLike, y: ArrayLike, h: ArrayLike) -> NDArray[np.int64]:
    r"""Figure 2, :math:`\alpha \ge 0`: 1 if :math:`h_i = y_i` (increasing margin), 2 if
    :math:`h_i` is a best wrong class (decreasing), 3 otherwise (constant, then decreasing
    from :math:`\alpha = a_l - a_{h_i}`)."""
    F, y, h = _check(F, y, h)
    a_true, a_l, a_h, _ = _scores(F, y, h)
    return np.where(h == y, 1, np.where(a_h == a_l, 2, 3)).astype(np.int64)


def _lines(F: FloatArray, y: NDArray[np.int64], h: NDArray[np.int64], sign: int) -> _Lines:
    """Each numerator as ``min(p1 + s1 b, p2 + s2 b)`` in ``b = |alpha| >= 0`` on the side
    ``sign`` (``p2 = inf``: a single line; ``p1 = inf`` when K == 2 on the negative side)."""
    a_true, a_l, a_h, a_l2 = _scores(F, y, h)
    own = h == y
    n = F.shape[0]
    p1 = np.where(own, a_true - a_l, a_true - (a_l if sign > 0 else a_l2))
    s1 = np.where(own, float(sign), 0.0)
    p2 = np.where(own, np.inf, a_true - a_h)
    s2 = np.where(own, 0.0, -float(sign)) * np.ones(n)
    return p1, s1, p2, s2


def _bottom(lines: _Lines, n_prime: int, b: float) -> tuple[float, float]:
    """Sum S of the n' smallest numerators at b >= 0 and its right derivative S'."""
    value, slope = _k2.lines_at(*lines, float(b))
    vstar = np.partition(value, n_prime - 1)[n_prime - 1]
    # the values below the n'-th, summed as numpy sums them, plus the n'-th for each place
    # left; the ties' smaller slopes first (exact S'); one compiled pass
    S, dS = _k2.bottom_sum(value, slope, float(vstar), int(n_prime))
    return float(S), float(dS)


def _phi_positive(lines: _Lines, n_prime: int, c: float, b: float) -> tuple[bool, float]:
    """Whether the one-sided derivative (9) away from 0 is > 0 at |alpha| = b."""
    S, dS = _bottom(lines, n_prime, b)
    phi = dS * (c + b) - S
    return bool(phi > 1e-12 * (abs(dS) * (c + b) + abs(S))), S


def _tail(lines: _Lines, n_prime: int, c: float) -> tuple[float, float]:
    """The line S ends on as |alpha| -> inf: (intercept, slope) of the n' smallest tails."""
    p1, s1, p2, s2 = lines
    use2 = np.isfinite(p2) & (~np.isfinite(p1) | (s2 < s1) | ((s2 == s1) & (p2 < p1)))
    p = np.where(use2, p2, p1)
    s = np.where(use2, s2, s1)
    # the n' smallest by (s, p): the slopes are -1, 0 or +1, so the order is p's sorted values
    # within each slope in turn; the values alone fix the sum (ties are equal values), and the
    # slopes' sum is exact in any order
    groups = [s == -1.0, s == 0.0, s == 1.0]
    if sum(int(np.count_nonzero(g)) for g in groups) != s.size:  # pragma: no cover - guard
        raise ValueError("_tail: the slopes must be -1, 0 or +1")
    ordered = np.concatenate([np.sort(p[g]) for g in groups])[:n_prime]
    slopes = np.concatenate([s[g] for g in groups])[:n_prime]
    return float(ordered.sum()), float(slopes.sum())


def margin_numerators(
    F: ArrayLike, y: ArrayLike, h: ArrayLike, alpha: float
) -> NDArray[np.float64]:
    r"""Unnormalized margins :math:`N_i(\alpha)` after adding ``h`` with weight ``alpha``."""
    F, y, h = _check(F, y, h)
    return multiclass_margins(_shifted(F, h, float(alpha)), y)


def bottom_average_along(
    F: ArrayLike, y: ArrayLike, h: ArrayLike, c: float, n_prime: int, alpha: float
) -> float:
    r"""Objective (5) after adding ``h`` with weight ``alpha``: the average of the ``n_prime``
    smallest margins :math:`N_i(\alpha)/(c + |\alpha|)`, recomputed from the scores (the
    brute-force reference); for infinite ``alpha`` the limit."""
    F, y, h = _check(F, y, h)
    c = _check_c(c)
    n_prime = check_n_prime(n_prime, F.shape[0])
    alpha = float(alpha)
    if math.isinf(alpha):
        p, s = _tail(_lines(F, y, h, 1 if alpha > 0 else -1), n_prime, c)
        return s / n_prime
    margins = margin_numerators(F, y, h, alpha) / (c + abs(alpha))
    return bottom_margin_average(margins, n_prime)


def bottom_average_slope(
    F: ArrayLike, y: ArrayLike, h: ArrayLike, c: float, n_prime: int, alpha: float
) -> float:
    r"""Eq. (9): the one-sided derivative of (5) moving away from 0, i.e.
    :math:`\frac{d}{d\beta}\,g(\alpha + \sigma\beta)\big|_{\beta=0^+}` with
    :math:`\sigma = +1` for :math:`\alpha \ge 0` and :math:`-1` for :math:`\alpha < 0`; equals
    :math:`\frac{1}{n'}\sum_{i\in B_{n'}} \partial M_i` with eq. (10)'s per-example derivatives."""
    F, y, h = _check(F, y, h)
    c = _check_c(c)
    n_prime = check_n_prime(n_prime, F.shape[0])
    sign = 1 if alpha >= 0 else -1
    b = abs(float(alpha))
    S, dS = _bottom(_lines(F, y, h, sign), n_prime, b)
    return (dS * (c + b) - S) / (n_prime * (c + b) ** 2)


@dataclass(frozen=True)
class MarginLineSearch:
    r"""Algorithm 2.1's result along one coordinate.

    Attributes
    ----------
    maximizer : float
        :math:`q^*`, the bisection's maximizer of (5) (``0.0`` when no direction improves,
        ``+-inf`` when the supremum is only approached as :math:`|\alpha| \to \infty`).
    alpha : float
        The step: ``maximizer``, or with ``relax`` moved ``epsilon`` further from 0.
    value : float
        Objective (5) at ``alpha`` (the limit when it is infinite).
    max_value : float
        Objective (5) at ``maximizer``.
    initial_value : float
        Objective (5) at :math:`\alpha = 0` (before the step).
    unbounded : bool
        Whether ``maximizer`` is infinite.
    iterations : int
        Bisection steps taken on the chosen side.
    """

    maximizer: float
    alpha: float
    value: float
    max_value: float
    initial_value: float
    unbounded: bool
    iterations: int


def _search_side(lines: _Lines, n_prime: int, c: float, th: float) -> tuple[float, float, int]:
    """(b*, g(b*), iterations) on one half-line b = |alpha| >= 0; b* may be inf."""
    positive, S0 = _phi_positive(lines, n_prime, c, 0.0)
    if not positive:
        return 0.0, S0 / (n_prime * c), 0
    p, s = _tail(lines, n_prime, c)
    if s * c - p > 1e-12 * (abs(s) * c + abs(p)):  # still rising after the last breakpoint
        return math.inf, s / n_prime, 0
    end = max(c, th)
    for _ in range(2100):
        if not _phi_positive(lines, n_prime, c, end)[0]:
            break
        end *= 2.0
    else:  # pragma: no cover - the tail check rules this out
        raise RuntimeError("no point with a non-positive derivative was found")
    begin, iterations = 0.0, 0
    while end - begin >= th:  # Algorithm 2.1, lines 2-9
        q = 0.5 * (begin + end)
        if _phi_positive(lines, n_prime, c, q)[0]:
            begin = q
        else:
            end = q
        iterations += 1
    b = 0.5 * (begin + end)
    S, _ = _bottom(lines, n_prime, b)
    return b, S / (n_prime * (c + b)), iterations


def margin_line_search(
    F: ArrayLike,
    y: ArrayLike,
    h: ArrayLike,
    c: float,
    n_prime: int,
    *,
    th: float = TH,
    negative: bool = True,
    relax: bool = False,
    epsilon: float = EPSILON,
) -> MarginLineSearch:
    r"""Algorithm 2.1: maximize the bottom-``n_prime`` average margin (5) along ``h``.

    Bisection on the sign of the derivative (9) on each half-line (see the module docstring
    for why it is exact up to ``th``), the better half-line winning.

    Parameters
    ----------
    F, y, h
        Scores (n, K), labels and the candidate's predicted classes, as for
        :func:`zero_one_sweep`.
    c : float
        :math:`\sum_{s<t}|\alpha_s| > 0` of the current ensemble.
    n_prime : int
        Number of bottom examples, ``1 .. n`` (1: minimum margin, n: average margin).
    th : float
        Bisection threshold (the paper: 1e-5).
    negative : bool
        Also search :math:`\alpha < 0` (the paper's mirrored scenarios).
    relax, epsilon
        :math:`\epsilon`-relaxation: step ``epsilon`` beyond the maximizer (the paper: 0.01).
    """
    F, y, h = _check(F, y, h)
    c = _check_c(c)
    n_prime = check_n_prime(n_prime, F.shape[0])
    th = float(th)
    if not (math.isfinite(th) and th > 0):
        raise ValueError(f"th must be a positive finite threshold; got {th!r}")
    epsilon = float(epsilon)
    if relax and not (math.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"epsilon must be positive when relax=True; got {epsilon!r}")
    sides = [1, -1] if negative else [1]
    best = None
    for sign in sides:
        lines = _lines(F, y, h, sign)
        b, value, iterations = _search_side(lines, n_prime, c, th)
        if best is None or value > best[2]:
            best = (sign, b, value, iterations, lines)
    assert best is not None
    sign, b, value, iterations, lines = best
    initial = _bottom(lines, n_prime, 0.0)[0] / (n_prime * c)
    maximizer = sign * b
    if relax:
        step_b = b + epsilon
        if math.isfinite(step_b):
            S, _ = _bottom(lines, n_prime, step_b)
            step_value = S / (n_prime * (c + step_b))
        else:
            step_value = value
    else:
        step_b, step_value = b, value
    return MarginLineSearch(
        maximizer=float(maximizer) + 0.0,
        alpha=float(sign * step_b) + 0.0,
        value=float(step_value),
        max_value=float(value),
        initial_value=float(initial),
        unbounded=bool(math.isinf(b)),
        iterations=int(iterations),
    )


# ---- Theorem 2 --------------------------------------------------------------------------------
def _kl(q: float, p: float) -> float:
    """Binary relative entropy KL(q || p) in nats (0 log 0 = 0)."""
    out = 0.0
    if q > 0:
        out += q * math.log(q / p) if p > 0 else math.inf
    if q < 1:
        out += (1 - q) * math.log((1 - q) / (1 - p)) if p < 1 else math.inf
    return out


def kl_inverse(q: float, c: float, tol: float = 1e-12) -> float:
    r""":math:`D^{-1}(q, c)`: the largest :math:`p \in [q, 1]` with :math:`KL(q\,\|\,p) \le c`
    (the inverse of the binary relative entropy in its second argument, Wang et al. 2011),
    by bisection to ``tol``."""
    q, c = float(q), float(c)
    if not 0 <= q <= 1:
        raise ValueError(f"q must be in [0, 1]; got {q!r}")
    if not c >= 0:
        raise ValueError(f"c must be >= 0; got {c!r}")
    if _kl(q, 1.0) <= c:
        return 1.0
    low, high = q, 1.0
    while high - low > tol:
        mid = 0.5 * (low + high)
        if _kl(q, mid) <= c:
            low = mid
        else:
            high = mid
    return low


def generalization_bound(
    theta: float, n: int, n_prime: int, K: int, n_hypotheses: float, delta: float = 0.05
) -> float:
    r"""Theorem 2's bound on the generalization error :math:`\Pr_D[M(f, x, y) < 0]`.

    .. math:: (K-1)\frac{\log|H|}{2n} + \sqrt{\frac{\log|H|}{2n^2}}
              + D^{-1}\Big(\frac{n'-1}{n}, \frac{u}{n}\Big), \qquad
              u = \frac{8}{\theta^2}\log\frac{2n^2}{\log|H|}\,\log(2|H|) + \log|H|
              + \log\frac1\delta ,

    natural logarithms, holding with probability :math:`\ge 1 - \delta` for a finite pool of
    :math:`|H|` = ``n_hypotheses`` weak classifiers.  Constants as printed in the theorem and at
    the end of Appendix B.  Two readings where the paper is inconsistent (checked in tests/test_dmcboost_search.py):
    ``theta`` is the bottom-:math:`n'` *average* margin :math:`\frac{1}{n'}\sum_{i\in B_{n'}}
    M_i` (the statement prints :math:`\frac1n`, but the proof's indicator term
    :math:`1[\frac{1}{n'}\sum_B M_i < \theta]` must vanish), and the condition is the proof's
    :math:`\theta \ge 8/|H|` (the statement prints :math:`\theta > \delta/|H|`); a smaller
    ``theta`` is rejected.  The value is returned unclipped and is usually vacuous (> 1).
    """
    theta, delta, H = float(theta), float(delta), float(n_hypotheses)
    n, n_prime, K = int(n), int(n_prime), int(K)
    if n < 1 or not 1 <= n_prime <= n:
        raise ValueError(f"need n >= 1 and n_prime in [1, n]; got n={n}, n_prime={n_prime}")
    if K < 2:
        raise ValueError(f"K must be >= 2; got {K}")
    if not (H >= 2 and math.isfinite(H)):
        raise ValueError(f"n_hypotheses must be a finite number >= 2; got {n_hypotheses!r}")
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1); got {delta!r}")
    if not (math.isfinite(theta) and theta >= 8.0 / H):
        raise ValueError(
            f"theta (the bottom-n' average margin) must be >= 8/|H| = {8.0 / H:g} "
            f"(Theorem 2's condition); got {theta!r}"
        )
    log_h = math.log(H)
    if not 2.0 * n * n > log_h:
        raise ValueError("log(2 n^2 / log|H|) must be positive: the sample is too small for |H|")
    u = (
        (8.0 / theta**2) * math.log(2.0 * n * n / log_h) * math.log(2.0 * H)
        + log_h
        + math.log(1.0 / delta)
    )
    return float(
        (K - 1) * log_h / (2.0 * n)
        + math.sqrt(log_h / (2.0 * n * n))
        + kl_inverse((n_prime - 1) / n, u / n)
    )
