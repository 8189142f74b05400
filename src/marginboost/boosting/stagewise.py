r"""Stage-wise boosting: the AnyBoost engine and the voting methods it contains.

Mason, Baxter, Bartlett & Frean (1999), "Boosting algorithms as gradient descent", NIPS 12,
view boosting as gradient descent on a margin cost functional

.. math:: C(F) = \sum_{i=1}^m s_i\, c(y_i F(x_i)), \qquad s_i = 1/m \text{ by default},

in the space of functions with the inner product (2),
:math:`\langle F, G \rangle = \sum_i s_i F(x_i) G(x_i)` (the paper's :math:`1/m` average; fit's
``sample_weight`` changes the :math:`s_i`).  Algorithm 1 (AnyBoost) starts from :math:`F_0 = 0`
and repeats: ask the weak learner for :math:`f_{t+1}` with a large
:math:`-\langle \nabla C(F_t), f_{t+1}\rangle \propto \sum_i s_i (-c'(y_i F_t(x_i))) y_i f_{t+1}(x_i)`
(for ±1 learners: minimize the weighted error with weights :math:`D(i) \propto -c'(y_iF_t(x_i))`);
stop if this is :math:`\le 0`; otherwise choose a step :math:`w_{t+1}` and set
:math:`F_{t+1} = F_t + w_{t+1} f_{t+1}`.  The members differ in the cost :math:`c`, the step rule
(Table 1) and, for DOOM II, in a normalisation that keeps :math:`F` a convex combination.

Stopping rules (every estimator):

* the AnyBoost test: the new weak learner does not point downhill (its edge is :math:`\le 0`);
* ``n_estimators`` rounds;
* ``tol``: the absolute change of the training cost in one round falls below ``tol`` (the rule
  "change of loss below 1e-6" of Zhai et al. 2013; off by default);
* early stopping on validation data: pass ``X_val, y_val`` to :meth:`fit`, or set
  ``n_iter_no_change`` to hold out a stratified ``validation_fraction`` of the training data.
  Training stops after ``n_iter_no_change`` rounds without a lower validation error (never when
  it is ``None``), and the ensemble is cut back to the **smallest** number of rounds with the
  lowest validation error (:func:`marginboost.experiments.best_round`, the rule of Guo & Chen).
  ``history_["validation_error"]`` keeps the staged validation errors up to that round;
  ``n_rounds_run_`` is the number of rounds trained before the cut.

Every estimator records ``history_``, a dict of per-round arrays: ``train_error`` (fraction of
training examples misclassified by :math:`F_t`), ``objective`` (the training cost
:math:`C(F_t)`), ``edge`` (:math:`\sum_i D_i y_i f_t(x_i)` with :math:`D \propto -s_i c'`,
normalised to :math:`\sum_i |D_i| = 1`), ``min_margin`` and ``mean_margin`` (normalized margins
after the round), ``weight_entropy`` (Shannon entropy of the example weights given to the weak
learner), ``step`` (:math:`w_t`) and ``time`` (seconds since the start of ``fit``).
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit
from sklearn.utils._param_validation import Interval, StrOptions

from .._sklearn import PARAMETERS
from ..losses import (
    LOSSES,
    ExponentialLoss,
    GeneralizedHingeLoss,
    LogisticLoss,
    MadaBoostLoss,
    MarginCost,
    NormalizedSigmoidLoss,
    SquaredLoss,
    get_loss,
)
from . import _steps
from ._base import Codes, check_real
from ._engine import BoostingRound
from ._engine import StagewiseBoosting as _StagewiseBoosting

_POSITIVE = [Interval(Real, 0.0, float("inf"), closed="neither")]

__all__ = [
    "AnyBoost",
    "AdaBoost",
    "ArcGv",
    "ArcX4",
    "RealAdaBoost",
    "LogitBoost",
    "DoomII",
    "L2Boost",
    "MadaBoost",
    "anyboost_members",
]

FloatArray = NDArray[np.float64]


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


class _FixedCostBoosting(_StagewiseBoosting):
    """Members of the family: common constructor parameters (see :class:`AnyBoost`)."""

    def __init__(
        self,
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
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.estimator = estimator
        self.max_bins = max_bins
        self.tol = tol
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state


_COMMON_PARAMETERS = """
    n_estimators, max_depth, estimator, max_bins
        As for :class:`AnyBoost`.
    tol, validation_fraction, n_iter_no_change, random_state
        As for :class:`AnyBoost`.
"""

#: The fitted attributes of every stage-wise estimator (numpydoc ``Attributes`` section).
_ATTRIBUTES = r"""
    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is coded :math:`+1` (a positive
        ``decision_function`` predicts it).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features,)
        Names of the features seen in ``fit``; defined only when ``X`` has string column names.
    mapper_ : BinMapper or RawFeatures
        The feature binning fitted on the training inputs
        (:class:`~marginboost.weak.BinMapper`), or :class:`~marginboost.weak.RawFeatures` for a
        weak learner that reads the raw features.
    estimators_ : list of FittedTree
        The weak learners :math:`f_t`, in the order they were added.
    alphas_ : ndarray of shape (n_estimators\_,)
        Their weights in the final combination :math:`F(x) = \sum_t \alpha_t f_t(x)`; for the
        normalized updates (DOOM II, ARC-x4's AnyBoost form) the weights after every later
        rescaling, so that they sum to 1.
    n_estimators_ : int
        Number of weak learners in the final combination.
    n_rounds_run_ : int
        Number of rounds trained; larger than ``n_estimators_`` when early stopping cut the
        ensemble back to its best validation round.
    history_ : dict of str to ndarray
        Per-round records, one entry per kept round: ``train_error``, ``objective`` (the
        training cost :math:`C(F_t)`), ``edge``, ``min_margin`` and ``mean_margin`` (normalized
        margins), ``weight_entropy``, ``step`` and ``time``, plus ``validation_error`` when
        validation data were used (see :mod:`marginboost.boosting.stagewise`).
    stop_reason_ : str
        Why training ended: ``"n_estimators"``, ``"weak learner does not point downhill"``,
        ``"zero gradient"``, ``"zero step"``, ``"perfect weak learner"``, ``"tol"`` or
        ``"early stopping"``.
"""


def _examples(name: str) -> str:
    return f"""
    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from marginboost import {name}
    >>> X, y = make_classification(n_samples=100, n_features=4, random_state=0)
    >>> model = {name}(n_estimators=10).fit(X, y)
    >>> model.predict(X[:3]).shape, model.predict_proba(X[:3]).shape
    ((3,), (3, 2))
    """


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


class DoomII(_FixedCostBoosting):
    __doc__ = (
        r"""DOOM II (Mason et al. 1999, Sec. 5): AnyBoost on the normalized sigmoid cost (4).

    Cost :math:`c(m) = 1 - \tanh(\lambda m)` of the margins of a **convex** combination
    :math:`F` of the weak learners, inner product (2) and the fixed step
    :math:`\varepsilon = 0.05` of all the paper's experiments.  The combination is kept
    normalized as in the full version of the paper (Mason et al. 2000, "AnyBoost.L1"):

    .. math:: F_{t+1} = \frac{F_t + \varepsilon f_{t+1}}{\|F_t + \varepsilon f_{t+1}\|_1},

    where :math:`\|\cdot\|_1` is the sum of the absolute weights (so :math:`F_1 = f_1` and
    afterwards :math:`F_{t+1} = (F_t + \varepsilon f_{t+1})/(1 + \varepsilon)`).  The weak
    learner gets the example weights :math:`D(i) \propto -c'(y_i F_t(x_i))`.  ``alphas_`` sum to 1.

    **How the weak learner sees the weights** (``sampling``) is not stated in the seed paper, and
    it decides whether DOOM II does anything at all:

    * ``"reweight"``: the weak learner minimizes the weighted error under :math:`D` exactly, and
      training stops when :math:`-\langle \nabla C(F_t), f_{t+1} - F_t\rangle \le 0` (the
      direction the normalized update moves in).  It stops after **one** round: at
      :math:`F_1 = f_1` every normalized margin is :math:`\pm 1` and :math:`c'` is even, so
      :math:`D` is uniform, the weak learner returns :math:`f_1` again and the derivative is 0.
      :math:`F_1` is a stationary point of the cost over convex combinations, indeed a local
      minimum for every step and steepness: as :math:`c(z) + c(-z) = 2`, one step towards
      another stump :math:`h` changes the cost by
      :math:`(c(\tfrac{1-\varepsilon}{1+\varepsilon}) - c(1))(L - G)/m`, :math:`L` (:math:`G`) the
      examples :math:`f_1` gets right (wrong) and :math:`h` wrong (right), and :math:`G \le L`
      for the best stump (tested against the plain-numpy reference
      ``tests/reference/doom2.py``).
    * ``"resample"`` (default): boosting by resampling, the common practice of the time; each
      round after the first (whose learner is the exact one, as :math:`F_0 = 0`) the weak learner
      is fitted (unweighted) to :math:`m` examples drawn with replacement from :math:`D` (seeded
      by ``random_state``), and the algorithm stops with Algorithm 1's
      test :math:`-\langle \nabla C(F_t), f_{t+1}\rangle \le 0`.  The sampling noise breaks
      the symmetry above, so the combination grows, but only when a resample's best stump
      differs from :math:`f_1`: when :math:`f_1` is far ahead of every other stump (splice) the
      combination can stay :math:`f_1` for all rounds.  This is our reconstruction, stated as
      such wherever results of it are shown.

    Parameters
    ----------
    steepness : float, default=1.0
        :math:`\lambda` of eq. (4) (a tuning parameter; the paper does not give its value).
    step_size : float, default=0.05
        :math:`\varepsilon`.
    sampling : {"resample", "reweight"}, default="resample"
        How the weak learner is given the example weights (see above)."""
        + _COMMON_PARAMETERS
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Mason et al. (1999), Sec. 5: AnyBoost (Algorithm 1) with the normalized sigmoid cost
    functional (4), the inner product (2), a convex combination of the weak hypotheses and the
    fixed step :math:`\varepsilon = 0.05`, with decision stumps in all the paper's experiments.
    The normalisation of the combination comes from the full version of the paper
    ("AnyBoost.L1"), which is not part of the NIPS text; the resampling variant is a
    reconstruction (see above).

    References
    ----------
    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. In Advances in Neural Information Processing Systems 12 (NIPS 1999), pp. 512-518.
    MIT Press.
"""
        + _examples("DoomII")
    )

    _algorithm_name = "DoomII"
    _parameter_constraints: dict[str, Any] = {
        **_StagewiseBoosting._parameter_constraints,
        "steepness": _POSITIVE,
        "step_size": _POSITIVE,
        "sampling": [StrOptions({"resample", "reweight"})],
    }
    #: Step rule as listed in Mason et al. (1999), Table 1 (and its reference key).
    step_rule = "fixed epsilon = 0.05, convex combination"
    reference = "mason1999boosting"
    _normalization = "convex"

    def __init__(
        self,
        steepness: float = 1.0,
        step_size: float = 0.05,
        *,
        sampling: str = "resample",
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
        self.steepness = steepness
        self.step_size = step_size
        self.sampling = sampling

    def _check_params(self) -> None:
        check_real(self.steepness, "steepness", 0.0)
        check_real(self.step_size, "step_size", 0.0)
        if self.sampling not in ("resample", "reweight"):
            raise ValueError(f"sampling must be 'resample' or 'reweight'; got {self.sampling!r}")

    def _cost_function(self) -> MarginCost:
        return NormalizedSigmoidLoss(steepness=float(self.steepness))

    def _start(self, n_samples: int) -> None:
        self._sampling_rng = np.random.default_rng(self.random_state)

    def _stop_on_moved_direction(self) -> bool:
        return self.sampling == "reweight"

    def _direction(
        self,
        learner: Any,
        codes: Codes,
        y: FloatArray,
        gradient_weights: FloatArray,
        scores: FloatArray,
        sample_weight: FloatArray,
    ) -> tuple[Any, FloatArray, FloatArray]:
        if self.sampling == "reweight" or not np.any(scores):
            # round 1 (F_0 = 0) fits the exact weighted learner in both variants
            return super()._direction(learner, codes, y, gradient_weights, scores, sample_weight)
        probabilities = np.abs(gradient_weights)
        probabilities = probabilities / probabilities.sum()
        drawn = self._sampling_rng.choice(
            y.shape[0], size=int(y.shape[0]), replace=True, p=probabilities
        )
        sample_codes = np.asfortranarray(codes[drawn])
        tree = learner.fit_binary(
            sample_codes, y[drawn], np.full(drawn.shape[0], 1.0 / drawn.shape[0])
        )
        return tree, tree.predict(codes), gradient_weights

    def _step(self, round_: BoostingRound) -> tuple[float, bool]:
        return float(self.step_size), False


def anyboost_members() -> list[dict[str, Any]]:
    """The registered members of the AnyBoost engine: cost, step rule and normalisation.

    Generated from the estimator classes themselves (their cost object and ``step_rule``), so the
    book's version of Mason et al.'s Table 1 cannot drift from the code.
    """
    rows = []
    for cls in (AdaBoost, ArcX4, RealAdaBoost, LogitBoost, ArcGv, MadaBoost, L2Boost, DoomII):
        model = cls()
        if cls is ArcX4:
            model.set_params(variant="anyboost")
        model._check_params()
        cost = model._cost_function()
        rows.append(
            {
                "algorithm": cls._algorithm_name,
                "cost": cost.name,
                "cost_formula": cost.formula,
                "step_rule": cls.step_rule,
                "normalization": model._normalization,
                "reference": cls.reference,
            }
        )
    return rows


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
from .._sklearn import examples_section as _examples_section  # noqa: E402

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
