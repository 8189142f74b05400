"""The incremental LPBoost restricted master (``_masters.LPBoostMaster``, HiGHS kept between
column additions) against the cold one-shot solve and an independent cvxpy/Clarabel solve."""

from __future__ import annotations

import pickle
import warnings

import cvxpy as cp
import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from marginboost.boosting import _masters
from marginboost.boosting.corrective import LPBoost

RTOL = 1e-8  # relative agreement of r and the optimal value (LP vertex vs tight interior point)


def random_columns(seed, M=60, J=14, p=0.55):
    """Random +-1 matrix with a repeated column (a degenerate addition) at position 6."""
    rng = np.random.default_rng(seed)
    A = np.where(rng.random((M, J)) < p, 1.0, -1.0)
    A[:, 6] = A[:, 2]
    return A


def cvxpy_dual(A, D):
    """Shen & Li (20)/(22) with cvxpy (Clarabel, tight tolerances): (optimal value, r)."""
    M = A.shape[0]
    u, r = cp.Variable(M), cp.Variable()
    constraints = [A.T @ u <= r, u >= 0, cp.sum(u) == 1] + ([] if D is None else [u <= D])
    problem = cp.Problem(cp.Minimize(r), constraints)
    problem.solve(solver=cp.CLARABEL, tol_gap_abs=1e-11, tol_gap_rel=1e-11, tol_feas=1e-11)
    assert problem.status == cp.OPTIMAL
    return float(problem.value), float(r.value)


def primal_value(A, w, D):
    r"""Value of the primal (19)/(21) at ``w``: :math:`\max_\rho \rho - D\sum_i(\rho - m_i)_+`."""
    margins = A @ w
    if D is None:
        return float(margins.min())
    # concave piecewise linear in rho: its maximum is at one of the margins
    return float(max(m - D * np.maximum(m - margins, 0.0).sum() for m in margins))


def assert_valid(solution, A, D):
    M, J = A.shape
    w, u = solution.w, solution.u
    assert w.shape == (J,) and u.shape == (M,)
    assert (w >= 0).all() and w.sum() == pytest.approx(1.0, abs=1e-9)
    # w is primal optimal: it reaches the common optimal value (strong duality)
    assert primal_value(A, w, D) == pytest.approx(solution.objective, rel=RTOL, abs=1e-12)
    # (u, r) is dual feasible and r is the largest edge
    assert u.sum() == pytest.approx(1.0, abs=1e-9) and (u >= 0).all()
    if D is not None:
        assert u.max() <= D * (1 + 1e-9)
    assert (A.T @ u).max() == pytest.approx(solution.r, rel=RTOL, abs=1e-10)
    assert solution.objective == pytest.approx(solution.r, rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("D", [None, 0.1, 0.04, 1.0 / 60])
@pytest.mark.parametrize("seed", [0, 1])
def test_incremental_master_matches_cold_and_cvxpy_after_each_column(seed, D):
    A = random_columns(seed)
    master = _masters.LPBoostMaster(A.shape[0], D)
    previous = -np.inf
    for j in range(1, A.shape[1] + 1):
        master.add_column(A[:, j - 1])
        warm = master.solve()
        cold = _masters.solve_lpboost_dual(A[:, :j], D)
        reference, reference_r = cvxpy_dual(A[:, :j], D)
        assert warm.objective == pytest.approx(cold.objective, rel=RTOL, abs=1e-12)
        assert warm.r == pytest.approx(cold.r, rel=RTOL, abs=1e-12)
        assert warm.objective == pytest.approx(reference, rel=RTOL, abs=1e-10)
        assert warm.r == pytest.approx(reference_r, rel=RTOL, abs=1e-10)
        assert_valid(warm, A[:, :j], D)
        assert_valid(cold, A[:, :j], D)
        # one more dual constraint: the minimum never decreases
        assert warm.objective >= previous - 1e-12
        previous = warm.objective
    assert master.n_columns == A.shape[1]


@pytest.mark.parametrize("D", [None, 0.01])
def test_incremental_master_on_a_larger_degenerate_instance(D):
    # 400 examples on 16 distinct row patterns: many tied reduced costs at every solve
    rng = np.random.default_rng(9)
    patterns = np.where(rng.random((16, 25)) < 0.6, 1.0, -1.0)
    A = patterns[rng.integers(0, 16, size=400)]
    master = _masters.LPBoostMaster(400, D)
    for j in range(1, A.shape[1] + 1):
        master.add_column(A[:, j - 1])
        warm = master.solve()
        if j % 6 == 1 or j == A.shape[1]:
            cold = _masters.solve_lpboost_dual(A[:, :j], D)
            assert warm.objective == pytest.approx(cold.objective, rel=RTOL, abs=1e-12)
            assert warm.objective == pytest.approx(cvxpy_dual(A[:, :j], D)[0], rel=RTOL, abs=1e-10)
            assert_valid(warm, A[:, :j], D)


def test_columns_added_in_blocks_give_the_same_optimum():
    A = random_columns(3, M=80, J=20)
    master = _masters.LPBoostMaster(80, 0.05)
    for stop in (5, 6, 13, 20):
        master.add_columns(A[:, master.n_columns : stop])
        assert master.solve().objective == pytest.approx(
            _masters.solve_lpboost_dual(A[:, :stop], 0.05).objective, rel=RTOL, abs=1e-12
        )


def test_warm_start_reuses_the_basis():
    A = random_columns(4, M=200, J=30)
    master = _masters.LPBoostMaster(200, 0.02)
    master.add_columns(A[:, :29])
    master.solve()
    assert master.solve().iterations == 0  # unchanged model: the kept basis is optimal
    master.add_column(A[:, 29])
    warm = master.solve()
    cold = _masters.solve_lpboost_dual(A, 0.02)
    assert warm.objective == pytest.approx(cold.objective, rel=RTOL)
    assert warm.iterations < cold.iterations


@pytest.mark.parametrize("D", [None, 0.03])
def test_perturbed_continuation_reaches_the_same_optimum(D, monkeypatch):
    # a pivot limit of 1 makes every solve fall back to the perturbed dual simplex
    A = random_columns(6, M=100, J=12)
    master = _masters.LPBoostMaster(100, D)
    monkeypatch.setattr(master, "_unperturbed_pivot_limit", (1, 0))
    for j in range(1, A.shape[1] + 1):
        master.add_column(A[:, j - 1])
        solution = master.solve()
        assert solution.objective == pytest.approx(cvxpy_dual(A[:, :j], D)[0], rel=RTOL, abs=1e-10)
        assert_valid(solution, A[:, :j], D)
    assert master.perturbed_restarts >= 1


def test_rows_are_stored_relative_to_the_most_frequent_entry():
    # a column with zeros and a constant column: the shift must keep the optimum
    rng = np.random.default_rng(8)
    A = np.column_stack(
        [
            np.where(rng.random(40) < 0.7, 1.0, -1.0),
            np.full(40, 0.5),
            rng.choice([-1.0, 0.0, 0.0, 2.0], size=40),
        ]
    )
    for D in (None, 0.1):
        master = _masters.LPBoostMaster(40, D)
        master.add_columns(A)
        solution = master.solve()
        assert solution.objective == pytest.approx(cvxpy_dual(A, D)[0], rel=RTOL, abs=1e-10)
        assert_valid(solution, A, D)


def test_smallest_feasible_D_gives_uniform_weights():
    A = random_columns(5, M=50, J=8)
    solution = _masters.solve_lpboost_dual(A, 1.0 / 50)
    np.testing.assert_allclose(solution.u, 1.0 / 50, atol=1e-12)
    assert solution.r == pytest.approx(A.mean(axis=0).max(), abs=1e-12)


@pytest.mark.parametrize("incremental", [True, False])
def test_infeasible_D_raises_the_highs_status(incremental):
    A = random_columns(0)
    D = 1.0 / 120  # D < 1/M: sum u = 1 cannot be met
    message = r"HiGHS status 2: The problem is infeasible"
    if not incremental:
        with pytest.raises(_masters.MasterSolverError, match=message) as info:
            _masters.solve_lpboost_dual(A, D)
        assert "infeasible" in info.value.status
        return
    master = _masters.LPBoostMaster(A.shape[0], D)
    for j in range(2):  # still reported after a further column
        master.add_column(A[:, j])
        with pytest.raises(_masters.MasterSolverError, match=message):
            master.solve()


def test_master_refuses_bad_input():
    with pytest.raises(ValueError, match="n_examples must be an integer >= 1"):
        _masters.LPBoostMaster(0)
    with pytest.raises(ValueError, match="D must be a positive finite number"):
        _masters.LPBoostMaster(10, D=0.0)
    master = _masters.LPBoostMaster(10)
    with pytest.raises(ValueError, match="add at least one column"):
        master.solve()
    with pytest.raises(ValueError, match="columns must have 10 entries"):
        master.add_column(np.ones(9))
    with pytest.raises(ValueError, match="NaN or inf"):
        master.add_column(np.full(10, np.nan))
    assert master.n_columns == 0


def test_lpboost_fit_follows_the_cold_master_and_keeps_no_solver_state():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 12, size=(60, 3)).astype(float)
    y = np.where(X[:, 0] - X[:, 1] + 0.5 * X[:, 2] > 2.0, 1, -1)
    y[rng.random(60) < 0.15] *= -1
    model = LPBoost(nu=0.2, n_estimators=12, tol=0.0).fit(X, y)
    codes = model.mapper_.transform(X)
    A = np.column_stack([y * tree.predict(codes) for tree in model.estimators_])
    for t in range(1, model.n_iterations_ + 1):
        cold = _masters.solve_lpboost_dual(A[:, :t], model.D_)
        assert model.history_["objective"][t - 1] == pytest.approx(
            cold.objective, rel=RTOL, abs=1e-12
        )
    assert not hasattr(model, "_master")
    pickle.loads(pickle.dumps(model))  # no HiGHS object left on the estimator
    # a refit on other data starts a new master
    refit = model.fit(X[:40], y[:40])
    assert refit.history_["objective"][0] == pytest.approx(
        _masters.solve_lpboost_dual(
            y[:40, None] * refit.estimators_[0].predict(refit.mapper_.transform(X[:40]))[:, None],
            refit.D_,
        ).objective,
        rel=RTOL,
        abs=1e-12,
    )


def test_a_kept_basis_restarts_a_new_master_at_the_optimum():
    A = random_columns(5, M=200, J=30)
    master = _masters.LPBoostMaster(200, 0.02)
    master.add_columns(A)
    first = master.solve()
    col_status, row_status = master.get_basis()
    assert col_status.shape == (201,) and row_status.shape == (31,)
    restarted = _masters.LPBoostMaster(200, 0.02)
    restarted.add_columns(A)
    restarted.set_basis(col_status, row_status)
    again = restarted.solve()
    assert again.iterations == 0  # the basis was optimal: no pivot
    assert again.objective == pytest.approx(first.objective, rel=RTOL, abs=1e-12)
    np.testing.assert_allclose(again.w, first.w, atol=1e-12)
    with pytest.raises(ValueError, match="31 row statuses"):
        restarted.set_basis(col_status, row_status[:-1])
    with pytest.raises(ValueError, match="solve it first"):
        _masters.LPBoostMaster(200, 0.02).get_basis()


def test_warm_started_lpboost_after_pickling_restarts_its_master_from_the_basis(monkeypatch):
    rng = np.random.default_rng(1)
    X = rng.integers(0, 12, size=(120, 4)).astype(float)
    y = np.where(X[:, 0] - X[:, 1] + 0.5 * X[:, 2] > 2.0, 1, -1)
    y[rng.random(120) < 0.15] *= -1
    kwargs = dict(nu=0.2, max_depth=2, tol=0.0)
    with pytest.warns(ConvergenceWarning):
        part = LPBoost(**kwargs, n_estimators=10, warm_start=True).fit(X, y)
    restored = pickle.loads(pickle.dumps(part))
    assert not hasattr(restored, "_master")
    pivots = []
    solve = _masters.LPBoostMaster.solve

    def counted(master):
        solution = solve(master)
        pivots.append(solution.iterations)
        return solution

    monkeypatch.setattr(_masters.LPBoostMaster, "solve", counted)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        restored.set_params(n_estimators=14).fit(X, y)
        whole = LPBoost(**kwargs, n_estimators=14).fit(X, y)
    assert pivots[0] == 0  # the re-solve over the 10 columns starts at their optimum
    assert restored.n_estimators_ == whole.n_estimators_ == 14
    np.testing.assert_array_equal(restored.history_["objective"], whole.history_["objective"])
    # on other rows the kept basis does not apply: the master starts from scratch
    other = pickle.loads(pickle.dumps(part))
    pivots.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        other.set_params(n_estimators=10).fit(X[:100], y[:100])
    assert pivots[0] > 0
    cold = _masters.solve_lpboost_dual(
        y[:100, None]
        * np.column_stack([t.predict(other.mapper_.transform(X[:100])) for t in other.estimators_]),
        other.D_,
    )
    assert other.history_["objective"][-1] == pytest.approx(cold.objective, rel=RTOL, abs=1e-12)
