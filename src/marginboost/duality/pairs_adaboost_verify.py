r"""Numerical checks of AdaBoost's entropy-regularized primal/dual pairs (Shen & Li 2010).

The ``verify_*`` functions of :mod:`marginboost.duality.pairs_adaboost` (which re-exports them)
solve each primal and its dual (built by :mod:`marginboost.duality.pairs_adaboost_problems`)
and report the gap, the KKT residuals and the primal-dual maps (24)/(25) as a
:class:`~marginboost.duality.VerifyResult`; :func:`zero_temperature_limit` follows the LPBoost
form (15) as :math:`T \to 0` towards hard-margin LPBoost (20).
"""

from __future__ import annotations

from typing import Any

import cvxpy as cp
import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import softmax

from ._common import (
    VerifyResult,
    check_instance,
    relative_gap,
    simplex_violation,
    solve_problem,
    value_of,
)
from .pairs_adaboost_problems import (
    _temperature,
    build_adaboost_l1_dual,
    build_adaboost_l1_primal,
    build_adaboost_lpboost_form_dual,
    build_adaboost_unnormalized_dual,
    build_adaboost_unnormalized_primal,
    build_gibbs_minimax,
    gibbs_distribution,
    lpboost_form_r_star,
)

__all__ = [
    "verify_adaboost_l1",
    "verify_adaboost_unnormalized",
    "verify_adaboost_lpboost_form",
    "verify_gibbs_free_energy",
    "zero_temperature_limit",
]


def _dual_violation(
    A: NDArray[np.float64], u: NDArray[np.float64], r: float, normalized: bool = True
) -> float:
    """Violation of ``A^T u <= r, u >= 0`` (and ``sum u = 1`` when ``normalized``)."""
    out = max(float(np.max(A.T @ u - r)), float(np.max(-u, initial=0.0)), 0.0)
    if normalized:
        out = max(out, abs(float(u.sum()) - 1.0))
    return out


def _slackness(
    A: NDArray[np.float64], w_normalized: NDArray[np.float64], u: NDArray[np.float64], r: float
) -> float:
    r"""Complementary slackness :math:`\sum_j \bar w_j (r - (A^\top u)_j)` with :math:`\bar w` on the simplex."""
    return abs(float(np.clip(w_normalized, 0.0, None) @ (r - A.T @ u)))


def _solve_primal_5(A, T, solver, options):
    problem, variables = build_adaboost_l1_primal(A, np.ones(A.shape[0]), T)
    value = solve_problem(problem, solver, "AdaBoost-l1 primal (5)", options)
    return value, value_of(variables["w"])


def verify_adaboost_l1(
    H: ArrayLike,
    y: ArrayLike,
    T: float,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> VerifyResult:
    r"""Theorem 3.1: solve primal (5) and Shannon dual (10); :math:`\mathrm{Opt}(5) = \mathrm{Opt}(10)`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T` (Shen & Li's :math:`T` is the
        inverse :math:`\ell_1` budget, a "temperature").
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    VerifyResult
        ``gap = |Opt(5) - Opt(10)|`` (relative); ``kkt_residual`` is the larger of
        :math:`\|u^*_{(10)} - \mathrm{softmax}(-Aw^*)\|_\infty` (24) and the complementary
        slackness :math:`|\sum_j Tw^*_j (-r^* - (A^\top u^*)_j)|`; ``primal_point`` holds
        ``w``, ``dual_point`` ``u`` and ``r``, ``extras["u_from_primal"]`` the mapped weights.

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Shen & Li (2010a), Theorem 3.1: the Lagrange dual of AdaBoost's :math:`\ell_1`-constrained
    problem (5) is the Shannon-entropy-regularized problem (10), with zero duality gap (Slater),
    and at the optimum (24) the dual weights are AdaBoost's example weights.  Both problems are
    solved independently; the residuals measure how well the two optima agree.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import verify_adaboost_l1
    >>> result = verify_adaboost_l1(H, y, T=0.5)
    >>> round(result.primal, 4), round(result.dual, 4), result.passes()
    (0.5162, 0.5162, True)
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
    return VerifyResult(
        "AdaBoost-l1 (5)/(10)",
        primal,
        dual,
        relative_gap(primal, dual),
        kkt,
        violation,
        {"w": w},
        {"u": u, "r": np.asarray(r)},
        solver,
        {"u_from_primal": mapped},
    )


def verify_adaboost_unnormalized(
    H: ArrayLike,
    y: ArrayLike,
    T: float,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> VerifyResult:
    r"""Eq. (14): un-logged exponential loss and its dual with unnormalized weights.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T` (Shen & Li's :math:`T` is the
        inverse :math:`\ell_1` budget, a "temperature").
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    VerifyResult
        ``gap`` compares the two optimal values; ``kkt_residual`` is the larger of the
        relative error :math:`\|u^* - e^{-Aw^*}\|_\infty / \max(1, \|u^*\|_\infty)` and the
        complementary slackness (divided by the same scale).  ``extras["log_primal_value"]``
        holds :math:`\log\mathrm{Opt}` for comparison with (5), ``extras["u_from_primal"]``
        the mapped weights.

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Shen & Li (2010a), eq. (14): :math:`\mathrm{Opt}(14) = \min_w \sum_i e^{-(Aw)_i} =
    \exp(\mathrm{Opt}(5))`, with KKT map :math:`u^*_i = \exp(-(Aw^*)_i)` (the weights are not
    normalized; normalizing them gives (24)).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import verify_adaboost_unnormalized
    >>> result = verify_adaboost_unnormalized(H, y, T=0.5)
    >>> round(result.primal, 4), round(result.extras["log_primal_value"], 4), result.passes()
    (1.6756, 0.5162, True)
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
    kkt = max(float(np.max(np.abs(u - mapped))) / scale, _slackness(A, T * w, u, -r) / scale)
    violation = max(simplex_violation(w, 1.0 / T), _dual_violation(A, u, -r, normalized=False))
    return VerifyResult(
        "exponential loss / dual (14)",
        primal,
        dual,
        relative_gap(primal, dual),
        kkt,
        violation,
        {"w": w},
        {"u": u, "r": np.asarray(r)},
        solver,
        {"u_from_primal": mapped, "log_primal_value": float(np.log(primal))},
    )


def verify_adaboost_lpboost_form(
    H: ArrayLike,
    y: ArrayLike,
    T: float,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> VerifyResult:
    r"""Primal (5) against the LPBoost form (15): :math:`\mathrm{Opt}(15) = -T\,\mathrm{Opt}(5)`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T` (Shen & Li's :math:`T` is the
        inverse :math:`\ell_1` budget, a "temperature").
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    VerifyResult
        ``gap`` compares ``dual`` with ``-T * primal``.  ``kkt_residual`` is the largest of
        the map (24) error, the complementary slackness
        :math:`|\sum_j Tw^*_j(r^* - (A^\top u^*)_j)|`, and the error of the Sec. 3.5 formula
        :func:`lpboost_form_r_star` for :math:`r^*`.  ``extras`` holds ``u_from_primal``,
        ``r_star_formula`` and ``normalized_margins`` :math:`TAw^*`.

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Shen & Li (2010a), eq. (15) and Sec. 3.5: AdaBoost is entropy-regularized LPBoost; the
    optimal :math:`r^*` is the largest edge of a column under :math:`u^*` and equals
    :math:`-T\sum u^*\log u^* - T\,\mathrm{Opt}(5)` (sign corrected, see
    :func:`lpboost_form_r_star`).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import verify_adaboost_lpboost_form
    >>> result = verify_adaboost_lpboost_form(H, y, T=0.5)
    >>> round(result.dual, 4), round(-0.5 * result.primal, 4), result.passes()
    (-0.2581, -0.2581, True)
    >>> round(float(result.dual_point["r"]), 4), round(result.extras["r_star_formula"], 4)
    (0.3872, 0.3872)
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
    return VerifyResult(
        "AdaBoost-l1 (5)/LPBoost form (15)",
        primal,
        dual,
        relative_gap(-T * primal, dual),
        kkt,
        violation,
        {"w": w},
        {"u": u, "r": np.asarray(r)},
        solver,
        {"u_from_primal": mapped, "r_star_formula": r_formula, "normalized_margins": margins},
    )


def verify_gibbs_free_energy(
    H: ArrayLike,
    y: ArrayLike,
    T: float,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> VerifyResult:
    r"""Eqs. (16)-(18): the minimax (18) against the maximal Gibbs free energy.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        Temperature, ``T > 0``.
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    VerifyResult
        ``primal`` is the maximal free energy, ``dual`` the optimum of (18); ``kkt_residual``
        is :math:`\|u^*_{(18)} - \mathrm{gibbs\_distribution}(A\bar w^*, T)\|_\infty`;
        ``primal_point`` holds ``w_bar``, ``dual_point`` ``u``.

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    The primal is :math:`\max_{\bar w\in\Delta} -T\log\sum_i \exp(-(A\bar w)_i/T)`, i.e. the
    free energy (17) of the energies :math:`v = A\bar w` maximized over normalized weights
    (:math:`= -T\,\mathrm{Opt}(5)` with :math:`w = \bar w/T`); the dual is (18) solved
    directly (Shen & Li 2010a, eqs. (16)-(18)).  The residual compares (18)'s minimizer with
    the minimizer (17) of (16) at the optimal energies.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import verify_gibbs_free_energy
    >>> result = verify_gibbs_free_energy(H, y, T=0.5)
    >>> round(result.primal, 4), round(result.dual, 4), result.passes()
    (-0.2581, -0.2581, True)
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    w_bar = cp.Variable(A.shape[1], name="w_bar")
    problem = cp.Problem(
        cp.Maximize(-T * cp.log_sum_exp(-(A @ w_bar) / T)), [w_bar >= 0, cp.sum(w_bar) == 1]
    )
    primal = solve_problem(problem, solver, "maximal Gibbs free energy", solver_options)
    w = value_of(w_bar)
    problem, variables = build_gibbs_minimax(A, np.ones(A.shape[0]), T)
    dual = solve_problem(problem, solver, "Gibbs minimax (18)", solver_options)
    u = value_of(variables["u"])
    mapped = gibbs_distribution(A @ w, T)
    kkt = float(np.max(np.abs(u - mapped)))
    violation = max(simplex_violation(w, 1.0), simplex_violation(u, 1.0))
    return VerifyResult(
        "Gibbs free energy (17)/(18)",
        primal,
        dual,
        relative_gap(primal, dual),
        kkt,
        violation,
        {"w_bar": w},
        {"u": u},
        solver,
        {"u_from_primal": mapped},
    )


def zero_temperature_limit(
    H: ArrayLike,
    y: ArrayLike,
    temperatures: ArrayLike,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    r"""The limit :math:`T \to 0` of the LPBoost form (15), which at ``T = 0`` is LPBoost (20).

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    temperatures : array_like
        One or more values ``T > 0``.
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    dict
        ``"temperatures"`` (the values of ``T``), ``"r_star"`` (:math:`r^*_{(15)}(T)`),
        ``"min_margin"`` (the minimum normalized margin :math:`\min_i (TAw^*(T))_i` at the
        optimum of (5)), ``"r_star_formula"`` (Sec. 3.5, :func:`lpboost_form_r_star`), each an
        array with one entry per temperature, and ``"hard_margin"``, the float
        :math:`\mathrm{Opt}(20)` (the LP, solved with ``T = 0``).

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Shen & Li (2010a), Sec. 3.2 and 3.5: (15) with :math:`T = 0` is the hard-margin LPBoost
    dual (20).  As :math:`T \to 0`, :math:`r^*(T) \to \mathrm{Opt}(20)` and the minimum
    normalized margin tends to :math:`\mathrm{Opt}(19) = \mathrm{Opt}(20)`: AdaBoost with a
    vanishing temperature (a growing :math:`\ell_1` budget) maximizes the minimum margin.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import zero_temperature_limit
    >>> out = zero_temperature_limit(H, y, [1.0, 0.01])
    >>> np.round(out["r_star"], 3).tolist(), round(out["hard_margin"], 4)
    ([0.431, 0.333], 0.3333)
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
    return {
        "temperatures": temps,
        "r_star": np.array(r_star),
        "min_margin": np.array(min_margin),
        "r_star_formula": np.array(r_formula),
        "hard_margin": hard_margin,
    }
