"""What the sections of the performance page share: the speed goals each benchmark is checked
against (ratios against a reference measured in the same run, never absolute timings) and the
formatting of a time."""

from __future__ import annotations

import json
from pathlib import Path

from ..._paths import require_project_root

#: Speed goals of the AdaBoost benchmark (ratios against scikit-learn measured in the same run).
ADABOOST_GOALS = {
    "speedup_per_round": 10.0,
    "adult_depth1_round_ms": 2.0,
    "adult_depth3_round_ms": 8.0,
}
#: The AdaBoost cases with a goal in milliseconds per round (keys of ``ADABOOST_GOALS``).
ROUND_MS_GOALS = {"adult-d1": "adult_depth1_round_ms", "adult-d3": "adult_depth3_round_ms"}
#: Speed goals of the column-generation benchmark.
COLUMN_GENERATION_GOALS = {
    "master_speedup": 10.0,
    "lpboost_adult_seconds": 300.0,
    "master_ms_at_700": 50.0,
}
#: Speed goal of DirectBoost's Table 2 run: total time at least this many times below the paper's.
DIRECTBOOST_GOALS = {"eps_avg_speedup_total": 10.0}
#: Speed goals of the multi-class benchmark on Poker525k: a DMCBoost round (either phase) at least
#: this many times faster than the paper's 90 s, an AdaBoost.M1 / SAMME round faster than its 10 s.
#: Our SAMME's round at least ``samme_vs_sklearn`` times faster than scikit-learn's
#: AdaBoostClassifier's (same trees, same run), on Poker and on Letter.
MULTICLASS_GOALS = {"dmcboost_speedup": 50.0, "m1_samme_speedup": 1.0, "samme_vs_sklearn": 10.0}
#: A first fit's start-up cost as a multiple of scikit-learn's (issue "a new user's first fit"):
#: with an empty numba cache and with the cache filled.
STARTUP_GOALS = {"empty_cache": 3.0, "filled_cache": 1.25}
#: A tree against LightGBM's (issue "trees as fast as LightGBM's"): at 1 thread at most
#: LightGBM's time, at 2 threads at most 1.2x it and never slower than our own 1-thread time.
LIGHTGBM_GOALS = {"one_thread": 1.0, "two_threads": 1.2}


def ms(seconds: float | None) -> str:
    return "–" if seconds is None else f"{1000 * seconds:.2f}"


def load_benchmark_results(root: Path | None = None) -> dict[str, dict]:
    """All ``benchmarks/results/*.json`` files of the checkout, by benchmark name."""
    root = root or require_project_root()
    results = {}
    for path in sorted((root / "benchmarks" / "results").glob("*.json")):
        record = json.loads(path.read_text())
        results[record.get("benchmark", path.stem)] = record
    return results
