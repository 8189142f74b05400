r"""AnyBoost (Mason, Baxter, Bartlett & Frean 1999, Algorithm 1) for any margin cost.

:class:`AnyBoost` is the stage-wise engine with a pluggable cost (a name from
:data:`marginboost.losses.LOSSES` or any :class:`~marginboost.losses.MarginCost`) and step rule
(line search, Newton, Lipschitz, fixed, AdaBoost's); its members with a fixed cost and step
have their own classes (:mod:`marginboost.boosting.stagewise`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils._param_validation import StrOptions

from .._sklearn import PARAMETERS
from .._sklearn import examples_section as _examples_section
from ..losses import LOSSES, MarginCost, get_loss
from . import _steps
from ._base import check_real
from ._engine import BoostingRound
from ._engine import StagewiseBoosting as _StagewiseBoosting
from ._stagewise_common import _ATTRIBUTES

__all__ = ["AnyBoost"]


class AnyBoost(_StagewiseBoosting):
    r"""AnyBoost (Mason et al. 1999, Algorithm 1) for any margin cost.

    Parameters
    ----------
    cost : str or MarginCost, default="exponential"
        The margin cost :math:`c`: a name from :data:`marginboost.losses.LOSSES` or any
        :class:`~marginboost.losses.MarginCost` (also user-written ones; the weak-learner weights
        need :meth:`~marginboost.losses.MarginCost.derivative`).
    step : {"line_search", "newton", "lipschitz", "fixed", "adaboost"}, default="line_search"
        Step rule: exact line search (:func:`~marginboost.boosting._steps.line_search_step`),
        one Newton-Raphson step, the Lipschitz step (3) of Theorem 1 (needs the cost's
        ``lipschitz_constant``), the fixed step ``learning_rate``, or AdaBoost's
        :math:`\tfrac12\log\frac{1-\varepsilon}{\varepsilon}` from the weighted error.
    learning_rate : float, default=1.0
        The step for ``step="fixed"``; a shrinkage factor multiplying the other rules' steps.
    normalization : {"none", "convex"}, default="none"
        ``"convex"`` keeps :math:`F` a convex combination as DOOM II does (see :class:`DoomII`).
    n_estimators : int, default=100
        Maximum number of rounds.
    max_depth : int, default=1
        Depth of the weak decision trees (1 = stumps), ignored when ``estimator`` is given.
    estimator : weak learner, optional
        A weak learner such as ``marginboost.weak.DecisionTree(max_depth=2, criterion="gini")``.
    max_bins : int, default=255
        Number of feature bins (exact thresholds when a feature has at most this many values).
    tol : float, optional
        Stop when the training cost changes by less than ``tol`` in one round.
    validation_fraction : float, default=0.1
        Held-out fraction for early stopping when ``n_iter_no_change`` is set.
    n_iter_no_change : int, optional
        Early stopping patience (rounds without a lower validation error).
    random_state : int, optional
        Seed of the validation split.
    """

    _algorithm_name = "AnyBoost"
    _parameter_constraints: dict[str, Any] = {
        **_StagewiseBoosting._parameter_constraints,
        "cost": [StrOptions(set(LOSSES)), MarginCost],
        "step": [StrOptions(set(_steps.STEP_RULES))],
        "learning_rate": PARAMETERS["learning_rate"],
        "normalization": [StrOptions({"none", "convex"})],
    }
    #: Step rule as listed in Mason et al. (1999), Table 1 (and its reference key).
    step_rule = "any (line search, Newton, Lipschitz, fixed)"
    reference = "mason1999boosting"

    def __init__(
        self,
        cost: str | MarginCost = "exponential",
        step: str = "line_search",
        learning_rate: float = 1.0,
        normalization: str = "none",
        *,
        n_estimators: int = 100,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float | None = None,
        validation_fraction: float = 0.1,
        n_iter_no_change: int | None = None,
        random_state: int | None = None,
    ) -> None:
        self.cost = cost
        self.step = step
        self.learning_rate = learning_rate
        self.normalization = normalization
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.estimator = estimator
        self.max_bins = max_bins
        self.tol = tol
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state

    def _check_params(self) -> None:
        if self.step not in _steps.STEP_RULES:
            raise ValueError(f"step must be one of {_steps.STEP_RULES}; got {self.step!r}")
        if self.normalization not in ("none", "convex"):
            raise ValueError(
                f"normalization must be 'none' or 'convex'; got {self.normalization!r}"
            )
        check_real(self.learning_rate, "learning_rate", 0.0)
        self._normalization = self.normalization

    def _cost_function(self) -> MarginCost:
        return get_loss(self.cost)

    @property
    def _proba_link(self) -> str:  # type: ignore[override]  # a property over a class attribute
        name = self.cost if isinstance(self.cost, str) else getattr(self.cost, "name", "")
        return {"exponential": "exponential", "logistic": "logistic", "squared": "squared"}.get(
            name, "vote"
        )

    def _step(self, round_: BoostingRound) -> tuple[float, bool]:
        rule, r = self.step, round_
        a, margins, sample_weight = r.label_times_direction, r.margins, r.sample_weight
        if rule == "fixed":
            return float(self.learning_rate), False
        perfect = False
        if rule == "line_search":
            step, perfect = _steps.line_search_step(
                self._cost, margins, a, sample_weight, r.gradient_weights
            )
        elif rule == "adaboost":
            step, perfect = _steps.adaboost_step(r.edge)
        else:
            raw_gradient = sample_weight * -np.asarray(
                self._cost.derivative(margins), dtype=np.float64
            )
            if rule == "newton":
                step = _steps.newton_step(self._cost, margins, raw_gradient, a, sample_weight)
            else:
                step = _steps.lipschitz_step(self._cost, raw_gradient, a, sample_weight)
        return self.learning_rate * step, perfect


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
AnyBoost.__doc__ = (
    (AnyBoost.__doc__ or "").rstrip()
    + "\n"
    + _ATTRIBUTES
    + r"""
    Notes
    -----
    Algorithm 1 of Mason et al. (1999): :math:`F_0 = 0`; each round the weak learner returns
    an :math:`f_{t+1}` with a large :math:`-\langle \nabla C(F_t), f_{t+1}\rangle`, the
    functional derivative (1) taken in the inner product (2); the algorithm stops when this
    is :math:`\le 0` and otherwise sets :math:`F_{t+1} = F_t + w_{t+1} f_{t+1}`.  For the
    margin cost functional :math:`C(F) = \sum_i s_i c(y_iF(x_i))` of their Sec. 3 and
    :math:`\pm 1` weak hypotheses, the weak learner minimises the weighted error under
    :math:`D(i) \propto -c'(y_iF_t(x_i))`.  ``step="lipschitz"`` is the step size (3) of their
    Theorem 1, under which :math:`C(F_t)` converges (Theorem 1) and, for a convex cost and an
    exact weak learner, reaches the global minimum (Theorem 2).  The voting methods of their
    Table 1 and DOOM II (Sec. 5, cost (4)) have their own classes (:class:`AdaBoost`,
    :class:`ArcX4`, :class:`RealAdaBoost`, :class:`LogitBoost`, :class:`DoomII`); the stopping
    rules and ``history_`` are described in :mod:`marginboost.boosting.stagewise`.

    References
    ----------
    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. In Advances in Neural Information Processing Systems 12 (NIPS 1999), pp. 512-518.
    MIT Press.
"""
    + _examples_section("AnyBoost", "cost='logistic', n_estimators=10")
)
