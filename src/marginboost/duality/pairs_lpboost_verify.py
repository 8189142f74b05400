r"""Numerical checks of the LPBoost primal/dual pairs (Shen & Li 2010, Sec. 3.2-3.3).

The ``verify_*`` functions of :mod:`marginboost.duality.pairs_lpboost` (which re-exports them)
solve each primal and its dual (built by :mod:`marginboost.duality.pairs_lpboost_problems`)
and report the gap, the KKT residuals and the primal-dual maps as a
:class:`~marginboost.duality.VerifyResult`; with them the Shalev-Shwartz & Singer identity
(:func:`bottom_average_identity`) and the Tsallis-to-Shannon limit of the entropy of (29)
(:func:`tsallis_shannon_gaps`).
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
from .pairs_lpboost_problems import (
    _exponent,
    _soft_margin_D,
    build_generalized_hinge_dual,
    build_generalized_hinge_primal,
    build_hard_margin_dual,
    build_hard_margin_primal,
    build_soft_margin_dual,
    build_soft_margin_primal,
    build_squared_hinge_dual,
    build_squared_hinge_primal,
)

__all__ = [
    "verify_hard_margin_lpboost",
    "verify_soft_margin_lpboost",
    "verify_squared_hinge_lpboost",
    "verify_generalized_hinge_lpboost",
    "BottomAverageResult",
    "bottom_average_identity",
    "tsallis_shannon_gaps",
]


def _points(variables: dict[str, cp.Variable]) -> dict[str, NDArray[np.float64]]:
    return {key: value_of(var) for key, var in variables.items()}


def _lp_violations(A, primal, dual, *, cap: float | None = None) -> float:
    w, rho, u, r = primal["w"], float(primal["rho"]), dual["u"], float(dual["r"])
    xi = primal.get("xi", np.zeros(A.shape[0]))
    out = max(
        simplex_violation(w, 1.0),
        simplex_violation(u, 1.0),
        float(np.max(rho - xi - A @ w)),
        float(np.max(A.T @ u - r)),
        0.0,
    )
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


def verify_hard_margin_lpboost(
    H: ArrayLike,
    y: ArrayLike,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> VerifyResult:
    r"""LP duality of (19)/(20): the max-min margin equals the min-max edge.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    VerifyResult
        ``kkt_residual`` is the larger complementary slackness
        :math:`|\sum_i u^*_i((Aw^*)_i - \varrho^*)|` (weight only on minimum-margin examples)
        and :math:`|\sum_j w^*_j(r^* - (A^\top u^*)_j)|` (weight only on maximal-edge columns);
        ``primal_point`` holds ``w`` and ``rho``, ``dual_point`` ``u`` and ``r``.

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Shen & Li (2010a), eqs. (19)-(20): hard-margin LPBoost and its LP dual; strong duality
    holds for every instance (both LPs are feasible and bounded).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Demiriz, A., Bennett, K. P. and Shawe-Taylor, J. (2002). Linear programming boosting via
    column generation. Machine Learning 46(1-3), 225-254.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import verify_hard_margin_lpboost
    >>> result = verify_hard_margin_lpboost(H, y)
    >>> round(result.primal, 4), round(result.dual, 4), result.passes()
    (0.3333, 0.3333, True)
    """
    _, _, A = check_instance(H, y)
    ones = np.ones(A.shape[0])
    primal, dual, pp, dp = _solve_pair(
        "hard-margin LPBoost",
        build_hard_margin_primal(A, ones),
        build_hard_margin_dual(A, ones),
        solver,
        solver_options,
    )
    w, rho, u, r = pp["w"], float(pp["rho"]), dp["u"], float(dp["r"])
    kkt = max(abs(float(u @ (A @ w - rho))), _column_slackness(A, w, u, r))
    return VerifyResult(
        "hard-margin LPBoost (19)/(20)",
        primal,
        dual,
        relative_gap(primal, dual),
        kkt,
        _lp_violations(A, pp, dp),
        pp,
        dp,
        solver,
    )


def verify_soft_margin_lpboost(
    H: ArrayLike,
    y: ArrayLike,
    D: float,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> VerifyResult:
    r"""LP duality of soft-margin LPBoost (21)/(22), ``D >= 1/M``.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    D : float
        Cap on the dual weights, ``D >= 1/M`` (for ``D < 1/M`` the dual is infeasible and the
        primal unbounded).  ``D = 1/n'`` gives the bottom-:math:`n'` average margin.
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    VerifyResult
        ``kkt_residual`` is the largest of :math:`\|\xi^* - \max(0, \varrho^* - Aw^*)\|_\infty`,
        :math:`|\sum_i u^*_i((Aw^*)_i - \varrho^* + \xi^*_i)|` (weight only where the margin
        constraint is tight), :math:`|\sum_i (D - u^*_i)\xi^*_i|` (capped weight
        :math:`u_i = D` where :math:`\xi_i > 0`) and the column slackness.

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Shen & Li (2010a), eqs. (21)-(22).  KKT: :math:`\xi^*_i = \max(0, \varrho^* - m_i)`,
    :math:`u^*_i = D` if :math:`m_i < \varrho^*` and :math:`u^*_i = 0` if
    :math:`m_i > \varrho^*`, with :math:`m = Aw^*`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Demiriz, A., Bennett, K. P. and Shawe-Taylor, J. (2002). Linear programming boosting via
    column generation. Machine Learning 46(1-3), 225-254.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import verify_soft_margin_lpboost
    >>> result = verify_soft_margin_lpboost(H, y, D=0.5)
    >>> round(result.primal, 4), round(result.dual, 4), result.passes()
    (0.3333, 0.3333, True)
    """
    _, _, A = check_instance(H, y)
    D = _soft_margin_D(D, A.shape[0])
    ones = np.ones(A.shape[0])
    primal, dual, pp, dp = _solve_pair(
        "soft-margin LPBoost",
        build_soft_margin_primal(A, ones, D),
        build_soft_margin_dual(A, ones, D),
        solver,
        solver_options,
    )
    w, rho, xi, u, r = pp["w"], float(pp["rho"]), pp["xi"], dp["u"], float(dp["r"])
    margins = A @ w
    kkt = max(
        float(np.max(np.abs(xi - np.maximum(0.0, rho - margins)))),
        abs(float(u @ (margins - rho + xi))),
        abs(float((D - u) @ xi)),
        _column_slackness(A, w, u, r),
    )
    violation = max(_lp_violations(A, pp, dp, cap=D), float(np.max(-xi, initial=0.0)))
    return VerifyResult(
        "soft-margin LPBoost (21)/(22)",
        primal,
        dual,
        relative_gap(primal, dual),
        kkt,
        violation,
        pp,
        dp,
        solver,
    )


def verify_squared_hinge_lpboost(
    H: ArrayLike,
    y: ArrayLike,
    D: float,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> VerifyResult:
    r"""Squared hinge soft margin and its variance-regularized dual (27).

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    D : float
        Trade-off parameter, ``D > 0`` (the weight of the slack penalty).
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    VerifyResult
        ``kkt_residual`` is the largest of :math:`\|\xi^* - u^*/(2D)\|_\infty`,
        :math:`|\sum_i u^*_i((Aw^*)_i - \varrho^* + \xi^*_i)|` and the column slackness;
        ``extras["xi_from_dual"]`` holds :math:`u^*/(2D)`.

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Shen & Li (2010a), eq. (27), with KKT map :math:`\xi^*_i = u^*_i/(2D)`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import verify_squared_hinge_lpboost
    >>> result = verify_squared_hinge_lpboost(H, y, D=0.5)
    >>> round(result.primal, 4), round(result.dual, 4), result.passes()
    (0.5, 0.5, True)
    """
    _, _, A = check_instance(H, y)
    D = check_positive(D, "D")
    ones = np.ones(A.shape[0])
    primal, dual, pp, dp = _solve_pair(
        "squared-hinge LPBoost",
        build_squared_hinge_primal(A, ones, D),
        build_squared_hinge_dual(A, ones, D),
        solver,
        solver_options,
    )
    w, rho, xi, u = pp["w"], float(pp["rho"]), pp["xi"], dp["u"]
    mapped = u / (2.0 * D)
    kkt = max(
        float(np.max(np.abs(xi - mapped))),
        abs(float(u @ (A @ w - rho + xi))),
        _column_slackness(A, w, u, float(dp["r"])),
    )
    return VerifyResult(
        "squared-hinge LPBoost / dual (27)",
        primal,
        dual,
        relative_gap(primal, dual),
        kkt,
        _lp_violations(A, pp, dp),
        pp,
        dp,
        solver,
        {"xi_from_dual": mapped},
    )


def verify_generalized_hinge_lpboost(
    H: ArrayLike,
    y: ArrayLike,
    D: float,
    p: float,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> VerifyResult:
    r"""Generalized hinge (``p > 1``) and its Tsallis-regularized dual (28).

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    D : float
        Trade-off parameter, ``D > 0`` (the weight of the slack penalty).
    p : float
        Exponent of the slack penalty, ``p > 1``.
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    VerifyResult
        ``kkt_residual`` is the error of the KKT map (see Notes) and the complementary
        slackness as in :func:`verify_squared_hinge_lpboost`; ``extras`` holds
        ``xi_from_dual`` :math:`(u^*/(pD))^{1/(p-1)}` and the dual exponent ``q``.

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Shen & Li (2010a), eq. (28).  KKT map :math:`\xi^*_i = (u^*_i/(pD))^{1/(p-1)}`,
    equivalently :math:`u^*_i = pD\,(\xi^*_i)^{p-1}`.  The residual uses the Lipschitz direction
    of the map (the first for ``p < 2``, the second for ``p >= 2``; the other one amplifies
    solver round-off near zero like a ``(p-1)``-th root).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import verify_generalized_hinge_lpboost
    >>> result = verify_generalized_hinge_lpboost(H, y, D=0.5, p=3.0)
    >>> round(result.primal, 4), round(result.dual, 4), result.extras["q"], result.passes()
    (0.6476, 0.6476, 1.5, True)
    """
    _, _, A = check_instance(H, y)
    D, p = check_positive(D, "D"), _exponent(p)
    ones = np.ones(A.shape[0])
    primal, dual, pp, dp = _solve_pair(
        f"generalized-hinge LPBoost (p={p:g})",
        build_generalized_hinge_primal(A, ones, D, p),
        build_generalized_hinge_dual(A, ones, D, p),
        solver,
        solver_options,
    )
    w, rho, xi, u = pp["w"], float(pp["rho"]), pp["xi"], dp["u"]
    mapped = (np.clip(u, 0.0, None) / (p * D)) ** (1.0 / (p - 1.0))
    if p < 2.0:
        map_error = float(np.max(np.abs(xi - mapped)))
    else:
        map_error = float(np.max(np.abs(u - p * D * np.clip(xi, 0.0, None) ** (p - 1.0))))
    kkt = max(
        map_error, abs(float(u @ (A @ w - rho + xi))), _column_slackness(A, w, u, float(dp["r"]))
    )
    violation = max(_lp_violations(A, pp, dp), float(np.max(-xi, initial=0.0)))
    return VerifyResult(
        f"generalized-hinge LPBoost (p={p:g}) / dual (28)",
        primal,
        dual,
        relative_gap(primal, dual),
        kkt,
        violation,
        pp,
        dp,
        solver,
        {"xi_from_dual": mapped, "q": p / (p - 1.0)},
    )


@dataclass(frozen=True)
class BottomAverageResult:
    r"""Soft-margin optimum with ``D = 1/n_bottom`` against the bottom-``n_bottom`` average margin.

    Returned by :func:`bottom_average_identity`.

    Parameters
    ----------
    lp_optimum, bottom_average, nth_smallest_margin, rho : float
        The values described under Attributes.
    w : ndarray, shape (N,)
        The LP solution.

    Attributes
    ----------
    lp_optimum : float
        Optimal value of (21) with ``D = 1/n_bottom``.
    bottom_average : float
        Average of the ``n_bottom`` smallest margins :math:`(Aw^*)_i` at the LP solution.
    nth_smallest_margin : float
        The ``n_bottom``-th smallest margin (an optimal :math:`\varrho`).
    rho : float
        The :math:`\varrho^*` returned by the solver.
    w : ndarray
        The LP solution.

    Notes
    -----
    The identity :math:`\mathrm{Opt}(21) = \frac{1}{n'}\sum_{i\in B_{n'}(w^*)} (Aw^*)_i` of
    Shalev-Shwartz & Singer (2010) for Shen & Li's soft-margin LPBoost (21) with
    :math:`D = 1/n'`; :attr:`difference` is the absolute difference of the two sides.

    References
    ----------
    Shalev-Shwartz, S. and Singer, Y. (2010). On the equivalence of weak learnability and
    linear separability: new relaxations and efficient boosting algorithms. Machine
    Learning 80(2-3), 141-163.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import BottomAverageResult
    >>> result = BottomAverageResult(0.5, 0.5, 0.25, 0.25, np.array([0.5, 0.5]))
    >>> result.difference
    0.0
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


def bottom_average_identity(
    H: ArrayLike,
    y: ArrayLike,
    n_bottom: int,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> BottomAverageResult:
    r"""Soft-margin LP (21) with :math:`D = 1/n'` equals the bottom-:math:`n'` average margin.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    n_bottom : int
        :math:`n'`, an integer in ``1 .. M``.
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    BottomAverageResult
        The LP optimum, the bottom-:math:`n'` average and the :math:`n'`-th smallest margin at
        the LP solution, the solver's :math:`\varrho^*` and the solution ``w``.

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Shalev-Shwartz & Singer (2010), used by Shen & Li (2010a), DirectBoost and MCBoost:
    :math:`\mathrm{Opt}(21) = \max_{w\in\Delta}\frac{1}{n'}\sum_{i\in B_{n'}(w)} (Aw)_i`, where
    :math:`B_{n'}(w)` indexes the :math:`n'` smallest margins; an optimal :math:`\varrho` is the
    :math:`n'`-th smallest margin.  DMCBoost's Theorem 1 (Zhai et al. 2014) states the same
    for fixed margins.

    References
    ----------
    Shalev-Shwartz, S. and Singer, Y. (2010). On the equivalence of weak learnability and
    linear separability: new relaxations and efficient boosting algorithms. Machine
    Learning 80(2-3), 141-163.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. Advances in Neural Information Processing Systems 26,
    872-880.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import bottom_average_identity
    >>> result = bottom_average_identity(H, y, n_bottom=2)
    >>> round(result.lp_optimum, 4), round(result.bottom_average, 4), result.difference < 1e-6
    (0.3333, 0.3333, True)
    """
    _, _, A = check_instance(H, y)
    if (
        isinstance(n_bottom, bool)
        or not isinstance(n_bottom, (int, np.integer))
        or not 1 <= n_bottom <= A.shape[0]
    ):
        raise ValueError(f"n_bottom must be an integer in [1, M={A.shape[0]}]; got {n_bottom!r}")
    problem, variables = build_soft_margin_primal(A, np.ones(A.shape[0]), 1.0 / int(n_bottom))
    optimum = solve_problem(
        problem, solver, f"soft-margin LPBoost (21), D = 1/{n_bottom}", solver_options
    )
    w = value_of(variables["w"])
    margins = np.sort(A @ w)
    return BottomAverageResult(
        optimum,
        float(margins[:n_bottom].mean()),
        float(margins[n_bottom - 1]),
        float(value_of(variables["rho"])),
        w,
    )


def tsallis_shannon_gaps(u: ArrayLike, qs: ArrayLike) -> NDArray[np.float64]:
    r""":math:`|S_q(u) - S_1(u)|` for each ``q``: the Tsallis entropy (29) tends to Shannon's as q -> 1.

    Parameters
    ----------
    u : array_like, shape (M,)
        A probability vector.
    qs : array_like
        Entropic indices ``q > 0``.

    Returns
    -------
    ndarray
        One gap per ``q`` (flattened order).

    Notes
    -----
    Shen & Li (2010a), eq. (29): :math:`S_q(u) = (1 - \sum_i u_i^q)/(q-1)` tends to the
    Shannon entropy :math:`S_1(u) = -\sum_i u_i\log u_i` as :math:`q \to 1`, with a gap
    :math:`O(|q-1|)`; see :func:`~marginboost.duality.entropy.tsallis_entropy`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.duality import tsallis_shannon_gaps
    >>> gaps = tsallis_shannon_gaps([0.5, 0.25, 0.25], [1.1, 1.01, 1.001])
    >>> [round(float(g), 5) for g in gaps]
    [0.05764, 0.00598, 0.0006]
    """
    shannon = tsallis_entropy(u, 1.0)
    return np.array([abs(tsallis_entropy(u, float(q)) - shannon) for q in np.ravel(qs)])
