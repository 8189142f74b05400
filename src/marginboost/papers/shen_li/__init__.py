"""Shen & Li (2010), *On the dual formulation of boosting algorithms*: its protocol, its claims and its registry entry.

- :mod:`.protocol` — the grids and cell functions of Figures 3 and 4, and ``cell_function``,
  which finds the function of a stored cell;
- :mod:`.tables` — the data sets, splits and helpers its tables share; :mod:`.table2_3`,
  :mod:`.table4_figure5` and :mod:`.table5_8` — each table's grid, cell function and summaries;
- :mod:`.duality` — the numerical checks of its primal/dual pairs, as cells of the same store;
- :mod:`.claims` — each claim of the paper as a predicate over the committed results;
- ``PAPER`` — what the registry (:mod:`marginboost.papers`) knows of it.

Its targets (the paper's printed numbers) are ``data/targets/shen_li.yaml``, its notebooks
``notebooks/shen_li-*.md``, its chapter ``book/shen_li.md``.
"""

from .._paper import PaperProtocol

PAPER = PaperProtocol(
    "shen_li",
    2,
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
        "protocol:figure3_cells",
        "protocol:figure4_cells",
        "table2_3:table2_cells",
        "table2_3:table3_cells",
        "table4_figure5:table4_cells",
        "table5_8:table5_cells",
        "table5_8:table7_cells",
        "duality:duality_cells",
        "duality:zero_temperature_cells",
    ),
)
