r"""The step equations of a BrownBoost round and their safeguarded Newton solver.

:func:`brownboost_step` finds the end point :math:`(\alpha, t)` of Freund's differential
equation for one round by solving its two equations (zero edge under the new weights,
conservation of the potential) with the safeguards described in
:mod:`marginboost.boosting.brownboost`: ``_Sums`` evaluates the sums of a round (the potential
kept in two parts, ``_Potential``, and a Taylor expansion near an evaluated point), ``_Solver``
runs the bracketed Newton iteration along the potential curve, and :class:`BrownBoostStep` is
its result; :class:`StepSolveError` reports a round that could not be solved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import erfc

from ._base import check_real

__all__ = ["BrownBoostStep", "StepSolveError", "brownboost_step"]


FloatArray = NDArray[np.float64]

_EPS = float(np.finfo(np.float64).eps)
#: Largest move of a single Newton step along the curve (2) while no upper bracket is known, in
#: units of sqrt(c), the width of the weights exp(-d^2 / c).
_MAX_STEP = 1.0
#: A t-correction below this fraction of sqrt(c) counts as "on the curve" for bracketing.
_ON_CURVE = 1e-3
#: Steps (in units of sqrt(c)) within which the potential is expanded around the last point.
_TAYLOR_STEP = 6e-5
#: The Newton correction of t (of alpha at the time limit) must be below this times sqrt(c).
_RESOLUTION = 1e-9


@dataclass(frozen=True)
class BrownBoostStep:
    """The end point of one BrownBoost round (see :func:`brownboost_step`).

    Attributes
    ----------
    alpha : float
        Weight of the weak hypothesis.
    t : float
        Time used by the round.
    edge : float
        :math:`\\gamma(\\alpha, t)`, the weighted edge at the end point: 0 up to the tolerance,
        unless ``time_limited`` (then positive).
    potential : float
        :math:`\\sum_i v_i \\Phi(r_i + \\alpha b_i + s - t)` at the end point.
    potential_change : float
        ``potential`` minus the potential :math:`\\sum_i v_i \\Phi(r_i + s)` at the start.
    time_limited : bool
        Whether the round ended at :math:`t = s` (the remaining time is used up).
    evaluations : int
        Number of evaluations of the sums (each :math:`O(n)`).
    """

    alpha: float
    t: float
    edge: float
    potential: float
    potential_change: float
    time_limited: bool
    evaluations: int


class _Potential(NamedTuple):
    r"""The potential :math:`P = \sum_i v_i \operatorname{erfc}(x_i)` kept in two parts.

    :math:`P = 2 N + Q` with :math:`N = \sum_{x_i < 0} v_i` and the centred part
    :math:`Q = \sum_i v_i \operatorname{sign}(x_i) \operatorname{erfc}(|x_i|)`: an example far on
    the negative side has :math:`\operatorname{erfc}(x_i) \approx 2`, whose rounding error
    (:math:`\approx 2\epsilon_{\text{mach}} v_i`) would swamp the tiny change of :math:`P` when
    every example is far from the boundary; in :math:`Q` it contributes
    :math:`\operatorname{erfc}(|x_i|)`, accurate to a relative :math:`\epsilon_{\text{mach}}`.
    """

    negative: float  # N
    centered: float  # Q
    magnitude: float  # sum_i v_i erfc(|x_i|), the scale of the rounding error of Q

    @property
    def value(self) -> float:
        return 2.0 * self.negative + self.centered

    def minus(self, other: _Potential) -> float:
        """``self.value - other.value``, accurate also when both are close."""
        return 2.0 * (self.negative - other.negative) + (self.centered - other.centered)


class _Point(NamedTuple):
    alpha: float
    t: float
    potential: _Potential
    excess: float  # P(alpha, t) - P(0, 0)
    gamma: float
    gamma_alpha: float  # partial derivative of gamma in alpha
    gamma_t: float  # partial derivative of gamma in t
    potential_t: float  # partial derivative of P in t (the one in alpha is -gamma * potential_t)
    taylor: tuple[float, ...]  # weighted moments for the Taylor expansion of P around the point

    @property
    def curve_slope(self) -> float:
        """d gamma / d alpha along the curve P = const (where dt/d alpha = gamma)."""
        return self.gamma_alpha + self.gamma * self.gamma_t


class _Sums:
    r"""The sums of one round as functions of ``(alpha, t)``; counts its evaluations.

    The potential needs ``erfc`` of every example, several times the cost of the other sums.
    Close to an evaluated point (steps :math:`h` in units of :math:`\sqrt c` with
    :math:`h (1 + \bar x) \le` ``_TAYLOR_STEP``, :math:`\bar x` the weighted RMS of
    :math:`|x_i|`) it is taken from the third-order Taylor expansion of erfc around that point
    instead, with a remainder far below the rounding error; this typically serves the last,
    verifying Newton iterate.
    """

    def __init__(
        self, a: FloatArray, b: FloatArray, v: FloatArray, c: float, start: _Potential | None = None
    ) -> None:
        self.a, self.b, self.v, self.c = a, b, v, c
        self.sqrt_c = math.sqrt(c)
        self.evaluations = 0
        self.start = self._potential(a) if start is None else start

    def _potential(self, d: FloatArray) -> _Potential:
        terms = self.v * erfc(np.abs(d) / self.sqrt_c)
        negative = d < 0
        magnitude = float(terms.sum())
        return _Potential(
            float(self.v[negative].sum()), magnitude - 2.0 * float(terms[negative].sum()), magnitude
        )

    def excess(self, alpha: float, t: float) -> float:
        """P(alpha, t) - P(0, 0) alone."""
        self.evaluations += 1
        return self._potential(self.a + alpha * self.b - t).minus(self.start)

    def __call__(
        self,
        alpha: float,
        t: float,
        base: _Point | None = None,
        potential: _Potential | None = None,
    ) -> _Point:
        """The sums at ``(alpha, t)``.

        A known ``potential`` there, or a nearby evaluated ``base`` point, saves the erfc.
        """
        self.evaluations += 1
        c, b, v, sqrt_c = self.c, self.b, self.v, self.sqrt_c
        d = self.a + alpha * b - t
        if potential is None and base is not None:
            step_alpha, step_t = (alpha - base.alpha) / sqrt_c, (t - base.t) / sqrt_c
            spread = math.sqrt(max(base.taylor[5], 0.0) / base.taylor[1])
            if (abs(step_alpha) + abs(step_t)) * (1.0 + spread) <= _TAYLOR_STEP:
                change = _taylor_change(base.taylor, step_alpha, step_t)
                negative = float(v[d < 0].sum())
                potential = _Potential(
                    negative,
                    base.potential.centered + change - 2.0 * (negative - base.potential.negative),
                    base.potential.magnitude,
                )
        if potential is None:
            potential = self._potential(d)
        d2 = d * d
        shift = float(d2.min())
        # exp(-d^2/c) scaled by exp(shift/c) so that the largest relative weight is 1
        w = v * np.exp((shift - d2) / c)
        wd = w * d
        wdd = wd * d
        m0, m1, m2, m3 = float(w.sum()), float(w @ b), float(wd.sum()), float(wd @ b)
        gamma = m1 / m0
        scale = math.exp(-shift / c)
        potential_t = 2.0 / math.sqrt(math.pi * c) * scale * m0
        taylor = (
            2.0 / math.sqrt(math.pi) * scale,
            m0,
            m1,
            m2 / sqrt_c,
            m3 / sqrt_c,
            float(wdd.sum()) / c,
            float(wdd @ b) / c,
        )
        return _Point(
            alpha,
            t,
            potential,
            potential.minus(self.start),
            gamma,
            2.0 / c * (gamma * m3 - m2) / m0,
            2.0 / c * (m3 - gamma * m2) / m0,
            potential_t,
            taylor,
        )


def _taylor_change(moments: tuple[float, ...], A: float, T: float) -> float:
    r"""Third-order Taylor change of :math:`\sum_i v_i \operatorname{erfc}(x_i + h_i)`.

    :math:`h_i = A b_i - T` (steps in units of :math:`\sqrt c`) and
    :math:`\operatorname{erfc}(x + h) - \operatorname{erfc}(x) \approx
    -\tfrac{2}{\sqrt\pi} e^{-x^2} [h - x h^2 + (2x^2 - 1) h^3 / 3]`, summed with the moments
    :math:`S_1 = \sum w_i`, :math:`S_b = \sum w_i b_i`, :math:`S_x = \sum w_i x_i`, ... of the
    scaled weights :math:`w_i` (``moments[0]`` undoes the scaling and holds :math:`2/\sqrt\pi`).
    """
    factor, s1, sb, sx, sxb, sxx, sxxb = moments
    first = A * sb - T * s1
    second = (A * A + T * T) * sx - 2.0 * A * T * sxb
    third = (A**3 + 3.0 * A * T * T) * (2.0 * sxxb - sb) - (3.0 * A * A * T + T**3) * (
        2.0 * sxx - s1
    )
    return -factor * (first - second + third / 3.0)


class StepSolveError(RuntimeError):
    """The step equations of a round could not be solved to the tolerance."""


def _check_step_inputs(
    r: ArrayLike,
    b: ArrayLike,
    s: float,
    c: float,
    sample_weight: ArrayLike | None,
    tol: float,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    r = np.asarray(r, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if r.ndim != 1 or r.shape != b.shape or r.size == 0:
        raise ValueError(
            f"r and b must be non-empty 1-D arrays of the same length; got shapes "
            f"{r.shape} and {b.shape}"
        )
    if not np.isfinite(r).all():
        raise ValueError("r contains NaN or infinite values")
    if not np.isin(b, (-1.0, 1.0)).all():
        raise ValueError("b must contain only -1 and +1 (y_i h(x_i) of a +-1 weak hypothesis)")
    check_real(c, "c", 0.0)
    check_real(s, "s", 0.0)
    check_real(tol, "tol", 0.0)
    if sample_weight is None:
        v = np.ones_like(r)
    else:
        v = np.asarray(sample_weight, dtype=np.float64)
        if v.shape != r.shape or not np.isfinite(v).all() or (v < 0).any() or not v.sum() > 0:
            raise ValueError(
                "sample_weight must be finite, non-negative, with a positive sum "
                "and one entry per example"
            )
        keep = v > 0
        if not keep.all():
            r, b, v = r[keep], b[keep], v[keep]
    return r, b, v


def brownboost_step(
    r: ArrayLike,
    b: ArrayLike,
    s: float,
    c: float,
    sample_weight: ArrayLike | None = None,
    *,
    tol: float = 1e-10,
    max_evaluations: int = 200,
) -> BrownBoostStep:
    r"""Solve one BrownBoost round: the end point :math:`(\alpha, t)` of the differential equation.

    With :math:`d_i = r_i + \alpha b_i + s - t`, :math:`w_i = v_i e^{-d_i^2/c}` and the moments
    :math:`M_0 = \sum w_i`, :math:`M_1 = \sum w_i b_i`, :math:`M_2 = \sum w_i d_i`,
    :math:`M_3 = \sum w_i d_i b_i` the equations are :math:`\gamma = M_1/M_0 = 0` and
    :math:`P(\alpha, t) = \sum_i v_i \Phi(d_i) = P(0, 0)`, with the Jacobian

    .. math:: \frac{\partial\gamma}{\partial\alpha} = \frac{2}{c}\frac{\gamma M_3 - M_2}{M_0},\quad
              \frac{\partial\gamma}{\partial t} = \frac{2}{c}\frac{M_3 - \gamma M_2}{M_0},\quad
              \frac{\partial P}{\partial t} = \frac{2 M_0}{\sqrt{\pi c}},\quad
              \frac{\partial P}{\partial\alpha} = -\gamma\frac{\partial P}{\partial t}.

    A Newton step from :math:`(\alpha, t)` moves :math:`t` by :math:`\delta = -(P - P(0,0))/P_t`
    onto the curve (2), estimates the edge there as :math:`\hat\gamma = \gamma + \gamma_t\delta`
    and moves along the curve by :math:`\Delta\alpha = -\hat\gamma / \gamma'` with
    :math:`\gamma' = \gamma_\alpha + \gamma\gamma_t` (the derivative of the edge along the
    curve, where :math:`dt/d\alpha = \gamma`) and
    :math:`\Delta t = \delta + \hat\gamma\Delta\alpha + \tfrac12\gamma'\Delta\alpha^2`
    (the Newton step for :math:`t` plus the curvature of the curve).  See the module docstring
    for the safeguards and the time limit :math:`t = s`.

    Parameters
    ----------
    r : array (n,)
        Current margins :math:`r_i`.
    b : array (n,)
        :math:`b_i = y_i h(x_i) \in \{-1, +1\}`; the edge :math:`\gamma(0, 0)` must be positive.
    s : float
        Remaining time, :math:`s > 0`.
    c : float
        Time budget of the run, :math:`c > 0`.
    sample_weight : array (n,), optional
        Non-negative example weights :math:`v_i` (uniform by default).
    tol : float, default=1e-10
        Convergence tolerance: :math:`|\gamma| \le` ``tol`` and
        :math:`|P - P(0,0)| \le` ``tol`` :math:`\cdot P(0,0)` (plus the rounding level), and the
        remaining Newton correction of :math:`t` (of :math:`\alpha` at the time limit) below
        :math:`10^{-9}\sqrt c` (plus the rounding level).
    max_evaluations : int, default=200
        Evaluations of the sums before :class:`StepSolveError` is raised.

    Returns
    -------
    BrownBoostStep
    """
    r, b, v = _check_step_inputs(r, b, s, c, sample_weight, tol)
    return _solve_step(r, b, float(s), float(c), v, float(tol), None, max_evaluations)[0]


def _solve_step(
    r: FloatArray,
    b: FloatArray,
    s: float,
    c: float,
    v: FloatArray,
    tol: float,
    start: _Potential | None,
    max_evaluations: int = 200,
) -> tuple[BrownBoostStep, _Potential]:
    """:func:`brownboost_step` on checked inputs; also returns the potential at the end point.

    ``start`` is the potential at :math:`(0, 0)` when known (BrownBoost passes the one at the
    end point of the previous round, equal up to rounding); computed when ``None``.
    """
    sums = _Sums(r + s, b, v, c, start)
    p0 = sums.start.value
    point = sums(0.0, 0.0, potential=sums.start)
    if not point.gamma > 0.0:
        raise ValueError(
            f"the weak hypothesis has no positive edge (gamma = {point.gamma:.3g}); "
            "BrownBoost needs sum_i W_i b_i > 0"
        )
    solver = _Solver(sums, s, tol, p0, max_evaluations)
    if (b > 0).all():
        # a perfect hypothesis: gamma = 1 on the whole curve t = alpha, which reaches t = s
        end, limited = sums(s, s), True
    else:
        end, limited = solver.solve(point)
    step = BrownBoostStep(
        alpha=float(end.alpha),
        t=float(end.t),
        edge=float(end.gamma),
        potential=end.potential.value,
        potential_change=end.excess,
        time_limited=limited,
        evaluations=sums.evaluations,
    )
    return step, end.potential


class _Solver:
    """The safeguarded Newton iteration of one round (see the module docstring)."""

    def __init__(self, sums: _Sums, s: float, tol: float, p0: float, max_evaluations: int) -> None:
        self.sums, self.s, self.tol, self.p0 = sums, s, tol, p0
        self.max_evaluations = max_evaluations

    def floor(self, point: _Point) -> float:
        """Rounding level of ``point.excess``."""
        return 16.0 * _EPS * (point.potential.magnitude + self.sums.start.magnitude)

    def potential_ok(self, point: _Point, excess: float, derivative: float) -> bool:
        """|excess| within tol * P0, and the Newton correction excess / derivative resolved."""
        floor = self.floor(point)
        return (
            abs(excess) <= self.tol * self.p0 + floor
            and abs(excess) <= _RESOLUTION * self.sums.sqrt_c * abs(derivative) + floor
        )

    def solve(self, point: _Point) -> tuple[_Point, bool]:
        sums, s, tol = self.sums, self.s, self.tol
        sqrt_c = sums.sqrt_c
        lo, t_lo = 0.0, 0.0  # edge > 0 and t < s on the curve at alpha = lo
        hi, t_hi = math.inf, math.nan  # edge < 0 on the curve at alpha = hi
        lo_edge, lo_slope = point.gamma, point.curve_slope
        probes, probing = 2, False  # looks for a zero of the edge between lo and a rising edge
        while sums.evaluations < self.max_evaluations:
            alpha, t, excess = point.alpha, point.t, point.excess
            on_level = self.potential_ok(point, excess, point.potential_t)
            if abs(point.gamma) <= tol and on_level:
                if t < s:
                    return point, False
                return self.time_limited(lo, alpha), True
            if point.potential_t > 0.0:
                delta = -excess / point.potential_t
            elif on_level:
                delta = 0.0
            else:
                # every example is far from the boundary (P is flat in t at rounding level):
                # move t onto the curve by bracketing
                point = sums(alpha, self.curve_time(alpha, t))
                continue
            t_curve = t + delta
            gamma_curve = point.gamma + point.gamma_t * delta
            on_curve = abs(delta) <= _ON_CURVE * sqrt_c
            slope = point.curve_slope
            # before a zero is bracketed, a falling edge is followed by Newton steps; a point
            # that may end the search (edge <= 0, rising edge, t >= s) is first put on the curve
            decisive = t_curve >= s or (hi == math.inf and (gamma_curve <= 0.0 or slope >= 0.0))
            if abs(delta) > sqrt_c or (not on_curve and not on_level and decisive):
                # off the curve (2): correct t first, at most one weight width at a time
                point = sums(alpha, t + float(np.clip(delta, -sqrt_c, sqrt_c)), base=point)
                continue
            if t_curve >= s:
                return self.time_limited(lo, alpha), True
            if on_curve:
                # the sign of the edge on the curve is reliable here: update the bracket
                if gamma_curve > 0.0:
                    dip = (
                        _hermite_dip(lo, lo_edge, lo_slope, alpha, gamma_curve, slope)
                        if hi == math.inf
                        and alpha > lo
                        and slope > 0.0
                        and probes > 0
                        and not probing
                        else None
                    )
                    if dip is not None:
                        # the edge fell and rises again: it may have crossed 0 in between
                        probes, probing = probes - 1, True
                        point = sums(
                            dip, _along_curve(t_lo, lo_edge, lo_slope, dip - lo), base=point
                        )
                        continue
                    lo, t_lo, lo_edge, lo_slope = alpha, t_curve, gamma_curve, slope
                    probing = False
                else:
                    hi, t_hi = alpha, t_curve
                    probing = False
                if hi < math.inf and hi - lo <= 4.0 * _EPS * max(1.0, hi):
                    # the bracket is at rounding level; the edge jumps across 0 here
                    if on_level:
                        return point, False
                    point = sums(alpha, t_curve, base=point)
                    continue
            step = -gamma_curve / slope if slope < 0.0 else math.inf
            candidate = alpha + step
            if hi == math.inf and lo < candidate:
                candidate = min(candidate, lo + _MAX_STEP * sqrt_c)
                t_next = _along_curve(t_curve, gamma_curve, slope, candidate - alpha)
            elif hi == math.inf:
                # an unconfirmed negative edge beyond lo: look halfway back
                candidate = lo + 0.5 * (alpha - lo) if alpha > lo else lo + 0.5 * sqrt_c
                t_next = _along_curve(t_curve, gamma_curve, slope, candidate - alpha)
            elif lo < candidate < hi and math.isfinite(candidate):
                t_next = _along_curve(t_curve, gamma_curve, slope, candidate - alpha)
            elif not on_curve:
                # bisection needs the sign of the edge on the curve here: correct t first
                candidate, t_next = alpha, t_curve
            else:
                candidate = 0.5 * (lo + hi)
                t_next = 0.5 * (t_lo + t_hi)
            point = sums(candidate, t_next, base=point)
        raise StepSolveError(
            f"the step equations did not converge in {self.max_evaluations} evaluations (alpha = "
            f"{point.alpha:.6g}, t = {point.t:.6g}, edge = {point.gamma:.3g}, potential change = "
            f"{point.excess:.3g}, tolerance {tol:g})"
        )

    def curve_time(self, alpha: float, t: float) -> float:
        """The t with P(alpha, t) = P(0, 0) by bracketing and bisection (P increases in t)."""
        sums = self.sums
        width = sums.sqrt_c
        excess = sums.excess(alpha, t)
        if excess == 0.0:
            return t
        direction = -1.0 if excess > 0 else 1.0
        inner, outer = t, t + direction * width
        while sums.excess(alpha, outer) * direction < 0:
            inner, outer, width = outer, outer + direction * 2 * width, 2 * width
            if sums.evaluations >= self.max_evaluations:
                raise StepSolveError("could not bracket the time of the potential curve")
        low, high = min(inner, outer), max(inner, outer)
        while sums.evaluations < self.max_evaluations:
            middle = 0.5 * (low + high)
            excess = sums.excess(alpha, middle)
            if excess == 0.0 or high - low <= 4.0 * _EPS * max(1.0, abs(middle)):
                return middle
            if excess > 0:
                high = middle
            else:
                low = middle
        raise StepSolveError("could not find the time of the potential curve")

    def time_limited(self, lo: float, hi: float) -> _Point:
        """alpha in (lo, hi] with P(alpha, s) = P(0, 0): the point of the curve (2) where t = s.

        ``h(alpha) = P(alpha, s) - P(0, 0)`` is positive at ``lo`` (there t < s) and not
        positive at ``hi``; safeguarded Newton (``h' = -gamma P_t``) with bisection.  Along
        ``t = s``, ``h`` falls while the edge is positive and rises after the edge's zero, so
        it can have a second root there (with a negative edge): a point with a negative edge
        always lies beyond the wanted root and bounds the bracket from above.
        """
        sums, s = self.sums, self.s
        alpha, point = hi, None
        while sums.evaluations < self.max_evaluations:
            point = sums(alpha, s, base=point)
            h = point.excess
            derivative = -point.gamma * point.potential_t
            beyond = point.gamma < -self.tol  # past the edge's zero
            if not beyond and self.potential_ok(point, h, derivative):
                return point
            if h > 0 and not beyond:
                lo = alpha
            else:
                hi = alpha
            candidate = alpha - h / derivative if derivative < 0.0 else math.nan
            if not lo < candidate < hi:
                candidate = 0.5 * (lo + hi)
            if hi - lo <= 4.0 * _EPS * max(1.0, hi):
                return point
            alpha = candidate
        raise StepSolveError(
            f"the time-limited step (t = s = {s:.6g}) did not converge in "
            f"{self.max_evaluations} evaluations"
        )


def _hermite_dip(
    a0: float,
    g0: float,
    s0: float,
    a1: float,
    g1: float,
    s1: float,
) -> float | None:
    """Where the cubic Hermite interpolant of the edge on [a0, a1] dips below 0, if it does.

    Both end values are positive; returns the interpolant's minimum point when its value
    there is not positive, else None.
    """
    width = a1 - a0
    d0, d1 = s0 * width, s1 * width  # derivatives in the unit variable u in [0, 1]
    # p(u) = g0 h00 + d0 h10 + g1 h01 + d1 h11; p'(u) = A u^2 + B u + C
    A = 6.0 * g0 + 3.0 * d0 - 6.0 * g1 + 3.0 * d1
    B = -6.0 * g0 - 4.0 * d0 + 6.0 * g1 - 2.0 * d1
    C = d0
    roots = np.roots([A, B, C]) if abs(A) > 0 else (np.array([-C / B]) if B != 0 else np.empty(0))
    best, best_value = None, 0.0
    for u in np.real(roots[np.isreal(roots)]) if len(roots) else []:
        if 0.0 < u < 1.0:
            value = (
                (2 * u**3 - 3 * u**2 + 1) * g0
                + (u**3 - 2 * u**2 + u) * d0
                + (-2 * u**3 + 3 * u**2) * g1
                + (u**3 - u**2) * d1
            )
            if value <= best_value:
                best, best_value = a0 + u * width, value
    return best


def _along_curve(t: float, gamma: float, slope: float, step: float) -> float:
    """Second-order prediction of t(alpha + step) on the curve (2): t' = gamma, t'' = slope."""
    if not math.isfinite(slope):
        return t + gamma * step
    return t + gamma * step + 0.5 * slope * step * step
