"""MDBoost (Shen & Li 2010b, as restated by AdaBoost-QP (41)): its column generation against a
cvxpy solve over the full stump pool, the KKT conditions of the restricted master, the
mean-variance trade-off in D, and bad input."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest
from _cg_helpers import converged_margins, simplex_optimum, small_data, stump_pool

from marginboost import MDBoost
from marginboost.boosting._masters import solve_adaboost_qp, solve_mdboost


def _mean_minus_variance(rho, D):
    """The MDBoost objective of the cvxpy margins ``rho``: mean margin minus D / 2 times the
    population variance."""
    mean = cp.sum(rho) / rho.shape[0]
    return mean - 0.5 * D * cp.sum_squares(rho - mean) / rho.shape[0]


def _cvxpy_optimum(A, D):
    return simplex_optimum(A, lambda rho: cp.Maximize(_mean_minus_variance(rho, D)))


def _objective(margins, D):
    return float(margins.mean() - 0.5 * D * margins.var())  # np.var: the population variance


def _restricted_columns(model, X, y):
    codes = model.mapper_.transform(X)
    return np.column_stack([y * tree.predict(codes) for tree in model.estimators_])


def test_mdboost_is_exported():
    import marginboost
    import marginboost.boosting

    assert marginboost.MDBoost is marginboost.boosting.MDBoost is MDBoost
    assert "MDBoost" in marginboost.boosting.__all__


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("D", [0.5, 3.0, 20.0])
def test_column_generation_reaches_the_optimum_over_all_stumps(seed, D):
    X, y = small_data(seed)
    model = MDBoost(D=D, tol=1e-7, n_estimators=500)
    margins = converged_margins(model, X, y)
    ours = _objective(margins, D)
    assert model.history_["objective"][-1] == pytest.approx(ours, rel=1e-9, abs=1e-12)
    reference, _ = _cvxpy_optimum(stump_pool(X, y), D)
    assert ours == pytest.approx(reference, rel=1e-5, abs=1e-7)
    # the recorded gap (next edge - r, the Frank-Wolfe gap) bounds every iterate's shortfall
    shortfall = reference - model.history_["objective"]
    assert np.all(shortfall <= model.history_["duality_gap"] + 1e-7)


@pytest.mark.parametrize("seed", [0, 3])
def test_kkt_at_convergence(seed):
    """At the restricted optimum the dual weights are the normalized gradient of the objective
    in the margins, every support column has edge r, and after convergence no column of the
    whole pool has an edge above r + epsilon."""
    D, epsilon = 4.0, 1e-7
    X, y = small_data(seed)
    model = MDBoost(D=D, tol=epsilon, n_estimators=500)
    rho = converged_margins(model, X, y)
    A = _restricted_columns(model, X, y)
    np.testing.assert_allclose(A @ model.alphas_, rho, atol=1e-12)
    u = model.dual_weights_
    np.testing.assert_allclose(u, (1.0 - D * (rho - rho.mean())) / len(y), atol=1e-12)
    assert u.sum() == pytest.approx(1.0)
    edges = A.T @ u
    r = edges.max()
    support = model.alphas_ > 1e-8
    np.testing.assert_allclose(edges[support], r, atol=1e-7)
    assert (stump_pool(X, y).T @ u).max() <= r + epsilon + 1e-9


@pytest.mark.parametrize("seed", [4, 5])
@pytest.mark.parametrize("D", [0.3, 5.0])
def test_master_agrees_with_cvxpy(seed, D):
    rng = np.random.default_rng(seed)
    A = rng.choice([-1.0, 1.0], size=(40, 12))
    solution = solve_mdboost(A, D)
    rho = A @ solution.w
    assert solution.w.min() >= 0 and solution.w.sum() == pytest.approx(1.0)
    reference, w = _cvxpy_optimum(A, D)
    assert solution.objective == pytest.approx(reference, rel=1e-6, abs=1e-8)
    assert solution.objective == pytest.approx(_objective(rho, D), rel=1e-12)
    # the centred margins are unique (strictly concave part), hence so are the margins
    np.testing.assert_allclose(rho, A @ w, atol=1e-5)
    np.testing.assert_allclose(solution.u, (1.0 - D * (rho - rho.mean())) / len(rho))
    edges = A.T @ solution.u
    assert solution.r == pytest.approx(edges.max())
    np.testing.assert_allclose(edges[solution.w > 1e-8], solution.r, atol=1e-7)
    # AdaBoost-QP (41) with T = 1/D: its value is -(mean - D/2 var) / D
    _, qp_value = solve_adaboost_qp(A, 1.0 / D)
    assert qp_value == pytest.approx(-solution.objective / D, rel=1e-8, abs=1e-12)


def test_larger_D_gives_smaller_margin_variance():
    """For D1 < D2 with optima (m1, v1), (m2, v2): adding the two optimality inequalities gives
    (D2 - D1)(v1 - v2) >= 0, and then m1 >= m2: variance and mean margin fall as D grows."""
    from marginboost.data import mcboost_toy

    ds = mcboost_toy(200, seed=0)
    X, y = ds.X, ds.y_signed()
    grid = (0.5, 1.0, 2.0, 5.0, 10.0, 50.0)
    means, variances = [], []
    for D in grid:
        margins = converged_margins(MDBoost(D=D), X, y)
        means.append(float(margins.mean()))
        variances.append(float(margins.var()))
    assert all(a > b for a, b in zip(variances, variances[1:])), variances
    assert all(a > b for a, b in zip(means, means[1:])), means


@pytest.mark.parametrize("D", [0.0, -1.0, np.nan, np.inf])
def test_bad_D_is_rejected(D):
    X, y = small_data(0)
    with pytest.raises(ValueError, match="The 'D' parameter of MDBoost"):
        MDBoost(D=D).fit(X, y)
    with pytest.raises(ValueError, match="D must"):
        solve_mdboost(np.ones((3, 2)), D)


def test_three_labels_are_rejected():
    X, y = small_data(1)
    y = np.where(X[:, 2] > 0.5, 2, y)
    with pytest.raises(ValueError, match="Only binary classification"):
        MDBoost().fit(X, y)
