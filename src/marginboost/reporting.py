"""Helpers that notebooks use to make their numbers checkable.

Two mechanisms make a figure evidence by its numbers rather than its pixels:

* :func:`print_digest` prints a short, rounded summary of the arrays a figure plots.  ``pytest
  --nbval`` compares that text with the committed notebook output (nbval ignores PNG images).
* :func:`save_key_numbers` writes the notebook's key numbers to
  ``<results>/<paper>/<item>.<profile>.json``.  ``tests/test_notebooks.py`` executes each
  notebook and compares the fresh file with the committed one within the tolerances stored in it.
"""
from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ._paths import results_dir

__all__ = ["digest", "print_digest", "save_key_numbers", "load_key_numbers", "key_numbers_path",
           "compare_key_numbers"]

#: Default tolerances of key numbers: relative and absolute, as in ``numpy.isclose``.
DEFAULT_RTOL = 1e-6
DEFAULT_ATOL = 1e-9


def digest(values, decimals: int = 4) -> str:
    """Return a one-line rounded summary of an array: shape, min, max, mean and 5 samples.

    The samples are taken at evenly spaced positions of the flattened array, so the digest
    changes when any plotted curve changes noticeably, while staying short.
    """
    arr = np.asarray(values, dtype=float).ravel()
    if arr.size == 0:
        return "n=0"
    finite = arr[np.isfinite(arr)]
    idx = np.unique(np.linspace(0, arr.size - 1, num=min(5, arr.size)).round().astype(int))

    def fmt(x: float) -> str:
        if not math.isfinite(x):
            return str(x)
        r = round(float(x), decimals)
        return f"{r:.{decimals}f}" if r != 0 else f"{0:.{decimals}f}"

    stats = (f"min={fmt(finite.min())} max={fmt(finite.max())} mean={fmt(finite.mean())}"
             if finite.size else "no finite values")
    samples = " ".join(fmt(v) for v in arr[idx])
    return f"n={arr.size} {stats} samples=[{samples}]"


def print_digest(name: str, values, decimals: int = 4) -> None:
    """Print ``name: digest(values)`` (see :func:`digest`)."""
    print(f"{name}: {digest(values, decimals)}")


def key_numbers_path(paper: str, item: str, profile: str, root: Path | None = None) -> Path:
    """Path of the key-number file of one notebook and profile."""
    base = Path(root) if root is not None else results_dir()
    return base / paper / f"{item}.{profile}.json"


def _plain(value):
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in np.asarray(value, dtype=object).tolist()] if isinstance(
            value, np.ndarray) else [_plain(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        return float(value)
    return value


def save_key_numbers(paper: str, item: str, numbers: Mapping, *, profile: str,
                     rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
                     tolerances: Mapping[str, Mapping[str, float]] | None = None,
                     root: Path | None = None) -> Path:
    """Write a notebook's key numbers (atomically) and return the file path.

    Parameters
    ----------
    paper, item
        Notebook identity, as in ``notebooks/<paper>-<item>.md``.
    numbers
        Flat mapping name -> number (or list of numbers).
    profile
        ``"quick"`` or ``"full"``; part of the file name.
    rtol, atol
        Default tolerances with which a re-run must agree (``numpy.isclose`` semantics).
    tolerances
        Optional per-name overrides ``{name: {"rtol": ..., "atol": ...}}``.
    """
    path = key_numbers_path(paper, item, profile, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "paper": paper,
        "item": item,
        "profile": profile,
        "tolerance": {"rtol": rtol, "atol": atol},
        "tolerances": _plain(dict(tolerances or {})),
        "numbers": _plain(dict(numbers)),
    }
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w") as fh:
        json.dump(record, fh, indent=2, sort_keys=True)
        fh.write("\n")
    os.replace(tmp, path)
    return path


def load_key_numbers(path: Path) -> dict:
    """Read a key-number file written by :func:`save_key_numbers`."""
    with open(path) as fh:
        return json.load(fh)


def compare_key_numbers(reference: Mapping, fresh: Mapping) -> list[str]:
    """Return a list of human-readable differences between two key-number records.

    The tolerances of the *reference* record apply.  An empty list means agreement.
    """
    problems: list[str] = []
    ref_numbers, new_numbers = reference["numbers"], fresh["numbers"]
    for name in sorted(set(ref_numbers) | set(new_numbers)):
        if name not in new_numbers:
            problems.append(f"{name}: missing from the fresh run")
            continue
        if name not in ref_numbers:
            problems.append(f"{name}: not in the committed reference")
            continue
        tol = {**reference.get("tolerance", {}), **reference.get("tolerances", {}).get(name, {})}
        rtol, atol = tol.get("rtol", DEFAULT_RTOL), tol.get("atol", DEFAULT_ATOL)
        a = np.asarray(ref_numbers[name], dtype=float)
        b = np.asarray(new_numbers[name], dtype=float)
        if a.shape != b.shape:
            problems.append(f"{name}: shape {a.shape} != {b.shape}")
        elif not np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
            problems.append(f"{name}: committed {a.tolist()} vs fresh {b.tolist()} "
                            f"(rtol={rtol}, atol={atol})")
    return problems
