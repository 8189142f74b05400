"""BrownBoost's step solver on small fixed instances, against independent solves of the step
equations (brentq, solve_ivp) and hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference.brownboost import ode_end_point, potential, two_example_end_point
from scipy.optimize import brentq

from marginboost.boosting.brownboost import _hermite_dip, _Solver, _Sums, brownboost_step


# ---- the end point against independent solves -------------------------------------------------
def test_two_examples_far_from_the_boundary_match_a_one_dimensional_solve():
    """With b = (+1, -1), equation (1) reads v1 e^{-d1^2/c} = v2 e^{-d2^2/c}, which gives alpha
    as a function of t in closed form; equation (2) is then solved for t by brentq.  Both
    examples sit about 13 weight widths from the boundary, where the potential is tiny."""
    r, b, s, c, v = np.array([17.0, 19.0]), np.array([1.0, -1.0]), 2.0, 2.0, np.array([1.0, 4.0])
    alpha, t = two_example_end_point(r, s, c, v)
    p0 = potential(r + s, v, c)
    step = brownboost_step(r, b, s, c, v)
    assert not step.time_limited
    assert step.t == pytest.approx(t, rel=1e-8)
    assert step.alpha == pytest.approx(alpha, rel=1e-8)
    assert abs(step.edge) <= 1e-10
    assert abs(step.potential_change) <= 1e-10 * p0
    alpha_ode, t_ode, limited = ode_end_point(r, b, s, c, v)
    assert not limited
    assert step.alpha == pytest.approx(alpha_ode, rel=1e-6)


R_BISECT = np.array(
    [23.46910619, 7.20374292, -5.88959336, 0.50538868, -1.82591113]
    + [-0.89795042, 3.33739844, -2.39191663, -12.37935317]
)
B_BISECT = np.array([1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0, -1.0, -1.0])
V_BISECT = np.array(
    [0.4419739, 0.50529003, 0.53782289, 0.05737948, 0.49822346]
    + [0.6197562, 0.28653556, 0.86187551, 0.71379002]
)


def test_a_time_limited_step_after_bisection_solves_the_potential_equation_at_t_equals_s():
    """A wide time budget (c = 80.6) and little remaining time: the curve (2) reaches t = s,
    and alpha is the root of P(alpha, s) = P(0, 0), found here by brentq after the ODE."""
    r, b, v = R_BISECT, B_BISECT, V_BISECT
    s, c = 0.03492688213941649, 80.56480928529051
    step = brownboost_step(r, b, s, c, v)
    alpha_ode, _, limited = ode_end_point(r, b, s, c, v)
    assert limited and step.time_limited
    assert step.t == s
    p0 = potential(r + s, v, c)

    def change(alpha):
        return potential(r + alpha * b, v, c) / p0 - 1.0  # d = r + s + alpha b - s

    root = brentq(change, 0.5 * alpha_ode, 2.0 * alpha_ode, xtol=1e-15, rtol=1e-15)
    assert step.alpha == pytest.approx(alpha_ode, rel=1e-6)
    assert step.alpha == pytest.approx(root, rel=1e-7)
    assert step.alpha > 0 and step.edge > 0


# ---- the time limit on a flat potential --------------------------------------------------------
@pytest.mark.parametrize("s", [1e-5, 1e-4, 2e-4])
def test_a_step_never_uses_more_than_the_remaining_time(s):
    """Every example 35 weight widths out: the potential is flat in double precision and the
    Newton step along the edge jumps past t = s at once.  With a loose tolerance that step
    already meets |edge| <= tol; the round must still end at t = s and report the time limit.
    The edge is tanh(ln(1.5)/2 - 2 alpha (35 - t)), zero near alpha = ln(1.5) / 140."""
    b = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    r = np.full(5, 35.0 - s)
    step = brownboost_step(r, b, s, 1.0, tol=1e-2)
    assert step.time_limited
    assert step.t == s
    assert abs(step.edge) <= 1e-2
    assert step.alpha == pytest.approx(math.log(1.5) / 140.0, rel=0.05)


# ---- the dip probe: cubic Hermite interpolation of the edge ------------------------------------
def quadratic_edge(a0, a1, k, u0, m):
    """Edge k ((alpha - a0)/(a1 - a0) - u0)^2 + m: end values and end slopes on [a0, a1]."""
    width = a1 - a0
    g0, g1 = k * u0**2 + m, k * (1.0 - u0) ** 2 + m
    s0, s1 = -2.0 * k * u0 / width, 2.0 * k * (1.0 - u0) / width
    return g0, s0, g1, s1


@pytest.mark.parametrize(
    "a0, a1, k, u0, m",
    [
        (1.0, 3.0, 4.0, 0.3, -0.1),
        (1.0, 3.0, 4.0, 0.3, 0.1),
        (0.0, 0.5, 2.0, 0.6, -0.05),
        (0.0, 0.5, 2.0, 0.6, 0.05),
        (2.0, 2.2, 1.0, 0.5, -0.01),
        (2.0, 2.2, 1.0, 0.5, 0.01),
        (0.0, 1.0, 3.0, 0.8, -0.1),
        (0.0, 1.0, 3.0, 0.8, 0.3),
    ],
)
def test_hermite_dip_of_a_quadratic_edge_is_its_vertex_when_it_reaches_zero(a0, a1, k, u0, m):
    """The cubic Hermite interpolant reproduces a quadratic exactly: its minimum is the vertex
    a0 + u0 (a1 - a0), reported when the value m there is not positive, and None otherwise."""
    g0, s0, g1, s1 = quadratic_edge(a0, a1, k, u0, m)
    assert g0 > 0 and g1 > 0
    dip = _hermite_dip(a0, g0, s0, a1, g1, s1)
    if m <= 0:
        assert dip == pytest.approx(a0 + u0 * (a1 - a0), rel=1e-9)
    else:
        assert dip is None


def test_hermite_dip_of_a_monotone_edge_is_none():
    """An edge rising from a positive value has no dip."""
    assert _hermite_dip(0.0, 0.2, 0.5, 1.0, 0.7, 0.5) is None


@pytest.mark.parametrize(
    ("r", "b", "s", "c"),
    [
        ([11.6, 14.1], [1.0, -1.0], 1.0, 1.0),  # far from the boundary: tiny potential
        ([1.6, 2.1, -0.4], [1.0, -1.0, 1.0], 0.3, 1.0),
        # every example beyond 27 weight widths: exp(-d^2/c) and erfc underflow, P is flat in
        # floating point and t is first put on the curve by bracketing
        ([-28.952, -28.997], [1.0, -1.0], 21.733, 0.5),
        ([-44.001, -43.941, 48.512], [-1.0, 1.0, -1.0], 17.349, 2.0),
    ],
)
def test_time_limited_step_is_the_root_before_the_edge_vanishes(r, b, s, c):
    """Along t = s the potential falls while the edge is positive and rises after its zero, so
    P(alpha, s) = P(0, 0) can have a second root with a negative edge; the step is the first
    one, where the trajectory of dt/dalpha = edge reaches t = s."""
    r, b = np.array(r), np.array(b)
    v = np.ones_like(r)
    step = brownboost_step(r, b, s, c)
    alpha_ode, t_ode, limited = ode_end_point(r, b, s, c, v)
    assert limited and step.time_limited and step.t == s == t_ode
    assert step.edge > 0
    assert step.alpha == pytest.approx(alpha_ode, rel=1e-6)


def test_the_step_solver_needs_few_evaluations():
    """The safeguarded Newton iteration's cost (``evaluations``, each one O(n) pass): on 246
    random rounds it needs 7 at the median and 23 at most, 1955 in all; a change that loses
    the fast convergence (a worse bracket, a lost on-curve shortcut) shows up here first."""
    rng = np.random.default_rng(1)
    counts = []
    for _ in range(300):
        n = int(rng.integers(5, 60))
        c = rng.uniform(0.5, 8)
        s = rng.uniform(0.05, 1) * c
        r = rng.normal(0, 1.5 * np.sqrt(c), n)
        b = np.where(rng.random(n) < 0.62, 1.0, -1.0)
        try:
            step = brownboost_step(r, b, s, c)
        except ValueError:  # no positive edge to start from
            continue
        counts.append(step.evaluations)
    assert len(counts) == 246
    assert np.median(counts) <= 8 and max(counts) <= 30 and sum(counts) <= 2150


# ---- putting t back on the potential curve ------------------------------------------------------
def _curve_solver(a, v, c):
    sums = _Sums(np.asarray(a, float), np.ones(len(a)), np.asarray(v, float), c)
    return sums, _Solver(sums, s=1.0, tol=1e-10, p0=sums.start.value, max_evaluations=200)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_curve_time_restores_the_potential_when_an_example_has_crossed_far_away(sign):
    """Far from the boundary (30 weight widths) erfc underflows and P only counts the examples
    on the negative side, so moving one example of weight 1/2 across changes P by exactly
    +-1; bracketing must move t back until P(alpha, t) = P(0, 0) holds again."""
    sums, solver = _curve_solver([sign * 40.0, sign * 100.0], [0.5, 0.5], 1.0)
    t0 = sign * 70.0  # the first example at d = -+30
    assert sums.excess(0.0, t0) == sign * 1.0
    t = solver.curve_time(0.0, t0)
    assert sums.excess(0.0, t) == 0.0
    assert sign * t < 40.0 - 26.0  # the first example is back on its side, beyond underflow


def test_curve_time_brackets_the_root_from_far_below():
    """Moderate margins: P(0, t) increases in t and equals P(0, 0) only at t = 0; from
    t = -5 the bracket has to grow upwards through negative times."""
    sums, solver = _curve_solver([0.3, -0.7, 1.2, 2.0], [1.0, 2.0, 1.0, 0.5], 1.0)
    t = solver.curve_time(0.0, -5.0)
    assert abs(t) <= 1e-12
