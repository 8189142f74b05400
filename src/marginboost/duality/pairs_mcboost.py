r"""MCBoost (Guo & Chen): margin-distribution QP and its Lagrange dual.

Equation numbers of the MCBoost paper, :math:`\rho = Aw` the margins, :math:`A = \mathrm{diag}(y)H`:

* primal (12): :math:`\min_{w} \rho^\top\rho - 2E\,1^\top\rho` s.t. :math:`1^\top w = 1,\ w \ge 0`
  (the margin-variance objective (8) :math:`\sum_i(\rho_i - E)^2` minus the constant :math:`ME^2`);
* dual (19): :math:`\min_{r,u} r + \tfrac14 (u - 2E1)^\top(u - 2E1)` s.t.
  :math:`\sum_i u_i y_i H_{ij} \le r\ \forall j` (16), ``u`` free in sign;
  :math:`\mathrm{Opt}(12) = -\mathrm{Opt}(19)`;
* KKT (17): :math:`u^* = 2(E1 - \rho^*)`; complementary slackness gives :math:`r^* = u^{*\top}\rho^*`.
"""
from __future__ import annotations

from typing import Any

import cvxpy as cp
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._common import (
    VerifyResult,
    check_instance,
    check_positive,
    relative_gap,
    simplex_violation,
    solve_problem,
    value_of,
)

__all__ = ["build_mcboost_primal", "build_mcboost_dual", "mcboost_weights_from_margins",
           "mcboost_margins_from_weights", "verify_mcboost"]

Problem = tuple[cp.Problem, dict[str, cp.Variable]]


def _target(E: float) -> float:
    return check_positive(E, "E", meaning="the target margin of MCBoost")


def build_mcboost_primal(H: ArrayLike, y: ArrayLike, E: float) -> Problem:
    r"""Primal (12): :math:`\min \|Aw\|^2 - 2E1^\top Aw` s.t. :math:`w \ge 0,\ 1^\top w = 1`."""
    _, _, A = check_instance(H, y)
    E = _target(E)
    w = cp.Variable(A.shape[1], name="w")
    rho = A @ w
    problem = cp.Problem(cp.Minimize(cp.sum_squares(rho) - 2.0 * E * cp.sum(rho)),
                         [w >= 0, cp.sum(w) == 1])
    return problem, {"w": w}


def build_mcboost_dual(H: ArrayLike, y: ArrayLike, E: float) -> Problem:
    r"""Dual (19): :math:`\min r + \frac14\|u - 2E1\|^2` s.t. :math:`A^\top u \le r` (``u`` free)."""
    _, _, A = check_instance(H, y)
    E = _target(E)
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    problem = cp.Problem(cp.Minimize(r + cp.sum_squares(u - 2.0 * E) / 4.0), [A.T @ u <= r])
    return problem, {"u": u, "r": r}


def mcboost_weights_from_margins(margins: ArrayLike, E: float) -> NDArray[np.float64]:
    r"""KKT map (17): :math:`u = 2(E - \rho)` (negative where the margin exceeds ``E``)."""
    return 2.0 * (_target(E) - np.asarray(margins, dtype=np.float64))


def mcboost_margins_from_weights(u: ArrayLike, E: float) -> NDArray[np.float64]:
    r"""Inverse of (17): :math:`\rho = E - u/2`."""
    return _target(E) - np.asarray(u, dtype=np.float64) / 2.0


def verify_mcboost(H: ArrayLike, y: ArrayLike, E: float, solver: str = "CLARABEL",
                   solver_options: dict[str, Any] | None = None) -> VerifyResult:
    r"""Solve MCBoost's primal (12) and dual (19); :math:`\mathrm{Opt}(12) = -\mathrm{Opt}(19)`.

    Parameters
    ----------
    H, y : array_like
        Weak-learner outputs (M x N, rows are examples) and labels in ``{-1, +1}``.
    E : float
        Target margin, ``E > 0``.
    solver, solver_options
        cvxpy solver name and options.

    Returns
    -------
    VerifyResult
        ``gap`` compares ``primal`` with ``-dual``.  ``kkt_residual`` is the largest of
        :math:`\|u^* - 2(E - \rho^*)\|_\infty` (17), the column complementary slackness
        :math:`|\sum_j w^*_j(r^* - (A^\top u^*)_j)|` and :math:`|r^* - u^{*\top}\rho^*|`.
        Compare margins ``extras["margins"]`` across solvers, not ``w`` (unique only when the
        active columns are linearly independent).
    """
    _, _, A = check_instance(H, y)
    E = _target(E)
    ones = np.ones(A.shape[0])
    problem, variables = build_mcboost_primal(A, ones, E)
    primal = solve_problem(problem, solver, "MCBoost primal (12)", solver_options)
    w = value_of(variables["w"])
    problem, variables = build_mcboost_dual(A, ones, E)
    dual = solve_problem(problem, solver, "MCBoost dual (19)", solver_options)
    u, r = value_of(variables["u"]), float(value_of(variables["r"]))
    margins = A @ w
    mapped = mcboost_weights_from_margins(margins, E)
    kkt = max(float(np.max(np.abs(u - mapped))),
              abs(float(np.clip(w, 0.0, None) @ (r - A.T @ u))), abs(r - float(u @ margins)))
    violation = max(simplex_violation(w, 1.0), float(np.max(A.T @ u - r)), 0.0)
    return VerifyResult("MCBoost (12)/(19)", primal, dual, relative_gap(primal, -dual), kkt,
                        violation, {"w": w}, {"u": u, "r": np.asarray(r)}, solver,
                        {"u_from_primal": mapped, "margins": margins})
