r"""The convex margin costs, each with the closed form of its Fenchel conjugate.

AdaBoost's exponential cost, the logistic cost, the hinge, squared hinge and generalized hinge
costs of soft-margin LPBoost, L2Boost's squared cost and MadaBoost's cost (Shen & Li 2010,
Sec. 3 and Table I; Mason et al. 1999, Table 1), all subclasses of
:class:`~marginboost.losses.MarginCost` and re-exported by :mod:`marginboost.losses`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from scipy.special import expit, xlogy

from .base import FloatArray, MarginCost, _conjugate_on_interval, _real_above

__all__ = [
    "ExponentialLoss",
    "LogisticLoss",
    "HingeLoss",
    "GeneralizedHingeLoss",
    "SquaredHingeLoss",
    "SquaredLoss",
    "MadaBoostLoss",
]


@dataclass(frozen=True)
class ExponentialLoss(MarginCost):
    r"""AdaBoost's exponential cost :math:`c(m) = e^{-m}`.

    Attributes
    ----------
    name : str
        Registry key, ``'exponential'`` (see :func:`get_loss`).
    formula : str
        LaTeX of :math:`c(m)`, :math:`e^{-m}`.
    is_convex : bool
        ``True``.

    Notes
    -----
    :math:`c'(m) = -e^{-m}` and :math:`c''(m) = e^{-m}`; :math:`c''` is unbounded, so
    :attr:`lipschitz_constant` is None.  As the cost of AnyBoost it gives AdaBoost's example
    weights :math:`D(i) \propto e^{-y_i F(x_i)}` (Mason et al. 2000, Table 1; Freund &
    Schapire 1997).

    Conjugate (negative-margin form, :math:`g(z) = e^z`): :math:`u \log u - u` for
    :math:`u \ge 0` (with :math:`0 \log 0 = 0`), ``+inf`` for :math:`u < 0`.  Shen & Li's
    Theorem 3.1 works with the log of the summed cost (log-sum-exp, Proposition 3.1, see
    :func:`marginboost.duality.lse_conjugate`), whose dual (10) is regularized by the Shannon
    entropy; the un-logged sum gives their dual (14), whose objective contains
    :math:`-\sum_i (u_i\log u_i - u_i)`.

    References
    ----------
    Freund, Y. and Schapire, R. E. (1997). A decision-theoretic generalization of on-line
    learning and an application to boosting. Journal of Computer and System Sciences
    55(1), 119-139.

    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. Advances in Neural Information Processing Systems 12, 512-518.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.losses import ExponentialLoss
    >>> cost = ExponentialLoss()
    >>> [round(float(v), 4) for v in cost.value([-1.0, 0.0, 1.0])]
    [2.7183, 1.0, 0.3679]
    >>> float(cost.derivative(0.0))
    -1.0
    >>> [round(float(v), 4) for v in cost.conjugate([-0.5, 0.0, 1.0])]
    [inf, 0.0, -1.0]
    """

    name: ClassVar[str] = "exponential"
    formula: ClassVar[str] = r"e^{-m}"
    is_convex: ClassVar[bool] = True

    def value(self, m: FloatArray) -> Any:
        with np.errstate(over="ignore"):
            return np.exp(-m)

    def derivative(self, m: FloatArray) -> Any:
        with np.errstate(over="ignore"):
            return -np.exp(-m)

    def second_derivative(self, m: FloatArray) -> Any:
        return self.value(m)

    def conjugate(self, u: FloatArray) -> Any:
        with np.errstate(invalid="ignore"):
            finite = xlogy(u, u) - u
        return _conjugate_on_interval(u, finite, 0.0, np.inf)


@dataclass(frozen=True)
class LogisticLoss(MarginCost):
    r"""Logistic cost :math:`c(m) = \log(1 + e^{-m})` (natural log), as in Shen & Li eq. (32).

    Attributes
    ----------
    name : str
        Registry key, ``'logistic'`` (see :func:`get_loss`).
    formula : str
        LaTeX of :math:`c(m)`, :math:`\log(1 + e^{-m})`.
    is_convex : bool
        ``True``.

    Notes
    -----
    :math:`c'(m) = -\sigma(-m)` and :math:`c''(m) = \sigma(m)\sigma(-m) \le 1/4` with the
    logistic function :math:`\sigma`, so :attr:`lipschitz_constant` is 1/4.  The AnyBoost
    weights are :math:`D(i) \propto 1/(1 + e^{y_i F(x_i)})` (Mason et al. 2000, Table 1).
    Friedman, Hastie & Tibshirani's LogitBoost uses :math:`\log(1 + e^{-2m})`, the same cost
    of the margin :math:`2m`.

    Conjugate (negative-margin form, :math:`g(z) = \log(1+e^z)`): the negative binary entropy
    :math:`u \log u + (1-u)\log(1-u)` on :math:`[0, 1]`, ``+inf`` elsewhere.  It is the
    regularizer of the LogitBoost dual (31) (Shen & Li 2010a, Theorem 3.2); their
    :math:`\mathrm{logit}^*` is the margin form :meth:`~MarginCost.margin_conjugate`.

    References
    ----------
    Friedman, J., Hastie, T. and Tibshirani, R. (2000). Additive logistic regression: a
    statistical view of boosting. The Annals of Statistics 28(2), 337-407.

    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. Advances in Neural Information Processing Systems 12, 512-518.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.losses import LogisticLoss
    >>> cost = LogisticLoss()
    >>> round(float(cost.value(0.0)), 4), float(cost.derivative(0.0)), cost.lipschitz_constant
    (0.6931, -0.5, 0.25)
    >>> [round(float(v), 4) for v in cost.conjugate([-0.5, 0.5, 1.0, 2.0])]
    [inf, -0.6931, 0.0, inf]
    """

    name: ClassVar[str] = "logistic"
    formula: ClassVar[str] = r"\log\left(1 + e^{-m}\right)"
    is_convex: ClassVar[bool] = True

    def value(self, m: FloatArray) -> Any:
        return np.logaddexp(0.0, -m)

    def derivative(self, m: FloatArray) -> Any:
        return -expit(-m)

    def second_derivative(self, m: FloatArray) -> Any:
        return expit(m) * expit(-m)

    @property
    def lipschitz_constant(self) -> float:
        return 0.25

    def conjugate(self, u: FloatArray) -> Any:
        with np.errstate(invalid="ignore"):
            finite = xlogy(u, u) + xlogy(1.0 - u, 1.0 - u)
        return _conjugate_on_interval(u, finite, 0.0, 1.0)


@dataclass(frozen=True)
class HingeLoss(MarginCost):
    r"""Hinge cost :math:`c(m) = \max\{0, 1 - m\}` of soft-margin LPBoost (Shen & Li eq. (21)).

    Attributes
    ----------
    name : str
        Registry key, ``'hinge'`` (see :func:`get_loss`).
    formula : str
        LaTeX of :math:`c(m)`, :math:`\max\{0, 1 - m\}`.
    is_convex : bool
        ``True``.

    Notes
    -----
    The derivative at the kink :math:`m = 1` is the left derivative :math:`-1` (a
    subgradient); :math:`c'' = 0` almost everywhere but :math:`c'` is discontinuous, so
    :attr:`lipschitz_constant` is None.

    Conjugate (negative-margin form): :math:`-u` on :math:`[0, 1]`, ``+inf`` elsewhere.  In the
    Lagrange dual of soft-margin LPBoost the box :math:`0 \le u \le 1` becomes the cap
    :math:`u_i \le D` of (22) (Shen & Li 2010a, Sec. 3.2; Demiriz et al. 2002), and with
    :math:`D = 1/n'` the primal optimum is the largest average of the :math:`n'` smallest
    margins (Shalev-Shwartz & Singer 2010).

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
    >>> from marginboost.losses import HingeLoss
    >>> cost = HingeLoss()
    >>> cost.value([-1.0, 0.5, 2.0]).tolist(), cost.derivative([1.0, 2.0]).tolist()
    ([2.0, 0.5, 0.0], [-1.0, 0.0])
    >>> cost.conjugate([-0.5, 0.5, 1.5]).tolist()
    [inf, -0.5, inf]
    """

    name: ClassVar[str] = "hinge"
    formula: ClassVar[str] = r"\max\{0,\, 1 - m\}"
    is_convex: ClassVar[bool] = True

    def value(self, m: FloatArray) -> Any:
        return np.maximum(0.0, 1.0 - m)

    def derivative(self, m: FloatArray) -> Any:
        return np.where(m <= 1.0, -1.0, 0.0)

    def second_derivative(self, m: FloatArray) -> Any:
        return np.zeros_like(m)

    def conjugate(self, u: FloatArray) -> Any:
        return _conjugate_on_interval(u, -u, 0.0, 1.0)


@dataclass(frozen=True)
class GeneralizedHingeLoss(MarginCost):
    r"""Generalized hinge cost :math:`c(m) = \max\{0, 1 - m\}^p`, :math:`p > 1` (Shen & Li Sec. 3.3).

    Parameters
    ----------
    p : float, default 2.0
        Exponent, ``p > 1`` (``p = 1`` is :class:`HingeLoss`; ``p = 2`` equals
        :class:`SquaredHingeLoss`).

    Attributes
    ----------
    name : str
        Registry key, ``'generalized_hinge'`` (see :func:`get_loss`).
    is_convex : bool
        ``True``.
    p : float
        The exponent.

    Raises
    ------
    ValueError
        If ``p <= 1`` or ``p`` is not finite.

    Notes
    -----
    :math:`c'(m) = -p\max\{0, 1-m\}^{p-1}`; :math:`c''` is bounded (by 2) only for
    :math:`p = 2`, so :attr:`lipschitz_constant` is None for other exponents.

    With the Hölder conjugate exponent :math:`q = p / (p - 1)` (:attr:`dual_exponent`) the
    conjugate (negative-margin form) is

    .. math:: g^*(u) = -u + (p^{1-q} - p^{-q})\, u^q, \qquad u \ge 0,

    and ``+inf`` for :math:`u < 0`.  It follows from
    :math:`\sup_{\xi \ge 0} u\xi - \xi^p = (1/q) p^{1-q} u^q = (p^{1-q} - p^{-q}) u^q`, the
    constant of Shen & Li's eq. (28) with :math:`D = 1`; the :math:`u^q` term is a Tsallis
    entropy (eq. (29)) of the dual weights.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.losses import GeneralizedHingeLoss
    >>> cost = GeneralizedHingeLoss(p=3)
    >>> cost.value([-1.0, 0.0, 2.0]).tolist(), cost.dual_exponent
    ([8.0, 1.0, 0.0], 1.5)
    >>> float(cost.derivative(0.0))
    -3.0
    >>> [round(float(v), 4) for v in cost.conjugate([-0.5, 0.5, 1.0])]
    [inf, -0.3639, -0.6151]
    """

    p: float = 2.0

    name: ClassVar[str] = "generalized_hinge"
    is_convex: ClassVar[bool] = True

    def __post_init__(self) -> None:
        hint = " (p = 1 is the plain hinge loss: use get_loss('hinge'))" if self.p == 1 else ""
        object.__setattr__(
            self, "p", _real_above(self.p, 1.0, "generalized hinge exponent p", hint)
        )

    @property
    def formula(self) -> str:  # type: ignore[override]  # a property over a class attribute
        return rf"\max\{{0,\, 1 - m\}}^{{{self.p:g}}}"

    @property
    def dual_exponent(self) -> float:
        """Hölder conjugate exponent :math:`q = p/(p-1)` (``1/p + 1/q = 1``)."""
        return self.p / (self.p - 1.0)

    def value(self, m: FloatArray) -> Any:
        return np.maximum(0.0, 1.0 - m) ** self.p

    def derivative(self, m: FloatArray) -> Any:
        return -self.p * np.maximum(0.0, 1.0 - m) ** (self.p - 1.0)

    def second_derivative(self, m: FloatArray) -> Any:
        slack = np.maximum(0.0, 1.0 - m)
        with np.errstate(divide="ignore"):
            inside = self.p * (self.p - 1.0) * slack ** (self.p - 2.0)
        # m > 1: zero; m == 1: left limit (inf for p < 2, 2 for p = 2, 0 for p > 2).
        return np.where(m > 1.0, 0.0, inside)

    @property
    def lipschitz_constant(self) -> float | None:
        # c'' = p (p-1) (1-m)^{p-2} on m < 1 is bounded only for p = 2.
        return 2.0 if self.p == 2.0 else None

    def conjugate(self, u: FloatArray) -> Any:
        p, q = self.p, self.dual_exponent
        with np.errstate(invalid="ignore"):
            finite = -u + (p ** (1.0 - q) - p ** (-q)) * np.abs(u) ** q
        return _conjugate_on_interval(u, finite, 0.0, np.inf)


@dataclass(frozen=True)
class SquaredHingeLoss(MarginCost):
    r"""Squared hinge cost :math:`c(m) = \max\{0, 1 - m\}^2` (Shen & Li eq. (27)).

    Attributes
    ----------
    name : str
        Registry key, ``'squared_hinge'`` (see :func:`get_loss`).
    formula : str
        LaTeX of :math:`c(m)`, :math:`\max\{0, 1 - m\}^2`.
    is_convex : bool
        ``True``.

    Notes
    -----
    :math:`c'(m) = -2\max\{0, 1-m\}` and :math:`c''(m) = 2` for :math:`m \le 1` (0 beyond), so
    :attr:`lipschitz_constant` is 2.  The same cost as ``GeneralizedHingeLoss(p=2)``.

    Conjugate (negative-margin form): :math:`u^2/4 - u` for :math:`u \ge 0`, ``+inf``
    otherwise.  In the dual (27) of the squared-hinge soft-margin LPBoost it becomes the
    variance-like regularizer :math:`\sum_i u_i^2 / (4D)` (Shen & Li 2010a, Sec. 3.3).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.losses import SquaredHingeLoss
    >>> cost = SquaredHingeLoss()
    >>> cost.value([-1.0, 0.5, 2.0]).tolist(), cost.derivative([-1.0, 0.5]).tolist()
    ([4.0, 0.25, 0.0], [-4.0, -1.0])
    >>> cost.conjugate([-0.5, 1.0, 2.0]).tolist()
    [inf, -0.75, -1.0]
    """

    name: ClassVar[str] = "squared_hinge"
    formula: ClassVar[str] = r"\max\{0,\, 1 - m\}^2"
    is_convex: ClassVar[bool] = True

    def value(self, m: FloatArray) -> Any:
        return np.maximum(0.0, 1.0 - m) ** 2

    def derivative(self, m: FloatArray) -> Any:
        return -2.0 * np.maximum(0.0, 1.0 - m)

    def second_derivative(self, m: FloatArray) -> Any:
        return np.where(m <= 1.0, 2.0, 0.0)

    @property
    def lipschitz_constant(self) -> float:
        return 2.0

    def conjugate(self, u: FloatArray) -> Any:
        return _conjugate_on_interval(u, 0.25 * u**2 - u, 0.0, np.inf)


@dataclass(frozen=True)
class SquaredLoss(MarginCost):
    r"""Squared cost :math:`c(m) = (1 - m)^2` of L2Boost, equal to :math:`(y - F(x))^2` for ±1 labels.

    Attributes
    ----------
    name : str
        Registry key, ``'squared'`` (see :func:`get_loss`).
    formula : str
        LaTeX of :math:`c(m)`, :math:`(1 - m)^2`.
    is_convex : bool
        ``True``.

    Notes
    -----
    Unlike the other costs it also penalizes large positive margins.  :math:`c'(m) = -2(1-m)`,
    :math:`c'' = 2` (:attr:`lipschitz_constant`).  Minimized over weights with
    :math:`\|w\|_1 = 1/E`, it is MCBoost's objective in disguise (Guo & Chen, eqs. (4)-(8):
    L2Boost drives the unnormalized margins towards 1).

    Conjugate (negative-margin form): :math:`u^2/4 - u` for every real :math:`u` (the dual
    weights are free in sign, as in MCBoost's dual (19)).

    References
    ----------
    Buhlmann, P. and Yu, B. (2003). Boosting with the L2 loss: regression and
    classification. Journal of the American Statistical Association 98(462), 324-339.

    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript,
    Nanjing University of Aeronautics and Astronautics.

    Examples
    --------
    >>> from marginboost.losses import SquaredLoss
    >>> cost = SquaredLoss()
    >>> cost.value([-1.0, 1.0, 2.0]).tolist(), cost.derivative([-1.0, 2.0]).tolist()
    ([4.0, 0.0, 1.0], [-4.0, 2.0])
    >>> cost.conjugate([-0.5, 2.0]).tolist()
    [0.5625, -1.0]
    """

    name: ClassVar[str] = "squared"
    formula: ClassVar[str] = r"(1 - m)^2"
    is_convex: ClassVar[bool] = True

    def value(self, m: FloatArray) -> Any:
        return (1.0 - m) ** 2

    def derivative(self, m: FloatArray) -> Any:
        return -2.0 * (1.0 - m)

    def second_derivative(self, m: FloatArray) -> Any:
        return 2.0 + 0.0 * m

    @property
    def lipschitz_constant(self) -> float:
        return 2.0

    def conjugate(self, u: FloatArray) -> Any:
        return 0.25 * u**2 - u


@dataclass(frozen=True)
class MadaBoostLoss(MarginCost):
    r"""MadaBoost's cost: :math:`e^{-m}` for :math:`m \ge 0` and :math:`1 - m` for :math:`m < 0`.

    Attributes
    ----------
    name : str
        Registry key, ``'madaboost'`` (see :func:`get_loss`).
    formula : str
        LaTeX of :math:`c(m)`, a two-case expression.
    is_convex : bool
        ``True``.

    Notes
    -----
    Its negative derivative :math:`\min\{1, e^{-m}\}` is MadaBoost's capped example weight
    (Domingo & Watanabe 2000): the exponential weights of AdaBoost, never above the initial
    weight.  The cost is convex and continuously differentiable; :math:`c''` jumps from 0 to 1
    at :math:`m = 0` (left limit 0 returned there) and is at most 1
    (:attr:`lipschitz_constant`).

    Conjugate (negative-margin form): :math:`u \log u - u` on :math:`[0, 1]`, ``+inf``
    elsewhere: the exponential cost's conjugate with the weights capped at 1.

    References
    ----------
    Domingo, C. and Watanabe, O. (2000). MadaBoost: a modification of AdaBoost. Proceedings
    of the 13th Annual Conference on Computational Learning Theory, 180-189.

    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. Advances in Neural Information Processing Systems 12, 512-518.

    Examples
    --------
    >>> from marginboost.losses import MadaBoostLoss
    >>> cost = MadaBoostLoss()
    >>> [round(float(v), 4) for v in cost.value([-1.0, 0.0, 1.0])]
    [2.0, 1.0, 0.3679]
    >>> [round(float(v), 4) for v in cost.derivative([-1.0, 1.0])]
    [-1.0, -0.3679]
    >>> [round(float(v), 4) for v in cost.conjugate([0.5, 2.0])]
    [-0.8466, inf]
    """

    name: ClassVar[str] = "madaboost"
    formula: ClassVar[str] = r"\begin{cases} e^{-m} & m \ge 0 \\ 1 - m & m < 0 \end{cases}"
    is_convex: ClassVar[bool] = True

    def value(self, m: FloatArray) -> Any:
        return np.where(m >= 0.0, np.exp(-np.maximum(m, 0.0)), 1.0 - m)

    def derivative(self, m: FloatArray) -> Any:
        return -np.exp(-np.maximum(m, 0.0))

    def second_derivative(self, m: FloatArray) -> Any:
        return np.where(m > 0.0, np.exp(-np.maximum(m, 0.0)), 0.0)

    @property
    def lipschitz_constant(self) -> float:
        return 1.0

    def conjugate(self, u: FloatArray) -> Any:
        with np.errstate(invalid="ignore"):
            finite = xlogy(u, u) - u
        return _conjugate_on_interval(u, finite, 0.0, 1.0)
