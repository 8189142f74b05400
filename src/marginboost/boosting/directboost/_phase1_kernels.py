r"""numba kernels of DirectBoost's phase 1, the 0-1 loss (Zhai et al. 2013).

Let :math:`V_0 < \dots < V_{m-1}` be the distinct positive values of :math:`|a_i|` and
:math:`r_i` the index of :math:`|a_i|` in it (``-1`` when :math:`a_i = 0`).  The open intervals
of :math:`\alpha > 0` between them are numbered :math:`k = 0, \dots, m`.  For a weak classifier
with :math:`b_i = y_i h(x_i)` the number of errors on interval :math:`k` is

.. math:: E(k) = \#\{i : a_i < 0,\ r_i \ge k\} + \#\{i : b_i = -1,\ r_i < k\},

because an example that :math:`h` classifies correctly is wrong exactly until its line crosses
zero, and one that :math:`h` misclassifies is wrong from its crossing on.  The first term does
not depend on :math:`h`; the second changes by a suffix :math:`k > r_i` when example :math:`i`
changes side.  Growing a tree, the node's samples move from the right child to the left one bin
by bin, and a segment tree keeps :math:`\min_k E(k)` under these suffix updates in
:math:`O(\log n)`: all the splits of one feature cost :math:`O(n \log n)`.

The step along a weak classifier and the segment tree are shared with DMCBoost
(:mod:`~marginboost.boosting._direct_common`, :mod:`~marginboost.boosting._segment_tree`).
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


@njit(cache=True)
def zero_one_ranks(a):  # pragma: no cover - compiled
    """``(r, V)``: rank of every ``|a_i|`` among the distinct positive values ``V`` (-1 for 0)."""
    n = a.shape[0]
    absa = np.abs(a)
    order = np.argsort(absa, kind="mergesort")
    r = np.full(n, -1, dtype=np.int64)
    V = np.empty(n)
    m = 0
    for idx in range(n):
        i = order[idx]
        v = absa[i]
        if v == 0.0:
            continue
        if m == 0 or v != V[m - 1]:
            V[m] = v
            m += 1
        r[i] = m - 1
    return r, V[:m].copy()


@njit(cache=True)
def errors_by_interval(a, r, m, bad):  # pragma: no cover - compiled
    """:math:`E(k)` for ``k = 0..m`` given the misclassified-by-h mask ``bad`` (b_i = -1)."""
    E = np.zeros(m + 2, dtype=np.int64)
    for i in range(a.shape[0]):
        if a[i] < 0.0:  # counted on k = 0..r_i
            E[0] += 1
            E[r[i] + 1] -= 1
        if bad[i]:  # counted on k = r_i + 1..m
            E[r[i] + 1] += 1
    for k in range(1, m + 1):
        E[k] += E[k - 1]
    return E[: m + 1]


@njit(cache=True, parallel=True)
def phase1_split_scores(
    codes,
    samples,
    y,
    a,
    r,
    V,
    base,
    bad_out,
    w,
    shift,
    reference,
    scores,
    left_values,
    right_values,
    n_blocks,
    exp_step,
):  # pragma: no cover - compiled
    """Score every split ``code_f <= bin`` of one node for the 0-1 loss (higher is better).

    ``base[k]`` is :math:`E(k)` counting only the examples outside the node, ``w`` the shifted
    :math:`e^{-a_i - shift}` and ``bad_out`` :math:`\\sum w_i` over the examples outside the
    node that the partial tree misclassifies.  The score of a split is
    ``-(errors + tie_break(log exp loss))`` at its step: with ``exp_step`` the step of
    :func:`exp_loss_step`, otherwise the midpoint of the first interval with the fewest
    errors (:func:`~marginboost.boosting._direct_common.interval_alpha`).  The features are
    shared out in ``n_blocks`` contiguous blocks (one per numba thread); every score depends on
    its feature alone, so the result does not depend on the number of blocks.
    """
    n_features = codes.shape[1]
    n_blocks = max(1, min(n_features, n_blocks))
    for block in prange(n_blocks):
        _phase1_feature_block(
            codes,
            samples,
            y,
            a,
            r,
            V,
            base,
            bad_out,
            w,
            shift,
            reference,
            scores,
            left_values,
            right_values,
            block * n_features // n_blocks,
            (block + 1) * n_features // n_blocks,
            exp_step,
        )


@njit(cache=True)
def _phase1_feature_block(
    codes,
    samples,
    y,
    a,
    r,
    V,
    base,
    bad_out,
    w,
    shift,
    reference,
    scores,
    left_values,
    right_values,
    f_start,
    f_stop,
    exp_step,
):  # pragma: no cover - compiled
    """:func:`phase1_split_scores` for the features ``f_start .. f_stop - 1``."""
    n_node = samples.shape[0]
    m = V.shape[0]
    size = 1
    while size < m + 1:
        size *= 2
    total_w = 0.0
    for i in range(w.shape[0]):
        total_w += w[i]
    counts = np.zeros(257, dtype=np.int64)
    by_code = np.empty(n_node, dtype=np.int64)
    init = np.empty(m + 2, dtype=np.int64)
    bad_at = np.empty(256)
    for f in range(f_start, f_stop):
        first, last = bucket_by_code(codes, samples, f, counts, by_code)
        if first == last:
            continue  # one code in the node: no split
        # moving a bucket between children costs O(log m) per sample: sweep the thresholds
        # upwards (moving every bucket but the last) or downwards (every bucket but the first),
        # whichever moves fewer samples; the error counts are integers, so both agree exactly
        upwards = counts[last] <= n_node - counts[first + 1]
        for s in range(2):
            left = 1.0 if s == 0 else -1.0  # the left child predicts `left`, the right `-left`
            # exponential-loss mass of the misclassified examples at each threshold, summed in
            # one fixed (upward) order so that it does not depend on the sweep direction
            bad_w = bad_out
            for k in range(n_node):
                i = samples[k]
                if y[i] == left:
                    bad_w += w[i]
            for code in range(last):
                for k in range(counts[code], counts[code + 1]):
                    i = by_code[k]
                    if y[i] == left:
                        bad_w -= w[i]
                    else:
                        bad_w += w[i]
                bad_at[code] = bad_w
            # start with every sample on the right (upwards) or on the left (downwards)
            init[:] = 0
            for k in range(n_node):
                i = samples[k]
                if (y[i] == left) == upwards:
                    init[r[i] + 1] += 1
            run = 0
            for k in range(m + 1):
                run += init[k]
                init[k] = base[k] + run
            t, tag = seg_build(init[: m + 1], size)
            code = first if upwards else last
            while True:
                # move bucket `code` across; `split` is the threshold this leaves
                for k in range(counts[code], counts[code + 1]):
                    i = by_code[k]
                    if (y[i] == left) == upwards:  # now correct
                        seg_add_suffix(t, tag, size, r[i] + 1, m + 1, np.int64(-1))
                    else:
                        seg_add_suffix(t, tag, size, r[i] + 1, m + 1, np.int64(1))
                if upwards:
                    split = code
                else:
                    split = code - 1
                    while counts[split + 1] == counts[split]:
                        split -= 1
                errors = t[1]
                bad_w = bad_at[split]
                good_w = total_w - bad_w
                lg = np.log(good_w) if good_w > 0 else -np.inf
                lb = np.log(bad_w) if bad_w > 0 else -np.inf
                if exp_step:
                    loss = _seg_exp_step(
                        t, tag, size, V, exp_loss_minimizer(lg, lb), lg, lb, shift
                    )[1]
                else:
                    loss = log_exp_loss(interval_alpha(seg_argmin(t, size), V), lg, lb, shift)
                score = -(errors + tie_break(loss, reference))
                if score > scores[f, split]:
                    scores[f, split] = score
                    left_values[f, split] = left
                    right_values[f, split] = -left
                # the next bucket to move
                if upwards:
                    code += 1
                    while counts[code + 1] == counts[code]:
                        code += 1
                    if code == last:
                        break
                else:
                    if split == first:
                        break
                    code = split


@njit(cache=True)
def _log_weights(bad, w):  # pragma: no cover - compiled
    """Logs of the shifted exponential-loss weight of the examples a weak classifier gets
    right and wrong (``-inf`` for an empty sum)."""
    good_w = 0.0
    bad_w = 0.0
    for i in range(w.shape[0]):
        if bad[i]:
            bad_w += w[i]
        else:
            good_w += w[i]
    return (np.log(good_w) if good_w > 0 else -np.inf), (np.log(bad_w) if bad_w > 0 else -np.inf)


@njit(cache=True)
def phase1_line(a, r, V, bad, w, shift, reference, exp_step):  # pragma: no cover - compiled
    """``(errors, alpha, score, log exp loss)`` of one weak classifier (``bad``: b_i = -1),
    at the step the split scores use (see :func:`phase1_split_scores`)."""
    if exp_step:
        errors, alpha, loss = exp_loss_step(a, r, V, bad, w, shift)
        return errors, alpha, -(errors + tie_break(loss, reference)), loss
    m = V.shape[0]
    E = errors_by_interval(a, r, m, bad)
    kstar = 0
    for k in range(1, m + 1):
        if E[k] < E[kstar]:
            kstar = k
    alpha = interval_alpha(np.int64(kstar), V)  # not a literal: one compiled interval_alpha
    lg, lb = _log_weights(bad, w)
    loss = log_exp_loss(alpha, lg, lb, shift)
    return E[kstar], alpha, -(E[kstar] + tie_break(loss, reference)), loss


@njit(cache=True)
def exp_loss_step(a, r, V, bad, w, shift):  # pragma: no cover - compiled
    """``(errors, alpha, log exp loss)``: among all the intervals with the fewest errors, the
    step with the smallest exponential loss
    (:func:`~marginboost.boosting._direct_common.clipped_alpha` in each; ties: the smaller
    step).  The loss is convex in :math:`\\alpha`, so only the interval holding
    :math:`\\alpha^*`, or the nearest minimum-error interval on each side of it, can win."""
    m = V.shape[0]
    E = errors_by_interval(a, r, m, bad)
    emin = E[0]
    for k in range(1, m + 1):
        if E[k] < emin:
            emin = E[k]
    lg, lb = _log_weights(bad, w)
    star = exp_loss_minimizer(lg, lb)
    k0 = star_interval(V, star)
    if E[k0] == emin:
        alpha = clipped_alpha(k0, V, star)
        return emin, alpha, log_exp_loss(alpha, lg, lb, shift)
    best_alpha = np.nan
    best_loss = np.inf
    for k in range(k0 - 1, -1, -1):  # the nearest minimum-error interval below
        if E[k] == emin:
            best_alpha = clipped_alpha(k, V, star)
            best_loss = log_exp_loss(best_alpha, lg, lb, shift)
            break
    for k in range(k0 + 1, m + 1):  # and above
        if E[k] == emin:
            alpha = clipped_alpha(k, V, star)
            loss = log_exp_loss(alpha, lg, lb, shift)
            if loss < best_loss or (loss == best_loss and alpha < best_alpha):
                best_alpha = alpha
                best_loss = loss
            break
    return emin, best_alpha, best_loss


@njit(cache=True)
def _seg_exp_step(t, tag, size, V, star, lg, lb, shift):  # pragma: no cover - compiled
    """:func:`exp_loss_step`'s ``(alpha, log loss)`` from the segment tree of :math:`E(k)`."""
    target = t[1]
    k0 = star_interval(V, star)
    right = seg_find(t, tag, size, k0, target, np.bool_(True))
    if right == k0:
        alpha = clipped_alpha(k0, V, star)
        return alpha, log_exp_loss(alpha, lg, lb, shift)
    best_alpha = np.nan
    best_loss = np.inf
    left = seg_find(t, tag, size, k0 - 1, target, np.bool_(False)) if k0 > 0 else -1
    if left >= 0:
        best_alpha = clipped_alpha(left, V, star)
        best_loss = log_exp_loss(best_alpha, lg, lb, shift)
    if right >= 0:
        alpha = clipped_alpha(right, V, star)
        loss = log_exp_loss(alpha, lg, lb, shift)
        if loss < best_loss or (loss == best_loss and alpha < best_alpha):
            best_alpha = alpha
            best_loss = loss
    return best_alpha, best_loss
