r"""Feature binning: map real features to small integer codes once per dataset.

Every weak learner in :mod:`marginboost.weak` works on ``uint8`` codes instead of raw feature
values.  A threshold split ``x_j <= t`` on a raw feature becomes ``code_j <= b`` on its code,
and the best split of a node is found from per-bin sums of sample statistics (a histogram),
which costs one pass over the node's samples instead of a sort.

Binning is **exact** when a feature has at most ``max_bins`` distinct training values: every
distinct value gets its own bin and the cut points are the midpoints between consecutive
distinct values, so the set of stumps a learner can choose from is exactly the set of
axis-parallel stumps on the training data (the finite class of stumps used by Shen & Li (2010),
Sec. 5, and by every paper reproduced here on UCI data).  A feature with more distinct values is
cut at (midpoints between distinct values nearest to) its empirical quantiles.

Conventions
-----------
* ``code <= b``  if and only if  ``x <= bin_thresholds_[j][b]`` for ``b < n_bins_[j] - 1``;
  the last bin has no upper threshold.  Equivalently ``code = #{thresholds < x}``.
* New data outside the training range maps to the first or last bin.
* A constant feature has a single bin (code 0) and is never split.
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["BinMapper", "RawFeatures", "check_codes"]

#: Largest number of bins a ``uint8`` code can address.
MAX_BINS_LIMIT = 256


def _check_finite_matrix(X: ArrayLike, name: str = "X") -> NDArray[np.float64]:
    """Return ``X`` as a 2-D float64 array, raising ``ValueError`` naming a non-finite column."""
    try:
        array = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array; got {type(X).__name__}: {exc}") from exc
    if array.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_features); got shape {array.shape}")
    if array.shape[0] == 0:
        raise ValueError(f"{name} has no samples (shape {array.shape})")
    finite = np.isfinite(array)
    if not finite.all():
        bad_columns = np.flatnonzero(~finite.all(axis=0))
        column = int(bad_columns[0])
        row = int(np.flatnonzero(~finite[:, column])[0])
        raise ValueError(
            f"{name} column {column} contains a non-finite value ({array[row, column]!r} at row "
            f"{row}); {len(bad_columns)} column(s) affected. Impute or drop them before binning."
        )
    return array


def check_codes(
    codes: ArrayLike, n_features: int | None = None, name: str = "codes"
) -> NDArray[np.uint8]:
    """Validate binned codes: a 2-D ``uint8`` array, optionally with ``n_features`` columns.

    Returns the array itself when it is already Fortran-ordered, else a Fortran-ordered copy.
    """
    if not isinstance(codes, np.ndarray) or codes.dtype != np.uint8 or codes.ndim != 2:
        description = (
            f"{codes.dtype} array of shape {codes.shape}"
            if isinstance(codes, np.ndarray)
            else type(codes).__name__
        )
        raise ValueError(
            f"{name} must be a 2-D uint8 array from BinMapper.transform; got {description}"
        )
    if codes.shape[0] == 0:
        raise ValueError(f"{name} has no samples (shape {codes.shape})")
    if n_features is not None and codes.shape[1] != n_features:
        raise ValueError(
            f"{name} has {codes.shape[1]} features but the model was fitted on {n_features}"
        )
    if not codes.flags.f_contiguous:
        codes = np.asfortranarray(codes)
    return codes


class BinMapper:
    """Map each real feature to ``uint8`` codes with exact or quantile cut points.

    Parameters
    ----------
    max_bins : int, default 255
        Largest number of bins per feature (2 to 256).  A feature with at most ``max_bins``
        distinct training values is binned exactly (one bin per value).

    Attributes
    ----------
    n_bins_ : ndarray of int64, shape (n_features,)
        Number of bins of each feature (1 for a constant feature).
    bin_thresholds_ : list of ndarray of float64
        ``bin_thresholds_[j]`` has ``n_bins_[j] - 1`` increasing cut points; a value ``x`` gets
        code ``b`` when ``bin_thresholds_[j][b-1] < x <= bin_thresholds_[j][b]``.
    is_exact_ : ndarray of bool, shape (n_features,)
        Whether the feature was binned exactly (one bin per distinct training value).
    n_features_in_ : int
        Number of features seen in :meth:`fit`.

    See Also
    --------
    RawFeatures : the identity mapper, for weak learners that read raw features.

    Notes
    -----
    A threshold split ``x_j <= t`` becomes ``code_j <= b`` on the codes, and the best split of
    a node is found from per-bin sums (a histogram) instead of a sort.  Binning is exact when a
    feature has at most ``max_bins`` distinct training values: the cut points are then the
    midpoints between consecutive distinct values, so the stumps on the codes are exactly the
    axis-parallel stumps on the training data.  Otherwise the cuts are placed near the
    empirical quantiles (see :mod:`marginboost.weak.binning`).

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.weak import BinMapper
    >>> mapper = BinMapper().fit(np.array([[0.0], [1.0], [1.0], [3.0]]))
    >>> mapper.bin_thresholds_[0]
    array([0.5, 2. ])
    >>> mapper.transform(np.array([[-5.0], [1.0], [2.5], [9.0]]))[:, 0]
    array([0, 1, 2, 2], dtype=uint8)
    """

    def __init__(self, max_bins: int = 255) -> None:
        self.max_bins = max_bins

    def _check_params(self) -> int:
        max_bins = self.max_bins
        if (
            not isinstance(max_bins, numbers.Integral)
            or isinstance(max_bins, bool)
            or not 2 <= max_bins <= MAX_BINS_LIMIT
        ):
            raise ValueError(
                f"max_bins must be an integer in [2, {MAX_BINS_LIMIT}]; got {max_bins!r}"
            )
        return int(max_bins)

    def fit(self, X: ArrayLike) -> BinMapper:
        """Compute the cut points of every feature of ``X`` (float array, n_samples x n_features)."""
        from .._numba_cache import announce_compilation

        announce_compilation()  # once per process, and only when the kernels are not cached
        max_bins = self._check_params()
        X = _check_finite_matrix(X)
        thresholds: list[NDArray[np.float64]] = []
        exact = np.zeros(X.shape[1], dtype=bool)
        for column in range(X.shape[1]):
            distinct = np.unique(X[:, column])
            if distinct.size <= max_bins:
                exact[column] = True
                lower = np.arange(distinct.size - 1)
            else:
                lower = self._quantile_cut_positions(X[:, column], distinct, max_bins)
            below, above = distinct[lower], distinct[lower + 1]
            cuts = (below + above) / 2.0
            # Between adjacent floats the midpoint can round onto the larger value; cut at the
            # smaller one then, so the cut still separates the two.
            cuts = np.where(cuts >= above, below, cuts)
            thresholds.append(np.ascontiguousarray(cuts, dtype=np.float64))
        self.bin_thresholds_ = thresholds
        self.n_bins_ = np.array([t.size + 1 for t in thresholds], dtype=np.int64)
        self.is_exact_ = exact
        self.n_features_in_ = X.shape[1]
        return self

    @staticmethod
    def _quantile_cut_positions(
        values: NDArray[np.float64], distinct: NDArray[np.float64], max_bins: int
    ) -> NDArray[np.intp]:
        """Indices ``i`` of the cuts between ``distinct[i]`` and ``distinct[i+1]`` near quantiles.

        The quantile levels are ``k / max_bins`` for ``k = 1..max_bins-1`` (linear
        interpolation, numpy's default).  Each quantile ``q`` is moved to the midpoint between
        the largest distinct value ``<= q`` and the next one; duplicate cuts are merged, so a
        feature with heavy ties can get fewer than ``max_bins`` bins.
        """
        levels = np.arange(1, max_bins) / max_bins
        quantiles = np.quantile(values, levels)
        lower = np.searchsorted(distinct, quantiles, side="right") - 1
        return np.unique(np.clip(lower, 0, distinct.size - 2))

    def transform(self, X: ArrayLike) -> NDArray[np.uint8]:
        """Return the codes of ``X``: a Fortran-ordered ``uint8`` array (n_samples, n_features)."""
        if not hasattr(self, "bin_thresholds_"):
            raise ValueError("this BinMapper is not fitted yet; call fit(X) first")
        X = _check_finite_matrix(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features but the BinMapper was fitted on {self.n_features_in_}"
            )
        codes = np.empty(X.shape, dtype=np.uint8, order="F")
        for column, cuts in enumerate(self.bin_thresholds_):
            codes[:, column] = np.searchsorted(cuts, X[:, column], side="left")
        return codes

    def fit_transform(self, X: ArrayLike) -> NDArray[np.uint8]:
        """Fit on ``X`` and return its codes."""
        return self.fit(X).transform(X)

    def threshold(self, feature: int, bin_index: int) -> float:
        """Raw-value threshold of the split ``code <= bin_index`` of ``feature``."""
        cuts = self.bin_thresholds_[feature]
        if not 0 <= bin_index < cuts.size:
            raise ValueError(
                f"bin {bin_index} of feature {feature} has no upper threshold "
                f"(feature has {cuts.size + 1} bins)"
            )
        return float(cuts[bin_index])

    def __repr__(self) -> str:
        return f"BinMapper(max_bins={self.max_bins})"


class RawFeatures:
    """The identity "mapper" for weak learners that work on raw feature values (e.g. LDA).

    Same interface as :class:`BinMapper`: :meth:`fit` records the number of features and
    :meth:`transform` returns the values as a C-ordered ``float64`` array after checking the
    shape and that every value is finite.  The boosting estimators use it in place of the
    binning when their weak learner declares ``uses_raw_features = True``
    (:class:`LDALearner`).

    Attributes
    ----------
    n_features_in_ : int
        Number of features seen in :meth:`fit`.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.weak import RawFeatures
    >>> mapper = RawFeatures().fit(np.array([[0.5, 1.0], [2.0, -1.0]]))
    >>> mapper.n_features_in_
    2
    >>> mapper.transform(np.array([[3, 4]]))
    array([[3., 4.]])
    """

    def __init__(self) -> None:
        """``RawFeatures()`` takes no parameters."""

    def fit(self, X: ArrayLike) -> RawFeatures:
        """Record the number of features of ``X``."""
        self.n_features_in_ = self._check(X, None).shape[1]
        return self

    def transform(self, X: ArrayLike) -> NDArray[np.float64]:
        """``X`` as a ``float64`` array (n_samples, n_features)."""
        return self._check(X, getattr(self, "n_features_in_", None))

    def fit_transform(self, X: ArrayLike) -> NDArray[np.float64]:
        """:meth:`fit` then :meth:`transform`."""
        return self.fit(X).transform(X)

    @staticmethod
    def _check(X: ArrayLike, n_features: int | None) -> NDArray[np.float64]:
        X = np.ascontiguousarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (n_samples, n_features); got shape {X.shape}")
        if n_features is not None and X.shape[1] != n_features:
            raise ValueError(
                f"X has {X.shape[1]} features but the mapper was fitted on {n_features}"
            )
        if not np.isfinite(X).all():
            raise ValueError("X contains NaN or infinite values")
        return X
