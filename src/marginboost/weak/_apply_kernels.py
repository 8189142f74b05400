"""numba kernels that apply a fitted tree to binned samples (private; ``tree.py`` uses them).

``apply_tree`` (the leaf of every sample) and ``tree_values`` (its leaf value): a stump in one
branch-free pass, a deeper tree walked with absorbing leaves, on several threads for many
samples.  IN: ``codes`` and the tree's node arrays (never written); OUT: the returned array.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numpy.typing import NDArray

from ._input_kernels import N_BINS

#: Trees deeper than one split are walked on one thread below this many samples (waking the
#: threads costs more than the walk); a stump is one comparison per sample, always on one
#: thread (on 2 cores, over Adult's 48,842 samples: 0.01 ms, against 0.2 ms for the walk).
_PARALLEL_APPLY_SAMPLES = 20_000


def _is_stump(
    node_leaf: NDArray[np.int64], node_left: NDArray[np.int64], node_right: NDArray[np.int64]
) -> bool:
    return bool(
        node_leaf.shape[0] == 3
        and node_leaf[0] < 0
        and node_leaf[node_left[0]] >= 0
        and node_leaf[node_right[0]] >= 0
    )


def apply_tree(
    codes: NDArray[np.uint8],
    node_feature: NDArray[np.int64],
    node_bin: NDArray[np.int64],
    node_left: NDArray[np.int64],
    node_right: NDArray[np.int64],
    node_leaf: NDArray[np.int64],
) -> NDArray[np.int64]:
    """Leaf index of every sample of ``codes`` in a tree stored as node arrays."""
    out: NDArray[np.int64]
    if _is_stump(node_leaf, node_left, node_right):
        leaves = np.array([node_leaf[node_left[0]], node_leaf[node_right[0]]], dtype=np.int64)
        out = _stump_values(codes[:, node_feature[0]], node_bin[0], leaves)
        return out
    kernel = _apply_parallel if codes.shape[0] >= _PARALLEL_APPLY_SAMPLES else _apply_serial
    out = kernel(codes, node_feature, node_bin, node_left, node_right, node_leaf)
    return out


def tree_values(
    codes: NDArray[np.uint8],
    node_feature: NDArray[np.int64],
    node_bin: NDArray[np.int64],
    node_left: NDArray[np.int64],
    node_right: NDArray[np.int64],
    node_leaf: NDArray[np.int64],
    values: NDArray[np.float64],
) -> NDArray[np.float64]:
    """``values[leaf]`` of every sample of ``codes`` (scalar leaf values)."""
    out: NDArray[np.float64]
    if _is_stump(node_leaf, node_left, node_right):
        pair = np.array([values[node_leaf[node_left[0]]], values[node_leaf[node_right[0]]]])
        out = _stump_values(codes[:, node_feature[0]], node_bin[0], pair)
        return out
    out = values[apply_tree(codes, node_feature, node_bin, node_left, node_right, node_leaf)]
    return out


@njit(cache=True)
def _stump_values(column, threshold, pair):
    """``pair[0]`` where ``column <= threshold``, else ``pair[1]`` (one pass, no branch)."""
    out = np.empty(column.shape[0], dtype=pair.dtype)
    left = pair[0]
    right = pair[1]
    for i in range(column.shape[0]):
        out[i] = left if column[i] <= threshold else right
    return out


@njit(cache=True)
def _walk_arrays(node_feature, node_bin, node_left, node_right, node_leaf):
    """The tree with absorbing leaves, and its depth.

    A leaf sends every sample to itself (feature 0, bin 255, both children itself), so that
    every sample takes exactly ``depth`` steps: a loop of fixed length, with no branch that
    depends on the sample.
    """
    n_nodes = node_leaf.shape[0]
    feature = node_feature.copy()
    threshold = node_bin.copy()
    left = node_left.copy()
    right = node_right.copy()
    for node in range(n_nodes):
        if node_leaf[node] >= 0:
            feature[node] = 0
            threshold[node] = N_BINS - 1
            left[node] = node
            right[node] = node
    node_depth = np.zeros(n_nodes, dtype=np.int64)
    changed = True
    while changed:  # children may come before their parents in a hand-made tree
        changed = False
        for node in range(n_nodes):
            if node_leaf[node] < 0:
                for child in (node_left[node], node_right[node]):
                    if node_depth[child] < node_depth[node] + 1:
                        node_depth[child] = node_depth[node] + 1
                        changed = True
    return feature, threshold, left, right, node_depth.max()


@njit(cache=True)
def _leaf_of(codes, i, depth, feature, threshold, left, right, node_leaf):
    node = 0
    for _ in range(depth):
        go_right = np.int64(codes[i, feature[node]] > threshold[node])
        node = left[node] + go_right * (right[node] - left[node])
    return node_leaf[node]


@njit(cache=True)
def _apply_serial(codes, node_feature, node_bin, node_left, node_right, node_leaf):
    feature, threshold, left, right, depth = _walk_arrays(
        node_feature, node_bin, node_left, node_right, node_leaf
    )
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        out[i] = _leaf_of(codes, i, depth, feature, threshold, left, right, node_leaf)
    return out


@njit(cache=True, parallel=True)
def _apply_parallel(codes, node_feature, node_bin, node_left, node_right, node_leaf):
    feature, threshold, left, right, depth = _walk_arrays(
        node_feature, node_bin, node_left, node_right, node_leaf
    )
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in prange(codes.shape[0]):
        out[i] = _leaf_of(codes, i, depth, feature, threshold, left, right, node_leaf)
    return out
