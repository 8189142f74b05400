"""ERLPBoost (Warmuth, Glocer & Vishwanathan 2008): its master, its dual and its guarantee.

The master's dual is checked numerically against an independent conic solve (cvxpy with
Clarabel) of the regularised LP dual, the uncapped master against AdaBoost-l1 (Shen & Li 2010,
eq. (15)), and the estimator against the theorem it rests on: with an exact oracle (stumps)
the soft margin of its combination is within ``tol`` of LPBoost's optimum over all stumps.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest
from scipy.optimize import linprog
from sklearn.datasets import load_breast_cancer
from sklearn.exceptions import ConvergenceWarning

from marginboost import ERLPBoost, LPBoost
from marginboost.boosting import _masters
from marginboost.margins import soft_margin as marginboost_soft_margin


def soft_margin(margins: np.ndarray, D: float) -> float:
    """max_rho rho - D sum_i xi_i with xi_i >= rho - m_i, xi >= 0: the soft margin of fixed
    margins as a linear program (HiGHS), independent of the package's closed form."""
    n = margins.size
    cost = np.concatenate([[-1.0], np.full(n, D)])  # minimise -rho + D sum xi
    A_ub = np.hstack([np.ones((n, 1)), -np.eye(n)])  # rho - xi_i <= m_i
    bounds = [(None, None)] + [(0.0, None)] * n
    result = linprog(cost, A_ub=A_ub, b_ub=margins, bounds=bounds, method="highs")
    assert result.status == 0
    return float(-result.fun)


@pytest.mark.parametrize("D", [0.25, 0.1, 1 / 7, 0.3, 1.0])
def test_soft_margin_closed_form_matches_the_lp(D):
    margins = np.random.default_rng(5).normal(size=20)
    assert marginboost_soft_margin(margins, D) == pytest.approx(soft_margin(margins, D), abs=1e-12)


@pytest.mark.parametrize(
    "M, D, seed", [(10, 0.25, 0), (50, 0.05, 1), (40, 1.0, 2), (30, 1 / 30, 3)]
)
def test_capped_softmax_is_the_entropy_projection(M, D, seed):
    scores = np.random.default_rng(seed).normal(size=M) * 3.0
    d = _masters.capped_softmax(scores, D)
    x = cp.Variable(M)
    problem = cp.Problem(
        cp.Minimize(-scores @ x - cp.sum(cp.entr(x))), [cp.sum(x) == 1, x >= 0, x <= D]
    )
    problem.solve(solver="CLARABEL")
    assert d.sum() == pytest.approx(1.0, abs=1e-12)
    assert d.max() <= D * (1 + 1e-12) and d.min() >= 0.0
    np.testing.assert_allclose(d, x.value, atol=2e-5)


def test_capped_softmax_refuses_a_cap_no_distribution_fits():
    with pytest.raises(ValueError, match="at least 1/M"):
        _masters.capped_softmax(np.zeros(10), 0.05)


@pytest.mark.parametrize("M, J, D, eta, seed", [(60, 8, 0.1, 20.0, 0), (80, 12, 0.05, 40.0, 1)])
def test_master_dual_matches_a_conic_solve(M, J, D, eta, seed):
    """Strong duality: max_w g(w) (ours) equals min_d P(d) solved by Clarabel, and the example
    distributions agree."""
    A = np.random.default_rng(seed).choice([-1.0, 1.0], size=(M, J))
    ours = _masters.solve_erlpboost(A, D, eta)
    d, r = cp.Variable(M), cp.Variable()
    objective = r + (cp.sum(-cp.entr(d)) + np.log(M)) / eta
    constraints = [A.T @ d <= r, cp.sum(d) == 1, d >= 0, d <= D]
    problem = cp.Problem(cp.Minimize(objective), constraints)
    problem.solve(solver="CLARABEL")
    assert problem.status == cp.OPTIMAL
    assert ours.objective == pytest.approx(problem.value, abs=1e-6)
    assert ours.duality_gap <= 1e-8
    np.testing.assert_allclose(ours.u, d.value, atol=1e-4)
    assert ours.w.sum() == pytest.approx(1.0) and ours.w.min() >= 0.0


def test_uncapped_master_is_adaboost_l1_dual():
    """With D = 1 the ERLPBoost master is AdaBoost-l1 (Shen & Li eq. (5)) with T = 1/eta:
    g(w) = -(log sum_i exp(-eta (Aw)_i) - log M) / eta and the same example weights."""
    A = np.random.default_rng(4).choice([-1.0, 1.0], size=(70, 10))
    eta = 3.0
    ours = _masters.solve_erlpboost(A, 1.0, eta)
    l1 = _masters.solve_adaboost_l1(A, 1.0 / eta)
    assert ours.objective == pytest.approx(-(l1.objective - np.log(70)) / eta, abs=1e-9)
    np.testing.assert_allclose(ours.u, l1.u, atol=1e-7)


@pytest.fixture(scope="module")
def breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return X, np.where(y == 1, 1.0, -1.0)


@pytest.fixture(scope="module")
def lpboost_optimum(breast_cancer):
    X, y = breast_cancer
    model = LPBoost(nu=0.1, n_estimators=2000).fit(X, y)
    assert model.converged_
    return model.history_["objective"][-1]


@pytest.mark.parametrize("tol", [0.1, 0.03])
def test_soft_margin_within_tol_of_lpboost_optimum(breast_cancer, lpboost_optimum, tol):
    """Warmuth et al.'s guarantee with an exact oracle (stumps): ERLPBoost stops by its rule,
    and the soft margin of its combination is within tol of the largest soft margin over all
    combinations of stumps (LPBoost's converged optimum)."""
    X, y = breast_cancer
    model = ERLPBoost(nu=0.1, tol=tol).fit(X, y)
    assert model.converged_ and model.stop_reason_ == "accuracy reached"
    assert model.history_["duality_gap"][-1] <= tol / 2
    margins = y * model.decision_function(X)
    achieved = soft_margin(margins, model.D_)
    assert lpboost_optimum - tol <= achieved <= lpboost_optimum + 1e-9
    assert model.eta_ == pytest.approx(2.0 / tol * np.log(10.0))


def test_a_tighter_tol_takes_more_columns_and_a_larger_margin(breast_cancer):
    X, y = breast_cancer
    loose = ERLPBoost(nu=0.1, tol=0.1).fit(X, y)
    tight = ERLPBoost(nu=0.1, tol=0.01).fit(X, y)
    assert tight.n_iterations_ > loose.n_iterations_
    D = loose.D_
    assert soft_margin(y * tight.decision_function(X), D) > soft_margin(
        y * loose.decision_function(X), D
    )


def test_unconverged_fit_warns_with_the_rule(breast_cancer):
    X, y = breast_cancer
    with pytest.warns(ConvergenceWarning, match="Warmuth et al.'s stopping rule"):
        model = ERLPBoost(nu=0.1, tol=0.01, n_estimators=3).fit(X, y)
    assert not model.converged_ and model.stop_reason_ == "n_estimators"


def test_warm_start_goes_on_to_the_same_stop(breast_cancer):
    X, y = breast_cancer
    cold = ERLPBoost(nu=0.1, tol=0.05).fit(X, y)
    warm = ERLPBoost(nu=0.1, tol=0.05, n_estimators=5, warm_start=True)
    with pytest.warns(ConvergenceWarning):
        warm.fit(X, y)
    warm.set_params(n_estimators=1000).fit(X, y)
    assert warm.converged_
    assert warm.n_iterations_ == cold.n_iterations_
    np.testing.assert_allclose(warm.alphas_, cold.alphas_, atol=1e-8)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"D": 0.1, "nu": 0.1}, "give D or nu, not both"),
        ({"D": 1e-4}, "D must be at least 1/M"),
    ],
)
def test_bad_parameters_are_named(breast_cancer, params, message):
    X, y = breast_cancer
    with pytest.raises(ValueError, match=message):
        ERLPBoost(**params).fit(X, y)
