r"""Multi-class boosting with decision trees: AdaBoost.M1, SAMME, AdaBoost.MH and GD-MCBoost.

:class:`AdaBoostMH` (K binary problems, vector-valued trees) and :class:`GDMCBoost` (codeword
predictor, functional gradient descent) are described in their own docstrings; they share the
validation, binning and prediction interface (scores of shape ``(n_samples, K)``, the
not-boosted handling) of the base class below.  The rest of this docstring is about
AdaBoost.M1 and SAMME.

Both combine weak classifiers :math:`h_t : \mathcal{X} \to \{1, \dots, K\}` (depth-``max_depth``
trees from :meth:`marginboost.weak.DecisionTree.fit_multiclass` on binned features) by the
weighted plurality vote of DMCBoost's eq. (1) (Zhai, Xia & Wang, KDD 2014),

.. math:: F(x) = \arg\max_k f(x, k), \qquad f(x, k) = \sum_t \alpha_t \,[h_t(x) = k],

which is what :meth:`~MulticlassBoostingClassifier.decision_function` returns, shape
``(n_samples, K)`` (also for ``K = 2``), columns in the order of ``classes_``.  Ties go to the
first class in ``classes_``.

The two algorithms share one loop.  Starting from the normalized example weights
:math:`w_i` (uniform, or ``sample_weight``), round :math:`t`

1. fits a tree :math:`h_t` to the labels with weights :math:`w`;
2. computes the weighted error :math:`\varepsilon_t = \sum_i w_i [h_t(x_i) \ne y_i]`;
3. stops, *without* adding :math:`h_t`, when :math:`\varepsilon_t` reaches the algorithm's limit;
4. sets :math:`\alpha_t` from :math:`\varepsilon_t` and
   :math:`w_i \leftarrow w_i \exp(\alpha_t [h_t(x_i) \ne y_i])`, then renormalizes.

The algorithms differ in the weight and in the limit:

* AdaBoost.M1: :math:`\alpha_t = \log\frac{1-\varepsilon_t}{\varepsilon_t}`, stop when
  :math:`\varepsilon_t \ge 1/2`;
* SAMME: :math:`\alpha_t = \log\frac{1-\varepsilon_t}{\varepsilon_t} + \log(K - 1)`, stop when
  :math:`\varepsilon_t \ge 1 - 1/K`.

For AdaBoost.M1 (Freund & Schapire 1997, Fig. 3) the update multiplies the weights of the
correctly classified examples by :math:`\beta_t = \varepsilon_t / (1 - \varepsilon_t)`; after
normalization that is the update above with :math:`\alpha_t = \log(1/\beta_t)`, and the final
hypothesis :math:`\arg\max_y \sum_t \log(1/\beta_t)[h_t(x) = y]` is the vote above.  For
``K = 2`` both algorithms coincide.

When the limit is reached in the first round nothing can be boosted: the fit still succeeds,
but ``boosted_`` is ``False``, ``stop_reason_`` says why, a :class:`NotBoostedWarning` is
issued and the prediction methods raise (DMCBoost's Table 2 shows such entries as "-").

The limit is a tie that rounding must not decide.  The update gives the round's own tree a
weighted error of exactly the limit under the new weights (AdaBoost.M1: the incorrect examples
then hold half the mass; SAMME: :math:`1 - 1/K` of it), so a weak learner that returns the same
tree again sits on the limit, and its computed error falls on either side of it by the last bit
of a sum.  A weighted error within ``ERROR_LIMIT_RTOL`` (1e-12, relative) below the limit counts as
reaching it: boosting stops there, as it would in exact arithmetic, instead of adding trees whose
vote is rounding noise on one machine and stopping on another.

A weak learner with zero weighted error gets the weight of the clipped error
:data:`~marginboost.boosting._steps.MIN_WEIGHTED_ERROR` and ends training
(``stop_reason_ = "perfect weak learner"``).

SAMME equals scikit-learn's ``AdaBoostClassifier`` (which implements only SAMME in
scikit-learn 1.9) with ``DecisionTreeClassifier(max_depth=max_depth)`` fitted to our bin
codes when both grow the same trees (``criterion="gini"``, no ties between splits;
``tests/test_multiclass.py``): the same ``alphas_`` (scikit-learn's ``estimator_weights_``),
weighted errors and predictions.  scikit-learn clips example weights below machine epsilon
and gives a perfect tree the weight 1; those corner cases differ.

Every fitted estimator records ``history_``, per-round arrays ``weighted_error``
(:math:`\varepsilon_t`), ``train_error`` (training error of :math:`F_t`) and ``time`` (seconds
since the start of ``fit``).
"""

from __future__ import annotations

import numbers
import time
import warnings
from abc import ABCMeta, abstractmethod
from collections.abc import Iterator
from numbers import Real
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from .._sklearn import constraints
from ._base import (
    BinaryBoostingClassifier,
    Codes,
    NotBoostedWarning,
    check_positive_int,
    check_warm_start,
    check_weighted_classes,
    name_inherited_init,
)
from ._multiclass_kernels import add_votes
from ._steps import MIN_WEIGHTED_ERROR

#: A weighted error within this relative distance below the stopping limit (1/2 for
#: AdaBoost.M1, 1 - 1/K for SAMME) counts as reaching it.  The error is a sum of normalized
#: weights, exact up to a few units of rounding (about 1e-16 each); a vote
#: ``log((1 - err) / err)`` this close to the limit's is about 1e-12, no step at all.
ERROR_LIMIT_RTOL = 1e-12

__all__ = [
    "MulticlassBoostingClassifier",
    "AdaBoostM1",
    "SAMME",
    "AdaBoostMH",
    "GDMCBoost",
    "NotBoostedWarning",
    "MULTICLASS_CRITERIA",
    "simplex_codewords",
    "codeword_line_search",
    "confidence_leaf_values",
]

FloatArray = NDArray[np.float64]

#: Split criteria of the multi-class trees (see :mod:`marginboost.weak.tree`).
MULTICLASS_CRITERIA = ("gini", "entropy", "multiclass_error")

#: The ``warm_start`` parameter of the multi-class estimators (numpydoc ``Parameters``).
_WARM_START = """When True, ``fit`` goes on from the previous fit: it replays the fitted
        rounds on the ``X``, ``y`` and ``sample_weight`` given (with the previous fit's bins)
        and adds rounds until ``n_estimators`` in all, or the algorithm's own stop;
        ``history_`` goes on from the previous fit's (its ``time`` counts on from the previous
        fit's).  On the same data the result is that of one fit with the final
        ``n_estimators``, so a long fit can be run in parts and saved in between
        (``pickle``).  A previous fit that stopped by its own rule is kept as it is.
        ``n_estimators`` must be at least the rounds already fitted.
    """

#: The fitted attributes shared by the multi-class estimators (numpydoc ``Attributes``).
_COMMON_ATTRIBUTES = r"""
    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        The class labels, sorted; column ``k`` of ``decision_function`` belongs to
        ``classes_[k]``.
    n_classes_ : int
        Number of classes :math:`K`.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features,)
        Names of the features seen in ``fit``; defined only when ``X`` has string column names.
    mapper_ : BinMapper
        The feature binning fitted on the training inputs.
    n_estimators_ : int
        Number of rounds in the ensemble.
    boosted_ : bool
        Whether at least one round was accepted; when it is ``False`` a
        :class:`~marginboost.boosting.NotBoostedWarning` was issued and the prediction methods
        raise ``ValueError``.
"""


class MulticlassBoostingClassifier(ClassifierMixin, BaseEstimator):
    """Base class of the multi-class boosting estimators (not used directly).

    Holds the validation of the training data, the binning (shared with the binary
    estimators), the stored rounds (``estimators_``, ``alphas_``) and the vote of the module
    docstring.  Subclasses implement ``fit``.

    Labels may be any ``K >= 2`` distinct values; ``classes_`` holds them sorted and column
    ``k`` of :meth:`decision_function` belongs to ``classes_[k]``.
    """

    #: Name used in messages; subclasses override.
    _algorithm_name = "this estimator"

    # The binning and the checks of new inputs are those of the binary estimators (their
    # functions, used as methods here: nothing in them is specific to two classes).
    _bin = BinaryBoostingClassifier._bin
    _codes = BinaryBoostingClassifier._codes

    # ---- validation -------------------------------------------------------------------------

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name_inherited_init(cls)

    def _validate_training_data(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None,
    ) -> tuple[FloatArray, NDArray[np.intp], FloatArray]:
        """Return ``(X, class indices 0..K-1, normalized weights)`` and set ``classes_``."""
        self._validate_params()
        # a column vector y is raveled with a DataConversionWarning, as for the binary ones
        X, y = cast(
            tuple[FloatArray, NDArray[Any]],
            validate_data(
                self,
                X,
                y,
                dtype=np.float64,
                ensure_all_finite=True,
                ensure_min_samples=2,
                y_numeric=False,
            ),
        )
        check_classification_targets(y)
        classes, y_index = np.unique(y, return_inverse=True)
        if classes.size == 1:
            raise ValueError(
                f"y has only one class ({classes.tolist()[0]!r}); "
                f"{type(self).__name__} needs examples of at least two classes"
            )
        self.classes_ = classes
        self.n_classes_ = int(classes.size)
        weights = BinaryBoostingClassifier._validate_sample_weight(sample_weight, X)
        check_weighted_classes(weights, y_index, classes, type(self).__name__)
        return X, y_index.astype(np.intp), weights

    def _begin(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None,
        criterion: str,
        *names: str,
    ) -> tuple[Codes, NDArray[np.intp], FloatArray, int, Any, list[tuple[Any, float]], Any] | None:
        """Validate, bin and resume: ``(codes, class indices, weights, n_rounds, weak learner,
        rounds to replay, history)``, or ``None`` when a warm start keeps the previous fit (it
        stopped by its own rule, or has ``n_estimators`` rounds).  Without a warm start there
        is nothing to replay and the history is empty (``names``, as :meth:`_new_history`); a
        warm start is checked, keeps its bins and replays the previous fit's ``(tree, vote)``
        pairs."""
        from ..weak import DecisionTree

        previous = self._previous_fit()
        X, y, weights = self._validate_training_data(X, y, sample_weight)
        n_rounds = check_positive_int(self.n_estimators, "n_estimators")
        if previous is not None:
            check_warm_start(self, previous, n_rounds)
        learner = DecisionTree(
            max_depth=check_positive_int(self.max_depth, "max_depth"), criterion=criterion
        )
        codes = self._bin(X, None if previous is None else previous["mapper_"])
        if previous is None:
            return codes, y, weights, n_rounds, learner, [], self._new_history(*names)
        done = list(zip(previous["estimators_"], previous["alphas_"]))
        history = previous["history_"]
        if previous["stop_reason_"] != "n_estimators" or n_rounds == len(done):
            self._finish(
                history, previous["estimators_"], previous["alphas_"], previous["stop_reason_"]
            )
            return None
        return codes, y, weights, n_rounds, learner, done, history

    # ---- warm start -------------------------------------------------------------------------
    def _previous_fit(self) -> dict[str, Any] | None:
        """What ``warm_start`` goes on from: the fitted rounds, their bins and history; ``None``
        without ``warm_start`` or before a first fit."""
        if not self.warm_start or not hasattr(self, "estimators_"):
            return None
        names = ("classes_", "n_classes_", "n_features_in_", "mapper_", "estimators_", "alphas_")
        previous = {name: getattr(self, name) for name in names}
        previous["stop_reason_"] = self.stop_reason_
        previous["history_"] = {key: list(value) for key, value in self.history_.items()}
        return previous

    @staticmethod
    def _clock(history: dict[str, list[float]]) -> float:
        """The ``start`` of a fit's clock such that its times go on from ``history``'s last."""
        return time.perf_counter() - (history["time"][-1] if history["time"] else 0.0)

    # ---- stored rounds ----------------------------------------------------------------------
    def _set_stages(self, estimators: list[Any], alphas: ArrayLike, stop_reason: str) -> None:
        self.estimators_ = list(estimators)
        self.alphas_ = np.asarray(alphas, dtype=np.float64)
        self.n_estimators_ = len(self.estimators_)
        self.stop_reason_ = stop_reason
        self.boosted_ = self.n_estimators_ > 0
        if not self.boosted_:
            warnings.warn(
                f"{self._algorithm_name} was not able to boost: {stop_reason}",
                NotBoostedWarning,
                stacklevel=3,
            )

    def _boosted_codes(self, X: ArrayLike) -> Codes:
        codes = self._codes(X)
        if not self.boosted_:
            raise ValueError(
                f"{self._algorithm_name} was not able to boost ({self.stop_reason_}); "
                "the ensemble is empty (boosted_ is False)"
            )
        return codes

    # ---- training history -------------------------------------------------------------------
    @staticmethod
    def _new_history(*names: str) -> dict[str, list[float]]:
        """Per-round lists ``names`` plus ``train_error`` and ``time``."""
        return {name: [] for name in (*names, "train_error", "time")}

    @staticmethod
    def _record_round(
        history: dict[str, list[float]],
        scores: FloatArray,
        y: NDArray[np.intp],
        start: float,
        **values: float,
    ) -> None:
        """Append a round's ``values``, the training error of ``argmax scores`` and the time."""
        for name, value in values.items():
            history[name].append(value)
        history["train_error"].append(float(np.mean(np.argmax(scores, axis=1) != y)))
        history["time"].append(time.perf_counter() - start)

    def _finish(
        self,
        history: dict[str, list[float]],
        estimators: list[Any],
        alphas: ArrayLike,
        stop_reason: str,
    ) -> None:
        self.history_ = {key: np.asarray(value, dtype=np.float64) for key, value in history.items()}
        self._set_stages(estimators, alphas, stop_reason)

    # ---- prediction -------------------------------------------------------------------------
    def _stage_scores(self, codes: Codes) -> Iterator[FloatArray]:
        r"""Each round's term of :math:`f(x, k)`, shape ``(n_samples, K)``: the vote
        :math:`\alpha_t [h_t(x) = k]` here; subclasses with other predictors override."""
        rows = np.arange(codes.shape[0])
        for alpha, tree in zip(self.alphas_, self.estimators_):
            term = np.zeros((codes.shape[0], self.n_classes_))
            term[rows, tree.predict(codes).astype(np.intp)] = alpha
            yield term

    def decision_function(self, X: ArrayLike) -> FloatArray:
        r"""Scores :math:`f(x, k)`, shape ``(n_samples, K)``; for AdaBoost.M1 and SAMME the votes
        :math:`\sum_t \alpha_t [h_t(x) = k]`."""
        codes = self._boosted_codes(X)
        scores = np.zeros((codes.shape[0], self.n_classes_))
        for term in self._stage_scores(codes):
            scores += term
        return scores

    def staged_decision_function(self, X: ArrayLike) -> Iterator[FloatArray]:
        """Yield :math:`f_t(x, k)` after each round ``t = 1, 2, ...`` (a fresh array each time)."""
        codes = self._boosted_codes(X)
        scores = np.zeros((codes.shape[0], self.n_classes_))
        for term in self._stage_scores(codes):
            scores += term
            yield scores.copy()

    def _labels_from_scores(self, scores: FloatArray) -> np.ndarray:
        labels: np.ndarray = self.classes_.take(np.argmax(scores, axis=1))
        return labels

    def _proba_from_scores(self, scores: FloatArray) -> FloatArray:
        from scipy.special import softmax

        probabilities: FloatArray = softmax(scores, axis=1)
        return probabilities

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        r"""Class probabilities, shape ``(n_samples, K)``, columns in the order of ``classes_``.

        :math:`p_k \propto e^{f(x, k)}`.  For SAMME this is the link of its exponential loss
        (Zhu et al. 2009, eq. (4): the population minimizer in SAMME's symmetric coding is
        :math:`(K-1)(\log p_k - \overline{\log p})`, and that coding is :math:`(K-1)` times the
        vote :math:`f(x, k)` plus a constant); for two classes it is AdaBoost's
        :math:`1/(1 + e^{-2F})`.  For the other estimators (AdaBoost.M1, GD-MCBoost, DMCBoost)
        it is a monotone score of :math:`f(x, k)`, not a calibrated probability.  The largest
        column is the class :meth:`predict` returns.
        """
        return self._proba_from_scores(self.decision_function(X))

    def staged_predict_proba(self, X: ArrayLike) -> Iterator[FloatArray]:
        """Yield :meth:`predict_proba` after each round."""
        for scores in self.staged_decision_function(X):
            yield self._proba_from_scores(scores)

    # Labels and accuracies from the scores, as for the binary estimators.
    predict = BinaryBoostingClassifier.predict
    staged_predict = BinaryBoostingClassifier.staged_predict
    staged_score = BinaryBoostingClassifier.staged_score

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True
        tags.input_tags.allow_nan = False
        return tags


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
    max_depth : int, default=3
        Depth of the multi-class trees (DMCBoost's Table 2 uses 3).
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
    n_estimators, max_depth, criterion, max_bins, warm_start
        As for :class:`AdaBoostM1`.
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


def _check_smoothing(smoothing: float | None, default: float) -> float:
    if smoothing is None:
        return default
    if (
        not isinstance(smoothing, numbers.Real)
        or isinstance(smoothing, bool)
        or not np.isfinite(smoothing)
        or smoothing <= 0
    ):
        raise ValueError(f"smoothing must be a finite number > 0 or None; got {smoothing!r}")
    return float(smoothing)


def confidence_leaf_values(
    leaves: NDArray[np.int64], Y: FloatArray, weight: FloatArray, n_leaves: int, smoothing: float
) -> FloatArray:
    r"""Schapire & Singer's smoothed leaf values :math:`c_{jk} = \tfrac12
    \ln\frac{W^j_{+k} + \epsilon}{W^j_{-k} + \epsilon}`, shape ``(n_leaves, K)``.

    :math:`W^j_{\pm k} = \sum_{i:\, \mathrm{leaf}(x_i) = j,\, Y_{ik} = \pm1} D(i, k)` is summed
    here from the samples (``leaves``: the leaf of every sample), not read off the tree's
    histograms.
    """
    n_problems = Y.shape[1]
    positive = np.empty((n_leaves, n_problems))
    negative = np.empty((n_leaves, n_problems))
    for k in range(n_problems):
        positive[:, k] = np.bincount(
            leaves, weights=weight[:, k] * (Y[:, k] > 0), minlength=n_leaves
        )
        negative[:, k] = np.bincount(
            leaves, weights=weight[:, k] * (Y[:, k] < 0), minlength=n_leaves
        )
    return 0.5 * np.log((positive + smoothing) / (negative + smoothing))


class AdaBoostMH(MulticlassBoostingClassifier):
    __doc__ = (
        r"""Real AdaBoost.MH (Schapire & Singer 1999) with vector-valued decision trees.

    Schapire & Singer, "Improved boosting algorithms using confidence-rated predictions",
    *Machine Learning* 37:297-336 (1999): the Hamming-loss reduction of a K-class problem to
    K binary problems :math:`Y_{ik} = +1` if :math:`y_i = k`, else :math:`-1`, boosted
    together with weights :math:`D_t(i, k)` over the :math:`nK` pairs
    (:math:`D_1(i, k) = w_i / K`, :math:`w` the normalized ``sample_weight``).  Round :math:`t`

    1. grows a depth-``max_depth`` tree that minimizes
       :math:`Z = 2\sum_j \sum_k \sqrt{W^j_{+k} W^j_{-k}}` greedily, one split at a time
       (:meth:`marginboost.weak.DecisionTree.fit_multilabel`, criterion ``"confidence"``;
       :math:`W^j_{\pm k}` the weight :math:`D_t` of the pairs of leaf :math:`j`, problem
       :math:`k`, label :math:`\pm1`);
    2. gives leaf :math:`j` the vector :math:`c_{jk} = \tfrac12 \ln\frac{W^j_{+k} +
       \epsilon}{W^j_{-k} + \epsilon}` (:func:`confidence_leaf_values`), so
       :math:`h_t(x, k) = c_{\mathrm{leaf}(x), k}`;
    3. sets :math:`Z_t = \sum_{i,k} D_t(i, k) e^{-Y_{ik} h_t(x_i, k)}` and
       :math:`D_{t+1}(i, k) = D_t(i, k) e^{-Y_{ik} h_t(x_i, k)} / Z_t`; the round is discarded
       and boosting stops when :math:`Z_t \ge 1` (the tree does not decrease the bound below).

    :math:`f(x, k) = \sum_t h_t(x, k)` (:meth:`decision_function`; ``alphas_`` are all 1,
    the step being folded into the leaf values) and the prediction is
    :math:`\arg\max_k f(x, k)`.  The :math:`D_1`-weighted training Hamming loss
    :math:`\sum_{i,k} D_1(i, k) [Y_{ik} f(x_i, k) \le 0]` is at most :math:`\prod_t Z_t`
    (Schapire & Singer's bound; ``history_["hamming_loss"]`` and ``history_["z"]``).

    Split rule: exactly the criterion Schapire & Singer give for domain-partitioning weak
    hypotheses (choose the partition minimizing the unsmoothed :math:`Z`), applied greedily
    node by node as for any top-down tree; the search over whole depth-``max_depth`` trees is
    not exhaustive.  The leaf values are then smoothed with :math:`\epsilon` (their Sec. 4.2),
    and :math:`Z_t` is the normalizer of the smoothed values.  For ``K = 2`` the two problems
    are mirror images and AdaBoost.MH is real AdaBoost on the :math:`\pm1` problem
    (:class:`~marginboost.boosting.RealAdaBoost` with ``DecisionTree(criterion="confidence")``
    and smoothing :math:`2\epsilon`): :math:`f(x, 1) = -f(x, 0) = F(x)`.

    Parameters
    ----------
    n_estimators : int, default=100
        Maximum number of rounds.
    max_depth : int, default=3
        Depth of the trees.
    max_bins : int, default=255
        Number of feature bins.
    smoothing : float, optional
        :math:`\epsilon > 0`; ``None`` means :math:`1/(2nK)` (Schapire & Singer recommend
        :math:`\epsilon` of the order of :math:`1/(nK)`; the same relative smoothing as
        :class:`~marginboost.boosting.RealAdaBoost`'s default :math:`1/(2n)`).
    warm_start : bool, default=False
        As for :class:`AdaBoostM1`.
    """
        + _COMMON_ATTRIBUTES
        + r"""    estimators_ : list of FittedTree
        The vector-valued trees :math:`h_t`, whose leaves hold the smoothed values
        :math:`c_{jk}`.
    alphas_ : ndarray of shape (n_estimators\_,)
        All 1: the step is folded into the leaf values.
    stop_reason_ : str
        ``"n_estimators"`` or the round whose normaliser :math:`Z_t` reached 1.
    history_ : dict of str to ndarray
        Per round: ``z`` (:math:`Z_t`), ``hamming_loss`` (the :math:`D_1`-weighted training
        Hamming loss), ``train_error`` and ``time``.

    Notes
    -----
    The Hamming-loss reduction AdaBoost.MH of Schapire & Singer (1999) with real-valued
    (confidence-rated) domain-partitioning weak hypotheses: the partition is chosen to
    minimise :math:`Z_t`, the leaf values are their smoothed :math:`\tfrac12\ln` ratios
    (Sec. 4.2), and the training Hamming loss is bounded by :math:`\prod_t Z_t`.  Zhai, Xia &
    Wang (2014) compare DMCBoost with AdaBoost.MH in their Tables 3 and 4; the base learner
    they used is not stated beyond a reduction to binary problems, so the trees here are an
    assumption.

    References
    ----------
    Schapire, R. E. and Singer, Y. (1999). Improved boosting algorithms using confidence-rated
    predictions. Machine Learning 37(3), 297-336.

    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. In Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining, pp. 273-282.
    """
    )

    _algorithm_name = "AdaBoost.MH"
    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators",
        "max_depth",
        "max_bins",
        "warm_start",
        smoothing=[Interval(Real, 0.0, float("inf"), closed="neither"), None],
    )
    reference = "schapire1999improved"

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        max_depth: int = 3,
        max_bins: int = 255,
        smoothing: float | None = None,
        warm_start: bool = False,
    ) -> None:
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.max_bins = max_bins
        self.smoothing = smoothing
        self.warm_start = warm_start

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> AdaBoostMH:
        """Fit the ensemble (``X``, ``y``, ``sample_weight`` as for :meth:`SAMME.fit`)."""
        begun = self._begin(X, y, sample_weight, "confidence", "z", "hamming_loss")
        if begun is None:  # a warm start that keeps the previous fit
            return self
        codes, y, weights, n_rounds, learner, done, history = begun
        n, n_classes = y.shape[0], self.n_classes_
        smoothing = _check_smoothing(self.smoothing, 0.5 / (n * n_classes))
        Y = np.where(y[:, None] == np.arange(n_classes), 1.0, -1.0)
        initial = np.repeat(weights[:, None] / n_classes, n_classes, axis=1)
        with np.errstate(divide="ignore"):
            log_weights = np.log(initial)
        scores = np.zeros((n, n_classes))
        estimators: list[Any] = []
        stop_reason = "n_estimators"
        start = time.perf_counter()
        for t in range(n_rounds):
            if t < len(done):  # a warm start replays the fitted rounds' updates
                tree = done[t][0]
                leaves = tree.apply(codes)
                values = tree.leaf_values_
                exponent = -Y * values[leaves]
            else:
                if t == len(done):
                    start = self._clock(history)
                D = np.exp(log_weights - log_weights.max())
                D /= D.sum()
                grown = learner.fit_multilabel(codes, Y, D)
                leaves = grown.apply(codes)
                values = confidence_leaf_values(leaves, Y, D, grown.n_leaves_, smoothing)
                exponent = -Y * values[leaves]
                z = float((D * np.exp(exponent)).sum())
                if not z < 1.0:
                    stop_reason = f"Z_t = {z:.6g} >= 1 in round {t + 1}"
                    break
                tree = grown.with_leaf_values(values)
            estimators.append(tree)
            scores += values[leaves]
            log_weights = log_weights + exponent
            if t >= len(done):
                hamming = float(initial[Y * scores <= 0].sum())
                self._record_round(history, scores, y, start, z=z, hamming_loss=hamming)
        self._finish(history, estimators, np.ones(len(estimators)), stop_reason)
        return self

    def _proba_from_scores(self, scores: FloatArray) -> FloatArray:
        r"""Each class's one-against-the-rest exponential-loss link :math:`1/(1 + e^{-2F_k})`
        (Friedman, Hastie & Tibshirani 2000, eq. (5)), normalized to sum 1 over the classes."""
        from scipy.special import expit

        one_vs_rest: FloatArray = expit(2.0 * scores)
        probabilities: FloatArray = one_vs_rest / one_vs_rest.sum(axis=1, keepdims=True)
        return probabilities

    def _stage_scores(self, codes: Codes) -> Iterator[FloatArray]:
        for tree in self.estimators_:
            yield tree.predict_vector(codes)


def simplex_codewords(n_classes: int) -> FloatArray:
    r"""The K codewords of GD-MCBoost: vertices of a regular simplex in :math:`\mathbb{R}^{K-1}`.

    Unit norm, centred (:math:`\sum_k y_k = 0`), :math:`\langle y_j, y_k\rangle = -1/(K-1)`
    for :math:`j \ne k`.  Built as :math:`y_k = \sqrt{K/(K-1)}\, B^\top e_k` with the Helmert
    basis :math:`B` of the plane :math:`\sum_k u_k = 0` (column :math:`j` is
    :math:`(-1, \dots, -1, j, 0, \dots)/\sqrt{j(j+1)}` with :math:`j` entries :math:`-1`), so
    ``K = 2`` gives :math:`y_0 = -1`, :math:`y_1 = +1` (the binary convention).  Shape
    ``(K, K-1)``.
    """
    if not isinstance(n_classes, numbers.Integral) or n_classes < 2:
        raise ValueError(f"n_classes must be an integer >= 2; got {n_classes!r}")
    basis = np.zeros((n_classes, n_classes - 1))
    for j in range(1, n_classes):
        basis[:j, j - 1] = -1.0
        basis[j, j - 1] = float(j)
        basis[:, j - 1] /= np.sqrt(j * (j + 1.0))
    return np.sqrt(n_classes / (n_classes - 1.0)) * basis


def codeword_line_search(pair_weights: FloatArray, pair_slopes: FloatArray) -> tuple[float, bool]:
    r"""Exact minimizer over :math:`\alpha \ge 0` of
    :math:`\varphi(\alpha) = \sum a_{ik} e^{-\alpha b_{ik}}` when every
    :math:`b_{ik} \in \{-\beta, 0, \beta\}` (one :math:`\beta > 0`).

    GD-MCBoost's step along a codeword-valued tree has this form (see :class:`GDMCBoost`):
    :math:`\varphi'(\alpha) = 0` at :math:`\alpha^* = \frac{1}{2\beta}\ln\frac{A_+}{A_-}`,
    :math:`A_\pm = \sum_{b_{ik} = \pm\beta} a_{ik}`.  Returns ``(step, perfect)``: step 0
    when :math:`A_+ \le A_-` (no descent), and when :math:`A_- = 0` (the loss decreases
    without bound) :math:`A_-` is replaced by :data:`MIN_WEIGHTED_ERROR` :math:`(A_+ + A_-)`
    and ``perfect`` is ``True``.
    """
    beta = float(np.abs(pair_slopes).max())
    if beta == 0.0:
        return 0.0, False
    if not np.all((pair_slopes == 0.0) | (np.abs(pair_slopes) == beta)):
        raise ValueError("pair_slopes must take only the values -beta, 0 and beta")
    gain = float(pair_weights[pair_slopes > 0].sum())
    loss = float(pair_weights[pair_slopes < 0].sum())
    if not gain > loss:
        return 0.0, False
    perfect = loss < MIN_WEIGHTED_ERROR * (gain + loss)
    if perfect:
        loss = MIN_WEIGHTED_ERROR * (gain + loss)
    return float(np.log(gain / loss) / (2.0 * beta)), perfect


class GDMCBoost(MulticlassBoostingClassifier):
    __doc__ = (
        r"""GD-MCBoost (Saberian & Vasconcelos 2011) with multi-class trees mapped to codewords.

    Source of truth: Saberian & Vasconcelos, "Multiclass boosting: theory and algorithms",
    *NIPS* 2011, as far as its description is known here (the paper is not in this
    repository; DMCBoost, Zhai et al. KDD 2014, uses it as a baseline "with multi-class
    decision trees" of depth 3).  Class :math:`k` has the codeword :math:`y_k \in
    \mathbb{R}^{K-1}` (:func:`simplex_codewords`), the predictor is
    :math:`f : \mathcal{X} \to \mathbb{R}^{K-1}`, the prediction
    :math:`\arg\max_k \langle y_k, f(x)\rangle` (:meth:`decision_function` returns
    :math:`\langle y_k, f(x)\rangle`), and the risk is

    .. math:: R[f] = \sum_i s_i \sum_{k \ne y_i} e^{-\frac12\langle y_{y_i} - y_k,\, f(x_i)\rangle}

    (:math:`s_i` the normalized ``sample_weight``, uniform :math:`1/n` by default: the paper's
    sum divided by :math:`n`; :math:`R[0] = K - 1`).  Functional gradient descent: with
    :math:`a_{ik} = s_i e^{-\frac12\langle y_{y_i} - y_k, f(x_i)\rangle}` (:math:`k \ne y_i`)
    and :math:`w_i = \tfrac12 \sum_{k \ne y_i} a_{ik}(y_{y_i} - y_k)`, the derivative of
    :math:`R` along a direction :math:`g` is :math:`-\sum_i \langle g(x_i), w_i\rangle`; each
    round

    1. picks :math:`g_t = \arg\max_{g \in G} \sum_i \langle g(x_i), w_i\rangle`,
    2. picks :math:`\alpha_t = \arg\min_{\alpha \ge 0} R[f + \alpha g_t]` (exact line search),
    3. sets :math:`f \leftarrow f + \alpha_t g_t`.

    Weak learners (an assumption, chosen so that GD-MCBoost boosts the same hypotheses as
    AdaBoost.M1, SAMME and DMCBoost in DMCBoost's Table 2): :math:`G = \{x \mapsto
    y_{h(x)}\}` with :math:`h` a depth-``max_depth`` K-class tree, i.e. every leaf outputs a
    codeword.  Then :math:`\sum_i \langle y_{h(x_i)}, w_i\rangle = \sum_i G_{i, h(x_i)}`,
    :math:`G_{ik} = \langle y_k, w_i\rangle`, which a tree maximizes by choosing in each leaf
    the class of largest :math:`\sum_i G_{ik}`: criterion ``"multiclass_error"`` of
    :meth:`~marginboost.weak.DecisionTree.fit_multiclass` on the non-negative class weights
    :math:`G_{ik} - \min_l G_{il}` (subtracting a per-sample constant changes every tree's
    objective by the same amount), grown greedily one split at a time (not an exhaustive
    search over trees).  Not implemented: the paper's other weak-learner families (e.g. a
    scalar weak learner times a fixed direction, as in its CD-MCBoost).

    Line search: along :math:`g = y_{h(x)}`,
    :math:`\tfrac12\langle y_{y_i} - y_k, y_{h(x_i)}\rangle = \beta([h(x_i) = y_i] -
    [h(x_i) = k])` with :math:`\beta = \frac{K}{2(K-1)}`, so
    :math:`R[f + \alpha g] = \sum a_{ik} e^{-\alpha b_{ik}}` with :math:`b_{ik} \in
    \{-\beta, 0, \beta\}` and the exact minimizer has a closed form
    (:func:`codeword_line_search`).  A tree with zero derivative stops boosting (it is not
    added); a tree without error on any pair (:math:`A_- = 0`) gets a clipped finite step and
    ends training (``stop_reason_ = "perfect weak learner"``).

    Parameters
    ----------
    n_estimators : int, default=100
        Maximum number of rounds.
    max_depth : int, default=3
        Depth of the K-class trees.
    max_bins : int, default=255
        Number of feature bins.
    warm_start : bool, default=False
        As for :class:`AdaBoostM1`.
    """
        + _COMMON_ATTRIBUTES
        + r"""    estimators_ : list of FittedTree
        The K-class trees :math:`h_t`; the weak learner of round :math:`t` is
        :math:`g_t(x) = y_{h_t(x)}`.
    alphas_ : ndarray of shape (n_estimators\_,)
        The steps :math:`\alpha_t` of the exact line searches.
    codewords_ : ndarray of shape (K, K-1)
        The codewords :math:`y_k`, in the order of ``classes_``.
    stop_reason_ : str
        ``"n_estimators"``, ``"perfect weak learner"`` or the round in which the best tree gave
        no descent direction.
    history_ : dict of str to ndarray
        Per round: ``loss`` (:math:`R` after the round), ``derivative``
        (:math:`\sum_i \langle g_t(x_i), w_i\rangle` before the step), ``train_error`` and
        ``time``.

    Notes
    -----
    GD-MCBoost of Saberian & Vasconcelos (2011): functional gradient descent on a
    margin-enforcing multi-class exponential risk, with the classes coded as the vertices of
    a regular simplex in :math:`\mathbb{R}^{K-1}`, and an exact line search per round.  Their
    coordinate-wise variant CD-MCBoost is not implemented.  Zhai, Xia & Wang (2014) run
    GD-MCBoost with the authors' code as a baseline of DMCBoost (their Table 2).

    References
    ----------
    Saberian, M. J. and Vasconcelos, N. (2011). Multiclass boosting: theory and algorithms. In
    Advances in Neural Information Processing Systems 24, pp. 2124-2132.

    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. In Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining, pp. 273-282.
    """
    )

    _algorithm_name = "GD-MCBoost"
    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators", "max_depth", "max_bins", "warm_start"
    )
    reference = "saberian2011multiclass"

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        max_depth: int = 3,
        max_bins: int = 255,
        warm_start: bool = False,
    ) -> None:
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.max_bins = max_bins
        self.warm_start = warm_start

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> GDMCBoost:
        """Fit the ensemble (``X``, ``y``, ``sample_weight`` as for :meth:`SAMME.fit`)."""
        begun = self._begin(X, y, sample_weight, "multiclass_error", "loss", "derivative")
        if begun is None:  # a warm start that keeps the previous fit
            return self
        codes, y, weights, n_rounds, learner, done, history = begun
        n, n_classes = y.shape[0], self.n_classes_
        self.codewords_ = simplex_codewords(n_classes)
        gram = self.codewords_ @ self.codewords_.T
        beta = n_classes / (2.0 * (n_classes - 1.0))
        rows = np.arange(n)
        other = y[:, None] != np.arange(n_classes)  # the pairs (i, k), k != y_i
        with np.errstate(divide="ignore"):
            log_weights = np.log(weights)[:, None]
        scores = np.zeros((n, n_classes))  # <y_k, f(x_i)>
        estimators: list[Any] = []
        alphas: list[float] = []
        stop_reason = "n_estimators"
        start = time.perf_counter()

        def log_pair_weights() -> FloatArray:  # log a_ik, -inf for k = y_i
            return np.where(other, log_weights - 0.5 * (scores[rows, y][:, None] - scores), -np.inf)

        log_pairs = log_pair_weights()
        for t in range(n_rounds):
            if t < len(done):  # a warm start replays the fitted rounds' updates
                tree, alpha = done[t]
                estimators.append(tree)
                alphas.append(alpha)
                scores += alpha * gram[tree.predict(codes).astype(np.intp)]
                log_pairs = log_pair_weights()
                continue
            if t == len(done):
                start = self._clock(history)
            # a_ik / exp(shift): only directions and ratios are needed, so scale to max 1
            shift = float(log_pairs.max())
            pairs = np.exp(log_pairs - shift)
            w = 0.5 * (pairs.sum(axis=1)[:, None] * self.codewords_[y] - pairs @ self.codewords_)
            gradient = w @ self.codewords_.T  # G_ik = <y_k, w_i>
            tree = learner.fit_multiclass(codes, y, gradient - gradient.min(axis=1)[:, None])
            predicted = tree.predict(codes).astype(np.intp)
            slopes = beta * (
                (predicted == y)[:, None].astype(np.float64)
                - (predicted[:, None] == np.arange(n_classes))
            )
            slopes[~other] = 0.0
            derivative = float(gradient[rows, predicted].sum()) * float(np.exp(shift))
            alpha, perfect = codeword_line_search(pairs, slopes)
            if alpha <= 0.0:
                stop_reason = (
                    f"no descent direction in round {t + 1} (derivative "
                    f"{derivative:.3g} along the best tree)"
                )
                break
            estimators.append(tree)
            alphas.append(alpha)
            scores += alpha * gram[predicted]
            log_pairs = log_pair_weights()
            self._record_round(
                history,
                scores,
                y,
                start,
                loss=float(np.exp(logsumexp(log_pairs))),
                derivative=derivative,
            )
            if perfect:
                stop_reason = "perfect weak learner"
                break
        self._finish(history, estimators, alphas, stop_reason)
        return self

    def _stage_scores(self, codes: Codes) -> Iterator[FloatArray]:
        gram = self.codewords_ @ self.codewords_.T
        for alpha, tree in zip(self.alphas_, self.estimators_):
            yield alpha * gram[tree.predict(codes).astype(np.intp)]


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
from .._sklearn import examples_section as _examples_section  # noqa: E402

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
AdaBoostMH.__doc__ = (
    (AdaBoostMH.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("AdaBoostMH", "n_estimators=10", n_classes=3)
)
GDMCBoost.__doc__ = (
    (GDMCBoost.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("GDMCBoost", "n_estimators=10", n_classes=3)
)
