"""MCBoost (Guo & Chen): its column generation against a cvxpy solve over the full stump pool,
the KKT map (17) of the dual (19), and bad input."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest
from _cg_helpers import converged_margins, simplex_optimum, small_data, stump_pool

from marginboost import MCBoost
from marginboost.boosting._masters import solve_mcboost


def _cvxpy_optimum(A, E):
    return simplex_optimum(A, lambda rho: cp.Minimize(cp.sum_squares(rho - E)))[0]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("E", [0.05, 0.3, 0.8])
def test_column_generation_reaches_the_optimum_over_all_stumps(seed, E):
    X, y = small_data(seed)
    margins = converged_margins(MCBoost(E=E, tol=1e-7, n_estimators=500), X, y)
    ours = float(np.sum((margins - E) ** 2))
    reference = _cvxpy_optimum(stump_pool(X, y), E)
    assert ours == pytest.approx(reference, rel=1e-5, abs=1e-7)


@pytest.mark.parametrize("seed", [3, 4])
def test_master_kkt_map(seed):
    rng = np.random.default_rng(seed)
    A = rng.choice([-1.0, 1.0], size=(40, 12))
    E = 0.4
    solution = solve_mcboost(A, E)
    rho = A @ solution.w
    assert solution.w.min() >= 0 and solution.w.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(solution.u, 2 * (E - rho))  # eq. (17): rho = E - u / 2
    edges = A.T @ solution.u
    support = solution.w > 1e-8
    # complementary slackness: the support attains r, no column exceeds it
    np.testing.assert_allclose(edges[support], solution.r, atol=1e-6)
    assert edges.max() <= solution.r + 1e-9
    # strong duality: (19) is the Lagrange dual of (12) written as a minimization (the dual
    # function at -u is -(r + |u - 2E1|^2 / 4)), so its optimal value is minus that of (12)
    dual = solution.r + 0.25 * np.sum((solution.u - 2 * E) ** 2)
    primal_12 = float(rho @ rho - 2 * E * rho.sum())
    assert dual == pytest.approx(-primal_12, abs=1e-6)
    assert primal_12 + E**2 * len(rho) == pytest.approx(solution.objective, rel=1e-12)
    assert solution.objective == pytest.approx(_cvxpy_optimum(A, E), rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("E", [0.0, -0.2, np.nan, np.inf])
def test_bad_target_margin_is_rejected(E):
    X, y = small_data(0)
    with pytest.raises(ValueError, match="E"):
        MCBoost(E=E).fit(X, y)


def test_three_labels_are_rejected():
    X, y = small_data(1)
    y = np.where(X[:, 2] > 0.5, 2, y)
    with pytest.raises(ValueError, match="Only binary classification"):
        MCBoost().fit(X, y)


@pytest.mark.parametrize("E", [0.2, 0.6])
def test_mcboost_is_l1_constrained_l2boost(E):
    """Eq. (20): with v = w / E, sum_i (rho_i - E)^2 = E^2 sum_i ((A v)_i - 1)^2, so MCBoost's
    master is L2Boost's squared loss under ||v||_1 = 1 / E; solved independently by cvxpy."""
    rng = np.random.default_rng(5)
    A = rng.choice([-1.0, 1.0], size=(50, 15))
    w = solve_mcboost(A, E).w
    v = cp.Variable(A.shape[1], nonneg=True)
    problem = cp.Problem(cp.Minimize(cp.sum_squares(A @ v - 1)), [cp.sum(v) == 1 / E])
    problem.solve(solver="CLARABEL")
    assert problem.status == "optimal"
    np.testing.assert_allclose(A @ (w / E), A @ v.value, atol=1e-5)  # margins are unique
    assert E**2 * problem.value == pytest.approx(float(np.sum((A @ w - E) ** 2)), rel=1e-6)


# ---- the E limits of Guo & Chen, Sec. 5 (Fig. 1): small E overfits, large E underfits
E_GRID = (0.05, 0.3, 0.9, 2.0)


@pytest.fixture(scope="module", params=[0, 1])
def toy_fits(request):
    """MCBoost with the paper's settings (epsilon 1e-5, N_max 1000) on 200 noisy toy points,
    one fit per E of ``E_GRID``: (y, {E: (model, training margins)})."""
    from marginboost.data import mcboost_toy

    ds = mcboost_toy(200, seed=request.param)
    X, y = ds.X, ds.y_signed()
    fits = {}
    for E in E_GRID:
        model = MCBoost(E=E)
        fits[E] = model, converged_margins(model, X, y)
    return y, fits


def test_small_E_needs_more_base_classifiers_and_fits_the_training_set(toy_fits):
    """Fig. 1 (bottom-left, top-right): the number of iterations (base classifiers) decreases
    as E increases, and the training error grows."""
    _, fits = toy_fits
    iterations = [fits[E][0].n_iterations_ for E in E_GRID]
    errors = [float(np.mean(fits[E][1] <= 0)) for E in E_GRID]
    assert iterations[0] > iterations[2]  # E = 0.05 against E = 0.9
    assert errors[0] <= errors[2]
    assert all(a >= b for a, b in zip(iterations, iterations[1:])), iterations
    assert all(a <= b for a, b in zip(errors, errors[1:])), errors
    assert iterations[0] >= 3 * iterations[2]


def test_large_E_pulls_the_mean_margin_up_with_a_small_ensemble(toy_fits):
    """Fig. 1 (bottom-middle, bottom-right): mean margin and margin variance grow with E; with
    E large the ensemble is a handful of stumps."""
    _, fits = toy_fits
    means = [float(fits[E][1].mean()) for E in E_GRID]
    variances = [float(fits[E][1].var()) for E in E_GRID]
    assert all(a < b for a, b in zip(means, means[1:])), means
    assert all(a < b for a, b in zip(variances, variances[1:])), variances
    small_E, large_E = fits[E_GRID[0]][0], fits[E_GRID[-1]][0]
    assert large_E.n_iterations_ <= 15 and 5 * large_E.n_iterations_ <= small_E.n_iterations_


def test_very_large_E_is_the_best_single_stump():
    r"""As :math:`E \to \infty` the objective :math:`\|Aw\|^2 - 2E\mathbf 1^\top Aw + ME^2`
    is dominated by the mean margin, maximized over the simplex at the stump with the largest
    mean margin: the first oracle column (uniform weights).  When that stump j is unique (it is
    here) and :math:`E > M`, no column k can enter: the entries are +-1, so
    :math:`\mathbf 1^\top(A_j - A_k) \ge 2` and :math:`A_k^\top A_j \ge -M`, and moving weight
    from j to k changes the objective at the rate
    :math:`2(A_k - A_j)^\top(A_j - E\mathbf 1) \ge 2(-2M + 2E) > 0`."""
    from marginboost.data import mcboost_toy

    ds = mcboost_toy(200, seed=0)
    X, y = ds.X, ds.y_signed()
    model = MCBoost(E=10.0 * len(y)).fit(X, y)
    assert model.converged_ and model.n_iterations_ == 1
    margins = y * model.decision_function(X)
    assert margins.mean() == pytest.approx(model.history_["edge"][0], abs=1e-12)
