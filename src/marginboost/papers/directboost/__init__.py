"""Zhai, Xia, Tan & Wang (2013), *Direct 0-1 loss minimization and margin maximization with boosting*: its protocol, its claims and its registry entry.

- :mod:`.settings` — its data sets, their coding and splits, the grids, caps and rules its cells
  share;
- :mod:`.protocol` — the cell function of the tables (one method's fit with its model selection)
  and ``cell_function``, which finds the function of a stored cell;
- :mod:`.table1`, :mod:`.noise` (Tables 3 and 4) and :mod:`.figure3` — each one's grids,
  summaries and (Figure 3) cell function;
- :mod:`.reruns` — the capped fits of Tables 1 and 4 run again with a higher cap;
- :mod:`.claims` — each claim of the paper as a predicate over the committed results;
- ``PAPER`` — what the registry (:mod:`marginboost.papers`) knows of it.

Its targets (the paper's printed numbers) are ``data/targets/directboost.yaml``, its notebooks
``notebooks/directboost-*.md``, its chapter ``book/directboost.md``.
"""

from .._paper import PaperProtocol

PAPER = PaperProtocol(
    "directboost",
    4,
    ("table1", "table2", "table3", "table4", "figures1-2", "figure3", "checks"),
    "zhai2013direct",
    ("DirectBoost", "AdaBoost", "LogitBoost", "LPBoost", "BrownBoost"),
    (
        "table1:table1_cells",
        "table1:choices_cells",
        "table1:lpboost_tolerance_cells",
        "table1:file_coding_cells",
        "noise:table3_cells",
        "noise:table4_cells",
        "reruns:capped_rerun_cells",
        "figure3:figure3_cells",
    ),
)
