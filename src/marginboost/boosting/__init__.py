"""Boosting estimators, grouped by how they optimize.

* :mod:`~marginboost.boosting.stagewise`: the AnyBoost engine (Mason et al. 1999) and its
  members AdaBoost, Arc-Gv, ARC-x4, RealAdaBoost, LogitBoost, DOOM II, L2Boost and MadaBoost.
* :mod:`~marginboost.boosting.corrective`: totally-corrective column generation (LPBoost,
  AdaBoost-CG, LogitBoost-CG, generalized-hinge LPBoost; Shen & Li 2010), ERLPBoost (Warmuth,
  Glocer & Vishwanathan 2008), MCBoost (Guo & Chen) and MDBoost (Shen & Li 2010b).
* :mod:`~marginboost.boosting.pool`: fixed-pool methods (AdaBoost-l1, AdaBoost-QP).
* :mod:`~marginboost.boosting.brownboost`: BrownBoost (Freund 2001), boosting with a time budget.
* :mod:`~marginboost.boosting.multiclass`: multi-class boosting with multi-class trees
  (AdaBoost.M1, Freund & Schapire 1997; SAMME, Zhu et al. 2009), AdaBoost.MH (Schapire &
  Singer 1999) and GD-MCBoost (Saberian & Vasconcelos 2011).
* :mod:`~marginboost.boosting.dmcboost`: DMCBoost (Zhai, Xia & Wang 2014), direct 0-1 loss
  and margin optimization with multi-class direct trees.
"""

from __future__ import annotations

from ._base import NoEdgeError
from ._masters import solve_lpboost_primal
from .brownboost import BrownBoost
from .corrective import (
    AdaBoostCG,
    ColumnGenerationError,
    ERLPBoost,
    HingeLPBoost,
    LogitBoostCG,
    LPBoost,
    MCBoost,
    MDBoost,
    adaboost_T_heuristic,
)
from .dmcboost import DMCBoost, PhaseTwoWarning
from .multiclass import SAMME, AdaBoostM1, AdaBoostMH, GDMCBoost, NotBoostedWarning
from .pool import AdaBoostL1, AdaBoostQP
from .stagewise import (
    AdaBoost,
    AnyBoost,
    ArcGv,
    ArcX4,
    DoomII,
    L2Boost,
    LogitBoost,
    MadaBoost,
    RealAdaBoost,
)

__all__ = [
    "AnyBoost",
    "AdaBoost",
    "ArcGv",
    "ArcX4",
    "RealAdaBoost",
    "LogitBoost",
    "DoomII",
    "L2Boost",
    "MadaBoost",
    "LPBoost",
    "ERLPBoost",
    "HingeLPBoost",
    "AdaBoostCG",
    "LogitBoostCG",
    "AdaBoostL1",
    "AdaBoostQP",
    "ColumnGenerationError",
    "adaboost_T_heuristic",
    "solve_lpboost_primal",
    "BrownBoost",
    "MCBoost",
    "MDBoost",
    "AdaBoostM1",
    "SAMME",
    "AdaBoostMH",
    "GDMCBoost",
    "DMCBoost",
    "NotBoostedWarning",
    "PhaseTwoWarning",
    "NoEdgeError",
]
