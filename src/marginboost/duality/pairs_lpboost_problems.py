r"""The cvxpy primal and dual problems of LPBoost and its soft-margin variants (Shen & Li 2010).

Builders of the problems of :mod:`marginboost.duality.pairs_lpboost` (which re-exports them):
hard margin (19)/(20), soft margin (21)/(22), squared hinge (27) and generalized hinge (28),
each returned unsolved with its variables, and the coefficient of the Tsallis-type dual (28)
(:func:`tsallis_dual_constant`).  The checks that solve the pairs and compare them are in
:mod:`marginboost.duality.pairs_lpboost_verify`.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._common import check_instance, check_positive

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
]

Problem = tuple[cp.Problem, dict[str, cp.Variable]]


def _soft_margin_D(D: float, M: int) -> float:
    D = check_positive(D, "D")
    if D < 1.0 / M:
        raise ValueError(
            f"soft-margin cap D must be >= 1/M = 1/{M} = {1.0 / M:.6g} for the dual "
            f"(22) to be feasible (otherwise the primal (21) is unbounded); got D={D!r}"
        )
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
    r"""Hard-margin LPBoost (19): :math:`\max_{w,\varrho} \varrho` s.t. :math:`Aw \ge \varrho`, :math:`w \in \Delta`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"w"`` (shape (N,)) and ``"rho"`` (scalar).

    Notes
    -----
    Shen & Li (2010a), eq. (19): the largest minimum margin over normalized weights,

    .. math:: \max_{w,\varrho}\ \varrho \quad\text{s.t.}\quad y_i H_i w \ge \varrho\ \ \forall i,
              \quad w \ge 0,\ 1^\top w = 1,

    a linear program whose dual is (20) (:func:`build_hard_margin_dual`).

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
    >>> from marginboost.duality import build_hard_margin_primal
    >>> problem, variables = build_hard_margin_primal(H, y)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.3333
    """
    _, _, A = check_instance(H, y)
    w, rho, constraints = _simplex_primal(A)
    return cp.Problem(cp.Maximize(rho), constraints + [A @ w >= rho]), {"w": w, "rho": rho}


def build_hard_margin_dual(H: ArrayLike, y: ArrayLike) -> Problem:
    r"""Dual (20): :math:`\min_{r,u} r` s.t. :math:`A^\top u \le r`, :math:`u \in \Delta` (eq. (15) at T = 0).

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"`` (shape (M,)) and ``"r"`` (scalar).

    Notes
    -----
    Shen & Li (2010a), eq. (20): the smallest possible largest edge,

    .. math:: \min_{r,u}\ r \quad\text{s.t.}\quad \sum_i u_i y_i H_{ij} \le r\ \ \forall j,
              \quad u \ge 0,\ 1^\top u = 1.

    By LP duality :math:`\mathrm{Opt}(20) = \mathrm{Opt}(19)` (max-min margin = min-max edge);
    it is the LPBoost form (15) of AdaBoost's dual with :math:`T = 0`.

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
    >>> from marginboost.duality import build_hard_margin_dual
    >>> problem, variables = build_hard_margin_dual(H, y)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.3333
    >>> np.round(variables["u"].value[:3], 3).tolist()
    [0.333, 0.333, 0.333]
    """
    _, _, A = check_instance(H, y)
    u, r, constraints = _simplex_dual(A)
    return cp.Problem(cp.Minimize(r), constraints), {"u": u, "r": r}


def build_soft_margin_primal(H: ArrayLike, y: ArrayLike, D: float) -> Problem:
    r"""Soft-margin LPBoost (21): :math:`\max \varrho - D1^\top\xi` s.t. :math:`Aw \ge \varrho - \xi,\ \xi \ge 0`, :math:`w\in\Delta`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    D : float
        Cap on the dual weights, ``D >= 1/M`` (for ``D < 1/M`` the dual is infeasible and the
        primal unbounded).  ``D = 1/n'`` gives the bottom-:math:`n'` average margin.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"w"`` (shape (N,)), ``"rho"`` (scalar) and ``"xi"`` (shape (M,)).

    Raises
    ------
    ValueError
        If ``D < 1/M``.

    Notes
    -----
    Shen & Li (2010a), eq. (21) (Demiriz et al. 2002):

    .. math:: \max_{w,\varrho,\xi}\ \varrho - D\sum_i \xi_i \quad\text{s.t.}\quad
              y_i H_i w \ge \varrho - \xi_i,\ \xi \ge 0,\quad w \ge 0,\ 1^\top w = 1,

    the hinge loss :math:`\max\{0, \varrho - y_i H_i w\}` of each margin below :math:`\varrho`.
    With :math:`D = 1/n'` the optimum is the largest bottom-:math:`n'` average margin
    (Shalev-Shwartz & Singer 2010; :func:`bottom_average_identity`).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Demiriz, A., Bennett, K. P. and Shawe-Taylor, J. (2002). Linear programming boosting via
    column generation. Machine Learning 46(1-3), 225-254.

    Shalev-Shwartz, S. and Singer, Y. (2010). On the equivalence of weak learnability and
    linear separability: new relaxations and efficient boosting algorithms. Machine
    Learning 80(2-3), 141-163.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_soft_margin_primal
    >>> problem, variables = build_soft_margin_primal(H, y, D=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.3333
    """
    _, _, A = check_instance(H, y)
    D = _soft_margin_D(D, A.shape[0])
    w, rho, constraints = _simplex_primal(A)
    xi = cp.Variable(A.shape[0], name="xi")
    problem = cp.Problem(
        cp.Maximize(rho - D * cp.sum(xi)), constraints + [A @ w >= rho - xi, xi >= 0]
    )
    return problem, {"w": w, "rho": rho, "xi": xi}


def build_soft_margin_dual(H: ArrayLike, y: ArrayLike, D: float) -> Problem:
    r"""Dual (22): :math:`\min r` s.t. :math:`A^\top u \le r`, :math:`u\in\Delta`, :math:`u \le D`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    D : float
        Cap on the dual weights, ``D >= 1/M`` (for ``D < 1/M`` the dual is infeasible and the
        primal unbounded).  ``D = 1/n'`` gives the bottom-:math:`n'` average margin.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"`` (shape (M,)) and ``"r"`` (scalar).

    Raises
    ------
    ValueError
        If ``D < 1/M``.

    Notes
    -----
    Shen & Li (2010a), eq. (22): the hard-margin dual (20) with the weights capped,
    :math:`0 \le u_i \le D`; the cap is the conjugate domain of the hinge loss
    (:class:`~marginboost.losses.HingeLoss`).  The problem is feasible iff
    :math:`D \ge 1/M`.  At the optimum :math:`u^*_i = D` where the margin is below
    :math:`\varrho^*` and :math:`u^*_i = 0` where it is above.

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
    >>> from marginboost.duality import build_soft_margin_dual
    >>> problem, variables = build_soft_margin_dual(H, y, D=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.3333
    """
    _, _, A = check_instance(H, y)
    D = _soft_margin_D(D, A.shape[0])
    u, r, constraints = _simplex_dual(A)
    return cp.Problem(cp.Minimize(r), constraints + [u <= D]), {"u": u, "r": r}


def build_squared_hinge_primal(H: ArrayLike, y: ArrayLike, D: float) -> Problem:
    r"""Squared hinge soft margin: :math:`\max \varrho - D\sum\xi_i^2` s.t. :math:`Aw \ge \varrho - \xi`, :math:`w\in\Delta`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    D : float
        Trade-off parameter, ``D > 0`` (the weight of the slack penalty).

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"w"`` (shape (N,)), ``"rho"`` (scalar) and ``"xi"`` (shape (M,)).

    Notes
    -----
    The primal of Shen & Li (2010a), eq. (27): soft-margin LPBoost with the squared hinge
    loss,

    .. math:: \max_{w,\varrho,\xi}\ \varrho - D\sum_i \xi_i^2 \quad\text{s.t.}\quad
              y_i H_i w \ge \varrho - \xi_i,\quad w \ge 0,\ 1^\top w = 1

    (:math:`\xi \ge 0` holds at the optimum without being imposed).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_squared_hinge_primal
    >>> problem, variables = build_squared_hinge_primal(H, y, D=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.5
    """
    _, _, A = check_instance(H, y)
    D = check_positive(D, "D")
    w, rho, constraints = _simplex_primal(A)
    xi = cp.Variable(A.shape[0], name="xi")
    problem = cp.Problem(
        cp.Maximize(rho - D * cp.sum_squares(xi)), constraints + [A @ w >= rho - xi]
    )
    return problem, {"w": w, "rho": rho, "xi": xi}


def build_squared_hinge_dual(H: ArrayLike, y: ArrayLike, D: float) -> Problem:
    r"""Dual (27): :math:`\min r + \frac{1}{4D}\sum u_i^2` s.t. :math:`A^\top u \le r`, :math:`u\in\Delta`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    D : float
        Trade-off parameter, ``D > 0`` (the weight of the slack penalty).

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"`` (shape (M,)) and ``"r"`` (scalar).

    Notes
    -----
    Shen & Li (2010a), eq. (27): the hard-margin dual (20) regularized by
    :math:`\frac{1}{4D}\sum_i u_i^2`, the conjugate of :math:`D\xi^2`
    (:class:`~marginboost.losses.SquaredHingeLoss`).  KKT: :math:`\xi^*_i = u^*_i/(2D)`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_squared_hinge_dual
    >>> problem, variables = build_squared_hinge_dual(H, y, D=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.5
    """
    _, _, A = check_instance(H, y)
    D = check_positive(D, "D")
    u, r, constraints = _simplex_dual(A)
    return cp.Problem(cp.Minimize(r + cp.sum_squares(u) / (4.0 * D)), constraints), {"u": u, "r": r}


def tsallis_dual_constant(D: float, p: float) -> float:
    r"""Coefficient :math:`D^{1-q}(p^{1-q} - p^{-q})` of :math:`\sum u_i^q` in dual (28), :math:`q = p/(p-1)`.

    Parameters
    ----------
    D : float
        Trade-off parameter, ``D > 0``.
    p : float
        Exponent of the generalized hinge loss, ``p > 1``.

    Returns
    -------
    float
        :math:`D^{1-q}(p^{1-q} - p^{-q})` with the Hölder conjugate :math:`q = p/(p-1)`.

    Notes
    -----
    Shen & Li (2010a), eq. (28).  From
    :math:`\sup_{\xi\ge 0} u\xi - D\xi^p = \frac{1}{q}p^{1-q}D^{1-q}u^q` and
    :math:`\frac1q p^{1-q} = p^{1-q} - p^{-q}`.  For ``p = 2`` it is :math:`1/(4D)`, the
    coefficient of (27).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.duality import tsallis_dual_constant
    >>> tsallis_dual_constant(0.5, 2.0)
    0.5
    >>> round(tsallis_dual_constant(1.0, 3.0), 4)
    0.3849
    """
    D, p = check_positive(D, "D"), _exponent(p)
    q = p / (p - 1.0)
    return D ** (1.0 - q) * (p ** (1.0 - q) - p ** (-q))


def build_generalized_hinge_primal(H: ArrayLike, y: ArrayLike, D: float, p: float) -> Problem:
    r"""Generalized hinge: :math:`\max \varrho - D\sum\xi_i^p` s.t. :math:`Aw \ge \varrho - \xi,\ \xi\ge 0`, :math:`w\in\Delta`.

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

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"w"`` (shape (N,)), ``"rho"`` (scalar) and ``"xi"`` (shape (M,)).

    Notes
    -----
    The primal of Shen & Li (2010a), eq. (28): soft-margin LPBoost with the penalty
    :math:`D\sum_i \xi_i^p`, :math:`p > 1`
    (:class:`~marginboost.losses.GeneralizedHingeLoss`); ``p = 2`` is the squared hinge of
    (27).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_generalized_hinge_primal
    >>> problem, variables = build_generalized_hinge_primal(H, y, D=0.5, p=3.0)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.6476
    """
    _, _, A = check_instance(H, y)
    D, p = check_positive(D, "D"), _exponent(p)
    w, rho, constraints = _simplex_primal(A)
    xi = cp.Variable(A.shape[0], name="xi")
    problem = cp.Problem(
        cp.Maximize(rho - D * cp.sum(cp.power(xi, p))), constraints + [A @ w >= rho - xi, xi >= 0]
    )
    return problem, {"w": w, "rho": rho, "xi": xi}


def build_generalized_hinge_dual(H: ArrayLike, y: ArrayLike, D: float, p: float) -> Problem:
    r"""Dual (28): :math:`\min r + D^{1-q}(p^{1-q} - p^{-q})\sum u_i^q` s.t. :math:`A^\top u \le r`, :math:`u\in\Delta`.

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

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"`` (shape (M,)) and ``"r"`` (scalar).

    Notes
    -----
    Shen & Li (2010a), eq. (28), with :math:`1/p + 1/q = 1` and the constant of
    :func:`tsallis_dual_constant`.  Since :math:`\sum_i u_i^q = 1 - (q-1)S_q(u)` on the
    simplex, the regularizer is, up to a constant, :math:`-c(q-1)` times the Tsallis entropy
    (29) (:func:`tsallis_entropy`): soft-margin LPBoost with an :math:`\ell_p` penalty is
    Tsallis-entropy-regularized LPBoost.  KKT: :math:`\xi^*_i = (u^*_i/(pD))^{1/(p-1)}`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_generalized_hinge_dual
    >>> problem, variables = build_generalized_hinge_dual(H, y, D=0.5, p=3.0)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.6476
    """
    _, _, A = check_instance(H, y)
    c = tsallis_dual_constant(D, p)
    q = p / (p - 1.0)
    u, r, constraints = _simplex_dual(A)
    return cp.Problem(cp.Minimize(r + c * cp.sum(cp.power(u, q))), constraints), {"u": u, "r": r}
