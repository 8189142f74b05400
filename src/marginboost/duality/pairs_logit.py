r"""LogitBoost with an :math:`\ell_1` constraint and its binary-relative-entropy dual (Shen & Li 2010).

Theorem 3.2 (equation numbers of Shen & Li, TPAMI 2010), with positive margins
:math:`z = Aw`, :math:`A = \mathrm{diag}(y)H`:

* primal (32): :math:`\min_w \sum_i \log(1 + e^{-z_i})` s.t. :math:`w \ge 0,\ 1^\top w = 1/T`;
* dual (30): :math:`\max_{r,u} r/T - \sum_i[(-u_i)\log(-u_i) + (1+u_i)\log(1+u_i)]` s.t.
  :math:`A^\top u \ge r` (so :math:`-1 \le u \le 0`);
* dual (31) (:math:`u \to -u,\ r \to -r`, times :math:`T`): :math:`\min_{r,u} r + T\sum_i
  [u_i\log u_i + (1-u_i)\log(1-u_i)]` s.t. :math:`A^\top u \le r` (``u`` not normalized),
  :math:`\mathrm{Opt}(31) = -T\,\mathrm{Opt}(32)`;
* KKT (33): :math:`u^*_i = 1/(1 + e^{z^*_i})`, equivalently :math:`z^*_i = \log((1-u^*_i)/u^*_i)`.
"""

from __future__ import annotations

from typing import Any

import cvxpy as cp
import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit, logit

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
    "build_logitboost_primal",
    "build_logitboost_dual",
    "build_logitboost_dual_30",
    "logitboost_weights_from_margins",
    "logitboost_margins_from_weights",
    "verify_logitboost",
]

Problem = tuple[cp.Problem, dict[str, cp.Variable]]


def _temperature(T: float) -> float:
    return check_positive(T, "T", meaning="T = 1/sum(w) is the inverse l1 budget of the weights")


def build_logitboost_primal(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Primal (32): :math:`\min_w \sum_i \log(1 + \exp(-(Aw)_i))` s.t. :math:`w\ge 0,\ 1^\top w = 1/T`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T`.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"w"``.

    Notes
    -----
    Shen & Li (2010a), eq. (32): the logistic loss of the positive margins
    :math:`z_i = y_i H_i w` (:class:`~marginboost.losses.LogisticLoss`) with the same
    :math:`\ell_1` budget as AdaBoost's (5).  Its duals are (30) and (31) (Theorem 3.2).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Friedman, J., Hastie, T. and Tibshirani, R. (2000). Additive logistic regression: a
    statistical view of boosting. The Annals of Statistics 28(2), 337-407.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_logitboost_primal
    >>> problem, variables = build_logitboost_primal(H, y, T=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    1.37
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    w = cp.Variable(A.shape[1], name="w")
    problem = cp.Problem(cp.Minimize(cp.sum(cp.logistic(-A @ w))), [w >= 0, cp.sum(w) == 1.0 / T])
    return problem, {"w": w}


def build_logitboost_dual(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Dual (31): :math:`\min r - T\sum_i [H_b(u_i)]` s.t. :math:`A^\top u \le r`, :math:`0\le u\le 1`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T`.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"`` (shape (M,)) and ``"r"`` (scalar).

    Notes
    -----
    Shen & Li (2010a), eq. (31), obtained from (30) by :math:`u \to -u`, :math:`r \to -r` and
    multiplying by :math:`T`:

    .. math:: \min_{r,u}\ r + T\sum_i \bigl[u_i\log u_i + (1-u_i)\log(1-u_i)\bigr]
              \quad\text{s.t.}\quad \sum_i u_i y_i H_{ij} \le r\ \ \forall j,

    with :math:`H_b(u) = -u\log u - (1-u)\log(1-u)` the binary entropy
    (:func:`binary_relative_entropy`), :math:`0 \le u \le 1` and :math:`u` not normalized.
    :math:`\mathrm{Opt}(31) = -T\,\mathrm{Opt}(32)`; KKT (33): :math:`u^*_i = 1/(1+e^{z^*_i})`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_logitboost_dual
    >>> problem, variables = build_logitboost_dual(H, y, T=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    -0.685
    >>> np.round(variables["u"].value, 3).tolist()
    [0.339, 0.339, 0.339, 0.119]
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    problem = cp.Problem(
        cp.Minimize(r - T * cp.sum(cp.entr(u) + cp.entr(1 - u))), [A.T @ u <= r, u >= 0, u <= 1]
    )
    return problem, {"u": u, "r": r}


def build_logitboost_dual_30(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Dual (30): :math:`\max r/T + \sum_i H_b(-u_i)` s.t. :math:`A^\top u \ge r`, :math:`-1\le u\le 0`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T`.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"`` (shape (M,)) and ``"r"`` (scalar).

    Notes
    -----
    Shen & Li (2010a), eq. (30), the Lagrange dual of (32) as derived in Theorem 3.2:

    .. math:: \max_{r,u}\ \frac{r}{T} - \sum_i \bigl[(-u_i)\log(-u_i) + (1+u_i)\log(1+u_i)\bigr]
              \quad\text{s.t.}\quad \sum_i u_i y_i H_{ij} \ge r\ \ \forall j,

    the conjugate :math:`\mathrm{logit}^*` restricting :math:`-1 \le u \le 0`.
    :math:`\mathrm{Opt}(30) = \mathrm{Opt}(32)`; the optimal ``u`` is minus that of (31).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_logitboost_dual_30
    >>> problem, variables = build_logitboost_dual_30(H, y, T=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    1.37
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    problem = cp.Problem(
        cp.Maximize(r / T + cp.sum(cp.entr(-u) + cp.entr(1 + u))), [A.T @ u >= r, u <= 0, u >= -1]
    )
    return problem, {"u": u, "r": r}


def logitboost_weights_from_margins(margins: ArrayLike) -> NDArray[np.float64]:
    r"""KKT map (33): :math:`u_i = 1/(1 + e^{z_i})` (the LogitBoost sample weights).

    Parameters
    ----------
    margins : array_like
        Margins :math:`z_i = y_i H_i w`.

    Returns
    -------
    ndarray
        :math:`u_i = \sigma(-z_i) = 1/(1 + e^{z_i})`, in :math:`(0, 1)`, same shape.

    Notes
    -----
    Shen & Li (2010a), eq. (33): at the optimum the dual variables of (31) are the
    (unnormalized) example weights :math:`-c'(z_i)` of the logistic cost, below 1/2 exactly
    where the margin is positive.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import logitboost_weights_from_margins
    >>> np.round(logitboost_weights_from_margins([0.0, 1.0, -1.0]), 4).tolist()
    [0.5, 0.2689, 0.7311]
    """
    return expit(-np.asarray(margins, dtype=np.float64))


def logitboost_margins_from_weights(u: ArrayLike) -> NDArray[np.float64]:
    r"""Inverse of (33): :math:`z_i = \log((1 - u_i)/u_i)`, defined for :math:`0 < u_i < 1`.

    Parameters
    ----------
    u : array_like
        Dual weights of (31), strictly between 0 and 1.

    Returns
    -------
    ndarray
        The margins :math:`z_i = \log((1-u_i)/u_i)`, same shape.

    Raises
    ------
    ValueError
        If a weight is not in the open interval :math:`(0, 1)`.

    Notes
    -----
    Shen & Li (2010a), eq. (33) solved for the margin: as for AdaBoost (eq. (25)), the
    optimal margins are determined by the optimal dual weights.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import logitboost_margins_from_weights
    >>> np.round(logitboost_margins_from_weights([0.2, 0.25]), 4).tolist()
    [1.3863, 1.0986]
    """
    u = np.asarray(u, dtype=np.float64)
    bad = ~((u > 0) & (u < 1))
    if np.any(bad):
        raise ValueError(
            f"margins are defined by the weights only for 0 < u < 1; got {u[bad][0]!r}"
        )
    return -logit(u)


def verify_logitboost(
    H: ArrayLike,
    y: ArrayLike,
    T: float,
    solver: str = "CLARABEL",
    solver_options: dict[str, Any] | None = None,
) -> VerifyResult:
    r"""Theorem 3.2: primal (32) against dual (31), :math:`\mathrm{Opt}(31) = -T\,\mathrm{Opt}(32)`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T`.
    solver : str, default "CLARABEL"
        cvxpy solver used for both problems.
    solver_options : dict, optional
        Passed to the solver; by default tight tolerances are tried first and looser ones
        after an inaccurate solve (see ``marginboost.duality._common.solve_problem``).

    Returns
    -------
    VerifyResult
        ``gap`` compares ``dual`` with ``-T * primal``; ``kkt_residual`` is the larger of
        :math:`\|u^*_{(31)} - \sigma(-Aw^*)\|_\infty` (33) and the column complementary
        slackness :math:`|\sum_j Tw^*_j(r^* - (A^\top u^*)_j)|`; ``extras["u_from_primal"]``
        holds the mapped weights.

    Raises
    ------
    ValueError
        If ``H`` and ``y`` are malformed or a parameter is out of range.
    DualitySolverError
        If a solver does not reach an optimal solution of either problem.

    Notes
    -----
    Shen & Li (2010a), Theorem 3.2: the Lagrange dual of the :math:`\ell_1`-constrained
    logistic loss (32) is LPBoost regularized by the binary relative entropy, (30)/(31), and
    at the optimum (33) the dual weights are the LogitBoost example weights.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import verify_logitboost
    >>> result = verify_logitboost(H, y, T=0.5)
    >>> round(result.primal, 4), round(result.dual, 4), result.passes()
    (1.37, -0.685, True)
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    ones = np.ones(A.shape[0])
    problem, variables = build_logitboost_primal(A, ones, T)
    primal = solve_problem(problem, solver, "LogitBoost primal (32)", solver_options)
    w = value_of(variables["w"])
    problem, variables = build_logitboost_dual(A, ones, T)
    dual = solve_problem(problem, solver, "binary-relative-entropy dual (31)", solver_options)
    u, r = value_of(variables["u"]), float(value_of(variables["r"]))
    mapped = logitboost_weights_from_margins(A @ w)
    slackness = abs(float(np.clip(T * w, 0.0, None) @ (r - A.T @ u)))
    kkt = max(float(np.max(np.abs(u - mapped))), slackness)
    violation = max(
        simplex_violation(w, 1.0 / T),
        float(np.max(A.T @ u - r)),
        float(np.max(-u)),
        float(np.max(u - 1.0)),
        0.0,
    )
    return VerifyResult(
        "LogitBoost (32)/(31)",
        primal,
        dual,
        relative_gap(-T * primal, dual),
        kkt,
        violation,
        {"w": w},
        {"u": u, "r": np.asarray(r)},
        solver,
        {"u_from_primal": mapped},
    )
