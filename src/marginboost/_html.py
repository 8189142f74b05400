"""Small HTML helpers shared by the pages this package writes (tables of the notebooks, the
scoreboard, the datasets page): nothing here imports the rest of the package."""

from __future__ import annotations

import re

__all__ = ["line_breaks"]


def line_breaks(text: str, after: str) -> str:
    """``text`` with a line-break chance (``<wbr>``) after every match of the regular
    expression ``after``, so that a long name wraps in a table cell instead of widening the
    table (a copied text does not contain the ``<wbr>``).

    Examples
    --------
    >>> line_breaks("AdaBoost.M1_cap", r"_|\\.(?=[A-Za-z])")
    'AdaBoost.<wbr>M1_<wbr>cap'
    """
    return re.sub(f"({after})", r"\1<wbr>", text)
