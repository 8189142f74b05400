r"""Breiman's arcing: Arc-Gv (Breiman 1999) and ARC-x4 (Breiman 1998).

* :class:`ArcGv`: the AdaBoost loop with the weight of Shen & Li (2010), eq. (8), which
  subtracts the current minimum margin's term;
* :class:`ArcX4`: example weights from the number of earlier mistakes, and its AnyBoost form
  (Mason et al. 1999, Table 1).
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from ..losses import ExponentialLoss, GeneralizedHingeLoss, MarginCost
from . import _steps
from ._base import check_real
from ._engine import BoostingRound
from ._engine import StagewiseBoosting as _StagewiseBoosting
from ._stagewise_common import (
    _ATTRIBUTES,
    _COMMON_PARAMETERS,
    FloatArray,
    _examples,
    _FixedCostBoosting,
)

__all__ = ["ArcGv", "ArcX4"]


class ArcGv(_FixedCostBoosting):
    __doc__ = (
        r"""Arc-Gv (Breiman 1999) in the form of Shen & Li (2010), eq. (8).

    The AdaBoost loop (exponential weights :math:`\propto e^{-y_i F(x_i)}` on the unnormalized
    :math:`F = \sum_s w_s h_s`) with the weight

    .. math:: w_j = \tfrac12\log\frac{1+r_j}{1-r_j} - \tfrac12\log\frac{1+\varrho_j}{1-\varrho_j},

    :math:`r_j` the edge of :math:`h_j` and :math:`\varrho_j` the minimum normalized margin of the
    current combination (:math:`\varrho_1 = 0`), clipped to :math:`[0, 1]` as Shen & Li state.
    A clipped weight of 0 ends training (``stop_reason_ = "zero step"``): the weak learner's edge
    does not exceed the current minimum margin.  A perfect weak learner gets weight 1 and ends
    training.  ``history_["objective"]`` is the exponential cost.

    Parameters
    ----------
    rho : {"current", "best", "clipped"}, default="current"
        Which minimum margin :math:`\varrho_j` enters eq. (8); always that of the combination of
        rounds :math:`1, \dots, j-1`, taken before the update and normalized by
        :math:`\sum_{s<j} w_s`, with :math:`\varrho_1 = 0`.  ``"current"``: the minimum normalized
        margin of the current combination (Breiman 1999; Shen & Li's text).  ``"best"``: the
        largest of the minimum margins of the combinations so far, :math:`\varrho_1 = 0`
        included (so never negative; the variant of Meir & Rätsch 2003 and Rudin et al. 2007).
        ``"clipped"``: the current minimum margin clipped at 0.
    max_step : float or None, default=1.0
        Upper end of the clip of :math:`w_j`: ``1.0`` is Shen & Li's :math:`[0, 1]`; ``None``
        clips at 0 only.  ``None`` needs ``rho="best"`` or ``"clipped"``: with the current
        minimum margin, :math:`\varrho_2 = -1` as soon as :math:`h_1` misclassifies an example,
        and eq. (8) is infinite."""
        + _COMMON_PARAMETERS
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Breiman (1999) designed Arc-Gv to maximise the minimum margin.  This implementation follows
    Shen & Li (2010a), who state it as their Algorithm 1 (AdaBoost) with the weight of
    eq. (7) replaced by eq. (8) above, clipped to :math:`[0, 1]`; they compare its margin
    distribution with AdaBoost's and LPBoost's (their Figs. 1 and 4).  Arc-Gv asymptotically
    solves the hard-margin LP of their eqs. (19)-(20), which :class:`LPBoost` solves directly.
    Shen & Li note that other work chooses :math:`\varrho_j` differently; ``rho`` and
    ``max_step`` give those variants (the defaults are Shen & Li's form).

    References
    ----------
    Breiman, L. (1999). Prediction games and arcing algorithms. Neural Computation 11(7),
    1493-1517.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.
"""
        + _examples("ArcGv")
    )

    _algorithm_name = "ArcGv"
    _parameter_constraints: dict[str, Any] = {
        **_StagewiseBoosting._parameter_constraints,
        "rho": [StrOptions({"current", "best", "clipped"})],
        "max_step": [Interval(Real, 0.0, None, closed="neither"), None],
    }
    #: Step rule as listed in Mason et al. (1999), Table 1 (and its reference key).
    step_rule = "Arc-Gv step, Shen & Li eq. (8), clipped to [0, 1]"
    reference = "breiman1999prediction"

    def __init__(
        self,
        *,
        rho: str = "current",
        max_step: float | None = 1.0,
        n_estimators: int = 100,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float | None = None,
        validation_fraction: float = 0.1,
        n_iter_no_change: int | None = None,
        random_state: int | None = None,
    ) -> None:
        super().__init__(
            n_estimators=n_estimators,
            max_depth=max_depth,
            estimator=estimator,
            max_bins=max_bins,
            tol=tol,
            validation_fraction=validation_fraction,
            n_iter_no_change=n_iter_no_change,
            random_state=random_state,
        )
        self.rho = rho
        self.max_step = max_step

    def _check_params(self) -> None:
        if self.rho not in ("current", "best", "clipped"):
            raise ValueError(f"rho must be 'current', 'best' or 'clipped'; got {self.rho!r}")
        if self.max_step is not None:
            check_real(self.max_step, "max_step", 0.0)
        elif self.rho == "current":
            raise ValueError(
                "max_step=None needs rho='best' or 'clipped': with rho='current' eq. (8) is "
                "infinite once the minimum margin is -1 (round 2 whenever h_1 errs)"
            )

    def _cost_function(self) -> MarginCost:
        return ExponentialLoss()

    def _start(self, n_samples: int) -> None:
        self._best_rho = 0.0

    def _step(self, round_: BoostingRound) -> tuple[float, bool]:
        l1_norm = round_.l1_norm
        min_margin = float(round_.margins.min()) / l1_norm if l1_norm > 0 else 0.0
        if self.rho == "best":
            self._best_rho = max(self._best_rho, min_margin)
            min_margin = self._best_rho
        elif self.rho == "clipped":
            min_margin = max(min_margin, 0.0)
        max_step = None if self.max_step is None else float(self.max_step)
        return _steps.arc_gv_step(round_.edge, min_margin, max_step)


class ArcX4(_FixedCostBoosting):
    __doc__ = (
        r"""ARC-x4 (Breiman 1998, "Arcing classifiers") and its AnyBoost form (Mason et al. 1999, Table 1).

    * ``variant="breiman"``: example weights :math:`\propto s_i (1 + k_i^4)`, :math:`k_i` the
      number of earlier weak learners that misclassify :math:`x_i`; the final classifier is the
      unweighted vote (every ``alphas_`` entry is 1).
    * ``variant="anyboost"``: AnyBoost with cost :math:`c(m) = (1 - m)^5` and step :math:`1/t`,
      i.e. :math:`F_t` is the running average of the first :math:`t` weak learners; then
      :math:`-c'(m_i) = 5 (2 k_i / t)^4 \propto k_i^4` (Breiman's weights without the "+1").

    ``history_["objective"]`` is :math:`\sum_i s_i (1 - \varrho_i)^5` of the normalized margins
    :math:`\varrho_i` in both variants.

    Parameters
    ----------
    variant : {"breiman", "anyboost"}, default='breiman'"""
        + _COMMON_PARAMETERS
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Breiman (1998) defines ARC-x4 by the weights :math:`1 + k_i^4` and the unweighted vote
    (``variant="breiman"``).  Mason et al. (1999) list it in their Table 1 as AnyBoost
    (Algorithm 1) with the cost :math:`(1 - yF(x))^5` and the step :math:`1/t`
    (``variant="anyboost"``); that row cites their reference [2], which is Breiman's
    "Bagging predictors", not the arcing paper.

    References
    ----------
    Breiman, L. (1998). Arcing classifiers. The Annals of Statistics 26(3), 801-849.

    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. In Advances in Neural Information Processing Systems 12 (NIPS 1999), pp. 512-518.
    MIT Press.
"""
        + _examples("ArcX4")
    )

    _algorithm_name = "ArcX4"
    _parameter_constraints: dict[str, Any] = {
        **_StagewiseBoosting._parameter_constraints,
        "variant": [StrOptions({"breiman", "anyboost"})],
    }
    #: Step rule as listed in Mason et al. (1999), Table 1 (and its reference key).
    step_rule = "1/t (running average)"
    reference = "breiman1998arcing"

    def __init__(
        self,
        variant: str = "breiman",
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
        super().__init__(
            n_estimators=n_estimators,
            max_depth=max_depth,
            estimator=estimator,
            max_bins=max_bins,
            tol=tol,
            validation_fraction=validation_fraction,
            n_iter_no_change=n_iter_no_change,
            random_state=random_state,
        )
        self.variant = variant

    def _check_params(self) -> None:
        if self.variant not in ("breiman", "anyboost"):
            raise ValueError(f"variant must be 'breiman' or 'anyboost'; got {self.variant!r}")
        self._normalization = "average" if self.variant == "anyboost" else "none"

    def _cost_function(self) -> MarginCost:
        return GeneralizedHingeLoss(p=5.0)

    def _start(self, n_samples: int) -> None:
        self._mistakes = np.zeros(n_samples)

    def _gradient_weights(
        self,
        margins: FloatArray,
        l1_norm: float,
        sample_weight: FloatArray,
    ) -> FloatArray:
        if self.variant == "breiman":
            return sample_weight * (1.0 + self._mistakes**4)
        return super()._gradient_weights(margins, l1_norm, sample_weight)

    def _after_round(self, label_times_direction: FloatArray) -> None:
        self._mistakes += label_times_direction < 0

    def _objective(self, margins: FloatArray, l1_norm: float, sample_weight: FloatArray) -> float:
        return super()._objective(margins / l1_norm, 1.0, sample_weight)

    def _step(self, round_: BoostingRound) -> tuple[float, bool]:
        return (1.0 if self.variant == "breiman" else 1.0 / (round_.index + 1.0)), False
