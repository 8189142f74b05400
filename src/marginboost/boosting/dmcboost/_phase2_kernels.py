r"""numba kernels of DMCBoost's phase II, the margin derivative (Zhai, Xia & Wang 2014).

A split scores :math:`S'(0^+)`, the one-sided slope at :math:`|\alpha| = 0` of the sum of the
:math:`n'` smallest margin numerators along the tree on one half-line (see
:mod:`~marginboost.boosting.dmcboost`).  Per example and label the slope is -1, 0 or +1; for
the examples strictly inside the bottom set it adds up, for those tied at the :math:`n'`-th
value only the counts of each slope matter (the smallest slopes fill the bottom set), so
per-code histograms give every split of a feature in :math:`O(n_{node}K + \text{bins}\,K^2)`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(cache=True)
def tied_sum(minus, zero, plus, need):  # pragma: no cover - compiled
    """Sum of the ``need`` smallest slopes among tied examples with these slope counts."""
    take = min(need, minus)
    rest = need - take
    rest -= min(rest, zero)
    return rest - take


@njit(cache=True)
def slope_rows(F, y, sign):  # pragma: no cover - compiled
    r"""Per example the margin numerator :math:`a_y - \max_{k \ne y} a_k` and the slope
    (-1, 0, +1, ``int8``) of each label on the side ``sign`` (see
    :class:`~marginboost.boosting.dmcboost.MarginSlopeObjective`), in one pass over ``F``."""
    n, K = F.shape
    slope = np.zeros((n, K), dtype=np.int8)
    value = np.empty(n, dtype=np.float64)
    for i in range(n):
        yi = y[i]
        a_l = -np.inf
        for k in range(K):
            if k != yi and F[i, k] > a_l:
                a_l = F[i, k]
        n_best = 0
        for k in range(K):
            if k != yi and F[i, k] == a_l:
                n_best += 1
        value[i] = F[i, yi] - a_l
        if sign > 0:
            slope[i, yi] = 1
            for k in range(K):
                if k != yi and F[i, k] == a_l:
                    slope[i, k] = -1
        else:
            slope[i, yi] = -1
            if n_best == 1:
                for k in range(K):
                    if k != yi and F[i, k] == a_l:
                        slope[i, k] = 1
    return slope, value


@njit(cache=True)
def slope_lists(slope, status):  # pragma: no cover - compiled
    """The nonzero slopes of the examples in or tied at the bottom set (``status`` 0 or 1) as
    compressed rows: labels ``cls[indptr[i]:indptr[i + 1]]`` with slopes ``slp[...]``; the
    examples above it (status 2) add nothing to a split's :math:`S'(0^+)`."""
    n, K = slope.shape
    indptr = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        count = 0
        if status[i] != 2:
            for k in range(K):
                if slope[i, k] != 0:
                    count += 1
        indptr[i + 1] = indptr[i] + count
    cls = np.empty(indptr[n], dtype=np.int64)
    slp = np.empty(indptr[n], dtype=np.int8)
    for i in range(n):
        if status[i] != 2:
            j = indptr[i]
            for k in range(K):
                if slope[i, k] != 0:
                    cls[j] = k
                    slp[j] = slope[i, k]
                    j += 1
    return indptr, cls, slp


@njit(cache=True, parallel=True)
def phase2_split_scores(
    codes,
    samples,
    status,
    indptr,
    cls,
    slp,
    n_classes,
    out_less,
    out_tied,
    need,
    scores,
    left_values,
    right_values,
    n_blocks,
    equal_labels=True,
):  # pragma: no cover - compiled
    """Score every split and label pair of one node by :math:`S'(0^+)` (higher is better).

    ``status[i]``: 0 if example ``i`` is strictly inside the bottom set, 1 if tied at the
    n'-th value, 2 above it; ``indptr``, ``cls``, ``slp`` its nonzero slopes per label
    (:func:`slope_lists`; every other label has slope 0).  Per code the histogram keeps the
    slope sum of the strictly-bottom examples and the counts of tied examples with slope -1
    and +1 per label, and the number of tied examples (those with slope 0 are the rest), so a
    sample costs its few nonzero slopes, not ``4K`` adds.  ``out_less`` and ``out_tied`` hold
    the sums outside the node; ``need`` = n' minus the strictly-bottom examples."""
    n_features = codes.shape[1]
    n_blocks = max(1, min(n_features, n_blocks))
    for block in prange(n_blocks):
        phase2_feature_scores(
            codes,
            samples,
            status,
            indptr,
            cls,
            slp,
            n_classes,
            out_less,
            out_tied,
            need,
            scores,
            left_values,
            right_values,
            block * n_features // n_blocks,
            (block + 1) * n_features // n_blocks,
            equal_labels,
        )


@njit(cache=True)
def phase2_feature_scores(
    codes,
    samples,
    status,
    indptr,
    cls,
    slp,
    K,
    out_less,
    out_tied,
    need,
    scores,
    left_values,
    right_values,
    f_start,
    f_stop,
    equal_labels,
):  # pragma: no cover - compiled
    """:func:`phase2_split_scores` for the features ``f_start .. f_stop - 1`` on one thread
    (all of them for a node too small to pay for starting the parallel threads)."""
    n_node = samples.shape[0]
    # per code (shifted by one, then cumulated: row b + 1 = codes <= b): the slope sum of the
    # strictly-bottom examples and the tied counts with slope -1 and +1, per label
    less = np.zeros((257, K), dtype=np.int64)
    minus = np.zeros((257, K), dtype=np.int64)
    plus = np.zeros((257, K), dtype=np.int64)
    tied = np.zeros(257, dtype=np.int64)  # tied examples, any slope
    tot = np.empty(4, dtype=np.int64)
    occupied = np.zeros(256, dtype=np.bool_)
    for f in range(f_start, f_stop):
        less[:] = 0
        minus[:] = 0
        plus[:] = 0
        tied[:] = 0
        occupied[:] = False
        for q in range(n_node):  # the samples in their own order: a sequential pass
            i = samples[q]
            b = codes[i, f]
            occupied[b] = True
            st = status[i]
            if st == 0:
                for j in range(indptr[i], indptr[i + 1]):
                    less[b + 1, cls[j]] += slp[j]
            elif st == 1:
                tied[b + 1] += 1
                for j in range(indptr[i], indptr[i + 1]):
                    if slp[j] < 0:
                        minus[b + 1, cls[j]] += 1
                    else:
                        plus[b + 1, cls[j]] += 1
        first = -1
        last = -1
        for b in range(256):
            tied[b + 1] += tied[b]
            for k in range(K):  # cumulate: row b + 1 = sums over codes <= b
                less[b + 1, k] += less[b, k]
                minus[b + 1, k] += minus[b, k]
                plus[b + 1, k] += plus[b, k]
            if occupied[b]:
                if first < 0:
                    first = b
                last = b
        if first == last:
            continue
        for split in range(first, last):
            if not occupied[split]:
                continue
            t_left = tied[split + 1]
            t_right = tied[256] - t_left
            for right in range(K):
                for left in range(K):
                    if left == right and not equal_labels:
                        continue
                    tot[0] = less[split + 1, left] + less[256, right] - less[split + 1, right]
                    tot[1] = minus[split + 1, left] + minus[256, right] - minus[split + 1, right]
                    tot[3] = plus[split + 1, left] + plus[256, right] - plus[split + 1, right]
                    tot[2] = t_left + t_right - tot[1] - tot[3]
                    score = float(
                        out_less
                        + tot[0]
                        + tied_sum(
                            out_tied[0] + tot[1], out_tied[1] + tot[2], out_tied[2] + tot[3], need
                        )
                    )
                    if score > scores[f, split]:
                        scores[f, split] = score
                        left_values[f, split] = left
                        right_values[f, split] = right


@njit(cache=True)
def _block_sum(a, start, n):  # pragma: no cover - compiled
    """numpy's sum of at most 128 contiguous values: eight interleaved sums from 8 on."""
    if n < 8:
        res = 0.0
        for i in range(start, start + n):
            res += a[i]
        return res
    r0 = a[start]
    r1 = a[start + 1]
    r2 = a[start + 2]
    r3 = a[start + 3]
    r4 = a[start + 4]
    r5 = a[start + 5]
    r6 = a[start + 6]
    r7 = a[start + 7]
    i = 8
    end = n - n % 8
    while i < end:
        j = start + i
        r0 += a[j]
        r1 += a[j + 1]
        r2 += a[j + 2]
        r3 += a[j + 3]
        r4 += a[j + 4]
        r5 += a[j + 5]
        r6 += a[j + 6]
        r7 += a[j + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[start + i]
        i += 1
    return res


@njit(cache=True)
def pairwise_sum(a, start, n):  # pragma: no cover - compiled
    """``a[start:start + n].sum()`` bit for bit as numpy sums a contiguous float64 array:
    its pairwise summation (blocks of at most 128, ``_block_sum``; longer ranges split in
    two at a multiple of 8 below the middle, the two sums added), started from 0.0.  The
    recursion is unrolled on an explicit stack (numba's cache does not keep recursive
    functions).  Tested against ``numpy.sum``."""
    if n <= 128:
        return _block_sum(a, start, n)
    node_start = np.empty(128, dtype=np.int64)
    node_n = np.empty(128, dtype=np.int64)
    node_done = np.zeros(128, dtype=np.bool_)
    values = np.empty(128)
    top = 1
    node_start[0] = start
    node_n[0] = n
    n_values = 0
    while top > 0:
        top -= 1
        first = node_start[top]
        size = node_n[top]
        if size <= 128:
            values[n_values] = _block_sum(a, first, size)
            n_values += 1
        elif node_done[top]:  # both halves summed: they are the last two values
            n_values -= 1
            values[n_values - 1] = values[n_values - 1] + values[n_values]
        else:
            half = size // 2
            half -= half % 8
            node_done[top] = True  # revisited after its halves
            top += 1
            node_start[top] = first + half
            node_n[top] = size - half
            node_done[top] = False
            top += 1
            node_start[top] = first
            node_n[top] = half
            node_done[top] = False
            top += 1
    return values[0]


@njit(cache=True)
def bottom_sum(value, slope, vstar, n_prime):  # pragma: no cover - compiled
    """The rest of ``search._bottom`` once the n'-th smallest ``vstar`` of
    ``value`` is known: the sum S of the n' smallest values and its right derivative S'.

    S adds the values below ``vstar`` in sample order as numpy's ``sum`` of them does
    (``pairwise_sum``), then ``vstar`` for each place left; the slopes are -1, 0 or +1,
    whose sums are exact in any order (the ties contribute their smallest slopes first).
    """
    n = value.shape[0]
    below = np.empty(n)
    m = np.int64(0)  # not a literal: one compiled pairwise_sum
    slope_below = 0.0
    tied = np.zeros(3, dtype=np.int64)  # tied values with slope -1, 0, +1
    for i in range(n):
        if value[i] < vstar:
            below[m] = value[i]
            m += 1
            slope_below += slope[i]
        elif value[i] == vstar:
            if slope[i] != -1.0 and slope[i] != 0.0 and slope[i] != 1.0:
                raise ValueError("bottom_sum: the slopes must be -1, 0 or +1")
            tied[int(slope[i]) + 1] += 1
    left = n_prime - m
    slope_tied = 0.0
    for j in range(3):
        take = min(left, tied[j])
        slope_tied += take * (j - 1.0)
        left -= take
    S = pairwise_sum(below, np.int64(0), m) + (n_prime - m) * vstar
    return S, slope_below + slope_tied


@njit(cache=True)
def slope_parts(slope, status, h, mask):  # pragma: no cover - compiled
    """``MarginSlopeObjective._parts``: the slope sum of the masked examples strictly in the
    bottom set (status 0) and the counts of the tied ones (status 1) with slope -1, 0, +1
    (slopes are whole numbers: the sums are exact in any order)."""
    less = 0.0
    counts = np.zeros(3, dtype=np.int64)
    for i in range(h.shape[0]):
        if mask[i]:
            v = slope[i, h[i]]
            if status[i] == 0:
                less += v
            elif status[i] == 1:
                if v == -1.0:
                    counts[0] += 1
                elif v == 0.0:
                    counts[1] += 1
                elif v == 1.0:
                    counts[2] += 1
    return less, counts


@njit(cache=True)
def lines_at(p1, s1, p2, s2, b):  # pragma: no cover - compiled
    """``min(p1 + s1 b, p2 + s2 b)`` per example and its right derivative in ``b`` (the
    smaller slope where the two lines meet), elementwise as numpy computes them."""
    n = p1.shape[0]
    value = np.empty(n)
    slope = np.empty(n)
    for i in range(n):
        v1 = p1[i] + s1[i] * b
        v2 = p2[i] + s2[i] * b
        if v1 < v2:
            value[i] = v1
            slope[i] = s1[i]
        elif v2 < v1:
            value[i] = v2
            slope[i] = s2[i]
        else:
            value[i] = v1
            slope[i] = min(s1[i], s2[i])
    return value, slope
