"""Duality of margin-based boosting: conjugates, entropies and primal/dual checks.

Submodules
----------
conjugates
    Fenchel conjugates computed numerically, the log-sum-exp conjugate (Shen & Li,
    Proposition 3.1) and checks of closed forms.
entropy
    Shannon, binary relative and Tsallis entropies, the regularizers of the duals in
    Shen & Li (2010), Table I.
pairs_adaboost, pairs_lpboost, pairs_logit, pairs_mcboost
    The primal/dual pairs and their numerical checks.  ``pairs_adaboost`` and
    ``pairs_lpboost`` gather the names of two modules each: ``pairs_adaboost_problems`` and
    ``pairs_lpboost_problems`` build the cvxpy problems, ``pairs_adaboost_verify`` and
    ``pairs_lpboost_verify`` solve them and check the duality.

Each submodule defines ``__all__``; the names are re-exported here so that
``from marginboost.duality import lse_conjugate`` works.  Modules holding primal/dual pairs
add their public names in the same way.
"""

from __future__ import annotations

from . import (  # noqa: F401 - the submodules are part of the namespace
    conjugates,
    entropy,
    pairs_adaboost,
    pairs_logit,
    pairs_lpboost,
    pairs_mcboost,
)
from ._common import DualitySolverError, VerifyResult
from .conjugates import (
    check_conjugate,
    check_lse_conjugate,
    log_sum_exp,
    lse_conjugate,
    numeric_conjugate,
    numeric_conjugate_vector,
)
from .entropy import binary_relative_entropy, q_logarithm, shannon_entropy, tsallis_entropy
from .pairs_adaboost import *  # noqa: F403
from .pairs_logit import *  # noqa: F403
from .pairs_lpboost import *  # noqa: F403
from .pairs_mcboost import *  # noqa: F403

__all__ = [
    # conjugates
    "log_sum_exp",
    "lse_conjugate",
    "numeric_conjugate",
    "numeric_conjugate_vector",
    "check_conjugate",
    "check_lse_conjugate",
    # entropies
    "shannon_entropy",
    "binary_relative_entropy",
    "tsallis_entropy",
    "q_logarithm",
    # primal/dual pairs
    "VerifyResult",
    "DualitySolverError",
    *pairs_adaboost.__all__,
    *pairs_lpboost.__all__,
    *pairs_logit.__all__,
    *pairs_mcboost.__all__,
]
