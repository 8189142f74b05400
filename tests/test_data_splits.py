"""Split protocols and label noise."""

from __future__ import annotations

import numpy as np
import pytest
from _data_helpers import MIRROR, requires_mirror

import marginboost.data as data
from marginboost.data import (
    ProtocolError,
    Split,
    fixed_split,
    flip_labels,
    flip_split_labels,
    mcboost_splits,
    random_splits,
    rotated_splits,
    shen_li_splits,
)


def _assert_partition(split: Split, n: int):
    parts = [split.train, split.validation, split.test]
    joined = np.concatenate(parts)
    assert np.unique(joined).size == joined.size  # disjoint
    assert set(joined.tolist()) <= set(range(n))


@pytest.mark.parametrize("n", [5, 103, 569])
def test_rotation_is_3_1_1_and_tests_every_row_once(n):
    splits = rotated_splits(n, seed=0)
    assert len(splits) == 5
    test_counts = np.zeros(n, int)
    for split in splits:
        _assert_partition(split, n)
        assert sum(split.sizes) == n  # coverage
        assert abs(split.validation.size - n / 5) < 1 and abs(split.test.size - n / 5) < 1
        test_counts[split.test] += 1
    assert (test_counts == 1).all()
    # the validation part of rotation k is the test part of rotation k + 1
    for k in range(5):
        assert np.array_equal(splits[k].validation, splits[(k + 1) % 5].test)


def test_rotation_stratified_balances_classes():
    y = np.array([0] * 80 + [1] * 20)
    for split in rotated_splits(100, seed=1, y=y):
        assert np.bincount(y[split.test], minlength=2).tolist() == [16, 4]


def test_rotation_is_seeded():
    a, b, c = (rotated_splits(50, seed=s) for s in (3, 3, 4))
    assert all(np.array_equal(x.test, y.test) for x, y in zip(a, b))
    assert not all(np.array_equal(x.test, y.test) for x, y in zip(a, c))


def test_kfold_without_validation():
    splits = rotated_splits(20, seed=0, n_parts=4, n_validation_parts=0)
    assert [s.sizes for s in splits] == [(15, 0, 5)] * 4


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(n_samples=10, n_parts=1), "n_parts"),
        (dict(n_samples=10, n_parts=2), "no training part"),
        (dict(n_samples=3, n_parts=5), "non-empty"),
        (dict(n_samples=0), "positive"),
    ],
)
def test_rotation_rejects_bad_sizes(kwargs, match):
    with pytest.raises(ProtocolError, match=match):
        rotated_splits(seed=0, **kwargs)


def test_random_splits_sizes_and_repeats():
    splits = shen_li_splits(200, n_repeats=4, seed=0)
    assert len(splits) == 4
    for split in splits:
        _assert_partition(split, 200)
        assert split.sizes == (140, 30, 30)
    assert not np.array_equal(splits[0].train, splits[1].train)
    again = shen_li_splits(200, n_repeats=4, seed=0)
    assert all(np.array_equal(a.test, b.test) for a, b in zip(splits, again))


def test_mcboost_fractions_and_repetitions():
    small = mcboost_splits(100, "banana", seed=0)
    assert len(small) == 50 and small[0].sizes == (60, 20, 20)
    large = mcboost_splits(1000, "ida_twonorm", seed=0)
    assert len(large) == 10 and large[0].sizes == (100, 300, 600)
    assert len(mcboost_splits(100, "heart", n_repeats=3, seed=0)) == 3


@pytest.mark.parametrize(
    "fractions, n, match",
    [
        ((0.7, 0.2, 0.2), 100, "sum to 1"),
        ((0.5, 0.6, -0.1), 100, "non-negative"),
        ((0.0, 0.5, 0.5), 100, "training fraction"),
        ((0.6, 0.2, 0.2), 2, "too few"),
        ((0.5, 0.5), 100, "train, validation, test"),
    ],
)
def test_random_splits_reject_bad_fractions(fractions, n, match):
    with pytest.raises(ProtocolError, match=match):
        random_splits(n, fractions, 1, seed=0)


def test_random_splits_need_a_repeat():
    with pytest.raises(ProtocolError, match="n_repeats"):
        random_splits(10, (0.6, 0.2, 0.2), 0, seed=0)


def test_fixed_split_and_overlap_check():
    split = fixed_split(3, 2, n_validation=1)
    assert split.train.tolist() == [0, 1, 2] and split.validation.tolist() == [3]
    assert split.test.tolist() == [4, 5]
    with pytest.raises(ProtocolError, match="n_test"):
        fixed_split(3, 0)
    with pytest.raises(ProtocolError, match="overlap"):
        Split([0, 1], [1], [2])


def test_ida_realisation_beyond_the_first_is_refused():
    with pytest.raises(ProtocolError, match="only realisation 1"):
        data.ida_realisation_split("ida_banana_realisation1", realisation=2)
    with pytest.raises(ProtocolError, match="no Rätsch realisation"):
        data.ida_realisation_split("sonar")


@requires_mirror
def test_ida_realisation_one():
    split = data.ida_realisation_split("ida_heart_train_data_1", mirror=MIRROR)
    assert split.sizes == (170, 0, 100)


# ------------------------------------------------------------------ label noise
@pytest.mark.parametrize("rate, n", [(0.0, 100), (0.05, 1000), (0.2, 333), (1.0, 10)])
def test_binary_noise_flips_exactly_round_rate_n_signs(rate, n):
    y = np.where(np.arange(n) % 3 == 0, 1, -1)
    noisy, flipped = flip_labels(y, rate, 0, return_indices=True)
    assert (noisy != y).sum() == round(rate * n) == flipped.size
    assert np.array_equal(noisy[flipped], -y[flipped])
    assert np.array_equal(flip_labels(y, rate, 0), noisy)


def test_multiclass_noise_moves_to_a_uniform_other_class():
    y = np.zeros(30000, dtype=int)
    noisy = flip_labels(y, 0.5, np.random.default_rng(0), classes=[0, 1, 2, 3])
    changed = noisy[noisy != y]
    assert changed.size == 15000 and 0 not in changed
    # each of the 3 other classes: 5000 expected, sd about 58
    assert np.allclose(np.bincount(changed, minlength=4)[1:], 5000, atol=300)


def test_noise_rejects_bad_input():
    with pytest.raises(ValueError, match="rate"):
        flip_labels([1, -1], 1.5, 0)
    with pytest.raises(ValueError, match="two classes"):
        flip_labels([1, 1, 1], 0.5, 0)
    with pytest.raises(ValueError, match="not in classes"):
        flip_labels([1, 2], 0.5, 0, classes=[1, 3])


def test_split_noise_never_touches_test_labels():
    y = np.where(np.arange(500) % 2 == 0, 1, -1)
    split = rotated_splits(500, seed=0)[0]
    noisy = flip_split_labels(y, split, 0.2, 0, parts=("train", "validation"))
    assert np.array_equal(noisy[split.test], y[split.test])
    assert (noisy[split.train] != y[split.train]).sum() == round(0.2 * split.train.size)
    assert (noisy[split.validation] != y[split.validation]).sum() == round(
        0.2 * split.validation.size
    )
    train_only = flip_split_labels(y, split, 0.2, 0)
    assert np.array_equal(train_only[split.validation], y[split.validation])
    with pytest.raises(ProtocolError, match="test"):
        flip_split_labels(y, split, 0.2, 0, parts=("train", "test"))
