r"""Margins of voting classifiers and the statistics the papers study.

For a binary combined classifier :math:`F(x) = \sum_t \alpha_t h_t(x)` and a label
:math:`y \in \{-1, +1\}` the (unnormalized) margin is :math:`y F(x)`; the **normalized margin**
divides by :math:`\sum_t |\alpha_t|` (Shen & Li 2010, eq. (34); Guo & Chen, eq. (2); Zhai et al.
2013, eq. (6)), so that for base hypotheses with values in :math:`[-1, 1]` it lies in
:math:`[-1, 1]`.  For :math:`K` classes with scores :math:`f_k(x)` the multi-class margin is
:math:`f_y(x) - \max_{k \ne y} f_k(x)`, normalized by :math:`\sum_t |\alpha_t|` (Zhai, Xia & Wang
2014, eq. (4)).

The summaries used by the papers are the average of the :math:`n'` smallest margins
(:func:`bottom_margin_average`, the objective of soft-margin LPBoost and DirectBoost), order
statistics (:func:`margin_order_statistic`), the cumulative margin distribution
(:func:`cumulative_margin_distribution`; Mason et al. 1999, Fig. 2; Shen & Li, Fig. 4), the
mean and variance of the margins (:func:`margin_mean_variance`; Shen & Li, eq. (39)) and Guo &
Chen's split of the mean squared distance from a target margin into variance and squared bias
(:func:`margin_bias_variance`; their eqs. (10)-(11)).
"""
from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "binary_margins", "normalized_margins", "multiclass_margins", "bottom_margin_indices",
    "bottom_margin_average", "margin_order_statistic", "cumulative_margin_distribution",
    "margin_mean_variance", "margin_bias_variance",
]

FloatArray = NDArray[np.float64]


def _finite_vector(values: ArrayLike, what: str) -> FloatArray:
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{what} must be an array of real numbers; got {values!r}") from exc
    if arr.ndim != 1:
        raise ValueError(f"{what} must be one-dimensional; got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(f"{what} must be finite; entry {bad} is {arr[bad]!r}")
    return arr


def _signed_labels(y: ArrayLike, n: int) -> FloatArray:
    arr = _finite_vector(y, "labels y")
    if arr.shape[0] != n:
        raise ValueError(f"labels y have {arr.shape[0]} entries but the scores have {n}")
    if not np.all(np.isin(arr, (-1.0, 1.0))):
        raise ValueError(f"binary margins need labels in {{-1, +1}}; got values {np.unique(arr)[:5]}")
    return arr


def _l1_normalizer(alphas: ArrayLike | float) -> float:
    arr = np.atleast_1d(np.asarray(alphas, dtype=np.float64))
    if arr.ndim != 1 or not np.all(np.isfinite(arr)):
        raise ValueError(f"alphas must be a finite 1-D array of weak-learner weights; got {alphas!r}")
    total = float(np.abs(arr).sum())
    if total <= 0.0:
        raise ValueError("normalized margins need sum |alphas| > 0; all weights are zero")
    return total


def _check_n_bottom(n_bottom: int, n: int) -> int:
    if isinstance(n_bottom, bool) or not isinstance(n_bottom, (int, np.integer)):
        raise TypeError(f"n_bottom must be an integer; got {n_bottom!r}")
    if not 1 <= n_bottom <= n:
        raise ValueError(f"n_bottom must be between 1 and the number of margins ({n}); got {n_bottom}")
    return int(n_bottom)


def binary_margins(y: ArrayLike, scores: ArrayLike) -> FloatArray:
    """Unnormalized binary margins :math:`y_i F(x_i)`.

    Parameters
    ----------
    y : array of shape (n,)
        Labels in ``{-1, +1}``.
    scores : array of shape (n,)
        Real-valued scores :math:`F(x_i)` (e.g. ``decision_function``).
    """
    f = _finite_vector(scores, "scores")
    return _signed_labels(y, f.shape[0]) * f


def normalized_margins(y: ArrayLike, scores: ArrayLike, alphas: ArrayLike | float) -> FloatArray:
    r"""Normalized margins :math:`y_i F(x_i) / \sum_t |\alpha_t|` (Shen & Li 2010, eq. (34)).

    ``alphas`` is the vector of weak-learner weights (or directly the normaliser
    :math:`\sum_t |\alpha_t|` as a positive scalar).
    """
    return binary_margins(y, scores) / _l1_normalizer(alphas)


def multiclass_margins(scores: ArrayLike, y: ArrayLike,
                       alphas: ArrayLike | float | None = None) -> FloatArray:
    r"""Multi-class margins :math:`f_{y_i}(x_i) - \max_{k \ne y_i} f_k(x_i)` (Zhai et al. 2014, eq. (4)).

    Parameters
    ----------
    scores : array of shape (n, K), K >= 2
        Class scores :math:`f_k(x_i)`.
    y : array of shape (n,)
        Class indices in ``0 .. K-1``.
    alphas : array or float, optional
        Weak-learner weights; when given the margins are divided by :math:`\sum_t |\alpha_t|`.
    """
    try:
        f = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"scores must be a real (n, K) array; got {scores!r}") from exc
    if f.ndim != 2 or f.shape[1] < 2:
        raise ValueError(f"scores must have shape (n, K) with K >= 2; got shape {f.shape}")
    if not np.all(np.isfinite(f)):
        raise ValueError("scores must be finite")
    labels = np.asarray(y)
    if labels.shape != (f.shape[0],):
        raise ValueError(f"y must have shape ({f.shape[0]},) to match scores; got {labels.shape}")
    if labels.size and (not np.issubdtype(labels.dtype, np.integer)
                        or labels.min() < 0 or labels.max() >= f.shape[1]):
        raise ValueError(f"y must hold integer class indices in 0..{f.shape[1] - 1}; "
                         f"got values {np.unique(labels)[:5]}")
    rows = np.arange(f.shape[0])
    own = f[rows, labels]
    others = f.copy()
    others[rows, labels] = -np.inf
    margins = own - others.max(axis=1)
    if alphas is not None:
        margins = margins / _l1_normalizer(alphas)
    return margins


def bottom_margin_indices(margins: ArrayLike, n_bottom: int) -> NDArray[np.intp]:
    """Indices of the ``n_bottom`` smallest margins (the set :math:`B_{n'}`), smallest first.

    Ties are broken by the original order (a stable sort), so the result is deterministic.
    """
    m = _finite_vector(margins, "margins")
    k = _check_n_bottom(n_bottom, m.shape[0])
    return np.argsort(m, kind="stable")[:k]


def bottom_margin_average(margins: ArrayLike, n_bottom: int) -> float:
    r"""Average of the ``n_bottom`` smallest margins, :math:`g_{avg\,n'} = \frac{1}{n'}\sum_{i \in B_{n'}} m_i`.

    ``n_bottom = 1`` gives the minimum margin, ``n_bottom = n`` the mean margin.  Soft-margin
    LPBoost with :math:`D = 1/n'` maximizes this quantity (Shen & Li 2010, Sec. 3.2; Zhai et al.
    2013, eq. (9)).
    """
    m = _finite_vector(margins, "margins")
    k = _check_n_bottom(n_bottom, m.shape[0])
    return float(np.mean(np.partition(m, k - 1)[:k]))


def margin_order_statistic(margins: ArrayLike, order: int) -> float:
    """The ``order``-th smallest margin (1-based; ``order = 1`` is the minimum margin).

    This is the objective of DirectBoost's order variant (Zhai et al. 2013, Sec. 2.2).
    """
    m = _finite_vector(margins, "margins")
    k = _check_n_bottom(order, m.shape[0])
    return float(np.partition(m, k - 1)[k - 1])


def cumulative_margin_distribution(margins: ArrayLike, grid: ArrayLike | None = None,
                                   ) -> tuple[FloatArray, FloatArray]:
    """Fraction of examples with margin at most ``x``, for every ``x`` of ``grid``.

    Parameters
    ----------
    margins : array of shape (n,)
        Margins (normalized margins lie in ``[-1, 1]``).
    grid : array, optional
        Points at which the distribution is evaluated; default 201 points on ``[-1, 1]``, the
        axis of Mason et al. (1999), Fig. 2 and Shen & Li (2010), Fig. 4.

    Returns
    -------
    grid, fraction : arrays
        ``fraction[j] = #{i : margins[i] <= grid[j]} / n``, non-decreasing in ``grid``.
    """
    m = np.sort(_finite_vector(margins, "margins"))
    if m.size == 0:
        raise ValueError("cumulative_margin_distribution needs at least one margin")
    x = np.linspace(-1.0, 1.0, 201) if grid is None else _finite_vector(grid, "grid")
    return x, np.searchsorted(m, x, side="right") / m.size


def margin_mean_variance(margins: ArrayLike) -> tuple[float, float]:
    r"""Mean :math:`\bar\varrho` and population variance :math:`\sigma^2` of the margins.

    Shen & Li (2010), eq. (39) trade them off in AdaBoost-QP; the variance uses the divisor
    :math:`n` as their matrix :math:`A` does.
    """
    m = _finite_vector(margins, "margins")
    if m.size == 0:
        raise ValueError("margin_mean_variance needs at least one margin")
    mean = float(m.mean())
    variance = float(np.mean((m - mean) ** 2))
    return mean, variance


def margin_bias_variance(margins: ArrayLike, E: float) -> tuple[float, float, float]:
    r"""Guo & Chen's decomposition (eqs. (10)-(11)) of the spread of the margins around a target
    margin :math:`E`:

    .. math:: \frac1n\sum_i (\varrho_i - E)^2 = \frac1n\sum_i (\varrho_i - \bar\varrho)^2
              + (\bar\varrho - E)^2.

    Returns ``(mean_squared_deviation, variance, squared_bias)``, the three terms in that
    order; the variance is the population variance of :func:`margin_mean_variance`.  MCBoost
    minimizes :math:`n` times the first term (its objective (12)).
    """
    m = _finite_vector(margins, "margins")
    if m.size == 0:
        raise ValueError("margin_bias_variance needs at least one margin")
    if isinstance(E, bool) or not isinstance(E, numbers.Real) or not np.isfinite(E):
        raise ValueError(f"the target margin E must be a finite real number; got {E!r}")
    mean, variance = margin_mean_variance(m)
    mean_squared_deviation = float(np.mean((m - E) ** 2))
    return mean_squared_deviation, variance, (mean - float(E)) ** 2
