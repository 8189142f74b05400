"""DMCBoost (Zhai, Xia & Wang, KDD 2014): direct multi-class boosting in two phases.

A fit reads top-down: :mod:`.estimator` (:class:`DMCBoost`) runs phase I and phase II (and a
path of :math:`n'` values, saved in parts by :mod:`.checkpoint`'s :class:`PathCheckpoint`) on
one typed training state (:mod:`.state`);
each round grows a multi-class direct tree on the phase's objective (:mod:`.objectives`:
:class:`ZeroOneTreeObjective`, :class:`MarginSlopeObjective`) and steps along it with the exact
one-dimensional searches of :mod:`.search`.  The numba kernels are :mod:`._phase1_kernels`,
:mod:`._phase1_split_kernels` and :mod:`._phase2_kernels` (on
:mod:`~marginboost.boosting._direct_common` and :mod:`~marginboost.boosting._segment_tree`,
shared with DirectBoost).
"""

from .checkpoint import PathCheckpoint
from .estimator import DMCBoost, PhaseTwoWarning
from .objectives import MarginSlopeObjective, ZeroOneTreeObjective

__all__ = [
    "DMCBoost",
    "PhaseTwoWarning",
    "ZeroOneTreeObjective",
    "MarginSlopeObjective",
    "PathCheckpoint",
]
