r"""numba kernels of DirectBoost's phase 2, the margins (Zhai et al. 2013).

With the examples sorted by :math:`a_i` once per round, a weak classifier needs only the
:math:`n'` smallest :math:`a_i` of the examples it classifies correctly (rising lines,
:math:`R_1 \le R_2 \le \dots`) and of those it misclassifies (falling lines, :math:`F_j`).

* Bottom-:math:`n'` average: the sum of the :math:`n'` smallest numerators is
  :math:`S(\alpha) = \min_k I_k + (2k - n')\alpha` with :math:`I_k = \sum_{j\le k} R_j +
  \sum_{j \le n'-k} F_j`; :math:`I_k` is convex in :math:`k`, so the pieces are taken from
  :math:`k_0 = \arg\min_k I_k` downwards, the piece :math:`k \to k-1` at
  :math:`\alpha = (I_{k-1} - I_k)/2` (the intersection of the :math:`k`-th rising and the
  :math:`(n'-k+1)`-th falling line: Algorithm 2's :math:`q_j`).  On piece :math:`k` the
  normalized objective :math:`S/(n'(c+\alpha))` increases iff :math:`(2k - n')c - I_k > 0`
  (the sign of :math:`D_{n'}`, eq. (10)), so the walk stops at the first piece where it is not.
* :math:`n'`-th order margin: with :math:`j` rising lines among the bottom :math:`n'`, the
  :math:`n'`-th smallest numerator is :math:`\max(R_j + \alpha, F_{n'-j} - \alpha)`; :math:`j`
  drops by one at :math:`\gamma_j = (F_{n'-j+1} - R_j)/2`.  Between the :math:`\gamma_j` the
  normalized margin rises while the :math:`n'`-th example is a rising line and falls otherwise,
  so its local maxima are the :math:`\gamma_j` (and the ends).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from .._direct_common import PARALLEL_WORK, bucket_by_code, cumulate_counts


@njit(cache=True)
def _intercepts(R, kr, F, kf, n_prime):  # pragma: no cover - compiled
    """``(kmin, I)``: the intercepts :math:`I_k`, ``k = kmin..min(n', kr)``, of the envelope."""
    kmin = max(0, n_prime - kf)
    kmax = min(n_prime, kr)
    I = np.empty(kmax - kmin + 1)
    sr = 0.0
    for j in range(kmin):
        sr += R[j]
    sf = 0.0
    for j in range(n_prime - kmin):
        sf += F[j]
    for k in range(kmin, kmax + 1):
        if k > kmin:
            sr += R[k - 1]
            sf -= F[n_prime - k]
        I[k - kmin] = sr + sf
    return kmin, I


@njit(cache=True)
def _avg_value(R, kr, F, kf, n_prime, c, alpha):  # pragma: no cover - compiled
    """Bottom-n' average of the normalized margins at ``alpha`` (O(n'))."""
    kmin, I = _intercepts(R, kr, F, kf, n_prime)
    best = np.inf
    for j in range(I.shape[0]):
        value = I[j] + (2.0 * (kmin + j) - n_prime) * alpha
        if value < best:
            best = value
    return best / (n_prime * (c + alpha))


@njit(cache=True)
def _avg_search(R, kr, F, kf, n_prime, c, d):  # pragma: no cover - compiled
    """``(q, value_at_q, last_breakpoint)`` maximizing the bottom-n' average on ``[0, d]``;
    ``q = inf`` when the supremum is only approached as alpha -> inf (``d`` infinite)."""
    kmin, I = _intercepts(R, kr, F, kf, n_prime)
    kmax = kmin + I.shape[0] - 1
    k = kmin
    for kk in range(kmin + 1, kmax + 1):
        if I[kk - kmin] < I[k - kmin]:
            k = kk
    alpha = 0.0
    last = 0.0
    while True:
        Ik = I[k - kmin]
        if (2.0 * k - n_prime) * c - Ik <= 0.0:  # D_n' <= 0: non-increasing from here
            q = alpha
            break
        if k == kmin:  # rising to the end
            q = d
            break
        nxt = 0.5 * (F[n_prime - k] - R[k - 1])  # = (I_{k-1} - I_k) / 2, without rounding
        if nxt >= d:
            q = d
            break
        alpha = nxt
        last = nxt
        k -= 1
    if q == np.inf:
        # slope of the last piece / n': the limit of the objective
        return q, (2.0 * k - n_prime) / n_prime, last
    Ik = I[k - kmin]
    return q, (Ik + (2.0 * k - n_prime) * q) / (n_prime * (c + q)), last


@njit(cache=True)
def _order_value(R, kr, F, kf, n_prime, c, alpha):  # pragma: no cover - compiled
    """The n'-th smallest normalized margin at ``alpha`` (O(n'))."""
    jmin = max(0, n_prime - kf)
    jmax = min(n_prime, kr)
    best = np.inf
    for j in range(jmin, jmax + 1):
        top = -np.inf
        if j > 0:
            top = R[j - 1] + alpha
        if n_prime - j > 0:
            top = max(top, F[n_prime - j - 1] - alpha)
        if top < best:
            best = top
    return best / (c + alpha)


@njit(cache=True)
def _order_search(R, kr, F, kf, n_prime, c, d):  # pragma: no cover - compiled
    """``(q, value_at_q, last_breakpoint)`` maximizing the n'-th smallest normalized margin
    on ``[0, d]`` (the candidates: 0, the peaks gamma_j < d and d)."""
    jmin = max(0, n_prime - kf)
    jmax = min(n_prime, kr)
    # active j just right of 0: the largest j whose rising line has not yet left
    j = jmax
    while j > jmin and n_prime - j + 1 <= kf and F[n_prime - j] - R[j - 1] <= 0.0:
        j -= 1
    best_alpha = 0.0
    best = _order_value(R, kr, F, kf, n_prime, c, 0.0)
    last = 0.0
    while j > jmin and n_prime - j + 1 <= kf:
        gamma = 0.5 * (F[n_prime - j] - R[j - 1])
        if gamma >= d:
            break
        value = (R[j - 1] + gamma) / (c + gamma)
        last = gamma
        if value > best:
            best = value
            best_alpha = gamma
        j -= 1
    if d < np.inf:
        value = _order_value(R, kr, F, kf, n_prime, c, d)
        if value > best:
            best = value
            best_alpha = d
    elif j > 0 and (j <= jmin or n_prime - j + 1 > kf):
        # the n'-th example stays a rising line: the margin tends to 1 as alpha -> inf
        if 1.0 > best:
            return np.inf, 1.0, last
    return best_alpha, best, last


@njit(cache=True)
def collect_lines(order, a, b_sign, n_prime, restricted):  # pragma: no cover - compiled
    """The n' smallest a_i with b_i = +1 and with b_i = -1 (examples sorted by ``order``), and
    ``d``: the smallest positive a_i with b_i = -1 (only searched when ``restricted``)."""
    R = np.empty(n_prime)
    F = np.empty(n_prime)
    kr = 0
    kf = 0
    d = np.inf
    for idx in range(order.shape[0]):
        i = order[idx]
        if b_sign[i] > 0:
            if kr < n_prime:
                R[kr] = a[i]
                kr += 1
        else:
            if kf < n_prime:
                F[kf] = a[i]
                kf += 1
            if restricted and d == np.inf and a[i] > 0.0:
                d = a[i]
        if kr == n_prime and kf == n_prime and (not restricted or d < np.inf):
            break
    return R, kr, F, kf, d


@njit(cache=True)
def phase2_line(R, kr, F, kf, n_prime, c, d, order_objective, epsilon, end_gap):
    # pragma: no cover - compiled
    """``(q, step, value_at_step)`` for one weak classifier.

    ``q`` maximizes the objective on ``[0, d]``.  Without relaxation (``epsilon == 0``) the step
    is ``q``, or ``d - min(end_gap, d/2)`` when ``q == d`` (the paper's :math:`d - \\epsilon`:
    the end itself is outside the minimum-error region); with relaxation it is ``q + epsilon``
    (capped like ``q == d`` when that passes ``d``).  A supremum approached only as
    alpha -> inf gets the finite step ``max(2 * last breakpoint, c)``.
    """
    if order_objective:
        q, value, last = _order_search(R, kr, F, kf, n_prime, c, d)
    else:
        q, value, last = _avg_search(R, kr, F, kf, n_prime, c, d)
    if q == np.inf:
        step = max(2.0 * last, c)
    elif epsilon > 0.0:
        step = q + epsilon
    else:
        step = q
    if step >= d:
        step = d - min(end_gap, 0.5 * d)
    if step == q:
        return q, step, value
    if order_objective:
        return q, step, _order_value(R, kr, F, kf, n_prime, c, step)
    return q, step, _avg_value(R, kr, F, kf, n_prime, c, step)


@njit(cache=True)
def sorted_by_margin(order, a, y):  # pragma: no cover - compiled
    """``(rank, a_sorted, y_sorted, positions)``: the examples' positions in ``order`` (the
    stable argsort of ``a``), ``a`` and ``y`` in that order and ``0 .. n - 1`` (the order of
    the sorted arrays), for :func:`phase2_split_scores` (once per round: they do not depend
    on the node)."""
    n = order.shape[0]
    rank = np.empty(n, dtype=np.int64)
    a_sorted = np.empty(n)
    y_sorted = np.empty(n)
    for pos in range(n):
        i = order[pos]
        rank[i] = pos
        a_sorted[pos] = a[i]
        y_sorted[pos] = y[i]
    return rank, a_sorted, y_sorted, np.arange(n)


def phase2_split_scores(
    codes: Any,
    samples: Any,
    node_counts: Any,
    pred: Any,
    order: Any,
    sorted_round: Any,
    n_prime: Any,
    c: Any,
    restricted: Any,
    order_objective: Any,
    epsilon: Any,
    end_gap: Any,
    scores: Any,
    left_values: Any,
    right_values: Any,
    n_blocks: Any,
    mode: Any,
    other: Any,
    feature_ptr: Any,
    sparse_positions: Any,
    sparse_end: Any,
    sparse_stop: Any,
) -> None:
    """Score every split of one node by the margin objective at its step (higher is better).

    ``node_counts[f, b]`` is the number of the node's samples with code ``b`` of feature ``f``
    (:meth:`~marginboost.weak.DirectNode.code_counts`).
    ``pred`` holds the partial tree's current predictions (used outside the node), ``order``
    the stable argsort of the margins ``a`` and ``sorted_round`` :func:`sorted_by_margin`'s
    ``(rank, a_sorted, y_sorted, positions)``.  The features are shared out in ``n_blocks``
    contiguous blocks (one per numba thread; one block for nodes with fewer samples times
    features than :data:`PARALLEL_WORK`), each with its own work arrays; every score depends on
    its feature alone, so the result does not depend on the number of blocks.  ``mode``,
    ``other`` and ``feature_ptr`` are :func:`sparse_code_rows`'s, ``sparse_positions`` and
    ``sparse_end`` :func:`sparse_code_positions`'s for the positions below ``sparse_stop`` of
    ``order`` (where each feature's codes other than its most frequent one are): a feature with
    two codes in the node, one of them its mode, moves only the samples of the other one, found
    there, while its line searches read below ``sparse_stop``.
    """
    node = (codes, samples, node_counts, pred, order, sorted_round)
    search = (n_prime, c, restricted, order_objective, epsilon, end_gap)
    out = (scores, left_values, right_values)
    sparse = (mode, other, feature_ptr, sparse_positions, sparse_end, sparse_stop)
    if n_blocks > 1 and samples.shape[0] * codes.shape[1] >= PARALLEL_WORK:
        _split_scores_parallel(node, search, out, sparse, n_blocks)
    else:
        _split_scores_serial(node, search, out, sparse)


@njit(cache=True)
def _node_sums(samples, a_sorted, n_prime):  # pragma: no cover - compiled
    """``(member, total, p_pos)``: the node's samples by sample (the blocks find their
    positions as far as they read), the sum of the n' smallest margins and the first position
    with a positive margin."""
    n = a_sorted.shape[0]
    member = np.zeros(n, dtype=np.bool_)
    for k in range(samples.shape[0]):
        member[samples[k]] = True
    total = 0.0
    for pos in range(n_prime):
        total += a_sorted[pos]
    p_pos = 0
    while p_pos < n and not a_sorted[p_pos] > 0.0:
        p_pos += 1
    return member, total, p_pos


@njit(cache=True, parallel=True)
def _split_scores_parallel(node, search, out, sparse, n_blocks):  # pragma: no cover - compiled
    """:func:`phase2_split_scores` on ``n_blocks`` threads (the loop's body gets arrays and
    numbers, not tuples of arrays: a parallel loop cannot take those in)."""
    codes, samples, node_counts, pred, order, (rank, a, y, positions) = node
    n_prime, c, restricted, order_objective, epsilon, end_gap = search
    scores, left_values, right_values = out
    mode, other, feature_ptr, sparse_positions, sparse_end, sparse_stop = sparse
    member, total, p_pos = _node_sums(samples, a, n_prime)
    n_features = codes.shape[1]
    n_blocks = max(1, min(n_features, n_blocks))
    bounds = _block_bounds(node_counts, samples.shape[0], other, feature_ptr, sparse_end, n_blocks)
    for block in prange(n_blocks):
        _phase2_feature_block(
            (codes, samples, node_counts, pred, order, (rank, a, y, positions)),
            (member, total, p_pos),
            (n_prime, c, restricted, order_objective, epsilon, end_gap),
            (scores, left_values, right_values),
            (mode, other, feature_ptr, sparse_positions, sparse_end, sparse_stop),
            bounds[block],
            bounds[block + 1],
        )


#: A feature's line searches cost about as much as moving this many samples (Adult 10k,
#: n' = 1000: about 9 us for a two-code feature's two searches, 14 ns a sample moved), the
#: unit of :func:`_block_bounds`'s estimate.
SEARCH_COST = 640


@njit(cache=True)
def _block_bounds(node_counts, n_node, other, feature_ptr, sparse_end, n_blocks):
    # pragma: no cover - compiled
    """Feature boundaries of ``n_blocks`` contiguous blocks of about equal estimated work: a
    feature costs :data:`SEARCH_COST` per threshold searched (two signs each) plus the samples
    it moves (a two-code feature: its entries of the sparse positions; any other: the node's
    samples).  Only the time depends on the boundaries, never a score."""
    n_features = node_counts.shape[0]
    cost = np.empty(n_features)
    for f in range(n_features):
        if other[f] >= 0:
            cost[f] = SEARCH_COST + (sparse_end[f] - feature_ptr[f])
        else:
            present = 0
            for b in range(256):
                if node_counts[f, b] > 0:
                    present += 1
            cost[f] = SEARCH_COST * max(present - 1, 0) + n_node
    total = 0.0
    for f in range(n_features):
        total += cost[f]
    bounds = np.empty(n_blocks + 1, dtype=np.int64)
    bounds[0] = 0
    bounds[n_blocks] = n_features
    f = 0
    done = 0.0
    for block in range(1, n_blocks):
        goal = total * block / n_blocks
        while f < n_features and done + 0.5 * cost[f] < goal:
            done += cost[f]
            f += 1
        bounds[block] = f
    return bounds


@njit(cache=True)
def _split_scores_serial(node, search, out, sparse):  # pragma: no cover - compiled
    """:func:`phase2_split_scores` on one thread."""
    sums = _node_sums(node[1], node[5][1], search[0])
    _phase2_feature_block(node, sums, search, out, sparse, 0, node[0].shape[1])


@njit(cache=True)
def _flip_buckets(b, y, value, n_prime, kr, by_code, start, stop):
    # pragma: no cover - compiled
    """Set ``b[p] = value * y[p]`` for the positions ``by_code[start:stop]``; return the
    updated count ``kr`` of rising lines (``b > 0``) among the first ``n_prime`` positions."""
    for k in range(start, stop):
        p = by_code[k]
        b[p] = value * y[p]
        if p < n_prime:
            kr += 1 if value * y[p] > 0 else -1
    return kr


@njit(cache=True)
def _phase2_value(order, a, b, kr, search, work, limit):  # pragma: no cover - compiled
    """Objective value at the step of the weak classifier whose signs are ``b``, reading only
    the first ``limit`` positions of ``order``; ``nan`` when the search needs more of them.
    ``search`` is ``(n_prime, c, restricted, order_objective, epsilon, end_gap, total,
    p_pos)``, ``work`` the walk's work arrays ``(Fb, piece_I, piece_start)``."""
    n_prime, c, restricted, order_objective, epsilon, end_gap, total, p_pos = search
    if order_objective:
        R, kr_o, F, kf, d = collect_lines(order[:limit], a, b, n_prime, restricted)
        complete = kr_o == n_prime and kf == n_prime and (not restricted or d < np.inf)
        if limit < order.shape[0] and not complete:
            return np.nan
        return phase2_line(R, kr_o, F, kf, n_prime, c, d, np.bool_(True), epsilon, end_gap)[2]
    Fb, piece_I, piece_start = work
    return avg_line_walk(
        a,
        b,
        n_prime,
        c,
        restricted,
        epsilon,
        end_gap,
        kr,
        total,
        p_pos,
        Fb,
        piece_I,
        piece_start,
        limit,
    )[2]


#: A node's splits are first scored with only its samples among the first
#: ``NEAR_FACTOR * n_prime`` positions of the sorted margins moved between the children: the
#: line searches rarely read much further (on Adult, n' = 1000, mostly below 2,000
#: positions).  A feature whose search would read further is scored again with half as many
#: positions more, until none does, and the node's next features start from there; the
#: scores never depend on these limits, only the time does.
NEAR_FACTOR = 2


@njit(cache=True)
def _extend_block(
    neg, pos, in_node, by_position, below, y, pred, order, member, lo, hi, filled
):  # pragma: no cover - compiled
    """Fill positions ``lo .. hi - 1`` of a block's arrays (see :func:`_phase2_feature_block`):
    the node's samples at :math:`-y` in ``neg`` and :math:`+y` in ``pos``, the others at the
    partial tree's sign in both; ``filled`` of the node's samples are in ``by_position`` so
    far.  Returns the new count."""
    for p in range(lo, hi):
        i = order[p]
        below[p] = filled
        if member[i]:
            neg[p] = -y[p]
            pos[p] = y[p]
            in_node[p] = True
            by_position[filled] = i
            filled += 1
        else:
            neg[p] = pos[p] = y[p] * pred[i]
            in_node[p] = False
    below[hi] = filled
    return filled


@njit(cache=True)
def _phase2_feature_block(node, sums, search_rules, out, sparse, f_start, f_stop):
    # pragma: no cover - compiled
    """:func:`phase2_split_scores` for the features ``f_start .. f_stop - 1``: ``node`` is
    ``(codes, samples, node_counts, pred, order, sorted_round)``, ``sums``
    :func:`_node_sums`'s, ``search_rules`` ``(n_prime, c, restricted, order_objective,
    epsilon, end_gap)``, ``out`` the three score arrays and ``sparse`` ``(mode, other,
    feature_ptr, sparse_positions, sparse_end, sparse_stop)``, as
    :func:`phase2_split_scores` takes them.

    Two sign arrays hold the node's samples all at :math:`-y` (``neg``) and all at :math:`+y`
    (``pos``); outside the node both hold the partial tree's signs.  The split
    ``code <= t`` with the left child predicting ``left`` is ``neg`` with the buckets ``<= t``
    set to ``left * y`` (for ``left = +1``; ``pos`` for ``-1``), or ``pos``/``neg`` with the
    buckets ``> t`` set to ``-left * y``: see :func:`_sweep_feature`.

    ``y`` and ``a`` are given by position in the sorted order (``order[p]`` is the sample at
    position ``p``, ``positions`` is ``0 .. n - 1``), and so are the sign arrays and
    ``in_node`` (the node's positions); ``pred`` (the partial tree's predictions) and
    ``member`` (the node's samples) are given by sample, ``rank`` maps a sample to its
    position, ``by_position`` holds the node's samples in the sorted order and ``below[L]``
    how many of them are at positions below ``L``: all filled by :func:`_extend_block` as far
    as the searches read.  Only the node's samples at positions below a limit
    (:data:`NEAR_FACTOR` times ``n_prime`` at first) are moved; a feature whose line search
    reads past the limit is swept again with the limit raised by half, and the next features
    start from the raised limit.  A feature with two codes in the node, one of them its most
    frequent code (``mode[f]``), moves only the node's samples with the other code, read from
    ``sparse_positions`` (:func:`_sweep_two_codes`) instead of bucketing all of the node's
    samples below the limit, while the limit is at most ``sparse_stop``.
    """
    codes, samples, node_counts, pred, order, sorted_round = node
    rank, a, y, positions = sorted_round
    member, total, p_pos = sums
    n_prime, c, restricted, order_objective, epsilon, end_gap = search_rules
    scores, left_values, right_values = out
    mode, other, feature_ptr, sparse_positions, sparse_end, sparse_stop = sparse
    n = y.shape[0]
    n_node = samples.shape[0]
    start = min(n, (NEAR_FACTOR + (1 if order_objective else 0)) * n_prime)
    # the sign arrays, the node's positions and samples by position are filled only as far
    # as the searches read (``ready`` positions, extended with the limit)
    neg = np.empty(n)
    pos = np.empty(n)
    in_node = np.empty(n, dtype=np.bool_)
    by_position = np.empty(n_node, dtype=np.int64)
    below = np.empty(n + 1, dtype=np.int64)
    filled = _extend_block(
        neg, pos, in_node, by_position, below, y, pred, order, member, 0, start, 0
    )
    ready = start
    kr_neg = np.int64(0)  # not a literal: one compiled _flip_buckets
    kr_pos = np.int64(0)
    for p in range(n_prime):
        if neg[p] > 0:
            kr_neg += 1
        if pos[p] > 0:
            kr_pos += 1
    present = np.zeros(257, dtype=np.int64)
    counts = np.zeros(257, dtype=np.int64)
    by_code = np.empty(n_node, dtype=np.int64)
    Fb = np.empty(n - n_prime + 1)
    piece_I = np.empty(n_prime + 1)
    piece_start = np.empty(n_prime + 1)
    values = np.empty((2, 256))
    unmoved = np.full(2, np.nan)  # the objective at neg's and pos's own signs, once known
    search = (n_prime, c, restricted, order_objective, epsilon, end_gap, total, p_pos)
    work = (Fb, piece_I, piece_start)
    for f in range(f_start, f_stop):
        m = mode[f]
        if other[f] >= 0:  # two codes in the data: the node's follow from its count of the mode
            if node_counts[f, m] == 0 or node_counts[f, m] == n_node:
                continue  # one code in the node: no split
            first = min(m, other[f])
            last = max(m, other[f])
            two_codes = True
        else:
            first, last = cumulate_counts(node_counts[f], present)
            if first == last:
                continue  # one code in the node: no split
            # two codes in the node, one of them the feature's mode: only the other one moves
            two_codes = m >= 0 and present[last] == present[first + 1] and (m == first or m == last)
        bucketed = False
        limit = start
        while True:
            if limit > ready:
                filled = _extend_block(
                    neg, pos, in_node, by_position, below, y, pred, order, member, ready, limit,
                    filled,
                )  # fmt: skip
                ready = limit
            if two_codes and limit <= sparse_stop:
                n_moved = 0
                for k in range(feature_ptr[f], sparse_end[f]):
                    p = sparse_positions[k]
                    if p >= limit:
                        break
                    if in_node[p]:
                        by_code[n_moved] = p
                        n_moved += 1
                overflow = _sweep_two_codes(
                    neg,
                    pos,
                    kr_neg,
                    kr_pos,
                    y,
                    positions,
                    a,
                    search,
                    work,
                    values,
                    unmoved,
                    by_code,
                    n_moved,
                    first,
                    m == first,
                    limit,
                )
                if not overflow:
                    break
                limit = min(n, limit + limit // 2)
                continue
            if not bucketed:
                cumulate_counts(node_counts[f], present)
                bucketed = True
            bucket_by_code(codes, by_position[: below[limit]], f, counts, by_code)
            overflow = _sweep_feature(
                neg,
                pos,
                kr_neg,
                kr_pos,
                y,
                positions,
                a,
                search,
                work,
                values,
                present,
                counts,
                by_code,
                rank,
                first,
                last,
                limit,
            )
            if not overflow:
                break
            limit = min(n, limit + limit // 2)
        start = limit  # the next feature's search likely reaches as far
        if not bucketed:  # the two codes' one split
            _keep_best(values, first, scores[f], left_values[f], right_values[f])
            continue
        code = first
        while code < last:
            _keep_best(values, code, scores[f], left_values[f], right_values[f])
            code += 1
            while present[code + 1] == present[code]:
                code += 1


@njit(cache=True)
def _keep_best(values, code, scores, left_values, right_values):  # pragma: no cover - compiled
    """Keep the better sign of the split ``code`` (``values[0]``: the left child predicts +1)
    where it beats ``scores[code]``; ties between the two signs go to left = +1."""
    for s in range(2):
        left = 1.0 if s == 0 else -1.0
        if values[s, code] > scores[code]:
            scores[code] = values[s, code]
            left_values[code] = left
            right_values[code] = -left


@njit(cache=True)
def _sweep_two_codes(
    neg,
    pos,
    kr_neg,
    kr_pos,
    y,
    order,
    a,
    search,
    work,
    values,
    unmoved,
    moved,
    n_moved,
    first,
    other_last,
    limit,
):  # pragma: no cover - compiled
    """:func:`_sweep_feature` for a feature with two codes in the node, ``first`` and another,
    one of which (the mode) stays in place: ``moved[:n_moved]`` are the positions below
    ``limit`` of the node's samples with the other code (the larger one when ``other_last``).
    The one split, ``code <= first``, is scored for both signs into ``values[s, first]``: the
    same sign arrays as :func:`_sweep_feature` sees, reached by moving the other code's samples
    from the array where the whole node already has their child's sign.  When no sample moves
    (none of the other code below ``limit``), the signs are ``neg``'s or ``pos``'s own, whose
    value ``unmoved[0]`` or ``unmoved[1]`` is computed once per block and then reused (a walk
    that ended below a limit reads the same positions below any larger one)."""
    n_prime = search[0]
    overflow = False
    for s in range(2):
        left = 1.0 if s == 0 else -1.0
        if other_last:  # from all left * y, the right child's samples to -left * y
            b = pos if s == 0 else neg
            kr = kr_pos if s == 0 else kr_neg
            sign = -left
            slot = 1 if s == 0 else 0
        else:  # from all -left * y, the left child's samples to left * y
            b = neg if s == 0 else pos
            kr = kr_neg if s == 0 else kr_pos
            sign = left
            slot = 0 if s == 0 else 1
        kr = _flip_buckets(b, y, sign, n_prime, kr, moved, np.int64(0), np.int64(n_moved))
        if not overflow:
            if n_moved == 0 and not np.isnan(unmoved[slot]):
                values[s, first] = unmoved[slot]
            else:
                values[s, first] = _phase2_value(order, a, b, kr, search, work, limit)
                overflow = np.isnan(values[s, first])
                if n_moved == 0 and not overflow:
                    unmoved[slot] = values[s, first]
        _flip_buckets(b, y, -sign, n_prime, kr, moved, np.int64(0), np.int64(n_moved))
    return overflow


@njit(cache=True)
def sparse_code_rows(codes):  # pragma: no cover - compiled
    """The features' modes and, per sample, the features where it has another code:
    ``(mode, other, row_ptr, row_features, feature_ptr)``.  Only features whose mode covers at
    least half of the samples take part (``mode[f] = -1`` for the others); ``other[f]`` is the
    feature's other code when it has two (``-1`` otherwise), and ``feature_ptr[f]`` is where
    feature ``f``'s entries start in :func:`sparse_code_positions`'s array."""
    n, n_features = codes.shape
    mode = np.full(n_features, -1, dtype=np.int64)
    other = np.full(n_features, -1, dtype=np.int64)
    feature_ptr = np.zeros(n_features + 1, dtype=np.int64)
    histogram = np.zeros(256, dtype=np.int64)
    for f in range(n_features):
        histogram[:] = 0
        for i in range(n):
            histogram[codes[i, f]] += 1
        best = 0
        for b in range(1, 256):
            if histogram[b] > histogram[best]:
                best = b
        if 2 * histogram[best] >= n:
            mode[f] = best
            feature_ptr[f + 1] = n - histogram[best]
            distinct = 0
            for b in range(256):
                if histogram[b] > 0:
                    distinct += 1
                    if b != best:
                        other[f] = b
            if distinct != 2:
                other[f] = -1
    for f in range(n_features):
        feature_ptr[f + 1] += feature_ptr[f]
    row_ptr = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        k = 0
        for f in range(n_features):
            if mode[f] >= 0 and codes[i, f] != mode[f]:
                k += 1
        row_ptr[i + 1] = row_ptr[i] + k
    row_features = np.empty(row_ptr[n], dtype=np.int64)
    for i in range(n):
        k = row_ptr[i]
        for f in range(n_features):
            if mode[f] >= 0 and codes[i, f] != mode[f]:
                row_features[k] = f
                k += 1
    return mode, other, row_ptr, row_features, feature_ptr


@njit(cache=True)
def sparse_code_positions(order, row_ptr, row_features, feature_ptr, stop):
    # pragma: no cover - compiled
    """``(positions, end)``: for each feature of :func:`sparse_code_rows`, the positions below
    ``stop`` in ``order`` of the samples whose code is not its mode, in increasing order:
    ``positions[feature_ptr[f]:end[f]]``."""
    end = feature_ptr[:-1].copy()
    positions = np.empty(feature_ptr[-1], dtype=np.int64)
    for p in range(stop):
        i = order[p]
        for k in range(row_ptr[i], row_ptr[i + 1]):
            f = row_features[k]
            positions[end[f]] = p
            end[f] += 1
    return positions, end


@njit(cache=True)
def _sweep_feature(
    neg,
    pos,
    kr_neg,
    kr_pos,
    y,
    order,
    a,
    search,
    work,
    values,
    present,
    counts,
    by_code,
    rank,
    first,
    last,
    limit,
):  # pragma: no cover - compiled
    """Score the thresholds of one feature into ``values[s, t]`` (``s = 0``: the left child
    predicts +1); ``True`` when a line search needed positions past ``limit``.

    The thresholds are the codes present in the node (``present``, cumulative counts of its
    codes); the samples moved are ``by_code`` (bucketed by code, cumulative ``counts``;
    converted here from sample ids to positions), the node's samples below ``limit``.  Each
    sign sweeps its thresholds upwards or downwards, whichever moves fewer samples, and moves
    them back afterwards, so ``neg`` and ``pos`` are left as they were.  The signs seen by each
    line search, and hence the scores, do not depend on the direction.  ``neg``, ``pos``,
    ``y`` and ``a`` are indexed by position (``order`` is ``0, 1, ...``); ``search`` and
    ``work`` are :func:`_phase2_value`'s.
    """
    n_prime = search[0]
    n_moved = counts[256]
    for k in range(n_moved):
        by_code[k] = rank[by_code[k]]
    overflow = False
    upwards = counts[last] <= n_moved - counts[first + 1]
    for s in range(2):
        left = 1.0 if s == 0 else -1.0
        if upwards:  # from all -left * y, move the buckets <= t to left * y
            b = neg if s == 0 else pos
            kr = kr_neg if s == 0 else kr_pos
            code = first
            while code < last:
                kr = _flip_buckets(b, y, left, n_prime, kr, by_code, counts[code], counts[code + 1])
                if not overflow:
                    values[s, code] = _phase2_value(order, a, b, kr, search, work, limit)
                    overflow = np.isnan(values[s, code])
                code += 1
                while present[code + 1] == present[code]:
                    code += 1
            _flip_buckets(b, y, -left, n_prime, kr, by_code, np.int64(0), counts[last])
        else:  # from all left * y, move the buckets > t to -left * y
            b = pos if s == 0 else neg
            kr = kr_pos if s == 0 else kr_neg
            code = last
            while code > first:
                kr = _flip_buckets(
                    b, y, -left, n_prime, kr, by_code, counts[code], counts[code + 1]
                )
                split = code - 1
                while present[split + 1] == present[split]:
                    split -= 1
                if not overflow:
                    values[s, split] = _phase2_value(order, a, b, kr, search, work, limit)
                    overflow = np.isnan(values[s, split])
                code = split
            _flip_buckets(b, y, left, n_prime, kr, by_code, counts[first + 1], n_moved)
    return overflow


@njit(cache=True)
def avg_line_lazy(order, a, b_sign, n_prime, c, restricted, epsilon, end_gap):
    # pragma: no cover - compiled
    """``(q, step, value_at_step)`` of the bottom-n' average along one weak classifier,
    reading the sorted examples only as far as the walk needs.

    The first ``n_prime`` examples in ``order`` are the bottom set at alpha = 0 (their rising
    lines give the starting piece ``k0``); every further breakpoint needs one more falling
    line, found by scanning on.  Equal to :func:`collect_lines` + :func:`phase2_line` with the
    average objective, at a cost of about ``n_prime`` plus the examples scanned for the
    breakpoints actually passed (Algorithm 2's :math:`O(n')` per weak classifier).
    """
    n = order.shape[0]
    a_sorted = a[order]
    b_sorted = b_sign[order]
    kr = 0
    total = 0.0
    for pos in range(n_prime):
        total += a_sorted[pos]
        if b_sorted[pos] > 0:
            kr += 1
    p_pos = 0
    while p_pos < n and not a_sorted[p_pos] > 0.0:
        p_pos += 1
    return avg_line_walk(
        a_sorted,
        b_sorted,
        n_prime,
        c,
        restricted,
        epsilon,
        end_gap,
        kr,
        total,
        p_pos,
        np.empty(n - n_prime + 1),
        np.empty(n_prime + 1),
        np.empty(n_prime + 1),
        n,
    )


@njit(cache=True)
def _previous_riser(a, b_sign, pr):  # pragma: no cover - compiled
    """Position before ``pr`` of the nearest rising line (examples in sorted order), and its
    ``a``."""
    pr -= 1
    while b_sign[pr] < 0:
        pr -= 1
    return pr, a[pr]


@njit(cache=True)
def avg_line_walk(
    a,
    b_sign,
    n_prime,
    c,
    restricted,
    epsilon,
    end_gap,
    kr,
    total,
    p_pos,
    Fb,
    piece_I,
    piece_start,
    limit,
):  # pragma: no cover - compiled
    """:func:`avg_line_lazy` on examples already sorted (``a`` and ``b_sign`` in increasing
    order of ``a``), without reading the bottom set: the caller keeps ``kr`` (rising lines
    among the first ``n_prime`` examples), ``total`` (the sum of their ``a``) and ``p_pos``
    (the first position with ``a > 0``) up to date, and the
    walk reads the rising lines backwards from position ``n_prime - 1`` and the falling lines
    forwards from position ``n_prime``, as far as it goes.  ``Fb``, ``piece_I`` and
    ``piece_start`` are work arrays (sizes ``n - n_prime + 1``, ``n_prime + 1``,
    ``n_prime + 1``).  :func:`phase2_split_scores` updates the three numbers as it moves samples
    between children, so a candidate split costs only its walk.  The walk reads no position
    at or past ``limit`` (at least ``n_prime``); when it would need one (``limit`` below the
    number of examples) it returns ``(nan, nan, nan)``.
    """
    n = limit
    cut = limit < a.shape[0]
    nb = 0  # falling lines found beyond position n_prime (in Fb)
    p = n_prime
    d = np.inf
    if restricted:
        for pos in range(p_pos, n_prime):
            i = pos
            if b_sign[i] < 0:
                d = a[i]
                break
        while d == np.inf and p < n:
            i = p
            p += 1
            if b_sign[i] < 0:
                Fb[nb] = a[i]
                nb += 1
                if a[i] > 0.0:
                    d = a[i]
        if cut and d == np.inf:
            return np.nan, np.nan, np.nan
    k = kr
    j = 0  # index into Fb of the falling line paired with the riser R[k - 1]
    pr = n_prime  # position of R[k - 1]
    rv = 0.0
    if k > 0:
        pr, rv = _previous_riser(a, b_sign, pr)
    intercept = total
    alpha = 0.0
    last = 0.0
    piece_I[k] = intercept
    piece_start[k] = 0.0
    q = 0.0
    while True:
        beta = np.inf
        if k > 0:
            while nb <= j and p < n:  # find the next falling line
                i = p
                p += 1
                if b_sign[i] < 0:
                    Fb[nb] = a[i]
                    nb += 1
            if nb > j:
                beta = 0.5 * (Fb[j] - rv)
            elif cut:
                return np.nan, np.nan, np.nan
        if beta <= alpha:  # a tie: the next piece starts here
            intercept += Fb[j] - rv
            k -= 1
            j += 1
            if k > 0:
                pr, rv = _previous_riser(a, b_sign, pr)
            piece_I[k] = intercept
            piece_start[k] = alpha
            continue
        slope = 2.0 * k - n_prime
        if slope * c - intercept <= 0.0:
            q = alpha
            break
        if beta >= d:
            q = d
            break
        alpha = beta
        last = beta
        intercept += Fb[j] - rv
        k -= 1
        j += 1
        if k > 0:
            pr, rv = _previous_riser(a, b_sign, pr)
        piece_I[k] = intercept
        piece_start[k] = alpha
    slope = 2.0 * k - n_prime
    if q == np.inf:
        value_q = slope / n_prime
        step = max(2.0 * last, c)
    else:
        value_q = (intercept + slope * q) / (n_prime * (c + q))
        step = q + epsilon if epsilon > 0.0 else q
    if step >= d:
        step = d - min(end_gap, 0.5 * d)
    if step == q:
        return q, step, value_q
    if step < alpha:
        kk = k
        while kk < kr and piece_start[kk] > step:
            kk += 1
        return q, step, (piece_I[kk] + (2.0 * kk - n_prime) * step) / (n_prime * (c + step))
    while k > 0:
        while nb <= j and p < n:
            i = p
            p += 1
            if b_sign[i] < 0:
                Fb[nb] = a[i]
                nb += 1
        if nb <= j:
            if cut:
                return np.nan, np.nan, np.nan
            break
        beta = 0.5 * (Fb[j] - rv)
        if beta > step:
            break
        intercept += Fb[j] - rv
        k -= 1
        j += 1
        if k > 0:
            pr, rv = _previous_riser(a, b_sign, pr)
    return q, step, (intercept + (2.0 * k - n_prime) * step) / (n_prime * (c + step))


@njit(cache=True)
def _merge_by_value(a, left, right, out):  # pragma: no cover - compiled
    """Merge two lists of examples, each in increasing order of ``(a[i], i)``, into ``out``."""
    nl = left.shape[0]
    nr = right.shape[0]
    i = 0
    j = 0
    for k in range(nl + nr):
        if j >= nr:
            take_left = True
        elif i >= nl:
            take_left = False
        else:
            u = left[i]
            v = right[j]
            take_left = a[u] < a[v] or (a[u] == a[v] and u < v)
        if take_left:
            out[k] = left[i]
            i += 1
        else:
            out[k] = right[j]
            j += 1


@njit(cache=True)
def _sort_ties(a, group):  # pragma: no cover - compiled
    """Put each run of equal ``a`` in ``group`` (in increasing order of ``a``) in increasing
    order of the example; ``False`` when ``group`` is not in increasing order of ``a``."""
    n = group.shape[0]
    start = 0
    for k in range(1, n + 1):
        if k < n and a[group[k]] < a[group[k - 1]]:
            return False
        if k == n or a[group[k]] != a[group[start]]:
            if k - start > 1:
                run = group[start:k]
                for t in range(1, run.shape[0]):
                    if run[t] < run[t - 1]:
                        run[:] = np.sort(run)
                        break
            start = k
    return True


@njit(cache=True)
def stable_order_after_step(order, a, direction):  # pragma: no cover - compiled
    """``np.argsort(a, kind="stable")`` after a step ``a = a_old + alpha * direction``, with
    ``order`` the stable argsort of ``a_old`` and ``direction`` in {-1, 0, +1}.

    The examples of one direction keep their order (adding the same number is monotone in
    floating point too), so the new order merges at most three sorted lists in O(n): the
    examples that the rounding made equal are first put in increasing order of the example, as
    a stable sort has them.  Any other ``direction`` falls back to a stable sort."""
    n = order.shape[0]
    count = np.zeros(3, dtype=np.int64)
    for i in range(n):
        d = direction[i]
        if d == 1.0:
            count[0] += 1
        elif d == -1.0:
            count[1] += 1
        elif d == 0.0:
            count[2] += 1
        else:
            return np.argsort(a, kind="mergesort")
    up = np.empty(count[0], dtype=np.int64)
    down = np.empty(count[1], dtype=np.int64)
    still = np.empty(count[2], dtype=np.int64)
    count[:] = 0
    for p in range(n):
        i = order[p]
        d = direction[i]
        if d == 1.0:
            up[count[0]] = i
            count[0] += 1
        elif d == -1.0:
            down[count[1]] = i
            count[1] += 1
        else:
            still[count[2]] = i
            count[2] += 1
    if not (_sort_ties(a, up) and _sort_ties(a, down) and _sort_ties(a, still)):
        return np.argsort(a, kind="mergesort")
    moved = np.empty(up.shape[0] + down.shape[0], dtype=np.int64)
    _merge_by_value(a, up, down, moved)
    out = np.empty(n, dtype=np.int64)
    _merge_by_value(a, moved, still, out)
    return out
