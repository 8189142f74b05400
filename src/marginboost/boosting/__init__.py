"""Boosting estimators, grouped by how they optimize.

* Stage-wise (:mod:`~marginboost.boosting.stagewise` gathers them): the AnyBoost engine (Mason
  et al. 1999; the loop in :mod:`~marginboost.boosting._engine`) and its members, in
  :mod:`~marginboost.boosting.anyboost` (AnyBoost), :mod:`~marginboost.boosting.adaboost`
  (AdaBoost, RealAdaBoost, MadaBoost), :mod:`~marginboost.boosting.arcing` (Arc-Gv, ARC-x4),
  :mod:`~marginboost.boosting.least_squares` (LogitBoost, L2Boost) and
  :mod:`~marginboost.boosting.doom` (DOOM II).
* Totally-corrective column generation (:mod:`~marginboost.boosting.corrective` gathers them;
  the loop in :mod:`~marginboost.boosting.column_generation`):
  :mod:`~marginboost.boosting.lpboost` (LPBoost; ERLPBoost, Warmuth, Glocer & Vishwanathan
  2008), :mod:`~marginboost.boosting.adaboost_cg` (AdaBoost-CG, LogitBoost-CG; Shen & Li 2010)
  and :mod:`~marginboost.boosting.margin_distribution` (generalized-hinge LPBoost, Shen & Li
  2010; MCBoost, Guo & Chen; MDBoost, Shen & Li 2010b).  Their restricted masters are in the
  ``_master_*`` modules, gathered by :mod:`~marginboost.boosting._masters`.
* :mod:`~marginboost.boosting.fixed_pool`: fixed-pool methods (AdaBoost-l1, AdaBoost-QP).
* :mod:`~marginboost.boosting.brownboost`: BrownBoost (Freund 2001), boosting with a time budget
  (its step solver in :mod:`~marginboost.boosting._brownboost_solver`).
* Multi-class boosting with multi-class trees (:mod:`~marginboost.boosting.multiclass` gathers
  them): :mod:`~marginboost.boosting.samme` (AdaBoost.M1, Freund & Schapire 1997; SAMME, Zhu et
  al. 2009), :mod:`~marginboost.boosting.adaboost_mh` (AdaBoost.MH, Schapire & Singer 1999) and
  :mod:`~marginboost.boosting.gdmcboost` (GD-MCBoost, Saberian & Vasconcelos 2011).
* :mod:`~marginboost.boosting.directboost`: DirectBoost (Zhai, Xia, Tan & Wang 2013), direct
  0-1 loss and margin optimization with direct trees.
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
from .fixed_pool import AdaBoostL1, AdaBoostQP
from .multiclass import SAMME, AdaBoostM1, AdaBoostMH, GDMCBoost, NotBoostedWarning
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
