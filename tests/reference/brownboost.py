r"""Freund's BrownBoost step, written for reading: the end point of the differential equation.

One round of BrownBoost (Freund 2001, Sec. 3) moves :math:`(\alpha, t)` from :math:`(0, 0)`
along :math:`dt/d\alpha = \gamma(\alpha, t)` (the weighted edge of the new hypothesis under the
weights :math:`v_i e^{-d_i^2/c}`, :math:`d_i = r_i + \alpha b_i + s - t`) until the edge
vanishes or the time is used up (:math:`t = s`).  Here the equation is integrated with scipy's
DOP853 at tight tolerances; nothing is imported from the package.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq
from scipy.special import erfc


def ode_end_point(r, b, s, c, v):
    """Integrate dt/dalpha = gamma(alpha, t) from (0, 0) until gamma = 0 or t = s.

    Returns ``(alpha, t, time_limited)`` at the first of the two events.
    """
    a = r + s

    def gamma(alpha, t):
        d = a + alpha * b - t
        w = v * np.exp(-(d * d - np.min(d * d)) / c)
        return float(w @ b / w.sum())

    def vanishing_edge(alpha, y):
        return gamma(alpha, y[0])

    def time_used_up(alpha, y):
        return y[0] - s

    vanishing_edge.terminal, vanishing_edge.direction = True, -1
    time_used_up.terminal, time_used_up.direction = True, 1
    solution = solve_ivp(
        lambda alpha, y: [gamma(alpha, y[0])],
        (0.0, 60.0 * math.sqrt(c)),
        [0.0],
        events=[vanishing_edge, time_used_up],
        method="DOP853",
        rtol=1e-11,
        atol=1e-13,
        max_step=0.05 * math.sqrt(c),
    )  # no step over both events
    if solution.t_events[0].size:
        return solution.t_events[0][0], solution.y_events[0][0][0], False
    assert solution.t_events[1].size, "the trajectory neither stops nor reaches t = s"
    return solution.t_events[1][0], s, True


def potential(d, v, c):
    """sum_i v_i (1 - erf(d_i / sqrt(c))), the potential of margins ``d``."""
    return float(np.asarray(v) @ erfc(np.asarray(d, dtype=float) / math.sqrt(c)))


def two_example_end_point(r, s, c, v):
    """``(alpha, t)`` of a round on two examples with b = (+1, -1) whose edge vanishes before
    t = s: equation (1), v1 e^{-d1^2/c} = v2 e^{-d2^2/c}, gives alpha as a function of t in
    closed form, and equation (2) (the potential is conserved) is solved for t by brentq."""
    a, b = np.asarray(r, dtype=float) + s, np.array([1.0, -1.0])

    def alpha_of(t):
        return 0.5 * (a[1] - a[0] - c * math.log(v[1] / v[0]) / (a[0] + a[1] - 2.0 * t))

    p0 = potential(a, v, c)

    def relative_change(t):
        return potential(a + alpha_of(t) * b - t, v, c) / p0 - 1.0

    t = brentq(relative_change, 0.0, s, xtol=1e-15, rtol=1e-15)
    return alpha_of(t), t
