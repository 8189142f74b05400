"""Random label noise, applied exactly and only where a protocol allows it.

The papers flip a fraction of the *training* labels (DirectBoost Tables 3-4: train only,
validation and test clean; AnyBoost Figure 1: the noisy data are then split).  Here the number
of flipped labels is exactly ``round(rate * n)``, chosen uniformly without replacement, so noise
rates are reproducible to the example.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .errors import ProtocolError

__all__ = ["flip_labels", "flip_split_labels"]


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def flip_labels(y, rate: float, rng_or_seed, *, classes=None, return_indices: bool = False):
    """Return a copy of ``y`` with exactly ``round(rate * len(y))`` labels changed.

    The labels to change are drawn uniformly without replacement, so the noise rate is exact
    rather than a per-label probability.

    Parameters
    ----------
    y : array_like, shape (n,)
        1-D labels (``-1``/``+1``, class codes, or any hashable labels).
    rate : float
        Fraction of labels to change, in ``[0, 1]``.
    rng_or_seed : numpy.random.Generator or int
        A :class:`numpy.random.Generator` or a seed for :func:`numpy.random.default_rng`.
    classes : array_like, optional
        The label vocabulary; default: the distinct values of ``y``.  With two classes a
        chosen label is replaced by the other class (for ``-1``/``+1`` a sign flip); with more,
        by a class drawn uniformly from the other ``K - 1``.
    return_indices : bool, optional
        Also return the sorted indices of the changed labels.

    Returns
    -------
    noisy : numpy.ndarray
        A copy of ``y`` (same dtype) with the chosen labels changed.
    indices : numpy.ndarray of int
        The sorted indices of the changed labels; only with ``return_indices=True``.

    Raises
    ------
    ValueError
        If ``rate`` is outside ``[0, 1]``, ``y`` is not 1-D, a label is not in ``classes``, or
        there is only one class.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.data import flip_labels
    >>> y = np.array([-1, 1] * 5)
    >>> noisy, changed = flip_labels(y, 0.2, 0, return_indices=True)
    >>> len(changed), int((noisy != y).sum())
    (2, 2)
    >>> bool(np.all(noisy[changed] == -y[changed]))
    True

    With three classes a changed label takes one of the two other values:

    >>> y3 = np.array(["a", "b", "c"] * 4)
    >>> int((flip_labels(y3, 0.25, 1) != y3).sum())
    3
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D, got shape {y.shape}")
    if not (0.0 <= float(rate) <= 1.0):
        raise ValueError(f"noise rate must be in [0, 1], got {rate!r}")
    vocab = np.unique(y) if classes is None else np.asarray(classes)
    if len(vocab) < 2:
        raise ValueError(f"label noise needs at least two classes, got {list(vocab)}")
    position = {v: i for i, v in enumerate(vocab.tolist())}
    unknown = sorted({v for v in y.tolist() if v not in position}, key=str)
    if unknown:
        raise ValueError(f"labels {unknown[:5]} are not in classes {list(vocab)}")
    rng = _rng(rng_or_seed)
    n_flip = int(round(float(rate) * len(y)))
    chosen = np.sort(rng.choice(len(y), size=n_flip, replace=False))
    noisy = y.copy()
    if n_flip:
        codes = np.fromiter((position[v] for v in y[chosen].tolist()), dtype=np.int64, count=n_flip)
        # a uniform draw among the K - 1 other classes: shift by 1..K-1 modulo K
        shift = rng.integers(1, len(vocab), size=n_flip)
        noisy[chosen] = vocab[(codes + shift) % len(vocab)]
    return (noisy, chosen) if return_indices else noisy


def flip_split_labels(
    y, split, rate: float, rng_or_seed, *, parts: Iterable[str] = ("train",), classes=None
) -> np.ndarray:
    """Flip labels inside chosen parts of a split; the test part is never touched.

    Each part gets exactly ``round(rate * len(part))`` changed labels.

    Parameters
    ----------
    y : array_like, shape (n,)
        Labels of the whole dataset.
    split : Split
        A :class:`~marginboost.data.splits.Split` (indices into ``y``).
    rate : float
        Noise rate in ``[0, 1]``.
    rng_or_seed : numpy.random.Generator or int
        Generator or seed; one generator serves all parts, in the order of ``parts``.
    parts : iterable of str, optional
        Names of the parts to corrupt: ``"train"`` (default) and/or ``"validation"``.
    classes : array_like, optional
        Label vocabulary (default: the distinct values of ``y``).

    Returns
    -------
    numpy.ndarray
        A copy of ``y`` whose labels in the chosen parts are changed as by
        :func:`flip_labels`; the other rows keep their labels.

    Raises
    ------
    ProtocolError
        If ``parts`` names the test part or an unknown part.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.data import fixed_split, flip_split_labels
    >>> y = np.array([-1, 1] * 10)
    >>> split = fixed_split(n_train=10, n_test=10)
    >>> noisy = flip_split_labels(y, split, 0.3, 0)
    >>> changed = noisy != y
    >>> int(changed[split.train].sum()), int(changed[split.test].sum())
    (3, 0)
    >>> flip_split_labels(y, split, 0.3, 0, parts=["test"])
    Traceback (most recent call last):
    ...
    marginboost.data.errors.ProtocolError: label noise may only be added to 'train' and ...
    """
    parts = list(parts)
    bad = [p for p in parts if p not in ("train", "validation")]
    if bad:
        raise ProtocolError(
            f"label noise may only be added to 'train' and 'validation' parts, "
            f"got {bad} (test labels stay clean)"
        )
    y = np.asarray(y)
    vocab = np.unique(y) if classes is None else np.asarray(classes)
    rng = _rng(rng_or_seed)
    noisy = y.copy()
    for part in parts:
        index = np.asarray(getattr(split, part), dtype=np.int64)
        if index.size:
            noisy[index] = flip_labels(y[index], rate, rng, classes=vocab)
    return noisy
