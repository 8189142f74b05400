r"""What the members of the AnyBoost family share: their constructor and docstring sections.

``_FixedCostBoosting`` is the stage-wise engine (:class:`~marginboost.boosting._engine.StagewiseBoosting`)
with the constructor parameters of every member whose cost is fixed (all but
:class:`~marginboost.boosting.anyboost.AnyBoost`); ``_COMMON_PARAMETERS``, ``_ATTRIBUTES`` and
``_examples`` are the numpydoc sections their docstrings are built from.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.utils._param_validation import Interval

from ._engine import StagewiseBoosting as _StagewiseBoosting

_POSITIVE = [Interval(Real, 0.0, float("inf"), closed="neither")]

FloatArray = NDArray[np.float64]


class _FixedCostBoosting(_StagewiseBoosting):
    """Members of the family: common constructor parameters (see :class:`AnyBoost`)."""

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float | None = None,
        validation_fraction: float = 0.1,
        n_iter_no_change: int | None = None,
        random_state: int | None = None,
    ) -> None:
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.estimator = estimator
        self.max_bins = max_bins
        self.tol = tol
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state


_COMMON_PARAMETERS = """
    n_estimators, max_depth, estimator, max_bins
        As for :class:`AnyBoost`.
    tol, validation_fraction, n_iter_no_change, random_state
        As for :class:`AnyBoost`.
"""

#: The fitted attributes of every stage-wise estimator (numpydoc ``Attributes`` section).
_ATTRIBUTES = r"""
    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is coded :math:`+1` (a positive
        ``decision_function`` predicts it).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features,)
        Names of the features seen in ``fit``; defined only when ``X`` has string column names.
    mapper_ : BinMapper or RawFeatures
        The feature binning fitted on the training inputs
        (:class:`~marginboost.weak.BinMapper`), or :class:`~marginboost.weak.RawFeatures` for a
        weak learner that reads the raw features.
    estimators_ : list of FittedTree
        The weak learners :math:`f_t`, in the order they were added.
    alphas_ : ndarray of shape (n_estimators\_,)
        Their weights in the final combination :math:`F(x) = \sum_t \alpha_t f_t(x)`; for the
        normalized updates (DOOM II, ARC-x4's AnyBoost form) the weights after every later
        rescaling, so that they sum to 1.
    n_estimators_ : int
        Number of weak learners in the final combination.
    n_rounds_run_ : int
        Number of rounds trained; larger than ``n_estimators_`` when early stopping cut the
        ensemble back to its best validation round.
    history_ : dict of str to ndarray
        Per-round records, one entry per kept round: ``train_error``, ``objective`` (the
        training cost :math:`C(F_t)`), ``edge``, ``min_margin`` and ``mean_margin`` (normalized
        margins), ``weight_entropy``, ``step`` and ``time``, plus ``validation_error`` when
        validation data were used (see :mod:`marginboost.boosting.stagewise`).
    stop_reason_ : str
        Why training ended: ``"n_estimators"``, ``"weak learner does not point downhill"``,
        ``"zero gradient"``, ``"zero step"``, ``"perfect weak learner"``, ``"tol"`` or
        ``"early stopping"``.
"""


def _examples(name: str) -> str:
    return f"""
    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from marginboost import {name}
    >>> X, y = make_classification(n_samples=100, n_features=4, random_state=0)
    >>> model = {name}(n_estimators=10).fit(X, y)
    >>> model.predict(X[:3]).shape, model.predict_proba(X[:3]).shape
    ((3,), (3, 2))
    """
