"""Boosting estimators, grouped by how they optimize.

* :mod:`~marginboost.boosting.stagewise`: the AnyBoost engine (Mason et al. 1999) and its
  members AdaBoost, Arc-Gv, ARC-x4, RealAdaBoost, LogitBoost, DOOM II, L2Boost and MadaBoost.
"""
from __future__ import annotations

from .stagewise import (AdaBoost, AnyBoost, ArcGv, ArcX4, DoomII, L2Boost, LogitBoost, MadaBoost,
                        RealAdaBoost)

__all__ = ["AnyBoost", "AdaBoost", "ArcGv", "ArcX4", "RealAdaBoost", "LogitBoost", "DoomII",
           "L2Boost", "MadaBoost"]
