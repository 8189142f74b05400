"""Multi-class boosting per-round training times, for DMCBoost's timing remark (Zhai, Xia & Wang,
KDD 2014): AdaBoost.M1, SAMME, AdaBoost.MH, GD-MCBoost and DMCBoost (phase I and phase II) with
depth-3 trees on Poker525k's training part and on Letter, measured in one run, with peak memory
and scikit-learn's AdaBoostClassifier (SAMME) as the named reference.  On Letter and Abalone
(many classes) DMCBoost also runs with the per-bin split kernels alone, the named reference of
its label-pair kernel (``phase1_pair_split_scores``).

The paper (C++ on a 2.6 GHz Core2 Duo) reports about 10 s per round for AdaBoost.M1 and SAMME and
about 90 s per round for DMCBoost on Poker525k (525,010 training hands, 10 classes, depth-3
trees); it gives no time for Letter, AdaBoost.MH or GD-MCBoost.

Data
    ``poker``: the training part of ``marginboost.data.poker525k(seed=2014)`` when that
    function exists, otherwise the same rows built here: UCI's 25,010 training hands
    (``load("poker_train")``) followed by the first 500,000 hands of
    ``poker_hands(1_000_000, 2014)`` (poker525k draws its training and test hands in one
    call).  ``letter``: all 20,000 rows of ``load("letter")`` (16 features, 26 classes).
    ``abalone``: all 4,177 rows of ``load("abalone")`` (28 classes), DMCBoost and SAMME only.
    ``--quick`` takes a seeded random subsample (20,000 poker rows, 3,000 letter rows, 1,000
    abalone rows) and few rounds: a smoke run.

DMCBoost's split kernels
    Phase I scores a node's splits with one of three kernels that give the same splits
    (``ZeroOneTreeObjective._kernel``): the label-pair kernel where it is cheaper, else the
    per-bin profiles (grid or segment tree).  "DMCBoost (per-bin kernels)" is DMCBoost with
    the pair kernel switched off (the choice between the other two unchanged), in its own
    process; ``pair_kernel_speedup`` is its phase-I seconds per round over DMCBoost's.

What is timed
    Every case runs in a fresh subprocess that loads the data, warms the method up on small
    subsets (so that numba compilation or loading the compiled kernels from the cache is not
    timed), then fits once.  For AdaBoost.M1, SAMME, AdaBoost.MH, GD-MCBoost and
    scikit-learn, seconds per round are the wall-clock time of ``fit`` (validation and binning
    included) divided by the number of rounds fitted (``n_estimators_``; AdaBoost.M1 stops when
    a tree's weighted error reaches 1/2, the tree of that round being fitted but not kept, and
    if that happens in round 1 it cannot boost: no time is given).  DMCBoost is fitted with ``max_phase1_rounds=P`` and ``n_estimators=P+Q``
    (``n_iter_no_change=P+Q``: no stop for lack of progress); its per-round times come from the fit's
    own clock (``history_["time"]``, seconds since the end of binning): phase I is the time of
    its last phase-I round over the number of phase-I rounds, phase II the time from there to
    the last round over the number of phase-II rounds.  The rounds of phase II are read before
    the epsilon-relaxation cuts the ensemble back to its best round (the cut rounds were
    trained and timed all the same).  Each round's own duration is stored as well.

What memory is measured
    ``rss_data_mib``: the resident set size (RSS) of the case's process after loading the
    data (Python, numpy, marginboost and the data).  ``peak_rss_mib``: the peak RSS of the
    process during the timed fit (``getrusage(RUSAGE_SELF).ru_maxrss``, after resetting the
    peak to the current RSS through ``/proc/self/clear_refs`` just before the fit; where that
    reset is not possible, the peak of the whole process, warm-up included, and
    ``peak_scope`` says so).  ``fit_extra_mib``: the peak minus the RSS just before the fit,
    i.e. the most memory the fit itself held at once.

Run with ``marginboost bench multiclass`` or ``python benchmarks/bench_multiclass.py
[--quick]``; results go to ``benchmarks/results/multiclass.json``.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "multiclass.json"
sys.path.insert(0, str(HERE))

from _common import sklearn_environment, write_result  # noqa: E402

#: The paper's seconds per round on Poker525k (Zhai, Xia & Wang 2014; Core2 Duo 2.6 GHz).
PAPER_POKER_ROUND_S = {"AdaBoost.M1": 10.0, "SAMME": 10.0, "DMCBoost": 90.0}
#: Poker525k as in the paper: UCI's 25,010 training hands plus 500,000 generated ones.
POKER_N_GENERATED, POKER_SEED = 500_000, 2014
#: Rows of the --quick subsamples.
QUICK_ROWS = {"poker": 20_000, "letter": 3_000, "abalone": 1_000}
#: Seed of the --quick subsamples.
SUBSAMPLE_SEED = 0
#: Order of the methods in the run and in the table.
METHODS = ("AdaBoost.M1", "SAMME", "AdaBoost.MH", "GD-MCBoost", "DMCBoost", "scikit-learn SAMME")
#: DMCBoost without its label-pair kernel: the reference of that kernel.
PER_BIN = "DMCBoost (per-bin kernels)"
#: The methods run on each data set.
DATA_METHODS = {
    "poker": METHODS,
    "letter": (*METHODS, PER_BIN),
    "abalone": ("SAMME", "DMCBoost", PER_BIN),
}


# ---- data ---------------------------------------------------------------------------------------
def _train_part(ds):
    """``(X, y)`` of the training rows of a dataset with a fixed train/test split."""
    split = ds.meta.get("split")
    train = split.get("train") if isinstance(split, dict) else getattr(split, "train", None)
    if train is None:
        raise ValueError(f"{ds.name!r} has no train/test split in meta['split']")
    train = np.asarray(train)
    return ds.X[train], ds.classes[ds.y[train]]


def _poker_train() -> tuple[np.ndarray, np.ndarray, str]:
    """Poker525k's 525,010 training hands: ``(X, labels, where they come from)``."""
    try:
        from marginboost.data import poker525k
    except ImportError:
        poker525k = None
    if poker525k is not None:
        X, y = _train_part(
            poker525k(
                seed=POKER_SEED, n_generated_train=POKER_N_GENERATED, n_test=POKER_N_GENERATED
            )
        )
        return X, y, (f"marginboost.data.poker525k(seed={POKER_SEED}), training part")
    from marginboost.data import load, poker_hands

    # poker525k's training hands: its generated ones are the first n_generated_train of one
    # draw of n_generated_train + n_test hands
    real = load("poker_train")
    drawn = poker_hands(2 * POKER_N_GENERATED, POKER_SEED)
    X = np.vstack([real.X, drawn.X[:POKER_N_GENERATED]])
    y = np.concatenate([real.classes[real.y], drawn.classes[drawn.y[:POKER_N_GENERATED]]])
    return (
        X,
        y,
        (
            f"load('poker_train') (25,010 UCI hands) + the first {POKER_N_GENERATED:,} of "
            f"poker_hands({2 * POKER_N_GENERATED:_}, {POKER_SEED})"
        ),
    )


def _all_rows(name: str) -> tuple[np.ndarray, np.ndarray, str]:
    from marginboost.data import load

    ds = load(name)
    return ds.X, ds.classes[ds.y], f"load({name!r}), all rows"


def load_data(name: str, n_rows: int | None) -> tuple[np.ndarray, np.ndarray, str]:
    """The data set ``name`` ("poker", "letter" or "abalone"), subsampled to ``n_rows`` rows
    (seeded)."""
    X, y, source = _poker_train() if name == "poker" else _all_rows(name)
    if n_rows is not None and n_rows < X.shape[0]:
        rows = np.sort(
            np.random.default_rng(SUBSAMPLE_SEED).choice(X.shape[0], n_rows, replace=False)
        )
        X, y = X[rows], y[rows]
        source += f", random subsample of {n_rows:,} rows (seed {SUBSAMPLE_SEED})"
    return np.ascontiguousarray(X), y, source


# ---- memory -------------------------------------------------------------------------------------
def _status_mib(key: str) -> float | None:
    """A ``/proc/self/status`` field (``VmRSS``, ``VmHWM``) in MiB, or None off Linux."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _maxrss_mib() -> float:
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale


def _reset_peak() -> bool:
    """Reset the process's peak RSS to its current RSS (Linux >= 4.0); whether it worked."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        return False
    now = _status_mib("VmRSS")
    return now is not None and _maxrss_mib() <= now + 1.0


# ---- one case -----------------------------------------------------------------------------------
def _per_bin_kernels_only() -> None:
    """Switch DMCBoost's label-pair kernel off in this process: phase I then chooses between
    the per-bin kernels as it does where the pair kernel does not apply."""
    from marginboost.boosting.dmcboost import ZeroOneTreeObjective

    def per_bin(self, codes, n_node):
        return "grid" if self._use_grid(codes, n_node) else "segment"

    ZeroOneTreeObjective._kernel = per_bin


def _model(method: str, rounds: int, phase1: int = 0):
    from marginboost.boosting import SAMME, AdaBoostM1, AdaBoostMH, DMCBoost, GDMCBoost

    if method.startswith("DMCBoost"):

        class _DMCBoostAllRounds(DMCBoost):
            """DMCBoost that keeps the history of every round, also of the rounds that the
            epsilon-relaxation cuts back (they were trained and timed all the same)."""

            def _run_phase2(self, state):
                super()._run_phase2(state)
                self.all_rounds_history_ = {
                    key: np.asarray(value, dtype=np.float64) for key, value in state.history.items()
                }

        return _DMCBoostAllRounds(
            max_depth=3,
            n_estimators=phase1 + rounds,
            max_phase1_rounds=phase1,
            n_iter_no_change=phase1 + rounds,
        )
    if method == "scikit-learn SAMME":
        from sklearn.ensemble import AdaBoostClassifier
        from sklearn.tree import DecisionTreeClassifier

        return AdaBoostClassifier(
            estimator=DecisionTreeClassifier(max_depth=3), n_estimators=rounds, random_state=0
        )
    cls = {
        "AdaBoost.M1": AdaBoostM1,
        "SAMME": SAMME,
        "AdaBoost.MH": AdaBoostMH,
        "GD-MCBoost": GDMCBoost,
    }[method]
    return cls(n_estimators=rounds, max_depth=3)


def _warm_up(method: str, X: np.ndarray, y: np.ndarray) -> None:
    """Small fits that compile the kernels or load them from numba's cache (the kernels used
    can depend on the size of the data, hence two sizes)."""
    for n in (300, 3000):
        n = min(n, X.shape[0])
        _model(method, 2, phase1=3).fit(X[:n], y[:n])


def _round_durations(times: np.ndarray) -> list[float]:
    return np.diff(np.concatenate([[0.0], times])).tolist()


def run_case(spec: dict) -> dict:
    """Run one case in this process: load, warm up, fit once, measure."""
    X, y, source = load_data(spec["data"], spec.get("n_rows"))
    rss_data = _status_mib("VmRSS") or _maxrss_mib()
    method = spec["method"]
    if method == PER_BIN:
        _per_bin_kernels_only()
    out = {
        "case": spec["case"],
        "data": spec["data"],
        "method": method,
        "source": source,
        "n": int(X.shape[0]),
        "d": int(X.shape[1]),
        "n_classes": int(np.unique(y).size),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NotBoostedWarning: reported in the results instead
        _warm_up(method, X, y)
        reset = _reset_peak()
        rss_before = _status_mib("VmRSS") or _maxrss_mib()
        model = _model(method, spec["rounds"], spec.get("phase1_rounds", 0))
        start = time.perf_counter()
        model.fit(X, y)
        fit_s = time.perf_counter() - start
    peak = _maxrss_mib()
    out.update(
        fit_s=fit_s,
        rss_data_mib=rss_data,
        rss_before_fit_mib=rss_before,
        # the two counters differ by a few hundred KiB: 0 when the fit adds less
        peak_rss_mib=peak,
        fit_extra_mib=max(0.0, peak - rss_before),
        peak_scope="timed fit" if reset else "whole process (peak reset unavailable)",
    )
    if method.startswith("DMCBoost"):
        history = getattr(model, "all_rounds_history_", model.history_)
        times, phase = history["time"], history["phase"]
        n1, n2 = int(np.sum(phase == 1)), int(np.sum(phase == 2))
        t1 = float(times[n1 - 1]) if n1 else 0.0
        out.update(
            phase1_rounds_requested=spec["phase1_rounds"],
            phase2_rounds_requested=spec["rounds"],
            phase1_rounds=n1,
            phase2_rounds=n2,
            phase1_s=t1,
            phase2_s=float(times[-1]) - t1 if n2 else 0.0,
            phase1_round_s=t1 / n1 if n1 else None,
            phase2_round_s=(float(times[-1]) - t1) / n2 if n2 else None,
            round_times_s=_round_durations(times),
            phase1_stop_reason=model.phase1_stop_reason_,
            stop_reason=model.stop_reason_,
            kept_rounds=int(model.n_estimators_),
        )
        return out
    rounds = len(model.estimators_)
    out.update(
        rounds_requested=spec["rounds"],
        rounds=rounds,
        round_s=fit_s / rounds if rounds else None,
        stop_reason=getattr(model, "stop_reason_", "n_estimators"),
        boosted=bool(getattr(model, "boosted_", rounds > 0)),
    )
    if hasattr(model, "history_"):
        out["round_times_s"] = _round_durations(model.history_["time"])
        # a round's own time (the one-off binning and validation before round 1 excluded,
        # as in bench_adaboost); round_s spreads them over the rounds
        out["median_round_s"] = float(np.median(out["round_times_s"])) if rounds else None
    return out


# ---- the run ------------------------------------------------------------------------------------
def cases(quick: bool) -> list[dict]:
    """The cases, in the order they run; ``quick`` shrinks rows and rounds."""
    # (baselines, DMCBoost phase I, DMCBoost phase II); phase II needs a few phase-I rounds
    # first (after one or two it may find only unbounded steps and stop at once)
    rounds = {
        "poker": (3, 3, 3) if quick else (10, 5, 5),
        "letter": (5, 5, 3) if quick else (50, 10, 10),
        "abalone": (5, 3, 3) if quick else (50, 10, 10),
    }
    specs = []
    for data, methods in DATA_METHODS.items():
        base, p1, p2 = rounds[data]
        for method in methods:
            spec = {
                "case": f"{data}-{method}",
                "data": data,
                "method": method,
                "n_rows": QUICK_ROWS[data] if quick else None,
                "rounds": base,
            }
            if method.startswith("DMCBoost"):
                spec.update(phase1_rounds=p1, rounds=p2)
            specs.append(spec)
    return specs


def _add_ratios(rows: list[dict]) -> None:
    """The paper's per-round time over ours (Poker), scikit-learn's over our SAMME's, and
    DMCBoost's phase I with the per-bin kernels alone over DMCBoost's."""
    for row in rows:
        paper = PAPER_POKER_ROUND_S.get(row["method"]) if row["data"] == "poker" else None
        row["paper_round_s"] = paper
        if row["method"].startswith("DMCBoost"):
            for phase in ("phase1", "phase2"):
                ours = row[f"{phase}_round_s"]
                row[f"{phase}_speedup_vs_paper"] = paper / ours if paper and ours else None
        else:
            row["speedup_vs_paper"] = (
                paper / row["round_s"] if paper and row.get("round_s") else None
            )
    for data in {row["data"] for row in rows}:
        ours = next((r for r in rows if r["data"] == data and r["method"] == "SAMME"), None)
        ref = next(
            (r for r in rows if r["data"] == data and r["method"] == "scikit-learn SAMME"), None
        )
        if ours and ref and ours.get("median_round_s") and ref.get("round_s"):
            ours["sklearn_round_s"] = ref["round_s"]
            ours["speedup_vs_sklearn"] = ref["round_s"] / ours["median_round_s"]
            ours["speedup_vs_sklearn_whole_fit"] = ref["fit_s"] / ours["fit_s"]
        dmc = next((r for r in rows if r["data"] == data and r["method"] == "DMCBoost"), None)
        per_bin = next((r for r in rows if r["data"] == data and r["method"] == PER_BIN), None)
        if dmc and per_bin and dmc.get("phase1_round_s") and per_bin.get("phase1_round_s"):
            dmc["per_bin_phase1_round_s"] = per_bin["phase1_round_s"]
            dmc["pair_kernel_speedup"] = per_bin["phase1_round_s"] / dmc["phase1_round_s"]


def table_rows(rows: list[dict]) -> list[tuple[str, ...]]:
    """(data, method, rounds, s/round, peak RSS MiB, data RSS MiB, paper s/round, paper/ours)
    per printed line; DMCBoost gives one line per phase."""

    def fmt(x, spec):
        return "-" if x is None else format(x, spec)

    lines = []
    for row in rows:
        common = (fmt(row["peak_rss_mib"], ".0f"), fmt(row["rss_data_mib"], ".0f"))
        if row["method"].startswith("DMCBoost"):
            for k, phase in ((1, "phase I"), (2, "phase II")):
                label = f"{row['method']} {phase}"
                lines.append(
                    (
                        row["data"],
                        label,
                        str(row[f"phase{k}_rounds"]),
                        fmt(row[f"phase{k}_round_s"], ".3f"),
                        *common,
                        fmt(row["paper_round_s"], "g"),
                        fmt(row[f"phase{k}_speedup_vs_paper"], ".1f"),
                    )
                )
        else:
            seconds = fmt(row["round_s"], ".3f") if row["rounds"] else "cannot boost"
            lines.append(
                (
                    row["data"],
                    row["method"],
                    str(row["rounds"]),
                    seconds,
                    *common,
                    fmt(row["paper_round_s"], "g"),
                    fmt(row["speedup_vs_paper"], ".1f"),
                )
            )
    return lines


def print_table(rows: list[dict]) -> None:
    header = (
        "data",
        "method",
        "rounds",
        "s/round",
        "peak RSS MiB",
        "data RSS MiB",
        "paper s/round",
        "paper/ours",
    )
    lines = [header] + table_rows(rows)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths)))
    for row in rows:
        if "speedup_vs_sklearn" in row:
            print(
                f"{row['data']}: our SAMME {row['median_round_s']:.4f} s/round (median), "
                f"scikit-learn {row['sklearn_round_s']:.4f} s/round: "
                f"{row['speedup_vs_sklearn']:.1f}x; whole fits "
                f"{row['speedup_vs_sklearn_whole_fit']:.1f}x"
            )
        if "pair_kernel_speedup" in row:
            print(
                f"{row['data']}: DMCBoost phase I {row['phase1_round_s']:.3f} s/round, with the "
                f"per-bin kernels alone {row['per_bin_phase1_round_s']:.3f}: "
                f"{row['pair_kernel_speedup']:.1f}x"
            )
        if not row["method"].startswith("DMCBoost") and row["rounds"] < row["rounds_requested"]:
            print(
                f"{row['data']}: {row['method']} stopped after {row['rounds']} rounds: "
                f"{row['stop_reason']}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="20,000 poker, 3,000 letter and 1,000 abalone rows, 3-5 rounds: a smoke run",
    )
    parser.add_argument("--case-json", help=argparse.SUPPRESS)
    parser.add_argument("--output", default=str(RESULTS))
    args = parser.parse_args(argv)
    if args.case_json:  # child process: one case
        print(json.dumps(run_case(json.loads(args.case_json))))
        return 0
    start = time.perf_counter()
    rows = []
    for spec in cases(args.quick):
        print(f"running {spec['case']} ...", flush=True)
        child = subprocess.run(
            [sys.executable, __file__, "--case-json", json.dumps(spec)],
            check=True,
            capture_output=True,
            text=True,
        )
        rows.append(json.loads(child.stdout.strip().splitlines()[-1]))
        print("   ", {k: v for k, v in rows[-1].items() if k != "round_times_s"}, flush=True)
    _add_ratios(rows)
    print()
    print_table(rows)
    data = {
        name: next(
            {"n": r["n"], "d": r["d"], "n_classes": r["n_classes"], "source": r["source"]}
            for r in rows
            if r["data"] == name
        )
        for name in DATA_METHODS
    }
    result = {
        "benchmark": "multiclass",
        "quick": args.quick,
        "environment": sklearn_environment(),
        "data": data,
        "max_depth": 3,
        "paper": {
            "source": "Zhai, Xia & Wang (KDD 2014), Poker525k, Core2 Duo 2.6 GHz",
            "poker_round_s": PAPER_POKER_ROUND_S,
        },
        "wall_s": time.perf_counter() - start,
        "cases": rows,
    }
    write_result(args.output, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
