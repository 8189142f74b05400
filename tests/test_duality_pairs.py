"""Primal/dual pairs of Shen & Li (2010) and MCBoost solved independently with two solvers.

Tolerances.  Objective gaps are relative (``|a - b| / max(1, |a|, |b|)``).  Clarabel (interior
point) reaches gaps below 1e-6 on every pair.  The optimal *points* of exponential- and
power-cone problems are only as accurate as the square root of the objective tolerance, so
their KKT residuals are checked at 2e-5 (observed up to ~8e-6); LP/QP points at 1e-6.  SCS is a
first-order method whose exponential-cone projections limit it to gaps and residuals around
1e-5 on some instances with large weights (T = 0.1, sum w = 10), so the exponential-cone pairs
are checked at 1e-4 with SCS; LP, QP and power-cone pairs at 1e-6.  Feasibility at 1e-7.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest
from _data_helpers import requires_mirror

from marginboost.duality import (
    DualitySolverError,
    VerifyResult,
    adaboost_margins_from_dual,
    bottom_average_identity,
    build_gibbs_problem,
    build_logitboost_dual_30,
    build_logitboost_primal,
    gibbs_distribution,
    gibbs_free_energy,
    logitboost_margins_from_weights,
    lpboost_form_r_star,
    tsallis_dual_constant,
    tsallis_shannon_gaps,
    verify_adaboost_l1,
    verify_adaboost_lpboost_form,
    verify_adaboost_unnormalized,
    verify_generalized_hinge_lpboost,
    verify_gibbs_free_energy,
    verify_hard_margin_lpboost,
    verify_logitboost,
    verify_mcboost,
    verify_soft_margin_lpboost,
    verify_squared_hinge_lpboost,
    zero_temperature_limit,
)
from marginboost.duality._common import solve_problem
from marginboost.duality.entropy import shannon_entropy


def _instance(kind: str) -> tuple[np.ndarray, np.ndarray]:
    if kind == "nonseparable":
        rng = np.random.default_rng(1)
        return rng.choice([-1.0, 1.0], size=(30, 15)), rng.choice([-1.0, 1.0], size=30)
    if kind == "separable":
        rng = np.random.default_rng(2)
        H = rng.choice([-1.0, 1.0], size=(24, 12))
        return H, np.sign(H @ rng.uniform(0.0, 1.0, 12))
    if kind == "negation_closed":
        rng = np.random.default_rng(3)
        H = rng.choice([-1.0, 1.0], size=(20, 10))
        return np.hstack([H, -H]), rng.choice([-1.0, 1.0], size=20)
    if kind == "larger":
        rng = np.random.default_rng(4)
        return rng.choice([-1.0, 1.0], size=(40, 20)), rng.choice([-1.0, 1.0], size=40)
    raise AssertionError(kind)


KINDS = ["nonseparable", "separable", "negation_closed", "larger"]
SOLVERS = ["CLARABEL", "SCS"]
# (function, parameters, cone type)
CASES = [
    (verify_adaboost_l1, (0.5,), "exp"),
    (verify_adaboost_l1, (0.1,), "exp"),
    (verify_adaboost_unnormalized, (1.0,), "exp"),
    (verify_adaboost_unnormalized, (0.2,), "exp"),
    (verify_adaboost_lpboost_form, (0.5,), "exp"),
    (verify_adaboost_lpboost_form, (0.05,), "exp"),
    (verify_gibbs_free_energy, (0.5,), "exp"),
    (verify_gibbs_free_energy, (0.1,), "exp"),
    (verify_hard_margin_lpboost, (), "lp"),
    (verify_soft_margin_lpboost, (0.1,), "lp"),
    (verify_soft_margin_lpboost, (0.25,), "lp"),
    (verify_squared_hinge_lpboost, (0.2,), "qp"),
    (verify_squared_hinge_lpboost, (1.0,), "qp"),
    (verify_generalized_hinge_lpboost, (0.2, 1.5), "power"),
    (verify_generalized_hinge_lpboost, (0.2, 3.0), "power"),
    (verify_logitboost, (0.5,), "exp"),
    (verify_logitboost, (0.1,), "exp"),
    (verify_mcboost, (0.1,), "qp"),
    (verify_mcboost, (0.5,), "qp"),
]
CASE_IDS = [f"{f.__name__.removeprefix('verify_')}{list(a)}" for f, a, _ in CASES]


def _tolerances(solver: str, cone: str) -> tuple[float, float]:
    """(gap, KKT) tolerances; see the module docstring for the reasons."""
    if solver == "SCS":
        return (1e-4, 1e-4) if cone == "exp" else (1e-6, 1e-6)
    return 1e-6, (2e-5 if cone in ("exp", "power") else 1e-6)


def _check(result: VerifyResult, solver: str, cone: str) -> None:
    gap_tol, kkt_tol = _tolerances(solver, cone)
    assert result.solver == solver
    assert result.gap <= gap_tol, result
    assert result.kkt_residual <= kkt_tol, result
    assert result.constraint_violation <= 1e-7, result
    assert result.passes(gap_tol, kkt_tol, 1e-7)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_pair_strong_duality_and_kkt(case, kind, solver):
    verify, params, cone = case
    H, y = _instance(kind)
    _check(verify(H, y, *params, solver=solver), solver, cone)


@pytest.fixture(scope="module")
def stump_pool():
    from marginboost.data import load
    from marginboost.weak import BinMapper, WeakPool

    data = load("heart_statlog")
    X, y = np.asarray(data.X)[:60], np.asarray(data.y_signed())[:60]
    codes = BinMapper(max_bins=4).fit(X).transform(X)
    return np.asarray(WeakPool.all_stumps(codes).matrix(codes), dtype=float), y


@requires_mirror
@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_pair_on_decision_stumps(case, solver, stump_pool):
    verify, params, cone = case
    H, y = stump_pool
    assert set(np.unique(H)) == {-1.0, 1.0} and H.shape[0] == 60
    _check(verify(H, y, *params, solver=solver), solver, cone)


@pytest.mark.parametrize("kind", ["nonseparable", "separable"])
def test_hard_margin_lp_second_solver_highs(kind):
    H, y = _instance(kind)
    res = verify_hard_margin_lpboost(H, y, solver="HIGHS")
    ref = verify_hard_margin_lpboost(H, y)
    assert res.gap <= 1e-9 and abs(res.primal - ref.primal) <= 1e-7
    assert (res.primal > 0) == (kind == "separable")  # positive max-min margin iff separable


# ---------------------------------------------------------------------------------------------
# relations between pairs, limits and closed forms
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("T", [0.5, 0.1])
def test_unnormalized_optimum_is_exp_of_logged_optimum(T):
    H, y = _instance("nonseparable")
    logged, unlogged = verify_adaboost_l1(H, y, T), verify_adaboost_unnormalized(H, y, T)
    assert unlogged.dual == pytest.approx(np.exp(logged.primal), rel=1e-7)
    u14 = unlogged.dual_point["u"]
    np.testing.assert_allclose(u14 / u14.sum(), logged.dual_point["u"], atol=2e-5)


@pytest.mark.parametrize("kind", ["nonseparable", "separable"])
def test_margins_are_determined_by_dual_weights(kind):
    """SL (25)/(26): A w* = -log u* - Opt(5); var(margins) = var(log u*)."""
    H, y = _instance(kind)
    res = verify_adaboost_l1(H, y, 0.5)
    margins = y[:, None] * H @ res.primal_point["w"]
    recovered = adaboost_margins_from_dual(res.dual_point["u"], res.primal)
    np.testing.assert_allclose(recovered, margins, atol=1e-4)
    assert np.var(np.log(res.dual_point["u"])) == pytest.approx(np.var(margins), rel=1e-4)
    with pytest.raises(ValueError, match="u > 0"):
        adaboost_margins_from_dual(np.array([0.5, 0.5, 0.0]), 1.0)


def test_r_star_formula_and_printed_sign_typo():
    """SL Sec. 3.5 with the sign corrected matches r*; the printed +T sum u log u does not."""
    H, y = _instance("nonseparable")
    T = 0.5
    res = verify_adaboost_lpboost_form(H, y, T)
    u, margins = res.dual_point["u"], res.extras["normalized_margins"]
    r = float(res.dual_point["r"])
    assert lpboost_form_r_star(u, margins, T) == pytest.approx(r, abs=1e-5)
    printed = lpboost_form_r_star(u, margins, T) + 2 * T * float(np.sum(u * np.log(u)))
    assert abs(printed - r) > 0.1
    # r* is the largest edge (complementary slackness)
    assert r == pytest.approx(float(np.max((y[:, None] * H).T @ u)), abs=1e-6)


def test_zero_temperature_limit_reaches_hard_margin_lpboost():
    H, y = _instance("nonseparable")
    temps = [1.0, 0.1, 0.01, 0.001]
    out = zero_temperature_limit(H, y, temps)
    hard = verify_hard_margin_lpboost(H, y)
    assert out["hard_margin"] == pytest.approx(hard.primal, abs=1e-7)
    distance = np.abs(out["r_star"] - out["hard_margin"])
    assert np.all(np.diff(distance) < 0) and distance[-1] < 1e-3 and distance[0] > 1e-2
    margin_distance = np.abs(out["min_margin"] - out["hard_margin"])
    assert np.all(np.diff(margin_distance) < 0) and margin_distance[-1] < 5e-3
    np.testing.assert_allclose(out["r_star_formula"], out["r_star"], atol=1e-5)
    # r* of (15) bounds LPBoost's value from above (entropy term is <= 0 on the simplex)
    assert np.all(out["r_star"] >= out["hard_margin"] - 1e-7)
    with pytest.raises(ValueError, match="at least one"):
        zero_temperature_limit(H, y, [])


@pytest.mark.parametrize("T", [1.0, 0.2])
def test_gibbs_free_energy_closed_form(T):
    """SL (16)-(17): min over the simplex of u.v + T sum u log u, attained at exp(-v/T)."""
    v = np.random.default_rng(7).normal(size=12)
    problem, variables = build_gibbs_problem(v, T)
    value = solve_problem(problem, "CLARABEL", "free energy (16)")
    assert value == pytest.approx(gibbs_free_energy(v, T), abs=1e-7)
    np.testing.assert_allclose(variables["u"].value, gibbs_distribution(v, T), atol=1e-5)
    u = gibbs_distribution(v, T)
    assert float(u @ v + T * np.sum(u * np.log(u))) == pytest.approx(
        gibbs_free_energy(v, T), abs=1e-12
    )


def test_gibbs_minimax_equals_lpboost_form():
    H, y = _instance("separable")
    gibbs, form = verify_gibbs_free_energy(H, y, 0.3), verify_adaboost_lpboost_form(H, y, 0.3)
    assert gibbs.dual == pytest.approx(form.dual, abs=1e-7)
    np.testing.assert_allclose(gibbs.dual_point["u"], form.dual_point["u"], atol=2e-5)


@pytest.mark.parametrize("kind", ["nonseparable", "separable", "negation_closed"])
@pytest.mark.parametrize("n_bottom", [1, 3, 7])
def test_bottom_average_identity(kind, n_bottom):
    H, y = _instance(kind)
    res = bottom_average_identity(H, y, n_bottom)
    assert res.difference <= 1e-7
    assert res.bottom_average == pytest.approx(res.lp_optimum, abs=1e-7)
    # no other convex combination has a larger bottom-n' average margin
    rng = np.random.default_rng(n_bottom)
    A = y[:, None] * H
    for w in rng.dirichlet(np.ones(H.shape[1]), size=200):
        assert np.sort(A @ w)[:n_bottom].mean() <= res.lp_optimum + 1e-9
    if n_bottom == 1:
        assert res.lp_optimum == pytest.approx(verify_hard_margin_lpboost(H, y).primal, abs=1e-7)
    with pytest.raises(ValueError, match="n_bottom"):
        bottom_average_identity(H, y, H.shape[0] + 1)


def test_soft_margin_cap_structure():
    """(21)/(22): u_i = D on examples with margin below rho*, 0 above it."""
    H, y = _instance("nonseparable")
    D = 0.1
    res = verify_soft_margin_lpboost(H, y, D)
    margins = y[:, None] * H @ res.primal_point["w"]
    rho, u = float(res.primal_point["rho"]), res.dual_point["u"]
    below, above = margins < rho - 1e-6, margins > rho + 1e-6
    np.testing.assert_allclose(u[below], D, atol=1e-6)
    np.testing.assert_allclose(u[above], 0.0, atol=1e-6)


def test_generalized_hinge_p2_is_squared_hinge():
    H, y = _instance("separable")
    assert tsallis_dual_constant(0.2, 2.0) == pytest.approx(1.0 / (4 * 0.2))
    gen, sq = (
        verify_generalized_hinge_lpboost(H, y, 0.2, 2.0),
        verify_squared_hinge_lpboost(H, y, 0.2),
    )
    assert gen.dual == pytest.approx(sq.dual, abs=1e-7)
    assert gen.primal == pytest.approx(sq.primal, abs=1e-7)


def test_tsallis_tends_to_shannon():
    u = np.random.default_rng(5).dirichlet(np.ones(12))
    ks = np.arange(1, 7)
    for sign in (1.0, -1.0):
        gaps = tsallis_shannon_gaps(u, 1.0 + sign * 10.0**-ks)
        assert np.all(np.diff(gaps) < 0)
        ratios = gaps / 10.0**-ks  # |S_q - S_1| = O(|q - 1|)
        assert np.all(ratios > 1e-3) and np.all(ratios < 10) and ratios.max() / ratios.min() < 2
    assert tsallis_shannon_gaps(u, [1.0])[0] == 0.0 and shannon_entropy(u) > 0


@pytest.mark.parametrize("T", [0.5, 0.1])
def test_logitboost_dual_30_and_inverse_map(T):
    H, y = _instance("nonseparable")
    res = verify_logitboost(H, y, T)
    problem, variables = build_logitboost_dual_30(H, y, T)
    value = solve_problem(problem, "CLARABEL", "dual (30)")
    assert value == pytest.approx(res.primal, rel=1e-7)
    np.testing.assert_allclose(-variables["u"].value, res.dual_point["u"], atol=2e-5)
    u = res.dual_point["u"]
    margins = y[:, None] * H @ res.primal_point["w"]
    np.testing.assert_allclose(logitboost_margins_from_weights(u), margins, atol=1e-3)
    clear = np.abs(margins) > 1e-3  # z* > 0  <=>  u* < 1/2  (KKT (33))
    assert clear.sum() >= H.shape[0] // 2
    np.testing.assert_array_equal(margins[clear] > 0, u[clear] < 0.5)
    problem, _ = build_logitboost_primal(H, y, T)
    assert solve_problem(problem, "SCS", "primal (32)") == pytest.approx(res.primal, rel=1e-6)


def test_mcboost_margins_agree_across_solvers_and_r_star():
    H, y = _instance("nonseparable")
    a, b = verify_mcboost(H, y, 0.3, solver="CLARABEL"), verify_mcboost(H, y, 0.3, solver="SCS")
    np.testing.assert_allclose(a.extras["margins"], b.extras["margins"], atol=1e-5)
    assert float(a.dual_point["r"]) == pytest.approx(
        float(a.dual_point["u"] @ a.extras["margins"]), abs=1e-7
    )
    assert a.primal == pytest.approx(-a.dual, abs=1e-7)


# ---------------------------------------------------------------------------------------------
# bad input and solver failures
# ---------------------------------------------------------------------------------------------

H_SMALL, Y_SMALL = _instance("nonseparable")


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: verify_adaboost_l1(H_SMALL, Y_SMALL, 0.0), "T must be finite and > 0"),
        (lambda: verify_adaboost_unnormalized(H_SMALL, Y_SMALL, -1.0), "T must be finite and > 0"),
        (lambda: verify_adaboost_lpboost_form(H_SMALL, Y_SMALL, float("nan")), "T must be"),
        (lambda: verify_gibbs_free_energy(H_SMALL, Y_SMALL, 0), "T must be"),
        (lambda: verify_logitboost(H_SMALL, Y_SMALL, -0.5), "T must be finite and > 0"),
        (lambda: verify_soft_margin_lpboost(H_SMALL, Y_SMALL, 0.02), r"D must be >= 1/M = 1/30"),
        (lambda: verify_soft_margin_lpboost(H_SMALL, Y_SMALL, 0.0), "D must be finite and > 0"),
        (lambda: verify_squared_hinge_lpboost(H_SMALL, Y_SMALL, -0.2), "D must be"),
        (
            lambda: verify_generalized_hinge_lpboost(H_SMALL, Y_SMALL, 0.2, 1.0),
            "p must be finite and > 1",
        ),
        (lambda: verify_generalized_hinge_lpboost(H_SMALL, Y_SMALL, 0.2, 0.5), "p > 1"),
        (lambda: verify_mcboost(H_SMALL, Y_SMALL, 0.0), "E must be finite and > 0"),
        (lambda: verify_mcboost(H_SMALL, Y_SMALL, -0.3), "target margin"),
        (lambda: verify_hard_margin_lpboost(H_SMALL[:, 0], Y_SMALL), "2-D array"),
        (lambda: verify_hard_margin_lpboost(H_SMALL, Y_SMALL[:-1]), "one label per row of H"),
        (lambda: verify_hard_margin_lpboost(H_SMALL, np.where(Y_SMALL > 0, 1, 0)), "-1 or \\+1"),
        (lambda: verify_mcboost(np.full((3, 2), np.inf), np.ones(3), 0.5), "finite"),
    ],
)
def test_bad_parameters_raise_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_non_numeric_parameter_raises_type_error():
    with pytest.raises(TypeError, match="T must be a real number"):
        verify_adaboost_l1(H_SMALL, Y_SMALL, "0.5")


def test_solver_not_installed_raises_duality_solver_error():
    with pytest.raises(DualitySolverError, match="'NO_SUCH_SOLVER' is not installed"):
        verify_mcboost(H_SMALL, Y_SMALL, 0.5, solver="NO_SUCH_SOLVER")


def test_solver_stopped_early_raises_duality_solver_error():
    with pytest.raises(
        DualitySolverError,
        match=r"AdaBoost-l1 primal \(5\): solver SCS ended "
        r"with status",
    ):
        verify_adaboost_l1(H_SMALL, Y_SMALL, 0.5, solver="SCS", solver_options={"max_iters": 2})


def test_infeasible_problem_raises_duality_solver_error():
    x = cp.Variable()
    problem = cp.Problem(cp.Minimize(x), [x >= 1, x <= 0])
    with pytest.raises(
        DualitySolverError, match="toy problem: solver CLARABEL ended with status 'infeasible'"
    ):
        solve_problem(problem, "CLARABEL", "toy problem")


def test_verify_result_passes_uses_all_three_tolerances():
    res = verify_hard_margin_lpboost(H_SMALL, Y_SMALL)
    assert res.passes()
    assert not res.passes(gap_tol=-1.0)
    assert not res.passes(kkt_tol=-1.0)
    assert not res.passes(constraint_tol=-1.0)


@pytest.mark.parametrize("p", [1.5, 3.0])
def test_generalized_hinge_reports_the_conjugate_exponent_and_the_slacks_from_the_dual(p):
    """The dual of the p-hinge uses the conjugate exponent q = p/(p - 1), and the slacks follow
    from the dual weights as xi_i = (u_i / (p D))^(1/(p - 1))."""
    H, y = _instance("nonseparable")
    res = verify_generalized_hinge_lpboost(H, y, 0.2, p)
    assert res.extras["q"] == pytest.approx(p / (p - 1.0), rel=1e-15)
    assert 1.0 / p + 1.0 / res.extras["q"] == pytest.approx(1.0)
    u = np.clip(res.dual_point["u"], 0.0, None)
    np.testing.assert_allclose(res.extras["xi_from_dual"], (u / (p * 0.2)) ** (1.0 / (p - 1.0)))


def test_relative_gap_is_absolute_below_one_and_relative_above():
    """The gaps reported for every pair: |a - b| / max(1, |a|, |b|)."""
    from marginboost.duality._common import relative_gap

    assert relative_gap(0.5, 0.25) == 0.25
    assert relative_gap(-1.5, -1.2) == pytest.approx(0.2, rel=1e-12)
    assert relative_gap(10.0, 9.0) == pytest.approx(0.1, rel=1e-12)
    assert relative_gap(3.0, 3.0) == 0.0
