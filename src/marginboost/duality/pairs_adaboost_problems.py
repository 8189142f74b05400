r"""The cvxpy problems of AdaBoost's entropy-regularized pairs and the maps between their optima.

Builders of the problems of :mod:`marginboost.duality.pairs_adaboost` (which re-exports them),
each returned unsolved with its variables: the :math:`\ell_1`-constrained primal (5) and its
Shannon dual (10), the unnormalized pair (exponential loss / (14)), the LPBoost form (15) and
the Gibbs free energy (16)-(18) (Shen & Li 2010); and the closed forms that relate the optima:
the KKT map (24) from weights to sample weights, the back map (25) from the dual to the
margins, :math:`r^*` of (15) and the Gibbs free energy and distribution.  The checks that solve
the pairs and compare them are in :mod:`marginboost.duality.pairs_adaboost_verify`.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import logsumexp, softmax, xlogy

from ._common import check_instance, check_positive

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
