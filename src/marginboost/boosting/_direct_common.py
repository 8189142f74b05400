"""What DirectBoost and DMCBoost share, below both subpackages.

numba kernels of a step along a weak classifier (the open intervals of the step between the
critical points, the exponential loss on an interval and its minimizer clipped into it, the
tie rule that ranks equal error counts by that loss), the bucketing of a node's samples by
bin code, and the estimators' plain-Python helpers: the parameter :math:`n'`, the empty
split-score arrays of a direct tree and the improvement tolerance of the margin phase.
"""

from __future__ import annotations

import numbers

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..margins import check_n_prime

FloatArray = NDArray[np.float64]

#: The default ``tol`` of DirectBoost: an increase of the phase-2 objective counts when it
#: exceeds this fraction of ``max(1, |objective|)`` (the stopping rule "no increment" up to
#: this tolerance; DMCBoost uses it too).
IMPROVEMENT_TOL = 1e-6


@njit(cache=True)
def interval_alpha(k, V):  # pragma: no cover - compiled
    """The step chosen inside interval ``k``: its midpoint; ``2 * low`` (or 1) if unbounded."""
    m = V.shape[0]
    low = V[k - 1] if k > 0 else 0.0
    if k < m:
        return 0.5 * (low + V[k])
    return 2.0 * low if low > 0.0 else 1.0


@njit(cache=True)
def log_exp_loss(alpha, log_good, log_bad, shift):  # pragma: no cover - compiled
    r""":math:`\log\sum_i e^{-(a_i + b_i\alpha)}` from the shifted sums of :math:`e^{-a_i}` over
    the examples with :math:`b_i = +1` (``log_good``) and :math:`b_i = -1` (``log_bad``)."""
    u = log_good - alpha
    v = log_bad + alpha
    top = max(u, v)
    if top == -np.inf:
        return -np.inf
    return shift + top + np.log(np.exp(u - top) + np.exp(v - top))


@njit(cache=True)
def tie_break(log_loss, reference):  # pragma: no cover - compiled
    """A number in (0, 1), increasing in ``log_loss``: added to an error count it ranks
    candidates with equal errors by their exponential loss."""
    return 0.5 + np.arctan(log_loss - reference) / np.pi


@njit(cache=True)
def bucket_by_code(codes, samples, f, counts, by_code):  # pragma: no cover - compiled
    """Sort a node's samples by their code of feature ``f`` (counting sort): afterwards the
    samples with code ``b`` are ``by_code[counts[b]:counts[b + 1]]``.  Returns the smallest
    and the largest code present."""
    first, last = count_codes(codes, samples, f, counts)
    fill = counts.copy()
    for k in range(samples.shape[0]):
        i = samples[k]
        code = codes[i, f]
        by_code[fill[code]] = i
        fill[code] += 1
    return first, last


@njit(cache=True)
def count_codes(codes, samples, f, counts):  # pragma: no cover - compiled
    """Cumulative counts of a node's codes of feature ``f``: ``counts[b + 1] - counts[b]``
    samples have code ``b``.  Returns the smallest and the largest code present."""
    counts[:] = 0
    for k in range(samples.shape[0]):
        counts[codes[samples[k], f] + 1] += 1
    for b in range(1, 257):
        counts[b] += counts[b - 1]
    return _first_last(counts)


@njit(cache=True)
def cumulate_counts(row, counts):  # pragma: no cover - compiled
    """:func:`count_codes` from a node's counts of one feature (``row[b]``: samples with code
    ``b``) instead of its samples."""
    counts[0] = 0
    for b in range(256):
        counts[b + 1] = counts[b] + row[b]
    return _first_last(counts)


@njit(cache=True)
def _first_last(counts):  # pragma: no cover - compiled
    """The smallest and the largest code present in cumulative ``counts``."""
    first = -1
    last = -1
    for b in range(256):
        if counts[b + 1] > counts[b]:
            if first < 0:
                first = b
            last = b
    return first, last


@njit(cache=True)
def exp_loss_minimizer(log_good, log_bad):  # pragma: no cover - compiled
    """:math:`\\alpha^* = \\tfrac12 \\log(G/B)`, the minimizer of :math:`G e^{-\\alpha} +
    B e^{\\alpha}` (``+inf`` when ``B = 0``, ``-inf`` when ``G = 0``)."""
    if log_bad == -np.inf:
        return np.inf
    if log_good == -np.inf:
        return -np.inf
    return 0.5 * (log_good - log_bad)


@njit(cache=True)
def clipped_alpha(k, V, star):  # pragma: no cover - compiled
    """The ``"exp-loss"`` step inside interval ``k``: :math:`\\alpha^*` clipped to
    ``[low + 0.01 (high - low), high - 0.01 (high - low)]`` (the ends put a margin exactly at
    0, an error); for the unbounded last interval clipped below at ``1.01 low`` (1 when
    ``low = 0``), and :func:`interval_alpha`'s ``2 low`` (or 1) when the loss falls without end."""
    m = V.shape[0]
    low = V[k - 1] if k > 0 else 0.0
    if k < m:
        gap = 0.01 * (V[k] - low)
        return min(max(star, low + gap), V[k] - gap)
    if star == np.inf:
        return 2.0 * low if low > 0.0 else 1.0
    return max(star, 1.01 * low if low > 0.0 else 1.0)


@njit(cache=True)
def star_interval(V, star):  # pragma: no cover - compiled
    """The interval ``k`` whose closure holds :math:`\\alpha^*` (its upper end included)."""
    if not star > 0.0:
        return 0
    return min(np.searchsorted(V, star, side="left"), V.shape[0])


def resolve_n_prime(value: float, n: int) -> int:
    """The number of bottom examples :math:`n'` out of ``n``: ``value`` is an int in
    ``[1, n]`` or a fraction in ``(0, 1]`` of ``n`` (rounded, at least 1)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(
            f"n_prime must be an int in [1, {n}] or a fraction in (0, 1]; got {value!r}"
        )
    if isinstance(value, numbers.Integral):
        return check_n_prime(int(value), n)
    if not 0.0 < float(value) <= 1.0:
        raise ValueError(f"a fractional n_prime must be in (0, 1]; got {value!r}")
    return max(1, min(n, int(round(float(value) * n))))


#: A direct tree's node with fewer (samples x features) than this is scored on one thread:
#: starting the threads of a parallel kernel costs about 0.1-0.2 ms a call, more than a small
#: node's split search gains from them (the scores are the same either way).
PARALLEL_WORK = 1 << 17


def empty_scores(n_features: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    from ..weak.direct import N_CANDIDATE_BINS

    shape = (n_features, N_CANDIDATE_BINS)
    return np.full(shape, -np.inf), np.zeros(shape), np.zeros(shape)


def root_counts(codes: NDArray[np.uint8]) -> NDArray[np.int64]:
    """The codes' counts over all samples (``counts[f, b]``: samples with code ``b`` of feature
    ``f``), counted once per phase and handed to every tree it grows
    (:meth:`~marginboost.weak.DirectTreeBuilder.fit`'s ``root_counts``)."""
    from ..weak import DirectNode

    return DirectNode(0, 0, np.arange(codes.shape[0], dtype=np.int64)).code_counts(codes)
