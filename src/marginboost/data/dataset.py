"""The :class:`Dataset` container returned by every loader and generator."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Dataset", "encode_labels"]


@dataclass
class Dataset:
    """A labelled data matrix.

    Every loader (:func:`~marginboost.data.load`) and generator of :mod:`marginboost.data`
    returns one.  The arrays are converted on construction (``X`` to ``float64``, ``y`` to
    ``int64``) and their shapes checked.

    Parameters
    ----------
    name : str
        Registry name, or generator name for synthetic data.
    X : array_like, shape (n_samples, n_features)
        Feature matrix.
    y : array_like of int, shape (n_samples,)
        Class codes in ``0 .. len(classes) - 1``.
    feature_names : list of str
        One name per column of ``X``.
    classes : array_like
        The original labels, sorted; ``classes[k]`` is the label of code ``k``.
    meta : dict, optional
        Provenance and processing facts (empty by default).

    Attributes
    ----------
    name
        Registry name (or generator name for synthetic data).
    X
        ``float64`` array of shape ``(n_samples, n_features)``.  Rows with missing values are
        dropped by default (see ``meta["missing_policy"]``); when kept, they hold ``nan``.
    y
        ``int64`` class codes ``0 .. n_classes - 1``; ``classes[y[i]]`` is the original label.
    feature_names
        One name per column of ``X``.
    classes
        The original labels, sorted; the position of a label is its code.  For binary
        datasets the first class is the negative one (``-1`` in :meth:`y_signed`).
    meta
        Provenance and processing facts: registry entry fields, file paths, the missing-value
        policy and, for fixed train/test datasets, ``meta["split"]`` with index arrays.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D, ``y`` or ``feature_names`` do not match its rows or columns, or a
        code of ``y`` lies outside ``0 .. len(classes) - 1``.

    Examples
    --------
    >>> from marginboost.data import Dataset
    >>> ds = Dataset("toy", X=[[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]], y=[0, 1, 1],
    ...              feature_names=["a", "b"], classes=["no", "yes"])
    >>> ds.n_samples, ds.n_features, ds.n_classes, ds.is_binary
    (3, 2, 2, True)
    >>> ds.X.dtype, ds.y.dtype
    (dtype('float64'), dtype('int64'))
    >>> ds.y_signed().tolist()
    [-1, 1, 1]
    >>> ds.subset([0, 2]).y.tolist()
    [0, 1]
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    feature_names: list[str]
    classes: np.ndarray
    meta: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.X = np.asarray(self.X, dtype=np.float64)
        self.y = np.asarray(self.y, dtype=np.int64)
        self.classes = np.asarray(self.classes)
        if self.X.ndim != 2:
            raise ValueError(f"Dataset {self.name!r}: X must be 2-D, got shape {self.X.shape}")
        if self.y.shape != (self.X.shape[0],):
            raise ValueError(
                f"Dataset {self.name!r}: y has shape {self.y.shape}, expected "
                f"({self.X.shape[0]},) to match X"
            )
        if len(self.feature_names) != self.X.shape[1]:
            raise ValueError(
                f"Dataset {self.name!r}: {len(self.feature_names)} feature names "
                f"for {self.X.shape[1]} columns"
            )
        if self.y.size and (self.y.min() < 0 or self.y.max() >= len(self.classes)):
            raise ValueError(
                f"Dataset {self.name!r}: label codes must lie in "
                f"0..{len(self.classes) - 1}, got {self.y.min()}..{self.y.max()}"
            )

    @property
    def n_samples(self) -> int:
        """Number of rows of ``X``."""
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        """Number of columns of ``X``."""
        return int(self.X.shape[1])

    @property
    def n_classes(self) -> int:
        """Size of the label vocabulary (``len(classes)``), present in ``y`` or not."""
        return int(len(self.classes))

    @property
    def is_binary(self) -> bool:
        """Whether the label vocabulary has exactly two classes."""
        return self.n_classes == 2

    def y_signed(self) -> np.ndarray:
        """Return the labels as ``-1``/``+1`` (binary datasets only).

        Code 0 (``classes[0]``) maps to ``-1`` and code 1 (``classes[1]``) to ``+1``.

        Raises
        ------
        ValueError
            If the dataset does not have exactly two classes.
        """
        if not self.is_binary:
            raise ValueError(
                f"y_signed() needs a binary dataset; {self.name!r} has "
                f"{self.n_classes} classes {list(self.classes)}"
            )
        return np.where(self.y == 1, 1, -1).astype(np.int64)

    def subset(self, indices, name: str | None = None) -> Dataset:
        """Return the rows ``indices`` as a new dataset (same classes, copied arrays).

        Parameters
        ----------
        indices : array_like of int or bool
            Rows to keep (any numpy index of the first axis).
        name : str, optional
            Name of the new dataset; by default the same name.

        Returns
        -------
        Dataset
            The selected rows; ``meta`` is copied without ``"split"`` (its indices refer to
            the parent) and with ``meta["parent"]`` set to this dataset's name.
        """
        indices = np.asarray(indices)
        meta = {k: v for k, v in self.meta.items() if k != "split"}
        meta["parent"] = self.name
        return Dataset(
            name or self.name,
            self.X[indices].copy(),
            self.y[indices].copy(),
            list(self.feature_names),
            self.classes.copy(),
            meta,
        )

    def copy(self) -> Dataset:
        """Return a deep copy (arrays and meta are not shared)."""
        return Dataset(
            self.name,
            self.X.copy(),
            self.y.copy(),
            list(self.feature_names),
            self.classes.copy(),
            copy.deepcopy(self.meta),
        )


def _normalise_label(value):
    """Turn a raw label into a plain ``int``, ``float`` or ``str`` (for sorting and YAML)."""
    if isinstance(value, (bytes, np.bytes_)):
        value = value.decode()
    if isinstance(value, str):
        text = value.strip()
        try:
            number = float(text)
        except ValueError:
            return text
        value = number
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    value = float(value) if not isinstance(value, (int, np.integer)) else int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def encode_labels(raw, classes=None, *, context: str = "labels") -> tuple[np.ndarray, np.ndarray]:
    """Map raw labels to codes ``0..K-1``.

    Parameters
    ----------
    raw
        Sequence of labels (numbers or strings).
    classes
        The label vocabulary; by default the sorted distinct values of ``raw``.  Passing the
        vocabulary of a train/test pair keeps the codes of both files consistent.
    context
        Used in error messages.

    Returns
    -------
    codes, classes
        ``int64`` codes and the vocabulary as a numpy array.

    Raises
    ------
    ValueError
        If a label is not in ``classes``.
    """
    values = [_normalise_label(v) for v in np.asarray(raw, dtype=object).ravel()]
    if classes is None:
        vocab = sorted(set(values), key=lambda v: (isinstance(v, str), v))
    else:
        vocab = [_normalise_label(c) for c in classes]
    index = {v: i for i, v in enumerate(vocab)}
    unknown = sorted({v for v in values if v not in index}, key=str)
    if unknown:
        raise ValueError(
            f"{context}: labels {unknown[:5]} are not among the expected classes {vocab}"
        )
    codes = np.fromiter((index[v] for v in values), dtype=np.int64, count=len(values))
    return codes, np.asarray(
        vocab, dtype=object if any(isinstance(v, str) for v in vocab) else None
    )
