"""Feature transformations applied to a :class:`~marginboost.data.dataset.Dataset`."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .dataset import Dataset

__all__ = ["one_hot_encode", "ADULT_CATEGORICAL"]

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
