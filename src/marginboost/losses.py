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
    "MarginCost", "ExponentialLoss", "LogisticLoss", "HingeLoss", "SquaredHingeLoss",
    "GeneralizedHingeLoss", "SquaredLoss", "NormalizedSigmoidLoss", "MadaBoostLoss",
    "ZeroOneLoss", "FunctionMarginCost", "LOSSES", "get_loss",
]

FloatArray = NDArray[np.float64]


def _as_float_array(values: ArrayLike, what: str) -> FloatArray:
    """Convert to a float64 array, raising a clear error for non-numeric input."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{what} must be real numbers (array-like of float); got {values!r}") from exc
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


def _conjugate_on_interval(u: FloatArray, finite: FloatArray, low: float, high: float) -> FloatArray:
    """Return ``finite`` where ``low <= u <= high`` and ``+inf`` elsewhere."""
    return np.where((u >= low) & (u <= high), finite, np.inf)


class MarginCost(ABC):
    """Base class of margin costs :math:`c(m)`, :math:`m = y F(x)`.

    Subclasses set the class attributes ``name`` (registry key), ``formula`` (LaTeX of
    :math:`c(m)`) and ``is_convex``, implement :meth:`value`, and implement the other methods
    where the cost allows them.  The default implementations raise :class:`NotImplementedError`
    with a message naming the cost.
    """

    name: ClassVar[str] = "margin_cost"
    formula: ClassVar[str] = ""
    is_convex: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Methods defined by subclasses receive float64 arrays and may return any array-like.
        super().__init_subclass__(**kwargs)
        for method, what in (("value", "margins"), ("derivative", "margins"),
                             ("second_derivative", "margins"), ("conjugate", "conjugate arguments")):
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
        raise NotImplementedError(f"no closed-form conjugate is implemented for the {self.name!r} cost")

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

    Conjugate (negative-margin form, :math:`g(z) = e^z`): :math:`u \log u - u` for
    :math:`u \ge 0` (with :math:`0 \log 0 = 0`), ``+inf`` for :math:`u < 0`.  Shen & Li's
    Theorem 3.1 works with the log of the summed cost (log-sum-exp, Proposition 3.1, see
    :func:`marginboost.duality.lse_conjugate`); the un-logged sum gives their dual (14).
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

    Friedman, Hastie & Tibshirani's LogitBoost uses :math:`\log(1 + e^{-2m})`, the same cost
    of the margin :math:`2m`.  Conjugate (negative-margin form, :math:`g(z) = \log(1+e^z)`):
    the negative binary entropy :math:`u \log u + (1-u)\log(1-u)` on :math:`[0, 1]`, ``+inf``
    elsewhere (Shen & Li, Theorem 3.2).
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

    The derivative at the kink :math:`m = 1` is the left derivative :math:`-1`.  Conjugate
    (negative-margin form): :math:`-u` on :math:`[0, 1]`, ``+inf`` elsewhere; the box
    :math:`0 \le u \le 1` becomes the cap :math:`u_i \le D` of the LPBoost dual (22).
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
    p : float
        Exponent, ``p > 1`` (``p = 1`` is :class:`HingeLoss`; ``p = 2`` equals
        :class:`SquaredHingeLoss`).

    Notes
    -----
    With the Hölder conjugate exponent :math:`q = p / (p - 1)` the conjugate (negative-margin
    form) is

    .. math:: g^*(u) = -u + (p^{1-q} - p^{-q})\, u^q, \qquad u \ge 0,

    and ``+inf`` for :math:`u < 0`.  It follows from
    :math:`\sup_{\xi \ge 0} u\xi - \xi^p = (1/q) p^{1-q} u^q = (p^{1-q} - p^{-q}) u^q`, the
    constant of Shen & Li's eq. (28) with :math:`D = 1`; the :math:`u^q` term is a Tsallis
    entropy (eq. (29)) of the dual weights.
    """

    p: float = 2.0

    name: ClassVar[str] = "generalized_hinge"
    is_convex: ClassVar[bool] = True

    def __post_init__(self) -> None:
        hint = " (p = 1 is the plain hinge loss: use get_loss('hinge'))" if self.p == 1 else ""
        object.__setattr__(self, "p", _real_above(self.p, 1.0, "generalized hinge exponent p", hint))

    @property
    def formula(self) -> str:  # type: ignore[override]
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

    Conjugate (negative-margin form): :math:`u^2/4 - u` for :math:`u \ge 0`, ``+inf``
    otherwise, the variance regularizer :math:`\sum_i u_i^2 / (4D)` of the dual (27).
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

    Unlike the other costs it also penalizes large positive margins.  Conjugate
    (negative-margin form): :math:`u^2/4 - u` for every real :math:`u`.
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

    Its negative derivative :math:`\min\{1, e^{-m}\}` is MadaBoost's capped example weight
    (Domingo & Watanabe 2000): the exponential weights of AdaBoost, never above the initial
    weight.  The cost is convex and continuously differentiable; :math:`c''` jumps from 0 to 1
    at :math:`m = 0` (left limit 0 returned there).  Conjugate (negative-margin form):
    :math:`u \log u - u` on :math:`[0, 1]`, ``+inf`` elsewhere: the exponential cost's
    conjugate with the weights capped at 1.
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
    r"""DOOM II's normalized sigmoid cost :math:`c(m) = 1 - \tanh(\lambda m)` (Mason et al. 1999, eq. (4)).

    Parameters
    ----------
    steepness : float
        :math:`\lambda > 0`, the steepness of the sigmoid.  Mason et al. apply it to margins
        of *normalized* (convex) combinations of base hypotheses, hence the name.

    Notes
    -----
    Non-convex and bounded in :math:`(0, 2)`.  :math:`c'(m) = -\lambda\,\mathrm{sech}^2(\lambda m)`,
    :math:`c''(m) = 2\lambda^2 \mathrm{sech}^2(\lambda m)\tanh(\lambda m)`, whose maximum modulus
    :math:`4\lambda^2/(3\sqrt{3})` (at :math:`\tanh(\lambda m) = \pm 1/\sqrt{3}`) is the Lipschitz
    constant of :math:`c'`.  Because the cost is bounded with infimum 0, its Fenchel conjugate is
    0 at :math:`u = 0` and ``+inf`` elsewhere: the conjugate of a non-convex bounded cost
    carries no information and its biconjugate (the convex envelope) is the constant 0.
    """

    steepness: float = 1.0

    name: ClassVar[str] = "normalized_sigmoid"
    is_convex: ClassVar[bool] = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "steepness",
                           _real_above(self.steepness, 0.0, "normalized sigmoid steepness"))

    @property
    def formula(self) -> str:  # type: ignore[override]
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

    A margin of exactly 0 (a tie) counts as an error.  The cost has zero derivative almost
    everywhere, so :meth:`derivative` raises; its conjugate is 0 at :math:`u = 0` and ``+inf``
    elsewhere.
    """

    name: ClassVar[str] = "zero_one"
    formula: ClassVar[str] = r"\mathbf{1}[m \le 0]"
    is_convex: ClassVar[bool] = False

    def value(self, m: FloatArray) -> Any:
        return np.where(m <= 0.0, 1.0, 0.0)

    def derivative(self, m: FloatArray) -> Any:
        raise NotImplementedError(
            "the 0-1 loss is discontinuous at m = 0 and flat elsewhere; it has no useful "
            "derivative (use a surrogate such as 'exponential' or 'normalized_sigmoid')")

    def second_derivative(self, m: FloatArray) -> Any:
        self.derivative(m)

    def conjugate(self, u: FloatArray) -> Any:
        return _bounded_cost_conjugate(u)


# ---- user-supplied costs and the registry --------------------------------------------------

@dataclass(frozen=True)
class FunctionMarginCost(MarginCost):
    r"""A margin cost built from plain functions.

    ``cost_name``, ``cost_formula``, ``convex`` and ``derivative_lipschitz`` become
    :attr:`name`, :attr:`formula`, :attr:`is_convex` and :attr:`lipschitz_constant`;
    ``value_function`` (required), ``derivative_function``, ``second_derivative_function`` and
    ``conjugate_function`` (negative-margin form) are vectorized callables of float64 arrays.

    Examples
    --------
    >>> import numpy as np
    >>> cost = FunctionMarginCost("cubic_hinge", lambda m: np.maximum(0, 1 - m) ** 3,
    ...                           derivative_function=lambda m: -3 * np.maximum(0, 1 - m) ** 2)
    >>> float(cost.value(0.0)), float(cost.derivative(0.0))
    (1.0, -3.0)
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
    def name(self) -> str:  # type: ignore[override]
        return self.cost_name

    @property
    def formula(self) -> str:  # type: ignore[override]
        return self.cost_formula

    @property
    def is_convex(self) -> bool:  # type: ignore[override]
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
    for cls in (ExponentialLoss, LogisticLoss, HingeLoss, SquaredHingeLoss, GeneralizedHingeLoss,
                SquaredLoss, NormalizedSigmoidLoss, MadaBoostLoss, ZeroOneLoss)
}


def get_loss(name: str | MarginCost, **params: Any) -> MarginCost:
    """Return a margin cost by registry name (see :data:`LOSSES`), or pass an instance through.

    ``name`` is a registry key (case, ``-`` and ``_`` insensitive) and ``params`` the cost's
    parameters, e.g. ``get_loss("generalized_hinge", p=3)`` or
    ``get_loss("normalized_sigmoid", steepness=2)``.  Unknown names and invalid values raise
    :class:`ValueError`; parameters the cost does not take raise :class:`TypeError`.

    >>> get_loss("generalized_hinge", p=3).dual_exponent
    1.5
    """
    if isinstance(name, MarginCost):
        if params:
            raise TypeError(f"parameters {sorted(params)} cannot be applied to the existing cost {name!r}")
        return name
    if not isinstance(name, str):
        raise TypeError(f"loss must be a registry name (str) or a MarginCost instance; got {name!r}")
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in LOSSES:
        raise ValueError(f"unknown loss {name!r}; known losses: {', '.join(sorted(LOSSES))}")
    cls = LOSSES[key]
    assert dataclasses.is_dataclass(cls)  # every registered cost is a dataclass
    accepted = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        takes = f"its parameters are: {', '.join(accepted)}" if accepted else "it takes no parameters"
        raise TypeError(f"loss {key!r} got unexpected parameter(s) {unknown}; {takes}")
    return cls(**params)
