"""Poker hands: UCI's labelling rules, the generator of uniform random hands and Poker525k.

The labelling function is checked against every label of UCI's training file and against the
exact class counts of all C(52, 5) = 2,598,960 hands; the generator against the exact class
probabilities (a binomial tolerance of 5 standard deviations on 100,000 hands); Poker525k
against UCI's file, the generator and the split convention of ``segmentation_uci``.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from marginboost.data import Dataset, load, poker525k, poker_hand_label, poker_hands
from marginboost.data.poker import POKER_FEATURE_NAMES, POKER_HAND_COUNTS
from marginboost.data.splits import Split


def encode(card_ids: np.ndarray) -> np.ndarray:
    """UCI's S1, C1, ..., S5, C5 of card ids 0..51 (suit = id // 13 + 1, rank = id % 13 + 1)."""
    X = np.empty((card_ids.shape[0], 10), dtype=np.int64)
    X[:, 0::2] = card_ids // 13 + 1
    X[:, 1::2] = card_ids % 13 + 1
    return X


def test_labels_reproduce_every_uci_training_label():
    ds = load("poker_train")
    assert ds.X.shape == (25010, 10) and list(ds.classes) == list(range(10))
    assert ds.feature_names == POKER_FEATURE_NAMES
    labels = poker_hand_label(ds.X)
    mismatches = np.flatnonzero(labels != ds.classes[ds.y])
    assert mismatches.size == 0, f"{mismatches.size} labels differ, first rows {mismatches[:5]}"
    # the file exercises both ace rules: A-2-3-4-5 and 10-J-Q-K-A straights (and flushes)
    ranks = np.sort(ds.X[:, 1::2], axis=1)
    assert set(ds.y[(ranks == [1, 2, 3, 4, 5]).all(axis=1)]) == {4, 8}
    assert set(ds.y[(ranks == [1, 10, 11, 12, 13]).all(axis=1)]) == {4, 9}


def test_labels_of_all_hands_match_the_exact_class_counts():
    hands = np.fromiter(
        combinations(range(52), 5), dtype=np.dtype((np.int64, 5)), count=comb(52, 5)
    )
    counts = np.bincount(poker_hand_label(encode(hands)), minlength=10)
    assert tuple(counts) == POKER_HAND_COUNTS
    assert sum(POKER_HAND_COUNTS) == comb(52, 5)


@pytest.mark.parametrize(
    "hand, label",
    [
        ([1, 1, 2, 2, 3, 5, 4, 9, 1, 12], 0),  # nothing
        ([1, 1, 2, 1, 3, 5, 4, 9, 1, 12], 1),  # one pair of aces
        ([1, 1, 2, 1, 3, 5, 4, 5, 1, 12], 2),  # two pairs
        ([1, 7, 2, 7, 3, 7, 4, 9, 1, 12], 3),  # three of a kind
        ([1, 3, 2, 1, 3, 5, 4, 2, 1, 4], 4),  # A-2-3-4-5, any order
        ([1, 13, 2, 1, 3, 11, 4, 10, 1, 12], 4),  # 10-J-Q-K-A
        ([1, 12, 2, 1, 3, 13, 4, 2, 1, 3], 0),  # Q-K-A-2-3 does not wrap around
        ([3, 2, 3, 9, 3, 5, 3, 11, 3, 13], 5),  # flush
        ([1, 4, 2, 4, 3, 4, 4, 9, 1, 9], 6),  # full house
        ([1, 4, 2, 4, 3, 4, 4, 4, 1, 9], 7),  # four of a kind
        ([2, 5, 2, 2, 2, 1, 2, 4, 2, 3], 8),  # ace-low straight flush
        ([4, 9, 4, 13, 4, 10, 4, 11, 4, 12], 8),  # 9-K straight flush
        ([4, 1, 4, 13, 4, 10, 4, 11, 4, 12], 9),  # royal flush
    ],
)
def test_labels_of_single_hands(hand, label):
    assert poker_hand_label(hand) == label
    assert poker_hand_label(np.array([hand, hand]) * 1.0).tolist() == [label, label]


@pytest.mark.parametrize(
    "cards, message",
    [
        (np.ones((3, 9)), r"shape \(n, 10\)"),
        ([1, 1, 2, 2, 3, 3, 4, 4, 5, 5], r"suit codes must lie in 1..4; hand 0"),
        ([1, 0, 2, 2, 3, 3, 4, 4, 1, 5], r"rank codes must lie in 1..13"),
        ([1, 1, 2, 2, 3, 3, 4, 4, 1, 1.5], "integer suit and rank codes"),
        ([1, 1, 2, 2, 3, 3, 4, np.nan, 1, 5], "integer suit and rank codes"),
        ([1, 1, 2, 2, 3, 3, 4, 4, 1, 1], "distinct cards; hand 0 repeats a card"),
        (np.array([list("abcdefghij")]), "numeric"),
    ],
)
def test_bad_hands_are_rejected(cards, message):
    with pytest.raises(ValueError, match=message):
        poker_hand_label(cards)


def test_generated_hands_are_valid_and_reproducible():
    ds = poker_hands(20_000, seed=3)
    assert isinstance(ds, Dataset) and ds.X.shape == (20_000, 10) and ds.X.dtype == np.float64
    assert ds.feature_names == POKER_FEATURE_NAMES and list(ds.classes) == list(range(10))
    assert ds.meta["generated"] is True
    suits, ranks = ds.X[:, 0::2], ds.X[:, 1::2]
    assert set(np.unique(suits)) == {1, 2, 3, 4} and set(np.unique(ranks)) == set(range(1, 14))
    ids = np.sort((suits - 1) * 13 + ranks - 1, axis=1)
    assert (np.diff(ids, axis=1) > 0).all()
    np.testing.assert_array_equal(ds.y, poker_hand_label(ds.X))
    again = poker_hands(20_000, seed=3)
    np.testing.assert_array_equal(ds.X, again.X)
    np.testing.assert_array_equal(poker_hands(50, np.random.default_rng(3)).X, poker_hands(50, 3).X)
    assert not np.array_equal(poker_hands(50, seed=4).X, poker_hands(50, seed=3).X)
    # random order: every position holds every card about equally often (52 * 5 cells)
    per_position = np.stack(
        [
            np.bincount(((suits[:, j] - 1) * 13 + ranks[:, j] - 1).astype(int), minlength=52)
            for j in range(5)
        ]
    )
    expected = 20_000 / 52
    assert np.abs(per_position - expected).max() < 5 * np.sqrt(expected)


def test_class_frequencies_of_generated_hands_match_the_exact_probabilities():
    n = 100_000
    frequencies = np.bincount(poker_hands(n, seed=0).y, minlength=10) / n
    probabilities = np.array(POKER_HAND_COUNTS) / comb(52, 5)
    np.testing.assert_allclose(probabilities[:2], [0.5012, 0.4226], atol=5e-5)
    sd = np.sqrt(probabilities * (1 - probabilities) / n)
    assert (np.abs(frequencies - probabilities) <= 5 * sd + 1e-12).all(), frequencies


@pytest.mark.parametrize(
    "n, seed, message",
    [
        (0, 0, "n must be a positive integer"),
        (-5, 0, "n must be a positive integer"),
        (2.5, 0, "n must be a positive integer"),
        (True, 0, "n must be a positive integer"),
        ("10", 0, "n must be a positive integer"),
        (10, None, "seed must be given explicitly"),
        (10, -1, "seed must be given explicitly"),
        (10, 1.0, "seed must be given explicitly"),
        (10, "0", "seed must be given explicitly"),
    ],
)
def test_bad_n_or_seed_is_rejected(n, seed, message):
    with pytest.raises(ValueError, match=message):
        poker_hands(n, seed)


# ------------------------------------------------------------------------------ Poker525k
N_UCI = 25_010


def assert_valid_hands(X: np.ndarray) -> None:
    suits, ranks = X[:, 0::2], X[:, 1::2]
    assert ((suits >= 1) & (suits <= 4)).all() and ((ranks >= 1) & (ranks <= 13)).all()
    assert (X == np.round(X)).all()
    ids = np.sort((suits - 1) * 13 + ranks - 1, axis=1)
    assert (np.diff(ids, axis=1) > 0).all(), "a hand repeats a card"


def test_poker525k_has_the_papers_shape_and_uci_rows_first():
    ds = poker525k()
    split = ds.meta["split"]
    assert ds.name == "poker525k" and ds.X.shape == (1_025_010, 10)
    assert (split["train"].size, split["test"].size) == (525_010, 500_000)
    np.testing.assert_array_equal(split["train"], np.arange(525_010))
    np.testing.assert_array_equal(split["test"], np.arange(525_010, 1_025_010))
    uci = load("poker_train")
    np.testing.assert_array_equal(ds.X[:N_UCI], uci.X)
    np.testing.assert_array_equal(ds.y[:N_UCI], uci.y)
    assert ds.X.dtype == np.float64 and ds.y.dtype == np.int64
    assert ds.feature_names == uci.feature_names and list(ds.classes) == list(range(10))
    assert set(np.unique(ds.y[split["train"]])) == set(range(10))
    generated = ds.meta["generated"]
    assert generated.dtype == bool and generated.shape == (1_025_010,)
    assert not generated[:N_UCI].any() and generated[N_UCI:].all()
    assert (
        ds.meta["n_real"],
        ds.meta["n_generated_train"],
        ds.meta["n_generated_test"],
        ds.meta["seed"],
    ) == (N_UCI, 500_000, 500_000, 2014)
    assert_valid_hands(ds.X)
    np.testing.assert_array_equal(ds.y[N_UCI:], poker_hand_label(ds.X[N_UCI:]))


def test_poker525k_generated_rows_are_one_poker_hands_draw_split_in_order():
    ds = poker525k(seed=7, n_generated_train=300, n_test=200)
    drawn = poker_hands(500, 7)
    assert ds.X.shape == (N_UCI + 500, 10)
    np.testing.assert_array_equal(ds.X[N_UCI:], drawn.X)
    np.testing.assert_array_equal(ds.y[N_UCI:], drawn.y)
    split = ds.meta["split"]
    np.testing.assert_array_equal(ds.X[split["train"]][N_UCI:], drawn.X[:300])
    np.testing.assert_array_equal(ds.X[split["test"]], drawn.X[300:])
    assert_valid_hands(ds.X)
    np.testing.assert_array_equal(ds.y[N_UCI:], poker_hand_label(ds.X[N_UCI:]))
    np.testing.assert_array_equal(ds.meta["generated"], np.arange(ds.n_samples) >= N_UCI)


def test_poker525k_is_deterministic_in_the_seed():
    first = poker525k(seed=11, n_generated_train=50, n_test=40)
    again = poker525k(seed=11, n_generated_train=50, n_test=40)
    np.testing.assert_array_equal(first.X, again.X)
    np.testing.assert_array_equal(first.y, again.y)
    other = poker525k(seed=12, n_generated_train=50, n_test=40)
    np.testing.assert_array_equal(other.X[:N_UCI], first.X[:N_UCI])  # UCI rows never change
    assert not np.array_equal(other.X[N_UCI : N_UCI + 50], first.X[N_UCI : N_UCI + 50])
    assert not np.array_equal(other.X[N_UCI + 50 :], first.X[N_UCI + 50 :])
    # the arrays of one call are not shared with another
    first.meta["split"]["train"][0] = -1
    assert again.meta["split"]["train"][0] == 0


def test_poker525k_split_is_stored_like_segmentation_uci():
    """A protocol reads both fixed splits the same way: meta["split"]["train" / "test"]."""
    segmentation = load("segmentation_uci")
    poker = poker525k(n_generated_train=10, n_test=20)
    reference, ours = segmentation.meta["split"], poker.meta["split"]
    assert type(ours) is type(reference) and set(ours) == set(reference) == {"train", "test"}
    for key in ("train", "test"):
        assert isinstance(ours[key], np.ndarray) and ours[key].dtype == reference[key].dtype
    split = Split(train=ours["train"], test=ours["test"])
    assert split.sizes == (N_UCI + 10, 0, 20)
    assert np.concatenate([split.train, split.test]).tolist() == list(range(poker.n_samples))
    test_part = poker.subset(split.test)
    assert test_part.n_samples == 20 and "split" not in test_part.meta


def test_poker525k_documents_what_is_generated():
    ds = poker525k(seed=5, n_generated_train=0, n_test=3)
    assert ds.meta["split"]["train"].size == N_UCI and ds.meta["split"]["test"].size == 3
    assert ds.meta["seed"] == 5 and ds.meta["n_generated_train"] == 0
    text = ds.meta["differences"]
    assert "1,000,000 UCI test hands are not in the mirror" in text
    assert "poker_hands(seed=5)" in text and "labelled by UCI's rules" in text
    assert "generated" in ds.meta["description"]
    assert ds.meta["real_sha256"] == load("poker_train").meta["sha256"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"seed": -1}, "seed must be a non-negative integer"),
        ({"seed": 1.5}, "seed must be a non-negative integer"),
        ({"seed": 2014.0}, "seed must be a non-negative integer"),
        ({"seed": "2014"}, "seed must be a non-negative integer"),
        ({"seed": None}, "seed must be a non-negative integer"),
        ({"seed": True}, "seed must be a non-negative integer"),
        ({"seed": np.random.default_rng(0)}, "seed must be a non-negative integer"),
        ({"n_generated_train": -1}, "n_generated_train must be a non-negative integer"),
        ({"n_generated_train": 2.5}, "n_generated_train must be a non-negative integer"),
        ({"n_generated_train": False}, "n_generated_train must be a non-negative integer"),
        ({"n_test": 0}, "n_test must be a positive integer"),
        ({"n_test": -10}, "n_test must be a positive integer"),
        ({"n_test": "10"}, "n_test must be a positive integer"),
    ],
)
def test_poker525k_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        poker525k(**{"n_generated_train": 5, "n_test": 5, **kwargs})
