"""marginboost: margin-based boosting, its duality theory, and reproductions of five papers.

The estimators follow scikit-learn's conventions (``fit``, ``predict``, ``decision_function``,
``staged_decision_function``, ``score``) and expose what the papers study: ``alphas_``,
``estimators_``, the per-round ``history_`` and ``margins(X, y)``.  See the book (``make book``)
for the narrative and the reproductions.

The estimators are imported lazily, so ``import marginboost`` (and the command line) does not
load numba until an estimator is used.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

__version__ = "0.1.0"

# numba's OpenMP threads otherwise spin-wait between the many short parallel regions of a
# boosting run and compete with the main thread for the cores; on small machines that costs
# stalls of ~0.1 s per round (measured on 2 cores: median 10 ms vs. frequent 100-130 ms rounds).
# Passive waiting must be chosen before libgomp loads; an explicit user setting is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

#: Public estimator name -> module it is imported from (the estimators of ``stagewise``,
#: ``corrective`` and ``multiclass`` are defined in one module per family, which those re-export).
_ESTIMATORS = {
    name: "marginboost.boosting.stagewise"
    for name in (
        "AnyBoost",
        "AdaBoost",
        "ArcGv",
        "ArcX4",
        "RealAdaBoost",
        "LogitBoost",
        "DoomII",
        "L2Boost",
        "MadaBoost",
    )
}
_ESTIMATORS |= {
    name: "marginboost.boosting.corrective"
    for name in (
        "LPBoost",
        "ERLPBoost",
        "HingeLPBoost",
        "AdaBoostCG",
        "LogitBoostCG",
        "MCBoost",
        "MDBoost",
    )
}
_ESTIMATORS |= {name: "marginboost.boosting.fixed_pool" for name in ("AdaBoostL1", "AdaBoostQP")}
_ESTIMATORS |= {
    name: "marginboost.boosting.multiclass"
    for name in ("AdaBoostM1", "SAMME", "AdaBoostMH", "GDMCBoost")
}
_ESTIMATORS |= {
    "BrownBoost": "marginboost.boosting.brownboost",
    "DirectBoost": "marginboost.boosting.directboost",
    "DMCBoost": "marginboost.boosting.dmcboost",
}

__all__ = ["__version__", *_ESTIMATORS]


def __getattr__(name: str) -> Any:
    if name in _ESTIMATORS:
        value = getattr(importlib.import_module(_ESTIMATORS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'marginboost' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_ESTIMATORS))
