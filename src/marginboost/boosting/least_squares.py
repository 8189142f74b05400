r"""Boosting by least-squares fits of regression trees: LogitBoost and L2Boost.

* :class:`LogitBoost` (Friedman, Hastie & Tibshirani 2000, Algorithm 3): Newton steps on the
  logistic cost, each a weighted least-squares fit of the working response;
* :class:`L2Boost` (Bühlmann & Yu 2003): functional gradient descent on the squared loss, the
  trees fitted to the residuals (or a line search along a classifier).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import expit
from sklearn.utils._param_validation import StrOptions

from .._sklearn import PARAMETERS
from ..losses import LogisticLoss, MarginCost, SquaredLoss
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

__all__ = ["LogitBoost", "L2Boost"]


class LogitBoost(_FixedCostBoosting):
    __doc__ = (
        r"""Binary LogitBoost, Friedman, Hastie & Tibshirani (2000), Algorithm 3.

    With :math:`y^* = (y+1)/2` and :math:`p(x) = e^{F}/(e^{F} + e^{-F})`, each round fits a
    weighted least-squares regression tree :math:`f` to the working response
    :math:`z_i = (y^*_i - p_i)/(p_i(1-p_i)) = y_i (1 + e^{-2 y_i F(x_i)})` with weights
    :math:`s_i p_i (1 - p_i)` and sets :math:`F \leftarrow F + \tfrac12 f` (a Newton step on the
    logistic cost, Mason et al. 1999, Table 1).  As FHT recommend (Sec. 6), :math:`|z_i|` is
    clipped at ``z_max`` (between 2 and 4) and the weights are bounded below by twice the machine
    epsilon.  ``history_["objective"]`` is :math:`\sum_i s_i \log(1 + e^{-2 y_i F(x_i)})` and
    ``alphas_`` are all :math:`\tfrac12`.

    Parameters
    ----------
    z_max : float, default=4.0
        Clipping threshold of the working response."""
        + _COMMON_PARAMETERS
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    The binary LogitBoost of Friedman, Hastie & Tibshirani (2000, Algorithm 3): one
    Newton-Raphson step on the logistic cost per round, the row "LogitBoost" of Table 1 of
    Mason et al. (1999) (cost :math:`\ln(1 + e^{-yF(x)})`, step "Newton-Raphson").  The
    parametrisation :math:`p(x) = e^{F}/(e^{F}+e^{-F})` is FHT's, so the cost of :math:`F` is
    the logistic cost at :math:`2yF`.  Shen & Li (2010a) derive the dual of the same loss under
    an :math:`\ell_1` constraint (their eqs. (31)-(33)), solved by :class:`LogitBoostCG`.

    References
    ----------
    Friedman, J., Hastie, T. and Tibshirani, R. (2000). Additive logistic regression: a
    statistical view of boosting. The Annals of Statistics 28(2), 337-407.

    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. In Advances in Neural Information Processing Systems 12 (NIPS 1999), pp. 512-518.
    MIT Press.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.
"""
        + _examples("LogitBoost")
    )

    _algorithm_name = "LogitBoost"
    _proba_link = "exponential"  # p = e^F/(e^F + e^-F) = 1/(1 + e^{-2F}), FHT (2000) Alg. 3
    _parameter_constraints: dict[str, Any] = {
        **_StagewiseBoosting._parameter_constraints,
        "z_max": _POSITIVE,
    }
    #: Step rule as listed in Mason et al. (1999), Table 1 (and its reference key).
    step_rule = "Newton-Raphson"
    reference = "friedman2000additive"
    _cost_scale = 2.0
    _default_criterion = "squared_error"

    def __init__(
        self,
        z_max: float = 4.0,
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
        self.z_max = z_max

    def _check_params(self) -> None:
        check_real(self.z_max, "z_max", 0.0)

    def _cost_function(self) -> MarginCost:
        return LogisticLoss()

    def _direction(
        self,
        learner: Any,
        codes: Codes,
        y: FloatArray,
        gradient_weights: FloatArray,
        scores: FloatArray,
        sample_weight: FloatArray,
    ) -> tuple[Any, FloatArray, FloatArray]:
        margins = y * scores
        with np.errstate(over="ignore"):
            response = y * np.minimum(1.0 + np.exp(-2.0 * margins), self.z_max)
        newton_weights = sample_weight * np.maximum(
            expit(2.0 * margins) * expit(-2.0 * margins), 2.0 * np.finfo(np.float64).eps
        )
        tree = learner.fit_regression(codes, response, newton_weights)
        return tree, tree.predict(codes), newton_weights

    def _step(self, round_: BoostingRound) -> tuple[float, bool]:
        return 0.5, False


class L2Boost(_FixedCostBoosting):
    __doc__ = (
        r"""L2Boost (Bühlmann & Yu 2003): functional gradient descent on the squared loss.

    Cost :math:`c(m) = (1 - m)^2 = (y - F(x))^2` for :math:`y = \pm 1`; :math:`F_0 = 0`.  With
    residuals :math:`U_i = y_i - F(x_i)`:

    * ``form="regression"`` (Bühlmann & Yu): fit a weighted least-squares regression tree
      :math:`f` to :math:`U` and set :math:`F \leftarrow F + \nu f`;
    * ``form="classifier"`` (the ±1-stump form of Guo & Chen, eq. (4)): choose the ±1 weak
      learner :math:`h` maximizing :math:`\sum_i s_i U_i h(x_i)` (signed example weights
      :math:`-c'(m_i) = 2 y_i U_i`) and set :math:`F \leftarrow F + \nu\beta h` with the exact
      line search :math:`\beta = \sum_i s_i U_i h(x_i) / \sum_i s_i h(x_i)^2`.

    Parameters
    ----------
    form : {"classifier", "regression"}, default="classifier"
    learning_rate : float, default=1.0
        Shrinkage :math:`\nu` (1 in the original algorithm)."""
        + _COMMON_PARAMETERS
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Bühlmann & Yu (2003) fit the residuals of the squared loss by least squares each round
    (functional gradient descent with the :math:`L_2` loss, ``form="regression"``).  Guo &
    Chen write L2Boost with :math:`\pm 1` decision stumps as the minimisation of
    :math:`\sum_i (1 - y_i H_i w)^2` over :math:`w \ge 0` (their eq. (4)); ``form="classifier"``
    is that form, the baseline of their comparison.  In the AnyBoost view of Mason et al.
    (1999, Algorithm 1) the cost is :math:`c(m) = (1 - m)^2` with an exact line search.

    References
    ----------
    Bühlmann, P. and Yu, B. (2003). Boosting with the L2 loss: regression and classification.
    Journal of the American Statistical Association 98(462), 324-339.

    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript, College
    of Computer Science and Technology, Nanjing University of Aeronautics and Astronautics.

    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. In Advances in Neural Information Processing Systems 12 (NIPS 1999), pp. 512-518.
    MIT Press.
"""
        + _examples("L2Boost")
    )

    _algorithm_name = "L2Boost"
    _proba_link = "squared"
    _parameter_constraints: dict[str, Any] = {
        **_StagewiseBoosting._parameter_constraints,
        "form": [StrOptions({"classifier", "regression"})],
        "learning_rate": PARAMETERS["learning_rate"],
    }
    #: Step rule as listed in Mason et al. (1999), Table 1 (and its reference key).
    step_rule = "least-squares fit (exact line search)"
    reference = "buhlmann2003boosting"

    def __init__(
        self,
        form: str = "classifier",
        learning_rate: float = 1.0,
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
        self.form = form
        self.learning_rate = learning_rate

    def _check_params(self) -> None:
        if self.form not in ("classifier", "regression"):
            raise ValueError(f"form must be 'classifier' or 'regression'; got {self.form!r}")
        check_real(self.learning_rate, "learning_rate", 0.0)
        self._default_criterion = "error" if self.form == "classifier" else "squared_error"

    def _cost_function(self) -> MarginCost:
        return SquaredLoss()

    def _direction(
        self,
        learner: Any,
        codes: Codes,
        y: FloatArray,
        gradient_weights: FloatArray,
        scores: FloatArray,
        sample_weight: FloatArray,
    ) -> tuple[Any, FloatArray, FloatArray]:
        if self.form == "classifier":
            return super()._direction(learner, codes, y, gradient_weights, scores, sample_weight)
        tree = learner.fit_regression(codes, y - scores, sample_weight)
        return tree, tree.predict(codes), sample_weight

    def _step(self, round_: BoostingRound) -> tuple[float, bool]:
        if self.form == "regression":
            return float(self.learning_rate), False
        step, _ = _steps.line_search_step(
            self._cost,
            round_.margins,
            round_.label_times_direction,
            round_.sample_weight,
            round_.gradient_weights,
        )
        return self.learning_rate * step, False
