r"""numba kernels of DMCBoost's phase I that score every split of a node (Zhai, Xia & Wang
2014, Alg. 1.2): the exact kernel over every interval of the step, with a segment tree
(:func:`phase1_split_scores`, :func:`phase1_seg_grid_split_scores`), over label pairs
(:func:`phase1_pair_split_scores`) and on a grid of intervals (:func:`phase1_grid_split_scores`);
see :mod:`~marginboost.boosting.dmcboost._phase1_kernels` for the error ranges they add up.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._direct_common import (
    bucket_by_code,
    clipped_alpha,
    exp_loss_minimizer,
    interval_alpha,
    log_exp_loss,
    star_interval,
    tie_break,
)
from .._segment_tree import seg_add_suffix, seg_argmin, seg_build, seg_find
from ._phase1_kernels import log_loss3, log_sums, profile_step


@njit(cache=True)
def _cumulate_by_code(codes, samples, f, counts, by_code, parts, cum):  # pragma: no cover
    """Bucket a node's samples by their code of feature ``f``
    (:func:`~marginboost.boosting._direct_common.bucket_by_code`) and set ``cum[b] = sum of
    parts[i]`` over the samples with code ``< b``.  Returns the smallest and the largest code
    present."""
    first, last = bucket_by_code(codes, samples, f, counts, by_code)
    if first == last:
        return first, last
    K = parts.shape[1]
    S = parts.shape[2]
    for b in range(256):
        for k in range(K):
            for s in range(S):
                cum[b + 1, k, s] = cum[b, k, s]
        for q in range(counts[b], counts[b + 1]):
            i = by_code[q]
            for k in range(K):
                for s in range(S):
                    cum[b + 1, k, s] += parts[i, k, s]
    return first, last


@njit(cache=True)
def _pair_sums(out_sums, left_below, right_all, right_below):  # pragma: no cover - compiled
    """The loss sums (G, B, R) of a split and label pair: outside the node, of the left
    child's samples predicting ``left`` and of the right child's predicting ``right`` (all node
    samples minus those below the split)."""
    G = out_sums[0] + left_below[0] + right_all[0] - right_below[0]
    B = out_sums[1] + left_below[1] + right_all[1] - right_below[1]
    R = out_sums[2] + left_below[2] + right_all[2] - right_below[2]
    return G, B, R


@njit(cache=True)
def _record_pair(
    errors,
    alpha,
    G,
    B,
    R,
    shift,
    reference,
    f,
    split,
    left,
    right,
    scores,
    left_values,
    right_values,
):  # pragma: no cover - compiled
    """Score one split and label pair, ``-(errors + tie_break(log exp loss at alpha))``, from
    its loss sums (:func:`_pair_sums`); keep it in ``scores[f, split]`` if it beats the best so
    far."""
    score = -(errors + tie_break(log_loss3(alpha, G, B, R, shift), reference))
    if score > scores[f, split]:
        scores[f, split] = score
        left_values[f, split] = left
        right_values[f, split] = right


@njit(cache=True)
def phase1_split_scores(
    codes,
    samples,
    lo,
    hi,
    V,
    base,
    parts,
    out_sums,
    shift,
    reference,
    scores,
    left_values,
    right_values,
    n_blocks,
    equal_labels=True,
    mode=0,
):  # pragma: no cover
    """Score every split ``code_f <= bin`` and label pair of one node (higher is better):
    ``-(errors + tie_break(log exp loss))`` at the best step; ``base`` holds the errors of
    the examples outside the node, ``parts[i, k]`` the (G, B, R) exponential-loss terms of
    example ``i`` predicted ``k`` and ``out_sums`` their sums outside the node; ``mode`` the
    step rule (:data:`~marginboost.boosting.dmcboost._phase1_kernels.STEP_MODES`,
    :func:`~marginboost.boosting.dmcboost._phase1_kernels.profile_step`).
    The segment-tree kernel :func:`phase1_seg_grid_split_scores` over every interval."""
    phase1_seg_grid_split_scores(
        codes,
        samples,
        lo,
        hi,
        np.arange(V.shape[0] + 1),
        V,
        base,
        parts,
        out_sums,
        shift,
        reference,
        scores,
        left_values,
        right_values,
        n_blocks,
        equal_labels,
        mode,
    )


@njit(cache=True)
def _flat_profile(base, D, E, n):  # pragma: no cover - compiled
    """``E[:n] = base[:n] + cumsum(D)[:n]``; returns the smallest of them."""
    run = D[0]
    E[0] = base[0] + run
    m = E[0]
    for j in range(1, n):
        run += D[j]
        E[j] = base[j] + run
        if E[j] < m:
            m = E[j]
    return m


@njit(cache=True)
def _profile_find(t, tag, size, E, n_flat, bound, target, leftmost):  # pragma: no cover
    """:func:`~marginboost.boosting._segment_tree.seg_find` on the segment tree
    (``n_flat == 0``) or the same search by a scan of the flat profile ``E[:n_flat]``: the
    leftmost position ``j >= bound`` (``leftmost``) or the rightmost ``j <= bound`` whose
    errors are ``target``; -1 if there is none.  With ``n_flat < 0``, ``E[:-n_flat]`` are
    the positions whose errors are ``target``, increasing, and the search is a bisection."""
    if n_flat == 0:
        return seg_find(t, tag, size, bound, target, leftmost)
    if n_flat < 0:
        where = E[:-n_flat]
        if leftmost:
            k = np.searchsorted(where, max(bound, 0))
            return where[k] if k < where.shape[0] else -1
        k = np.searchsorted(where, bound, side="right") - 1
        return where[k] if k >= 0 else -1
    if leftmost:
        for j in range(max(bound, 0), n_flat):
            if E[j] == target:
                return j
    else:
        for j in range(min(bound, n_flat - 1), -1, -1):
            if E[j] == target:
                return j
    return -1


@njit(cache=True)
def _seg_grid_step(t, tag, size, J, V, mode, G, B, E, n_flat, target):  # pragma: no cover
    r""":func:`~marginboost.boosting.dmcboost._phase1_kernels.profile_step`'s step from the
    segment tree of the errors on the positions of the
    intervals ``J`` (increasing), in :math:`O(\log |J|)`, or, when ``n_flat > 0``, from the
    same errors held flat in ``E[:n_flat]`` (the same searches by scans, so the same step).
    The steps of the positions increase with the position and the loss is convex in
    :math:`\alpha`, so only the position of the interval holding its minimizer (when ``J`` has
    it) and the nearest positions with the fewest errors on either side of it can hold the
    best step; with every interval in ``J`` these are the interval holding the minimizer and
    its nearest best neighbours.  ``target`` is the fewest errors (``t[1]``, or the smallest
    of ``E[:n_flat]``), which the caller has.  ``n_flat < 0``: the positions with the fewest
    errors are ``E[:-n_flat]`` (:func:`_profile_find`)."""
    if mode == 0:
        if n_flat == 0:
            return interval_alpha(J[seg_argmin(t, size)], V)
        return interval_alpha(
            J[_profile_find(t, tag, size, E, n_flat, np.int64(0), target, np.bool_(True))], V
        )
    lg, lb = log_sums(G, B)
    star = exp_loss_minimizer(lg, lb)
    k0 = star_interval(V, star)
    g_hi = np.searchsorted(J, k0)  # the first position of an interval >= k0
    has0 = g_hi < J.shape[0] and J[g_hi] == k0
    g_lo = g_hi if has0 else g_hi - 1  # the last position of an interval <= k0
    if mode == 2:
        if has0:
            above = _profile_find(t, tag, size, E, n_flat, g_hi, target, np.bool_(True))
            if above == g_hi:
                return clipped_alpha(k0, V, star)
            below = (
                _profile_find(t, tag, size, E, n_flat, g_hi - 1, target, np.bool_(False))
                if g_hi > 0
                else -1
            )
        else:
            above = _profile_find(t, tag, size, E, n_flat, g_hi, target, np.bool_(True))
            below = (
                _profile_find(t, tag, size, E, n_flat, g_lo, target, np.bool_(False))
                if g_lo >= 0
                else -1
            )
        best_alpha = np.nan
        best_loss = np.inf
        for g in (below, above):  # below first: ties go to the smaller step
            if g >= 0:
                alpha = clipped_alpha(J[g], V, star)
                loss = log_exp_loss(alpha, lg, lb, 0.0)
                if loss < best_loss or (loss == best_loss and alpha < best_alpha):
                    best_loss = loss
                    best_alpha = alpha
        return best_alpha
    best_alpha = np.nan
    best_loss = np.inf
    if has0 and _profile_find(t, tag, size, E, n_flat, g_hi, target, np.bool_(False)) == g_hi:
        # the interval of the minimizer is a best one: its midpoint and the nearest on each side
        below = (
            _profile_find(t, tag, size, E, n_flat, g_hi - 1, target, np.bool_(False))
            if g_hi > 0
            else -1
        )
        above = _profile_find(t, tag, size, E, n_flat, g_hi + 1, target, np.bool_(True))
        best_alpha = interval_alpha(k0, V)
        best_loss = log_exp_loss(best_alpha, lg, lb, 0.0)
    else:
        below = (
            _profile_find(t, tag, size, E, n_flat, g_lo, target, np.bool_(False))
            if g_lo >= 0
            else -1
        )
        above = _profile_find(t, tag, size, E, n_flat, g_lo + 1, target, np.bool_(True))
    for g in (below, above):  # below first: ties go to the smaller step
        if g >= 0:
            alpha = interval_alpha(J[g], V)
            loss = log_exp_loss(alpha, lg, lb, 0.0)
            if loss < best_loss or (loss == best_loss and alpha < best_alpha):
                best_loss = loss
                best_alpha = alpha
    return best_alpha


@njit(cache=True, parallel=True)
def phase1_seg_grid_split_scores(
    codes,
    samples,
    lo_g,
    hi_g,
    J,
    V,
    base_g,
    parts,
    out_sums,
    shift,
    reference,
    scores,
    left_values,
    right_values,
    n_blocks,
    equal_labels=True,
    mode=0,
    flat=0,
):  # pragma: no cover
    r""":func:`phase1_split_scores` with the errors evaluated on the intervals ``J`` only (the
    segment tree over the positions of ``J``, the steps of
    :func:`~marginboost.boosting.dmcboost._phase1_kernels.profile_step`): the same
    scores as :func:`phase1_grid_split_scores`, in :math:`O(K^2 n_{node} \log |J|)` per
    feature instead of :math:`O(\text{bins}\,K^2 |J|)`, the cheaper one on small nodes.
    ``lo_g`` / ``hi_g`` are the error ranges as positions in ``J`` and ``base_g`` the errors
    outside the node on ``J``.  Where ``|J|`` is at most the node's size the errors are kept
    as a flat array instead of the tree (``flat``: 0 chooses so, 1 always flat, -1 always the
    tree; the scores are the same).  A label pair with more errors at a split than the fewest
    scored there so far cannot score higher, so its step is not computed."""
    n_features = codes.shape[1]
    n_blocks = max(1, min(n_features, n_blocks))
    for block in prange(n_blocks):
        _phase1_seg_grid_block(
            codes,
            samples,
            lo_g,
            hi_g,
            J,
            V,
            base_g,
            parts,
            out_sums,
            shift,
            reference,
            scores,
            left_values,
            right_values,
            block * n_features // n_blocks,
            (block + 1) * n_features // n_blocks,
            equal_labels,
            mode,
            flat,
        )


@njit(cache=True)
def _phase1_seg_grid_block(
    codes,
    samples,
    lo_g,
    hi_g,
    J,
    V,
    base_g,
    parts,
    out_sums,
    shift,
    reference,
    scores,
    left_values,
    right_values,
    f_start,
    f_stop,
    equal_labels,
    mode,
    flat,
):  # pragma: no cover
    n_node = samples.shape[0]
    K = lo_g.shape[1]
    n_pos = J.shape[0]
    size = np.int64(1)  # not a literal: one compiled _profile_find
    while size < n_pos:
        size *= 2
    # the errors on J's positions as a segment tree, or flat: the range updates differenced
    # (O(1) each) and the errors summed up at a split whose bucket changed them (O(|J|)),
    # cheaper when |J| is at most the node's size (``flat`` 0; 1 always flat, -1 never); the
    # searches for the step are the same (:func:`_profile_find`), so are the scores
    n_flat = n_pos if (flat == 1 or (flat == 0 and n_pos <= n_node)) else 0
    E = np.empty(n_pos, dtype=np.int64)
    D = np.zeros(n_pos + 1, dtype=np.int64)
    t = np.empty(0, dtype=np.int64)
    tag = np.empty(0, dtype=np.int64)
    t0, tag0 = t, tag
    # the error ranges of the node's samples per label, in the order of their codes: the sweep
    # of every label pair reads them sequentially
    lo_by = np.empty((K, n_node), dtype=np.int64)
    hi_by = np.empty((K, n_node), dtype=np.int64)
    counts = np.zeros(257, dtype=np.int64)
    by_code = np.empty(n_node, dtype=np.int64)
    init = np.empty(n_pos + 1, dtype=np.int64)
    cum = np.zeros((257, K, 3))  # loss sums (G, B, R) of the samples with code < b, per label
    # the fewest errors scored so far at each split of the feature: a pair with more errors
    # scores lower than that pair (a score is -(errors + a tie-break in (0, 1))), so its step
    # and loss are not computed (as in _phase1_grid_block)
    fewest = np.empty(256, dtype=np.int64)
    for f in range(f_start, f_stop):
        first, last = _cumulate_by_code(codes, samples, f, counts, by_code, parts, cum)
        if first == last:
            continue
        fewest[:] = np.iinfo(np.int64).max
        for q in range(n_node):
            i = by_code[q]
            for k in range(K):
                lo_by[k, q] = lo_g[i, k]
                hi_by[k, q] = hi_g[i, k]
        for right in range(K):
            init[:] = 0
            for q in range(n_node):
                i = samples[q]
                init[lo_g[i, right]] += 1
                init[hi_g[i, right]] -= 1
            run = 0
            for j in range(n_pos):
                run += init[j]
                init[j] = base_g[j] + run
            if n_flat == 0:
                t0, tag0 = seg_build(init[:n_pos], size)
            for left in range(K):
                if left == right and not equal_labels:
                    continue
                if n_flat == 0:
                    t = t0.copy()
                    tag = tag0.copy()
                else:
                    D[:] = 0
                code = first
                stale = True  # whether E no longer holds the errors (flat profile only)
                while code < last:
                    for q in range(counts[code], counts[code + 1]):
                        lo_r, hi_r = lo_by[right, q], hi_by[right, q]
                        lo_l, hi_l = lo_by[left, q], hi_by[left, q]
                        if lo_r == lo_l and hi_r == hi_l:
                            continue  # the same error range under both labels
                        stale = True
                        if n_flat == 0:
                            if lo_r < hi_r:
                                seg_add_suffix(t, tag, size, lo_r, hi_r, np.int64(-1))
                            if lo_l < hi_l:
                                seg_add_suffix(t, tag, size, lo_l, hi_l, np.int64(1))
                        else:  # D: the changes to the right label's errors, differenced
                            if lo_r < hi_r:
                                D[lo_r] -= 1
                                D[hi_r] += 1
                            if lo_l < hi_l:
                                D[lo_l] += 1
                                D[hi_l] -= 1
                    split = code
                    if n_flat == 0:
                        errors = t[1]
                    elif stale:
                        errors = _flat_profile(init, D, E, n_flat)
                        stale = False
                    if errors <= fewest[split]:
                        fewest[split] = errors
                        G, B, R = _pair_sums(
                            out_sums, cum[split + 1, left], cum[256, right], cum[split + 1, right]
                        )
                        _record_pair(
                            errors,
                            _seg_grid_step(t, tag, size, J, V, mode, G, B, E, n_flat, errors),
                            G,
                            B,
                            R,
                            shift,
                            reference,
                            f,
                            split,
                            left,
                            right,
                            scores,
                            left_values,
                            right_values,
                        )
                    code += 1
                    while counts[code + 1] == counts[code]:
                        code += 1


#: Most labels :func:`phase1_pair_split_scores` handles (its label sets are bit masks).
PAIR_KERNEL_MAX_LABELS = 62


@njit(cache=True, parallel=True)
def phase1_pair_split_scores(
    codes,
    samples,
    lo_g,
    hi_g,
    J,
    V,
    base_g,
    parts,
    out_sums,
    shift,
    reference,
    scores,
    left_values,
    right_values,
    n_blocks,
    mode=0,
):  # pragma: no cover
    r""":func:`phase1_seg_grid_split_scores` (leaf labels may be equal, at most
    :data:`PAIR_KERNEL_MAX_LABELS` labels) in :math:`O(K |J|)` per split instead of
    :math:`O(K^2 |J|)`: the same scores and label pairs, bit for bit.

    At a split the errors of the pair (left label :math:`l`, right label :math:`r`) on
    interval :math:`j` are :math:`P_l(j) + S_r(j)`, :math:`P_l` the errors of the left child's
    samples under :math:`l` and :math:`S_r` those of the right child's under :math:`r` plus
    the errors outside the node.  The fewest errors of any pair are therefore
    :math:`E^* = \min_j (\min_l P_l(j) + \min_r S_r(j))`, and the pairs that reach them are
    those with :math:`P_l(j) = \min P(j)` and :math:`S_r(j) = \min S(j)` on an interval
    where the two minima sum to :math:`E^*`.  Only those pairs can hold the best score of
    the split (a score is :math:`-(\text{errors} + t)`, :math:`t \in (0, 1)`), so only
    their steps are computed, in the order of the segment-tree kernel's loops (right label,
    then left label), whose first best pair is kept on exact ties."""
    n_features = codes.shape[1]
    n_blocks = max(1, min(n_features, n_blocks))
    for block in prange(n_blocks):
        _phase1_pair_block(
            codes,
            samples,
            lo_g,
            hi_g,
            J,
            V,
            base_g,
            parts,
            out_sums,
            shift,
            reference,
            scores,
            left_values,
            right_values,
            block * n_features // n_blocks,
            (block + 1) * n_features // n_blocks,
            mode,
        )


@njit(cache=True)
def _phase1_pair_block(
    codes,
    samples,
    lo_g,
    hi_g,
    J,
    V,
    base_g,
    parts,
    out_sums,
    shift,
    reference,
    scores,
    left_values,
    right_values,
    f_start,
    f_stop,
    mode,
):  # pragma: no cover
    n_node = samples.shape[0]
    K = lo_g.shape[1]
    n_pos = J.shape[0]
    big = np.iinfo(np.int64).max // 4
    # BT[j, k]: the errors outside the node plus those of all the node's samples under label
    # k, on position j (the same for every feature)
    BT = np.zeros((n_pos + 1, K), dtype=np.int64)
    for q in range(n_node):
        i = samples[q]
        for k in range(K):
            if lo_g[i, k] < hi_g[i, k]:
                BT[lo_g[i, k], k] += 1
                BT[hi_g[i, k], k] -= 1
    for j in range(1, n_pos):
        for k in range(K):
            BT[j, k] += BT[j - 1, k]
    for j in range(n_pos):
        for k in range(K):
            BT[j, k] += base_g[j]
    DP = np.empty((n_pos + 1, K), dtype=np.int64)  # the left child's errors, differenced
    P = np.empty((n_pos, K), dtype=np.int64)
    run = np.empty(K, dtype=np.int64)
    min_p = np.empty(n_pos, dtype=np.int64)
    min_s = np.empty(n_pos, dtype=np.int64)
    cand = np.empty(K, dtype=np.int64)  # per right label, the left labels to score (bits)
    # the positions where the minima sum to the fewest errors, with the labels reaching the
    # minima there (bits), and one pair's positions with the fewest errors
    best_j = np.empty(n_pos, dtype=np.int64)
    best_left = np.empty(n_pos, dtype=np.int64)
    best_right = np.empty(n_pos, dtype=np.int64)
    where = np.empty(n_pos, dtype=np.int64)
    t = np.empty(0, dtype=np.int64)  # the step's searches run on the flat profile E
    counts = np.zeros(257, dtype=np.int64)
    by_code = np.empty(n_node, dtype=np.int64)
    cum = np.zeros((257, K, 3))
    for f in range(f_start, f_stop):
        first, last = _cumulate_by_code(codes, samples, f, counts, by_code, parts, cum)
        if first == last:
            continue
        DP[:] = 0
        code = first
        while code < last:
            for q in range(counts[code], counts[code + 1]):
                i = by_code[q]
                for k in range(K):
                    if lo_g[i, k] < hi_g[i, k]:
                        DP[lo_g[i, k], k] += 1
                        DP[hi_g[i, k], k] -= 1
            split = code
            run[:] = 0
            fewest = big
            for j in range(n_pos):
                mp = big
                ms = big
                for k in range(K):
                    run[k] += DP[j, k]
                    P[j, k] = run[k]
                    mp = min(mp, run[k])
                    ms = min(ms, BT[j, k] - run[k])
                min_p[j] = mp
                min_s[j] = ms
                fewest = min(fewest, mp + ms)
            cand[:] = 0
            n_best = 0
            for j in range(n_pos):
                if min_p[j] + min_s[j] == fewest:
                    lefts = np.int64(0)
                    rights = np.int64(0)
                    for k in range(K):
                        if P[j, k] == min_p[j]:
                            lefts |= np.int64(1) << k
                        if BT[j, k] - P[j, k] == min_s[j]:
                            rights |= np.int64(1) << k
                    for k in range(K):
                        if (rights >> k) & 1:
                            cand[k] |= lefts
                    best_j[n_best] = j
                    best_left[n_best] = lefts
                    best_right[n_best] = rights
                    n_best += 1
            for right in range(K):
                if cand[right] == 0:
                    continue
                for left in range(K):
                    if (cand[right] >> left) & 1 == 0:
                        continue
                    n_where = 0  # the pair's positions with the fewest errors
                    for g in range(n_best):
                        if (best_left[g] >> left) & 1 and (best_right[g] >> right) & 1:
                            where[n_where] = best_j[g]
                            n_where += 1
                    G, B, R = _pair_sums(
                        out_sums, cum[split + 1, left], cum[256, right], cum[split + 1, right]
                    )
                    _record_pair(
                        fewest,
                        _seg_grid_step(
                            t, t, np.int64(1), J, V, mode, G, B, where, -n_where, fewest
                        ),
                        G,
                        B,
                        R,
                        shift,
                        reference,
                        f,
                        split,
                        left,
                        right,
                        scores,
                        left_values,
                        right_values,
                    )
            code += 1
            while counts[code + 1] == counts[code]:
                code += 1


@njit(cache=True, parallel=True)
def phase1_grid_split_scores(
    codes,
    samples,
    lo_g,
    hi_g,
    J,
    V,
    base_g,
    parts,
    out_sums,
    shift,
    reference,
    scores,
    left_values,
    right_values,
    n_blocks,
    equal_labels=True,
    mode=0,
):  # pragma: no cover - compiled
    """:func:`phase1_split_scores` with the errors evaluated on the intervals ``J`` only.

    ``lo_g`` / ``hi_g`` are the error ranges of :func:`phase1_split_scores` mapped to positions
    in ``J`` (example ``i`` predicting ``k`` is an error on ``J[lo_g[i, k]:hi_g[i, k]]``) and
    ``base_g`` the errors of the examples outside the node on ``J``.  Per feature the node's
    samples are counted into per-bin, per-label error profiles on ``J`` (``O(n_node K)``), the
    profiles cumulated over the bins, and every split and label pair read off them
    (``O(bins K^2 |J|)``).  With ``J`` every interval ``0..m`` the scores equal those of
    :func:`phase1_split_scores`."""
    n_features = codes.shape[1]
    n_blocks = max(1, min(n_features, n_blocks))
    for block in prange(n_blocks):
        _phase1_grid_block(
            codes,
            samples,
            lo_g,
            hi_g,
            J,
            V,
            base_g,
            parts,
            out_sums,
            shift,
            reference,
            scores,
            left_values,
            right_values,
            block * n_features // n_blocks,
            (block + 1) * n_features // n_blocks,
            equal_labels,
            mode,
        )


@njit(cache=True)
def _phase1_grid_block(
    codes,
    samples,
    lo_g,
    hi_g,
    J,
    V,
    base_g,
    parts,
    out_sums,
    shift,
    reference,
    scores,
    left_values,
    right_values,
    f_start,
    f_stop,
    equal_labels,
    mode,
):  # pragma: no cover - compiled
    # the samples are read in their own order (no bucketing): the per-example arrays are
    # large on big data, and a sequential pass over them is several times faster
    n_node = samples.shape[0]
    K = lo_g.shape[1]
    G = J.shape[0]
    index = np.empty(256, dtype=np.int64)
    present = np.empty(256, dtype=np.int64)
    rest = np.empty(G, dtype=np.int64)
    errs = np.empty(G, dtype=np.int64)
    for f in range(f_start, f_stop):
        index[:] = -1
        for q in range(n_node):
            index[codes[samples[q], f]] = 0
        P = 0
        for b in range(256):
            if index[b] == 0:
                index[b] = P
                present[P] = b
                P += 1
        if P < 2:
            continue
        # prof[p, k, g]: errors on J[g] of the samples with code <= present[p] predicting k;
        # cum[p, k, s]: the sums of their exponential-loss terms
        prof = np.zeros((P, K, G + 1), dtype=np.int64)
        cum = np.zeros((P, K, 3))
        for q in range(n_node):
            i = samples[q]
            p = index[codes[i, f]]
            for k in range(K):
                for t in range(3):
                    cum[p, k, t] += parts[i, k, t]
                if lo_g[i, k] < hi_g[i, k]:
                    prof[p, k, lo_g[i, k]] += 1
                    prof[p, k, hi_g[i, k]] -= 1
        for p in range(P):
            for k in range(K):
                run = 0
                for g in range(G):
                    run += prof[p, k, g]
                    prof[p, k, g] = run + (prof[p - 1, k, g] if p > 0 else 0)
                if p > 0:
                    for t in range(3):
                        cum[p, k, t] += cum[p - 1, k, t]
        # a pair's errors are at least min(rest) + min(left profile): a pair whose bound
        # exceeds the fewest errors found so far at its split scores lower than that pair
        # (a score is -(errors + a tie-break in (0, 1))), so it is skipped unscored
        low = np.empty((P, K), dtype=np.int64)
        for p in range(P):
            for k in range(K):
                m = prof[p, k, 0]
                for g in range(1, G):
                    if prof[p, k, g] < m:
                        m = prof[p, k, g]
                low[p, k] = m
        for p in range(P - 1):
            split = present[p]
            fewest = np.iinfo(np.int64).max
            for right in range(K):
                low_rest = np.iinfo(np.int64).max
                for g in range(G):
                    rest[g] = base_g[g] + prof[P - 1, right, g] - prof[p, right, g]
                    if rest[g] < low_rest:
                        low_rest = rest[g]
                for left in range(K):
                    if left == right and not equal_labels:
                        continue
                    if low_rest + low[p, left] > fewest:
                        continue
                    for g in range(G):
                        errs[g] = rest[g] + prof[p, left, g]
                    Gs, Bs, Rs = _pair_sums(
                        out_sums, cum[p, left], cum[P - 1, right], cum[p, right]
                    )
                    errors, alpha = profile_step(errs, J, V, mode, Gs, Bs)
                    if errors < fewest:
                        fewest = errors
                    _record_pair(
                        errors,
                        alpha,
                        Gs,
                        Bs,
                        Rs,
                        shift,
                        reference,
                        f,
                        split,
                        left,
                        right,
                        scores,
                        left_values,
                        right_values,
                    )
