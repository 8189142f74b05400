r"""AdaBoost.M1 (Freund & Schapire 1997) and SAMME (Zhu et al. 2009): the weighted plurality vote.

Both run the loop of ``_DiscreteMulticlassBoosting``, described in
:mod:`marginboost.boosting.multiclass`: a multi-class tree per round, its weight from the
weighted error, and a stop when the error reaches the algorithm's limit (up to
:data:`ERROR_LIMIT_RTOL`).  They differ in the weight and in the limit.
"""

from __future__ import annotations

import time
from abc import ABCMeta, abstractmethod
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils._param_validation import StrOptions

from .._sklearn import constraints
from .._sklearn import examples_section as _examples_section
from ._blas_threads import one_blas_thread
from ._multiclass_base import (
    _COMMON_ATTRIBUTES,
    _WARM_START,
    MULTICLASS_CRITERIA,
    MulticlassBoostingClassifier,
)
from ._multiclass_kernels import add_votes
from ._steps import MIN_WEIGHTED_ERROR

__all__ = ["AdaBoostM1", "SAMME", "ERROR_LIMIT_RTOL"]


#: A weighted error within this relative distance below the stopping limit (1/2 for
#: AdaBoost.M1, 1 - 1/K for SAMME) counts as reaching it.  The error is a sum of normalized
#: weights, exact up to a few units of rounding (about 1e-16 each); a vote
#: ``log((1 - err) / err)`` this close to the limit's is about 1e-12, no step at all.
ERROR_LIMIT_RTOL = 1e-12


class _DiscreteMulticlassBoosting(MulticlassBoostingClassifier, metaclass=ABCMeta):
    """The loop shared by AdaBoost.M1 and SAMME (see the module docstring)."""

    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators",
        "max_depth",
        "max_bins",
        "warm_start",
        criterion=[StrOptions(set(MULTICLASS_CRITERIA))],
    )

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        max_depth: int = 3,
        criterion: str = "gini",
        max_bins: int = 255,
        warm_start: bool = False,
    ) -> None:
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.criterion = criterion
        self.max_bins = max_bins
        self.warm_start = warm_start

    @abstractmethod
    def _error_limit(self, n_classes: int) -> tuple[float, str]:
        """The weighted error at which boosting stops, and how to print it."""

    @abstractmethod
    def _alpha(self, error: float, n_classes: int) -> float:
        """The weight of a round's tree with weighted error ``error``."""

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> _DiscreteMulticlassBoosting:
        """Fit the ensemble.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
            Training inputs (finite values).
        y : array of shape (n_samples,)
            Labels, at least two distinct values.
        sample_weight : array of shape (n_samples,), optional
            Non-negative initial example weights (normalized to sum 1); uniform by default.

        Returns
        -------
        self
        """
        with one_blas_thread():
            begun = self._begin(X, y, sample_weight, self.criterion, "weighted_error")
            if begun is None:  # a warm start that keeps the previous fit
                return self
            codes, y, weights, n_rounds, learner, done, history = begun
            n_classes = self.n_classes_
            limit, limit_text = self._error_limit(n_classes)
            with np.errstate(divide="ignore"):
                log_weights = np.log(weights)
            scores = np.zeros((y.shape[0], n_classes))
            leader = np.zeros(y.shape[0], dtype=np.intp)  # argmax of each row of scores
            estimators: list[Any] = []
            alphas: list[float] = []
            stop_reason = "n_estimators"
            start = time.perf_counter()
            for t in range(n_rounds):
                if t < len(done):  # a warm start replays the fitted rounds' updates
                    tree, alpha = done[t]
                    predicted = tree.predict(codes).astype(np.intp)
                    incorrect = predicted != y
                else:
                    if t == len(done):
                        start = self._clock(history)
                    weights = np.exp(log_weights - log_weights.max())
                    weights /= weights.sum()
                    tree = learner.fit_multiclass(codes, y, weights)
                    predicted = tree.predict(codes).astype(np.intp)
                    incorrect = predicted != y
                    error = float(weights[incorrect].sum())
                    if not limit - error > ERROR_LIMIT_RTOL * limit:  # reached, up to rounding
                        stop_reason = (
                            f"weighted error {error:.6g} >= {limit_text} in round {t + 1} "
                            f"(K = {n_classes})"
                        )
                        break
                    perfect = error < MIN_WEIGHTED_ERROR
                    alpha = self._alpha(max(error, MIN_WEIGHTED_ERROR), n_classes)
                estimators.append(tree)
                alphas.append(alpha)
                n_wrong = add_votes(scores, predicted, alpha, leader, y)
                if alpha < 0.0:  # the incremental leaders need growing scores
                    leader = np.argmax(scores, axis=1)
                    n_wrong = int(np.count_nonzero(leader != y))
                if t >= len(done):
                    history["weighted_error"].append(error)
                    history["train_error"].append(n_wrong / y.shape[0])
                    history["time"].append(time.perf_counter() - start)
                    if perfect:
                        stop_reason = "perfect weak learner"
                        break
                log_weights = log_weights + alpha * incorrect
            self._finish(history, estimators, alphas, stop_reason)
            return self


class AdaBoostM1(_DiscreteMulticlassBoosting):
    __doc__ = (
        r"""AdaBoost.M1 (Freund & Schapire 1997) with multi-class decision trees.

    Freund & Schapire, "A decision-theoretic generalization of on-line learning and an
    application to boosting", *J. Comput. Syst. Sci.* 55:119-139 (1997), Fig. 3:
    :math:`\alpha_t = \log\frac{1 - \varepsilon_t}{\varepsilon_t}`; the algorithm needs
    :math:`\varepsilon_t < 1/2` and stops (discarding :math:`h_t`) as soon as
    :math:`\varepsilon_t \ge 1/2`.  With many classes even the first depth-3 tree may fail that
    test: then ``boosted_`` is ``False`` and ``stop_reason_`` gives the error (DMCBoost's
    Table 2: "not able to boost" on Abalone, CNAE-9, Krkopt, Letter and Vowel).

    Parameters
    ----------
    n_estimators : int, default=100
        Maximum number of rounds.
    max_depth : int, default=4
        Depth of the multi-class trees.  The default is the smallest depth whose first tree
        has a weighted error below 1/2 on scikit-learn's digits (K = 10; depth 3 reaches 0.511
        there, so AdaBoost.M1 could not boost at all).  DMCBoost's Table 2 uses depth 3, set
        explicitly there.
    criterion : {"gini", "entropy", "multiclass_error"}, default="gini"
        Split criterion of the trees (:mod:`marginboost.weak.tree`); ``"gini"`` grows the trees
        of scikit-learn's ``DecisionTreeClassifier``, ``"multiclass_error"`` greedily minimizes
        the weighted error.
    max_bins : int, default=255
        Number of feature bins (exact thresholds when a feature has at most this many values).
    warm_start : bool, default=False
        """
        + _WARM_START
        + _COMMON_ATTRIBUTES
        + r"""    estimators_ : list of FittedTree
        The K-class trees :math:`h_t`, in the order they were added.
    alphas_ : ndarray of shape (n_estimators\_,)
        Their votes :math:`\alpha_t = \log\frac{1-\varepsilon_t}{\varepsilon_t}`.
    stop_reason_ : str
        ``"n_estimators"``, ``"perfect weak learner"`` or the weighted error that reached 1/2
        (with its round).
    history_ : dict of str to ndarray
        Per round: ``weighted_error`` (:math:`\varepsilon_t`), ``train_error`` (training error
        of the vote) and ``time`` (seconds since the start of ``fit``).

    Notes
    -----
    AdaBoost.M1 is the multi-class extension of AdaBoost in Fig. 3 of Freund & Schapire
    (1997): it multiplies the weights of the correctly classified examples by
    :math:`\beta_t = \varepsilon_t/(1-\varepsilon_t)` and votes with :math:`\log(1/\beta_t)`,
    which after normalisation is the update and the vote of
    :mod:`marginboost.boosting.multiclass`.  Its requirement :math:`\varepsilon_t < 1/2` is
    strong for many classes.  Zhai, Xia & Wang (2014) compare DMCBoost with AdaBoost.M1 on
    depth-3 trees (their Table 2), where it cannot boost on several data sets.

    References
    ----------
    Freund, Y. and Schapire, R. E. (1997). A decision-theoretic generalization of on-line
    learning and an application to boosting. Journal of Computer and System Sciences 55(1),
    119-139.

    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. In Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining, pp. 273-282.
    """
    )

    _algorithm_name = "AdaBoost.M1"
    reference = "freund1997decision"

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        max_depth: int = 4,
        criterion: str = "gini",
        max_bins: int = 255,
        warm_start: bool = False,
    ) -> None:
        super().__init__(
            n_estimators=n_estimators,
            max_depth=max_depth,
            criterion=criterion,
            max_bins=max_bins,
            warm_start=warm_start,
        )

    def _error_limit(self, n_classes: int) -> tuple[float, str]:
        return 0.5, "1/2"

    def _alpha(self, error: float, n_classes: int) -> float:
        return float(np.log((1.0 - error) / error))


class SAMME(_DiscreteMulticlassBoosting):
    __doc__ = (
        r"""SAMME (Zhu, Zou, Rosset & Hastie 2009) with multi-class decision trees.

    Zhu, Zou, Rosset & Hastie, "Multi-class AdaBoost", *Statistics and Its Interface*
    2:349-360 (2009), Algorithm 2:
    :math:`\alpha_t = \log\frac{1 - \varepsilon_t}{\varepsilon_t} + \log(K - 1)`, positive as
    long as the weak learner beats random guessing, :math:`\varepsilon_t < 1 - 1/K`; boosting
    stops (discarding :math:`h_t`) otherwise.  Equals scikit-learn's ``AdaBoostClassifier`` on
    the same trees (module docstring).

    Parameters
    ----------
    n_estimators, criterion, max_bins, warm_start
        As for :class:`AdaBoostM1`.
    max_depth : int, default=3
        Depth of the multi-class trees (SAMME needs only an error below 1 - 1/K).
    """
        + _COMMON_ATTRIBUTES
        + r"""    estimators_ : list of FittedTree
        The K-class trees :math:`h_t`, in the order they were added.
    alphas_ : ndarray of shape (n_estimators\_,)
        Their votes :math:`\alpha_t = \log\frac{1-\varepsilon_t}{\varepsilon_t} + \log(K-1)`
        (scikit-learn's ``estimator_weights_``).
    stop_reason_ : str
        ``"n_estimators"``, ``"perfect weak learner"`` or the weighted error that reached
        :math:`1 - 1/K` (with its round).
    history_ : dict of str to ndarray
        Per round: ``weighted_error`` (:math:`\varepsilon_t`), ``train_error`` (training error
        of the vote) and ``time`` (seconds since the start of ``fit``).

    Notes
    -----
    SAMME (Stagewise Additive Modeling using a Multi-class Exponential loss) is Algorithm 2 of
    Zhu et al. (2009): forward stage-wise additive modelling of the multi-class exponential
    loss in the symmetric coding of the classes.  The extra :math:`\log(K-1)` in the vote
    relaxes AdaBoost.M1's requirement :math:`\varepsilon_t < 1/2` to
    :math:`\varepsilon_t < 1 - 1/K`; for :math:`K = 2` SAMME is AdaBoost.  Zhai, Xia & Wang
    (2014) use it as a baseline of DMCBoost with depth-3 trees (their Table 2).

    References
    ----------
    Zhu, J., Zou, H., Rosset, S. and Hastie, T. (2009). Multi-class AdaBoost. Statistics and
    Its Interface 2(3), 349-360.

    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. In Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining, pp. 273-282.
    """
    )

    _algorithm_name = "SAMME"
    reference = "zhu2009multiclass"

    def _error_limit(self, n_classes: int) -> tuple[float, str]:
        return 1.0 - 1.0 / n_classes, f"1 - 1/K = {1.0 - 1.0 / n_classes:.6g}"

    def _alpha(self, error: float, n_classes: int) -> float:
        return float(np.log((1.0 - error) / error) + np.log(n_classes - 1.0))


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
AdaBoostM1.__doc__ = (
    (AdaBoostM1.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("AdaBoostM1", "n_estimators=10", n_classes=3)
)
SAMME.__doc__ = (
    (SAMME.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("SAMME", "n_estimators=10", n_classes=3)
)
