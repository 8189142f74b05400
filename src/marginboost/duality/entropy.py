r"""Entropies that regularize the Lagrange duals of boosting (Shen & Li 2010, Table I).

* AdaBoost (exponential loss) -> Shannon entropy :math:`-\sum_i u_i \log u_i` (eqs. (10), (15)).
* LogitBoost (logistic loss) -> binary relative entropy (eqs. (30), (31)).
* soft-margin :math:`\ell_p` LPBoost (generalized hinge) -> Tsallis entropy (eqs. (28), (29)).

All functions reduce over the last axis, so a 2-D array holds one weight vector per row.
Natural logarithms throughout; :math:`0 \log 0 = 0`.

Weights produced by a numerical solver can be slightly outside their domain (``-1e-12``
instead of 0); values within ``tolerance`` of the domain are clipped onto it, values farther
away raise :class:`ValueError` naming the offending value.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import xlogy

__all__ = ["shannon_entropy", "binary_relative_entropy", "tsallis_entropy", "q_logarithm"]

#: Default distance outside the domain that is clipped instead of rejected.
DOMAIN_TOLERANCE = 1e-9


def _weights(u: ArrayLike, what: str) -> NDArray[np.float64]:
    try:
        arr = np.asarray(u, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{what} must be an array of real numbers; got {u!r}") from exc
    if arr.ndim == 0:
        raise ValueError(
            f"{what} must be a vector (1-D) or a stack of vectors (last axis); got a scalar"
        )
    if arr.shape[-1] == 0:
        raise ValueError(f"{what} must not be empty")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{what} must be finite; got {arr[~np.isfinite(arr)][:3].tolist()}")
    return arr


def _clip_to(
    arr: NDArray[np.float64], low: float, high: float, tolerance: float, what: str
) -> NDArray[np.float64]:
    below, above = arr < low - tolerance, arr > high + tolerance
    if np.any(below | above):
        bad = arr[below | above].ravel()[0]
        raise ValueError(
            f"{what} must lie in [{low:g}, {high:g}] (tolerance {tolerance:g}); "
            f"got the value {bad!r}"
        )
    return np.clip(arr, low, high)


def _check_simplex(arr: NDArray[np.float64], tolerance: float, what: str) -> NDArray[np.float64]:
    arr = _clip_to(arr, 0.0, np.inf, tolerance, what)
    sums = arr.sum(axis=-1)
    if np.any(np.abs(sums - 1.0) > tolerance * max(1, arr.shape[-1])):
        worst = np.ravel(sums)[np.argmax(np.abs(np.ravel(sums) - 1.0))]
        raise ValueError(f"{what} must sum to 1 (a probability vector); a vector sums to {worst!r}")
    return arr


def _scalar_or_array(arr: np.ndarray) -> Any:
    return arr[()] if np.ndim(arr) == 0 else arr


def shannon_entropy(u: ArrayLike, *, tolerance: float = DOMAIN_TOLERANCE) -> Any:
    r"""Shannon entropy :math:`H(u) = -\sum_i u_i \log u_i` (natural log, :math:`0\log 0 = 0`).

    Parameters
    ----------
    u : array_like
        Non-negative weights, one vector per last axis.  Normalization is not required (the
        formula is applied as written); on the simplex :math:`H(u) \in [0, \log M]`.
    tolerance : float
        Entries in ``[-tolerance, 0)`` are treated as 0; more negative entries raise.

    Returns
    -------
    float or ndarray
        One entropy per vector.  Shen & Li's dual (15) minimizes :math:`r - T H(u)`; by their
        Proposition 3.1, :math:`-H(u)` is the conjugate of log-sum-exp on the simplex.

    Raises
    ------
    ValueError
        If an entry is below ``-tolerance`` or not finite, or ``u`` is a scalar or empty.

    Notes
    -----
    Shen & Li (2010a), eqs. (10) and (15): the Lagrange dual of AdaBoost's
    :math:`\ell_1`-constrained problem (5) is LPBoost's dual regularized by the Shannon
    entropy; Proposition 3.1 identifies :math:`-H` as the conjugate of log-sum-exp.  Their
    remark in Sec. 3.2 that the negative entropy is the Kullback-Leibler distance to the
    uniform distribution holds up to a constant: :math:`\mathrm{KL}(u\,\|\,1/M) = \log M - H(u)`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.duality import shannon_entropy
    >>> round(float(shannon_entropy([0.5, 0.5])), 4)
    0.6931
    >>> [round(float(h), 4) for h in shannon_entropy([[0.25, 0.75], [0.5, 0.5]])]
    [0.5623, 0.6931]
    """
    arr = _clip_to(_weights(u, "weights u"), 0.0, np.inf, tolerance, "weights u")
    return _scalar_or_array(-np.sum(xlogy(arr, arr), axis=-1))


def binary_relative_entropy(u: ArrayLike, *, tolerance: float = DOMAIN_TOLERANCE) -> Any:
    r"""Binary relative entropy :math:`\sum_i -u_i \log u_i - (1 - u_i)\log(1 - u_i)` of Shen & Li.

    The dual (31) of LogitBoost minimizes :math:`r - T\,\text{binary\_relative\_entropy}(u)`
    subject to the edge constraints, with :math:`0 \le u_i \le 1` and no normalization of
    :math:`u`; (30) is the same in the variable :math:`-u`.  Each term is the entropy of a
    Bernoulli(:math:`u_i`) variable, equal to :math:`\log 2 - \mathrm{KL}(\mathrm{Bern}(u_i)
    \,\|\, \mathrm{Bern}(1/2))`, a relative entropy up to a constant.

    Parameters
    ----------
    u : array_like
        Weights in ``[0, 1]``, one vector per last axis.
    tolerance : float
        Entries within ``tolerance`` outside ``[0, 1]`` are clipped; others raise.

    Returns
    -------
    float or ndarray
        :math:`\sum_i H_b(u_i)`, one value per vector, in :math:`[0, M\log 2]`.

    Raises
    ------
    ValueError
        If an entry is farther than ``tolerance`` outside :math:`[0, 1]` or not finite.

    Notes
    -----
    Shen & Li (2010a), Theorem 3.2, eqs. (30)-(31): the conjugate of the logistic loss is
    the negative binary entropy on :math:`[0, 1]`
    (:meth:`marginboost.losses.LogisticLoss.conjugate`), so the dual of LogitBoost's
    :math:`\ell_1`-constrained problem (32) is LPBoost regularized by this entropy.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.duality import binary_relative_entropy
    >>> round(float(binary_relative_entropy([0.5, 0.5])), 4)   # 2 log 2
    1.3863
    >>> round(float(binary_relative_entropy([0.0, 1.0, 0.25])), 4)
    0.5623
    """
    arr = _clip_to(_weights(u, "weights u"), 0.0, 1.0, tolerance, "weights u")
    return _scalar_or_array(-np.sum(xlogy(arr, arr) + xlogy(1.0 - arr, 1.0 - arr), axis=-1))


def tsallis_entropy(u: ArrayLike, q: float, *, tolerance: float = DOMAIN_TOLERANCE) -> Any:
    r"""Tsallis entropy :math:`S_q(u) = (1 - \sum_i u_i^q)/(q - 1)` on the simplex (Shen & Li eq. (29)).

    Parameters
    ----------
    u : array_like
        Probability vectors (non-negative, summing to 1 within ``tolerance``), last axis.
    q : float
        Entropic index, ``q > 0``.  ``q = 1`` gives the Shannon entropy, which is also the
        limit :math:`q \to 1`.
    tolerance : float
        Clipping tolerance for slightly negative entries and for the sum.

    Returns
    -------
    float or ndarray
        :math:`S_q(u)`, one value per vector.

    Raises
    ------
    ValueError
        If ``q <= 0``, or ``u`` is not a probability vector within ``tolerance``.

    Notes
    -----
    Evaluated as :math:`\sum_i u_i\,(1 - u_i^{q-1})/(q-1) = \sum_i -u_i\,
    \mathrm{expm1}((q-1)\log u_i)/(q-1)`, which equals the definition on the simplex and is
    accurate as :math:`q \to 1` (no cancellation), so :math:`|S_q - S_1| = O(|q - 1|)` is
    observable down to :math:`|q - 1| \approx 10^{-12}`.  Equivalent forms:
    :math:`S_q(u) = \sum_i u_i \log_q(1/u_i) = -\sum_i u_i^q \log_q u_i` with the q-logarithm
    :func:`q_logarithm`.  (Shen & Li's text writes :math:`-\sum_i u_i \log_q u_i`, which is
    :math:`S_{2-q}`, not :math:`S_q`.)

    Shen & Li (2010a) show in eqs. (28)-(29) that soft-margin LPBoost with the penalty
    :math:`\sum_i \xi_i^p` has a dual regularized by :math:`\sum_i u_i^q = 1 - (q-1)S_q(u)`,
    :math:`1/p + 1/q = 1`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Tsallis, C. (1988). Possible generalization of Boltzmann-Gibbs statistics. Journal of
    Statistical Physics 52(1-2), 479-487.

    Examples
    --------
    >>> from marginboost.duality import tsallis_entropy
    >>> round(float(tsallis_entropy([0.5, 0.25, 0.25], 2.0)), 6)
    0.625
    >>> round(float(tsallis_entropy([0.5, 0.25, 0.25], 1.0)), 6)   # Shannon
    1.039721
    >>> round(float(tsallis_entropy([0.5, 0.25, 0.25], 1.0 + 1e-6)), 5)
    1.03972
    """
    if isinstance(q, bool) or not isinstance(q, (int, float, np.integer, np.floating)):
        raise TypeError(f"entropic index q must be a real number > 0; got {q!r}")
    if not math.isfinite(float(q)) or float(q) <= 0.0:
        raise ValueError(f"entropic index q must be finite and > 0; got q={q!r}")
    q = float(q)
    arr = _check_simplex(_weights(u, "weights u"), tolerance, "weights u")
    if q == 1.0:
        return _scalar_or_array(-np.sum(xlogy(arr, arr), axis=-1))
    positive = arr > 0.0
    safe = np.where(positive, arr, 1.0)
    terms = np.where(positive, -safe * np.expm1((q - 1.0) * np.log(safe)) / (q - 1.0), 0.0)
    return _scalar_or_array(np.sum(terms, axis=-1))


def q_logarithm(x: ArrayLike, q: float) -> Any:
    r"""Tsallis q-logarithm :math:`\log_q(x) = (x^{1-q} - 1)/(1 - q)`, :math:`\log_1 = \log`.

    Evaluated as :math:`\mathrm{expm1}((1-q)\log x)/(1-q)` for accuracy near :math:`q = 1`.
    ``x`` must be positive.

    Parameters
    ----------
    x : array_like
        Positive values.
    q : float
        Finite real index; ``q = 1`` gives the natural logarithm.

    Returns
    -------
    float or ndarray
        :math:`\log_q(x)`, same shape as ``x``.

    Raises
    ------
    ValueError
        If an entry of ``x`` is not positive.

    Notes
    -----
    Used with the Tsallis entropy (29) of Shen & Li (2010a): :math:`S_q(u) = \sum_i u_i
    \log_q(1/u_i) = -\sum_i u_i^q\log_q u_i`.  The paper's :math:`-\sum_i u_i\log_q u_i` is
    :math:`S_{2-q}`, not :math:`S_q` (see :func:`tsallis_entropy`).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Tsallis, C. (1988). Possible generalization of Boltzmann-Gibbs statistics. Journal of
    Statistical Physics 52(1-2), 479-487.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import q_logarithm
    >>> np.round(q_logarithm([1.0, 2.0], 2.0), 4).tolist()
    [0.0, 0.5]
    >>> round(float(q_logarithm(2.0, 1.0)), 4), round(float(q_logarithm(2.0, 0.5)), 4)
    (0.6931, 0.8284)
    """
    if (
        isinstance(q, bool)
        or not isinstance(q, (int, float, np.integer, np.floating))
        or not math.isfinite(float(q))
    ):
        raise TypeError(f"q must be a finite real number; got {q!r}")
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"x must be real numbers; got {x!r}") from exc
    if np.any(~(arr > 0.0)):
        raise ValueError(f"q_logarithm needs x > 0; got {arr[~(arr > 0.0)].ravel()[0]!r}")
    q = float(q)
    if q == 1.0:
        return _scalar_or_array(np.log(arr))
    return _scalar_or_array(np.expm1((1.0 - q) * np.log(arr)) / (1.0 - q))
