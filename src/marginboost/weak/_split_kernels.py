"""numba kernels of the split finding of the tree learners (private; ``tree.py`` uses them).

A node's score from its channel sums (``node_score``, ``node_weight``), the best split of a
node histogram (``find_best_split``: each feature's best bin from cumulative sums over bins, in
parallel for large histograms, then the features in increasing order, ties within
``TIE_RTOL``), the partition of a node's samples, and the purity tests read off the samples.
IN: ``hist``, ``stats``, ``codes``, ``sample_index`` (never written); OUT: the returned values,
or the ``feature_*`` arrays that ``_feature_best_split`` fills.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._input_kernels import CONFIDENCE, ERROR, GINI, MULTICLASS_ERROR, SQUARED_ERROR

#: Relative tolerance under which two split scores count as tied (ties go to the lowest
#: feature, then the lowest bin).  It absorbs the rounding differences of summing the same
#: numbers in another order, so permuting samples never changes the chosen split.
TIE_RTOL = 1e-10


@njit(cache=True)
def labels_are_pure(labels, weight, sample_index):
    """``node_is_pure`` of the label statistics: all samples of positive weight share a class."""
    first = -1
    for k in range(sample_index.shape[0]):
        i = sample_index[k]
        if weight[i] > 0.0:
            if first < 0:
                first = labels[i]
            elif labels[i] != first:
                return False
    return True


@njit(cache=True)
def node_weight(sums, criterion):
    """Total weight of a node from its channel sums (used by ``min_weight_leaf``)."""
    if criterion == ERROR or criterion == SQUARED_ERROR:
        return sums[0]
    total = 0.0
    for c in range(sums.shape[0]):
        total += sums[c]
    return total


@njit(cache=True)
def node_score(sums, criterion):
    """Score of a node as a leaf (higher is better); a split's gain is children minus parent."""
    n_channels = sums.shape[0]
    if criterion == ERROR:
        return abs(sums[1])
    if criterion == SQUARED_ERROR:
        weight = sums[0]
        if weight <= 0.0:
            return 0.0
        total = 0.0
        for c in range(1, n_channels):
            total += sums[c] * sums[c]
        return total / weight
    if criterion == CONFIDENCE:
        # Channels in pairs (W-_k, W+_k); subtracted histograms can hold -1e-17 for a zero.
        total = 0.0
        for c in range(0, n_channels - 1, 2):
            total += np.sqrt(max(sums[c], 0.0) * max(sums[c + 1], 0.0))
        return -2.0 * total
    if criterion == MULTICLASS_ERROR:
        best = sums[0]
        for c in range(1, n_channels):
            if sums[c] > best:
                best = sums[c]
        return best
    weight = 0.0
    for c in range(n_channels):
        weight += sums[c]
    if weight <= 0.0:
        return 0.0
    total = 0.0
    if criterion == GINI:
        for c in range(n_channels):
            total += sums[c] * sums[c]
        return total / weight
    for c in range(n_channels):  # ENTROPY: -W * H(p) = sum_k c_k log(c_k / W)
        if sums[c] > 0.0:
            total += sums[c] * np.log(sums[c] / weight)
    return total


#: Below this many weight cells (features x bins x weight channels) the features of a node
#: are scanned on one thread: starting the threads would cost more than the scan, whose bins
#: past a feature's last non-empty one are never read (on Adult's 108 features with two
#: channels, 0.06 ms on one thread against 0.11 ms on two).
_SERIAL_SPLIT_CELLS = 1 << 16


def find_best_split(
    hist: np.ndarray, criterion: int, min_samples_leaf: int, min_weight_leaf: float
) -> tuple[int, int, float, float, int]:
    """Best split ``code <= bin`` over all features of a node histogram (count channel last).

    Returns ``(feature, bin, gain, parent_score, n_left)``; ``feature == -1`` when no split
    satisfies ``min_samples_leaf`` / ``min_weight_leaf``.  Ties (within ``TIE_RTOL``) go to the
    lowest bin of a feature, then to the lowest feature: each feature's best bin is found
    independently (in parallel for large histograms), then the features are compared in
    increasing order.  The choice between one thread and several is made here, in Python, so
    a fit whose histograms are all small never compiles the parallel kernel (the slowest to
    compile); both give the same split.
    """
    n_features, n_bins, width = hist.shape
    if n_features * n_bins * (width - 1) < _SERIAL_SPLIT_CELLS:
        return _find_best_split_serial(hist, criterion, min_samples_leaf, min_weight_leaf)
    return _find_best_split_parallel(hist, criterion, min_samples_leaf, min_weight_leaf)


@njit(cache=True)
def _find_best_split_serial(hist, criterion, min_samples_leaf, min_weight_leaf):
    """:func:`find_best_split` with the features scanned on one thread."""
    args = _split_arguments(hist, criterion, min_samples_leaf, min_weight_leaf)
    for feature in range(hist.shape[0]):
        _feature_best_split(feature, *args)
    return _best_of_features(args)


@njit(cache=True)
def _find_best_split_parallel(hist, criterion, min_samples_leaf, min_weight_leaf):
    """:func:`find_best_split` with the features shared between the threads."""
    args = _split_arguments(hist, criterion, min_samples_leaf, min_weight_leaf)
    _features_best_splits_parallel(*args)
    return _best_of_features(args)


@njit(cache=True)
def _split_arguments(hist, criterion, min_samples_leaf, min_weight_leaf):
    """The parent's sums and score, and the per-feature outputs that
    :func:`_feature_best_split` fills, as the argument tuple of the feature scans."""
    n_features, n_bins, width = hist.shape
    n_channels = width - 1
    parent = np.zeros(n_channels)
    n_node = 0.0
    for b in range(n_bins):
        n_node += hist[0, b, n_channels]
        for c in range(n_channels):
            parent[c] += hist[0, b, c]
    parent_score = node_score(parent, criterion)
    parent_weight = node_weight(parent, criterion)
    feature_bin = np.full(n_features, -1, dtype=np.int64)
    feature_gain = np.full(n_features, -np.inf)
    feature_scale = np.zeros(n_features)
    feature_n_left = np.zeros(n_features)
    return (
        hist,
        criterion,
        min_samples_leaf,
        min_weight_leaf,
        parent,
        parent_score,
        parent_weight,
        n_node,
        feature_bin,
        feature_gain,
        feature_scale,
        feature_n_left,
    )


@njit(cache=True)
def _best_of_features(args):
    """The features compared in increasing order (ties within ``TIE_RTOL`` to the lowest),
    from the argument tuple of :func:`_split_arguments` once the features are scanned."""
    parent_score, feature_bin, feature_gain = args[5], args[8], args[9]
    feature_scale, feature_n_left = args[10], args[11]
    best_feature = -1
    best_gain = -np.inf
    best_scale = 0.0
    for feature in range(feature_bin.shape[0]):
        if feature_bin[feature] < 0:
            continue
        if feature_gain[feature] > best_gain + TIE_RTOL * max(feature_scale[feature], best_scale):
            best_gain = feature_gain[feature]
            best_scale = feature_scale[feature]
            best_feature = feature
    if best_feature < 0:
        return -1, -1, -np.inf, parent_score, 0
    return (
        best_feature,
        feature_bin[best_feature],
        best_gain,
        parent_score,
        int(feature_n_left[best_feature]),
    )


@njit(cache=True, parallel=True)
def _features_best_splits_parallel(
    hist,
    criterion,
    min_samples_leaf,
    min_weight_leaf,
    parent,
    parent_score,
    parent_weight,
    n_node,
    feature_bin,
    feature_gain,
    feature_scale,
    feature_n_left,
):
    for feature in prange(hist.shape[0]):
        _feature_best_split(
            np.int64(
                feature
            ),  # prange's index is unsigned: one specialization with the serial loop
            hist,
            criterion,
            min_samples_leaf,
            min_weight_leaf,
            parent,
            parent_score,
            parent_weight,
            n_node,
            feature_bin,
            feature_gain,
            feature_scale,
            feature_n_left,
        )


@njit(cache=True)
def _feature_best_split(
    feature,
    hist,
    criterion,
    min_samples_leaf,
    min_weight_leaf,
    parent,
    parent_score,
    parent_weight,
    n_node,
    feature_bin,
    feature_gain,
    feature_scale,
    feature_n_left,
):
    """The best bin of one feature: fills entry ``feature`` of the four output arrays."""
    n_bins = hist.shape[1]
    n_channels = hist.shape[2] - 1
    left = np.zeros(n_channels)
    right = np.zeros(n_channels)
    n_left = 0.0
    best_gain = -np.inf
    best_scale = 0.0
    for b in range(n_bins - 1):
        count_b = hist[feature, b, n_channels]
        if count_b == 0.0:
            continue  # same partition as the previous bin (or an empty left side)
        n_left += count_b
        for c in range(n_channels):
            left[c] += hist[feature, b, c]
        n_right = n_node - n_left
        if n_right < min_samples_leaf:
            break
        if n_left < min_samples_leaf:
            continue
        left_weight = node_weight(left, criterion)
        if left_weight < min_weight_leaf or parent_weight - left_weight < min_weight_leaf:
            continue
        for c in range(n_channels):
            right[c] = parent[c] - left[c]
        score_left = node_score(left, criterion)
        score_right = node_score(right, criterion)
        gain = score_left + score_right - parent_score
        scale = abs(score_left) + abs(score_right) + abs(parent_score)
        if gain > best_gain + TIE_RTOL * max(scale, best_scale):
            best_gain = gain
            best_scale = scale
            feature_bin[feature] = b
            feature_n_left[feature] = n_left
    feature_gain[feature] = best_gain
    feature_scale[feature] = best_scale


@njit(cache=True)
def partition(codes, sample_index, feature, split_bin, n_left):
    """Split ``sample_index`` into the samples with ``code <= split_bin`` and the others.

    Order within each side is preserved.
    """
    left = np.empty(n_left, dtype=sample_index.dtype)
    right = np.empty(sample_index.shape[0] - n_left, dtype=sample_index.dtype)
    i_left = 0
    i_right = 0
    for k in range(sample_index.shape[0]):
        i = sample_index[k]
        if codes[i, feature] <= split_bin:
            left[i_left] = i
            i_left += 1
        else:
            right[i_right] = i
            i_right += 1
    return left, right


@njit(cache=True)
def node_is_pure(stats, sample_index, criterion):
    """Whether no split can make a node purer, decided from the samples themselves.

    Histogram sums obtained by subtraction carry rounding errors (a pure child can show a
    class weight of 1e-17), so purity is never read off them.  For the class-weight layouts
    a node is pure when at most one channel is positive on its samples; for the
    squared-error layout ``[w, w*t_1, ..]`` when all samples of positive weight share the
    same targets ``stats[i, c] / stats[i, 0]``.
    """
    n_channels = stats.shape[1]
    if criterion == SQUARED_ERROR:
        first = -1
        for k in range(sample_index.shape[0]):
            i = sample_index[k]
            if stats[i, 0] <= 0.0:
                continue
            if first < 0:
                first = i
                continue
            for c in range(1, n_channels):
                if stats[i, c] / stats[i, 0] != stats[first, c] / stats[first, 0]:
                    return False
        return True
    positive_channel = -1
    for k in range(sample_index.shape[0]):
        i = sample_index[k]
        for c in range(n_channels):
            if stats[i, c] > 0.0 and c != positive_channel:
                if positive_channel >= 0:
                    return False
                positive_channel = c
    return True
