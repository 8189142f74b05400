"""Grids of the reproduced papers' cells: where their results go and how they run.

The machinery every paper's protocol uses (:mod:`marginboost.papers`): the result store of a
paper and profile, the executor a notebook's parameters ask for, and the fingerprint of a
dataset that every cell key carries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .._paths import committed_results_dir, results_dir
from ..data import load
from .profiles import check_profile
from .runner import run_grid
from .store import ResultStore, source_fingerprint

__all__ = ["paper_store", "run_paper_grid", "dataset_fingerprint"]


def paper_store(paper: str, profile: str) -> ResultStore:
    """The result store of one paper and profile.

    New records go to ``<results>/<paper>/store-<profile>`` (:func:`marginboost._paths.results_dir`,
    ``_build/results`` in a checkout); the committed full-profile evidence
    ``data/results/<paper>/store-full`` is read as a fallback, so its cells are loaded instead of
    recomputed.  ``marginboost results update`` copies new records into the committed store.
    Quick-profile stores are never committed (the quick grids take seconds to recompute) and
    live in a folder per version of the code (:func:`source_fingerprint`).
    """
    profile = check_profile(profile)
    if profile == "quick":
        # Scratch cells are keyed by their spec only; a folder per version of the package's
        # code keeps a quick run from reloading cells an older version of the code computed.
        return ResultStore(results_dir() / paper / f"store-quick-{source_fingerprint()[:12]}")
    path = results_dir() / paper / f"store-{profile}"
    committed = committed_results_dir()
    fallbacks = []
    if profile == "full" and committed is not None:
        evidence = committed / paper / f"store-{profile}"
        if evidence.resolve() != path.resolve():
            fallbacks.append(evidence)
    return ResultStore(path, fallbacks=fallbacks)


def run_paper_grid(
    paper: str,
    func: Callable[[dict], dict],
    cells: Sequence[dict],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    desc: str | None = None,
) -> list[dict]:
    """Run a notebook's grid with the executor its parameters ask for.

    ``scheduler`` (a dask address) selects the ``dask`` executor, ``jobs > 1`` the
    ``processes`` executor, otherwise cells run serially; finished cells go to the paper's
    result store, so a rerun only computes what is missing.
    """
    if scheduler:
        executor = "dask"
    elif jobs is not None and jobs != 1:
        executor = "processes"
    else:
        executor = "serial"
    profiles = {cell["profile"] for cell in cells}
    if len(profiles) != 1:
        raise ValueError(f"a grid must belong to one profile; got {sorted(profiles)}")
    return run_grid(
        func,
        list(cells),
        store=paper_store(paper, profiles.pop()),
        executor=executor,
        n_jobs=int(jobs or 1),
        scheduler=scheduler or None,
        desc=desc,
    )


def dataset_fingerprint(name: str) -> str:
    """SHA-256 of the data file a registered dataset is read from (part of every cell key); for a
    combined dataset, the hashes of its files joined by ``+``."""
    meta = load(name).meta
    sha = meta.get("sha256")
    if not sha and meta.get("files"):
        # a combined dataset (e.g. a Rätsch realisation): the hashes of the files it is read from
        from ..data.registry import file_entries

        by_file = {entry["file"]: entry.get("sha256") for entry in file_entries()}
        sha = [by_file.get(path) for path in meta["files"]]
        if not all(sha):
            sha = None
    if isinstance(sha, (list, tuple)):
        sha = "+".join(sha)
    if not sha:
        raise ValueError(f"dataset {name!r} has no sha256 in its metadata")
    return str(sha)
