r"""AdaBoost with an :math:`\ell_1` constraint and its entropy-regularized duals (Shen & Li 2010).

Pairs (equation numbers of Shen & Li, TPAMI 2010):

* primal (5) :math:`\min_w \log\sum_i \exp(-y_i H_i w)` s.t. :math:`w \ge 0, 1^\top w = 1/T`;
* Shannon dual (10) :math:`\max_{r,u} r/T - \sum_i u_i\log u_i` s.t.
  :math:`\sum_i u_i y_i H_{ij} \le -r\ \forall j`, :math:`u` on the simplex (Theorem 3.1);
* unnormalized pair: primal :math:`\min_w \sum_i \exp(-y_i H_i w)` with the same constraints and
  dual (14) :math:`\max_{r,u} r/T - \sum_i u_i\log u_i + 1^\top u` (``u >= 0`` only);
* LPBoost form (15): :math:`\min_{r,u} r + T\sum_i u_i\log u_i` s.t. edges :math:`\le r`,
  :math:`u` on the simplex, with :math:`\mathrm{Opt}(15) = -T\,\mathrm{Opt}(5)`;
* Gibbs free energy (16)-(18).

KKT map (24): :math:`u^*_i = \mathrm{softmax}(-A w^*)_i`, the sample weights of AdaBoost;
back map (25): margins :math:`A w^* = -\log u^* - \mathrm{Opt}(5)`.

The pairs live in two modules, whose names this module re-exports:
:mod:`~marginboost.duality.pairs_adaboost_problems` builds the cvxpy problems and holds the
closed-form maps between their optima, :mod:`~marginboost.duality.pairs_adaboost_verify` solves
them and checks the duality numerically (the ``verify_*`` functions,
:func:`zero_temperature_limit`).
"""

from __future__ import annotations

from .pairs_adaboost_problems import (  # noqa: F401 - the private helpers, importable as before
    Problem,
    _temperature,
    adaboost_margins_from_dual,
    adaboost_weights_from_primal,
    build_adaboost_l1_dual,
    build_adaboost_l1_primal,
    build_adaboost_lpboost_form_dual,
    build_adaboost_unnormalized_dual,
    build_adaboost_unnormalized_primal,
    build_gibbs_minimax,
    build_gibbs_problem,
    gibbs_distribution,
    gibbs_free_energy,
    lpboost_form_r_star,
)
from .pairs_adaboost_verify import (  # noqa: F401 - the private helpers, importable as before
    _dual_violation,
    _slackness,
    _solve_primal_5,
    verify_adaboost_l1,
    verify_adaboost_lpboost_form,
    verify_adaboost_unnormalized,
    verify_gibbs_free_energy,
    zero_temperature_limit,
)

__all__ = [
    "build_adaboost_l1_primal",
    "build_adaboost_l1_dual",
    "build_adaboost_unnormalized_primal",
    "build_adaboost_unnormalized_dual",
    "build_adaboost_lpboost_form_dual",
    "adaboost_weights_from_primal",
    "adaboost_margins_from_dual",
    "lpboost_form_r_star",
    "gibbs_free_energy",
    "gibbs_distribution",
    "build_gibbs_problem",
    "build_gibbs_minimax",
    "verify_adaboost_l1",
    "verify_adaboost_unnormalized",
    "verify_adaboost_lpboost_form",
    "verify_gibbs_free_energy",
    "zero_temperature_limit",
]
