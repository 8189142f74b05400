"""Guo & Chen, *Margin distribution controlled boosting*: its protocol, its claims and its registry entry.

- :mod:`.protocol` — the grids of its tables and figures and the cell functions that compute them;
- :mod:`.claims` — each claim of the paper as a predicate over the committed results;
- ``PAPER`` — what the registry (:mod:`marginboost.papers`) knows of it.

Its targets (the paper's printed numbers) are ``data/targets/mcboost.yaml``, its notebooks
``notebooks/mcboost-*.md``, its chapter ``book/mcboost.md``.
"""

from .._paper import PaperProtocol

PAPER = PaperProtocol(
    "mcboost",
    3,
    ("table1-2", "figure1", "figure2", "figures3-4"),
    "guo2013mcboost",
    ("MCBoost", "MDBoost", "LPBoost", "AdaBoostCG", "AdaBoost", "L2Boost"),
    (
        "protocol:table1_cells",
        "figures:figure1_cells",
        "figures:figure2_cells",
    ),
)
