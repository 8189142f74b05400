"""LPBoost to its own stop on Adult: where the master's time goes, what a working set of examples
saves, how far each stopping tolerance is, and ERLPBoost beside it -- measured in one run.

* ``lpboost-trajectory``: soft-margin LPBoost (nu = 0.1, depth-3 trees) on 10,000 training rows
  of Adult (one-hot), ``--columns`` columns or to its stop (``tol = 1e-5``); for every column the
  master's seconds, its dual-simplex pivots and the gap of the full problem (the next tree's
  edge minus the master's bound ``r``, the Demiriz, Bennett & Shawe-Taylor rule).  Reported at
  100/300/700/2000 columns (those reached): master milliseconds per column, pivots per column
  and milliseconds per pivot, each the mean over the ten columns ending there.
* ``stop-rule-EPS``: the first column at which the gap is at most EPS (1e-2 ... 1e-5), with the
  seconds of the run until then, or ``null`` when the run ended first.
* ``working-set``: the same columns replayed through a master that keeps only a working set of
  examples in the LP (those with a positive weight or a margin at most the master's level, the
  others checked after every solve and added back when they violate it) and drops example
  variables idle for ten solves; the same optimum (``objective_difference``), its seconds per
  column, pivots and working-set size at the same checkpoints.  It is measured here, not used by
  :class:`~marginboost.LPBoost`: the pivots per column do not fall, so neither does the cost
  much (see the performance page).
* ``pricing-smoothing-B``: the same LPBoost with Wentges's dual smoothing (``smoothing=B``,
  0.5), which asks the weak learner for the tree of a weighted mean of the master's weights and
  the best weights so far; the same column budget, its gap and the columns and seconds to each
  tolerance beside plain pricing's.
* ``master-batch-K``: the columns of ``lpboost-trajectory`` replayed through LPBoost's master
  ``K`` at a time (one re-solve per ``K`` rows): master seconds, pivots and milliseconds per
  column and the final optimum beside the one-at-a-time master's.  It isolates what a
  re-solve costs per row when several rows arrive together.
* ``pricing-columns-K``: LPBoost with multiple pricing (``columns_per_iteration=K``: beside
  the oracle's tree, the best trees under the next root features, each added when it
  violates the master's constraint) with the same column budget: iterations, seconds (master
  and all), its gap and bound r after each iteration, and the columns and seconds to each
  tolerance beside plain pricing's.
* ``long-pricing-K`` (only with ``--long-columns N``, which runs this case alone and adds it to
  the results file): multiple pricing with ``K`` = 20 columns per iteration and a budget of
  ``N`` columns, to show where the gap goes past the shared budget; beside its gap and bound
  after each iteration, how many of its columns keep a positive weight in the last master (a
  basic optimum of the full problem has at least as many columns as the last master uses).
* ``vertex-moves`` (only with ``--vertex-moves N``, which runs this case alone and adds it to
  the results file): why a re-solve takes hundreds of pivots.  LPBoost's first ``N`` columns
  replayed through its master one at a time; at the checkpoints, how many of the examples have
  distinct edge patterns over the columns so far (merging identical rows into one weighted row
  could only remove the others), and, per column (the mean over the ten ending there), the
  examples whose place in the optimal vertex changes (u = 0, 0 < u < D, u = D) beside the
  pivots the re-solve takes.  Counts, not timings: they do not depend on the machine.
* ``erlpboost-EPS``: ERLPBoost (the same nu and trees) with ``tol = EPS``: columns, seconds,
  whether it stopped by its rule, and the soft margin of its combination beside LPBoost's
  bracket on the optimum (the master's last ``r`` below, the smallest next-tree edge above).

Run with ``marginboost bench lpboost_convergence`` or ``python
benchmarks/bench_lpboost_convergence.py [--columns N]``; results go to
``benchmarks/results/lpboost_convergence.json``.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.exceptions import ConvergenceWarning

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
RESULTS = HERE / "results" / "lpboost_convergence.json"

from _common import environment, write_result  # noqa: E402
from bench_column_generation import adult_sample, timed_master_solves  # noqa: E402

TOLERANCES = (1e-2, 1e-3, 1e-4, 1e-5)
#: ERLPBoost's column cap in this benchmark (a run that reaches it says so: converged false)
ERLPBOOST_CAP = 20_000
#: Wentges's smoothing weight of the pricing comparison
SMOOTHING = 0.5
CHECKPOINTS = (100, 300, 700, 2000)


class WorkingSetMaster:
    """LPBoost's soft-margin dual (22) over a working set of examples (measured, not shipped).

    The HiGHS model holds the variables of the examples in the working set only; the rest have
    ``u_i = 0``.  After every solve the margins of all examples under the master's weights are
    checked against its level :math:`\\varrho`: an outside example with a margin below it would
    enter the basis, so it is added and the model re-solved.  Example variables that stayed at 0
    with a margin above the level for ``idle`` solves are dropped (non-basic, so the basis
    stays valid).  The optimum is the full LP's.
    """

    def __init__(self, n_examples: int, D: float, idle: int = 10, tol: float = 1e-9) -> None:
        import highspy

        from marginboost.boosting._masters import _new_highs

        self.M, self.D, self.idle, self.tol = n_examples, float(D), idle, tol
        self._buffer = np.zeros((n_examples, 64))  # columns, grown by doubling
        self._n_columns = 0
        self.shift = np.zeros(0)
        self.examples: list[int] = []
        self.in_set = np.zeros(n_examples, dtype=bool)
        self.idle_count = np.zeros(n_examples, dtype=np.int64)
        self.inner_solves = 0
        self.pivots = 0
        highs = self.highs = _new_highs()
        for name, value in (
            ("output_flag", False),
            ("presolve", "off"),
            ("solver", "simplex"),
            ("simplex_strategy", 1),
        ):
            highs.setOptionValue(name, value)
        self.inf = highspy.kHighsInf
        empty_i, empty_v = np.zeros(0, dtype=np.int32), np.zeros(0)
        highs.addCol(1.0, -self.inf, self.inf, 0, empty_i, empty_v)  # r
        highs.addRow(1.0, 1.0, 0, empty_i, empty_v)  # sum u = 1
        self._add_examples(np.arange(n_examples))

    @property
    def n_columns(self) -> int:
        return self._n_columns

    @property
    def columns(self) -> np.ndarray:
        return self._buffer[:, : self._n_columns]

    def _add_examples(self, index: np.ndarray) -> None:
        if index.size == 0:
            return
        block = np.ones((index.size, self.n_columns + 1))
        block[:, 1:] = self.columns[index] - self.shift
        examples, rows = np.nonzero(block)
        starts = np.searchsorted(examples, np.arange(index.size)).astype(np.int32)
        self.highs.addCols(
            index.size,
            np.zeros(index.size),
            np.zeros(index.size),
            np.full(index.size, self.D),
            rows.size,
            starts,
            rows.astype(np.int32),
            block[examples, rows],
        )
        self.examples.extend(int(i) for i in index)
        self.in_set[index] = True
        self.idle_count[index] = 0

    def add_column(self, a: np.ndarray) -> None:
        from marginboost.boosting._masters import _most_frequent

        shift = _most_frequent(a)
        if self._n_columns == self._buffer.shape[1]:
            self._buffer = np.hstack([self._buffer, np.zeros_like(self._buffer)])
        self._buffer[:, self._n_columns] = a
        self._n_columns += 1
        self.shift = np.append(self.shift, shift)
        row = np.append(-1.0, a[self.examples] - shift)
        (nonzero,) = np.nonzero(row)
        self.highs.addRow(-self.inf, -shift, nonzero.size, nonzero.astype(np.int32), row[nonzero])

    def _run(self) -> None:
        highs = self.highs
        highs.setOptionValue("dual_simplex_cost_perturbation_multiplier", 0.0)
        highs.setOptionValue("simplex_iteration_limit", 1000 + 50 * (self.n_columns + 1))
        highs.run()
        self.pivots += highs.getInfo().simplex_iteration_count
        if highs.modelStatusToString(highs.getModelStatus()) == "Iteration limit reached":
            highs.setOptionValue("dual_simplex_cost_perturbation_multiplier", 1.0)
            highs.setOptionValue("simplex_iteration_limit", 2**31 - 1)
            highs.run()
            self.pivots += highs.getInfo().simplex_iteration_count
        status = highs.modelStatusToString(highs.getModelStatus())
        if status != "Optimal":
            raise RuntimeError(f"working-set master: HiGHS status {status}")

    def solve(self) -> float:
        """Solve to the full LP's optimum; returns the optimal value r."""
        while True:
            self.inner_solves += 1
            self._run()
            solution = self.highs.getSolution()
            values = np.asarray(solution.col_value)
            row_duals = np.asarray(solution.row_dual)
            w = np.clip(-row_duals[1:], 0.0, None)
            level = row_duals[0] + w @ self.shift
            margins = self.columns @ w
            entering = np.flatnonzero(~self.in_set & (margins < level - self.tol))
            if entering.size == 0:
                break
            self._add_examples(entering)
        u = np.zeros(self.M)
        examples = np.asarray(self.examples)
        u[examples] = values[1:]
        stays = (u[examples] > 0) | (margins[examples] <= level + 1e-7)
        self.idle_count[examples] = np.where(stays, 0, self.idle_count[examples] + 1)
        drop = np.flatnonzero(self.idle_count[examples] > self.idle)
        if drop.size:
            self.highs.deleteCols(drop.size, (drop + 1).astype(np.int32))
            self.in_set[examples[drop]] = False
            keep = np.ones(examples.size, dtype=bool)
            keep[drop] = False
            self.examples = [int(i) for i in examples[keep]]
        return float(values[0])


def _checkpoints(n_columns: int) -> list[int]:
    """The checkpoints a run of ``n_columns`` columns reached, and its last column."""
    return sorted({c for c in CHECKPOINTS if c <= n_columns} | {n_columns})


def _window(values: list[float], end: int, width: int = 10) -> float:
    return float(np.mean(values[max(0, end - width) : end]))


def lpboost_trajectory(X, y, n_columns: int) -> tuple[list[dict], np.ndarray, dict]:
    from marginboost import LPBoost

    with timed_master_solves() as solves, warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # recorded with the case
        start = time.perf_counter()
        model = LPBoost(nu=0.1, max_depth=3, n_estimators=n_columns, tol=1e-5).fit(X, y)
        elapsed = time.perf_counter() - start
    history = model.history_
    master_s = [s[1] for s in solves]
    pivots = [s[2] for s in solves]
    J = model.n_iterations_
    cases = [
        {
            "case": "lpboost-trajectory",
            "n": int(X.shape[0]),
            "columns": int(J),
            "converged": bool(model.converged_),
            "total_s": elapsed,
            "master_s": float(sum(master_s)),
            "last_gap": float(history["duality_gap"][-1]),
            # the shape of the last master's vertex: columns with a positive weight, and
            # examples strictly inside the box 0 < u_i < D (basic variables)
            "active_columns": int(history["n_active"][-1]),
            "examples_inside_box": int(
                np.count_nonzero(
                    (model.dual_weights_ > 1e-12) & (model.dual_weights_ < model.D_ - 1e-12)
                )
            ),
            "examples_at_cap": int(np.count_nonzero(model.dual_weights_ >= model.D_ - 1e-12)),
            "paper_iterations": 286,
            "gap": [float(g) for g in history["duality_gap"]],
            "objective": [float(r) for r in history["objective"]],
            "time": [float(t) for t in history["time"]],
            "master_ms": [1e3 * s for s in master_s],
            "pivots": [int(p) for p in pivots],
        }
    ]
    for c in _checkpoints(J):
        ms, piv = _window(master_s, c) * 1e3, _window(pivots, c)
        cases.append(
            {
                "case": f"master-{c}",
                "columns": c,
                "master_ms_per_column": ms,
                "pivots_per_column": piv,
                "ms_per_pivot": ms / max(piv, 1e-12),
            }
        )
    gap = history["duality_gap"]
    for eps in TOLERANCES:
        hit = np.flatnonzero(gap <= eps)
        cases.append(
            {
                "case": f"stop-rule-{eps:g}",
                "tol": eps,
                "columns": int(hit[0] + 1) if hit.size else None,
                "seconds": float(history["time"][hit[0]]) if hit.size else None,
                "reached_within": int(J),
            }
        )
    codes = model.mapper_.transform(X)
    A = np.column_stack([y * tree.predict(codes) for tree in model.estimators_])
    # LPBoost's bracket on the optimal soft margin: every restricted optimum r is below it,
    # every next tree's edge (at the master's weights) above it (exact oracle assumed)
    next_edges = history["objective"] + history["duality_gap"]
    bracket = {"lower": float(history["objective"].max()), "upper": float(next_edges.min())}
    for case in cases:
        print("   ", {k: v for k, v in case.items() if not isinstance(v, list)}, flush=True)
    return cases, A, bracket


def pricing(X, y, n_columns: int, smoothing: float, plain: dict) -> list[dict]:
    """LPBoost with Wentges's dual smoothing (``smoothing``) against plain pricing: the same
    column budget, the gap after each column, the columns and seconds to each tolerance."""
    from marginboost import LPBoost

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # recorded with the case
        start = time.perf_counter()
        model = LPBoost(
            nu=0.1, max_depth=3, n_estimators=n_columns, tol=1e-5, smoothing=smoothing
        ).fit(X, y)
        elapsed = time.perf_counter() - start
    history = model.history_
    case = {
        "case": f"pricing-smoothing-{smoothing:g}",
        "smoothing": smoothing,
        "columns": int(model.n_iterations_),
        "converged": bool(model.converged_),
        "total_s": elapsed,
        "mispricings": int(model.mispricings_),
        "last_gap": float(history["duality_gap"][-1]),
        "last_objective": float(history["objective"][-1]),
        "plain_last_gap": plain["last_gap"],
        "plain_last_objective": plain["objective"][-1],
        "gap": [float(g) for g in history["duality_gap"]],
        "to_tolerance": {},
    }
    for eps in TOLERANCES:
        hit = np.flatnonzero(history["duality_gap"] <= eps)
        case["to_tolerance"][f"{eps:g}"] = (
            {"columns": int(hit[0] + 1), "seconds": float(history["time"][hit[0]])}
            if hit.size
            else None
        )
    print("   ", {k: v for k, v in case.items() if k != "gap"}, flush=True)
    return [case]


def working_set(A: np.ndarray, reference: list[float], reference_ms: list[float]) -> list[dict]:
    D = 1.0 / (0.1 * A.shape[0])
    master = WorkingSetMaster(A.shape[0], D)
    seconds, pivots, sizes, objectives = [], [], [], []
    for j in range(A.shape[1]):
        before = master.pivots
        start = time.perf_counter()
        master.add_column(A[:, j])
        objectives.append(master.solve())
        seconds.append(time.perf_counter() - start)
        pivots.append(master.pivots - before)
        sizes.append(len(master.examples))
    cases = []
    for c in _checkpoints(A.shape[1]):
        ms = _window(seconds, c) * 1e3
        cases.append(
            {
                "case": f"working-set-{c}",
                "columns": c,
                "master_ms_per_column": ms,
                "full_master_ms_per_column": _window(reference_ms, c),
                "speedup": _window(reference_ms, c) / ms,
                "pivots_per_column": _window(pivots, c),
                "examples_in_lp": sizes[c - 1],
                "objective_difference": float(
                    np.max(np.abs(np.asarray(objectives[:c]) - np.asarray(reference[:c])))
                ),
            }
        )
        print("   ", cases[-1], flush=True)
    return cases


def erlpboost(X, y, tolerances, bracket: dict) -> list[dict]:
    from marginboost import ERLPBoost
    from marginboost.margins import soft_margin

    cases = []
    for eps in tolerances:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # recorded with the case
            start = time.perf_counter()
            # a safety cap far above the columns its rule needs here: the rule decides
            model = ERLPBoost(nu=0.1, max_depth=3, tol=eps, n_estimators=ERLPBOOST_CAP).fit(X, y)
            elapsed = time.perf_counter() - start
        cases.append(
            {
                "case": f"erlpboost-{eps:g}",
                "tol": eps,
                "columns": int(model.n_iterations_),
                "converged": bool(model.converged_),
                "seconds": elapsed,
                "soft_margin": soft_margin(y * model.decision_function(X), model.D_),
                "lpboost_bracket": bracket,
                "gap": [float(g) for g in model.history_["duality_gap"]],
            }
        )
        print("   ", {k: v for k, v in cases[-1].items() if k != "gap"}, flush=True)
    return cases


#: columns per re-solve of the master replay, and per iteration of multiple pricing
BATCHES = (5, 20)


def master_batches(A: np.ndarray, objective: list[float], batches=BATCHES) -> list[dict]:
    """The trajectory's columns through LPBoost's master ``K`` at a time (see the module
    docstring): seconds, pivots and the final optimum against the one-at-a-time master."""
    from marginboost.boosting._masters import LPBoostMaster

    M, J = A.shape
    cases = []
    for k in batches:
        master = LPBoostMaster(M, 1.0 / (0.1 * M))
        seconds, pivots, solution = 0.0, 0, None
        for start in range(0, J, k):
            master.add_columns(A[:, start : start + k])
            begin = time.perf_counter()
            solution = master.solve()
            seconds += time.perf_counter() - begin
            pivots += solution.iterations
        assert solution is not None
        cases.append(
            {
                "case": f"master-batch-{k}",
                "batch": k,
                "columns": int(J),
                "master_s": seconds,
                "ms_per_column": 1e3 * seconds / J,
                "pivots_per_column": pivots / J,
                "objective_difference": abs(solution.objective - objective[-1]),
            }
        )
        print("   ", cases[-1], flush=True)
    return cases


def multiple_pricing(
    X, y, n_columns: int, plain: dict | None, batches=BATCHES, name: str = "pricing-columns"
) -> list[dict]:
    """LPBoost with ``columns_per_iteration=K`` against plain pricing, the same column budget
    (see the module docstring); without ``plain``, on its own (``long-pricing-K``)."""
    from marginboost import LPBoost

    cases = []
    for k in batches:
        with timed_master_solves() as solves, warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # recorded with the case
            start = time.perf_counter()
            model = LPBoost(
                nu=0.1, max_depth=3, n_estimators=n_columns, tol=1e-5, columns_per_iteration=k
            ).fit(X, y)
            elapsed = time.perf_counter() - start
        history = model.history_
        columns_at = [int(w.size) for w in model._stage_weights]
        case = {
            "case": f"{name}-{k}",
            "columns_per_iteration": k,
            "columns": int(model.n_estimators_),
            "iterations": int(model.n_iterations_),
            "converged": bool(model.converged_),
            "total_s": elapsed,
            "master_s": float(sum(s[1] for s in solves)),
            "last_gap": float(history["duality_gap"][-1]),
            "last_objective": float(history["objective"][-1]),
            "positive_weights": int(np.count_nonzero(model._stage_weights[-1] > 0)),
            "columns_at": columns_at,
            "gap": [float(g) for g in history["duality_gap"]],
            "objective": [float(r) for r in history["objective"]],
            "time": [float(t) for t in history["time"]],
            "to_tolerance": {},
        }
        if plain is not None:
            case["plain_last_gap"] = plain["last_gap"]
            case["plain_last_objective"] = plain["objective"][-1]
        for eps in TOLERANCES:
            hit = np.flatnonzero(history["duality_gap"] <= eps)
            case["to_tolerance"][f"{eps:g}"] = (
                {"columns": columns_at[hit[0]], "seconds": float(history["time"][hit[0]])}
                if hit.size
                else None
            )
        cases.append(case)
        print("   ", {k: v for k, v in case.items() if not isinstance(v, list)}, flush=True)
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument(
        "--columns", type=int, default=300, help="LPBoost's column limit (default 300)"
    )
    parser.add_argument("--output", default=str(RESULTS))
    parser.add_argument(
        "--long-columns",
        type=int,
        default=None,
        help="run only the long-pricing case (20 columns per iteration, this many columns) "
        "and add it, with the date, to the results file at --output (a full run's)",
    )
    parser.add_argument(
        "--vertex-moves",
        type=int,
        default=None,
        metavar="N",
        help="run only the vertex-moves case (the first N columns replayed) and add it, with "
        "the date, to the results file at --output (a full run's)",
    )
    args = parser.parse_args(argv)
    n_train, n_columns = (2000, 40) if args.quick else (10_000, args.columns)
    X, y = adult_sample(n_train)
    if args.vertex_moves is not None:
        if args.vertex_moves < 2:
            raise SystemExit(f"--vertex-moves must be at least 2; got {args.vertex_moves}")
        return _one_case_only(
            vertex_moves(X, y, args.vertex_moves), Path(args.output), "--vertex-moves"
        )
    if args.long_columns is not None:
        return _long_pricing_only(X, y, args.long_columns, Path(args.output))
    cases, A, bracket = lpboost_trajectory(X, y, n_columns)
    trajectory = cases[0]
    cases += working_set(A, trajectory["objective"], trajectory["master_ms"])
    cases += master_batches(A, trajectory["objective"])
    cases += pricing(X, y, n_columns, SMOOTHING, trajectory)
    cases += multiple_pricing(X, y, n_columns, trajectory)
    cases += erlpboost(X, y, (0.1,) if args.quick else (0.1, 0.03, 0.01), bracket)
    import highspy
    from bench_column_generation import _highspy_version

    result = {
        "benchmark": "lpboost_convergence",
        "quick": args.quick,
        "environment": environment(highspy=_highspy_version(highspy)),
        "cases": cases,
    }
    write_result(args.output, result)
    return 0


def vertex_moves(X, y, n_columns: int) -> dict:
    """The ``vertex-moves`` case (see the module docstring)."""
    from marginboost import LPBoost
    from marginboost.boosting._masters import LPBoostMaster

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = LPBoost(nu=0.1, max_depth=3, n_estimators=n_columns, tol=1e-5).fit(X, y)
    codes = model.mapper_.transform(X)
    A = np.column_stack([y * tree.predict(codes) for tree in model.estimators_])
    M, J = A.shape
    D = model.D_
    master = LPBoostMaster(M, D)
    moved, pivots = [], []
    status = None
    for j in range(J):
        master.add_column(A[:, j])
        solution = master.solve()
        new = np.where(solution.u <= 1e-12, 0, np.where(solution.u >= D - 1e-12, 2, 1))
        if status is not None:
            moved.append(int(np.count_nonzero(new != status)))
            pivots.append(int(solution.iterations))
        status = new
    checkpoints = []
    for c in sorted({c for c in (25, 50, *CHECKPOINTS) if c <= J} | {J}):
        window = slice(max(0, c - 11), c - 1)  # the re-solves after columns c-10 .. c
        checkpoints.append(
            {
                "columns": c,
                "distinct_patterns": int(np.unique(A[:, :c], axis=0).shape[0]),
                "moved_per_column": float(np.mean(moved[window])) if moved[window] else None,
                "pivots_per_column": float(np.mean(pivots[window])) if pivots[window] else None,
            }
        )
    case = {
        "case": "vertex-moves",
        "n": int(M),
        "columns": int(J),
        "checkpoints": checkpoints,
        "moved": moved,
        "pivots": pivots,
        "measured": time.strftime("%Y-%m-%d"),
    }
    print("   ", checkpoints, flush=True)
    return case


def _one_case_only(case: dict, output: Path, option: str) -> int:
    """Add ``case`` to a full run's results file (``--long-columns``, ``--vertex-moves``)."""
    import json

    if not output.exists():
        raise SystemExit(f"{option} adds a case to {output}, which does not exist")
    result = json.loads(output.read_text())
    if result.get("quick"):
        raise SystemExit(f"{output} holds a quick run; {option} completes a full one")
    result["cases"] = [c for c in result["cases"] if c["case"] != case["case"]] + [case]
    write_result(output, result)
    return 0


def _long_pricing_only(X, y, n_columns: int, output: Path) -> int:
    """``--long-columns``: the ``long-pricing-20`` case alone, added to a full run's file."""
    if n_columns < 1:
        raise SystemExit(f"--long-columns must be at least 1; got {n_columns}")
    (case,) = multiple_pricing(X, y, n_columns, None, (20,), name="long-pricing")
    case["measured"] = time.strftime("%Y-%m-%d")
    return _one_case_only(case, output, "--long-columns")


if __name__ == "__main__":
    sys.exit(main())
