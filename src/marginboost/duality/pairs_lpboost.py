r"""LPBoost and its soft-margin variants as primal/dual pairs (Shen & Li 2010, Sec. 3.3-3.4).

* hard margin (19)/(20): :math:`\max_{w\in\Delta}\min_i (Aw)_i` = :math:`\min_{u\in\Delta}\max_j (A^\top u)_j`;
* soft margin (21)/(22): :math:`\max \varrho - D1^\top\xi` s.t. :math:`Aw \ge \varrho - \xi`,
  dual caps :math:`0 \le u_i \le D` (feasible iff :math:`D \ge 1/M`);
* squared hinge (27): :math:`\max \varrho - D\sum\xi_i^2`, dual :math:`\min r + \frac{1}{4D}\sum u_i^2`;
* generalized hinge (28): :math:`\max \varrho - D\sum\xi_i^p` (``p > 1``), Tsallis-type dual
  :math:`\min r + D^{1-q}(p^{1-q} - p^{-q})\sum u_i^q` with :math:`1/p + 1/q = 1`.

Here :math:`A = \mathrm{diag}(y)H`, :math:`\Delta` the probability simplex.  The Shalev-Shwartz &
Singer identity (:func:`bottom_average_identity`): with :math:`D = 1/n'` the soft-margin optimum
is the largest achievable average of the :math:`n'` smallest margins.
"""
from __future__ import annotations

from dataclasses import dataclass
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
from .entropy import tsallis_entropy

__all__ = [
    "build_hard_margin_primal", "build_hard_margin_dual", "build_soft_margin_primal",
    "build_soft_margin_dual", "build_squared_hinge_primal", "build_squared_hinge_dual",
    "build_generalized_hinge_primal", "build_generalized_hinge_dual", "tsallis_dual_constant",
    "verify_hard_margin_lpboost", "verify_soft_margin_lpboost", "verify_squared_hinge_lpboost",
    "verify_generalized_hinge_lpboost", "BottomAverageResult", "bottom_average_identity",
    "tsallis_shannon_gaps",
]

Problem = tuple[cp.Problem, dict[str, cp.Variable]]


def _soft_margin_D(D: float, M: int) -> float:
    D = check_positive(D, "D")
    if D < 1.0 / M:
        raise ValueError(f"soft-margin cap D must be >= 1/M = 1/{M} = {1.0 / M:.6g} for the dual "
                         f"(22) to be feasible (otherwise the primal (21) is unbounded); got D={D!r}")
    return D


def _exponent(p: float) -> float:
    return check_positive(p, "p", lower=1.0, meaning="the generalized hinge loss needs p > 1")


def _simplex_primal(A: NDArray[np.float64]):
    w, rho = cp.Variable(A.shape[1], name="w"), cp.Variable(name="rho")
    return w, rho, [w >= 0, cp.sum(w) == 1]


def _simplex_dual(A: NDArray[np.float64]):
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    return u, r, [A.T @ u <= r, u >= 0, cp.sum(u) == 1]


def build_hard_margin_primal(H: ArrayLike, y: ArrayLike) -> Problem:
    r"""Hard-margin LPBoost (19): :math:`\max_{w,\varrho} \varrho` s.t. :math:`Aw \ge \varrho`, :math:`w \in \Delta`."""
    _, _, A = check_instance(H, y)
    w, rho, constraints = _simplex_primal(A)
    return cp.Problem(cp.Maximize(rho), constraints + [A @ w >= rho]), {"w": w, "rho": rho}


def build_hard_margin_dual(H: ArrayLike, y: ArrayLike) -> Problem:
    r"""Dual (20): :math:`\min_{r,u} r` s.t. :math:`A^\top u \le r`, :math:`u \in \Delta` (eq. (15) at T = 0)."""
    _, _, A = check_instance(H, y)
    u, r, constraints = _simplex_dual(A)
    return cp.Problem(cp.Minimize(r), constraints), {"u": u, "r": r}


def build_soft_margin_primal(H: ArrayLike, y: ArrayLike, D: float) -> Problem:
    r"""Soft-margin LPBoost (21): :math:`\max \varrho - D1^\top\xi` s.t. :math:`Aw \ge \varrho - \xi,\ \xi \ge 0`, :math:`w\in\Delta`."""
    _, _, A = check_instance(H, y)
    D = _soft_margin_D(D, A.shape[0])
    w, rho, constraints = _simplex_primal(A)
    xi = cp.Variable(A.shape[0], name="xi")
    problem = cp.Problem(cp.Maximize(rho - D * cp.sum(xi)),
                         constraints + [A @ w >= rho - xi, xi >= 0])
    return problem, {"w": w, "rho": rho, "xi": xi}


def build_soft_margin_dual(H: ArrayLike, y: ArrayLike, D: float) -> Problem:
    r"""Dual (22): :math:`\min r` s.t. :math:`A^\top u \le r`, :math:`u\in\Delta`, :math:`u \le D`."""
    _, _, A = check_instance(H, y)
    D = _soft_margin_D(D, A.shape[0])
    u, r, constraints = _simplex_dual(A)
    return cp.Problem(cp.Minimize(r), constraints + [u <= D]), {"u": u, "r": r}


def build_squared_hinge_primal(H: ArrayLike, y: ArrayLike, D: float) -> Problem:
    r"""Squared hinge soft margin: :math:`\max \varrho - D\sum\xi_i^2` s.t. :math:`Aw \ge \varrho - \xi`, :math:`w\in\Delta`."""
    _, _, A = check_instance(H, y)
    D = check_positive(D, "D")
    w, rho, constraints = _simplex_primal(A)
    xi = cp.Variable(A.shape[0], name="xi")
    problem = cp.Problem(cp.Maximize(rho - D * cp.sum_squares(xi)),
                         constraints + [A @ w >= rho - xi])
    return problem, {"w": w, "rho": rho, "xi": xi}


def build_squared_hinge_dual(H: ArrayLike, y: ArrayLike, D: float) -> Problem:
    r"""Dual (27): :math:`\min r + \frac{1}{4D}\sum u_i^2` s.t. :math:`A^\top u \le r`, :math:`u\in\Delta`."""
    _, _, A = check_instance(H, y)
    D = check_positive(D, "D")
    u, r, constraints = _simplex_dual(A)
    return cp.Problem(cp.Minimize(r + cp.sum_squares(u) / (4.0 * D)), constraints), {"u": u, "r": r}


def tsallis_dual_constant(D: float, p: float) -> float:
    r"""Coefficient :math:`D^{1-q}(p^{1-q} - p^{-q})` of :math:`\sum u_i^q` in dual (28), :math:`q = p/(p-1)`.

    From :math:`\sup_{\xi\ge 0} u\xi - D\xi^p = \frac{1}{q}p^{1-q}D^{1-q}u^q` and
    :math:`\frac1q p^{1-q} = p^{1-q} - p^{-q}`.  For ``p = 2`` it is :math:`1/(4D)`, as in (27).
    """
    D, p = check_positive(D, "D"), _exponent(p)
    q = p / (p - 1.0)
    return D ** (1.0 - q) * (p ** (1.0 - q) - p ** (-q))


def build_generalized_hinge_primal(H: ArrayLike, y: ArrayLike, D: float, p: float) -> Problem:
    r"""Generalized hinge: :math:`\max \varrho - D\sum\xi_i^p` s.t. :math:`Aw \ge \varrho - \xi,\ \xi\ge 0`, :math:`w\in\Delta`."""
    _, _, A = check_instance(H, y)
    D, p = check_positive(D, "D"), _exponent(p)
    w, rho, constraints = _simplex_primal(A)
    xi = cp.Variable(A.shape[0], name="xi")
    problem = cp.Problem(cp.Maximize(rho - D * cp.sum(cp.power(xi, p))),
                         constraints + [A @ w >= rho - xi, xi >= 0])
    return problem, {"w": w, "rho": rho, "xi": xi}


def build_generalized_hinge_dual(H: ArrayLike, y: ArrayLike, D: float, p: float) -> Problem:
    r"""Dual (28): :math:`\min r + D^{1-q}(p^{1-q} - p^{-q})\sum u_i^q` s.t. :math:`A^\top u \le r`, :math:`u\in\Delta`."""
    _, _, A = check_instance(H, y)
    c = tsallis_dual_constant(D, p)
    q = p / (p - 1.0)
    u, r, constraints = _simplex_dual(A)
    return cp.Problem(cp.Minimize(r + c * cp.sum(cp.power(u, q))), constraints), {"u": u, "r": r}


def _points(variables: dict[str, cp.Variable]) -> dict[str, NDArray[np.float64]]:
    return {key: value_of(var) for key, var in variables.items()}


def _lp_violations(A, primal, dual, *, cap: float | None = None) -> float:
    w, rho, u, r = primal["w"], float(primal["rho"]), dual["u"], float(dual["r"])
    xi = primal.get("xi", np.zeros(A.shape[0]))
    out = max(simplex_violation(w, 1.0), simplex_violation(u, 1.0),
              float(np.max(rho - xi - A @ w)), float(np.max(A.T @ u - r)), 0.0)
    if cap is not None:
        out = max(out, float(np.max(u - cap)))
    return out


def _solve_pair(name, primal_pair, dual_pair, solver, options):
    primal_problem, primal_vars = primal_pair
    dual_problem, dual_vars = dual_pair
    primal = solve_problem(primal_problem, solver, f"{name} primal", options)
    dual = solve_problem(dual_problem, solver, f"{name} dual", options)
    return primal, dual, _points(primal_vars), _points(dual_vars)


def _column_slackness(A, w, u, r) -> float:
    """``|sum_j w_j (r - edge_j)|``: only columns with maximal edge may carry weight."""
    return abs(float(np.clip(w, 0.0, None) @ (r - A.T @ u)))


def verify_hard_margin_lpboost(H: ArrayLike, y: ArrayLike, solver: str = "CLARABEL",
                               solver_options: dict[str, Any] | None = None) -> VerifyResult:
    r"""LP duality of (19)/(20): the max-min margin equals the min-max edge.

    ``kkt_residual`` is the larger complementary slackness
    :math:`|\sum_i u^*_i((Aw^*)_i - \varrho^*)|` (weight only on minimum-margin examples) and
    :math:`|\sum_j w^*_j(r^* - (A^\top u^*)_j)|` (weight only on maximal-edge columns).
    """
    _, _, A = check_instance(H, y)
    ones = np.ones(A.shape[0])
    primal, dual, pp, dp = _solve_pair("hard-margin LPBoost", build_hard_margin_primal(A, ones),
                                       build_hard_margin_dual(A, ones), solver, solver_options)
    w, rho, u, r = pp["w"], float(pp["rho"]), dp["u"], float(dp["r"])
    kkt = max(abs(float(u @ (A @ w - rho))), _column_slackness(A, w, u, r))
    return VerifyResult("hard-margin LPBoost (19)/(20)", primal, dual, relative_gap(primal, dual),
                        kkt, _lp_violations(A, pp, dp), pp, dp, solver)


def verify_soft_margin_lpboost(H: ArrayLike, y: ArrayLike, D: float, solver: str = "CLARABEL",
                               solver_options: dict[str, Any] | None = None) -> VerifyResult:
    r"""LP duality of soft-margin LPBoost (21)/(22), ``D >= 1/M``.

    ``kkt_residual`` is the largest of: :math:`\|\xi^* - \max(0, \varrho^* - Aw^*)\|_\infty`,
    :math:`|\sum_i u^*_i((Aw^*)_i - \varrho^* + \xi^*_i)|` (weight only where the margin
    constraint is tight), :math:`|\sum_i (D - u^*_i)\xi^*_i|` (capped weight :math:`u_i = D` where
    :math:`\xi_i > 0`) and the column slackness.
    """
    _, _, A = check_instance(H, y)
    D = _soft_margin_D(D, A.shape[0])
    ones = np.ones(A.shape[0])
    primal, dual, pp, dp = _solve_pair("soft-margin LPBoost", build_soft_margin_primal(A, ones, D),
                                       build_soft_margin_dual(A, ones, D), solver, solver_options)
    w, rho, xi, u, r = pp["w"], float(pp["rho"]), pp["xi"], dp["u"], float(dp["r"])
    margins = A @ w
    kkt = max(float(np.max(np.abs(xi - np.maximum(0.0, rho - margins)))),
              abs(float(u @ (margins - rho + xi))), abs(float((D - u) @ xi)),
              _column_slackness(A, w, u, r))
    violation = max(_lp_violations(A, pp, dp, cap=D), float(np.max(-xi, initial=0.0)))
    return VerifyResult("soft-margin LPBoost (21)/(22)", primal, dual, relative_gap(primal, dual),
                        kkt, violation, pp, dp, solver)


def verify_squared_hinge_lpboost(H: ArrayLike, y: ArrayLike, D: float, solver: str = "CLARABEL",
                                 solver_options: dict[str, Any] | None = None) -> VerifyResult:
    r"""Squared hinge soft margin and its variance-regularized dual (27).

    KKT map :math:`\xi^*_i = u^*_i/(2D)`.  ``kkt_residual`` is the larger of
    :math:`\|\xi^* - u^*/(2D)\|_\infty` and :math:`|\sum_i u^*_i((Aw^*)_i - \varrho^* + \xi^*_i)|`.
    """
    _, _, A = check_instance(H, y)
    D = check_positive(D, "D")
    ones = np.ones(A.shape[0])
    primal, dual, pp, dp = _solve_pair("squared-hinge LPBoost", build_squared_hinge_primal(A, ones, D),
                                       build_squared_hinge_dual(A, ones, D), solver, solver_options)
    w, rho, xi, u = pp["w"], float(pp["rho"]), pp["xi"], dp["u"]
    mapped = u / (2.0 * D)
    kkt = max(float(np.max(np.abs(xi - mapped))), abs(float(u @ (A @ w - rho + xi))),
              _column_slackness(A, w, u, float(dp["r"])))
    return VerifyResult("squared-hinge LPBoost / dual (27)", primal, dual, relative_gap(primal, dual),
                        kkt, _lp_violations(A, pp, dp), pp, dp, solver, {"xi_from_dual": mapped})


def verify_generalized_hinge_lpboost(H: ArrayLike, y: ArrayLike, D: float, p: float,
                                     solver: str = "CLARABEL",
                                     solver_options: dict[str, Any] | None = None) -> VerifyResult:
    r"""Generalized hinge (``p > 1``) and its Tsallis-regularized dual (28).

    KKT map :math:`\xi^*_i = (u^*_i/(pD))^{1/(p-1)}`, equivalently
    :math:`u^*_i = pD\,(\xi^*_i)^{p-1}`.  The residual uses the Lipschitz direction of the map
    (the first for ``p < 2``, the second for ``p >= 2``; the other one amplifies solver
    round-off near zero like a ``(p-1)``-th root), plus the complementary slackness as in
    :func:`verify_squared_hinge_lpboost`.
    """
    _, _, A = check_instance(H, y)
    D, p = check_positive(D, "D"), _exponent(p)
    ones = np.ones(A.shape[0])
    primal, dual, pp, dp = _solve_pair(
        f"generalized-hinge LPBoost (p={p:g})", build_generalized_hinge_primal(A, ones, D, p),
        build_generalized_hinge_dual(A, ones, D, p), solver, solver_options)
    w, rho, xi, u = pp["w"], float(pp["rho"]), pp["xi"], dp["u"]
    mapped = (np.clip(u, 0.0, None) / (p * D)) ** (1.0 / (p - 1.0))
    if p < 2.0:
        map_error = float(np.max(np.abs(xi - mapped)))
    else:
        map_error = float(np.max(np.abs(u - p * D * np.clip(xi, 0.0, None) ** (p - 1.0))))
    kkt = max(map_error, abs(float(u @ (A @ w - rho + xi))),
              _column_slackness(A, w, u, float(dp["r"])))
    violation = max(_lp_violations(A, pp, dp), float(np.max(-xi, initial=0.0)))
    return VerifyResult(f"generalized-hinge LPBoost (p={p:g}) / dual (28)", primal, dual,
                        relative_gap(primal, dual), kkt, violation, pp, dp, solver,
                        {"xi_from_dual": mapped, "q": p / (p - 1.0)})


@dataclass(frozen=True)
class BottomAverageResult:
    """Soft-margin optimum with ``D = 1/n_bottom`` against the bottom-``n_bottom`` average margin.

    Attributes
    ----------
    lp_optimum : float
        Optimal value of (21) with ``D = 1/n_bottom``.
    bottom_average : float
        Average of the ``n_bottom`` smallest margins :math:`(Aw^*)_i` at the LP solution.
    nth_smallest_margin : float
        The ``n_bottom``-th smallest margin (an optimal :math:`\\varrho`).
    rho : float
        The :math:`\\varrho^*` returned by the solver.
    w : ndarray
        The LP solution.
    """

    lp_optimum: float
    bottom_average: float
    nth_smallest_margin: float
    rho: float
    w: NDArray[np.float64]

    @property
    def difference(self) -> float:
        """``|lp_optimum - bottom_average|``."""
        return abs(self.lp_optimum - self.bottom_average)


def bottom_average_identity(H: ArrayLike, y: ArrayLike, n_bottom: int, solver: str = "CLARABEL",
                            solver_options: dict[str, Any] | None = None) -> BottomAverageResult:
    r"""Soft-margin LP (21) with :math:`D = 1/n'` equals the bottom-:math:`n'` average margin.

    Shalev-Shwartz & Singer (2010), used by Shen & Li, DirectBoost and MCBoost:
    :math:`\mathrm{Opt}(21) = \max_{w\in\Delta}\frac{1}{n'}\sum_{i\in B_{n'}(w)} (Aw)_i`, where
    :math:`B_{n'}(w)` indexes the :math:`n'` smallest margins; an optimal :math:`\varrho` is the
    :math:`n'`-th smallest margin.
    """
    _, _, A = check_instance(H, y)
    if isinstance(n_bottom, bool) or not isinstance(n_bottom, (int, np.integer)) \
            or not 1 <= n_bottom <= A.shape[0]:
        raise ValueError(f"n_bottom must be an integer in [1, M={A.shape[0]}]; got {n_bottom!r}")
    problem, variables = build_soft_margin_primal(A, np.ones(A.shape[0]), 1.0 / int(n_bottom))
    optimum = solve_problem(problem, solver, f"soft-margin LPBoost (21), D = 1/{n_bottom}",
                            solver_options)
    w = value_of(variables["w"])
    margins = np.sort(A @ w)
    return BottomAverageResult(optimum, float(margins[:n_bottom].mean()),
                               float(margins[n_bottom - 1]), float(value_of(variables["rho"])), w)


def tsallis_shannon_gaps(u: ArrayLike, qs: ArrayLike) -> NDArray[np.float64]:
    r""":math:`|S_q(u) - S_1(u)|` for each ``q``: the Tsallis entropy (29) tends to Shannon's as q -> 1.

    The gap is :math:`O(|q-1|)`; see :func:`~marginboost.duality.entropy.tsallis_entropy`.
    """
    shannon = tsallis_entropy(u, 1.0)
    return np.array([abs(tsallis_entropy(u, float(q)) - shannon) for q in np.ravel(qs)])
