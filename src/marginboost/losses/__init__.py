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

Submodules
----------
base
    :class:`MarginCost`, the conventions above, and :class:`FunctionMarginCost`.
convex
    The convex costs, each with its closed-form conjugate.
nonconvex
    The non-convex costs (normalized sigmoid, 0-1 loss).
registry
    :data:`LOSSES` and :func:`get_loss`.

Every public name is importable from ``marginboost.losses``.
"""

from __future__ import annotations

from . import registry as _registry
from .base import (  # noqa: F401 - the private helpers, importable from here as before
    FloatArray,
    FunctionMarginCost,
    MarginCost,
    _as_float_array,
    _conjugate_on_interval,
    _real_above,
    _scalar_or_array,
    _wrap_array_method,
)
from .convex import (
    ExponentialLoss,
    GeneralizedHingeLoss,
    HingeLoss,
    LogisticLoss,
    MadaBoostLoss,
    SquaredHingeLoss,
    SquaredLoss,
)
from .nonconvex import (  # noqa: F401 - the private helper, importable from here as before
    NormalizedSigmoidLoss,
    ZeroOneLoss,
    _bounded_cost_conjugate,
)
from .registry import get_loss

#: Registry of the built-in margin costs, name -> class (the dict of :mod:`.registry`, documented
#: here, where the API pages find it).
LOSSES: dict[str, type[MarginCost]] = _registry.LOSSES

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
