r"""Boosting over a fixed pool of weak hypotheses: AdaBoost-:math:`\ell_1` and AdaBoost-QP.

Shen & Li (2010), "On the dual formulation of boosting algorithms", IEEE TPAMI 32(12), solve
some problems directly on a finite pool :math:`h_1, \dots, h_N` known in advance (Tables II and
III): with :math:`A_{ij} = y_i h_j(x_i)`,

* :class:`AdaBoostL1`: eq. (5), :math:`\min_w \log\sum_i\exp(-(Aw)_i)` s.t. :math:`w \ge 0`,
  :math:`\mathbf 1^\top w = 1/T` (solved exactly by
  :func:`~marginboost.boosting._master_entropy.solve_adaboost_l1`);
* :class:`AdaBoostQP`: eq. (41), :math:`\min_w \tfrac12 w^\top C w - T b^\top w` s.t.
  :math:`w \ge 0`, :math:`\mathbf 1^\top w = 1`, i.e. maximise the mean normalized margin over
  ``T`` minus their variance over :math:`2T^2` (eq. (39)); the solution is stored scaled to
  :math:`\mathbf 1^\top w = 1/T` like AdaBoost-:math:`\ell_1` (the classifier and the normalized
  margins do not depend on the scale).

The pool (``pool=``) is either ``"all_stumps"``, every distinct stump on the binned training
data (:meth:`marginboost.weak.WeakPool.all_stumps`, Table III), or ``"adaboost"``, the
``n_pool`` stumps chosen by an ``n_pool``-round :class:`~marginboost.boosting.AdaBoost` run
(Table II uses 1500).  Only hypotheses with a positive weight are kept in ``estimators_``.
"""

from __future__ import annotations

import copy
import warnings
from abc import ABCMeta, abstractmethod
from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._sklearn import constraints
from . import _masters
from ._base import (
    NO_EDGE,
    BinaryBoostingClassifier,
    Codes,
    NoEdgeError,
    NotBoostedWarning,
    check_positive_int,
    check_real,
)
from ._blas_threads import one_blas_thread

__all__ = ["AdaBoostL1", "AdaBoostQP"]

FloatArray = NDArray[np.float64]

_POOLS = ("all_stumps", "adaboost")


class _PoolBoosting(BinaryBoostingClassifier, metaclass=ABCMeta):
    """Fit on a fixed pool: build the pool, solve one problem, keep the used hypotheses."""

    _parameter_constraints: dict[str, Any] = constraints(
        "max_bins",
        T=[Interval(Real, 0.0, float("inf"), closed="neither")],
        pool=[StrOptions(set(_POOLS))],
        n_pool=[Interval(Integral, 1, None, closed="left")],
    )

    def __init__(
        self, T: float = 0.05, pool: str = "adaboost", *, n_pool: int = 1500, max_bins: int = 255
    ) -> None:
        self.T = T
        self.pool = pool
        self.n_pool = n_pool
        self.max_bins = max_bins

    @abstractmethod
    def _solve(self, A: FloatArray, T: float) -> tuple[FloatArray, float]:
        """Optimal weights on the pool columns ``A`` and the optimal value."""

    def _build_pool(self, X: FloatArray, y_signed: FloatArray) -> tuple[Any, Codes]:
        from ..weak import WeakPool

        if self.pool == "all_stumps":
            if (
                self.n_pool != 1500
            ):  # not the default: the user meant it for a pool it has no use in
                warnings.warn(
                    f"n_pool={self.n_pool} is ignored with pool='all_stumps' (the pool is "
                    "every distinct stump); it sets the AdaBoost rounds of "
                    "pool='adaboost'",
                    UserWarning,
                    stacklevel=3,
                )
            codes = self._bin(X)
            return WeakPool.all_stumps(codes), codes
        from .stagewise import AdaBoost

        n_pool = check_positive_int(self.n_pool, "n_pool")
        booster = AdaBoost(
            n_estimators=n_pool,
            max_depth=1,
            max_bins=check_positive_int(self.max_bins, "max_bins", minimum=2),
        )
        try:
            booster.fit(X, y_signed)
        except NoEdgeError as error:
            raise ValueError(
                f"{type(self).__name__}: the pool is empty: the {n_pool}-round AdaBoost that "
                f"builds pool='adaboost' found no stump with a positive edge ({error})"
            ) from error
        self.mapper_ = booster.mapper_
        codes = self.mapper_.transform(X)
        return WeakPool.from_hypotheses(booster.estimators_, codes), codes

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> _PoolBoosting:
        """Build the pool on ``(X, y)`` and solve the problem on it.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
            Training inputs (finite values).
        y : array of shape (n_samples,)
            Labels, exactly two distinct values.
        sample_weight : array of shape (n_samples,), optional
            Only uniform weights are accepted: the pool problems weigh every example equally
            (Shen & Li 2010, eqs. (5), (10)); other weights raise ``ValueError``.

        Returns
        -------
        self
        """
        with one_blas_thread():
            X, y_signed, weights = self._validate_training_data(X, y, sample_weight)
            self._refuse_non_uniform_weights(
                sample_weight, weights, "the pool problems weigh every example equally"
            )
            T = check_real(self.T, "T", 0.0)
            if self.pool not in _POOLS:
                raise ValueError(f"pool must be one of {_POOLS}; got {self.pool!r}")
            pool, codes = self._build_pool(X, y_signed)
            if len(pool) == 0:
                raise ValueError(
                    "the pool is empty: every feature is constant on the training data"
                )
            self.pool_ = pool
            self._simplex_weights: FloatArray | None = None  # no warm start from an earlier fit
            self._A = y_signed[:, None] * np.asarray(pool.matrix(codes), dtype=np.float64)
            best_edge = float(self._A.mean(axis=0).max())
            if best_edge <= NO_EDGE:
                warnings.warn(
                    f"{type(self).__name__} was not able to boost: the best classifier of the pool "
                    f"has edge {best_edge:.3g} on the uniform example weights, no better than "
                    "chance (every row duplicated with the opposite label?). The weights are the "
                    "pool problem's solution over such classifiers.",
                    NotBoostedWarning,
                    stacklevel=2,
                )
            self._fit_weights(T)
            return self

    def with_T(self, T: float) -> _PoolBoosting:
        """A copy of this fitted estimator re-solved for another ``T`` on the same pool.

        Building the pool (an AdaBoost run, or enumerating every stump) is the expensive part
        of a fit; choosing ``T`` on a validation set re-solves only the pool problem.
        """
        check_is_fitted(self, "pool_")
        other = copy.copy(self)
        other.T = T
        other._fit_weights(check_real(T, "T", 0.0))
        return other

    def _fit_weights(self, T: float) -> None:
        A = self._A
        # Columns that coincide on the training data enter both problems only through A w,
        # so they are merged for the solve (an AdaBoost pool repeats its stumps many times)
        # and their weight is then split equally among them -- the symmetric solution, which
        # an interior-point solver would also return, and deterministic.
        unique, first, inverse, counts = np.unique(
            A, axis=1, return_index=True, return_inverse=True, return_counts=True
        )
        order = np.argsort(first)  # keep the pool's order among the merged columns
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        merged, objective = self._solve(unique[:, order], T)
        weights = merged[rank[inverse.ravel()]] / counts[inverse.ravel()]
        used = np.flatnonzero(weights > 0)
        pool = self.pool_
        self.pool_weights_ = weights
        self.n_distinct_columns_ = int(unique.shape[1])
        self.n_distinct_used_ = int(np.count_nonzero(merged > 0))
        self.objective_ = objective
        self._set_stages([pool.hypothesis(int(j)) for j in used], np.ones(used.size), weights[used])
        margins = A @ weights
        self.history_ = {
            "objective": np.array([objective]),
            "train_error": np.array([np.count_nonzero(margins <= 0) / A.shape[0]]),
            "min_margin": np.array([margins.min() / weights.sum()]),
            "mean_margin": np.array([margins.mean() / weights.sum()]),
        }


_POOL_DOC = """
    pool : {"adaboost", "all_stumps"}, default="adaboost"
        The stumps of an ``n_pool``-round AdaBoost (Shen & Li's Table II), or every distinct
        stump of the training data (their Table III; exact, but the problem has one column per
        stump: on scikit-learn's breast-cancer data, 30 features, a fit takes minutes instead
        of about a second).
    n_pool : int, default=1500
        AdaBoost rounds for ``pool="adaboost"``.
    max_bins : int, default=255
        Number of feature bins.
"""

#: The fitted attributes shared by the pool estimators (numpydoc ``Attributes``).
_POOL_ATTRIBUTES = r"""
    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is coded :math:`+1`.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features,)
        Names of the features seen in ``fit``; defined only when ``X`` has string column names.
    mapper_ : BinMapper
        The feature binning of the training inputs (that of the AdaBoost run for
        ``pool="adaboost"``).
    pool_ : WeakPool
        The pool :math:`h_1, \dots, h_N` the problem was solved on.
    pool_weights_ : ndarray of shape (N,)
        The optimal weight of every pool hypothesis (0 for the unused ones; hypotheses that
        coincide on the training data share their weight equally).
    estimators_ : list of FittedTree
        The pool hypotheses with a positive weight, in the order of the pool.
    alphas_ : ndarray of shape (n_estimators\_,)
        Their weights; they sum to ``1/T``.
    n_estimators_ : int
        Number of hypotheses with a positive weight.
    n_distinct_columns_ : int
        Number of pool hypotheses that are distinct on the training data (the size of the
        problem solved).
    n_distinct_used_ : int
        Number of those with a positive weight.
    history_ : dict of str to ndarray
        One entry each: ``objective``, ``train_error``, ``min_margin`` and ``mean_margin``
        (normalized margins) of the solution.
"""


class AdaBoostL1(_PoolBoosting):
    __doc__ = (
        r"""AdaBoost-:math:`\ell_1` solved exactly on a fixed pool (Shen & Li 2010, eq. (5)).

    Parameters
    ----------
    T : float, default=0.05
        The weights sum to ``1/T``."""
        + _POOL_DOC
        + _POOL_ATTRIBUTES
        + r"""    objective_ : float
        The optimal value of (5), :math:`\log\sum_i\exp(-y_iF(x_i))`.

    Notes
    -----
    Shen & Li (2010a) write AdaBoost with the :math:`\ell_1` norm of the weights fixed,
    :math:`\min_w \log\sum_i \exp(-(Aw)_i)` s.t. :math:`w \ge 0`,
    :math:`\mathbf 1^\top w = 1/T` (eq. (5); equivalent forms (3), (4) and (6)).  Its Lagrange
    dual (10), equivalently the entropy-regularised LPBoost (15), has the AdaBoost weights (24)
    as its KKT conditions.  Over a pool known in advance the primal is solved directly; with
    the weak learner as an oracle the same problem is solved by :class:`AdaBoostCG`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.
    """
    )

    _algorithm_name = "AdaBoost-l1"
    _proba_link = "exponential"

    def _solve(self, A: FloatArray, T: float) -> tuple[FloatArray, float]:
        try:
            solution = _masters.solve_adaboost_l1(A, T)
        except _masters.MasterSolverError as error:
            raise RuntimeError(
                f"AdaBoostL1: the pool problem (5) failed: {error.status}"
            ) from error
        return solution.w, solution.objective


class AdaBoostQP(_PoolBoosting):
    __doc__ = (
        r"""AdaBoost-QP (Shen & Li 2010, eq. (41)) on a fixed pool.

    Maximises :math:`\bar\varrho/T - \sigma^2/(2T^2)` (mean and population variance of the
    normalized margins, eq. (39)) over the simplex; ``alphas_`` are the solution scaled by
    ``1/T``.

    Parameters
    ----------
    T : float, default=0.05
        Trade-off between mean and variance (Shen & Li: 1/10 ... 1/500 by validation)."""
        + _POOL_DOC
        + _POOL_ATTRIBUTES
        + r"""    objective_ : float
        The value of the QP (41) at the simplex solution.

    Notes
    -----
    Shen & Li (2010a), Sec. 3.5 and Theorem 3.3, show that AdaBoost approximately maximises
    the average normalized margin over ``T`` minus the margin variance over :math:`2T^2`
    (eq. (39)); AdaBoost-QP (their Sec. 3.6) maximises it exactly, as the quadratic program
    (41) over the simplex, when the weak classifiers are known in advance.  Their Table II compares it with AdaBoost on the
    stumps of a 1500-round AdaBoost (``pool="adaboost"``), and Table III runs it on the full
    set of decision stumps (``pool="all_stumps"``).  The same objective over columns generated
    by the weak learner is :class:`MDBoost`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.
    """
    )

    _algorithm_name = "AdaBoost-QP"

    def _solve(self, A: FloatArray, T: float) -> tuple[FloatArray, float]:
        try:
            # warm start from the solution for the previous T (see with_T)
            previous = getattr(self, "_simplex_weights", None)
            w0 = previous if previous is not None and previous.size == A.shape[1] else None
            weights, value = _masters.solve_adaboost_qp(A, T, w0)
            self._simplex_weights = weights
        except _masters.MasterSolverError as error:
            raise RuntimeError(
                f"AdaBoostQP: the pool problem (41) failed: {error.status}"
            ) from error
        return weights / T, value


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
from .._sklearn import examples_section as _examples_section  # noqa: E402

AdaBoostL1.__doc__ = (
    (AdaBoostL1.__doc__ or "").rstrip() + "\n" + _examples_section("AdaBoostL1", "T=0.1")
)
AdaBoostQP.__doc__ = (
    (AdaBoostQP.__doc__ or "").rstrip() + "\n" + _examples_section("AdaBoostQP", "T=0.1")
)
