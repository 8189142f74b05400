r"""Histogram decision stumps and depth-k trees on binned features.

:class:`DecisionTree` is the weak learner of every stage-wise and column-generation booster in
the project.  It is configured once (depth, criterion, leaf constraints) and fitted many times
on the same ``uint8`` codes (from :class:`~marginboost.weak.BinMapper`) with new weights; each
fit returns an immutable, picklable :class:`FittedTree`.

Criteria
--------
``"error"``
    Binary labels :math:`y_i \in \{-1,+1\}`, weights :math:`w_i` (possibly negative).  The tree
    maximizes the edge :math:`\sum_i w_i y_i h(x_i)` over trees with leaves in
    :math:`\{-1,+1\}`, one split at a time; with non-negative weights this minimizes the
    weighted training error :math:`\sum_i w_i [h(x_i) \ne y_i]` (AdaBoost's weak learner,
    Freund & Schapire 1997; the gradient weak learner of AnyBoost, Mason et al. 1999, eq. (4)
    with :math:`g_i = w_i y_i`).  Leaf value: the sign of the leaf's :math:`\sum w_i y_i`
    (+1 when it is zero).  A node is split only if the edge strictly increases.
``"gini"``, ``"entropy"``
    Weighted impurity decrease exactly as scikit-learn's ``DecisionTreeClassifier``:
    a node is split while it is impure and a split satisfying the leaf constraints exists, even
    when the best decrease is zero.  Binary leaves predict the weighted majority (+1 on ties),
    multi-class leaves the class with the largest weight (lowest index on ties).
``"squared_error"``
    Weighted least squares (``fit_regression``, ``fit_vector``): leaves are weighted means; the
    split maximizes :math:`\sum_{\text{children}} \lVert S\rVert^2 / W` as scikit-learn's
    ``DecisionTreeRegressor`` (split while the targets of a node are not constant).
``"multiclass_error"``
    A weight :math:`W_{ik} \ge 0` per (sample, class); the tree maximizes
    :math:`\sum_i \sum_k W_{ik} [h(x_i) = k]` (AdaBoost.M1/SAMME with :math:`W_{ik} = w_i
    [y_i = k]`, pseudo-loss style weights otherwise).  Split only on a strict increase.
``"confidence"``
    Schapire & Singer's (1999) criterion for confidence-rated leaves: with :math:`W^j_{\pm}`
    the weight of the labels :math:`\pm1` in leaf :math:`j`, the tree minimizes
    :math:`Z = 2\sum_j \sqrt{W^j_+ W^j_-}` (their domain-partitioning hypotheses, Sec. 4.2),
    the normalizer obtained with the leaf values :math:`\tfrac12\ln(W^j_+/W^j_-)`, one split
    at a time.  ``fit_binary`` uses it on binary labels; ``fit_multilabel`` on K binary
    problems at once (their AdaBoost.MH): :math:`Z = 2\sum_j\sum_k \sqrt{W^j_{+k} W^j_{-k}}`.
    Leaves predict the sign of :math:`W_+ - W_-` (+1 on ties); boosters set the real values
    themselves (:meth:`FittedTree.with_leaf_values`).  Split only on a strict decrease of
    :math:`Z`.

Ties between equally good splits (within a relative ``1e-10``) go to the lowest feature index,
then to the lowest bin; a split is reported at the lowest bin that produces its partition of
the node.  Growth is depth-first; for each split the histogram of the child with fewer samples
is built and the other child's is the parent's minus it.  Children at the maximum depth need
no histogram (nor a partition of the samples): their sums come from the parent's histogram.
Purity (which stops the impurity criteria) is decided from the node's samples, never from
subtracted histograms, whose rounding errors could make a pure node look impure.  With
two-channel statistics the root's split is searched on a cheaper histogram whose bins of a
sparse column's dominant code come from a subtraction (depth-1 trees, and the root and larger
children of deeper trees); every split so found is checked on the exact rows it needs, which
also give the leaves, so the tree is the one exact histograms give (see ``_SearchRoot``).

Performance (two cores, after JIT compilation): a stump on 100,000 x 50 codes takes about
3 ms, a depth-3 tree on 48,842 x 100 about 6 ms (random 255-bin codes).  The cost is dominated
by one pass over the samples per level.  With the binary criteria, features with few distinct
codes (one-hot indicators) are accumulated four at a time, with the same additions in the same
order: the root histogram of the one-hot Adult data (48,842 x 108) takes about 5.5 ms on one
core instead of 8.5 ms.  Multi-class trees with one weight per sample (``fit_multiclass`` with a
1-D ``class_weight``: AdaBoost.M1, SAMME) keep the labels and weights instead of a dense
(n, K) matrix and histograms only over the codes that occur; their trees are identical to those
of the dense statistics, at two additions per sample and feature instead of K + 1.

This module holds the learner, :class:`DecisionTree`, and what it returns, :class:`FittedTree`;
the helpers its fits use (input checks, the per-sample statistics, the acceptance of splits,
the leaf values) are in :mod:`marginboost.weak._tree_fitting`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import (
    _apply_kernels,
    _input_kernels,
    _search_histogram_kernels,
    _split_kernels,
)
from ._input_kernels import (
    CONFIDENCE,
    ENTROPY,
    ERROR,
    GINI,
    MULTICLASS_ERROR,
    SQUARED_ERROR,
)
from ._split_kernels import TIE_RTOL
from ._tree_fitting import (
    _accepted_split,
    _check_features,
    _check_matrix,
    _check_vector,
    _check_weight,
    _DenseStatistics,
    _LabelStatistics,
    _leaf_values,
    _same_split,
    _SearchRoot,
)
from .binning import BinMapper, check_codes

__all__ = ["DecisionTree", "FittedTree", "CRITERIA"]

CRITERIA = {
    "error": ERROR,
    "gini": GINI,
    "entropy": ENTROPY,
    "squared_error": SQUARED_ERROR,
    "multiclass_error": MULTICLASS_ERROR,
    "confidence": CONFIDENCE,
}
_BINARY_CRITERIA = ("error", "gini", "entropy", "confidence")
_MULTICLASS_CRITERIA = ("gini", "entropy", "multiclass_error")


@dataclass(frozen=True, eq=False)
class FittedTree:
    r"""An immutable fitted tree: node arrays plus leaf values.

    Internal node ``i`` sends a sample left when ``codes[:, node_feature[i]] <= node_bin[i]``.
    ``node_leaf[i]`` is the leaf index of node ``i`` (``-1`` for internal nodes).  Trees are
    made by the weak learners (:class:`DecisionTree`, :class:`DirectTreeBuilder`,
    :meth:`WeakPool.hypothesis`), rarely by hand; nodes are numbered in depth-first pre-order
    from the root 0 and leaves in the same order.

    Parameters
    ----------
    node_feature, node_bin : ndarray of int64, shape (n_nodes,)
        Feature and bin of the split of every internal node (``-1`` at leaves).
    node_left, node_right : ndarray of int64, shape (n_nodes,)
        Index of the left and right child of every internal node (``-1`` at leaves).
    node_leaf : ndarray of int64, shape (n_nodes,)
        Leaf index of every leaf node, ``-1`` for internal nodes.
    leaf_values\_, kind, criterion, n_features_in\_, depth\_, leaf_statistics\_
        Stored as the attributes below.

    Attributes
    ----------
    leaf_values_ : ndarray, shape (n_leaves,) or (n_leaves, K)
        Prediction of each leaf (vector-valued for ``kind == "vector"``).
    leaf_statistics_ : ndarray, shape (n_leaves, n_channels)
        Sums of the fitting statistics in each leaf: ``[|w|, w y]`` for ``"error"``, class
        weights for ``"gini"``/``"entropy"``/``"multiclass_error"`` (binary: ``[w_-, w_+]``),
        ``[w, w t_1, ..]`` for ``"squared_error"``, ``[W-_1, W+_1, .., W-_K, W+_K]`` for
        ``fit_multilabel``.  ``None`` after :meth:`with_leaf_values`.
    kind : {"binary", "regression", "multiclass", "vector"}
        What :meth:`predict` returns: :math:`\pm 1`, a real value, a class index, or (with
        :meth:`predict_vector`) a vector.
    criterion : str
        The split criterion the tree was grown with (``"direct"`` for direct trees).
    n_features_in_ : int
        Number of features (columns of the codes) the tree was grown on.
    depth_ : int
        Depth of the tree (1 for a stump, 0 for a single leaf).

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.weak import DecisionTree
    >>> codes = np.asfortranarray(np.array([[0, 3], [1, 2], [2, 1], [3, 0]], dtype=np.uint8))
    >>> tree = DecisionTree(max_depth=1).fit_binary(codes, np.array([-1, -1, 1, 1]))
    >>> tree.splits(), tree.depth_, tree.n_leaves_
    ([(0, 1)], 1, 2)
    >>> tree.apply(codes).tolist(), tree.predict(codes)
    ([0, 0, 1, 1], array([-1., -1.,  1.,  1.]))
    >>> tree.with_leaf_values([-0.5, 2.0]).predict(codes)
    array([-0.5, -0.5,  2. ,  2. ])
    """

    node_feature: NDArray[np.int64]
    node_bin: NDArray[np.int64]
    node_left: NDArray[np.int64]
    node_right: NDArray[np.int64]
    node_leaf: NDArray[np.int64]
    leaf_values_: NDArray[np.float64]
    kind: str
    criterion: str
    n_features_in_: int
    depth_: int
    leaf_statistics_: NDArray[np.float64] | None = field(default=None, repr=False)

    @property
    def n_leaves_(self) -> int:
        """Number of leaves."""
        return int(self.leaf_values_.shape[0])

    @property
    def n_nodes_(self) -> int:
        """Number of nodes (internal and leaves)."""
        return int(self.node_leaf.shape[0])

    def apply(self, codes: ArrayLike) -> NDArray[np.int64]:
        """Leaf index (``0..n_leaves_-1``) of every sample of ``codes``."""
        codes = check_codes(codes, self.n_features_in_)
        leaves: NDArray[np.int64] = _apply_kernels.apply_tree(
            codes, self.node_feature, self.node_bin, self.node_left, self.node_right, self.node_leaf
        )
        return leaves

    def predict(self, codes: ArrayLike) -> NDArray[np.float64]:
        """Leaf value of every sample: +-1 (binary), real (regression), class index (multi-class)."""
        if self.leaf_values_.ndim != 1:
            raise ValueError("this tree has vector-valued leaves; use predict_vector")
        codes = check_codes(codes, self.n_features_in_)
        return _apply_kernels.tree_values(
            codes,
            self.node_feature,
            self.node_bin,
            self.node_left,
            self.node_right,
            self.node_leaf,
            self.leaf_values_,
        )

    def predict_vector(self, codes: ArrayLike) -> NDArray[np.float64]:
        """Leaf vector of every sample, shape (n_samples, K), for vector-valued leaves."""
        if self.leaf_values_.ndim != 2:
            raise ValueError("this tree has scalar leaves; use predict")
        return self.leaf_values_[self.apply(codes)]

    def with_leaf_values(self, values: ArrayLike) -> FittedTree:
        """The same splits with other leaf values (shape (n_leaves,) or (n_leaves, K)).

        A 1-D ``values`` gives a tree whose :meth:`predict` returns them; a 2-D one gives a
        vector-valued tree (``kind == "vector"``).
        """
        values = np.array(values, dtype=np.float64)
        if values.ndim not in (1, 2) or values.shape[0] != self.n_leaves_:
            raise ValueError(
                f"values must have shape ({self.n_leaves_},) or ({self.n_leaves_}, K); "
                f"got {values.shape}"
            )
        if not np.isfinite(values).all():
            raise ValueError("leaf values must be finite")
        values.setflags(write=False)
        if values.ndim == 2:
            kind = "vector"
        elif self.kind == "vector":
            kind = "regression"
        else:
            kind = self.kind
        return FittedTree(
            self.node_feature,
            self.node_bin,
            self.node_left,
            self.node_right,
            self.node_leaf,
            values,
            kind,
            self.criterion,
            self.n_features_in_,
            self.depth_,
            None,
        )

    def splits(self) -> list[tuple[int, int]]:
        """``(feature, bin)`` of the internal nodes in depth-first (pre-)order."""
        result: list[tuple[int, int]] = []
        stack = [0]
        while stack:
            node = stack.pop()
            if self.node_leaf[node] < 0:
                result.append((int(self.node_feature[node]), int(self.node_bin[node])))
                stack.extend((int(self.node_right[node]), int(self.node_left[node])))
        return result

    def describe(
        self, mapper: BinMapper | None = None, feature_names: list[str] | None = None
    ) -> str:
        """Human-readable splits, with raw thresholds when ``mapper`` is given."""
        lines: list[str] = []

        def name(feature: int) -> str:
            return feature_names[feature] if feature_names is not None else f"x[{feature}]"

        def condition(node: int) -> str:
            feature, bin_index = int(self.node_feature[node]), int(self.node_bin[node])
            if mapper is not None:
                return f"{name(feature)} <= {mapper.threshold(feature, bin_index):.6g}"
            return f"code({name(feature)}) <= {bin_index}"

        def value(leaf: int) -> str:
            v = self.leaf_values_[leaf]
            return np.array2string(v, precision=4) if np.ndim(v) else f"{float(v):.6g}"

        def visit(node: int, indent: str) -> None:
            leaf = int(self.node_leaf[node])
            if leaf >= 0:
                lines.append(f"{indent}leaf {leaf}: {value(leaf)}")
                return
            lines.append(f"{indent}if {condition(node)}:")
            visit(int(self.node_left[node]), indent + "    ")
            lines.append(f"{indent}else:")
            visit(int(self.node_right[node]), indent + "    ")

        visit(0, "")
        return "\n".join(lines)


class DecisionTree:
    r"""Histogram decision tree on binned features (``max_depth=1`` is a decision stump).

    Parameters
    ----------
    max_depth : int, default 1
        Maximum depth (1 to 16).
    criterion : {"error", "gini", "entropy", "squared_error", "multiclass_error", "confidence"}
        Split criterion (see the module docstring).
    min_samples_leaf : int, default 1
        Minimum number of samples in each leaf.
    min_weight_leaf : float, default 0.0
        Minimum total weight in each leaf (``|w|`` for ``"error"``, the sample weight for
        ``"squared_error"``, the sum of class weights otherwise).

    Notes
    -----
    The learner keeps no fitted state: it is configured once and each ``fit_*`` method
    (:meth:`fit_binary`, :meth:`fit_regression`, :meth:`fit_vector`, :meth:`fit_multiclass`,
    :meth:`fit_multilabel`) returns a new :class:`FittedTree`.  With ``criterion="error"`` a
    stump maximises the edge :math:`\sum_i w_i y_i h(x_i)`: the weak learner of AdaBoost
    (Freund & Schapire 1997) and the gradient weak learner of AnyBoost (Mason et al. 1999).
    The criteria and the tie rules are described in :mod:`marginboost.weak.tree`.

    A stump with two statistics per sample (every binary criterion and ``"squared_error"``)
    searches its split on a histogram that adds only the rows of a mostly-constant column
    (a one-hot indicator) whose code differs from the column's usual one, then checks the
    split and sums its leaves on the exact histograms of the features it needs; the tree is
    the one the exact histogram of every feature gives (unless two splits' scores differ by
    the tie tolerance ``TIE_RTOL`` to within rounding error).

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.weak import DecisionTree
    >>> codes = np.asfortranarray(np.array([[0], [1], [2], [3]], dtype=np.uint8))
    >>> tree = DecisionTree(max_depth=1).fit_binary(codes, np.array([-1, -1, 1, 1]))
    >>> tree.predict(codes)
    array([-1., -1.,  1.,  1.])
    """

    def __init__(
        self,
        max_depth: int = 1,
        criterion: str = "error",
        min_samples_leaf: int = 1,
        min_weight_leaf: float = 0.0,
    ) -> None:
        self.max_depth = max_depth
        self.criterion = criterion
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_leaf = min_weight_leaf

    def __repr__(self) -> str:
        return (
            f"DecisionTree(max_depth={self.max_depth}, criterion={self.criterion!r}, "
            f"min_samples_leaf={self.min_samples_leaf}, min_weight_leaf={self.min_weight_leaf})"
        )

    # ------------------------------------------------------------------ parameter checks
    def _check_params(self, allowed: tuple[str, ...], method: str) -> None:
        depth = self.max_depth
        if (
            not isinstance(depth, numbers.Integral)
            or isinstance(depth, bool)
            or not 1 <= depth <= 16
        ):
            raise ValueError(f"max_depth must be an integer in [1, 16]; got {depth!r}")
        if self.criterion not in allowed:
            raise ValueError(f"{method} supports criterion in {allowed}; got {self.criterion!r}")
        msl = self.min_samples_leaf
        if not isinstance(msl, numbers.Integral) or isinstance(msl, bool) or msl < 1:
            raise ValueError(f"min_samples_leaf must be an integer >= 1; got {msl!r}")
        mwl = self.min_weight_leaf
        if not isinstance(mwl, numbers.Real) or not np.isfinite(mwl) or mwl < 0:
            raise ValueError(f"min_weight_leaf must be a finite number >= 0; got {mwl!r}")

    # ------------------------------------------------------------------ public fit methods
    def fit_binary(
        self,
        codes: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        *,
        exclude_root_features: ArrayLike | None = None,
    ) -> FittedTree:
        """Fit to labels ``y`` in {-1, +1} with ``sample_weight`` (signed for ``"error"``).

        ``exclude_root_features`` (feature indices) keeps those features out of the root's
        split only: the tree is the best one whose root splits on another feature (deeper
        nodes may use every feature), e.g. the runner-up trees a column-generation master can
        take several of per iteration.  A tree whose root finds no split is a single leaf.

        Returns a :class:`FittedTree` whose leaves are -1 or +1.
        """
        self._check_params(_BINARY_CRITERIA, "fit_binary")
        codes = check_codes(codes)
        n = codes.shape[0]
        y = _check_vector(y, n, "y")
        bad = _input_kernels.first_not_sign(y)
        if bad >= 0:
            raise ValueError(f"y must contain only -1 and +1; found {y[bad]!r}")
        weight = _check_weight(sample_weight, n, allow_negative=self.criterion == "error")
        stats = _input_kernels.binary_stats(y, weight, self.criterion == "error")
        excluded = _check_features(exclude_root_features, codes.shape[1])
        return self._grow(codes, stats, "binary", excluded_root=excluded)

    def fit_regression(
        self, codes: ArrayLike, target: ArrayLike, sample_weight: ArrayLike | None = None
    ) -> FittedTree:
        """Weighted least-squares fit to real ``target`` (criterion ``"squared_error"``)."""
        self._check_params(("squared_error",), "fit_regression")
        codes = check_codes(codes)
        n = codes.shape[0]
        target = _check_vector(target, n, "target")
        weight = _check_weight(sample_weight, n, allow_negative=False)
        stats = np.empty((n, 2))
        stats[:, 0] = weight
        stats[:, 1] = weight * target
        return self._grow(codes, stats, "regression")

    def fit_vector(
        self, codes: ArrayLike, targets: ArrayLike, sample_weight: ArrayLike | None = None
    ) -> FittedTree:
        """Weighted least squares to vector ``targets`` (n, K); leaves are weighted mean K-vectors.

        The split maximizes the decrease of :math:`\\sum_i w_i \\lVert t_i - v_{leaf(i)}\\rVert^2`
        (scikit-learn's multi-output ``squared_error`` up to a factor ``1/K``).
        """
        self._check_params(("squared_error",), "fit_vector")
        codes = check_codes(codes)
        n = codes.shape[0]
        targets = _check_matrix(targets, n, "targets")
        weight = _check_weight(sample_weight, n, allow_negative=False)
        stats = np.empty((n, targets.shape[1] + 1))
        stats[:, 0] = weight
        stats[:, 1:] = weight[:, None] * targets
        return self._grow(codes, stats, "vector")

    def fit_multiclass(
        self, codes: ArrayLike, y: ArrayLike, class_weight: ArrayLike | None = None
    ) -> FittedTree:
        """Fit a K-class tree; leaves predict a class index (as float).

        Parameters
        ----------
        codes : uint8 array (n, d)
        y : int array (n,)
            Class indices in ``0..K-1``.
        class_weight : array (n, K) or (n,), optional
            Non-negative weight of each (sample, class) pair.  A 1-D array is a weight per
            sample on its own class (``W_ik = w_i [y_i = k]``); ``None`` means unit weights.
            ``K`` is ``class_weight.shape[1]`` when 2-D, else ``max(y) + 1``.
        """
        self._check_params(_MULTICLASS_CRITERIA, "fit_multiclass")
        codes = check_codes(codes)
        n = codes.shape[0]
        y = _check_vector(y, n, "y")
        if (y < 0).any() or (y != np.round(y)).any():
            raise ValueError("y must contain class indices 0..K-1 (non-negative integers)")
        y_int = y.astype(np.int64)
        if class_weight is not None and np.ndim(class_weight) == 2:
            stats = _check_matrix(class_weight, n, "class_weight")
            if (stats < 0).any():
                raise ValueError("class_weight must be non-negative")
            if y_int.max() >= stats.shape[1]:
                raise ValueError(
                    f"y contains class {int(y_int.max())} but class_weight has {stats.shape[1]} columns"
                )
            if stats.sum() <= 0:
                raise ValueError("class_weight is all zero")
            stats = np.ascontiguousarray(stats)
        else:
            weight = _check_weight(class_weight, n, allow_negative=False)
            n_classes = max(int(y_int.max()) + 1, 2)
            n_bins = int(codes.max()) + 1
            return self._grow(
                codes, _LabelStatistics(y_int, weight, n_classes, n_bins), "multiclass"
            )
        return self._grow(codes, stats, "multiclass")

    def fit_multilabel(self, codes: ArrayLike, Y: ArrayLike, weight: ArrayLike) -> FittedTree:
        """Fit one tree to K binary problems at once (criterion ``"confidence"``, AdaBoost.MH).

        Parameters
        ----------
        codes : uint8 array (n, d)
        Y : array (n, K)
            Labels in {-1, +1} of every (sample, problem) pair.
        weight : array (n, K)
            Non-negative weight :math:`D(i, k)` of every pair, not all zero.

        Returns
        -------
        FittedTree
            A vector-valued tree (``kind == "vector"``) whose leaf ``j`` holds the signs of
            :math:`W^j_{+k} - W^j_{-k}` and whose ``leaf_statistics_`` are
            ``[W-_1, W+_1, .., W-_K, W+_K]``.
        """
        self._check_params(("confidence",), "fit_multilabel")
        codes = check_codes(codes)
        n = codes.shape[0]
        Y = _check_matrix(Y, n, "Y")
        if (np.abs(Y) != 1.0).any():
            raise ValueError(f"Y must contain only -1 and +1; found {Y[np.abs(Y) != 1.0][0]!r}")
        weight = _check_matrix(weight, n, "weight")
        if weight.shape != Y.shape:
            raise ValueError(f"weight must have the shape of Y {Y.shape}; got {weight.shape}")
        if (weight < 0).any():
            raise ValueError("weight must be non-negative")
        if not weight.sum() > 0:
            raise ValueError("weight is all zero")
        stats = np.empty((n, 2 * Y.shape[1]))
        stats[:, 0::2] = np.where(Y < 0, weight, 0.0)
        stats[:, 1::2] = np.where(Y > 0, weight, 0.0)
        return self._grow(codes, stats, "vector")

    # ------------------------------------------------------------------ growth
    def _grow(
        self,
        codes: NDArray[np.uint8],
        stats: NDArray[np.float64] | _LabelStatistics,
        kind: str,
        stump_search: bool = True,
        excluded_root: NDArray[np.int64] | None = None,
    ) -> FittedTree:
        """Grow the tree; ``stump_search=False`` grows it on exact histograms only (see
        :class:`_SearchRoot` for the other way); the root does not split on the features
        ``excluded_root``."""
        criterion = CRITERIA[self.criterion]
        source = (
            stats if isinstance(stats, _LabelStatistics) else _DenseStatistics(stats, criterion)
        )
        histogram, is_pure = source.histogram, source.is_pure
        min_samples_leaf = int(self.min_samples_leaf)
        min_weight_leaf = float(self.min_weight_leaf)
        splits_only_on_gain = self.criterion in ("error", "multiclass_error", "confidence")
        n = codes.shape[0]
        n_channels = stats.shape[1]
        searched = (
            source
            if stump_search
            and excluded_root is None
            and isinstance(source, _DenseStatistics)
            and n_channels == 2
            else None
        )
        if searched is not None and self.max_depth == 1:
            return self._grow_stump(codes, searched, kind, splits_only_on_gain)
        all_samples = np.arange(n, dtype=np.int64)
        root = None if searched is None else _SearchRoot(codes, searched)
        root_hist = histogram(codes) if root is None else root.search

        def best_split(hist: NDArray[np.float64]) -> tuple[int, int, int, float, float] | None:
            """``(feature, bin, n_left, gain, parent score)`` of the accepted split, or None."""
            feature, split_bin, gain, parent_score, n_left = _split_kernels.find_best_split(
                hist, criterion, min_samples_leaf, min_weight_leaf
            )
            if feature < 0 or (splits_only_on_gain and not gain > TIE_RTOL * abs(parent_score)):
                return None
            return int(feature), int(split_bin), int(n_left), float(gain), float(parent_score)

        node_feature: list[int] = []
        node_bin: list[int] = []
        node_left: list[int] = []
        node_right: list[int] = []
        node_leaf: list[int] = []
        leaf_sums: list[NDArray[np.float64]] = []
        max_depth_reached = 0

        def new_node() -> int:
            for array in (node_feature, node_bin, node_left, node_right, node_leaf):
                array.append(-1)
            return len(node_leaf) - 1

        def make_leaf(node: int, sums: NDArray[np.float64], depth: int) -> None:
            nonlocal max_depth_reached
            node_leaf[node] = len(leaf_sums)
            leaf_sums.append(sums[:n_channels])
            max_depth_reached = max(max_depth_reached, depth)

        # Stack items: (node, sample indices, histogram, origin, depth).  Children at the
        # maximum depth are leaves: their sums come from the parent histogram, without a
        # partition.  ``origin`` is None when the histogram is the exact one (the rows the
        # growth on exact histograms would use, bit for bit), else how to get those rows
        # (``_SearchRoot.row``): the root's or a node's search histogram, or a subtraction.
        stack: list[tuple[int, NDArray[np.int64], NDArray[np.float64], Any, int]] = [
            (new_node(), all_samples, root_hist, None if root is None else (), 0)
        ]
        while stack:
            node, samples, hist, origin, depth = stack.pop()
            split = None
            if depth < self.max_depth and samples.shape[0] >= 2 * min_samples_leaf:
                if splits_only_on_gain or not is_pure(samples):
                    search = hist
                    if excluded_root is not None and depth == 0:
                        # an excluded feature seen as one code (all samples in bin 0) offers
                        # no split; feature 0's row still gives the node's totals
                        search = hist.copy()
                        search[excluded_root] = 0.0
                        search[excluded_root, 0] = hist[0].sum(axis=0)
                    split = best_split(search)
                    if origin is not None:
                        assert root is not None
                        checked = root.check(split, origin, hist, best_split)
                        if checked is None:  # the search's choice unconfirmed: exact rows decide
                            hist, origin = root.full(origin, hist), None
                            split = best_split(hist)
                        else:
                            split = checked
            row = _SearchRoot.rows(root, origin, hist)
            if split is None:
                make_leaf(node, row(0).sum(axis=0), depth)
                continue
            feature, split_bin, n_left = split[:3]
            left_node, right_node = new_node(), new_node()
            node_feature[node], node_bin[node] = feature, split_bin
            node_left[node], node_right[node] = left_node, right_node
            if depth + 1 == self.max_depth:
                left_sums = row(feature)[: split_bin + 1].sum(axis=0)
                make_leaf(left_node, left_sums, depth + 1)
                make_leaf(right_node, row(0).sum(axis=0) - left_sums, depth + 1)
                continue
            left_samples, right_samples = _split_kernels.partition(
                codes, samples, feature, split_bin, n_left
            )
            smaller = left_samples if n_left <= samples.shape[0] - n_left else right_samples
            if root is None:
                small_hist, small_origin = histogram(codes, smaller), None
            else:
                small_hist, small_origin = root.child(smaller)
            large_hist = hist - small_hist
            large_origin = _SearchRoot.minus(origin, hist, small_origin, small_hist)
            if smaller is left_samples:
                left_hist, left_origin = small_hist, small_origin
                right_hist, right_origin = large_hist, large_origin
            else:
                right_hist, right_origin = small_hist, small_origin
                left_hist, left_origin = large_hist, large_origin
            # Right pushed first so the left subtree is numbered first (depth-first pre-order).
            stack.append((right_node, right_samples, right_hist, right_origin, depth + 1))
            stack.append((left_node, left_samples, left_hist, left_origin, depth + 1))

        return self._fitted(
            codes,
            leaf_sums,
            kind,
            max_depth_reached,
            node_feature,
            node_bin,
            node_left,
            node_right,
            node_leaf,
        )

    def _grow_stump(
        self,
        codes: NDArray[np.uint8],
        source: _DenseStatistics,
        kind: str,
        splits_only_on_gain: bool,
    ) -> FittedTree:
        """A depth-1 tree, the split chosen on ``build_search_histogram``.

        The search histogram's bin 0 of sparse features comes from a subtraction, which can
        change the last bits of its sums (never its counts).  The split it gives is checked on
        the exact histograms (``build_histogram``) of feature 0 (the node totals) and of the
        chosen feature, and the leaves are summed from those: the tree is the one the exact
        root histogram gives.  When the check disagrees (a tie within rounding), or when the
        search finds no split worth taking, the exact histogram of every feature decides, as
        for deeper trees.  What the check cannot see
        is another feature whose exact score falls within rounding of the tie tolerance
        against the chosen one; the split may then differ from the exact histogram's.
        """
        criterion = CRITERIA[self.criterion]
        min_samples_leaf = int(self.min_samples_leaf)
        min_weight_leaf = float(self.min_weight_leaf)
        n = codes.shape[0]
        split = None
        can_split = n >= 2 * min_samples_leaf and (
            splits_only_on_gain or not source.is_pure(np.arange(n, dtype=np.int64))
        )
        exact_rows = np.zeros(codes.shape[1], dtype=np.bool_)
        if can_split:
            search, exact_rows = _search_histogram_kernels.build_search_histogram(
                codes, source.stats
            )
            split = _accepted_split(
                search, criterion, min_samples_leaf, min_weight_leaf, splits_only_on_gain
            )
        features = [0] if split is None or split[0] == 0 else [0, split[0]]
        # the search's rows of features without a dominant code are the exact histograms
        # (bitwise, tested); only the other features are summed again
        rescan = [f for f in features if not exact_rows[f]]
        if len(rescan) == len(features):
            exact = _search_histogram_kernels.exact_feature_histograms(
                codes, source.stats, np.array(features, dtype=np.int64)
            )
        else:
            exact = search[features]
            if rescan:
                exact[features.index(rescan[0])] = (
                    _search_histogram_kernels.exact_feature_histograms(
                        codes, source.stats, np.array(rescan, dtype=np.int64)
                    )[0]
                )
        if can_split:
            checked = (
                None
                if split is None  # no split with gain: rare, and decided on exact sums
                else _accepted_split(
                    exact, criterion, min_samples_leaf, min_weight_leaf, splits_only_on_gain
                )
            )
            if (
                split is None
                or checked is None
                or not _same_split(split, checked, features[checked[0]])
            ):
                exact_all = source.histogram(codes)
                split = _accepted_split(
                    exact_all, criterion, min_samples_leaf, min_weight_leaf, splits_only_on_gain
                )
                features = [0] if split is None else [0, split[0]]
                exact = exact_all[features]
        total = exact[0].sum(axis=0)
        if split is None:
            return self._fitted(codes, [total[:2]], kind, 0, [-1], [-1], [-1], [-1], [0])
        feature, split_bin = split[:2]
        left_sums = exact[-1, : split_bin + 1].sum(axis=0)
        return self._fitted(
            codes,
            [left_sums[:2], (total - left_sums)[:2]],
            kind,
            1,
            [feature, -1, -1],
            [split_bin, -1, -1],
            [1, -1, -1],
            [2, -1, -1],
            [-1, 0, 1],
        )

    def _fitted(
        self,
        codes: NDArray[np.uint8],
        leaf_sums: list[NDArray[np.float64]],
        kind: str,
        max_depth_reached: int,
        node_feature: list[int],
        node_bin: list[int],
        node_left: list[int],
        node_right: list[int],
        node_leaf: list[int],
    ) -> FittedTree:
        statistics = np.array(leaf_sums)
        values = _leaf_values(statistics, self.criterion, kind)
        arrays = [
            np.array(a, dtype=np.int64)
            for a in (node_feature, node_bin, node_left, node_right, node_leaf)
        ]
        for array in (*arrays, values, statistics):
            array.setflags(write=False)
        node_feature_, node_bin_, node_left_, node_right_, node_leaf_ = arrays
        return FittedTree(
            node_feature_,
            node_bin_,
            node_left_,
            node_right_,
            node_leaf_,
            values,
            kind,
            self.criterion,
            codes.shape[1],
            max_depth_reached,
            statistics,
        )
