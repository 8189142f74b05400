"""Tests of marginboost.weak.binning: exact and quantile cut points, codes, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marginboost.weak import BinMapper, RawFeatures
from marginboost.weak.binning import check_codes


def test_exact_binning_uses_midpoints_between_distinct_values():
    X = np.array([[3.0, 7.0], [1.0, 7.0], [2.0, 7.0], [1.0, 7.0], [10.0, 7.0]])
    mapper = BinMapper().fit(X)
    np.testing.assert_array_equal(mapper.bin_thresholds_[0], [1.5, 2.5, 6.5])
    assert mapper.bin_thresholds_[1].size == 0  # constant feature: one bin, no cut
    np.testing.assert_array_equal(mapper.n_bins_, [4, 1])
    assert mapper.is_exact_.all()
    codes = mapper.transform(X)
    assert codes.dtype == np.uint8 and codes.flags.f_contiguous
    np.testing.assert_array_equal(codes[:, 0], [2, 0, 1, 0, 3])
    np.testing.assert_array_equal(codes[:, 1], 0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=2, max_size=60), st.integers(0, 10_000))
def test_code_order_matches_threshold_order(values, seed):
    """code <= b  <=>  x <= bin_thresholds_[b], on training and new data."""
    X = np.array(values, dtype=float)[:, None] / 3.0
    mapper = BinMapper().fit(X)
    new = np.random.default_rng(seed).uniform(-10, 10, size=(50, 1))
    for data in (X, new):
        codes = mapper.transform(data)[:, 0]
        for b, cut in enumerate(mapper.bin_thresholds_[0]):
            np.testing.assert_array_equal(codes <= b, data[:, 0] <= cut)
    # exact binning: one bin per distinct training value, codes are the ranks
    distinct = np.unique(X)
    assert mapper.n_bins_[0] == distinct.size
    np.testing.assert_array_equal(mapper.transform(X)[:, 0], np.searchsorted(distinct, X[:, 0]))


def test_out_of_range_values_map_to_first_and_last_bin():
    mapper = BinMapper().fit(np.array([[0.0], [1.0], [2.0]]))
    codes = mapper.transform(np.array([[-1e9], [1e9]]))
    np.testing.assert_array_equal(codes[:, 0], [0, 2])


def test_quantile_binning_respects_max_bins_and_balances_counts():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5000, 2))
    mapper = BinMapper(max_bins=16).fit(X)
    assert not mapper.is_exact_.any()
    np.testing.assert_array_equal(mapper.n_bins_, [16, 16])
    codes = mapper.transform(X)
    counts = np.bincount(codes[:, 0], minlength=16)
    # quantile bins: every bin holds about 5000/16 = 312.5 samples
    assert counts.min() >= 300 and counts.max() <= 325
    for cuts in mapper.bin_thresholds_:
        assert np.all(np.diff(cuts) > 0)


def test_quantile_binning_with_heavy_ties_merges_cuts():
    X = np.concatenate([np.zeros(900), np.arange(1, 101)])[:, None].astype(float)
    mapper = BinMapper(max_bins=10).fit(X)
    assert 2 <= mapper.n_bins_[0] <= 10
    codes = mapper.transform(X)[:, 0]
    assert np.all(codes[:900] == 0) and np.all(codes[900:] > 0)  # the 0/1 cut is kept


def test_exact_when_distinct_count_equals_max_bins():
    X = np.arange(255, dtype=float)[:, None]
    mapper = BinMapper(max_bins=255).fit(X)
    assert mapper.is_exact_[0] and mapper.n_bins_[0] == 255
    np.testing.assert_array_equal(mapper.transform(X)[:, 0], np.arange(255))
    mapper256 = BinMapper(max_bins=256).fit(np.arange(256, dtype=float)[:, None])
    assert mapper256.transform(np.array([[255.0]]))[0, 0] == 255


def test_adjacent_floats_stay_separated():
    a = 1.0
    b = np.nextafter(a, 2.0)
    mapper = BinMapper().fit(np.array([[a], [b]]))
    np.testing.assert_array_equal(mapper.transform(np.array([[a], [b]]))[:, 0], [0, 1])


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_values_are_rejected_naming_the_column(bad):
    X = np.zeros((4, 3))
    X[2, 1] = bad
    with pytest.raises(ValueError, match="column 1"):
        BinMapper().fit(X)
    mapper = BinMapper().fit(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="column 1"):
        mapper.transform(X)


@pytest.mark.parametrize("max_bins", [1, 257, 2.5, True, "10"])
def test_invalid_max_bins(max_bins):
    with pytest.raises(ValueError, match="max_bins"):
        BinMapper(max_bins=max_bins).fit(np.zeros((3, 1)))


def test_shape_errors():
    with pytest.raises(ValueError, match="2-D"):
        BinMapper().fit(np.zeros(5))
    with pytest.raises(ValueError, match="no samples"):
        BinMapper().fit(np.zeros((0, 2)))
    mapper = BinMapper().fit(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="2 features|fitted on 2"):
        mapper.transform(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="not fitted"):
        BinMapper().transform(np.zeros((3, 2)))


def test_threshold_lookup():
    mapper = BinMapper().fit(np.array([[0.0], [2.0], [4.0]]))
    assert mapper.threshold(0, 1) == 3.0
    with pytest.raises(ValueError, match="no upper threshold"):
        mapper.threshold(0, 2)


def test_check_codes_validates_dtype_and_makes_fortran_order():
    with pytest.raises(ValueError, match="uint8"):
        check_codes(np.zeros((3, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="uint8"):
        check_codes(np.zeros(3, dtype=np.uint8))
    with pytest.raises(ValueError, match="fitted on 3"):
        check_codes(np.zeros((3, 2), dtype=np.uint8), n_features=3)
    c_ordered = np.ascontiguousarray(np.arange(6, dtype=np.uint8).reshape(3, 2))
    fortran = check_codes(c_ordered)
    assert fortran.flags.f_contiguous
    np.testing.assert_array_equal(fortran, c_ordered)


def test_check_codes_rejects_codes_without_samples():
    with pytest.raises(ValueError, match=r"tree codes has no samples \(shape \(0, 3\)\)"):
        check_codes(np.zeros((0, 3), dtype=np.uint8, order="F"), name="tree codes")
    one = check_codes(np.zeros((1, 3), dtype=np.uint8, order="F"))
    assert one.shape == (1, 3)


def test_raw_features_pass_values_through_and_check_their_shape():
    """RawFeatures (the LDA learner's mapper) keeps the values as float64 and checks the
    number of features against the fitted one."""
    mapper = RawFeatures().fit(np.array([[0.5, 1.0], [2.0, -1.0]]))
    assert mapper.n_features_in_ == 2
    out = mapper.transform([[3, 4], [-1, 7]])
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, [[3.0, 4.0], [-1.0, 7.0]])
    with pytest.raises(ValueError, match="X has 3 features but the mapper was fitted on 2"):
        mapper.transform(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="X has 1 features but the mapper was fitted on 2"):
        mapper.transform(np.zeros((1, 1)))
    with pytest.raises(ValueError, match="2-D"):
        RawFeatures().fit(np.zeros(4))
    with pytest.raises(ValueError, match="NaN or infinite"):
        mapper.transform([[np.nan, 1.0]])


def test_the_first_non_finite_column_and_row_are_named():
    X = np.zeros((5, 4))
    X[3, 1], X[1, 1], X[0, 3] = np.inf, np.nan, np.nan
    pattern = (
        r"X column 1 contains a non-finite value \((np\.float64\()?nan\)? at row 1\); 2 column"
    )
    with pytest.raises(ValueError, match=pattern):
        BinMapper().fit(X)
