"""Where the project keeps things: the checkout, results, caches.

A checkout of the repository is recognised by its ``_toc.yml`` next to ``src/marginboost``.
Everything that writes files goes through these helpers so that tests can redirect them with
environment variables instead of touching committed files.

Environment variables
---------------------
MARGINBOOST_RESULTS_DIR
    Folder that runs write result stores and key-number files to (default:
    ``<checkout>/_build/results``, or the user cache folder when the package is used outside a
    checkout).  The committed evidence under ``<checkout>/data/results`` is only read by runs;
    it changes through ``marginboost results update``.
MARGINBOOST_DATA_MIRROR
    Folder holding an offline copy of the benchmark data files (see :mod:`marginboost.data`).
MARGINBOOST_CACHE_DIR
    Folder for downloaded data files (default: the platform's user cache folder).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "project_root",
    "results_dir",
    "committed_results_dir",
    "build_dir",
    "cache_dir",
    "require_project_root",
]

_PACKAGE_DIR = Path(__file__).resolve().parent


def _looks_like_root(path: Path) -> bool:
    return (path / "_toc.yml").is_file() and (path / "src" / "marginboost").is_dir()


def project_root() -> Path | None:
    """Return the repository checkout this package is running from, or ``None``.

    The checkout is found from the package location (editable installs) or from the current
    working directory and its parents (notebooks run with ``--cwd notebooks``).
    """
    candidates = [_PACKAGE_DIR.parent.parent]
    cwd = Path.cwd().resolve()
    candidates += [cwd, *cwd.parents]
    for candidate in candidates:
        if _looks_like_root(candidate):
            return candidate
    return None


def require_project_root() -> Path:
    """Like :func:`project_root` but raise a clear error outside a checkout."""
    root = project_root()
    if root is None:
        raise FileNotFoundError(
            "this command needs a checkout of the marginboost repository (the notebooks and "
            "the book live there, not in the installed package); clone it and run the command "
            "from inside the clone"
        )
    return root


def cache_dir() -> Path:
    """Folder for downloaded data files (``MARGINBOOST_CACHE_DIR`` or the user cache)."""
    env = os.environ.get("MARGINBOOST_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    import pooch

    return Path(pooch.os_cache("marginboost"))


def build_dir() -> Path:
    """The checkout's scratch folder ``<checkout>/_build`` (git-ignored)."""
    return require_project_root() / "_build"


def results_dir() -> Path:
    """Folder that runs write result stores and key-number files to.

    ``MARGINBOOST_RESULTS_DIR`` if set; else ``<checkout>/_build/results`` inside a checkout (so
    that running notebooks never modifies tracked files); else ``<user cache>/results``.
    """
    env = os.environ.get("MARGINBOOST_RESULTS_DIR")
    if env:
        return Path(env).expanduser()
    root = project_root()
    if root is not None:
        return root / "_build" / "results"
    return cache_dir() / "results"


def committed_results_dir() -> Path | None:
    """The committed evidence ``<checkout>/data/results`` (read by runs, never written by them);
    ``None`` outside a checkout."""
    root = project_root()
    return None if root is None else root / "data" / "results"
