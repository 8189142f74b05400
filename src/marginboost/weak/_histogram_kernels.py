"""numba kernels of the node histograms of the tree learners (private; ``tree.py`` uses them).

Per-sample statistics are a float64 matrix ``stats`` of shape (n_samples, n_channels) whose
layout depends on the criterion (see ``tree.py``).  A node histogram is
``hist[feature, bin, channel]`` (the sum of the channel over the node's samples with that code),
with one extra last channel holding the number of samples.  The histogram of one child is built
from its samples and the sibling's is obtained by subtraction from the parent's.  Here:
``build_histogram`` (dense statistics, two-channel ones grouped four features at a time),
``build_label_histogram`` (one weight per sample on its own class), and the root's code counts
kept per read-only codes array (``root_counts``).  IN: ``codes``, ``stats``, ``sample_index``
(never written); OUT: the returned histogram, or the ``out``/``hist``/``counts`` argument of
the helpers that fill one.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit, prange
from numpy.typing import NDArray

from ._input_kernels import N_BINS


def build_histogram(
    codes: NDArray[np.uint8],
    stats: NDArray[np.float64],
    sample_index: NDArray[np.int64] | None = None,
) -> NDArray[np.float64]:
    """Per-feature, per-bin sums of ``stats`` over a node's samples, sample count last.

    Returns ``hist`` of shape (n_features, 256, n_channels + 1) whose last channel is the
    number of samples (as float64, exact below 2**53).  ``sample_index=None`` means all
    samples (the root node).
    """
    if stats.shape[1] == 2:
        if sample_index is None:
            return _histogram_two_channels_blocked(codes, stats, None, root_counts(codes))
        return _histogram_two_channels_blocked(codes, stats, sample_index)
    if sample_index is None:
        return _histogram_all(codes, stats)
    return _histogram_subset(codes, stats, sample_index)


# Each feature's histogram is accumulated in two interleaved copies (even and odd samples),
# summed at the end: consecutive samples with the same code (frequent for binary or
# low-cardinality features) then update different memory, which removes the store-to-load
# dependency that otherwise serializes the additions.


@njit(cache=True, parallel=True)
def _histogram_all_two_channels(codes, stats):
    n_samples, n_features = codes.shape
    hist = np.zeros((n_features, N_BINS, 3))
    for feature in prange(n_features):
        n_even = n_samples // 2 * 2
        column = codes[:, feature]
        even = np.zeros((N_BINS, 3))
        odd = np.zeros((N_BINS, 3))
        for i in range(0, n_even, 2):
            b_even = column[i]  # load both codes before any store (no aliasing stalls)
            b_odd = column[i + 1]
            even[b_even, 0] += stats[i, 0]
            even[b_even, 1] += stats[i, 1]
            even[b_even, 2] += 1.0
            odd[b_odd, 0] += stats[i + 1, 0]
            odd[b_odd, 1] += stats[i + 1, 1]
            odd[b_odd, 2] += 1.0
        for i in range(n_even, n_samples):
            b = column[i]
            even[b, 0] += stats[i, 0]
            even[b, 1] += stats[i, 1]
            even[b, 2] += 1.0
        for b in range(N_BINS):
            for c in range(3):
                hist[feature, b, c] = even[b, c] + odd[b, c]
    return hist


@njit(cache=True, parallel=True)
def _histogram_subset_two_channels(codes, stats, sample_index):
    # The node's statistics are gathered once into contiguous arrays, so the per-feature
    # loops read them sequentially.
    n_features = codes.shape[1]
    n_node = sample_index.shape[0]
    stat0 = np.empty(n_node)
    stat1 = np.empty(n_node)
    for k in range(n_node):
        stat0[k] = stats[sample_index[k], 0]
        stat1[k] = stats[sample_index[k], 1]
    hist = np.zeros((n_features, N_BINS, 3))
    for feature in prange(n_features):
        n_even = n_node // 2 * 2
        column = codes[:, feature]
        even = np.zeros((N_BINS, 3))
        odd = np.zeros((N_BINS, 3))
        for k in range(0, n_even, 2):
            b_even = column[sample_index[k]]
            b_odd = column[sample_index[k + 1]]
            even[b_even, 0] += stat0[k]
            even[b_even, 1] += stat1[k]
            even[b_even, 2] += 1.0
            odd[b_odd, 0] += stat0[k + 1]
            odd[b_odd, 1] += stat1[k + 1]
            odd[b_odd, 2] += 1.0
        for k in range(n_even, n_node):
            b = column[sample_index[k]]
            even[b, 0] += stat0[k]
            even[b, 1] += stat1[k]
            even[b, 2] += 1.0
        for b in range(N_BINS):
            for c in range(3):
                hist[feature, b, c] = even[b, c] + odd[b, c]
    return hist


# The two-channel histograms (every binary criterion) are built by
# ``_histogram_two_channels_blocked``: features with few distinct codes (one-hot indicators,
# small integers) are processed four at a time in one pass over the samples, which shares the
# loads of the statistics and gives the processor four independent chains of updates instead
# of one.  Every bin still receives the same additions in the same order as in
# ``_histogram_all_two_channels`` / ``_histogram_subset_two_channels`` (even samples, odd
# samples, then their sum), so the histograms are bitwise identical to theirs (tested).

#: Features with at most this many distinct codes among the first ``_PROBE_SAMPLES`` samples
#: are grouped four at a time (their few bins stay in the L1 cache).
_FEW_CODES = 16
_PROBE_SAMPLES = 1024


@njit(cache=True)
def probe_counts(codes, sample_index, feature, counts):
    """Fill ``counts`` with the codes of ``feature`` among the node's first
    ``_PROBE_SAMPLES`` samples (all samples: ``sample_index`` None); return how many."""
    n_node = codes.shape[0] if sample_index is None else sample_index.shape[0]
    n_probe = min(n_node, _PROBE_SAMPLES)
    counts[:] = 0
    for k in range(n_probe):
        i = k if sample_index is None else sample_index[k]
        counts[codes[i, feature]] += 1
    return n_probe


@njit(cache=True)
def _feature_tasks(codes, sample_index):
    """Groups of features processed together: rows of 4 feature indices, -1 padded.

    Features with few distinct codes (among the node's first samples) go four to a row,
    the others one to a row; the rows alternate between the two kinds so that the static
    split of the rows between threads gets a similar amount of work on each thread.  The
    grouping only affects speed, never the histogram.
    """
    return group_tasks(codes, sample_index, np.arange(codes.shape[1]))


@njit(cache=True)
def group_tasks(codes, sample_index, candidates):
    """``_feature_tasks`` for the features listed in ``candidates`` only."""
    counts = np.zeros(N_BINS, dtype=np.int64)
    few = np.empty(candidates.shape[0], dtype=np.int64)
    many = np.empty(candidates.shape[0], dtype=np.int64)
    n_few = 0
    n_many = 0
    for feature in candidates:
        probe_counts(codes, sample_index, feature, counts)
        if np.count_nonzero(counts) <= _FEW_CODES:
            few[n_few] = feature
            n_few += 1
        else:
            many[n_many] = feature
            n_many += 1
    n_groups = (n_few + 3) // 4
    tasks = np.full((n_groups + n_many, 4), -1, dtype=np.int64)
    t = 0
    g = 0
    m = 0
    while g < n_groups or m < n_many:
        if g < n_groups:
            for j in range(min(4, n_few - 4 * g)):
                tasks[t, j] = few[4 * g + j]
            t += 1
            g += 1
        if m < n_many:
            tasks[t, 0] = many[m]
            t += 1
            m += 1
    return tasks


@njit(cache=True)
def _code(column, sample_index, k):
    if sample_index is None:
        return column[k]
    return column[sample_index[k]]


@njit(cache=True)
def accumulate_one_two_channels(column, stat0, stat1, sample_index, out):
    """Histogram of one feature, additions in the order of ``_histogram_all_two_channels``."""
    n_node = stat0.shape[0]
    n_even = n_node // 2 * 2
    even = np.zeros((N_BINS, 3))
    odd = np.zeros((N_BINS, 3))
    for k in range(0, n_even, 2):
        b_even = _code(column, sample_index, k)
        b_odd = _code(column, sample_index, k + 1)
        even[b_even, 0] += stat0[k]
        even[b_even, 1] += stat1[k]
        even[b_even, 2] += 1.0
        odd[b_odd, 0] += stat0[k + 1]
        odd[b_odd, 1] += stat1[k + 1]
        odd[b_odd, 2] += 1.0
    for k in range(n_even, n_node):
        b = _code(column, sample_index, k)
        even[b, 0] += stat0[k]
        even[b, 1] += stat1[k]
        even[b, 2] += 1.0
    for b in range(N_BINS):
        for c in range(3):
            out[b, c] = even[b, c] + odd[b, c]


@njit(cache=True)
def _accumulate_four_two_channels(
    c0, c1, c2, c3, stat0, stat1, sample_index, even, odd, counts=True
):
    """Histograms of four features in one pass (``even``/``odd`` of shape (4, 256, 3), zeroed).

    Each feature's bins get exactly the additions of ``accumulate_one_two_channels``, in
    the same order; only the interleaving between features differs.  ``counts=False``: the
    count channel is not touched (the root's counts are known, see ``root_counts``).
    """
    n_node = stat0.shape[0]
    n_even = n_node // 2 * 2
    for k in range(0, n_even, 2):
        se0 = stat0[k]
        se1 = stat1[k]
        so0 = stat0[k + 1]
        so1 = stat1[k + 1]
        a0 = _code(c0, sample_index, k)
        b0 = _code(c0, sample_index, k + 1)
        a1 = _code(c1, sample_index, k)
        b1 = _code(c1, sample_index, k + 1)
        a2 = _code(c2, sample_index, k)
        b2 = _code(c2, sample_index, k + 1)
        a3 = _code(c3, sample_index, k)
        b3 = _code(c3, sample_index, k + 1)
        even[0, a0, 0] += se0
        even[0, a0, 1] += se1
        odd[0, b0, 0] += so0
        odd[0, b0, 1] += so1
        even[1, a1, 0] += se0
        even[1, a1, 1] += se1
        odd[1, b1, 0] += so0
        odd[1, b1, 1] += so1
        even[2, a2, 0] += se0
        even[2, a2, 1] += se1
        odd[2, b2, 0] += so0
        odd[2, b2, 1] += so1
        even[3, a3, 0] += se0
        even[3, a3, 1] += se1
        odd[3, b3, 0] += so0
        odd[3, b3, 1] += so1
        if counts:  # the counts (channel 2) are exact in any order
            even[0, a0, 2] += 1.0
            odd[0, b0, 2] += 1.0
            even[1, a1, 2] += 1.0
            odd[1, b1, 2] += 1.0
            even[2, a2, 2] += 1.0
            odd[2, b2, 2] += 1.0
            even[3, a3, 2] += 1.0
            odd[3, b3, 2] += 1.0
    for k in range(n_even, n_node):
        s0 = stat0[k]
        s1 = stat1[k]
        for j, column in enumerate((c0, c1, c2, c3)):
            b = _code(column, sample_index, k)
            even[j, b, 0] += s0
            even[j, b, 1] += s1
            if counts:
                even[j, b, 2] += 1.0


@njit(cache=True, parallel=True)
def _histogram_two_channels_blocked(codes, stats, sample_index, counts=None):
    """``counts``: the root's ``_root_counts`` (with ``sample_index=None`` only), or None."""
    n_features = codes.shape[1]
    tasks = _feature_tasks(codes, sample_index)
    if tasks.shape[0] == n_features:  # no group of four: the one-feature kernels
        if sample_index is None:
            return _histogram_all_two_channels(codes, stats)
        return _histogram_subset_two_channels(codes, stats, sample_index)
    if sample_index is None:
        stat0 = np.ascontiguousarray(stats[:, 0])
        stat1 = np.ascontiguousarray(stats[:, 1])
    else:
        # gathered once into contiguous arrays, read sequentially by every feature
        n_node = sample_index.shape[0]
        stat0 = np.empty(n_node)
        stat1 = np.empty(n_node)
        for k in range(n_node):
            stat0[k] = stats[sample_index[k], 0]
            stat1[k] = stats[sample_index[k], 1]
    if counts is None:
        hist = np.zeros((n_features, N_BINS, 3))
        for t in prange(tasks.shape[0]):
            _accumulate_task_two_channels(codes, tasks[t], stat0, stat1, sample_index, hist, True)
    else:
        hist = counts.copy()  # the counts; the tasks add the weight channels
        for t in prange(tasks.shape[0]):
            _accumulate_task_two_channels(codes, tasks[t], stat0, stat1, None, hist, False)
    return hist


@njit(cache=True)
def _accumulate_task_two_channels(codes, task, stat0, stat1, sample_index, hist, counts):
    """The histograms of one row of ``_feature_tasks`` (a group of four, or single features);
    ``counts=False`` (the root, whose counts ``hist`` holds already): the weights only."""
    if task[3] < 0:  # a single feature, or a short last group: one at a time
        for j in range(4):
            feature = task[j]
            if feature < 0:
                continue
            if counts:
                accumulate_one_two_channels(
                    codes[:, feature], stat0, stat1, sample_index, hist[feature]
                )
            else:
                accumulate_weights_two_channels(codes[:, feature], stat0, stat1, hist[feature])
        return
    even = np.zeros((4, N_BINS, 3))
    odd = np.zeros((4, N_BINS, 3))
    _accumulate_four_two_channels(
        codes[:, task[0]],
        codes[:, task[1]],
        codes[:, task[2]],
        codes[:, task[3]],
        stat0,
        stat1,
        sample_index,
        even,
        odd,
        counts,
    )
    for j in range(4):
        feature = task[j]
        for b in range(N_BINS):
            for c in range(3 if counts else 2):
                hist[feature, b, c] = even[j, b, c] + odd[j, b, c]


_ROOT_COUNTS: dict[int, tuple[weakref.ref[NDArray[np.uint8]], NDArray[np.float64]]] = {}


def _cannot_change(array: NDArray[np.uint8]) -> bool:
    """Whether neither ``array`` nor any array it views can be written."""
    base: object = array
    while isinstance(base, np.ndarray):
        if base.flags.writeable:
            return False
        base = base.base
    return base is None


def root_counts(codes: NDArray[np.uint8]) -> NDArray[np.float64] | None:
    """``_root_counts(codes)`` for a codes array that cannot be written, computed once and
    kept while that array lives (the root histograms of every round start from it); ``None``
    for a writable array."""
    return kept_for(codes, _ROOT_COUNTS, _root_counts)


def kept_for(codes: NDArray[np.uint8], cache: dict[int, Any], compute: Callable[..., Any]) -> Any:
    """``compute(codes)``, computed once per read-only ``codes`` array and kept in ``cache``
    while the array lives; ``None`` for an array whose contents could change."""
    if not _cannot_change(codes):
        return None
    key = id(codes)
    entry = cache.get(key)
    if entry is not None and entry[0]() is codes:
        return entry[1]
    value = compute(codes)

    def forget(_: weakref.ref[NDArray[np.uint8]]) -> None:
        cache.pop(key, None)

    cache[key] = (weakref.ref(codes, forget), value)
    return value


# The root's counts per feature and bin do not depend on the weights: the bundled search
# histogram starts from them (computed once per codes array, in ``search_layout``) and adds
# only the two weight channels, one store fewer per sample and feature.  Counts are integers
# below 2**53, exact in any order, so the histogram is the same.


@njit(cache=True)
def _root_counts(codes):
    """``(n_features, 256, 3)``: zeros, with every feature's code counts in channel 2."""
    n, n_features = codes.shape
    template = np.zeros((n_features, N_BINS, 3))
    for j in range(n_features):
        counts = np.zeros(N_BINS, dtype=np.int64)
        for i in range(n):
            counts[codes[i, j]] += 1
        for b in range(N_BINS):
            template[j, b, 2] = counts[b]
    return template


@njit(cache=True)
def accumulate_weights_two_channels(column, stat0, stat1, out):
    """The weight channels of ``accumulate_one_two_channels`` (same additions, same order)."""
    n_node = stat0.shape[0]
    n_even = n_node // 2 * 2
    even = np.zeros((N_BINS, 2))
    odd = np.zeros((N_BINS, 2))
    for k in range(0, n_even, 2):
        b_even = column[k]
        b_odd = column[k + 1]
        even[b_even, 0] += stat0[k]
        even[b_even, 1] += stat1[k]
        odd[b_odd, 0] += stat0[k + 1]
        odd[b_odd, 1] += stat1[k + 1]
    for k in range(n_even, n_node):
        b = column[k]
        even[b, 0] += stat0[k]
        even[b, 1] += stat1[k]
    for b in range(N_BINS):
        out[b, 0] = even[b, 0] + odd[b, 0]
        out[b, 1] = even[b, 1] + odd[b, 1]


@njit(cache=True)
def _accumulate(column, sample_index, node_stats, n_node, use_all_samples, out):
    """Two-way interleaved histogram of one feature (any number of channels)."""
    n_channels = node_stats.shape[1]
    odd = np.zeros(out.shape)
    n_even = n_node // 2 * 2
    for k in range(0, n_even, 2):
        if use_all_samples:
            b_even, b_odd = column[k], column[k + 1]
        else:
            b_even, b_odd = column[sample_index[k]], column[sample_index[k + 1]]
        for c in range(n_channels):
            out[b_even, c] += node_stats[k, c]
            odd[b_odd, c] += node_stats[k + 1, c]
        out[b_even, n_channels] += 1.0
        odd[b_odd, n_channels] += 1.0
    for k in range(n_even, n_node):
        b = column[k] if use_all_samples else column[sample_index[k]]
        for c in range(n_channels):
            out[b, c] += node_stats[k, c]
        out[b, n_channels] += 1.0
    out += odd


@njit(cache=True, parallel=True)
def _histogram_all(codes, stats):
    n_samples, n_features = codes.shape
    n_channels = stats.shape[1]
    hist = np.zeros((n_features, N_BINS, n_channels + 1))
    no_index = np.zeros(0, dtype=np.int64)
    for feature in prange(n_features):
        _accumulate(codes[:, feature], no_index, stats, n_samples, True, hist[feature])
    return hist


@njit(cache=True, parallel=True)
def _histogram_subset(codes, stats, sample_index):
    n_features = codes.shape[1]
    n_channels = stats.shape[1]
    n_node = sample_index.shape[0]
    node_stats = np.empty((n_node, n_channels))
    for k in range(n_node):
        for c in range(n_channels):
            node_stats[k, c] = stats[sample_index[k], c]
    hist = np.zeros((n_features, N_BINS, n_channels + 1))
    for feature in prange(n_features):
        _accumulate(codes[:, feature], sample_index, node_stats, n_node, False, hist[feature])
    return hist


# Multi-class trees with one weight per sample on its own class (AdaBoost.M1, SAMME:
# ``W_ik = w_i [y_i = k]``) store the statistics as labels and weights instead of a dense
# (n, K) matrix: each sample adds its weight to its own class's channel only.  The other
# channels of the dense kernel receive exact zeros, which leave a sum unchanged, so the
# histograms are bitwise identical to ``build_histogram`` on the dense matrix (tested), at
# 2 instead of K + 1 additions per sample and feature.


def build_label_histogram(
    codes: NDArray[np.uint8],
    labels: NDArray[np.int64],
    weight: NDArray[np.float64],
    n_classes: int,
    sample_index: NDArray[np.int64] | None = None,
    n_bins: int = N_BINS,
) -> NDArray[np.float64]:
    """``build_histogram`` of the statistics ``stats[i, labels[i]] = weight[i]`` (zero elsewhere).

    Returns ``hist`` of shape (n_features, n_bins, n_classes + 1), the sample count last,
    without forming the (n, n_classes) matrix.  ``sample_index=None`` means all samples.
    ``n_bins`` (at least the largest code + 1) drops the bins no sample can reach: with
    ``min_samples_leaf >= 1`` the best split, the leaves and every sum are those of the
    256-bin histogram, whose last bins are zero.
    """
    if sample_index is None:
        node_labels, node_weight = labels, weight
        # the root as the node of every sample: one compiled kernel for the root and the nodes
        # (the same sums in the same order)
        sample_index = np.arange(labels.shape[0], dtype=np.int64)
    else:
        node_labels, node_weight = _gather_labels(labels, weight, sample_index)
    return _label_histogram(codes, node_labels, node_weight, n_classes, sample_index, n_bins)


@njit(cache=True)
def _gather_labels(labels, weight, sample_index):
    n_node = sample_index.shape[0]
    node_labels = np.empty(n_node, dtype=np.int64)
    node_weight = np.empty(n_node)
    for k in range(n_node):
        node_labels[k] = labels[sample_index[k]]
        node_weight[k] = weight[sample_index[k]]
    return node_labels, node_weight


@njit(cache=True, parallel=True)
def _label_histogram(codes, node_labels, node_weight, n_classes, sample_index, n_bins):
    n_features = codes.shape[1]
    n_node = node_labels.shape[0]
    hist = np.zeros((n_features, n_bins, n_classes + 1))
    for feature in prange(n_features):
        column = codes[:, feature]
        even = hist[feature]
        odd = np.zeros((n_bins, n_classes + 1))
        n_even = n_node // 2 * 2
        for k in range(0, n_even, 2):
            b_even = _code(column, sample_index, k)
            b_odd = _code(column, sample_index, k + 1)
            even[b_even, node_labels[k]] += node_weight[k]
            even[b_even, n_classes] += 1.0
            odd[b_odd, node_labels[k + 1]] += node_weight[k + 1]
            odd[b_odd, n_classes] += 1.0
        for k in range(n_even, n_node):
            b = _code(column, sample_index, k)
            even[b, node_labels[k]] += node_weight[k]
            even[b, n_classes] += 1.0
        even += odd
    return hist
