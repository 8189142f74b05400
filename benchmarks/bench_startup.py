"""A new user's first fit: where the seconds go before the first prediction, per estimator.

Each estimator is fitted with ``n_estimators=100`` (its other parameters at their defaults) on
scikit-learn's breast-cancer data (binary estimators) or digits (multi-class ones), each in a
fresh Python process, three ways:

* ``empty cache``: numba's cache directory is a new empty folder, as after ``pip install``: the
  first fit compiles every kernel it runs;
* ``filled cache``: the same folder again, now filled by the first process: the kernels are
  loaded from disk;
* in both, the process records the seconds from its start to the first prediction (imports,
  loading the data, compiling or loading the kernels, the fit, the prediction), then fits and
  predicts once more: the **start-up cost** is the first time minus the second, what the process
  pays once before its fits run at full speed.

scikit-learn's ``AdaBoostClassifier`` (SAMME, depth-1 trees on breast cancer, depth-3 on digits)
is measured the same way in the same run: its start-up cost (mostly importing scikit-learn and
loading the data, which every process here pays too) is the reference of the ratios. The
empty-cache process also records every kernel numba compiles (its ``numba:compile`` events) with
the seconds spent compiling it (its callees' compilation excluded) and how many
specializations of it were compiled, so that the list says where the first fit's time goes.

Run with ``marginboost bench startup`` or ``python benchmarks/bench_startup.py``; results go to
``benchmarks/results/startup.json``.  ``--quick`` measures AdaBoost and DMCBoost only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "startup.json"
sys.path.insert(0, str(HERE))

from _common import sklearn_environment, write_result  # noqa: E402

#: The estimators of the measurement and their data set (binary: breast cancer; multi-class:
#: digits), as a new user would try them first.
ESTIMATORS = {
    "AdaBoost": "breast_cancer",
    "LogitBoost": "breast_cancer",
    "LPBoost": "breast_cancer",
    "MCBoost": "breast_cancer",
    "DirectBoost": "breast_cancer",
    "SAMME": "digits",
    "DMCBoost": "digits",
}
QUICK = ("AdaBoost", "DMCBoost")
N_ESTIMATORS = 100

#: The code each child process runs: ``sys.argv[1]`` the estimator (``sklearn`` for the
#: reference), ``sys.argv[2]`` the data set, ``sys.argv[3]`` whether to record compilations,
#: ``sys.argv[4]`` the number of rounds.
CHILD = r"""
import json, sys, time
start = time.perf_counter()
name, data_name, record = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
N = int(sys.argv[4])
events = []
if record:
    import numba.core.event as ev

    class Recorder(ev.Listener):
        def on_start(self, event):
            events.append((time.perf_counter(), "start", event))

        def on_end(self, event):
            events.append((time.perf_counter(), "end", event))

    ev.register("numba:compile", Recorder())
import numpy as np
from sklearn import datasets

X, y = getattr(datasets, "load_" + data_name)(return_X_y=True)
t_data = time.perf_counter()
if name == "sklearn":
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    depth = 1 if data_name == "breast_cancer" else 3

    def make():
        return AdaBoostClassifier(DecisionTreeClassifier(max_depth=depth), n_estimators=N)
else:
    import marginboost

    cls = getattr(marginboost, name)

    def make():
        return cls(n_estimators=N)
t_import = time.perf_counter()
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    make().fit(X, y).predict(X)
    first = time.perf_counter()
    again = time.perf_counter()
    make().fit(X, y).predict(X)
    second = time.perf_counter() - again
# exclusive compile seconds per kernel (a compile's time minus its callees' compiles) and how
# many specializations (argument types) of it were compiled
stack, kernels, count = [], {}, {}
for stamp, kind, event in events:
    if kind == "start":
        stack.append([stamp, 0.0])
        continue
    began, inner = stack.pop()
    spent = stamp - began
    if stack:
        stack[-1][1] += spent
    dispatcher = event.data["dispatcher"]
    func = getattr(dispatcher, "py_func", None)
    label = f"{func.__module__}.{func.__qualname__}" if func else str(dispatcher)
    kernels[label] = kernels.get(label, 0.0) + spent - inner
    count[label] = count.get(label, 0) + 1
print("RESULT " + json.dumps({
    "to_first_prediction_s": first - start,
    "data_s": t_data - start,
    "import_s": t_import - t_data,
    "fit_again_s": second,
    "startup_s": (first - start) - second,
    "warnings": sorted({type(w.message).__name__ for w in caught}),
    "kernels": [[k, v, count[k]] for k, v in sorted(kernels.items(), key=lambda kv: -kv[1])],
}))
"""


def run_child(name: str, data_name: str, cache: Path, record: bool) -> dict:
    """One fresh process: its measurements (see :data:`CHILD`)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, name, data_name, "1" if record else "0", str(N_ESTIMATORS)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(x for x in out.stdout.splitlines() if x.startswith("RESULT "))
    return json.loads(line[len("RESULT ") :])


def measure(names, progress=print) -> list[dict]:
    """The three measurements of every estimator in ``names`` and of scikit-learn's reference
    on each data set used."""
    cases = []
    for data_name in dict.fromkeys(ESTIMATORS[n] for n in names):
        with tempfile.TemporaryDirectory() as cache:
            reference = run_child("sklearn", data_name, Path(cache), record=False)
        cases.append(
            {
                "case": f"sklearn-{data_name}",
                "estimator": "AdaBoostClassifier",
                "data": data_name,
                "empty_cache": reference,
                "filled_cache": reference,
            }
        )
        progress(f"scikit-learn on {data_name}: start-up {reference['startup_s']:.2f} s")
    for name in names:
        with tempfile.TemporaryDirectory() as cache:
            t = time.perf_counter()
            empty = run_child(name, ESTIMATORS[name], Path(cache), record=True)
            filled = run_child(name, ESTIMATORS[name], Path(cache), record=False)
            progress(
                f"{name}: start-up {empty['startup_s']:.1f} s with an empty cache, "
                f"{filled['startup_s']:.2f} s filled ({time.perf_counter() - t:.0f} s)"
            )
        reference = next(c for c in cases if c["case"] == f"sklearn-{ESTIMATORS[name]}")
        ref = reference["empty_cache"]["startup_s"]
        cases.append(
            {
                "case": name,
                "estimator": name,
                "data": ESTIMATORS[name],
                "empty_cache": empty,
                "filled_cache": filled,
                "ratio_empty": empty["startup_s"] / ref,
                "ratio_filled": filled["startup_s"] / ref,
                "kernels_compiled": len(empty["kernels"]),
            }
        )
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="AdaBoost and DMCBoost only")
    parser.add_argument("--output", default=str(RESULTS), help="result file (JSON)")
    args = parser.parse_args(argv)
    names = QUICK if args.quick else tuple(ESTIMATORS)
    load_before = os.getloadavg()[0]
    cases = measure(names)
    result = {
        "benchmark": "startup",
        "quick": args.quick,
        "n_estimators": N_ESTIMATORS,
        "environment": sklearn_environment(),
        # the machine's 1-minute load average before and after the run: compilation is
        # CPU-bound, so a busy machine lengthens every empty-cache start-up
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "cases": cases,
    }
    write_result(args.output, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
