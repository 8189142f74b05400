"""Train/validation/test protocols of the reproduced papers, as seeded index arrays.

=====================  =====================================================================
protocol               function
=====================  =====================================================================
DirectBoost, DMCBoost  :func:`rotated_splits` (5 equal parts: 3 train / 1 validation /
                       1 test, rotated 5 times; optionally stratified)
Shen & Li (2010)       :func:`shen_li_splits` (random 70/15/15, repeated)
MCBoost                :func:`mcboost_splits` (random 60/20/20, or 10/30/60 for ringnorm,
                       twonorm and waveform; repeated 50 or 10 times)
Rätsch realisations    :func:`ida_realisation_split` (only realisation 1 exists)
fixed train/test files :func:`fixed_split`
=====================  =====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .errors import ProtocolError

__all__ = [
    "Split",
    "rotated_splits",
    "random_splits",
    "shen_li_splits",
    "mcboost_splits",
    "ida_realisation_split",
    "fixed_split",
    "MCBOOST_LARGE_DATASETS",
]

#: Datasets that MCBoost splits 10/30/60 instead of 60/20/20.
MCBOOST_LARGE_DATASETS = ("ringnorm", "twonorm", "waveform")


def _index_array(values) -> np.ndarray:
    return np.asarray(values, dtype=np.int64).ravel()


@dataclass
class Split:
    """Row indices of one train / validation / test partition (validation may be empty).

    Parameters
    ----------
    train : array_like of int
        Row indices of the training part.
    validation : array_like of int, optional
        Row indices of the validation part (default: none).
    test : array_like of int, optional
        Row indices of the test part (default: none).

    Attributes
    ----------
    train : numpy.ndarray of int64
        Training rows, as a flat index array (converted on construction).
    validation : numpy.ndarray of int64
        Validation rows (possibly none).
    test : numpy.ndarray of int64
        Test rows (possibly none).  No row occurs in two parts.

    Raises
    ------
    ProtocolError
        If a row index occurs in more than one part.

    Examples
    --------
    >>> from marginboost.data import Split
    >>> split = Split(train=[0, 1, 2], test=[3, 4])
    >>> split.sizes
    (3, 0, 2)
    >>> split.validation.dtype
    dtype('int64')
    >>> Split(train=[0, 1], test=[1])
    Traceback (most recent call last):
    ...
    marginboost.data.errors.ProtocolError: split parts overlap: ...
    """

    train: np.ndarray
    validation: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    test: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))

    def __post_init__(self) -> None:
        self.train = _index_array(self.train)
        self.validation = _index_array(self.validation)
        self.test = _index_array(self.test)
        joined = np.concatenate([self.train, self.validation, self.test])
        if np.unique(joined).size != joined.size:
            raise ProtocolError("split parts overlap: a row index occurs in more than one part")

    @property
    def sizes(self) -> tuple[int, int, int]:
        """``(n_train, n_validation, n_test)``."""
        return (self.train.size, self.validation.size, self.test.size)


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _check_n(n_samples) -> int:
    if int(n_samples) != n_samples or n_samples < 1:
        raise ProtocolError(f"n_samples must be a positive integer, got {n_samples!r}")
    return int(n_samples)


def _parts(n: int, n_parts: int, rng: np.random.Generator, y=None) -> list[np.ndarray]:
    """Random partition into ``n_parts`` parts whose sizes differ by at most one."""
    if y is None:
        order = rng.permutation(n)
    else:
        y = np.asarray(y)
        if y.shape != (n,):
            raise ProtocolError(f"stratification labels have shape {y.shape}, expected ({n},)")
        # shuffle inside each class, then deal the rows round-robin: every class is spread
        # over the parts as evenly as possible
        order = np.concatenate([rng.permutation(np.flatnonzero(y == c)) for c in np.unique(y)])
    return [np.sort(order[k::n_parts]) for k in range(n_parts)]


def rotated_splits(
    n_samples: int, *, seed, n_parts: int = 5, n_validation_parts: int = 1, y=None
) -> list[Split]:
    """Equal-part rotation: DirectBoost (Zhai et al. 2013, sec. 4) and DMCBoost protocol.

    The rows are split at random into ``n_parts`` parts.  Rotation ``k`` uses part ``k`` for
    test, the next ``n_validation_parts`` parts (cyclically) for validation and the rest for
    training; with the defaults that is 3 train / 1 validation / 1 test parts, 5 rotations,
    and every row is a test row exactly once.

    Parameters
    ----------
    n_samples : int
        Number of rows.
    seed : int or numpy.random.Generator
        Seed or generator.
    n_parts : int, optional
        Number of parts ``k`` (at least 2).
    n_validation_parts : int, optional
        Validation parts per rotation (0 gives plain k-fold cross-validation).
    y : array_like, shape (n_samples,), optional
        Labels to stratify on: each class is shuffled and dealt to the parts in turn, so every
        part holds each class in nearly the same proportion.

    Returns
    -------
    list of Split
        ``n_parts`` splits, rotation ``k`` first testing on part ``k``; part sizes differ by
        at most one row.

    Raises
    ------
    ProtocolError
        If ``n_parts < 2``, no part is left for training, or a part would be empty.

    Notes
    -----
    DirectBoost (Zhai et al. 2013) and DMCBoost (Zhai et al. 2014) split each data set into
    five parts, train on three, use the fourth for model selection (such as the number of
    rounds) and measure the test error on the fifth, rotating the roles five times; the
    reported number is the mean test error over the rotations.

    References
    ----------
    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. *Advances in Neural Information Processing Systems 26*.

    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. *Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining*.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.data import rotated_splits
    >>> splits = rotated_splits(10, seed=0)
    >>> [split.sizes for split in splits]
    [(6, 2, 2), (6, 2, 2), (6, 2, 2), (6, 2, 2), (6, 2, 2)]
    >>> sorted(np.concatenate([split.test for split in splits]).tolist())  # each row once
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]

    Stratified on labels, every test part holds one row of each class here:

    >>> y = np.array([0] * 5 + [1] * 5)
    >>> [np.bincount(y[split.test]).tolist() for split in rotated_splits(10, seed=0, y=y)]
    [[1, 1], [1, 1], [1, 1], [1, 1], [1, 1]]
    """
    n = _check_n(n_samples)
    if int(n_parts) != n_parts or n_parts < 2:
        raise ProtocolError(f"n_parts must be an integer >= 2, got {n_parts!r}")
    if n_validation_parts < 0 or n_validation_parts + 1 >= n_parts:
        raise ProtocolError(
            f"{n_validation_parts} validation part(s) + 1 test part leave no "
            f"training part out of {n_parts}"
        )
    if n < n_parts:
        raise ProtocolError(f"cannot split {n} rows into {n_parts} non-empty parts")
    parts = _parts(n, int(n_parts), _rng(seed), y)
    splits = []
    for k in range(n_parts):
        validation_ids = [(k + 1 + j) % n_parts for j in range(n_validation_parts)]
        train_ids = [j for j in range(n_parts) if j != k and j not in validation_ids]
        splits.append(
            Split(
                train=np.sort(np.concatenate([parts[j] for j in train_ids])),
                validation=(
                    np.sort(np.concatenate([parts[j] for j in validation_ids]))
                    if validation_ids
                    else np.empty(0, dtype=np.int64)
                ),
                test=parts[k],
            )
        )
    return splits


def _part_sizes(n: int, fractions) -> tuple[int, int, int]:
    fractions = tuple(float(f) for f in fractions)
    if len(fractions) != 3:
        raise ProtocolError(f"fractions must be (train, validation, test), got {fractions}")
    if any(f < 0 for f in fractions):
        raise ProtocolError(f"fractions must be non-negative, got {fractions}")
    if not np.isclose(sum(fractions), 1.0, atol=1e-9):
        raise ProtocolError(f"fractions must sum to 1, got {fractions} (sum {sum(fractions)})")
    if fractions[0] == 0:
        raise ProtocolError("the training fraction must be positive")
    n_train = int(round(fractions[0] * n))
    n_validation = int(round(fractions[1] * n))
    n_test = n - n_train - n_validation
    sizes = (n_train, n_validation, n_test)
    for name, f, size in zip(("train", "validation", "test"), fractions, sizes):
        if f > 0 and size < 1:
            raise ProtocolError(
                f"{n} rows are too few: the {name} part ({f:g}) would get {size} rows"
            )
    return sizes


def random_splits(n_samples: int, fractions, n_repeats: int, *, seed) -> list[Split]:
    """Independent random train/validation/test splits with the given fractions.

    Sizes: ``round(f_train * n)`` training rows, ``round(f_validation * n)`` validation rows,
    the rest test rows; each repetition draws a fresh permutation from one seeded generator.

    Parameters
    ----------
    n_samples : int
        Number of rows.
    fractions : tuple of 3 floats
        ``(f_train, f_validation, f_test)``, non-negative and summing to 1.
    n_repeats : int
        Number of splits to draw.
    seed : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    list of Split
        ``n_repeats`` splits, each part's indices sorted.

    Raises
    ------
    ProtocolError
        If the fractions do not sum to 1, are negative, the training fraction is 0, a part
        with a positive fraction would be empty, or ``n_repeats < 1``.

    Examples
    --------
    >>> from marginboost.data import random_splits
    >>> splits = random_splits(20, (0.5, 0.25, 0.25), 3, seed=0)
    >>> [split.sizes for split in splits]
    [(10, 5, 5), (10, 5, 5), (10, 5, 5)]
    >>> random_splits(20, (0.5, 0.5, 0.5), 1, seed=0)
    Traceback (most recent call last):
    ...
    marginboost.data.errors.ProtocolError: fractions must sum to 1, ...
    """
    n = _check_n(n_samples)
    if int(n_repeats) != n_repeats or n_repeats < 1:
        raise ProtocolError(f"n_repeats must be a positive integer, got {n_repeats!r}")
    n_train, n_validation, _ = _part_sizes(n, fractions)
    rng = _rng(seed)
    splits = []
    for _ in range(int(n_repeats)):
        order = rng.permutation(n)
        splits.append(
            Split(
                np.sort(order[:n_train]),
                np.sort(order[n_train : n_train + n_validation]),
                np.sort(order[n_train + n_validation :]),
            )
        )
    return splits


def shen_li_splits(n_samples: int, n_repeats: int = 10, *, seed) -> list[Split]:
    """Shen & Li (2010) protocol: random 70/15/15 train/validation/test, repeated.

    Parameters
    ----------
    n_samples : int
        Number of rows.
    n_repeats : int, optional
        Number of random splits (default 10).
    seed : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    list of Split
        ``random_splits(n_samples, (0.70, 0.15, 0.15), n_repeats, seed=seed)``.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. *IEEE
    Transactions on Pattern Analysis and Machine Intelligence* 32(12):2216-2231.

    Examples
    --------
    >>> from marginboost.data import shen_li_splits
    >>> splits = shen_li_splits(100, seed=0)
    >>> len(splits), splits[0].sizes
    (10, (70, 15, 15))
    """
    return random_splits(n_samples, (0.70, 0.15, 0.15), n_repeats, seed=seed)


def mcboost_splits(
    n_samples: int, dataset: str, n_repeats: int | None = None, *, seed
) -> list[Split]:
    """MCBoost protocol (Guo & Chen, sec. 5, following MDBoost).

    Random 60/20/20 train/validation/test, 50 repetitions; for ringnorm, twonorm and waveform
    10/30/60 and 10 repetitions.  ``dataset`` is the paper's dataset name (a registry name
    such as ``"ida_twonorm"`` also works: the large sets are recognised by substring).

    Parameters
    ----------
    n_samples : int
        Number of rows.
    dataset : str
        The dataset's name; it chooses the fractions and the default number of repetitions
        (see :data:`~marginboost.data.splits.MCBOOST_LARGE_DATASETS`).
    n_repeats : int, optional
        Number of random splits; by default 50, or 10 for the large datasets.
    seed : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    list of Split
        Random splits drawn by :func:`random_splits`.

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript, Nanjing
    University of Aeronautics and Astronautics.

    Shen, C. and Li, H. (2010b). Boosting through optimization of margin distributions. *IEEE
    Transactions on Neural Networks* 21(4):659-666.

    Examples
    --------
    >>> from marginboost.data import mcboost_splits
    >>> splits = mcboost_splits(100, "sonar", seed=0)
    >>> len(splits), splits[0].sizes
    (50, (60, 20, 20))
    >>> splits = mcboost_splits(100, "ida_twonorm", seed=0)
    >>> len(splits), splits[0].sizes
    (10, (10, 30, 60))
    """
    large = any(key in dataset.lower() for key in MCBOOST_LARGE_DATASETS)
    fractions = (0.10, 0.30, 0.60) if large else (0.60, 0.20, 0.20)
    repeats = n_repeats if n_repeats is not None else (10 if large else 50)
    return random_splits(n_samples, fractions, repeats, seed=seed)


def fixed_split(n_train: int, n_test: int, n_validation: int = 0) -> Split:
    """The split of a dataset stored as train rows, then validation rows, then test rows.

    Parameters
    ----------
    n_train : int
        Number of training rows (positive).
    n_test : int
        Number of test rows (positive).
    n_validation : int, optional
        Number of validation rows between them (default 0).

    Returns
    -------
    Split
        Consecutive index ranges: ``0 .. n_train - 1``, then the validation rows, then the
        test rows.

    Raises
    ------
    ProtocolError
        If a size is not an integer, ``n_train`` or ``n_test`` is below 1, or
        ``n_validation`` is negative.

    Examples
    --------
    >>> from marginboost.data import fixed_split
    >>> split = fixed_split(3, 2, n_validation=1)
    >>> split.train.tolist(), split.validation.tolist(), split.test.tolist()
    ([0, 1, 2], [3], [4, 5])
    """
    for name, value in (("n_train", n_train), ("n_test", n_test)):
        if int(value) != value or value < 1:
            raise ProtocolError(f"{name} must be a positive integer, got {value!r}")
    if int(n_validation) != n_validation or n_validation < 0:
        raise ProtocolError(f"n_validation must be a non-negative integer, got {n_validation!r}")
    a, b = int(n_train), int(n_train) + int(n_validation)
    return Split(np.arange(a), np.arange(a, b), np.arange(b, b + int(n_test)))


def ida_realisation_split(name: str, realisation: int = 1, mirror=None) -> Split:
    """Train/test indices of a Rätsch benchmark realisation, into ``load(name)``.

    ``name`` is a combined realisation dataset such as ``"ida_banana_realisation1"`` (or one of
    its ``.asc`` files).  Only realisation 1 is available: the 100 official index sets are not
    in the mirror.

    Parameters
    ----------
    name : str
        A realisation dataset name, or the name of one of its four ``.asc`` files.
    realisation : int, optional
        Realisation number; only 1 is accepted.
    mirror : str or path-like, optional
        Folder holding the benchmark mirror; defaults to ``$MARGINBOOST_DATA_MIRROR``.

    Returns
    -------
    Split
        The training and test rows of ``load(name)`` (``meta["split"]``), no validation rows.

    Raises
    ------
    ProtocolError
        For ``realisation != 1`` or a dataset without a realisation split.

    References
    ----------
    Rätsch, G., Onoda, T. and Müller, K.-R. (2001). Soft margins for AdaBoost. *Machine
    Learning* 42(3):287-320.

    Examples
    --------
    >>> from marginboost.data import ida_realisation_split
    >>> split = ida_realisation_split("ida_banana_realisation1")
    >>> split.sizes
    (400, 0, 4900)
    >>> int(split.test[0])  # the test rows follow the training rows
    400
    """
    from .loaders import load
    from .registry import get_entry

    if realisation != 1:
        raise ProtocolError(
            f"Rätsch realisation {realisation} is not available: only "
            "realisation 1 is in the mirror (the 100 official split index "
            "sets are missing); use mcboost_splits for random re-splits"
        )
    entry = get_entry(name)
    if "realisation" in entry:
        name = entry["realisation"]["combined"]
    elif not name.startswith("ida_") or "parts" not in entry:
        raise ProtocolError(
            f"{name!r} has no Rätsch realisation split; realisation datasets "
            "are named ida_<name>_realisation1"
        )
    split = load(name, mirror).meta["split"]
    return Split(split["train"], np.empty(0, dtype=np.int64), split["test"])
