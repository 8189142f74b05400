"""The fitting helpers of :class:`~marginboost.weak.tree.DecisionTree`.

What its ``fit_*`` methods and its growth use besides the numba kernels: the checks of the
labels, targets, weights and excluded root features; the two sources of per-sample statistics
(a dense (n, channels) matrix, or the labels and weights of a multi-class fit), which build
the histograms and decide purity; the acceptance of a root histogram's best split and the
check of the depth-1 search against the exact histograms; and the leaf values of each kind of
tree.  The criteria and the tie rules are described in :mod:`marginboost.weak.tree`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _histogram_kernels, _input_kernels, _search_histogram_kernels, _split_kernels
from ._split_kernels import TIE_RTOL


def _check_features(features: ArrayLike | None, n_features: int) -> NDArray[np.int64] | None:
    """Feature indices as a sorted int64 array (``None`` stays ``None``); out-of-range or
    non-integer indices raise ``ValueError``."""
    if features is None:
        return None
    array = np.asarray(features)
    if array.ndim != 1 or (array.size and not np.issubdtype(array.dtype, np.integer)):
        raise ValueError(
            f"exclude_root_features must be a 1-D sequence of feature indices; got {features!r}"
        )
    if array.size and (array.min() < 0 or array.max() >= n_features):
        raise ValueError(
            f"exclude_root_features must index the {n_features} features; got {features!r}"
        )
    return np.unique(array.astype(np.int64))


def _accepted_split(
    hist: NDArray[np.float64],
    criterion: int,
    min_samples_leaf: int,
    min_weight_leaf: float,
    splits_only_on_gain: bool,
) -> tuple[int, int, float, float] | None:
    """``(feature row, bin, gain, parent score)`` of a root histogram's best split, or None."""
    feature, split_bin, gain, parent_score, _ = _split_kernels.find_best_split(
        hist, criterion, min_samples_leaf, min_weight_leaf
    )
    if feature < 0 or (splits_only_on_gain and not gain > TIE_RTOL * abs(parent_score)):
        return None
    return int(feature), int(split_bin), float(gain), float(parent_score)


def _same_split(
    search: tuple[int, int, float, float], checked: tuple[int, int, float, float], feature: int
) -> bool:
    """Whether the check on exact histograms confirms the search's split and its gain."""
    scale = max(abs(search[2]), abs(checked[2]), abs(search[3]), abs(checked[3]))
    return (
        feature == search[0]
        and checked[1] == search[1]
        and abs(checked[2] - search[2]) <= TIE_RTOL * scale
    )


@dataclass(frozen=True)
class _DenseStatistics:
    """Per-sample statistics as an (n, channels) matrix (layout per criterion, see above)."""

    stats: NDArray[np.float64]
    criterion: int

    def histogram(
        self, codes: NDArray[np.uint8], sample_index: NDArray[np.int64] | None = None
    ) -> NDArray[np.float64]:
        if sample_index is None:
            return _histogram_kernels.build_histogram(codes, self.stats)
        return _histogram_kernels.build_histogram(codes, self.stats, sample_index)

    def is_pure(self, sample_index: NDArray[np.int64]) -> bool:
        return bool(_split_kernels.node_is_pure(self.stats, sample_index, self.criterion))


@dataclass(frozen=True)
class _LabelStatistics:
    """The statistics ``W_ik = weight_i [labels_i = k]`` of a multi-class fit, kept sparse.

    Histograms and purity equal those of the dense (n, K) matrix exactly (the kernels add
    each sample's weight to its own class only), at a fraction of the memory traffic.
    """

    labels: NDArray[np.int64]
    weight: NDArray[np.float64]
    n_classes: int
    #: Bins of the histograms: the largest code + 1 (the other bins of 256 are empty).
    n_bins: int = 256

    @property
    def shape(self) -> tuple[int, int]:
        return self.labels.shape[0], self.n_classes

    def histogram(
        self, codes: NDArray[np.uint8], sample_index: NDArray[np.int64] | None = None
    ) -> NDArray[np.float64]:
        return _histogram_kernels.build_label_histogram(
            codes, self.labels, self.weight, self.n_classes, sample_index, self.n_bins
        )

    def is_pure(self, sample_index: NDArray[np.int64]) -> bool:
        return bool(_split_kernels.labels_are_pure(self.labels, self.weight, sample_index))


def _leaf_values(statistics: NDArray[np.float64], criterion: str, kind: str) -> NDArray[np.float64]:
    if kind == "binary":
        if criterion == "error":
            return np.where(statistics[:, 1] >= 0, 1.0, -1.0)
        return np.where(statistics[:, 1] >= statistics[:, 0], 1.0, -1.0)
    if kind == "multiclass":
        classes: NDArray[np.intp] = np.argmax(statistics, axis=1)
        return classes.astype(np.float64)
    if criterion == "confidence":  # fit_multilabel: pairs [W-_k, W+_k]
        return np.where(statistics[:, 1::2] >= statistics[:, 0::2], 1.0, -1.0)
    weight = statistics[:, :1]
    safe = np.where(weight > 0, weight, 1.0)
    means: NDArray[np.float64] = np.where(weight > 0, statistics[:, 1:] / safe, 0.0)
    return means[:, 0].copy() if kind == "regression" else means


def _check_vector(values: ArrayLike, n: int, name: str) -> NDArray[np.float64]:
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric: {exc}") from exc
    if array.ndim != 1 or array.shape[0] != n:
        raise ValueError(f"{name} must have shape ({n},) to match codes; got {array.shape}")
    bad = _input_kernels.first_not_finite(array) if array.ndim == 1 else -1
    if bad >= 0:
        raise ValueError(f"{name} contains NaN or inf (first at index {bad})")
    return array


def _check_matrix(values: ArrayLike, n: int, name: str) -> NDArray[np.float64]:
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric: {exc}") from exc
    if array.ndim != 2 or array.shape[0] != n or array.shape[1] < 1:
        raise ValueError(f"{name} must have shape ({n}, K) to match codes; got {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or inf")
    return array


def _check_weight(
    sample_weight: ArrayLike | None, n: int, allow_negative: bool
) -> NDArray[np.float64]:
    if sample_weight is None:
        return np.ones(n)
    weight = _check_vector(sample_weight, n, "sample_weight")
    negative, nonzero = _input_kernels.weight_problems(weight)
    if not allow_negative and negative >= 0:
        raise ValueError(
            f"sample_weight must be non-negative for this criterion; found "
            f"{weight[negative]!r} at index {negative}"
        )
    if nonzero < 0:
        raise ValueError("sample_weight is all zero")
    return weight


class _SearchRoot:
    """The search histograms of a tree deeper than 1, and their exact rows.

    The search histograms (:func:`~._search_histogram_kernels.build_search_histogram` for the
    root, :func:`~._search_histogram_kernels.build_node_search_histogram` for the smaller
    child of a split) cost a fraction of the exact ones on one-hot columns but may differ from
    them in the last bits of the sums of a sparse column's dominant code.  A node whose
    histogram derives from them (the root, a smaller child, and larger children by
    subtraction) chooses its split on that histogram; the choice is then checked on the exact
    rows of feature 0 (the node totals) and of the chosen feature, which also give the leaves'
    sums and the partition's counts.  The exact rows are those the growth on exact histograms
    uses, bit for bit: a node's row summed again from its samples, and a larger child's the
    parent's exact row minus, element by element, the smaller child's.  When the check does
    not confirm the choice (a tie within rounding, or no split worth taking), the node's full
    exact histogram decides, as on exact histograms throughout.  What the check cannot see is
    another feature whose exact score falls within rounding of the tie tolerance against the
    chosen one; the split may then differ from the exact histogram's.

    An ``origin`` says how to get a node's exact rows: ``None``, its histogram is exact;
    ``()``, it is the root's search histogram; ``("node", samples, exact_rows, rows)``, the
    search histogram of a node's samples (``exact_rows`` marks its rows that are exact,
    ``rows`` keeps those summed again); ``("minus", parent origin, parent histogram, sibling
    origin, sibling histogram)``, the parent's minus the sibling's.
    """

    def __init__(self, codes: NDArray[np.uint8], source: _DenseStatistics) -> None:
        self.codes = codes
        self.source = source
        self.search, self._exact_rows = _search_histogram_kernels.build_search_histogram(
            codes, source.stats
        )
        self._rows: dict[int, NDArray[np.float64]] = {}
        self._full: NDArray[np.float64] | None = None

    def child(self, samples: NDArray[np.int64]) -> tuple[NDArray[np.float64], Any]:
        """The histogram of a smaller child's ``samples`` and its origin: the node's search
        histogram where it saves passes, else the exact one (origin ``None``)."""
        built = _search_histogram_kernels.build_node_search_histogram(
            self.codes, self.source.stats, samples
        )
        if built is None:
            return self.source.histogram(self.codes, samples), None
        hist, exact_rows = built
        rows: dict[int, NDArray[np.float64]] = {}
        return hist, ("node", samples, exact_rows, rows)

    @staticmethod
    def minus(
        origin: Any,
        parent: NDArray[np.float64],
        sibling_origin: Any,
        sibling: NDArray[np.float64],
    ) -> Any:
        """The origin of a child's histogram ``parent - sibling``."""
        if origin is None and sibling_origin is None:
            return None
        return ("minus", origin, parent, sibling_origin, sibling)

    @staticmethod
    def rows(
        root: _SearchRoot | None, origin: Any, hist: NDArray[np.float64]
    ) -> Callable[[int], NDArray[np.float64]]:
        """Row ``f`` of a node's exact histogram, as a function of ``f``."""
        if origin is None:
            return hist.__getitem__
        assert root is not None
        return lambda f: root.row(origin, hist, f)

    def _root_row(self, f: int) -> NDArray[np.float64]:
        if self._full is not None:
            return np.asarray(self._full[f])
        if self._exact_rows[f]:  # the search's row of a feature without a dominant code
            return np.asarray(self.search[f])
        if f not in self._rows:
            self._rows[f] = _search_histogram_kernels.exact_feature_histograms(
                self.codes, self.source.stats, np.array([f], dtype=np.int64)
            )[0]
        return self._rows[f]

    def _node_row(self, origin: Any, hist: NDArray[np.float64], f: int) -> NDArray[np.float64]:
        _, samples, exact_rows, rows = origin
        if exact_rows[f]:  # a feature outside the bundles: summed as the exact histogram
            return np.asarray(hist[f])
        if f not in rows:
            rows[f] = _search_histogram_kernels.exact_feature_histograms(
                self.codes, self.source.stats, np.array([f], dtype=np.int64), samples
            )[0]
        return np.asarray(rows[f])

    def row(self, origin: Any, hist: NDArray[np.float64], f: int) -> NDArray[np.float64]:
        """Row ``f`` of the exact histogram of a node whose histogram is ``hist``."""
        if origin is None:
            return np.asarray(hist[f])
        if origin == ():
            return self._root_row(f)
        if origin[0] == "node":
            return self._node_row(origin, hist, f)
        _, parent_origin, parent, sibling_origin, sibling = origin
        return np.asarray(self.row(parent_origin, parent, f) - self.row(sibling_origin, sibling, f))

    def full(self, origin: Any, hist: NDArray[np.float64]) -> NDArray[np.float64]:
        """The node's whole exact histogram (the root's summed once)."""
        if origin is None:
            return hist
        if origin == ():
            if self._full is None:
                self._full = self.source.histogram(self.codes)
            return self._full
        if origin[0] == "node":
            return self.source.histogram(self.codes, origin[1])
        _, parent_origin, parent, sibling_origin, sibling = origin
        return np.asarray(self.full(parent_origin, parent) - self.full(sibling_origin, sibling))

    def check(
        self,
        split: tuple[int, int, int, float, float] | None,
        origin: Any,
        hist: NDArray[np.float64],
        best_split: Callable[[NDArray[np.float64]], tuple[int, int, int, float, float] | None],
    ) -> tuple[int, int, int, float, float] | None:
        """The search's ``(feature, bin, n_left, gain, parent score)`` confirmed on the exact
        rows (``n_left`` counted on them), or None when they do not confirm it."""
        if split is None:
            return None
        features = [0] if split[0] == 0 else [0, split[0]]
        checked = best_split(np.stack([self.row(origin, hist, f) for f in features]))
        if checked is None:
            return None
        feature = features[checked[0]]
        if not _same_split(
            (split[0], split[1], split[3], split[4]),
            (checked[0], checked[1], checked[3], checked[4]),
            feature,
        ):
            return None
        return feature, checked[1], checked[2], checked[3], checked[4]
