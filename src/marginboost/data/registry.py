"""The dataset registry: ``datasets.yaml`` shipped inside the package.

The registry has three sections:

``files``
    One entry per data file of the benchmark mirror: file path relative to the mirror root,
    SHA-256, size, a commit-pinned download URL, format and parser options, and the counts the
    loader produces (``n``, ``d``, ``n_classes``).
``combined``
    Datasets built from several files (a Rätsch realisation's four ``.asc`` files, a UCI
    train/test pair) or derived from one (a column dropped).
``missing``
    Datasets the papers use that could not be obtained, with the registered substitute.

A copy of the file lives at ``data/datasets.yaml`` in the repository for readers; the test
suite checks the two are identical.
"""

from __future__ import annotations

import difflib
import functools
from importlib import resources
from typing import Any

import pandas as pd
import yaml

from .errors import UnknownDatasetError

__all__ = [
    "load_registry",
    "get_entry",
    "list_datasets",
    "registry_table",
    "format_registry_table",
    "registry_text",
    "file_entries",
    "combined_entries",
    "missing_datasets",
]

_REGISTRY_FILE = "datasets.yaml"


def registry_text() -> str:
    """Return the text of the packaged ``datasets.yaml``."""
    return resources.files(__package__).joinpath(_REGISTRY_FILE).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def load_registry() -> dict[str, Any]:
    """Parse the packaged registry (cached) and check that names are unique.

    Returns
    -------
    dict
        The parsed YAML with keys ``files``, ``combined`` and ``missing``.
    """
    data = yaml.safe_load(registry_text())
    names = [e["name"] for e in data["files"]] + [e["name"] for e in data.get("combined", [])]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"datasets.yaml registers these names more than once: {duplicates}")
    return data


def file_entries() -> list[dict[str, Any]]:
    """Return the ``files`` section (one dict per mirror file)."""
    return list(load_registry()["files"])


def combined_entries() -> list[dict[str, Any]]:
    """Return the ``combined`` section (datasets built from several files or derived)."""
    return list(load_registry().get("combined", []))


def missing_datasets() -> list[dict[str, Any]]:
    """Return the ``missing`` section (paper datasets not obtainable, with substitutes)."""
    return list(load_registry().get("missing", []))


@functools.lru_cache(maxsize=1)
def _entries_by_name() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for entry in file_entries():
        out[entry["name"]] = {**entry, "kind": "file"}
    for entry in combined_entries():
        out[entry["name"]] = {**entry, "kind": "combined"}
    return out


def list_datasets() -> list[str]:
    """Return every loadable registry name: the files first, then combined datasets.

    Returns
    -------
    list of str
        The names accepted by :func:`~marginboost.data.load` and :func:`get_entry`, in
        registry order: one per file of the ``files`` section, then one per dataset of the
        ``combined`` section (realisations, train/test pairs, derived datasets).  The
        ``missing`` section is not included: those datasets cannot be loaded.

    Examples
    --------
    >>> from marginboost.data import list_datasets
    >>> names = list_datasets()
    >>> "sonar" in names, "ida_banana_realisation1" in names
    (True, True)
    >>> names.index("sonar") < names.index("ida_banana_realisation1")  # files come first
    True
    """
    return list(_entries_by_name())


def get_entry(name: str) -> dict[str, Any]:
    """Return the registry entry of ``name`` (a copy).

    Parameters
    ----------
    name : str
        A registered name (see :func:`list_datasets`).

    Returns
    -------
    dict
        The entry's fields as written in ``datasets.yaml`` (for a file: ``file``,
        ``format``, ``sha256``, ``raw_url``, counts ``n``, ``d``, ``n_classes``, provenance
        notes ...; for a combined dataset: ``parts`` or ``derived_from`` instead of ``file``),
        plus ``kind``: ``"file"`` or ``"combined"``.  Changing the dict does not change the
        registry.

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ------
    UnknownDatasetError
        If ``name`` is not registered; the message lists close matches.

    Examples
    --------
    >>> from marginboost.data import get_entry
    >>> entry = get_entry("sonar")
    >>> entry["kind"], entry["format"], entry["file"]
    ('file', 'pmlb-tsv-gz', 'pmlb/sonar.tsv.gz')
    >>> entry["n"], entry["d"], entry["n_classes"]
    (208, 60, 2)
    >>> get_entry("ida_banana_realisation1")["parts"]
    {'train': 'ida_banana_train_data_1', 'test': 'ida_banana_test_data_1'}
    >>> get_entry("sonr")
    Traceback (most recent call last):
    ...
    marginboost.data.errors.UnknownDatasetError: unknown dataset 'sonr'; did you mean 'sonar'? ...
    """
    entries = _entries_by_name()
    if not isinstance(name, str):
        raise TypeError(f"dataset name must be a string, got {type(name).__name__}")
    if name not in entries:
        lowered = {n.lower(): n for n in entries}
        close = difflib.get_close_matches(name.lower(), list(lowered), n=5, cutoff=0.6)
        raise UnknownDatasetError(name, [lowered[c] for c in close])
    return dict(entries[name])


def registry_table() -> pd.DataFrame:
    """Return one row per registered dataset.

    Returns
    -------
    pandas.DataFrame
        One row per name of :func:`list_datasets`, in that order, with the columns
        ``name``, ``format``, ``task``, ``n``, ``d``, ``classes`` (number of classes present
        after the default missing-value policy) and ``source`` (original source).  The counts
        are what :func:`~marginboost.data.load` returns with its defaults.

    Examples
    --------
    >>> from marginboost.data import registry_table
    >>> table = registry_table()
    >>> list(table.columns)
    ['name', 'format', 'task', 'n', 'd', 'classes', 'source']
    >>> sonar = table.set_index("name").loc["sonar"]
    >>> sonar["task"], sonar[["n", "d", "classes"]].astype(int).tolist()
    ('binary', [208, 60, 2])
    """
    rows = []
    for name, entry in _entries_by_name().items():
        rows.append(
            {
                "name": name,
                "format": entry["format"],
                "task": entry["task"],
                "n": int(entry["n"]),
                "d": int(entry["d"]),
                "classes": int(entry["n_classes"]),
                "source": entry.get("original_source", ""),
            }
        )
    return pd.DataFrame(rows, columns=["name", "format", "task", "n", "d", "classes", "source"])


def format_registry_table() -> str:
    """Return :func:`registry_table` as plain text for ``marginboost data list``.

    Returns
    -------
    str
        The table without its ``source`` column, one line per dataset under a header line,
        columns aligned with spaces and no row index.

    Examples
    --------
    >>> from marginboost.data import format_registry_table
    >>> lines = format_registry_table().splitlines()
    >>> lines[0].split()
    ['name', 'format', 'task', 'n', 'd', 'classes']
    >>> [line.split() for line in lines if line.split()[0] == "sonar"]
    [['sonar', 'pmlb-tsv-gz', 'binary', '208', '60', '2']]
    """
    table = registry_table().drop(columns=["source"])
    return table.to_string(index=False)
