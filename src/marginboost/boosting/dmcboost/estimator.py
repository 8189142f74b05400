r"""DMCBoost (Zhai, Xia & Wang, KDD 2014): direct multi-class boosting in two phases.

The ensemble votes as in eq. (1): :math:`f(x, k) = \sum_t \alpha_t [h_t(x) = k]`, prediction
:math:`\arg\max_k f(x, k)` (:class:`~marginboost.boosting.multiclass.MulticlassBoostingClassifier`),
with :math:`h_t` multi-class *direct* trees (binary splits ``code_f <= bin`` on binned
features, grown greedily top-down to ``max_depth`` by :class:`~marginboost.weak.DirectTreeBuilder`,
level by level, a later node seeing the labels already chosen for earlier ones).  The
one-dimensional searches are those of :mod:`~marginboost.boosting.dmcboost.search` (see its
docstring for the scenarios, typos and their conventions).

Phase I -- Algorithms 1 and 1.2 (0-1 loss)
    Each round grows a tree whose every split *and its two leaf labels* minimize the training
    0-1 error of the ensemble plus the tree after the best step :math:`\alpha > 0`
    (:mod:`~marginboost.boosting.dmcboost._phase1_split_kernels`: an exact search over every binned
    threshold and every label pair, the examples outside the node keeping the partial tree's
    labels).  The tree is added with :math:`\alpha_t` the midpoint of a best interval of
    :func:`~marginboost.boosting.dmcboost.search.zero_one_sweep` along it (Alg. 1, line 5:
    "the middle point of the interval"); when several intervals have the fewest errors, the
    one whose midpoint has the smallest multi-class exponential loss (``step``, below).
    A tree that keeps the error count is still added when it lowers the multi-class
    exponential loss at that step (DirectBoost's plateau rule, below).  Phase I stops, without
    adding the tree, when the tree neither lowers the error count nor keeps it while lowering
    the exponential loss (line 7: a coordinatewise local minimum, as far as the greedy tree
    search can tell), at zero training error, after ``n_iter_no_change`` rounds in a row
    without fewer errors, or after ``n_estimators``.  The training error never increases.

Phase II -- Algorithms 2 and 2.1 (bottom-:math:`n'` average margin (5))
    Each round grows, for each half-line :math:`\alpha > 0` and :math:`\alpha < 0`, the tree
    whose splits and labels maximize the one-sided derivative (9) of (5) at :math:`\alpha = 0`
    (exact over thresholds and label pairs; ties at the :math:`n'`-th margin resolved as in
    :func:`~marginboost.boosting.dmcboost.search.bottom_average_slope`, margins within
    :attr:`~marginboost.boosting.dmcboost.objectives.MarginSlopeObjective.near_tie` of the
    :math:`n'`-th one counted as tied, since sums of the same steps in another order differ by
    a few ulps), runs
    :func:`~marginboost.boosting.dmcboost.search.margin_line_search` (bisection on (9), both
    signs, ``tol``) along both trees and takes the step of the one reaching the larger value
    of (5) (ties: the larger derivative, then :math:`\alpha > 0`).

    Without relaxation (``epsilon=0``) a step counts when it raises (5) by more than
    :attr:`improvement_tol` :math:`\max(1, |g|)` (DirectBoost's tolerance).  The steepest
    tree need not be the one with the largest gain (its derivative may stay positive on a
    stretch shorter than ``tol``), so when neither tree gains, the stumps (feature, bin, pair
    of labels) whose derivative (9) at 0 is positive on some side are searched by Algorithm
    2.1, steepest first, and the first one that gains is taken.  Only when no stump gains
    does phase II stop (Alg. 2 line 7, "no increment"): a coordinatewise maximum over all
    stumps, up to the tolerance (stumps without a positive derivative cannot gain: (5) is
    quasiconcave along each half-line).  This check costs a line search per stump tried
    (about 7 ms at n = 5,000); at a maximum every stump with a positive derivative is tried.

    With :math:`\epsilon`-relaxation (the paper's 0.01) each step goes :math:`\epsilon`
    beyond the maximizer (also when that maximizer is 0), which never stops by itself: as in
    :class:`~marginboost.boosting.DirectBoost`, training stops after ``n_iter_no_change`` rounds
    without a new best value of (5) and the ensemble is cut back to the best round.  A step
    to :math:`|\alpha| = \infty` (the tree alone orders the bottom examples better than the
    ensemble) is not taken: such a tree is passed over, and training stops when both trees
    are (``"phase II unbounded step"``, DirectBoost's "no admissible step").

Departures from the paper and choices where it is silent
    * **Leaf labels are chosen jointly** for the two children of a split (all :math:`K^2`
      pairs), not left first and then right as Alg. 1.2 lines 7-10 (which leave the right
      side's labels during the left choice unspecified); the joint choice is never worse for
      the split.  The two children may get the **same label** (each leaf's label is the one
      the line search prefers, as in the paper): such a split predicts one label on the whole
      node.  Forcing different labels (``distinct_leaf_labels=True``), as DirectBoost's
      leaves :math:`\pm 1`, doubles the training error phase I ends at on Car (10.7% against
      5.1%).
    * **Ties** between splits / label pairs with the same error count go to the smaller
      multi-class exponential loss :math:`\sum_i \sum_{k \ne y_i} e^{f(x_i,k) - f(x_i,y_i)}`
      at the step of the candidate's best interval on the grid of all intersection points,
      then to the lowest feature, bin, right label, left label (DirectBoost's rule; the paper
      gives none).  In phase II ties of the (integer) derivative go to the lowest feature,
      bin, right label, left label.
    * **Which best interval** (the paper speaks of "the interval"): ``step="best-midpoint"``
      (default) takes, among the intervals with the fewest errors, the midpoint with the
      smallest exponential loss (the paper's tie rule, applied to the paper's step);
      ``"midpoint"`` the first (smallest-:math:`\alpha`) one; ``"exp-loss"`` the
      exponential-loss minimizer clipped into the best interval (DirectBoost's default).  With
      ``"midpoint"`` a round that keeps the error count takes a step inside the first interval,
      about half the smallest crossing, so such rounds shrink geometrically (Figure 3's
      notebook shows the last step of such a run on Car) and phase I stalls far above the
      error the other rules reach.
    * **Plateaus** (the paper is silent): DirectBoost's rule.  A literal "stop unless the
      error count drops" ends phase I after one round on every data set: round 1 (all scores
      0, every example a tie) takes the unbounded interval, :math:`\alpha_1 = 1`, so in
      round 2 every intersection point of every tree equals 1, and beyond it the new tree
      alone decides, which cannot beat the greedy first tree.  Keeping rounds that only
      lower the exponential loss (a step inside the first interval) breaks these ties.
    * **Phase-II split criterion**: the paper scores a split by (5) after Algorithm 2.1's
      search along it; here by the exact derivative (9) at 0 (steepest coordinate ascent),
      which is additive over examples and costs :math:`O(n K)` per feature instead of a
      bisection per candidate.  The steps are Algorithm 2.1's; the stopping test falls back
      to the paper's criterion over all stumps (above).
    * Phase II needs :math:`c = \sum_t |\alpha_t| > 0`, i.e. at least one phase-I round.
    * Ties are errors (margin :math:`\le 0`), :math:`\alpha > 0` in phase I, and the other
      conventions of :mod:`~marginboost.boosting.dmcboost.search`.

Cost per round: phase I scores the :math:`G = \min(m + 1, \text{max\_intervals})` intervals
of the line search (``max_intervals``) per node and feature either with a segment tree,
:math:`O(K^2 (nK + n_{node}\log G))`, or with per-bin error profiles,
:math:`O(n_{node}K + \text{bins}\,K^2 G)`, whichever is cheaper for the node (both are
exact on those intervals); phase II :math:`O(d(n_{node} + \text{bins}\,K^2))` per level
plus the line search.  The performance page has the seconds per round on Poker525k (525,010
hands, 10 classes, depth 3) and on Letter.
"""

from __future__ import annotations

import os
import time
import warnings
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions

from ..._sklearn import constraints
from ...margins import bottom_margin_average, multiclass_margins
from .._base import check_positive_int, check_real, mark_not_boosted
from .._blas_threads import one_blas_thread
from .._direct_common import IMPROVEMENT_TOL, resolve_n_prime, root_counts
from ..multiclass import _COMMON_ATTRIBUTES, MulticlassBoostingClassifier
from . import _phase1_kernels as _k1
from .checkpoint import PathCheckpoint, state_part
from .objectives import MarginSlopeObjective, ZeroOneTreeObjective
from .search import TH, MarginLineSearch, margin_line_search, zero_one_sweep
from .state import TrainingState

if TYPE_CHECKING:
    from ...weak.tree import FittedTree

__all__ = ["DMCBoost", "PhaseTwoWarning"]


class PhaseTwoWarning(UserWarning):
    """DMCBoost's phase II ended with more training errors than its phase I, and no fewer than
    the majority class's.

    Phase II maximizes the average of the :math:`n'` smallest margins, not the accuracy, so
    it can trade errors for margin.  The paper reports such fits as intended ("DMCBoost allows
    some misclassification to achieve a better performance", Zhai, Xia & Wang 2014, Sec. 4), so
    a fit that still beats the majority class does not warn (``phase1_errors_`` and
    ``history_["errors"]`` show the trade); one that ends no better than voting for the
    majority class warns.  The fit returns the phase-II model either way.
    """


class DMCBoost(MulticlassBoostingClassifier):
    __doc__ = (
        r"""DMCBoost (Zhai, Xia & Wang, KDD 2014): 0-1 loss descent, then margin ascent.

    See the module docstring for exactly what each phase does and where it departs from the
    paper.

    Parameters
    ----------
    n_prime : int or float, default 0.25
        Bottom examples of objective (5): an int in [1, n], or a fraction in (0, 1] of the
        training set (rounded, at least 1).  The paper uses n/4 on its fixed splits and picks
        from {1, n/10, n/5, n/4, n/3, n/2, 2n/3} by validation otherwise.
    max_depth : int, default 3
        Depth of the direct trees.
    n_estimators : int, default 1000
        Cap on the rounds of both phases together.
    phase2 : bool, default True
        Whether to run phase II (False: Algorithm 1 only).  Phase II may end with more
        training errors than phase I (``phase1_errors_``); a fit whose phase II ends no better
        than the majority class warns (:class:`PhaseTwoWarning`).
    epsilon : float, default 0.01
        :math:`\epsilon`-relaxation of phase II (the paper's value); 0 turns it off.
    n_iter_no_change : int, default 50
        Phase I stops after this many rounds in a row without fewer training errors (the
        plateau rule); with relaxation, phase II stops after this many rounds without a new
        best value of (5).
    tol : float, default 1e-5
        Bisection threshold of Algorithm 2.1.
    max_intervals : int or None, default 1024
        Phase I scores a tree's splits by the fewest errors over the intervals of the line
        search; when there are more intervals than this (there can be up to ``nK + 1``: later
        rounds on all but the smallest data sets), they are scored on ``max_intervals`` of
        them evenly spaced in rank, the step of the chosen tree still coming from the exact
        sweep over all of them.  This makes a
        round cost :math:`O(d(nK + \text{bins}\,K^2 \cdot\text{max\_intervals}))` per tree
        level instead of :math:`O(dK^2(nK + n\log(nK)))`.  ``None``: always all of them
        (the paper's exact search).
    max_phase1_rounds : int or None, default None
        Cap on the rounds of phase I (``None``: ``n_estimators``); phase II starts from there.
    distinct_leaf_labels : bool, default False
        Require the two children of every split to get different labels (DirectBoost's trees
        for two classes); the default lets the line search give them the same label.
    step : {"best-midpoint", "midpoint", "exp-loss"}, default "best-midpoint"
        Phase I's step along the chosen tree, inside the intervals of :math:`\alpha` with the
        fewest training errors (the paper: "the middle point of the interval", without saying
        which interval when several tie).  "best-midpoint": the midpoint, among those
        intervals, with the smallest multi-class exponential loss; "midpoint": the midpoint of
        the first (smallest-:math:`\alpha`) one; "exp-loss": the exponential-loss minimizer
        clipped into the best interval (DirectBoost's default step).  The trees are ranked at
        the same rule's step.
    min_samples_leaf : int, default 1
    max_bins : int, default 255
        Number of feature bins.

    """
        + _COMMON_ATTRIBUTES
        + r"""    estimators_ : list of FittedTree
        The multi-class direct trees :math:`h_t`, in the order they were added.
    alphas_ : ndarray of shape (n_estimators\_,)
        Their weights :math:`\alpha_t` in the vote (1) (negative steps are possible in
        phase II).
    stop_reason_ : str
        Why training ended: a phase-I reason (``"phase I zero training error"``, a
        coordinatewise minimum, a plateau, ``"max_phase1_rounds"``) when phase II did not run,
        otherwise ``"phase II coordinatewise maximum"``, ``"phase II unbounded step"``,
        ``"phase II no improvement within patience"`` or ``"n_estimators"``; with
        relaxation, followed by the round the ensemble was cut back to.  A fit that ends on
        ``n_estimators`` or ``max_phase1_rounds`` warns
        (:class:`~sklearn.exceptions.ConvergenceWarning`).  ``"no edge"`` when phase I's
        training errors are no fewer than the majority class's (no weak classifier beat
        chance), with a :class:`~marginboost.boosting.NotBoostedWarning`.
    converged_ : bool
        Whether training ended by the algorithm's own stop rule (not on ``n_estimators``,
        ``max_phase1_rounds`` or ``"no edge"``), as ``converged_`` of the column-generation
        estimators.
    history_ : dict of str to ndarray
        Per round: ``phase`` (1 or 2), ``train_error`` (fraction), ``errors`` (count),
        ``objective`` (bottom-:math:`n'` average of the normalized margins (4) after the
        round), ``alpha`` and ``time``.
    n_phase1_ : int
        Rounds of phase I.
    phase1_stop_reason_ : str
        Why phase I ended (``stop_reason_`` is the reason training ended).
    phase1_errors_ : int
        The training errors phase I ended with (its fewest); phase II's are
        ``history_["errors"][-1]``.
    n_prime_ : int
        The number :math:`n'` of bottom examples in objective (5).
    epsilon_ : float
        The :math:`\epsilon`-relaxation used.
    tol_ : float
        The bisection threshold used.
    max_intervals_ : int or None
        The cap on the intervals scored per split in phase I.

    Notes
    -----
    Zhai, Xia & Wang (2014).  The ensemble votes as in eq. (1).  Phase I (Algorithm 1) is a
    greedy coordinate descent on the training 0-1 loss (2): the line search of Algorithm 1.1
    sweeps the breakpoints of the class scores (3) along a tree, and Algorithm 1.2 grows the
    tree split by split with the leaf labels that minimise the 0-1 loss.  Phase II
    (Algorithm 2) is a greedy coordinate ascent on the average (5) of the :math:`n'` smallest
    multi-class margins (4), with the bisection of Algorithm 2.1 on the derivative (9)-(10)
    and :math:`\epsilon`-relaxation (:math:`\epsilon = 0.01`, threshold :math:`10^{-5}` in
    the paper).  By their Theorem 1, maximising (5) is a soft-margin problem (6); Theorem 3
    (quasi-concavity of (5) along a coordinate) justifies the bisection.  The docstrings of
    :mod:`marginboost.boosting.dmcboost.estimator` and
    :mod:`marginboost.boosting.dmcboost.search` say where the implementation departs from the
    paper and which printing errors of the paper it corrects.  The binary method it
    generalises is :class:`~marginboost.DirectBoost`.

    References
    ----------
    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. In Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining, pp. 273-282.

    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. In Advances in Neural Information Processing Systems 26,
    pp. 872-880.

    Bertsekas, D. P. (1988). The auction algorithm: a distributed relaxation method for the
    assignment problem. Annals of Operations Research 14(1), 105-123.
    """
    )

    _algorithm_name = "DMCBoost"
    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators",
        "max_depth",
        "min_samples_leaf",
        "max_bins",
        "n_iter_no_change",
        n_prime=[Interval(Real, 0.0, float("inf"), closed="neither")],
        phase2=["boolean"],
        epsilon=[Interval(Real, 0.0, float("inf"), closed="left")],
        tol=[Interval(Real, 0.0, float("inf"), closed="neither")],
        max_intervals=[Interval(Integral, 2, None, closed="left"), None],
        max_phase1_rounds=[Interval(Integral, 1, None, closed="left"), None],
        distinct_leaf_labels=["boolean"],
        step=[StrOptions(set(_k1.STEP_MODES))],
    )
    reference = "zhai2014multiclass"
    #: Phase II without relaxation stops when the step raises (5) by no more than this
    #: fraction of ``max(1, |value|)`` (DirectBoost's tolerance).
    improvement_tol = IMPROVEMENT_TOL

    def __init__(
        self,
        n_prime: float = 0.25,
        *,
        max_depth: int = 3,
        n_estimators: int = 1000,
        phase2: bool = True,
        epsilon: float = 0.01,
        n_iter_no_change: int = 50,
        tol: float = TH,
        max_intervals: int | None = 1024,
        max_phase1_rounds: int | None = None,
        distinct_leaf_labels: bool = False,
        step: str = "best-midpoint",
        min_samples_leaf: int = 1,
        max_bins: int = 255,
    ) -> None:
        self.n_prime = n_prime
        self.max_depth = max_depth
        self.n_estimators = n_estimators
        self.phase2 = phase2
        self.epsilon = epsilon
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.max_intervals = max_intervals
        self.max_phase1_rounds = max_phase1_rounds
        self.distinct_leaf_labels = distinct_leaf_labels
        self.step = step
        self.min_samples_leaf = min_samples_leaf
        self.max_bins = max_bins

    def _resolve_n_prime(self, n: int) -> int:
        return resolve_n_prime(self.n_prime, n)

    def _builder(self) -> Any:
        from ...weak import DirectTreeBuilder

        return DirectTreeBuilder(
            max_depth=check_positive_int(self.max_depth, "max_depth"),
            min_samples_leaf=self.min_samples_leaf,
        )

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> DMCBoost:
        """Run phase I, then phase II.

        ``sample_weight`` is not supported (the objectives count examples): non-uniform
        weights raise ``ValueError``.
        """
        with one_blas_thread():
            state = self._start(X, y, sample_weight)
            self.n_prime_ = self._resolve_n_prime(state.y.shape[0])
            self._run_phase1(state)
            self._run_phase2(state)
            return self

    def fit_path(
        self,
        X: ArrayLike,
        y: ArrayLike,
        n_primes: list[float],
        sample_weight: ArrayLike | None = None,
        *,
        checkpoint: str | os.PathLike[str] | PathCheckpoint | None = None,
    ) -> list[DMCBoost]:
        """Fit phase I once and phase II once per value of ``n_prime`` (the paper's model
        selection over :math:`n'`: phase I does not depend on it).

        Returns one fitted copy of this estimator per value, with ``n_prime`` set to it; each
        equals ``DMCBoost(n_prime=value, ...).fit(X, y)`` (``self`` is left unfitted).

        ``checkpoint``: a folder (or a
        :class:`~marginboost.boosting.dmcboost.checkpoint.PathCheckpoint`) where the path saves
        its finished parts, phase I and each value's phase II, as it goes, and the part in
        progress every :attr:`~marginboost.boosting.dmcboost.checkpoint.PathCheckpoint.every`
        seconds.  A later call with the same estimator parameters, data and values loads them
        and computes only the rest, so an interrupted path loses at most the rounds since its
        last save; the models and their ``history_["time"]`` are those of an uninterrupted fit.
        A folder holding the parts of another fit raises ``ValueError``.  Warnings about a
        loaded part were given when it was computed.
        """
        with one_blas_thread():
            from copy import copy

            if len(n_primes) == 0:
                raise ValueError("fit_path needs at least one n_prime value")
            saved = (
                checkpoint
                if checkpoint is None or isinstance(checkpoint, PathCheckpoint)
                else PathCheckpoint(checkpoint)
            )
            if saved is not None:
                saved.open(self, X, y, n_primes, sample_weight)
            first = copy(self)
            state = first._start(X, y, sample_weight)
            n = state.y.shape[0]
            models = []
            for value in n_primes:
                model = copy(first)
                model.n_prime = value
                model.n_prime_ = model._resolve_n_prime(n)
                models.append(model)
            first.n_prime_ = models[0].n_prime_
            state.objective_path = [model.n_prime_ for model in models]
            phase1 = None if saved is None else saved.load("phase1")
            if phase1 is None:
                if saved is not None:
                    saved.resume("phase1-progress", state)
                    state.progress = saved.progress("phase1-progress")
                first._run_phase1(state)
                state.progress = None
                if saved is not None:
                    saved.save("phase1", first._phase1_part(state))
                    saved.discard("phase1-progress")
            else:
                first._restore_phase1(state, phase1)
            for j, model in enumerate(models):
                done = None if saved is None else saved.load(f"phase2-{j}")
                if done is not None:
                    models[j] = done
                    state.start = time.perf_counter() - float(done.history_["time"][-1])
                    continue
                model.phase1_stop_reason_ = first.phase1_stop_reason_
                model.n_phase1_ = first.n_phase1_
                branch = state.branch()
                branch.history["objective"] = [values[j] for values in state.objective_values or []]
                if saved is not None:
                    name = f"phase2-{j}-progress"
                    if saved.resume(name, branch):
                        state.start = branch.start  # the later branches' clock goes on
                    branch.progress = saved.progress(name)
                model._run_phase2(branch)
                if saved is not None:
                    saved.save(f"phase2-{j}", model)
                    saved.discard(f"phase2-{j}-progress")
            return models

    def _phase1_part(self, state: TrainingState) -> dict[str, Any]:
        """What :meth:`fit_path` saves after phase I: the state it leaves, its seconds and
        its stop."""
        return {
            **state_part(state),
            "phase1_stop_reason_": self.phase1_stop_reason_,
            "n_phase1_": self.n_phase1_,
        }

    def _restore_phase1(self, state: TrainingState, part: dict[str, Any]) -> None:
        """Put a saved phase I (:meth:`_phase1_part`) into the fresh ``state``."""
        state.restore(part["state"], part["seconds"])
        self.phase1_stop_reason_ = part["phase1_stop_reason_"]
        self.n_phase1_ = part["n_phase1_"]

    def _start(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None) -> TrainingState:
        """Validate, bin and set up the training state (phase-independent parameters)."""
        X, y, weights = self._validate_training_data(X, y, sample_weight)
        if sample_weight is not None and not np.allclose(weights, weights[0]):
            raise ValueError(
                "DMCBoost does not support sample_weight (it minimizes the number "
                "of training errors); pass None or uniform weights"
            )
        n = y.shape[0]
        self._resolve_n_prime(n)  # reject a bad n_prime before any work
        self.epsilon_ = check_real(self.epsilon, "epsilon", 0.0, low_inclusive=True)
        self.tol_ = check_real(self.tol, "tol", 0.0)
        check_positive_int(self.n_estimators, "n_estimators")
        check_positive_int(self.n_iter_no_change, "n_iter_no_change")
        self.max_intervals_ = (
            None
            if self.max_intervals is None
            else check_positive_int(self.max_intervals, "max_intervals", minimum=2)
        )
        _k1.step_mode(self.step)  # reject a bad step before any work
        builder = self._builder()
        codes = self._bin(X)
        return TrainingState(y=y, codes=codes, builder=builder, F=np.zeros((n, self.n_classes_)))

    def _run_phase1(self, state: TrainingState) -> None:
        self.phase1_stop_reason_ = self._phase1(state)
        self.n_phase1_ = len(state.trees)

    def _run_phase2(self, state: TrainingState) -> None:
        """Phase II from the phase-I state (if asked for), then set the fitted attributes."""
        stop, best = self.phase1_stop_reason_, None
        if self.phase2 and state.trees and len(state.trees) < int(self.n_estimators):
            stop, best = self._phase2(state)
        history = state.history
        trees, alphas = state.trees, state.alphas
        if best is not None and best < len(trees):
            trees, alphas = trees[:best], alphas[:best]
            history = {key: value[:best] for key, value in history.items()}
            stop += f"; cut back to the best round {best}"
        self.history_ = {key: np.asarray(value, dtype=np.float64) for key, value in history.items()}
        self._set_stages(trees, alphas, stop)
        # phase I never raises the error count: its fewest errors are those it ended with
        phase1_errors = int(
            min(state.history["errors"][: self.n_phase1_], default=state.y.shape[0])
        )
        final_errors = int(self.history_["errors"][-1]) if len(trees) else phase1_errors
        capped = stop.split(";")[0]
        self.converged_ = capped not in ("n_estimators", "max_phase1_rounds")
        y = state.y
        majority_errors = int(y.shape[0] - np.bincount(y).max())
        if phase1_errors >= majority_errors:
            # phase I never beat the constant classifier: no weak classifier had an edge
            mark_not_boosted(
                self,
                f"phase I's {phase1_errors} training errors are no fewer than the majority "
                f"class's {majority_errors}",
            )
        elif capped in ("n_estimators", "max_phase1_rounds"):
            limit = self.n_estimators if capped == "n_estimators" else self.max_phase1_rounds
            warnings.warn(
                f"DMCBoost stopped at {capped}={limit} rounds, before its own stop rule "
                "(phase I's zero training error or coordinatewise minimum, phase II's "
                f"coordinatewise maximum or patience); raise {capped} to let it converge.",
                ConvergenceWarning,
                stacklevel=3,
            )
        self.phase1_errors_ = phase1_errors
        # Phase II may trade training errors for bottom margins (the paper reports such fits as
        # its best, Sec. 4); it warns only where that leaves no edge over the majority class.
        if final_errors > phase1_errors and final_errors >= majority_errors:
            warnings.warn(
                f"DMCBoost's phase II ended with {final_errors} training errors, more than the "
                f"{phase1_errors} of phase I (round {self.n_phase1_}) and no fewer than the "
                f"majority class's {majority_errors}: it maximizes the average of the n' "
                "smallest margins (5), not the accuracy. Compare with phase2=False, or choose "
                "n_prime on validation data.",
                PhaseTwoWarning,
                stacklevel=3,
            )

    def _add(
        self, state: TrainingState, phase: int, tree: Any, h: NDArray[np.intp], alpha: float
    ) -> None:
        F, y = state.F, state.y
        F[np.arange(F.shape[0]), h] += alpha
        state.c += abs(alpha)
        state.trees.append(tree)
        state.alphas.append(alpha)
        margins = multiclass_margins(F, y)
        errors = int(np.count_nonzero(margins <= 0))
        history = state.history
        history["phase"].append(phase)
        history["errors"].append(errors)
        history["train_error"].append(errors / y.shape[0])
        if state.objective_path is not None:  # fit_path's phase I: (5) for every n' of the path
            values = [bottom_margin_average(margins / state.c, v) for v in state.objective_path]
            if state.objective_values is None:
                state.objective_values = []
            state.objective_values.append(values)
            history["objective"].append(values[0])
        else:
            history["objective"].append(bottom_margin_average(margins / state.c, self.n_prime_))
        history["alpha"].append(alpha)
        history["time"].append(time.perf_counter() - state.start)

    def _phase1(self, state: TrainingState) -> str:
        """Algorithm 1; returns the stop reason."""
        y, codes, builder = state.y, state.codes, state.builder
        counts = root_counts(codes)
        # F = 0: every example is a tie, i.e. an error (a resumed phase goes on from its rounds)
        errors = state.history["errors"][-1] if state.trees else y.shape[0]
        cap = (
            int(self.n_estimators)
            if self.max_phase1_rounds is None
            else min(
                int(self.n_estimators),
                check_positive_int(self.max_phase1_rounds, "max_phase1_rounds"),
            )
        )
        while len(state.trees) < cap:
            if state.progress is not None:
                state.progress(state)
            if errors == 0:
                return "phase I zero training error"
            objective = ZeroOneTreeObjective(
                state.F, y, self.max_intervals_, not self.distinct_leaf_labels, self.step
            )
            tree = builder.fit(codes, objective, counts)
            h = tree.predict(codes).astype(np.intp)
            sweep = zero_one_sweep(state.F, y, h, step=self.step, loss_terms=objective.Bk)
            if sweep.errors > errors or (
                sweep.errors == errors
                and not objective.log_loss(h, sweep.alpha) < objective.reference
            ):
                return (
                    f"phase I coordinatewise minimum ({errors} errors; the best tree "
                    f"reaches {sweep.errors} without lowering the exponential loss)"
                    if sweep.errors == errors
                    else f"phase I coordinatewise minimum ({errors} errors; the best tree "
                    f"reaches {sweep.errors})"
                )
            plateau = state.plateau + 1 if sweep.errors == errors else 0
            state.plateau = plateau
            self._add(state, 1, tree, h, sweep.alpha)
            errors = state.history["errors"][-1]
            if plateau >= int(self.n_iter_no_change):
                return f"phase I plateau ({plateau} rounds without fewer errors)"
        if not errors:
            return "phase I zero training error"
        return "n_estimators" if cap == int(self.n_estimators) else "max_phase1_rounds"

    def _phase2(self, state: TrainingState) -> tuple[str, int | None]:
        """Algorithm 2; returns the stop reason and, with relaxation, the best round count."""
        y, codes, builder = state.y, state.codes, state.builder
        counts = root_counts(codes)
        n_prime, relaxed = self.n_prime_, self.epsilon_ > 0
        if state.phase2 is not None:  # resumed: the best value and round so far, the rounds since
            best_value, best_rounds, stall = state.phase2
        else:
            value = bottom_margin_average(multiclass_margins(state.F, y) / state.c, n_prime)
            best_value, best_rounds, stall = value, len(state.trees), 0
        while len(state.trees) < int(self.n_estimators):
            state.phase2 = (best_value, best_rounds, stall)
            if state.progress is not None:
                state.progress(state)
            F = state.F
            candidates = []
            for sign in (1, -1):
                objective = MarginSlopeObjective(F, y, n_prime, sign, not self.distinct_leaf_labels)
                tree = builder.fit(codes, objective, counts)
                h = tree.predict(codes).astype(np.intp)
                search = margin_line_search(
                    F,
                    y,
                    h,
                    state.c,
                    n_prime,
                    th=self.tol_,
                    negative=True,
                    relax=relaxed,
                    epsilon=self.epsilon_ if relaxed else 1.0,
                )
                if not search.unbounded:
                    candidates.append((search.max_value, objective.score(h), sign, tree, h, search))
            if not candidates:
                return "phase II unbounded step", (best_rounds if relaxed else None)
            # the larger maximum of (5), then the larger derivative, then alpha > 0
            *_, tree, h, search = max(candidates, key=lambda item: item[:3])
            tol = self.improvement_tol * max(1.0, abs(search.initial_value))
            if not relaxed and not search.max_value > search.initial_value + tol:
                stump = self._best_stump(state, search.initial_value + tol)
                if stump is None:
                    return "phase II coordinatewise maximum", None
                tree, h, search = stump
            self._add(state, 2, tree, h, search.alpha)
            value = state.history["objective"][-1]
            if value > best_value:
                best_value, best_rounds, stall = value, len(state.trees), 0
            else:
                stall += 1
                if relaxed and stall >= int(self.n_iter_no_change):
                    return "phase II no improvement within patience", best_rounds
        return "n_estimators", (best_rounds if relaxed else None)

    def _best_stump(
        self, state: TrainingState, threshold: float
    ) -> tuple[FittedTree, NDArray[np.intp], MarginLineSearch] | None:
        """The steepest stump (any feature, bin and pair of different labels) whose line
        search reaches a value of (5) above ``threshold``, or ``None``: the exhaustive check
        that makes phase II end at a coordinatewise maximum over all stumps.  Only the stumps
        whose derivative (9) at 0 is positive on some side can gain (quasiconcavity); their
        derivatives come from one histogram per feature, and they are tried steepest first
        (ties: feature, bin, right label, left label) until one gains."""
        from ...weak import DirectTreeBuilder, DirectTreeState

        F, y, codes, c, n_prime = state.F, state.y, state.codes, state.c, self.n_prime_
        S = n_prime * c * bottom_margin_average(multiclass_margins(F, y) / c, n_prime)
        slopes = np.maximum(
            *(
                MarginSlopeObjective(
                    F, y, n_prime, sign, not self.distinct_leaf_labels
                ).stump_slopes(codes)
                for sign in (1, -1)
            )
        )
        admissible = np.nonzero(slopes * c - S > 1e-12 * (np.abs(slopes) * c + abs(S)))
        order = np.argsort(-slopes[admissible], kind="stable")  # steepest first
        for f, t, l_right, l_left in np.transpose(admissible)[order]:
            left = codes[:, f] <= t
            h = np.where(left, l_left, l_right).astype(np.intp)
            search = margin_line_search(F, y, h, c, n_prime, th=self.tol_)
            if search.max_value > threshold and not search.unbounded:
                tree_state = DirectTreeState(
                    np.where(left, 1, 2).astype(np.int64), {1: float(l_left), 2: float(l_right)}
                )
                tree = DirectTreeBuilder._to_fitted_tree(
                    {0: (1, 2)},
                    {0: (int(f), int(t))},
                    {0: 0, 1: 1, 2: 1},
                    tree_state,
                    codes.shape[1],
                    "multiclass",
                )
                return tree, h, search
        return None


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
from ..._sklearn import examples_section as _examples_section  # noqa: E402

DMCBoost.__doc__ = (
    (DMCBoost.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("DMCBoost", "n_estimators=10", n_classes=3)
)
