r"""The dual QPs of MCBoost and MDBoost solved by one interior-point solver (claim C9 of Guo &
Chen): "the quadratic term matrix in MCBoost is an identity while in MDBoost, a pseudo-inverse of
a positive semi-definite matrix, hence the complexity of MCBoost is lower".

Our estimators solve both restricted masters in the primal (``bench_margin_masters.py``), where
no pseudo-inverse appears.  Here the two dual forms are written out and handed to the same solver
(Clarabel through cvxpy), on the same columns:

* MCBoost, Guo & Chen eq. (19): :math:`\min_{u,r}\ r + \tfrac14 (u - 2E\mathbf 1)^\top(u - 2E
  \mathbf 1)` subject to :math:`A^\top u \le r\mathbf 1` (identity quadratic term).  Its optimum
  is minus the optimum of the primal (12), :math:`\min_w \rho^\top\rho - 2E\mathbf 1^\top\rho`.
* MDBoost, the dual of :math:`\max_w \mathbf 1^\top\rho - \tfrac D2 \rho^\top C\rho` over the
  simplex (our primal times M, with :math:`C = I - \mathbf 1\mathbf 1^\top/M` so that
  :math:`\rho^\top C\rho / M` is the margin variance): :math:`\min_{u,r}\ r + \tfrac1{2D}
  (u - \mathbf 1)^\top C^\dagger (u - \mathbf 1)` subject to :math:`A^\top u \le r\mathbf 1`,
  :math:`\mathbf 1^\top u = M`, with the pseudo-inverse :math:`C^\dagger` (which is C itself, a
  projection) given to the solver as a dense M x M matrix.  Its optimum equals the primal's.

Both optima are checked against our primal masters (``*_duality_gap``: relative difference), so
the two programs timed are the right ones.  The columns ``A = y_i h_j(x_i)`` are those of a real
column-generation run (MCBoost, E = 0.1) on the training part of the first repetition of the
MCBoost protocol (60% of ida_german, of ida_banana), the first J of them for J = 50 and all.
Times: best of two, cvxpy building and solving (``*_s``) and the time inside the solver alone
(``*_solver_s``).

Run with ``marginboost bench dual_masters`` or ``python benchmarks/bench_dual_masters.py``; results
go to ``benchmarks/results/dual_masters.json``.  The verdict of claim C9 is read from that file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
RESULTS = HERE / "results" / "dual_masters.json"

from _common import environment, timed_cvxpy_solve, write_result  # noqa: E402
from bench_margin_masters import _training_part, column_generation_run  # noqa: E402

#: MCBoost's E (the margin target) and MDBoost's D (the variance weight).
E = 0.1
D = 10.0


def mcboost_dual(A: np.ndarray):  # type: ignore[no-untyped-def]
    """Guo & Chen (19): identity quadratic term."""
    import cvxpy as cp

    u, r = cp.Variable(A.shape[0]), cp.Variable()
    objective = cp.Minimize(r + 0.25 * cp.sum_squares(u - 2 * E))
    return cp.Problem(objective, [A.T @ u <= r])


def mdboost_dual(A: np.ndarray):  # type: ignore[no-untyped-def]
    """MDBoost's dual with the pseudo-inverse of the centring matrix as a dense matrix."""
    import cvxpy as cp

    M = A.shape[0]
    # C is an orthogonal projection, hence its own pseudo-inverse: C^+ = C exactly (a numerical
    # pinv differs from it by rounding, which makes the solver fail on these problems).
    pinv = np.eye(M) - np.full((M, M), 1.0 / M)
    u, r = cp.Variable(M), cp.Variable()
    quadratic = cp.quad_form(u - 1.0, cp.psd_wrap(pinv))
    objective = cp.Minimize(r + quadratic / (2 * D))
    return cp.Problem(objective, [A.T @ u <= r, cp.sum(u) == M])


def primal_optima(A: np.ndarray) -> tuple[float, float]:
    """What the duals' optima must equal, from our primal masters: minus MCBoost's (12),
    and M times MDBoost's objective."""
    from marginboost.boosting._masters import solve_mcboost, solve_mdboost

    M = A.shape[0]
    mc = solve_mcboost(A, E).objective - M * E * E  # ||Aw - E||^2 - M E^2 = (12)
    md = M * solve_mdboost(A, D).objective
    return -mc, md


def cases_for(dataset: str, A_all: np.ndarray, sizes) -> list[dict]:
    rows = []
    for J in sorted({J for J in sizes if J < A_all.shape[1]} | {A_all.shape[1]}):
        A = A_all[:, :J]
        mc_expected, md_expected = primal_optima(A)
        row: dict = {"case": f"{dataset}-{J}", "dataset": dataset, "M": int(A.shape[0]), "J": J}
        for name, build, expected in (
            ("mcboost", mcboost_dual, mc_expected),
            ("mdboost", mdboost_dual, md_expected),
        ):
            wall, inside, value = timed_cvxpy_solve(
                lambda build=build: build(A), build.__name__, solver="CLARABEL"
            )
            row |= {
                f"{name}_s": wall,
                f"{name}_solver_s": inside,
                f"{name}_duality_gap": abs(value - expected) / max(1.0, abs(expected)),
            }
        row["solver_ratio"] = row["mdboost_solver_s"] / row["mcboost_solver_s"]
        row["wall_ratio"] = row["mdboost_s"] / row["mcboost_s"]
        rows.append(row)
        print("   ", row, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one small set, few columns")
    parser.add_argument("--output", default=str(RESULTS))
    args = parser.parse_args(argv)
    datasets = ("german",) if args.quick else ("german", "banana")
    sizes = (10,) if args.quick else (50,)
    max_columns = 20 if args.quick else 1000
    cases = []
    for dataset in datasets:
        X, y = _training_part(dataset)
        A, fit = column_generation_run("mcboost", X, y, max_columns)
        print(f"   {dataset}: {A.shape[1]} columns from MCBoost's run", flush=True)
        cases += cases_for(dataset, A, sizes)
    import clarabel
    import cvxpy

    result = {
        "benchmark": "dual_masters",
        "quick": args.quick,
        "parameters": {"E": E, "D": D},
        "environment": environment(cvxpy=cvxpy.__version__, clarabel=clarabel.__version__),
        "cases": cases,
    }
    write_result(args.output, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
