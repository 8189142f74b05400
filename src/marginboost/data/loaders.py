"""Parsers for every file format of the benchmark mirror, and :func:`load`.

Formats (the ``format`` field of a registry entry):

``pmlb-tsv-gz``
    Penn ML Benchmarks: gzip TSV with a header row; the label column is ``target`` (not always
    the last column).  PMLB already encodes categorical attributes as integers.
``libsvm``
    svmlight/LIBSVM sparse text, parsed with :func:`sklearn.datasets.load_svmlight_file`
    (1-based indices, ``n_features`` fixed by the registry so train and ``.t`` files agree).
``ida-mat``
    Rätsch benchmark, pooled patterns: MATLAB v5 with ``data``/``target`` (or ``x``/``t``).
``ida-asc``
    Rätsch benchmark realisation files (whitespace matrices).  A ``*_data_*`` file and its
    ``*_labels_*`` partner form one part (train or test) of a realisation; loading either
    entry gives that part.
``uci-csv``
    Comma-separated UCI files; ``?`` marks a missing value.  The entry's ``options`` say which
    column is the label, which columns are identifiers or bookkeeping (removed from ``X``,
    bookkeeping kept in ``meta``), and which categorical columns are one-hot encoded.

Missing values: by default rows with a missing feature or label are dropped, as the papers
do; ``drop_missing=False`` keeps them as ``nan``.  ``meta["missing_policy"]`` records what
happened.
"""

from __future__ import annotations

import functools
import gzip
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .dataset import Dataset, encode_labels
from .errors import DataFormatError, ProtocolError
from .fetch import locate
from .registry import get_entry

__all__ = ["load", "load_train_test", "parse_file"]

_META_KEYS = (
    "format",
    "task",
    "original_source",
    "raw_url",
    "sha256",
    "citation",
    "licence",
    "byte_status",
    "encoding",
    "differences",
)


# --------------------------------------------------------------------------- format parsers
def _read_pmlb(path: Path, options: dict) -> tuple[pd.DataFrame, pd.Series]:
    frame = pd.read_csv(path, sep="\t", compression="gzip")
    label = options.get("label_column", "target")
    if label not in frame.columns:
        raise DataFormatError(f"{path}: no label column {label!r} among {list(frame.columns)[:8]}")
    return frame.drop(columns=[label]), frame[label]


def _read_libsvm(path: Path, options: dict) -> tuple[pd.DataFrame, pd.Series]:
    from sklearn.datasets import load_svmlight_file

    n_features = int(options["n_features"])
    X, y = load_svmlight_file(str(path), n_features=n_features, zero_based=False)
    names = [f"x{i}" for i in range(1, n_features + 1)]
    return pd.DataFrame(X.toarray(), columns=names), pd.Series(y)


def _read_mat(path: Path, options: dict) -> tuple[pd.DataFrame, pd.Series]:
    import scipy.io

    content = scipy.io.loadmat(str(path))
    for x_key, y_key in (("data", "target"), ("x", "t"), ("X", "Y")):
        if x_key in content and y_key in content:
            X = np.asarray(content[x_key], dtype=np.float64)
            y = np.asarray(content[y_key]).ravel()
            break
    else:
        found = sorted(k for k in content if not k.startswith("__"))
        raise DataFormatError(
            f"{path}: expected MATLAB variables data/target or x/t, found {found}"
        )
    if X.ndim != 2 or X.shape[0] != y.shape[0]:
        raise DataFormatError(
            f"{path}: data has shape {X.shape} but target has {y.shape[0]} entries"
        )
    return pd.DataFrame(X, columns=[f"x{i}" for i in range(1, X.shape[1] + 1)]), pd.Series(y)


def _read_asc_matrix(path: Path) -> np.ndarray:
    matrix = np.loadtxt(str(path), dtype=np.float64, ndmin=2)
    return matrix


def _read_uci(path: Path, options: dict) -> tuple[pd.DataFrame, pd.Series, dict]:
    skip = int(options.get("skip_lines", 0))
    frame = pd.read_csv(
        path,
        header=None,
        skiprows=skip,
        sep=options.get("sep", ","),
        skipinitialspace=True,
        dtype=str,
        keep_default_na=False,
        na_values=[options.get("missing_marker", "?")],
    )
    frame = frame.apply(lambda col: col.str.strip() if col.dtype == object else col)
    n_columns = frame.shape[1]
    names = options.get("column_names")
    if names is None and "names_line" in options:
        with open(path, encoding="utf-8") as handle:
            line = handle.read().splitlines()[int(options["names_line"])]
        names = [n.strip() for n in line.split(",") if n.strip()]
        if len(names) == n_columns - 1:
            names.insert(int(options["label_column"]) % n_columns, "class")
    if names is None:
        names = [f"x{i}" for i in range(n_columns)]
    if len(names) != n_columns:
        raise DataFormatError(
            f"{path}: {n_columns} columns but {len(names)} column names registered"
        )
    frame.columns = names
    label_name = names[int(options["label_column"])]
    extra: dict[str, Any] = {}
    removed = [names[i] for i in options.get("id_columns", [])]
    removed += [names[i] for i in options.get("drop_columns", [])]
    for i in options.get("bookkeeping_columns", []):
        extra[names[i]] = frame[names[i]].to_numpy()
        removed.append(names[i])
    y = frame[label_name]
    features = frame.drop(columns=[label_name, *removed])
    onehot = [names[i] for i in options.get("onehot_columns", [])]
    if onehot:
        features = pd.get_dummies(features, columns=onehot, prefix_sep="=", dtype=float)
    return features, y, extra


# --------------------------------------------------------------------------- assembling
def _to_float(features: pd.DataFrame, path: Path) -> np.ndarray:
    columns = []
    for column in features.columns:
        try:
            columns.append(pd.to_numeric(features[column], errors="raise").to_numpy(np.float64))
        except (ValueError, TypeError) as exc:
            raise DataFormatError(f"{path}: column {column!r} is not numeric ({exc})") from exc
    if not columns:
        return np.empty((len(features), 0))
    return np.column_stack(columns)


def _finish(
    name: str,
    entry: dict,
    X: np.ndarray,
    raw_y,
    feature_names: list[str],
    drop_missing: bool,
    meta: dict,
) -> Dataset:
    raw_y = pd.Series(np.asarray(raw_y, dtype=object).ravel())
    label_missing = raw_y.isna().to_numpy()
    row_missing = np.isnan(X).any(axis=1) | label_missing
    n_missing = int(row_missing.sum())
    if n_missing and drop_missing:
        keep = ~row_missing
        X, raw_y = X[keep], raw_y[keep]
        policy = f"dropped {n_missing} rows with missing values"
    elif n_missing:
        policy = f"kept {n_missing} rows with missing values (nan)"
        if label_missing.any():
            raise DataFormatError(
                f"{name}: {int(label_missing.sum())} rows have a missing label; they cannot be kept"
            )
    else:
        policy = "no missing values"
    try:
        y, classes = encode_labels(raw_y.to_numpy(), entry.get("classes"), context=name)
    except ValueError as exc:
        raise DataFormatError(str(exc)) from exc
    if "d" in entry and X.shape[1] != int(entry["d"]):
        raise DataFormatError(
            f"{name}: parsed {X.shape[1]} features, the registry says "
            f"{entry['d']}; the file is damaged or the entry is wrong"
        )
    meta = {
        **{k: entry[k] for k in _META_KEYS if k in entry},
        **meta,
        "missing_policy": policy,
        "n_rows_with_missing": n_missing,
    }
    return Dataset(name, np.ascontiguousarray(X), y, [str(f) for f in feature_names], classes, meta)


def parse_file(
    entry: dict,
    path: str | os.PathLike,
    *,
    drop_missing: bool = True,
    mirror: str | os.PathLike | None = None,
) -> Dataset:
    """Parse one registry file into a :class:`Dataset` (no checksum check; see :func:`load`).

    Parameters
    ----------
    entry
        The registry entry (``format``, ``options``, ``classes`` ...).
    path
        Local path of the file.
    drop_missing
        Drop rows with missing values (default) or keep them as ``nan``.
    mirror
        Used only for ``ida-asc`` entries, to find the partner (data or labels) file.

    Raises
    ------
    DataFormatError
        If the file does not parse as its format.
    """
    path = Path(path)
    fmt = entry["format"]
    options = dict(entry.get("options") or {})
    meta: dict[str, Any] = {"files": [entry["file"]]}
    try:
        if fmt == "pmlb-tsv-gz":
            features, raw_y = _read_pmlb(path, options)
            for column in options.get("bookkeeping_columns", []):
                meta[column] = features[column].to_numpy()
            features = features.drop(
                columns=options.get("bookkeeping_columns", []) + options.get("drop_columns", [])
            )
        elif fmt == "libsvm":
            features, raw_y = _read_libsvm(path, options)
        elif fmt == "ida-mat":
            features, raw_y = _read_mat(path, options)
        elif fmt == "ida-asc":
            real = entry["realisation"]
            data_entry = get_entry(real["data_file"])
            label_entry = get_entry(real["labels_file"])
            data_path = path if entry["name"] == data_entry["name"] else locate(data_entry, mirror)
            label_path = (
                path if entry["name"] == label_entry["name"] else locate(label_entry, mirror)
            )
            matrix = _read_asc_matrix(data_path)
            labels = _read_asc_matrix(label_path)
            if labels.shape[1] != 1 or labels.shape[0] != matrix.shape[0]:
                raise DataFormatError(
                    f"{label_path}: expected a {matrix.shape[0]}x1 label "
                    f"column for {data_path}, got shape {labels.shape}"
                )
            features = pd.DataFrame(
                matrix, columns=[f"x{i}" for i in range(1, matrix.shape[1] + 1)]
            )
            raw_y = labels.ravel()
            meta["files"] = [data_entry["file"], label_entry["file"]]
            meta["realisation"] = dict(real)
        elif fmt == "uci-csv":
            features, raw_y, extra = _read_uci(path, options)
            meta.update(extra)
        else:
            raise DataFormatError(f"{entry['name']}: unknown format {fmt!r}")
        X = _to_float(features, path)
    except DataFormatError:
        raise
    except (
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        EOFError,
        UnicodeDecodeError,
        gzip.BadGzipFile,
        pd.errors.ParserError,
        pd.errors.EmptyDataError,
    ) as exc:
        raise DataFormatError(
            f"{path} does not parse as {fmt} (dataset {entry['name']!r}): "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    except OSError as exc:
        if isinstance(exc, (FileNotFoundError, PermissionError)):
            raise
        raise DataFormatError(
            f"{path} does not parse as {fmt} (dataset {entry['name']!r}): "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    return _finish(entry["name"], entry, X, raw_y, list(features.columns), drop_missing, meta)


@functools.lru_cache(maxsize=256)
def _load_file_cached(
    name: str, path: str, sha256: str, drop_missing: bool, mirror: str | None
) -> Dataset:
    return parse_file(get_entry(name), path, drop_missing=drop_missing, mirror=mirror)


def _load_entry(entry: dict, mirror, drop_missing: bool) -> Dataset:
    if entry["kind"] == "file":
        path = locate(entry, mirror)
        mirror_key = None if mirror is None else str(mirror)
        return _load_file_cached(
            entry["name"], str(path), entry["sha256"], drop_missing, mirror_key
        )
    return _load_combined(entry, mirror, drop_missing)


def _load_combined(entry: dict, mirror, drop_missing: bool) -> Dataset:
    name = entry["name"]
    if "derived_from" in entry:
        base = _load_entry(get_entry(entry["derived_from"]), mirror, drop_missing)
        drop = list(entry.get("drop_features", []))
        unknown = [f for f in drop if f not in base.feature_names]
        if unknown:
            raise DataFormatError(f"{name}: features {unknown} not in {entry['derived_from']}")
        keep = [i for i, f in enumerate(base.feature_names) if f not in drop]
        meta = {**base.meta, "derived_from": entry["derived_from"], "dropped_features": drop}
        return Dataset(
            name, base.X[:, keep], base.y, [base.feature_names[i] for i in keep], base.classes, meta
        )
    train = _load_entry(get_entry(entry["parts"]["train"]), mirror, drop_missing)
    test = _load_entry(get_entry(entry["parts"]["test"]), mirror, drop_missing)
    if train.feature_names != test.feature_names or list(train.classes) != list(test.classes):
        raise DataFormatError(f"{name}: train and test parts differ in features or classes")
    X = np.vstack([train.X, test.X])
    y = np.concatenate([train.y, test.y])
    split = {
        "train": np.arange(train.n_samples),
        "test": np.arange(train.n_samples, train.n_samples + test.n_samples),
    }
    meta = {
        **{k: entry[k] for k in _META_KEYS if k in entry},
        "files": train.meta["files"] + test.meta["files"],
        "split": split,
        "missing_policy": f"train: {train.meta['missing_policy']}; "
        f"test: {test.meta['missing_policy']}",
        "n_rows_with_missing": train.meta["n_rows_with_missing"] + test.meta["n_rows_with_missing"],
    }
    return Dataset(name, X, y, list(train.feature_names), train.classes, meta)


def load(
    name: str, mirror: str | os.PathLike | None = None, *, drop_missing: bool = True
) -> Dataset:
    """Load a registered dataset.

    The file (or, for a combined dataset, each of its files) is found with
    :func:`~marginboost.data.locate`, checked against its SHA-256 and parsed by the parser of
    its registered format.  A train/test pair or a Rätsch realisation is returned as one
    dataset, training rows first, with the indices of both parts in ``meta["split"]``.

    Parameters
    ----------
    name : str
        A name from :func:`~marginboost.data.list_datasets`.
    mirror : str or path-like, optional
        Folder holding the benchmark mirror; defaults to ``$MARGINBOOST_DATA_MIRROR``, and
        files not found there are downloaded into the user cache (SHA-256 checked).
    drop_missing : bool, optional
        Drop rows with a missing value (default, as in the papers) or keep them as ``nan``.

    Returns
    -------
    Dataset
        A fresh copy; parsed files are cached in-process, so repeated loads are cheap.
        ``meta`` holds the registry's provenance fields, ``files`` and ``missing_policy``.

    Raises
    ------
    UnknownDatasetError
        If ``name`` is not registered.
    ChecksumError
        If a file's SHA-256 differs from the registry.
    DataUnavailableError
        If a file is in no mirror and cannot be downloaded.
    DataFormatError
        If a file does not parse as its registered format.

    Examples
    --------
    >>> from marginboost.data import load
    >>> sonar = load("sonar")
    >>> sonar.X.shape, sonar.classes.tolist()
    ((208, 60), [0, 1])
    >>> sonar.meta["files"], sonar.meta["missing_policy"]
    (['pmlb/sonar.tsv.gz'], 'no missing values')

    Rows with a missing value are dropped unless asked otherwise:

    >>> load("cleveland_uci").meta["missing_policy"]
    'dropped 6 rows with missing values'
    >>> load("cleveland_uci", drop_missing=False).n_samples
    303

    A combined dataset records its fixed split:

    >>> banana = load("ida_banana_realisation1")
    >>> len(banana.meta["split"]["train"]), len(banana.meta["split"]["test"])
    (400, 4900)
    """
    entry = get_entry(name)
    return _load_entry(entry, mirror, bool(drop_missing)).copy()


def load_train_test(
    name: str,
    mirror: str | os.PathLike | None = None,
    *,
    drop_missing: bool = True,
    realisation: int = 1,
) -> tuple[Dataset, Dataset]:
    """Load a dataset that comes with a fixed train/test split.

    Accepted names: a LIBSVM train file or its ``.t`` partner (``"svmguide1"``), the UCI image
    segmentation files or ``"segmentation_uci"``, and the Rätsch realisation datasets
    (``"ida_banana_realisation1"`` or any of its four ``.asc`` entries).

    Parameters
    ----------
    name : str
        A registered name with a fixed split (see above).
    mirror : str or path-like, optional
        Folder holding the benchmark mirror; defaults to ``$MARGINBOOST_DATA_MIRROR``.
    drop_missing : bool, optional
        Drop rows with a missing value (default) or keep them as ``nan``; applied to each
        part separately.
    realisation : int, optional
        Rätsch realisation number; only realisation 1 is in the mirror.

    Returns
    -------
    train, test : Dataset
        The two parts, each loaded as :func:`load` loads its file(s); they share
        ``feature_names`` and ``classes``.

    Raises
    ------
    ProtocolError
        If the dataset has no registered fixed split, or ``realisation`` is not available.

    Examples
    --------
    >>> from marginboost.data import load_train_test
    >>> train, test = load_train_test("ida_banana_realisation1")
    >>> train.name, test.name
    ('ida_banana_train_data_1', 'ida_banana_test_data_1')
    >>> train.n_samples, test.n_samples, train.classes.tolist() == test.classes.tolist()
    (400, 4900, True)
    >>> load_train_test("sonar")
    Traceback (most recent call last):
    ...
    marginboost.data.errors.ProtocolError: 'sonar' has no fixed train/test split; ...
    """
    entry = get_entry(name)
    if realisation != 1:
        raise ProtocolError(
            f"realisation {realisation} requested for {name!r}, but only "
            "realisation 1 of the Rätsch benchmark is available (the 100 "
            "official split index sets are missing from the mirror)"
        )
    if entry["kind"] == "file" and "realisation" in entry:
        entry = get_entry(entry["realisation"]["combined"])
    if entry["kind"] == "file" and "split_of" in entry:
        entry = get_entry(entry["split_of"])
    if entry["kind"] == "combined" and "parts" in entry:
        train_name, test_name = entry["parts"]["train"], entry["parts"]["test"]
    elif entry["kind"] == "file" and "pair" in entry:
        pair = entry["pair"]
        train_name, test_name = (
            (name, pair["partner"]) if pair["role"] == "train" else (pair["partner"], name)
        )
    else:
        raise ProtocolError(
            f"{name!r} has no fixed train/test split; use a split protocol "
            "from marginboost.data.splits instead"
        )
    return (
        load(train_name, mirror, drop_missing=drop_missing),
        load(test_name, mirror, drop_missing=drop_missing),
    )
