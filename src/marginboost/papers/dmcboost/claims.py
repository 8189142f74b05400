"""The claims of DMCBoost (Zhai, Xia & Wang, 2014) as predicates over the committed results.

Each claim is registered with :func:`marginboost.experiments.predicates.register` under
``"dmcboost/Cn"``; :mod:`marginboost.experiments.predicates` says how a verdict follows from the
parts a predicate returns, and the scoreboard collects them through :mod:`marginboost.papers`.
"""

from __future__ import annotations

from ...experiments.predicates import (
    CAP_COUNTS,
    NO_CAPPED_RUNS,
    Part,
    _claim,
    _Missing,
    _need,
    _pct,
    _tests,
    capped_part,
)

#: The claims whose notebooks count the deciding fits that ended on a cap of ours.
CAP_COUNTS.update(
    {
        "dmcboost/C2": ("dmcboost", "table3", "fits_on_cap_chosen"),
        "dmcboost/C3": ("dmcboost", "table4", "fits_on_cap_chosen"),
        "dmcboost/C4": ("dmcboost", "table4", "fits_on_cap_chosen"),
        # a baseline capped in Figure 3 counts only if its run to the paper's Table 2 cap
        # comes down to phase I's training error (the figure notebook runs it)
        "dmcboost/C5": ("dmcboost", "figure3", "fits_on_cap_could_change"),
    }
)

#: The claims decided by fits that cannot end on a cap of ours, and why.
NO_CAPPED_RUNS.update(
    {
        "dmcboost/C6": (
            "a per-round cost, timed over a fixed number of rounds; where a run stops does "
            "not enter"
        ),
        "dmcboost/C7": (
            "a per-round cost, timed over a fixed number of rounds; where a run stops does "
            "not enter"
        ),
    }
)

_DMC_METHODS = ["AdaBoost.M1", "SAMME", "GD-MCBoost", "DMCBoost"]


def _dmc_table(k, methods):
    sets = sorted({key.rsplit("_", 1)[0] for key in k if key.rsplit("_", 1)[-1] in methods})
    return {s: {m: k[f"{s}_{m}"] for m in methods if f"{s}_{m}" in k} for s in sets}


def _dmc_chosen_capped(k, t) -> dict | None:
    """Table 2's DMCBoost runs chosen on validation that ended on our safety cap, per data set,
    ``{(set, "DMCBoost"): runs}`` (None: not recorded per set)."""
    if k is None or any(f"{s}_dmc_runs" in k and f"{s}_dmc_chosen_on_cap" not in k for s in t):
        return None
    if not any(f"{s}_dmc_chosen_on_cap" in k for s in t):
        return None
    return {
        (s, "DMCBoost"): int(k[f"{s}_dmc_chosen_on_cap"])
        for s in t
        if k.get(f"{s}_dmc_chosen_on_cap")
    }


def _cap_part(flat, capped, label, decide, detail, total=None) -> Part:
    """A part decided on a table ``flat`` (entry -> test error), where some of the runs chosen
    for ``capped``'s entries ended on our cap (:func:`capped_part`); ``total`` stands in when
    the committed results do not record the runs per entry."""
    n = sum(capped.values()) if capped else 0
    sets = len({key[0] for key in capped}) if capped else 0
    return capped_part(
        label,
        flat,
        capped,
        decide,
        detail,
        f"the {n} chosen runs on {sets} sets that ended on our cap cannot change it",
        total,
    )


def _nested(flat: dict) -> dict:
    """``{(set, method): v}`` as ``{set: {method: v}}``."""
    out: dict = {}
    for (s, m), v in flat.items():
        out.setdefault(s, {})[m] = v
    return out


def _dmc_best(t) -> list:
    return [s for s, r in t.items() if r["DMCBoost"] == min(r.values())]


def _gd_second(t) -> list:
    return [
        s for s, r in t.items() if "GD-MCBoost" in r and sorted(r.values())[1] == r["GD-MCBoost"]
    ]


@_claim("dmcboost/C1", "../notebooks/dmcboost-table2.ipynb")
def _dmc_c1(ev):
    k = ev.key("dmcboost", "table2")
    t = _dmc_table(k, _DMC_METHODS)
    no_model = _need(k, "m1_no_model")
    best, second = _dmc_best(t), _gd_second(t)
    boosted = [s for s, r in t.items() if "AdaBoost.M1" in r]
    worst = [s for s in boosted if t[s]["AdaBoost.M1"] == max(t[s].values())]
    capped = _dmc_chosen_capped(k, t)
    total = (
        None if k is None or "dmc_chosen_on_cap_paper" not in k else k["dmc_chosen_on_cap_paper"]
    )
    flat = {(s, m): v for s, r in t.items() for m, v in r.items()}
    return [
        _cap_part(
            flat,
            capped,
            "DMCBoost has the lowest test error on all 13 sets",
            lambda f: len(_dmc_best(_nested(f))) == len(t),
            f"on {len(best)} of {len(t)}",
            None if total is None else int(total),
        ),
        _cap_part(
            flat,
            capped,
            "GD-MCBoost is second",
            lambda f: 2 * len(_gd_second(_nested(f))) > len(t),
            f"on {len(second)} of {len(t)}",
        ),
        Part("AdaBoost.M1 fails to boost on 5 of 13 sets", no_model == 5, f"{no_model:g} sets"),
        Part(
            "AdaBoost.M1 is worst where it boosts",
            2 * len(worst) > len(boosted),
            f"on {len(worst)} of {len(boosted)}",
        ),
    ], {
        "dmc_best": len(best),
        "gd_second": len(second),
        "m1_no_model": no_model,
        "m1_worst": len(worst),
        "m1_boosted": len(boosted),
    }


@_claim("dmcboost/C2", "../notebooks/dmcboost-table3.ipynb")
def _dmc_c2(ev):
    k = ev.key("dmcboost", "table3")
    t = _dmc_table(k, _DMC_METHODS + ["AdaBoost.MH"])
    best = [s for s, r in t.items() if r["DMCBoost"] == min(r.values())]
    gaps = {s: r["DMCBoost"] - min(r.values()) for s, r in t.items()}
    return [
        Part(
            "DMCBoost is the most accurate on most sets",
            2 * len(best) > len(t),
            f"on {len(best)} of the {len(t)} sets run",
        ),
        Part(
            "and within one point of the best elsewhere",
            max(gaps.values()) <= 1,
            f"up to {max(gaps.values()):.1f} points behind",
        ),
    ], {"dmc_best": len(best), "sets_run": len(t), "max_gap_points": max(gaps.values())}


_NOISY_SETS = ("Car", "Nursery")


def _dmc_noise_capped(k, methods) -> dict | None:
    """Table 4's chosen fits that ended on a cap of ours, ``{(set, noise, method): fits}``
    (None: not recorded per entry)."""
    keys = [(s, e, m) for s in _NOISY_SETS for e in (0.0, 0.05, 0.2) for m in methods]
    if k is None or any(f"{s}_{e}_{m}_chosen_on_cap" not in k for s, e, m in keys):
        return None
    return {key: int(k[f"{key[0]}_{key[1]}_{key[2]}_chosen_on_cap"]) for key in keys}


def _rise(t, s, e, m):
    return t[s, e, m] - t[s, 0.0, m]


@_claim("dmcboost/C3", "../notebooks/dmcboost-table4.ipynb")
def _dmc_c3(ev):
    k = ev.key("dmcboost", "table4")
    methods = _DMC_METHODS + ["AdaBoost.MH"]
    t = {
        (s, e, m): _need(k, f"{s}_{e}_{m}")
        for s in _NOISY_SETS
        for e in (0.0, 0.05, 0.2)
        for m in methods
    }
    rise = {(s, e, m): _rise(t, s, e, m) for s in _NOISY_SETS for e in (0.05, 0.2) for m in methods}

    def smallest20(t):
        return [
            s
            for s in _NOISY_SETS
            if _rise(t, s, 0.2, "DMCBoost") == min(_rise(t, s, 0.2, m) for m in methods)
        ]

    def hurt(t):
        return all(
            _rise(t, s, 0.05, m) > _rise(t, s, 0.05, "DMCBoost")
            for s in _NOISY_SETS
            for m in ("AdaBoost.M1", "SAMME")
        )

    nursery = t["Nursery", 0.2, "DMCBoost"]
    capped = _dmc_noise_capped(k, methods)
    nursery_capped = None if capped is None else capped["Nursery", 0.2, "DMCBoost"]
    return [
        _cap_part(
            t,
            capped,
            "DMCBoost's error rises least of all methods at 20% noise",
            lambda t: len(smallest20(t)) == len(_NOISY_SETS),
            f"on {len(smallest20(t))} of {len(_NOISY_SETS)} sets",
        ),
        # a band, not a monotone test: the capped runs of the one number deciding it count
        Part(
            "on Nursery it reaches the paper's 1.6% at 20% noise (within one point)",
            abs(nursery - 1.6) <= 1,
            f"ours {_pct(nursery)}",
            nursery_capped,
        ),
        _cap_part(
            t,
            capped,
            "AdaBoost.M1 and SAMME are hurt more than DMCBoost already at 5% noise",
            hurt,
            ", ".join(
                f"{s} {m} +{rise[s, 0.05, m]:.1f}"
                for s in _NOISY_SETS
                for m in ("AdaBoost.M1", "SAMME", "DMCBoost")
            ),
        ),
    ], {
        "nursery_dmc_20": nursery,
        **{f"{s}_{m}_rise_20": rise[s, 0.2, m] for s in _NOISY_SETS for m in methods},
    }


@_claim("dmcboost/C4", "../notebooks/dmcboost-table4.ipynb")
def _dmc_c4(ev):
    k = ev.key("dmcboost", "table4")
    nums, parts, aside = {}, [], []
    # The paper shows its claim on Car; Nursery, where the paper prints no n', is shown beside
    # the verdict without deciding it.  Car's chosen DMCBoost fits on a cap of ours decide it.
    capped = _dmc_noise_capped(k, ["DMCBoost"])
    car_capped = None if capped is None else sum(n for (s, _, _), n in capped.items() if s == "Car")
    for s in ("Car", "Nursery"):
        names = [
            f"{s}_{e}_DMCBoost_{what}"
            for what in ("n_prime", "train_error")
            for e in (0.0, 0.05, 0.2)
        ]
        if s != "Car" and not all(n in (k or {}) for n in names):
            continue
        values: list[float] = [float(v) for v in _need(k, *names)]
        nps, trs = values[:3], values[3:]
        nums.update({f"{s}_n_prime_{e}": v for e, v in zip((0, 5, 20), nps)})
        nums.update({f"{s}_train_error_{e}": v for e, v in zip((0, 5, 20), trs)})
        if s != "Car":
            grows = all(b > a for a, b in zip(nps, nps[1:])) and all(
                b > a for a, b in zip(trs, trs[1:])
            )
            aside.append(
                f"on {s} (not deciding) n' = " + ", ".join(f"{v:g}" for v in nps) + ", "
                "training error "
                + ", ".join(_pct(v) for v in trs)
                + (" (both grow)" if grows else " (not both grow)")
            )
            continue
        parts.append(
            Part(
                f"{s}: the chosen n' grows with the noise",
                all(b > a for a, b in zip(nps, nps[1:])),
                "n' = " + ", ".join(f"{v:g}" for v in nps),
                car_capped,
            )
        )
        parts.append(
            Part(
                f"{s}: the training error grows with the noise",
                all(b > a for a, b in zip(trs, trs[1:])),
                ", ".join(_pct(v) for v in trs),
                car_capped,
            )
        )
    if aside and parts:
        last = parts[-1]
        parts[-1] = Part(last.label, last.holds, "; ".join([last.detail, *aside]), last.runs_on_cap)
    return parts, nums


@_claim("dmcboost/C5", "../notebooks/dmcboost-figure3.ipynb")
def _dmc_c5(ev):
    k = ev.key("dmcboost", "figure3")
    p1, m1, samme, p1t, endt, endtr = _need(
        k,
        "lowest_train_DMCBoost-I",
        "lowest_train_AdaBoost.M1",
        "lowest_train_SAMME",
        "phase1_test",
        "end_test",
        "end_train",
    )
    return [
        Part(
            "phase I's training error is lower than AdaBoost.M1's",
            p1 < m1,
            f"{_pct(p1)} against {_pct(m1)}",
        ),
        Part("and lower than SAMME's", p1 < samme, f"{_pct(p1)} against {_pct(samme)}"),
        Part("phase II lowers the test error", endt < p1t, f"{_pct(p1t)} to {_pct(endt)}"),
        Part(
            "at constant training error (within half a point)",
            abs(endtr - p1) <= 0.5,
            f"{_pct(p1)} to {_pct(endtr)}",
        ),
    ], {
        "phase1_train": p1,
        "m1_train": m1,
        "samme_train": samme,
        "phase1_test": p1t,
        "end_test": endt,
        "end_train": endtr,
    }


def _poker(ev):
    b = ev.bench("multiclass")
    if b is None:
        raise _Missing("benchmarks/results/multiclass.json is not committed")
    cases = {c["case"]: c for c in b["cases"]}
    # DMCBoost's phase times come from its own clock, which starts after the binning; the
    # baselines' median round leaves the binning out too (older records: fit time / rounds)
    base = max(
        cases[f"poker-{m}"].get("median_round_s") or cases[f"poker-{m}"]["round_s"]
        for m in ("AdaBoost.M1", "SAMME")
    )
    d = cases["poker-DMCBoost"]
    return d["phase1_round_s"] / base, d["phase2_round_s"] / base, b


@_claim("dmcboost/C6", "performance.md")
def _dmc_c6(ev):
    r1, r2, b = _poker(ev)
    paper = b["paper"]["poker_round_s"]
    pr = paper["DMCBoost"] / paper["SAMME"]
    parts = [
        Part(
            f"a DMCBoost phase-{ph} round costs about {pr:g}x an AdaBoost.M1/SAMME round "
            "(within a factor 1.5; absolute times are machine-bound)",
            pr / 1.5 <= r <= pr * 1.5,
            f"{r:.1f}x",
        )
        for ph, r in (("I", r1), ("II", r2))
    ]
    return parts, {"paper_ratio": pr, "phase1_ratio": r1, "phase2_ratio": r2}


@_claim("dmcboost/C7", "performance.md")
def _dmc_c7(ev):
    r1, r2, b = _poker(ev)
    k = b["data"]["poker"]["n_classes"]
    return [
        Part(
            f"a phase-{ph} round costs about K = {k} times a SAMME round (within a factor 1.5)",
            k / 1.5 <= r <= k * 1.5,
            f"{r:.1f}x",
        )
        for ph, r in (("I", r1), ("II", r2))
    ], {"K": k, "phase1_ratio": r1, "phase2_ratio": r2}


@_claim("dmcboost/C8", "dmcboost.md")
def _dmc_c8(ev):
    return [
        _tests(
            ev,
            "the bottom-n' average margin (5) equals the soft-margin LP (6)",
            "test_dmcboost_search::test_theorem1_bottom_average_equals_the_soft_margin_lp",
        )
    ], {}


@_claim(
    "dmcboost/C9",
    "../notebooks/dmcboost-figure3.ipynb",
    cap="the statement's 1/n has to be read as 1/n' for the proof to hold",
)
def _dmc_c9(ev):
    return [
        _tests(
            ev,
            "the bound's Chernoff step and its monotonicity",
            "test_dmcboost_search::test_chernoff_step_of_the_proof",
            "test_dmcboost_search::test_generalization_bound_is_monotone",
        )
    ], {}


@_claim("dmcboost/C10", "dmcboost.md")
def _dmc_c10(ev):
    return [
        _tests(
            ev,
            "quasi-concavity in alpha and the bisection line search",
            "test_dmcboost_search::test_theorem3_quasiconcave_along_random_lines",
            "test_dmcboost_search::test_margin_search_matches_the_exact_optimum_on_each_side",
        )
    ], {}


@_claim("dmcboost/C11", "dmcboost.md")
def _dmc_c11(ev):
    return [
        _tests(
            ev,
            "phase I never increases the training error and stops at a coordinatewise minimum",
            "test_dmcboost::test_phase1_error_never_increases_and_steps_are_the_sweeps",
        ),
        _tests(
            ev,
            "phase II ends at a coordinatewise maximum (no relaxation)",
            "test_dmcboost::test_phase2_objective_never_decreases_and_ends_at_a_coordinatewise_maximum",
        ),
    ], {}
