"""Tests of marginboost.weak.tree: histogram trees against scikit-learn, brute force, invariances."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from marginboost.weak import (
    BinMapper,
    DecisionTree,
    FittedTree,
    _apply_kernels,
    _histogram_kernels,
    _input_kernels,
    _split_kernels,
)


def small_integer_data(seed, n=80, d=4, levels=5):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, levels, size=(n, d)).astype(float)
    weight = rng.uniform(0.2, 2.0, size=n)
    return rng, X, weight


def same_partition(labels_a, labels_b):
    """Whether two leaf labelings induce the same partition of the samples."""
    pairs = set(zip(labels_a.tolist(), labels_b.tolist()))
    return len(pairs) == len(set(labels_a.tolist())) == len(set(labels_b.tolist()))


def assert_same_partition_up_to_pure_splits(reference_leaves, our_leaves, pure):
    """Our partition equals scikit-learn's, except that scikit-learn may split a pure node.

    scikit-learn computes a child's class weights by subtraction, so a pure child can show an
    impurity of a few ulps above its ``EPSILON`` and be split with zero decrease.  Such extra
    splits refine one of our leaves; ``pure(mask)`` checks that the refined leaf is pure.
    """
    pairs = set(zip(reference_leaves.tolist(), our_leaves.tolist()))
    assert len(pairs) == len(set(reference_leaves.tolist())), "not a coarsening of the reference"
    for leaf in set(our_leaves.tolist()):
        mask = our_leaves == leaf
        if len(set(reference_leaves[mask].tolist())) > 1:
            assert pure(mask), f"leaf {leaf} is refined by the reference but is not pure"


# ----------------------------------------------------------------------------- scikit-learn
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("max_depth", [1, 2, 4])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_classifier_matches_sklearn(criterion, max_depth, n_classes):
    """Same leaf partition and predictions as DecisionTreeClassifier (exact binning).

    Random integer features with continuous random weights: distinct partitions never tie, and
    features inducing the same partition of a node give the same leaves, so the partitions must
    be identical whatever the order in which scikit-learn visits features.
    """
    for seed in range(8):
        rng, X, weight = small_integer_data(seed + 100 * n_classes)
        y = rng.integers(0, n_classes, size=X.shape[0])
        mapper = BinMapper().fit(X)
        codes = mapper.transform(X)
        reference = DecisionTreeClassifier(
            max_depth=max_depth, criterion=criterion, random_state=seed
        ).fit(X, y, sample_weight=weight)
        learner = DecisionTree(max_depth=max_depth, criterion=criterion)
        if n_classes == 2:
            tree = learner.fit_binary(codes, np.where(y == 1, 1, -1), weight)
            ours = (tree.predict(codes) > 0).astype(int)
        else:
            tree = learner.fit_multiclass(codes, y, weight)
            ours = tree.predict(codes).astype(int)
        assert_same_partition_up_to_pure_splits(
            reference.apply(X), tree.apply(codes), lambda mask: len(set(y[mask].tolist())) == 1
        )
        np.testing.assert_array_equal(ours, reference.predict(X))


@pytest.mark.parametrize("min_samples_leaf,min_weight_fraction", [(5, 0.0), (1, 0.1)])
def test_leaf_constraints_match_sklearn(min_samples_leaf, min_weight_fraction):
    for seed in range(6):
        rng, X, weight = small_integer_data(seed, n=120)
        y = rng.integers(0, 2, size=X.shape[0])
        codes = BinMapper().fit_transform(X)
        reference = DecisionTreeClassifier(
            max_depth=3,
            min_samples_leaf=min_samples_leaf,
            min_weight_fraction_leaf=min_weight_fraction,
            random_state=0,
        ).fit(X, y, sample_weight=weight)
        tree = DecisionTree(
            max_depth=3,
            criterion="gini",
            min_samples_leaf=min_samples_leaf,
            min_weight_leaf=min_weight_fraction * weight.sum(),
        ).fit_binary(codes, 2 * y - 1, weight)
        assert_same_partition_up_to_pure_splits(
            reference.apply(X), tree.apply(codes), lambda mask: len(set(y[mask].tolist())) == 1
        )
        leaves = tree.apply(codes)
        assert np.bincount(leaves).min() >= min_samples_leaf
        assert (
            np.bincount(leaves, weights=weight).min() >= min_weight_fraction * weight.sum() - 1e-12
        )


@pytest.mark.parametrize("max_depth", [1, 3, 5])
def test_regressor_matches_sklearn(max_depth):
    for seed in range(8):
        rng, X, weight = small_integer_data(seed, n=100)
        target = X[:, 0] - 2 * X[:, 1] + rng.normal(size=X.shape[0])
        codes = BinMapper().fit_transform(X)
        reference = DecisionTreeRegressor(max_depth=max_depth, random_state=seed).fit(
            X, target, sample_weight=weight
        )
        tree = DecisionTree(max_depth=max_depth, criterion="squared_error").fit_regression(
            codes, target, weight
        )
        assert same_partition(reference.apply(X), tree.apply(codes)), seed
        np.testing.assert_allclose(
            tree.predict(codes), reference.predict(X), rtol=1e-12, atol=1e-12
        )


def test_vector_tree_matches_sklearn_multioutput():
    for seed in range(6):
        rng, X, weight = small_integer_data(seed, n=100)
        targets = np.column_stack(
            [X[:, 0] + rng.normal(size=100), X[:, 2] * rng.normal(size=100), rng.normal(size=100)]
        )
        codes = BinMapper().fit_transform(X)
        reference = DecisionTreeRegressor(max_depth=3, random_state=seed).fit(
            X, targets, sample_weight=weight
        )
        tree = DecisionTree(max_depth=3, criterion="squared_error").fit_vector(
            codes, targets, weight
        )
        assert same_partition(reference.apply(X), tree.apply(codes)), seed
        assert tree.leaf_values_.shape == (tree.n_leaves_, 3)
        np.testing.assert_allclose(tree.predict_vector(codes), reference.predict(X), atol=1e-12)


# ----------------------------------------------------------------------------- brute force
def brute_force_stump_gain(X_codes, stats_fn, score_fn):
    """Best gain over every (feature, cut) split, evaluated from raw per-sample statistics."""
    parent = score_fn(stats_fn(np.ones(X_codes.shape[0], bool)))
    best = -np.inf
    for feature in range(X_codes.shape[1]):
        for cut in np.unique(X_codes[:, feature])[:-1]:
            left = X_codes[:, feature] <= cut
            best = max(best, score_fn(stats_fn(left)) + score_fn(stats_fn(~left)) - parent)
    return best


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000), st.integers(5, 40), st.integers(1, 5))
def test_error_stump_maximizes_edge_brute_force(seed, n, d):
    """The stump's edge sum_i w_i y_i h(x_i) equals the maximum over all stumps (signed w)."""
    rng = np.random.default_rng(seed)
    codes = np.asfortranarray(rng.integers(0, 4, size=(n, d)).astype(np.uint8))
    y = rng.choice([-1.0, 1.0], size=n)
    weight = rng.normal(size=n)
    tree = DecisionTree(max_depth=1, criterion="error").fit_binary(codes, y, weight)
    g = weight * y
    best_edge = abs(g.sum())  # a constant hypothesis
    for feature in range(d):
        for cut in range(4):
            left = codes[:, feature] <= cut
            best_edge = max(best_edge, abs(g[left].sum()) + abs(g[~left].sum()))
    edge = float(np.sum(g * tree.predict(codes)))
    assert edge == pytest.approx(best_edge, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("criterion", ["gini", "entropy", "multiclass_error"])
def test_multiclass_stump_gain_brute_force(criterion):
    for seed in range(20):
        rng = np.random.default_rng(seed)
        n, d, k = 30, 3, 3
        codes = np.asfortranarray(rng.integers(0, 5, size=(n, d)).astype(np.uint8))
        y = rng.integers(0, k, size=n)
        class_weight = rng.uniform(0, 1, size=(n, k)) * (rng.random((n, k)) < 0.6)
        class_weight[np.arange(n), y] += 0.1

        def stats_fn(mask):
            return class_weight[mask].sum(axis=0)

        def score_fn(sums):
            total = sums.sum()
            if criterion == "gini":
                return float((sums**2).sum() / total) if total > 0 else 0.0
            if criterion == "entropy":
                positive = sums[sums > 0]
                return float((positive * np.log(positive / total)).sum())
            return float(sums.max())

        tree = DecisionTree(max_depth=1, criterion=criterion).fit_multiclass(codes, y, class_weight)
        leaves = tree.apply(codes)
        achieved = sum(score_fn(stats_fn(leaves == leaf)) for leaf in range(tree.n_leaves_))
        best = brute_force_stump_gain(codes, stats_fn, score_fn) + score_fn(
            stats_fn(np.ones(n, bool))
        )
        if criterion == "multiclass_error" and tree.n_leaves_ == 1:
            assert best <= achieved + 1e-12  # no split increases the objective
        else:
            assert achieved == pytest.approx(best, rel=1e-10)
        if criterion == "multiclass_error":
            # leaves predict the class of largest weight: the objective sum_i W_i,h(x_i)
            predicted = tree.predict(codes).astype(int)
            assert class_weight[np.arange(n), predicted].sum() == pytest.approx(achieved, rel=1e-12)


def greedy_error_tree_edge(codes, g, max_depth):
    """Reference greedy depth-k tree for the edge criterion, from scratch in numpy."""

    def grow(mask, depth):
        parent = abs(g[mask].sum())
        if depth == max_depth:
            return parent
        best, best_split = parent * (1 + 1e-10), None
        for feature in range(codes.shape[1]):
            for cut in range(int(codes[:, feature].max())):
                left = mask & (codes[:, feature] <= cut)
                right = mask & ~(codes[:, feature] <= cut)
                if left.any() and right.any():
                    gain = abs(g[left].sum()) + abs(g[right].sum())
                    if gain > best:
                        best, best_split = gain, (left, right)
        if best_split is None:
            return parent
        return grow(best_split[0], depth + 1) + grow(best_split[1], depth + 1)

    return grow(np.ones(codes.shape[0], bool), 0)


@pytest.mark.parametrize("max_depth", [2, 3])
def test_error_tree_matches_greedy_reference(max_depth):
    for seed in range(15):
        rng = np.random.default_rng(seed)
        n = 40
        codes = np.asfortranarray(rng.integers(0, 4, size=(n, 3)).astype(np.uint8))
        y = rng.choice([-1.0, 1.0], size=n)
        weight = rng.uniform(0.1, 1.0, size=n)
        tree = DecisionTree(max_depth=max_depth).fit_binary(codes, y, weight)
        edge = float(np.sum(weight * y * tree.predict(codes)))
        assert edge == pytest.approx(greedy_error_tree_edge(codes, weight * y, max_depth), rel=1e-9)
        # the edge is the weighted accuracy minus the weighted error
        error = weight[tree.predict(codes) != y].sum()
        assert edge == pytest.approx(weight.sum() - 2 * error)


def test_perfect_split_is_a_normal_result_and_xor_needs_no_zero_gain_split():
    codes = np.asfortranarray(np.array([[0, 1], [1, 0], [2, 1], [3, 0]], dtype=np.uint8))
    y = np.array([-1, -1, 1, 1])
    tree = DecisionTree(max_depth=1).fit_binary(codes, y)
    assert tree.splits() == [(0, 1)]
    np.testing.assert_array_equal(tree.predict(codes), y)
    # XOR of two binary features: gini splits the impure root (zero decrease, as scikit-learn)
    xor_codes = np.asfortranarray(np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.uint8))
    xor_y = np.array([-1, 1, 1, -1])
    gini_tree = DecisionTree(max_depth=2, criterion="gini").fit_binary(xor_codes, xor_y)
    np.testing.assert_array_equal(gini_tree.predict(xor_codes), xor_y)
    # ... while "error" splits only when the edge strictly increases
    error_tree = DecisionTree(max_depth=2, criterion="error").fit_binary(xor_codes, xor_y)
    assert error_tree.n_leaves_ == 1


# ----------------------------------------------------------------------------- invariances
codes_and_weights = st.integers(0, 10_000).map(lambda seed: np.random.default_rng(seed))


@settings(max_examples=30, deadline=None)
@given(codes_and_weights, st.integers(1, 4), st.sampled_from(["error", "gini", "entropy"]))
def test_invariances(rng, max_depth, criterion):
    n, d = 60, 4
    codes = np.asfortranarray(rng.integers(0, 6, size=(n, d)).astype(np.uint8))
    y = rng.choice([-1.0, 1.0], size=n)
    weight = rng.uniform(0.1, 1.0, size=n)
    learner = DecisionTree(max_depth=max_depth, criterion=criterion)
    tree = learner.fit_binary(codes, y, weight)
    # label flip: same splits, negated leaves
    flipped = learner.fit_binary(codes, -y, weight)
    assert flipped.splits() == tree.splits()
    np.testing.assert_array_equal(flipped.leaf_values_, -tree.leaf_values_)
    # weight scaling: same tree
    scaled = learner.fit_binary(codes, y, weight * 1e3)
    assert scaled.splits() == tree.splits()
    np.testing.assert_array_equal(scaled.leaf_values_, tree.leaf_values_)
    # permuting samples: same tree
    order = rng.permutation(n)
    permuted = learner.fit_binary(np.asfortranarray(codes[order]), y[order], weight[order])
    assert permuted.splits() == tree.splits()
    np.testing.assert_array_equal(permuted.leaf_values_, tree.leaf_values_)


@settings(max_examples=20, deadline=None)
@given(codes_and_weights, st.integers(1, 4))
def test_regression_invariances(rng, max_depth):
    n = 60
    codes = np.asfortranarray(rng.integers(0, 6, size=(n, 3)).astype(np.uint8))
    target = rng.normal(size=n)
    weight = rng.uniform(0.1, 1.0, size=n)
    learner = DecisionTree(max_depth=max_depth, criterion="squared_error")
    tree = learner.fit_regression(codes, target, weight)
    negated = learner.fit_regression(codes, -target, weight)
    assert negated.splits() == tree.splits()
    np.testing.assert_allclose(negated.leaf_values_, -tree.leaf_values_, atol=1e-12)
    shifted = learner.fit_regression(codes, target + 3.0, weight * 7.0)
    assert shifted.splits() == tree.splits()
    np.testing.assert_allclose(shifted.leaf_values_, tree.leaf_values_ + 3.0, atol=1e-12)


# ----------------------------------------------------------------------------- histograms
@pytest.mark.parametrize("n_channels", [2, 3])
def test_histogram_matches_bincount_and_subtraction(n_channels):
    rng = np.random.default_rng(1)
    n, d = 501, 6  # odd sizes exercise the tail of the two-way interleaved loops
    codes = np.asfortranarray(rng.integers(0, 40, size=(n, d)).astype(np.uint8))
    codes[:100, 0] = 7  # long runs of one code
    stats = rng.normal(size=(n, n_channels))
    parent = _histogram_kernels.build_histogram(codes, stats)
    for feature in range(d):
        np.testing.assert_array_equal(
            parent[feature, :, n_channels], np.bincount(codes[:, feature], minlength=256)
        )
        np.testing.assert_allclose(
            parent[feature, :, 0],
            np.bincount(codes[:, feature], weights=stats[:, 0], minlength=256),
            atol=1e-12,
        )
    subset = np.sort(rng.choice(n, 201, replace=False))
    child = _histogram_kernels.build_histogram(codes, stats, subset)
    rest = np.setdiff1d(np.arange(n), subset)
    sibling = _histogram_kernels.build_histogram(codes, stats, rest)
    for feature in range(d):
        for channel in range(n_channels):
            expected = np.bincount(
                codes[subset, feature], weights=stats[subset, channel], minlength=256
            )
            np.testing.assert_allclose(child[feature, :, channel], expected, atol=1e-12)
        np.testing.assert_array_equal(
            child[feature, :, n_channels], np.bincount(codes[subset, feature], minlength=256)
        )
    np.testing.assert_allclose(parent - child, sibling, atol=1e-12)


def test_tree_with_subtraction_equals_tree_from_scratch_histograms(monkeypatch):
    """Growing with histogram subtraction gives the same tree as building every histogram."""
    rng = np.random.default_rng(3)
    codes = np.asfortranarray(rng.integers(0, 8, size=(300, 5)).astype(np.uint8))
    y = rng.choice([-1.0, 1.0], size=300)
    weight = rng.uniform(0.1, 1.0, size=300)
    learner = DecisionTree(max_depth=4, criterion="gini")
    with_subtraction = learner.fit_binary(codes, y, weight)
    calls = []
    original = _histogram_kernels.build_histogram

    def counting(*args):
        calls.append(args[2].shape[0] if len(args) > 2 else args[0].shape[0])
        return original(*args)

    monkeypatch.setattr(_histogram_kernels, "build_histogram", counting)
    learner.fit_binary(codes, y, weight)
    # only the smaller child of each split below the last level is built from its samples (the
    # root's split is searched on the search histogram, which another kernel builds)
    assert calls and all(size <= 150 for size in calls)
    monkeypatch.setattr(_histogram_kernels, "build_histogram", original)
    from_scratch = _grow_without_subtraction(codes, y, weight, 4)
    assert from_scratch == with_subtraction.splits()


def _grow_without_subtraction(codes, y, weight, max_depth):
    """Depth-first pre-order splits, every node histogram built from its own samples."""
    stats = np.column_stack([np.where(y < 0, weight, 0.0), np.where(y > 0, weight, 0.0)])
    splits = []

    def grow(samples, depth):
        if depth == max_depth or samples.size < 2:
            return
        sums = stats[samples].sum(axis=0)
        if (sums > 0).sum() <= 1:
            return
        hist = _histogram_kernels.build_histogram(codes, stats, samples)
        feature, split_bin, _, _, _ = _split_kernels.find_best_split(
            hist, _input_kernels.GINI, 1, 0.0
        )
        if feature < 0:
            return
        splits.append((int(feature), int(split_bin)))
        left = samples[codes[samples, feature] <= split_bin]
        right = samples[codes[samples, feature] > split_bin]
        grow(left, depth + 1)
        grow(right, depth + 1)

    grow(np.arange(codes.shape[0]), 0)
    return splits


def test_ties_go_to_lowest_feature_then_lowest_bin():
    # features 0 and 2 are identical; feature 1 is a relabeled copy: all give the same split
    base = np.array([0, 0, 1, 1, 2, 2], dtype=np.uint8)
    codes = np.asfortranarray(np.column_stack([base + 3, base * 2 + 1, base + 3]).astype(np.uint8))
    y = np.array([-1, -1, 1, 1, 1, 1])
    tree = DecisionTree(max_depth=1).fit_binary(codes, y)
    assert tree.splits() == [(0, 3)]  # lowest feature, lowest bin producing the partition
    # two different cuts of one feature with the same edge gain (2): the lower bin wins
    alternating = np.asfortranarray(np.array([[0], [1], [2], [3]], dtype=np.uint8))
    tree = DecisionTree(max_depth=1).fit_binary(alternating, np.array([-1, 1, -1, 1]))
    assert tree.splits() == [(0, 0)]
    # ... and for squared error (mirror-symmetric targets)
    tree = DecisionTree(max_depth=1, criterion="squared_error").fit_regression(
        alternating, np.array([0.0, 1.0, 1.0, 0.0])
    )
    assert tree.splits() == [(0, 0)]


# ----------------------------------------------------------------------------- FittedTree API
def test_fitted_tree_api_and_pickle():
    rng, X, weight = small_integer_data(0, n=200)
    mapper = BinMapper().fit(X)
    codes = mapper.transform(X)
    y = np.where(X[:, 0] + X[:, 1] > 4, 1, -1)
    tree = DecisionTree(max_depth=2).fit_binary(codes, y, weight)
    assert isinstance(tree, FittedTree)
    leaves = tree.apply(codes)
    assert leaves.dtype == np.int64 and leaves.min() >= 0 and leaves.max() < tree.n_leaves_
    assert tree.depth_ == 2
    new_values = np.arange(tree.n_leaves_, dtype=float) * 0.5
    relabeled = tree.with_leaf_values(new_values)
    np.testing.assert_array_equal(relabeled.predict(codes), new_values[leaves])
    np.testing.assert_array_equal(tree.predict(codes), tree.leaf_values_[leaves])  # unchanged
    vector = tree.with_leaf_values(np.ones((tree.n_leaves_, 3)))
    assert vector.predict_vector(codes).shape == (200, 3)
    with pytest.raises(ValueError, match="predict_vector"):
        vector.predict(codes)
    for count in (tree.n_leaves_ + 1, tree.n_leaves_ - 1):  # one value per leaf, no more or less
        with pytest.raises(ValueError, match=rf"values must have shape \({tree.n_leaves_},\)"):
            tree.with_leaf_values(np.ones(count))
    restored = pickle.loads(pickle.dumps(tree))
    np.testing.assert_array_equal(restored.predict(codes), tree.predict(codes))
    assert len(pickle.dumps(tree)) < 4000
    text = tree.describe(mapper, feature_names=["a", "b", "c", "d"])
    feature, split_bin = tree.splits()[0]
    assert f"{'abcd'[feature]} <= {mapper.bin_thresholds_[feature][split_bin]:.6g}" in text
    assert text.count("leaf") == tree.n_leaves_
    # leaf statistics are the per-leaf sums of [|w|, w y]
    np.testing.assert_allclose(
        tree.leaf_statistics_,
        np.column_stack(
            [
                np.bincount(leaves, weights=np.abs(weight), minlength=tree.n_leaves_),
                np.bincount(leaves, weights=weight * y, minlength=tree.n_leaves_),
            ]
        ),
    )


def test_bad_inputs_raise_clear_errors():
    codes = np.asfortranarray(np.zeros((4, 2), dtype=np.uint8))
    y = np.array([1, -1, 1, -1])
    learner = DecisionTree()
    with pytest.raises(ValueError, match="uint8"):
        learner.fit_binary(codes.astype(np.int32), y)
    with pytest.raises(ValueError, match="sample_weight.*shape"):
        learner.fit_binary(codes, y, np.ones(3))
    with pytest.raises(ValueError, match="sample_weight.*NaN"):
        learner.fit_binary(codes, y, np.array([1.0, np.nan, 1.0, 1.0]))
    with pytest.raises(ValueError, match="all zero"):
        learner.fit_binary(codes, y, np.zeros(4))
    with pytest.raises(ValueError, match="-1 and \\+1"):
        learner.fit_binary(codes, np.array([0, 1, 1, 0]))
    with pytest.raises(ValueError, match="non-negative"):
        DecisionTree(criterion="gini").fit_binary(codes, y, np.array([1.0, -1.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="criterion"):
        DecisionTree(criterion="gini").fit_regression(codes, np.ones(4))
    with pytest.raises(ValueError, match="criterion"):
        DecisionTree(criterion="bogus").fit_binary(codes, y)
    with pytest.raises(ValueError, match="max_depth"):
        DecisionTree(max_depth=0).fit_binary(codes, y)
    with pytest.raises(ValueError, match="min_samples_leaf"):
        DecisionTree(min_samples_leaf=0).fit_binary(codes, y)
    with pytest.raises(ValueError, match="min_weight_leaf"):
        DecisionTree(min_weight_leaf=-1.0).fit_binary(codes, y)
    with pytest.raises(ValueError, match="class_weight"):
        DecisionTree(criterion="gini").fit_multiclass(
            codes, np.array([0, 1, 2, 0]), np.ones((4, 2))
        )
    tree = learner.fit_binary(codes, y)
    with pytest.raises(ValueError, match="fitted on 2"):
        tree.predict(np.zeros((3, 5), dtype=np.uint8))


def test_constant_features_give_a_single_leaf():
    codes = np.asfortranarray(np.zeros((10, 3), dtype=np.uint8))
    y = np.array([1, -1] * 5)
    for criterion in ("error", "gini"):
        tree = DecisionTree(max_depth=3, criterion=criterion).fit_binary(codes, y)
        assert tree.n_leaves_ == 1 and tree.depth_ == 0


def _walk_reference(codes, tree):
    """Leaf of every sample by the plain definition: go left while ``code <= bin``."""
    leaves = []
    for row in codes:
        node = 0
        while tree.node_leaf[node] < 0:
            go_left = row[tree.node_feature[node]] <= tree.node_bin[node]
            node = tree.node_left[node] if go_left else tree.node_right[node]
        leaves.append(tree.node_leaf[node])
    return np.array(leaves, dtype=np.int64)


@pytest.mark.parametrize("max_depth", [1, 2, 4])
@pytest.mark.parametrize("n", [1, 7, 300, 25_000])
def test_apply_and_predict_follow_the_tree_definition(max_depth, n):
    """The stump kernel, the serial and the parallel walks (absorbing leaves, fixed depth) give
    the leaves of the plain walk, and ``predict`` their values."""
    rng = np.random.default_rng(n + max_depth)
    X = rng.standard_normal((max(n, 40), 5))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 > 0.3, 1.0, -1.0)
    mapper = BinMapper().fit(X)
    codes = mapper.transform(X)
    tree = DecisionTree(max_depth=max_depth, criterion="gini").fit_binary(codes, y, None)
    codes = codes[:n]
    expected = _walk_reference(codes, tree)
    np.testing.assert_array_equal(tree.apply(codes), expected)
    np.testing.assert_array_equal(tree.predict(codes), tree.leaf_values_[expected])
    arrays = (tree.node_feature, tree.node_bin, tree.node_left, tree.node_right, tree.node_leaf)
    np.testing.assert_array_equal(_apply_kernels._apply_serial(codes, *arrays), expected)
    np.testing.assert_array_equal(_apply_kernels._apply_parallel(codes, *arrays), expected)


def test_walk_handles_hand_made_node_orders_and_single_leaves():
    """Children stored before their parents, unequal leaf depths, and a tree that is a leaf."""
    codes = np.asfortranarray(np.array([[0, 5], [3, 1], [3, 9], [1, 0]], dtype=np.uint8))
    # node 3 is the root's right child and splits again; nodes 0..2 are leaves
    node_feature = np.array([-1, -1, -1, 1, 0], dtype=np.int64)
    node_bin = np.array([-1, -1, -1, 4, 2], dtype=np.int64)
    node_left = np.array([-1, -1, -1, 1, 0], dtype=np.int64)
    node_right = np.array([-1, -1, -1, 2, 3], dtype=np.int64)
    node_leaf = np.array([0, 1, 2, -1, -1], dtype=np.int64)
    # root is node 0 in the kernels: move node 4 to the front
    order = np.array([4, 0, 1, 2, 3])
    position = np.argsort(order)
    arrays = (
        node_feature[order],
        node_bin[order],
        np.where(node_left[order] >= 0, position[np.maximum(node_left[order], 0)], -1),
        np.where(node_right[order] >= 0, position[np.maximum(node_right[order], 0)], -1),
        node_leaf[order],
    )
    expected = [0, 1, 2, 0]  # codes[:, 0] <= 2 -> leaf 0; else codes[:, 1] <= 4 -> 1 / 2
    np.testing.assert_array_equal(_apply_kernels.apply_tree(codes, *arrays), expected)
    np.testing.assert_array_equal(_apply_kernels._apply_parallel(codes, *arrays), expected)
    values = np.array([-1.0, 0.5, 2.0])
    np.testing.assert_array_equal(
        _apply_kernels.tree_values(codes, *arrays, values), values[expected]
    )
    leaf = tuple(np.array([v], dtype=np.int64) for v in (-1, -1, -1, -1, 0))
    np.testing.assert_array_equal(_apply_kernels.apply_tree(codes, *leaf), np.zeros(4))
    np.testing.assert_array_equal(_apply_kernels.tree_values(codes, *leaf, np.array([3.0])), 3.0)


def _first(mask) -> int:
    hits = np.flatnonzero(mask)
    return int(hits[0]) if hits.size else -1


@pytest.mark.parametrize("n", [0, 1, 511, 512, 513, 2000])
def test_input_check_kernels_find_the_first_offending_entry(n):
    """The branch-free checks behind fit_binary's errors give the index of the plain scan,
    wherever the offending entry is, on contiguous and strided arrays."""
    rng = np.random.default_rng(n)
    positions = sorted({0, n // 2, n - 1, 511, 512, 1023} & set(range(n)))
    for where in [None, *positions]:
        for bad in (np.nan, np.inf, -np.inf, 0.5, -1.0, -0.0, 0.0):
            signs = rng.choice([-1.0, 1.0], size=n)
            weights = rng.random(n)
            if where is not None:
                signs[where] = bad
                weights[where] = bad
            for values in (signs, weights):
                for array in (values, np.repeat(values, 2)[::2]):  # strided: same entries
                    assert _input_kernels.first_not_finite(array) == _first(~np.isfinite(array))
                    assert _input_kernels.first_not_sign(array) == _first(np.abs(array) != 1.0)
            w = np.nan_to_num(weights, nan=0.0, posinf=2.0, neginf=-2.0)
            w[: n // 3] = 0.0  # a run of zero weights before the first non-zero one
            negative, nonzero = _input_kernels.weight_problems(w)
            assert negative == _first(w < 0.0)
            assert nonzero == _first(w != 0.0)


def test_a_root_kept_off_some_features_is_the_best_split_on_the_others():
    """``exclude_root_features``: a stump is the stump of the data with those columns made
    constant; a deeper tree's root is that stump's split and its children are grown on every
    feature (each child the depth-(d-1) tree of its own samples); bad indices are refused."""
    rng = np.random.default_rng(3)
    codes = np.asfortranarray(rng.integers(0, 6, size=(400, 5)).astype(np.uint8))
    y = np.where(codes[:, 2] + codes[:, 0] + rng.normal(0, 2, 400) > 5, 1.0, -1.0)
    w = rng.random(400)
    best = DecisionTree(max_depth=1).fit_binary(codes, y, w).node_feature[0]
    flat = codes.copy(order="F")
    flat[:, best] = 0
    for depth in (1, 2, 3):
        learner = DecisionTree(max_depth=depth)
        tree = learner.fit_binary(codes, y, w, exclude_root_features=[best])
        stump = DecisionTree(max_depth=1).fit_binary(flat, y, w)
        assert tree.node_feature[0] == stump.node_feature[0] != best
        assert tree.node_bin[0] == stump.node_bin[0]
        if depth == 1:
            np.testing.assert_array_equal(tree.predict(codes), stump.predict(flat))
            continue
        left = codes[:, tree.node_feature[0]] <= tree.node_bin[0]
        child = DecisionTree(max_depth=depth - 1)
        for side in (left, ~left):
            sub = np.asfortranarray(codes[side])
            np.testing.assert_array_equal(
                tree.predict(sub), child.fit_binary(sub, y[side], w[side]).predict(sub)
            )
    # every feature excluded: a single leaf
    assert (
        DecisionTree(max_depth=2)
        .fit_binary(codes, y, w, exclude_root_features=range(5))
        .node_feature[0]
        == -1
    )
    for bad in ([5], [-1], [[0]], [0.5]):
        with pytest.raises(ValueError, match="exclude_root_features"):
            DecisionTree(max_depth=2).fit_binary(codes, y, w, exclude_root_features=bad)


@pytest.mark.parametrize("criterion", range(6))
@pytest.mark.parametrize("shape", [(3, 5, 2), (40, 255, 3), (7, 1, 4)])
def test_best_split_on_one_thread_equals_the_parallel_kernel(criterion, shape):
    """find_best_split picks the one-thread or the parallel scan in Python by the histogram's
    size; both give the same split, gain and counts (ties included: integer-valued weights
    make many equal gains)."""
    rng = np.random.default_rng(criterion)
    n_features, n_bins, n_channels = shape
    counts = rng.integers(0, 4, size=(n_bins,)).astype(np.float64)
    weights = rng.integers(0, 3, size=(n_bins, n_channels)).astype(np.float64)
    hist = np.empty((n_features, n_bins, n_channels + 1))
    for f in range(n_features):  # every feature bins the same node: equal totals
        order = rng.permutation(n_bins)
        hist[f, :, n_channels] = counts[order]
        hist[f, :, :n_channels] = weights[order]
    for min_leaf in (1, 3):
        one = _split_kernels._find_best_split_serial(hist, criterion, min_leaf, 0.0)
        many = _split_kernels._find_best_split_parallel(hist, criterion, min_leaf, 0.0)
        assert one == many
        assert _split_kernels.find_best_split(hist, criterion, min_leaf, 0.0) == one
