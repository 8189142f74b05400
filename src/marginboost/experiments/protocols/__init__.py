"""The experimental protocols of the reproduced papers: grid cells and their cell functions.

Each module defines, for one paper, functions that build the grid of cells of a table or figure
for a profile (:class:`~marginboost.experiments.Profile`) and top-level (picklable) cell
functions that compute one cell from its spec, for :func:`marginboost.experiments.run_grid`.

:data:`PROTOCOLS` is the one registry of the reproduced papers: for each paper its protocols
module, the items (tables and figures) its notebooks reproduce, its chapter's reference and the
estimators the chapter compares.  The command line, the re-execution of stored cells, the
chapters' citation blocks and API links all read it; adding a paper is one protocols module with
its line here, its targets (``data/targets/<paper>.yaml``) and its notebooks.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..._paths import committed_results_dir, results_dir
from ...data import load
from ..profiles import check_profile
from ..runner import run_grid
from ..store import ResultStore, source_fingerprint

__all__ = [
    "PaperProtocol",
    "PROTOCOLS",
    "PAPERS",
    "protocol",
    "dataset_fingerprint",
    "run_paper_grid",
    "paper_store",
    "cell_function",
    "notebook_cells",
]


@dataclass(frozen=True)
class PaperProtocol:
    """What the package knows of one reproduced paper.

    Parameters
    ----------
    paper : str
        The paper's id: the prefix of its notebooks (``notebooks/<paper>-<item>.md``), its
        chapter (``book/<paper>.md``), its targets (``data/targets/<paper>.yaml``) and its
        results (``data/results/<paper>/``).
    module : str
        The protocols module (under :mod:`marginboost.experiments.protocols`) whose
        ``cell_function(spec)`` returns the function that computes a stored cell.
    items : tuple of str
        The tables and figures its notebooks reproduce, in the chapter's order.
    reference : str
        The key of the original paper in ``book/references.bib``.
    estimators : tuple of str
        The estimators the chapter reproduces or compares against (its API links).
    grids : tuple of str
        The functions (``"module:function"`` under :mod:`marginboost.experiments.protocols`,
        each ``function(profile) -> list of cell specs``) that build every grid its notebooks
        compute: :func:`notebook_cells` is their union, the cells the committed store must hold.

    Examples
    --------
    >>> from marginboost.experiments.protocols import protocol
    >>> p = protocol("dmcboost")
    >>> p.module, p.items[:2]
    ('dmcboost', ('table1', 'figures1-2'))
    >>> p.notebook("table2")
    'dmcboost-table2'
    """

    paper: str
    module: str
    items: tuple[str, ...]
    reference: str
    estimators: tuple[str, ...]
    grids: tuple[str, ...] = ()

    def notebook(self, item: str) -> str:
        """The stem of the notebook that reproduces ``item``.

        Parameters
        ----------
        item : str
            One of :attr:`items`.

        Returns
        -------
        str
            ``"<paper>-<item>"``.

        Raises
        ------
        ValueError
            If the paper has no such item.

        Examples
        --------
        >>> from marginboost.experiments.protocols import protocol
        >>> protocol("anyboost").notebook("figure1")
        'anyboost-figure1'
        """
        if item not in self.items:
            raise ValueError(
                f"paper {self.paper!r} has no item {item!r}; its items: {', '.join(self.items)}"
            )
        return f"{self.paper}-{item}"


#: The reproduced papers, in the book's order.
PROTOCOLS: dict[str, PaperProtocol] = {
    p.paper: p
    for p in (
        PaperProtocol(
            "anyboost",
            "anyboost",
            ("table1", "figure1", "figure2", "figure3"),
            "mason1999boosting",
            (
                "AnyBoost",
                "AdaBoost",
                "RealAdaBoost",
                "LogitBoost",
                "ArcX4",
                "DoomII",
                "L2Boost",
                "MadaBoost",
            ),
            ("anyboost:figure1_cells", "anyboost:figure2_cells", "anyboost:figure3_cells"),
        ),
        PaperProtocol(
            "shen_li",
            "shen_li",
            (
                "duality-checks",
                "figure1",
                "figure2",
                "figure3",
                "figure4",
                "table2-3",
                "table4-figure5",
                "table5-8",
            ),
            "shen2010dual",
            (
                "AdaBoostL1",
                "AdaBoostQP",
                "AdaBoostCG",
                "LogitBoostCG",
                "LPBoost",
                "HingeLPBoost",
                "AdaBoost",
                "ArcGv",
            ),
            (
                "shen_li:figure3_cells",
                "shen_li:figure4_cells",
                "shen_li_tables:table2_cells",
                "shen_li_tables:table3_cells",
                "shen_li_tables:table4_cells",
                "shen_li_tables:table5_cells",
                "shen_li_tables:table7_cells",
            ),
        ),
        PaperProtocol(
            "mcboost",
            "mcboost",
            ("table1-2", "figure1", "figure2", "figures3-4"),
            "guo2013mcboost",
            ("MCBoost", "MDBoost", "LPBoost", "AdaBoostCG", "AdaBoost", "L2Boost"),
            (
                "mcboost:table1_cells",
                "mcboost_figures:figure1_cells",
                "mcboost_figures:figure2_cells",
            ),
        ),
        PaperProtocol(
            "directboost",
            "directboost",
            ("table1", "table2", "table3", "table4", "figures1-2", "figure3", "checks"),
            "zhai2013direct",
            ("DirectBoost", "AdaBoost", "LogitBoost", "LPBoost", "BrownBoost"),
            (
                "directboost:table1_cells",
                "directboost:choices_cells",
                "directboost:lpboost_tolerance_cells",
                "directboost:file_coding_cells",
                "directboost:table3_cells",
                "directboost:table4_cells",
                "directboost:capped_rerun_cells",
                "directboost:figure3_cells",
            ),
        ),
        PaperProtocol(
            "dmcboost",
            "dmcboost",
            ("table1", "figures1-2", "table2", "figure3", "table3", "table4"),
            "zhai2014multiclass",
            ("DMCBoost", "SAMME", "AdaBoostM1", "AdaBoostMH", "GDMCBoost"),
            (
                "dmcboost:grid_cells",
                "dmcboost:cap_ablation_cells",
                "dmcboost:phase1_only_cells",
                "dmcboost:reduced_cap_cells",
                "dmcboost:figure3_cells",
                "dmcboost:paper_protocol_cells",
            ),
        ),
    )
}

#: The ids of the reproduced papers, in the book's order.
PAPERS: tuple[str, ...] = tuple(PROTOCOLS)


def protocol(paper: str) -> PaperProtocol:
    """The registry entry of one paper, with a clear error for an unknown id.

    Parameters
    ----------
    paper : str
        A paper id (a key of :data:`PROTOCOLS`).

    Returns
    -------
    PaperProtocol
        Its entry.

    Raises
    ------
    ValueError
        If ``paper`` is not a reproduced paper.

    Examples
    --------
    >>> from marginboost.experiments.protocols import protocol
    >>> protocol("mcboost").reference
    'guo2013mcboost'
    """
    try:
        return PROTOCOLS[paper]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown paper {paper!r}; the reproduced papers: {', '.join(PAPERS)}"
        ) from None


def cell_function(paper: str, spec: dict) -> Callable[[dict], dict]:
    """The function that computes a stored cell of ``paper`` (used to re-execute records).

    Parameters
    ----------
    paper : str
        A paper id (a key of :data:`PROTOCOLS`).
    spec : dict
        The spec of a stored record of that paper.

    Returns
    -------
    callable
        ``func(spec) -> metrics``, the cell function that produced the record.

    Examples
    --------
    >>> from marginboost.experiments.protocols import cell_function
    >>> cell_function("mcboost", {"paper": "mcboost", "table": "table1"}).__name__
    'table1_cell'
    """
    module = importlib.import_module(f"{__name__}.{protocol(paper).module}")
    return module.cell_function(spec)


def notebook_cells(paper: str, profile: str) -> list[dict]:
    """Every grid cell the notebooks of ``paper`` compute in ``profile``.

    The union of the paper's :attr:`PaperProtocol.grids`, in their order, without repeats (cells
    are identified by :func:`~marginboost.experiments.store.cell_key`).  A committed record
    whose spec is not among them belongs to an earlier protocol: no page reads it.

    Parameters
    ----------
    paper : str
        A paper id (a key of :data:`PROTOCOLS`).
    profile : {"quick", "full"}
        The profile.

    Returns
    -------
    list of dict
        The cell specs.

    Examples
    --------
    >>> import os
    >>> from marginboost.experiments.protocols import notebook_cells
    >>> if os.environ.get("MARGINBOOST_DATA_MIRROR"):
    ...     cells = notebook_cells("directboost", "quick")
    ...     assert cells and {c["profile"] for c in cells} == {"quick"}
    """
    from ..store import cell_key

    profile = check_profile(profile)
    cells: dict[str, dict] = {}
    for grid in protocol(paper).grids:
        module_name, function = grid.split(":")
        module = importlib.import_module(f"{__name__}.{module_name}")
        for cell in getattr(module, function)(profile):
            cells.setdefault(cell_key(cell), cell)
    return list(cells.values())


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
        from ...data.registry import file_entries

        by_file = {entry["file"]: entry.get("sha256") for entry in file_entries()}
        sha = [by_file.get(path) for path in meta["files"]]
        if not all(sha):
            sha = None
    if isinstance(sha, (list, tuple)):
        sha = "+".join(sha)
    if not sha:
        raise ValueError(f"dataset {name!r} has no sha256 in its metadata")
    return str(sha)
