r"""AdaBoost and its variants with exponential weights: AdaBoost, MadaBoost and RealAdaBoost.

* :class:`AdaBoost` (Freund & Schapire 1997): the exponential cost with exact line search;
* :class:`MadaBoost` (Domingo & Watanabe 2000): AdaBoost's step under example weights capped
  at 1;
* :class:`RealAdaBoost` (Schapire & Singer 1999): confidence-rated trees, a line search per
  leaf.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..losses import ExponentialLoss, MadaBoostLoss, MarginCost
from . import _steps
from ._base import Codes, check_real
from ._engine import BoostingRound
from ._engine import StagewiseBoosting as _StagewiseBoosting
from ._stagewise_common import (
    _ATTRIBUTES,
    _COMMON_PARAMETERS,
    _POSITIVE,
    FloatArray,
    _examples,
    _FixedCostBoosting,
)

__all__ = ["AdaBoost", "MadaBoost", "RealAdaBoost"]


class AdaBoost(_FixedCostBoosting):
    __doc__ = (
        r"""Discrete AdaBoost (Freund & Schapire 1997) as AnyBoost (Mason et al. 1999, Table 1).

    Exponential cost :math:`c(m) = e^{-m}` and exact line search, which along a ±1 weak learner
    is :math:`\alpha_t = \tfrac12 \log\frac{1-\varepsilon_t}{\varepsilon_t}` (Shen & Li 2010,
    eq. (7)); example weights :math:`D_t(i) \propto s_i e^{-y_i F_{t-1}(x_i)}`, computed in the
    log domain so that any number of rounds stays finite.

    A weak learner with zero weighted error (a perfect classifier of the training data) gets the
    finite weight of the clipped error :data:`~marginboost.boosting._steps.MIN_WEIGHTED_ERROR`
    (:math:`\approx 11.5`) and ends training (``stop_reason_ = "perfect weak learner"``).

    scikit-learn's ``AdaBoostClassifier`` (SAMME, two classes) uses
    :math:`\log\frac{1-\varepsilon}{\varepsilon}`, twice our :math:`\alpha_t`; predictions agree.

    Parameters
    ----------"""
        + _COMMON_PARAMETERS
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    AdaBoost is the first row of Table 1 of Mason et al. (1999): AnyBoost (their Algorithm 1)
    with the cost :math:`c(m) = e^{-m}` and a line search for the step.  Shen & Li (2010a) state
    the same algorithm as the minimisation of the exponential loss (their eq. (2)) by coordinate
    descent (their Algorithm 1), with the step of eq. (7),
    :math:`w_j = \tfrac12\log\frac{1+r_j}{1-r_j}` for the edge :math:`r_j = 1 - 2\varepsilon_j`.
    Freund & Schapire (1997, Fig. 2) weight the hypotheses by
    :math:`\log(1/\beta_t) = \log\frac{1-\varepsilon_t}{\varepsilon_t}`, twice :math:`\alpha_t`,
    which gives the same classifier.  ``history_["objective"]`` is
    :math:`\sum_i s_i e^{-y_iF(x_i)}`.

    References
    ----------
    Freund, Y. and Schapire, R. E. (1997). A decision-theoretic generalization of on-line
    learning and an application to boosting. Journal of Computer and System Sciences 55(1),
    119-139.

    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. In Advances in Neural Information Processing Systems 12 (NIPS 1999), pp. 512-518.
    MIT Press.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.
"""
        + _examples("AdaBoost")
    )

    _algorithm_name = "AdaBoost"
    _proba_link = "exponential"
    #: Step rule as listed in Mason et al. (1999), Table 1 (and its reference key).
    step_rule = "line search"
    reference = "freund1997decision"

    def _cost_function(self) -> MarginCost:
        return ExponentialLoss()

    def _step(self, round_: BoostingRound) -> tuple[float, bool]:
        return _steps.line_search_step(
            self._cost,
            round_.margins,
            round_.label_times_direction,
            round_.sample_weight,
            round_.gradient_weights,
            edge=round_.edge,
        )


class MadaBoost(_FixedCostBoosting):
    __doc__ = (
        r"""MadaBoost (Domingo & Watanabe 2000): AdaBoost with example weights capped at 1.

    Weights :math:`D_t(i) \propto s_i \min\{1, e^{-y_i F_{t-1}(x_i)}\} = -s_i c'(m_i)` for the
    MadaBoost cost (:class:`~marginboost.losses.MadaBoostLoss`); the step is AdaBoost's
    :math:`\tfrac12\log\frac{1-\varepsilon_t}{\varepsilon_t}` with the weighted error under these
    capped weights, as in the original algorithm.  ``history_["objective"]`` is the MadaBoost cost.

    Parameters
    ----------"""
        + _COMMON_PARAMETERS
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Domingo & Watanabe (2000) modify AdaBoost so that no example weight grows beyond its
    initial value.  In the AnyBoost view of Mason et al. (1999, Algorithm 1) this is the cost
    :math:`c(m) = e^{-m}` for :math:`m \ge 0` and :math:`1 - m` for :math:`m < 0`, whose
    negative derivative :math:`\min\{1, e^{-m}\}` is the capped weight; the step keeps
    AdaBoost's rule.  Shen & Li (2010a) mention MadaBoost as AdaBoost with a modified
    exponential loss; it is not one of the rows of Mason et al.'s Table 1.

    References
    ----------
    Domingo, C. and Watanabe, O. (2000). MadaBoost: a modification of AdaBoost. In Proceedings
    of the 13th Annual Conference on Computational Learning Theory, pp. 180-189.

    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. In Advances in Neural Information Processing Systems 12 (NIPS 1999), pp. 512-518.
    MIT Press.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.
"""
        + _examples("MadaBoost")
    )

    _algorithm_name = "MadaBoost"
    #: Step rule as listed in Mason et al. (1999), Table 1 (and its reference key).
    step_rule = "AdaBoost's step under the capped weights"
    reference = "domingo2000madaboost"

    def _cost_function(self) -> MarginCost:
        return MadaBoostLoss()

    def _step(self, round_: BoostingRound) -> tuple[float, bool]:
        return _steps.adaboost_step(round_.edge)


class RealAdaBoost(_FixedCostBoosting):
    __doc__ = (
        r"""Real (confidence-rated) AdaBoost, Schapire & Singer (1999): "ConfidenceBoost" of Mason et al.

    Each round the weak tree is grown on the weights :math:`D_t(i) \propto s_i e^{-y_iF(x_i)}`
    (split criterion of the weak learner, weighted error by default) and its leaves get the
    confidence-rated values

    .. math:: c_b = \tfrac12 \log\frac{W_+^b + \epsilon}{W_-^b + \epsilon},

    :math:`W_\pm^b` the weight of class :math:`\pm1` in leaf :math:`b` (weights summing to 1), with
    the smoothing :math:`\epsilon` = ``smoothing`` (default :math:`1/(2m)`, Schapire & Singer,
    Sec. 4.2, recommend :math:`\epsilon` of order :math:`1/m`).  The tree enters with weight
    :math:`\alpha_t = 1`: for these leaf values :math:`\alpha = 1` is the exact line search of
    :math:`Z = \sum_i D_i e^{-\alpha y_i h(x_i)}` when :math:`\epsilon = 0`.

    Parameters
    ----------
    smoothing : float, optional
        :math:`\epsilon > 0`; ``None`` means :math:`1/(2m)`."""
        + _COMMON_PARAMETERS
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Mason et al. (1999) list this method as "ConfidenceBoost" in their Table 1: AnyBoost
    (Algorithm 1) with the exponential cost :math:`e^{-yF(x)}` and a line search, the weak
    hypotheses being real-valued.  The leaf values are Schapire & Singer's (1999) choice for
    domain-partitioning hypotheses (their Sec. 4.2, with the smoothing :math:`\epsilon`);
    without the smoothing they minimise the normaliser :math:`Z_t` over the values of the
    tree's leaves.
    ``history_["objective"]`` is :math:`\sum_i s_i e^{-y_iF(x_i)}`.

    References
    ----------
    Schapire, R. E. and Singer, Y. (1999). Improved boosting algorithms using confidence-rated
    predictions. Machine Learning 37(3), 297-336.

    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. In Advances in Neural Information Processing Systems 12 (NIPS 1999), pp. 512-518.
    MIT Press.
"""
        + _examples("RealAdaBoost")
    )

    _algorithm_name = "RealAdaBoost"
    _proba_link = "exponential"
    _parameter_constraints: dict[str, Any] = {
        **_StagewiseBoosting._parameter_constraints,
        "smoothing": [*_POSITIVE, None],
    }
    #: Step rule as listed in Mason et al. (1999), Table 1 (and its reference key).
    step_rule = "line search per leaf (confidence-rated leaves)"
    reference = "schapire1999improved"

    def __init__(
        self,
        smoothing: float | None = None,
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
        self.smoothing = smoothing

    def _check_params(self) -> None:
        if self.smoothing is not None:
            check_real(self.smoothing, "smoothing", 0.0)

    def _cost_function(self) -> MarginCost:
        return ExponentialLoss()

    def _direction(
        self,
        learner: Any,
        codes: Codes,
        y: FloatArray,
        gradient_weights: FloatArray,
        scores: FloatArray,
        sample_weight: FloatArray,
    ) -> tuple[Any, FloatArray, FloatArray]:
        smoothing = 0.5 / y.shape[0] if self.smoothing is None else float(self.smoothing)
        tree = learner.fit_binary(codes, y, gradient_weights)
        leaves = tree.apply(codes)
        n_leaves = int(tree.n_leaves_)
        positive = np.bincount(leaves, weights=gradient_weights * (y > 0), minlength=n_leaves)
        negative = np.bincount(leaves, weights=gradient_weights * (y < 0), minlength=n_leaves)
        values = 0.5 * np.log((positive + smoothing) / (negative + smoothing))
        return tree.with_leaf_values(values), values[leaves], gradient_weights

    def _step(self, round_: BoostingRound) -> tuple[float, bool]:
        return 1.0, False
