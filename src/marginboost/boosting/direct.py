r"""Direct 0-1 loss minimization (Zhai, Xia, Tan & Wang 2013, "DirectBoost"): line searches.

Notation of the paper (Sec. 2.1): before round :math:`t` the ensemble scores example :math:`i`
with :math:`a(x_i) = \sum_{k<t}\alpha_k h_k(x_i)`; adding a weak classifier :math:`h` with
weight :math:`\alpha \ge 0` makes the (unnormalized) margin of example :math:`i` the line

.. math:: F_i(\alpha) = y_i a(x_i) + y_i h(x_i)\,\alpha = a_i + b_i\alpha ,
          \qquad b_i = y_i h(x_i) \in \{-1, +1\}.

Conventions used throughout the package:

* an example is **misclassified when its margin is** :math:`\le 0` (a tie counts as an
  error, as in :meth:`~marginboost.boosting._base.BinaryBoostingClassifier.margins`-based
  training errors elsewhere);
* only :math:`\alpha > 0` is searched (the hypothesis class is closed under negation; the
  caller tries :math:`-h` by negating ``b``).

:func:`zero_one_line_search` is the sweep of the paper's Algorithm 1 (lines 4-10): the margin of
example :math:`i` changes sign at :math:`\hat e_i = |a_i|` when :math:`a_i b_i < 0`; sorting the
:math:`\hat e_i` and adding :math:`-1` (a misclassified example whose line rises) or :math:`+1`
(a correct example whose line falls) to the error count to the right of each gives the
piecewise-constant error on the at most :math:`n + 1` open intervals between them, in
:math:`O(n \log n)` (or :math:`O(n)` when the order is given).
"""

from __future__ import annotations

import numbers
import time
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from numbers import Real
from typing import TYPE_CHECKING, Any, cast

import numba
import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions

from .._sklearn import constraints
from ..margins import check_n_prime
from . import _direct_kernels as _k
from ._base import BinaryBoostingClassifier, check_positive_int, check_real, mark_not_boosted

if TYPE_CHECKING:
    from ..weak.direct import DirectNode, DirectTreeBuilder, DirectTreeState

FloatArray = NDArray[np.float64]

__all__ = [
    "LineSearchResult",
    "zero_one_line_search",
    "StumpStep",
    "best_stump_zero_one",
    "zero_one_error_at",
    "zero_error_end",
    "MarginSearchResult",
    "bottom_average_line_search",
    "bottom_margin_average_at",
    "order_margin",
    "margin_objective",
    "ZeroOneObjective",
    "MarginObjective",
    "DirectBoost",
    "VARIANTS",
    "directboost_variant",
    "directboost_variants",
]


@dataclass(frozen=True)
class LineSearchResult:
    """The best open interval of :math:`\\alpha` for the 0-1 loss along one coordinate.

    Attributes
    ----------
    errors : int
        Misclassified examples for every :math:`\\alpha` in the interval.
    low, high : float
        The interval ``(low, high)``; ``high`` is ``inf`` for the last, unbounded interval.
    alpha : float
        The chosen step: the midpoint of a bounded interval; for the unbounded interval
        ``2 * low`` (``1.0`` when ``low == 0``), i.e. as far beyond the last critical point as
        that point is from 0 -- a finite, scale-aware rule (the paper gives none).
    initial_errors : int
        Misclassified examples just to the right of :math:`\\alpha = 0`.
    """

    errors: int
    low: float
    high: float
    alpha: float
    initial_errors: int


@njit(cache=True)
def _sweep(
    a: FloatArray, b: FloatArray, order: NDArray[np.intp]
) -> tuple[int, float, float, int]:  # pragma: no cover - compiled
    n = a.shape[0]
    # errors just right of alpha = 0: negative margin, or zero margin on a falling line
    errors = 0
    for i in range(n):
        if a[i] < 0.0 or (a[i] == 0.0 and b[i] < 0.0):
            errors += 1
    initial = errors
    best, best_low, best_high = n + 1, 0.0, np.inf
    low = 0.0
    k = 0
    while k < n:
        i = order[k]
        if not (a[i] * b[i] < 0.0):  # this margin does not change sign for alpha > 0
            k += 1
            continue
        point = abs(a[i])
        if errors < best:  # the interval (low, point) is complete
            best, best_low, best_high = errors, low, point
        # apply every crossing at this point (ties); the next interval starts here
        while k < n:
            j = order[k]
            if a[j] * b[j] < 0.0:
                if abs(a[j]) != point:
                    break
                errors += -1 if a[j] < 0.0 else 1
            k += 1
        low = point
    if errors < best:  # the last, unbounded interval
        best, best_low, best_high = errors, low, np.inf
    return best, best_low, best_high, initial


def _check(a: ArrayLike, b: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    if a.ndim != 1 or b.shape != a.shape:
        raise ValueError(
            f"a and b must be 1-D arrays of the same length; got shapes {a.shape} and {b.shape}"
        )
    if a.size == 0:
        raise ValueError("the line search needs at least one example")
    if not np.isfinite(a).all():
        raise ValueError("a contains NaN or infinite values")
    if not np.isin(b, (-1.0, 1.0)).all():
        raise ValueError("b must contain only -1 and +1 (y_i h(x_i) of a +-1 weak classifier)")
    return a, b


def zero_one_line_search(
    a: ArrayLike, b: ArrayLike, order: ArrayLike | None = None
) -> LineSearchResult:
    r"""Minimize the number of examples with :math:`a_i + b_i\alpha \le 0` over :math:`\alpha > 0`.

    Parameters
    ----------
    a : array (n,)
        Current margins :math:`y_i a(x_i)` (unnormalized).
    b : array (n,)
        :math:`y_i h(x_i) \in \{-1, +1\}` of the candidate weak classifier.
    order : array (n,), optional
        Indices sorting :math:`|a_i|` increasingly (Algorithm 1 sorts once per round and reuses
        the order for every candidate); computed when omitted.

    Returns
    -------
    LineSearchResult
        The first (smallest-:math:`\alpha`) open interval with the fewest errors and the step
        chosen in it.
    """
    a, b = _check(a, b)
    if order is None:
        order = np.argsort(np.abs(a), kind="stable")
    else:
        order = np.ascontiguousarray(order, dtype=np.int64)
        if order.shape != a.shape:
            raise ValueError(f"order must have shape {a.shape}; got {order.shape}")
    errors, low, high, initial = _sweep(a, b, order)
    if np.isfinite(high):
        alpha = 0.5 * (low + high)
    else:
        alpha = 2.0 * low if low > 0 else 1.0
    return LineSearchResult(
        errors=int(errors),
        low=float(low),
        high=float(high),
        alpha=float(alpha),
        initial_errors=int(initial),
    )


def zero_one_error_at(a: ArrayLike, b: ArrayLike, alpha: float) -> int:
    """Number of examples with :math:`a_i + b_i\\alpha \\le 0` (the brute-force reference)."""
    a, b = _check(a, b)
    return int(np.count_nonzero(a + b * float(alpha) <= 0.0))


def zero_error_end(a: ArrayLike, b: ArrayLike) -> float:
    r"""End :math:`d` of the region where no correctly classified example is lost.

    The smallest :math:`\hat e_i = a_i` over examples with :math:`a_i > 0` and a falling line
    (:math:`b_i = -1`): for :math:`0 \le \alpha < d` every example correct at
    :math:`\alpha = 0` stays correct (``inf`` when no line falls through zero).  Phase 2 of
    DirectBoost searches :math:`\alpha \in [0, d)`.
    """
    a, b = _check(a, b)
    falling = (a > 0) & (b < 0)
    return float(a[falling].min()) if falling.any() else float("inf")


def bottom_margin_average_at(
    a: ArrayLike, b: ArrayLike, c: float, n_prime: int, alpha: float
) -> float:
    r"""The average of the ``n_prime`` smallest normalized margins
    :math:`(a_i + b_i\alpha)/(c + \alpha)` (DirectBoost's :math:`g_{\mathrm{average}\,n'}`),
    evaluated directly (the reference for :func:`bottom_average_line_search`)."""
    a, b = _check(a, b)
    n_prime = check_n_prime(n_prime, a.size)
    if np.isinf(alpha) and alpha > 0:  # the limit: margins tend to b_i
        return float(np.sort(b)[:n_prime].mean())
    margins = np.sort(a + b * float(alpha))[:n_prime]
    return float(margins.mean() / (float(c) + float(alpha)))


@dataclass(frozen=True)
class MarginSearchResult:
    r"""The maximizer of the bottom-:math:`n'` average margin along one coordinate.

    Attributes
    ----------
    alpha : float
        The maximizing step in ``[0, d]`` (the smallest one among ties); ``inf`` when ``d`` is
        infinite and the objective keeps increasing (its supremum is the limit
        :math:`\alpha \to \infty`: the candidate alone classifies the bottom examples better
        than the ensemble).
    value : float
        :math:`g_{\mathrm{average}\,n'}` at ``alpha`` (the limit when ``alpha`` is ``inf``).
    initial_value : float
        The value at :math:`\alpha = 0` (the objective before the step).
    at_end : bool
        Whether ``alpha == d`` (finite): there an example's margin reaches 0, so a caller that
        must stay in the minimum-error region steps back to ``d - epsilon``, as the paper does.
    """

    alpha: float
    value: float
    initial_value: float
    at_end: bool


def bottom_average_line_search(
    a: ArrayLike, b: ArrayLike, c: float, n_prime: int, d: float | None = None
) -> MarginSearchResult:
    r"""Maximize the average of the ``n_prime`` smallest margins over :math:`\alpha \in [0, d]`.

    With :math:`c = \sum_{k<t}\alpha_k > 0` the normalized margins are
    :math:`m_i(\alpha) = (a_i + b_i\alpha)/(c + \alpha)` (the paper's eq. (7)).  The sum
    :math:`S(\alpha)` of the ``n_prime`` smallest numerators is the lower envelope of the lines
    "the ``k`` smallest rising lines plus the ``n_prime - k`` smallest falling lines"
    (:math:`k = 0, \dots, n'`; within one slope the order never changes), so it is concave and
    piecewise linear.  On each piece :math:`S(\alpha)/(c + \alpha)` is monotone (its derivative
    has the fixed sign of :math:`qc - p` for the piece :math:`p + q\alpha`), so the maximum is
    at 0, at ``d`` or at a breakpoint of the envelope: all are evaluated exactly, in
    :math:`O(n \log n)`.  This is the result Algorithm 2 of the paper reaches by walking the
    breakpoints :math:`q_j`; computing it from the envelope avoids its bookkeeping and is
    checked against a fine grid in the tests.

    Parameters
    ----------
    a, b : arrays (n,)
        Current unnormalized margins and :math:`y_i h(x_i)`, as for :func:`zero_one_line_search`.
    c : float
        Sum of the current weights (> 0).
    n_prime : int
        Number of bottom examples (``1``: the minimum margin; ``n``: the average margin).
    d : float, optional
        Right end of the search; default :func:`zero_error_end` ``(a, b)``.  An infinite ``d``
        is allowed (the limit :math:`\alpha \to \infty`, margin :math:`b_i`, is then only
        approached, never chosen).
    """
    a, b = _check(a, b)
    n_prime = check_n_prime(n_prime, a.size)
    c = float(c)
    if not (np.isfinite(c) and c > 0):
        raise ValueError(f"c (the sum of the current weights) must be positive; got {c!r}")
    d = zero_error_end(a, b) if d is None else float(d)
    if not d >= 0:
        raise ValueError(f"d must be >= 0; got {d!r}")
    rising = np.sort(a[b > 0])
    falling = np.sort(a[b < 0])
    # S(alpha) = min over feasible k of  R_k + F_{n'-k} + (2k - n') alpha
    ks = np.arange(n_prime + 1)
    feasible = (ks <= rising.size) & (n_prime - ks <= falling.size)
    ks = ks[feasible]
    prefix_r = np.concatenate([[0.0], np.cumsum(rising)])
    prefix_f = np.concatenate([[0.0], np.cumsum(falling)])
    intercepts = prefix_r[ks] + prefix_f[n_prime - ks]
    slopes = 2.0 * ks - n_prime
    # breakpoints of the lower envelope: intersections of consecutive lines (slopes increase
    # with k, so the envelope takes them left to right in decreasing k); evaluate all
    # pairwise intersections of neighbours -- a superset of the breakpoints is harmless
    points = [0.0]
    if np.isfinite(d):
        points.append(d)
    if ks.size > 1:
        cross = (intercepts[:-1] - intercepts[1:]) / 2.0  # slopes differ by 2
        points.extend(x for x in cross.tolist() if 0.0 < x < d)
    candidates = np.unique(np.asarray(points))
    envelope = np.min(intercepts[None, :] + slopes[None, :] * candidates[:, None], axis=1)
    values = envelope / (n_prime * (c + candidates))
    best = int(np.argmax(values))  # first maximum: the smallest alpha
    if not np.isfinite(d):
        # beyond the last breakpoint the envelope is its line of smallest slope and the
        # objective tends to slope / n' (the bottom average of the b_i) as alpha -> inf
        limit = float(slopes.min()) / n_prime
        if limit > values[best]:
            return MarginSearchResult(
                alpha=float("inf"), value=limit, initial_value=float(values[0]), at_end=False
            )
    return MarginSearchResult(
        alpha=float(candidates[best]),
        value=float(values[best]),
        initial_value=float(values[0]),
        at_end=bool(np.isfinite(d) and candidates[best] == d),
    )


@njit(cache=True)
def _stump_search(
    codes: NDArray[np.uint8],
    a: FloatArray,
    y: FloatArray,
    order: NDArray[np.intp],
    n_bins: NDArray[np.int64],
) -> tuple[NDArray[np.int64], FloatArray, FloatArray]:  # pragma: no cover
    n, d = codes.shape
    width = max(int(n_bins.max()), 1)
    errors = np.full((d, width, 2), n + 1, dtype=np.int64)
    alphas = np.zeros((d, width, 2))
    losses = np.full((d, width, 2), np.inf)
    b = np.empty(n)
    for f in range(d):
        for t in range(n_bins[f] - 1):  # t = n_bins - 1 sends every sample left: no split
            for s in range(2):
                sign = 1.0 if s == 0 else -1.0
                for i in range(n):
                    b[i] = sign * y[i] * (1.0 if codes[i, f] <= t else -1.0)
                best, low, high, _ = _sweep(a, b, order)
                if np.isfinite(high):
                    alpha = 0.5 * (low + high)
                else:
                    alpha = 2.0 * low if low > 0 else 1.0
                # exponential loss sum_i exp(-(a_i + b_i alpha)), shifted for stability
                top = 0.0
                for i in range(n):
                    top = max(top, -(a[i] + b[i] * alpha))
                loss = 0.0
                for i in range(n):
                    loss += np.exp(-(a[i] + b[i] * alpha) - top)
                errors[f, t, s] = best
                alphas[f, t, s] = alpha
                losses[f, t, s] = np.log(loss) + top
    return errors, alphas, losses


@dataclass(frozen=True)
class StumpStep:
    r"""One step of Algorithm 1 with decision stumps: ``h(x) = polarity`` if
    ``code[feature] <= bin`` else ``-polarity``, added with weight ``alpha``.

    ``errors`` is the training error count after the step, ``initial_errors`` before it, and
    ``log_exp_loss`` the log of :math:`\sum_i \exp(-(a_i + b_i\alpha))` used to break ties.
    """

    feature: int
    bin: int
    polarity: float
    alpha: float
    errors: int
    initial_errors: int
    log_exp_loss: float


def best_stump_zero_one(codes: ArrayLike, a: ArrayLike, y: ArrayLike) -> StumpStep:
    r"""Algorithm 1, lines 2-13, over every decision stump of the binned data.

    For each stump (feature, bin, polarity) :func:`zero_one_line_search` gives its best
    interval of :math:`\alpha` (all candidates share one sort of :math:`|a_i|`); the step with
    the fewest training errors wins, ties going to the smallest exponential loss at the chosen
    :math:`\alpha` (the paper's rule), then to the lowest feature, bin and polarity ``+1``.
    Cost :math:`O(Mn)` for :math:`M` stumps, in a numba kernel.

    Parameters
    ----------
    codes : uint8 array (n, d)
        Binned features (:class:`~marginboost.weak.BinMapper`).
    a : array (n,)
        Current unnormalized margins :math:`y_i a(x_i)`.
    y : array (n,)
        Labels in {-1, +1}.
    """
    from ..weak.binning import check_codes

    codes = check_codes(codes)
    y = np.ascontiguousarray(y, dtype=np.float64)
    a = np.ascontiguousarray(a, dtype=np.float64)
    n = codes.shape[0]
    if y.shape != (n,) or a.shape != (n,):
        raise ValueError(
            f"a and y must have shape ({n},) to match codes; got {a.shape} and {y.shape}"
        )
    if not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError("y must contain only -1 and +1")
    if not np.isfinite(a).all():
        raise ValueError("a contains NaN or infinite values")
    n_bins = (codes.max(axis=0).astype(np.int64) + 1) if n else np.zeros(codes.shape[1], np.int64)
    if not (n_bins > 1).any():
        raise ValueError("no stump splits the data: every feature is constant")
    order = np.argsort(np.abs(a), kind="stable")
    errors, alphas, losses = _stump_search(np.asfortranarray(codes), a, y, order, n_bins)
    flat = np.lexsort((losses.ravel(), errors.ravel()))[0]  # fewest errors, then least loss
    f, t, s = np.unravel_index(flat, errors.shape)
    b_polarity = 1.0 if s == 0 else -1.0
    b = b_polarity * y * np.where(codes[:, f] <= t, 1.0, -1.0)
    initial = int(np.count_nonzero((a < 0) | ((a == 0) & (b < 0))))
    return StumpStep(
        feature=int(f),
        bin=int(t),
        polarity=b_polarity,
        alpha=float(alphas[f, t, s]),
        errors=int(errors[f, t, s]),
        initial_errors=initial,
        log_exp_loss=float(losses[f, t, s]),
    )


# ---- objectives for direct trees -------------------------------------------------------------
def order_margin(a: ArrayLike, b: ArrayLike, c: float, n_prime: int, alpha: float) -> float:
    r"""The ``n_prime``-th smallest normalized margin :math:`(a_i + b_i\alpha)/(c + \alpha)`
    (DirectBoost_order's objective), evaluated directly."""
    a, b = _check(a, b)
    n_prime = check_n_prime(n_prime, a.size)
    return float(np.sort(a + b * float(alpha))[n_prime - 1] / (float(c) + float(alpha)))


def margin_objective(margins: ArrayLike, n_prime: int, objective: str = "average") -> float:
    """Bottom-``n_prime`` average (``"average"``) or ``n_prime``-th smallest (``"order"``) of
    the given (normalized) margins."""
    m = np.sort(np.asarray(margins, dtype=np.float64))
    n_prime = check_n_prime(n_prime, m.size)
    return float(m[:n_prime].mean() if objective == "average" else m[n_prime - 1])


def _empty_scores(n_features: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    from ..weak.direct import N_CANDIDATE_BINS

    shape = (n_features, N_CANDIDATE_BINS)
    return np.full(shape, -np.inf), np.zeros(shape), np.zeros(shape)


class ZeroOneObjective:
    r"""Direct-tree objective of phase 1: the training 0-1 loss after the best step.

    A split scores ``-(errors + t)``, where ``errors`` is the fewest training errors of the
    ensemble plus the tree along :math:`\alpha` (:func:`zero_one_line_search`) and
    :math:`t \in (0, 1)` increases with the exponential loss at the chosen step, so that equal
    error counts are ranked by exponential loss (the paper's tie rule).  Leaves predict
    :math:`\pm 1`; no example weights are involved.

    Parameters
    ----------
    a : array (n,)
        Current unnormalized margins :math:`y_i F(x_i)`.
    y : array (n,)
        Labels in {-1, +1}.
    step : {"exp-loss", "midpoint"}, default "exp-loss"
        The step along a candidate: among the intervals of :math:`\alpha` with the fewest
        errors, the point with the smallest exponential loss
        (:func:`~marginboost.boosting._direct_kernels.exp_loss_step`), or the midpoint of the
        first such interval.
    """

    kind = "binary"

    def __init__(
        self, a: NDArray[np.float64], y: NDArray[np.float64], step: str = "exp-loss"
    ) -> None:
        if step not in ("exp-loss", "midpoint"):
            raise ValueError(f"step must be 'exp-loss' or 'midpoint'; got {step!r}")
        self.step = step
        self.a = np.ascontiguousarray(a, dtype=np.float64)
        self.y = np.ascontiguousarray(y, dtype=np.float64)
        self.r, self.V = _k.zero_one_ranks(self.a)
        self.shift = float(np.max(-self.a))
        self.w = np.exp(-self.a - self.shift)
        self.reference = self.shift + float(np.log(self.w.sum()))

    def line(self, h: NDArray[np.float64]) -> tuple[int, float, float, float]:
        """``(errors, alpha, score, log exp loss)`` of adding ``h`` (the paper's Algorithm 1)
        with the step of :attr:`step` -- the step at which splits are scored, too."""
        bad = (self.y * h) < 0
        errors, alpha, score, loss = _k.phase1_line(
            self.a, self.r, self.V, bad, self.w, self.shift, self.reference, self.step == "exp-loss"
        )
        return int(errors), float(alpha), float(score), float(loss)

    def split_scores(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        pred = state.predictions()
        outside = np.ones(self.a.size, dtype=bool)
        outside[node.samples] = False
        bad_out = outside & (self.y * pred < 0)
        base = _k.errors_by_interval(self.a, self.r, self.V.size, bad_out)
        scores, left, right = _empty_scores(codes.shape[1])
        _k.phase1_split_scores(
            codes,
            node.samples,
            self.y,
            self.a,
            self.r,
            self.V,
            base,
            float(self.w[bad_out].sum()),
            self.w,
            self.shift,
            self.reference,
            scores,
            left,
            right,
            numba.get_num_threads(),
            self.step == "exp-loss",
        )
        return scores, left, right

    def leaf_value(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        plus = self.line(np.ones_like(self.a))[2]
        minus = self.line(-np.ones_like(self.a))[2]
        return 1.0 if plus >= minus else -1.0

    def stay_score(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        """Score of the partial tree as it is (a node below the root splits only to beat it)."""
        return self.line(state.predictions())[2]


class MarginObjective:
    r"""Direct-tree objective of phase 2: the margin objective after the step along the tree.

    A split scores the bottom-:math:`n'` average (``objective="average"``) or the
    :math:`n'`-th smallest (``"order"``) normalized margin at the step
    :func:`~marginboost.boosting._direct_kernels.phase2_line` takes along it (the maximizer,
    moved by ``epsilon`` under relaxation); with ``restricted`` the search stays in
    :math:`[0, d)`, the region where no correctly classified example is lost.

    Parameters
    ----------
    a : array (n,)
        Current unnormalized margins.
    y : array (n,)
        Labels in {-1, +1}.
    c : float
        Sum of the current weights (> 0).
    n_prime : int
        Number of bottom examples.
    objective : {"average", "order"}
    restricted : bool
    epsilon : float
        Relaxation (0 for none).
    end_gap : float
        How far below ``d`` a step that reaches ``d`` stops.
    """

    kind = "binary"

    def __init__(
        self,
        a: ArrayLike,
        y: ArrayLike,
        c: float,
        n_prime: int,
        objective: str = "average",
        restricted: bool = True,
        epsilon: float = 0.0,
        end_gap: float = 0.01,
    ) -> None:
        self.a = np.ascontiguousarray(a, dtype=np.float64)
        self.y = np.ascontiguousarray(y, dtype=np.float64)
        self.c = float(c)
        self.n_prime = check_n_prime(n_prime, self.a.size)
        if objective not in ("average", "order"):
            raise ValueError(f"objective must be 'average' or 'order'; got {objective!r}")
        self.order_objective = objective == "order"
        self.restricted = bool(restricted)
        self.epsilon = float(epsilon)
        self.end_gap = float(end_gap)
        self.order = np.argsort(self.a, kind="stable")

    def line(self, h: NDArray[np.float64]) -> tuple[float, float, float]:
        """``(maximizer q, step, objective value at the step)`` of adding ``h``."""
        b = self.y * h
        R, kr, F, kf, d = _k.collect_lines(self.order, self.a, b, self.n_prime, self.restricted)
        q, step, value = _k.phase2_line(
            R, kr, F, kf, self.n_prime, self.c, d, self.order_objective, self.epsilon, self.end_gap
        )
        return float(q), float(step), float(value)

    def split_scores(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        pred = np.ascontiguousarray(state.predictions())
        scores, left, right = _empty_scores(codes.shape[1])
        _k.phase2_split_scores(
            codes,
            node.samples,
            pred,
            self.y,
            self.order,
            self.a,
            self.n_prime,
            self.c,
            self.restricted,
            self.order_objective,
            self.epsilon,
            self.end_gap,
            scores,
            left,
            right,
            numba.get_num_threads(),
        )
        return scores, left, right

    def leaf_value(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        plus = self.line(np.ones_like(self.a))
        minus = self.line(-np.ones_like(self.a))
        return 1.0 if plus[2] >= minus[2] else -1.0

    def stay_score(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        """Objective of the partial tree as it is (a node below the root splits only to beat it)."""
        return self.line(np.ascontiguousarray(state.predictions()))[2]


# ---- the estimator ---------------------------------------------------------------------------
#: The paper's three variants (Sec. 3): phase-2 objective, relaxation and search region.
VARIANTS: dict[str, dict[str, Any]] = {
    "DirectBoost_avg": {"objective": "average", "epsilon": 0.0},
    "DirectBoost_eps_avg": {"objective": "average", "epsilon": 0.01},
    "DirectBoost_order": {"objective": "order", "epsilon": 0.01},
}

_HISTORY_KEYS = ("phase", "train_error", "objective", "alpha", "time")


class DirectBoost(BinaryBoostingClassifier):
    r"""DirectBoost (Zhai, Xia, Tan & Wang 2013): 0-1 loss descent, then margin ascent.

    **Phase 1** (Algorithm 1) adds, each round, the weak classifier and weight that lower the
    training error the most (ties: the smallest exponential loss after the step).  The step
    along a weak classifier (``step``) is, among all the intervals of :math:`\alpha` with the
    fewest errors, the point with the smallest exponential loss (``"exp-loss"``), or the
    midpoint of the first such interval (``"midpoint"``; ``2 x`` its left end, or 1, for the
    unbounded last interval).  A round that cannot lower the error count may still keep it
    and lower the exponential loss (the tie rule applied to a zero reduction); phase 1 stops
    at zero training error, when no weak classifier keeps the error count and lowers the log
    exponential loss by more than ``tol`` (a coordinatewise local minimum of the error count
    with the exponential loss as tie rule), or, when ``phase1_n_iter_no_change`` is set, after
    that many rounds in a row without fewer errors.  The training error never increases.

    **Phase 2** (Algorithm 2) maximizes a margin objective of the normalized margins
    :math:`y_i F(x_i)/\sum_t\alpha_t`: the average of the ``n_prime`` smallest
    (``objective="average"``) or the ``n_prime``-th smallest (``"order"``).  Each round the
    weak classifier whose exact line search (see :mod:`~marginboost.boosting._direct_kernels`)
    reaches the highest value is added.

    * Without relaxation (``epsilon=0``) the search stays in the region where no correctly
      classified training example is lost (``region="min-error"``), a maximizer at its end
      :math:`d` becomes :math:`d - 0.01` (as in the paper, or :math:`d/2` when
      :math:`d < 0.02`), and training stops when no weak classifier increases the objective
      (by more than ``tol`` times ``max(1, |objective|)``): a coordinatewise maximum
      (Theorem 4).
    * With :math:`\varepsilon`-relaxation (Bertsekas) each step is set to
      :math:`\varepsilon` past the maximizer along its coordinate, even when that lowers the
      objective, and the search covers every :math:`\alpha \ge 0` (``region="all"``).  This
      never stops by itself, so training stops after ``n_iter_no_change`` rounds without a new best
      objective value, and the ensemble is cut back to the round with the best value.

    Weak learners are direct trees (:class:`~marginboost.weak.DirectTreeBuilder`) whose every
    split is chosen by the phase's line search (:class:`ZeroOneObjective`,
    :class:`MarginObjective`); no example weights are kept.

    Parameters
    ----------
    objective : {"average", "order"}, default "average"
        Phase-2 objective.
    n_prime : int or float, default 0.1
        Number of bottom examples: an int in [1, n], or a float in (0, 1] read as a fraction
        of the training set (rounded, at least 1).
    epsilon : float, default 0.0
        Relaxation (the paper uses 0.01); 0 turns it off.
    region : {"min-error", "all"}, optional
        Phase-2 search region; default "min-error" without relaxation, "all" with it.
    max_depth : int, default 1
        Depth of the direct trees (1 = stumps).
    min_samples_leaf : int, default 1
    max_bins : int, default 255
        Number of feature bins (thresholds are searched between bins).
    n_estimators : int, default 2000
        Cap on the rounds of both phases together.
    tol : float, default 1e-6
        Phase 1: a round that keeps the error count must lower the logarithm of the
        exponential loss by more than ``tol`` (the stop rule of the AdaBoost baseline in the
        paper's protocol: the loss changes by less than 1e-6 in a round).  Phase 2 without
        relaxation: an increment must exceed ``tol * max(1, |objective|)``.
    phase1_tol : float, optional
        Phase 1's tolerance when it should differ from ``tol`` (``None``: ``tol``).
    phase1_n_iter_no_change : int, optional
        Stop phase 1 after this many rounds in a row without fewer errors (not in the paper;
        off by default).
    n_iter_no_change : int, default 50
        With relaxation: rounds without a new best objective before stopping.
    phase2 : bool, default True
        Whether to run phase 2 at all (False: Algorithm 1 only).
    step : {"exp-loss", "midpoint"}, default "exp-loss"
        Where phase 1 places :math:`\alpha` inside the intervals with the fewest errors (the
        paper does not say).  With "midpoint" a round that keeps the error count at most halves
        the smallest :math:`|a_i|`, so such rounds shrink geometrically and barely move the
        ensemble.
    split_rule : {"improve", "always"}, default "improve"
        "improve": a node below the root of a direct tree is split only when the split scores
        better than the partial tree as it is (by the phase's own criterion); "always": every
        node that can be split is split, even when every split makes the tree worse.
    random_state : int, optional
        Unused (the method is deterministic); kept for a uniform interface.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is coded :math:`+1`.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features,)
        Names of the features seen in ``fit``; defined only when ``X`` has string column names.
    mapper_ : BinMapper
        The feature binning fitted on the training inputs.
    estimators_ : list of FittedTree
        The direct trees, in the order they were added (phase 1 first).
    alphas_ : ndarray of shape (n_estimators\_,)
        Their weights :math:`\alpha_t \ge 0`.
    n_estimators_ : int
        Number of trees in the ensemble (after the cut back to the best round with
        relaxation).
    history_ : dict of str to ndarray
        Per round: ``phase`` (1 or 2), ``train_error`` (fraction), ``objective`` (the phase-2
        objective of the normalized margins after the round), ``alpha`` and ``time``.
    n_phase1_ : int
        Rounds of phase 1.
    n_prime_ : int
        The number :math:`n'` of bottom examples of the phase-2 objective.
    epsilon_ : float
        The :math:`\varepsilon`-relaxation used.
    region_ : {"min-error", "all"}
        The phase-2 search region used.
    tol_, phase1_tol_ : float
        The tolerances used in phase 2 and phase 1.
    stop_reason_ : str
        Why training ended: ``"phase 1 zero training error"``, ``"phase 1 local minimum"``,
        ``"phase 1 plateau"`` or ``"n_estimators"`` when phase 2 did not run, otherwise
        ``"phase 2 coordinatewise maximum"``, ``"phase 2 no admissible step"``,
        ``"phase 2 no improvement within patience"`` or ``"n_estimators"``.  A fit that ends on
        ``"n_estimators"`` warns (:class:`~sklearn.exceptions.ConvergenceWarning`).  ``"no
        edge"`` when phase 1's training error is no lower than the majority class's (no weak
        classifier beat chance), with a :class:`~marginboost.boosting.NotBoostedWarning`.
    converged_ : bool
        Whether training ended by the algorithm's own stop rule (not ``"n_estimators"`` or
        ``"no edge"``), as ``converged_`` of the column-generation estimators.

    Notes
    -----
    Zhai, Xia, Tan & Wang (2013).  Phase 1 is their Algorithm 1, a greedy coordinate descent
    on the empirical 0-1 loss (1) whose line search sweeps the points where the margins
    change sign.  Phase 2 is their Algorithm 2, a greedy coordinate ascent on the average of
    the :math:`n'` smallest normalized margins (6), which along a coordinate are the linear
    fractional functions (7) with derivatives (8); the sign of (9) (all examples) or (10)
    (the bottom :math:`n'`) decides the step.  The objective is quasiconcave in the region of
    zero training error (Theorem 2), where the ascent converges to the optimum for the
    average of all margins (Theorem 3) and to a coordinatewise maximum for the bottom
    :math:`n'` (Theorem 4).  The :math:`\varepsilon`-relaxation follows Bertsekas (1988).
    The paper's three variants are the keys ``"DirectBoost_avg"``, ``"DirectBoost_eps_avg"``
    and ``"DirectBoost_order"`` of :data:`VARIANTS` (:func:`directboost_variant`).  The
    largest average of the :math:`n'` smallest normalized margins over all convex
    combinations is the optimal value of the soft-margin LPBoost with :math:`D = 1/n'`
    (:class:`LPBoost`), which DirectBoost approaches by coordinate ascent.

    References
    ----------
    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. In Advances in Neural Information Processing Systems 26,
    pp. 872-880.

    Bertsekas, D. P. (1988). The auction algorithm: a distributed relaxation method for the
    assignment problem. Annals of Operations Research 14(1), 105-123.
    """

    _algorithm_name = "DirectBoost"
    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators",
        "max_depth",
        "min_samples_leaf",
        "max_bins",
        "n_iter_no_change",
        "random_state",
        tol=[Interval(Real, 0.0, None, closed="left")],
        phase1_tol=[Interval(Real, 0.0, None, closed="left"), None],
        objective=[StrOptions({"average", "order"})],
        n_prime=[Interval(Real, 0.0, float("inf"), closed="neither")],
        epsilon=[Interval(Real, 0.0, float("inf"), closed="left")],
        region=[StrOptions({"min-error", "all"}), None],
        phase2=["boolean"],
        step=[StrOptions({"exp-loss", "midpoint"})],
        split_rule=[StrOptions({"improve", "always"})],
        phase1_n_iter_no_change=[Interval(numbers.Integral, 1, None, closed="left"), None],
    )
    reference = "zhai2013direct"
    #: How far below the end d of the minimum-error region a step to d stops.
    end_gap = 0.01
    #: The default ``tol``: an increase of the phase-2 objective counts when it exceeds this
    #: fraction of ``max(1, |objective|)`` (the stopping rule "no increment" up to this
    #: tolerance; DMCBoost uses it too).
    improvement_tol = 1e-6

    def __init__(
        self,
        objective: str = "average",
        n_prime: float = 0.1,
        *,
        epsilon: float = 0.0,
        region: str | None = None,
        max_depth: int = 1,
        min_samples_leaf: int = 1,
        max_bins: int = 255,
        n_estimators: int = 2000,
        tol: float = 1e-6,
        phase1_tol: float | None = None,
        phase1_n_iter_no_change: int | None = None,
        n_iter_no_change: int = 50,
        phase2: bool = True,
        step: str = "exp-loss",
        split_rule: str = "improve",
        random_state: int | None = None,
    ) -> None:
        self.objective = objective
        self.n_prime = n_prime
        self.epsilon = epsilon
        self.region = region
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.max_bins = max_bins
        self.n_estimators = n_estimators
        self.tol = tol
        self.phase1_tol = phase1_tol
        self.phase1_n_iter_no_change = phase1_n_iter_no_change
        self.n_iter_no_change = n_iter_no_change
        self.phase2 = phase2
        self.step = step
        self.split_rule = split_rule
        self.random_state = random_state

    def _resolve_n_prime(self, n: int) -> int:
        value = self.n_prime
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValueError(
                f"n_prime must be an int in [1, {n}] or a fraction in (0, 1]; got {value!r}"
            )
        if isinstance(value, numbers.Integral):
            return check_n_prime(int(value), n)
        if not 0.0 < float(value) <= 1.0:
            raise ValueError(f"a fractional n_prime must be in (0, 1]; got {value!r}")
        return max(1, min(n, int(round(float(value) * n))))

    def _check_params(self, n: int) -> None:
        if self.objective not in ("average", "order"):
            raise ValueError(f"objective must be 'average' or 'order'; got {self.objective!r}")
        self.n_prime_ = self._resolve_n_prime(n)
        self.epsilon_ = check_real(self.epsilon, "epsilon", 0.0, low_inclusive=True)
        region = self.region
        if region is None:
            region = "all" if self.epsilon_ > 0 else "min-error"
        if region not in ("min-error", "all"):
            raise ValueError(f"region must be 'min-error', 'all' or None; got {self.region!r}")
        self.region_ = region
        check_positive_int(self.n_estimators, "n_estimators")
        check_positive_int(self.n_iter_no_change, "n_iter_no_change")
        self.tol_ = check_real(self.tol, "tol", 0.0, low_inclusive=True)
        self.phase1_tol_ = (
            self.tol_
            if self.phase1_tol is None
            else check_real(self.phase1_tol, "phase1_tol", 0.0, low_inclusive=True)
        )
        if self.phase1_n_iter_no_change is not None:
            check_positive_int(self.phase1_n_iter_no_change, "phase1_n_iter_no_change")
        if self.step not in ("exp-loss", "midpoint"):
            raise ValueError(f"step must be 'exp-loss' or 'midpoint'; got {self.step!r}")
        if self.split_rule not in ("improve", "always"):
            raise ValueError(f"split_rule must be 'improve' or 'always'; got {self.split_rule!r}")

    def fit(
        self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
    ) -> DirectBoost:
        """Run phase 1, then phase 2.

        ``sample_weight`` is not supported (the 0-1 loss and the margin objectives count
        examples); passing non-uniform weights raises ``ValueError``.
        """
        codes, y_signed = self._prepare(X, y, sample_weight)
        self._finish(codes, y_signed, self._phase1(codes, y_signed))
        return self

    def _prepare(
        self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None
    ) -> tuple[NDArray[np.uint8], FloatArray]:
        X, y_signed, weights = self._validate_training_data(X, y, sample_weight)
        if sample_weight is not None and not np.allclose(weights, weights[0]):
            raise ValueError(
                "DirectBoost does not support sample_weight (it minimizes the "
                "number of training errors); pass None or uniform weights"
            )
        self._check_params(y_signed.shape[0])
        # no ``estimator`` parameter (the trees are DirectTreeBuilder's): always bin codes
        return cast(NDArray[np.uint8], self._bin(X)), y_signed

    def _builder(self) -> DirectTreeBuilder:
        from ..weak import DirectTreeBuilder

        return DirectTreeBuilder(
            max_depth=check_positive_int(self.max_depth, "max_depth"),
            min_samples_leaf=self.min_samples_leaf,
            split_rule=self.split_rule,
        )

    def _record(self, state: dict[str, Any], phase: int, alpha: float) -> None:
        a, c, history = state["a"], state["c"], state["history"]
        history["phase"].append(phase)
        history["train_error"].append(float(np.count_nonzero(a <= 0)) / a.size)
        history["objective"].append(margin_objective(a / c, self.n_prime_, self.objective))
        for (objective, n_prime), values in state.get("objectives", {}).items():
            values.append(margin_objective(a / c, n_prime, objective))
        history["alpha"].append(alpha)
        history["time"].append(time.perf_counter() - state["start"])

    def _phase1(
        self,
        codes: NDArray[np.uint8],
        y_signed: FloatArray,
        objectives: dict[tuple[str, int], list[float]] | None = None,
    ) -> dict[str, Any]:
        """Algorithm 1; returns the training state (margins, weights, trees, history).

        ``objectives`` maps ``(objective, n_prime)`` to lists that receive those objective
        values after every round as well (used by :func:`directboost_variants`).
        """
        n = y_signed.shape[0]
        builder = self._builder()
        n_estimators = int(self.n_estimators)
        state: dict[str, Any] = {
            "a": np.zeros(n),
            "c": 0.0,
            "trees": [],
            "alphas": [],
            "history": {key: [] for key in _HISTORY_KEYS},
            "start": time.perf_counter(),
            "objectives": objectives or {},
        }
        errors = n
        plateau = 0
        patience = self.phase1_n_iter_no_change
        state["stop_reason"] = "n_estimators"
        while len(state["trees"]) < n_estimators and errors > 0:
            a = state["a"]
            objective = ZeroOneObjective(a, y_signed, self.step)
            tree = builder.fit(codes, objective)
            h = tree.predict(codes)
            new_errors, alpha, _, loss = objective.line(h)
            if new_errors > errors or (
                new_errors == errors and not loss < objective.reference - self.phase1_tol_
            ):
                state["stop_reason"] = "phase 1 local minimum"
                break
            plateau = plateau + 1 if new_errors == errors else 0
            state["a"] = a + alpha * y_signed * h
            state["c"] += alpha
            errors = int(np.count_nonzero(state["a"] <= 0))
            state["trees"].append(tree)
            state["alphas"].append(alpha)
            self._record(state, 1, alpha)
            if patience is not None and plateau >= patience:
                state["stop_reason"] = "phase 1 plateau"
                break
        if errors == 0:
            state["stop_reason"] = "phase 1 zero training error"
        state["n_phase1"] = len(state["trees"])
        return state

    def _finish(
        self, codes: NDArray[np.uint8], y_signed: FloatArray, state: dict[str, Any]
    ) -> None:
        """Run phase 2 from the end of phase 1 and store the ensemble."""
        self.n_phase1_ = state["n_phase1"]
        self.stop_reason_ = state["stop_reason"]
        self._best_rounds: int | None = None
        if self.phase2 and len(state["trees"]) < int(self.n_estimators) and state["trees"]:
            self._phase2(codes, y_signed, state)
        history = state["history"]
        self.history_ = {key: np.asarray(value, dtype=np.float64) for key, value in history.items()}
        self._set_stages(state["trees"], np.ones(len(state["trees"])), np.asarray(state["alphas"]))
        if self._best_rounds is not None:
            self._truncate(self._best_rounds)
        del self._best_rounds
        self.converged_ = self.stop_reason_ != "n_estimators"
        # phase 1 never raises the training error: its fewest errors are where it ended
        phase1 = self.history_["train_error"][self.history_["phase"] == 1]
        phase1_error = float(phase1.min()) if phase1.size else 1.0
        majority_error = float(min(np.mean(y_signed > 0), np.mean(y_signed < 0)))
        if phase1_error >= majority_error:
            # phase 1 never beat the constant classifier: no weak classifier had an edge
            mark_not_boosted(
                self,
                f"the training error of phase 1, {phase1_error:.3g}, is no lower than the "
                f"majority class's {majority_error:.3g}",
            )
        elif self.stop_reason_ == "n_estimators":
            warnings.warn(
                f"{type(self).__name__} stopped at n_estimators={int(self.n_estimators)} rounds, "
                "before its own stop rule (phase 1's local minimum or zero training error, "
                "phase 2's coordinatewise maximum or patience); raise n_estimators to let it "
                "converge.",
                ConvergenceWarning,
                stacklevel=3,
            )

    def _phase2(self, codes: NDArray[np.uint8], y: FloatArray, state: dict[str, Any]) -> None:
        relaxed = self.epsilon_ > 0
        restricted = self.region_ == "min-error"
        n_prime = self.n_prime_
        builder = self._builder()
        n_estimators = int(self.n_estimators)
        trees = state["trees"]
        a, c = state["a"], state["c"]
        value = margin_objective(a / c, n_prime, self.objective)
        best_value, best_rounds, stall = value, len(trees), 0
        self.stop_reason_ = "n_estimators"
        while len(trees) < n_estimators:
            objective = MarginObjective(
                a, y, c, n_prime, self.objective, restricted, self.epsilon_, self.end_gap
            )
            tree = builder.fit(codes, objective)
            h = tree.predict(codes)
            _, step, new_value = objective.line(h)
            if not relaxed and not new_value > value + self.tol_ * max(1.0, abs(value)):
                self.stop_reason_ = "phase 2 coordinatewise maximum"
                break
            if not (step > 0 and np.isfinite(step)):
                self.stop_reason_ = "phase 2 no admissible step"
                break
            a = a + step * y * h
            c += step
            state["a"], state["c"] = a, c
            value = margin_objective(a / c, n_prime, self.objective)
            trees.append(tree)
            state["alphas"].append(step)
            self._record(state, 2, step)
            if value > best_value + self.tol_ * max(1.0, abs(best_value)):
                best_value, best_rounds, stall = value, len(trees), 0
            else:
                stall += 1
                if relaxed and stall >= self.n_iter_no_change:
                    self.stop_reason_ = "phase 2 no improvement within patience"
                    break
        if relaxed and best_rounds < len(trees):
            self._best_rounds = best_rounds


def directboost_variant(name: str, **params: Any) -> DirectBoost:
    """A :class:`DirectBoost` configured as one of the paper's :data:`VARIANTS`."""
    if name not in VARIANTS:
        raise ValueError(f"unknown DirectBoost variant {name!r}; choose from {sorted(VARIANTS)}")
    return DirectBoost(**{**VARIANTS[name], **params})


def directboost_variants(
    X: ArrayLike, y: ArrayLike, variants: Iterable[str], n_primes: Iterable[float], **params: Any
) -> dict[tuple[str, float], DirectBoost]:
    """Fit several :data:`VARIANTS` and values of ``n_prime`` that share one phase 1.

    Phase 1 does not depend on the variant or on ``n_prime``, so it runs once; each model then
    continues with its own phase 2 from a copy of that state.  Returns
    ``{(variant, n_prime): fitted model}``, each equal to fitting it alone.
    """
    import copy

    models = {
        (name, n_prime): directboost_variant(name, n_prime=n_prime, **params)
        for name in variants
        for n_prime in n_primes
    }
    base = DirectBoost(phase2=False, **params)
    codes, y_signed = base._prepare(X, y, None)
    prepared = {key: model._prepare(X, y, None)[0] for key, model in models.items()}
    state: dict[str, Any] = {"objectives": {(m.objective, m.n_prime_): [] for m in models.values()}}
    state.update(base._phase1(codes, y_signed, state["objectives"]))
    out = {}
    for key, model in models.items():
        history = copy.deepcopy(state["history"])
        history["objective"] = list(state["objectives"][(model.objective, model.n_prime_)])
        own = {
            **state,
            "a": state["a"].copy(),
            "trees": list(state["trees"]),
            "alphas": list(state["alphas"]),
            "history": history,
            "objectives": {},
        }
        model._finish(prepared[key], y_signed, own)
        out[key] = model
    return out


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
from .._sklearn import examples_section as _examples_section  # noqa: E402

DirectBoost.__doc__ = (
    (DirectBoost.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("DirectBoost", "n_estimators=10")
)
