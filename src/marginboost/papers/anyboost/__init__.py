"""Mason, Baxter, Bartlett & Frean (1999), *Boosting algorithms as gradient descent*: its protocol, its claims and its registry entry.

- :mod:`.protocol` — the grids of its tables and figures and the cell functions that compute them;
- :mod:`.claims` — each claim of the paper as a predicate over the committed results;
- ``PAPER`` — what the registry (:mod:`marginboost.papers`) knows of it.

Its targets (the paper's printed numbers) are ``data/targets/anyboost.yaml``, its notebooks
``notebooks/anyboost-*.md``, its chapter ``book/anyboost.md``.
"""

from .._paper import PaperProtocol

PAPER = PaperProtocol(
    "anyboost",
    1,
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
    (
        "protocol:figure1_cells",
        "protocol:figure2_cells",
        "protocol:figure3_cells",
        "protocol:rounds_sensitivity_cells",
    ),
)
