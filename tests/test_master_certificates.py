"""The restricted master solvers of ``boosting/_masters.py`` checked against independent
computations: the HiGHS model that :class:`LPBoostMaster` builds (its columns, rows and bounds)
and its pivot-limit bookkeeping (``perturbed_restarts``), its optimum against
``scipy.optimize.linprog``; and, for :func:`solve_simplex_smooth`, the documented rules for
when the Newton polish runs, when the stall rule accepts a point (``stalled``), and that a
polish never returns a worse point.  Certificates (duality gaps, optimality bounds) are
recomputed here from the returned points and the definitions, not from the package."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from marginboost.boosting import _masters

RTOL = 1e-8  # LP vertex against linprog's vertex (both HiGHS, different models)


def pm1_columns(seed: int, M: int, J: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.where(rng.random((M, J)) < 0.55, 1.0, -1.0)


def linprog_dual(A: np.ndarray, D: float | None) -> float:
    """Shen & Li (20)/(22) as a plain LP for scipy: min r s.t. A^T u <= r, sum u = 1, 0<=u<=D."""
    M, J = A.shape
    cost = np.zeros(M + 1)
    cost[M] = 1.0
    A_ub = np.hstack([A.T, -np.ones((J, 1))])
    A_eq = np.append(np.ones(M), 0.0)[None, :]
    bounds = [(0.0, D)] * M + [(None, None)]
    res = linprog(cost, A_ub=A_ub, b_ub=np.zeros(J), A_eq=A_eq, b_eq=[1.0], bounds=bounds)
    assert res.status == 0
    return float(res.fun)


# ---- LPBoostMaster: the HiGHS model ------------------------------------------------------
@pytest.mark.parametrize("D", [None, 0.1])
def test_highs_model_has_the_variables_u_and_r_and_one_row_per_column(D):
    """Variables u_0..u_{M-1} in [0, D] (or [0, inf)) and r free with cost 1; row 0 is
    sum u = 1 and every added column is one more row.  Read back from the HiGHS model."""
    M = 30
    A = pm1_columns(0, M, 8)
    master = _masters.LPBoostMaster(M, D)
    highs = master._highs
    assert (highs.getNumCol(), highs.getNumRow()) == (M + 1, 1)
    master.add_columns(A[:, :5])
    master.add_column(A[:, 5])
    assert (highs.getNumCol(), highs.getNumRow()) == (M + 1, 1 + 6)
    lp = highs.getLp()
    inf = highs.getInfinity()
    np.testing.assert_array_equal(lp.col_cost_, np.append(np.zeros(M), 1.0))
    np.testing.assert_array_equal(lp.col_lower_, np.append(np.zeros(M), -inf))
    np.testing.assert_array_equal(
        lp.col_upper_, np.append(np.full(M, inf if D is None else D), inf)
    )
    solution = master.solve()
    assert solution.u.shape == (M,) and solution.w.shape == (6,)
    assert solution.objective == pytest.approx(linprog_dual(A[:, :6], D), rel=RTOL, abs=1e-12)
    assert highs.getNumCol() == M + 1


# ---- LPBoostMaster: the pivot limit of the unperturbed dual simplex ----------------------
@pytest.mark.parametrize("D", [None, 0.05])
def test_unperturbed_pivot_limit_is_base_plus_per_row_times_rows(D, monkeypatch):
    """The unperturbed run may make ``base + per_row * (n_columns + 1)`` pivots; when it hits
    that limit the solve is continued with perturbation (``perturbed_restarts`` counts it).
    With the pivots p of an unlimited cold solve: a limit of 2p is never reached (same pivots,
    no restart), a limit of p // 2 is (one restart), and ``base = 0`` leaves the limit
    ``per_row * (n_columns + 1)``, here far above p.  Every solve reaches the linprog optimum."""
    M, J = 120, 10
    A = pm1_columns(1, M, J)
    reference = linprog_dual(A, D)

    def solve(limit):
        master = _masters.LPBoostMaster(M, D)
        if limit is not None:
            monkeypatch.setattr(master, "_unperturbed_pivot_limit", limit)
        master.add_columns(A)
        solution = master.solve()
        assert solution.objective == pytest.approx(reference, rel=RTOL, abs=1e-12)
        return solution, master.perturbed_restarts

    free, restarts = solve((10**9, 0))
    p = free.iterations
    assert restarts == 0 and p > 2 * (J + 1)  # enough pivots for the limits below
    rows = J + 1
    for limit, expected in [
        ((2 * p - rows, 1), 0),
        ((0, 10**6), 0),
        ((p // 2 - rows, 1), 1),
    ]:
        solution, restarts = solve(limit)
        assert restarts == expected, limit
        if expected == 0:
            assert solution.iterations == p  # the same unperturbed run
        else:
            assert solution.iterations >= p // 2  # the limited run, then the continuation


# ---- solve_simplex_smooth: when the Newton polish runs -----------------------------------
def test_newton_polish_runs_only_when_the_gap_is_small_or_has_halved():
    """After the first iteration the polish runs (at most every 20 iterations) only when the
    Frank-Wolfe gap is below 1e-3 max(1, |f|) or at most half the gap after the last polish.
    The Hessian given here yields ascent directions (-I), so each polish stops at its first
    step without moving: every call is one polish, at a point whose f and gap are recorded.
    The problem is an ill-conditioned quadratic with minimum 0 at the simplex centre."""
    n = 6
    lam = 1e3 * np.logspace(-3, 0, n)
    centre = np.full(n, 1.0 / n)

    def value_grad(w):
        d = w - centre
        return 0.5 * float(d @ (lam * d)), lam * d

    polishes = []

    def hessian(w, S):
        f, g = value_grad(w)
        polishes.append((f, float(g @ w - g.min())))
        return -np.eye(S.size)

    w, f, gap, iterations, stalled = _masters.solve_simplex_smooth(
        value_grad, n, 1.0, np.eye(n)[0], hessian=hessian, max_iter=5000
    )
    assert len(polishes) >= 3 and iterations > 40
    for (_, before), (f_k, gap_k) in zip(polishes, polishes[1:]):
        assert gap_k <= 1e-3 * max(1.0, abs(f_k)) or gap_k <= 0.5 * before
    # the returned point is certified by its own gap (min f = 0)
    f_here, g = value_grad(w)
    assert f == f_here and gap == pytest.approx(float(g @ w - g.min()), rel=1e-12, abs=1e-300)
    assert f <= gap + 1e-15
    assert gap <= (1e-6 if stalled else 1e-10) * max(1.0, abs(f))


# ---- solve_simplex_smooth: the stall rule ------------------------------------------------
def test_objective_in_single_precision_stops_by_the_stall_rule():
    """f(w) = 1 + |w - c|^2 / 2 evaluated in float32 (gradient in float64): once f stops
    changing at float32 resolution no decrease is seen for 100 iterations, and the point is
    accepted by the stall rule (``stalled``) with its gap within stall_rtol * max(1, |f|, s),
    instead of iterating on to ``max_iter``.  Its true f - min f is at most that gap."""
    centre = np.array([0.4, 0.3, 0.2, 0.1])

    def value_grad(w):
        d = w - centre
        return float(np.float32(1.0 + 0.5 * float(d @ d))), d

    stall_rtol = 1e-3
    w, f, gap, iterations, stalled = _masters.solve_simplex_smooth(
        value_grad, 4, 1.0, stall_rtol=stall_rtol, max_iter=2000
    )
    assert stalled and iterations < 2000
    d = w - centre
    assert gap == pytest.approx(float(d @ w - d.min()), rel=1e-12)
    assert 1e-10 * max(1.0, abs(f)) < gap <= stall_rtol * max(1.0, abs(f), 1.0)
    assert 0.5 * float(d @ d) <= gap
    assert w.sum() == pytest.approx(1.0, abs=1e-12) and (w >= 0).all()


@pytest.mark.parametrize("top", [1e2, 1e3, 1e4])
def test_scaling_the_objective_by_a_power_of_two_changes_nothing(top):
    """Every test of the solver is relative (``max(1, |f|)``), so minimising 1024 f instead of
    f (f >= 1, Hessian >= I, so the backtracking starts from the same point) gives the same
    iterates in exact arithmetic and in floating point: the same weights, the same number of
    iterations and the same stop, here the stall rule (no decrease above 1e-15 |f| in 100
    iterations on an ill-conditioned quadratic)."""
    lam = np.logspace(0, np.log10(top), 5)
    centre = np.array([0.4, 0.3, 0.2, 0.1, 0.0]) + 1e-3  # just outside the simplex

    def scaled(k):
        def value_grad(w):
            d = w - centre
            return k * (1.0 + 0.5 * float(d @ (lam * d))), k * (lam * d)

        return value_grad

    w1, f1, gap1, n1, stalled1 = _masters.solve_simplex_smooth(scaled(1.0), 5, 1.0, rtol=1e-300)
    wk, fk, gapk, nk, stalledk = _masters.solve_simplex_smooth(scaled(1024.0), 5, 1.0, rtol=1e-300)
    assert stalled1 and stalledk and nk == n1
    np.testing.assert_array_equal(wk, w1)
    assert (fk, gapk) == (1024.0 * f1, 1024.0 * gap1)


# ---- _newton_polish: never a worse point ------------------------------------------------
def test_newton_polish_backtracks_an_overshooting_step_and_never_returns_a_worse_point():
    """f(w) = lam/2 (w_0 - c)^2 on {w >= 0, w_0 + w_1 = 1}, at w_0 = c + e, with a Hessian
    three times too small: the full Newton step lands at c - 2e (f four times larger, though
    the gap there is smaller).  Armijo backtracking halves it to c - e/2 (f a quarter): one
    step gives exactly that point, and further steps keep decreasing f."""
    lam, c, e = 2.0, 0.9, 0.01

    def value_grad(w):
        return 0.5 * lam * (w[0] - c) ** 2, np.array([lam * (w[0] - c), 0.0])

    def weak_hessian(w, S):
        return np.diag([lam / 3.0, 0.0])[np.ix_(S, S)]

    w = np.array([c + e, 1.0 - c - e])
    f, g = value_grad(w)
    w1, f1, g1 = _masters._newton_polish(value_grad, weak_hessian, w, f, g, 1.0, 0.0, max_steps=1)
    np.testing.assert_allclose(w1, [c - e / 2, 1.0 - c + e / 2], rtol=0, atol=1e-12)
    assert f1 == pytest.approx(f / 4, rel=1e-9)
    assert (f1, g1.tolist()) == (value_grad(w1)[0], value_grad(w1)[1].tolist())
    previous = f
    for steps in range(1, 6):
        _, f_k, _ = _masters._newton_polish(
            value_grad, weak_hessian, w, f, g, 1.0, 0.0, max_steps=steps
        )
        assert f_k <= previous
        previous = f_k
    assert previous < 1e-3 * f


# ---- solve_simplex_smooth: the iteration cap ---------------------------------------------
def test_max_iter_is_the_number_of_iterations_allowed():
    """A run that ends at iteration N returns the same point with ``max_iter = N`` and raises
    with ``max_iter = N - 1`` (the iterates do not depend on the cap)."""
    lam = np.logspace(-2, 0, 5)
    centre = np.array([0.3, 0.25, 0.2, 0.15, 0.1])

    def value_grad(w):
        d = w - centre
        return 0.5 * float(d @ (lam * d)), lam * d

    w, f, gap, N, _ = _masters.solve_simplex_smooth(value_grad, 5, 1.0, rtol=1e-6)
    assert N > 2 and gap <= 1e-6 and f <= gap
    again = _masters.solve_simplex_smooth(value_grad, 5, 1.0, rtol=1e-6, max_iter=N)
    np.testing.assert_array_equal(again[0], w)
    assert again[3] == N
    message = f"FISTA did not reach the duality gap 1e-06 in {N - 1} iterations"
    with pytest.raises(_masters.MasterSolverError, match=message):
        _masters.solve_simplex_smooth(value_grad, 5, 1.0, rtol=1e-6, max_iter=N - 1)


def test_stall_flag_marks_points_accepted_above_rtol():
    """Converged (gap <= rtol max(1, |f|)): ``stalled`` False.  With rtol = 1e-10 the same
    ill-conditioned quadratic (min 0) stops when rounding stops the descent, with a gap above
    rtol but within the stall bound: ``stalled`` True."""
    lam = np.logspace(-2, 0, 5)
    centre = np.array([0.3, 0.25, 0.2, 0.15, 0.1])

    def value_grad(w):
        d = w - centre
        return 0.5 * float(d @ (lam * d)), lam * d

    for rtol in (1e-6, 1e-10):
        w, f, gap, _, stalled = _masters.solve_simplex_smooth(value_grad, 5, 1.0, rtol=rtol)
        g = value_grad(w)[1]
        assert gap == pytest.approx(float(g @ w - g.min()), rel=1e-12, abs=1e-300)
        assert stalled is (gap > rtol * max(1.0, abs(f)))
        assert gap <= 1e-6 * max(1.0, abs(f)) and f <= gap
    assert stalled  # rtol = 1e-10 is below what rounding of f allows here


# ---- project_scaled_simplex ---------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("scale", [1.0, 0.2, 7.5])
def test_projection_matches_the_threshold_found_by_bisection(seed, scale):
    """The projection is max(v - tau, 0) with sum = scale; tau found here by bisection."""
    v = np.random.default_rng(seed).normal(size=9) * 0.3 * scale
    low, high = v.min() - scale, v.max()
    for _ in range(200):
        tau = 0.5 * (low + high)
        low, high = (tau, high) if np.maximum(v - tau, 0.0).sum() > scale else (low, tau)
    expected = np.maximum(v - 0.5 * (low + high), 0.0)
    w = _masters.project_scaled_simplex(v, scale)
    np.testing.assert_allclose(w, expected, rtol=0, atol=1e-12 * max(1.0, scale))
    assert w.sum() == pytest.approx(scale, rel=1e-12)
    assert 2 <= (expected > 0).sum() < v.size  # several entries kept, some cut


# ---- the entropy masters' duality gaps ---------------------------------------------------
@pytest.mark.parametrize("T", [0.5, 0.1])
def test_entropy_masters_report_the_gap_of_their_dual_points(T):
    """duality_gap = r + T sum(u log u) + T Opt(5) for AdaBoost-l1 and
    r + T sum[u log u + (1-u) log(1-u)] + T Opt(32) for LogitBoost, recomputed from the
    returned w (objective, u = KKT map, r = largest edge)."""
    from scipy.special import expit, logsumexp, softmax, xlogy

    A = pm1_columns(7, 40, 12)
    l1 = _masters.solve_adaboost_l1(A, T)
    value = float(logsumexp(-(A @ l1.w)))
    u = softmax(-(A @ l1.w))
    r = float((A.T @ u).max())
    assert l1.objective == pytest.approx(value, rel=1e-12)
    np.testing.assert_allclose(l1.u, u, rtol=1e-12, atol=1e-15)
    assert l1.r == pytest.approx(r, rel=1e-12, abs=1e-15)
    gap = r + T * float(xlogy(u, u).sum()) + T * value
    assert l1.duality_gap == pytest.approx(max(gap, 0.0), rel=1e-6, abs=1e-12)

    logit = _masters.solve_logitboost(A, T)
    z = A @ logit.w
    value = float(np.logaddexp(0.0, -z).sum())
    u = expit(-z)
    r = float((A.T @ u).max())
    gap = r + T * float((xlogy(u, u) + xlogy(1.0 - u, 1.0 - u)).sum()) + T * value
    assert logit.objective == pytest.approx(value, rel=1e-12)
    assert logit.duality_gap == pytest.approx(max(gap, 0.0), rel=1e-6, abs=1e-12)
    assert logit.duality_gap <= 1e-8


# ---- _newton_polish: nothing to do ---------------------------------------------------------
def test_newton_polish_returns_its_input_when_the_gap_already_meets_the_target():
    centre = np.array([0.5, 0.3, 0.2])

    def value_grad(w):
        d = w - centre
        return 0.5 * float(d @ d), d

    w = np.array([0.4, 0.4, 0.2])
    f, g = value_grad(w)
    gap = float(g @ w - g.min())
    calls = []

    def hessian(w, S):
        calls.append(S)
        return np.eye(S.size)

    out, f_out, g_out = _masters._newton_polish(value_grad, hessian, w, f, g, 1.0, gap)
    assert out is w and f_out == f and g_out is g and not calls
    # with a smaller target one exact Newton step on the support reaches the minimum
    out, f_out, _ = _masters._newton_polish(value_grad, hessian, w, f, g, 1.0, 0.5 * gap)
    np.testing.assert_allclose(out, centre, atol=1e-12)
    assert f_out <= 1e-20 and len(calls) == 1


# ---- generalized-hinge dual ---------------------------------------------------------------
def test_hinge_dual_is_feasible_and_optimal():
    """(27)/(28) for p = 2: (u, r) feasible (A^T u <= r, u >= 0, sum u = 1) and its value
    matches the value of the primal max rho - D sum xi^2 at the returned w."""
    A = pm1_columns(2, 25, 6)
    D = 0.5
    sol = _masters.solve_hinge_dual(A, D, 2.0)
    assert (A.T @ sol.u).max() <= sol.r + 1e-7
    assert sol.u.sum() == pytest.approx(1.0, abs=1e-7)
    coefficient = D ** (1.0 - 2.0) * (2.0 ** (1.0 - 2.0) - 2.0 ** (-2.0))
    assert sol.objective == pytest.approx(sol.r + coefficient * float(sol.u @ sol.u), abs=1e-7)
    # primal at w: max over rho of rho - D sum (rho - m_i)_+^2 (concave in rho)
    from scipy.optimize import minimize_scalar

    margins = A @ (sol.w / sol.w.sum())
    best = minimize_scalar(
        lambda rho: -(rho - D * float((np.maximum(rho - margins, 0.0) ** 2).sum())),
        bounds=(margins.min() - 1.0, margins.max() + 1.0),
        method="bounded",
        options={"xatol": 1e-10},
    )
    assert -best.fun == pytest.approx(sol.objective, abs=1e-6)
