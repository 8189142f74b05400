r"""The entropy-regularised masters: AdaBoost-CG, LogitBoost-CG and ERLPBoost.

* :func:`solve_adaboost_l1`: the AdaBoost-:math:`\ell_1` primal (5) of Shen & Li (2010), whose
  dual (15) is LPBoost regularised by the relative entropy; the dual follows from the KKT
  conditions (24).
* :func:`solve_logitboost`: the LogitBoost primal (32), whose dual (31) is regularised by the
  binary entropy; KKT conditions (33).
* :func:`solve_erlpboost`: ERLPBoost's master (Warmuth, Glocer & Vishwanathan 2008), the
  entropy-regularised soft-margin dual over the capped simplex, through its dual over the
  hypothesis weights (:func:`capped_softmax`, :func:`relative_entropy_to_uniform`).

All three are solved by :func:`~marginboost.boosting._master_smooth.solve_simplex_smooth`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit, softmax

from ._master_smooth import solve_simplex_smooth
from ._master_solution import MasterSolution, _check_matrix, _check_T

__all__ = [
    "solve_adaboost_l1",
    "solve_logitboost",
    "capped_softmax",
    "relative_entropy_to_uniform",
    "solve_erlpboost",
]

FloatArray = NDArray[np.float64]


def solve_adaboost_l1(
    A: FloatArray, T: float, w0: FloatArray | None = None, *, rtol: float = 1e-10
) -> MasterSolution:
    r"""AdaBoost-:math:`\ell_1` primal (Shen & Li eq. (5)) and its dual (15).

    .. math:: \min_w\ \log\sum_i \exp(-(A w)_i) \quad\text{s.t.}\quad w \ge 0,\
              \mathbf 1^\top w = 1/T.

    ``objective`` is the value of (5); ``u = softmax(-A w)`` (KKT (24)); ``r`` is the largest
    edge :math:`\max_j (A^\top u)_j`, so that :math:`(r, u)` is feasible for (15) and
    ``duality_gap`` :math:`= r + T\sum_i u_i\log u_i + T\cdot\mathrm{Opt}(5) \ge 0`.
    """
    A = _check_matrix(A)
    T = _check_T(T)

    def value_grad(w: FloatArray) -> tuple[float, FloatArray]:
        z = -(A @ w)
        top = float(z.max())  # log-sum-exp by hand: scipy's is ~50x slower on small vectors
        value = top + float(np.log(np.exp(z - top).sum()))
        return value, -(A.T @ np.exp(z - value))

    def hessian(w: FloatArray, S: NDArray[np.intp]) -> FloatArray:
        u: FloatArray = softmax(-(A @ w))
        block = A[:, S]
        edges = block.T @ u
        return (block.T * u) @ block - np.outer(edges, edges)

    w, value, _, iterations, stalled = solve_simplex_smooth(
        value_grad, A.shape[1], 1.0 / T, w0, rtol=rtol, hessian=hessian
    )
    u = softmax(-(A @ w))
    r = float((A.T @ u).max())
    entropy_term = float(np.sum(u[u > 0] * np.log(u[u > 0])))
    gap = max(0.0, r + T * entropy_term + T * value)
    return MasterSolution(
        w=w, u=u, r=r, objective=value, duality_gap=gap, iterations=iterations, stalled=stalled
    )


def solve_logitboost(
    A: FloatArray, T: float, w0: FloatArray | None = None, *, rtol: float = 1e-10
) -> MasterSolution:
    r"""LogitBoost primal (Shen & Li eq. (32)) and its dual (31).

    .. math:: \min_w\ \sum_i \log(1 + \exp(-(A w)_i)) \quad\text{s.t.}\quad w \ge 0,\
              \mathbf 1^\top w = 1/T.

    ``u_i = 1/(1 + exp(z_i))`` with ``z = A w`` (KKT (33), not normalised); ``r`` is the largest
    edge; ``duality_gap`` :math:`= r + T\sum_i[u_i\log u_i + (1-u_i)\log(1-u_i)] + T\cdot
    \mathrm{Opt}(32) \ge 0`.
    """
    A = _check_matrix(A)
    T = _check_T(T)

    def value_grad(w: FloatArray) -> tuple[float, FloatArray]:
        z = A @ w
        return float(np.logaddexp(0.0, -z).sum()), -(A.T @ expit(-z))

    def hessian(w: FloatArray, S: NDArray[np.intp]) -> FloatArray:
        p: FloatArray = expit(-(A @ w))
        block = A[:, S]
        return (block.T * (p * (1.0 - p))) @ block

    w, value, _, iterations, stalled = solve_simplex_smooth(
        value_grad, A.shape[1], 1.0 / T, w0, rtol=rtol, hessian=hessian
    )
    z = A @ w
    u = expit(-z)
    r = float((A.T @ u).max())
    # log u = -log(1 + e^{z}) and log(1 - u) = -log(1 + e^{-z})
    binary_entropy = -(u * np.logaddexp(0.0, z) + (1.0 - u) * np.logaddexp(0.0, -z))
    gap = max(0.0, r + T * float(binary_entropy.sum()) + T * value)
    return MasterSolution(
        w=w, u=u, r=r, objective=value, duality_gap=gap, iterations=iterations, stalled=stalled
    )


def capped_softmax(scores: FloatArray, D: float) -> FloatArray:
    r"""The distribution :math:`d_i = \min(D, e^{s_i - \lambda})` with :math:`\lambda` such that
    :math:`\sum_i d_i = 1`: the entropy projection onto the capped simplex
    :math:`\{d \ge 0, \mathbf 1^\top d = 1, d \le D\}`.

    It minimises :math:`-s^\top d + \sum_i d_i\log d_i` over the capped simplex (Warmuth, Glocer
    & Vishwanathan 2008): the largest scores are capped at :math:`D` and the rest share the
    remaining mass in proportion to :math:`e^{s_i}`.  Computed exactly from the sorted scores in
    :math:`O(M\log M)`: with :math:`k` weights capped, the largest free one is
    :math:`(1 - kD)e^{s_{(k+1)}}/\sum_{j > k} e^{s_{(j)}}`, and :math:`k` is the smallest count
    for which it is at most :math:`D`.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.boosting._master_entropy import capped_softmax
    >>> capped_softmax(np.log(np.array([6.0, 2.0, 1.0, 1.0])), D=0.5).round(3)
    array([0.5  , 0.25 , 0.125, 0.125])
    """
    scores = np.asarray(scores, dtype=np.float64)
    M = scores.size
    if not (np.isfinite(D) and D * M >= 1.0 - 1e-12):
        raise ValueError(f"D must be at least 1/M = {1.0 / M:.6g} (else no distribution fits)")
    order = np.argsort(-scores, kind="stable")
    ordered = scores[order]
    # suffix log-sum-exp: tail[k] = log sum_{j >= k} exp(s_(j))
    tail = np.logaddexp.accumulate(ordered[::-1])[::-1]
    k = np.arange(M)
    free_mass = 1.0 - k * D
    fits = np.zeros(M, dtype=bool)
    positive = free_mass > 0.0
    fits[positive] = (
        np.log(free_mass[positive]) + ordered[positive] - tail[positive] <= np.log(D) + 1e-12
    )
    capped = int(np.argmax(fits)) if fits.any() else M - 1
    d = np.empty(M)
    d[:capped] = D
    d[capped:] = max(free_mass[capped], 0.0) * np.exp(ordered[capped:] - tail[capped])
    out = np.empty(M)
    out[order] = d
    return out


def relative_entropy_to_uniform(d: FloatArray) -> float:
    r""":math:`\Delta(d, \mathbf 1/M) = \sum_i d_i \log(M d_i)`, the relative entropy of a
    distribution to the uniform one (0 at the uniform distribution, at most :math:`\log M`)."""
    d = np.asarray(d, dtype=np.float64)
    positive = d > 0
    return float(np.sum(d[positive] * np.log(d.size * d[positive])))


def solve_erlpboost(
    A: FloatArray, D: float, eta: float, w0: FloatArray | None = None, *, rtol: float = 1e-10
) -> MasterSolution:
    r"""ERLPBoost's restricted master (Warmuth, Glocer & Vishwanathan 2008) and its dual.

    The entropy-regularised soft-margin LPBoost dual over the columns of ``A``,

    .. math:: P(d) = \max_j\,(A^\top d)_j + \tfrac1\eta\,\Delta(d, \mathbf 1/M),\qquad
              \min_d P(d)\ \ \text{s.t.}\ \ \mathbf 1^\top d = 1,\ 0 \le d \le D,

    is solved through its Lagrange dual, a smooth concave problem over the hypothesis weights,

    .. math:: \max_{w \ge 0,\ \mathbf 1^\top w = 1}\ g(w),\qquad
              g(w) = \min_{0 \le d \le D,\ \mathbf 1^\top d = 1}
              d^\top A w + \tfrac1\eta\,\Delta(d, \mathbf 1/M),

    whose inner minimiser is :func:`capped_softmax` of :math:`-\eta A w` and whose gradient is
    :math:`A^\top d` -- by :func:`solve_simplex_smooth` with the exact Hessian
    :math:`\eta A_F^\top(\mathrm{diag}(d_F) - d_Fd_F^\top/\mathbf 1^\top d_F)A_F` (``F``: the
    uncapped examples).  With ``D = 1`` there is no cap and this is AdaBoost-:math:`\ell_1`'s
    dual (15) (Shen & Li 2010) with :math:`T = 1/\eta`.

    Returns a :class:`MasterSolution`: ``w`` the hypothesis weights (summing to 1), ``u`` the
    example distribution :math:`d`, ``r`` the largest edge :math:`\max_j (A^\top d)_j`,
    ``objective`` :math:`g(w)` and ``duality_gap`` :math:`P(d) - g(w) \ge 0`.
    """
    A = _check_matrix(A)
    M = A.shape[0]
    if not (np.isfinite(D) and D * M >= 1.0 - 1e-12):
        raise ValueError(f"D must be a finite number >= 1/M = {1.0 / M:.6g}; got {D!r}")
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a positive finite number; got {eta!r}")

    def inner(w: FloatArray) -> tuple[FloatArray, FloatArray]:
        margins = A @ w
        return margins, capped_softmax(-eta * margins, D)

    def value_grad(w: FloatArray) -> tuple[float, FloatArray]:
        margins, d = inner(w)
        value = float(d @ margins) + relative_entropy_to_uniform(d) / eta
        return -value, -(A.T @ d)

    def hessian(w: FloatArray, S: NDArray[np.intp]) -> FloatArray:
        _, d = inner(w)
        free = d < D * (1.0 - 1e-12)
        block = A[np.ix_(free, S)]
        d_free = d[free]
        mass = float(d_free.sum())
        edges = block.T @ d_free
        curvature: FloatArray = (block.T * d_free) @ block
        if mass > 0.0:
            curvature -= np.outer(edges, edges) / mass
        return eta * curvature

    w, value, _, iterations, stalled = solve_simplex_smooth(
        value_grad, A.shape[1], 1.0, w0, rtol=rtol, hessian=hessian
    )
    _, d = inner(w)
    r = float((A.T @ d).max())
    g = -value
    gap = max(0.0, r + relative_entropy_to_uniform(d) / eta - g)
    return MasterSolution(
        w=w, u=d, r=r, objective=g, duality_gap=gap, iterations=iterations, stalled=stalled
    )
