"""Column generation speed: restricted master solvers against a cold cvxpy solve, and LPBoost
on Adult, measured in one run.

* ``master-adaboost-J``: the AdaBoost-l1 restricted master (Shen & Li eq. (5)) with the first J
  columns of a real AdaBoost-CG run (australian, stumps): our dedicated solver (cold start, and
  warm-started from the optimum with J - 1 columns, as column generation uses it) against cvxpy
  with Clarabel solving the same problem from scratch.
* ``master-lpboost-J``: the soft-margin LPBoost master (dual (22)) on the same columns.
  ``ours_s`` is one column-generation iteration of the incremental master
  (``_masters.LPBoostMaster``: the J-th column added as a row to the HiGHS model solved with
  J - 1 columns, re-solved from its basis by the dual simplex method), against cvxpy (Clarabel)
  solving the same master from scratch; also recorded: the cold one-shot HiGHS solve
  (``ours_cold_s``, ``solve_lpboost_dual``) and the previous implementation, a cold
  ``scipy.optimize.linprog`` solve (``linprog_s``).
* ``lpboost-adult``: soft-margin LPBoost (nu = 0.1) with depth-3 trees on 10,000 training rows of
  Adult (one-hot encoded), for ``--max-iterations`` iterations (default 286, the count of
  DirectBoost's Table 2, which reports 167,520 s on a Core2 Duo) or until convergence; with the
  time spent in the master (``master_s``) and in everything else (weak learner, bookkeeping).
* ``master-lpboost-adult-J``: the master iteration with J columns of that run (its time within
  the run) against cvxpy (Clarabel) solving the same restricted master (M = 10,000) from scratch.

Run with ``marginboost bench column_generation`` or ``python benchmarks/bench_column_generation.py``;
results go to ``benchmarks/results/column_generation.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.exceptions import ConvergenceWarning

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
RESULTS = HERE / "results" / "column_generation.json"

from _common import best_of, environment, write_result  # noqa: E402


def _cg_columns(n_columns: int) -> tuple[np.ndarray, float]:
    """The matrix A = y_i h_j(x_i) of an AdaBoost-CG run on australian with stumps."""
    from marginboost.boosting import AdaBoostCG, adaboost_T_heuristic
    from marginboost.data import load

    ds = load("australian_scale")
    X, y = ds.X, ds.y_signed()
    T = adaboost_T_heuristic(X, y, n_rounds=1000)
    with warnings.catch_warnings():  # tol=0 runs to n_columns on purpose: no convergence
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = AdaBoostCG(T=T, n_estimators=n_columns, tol=0.0).fit(X, y)
    codes = model.mapper_.transform(X)
    A = np.column_stack([y * tree.predict(codes) for tree in model.estimators_])
    return A, T


def _cvxpy_adaboost(A: np.ndarray, T: float) -> float:
    import cvxpy as cp

    w = cp.Variable(A.shape[1], nonneg=True)
    problem = cp.Problem(cp.Minimize(cp.log_sum_exp(-A @ w)), [cp.sum(w) == 1.0 / T])
    problem.solve(solver="CLARABEL")
    return float(problem.value)


def _cvxpy_lpboost(A: np.ndarray, D: float) -> float:
    import cvxpy as cp

    u = cp.Variable(A.shape[0])
    r = cp.Variable()
    problem = cp.Problem(cp.Minimize(r), [A.T @ u <= r, u >= 0, u <= D, cp.sum(u) == 1])
    problem.solve(solver="CLARABEL")
    return float(problem.value)


def _linprog_lpboost(A: np.ndarray, D: float) -> float:
    """The previous LPBoost master: a cold ``scipy.optimize.linprog`` (HiGHS) solve of (22)."""
    from scipy.optimize import linprog

    M, J = A.shape
    cost = np.zeros(M + 1)
    cost[-1] = 1.0
    A_eq = np.append(np.ones(M), 0.0)[None, :]
    res = linprog(
        cost,
        A_ub=np.hstack([A.T, -np.ones((J, 1))]),
        b_ub=np.zeros(J),
        A_eq=A_eq,
        b_eq=[1.0],
        bounds=[(0.0, D)] * M + [(None, None)],
        method="highs",
    )
    return float(res.fun)


def _lpboost_iteration(A: np.ndarray, D: float, repeats: int = 3):
    """Best time of one incremental-master iteration: add column J to the master solved with
    J - 1 columns and re-solve; returns (seconds, solution)."""
    from marginboost.boosting._masters import LPBoostMaster

    times = []
    for _ in range(repeats):
        master = LPBoostMaster(A.shape[0], D)
        master.add_columns(A[:, :-1])
        master.solve()
        start = time.perf_counter()
        master.add_column(A[:, -1])
        solution = master.solve()
        times.append(time.perf_counter() - start)
    return min(times), solution


def master_cases(sizes) -> list[dict]:
    from marginboost.boosting._masters import solve_adaboost_l1, solve_lpboost_dual

    A_all, T = _cg_columns(max(sizes))
    D = 1.0 / (0.1 * A_all.shape[0])
    rows = []
    for J in sizes:
        A = A_all[:, :J]
        previous = solve_adaboost_l1(A[:, :-1], T).w if J > 1 else None
        warm = None if previous is None else np.append(previous, 0.0)
        ours_cold = best_of(lambda: solve_adaboost_l1(A, T))
        ours_warm = best_of(lambda: solve_adaboost_l1(A, T, w0=warm))
        reference = best_of(lambda: _cvxpy_adaboost(A, T), repeats=2)
        agree = abs(solve_adaboost_l1(A, T).objective - _cvxpy_adaboost(A, T))
        rows.append(
            {
                "case": f"master-adaboost-{J}",
                "M": int(A.shape[0]),
                "J": J,
                "ours_cold_s": ours_cold,
                "ours_warm_s": ours_warm,
                "cvxpy_s": reference,
                "speedup_warm": reference / ours_warm,
                "objective_difference": agree,
            }
        )
        ours_lp, solution = _lpboost_iteration(A, D)
        ours_cold = best_of(lambda: solve_lpboost_dual(A, D))
        linprog_lp = best_of(lambda: _linprog_lpboost(A, D))
        reference_lp = best_of(lambda: _cvxpy_lpboost(A, D), repeats=2)
        agree_lp = abs(solution.objective - _cvxpy_lpboost(A, D))
        rows.append(
            {
                "case": f"master-lpboost-{J}",
                "M": int(A.shape[0]),
                "J": J,
                "ours_s": ours_lp,
                "pivots": solution.iterations,
                "ours_cold_s": ours_cold,
                "linprog_s": linprog_lp,
                "cvxpy_s": reference_lp,
                "speedup": reference_lp / ours_lp,
                "objective_difference": agree_lp,
            }
        )
        print("   ", rows[-2], "\n   ", rows[-1], flush=True)
    return rows


def adult_sample(
    n_train: int, seed: int = 0, encoding: str = "onehot"
) -> tuple[np.ndarray, np.ndarray]:
    """``n_train`` seeded rows of Adult, labels in {-1, +1}: the training set of the Adult speed
    runs.  ``encoding="onehot"``: the categorical attributes one-hot encoded (108 columns, the
    column-generation benchmark); ``"a5a"``: the 123 binary indicators of the LIBSVM a5a files
    (:func:`marginboost.data.binarize_adult`), the coding of the paper's Adult files (DirectBoost's
    Table 2).  The same rows are drawn under either coding."""
    from marginboost.data import ADULT_CATEGORICAL, binarize_adult, load, one_hot_encode

    if encoding == "onehot":
        ds = one_hot_encode(load("adult"), ADULT_CATEGORICAL)
    elif encoding == "a5a":
        ds = binarize_adult(load("adult"))
    else:
        raise ValueError(f"encoding must be 'onehot' or 'a5a'; got {encoding!r}")
    rows = np.random.default_rng(seed).choice(ds.n_samples, size=n_train, replace=False)
    return ds.X[rows], ds.y_signed()[rows]


@contextlib.contextmanager
def timed_master_solves(log=None, every: int = 100):
    """Time every solve of LPBoost's restricted master inside the block: yields a list that
    fills with ``(n_columns, seconds, pivots, objective)`` per solve; ``log`` (a print-like
    function) reports the objective every ``every`` columns."""
    from marginboost.boosting import _masters

    solves: list[tuple[int, float, int, float]] = []
    original = _masters.LPBoostMaster.solve

    def timed_solve(master):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        solution = original(master)
        solves.append(
            (master.n_columns, time.perf_counter() - start, solution.iterations, solution.objective)
        )
        if log is not None and master.n_columns % every == 0:
            log(f"    LPBoost: {master.n_columns} columns, objective {solution.objective:.6g}")
        return solution

    _masters.LPBoostMaster.solve = timed_solve
    try:
        yield solves
    finally:
        _masters.LPBoostMaster.solve = original


def lpboost_adult(
    max_iterations: int, n_train: int = 10_000, compare_at: tuple[int, ...] = (100,)
) -> list[dict]:
    """The LPBoost run on Adult, then its master at ``compare_at`` and at the last iteration
    against a cold cvxpy solve of the same restricted master."""
    from marginboost.boosting import LPBoost

    X, y = adult_sample(n_train)
    D = 1.0 / (0.1 * n_train)
    with timed_master_solves() as solves, warnings.catch_warnings():
        # whether it converged is recorded with the case
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.perf_counter()
        model = LPBoost(nu=0.1, max_depth=3, n_estimators=max_iterations).fit(X, y)
        elapsed = time.perf_counter() - start
    assert model.D_ == D and len(solves) == model.n_iterations_
    master_s = sum(s[1] for s in solves)
    cases = [
        {
            "case": "lpboost-adult",
            "n": n_train,
            "d": int(X.shape[1]),
            "depth": 3,
            "iterations": int(model.n_iterations_),
            "converged": bool(model.converged_),
            "total_s": elapsed,
            "master_s": master_s,
            "other_s": elapsed - master_s,
            "last_duality_gap": float(model.history_["duality_gap"][-1]),
            "paper_iterations": 286,
            "paper_total_s": 167_520.0,
        }
    ]
    print("   ", cases[-1], flush=True)
    codes = model.mapper_.transform(X)
    A = np.column_stack([y * tree.predict(codes) for tree in model.estimators_])
    for J in sorted({J for J in compare_at if J < model.n_iterations_} | {model.n_iterations_}):
        n_columns, ours, pivots, objective = solves[J - 1]
        assert n_columns == J
        start = time.perf_counter()
        reference = _cvxpy_lpboost(A[:, :J], D)
        reference_s = time.perf_counter() - start
        cases.append(
            {
                "case": f"master-lpboost-adult-{J}",
                "M": n_train,
                "J": J,
                "ours_s": ours,
                "pivots": pivots,
                "cvxpy_s": reference_s,
                "speedup": reference_s / ours,
                "objective_difference": abs(objective - reference),
            }
        )
        print("   ", cases[-1], flush=True)
    return cases


def _highspy_version(highspy) -> str:  # type: ignore[no-untyped-def]
    from importlib.metadata import version

    try:
        return version("highspy")
    except Exception:
        return str(getattr(highspy, "__version__", "unknown"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument(
        "--max-iterations",
        type=int,
        default=286,
        help="LPBoost iterations on Adult (default: the 286 of DirectBoost's Table 2)",
    )
    parser.add_argument("--output", default=str(RESULTS))
    args = parser.parse_args(argv)
    sizes = (5, 10) if args.quick else (10, 25, 50, 100)
    cases = master_cases(sizes)
    cases += lpboost_adult(
        20 if args.quick else args.max_iterations,
        n_train=2000 if args.quick else 10_000,
        compare_at=(10,) if args.quick else (100,),
    )
    import cvxpy
    import highspy
    import scipy

    result = {
        "benchmark": "column_generation",
        "quick": args.quick,
        "environment": environment(
            scipy=scipy.__version__, highspy=_highspy_version(highspy), cvxpy=cvxpy.__version__
        ),
        "cases": cases,
    }
    write_result(args.output, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
