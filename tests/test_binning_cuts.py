r"""Exact cut positions of :class:`~marginboost.weak.BinMapper` on hand-made features, and the split
on the top bin code.

The expected cuts are derived by hand (integer arithmetic) from the documented rule: quantile
levels :math:`k/B`, :math:`k = 1..B-1` (``B = max_bins``), linear interpolation; each quantile
:math:`q` moves to the midpoint between the largest distinct value :math:`\le q` and the next
one; duplicate cuts merge.  On the integer features used here every quantile and midpoint is a
small dyadic rational, so float64 represents them exactly and the comparisons are exact.
"""

from __future__ import annotations

import numpy as np
import pytest

from marginboost.boosting import AdaBoost
from marginboost.weak import BinMapper, DecisionTree


def column(values) -> np.ndarray:
    return np.asarray(values, dtype=np.float64)[:, None]


def test_exact_bins_with_ties_cut_at_midpoints_of_distinct_values():
    x = column([3, 1, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])
    mapper = BinMapper(max_bins=7).fit(x)  # 7 distinct values: exact
    assert mapper.is_exact_[0]
    np.testing.assert_array_equal(mapper.bin_thresholds_[0], [1.5, 2.5, 3.5, 4.5, 5.5, 7.5])
    np.testing.assert_array_equal(mapper.transform(x)[:, 0], [2, 0, 0, 3, 0, 4, 6, 1, 5, 4, 2, 4])


def test_quantile_cuts_between_the_quantile_and_the_next_distinct_value():
    # 0..9, B = 4: quantiles 9k/4 = 2.25, 4.5, 6.75 -> largest values <= q: 2, 4, 6
    mapper = BinMapper(max_bins=4).fit(column(np.arange(10)))
    assert not mapper.is_exact_[0]
    np.testing.assert_array_equal(mapper.bin_thresholds_[0], [2.5, 4.5, 6.5])


def test_a_quantile_on_a_distinct_value_cuts_above_it():
    # 0..8, B = 4: quantiles 2, 4, 6 are themselves values; "largest value <= q" is q itself
    mapper = BinMapper(max_bins=4).fit(column(np.arange(9)))
    np.testing.assert_array_equal(mapper.bin_thresholds_[0], [2.5, 4.5, 6.5])
    np.testing.assert_array_equal(
        mapper.transform(column(np.arange(9)))[:, 0], [0, 0, 0, 1, 1, 2, 2, 3, 3]
    )


def test_ties_with_more_distinct_values_than_bins_merge_cuts():
    # ten zeros then 1..5 (15 values, 6 distinct), B = 3: positions 14/3 and 28/3 of the sorted
    # values give the quantiles 0 and 1/3; both lie in [0, 1), so the two cuts merge into 0.5
    x = column([0] * 10 + [1, 2, 3, 4, 5])
    mapper = BinMapper(max_bins=3).fit(x)
    assert not mapper.is_exact_[0]
    np.testing.assert_array_equal(mapper.bin_thresholds_[0], [0.5])
    # B = 4: positions 3.5, 7, 10.5 -> quantiles 0, 0, 1.5 -> cuts 0.5 and 1.5
    mapper = BinMapper(max_bins=4).fit(x)
    np.testing.assert_array_equal(mapper.bin_thresholds_[0], [0.5, 1.5])


def test_weighted_values_shift_the_quantiles():
    # 0..7 with 7 repeated 9 times (16 values, 8 distinct), B = 4: positions 15k/4 = 3.75, 7.5,
    # 11.25 -> quantiles 3.75, 7, 7 -> cuts 3.5 (between 3 and 4) and 6.5 (between 6 and 7;
    # for q = 7 = the largest value, the cut is clipped to the last gap)
    x = column(list(range(7)) + [7] * 9)
    mapper = BinMapper(max_bins=4).fit(x)
    np.testing.assert_array_equal(mapper.bin_thresholds_[0], [3.5, 6.5])


def test_all_256_codes_in_use_from_more_distinct_values():
    # 0..299, B = 256: quantile k/256 at position 299k/256, cut at floor(299k/256) + 1/2; these
    # 255 cuts are distinct because 299/256 > 1, so all 256 codes are used
    n = 300
    mapper = BinMapper(max_bins=256).fit(column(np.arange(n)))
    expected = np.array([(299 * k) // 256 for k in range(1, 256)]) + 0.5
    np.testing.assert_array_equal(mapper.bin_thresholds_[0], expected)
    codes = mapper.transform(column(np.arange(n)))[:, 0]
    np.testing.assert_array_equal(np.unique(codes), np.arange(256))
    np.testing.assert_array_equal(codes, np.searchsorted(expected, np.arange(n)))


def test_estimators_use_the_same_cuts():
    """The cut points reach a fitted model: its mapper and its stump thresholds."""
    X = column(np.arange(9))
    y = np.array([0, 0, 0, 1, 1, 1, 1, 1, 1])
    model = AdaBoost(n_estimators=1, max_bins=4).fit(X, y)
    np.testing.assert_array_equal(model.mapper_.bin_thresholds_[0], [2.5, 4.5, 6.5])
    ((feature, bin_index),) = model.estimators_[0].splits()
    assert model.mapper_.threshold(feature, bin_index) == 2.5
    np.testing.assert_array_equal(model.predict(X), y)


@pytest.mark.parametrize("criterion", ["error", "gini", "entropy"])
def test_split_on_the_top_bin_code(criterion):
    """Only the top example is positive: the one perfect stump is code <= 254 vs code 255."""
    x = column(np.arange(256))
    codes = BinMapper(max_bins=256).fit_transform(x)
    assert codes[:, 0].max() == 255
    y = np.where(np.arange(256) == 255, 1.0, -1.0)
    weight = np.full(256, 1.0 / 256)
    tree = DecisionTree(max_depth=1, criterion=criterion).fit_binary(codes, y, weight)
    assert tree.splits() == [(0, 254)]
    np.testing.assert_array_equal(tree.predict(codes), y)


def test_adaboost_separates_the_top_code_in_one_round():
    # quantile bins, all 256 codes in use; the top code holds 298 and 299 (last cut 297.5)
    x = column(np.arange(300))
    y = (np.arange(300) >= 298).astype(int)
    model = AdaBoost(n_estimators=1, max_bins=256).fit(x, y)
    assert model.mapper_.n_bins_[0] == 256
    ((feature, bin_index),) = model.estimators_[0].splits()
    assert (feature, bin_index) == (0, 254)
    assert model.mapper_.threshold(0, 254) == 297.5
    np.testing.assert_array_equal(model.predict(x), y)
    assert model.stop_reason_ == "perfect weak learner"


def test_adjacent_floats_whose_midpoint_rounds_up_are_still_separated():
    """Between two adjacent floats the midpoint can round onto the larger one; the cut is
    then the smaller one, so that the two values still get different codes."""
    below = np.nextafter(1.0, 2.0)
    above = np.nextafter(below, 2.0)
    assert (below + above) / 2.0 == above  # the rounding this guards against
    X = np.array([[below], [above], [below]])
    mapper = BinMapper().fit(X)
    np.testing.assert_array_equal(mapper.bin_thresholds_[0], [below])
    np.testing.assert_array_equal(mapper.transform(X).ravel(), [0, 1, 0])
