r"""Margin cost functions :math:`c(m)` of the margin :math:`m = y F(x)`.

A boosting algorithm that minimizes :math:`\sum_i c(y_i F(x_i))` is determined, up to its
optimization method, by the margin cost :math:`c`.  This module collects the costs used by the
papers reproduced in this project, each with its value, derivatives, the Lipschitz constant of
its derivative (the step size of AnyBoost's Theorem 1, Mason et al. 1999) and, where one
exists, the closed form of its Fenchel conjugate (the entropy that appears in the Lagrange
dual, Shen & Li 2010, Table I).

Conventions
-----------
* Margins are float64 numpy arrays (any shape); every method is vectorized and returns an
  array of the same shape (a numpy scalar for scalar input).
* At a kink (hinge at :math:`m = 1`, MadaBoost's second derivative at :math:`m = 0`) the
  derivative functions return the **left limit**.  For convex costs the left derivative is a
  subgradient.
* Conjugates are taken in the **negative-margin** variable :math:`z = -m`, as Shen & Li do for
  AdaBoost (their eq. (11) introduces :math:`z_i = -y_i H_i w`).  With :math:`g(z) = c(-z)`,

  .. math:: \text{conjugate}(u) = g^*(u) = \sup_{z \in \mathbb{R}} \; u z - c(-z)
            = \sup_{m} \; -u m - c(m) = c^*(-u),

  so that for decreasing costs the conjugate is finite only for :math:`u \ge 0` and the dual
  variable :math:`u` is a (non-negative) weight on a training example.  The conjugate of
  :math:`c` itself, in the margin variable, is :meth:`MarginCost.margin_conjugate`
  (:math:`c^*(v) = g^*(-v)`); Shen & Li's :math:`\mathrm{logit}^*` in Theorem 3.2 is the
  margin form.  Outside the domain the conjugate is ``+inf``.

Writing your own cost
---------------------
Subclass :class:`MarginCost` and implement :meth:`~MarginCost.value` (and, for gradient-based
algorithms, :meth:`~MarginCost.derivative`)::

    import numpy as np
    from dataclasses import dataclass
    from marginboost.losses import MarginCost

    @dataclass(frozen=True)
    class CubicHinge(MarginCost):
        name = "cubic_hinge"
        formula = r"\max\{0, 1-m\}^3"
        is_convex = True

        def value(self, m):          # m arrives as a float64 array
            return np.maximum(0.0, 1.0 - m) ** 3

        def derivative(self, m):
            return -3.0 * np.maximum(0.0, 1.0 - m) ** 2

Subclass methods ``value``, ``derivative``, ``second_derivative`` and ``conjugate`` receive
float64 arrays and their results are returned with the input's shape.  Plain functions can be
wrapped with :class:`FunctionMarginCost` instead.

References
----------
Shen & Li (2010), "On the dual formulation of boosting algorithms", TPAMI 32(12), Sec. 3 and
Fig. 2.  Mason, Baxter, Bartlett & Frean (1999), "Boosting algorithms as gradient descent",
NIPS 12, Table 1 and eq. (4).  Friedman, Hastie & Tibshirani (2000), "Additive logistic
regression".  Domingo & Watanabe (2000), "MadaBoost: a modification of AdaBoost".
"""

from __future__ import annotations

import dataclasses
import functools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit, xlogy

__all__ = [
    "MarginCost",
    "ExponentialLoss",
    "LogisticLoss",
    "HingeLoss",
    "SquaredHingeLoss",
    "GeneralizedHingeLoss",
    "SquaredLoss",
    "NormalizedSigmoidLoss",
    "MadaBoostLoss",
    "ZeroOneLoss",
    "FunctionMarginCost",
    "LOSSES",
    "get_loss",
]

FloatArray = NDArray[np.float64]


def _as_float_array(values: ArrayLike, what: str) -> FloatArray:
    """Convert to a float64 array, raising a clear error for non-numeric input."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"{what} must be real numbers (array-like of float); got {values!r}"
        ) from exc
    return arr


def _scalar_or_array(arr: np.ndarray) -> Any:
    """Return a numpy scalar for 0-d results and the array otherwise."""
    return arr[()] if arr.ndim == 0 else arr


def _real_above(value: Any, bound: float, what: str, hint: str = "") -> float:
    """Validate a finite real parameter ``> bound`` and return it as float."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what} must be a real number > {bound:g}; got {value!r}")
    if not math.isfinite(float(value)) or float(value) <= bound:
        raise ValueError(f"{what} must be finite and > {bound:g}; got {value!r}{hint}")
    return float(value)


def _wrap_array_method(method: Callable, what: str) -> Callable:
    """Make ``method(self, x)`` take any array-like and return an array of its shape (or a scalar)."""
    if getattr(method, "_wraps_arrays", False):
        return method

    @functools.wraps(method)
    def wrapper(self: MarginCost, x: ArrayLike) -> Any:
        arr = _as_float_array(x, what)
        result = np.asarray(method(self, arr), dtype=np.float64)
        return _scalar_or_array(np.where(np.isnan(arr), np.nan, result))

    setattr(wrapper, "_wraps_arrays", True)  # noqa: B010 - a function attribute mypy does not model
    return wrapper


def _conjugate_on_interval(
    u: FloatArray, finite: FloatArray, low: float, high: float
) -> FloatArray:
    """Return ``finite`` where ``low <= u <= high`` and ``+inf`` elsewhere."""
    return np.where((u >= low) & (u <= high), finite, np.inf)


class MarginCost(ABC):
    r"""Base class of margin costs :math:`c(m)` of the margin :math:`m = y F(x)`.

    Subclasses set the class attributes ``name`` (registry key), ``formula`` (LaTeX of
    :math:`c(m)`) and ``is_convex``, implement :meth:`value`, and implement the other methods
    where the cost allows them.  The default implementations of :meth:`derivative`,
    :meth:`second_derivative` and :meth:`conjugate` raise :class:`NotImplementedError` with a
    message naming the cost.  Calling an instance is the same as calling :meth:`value`.

    Parameters
    ----------
    *args, **kwargs
        The base class takes none; concrete costs are frozen dataclasses whose fields are their
        parameters (for example ``p`` of :class:`GeneralizedHingeLoss`).

    Attributes
    ----------
    name : str
        Registry key of the cost (the keys of :data:`LOSSES`).
    formula : str
        LaTeX of :math:`c(m)`, used in tables and figure legends.
    is_convex : bool
        Whether :math:`c` is convex.

    Notes
    -----
    Methods subclasses define (``value``, ``derivative``, ``second_derivative``,
    ``conjugate``) receive float64 arrays; their results are returned with the input's shape
    (a numpy scalar for scalar input), NaN where the input is NaN.  At a kink the derivatives
    are left limits.

    A stage-wise booster that minimizes :math:`C(F) = \frac1n\sum_i c(y_i F(x_i))` by
    functional gradient descent weights example :math:`i` by
    :math:`D(i) \propto -c'(y_i F(x_i))` (Mason et al. 2000, Sec. 3 and Table 1), and the
    step of their Theorem 1 uses the Lipschitz constant :attr:`lipschitz_constant` of
    :math:`c'`.  The conjugate, in the negative-margin variable :math:`z = -m`,

    .. math:: g^*(u) = \sup_z \; u z - c(-z) = c^*(-u),

    is the regularizer of the Lagrange dual of the corresponding totally corrective
    problem (Shen & Li 2010a, Sec. 3 and Table I): the dual variables :math:`u_i` are the
    example weights, and the domain of :math:`g^*` is the set of admissible weights.

    References
    ----------
    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. Advances in Neural Information Processing Systems 12, 512-518.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from dataclasses import dataclass
    >>> from marginboost.losses import MarginCost
    >>> @dataclass(frozen=True)
    ... class CubicHinge(MarginCost):
    ...     name = "cubic_hinge"
    ...     formula = r"\max\{0, 1-m\}^3"
    ...     is_convex = True
    ...     def value(self, m):
    ...         return np.maximum(0.0, 1.0 - m) ** 3
    >>> cost = CubicHinge()
    >>> cost([-1.0, 0.0, 2.0]).tolist()
    [8.0, 1.0, 0.0]
    >>> float(cost(0.5))
    0.125
    """

    name: ClassVar[str] = "margin_cost"
    formula: ClassVar[str] = ""
    is_convex: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Methods defined by subclasses receive float64 arrays and may return any array-like.
        super().__init_subclass__(**kwargs)
        for method, what in (
            ("value", "margins"),
            ("derivative", "margins"),
            ("second_derivative", "margins"),
            ("conjugate", "conjugate arguments"),
        ):
            if method in cls.__dict__:
                setattr(cls, method, _wrap_array_method(cls.__dict__[method], what))

    @abstractmethod
    def value(self, m: FloatArray) -> Any:
        """Cost :math:`c(m)` of margins ``m`` (vectorized)."""

    def __call__(self, m: FloatArray) -> Any:
        return self.value(m)

    def derivative(self, m: FloatArray) -> Any:
        """First derivative :math:`c'(m)` (left limit at kinks)."""
        raise NotImplementedError(f"the {self.name!r} cost has no derivative implemented")

    def second_derivative(self, m: FloatArray) -> Any:
        """Second derivative :math:`c''(m)` (left limit where it jumps)."""
        raise NotImplementedError(f"the {self.name!r} cost has no second derivative implemented")

    @property
    def lipschitz_constant(self) -> float | None:
        r"""Lipschitz constant :math:`\sup_m |c''(m)|` of :math:`c'`, or ``None`` if unbounded.

        AnyBoost's Theorem 1 (Mason et al. 1999) uses it for the step
        :math:`w_{t+1} = -\langle \nabla C(F_t), f_{t+1}\rangle / (L \|f_{t+1}\|^2)`.
        """
        return None

    def conjugate(self, u: FloatArray) -> Any:
        r"""Fenchel conjugate in the negative-margin variable, :math:`\sup_z u z - c(-z)`.

        Equals :math:`c^*(-u)`; ``+inf`` outside the domain (see the module docstring).
        """
        raise NotImplementedError(
            f"no closed-form conjugate is implemented for the {self.name!r} cost"
        )

    def margin_conjugate(self, v: ArrayLike) -> Any:
        r"""Fenchel conjugate in the margin variable, :math:`c^*(v) = \sup_m v m - c(m)`."""
        v_arr = _as_float_array(v, "conjugate arguments")
        return self.conjugate(-v_arr)

    def negative_margin_form(self, z: ArrayLike) -> Any:
        """The cost as a function of the negative margin, :math:`g(z) = c(-z)`."""
        z_arr = _as_float_array(z, "negative margins")
        return self.value(-z_arr)


# ---- convex costs with closed-form conjugates -----------------------------------------------


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


# ---- non-convex costs ----------------------------------------------------------------------


def _bounded_cost_conjugate(u: FloatArray) -> Any:
    """Conjugate of a cost with infimum 0 and bounded range: 0 at u = 0, +inf elsewhere."""
    return np.where(u == 0.0, 0.0, np.inf)


@dataclass(frozen=True)
class NormalizedSigmoidLoss(MarginCost):
    r"""DOOM II's normalized sigmoid cost :math:`c(m) = 1 - \tanh(\lambda m)` (Mason et al. 2000, eq. (4)).

    Parameters
    ----------
    steepness : float, default 1.0
        :math:`\lambda > 0`, the steepness of the sigmoid.  Mason et al. apply it to margins
        of *normalized* (convex) combinations of base hypotheses, hence the name.

    Attributes
    ----------
    name : str
        Registry key, ``'normalized_sigmoid'`` (see :func:`get_loss`).
    is_convex : bool
        ``False``.
    steepness : float
        :math:`\lambda`.

    Raises
    ------
    ValueError
        If ``steepness <= 0`` or it is not finite.

    Notes
    -----
    Non-convex and bounded in :math:`(0, 2)`.  :math:`c'(m) = -\lambda\,\mathrm{sech}^2(\lambda m)`,
    :math:`c''(m) = 2\lambda^2 \mathrm{sech}^2(\lambda m)\tanh(\lambda m)`, whose maximum modulus
    :math:`4\lambda^2/(3\sqrt{3})` (at :math:`\tanh(\lambda m) = \pm 1/\sqrt{3}`) is the Lipschitz
    constant of :math:`c'` used by the step of Mason et al.'s Theorem 1.  Because the cost is
    bounded with infimum 0, its Fenchel conjugate is 0 at :math:`u = 0` and ``+inf``
    elsewhere: the conjugate of a non-convex bounded cost carries no information and its
    biconjugate (the convex envelope) is the constant 0.

    References
    ----------
    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. Advances in Neural Information Processing Systems 12, 512-518.

    Examples
    --------
    >>> from marginboost.losses import NormalizedSigmoidLoss
    >>> cost = NormalizedSigmoidLoss(steepness=2.0)
    >>> [round(float(v), 4) for v in cost.value([-1.0, 0.0, 1.0])]
    [1.964, 1.0, 0.036]
    >>> float(cost.derivative(0.0)), round(cost.lipschitz_constant, 4)
    (-2.0, 3.0792)
    """

    steepness: float = 1.0

    name: ClassVar[str] = "normalized_sigmoid"
    is_convex: ClassVar[bool] = False

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "steepness", _real_above(self.steepness, 0.0, "normalized sigmoid steepness")
        )

    @property
    def formula(self) -> str:  # type: ignore[override]  # a property over a class attribute
        return rf"1 - \tanh({self.steepness:g}\, m)"

    def value(self, m: FloatArray) -> Any:
        # 1 - tanh(x) = 2 / (1 + e^{2x}), accurate for large positive x.
        return 2.0 * expit(-2.0 * self.steepness * m)

    @staticmethod
    def _sech_squared(x: FloatArray) -> FloatArray:
        e = np.exp(-2.0 * np.abs(x))
        return 4.0 * e / (1.0 + e) ** 2

    def derivative(self, m: FloatArray) -> Any:
        return -self.steepness * self._sech_squared(self.steepness * m)

    def second_derivative(self, m: FloatArray) -> Any:
        x = self.steepness * m
        return 2.0 * self.steepness**2 * self._sech_squared(x) * np.tanh(x)

    @property
    def lipschitz_constant(self) -> float:
        return 4.0 * self.steepness**2 / (3.0 * math.sqrt(3.0))

    def conjugate(self, u: FloatArray) -> Any:
        return _bounded_cost_conjugate(u)


@dataclass(frozen=True)
class ZeroOneLoss(MarginCost):
    r"""Misclassification indicator :math:`c(m) = \mathbf{1}[m \le 0]` (for reference).

    Attributes
    ----------
    name : str
        Registry key, ``'zero_one'`` (see :func:`get_loss`).
    formula : str
        LaTeX of :math:`c(m)`, :math:`\mathbf{1}[m \le 0]`.
    is_convex : bool
        ``False``.

    Notes
    -----
    A margin of exactly 0 (a tie) counts as an error, so :math:`\frac1n\sum_i c(m_i)` is the
    training error.  DirectBoost minimizes it directly by coordinate descent (Zhai et al. 2013,
    Algorithm 1); the other costs of this module are its convex or smooth surrogates (Shen &
    Li 2010a, Fig. 2).  The cost has zero derivative almost everywhere, so :meth:`derivative`
    and :meth:`second_derivative` raise :class:`NotImplementedError`; its conjugate is 0 at
    :math:`u = 0` and ``+inf`` elsewhere.

    References
    ----------
    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. Advances in Neural Information Processing Systems 26,
    872-880.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.losses import ZeroOneLoss
    >>> ZeroOneLoss().value([-0.5, 0.0, 0.5]).tolist()
    [1.0, 1.0, 0.0]
    """

    name: ClassVar[str] = "zero_one"
    formula: ClassVar[str] = r"\mathbf{1}[m \le 0]"
    is_convex: ClassVar[bool] = False

    def value(self, m: FloatArray) -> Any:
        return np.where(m <= 0.0, 1.0, 0.0)

    def derivative(self, m: FloatArray) -> Any:
        raise NotImplementedError(
            "the 0-1 loss is discontinuous at m = 0 and flat elsewhere; it has no useful "
            "derivative (use a surrogate such as 'exponential' or 'normalized_sigmoid')"
        )

    def second_derivative(self, m: FloatArray) -> Any:
        self.derivative(m)

    def conjugate(self, u: FloatArray) -> Any:
        return _bounded_cost_conjugate(u)


# ---- user-supplied costs and the registry --------------------------------------------------


@dataclass(frozen=True)
class FunctionMarginCost(MarginCost):
    r"""A margin cost built from plain functions.

    Parameters
    ----------
    cost_name : str
        Non-empty name of the cost (becomes :attr:`name`).
    value_function : callable
        Vectorized :math:`c(m)` of a float64 array (required).
    derivative_function, second_derivative_function : callable, optional
        Vectorized :math:`c'` and :math:`c''`; without them the methods raise
        :class:`NotImplementedError`.
    conjugate_function : callable, optional
        Vectorized conjugate in the negative-margin form, :math:`u \mapsto \sup_z u z - c(-z)`.
    cost_formula : str, default ""
        LaTeX of :math:`c(m)` (becomes :attr:`formula`).
    convex : bool, default False
        Whether the cost is convex (becomes :attr:`is_convex`).
    derivative_lipschitz : float, optional
        :math:`\sup_m |c''(m)|` (becomes :attr:`lipschitz_constant`).

    Raises
    ------
    TypeError
        If ``cost_name`` is empty or a function is not callable.

    Notes
    -----
    Any margin cost defines a member of the AnyBoost family (Mason et al. 2000, Sec. 3): the
    example weights are :math:`-c'(y_i F(x_i))` up to normalization, so ``derivative_function``
    is what a stage-wise booster needs; ``derivative_lipschitz`` enables the step of their
    Theorem 1.  A ``conjugate_function`` can be checked against the numerical supremum with
    :func:`marginboost.duality.check_conjugate` (Shen & Li 2010a, Sec. 3).

    References
    ----------
    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. Advances in Neural Information Processing Systems 12, 512-518.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.losses import FunctionMarginCost
    >>> cost = FunctionMarginCost("cubic_hinge", lambda m: np.maximum(0, 1 - m) ** 3,
    ...                           derivative_function=lambda m: -3 * np.maximum(0, 1 - m) ** 2)
    >>> float(cost.value(0.0)), float(cost.derivative(0.0))
    (1.0, -3.0)
    >>> cost.name, cost.is_convex
    ('cubic_hinge', False)
    """

    cost_name: str
    value_function: Callable[[FloatArray], ArrayLike]
    derivative_function: Callable[[FloatArray], ArrayLike] | None = None
    second_derivative_function: Callable[[FloatArray], ArrayLike] | None = None
    conjugate_function: Callable[[FloatArray], ArrayLike] | None = None
    cost_formula: str = ""
    convex: bool = False
    derivative_lipschitz: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.cost_name, str) or not self.cost_name:
            raise TypeError(f"cost_name must be a non-empty string; got {self.cost_name!r}")
        if not callable(self.value_function):
            raise TypeError(f"value_function must be callable; got {self.value_function!r}")
        for field in ("derivative_function", "second_derivative_function", "conjugate_function"):
            fn = getattr(self, field)
            if fn is not None and not callable(fn):
                raise TypeError(f"{field} must be callable or None; got {fn!r}")

    @property
    def name(self) -> str:  # type: ignore[override]  # a property over a class attribute
        return self.cost_name

    @property
    def formula(self) -> str:  # type: ignore[override]  # a property over a class attribute
        return self.cost_formula

    @property
    def is_convex(self) -> bool:  # type: ignore[override]  # a property over a class attribute
        return self.convex

    @property
    def lipschitz_constant(self) -> float | None:
        return self.derivative_lipschitz

    def _apply(self, fn: Callable | None, x: FloatArray, missing: str) -> Any:
        if fn is None:
            raise NotImplementedError(f"the {self.cost_name!r} cost was built without a {missing}")
        return fn(x)

    def value(self, m: FloatArray) -> Any:
        return self._apply(self.value_function, m, "value function")

    def derivative(self, m: FloatArray) -> Any:
        return self._apply(self.derivative_function, m, "derivative_function")

    def second_derivative(self, m: FloatArray) -> Any:
        return self._apply(self.second_derivative_function, m, "second_derivative_function")

    def conjugate(self, u: FloatArray) -> Any:
        return self._apply(self.conjugate_function, u, "conjugate_function")


#: Registry of the built-in margin costs, name -> class.
LOSSES: dict[str, type[MarginCost]] = {
    cls.name: cls
    for cls in (
        ExponentialLoss,
        LogisticLoss,
        HingeLoss,
        SquaredHingeLoss,
        GeneralizedHingeLoss,
        SquaredLoss,
        NormalizedSigmoidLoss,
        MadaBoostLoss,
        ZeroOneLoss,
    )
}


def get_loss(name: str | MarginCost, **params: Any) -> MarginCost:
    r"""Return a margin cost by registry name (see :data:`LOSSES`), or pass an instance through.

    Parameters
    ----------
    name : str or MarginCost
        A registry key (case, ``-`` and ``_`` insensitive): ``"exponential"``,
        ``"logistic"``, ``"hinge"``, ``"squared_hinge"``, ``"generalized_hinge"``,
        ``"squared"``, ``"normalized_sigmoid"``, ``"madaboost"`` or ``"zero_one"``; or a
        :class:`MarginCost` instance, returned unchanged.
    **params
        The cost's parameters, e.g. ``get_loss("generalized_hinge", p=3)`` or
        ``get_loss("normalized_sigmoid", steepness=2)``.  Not allowed with an instance.

    Returns
    -------
    MarginCost
        A new instance of the registered cost (or ``name`` itself).

    Raises
    ------
    ValueError
        For an unknown name or an invalid parameter value.
    TypeError
        For parameters the cost does not take, or a ``name`` of the wrong type.

    Notes
    -----
    The registry holds the costs of Mason et al. (2000), Table 1 and eq. (4), and of Shen & Li
    (2010a), Fig. 2 and Table I, the latter each with the closed-form conjugate that becomes
    the regularizer of its Lagrange dual.

    References
    ----------
    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. Advances in Neural Information Processing Systems 12, 512-518.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.losses import get_loss
    >>> get_loss("generalized_hinge", p=3).dual_exponent
    1.5
    >>> get_loss("Squared-Hinge")
    SquaredHingeLoss()
    """
    if isinstance(name, MarginCost):
        if params:
            raise TypeError(
                f"parameters {sorted(params)} cannot be applied to the existing cost {name!r}"
            )
        return name
    if not isinstance(name, str):
        raise TypeError(
            f"loss must be a registry name (str) or a MarginCost instance; got {name!r}"
        )
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in LOSSES:
        raise ValueError(f"unknown loss {name!r}; known losses: {', '.join(sorted(LOSSES))}")
    cls = LOSSES[key]
    assert dataclasses.is_dataclass(cls)  # every registered cost is a dataclass
    accepted = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        takes = (
            f"its parameters are: {', '.join(accepted)}" if accepted else "it takes no parameters"
        )
        raise TypeError(f"loss {key!r} got unexpected parameter(s) {unknown}; {takes}")
    return cls(**params)
