"""Totally-corrective column generation: LPBoost, AdaBoost-CG, LogitBoost-CG, HingeLPBoost."""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np
import pytest
from scipy.special import softmax
from sklearn.exceptions import ConvergenceWarning

from marginboost.boosting import AdaBoost, _master_quadratic, _masters
from marginboost.boosting.corrective import (
    AdaBoostCG,
    ColumnGenerationError,
    HingeLPBoost,
    LogitBoostCG,
    LPBoost,
    adaboost_T_heuristic,
)
from marginboost.weak import BinMapper, DecisionTree, WeakPool


def integer_data(seed=0, n=40, d=3, flip=0.1):
    """Random integer features; labels from a noisy linear rule."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 12, size=(n, d)).astype(float)
    y = np.where(X[:, 0] - X[:, 1] + 0.5 * X[:, 2] > 2.0, 1, -1)
    y[rng.random(n) < flip] *= -1
    return X, y


def full_pool_matrix(X, y):
    """A = y_i h_j(x_i) over all distinct stumps plus the two constant hypotheses.

    A depth-1 tree may put the same label in both leaves, i.e. return a constant hypothesis, so
    the oracle's hypothesis set is the stump pool together with the constants.
    """
    codes = BinMapper(max_bins=255).fit(X).transform(X)
    H = WeakPool.all_stumps(codes).matrix(codes).astype(float)
    H = np.hstack([H, np.ones((len(y), 1)), -np.ones((len(y), 1))])
    return y[:, None] * H


def random_instance(seed, M=60, J=8):
    rng = np.random.default_rng(seed)
    return np.where(rng.random((M, J)) < 0.55, 1.0, -1.0)


# ------------------------------------------------------------------------------ LP masters
@pytest.mark.parametrize("D", [None, 0.1, 0.05])
def test_lp_dual_multipliers_are_the_primal_weights(D):
    A = random_instance(3)
    dual = _masters.solve_lpboost_dual(A, D)
    primal_value, _ = _masters.solve_lpboost_primal(A, D)
    assert dual.objective == pytest.approx(primal_value, abs=1e-9)
    # the multipliers -marginals form a primal-optimal w: non-negative, summing to 1, and
    # reaching the optimal value in (19)/(21)
    assert (dual.w >= 0).all() and dual.w.sum() == pytest.approx(1.0, abs=1e-9)
    margins = A @ dual.w
    if D is None:
        value = margins.min()
    else:  # rho - D sum xi at the best rho = bottom-1/D average for 1/D integer
        k = round(1 / D)
        value = np.sort(margins)[:k].mean()
    assert value == pytest.approx(dual.objective, abs=1e-8)
    # dual feasibility of u and r = max edge
    assert dual.u.sum() == pytest.approx(1.0) and (A.T @ dual.u).max() <= dual.r + 1e-9
    if D is not None:
        assert dual.u.max() <= D + 1e-9


def test_infeasible_soft_margin_dual_reports_the_status():
    with pytest.raises(_masters.MasterSolverError, match="infeasible"):
        _masters.solve_lpboost_dual(random_instance(0), D=1.0 / 120)


# ------------------------------------------------------------------------------ smooth masters
@pytest.mark.parametrize("seed, T", [(0, 0.1), (1, 0.05), (2, 0.02)])
def test_adaboost_l1_master_reaches_the_cvxpy_optimum(seed, T):
    A = random_instance(seed, M=80, J=12)
    sol = _masters.solve_adaboost_l1(A, T)
    w = cp.Variable(A.shape[1], nonneg=True)
    reference = cp.Problem(cp.Minimize(cp.log_sum_exp(-A @ w)), [cp.sum(w) == 1 / T])
    reference.solve(solver=cp.CLARABEL)
    assert abs(sol.objective - reference.value) <= 1e-6 * abs(reference.value)
    assert (sol.w >= 0).all() and sol.w.sum() == pytest.approx(1 / T, rel=1e-12)
    np.testing.assert_allclose(sol.u, softmax(-A @ sol.w), atol=1e-12)  # KKT (24)
    # strong duality (15): r + T sum u log u = -T Opt(5), up to the certified gap
    dual_value = sol.r + T * np.sum(sol.u * np.log(sol.u))
    assert dual_value == pytest.approx(-T * sol.objective, abs=1e-6)
    assert 0 <= sol.duality_gap <= 1e-6


@pytest.mark.parametrize("seed, T", [(0, 0.1), (4, 0.02)])
def test_logitboost_master_reaches_the_cvxpy_optimum(seed, T):
    A = random_instance(seed, M=80, J=12)
    sol = _masters.solve_logitboost(A, T)
    w = cp.Variable(A.shape[1], nonneg=True)
    reference = cp.Problem(cp.Minimize(cp.sum(cp.logistic(-A @ w))), [cp.sum(w) == 1 / T])
    reference.solve(solver=cp.CLARABEL)
    assert abs(sol.objective - reference.value) <= 1e-6 * abs(reference.value)
    np.testing.assert_allclose(sol.u, 1 / (1 + np.exp(A @ sol.w)), atol=1e-12)  # KKT (33)
    assert 0 <= sol.duality_gap <= 1e-5


def test_smooth_masters_handle_duplicate_columns_and_more_columns_than_examples():
    base = random_instance(7, M=15, J=20)
    A = np.hstack([base, base[:, :5]])  # singular Hessian blocks
    T = 0.05
    for solve, loss in (
        (_masters.solve_adaboost_l1, lambda z: cp.log_sum_exp(-z)),
        (_masters.solve_logitboost, lambda z: cp.sum(cp.logistic(-z))),
    ):
        sol = solve(A, T)
        w = cp.Variable(A.shape[1], nonneg=True)
        reference = cp.Problem(cp.Minimize(loss(A @ w)), [cp.sum(w) == 1 / T])
        reference.solve(solver=cp.CLARABEL)
        assert abs(sol.objective - reference.value) <= 1e-6 * abs(reference.value)
        assert sol.w.sum() == pytest.approx(1 / T, rel=1e-12) and (sol.w >= 0).all()


def test_smooth_solver_reports_non_convergence():
    A = random_instance(1, M=80, J=12)

    def value_grad(w):
        z = -(A @ w)
        return float(np.log(np.exp(z).sum())), -(A.T @ softmax(z))

    with pytest.raises(_masters.MasterSolverError, match="did not reach"):
        _masters.solve_simplex_smooth(value_grad, 12, 50.0, max_iter=3)


def test_hinge_dual_equals_the_squared_hinge_primal():
    A, D = random_instance(5), 0.2
    dual = _masters.solve_hinge_dual(A, D, p=2.0)
    w, rho, xi = (
        cp.Variable(A.shape[1], nonneg=True),
        cp.Variable(),
        cp.Variable(A.shape[0], nonneg=True),
    )
    primal = cp.Problem(
        cp.Maximize(rho - D * cp.sum_squares(xi)), [A @ w >= rho - xi, cp.sum(w) == 1]
    )
    primal.solve(solver=cp.CLARABEL)
    assert dual.objective == pytest.approx(primal.value, abs=1e-6)
    # the multipliers are a primal-optimal w: its best (rho, xi) reaches the optimum
    m = A @ dual.w
    rho_w = cp.Variable()
    best = cp.Problem(cp.Maximize(rho_w - D * cp.sum_squares(cp.pos(rho_w - m))))
    best.solve(solver=cp.CLARABEL)
    assert dual.w.sum() == pytest.approx(1.0, abs=1e-6)
    assert best.value == pytest.approx(primal.value, abs=1e-5)


# ------------------------------------------------------------------------------ CG estimators
@pytest.mark.parametrize("columns", [1, 4])
@pytest.mark.parametrize("smoothing", [0.0, 0.5, 0.9])
@pytest.mark.parametrize("kwargs, D", [({}, None), ({"D": 0.125}, 0.125), ({"nu": 0.25}, 0.1)])
def test_cg_lpboost_reaches_the_full_pool_lp_optimum(kwargs, D, smoothing, columns):
    """Plain, dual-smoothed and multiple-pricing column generation end at the LP optimum over
    every stump (the stump learner finds the best stump, so its certificate is exact)."""
    X, y = integer_data(seed=1)
    model = LPBoost(
        **kwargs, n_estimators=200, smoothing=smoothing, columns_per_iteration=columns
    ).fit(X, y)
    assert model.mispricings_ >= 0 and (smoothing > 0 or model.mispricings_ == 0)
    assert model.converged_ and model.stop_reason_ == "no violated dual constraint"
    optimum = _masters.solve_lpboost_dual(full_pool_matrix(X, y), D).objective
    assert model.history_["objective"][-1] == pytest.approx(optimum, abs=1e-7)
    assert (model.alphas_ >= 0).all() and model.alphas_.sum() == pytest.approx(1.0, abs=1e-9)
    # every added column is one more constraint of the restricted dual (a minimisation), so its
    # optimum (= the restricted primal's maximum) never decreases
    assert np.all(np.diff(model.history_["objective"]) >= -1e-9)
    assert model.history_["duality_gap"][-1] <= model.tol
    # the recorded minimum margin is that of the final combination
    assert model.margins(X, y).min() == pytest.approx(model.history_["min_margin"][-1])


def test_lpboost_smoothing_is_validated_and_changes_only_the_path():
    """``smoothing`` outside [0, 1) is refused by name; a smoothed fit asks the weak learner
    for other trees on the way (some mis-pricings on real data) and ends at the same optimum
    of the restricted LP as the plain one, within the tolerance."""
    X, y = integer_data(seed=5)
    for bad in (-0.1, 1.0, 2.0):
        with pytest.raises(ValueError, match="smoothing"):
            LPBoost(nu=0.2, smoothing=bad).fit(X, y)
    plain = LPBoost(nu=0.2, n_estimators=300).fit(X, y)
    smooth = LPBoost(nu=0.2, n_estimators=300, smoothing=0.5).fit(X, y)
    assert plain.converged_ and smooth.converged_
    assert smooth.history_["objective"][-1] == pytest.approx(
        plain.history_["objective"][-1], abs=2 * plain.tol
    )


def test_lpboost_multiple_pricing_adds_several_distinct_trees_per_iteration():
    """With ``columns_per_iteration`` the master receives up to that many columns per
    iteration, each tree rooted on another feature, every one violating the master's dual
    constraint when added; the cap on columns holds; the staged scores follow the iterations;
    a custom weak learner is refused with the remedy."""
    X, y = integer_data(seed=5)
    plain = LPBoost(nu=0.2, max_depth=2, n_estimators=400).fit(X, y)
    model = LPBoost(nu=0.2, max_depth=2, n_estimators=400, columns_per_iteration=4).fit(X, y)
    assert plain.converged_ and model.converged_
    assert model.n_estimators_ > model.n_iterations_
    assert model.n_iterations_ < plain.n_iterations_
    # greedy depth-2 trees are not an exact oracle: the runner-up trees are columns the
    # oracle alone does not find, so the restricted LP can only end higher
    assert model.history_["objective"][-1] >= plain.history_["objective"][-1] - plain.tol
    sizes = [w.size for w in model._stage_weights]
    assert sizes[0] == 1 and max(np.diff(sizes)) > 1 and max(np.diff(sizes)) <= 4
    start = 0
    for size in sizes:  # the trees of one iteration have different root features
        roots = [int(t.node_feature[0]) for t in model.estimators_[start:size]]
        assert len(set(roots)) == len(roots)
        start = size
    assert len(list(model.staged_decision_function(X))) == model.n_iterations_
    capped = LPBoost(nu=0.2, max_depth=2, n_estimators=10, columns_per_iteration=4)
    with pytest.warns(ConvergenceWarning):
        capped.fit(X, y)
    assert capped.n_estimators_ == 10
    with pytest.raises(ValueError, match="columns_per_iteration"):
        LPBoost(columns_per_iteration=0).fit(X, y)
    with pytest.raises(ValueError, match="built-in tree learner"):
        LPBoost(columns_per_iteration=2, estimator=DecisionTree(max_depth=2)).fit(X, y)


def test_cg_adaboost_matches_the_pool_solution_and_the_kkt_weights():
    X, y = integer_data(seed=2)
    T = 0.1
    model = AdaBoostCG(T=T, n_estimators=200).fit(X, y)
    assert model.converged_
    assert model.alphas_.sum() == pytest.approx(1 / T, rel=1e-12) and (model.alphas_ >= 0).all()
    pool = _masters.solve_adaboost_l1(full_pool_matrix(X, y), T)
    assert model.history_["objective"][-1] == pytest.approx(pool.objective, rel=1e-7)
    y_signed = np.where(y > 0, 1.0, -1.0)
    scores = model.decision_function(X)
    assert model.history_["objective"][-1] == pytest.approx(
        np.log(np.exp(-y_signed * scores).sum()), rel=1e-12
    )
    np.testing.assert_allclose(model.dual_weights_, softmax(-y_signed * scores), atol=1e-12)
    assert np.all(np.diff(model.history_["objective"]) <= 1e-9)  # primal (5) non-increasing
    assert model.history_["duality_gap"][-1] <= 1e-4


def test_cg_logitboost_matches_the_pool_solution():
    X, y = integer_data(seed=3)
    model = LogitBoostCG(T=0.1, n_estimators=200).fit(X, y)
    assert model.converged_
    pool = _masters.solve_logitboost(full_pool_matrix(X, y), 0.1)
    assert model.history_["objective"][-1] == pytest.approx(pool.objective, rel=1e-7)
    assert model.alphas_.sum() == pytest.approx(10.0, rel=1e-12)


@pytest.mark.parametrize("seed, J", [(5, 8), (6, 1), (7, 30), (8, 120)])
def test_squared_hinge_in_the_primal_equals_clarabels_dual(seed, J):
    """The squared hinge solved in the primal over the simplex (the default) and its dual built
    with cvxpy and solved by Clarabel (the reference) reach the same optimum, dual weights and
    edge bound; the primal weights are optimal too (their value is the optimum)."""
    A, D = random_instance(seed, M=60, J=J), 0.3
    primal = _masters.solve_hinge_dual(A, D, p=2.0)
    reference = _masters.solve_hinge_dual(A, D, p=2.0, via="cvxpy")
    assert primal.objective == pytest.approx(reference.objective, abs=1e-7)
    assert primal.r == pytest.approx(reference.r, abs=1e-6)
    np.testing.assert_allclose(primal.u, reference.u, atol=1e-5)
    assert primal.u.min() >= 0 and primal.u.sum() == pytest.approx(1.0, abs=1e-12)
    assert primal.w.min() >= 0 and primal.w.sum() == pytest.approx(1.0, abs=1e-12)
    m = A @ primal.w
    rho = _master_quadratic._squared_hinge_level(m, D)
    value = rho - D * np.sum(np.clip(rho - m, 0, None) ** 2)
    assert value == pytest.approx(reference.objective, abs=1e-7)
    # a warm start from another pool's weights reaches the same optimum
    warm = _masters.solve_hinge_dual(A, D, p=2.0, w0=np.full(J, 1.0 / J))
    assert warm.objective == pytest.approx(primal.objective, abs=1e-9)
    with pytest.raises(ValueError, match="via must be"):
        _masters.solve_hinge_dual(A, D, p=2.0, via="highs")


@pytest.mark.parametrize("seed", range(5))
def test_squared_hinge_level_is_the_root_of_its_optimality_condition(seed):
    rng = np.random.default_rng(seed)
    m = np.round(rng.normal(size=int(rng.integers(1, 40))), 1)  # ties among the margins
    D = float(rng.choice([0.01, 0.3, 5.0]))
    rho = _master_quadratic._squared_hinge_level(m, D)
    assert 2 * D * np.sum(np.clip(rho - m, 0, None)) == pytest.approx(1.0, rel=1e-12)
    grid = rho + np.linspace(-1, 1, 201) * 0.5  # and it maximizes rho - D sum(rho - m)_+^2
    values = grid - D * (np.clip(grid[:, None] - m, 0, None) ** 2).sum(axis=1)
    assert rho - D * np.sum(np.clip(rho - m, 0, None) ** 2) >= values.max() - 1e-12


def test_cg_hinge_lpboost_matches_the_pool_solution():
    X, y = integer_data(seed=4)
    model = HingeLPBoost(D=0.5, p=2, n_estimators=200).fit(X, y)
    assert model.converged_
    pool = _masters.solve_hinge_dual(full_pool_matrix(X, y), 0.5, 2.0)
    assert model.history_["objective"][-1] == pytest.approx(pool.objective, abs=1e-6)


def test_staged_scores_are_the_per_iteration_master_solutions():
    X, y = integer_data(seed=5)
    model = LPBoost(nu=0.3, n_estimators=6).fit(X, y)
    stages = list(model.staged_decision_function(X))
    assert len(stages) == model.n_iterations_ == len(model.history_["objective"])
    np.testing.assert_allclose(stages[-1], model.decision_function(X))
    codes = model.mapper_.transform(X)
    y_signed = np.where(y > 0, 1.0, -1.0)
    A = np.column_stack([y_signed * tree.predict(codes) for tree in model.estimators_])
    for t in (1, 3):
        w = model._stage_weights[t - 1]
        np.testing.assert_allclose(stages[t - 1], (A[:, :t] * y_signed[:, None]) @ w)
        assert _masters.solve_lpboost_dual(A[:, :t], model.D_).objective == pytest.approx(
            model.history_["objective"][t - 1]
        )


def test_iteration_cap_is_reported():
    X, y = integer_data(seed=6, flip=0.25)
    model = AdaBoostCG(T=0.05, n_estimators=3).fit(X, y)
    assert model.n_iterations_ == 3 and not model.converged_
    assert model.stop_reason_ == "n_estimators"
    assert set(model.history_) >= {
        "objective",
        "duality_gap",
        "n_active",
        "time",
        "train_error",
        "min_margin",
        "mean_margin",
        "edge",
    }


def test_labels_are_mapped_through_classes():
    X, y = integer_data(seed=7)
    labels = np.where(y > 0, "yes", "no")
    model = LPBoost(nu=0.2).fit(X, labels)
    assert set(model.predict(X)) <= {"yes", "no"}
    accuracy = np.mean(model.predict(X) == labels)
    assert accuracy == pytest.approx(1 - model.history_["train_error"][-1])


def test_infeasible_D_raises_with_the_iteration():
    X, y = integer_data()
    with pytest.raises(ColumnGenerationError, match="iteration 1: HiGHS status 2") as info:
        LPBoost(D=1.0 / 80).fit(X, y)
    assert info.value.iteration == 1


def test_master_failure_is_reported_with_the_iteration(monkeypatch):
    X, y = integer_data(seed=2)
    calls = {"n": 0}
    original = _masters.solve_adaboost_l1

    def failing_on_third(A, T, w0=None):
        calls["n"] += 1
        if calls["n"] == 3:
            raise _masters.MasterSolverError("simulated numerical trouble")
        return original(A, T, w0)

    monkeypatch.setattr(_masters, "solve_adaboost_l1", failing_on_third)
    with pytest.raises(ColumnGenerationError, match="iteration 3: simulated numerical trouble"):
        AdaBoostCG(T=0.1).fit(X, y)


@pytest.mark.parametrize(
    "estimator, message",
    [
        (LPBoost(D=0.1, nu=0.1), "give D or nu, not both"),
        (LPBoost(nu=1.5), "The 'nu' parameter of"),
        (LPBoost(D=-1.0), "The 'D' parameter of"),
        (AdaBoostCG(T=0.0), "The 'T' parameter of"),
        (LogitBoostCG(T=np.inf), "The 'T' parameter of"),
        (HingeLPBoost(p=1.0), "The 'p' parameter of"),
        (LPBoost(n_estimators=0), "The 'n_estimators' parameter of"),
        (LPBoost(tol=-1.0), "tol"),
    ],
)
def test_bad_parameters_are_refused(estimator, message):
    X, y = integer_data()
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, y)


def test_three_classes_are_refused():
    X, _ = integer_data()
    with pytest.raises(ValueError, match="y has 3 classes; LPBoost is binary"):
        LPBoost().fit(X, np.arange(40) % 3)


def test_adaboost_T_heuristic_is_the_inverse_weight_sum():
    X, y = integer_data(seed=8)
    T = adaboost_T_heuristic(X, y, n_rounds=50)
    booster = AdaBoost(n_estimators=50).fit(X, y)
    assert T == pytest.approx(1 / booster.alphas_.sum(), rel=1e-12)
    with pytest.raises(ValueError, match="n_rounds must be an integer >= 1"):
        adaboost_T_heuristic(X, y, n_rounds=0)


def test_a_fit_stopped_by_its_column_limit_says_so():
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from marginboost import LPBoost

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 4))
    y = np.where(X[:, 0] + X[:, 1] ** 2 + 0.5 * rng.normal(size=120) > 0.5, 1, -1)
    with pytest.warns(ConvergenceWarning, match="stopped at n_estimators=2 columns"):
        model = LPBoost(nu=0.2, n_estimators=2).fit(X, y)
    assert not model.converged_
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        assert LPBoost(nu=0.2, n_estimators=500).fit(X, y).converged_


@pytest.mark.parametrize(
    "make",
    [
        lambda **kw: LPBoost(nu=0.25, **kw),
        lambda **kw: AdaBoostCG(T=0.1, **kw),
        lambda **kw: LogitBoostCG(T=0.1, **kw),
    ],
    ids=["LPBoost", "AdaBoostCG", "LogitBoostCG"],
)
def test_warm_start_goes_on_where_the_previous_fit_stopped(make):
    X, y = integer_data(seed=3, n=80, flip=0.15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        whole = make(n_estimators=12, max_depth=2).fit(X, y)
        parts = make(n_estimators=5, max_depth=2, warm_start=True).fit(X, y)
        first_time = parts.history_["time"][-1]
        parts.set_params(n_estimators=12).fit(X, y)
    assert parts.n_estimators_ == whole.n_estimators_
    assert parts.converged_ == whole.converged_
    assert len(parts.history_["objective"]) == parts.n_iterations_ == whole.n_iterations_
    np.testing.assert_allclose(parts.history_["objective"], whole.history_["objective"], rtol=1e-7)
    np.testing.assert_allclose(parts.decision_function(X), whole.decision_function(X), atol=1e-7)
    staged = list(parts.staged_decision_function(X))
    assert len(staged) == parts.n_iterations_
    assert parts.history_["time"][4] == first_time <= parts.history_["time"][5]
    # a converged fit stays converged and adds nothing
    if parts.converged_:
        before = parts.n_estimators_
        parts.set_params(n_estimators=before + 5).fit(X, y)
        assert parts.converged_ and parts.n_estimators_ == before


def test_warm_start_refuses_what_it_cannot_continue():
    X, y = integer_data(seed=3, n=80, flip=0.15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = LPBoost(nu=0.25, n_estimators=6, max_depth=2, warm_start=True).fit(X, y)
    with pytest.raises(ValueError, match="n_estimators=3 must be at least the 6 columns"):
        model.set_params(n_estimators=3).fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features, the fitted model 3"):
        model.set_params(n_estimators=10).fit(X[:, :2], y)
    with pytest.raises(ValueError, match="y has the classes"):
        model.fit(X, np.where(y > 0, "a", "b"))
    assert model.n_features_in_ == 3 and list(model.classes_) == [-1, 1]
    assert model.predict(X).shape == (80,)  # still the fitted model
