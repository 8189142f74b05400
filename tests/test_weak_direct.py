"""Tests of marginboost.weak.direct: the objective-driven tree builder."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marginboost.weak import DecisionTree, DirectTreeBuilder, EdgeObjective
from marginboost.weak.direct import N_CANDIDATE_BINS


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000), st.integers(1, 3), st.booleans())
def test_edge_objective_reproduces_error_tree(seed, max_depth, signed):
    rng = np.random.default_rng(seed)
    n, d = 120, 4
    codes = np.asfortranarray(rng.integers(0, 7, size=(n, d)).astype(np.uint8))
    y = rng.choice([-1.0, 1.0], size=n)
    weight = rng.normal(size=n) if signed else rng.uniform(0.1, 1.0, size=n)
    expected = DecisionTree(max_depth=max_depth, criterion="error").fit_binary(codes, y, weight)
    direct = DirectTreeBuilder(max_depth=max_depth).fit(codes, EdgeObjective(weight * y))
    assert direct.splits() == expected.splits()
    np.testing.assert_array_equal(direct.apply(codes), expected.apply(codes))
    np.testing.assert_array_equal(direct.leaf_values_, expected.leaf_values_)
    np.testing.assert_array_equal(direct.predict(codes), expected.predict(codes))


def test_edge_objective_honours_min_samples_leaf_like_decision_tree():
    rng = np.random.default_rng(5)
    codes = np.asfortranarray(rng.integers(0, 10, size=(80, 3)).astype(np.uint8))
    y = rng.choice([-1.0, 1.0], size=80)
    weight = rng.uniform(0.1, 1.0, size=80)
    expected = DecisionTree(max_depth=3, min_samples_leaf=7).fit_binary(codes, y, weight)
    direct = DirectTreeBuilder(max_depth=3, min_samples_leaf=7).fit(
        codes, EdgeObjective(weight * y)
    )
    assert direct.splits() == expected.splits()
    assert np.bincount(direct.apply(codes)).min() >= 7


class VarianceObjective:
    """Toy objective, evaluated candidate by candidate in plain Python (slow but obvious):
    score = decrease of the sum of squared deviations of a target; leaf value = mean."""

    kind = "regression"

    def __init__(self, target):
        self.target = target
        self.calls = []

    def split_scores(self, codes, node, state):
        self.calls.append((node.node_id, node.depth, node.samples.copy(), state.predictions()))
        t = self.target[node.samples]
        parent = ((t - t.mean()) ** 2).sum()
        shape = (codes.shape[1], N_CANDIDATE_BINS)
        scores, left_values, right_values = (
            np.full(shape, -np.inf),
            np.zeros(shape),
            np.zeros(shape),
        )
        for feature in range(codes.shape[1]):
            column = codes[node.samples, feature]
            for b in range(N_CANDIDATE_BINS):
                left = column <= b
                if left.all() or not left.any():
                    continue
                tl, tr = t[left], t[~left]
                scores[feature, b] = (
                    parent - ((tl - tl.mean()) ** 2).sum() - ((tr - tr.mean()) ** 2).sum()
                )
                left_values[feature, b], right_values[feature, b] = tl.mean(), tr.mean()
        return scores, left_values, right_values

    def leaf_value(self, codes, node, state):
        return float(self.target[node.samples].mean())


def brute_force_variance_tree(codes, target, max_depth, min_samples_leaf):
    """Predictions of the greedy tree: best (feature, cut) by exhaustive search at each node."""
    prediction = np.full(target.size, target.mean())

    def grow(samples, depth):
        if depth == max_depth or samples.size < 2 * min_samples_leaf:
            return
        t = target[samples]
        best, best_split = -np.inf, None
        for feature in range(codes.shape[1]):
            for cut in np.unique(codes[samples, feature])[:-1]:
                left = codes[samples, feature] <= cut
                if left.sum() < min_samples_leaf or (~left).sum() < min_samples_leaf:
                    continue
                tl, tr = t[left], t[~left]
                score = -((tl - tl.mean()) ** 2).sum() - ((tr - tr.mean()) ** 2).sum()
                if score > best + 1e-10 * abs(score):
                    best, best_split = score, (samples[left], samples[~left])
        if best_split is None:
            return
        for child in best_split:
            prediction[child] = target[child].mean()
            grow(child, depth + 1)

    grow(np.arange(target.size), 0)
    return prediction


@pytest.mark.parametrize("max_depth,min_samples_leaf", [(1, 1), (2, 1), (3, 4)])
def test_builder_with_toy_objective_matches_brute_force(max_depth, min_samples_leaf):
    for seed in range(4):
        rng = np.random.default_rng(seed)
        codes = np.asfortranarray(rng.integers(0, 5, size=(40, 3)).astype(np.uint8))
        target = rng.normal(size=40) + codes[:, 0]
        objective = VarianceObjective(target)
        tree = DirectTreeBuilder(max_depth, min_samples_leaf).fit(codes, objective)
        expected = brute_force_variance_tree(codes, target, max_depth, min_samples_leaf)
        np.testing.assert_allclose(tree.predict(codes), expected, atol=1e-12)
        assert tree.kind == "regression" and tree.depth_ <= max_depth
        assert np.bincount(tree.apply(codes)).min() >= min_samples_leaf
        # level-wise order: depths never decrease; the state shows the partial tree
        depths = [depth for _, depth, _, _ in objective.calls]
        assert depths == sorted(depths)
        np.testing.assert_allclose(objective.calls[0][3], target.mean())


def test_state_is_updated_after_each_split_of_a_level():
    """A later node of a level sees the values chosen for earlier nodes of that level."""
    rng = np.random.default_rng(0)
    codes = np.asfortranarray(rng.integers(0, 4, size=(60, 2)).astype(np.uint8))
    target = rng.normal(size=60)
    objective = VarianceObjective(target)
    tree = DirectTreeBuilder(2).fit(codes, objective)
    assert tree.n_leaves_ == 4
    (_, _, _, before_root), (_, _, left_samples, at_left), (_, _, _, at_right) = objective.calls
    # when the right child is scored, the left child's samples already carry its split values
    assert not np.allclose(at_left[left_samples], at_right[left_samples])


def test_objective_that_rejects_everything_gives_a_leaf():
    class Nothing:
        def split_scores(self, codes, node, state):
            shape = (codes.shape[1], N_CANDIDATE_BINS)
            return np.full(shape, -np.inf), np.zeros(shape), np.zeros(shape)

        def leaf_value(self, codes, node, state):
            return 0.25

    codes = np.asfortranarray(np.arange(10, dtype=np.uint8)[:, None])
    tree = DirectTreeBuilder(3).fit(codes, Nothing())
    assert tree.n_leaves_ == 1
    np.testing.assert_array_equal(tree.predict(codes), 0.25)


def test_bad_objective_output_and_parameters():
    class WrongShape:
        def split_scores(self, codes, node, state):
            return np.zeros(3), np.zeros(3), np.zeros(3)

        def leaf_value(self, codes, node, state):
            return 0.0

    codes = np.asfortranarray(np.arange(10, dtype=np.uint8)[:, None])
    with pytest.raises(ValueError, match="scores of shape"):
        DirectTreeBuilder(1).fit(codes, WrongShape())
    with pytest.raises(ValueError, match="max_depth"):
        DirectTreeBuilder(0).fit(codes, WrongShape())
    with pytest.raises(ValueError, match="uint8"):
        DirectTreeBuilder(1).fit(np.zeros((3, 2)), WrongShape())
    with pytest.raises(ValueError, match="g has 3 entries"):
        DirectTreeBuilder(1).fit(codes, EdgeObjective(np.ones(3)))


class _GainAtDepthTwo:
    """Every split of the root scores 0; every split below it scores ``stay + gain``."""

    kind = "binary"

    def __init__(self, stay, gain):
        self.stay, self.gain = stay, gain

    def split_scores(self, codes, node, state):
        scores = np.full((codes.shape[1], 255), -np.inf)
        scores[:, : int(codes.max())] = 0.0 if node.depth == 0 else self.stay + self.gain
        return scores, np.full_like(scores, -1.0), np.full_like(scores, 1.0)

    def leaf_value(self, codes, node, state):
        return 1.0

    def stay_score(self, codes, node, state):
        return self.stay


@pytest.mark.parametrize("stay", [-500.0, -0.02, 3.0e4])
def test_a_node_below_the_root_splits_only_beyond_the_relative_tie_tolerance(stay):
    from marginboost.weak._split_kernels import TIE_RTOL

    codes = np.asfortranarray(np.arange(8, dtype=np.uint8).reshape(8, 1))
    builder = DirectTreeBuilder(max_depth=2)
    for factor, depth in [(0.5, 1), (2.0, 2)]:  # a gain of half / twice the tolerance
        tree = builder.fit(codes, _GainAtDepthTwo(stay, factor * TIE_RTOL * abs(stay)))
        assert tree.depth_ == depth


@pytest.mark.parametrize("fraction", [0.0, 0.2, 0.45, 0.55, 0.9])
def test_edge_objective_min_weight_leaf_matches_the_decision_tree(fraction):
    """EdgeObjective(g, min_weight_leaf) grows DecisionTree(criterion="error")'s tree with the
    same limit, including limits above half the total weight, where no split is allowed."""
    rng = np.random.default_rng(11)
    codes = np.asfortranarray(rng.integers(0, 6, size=(40, 3)).astype(np.uint8))
    y = np.where(codes[:, 0] + rng.normal(0, 1.5, 40) > 2.5, 1.0, -1.0)
    w = rng.uniform(0.5, 1.5, 40)
    limit = fraction * w.sum()
    direct = DirectTreeBuilder(max_depth=2).fit(codes, EdgeObjective(w * y, limit))
    tree = DecisionTree(max_depth=2, criterion="error", min_weight_leaf=limit)
    reference = tree.fit_binary(codes, y, w)
    assert direct.splits() == reference.splits()
    np.testing.assert_array_equal(direct.predict(codes), reference.predict(codes))
    if fraction > 0.5:
        assert direct.splits() == []


@pytest.mark.parametrize(
    ("g", "sign"), [([0.3, 0.1, -0.2], 1.0), ([-0.3, 0.1, 0.1], -1.0), ([0.25, -0.5, 0.25], 1.0)]
)
def test_an_unsplittable_tree_predicts_the_sign_of_the_summed_edge(g, sign):
    """One code for every sample: no split exists, the tree is its root, and the root predicts
    the sign of sum_i g_i (the edge of the constant classifier; ties go to +1)."""
    codes = np.zeros((3, 2), dtype=np.uint8, order="F")
    tree = DirectTreeBuilder(max_depth=2).fit(codes, EdgeObjective(np.array(g)))
    np.testing.assert_array_equal(tree.predict(codes), [sign] * 3)


@pytest.mark.parametrize("parallel_from", [0, 1 << 30])
def test_node_counts_from_parent_and_sibling_and_given_root_counts(monkeypatch, parallel_from):
    """Every node's counts are its samples' (the larger child's by subtraction), and a tree
    grown with the root's counts given is the tree grown without them; counted on one thread
    or on several."""
    from marginboost.weak import DirectNode, direct

    monkeypatch.setattr(direct, "_PARALLEL_COUNTS", parallel_from)

    rng = np.random.default_rng(3)
    codes = np.asfortranarray(rng.integers(0, 6, size=(200, 4)).astype(np.uint8))
    g = rng.normal(size=200)
    seen = []

    class Recording(EdgeObjective):
        def split_scores(self, codes, node, state):
            seen.append((node.samples, node.code_counts(codes).copy()))
            return super().split_scores(codes, node, state)

    builder = DirectTreeBuilder(max_depth=3)
    tree = builder.fit(codes, Recording(g))
    assert len(seen) > 3
    for samples, counts in seen:
        expected = np.zeros((4, 256), dtype=np.int64)
        for f in range(4):
            expected[f] = np.bincount(codes[samples, f], minlength=256)
        np.testing.assert_array_equal(counts, expected)
    root = DirectNode(0, 0, np.arange(200)).code_counts(codes)
    again = builder.fit(codes, EdgeObjective(g), root_counts=root)
    np.testing.assert_array_equal(again.predict(codes), tree.predict(codes))
    assert again.splits() == tree.splits()
    with pytest.raises(ValueError, match="root_counts has shape"):
        builder.fit(codes, EdgeObjective(g), root_counts=root[:2])


def test_state_predictions_are_kept_across_splits_and_equal_a_fresh_computation():
    """The state keeps its predictions between splits (the objective asks for them at every
    node) and updates them on a split: always equal to a fresh computation from the leaves,
    and an array handed out before a split keeps its values."""
    from marginboost.weak import DirectNode, DirectTreeState

    state = DirectTreeState(np.zeros(6, dtype=np.int64), {0: 0.5})
    before = state.predictions()
    assert state.predictions() is before
    left = DirectNode(1, 1, np.array([0, 2, 4]))
    right = DirectNode(2, 1, np.array([1, 3, 5]))
    state.split(0, left, right, -1.0, 2.0)
    after = state.predictions()
    np.testing.assert_array_equal(before, np.full(6, 0.5))
    np.testing.assert_array_equal(after, [-1.0, 2.0, -1.0, 2.0, -1.0, 2.0])
    fresh = DirectTreeState(state.sample_node.copy(), dict(state.node_value))
    np.testing.assert_array_equal(after, fresh.predictions())
    state.node_value[1] = 3.0  # a direct change, then forgotten
    state.forget_predictions()
    np.testing.assert_array_equal(state.predictions(), [3.0, 2.0, 3.0, 2.0, 3.0, 2.0])
