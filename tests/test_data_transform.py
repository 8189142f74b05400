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


# ---- binarize_adult: LIBSVM a5a's coding of Adult ----------------------------------------------
from _data_helpers import requires_mirror  # noqa: E402

from marginboost.data import ADULT_CATEGORICAL, binarize_adult, load  # noqa: E402


@requires_mirror
def test_binarize_adult_gives_a5a_s_123_indicators_one_per_attribute_and_row():
    raw = load("adult")
    out = binarize_adult(raw)
    assert out.X.shape == (raw.n_samples, 123) and set(np.unique(out.X)) == {0.0, 1.0}
    np.testing.assert_array_equal(out.y, raw.y)
    names = list(raw.feature_names)
    for attribute in names:
        block = [
            j
            for j, n in enumerate(out.feature_names)
            if n.split("=")[0].split(":")[0].split(">")[0] == attribute
        ]
        ones = out.X[:, block].sum(axis=1)
        values = raw.X[:, names.index(attribute)]
        if attribute in ("workclass", "occupation", "native-country"):
            # "?" (code 0) has no indicator: UCI's counts of "?" in these attributes
            assert (
                int((ones == 0).sum())
                == {"workclass": 2799, "occupation": 2809, "native-country": 857}[attribute]
            )
            np.testing.assert_array_equal(ones == 0, values == 0)
        else:
            np.testing.assert_array_equal(ones, 1.0)  # exactly one indicator per row
    # the quintile indicators against a direct count: age's bins hold about a fifth each
    age = raw.X[:, names.index("age")]
    cuts = np.quantile(age, [0.2, 0.4, 0.6, 0.8])
    assert out.meta["binarized"]["age"] == cuts.tolist()
    q1 = out.feature_names.index("age:q1")
    np.testing.assert_array_equal(out.X[:, q1] == 1, age < cuts[0])
    gain = raw.X[:, names.index("capital-gain")]
    np.testing.assert_array_equal(
        out.X[:, out.feature_names.index("capital-gain>0")] == 1, gain > 0
    )
    assert len(ADULT_CATEGORICAL) == 8


def test_binarize_adult_refuses_other_data():
    with pytest.raises(ValueError, match="not UCI Adult"):
        binarize_adult(_toy())
