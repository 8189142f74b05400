r"""The base class of the margin costs, its array conventions, and costs from plain functions.

:class:`MarginCost` fixes what every cost of :mod:`marginboost.losses` offers (value,
derivatives, Lipschitz constant of the derivative, conjugate in the negative-margin and the
margin variable) and wraps the methods subclasses define so that they take any array-like and
return the input's shape (see the conventions in :mod:`marginboost.losses`).
:class:`FunctionMarginCost` builds a cost from plain functions.  The helpers that validate
parameters and arrays are shared with the built-in costs of :mod:`marginboost.losses.convex`
and :mod:`marginboost.losses.nonconvex`.
"""

from __future__ import annotations

import functools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["MarginCost", "FunctionMarginCost"]

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
