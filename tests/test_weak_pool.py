"""Tests of marginboost.weak.pool: all distinct stumps, H matrix, best column."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marginboost.weak import BinMapper, DecisionTree, WeakPool
from marginboost.weak import pool as pool_module


def brute_force_distinct_stumps(codes):
    """Set of distinct +-1 columns of all stumps (both polarities, non-constant)."""
    columns = set()
    for feature in range(codes.shape[1]):
        for cut in np.unique(codes[:, feature])[:-1]:
            plus = np.where(codes[:, feature] > cut, 1, -1).astype(np.int8)
            columns.add(plus.tobytes())
            columns.add((-plus).tobytes())
    return columns


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000), st.integers(2, 25), st.integers(1, 4))
def test_all_stumps_are_exactly_the_distinct_stumps(seed, n, d):
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 4, size=(n, d))
    X = np.column_stack([base, base[:, :1], 5 - base[:, -1:]]).astype(float)  # a copy, a mirror
    codes = BinMapper().fit_transform(X)
    pool = WeakPool.all_stumps(codes)
    H = pool.matrix()
    assert H.dtype == np.int8 and H.shape == (n, len(pool))
    columns = [H[:, j].tobytes() for j in range(H.shape[1])]
    assert len(set(columns)) == len(columns)  # no duplicates
    assert set(columns) == brute_force_distinct_stumps(codes)
    # order: feature, then bin, then polarity +1 first
    keys = list(zip(pool.features_, pool.bins_, -pool.polarities_))
    assert keys == sorted(keys)
    # the copied and mirrored features add nothing
    assert set(pool.features_.tolist()) <= set(range(d))


def test_hash_collisions_never_drop_a_distinct_stump(monkeypatch):
    """Force every hash to collide: the exact comparison must keep all distinct stumps."""
    rng = np.random.default_rng(1)
    codes = BinMapper().fit_transform(rng.integers(0, 5, size=(30, 3)).astype(float))
    expected = WeakPool.all_stumps(codes)

    def colliding(codes, keys):
        hashes, counts = original(codes, keys)
        return np.zeros_like(hashes), counts

    original = pool_module._bin_hashes
    monkeypatch.setattr(pool_module, "_bin_hashes", colliding)
    collided = WeakPool.all_stumps(codes)
    np.testing.assert_array_equal(collided.matrix(), expected.matrix())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000))
def test_best_column_matches_matrix_product(seed):
    rng = np.random.default_rng(seed)
    codes = np.asfortranarray(rng.integers(0, 6, size=(50, 4)).astype(np.uint8))
    pool = WeakPool.all_stumps(codes)
    g = rng.normal(size=50)
    edges = g @ pool.matrix().astype(float)
    index, edge = pool.best_column(g)
    assert index == int(np.argmax(edges))
    assert edge == pytest.approx(edges.max(), rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(pool.edges(g), edges, atol=1e-12)
    # the stump hypothesis of the best column is the same function
    np.testing.assert_array_equal(pool.hypothesis(index).predict(codes), pool.matrix()[:, index])
    # DecisionTree finds the same optimal stump edge, unless a constant hypothesis (not in
    # the pool) beats every stump
    tree = DecisionTree(max_depth=1).fit_binary(codes, np.where(g >= 0, 1.0, -1.0), np.abs(g))
    tree_edge = float(np.sum(g * tree.predict(codes)))
    if tree.n_leaves_ == 2:
        assert edge == pytest.approx(tree_edge, rel=1e-12)
    else:
        assert edge <= tree_edge + 1e-12 and tree_edge == pytest.approx(abs(g.sum()))


def test_pool_from_hypotheses():
    rng = np.random.default_rng(2)
    codes = np.asfortranarray(rng.integers(0, 6, size=(80, 3)).astype(np.uint8))
    y = rng.choice([-1.0, 1.0], size=80)
    trees = [
        DecisionTree(max_depth=depth).fit_binary(codes, y, rng.uniform(size=80))
        for depth in (1, 2, 2)
    ]
    pool = WeakPool.from_hypotheses(trees, codes)
    H = pool.matrix()
    assert H.shape == (80, 3)
    np.testing.assert_array_equal(H[:, 1], trees[1].predict(codes))
    g = rng.normal(size=80)
    index, edge = pool.best_column(g)
    assert index == int(np.argmax(g @ H)) and edge == pytest.approx((g @ H).max())
    assert pool.hypothesis(index) is trees[index]
    other = np.asfortranarray(rng.integers(0, 6, size=(10, 3)).astype(np.uint8))
    np.testing.assert_array_equal(pool.matrix(other)[:, 0], trees[0].predict(other))
    without_data = WeakPool.from_hypotheses(trees)
    with pytest.raises(ValueError, match="no training codes"):
        without_data.best_column(g)
    assert without_data.best_column(g, codes) == (index, pytest.approx(edge))


def test_pool_errors_and_pickle():
    codes = np.asfortranarray(np.array([[0, 1], [1, 1], [2, 1]], dtype=np.uint8))
    pool = WeakPool.all_stumps(codes)
    assert len(pool) == 4  # feature 1 is constant: 2 cuts x 2 polarities on feature 0
    with pytest.raises(ValueError, match="shape"):
        pool.best_column(np.ones(4))
    with pytest.raises(ValueError, match="NaN"):
        pool.best_column(np.array([1.0, np.nan, 0.0]))
    with pytest.raises(ValueError, match="out of range"):
        pool.hypothesis(4)
    with pytest.raises(ValueError, match="at least one"):
        WeakPool.from_hypotheses([])
    with pytest.raises(ValueError, match="FittedTree"):
        WeakPool.from_hypotheses([object()])
    restored = pickle.loads(pickle.dumps(pool))
    np.testing.assert_array_equal(restored.matrix(), pool.matrix())
    empty = WeakPool.all_stumps(np.zeros((3, 2), dtype=np.uint8))
    assert len(empty) == 0 and empty.matrix().shape == (3, 0)
    with pytest.raises(ValueError, match="empty"):
        empty.best_column(np.ones(3))


def _assert_documented_layout(tree):
    """FittedTree's documented node layout: depth-first pre-order from the root 0, children
    only at internal nodes, ``-1`` in every split and child array at leaves, leaves numbered
    in the same order."""
    internal = tree.node_leaf < 0
    for array in (tree.node_feature, tree.node_bin, tree.node_left, tree.node_right):
        np.testing.assert_array_equal(array[~internal], -1)
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        if internal[node]:
            stack.extend((int(tree.node_right[node]), int(tree.node_left[node])))
    assert order == list(range(tree.n_nodes_))
    assert tree.node_leaf[~internal].tolist() == list(range(tree.n_leaves_))


@pytest.mark.parametrize("seed", range(3))
def test_stump_hypotheses_have_the_decision_tree_layout(seed):
    rng = np.random.default_rng(seed)
    codes = np.asfortranarray(rng.integers(0, 5, size=(40, 3)).astype(np.uint8))
    pool = WeakPool.all_stumps(codes)
    y = np.where(codes[:, 1] > 2, 1.0, -1.0)
    tree = DecisionTree(max_depth=1).fit_binary(codes, y)
    _assert_documented_layout(tree)
    for index in range(len(pool)):
        stump = pool.hypothesis(index)
        _assert_documented_layout(stump)
        assert (stump.n_nodes_, stump.n_leaves_, stump.depth_) == (3, 2, 1)
    # the pool's stump with the tree's split is the tree, array for array
    (split,) = tree.splits()
    matches = [i for i in range(len(pool)) if pool.hypothesis(i).splits() == [split]]
    same = [
        pool.hypothesis(i)
        for i in matches
        if np.array_equal(pool.hypothesis(i).leaf_values_, tree.leaf_values_)
    ]
    assert len(same) == 1
    for name in ("node_feature", "node_bin", "node_left", "node_right", "node_leaf"):
        np.testing.assert_array_equal(getattr(same[0], name), getattr(tree, name))


def test_repr_says_what_the_pool_holds():
    codes = np.asfortranarray(np.array([[0, 1], [1, 1], [2, 1]], dtype=np.uint8))
    stumps = WeakPool.all_stumps(codes)
    assert repr(stumps) == "WeakPool(4 stumps)"
    trees = WeakPool.from_hypotheses([stumps.hypothesis(0), stumps.hypothesis(1)], codes)
    assert repr(trees) == "WeakPool(2 trees)"


@pytest.mark.parametrize("n", [1, 2, 3, 51, 52])
def test_edges_match_the_matrix_product_for_odd_and_even_sample_counts(n):
    """The per-bin sums are accumulated two samples at a time: the last sample of an odd
    count is added once, and nothing beyond the data is read."""
    rng = np.random.default_rng(n)
    codes = np.asfortranarray(rng.integers(0, 5, size=(n, 3)).astype(np.uint8))
    codes[0] = [0, 1, 2]
    if n > 1:
        codes[-1] = [4, 0, 1]
    pool = WeakPool.all_stumps(codes)
    if len(pool) == 0:
        return
    g = rng.normal(size=n) + 10.0  # a sum over the wrong samples cannot cancel out
    np.testing.assert_allclose(pool.edges(g), g @ pool.matrix().astype(float), rtol=1e-12)
    sums = pool_module._bin_sums(codes, g)
    for f in range(3):
        np.testing.assert_allclose(sums[f], np.bincount(codes[:, f], g, minlength=256))
