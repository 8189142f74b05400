r"""Shared machinery of the binary boosting estimators: validation, prediction, margins.

A fitted ensemble stores one weak learner per round together with a two-number recurrence

.. math:: F_t = \text{shrink}_t \, F_{t-1} + \text{step}_t \, h_t, \qquad F_0 = 0,

which covers additive boosting (:math:`\text{shrink}_t = 1`, :math:`\text{step}_t = \alpha_t`)
as well as convex combinations (DOOM II, the running average of ARC-x4), where the earlier
hypotheses are shrunk every round.  ``alphas_`` holds the resulting weight of every weak learner
in the final combination, :math:`F_T = \sum_t \alpha_t h_t`, and
``staged_decision_function`` replays the recurrence, so both stay exact and finite for any
number of rounds (the products of shrink factors are formed in the log domain).
"""

from __future__ import annotations

import copy
import numbers
import types
from collections.abc import Iterator
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from ..margins import l1_norm_in_order

__all__ = ["BinaryBoostingClassifier", "NoEdgeError", "NotBoostedWarning"]

FloatArray = NDArray[np.float64]
#: A best weak classifier with an edge at most this on the uniform weights is no better than
#: chance: the fits that meet one warn (:class:`NotBoostedWarning`).
NO_EDGE = 1e-12
#: What the weak learners see: ``uint8`` bin codes, or the raw features (``uses_raw_features``).
Codes = NDArray[np.uint8] | NDArray[np.float64]


def check_positive_int(value: Any, name: str, minimum: int = 1) -> int:
    """Validate an integer parameter ``>= minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def check_real(
    value: Any, name: str, low: float, high: float = np.inf, *, low_inclusive: bool = False
) -> float:
    """Validate a finite real parameter in ``(low, high]`` (or ``[low, high]``)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not np.isfinite(float(value))
    ):
        raise ValueError(f"{name} must be a finite real number; got {value!r}")
    number = float(value)
    ok = (number >= low if low_inclusive else number > low) and number <= high
    if not ok:
        bracket = "[" if low_inclusive else "("
        raise ValueError(f"{name} must lie in {bracket}{low:g}, {high:g}]; got {value!r}")
    return float(value)


def check_weighted_classes(
    weights: FloatArray, y_index: NDArray[np.intp], classes: np.ndarray, name: str
) -> None:
    """Refuse sample weights that leave fewer than two classes with positive weight."""
    weighted = np.unique(y_index[weights > 0])
    if weighted.size < 2:
        raise ValueError(
            f"sample_weight is zero for every example of all classes but "
            f"{classes[weighted].tolist()}; {name} needs examples of at least two "
            "classes with positive weight"
        )


def check_warm_start(
    estimator: Any, previous: dict[str, Any], n_rounds: int, unit: str = "rounds"
) -> None:
    """A warm start needs the fitted model's classes and features and ``n_estimators`` at
    least the ``unit`` already fitted; otherwise raise ``ValueError`` and leave the fitted
    model as it was (``previous``: its ``classes_``, ``n_features_in_``, ``estimators_`` and
    optionally ``n_classes_``, taken before the new data were validated)."""
    name = type(estimator).__name__
    problem = None
    if not np.array_equal(estimator.classes_, previous["classes_"]):
        problem = f"y has the classes {estimator.classes_}, the fitted model {previous['classes_']}"
    elif estimator.n_features_in_ != previous["n_features_in_"]:
        problem = (
            f"X has {estimator.n_features_in_} features, the fitted model "
            f"{previous['n_features_in_']}"
        )
    if problem is not None:
        for attribute in ("classes_", "n_features_in_", "n_classes_"):
            if attribute in previous:
                setattr(estimator, attribute, previous[attribute])
        raise ValueError(
            f"{name} with warm_start=True: {problem}; fit a new model (warm_start=False) instead"
        )
    fitted = len(previous["estimators_"])
    if n_rounds < fitted:
        raise ValueError(
            f"{name} with warm_start=True: n_estimators={n_rounds} must be at least the "
            f"{fitted} {unit} already fitted"
        )


class NoEdgeError(ValueError):
    """The training data leave the weak learner nothing to learn: no weak hypothesis has a
    positive edge under the initial weights, so not even one round can be made.

    Typical cause: every group of identical rows of ``X`` carries as much weight of one class
    as of the other (for instance duplicated rows with opposite labels).

    Parameters
    ----------
    estimator : str
        Name of the estimator, for the message.
    detail : str
        Why the first round failed (the estimator's stop reason).

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost import AdaBoost
    >>> from marginboost.boosting import NoEdgeError
    >>> X, y = np.array([[0.0], [0.0], [1.0], [1.0]]), np.array([0, 1, 0, 1])
    >>> try:
    ...     AdaBoost(n_estimators=5).fit(X, y)
    ... except NoEdgeError as error:
    ...     print(str(error).split(":")[0])
    AdaBoost could not make a first step
    """

    def __init__(self, estimator: str, detail: str) -> None:
        super().__init__(
            f"{estimator} could not make a first step: {detail}. No weak hypothesis has a "
            "positive edge on the training data under the initial weights; check for rows of "
            "X that are identical (or fall in the same bins) but carry opposite labels with "
            "equal weight"
        )


class NotBoostedWarning(UserWarning):
    """The first weak learner already failed the algorithm's limit: nothing was boosted.

    The fit still returns the estimator with the reason in ``stop_reason_``.  The multi-class
    estimators set ``boosted_ = False`` and their prediction methods raise ``ValueError``; the
    column-generation and direct estimators (no weak classifier better than chance on the
    uniform weights: a constant feature matrix, or every row duplicated with the opposite
    label) set ``converged_ = False`` and keep the master's or phase's (constant) model.

    Examples
    --------
    AdaBoost.M1 needs a weighted error below 1/2, which a stump cannot reach on six classes:

    >>> import warnings
    >>> import numpy as np
    >>> from marginboost import AdaBoostM1
    >>> from marginboost.boosting import NotBoostedWarning
    >>> X, y = np.arange(6.0).reshape(-1, 1), np.arange(6)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     model = AdaBoostM1(max_depth=1).fit(X, y)
    >>> model.boosted_, caught[0].category is NotBoostedWarning
    (False, True)
    """


def mark_not_boosted(estimator: Any, evidence: str, stacklevel: int = 3) -> None:
    """End a fit in which no weak classifier beat chance: ``converged_ = False``,
    ``stop_reason_ = "no edge"``, and a :class:`NotBoostedWarning` that names the estimator,
    the ``evidence`` and the usual causes."""
    import warnings

    estimator.converged_ = False
    estimator.stop_reason_ = "no edge"
    warnings.warn(
        f"{type(estimator).__name__} was not able to boost: {evidence}, so no weak classifier "
        "beat chance (a constant feature matrix, or every row duplicated with another label?).",
        NotBoostedWarning,
        stacklevel=stacklevel + 1,
    )


def name_inherited_init(cls: type) -> None:
    """Give a public estimator class that inherits ``__init__`` its own copy, named after it.

    Python names the function in the ``TypeError`` of a wrong keyword (``AdaBoost(foo=1)``); an
    inherited ``__init__`` would name a private base (``_FixedCostBoosting.__init__()``) or
    another estimator, never the class the user called.  The copy shares the inherited code,
    defaults and signature (which scikit-learn's ``get_params`` reads)."""
    inherited = cls.__init__  # type: ignore[misc]
    if (
        cls.__name__.startswith("_")
        or "__init__" in cls.__dict__
        or not isinstance(inherited, types.FunctionType)
    ):
        return
    qualname = f"{cls.__name__}.__init__"
    init = types.FunctionType(
        inherited.__code__.replace(co_qualname=qualname),
        inherited.__globals__,
        "__init__",
        inherited.__defaults__,
        inherited.__closure__,
    )
    init.__kwdefaults__ = inherited.__kwdefaults__
    init.__qualname__ = qualname
    init.__doc__ = inherited.__doc__
    init.__annotations__ = dict(inherited.__annotations__)
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]


def _read_only_codes(mapper: Any, codes: Codes) -> Codes:
    """``codes`` made read-only where they are a bin mapper's own new array (raw features may
    be the caller's array, which is left as it is).  The fit's and the predictions' codes then
    have the same type for numba, so the kernels that apply trees compile once."""
    from ..weak import BinMapper

    if isinstance(mapper, BinMapper):
        codes.setflags(write=False)
    return codes


class BinaryBoostingClassifier(ClassifierMixin, BaseEstimator):
    """Base class of the binary boosting estimators (not used directly).

    Subclasses implement ``_fit_ensemble(codes, y_signed, sample_weight, validation)``, which
    fills ``estimators_``, ``_stage_shrink``, ``_stage_step`` and ``history_``.

    Labels may be any two values; ``classes_`` holds them sorted and ``classes_[1]`` is coded
    :math:`+1` (a positive ``decision_function`` predicts ``classes_[1]``, a score of exactly 0
    predicts ``classes_[0]``, as in scikit-learn).
    """

    #: Name used in messages; subclasses override.
    _algorithm_name = "this estimator"
    history_: dict[str, FloatArray]

    # ---- validation -------------------------------------------------------------------------

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name_inherited_init(cls)

    def _validate_training_data(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None,
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        self._validate_params()
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
        name = type(self).__name__
        if classes.size == 1:
            raise ValueError(
                f"y has only one class ({classes.tolist()[0]!r}); {name} needs examples of two classes"
            )
        if classes.size > 2:
            raise ValueError(
                f"Only binary classification is supported. y has {classes.size} classes; {name} "
                "is binary, use a multi-class booster (SAMME, AdaBoostM1, AdaBoostMH, GDMCBoost "
                "or DMCBoost) instead"
            )
        self.classes_ = classes
        y_signed = np.where(y_index == 1, 1.0, -1.0)
        weights = self._validate_sample_weight(sample_weight, X)
        check_weighted_classes(weights, y_index, classes, name)
        return X, y_signed, weights

    @staticmethod
    def _validate_sample_weight(sample_weight: ArrayLike | None, X: FloatArray) -> FloatArray:
        if sample_weight is None:
            return np.full(X.shape[0], 1.0 / X.shape[0])
        weights: FloatArray = _check_sample_weight(
            sample_weight, X, dtype=np.float64, ensure_non_negative=True
        )
        if not np.all(np.isfinite(weights)):
            raise ValueError("sample_weight must be finite; it contains NaN or inf")
        total = float(weights.sum())
        if not total > 0:
            raise ValueError("sample_weight must have a positive sum; all weights are zero")
        return weights / total

    def _refuse_non_uniform_weights(
        self, sample_weight: ArrayLike | None, weights: FloatArray, reason: str
    ) -> None:
        """Raise for non-uniform ``sample_weight`` (uniform weights change nothing and are accepted)."""
        if sample_weight is not None and not np.allclose(
            weights, weights[0], rtol=0.0, atol=1e-12 * weights.max()
        ):
            raise ValueError(
                f"{type(self).__name__} does not support non-uniform sample_weight: {reason}"
            )

    def _signed_labels(self, y: ArrayLike, n: int) -> FloatArray:
        labels = np.asarray(y)
        if labels.ndim != 1 or labels.shape[0] != n:
            raise ValueError(
                f"y must be a 1-D array with one label per row of X ({n}); got shape {labels.shape}"
            )
        unknown = ~np.isin(labels, self.classes_)
        if unknown.any():
            raise ValueError(
                f"y contains labels {np.unique(labels[unknown])[:5]} not seen in fit; "
                f"known classes: {self.classes_}"
            )
        return np.where(labels == self.classes_[1], 1.0, -1.0)

    def _weak_learner_template(self, default_criterion: str = "error") -> Any:
        """The weak learner to fit each round: ``estimator`` (copied) or a ``DecisionTree``."""
        if self.estimator is not None:
            method = "fit_binary" if default_criterion == "error" else "fit_regression"
            if not callable(getattr(self.estimator, method, None)):
                raise TypeError(
                    f"{self._algorithm_name} needs a weak learner with a {method} method "
                    f"(e.g. marginboost.weak.DecisionTree); got {self.estimator!r}"
                )
            return copy.deepcopy(self.estimator)
        from ..weak import DecisionTree

        depth = check_positive_int(self.max_depth, "max_depth")
        return DecisionTree(max_depth=depth, criterion=default_criterion)

    def _bin(self, X: FloatArray, mapper: Any = None) -> Codes:
        """Inputs of the weak learner: ``uint8`` bin codes, or the raw features for a learner
        that declares ``uses_raw_features = True`` (such as :class:`~marginboost.weak.LDALearner`).

        ``mapper``: a fitted mapper to transform ``X`` with instead of fitting a new one (a
        warm start goes on with the previous fit's)."""
        from ..weak import BinMapper, RawFeatures

        self.mapper_: BinMapper | RawFeatures
        if mapper is not None:
            self.mapper_ = mapper
        elif getattr(getattr(self, "estimator", None), "uses_raw_features", False):
            self.mapper_ = RawFeatures().fit(X)
            return self.mapper_.transform(X)
        else:
            max_bins = check_positive_int(self.max_bins, "max_bins", minimum=2)
            self.mapper_ = BinMapper(max_bins=max_bins).fit(X)
        # Read-only for the whole fit: the weak learners may then keep what they derive from
        # the codes (the sparse-feature bundles of the depth-1 search) between rounds.
        return _read_only_codes(self.mapper_, self.mapper_.transform(X))

    def _codes(self, X: ArrayLike) -> Codes:
        check_is_fitted(self, "estimators_")
        X = cast(
            FloatArray,
            validate_data(self, X, dtype=np.float64, ensure_all_finite=True, reset=False),
        )
        return _read_only_codes(self.mapper_, self.mapper_.transform(X))

    # ---- the ensemble as a recurrence -------------------------------------------------------
    def _set_stages(self, estimators: list[Any], shrink: ArrayLike, step: ArrayLike) -> None:
        """Store the rounds and derive ``alphas_`` (weights in the final combination)."""
        self.estimators_ = list(estimators)
        self._stage_shrink = np.asarray(shrink, dtype=np.float64)
        self._stage_step = np.asarray(step, dtype=np.float64)
        with np.errstate(divide="ignore"):
            log_shrink = np.log(self._stage_shrink)
        # log of prod_{r > s} shrink_r, accumulated from the last round backwards.
        later = (
            np.concatenate([np.cumsum(log_shrink[::-1])[::-1][1:], [0.0]])
            if log_shrink.size
            else log_shrink
        )
        self.alphas_ = self._stage_step * np.exp(later)
        self.n_estimators_ = len(self.estimators_)

    def _truncate(self, n_rounds: int) -> None:
        """Keep the first ``n_rounds`` rounds (early stopping on a validation set)."""
        self._set_stages(
            self.estimators_[:n_rounds], self._stage_shrink[:n_rounds], self._stage_step[:n_rounds]
        )
        self.history_ = {key: value[:n_rounds] for key, value in self.history_.items()}

    # ---- prediction -------------------------------------------------------------------------
    def decision_function(self, X: ArrayLike) -> FloatArray:
        """Score :math:`F(x) = \\sum_t \\alpha_t h_t(x)`; positive scores predict ``classes_[1]``."""
        codes = self._codes(X)
        scores = np.zeros(codes.shape[0])
        for alpha, tree in zip(self.alphas_, self.estimators_):
            if alpha != 0.0:
                scores += alpha * tree.predict(codes)
        return scores

    def staged_decision_function(self, X: ArrayLike) -> Iterator[FloatArray]:
        """Yield :math:`F_t(x)` after each round ``t = 1, 2, ...`` (a fresh array each time)."""
        codes = self._codes(X)
        scores = np.zeros(codes.shape[0])
        for shrink, step, tree in zip(self._stage_shrink, self._stage_step, self.estimators_):
            scores = shrink * scores + step * tree.predict(codes)
            yield scores.copy()

    def _labels_from_scores(self, scores: FloatArray) -> np.ndarray:
        return self.classes_.take((scores > 0).astype(np.intp))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predicted class labels."""
        return self._labels_from_scores(self.decision_function(X))

    def staged_predict(self, X: ArrayLike) -> Iterator[np.ndarray]:
        """Yield the predicted labels after each round."""
        for scores in self.staged_decision_function(X):
            yield self._labels_from_scores(scores)

    def staged_score(self, X: ArrayLike, y: ArrayLike) -> Iterator[float]:
        """Yield the accuracy on ``(X, y)`` after each round."""
        labels = np.asarray(y)
        for predicted in self.staged_predict(X):
            yield float(np.mean(predicted == labels))

    # ---- probabilities ----------------------------------------------------------------------
    #: How ``predict_proba`` maps the score F to P(y = classes_[1] | x): ``"exponential"``
    #: (:math:`1/(1 + e^{-2F})`, the population minimizer of the exponential loss, Friedman,
    #: Hastie & Tibshirani 2000, eq. (5)), ``"logistic"`` (:math:`1/(1 + e^{-F})` for the loss
    #: :math:`\log(1 + e^{-yF})`), ``"squared"`` (:math:`(1 + F)/2` clipped to [0, 1], the
    #: minimizer of :math:`(y - F)^2`) or ``"vote"`` (the weighted vote share
    #: :math:`(1 + F/\sum_t|\alpha_t|)/2`, clipped to [0, 1]: a monotone score, not a calibrated
    #: probability).
    _proba_link = "vote"

    def _positive_probability(self, scores: FloatArray) -> FloatArray:
        from scipy.special import expit

        link = self._proba_link
        probability: FloatArray
        if link == "exponential":
            probability = expit(2.0 * scores)
            return probability
        if link == "logistic":
            probability = expit(scores)
            return probability
        if link == "squared":
            return np.clip(0.5 * (1.0 + scores), 0.0, 1.0)
        norm = float(np.abs(self.alphas_).sum())
        normalized = scores / norm if norm > 0 else np.zeros_like(scores)
        return np.clip(0.5 * (1.0 + normalized), 0.0, 1.0)

    def _proba_from_scores(self, scores: FloatArray) -> FloatArray:
        positive = self._positive_probability(scores)
        # a positive score within rounding of 0 maps to exactly 1/2 (1 + tiny == 1): the
        # smallest probability above 1/2 keeps predict_proba's argmax equal to predict's label
        positive = np.where(
            scores > 0.0, np.maximum(positive, np.nextafter(0.5, 1.0)), np.minimum(positive, 0.5)
        )
        return np.column_stack([1.0 - positive, positive])

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        r"""Class probabilities, shape ``(n_samples, 2)``, columns in the order of ``classes_``.

        Calibrated through the link of the loss the estimator minimizes where it has one
        (``_proba_link``: the exponential loss's :math:`1/(1+e^{-2F})` for AdaBoost,
        RealAdaBoost, AdaBoost-CG and AdaBoost-l1; the logistic link for LogitBoost and
        LogitBoost-CG; :math:`(1+F)/2` for L2Boost); elsewhere the weighted vote share
        :math:`(1 + F/\sum_t|\alpha_t|)/2`, a monotone score of the margin rather than a
        probability.  Column 1 exceeds 1/2 exactly where :meth:`predict` returns ``classes_[1]``.
        """
        return self._proba_from_scores(self.decision_function(X))

    def staged_predict_proba(self, X: ArrayLike) -> Iterator[FloatArray]:
        """Yield :meth:`predict_proba` after each round."""
        for scores in self.staged_decision_function(X):
            yield self._proba_from_scores(scores)

    def margins(self, X: ArrayLike, y: ArrayLike) -> FloatArray:
        r"""Normalized margins :math:`y_i F(x_i) / \sum_t |\alpha_t|` (Shen & Li 2010, eq. (34)).

        Labels are mapped to :math:`\pm 1` through ``classes_``.  For ±1 weak learners the
        margins lie in :math:`[-1, 1]`, exactly :math:`\pm 1` on an example on which all
        hypotheses agree (see :func:`marginboost.margins.l1_norm_in_order`); for real-valued
        leaves (RealAdaBoost, LogitBoost, regression L2Boost) they are scaled by the same
        :math:`\ell_1` norm of the weights but are not confined to :math:`[-1, 1]`.
        """
        scores = self.decision_function(X)
        y_signed = self._signed_labels(y, scores.shape[0])
        # summed in the order F is, so that |margin| <= 1 holds exactly for +-1 hypotheses
        norm = l1_norm_in_order(self.alphas_)
        if norm == 0.0:
            return np.zeros_like(scores)
        return y_signed * scores / norm

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.allow_nan = False
        return tags
