"""numba kernels of the histogram tree learners (private; the classes in ``tree.py`` use them).

Per-sample statistics are a float64 matrix ``stats`` of shape (n_samples, n_channels) whose
layout depends on the criterion (see ``tree.py``).  A node histogram is
``hist[feature, bin, channel]`` (the sum of the channel over the node's samples with that code),
with one extra last channel holding the number of samples.  The best split of a feature is found from
cumulative sums over bins; the histogram of one child is built from its samples and the
sibling's is obtained by subtraction from the parent's.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import get_num_threads, njit, prange
from numpy.typing import NDArray

# Criterion identifiers shared with tree.py.
ERROR = 0  # channels [|w|, w*y]            score |sum w*y|
GINI = 1  # channels [w_k, k = 0..K-1]      score sum_k c_k^2 / W
ENTROPY = 2  # channels [w_k]                  score sum_k c_k log(c_k / W)
SQUARED_ERROR = 3  # channels [w, w*t_1, .., w*t_K]  score sum_k S_k^2 / W
MULTICLASS_ERROR = 4  # channels [W_ik]                score max_k c_k
CONFIDENCE = 5  # channels [W-_k, W+_k] pairs     score -2 sum_k sqrt(W-_k W+_k)
# (Schapire & Singer's Z of confidence-rated leaves, negated)

#: Relative tolerance under which two split scores count as tied (ties go to the lowest
#: feature, then the lowest bin).  It absorbs the rounding differences of summing the same
#: numbers in another order, so permuting samples never changes the chosen split.
TIE_RTOL = 1e-10


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
def _probe_counts(codes, sample_index, feature, counts):
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
    return _group_tasks(codes, sample_index, np.arange(codes.shape[1]))


@njit(cache=True)
def _group_tasks(codes, sample_index, candidates):
    """``_feature_tasks`` for the features listed in ``candidates`` only."""
    counts = np.zeros(N_BINS, dtype=np.int64)
    few = np.empty(candidates.shape[0], dtype=np.int64)
    many = np.empty(candidates.shape[0], dtype=np.int64)
    n_few = 0
    n_many = 0
    for feature in candidates:
        _probe_counts(codes, sample_index, feature, counts)
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
def _accumulate_one_two_channels(column, stat0, stat1, sample_index, out):
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

    Each feature's bins get exactly the additions of ``_accumulate_one_two_channels``, in
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
                _accumulate_one_two_channels(
                    codes[:, feature], stat0, stat1, sample_index, hist[feature]
                )
            else:
                _accumulate_weights_two_channels(codes[:, feature], stat0, stat1, hist[feature])
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


# The root histogram of a depth-1 tree only has to choose the split: its leaves are summed
# again from the samples (``build_histogram`` over the two features they need), so the
# search may use bins that differ from ``build_histogram``'s in their last bits.
# ``build_search_histogram`` uses that freedom for columns dominated by one code (one-hot
# indicators, counts that are mostly zero): only the samples with another code are added, and
# the dominant code's bin is the node's total minus the other bins.  A column then costs a
# scan of its bytes, eight at a time, plus its other entries.  The counts stay exact (integers
# below 2**53); the sums differ from the exact ones by rounding only, far below ``TIE_RTOL``.

#: Features whose most frequent code covers at least this fraction of the probe (the first
#: ``_PROBE_SAMPLES`` samples) take the sparse path of ``build_search_histogram``.
_SPARSE_MODE_FRACTION = 0.75
_REPEAT_BYTE = np.uint64(0x0101010101010101)


def build_search_histogram(
    codes: NDArray[np.uint8], stats: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """Root histogram of two-channel ``stats`` for the split search only, and its exact rows.

    Like ``build_histogram(codes, stats)`` except that, for features dominated by one code,
    that code's bin is the total over all samples minus the other bins: its sums may differ
    from ``build_histogram``'s in the last bits (its counts do not).  Use it where only the
    choice of split depends on the histogram (ties are compared within ``TIE_RTOL``).  The
    second array marks the features whose rows are bitwise ``build_histogram``'s (those
    without a dominant code, scanned as the exact histogram scans them).
    """
    if stats.shape[1] != 2:
        return build_histogram(codes, stats), np.ones(codes.shape[1], dtype=np.bool_)
    layout = search_layout(codes)
    if layout is None:
        hist, dominant = _search_histogram_two_channels(codes, stats)
    else:
        dominant = layout[0]
        hist = _bundled_search_histogram_two_channels(codes, stats, get_num_threads(), *layout)
        dominant = np.where(layout[-1][:, 0] >= 0, 0, dominant)  # two-code rows: subtracted
    exact_rows: NDArray[np.bool_] = dominant < 0
    return hist, exact_rows


def exact_feature_histograms(
    codes: NDArray[np.uint8], stats: NDArray[np.float64], features: NDArray[np.int64]
) -> NDArray[np.float64]:
    """``build_histogram(codes[:, features], stats)`` for two-channel ``stats``, on one thread.

    Bitwise the rows of ``build_histogram`` (the same additions in the same order), without
    copying the columns or waking the threads: for the one or two features whose exact rows a
    stump needs after its search.
    """
    if stats.shape[1] != 2:
        return build_histogram(np.asfortranarray(codes[:, features]), stats)
    return _exact_feature_histograms(codes, np.ascontiguousarray(stats), features)


@njit(cache=True)
def _exact_feature_histograms(codes, stats, features):
    stat0 = np.ascontiguousarray(stats[:, 0])
    stat1 = np.ascontiguousarray(stats[:, 1])
    hist = np.empty((features.shape[0], N_BINS, 3))
    for j in range(features.shape[0]):
        _accumulate_one_two_channels(codes[:, features[j]], stat0, stat1, None, hist[j])
    return hist


#: A layout is a tuple of arrays (see ``search_layout``).
Layout = tuple[NDArray[np.int64] | NDArray[np.uint8], ...]
_LAYOUTS: dict[int, tuple[weakref.ref[NDArray[np.uint8]], Layout]] = {}
_ROOT_COUNTS: dict[int, tuple[weakref.ref[NDArray[np.uint8]], NDArray[np.float64]]] = {}


def _cannot_change(array: NDArray[np.uint8]) -> bool:
    """Whether neither ``array`` nor any array it views can be written."""
    base: object = array
    while isinstance(base, np.ndarray):
        if base.flags.writeable:
            return False
        base = base.base
    return base is None


def search_layout(codes: NDArray[np.uint8]) -> Layout | None:
    """The bundles of ``codes``'s sparse features, computed once per read-only codes array.

    Returns ``(dominant, *_bundle_layout(codes, dominant), root_counts, two_code)`` (see
    ``_root_counts`` and ``_two_code_features``) for a codes array that cannot be written (the boosting estimators make their binned training data read-only), kept
    while that array lives; ``None`` for a writable array, whose contents could change
    between calls (the search histogram then scans every sparse feature).
    """
    return _kept_for(codes, _LAYOUTS, _compute_layout)


def root_counts(codes: NDArray[np.uint8]) -> NDArray[np.float64] | None:
    """``_root_counts(codes)`` for a codes array that cannot be written, computed once and
    kept while that array lives (the root histograms of every round start from it); ``None``
    for a writable array."""
    return _kept_for(codes, _ROOT_COUNTS, _root_counts)


def _compute_layout(codes: NDArray[np.uint8]) -> Layout:
    dominant = _dominant_codes(codes)
    counts = root_counts(codes)
    return (
        dominant,
        *_bundle_layout(codes, dominant),
        counts,
        _two_code_features(counts, dominant),
    )


def _kept_for(codes: NDArray[np.uint8], cache: dict[int, Any], compute: Callable[..., Any]) -> Any:
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


@njit(cache=True)
def _dominant_codes(codes):
    """Per feature, the code that fills at least ``_SPARSE_MODE_FRACTION`` of the probe, or -1."""
    n_features = codes.shape[1]
    dominant = np.full(n_features, -1, dtype=np.int64)
    counts = np.zeros(N_BINS, dtype=np.int64)
    for feature in range(n_features):
        n_probe = _probe_counts(codes, None, feature, counts)
        mode = np.argmax(counts)
        if counts[mode] >= _SPARSE_MODE_FRACTION * n_probe:
            dominant[feature] = mode
    return dominant


@njit(cache=True)
def _accumulate_sparse_two_channels(column, mode, stats, total0, total1, out, counts=True):
    """Bins other than ``mode`` from the samples that have them; bin ``mode`` by subtraction.

    ``stats`` is the (n, 2) C-ordered matrix: a sample's two statistics share a cache line.
    ``counts=False``: ``out``'s count channel holds the counts already and is not added to.
    """
    n = stats.shape[0]
    n_words = n // 8
    words = column[: 8 * n_words].view(np.uint64)
    pattern = np.uint64(mode) * _REPEAT_BYTE
    for word in range(n_words):
        if words[word] == pattern:  # eight samples with the dominant code
            continue
        for k in range(8 * word, 8 * word + 8):
            b = column[k]
            if b != mode:
                out[b, 0] += stats[k, 0]
                out[b, 1] += stats[k, 1]
                if counts:
                    out[b, 2] += 1.0
    for k in range(8 * n_words, n):
        b = column[k]
        if b != mode:
            out[b, 0] += stats[k, 0]
            out[b, 1] += stats[k, 1]
            if counts:
                out[b, 2] += 1.0
    _fill_dominant_bin(out, mode, total0, total1, n)


@njit(cache=True)
def _fill_dominant_bin(out, mode, total0, total1, n):
    """Bin ``mode`` of a sparse feature: the node's totals minus the other bins (in bin order)."""
    rest0 = 0.0
    rest1 = 0.0
    rest_count = 0.0
    for b in range(N_BINS):
        if b != mode:
            rest0 += out[b, 0]
            rest1 += out[b, 1]
            rest_count += out[b, 2]
    out[mode, 0] = total0 - rest0
    out[mode, 1] = total1 - rest1
    out[mode, 2] = n - rest_count


@njit(cache=True)
def _search_totals(stats):
    """The two channels' totals, summed on one thread in sample order (the same on any machine)."""
    total0 = 0.0
    total1 = 0.0
    for i in range(stats.shape[0]):
        total0 += stats[i, 0]
        total1 += stats[i, 1]
    return total0, total1


@njit(cache=True)
def _interleaved_tasks(heavy, light):
    """``heavy`` and ``light`` task ids alternating, so that the static split of the list
    between threads gives each thread a similar share of the costlier ones."""
    order = np.empty(heavy.shape[0] + light.shape[0], dtype=np.int64)
    t = 0
    for j in range(max(heavy.shape[0], light.shape[0])):
        if j < heavy.shape[0]:
            order[t] = heavy[j]
            t += 1
        if j < light.shape[0]:
            order[t] = light[j]
            t += 1
    return order


@njit(cache=True, parallel=True)
def _search_histogram_two_channels(codes, stats):
    n_samples, n_features = codes.shape
    dominant = _dominant_codes(codes)
    c_stats = np.ascontiguousarray(stats)
    stat0 = np.ascontiguousarray(stats[:, 0])
    stat1 = np.ascontiguousarray(stats[:, 1])
    total0, total1 = _search_totals(c_stats)
    order = _interleaved_tasks(np.flatnonzero(dominant < 0), np.flatnonzero(dominant >= 0))
    hist = np.zeros((n_features, N_BINS, 3))
    for t in prange(n_features):
        feature = order[t]
        column = np.ascontiguousarray(codes[:, feature])
        if dominant[feature] >= 0:
            _accumulate_sparse_two_channels(
                column, dominant[feature], c_stats, total0, total1, hist[feature]
            )
        else:
            _accumulate_one_two_channels(column, stat0, stat1, None, hist[feature])
    return hist, dominant


#: Least work (in samples read, as estimated by the search histogram's task costs) for which
#: the search histogram wakes one more thread: below it, a second thread costs more than it
#: saves (on Adult's 48,842 x 108 codes, about half a million, one thread is faster).
_WORK_PER_THREAD = 1_000_000


@njit(cache=True)
def _balanced_workers(cost, n_threads):
    """Tasks to workers, costliest first to the least loaded (ties: lowest task, worker).

    At most one worker per ``_WORK_PER_THREAD`` of total cost, and at least one.
    """
    n_tasks = cost.shape[0]
    n_workers = max(1, min(n_threads, n_tasks, int(cost.sum() // _WORK_PER_THREAD)))
    load = np.zeros(n_workers)
    worker = np.empty(n_tasks, dtype=np.int64)
    for task in np.argsort(-cost, kind="mergesort"):
        w = np.argmin(load)
        worker[task] = w
        load[w] += cost[task]
    return worker, n_workers


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
def _accumulate_weights_two_channels(column, stat0, stat1, out):
    """The weight channels of ``_accumulate_one_two_channels`` (same additions, same order)."""
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


# Dense features with exactly two codes (one-hot indicators of common categories, yes/no
# attributes) defeat the interleaved histogram: consecutive samples mostly add to the same
# bin, so each addition waits for the previous one's store.  Their search rows are summed
# without a histogram: the weights of the samples with the rarer code, in four independent
# lanes without a branch (adding 0.0 leaves a sum unchanged), and the other code's bin by the
# same subtraction as a sparse feature's dominant bin.  Like the sparse rows, they may differ
# from ``build_histogram``'s in the last bits and are not marked exact.


@njit(cache=True)
def _two_code_features(root_counts, dominant):
    """``(n_features, 2)``: the rarer and the more frequent code of each feature that is not
    sparse (``dominant < 0``) and has exactly two codes; -1 for the others."""
    n_features = dominant.shape[0]
    two_code = np.full((n_features, 2), -1, dtype=np.int64)
    for j in range(n_features):
        if dominant[j] >= 0:
            continue
        first = -1
        second = -1
        n_codes = 0
        for b in range(N_BINS):
            if root_counts[j, b, 2] > 0:
                n_codes += 1
                if first < 0:
                    first = b
                else:
                    second = b
        if n_codes == 2:
            if root_counts[j, first, 2] <= root_counts[j, second, 2]:
                two_code[j, 0], two_code[j, 1] = first, second
            else:
                two_code[j, 0], two_code[j, 1] = second, first
    return two_code


@njit(cache=True)
def _code_sums_two_channels(column, code, stat0, stat1):
    """The two weight channels summed over the samples whose code is ``code`` (sample k to
    lane k mod 4, the lanes added in pairs at the end)."""
    n = stat0.shape[0]
    n_four = n // 4 * 4
    a0 = a1 = a2 = a3 = 0.0
    b0 = b1 = b2 = b3 = 0.0
    for k in range(0, n_four, 4):
        m0 = 1.0 if column[k] == code else 0.0
        m1 = 1.0 if column[k + 1] == code else 0.0
        m2 = 1.0 if column[k + 2] == code else 0.0
        m3 = 1.0 if column[k + 3] == code else 0.0
        a0 += stat0[k] * m0
        b0 += stat1[k] * m0
        a1 += stat0[k + 1] * m1
        b1 += stat1[k + 1] * m1
        a2 += stat0[k + 2] * m2
        b2 += stat1[k + 2] * m2
        a3 += stat0[k + 3] * m3
        b3 += stat1[k + 3] * m3
    for k in range(n_four, n):
        if column[k] == code:
            a0 += stat0[k]
            b0 += stat1[k]
    return (a0 + a1) + (a2 + a3), (b0 + b1) + (b2 + b3)


# Bundles of sparse features (LightGBM's exclusive feature bundling, without conflicts).
# Sparse features that are never off their dominant code in the same sample (the indicators
# of one one-hot encoded attribute, for instance) share one column of bundle codes: code 0
# where every member has its dominant code, else a code that names the member and its code.
# One pass over a bundle column adds each sample to the bin of its bundle code in sample
# order, which are exactly the additions that ``_accumulate_sparse_two_channels`` makes to
# the member's bin, in the same order; the dominant bins are then filled by the same
# subtraction.  The bundled search histogram is therefore bitwise the unbundled one, at the
# cost of one dense pass per bundle instead of one scan per member, and without the
# mispredicted branches of the member scans.  The layout is computed once per codes array
# and kept while the array lives (only for arrays that cannot be written, see
# ``search_layout``).


@njit(cache=True)
def _bundle_layout(codes, dominant):
    """Greedy conflict-free bundles of the sparse features.

    Returns ``bundle_of`` (feature -> bundle, -1 when dense, constant or alone in its
    bundle), ``code_map`` ((n_features, 256): the bundle code of a member's code, 0 for its
    dominant code), and the bundles' samples off code 0 with their codes, in sample order:
    bundle ``g``'s are ``bundle_rows[bundle_start[g]:bundle_start[g + 1]]`` (and
    ``bundle_codes`` likewise).
    """
    n, n_features = codes.shape
    present = np.zeros((n_features, N_BINS), dtype=np.bool_)
    start = np.zeros(n_features + 1, dtype=np.int64)
    for j in range(n_features):
        m = dominant[j]
        count = 0
        if m >= 0:
            for i in range(n):
                b = codes[i, j]
                if b != m:
                    present[j, b] = True
                    count += 1
        start[j + 1] = start[j] + count
    rows = np.empty(start[n_features], dtype=np.int64)
    for j in range(n_features):
        m = dominant[j]
        if m >= 0:
            k = start[j]
            for i in range(n):
                if codes[i, j] != m:
                    rows[k] = i
                    k += 1
    occupied = np.zeros((n_features, n), dtype=np.uint8).T  # Fortran order
    used = np.zeros(n_features, dtype=np.int64)  # codes taken per bundle, code 0 included
    members = np.zeros(n_features, dtype=np.int64)
    bundle_of = np.full(n_features, -1, dtype=np.int64)
    code_map = np.zeros((n_features, N_BINS), dtype=np.int64)
    n_bundles = 0
    for j in range(n_features):
        if dominant[j] < 0 or start[j + 1] == start[j]:
            continue
        n_codes = 0
        for b in range(N_BINS):
            if present[j, b]:
                n_codes += 1
        chosen = -1
        for g in range(n_bundles):
            if used[g] + n_codes > N_BINS:
                continue
            clash = False
            for k in range(start[j], start[j + 1]):
                if occupied[rows[k], g] != 0:
                    clash = True
                    break
            if not clash:
                chosen = g
                break
        if chosen < 0:
            chosen = n_bundles
            used[chosen] = 1
            n_bundles += 1
        for b in range(N_BINS):
            if present[j, b]:
                code_map[j, b] = used[chosen]
                used[chosen] += 1
        for k in range(start[j], start[j + 1]):
            occupied[rows[k], chosen] = code_map[j, codes[rows[k], j]]
        bundle_of[j] = chosen
        members[chosen] += 1
    # Bundles of one feature are left to the member scan (as cheap, and no extra entries).
    new_index = np.full(n_bundles, -1, dtype=np.int64)
    n_kept = 0
    for g in range(n_bundles):
        if members[g] > 1:
            new_index[g] = n_kept
            n_kept += 1
    # Each kept bundle as a list of (sample, bundle code) in sample order, code 0 left out.
    bundle_start = np.zeros(n_kept + 1, dtype=np.int64)
    for g in range(n_bundles):
        if new_index[g] >= 0:
            bundle_start[new_index[g] + 1] = np.count_nonzero(occupied[:, g])
    bundle_start = np.cumsum(bundle_start)
    bundle_rows = np.empty(bundle_start[n_kept], dtype=np.int64)
    bundle_codes = np.empty(bundle_start[n_kept], dtype=np.uint8)
    for g in range(n_bundles):
        if new_index[g] >= 0:
            k = bundle_start[new_index[g]]
            for i in range(n):
                if occupied[i, g] != 0:
                    bundle_rows[k] = i
                    bundle_codes[k] = occupied[i, g]
                    k += 1
    for j in range(n_features):
        if bundle_of[j] >= 0:
            bundle_of[j] = new_index[bundle_of[j]]
            if bundle_of[j] < 0:
                code_map[j, :] = 0
    return bundle_of, code_map, bundle_start, bundle_rows, bundle_codes


@njit(cache=True)
def _accumulate_bundle_two_channels(rows, codes, stats, out):
    """Per bundle code, the sum of the listed samples' statistics, in sample order (the two
    weight channels only: the counts come from ``_root_counts``)."""
    for k in range(rows.shape[0]):
        i = rows[k]
        b = codes[k]
        out[b, 0] += stats[i, 0]
        out[b, 1] += stats[i, 1]


@njit(cache=True)
def _bundled_search_histogram_two_channels(
    codes,
    stats,
    n_threads,
    dominant,
    bundle_of,
    code_map,
    bundle_start,
    bundle_rows,
    bundle_codes,
    root_counts,
    two_code,
):
    # Compiled without ``parallel``: its set-up would otherwise become parallel loops, each
    # waking the threads; only the loop over the workers runs in parallel, and only when the
    # work is large enough for more than one (``_WORK_PER_THREAD``).
    n_samples, n_features = codes.shape
    n_bundles = bundle_start.shape[0] - 1
    c_stats = np.ascontiguousarray(stats)
    stat0 = np.ascontiguousarray(stats[:, 0])
    stat1 = np.ascontiguousarray(stats[:, 1])
    total0, total1 = _search_totals(c_stats)
    # Tasks: rows of ``_group_tasks`` over the dense features (ids 0..n_dense-1), then the
    # bundles, then the sparse features left alone, then the two-code features, shared
    # between the threads by their estimated cost (which thread computes a histogram never
    # changes it).
    dense = _group_tasks(codes, None, np.flatnonzero((dominant < 0) & (two_code[:, 0] < 0)))
    alone = np.flatnonzero(((dominant >= 0) & (bundle_of < 0)) | (two_code[:, 0] >= 0))
    n_dense = dense.shape[0]
    n_tasks = n_dense + n_bundles + alone.shape[0]
    cost = np.empty(n_tasks)
    for t in range(n_dense):
        n_members = np.count_nonzero(dense[t] >= 0)
        cost[t] = n_samples * n_members
    for g in range(n_bundles):
        cost[n_dense + g] = 0.6 * (bundle_start[g + 1] - bundle_start[g])
    for t in range(n_dense + n_bundles, n_tasks):
        cost[t] = 0.25 * n_samples
    worker, n_workers = _balanced_workers(cost, n_threads)
    hist = root_counts.copy()  # the counts; the tasks add the weight channels
    bundle_hist = np.zeros((n_bundles, N_BINS, 2))
    args = (
        worker, codes, dense, alone, dominant, two_code, bundle_start, bundle_rows,
        bundle_codes, c_stats, stat0, stat1, total0, total1, hist, bundle_hist,
    )  # fmt: skip
    if n_workers == 1:
        _search_worker(0, *args)
    else:
        _search_workers_parallel(n_workers, *args)
    for feature in range(n_features):
        if bundle_of[feature] < 0:
            continue
        source = bundle_hist[bundle_of[feature]]
        out = hist[feature]
        for b in range(N_BINS):
            code = code_map[feature, b]
            if code > 0:
                out[b, 0] = source[code, 0]
                out[b, 1] = source[code, 1]
        _fill_dominant_bin(out, dominant[feature], total0, total1, n_samples)
    return hist


@njit(cache=True, parallel=True)
def _search_workers_parallel(
    n_workers, worker, codes, dense, alone, dominant, two_code, bundle_start, bundle_rows,
    bundle_codes, c_stats, stat0, stat1, total0, total1, hist, bundle_hist,
):  # fmt: skip
    for w in prange(n_workers):
        _search_worker(
            w, worker, codes, dense, alone, dominant, two_code, bundle_start, bundle_rows,
            bundle_codes, c_stats, stat0, stat1, total0, total1, hist, bundle_hist,
        )  # fmt: skip


@njit(cache=True)
def _search_worker(
    w, worker, codes, dense, alone, dominant, two_code, bundle_start, bundle_rows,
    bundle_codes, c_stats, stat0, stat1, total0, total1, hist, bundle_hist,
):  # fmt: skip
    """The tasks of worker ``w``: dense groups, bundles, then the sparse features left alone
    and the two-code features."""
    n_dense = dense.shape[0]
    n_bundles = bundle_start.shape[0] - 1
    for task in range(worker.shape[0]):
        if worker[task] != w:
            continue
        if task < n_dense:
            for j in range(4):
                feature = dense[task, j]
                if feature >= 0:
                    _accumulate_weights_two_channels(codes[:, feature], stat0, stat1, hist[feature])
        elif task < n_dense + n_bundles:
            g = task - n_dense
            _accumulate_bundle_two_channels(
                bundle_rows[bundle_start[g] : bundle_start[g + 1]],
                bundle_codes[bundle_start[g] : bundle_start[g + 1]],
                c_stats,
                bundle_hist[g],
            )
        else:
            feature = alone[task - n_dense - n_bundles]
            rare = two_code[feature, 0]
            if rare >= 0:
                out = hist[feature]
                out[rare, 0], out[rare, 1] = _code_sums_two_channels(
                    codes[:, feature], rare, stat0, stat1
                )
                _fill_dominant_bin(out, two_code[feature, 1], total0, total1, codes.shape[0])
            else:
                _accumulate_sparse_two_channels(
                    codes[:, feature],
                    dominant[feature],
                    c_stats,
                    total0,
                    total1,
                    hist[feature],
                    False,
                )


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


@njit(cache=True)
def find_best_split(hist, criterion, min_samples_leaf, min_weight_leaf):
    """Best split ``code <= bin`` over all features of a node histogram (count channel last).

    Returns ``(feature, bin, gain, parent_score, n_left)``; ``feature == -1`` when no split
    satisfies ``min_samples_leaf`` / ``min_weight_leaf``.  Ties (within ``TIE_RTOL``) go to the
    lowest bin of a feature, then to the lowest feature: each feature's best bin is found
    independently (in parallel for large histograms), then the features are compared in
    increasing order.
    """
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
    args = (
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
    if n_features * n_bins * n_channels < _SERIAL_SPLIT_CELLS:
        for feature in range(n_features):
            _feature_best_split(feature, *args)
    else:
        _features_best_splits_parallel(*args)
    best_feature = -1
    best_gain = -np.inf
    best_scale = 0.0
    for feature in range(n_features):
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
