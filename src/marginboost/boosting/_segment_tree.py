"""A minimum segment tree with lazily added suffixes, in numba, shared by the phase-1 kernels of
DirectBoost (:mod:`~marginboost.boosting.directboost._phase1_kernels`) and DMCBoost
(:mod:`~marginboost.boosting.dmcboost._phase1_split_kernels`): the leaves are the intervals of
the step, a leaf's value the training errors on its interval, and moving a sample from one
child of a split to the other adds to a suffix (or a range) of them."""

from __future__ import annotations

import numpy as np
from numba import njit

BIG = 1 << 40  # padding of unused segment-tree leaves


@njit(cache=True)
def seg_build(values, size):  # pragma: no cover - compiled
    t = np.full(2 * size, BIG, dtype=np.int64)
    tag = np.zeros(2 * size, dtype=np.int64)
    for k in range(values.shape[0]):
        t[size + k] = values[k]
    for p in range(size - 1, 0, -1):
        t[p] = min(t[2 * p], t[2 * p + 1])
    return t, tag


@njit(cache=True)
def seg_add_suffix(t, tag, size, start, stop, value):  # pragma: no cover - compiled
    """Add ``value`` to leaves ``start..stop-1`` and restore the minima above them."""
    lo = start + size
    hi = stop + size
    l0 = lo
    r0 = hi - 1
    while lo < hi:
        if lo & 1:
            t[lo] += value
            tag[lo] += value
            lo += 1
        if hi & 1:
            hi -= 1
            t[hi] += value
            tag[hi] += value
        lo >>= 1
        hi >>= 1
    p = l0 >> 1
    while p >= 1:
        t[p] = min(t[2 * p], t[2 * p + 1]) + tag[p]
        p >>= 1
    p = r0 >> 1
    while p >= 1:
        t[p] = min(t[2 * p], t[2 * p + 1]) + tag[p]
        p >>= 1


@njit(cache=True)
def seg_argmin(t, size):  # pragma: no cover - compiled
    """Leftmost leaf holding the global minimum ``t[1]``."""
    p = 1
    while p < size:
        p = 2 * p if t[2 * p] <= t[2 * p + 1] else 2 * p + 1
    return p - size


@njit(cache=True)
def seg_find(t, tag, size, bound, target, leftmost):  # pragma: no cover - compiled
    """The leftmost leaf ``j >= bound`` (``leftmost``) or the rightmost leaf ``j <= bound``
    whose value is ``target`` (no value is below it); -1 if there is none.  A depth-first
    search from the root that skips subtrees outside the range or with a larger minimum."""
    nodes = np.empty(128, dtype=np.int64)
    accs = np.empty(128, dtype=np.int64)
    los = np.empty(128, dtype=np.int64)
    his = np.empty(128, dtype=np.int64)
    nodes[0], accs[0], los[0], his[0] = 1, 0, 0, size
    sp = 1
    while sp > 0:
        sp -= 1
        p, acc, lo, hi = nodes[sp], accs[sp], los[sp], his[sp]
        outside = hi <= bound if leftmost else lo > bound
        if outside or t[p] + acc > target:
            continue
        if p >= size:
            return p - size
        mid = (lo + hi) // 2
        acc += tag[p]
        # push the child to visit second first
        first, second = (2 * p, 2 * p + 1) if leftmost else (2 * p + 1, 2 * p)
        nodes[sp], accs[sp] = second, acc
        los[sp], his[sp] = (mid, hi) if leftmost else (lo, mid)
        nodes[sp + 1], accs[sp + 1] = first, acc
        los[sp + 1], his[sp + 1] = (lo, mid) if leftmost else (mid, hi)
        sp += 2
    return -1
