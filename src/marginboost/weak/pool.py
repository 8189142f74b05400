r"""Fixed pools of weak hypotheses for LP/QP boosting (LPBoost, AdaBoost-l1, AdaBoost-QP).

Totally corrective and fixed-pool methods work with the matrix :math:`H_{ij} = h_j(x_i)` of a
finite set of hypotheses on the training data (Shen & Li 2010, eq. (1); Demiriz, Bennett &
Shawe-Taylor 2002).  A :class:`WeakPool` holds such a set and the training codes it was built
on, and answers the column-generation question "which hypothesis has the largest edge
:math:`\sum_i g_i H_{ij}`?" without forming :math:`H`.

All distinct stumps
-------------------
:meth:`WeakPool.all_stumps` enumerates, for every feature and every cut between two
consecutive codes present in the data, the stump
``h(x) = polarity if code > bin else -polarity`` with both polarities (LP/QP methods need
both because their hypothesis weights are non-negative).  Constant hypotheses are not
included.  Columns are ordered by feature, then bin, then polarity (+1 first).  Two stumps are
**duplicates** when they take the same values on every training sample (e.g. identical or
mirrored features); only the first in that order is kept.  Duplicates are found by a 64-bit
random hash of the set of samples where a stump is +1 (per-bin sums of random keys, so
O(n d) in total) and every hash match is confirmed by comparing the two columns, so a hash
collision can never drop a distinct stump.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit, prange
from numpy.typing import ArrayLike, NDArray

from .binning import check_codes
from .tree import FittedTree

__all__ = ["WeakPool"]

_HASH_SEED = 20100401


@njit(cache=True, parallel=True)
def _bin_sums(codes: NDArray[np.uint8], values: NDArray[np.float64]) -> NDArray[np.float64]:
    """``sums[f, b]`` = sum of ``values`` over samples with ``code_f == b``."""
    n_samples, n_features = codes.shape
    sums = np.zeros((n_features, 256))
    for feature in prange(n_features):
        n_even = n_samples // 2 * 2
        column = codes[:, feature]
        even = np.zeros(256)  # two interleaved accumulators: see _histogram_kernels
        odd = np.zeros(256)
        for i in range(0, n_even, 2):
            b_even = column[i]
            b_odd = column[i + 1]
            even[b_even] += values[i]
            odd[b_odd] += values[i + 1]
        for i in range(n_even, n_samples):
            even[column[i]] += values[i]
        sums[feature] = even + odd
    return sums


@njit(cache=True, parallel=True)
def _bin_hashes(
    codes: NDArray[np.uint8], keys: NDArray[np.uint64]
) -> tuple[NDArray[np.uint64], NDArray[np.int64]]:
    """Per-bin counts and wrapping uint64 sums of per-sample random ``keys``."""
    n_samples, n_features = codes.shape
    hashes = np.zeros((n_features, 256), dtype=np.uint64)
    counts = np.zeros((n_features, 256), dtype=np.int64)
    for feature in prange(n_features):
        column = codes[:, feature]
        for i in range(n_samples):
            hashes[feature, column[i]] += keys[i]
            counts[feature, column[i]] += 1
    return hashes, counts


@njit(cache=True, parallel=True)
def _stump_matrix(
    codes: NDArray[np.uint8],
    features: NDArray[np.int64],
    bins: NDArray[np.int64],
    polarities: NDArray[np.int8],
) -> NDArray[np.int8]:
    n_samples = codes.shape[0]
    n_columns = features.shape[0]
    matrix = np.empty((n_columns, n_samples), dtype=np.int8)  # transposed: rows contiguous
    for j in prange(n_columns):
        column = codes[:, features[j]]
        for i in range(n_samples):
            matrix[j, i] = polarities[j] if column[i] > bins[j] else -polarities[j]
    return matrix


class WeakPool:
    r"""A finite set of weak hypotheses evaluated on a fixed training set.

    Build with :meth:`all_stumps` or :meth:`from_hypotheses` (``WeakPool()`` itself is an
    empty pool).  The pool stands for the matrix :math:`H_{ij} = h_j(x_i)` of Shen & Li
    (2010a) and answers the column-generation question "which hypothesis has the largest
    edge :math:`\sum_i g_i H_{ij}`?" (:meth:`best_column`) without forming :math:`H`.
    :class:`~marginboost.AdaBoostL1` and :class:`~marginboost.AdaBoostQP` solve their
    problems on such pools.

    Attributes
    ----------
    features_ : ndarray of int64, shape (n_hypotheses,) or None
        Feature of every stump (stump pools only, else ``None``).
    bins_ : ndarray of int64, shape (n_hypotheses,) or None
        Bin of every stump: ``h(x) = polarity if code[feature] > bin else -polarity``.
    polarities_ : ndarray of int8, shape (n_hypotheses,) or None
        Polarity (+1 or -1) of every stump.
    hypotheses_ : list of FittedTree or None
        The hypotheses of a pool built with :meth:`from_hypotheses` (else ``None``).
    codes_ : ndarray of uint8, shape (n_samples, n_features) or None
        The training codes the pool was built on; used by :meth:`matrix`,
        :meth:`best_column` and :meth:`edges` when they are called without codes.

    Examples
    --------
    Every distinct stump on three samples; the two stumps on feature 1 equal stumps on
    feature 0 on these samples and are dropped:

    >>> import numpy as np
    >>> from marginboost.weak import WeakPool
    >>> codes = np.asfortranarray(np.array([[0, 1], [1, 1], [2, 0]], dtype=np.uint8))
    >>> pool = WeakPool.all_stumps(codes)
    >>> pool
    WeakPool(4 stumps)
    >>> pool.features_.tolist(), pool.bins_.tolist(), pool.polarities_.tolist()
    ([0, 0, 0, 0], [0, 0, 1, 1], [1, -1, 1, -1])
    >>> pool.best_column(np.array([1.0, 1.0, -1.0]))  # g_i = w_i y_i
    (3, 3.0)
    >>> pool.hypothesis(3).predict(codes)
    array([ 1.,  1., -1.])
    """

    def __init__(self) -> None:
        self.features_: NDArray[np.int64] | None = None
        self.bins_: NDArray[np.int64] | None = None
        self.polarities_: NDArray[np.int8] | None = None
        self.hypotheses_: list[FittedTree] | None = None
        self.codes_: NDArray[np.uint8] | None = None
        self._matrix_cache: NDArray[np.float64] | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def all_stumps(cls, codes: ArrayLike) -> WeakPool:
        """Every distinct stump on ``codes`` (see the module docstring for the definition)."""
        codes = check_codes(codes)
        n_samples, n_features = codes.shape
        keys = np.random.default_rng(_HASH_SEED).integers(
            0, np.iinfo(np.uint64).max, size=int(n_samples), dtype=np.uint64, endpoint=True
        )
        bin_hash, bin_count = _bin_hashes(codes, keys)
        total_hash = keys.sum(dtype=np.uint64)
        features, bins, polarities, set_hashes = [], [], [], []
        for feature in range(n_features):
            present = np.flatnonzero(bin_count[feature])
            if present.size < 2:
                continue
            cuts = present[:-1]
            left_hash = np.cumsum(bin_hash[feature], dtype=np.uint64)[cuts]
            for polarity, plus_set_hash in ((1, total_hash - left_hash), (-1, left_hash)):
                features.append(np.full(cuts.size, feature))
                bins.append(cuts)
                polarities.append(np.full(cuts.size, polarity))
                set_hashes.append(plus_set_hash)
        pool = cls()
        pool.codes_ = codes
        if not features:
            pool.features_ = np.zeros(0, dtype=np.int64)
            pool.bins_ = np.zeros(0, dtype=np.int64)
            pool.polarities_ = np.zeros(0, dtype=np.int8)
            return pool
        # order: feature, then bin, then polarity (+1 first)
        feature_all = np.concatenate(features)
        bin_all = np.concatenate(bins)
        polarity_all = np.concatenate(polarities)
        hash_all = np.concatenate(set_hashes)
        order = np.lexsort((-polarity_all, bin_all, feature_all))
        feature_all, bin_all = feature_all[order], bin_all[order]
        polarity_all, hash_all = polarity_all[order], hash_all[order]
        keep = cls._first_of_duplicates(codes, feature_all, bin_all, polarity_all, hash_all)
        pool.features_ = feature_all[keep].astype(np.int64)
        pool.bins_ = bin_all[keep].astype(np.int64)
        pool.polarities_ = polarity_all[keep].astype(np.int8)
        return pool

    @staticmethod
    def _first_of_duplicates(
        codes: NDArray[np.uint8],
        features: NDArray[np.int64],
        bins: NDArray[np.int64],
        polarities: NDArray[np.int64],
        hashes: NDArray[np.uint64],
    ) -> NDArray[np.bool_]:
        """Mask keeping the first stump of each group with identical columns."""
        keep = np.ones(features.size, dtype=bool)
        first_with_hash: dict[int, list[int]] = {}
        _, first_index, inverse = np.unique(hashes, return_index=True, return_inverse=True)
        repeated = np.flatnonzero(first_index[inverse] != np.arange(hashes.size))

        def column(j: int | np.intp) -> NDArray[np.bool_]:
            plus: NDArray[np.bool_] = codes[:, features[j]] > bins[j]
            return plus if polarities[j] > 0 else ~plus

        for j in repeated:  # hash seen before: confirm against every kept column with it
            group = first_with_hash.setdefault(int(hashes[j]), [int(first_index[inverse[j]])])
            if any(np.array_equal(column(j), column(k)) for k in group):
                keep[j] = False
            else:
                group.append(int(j))  # a genuine hash collision: a distinct stump
        return keep

    @classmethod
    def from_hypotheses(
        cls, hypotheses: Sequence[FittedTree], codes: ArrayLike | None = None
    ) -> WeakPool:
        """A pool of given fitted trees (e.g. the stumps of an AdaBoost run, Shen & Li Table II).

        ``codes`` (optional) are the training codes used by :meth:`best_column` and
        :meth:`matrix` when called without codes.  Duplicates are kept.
        """
        hypotheses = list(hypotheses)
        if not hypotheses:
            raise ValueError("from_hypotheses needs at least one hypothesis")
        for k, tree in enumerate(hypotheses):
            if not isinstance(tree, FittedTree) or tree.leaf_values_.ndim != 1:
                raise ValueError(f"hypothesis {k} is not a FittedTree with scalar leaves")
        n_features = {tree.n_features_in_ for tree in hypotheses}
        if len(n_features) != 1:
            raise ValueError(f"hypotheses were fitted on different feature counts {n_features}")
        pool = cls()
        pool.hypotheses_ = hypotheses
        if codes is not None:
            pool.codes_ = check_codes(codes, n_features.pop())
        return pool

    # ------------------------------------------------------------------ queries
    def __len__(self) -> int:
        if self.hypotheses_ is not None:
            return len(self.hypotheses_)
        assert self.features_ is not None  # a stump pool
        return int(self.features_.size)

    @property
    def n_hypotheses_(self) -> int:
        """Number of hypotheses (columns of :meth:`matrix`)."""
        return len(self)

    def _codes(self, codes: ArrayLike | None) -> NDArray[np.uint8]:
        if codes is not None:
            return check_codes(codes)
        if self.codes_ is None:
            raise ValueError("this pool holds no training codes; pass codes explicitly")
        return self.codes_

    def matrix(self, codes: ArrayLike | None = None) -> NDArray[np.int8] | NDArray[np.float64]:
        """``H[i, j] = h_j(x_i)``: int8 (n, N) for stump pools, float64 for tree pools.

        Stump matrices are returned Fortran-ordered (each column contiguous).
        """
        codes = self._codes(codes)
        if self.hypotheses_ is not None:
            return np.column_stack([tree.predict(codes) for tree in self.hypotheses_])
        assert self.features_ is not None and self.bins_ is not None  # a stump pool
        assert self.polarities_ is not None
        return _stump_matrix(codes, self.features_, self.bins_, self.polarities_).T

    def best_column(
        self, weights_signed: ArrayLike, codes: ArrayLike | None = None
    ) -> tuple[int, float]:
        r"""``(j, edge)`` with ``j = argmax_j sum_i g_i H_ij`` (lowest index on ties).

        For stump pools this costs one histogram pass, O(n d), whatever the pool size.
        """
        data = self._codes(codes)
        g = np.asarray(weights_signed, dtype=np.float64)
        if g.shape != (data.shape[0],):
            raise ValueError(f"weights_signed must have shape ({data.shape[0]},); got {g.shape}")
        if not np.isfinite(g).all():
            raise ValueError("weights_signed contains NaN or inf")
        if len(self) == 0:
            raise ValueError("the pool is empty")
        edges = self.edges(g, data)
        j = int(np.argmax(edges))
        return j, float(edges[j])

    def edges(
        self, weights_signed: ArrayLike, codes: ArrayLike | None = None
    ) -> NDArray[np.float64]:
        """Edges ``sum_i g_i H_ij`` of every hypothesis."""
        data = self._codes(codes)
        g = np.ascontiguousarray(weights_signed, dtype=np.float64)
        if self.hypotheses_ is not None:
            if codes is None:
                if self._matrix_cache is None:
                    self._matrix_cache = np.asfortranarray(self.matrix(data), dtype=np.float64)
                return g @ self._matrix_cache
            return g @ self.matrix(data)
        assert self.features_ is not None and self.bins_ is not None  # a stump pool
        assert self.polarities_ is not None
        left_sums = np.cumsum(_bin_sums(data, g), axis=1)[self.features_, self.bins_]
        total = g.sum()
        edges: NDArray[np.float64] = np.where(
            self.polarities_ > 0, total - 2.0 * left_sums, 2.0 * left_sums - total
        )
        return edges

    def hypothesis(self, index: int) -> FittedTree:
        """Hypothesis ``index`` as a FittedTree (a stump for stump pools)."""
        if not 0 <= index < len(self):
            raise ValueError(f"index {index} out of range for a pool of {len(self)} hypotheses")
        if self.hypotheses_ is not None:
            return self.hypotheses_[index]
        assert self.features_ is not None and self.bins_ is not None  # a stump pool
        assert self.polarities_ is not None and self.codes_ is not None
        polarity = float(self.polarities_[index])
        arrays = [
            np.array(a, dtype=np.int64)
            for a in (
                [self.features_[index], -1, -1],
                [self.bins_[index], -1, -1],
                [1, -1, -1],
                [2, -1, -1],
                [-1, 0, 1],
            )
        ]
        values = np.array([-polarity, polarity])
        for array in (*arrays, values):
            array.setflags(write=False)
        node_feature, node_bin, node_left, node_right, node_leaf = arrays
        return FittedTree(
            node_feature,
            node_bin,
            node_left,
            node_right,
            node_leaf,
            values,
            "binary",
            "error",
            self.codes_.shape[1],
            1,
            None,
        )

    def __repr__(self) -> str:
        kind = "trees" if self.hypotheses_ is not None else "stumps"
        return f"WeakPool({len(self)} {kind})"
