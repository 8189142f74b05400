"""The registry entry of one reproduced paper (each paper's ``PAPER``)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PaperProtocol"]


@dataclass(frozen=True)
class PaperProtocol:
    """What the package knows of one reproduced paper.

    Each paper's subpackage ``marginboost.papers.<paper>`` defines one, as ``PAPER``; the
    registry (:data:`marginboost.papers.PROTOCOLS`) collects them.

    Parameters
    ----------
    paper : str
        The paper's id: its subpackage (``marginboost.papers.<paper>``), the prefix of its
        notebooks (``notebooks/<paper>-<item>.md``), its chapter (``book/<paper>.md``), its
        targets (``data/targets/<paper>.yaml``) and its results (``data/results/<paper>/``).
    chapter : int
        Its place in the book's order of papers.
    items : tuple of str
        The tables and figures its notebooks reproduce, in the chapter's order.
    reference : str
        The key of the original paper in ``book/references.bib``.
    estimators : tuple of str
        The estimators the chapter reproduces or compares against (its API links).
    grids : tuple of str
        The functions (``"module:function"``, a module of the paper's subpackage, each
        ``function(profile) -> list of cell specs``) that build every grid its notebooks
        compute: :func:`marginboost.papers.notebook_cells` is their union, the cells the
        committed store must hold.

    Examples
    --------
    >>> from marginboost.papers import protocol
    >>> p = protocol("dmcboost")
    >>> p.module, p.items[:2]
    ('marginboost.papers.dmcboost.protocol', ('table1', 'figures1-2'))
    >>> p.notebook("table2")
    'dmcboost-table2'
    """

    paper: str
    chapter: int
    items: tuple[str, ...]
    reference: str
    estimators: tuple[str, ...]
    grids: tuple[str, ...] = ()

    @property
    def package(self) -> str:
        """The paper's subpackage, ``"marginboost.papers.<paper>"``."""
        return f"{__name__.rpartition('.')[0]}.{self.paper}"

    @property
    def module(self) -> str:
        """The protocol module, whose ``cell_function(spec)`` returns the function that
        computes a stored cell."""
        return f"{self.package}.protocol"

    @property
    def claims_module(self) -> str:
        """The module whose import registers the paper's claims (its predicates)."""
        return f"{self.package}.claims"

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
        >>> from marginboost.papers import protocol
        >>> protocol("anyboost").notebook("figure1")
        'anyboost-figure1'
        """
        if item not in self.items:
            raise ValueError(
                f"paper {self.paper!r} has no item {item!r}; its items: {', '.join(self.items)}"
            )
        return f"{self.paper}-{item}"
