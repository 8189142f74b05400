r"""LPBoost and ERLPBoost: column generation on the soft-margin LP and its entropy-regularised form.

* :class:`LPBoost` (Grove & Schuurmans 1998; Demiriz, Bennett & Shawe-Taylor 2002): the hard-
  and soft-margin LP duals (20)/(22) of Shen & Li (2010), kept in one HiGHS model per fit
  (:class:`~marginboost.boosting._master_lp.LPBoostMaster`), with dual smoothing and multiple
  pricing as options;
* :class:`ERLPBoost` (Warmuth, Glocer & Vishwanathan 2008): the soft-margin dual regularised by
  the relative entropy (:func:`~marginboost.boosting._master_entropy.solve_erlpboost`), with its
  stopping rule on the certified accuracy.
"""

from __future__ import annotations

import hashlib
from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils._param_validation import Interval

from .._sklearn import examples_section as _examples_section
from . import _masters
from ._base import check_positive_int, check_real
from ._blas_threads import one_blas_thread
from .column_generation import _ATTRIBUTES, _COMMON_DOC, _POSITIVE, FloatArray, _CGParams

__all__ = ["LPBoost", "ERLPBoost"]


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

        The restricted master is one :class:`~marginboost.boosting._master_lp.LPBoostMaster`
        per fit: each iteration adds the new column as one edge constraint and re-solves from
        the previous optimal basis.  It is dropped when ``fit`` returns (a HiGHS model is
        neither picklable nor needed for prediction), unless ``warm_start`` is set: then the
        next fit goes on with it, and a pickle keeps its final basis, from which the master
        rebuilt after unpickling restarts.
        """
        with one_blas_thread():
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
    (:func:`~marginboost.boosting._master_entropy.solve_erlpboost`).  Training stops when
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


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
LPBoost.__doc__ = (LPBoost.__doc__ or "").rstrip() + "\n" + _examples_section("LPBoost", "nu=0.2")
ERLPBoost.__doc__ = (
    (ERLPBoost.__doc__ or "").rstrip() + "\n" + _examples_section("ERLPBoost", "nu=0.2")
)
