"""Trees against LightGBM's and XGBoost's: the same data, bins, depths and thread counts.

The tool a user would pick for speed instead of ours is LightGBM (or XGBoost's ``hist``
method); this benchmark puts the three side by side, one run, on this machine:

* ``adult-d1`` / ``adult-d3``: Adult (48,842 rows, the categorical attributes one-hot encoded,
  108 columns), binary, trees of depth 1 (200 rounds) and depth 3 (60 rounds): our
  :class:`~marginboost.AdaBoost` against LightGBM's and XGBoost's binary logistic boosting;
* ``letter-d3``: Letter (20,000 rows, 16 features, 26 classes), depth-3 trees, 20 rounds: our
  :class:`~marginboost.SAMME` (one 26-class tree per round) against LightGBM's and XGBoost's
  multi-class boosting (26 regression trees per round);
* ``poker-d3``: the 525,010 training hands of Poker525k (10 features, 10 classes), depth-3
  trees, 10 rounds, the same three.

Every library gets 255 bins, trees of the same depth (LightGBM: ``num_leaves = 2**depth`` as
well), no row or feature sampling, and 1 or 2 threads (numba's threads for ours,
``num_threads`` / ``nthread`` for the others). A measurement is the whole fit (binning and the
library's own data set construction included) divided by the trees grown -- for the multi-class
cases per round and per class tree (a round's time over the number of classes) -- the median of
3 fits after a warm-up fit, each library and thread count in its own fresh process. The fits do
not solve the same problem (AdaBoost's weights against gradient boosting's gradients and
Hessians), but every round builds the same kind of histogram tree over the same bin codes,
which is what this measures. Beside them stands the floor: one compiled pass that reads every
bin code once (``read_floor_ms``, measured in our process at the same thread count), the least
any tree that looks at all n*d codes can take.

With the other core busy: on two cores a user's machine is rarely idle, so the full run
measures ours and LightGBM's fits again while a competing process (a pure-Python loop in a
process of its own) holds one core (``"busy": true`` in a case's record; ``--no-busy`` leaves
them out, ``--busy`` adds them to a quick run).  The goal at 2 threads holds there too: never
slower than our own 1-thread time with the same competition.

LightGBM and XGBoost are optional (the ``bench`` extra: ``pip install -e ".[bench]"``); a
library that is not installed is skipped with a note in the results.

Run with ``marginboost bench lightgbm`` or ``python benchmarks/bench_lightgbm.py [--quick]``;
results go to ``benchmarks/results/lightgbm.json``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "lightgbm.json"
sys.path.insert(0, str(HERE))

from _common import sklearn_environment, write_result  # noqa: E402

LIBRARIES = ("marginboost", "lightgbm", "xgboost")
THREADS = (1, 2)
REPEATS = 3
#: case -> (data, depth, rounds); the quick run uses the rows of QUICK_ROWS and 1/5 the rounds
CASES = {
    "adult-d1": ("adult", 1, 200),
    "adult-d3": ("adult", 3, 60),
    "letter-d3": ("letter", 3, 20),
    "poker-d3": ("poker", 3, 10),
}
QUICK_ROWS = {"adult": 5_000, "letter": 3_000, "poker": 20_000}


def load_case(data: str, quick: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(X, labels)`` of a case's data (labels in {-1, +1} for Adult, class labels else)."""
    if data == "adult":
        from marginboost.data import ADULT_CATEGORICAL, load, one_hot_encode

        ds = one_hot_encode(load("adult"), ADULT_CATEGORICAL)
        X, y = ds.X, ds.y_signed()
    elif data == "letter":
        from marginboost.data import load

        ds = load("letter")
        X, y = ds.X, ds.classes[ds.y]
    else:
        from bench_multiclass import _poker_train

        X, y, _ = _poker_train()
    if quick:
        rows = np.random.default_rng(0).choice(len(y), size=QUICK_ROWS[data], replace=False)
        X, y = X[np.sort(rows)], y[np.sort(rows)]
    return np.ascontiguousarray(X, dtype=np.float64), y


def _fit(library: str, X, y, depth: int, rounds: int, threads: int) -> int:
    """Fit one model; return the number of trees grown (for multi-class: rounds x classes)."""
    classes = np.unique(y)
    K = len(classes)
    if library == "marginboost":
        import marginboost

        cls = marginboost.AdaBoost if K == 2 else marginboost.SAMME
        model = cls(n_estimators=rounds, max_depth=depth).fit(X, y)
        return len(model.estimators_) * (1 if K == 2 else K)
    codes = np.searchsorted(classes, y)
    if library == "lightgbm":
        import lightgbm as lgb

        params = {
            "objective": "binary" if K == 2 else "multiclass",
            "max_depth": depth,
            "num_leaves": 2**depth,
            "max_bin": 255,
            "min_data_in_leaf": 1,
            "min_sum_hessian_in_leaf": 1e-3,  # 0 lets LightGBM pick a split with an empty side
            "learning_rate": 0.5,
            "num_threads": threads,
            "verbose": -1,
        }
        if K > 2:
            params["num_class"] = K
        booster = lgb.train(params, lgb.Dataset(X, codes, params={"max_bin": 255}), rounds)
        return booster.num_trees()
    import xgboost as xgb

    params = {
        "tree_method": "hist",
        "max_depth": depth,
        "max_bin": 255,
        "eta": 0.5,
        "min_child_weight": 0.0,
        "nthread": threads,
        "objective": "binary:logistic" if K == 2 else "multi:softprob",
    }
    if K > 2:
        params["num_class"] = K
    booster = xgb.train(params, xgb.DMatrix(X, codes, nthread=threads), rounds)
    return rounds * (1 if K == 2 else K)


def run_one(case: str, library: str, threads: int, quick: bool) -> dict:
    """One library at one thread count on one case (run in a fresh process)."""
    data, depth, rounds = CASES[case]
    rounds = max(2, rounds // 5) if quick else rounds
    X, y = load_case(data, quick)
    if library == "marginboost":
        import numba

        numba.set_num_threads(threads)
    _fit(library, X[:2000], y[:2000], depth, 2, threads)  # warm-up: compiled code, caches
    times, trees = [], 0
    for _ in range(REPEATS):
        start = time.perf_counter()
        trees = _fit(library, X, y, depth, rounds, threads)
        times.append(time.perf_counter() - start)
    K = len(np.unique(y))
    fit = float(np.median(times))
    floor = None
    if library == "marginboost":
        from bench_adaboost import _read_floor

        from marginboost.weak import BinMapper

        floor = 1000 * _read_floor(BinMapper(max_bins=255).fit(X).transform(X))
    return {
        "case": case,
        "library": library,
        "threads": threads,
        "n": int(X.shape[0]),
        "d": int(X.shape[1]),
        "classes": int(K),
        "depth": depth,
        "rounds": rounds,
        "trees": int(trees),
        "fit_s": fit,
        "fits_s": times,
        "ms_per_tree": 1000 * fit / trees,
        "ms_per_round": 1000 * fit / rounds,
        # one compiled pass reading every bin code once, at this thread count: the least a
        # tree that looks at all n*d codes can take
        "read_floor_ms": floor,
    }


#: The libraries measured again with the other core busy (``--busy``).
BUSY_LIBRARIES = ("marginboost", "lightgbm")

#: The competing process of a busy measurement: one core's worth of pure-Python work.
_SPIN = "import time\nend = time.monotonic() + 3600\nwhile time.monotonic() < end:\n    pass\n"


def _child(case: str, library: str, threads: int, quick: bool, busy: bool = False) -> dict:
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "NUMBA_NUM_THREADS": str(max(2, threads))}
    spinner = subprocess.Popen([sys.executable, "-c", _SPIN]) if busy else None
    try:
        out = subprocess.run(
            [sys.executable, __file__, "--one", json.dumps([case, library, threads, quick])],
            env=env,
            capture_output=True,
            text=True,
        )
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()
    if out.returncode:
        raise RuntimeError(f"{case} {library} {threads} thread(s) failed:\n{out.stderr[-2000:]}")
    line = next(x for x in out.stdout.splitlines() if x.startswith("RESULT "))
    return {**json.loads(line[len("RESULT ") :]), "busy": busy}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small samples, fewer rounds")
    parser.add_argument("--output", default=str(RESULTS), help="result file (JSON)")
    parser.add_argument(
        "--busy",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="measure ours and LightGBM again with a competing process on one core "
        "(default: in full runs, not in quick ones)",
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        case, library, threads, quick = json.loads(args.one)
        print("RESULT " + json.dumps(run_one(case, library, threads, quick)))
        return 0
    available = [lib for lib in LIBRARIES if importlib.util.find_spec(lib) is not None]
    missing = [lib for lib in LIBRARIES if lib not in available]
    versions = {lib: __import__(lib).__version__ for lib in available if lib != "marginboost"}
    load_before = os.getloadavg()[0]
    busy_runs = (False, True) if (not args.quick if args.busy is None else args.busy) else (False,)
    results = []
    for busy in busy_runs:
        for case in CASES:
            for threads in THREADS:
                for library in available:
                    if busy and library not in BUSY_LIBRARIES:
                        continue
                    record = _child(case, library, threads, args.quick, busy)
                    results.append(record)
                    print(
                        f"{case} {library} {threads} thread(s){', other core busy' if busy else ''}: "
                        f"{record['ms_per_tree']:.2f} ms per tree ({record['trees']} trees, fit "
                        f"{record['fit_s']:.2f} s)",
                        flush=True,
                    )
    write_result(
        args.output,
        {
            "benchmark": "lightgbm",
            "quick": args.quick,
            "environment": {**sklearn_environment(), **versions},
            # the 1-minute load average before and after: a busy machine slows every library
            "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            "skipped": {lib: "not installed (pip install -e '.[bench]')" for lib in missing},
            "cases": results,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
