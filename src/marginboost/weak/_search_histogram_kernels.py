"""numba kernels of the search histograms of trees (private; ``tree.py`` uses them).

``build_search_histogram`` builds the root histogram of two-channel statistics that only
chooses a stump's split: sparse (dominant-code) features by subtraction, dense two-code
features without a histogram, bundles of sparse features (their layout kept per read-only codes
array, ``search_layout``), the tasks shared between workers by cost.
``build_node_search_histogram`` does the same for the samples of a node below the root (a
tree deeper than 1), its bundles read from one column of bundle codes each (``node_layout``).
``exact_feature_histograms`` sums again the exact rows the chosen split needs.  IN: ``codes``,
``stats`` (never written); OUT: the returned histograms, or the ``out``/``hist``/
``bundle_hist`` argument of the helpers that fill one.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
from numba import get_num_threads, njit, prange
from numpy.typing import NDArray

from ._histogram_kernels import (
    _accumulate_task_two_channels,
    accumulate_one_two_channels,
    accumulate_weights_two_channels,
    build_histogram,
    group_tasks,
    kept_for,
    probe_counts,
    root_counts,
)
from ._input_kernels import N_BINS

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
        n_threads = get_num_threads()
        if _one_worker(n_threads, *codes.shape):
            hist = _bundled_search_histogram_one_worker(codes, stats, *layout)
        else:
            hist = _bundled_search_histogram_two_channels(codes, stats, n_threads, *layout)
        dominant = np.where(layout[-1][:, 0] >= 0, 0, dominant)  # two-code rows: subtracted
    exact_rows: NDArray[np.bool_] = dominant < 0
    return hist, exact_rows


def exact_feature_histograms(
    codes: NDArray[np.uint8],
    stats: NDArray[np.float64],
    features: NDArray[np.int64],
    sample_index: NDArray[np.int64] | None = None,
) -> NDArray[np.float64]:
    """``build_histogram(codes[:, features], stats, sample_index)`` for two-channel ``stats``,
    on one thread.

    Bitwise the rows of ``build_histogram`` (the same additions in the same order), without
    copying the columns or waking the threads: for the one or two features whose exact rows a
    node needs after its search.  ``sample_index=None`` means all samples (the root).
    """
    if stats.shape[1] != 2:
        columns = np.asfortranarray(codes[:, features])
        if sample_index is None:
            return build_histogram(columns, stats)
        return build_histogram(columns, stats, sample_index)
    stats = np.ascontiguousarray(stats)
    if sample_index is None:
        return _exact_feature_histograms(codes, stats, features)
    return _exact_feature_histograms_subset(codes, stats, features, sample_index)


@njit(cache=True)
def _exact_feature_histograms(codes, stats, features):
    stat0 = np.ascontiguousarray(stats[:, 0])
    stat1 = np.ascontiguousarray(stats[:, 1])
    hist = np.empty((features.shape[0], N_BINS, 3))
    for j in range(features.shape[0]):
        accumulate_one_two_channels(codes[:, features[j]], stat0, stat1, None, hist[j])
    return hist


@njit(cache=True)
def _exact_feature_histograms_subset(codes, stats, features, sample_index):
    stat0, stat1, _, _ = _gather_two_channels(stats, sample_index)
    hist = np.empty((features.shape[0], N_BINS, 3))
    for j in range(features.shape[0]):
        accumulate_one_two_channels(codes[:, features[j]], stat0, stat1, sample_index, hist[j])
    return hist


@njit(cache=True)
def _gather_two_channels(stats, sample_index):
    """A node's two statistics as contiguous arrays in its sample order (as
    ``build_histogram`` gathers them), and their totals summed on one thread in that order."""
    n_node = sample_index.shape[0]
    stat0 = np.empty(n_node)
    stat1 = np.empty(n_node)
    total0 = 0.0
    total1 = 0.0
    for k in range(n_node):
        i = sample_index[k]
        stat0[k] = stats[i, 0]
        stat1[k] = stats[i, 1]
        total0 += stat0[k]
        total1 += stat1[k]
    return stat0, stat1, total0, total1


#: A layout is a tuple of arrays (see ``search_layout``).
Layout = tuple[NDArray[np.int64] | NDArray[np.uint8], ...]
_LAYOUTS: dict[int, tuple[weakref.ref[NDArray[np.uint8]], Layout]] = {}


def search_layout(codes: NDArray[np.uint8]) -> Layout | None:
    """The bundles of ``codes``'s sparse features, computed once per read-only codes array.

    Returns ``(dominant, *_bundle_layout(codes, dominant), root_counts, two_code)`` (see
    ``_root_counts`` and ``_two_code_features``) for a codes array that cannot be written (the boosting estimators make their binned training data read-only), kept
    while that array lives; ``None`` for a writable array, whose contents could change
    between calls (the search histogram then scans every sparse feature).
    """
    return kept_for(codes, _LAYOUTS, _compute_layout)


def _compute_layout(codes: NDArray[np.uint8]) -> Layout:
    dominant = _dominant_codes(codes)
    counts = root_counts(codes)
    return (
        dominant,
        *_bundle_layout(codes, dominant),
        counts,
        _two_code_features(counts, dominant),
    )


@njit(cache=True)
def _dominant_codes(codes):
    """Per feature, the code that fills at least ``_SPARSE_MODE_FRACTION`` of the probe, or -1."""
    n_features = codes.shape[1]
    dominant = np.full(n_features, -1, dtype=np.int64)
    counts = np.zeros(N_BINS, dtype=np.int64)
    for feature in range(n_features):
        n_probe = probe_counts(codes, None, feature, counts)
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
            accumulate_one_two_channels(column, stat0, stat1, None, hist[feature])
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


def _one_worker(n_threads: int, n_samples: int, n_features: int) -> bool:
    """Whether a search histogram of ``n_samples`` x ``n_features`` codes runs on one worker
    whatever its tasks: its cost (:func:`_balanced_workers`) is at most one per sample and
    feature, so below ``2 * _WORK_PER_THREAD`` there is one worker.  The callers then run the
    kernels without the parallel loop, which a fit on small data so never compiles (the
    slowest kernels to compile); the histogram is the same either way."""
    return n_threads == 1 or n_samples * n_features < 2 * _WORK_PER_THREAD


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
    n_workers, args = _bundled_search_tasks(
        codes, stats, n_threads, dominant, bundle_of, bundle_start, bundle_rows, bundle_codes,
        root_counts, two_code,
    )  # fmt: skip
    if n_workers == 1:
        _search_worker(0, *args)
    else:
        _search_workers_parallel(n_workers, *args)
    return _bundled_search_result(args, bundle_of, code_map, dominant, codes.shape[0])


@njit(cache=True)
def _bundled_search_histogram_one_worker(
    codes, stats, dominant, bundle_of, code_map, bundle_start, bundle_rows, bundle_codes,
    root_counts, two_code,
):  # fmt: skip
    """``_bundled_search_histogram_two_channels`` on one worker, without the parallel loop."""
    _, args = _bundled_search_tasks(
        codes, stats, 1, dominant, bundle_of, bundle_start, bundle_rows, bundle_codes,
        root_counts, two_code,
    )  # fmt: skip
    _search_worker(0, *args)
    return _bundled_search_result(args, bundle_of, code_map, dominant, codes.shape[0])


@njit(cache=True)
def _bundled_search_tasks(
    codes, stats, n_threads, dominant, bundle_of, bundle_start, bundle_rows, bundle_codes,
    root_counts, two_code,
):  # fmt: skip
    """The root search's tasks shared between at most ``n_threads`` workers: ``(n_workers,
    args)``, ``args`` the arguments of :func:`_search_worker` after the worker's number."""
    n_samples, n_features = codes.shape
    n_bundles = bundle_start.shape[0] - 1
    c_stats = np.ascontiguousarray(stats)
    stat0 = np.ascontiguousarray(stats[:, 0])
    stat1 = np.ascontiguousarray(stats[:, 1])
    total0, total1 = _search_totals(c_stats)
    # Tasks: rows of ``group_tasks`` over the dense features (ids 0..n_dense-1), then the
    # bundles, then the sparse features left alone, then the two-code features, shared
    # between the threads by their estimated cost (which thread computes a histogram never
    # changes it).
    dense = group_tasks(codes, None, np.flatnonzero((dominant < 0) & (two_code[:, 0] < 0)))
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
    return n_workers, args


@njit(cache=True)
def _bundled_search_result(args, bundle_of, code_map, dominant, n_samples):
    """The root search histogram once the workers have run on ``args``."""
    total0, total1, hist, bundle_hist = args[12], args[13], args[14], args[15]
    _unbundle(hist, bundle_hist, bundle_of, code_map, dominant, total0, total1, n_samples)
    return hist


@njit(cache=True)
def _unbundle(hist, bundle_hist, bundle_of, code_map, dominant, total0, total1, n):
    """Each bundled feature's rows from its bundle's (the channels ``bundle_hist`` has: the two
    weights, and the counts when it has three), its dominant bin by subtraction from the
    totals over the ``n`` samples."""
    n_channels = bundle_hist.shape[2]
    for feature in range(hist.shape[0]):
        if bundle_of[feature] < 0:
            continue
        source = bundle_hist[bundle_of[feature]]
        out = hist[feature]
        for b in range(N_BINS):
            code = code_map[feature, b]
            if code > 0:
                for c in range(n_channels):
                    out[b, c] = source[code, c]
        _fill_dominant_bin(out, dominant[feature], total0, total1, n)


@njit(cache=True, parallel=True)
def _search_workers_parallel(
    n_workers, worker, codes, dense, alone, dominant, two_code, bundle_start, bundle_rows,
    bundle_codes, c_stats, stat0, stat1, total0, total1, hist, bundle_hist,
):  # fmt: skip
    for w in prange(n_workers):
        _search_worker(  # prange's index is unsigned: np.int64 keeps one specialization
            np.int64(w), worker, codes, dense, alone, dominant, two_code, bundle_start, bundle_rows,
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
                    accumulate_weights_two_channels(codes[:, feature], stat0, stat1, hist[feature])
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


# Nodes below the root.  A tree deeper than 1 builds the histogram of the smaller child of
# every split from its samples (the larger one by subtraction).  On one-hot columns most of
# that pass adds samples to the dominant code's bin, which the search does not need summed:
# ``build_node_search_histogram`` reads each bundle of sparse features (the root's layout) from
# one column of bundle codes, so a node costs one pass per bundle and per feature outside the
# bundles (Adult: 8 bundles and 14 features instead of 108 features).  The features outside
# the bundles are summed exactly as ``build_histogram`` sums them (the same kernels); a
# bundled feature's other bins get the same sums in another order of addition, and its
# dominant bin is the node's total minus the other bins.  Like the root's search histogram,
# its rows may differ from the exact ones in the last bits (never in the counts), and the
# split chosen on it is checked on exact rows (``tree._SearchRoot``).


def node_layout(codes: NDArray[np.uint8]) -> tuple[NDArray[Any], ...] | None:
    """``(dominant, bundle_of, code_map, bundle_columns, unbundled)`` of a read-only codes
    array, kept while it lives: the root layout's bundles (``search_layout``) as an (n,
    n_bundles) Fortran array of bundle codes (0: every member on its dominant code), and the
    features outside the bundles.  ``None`` for a writable array."""
    return kept_for(codes, _NODE_LAYOUTS, _compute_node_layout)


_NODE_LAYOUTS: dict[int, tuple[weakref.ref[NDArray[np.uint8]], tuple[NDArray[Any], ...]]] = {}


def _compute_node_layout(codes: NDArray[np.uint8]) -> tuple[NDArray[Any], ...]:
    layout = search_layout(codes)
    assert layout is not None  # a read-only array, as for this function's caller
    dominant, bundle_of, code_map, bundle_start, bundle_rows, bundle_codes = layout[:6]
    n_bundles = bundle_start.shape[0] - 1
    columns = np.zeros((codes.shape[0], n_bundles), dtype=np.uint8, order="F")
    for g in range(n_bundles):
        part = slice(bundle_start[g], bundle_start[g + 1])
        columns[bundle_rows[part], g] = bundle_codes[part]
    unbundled = np.flatnonzero(bundle_of < 0).astype(np.int64)
    return dominant, bundle_of, code_map, columns, unbundled


def build_node_search_histogram(
    codes: NDArray[np.uint8], stats: NDArray[np.float64], sample_index: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.bool_]] | None:
    """The search histogram of a node's samples, and its exact rows; ``None`` where it would
    not save a pass (statistics other than two channels, a writable codes array, no bundle).

    Like ``build_histogram(codes, stats, sample_index)`` except that a bundled feature's
    dominant bin is the node's total minus its other bins (its sums may differ in the last
    bits, its counts do not).  The second array marks the rows that are bitwise
    ``build_histogram``'s (the features outside the bundles).
    """
    if stats.shape[1] != 2:
        return None
    layout = node_layout(codes)
    if layout is None or layout[3].shape[1] == 0:
        return None
    dominant, bundle_of, code_map, columns, unbundled = layout
    stats = np.ascontiguousarray(stats)
    n_threads = get_num_threads()
    if _one_worker(n_threads, sample_index.shape[0], codes.shape[1]):
        hist = _node_search_histogram_one_worker(
            codes, stats, sample_index, dominant, bundle_of, code_map, columns, unbundled
        )
    else:
        hist = _node_search_histogram_two_channels(
            codes, stats, sample_index, n_threads, dominant, bundle_of, code_map, columns,
            unbundled,
        )  # fmt: skip
    exact_rows: NDArray[np.bool_] = bundle_of < 0
    return hist, exact_rows


@njit(cache=True)
def _node_search_histogram_two_channels(
    codes, stats, sample_index, n_threads, dominant, bundle_of, code_map, columns, unbundled
):
    # Not compiled ``parallel``, as ``_bundled_search_histogram_two_channels``: only the loop
    # over the workers runs in parallel, when the work is large enough for more than one.
    n_workers, args, total0, total1 = _node_search_tasks(
        codes, stats, sample_index, n_threads, unbundled, columns
    )
    if n_workers == 1:
        _node_worker(0, *args)
    else:
        _node_workers_parallel(n_workers, *args)
    hist, bundle_hist = args[7], args[8]
    n_node = sample_index.shape[0]
    _unbundle(hist, bundle_hist, bundle_of, code_map, dominant, total0, total1, n_node)
    return hist


@njit(cache=True)
def _node_search_histogram_one_worker(
    codes, stats, sample_index, dominant, bundle_of, code_map, columns, unbundled
):
    """``_node_search_histogram_two_channels`` on one worker, without the parallel loop."""
    _, args, total0, total1 = _node_search_tasks(codes, stats, sample_index, 1, unbundled, columns)
    _node_worker(0, *args)
    hist, bundle_hist = args[7], args[8]
    n_node = sample_index.shape[0]
    _unbundle(hist, bundle_hist, bundle_of, code_map, dominant, total0, total1, n_node)
    return hist


@njit(cache=True)
def _node_search_tasks(codes, stats, sample_index, n_threads, unbundled, columns):
    """A node search's tasks shared between at most ``n_threads`` workers: ``(n_workers, args,
    total0, total1)``, ``args`` the arguments of :func:`_node_worker` after the worker's
    number, the totals those of the node's two weight channels."""
    n_features = codes.shape[1]
    n_node = sample_index.shape[0]
    n_bundles = columns.shape[1]
    stat0, stat1, total0, total1 = _gather_two_channels(stats, sample_index)
    groups = group_tasks(codes, sample_index, unbundled)
    n_groups = groups.shape[0]
    cost = np.empty(n_groups + n_bundles)
    for t in range(n_groups):
        cost[t] = n_node * np.count_nonzero(groups[t] >= 0)
    for g in range(n_bundles):
        cost[n_groups + g] = n_node
    worker, n_workers = _balanced_workers(cost, n_threads)
    hist = np.zeros((n_features, N_BINS, 3))
    bundle_hist = np.zeros((n_bundles, N_BINS, 3))
    args = (worker, codes, sample_index, groups, columns, stat0, stat1, hist, bundle_hist)
    return n_workers, args, total0, total1


@njit(cache=True, parallel=True)
def _node_workers_parallel(
    n_workers, worker, codes, sample_index, groups, columns, stat0, stat1, hist, bundle_hist
):
    for w in prange(n_workers):
        _node_worker(  # prange's index is unsigned: np.int64 keeps one specialization
            np.int64(w), worker, codes, sample_index, groups, columns, stat0, stat1, hist,
            bundle_hist,
        )  # fmt: skip


@njit(cache=True)
def _node_worker(w, worker, codes, sample_index, groups, columns, stat0, stat1, hist, bundle_hist):
    """The tasks of worker ``w``: groups of features outside the bundles (summed exactly), then
    bundles (every sample added to its bundle code's bin; bin 0 collects the samples on every
    member's dominant code and is not read)."""
    n_groups = groups.shape[0]
    for task in range(worker.shape[0]):
        if worker[task] != w:
            continue
        if task < n_groups:
            _accumulate_task_two_channels(
                codes, groups[task], stat0, stat1, sample_index, hist, True
            )
        else:
            column = columns[:, task - n_groups]
            out = bundle_hist[task - n_groups]
            for k in range(sample_index.shape[0]):
                b = column[sample_index[k]]
                out[b, 0] += stat0[k]
                out[b, 1] += stat1[k]
                out[b, 2] += 1.0
