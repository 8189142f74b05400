"""The claims of DirectBoost (Zhai, Xia, Tan & Wang, 2013) as predicates over the committed results.

Each claim is registered with :func:`marginboost.experiments.predicates.register` under
``"directboost/Cn"``; :mod:`marginboost.experiments.predicates` says how a verdict follows from the
parts a predicate returns, and the scoreboard collects them through :mod:`marginboost.papers`.
"""

from __future__ import annotations

from collections.abc import Callable

from ...experiments.predicates import (
    CAP_COUNTS,
    NO_CAPPED_RUNS,
    Part,
    _claim,
    _Missing,
    _need,
    _on_cap,
    _pct,
    _tests,
    capped_part,
    could_change,
    sign_test_p,
)

#: The claims whose notebooks count the deciding fits that ended on a cap of ours.
CAP_COUNTS.update(
    {
        # which method spreads most: only capped fits that could change it (a bound in the
        # notebook: each capped fit's validation error anywhere from 0 to 100%)
        "directboost/C3": ("directboost", "table1", "spread_fits_on_cap_could_change"),
        # where phase 1 ends: only a fit capped while still in phase 1 could change it
        "directboost/C14": ("directboost", "table1", "choice_default_phase1_fits_on_cap"),
        "directboost/C12": ("directboost", "checks", "fits_on_cap_order"),
        "directboost/C13": ("directboost", "checks", "fits_on_cap_theorem3"),
    }
)

#: The claims decided by fits that cannot end on a cap of ours, and why.
NO_CAPPED_RUNS.update(
    {
        "directboost/C11": (
            "a per-round cost, timed over a fixed number of rounds; where a run stops does "
            "not enter"
        ),
    }
)

_DB_SETS = [
    "Tic-tac-toe",
    "Diabetes",
    "Australian",
    "Fourclass",
    "Ionosphere",
    "Splice",
    "Cancer-wdbc",
    "Cancer-wpbc",
    "Heart",
    "Adult",
]
_DB_BASE = ["AdaBoost", "LogitBoost", "LPBoost", "BrownBoost"]
_DB_VARIANTS = ["DirectBoost_avg", "DirectBoost_eps_avg", "DirectBoost_order"]


def _paper_table1() -> dict:
    """The paper's own Table 1 (test error in %), ``{(set, method): mean}``."""
    from ...experiments.targets import target_table

    table = target_table("directboost", "table1")
    return {(r.dataset, r.algorithm): float(r.mean) for r in table.itertuples(index=False)}


def _db_capped(ev) -> dict | None:
    """Table 1's own DirectBoost fits that ended on the round cap, ``{(set, variant): fits}``
    (None: not recorded)."""
    k = ev.key("directboost", "table1") or {}
    if any(f"fits_on_cap_{v}" not in k for v in _DB_VARIANTS):
        return None
    return {
        (s, v): int(k.get(f"{s}_{v}_fits_on_cap", 0))
        for s in _DB_SETS
        for v in _DB_VARIANTS
        if k.get(f"{s}_{v}_fits_on_cap")
    }


def _db_part(ev, t: dict, label: str, decide: Callable[[dict], bool], detail: str) -> Part:
    """A part decided on Table 1: not decided by capped fits that cannot change it."""
    capped = _db_capped(ev)
    fits = sum(capped.values()) if capped else 0
    return capped_part(
        label,
        t,
        capped,
        decide,
        detail,
        f"the {fits} fits of the table that ended on the round cap cannot change it",
    )


def _db_table1(ev):
    k = ev.key("directboost", "table1")
    return {(s, a): _need(k, f"{s}_{a}") for s in _DB_SETS for a in _DB_BASE + _DB_VARIANTS}


@_claim("directboost/C1", "../notebooks/directboost-table1.ipynb")
def _db_c1(ev):
    t = _db_table1(ev)

    def beats(t: dict) -> list[str]:
        return [s for s in _DB_SETS if all(t[s, "DirectBoost_eps_avg"] < t[s, b] for b in _DB_BASE)]

    wins = beats(t)
    # The text says every set but Cancer-wdbc; the paper's own Table 1 (as reconstructed from
    # its scrambled text) also has AdaBoost and LogitBoost ahead on Fourclass: the predicate
    # asks for as many sets as the paper's table shows, counted from it.
    pt = _paper_table1()
    paper = sum(all(pt[s, "DirectBoost_eps_avg"] < pt[s, b] for b in _DB_BASE) for s in _DB_SETS)
    return [
        _db_part(
            ev,
            t,
            "DirectBoost_eps_avg beats all four baselines on as many sets as in the paper's "
            f"Table 1 ({paper} of 10; its text says every set but Cancer-wdbc)",
            lambda t: len(beats(t)) >= paper,
            f"on {len(wins)} of 10: {', '.join(wins) or 'none'}",
        )
    ], {"eps_avg_beats_all": len(wins), "paper_eps_avg_beats_all": paper}


@_claim("directboost/C2", "../notebooks/directboost-table1.ipynb")
def _db_c2(ev):
    t = _db_table1(ev)

    def counts(t: dict) -> dict[str, int]:
        best = {v: 0 for v in _DB_VARIANTS}
        for s in _DB_SETS:
            lo = min(t[s, v] for v in _DB_VARIANTS)
            for v in _DB_VARIANTS:
                best[v] += t[s, v] == lo
        return best

    def ordered(t: dict) -> bool:
        c = counts(t)
        return c["DirectBoost_eps_avg"] > c["DirectBoost_order"] > c["DirectBoost_avg"]

    best = counts(t)
    # The text's counts (avg 2, order 3, eps_avg 5) partition the ten sets, but the paper's own
    # Table 1 has ties (order is best or tied on 4): what the counts assert is their order.
    return [
        _db_part(
            ev,
            t,
            "eps_avg is the best variant on the most sets, then order, then avg (the text's "
            "2, 3 and 5 of 10; ties count for each)",
            ordered,
            ", ".join(f"{v} {n}" for v, n in best.items()),
        )
    ], {f"best_{v}": n for v, n in best.items()}


@_claim("directboost/C3", "../notebooks/directboost-table1.ipynb")
def _db_c3(ev):
    k = ev.key("directboost", "table1")
    spread = {
        key[len("validation_spread_") :]: v
        for key, v in (k or {}).items()
        if key.startswith("validation_spread_")
    }
    if not spread:
        raise _Missing("the validation spread over the n'/n grid is not a committed key number")
    order = next(v for m, v in spread.items() if "order" in m)
    return [
        Part(
            "DirectBoost_order is the method most sensitive to its grid parameter (the "
            "largest mean spread of the validation error over the grid)",
            order == max(spread.values()),
            ", ".join(f"{m} {v:.1f} points" for m, v in spread.items()),
        )
    ], {f"spread_{m}": v for m, v in spread.items()}


@_claim("directboost/C4", "../notebooks/directboost-table1.ipynb")
def _db_c4(ev):
    t = _db_table1(ev)
    s = "Tic-tac-toe"
    best = min(t[s, v] for v in _DB_VARIANTS)
    ab, avg = t[s, "AdaBoost"], t[s, "DirectBoost_avg"]
    return [
        _db_part(
            ev,
            t,
            "some DirectBoost variant more than halves AdaBoost's error on Tic-tac-toe",
            lambda t: min(t[s, v] for v in _DB_VARIANTS) < t[s, "AdaBoost"] / 2,
            f"best variant {_pct(best)} against AdaBoost {_pct(ab)}",
        ),
        _db_part(
            ev,
            t,
            "DirectBoost_avg reaches the paper's 0.63% (within one point)",
            lambda t: abs(t[s, "DirectBoost_avg"] - 0.63) <= 1.0,
            f"ours {_pct(avg)}",
        ),
    ], {
        "tictactoe_best_directboost": best,
        "tictactoe_adaboost": ab,
        "tictactoe_directboost_avg": avg,
    }


@_claim("directboost/C5", "../notebooks/directboost-table1.ipynb")
def _db_c5(ev):
    t = _db_table1(ev)

    def beats(t: dict) -> list[str]:
        return [
            s
            for s in _DB_SETS
            if min(t[s, v] for v in _DB_VARIANTS) < min(t[s, b] for b in _DB_BASE)
        ]

    wins = beats(t)
    p = sign_test_p(len(wins), len(_DB_SETS))
    return [
        _db_part(
            ev,
            t,
            "the best DirectBoost variant beats every baseline on significantly many sets "
            "(sign test)",
            lambda t: sign_test_p(len(beats(t)), len(_DB_SETS)) < 0.05,
            f"{len(wins)} of 10, p = {p:.3f}",
        )
    ], {"directboost_beats_all": len(wins)}


@_claim("directboost/C6", "../notebooks/directboost-figure3.ipynb")
def _db_c6(ev):
    k = ev.key("directboost", "figure3")
    d3, d1, lp1 = _need(
        k,
        "depth3_directboost_minus_lpboost",
        "depth1_directboost_minus_lpboost",
        "depth1_lpboost_final",
    )
    # the phase-1 stop read literally is shown beside the verdict (the estimator's reading
    # decides); the runs that decide a part are LPBoost's and DirectBoost's at that depth
    literal = {d: k.get(f"depth{d}_directboost_literal_minus_lpboost") for d in (3, 1)}
    on_cap: dict[int, int | None] = {}
    for d in (3, 1):
        flags = [k.get(f"depth{d}_lpboost_capped"), k.get(f"depth{d}_directboost_capped")]
        on_cap[d] = None if None in flags else int(sum(flags))

    def aside(d: int) -> str:
        return "" if literal[d] is None else f" (phase-1 stop read literally: {literal[d]:+.4f})"

    return [
        Part(
            "with depth-3 trees DirectBoost_eps_avg's bottom-n' margin exceeds LPBoost's",
            d3 > 0,
            f"difference {d3:+.3f}{aside(3)}",
            on_cap[3],
        ),
        Part(
            "with stumps DirectBoost_eps_avg gets within 10% of LPBoost's optimum",
            d1 >= -0.1 * abs(lp1),
            f"difference {d1:+.4f} against {lp1:.4f}{aside(1)}",
            on_cap[1],
        ),
    ], {
        "depth3_minus_lpboost": d3,
        "depth1_minus_lpboost": d1,
        "depth1_lpboost": lp1,
        **{f"depth{d}_literal_minus_lpboost": v for d, v in literal.items() if v is not None},
    }


@_claim("directboost/C7", "../notebooks/directboost-table2.ipynb")
def _db_c7(ev):
    b = ev.bench("directboost")
    if b is None:
        raise _Missing("benchmarks/results/directboost.json is not committed")
    cases = {c["algorithm"]: c for c in b["cases"]}
    db, ab, lp = (cases[a]["total_s"] for a in ("DirectBoost_eps_avg", "AdaBoost", "LPBoost"))
    lp_it = cases["LPBoost"]["iterations"]
    lp_converged = bool(cases["LPBoost"].get("converged", False))
    per = (lp / lp_it) / (db / cases["DirectBoost_eps_avg"]["iterations"])
    # the paper's stop rule read literally (phase 2 ends at the first round without a new best
    # value): shown beside the verdict, which uses the estimator's default reading
    literal = next((r for r in b.get("stop_readings", ()) if r["patience"] == 1), None)
    aside = (
        f"; read literally, the stop rule ends it after {literal['iterations']} rounds "
        f"in {literal['total_s']:.1f} s"
        if literal
        else ""
    )
    return [
        Part(
            "DirectBoost_eps_avg takes less total time than AdaBoost",
            db < ab,
            f"{db:.0f} s against {ab:.0f} s{aside}",
        ),
        Part("and less than LPBoost", db < lp, f"{db:.0f} s against {lp:.0f} s"),
        Part(
            "LPBoost converges in fewer than 300 rounds",
            lp_converged and lp_it < 300,
            f"{lp_it} rounds, " + ("converged" if lp_converged else "not converged"),
            0 if lp_converged else 1,
        ),
        Part(
            "each LPBoost round is expensive (at least 10x a DirectBoost round)",
            per >= 10,
            f"{per:.0f}x a DirectBoost round",
        ),
    ], {"directboost_s": db, "adaboost_s": ab, "lpboost_s": lp, "lpboost_round_ratio": per}


def _db_noise(k, template, methods):
    return {m: _need(k, template.format(m=m)) for m in methods}


@_claim("directboost/C8", "../notebooks/directboost-table3.ipynb")
def _db_c8(ev):
    k = ev.key("directboost", "table3")
    # rows of the generator's separable reading (for l = 5 both readings give the same data)
    g = lambda l, e, m: _need(k, f"long-servedio l={l} eta={e}_{m}")  # noqa: E731
    noisy = [(l, e) for l in (5, 20) for e in (0.05, 0.2)]
    everywhere = [(l, e) for l in (5, 20) for e in (0.0, 0.05, 0.2)]
    ab = min(g(l, e, "AB") for l, e in noisy)
    ok5 = [m for m in ("LB", "LPB", "DB_eps_avg") if g(5, 0.05, m) <= 5]
    others = [(l, e) for l, e in noisy if (l, e) != (5, 0.05)]
    bad_elsewhere = [
        m for m in ("LB", "LPB", "DB_eps_avg") if min(g(l, e, m) for l, e in others) > 5
    ]
    bb5 = max(g(5, e, "BB") for e in (0.0, 0.05, 0.2))
    bb20 = min(g(20, e, "BB") for e in (0.05, 0.2))
    order = max(g(l, e, "DB_order") for l, e in everywhere)
    return _on_cap(
        [
            Part(
                "AdaBoost does very poorly under noise (above 10% in every noisy setting)",
                ab > 10,
                f"at least {_pct(ab)}",
            ),
            Part(
                "LogitBoost, LPBoost and DirectBoost_eps_avg are fine at l = 5, eta = 5% (at most 5%)",
                len(ok5) == 3,
                f"fine: {', '.join(ok5) or 'none'}",
            ),
            Part(
                "... and only there (above 5% in the other noisy settings)",
                len(bad_elsewhere) == 3,
                f"above 5% elsewhere: {', '.join(bad_elsewhere) or 'none'}",
            ),
            Part(
                "BrownBoost is fine for l = 5 (at most 5%) but fails for l = 20 with noise (above 10%)",
                bb5 <= 5 and bb20 > 10,
                f"l = 5: up to {_pct(bb5)}; l = 20 with noise: at least {_pct(bb20)}",
            ),
            Part(
                "DirectBoost_order performs very well in all cases (at most 5%)",
                order <= 5,
                f"up to {_pct(order)}",
            ),
        ],
        (k or {}).get("fits_on_cap"),
    ), {
        "ab_noisy_min": ab,
        "bb_l5_max": bb5,
        "bb_l20_noisy_min": bb20,
        "order_max": order,
        "order_l5_eta05": g(5, 0.05, "DB_order"),
    }


@_claim("directboost/C9", "../notebooks/directboost-table4.ipynb")
def _db_c9(ev):
    k = ev.key("directboost", "table4")
    sets = ("wdbc", "Ionosphere")
    methods = ("AB", "LB", "BB", "LPB", "DB_eps_avg", "DB_order")
    t = {
        (s, e, m): _need(k, f"{s} eta={e}_{m}")
        for s in sets
        for e in (0.0, 0.05, 0.2)
        for m in methods
    }

    def beat(t: dict) -> int:
        return sum(
            max(t[s, 0.05, m] for m in ("LPB", "DB_eps_avg", "DB_order"))
            < min(t[s, 0.05, m] for m in ("AB", "LB", "BB"))
            for s in sets
        )

    # "all methods degrade strongly except DirectBoost_order, which stays close to its
    # noise-free error": the paper's own wdbc row rises 2.9 points, so "close" is relative to
    # the other methods' rises, not a fixed cutoff
    def least(t: dict) -> list[str]:
        rise = {(s, m): t[s, 0.2, m] - t[s, 0.0, m] for s in sets for m in methods}
        return [
            s
            for s in sets
            if rise[s, "DB_order"] < min(rise[s, m] for m in methods if m != "DB_order")
        ]

    close = {s: t[s, 0.2, "DB_order"] - t[s, 0.0, "DB_order"] for s in sets}
    # the fits of a setting that ended on a cap of ours, where the notebook names them
    total = None if k is None or "fits_on_cap" not in k else int(k["fits_on_cap"])
    capped = {
        key: int((k or {}).get(f"{key[0]} eta={key[1]}_{key[2]}_fits_on_cap", 0)) for key in t
    }
    placed = sum(capped.values()) == total  # the notebook names the setting of each capped fit

    def part(label: str, decide: Callable[[dict], bool], detail: str) -> Part:
        if total is None:
            runs = None
        elif placed:
            runs = could_change(t, capped, decide)
        else:  # counted in all, not per setting: any part could rest on them
            runs = total
        if total and not runs:
            detail += "; the table's fits on a cap cannot change it"
        return Part(label, decide(t), detail, runs)

    return [
        part(
            "at 5% noise LPBoost, DirectBoost_eps_avg and DirectBoost_order all beat "
            "AdaBoost, LogitBoost and BrownBoost",
            lambda t: beat(t) == 2,
            f"on {beat(t)} of 2 sets",
        ),
        part(
            "at 20% noise DirectBoost_order's error rises least of the six methods (the others "
            "'degrade strongly')",
            lambda t: len(least(t)) == len(sets),
            f"on {len(least(t))} of 2 sets; its rise "
            + ", ".join(f"{s} {d:+.1f} points" for s, d in close.items()),
        ),
    ], {
        "sets_where_margin_methods_beat": beat(t),
        **{f"{s}_order_rise_20": d for s, d in close.items()},
    }


@_claim("directboost/C10", "directboost.md")
def _db_c10(ev):
    return [
        _tests(
            ev,
            "phase 1's training error never increases",
            "test_directboost::test_phase1_training_error_never_increases",
            "test_direct_line_search::test_phase_one_training_error_never_increases",
        )
    ], {}


#: A measured exponent of the round time may exceed the bound's (1 in each size) by this much:
#: the log factor of n log n over a 16-fold range of n (about 0.1) and cache effects.
SCALING_SLACK = 0.2


@_claim("directboost/C11", "performance.md")
def _db_c11(ev):
    b = ev.bench("directboost_scaling")
    if b is None or b.get("quick"):
        raise _Missing("benchmarks/results/directboost_scaling.json (a full run) is not committed")
    e = b["exponents"]
    limit = 1.0 + SCALING_SLACK

    def within(*keys: str) -> bool:
        return all(e[k] <= limit for k in keys)

    def said(*keys: str) -> str:
        names = {"n": "n", "M": "M", "n_prime": "n'"}
        return (
            ", ".join(f"{names[k.split('_', 1)[1]]}^{e[k]:.2f}" for k in keys)
            + f" (bound: exponent 1 in each; we allow {limit:g})"
        )

    one = ("phase1_n", "phase1_M")
    two = ("phase2_n", "phase2_M", "phase2_n_prime")
    return [
        Part(
            "a round of Algorithm 1 costs O(Mn): its time grows no faster than M and n",
            within(*one),
            "phase-1 round time grows like " + said(*one),
        ),
        Part(
            "a round of Algorithm 2 costs O(max(n log n, M n')): its time grows no faster "
            "than n log n, M and n'",
            within(*two),
            "phase-2 round time grows like " + said(*two),
        ),
    ], {k: e[k] for k in (*one, *two)}


@_claim("directboost/C12", "directboost.md")
def _db_c12(ev):
    k = ev.key("directboost", "checks")
    n_sets, stuck, better, rounds = _need(
        k, "order_sets", "order_stuck_sets", "order_relaxation_better", "order_unrelaxed_rounds_max"
    )
    return [
        _tests(
            ev,
            "without relaxation the bottom-n' ascent stops at a coordinatewise maximum",
            "test_directboost::test_phase2_stops_at_a_coordinatewise_maximum_over_all_stumps",
        ),
        Part(
            "the n'-th-margin variant usually gets stuck without relaxation (on most sets it "
            "stops at a coordinatewise maximum below the n'-th margin the relaxed run reaches)",
            2 * stuck > n_sets and 2 * better > n_sets,
            f"without relaxation a coordinatewise maximum on {stuck:.0f} of {n_sets:.0f} Table 1 "
            f"sets after at most {rounds:.0f} phase-2 rounds; the relaxed run's n'-th margin "
            f"is larger on {better:.0f}",
        ),
    ], {"order_stuck_sets": stuck, "order_relaxation_better": better}


@_claim("directboost/C13", "directboost.md")
def _db_c13(ev):
    k = ev.key("directboost", "checks")
    n_sets, below, gap_min, gap_max = _need(
        k, "theorem3_sets", "theorem3_below_optimum", "theorem3_gap_min", "theorem3_gap_max"
    )
    return [
        _tests(
            ev,
            "Theorem 1 (the zero-error region is a convex cone)",
            "test_direct_figures::test_theorem1_zero_error_region_is_a_convex_cone",
            "test_directboost::test_theorem1_zero_error_region_of_trained_models_is_a_convex_cone",
        ),
        _tests(
            ev,
            "Theorem 2 (quasiconcavity)",
            "test_direct_line_search::test_theorem2_bottom_average_is_quasiconcave_in_the_zero_error_region",
        ),
        Part(
            "Theorem 3 (the average-margin ascent converges to an optimum)",
            below == 0,
            f"on {below:.0f} of {n_sets:.0f} toy sets it stops at a coordinatewise maximum, "
            f"{gap_min:.3f} to {gap_max:.3f} below the linear program's optimum over the same "
            "stumps; tests/test_directboost.py::test_theorem3_average_of_all_margins_stops_at_"
            "a_corner_below_the_lp_optimum checks two of them",
        ),
        _tests(
            ev,
            "Theorem 4 (coordinatewise maximum only)",
            "test_directboost::test_phase2_stops_at_a_coordinatewise_maximum_over_all_stumps",
        ),
    ], {"theorem3_below_optimum": below, "theorem3_gap_max": gap_max}


@_claim("directboost/C14", "../notebooks/directboost-table1.ipynb")
def _db_c14(ev):
    k = ev.key("directboost", "table1")
    zero = [s for s in _DB_SETS if _need(k, f"{s}_phase1_train_error") == 0]
    return [
        Part(
            "phase 1 usually reaches zero training error (on most sets)",
            2 * len(zero) > len(_DB_SETS),
            f"on {len(zero)} of 10",
        )
    ], {"phase1_zero_error_sets": len(zero)}
