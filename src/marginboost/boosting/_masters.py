r"""Restricted master problems of totally-corrective boosting (Shen & Li 2010, Sec. 3).

Every solver takes the matrix :math:`A_{ij} = y_i h_j(x_i)` of the columns selected so far
(shape ``(M, J)``) and returns a :class:`MasterSolution`: the primal hypothesis weights ``w``,
the dual example weights ``u`` (the weights handed to the weak learner next), the dual
variable ``r`` (the largest edge :math:`\max_j (A^\top u)_j` allowed by the dual constraints)
and the optimal value.

* :class:`LPBoostMaster`: the LP duals (20) (hard margin) and (22) (soft margin,
  :math:`0 \le u_i \le D`) kept in a HiGHS model (``highspy``) that grows by one edge
  constraint per column and is re-solved by the dual simplex method from the last optimal
  basis; ``w`` are the multipliers of the edge constraints.  :func:`solve_lpboost_dual` is
  its one-shot (cold) form.
* :func:`solve_lpboost_primal`: the primal LPs (19)/(21), used to check strong duality.
* :func:`solve_simplex_smooth`: a projected accelerated gradient method (FISTA with function
  restarts and backtracking) for a smooth convex loss over the scaled simplex
  :math:`\{w \ge 0, \mathbf 1^\top w = 1/T\}`, stopped by the Frank-Wolfe duality gap.  It
  solves the AdaBoost-:math:`\ell_1` primal (5) (:func:`solve_adaboost_l1`) and the LogitBoost
  primal (32) (:func:`solve_logitboost`); the duals (15)/(31) follow from the KKT conditions
  (24)/(33).
* :func:`solve_hinge_dual`: the generalized-hinge dual (27)/(28) with cvxpy (Clarabel).
* :func:`solve_adaboost_qp`: AdaBoost-QP (41) with :func:`solve_simplex_smooth` (FISTA, and the
  QP's exact Hessian for its Newton polish).

The masters live in one module per family; this module gathers them under their old names
(the column-generation estimators call them as ``_masters.solve_...``):

* :mod:`~marginboost.boosting._master_solution`: :class:`MasterSolution`,
  :class:`MasterSolverError` and the checks of the inputs;
* :mod:`~marginboost.boosting._master_lp`: :class:`LPBoostMaster`, :func:`solve_lpboost_dual`,
  :func:`solve_lpboost_primal`;
* :mod:`~marginboost.boosting._master_smooth`: :func:`solve_simplex_smooth` and
  :func:`project_scaled_simplex`;
* :mod:`~marginboost.boosting._master_entropy`: :func:`solve_adaboost_l1`,
  :func:`solve_logitboost` and ERLPBoost's :func:`solve_erlpboost`;
* :mod:`~marginboost.boosting._master_quadratic`: :func:`solve_hinge_dual`,
  :func:`solve_adaboost_qp`, :func:`solve_mcboost` and :func:`solve_mdboost`.
"""

from __future__ import annotations

from ._master_entropy import capped_softmax as capped_softmax
from ._master_entropy import relative_entropy_to_uniform as relative_entropy_to_uniform
from ._master_entropy import solve_adaboost_l1, solve_logitboost
from ._master_entropy import solve_erlpboost as solve_erlpboost
from ._master_lp import _LINPROG_STATUS as _LINPROG_STATUS
from ._master_lp import LPBoostMaster, solve_lpboost_dual, solve_lpboost_primal
from ._master_lp import _most_frequent as _most_frequent
from ._master_lp import _new_highs as _new_highs
from ._master_quadratic import _solve_cvxpy as _solve_cvxpy
from ._master_quadratic import solve_adaboost_qp, solve_hinge_dual
from ._master_quadratic import solve_mcboost as solve_mcboost
from ._master_quadratic import solve_mdboost as solve_mdboost
from ._master_smooth import _newton_polish as _newton_polish
from ._master_smooth import _single_blas_thread as _single_blas_thread
from ._master_smooth import project_scaled_simplex, solve_simplex_smooth
from ._master_solution import FloatArray as FloatArray
from ._master_solution import MasterSolution, MasterSolverError
from ._master_solution import _check_matrix as _check_matrix
from ._master_solution import _check_T as _check_T

__all__ = [
    "MasterSolution",
    "MasterSolverError",
    "LPBoostMaster",
    "solve_lpboost_dual",
    "solve_lpboost_primal",
    "solve_simplex_smooth",
    "solve_adaboost_l1",
    "solve_logitboost",
    "solve_hinge_dual",
    "solve_adaboost_qp",
    "project_scaled_simplex",
]
