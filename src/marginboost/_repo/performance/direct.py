"""The page's sections on DirectBoost: its Table 2 run beside the paper's, and how a round's
time grows with n and M."""

from __future__ import annotations

from ..._html import line_breaks
from .common import DIRECTBOOST_GOALS, ms

#: How the Adult rows of the DirectBoost benchmark are coded (its ``encoding`` field).
_ENCODING_WORDS = {
    "onehot": "categorical attributes one-hot encoded",
    "a5a": "coded as LIBSVM's a5a, 123 binary indicators",
}


def directboost_section(record: dict) -> list[str]:
    env = record["environment"]
    goal = DIRECTBOOST_GOALS["eps_avg_speedup_total"]
    lines = [
        "",
        "## DirectBoost's Table 2: AdaBoost, LPBoost and DirectBoost on Adult",
        "",
        f"Measured by `benchmarks/bench_directboost.py` on {env['cpu_count']} CPU cores "
        f"({env['machine']}), Python {env['python']}, numba {env['numba']} with "
        f"{env.get('numba_threads', 1)} thread(s)"
        + (" (quick smoke run)" if record.get("quick") else "")
        + f": the three methods one after the other in one run, on the same "
        f"{record['n_train']:,} Adult rows ("
        + _ENCODING_WORDS.get(record.get("encoding", "onehot"), record.get("encoding", "?"))
        + "), depth-3 trees, each to its own stopping rule under a safety cap (the stop column "
        "says which ended the run). The reference is the paper's Table 2 (a 2.6 GHz Core2 "
        "Duo).",
        "",
        "| method | iterations | paper iterations | total (s) | paper total (s) | "
        "speed-up, total | speed-up per iteration | stop |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for case in record["cases"]:
        stop = case.get("stop_reason") or (
            "converged" if case.get("converged") else "column budget, not converged"
        )
        # a run stopped before its own rule is not comparable with the paper's total time
        unfinished = case.get("converged") is False
        total = "– (not converged)" if unfinished else f"{case['speedup_total']:.1f}x"
        lines.append(
            f"| {line_breaks(case['algorithm'], '_')} | {case['iterations']:,} | "
            f"{case['paper_iterations']:,} | {case['total_s']:.1f} | "
            f"{case['paper_total_s']:,.0f} | {total} | "
            f"{case['speedup_per_iteration']:.1f}x | {stop} |"
        )
    dates = {case.get("measured") for case in record["cases"]}
    if len(dates) > 1:  # some cases rerun alone (the script's --cases)
        lines += [
            "",
            "Not all in one run: "
            + "; ".join(
                f"{case['algorithm']} measured {case.get('measured') or 'in an earlier run'}"
                for case in record["cases"]
            )
            + ".",
        ]
    lp = next((c for c in record["cases"] if c["case"] == "lpboost"), None)
    if lp and "wall_s" in lp:
        lines += [
            "",
            "LPBoost is fitted in parts of 50 columns, saved after each part, so that a long run "
            "can be interrupted and resumed; its total is the CPU seconds of its process summed "
            f"over the parts (resumed {lp['resumes']} times; {lp['wall_s']:.0f} s of wall "
            "clock). Its restricted master, nearly all of that time, runs on one thread.",
        ]
    db = next((c for c in record["cases"] if c["case"] == "directboost-eps-avg"), None)
    if db:
        met = db["speedup_total"] >= goal
        lines += [
            "",
            f"DirectBoost^eps_avg: {db['phase1_iterations']} phase-1 rounds in "
            f"{db['phase1_s']:.1f} s, {db['phase2_iterations']} phase-2 rounds in "
            f"{db['phase2_s']:.1f} s ({1000 * db['phase2_s'] / max(db['phase2_iterations'], 1):.1f}"
            f" ms per round). Goal (total training time at least {goal:g}x below the "
            f"paper's {db['paper_total_s']:.0f} s): "
            + ("met" if met else "**not met**")
            + f" ({db['speedup_total']:.1f}x"
            + (
                f"; the median of {len(db['runs_s'])} fits of "
                + ", ".join(f"{t:.1f}" for t in db["runs_s"])
                + " s"
                if len(db.get("runs_s", [])) > 1
                else ""
            )
            + "). "
            "The split searches share the features out among the numba threads (the paper's "
            "machine had two cores as well); the results do not depend on the number of "
            "threads.",
        ]
    return lines


def directboost_scaling_section(record: dict) -> list[str]:
    """Claim C11 of Zhai et al. (2013): the growth of a round's time with n, M and n'."""
    from ...papers.directboost.claims import SCALING_SLACK

    env = record["environment"]
    names = {"n": "n", "M": "M", "n_prime": "n'"}
    lines = [
        "## DirectBoost: how a round's time grows with n, M and n'",
        "",
        "Zhai et al. (2013) state the cost of one iteration: $O(Mn)$ for Algorithm 1 (phase 1) "
        "and $O(\\max(n \\log n, M n'))$ for Algorithm 2 (phase 2), with $M$ candidate weak "
        "classifiers (claim C11). `benchmarks/bench_directboost_scaling.py` times our rounds "
        f"with stumps on synthetic data ({record['bins']} bins per feature, so "
        f"$M = {2 * (record['bins'] - 1)}\\,d$), on {env['cpu_count']} CPU cores"
        + (" (quick smoke run: small sizes, few rounds)" if record.get("quick") else "")
        + ", varying one size at a time; a round's time is the median over the measured "
        "rounds of one fit.",
        "",
        "| varied | phase | n | M | n' | ms/round |",
        "|---|---|---|---|---|---|",
    ]
    for size, rows in record["series"].items():
        for r in rows:
            lines.append(
                f"| {names[size]} | {r['phase']} | {r['n']:,} | {r['M']:,} | {r['n_prime']:,} | "
                f"{ms(r['round_s'])} |"
            )
    exponents = record["exponents"]
    lines += [
        "",
        "The fitted exponents (least squares on log-log axes), against the bound's exponent 1 "
        f"in each size (we allow {1 + SCALING_SLACK:g}: the log factor of $n \\log n$ over the "
        "range measured and cache effects):",
        "",
        "| phase | size | exponent |",
        "|---|---|---|",
    ]
    for key, value in exponents.items():
        phase, size = key.split("_", 1)
        lines.append(f"| {phase.removeprefix('phase')} | {names[size]} | {value:.2f} |")
    over = [key for key, value in exponents.items() if value > 1 + SCALING_SLACK]
    reading = (
        "Every exponent is within the bound's."
        if not over
        else f"{len(over)} of the {len(exponents)} exponents exceed the bound's."
    )
    lines += [
        "",
        f"{reading} Phase 1 scores all the thresholds of a feature at once, keeping the error "
        "counts of the step intervals in a segment tree ($O(n \\log n)$ per feature), and "
        "phase 2 reads the examples sorted by margin only as far as its line search needs "
        "(about n' per candidate, fewer when the search ends early, as it does here for the "
        "larger n'). The claim's verdict is read from these exponents (see the "
        "[scoreboard](scoreboard.md)).",
        "",
    ]
    return lines
