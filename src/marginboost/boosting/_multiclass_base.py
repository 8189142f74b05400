r"""The base class of the multi-class boosting estimators.

:class:`MulticlassBoostingClassifier` holds what AdaBoost.M1, SAMME, AdaBoost.MH, GD-MCBoost and
DMCBoost share: the validation of ``K >= 2`` labels, the binning, the warm start, the stored
rounds and their history, and the prediction interface (scores of shape ``(n_samples, K)``, the
vote :math:`f(x, k) = \sum_t \alpha_t [h_t(x) = k]` by default, the not-boosted handling);
beside it the split criteria of the multi-class trees and the docstring sections the estimators
share.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from ._base import (
    BinaryBoostingClassifier,
    Codes,
    NotBoostedWarning,
    check_positive_int,
    check_warm_start,
    check_weighted_classes,
    name_inherited_init,
)

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
