r"""DirectBoost (Zhai, Xia, Tan & Wang 2013), the estimator: phase 1 lowers the training 0-1
loss, phase 2 raises a margin objective, each round with a direct tree grown on the phase's
objective (:mod:`~marginboost.boosting.directboost.objectives`) and the exact step along it;
the paper's three variants (:data:`VARIANTS`).
"""

from __future__ import annotations

import numbers
import time
import warnings
from collections.abc import Iterable
from numbers import Real
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions

from ..._sklearn import constraints
from .._base import BinaryBoostingClassifier, check_positive_int, check_real, mark_not_boosted
from .._blas_threads import one_blas_thread
from .._direct_common import IMPROVEMENT_TOL, resolve_n_prime, root_counts
from ._phase2_kernels import sparse_code_rows, stable_order_after_step
from .objectives import (
    MarginObjective,
    ZeroOneObjective,
    margin_objective,
    sorted_margin_objective,
)
from .state import TrainingState

if TYPE_CHECKING:
    from ...weak.direct import DirectTreeBuilder

FloatArray = NDArray[np.float64]

__all__ = ["DirectBoost", "VARIANTS", "directboost_variant", "directboost_variants"]


# ---- the estimator ---------------------------------------------------------------------------
#: The paper's three variants (Sec. 3): phase-2 objective, relaxation and search region.
VARIANTS: dict[str, dict[str, Any]] = {
    "DirectBoost_avg": {"objective": "average", "epsilon": 0.0},
    "DirectBoost_eps_avg": {"objective": "average", "epsilon": 0.01},
    "DirectBoost_order": {"objective": "order", "epsilon": 0.01},
}

_HISTORY_KEYS = ("phase", "train_error", "objective", "alpha", "time")


class DirectBoost(BinaryBoostingClassifier):
    r"""DirectBoost (Zhai, Xia, Tan & Wang 2013): 0-1 loss descent, then margin ascent.

    **Phase 1** (Algorithm 1) adds, each round, the weak classifier and weight that lower the
    training error the most (ties: the smallest exponential loss after the step).  The step
    along a weak classifier (``step``) is, among all the intervals of :math:`\alpha` with the
    fewest errors, the point with the smallest exponential loss (``"exp-loss"``), or the
    midpoint of the first such interval (``"midpoint"``; ``2 x`` its left end, or 1, for the
    unbounded last interval).  A round that cannot lower the error count may still keep it
    and lower the exponential loss (the tie rule applied to a zero reduction); phase 1 stops
    at zero training error, when no weak classifier keeps the error count and lowers the log
    exponential loss by more than ``tol`` (a coordinatewise local minimum of the error count
    with the exponential loss as tie rule), or, when ``phase1_n_iter_no_change`` is set, after
    that many rounds in a row without fewer errors.  The training error never increases.

    **Phase 2** (Algorithm 2) maximizes a margin objective of the normalized margins
    :math:`y_i F(x_i)/\sum_t\alpha_t`: the average of the ``n_prime`` smallest
    (``objective="average"``) or the ``n_prime``-th smallest (``"order"``).  Each round the
    weak classifier whose exact line search (see
    :mod:`~marginboost.boosting.directboost._phase2_kernels`) reaches the highest value is added.

    * Without relaxation (``epsilon=0``) the search stays in the region where no correctly
      classified training example is lost (``region="min-error"``), a maximizer at its end
      :math:`d` becomes :math:`d - 0.01` (as in the paper, or :math:`d/2` when
      :math:`d < 0.02`), and training stops when no weak classifier increases the objective
      (by more than ``tol`` times ``max(1, |objective|)``): a coordinatewise maximum
      (Theorem 4).
    * With :math:`\varepsilon`-relaxation (Bertsekas) each step is set to
      :math:`\varepsilon` past the maximizer along its coordinate, even when that lowers the
      objective, and the search covers every :math:`\alpha \ge 0` (``region="all"``).  This
      never stops by itself, so training stops after ``n_iter_no_change`` rounds without a new best
      objective value, and the ensemble is cut back to the round with the best value.

    Weak learners are direct trees (:class:`~marginboost.weak.DirectTreeBuilder`) whose every
    split is chosen by the phase's line search
    (:class:`~marginboost.boosting.directboost.objectives.ZeroOneObjective`,
    :class:`~marginboost.boosting.directboost.objectives.MarginObjective`); no example weights
    are kept.

    Parameters
    ----------
    objective : {"average", "order"}, default "average"
        Phase-2 objective.
    n_prime : int or float, default 0.1
        Number of bottom examples: an int in [1, n], or a float in (0, 1] read as a fraction
        of the training set (rounded, at least 1).
    epsilon : float, default 0.0
        Relaxation (the paper uses 0.01); 0 turns it off.
    region : {"min-error", "all"}, optional
        Phase-2 search region; default "min-error" without relaxation, "all" with it.
    max_depth : int, default 1
        Depth of the direct trees (1 = stumps).
    min_samples_leaf : int, default 1
    max_bins : int, default 255
        Number of feature bins (thresholds are searched between bins).
    n_estimators : int, default 2000
        Cap on the rounds of both phases together.
    tol : float, default 1e-6
        Phase 1: a round that keeps the error count must lower the logarithm of the
        exponential loss by more than ``tol`` (the stop rule of the AdaBoost baseline in the
        paper's protocol: the loss changes by less than 1e-6 in a round).  Phase 2 without
        relaxation: an increment must exceed ``tol * max(1, |objective|)``.
    phase1_tol : float, optional
        Phase 1's tolerance when it should differ from ``tol`` (``None``: ``tol``).
    phase1_n_iter_no_change : int, optional
        Stop phase 1 after this many rounds in a row without fewer errors (not in the paper;
        off by default).
    n_iter_no_change : int, default 50
        With relaxation: rounds without a new best objective before stopping.
    phase2 : bool, default True
        Whether to run phase 2 at all (False: Algorithm 1 only).
    step : {"exp-loss", "midpoint"}, default "exp-loss"
        Where phase 1 places :math:`\alpha` inside the intervals with the fewest errors (the
        paper does not say).  With "midpoint" a round that keeps the error count at most halves
        the smallest :math:`|a_i|`, so such rounds shrink geometrically and barely move the
        ensemble.
    split_rule : {"improve", "always"}, default "improve"
        "improve": a node below the root of a direct tree is split only when the split scores
        better than the partial tree as it is (by the phase's own criterion); "always": every
        node that can be split is split, even when every split makes the tree worse.
    random_state : int, optional
        Unused (the method is deterministic); kept for a uniform interface.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is coded :math:`+1`.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features,)
        Names of the features seen in ``fit``; defined only when ``X`` has string column names.
    mapper_ : BinMapper
        The feature binning fitted on the training inputs.
    estimators_ : list of FittedTree
        The direct trees, in the order they were added (phase 1 first).
    alphas_ : ndarray of shape (n_estimators\_,)
        Their weights :math:`\alpha_t \ge 0`.
    n_estimators_ : int
        Number of trees in the ensemble (after the cut back to the best round with
        relaxation).
    history_ : dict of str to ndarray
        Per round: ``phase`` (1 or 2), ``train_error`` (fraction), ``objective`` (the phase-2
        objective of the normalized margins after the round), ``alpha`` and ``time``.
    n_phase1_ : int
        Rounds of phase 1.
    n_prime_ : int
        The number :math:`n'` of bottom examples of the phase-2 objective.
    epsilon_ : float
        The :math:`\varepsilon`-relaxation used.
    region_ : {"min-error", "all"}
        The phase-2 search region used.
    tol_, phase1_tol_ : float
        The tolerances used in phase 2 and phase 1.
    stop_reason_ : str
        Why training ended: ``"phase 1 zero training error"``, ``"phase 1 local minimum"``,
        ``"phase 1 plateau"`` or ``"n_estimators"`` when phase 2 did not run, otherwise
        ``"phase 2 coordinatewise maximum"``, ``"phase 2 no admissible step"``,
        ``"phase 2 no improvement within patience"`` or ``"n_estimators"``.  A fit that ends on
        ``"n_estimators"`` warns (:class:`~sklearn.exceptions.ConvergenceWarning`).  ``"no
        edge"`` when phase 1's training error is no lower than the majority class's (no weak
        classifier beat chance), with a :class:`~marginboost.boosting.NotBoostedWarning`.
    converged_ : bool
        Whether training ended by the algorithm's own stop rule (not ``"n_estimators"`` or
        ``"no edge"``), as ``converged_`` of the column-generation estimators.

    Notes
    -----
    Zhai, Xia, Tan & Wang (2013).  Phase 1 is their Algorithm 1, a greedy coordinate descent
    on the empirical 0-1 loss (1) whose line search sweeps the points where the margins
    change sign.  Phase 2 is their Algorithm 2, a greedy coordinate ascent on the average of
    the :math:`n'` smallest normalized margins (6), which along a coordinate are the linear
    fractional functions (7) with derivatives (8); the sign of (9) (all examples) or (10)
    (the bottom :math:`n'`) decides the step.  The objective is quasiconcave in the region of
    zero training error (Theorem 2), where the ascent converges to the optimum for the
    average of all margins (Theorem 3) and to a coordinatewise maximum for the bottom
    :math:`n'` (Theorem 4).  The :math:`\varepsilon`-relaxation follows Bertsekas (1988).
    The paper's three variants are the keys ``"DirectBoost_avg"``, ``"DirectBoost_eps_avg"``
    and ``"DirectBoost_order"`` of :data:`VARIANTS` (:func:`directboost_variant`).  The
    largest average of the :math:`n'` smallest normalized margins over all convex
    combinations is the optimal value of the soft-margin LPBoost with :math:`D = 1/n'`
    (:class:`LPBoost`), which DirectBoost approaches by coordinate ascent.

    References
    ----------
    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. In Advances in Neural Information Processing Systems 26,
    pp. 872-880.

    Bertsekas, D. P. (1988). The auction algorithm: a distributed relaxation method for the
    assignment problem. Annals of Operations Research 14(1), 105-123.
    """

    _algorithm_name = "DirectBoost"
    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators",
        "max_depth",
        "min_samples_leaf",
        "max_bins",
        "n_iter_no_change",
        "random_state",
        tol=[Interval(Real, 0.0, None, closed="left")],
        phase1_tol=[Interval(Real, 0.0, None, closed="left"), None],
        objective=[StrOptions({"average", "order"})],
        n_prime=[Interval(Real, 0.0, float("inf"), closed="neither")],
        epsilon=[Interval(Real, 0.0, float("inf"), closed="left")],
        region=[StrOptions({"min-error", "all"}), None],
        phase2=["boolean"],
        step=[StrOptions({"exp-loss", "midpoint"})],
        split_rule=[StrOptions({"improve", "always"})],
        phase1_n_iter_no_change=[Interval(numbers.Integral, 1, None, closed="left"), None],
    )
    reference = "zhai2013direct"
    #: How far below the end d of the minimum-error region a step to d stops.
    end_gap = 0.01
    #: The default ``tol``: an increase of the phase-2 objective counts when it exceeds this
    #: fraction of ``max(1, |objective|)`` (the stopping rule "no increment" up to this
    #: tolerance; DMCBoost uses it too).
    improvement_tol = IMPROVEMENT_TOL

    def __init__(
        self,
        objective: str = "average",
        n_prime: float = 0.1,
        *,
        epsilon: float = 0.0,
        region: str | None = None,
        max_depth: int = 1,
        min_samples_leaf: int = 1,
        max_bins: int = 255,
        n_estimators: int = 2000,
        tol: float = 1e-6,
        phase1_tol: float | None = None,
        phase1_n_iter_no_change: int | None = None,
        n_iter_no_change: int = 50,
        phase2: bool = True,
        step: str = "exp-loss",
        split_rule: str = "improve",
        random_state: int | None = None,
    ) -> None:
        self.objective = objective
        self.n_prime = n_prime
        self.epsilon = epsilon
        self.region = region
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.max_bins = max_bins
        self.n_estimators = n_estimators
        self.tol = tol
        self.phase1_tol = phase1_tol
        self.phase1_n_iter_no_change = phase1_n_iter_no_change
        self.n_iter_no_change = n_iter_no_change
        self.phase2 = phase2
        self.step = step
        self.split_rule = split_rule
        self.random_state = random_state

    def _resolve_n_prime(self, n: int) -> int:
        return resolve_n_prime(self.n_prime, n)

    def _check_params(self, n: int) -> None:
        if self.objective not in ("average", "order"):
            raise ValueError(f"objective must be 'average' or 'order'; got {self.objective!r}")
        self.n_prime_ = self._resolve_n_prime(n)
        self.epsilon_ = check_real(self.epsilon, "epsilon", 0.0, low_inclusive=True)
        region = self.region
        if region is None:
            region = "all" if self.epsilon_ > 0 else "min-error"
        if region not in ("min-error", "all"):
            raise ValueError(f"region must be 'min-error', 'all' or None; got {self.region!r}")
        self.region_ = region
        check_positive_int(self.n_estimators, "n_estimators")
        check_positive_int(self.n_iter_no_change, "n_iter_no_change")
        self.tol_ = check_real(self.tol, "tol", 0.0, low_inclusive=True)
        self.phase1_tol_ = (
            self.tol_
            if self.phase1_tol is None
            else check_real(self.phase1_tol, "phase1_tol", 0.0, low_inclusive=True)
        )
        if self.phase1_n_iter_no_change is not None:
            check_positive_int(self.phase1_n_iter_no_change, "phase1_n_iter_no_change")
        if self.step not in ("exp-loss", "midpoint"):
            raise ValueError(f"step must be 'exp-loss' or 'midpoint'; got {self.step!r}")
        if self.split_rule not in ("improve", "always"):
            raise ValueError(f"split_rule must be 'improve' or 'always'; got {self.split_rule!r}")

    def fit(
        self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
    ) -> DirectBoost:
        """Run phase 1, then phase 2.

        ``sample_weight`` is not supported (the 0-1 loss and the margin objectives count
        examples); passing non-uniform weights raises ``ValueError``.
        """
        with one_blas_thread():
            codes, y_signed = self._prepare(X, y, sample_weight)
            self._finish(codes, y_signed, self._phase1(codes, y_signed))
            return self

    def _prepare(
        self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None
    ) -> tuple[NDArray[np.uint8], FloatArray]:
        X, y_signed, weights = self._validate_training_data(X, y, sample_weight)
        if sample_weight is not None and not np.allclose(weights, weights[0]):
            raise ValueError(
                "DirectBoost does not support sample_weight (it minimizes the "
                "number of training errors); pass None or uniform weights"
            )
        self._check_params(y_signed.shape[0])
        # no ``estimator`` parameter (the trees are DirectTreeBuilder's): always bin codes
        return cast(NDArray[np.uint8], self._bin(X)), y_signed

    def _builder(self) -> DirectTreeBuilder:
        from ...weak import DirectTreeBuilder

        return DirectTreeBuilder(
            max_depth=check_positive_int(self.max_depth, "max_depth"),
            min_samples_leaf=self.min_samples_leaf,
            split_rule=self.split_rule,
        )

    def _record(
        self,
        state: TrainingState,
        phase: int,
        alpha: float,
        order: NDArray[np.int64] | None = None,
    ) -> float:
        """Record a round; returns the margin objective.  ``order``: the stable argsort of
        the margins when known (the normalized margins sorted by it are those ``np.sort``
        gives: dividing by ``c > 0`` keeps their order)."""
        a, c, history = state.a, state.c, state.history
        history["phase"].append(phase)
        history["train_error"].append(float(np.count_nonzero(a <= 0)) / a.size)
        m = np.sort(a / c) if order is None else (a / c)[order]
        value = sorted_margin_objective(m, self.n_prime_, self.objective)
        history["objective"].append(value)
        for (objective, n_prime), values in state.objectives.items():
            values.append(sorted_margin_objective(m, n_prime, objective))
        history["alpha"].append(alpha)
        history["time"].append(time.perf_counter() - state.start)
        return value

    def _phase1(
        self,
        codes: NDArray[np.uint8],
        y_signed: FloatArray,
        objectives: dict[tuple[str, int], list[float]] | None = None,
    ) -> TrainingState:
        """Algorithm 1; returns the training state (margins, weights, trees, history).

        ``objectives`` maps ``(objective, n_prime)`` to lists that receive those objective
        values after every round as well (used by :func:`directboost_variants`).
        """
        n = y_signed.shape[0]
        builder = self._builder()
        counts = root_counts(codes)
        n_estimators = int(self.n_estimators)
        state = TrainingState(
            a=np.zeros(n),
            history={key: [] for key in _HISTORY_KEYS},
            objectives=objectives or {},
        )
        errors = n
        plateau = 0
        patience = self.phase1_n_iter_no_change
        while len(state.trees) < n_estimators and errors > 0:
            a = state.a
            objective = ZeroOneObjective(a, y_signed, self.step)
            tree = builder.fit(codes, objective, counts)
            h = tree.predict(codes)
            new_errors, alpha, _, loss = objective.line(h)
            if new_errors > errors or (
                new_errors == errors and not loss < objective.reference - self.phase1_tol_
            ):
                state.stop_reason = "phase 1 local minimum"
                break
            plateau = plateau + 1 if new_errors == errors else 0
            state.a = a + alpha * y_signed * h
            state.c += alpha
            errors = int(np.count_nonzero(state.a <= 0))
            state.trees.append(tree)
            state.alphas.append(alpha)
            self._record(state, 1, alpha)
            if patience is not None and plateau >= patience:
                state.stop_reason = "phase 1 plateau"
                break
        if errors == 0:
            state.stop_reason = "phase 1 zero training error"
        state.n_phase1 = len(state.trees)
        return state

    def _finish(self, codes: NDArray[np.uint8], y_signed: FloatArray, state: TrainingState) -> None:
        """Run phase 2 from the end of phase 1 and store the ensemble."""
        self.n_phase1_ = state.n_phase1
        self.stop_reason_ = state.stop_reason
        self._best_rounds: int | None = None
        if self.phase2 and len(state.trees) < int(self.n_estimators) and state.trees:
            self._phase2(codes, y_signed, state)
        history = state.history
        self.history_ = {key: np.asarray(value, dtype=np.float64) for key, value in history.items()}
        self._set_stages(state.trees, np.ones(len(state.trees)), np.asarray(state.alphas))
        if self._best_rounds is not None:
            self._truncate(self._best_rounds)
        del self._best_rounds
        self.converged_ = self.stop_reason_ != "n_estimators"
        # phase 1 never raises the training error: its fewest errors are where it ended
        phase1 = self.history_["train_error"][self.history_["phase"] == 1]
        phase1_error = float(phase1.min()) if phase1.size else 1.0
        majority_error = float(min(np.mean(y_signed > 0), np.mean(y_signed < 0)))
        if phase1_error >= majority_error:
            # phase 1 never beat the constant classifier: no weak classifier had an edge
            mark_not_boosted(
                self,
                f"the training error of phase 1, {phase1_error:.3g}, is no lower than the "
                f"majority class's {majority_error:.3g}",
            )
        elif self.stop_reason_ == "n_estimators":
            warnings.warn(
                f"{type(self).__name__} stopped at n_estimators={int(self.n_estimators)} rounds, "
                "before its own stop rule (phase 1's local minimum or zero training error, "
                "phase 2's coordinatewise maximum or patience); raise n_estimators to let it "
                "converge.",
                ConvergenceWarning,
                stacklevel=3,
            )

    def _phase2(self, codes: NDArray[np.uint8], y: FloatArray, state: TrainingState) -> None:
        relaxed = self.epsilon_ > 0
        restricted = self.region_ == "min-error"
        n_prime = self.n_prime_
        builder = self._builder()
        counts = root_counts(codes)
        n_estimators = int(self.n_estimators)
        trees = state.trees
        a, c = state.a, state.c
        value = margin_objective(a / c, n_prime, self.objective)
        best_value, best_rounds, stall = value, len(trees), 0
        self.stop_reason_ = "n_estimators"
        order = None  # the stable argsort of a, computed once per round
        sparse = sparse_code_rows(codes)  # the codes' sparse form, shared by the rounds
        while len(trees) < n_estimators:
            objective = MarginObjective(
                a,
                y,
                c,
                n_prime,
                self.objective,
                restricted,
                self.epsilon_,
                self.end_gap,
                order,
                sparse,
            )
            tree = builder.fit(codes, objective, counts)
            h = tree.predict(codes)
            _, step, new_value = objective.line(h)
            if not relaxed and not new_value > value + self.tol_ * max(1.0, abs(value)):
                self.stop_reason_ = "phase 2 coordinatewise maximum"
                break
            if not (step > 0 and np.isfinite(step)):
                self.stop_reason_ = "phase 2 no admissible step"
                break
            direction = y * h
            a = a + step * direction
            c += step
            state.a, state.c = a, c
            order = stable_order_after_step(objective.order, a, direction)
            trees.append(tree)
            state.alphas.append(step)
            value = self._record(state, 2, step, order)
            if value > best_value + self.tol_ * max(1.0, abs(best_value)):
                best_value, best_rounds, stall = value, len(trees), 0
            else:
                stall += 1
                if relaxed and stall >= self.n_iter_no_change:
                    self.stop_reason_ = "phase 2 no improvement within patience"
                    break
        if relaxed and best_rounds < len(trees):
            self._best_rounds = best_rounds


def directboost_variant(name: str, **params: Any) -> DirectBoost:
    """A :class:`DirectBoost` configured as one of the paper's :data:`VARIANTS`."""
    if name not in VARIANTS:
        raise ValueError(f"unknown DirectBoost variant {name!r}; choose from {sorted(VARIANTS)}")
    return DirectBoost(**{**VARIANTS[name], **params})


def directboost_variants(
    X: ArrayLike, y: ArrayLike, variants: Iterable[str], n_primes: Iterable[float], **params: Any
) -> dict[tuple[str, float], DirectBoost]:
    """Fit several :data:`VARIANTS` and values of ``n_prime`` that share one phase 1.

    Phase 1 does not depend on the variant or on ``n_prime``, so it runs once; each model then
    continues with its own phase 2 from a copy of that state.  Returns
    ``{(variant, n_prime): fitted model}``, each equal to fitting it alone.
    """
    models = {
        (name, n_prime): directboost_variant(name, n_prime=n_prime, **params)
        for name in variants
        for n_prime in n_primes
    }
    base = DirectBoost(phase2=False, **params)
    codes, y_signed = base._prepare(X, y, None)
    prepared = {key: model._prepare(X, y, None)[0] for key, model in models.items()}
    objectives: dict[tuple[str, int], list[float]] = {
        (m.objective, m.n_prime_): [] for m in models.values()
    }
    state = base._phase1(codes, y_signed, objectives)
    out = {}
    for key, model in models.items():
        own = state.branch((model.objective, model.n_prime_))
        model._finish(prepared[key], y_signed, own)
        out[key] = model
    return out


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
from ..._sklearn import examples_section as _examples_section  # noqa: E402

DirectBoost.__doc__ = (
    (DirectBoost.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("DirectBoost", "n_estimators=10")
)
