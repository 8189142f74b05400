"""DirectBoost (Zhai, Xia, Tan & Wang 2013): direct 0-1 loss minimization, then margin
maximization, with direct trees.

A fit reads top-down: :mod:`.estimator` (:class:`DirectBoost` and the paper's variants) runs
the two phases on one typed training state (:mod:`.state`); each round grows a direct tree on the phase's objective (:mod:`.objectives`:
:class:`ZeroOneObjective`, :class:`MarginObjective`), whose numba kernels are
:mod:`._phase1_kernels` and :mod:`._phase2_kernels` (on :mod:`~marginboost.boosting._direct_common`
and :mod:`~marginboost.boosting._segment_tree`, shared with DMCBoost).  :mod:`.line_search` has
the exact one-dimensional searches in plain form (Algorithm 1's sweep, the bottom-:math:`n'`
average and order margins).
"""

from .estimator import VARIANTS, DirectBoost, directboost_variant, directboost_variants
from .line_search import (
    LineSearchResult,
    MarginSearchResult,
    StumpStep,
    best_stump_zero_one,
    bottom_average_line_search,
    bottom_margin_average_at,
    order_margin,
    zero_error_end,
    zero_one_error_at,
    zero_one_line_search,
)
from .objectives import MarginObjective, ZeroOneObjective, margin_objective

# in the order of a fit: the estimator, the objectives of its phases, the plain searches
__all__ = [
    "DirectBoost",
    "VARIANTS",
    "directboost_variant",
    "directboost_variants",
    "ZeroOneObjective",
    "MarginObjective",
    "margin_objective",
    "best_stump_zero_one",
    "bottom_average_line_search",
    "bottom_margin_average_at",
    "LineSearchResult",
    "MarginSearchResult",
    "order_margin",
    "StumpStep",
    "zero_error_end",
    "zero_one_error_at",
    "zero_one_line_search",
]
