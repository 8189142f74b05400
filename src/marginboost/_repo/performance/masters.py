"""The page's sections on the restricted masters of column generation: LPBoost's master
against cvxpy, LPBoost to its own stop (with the gap figure), the margin-distribution masters
and the dual masters."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .common import COLUMN_GENERATION_GOALS, load_benchmark_results, ms


def column_generation_section(record: dict) -> list[str]:
    env = record["environment"]
    goal = COLUMN_GENERATION_GOALS["master_speedup"]
    lines = [
        "",
        "## Column generation: restricted masters and LPBoost",
        "",
        f"Measured by `benchmarks/bench_column_generation.py` on {env['cpu_count']} CPU cores, "
        f"scipy {env['scipy']}, cvxpy {env['cvxpy']}"
        + (" (quick smoke run)" if record.get("quick") else "")
        + ". The reference is cvxpy "
        "(Clarabel) solving the same restricted master from scratch; columns come from a real "
        "AdaBoost-CG run on australian with stumps.",
        "",
        "| master | M | J | ours (ms) | cvxpy (ms) | speed-up | goal | objective difference (abs) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for case in record["cases"]:
        if case["case"].startswith("master-adaboost"):
            ours, speedup = case["ours_warm_s"], case["speedup_warm"]
            label = "AdaBoost-l1 (5), warm start"
        elif case["case"].startswith("master-lpboost"):
            ours, speedup = case["ours_s"], case["speedup"]
            label = "soft-margin LPBoost (22), HiGHS, one warm iteration" + (
                " (Adult run)" if case["case"].startswith("master-lpboost-adult") else ""
            )
        else:
            continue
        met = "met" if speedup >= goal else f"not met ({goal:g}x)"
        lines.append(
            f"| {label} | {case['M']} | {case['J']} | {ms(ours)} | "
            f"{ms(case['cvxpy_s'])} | {speedup:.1f}x | {met} | "
            f"{case['objective_difference']:.1e} |"
        )
    lines += [
        "",
        "The LPBoost master is one HiGHS model per fit (`_masters.LPBoostMaster`): each "
        "column-generation iteration adds the new column as one row of the dual (22) and "
        "re-solves from the previous basis with the dual simplex method. A row of "
        '"one warm iteration" is that step with the J-th column; the rows marked Adult '
        "run are timed inside the Adult run below (M = 10,000).",
    ]
    adult = next((c for c in record["cases"] if c["case"] == "lpboost-adult"), None)
    if adult:
        limit = COLUMN_GENERATION_GOALS["lpboost_adult_seconds"]
        finished = adult["converged"] or adult["iterations"] >= adult["paper_iterations"]
        lines += [
            "",
            f"Soft-margin LPBoost (nu = 0.1) with depth-3 trees on {adult['n']:,} Adult "
            f"rows: **{adult['total_s']:.0f} s** for {adult['iterations']} iterations "
            f"({'converged' if adult['converged'] else 'iteration cap reached'})"
            + (
                f", of which {adult['master_s']:.0f} s in the restricted master"
                if "master_s" in adult
                else ""
            )
            + f"; the paper's run took {adult['paper_total_s']:,.0f} s for "
            f"{adult['paper_iterations']} iterations on a Core2 Duo. Goal (under {limit:g} s "
            f"to convergence or the paper's {adult['paper_iterations']} iterations): "
            + ("met." if finished and adult["total_s"] <= limit else "not met."),
        ]
        if not adult["converged"] and "last_duality_gap" in adult:
            lines += [
                "",
                f"The run stops at the iteration cap with a duality gap (edge of the "
                f"next column minus r) of {adult['last_duality_gap']:.3g}, i.e. not yet at "
                "the optimum over all depth-3 trees.",
            ]
    return lines


#: the LPBoost convergence figure, relative to ``book/`` (written by
#: :func:`write_lpboost_convergence_figure`)
LPBOOST_FIGURE = "_static/lpboost-convergence.svg"


def write_lpboost_convergence_figure(root: Path) -> Path | None:
    """Draw LPBoost's gap against columns and seconds (with ERLPBoost's certified accuracy)
    into ``book/`` + LPBOOST_FIGURE, from ``benchmarks/results/lpboost_convergence.json``."""
    record = load_benchmark_results(root).get("lpboost_convergence")
    if not record:
        return None
    cases = {c["case"]: c for c in record["cases"]}
    run = cases["lpboost-trajectory"]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "marginboost-performance"
    fig, axes = plt.subplots(1, 2, figsize=(9.0, 3.4))
    columns = np.arange(1, len(run["gap"]) + 1)
    for ax, x, label in ((axes[0], columns, "columns"), (axes[1], run["time"], "seconds")):
        ax.semilogy(x, np.maximum(run["gap"], 1e-8), color="C0", label="LPBoost gap")
        for eps in (1e-2, 1e-3, 1e-4, 1e-5):
            ax.axhline(eps, color="0.8", lw=0.6, zorder=0)
        ax.set_xlabel(label)
        ax.set_ylabel("gap (next edge - r) / accuracy")
    for case in (c for c in record["cases"] if c["case"].startswith("pricing-smoothing")):
        axes[0].semilogy(
            np.arange(1, len(case["gap"]) + 1),
            np.maximum(case["gap"], 1e-8),
            color="0.5",
            lw=1,
            label=f"LPBoost gap, smoothing {case['smoothing']:g}",
        )
    styles = ("--", "-.", ":")
    for i, case in enumerate(c for c in record["cases"] if c["case"].startswith("pricing-col")):
        k = case["columns_per_iteration"]
        gap = np.maximum(case["gap"], 1e-8)
        style = dict(color="C0", lw=1, ls=styles[i % len(styles)])
        axes[0].semilogy(case["columns_at"], gap, **style, label=f"LPBoost gap, {k} per iteration")
        axes[1].semilogy(case["time"], gap, **style, label=f"{k} columns per iteration")
    for case in (c for c in record["cases"] if c["case"].startswith("long-pricing")):
        gap = np.maximum(case["gap"], 1e-8)
        style = dict(color="C5", lw=1)
        k = case["columns_per_iteration"]
        axes[0].semilogy(case["columns_at"], gap, **style, label=f"{k} per iteration, long run")
        axes[1].semilogy(case["time"], gap, **style, label=f"{k} per iteration, long run")
    if any(c["case"].startswith(("pricing-col", "long-pricing")) for c in record["cases"]):
        axes[1].legend(frameon=False, fontsize=7)
    erlpboost = [c for c in record["cases"] if c["case"].startswith("erlpboost")]
    for i, case in enumerate(erlpboost):
        gap = np.maximum(case["gap"], 1e-8)
        axes[0].semilogy(
            np.arange(1, gap.size + 1),
            gap,
            color=f"C{i + 1}",
            lw=1,
            label=f"ERLPBoost accuracy, tol {case['tol']:g}",
        )
    axes[0].axvline(run["paper_iterations"], color="k", ls=":", lw=1, label="paper: 286")
    axes[0].legend(frameon=False, fontsize=7)
    fig.tight_layout()
    path = root / "book" / LPBOOST_FIGURE
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)
    return path


#: The tolerances of the stop rule the projection of LPBoost's gap curve is read at.
PROJECTED_TOLS = (1e-2, 1e-3, 1e-4, 1e-5)


def gap_projection(
    columns: np.ndarray, gap: np.ndarray, master_s: np.ndarray, tols=PROJECTED_TOLS
) -> dict:
    """Where LPBoost's measured gap curve leads, if its trends go on: power laws fitted (least
    squares on log-log axes) over the second half of a run to the gap after each column, to its
    running minimum (the stop rule fires at the first column whose gap is below tol, so the
    running minimum is the optimistic reading) and to the master seconds per column.

    Returns the exponents and, per tolerance, the columns at which each fitted gap reaches it
    and the master seconds of the columns from the run's end to there (the per-column law
    summed).  An extrapolation, stated as such where it is shown: it says how far the measured
    rates are from a tolerance, not when a run would stop.
    """
    columns = np.asarray(columns, dtype=float)
    gap = np.asarray(gap, dtype=float)
    master_s = np.asarray(master_s, dtype=float)
    half = columns >= columns.max() / 2
    x = np.log(columns[half])

    def law(values: np.ndarray) -> tuple[float, float]:
        slope, intercept = np.polyfit(x, np.log(np.clip(values[half], 1e-300, None)), 1)
        return float(slope), float(intercept)

    fits = {"gap": law(gap), "running_min": law(np.minimum.accumulate(gap))}
    time_slope, time_intercept = law(master_s)
    end = float(columns.max())
    out: dict = {
        "fitted_from": int(columns[half].min()),
        "to": int(end),
        "gap_exponent": fits["gap"][0],
        "running_min_exponent": fits["running_min"][0],
        "master_exponent": time_slope,
        "tolerances": {},
    }
    for tol in tols:
        row: dict[str, dict[str, float] | None] = {}
        for name, (slope, intercept) in fits.items():
            if slope >= 0:  # not falling: never reached at this rate
                row[name] = None
                continue
            at = max(end, float(np.exp((np.log(tol) - intercept) / slope)))
            # sum of exp(b) c^a over the columns end+1 .. at, as an integral
            a1 = time_slope + 1.0
            seconds = float(np.exp(time_intercept) * (at**a1 - end**a1) / a1)
            row[name] = {"columns": at, "master_s": seconds}
        out["tolerances"][tol] = row
    return out


def _projection_lines(
    run: dict, paper_iterations: int | None, pricings: list[dict], plain_gap: float | None
) -> list[str]:
    """The page's reading of :func:`gap_projection` for one measured LPBoost run, beside the
    pricing cases (``pricings``, their last gap against plain pricing's ``plain_gap`` at the
    same budget)."""
    projection = gap_projection(run["columns"], run["gap"], run["master_s"])
    smallest = float(np.min(run["gap"]))

    def reach(hit: dict | None) -> str:
        if hit is None:
            return "never (not falling)"
        if hit["columns"] <= projection["to"]:
            return f"within the run (its smallest gap: {smallest:.3g})"
        hours = hit["master_s"] / 3600
        amount = f"{hours:,.1f}" if hours < 1000 else f"{hours:.1e}"
        return f"{hit['columns']:,.0f} columns, {amount} more h of master"

    gap = np.asarray(run["gap"], dtype=float)
    seconds = np.cumsum(run["master_s"])
    lines = [
        "",
        "The longest LPBoost run on 10,000 Adult rows (DirectBoost's Table 2 benchmark "
        f"below, the rows in LIBSVM's a5a coding; {projection['to']:,} columns, one per "
        "iteration, tol = 1e-5) read at each tolerance of the stop rule: the first column "
        "whose next tree's edge is within tol of the master's bound, where a run with that "
        "tolerance stops (the same columns up to there), and its master seconds:",
        "",
        "| tol | the stop rule fires at column | master seconds to there |",
        "|---|---|---|",
    ]
    for tol in PROJECTED_TOLS:
        hit = np.flatnonzero(gap <= tol)
        lines.append(
            f"| {tol:g} | {run['columns'][hit[0]]:,} | {seconds[hit[0]]:,.0f} |"
            if hit.size
            else f"| {tol:g} | not within {projection['to']:,} | |"
        )
    lines += [
        "",
        f"Where the measured curve leads (the same run, "
        f"{projection['to']:,} columns): power laws fitted over its columns "
        f"{projection['fitted_from']:,} to {projection['to']:,}. The gap's running minimum "
        "(the stop rule fires when the gap first drops below tol) falls as columns to the "
        f"power {projection['running_min_exponent']:.2f} (the gap itself, noisier, as "
        f"{projection['gap_exponent']:.2f}), and a master solve's seconds grow as columns to "
        f"the power {projection['master_exponent']:.2f}. Extrapolated, not measured:",
        "",
        "| tol | the running minimum's trend reaches it at |",
        "|---|---|",
    ]
    for tol, row in projection["tolerances"].items():
        lines.append(f"| {tol:g} | {reach(row['running_min'])} |")
    optimistic = projection["tolerances"][1e-5]["running_min"]
    priced = [c for c in (pricings or []) if "last_gap" in c]
    lines += [
        "",
        "Why no pricing scheme measured here brings LPBoost on Adult to the book's "
        "tolerance in minutes: "
        + (
            "at the same column budget the best of them ends with a gap "
            f"{plain_gap / min(c['last_gap'] for c in priced):.1f} times smaller than plain "
            "pricing's (the table of pricings above), "
            if priced and plain_gap
            else ""
        )
        + "while the master's cost per column grows with the columns; even the optimistic "
        "reading needs "
        + (
            f"{optimistic['columns']:,.0f} columns for 1e-5, where "
            f"{projection['to']:,} columns took {sum(run['master_s']) / 3600:.1f} h of master."
            if optimistic
            else "more columns than the trend can say."
        )
        + (
            f" The paper's run stopped after {paper_iterations} iterations with a tolerance "
            "it does not give."
            if paper_iterations
            else ""
        ),
    ]
    from ...papers.directboost.table1 import LPBOOST_LOOSER_TOLS

    loosest = max(LPBOOST_LOOSER_TOLS)
    hit = np.flatnonzero(gap <= loosest)
    if hit.size:
        lines += [
            "",
            f"The loosest tolerance the DirectBoost chapter runs Table 1 with, {loosest:g} "
            "(its section on LPBoost's stop tolerance shows what it changes there), costs this "
            f"run {run['columns'][hit[0]]:,} columns and {seconds[hit[0]]:,.0f} s of "
            "master, measured.",
        ]
    return lines


def _vertex_moves_lines(case: dict | None) -> list[str]:
    """Why a re-solve takes hundreds of pivots (the ``vertex-moves`` case), or nothing."""
    if case is None:
        return []
    last = case["checkpoints"][-1]
    n, distinct = case["n"], last["distinct_patterns"]
    measured = [c for c in case["checkpoints"] if c["moved_per_column"] is not None]
    lines = [
        f"Why a re-solve takes so many pivots: the first {case['columns']} columns replayed "
        f"one at a time through the master (measured {case['measured']}; counts, the same on "
        f"any machine with this HiGHS). After {last['columns']} columns {distinct:,} of the "
        f"{n:,} examples have distinct edge patterns, so merging examples with identical "
        f"patterns into one weighted row would remove {n - distinct:,} of the LP's "
        f"{n:,} example variables."
    ]
    if measured:
        ratio = [c["pivots_per_column"] / max(c["moved_per_column"], 1e-12) for c in measured]
        lines[-1] += (
            " Each new column moves examples between u = 0, 0 < u < D and u = D (the "
            "vertex of the new optimum differs from the last in their places), and the "
            f"re-solve takes {min(ratio):.2f} to {max(ratio):.2f} pivots per example moved at "
            "the counts below."
        )
        if min(ratio) >= 1.0:
            lines[-1] += (
                " The re-solves here never take fewer pivots than the examples they move "
                "(the pivots beyond that are degenerate ones): the cost of a re-solve grows "
                "with how far the vertex moves, which a warm start from the last optimum "
                "cannot shorten and no setting of the solver changes."
            )
    lines += [
        "",
        "| columns | examples with distinct edge patterns | examples moved per column | "
        "pivots per column |",
        "|---|---|---|---|",
    ]
    for c in case["checkpoints"]:
        moved = c["moved_per_column"]
        pivots = c["pivots_per_column"]
        lines.append(
            f"| {c['columns']} | {c['distinct_patterns']:,} of {n:,} | "
            + (f"{moved:.0f} | {pivots:.0f} |" if moved is not None else "| |")
        )
    return [*lines, ""]


def lpboost_convergence_section(record: dict, directboost: dict | None = None) -> list[str]:
    """The section on LPBoost to its own stop; ``directboost``, the DirectBoost Table 2
    benchmark's record, gives the longest LPBoost run on the same rows for the projection of
    its gap curve (:func:`gap_projection`)."""
    env = record["environment"]
    cases = {c["case"]: c for c in record["cases"]}
    run = cases["lpboost-trajectory"]
    goal_ms = COLUMN_GENERATION_GOALS["master_ms_at_700"]
    lines = [
        "",
        "## LPBoost to its own stop: the master, the stop rule and ERLPBoost",
        "",
        f"Measured by `benchmarks/bench_lpboost_convergence.py` on {env['cpu_count']} CPU "
        f"cores, highspy {env['highspy']}"
        + (" (quick smoke run)" if record.get("quick") else "")
        + f". Soft-margin LPBoost (nu = 0.1) with depth-3 trees on {run['n']:,} Adult rows "
        f"(one-hot), at most {run['columns'] if not run['converged'] else 'its'} columns: "
        f"{run['total_s']:.0f} s, {run['master_s']:.0f} s of them in the restricted master; "
        + (
            "it converged."
            if run["converged"]
            else f"it stopped on that column budget with a gap of {run['last_gap']:.3g} "
            "(the next tree's edge minus the master's bound r), so the book's LPBoost on these "
            "rows is not at its own stop."
        ),
        "",
        "Where a master solve's time goes (means over the ten columns ending at each count; "
        "a solve adds one row to the dual (22) and re-solves it by the dual simplex method "
        "from the previous basis):",
        "",
        "| columns | master ms per column | pivots per column | ms per pivot | "
        "working set: ms per column | speed-up | examples in the LP | objective difference |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for case in record["cases"]:
        if not case["case"].startswith("master-") or "batch" in case["case"]:
            continue
        c = case["columns"]
        ws = cases.get(f"working-set-{c}", {})
        lines.append(
            f"| {c} | {case['master_ms_per_column']:.1f} | {case['pivots_per_column']:.0f} | "
            f"{case['ms_per_pivot']:.3f} | "
            + (
                f"{ws['master_ms_per_column']:.1f} | {ws['speedup']:.2f}x | "
                f"{ws['examples_in_lp']:,} | {ws['objective_difference']:.1e} |"
                if ws
                else "| | | |"
            )
        )
    reached = [
        c for c in record["cases"] if c["case"].startswith("master-") and "batch" not in c["case"]
    ]
    at_700 = next((c for c in reached if c["columns"] == 700), None)
    lines += [
        "",
        f"Goal: at most {goal_ms:g} ms per column at 700 columns, with the same optimum: "
        + (
            ("met." if at_700["master_ms_per_column"] <= goal_ms else "not met.")
            if at_700
            else "not measured in this run (it did not reach 700 columns; "
            "`--columns 700` takes about an hour here)."
        ),
        "",
    ]
    last = reached[-1] if reached else None
    last_ws = cases.get(f"working-set-{last['columns']}") if last else None
    if last and last_ws:
        lines += [
            f"At {last['columns']} columns a solve takes {last['pivots_per_column']:.0f} pivots "
            f"at {last['ms_per_pivot']:.2f} ms each. The LP stays hard to re-solve: in the "
            f"last master {run['active_columns']} of the {run['columns']} columns keep a "
            f"positive weight and {run['examples_inside_box']} examples lie strictly inside "
            f"the box 0 < u < D ({run['examples_at_cap']} at the cap); a new row moves this "
            "vertex. A working set of examples (measured here, not used by `LPBoost`) keeps "
            f"{last_ws['examples_in_lp']:,} of the {run['n']:,} examples in the LP with the same "
            f"optimum (difference {last_ws['objective_difference']:.1e}) and takes "
            f"{last_ws['pivots_per_column']:.0f} pivots per column: "
            f"{last_ws['speedup']:.2f} times faster per column.",
            "",
        ]
    lines += _vertex_moves_lines(cases.get("vertex-moves"))
    lines += [
        "The stop rule of Demiriz, Bennett & Shawe-Taylor (2002) -- no tree with an edge "
        "above the master's bound by more than tol -- at four tolerances (the book's tables "
        "use tol = 1e-5):",
        "",
        "| tol | columns to reach it | seconds |",
        "|---|---|---|",
    ]
    for case in record["cases"]:
        if case["case"].startswith("stop-rule-"):
            lines.append(
                f"| {case['tol']:g} | "
                + (
                    f"{case['columns']} | {case['seconds']:.0f} |"
                    if case["columns"] is not None
                    else f"not within {case['reached_within']} | |"
                )
            )
    batches = [c for c in record["cases"] if c["case"].startswith("master-batch-")]
    if batches:
        lines += [
            "",
            "The same columns through the master several at a time (one re-solve per batch of "
            "rows, the same final optimum): a re-solve costs about as many pivots whether it "
            "follows one new row or many, so batching divides the pivots per column.",
            "",
            "| rows per re-solve | master ms per column | pivots per column | "
            "objective difference |",
            "|---|---|---|---|",
            f"| 1 | {1e3 * run['master_s'] / run['columns']:.1f} | "
            f"{np.mean(run['pivots']):.0f} | 0 |",
        ]
        for case in batches:
            lines.append(
                f"| {case['batch']} | {case['ms_per_column']:.1f} | "
                f"{case['pivots_per_column']:.0f} | {case['objective_difference']:.1e} |"
            )
    priced = [c for c in record["cases"] if c["case"].startswith("pricing-")]
    if priced:
        lines += [
            "",
            "Pricing: plain column generation (the tree of the master's weights, one column "
            "per iteration) beside Wentges's dual smoothing (`LPBoost(smoothing=...)`: first "
            "the tree of a weighted mean of the master's weights and the best weights so far) "
            "and multiple pricing (`LPBoost(columns_per_iteration=K)`: beside the oracle's "
            "tree, the best trees under the next K - 1 root features, each added when it "
            "violates the master's constraint), with the same column budget; r is the "
            "master's bound after the last iteration (a lower bound on the optimal soft margin "
            "over the trees the oracle can find), the gap the last next-tree edge above it:",
            "",
            "| pricing | columns | iterations | seconds | master seconds | last r | last gap | "
            "first column with gap <= 1e-2 |",
            "|---|---|---|---|---|---|---|---|",
            f"| plain | {run['columns']} | {run['columns']} | {run['total_s']:.0f} | "
            f"{run['master_s']:.0f} | {run['objective'][-1]:.5f} | {run['last_gap']:.3g} | "
            + str(next((i + 1 for i, g in enumerate(run["gap"]) if g <= 1e-2), "not reached"))
            + " |",
        ]
        for case in priced:
            first = case["to_tolerance"].get("0.01")
            name = (
                f"smoothing {case['smoothing']:g}"
                if "smoothing" in case
                else f"{case['columns_per_iteration']} columns per iteration"
            )
            lines.append(
                f"| {name} | {case['columns']} | {case.get('iterations', case['columns'])} | "
                f"{case['total_s']:.0f} | "
                + (f"{case['master_s']:.0f}" if "master_s" in case else "")
                + f" | {case['last_objective']:.5f} | {case['last_gap']:.3g} | "
                + (str(first["columns"]) if first else "not reached")
                + " |"
            )
        best = max(priced, key=lambda c: c["last_objective"])
        best_name = (
            f"smoothing {best['smoothing']:g}"
            if "smoothing" in best
            else f"{best['columns_per_iteration']} columns per iteration"
        )
        fastest = min(priced, key=lambda c: c["total_s"])
        lines += [
            "",
            "`LPBoost` keeps plain pricing, one column per iteration, as its default: "
            + (
                f"{best_name} ends this budget with a higher bound r "
                f"({best['last_objective']:.5f} against {run['objective'][-1]:.5f})"
                if best["last_objective"] > run["objective"][-1]
                else "no other pricing ends this budget with a higher bound r"
            )
            + (
                f", and {fastest.get('columns_per_iteration', '')} columns per iteration "
                f"spends {fastest['total_s']:.0f} s on it against {run['total_s']:.0f} s"
                if fastest["total_s"] < run["total_s"] and "columns_per_iteration" in fastest
                else ""
            )
            + ", but a default that changes which trees are chosen would change every stored "
            "LPBoost result (and the papers add one column per iteration), so both stay "
            "options measured here.",
        ]
    for case in (c for c in record["cases"] if c["case"].startswith("long-pricing")):
        reached = [
            f"gap <= {eps} at column {hit['columns']} ({hit['seconds']:.0f} s)"
            for eps, hit in case["to_tolerance"].items()
            if hit
        ]
        lines += [
            "",
            f"The same multiple pricing ({case['columns_per_iteration']} columns per iteration) "
            f"to a longer budget, measured in a separate run ({case.get('measured', 'another run')}; "
            f"`--long-columns {case['columns']}`): {case['columns']:,} columns in "
            f"{case['iterations']} iterations and {case['total_s']:.0f} s "
            f"({case['master_s']:.0f} s in the master), "
            + ("stopped by its rule" if case["converged"] else "stopped by the budget")
            + f"; last r {case['last_objective']:.5f}, last gap {case['last_gap']:.3g}; "
            + ("; ".join(reached) if reached else "no tolerance of 1e-2 or below reached")
            + f". {case['positive_weights']} of its columns keep a positive weight in the "
            "last master.",
        ]
    longest = next(
        (
            c
            for c in (directboost or {}).get("cases", [])
            if c.get("case") == "lpboost" and "gap" in c.get("trajectory", {})
        ),
        None,
    )
    if longest is not None and not longest["converged"]:
        lines += _projection_lines(
            longest["trajectory"],
            longest.get("paper_iterations"),
            [c for c in record["cases"] if c["case"].startswith("pricing-")],
            run.get("last_gap"),
        )
    erlp = [c for c in record["cases"] if c["case"].startswith("erlpboost-")]
    if erlp:
        bracket = erlp[0]["lpboost_bracket"]
        lines += [
            "",
            "ERLPBoost (Warmuth, Glocer & Vishwanathan 2008) on the same rows and trees stops "
            "when the soft margin is certified to within tol; its soft margin beside the "
            f"bracket LPBoost's run puts on the optimum ({bracket['lower']:.4f} to "
            f"{bracket['upper']:.4f}: the master's best bound below, the smallest next-tree "
            "edge above):",
            "",
            "| ERLPBoost tol | columns | seconds | stopped by its rule | soft margin |",
            "|---|---|---|---|---|",
        ]
        for case in erlp:
            lines.append(
                f"| {case['tol']:g} | {case['columns']} | {case['seconds']:.0f} | "
                f"{'yes' if case['converged'] else 'no (column cap)'} | "
                f"{case['soft_margin']:.4f} |"
            )
    lines += [
        "",
        f"```{{figure}} {LPBOOST_FIGURE}",
        ":name: performance-lpboost-convergence",
        ":width: 95%",
        "",
        "LPBoost's gap (the next tree's edge minus the master's bound) against columns and "
        "seconds, one column per iteration (solid) and with multiple pricing (dashed), with "
        "the paper's 286 iterations marked, and ERLPBoost's certified accuracy against "
        "columns; grey lines: the tolerances 1e-2 to 1e-5.",
        "```",
    ]
    return lines


_MARGIN_MASTER_LABELS = {"mcboost": "MCBoost (12)", "mdboost": "MDBoost (AdaBoost-QP)"}


def margin_masters_section(record: dict) -> list[str]:
    env = record["environment"]
    params = record["parameters"]
    masters = [c for c in record["cases"] if "J" in c]
    fits = [c for c in record["cases"] if c["case"].startswith("fit-")]
    lines = [
        "",
        "## Column generation: the MCBoost and MDBoost masters",
        "",
        f"Measured by `benchmarks/bench_margin_masters.py` on {env['cpu_count']} CPU cores, "
        f"cvxpy {env['cvxpy']} with OSQP {env['osqp']} and Clarabel {env['clarabel']}"
        + (" (quick smoke run)" if record.get("quick") else "")
        + ". Both masters are "
        "convex QPs over the simplex. The restricted masters hold the first J columns of "
        f"real column-generation runs, MCBoost with E = {params['mcboost']['E']:g} and "
        f"MDBoost with D = {params['mdboost']['D']:g}, on the training part (60%) of the "
        "first repetition of the MCBoost protocol. Ours is warm-started from its optimum "
        "with J - 1 columns, as column generation calls it, or cold; OSQP (cvxpy's "
        "settings, with solution polishing) and Clarabel are called through cvxpy on the "
        'same QP from scratch, and "solver only" is the time inside the solver, without '
        "cvxpy's model building. Speed-ups are against our warm start; the difference is "
        "|ours - theirs| / |theirs| of the optimal values.",
        "",
        "| master | data | M | J | ours warm (ms) | ours cold (ms) | OSQP (ms) | "
        "OSQP solver only (ms) | Clarabel (ms) | Clarabel solver only (ms) | speed-up vs "
        "OSQP | speed-up vs Clarabel | difference OSQP / Clarabel |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for case in masters:
        lines.append(
            f"| {_MARGIN_MASTER_LABELS[case['algorithm']]} | {case['dataset']} | "
            f"{case['M']} | {case['J']} | {ms(case['ours_warm_s'])} | "
            f"{ms(case['ours_cold_s'])} | {ms(case['osqp_s'])} | "
            f"{ms(case['osqp_solver_s'])} | {ms(case['clarabel_s'])} | "
            f"{ms(case['clarabel_solver_s'])} | {case['speedup_osqp']:.1f}x | "
            f"{case['speedup_clarabel']:.1f}x | {case['osqp_relative_difference']:.0e} / "
            f"{case['clarabel_relative_difference']:.0e} |"
        )
    lines += [
        "",
        "| run | data | M | iterations | total (s) | in the master (s) | share |",
        "|---|---|---|---|---|---|---|",
    ]
    for fit in fits:
        lines.append(
            f"| {_MARGIN_MASTER_LABELS[fit['algorithm']].split()[0]} | "
            f"{fit['dataset']} | {fit['M']} | {fit['iterations']}"
            f"{'' if fit['converged'] else ' (cap)'} | {fit['total_s']:.2f} | "
            f"{fit['master_s']:.2f} | {fit['master_s'] / fit['total_s']:.0%} |"
        )
    if masters:

        def span(key: str) -> str:
            values = [c[key] for c in masters]
            return f"{min(values):.1f}x to {max(values):.1f}x"

        solver_only = [
            min(c["osqp_solver_s"], c["clarabel_solver_s"]) / c["ours_warm_s"] for c in masters
        ]
        worst = max(
            max(c["osqp_relative_difference"], c["clarabel_relative_difference"]) for c in masters
        )
        osqp_faster = sum(c["osqp_s"] < c["clarabel_s"] for c in masters)
        lines += [
            "",
            "**Which solver, and why.** MCBoost's master is `_masters.solve_mcboost` and "
            "MDBoost's is `_masters.solve_mdboost` (through `solve_adaboost_qp`): a "
            "dedicated simplex-constrained solver, projected accelerated gradient "
            "steps and active-set Newton steps on the support with the exact Hessian, "
            "which end at the exact optimum of the final support. On these masters it is "
            f"{span('speedup_osqp')} faster than OSQP and {span('speedup_clarabel')} "
            "faster than Clarabel through cvxpy, and "
            f"{min(solver_only):.1f}x to {max(solver_only):.1f}x faster than the faster "
            "of the two solvers' own times"
            + (
                ", so calling a solver without cvxpy would not close the gap"
                if min(solver_only) > 1
                else ""
            )
            + f"; the optimal values agree to {worst:.0e} relative or better. Of the "
            f"general solvers OSQP is the faster on {osqp_faster} of {len(masters)} "
            "masters.",
        ]
        shares = [fit["master_s"] / fit["total_s"] for fit in fits]
        if shares:
            lines[-1] += (
                f" The master takes {min(shares):.0%} to {max(shares):.0%} of a "
                "fit's time (the table of runs); the weak learner and the bookkeeping "
                "take the rest."
            )
        warm_wins = sum(c["ours_warm_s"] < c["ours_cold_s"] for c in masters)
        lines[-1] += (
            f" The warm start is the faster start on {warm_wins} of {len(masters)} "
            "masters"
            + (
                ": the first Newton polish usually ends at the optimum from "
                "either start, and when the support changes it can take "
                "more iterations from the previous optimum than from the "
                "uniform weights."
                if 2 * warm_wins <= len(masters)
                else "."
            )
        )
    return lines


def dual_masters_section(record: dict) -> list[str]:
    """Claim C9 of Guo & Chen: MCBoost's dual QP against MDBoost's pseudo-inverse form."""
    env = record["environment"]
    params = record["parameters"]
    lines = [
        "## MCBoost's and MDBoost's dual QPs",
        "",
        "Guo & Chen (Sec. 5) argue that a column-generation iteration of MCBoost is cheaper than "
        "one of MDBoost: both solve a QP, but MCBoost's dual has an identity quadratic term and "
        "MDBoost's the pseudo-inverse of a positive semi-definite matrix (claim C9). Our "
        "estimators solve both masters in the primal, where neither appears. "
        "`benchmarks/bench_dual_masters.py` writes the two duals out and gives them to the same "
        f"interior-point solver (Clarabel {env['clarabel']} through cvxpy {env['cvxpy']}), on "
        "the same columns, the first J of an MCBoost run on the training part of the protocol's "
        f"first repetition (E = {params['E']:g}, D = {params['D']:g}); each optimum is checked "
        "against our primal master's. MDBoost's pseudo-inverse is that of the centring matrix "
        "$C = I - \\mathbf 1\\mathbf 1^\\top/M$, a dense M x M matrix (C is a projection, its "
        "own pseudo-inverse)" + (" (quick smoke run)" if record.get("quick") else "") + ".",
        "",
        "| data | M | J | MCBoost dual, solver ms | MDBoost dual, solver ms | ratio | "
        "with cvxpy's set-up, ratio | duality gaps |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for c in record["cases"]:
        lines.append(
            f"| {c['dataset']} | {c['M']:,} | {c['J']} | {ms(c['mcboost_solver_s'])} | "
            f"{ms(c['mdboost_solver_s'])} | {c['solver_ratio']:.1f}x | {c['wall_ratio']:.1f}x | "
            f"{c['mcboost_duality_gap']:.0e}, {c['mdboost_duality_gap']:.0e} |"
        )
    lines += [
        "",
        "The dense quadratic term is what costs: the solver factors a system with $M^2$ "
        "entries instead of $M$. It is a property of the form, not of the problem: under "
        "this dual's constraint $\\mathbf 1^\\top u = M$ the vector u - 1 is centred, so "
        "$(u - \\mathbf 1)^\\top C^\\dagger (u - \\mathbf 1) = \\lVert u - \\mathbf 1\\rVert^2$ and "
        "MDBoost's dual could be written with an identity too.",
        "",
    ]
    return lines
