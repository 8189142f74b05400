r"""Trees whose splits are chosen by a user objective ("direct" trees).

DirectBoost (Zhai, Xia & Wang 2013) and DMCBoost (Zhai et al. 2014, Alg. 1.2) grow depth-1..3
trees whose every split minimizes the ensemble's 0-1 loss, or maximizes a margin objective,
after a line search over the step :math:`\alpha`.  Such criteria are not sums of per-sample
statistics, so they cannot use the histogram search of :class:`~marginboost.weak.DecisionTree`.
:class:`DirectTreeBuilder` does the tree bookkeeping and delegates the scoring of candidate
splits to an *objective* object.

The objective protocol
----------------------
An objective implements two methods (see :class:`SplitObjective`):

``split_scores(codes, node, state) -> (scores, left_values, right_values)``
    Score every candidate split ``codes[:, feature] <= bin`` of one node at once.  ``codes``
    is the full Fortran-ordered ``uint8`` matrix, ``node.samples`` the (ascending) indices of
    the node's samples, ``state`` the partially grown tree (below).  The three returned
    arrays have shape ``(n_features, 255)``; entry ``[f, b]`` is the score of the split
    ``code_f <= b`` (**higher is better**; ``-inf`` or ``nan`` marks a candidate the
    objective rejects) and the values the two children would predict.  Computing all bins of a
    feature from one histogram or one sorted pass is the intended implementation (see
    :class:`EdgeObjective`, which does it with the numba histogram kernel).
``leaf_value(codes, node, state) -> float``
    The prediction of a node that is not split (used for the root only: children get the
    values returned with their split).
``stay_score(codes, node, state) -> float`` (optional)
    The score, on the scale of ``split_scores``, of leaving ``node`` a leaf: the partial tree
    as it is.  When the objective has this method, a node below the root is split only if its
    best candidate scores strictly better (beyond the tie tolerance); without it every node
    that can be split is split.  The root is always split when a candidate is valid.

An optional attribute ``kind`` ("binary", "regression" or "multiclass") is copied to the
returned :class:`~marginboost.weak.FittedTree`.

The builder
-----------
* grows the tree **level by level**, nodes of a level left to right; after each split the
  state is updated at once, so a later node sees the values chosen for earlier ones (the
  sequential leaf choice of DMCBoost's Alg. 1.2);
* rejects candidates whose children would hold fewer than ``min_samples_leaf`` samples, and
  candidates whose left side equals that of a lower bin (so each partition is reported at its
  lowest bin);
* splits a node when at least one candidate has a finite score, at the best one; ties (within
  a relative ``1e-10``) go to the lowest feature, then the lowest bin, as in
  :class:`~marginboost.weak.DecisionTree`.  An objective that wants a node to stay a leaf
  returns ``-inf`` everywhere, or defines ``stay_score`` (a node below the root then stays a
  leaf unless a split beats the partial tree as it is).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from numba import njit, prange
from numpy.typing import NDArray

from . import _histogram_kernels
from ._split_kernels import TIE_RTOL
from .binning import check_codes
from .tree import FittedTree

__all__ = ["DirectNode", "DirectTreeState", "SplitObjective", "DirectTreeBuilder", "EdgeObjective"]

N_CANDIDATE_BINS = 255  # a split code <= b with b = 255 would send every sample left


@dataclass
class DirectNode:
    """A node of a tree being grown: its id, depth and sample indices (ascending).

    :class:`DirectTreeBuilder` creates the nodes and hands them to the objective's
    ``split_scores`` and ``leaf_value``.

    Parameters
    ----------
    node_id : int
        Id of the node while the tree is grown (0 for the root; children get consecutive new
        ids); the ids of :attr:`DirectTreeState.sample_node`.
    depth : int
        Depth of the node (0 for the root).
    samples : ndarray of int64
        Ascending indices of the training samples that reach the node.

    Attributes
    ----------
    node_id : int
        Id of the node.
    depth : int
        Depth of the node.
    samples : ndarray of int64
        Indices of the node's samples.
    counts : ndarray of int64, shape (n_features, 256), or None
        ``counts[f, b]``: the node's samples with code ``b`` of feature ``f``, once known (the
        builder derives a child's from its parent's and its sibling's); see
        :meth:`code_counts`.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.weak import DirectNode
    >>> root = DirectNode(node_id=0, depth=0, samples=np.arange(4))
    >>> root.depth, root.samples.tolist()
    (0, [0, 1, 2, 3])
    >>> codes = np.asfortranarray(np.array([[0], [1], [1], [3]], dtype=np.uint8))
    >>> root.code_counts(codes)[0, :4].tolist()
    [1, 2, 0, 1]
    """

    node_id: int
    depth: int
    samples: NDArray[np.int64]
    counts: NDArray[np.int64] | None = None

    def code_counts(self, codes: NDArray[np.uint8]) -> NDArray[np.int64]:
        """``counts[f, b]``, the number of the node's samples with code ``b`` of feature ``f``
        (shape ``(n_features, 256)``), counted on first use."""
        if self.counts is None:
            self.counts = _left_counts(codes, self.samples)
        return self.counts


@dataclass
class DirectTreeState:
    """The partially grown tree seen by an objective.

    :class:`DirectTreeBuilder` updates it after every split, so the objective scoring a later
    node sees the values chosen for the earlier ones.

    Parameters
    ----------
    sample_node : ndarray of int64, shape (n_samples,)
        Id of the current leaf of every training sample.
    node_value : dict of int to float, optional
        Current prediction of every current leaf (empty by default).

    Attributes
    ----------
    sample_node : ndarray of int64, shape (n_samples,)
        Id of the current leaf of every training sample.
    node_value : dict of int to float
        Current prediction of every current leaf.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.weak import DirectTreeState
    >>> state = DirectTreeState(np.array([1, 1, 2, 2]), {1: -1.0, 2: 1.0})
    >>> state.predictions()
    array([-1., -1.,  1.,  1.])
    """

    sample_node: NDArray[np.int64]
    node_value: dict[int, float] = field(default_factory=dict)
    _predictions: NDArray[np.float64] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def predictions(self) -> NDArray[np.float64]:
        """Current prediction of the partial tree on every training sample.

        Computed on the first call and kept up to date by :meth:`split` (the builder's update),
        so the objective scoring every node of a tree does not rebuild it: calls between two
        splits return the same array (do not write into it), and a split makes a new one.
        Code that changes :attr:`sample_node` or :attr:`node_value` directly after a call
        must call :meth:`forget_predictions`.
        """
        if self._predictions is None:
            ids = np.fromiter(self.node_value.keys(), dtype=np.int64)
            values = np.fromiter(self.node_value.values(), dtype=np.float64)
            lookup = np.zeros(int(ids.max()) + 1)
            lookup[ids] = values
            self._predictions = lookup[self.sample_node]
        return self._predictions

    def forget_predictions(self) -> None:
        """Drop the kept predictions (after a direct change of the leaves or their values)."""
        self._predictions = None

    def split(
        self,
        node_id: int,
        left: DirectNode,
        right: DirectNode,
        left_value: float,
        right_value: float,
    ) -> None:
        """Replace leaf ``node_id`` by the leaves ``left`` and ``right`` with these values."""
        del self.node_value[node_id]
        self.sample_node[left.samples] = left.node_id
        self.sample_node[right.samples] = right.node_id
        self.node_value[left.node_id] = left_value
        self.node_value[right.node_id] = right_value
        if self._predictions is not None:  # a new array: one handed out earlier stays as it was
            predictions = self._predictions.copy()
            predictions[left.samples] = left_value
            predictions[right.samples] = right_value
            self._predictions = predictions


class SplitObjective(Protocol):
    """What :class:`DirectTreeBuilder` needs from an objective (see the module docstring).

    A protocol: any object with the two methods below is an objective (optionally with a
    ``stay_score(codes, node, state)`` method and a ``kind`` attribute).
    ``split_scores(codes, node, state)`` returns three arrays of shape
    ``(n_features, 255)``: the score of every candidate split ``code_f <= b`` (higher is
    better; ``-inf`` or ``nan`` rejects it) and the values the left and right child would
    predict.  ``leaf_value(codes, node, state)`` returns the prediction of an unsplit node.

    Parameters
    ----------
    codes : ndarray of uint8, shape (n_samples, n_features)
        The Fortran-ordered training codes (both methods take them).
    node : DirectNode
        The node to score or to predict at.
    state : DirectTreeState
        The partially grown tree.

    See Also
    --------
    EdgeObjective : an efficient objective, one histogram pass per node.

    Examples
    --------
    An objective that always splits feature 0 at bin 1, with leaves -1 and +1:

    >>> import numpy as np
    >>> from marginboost.weak import DirectTreeBuilder
    >>> class SplitAtOne:
    ...     kind = "binary"
    ...     def split_scores(self, codes, node, state):
    ...         scores = np.full((codes.shape[1], 255), -np.inf)
    ...         scores[0, 1] = 1.0
    ...         return scores, np.full_like(scores, -1.0), np.full_like(scores, 1.0)
    ...     def leaf_value(self, codes, node, state):
    ...         return 1.0
    >>> codes = np.asfortranarray(np.array([[0], [1], [2], [3]], dtype=np.uint8))
    >>> DirectTreeBuilder(max_depth=1).fit(codes, SplitAtOne()).predict(codes)
    array([-1., -1.,  1.,  1.])
    """

    def split_scores(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]: ...

    def leaf_value(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float: ...


@njit(cache=True, parallel=True)
def _left_counts_parallel(
    codes: NDArray[np.uint8], samples: NDArray[np.int64]
) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """``counts[f, b]`` = number of node samples with ``code_f == b``."""
    counts = np.zeros((codes.shape[1], 256), dtype=np.int64)
    for feature in prange(codes.shape[1]):
        for k in range(samples.shape[0]):
            counts[feature, codes[samples[k], feature]] += 1
    return counts


@njit(cache=True)
def _left_counts_serial(
    codes: NDArray[np.uint8], samples: NDArray[np.int64]
) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """:func:`_left_counts_parallel` on one thread."""
    counts = np.zeros((codes.shape[1], 256), dtype=np.int64)
    for feature in range(codes.shape[1]):
        for k in range(samples.shape[0]):
            counts[feature, codes[samples[k], feature]] += 1
    return counts


#: Nodes with fewer (samples x features) than this count their codes on one thread: starting
#: the threads costs more than the counting (the same integer counts either way).
_PARALLEL_COUNTS = 1 << 16


def _left_counts(codes: NDArray[np.uint8], samples: NDArray[np.int64]) -> NDArray[np.int64]:
    """``counts[f, b]`` = number of node samples with ``code_f == b``."""
    if samples.shape[0] * codes.shape[1] < _PARALLEL_COUNTS:
        return _left_counts_serial(codes, samples)
    return _left_counts_parallel(codes, samples)


def _children_counts(
    codes: NDArray[np.uint8], parent: DirectNode, left: DirectNode, right: DirectNode
) -> None:
    """Give two children their code counts: the smaller child's counted, the larger's the
    parent's minus those (exact integers, one pass over the smaller child only)."""
    small, large = (left, right) if left.samples.size <= right.samples.size else (right, left)
    small.counts = _left_counts(codes, small.samples)
    large.counts = parent.code_counts(codes) - small.counts


@njit(cache=True)
def _select_candidate(
    scores: NDArray[np.float64], counts: NDArray[np.int64], min_samples_leaf: int
) -> tuple[int, int]:
    """Index ``(feature, bin)`` of the best valid finite score; lowest feature, then bin, on ties.

    A candidate ``code_f <= b`` is valid when the node has samples with code ``b`` (else a
    lower bin makes the same partition) and both children keep ``min_samples_leaf`` of the
    node's samples (``counts``: the node's code counts)."""
    best_feature = -1
    best_bin = -1
    best = -np.inf
    n_node = 0
    for b in range(counts.shape[1]):
        n_node += counts[0, b]
    for feature in range(scores.shape[0]):
        n_left = 0
        for b in range(scores.shape[1]):
            n_left += counts[feature, b]
            score = scores[feature, b]
            if (
                counts[feature, b] == 0
                or n_left < min_samples_leaf
                or n_node - n_left < min_samples_leaf
                or not np.isfinite(score)
            ):
                continue
            if best_feature < 0 or score > best + TIE_RTOL * max(abs(score), abs(best)):
                best = score
                best_feature = feature
                best_bin = b
    return best_feature, best_bin


class DirectTreeBuilder:
    """Grow a tree whose splits maximize an objective callback (see the module docstring).

    Parameters
    ----------
    max_depth : int, default 1
        Maximum depth (1 to 16).
    min_samples_leaf : int, default 1
        Minimum number of samples in each child of a split.
    split_rule : {"improve", "always"}, default "improve"
        "improve": a node below the root is split only when its best split scores better than
        the partial tree as it is (``objective.stay_score``; objectives without it split
        always).  "always": every node that can be split is split.

    Notes
    -----
    The builder keeps no fitted state: :meth:`fit` returns a new
    :class:`~marginboost.weak.FittedTree` (criterion ``"direct"``).  It grows the trees of
    DirectBoost (Zhai, Xia, Tan & Wang 2013), whose splits minimise the ensemble's 0-1 loss or
    maximise a margin objective after a line search, and the multi-class trees of DMCBoost
    (Zhai, Xia & Wang 2014, Algorithm 1.2), level by level as described in
    :mod:`marginboost.weak.direct`.

    Examples
    --------
    With :class:`EdgeObjective` the builder grows the tree that
    ``DecisionTree(criterion="error")`` grows:

    >>> import numpy as np
    >>> from marginboost.weak import DirectTreeBuilder, EdgeObjective
    >>> codes = np.asfortranarray(np.array([[0, 3], [1, 2], [2, 1], [3, 0]], dtype=np.uint8))
    >>> g = np.array([-0.25, -0.25, 0.25, 0.25])  # w_i * y_i
    >>> tree = DirectTreeBuilder(max_depth=1).fit(codes, EdgeObjective(g))
    >>> tree.splits(), tree.criterion
    ([(0, 1)], 'direct')
    >>> tree.predict(codes)
    array([-1., -1.,  1.,  1.])
    """

    def __init__(
        self, max_depth: int = 1, min_samples_leaf: int = 1, split_rule: str = "improve"
    ) -> None:
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.split_rule = split_rule

    def __repr__(self) -> str:
        return (
            f"DirectTreeBuilder(max_depth={self.max_depth}, "
            f"min_samples_leaf={self.min_samples_leaf}, split_rule={self.split_rule!r})"
        )

    def fit(
        self,
        codes: NDArray[np.uint8],
        objective: SplitObjective,
        root_counts: NDArray[np.int64] | None = None,
    ) -> FittedTree:
        """Grow a tree on ``codes`` with splits chosen by ``objective``.

        ``root_counts``, when given, are the codes' counts over all samples
        (``DirectNode(0, 0, np.arange(n)).code_counts(codes)``): a boosting loop that grows
        many trees on the same codes counts them once instead of once per tree.
        """
        depth = self.max_depth
        if (
            not isinstance(depth, numbers.Integral)
            or isinstance(depth, bool)
            or not 1 <= depth <= 16
        ):
            raise ValueError(f"max_depth must be an integer in [1, 16]; got {depth!r}")
        msl = self.min_samples_leaf
        if not isinstance(msl, numbers.Integral) or isinstance(msl, bool) or msl < 1:
            raise ValueError(f"min_samples_leaf must be an integer >= 1; got {msl!r}")
        codes = check_codes(codes)
        n_samples, n_features = codes.shape
        root = DirectNode(0, 0, np.arange(n_samples, dtype=np.int64))
        if root_counts is not None:
            if root_counts.shape != (n_features, 256):
                raise ValueError(
                    f"root_counts has shape {root_counts.shape}; expected {(n_features, 256)}"
                )
            root.counts = root_counts
        state = DirectTreeState(np.zeros(n_samples, dtype=np.int64))
        state.node_value[0] = float(objective.leaf_value(codes, root, state))
        children: dict[int, tuple[int, int]] = {}
        split_of: dict[int, tuple[int, int]] = {}
        node_depth = {0: 0}
        level = [root]
        next_id = 1
        if self.split_rule not in ("improve", "always"):
            raise ValueError(f"split_rule must be 'improve' or 'always'; got {self.split_rule!r}")
        stay = getattr(objective, "stay_score", None) if self.split_rule == "improve" else None
        while level:
            next_level = []
            for node in level:
                if node.depth >= self.max_depth or node.samples.shape[0] < 2 * msl:
                    continue
                choice = self._best_split(codes, node, state, objective, n_features)
                if choice is None:
                    continue
                feature, split_bin, left_value, right_value, score = choice
                if node.depth > 0 and stay is not None:
                    as_is = float(stay(codes, node, state))
                    if not score > as_is + TIE_RTOL * max(abs(score), abs(as_is)):
                        continue
                goes_left = codes[node.samples, feature] <= split_bin
                left = DirectNode(next_id, node.depth + 1, node.samples[goes_left])
                right = DirectNode(next_id + 1, node.depth + 1, node.samples[~goes_left])
                if node.depth + 1 < self.max_depth:  # the children may be split in turn
                    _children_counts(codes, node, left, right)
                next_id += 2
                children[node.node_id] = (left.node_id, right.node_id)
                split_of[node.node_id] = (feature, split_bin)
                node_depth[left.node_id] = node_depth[right.node_id] = node.depth + 1
                state.split(node.node_id, left, right, left_value, right_value)
                next_level += [left, right]
            level = next_level
        return self._to_fitted_tree(
            children,
            split_of,
            node_depth,
            state,
            n_features,
            getattr(objective, "kind", "regression"),
        )

    def _best_split(
        self,
        codes: NDArray[np.uint8],
        node: DirectNode,
        state: DirectTreeState,
        objective: SplitObjective,
        n_features: int,
    ) -> tuple[int, int, float, float, float] | None:
        scores, left_values, right_values = (
            np.asarray(a, dtype=np.float64) for a in objective.split_scores(codes, node, state)
        )
        expected = (n_features, N_CANDIDATE_BINS)
        for name, array in (
            ("scores", scores),
            ("left_values", left_values),
            ("right_values", right_values),
        ):
            if array.shape != expected:
                raise ValueError(
                    f"objective.split_scores returned {name} of shape {array.shape}; "
                    f"expected {expected}"
                )
        feature, split_bin = _select_candidate(
            scores, node.code_counts(codes), int(self.min_samples_leaf)
        )
        if feature < 0:
            return None
        return (
            int(feature),
            int(split_bin),
            float(left_values[feature, split_bin]),
            float(right_values[feature, split_bin]),
            float(scores[feature, split_bin]),
        )

    @staticmethod
    def _to_fitted_tree(
        children: dict[int, tuple[int, int]],
        split_of: dict[int, tuple[int, int]],
        node_depth: dict[int, int],
        state: DirectTreeState,
        n_features: int,
        kind: str,
    ) -> FittedTree:
        """Renumber nodes and leaves in depth-first pre-order, as DecisionTree does."""
        order: list[int] = []
        stack = [0]
        while stack:
            node = stack.pop()
            order.append(node)
            if node in children:
                left, right = children[node]
                stack.extend((right, left))
        position = {node: i for i, node in enumerate(order)}
        n_nodes = len(order)
        arrays = {
            name: np.full(n_nodes, -1, dtype=np.int64)
            for name in ("feature", "bin", "left", "right", "leaf")
        }
        leaf_values: list[float] = []
        for node in order:
            i = position[node]
            if node in children:
                arrays["feature"][i], arrays["bin"][i] = split_of[node]
                arrays["left"][i] = position[children[node][0]]
                arrays["right"][i] = position[children[node][1]]
            else:
                arrays["leaf"][i] = len(leaf_values)
                leaf_values.append(state.node_value[node])
        values = np.array(leaf_values, dtype=np.float64)
        for array in (*arrays.values(), values):
            array.setflags(write=False)
        depth = max(node_depth[node] for node in order)
        return FittedTree(
            arrays["feature"],
            arrays["bin"],
            arrays["left"],
            arrays["right"],
            arrays["leaf"],
            values,
            kind,
            "direct",
            n_features,
            depth,
            None,
        )


class EdgeObjective:
    r"""The edge :math:`\sum_i g_i h(x_i)` of a tree with leaves in {-1, +1}, split by split.

    With ``g = w * y`` this objective makes :class:`DirectTreeBuilder` reproduce
    ``DecisionTree(criterion="error").fit_binary(codes, y, w)`` split for split: a candidate
    scores its edge gain :math:`|G_L| + |G_R| - |G|` when that gain is positive, ``-inf``
    otherwise.  It doubles as the reference example of an efficient objective: one histogram
    pass per node gives the scores of every (feature, bin).

    Parameters
    ----------
    g : array (n_samples,)
        Signed per-sample weights :math:`g_i = w_i y_i`.
    min_weight_leaf : float, default 0.0
        Minimum of :math:`\sum |g_i|` in each child.

    Attributes
    ----------
    kind : str
        ``"binary"``: the trees it grows have leaves in {-1, +1}.
    stats : ndarray of shape (n_samples, 2)
        The histogram channels :math:`(|g_i|, g_i)`.
    min_weight_leaf : float
        As given.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.weak import DecisionTree, DirectTreeBuilder, EdgeObjective
    >>> codes = np.asfortranarray(np.array([[2, 0], [0, 1], [3, 2], [1, 3]], dtype=np.uint8))
    >>> y, w = np.array([1.0, -1.0, 1.0, -1.0]), np.full(4, 0.25)
    >>> direct = DirectTreeBuilder(max_depth=2).fit(codes, EdgeObjective(w * y))
    >>> stump = DecisionTree(max_depth=2, criterion="error").fit_binary(codes, y, w)
    >>> direct.splits() == stump.splits()
    True
    >>> direct.predict(codes)
    array([ 1., -1.,  1., -1.])
    """

    kind = "binary"

    def __init__(self, g: NDArray[np.float64], min_weight_leaf: float = 0.0) -> None:
        g = np.asarray(g, dtype=np.float64)
        if g.ndim != 1 or not np.isfinite(g).all():
            raise ValueError("g must be a finite 1-D array")
        self.stats = np.ascontiguousarray(np.column_stack([np.abs(g), g]))
        self.min_weight_leaf = float(min_weight_leaf)

    def _check(self, codes: NDArray[np.uint8]) -> None:
        if self.stats.shape[0] != codes.shape[0]:
            raise ValueError(
                f"g has {self.stats.shape[0]} entries but codes has {codes.shape[0]} rows"
            )

    def split_scores(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        self._check(codes)
        hist = _histogram_kernels.build_histogram(codes, self.stats, node.samples)
        cumulative = np.cumsum(hist[:, :N_CANDIDATE_BINS, :2], axis=1)
        total = hist[0, :, :2].sum(axis=0)
        left_g = cumulative[:, :, 1]
        right_g = total[1] - left_g
        parent = abs(total[1])
        score_left, score_right = np.abs(left_g), np.abs(right_g)
        gain = score_left + score_right - parent
        ok = (
            (gain > TIE_RTOL * parent)
            & (cumulative[:, :, 0] >= self.min_weight_leaf)
            & (total[0] - cumulative[:, :, 0] >= self.min_weight_leaf)
        )
        scores = np.where(ok, gain, -np.inf)
        return scores, np.where(left_g >= 0, 1.0, -1.0), np.where(right_g >= 0, 1.0, -1.0)

    def leaf_value(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        self._check(codes)
        return 1.0 if self.stats[node.samples, 1].sum() >= 0 else -1.0
