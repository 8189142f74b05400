"""MCBoost as constrained and lasso-penalized L2Boost (Guo & Chen eqs. (20)-(21)), each side
solved independently: MCBoost's master by our simplex least-squares solver, L2Boost by cvxpy."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest

from marginboost.boosting._masters import solve_mcboost


def _negation_closed_pool(seed: int, M: int = 60, N: int = 12) -> np.ndarray:
    rng = np.random.default_rng(seed)
    H = rng.choice([-1.0, 1.0], size=(M, N))
    y = np.where(H[:, :3].sum(axis=1) + rng.normal(0, 1.5, M) > 0, 1.0, -1.0)
    H = np.hstack([H, -H])
    return y[:, None] * H


def _solve(problem: cp.Problem) -> None:
    problem.solve(solver="CLARABEL")
    assert problem.status == "optimal", problem.status


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("E", [0.15, 0.5])
def test_equality_and_inequality_l1_constraints_give_the_same_fit(seed, E):
    """With a negation-closed pool, ||v||_1 = 1/E and ||v||_1 <= 1/E give the same margins:
    any slack can be spent on a pair (h, -h), which leaves F unchanged."""
    A = _negation_closed_pool(seed)
    v_eq = cp.Variable(A.shape[1], nonneg=True)
    eq = cp.Problem(cp.Minimize(cp.sum_squares(A @ v_eq - 1)), [cp.sum(v_eq) == 1 / E])
    v_le = cp.Variable(A.shape[1], nonneg=True)
    le = cp.Problem(cp.Minimize(cp.sum_squares(A @ v_le - 1)), [cp.sum(v_le) <= 1 / E])
    _solve(eq)
    _solve(le)
    assert eq.value == pytest.approx(le.value, rel=1e-6, abs=1e-8)
    np.testing.assert_allclose(A @ v_eq.value, A @ v_le.value, atol=1e-5)
    # and both are MCBoost's fit scaled by 1/E
    w = solve_mcboost(A, E).w
    np.testing.assert_allclose(A @ w / E, A @ v_eq.value, atol=1e-5)


@pytest.mark.parametrize("seed", [2, 3])
@pytest.mark.parametrize("lam", [0.5, 2.0, 8.0])
def test_lasso_l2boost_solves_mcboost_with_E_from_its_l1_norm(seed, lam):
    """Eq. (21): the lasso-penalized L2Boost solution v_lam (v >= 0) solves (20) with
    E = 1 / ||v_lam||_1, i.e. E * v_lam has MCBoost's margins for that E."""
    A = _negation_closed_pool(seed)
    v = cp.Variable(A.shape[1], nonneg=True)
    _solve(cp.Problem(cp.Minimize(cp.sum_squares(A @ v - 1) + lam * cp.sum(v))))
    norm = float(np.sum(v.value))
    assert norm > 1e-6
    E = 1.0 / norm
    rho_lasso = A @ v.value * E
    rho_mcboost = A @ solve_mcboost(A, E).w
    np.testing.assert_allclose(rho_mcboost, rho_lasso, atol=2e-5)
    # a larger penalty means a smaller l1 norm, i.e. a larger desired margin E
    v2 = cp.Variable(A.shape[1], nonneg=True)
    _solve(cp.Problem(cp.Minimize(cp.sum_squares(A @ v2 - 1) + 2 * lam * cp.sum(v2))))
    assert float(np.sum(v2.value)) <= norm + 1e-6
