r"""numba kernels of DMCBoost's multi-class direct trees (Zhai, Xia & Wang 2014, Alg. 1.2).

Phase I (0-1 loss)
------------------
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

Phase II (margin derivative)
----------------------------
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

from ._direct_kernels import (
    _bucket_by_code,
    _seg_add_suffix,
    _seg_argmin,
    _seg_build,
    _seg_find,
    _star_interval,
    clipped_alpha,
    exp_loss_minimizer,
    interval_alpha,
    log_exp_loss,
    tie_break,
)

#: Phase I's step rules (``DMCBoost(step=...)``) as the kernels number them.
STEP_MODES = {"midpoint": 0, "best-midpoint": 1, "exp-loss": 2}

NEG = -np.inf


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
def _log_sums(G, B):  # pragma: no cover - compiled
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
    (:func:`~marginboost.boosting._direct_kernels.clipped_alpha`), the best of them.  ``G`` and
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
    lg, lb = _log_sums(G, B)
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


@njit(cache=True)
def _cumulate_by_code(codes, samples, f, counts, by_code, parts, cum):  # pragma: no cover
    """Bucket a node's samples by their code of feature ``f`` (:func:`_bucket_by_code`) and
    set ``cum[b] = sum of parts[i]`` over the samples with code ``< b``.  Returns the smallest
    and the largest code present."""
    first, last = _bucket_by_code(codes, samples, f, counts, by_code)
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
    step rule (:data:`STEP_MODES`, :func:`profile_step`).
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
    """:func:`~marginboost.boosting._direct_kernels._seg_find` on the segment tree
    (``n_flat == 0``) or the same search by a scan of the flat profile ``E[:n_flat]``: the
    leftmost position ``j >= bound`` (``leftmost``) or the rightmost ``j <= bound`` whose
    errors are ``target``; -1 if there is none.  With ``n_flat < 0``, ``E[:-n_flat]`` are
    the positions whose errors are ``target``, increasing, and the search is a bisection."""
    if n_flat == 0:
        return _seg_find(t, tag, size, bound, target, leftmost)
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
    r""":func:`profile_step`'s step from the segment tree of the errors on the positions of the
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
            return interval_alpha(J[_seg_argmin(t, size)], V)
        return interval_alpha(J[_profile_find(t, tag, size, E, n_flat, 0, target, True)], V)
    lg, lb = _log_sums(G, B)
    star = exp_loss_minimizer(lg, lb)
    k0 = _star_interval(V, star)
    g_hi = np.searchsorted(J, k0)  # the first position of an interval >= k0
    has0 = g_hi < J.shape[0] and J[g_hi] == k0
    g_lo = g_hi if has0 else g_hi - 1  # the last position of an interval <= k0
    if mode == 2:
        if has0:
            above = _profile_find(t, tag, size, E, n_flat, g_hi, target, True)
            if above == g_hi:
                return clipped_alpha(k0, V, star)
            below = (
                _profile_find(t, tag, size, E, n_flat, g_hi - 1, target, False) if g_hi > 0 else -1
            )
        else:
            above = _profile_find(t, tag, size, E, n_flat, g_hi, target, True)
            below = _profile_find(t, tag, size, E, n_flat, g_lo, target, False) if g_lo >= 0 else -1
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
    if has0 and _profile_find(t, tag, size, E, n_flat, g_hi, target, False) == g_hi:
        # the interval of the minimizer is a best one: its midpoint and the nearest on each side
        below = _profile_find(t, tag, size, E, n_flat, g_hi - 1, target, False) if g_hi > 0 else -1
        above = _profile_find(t, tag, size, E, n_flat, g_hi + 1, target, True)
        best_alpha = interval_alpha(k0, V)
        best_loss = log_exp_loss(best_alpha, lg, lb, 0.0)
    else:
        below = _profile_find(t, tag, size, E, n_flat, g_lo, target, False) if g_lo >= 0 else -1
        above = _profile_find(t, tag, size, E, n_flat, g_lo + 1, target, True)
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
    segment tree over the positions of ``J``, the steps of :func:`profile_step`): the same
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
    size = 1
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
                t0, tag0 = _seg_build(init[:n_pos], size)
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
                                _seg_add_suffix(t, tag, size, lo_r, hi_r, -1)
                            if lo_l < hi_l:
                                _seg_add_suffix(t, tag, size, lo_l, hi_l, 1)
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
                        _seg_grid_step(t, t, 1, J, V, mode, G, B, where, -n_where, fewest),
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
        _phase2_block(
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
def _phase2_block(
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
    """The rest of ``dmcboost_search._bottom`` once the n'-th smallest ``vstar`` of
    ``value`` is known: the sum S of the n' smallest values and its right derivative S'.

    S adds the values below ``vstar`` in sample order as numpy's ``sum`` of them does
    (``pairwise_sum``), then ``vstar`` for each place left; the slopes are -1, 0 or +1,
    whose sums are exact in any order (the ties contribute their smallest slopes first).
    """
    n = value.shape[0]
    below = np.empty(n)
    m = 0
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
    S = pairwise_sum(below, 0, m) + (n_prime - m) * vstar
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
