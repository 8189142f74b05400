r"""Step-size rules of the AnyBoost engine (Mason et al. 1999, Algorithm 1, "Choose :math:`w_{t+1}`").

All rules work on the training margins :math:`m_i = y_i F_t(x_i)`, the products
:math:`a_i = y_i f_{t+1}(x_i)` of the labels with the new direction, and sample weights
:math:`s_i \ge 0` with :math:`\sum_i s_i = 1` (uniform :math:`s_i = 1/m` is the paper's inner
product (2)).  The cost functional is :math:`C(F) = \sum_i s_i c(m_i)` and moving by :math:`w`
along :math:`f` gives :math:`\varphi(w) = \sum_i s_i c(m_i + w a_i)`, so
:math:`\varphi'(0) = \sum_i s_i c'(m_i) a_i = \langle \nabla C(F_t), f_{t+1} \rangle` up to the
positive factor of the inner product's scaling.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray
from scipy.optimize import minimize_scalar

from ..losses import ExponentialLoss, MarginCost, SquaredLoss

__all__ = [
    "STEP_RULES",
    "MIN_WEIGHTED_ERROR",
    "cost_weights",
    "directional_derivative",
    "weighted_edge",
    "adaboost_step",
    "arc_gv_step",
    "lipschitz_step",
    "newton_step",
    "line_search_step",
    "weight_entropy",
]

FloatArray = NDArray[np.float64]

#: Step rules understood by :class:`~marginboost.boosting.AnyBoost`.
STEP_RULES = ("line_search", "newton", "lipschitz", "fixed", "adaboost")

#: Weighted errors are clipped to ``[MIN_WEIGHTED_ERROR, 1 - MIN_WEIGHTED_ERROR]`` before
#: ``0.5 * log((1 - err) / err)`` is taken, so a perfect weak learner gets the finite weight
#: ``0.5 * log(1e10 - 1) ~ 11.51`` instead of ``inf``.
MIN_WEIGHTED_ERROR = 1e-10

#: Upper end of the bracket searched by the numerical line search.
MAX_LINE_SEARCH_STEP = 1e4


def cost_weights(cost: MarginCost, margins: FloatArray, sample_weight: FloatArray) -> FloatArray:
    r"""AnyBoost's example weights :math:`s_i \cdot (-c'(m_i))` (Mason et al. 1999, Sec. 3).

    For the exponential cost they are computed in the log domain,
    :math:`s_i e^{-(m_i - \min_j m_j)}`, a positive multiple of :math:`s_i e^{-m_i}` that neither
    overflows nor underflows to all zeros however large the margins grow.  The caller
    normalises them; only their direction matters.
    """
    if isinstance(cost, ExponentialLoss):
        weights: FloatArray = sample_weight * np.exp(-(margins - margins.min()))
        return weights
    return sample_weight * -np.asarray(cost.derivative(margins), dtype=np.float64)


def directional_derivative(
    cost_grad_weights: FloatArray, label_times_direction: FloatArray
) -> float:
    r""":math:`-\varphi'(0) = \sum_i s_i (-c'(m_i))\, y_i f(x_i)`: positive iff ``f`` points downhill."""
    return float(cost_grad_weights @ label_times_direction)


def weighted_edge(cost_grad_weights: FloatArray, label_times_direction: FloatArray) -> float:
    r"""Edge :math:`r = \sum_i D_i y_i f(x_i)` with :math:`D_i \propto |s_i c'(m_i)|`, :math:`\sum_i D_i = 1`.

    For ±1 hypotheses and positive weights :math:`r = 1 - 2\varepsilon` with the weighted error
    :math:`\varepsilon` (Shen & Li 2010, "edge").  Zero when all weights vanish.
    """
    total = float(np.abs(cost_grad_weights).sum())
    if total == 0.0:
        return 0.0
    return float(cost_grad_weights @ label_times_direction) / total


def weight_entropy(
    weights: FloatArray, abs_weights: FloatArray | None = None, total: float | None = None
) -> float:
    r"""Entropy of the weights handed to the weak learner (``history_["weight_entropy"]``):
    the Shannon entropy :math:`-\sum_i D_i \log D_i` of :math:`D \propto |w|` (natural log;
    :func:`marginboost.duality.shannon_entropy` applied to the normalized :math:`|w|`).

    ``abs_weights`` (``np.abs(weights)``) and ``total`` (its sum) may be passed when the
    caller has them already.
    """
    p = np.abs(weights) if abs_weights is None else abs_weights
    if total is None:
        total = p.sum()
    if total == 0.0:
        return 0.0
    p = (p if p.min() > 0 else p[p > 0]) / total
    return float(-(p * np.log(p)).sum())


@njit(cache=True)
def _all_unit(values: FloatArray) -> bool:
    """``np.all(np.abs(values) == 1.0)`` in one branch-free (vectorized) pass."""
    bad = np.uint8(0)
    for i in range(values.shape[0]):
        bad |= np.uint8(abs(values[i]) != 1.0)
    return not bad


@njit(cache=True)
def count_sign_errors(scores: FloatArray, positive: NDArray[np.bool_]) -> int:
    """``np.count_nonzero((scores > 0) != positive)`` in one pass, without temporaries."""
    errors = 0
    for i in range(scores.shape[0]):
        errors += (scores[i] > 0.0) != positive[i]
    return errors


def unchecked(cost: MarginCost, method: str) -> Callable[[FloatArray], Any]:
    """The bound ``method`` of ``cost`` without the array checks that
    :class:`~marginboost.losses.MarginCost` wraps around it (for finite float64 input, where
    the results are the same), or the checked method when it is not wrapped."""
    bound = getattr(cost, method)
    raw = getattr(getattr(type(cost), method, None), "__wrapped__", None)
    return bound if raw is None else functools.partial(raw, cost)


def adaboost_step(edge: float) -> tuple[float, bool]:
    r"""AdaBoost's weight :math:`\tfrac12 \log\frac{1 + r}{1 - r} = \tfrac12\log\frac{1-\varepsilon}{\varepsilon}`.

    Shen & Li (2010), eq. (7); the exact line search of the exponential cost along a ±1
    hypothesis.  Returns ``(step, perfect)``; ``perfect`` is ``True`` when the weighted error
    was below :data:`MIN_WEIGHTED_ERROR` and had to be clipped.
    """
    error = 0.5 * (1.0 - edge)
    perfect = error < MIN_WEIGHTED_ERROR
    error = min(max(error, MIN_WEIGHTED_ERROR), 1.0 - MIN_WEIGHTED_ERROR)
    return 0.5 * math.log((1.0 - error) / error), perfect


def arc_gv_step(edge: float, min_margin: float, max_step: float | None = 1.0) -> tuple[float, bool]:
    r"""Arc-Gv weight, Shen & Li (2010), eq. (8), clipped to :math:`[0, 1]`.

    :math:`w_j = \tfrac12\log\frac{1+r_j}{1-r_j} - \tfrac12\log\frac{1+\varrho_j}{1-\varrho_j}`
    with the edge :math:`r_j` and the minimum normalized margin :math:`\varrho_j` of the
    combination so far (:math:`\varrho_1 = 0`); then :math:`w_j \leftarrow \min(\max(w_j, 0),
    1)` as stated by Shen & Li (``max_step=1.0``), or only :math:`\max(w_j, 0)`
    (``max_step=None``).  Both arguments are clipped away from :math:`\pm 1` like the weighted
    error of :func:`adaboost_step`.  Returns ``(step, perfect)``.
    """
    edge_part, perfect = adaboost_step(edge)
    margin_part, _ = adaboost_step(min_margin)
    step = max(edge_part - margin_part, 0.0)
    return (step if max_step is None else min(step, max_step)), perfect


def lipschitz_step(
    cost: MarginCost,
    cost_grad_weights: FloatArray,
    label_times_direction: FloatArray,
    sample_weight: FloatArray,
) -> float:
    r"""Step (3) of Theorem 1 (Mason et al. 1999): :math:`-\langle\nabla C, f\rangle / (L \|f\|^2)`.

    With the inner product :math:`\langle F, G\rangle = \sum_i s_i F(x_i) G(x_i)` the gradient of
    :math:`C` is Lipschitz with :math:`L = \sup_m |c''(m)|` (the cost's
    :attr:`~marginboost.losses.MarginCost.lipschitz_constant`), so the step is
    :math:`\sum_i s_i (-c'_i) y_i f_i / (L \sum_i s_i f_i^2)`, the plain :math:`1/L` gradient
    step (with uniform weights :math:`s_i = 1/m`, the step of Theorem 1 as printed).
    """
    lipschitz = cost.lipschitz_constant
    if lipschitz is None or not math.isfinite(lipschitz) or lipschitz <= 0:
        raise ValueError(
            f"step='lipschitz' needs a cost whose derivative is Lipschitz; the {cost.name!r} cost "
            f"has lipschitz_constant={lipschitz!r} (use 'logistic', 'normalized_sigmoid', 'squared', "
            "'squared_hinge', 'madaboost' or pass a cost with a finite lipschitz_constant)"
        )
    curvature = float(sample_weight @ label_times_direction**2)
    return directional_derivative(cost_grad_weights, label_times_direction) / (
        lipschitz * curvature
    )


def newton_step(
    cost: MarginCost,
    margins: FloatArray,
    cost_grad_weights: FloatArray,
    label_times_direction: FloatArray,
    sample_weight: FloatArray,
) -> float:
    r"""One Newton-Raphson step along ``f``: :math:`\sum_i s_i (-c'_i) a_i / \sum_i s_i c''_i a_i^2`.

    The step rule of LogitBoost in Mason et al. (1999), Table 1.  Raises
    :class:`ValueError` where the cost has no positive curvature along ``f``.
    """
    second = np.asarray(cost.second_derivative(margins), dtype=np.float64)
    curvature = float((sample_weight * second) @ label_times_direction**2)
    if not curvature > 0.0:
        raise ValueError(
            f"step='newton' needs positive curvature of the {cost.name!r} cost along the new weak "
            f"learner; got sum_i s_i c''(m_i) f_i^2 = {curvature!r}. Use step='line_search' or "
            "'lipschitz' for costs that are not strictly convex"
        )
    return directional_derivative(cost_grad_weights, label_times_direction) / curvature


def line_search_step(
    cost: MarginCost,
    margins: FloatArray,
    label_times_direction: FloatArray,
    sample_weight: FloatArray,
    cost_grad_weights: FloatArray,
    edge: float | None = None,
) -> tuple[float, bool]:
    r"""Exact line search :math:`\arg\min_{w \ge 0} \sum_i s_i c(m_i + w\, y_i f(x_i))`.

    Closed forms: the exponential cost along a ±1 hypothesis gives AdaBoost's
    :func:`adaboost_step`; the squared cost gives
    :math:`\sum_i s_i (1 - m_i) a_i / \sum_i s_i a_i^2`.  Otherwise the minimum is bracketed by
    doubling (up to :data:`MAX_LINE_SEARCH_STEP`) and located by bounded Brent search (absolute
    tolerance ``1e-12`` relative to the bracket).  For a non-convex cost the result is a local
    minimum.  Returns ``(step, perfect)`` (``perfect`` only for the AdaBoost closed form).
    ``edge`` is :func:`weighted_edge` of the two arrays when the caller has it already.
    """
    a = label_times_direction
    if isinstance(cost, ExponentialLoss) and _all_unit(np.asarray(a, dtype=np.float64)):
        return adaboost_step(weighted_edge(cost_grad_weights, a) if edge is None else edge)
    if isinstance(cost, SquaredLoss):
        return float((sample_weight * (1.0 - margins)) @ a) / float(sample_weight @ a**2), False

    def objective(step: float) -> float:
        with np.errstate(over="ignore"):
            return float(
                sample_weight @ np.asarray(cost.value(margins + step * a), dtype=np.float64)
            )

    high, previous = 1.0, objective(0.0)
    while high < MAX_LINE_SEARCH_STEP:
        current = objective(high)
        if not current < previous:
            break
        previous, high = current, 2.0 * high
    result = minimize_scalar(
        objective,
        bounds=(0.0, high),
        method="bounded",
        options={"xatol": 1e-12 * high, "maxiter": 500},
    )
    return float(result.x), False
