"""The grouped two-channel histogram kernel against the one-feature-at-a-time reference.

``build_histogram`` builds two-channel histograms (every binary criterion) with
``_histogram_two_channels_blocked``, which processes features with few distinct codes four at
a time.  It must be the same computation as ``_histogram_all_two_channels`` /
``_histogram_subset_two_channels``: bitwise-identical histograms, hence identical trees, leaf
values, AdaBoost weights and predictions.  Likewise the multi-class label kernel
(``build_label_histogram``, one weight per sample on its own class) against the dense
(n, K) matrix of the same statistics.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from marginboost.boosting import SAMME, AdaBoost, AdaBoostM1, RealAdaBoost
from marginboost.weak import (
    DecisionTree,
    _histogram_kernels,
    _input_kernels,
    _search_histogram_kernels,
    _split_kernels,
)


def _reference_histogram(codes, stats, sample_index=None):
    """``build_histogram`` as it was: one feature at a time."""
    if stats.shape[1] == 2:
        if sample_index is None:
            return _histogram_kernels._histogram_all_two_channels(codes, stats)
        return _histogram_kernels._histogram_subset_two_channels(codes, stats, sample_index)
    if sample_index is None:
        return _histogram_kernels._histogram_all(codes, stats)
    return _histogram_kernels._histogram_subset(codes, stats, sample_index)


def _bits(array):
    return np.ascontiguousarray(array, dtype=np.float64).view(np.int64)


def _assert_same_bits(actual, expected):
    assert actual.shape == expected.shape
    np.testing.assert_array_equal(_bits(actual), _bits(expected))


def _mixed_codes(rng, n, n_features=None):
    """One-hot groups, binary columns mostly 1, all-256-code columns, small integers,
    a constant column, a duplicate and a complement (exact ties)."""
    columns = []
    categories = rng.integers(0, 5, size=n)
    columns += [(categories == k).astype(np.uint8) for k in range(5)]  # one-hot group
    columns.append((rng.random(n) < 0.9).astype(np.uint8))  # mostly 1
    full = np.arange(n) % 256
    columns.append(rng.permutation(full).astype(np.uint8))  # every code 0..255
    columns.append(rng.integers(0, 256, size=n).astype(np.uint8))
    columns.append(rng.integers(0, 12, size=n).astype(np.uint8))  # few codes
    columns.append(np.full(n, 3, dtype=np.uint8))  # constant
    columns.append(columns[1].copy())  # duplicate of a one-hot column: a tie
    columns.append((1 - columns[2]).astype(np.uint8))  # complement: the same partitions
    columns.append(rng.integers(0, 2, size=n).astype(np.uint8) * 255)  # codes 0 and 255
    codes = np.column_stack(columns)
    if n_features is not None:
        codes = codes[:, :n_features]
    return np.asfortranarray(codes)


def _stats(rng, n, zeros=0.2, ties=False):
    weight = rng.uniform(0.0, 1.0, size=n)
    if ties:
        weight = np.full(n, 1.0 / n)
    weight[rng.random(n) < zeros] = 0.0
    y = rng.choice([-1.0, 1.0], size=n)
    stats = np.zeros((n, 2))
    stats[:, 0] = np.where(y < 0, weight, 0.0)
    stats[:, 1] = np.where(y > 0, weight, 0.0)
    return stats


@pytest.mark.parametrize("n", [1, 2, 3, 7, 64, 1001, 2048, 3001])
@pytest.mark.parametrize("n_features", [1, 3, 4, 5, 9, 13])
def test_grouped_histograms_are_bitwise_the_reference(n, n_features):
    rng = np.random.default_rng(n * 31 + n_features)
    codes = _mixed_codes(rng, n, n_features)
    for stats in (_stats(rng, n), _stats(rng, n, zeros=0.0, ties=True), rng.normal(size=(n, 2))):
        _assert_same_bits(
            _histogram_kernels.build_histogram(codes, stats), _reference_histogram(codes, stats)
        )
        for size in {1, n // 3, n - 1, n} - {0}:
            subset = np.sort(rng.choice(n, size, replace=False)).astype(np.int64)
            _assert_same_bits(
                _histogram_kernels.build_histogram(codes, stats, subset),
                _reference_histogram(codes, stats, subset),
            )


def test_only_many_code_features_use_the_one_feature_kernels():
    rng = np.random.default_rng(5)
    codes = np.asfortranarray(rng.integers(0, 256, size=(3001, 6)).astype(np.uint8))
    assert _histogram_kernels._feature_tasks(codes, None).shape[0] == 6  # no group of four
    stats = _stats(rng, 3001)
    subset = np.sort(rng.choice(3001, 1000, replace=False)).astype(np.int64)
    _assert_same_bits(
        _histogram_kernels.build_histogram(codes, stats), _reference_histogram(codes, stats)
    )
    _assert_same_bits(
        _histogram_kernels.build_histogram(codes, stats, subset),
        _reference_histogram(codes, stats, subset),
    )


def test_grouping_puts_few_code_features_four_at_a_time():
    rng = np.random.default_rng(0)
    codes = _mixed_codes(rng, 3000)
    tasks = _histogram_kernels._feature_tasks(codes, None)
    grouped = sorted(int(f) for row in tasks if row[3] >= 0 for f in row)
    single = sorted(int(row[0]) for row in tasks if row[1] < 0)
    assert {6, 7} <= set(single)  # the columns with many codes
    assert len(grouped) == 8  # two groups of four among the ten columns with few codes
    assert sorted(int(f) for f in tasks.ravel() if f >= 0) == list(range(codes.shape[1]))


def _tree_arrays(tree):
    return (
        tree.node_feature,
        tree.node_bin,
        tree.node_left,
        tree.node_right,
        tree.node_leaf,
        tree.leaf_values_,
        tree.leaf_statistics_,
    )


def _assert_same_tree(actual, expected):
    for a, b in zip(_tree_arrays(actual), _tree_arrays(expected), strict=True):
        if b is None:
            assert a is None
        else:
            _assert_same_bits(a, b)


@pytest.mark.parametrize("criterion", ["error", "gini", "entropy", "confidence"])
@pytest.mark.parametrize("max_depth", [1, 2, 4])
def test_trees_are_identical(monkeypatch, criterion, max_depth):
    rng = np.random.default_rng(max_depth)
    n = 2501
    codes = _mixed_codes(rng, n)
    y = rng.choice([-1.0, 1.0], size=n)
    for weight in (
        np.full(n, 1.0),  # exact ties of leaf weights are common here
        np.where(rng.random(n) < 0.3, 0.0, rng.uniform(0.0, 2.0, size=n)),
    ):
        if criterion == "error":
            weight = weight * rng.choice([-1.0, 1.0], size=n)
        learner = DecisionTree(max_depth=max_depth, criterion=criterion)
        new = learner.fit_binary(codes, y, weight)
        with monkeypatch.context() as patch:
            patch.setattr(_histogram_kernels, "build_histogram", _reference_histogram)
            old = learner.fit_binary(codes, y, weight)
        _assert_same_tree(new, old)


@pytest.mark.parametrize("estimator", [AdaBoost, RealAdaBoost])
@pytest.mark.parametrize("max_depth", [1, 3])
def test_boosting_rounds_are_identical(monkeypatch, estimator, max_depth):
    rng = np.random.default_rng(7)
    n = 3001
    codes = _mixed_codes(rng, n).astype(np.float64)
    X = np.column_stack([codes, rng.normal(size=(n, 3))])
    y = np.where(codes[:, 1] + codes[:, 8] / 6 + X[:, -1] + rng.normal(size=n) > 1.5, 1, -1)
    weight = np.where(rng.random(n) < 0.1, 0.0, rng.uniform(0.5, 1.5, size=n))
    kwargs = {"n_estimators": 12, "max_depth": max_depth}
    new = estimator(**kwargs).fit(X, y, sample_weight=weight)
    with monkeypatch.context() as patch:
        patch.setattr(_histogram_kernels, "build_histogram", _reference_histogram)
        old = estimator(**kwargs).fit(X, y, sample_weight=weight)
    assert len(new.estimators_) == len(old.estimators_) > 1
    for a, b in zip(new.estimators_, old.estimators_, strict=True):
        assert a.splits() == b.splits()
        _assert_same_bits(a.leaf_values_, b.leaf_values_)
    _assert_same_bits(new.alphas_, old.alphas_)
    _assert_same_bits(new.decision_function(X), old.decision_function(X))
    np.testing.assert_array_equal(new.predict(X), old.predict(X))


def _dense_class_weights(y, weight, n_classes):
    dense = np.zeros((y.shape[0], n_classes))
    dense[np.arange(y.shape[0]), y] = weight
    return dense


@pytest.mark.parametrize("n", [1, 2, 3, 64, 1001, 3001])
@pytest.mark.parametrize("n_classes", [2, 3, 26])
def test_label_histograms_are_bitwise_the_dense_histograms(n, n_classes):
    rng = np.random.default_rng(n * 7 + n_classes)
    codes = _mixed_codes(rng, n)
    y = rng.integers(0, n_classes, size=n)
    for weight in (
        rng.uniform(0.0, 1.0, size=n),
        np.where(rng.random(n) < 0.3, 0.0, 1.0 / n),  # zero weights and exact ties
    ):
        dense = _dense_class_weights(y, weight, n_classes)
        _assert_same_bits(
            _histogram_kernels.build_label_histogram(codes, y, weight, n_classes),
            _histogram_kernels.build_histogram(codes, dense),
        )
        subset = np.flatnonzero(rng.random(n) < 0.4).astype(np.int64)
        _assert_same_bits(
            _histogram_kernels.build_label_histogram(codes, y, weight, n_classes, subset),
            _histogram_kernels.build_histogram(codes, dense, subset),
        )
        for index in (subset, np.arange(n, dtype=np.int64)):
            assert _split_kernels.labels_are_pure(y, weight, index) == _split_kernels.node_is_pure(
                dense, index, _input_kernels.GINI
            )


@pytest.mark.parametrize("criterion", ["gini", "entropy", "multiclass_error"])
@pytest.mark.parametrize("max_depth", [1, 2, 4])
@pytest.mark.parametrize("few_codes", [False, True])
def test_multiclass_trees_from_labels_equal_the_trees_from_the_dense_weights(
    criterion, max_depth, few_codes
):
    """Also with codes 0..11 only, where the label histograms keep 12 bins instead of 256."""
    rng = np.random.default_rng(max_depth)
    n, n_classes = 2501, 5
    codes = _mixed_codes(rng, n)
    if few_codes:
        codes = np.asfortranarray(codes % 12)
    y = (codes[:, 0] + 2 * codes[:, 8] + rng.integers(0, 2, size=n)) % n_classes
    for weight in (np.full(n, 1.0), np.where(rng.random(n) < 0.3, 0.0, rng.random(n))):
        learner = DecisionTree(max_depth=max_depth, criterion=criterion)
        from_labels = learner.fit_multiclass(codes, y, weight)
        from_dense = learner.fit_multiclass(codes, y, _dense_class_weights(y, weight, n_classes))
        _assert_same_tree(from_labels, from_dense)


@pytest.mark.parametrize("estimator", [SAMME, AdaBoostM1])
@pytest.mark.parametrize("few_codes", [False, True])
def test_multiclass_boosting_rounds_are_identical_with_dense_histograms(
    monkeypatch, estimator, few_codes
):
    """SAMME and AdaBoost.M1 with the label kernel, and with every histogram built dense
    over all 256 bins."""
    rng = np.random.default_rng(11)
    n = 3001
    codes = _mixed_codes(rng, n)
    if few_codes:
        codes = codes % 12
    codes = codes.astype(np.float64)
    X = np.column_stack([codes, rng.normal(size=(n, 3)).round(1)])
    y = np.digitize(X[:, -1] + codes[:, 8] / 4 + 0.5 * rng.normal(size=n), [-0.5, 0.5, 1.5])

    def dense_label_histogram(codes, labels, weight, n_classes, sample_index=None, n_bins=256):
        dense = _dense_class_weights(labels, weight, n_classes)
        return _reference_histogram(codes, dense, sample_index)

    new = estimator(n_estimators=10, max_depth=3).fit(X, y)
    with monkeypatch.context() as patch:
        patch.setattr(_histogram_kernels, "build_label_histogram", dense_label_histogram)
        old = estimator(n_estimators=10, max_depth=3).fit(X, y)
    assert len(new.estimators_) == len(old.estimators_) > 1
    for a, b in zip(new.estimators_, old.estimators_, strict=True):
        _assert_same_tree(a, b)
    _assert_same_bits(new.alphas_, old.alphas_)
    np.testing.assert_array_equal(new.predict(X), old.predict(X))


# ---------------------------------------------------------------- depth-1 trees: search histogram


@pytest.mark.parametrize("n", [1, 2, 9, 64, 1001, 3001])
def test_search_histogram_has_exact_counts_and_nearly_exact_sums(n):
    """Counts are those of ``build_histogram`` exactly; sums differ by rounding only, and the
    features that do not take the sparse path (no dominant code in the probe) are bitwise equal."""
    rng = np.random.default_rng(n)
    codes = _mixed_codes(rng, n)
    stats = _stats(rng, n)
    search, exact_rows = _search_histogram_kernels.build_search_histogram(codes, stats)
    exact = _histogram_kernels.build_histogram(codes, stats)
    assert search.shape == exact.shape
    np.testing.assert_array_equal(search[..., 2], exact[..., 2])
    np.testing.assert_allclose(search, exact, rtol=0, atol=1e-12 * max(1.0, stats.sum()))
    dominant = _search_histogram_kernels._dominant_codes(codes)
    dense = dominant < 0
    np.testing.assert_array_equal(exact_rows, dense)
    _assert_same_bits(search[dense], exact[dense])
    # the bundled path (read-only codes) marks the same rows exact, except the dense rows
    # with exactly two codes, which it sums without a histogram (exact counts, nearly exact
    # sums)
    frozen = _read_only(codes)
    two_code = _search_histogram_kernels.search_layout(frozen)[-1][:, 0] >= 0
    np.testing.assert_array_equal(two_code, dense & ((exact[..., 2] > 0).sum(axis=1) == 2))
    bundled, bundled_exact = _search_histogram_kernels.build_search_histogram(frozen, stats)
    np.testing.assert_array_equal(bundled_exact, dense & ~two_code)
    np.testing.assert_array_equal(bundled[..., 2], exact[..., 2])
    np.testing.assert_allclose(bundled, exact, rtol=0, atol=1e-12 * max(1.0, stats.sum()))
    _assert_same_bits(bundled[bundled_exact], exact[bundled_exact])
    if n >= 64:  # one-hot columns are sparse (code 0 or, mostly 1, code 1), every-code dense
        assert dominant[1] == 0 and dominant[5] == 1 and dominant[6] == -1
        assert two_code[12] and not two_code[6] and not two_code[5]  # codes 0 and 255: two-code


@pytest.mark.parametrize("n", [1, 2, 9, 1001])
def test_exact_feature_histograms_are_bitwise_build_histogram_rows(n):
    """The stump's rescan of one or two features: the rows of ``build_histogram``, bit for bit
    (a three-channel ``stats`` goes through ``build_histogram`` itself)."""
    rng = np.random.default_rng(n)
    codes = _mixed_codes(rng, n)
    stats = _stats(rng, n)
    exact = _histogram_kernels.build_histogram(codes, stats)
    for features in ([0], [3], [0, 5], [codes.shape[1] - 1, 1]):
        chosen = np.array(features, dtype=np.int64)
        _assert_same_bits(
            _search_histogram_kernels.exact_feature_histograms(codes, stats, chosen), exact[chosen]
        )
    three = np.column_stack([stats, rng.random(n)])
    chosen = np.array([0, 2], dtype=np.int64)
    _assert_same_bits(
        _search_histogram_kernels.exact_feature_histograms(codes, three, chosen),
        _histogram_kernels.build_histogram(codes, three)[chosen],
    )


def _exact_tree(learner, fit, codes, target, weight):
    """The same fit through the general growth loop on exact histograms."""
    original = DecisionTree._grow

    def exact_grow(self, codes, stats, kind, **options):
        return original(self, codes, stats, kind, stump_search=False, **options)

    DecisionTree._grow = exact_grow
    try:
        return getattr(learner, fit)(codes, target, weight)
    finally:
        DecisionTree._grow = original


def _same_tree(a, b):
    for name in ("node_feature", "node_bin", "node_left", "node_right", "node_leaf"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    _assert_same_bits(a.leaf_values_, b.leaf_values_)
    _assert_same_bits(a.leaf_statistics_, b.leaf_statistics_)
    assert a.depth_ == b.depth_


@pytest.mark.parametrize("frozen", [False, True], ids=["writable", "read-only"])
@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("criterion", ["error", "gini", "entropy", "squared_error"])
@pytest.mark.parametrize("seed", range(6))
def test_trees_from_the_search_histogram_equal_the_exact_ones(depth, criterion, seed, frozen):
    """Same splits, same leaves, bit for bit, as growing the tree on ``build_histogram``
    (ties between duplicate and complementary columns included): the stump's search, and for
    deeper trees the root's search, the smaller children's node search histograms (read-only
    codes, whose bundles they read) and the larger children's subtractions, each split checked
    on exact rows."""
    rng = np.random.default_rng(seed)
    for n in (1, 2, 5, 40, 300, 2500):
        codes = _mixed_codes(rng, n)
        if frozen:
            codes = _read_only(codes)
        y = rng.choice([-1.0, 1.0], size=n)
        weight = rng.uniform(0.0, 1.0, size=n)
        if seed % 2:
            weight = np.round(weight * 4) / 4 + 0.25  # many equal weights: exact ties
        learner = DecisionTree(max_depth=depth, criterion=criterion, min_samples_leaf=1 + seed % 3)
        if criterion == "squared_error":
            fit, target = "fit_regression", rng.standard_normal(n)
        else:
            fit, target = "fit_binary", y
            if criterion == "error" and seed % 3 == 0:
                weight = weight * rng.choice([-1.0, 1.0], size=n)  # signed weights
        if not np.any(weight != 0):
            continue
        _same_tree(
            getattr(learner, fit)(codes, target, weight),
            _exact_tree(learner, fit, codes, target, weight),
        )


def test_depth_one_tree_falls_back_to_the_exact_histogram_when_the_check_disagrees(monkeypatch):
    """A search histogram that points at the wrong feature is caught by the check on the exact
    histogram of that feature, and the exact histogram of every feature decides."""
    rng = np.random.default_rng(5)
    n = 500
    codes = _mixed_codes(rng, n)
    y = rng.choice([-1.0, 1.0], size=n)
    codes[:, 4] = (y > 0).astype(np.uint8)  # the best split by far
    codes = np.asfortranarray(codes)
    weight = rng.uniform(0.1, 1.0, size=n)
    learner = DecisionTree(max_depth=1, criterion="gini")
    expected = _exact_tree(learner, "fit_binary", codes, y, weight)
    assert expected.node_feature[0] == 4

    def misleading(codes, stats):
        hist = _histogram_kernels.build_histogram(codes, stats)
        hist[[2, 4]] = hist[[4, 2]]  # the search now prefers feature 2
        return hist, np.zeros(codes.shape[1], dtype=bool)

    monkeypatch.setattr(_search_histogram_kernels, "build_search_histogram", misleading)
    _same_tree(learner.fit_binary(codes, y, weight), expected)


def test_depth_one_tree_checks_a_search_that_finds_no_split(monkeypatch):
    """A search histogram that offers no split does not make a leaf by itself: the exact
    histogram of every feature decides."""
    rng = np.random.default_rng(6)
    n = 300
    codes = _mixed_codes(rng, n)
    y = rng.choice([-1.0, 1.0], size=n)
    weight = rng.uniform(0.1, 1.0, size=n)
    learner = DecisionTree(max_depth=1, criterion="error")
    expected = _exact_tree(learner, "fit_binary", codes, y, weight)
    assert expected.node_feature[0] >= 0

    def no_split(codes, stats):
        hist = np.zeros_like(_histogram_kernels.build_histogram(codes, stats))
        hist[:, 0, :2] = stats.sum(axis=0)  # every sample in bin 0 of every feature
        hist[:, 0, 2] = codes.shape[0]
        return hist, np.zeros(codes.shape[1], dtype=bool)

    monkeypatch.setattr(_search_histogram_kernels, "build_search_histogram", no_split)
    _same_tree(learner.fit_binary(codes, y, weight), expected)


# ---------------------------------------------------------------- depth-1 trees: bundled search


def _bundling_codes(rng, n):
    """``_mixed_codes`` plus two more one-hot groups, sparse columns with many codes (more
    than fit one bundle together) and two sparse columns that overlap in one sample."""
    columns = [_mixed_codes(rng, n)]
    for n_categories in (7, 30):
        categories = rng.integers(0, n_categories, size=n)
        columns.append(np.column_stack([categories == k for k in range(n_categories)]))
    for _ in range(3):  # 10% of the samples off code 0, spread over up to 200 codes
        column = np.zeros(n, dtype=np.uint8)
        off = rng.random(n) < 0.1
        column[off] = rng.integers(1, 201, size=int(off.sum()))
        columns.append(column[:, None])
    clash = np.zeros((n, 2), dtype=np.uint8)
    clash[:: max(1, n // 20), 0] = 1
    clash[:: max(1, n // 15), 1] = 1  # shares sample 0 with the column before
    columns.append(clash)
    return np.asfortranarray(np.column_stack(columns).astype(np.uint8))


def _read_only(codes):
    frozen = codes.copy(order="F")
    frozen.setflags(write=False)
    return frozen


@pytest.mark.parametrize("n", [1, 9, 64, 1001, 3001])
def test_bundled_search_histogram_is_bitwise_the_unbundled_one(n):
    """Read-only codes take the bundled path; its histogram is bitwise the member scans'."""
    rng = np.random.default_rng(100 + n)
    codes = _bundling_codes(rng, n)
    stats = _stats(rng, n)
    frozen = _read_only(codes)
    assert (
        _search_histogram_kernels.search_layout(codes) is None
    )  # writable: no layout, the member scans
    layout = _search_histogram_kernels.search_layout(frozen)
    assert layout is not None
    bundled = _search_histogram_kernels.build_search_histogram(frozen, stats)[0]
    unbundled = _search_histogram_kernels.build_search_histogram(codes, stats)[0]
    two_code = layout[-1][:, 0] >= 0  # summed without a histogram on the bundled path only
    _assert_same_bits(bundled[~two_code], unbundled[~two_code])
    np.testing.assert_array_equal(bundled[..., 2], unbundled[..., 2])
    np.testing.assert_allclose(bundled, unbundled, rtol=0, atol=1e-12 * max(1.0, stats.sum()))


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5, 1001])
def test_two_code_sums_are_the_sums_over_the_code(n):
    """The branch-free four-lane sums of a two-code column's samples: the exact sums of the
    samples with that code up to rounding (negative statistics too), and 0 when none has it."""
    rng = np.random.default_rng(200 + n)
    column = np.where(rng.random(n) < 0.4, 7, 200).astype(np.uint8)
    stat0, stat1 = rng.normal(size=n), rng.uniform(size=n)
    for code in (7, 200, 3):
        got = _search_histogram_kernels._code_sums_two_channels(column, code, stat0, stat1)
        chosen = column == code
        want = (math.fsum(stat0[chosen]), math.fsum(stat1[chosen]))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)
    counts = _histogram_kernels._root_counts(np.asfortranarray(np.column_stack([column, column])))
    two_code = _search_histogram_kernels._two_code_features(
        counts, np.array([-1, 7], dtype=np.int64)
    )
    if np.unique(column).shape[0] == 2:  # the rarer code first; never a sparse feature
        assert two_code[0].tolist() == sorted([7, 200], key=lambda c: (column == c).sum())
    else:
        assert two_code[0].tolist() == [-1, -1]
    assert two_code[1].tolist() == [-1, -1]


@pytest.mark.parametrize("n", [1, 2, 9, 1001, 3001])
def test_root_histogram_from_the_kept_counts_is_bitwise_the_full_one(n):
    """Read-only codes: the root histogram starts from the counts kept for the array and adds
    the weight channels only; it is bitwise the histogram that counts every sample."""
    rng = np.random.default_rng(300 + n)
    codes = _bundling_codes(rng, n)
    stats = _stats(rng, n)
    frozen = _read_only(codes)
    assert _histogram_kernels.root_counts(codes) is None  # writable: counted in every histogram
    counts = _histogram_kernels.root_counts(frozen)
    assert counts is not None and _histogram_kernels.root_counts(frozen) is counts
    _assert_same_bits(
        _histogram_kernels.build_histogram(frozen, stats),
        _histogram_kernels.build_histogram(codes, stats),
    )
    _assert_same_bits(
        _histogram_kernels.build_histogram(frozen, stats)[..., 2],
        _histogram_kernels._root_counts(codes)[..., 2],
    )


def test_bundles_are_conflict_free_and_decode_to_their_members():
    """Every bundle entry names one member's code; members never share a sample; the one-hot
    groups end up bundled; the columns that overlap are not in the same bundle."""
    rng = np.random.default_rng(7)
    n = 2000
    codes = _read_only(_bundling_codes(rng, n))
    dominant, bundle_of, code_map, start, rows, bundle_codes, *_ = (
        _search_histogram_kernels.search_layout(codes)
    )
    n_bundles = start.shape[0] - 1
    assert n_bundles >= 2
    for g in range(n_bundles):
        members = np.flatnonzero(bundle_of == g)
        assert members.shape[0] >= 2  # bundles of one feature are left to the member scan
        g_rows, g_codes = rows[start[g] : start[g + 1]], bundle_codes[start[g] : start[g + 1]]
        assert (np.diff(g_rows) > 0).all()  # sample order, each sample once
        assert code_map[members].max() < 256
        decoded = np.zeros(n, dtype=np.int64)
        for j in members:
            off = np.flatnonzero(codes[:, j] != dominant[j])
            assert (decoded[off] == 0).all()  # no sample off its dominant code in two members
            decoded[off] = code_map[j, codes[off, j]]
        np.testing.assert_array_equal(np.flatnonzero(decoded), g_rows)
        np.testing.assert_array_equal(decoded[g_rows], g_codes)
    assert (bundle_of[:5] >= 0).all()  # the one-hot group of _mixed_codes
    first, second = bundle_of[-2:]  # the two columns that share sample 0
    assert first != second or first == -1
    assert (bundle_of[dominant < 0] == -1).all()


def test_search_layout_is_kept_for_the_array_and_only_while_it_lives():
    """The layout is computed once per read-only array, dropped with the array, and never
    computed for an array that can change (writable, or a read-only view of a writable one)."""
    rng = np.random.default_rng(8)
    codes = _bundling_codes(rng, 500)
    frozen = _read_only(codes)
    first = _search_histogram_kernels.search_layout(frozen)
    assert _search_histogram_kernels.search_layout(frozen) is first
    key = id(frozen)
    assert key in _search_histogram_kernels._LAYOUTS
    del frozen
    assert key not in _search_histogram_kernels._LAYOUTS
    view = codes[:, :5]
    view.setflags(write=False)
    assert _search_histogram_kernels.search_layout(view) is None


def test_boosting_on_read_only_codes_matches_the_member_scans(monkeypatch):
    """AdaBoost with stumps on one-hot data: the bundled search gives the same rounds as the
    search without bundles."""
    rng = np.random.default_rng(9)
    n = 3000
    codes = _bundling_codes(rng, n)
    X = codes.astype(np.float64)
    y = np.where(codes[:, 1] + codes[:, 13] + (rng.random(n) < 0.2) > 0, 1, -1)
    new = AdaBoost(n_estimators=30, max_depth=1).fit(X, y)
    with monkeypatch.context() as patch:
        patch.setattr(_search_histogram_kernels, "search_layout", lambda codes: None)
        old = AdaBoost(n_estimators=30, max_depth=1).fit(X, y)
    assert len(new.estimators_) == len(old.estimators_) == 30
    for a, b in zip(new.estimators_, old.estimators_, strict=True):
        _assert_same_tree(a, b)
    _assert_same_bits(new.alphas_, old.alphas_)


@pytest.mark.parametrize("error_criterion", [True, False])
def test_binary_stats_are_bitwise_the_numpy_expressions(error_criterion):
    rng = np.random.default_rng(10)
    n = 1001
    y = rng.choice([-1.0, 1.0], size=n)
    weight = rng.standard_normal(n)
    weight[:2] = [-0.0, 0.0]
    expected = np.zeros((n, 2))
    if error_criterion:
        expected[:, 0], expected[:, 1] = np.abs(weight), weight * y
    else:
        expected[:, 0] = np.where(y < 0, weight, 0.0)
        expected[:, 1] = np.where(y > 0, weight, 0.0)
    _assert_same_bits(_input_kernels.binary_stats(y, weight, error_criterion), expected)


@pytest.mark.parametrize("swap", [True, False])
def test_deeper_tree_falls_back_to_exact_histograms_when_the_check_disagrees(monkeypatch, swap):
    """A search histogram that points at the wrong feature, or offers no split, is caught by
    the check on the exact rows; the node's exact histogram decides and the tree is the exact
    growth's."""
    rng = np.random.default_rng(7)
    n = 600
    codes = _mixed_codes(rng, n)
    y = rng.choice([-1.0, 1.0], size=n)
    # the best root split by far, with some errors left for the children to split on
    codes[:, 4] = ((y > 0) != (rng.random(n) < 0.15)).astype(np.uint8)
    codes = np.asfortranarray(codes)
    weight = rng.uniform(0.1, 1.0, size=n)
    learner = DecisionTree(max_depth=3, criterion="gini")
    expected = _exact_tree(learner, "fit_binary", codes, y, weight)
    assert expected.node_feature[0] == 4 and expected.depth_ >= 2

    def wrong(codes, stats):
        hist = _histogram_kernels.build_histogram(codes, stats)
        if swap:
            hist[[2, 4]] = hist[[4, 2]]  # the search now prefers feature 2
        else:
            hist[:] = 0.0
            hist[:, 0, :2] = stats.sum(axis=0)  # every sample in bin 0: no split
            hist[:, 0, 2] = codes.shape[0]
        return hist, np.zeros(codes.shape[1], dtype=bool)

    monkeypatch.setattr(_search_histogram_kernels, "build_search_histogram", wrong)
    _same_tree(learner.fit_binary(codes, y, weight), expected)


@pytest.mark.parametrize("n", [1, 2, 9, 64, 1001, 3001])
def test_node_search_histogram_against_the_exact_node_histogram(n):
    """A node's search histogram (read-only codes): the exact counts, the sums within rounding,
    the rows of the features outside the bundles bitwise ``build_histogram``'s and marked so;
    the exact rows summed again for a node are ``build_histogram``'s bit for bit."""
    rng = np.random.default_rng(200 + n)
    codes = _read_only(_bundling_codes(rng, n))
    stats = _stats(rng, n)
    layout = _search_histogram_kernels.node_layout(codes)
    dominant, bundle_of, code_map, columns, unbundled = layout
    assert columns.shape[1] > 0 if n >= 64 else True
    for samples in (
        np.arange(n, dtype=np.int64),
        np.sort(rng.choice(n, size=max(1, n // 3), replace=False)).astype(np.int64),
        np.array([n - 1], dtype=np.int64),
    ):
        built = _search_histogram_kernels.build_node_search_histogram(codes, stats, samples)
        exact = _histogram_kernels.build_histogram(codes, stats, samples)
        if columns.shape[1] == 0:
            assert built is None
            continue
        search, exact_rows = built
        np.testing.assert_array_equal(exact_rows, bundle_of < 0)
        np.testing.assert_array_equal(search[..., 2], exact[..., 2])
        scale = max(1.0, np.abs(stats).sum())
        np.testing.assert_allclose(search, exact, rtol=0, atol=1e-12 * scale)
        _assert_same_bits(search[exact_rows], exact[exact_rows])
        chosen = np.array([0, codes.shape[1] - 1, int(np.argmax(bundle_of))], dtype=np.int64)
        _assert_same_bits(
            _search_histogram_kernels.exact_feature_histograms(codes, stats, chosen, samples),
            exact[chosen],
        )
    # a writable array has no layout: the exact histogram is built instead
    assert (
        _search_histogram_kernels.build_node_search_histogram(
            codes.copy(), stats, np.arange(n, dtype=np.int64)
        )
        is None
    )


@pytest.mark.skipif(
    __import__("numba").config.DISABLE_JIT, reason="workers are threads of compiled code"
)
def test_search_histograms_on_several_workers_are_bitwise_one_workers():
    """Large enough for several workers (when numba has several threads), the root's and a
    node's search histograms are bitwise those of the one-worker kernels, which a fit on small
    data uses alone (so it never compiles the parallel loop)."""
    import numba

    kernels = _search_histogram_kernels
    rng = np.random.default_rng(7)
    n = 60_000
    dense = rng.integers(0, 40, size=(n, 30)).astype(np.uint8)
    codes = _read_only(np.asfortranarray(np.column_stack([_bundling_codes(rng, n), dense])))
    stats = _stats(rng, n)
    threads = numba.get_num_threads()
    assert not kernels._one_worker(threads, *codes.shape) or threads == 1
    layout = kernels.search_layout(codes)
    n_workers, _ = kernels._bundled_search_tasks(codes, stats, threads, *layout[:2], *layout[3:])
    assert n_workers == min(threads, 2)  # the cost is between 2 and 3 million
    _assert_same_bits(
        kernels.build_search_histogram(codes, stats)[0],
        kernels._bundled_search_histogram_one_worker(codes, stats, *layout),
    )
    node = kernels.node_layout(codes)
    samples = np.sort(rng.choice(n, size=n // 2 + 20_000, replace=False)).astype(np.int64)
    assert not kernels._one_worker(threads, samples.shape[0], codes.shape[1]) or threads == 1
    _assert_same_bits(
        kernels.build_node_search_histogram(codes, stats, samples)[0],
        kernels._node_search_histogram_one_worker(
            codes, np.ascontiguousarray(stats), samples, *node
        ),
    )
