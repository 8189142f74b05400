r"""The AnyBoost loop shared by the stage-wise estimators of :mod:`marginboost.boosting.stagewise`.

See that module for the algorithm, the stopping rules and the recorded history.
"""

from __future__ import annotations

import time
from abc import ABCMeta, abstractmethod
from dataclasses import dataclass
from numbers import Real
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils._param_validation import Interval

from .._sklearn import PARAMETERS, constraints
from ..losses import MarginCost
from . import _steps
from ._base import BinaryBoostingClassifier, Codes, NoEdgeError, check_positive_int, check_real
from ._blas_threads import one_blas_thread

__all__ = ["BoostingRound", "StagewiseBoosting"]

FloatArray = NDArray[np.float64]

#: A directional derivative below this fraction of sum_i |D_i a_i| counts as 0 (rounding).
_DOWNHILL_RTOL = 1e-12

_HISTORY_KEYS = (
    "train_error",
    "objective",
    "edge",
    "min_margin",
    "mean_margin",
    "weight_entropy",
    "step",
    "time",
)


@dataclass(frozen=True)
class BoostingRound:
    r"""What a member's step rule sees of one round (:meth:`StagewiseBoosting._step`).

    ``margins`` are :math:`y_i F_{t-1}(x_i)`, ``label_times_direction`` :math:`a_i = y_i f_t(x_i)`,
    ``gradient_weights`` the normalized :math:`D_i`, ``l1_norm`` :math:`\sum_s |w_s|` so far and
    ``index`` the round :math:`t` (from 0).  ``gradient_yf`` (:math:`\sum_i D_i a_i`) and
    ``abs_total`` (:math:`\sum_i |D_i|`) are the sums the loop has already computed for its
    downhill test.
    """

    margins: FloatArray
    label_times_direction: FloatArray
    gradient_weights: FloatArray
    sample_weight: FloatArray
    l1_norm: float
    index: int
    gradient_yf: float
    abs_total: float

    @property
    def edge(self) -> float:
        """``_steps.weighted_edge(gradient_weights, label_times_direction)`` from the loop's
        sums (the same expressions, so the same value)."""
        return 0.0 if self.abs_total == 0.0 else self.gradient_yf / self.abs_total


class StagewiseBoosting(BinaryBoostingClassifier, metaclass=ABCMeta):
    """AnyBoost loop shared by all stage-wise estimators; subclasses supply the hooks."""

    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators",
        "max_depth",
        "estimator",
        "max_bins",
        "validation_fraction",
        "random_state",
        tol=[Interval(Real, 0.0, float("inf"), closed="left"), None],
        n_iter_no_change=[*PARAMETERS["n_iter_no_change"], None],
    )

    #: ``"none"`` (F_{t+1} = F_t + w f), ``"convex"`` (DOOM II) or ``"average"`` (ARC-x4).
    _normalization = "none"
    #: The cost is evaluated at ``_cost_scale * y F`` (2 for LogitBoost's parametrisation).
    _cost_scale = 1.0
    _default_criterion = "error"

    # ---- hooks ------------------------------------------------------------------------------
    @abstractmethod
    def _cost_function(self) -> MarginCost:
        """The margin cost :math:`c` of the member."""

    def _check_params(self) -> None:
        """Validate the algorithm-specific parameters."""

    def _start(self, n_samples: int) -> None:
        """Reset per-fit state before the first round."""

    def _gradient_weights(
        self,
        margins: FloatArray,
        l1_norm: float,
        sample_weight: FloatArray,
    ) -> FloatArray:
        scaled = margins if self._cost_scale == 1.0 else self._cost_scale * margins
        return _steps.cost_weights(self._cost, scaled, sample_weight)

    def _direction(
        self,
        learner: Any,
        codes: Codes,
        y: FloatArray,
        gradient_weights: FloatArray,
        scores: FloatArray,
        sample_weight: FloatArray,
    ) -> tuple[Any, FloatArray, FloatArray]:
        """Fit the weak learner; return ``(tree, f on the training data, learner weights)``."""
        tree = learner.fit_binary(codes, y, gradient_weights)
        return tree, tree.predict(codes), gradient_weights

    @abstractmethod
    def _step(self, round_: BoostingRound) -> tuple[float, bool]:
        """Step size of the round and whether the weak learner was perfect."""

    def _stop_on_moved_direction(self) -> bool:
        """Whether the downhill test uses f - F_t (convex updates) instead of f."""
        return self._normalization == "convex"

    def _after_round(self, label_times_direction: FloatArray) -> None:
        """Update per-fit state after a round was accepted."""

    def _objective(self, margins: FloatArray, l1_norm: float, sample_weight: FloatArray) -> float:
        scaled = margins if self._cost_scale == 1.0 else self._cost_scale * margins
        with np.errstate(over="ignore"):
            values = np.asarray(self._cost_values(scaled), dtype=np.float64)
        return float(sample_weight @ values)

    @property
    def _cost_values(self) -> Any:
        """``self._cost.value`` without the input checks of the public method (the margins
        inside ``fit`` are finite float64 arrays already; the values are the same)."""
        return _steps.unchecked(self._cost, "value")

    # ---- fitting ----------------------------------------------------------------------------
    def _check_common_params(self) -> None:
        check_positive_int(self.n_estimators, "n_estimators")
        if self.tol is not None:
            check_real(self.tol, "tol", 0.0, low_inclusive=True)
        check_real(self.validation_fraction, "validation_fraction", 0.0, 1.0)
        if self.validation_fraction >= 1.0:
            raise ValueError(f"validation_fraction must be < 1; got {self.validation_fraction!r}")
        if self.n_iter_no_change is not None:
            check_positive_int(self.n_iter_no_change, "n_iter_no_change")

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        *,
        X_val: ArrayLike | None = None,
        y_val: ArrayLike | None = None,
    ) -> StagewiseBoosting:
        """Fit the ensemble.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
            Training inputs (finite values).
        y : array of shape (n_samples,)
            Labels, exactly two distinct values.
        sample_weight : array of shape (n_samples,), optional
            Non-negative example weights :math:`s_i` (normalised to sum 1); uniform by default.
        X_val, y_val : arrays, optional
            Validation data for early stopping (see the module docstring).  When they are not
            given and ``n_iter_no_change`` is set, a stratified ``validation_fraction`` of the
            training data is held out (seeded by ``random_state``).

        Returns
        -------
        self
        """
        with one_blas_thread():
            X, y_signed, weights = self._validate_training_data(X, y, sample_weight)
            self._check_common_params()
            self._check_params()
            self._cost = self._cost_function()
            validation = None
            if (X_val is None) != (y_val is None):
                raise ValueError("pass both X_val and y_val, or neither")
            if X_val is not None:
                from sklearn.utils.validation import validate_data

                X_val = cast(
                    FloatArray,
                    validate_data(
                        self, X_val, dtype=np.float64, ensure_all_finite=True, reset=False
                    ),
                )
                assert y_val is not None  # both or neither, checked above
                validation = (X_val, self._signed_labels(y_val, X_val.shape[0]))
            elif self.n_iter_no_change is not None:
                from sklearn.model_selection import train_test_split

                train: NDArray[np.intp]
                held_out: NDArray[np.intp]
                train, held_out = train_test_split(
                    np.arange(X.shape[0]),
                    test_size=self.validation_fraction,
                    stratify=y_signed,
                    random_state=self.random_state,
                )
                validation = (X[held_out], y_signed[held_out])
                X, y_signed, weights = X[train], y_signed[train], weights[train]
                if not weights.sum() > 0:
                    raise ValueError(
                        "the training part left after the validation split has zero total weight"
                    )
                weights = weights / weights.sum()
            codes = self._bin(X)
            self._run_rounds(codes, y_signed, weights, validation)
            return self

    def _run_rounds(
        self,
        codes: Codes,
        y: FloatArray,
        sample_weight: FloatArray,
        validation: tuple[FloatArray, FloatArray] | None,
    ) -> None:
        n_rounds = int(self.n_estimators)
        learner = self._weak_learner_template(self._default_criterion)
        self._start(y.shape[0])
        history = {key: np.empty(n_rounds) for key in _HISTORY_KEYS}
        val_errors = np.empty(n_rounds) if validation is not None else None
        if validation is not None:
            val_codes = self.mapper_.transform(validation[0])
            val_y, val_scores = validation[1], np.zeros(validation[1].shape[0])
            best_error, best_round = np.inf, 0
        scores = np.zeros(y.shape[0])
        positive = y > 0
        l1_norm = 0.0
        previous_objective = self._objective(np.zeros_like(y), 1.0, sample_weight)
        estimators: list[Any] = []
        shrinks: list[float] = []
        steps: list[float] = []
        self.stop_reason_ = "n_estimators"
        start = time.perf_counter()
        t = 0
        margins = y * scores
        for t in range(n_rounds):
            # margins = y * scores: computed before the first round and after each update
            gradient = self._gradient_weights(margins, l1_norm, sample_weight)
            total = float(np.abs(gradient).sum())
            if not total > 0.0:
                self.stop_reason_ = "zero gradient"
                break
            gradient = gradient / total
            tree, direction, learner_weights = self._direction(
                learner, codes, y, gradient, scores, sample_weight
            )
            yf = y * direction
            # sum_i |D_i| and sum_i D_i y_i f_i, shared by the downhill test, the edge and the
            # entropy below (the same expressions as in _steps, computed once)
            abs_gradient = np.abs(gradient)
            abs_total = float(abs_gradient.sum())
            gradient_yf = float(gradient @ yf)
            # the convex update moves along f - F_t (unless the subclass keeps Algorithm 1's
            # test on f itself); a derivative within rounding of 0 is 0
            if self._stop_on_moved_direction():
                move = yf - margins
                downhill = _steps.directional_derivative(gradient, move)
            else:
                move, downhill = yf, gradient_yf
            if not downhill > _DOWNHILL_RTOL * float(abs_gradient @ np.abs(move)):
                self.stop_reason_ = "weak learner does not point downhill"
                break
            step, perfect = self._step(
                BoostingRound(
                    margins, yf, gradient, sample_weight, l1_norm, t, gradient_yf, abs_total
                )
            )
            if self._normalization == "convex":
                shrink, coefficient = l1_norm / (l1_norm + step), step / (l1_norm + step)
            elif self._normalization == "average":
                shrink, coefficient = t / (t + 1.0), 1.0 / (t + 1.0)
            else:
                shrink, coefficient = 1.0, step
            if coefficient == 0.0:
                self.stop_reason_ = "zero step"
                break
            # (1.0 * scores is scores exactly: the multiply is skipped, not the rounding)
            scores = (scores if shrink == 1.0 else shrink * scores) + coefficient * direction
            l1_norm = shrink * l1_norm + abs(coefficient)
            estimators.append(tree)
            shrinks.append(shrink)
            steps.append(coefficient)
            self._after_round(yf)
            margins = y * scores
            objective = self._objective(margins, l1_norm, sample_weight)
            normalized = margins / l1_norm
            history["train_error"][t] = _steps.count_sign_errors(scores, positive) / y.shape[0]
            history["objective"][t] = objective
            history["edge"][t] = 0.0 if abs_total == 0.0 else gradient_yf / abs_total
            history["min_margin"][t] = normalized.min()
            history["mean_margin"][t] = normalized.sum() / y.shape[0]
            history["weight_entropy"][t] = (
                _steps.weight_entropy(gradient, abs_gradient, abs_total)
                if learner_weights is gradient
                else _steps.weight_entropy(learner_weights)
            )
            history["step"][t] = step
            history["time"][t] = time.perf_counter() - start
            if validation is not None:
                val_scores = shrink * val_scores + coefficient * tree.predict(val_codes)
                assert val_errors is not None  # allocated with the validation data
                val_errors[t] = np.mean((val_scores > 0) != (val_y > 0))
                if val_errors[t] < best_error:
                    best_error, best_round = val_errors[t], t
                elif self.n_iter_no_change is not None and t - best_round >= self.n_iter_no_change:
                    self.stop_reason_ = "early stopping"
                    t += 1
                    break
            if perfect:
                self.stop_reason_ = "perfect weak learner"
                t += 1
                break
            if self.tol is not None and abs(previous_objective - objective) < self.tol:
                self.stop_reason_ = "tol"
                t += 1
                break
            previous_objective = objective
        else:
            t = n_rounds
        done = len(estimators)
        if done == 0:
            raise NoEdgeError(type(self).__name__, self.stop_reason_)
        self.history_ = {key: value[:done].copy() for key, value in history.items()}
        self._set_stages(estimators, shrinks, steps)
        self.n_rounds_run_ = done
        if validation is not None:
            assert val_errors is not None  # allocated with the validation data
            self.history_["validation_error"] = val_errors[:done].copy()
            # the smallest number of rounds with the lowest validation error (argmin returns
            # the first minimum): marginboost.experiments.best_round with atol=0
            self._truncate(int(np.argmin(val_errors[:done])) + 1)
