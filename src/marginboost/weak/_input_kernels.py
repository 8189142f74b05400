"""numba kernels of the tree learners' inputs, and the constants the kernel modules share.

The criterion identifiers (each names the layout of the per-sample statistics ``stats``, see
``tree.py``, and the node score that ``_split_kernels.node_score`` computes from it),
``N_BINS``, the one-pass checks of labels and weights, and the two-channel statistics of
binary labels.  IN: the caller's 1-D arrays, never written; OUT: a new ``stats`` matrix
(``binary_stats``) or indices (-1 for none).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Criterion identifiers shared with tree.py.
ERROR = 0  # channels [|w|, w*y]            score |sum w*y|
GINI = 1  # channels [w_k, k = 0..K-1]      score sum_k c_k^2 / W
ENTROPY = 2  # channels [w_k]                  score sum_k c_k log(c_k / W)
SQUARED_ERROR = 3  # channels [w, w*t_1, .., w*t_K]  score sum_k S_k^2 / W
MULTICLASS_ERROR = 4  # channels [W_ik]                score max_k c_k
CONFIDENCE = 5  # channels [W-_k, W+_k] pairs     score -2 sum_k sqrt(W-_k W+_k)
# (Schapire & Singer's Z of confidence-rated leaves, negated)


N_BINS = 256  # uint8 codes address at most 256 bins


@njit(cache=True)
def binary_stats(y, weight, error_criterion):
    """Two-channel statistics of labels ``y`` in {-1, +1}, in one pass.

    ``error_criterion``: ``[|w|, w*y]``; otherwise ``[w if y < 0, w if y > 0]`` (zero in the
    other channel).
    """
    n = y.shape[0]
    stats = np.empty((n, 2))
    for i in range(n):
        if error_criterion:
            stats[i, 0] = abs(weight[i])
            stats[i, 1] = weight[i] * y[i]
        else:
            stats[i, 0] = weight[i] if y[i] < 0 else 0.0
            stats[i, 1] = weight[i] if y[i] > 0 else 0.0
    return stats


# The input checks first test the whole array without branches (a loop the compiler
# vectorizes: 0.007 ms on 48,842 entries against 0.03 ms for a scan that stops at the first
# failure) and look for the index only when it fails.


@njit(cache=True)
def first_not_finite(values):
    """Index of the first NaN or infinite entry of a 1-D array, or -1 (one pass, no copy)."""
    bad = np.uint8(0)
    for i in range(values.shape[0]):
        bad |= np.uint8(values[i] - values[i] != 0.0)  # NaN for NaN and +-inf only
    if bad:
        for i in range(values.shape[0]):
            if not np.isfinite(values[i]):
                return i
    return -1


@njit(cache=True)
def first_not_sign(values):
    """Index of the first entry of a 1-D array that is neither -1 nor +1, or -1."""
    bad = np.uint8(0)
    for i in range(values.shape[0]):
        bad |= np.uint8(abs(values[i]) != 1.0)
    if bad:
        for i in range(values.shape[0]):
            if abs(values[i]) != 1.0:
                return i
    return -1


@njit(cache=True)
def weight_problems(weight):
    """``(index of the first negative weight, index of the first non-zero weight)``, -1 for none."""
    nonzero = -1
    for i in range(weight.shape[0]):
        if weight[i] != 0.0:
            nonzero = i
            break
    any_negative = np.uint8(0)
    for i in range(weight.shape[0]):
        any_negative |= np.uint8(weight[i] < 0.0)
    negative = -1
    if any_negative:
        for i in range(weight.shape[0]):
            if weight[i] < 0.0:
                negative = i
                break
    return negative, nonzero
