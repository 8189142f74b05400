r"""The smooth solver of the totally-corrective masters: FISTA over the scaled simplex.

:func:`solve_simplex_smooth` minimises a smooth convex function over
:math:`\{w \ge 0, \mathbf 1^\top w = 1/T\}` by a projected accelerated gradient method (FISTA
with function restarts and backtracking, :func:`project_scaled_simplex` the projection),
polished by active-set Newton steps on the support (:func:`_newton_polish`) and stopped by the
Frank-Wolfe duality gap.  The entropy-regularised and the quadratic masters
(:mod:`~marginboost.boosting._master_entropy`, :mod:`~marginboost.boosting._master_quadratic`)
are solved with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

import numpy as np
from numpy.typing import NDArray

from ._master_solution import MasterSolverError

__all__ = ["project_scaled_simplex", "solve_simplex_smooth"]

FloatArray = NDArray[np.float64]
_P = ParamSpec("_P")
_R = TypeVar("_R")


def project_scaled_simplex(v: FloatArray, scale: float) -> FloatArray:
    r"""Euclidean projection of ``v`` onto :math:`\{w \ge 0, \mathbf 1^\top w = s\}`."""
    v = np.asarray(v, dtype=np.float64)
    descending = np.sort(v)[::-1]
    cumulative = np.cumsum(descending) - scale
    index = np.arange(1, v.size + 1)
    kept = np.flatnonzero(descending - cumulative / index > 0)
    if kept.size == 0:
        # the largest entry always qualifies (its test reads scale > 0) unless rounding fails
        # it, for entries beyond about scale / eps: the projection is then its vertex
        vertex = np.zeros_like(v)
        vertex[int(np.argmax(v))] = scale
        return vertex
    rho = kept[-1]
    shift = cumulative[rho] / (rho + 1.0)
    projected: FloatArray = np.maximum(v - shift, 0.0)
    return projected


def _single_blas_thread(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``function`` with BLAS limited to one thread (see :func:`solve_simplex_smooth`),
    through the estimators' shared limit (:func:`~._blas_threads.one_blas_thread`: a cached
    controller, microseconds a call; a new ``threadpool_limits`` costs about a millisecond,
    once per master solve)."""
    import functools

    from ._blas_threads import one_blas_thread

    @functools.wraps(function)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with one_blas_thread():
            return function(*args, **kwargs)

    return wrapper


@_single_blas_thread
def solve_simplex_smooth(
    value_grad: Callable[[FloatArray], tuple[float, FloatArray]],
    n: int,
    scale: float,
    w0: FloatArray | None = None,
    *,
    rtol: float = 1e-10,
    stall_rtol: float = 1e-6,
    max_iter: int = 50_000,
    hessian: Callable[[FloatArray, NDArray[np.intp]], FloatArray] | None = None,
) -> tuple[FloatArray, float, float, int, bool]:
    r"""Minimise a smooth convex function over :math:`\{w \ge 0, \mathbf 1^\top w = s\}`.

    FISTA (Beck & Teboulle 2009) with backtracking on the Lipschitz constant and a function-
    value restart (O'Donoghue & Candès 2015), warm-started from ``w0``.  Stops when the
    Frank-Wolfe gap :math:`g^\top w - s\min_j g_j` (an upper bound on
    :math:`f(w) - \min f`) is at most ``rtol * max(1, |f(w)|)``.  The gap bound is pessimistic:
    when the objective stops decreasing (no decrease above rounding in 100 iterations, or a
    plain projected gradient step fails to descend) the point is accepted if the gap is at most
    ``stall_rtol * max(1, |f(w)|, s)``.  The last term matters for large ``s``: near the
    optimum the gap is about ``s`` times the spread of the gradient over the support, while the
    objective only changes by the square of it, so rounding in ``f`` stops the descent at a gap
    of order :math:`s\sqrt{\varepsilon L |f|}`.  For the boosting masters the gap divided by
    ``s`` is the excess of the best column's edge over the weight-averaged edge, the quantity
    column generation compares with its absolute threshold (``1e-5``); ``stall_rtol = 1e-6``
    keeps it a tenth of that.

    With ``hessian(w, S)`` (the Hessian block on the columns ``S``) the iterate is polished by
    Newton steps on its support (an active-set method, :func:`_newton_polish`) at the first
    iteration -- from a warm start that is often all it takes -- and then, at most every 20
    iterations, whenever the gap is below ``1e-3 * max(1, |f|)`` or has halved since the last
    polish; FISTA resumes from the polished point if the gap is still too large.

    The matrices of restricted masters are small, so BLAS runs single-threaded here: with
    several threads (and other processes on the cores) the many small products were up to
    10 times slower.

    Returns
    -------
    w, value, gap, iterations, stalled
        ``stalled`` is True when the point was accepted by the stall rule above (its gap is
        then within ``stall_rtol * max(1, |f(w)|, s)`` but may exceed ``rtol * max(1, |f(w)|)``).

    Raises
    ------
    MasterSolverError
        If the gap is not reached within ``max_iter`` iterations or the values stop being finite.
    """
    if w0 is None or np.asarray(w0).size != n:
        w = np.full(n, scale / n)
    else:
        w = project_scaled_simplex(np.asarray(w0, dtype=np.float64), scale)
    f_w, g_w = value_grad(w)
    lipschitz = 1.0
    y, f_y, g_y = w, f_w, g_w
    momentum = 1.0
    gap = np.inf
    reference, last_progress = f_w, 0
    last_polish = -np.inf
    polished_gap = np.inf  # gap right after the last Newton polish
    for iteration in range(1, max_iter + 1):
        gap = float(g_w @ w - scale * g_w.min())
        if not np.isfinite(gap) or not np.isfinite(f_w):
            raise MasterSolverError(
                f"non-finite objective or gradient after {iteration} iterations"
            )
        if gap <= rtol * max(1.0, abs(f_w)):
            return w, f_w, gap, iteration, False
        if hessian is not None and (
            iteration == 1
            or (
                iteration - last_polish >= 20
                and (gap <= 1e-3 * max(1.0, abs(f_w)) or gap <= 0.5 * polished_gap)
            )
        ):
            last_polish = iteration
            w, f_w, g_w = _newton_polish(
                value_grad, hessian, w, f_w, g_w, scale, rtol * max(1.0, abs(f_w))
            )
            y, f_y, g_y, momentum = w, f_w, g_w, 1.0
            gap = polished_gap = float(g_w @ w - scale * g_w.min())
            if gap <= rtol * max(1.0, abs(f_w)):
                return w, f_w, gap, iteration, False
        if f_w < reference - 1e-15 * max(1.0, abs(reference)):
            reference, last_progress = f_w, iteration
        elif iteration - last_progress >= 100:
            if gap <= stall_rtol * max(1.0, abs(f_w), scale):
                return w, f_w, gap, iteration, True
            raise MasterSolverError(
                f"FISTA stalled at iteration {iteration} with duality gap {gap:.3g}"
            )
        while True:
            z = project_scaled_simplex(y - g_y / lipschitz, scale)
            f_z, g_z = value_grad(z)
            step = z - y
            bound = f_y + g_y @ step + 0.5 * lipschitz * (step @ step)
            if f_z <= bound + 1e-14 * max(1.0, abs(f_y)) or lipschitz > 1e16:
                break
            lipschitz *= 2.0
        if f_z > f_w:  # restart: no momentum, retry from the best point
            if y is w:  # even a plain projected gradient step does not descend
                if gap <= stall_rtol * max(1.0, abs(f_w), scale):
                    return w, f_w, gap, iteration, True  # stalled at rounding level
                if hessian is not None and last_polish < iteration:
                    # rounding limits the first-order steps; Newton steps may still descend
                    last_polish = iteration
                    w, f_w, g_w = _newton_polish(
                        value_grad, hessian, w, f_w, g_w, scale, rtol * max(1.0, abs(f_w))
                    )
                    gap = float(g_w @ w - scale * g_w.min())
                    if gap <= stall_rtol * max(1.0, abs(f_w), scale):
                        return w, f_w, gap, iteration, True
                    y, f_y, g_y, momentum = w, f_w, g_w, 1.0
                    continue
                raise MasterSolverError(
                    f"projected gradient step failed to descend at "
                    f"iteration {iteration} (gap {gap:.3g})"
                )
            momentum = 1.0
            y, f_y, g_y = w, f_w, g_w
            continue
        next_momentum = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * momentum**2))
        y = z + ((momentum - 1.0) / next_momentum) * (z - w)
        f_y, g_y = value_grad(y)
        w, f_w, g_w = z, f_z, g_z
        momentum = next_momentum
        lipschitz *= 0.9
    raise MasterSolverError(
        f"FISTA did not reach the duality gap {rtol:g} in {max_iter} iterations (gap {gap:.3g})"
    )


def _newton_polish(
    value_grad: Callable[[FloatArray], tuple[float, FloatArray]],
    hessian: Callable[[FloatArray, NDArray[np.intp]], FloatArray],
    w: FloatArray,
    f: float,
    g: FloatArray,
    scale: float,
    target: float,
    max_steps: int = 30,
) -> tuple[FloatArray, float, FloatArray]:
    r"""Active-set Newton steps on the support of ``w`` (plus the column of smallest gradient).

    Each step solves the equality-constrained Newton system on the support
    (:math:`\mathbf 1^\top d = 0`), cuts the step where a weight reaches 0 (the column leaves
    the support) and backtracks (Armijo).  Returns an iterate no worse than the input.
    """
    for _ in range(max_steps):
        gap = float(g @ w - scale * g.min())
        if gap <= target:
            break
        support = w > 0
        support[int(np.argmin(g))] = True
        S = np.flatnonzero(support)
        k = S.size
        system = np.zeros((k + 1, k + 1))
        block = hessian(w, S)
        system[:k, :k] = block + 1e-12 * (np.trace(block) / k + 1e-300) * np.eye(k)
        system[:k, k] = 1.0
        system[k, :k] = 1.0
        rhs = np.append(-g[S], 0.0)
        try:
            direction = np.linalg.solve(system, rhs)[:k]
        except np.linalg.LinAlgError:  # singular (e.g. duplicate columns): least squares
            direction = np.linalg.lstsq(system, rhs, rcond=None)[0][:k]
        if not np.isfinite(direction).all():
            break
        slope = float(g[S] @ direction)
        if not slope < 0:
            break
        shrinking = direction < 0
        alpha = (
            min(1.0, float(np.min(w[S][shrinking] / -direction[shrinking])))
            if shrinking.any()
            else 1.0
        )
        while alpha > 1e-12:
            trial = w.copy()
            trial[S] = np.maximum(w[S] + alpha * direction, 0.0)
            trial *= scale / trial.sum()
            f_trial, g_trial = value_grad(trial)
            if f_trial <= f + 1e-4 * alpha * slope:
                break
            if (
                alpha == 1.0
                and abs(f_trial - f) <= 1e-13 * max(1.0, abs(f))
                and float(g_trial @ trial - scale * g_trial.min()) < gap
            ):
                # the full Newton step changes f only at rounding level, where the Armijo
                # test cannot see progress; accept it when the gap (from gradients) shrinks
                break
            alpha *= 0.5
        else:
            break
        w, f, g = trial, f_trial, g_trial
    return w, f, g
