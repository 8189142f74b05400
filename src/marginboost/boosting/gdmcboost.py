r"""GD-MCBoost (Saberian & Vasconcelos 2011): functional gradient descent with codewords.

:class:`GDMCBoost` maps each class to a vertex of a regular simplex (:func:`simplex_codewords`)
and each multi-class tree to the codewords of its predictions; the step along a tree is the
exact line search :func:`codeword_line_search`.
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import logsumexp

from .._sklearn import constraints
from .._sklearn import examples_section as _examples_section
from ._base import Codes
from ._blas_threads import one_blas_thread
from ._multiclass_base import _COMMON_ATTRIBUTES, FloatArray, MulticlassBoostingClassifier
from ._steps import MIN_WEIGHTED_ERROR

__all__ = ["GDMCBoost", "simplex_codewords", "codeword_line_search"]


def simplex_codewords(n_classes: int) -> FloatArray:
    r"""The K codewords of GD-MCBoost: vertices of a regular simplex in :math:`\mathbb{R}^{K-1}`.

    Unit norm, centred (:math:`\sum_k y_k = 0`), :math:`\langle y_j, y_k\rangle = -1/(K-1)`
    for :math:`j \ne k`.  Built as :math:`y_k = \sqrt{K/(K-1)}\, B^\top e_k` with the Helmert
    basis :math:`B` of the plane :math:`\sum_k u_k = 0` (column :math:`j` is
    :math:`(-1, \dots, -1, j, 0, \dots)/\sqrt{j(j+1)}` with :math:`j` entries :math:`-1`), so
    ``K = 2`` gives :math:`y_0 = -1`, :math:`y_1 = +1` (the binary convention).  Shape
    ``(K, K-1)``.
    """
    if not isinstance(n_classes, numbers.Integral) or n_classes < 2:
        raise ValueError(f"n_classes must be an integer >= 2; got {n_classes!r}")
    basis = np.zeros((n_classes, n_classes - 1))
    for j in range(1, n_classes):
        basis[:j, j - 1] = -1.0
        basis[j, j - 1] = float(j)
        basis[:, j - 1] /= np.sqrt(j * (j + 1.0))
    return np.sqrt(n_classes / (n_classes - 1.0)) * basis


def codeword_line_search(pair_weights: FloatArray, pair_slopes: FloatArray) -> tuple[float, bool]:
    r"""Exact minimizer over :math:`\alpha \ge 0` of
    :math:`\varphi(\alpha) = \sum a_{ik} e^{-\alpha b_{ik}}` when every
    :math:`b_{ik} \in \{-\beta, 0, \beta\}` (one :math:`\beta > 0`).

    GD-MCBoost's step along a codeword-valued tree has this form (see :class:`GDMCBoost`):
    :math:`\varphi'(\alpha) = 0` at :math:`\alpha^* = \frac{1}{2\beta}\ln\frac{A_+}{A_-}`,
    :math:`A_\pm = \sum_{b_{ik} = \pm\beta} a_{ik}`.  Returns ``(step, perfect)``: step 0
    when :math:`A_+ \le A_-` (no descent), and when :math:`A_- = 0` (the loss decreases
    without bound) :math:`A_-` is replaced by :data:`MIN_WEIGHTED_ERROR` :math:`(A_+ + A_-)`
    and ``perfect`` is ``True``.
    """
    beta = float(np.abs(pair_slopes).max())
    if beta == 0.0:
        return 0.0, False
    if not np.all((pair_slopes == 0.0) | (np.abs(pair_slopes) == beta)):
        raise ValueError("pair_slopes must take only the values -beta, 0 and beta")
    gain = float(pair_weights[pair_slopes > 0].sum())
    loss = float(pair_weights[pair_slopes < 0].sum())
    if not gain > loss:
        return 0.0, False
    perfect = loss < MIN_WEIGHTED_ERROR * (gain + loss)
    if perfect:
        loss = MIN_WEIGHTED_ERROR * (gain + loss)
    return float(np.log(gain / loss) / (2.0 * beta)), perfect


class GDMCBoost(MulticlassBoostingClassifier):
    __doc__ = (
        r"""GD-MCBoost (Saberian & Vasconcelos 2011) with multi-class trees mapped to codewords.

    Source of truth: Saberian & Vasconcelos, "Multiclass boosting: theory and algorithms",
    *NIPS* 2011, as far as its description is known here (the paper is not in this
    repository; DMCBoost, Zhai et al. KDD 2014, uses it as a baseline "with multi-class
    decision trees" of depth 3).  Class :math:`k` has the codeword :math:`y_k \in
    \mathbb{R}^{K-1}` (:func:`simplex_codewords`), the predictor is
    :math:`f : \mathcal{X} \to \mathbb{R}^{K-1}`, the prediction
    :math:`\arg\max_k \langle y_k, f(x)\rangle` (:meth:`decision_function` returns
    :math:`\langle y_k, f(x)\rangle`), and the risk is

    .. math:: R[f] = \sum_i s_i \sum_{k \ne y_i} e^{-\frac12\langle y_{y_i} - y_k,\, f(x_i)\rangle}

    (:math:`s_i` the normalized ``sample_weight``, uniform :math:`1/n` by default: the paper's
    sum divided by :math:`n`; :math:`R[0] = K - 1`).  Functional gradient descent: with
    :math:`a_{ik} = s_i e^{-\frac12\langle y_{y_i} - y_k, f(x_i)\rangle}` (:math:`k \ne y_i`)
    and :math:`w_i = \tfrac12 \sum_{k \ne y_i} a_{ik}(y_{y_i} - y_k)`, the derivative of
    :math:`R` along a direction :math:`g` is :math:`-\sum_i \langle g(x_i), w_i\rangle`; each
    round

    1. picks :math:`g_t = \arg\max_{g \in G} \sum_i \langle g(x_i), w_i\rangle`,
    2. picks :math:`\alpha_t = \arg\min_{\alpha \ge 0} R[f + \alpha g_t]` (exact line search),
    3. sets :math:`f \leftarrow f + \alpha_t g_t`.

    Weak learners (an assumption, chosen so that GD-MCBoost boosts the same hypotheses as
    AdaBoost.M1, SAMME and DMCBoost in DMCBoost's Table 2): :math:`G = \{x \mapsto
    y_{h(x)}\}` with :math:`h` a depth-``max_depth`` K-class tree, i.e. every leaf outputs a
    codeword.  Then :math:`\sum_i \langle y_{h(x_i)}, w_i\rangle = \sum_i G_{i, h(x_i)}`,
    :math:`G_{ik} = \langle y_k, w_i\rangle`, which a tree maximizes by choosing in each leaf
    the class of largest :math:`\sum_i G_{ik}`: criterion ``"multiclass_error"`` of
    :meth:`~marginboost.weak.DecisionTree.fit_multiclass` on the non-negative class weights
    :math:`G_{ik} - \min_l G_{il}` (subtracting a per-sample constant changes every tree's
    objective by the same amount), grown greedily one split at a time (not an exhaustive
    search over trees).  Not implemented: the paper's other weak-learner families (e.g. a
    scalar weak learner times a fixed direction, as in its CD-MCBoost).

    Line search: along :math:`g = y_{h(x)}`,
    :math:`\tfrac12\langle y_{y_i} - y_k, y_{h(x_i)}\rangle = \beta([h(x_i) = y_i] -
    [h(x_i) = k])` with :math:`\beta = \frac{K}{2(K-1)}`, so
    :math:`R[f + \alpha g] = \sum a_{ik} e^{-\alpha b_{ik}}` with :math:`b_{ik} \in
    \{-\beta, 0, \beta\}` and the exact minimizer has a closed form
    (:func:`codeword_line_search`).  A tree with zero derivative stops boosting (it is not
    added); a tree without error on any pair (:math:`A_- = 0`) gets a clipped finite step and
    ends training (``stop_reason_ = "perfect weak learner"``).

    Parameters
    ----------
    n_estimators : int, default=100
        Maximum number of rounds.
    max_depth : int, default=3
        Depth of the K-class trees.
    max_bins : int, default=255
        Number of feature bins.
    warm_start : bool, default=False
        As for :class:`AdaBoostM1`.
    """
        + _COMMON_ATTRIBUTES
        + r"""    estimators_ : list of FittedTree
        The K-class trees :math:`h_t`; the weak learner of round :math:`t` is
        :math:`g_t(x) = y_{h_t(x)}`.
    alphas_ : ndarray of shape (n_estimators\_,)
        The steps :math:`\alpha_t` of the exact line searches.
    codewords_ : ndarray of shape (K, K-1)
        The codewords :math:`y_k`, in the order of ``classes_``.
    stop_reason_ : str
        ``"n_estimators"``, ``"perfect weak learner"`` or the round in which the best tree gave
        no descent direction.
    history_ : dict of str to ndarray
        Per round: ``loss`` (:math:`R` after the round), ``derivative``
        (:math:`\sum_i \langle g_t(x_i), w_i\rangle` before the step), ``train_error`` and
        ``time``.

    Notes
    -----
    GD-MCBoost of Saberian & Vasconcelos (2011): functional gradient descent on a
    margin-enforcing multi-class exponential risk, with the classes coded as the vertices of
    a regular simplex in :math:`\mathbb{R}^{K-1}`, and an exact line search per round.  Their
    coordinate-wise variant CD-MCBoost is not implemented.  Zhai, Xia & Wang (2014) run
    GD-MCBoost with the authors' code as a baseline of DMCBoost (their Table 2).

    References
    ----------
    Saberian, M. J. and Vasconcelos, N. (2011). Multiclass boosting: theory and algorithms. In
    Advances in Neural Information Processing Systems 24, pp. 2124-2132.

    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. In Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining, pp. 273-282.
    """
    )

    _algorithm_name = "GD-MCBoost"
    _parameter_constraints: dict[str, Any] = constraints(
        "n_estimators", "max_depth", "max_bins", "warm_start"
    )
    reference = "saberian2011multiclass"

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        max_depth: int = 3,
        max_bins: int = 255,
        warm_start: bool = False,
    ) -> None:
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.max_bins = max_bins
        self.warm_start = warm_start

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> GDMCBoost:
        """Fit the ensemble (``X``, ``y``, ``sample_weight`` as for :meth:`SAMME.fit`)."""
        with one_blas_thread():
            begun = self._begin(X, y, sample_weight, "multiclass_error", "loss", "derivative")
            if begun is None:  # a warm start that keeps the previous fit
                return self
            codes, y, weights, n_rounds, learner, done, history = begun
            n, n_classes = y.shape[0], self.n_classes_
            self.codewords_ = simplex_codewords(n_classes)
            gram = self.codewords_ @ self.codewords_.T
            beta = n_classes / (2.0 * (n_classes - 1.0))
            rows = np.arange(n)
            other = y[:, None] != np.arange(n_classes)  # the pairs (i, k), k != y_i
            with np.errstate(divide="ignore"):
                log_weights = np.log(weights)[:, None]
            scores = np.zeros((n, n_classes))  # <y_k, f(x_i)>
            estimators: list[Any] = []
            alphas: list[float] = []
            stop_reason = "n_estimators"
            start = time.perf_counter()

            def log_pair_weights() -> FloatArray:  # log a_ik, -inf for k = y_i
                return np.where(
                    other, log_weights - 0.5 * (scores[rows, y][:, None] - scores), -np.inf
                )

            log_pairs = log_pair_weights()
            for t in range(n_rounds):
                if t < len(done):  # a warm start replays the fitted rounds' updates
                    tree, alpha = done[t]
                    estimators.append(tree)
                    alphas.append(alpha)
                    scores += alpha * gram[tree.predict(codes).astype(np.intp)]
                    log_pairs = log_pair_weights()
                    continue
                if t == len(done):
                    start = self._clock(history)
                # a_ik / exp(shift): only directions and ratios are needed, so scale to max 1
                shift = float(log_pairs.max())
                pairs = np.exp(log_pairs - shift)
                w = 0.5 * (
                    pairs.sum(axis=1)[:, None] * self.codewords_[y] - pairs @ self.codewords_
                )
                gradient = w @ self.codewords_.T  # G_ik = <y_k, w_i>
                tree = learner.fit_multiclass(codes, y, gradient - gradient.min(axis=1)[:, None])
                predicted = tree.predict(codes).astype(np.intp)
                slopes = beta * (
                    (predicted == y)[:, None].astype(np.float64)
                    - (predicted[:, None] == np.arange(n_classes))
                )
                slopes[~other] = 0.0
                derivative = float(gradient[rows, predicted].sum()) * float(np.exp(shift))
                alpha, perfect = codeword_line_search(pairs, slopes)
                if alpha <= 0.0:
                    stop_reason = (
                        f"no descent direction in round {t + 1} (derivative "
                        f"{derivative:.3g} along the best tree)"
                    )
                    break
                estimators.append(tree)
                alphas.append(alpha)
                scores += alpha * gram[predicted]
                log_pairs = log_pair_weights()
                self._record_round(
                    history,
                    scores,
                    y,
                    start,
                    loss=float(np.exp(logsumexp(log_pairs))),
                    derivative=derivative,
                )
                if perfect:
                    stop_reason = "perfect weak learner"
                    break
            self._finish(history, estimators, alphas, stop_reason)
            return self

    def _stage_scores(self, codes: Codes) -> Iterator[FloatArray]:
        gram = self.codewords_ @ self.codewords_.T
        for alpha, tree in zip(self.alphas_, self.estimators_):
            yield alpha * gram[tree.predict(codes).astype(np.intp)]


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
GDMCBoost.__doc__ = (
    (GDMCBoost.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("GDMCBoost", "n_estimators=10", n_classes=3)
)
