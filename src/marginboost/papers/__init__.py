"""The reproduced papers: one subpackage per paper, and the one registry that lists them.

Each paper lives in one place, ``marginboost.papers.<paper>``:

- ``PAPER`` in its ``__init__`` (:class:`PaperProtocol`): its items, reference, estimators and
  grids;
- ``protocol.py`` (and, for a long protocol, sibling modules of one role each: a table or a
  figure, the settings its grids share, its summaries): the grids of its tables and figures and
  the top-level (picklable) cell functions that compute one cell from its spec, for
  :func:`marginboost.experiments.run_grid`; ``protocol.cell_function(spec)`` finds the function
  of a stored cell;
- ``claims.py``: each of its claims as a predicate over the committed results.

The shared machinery (store, runner, grids, predicates, scoreboard) knows papers only through
this registry, which finds the subpackages itself: :data:`PROTOCOLS` maps each paper id to its
entry, in the book's order (``PAPER.chapter``).  Outside the package a paper has its targets
(``data/targets/<paper>.yaml``), its notebooks (``notebooks/<paper>-*.md``) and its chapter
(``book/<paper>.md``, listed in ``_toc.yml``).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from ..experiments.profiles import check_profile
from ._paper import PaperProtocol

__all__ = [
    "PaperProtocol",
    "PROTOCOLS",
    "PAPERS",
    "protocol",
    "cell_function",
    "notebook_cells",
    "load_claims",
]


def _discover() -> dict[str, PaperProtocol]:
    entries = []
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg and not info.name.startswith("_"):
            entry = importlib.import_module(f"{__name__}.{info.name}").PAPER
            if entry.paper != info.name:
                raise ImportError(
                    f"marginboost.papers.{info.name} registers itself as {entry.paper!r}; a "
                    "paper's PAPER.paper must be its subpackage's name"
                )
            entries.append(entry)
    return {p.paper: p for p in sorted(entries, key=lambda p: (p.chapter, p.paper))}


#: The reproduced papers, in the book's order.
PROTOCOLS: dict[str, PaperProtocol] = _discover()

#: The ids of the reproduced papers, in the book's order.
PAPERS: tuple[str, ...] = tuple(PROTOCOLS)


def load_claims() -> None:
    """Register every paper's claims: import each paper's ``claims`` module, in the book's order.

    Each ``marginboost.papers.<paper>.claims`` registers its predicates when imported;
    :func:`marginboost.experiments.predicates.registered_claims` calls this before it answers.

    Returns
    -------
    None

    Examples
    --------
    >>> from marginboost.papers import load_claims
    >>> from marginboost.experiments.predicates import PREDICATES
    >>> load_claims()
    >>> sorted({key.split("/")[0] for key in PREDICATES})
    ['anyboost', 'directboost', 'dmcboost', 'mcboost', 'shen_li']
    """
    for entry in PROTOCOLS.values():
        importlib.import_module(entry.claims_module)


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
    >>> from marginboost.papers import protocol
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
    >>> from marginboost.papers import cell_function
    >>> cell_function("mcboost", {"paper": "mcboost", "table": "table1"}).__name__
    'table1_cell'
    """
    module = importlib.import_module(protocol(paper).module)
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
    >>> from marginboost.papers import notebook_cells
    >>> if os.environ.get("MARGINBOOST_DATA_MIRROR"):
    ...     cells = notebook_cells("directboost", "quick")
    ...     assert cells and {c["profile"] for c in cells} == {"quick"}
    """
    from ..experiments.store import cell_key

    profile = check_profile(profile)
    cells: dict[str, dict] = {}
    for grid in protocol(paper).grids:
        module_name, function = grid.split(":")
        module = importlib.import_module(f"{protocol(paper).package}.{module_name}")
        for cell in getattr(module, function)(profile):
            cells.setdefault(cell_key(cell), cell)
    return list(cells.values())
