"""One-hot encoding of integer-coded categorical columns."""

from __future__ import annotations

import numpy as np
import pytest

from marginboost.data import Dataset, one_hot_encode


def _toy() -> Dataset:
    X = np.array([[1.0, 0.5, 2.0], [0.0, 1.5, 2.0], [2.0, 2.5, np.nan], [1.0, 3.5, 3.0]])
    return Dataset("toy", X, np.array([0, 1, 0, 1]), ["colour", "size", "shape"], np.array([-1, 1]))


def test_one_hot_encoding_matches_a_direct_construction():
    out = one_hot_encode(_toy(), ["colour", "shape"])
    assert out.feature_names == ["size", "colour=0", "colour=1", "colour=2", "shape=2", "shape=3"]
    expected = np.array(
        [[0.5, 0, 1, 0, 1, 0], [1.5, 1, 0, 0, 1, 0], [2.5, 0, 0, 1, 0, 0], [3.5, 0, 1, 0, 0, 1]],
        dtype=float,
    )
    np.testing.assert_array_equal(out.X, expected)
    assert out.meta["one_hot"] == {"colour": [0.0, 1.0, 2.0], "shape": [2.0, 3.0]}
    np.testing.assert_array_equal(out.y, [0, 1, 0, 1])


def test_one_hot_rejects_unknown_and_repeated_columns():
    with pytest.raises(ValueError, match="no column named"):
        one_hot_encode(_toy(), ["weight"])
    with pytest.raises(ValueError, match="repeat"):
        one_hot_encode(_toy(), ["colour", "colour"])
