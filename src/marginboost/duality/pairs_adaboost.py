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

Problem = tuple[cp.Problem, dict[str, cp.Variable]]


def _temperature(T: float) -> float:
    return check_positive(T, "T", meaning="T = 1/sum(w) is the inverse l1 budget of the weights")


def build_adaboost_l1_primal(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Primal (5): :math:`\min_w \mathrm{lse}(-Aw)` s.t. :math:`w \ge 0,\ 1^\top w = 1/T`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T` (Shen & Li's :math:`T` is the
        inverse :math:`\ell_1` budget, a "temperature").

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"w"``.

    Notes
    -----
    Shen & Li (2010a), eq. (5): AdaBoost's exponential loss, logged, over weights with an
    :math:`\ell_1` budget,

    .. math:: \min_w \log\sum_{i=1}^M \exp(-y_i H_i w) \quad \text{s.t.}\quad w \ge 0,\
              1^\top w = 1/T,

    with :math:`A = \mathrm{diag}(y) H`.  Its Lagrange dual is (10)
    (:func:`build_adaboost_l1_dual`, Theorem 3.1).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_adaboost_l1_primal
    >>> problem, variables = build_adaboost_l1_primal(H, y, T=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.5162
    >>> np.round(variables["w"].value, 3).tolist()
    [0.667, 0.667, 0.667]
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    w = cp.Variable(A.shape[1], name="w")
    problem = cp.Problem(cp.Minimize(cp.log_sum_exp(-A @ w)), [w >= 0, cp.sum(w) == 1.0 / T])
    return problem, {"w": w}


def build_adaboost_l1_dual(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Shannon-entropy dual (10): :math:`\max r/T - \sum u\log u` s.t. :math:`A^\top u \le -r`, simplex.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T` (Shen & Li's :math:`T` is the
        inverse :math:`\ell_1` budget, a "temperature").

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"`` (shape (M,)) and ``"r"`` (scalar).

    Notes
    -----
    Shen & Li (2010a), eq. (10), the Lagrange dual of (5) (Theorem 3.1):

    .. math:: \max_{r,u}\ \frac{r}{T} - \sum_i u_i\log u_i \quad\text{s.t.}\quad
              \sum_i u_i y_i H_{ij} \le -r\ \ \forall j,\quad u \ge 0,\ 1^\top u = 1.

    The entropy term is minus the conjugate of log-sum-exp (Proposition 3.1,
    :func:`lse_conjugate`); strong duality gives :math:`\mathrm{Opt}(10) = \mathrm{Opt}(5)`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_adaboost_l1_dual
    >>> problem, variables = build_adaboost_l1_dual(H, y, T=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.5162
    >>> np.round(variables["u"].value, 3).tolist()
    [0.306, 0.306, 0.306, 0.081]
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    problem = cp.Problem(
        cp.Maximize(r / T + cp.sum(cp.entr(u))), [A.T @ u <= -r, u >= 0, cp.sum(u) == 1]
    )
    return problem, {"u": u, "r": r}


def build_adaboost_unnormalized_primal(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Un-logged primal: :math:`\min_w \sum_i \exp(-(Aw)_i)` s.t. :math:`w \ge 0,\ 1^\top w = 1/T`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T` (Shen & Li's :math:`T` is the
        inverse :math:`\ell_1` budget, a "temperature").

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"w"``.

    Notes
    -----
    The exponential loss without the logarithm of Shen & Li (2010a), eq. (5); it has the same
    minimizer, and its optimal value is :math:`\exp(\mathrm{Opt}(5))`.  Its Lagrange dual is
    eq. (14) (:func:`build_adaboost_unnormalized_dual`).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_adaboost_unnormalized_primal
    >>> problem, variables = build_adaboost_unnormalized_primal(H, y, T=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4), round(float(np.exp(0.516163)), 4)
    (1.6756, 1.6756)
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    w = cp.Variable(A.shape[1], name="w")
    problem = cp.Problem(cp.Minimize(cp.sum(cp.exp(-A @ w))), [w >= 0, cp.sum(w) == 1.0 / T])
    return problem, {"w": w}


def build_adaboost_unnormalized_dual(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""Dual (14): :math:`\max r/T - \sum u\log u + 1^\top u` s.t. :math:`A^\top u \le -r,\ u \ge 0`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T > 0``; the weights satisfy :math:`1^\top w = 1/T` (Shen & Li's :math:`T` is the
        inverse :math:`\ell_1` budget, a "temperature").

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"`` (shape (M,)) and ``"r"`` (scalar).

    Notes
    -----
    Shen & Li (2010a), eq. (14): the dual of the un-logged exponential loss,

    .. math:: \max_{r,u}\ \frac{r}{T} - \sum_i u_i\log u_i + 1^\top u \quad\text{s.t.}\quad
              \sum_i u_i y_i H_{ij} \le -r\ \ \forall j,\quad u \ge 0,

    with no normalization of :math:`u`: the term :math:`-(u\log u - u)` is minus the
    conjugate of :math:`e^z` (:class:`~marginboost.losses.ExponentialLoss`).  At the optimum
    :math:`u^*_i = \exp(-(Aw^*)_i)`, the unnormalized AdaBoost weights, and
    :math:`u^*_{(10)} = u^*_{(14)}/1^\top u^*_{(14)}`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_adaboost_unnormalized_dual
    >>> problem, variables = build_adaboost_unnormalized_dual(H, y, T=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    1.6756
    >>> np.round(variables["u"].value, 3).tolist()
    [0.513, 0.513, 0.513, 0.135]
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    problem = cp.Problem(
        cp.Maximize(r / T + cp.sum(cp.entr(u)) + cp.sum(u)), [A.T @ u <= -r, u >= 0]
    )
    return problem, {"u": u, "r": r}


def build_adaboost_lpboost_form_dual(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""LPBoost form (15): :math:`\min r + T\sum u\log u` s.t. :math:`A^\top u \le r`, simplex.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        ``T >= 0``; ``T = 0`` gives the hard-margin LPBoost dual (20).

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"`` (shape (M,)) and ``"r"`` (scalar).

    Notes
    -----
    Shen & Li (2010a), eq. (15), obtained from (10) by :math:`r \to -r` and multiplying the
    objective by :math:`-T`:

    .. math:: \min_{r,u}\ r + T\sum_i u_i\log u_i \quad\text{s.t.}\quad
              \sum_i u_i y_i H_{ij} \le r\ \ \forall j,\quad u \ge 0,\ 1^\top u = 1,

    so :math:`\mathrm{Opt}(15) = -T\,\mathrm{Opt}(5)`: LPBoost's dual (20) regularized by the
    Shannon entropy.  With ``T = 0`` it is exactly (20), hence ``T >= 0`` is accepted here.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_adaboost_lpboost_form_dual
    >>> problem, variables = build_adaboost_lpboost_form_dual(H, y, T=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4), round(-0.5 * 0.516163, 4)
    (-0.2581, -0.2581)
    >>> problem, variables = build_adaboost_lpboost_form_dual(H, y, T=0.0)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    0.3333
    """
    _, _, A = check_instance(H, y)
    T = float(T) if T == 0 else _temperature(T)
    u, r = cp.Variable(A.shape[0], name="u"), cp.Variable(name="r")
    objective = r if T == 0 else r - T * cp.sum(cp.entr(u))
    problem = cp.Problem(cp.Minimize(objective), [A.T @ u <= r, u >= 0, cp.sum(u) == 1])
    return problem, {"u": u, "r": r}


def adaboost_weights_from_primal(H: ArrayLike, y: ArrayLike, w: ArrayLike) -> NDArray[np.float64]:
    r"""KKT map (24): :math:`u^* = \mathrm{softmax}(-A w^*)`, AdaBoost's normalized sample weights.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    w : array_like, shape (N,)
        Weights of the weak learners (an optimal point of (5) for the KKT map).

    Returns
    -------
    ndarray, shape (M,)
        :math:`u_i = \exp(-(Aw)_i) / \sum_k \exp(-(Aw)_k)`, a probability vector.

    Notes
    -----
    Shen & Li (2010a), eq. (24): stationarity of the Lagrangian (12) in the negative margins
    :math:`z = -Aw` gives :math:`u^*_i = \exp(z^*_i)/\sum_k \exp(z^*_k)`, so the optimal
    dual variables of (10) and (15) are the example weights AdaBoost would use at
    :math:`w^*`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import adaboost_weights_from_primal
    >>> u = adaboost_weights_from_primal(H, y, np.full(3, 2 / 3))
    >>> np.round(u, 4).tolist(), round(float(u.sum()), 12)
    ([0.3064, 0.3064, 0.3064, 0.0808], 1.0)
    """
    _, _, A = check_instance(H, y)
    return softmax(-A @ np.asarray(w, dtype=np.float64))


def adaboost_margins_from_dual(u: ArrayLike, primal_value: float) -> NDArray[np.float64]:
    r"""Back map (25): margins :math:`A w^* = -\log u^* - \mathrm{Opt}(5)` (needs ``u > 0``).

    Parameters
    ----------
    u : array_like, shape (M,)
        Optimal dual weights of (10) (or (15)), all positive.
    primal_value : float
        :math:`\mathrm{Opt}(5)`, the optimal value of the primal.

    Returns
    -------
    ndarray, shape (M,)
        The unnormalized margins :math:`y_i H_i w^*`.

    Raises
    ------
    ValueError
        If a weight is not positive (the margin of such an example is not determined).

    Notes
    -----
    Shen & Li (2010a), eq. (25): taking the logarithm of (24),
    :math:`-z^*_i = y_i H_i w^* = -\log u^*_i - \mathrm{Opt}(5)`.  The margins are thus
    determined by the dual weights, and (26) :math:`\mathrm{var}(y_i H_i w^*) =
    \mathrm{var}(\log u^*_i)`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import adaboost_margins_from_dual
    >>> u = np.array([0.3064, 0.3064, 0.3064, 0.0808])
    >>> np.round(adaboost_margins_from_dual(u, 0.516163), 2).tolist()
    [0.67, 0.67, 0.67, 2.0]
    """
    u = np.asarray(u, dtype=np.float64)
    if np.any(~(u > 0)):
        raise ValueError(
            "the margins are determined by the dual weights only where u > 0; "
            f"got the weight {u[~(u > 0)][0]!r}"
        )
    return -np.log(u) - float(primal_value)


def lpboost_form_r_star(u: ArrayLike, normalized_margins: ArrayLike, T: float) -> float:
    r"""Optimal :math:`r^*` of (15) from the optimal points, Shen & Li Sec. 3.5 (sign corrected).

    Parameters
    ----------
    u : array_like, shape (M,)
        Optimal dual weights of (15) (slightly negative solver values are clipped to 0).
    normalized_margins : array_like, shape (M,)
        :math:`\varrho^* = T A w^*` at the optimal primal point of (5).
    T : float
        ``T > 0``.

    Returns
    -------
    float
        :math:`-T\sum_i u^*_i\log u^*_i - T\log\sum_i \exp(-\varrho^*_i/T)`.

    Notes
    -----
    Shen & Li (2010a), Sec. 3.5:

    .. math:: r^* = -T\sum_i u^*_i\log u^*_i - T\log\sum_i \exp(-\varrho^*_i/T).

    The paper prints :math:`+T\sum u^*\log u^*`; substituting (24) shows the sign must be
    negative.  The second term is :math:`-T\,\mathrm{Opt}(5)`.  As :math:`T \to 0` the entropy
    term vanishes and the soft-min tends to :math:`\min_i \varrho^*_i`, the hard margin
    (see :func:`zero_temperature_limit`).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import lpboost_form_r_star
    >>> u = np.array([0.30640, 0.30640, 0.30640, 0.08080])
    >>> rho = np.array([1 / 3, 1 / 3, 1 / 3, 1.0])
    >>> round(lpboost_form_r_star(u, rho, T=0.5), 3)
    0.387
    """
    T = _temperature(T)
    u = np.asarray(u, dtype=np.float64)
    rho = np.asarray(normalized_margins, dtype=np.float64)
    u = np.clip(u, 0.0, None)
    return float(-T * np.sum(xlogy(u, u)) - T * logsumexp(-rho / T))


def gibbs_free_energy(v: ArrayLike, T: float) -> float:
    r"""Closed form (17): :math:`\min_{u \in \Delta} u^\top v + T\sum u\log u = -T\log\sum_i e^{-v_i/T}`.

    Parameters
    ----------
    v : array_like, shape (M,)
        Energies, one per example.
    T : float
        Temperature, ``T > 0``.

    Returns
    -------
    float
        The free energy :math:`-T\log\sum_i \exp(-v_i/T)`.

    Notes
    -----
    Shen & Li (2010a), eqs. (16)-(17): the minimum over the simplex of the energy
    :math:`u^\top v` minus :math:`T` times the Shannon entropy is the Gibbs free energy,
    attained at the Gibbs distribution (:func:`gibbs_distribution`).  With the energies
    :math:`v_{ij} = y_i H_{ij}` and a maximum over the columns this is (18), a form of the
    AdaBoost dual (15).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.duality import gibbs_free_energy
    >>> round(gibbs_free_energy([1 / 3, 1 / 3, 1 / 3, 1.0], T=0.5), 4)
    -0.2581
    >>> round(gibbs_free_energy([0.0, 0.0], T=1.0), 4)   # -log 2
    -0.6931
    """
    T = _temperature(T)
    return float(-T * logsumexp(-np.asarray(v, dtype=np.float64) / T))


def gibbs_distribution(v: ArrayLike, T: float) -> NDArray[np.float64]:
    r"""Minimizer of (16): the Gibbs distribution :math:`u_i \propto \exp(-v_i/T)`.

    Parameters
    ----------
    v : array_like, shape (M,)
        Energies.
    T : float
        Temperature, ``T > 0``.

    Returns
    -------
    ndarray, shape (M,)
        :math:`\mathrm{softmax}(-v/T)`, a probability vector.

    Notes
    -----
    Shen & Li (2010a), eqs. (16)-(17).  With :math:`v = A\bar w` for normalized weights
    :math:`\bar w = Tw` it is the KKT map (24), AdaBoost's example weights.  As
    :math:`T \to 0` the weight concentrates on the lowest energies (smallest margins).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import gibbs_distribution
    >>> np.round(gibbs_distribution([1 / 3, 1 / 3, 1 / 3, 1.0], T=0.5), 4).tolist()
    [0.3064, 0.3064, 0.3064, 0.0808]
    """
    T = _temperature(T)
    return softmax(-np.asarray(v, dtype=np.float64) / T)


def build_gibbs_problem(v: ArrayLike, T: float) -> Problem:
    r"""Free energy (16) of a fixed energy vector ``v``: :math:`\min_{u\in\Delta} u^\top v + T\sum u\log u`.

    Parameters
    ----------
    v : array_like, shape (M,)
        Finite energies.
    T : float
        Temperature, ``T > 0``.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"``.

    Raises
    ------
    ValueError
        If ``v`` is not a non-empty finite vector or ``T <= 0``.

    Notes
    -----
    Shen & Li (2010a), eq. (16).  Its optimal value is the closed form (17)
    (:func:`gibbs_free_energy`) and its minimizer the Gibbs distribution
    (:func:`gibbs_distribution`).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.duality import build_gibbs_problem
    >>> problem, variables = build_gibbs_problem([1 / 3, 1 / 3, 1 / 3, 1.0], T=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    -0.2581
    """
    T = _temperature(T)
    v = np.asarray(v, dtype=np.float64)
    if v.ndim != 1 or v.size == 0 or not np.all(np.isfinite(v)):
        raise ValueError(f"energy v must be a non-empty finite vector; got shape {v.shape}")
    u = cp.Variable(v.size, name="u")
    problem = cp.Problem(cp.Minimize(v @ u - T * cp.sum(cp.entr(u))), [u >= 0, cp.sum(u) == 1])
    return problem, {"u": u}


def build_gibbs_minimax(H: ArrayLike, y: ArrayLike, T: float) -> Problem:
    r"""(18): :math:`\min_{u\in\Delta} \max_j u^\top v_j + T\sum u\log u` with :math:`v_{ij} = y_iH_{ij}`.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs :math:`H_{ij} = h_j(x_i)`, rows are examples (finite reals).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.
    T : float
        Temperature, ``T > 0``.

    Returns
    -------
    problem : cvxpy.Problem
        The unsolved problem.
    variables : dict of str to cvxpy.Variable
        Its variables, ``"u"``.

    Notes
    -----
    Shen & Li (2010a), eq. (18): the LPBoost form (15) with the epigraph variable :math:`r`
    eliminated, :math:`r = \max_j (A^\top u)_j`.  Its optimal value is
    :math:`\mathrm{Opt}(15) = -T\,\mathrm{Opt}(5)`: the weights minimize the largest edge
    regularized by :math:`-T` times the entropy, a minimax free energy.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> y = np.ones(4)
    >>> from marginboost.duality import build_gibbs_minimax
    >>> problem, variables = build_gibbs_minimax(H, y, T=0.5)
    >>> round(float(problem.solve(solver="CLARABEL")), 4)
    -0.2581
    """
    _, _, A = check_instance(H, y)
    T = _temperature(T)
    u = cp.Variable(A.shape[0], name="u")
    problem = cp.Problem(
        cp.Minimize(cp.max(A.T @ u) - T * cp.sum(cp.entr(u))), [u >= 0, cp.sum(u) == 1]
    )
    return problem, {"u": u}


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
