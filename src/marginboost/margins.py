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
    "binary_margins",
    "normalized_margins",
    "l1_norm_in_order",
    "multiclass_margins",
    "bottom_margin_indices",
    "bottom_margin_average",
    "soft_margin",
    "margin_order_statistic",
    "cumulative_margin_distribution",
    "margin_mean_variance",
    "margin_bias_variance",
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
        raise ValueError(
            f"binary margins need labels in {{-1, +1}}; got values {np.unique(arr)[:5]}"
        )
    return arr


def l1_norm_in_order(alphas: ArrayLike) -> float:
    r""":math:`\sum_t |\alpha_t|` added one term after another, in the order of ``alphas``.

    Parameters
    ----------
    alphas : array_like
        The weak-learner weights :math:`\alpha_t`, in the order of the rounds.

    Returns
    -------
    float
        :math:`\sum_t |\alpha_t|`, rounded after every addition.

    Notes
    -----
    This is the order in which a score :math:`F(x) = \sum_t \alpha_t h_t(x)` is accumulated,
    round by round.  Floating-point addition is monotone, so for weak hypotheses with values
    in :math:`[-1, 1]` the rounded :math:`|F(x)|` never exceeds this rounded sum, and an
    example on which every hypothesis agrees gets a normalized margin of exactly :math:`\pm 1`.
    numpy's pairwise ``sum`` can differ from it in the last bit, and by machine (its blocking
    follows the SIMD width), which would move such examples across :math:`\pm 1` and change
    a cumulative margin distribution evaluated there.

    References
    ----------
    Schapire, R. E., Freund, Y., Bartlett, P. and Lee, W. S. (1998). Boosting the margin: a
    new explanation for the effectiveness of voting methods. The Annals of Statistics
    26(5), 1651-1686.

    Goldberg, D. (1991). What every computer scientist should know about floating-point
    arithmetic. ACM Computing Surveys 23(1), 5-48.

    Examples
    --------
    >>> from marginboost.margins import l1_norm_in_order
    >>> l1_norm_in_order([0.5, -0.25, 0.25])
    1.0
    """
    total = 0.0
    for alpha in np.asarray(alphas, dtype=np.float64).ravel().tolist():
        total += abs(alpha)
    return total


def _l1_normalizer(alphas: ArrayLike | float) -> float:
    arr = np.atleast_1d(np.asarray(alphas, dtype=np.float64))
    if arr.ndim != 1 or not np.all(np.isfinite(arr)):
        raise ValueError(
            f"alphas must be a finite 1-D array of weak-learner weights; got {alphas!r}"
        )
    total = l1_norm_in_order(arr)
    if total <= 0.0:
        raise ValueError("normalized margins need sum |alphas| > 0; all weights are zero")
    return total


def check_n_prime(n_prime: int, n: int) -> int:
    """:math:`n'` of the bottom-:math:`n'` objectives of DirectBoost and DMCBoost as an ``int``:
    an integer (or an integer-valued number, not a bool) in ``1 .. n``, else ``ValueError``."""
    if isinstance(n_prime, bool) or not isinstance(n_prime, numbers.Integral):
        if not (isinstance(n_prime, numbers.Real) and float(n_prime).is_integer()):
            raise ValueError(f"n_prime must be an integer in [1, {n}]; got {n_prime!r}")
    if not 1 <= n_prime <= n:
        raise ValueError(f"n_prime must be an integer in [1, {n}]; got {n_prime!r}")
    return int(n_prime)


def _check_n_bottom(n_bottom: int, n: int) -> int:
    if isinstance(n_bottom, bool) or not isinstance(n_bottom, (int, np.integer)):
        raise TypeError(f"n_bottom must be an integer; got {n_bottom!r}")
    if not 1 <= n_bottom <= n:
        raise ValueError(
            f"n_bottom must be between 1 and the number of margins ({n}); got {n_bottom}"
        )
    return int(n_bottom)


def binary_margins(y: ArrayLike, scores: ArrayLike) -> FloatArray:
    r"""Unnormalized binary margins :math:`y_i F(x_i)`.

    Parameters
    ----------
    y : array_like, shape (n,)
        Labels in ``{-1, +1}``.
    scores : array_like, shape (n,)
        Real-valued, finite scores :math:`F(x_i)` of the combined classifier (for example the
        output of ``decision_function``).

    Returns
    -------
    ndarray, shape (n,)
        The margins :math:`y_i F(x_i)`; positive where the example is classified correctly, 0
        on the decision boundary.

    Raises
    ------
    ValueError
        If the shapes differ, an entry is not finite or a label is not -1 or +1.

    Notes
    -----
    For :math:`F(x) = \sum_t \alpha_t h_t(x)` this is the margin :math:`y_i H_i w` of Shen & Li
    (2010a) (the negative of their :math:`z_i`, eq. (11)) and Guo & Chen's unnormalized
    margin :math:`\tilde\rho_i = y_i H_i w` (their Sec. 3, below eq. (4)).  It depends on
    the scale of the weights; divide by
    :math:`\sum_t |\alpha_t|` for a scale-free margin (:func:`normalized_margins`).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript,
    Nanjing University of Aeronautics and Astronautics.

    Examples
    --------
    >>> from marginboost.margins import binary_margins
    >>> binary_margins([1, -1, 1, 1], [0.5, 0.25, -1.0, 2.0])
    array([ 0.5 , -0.25, -1.  ,  2.  ])
    """
    f = _finite_vector(scores, "scores")
    return _signed_labels(y, f.shape[0]) * f


def normalized_margins(y: ArrayLike, scores: ArrayLike, alphas: ArrayLike | float) -> FloatArray:
    r"""Normalized margins :math:`y_i F(x_i) / \sum_t |\alpha_t|` (Shen & Li 2010a, eq. (34)).

    Parameters
    ----------
    y : array_like, shape (n,)
        Labels in ``{-1, +1}``.
    scores : array_like, shape (n,)
        Scores :math:`F(x_i) = \sum_t \alpha_t h_t(x_i)`.
    alphas : array_like or float
        The weak-learner weights :math:`\alpha_t` (a 1-D array), or directly the normalizer
        :math:`\sum_t |\alpha_t|` as a positive scalar.

    Returns
    -------
    ndarray, shape (n,)
        The normalized margins.  For base hypotheses with values in :math:`[-1, 1]` they lie in
        :math:`[-1, 1]`.

    Raises
    ------
    ValueError
        If all weights are zero or an input is malformed (see :func:`binary_margins`).

    Notes
    -----
    The normalized margin is invariant to rescaling the weights, which is why the papers
    compare margin distributions with it: Shen & Li (2010a), eq. (34) and Fig. 4, Guo & Chen,
    :math:`\rho_i = y_i H_i w / \|w\|_1` (their Sec. 3), and Zhai et al. (2013), eq. (6).
    The :math:`\ell_1` norm is the one of Schapire et al. (1998).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript,
    Nanjing University of Aeronautics and Astronautics.

    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. Advances in Neural Information Processing Systems 26,
    872-880.

    Schapire, R. E., Freund, Y., Bartlett, P. and Lee, W. S. (1998). Boosting the margin: a
    new explanation for the effectiveness of voting methods. The Annals of Statistics
    26(5), 1651-1686.

    Examples
    --------
    >>> from marginboost.margins import normalized_margins
    >>> normalized_margins([1, -1, 1, 1], [0.5, 0.25, -1.0, 2.0], alphas=[1.5, -0.5])
    array([ 0.25 , -0.125, -0.5  ,  1.   ])
    >>> normalized_margins([1, -1], [0.5, 0.25], alphas=2.0)
    array([ 0.25 , -0.125])
    """
    return binary_margins(y, scores) / _l1_normalizer(alphas)


def multiclass_margins(
    scores: ArrayLike, y: ArrayLike, alphas: ArrayLike | float | None = None
) -> FloatArray:
    r"""Multi-class margins :math:`f_{y_i}(x_i) - \max_{k \ne y_i} f_k(x_i)` (Zhai et al. 2014, eq. (4)).

    Parameters
    ----------
    scores : array_like, shape (n, K), K >= 2
        Class scores :math:`f_k(x_i)`, for example the summed votes
        :math:`\sum_t \alpha_t \mathbf{1}[h_t(x_i) = k]`.
    y : array_like of int, shape (n,)
        Class indices in ``0 .. K-1``.
    alphas : array_like or float, optional
        Weak-learner weights; when given, the margins are divided by :math:`\sum_t |\alpha_t|`
        (or by ``alphas`` itself when it is a positive scalar).  Default: unnormalized.

    Returns
    -------
    ndarray, shape (n,)
        One margin per example; positive exactly where the true class has the strictly largest
        score.

    Raises
    ------
    ValueError
        If the shapes do not match, a score is not finite or a label is out of range.

    Notes
    -----
    Zhai, Xia & Wang (2014), eq. (4):

    .. math:: \mathcal{M}_i = \frac{f(x_i, y_i) - \max_{y \ne y_i} f(x_i, y)}{\sum_k |\alpha_k|}.

    For :math:`K = 2` with scores :math:`(-F/2, F/2)` it reduces to the binary margin
    :math:`y_i F(x_i)`.  DMCBoost maximizes the average of the :math:`n'` smallest of these
    margins (their eq. (5)); see :func:`bottom_margin_average`.

    References
    ----------
    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining, 273-282.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.margins import multiclass_margins
    >>> scores = np.array([[2.0, 1.0, 0.0], [0.5, 1.5, 1.0], [1.0, 1.0, 3.0]])
    >>> multiclass_margins(scores, np.array([0, 2, 1]))
    array([ 1. , -0.5, -2. ])
    >>> multiclass_margins(scores, np.array([0, 2, 1]), alphas=[1.0, 1.0])
    array([ 0.5 , -0.25, -1.  ])
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
    if labels.size and (
        not np.issubdtype(labels.dtype, np.integer)
        or labels.min() < 0
        or labels.max() >= f.shape[1]
    ):
        raise ValueError(
            f"y must hold integer class indices in 0..{f.shape[1] - 1}; "
            f"got values {np.unique(labels)[:5]}"
        )
    rows = np.arange(f.shape[0])
    own = f[rows, labels]
    others = f.copy()
    others[rows, labels] = -np.inf
    margins = own - others.max(axis=1)
    if alphas is not None:
        margins = margins / _l1_normalizer(alphas)
    return margins


def bottom_margin_indices(margins: ArrayLike, n_bottom: int) -> NDArray[np.intp]:
    r"""Indices of the ``n_bottom`` smallest margins (the set :math:`B_{n'}`), smallest first.

    Parameters
    ----------
    margins : array_like, shape (n,)
        Finite margins.
    n_bottom : int
        :math:`n'`, an integer in ``1 .. n``.

    Returns
    -------
    ndarray of intp, shape (n_bottom,)
        Indices into ``margins``, ordered by increasing margin.  Ties are broken by the
        original order (a stable sort), so the result is deterministic.

    Raises
    ------
    ValueError
        If ``n_bottom`` is not in ``1 .. n`` or a margin is not finite.

    Notes
    -----
    :math:`B_{n'}(w)` is the set of the :math:`n'` examples with the smallest margins, over
    which DirectBoost (Zhai et al. 2013, Sec. 2.2) and DMCBoost (Zhai et al. 2014, eq. (5))
    average; when margins tie at the :math:`n'`-th place the set is not unique, but the
    average :func:`bottom_margin_average` is.

    References
    ----------
    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. Advances in Neural Information Processing Systems 26,
    872-880.

    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining, 273-282.

    Examples
    --------
    >>> from marginboost.margins import bottom_margin_indices
    >>> bottom_margin_indices([0.3, -0.1, 0.5, 0.2, -0.1], 3)
    array([1, 4, 3])
    """
    m = _finite_vector(margins, "margins")
    k = _check_n_bottom(n_bottom, m.shape[0])
    return np.argsort(m, kind="stable")[:k]


def bottom_margin_average(margins: ArrayLike, n_bottom: int) -> float:
    r"""Average of the ``n_bottom`` smallest margins, :math:`g_{avg\,n'} = \frac{1}{n'}\sum_{i \in B_{n'}} m_i`.

    Parameters
    ----------
    margins : array_like, shape (n,)
        Finite margins.
    n_bottom : int
        :math:`n'`, an integer in ``1 .. n``.  ``n_bottom = 1`` gives the minimum margin,
        ``n_bottom = n`` the mean margin.

    Returns
    -------
    float
        The average of the :math:`n'` smallest margins (well defined under ties).

    Raises
    ------
    ValueError
        If ``n_bottom`` is not in ``1 .. n`` or a margin is not finite.

    Notes
    -----
    Soft-margin LPBoost with :math:`D = 1/n'` maximizes this quantity over the normalized
    weights (Shen & Li 2010a, eqs. (21)-(22) and Sec. 3.2, after Shalev-Shwartz & Singer 2010;
    checked numerically by :func:`marginboost.duality.bottom_average_identity`).  DirectBoost
    maximizes it by coordinate ascent (Zhai et al. 2013, Sec. 2.2 and Algorithm 2) and DMCBoost
    for multi-class margins (Zhai et al. 2014, eq. (5)).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Shalev-Shwartz, S. and Singer, Y. (2010). On the equivalence of weak learnability and
    linear separability: new relaxations and efficient boosting algorithms. Machine
    Learning 80(2-3), 141-163.

    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. Advances in Neural Information Processing Systems 26,
    872-880.

    Zhai, S., Xia, T. and Wang, S. (2014). A multi-class boosting method with direct
    optimization. Proceedings of the 20th ACM SIGKDD International Conference on Knowledge
    Discovery and Data Mining, 273-282.

    Examples
    --------
    >>> from marginboost.margins import bottom_margin_average
    >>> m = [0.3, -0.1, 0.5, 0.2, -0.1]
    >>> bottom_margin_average(m, 1), bottom_margin_average(m, 2)
    (-0.1, -0.1)
    >>> round(bottom_margin_average(m, 5), 4)
    0.16
    """
    m = _finite_vector(margins, "margins")
    k = _check_n_bottom(n_bottom, m.shape[0])
    return float(np.mean(np.partition(m, k - 1)[:k]))


def soft_margin(margins: ArrayLike, D: float) -> float:
    r"""The soft margin of LPBoost's primal (21) for fixed margins: :math:`\max_\varrho\
    \varrho - D\sum_i (\varrho - m_i)_+`.

    The weighted average of the :math:`1/D` smallest margins: the :math:`\lfloor 1/D\rfloor`
    smallest with weight :math:`D` each and the next one with the remaining weight
    :math:`1 - \lfloor 1/D\rfloor D`; for an integer :math:`1/D = n'` it is
    :func:`bottom_margin_average` with :math:`n'`.

    Parameters
    ----------
    margins : array_like, shape (n,)
        Finite (normalized) margins.
    D : float
        The cap of LPBoost's dual weights, in :math:`[1/n, 1]` (``nu`` gives
        :math:`D = 1/(\nu n)`).

    Returns
    -------
    float
        The soft margin; ERLPBoost and soft-margin LPBoost maximize it over the combinations.

    Raises
    ------
    ValueError
        If ``D`` is outside :math:`[1/n, 1]` or a margin is not finite.

    Notes
    -----
    Shen & Li (2010a), eq. (21): for fixed hypothesis weights the slack variables are
    :math:`\xi_i = (\varrho - m_i)_+`, and the best :math:`\varrho` is the margin at which
    the :math:`1/D` smallest are reached.  Soft-margin LPBoost maximizes this over the
    combinations; ERLPBoost (Warmuth, Glocer & Vishwanathan 2008) reaches it to within its
    ``tol``.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Warmuth, M. K., Glocer, K. A. and Vishwanathan, S. V. N. (2008). Entropy regularized
    LPBoost. Algorithmic Learning Theory (ALT 2008), LNCS 5254, 256-271.

    Examples
    --------
    >>> from marginboost.margins import soft_margin
    >>> m = [0.3, -0.1, 0.5, 0.2, -0.1]
    >>> round(soft_margin(m, 0.5), 4), round(soft_margin(m, 0.4), 4)
    (-0.1, -0.04)
    """
    m = _finite_vector(margins, "margins")
    D = float(D)
    if not (np.isfinite(D) and 1.0 / m.shape[0] - 1e-12 <= D <= 1.0):
        raise ValueError(f"D must be in [1/n, 1] = [{1.0 / m.shape[0]:.6g}, 1]; got {D!r}")
    ordered = np.sort(m)
    full = min(int(np.floor(1.0 / D + 1e-12)), ordered.size)
    value = D * float(ordered[:full].sum())
    if full < ordered.size:
        value += (1.0 - full * D) * float(ordered[full])
    return value


def margin_order_statistic(margins: ArrayLike, order: int) -> float:
    r"""The ``order``-th smallest margin (1-based; ``order = 1`` is the minimum margin).

    Parameters
    ----------
    margins : array_like, shape (n,)
        Finite margins.
    order : int
        :math:`n'`, an integer in ``1 .. n``.

    Returns
    -------
    float
        The :math:`n'`-th order statistic :math:`m_{(n')}` of the margins.

    Raises
    ------
    ValueError
        If ``order`` is not in ``1 .. n`` or a margin is not finite.

    Notes
    -----
    The objective of DirectBoost's order variant, DirectBoost\ :sub:`order`, which maximizes
    the :math:`n'`-th smallest margin (Zhai et al. 2013, Sec. 2.2).  It is also an optimal
    :math:`\varrho` of soft-margin LPBoost (21) with :math:`D = 1/n'` at its solution (Shen &
    Li 2010a; :attr:`marginboost.duality.BottomAverageResult.nth_smallest_margin`).

    References
    ----------
    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. Advances in Neural Information Processing Systems 26,
    872-880.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.margins import margin_order_statistic
    >>> margin_order_statistic([0.3, -0.1, 0.5, 0.2, -0.1], 3)
    0.2
    """
    m = _finite_vector(margins, "margins")
    k = _check_n_bottom(order, m.shape[0])
    return float(np.partition(m, k - 1)[k - 1])


def cumulative_margin_distribution(
    margins: ArrayLike,
    grid: ArrayLike | None = None,
) -> tuple[FloatArray, FloatArray]:
    r"""Fraction of examples with margin at most ``x``, for every ``x`` of ``grid``.

    Parameters
    ----------
    margins : array_like, shape (n,)
        Finite margins, at least one (normalized margins lie in ``[-1, 1]``).
    grid : array_like, shape (k,), optional
        Points at which the distribution is evaluated; default 201 equally spaced points on
        ``[-1, 1]``, the axis of Mason et al. (2000), Fig. 2 and Shen & Li (2010a), Fig. 4.

    Returns
    -------
    grid : ndarray, shape (k,)
        The evaluation points (the default grid when ``grid`` is None).
    fraction : ndarray, shape (k,)
        ``fraction[j] = #{i : margins[i] <= grid[j]} / n``, non-decreasing in ``grid``.

    Raises
    ------
    ValueError
        If there are no margins or an entry is not finite.

    Notes
    -----
    This is the empirical distribution function :math:`\hat P(m \le x)` of the margins, the
    "cumulative margin distribution" plotted by Schapire et al. (1998), Mason et al. (2000),
    Fig. 2 and Shen & Li (2010a), Fig. 4.  Its value at :math:`x = 0` is the training error
    (ties counted as errors).

    References
    ----------
    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. Advances in Neural Information Processing Systems 12, 512-518.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Schapire, R. E., Freund, Y., Bartlett, P. and Lee, W. S. (1998). Boosting the margin: a
    new explanation for the effectiveness of voting methods. The Annals of Statistics
    26(5), 1651-1686.

    Examples
    --------
    >>> from marginboost.margins import cumulative_margin_distribution
    >>> grid, fraction = cumulative_margin_distribution([0.3, -0.1, 0.5, 0.2, -0.1],
    ...                                                 grid=[-0.5, 0.0, 0.25, 1.0])
    >>> fraction
    array([0. , 0.4, 0.6, 1. ])
    >>> grid, fraction = cumulative_margin_distribution([0.3, -0.1, 0.5, 0.2, -0.1])
    >>> grid.shape, float(fraction[100])
    ((201,), 0.4)
    """
    m = np.sort(_finite_vector(margins, "margins"))
    if m.size == 0:
        raise ValueError("cumulative_margin_distribution needs at least one margin")
    x = np.linspace(-1.0, 1.0, 201) if grid is None else _finite_vector(grid, "grid")
    return x, np.searchsorted(m, x, side="right") / m.size


def margin_mean_variance(margins: ArrayLike) -> tuple[float, float]:
    r"""Mean :math:`\bar\varrho` and population variance :math:`\sigma^2` of the margins.

    Parameters
    ----------
    margins : array_like, shape (n,)
        Finite margins, at least one.

    Returns
    -------
    mean : float
        :math:`\bar\varrho = \frac1n \sum_i \varrho_i`.
    variance : float
        :math:`\sigma^2 = \frac1n \sum_i (\varrho_i - \bar\varrho)^2` (divisor :math:`n`).

    Raises
    ------
    ValueError
        If there are no margins or an entry is not finite.

    Notes
    -----
    Shen & Li (2010a), Theorem 3.3 and eq. (39), approximate AdaBoost's objective by
    :math:`-\bar\varrho/T + \sigma^2/(2T^2)` and trade the two moments off in AdaBoost-QP
    (eq. (41)); the variance uses the divisor :math:`n`, as their matrix :math:`A` does.
    Shen & Li's eq. (26) relates the variance of AdaBoost's margins to that of the log
    sample weights.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.margins import margin_mean_variance
    >>> mean, variance = margin_mean_variance([0.1, 0.3, 0.5, 0.7])
    >>> round(mean, 4), round(variance, 4)
    (0.4, 0.05)
    """
    m = _finite_vector(margins, "margins")
    if m.size == 0:
        raise ValueError("margin_mean_variance needs at least one margin")
    mean = float(m.mean())
    variance = float(np.mean((m - mean) ** 2))
    return mean, variance


def margin_bias_variance(margins: ArrayLike, E: float) -> tuple[float, float, float]:
    r"""Guo & Chen's split of the spread of the margins around a target margin :math:`E`.

    Parameters
    ----------
    margins : array_like, shape (n,)
        Finite margins, at least one.
    E : float
        The target margin (any finite real number).

    Returns
    -------
    mean_squared_deviation : float
        :math:`\frac1n\sum_i (\varrho_i - E)^2`.
    variance : float
        :math:`\frac1n\sum_i (\varrho_i - \bar\varrho)^2`, the population variance of
        :func:`margin_mean_variance`.
    squared_bias : float
        :math:`(\bar\varrho - E)^2`.

    Raises
    ------
    ValueError
        If there are no margins, an entry is not finite or ``E`` is not a finite real number.

    Notes
    -----
    Guo & Chen, eqs. (9)-(11): the cross term :math:`2\sum_i(\varrho_i - \bar\varrho)
    (\bar\varrho - E)` vanishes, so

    .. math:: \frac1n\sum_i (\varrho_i - E)^2 = \frac1n\sum_i (\varrho_i - \bar\varrho)^2
              + (\bar\varrho - E)^2.

    MCBoost minimizes :math:`n` times the first term (its objectives (8) and (12)), that is a
    small variance together with an average margin close to :math:`E`.

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript,
    Nanjing University of Aeronautics and Astronautics.

    Examples
    --------
    >>> from marginboost.margins import margin_bias_variance
    >>> msd, variance, bias2 = margin_bias_variance([0.1, 0.3, 0.5, 0.7], E=0.5)
    >>> round(msd, 4), round(variance, 4), round(bias2, 4)
    (0.06, 0.05, 0.01)
    >>> abs(msd - (variance + bias2)) < 1e-12
    True
    """
    m = _finite_vector(margins, "margins")
    if m.size == 0:
        raise ValueError("margin_bias_variance needs at least one margin")
    if isinstance(E, bool) or not isinstance(E, numbers.Real) or not np.isfinite(E):
        raise ValueError(f"the target margin E must be a finite real number; got {E!r}")
    mean, variance = margin_mean_variance(m)
    mean_squared_deviation = float(np.mean((m - E) ** 2))
    return mean_squared_deviation, variance, (mean - float(E)) ** 2
