r"""BrownBoost (Freund 2001, "An adaptive version of the boost by majority algorithm").

Freund's BrownBoost (Machine Learning 43:293-318, Fig. 2) boosts with a fixed **time budget**
:math:`c > 0`.  Every example keeps its (unnormalized) margin :math:`r_i = y_i F(x_i)`,
:math:`r_i = 0` at the start, and the remaining time is :math:`s = c`.  While :math:`s > 0`:

1. weigh the examples by :math:`W_i = e^{-(r_i + s)^2 / c}`;
2. fit the weak learner on the normalized :math:`W` and get :math:`h` with outputs :math:`\pm 1`;
   with :math:`b_i = y_i h(x_i)`, its edge is
   :math:`\gamma = \sum_i W_i b_i / \sum_i W_i`; stop if :math:`\gamma \le \nu`;
3. find the weight :math:`\alpha > 0` of :math:`h` and the time :math:`t > 0` it consumes: Freund
   integrates the differential equation

   .. math:: \frac{dt}{d\alpha} = \gamma(\alpha, t)
             = \frac{\sum_i e^{-(r_i + \alpha b_i + s - t)^2/c}\, b_i}
                    {\sum_i e^{-(r_i + \alpha b_i + s - t)^2/c}},
             \qquad t(0) = 0,

   until the edge vanishes or :math:`t = s`;
4. update :math:`r_i \leftarrow r_i + \alpha b_i` and :math:`s \leftarrow s - t`.

The final classifier is :math:`\operatorname{sign}\sum_k \alpha_k h_k(x)` (Freund's real-valued
output :math:`\operatorname{erf}(\sum_k\alpha_k h_k(x)/\sqrt c)` has the same sign).

**The step equations.**  With :math:`\Phi(z) = 1 - \operatorname{erf}(z/\sqrt c)` the potential
:math:`P(\alpha, t) = \sum_i \Phi(r_i + \alpha b_i + s - t)` is constant along the solution of
the differential equation (:math:`dP/d\alpha = 0` there), so the end point of a round solves

.. math::
    (1)\quad \sum_i e^{-(r_i + \alpha b_i + s - t)^2/c}\, b_i = 0, \qquad
    (2)\quad \sum_i \bigl[\Phi(r_i + \alpha b_i + s - t) - \Phi(r_i + s)\bigr] = 0 .

Because :math:`\partial P/\partial t > 0`, equation (2) defines a unique :math:`t(\alpha)` for
every :math:`\alpha`: the solution curve of the differential equation is exactly the level set
(2), and :math:`t(\alpha)` increases while the edge is positive.  Instead of integrating the
differential equation, :func:`brownboost_step` solves the two equations by Newton's method in
:math:`(\alpha, t)`, with safeguards:

* the Newton step (analytic Jacobian, see :func:`brownboost_step`) is taken along the curve (2)
  from :math:`(\alpha, t) = (0, 0)`; :math:`\alpha` is kept in a bracket
  :math:`(\alpha_{lo}, \alpha_{hi})` with edge :math:`> 0` at :math:`\alpha_{lo}` and
  :math:`< 0` at :math:`\alpha_{hi}` (signs taken only at points on the curve), steps outside
  the bracket are replaced by bisection, and while no :math:`\alpha_{hi}` is known a step is at
  most :math:`\sqrt c` (the width of the weights);
* a point off the curve (2) that could decide the search (an edge :math:`\le 0` or rising, or
  :math:`t \ge s`) is first moved back to the curve by Newton steps in :math:`t`;
* when the edge is found rising at a new :math:`\alpha_{lo}`, the cubic Hermite interpolant of
  the edge since the previous :math:`\alpha_{lo}` is checked for a dip below 0, and its minimum
  is probed; together with the step limit this makes the iteration end at the **first** zero
  of the edge along the curve, where the differential equation stops (the tests compare with an
  integration of the differential equation);
* **time limit**: if the curve reaches :math:`t = s` before the edge vanishes, the round ends at
  :math:`t = s` (Freund's alternative stopping condition :math:`t^* = s_i`), and :math:`\alpha`
  is the point of the curve with :math:`t = s`: it solves the potential equation (2) with
  :math:`t = s` (bracketed Newton/bisection in :math:`\alpha`), while (1) does not hold (the
  edge there is still positive).  The remaining time becomes exactly 0 and training ends.

Convergence: :math:`|\gamma(\alpha, t)| \le` ``tol`` (equation (1) divided by
:math:`\sum_i W_i`, so relative to the total weight), :math:`|P(\alpha, t) - P(0, 0)| \le`
``tol`` :math:`\cdot P(0, 0)` (equation (2), relative to the potential), and the
remaining Newton correction of :math:`t` (of :math:`\alpha` at the time limit) below
:math:`10^{-9}\sqrt c`, each up to the rounding level of the sums.  The last condition matters
when the potential is nearly flat (every example far from the boundary, where (2) barely
moves); to resolve :math:`P` there, it is summed as :math:`2\sum_{x_i<0} v_i +
\sum_i v_i\operatorname{sign}(x_i)\operatorname{erfc}(|x_i|)` (no rounding error of
:math:`\operatorname{erfc} \approx 2` on the negative side).  Only if every example lies so far
out that :math:`e^{-(r_i + s)^2/c}` underflows (:math:`|r_i + s| > 27\sqrt c`) is (2) flat in
double precision and :math:`t` not determined by it.  A round typically needs 3 to 8
evaluations of the sums (each :math:`O(n)`, vectorized); close to an evaluated point (usually
the last, verifying Newton iterate) the potential comes from a third-order Taylor expansion of
erfc instead of erfc itself, with a remainder far below the rounding level.  Freund stops the
differential equation once :math:`\gamma \le \nu`; here the end point is the limit
:math:`\gamma = 0` of equation (1) and ``nu`` only judges the edge of the weak learner (step 2).

**Target error.**  At the start every example has potential
:math:`\Phi(c) = 1 - \operatorname{erf}(\sqrt c)`; the average potential is conserved and, when
the time is used up (:math:`s = 0`), bounds the training error (a misclassified example has
:math:`r_i \le 0`, so :math:`\Phi(r_i) \ge 1`).  Freund therefore chooses :math:`c` from the
target training error :math:`\epsilon` by :math:`\epsilon = 1 - \operatorname{erf}(\sqrt c)`,
i.e. :math:`c = \operatorname{erfinv}(1-\epsilon)^2`.  Zhai et al. (2013, DirectBoost) tune
BrownBoost's "cutoff parameter" on validation data over
:math:`\{0.0001, 0.001, 0.01, 0.03, 0.05, 0.08, 0.1, 0.14, 0.17, 0.2\}` without naming the
quantity; we read it as this target error :math:`\epsilon` (``target_error``).

**Sample weights** :math:`v_i` (normalized to sum 1) multiply every sum above (the weights
:math:`W_i`, both equations and the potential), which is the same as repeating examples.

Stopping rules (``stop_reason_``): ``"time exhausted"`` (:math:`s = 0`, the normal end),
``"no edge"`` (the weak learner's edge under :math:`W` is at most ``nu``) and ``"n_estimators"``.

``history_`` holds one entry per round: ``train_error`` (fraction of training examples
misclassified by :math:`F_t`, a score of 0 counting as ``classes_[0]``), ``alpha``
(:math:`\alpha_t`), ``t`` (time used by the round), ``remaining_time`` (:math:`s` after the
round), ``edge`` (:math:`\gamma` of the weak learner under :math:`W`), ``potential`` (average
potential :math:`\sum_i v_i \Phi(r_i + s)` after the round; it stays at its starting value
:math:`1 - \operatorname{erf}(\sqrt c)`, the target error),
``min_margin`` and ``mean_margin`` (normalized margins :math:`r_i / \sum_k \alpha_k`),
``solver_evaluations`` (evaluations of the sums used by the step solve) and ``time`` (seconds
since the start of ``fit``).

The step equations are solved in :mod:`~marginboost.boosting._brownboost_solver`
(:func:`brownboost_step`); this module holds the estimator and :func:`time_budget`, and
re-exports the solver's names.
"""

from __future__ import annotations

import numbers
import time
import warnings
from numbers import Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import erfcinv
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval

from .._sklearn import constraints
from .._sklearn import examples_section as _examples_section
from ._base import BinaryBoostingClassifier, NoEdgeError, check_positive_int, check_real
from ._blas_threads import one_blas_thread
from ._brownboost_solver import _EPS as _EPS
from ._brownboost_solver import _MAX_STEP as _MAX_STEP
from ._brownboost_solver import _ON_CURVE as _ON_CURVE
from ._brownboost_solver import _RESOLUTION as _RESOLUTION
from ._brownboost_solver import _TAYLOR_STEP as _TAYLOR_STEP
from ._brownboost_solver import BrownBoostStep, brownboost_step
from ._brownboost_solver import FloatArray as FloatArray
from ._brownboost_solver import StepSolveError as StepSolveError
from ._brownboost_solver import _along_curve as _along_curve
from ._brownboost_solver import _check_step_inputs as _check_step_inputs
from ._brownboost_solver import _hermite_dip as _hermite_dip
from ._brownboost_solver import _Point as _Point
from ._brownboost_solver import _Potential as _Potential
from ._brownboost_solver import _solve_step as _solve_step
from ._brownboost_solver import _Solver as _Solver
from ._brownboost_solver import _Sums as _Sums
from ._brownboost_solver import _taylor_change as _taylor_change

__all__ = ["BrownBoost", "BrownBoostStep", "brownboost_step", "time_budget"]


def time_budget(target_error: float) -> float:
    r"""Freund's time budget :math:`c` for a target training error :math:`\epsilon`.

    The solution of :math:`\epsilon = 1 - \operatorname{erf}(\sqrt c)`, computed as
    :math:`c = \operatorname{erfcinv}(\epsilon)^2` (accurate also for tiny :math:`\epsilon`).
    """
    if (
        isinstance(target_error, bool)
        or not isinstance(target_error, numbers.Real)
        or not np.isfinite(target_error)
        or not 0.0 < target_error < 1.0
    ):
        raise ValueError(
            f"target_error must be a number in the open interval (0, 1); got {target_error!r}"
        )
    return float(erfcinv(float(target_error)) ** 2)


class BrownBoost(BinaryBoostingClassifier):
    r"""BrownBoost (Freund 2001, Fig. 2): boosting with a time budget that gives up on noise.

    See the module docstring (:mod:`marginboost.boosting.brownboost`) for the algorithm, the
    solution of the step equations and the recorded history.  As the remaining time :math:`s`
    runs out, examples whose margin has fallen far behind (:math:`r_i + s \ll -\sqrt c`)
    receive the weights :math:`e^{-(r_i + s)^2/c} \approx 0`: BrownBoost gives up on them,
    which makes it robust to label noise.  An abandoned example keeps the potential
    :math:`\Phi(-\infty) = 2`, so the conserved average potential :math:`\epsilon` allows
    abandoning at most a (weighted) fraction :math:`\epsilon/2` of the examples.

    Parameters
    ----------
    target_error : float in (0, 1), default=0.1
        Freund's target training error :math:`\epsilon`; the time budget is
        :math:`c = \operatorname{erfinv}(1-\epsilon)^2`, i.e.
        :math:`1 - \operatorname{erf}(\sqrt c) = \epsilon` (:func:`time_budget`).  The
        "cutoff parameter" of Zhai et al. (2013).  Ignored (not even validated) when ``c`` is
        given.
    c : float, optional
        The time budget :math:`c > 0` itself; takes precedence over ``target_error``.
    nu : float, default=1e-6
        Freund's :math:`\nu`: training stops (``"no edge"``) when the edge of the weak learner
        under :math:`W` is at most ``nu``.
    n_estimators : int, default=1000
        Safety cap on the number of rounds (``stop_reason_ = "n_estimators"``).
    max_depth : int, default=1
        Depth of the weak decision trees (1 = stumps), ignored when ``estimator`` is given.
    estimator : weak learner, optional
        A weak learner with ``fit_binary`` returning :math:`\pm 1` predictions (e.g.
        ``marginboost.weak.DecisionTree(max_depth=2)``); by default
        ``DecisionTree(max_depth, criterion="error")``.
    max_bins : int, default=255
        Number of feature bins.
    tol : float, default=1e-10
        Tolerance of the step equations (see :func:`brownboost_step`).
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
    mapper_ : BinMapper or RawFeatures
        The feature binning fitted on the training inputs.
    estimators_ : list of FittedTree
        The weak hypotheses :math:`h_k`, in the order they were added.
    alphas_ : ndarray of shape (n_estimators\_,)
        Their weights :math:`\alpha_k`, the output of each round's step equations.
    n_estimators_ : int
        Number of rounds.
    c_ : float
        The time budget used.
    remaining_time_ : float
        Remaining time :math:`s` at the end (0 after ``"time exhausted"``).
    stop_reason_ : {"time exhausted", "no edge", "n_estimators"}
        Why training ended: the time budget was used up, the weak learner's edge was at most
        ``nu``, or the cap ``n_estimators`` was reached (which warns:
        :class:`~sklearn.exceptions.ConvergenceWarning`).
    converged_ : bool
        Whether training ended by its own stop (``"time exhausted"`` or ``"no edge"``), as
        ``converged_`` of the column-generation estimators.
    history_ : dict of str to ndarray
        Per round: ``train_error``, ``alpha``, ``t`` (time consumed), ``remaining_time``,
        ``edge``, ``potential``, ``min_margin`` and ``mean_margin`` (normalized margins),
        ``solver_evaluations`` (function evaluations of the step solver) and ``time``.

    Notes
    -----
    The algorithm of Freund (2001), Fig. 2, with the weight :math:`\alpha` and the time
    :math:`t` of each round found by solving the two equations that the end point of Freund's
    differential equation satisfies (zero correlation under the new weights and conservation
    of the potential), instead of integrating the equation numerically; both give the same
    point.  Zhai et al. (2013) use BrownBoost as a noise-tolerant baseline of DirectBoost
    (their Tables 1, 3 and 4), with a "cutoff parameter" chosen on validation data, read here
    as ``target_error``.

    References
    ----------
    Freund, Y. (2001). An adaptive version of the boost by majority algorithm. Machine Learning
    43(3), 293-318.

    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. In Advances in Neural Information Processing Systems 26,
    pp. 872-880.
    """

    _algorithm_name = "BrownBoost"
    # target_error is range-checked only when it is used (c not given), by time_budget
    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators",
        "max_depth",
        "estimator",
        "max_bins",
        "random_state",
        target_error=[Real, None],
        c=[Interval(Real, 0.0, float("inf"), closed="neither"), None],
        nu=[Interval(Real, 0.0, 1.0, closed="both")],
        tol=[Interval(Real, 0.0, 1e-3, closed="right")],
    )
    reference = "freund2001adaptive"

    def __init__(
        self,
        target_error: float | None = 0.1,
        c: float | None = None,
        *,
        nu: float = 1e-6,
        n_estimators: int = 1000,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 1e-10,
        random_state: int | None = None,
    ) -> None:
        self.target_error = target_error
        self.c = c
        self.nu = nu
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.estimator = estimator
        self.max_bins = max_bins
        self.tol = tol
        self.random_state = random_state

    def _time_budget(self) -> float:
        if self.c is not None:
            c = self.c
            if (
                isinstance(c, bool)
                or not isinstance(c, numbers.Real)
                or not np.isfinite(c)
                or not c > 0
            ):
                raise ValueError(f"c (the time budget) must be a finite number > 0; got {c!r}")
            return float(c)
        if self.target_error is None:
            raise ValueError("BrownBoost needs the time budget c or a target_error; both are None")
        return time_budget(self.target_error)

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> BrownBoost:
        """Run BrownBoost until the time budget is used up (or no edge is left).

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
            Training inputs (finite values).
        y : array of shape (n_samples,)
            Labels, exactly two distinct values.
        sample_weight : array of shape (n_samples,), optional
            Non-negative example weights :math:`v_i` (normalized to sum 1); they multiply the
            weights :math:`W_i` and every sum of the step equations.  Uniform by default.

        Returns
        -------
        self
        """
        with one_blas_thread():
            X, y, v = self._validate_training_data(X, y, sample_weight)
            c = self._time_budget()
            nu = check_real(self.nu, "nu", 0.0, 1.0, low_inclusive=True)
            n_estimators = check_positive_int(self.n_estimators, "n_estimators")
            tol = check_real(self.tol, "tol", 0.0, 1e-3)
            codes = self._bin(X)
            learner = self._weak_learner_template("error")
            n = y.shape[0]
            keep = slice(None) if (v > 0).all() else np.flatnonzero(v > 0)
            history: dict[str, list[float]] = {
                key: []
                for key in (
                    "train_error",
                    "alpha",
                    "t",
                    "remaining_time",
                    "edge",
                    "potential",
                    "min_margin",
                    "mean_margin",
                    "solver_evaluations",
                    "time",
                )
            }
            estimators: list[Any] = []
            alphas: list[float] = []
            r = np.zeros(n)
            s = c
            potential = None  # P at the start of the round: the end point of the previous one
            l1_norm = 0.0
            self.stop_reason_ = "n_estimators"
            start = time.perf_counter()
            for round_index in range(n_estimators):
                a = r[keep] + s
                z = a * a
                weights = np.zeros(n)
                weights[keep] = v[keep] * np.exp((z.min() - z) / c)
                weights /= weights.sum()
                tree = learner.fit_binary(codes, y, weights)
                h = np.asarray(tree.predict(codes), dtype=np.float64)
                if not np.isin(h, (-1.0, 1.0)).all():
                    raise ValueError(
                        f"BrownBoost needs weak hypotheses with outputs -1 and +1; the "
                        f"weak learner predicted {np.unique(h)[:5]}"
                    )
                b = y * h
                edge = float(weights @ b)
                if not edge > nu:
                    self.stop_reason_ = "no edge"
                    break
                try:
                    step, potential = _solve_step(r[keep], b[keep], s, c, v[keep], tol, potential)
                except StepSolveError as error:
                    raise StepSolveError(f"BrownBoost, round {round_index + 1}: {error}") from error
                r += step.alpha * b
                s = 0.0 if step.time_limited else s - step.t
                l1_norm += abs(step.alpha)
                estimators.append(tree)
                alphas.append(step.alpha)
                history["train_error"].append(np.count_nonzero((y * r > 0) != (y > 0)) / n)
                history["alpha"].append(step.alpha)
                history["t"].append(step.t)
                history["remaining_time"].append(s)
                history["edge"].append(edge)
                history["potential"].append(step.potential)
                history["min_margin"].append(float(r.min()) / l1_norm)
                history["mean_margin"].append(float(r.sum()) / n / l1_norm)
                history["solver_evaluations"].append(step.evaluations)
                history["time"].append(time.perf_counter() - start)
                if s <= 0.0:
                    self.stop_reason_ = "time exhausted"
                    break
            if not estimators:
                raise NoEdgeError("BrownBoost", f"{self.stop_reason_} (no edge above nu = {nu:g})")
            self.history_ = {
                key: np.asarray(value, dtype=np.float64) for key, value in history.items()
            }
            self._set_stages(estimators, np.ones(len(estimators)), alphas)
            self.c_ = c
            self.remaining_time_ = s
            self.converged_ = self.stop_reason_ != "n_estimators"
            if not self.converged_:
                warnings.warn(
                    f"BrownBoost stopped at n_estimators={n_estimators} rounds with remaining time "
                    f"{s:.4g} of its budget c = {c:.4g}, before its own stop (the time used up, or "
                    "no edge above nu); raise n_estimators to let it finish.",
                    ConvergenceWarning,
                    stacklevel=2,
                )
            return self


BrownBoost.__doc__ = (
    (BrownBoost.__doc__ or "").rstrip() + "\n" + _examples_section("BrownBoost", "n_estimators=10")
)
