r"""Real AdaBoost.MH (Schapire & Singer 1999) with vector-valued decision trees.

:class:`AdaBoostMH` boosts the K binary problems "class k or not" together, with weights over
the example-class pairs and trees whose leaves hold one confidence per class
(:func:`confidence_leaf_values`, Schapire & Singer's smoothed values).
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Iterator
from numbers import Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils._param_validation import Interval

from .._sklearn import constraints
from .._sklearn import examples_section as _examples_section
from ._base import Codes
from ._blas_threads import one_blas_thread
from ._multiclass_base import _COMMON_ATTRIBUTES, FloatArray, MulticlassBoostingClassifier

__all__ = ["AdaBoostMH", "confidence_leaf_values"]


def _check_smoothing(smoothing: float | None, default: float) -> float:
    if smoothing is None:
        return default
    if (
        not isinstance(smoothing, numbers.Real)
        or isinstance(smoothing, bool)
        or not np.isfinite(smoothing)
        or smoothing <= 0
    ):
        raise ValueError(f"smoothing must be a finite number > 0 or None; got {smoothing!r}")
    return float(smoothing)


def confidence_leaf_values(
    leaves: NDArray[np.int64], Y: FloatArray, weight: FloatArray, n_leaves: int, smoothing: float
) -> FloatArray:
    r"""Schapire & Singer's smoothed leaf values :math:`c_{jk} = \tfrac12
    \ln\frac{W^j_{+k} + \epsilon}{W^j_{-k} + \epsilon}`, shape ``(n_leaves, K)``.

    :math:`W^j_{\pm k} = \sum_{i:\, \mathrm{leaf}(x_i) = j,\, Y_{ik} = \pm1} D(i, k)` is summed
    here from the samples (``leaves``: the leaf of every sample), not read off the tree's
    histograms.
    """
    n_problems = Y.shape[1]
    positive = np.empty((n_leaves, n_problems))
    negative = np.empty((n_leaves, n_problems))
    for k in range(n_problems):
        positive[:, k] = np.bincount(
            leaves, weights=weight[:, k] * (Y[:, k] > 0), minlength=n_leaves
        )
        negative[:, k] = np.bincount(
            leaves, weights=weight[:, k] * (Y[:, k] < 0), minlength=n_leaves
        )
    return 0.5 * np.log((positive + smoothing) / (negative + smoothing))


class AdaBoostMH(MulticlassBoostingClassifier):
    __doc__ = (
        r"""Real AdaBoost.MH (Schapire & Singer 1999) with vector-valued decision trees.

    Schapire & Singer, "Improved boosting algorithms using confidence-rated predictions",
    *Machine Learning* 37:297-336 (1999): the Hamming-loss reduction of a K-class problem to
    K binary problems :math:`Y_{ik} = +1` if :math:`y_i = k`, else :math:`-1`, boosted
    together with weights :math:`D_t(i, k)` over the :math:`nK` pairs
    (:math:`D_1(i, k) = w_i / K`, :math:`w` the normalized ``sample_weight``).  Round :math:`t`

    1. grows a depth-``max_depth`` tree that minimizes
       :math:`Z = 2\sum_j \sum_k \sqrt{W^j_{+k} W^j_{-k}}` greedily, one split at a time
       (:meth:`marginboost.weak.DecisionTree.fit_multilabel`, criterion ``"confidence"``;
       :math:`W^j_{\pm k}` the weight :math:`D_t` of the pairs of leaf :math:`j`, problem
       :math:`k`, label :math:`\pm1`);
    2. gives leaf :math:`j` the vector :math:`c_{jk} = \tfrac12 \ln\frac{W^j_{+k} +
       \epsilon}{W^j_{-k} + \epsilon}` (:func:`confidence_leaf_values`), so
       :math:`h_t(x, k) = c_{\mathrm{leaf}(x), k}`;
    3. sets :math:`Z_t = \sum_{i,k} D_t(i, k) e^{-Y_{ik} h_t(x_i, k)}` and
       :math:`D_{t+1}(i, k) = D_t(i, k) e^{-Y_{ik} h_t(x_i, k)} / Z_t`; the round is discarded
       and boosting stops when :math:`Z_t \ge 1` (the tree does not decrease the bound below).

    :math:`f(x, k) = \sum_t h_t(x, k)` (:meth:`decision_function`; ``alphas_`` are all 1,
    the step being folded into the leaf values) and the prediction is
    :math:`\arg\max_k f(x, k)`.  The :math:`D_1`-weighted training Hamming loss
    :math:`\sum_{i,k} D_1(i, k) [Y_{ik} f(x_i, k) \le 0]` is at most :math:`\prod_t Z_t`
    (Schapire & Singer's bound; ``history_["hamming_loss"]`` and ``history_["z"]``).

    Split rule: exactly the criterion Schapire & Singer give for domain-partitioning weak
    hypotheses (choose the partition minimizing the unsmoothed :math:`Z`), applied greedily
    node by node as for any top-down tree; the search over whole depth-``max_depth`` trees is
    not exhaustive.  The leaf values are then smoothed with :math:`\epsilon` (their Sec. 4.2),
    and :math:`Z_t` is the normalizer of the smoothed values.  For ``K = 2`` the two problems
    are mirror images and AdaBoost.MH is real AdaBoost on the :math:`\pm1` problem
    (:class:`~marginboost.boosting.RealAdaBoost` with ``DecisionTree(criterion="confidence")``
    and smoothing :math:`2\epsilon`): :math:`f(x, 1) = -f(x, 0) = F(x)`.

    Parameters
    ----------
    n_estimators : int, default=100
        Maximum number of rounds.
    max_depth : int, default=3
        Depth of the trees.
    max_bins : int, default=255
        Number of feature bins.
    smoothing : float, optional
        :math:`\epsilon > 0`; ``None`` means :math:`1/(2nK)` (Schapire & Singer recommend
        :math:`\epsilon` of the order of :math:`1/(nK)`; the same relative smoothing as
        :class:`~marginboost.boosting.RealAdaBoost`'s default :math:`1/(2n)`).
    warm_start : bool, default=False
        As for :class:`AdaBoostM1`.
    """
        + _COMMON_ATTRIBUTES
        + r"""    estimators_ : list of FittedTree
        The vector-valued trees :math:`h_t`, whose leaves hold the smoothed values
        :math:`c_{jk}`.
    alphas_ : ndarray of shape (n_estimators\_,)
        All 1: the step is folded into the leaf values.
    stop_reason_ : str
        ``"n_estimators"`` or the round whose normaliser :math:`Z_t` reached 1.
    history_ : dict of str to ndarray
        Per round: ``z`` (:math:`Z_t`), ``hamming_loss`` (the :math:`D_1`-weighted training
        Hamming loss), ``train_error`` and ``time``.

    Notes
    -----
    The Hamming-loss reduction AdaBoost.MH of Schapire & Singer (1999) with real-valued
    (confidence-rated) domain-partitioning weak hypotheses: the partition is chosen to
    minimise :math:`Z_t`, the leaf values are their smoothed :math:`\tfrac12\ln` ratios
    (Sec. 4.2), and the training Hamming loss is bounded by :math:`\prod_t Z_t`.  Zhai, Xia &
    Wang (2014) compare DMCBoost with AdaBoost.MH in their Tables 3 and 4; the base learner
    they used is not stated beyond a reduction to binary problems, so the trees here are an
    assumption.

    References
    ----------
    Schapire, R. E. and Singer, Y. (1999). Improved boosting algorithms using confidence-rated
    predictions. Machine Learning 37(3), 297-336.

    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. In Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining, pp. 273-282.
    """
    )

    _algorithm_name = "AdaBoost.MH"
    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators",
        "max_depth",
        "max_bins",
        "warm_start",
        smoothing=[Interval(Real, 0.0, float("inf"), closed="neither"), None],
    )
    reference = "schapire1999improved"

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        max_depth: int = 3,
        max_bins: int = 255,
        smoothing: float | None = None,
        warm_start: bool = False,
    ) -> None:
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.max_bins = max_bins
        self.smoothing = smoothing
        self.warm_start = warm_start

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> AdaBoostMH:
        """Fit the ensemble (``X``, ``y``, ``sample_weight`` as for :meth:`SAMME.fit`)."""
        with one_blas_thread():
            begun = self._begin(X, y, sample_weight, "confidence", "z", "hamming_loss")
            if begun is None:  # a warm start that keeps the previous fit
                return self
            codes, y, weights, n_rounds, learner, done, history = begun
            n, n_classes = y.shape[0], self.n_classes_
            smoothing = _check_smoothing(self.smoothing, 0.5 / (n * n_classes))
            Y = np.where(y[:, None] == np.arange(n_classes), 1.0, -1.0)
            initial = np.repeat(weights[:, None] / n_classes, n_classes, axis=1)
            with np.errstate(divide="ignore"):
                log_weights = np.log(initial)
            scores = np.zeros((n, n_classes))
            estimators: list[Any] = []
            stop_reason = "n_estimators"
            start = time.perf_counter()
            for t in range(n_rounds):
                if t < len(done):  # a warm start replays the fitted rounds' updates
                    tree = done[t][0]
                    leaves = tree.apply(codes)
                    values = tree.leaf_values_
                    exponent = -Y * values[leaves]
                else:
                    if t == len(done):
                        start = self._clock(history)
                    D = np.exp(log_weights - log_weights.max())
                    D /= D.sum()
                    grown = learner.fit_multilabel(codes, Y, D)
                    leaves = grown.apply(codes)
                    values = confidence_leaf_values(leaves, Y, D, grown.n_leaves_, smoothing)
                    exponent = -Y * values[leaves]
                    z = float((D * np.exp(exponent)).sum())
                    if not z < 1.0:
                        stop_reason = f"Z_t = {z:.6g} >= 1 in round {t + 1}"
                        break
                    tree = grown.with_leaf_values(values)
                estimators.append(tree)
                scores += values[leaves]
                log_weights = log_weights + exponent
                if t >= len(done):
                    hamming = float(initial[Y * scores <= 0].sum())
                    self._record_round(history, scores, y, start, z=z, hamming_loss=hamming)
            self._finish(history, estimators, np.ones(len(estimators)), stop_reason)
            return self

    def _proba_from_scores(self, scores: FloatArray) -> FloatArray:
        r"""Each class's one-against-the-rest exponential-loss link :math:`1/(1 + e^{-2F_k})`
        (Friedman, Hastie & Tibshirani 2000, eq. (5)), normalized to sum 1 over the classes."""
        from scipy.special import expit

        one_vs_rest: FloatArray = expit(2.0 * scores)
        probabilities: FloatArray = one_vs_rest / one_vs_rest.sum(axis=1, keepdims=True)
        return probabilities

    def _stage_scores(self, codes: Codes) -> Iterator[FloatArray]:
        for tree in self.estimators_:
            yield tree.predict_vector(codes)


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
AdaBoostMH.__doc__ = (
    (AdaBoostMH.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("AdaBoostMH", "n_estimators=10", n_classes=3)
)
