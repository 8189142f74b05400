"""Zhai, Xia & Wang (2014), *A multi-class boosting method with direct optimization*: its protocol, its claims and its registry entry.

- :mod:`.settings` — its data sets, splits and profiles, and each table's protocol per data set;
- :mod:`.protocol` — the grids of Tables 2-4 and ``cell_function``, which finds the function of a
  stored cell;
- :mod:`.cell` and :mod:`.figure3` — the cell functions of Tables 2-4, and Figure 3's grid and
  cell function;
- :mod:`.summaries` and :mod:`.cost` — Tables 2-4 from the cells' records, and the cells' CPU cost;
- :mod:`.claims` — each claim of the paper as a predicate over the committed results;
- ``PAPER`` — what the registry (:mod:`marginboost.papers`) knows of it.

Its targets (the paper's printed numbers) are ``data/targets/dmcboost.yaml``, its notebooks
``notebooks/dmcboost-*.md``, its chapter ``book/dmcboost.md``.
"""

from .._paper import PaperProtocol

PAPER = PaperProtocol(
    "dmcboost",
    5,
    ("table1", "figures1-2", "table2", "figure3", "table3", "table4"),
    "zhai2014multiclass",
    ("DMCBoost", "SAMME", "AdaBoostM1", "AdaBoostMH", "GDMCBoost"),
    (
        "protocol:grid_cells",
        "protocol:cap_ablation_cells",
        "protocol:raised_cap_cells",
        "protocol:phase1_only_cells",
        "protocol:reduced_cap_cells",
        "figure3:figure3_cells",
        "figure3:figure3_long_cells",
        "protocol:paper_protocol_cells",
        "protocol:paper_raised_cap_cells",
    ),
)
