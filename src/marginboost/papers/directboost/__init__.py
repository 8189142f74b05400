"""Zhai, Xia, Tan & Wang (2013), *Direct 0-1 loss minimization and margin maximization with boosting*: its protocol, its claims and its registry entry.

- :mod:`.protocol` — the grids of its tables and figures and the cell functions that compute them;
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
        "protocol:table1_cells",
        "protocol:choices_cells",
        "protocol:lpboost_tolerance_cells",
        "protocol:file_coding_cells",
        "protocol:table3_cells",
        "protocol:table4_cells",
        "protocol:capped_rerun_cells",
        "protocol:figure3_cells",
    ),
)
