r"""LPBoost and its soft-margin variants as primal/dual pairs (Shen & Li 2010, Sec. 3.2-3.3).

* hard margin (19)/(20): :math:`\max_{w\in\Delta}\min_i (Aw)_i` = :math:`\min_{u\in\Delta}\max_j (A^\top u)_j`;
* soft margin (21)/(22): :math:`\max \varrho - D1^\top\xi` s.t. :math:`Aw \ge \varrho - \xi`,
  dual caps :math:`0 \le u_i \le D` (feasible iff :math:`D \ge 1/M`);
* squared hinge (27): :math:`\max \varrho - D\sum\xi_i^2`, dual :math:`\min r + \frac{1}{4D}\sum u_i^2`;
* generalized hinge (28): :math:`\max \varrho - D\sum\xi_i^p` (``p > 1``), Tsallis-type dual
  :math:`\min r + D^{1-q}(p^{1-q} - p^{-q})\sum u_i^q` with :math:`1/p + 1/q = 1`.

Here :math:`A = \mathrm{diag}(y)H`, :math:`\Delta` the probability simplex.  The Shalev-Shwartz &
Singer identity (:func:`bottom_average_identity`): with :math:`D = 1/n'` the soft-margin optimum
is the largest achievable average of the :math:`n'` smallest margins.

The pairs live in two modules, whose names this module re-exports:
:mod:`~marginboost.duality.pairs_lpboost_problems` builds the cvxpy primal and dual problems,
:mod:`~marginboost.duality.pairs_lpboost_verify` solves them and checks the duality numerically
(the ``verify_*`` functions, :func:`bottom_average_identity`, :func:`tsallis_shannon_gaps`).
"""

from __future__ import annotations

from .pairs_lpboost_problems import (  # noqa: F401 - the private helpers, importable as before
    Problem,
    _exponent,
    _simplex_dual,
    _simplex_primal,
    _soft_margin_D,
    build_generalized_hinge_dual,
    build_generalized_hinge_primal,
    build_hard_margin_dual,
    build_hard_margin_primal,
    build_soft_margin_dual,
    build_soft_margin_primal,
    build_squared_hinge_dual,
    build_squared_hinge_primal,
    tsallis_dual_constant,
)
from .pairs_lpboost_verify import (  # noqa: F401 - the private helpers, importable as before
    BottomAverageResult,
    _column_slackness,
    _lp_violations,
    _points,
    _solve_pair,
    bottom_average_identity,
    tsallis_shannon_gaps,
    verify_generalized_hinge_lpboost,
    verify_hard_margin_lpboost,
    verify_soft_margin_lpboost,
    verify_squared_hinge_lpboost,
)

__all__ = [
    "build_hard_margin_primal",
    "build_hard_margin_dual",
    "build_soft_margin_primal",
    "build_soft_margin_dual",
    "build_squared_hinge_primal",
    "build_squared_hinge_dual",
    "build_generalized_hinge_primal",
    "build_generalized_hinge_dual",
    "tsallis_dual_constant",
    "verify_hard_margin_lpboost",
    "verify_soft_margin_lpboost",
    "verify_squared_hinge_lpboost",
    "verify_generalized_hinge_lpboost",
    "BottomAverageResult",
    "bottom_average_identity",
    "tsallis_shannon_gaps",
]
