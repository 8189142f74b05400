r"""Multi-class boosting with multi-class decision trees: AdaBoost.M1 and SAMME.

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

import time
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from ._base import BinaryBoostingClassifier, check_positive_int
from ._steps import MIN_WEIGHTED_ERROR

__all__ = ["MulticlassBoostingClassifier", "AdaBoostM1", "SAMME", "NotBoostedWarning",
           "MULTICLASS_CRITERIA"]

FloatArray = NDArray[np.float64]

#: Split criteria of the multi-class trees (see :mod:`marginboost.weak.tree`).
MULTICLASS_CRITERIA = ("gini", "entropy", "multiclass_error")


class NotBoostedWarning(UserWarning):
    """The first weak learner already failed the algorithm's error limit: nothing was boosted."""


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
    def _validate_training_data(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None,
                                ) -> tuple[FloatArray, NDArray[np.intp], FloatArray]:
        """Return ``(X, class indices 0..K-1, normalized weights)`` and set ``classes_``."""
        shape = np.asarray(y).shape if y is not None else (0,)
        if len(shape) != 1:
            raise ValueError("y must be a 1-D array of labels, one per row of X; got shape "
                             f"{shape}")
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite=True,
                             ensure_min_samples=2, y_numeric=False)
        check_classification_targets(y)
        classes, y_index = np.unique(y, return_inverse=True)
        if classes.size == 1:
            raise ValueError(f"y has only one class ({classes.tolist()[0]!r}); "
                             f"{type(self).__name__} needs examples of at least two classes")
        self.classes_ = classes
        self.n_classes_ = int(classes.size)
        weights = BinaryBoostingClassifier._validate_sample_weight(sample_weight, X)
        return X, y_index.astype(np.intp), weights

    def _weak_learner(self) -> Any:
        from ..weak import DecisionTree

        if self.criterion not in MULTICLASS_CRITERIA:
            raise ValueError(f"criterion must be one of {MULTICLASS_CRITERIA}; "
                             f"got {self.criterion!r}")
        depth = check_positive_int(self.max_depth, "max_depth")
        return DecisionTree(max_depth=depth, criterion=self.criterion)

    # ---- stored rounds ----------------------------------------------------------------------
    def _set_stages(self, estimators: list, alphas: ArrayLike, stop_reason: str) -> None:
        self.estimators_ = list(estimators)
        self.alphas_ = np.asarray(alphas, dtype=np.float64)
        self.n_estimators_ = len(self.estimators_)
        self.stop_reason_ = stop_reason
        self.boosted_ = self.n_estimators_ > 0
        if not self.boosted_:
            warnings.warn(f"{self._algorithm_name} was not able to boost: {stop_reason}",
                          NotBoostedWarning, stacklevel=3)

    def _boosted_codes(self, X: ArrayLike) -> NDArray[np.uint8]:
        codes = self._codes(X)
        if not self.boosted_:
            raise ValueError(f"{self._algorithm_name} was not able to boost ({self.stop_reason_}); "
                             "the ensemble is empty (boosted_ is False)")
        return codes

    # ---- prediction -------------------------------------------------------------------------
    def _votes(self, codes: NDArray[np.uint8]) -> Iterator[tuple[float, NDArray[np.intp]]]:
        for alpha, tree in zip(self.alphas_, self.estimators_):
            yield float(alpha), tree.predict(codes).astype(np.intp)

    def decision_function(self, X: ArrayLike) -> FloatArray:
        r"""Votes :math:`f(x, k) = \sum_t \alpha_t [h_t(x) = k]`, shape ``(n_samples, K)``."""
        codes = self._boosted_codes(X)
        scores = np.zeros((codes.shape[0], self.n_classes_))
        rows = np.arange(codes.shape[0])
        for alpha, predicted in self._votes(codes):
            scores[rows, predicted] += alpha
        return scores

    def staged_decision_function(self, X: ArrayLike) -> Iterator[FloatArray]:
        """Yield :math:`f_t(x, k)` after each round ``t = 1, 2, ...`` (a fresh array each time)."""
        codes = self._boosted_codes(X)
        scores = np.zeros((codes.shape[0], self.n_classes_))
        rows = np.arange(codes.shape[0])
        for alpha, predicted in self._votes(codes):
            scores[rows, predicted] += alpha
            yield scores.copy()

    def _labels_from_scores(self, scores: FloatArray) -> np.ndarray:
        return self.classes_.take(np.argmax(scores, axis=1))

    # Labels and accuracies from the scores, as for the binary estimators.
    predict = BinaryBoostingClassifier.predict
    staged_predict = BinaryBoostingClassifier.staged_predict
    staged_score = BinaryBoostingClassifier.staged_score

    def __sklearn_tags__(self):  # type: ignore[no-untyped-def]
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True
        tags.input_tags.allow_nan = False
        return tags


class _DiscreteMulticlassBoosting(MulticlassBoostingClassifier):
    """The loop shared by AdaBoost.M1 and SAMME (see the module docstring)."""

    def __init__(self, *, n_estimators: int = 100, max_depth: int = 3, criterion: str = "gini",
                 max_bins: int = 255) -> None:
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.criterion = criterion
        self.max_bins = max_bins

    def _error_limit(self, n_classes: int) -> tuple[float, str]:
        """The weighted error at which boosting stops, and how to print it."""
        raise NotImplementedError

    def _alpha(self, error: float, n_classes: int) -> float:
        raise NotImplementedError

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None,
            ) -> "_DiscreteMulticlassBoosting":
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
        X, y, weights = self._validate_training_data(X, y, sample_weight)
        n_rounds = check_positive_int(self.n_estimators, "n_estimators")
        learner = self._weak_learner()
        codes = self._bin(X)
        n_classes = self.n_classes_
        limit, limit_text = self._error_limit(n_classes)
        rows = np.arange(y.shape[0])
        with np.errstate(divide="ignore"):
            log_weights = np.log(weights)
        scores = np.zeros((y.shape[0], n_classes))
        history: dict[str, list[float]] = {"weighted_error": [], "train_error": [], "time": []}
        estimators: list = []
        alphas: list[float] = []
        stop_reason = "n_estimators"
        start = time.perf_counter()
        for t in range(n_rounds):
            weights = np.exp(log_weights - log_weights.max())
            weights /= weights.sum()
            tree = learner.fit_multiclass(codes, y, weights)
            predicted = tree.predict(codes).astype(np.intp)
            incorrect = predicted != y
            error = float(weights[incorrect].sum())
            if error >= limit:
                stop_reason = (f"weighted error {error:.6g} >= {limit_text} in round {t + 1} "
                               f"(K = {n_classes})")
                break
            perfect = error < MIN_WEIGHTED_ERROR
            alpha = self._alpha(max(error, MIN_WEIGHTED_ERROR), n_classes)
            estimators.append(tree)
            alphas.append(alpha)
            scores[rows, predicted] += alpha
            history["weighted_error"].append(error)
            history["train_error"].append(float(np.mean(np.argmax(scores, axis=1) != y)))
            history["time"].append(time.perf_counter() - start)
            if perfect:
                stop_reason = "perfect weak learner"
                break
            log_weights = log_weights + alpha * incorrect
        self.history_ = {key: np.asarray(value, dtype=np.float64) for key, value in history.items()}
        self._set_stages(estimators, alphas, stop_reason)
        return self


class AdaBoostM1(_DiscreteMulticlassBoosting):
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

    Attributes
    ----------
    classes_, n_classes_, estimators_, alphas_, n_estimators_, history_, mapper_
    boosted_ : bool
        Whether at least one round was accepted.
    stop_reason_ : str
        ``"n_estimators"``, ``"perfect weak learner"`` or the weighted error that reached 1/2.
    """

    _algorithm_name = "AdaBoost.M1"
    reference = "freund1997decision"

    def _error_limit(self, n_classes: int) -> tuple[float, str]:
        return 0.5, "1/2"

    def _alpha(self, error: float, n_classes: int) -> float:
        return float(np.log((1.0 - error) / error))


class SAMME(_DiscreteMulticlassBoosting):
    r"""SAMME (Zhu, Zou, Rosset & Hastie 2009) with multi-class decision trees.

    Zhu, Zou, Rosset & Hastie, "Multi-class AdaBoost", *Statistics and Its Interface*
    2:349-360 (2009), Algorithm 2:
    :math:`\alpha_t = \log\frac{1 - \varepsilon_t}{\varepsilon_t} + \log(K - 1)`, positive as
    long as the weak learner beats random guessing, :math:`\varepsilon_t < 1 - 1/K`; boosting
    stops (discarding :math:`h_t`) otherwise.  Equals scikit-learn's ``AdaBoostClassifier`` on
    the same trees (module docstring).

    Parameters
    ----------
    n_estimators, max_depth, criterion, max_bins
        As for :class:`AdaBoostM1`.

    Attributes
    ----------
    classes_, n_classes_, estimators_, alphas_, n_estimators_, history_, mapper_, boosted_,
    stop_reason_
        As for :class:`AdaBoostM1`.
    """

    _algorithm_name = "SAMME"
    reference = "zhu2009multiclass"

    def _error_limit(self, n_classes: int) -> tuple[float, str]:
        return 1.0 - 1.0 / n_classes, f"1 - 1/K = {1.0 - 1.0 / n_classes:.6g}"

    def _alpha(self, error: float, n_classes: int) -> float:
        return float(np.log((1.0 - error) / error) + np.log(n_classes - 1.0))
