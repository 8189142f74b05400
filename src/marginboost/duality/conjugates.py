r"""Fenchel conjugates: numerical suprema, the log-sum-exp conjugate, and closed-form checks.

The Fenchel (convex) conjugate of :math:`f:\mathbb{R}^n \to \mathbb{R}` is

.. math:: f^*(u) = \sup_x \; u^\top x - f(x),

convex in :math:`u` even when :math:`f` is not (Boyd & Vandenberghe 2004, Sec. 3.3).  Shen &
Li (2010) derive every dual of Table I from one conjugate: the dual function is
:math:`\inf_z L = -f^*(u) + \ldots`, so the conjugate of the primal loss becomes the entropy
regularizer of the dual.

This module computes :math:`f^*` numerically (:func:`numeric_conjugate`,
:func:`numeric_conjugate_vector`) so that every closed form used in the project can be
checked against a direct evaluation of the supremum (:func:`check_conjugate`,
:func:`check_lse_conjugate`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import minimize, minimize_scalar
from scipy.special import logsumexp, softmax, xlogy

from ..losses import MarginCost

__all__ = [
    "log_sum_exp",
    "lse_conjugate",
    "numeric_conjugate",
    "numeric_conjugate_vector",
    "check_conjugate",
    "check_lse_conjugate",
    "SEARCH_RADIUS",
    "SLOPE_TOLERANCE",
]

#: Half-width of the region searched by the numerical conjugates (around ``x0``).
SEARCH_RADIUS = 1e7
#: Secant slopes of the objective at the search radius above this value mean "unbounded".
SLOPE_TOLERANCE = 1e-9


def log_sum_exp(x: ArrayLike) -> Any:
    r"""Numerically stable :math:`\mathrm{lse}(x) = \log \sum_i e^{x_i}` over the last axis.

    Parameters
    ----------
    x : array_like, shape (..., n), n >= 1
        One vector per last axis.

    Returns
    -------
    float or ndarray
        :math:`\log\sum_i e^{x_i}` of each vector (a scalar for a 1-D input).

    Raises
    ------
    ValueError
        If ``x`` is a scalar or its last axis is empty.

    Notes
    -----
    The objective of AdaBoost's primal (5) in Shen & Li (2010a) is
    :math:`\mathrm{lse}(-Aw)`; its conjugate is :func:`lse_conjugate` (Proposition 3.1).
    Computed with :func:`scipy.special.logsumexp` (max-shifted, no overflow).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Boyd, S. and Vandenberghe, L. (2004). Convex Optimization. Cambridge University Press.

    Examples
    --------
    >>> from marginboost.duality import log_sum_exp
    >>> round(float(log_sum_exp([0.0, 0.0])), 4)
    0.6931
    >>> [round(float(v), 4) for v in log_sum_exp([[1.0, 2.0, 3.0], [1000.0, 1000.0, 1000.0]])]
    [3.4076, 1001.0986]
    """
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim == 0 or arr.shape[-1] == 0:
        raise ValueError(f"log_sum_exp needs a non-empty vector; got shape {arr.shape}")
    out = logsumexp(arr, axis=-1)
    return out[()] if np.ndim(out) == 0 else out


def lse_conjugate(u: ArrayLike, *, tolerance: float = 1e-9) -> Any:
    r"""Conjugate of log-sum-exp (Shen & Li, Proposition 3.1; Boyd & Vandenberghe Sec. 3.3).

    .. math:: \mathrm{lse}^*(u) = \begin{cases} \sum_i u_i \log u_i & u \ge 0,\ 1^\top u = 1 \\
              +\infty & \text{otherwise,} \end{cases}

    the negative Shannon entropy restricted to the probability simplex (:math:`0 \log 0 = 0`).

    Parameters
    ----------
    u : array_like
        One vector per last axis.
    tolerance : float
        A vector counts as on the simplex if every entry is ``>= -tolerance`` and
        ``|sum(u) - 1| <= tolerance``; entries in ``[-tolerance, 0)`` are treated as 0.

    Returns
    -------
    float or ndarray
        :math:`\sum_i u_i\log u_i` on the simplex, ``+inf`` off it; one value per vector.

    Raises
    ------
    ValueError
        If ``u`` is a scalar or its last axis is empty.

    Notes
    -----
    Shen & Li (2010a), Proposition 3.1 (also Boyd & Vandenberghe 2004, Sec. 3.3): off the
    simplex the supremum :math:`\sup_x u^\top x - \mathrm{lse}(x)` is unbounded along
    :math:`x = t1` (if :math:`1^\top u \ne 1`) or :math:`x = -te_i` (if :math:`u_i < 0`); on
    it, the supremum is attained at :math:`x = \log u + \text{const}`.  This is why the dual
    (10) of AdaBoost carries the Shannon entropy and the simplex constraint.  Checked
    numerically by :func:`check_lse_conjugate`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Boyd, S. and Vandenberghe, L. (2004). Convex Optimization. Cambridge University Press.

    Examples
    --------
    >>> from marginboost.duality import lse_conjugate
    >>> round(float(lse_conjugate([0.5, 0.5])), 4)   # -log 2
    -0.6931
    >>> float(lse_conjugate([1.0, 0.0])), float(lse_conjugate([0.5, 0.6]))
    (0.0, inf)
    """
    arr = np.asarray(u, dtype=np.float64)
    if arr.ndim == 0 or arr.shape[-1] == 0:
        raise ValueError(f"lse_conjugate needs a non-empty vector; got shape {arr.shape}")
    on_simplex = np.all(arr >= -tolerance, axis=-1) & (np.abs(arr.sum(axis=-1) - 1.0) <= tolerance)
    clipped = np.clip(arr, 0.0, None)
    out = np.where(on_simplex, np.sum(xlogy(clipped, clipped), axis=-1), np.inf)
    return out[()] if np.ndim(out) == 0 else out


# --------------------------------------------------------------------------------------------
# Scalar conjugate
# --------------------------------------------------------------------------------------------


def _evaluate(f: Callable, xs: NDArray[np.float64]) -> NDArray[np.float64]:
    """Evaluate ``f`` at the points ``xs`` (vectorized call if ``f`` supports it)."""
    with np.errstate(all="ignore"):
        try:
            out = np.asarray(f(xs), dtype=np.float64)
            if out.shape != xs.shape:
                raise ValueError
        except (TypeError, ValueError):
            out = np.array([_evaluate_point(f, float(x)) for x in xs], dtype=np.float64)
    return out


def _evaluate_point(f: Callable, x: float) -> float:
    """``f(x)``, with OverflowError read as ``+inf`` and math domain errors as NaN."""
    try:
        return float(f(x))
    except OverflowError:
        return np.inf
    except (ValueError, ZeroDivisionError):
        return np.nan


def _objective_values(f: Callable, u: float, xs: NDArray[np.float64]) -> NDArray[np.float64]:
    with np.errstate(all="ignore"):
        vals = u * xs - _evaluate(f, xs)
    return np.where(np.isnan(vals), -np.inf, vals)


def _unbounded_along(
    values_near: float, values_far: float, distance: float, slope_tolerance: float
) -> bool:
    if values_far == np.inf:
        return True
    if not (np.isfinite(values_near) and np.isfinite(values_far)):
        return False
    return (values_far - values_near) / distance > slope_tolerance


def _parse_bounds(bounds: Sequence[float | None] | None) -> tuple[float, float]:
    if bounds is None:
        return -np.inf, np.inf
    try:
        low, high = bounds
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bounds must be a pair (low, high); got {bounds!r}") from exc
    low = -np.inf if low is None else float(low)
    high = np.inf if high is None else float(high)
    if not low < high:
        raise ValueError(f"bounds must satisfy low < high; got ({low}, {high})")
    return low, high


def _scalar_sup(
    f: Callable,
    u: float,
    low: float,
    high: float,
    center: float,
    radius: float,
    slope_tolerance: float,
) -> float:
    near, far = radius / 10.0, radius
    for sign, bound in ((1.0, high), (-1.0, low)):
        if np.isinf(bound):
            v_near, v_far = _objective_values(
                f, u, np.array([center + sign * near, center + sign * far])
            )
            if _unbounded_along(v_near, v_far, far - near, slope_tolerance):
                return np.inf
    steps = np.geomspace(1e-4, radius, 111)
    grid = np.concatenate([center - steps[::-1], [center], center + steps])
    extra = [b for b in (low, high) if np.isfinite(b)]
    if np.isfinite(low) and np.isfinite(high):
        extra.extend(np.linspace(low, high, 201))
    grid = np.unique(np.clip(np.concatenate([grid, extra]), low, high))
    values = _objective_values(f, u, grid)
    k = int(np.argmax(values))
    best = float(values[k])
    if best == np.inf:
        return np.inf
    a, b = grid[max(k - 1, 0)], grid[min(k + 1, grid.size - 1)]
    if b > a and np.isfinite(best):
        scale = max(1.0, abs(grid[k]))
        res = minimize_scalar(
            lambda x: -float(_objective_values(f, u, np.array([x]))[0]),
            bounds=(a, b),
            method="bounded",
            options={"xatol": 1e-13 * scale, "maxiter": 500},
        )
        if np.isfinite(res.fun):
            best = max(best, -float(res.fun))
    return best


def numeric_conjugate(
    f: Callable[[Any], Any],
    u: ArrayLike,
    *,
    bounds: Sequence[float | None] | None = None,
    x0: float | None = None,
    search_radius: float = SEARCH_RADIUS,
    slope_tolerance: float = SLOPE_TOLERANCE,
) -> Any:
    r"""Numerical conjugate :math:`f^*(u) = \sup_x u x - f(x)` of a scalar function, elementwise in ``u``.

    Parameters
    ----------
    f : callable
        :math:`f: \mathbb{R} \to \mathbb{R}` (vectorized or not).  Points where ``f`` returns
        NaN (or, called on a single float, raises ``ValueError``/``ZeroDivisionError``) count
        as outside its domain (objective :math:`-\infty`); an ``OverflowError`` counts as
        :math:`f = +\infty`.
    u : array_like
        Points at which to evaluate the conjugate; the result has the same shape.
    bounds : (low, high), optional
        Restrict the supremum to ``low <= x <= high`` (``None`` or ``inf`` for no bound).
    x0 : float, optional
        Centre of the search (default 0, clipped into ``bounds``).
    search_radius, slope_tolerance : float
        Parameters of the unboundedness rule below.

    Returns
    -------
    float or ndarray
        The supremum, or ``+inf`` where it is declared unbounded.

    Notes
    -----
    Rule for ``+inf``: along each unbounded direction, the objective
    :math:`\varphi(x) = u x - f(x)` is evaluated at distances :math:`R/10` and :math:`R` from
    ``x0`` (``R = search_radius``); if :math:`\varphi(x_0 \pm R) = +\infty` or the secant slope
    between the two points exceeds ``slope_tolerance``, the supremum is ``+inf``.  For convex
    :math:`f` this tests the asymptotic slope of the concave :math:`\varphi`, i.e. whether
    :math:`u` lies outside :math:`[\lim_{x\to-\infty} f'(x), \lim_{x\to\infty} f'(x)]`;
    points closer to the domain boundary than ``slope_tolerance`` are ambiguous.

    Otherwise :math:`\varphi` is evaluated on a geometric grid around ``x0`` reaching
    :math:`\pm R` (plus a uniform grid when both bounds are finite) and the best grid cell is
    refined with bounded Brent minimization.  The returned value is the largest objective
    value found, hence a lower bound of the true supremum (exact up to the refinement
    tolerance for concave :math:`\varphi`); suprema approached only as
    :math:`|x| \to \infty` are resolved to within :math:`\varphi(\pm R)`.

    References
    ----------
    Boyd, S. and Vandenberghe, L. (2004). Convex Optimization. Cambridge University Press.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import numeric_conjugate
    >>> np.round(numeric_conjugate(lambda x: 0.5 * x**2, [0.0, 1.0, 2.0]), 6).tolist()
    [0.0, 0.5, 2.0]
    >>> np.round(numeric_conjugate(np.exp, [-1.0, 1.0, 2.0]), 6).tolist()   # u log u - u
    [inf, -1.0, -0.613706]
    """
    if not callable(f):
        raise TypeError(f"f must be callable; got {f!r}")
    u_arr = np.asarray(u, dtype=np.float64)
    if not np.all(np.isfinite(u_arr)):
        raise ValueError(f"u must be finite; got {u_arr[~np.isfinite(u_arr)].ravel()[:3].tolist()}")
    if not (search_radius > 1.0 and slope_tolerance >= 0.0):
        raise ValueError(
            f"need search_radius > 1 and slope_tolerance >= 0; got "
            f"{search_radius!r}, {slope_tolerance!r}"
        )
    low, high = _parse_bounds(bounds)
    center = float(np.clip(0.0 if x0 is None else float(x0), low, high))
    out = np.array(
        [
            _scalar_sup(f, float(v), low, high, center, search_radius, slope_tolerance)
            for v in u_arr.ravel()
        ],
        dtype=np.float64,
    ).reshape(u_arr.shape)
    return out[()] if out.ndim == 0 else out


# --------------------------------------------------------------------------------------------
# Vector conjugate
# --------------------------------------------------------------------------------------------


def _probe_directions(n: int) -> NDArray[np.float64]:
    eye = np.eye(n)
    ones = np.full((1, n), 1.0 / np.sqrt(n))
    return np.concatenate([eye, -eye, ones, -ones])


def _vector_sup(
    f: Callable,
    gradient: Callable | None,
    u: NDArray[np.float64],
    x0: NDArray[np.float64],
    bounds: list[tuple[float, float]] | None,
    radius: float,
    slope_tolerance: float,
) -> float:
    def phi(x: NDArray[np.float64]) -> float:
        with np.errstate(all="ignore"):
            value = float(u @ x - float(f(x)))
        return -np.inf if np.isnan(value) else value

    lows = np.array([b[0] for b in bounds]) if bounds else np.full(u.size, -np.inf)
    highs = np.array([b[1] for b in bounds]) if bounds else np.full(u.size, np.inf)
    best = phi(x0)
    near, far = radius / 10.0, radius
    for d in _probe_directions(u.size):
        moving = d != 0.0
        if np.any(np.isfinite(np.where(d > 0, highs, lows))[moving]):
            continue  # this ray leaves the feasible box
        v_near, v_far = phi(x0 + near * d), phi(x0 + far * d)
        if _unbounded_along(v_near, v_far, far - near, slope_tolerance):
            return np.inf
        best = max(best, v_near, v_far)

    def negative(x: NDArray[np.float64]) -> float:
        value = phi(x)
        return np.inf if value == -np.inf else -value

    jac = None
    if gradient is not None:

        def jac(x: NDArray[np.float64]) -> NDArray[np.float64]:
            return np.asarray(gradient(x), dtype=np.float64) - u

    if bounds:
        res = minimize(
            negative,
            x0,
            jac=jac,
            method="L-BFGS-B",
            bounds=bounds,
            options={"ftol": 1e-15, "gtol": 1e-11, "maxiter": 5000},
        )
    else:
        res = minimize(
            negative, x0, jac=jac, method="BFGS", options={"gtol": 1e-10, "maxiter": 5000}
        )
    if np.isfinite(res.fun):
        best = max(best, -float(res.fun))
    return best


def numeric_conjugate_vector(
    f: Callable[[NDArray[np.float64]], float],
    u: ArrayLike,
    *,
    bounds: Sequence[tuple[float | None, float | None]] | None = None,
    x0: ArrayLike | None = None,
    gradient: Callable[[NDArray[np.float64]], ArrayLike] | None = None,
    search_radius: float = SEARCH_RADIUS,
    slope_tolerance: float = SLOPE_TOLERANCE,
) -> Any:
    r"""Numerical conjugate :math:`f^*(u) = \sup_x u^\top x - f(x)` of :math:`f: \mathbb{R}^n \to \mathbb{R}`.

    Parameters
    ----------
    f : callable
        Takes a vector of length ``n`` and returns a float.
    u : array_like, shape (n,) or (k, n)
        One point, or ``k`` points (rows).
    bounds : sequence of (low, high), optional
        Box constraints on ``x`` (``None`` for no bound), as in :func:`scipy.optimize.minimize`.
    x0 : array_like, optional
        Starting point (default zeros).
    gradient : callable, optional
        Gradient of ``f``; without it, finite differences are used.
    search_radius, slope_tolerance : float
        Parameters of the unboundedness rule.

    Returns
    -------
    float or ndarray
        One value per point; ``+inf`` where declared unbounded.

    Notes
    -----
    Rule for ``+inf``: along each probe direction :math:`d \in \{\pm e_i, \pm 1/\sqrt{n}\}`
    whose ray stays inside ``bounds``, the objective is evaluated at :math:`x_0 + t d` for
    :math:`t = R/10` and :math:`t = R` (``R = search_radius``); a secant slope above
    ``slope_tolerance`` (or a value ``+inf``) declares the supremum unbounded.  These rays are
    exactly the recession directions that certify :math:`\mathrm{lse}^*(u) = +\infty` off the
    simplex (Proposition 3.1); for other functions an unbounded direction outside this set can
    go undetected, and the result is then a finite lower bound.  Otherwise BFGS (L-BFGS-B with
    bounds) maximizes the objective from ``x0``; the largest value seen is returned.

    References
    ----------
    Boyd, S. and Vandenberghe, L. (2004). Convex Optimization. Cambridge University Press.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import log_sum_exp, numeric_conjugate_vector
    >>> round(numeric_conjugate_vector(log_sum_exp, [0.25, 0.75]), 6)
    -0.562335
    >>> np.round(numeric_conjugate_vector(log_sum_exp, [[0.25, 0.75], [0.5, 0.6]]), 6).tolist()
    [-0.562335, inf]
    """
    if not callable(f):
        raise TypeError(f"f must be callable; got {f!r}")
    u_arr = np.asarray(u, dtype=np.float64)
    if u_arr.ndim not in (1, 2) or u_arr.shape[-1] == 0:
        raise ValueError(f"u must have shape (n,) or (k, n) with n >= 1; got shape {u_arr.shape}")
    if not np.all(np.isfinite(u_arr)):
        raise ValueError("u must be finite")
    n = u_arr.shape[-1]
    start = np.zeros(n) if x0 is None else np.asarray(x0, dtype=np.float64)
    if start.shape != (n,):
        raise ValueError(f"x0 must have shape ({n},) to match u; got {start.shape}")
    box = None
    if bounds is not None:
        if len(bounds) != n:
            raise ValueError(
                f"bounds must have one (low, high) pair per coordinate ({n}); got {len(bounds)}"
            )
        box = [_parse_bounds(b) for b in bounds]
        start = np.clip(start, [b[0] for b in box], [b[1] for b in box])
    rows = np.atleast_2d(u_arr)
    out = np.array(
        [_vector_sup(f, gradient, row, start, box, search_radius, slope_tolerance) for row in rows]
    )
    return float(out[0]) if u_arr.ndim == 1 else out


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------


def _max_abs_difference(numeric: NDArray[np.float64], closed: NDArray[np.float64]) -> float:
    numeric, closed = np.asarray(numeric, dtype=float), np.asarray(closed, dtype=float)
    if np.any(np.isinf(numeric) != np.isinf(closed)) or np.any(
        np.isnan(numeric) | np.isnan(closed)
    ):
        return float("inf")
    finite = np.isfinite(numeric)
    if np.any(np.sign(numeric[~finite]) != np.sign(closed[~finite])):
        return float("inf")
    diff = np.abs(numeric[finite] - closed[finite])
    return float(diff.max()) if diff.size else 0.0


def check_conjugate(loss: MarginCost, us: ArrayLike, **options: Any) -> float:
    r"""Largest absolute difference between a loss's closed-form and numerical conjugate.

    Both are taken in the negative-margin convention of :mod:`marginboost.losses`:
    :math:`\sup_z u z - c(-z)`.  Points where both are ``+inf`` agree; a point where only one
    is infinite makes the result ``inf``.

    Parameters
    ----------
    loss : MarginCost
        A cost with a closed-form :meth:`~marginboost.losses.MarginCost.conjugate`.
    us : array_like
        Points at which to compare.
    **options
        Passed to :func:`numeric_conjugate` (``search_radius``, ``slope_tolerance``, ...).

    Returns
    -------
    float
        :math:`\max |\text{numerical} - \text{closed form}|` over the finite points, 0 when
        all points are ``+inf`` on both sides, ``inf`` when the two disagree on finiteness.

    Raises
    ------
    TypeError
        If ``loss`` is not a :class:`~marginboost.losses.MarginCost`.

    Notes
    -----
    The closed forms are those of Shen & Li (2010a), Sec. 3 and Table I: the conjugate of a
    margin cost is the regularizer of the corresponding Lagrange dual (Shannon entropy for
    the exponential loss, binary entropy for the logistic loss, the box :math:`[0, 1]` for
    the hinge loss, :math:`u^2/4 - u` for the squared hinge, a Tsallis term for the
    generalized hinge).  This function checks each against a direct numerical supremum
    (:func:`numeric_conjugate`).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Boyd, S. and Vandenberghe, L. (2004). Convex Optimization. Cambridge University Press.

    Examples
    --------
    >>> from marginboost.duality import check_conjugate
    >>> from marginboost.losses import LogisticLoss
    >>> check_conjugate(LogisticLoss(), [-0.5, 0.1, 0.5, 0.9, 1.5]) < 1e-8
    True
    """
    if not isinstance(loss, MarginCost):
        raise TypeError(
            f"loss must be a MarginCost (see marginboost.losses.get_loss); got {loss!r}"
        )
    us_arr = np.asarray(us, dtype=np.float64)
    closed = np.asarray(loss.conjugate(us_arr), dtype=np.float64)
    numeric = np.asarray(numeric_conjugate(loss.negative_margin_form, us_arr, **options))
    return _max_abs_difference(numeric, closed)


def check_lse_conjugate(us: ArrayLike, **options: Any) -> float:
    r"""Largest absolute gap in Proposition 3.1 of Shen & Li over the rows of ``us``.

    For each row :math:`u`, compares :math:`\sup_x u^\top x - \mathrm{lse}(x)` computed by
    :func:`numeric_conjugate_vector` (with the exact gradient, softmax) with
    :func:`lse_conjugate`; rows off the simplex must give ``+inf`` on both sides.

    Parameters
    ----------
    us : array_like, shape (n,) or (k, n)
        Points :math:`u`, one per row.
    **options
        ``tolerance`` goes to :func:`lse_conjugate`, the others (``search_radius``,
        ``slope_tolerance``, ``x0``, ``bounds``) to :func:`numeric_conjugate_vector`.

    Returns
    -------
    float
        The largest absolute difference over the rows; ``inf`` if a row is finite on one side
        and infinite on the other.

    Notes
    -----
    Shen & Li (2010a), Proposition 3.1: :math:`\mathrm{lse}^*(u) = \sum_i u_i\log u_i` on
    the probability simplex and :math:`+\infty` elsewhere.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Boyd, S. and Vandenberghe, L. (2004). Convex Optimization. Cambridge University Press.

    Examples
    --------
    >>> from marginboost.duality import check_lse_conjugate
    >>> check_lse_conjugate([[0.2, 0.3, 0.5], [0.5, 0.6, 0.1]]) < 1e-8
    True
    """
    rows = np.atleast_2d(np.asarray(us, dtype=np.float64))
    closed = np.asarray(
        lse_conjugate(rows, **{k: v for k, v in options.items() if k == "tolerance"})
    )
    numeric_options = {k: v for k, v in options.items() if k != "tolerance"}
    numeric = numeric_conjugate_vector(log_sum_exp, rows, gradient=softmax, **numeric_options)
    return _max_abs_difference(numeric, closed)
