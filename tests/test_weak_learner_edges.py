"""Edge cases of the weak learners: input checks, boundary parameters, scale and tie rules."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from marginboost.weak import (
    BinMapper,
    DecisionTree,
    DirectTreeBuilder,
    EdgeObjective,
    LDALearner,
)
from marginboost.weak.lda import FittedLDA


def column_codes(values):
    """Fortran-ordered uint8 codes of one feature."""
    return np.asfortranarray(np.asarray(values, dtype=np.uint8).reshape(-1, 1))


# ---------------------------------------------------------------------- BinMapper


def test_bin_mapper_rejects_a_three_dimensional_array():
    with pytest.raises(ValueError, match=r"X must be 2-D \(n_samples, n_features\)"):
        BinMapper().fit(np.zeros((3, 2, 2)))


def test_bin_mapper_transform_reports_the_feature_count_of_the_new_data():
    mapper = BinMapper().fit(np.arange(10.0).reshape(5, 2))
    with pytest.raises(ValueError, match="X has 3 features but the BinMapper was fitted on 2"):
        mapper.transform(np.zeros((7, 3)))


# ---------------------------------------------------------------------- DecisionTree


def test_min_weight_leaf_allows_children_whose_weight_equals_the_limit():
    """Both children of the only balanced split weigh exactly ``min_weight_leaf``."""
    codes = column_codes([0, 1, 2, 3])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    for criterion in ("error", "gini"):
        tree = DecisionTree(criterion=criterion, min_weight_leaf=2.0).fit_binary(codes, y)
        assert tree.splits() == [(0, 1)]
        np.testing.assert_array_equal(tree.predict(codes), y)
    # just above the limit no split is allowed
    tree = DecisionTree(criterion="gini", min_weight_leaf=2.5).fit_binary(codes, y)
    assert tree.splits() == []


def test_stump_split_does_not_depend_on_the_scale_of_the_weights():
    """The tie tolerance is relative: huge weights select the same (best) split."""
    codes = column_codes([0, 1, 2, 3, 4])
    y = np.array([-1.0, -1.0, -1.0, 1.0, 1.0])
    for scale in (1.0, 1e6, 1e12, 1e15):
        tree = DecisionTree(criterion="error").fit_binary(codes, y, np.full(5, scale))
        assert tree.splits() == [(0, 2)]
        np.testing.assert_array_equal(tree.predict(codes), y)


def test_multilabel_leaf_statistics_hold_negative_then_positive_weights():
    codes = column_codes([0, 0, 1, 1])
    Y = np.array([[1.0, -1.0], [1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0]])
    weight = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    tree = DecisionTree(criterion="confidence").fit_multilabel(codes, Y, weight)
    assert tree.splits() == [(0, 0)]
    # leaf 0: samples 0, 1; leaf 1: samples 2, 3; channels [W-_1, W+_1, W-_2, W+_2]
    np.testing.assert_allclose(tree.leaf_statistics_, [[0.0, 4.0, 2.0, 4.0], [12.0, 0.0, 8.0, 6.0]])
    np.testing.assert_array_equal(tree.leaf_values_, [[1.0, 1.0], [-1.0, -1.0]])


def test_regression_leaf_with_zero_weight_predicts_zero_without_warnings():
    """A leaf holding only zero-weight samples has value 0 and no division warning."""
    codes = column_codes([0, 1, 1])
    target = np.array([5.0, 3.0, 1.0])
    weight = np.array([0.0, 1.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tree = DecisionTree(criterion="squared_error").fit_regression(codes, target, weight)
    assert tree.splits() == [(0, 0)]
    np.testing.assert_allclose(tree.predict(codes), [0.0, 2.0, 2.0])


# ---------------------------------------------------------------------- DirectTreeBuilder


def test_direct_builder_rejects_min_samples_leaf_zero():
    codes = column_codes([0, 1, 2, 3])
    g = np.array([-0.25, -0.25, 0.25, 0.25])
    with pytest.raises(ValueError, match="min_samples_leaf must be an integer >= 1; got 0"):
        DirectTreeBuilder(min_samples_leaf=0).fit(codes, EdgeObjective(g))


def test_edge_objective_on_a_single_feature():
    codes = column_codes([0, 1, 2, 3, 4])
    g = np.array([-1.0, -1.0, 1.0, -1.0, 1.0])
    tree = DirectTreeBuilder(max_depth=1).fit(codes, EdgeObjective(g))
    reference = DecisionTree(criterion="error").fit_binary(codes, np.sign(g), np.abs(g))
    assert tree.splits() == reference.splits() == [(0, 1)]
    np.testing.assert_array_equal(tree.predict(codes), [-1.0, -1.0, 1.0, 1.0, 1.0])


class _SplitLowestBin:
    """Splits every node at its lowest code; ``stay_score`` says the tree is better as is."""

    kind = "binary"

    def split_scores(self, codes, node, state):
        scores = np.full((codes.shape[1], 255), 1.0)
        return scores, np.full_like(scores, -1.0), np.full_like(scores, 1.0)

    def leaf_value(self, codes, node, state):
        return 1.0

    def stay_score(self, codes, node, state):
        return 10.0


def test_improve_rule_keeps_a_node_below_the_root_whose_split_does_not_beat_stay_score():
    codes = column_codes([0, 1, 2, 3, 4, 5, 6, 7])
    improve = DirectTreeBuilder(max_depth=3).fit(codes, _SplitLowestBin())
    assert improve.splits() == [(0, 0)]  # the root is always split
    assert improve.depth_ == 1
    always = DirectTreeBuilder(max_depth=3, split_rule="always").fit(codes, _SplitLowestBin())
    assert always.depth_ == 3
    assert len(always.splits()) > 1


# ---------------------------------------------------------------------- LDA


def test_fitted_lda_negative_polarity_flips_the_decision_function():
    h = FittedLDA(np.array([1.0, 0.0]), 0.5, -1.0, 2)
    X = np.array([[2.0, 0.0], [0.0, 3.0], [-1.0, 1.0]])
    np.testing.assert_allclose(h.decision_function(X), [-1.5, 0.5, 1.5])
    np.testing.assert_array_equal(h.predict(X), [-1.0, 1.0, 1.0])


def lda_data():
    X = np.array([[0.0, 0.0], [1.0, 0.2], [3.0, 0.1], [4.0, 0.3]])
    return X, np.array([-1.0, -1.0, 1.0, 1.0])


@pytest.mark.parametrize("size", [3, 5])
def test_lda_rejects_sample_weight_of_the_wrong_length(size):
    X, y = lda_data()
    with pytest.raises(ValueError, match=rf"sample_weight must have shape \(4,\); got \({size},\)"):
        LDALearner().fit_binary(X, y, np.ones(size))


def test_lda_rejects_all_zero_sample_weight():
    X, y = lda_data()
    with pytest.raises(ValueError, match="sample_weight is all zero"):
        LDALearner().fit_binary(X, y, np.zeros(4))


def test_lda_direction_is_read_only():
    X, y = lda_data()
    h = LDALearner().fit_binary(X, y)
    assert not h.direction_.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        h.direction_[0] = 0.0
