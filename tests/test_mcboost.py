"""MCBoost (Guo & Chen): its column generation against a cvxpy solve over the full stump pool,
the KKT map (17) of the dual (19), and bad input."""
from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest

from marginboost import MCBoost
from marginboost.boosting._masters import solve_mcboost


def _data(seed: int, n: int = 60, d: int = 3):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)), 1)
    y = np.where(X[:, 0] - 0.7 * X[:, 1] + 0.6 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def _stump_pool(X, y):
    """y_i h(x_i) for every stump ``sign * (x_f > t)`` (thresholds between distinct values),
    both signs, and the two constant classifiers (a stump whose leaves agree): the whole
    hypothesis space of depth-1 trees on X."""
    columns = [y.astype(float), -y.astype(float)]
    for f in range(X.shape[1]):
        values = np.unique(X[:, f])
        for t in (values[:-1] + values[1:]) / 2:
            h = np.where(X[:, f] > t, 1.0, -1.0)
            columns += [y * h, -y * h]
    return np.unique(np.column_stack(columns), axis=1)


def _cvxpy_optimum(A, E):
    w = cp.Variable(A.shape[1], nonneg=True)
    problem = cp.Problem(cp.Minimize(cp.sum_squares(A @ w - E)), [cp.sum(w) == 1])
    problem.solve(solver="CLARABEL")
    assert problem.status == "optimal"
    return float(problem.value)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("E", [0.05, 0.3, 0.8])
def test_column_generation_reaches_the_optimum_over_all_stumps(seed, E):
    X, y = _data(seed)
    model = MCBoost(E=E, epsilon=1e-7, n_estimators=500).fit(X, y)
    assert model.converged_
    margins = y * model.decision_function(X)  # normalized: the weights sum to 1
    assert model.alphas_.sum() == pytest.approx(1.0, abs=1e-9)
    ours = float(np.sum((margins - E) ** 2))
    reference = _cvxpy_optimum(_stump_pool(X, y), E)
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
    assert primal_12 + E ** 2 * len(rho) == pytest.approx(solution.objective, rel=1e-12)
    assert solution.objective == pytest.approx(_cvxpy_optimum(A, E), rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("E", [0.0, -0.2, np.nan, np.inf])
def test_bad_target_margin_is_rejected(E):
    X, y = _data(0)
    with pytest.raises(ValueError, match="E"):
        MCBoost(E=E).fit(X, y)


def test_three_labels_are_rejected():
    X, y = _data(1)
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
    assert E ** 2 * problem.value == pytest.approx(float(np.sum((A @ w - E) ** 2)), rel=1e-6)
