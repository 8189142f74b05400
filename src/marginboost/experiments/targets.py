"""The papers' numbers and claims, read from ``data/targets/<paper>.yaml``.

Each target file holds the paper's identity, its experimental protocols, its tables and figures
(with every printed number) and a list of ``claims``.  A table (or figure) whose numbers can be
compared carries a ``long_format`` entry that says how its rows become the long table returned
by :func:`target_table`::

    long_format:
      dataset: "{dataset}"           # template over the row's fields
      algorithm: "{column}"          # {column} is the name of the value column
      metric: "test_error"
      value_columns: ["MC", "AB"]    # the row fields holding numbers
      unit: percent                  # percent | fraction | none | free text

A value is either a number or a mapping ``{mean: ..., std: ...}``; ``null`` means the paper
prints no value ("-").

The target files live in the repository checkout (they are data, not code), found through
:func:`marginboost._paths.project_root`; every function takes ``directory=`` to read another copy.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from .._paths import project_root

__all__ = [
    "targets_dir",
    "list_papers",
    "load_targets",
    "list_items",
    "target_table",
    "claims",
    "TABLE_COLUMNS",
]

#: Columns of the long tables returned by :func:`target_table`.
TABLE_COLUMNS = ("dataset", "algorithm", "metric", "mean", "std")


def targets_dir(directory: str | Path | None = None) -> Path:
    """Folder of the target files: ``directory`` if given, else ``<checkout>/data/targets``."""
    if directory is not None:
        path = Path(directory)
        if not path.is_dir():
            raise FileNotFoundError(f"target folder {path} does not exist")
        return path
    root = project_root()
    if root is None:
        raise FileNotFoundError(
            "the papers' target numbers live in data/targets/ of the marginboost repository, "
            "which was not found; run from inside a clone of the repository or pass directory="
        )
    path = root / "data" / "targets"
    if not path.is_dir():
        raise FileNotFoundError(f"target folder {path} is missing from the checkout")
    return path


def list_papers(directory: str | Path | None = None) -> list[str]:
    """Identifiers of the papers with a target file, sorted (e.g. ``["anyboost", ...]``).

    Parameters
    ----------
    directory : str or path-like, optional
        Folder of the target files (default: the checkout's ``data/targets``).

    Returns
    -------
    list of str
        The stems of the ``*.yaml`` files of the folder.

    Raises
    ------
    FileNotFoundError
        If the folder does not exist, or no checkout is found and ``directory`` is not given.

    Examples
    --------
    >>> from marginboost.experiments import list_papers
    >>> list_papers()
    ['anyboost', 'directboost', 'dmcboost', 'mcboost', 'shen_li']
    """
    return sorted(p.stem for p in targets_dir(directory).glob("*.yaml"))


@functools.lru_cache(maxsize=32)
def _load(path: Path, mtime_ns: int) -> dict:
    with open(path, encoding="utf-8") as fh:
        try:
            data = yaml.safe_load(fh)
        except yaml.YAMLError as exc:
            raise ValueError(f"target file {path} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("paper"), dict):
        raise ValueError(f"target file {path} has no 'paper' section")
    if data["paper"].get("id") != path.stem:
        raise ValueError(
            f"target file {path} declares paper id {data['paper'].get('id')!r}, "
            f"expected {path.stem!r}"
        )
    for section in ("tables", "figures", "claims"):
        entries = data.get(section, [])
        if not isinstance(entries, list):
            raise ValueError(f"{path}: '{section}' must be a list")
        ids = [e.get("id") for e in entries if isinstance(e, dict)]
        if len(ids) != len(entries) or None in ids or len(set(ids)) != len(ids):
            raise ValueError(f"{path}: every entry of '{section}' needs a unique 'id'")
    return data


def load_targets(paper: str, *, directory: str | Path | None = None) -> dict:
    """Return the parsed target file of ``paper`` (a fresh copy; safe to modify).

    The file is checked on reading: it needs a ``paper`` section whose ``id`` is the file's
    name, and every entry of ``tables``, ``figures`` and ``claims`` needs a unique ``id``.

    Parameters
    ----------
    paper : str
        A paper identifier (see :func:`list_papers`).
    directory : str or path-like, optional
        Folder of the target files (default: the checkout's ``data/targets``).

    Returns
    -------
    dict
        The YAML document: ``paper`` (title, authors, venue ...), the protocols and data sets
        it describes, ``tables`` and ``figures`` (with every printed number) and ``claims``.

    Raises
    ------
    ValueError
        If ``paper`` has no target file, or the file is not valid YAML or fails the checks
        above.

    Examples
    --------
    >>> from marginboost.experiments import load_targets
    >>> data = load_targets("mcboost")
    >>> data["paper"]["title"]
    'Margin Distribution Controlled Boosting'
    >>> data["paper"]["title"] = "changed"  # a copy: the next call reads the file's value
    >>> load_targets("mcboost")["paper"]["title"]
    'Margin Distribution Controlled Boosting'
    """
    folder = targets_dir(directory)
    path = folder / f"{paper}.yaml"
    if not isinstance(paper, str) or not path.is_file():
        raise ValueError(f"unknown paper {paper!r}; known papers: {list_papers(folder)}")
    return copy.deepcopy(_load(path.resolve(), path.stat().st_mtime_ns))


def list_items(paper: str, *, directory: str | Path | None = None) -> list[str]:
    """Identifiers of the tables and figures of ``paper``, in file order.

    Parameters
    ----------
    paper : str
        A paper identifier (see :func:`list_papers`).
    directory : str or path-like, optional
        Folder of the target files (default: the checkout's ``data/targets``).

    Returns
    -------
    list of str
        The ``id`` of every table, then of every figure; the ``item`` argument of
        :func:`target_table`, :func:`compare` and ``marginboost reproduce PAPER ITEM``.

    Examples
    --------
    >>> from marginboost.experiments import list_items
    >>> list_items("mcboost")
    ['table1', 'table2', 'figure1', 'figure2', 'figure3', 'figure4']
    """
    data = load_targets(paper, directory=directory)
    return [e["id"] for e in data.get("tables", []) + data.get("figures", [])]


def _find_item(data: dict, paper: str, item: str) -> dict:
    for entry in data.get("tables", []) + data.get("figures", []):
        if entry["id"] == item:
            return entry
    known = [e["id"] for e in data.get("tables", []) + data.get("figures", [])]
    raise ValueError(f"paper {paper!r} has no table or figure {item!r}; it has {known}")


class _Row(dict):
    def __missing__(self, key: str) -> str:
        raise KeyError(key)


def _mean_std(value: Any, where: str) -> tuple[float, float]:
    if value is None:
        return np.nan, np.nan
    if isinstance(value, Mapping):
        if "mean" not in value:
            raise ValueError(f"{where}: a value mapping needs 'mean', got {dict(value)}")
        mean, std = value["mean"], value.get("std")
    else:
        mean, std = value, None
    try:
        mean = np.nan if mean is None else float(mean)
        std = np.nan if std is None else float(std)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: not a number: {value!r}") from exc
    return mean, std


def target_table(paper: str, item: str, *, directory: str | Path | None = None) -> pd.DataFrame:
    """Return the paper's numbers of one table (or figure) in long format.

    Every value column of every row of the item becomes one row, labelled through the item's
    ``long_format`` templates (see the module documentation).

    Parameters
    ----------
    paper : str
        A paper identifier (see :func:`list_papers`).
    item : str
        A table or figure of that paper (see :func:`list_items`).
    directory : str or path-like, optional
        Folder of the target files (default: the checkout's ``data/targets``).

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, algorithm, metric, mean, std`` (``std`` is NaN where the paper gives
        none; ``mean`` is NaN where the paper prints no value), in the paper's row order.
        ``frame.attrs`` holds ``paper``, ``item``, ``unit`` and, where the target file states
        them (``long_format: runs:`` and ``runs_note:``), ``paper_runs`` (the paper's number of
        runs behind each mean: a number, or a mapping from data set to number with a
        ``default``) and ``paper_runs_note`` (where that number comes from); else ``None``.

    Raises
    ------
    ValueError
        If the paper or item is unknown, or the item has no comparable numbers.

    Examples
    --------
    >>> from marginboost.experiments import target_table
    >>> table = target_table("mcboost", "table1")
    >>> print(table.head(2).to_string(index=False))
    dataset algorithm     metric  mean  std
     banana        MC test_error  26.5  1.2
     banana        AB test_error  27.1  1.5
    >>> table.attrs["unit"], table.attrs["paper_runs"]["default"]
    ('percent', 50)
    """
    data = load_targets(paper, directory=directory)
    entry = _find_item(data, paper, item)
    spec = entry.get("long_format")
    if spec is None:
        numeric = [
            e["id"] for e in data.get("tables", []) + data.get("figures", []) if "long_format" in e
        ]
        raise ValueError(
            f"{paper}/{item} has no comparable numbers (no long_format entry); "
            f"items with numbers: {numeric}"
        )
    for field in ("dataset", "algorithm", "metric", "value_columns"):
        if field not in spec:
            raise ValueError(f"{paper}/{item}: long_format lacks '{field}'")
    records = []
    for position, row in enumerate(entry.get("rows", [])):
        for column in spec["value_columns"]:
            where = f"{paper}/{item} row {position} column {column!r}"
            if column not in row:
                raise ValueError(f"{where}: the row has no such column")
            fields = _Row({str(k): v for k, v in row.items()}, column=column)
            try:
                labels = [
                    str(spec[f]).format_map(fields) for f in ("dataset", "algorithm", "metric")
                ]
            except KeyError as exc:
                raise ValueError(f"{where}: long_format refers to missing field {exc}") from exc
            mean, std = _mean_std(row[column], where)
            records.append((*labels, mean, std))
    frame = pd.DataFrame.from_records(records, columns=list(TABLE_COLUMNS))
    if frame.duplicated(subset=list(TABLE_COLUMNS[:3])).any():
        raise ValueError(
            f"{paper}/{item}: long_format gives duplicate dataset/algorithm/metric labels"
        )
    frame.attrs.update(
        paper=paper,
        item=item,
        unit=spec.get("unit", "none"),
        paper_runs=copy.deepcopy(spec.get("runs")),
        paper_runs_note=spec.get("runs_note"),
    )
    return frame


def claims(paper: str, *, directory: str | Path | None = None) -> list[dict]:
    """Return the claims of ``paper``: dicts with ``paper, id, statement, source`` (, ``note``).

    Parameters
    ----------
    paper : str
        A paper identifier (see :func:`list_papers`).
    directory : str or path-like, optional
        Folder of the target files (default: the checkout's ``data/targets``).

    Returns
    -------
    list of dict
        One dict per entry of the file's ``claims``, in file order: ``paper`` and every field
        of the entry, as text.  Each claim's verdict is computed by its predicate in
        :mod:`marginboost.experiments.predicates` (see :func:`scoreboard`).

    Raises
    ------
    ValueError
        If the paper is unknown or a claim lacks ``id``, ``statement`` or ``source``.

    Examples
    --------
    >>> from marginboost.experiments import claims
    >>> first = claims("mcboost")[0]
    >>> first["paper"], first["id"], first["source"]
    ('mcboost', 'C1', 'Sec. 5, Tables 1-2')
    """
    data = load_targets(paper, directory=directory)
    out = []
    for claim in data.get("claims", []):
        for field in ("id", "statement", "source"):
            if not claim.get(field):
                raise ValueError(f"{paper}: claim {claim.get('id')!r} lacks '{field}'")
        out.append({"paper": paper, **{k: str(v) for k, v in claim.items()}})
    return out
