r"""MCBoost and MDBoost restricted masters: the dedicated simplex-constrained QP solver against
cvxpy with OSQP and with Clarabel, measured in one run.

Both masters are convex QPs over the simplex :math:`\{w \ge 0, \mathbf 1^\top w = 1\}`:
MCBoost's :math:`\min \|Aw - E\mathbf 1\|^2` (Guo & Chen eq. (12)) and MDBoost's
:math:`\max \bar\rho - \frac D2\sigma^2(\rho)`, :math:`\rho = Aw` (AdaBoost-QP (41) with
:math:`T = 1/D`).  The columns come from real column-generation runs on the training part of
the first repetition of the MCBoost protocol (60% of ida_german and of ida_banana, stumps):
MCBoost with E = 0.1 and MDBoost with D = 10, each run to convergence (epsilon = 1e-5).

* ``fit-ALGO-DATA``: that run: iterations, total time and the time spent in the master.
* ``ALGO-DATA-J``: the restricted master with the first J columns of the run (J = 50, 100, 200
  where the run has that many, and all its columns).  ``ours_warm_s``: our solver
  (:func:`~marginboost.boosting._master_quadratic.solve_mcboost` / ``solve_mdboost``) warm-started from
  its optimum with J - 1 columns plus a zero weight, as column generation calls it;
  ``ours_cold_s``: from the uniform weights.  ``clarabel_s`` / ``osqp_s``: cvxpy building and
  solving the same QP from scratch (``*_solver_s``: the time inside the solver alone, a lower
  bound for calling the solver without cvxpy).  ``*_relative_difference``: ``|ours - theirs| /
  |theirs|`` of the optimal values.  OSQP runs with cvxpy's settings (``OSQP_OPTIONS``:
  tolerances 1e-5 and solution polishing, which, when it identifies the active set, returns the
  exact optimum of the QP).

Run with ``marginboost bench margin_masters`` or ``python benchmarks/bench_margin_masters.py``;
results go to ``benchmarks/results/margin_masters.json``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
RESULTS = HERE / "results" / "margin_masters.json"

from _common import best_of, environment, timed_cvxpy_solve, write_result  # noqa: E402

#: The two algorithms: estimator, its parameter, the master solver's name in ``_masters``.
ALGORITHMS = {
    "mcboost": ("MCBoost", {"E": 0.1}, "solve_mcboost"),
    "mdboost": ("MDBoost", {"D": 10.0}, "solve_mdboost"),
}
#: Data sets of the MCBoost protocol (paper names of ``protocols.mcboost.DATASETS``).
DATASETS = ("german", "banana")
#: OSQP settings: cvxpy's defaults, written out (cvxpy also turns on OSQP's solution polishing).
OSQP_OPTIONS = {"eps_abs": 1e-5, "eps_rel": 1e-5, "max_iter": 10_000}


def _training_part(name: str) -> tuple[np.ndarray, np.ndarray]:
    from marginboost.papers.mcboost.protocol import load_split

    X, y, split = load_split(name, 0)
    return X[split.train], y[split.train]


def column_generation_run(
    algorithm: str, X: np.ndarray, y: np.ndarray, max_columns: int
) -> tuple[np.ndarray, dict]:
    """The columns ``A = y_i h_j(x_i)`` of one fit, and the fit's timings (the master solver
    wrapped by a timer for the duration of the fit)."""
    import marginboost.boosting as boosting
    from marginboost.boosting import _masters

    estimator, params, solver = ALGORITHMS[algorithm]
    original = getattr(_masters, solver)
    master_times: list[float] = []

    def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        solution = original(*args, **kwargs)
        master_times.append(time.perf_counter() - start)
        return solution

    getattr(boosting, estimator)(**params, n_estimators=2).fit(X, y)  # load the kernels
    setattr(_masters, solver, timed)
    try:
        start = time.perf_counter()
        model = getattr(boosting, estimator)(**params, n_estimators=max_columns).fit(X, y)
        elapsed = time.perf_counter() - start
    finally:
        setattr(_masters, solver, original)
    codes = model.mapper_.transform(X)
    A = np.column_stack([y * tree.predict(codes) for tree in model.estimators_])
    return A, {
        "iterations": int(model.n_iterations_),
        "converged": bool(model.converged_),
        "total_s": elapsed,
        "master_s": float(sum(master_times)),
    }


def _cvxpy_problem(algorithm: str, A: np.ndarray):  # type: ignore[no-untyped-def]
    import cvxpy as cp

    _, params, _ = ALGORITHMS[algorithm]
    w = cp.Variable(A.shape[1], nonneg=True)
    rho = A @ w
    if algorithm == "mcboost":
        objective = cp.Minimize(cp.sum_squares(rho - params["E"]))
    else:
        mean = cp.sum(rho) / A.shape[0]
        objective = cp.Maximize(mean - 0.5 * params["D"] * cp.sum_squares(rho - mean) / A.shape[0])
    return cp.Problem(objective, [cp.sum(w) == 1])


def master_cases(algorithm: str, dataset: str, A_all: np.ndarray, sizes) -> list[dict]:
    from marginboost.boosting import _masters

    solve = getattr(_masters, ALGORITHMS[algorithm][2])
    parameter = next(iter(ALGORITHMS[algorithm][1].values()))
    rows = []
    for J in sorted({J for J in sizes if J < A_all.shape[1]} | {A_all.shape[1]}):
        A = A_all[:, :J]
        warm = np.append(solve(A[:, :-1], parameter).w, 0.0)
        ours = solve(A, parameter).objective
        row = {
            "case": f"{algorithm}-{dataset}-{J}",
            "algorithm": algorithm,
            "dataset": dataset,
            "M": int(A.shape[0]),
            "J": J,
            "ours_warm_s": best_of(lambda: solve(A, parameter, warm)),
            "ours_cold_s": best_of(lambda: solve(A, parameter)),
        }
        for solver in ("CLARABEL", "OSQP"):
            key = solver.lower()
            wall, inside, value = timed_cvxpy_solve(
                lambda: _cvxpy_problem(algorithm, A),
                f"{solver} on the {algorithm} master",
                solver=solver,
                **(OSQP_OPTIONS if solver == "OSQP" else {}),
            )
            row |= {
                f"{key}_s": wall,
                f"{key}_solver_s": inside,
                f"{key}_relative_difference": abs(ours - value) / abs(value),
                f"speedup_{key}": wall / row["ours_warm_s"],
            }
        rows.append(row)
        print("   ", row, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument("--output", default=str(RESULTS))
    args = parser.parse_args(argv)
    datasets = DATASETS[:1] if args.quick else DATASETS
    sizes = (10, 20) if args.quick else (50, 100, 200)
    max_columns = 30 if args.quick else 1000
    cases = []
    for dataset in datasets:
        X, y = _training_part(dataset)
        for algorithm in ALGORITHMS:
            A, fit = column_generation_run(algorithm, X, y, max_columns)
            cases.append(
                {
                    "case": f"fit-{algorithm}-{dataset}",
                    "algorithm": algorithm,
                    "dataset": dataset,
                    "M": int(A.shape[0]),
                    **fit,
                }
            )
            print("   ", cases[-1], flush=True)
            cases += master_cases(algorithm, dataset, A, sizes)
    import clarabel
    import cvxpy
    import osqp

    result = {
        "benchmark": "margin_masters",
        "quick": args.quick,
        "parameters": {name: params for name, (_, params, _) in ALGORITHMS.items()},
        "osqp_options": OSQP_OPTIONS,
        "environment": environment(
            cvxpy=cvxpy.__version__, osqp=osqp.__version__, clarabel=clarabel.__version__
        ),
        "cases": cases,
    }
    write_result(args.output, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
