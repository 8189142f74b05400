"""Feature transformations applied to a :class:`~marginboost.data.dataset.Dataset`."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .dataset import Dataset

__all__ = ["one_hot_encode", "binarize_adult", "ADULT_CATEGORICAL"]

#: The categorical attributes of UCI Adult (integer-coded in the PMLB file).
ADULT_CATEGORICAL = (
    "workclass",
    "education",
    "marital-status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "native-country",
)


def one_hot_encode(dataset: Dataset, columns: Sequence[str]) -> Dataset:
    """Replace integer-coded categorical columns by one 0/1 indicator column per level.

    Indicator columns are named ``<column>=<level>`` and appended after the remaining
    (numeric) columns, in the order of ``columns`` and of the sorted levels.  Rows whose value
    is ``nan`` get zeros in every indicator of that column.

    Parameters
    ----------
    dataset : Dataset
        The data to transform (not modified).
    columns : sequence of str
        Names of the columns to encode; each must be in ``dataset.feature_names``.  For UCI
        Adult, :data:`ADULT_CATEGORICAL`.

    Returns
    -------
    Dataset
        A new dataset; ``meta["one_hot"]`` records the encoded columns and their levels.

    Raises
    ------
    ValueError
        If a name of ``columns`` is not a column of ``dataset`` or occurs twice.

    Examples
    --------
    >>> from marginboost.data import Dataset, one_hot_encode
    >>> ds = Dataset("toy", [[1.0, 0.5], [2.0, 0.1], [1.0, 0.3]], [0, 1, 0],
    ...              ["colour", "size"], [0, 1])
    >>> encoded = one_hot_encode(ds, ["colour"])
    >>> encoded.feature_names
    ['size', 'colour=1', 'colour=2']
    >>> encoded.X.tolist()
    [[0.5, 1.0, 0.0], [0.1, 0.0, 1.0], [0.3, 1.0, 0.0]]
    >>> encoded.meta["one_hot"]
    {'colour': [1.0, 2.0]}
    """
    names = list(dataset.feature_names)
    unknown = [c for c in columns if c not in names]
    if unknown:
        raise ValueError(f"{dataset.name}: no column named {unknown}; columns are {names}")
    if len(set(columns)) != len(columns):
        raise ValueError(f"{dataset.name}: columns to encode repeat: {list(columns)}")
    encoded_idx = [names.index(c) for c in columns]
    keep = [j for j in range(len(names)) if j not in encoded_idx]
    blocks = [dataset.X[:, keep]]
    new_names = [names[j] for j in keep]
    levels_of: dict[str, list[float]] = {}
    for name, j in zip(columns, encoded_idx):
        values = dataset.X[:, j]
        levels = np.unique(values[~np.isnan(values)])
        blocks.append((values[:, None] == levels[None, :]).astype(np.float64))
        new_names += [f"{name}={level:g}" for level in levels]
        levels_of[name] = levels.tolist()
    meta = {**dataset.meta, "one_hot": levels_of}
    return Dataset(
        dataset.name, np.hstack(blocks), dataset.y.copy(), new_names, dataset.classes.copy(), meta
    )


#: Adult's continuous attributes cut at their quintiles by :func:`binarize_adult`.
ADULT_QUINTILE = ("age", "fnlwgt", "education-num", "hours-per-week")
#: Adult's attributes that :func:`binarize_adult` splits into zero / non-zero.
ADULT_ZERO_OR_NOT = ("capital-gain", "capital-loss")
#: Adult's attributes with missing values ("?"), and the PMLB code of "?": the levels are
#: coded in sorted order and "?" sorts first.  The count of code 0 is UCI's count of "?" in
#: each (2799, 2809 and 857 of 48842 rows).
ADULT_MISSING_CODE = {"workclass": 0.0, "occupation": 0.0, "native-country": 0.0}


def binarize_adult(dataset: Dataset) -> Dataset:
    """UCI Adult in the 123 binary features of LIBSVM's ``a1a`` ... ``a9a``.

    The LIBSVM Adult files (Platt 1999) describe the census data by 0/1 indicators:
    "continuous features are discretized into quantiles, and each quantile is represented by
    a binary feature; a categorical feature with m categories is converted to m binary
    features".  This function rebuilds that coding from the 14 attributes of the raw file:

    * age, fnlwgt, education-num and hours-per-week: one indicator per quintile (cut points
      :func:`numpy.quantile` at 0.2, 0.4, 0.6, 0.8 of ``dataset``'s rows; a value on a cut
      point goes to the upper bin), 4 x 5 features;
    * capital-gain and capital-loss: ``= 0`` and ``> 0``, 2 x 2 features (most values are 0,
      so quintiles would not separate them);
    * the eight categorical attributes: one indicator per level, the missing level "?" having
      none (a row with "?" has zeros in every indicator of that attribute), 99 features.

    The count, 4 x 5 + 2 x 2 + 99 = 123, is ``a5a``'s.  The cut points of the LIBSVM files
    were computed by their author on his own sample and are not published with them, so the
    bins here are this data's quintiles, not byte-for-byte LIBSVM's.

    Parameters
    ----------
    dataset : Dataset
        UCI Adult with the 14 attributes named as in :data:`ADULT_CATEGORICAL`,
        :data:`ADULT_QUINTILE` and :data:`ADULT_ZERO_OR_NOT` (the ``adult`` registry entry).

    Returns
    -------
    Dataset
        A new dataset with 123 float 0/1 columns named ``age:q1`` ... ``age:q5``,
        ``capital-gain=0``, ``capital-gain>0``, ``workclass=1`` ...;
        ``meta["binarized"]`` records the cut points and the levels.

    Raises
    ------
    ValueError
        If an attribute is missing, holds ``nan``, or the coding does not give 123 features.

    Examples
    --------
    >>> import os
    >>> from marginboost.data import load, binarize_adult
    >>> if os.environ.get("MARGINBOOST_DATA_MIRROR"):
    ...     a = binarize_adult(load("adult"))
    ...     assert a.X.shape == (48842, 123) and set(a.X.ravel()) == {0.0, 1.0}
    """
    names = list(dataset.feature_names)
    expected = ADULT_QUINTILE + ADULT_ZERO_OR_NOT + ADULT_CATEGORICAL
    missing = [c for c in expected if c not in names]
    if missing:
        raise ValueError(f"{dataset.name}: not UCI Adult; no column named {missing}")
    blocks: list[np.ndarray] = []
    new_names: list[str] = []
    record: dict[str, list[float]] = {}
    for name in names:  # the file's attribute order
        values = dataset.X[:, names.index(name)]
        if np.isnan(values).any():
            raise ValueError(f"{dataset.name}: column {name!r} holds nan")
        if name in ADULT_QUINTILE:
            cuts = np.quantile(values, [0.2, 0.4, 0.6, 0.8])
            bins = np.searchsorted(cuts, values, side="right")
            blocks.append((bins[:, None] == np.arange(5)[None, :]).astype(np.float64))
            new_names += [f"{name}:q{k + 1}" for k in range(5)]
            record[name] = cuts.tolist()
        elif name in ADULT_ZERO_OR_NOT:
            blocks.append(np.column_stack([values == 0, values > 0]).astype(np.float64))
            new_names += [f"{name}=0", f"{name}>0"]
        elif name in ADULT_CATEGORICAL:
            levels = np.unique(values)
            if name in ADULT_MISSING_CODE:
                levels = levels[levels != ADULT_MISSING_CODE[name]]
            blocks.append((values[:, None] == levels[None, :]).astype(np.float64))
            new_names += [f"{name}={level:g}" for level in levels]
            record[name] = levels.tolist()
    X = np.hstack(blocks)
    if X.shape[1] != 123:
        raise ValueError(
            f"{dataset.name}: the a5a coding gives 123 features; this data gives {X.shape[1]}"
        )
    meta = {**dataset.meta, "binarized": record}
    return Dataset(dataset.name, X, dataset.y.copy(), new_names, dataset.classes.copy(), meta)
