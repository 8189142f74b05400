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

__all__ = [
    "build_mcboost_primal",
    "build_mcboost_dual",
    "mcboost_weights_from_margins",
    "mcboost_margins_from_weights",
    "verify_mcboost",
]

Problem = tuple[cp.Problem, dict[str, cp.Variable]]


def _target(E: float) -> float:
    return check_positive(E, "E", meaning="the target margin of MCBoost")


def build_mcboost_primal(H: ArrayLike, y: ArrayLike, E: float) -> Problem:
    r"""Primal (12): :math:`\min \|Aw\|^2 - 2E1^\top Aw` s.t. :math:`w \ge 0,\ 1^\top w = 1`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    E : float
        Target margin, ``E > 0``.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"w"``.

    Notes
    -----
    Guo & Chen, eq. (12): with the margins :math:`\rho = Aw` of normalized weights,

    .. math:: \min_w\ \rho^\top\rho - 2E\,1^\top\rho \quad\text{s.t.}\quad w \ge 0,\
              1^\top w = 1,

    the margin-distribution objective (8) :math:`\sum_i (\rho_i - E)^2` minus the constant
    :math:`ME^2` (see :func:`marginboost.margins.margin_bias_variance`).  Its dual is (19).

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript,
    Nanjing University of Aeronautics and Astronautics.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_mcboost_primal
    >>> problem, variables = build_mcboost_primal(H, y, E=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    -0.6667
    """
    _, _, A = check_instance(H, y)
    E = _target(E)
    w = cp.Variable(A.shape[1], name="w")
    rho = A @ w
    problem = cp.Problem(
        cp.Minimize(cp.sum_squares(rho) - 2.0 * E * cp.sum(rho)), [w >= 0, cp.sum(w) == 1]
    )
    return problem, {"w": w}


def build_mcboost_dual(H: ArrayLike, y: ArrayLike, E: float) -> Problem:
    r"""Dual (19): :math:`\min r + \frac14\|u - 2E1\|^2` s.t. :math:`A^\top u \le r` (``u`` free).

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    E : float
        Target margin, ``E > 0``.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"`` (shape (M,)) and ``"r"`` (scalar).

    Notes
    -----
    Guo & Chen, eqs. (16)-(19): the Lagrange dual of (12),

    .. math:: \min_{r,u}\ r + \tfrac14 (u - 2E1)^\top(u - 2E1) \quad\text{s.t.}\quad
              \sum_i u_i y_i H_{ij} \le r\ \ \forall j,

    with :math:`u` free in sign (negative for examples whose margin exceeds :math:`E`) and
    :math:`\mathrm{Opt}(12) = -\mathrm{Opt}(19)`.  KKT (17): :math:`u^* = 2(E1 - \rho^*)`.

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript,
    Nanjing University of Aeronautics and Astronautics.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_mcboost_dual
    >>> problem, variables = build_mcboost_dual(H, y, E=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.6667
    >>> np.round(variables["u"].value, 3).tolist()
    [0.333, 0.333, 0.333, -1.0]
    """
    _, _, A = check_instance(H, y)
    E = _target(E)
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    problem = cp.Problem(cp.Minimize(r + cp.sum_squares(u - 2.0 * E) / 4.0), [A.T @ u <= r])
    return problem, {"u": u, "r": r}


def mcboost_weights_from_margins(margins: ArrayLike, E: float) -> NDArray[np.float64]:
    r"""KKT map (17): :math:`u = 2(E - \rho)` (negative where the margin exceeds ``E``).

    Parameters
    ----------
    margins : array_like
        Margins :math:`\rho = Aw` of normalized weights.
    E : float
        Target margin, ``E > 0``.

    Returns
    -------
    ndarray
        :math:`u = 2(E - \rho)`, same shape.

    Notes
    -----
    Guo & Chen, eq. (17): stationarity of the Lagrangian (13) in :math:`\rho` gives
    :math:`\rho = -(u - 2E1)/2`.  The dual weight of an example is twice its shortfall from
    the target margin.

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript,
    Nanjing University of Aeronautics and Astronautics.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import mcboost_weights_from_margins
    >>> np.round(mcboost_weights_from_margins([1 / 3, 1.0], E=0.5), 4).tolist()
    [0.3333, -1.0]
    """
    return 2.0 * (_target(E) - np.asarray(margins, dtype=np.float64))


def mcboost_margins_from_weights(u: ArrayLike, E: float) -> NDArray[np.float64]:
    r"""Inverse of (17): :math:`\rho = E - u/2`.

    Parameters
    ----------
    u : array_like
        Dual weights of (19).
    E : float
        Target margin, ``E > 0``.

    Returns
    -------
    ndarray
        The margins :math:`\rho = E - u/2`, same shape.

    Notes
    -----
    Guo & Chen, eq. (17) solved for the margins.

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript,
    Nanjing University of Aeronautics and Astronautics.

    Examples
    --------
    >>> from marginboost.duality import mcboost_margins_from_weights
    >>> mcboost_margins_from_weights([0.0, -1.0], E=0.5).tolist()
    [0.5, 1.0]
    """
    return _target(E) - np.asarray(u, dtype=np.float64) / 2.0


def verify_mcboost(
    H: ArrayLike,
    y: ArrayLike,
    E: float,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> VerifyResult:
    r"""Solve MCBoost's primal (12) and dual (19); :math:`\mathrm{Opt}(12) = -\mathrm{Opt}(19)`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    E : float
        Target margin, ``E > 0``.
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    VerifyResult
        ``gap`` compares ``primal`` with ``-dual``.  ``kkt_residual`` is the largest of
        :math:`\|u^* - 2(E - \rho^*)\|_\infty` (17), the column complementary slackness
        :math:`|\sum_j w^*_j(r^* - (A^\top u^*)_j)|` and :math:`|r^* - u^{*\top}\rho^*|`.
        ``extras`` holds ``u_from_primal`` and ``margins``.  Compare the margins
        ``extras["margins"]`` across solvers, not ``w`` (unique only when the active columns
        are linearly independent).

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Guo & Chen, Sec. 4, eqs. (12)-(19): (12) is a convex QP satisfying Slater's condition, so
    strong duality holds; complementary slackness on the columns with positive weight gives
    :math:`r^* = u^{*\top}\rho^*`.

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript,
    Nanjing University of Aeronautics and Astronautics.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import verify_mcboost
    >>> result = verify_mcboost(H, y, E=0.5)
    >>> round(result.primal, 4), round(result.dual, 4), result.passes()
    (-0.6667, 0.6667, True)
    >>> np.round(result.extras["margins"], 4).tolist()
    [0.3333, 0.3333, 0.3333, 1.0]
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
    kkt = max(
        float(np.max(np.abs(u - mapped))),
        abs(float(np.clip(w, 0.0, None) @ (r - A.T @ u))),
        abs(r - float(u @ margins)),
    )
    violation = max(simplex_violation(w, 1.0), float(np.max(A.T @ u - r)), 0.0)
    return VerifyResult(
        "MCBoost (12)/(19)",
        primal,
        dual,
        relative_gap(primal, -dual),
        kkt,
        violation,
        {"w": w},
        {"u": u, "r": np.asarray(r)},
        solver,
        {"u_from_primal": mapped, "margins": margins},
    )
