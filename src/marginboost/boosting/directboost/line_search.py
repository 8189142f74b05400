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

from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray

from ...margins import check_n_prime

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
    from ...weak.binning import check_codes

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


def order_margin(a: ArrayLike, b: ArrayLike, c: float, n_prime: int, alpha: float) -> float:
    r"""The ``n_prime``-th smallest normalized margin :math:`(a_i + b_i\alpha)/(c + \alpha)`
    (DirectBoost_order's objective), evaluated directly."""
    a, b = _check(a, b)
    n_prime = check_n_prime(n_prime, a.size)
    return float(np.sort(a + b * float(alpha))[n_prime - 1] / (float(c) + float(alpha)))
