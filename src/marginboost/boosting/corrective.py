r"""Totally-corrective boosting by column generation: LPBoost, AdaBoost-CG, LogitBoost-CG.

Shen & Li (2010), "On the dual formulation of boosting algorithms", IEEE TPAMI 32(12), Sec. 3.7
(Algorithm 2), and Demiriz, Bennett & Shawe-Taylor (2002) solve a convex problem over the
non-negative combinations of *all* weak hypotheses through its dual, adding one dual
constraint (one column of :math:`A_{ij} = y_i h_j(x_i)`) at a time:

1. start from uniform example weights :math:`u_i = 1/M`;
2. ask the weak learner for :math:`h = \arg\max_h \sum_i u_i y_i h(x_i)` (the most violated
   dual constraint, eq. (42));
3. if its edge is below :math:`r + \varepsilon` (:math:`\varepsilon` = ``tol``; ``r``: the dual variable of the restricted
   master, the largest edge it allows) no dual constraint is violated by more than
   :math:`\varepsilon` and the current combination is optimal up to :math:`\varepsilon`: stop;
4. otherwise add the column, re-solve the restricted master for :math:`(w, u, r)` (every
   weight is re-optimised: "totally corrective") and go to 2.

The masters (:mod:`marginboost.boosting._masters`):

* :class:`LPBoost`: hard-margin dual (20) or soft-margin dual (22) (HiGHS, one model per fit
  that grows by a row per column and is re-solved warm by the dual simplex method);
* :class:`AdaBoostCG`: the AdaBoost-:math:`\ell_1` primal (5) over
  :math:`\{w\ge0, \mathbf 1^\top w = 1/T\}`, dual (15), :math:`u = \mathrm{softmax}(-Aw)` (24);
* :class:`LogitBoostCG`: the LogitBoost primal (32), dual (31), :math:`u_i = 1/(1+e^{(Aw)_i})`;
* :class:`HingeLPBoost`: the generalized-hinge dual (27)/(28) (Clarabel).

``history_`` holds one entry per iteration (per master solve): ``objective`` (the master's
optimal value: (20)/(22) min-max edge, (5), (32), or (28)), ``duality_gap`` (certified gap
of the *full* problem after the iteration, from the edge ``e`` of the next oracle column: the
restricted dual solution with :math:`r' = \max(r, e)` is feasible for the full dual, so the gap is
``max(0, e - r)`` for the LPs and :math:`r' + T\,\psi(u) + T\,\mathrm{Opt}` for (15)/(31),
:math:`\psi` the (binary) negative entropy; exact when the weak learner is an exact oracle, e.g.
stumps), ``n_active`` (columns with :math:`w_j > 10^{-9}`), ``time`` (seconds since the start of
``fit``), ``train_error``, ``min_margin`` and ``mean_margin`` (normalized margins of the master's
combination), and ``edge`` (edge of the column added in that iteration under the example
weights that selected it).

``staged_decision_function`` yields, after iteration ``t``, the master solution of iteration
``t`` (the weights are re-optimised every iteration, so the stages are not partial sums of the
final ``alphas_``).  Failures of a master raise :class:`ColumnGenerationError`.
"""

from __future__ import annotations

import hashlib
import time
import warnings
from abc import ABCMeta, abstractmethod
from collections.abc import Iterator
from numbers import Integral, Real
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

__all__ = [
    "ColumnGenerationBoosting",
    "LPBoost",
    "AdaBoostCG",
    "LogitBoostCG",
    "HingeLPBoost",
    "ColumnGenerationError",
    "adaboost_T_heuristic",
    "MCBoost",
    "MDBoost",
]

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
    :class:`~marginboost.boosting._masters.MasterSolution`, and ``_gap(solution, edge)``.
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
        self.history_ = {key: np.asarray(value, dtype=np.float64) for key, value in history.items()}
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


class LPBoost(_CGParams):
    __doc__ = (
        r"""LPBoost by column generation (Grove & Schuurmans 1998; Demiriz et al. 2002).

    Hard margin (``D`` and ``nu`` both ``None``): maximise the minimum normalized margin, dual
    (20).  Soft margin: maximise :math:`\varrho - D\sum_i\xi_i`, dual (22) with
    :math:`0 \le u_i \le D`, equivalently the average of the :math:`1/D` smallest margins;
    ``nu`` gives :math:`D = 1/(\nu M)`.  ``alphas_`` sum to 1.

    Parameters
    ----------
    D : float, optional
        Upper bound on the example weights; must be at least :math:`1/M` (else the dual is
        infeasible and :class:`ColumnGenerationError` is raised).
    nu : float in (0, 1], optional
        Alternative to ``D``: :math:`D = 1/(\nu M)`.
    smoothing : float in [0, 1), default 0.0
        Dual smoothing of the column generation (Wentges 1997): the weak learner is first
        asked for the tree of the weights :math:`\beta\bar u + (1 - \beta)u`, with
        :math:`\beta` = ``smoothing``, :math:`u` the master's dual weights and :math:`\bar u`
        the weights whose best tree had the smallest edge so far (the stability centre); that
        tree is added when it violates the master's dual constraint at :math:`u`, otherwise the
        tree of :math:`u` itself is asked for (a "mis-pricing").  Training still stops only
        when the tree of :math:`u` does not violate it (the termination test above), so the
        optimum is the same; the smoothing damps the oscillation of :math:`u` that makes plain
        LPBoost add many columns on degenerate problems.  0 is plain column generation.
    columns_per_iteration : int, default 1
        Columns the master receives per iteration (multiple pricing): beside the oracle's
        tree, the best trees whose root splits on another feature than the trees already
        taken this iteration (``DecisionTree.fit_binary``'s ``exclude_root_features``), each
        added when it violates the master's dual constraint, up to this many in all.  The
        oracle's tree is always among them, so the termination test is the same, and so is
        the optimum with an exact oracle (stumps); greedy deeper trees are not one, and the
        runner-up trees can then lift the restricted LP above what the oracle's trees alone
        reach.  The simplex re-solve after several rows costs far fewer pivots per row than
        one re-solve per row (measured on Adult in the LPBoost convergence benchmark).  Needs
        the built-in tree learner (``estimator`` left ``None``).  1 is one column per
        iteration, as in the papers.
    """
        + _COMMON_DOC.replace("n_estimators : int, default=100", "n_estimators : int, default=1000")
        + _ATTRIBUTES
        + r"""    D_ : float or None
        The bound :math:`D` on the example weights used in the fit (``None`` for the hard
        margin).
    mispricings_ : int
        With ``smoothing``: iterations whose smoothed tree did not violate the master's
        constraint, so that the tree of :math:`u` was asked for as well.

    Notes
    -----
    Shen & Li (2010a): the hard-margin LPBoost of Grove & Schuurmans (1998) maximises the
    minimum normalized margin, primal (19) and dual (20); the soft-margin LPBoost of Demiriz,
    Bennett & Shawe-Taylor (2002) is the primal (21) with the dual (22), feasible only for
    :math:`D \ge 1/M`.  Demiriz et al.'s parametrisation by :math:`\nu` corresponds to
    :math:`D = 1/(\nu M)`.  The optimal value of (22) with :math:`D = 1/n'` is the largest
    average of the :math:`n'` smallest normalized margins (Shalev-Shwartz & Singer 2010), the
    objective of DirectBoost's phase 2.
    Column generation follows Shen & Li's Sec. 3.7 (Algorithm 2): the oracle (42) returns
    :math:`\arg\max_h \sum_i u_i y_i h(x_i)` for the current dual weights, and training
    stops when its edge is below :math:`r + \varepsilon`.

    References
    ----------
    Demiriz, A., Bennett, K. P. and Shawe-Taylor, J. (2002). Linear programming boosting via
    column generation. Machine Learning 46(1-3), 225-254.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Shalev-Shwartz, S. and Singer, Y. (2010). On the equivalence of weak learnability and linear
    separability: new relaxations and efficient boosting algorithms. Machine Learning
    80(2-3), 141-163.

    Wentges, P. (1997). Weighted Dantzig-Wolfe decomposition for linear mixed-integer
    programming. International Transactions in Operational Research 4(2), 151-162.
    """
    )

    _algorithm_name = "LPBoost"
    #: with ``warm_start``: fingerprint and final basis of the last fit's master
    _master_key: str
    _master_basis: tuple[NDArray[np.int8], NDArray[np.int8]]
    _kept_master: _masters.LPBoostMaster | None
    _parameter_constraints: dict[str, Any] = {
        **_CGParams._parameter_constraints,
        "D": [*_POSITIVE, None],
        "nu": [Interval(Real, 0.0, 1.0, closed="right"), None],
        "smoothing": [Interval(Real, 0.0, 1.0, closed="left")],
        "columns_per_iteration": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        D: float | None = None,
        nu: float | None = None,
        *,
        n_estimators: int = 1000,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 1e-5,
        random_state: int | None = None,
        smoothing: float = 0.0,
        columns_per_iteration: int = 1,
        warm_start: bool = False,
    ) -> None:
        self.D = D
        self.nu = nu
        self.smoothing = smoothing
        self.columns_per_iteration = columns_per_iteration
        self._set_common(
            n_estimators, max_depth, estimator, max_bins, tol, random_state, warm_start
        )

    def _check_params(self, n_samples: int) -> None:
        if self.D is not None and self.nu is not None:
            raise ValueError(f"give D or nu, not both; got D={self.D!r}, nu={self.nu!r}")
        self._smoothing = check_real(self.smoothing, "smoothing", 0.0, 1.0, low_inclusive=True)
        if self._smoothing >= 1.0:
            raise ValueError(f"smoothing must be in [0, 1); got {self.smoothing!r}")
        self._columns_per_iteration = check_positive_int(
            self.columns_per_iteration, "columns_per_iteration"
        )
        if self._columns_per_iteration > 1 and self.estimator is not None:
            raise ValueError(
                "columns_per_iteration > 1 needs the built-in tree learner (its "
                "exclude_root_features); leave estimator=None or set columns_per_iteration=1"
            )
        self._center: FloatArray | None = None
        self._center_edge = np.inf
        self.mispricings_ = 0
        self.D_: float | None
        if self.nu is not None:
            self.D_ = 1.0 / (check_real(self.nu, "nu", 0.0, 1.0) * n_samples)
        elif self.D is not None:
            self.D_ = check_real(self.D, "D", 0.0)
        else:
            self.D_ = None

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> LPBoost:
        """Run column generation (see :meth:`ColumnGenerationBoosting.fit`).

        The restricted master is one :class:`~marginboost.boosting._masters.LPBoostMaster`
        per fit: each iteration adds the new column as one edge constraint and re-solves from
        the previous optimal basis.  It is dropped when ``fit`` returns (a HiGHS model is
        neither picklable nor needed for prediction), unless ``warm_start`` is set: then the
        next fit goes on with it, and a pickle keeps its final basis, from which the master
        rebuilt after unpickling restarts.
        """
        kept = self.__dict__.pop("_master", None) if self.warm_start else None
        if not self.warm_start:
            self.__dict__.pop("_master_basis", None)
            self.__dict__.pop("_master_key", None)
        self._kept_master = kept
        self._master: _masters.LPBoostMaster | None = None
        self._last_columns: FloatArray | None = None
        try:
            super().fit(X, y, sample_weight)
            if self.warm_start and self._master is not None and self._last_columns is not None:
                # kept for the next warm-started fit; a pickle keeps the basis only
                self._master_key = self._columns_key(self._last_columns)
                self._master_basis = self._master.get_basis()
                return self
            del self._master
            return self
        except BaseException:
            self.__dict__.pop("_master", None)
            raise
        finally:
            self._kept_master = None
            self._last_columns = None
            self._center = None

    def __getstate__(self) -> dict[str, Any]:
        # a HiGHS model is not picklable: a warm start after unpickling rebuilds the master
        # from the trees and restarts it from the kept basis
        state = dict(super().__getstate__())
        for name in ("_master", "_kept_master", "_last_columns"):
            state.pop(name, None)
        return state

    def _columns_key(self, A: FloatArray) -> str:
        """Fingerprint of a master: its columns and its bound D."""
        digest = hashlib.blake2b(np.ascontiguousarray(A).tobytes(), digest_size=16)
        digest.update(repr(self.D_).encode())
        return digest.hexdigest()

    def _restarted_master(self, A: FloatArray) -> _masters.LPBoostMaster:
        """The master of a warm-started fit's first solve: the previous fit's own master when
        these are its columns, else a new one over them, started from the previous fit's
        final basis when these are its columns (an unpickled model), else from scratch."""
        kept, self._kept_master = self._kept_master, None
        if not self.warm_start or "_master_key" not in self.__dict__:
            return _masters.LPBoostMaster(A.shape[0], self.D_)
        same = self._columns_key(A) == self._master_key
        if same and kept is not None and kept.n_columns == A.shape[1]:
            return kept
        master = _masters.LPBoostMaster(A.shape[0], self.D_)
        if same:
            master.add_columns(A)
            master.set_basis(*self._master_basis)
        return master

    def _next_column(
        self, learner: Any, codes: Any, y_signed: FloatArray, u: FloatArray, bound: float
    ) -> tuple[Any, FloatArray, float]:
        """Dual smoothing (see ``smoothing``): the tree of the smoothed weights when it
        violates the master's constraint at ``u``, else the tree of ``u``.  Every tree asked
        for bounds the LP's optimum from above by its edge at the weights it was asked for
        (as far as the weak learner finds the best tree): the smallest such edge so far marks
        the stability centre."""
        beta = self._smoothing
        if beta > 0.0 and self._center is not None:
            q = beta * self._center + (1.0 - beta) * u
            tree = learner.fit_binary(codes, y_signed, self._oracle_weights(q))
            h = tree.predict(codes)
            a = y_signed * h
            self._move_center(q, float(q @ a))
            edge = float(u @ a)
            if not edge < bound:
                return tree, h, edge
            self.mispricings_ += 1
        tree, h, edge = super()._next_column(learner, codes, y_signed, u, bound)
        if beta > 0.0:
            self._move_center(u, edge)
        return tree, h, edge

    def _more_columns(
        self,
        learner: Any,
        codes: Any,
        y_signed: FloatArray,
        u: FloatArray,
        bound: float,
        tree: Any,
    ) -> list[tuple[Any, FloatArray]]:
        """Multiple pricing (see ``columns_per_iteration``): the best trees under the next
        ``columns_per_iteration - 1`` root features after ``tree``'s, each kept when its edge at
        ``u`` reaches ``bound``."""
        more: list[tuple[Any, FloatArray]] = []
        excluded = [int(f) for f in tree.node_feature[:1] if f >= 0]
        weights = self._oracle_weights(u)
        for _ in range(self._columns_per_iteration - 1 if excluded else 0):
            other = learner.fit_binary(codes, y_signed, weights, exclude_root_features=excluded)
            if other.node_feature[0] < 0:  # no root split left
                break
            excluded.append(int(other.node_feature[0]))
            h = other.predict(codes)
            if float(u @ (y_signed * h)) >= bound:
                more.append((other, h))
        return more

    def _move_center(self, weights: FloatArray, edge: float) -> None:
        if self._center is None or edge < self._center_edge:
            self._center, self._center_edge = weights.copy(), edge

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        master = getattr(self, "_master", None)
        if master is None or master.n_examples != A.shape[0] or master.n_columns > A.shape[1]:
            master = self._master = self._restarted_master(A)
        # the loop appends one column per call; add whatever the master has not seen yet
        if master.n_columns < A.shape[1]:
            master.add_columns(A[:, master.n_columns :])
        self._last_columns = A
        return master.solve()


class ERLPBoost(_CGParams):
    __doc__ = (
        r"""ERLPBoost (Warmuth, Glocer & Vishwanathan 2008): entropy-regularised LPBoost.

    Maximises the soft margin of LPBoost's dual (22) to within ``tol`` (:math:`\varepsilon`) in
    :math:`O(\ln(1/\nu)/\varepsilon^2)` iterations -- a bound plain LPBoost lacks; its slow
    tail is what the regularisation removes.  Each iteration solves the restricted master
    :math:`d^t = \arg\min_d P^t(d)` over the capped simplex :math:`\{\mathbf 1^\top d = 1,
    0 \le d \le D\}`,

    .. math:: P^t(d) = \max_{q \le t}\ \textstyle\sum_i d_i y_i h_q(x_i)
              + \tfrac1\eta\,\Delta(d, \mathbf 1/M),

    :math:`\Delta` the relative entropy, through its dual over the hypothesis weights
    (:func:`~marginboost.boosting._masters.solve_erlpboost`).  Training stops when
    :math:`\min_{q \le t+1} P^q(d^{q-1}) - P^t(d^t) \le \varepsilon/2`: the best value any
    oracle call has certified is within :math:`\varepsilon/2` of the master's.  ``alphas_`` (the
    master's hypothesis weights) sum to 1.

    Parameters
    ----------
    D : float, optional
        Cap on the example weights (:math:`D \ge 1/M`); ``None`` (and ``nu=None``) for no cap
        (:math:`D = 1`, the hard margin).
    nu : float in (0, 1], optional
        Alternative to ``D``: :math:`D = 1/(\nu M)`, the fraction of examples allowed to fall
        below the soft margin (Warmuth et al.'s capping parameter is :math:`\nu M`).
    eta : float, optional
        Regularisation strength :math:`\eta`; ``None`` takes the paper's
        :math:`\max(1/2,\ (2/\varepsilon)\ln(MD))`, which makes the entropy term at most
        :math:`\varepsilon/2`.
    """
        + _COMMON_DOC.replace(
            "n_estimators : int, default=100", "n_estimators : int, default=1000"
        ).replace(
            "    tol : float, default=1e-5\n"
            "        Stop when the next column's edge is below ``r + tol`` (Shen & Li use 1e-5).\n",
            "    tol : float in (0, 1), default=0.01\n"
            "        The accuracy :math:`\\varepsilon`: stop when the soft margin is certified to\n"
            "        within ``tol / 2`` of the regularised master's value (see above); it also\n"
            "        sets the default ``eta``.\n",
        )
        + _ATTRIBUTES.replace(
            '``"no violated dual constraint"``, ``"n_estimators"``, or',
            '``"accuracy reached"`` (the stopping rule above), ``"n_estimators"``, or',
        )
        + r"""    D_ : float
        The cap :math:`D` used in the fit (1 without a cap).
    eta_ : float
        The regularisation :math:`\eta` used in the fit.

    Notes
    -----
    The soft margin of a combination :math:`w` is the optimal value of LPBoost's (21) for that
    :math:`w`: the average of its :math:`1/D` smallest normalized margins.  Because the entropy
    term is at most :math:`\ln(MD)/\eta \le \varepsilon/2`, the stopping rule guarantees that
    the soft margin of ``alphas_`` is within :math:`\varepsilon` of the largest soft margin over
    all combinations of the weak classifiers, when the weak learner is an exact oracle (e.g.
    stumps).  Without a cap the master is AdaBoost-:math:`\ell_1`'s dual (15) of Shen & Li
    (2010a) with :math:`T = 1/\eta`.  The final weights are the last master's, as in the
    ``miniboosts`` implementation.

    References
    ----------
    Warmuth, M. K., Glocer, K. A. and Vishwanathan, S. V. N. (2008). Entropy regularized
    LPBoost. Algorithmic Learning Theory (ALT 2008), LNCS 5254, 256-271.
    """
    )

    _algorithm_name = "ERLPBoost"
    _stop_reason = "accuracy reached"
    _parameter_constraints: dict[str, Any] = {
        **_CGParams._parameter_constraints,
        "D": [*_POSITIVE, None],
        "nu": [Interval(Real, 0.0, 1.0, closed="right"), None],
        "eta": [*_POSITIVE, None],
        "tol": [Interval(Real, 0.0, 1.0, closed="neither")],
    }

    def __init__(
        self,
        D: float | None = None,
        nu: float | None = None,
        *,
        eta: float | None = None,
        n_estimators: int = 1000,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 0.01,
        random_state: int | None = None,
        warm_start: bool = False,
    ) -> None:
        self.D = D
        self.nu = nu
        self.eta = eta
        self._set_common(
            n_estimators, max_depth, estimator, max_bins, tol, random_state, warm_start
        )

    def _check_params(self, n_samples: int) -> None:
        if self.D is not None and self.nu is not None:
            raise ValueError(f"give D or nu, not both; got D={self.D!r}, nu={self.nu!r}")
        if self.nu is not None:
            self.D_ = 1.0 / (check_real(self.nu, "nu", 0.0, 1.0) * n_samples)
        elif self.D is not None:
            self.D_ = check_real(self.D, "D", 0.0)
            if self.D_ * n_samples < 1.0:
                raise ValueError(
                    f"D must be at least 1/M = {1.0 / n_samples:.6g} for M = {n_samples} "
                    f"examples (else no distribution fits under the cap); got D={self.D!r}"
                )
        else:
            self.D_ = 1.0
        tol = check_real(self.tol, "tol", 0.0, 1.0)
        if self.eta is None:
            log_cap = float(np.log(max(n_samples * min(self.D_, 1.0), 1.0)))
            self.eta_ = max(0.5, 2.0 / tol * log_cap)
        else:
            self.eta_ = check_real(self.eta, "eta", 0.0)
        if not (self.warm_start and hasattr(self, "_stage_weights")):
            self._best_certified = np.inf  # min_q P^q(d^{q-1}), carried by a warm start

    def _regularised_value(self, u: FloatArray, largest_edge: float) -> float:
        return largest_edge + _masters.relative_entropy_to_uniform(u) / self.eta_

    def _first_column(self, u: FloatArray, edge: float) -> None:
        # P^1(d^0): the first tree's edge at the uniform weights (whose relative entropy is 0)
        self._best_certified = self._regularised_value(u, edge)

    def _accuracy(self, solution: _masters.MasterSolution, next_edge: float) -> float:
        """:math:`\\min_{q \\le t+1} P^q(d^{q-1}) - P^t(d^t)` after master ``t``."""
        certified = self._regularised_value(solution.u, max(solution.r, next_edge))
        best = min(self._best_certified, certified)
        self._best_certified = best
        return max(0.0, best - self._regularised_value(solution.u, solution.r))

    def _gap(self, solution: _masters.MasterSolution, edge: float) -> float:
        return self._accuracy(solution, edge)

    def _stops(self, solution: _masters.MasterSolution, next_edge: float, tol: float) -> bool:
        return self._accuracy(solution, next_edge) <= tol / 2.0

    def _unconverged_reason(
        self, solution: _masters.MasterSolution, next_edge: float, tol: float
    ) -> str:
        return (
            f"the certified accuracy {self._accuracy(solution, next_edge):.6g} still exceeds "
            f"tol / 2 = {tol / 2:.6g} (Warmuth et al.'s stopping rule)"
        )

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_erlpboost(A, self.D_, self.eta_, w0)


class AdaBoostCG(_CGParams):
    __doc__ = (
        r"""AdaBoost-CG (Shen & Li 2010, Algorithm 2): totally-corrective AdaBoost-l1.

    Minimises :math:`\log\sum_i\exp(-y_iF(x_i))` over :math:`F = \sum_j w_jh_j`,
    :math:`w \ge 0`, :math:`\mathbf 1^\top w = 1/T` (eq. (5)) by column generation on the
    entropy-regularised dual (15).  The restricted master is solved in the primal with a
    projected accelerated gradient method warm-started from the previous weights
    (:func:`~marginboost.boosting._masters.solve_adaboost_l1`); ``u = softmax(-Aw)`` (24).

    Parameters
    ----------
    T : float
        Regularisation: ``alphas_`` sum to ``1/T``.  Shen & Li (Table IV) take
        ``T = 1 / sum(w)`` of a 1000-round AdaBoost (:func:`adaboost_T_heuristic`).
    """
        + _COMMON_DOC
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Shen & Li (2010a), Theorem 3.1: the Lagrange dual of the :math:`\ell_1`-constrained
    AdaBoost (5) is (10), equivalently the entropy-regularised LPBoost (15), and the KKT
    conditions give the AdaBoost weights (24).
    Column generation follows Shen & Li's Sec. 3.7 (Algorithm 2): the oracle (42) returns
    :math:`\arg\max_h \sum_i u_i y_i h(x_i)` for the current dual weights, and training
    stops when its edge is below :math:`r + \varepsilon`.  Shen & Li compare it with AdaBoost
    in their Table IV (with ``T`` from :func:`adaboost_T_heuristic`) and Table V (``T`` chosen
    by cross-validation).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.
    """
    )

    _algorithm_name = "AdaBoost-CG"
    _proba_link = "exponential"
    _parameter_constraints: dict[str, Any] = {**_CGParams._parameter_constraints, "T": _POSITIVE}

    def __init__(
        self,
        T: float = 0.05,
        *,
        n_estimators: int = 100,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 1e-5,
        random_state: int | None = None,
        warm_start: bool = False,
    ) -> None:
        self.T = T
        self._set_common(
            n_estimators, max_depth, estimator, max_bins, tol, random_state, warm_start
        )

    def _check_params(self, n_samples: int) -> None:
        check_real(self.T, "T", 0.0)

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_adaboost_l1(A, float(self.T), w0)

    def _gap(self, solution: _masters.MasterSolution, edge: float) -> float:
        return solution.duality_gap + max(0.0, edge - solution.r)


class LogitBoostCG(AdaBoostCG):
    __doc__ = (
        r"""LogitBoost-CG (Shen & Li 2010, Sec. 3.4): totally-corrective LogitBoost.

    Minimises :math:`\sum_i\log(1+\exp(-y_iF(x_i)))` with :math:`w \ge 0`,
    :math:`\mathbf 1^\top w = 1/T` (eq. (32)); dual (31); example weights
    :math:`u_i = 1/(1+\exp(y_iF(x_i)))` (33), not normalised.

    Parameters
    ----------
    T : float
        Regularisation: ``alphas_`` sum to ``1/T``.
    """
        + _COMMON_DOC
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Shen & Li (2010a), Sec. 3.4 and Theorem 3.2: the :math:`\ell_1`-constrained logistic loss
    (32) has the binary-entropy-regularised dual (31), whose weights (33) are bounded by 1 but
    not normalised.
    Column generation follows Shen & Li's Sec. 3.7 (Algorithm 2): the oracle (42) returns
    :math:`\arg\max_h \sum_i u_i y_i h(x_i)` for the current dual weights, and training
    stops when its edge is below :math:`r + \varepsilon`.  The experiments are in their
    Table VIII.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.
    """
    )

    _algorithm_name = "LogitBoost-CG"
    _proba_link = "logistic"

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_logitboost(A, float(self.T), w0)


class HingeLPBoost(_CGParams):
    __doc__ = (
        r"""Soft-margin LPBoost with a generalized hinge loss (Shen & Li 2010, eqs. 27-28).

    Maximises :math:`\varrho - D\sum_i\xi_i^p` (``p = 2``: squared hinge) over
    :math:`\mathbf 1^\top w = 1`, :math:`w \ge 0`, by column generation on the
    Tsallis-regularised dual (28), solved with Clarabel.

    Parameters
    ----------
    D : float, default=1.0
        Weight of the slack penalty (positive).
    p : float, default=2.0
        Exponent of the hinge, ``p > 1``.
    """
        + _COMMON_DOC.replace("n_estimators : int, default=100", "n_estimators : int, default=1000")
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Shen & Li (2010a), eqs. (27)-(29): the soft-margin LPBoost with the generalized hinge loss
    :math:`\xi_i^p` has the dual (27) (:math:`p = 2`) or, in general, (28), with
    :math:`1/p + 1/q = 1`: LPBoost regularised by the Tsallis entropy (29).
    Column generation follows Shen & Li's Sec. 3.7 (Algorithm 2): the oracle (42) returns
    :math:`\arg\max_h \sum_i u_i y_i h(x_i)` for the current dual weights, and training
    stops when its edge is below :math:`r + \varepsilon`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Tsallis, C. (1988). Possible generalization of Boltzmann-Gibbs statistics. Journal of
    Statistical Physics 52(1-2), 479-487.
    """
    )

    _algorithm_name = "HingeLPBoost"
    _parameter_constraints: dict[str, Any] = {
        **_CGParams._parameter_constraints,
        "D": _POSITIVE,
        "p": [Interval(Real, 1.0, float("inf"), closed="neither")],
    }

    def __init__(
        self,
        D: float = 1.0,
        p: float = 2.0,
        *,
        n_estimators: int = 1000,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 1e-5,
        random_state: int | None = None,
        warm_start: bool = False,
    ) -> None:
        self.D = D
        self.p = p
        self._set_common(
            n_estimators, max_depth, estimator, max_bins, tol, random_state, warm_start
        )

    def _check_params(self, n_samples: int) -> None:
        check_real(self.D, "D", 0.0)
        check_real(self.p, "p", 1.0)

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_hinge_dual(A, float(self.D), float(self.p))


class MCBoost(_CGParams):
    __doc__ = (
        r"""MCBoost, margin distribution controlled boosting (Guo & Chen, Algorithm 1).

    Primal (their eq. (8)/(12)): the normalized margins :math:`\rho = A w` of a convex
    combination of weak classifiers (:math:`w \ge 0`, :math:`\mathbf 1^\top w = 1`) are pulled
    towards a target margin :math:`E`,

    .. math:: \min_w\ \sum_i (\rho_i - E)^2,

    which trades the margin variance against the squared distance of the mean margin from
    :math:`E` (eqs. (10)-(11)).  Column generation on the dual (19),
    :math:`\min_{r,u}\ r + \tfrac14 (u - 2E\mathbf 1)^\top(u - 2E\mathbf 1)` subject to
    :math:`\sum_i u_i y_i h_j(x_i) \le r` for the selected columns: the weak learner ("strong
    oracle") returns the tree maximizing :math:`\sum_i u_i y_i h(x_i)` for the current dual
    weights :math:`u`, which may be negative (examples whose margin exceeds :math:`E`), and
    training stops when its edge is below :math:`r + \epsilon`.  The restricted master is
    solved in the primal by :func:`~marginboost.boosting._masters.solve_mcboost` (a
    simplex-constrained least-squares problem), and the dual comes from the KKT map (17),
    :math:`u = 2(E\mathbf 1 - \rho)`, :math:`r = \max_j (A^\top u)_j`.

    Parameters
    ----------
    E : float, default=0.3
        Target margin, positive (the paper chooses it in (0, 1) on validation).
    """
        + _COMMON_DOC.replace("n_estimators : int, default=100", "n_estimators : int, default=1000")
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Guo & Chen, Algorithm 1: the primal (8), written as (12), its decomposition into margin
    variance and mean (10)-(11), the dual (19) and the KKT map (17), as above.  They show
    that the problem is L2Boost with :math:`\|w\|_1 = 1/E` (eq. (20)) and a lasso-penalised
    L2Boost (eq. (21)); their baselines are :class:`L2Boost`, :class:`AdaBoost`,
    :class:`AdaBoostCG`, :class:`LPBoost` and :class:`MDBoost`.

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript, College
    of Computer Science and Technology, Nanjing University of Aeronautics and Astronautics.
    """
    )

    _algorithm_name = "MCBoost"
    _parameter_constraints: dict[str, Any] = {**_CGParams._parameter_constraints, "E": _POSITIVE}
    reference = "guo2013mcboost"

    def __init__(
        self,
        E: float = 0.3,
        *,
        n_estimators: int = 1000,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 1e-5,
        random_state: int | None = None,
        warm_start: bool = False,
    ) -> None:
        self.E = E
        self._set_common(
            n_estimators, max_depth, estimator, max_bins, tol, random_state, warm_start
        )

    def _check_params(self, n_samples: int) -> None:
        check_real(self.E, "E", 0.0)

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_mcboost(A, float(self.E), w0)

    def _oracle_weights(self, u: FloatArray) -> FloatArray:
        return u  # signed: fit_binary with the "error" criterion maximizes sum u_i y_i h(x_i)


class MDBoost(_CGParams):
    __doc__ = (
        r"""MDBoost, boosting through optimization of margin distributions (Shen & Li 2010b).

    Source of truth: the formulation of Shen & Li, "Boosting through optimization of margin
    distributions", IEEE TNN 21(4), 2010, as it is restated in their TPAMI paper (AdaBoost-QP,
    eqs. (39)-(41)) and in Guo & Chen (Sec. 3: "maximizes the average margin and minimizes the
    margin variance simultaneously", the trade-off chosen by cross-validation).  The TNN text
    itself is not available here; the assumptions are:

    * the margins are the normalized margins :math:`\rho = A w` of a convex combination
      (:math:`w \ge 0`, :math:`\mathbf 1^\top w = 1`), as for MCBoost and LPBoost;
    * the objective is the average margin minus ``D / 2`` times the *population* variance,

      .. math:: \max_w\ \bar\rho - \tfrac{D}{2}\,\tfrac1M\sum_i (\rho_i - \bar\rho)^2,

      (the TNN paper writes the variance with the matrix of pairwise differences, whose
      normalization :math:`1/(M-1)` instead of :math:`1/M` only rescales ``D`` by
      :math:`M/(M-1)`); this is AdaBoost-QP (41) with :math:`T = 1/D` over the columns
      generated so far, so the restricted master is
      :func:`~marginboost.boosting._masters.solve_adaboost_qp`;
    * column generation as for the other masters: the example weights are the gradient of the
      objective with respect to the margins, normalized to sum to 1,
      :math:`u_i = (1 - D(\rho_i - \bar\rho)) / M` (negative for examples whose margin exceeds
      the mean by more than :math:`1/D`), the oracle returns
      :math:`\arg\max_h \sum_i u_i y_i h(x_i)` and training stops when that edge is below
      :math:`r + \epsilon`, :math:`r = \max_j (A^\top u)_j` over the selected columns (at the
      restricted optimum every column in the support has edge ``r``: its KKT conditions).

    Parameters
    ----------
    D : float, default=1.0
        Weight of the margin variance (positive); chosen on validation in the experiments.
    """
        + _COMMON_DOC.replace("n_estimators : int, default=100", "n_estimators : int, default=1000")
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Shen & Li (2010b) maximise the average margin while minimising the margin variance, the
    trade-off being chosen by cross-validation; Shen & Li (2010a, eqs. (39)-(41)) derive the
    same objective as AdaBoost-QP (:class:`AdaBoostQP`, a fixed pool).  The restricted master
    here is that QP over the generated columns, solved by column generation as the other
    totally-corrective methods; see the assumptions above.  Guo & Chen use MDBoost as a
    baseline of MCBoost.

    References
    ----------
    Shen, C. and Li, H. (2010b). Boosting through optimization of margin distributions. IEEE
    Transactions on Neural Networks 21(4), 659-666.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript, College
    of Computer Science and Technology, Nanjing University of Aeronautics and Astronautics.
    """
    )

    _algorithm_name = "MDBoost"
    _parameter_constraints: dict[str, Any] = {**_CGParams._parameter_constraints, "D": _POSITIVE}
    reference = "shen2010mdboost"

    def __init__(
        self,
        D: float = 1.0,
        *,
        n_estimators: int = 1000,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 1e-5,
        random_state: int | None = None,
        warm_start: bool = False,
    ) -> None:
        self.D = D
        self._set_common(
            n_estimators, max_depth, estimator, max_bins, tol, random_state, warm_start
        )

    def _check_params(self, n_samples: int) -> None:
        check_real(self.D, "D", 0.0)

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_mdboost(A, float(self.D), w0)

    def _oracle_weights(self, u: FloatArray) -> FloatArray:
        return u  # signed, as for MCBoost


def adaboost_T_heuristic(
    X: ArrayLike, y: ArrayLike, n_rounds: int = 1000, *, max_depth: int = 1, max_bins: int = 255
) -> float:
    r"""``T = 1 / sum(w)`` of an ``n_rounds`` AdaBoost run (Shen & Li 2010, Table IV).

    Parameters
    ----------
    X, y : arrays
        Training data (binary labels).
    n_rounds : int, default=1000
        AdaBoost rounds (it may stop earlier on a perfect weak learner).
    max_depth, max_bins : int
        Weak learner depth and binning, as for :class:`~marginboost.boosting.AdaBoost`.

    Returns
    -------
    float
        The regularisation parameter ``T`` for :class:`AdaBoostCG` and the pool methods.

    Notes
    -----
    Shen & Li (2010a), Table IV, run AdaBoost-CG with the :math:`\ell_1` norm of the weights
    that AdaBoost reaches after 1000 rounds: :math:`1/T = \sum_t \alpha_t`, so that both
    methods compare at the same norm.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from marginboost.boosting import adaboost_T_heuristic
    >>> X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    >>> T = adaboost_T_heuristic(X, y, n_rounds=20)
    >>> 0 < T < 1
    True
    """
    from .stagewise import AdaBoost

    model = AdaBoost(
        n_estimators=check_positive_int(n_rounds, "n_rounds"),
        max_depth=max_depth,
        max_bins=max_bins,
    ).fit(X, y)
    return 1.0 / float(np.sum(model.alphas_))


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
from .._sklearn import examples_section as _examples_section  # noqa: E402

LPBoost.__doc__ = (LPBoost.__doc__ or "").rstrip() + "\n" + _examples_section("LPBoost", "nu=0.2")
ERLPBoost.__doc__ = (
    (ERLPBoost.__doc__ or "").rstrip() + "\n" + _examples_section("ERLPBoost", "nu=0.2")
)
HingeLPBoost.__doc__ = (
    (HingeLPBoost.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("HingeLPBoost", "n_estimators=100")
)
AdaBoostCG.__doc__ = (
    (AdaBoostCG.__doc__ or "").rstrip() + "\n" + _examples_section("AdaBoostCG", "n_estimators=100")
)
LogitBoostCG.__doc__ = (
    (LogitBoostCG.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("LogitBoostCG", "n_estimators=100")
)
MCBoost.__doc__ = (
    (MCBoost.__doc__ or "").rstrip() + "\n" + _examples_section("MCBoost", "n_estimators=100")
)
MDBoost.__doc__ = (
    (MDBoost.__doc__ or "").rstrip() + "\n" + _examples_section("MDBoost", "n_estimators=100")
)
