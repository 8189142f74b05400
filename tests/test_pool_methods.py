"""Fixed-pool methods: AdaBoost-l1 solved exactly on a pool and AdaBoost-QP (Shen & Li eq. 41)."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest

from marginboost.boosting import AdaBoost
from marginboost.boosting._masters import solve_adaboost_qp
from marginboost.boosting.fixed_pool import AdaBoostL1, AdaBoostQP
from marginboost.weak import WeakPool


def data(seed=0, n=60, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.6 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n) > 0.4, 1, -1)
    return X, y


def pool_matrix(model, X, y):
    codes = model.mapper_.transform(X)
    return y[:, None] * np.asarray(model.pool_.matrix(codes), dtype=float)


def test_adaboost_l1_on_all_stumps_is_the_exact_pool_optimum():
    X, y = data()
    T = 0.05
    model = AdaBoostL1(T=T, pool="all_stumps").fit(X, y)
    A = pool_matrix(model, X, y)
    assert A.shape[1] == len(WeakPool.all_stumps(model.mapper_.transform(X)))
    w = cp.Variable(A.shape[1], nonneg=True)
    reference = cp.Problem(cp.Minimize(cp.log_sum_exp(-A @ w)), [cp.sum(w) == 1 / T])
    reference.solve(solver=cp.CLARABEL)
    assert abs(model.objective_ - reference.value) <= 1e-6 * abs(reference.value)
    assert (model.alphas_ > 0).all() and model.alphas_.sum() == pytest.approx(1 / T, rel=1e-12)
    # the kept hypotheses reproduce the pool combination
    np.testing.assert_allclose(y * model.decision_function(X), A @ model.pool_weights_, atol=1e-12)


def test_adaboost_qp_solution_is_the_mean_variance_optimum():
    X, y = data(seed=1)
    T = 0.1
    model = AdaBoostQP(T=T, pool="all_stumps").fit(X, y)
    A = pool_matrix(model, X, y)
    w = model.pool_weights_ * T  # the simplex solution
    assert w.sum() == pytest.approx(1.0, abs=1e-12) and (w >= 0).all()
    assert model.alphas_.sum() == pytest.approx(1 / T, rel=1e-12)
    margins = A @ w
    mean, variance = margins.mean(), margins.var()
    # eq. (41) value = -T^2 (mean/T - var/(2 T^2))
    assert model.objective_ == pytest.approx(
        -(T**2) * (mean / T - variance / (2 * T**2)), abs=1e-12
    )
    # an independent solve (OSQP, explicit covariance matrix) gives the same optimum
    b = A.mean(axis=0)
    C = (A - b).T @ (A - b) / A.shape[0]
    v = cp.Variable(A.shape[1], nonneg=True)
    reference = cp.Problem(
        cp.Minimize(0.5 * cp.quad_form(v, cp.psd_wrap(C)) - T * b @ v), [cp.sum(v) == 1]
    )
    reference.solve(solver=cp.OSQP, eps_abs=1e-10, eps_rel=1e-10, max_iter=200_000)
    assert model.objective_ == pytest.approx(reference.value, abs=1e-6)
    assert np.mean(model.margins(X, y)) == pytest.approx(mean, abs=1e-12)


def test_adaboost_qp_on_the_adaboost_pool_beats_adaboosts_own_weights():
    X, y = data(seed=2)
    T, n_pool = 0.05, 30
    model = AdaBoostQP(T=T, pool="adaboost", n_pool=n_pool).fit(X, y)
    booster = AdaBoost(n_estimators=n_pool).fit(X, y)
    assert len(model.pool_) == len(booster.estimators_)
    A = pool_matrix(model, X, y)
    ada_w = booster.alphas_ / booster.alphas_.sum()  # feasible for (41) on the same pool
    np.testing.assert_allclose(A @ ada_w, booster.margins(X, y), atol=1e-12)
    margins = A @ ada_w
    ada_value = -(T**2) * (margins.mean() / T - margins.var() / (2 * T**2))
    assert model.objective_ <= ada_value + 1e-9
    assert model.objective_ == pytest.approx(solve_adaboost_qp(A, T)[1], abs=1e-9)


def test_adaboost_l1_on_the_adaboost_pool():
    X, y = data(seed=3)
    model = AdaBoostL1(T=0.1, pool="adaboost", n_pool=20).fit(X, y)
    A = pool_matrix(model, X, y)
    w = cp.Variable(A.shape[1], nonneg=True)
    reference = cp.Problem(cp.Minimize(cp.log_sum_exp(-A @ w)), [cp.sum(w) == 10])
    reference.solve(solver=cp.CLARABEL)
    assert abs(model.objective_ - reference.value) <= 1e-6 * abs(reference.value)


@pytest.mark.parametrize(
    "estimator, message",
    [
        (AdaBoostL1(T=0.0), "The 'T' parameter of"),
        (AdaBoostQP(T=-1.0), "The 'T' parameter of"),
        (AdaBoostL1(pool="trees"), "The 'pool' parameter of"),
        (AdaBoostQP(pool="adaboost", n_pool=0), "The 'n_pool' parameter of"),
        (AdaBoostQP(max_bins=1), "The 'max_bins' parameter of"),
    ],
)
def test_bad_parameters_are_refused(estimator, message):
    X, y = data()
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, y)


def test_constant_features_give_an_empty_pool_error():
    X = np.ones((10, 2))
    y = np.array([1, -1] * 5)
    with pytest.raises(ValueError, match="the pool is empty: every feature is constant"):
        AdaBoostL1(pool="all_stumps").fit(X, y)
    # the default pool, an AdaBoost run, says why it is empty too
    with pytest.raises(ValueError, match="the pool is empty: the 1500-round AdaBoost"):
        AdaBoostL1().fit(X, y)


@pytest.mark.parametrize("T", [0.5, 0.05, 0.002])
def test_dedicated_qp_solver_matches_cvxpy(T):
    rng = np.random.default_rng(7)
    A = rng.choice([-1.0, 1.0], size=(40, 25))
    w, value = solve_adaboost_qp(A, T)
    assert (w >= 0).all() and w.sum() == pytest.approx(1.0, abs=1e-12)
    b = A.mean(axis=0)
    v = cp.Variable(A.shape[1], nonneg=True)
    reference = cp.Problem(
        cp.Minimize(0.5 / A.shape[0] * cp.sum_squares((A - b) @ v) - T * (b @ v)), [cp.sum(v) == 1]
    )
    reference.solve(solver=cp.CLARABEL)
    assert value <= reference.value + 1e-9
    assert value == pytest.approx(reference.value, abs=1e-7)


def test_duplicate_pool_columns_share_their_weight_equally():
    X, y = data(seed=4)
    model = AdaBoostQP(T=0.05, pool="adaboost", n_pool=60).fit(X, y)
    A = pool_matrix(model, X, y)
    assert model.n_distinct_columns_ < A.shape[1]  # AdaBoost repeats stumps
    # the merged solve is optimal for the problem on the full, repeated pool
    b = A.mean(axis=0)
    v = cp.Variable(A.shape[1], nonneg=True)
    reference = cp.Problem(
        cp.Minimize(0.5 / A.shape[0] * cp.sum_squares((A - b) @ v) - 0.05 * (b @ v)),
        [cp.sum(v) == 1],
    )
    reference.solve(solver=cp.CLARABEL)
    assert model.objective_ == pytest.approx(reference.value, abs=1e-7)
    _, first, inverse = np.unique(A, axis=1, return_index=True, return_inverse=True)
    for group in np.unique(inverse):
        members = model.pool_weights_[inverse.ravel() == group]
        np.testing.assert_allclose(members, members[0], rtol=0, atol=1e-15)
    # the distinct columns with weight: the groups of the repeated pool with weight > 0
    used = {int(g) for g in np.unique(inverse.ravel()[model.pool_weights_ > 0])}
    assert model.n_distinct_used_ == len(used) < model.n_distinct_columns_


@pytest.mark.parametrize("cls", [AdaBoostQP, AdaBoostL1])
def test_with_T_equals_a_fresh_fit(cls):
    X, y = data(seed=5)
    model = cls(T=0.1, pool="adaboost", n_pool=40).fit(X, y)
    for T in (0.02, 0.5):
        swept = model.with_T(T)
        fresh = cls(T=T, pool="adaboost", n_pool=40).fit(X, y)
        assert swept.T == T and model.T == 0.1
        assert swept.objective_ == pytest.approx(fresh.objective_, rel=1e-8, abs=1e-10)
        np.testing.assert_allclose(
            swept.decision_function(X), fresh.decision_function(X), rtol=1e-6, atol=1e-6
        )


def test_with_T_needs_a_fitted_estimator():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        AdaBoostQP().with_T(0.1)


def test_n_pool_without_an_adaboost_pool_is_reported():
    import warnings

    from marginboost import AdaBoostQP

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 3)), np.where(rng.normal(size=60) > 0, 1, -1)
    with pytest.warns(UserWarning, match="n_pool=50 is ignored with pool='all_stumps'"):
        AdaBoostQP(T=0.1, pool="all_stumps", n_pool=50).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        AdaBoostQP(T=0.1).fit(X, y)  # the default says nothing


def test_a_pool_of_one_adaboost_round_is_allowed():
    """n_pool = 1: the pool is AdaBoost's first tree, whose weight the simplex fixes at 1,
    so the QP's value is that of the single column's margins."""
    X, y = data(seed=4)
    T = 0.05
    model = AdaBoostQP(T=T, pool="adaboost", n_pool=1).fit(X, y)
    assert len(model.pool_) == 1
    a = pool_matrix(model, X, y)[:, 0]
    assert model.objective_ == pytest.approx(-(T**2) * (a.mean() / T - a.var() / (2 * T**2)))


@pytest.mark.parametrize(
    ("estimator", "solver", "problem"),
    [
        (AdaBoostL1(T=0.1), "solve_adaboost_l1", "AdaBoostL1: the pool problem (5) failed"),
        (AdaBoostQP(T=0.1), "solve_adaboost_qp", "AdaBoostQP: the pool problem (41) failed"),
    ],
)
def test_a_failed_pool_problem_names_the_problem_and_keeps_the_solvers_status(
    estimator, solver, problem, monkeypatch
):
    from marginboost.boosting import _masters

    def fail(*args, **kwargs):
        raise _masters.MasterSolverError("status 4: numerical difficulties")

    monkeypatch.setattr(_masters, solver, fail)
    X, y = data()
    with pytest.raises(RuntimeError, match=r"numerical difficulties") as info:
        estimator.fit(X, y)
    assert str(info.value).startswith(problem)
    assert isinstance(info.value.__cause__, _masters.MasterSolverError)
