r"""The non-convex margin costs: DOOM II's normalized sigmoid and the 0-1 loss.

Both are bounded with infimum 0, so their Fenchel conjugate is 0 at :math:`u = 0` and ``+inf``
elsewhere (Mason et al. 1999, eq. (4); Zhai et al. 2013).  Subclasses of
:class:`~marginboost.losses.MarginCost`, re-exported by :mod:`marginboost.losses`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from scipy.special import expit

from .base import FloatArray, MarginCost, _real_above

__all__ = ["NormalizedSigmoidLoss", "ZeroOneLoss"]


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
