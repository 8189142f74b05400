r"""The column-generation loop shared by the totally-corrective estimators.

:class:`ColumnGenerationBoosting` runs Shen & Li's Algorithm 2 (see
:mod:`marginboost.boosting.corrective`): it asks the weak learner for the most violated dual
constraint, adds its column to the restricted master, re-solves the master and stops when no
constraint is violated by more than ``tol``; a master that fails raises
:class:`ColumnGenerationError`.  ``_CGParams`` adds the constructor parameters every
column-generation estimator shares, with the docstring sections that describe them and the
fitted attributes.  The estimators, each with its own master
(:mod:`marginboost.boosting._masters`), are in :mod:`~marginboost.boosting.lpboost`,
:mod:`~marginboost.boosting.adaboost_cg` and :mod:`~marginboost.boosting.margin_distribution`.
"""

from __future__ import annotations

import time
import warnings
from abc import ABCMeta, abstractmethod
from collections.abc import Iterator
from numbers import Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval

from .._sklearn import constraints
from . import _masters
from ._base import (
    NO_EDGE,
    BinaryBoostingClassifier,
    check_positive_int,
    check_real,
    check_warm_start,
    mark_not_boosted,
)
from ._blas_threads import one_blas_thread

__all__ = ["ColumnGenerationBoosting", "ColumnGenerationError", "ACTIVE_WEIGHT"]

FloatArray = NDArray[np.float64]

_HISTORY_KEYS = (
    "objective",
    "duality_gap",
    "n_active",
    "time",
    "train_error",
    "min_margin",
    "mean_margin",
    "edge",
)

#: Hypothesis weights above this count as active.
ACTIVE_WEIGHT = 1e-9


class ColumnGenerationError(RuntimeError):
    """The restricted master problem failed at some column-generation iteration.

    Parameters
    ----------
    algorithm : str
        Name of the estimator, for the message.
    iteration : int
        1-based column-generation iteration (number of columns in the master).
    status : str
        The solver's status message.

    Attributes
    ----------
    iteration : int
        1-based column-generation iteration (number of columns in the master).
    status : str
        The solver's status message.

    Examples
    --------
    The soft-margin dual (22) of :class:`LPBoost` is infeasible when ``D < 1/M``:

    >>> import numpy as np
    >>> from marginboost import LPBoost
    >>> from marginboost.boosting import ColumnGenerationError
    >>> X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1])
    >>> try:
    ...     LPBoost(D=0.1).fit(X, y)
    ... except ColumnGenerationError as error:
    ...     print("failed at iteration", error.iteration)
    failed at iteration 1
    """

    def __init__(self, algorithm: str, iteration: int, status: str) -> None:
        super().__init__(
            f"{algorithm}: the restricted master failed at column-generation "
            f"iteration {iteration}: {status}"
        )
        self.iteration = iteration
        self.status = status


class ColumnGenerationBoosting(BinaryBoostingClassifier, metaclass=ABCMeta):
    """Column-generation loop shared by the totally-corrective estimators (not used directly).

    Subclasses implement ``_check_params(n_samples)`` and ``_solve_master(A, w0)`` returning a
    :class:`~marginboost.boosting._master_solution.MasterSolution`, and ``_gap(solution, edge)``.
    """

    @abstractmethod
    def _check_params(self, n_samples: int) -> None:
        """Validate the algorithm's parameters for ``n_samples`` training examples."""

    @abstractmethod
    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        """Solve the restricted master over the columns ``A`` (warm start ``w0``)."""

    def _solved_master(
        self, A: FloatArray, w0: FloatArray | None, iteration: int
    ) -> _masters.MasterSolution:
        """``_solve_master(A, w0)``; a solver failure becomes a ``ColumnGenerationError`` that
        names the iteration."""
        try:
            return self._solve_master(A, w0)
        except _masters.MasterSolverError as error:
            raise ColumnGenerationError(type(self).__name__, iteration, error.status) from error

    def _gap(self, solution: _masters.MasterSolution, edge: float) -> float:
        """Duality gap of the full problem certified by the next column's ``edge``."""
        return max(0.0, edge - solution.r)

    #: ``stop_reason_`` of a fit that met its termination criterion
    _stop_reason = "no violated dual constraint"

    def _first_column(self, u: FloatArray, edge: float) -> None:
        """Called once a fit's first tree is found, with the weights ``u`` that asked for it and
        its edge (ERLPBoost's stopping rule starts from them)."""

    def _stops(self, solution: _masters.MasterSolution, next_edge: float, tol: float) -> bool:
        """The termination criterion: no dual constraint violated by more than ``tol``."""
        return next_edge < solution.r + tol

    def _unconverged_reason(
        self, solution: _masters.MasterSolution, next_edge: float, tol: float
    ) -> str:
        """Why the last iteration did not stop, for the ``ConvergenceWarning``."""
        return (
            f"the next weak classifier's edge {next_edge:.6g} still exceeds the master's bound "
            f"r + tol = {solution.r + tol:.6g} (Shen & Li's termination criterion)"
        )

    def _next_column(
        self, learner: Any, codes: Any, y_signed: FloatArray, u: FloatArray, bound: float
    ) -> tuple[Any, FloatArray, float]:
        """The oracle's tree for the master's dual weights ``u``, its predictions and its edge
        ``u @ (y h)``; training stops when the edge is below ``bound`` (r + tol)."""
        tree = learner.fit_binary(codes, y_signed, self._oracle_weights(u))
        h = tree.predict(codes)
        return tree, h, float(u @ (y_signed * h))

    def _more_columns(
        self,
        learner: Any,
        codes: Any,
        y_signed: FloatArray,
        u: FloatArray,
        bound: float,
        tree: Any,
    ) -> list[tuple[Any, FloatArray]]:
        """Columns added beside the oracle's ``tree`` in the same iteration (trees and their
        predictions); none here: one column per iteration."""
        return []

    def _oracle_weights(self, u: FloatArray) -> FloatArray:
        r"""Example weights handed to the weak learner, whose tree maximizes
        :math:`\sum_i u_i y_i h(x_i)`; the dual weights of these masters are non-negative
        (up to solver rounding, clipped here)."""
        return np.clip(u, 0.0, None)

    def _previous_fit(self) -> dict[str, Any] | None:
        """What ``warm_start`` continues from: the fitted state, or ``None`` before a fit."""
        if not hasattr(self, "_stage_weights"):
            return None
        names = ("classes_", "n_features_in_", "mapper_", "estimators_", "_stage_weights")
        state = {name: getattr(self, name) for name in names}
        state["history_"] = self.history_
        return state

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> ColumnGenerationBoosting:
        """Run column generation until no dual constraint is violated by more than ``tol``.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
            Training inputs (finite values).
        y : array of shape (n_samples,)
            Labels, exactly two distinct values.
        sample_weight : array of shape (n_samples,), optional
            Only uniform weights are accepted: the master problems weigh every example
            equally (Shen & Li 2010, eqs. (5), (20), (22)); other weights raise ``ValueError``.

        Returns
        -------
        self

        Raises
        ------
        ColumnGenerationError
            When a restricted master cannot be solved (names the iteration and the status).
        """
        with one_blas_thread():
            previous = self._previous_fit() if self.warm_start else None
            X, y_signed, weights = self._validate_training_data(X, y, sample_weight)
            self._refuse_non_uniform_weights(
                sample_weight, weights, "the restricted master problems weigh every example equally"
            )
            n_iterations = check_positive_int(self.n_estimators, "n_estimators")
            tol = check_real(self.tol, "tol", 0.0, low_inclusive=True)
            if previous is not None:
                check_warm_start(self, previous, n_iterations, "columns")
            self._check_params(X.shape[0])
            # a warm start's trees split on the previous fit's bins
            codes = self._bin(X, None if previous is None else previous["mapper_"])
            learner = self._weak_learner_template("error")
            M = y_signed.shape[0]
            self.stop_reason_ = "n_estimators"
            self.converged_ = False
            start = time.perf_counter()
            if previous is None:
                u = np.full(M, 1.0 / M)
                columns: list[FloatArray] = []
                estimators: list[Any] = []
                stage_weights: list[FloatArray] = []
                history: dict[str, list[float]] = {key: [] for key in _HISTORY_KEYS}
                elapsed = 0.0
                tree = learner.fit_binary(codes, y_signed, self._oracle_weights(u))
                h = tree.predict(codes)
                edge = float(u @ (y_signed * h))
                self._first_column(u, edge)
                first_edge: float | None = edge
                w = None
            else:
                # Re-solve the master over the previous fit's columns (on this X) and certify it.
                estimators = list(previous["estimators_"])
                columns = [y_signed * tree.predict(codes) for tree in estimators]
                stage_weights = list(previous["_stage_weights"])
                history = {key: list(value) for key, value in previous["history_"].items()}
                elapsed = float(history["time"][-1]) if history["time"] else 0.0
                solution = self._solved_master(
                    np.column_stack(columns), stage_weights[-1], len(estimators)
                )
                w, u = solution.w, solution.u
                stage_weights[-1] = w.copy()
                next_tree, next_h, next_edge = self._next_column(
                    learner, codes, y_signed, u, solution.r + tol
                )
                if self._stops(solution, next_edge, tol):
                    self.stop_reason_ = self._stop_reason
                    self.converged_ = True
                tree, h, edge = next_tree, next_h, next_edge
                first_edge = None
            extra: list[tuple[Any, FloatArray]] = []  # more columns of one iteration
            while not self.converged_ and len(estimators) < n_iterations:
                for more_tree, more_h in [(tree, h), *extra][: n_iterations - len(estimators)]:
                    estimators.append(more_tree)
                    columns.append(y_signed * more_h)
                A = np.column_stack(columns)
                w0 = None if w is None else np.append(w, np.zeros(A.shape[1] - w.size))
                solution = self._solved_master(A, w0, len(stage_weights) + 1)
                w, u = solution.w, solution.u
                stage_weights.append(w.copy())
                margins = A @ w
                norm = float(w.sum())
                history["objective"].append(solution.objective)
                history["n_active"].append(int(np.count_nonzero(w > ACTIVE_WEIGHT)))
                history["train_error"].append(float(np.count_nonzero(margins <= 0)) / M)
                history["min_margin"].append(float(margins.min() / norm))
                history["mean_margin"].append(float(margins.mean() / norm))
                history["edge"].append(edge)
                # the next oracle call also certifies the current solution
                next_tree, next_h, next_edge = self._next_column(
                    learner, codes, y_signed, u, solution.r + tol
                )
                history["duality_gap"].append(self._gap(solution, next_edge))
                history["time"].append(elapsed + time.perf_counter() - start)
                if self._stops(solution, next_edge, tol):
                    self.stop_reason_ = self._stop_reason
                    self.converged_ = True
                    break
                tree, h, edge = next_tree, next_h, next_edge
                # the next iteration has room for more than the oracle's tree only below the cap
                extra = (
                    self._more_columns(learner, codes, y_signed, u, solution.r + tol, tree)
                    if len(estimators) + 1 < n_iterations
                    else []
                )
            if first_edge is not None and first_edge <= NO_EDGE:
                # no weak classifier beats chance on the uniform weights: whatever the master made
                # of such columns (the model), nothing was boosted
                mark_not_boosted(
                    self,
                    f"the best weak classifier on the uniform example weights has edge "
                    f"{first_edge:.3g}",
                    stacklevel=2,
                )
            elif not self.converged_:
                warnings.warn(
                    f"{type(self).__name__} stopped at n_estimators={n_iterations} columns without "
                    f"certifying its optimum: {self._unconverged_reason(solution, next_edge, tol)}. "
                    "The model is the restricted master's solution; raise "
                    "n_estimators to reach the optimum (with warm_start=True the next fit goes on "
                    "from here).",
                    ConvergenceWarning,
                    stacklevel=2,
                )
            self.history_ = {
                key: np.asarray(value, dtype=np.float64) for key, value in history.items()
            }
            assert w is not None  # at least one iteration ran
            self._set_stages(estimators, np.ones(len(estimators)), w)
            self._stage_weights = stage_weights
            self.dual_weights_ = u
            self.n_iterations_ = len(stage_weights)
            return self

    def staged_decision_function(self, X: ArrayLike) -> Iterator[FloatArray]:
        """Yield, after each iteration ``t``, the score of the master solution of iteration t."""
        codes = self._codes(X)
        predictions = np.column_stack([tree.predict(codes) for tree in self.estimators_])
        for weights in self._stage_weights:
            yield predictions[:, : weights.size] @ weights


_COMMON_DOC = """
    n_estimators : int, default=100
        Maximum number of column-generation iterations (columns).
    max_depth : int, default=1
        Depth of the weak decision trees (1 = stumps), ignored when ``estimator`` is given.
    estimator : weak learner, optional
        A weak learner with ``fit_binary`` (e.g. ``marginboost.weak.DecisionTree``).
    max_bins : int, default=255
        Number of feature bins.
    tol : float, default=1e-5
        Stop when the next column's edge is below ``r + tol`` (Shen & Li use 1e-5).
    random_state : int, optional
        Unused (the method is deterministic); kept for a uniform interface.
    warm_start : bool, default=False
        When True, ``fit`` goes on from the previous fit: it re-solves the master over the
        columns of the trees already fitted (on the ``X`` given), certifies the solution and
        adds columns until the termination criterion holds or ``n_estimators`` columns in
        all; ``history_`` and ``staged_decision_function`` continue the previous fit's (its
        ``time`` counts on from the previous fit's). ``n_estimators`` must be at least the
        columns already fitted. Long fits can so be run in parts and saved in between
        (``pickle``); :class:`LPBoost` then restarts its master from the last optimal basis.
"""

#: The fitted attributes of every column-generation estimator (numpydoc ``Attributes``).
_ATTRIBUTES = r"""
    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is coded :math:`+1`.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features,)
        Names of the features seen in ``fit``; defined only when ``X`` has string column names.
    mapper_ : BinMapper or RawFeatures
        The feature binning fitted on the training inputs.
    estimators_ : list of FittedTree
        The weak classifiers :math:`h_j` returned by the oracle, one per column of the master,
        in the order they were generated (columns whose final weight is 0 included).
    alphas_ : ndarray of shape (n_estimators\_,)
        The primal weights :math:`w` of the last restricted master: they sum to 1 for the
        margin-based masters (LPBoost, HingeLPBoost, MCBoost, MDBoost) and to :math:`1/T` for
        AdaBoost-CG and LogitBoost-CG.
    n_estimators_ : int
        Number of columns generated.
    n_iterations_ : int
        Number of column-generation iterations (restricted masters solved); equals
        ``n_estimators_`` with one column per iteration (fewer with LPBoost's
        ``columns_per_iteration``).
    dual_weights_ : ndarray of shape (n_samples,)
        The example weights :math:`u` of the last restricted master (its dual solution), under
        which the last oracle call was made; signed for MCBoost and MDBoost.
    converged_ : bool
        Whether the termination criterion was met (no dual constraint violated by more than
        ``tol``); ``False`` after ``n_estimators`` columns, with a ``ConvergenceWarning``.
    stop_reason_ : str
        ``"no violated dual constraint"``, ``"n_estimators"``, or ``"no edge"`` when no weak
        classifier beats chance on the uniform weights (with a
        :class:`~marginboost.boosting.NotBoostedWarning`; ``converged_`` is then ``False``).
    history_ : dict of str to ndarray
        One entry per iteration: ``objective``, ``duality_gap``, ``n_active``, ``time``,
        ``train_error``, ``min_margin``, ``mean_margin`` and ``edge`` (see
        :mod:`marginboost.boosting.corrective`).
"""


_POSITIVE = [Interval(Real, 0.0, float("inf"), closed="neither")]


class _CGParams(ColumnGenerationBoosting):
    # tol < 1: edges and r lie in [-1, 1], so a tolerance of 1 or more stops after one column
    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators",
        "max_depth",
        "estimator",
        "max_bins",
        "random_state",
        "warm_start",
        tol=[Interval(Real, 0.0, 1.0, closed="left")],
    )

    def _set_common(
        self,
        n_estimators: int,
        max_depth: int,
        estimator: Any,
        max_bins: int,
        tol: float,
        random_state: int | None,
        warm_start: bool = False,
    ) -> None:
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.estimator = estimator
        self.max_bins = max_bins
        self.tol = tol
        self.random_state = random_state
        self.warm_start = warm_start
