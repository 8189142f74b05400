"""Checks written for surviving mutants: FISTA's bound on the Lipschitz search, the KKT
residual of the LPBoost form (15) of AdaBoost, and the potential that BrownBoost's step
reports.  Each compares a returned number (or an error and its message) with a computation
made here from the definitions, not from the package's helpers."""

from __future__ import annotations

import re

import numpy as np
import pytest
from reference.brownboost import potential, two_example_end_point
from scipy.special import logsumexp, xlogy

from marginboost.boosting import _masters
from marginboost.boosting.brownboost import brownboost_step
from marginboost.duality import verify_adaboost_lpboost_form


# ---- solve_simplex_smooth: the backtracking on the Lipschitz constant stops above 1e16 ---------
def _quadratic(curvature: float, centre: np.ndarray):
    """f(w) = curvature / 2 * |w - centre|^2 and its gradient."""

    def value_grad(w):
        d = w - centre
        return 0.5 * curvature * float(d @ d), curvature * d

    return value_grad


CENTRE = np.array([0.3, 0.7])
START = np.array([0.301, 0.699])  # on the simplex, 1e-3 from the minimizer CENTRE


@pytest.mark.parametrize("curvature", [1e17, 1e18])
def test_backtracking_gives_up_beyond_a_lipschitz_estimate_of_1e16(curvature):
    """The doubling of the Lipschitz estimate stops once it exceeds 1e16 (at 2^54), so the
    backtracking is bounded.  With a larger curvature the projected gradient step of length
    1/2^54 overshoots the minimizer and does not descend; without a Hessian the solver says
    so at once, at iteration 1, with the Frank-Wolfe gap g.w - min_j g_j of the starting
    point (computed here), instead of searching on.  (Up to 2^54 the search does find the
    constant: the same problem with curvature 1e15 is solved.)"""
    g = curvature * (START - CENTRE)
    gap = float(g @ START - g.min())
    assert gap == pytest.approx(0.602e-3 * curvature, rel=1e-9)  # far above any stall bound
    message = f"projected gradient step failed to descend at iteration 1 (gap {gap:.3g})"
    with pytest.raises(_masters.MasterSolverError, match=re.escape(message)):
        _masters.solve_simplex_smooth(_quadratic(curvature, CENTRE), 2, 1.0, START)


# ---- verify_adaboost_lpboost_form: the complementary slackness uses T w ----------------------
# 14 examples x 5 weak hypotheses (rows of H, then the labels), +1 as "+" and -1 as "-".
H_ROWS = ["+----", "--+++", "+++++", "+++-+", "+--++", "-+++-", "-+-+-"]
H_ROWS += ["-----", "---++", "+-++-", "-+++-", "+++++", "+-+-+", "+++--"]
LABELS = "--++-++-++--++"


def _signs(text: str) -> np.ndarray:
    return np.array([1.0 if ch == "+" else -1.0 for ch in text])


def test_lpboost_form_kkt_residual_is_the_largest_of_its_three_documented_parts():
    """``kkt_residual`` is documented as the largest of the map (24) error
    max|u - softmax(-A w)|, the complementary slackness |sum_j T w_j (r - (A^T u)_j)| and the
    error of the Sec. 3.5 formula r* = -T sum u log u - T log sum_i exp(-(A w)_i).  Each
    part is recomputed here from the returned points.  The weights T w sum to 1 (w sums to
    1/T); with SCS on this instance the slackness is the largest part."""
    H = np.array([_signs(row) for row in H_ROWS])
    y = _signs(LABELS)
    T = 2.0
    result = verify_adaboost_lpboost_form(H, y, T, solver="SCS")
    A = y[:, None] * H
    w = np.asarray(result.primal_point["w"], dtype=float)
    u = np.asarray(result.dual_point["u"], dtype=float)
    r = float(result.dual_point["r"])
    assert float(w.sum()) == pytest.approx(1.0 / T, abs=1e-7)

    exponent = -(A @ w)
    weights = np.exp(exponent - exponent.max())
    map_error = float(np.max(np.abs(u - weights / weights.sum())))
    edges = np.array([sum(u[i] * A[i, j] for i in range(A.shape[0])) for j in range(A.shape[1])])
    slackness = abs(sum(T * max(w_j, 0.0) * (r - e_j) for w_j, e_j in zip(w, edges)))
    u_clipped = np.clip(u, 0.0, None)
    margins = T * (A @ w)
    r_formula = -T * float(xlogy(u_clipped, u_clipped).sum()) - T * float(logsumexp(-margins / T))
    formula_error = abs(r - r_formula)

    assert result.kkt_residual == pytest.approx(
        max(map_error, slackness, formula_error), rel=1e-5, abs=1e-14
    )
    assert result.kkt_residual >= slackness * (1.0 - 1e-5)
    assert result.kkt_residual <= 1e-4  # optimal points up to the solver's tolerance


# ---- brownboost_step: the potential reported at the end point --------------------------------
def test_brownboost_step_potential_is_the_sum_at_its_end_point_for_weights_of_any_scale():
    """Two examples 13.7 and 17.2 weight widths above the boundary, b = (+1, -1): equation (1)
    gives alpha(t) in closed form and equation (2) is solved for t by brentq.  The reported
    ``potential`` must be sum_i v_i Phi(d_i) at the returned (alpha, t) up to rounding (the
    third-order Taylor expansion of erfc used close to an evaluated point is documented to stay
    far below it), for weights of any scale: only their ratios enter equations (1) and (2),
    and scaling them by 2^-500 is exact in floating point, so the step must not change."""
    r, b, s, c = np.array([5.4, 8.9]), np.array([1.0, -1.0]), 8.3, 1.0
    v = np.array([1.0, 1.375])
    a = r + s  # d_i = r_i + s + alpha b_i - t, evaluated as the solver does
    alpha_ref, t_ref = two_example_end_point(r, s, c, v)

    steps = []
    for scale in (1.0, 2.0**-500):
        weights = scale * v
        step = brownboost_step(r, b, s, c, weights)
        d = a + step.alpha * b - step.t
        start, end = potential(a, weights, c), potential(d, weights, c)
        assert not step.time_limited
        assert step.t == pytest.approx(t_ref, rel=1e-8)
        assert step.alpha == pytest.approx(alpha_ref, rel=1e-8)
        assert abs(step.edge) <= 1e-10
        # rounding of erfc and of the Taylor remainder: observed 2e-14 relative
        assert step.potential == pytest.approx(end, rel=1e-13, abs=0.0)
        assert step.potential_change == pytest.approx(end - start, rel=0.0, abs=1e-13 * start)
        steps.append(step)
    unscaled, scaled = steps
    assert (scaled.alpha, scaled.t, scaled.evaluations) == (
        unscaled.alpha,
        unscaled.t,
        unscaled.evaluations,
    )
    assert scaled.potential == unscaled.potential * 2.0**-500


@pytest.mark.parametrize("spread", [1.0, 1e6, 2e19, 1e300])
def test_simplex_projection_of_huge_entries_puts_the_mass_on_the_largest(spread):
    """Entries far beyond scale / eps: the projection onto {w >= 0, sum w = 1} is the vertex of
    the largest entry (the others are farther below it than the simplex is wide)."""
    v = np.array([0.5 - spread, 0.5 + spread, 0.25])
    w = _masters.project_scaled_simplex(v, 1.0)
    assert np.all(w >= 0) and w.sum() == pytest.approx(1.0)
    if spread >= 1e6:
        np.testing.assert_array_equal(w, [0.0, 1.0, 0.0])
    else:  # brute force on a fine grid of the 2-simplex face {w_0 = 0}
        t = np.linspace(0.0, 1.0, 200_001)
        grid = np.stack([np.zeros_like(t), t, 1.0 - t], axis=1)
        best = grid[np.argmin(((grid - v) ** 2).sum(axis=1))]
        np.testing.assert_allclose(w, best, atol=1e-5)


def _newton_instances():
    rng = np.random.default_rng(3)
    return [rng.choice([-1.0, 1.0], size=(40, 15)) for _ in range(6)]


def test_smooth_masters_end_within_their_first_newton_polishes():
    """The smooth masters polish with Newton steps on the support (an active-set method):
    MCBoost's least squares is solved by the first polish, the entropy masters by the first
    or the second (every 20 FISTA iterations); first-order iterations alone would need far
    more. Each solution also meets its stated gap tolerance, computed here from the
    definitions."""
    from scipy.special import expit

    def stated(sol, scale):
        # solve_simplex_smooth's contract: rtol = 1e-10, or, for a point accepted because
        # first-order steps no longer descend in floating point ("stalled"), stall_rtol = 1e-6
        # times max(1, |f|, scale)
        if sol.stalled:
            return 1e-6 * max(1.0, abs(sol.objective), scale)
        return 1e-10 * max(1.0, abs(sol.objective))

    stalled = 0
    for A in _newton_instances():
        mc = _masters.solve_mcboost(A, 0.3)
        assert mc.iterations == 1
        g = 2.0 * A.T @ (A @ mc.w - 0.3)
        assert g @ mc.w - g.min() <= 1e-10 * max(1.0, mc.objective)
        for T in (0.5, 0.1):
            l1 = _masters.solve_adaboost_l1(A, T)
            z = -(A @ l1.w)
            u = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
            g = -(A.T @ u)
            assert l1.iterations <= 25
            assert g @ l1.w - g.min() / T <= stated(l1, 1.0 / T)
            logit = _masters.solve_logitboost(A, T)
            g = -(A.T @ expit(-(A @ logit.w)))
            assert logit.iterations <= 25
            assert g @ logit.w - g.min() / T <= stated(logit, 1.0 / T)
            stalled += l1.stalled + logit.stalled
    # a stall is the exception (floating-point rounding, depending on the BLAS and numpy build)
    assert stalled <= 2
