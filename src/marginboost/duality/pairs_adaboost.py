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
"""
from __future__ import annotations

from typing import Any

import cvxpy as cp
import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import logsumexp, softmax, xlogy

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
    "build_adaboost_l1_primal", "build_adaboost_l1_dual", "build_adaboost_unnormalized_primal",
    "build_adaboost_unnormalized_dual", "build_adaboost_lpboost_form_dual",
    "adaboost_weights_from_primal", "adaboost_margins_from_dual", "lpboost_form_r_star",
    "gibbs_free_energy", "gibbs_distribution", "build_gibbs_problem", "build_gibbs_minimax",
    "verify_adaboost_l1", "verify_adaboost_unnormalized", "verify_adaboost_lpboost_form",
    "verify_gibbs_free_energy", "zero_temperature_limit",
]

Problem = tuple[cp.Problem, dict[str, cp.Variable]]


def _temperature(T: float) -> float:
    return check_positive(T, "T", meaning="T = 1/sum(w) is the inverse l1 budget of the weights")


def build_adaboost_l1_primal(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Primal (5): :math:`\min_w \mathrm{lse}(-Aw)` s.t. :math:`w \ge 0,\ 1^\top w = 1/T`."""
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    w = cp.Variable(A.shape[1], name="w")
    problem = cp.Problem(cp.Minimize(cp.log_sum_exp(-A @ w)), [w >= 0, cp.sum(w) == 1.0 / T])
    return problem, {"w": w}


def build_adaboost_l1_dual(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Shannon-entropy dual (10): :math:`\max r/T - \sum u\log u` s.t. :math:`A^\top u \le -r`, simplex."""
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    problem = cp.Problem(cp.Maximize(r / T + cp.sum(cp.entr(u))),
                         [A.T @ u <= -r, u >= 0, cp.sum(u) == 1])
    return problem, {"u": u, "r": r}


def build_adaboost_unnormalized_primal(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Un-logged primal: :math:`\min_w \sum_i \exp(-(Aw)_i)` s.t. :math:`w \ge 0,\ 1^\top w = 1/T`."""
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    w = cp.Variable(A.shape[1], name="w")
    problem = cp.Problem(cp.Minimize(cp.sum(cp.exp(-A @ w))), [w >= 0, cp.sum(w) == 1.0 / T])
    return problem, {"w": w}


def build_adaboost_unnormalized_dual(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Dual (14): :math:`\max r/T - \sum u\log u + 1^\top u` s.t. :math:`A^\top u \le -r,\ u \ge 0`."""
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    problem = cp.Problem(cp.Maximize(r / T + cp.sum(cp.entr(u)) + cp.sum(u)),
                         [A.T @ u <= -r, u >= 0])
    return problem, {"u": u, "r": r}


def build_adaboost_lpboost_form_dual(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""LPBoost form (15): :math:`\min r + T\sum u\log u` s.t. :math:`A^\top u \le r`, simplex.

    Obtained from (10) by :math:`r \to -r` and multiplying the objective by :math:`-T`; with
    ``T = 0`` it is the hard-margin LPBoost dual (20), hence ``T >= 0`` is accepted here.
    """
    _, _, A = check_instance(H, y)
    T = float(T) if T == 0 else _temperature(T)
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    objective = r if T == 0 else r - T * cp.sum(cp.entr(u))
    problem = cp.Problem(cp.Minimize(objective), [A.T @ u <= r, u >= 0, cp.sum(u) == 1])
    return problem, {"u": u, "r": r}


def adaboost_weights_from_primal(H: ArrayLike, y: ArrayLike, w: ArrayLike) -> NDArray[np.float64]:
    r"""KKT map (24): :math:`u^* = \mathrm{softmax}(-A w^*)`, AdaBoost's normalized sample weights."""
    _, _, A = check_instance(H, y)
    return softmax(-A @ np.asarray(w, dtype=np.float64))


def adaboost_margins_from_dual(u: ArrayLike, primal_value: float) -> NDArray[np.float64]:
    r"""Back map (25): margins :math:`A w^* = -\log u^* - \mathrm{Opt}(5)` (needs ``u > 0``)."""
    u = np.asarray(u, dtype=np.float64)
    if np.any(~(u > 0)):
        raise ValueError("the margins are determined by the dual weights only where u > 0; "
                         f"got the weight {u[~(u > 0)][0]!r}")
    return -np.log(u) - float(primal_value)


def lpboost_form_r_star(u: ArrayLike, normalized_margins: ArrayLike, T: float) -> float:
    r"""Optimal :math:`r^*` of (15) from the optimal points, Shen & Li Sec. 3.5 (sign corrected).

    .. math:: r^* = -T\sum_i u^*_i\log u^*_i - T\log\sum_i \exp(-\varrho^*_i/T),

    with normalized margins :math:`\varrho^* = T A w^*`.  The paper prints
    :math:`+T\sum u^*\log u^*`; substituting (24) shows the sign must be negative.  As
    :math:`T \to 0` both terms tend to :math:`\min_i \varrho^*_i`.
    """
    T = _temperature(T)
    u = np.asarray(u, dtype=np.float64)
    rho = np.asarray(normalized_margins, dtype=np.float64)
    u = np.clip(u, 0.0, None)
    return float(-T * np.sum(xlogy(u, u)) - T * logsumexp(-rho / T))


def gibbs_free_energy(v: ArrayLike, T: float) -> float:
    r"""Closed form (17): :math:`\min_{u \in \Delta} u^\top v + T\sum u\log u = -T\log\sum_i e^{-v_i/T}`."""
    T = _temperature(T)
    return float(-T * logsumexp(-np.asarray(v, dtype=np.float64) / T))


def gibbs_distribution(v: ArrayLike, T: float) -> NDArray[np.float64]:
    r"""Minimizer of (16): the Gibbs distribution :math:`u_i \propto \exp(-v_i/T)`."""
    T = _temperature(T)
    return softmax(-np.asarray(v, dtype=np.float64) / T)


def build_gibbs_problem(v: ArrayLike, T: float) -> Problem:
    r"""Free energy (16) of a fixed energy vector ``v``: :math:`\min_{u\in\Delta} u^\top v + T\sum u\log u`."""
    T = _temperature(T)
    v = np.asarray(v, dtype=np.float64)
    if v.ndim != 1 or v.size == 0 or not np.all(np.isfinite(v)):
        raise ValueError(f"energy v must be a non-empty finite vector; got shape {v.shape}")
    u = cp.Variable(v.size, name="u")
    problem = cp.Problem(cp.Minimize(v @ u - T * cp.sum(cp.entr(u))), [u >= 0, cp.sum(u) == 1])
    return problem, {"u": u}


def build_gibbs_minimax(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""(18): :math:`\min_{u\in\Delta} \max_j u^\top v_j + T\sum u\log u` with :math:`v_{ij} = y_iH_{ij}`."""
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    u = cp.Variable(A.shape[0], name="u")
    problem = cp.Problem(cp.Minimize(cp.max(A.T @ u) - T * cp.sum(cp.entr(u))),
                         [u >= 0, cp.sum(u) == 1])
    return problem, {"u": u}


def _dual_violation(A: NDArray[np.float64], u: NDArray[np.float64], r: float,
                    normalized: bool = True) -> float:
    """Violation of ``A^T u <= r, u >= 0`` (and ``sum u = 1`` when ``normalized``)."""
    out = max(float(np.max(A.T @ u - r)), float(np.max(-u, initial=0.0)), 0.0)
    if normalized:
        out = max(out, abs(float(u.sum()) - 1.0))
    return out


def _slackness(A: NDArray[np.float64], w_normalized: NDArray[np.float64],
               u: NDArray[np.float64], r: float) -> float:
    r"""Complementary slackness :math:`\sum_j \bar w_j (r - (A^\top u)_j)` with :math:`\bar w` on the simplex."""
    return abs(float(np.clip(w_normalized, 0.0, None) @ (r - A.T @ u)))


def _solve_primal_5(A, T, solver, options):
    problem, variables = build_adaboost_l1_primal(A, np.ones(A.shape[0]), T)
    value = solve_problem(problem, solver, "AdaBoost-l1 primal (5)", options)
    return value, value_of(variables["w"])


def verify_adaboost_l1(H: ArrayLike, y: ArrayLike, T: float, solver: str = "CLARABEL",
                       solver_options: dict[str, Any] | None = None) -> VerifyResult:
    r"""Theorem 3.1: solve primal (5) and Shannon dual (10); :math:`\mathrm{Opt}(5) = \mathrm{Opt}(10)`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs (rows are examples).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy ``sum(w) = 1/T``.
    solver : str
        cvxpy solver for both problems.
    solver_options : dict, optional
        Passed to the solver (see :data:`~marginboost.duality._common.DEFAULT_SOLVER_OPTIONS`).

    Returns
    -------
    VerifyResult
        ``gap = |Opt(5) - Opt(10)|`` (relative); ``kkt_residual`` is the larger of
        :math:`\|u^*_{(10)} - \mathrm{softmax}(-Aw^*)\|_\infty` (24) and the complementary
        slackness :math:`|\sum_j Tw^*_j (-r^* - (A^\top u^*)_j)|`.
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    primal, w = _solve_primal_5(A, T, solver, solver_options)
    problem, variables = build_adaboost_l1_dual(A, np.ones(A.shape[0]), T)
    dual = solve_problem(problem, solver, "Shannon dual (10)", solver_options)
    u, r = value_of(variables["u"]), float(value_of(variables["r"]))
    mapped = softmax(-A @ w)
    kkt = max(float(np.max(np.abs(u - mapped))), _slackness(A, T * w, u, -r))
    violation = max(simplex_violation(w, 1.0 / T), _dual_violation(A, u, -r))
    return VerifyResult("AdaBoost-l1 (5)/(10)", primal, dual, relative_gap(primal, dual), kkt,
                        violation, {"w": w}, {"u": u, "r": np.asarray(r)}, solver,
                        {"u_from_primal": mapped})


def verify_adaboost_unnormalized(H: ArrayLike, y: ArrayLike, T: float, solver: str = "CLARABEL",
                                 solver_options: dict[str, Any] | None = None) -> VerifyResult:
    r"""Eq. (14): un-logged exponential loss and its dual with unnormalized weights.

    :math:`\mathrm{Opt}(14) = \min_w \sum_i e^{-(Aw)_i} = \exp(\mathrm{Opt}(5))`; KKT map
    :math:`u^*_i = \exp(-(Aw^*)_i)`.  ``kkt_residual`` is the larger of the relative error
    :math:`\|u^* - e^{-Aw^*}\|_\infty / \max(1, \|u^*\|_\infty)` and the complementary slackness.
    ``extras["log_primal_value"]`` holds :math:`\log\mathrm{Opt}` for comparison with (5).
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    problem, variables = build_adaboost_unnormalized_primal(A, np.ones(A.shape[0]), T)
    primal = solve_problem(problem, solver, "unnormalized exponential-loss primal", solver_options)
    w = value_of(variables["w"])
    problem, variables = build_adaboost_unnormalized_dual(A, np.ones(A.shape[0]), T)
    dual = solve_problem(problem, solver, "unnormalized Shannon dual (14)", solver_options)
    u, r = value_of(variables["u"]), float(value_of(variables["r"]))
    mapped = np.exp(-A @ w)
    scale = max(1.0, float(np.max(np.abs(u))))
    kkt = max(float(np.max(np.abs(u - mapped))) / scale,
              _slackness(A, T * w, u, -r) / scale)
    violation = max(simplex_violation(w, 1.0 / T), _dual_violation(A, u, -r, normalized=False))
    return VerifyResult("exponential loss / dual (14)", primal, dual, relative_gap(primal, dual),
                        kkt, violation, {"w": w}, {"u": u, "r": np.asarray(r)}, solver,
                        {"u_from_primal": mapped, "log_primal_value": float(np.log(primal))})


def verify_adaboost_lpboost_form(H: ArrayLike, y: ArrayLike, T: float, solver: str = "CLARABEL",
                                 solver_options: dict[str, Any] | None = None) -> VerifyResult:
    r"""Primal (5) against the LPBoost form (15): :math:`\mathrm{Opt}(15) = -T\,\mathrm{Opt}(5)`.

    ``gap`` compares ``dual`` with ``-T * primal``.  ``kkt_residual`` is the larger of the map
    (24) error, the complementary slackness :math:`|\sum_j Tw^*_j(r^* - (A^\top u^*)_j)|`, and the
    error of the Sec. 3.5 formula :func:`lpboost_form_r_star` for :math:`r^*`.
    ``extras`` holds ``r_star_formula`` and ``normalized_margins`` :math:`TAw^*`.
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    primal, w = _solve_primal_5(A, T, solver, solver_options)
    problem, variables = build_adaboost_lpboost_form_dual(A, np.ones(A.shape[0]), T)
    dual = solve_problem(problem, solver, "LPBoost form (15)", solver_options)
    u, r = value_of(variables["u"]), float(value_of(variables["r"]))
    margins = T * (A @ w)
    r_formula = lpboost_form_r_star(u, margins, T)
    mapped = softmax(-A @ w)
    kkt = max(float(np.max(np.abs(u - mapped))), _slackness(A, T * w, u, r), abs(r - r_formula))
    violation = max(simplex_violation(w, 1.0 / T), _dual_violation(A, u, r))
    return VerifyResult("AdaBoost-l1 (5)/LPBoost form (15)", primal, dual,
                        relative_gap(-T * primal, dual), kkt, violation, {"w": w},
                        {"u": u, "r": np.asarray(r)}, solver,
                        {"u_from_primal": mapped, "r_star_formula": r_formula,
                         "normalized_margins": margins})


def verify_gibbs_free_energy(H: ArrayLike, y: ArrayLike, T: float, solver: str = "CLARABEL",
                             solver_options: dict[str, Any] | None = None) -> VerifyResult:
    r"""Eqs. (16)-(18): the minimax (18) against the maximal Gibbs free energy.

    The primal is :math:`\max_{\bar w\in\Delta} -T\log\sum_i \exp(-(A\bar w)_i/T)`, i.e. the
    free energy (17) of the energies :math:`v = A\bar w` maximized over normalized weights
    (:math:`= -T\,\mathrm{Opt}(5)` with :math:`w = \bar w/T`); the dual is (18) solved directly.
    ``kkt_residual`` is :math:`\|u^*_{(18)} - \mathrm{gibbs\_distribution}(A\bar w^*, T)\|_\infty`
    (the minimizer (17) of (16) at the optimal energies).
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    w_bar = cp.Variable(A.shape[1], name="w_bar")
    problem = cp.Problem(cp.Maximize(-T * cp.log_sum_exp(-(A @ w_bar) / T)),
                         [w_bar >= 0, cp.sum(w_bar) == 1])
    primal = solve_problem(problem, solver, "maximal Gibbs free energy", solver_options)
    w = value_of(w_bar)
    problem, variables = build_gibbs_minimax(A, np.ones(A.shape[0]), T)
    dual = solve_problem(problem, solver, "Gibbs minimax (18)", solver_options)
    u = value_of(variables["u"])
    mapped = gibbs_distribution(A @ w, T)
    kkt = float(np.max(np.abs(u - mapped)))
    violation = max(simplex_violation(w, 1.0), simplex_violation(u, 1.0))
    return VerifyResult("Gibbs free energy (17)/(18)", primal, dual, relative_gap(primal, dual),
                        kkt, violation, {"w_bar": w}, {"u": u}, solver,
                        {"u_from_primal": mapped})


def zero_temperature_limit(H: ArrayLike, y: ArrayLike, temperatures: ArrayLike,
                           solver: str = "CLARABEL",
                           solver_options: dict[str, Any] | None = None) -> dict[str, Any]:
    r"""The limit :math:`T \to 0` of the LPBoost form (15), which at ``T = 0`` is LPBoost (20).

    For each ``T`` solves (15) and (5); returns ``r_star`` (:math:`r^*_{(15)}(T)`),
    ``min_margin`` (the minimum normalized margin :math:`\min_i (TAw^*(T))_i`) and
    ``r_star_formula`` (Sec. 3.5, :func:`lpboost_form_r_star`), together with
    ``hard_margin`` = :math:`\mathrm{Opt}(20)` (the LP, solved with ``T = 0``).  As
    :math:`T \to 0`, :math:`r^*(T) \to \mathrm{Opt}(20)` and the minimum normalized margin
    tends to :math:`\mathrm{Opt}(19) = \mathrm{Opt}(20)` (Shen & Li, Sec. 3.3).
    """
    temps = np.asarray(temperatures, dtype=np.float64).ravel()
    if temps.size == 0:
        raise ValueError("temperatures must hold at least one value T > 0")
    _, _, A = check_instance(H, y)
    ones = np.ones(A.shape[0])
    problem, _ = build_adaboost_lpboost_form_dual(A, ones, 0.0)
    hard_margin = solve_problem(problem, solver, "hard-margin LPBoost dual (20)", solver_options)
    r_star, min_margin, r_formula = [], [], []
    for temperature in temps:
        T = _temperature(float(temperature))
        _, w = _solve_primal_5(A, T, solver, solver_options)
        problem, variables = build_adaboost_lpboost_form_dual(A, ones, T)
        solve_problem(problem, solver, f"LPBoost form (15) at T={T:g}", solver_options)
        u, r = value_of(variables["u"]), float(value_of(variables["r"]))
        r_star.append(r)
        min_margin.append(float(np.min(T * (A @ w))))
        r_formula.append(lpboost_form_r_star(u, T * (A @ w), T))
    return {"temperatures": temps, "r_star": np.array(r_star), "min_margin": np.array(min_margin),
            "r_star_formula": np.array(r_formula), "hard_margin": hard_margin}
