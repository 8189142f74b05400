r"""Poker hands: UCI's encoding and labelling rules, and a generator of uniform random hands.

The UCI *Poker Hand* data (Cattral & Oppacher, 2007; ``poker_train`` in the registry) describe a
hand of five distinct cards from a 52-card deck by 10 attributes ``S1, C1, ..., S5, C5``: the
suit (1 hearts, 2 spades, 3 diamonds, 4 clubs) and the rank (1 ace, 2-10, 11 jack, 12 queen,
13 king) of each card, in the order the cards were dealt.  The class is the poker hand, by the
rules of UCI's ``poker-hand.names``:

====  ==================  =================================================================
code  hand                rule (ranks as numbers, ace = 1)
====  ==================  =================================================================
0     nothing in hand     none of the below
1     one pair            one pair of equal ranks
2     two pairs           two pairs of equal ranks
3     three of a kind     three equal ranks
4     straight            five consecutive ranks, no gaps; the ace counts low (A-2-3-4-5)
                          or high (10-J-Q-K-A)
5     flush               five cards of the same suit
6     full house          a pair and three of a kind
7     four of a kind      four equal ranks
8     straight flush      a straight that is a flush
9     royal flush         10-J-Q-K-A of one suit
====  ==================  =================================================================

Each hand gets the highest code whose rule it satisfies (a straight flush is not counted as a
straight or a flush, a full house not as three of a kind).  :func:`poker_hand_label`
reproduces all 25,010 labels of UCI's training file (``tests/test_data_poker.py``).

UCI's 1,000,000 test hands are uniform random hands; the offline mirror lacks that file, so
:func:`poker_hands` draws new ones with the same distribution.  DMCBoost's Poker525k (Zhai,
Xia & Wang, KDD 2014, Table 1) split UCI's test hands at random into two halves, added one to
the 25,010 training hands and tested on the other; :func:`poker525k` rebuilds it with
generated hands in place of UCI's test hands.  Hands drawn here are *generated*, not UCI's,
and are labelled as such in ``meta``.
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .dataset import Dataset
from .errors import DataFormatError
from .loaders import load
from .splits import fixed_split

__all__ = [
    "poker_hands",
    "poker_hand_label",
    "poker525k",
    "POKER_HAND_NAMES",
    "POKER_FEATURE_NAMES",
    "POKER_HAND_COUNTS",
    "POKER525K_SEED",
]

#: Names of the classes 0..9 (UCI's ``poker-hand.names``).
POKER_HAND_NAMES = (
    "nothing in hand",
    "one pair",
    "two pairs",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
    "royal flush",
)

#: Column names, as the registry's ``poker_train`` loader names them (S1, C1, ..., S5, C5).
POKER_FEATURE_NAMES = [f"{kind}{card}" for card in range(1, 6) for kind in ("suit", "rank")]

#: Number of the C(52, 5) = 2,598,960 unordered hands in each class (standard combinatorics).
POKER_HAND_COUNTS = (1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4)

#: Default seed of :func:`poker525k` (the year of the DMCBoost paper).
POKER525K_SEED = 2014

_N_CARDS, _N_SUITS, _N_RANKS, _HAND_SIZE = 52, 4, 13, 5
#: Ranks of the ace-high straight 10-J-Q-K-A as a bit set (bit r-1 for rank r).
_ACE_HIGH = sum(1 << (r - 1) for r in (1, 10, 11, 12, 13))


def poker_hand_label(cards: ArrayLike) -> NDArray[np.int64]:
    """Class code 0..9 of each hand (UCI's rules; see the module docstring).

    Parameters
    ----------
    cards
        Array of shape ``(n, 10)`` (or ``(10,)`` for one hand) in UCI's encoding
        ``S1, C1, ..., S5, C5``: suits 1-4, ranks 1-13 (ace = 1), integer-valued.

    Returns
    -------
    numpy.ndarray of int64, shape (n,)
        The class code of each hand; for a single hand of shape ``(10,)``, one
        :class:`numpy.int64`.

    Raises
    ------
    ValueError
        If the shape is wrong, a code is not an integer in range, or a hand repeats a card.

    References
    ----------
    Cattral, R. and Oppacher, F. (2007). Poker Hand data set. UCI Machine Learning
    Repository.

    Examples
    --------
    >>> from marginboost.data import poker_hand_label
    >>> royal_flush = [1, 10, 1, 11, 1, 12, 1, 13, 1, 1]  # hearts 10, J, Q, K, A
    >>> one_pair = [1, 2, 2, 2, 3, 5, 4, 7, 1, 9]
    >>> int(poker_hand_label(royal_flush))
    9
    >>> poker_hand_label([royal_flush, one_pair]).tolist()
    [9, 1]
    """
    array = np.asarray(cards)
    single = array.ndim == 1
    if single:
        array = array[None, :]
    if array.ndim != 2 or array.shape[1] != 2 * _HAND_SIZE:
        raise ValueError(
            "cards must have shape (n, 10) or (10,): S1, C1, ..., S5, C5; got "
            f"shape {np.shape(cards)}"
        )
    try:
        values = array.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"cards must be numeric suit and rank codes: {exc}") from exc
    if not np.all(np.isfinite(values)) or np.any(values != np.round(values)):
        raise ValueError("cards must hold integer suit and rank codes (no NaN, inf or fractions)")
    codes = values.astype(np.int64)
    suits, ranks = codes[:, 0::2], codes[:, 1::2]
    for name, part, high in (("suit", suits, _N_SUITS), ("rank", ranks, _N_RANKS)):
        bad = (part < 1) | (part > high)
        if bad.any():
            row = int(np.flatnonzero(bad.any(axis=1))[0])
            raise ValueError(
                f"{name} codes must lie in 1..{high}; hand {row} has {part[row].tolist()}"
            )
    card_ids = np.sort((suits - 1) * _N_RANKS + (ranks - 1), axis=1)
    repeated = (np.diff(card_ids, axis=1) == 0).any(axis=1)
    if repeated.any():
        row = int(np.flatnonzero(repeated)[0])
        raise ValueError(
            f"a hand must hold 5 distinct cards; hand {row} repeats a card: {codes[row].tolist()}"
        )

    # multiplicities of the ranks, largest first
    rank_counts = np.zeros((codes.shape[0], _N_RANKS + 1), dtype=np.int64)
    np.add.at(rank_counts, (np.arange(codes.shape[0])[:, None], ranks), 1)
    top = -np.sort(-rank_counts, axis=1)
    first, second = top[:, 0], top[:, 1]
    distinct = first == 1
    low, high = ranks.min(axis=1), ranks.max(axis=1)
    rank_bits = np.bitwise_or.reduce(np.left_shift(1, ranks - 1), axis=1)
    ace_high = rank_bits == _ACE_HIGH
    straight = distinct & ((high - low == _HAND_SIZE - 1) | ace_high)
    flush = (suits == suits[:, :1]).all(axis=1)
    conditions = [
        flush & ace_high,
        straight & flush,
        first == 4,
        (first == 3) & (second == 2),
        flush,
        straight,
        first == 3,
        (first == 2) & (second == 2),
        first == 2,
    ]
    labels = np.select(conditions, [9, 8, 7, 6, 5, 4, 3, 2, 1], default=0).astype(np.int64)
    return labels[0] if single else labels


def _check_count(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n must be a positive integer (the number of hands); got {n!r}")
    return int(n)


def _check_seed(seed: object) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(
            "seed must be given explicitly as a non-negative integer or a "
            f"numpy.random.Generator; got {seed!r}"
        )
    return np.random.default_rng(int(seed))


def poker_hands(n: int, seed: int | np.random.Generator) -> Dataset:
    """Draw ``n`` uniform random poker hands, encoded and labelled as UCI's Poker Hand data.

    Each hand is 5 distinct cards of a 52-card deck dealt in random order (a uniformly random
    ordered 5-tuple of distinct cards, so every unordered hand has probability
    ``1 / C(52, 5)``), encoded ``S1, C1, ..., S5, C5`` and labelled by
    :func:`poker_hand_label`.  Card ``j`` of a hand is drawn uniformly among the ``52 - j``
    cards not dealt yet.

    Parameters
    ----------
    n
        Number of hands (a positive integer).
    seed
        A non-negative integer or a :class:`numpy.random.Generator` (required: there is no
        unseeded default).

    Returns
    -------
    Dataset
        ``X`` float64 (n, 10) with the registry's column names (``suit1, rank1, ...``, as
        ``load("poker_train")``), ``y`` codes 0..9, ``classes`` 0..9;
        ``meta["generated"] = True`` and ``meta["class_names"]``.

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer or ``seed`` is neither a non-negative integer nor
        a generator.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.data import poker_hand_label, poker_hands
    >>> hands = poker_hands(1000, seed=0)
    >>> hands.name, hands.X.shape, hands.meta["generated"]
    ('poker_generated', (1000, 10), True)
    >>> bool(np.array_equal(poker_hand_label(hands.X), hands.y))
    True
    """
    n = _check_count(n)
    rng = _check_seed(seed)
    dealt_sorted = np.empty((n, 0), dtype=np.int64)
    cards = np.empty((n, _HAND_SIZE), dtype=np.int64)
    for j in range(_HAND_SIZE):
        # the card of index c among the cards still in the deck: step over the dealt ones,
        # taken in increasing order
        card = rng.integers(0, _N_CARDS - j, size=n)
        for k in range(j):
            card += card >= dealt_sorted[:, k]
        cards[:, j] = card
        dealt_sorted = np.sort(cards[:, : j + 1], axis=1)
    X = np.empty((n, 2 * _HAND_SIZE), dtype=np.float64)
    X[:, 0::2] = cards // _N_RANKS + 1
    X[:, 1::2] = cards % _N_RANKS + 1
    meta = {
        "generator": "poker_hands",
        "seed": repr(seed),
        "generated": True,
        "class_names": list(POKER_HAND_NAMES),
        "note": "uniform random hands drawn by marginboost, labelled by UCI's rules; "
        "not UCI's test file",
        "citation": "Cattral & Oppacher (2007), UCI Poker Hand data set; "
        "Zhai, Xia & Wang (2014), KDD, Poker525k",
    }
    return Dataset(
        "poker_generated", X, poker_hand_label(X), list(POKER_FEATURE_NAMES), np.arange(10), meta
    )


def _check_size(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        kind = "a positive" if minimum > 0 else "a non-negative"
        raise ValueError(f"{name} must be {kind} integer (a number of hands); got {value!r}")
    return int(value)


def poker525k(
    seed: int = POKER525K_SEED,
    n_generated_train: int = 500_000,
    n_test: int = 500_000,
    *,
    mirror=None,
) -> Dataset:
    """DMCBoost's Poker525k (Zhai, Xia & Wang, KDD 2014): UCI's training hands plus generated
    hands, with a fixed train/test split.

    The paper split UCI's 1,000,000 test hands at random into two halves, added one half to
    the 25,010 training hands (525,010 training hands) and tested on the other (500,000).
    The mirror lacks UCI's test file, so both halves are replaced by uniform random hands from
    *one* call ``poker_hands(n_generated_train + n_test, seed)``, split in order: its first
    ``n_generated_train`` hands are added to the training part, the rest form the test part.
    UCI's test hands are uniform random hands too, and the labels of generated hands follow
    UCI's rules (:func:`poker_hand_label`), so the distribution is the paper's; the hands
    themselves are not.

    Rows: the 25,010 UCI training hands (``load("poker_train")``, so the mirror, download
    and SHA-256 checks apply), then the generated training hands, then the test hands.  The
    split is stored as for the registry's fixed-split data sets (``segmentation_uci``):
    ``meta["split"]["train"]`` and ``meta["split"]["test"]`` are ``int64`` row indices.

    Parameters
    ----------
    seed
        Non-negative integer seed of :func:`poker_hands`; the data are a deterministic
        function of it (and of the two sizes).
    n_generated_train
        Generated hands added to the training part (non-negative; the paper: 500,000).
    n_test
        Generated test hands (positive; the paper: 500,000).
    mirror
        Passed to :func:`~marginboost.data.load` for the UCI training file.

    Returns
    -------
    Dataset
        Named ``"poker525k"``: ``X`` float64 ``(25010 + n_generated_train + n_test, 10)``
        with ``poker_train``'s columns, ``y`` class codes 0..9 (``classes`` 0..9, as
        ``poker_train``).  ``meta`` holds ``split`` (train/test indices), ``generated`` (a
        boolean mask over the rows: ``False`` for UCI's hands, ``True`` for generated ones),
        ``n_real``, ``n_generated_train``, ``n_generated_test``, ``seed``, ``generator``,
        ``description``, ``differences`` and the UCI file's provenance (``files``,
        ``real_sha256``, ``original_source``, ``citation``, ``licence``).

    Raises
    ------
    ValueError
        If ``seed`` is not a non-negative integer, ``n_generated_train`` is negative or
        ``n_test`` is not positive (booleans and non-integers are refused).

    References
    ----------
    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. *Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining*.

    Examples
    --------
    A small version (the paper's sizes are the defaults):

    >>> from marginboost.data import poker525k
    >>> ds = poker525k(n_generated_train=100, n_test=50)
    >>> ds.n_samples, ds.meta["n_real"]
    (25160, 25010)
    >>> len(ds.meta["split"]["train"]), len(ds.meta["split"]["test"])
    (25110, 50)
    >>> int(ds.meta["generated"].sum())
    150
    """
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(
            "seed must be a non-negative integer (Poker525k is a deterministic "
            f"function of it); got {seed!r}"
        )
    seed = int(seed)
    n_generated_train = _check_size("n_generated_train", n_generated_train, 0)
    n_test = _check_size("n_test", n_test, 1)

    real = load("poker_train", mirror)
    drawn = poker_hands(n_generated_train + n_test, seed)
    if real.feature_names != drawn.feature_names or list(real.classes) != list(drawn.classes):
        raise DataFormatError(
            "poker_train's columns or classes differ from the generator's "
            f"({real.feature_names}, {list(real.classes)}); the registry "
            "entry and marginboost.data.poker disagree"
        )
    X = np.vstack([real.X, drawn.X])
    y = np.concatenate([real.y, drawn.y])
    n_real = real.n_samples
    n_train = n_real + n_generated_train
    split = fixed_split(n_train, n_test)
    generated = np.ones(X.shape[0], dtype=bool)
    generated[:n_real] = False
    description = (
        f"DMCBoost's Poker525k: the {n_real:,} UCI training hands (poker_train), "
        f"then {n_generated_train:,} generated training hands, then {n_test:,} "
        "generated test hands; meta['split'] holds the indices and "
        "meta['generated'] marks the generated rows."
    )
    differences = (
        f"the 1,000,000 UCI test hands are not in the mirror; the "
        f"{n_generated_train:,} added training hands and the {n_test:,} test hands "
        f"are uniform random hands generated by poker_hands(seed={seed}) and "
        "labelled by UCI's rules, not UCI's hands (same distribution, different "
        "hands)."
    )
    meta = {
        "format": "generated",
        "task": "multiclass",
        "description": description,
        "differences": differences,
        "split": {"train": split.train, "test": split.test},
        "generated": generated,
        "n_real": n_real,
        "n_generated_train": n_generated_train,
        "n_generated_test": n_test,
        "seed": seed,
        "generator": f"poker_hands({n_generated_train + n_test}, seed={seed}): the first "
        f"{n_generated_train} hands train, the rest test",
        "real_part": "poker_train",
        "files": list(real.meta.get("files", [])),
        "real_sha256": real.meta.get("sha256"),
        "original_source": real.meta.get("original_source"),
        "citation": "Cattral & Oppacher (2007), UCI Poker Hand data set; Zhai, Xia & Wang "
        "(2014), KDD, Poker525k; test hands and added training hands generated "
        "by marginboost.data.poker_hands",
        "licence": real.meta.get("licence"),
        "class_names": list(POKER_HAND_NAMES),
        "missing_policy": f"UCI part: {real.meta.get('missing_policy')}; generated part: no "
        "missing values",
        "n_rows_with_missing": int(real.meta.get("n_rows_with_missing", 0)),
    }
    return Dataset("poker525k", X, y, list(real.feature_names), real.classes.copy(), meta)
