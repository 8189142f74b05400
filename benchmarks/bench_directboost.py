"""DirectBoost's Table 2 on our machine: AdaBoost, LPBoost and DirectBoost^eps_avg trained on the
same 10,000 Adult rows with depth-3 trees, measured one after the other in one run.

* ``directboost-eps-avg``: DirectBoost^eps_avg (n'/n = 0.1, epsilon = 0.01, the estimator's
  default phase-1 rules; fitted ``--repeats`` times, the median run recorded, every run's
  seconds beside it) to its own termination (phase 1 to its local minimum, phase 2 until no
  new best objective within ``n_iter_no_change`` = 50 rounds; a safety cap of 50,000 rounds,
  recorded when it binds); the phase-1 and phase-2 round counts and times are recorded.  The
  paper: 1737 iterations, 606 s.
* ``stop_readings`` (beside the cases): the same fit with the paper's stop rule read literally
  ("terminates when there is no increment in the targeted margin value": phase 2 ends at the
  first round without a new best value, ``n_iter_no_change=1``), and with 2 such rounds.
* ``adaboost``: AdaBoost until the training loss changes by less than 1e-6 in a round, capped at
  the paper's iteration count (117,852; the paper: 31,168 s).
* ``lpboost``: soft-margin LPBoost (nu = n'/n = 0.1), plain column generation as in the paper,
  until no tree violates the master's dual constraint (its termination test) or a budget of
  ``--lpboost-columns`` columns (default ``LPBOOST_COLUMNS`` = 700), whichever comes first
  (whether it converged is recorded).  Every master solve is recorded (columns, seconds,
  simplex pivots, objective) with the duality gap after it (the next tree's edge minus the
  master's bound), so the run's progress stands beside the paper's 286 iterations to
  convergence (the paper: 167,520 s).  The fit runs in parts of ``LPBOOST_PART`` columns
  (``warm_start=True``) and is saved after each part to a checkpoint under
  ``_build/benchmarks/``: an interrupted run goes on from there when rerun with the same
  budget (its master restarts from the saved optimal basis), and ``--lpboost-budget-s`` stops
  a run after that many seconds of LPBoost, to be resumed by the next run.  Its seconds are the
  CPU seconds of the process summed over the parts (``total_s``; the master, nearly all of
  the time, runs on one thread, and a long run may share the machine or be interrupted), with
  the wall-clock seconds beside them (``wall_s``).

The paper ran on a 2.6 GHz Core2 Duo with 2 GB RAM; its Adult set of 10,000 rows is not further
specified, so we draw 10,000 rows of UCI adult (seeded) and code them as the paper's Adult files
are coded: the 123 binary indicators of LIBSVM's a5a (``adult_sample(..., encoding="a5a")``).
Each method is fitted once after a small warm-up fit that loads the compiled kernels (the
compile time is not the algorithm's); LPBoost, the longest, runs first.

Run with ``marginboost bench directboost`` or ``python benchmarks/bench_directboost.py``;
results go to ``benchmarks/results/directboost.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "directboost.json"
sys.path.insert(0, str(HERE))

from _common import environment, write_result  # noqa: E402
from bench_column_generation import adult_sample, timed_master_solves  # noqa: E402

#: The cases, in the order they run (``--cases`` picks some).
CASES = ("lpboost", "directboost-eps-avg", "adaboost")
#: The paper's Table 2: iterations and total training seconds (Core2 Duo 2.6 GHz).
PAPER = {
    "AdaBoost": (117_852, 31_168.0),
    "LPBoost": (286, 167_520.0),
    "DirectBoost_eps_avg": (1737, 606.0),
}


def _timed(model, X, y) -> float:
    """Seconds of one fit. A fit stopped by its cap says so in the case record (``converged``,
    ``stop_reason``), so the estimators' ConvergenceWarning is not repeated on the console."""
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.perf_counter()
        model.fit(X, y)
        return time.perf_counter() - start


#: DirectBoost's safety cap: far above the rounds its default stop rule needs here.
DIRECT_CAP = 50_000
#: LPBoost's default column budget.  Run to its termination test, LPBoost on these rows was
#: still far from it after 700 columns (the next tree's edge above the master's bound by a few
#: hundredths, falling slowly) while a master solve took seconds there on a 2-core machine and
#: grows with every column; ``--lpboost-columns`` raises the budget for a longer run.
LPBOOST_COLUMNS = 700
#: Columns per part of the LPBoost fit (one checkpoint each).
LPBOOST_PART = 50
#: Where the LPBoost fit is saved between parts (ignored by git; removed when the run ends).
CHECKPOINTS = HERE.parent / "_build" / "benchmarks"
#: The coding of the rows (the paper's Adult files are LIBSVM's a-series).
ENCODING = "a5a"


def _directboost_case(X, y, cap: int, patience: int) -> dict:
    """Fit DirectBoost^eps_avg (n'/n = 0.1, depth 3) with ``n_iter_no_change=patience``."""
    from marginboost.boosting.directboost import directboost_variant

    model = directboost_variant(
        "DirectBoost_eps_avg", n_prime=0.1, max_depth=3, n_estimators=cap, n_iter_no_change=patience
    )
    total = _timed(model, X, y)
    history = model.history_
    n1 = int(model.n_phase1_)
    rounds = int(history["phase"].size)
    phase1_s = float(history["time"][n1 - 1]) if n1 else 0.0
    return {
        "patience": patience,
        "iterations": rounds,
        "kept": int(model.n_estimators_),
        "phase1_iterations": n1,
        "phase2_iterations": rounds - n1,
        "total_s": total,
        "phase1_s": phase1_s,
        "phase2_s": total - phase1_s,
        "stop_reason": model.stop_reason_,
        "cap": cap,
        "train_error": float(history["train_error"][-1]),
    }


def stop_readings(n_train: int, quick: bool, log=print) -> list[dict]:
    """DirectBoost^eps_avg on the same rows with phase 2 stopped after 1 (the paper's words
    read literally) and 2 rounds without a new best value."""
    from marginboost.boosting.directboost import directboost_variant

    X, y = adult_sample(n_train, encoding=ENCODING)
    _timed(
        directboost_variant("DirectBoost_eps_avg", n_prime=0.1, max_depth=3, n_estimators=20),
        X[:300],
        y[:300],
    )  # warm-up: compiles the kernels
    readings = []
    for patience in (1, 2):
        readings.append(_directboost_case(X, y, 200 if quick else DIRECT_CAP, patience))
        log("   ", readings[-1], flush=True)
    return readings


class LPBoostUnfinished(Exception):
    """The LPBoost run stopped at its time budget; its checkpoint holds the finished parts."""


def _checkpoint_path(n_train: int, columns: int) -> Path:
    """The saved LPBoost fit of ``n_train`` rows and a budget of ``columns`` columns."""
    return CHECKPOINTS / f"directboost-lpboost-{ENCODING}-{n_train}-{columns}.npz"


def _save(path: Path, state: dict) -> None:
    """Write ``state`` to ``path`` atomically (a killed write leaves the previous checkpoint),
    as data only (JSON and arrays with a checksum: reading it runs no code from the file)."""
    from marginboost.boosting._checkpoint import save_checkpoint

    path.parent.mkdir(parents=True, exist_ok=True)
    save_checkpoint(path, state)


def _lpboost_case(
    X, y, cap: int, log=print, checkpoint: Path | None = None, budget_s: float | None = None
) -> dict:
    """Plain soft-margin LPBoost (nu = 0.1, depth 3) to its termination test or ``cap`` columns
    (the budget), every master solve timed, fitted in parts of ``LPBOOST_PART`` columns.  With ``checkpoint``
    the fit is saved after every part and resumed from there; with ``budget_s`` it stops after
    the part that passes that many seconds and raises :class:`LPBoostUnfinished`."""
    from marginboost.boosting import LPBoost
    from marginboost.boosting._checkpoint import load_checkpoint

    state = None
    if checkpoint is not None and checkpoint.exists():
        state = load_checkpoint(checkpoint)
        state["resumes"] += 1
        log(f"    LPBoost: resuming at {state['model'].n_estimators_} columns from {checkpoint}")
    if state is None:
        state = {
            "model": LPBoost(nu=0.1, max_depth=3, n_estimators=1, warm_start=True),
            "solves": [],
            "wall_s": 0.0,
            "cpu_s": 0.0,
            "resumes": 0,
        }
    model, solves = state["model"], state["solves"]
    logged = {"line": None}

    def progress(line: str) -> None:  # a part's re-solve repeats the previous line
        if line != logged["line"]:
            logged["line"] = line
            log(line, flush=True)

    started = time.perf_counter()
    while True:
        fitted = getattr(model, "n_estimators_", 0)
        if fitted and (model.converged_ or fitted >= cap):
            break
        if budget_s is not None and time.perf_counter() - started >= budget_s:
            raise LPBoostUnfinished(
                f"LPBoost: {fitted} columns after this run's budget of {budget_s:.0f} s "
                f"({state['wall_s']:.0f} s in all); rerun to go on from {checkpoint}"
            )
        model.set_params(n_estimators=min(fitted + LPBOOST_PART, cap))
        with timed_master_solves(progress) as part:
            wall, cpu = time.perf_counter(), time.process_time()
            _timed(model, X, y)
            state["wall_s"] += time.perf_counter() - wall
            state["cpu_s"] += time.process_time() - cpu
        # a part's first solve re-solves the previous part's columns: not a new iteration
        last = solves[-1][0] if solves else 0
        solves.extend(solve for solve in part if solve[0] > last)
        if checkpoint is not None:
            _save(checkpoint, state)
    columns, seconds, pivots, objective = (list(v) for v in zip(*solves))
    gap = [float(v) for v in model.history_["duality_gap"]]
    case = {
        "case": "lpboost",
        "algorithm": "LPBoost",
        "iterations": int(model.n_iterations_),
        "total_s": state["cpu_s"],
        "wall_s": state["wall_s"],
        "resumes": state["resumes"],
        "master_s": float(sum(seconds)),
        "converged": bool(model.converged_),
        "cap": cap,
        "objective": float(objective[-1]),
        "trajectory": {
            "columns": columns,
            "master_s": seconds,
            "pivots": pivots,
            "objective": objective,
            "gap": gap,
        },
    }
    if checkpoint is not None:
        checkpoint.unlink()
    return case


def run(
    n_train: int,
    quick: bool,
    log=print,
    budget_s: float | None = None,
    restart: bool = False,
    lpboost_columns: int = LPBOOST_COLUMNS,
    only: tuple[str, ...] = CASES,
    repeats: int = 3,
) -> list[dict]:
    """The cases named in ``only`` (all three by default); the full run saves LPBoost's fit as
    it goes (see the module's docstring): ``restart`` drops a saved fit, ``budget_s`` bounds
    this run's LPBoost seconds and ``lpboost_columns`` is LPBoost's column budget.
    DirectBoost^eps_avg is fitted ``repeats`` times (once in the quick run): its record is the
    median run's, with every run's seconds (``runs_s``)."""
    from marginboost.boosting import AdaBoost, LPBoost
    from marginboost.boosting.directboost import directboost_variant

    X, y = adult_sample(n_train, encoding=ENCODING)
    warm_X, warm_y = X[:300], y[:300]
    cases = []

    if "lpboost" in only:
        _timed(LPBoost(nu=0.1, max_depth=3, n_estimators=5), warm_X, warm_y)
        columns = 40 if quick else lpboost_columns
        checkpoint = None if quick else _checkpoint_path(n_train, columns)
        if checkpoint is not None and restart:
            checkpoint.unlink(missing_ok=True)
        cases.append(_lpboost_case(X, y, columns, log, checkpoint, budget_s))
        log("   ", {k: v for k, v in cases[-1].items() if k != "trajectory"}, flush=True)

    if "directboost-eps-avg" in only:
        _timed(
            directboost_variant("DirectBoost_eps_avg", n_prime=0.1, max_depth=3, n_estimators=20),
            warm_X,
            warm_y,
        )  # warm-up: compiles the kernels
        runs = [
            _directboost_case(X, y, 200 if quick else DIRECT_CAP, 50)
            for _ in range(1 if quick else repeats)
        ]
        # the same rounds every time (the fit is deterministic); the median run's seconds
        runs.sort(key=lambda r: r["total_s"])
        cases.append(dict(runs[len(runs) // 2], runs_s=[r["total_s"] for r in runs]))
        cases[-1].update(case="directboost-eps-avg", algorithm="DirectBoost_eps_avg")
        log("   ", cases[-1], flush=True)

    if "adaboost" in only:
        AdaBoost(n_estimators=5, max_depth=3).fit(warm_X, warm_y)
        cap = 2000 if quick else PAPER["AdaBoost"][0]
        model = AdaBoost(n_estimators=cap, max_depth=3, tol=1e-6)
        total = _timed(model, X, y)
        cases.append(
            {
                "case": "adaboost",
                "algorithm": "AdaBoost",
                "iterations": int(model.n_estimators_),
                "total_s": total,
                "stop_reason": model.stop_reason_,
                "cap": cap,
            }
        )
        log("   ", cases[-1], flush=True)
    for case in cases:
        iterations, seconds = PAPER[case["algorithm"]]
        case.update(
            paper_iterations=iterations,
            paper_total_s=seconds,
            speedup_total=seconds / case["total_s"],
            speedup_per_iteration=(seconds / iterations) / (case["total_s"] / case["iterations"]),
        )
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2,000 rows, short runs: a smoke run")
    parser.add_argument("--output", default=str(RESULTS))
    parser.add_argument(
        "--lpboost-budget-s",
        type=float,
        default=None,
        help="stop the LPBoost fit after about this many seconds (after the part that passes "
        "them), saved to be resumed by the next run; nothing is written to --output then",
    )
    parser.add_argument(
        "--lpboost-columns",
        type=int,
        default=LPBOOST_COLUMNS,
        help=f"LPBoost's column budget (default {LPBOOST_COLUMNS}); it stops earlier when it "
        "meets its termination test",
    )
    parser.add_argument(
        "--restart", action="store_true", help="drop a saved LPBoost fit and start afresh"
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="fits of DirectBoost^eps_avg; its seconds are the median run's (default 3)",
    )
    parser.add_argument(
        "--cases",
        nargs="+",
        choices=CASES,
        default=list(CASES),
        help="run only these cases; the other cases (and, without directboost-eps-avg, the stop "
        "readings) are kept from the results file at --output, each with the date it was "
        "measured (default: all)",
    )
    args = parser.parse_args(argv)
    only = tuple(args.cases)
    previous = _previous_result(args.output, args.quick) if set(only) != set(CASES) else None
    n_train = 2000 if args.quick else 10_000
    print(f"DirectBoost Table 2: {n_train} Adult rows ({ENCODING})", flush=True)
    try:
        if args.lpboost_columns < 1:
            parser.error(f"--lpboost-columns must be at least 1; got {args.lpboost_columns}")
        if args.repeats < 1:
            parser.error(f"--repeats must be at least 1; got {args.repeats}")
        cases = run(
            n_train,
            args.quick,
            budget_s=args.lpboost_budget_s,
            restart=args.restart,
            lpboost_columns=args.lpboost_columns,
            only=only,
            repeats=args.repeats,
        )
    except LPBoostUnfinished as stopped:
        print(stopped, flush=True)
        return 0
    import numba

    today = time.strftime("%Y-%m-%d")
    for case in cases:
        case["measured"] = today
    readings = None
    if "directboost-eps-avg" in only:
        readings = stop_readings(n_train, args.quick)
    if previous is not None:
        kept = {case["case"]: case for case in previous["cases"]}
        kept.update({case["case"]: case for case in cases})
        cases = [kept[name] for name in CASES if name in kept]
        if readings is None:
            readings = previous.get("stop_readings", [])
    result = {
        "benchmark": "directboost",
        "quick": args.quick,
        "n_train": n_train,
        "encoding": ENCODING,
        "environment": environment(
            numba=numba.__version__, numba_threads=numba.config.NUMBA_NUM_THREADS
        ),
        "cases": cases,
        "stop_readings": readings,
    }
    write_result(args.output, result)
    return 0


def _previous_result(output: str, quick: bool) -> dict:
    """The results file a partial run (``--cases``) completes; it must exist and be of the
    same kind (quick or full)."""
    path = Path(output)
    if not path.exists():
        raise SystemExit(
            f"--cases runs only some cases and keeps the others from {path}, "
            "which does not exist: run all cases first"
        )
    previous = json.loads(path.read_text())
    if previous.get("quick") != quick:
        raise SystemExit(
            f"{path} holds a {'quick' if previous.get('quick') else 'full'} run; "
            "--cases completes a run of the same kind"
        )
    return previous


if __name__ == "__main__":
    sys.exit(main())
