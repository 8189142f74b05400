"""The page's sections on the tree learners: AdaBoost against scikit-learn (with the scaling
figure), the multi-class methods, our trees beside LightGBM's and XGBoost's, and a first fit's
start-up cost."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..._html import line_breaks
from .common import (
    ADABOOST_GOALS,
    LIGHTGBM_GOALS,
    MULTICLASS_GOALS,
    ROUND_MS_GOALS,
    STARTUP_GOALS,
    load_benchmark_results,
    ms,
)


def adaboost_section(record: dict) -> list[str]:
    env = record["environment"]
    cases = {c["case"]: c for c in record["cases"]}
    lines = [
        "## AdaBoost: marginboost vs scikit-learn",
        "",
        f"Measured by `benchmarks/bench_adaboost.py` on {env['cpu_count']} CPU cores "
        f"({env['machine']}), Python {env['python']}, numba {env['numba']}, scikit-learn "
        f"{env['sklearn']}, marginboost {env['marginboost']}"
        + (" (quick smoke run: few rounds)" if record.get("quick") else "")
        + ".",
        "Both sides grow the same trees (Gini criterion) on the same data in the same run. "
        "Our round time is the median duration of a round of a fit, the smallest over "
        f"{record.get('ours_fits', 2)} fits (after a warm-up fit that loads the compiled "
        "kernels; the machine's other work only ever slows a fit down); scikit-learn's is its "
        "fit time divided by the number of rounds.",
        "",
        "| case | n | d | depth | ours ms/round | scikit-learn ms/round | speed-up | "
        "goal | peak RSS (MB) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    goal = ADABOOST_GOALS["speedup_per_round"]
    for name, case in cases.items():
        if "sklearn_round_s" not in case:
            continue
        met = "met" if case["speedup"] >= goal else f"not met (goal {goal:g}x)"
        if name in ROUND_MS_GOALS:
            ms_goal = ADABOOST_GOALS[ROUND_MS_GOALS[name]]
            ok = 1000 * case["ours_round_s"] <= ms_goal
            met += f"; {ms_goal:g} ms/round: " + ("met" if ok else "not met")
        lines.append(
            f"| {name} | {case['n']} | {case['d']} | {case['depth']} | "
            f"{ms(case['ours_round_s'])} | {ms(case['sklearn_round_s'])} | "
            f"{case['speedup']:.1f}x | {met} | {case['peak_rss_mb']:.0f} |"
        )
    lines += [
        "",
        "**Sparse columns.** Adult's 108 columns are mostly one-hot 0/1 indicators, on which "
        "scikit-learn's exact splitter is cheap (two distinct values, nothing to sort). A "
        "dense histogram pass costs the same per row and column whatever the values, so a "
        "depth-1 round would be one pass over all n·d codes with three accumulators. The root "
        "of a depth-1 tree is therefore searched on a histogram that treats columns dominated "
        "by one code apart: their dominant bin is the node's total minus the other bins, and "
        "columns that are never off their dominant code in the same row (the indicators of "
        "one categorical attribute) are bundled, as in LightGBM's exclusive feature bundling "
        "but without conflicts: a bundle is one list of (row, code) entries in row order, "
        "computed once per fit, and one pass over it makes exactly the additions, in the "
        "same order, that a scan of each member would make (the bundled histogram is tested "
        "bit for bit against the member scans). The root's counts per bin do not depend on "
        "the weights, so they too are computed once per fit, and each round adds only the "
        "two weight channels. Columns with exactly two codes that no code dominates (the "
        "indicators of common categories) defeat a histogram pass, since consecutive rows "
        "mostly add to the same bin and each addition waits for the one before; their rows "
        "are the sums over the rows with the rarer code, in four independent lanes without a "
        "branch, the other bin by subtraction. The chosen split is then checked on the exact histograms of "
        "the two features the leaves need (the search's rows of the other columns, neither "
        "dominated by one code nor with two codes, are those exact histograms already), and the leaves are summed from those, so "
        "the trees and their weights are those of the exact histogram (tested bit for bit). "
        "Deeper trees search every node on such histograms: the root's as a stump's, the "
        "smaller child's of each split from the node's samples, each bundle read from one "
        "column of bundle codes (built once per fit) and the other columns summed as the "
        "exact histogram sums them, and the larger child's by subtraction. Each split is "
        "checked on the exact rows of the node totals and of the chosen feature (summed again "
        "from the node's samples where the search's rows are not exact; the larger child's "
        "are the parent's minus the smaller child's, as the exact growth computes them), and "
        "a node whose check disagrees is split on its full exact histogram, so the trees are "
        "those of the exact histograms (tested bit for bit).",
    ]
    missed = [name for name, case in cases.items() if "speedup" in case and case["speedup"] < goal]
    missed += [
        name
        for name, key in ROUND_MS_GOALS.items()
        if name in cases and 1000 * cases[name]["ours_round_s"] > ADABOOST_GOALS[key]
    ]
    d1 = cases.get("adult-d1", {})
    if "read_floor_s" in d1:
        tree, floor = d1["tree_search_s"], d1["read_floor_s"]
        rest = d1["ours_round_s"] - tree
        bundles = (
            f" ({d1['sparse_features']} of the {d1['d']} columns are sparse, "
            f"{d1['bundled_features']} of them in {d1['bundles']} bundles, built once per "
            f"fit in {ms(d1['bundle_layout_s'])} ms)"
            if "bundles" in d1
            else ""
        )
        predict = (
            f", its prediction on the training codes {ms(d1['tree_predict_s'])} ms"
            if "tree_predict_s" in d1
            else ""
        )
        rest -= d1.get("tree_predict_s", 0.0)
        lines += [
            "",
            "**Where a depth-1 round's time goes.** A depth-1 Adult round is the tree search "
            "(the bundled root histogram, the check on two exact histograms, the leaves), the "
            "tree's prediction on the training codes (one comparison per sample), and about "
            "twenty-five NumPy passes over the n samples: the cost's weights and value with two "
            "exponentials, the step, the margins, and the per-round history, whose weight "
            "entropy takes a logarithm of every weight. The passes that could be shared "
            "between these steps are (the margins, the sums of the weights and of the "
            "weighted margins, and so the edge, are computed once per round), and the input "
            "checks and the training error are single compiled passes. Fusing the rest into one "
            "compiled loop would remove most of them, but it changes the order of "
            "floating-point sums (NumPy's pairwise sums and the BLAS dot products) and "
            "replaces NumPy's vectorised exponential and logarithm with the C library's, so "
            "it changes the last bits of every stored result, and is not done.",
            "",
            f"Measured in the same run (adult-d1): a round takes {ms(d1['ours_round_s'])} "
            f"ms, of which the depth-1 tree search alone takes {ms(tree)} ms{bundles}"
            f"{predict}, and the rest, mostly the NumPy passes, {ms(max(rest, 0.0))} "
            "ms (the weak learner is timed on the weights of round 21); one compiled "
            f"pass that reads each of the {d1['n']:,} x {d1['d']} bin codes once takes "
            f"{ms(floor)} ms. That pass is the floor of any round that looks at every code, "
            f"{d1['ours_round_s'] / floor:.0f}x below our round"
            + (
                ": the goal is not out of reach of the hardware, only of the present code."
                if "adult-d1" in missed
                else "."
            ),
        ]
    if missed:
        lines += [
            "",
            " ".join(
                ["**Where a goal is not met, and why.**"]
                + (
                    [
                        "A depth-3 round builds four search histograms (the root and up to "
                        "three smaller children, each child's a gather of its samples' codes "
                        "and weights), checks each split on rescanned exact rows, and "
                        "predicts and reweights all n samples: the histogram passes and the "
                        "NumPy passes of the boosting step share most of the round."
                    ]
                    if "adult-d3" in missed
                    else []
                )
                + ["Goals missed in this run: " + ", ".join(missed) + "."]
            ),
        ]
    lines += [
        "",
        "### How a round's time grows with n and d (depth 3, ours)",
        "",
        "| case | n | d | ms/round | ms/round per 10^5 n·d |",
        "|---|---|---|---|---|",
    ]
    for name, case in cases.items():
        if name.startswith("scale-"):
            per = 1000 * case["ours_round_s"] / (case["n"] * case["d"] / 1e5)
            lines.append(
                f"| {name} | {case['n']} | {case['d']} | {ms(case['ours_round_s'])} | {per:.3f} |"
            )
    fits = scaling_fits(cases)
    if fits:
        described = [
            f"∝ {axis}^{fit['slope']:.2f} ({fit['fixed']}, {fit['points']} sizes from "
            f"{fit['low']:,} to {fit['high']:,})"
            for axis, fit in fits.items()
        ]
        lines += [
            "",
            f"```{{figure}} {SCALING_FIGURE}",
            ":name: performance-scaling",
            ":width: 90%",
            "",
            "Milliseconds per depth-3 round against n (left) and d (right), log-log, with the "
            "least-squares line through the points.",
            "```",
            "",
            "Fitted on the log-log scale, a round's time grows "
            + " and ".join(described)
            + ". A slope of 1 is linear growth; a smaller one means that the part of a round "
            "that does not grow with the data (tree bookkeeping, starting the threads, the "
            "per-node passes over the bins) is still a visible share at these sizes.",
        ]
    if "jit" in cases:
        jit = cases["jit"]
        lines += [
            "",
            "### Compilation",
            "",
            f"First fit in a fresh process (import, numba compilation or cache load, "
            f"a 3-round fit): **{jit['cold_first_fit_s']:.1f} s** with an empty numba "
            f"cache, **{jit['warm_first_fit_s']:.1f} s** once the cache "
            "(`NUMBA_CACHE_DIR`) is filled.",
        ]
    return lines


#: the scaling figure, relative to ``book/`` (written by :func:`write_scaling_figure`)
SCALING_FIGURE = "_static/performance-scaling.svg"


def _scaling_points(cases: dict[str, dict], prefix: str, axis: str) -> tuple[list, list]:
    chosen = sorted(
        (case[axis], 1000 * case["ours_round_s"])
        for name, case in cases.items()
        if name.startswith(prefix)
    )
    return [x for x, _ in chosen], [ms for _, ms in chosen]


def scaling_fits(cases: dict[str, dict]) -> dict[str, dict]:
    """Least-squares slopes of log(ms per round) against log(n) and log(d)."""
    fits = {}
    for axis, prefix, other in (("n", "scale-n-", "d"), ("d", "scale-d-", "n")):
        xs, ms = _scaling_points(cases, prefix, axis)
        if len(xs) < 2:
            continue
        slope, _ = np.polyfit(np.log(xs), np.log(ms), 1)
        fixed = next(case[other] for name, case in cases.items() if name.startswith(prefix))
        fits[axis] = {
            "slope": float(slope),
            "points": len(xs),
            "low": int(min(xs)),
            "high": int(max(xs)),
            "fixed": f"{other} = {fixed:,}",
        }
    return fits


def write_scaling_figure(root: Path) -> Path | None:
    """Draw the per-round time against n and d (log-log) into ``book/`` + SCALING_FIGURE."""
    results = load_benchmark_results(root)
    cases = {c["case"]: c for c in results.get("adaboost", {}).get("cases", [])}
    fits = scaling_fits(cases)
    if not fits:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "marginboost-performance"
    fig, axes = plt.subplots(1, len(fits), figsize=(4.2 * len(fits), 3.4), squeeze=False)
    for ax, (axis, fit) in zip(axes[0], fits.items(), strict=True):
        prefix = "scale-n-" if axis == "n" else "scale-d-"
        xs, ms = _scaling_points(cases, prefix, axis)
        slope, intercept = np.polyfit(np.log(xs), np.log(ms), 1)
        grid = np.geomspace(min(xs), max(xs), 50)
        ax.loglog(xs, ms, "o", color="C0", label="measured")
        ax.loglog(
            grid, np.exp(intercept) * grid**slope, "-", color="C1", label=f"slope {slope:.2f}"
        )
        ax.set_xlabel(f"{axis} ({fit['fixed']})")
        ax.set_ylabel("ms per round")
        ax.legend(frameon=False)
    fig.tight_layout()
    path = root / "book" / SCALING_FIGURE
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)
    return path


def multiclass_section(record: dict | None) -> list[str]:
    title = ["", "## Multi-class boosting (DMCBoost paper)", ""]
    what = (
        "AdaBoost.M1, SAMME, AdaBoost.MH, GD-MCBoost and DMCBoost with depth-3 trees, and "
        "scikit-learn's `AdaBoostClassifier` (SAMME, `DecisionTreeClassifier(max_depth=3)`) "
        "as the named reference, on the training part of Poker525k (525,010 hands, 10 "
        "classes) and on Letter (20,000 rows, 26 classes), one after the other in one run. "
        "Each method runs in a fresh process: it loads the data, is warmed up on small "
        "subsets (numba compilation is not timed), then fitted once. Seconds per round are "
        "the fit time (validation and binning included) over the rounds fitted (AdaBoost.M1 "
        "stops when a tree's weighted error reaches 1/2: that tree is fitted, not kept, "
        "and cannot boost means it stopped in round 1); DMCBoost's "
        "come from its own per-round clock, phase I (P rounds, `max_phase1_rounds`) and "
        "phase II (up to Q rounds, the rounds the epsilon-relaxation cuts back included) "
        "separately. Peak RSS is the peak "
        "resident memory of the method's process during the timed fit (the peak reset just "
        "before it), next to the RSS after loading the data (interpreter, libraries and "
        "data). The paper (C++ on a 2.6 GHz Core2 Duo) reports about 10 s per round for "
        "AdaBoost.M1 and SAMME and about 90 s for DMCBoost on Poker525k; it gives no time for "
        "Letter, AdaBoost.MH or GD-MCBoost. On Letter and Abalone (many classes) "
        "DMCBoost also runs with its per-bin split kernels alone, the reference of its "
        "label-pair kernel (phase I scores a node's splits with whichever of the three is "
        "cheaper; all three give the same splits). Goals: a DMCBoost round, in either phase, at "
        f"least {MULTICLASS_GOALS['dmcboost_speedup']:g}x below the paper's 90 s "
        f"({90 / MULTICLASS_GOALS['dmcboost_speedup']:.1f} s), AdaBoost.M1 and "
        "SAMME rounds under the paper's 10 s."
    )
    if record is None:
        return title + [
            f"Measured by `benchmarks/bench_multiclass.py`: {what}",
            "",
            "Not measured yet: run `marginboost bench multiclass` to fill this "
            "section from `benchmarks/results/multiclass.json`.",
        ]
    env, quick = record["environment"], record.get("quick")
    data = record["data"]
    lines = title + [
        f"Measured by `benchmarks/bench_multiclass.py` on {env['cpu_count']} CPU cores "
        f"({env['machine']}), Python {env['python']}, numba {env['numba']} with "
        f"{env.get('numba_threads', 1)} thread(s), scikit-learn {env['sklearn']}, marginboost "
        f"{env['marginboost']}"
        + (
            " (quick smoke run: random subsamples and few rounds, not comparable with the paper)"
            if quick
            else ""
        )
        + f": {what}",
        "",
        f"Poker: {data['poker']['n']:,} x {data['poker']['d']}, {data['poker']['n_classes']} "
        f"classes ({data['poker']['source']}); Letter: {data['letter']['n']:,} x "
        f"{data['letter']['d']}, {data['letter']['n_classes']} classes "
        f"({data['letter']['source']})"
        + (
            f"; Abalone: {data['abalone']['n']:,} x {data['abalone']['d']}, "
            f"{data['abalone']['n_classes']} classes ({data['abalone']['source']})."
            if "abalone" in data
            else "."
        ),
        "",
        "| data | method | rounds | s/round | paper s/round | paper / ours | goal | "
        "peak RSS (MiB) | RSS after loading the data (MiB) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def goal(method: str, data_name: str, speedup: float | None) -> str:
        if data_name != "poker" or quick or speedup is None:
            return "–"
        key = "dmcboost_speedup" if method == "DMCBoost" else "m1_samme_speedup"
        if method not in ("DMCBoost", "AdaBoost.M1", "SAMME"):
            return "–"
        return "met" if speedup >= MULTICLASS_GOALS[key] else "**not met**"

    def num(value: float | None, spec: str) -> str:
        return "–" if value is None else format(value, spec)

    notes = []
    for case in record["cases"]:
        memory = f"{case['peak_rss_mib']:.0f} | {case['rss_data_mib']:.0f}"
        paper = case.get("paper_round_s")
        if case["method"].startswith("DMCBoost"):
            for k, phase in ((1, "phase I"), (2, "phase II")):
                label = f"{case['method']} {phase}"
                speedup = case.get(f"phase{k}_speedup_vs_paper")
                lines.append(
                    f"| {case['data']} | {label} | {case[f'phase{k}_rounds']} | "
                    f"{num(case[f'phase{k}_round_s'], '.3f')} | {num(paper, 'g')} | "
                    f"{num(speedup, '.1f')}{'x' if speedup else ''} | "
                    f"{goal('DMCBoost', case['data'], speedup)} | {memory} |"
                )
            if (
                case["phase2_rounds"] < case["phase2_rounds_requested"]
                or case["phase1_rounds"] < case["phase1_rounds_requested"]
            ):
                notes.append(
                    f"{case['method']} on {case['data']}: {case['phase1_rounds']} of "
                    f"{case['phase1_rounds_requested']} phase-I rounds "
                    f"({case['phase1_stop_reason']}), {case['phase2_rounds']} of "
                    f"{case['phase2_rounds_requested']} phase-II rounds "
                    f"({case['stop_reason']})."
                )
            continue
        speedup = case.get("speedup_vs_paper")
        seconds = num(case["round_s"], ".3f") if case["rounds"] else "cannot boost"
        lines.append(
            f"| {case['data']} | {case['method']} | {case['rounds']} | {seconds} | "
            f"{num(paper, 'g')} | {num(speedup, '.1f')}{'x' if speedup else ''} | "
            f"{goal(case['method'], case['data'], speedup)} | {memory} |"
        )
        if case["rounds"] < case["rounds_requested"]:
            notes.append(
                f"{case['method']} on {case['data']}: {case['rounds']} of "
                f"{case['rounds_requested']} rounds ({case['stop_reason']})."
            )
    for case in record["cases"]:
        if "pair_kernel_speedup" in case:
            notes.append(
                f"DMCBoost's phase I on {case['data']}: {case['phase1_round_s']:.3f} s per "
                f"round, {case['per_bin_phase1_round_s']:.3f} s with the per-bin kernels "
                f"alone, {case['pair_kernel_speedup']:.1f} times DMCBoost's (which uses the "
                "label-pair kernel where it is the cheaper one)."
            )
        if "speedup_vs_sklearn" in case:
            if "median_round_s" in case:
                sk_goal = MULTICLASS_GOALS["samme_vs_sklearn"]
                met = "met" if case["speedup_vs_sklearn"] >= sk_goal else "**not met**"
                if quick:
                    met = "not judged on a quick run"
                notes.append(
                    f"Our SAMME against scikit-learn's AdaBoostClassifier on {case['data']}: "
                    f"{1000 * case['median_round_s']:.1f} ms per round (median; "
                    f"{1000 * case['round_s']:.1f} ms with the one-off binning spread over the "
                    f"{case['rounds']} rounds) against {1000 * case['sklearn_round_s']:.1f} ms, "
                    f"{case['speedup_vs_sklearn']:.1f}x (goal {sk_goal:g}x: {met}); whole fits "
                    f"{case['speedup_vs_sklearn_whole_fit']:.1f}x."
                )
            else:
                notes.append(
                    f"Our SAMME against scikit-learn's AdaBoostClassifier on "
                    f"{case['data']}: {case['round_s']:.3f} s against "
                    f"{case['sklearn_round_s']:.3f} s per round, "
                    f"{case['speedup_vs_sklearn']:.1f}x."
                )
    if any(case.get("peak_scope") != "timed fit" for case in record["cases"]):
        notes.append(
            "Where the peak could not be reset before the fit, the peak RSS is that of "
            "the whole process, warm-up included."
        )
    if notes:
        lines += [""] + [" ".join(notes)]
    return lines


def lightgbm_section(record: dict) -> list[str]:
    env = record["environment"]
    cases = [c for c in record["cases"] if not c.get("busy")]
    busy = [c for c in record["cases"] if c.get("busy")]
    by = {(c["case"], c["library"], c["threads"]): c for c in cases}
    others = [lib for lib in ("lightgbm", "xgboost") if lib in env]
    names = {"lightgbm": "LightGBM", "xgboost": "XGBoost"}
    lines = [
        "",
        "## Trees beside LightGBM's and XGBoost's",
        "",
        f"Measured by `benchmarks/bench_lightgbm.py` on {env['cpu_count']} CPU cores, "
        + ", ".join(f"{names[lib]} {env[lib]}" for lib in others)
        + (" (quick run: small samples, few rounds)" if record.get("quick") else "")
        + (
            f"; the machine's load average was {record['load_average'][0]:.1f} before the run "
            f"and {record['load_average'][1]:.1f} after it"
            if "load_average" in record
            else ""
        )
        + ". Our AdaBoost (Adult, binary) and SAMME (Letter, Poker525k's training hands) "
        "against the other libraries' boosting with the same 255 bins, depth and thread "
        "count: milliseconds per tree of the whole fit (binning included; for the "
        "multi-class sets per class tree: a round's time over the classes), the median of 3 "
        "fits in a fresh process per library and thread count. The floor is one compiled "
        "pass reading every bin code once. "
        + (
            "Not measured: "
            + ", ".join(f"{lib} ({why})" for lib, why in record["skipped"].items())
            + ". "
            if record.get("skipped")
            else ""
        )
        + f"Goals: at 1 thread at most LightGBM's time; at 2 threads at most "
        f"{LIGHTGBM_GOALS['two_threads']:g}x LightGBM's and never slower than our 1-thread time.",
        "",
        "| case | threads | ours (ms) | "
        + " | ".join(f"{names[lib]} (ms)" for lib in others)
        + " | floor (ms) | ours / LightGBM, goal |",
        "|---|---|---|" + "---|" * len(others) + "---|---|",
    ]
    for case in dict.fromkeys(c["case"] for c in cases):
        for threads in (1, 2):
            ours = by.get((case, "marginboost", threads))
            if ours is None:
                continue
            cells = [
                f"{by[case, lib, threads]['ms_per_tree']:.2f}"
                if (case, lib, threads) in by
                else "-"
                for lib in others
            ]
            goal = _goal(by, case, threads)
            floor = ours.get("read_floor_ms")
            lines.append(
                f"| {case} | {threads} | {ours['ms_per_tree']:.2f} | "
                + " | ".join(cells)
                + f" | {'-' if floor is None else f'{floor:.3f}'} | {goal} |"
            )
    if busy:
        lines += _busy_lines(busy, by)
    return lines


def _goal(by: dict, case: str, threads: int) -> str:
    """Ours against LightGBM at ``threads`` in the cases ``by`` (case, library, threads), and
    whether the goal is met (at 2 threads also: not slower than our 1-thread time)."""
    ours, lgb = by[case, "marginboost", threads], by.get((case, "lightgbm", threads))
    if lgb is None:
        return "-"
    ratio = ours["ms_per_tree"] / lgb["ms_per_tree"]
    limit = LIGHTGBM_GOALS["one_thread" if threads == 1 else "two_threads"]
    single = by.get((case, "marginboost", 1))
    slower = threads == 2 and single is not None and ours["ms_per_tree"] > single["ms_per_tree"]
    return (
        f"{ratio:.2f}x, "
        + ("met" if ratio <= limit and not slower else "not met")
        + ("; slower than 1 thread" if slower else "")
    )


def _busy_lines(busy: list[dict], quiet: dict) -> list[str]:
    """The table of the fits measured with a competing process on one core."""
    by = {(c["case"], c["library"], c["threads"]): c for c in busy}
    lines = [
        "",
        "The same fits with the other core busy (a competing process, one core's worth of "
        "pure-Python work, runs during each measurement): milliseconds per tree, and our time "
        "against the quiet one above. Goal at 2 threads: at most "
        f"{LIGHTGBM_GOALS['two_threads']:g}x LightGBM's and never slower than our 1-thread "
        "time under the same competition.",
        "",
        "| case | threads | ours (ms) | LightGBM (ms) | ours, busy / quiet | ours / LightGBM, goal |",
        "|---|---|---|---|---|---|",
    ]
    for case in dict.fromkeys(c["case"] for c in busy):
        for threads in (1, 2):
            ours = by.get((case, "marginboost", threads))
            if ours is None:
                continue
            lgb = by.get((case, "lightgbm", threads))
            calm = quiet.get((case, "marginboost", threads))
            slowdown = "-" if calm is None else f"{ours['ms_per_tree'] / calm['ms_per_tree']:.2f}x"
            goal = _goal(by, case, threads)
            lines.append(
                f"| {case} | {threads} | {ours['ms_per_tree']:.2f} | "
                + ("-" if lgb is None else f"{lgb['ms_per_tree']:.2f}")
                + f" | {slowdown} | {goal} |"
            )
    return lines


def startup_section(record: dict) -> list[str]:
    env = record["environment"]
    cases = record["cases"]
    refs = {c["data"]: c for c in cases if c["case"].startswith("sklearn-")}
    lines = [
        "",
        "## A first fit: start-up cost",
        "",
        f"Measured by `benchmarks/bench_startup.py` on {env['cpu_count']} CPU cores, numba "
        f"{env['numba']}, scikit-learn {env['sklearn']}"
        + (" (quick run: two estimators)" if record.get("quick") else "")
        + f". Each estimator is fitted with `n_estimators={record['n_estimators']}` (other "
        "parameters at their defaults) on scikit-learn's breast-cancer data (binary) or "
        "digits (multi-class), in a fresh process: once with numba's cache folder empty, as "
        "after an install, and once with the folder the first process filled. The start-up "
        "cost is a process's seconds from its start to the first prediction (imports, data, "
        "compiling or loading the kernels, the fit) minus the same fit and prediction repeated "
        "in that process. scikit-learn's `AdaBoostClassifier` is measured the same way in "
        "the same run: "
        + ", ".join(
            f"{r['empty_cache']['startup_s']:.2f} s on {d.replace('_', ' ')}"
            for d, r in refs.items()
        )
        + (
            f". The machine's load average was {record['load_average'][0]:.1f} before the run "
            f"and {record['load_average'][1]:.1f} after it (on {env['cpu_count']} cores: "
            "compilation is CPU-bound, so a busy machine lengthens every empty-cache start-up)"
            if "load_average" in record
            else ""
        )
        + f". Goals: at most {STARTUP_GOALS['empty_cache']:g}x scikit-learn's start-up with "
        f"an empty cache and {STARTUP_GOALS['filled_cache']:g}x with the cache filled.",
        "",
        "| estimator | data | empty cache (s) | x scikit-learn | cache filled (s) "
        "| x scikit-learn | the fit (s) |",
        "|---|---|---|---|---|---|---|",
    ]
    kernels: dict[str, tuple[float, int]] = {}
    for c in cases:
        if c["case"].startswith("sklearn-"):
            continue
        empty, filled = c["empty_cache"], c["filled_cache"]
        marks = [
            f"{ratio:.1f}x, " + ("met" if ratio <= STARTUP_GOALS[goal] else "not met")
            for ratio, goal in (
                (c["ratio_empty"], "empty_cache"),
                (c["ratio_filled"], "filled_cache"),
            )
        ]
        lines.append(
            f"| {c['estimator']} | {c['data'].replace('_', ' ')} | {empty['startup_s']:.1f} "
            f"| {marks[0]} | {filled['startup_s']:.2f} | {marks[1]} "
            f"| {filled['fit_again_s']:.2f} |"
        )
        for name, seconds, versions in empty["kernels"]:
            kernels[name] = max(kernels.get(name, (0.0, 0)), (seconds, versions))
    top = sorted(kernels.items(), key=lambda kv: -kv[1][0])[:10]
    if top:
        lines += [
            "",
            f"The kernels whose compilation takes longest in a first fit (of {len(kernels)} "
            "compiled by the fits above; seconds of their own compilation, callees excluded, "
            "and specializations compiled, the largest over the estimators):",
            "",
            "| kernel | compile (s) | specializations |",
            "|---|---|---|",
            *(
                f"| <code>{line_breaks(name.removeprefix('marginboost.'), '[.]')}</code> "
                f"| {seconds:.2f} | {versions} |"
                for name, (seconds, versions) in top
            ),
        ]
    return lines
