"""The claims of Shen & Li (2010) as predicates over the committed results.

Each claim is registered with :func:`marginboost.experiments.predicates.register` under
``"shen_li/Cn"``; :mod:`marginboost.experiments.predicates` says how a verdict follows from the
parts a predicate returns, and the scoreboard collects them through :mod:`marginboost.papers`.
"""

from __future__ import annotations

from ...experiments.predicates import (
    CAP_COUNTS,
    NO_CAPPED_RUNS,
    Part,
    _claim,
    _duality,
    _need,
    _tests,
    over_splits,
    round_sensitivity,
    sign_test_p,
)

#: The claims whose notebooks count the deciding fits that ended on a cap of ours.
CAP_COUNTS.update(
    {
        "shen_li/C5": ("shen_li", "figure1", "fits_on_cap"),
        "shen_li/C6": ("shen_li", "figure3", "fits_on_cap"),
        "shen_li/C7": ("shen_li", "table2-3", "fits_on_cap"),
        "shen_li/C8": ("shen_li", "table2-3", "fits_on_cap"),
        "shen_li/C10": ("shen_li", "table5-8", "fits_on_cap"),
        "shen_li/C11": ("shen_li", "table5-8", "fits_on_cap"),
        "shen_li/C12": ("shen_li", "table5-8", "fits_on_cap"),
    }
)

#: The claims decided by fits that cannot end on a cap of ours, and why.
NO_CAPPED_RUNS.update(
    {
        "shen_li/C9": (
            "AdaBoost and Arc-Gv run the caption's 600 rounds; AdaBoost-QP is solved to its "
            "optimum over the stumps of a 1500-round AdaBoost run (a pool, not a round cap)"
        ),
        "shen_li/C13": "the dual's r*(T) solved to its optimum at each T",
        "shen_li/C14": (
            "AdaBoost and AdaBoost-CG run the paper's 1000 iterations (AdaBoost-CG stops "
            "earlier where it converges)"
        ),
    }
)


@_claim("shen_li/C1", "../notebooks/shen_li-duality-checks.ipynb")
def _sl_c1(ev):
    part, nums = _duality(
        ev, "primal (5) and duals (10)/(15) agree", "adaboost_l1__5___10", "5____lpboost_form__15"
    )
    return [part], nums


@_claim("shen_li/C2", "../notebooks/shen_li-duality-checks.ipynb")
def _sl_c2(ev):
    part, nums = _duality(ev, "LogitBoost primal (32) and its dual agree", "logitboost__32___31")
    return [part], nums


@_claim("shen_li/C3", "../notebooks/shen_li-duality-checks.ipynb")
def _sl_c3(ev):
    part, nums = _duality(
        ev,
        "squared-hinge (27) and generalized-hinge (28) duals agree",
        "squared_hinge____27",
        "generalized_hinge____28",
    )
    return [part], nums


@_claim("shen_li/C4", "../notebooks/shen_li-duality-checks.ipynb")
def _sl_c4(ev):
    return [
        _tests(
            ev,
            "margins are determined by u* through (25)",
            "test_duality_pairs::test_margins_are_determined_by_dual_weights",
        )
    ], {}


@_claim("shen_li/C5", "../notebooks/shen_li-figure1.ipynb")
def _sl_c5(ev):
    k = ev.key("shen_li", "figure1")
    sets = ("breast_cancer", "australian")
    labels = [
        f"AdaBoost's negative entropy consistently lower, on at least 90% of the iterations ({s})"
        for s in sets
    ] + ["lower on most iterations of both sets"]

    def outcomes(fractions: list[float]) -> list[bool]:
        # the paper's "consistently lower": both weightings start uniform, so the first
        # iterations can tie; "every iteration" would fail the paper's own Figure 1
        return [f >= 0.9 for f in fractions] + [min(fractions) > 0.5]

    fractions = [_need(k, f"{s}_fraction_adaboost_lower") for s in sets]
    nums = {f"{s}_fraction_adaboost_lower": f for s, f in zip(sets, fractions)}
    details = [f"on {100 * f:.0f}% of the iterations" for f in fractions] + [
        f"at least {100 * min(fractions):.0f}%"
    ]
    # the same counted over runs of other lengths, where recorded: a part with the same outcome
    # over every run length is not decided by our limit
    on_cap, notes, rounds = round_sensitivity(
        k,
        "_australian_fraction_adaboost_lower",
        outcomes(fractions),
        lambda r: outcomes([_need(k, f"rounds_{r}_{s}_fraction_adaboost_lower") for s in sets]),
    )
    parts = [
        Part(label, holds, detail + note, cap)
        for label, holds, detail, note, cap in zip(
            labels, outcomes(fractions), details, notes, on_cap
        )
    ]
    for r in rounds:
        for s in sets:
            name = f"rounds_{r}_{s}_fraction_adaboost_lower"
            nums[name] = _need(k, name)
    return parts, nums


@_claim("shen_li/C6", "../notebooks/shen_li-figure3.ipynb")
def _sl_c6(ev):
    k = ev.key("shen_li", "figure3")
    r50, r1100, k50, k1100 = _need(
        k, "probplot_r_50", "probplot_r_1100", "excess_kurtosis_50", "excess_kurtosis_1100"
    )
    paper = {50: -0.056, 1100: -0.34}
    parts = [
        Part(
            "margins approximately Gaussian (probability-plot correlation >= 0.98)",
            min(r50, r1100) >= 0.98,
            f"{r50:.3f} and {r1100:.3f}",
        )
    ]
    for n, ours in ((50, k50), (1100, k1100)):
        parts.append(
            Part(
                f"excess kurtosis with {n} stumps within a factor 2 of the paper's {paper[n]}",
                0.5 <= ours / paper[n] <= 2,
                f"ours {ours:.3f}",
            )
        )
    return parts, {
        "probplot_r_50": r50,
        "probplot_r_1100": r1100,
        "excess_kurtosis_50": k50,
        "excess_kurtosis_1100": k1100,
    }


@_claim("shen_li/C7", "../notebooks/shen_li-table2-3.ipynb")
def _sl_c7(ev):
    k = ev.key("shen_li", "table2-3")
    med = _need(k, "claim_cost39_l1_over_qp_median")
    # Theorem 3.3 says "approximately" and prints no value: the weakest reading is "closer to
    # the optimum than to zero"; the median is shown for the reader to judge the rest
    return [
        Part(
            "AdaBoost-l1 approximately maximizes (39): it attains at least half of the optimum "
            "(median over runs)",
            med >= 0.5,
            f"median {med:.2f} of the optimum",
        ),
    ], {"cost39_l1_over_qp_median": med}


@_claim("shen_li/C8", "../notebooks/shen_li-table2-3.ipynb")
def _sl_c8(ev):
    k = ev.key("shen_li", "table2-3")
    n, qp, mn, avg = _need(
        k,
        "claim_n_datasets",
        "claim_qp_better_test_error",
        "claim_ab_larger_min_margin",
        "claim_qp_larger_avg_margin",
    )
    return [
        Part(
            "AdaBoost-QP has the lower test error on at least 9 of 14 sets", qp >= 9, f"{qp} of {n}"
        ),
        Part("AdaBoost always has the larger minimum margin", mn == n, f"{mn} of {n}"),
        Part("AdaBoost-QP always has the larger average margin", avg == n, f"{avg} of {n}"),
    ], {
        "qp_better_test_error": qp,
        "ab_larger_min_margin": mn,
        "qp_larger_avg_margin": avg,
        "n_datasets": n,
    }


@_claim("shen_li/C9", "../notebooks/shen_li-figure4.ipynb")
def _sl_c9(ev):
    k = ev.key("shen_li", "figure4")
    n = int(_need(k, "n_splits"))
    largest, order, worst = (
        round(n * _need(k, x))
        for x in ("arcgv_largest_min_margin", "mean_margin_qp_ab_arcgv", "arcgv_worst_test_error")
    )
    # shown beside the verdict, not deciding it (the paper prints none of them)
    lp, a600, a10k = (
        k.get(x)
        for x in (
            "lp_optimum_split0",
            "arcgv_min_margin_split0_600",
            "arcgv_min_margin_split0_10000",
        )
    )
    nums = {
        "n_splits": n,
        "arcgv_largest_min_margin_splits": largest,
        "mean_margin_order_splits": order,
        "arcgv_worst_test_error_splits": worst,
        **{
            name: v
            for name, v in (
                ("lp_optimum_split0", lp),
                ("arcgv_min_margin_split0_600", a600),
                ("arcgv_min_margin_split0_10000", a10k),
            )
            if v is not None
        },
    }
    # the suspects measured (our Arc-Gv against its definition: a reference test): on how many
    # splits it is ahead of AdaBoost after 100, 600 and 2000 rounds
    for rounds in (100, 600, 2000):
        ahead = k.get(f"suspects_arcgv_above_adaboost_current_1.0_{rounds}")
        if ahead is not None:
            nums[f"arcgv_ahead_of_adaboost_splits_{rounds}"] = ahead
    parts = []
    for label, wins in (
        ("Arc-Gv has the largest minimum margin", largest),
        ("average margin AdaBoost-QP > AdaBoost > Arc-Gv", order),
        ("Arc-Gv has the worst test error", worst),
    ):
        p = sign_test_p(wins, n)
        parts.append(
            Part(
                label + " (over the splits, sign test)",
                over_splits(wins, n),
                f"{wins} of {n} splits, p = {p:.3f}",
            )
        )
    return parts, nums


@_claim("shen_li/C10", "../notebooks/shen_li-table4-figure5.ipynb")
def _sl_c10(ev):
    t5 = ev.key("shen_li", "table5-8")
    t4 = ev.key("shen_li", "table4-figure5")
    share = _need(t5, "mcnemar_below_critical_share")
    le, speed = _need(t4, "cg_train_le_ab", "median_speedup")
    return [
        Part(
            "same test error: McNemar's chi2 below 3.841 in at least 95% of the runs "
            "(the test's own level)",
            share >= 0.95,
            f"{100 * share:.1f}% of the runs",
        ),
        Part(
            "training error lower or equal on at least 90% of the data sets",
            le >= 0.9,
            f"{100 * le:.0f}%",
        ),
        Part(
            "roughly 10x faster in iterations (median ratio between 5 and 20)",
            5 <= speed <= 20,
            f"median {speed:.1f}x",
        ),
    ], {"mcnemar_below_critical_share": share, "cg_train_le_ab": le, "median_speedup": speed}


@_claim("shen_li/C11", "../notebooks/shen_li-table5-8.ipynb")
def _sl_c11(ev):
    k = ev.key("shen_li", "table5-8")
    dec, tr, te, it = _need(
        k,
        "banana_train_stumps_decreases_with_1/T",
        "banana_train_stumps_range",
        "banana_test_stumps_range",
        "banana_max_iterations",
    )
    return [
        Part(
            "training error depends strongly on T, test error does not (training range "
            "at least 3x the test range)",
            bool(dec) and tr >= 3 * te,
            f"ranges {tr:.3f} and {te:.3f}",
        ),
        Part(
            "all runs converge in fewer than 100 iterations", it < 100, f"up to {it:.0f} on average"
        ),
    ], {"train_range": tr, "test_range": te, "max_mean_iterations": it}


@_claim("shen_li/C12", "../notebooks/shen_li-table5-8.ipynb")
def _sl_c12(ev):
    k = ev.key("shen_li", "table5-8")
    d, lb, ab = _need(
        k, "logit_vs_ada_mean_abs_difference", "logit_better_count", "ada_better_count"
    )
    n = int(lb + ab)
    p = sign_test_p(int(max(lb, ab)), n)
    # "very similar": no systematic difference; the paper's own Tables V and VIII differ by
    # 3.0 points on average (8.5 on ionosphere), so a cutoff on the size would fail the paper
    return [
        Part(
            "neither is better on significantly many sets (sign test)",
            p >= 0.05,
            f"{int(lb)} against {int(ab)}, p = {p:.3f}; mean absolute difference "
            f"{100 * d:.1f} points",
        ),
    ], {"mean_abs_difference": d, "logit_better": lb, "ada_better": ab}


@_claim("shen_li/C13", "../notebooks/shen_li-duality-checks.ipynb")
def _sl_c13(ev):
    k = ev.key("shen_li", "duality-checks")
    nums, ok = {}, True
    for s in ("breast_cancer", "australian"):
        r, hm = _need(k, f"{s}_r_star", f"{s}_hard_margin")
        gaps = [abs(x - hm) for x in r]
        ok = ok and all(b <= a for a, b in zip(gaps, gaps[1:])) and gaps[-1] <= 1e-3
        nums[f"{s}_r_star_last_gap"] = gaps[-1]
    m = _need(k, "r_star_corrected_formula_matches")
    return [
        Part(
            "r*(T) tends to the hard-margin optimum as T -> 0",
            ok,
            "final gaps " + ", ".join(f"{v:.1e}" for v in nums.values()),
        ),
        Part("the corrected formula for r* matches the solver", m >= 4, f"{m} of 4"),
    ], {**nums, "r_star_corrected_formula_matches": m}


@_claim("shen_li/C14", "../notebooks/shen_li-table4-figure5.ipynb")
def _sl_c14(ev):
    k = ev.key("shen_li", "table4-figure5")
    parts, nums = [], {}
    # Decided from the whole mean test-error curves (every recorded iteration), not three
    # points of them.  The paper says only "in some datasets such as australian and
    # breast-cancer we observe over-fitting for AdaBoost" (Sec. 4.2) and prints no size; its
    # Table IV has breast-cancer rising 0.6 points, so a fixed size would fail it.  Over-fitting
    # is read as the error ending above the minimum of its curve, with that minimum in the first
    # half of the run (so that a dip at the end is not read as over-fitting).
    for s in ("australian", "b-cancer"):
        low, at, final, last = _need(
            k,
            f"{s}_AB_test_curve_min",
            f"{s}_AB_test_curve_at_iteration",
            f"{s}_AB_test_curve_final",
            f"{s}_AB_test_curve_iterations",
        )
        rise = 100 * (final - low)
        nums[f"{s}_AB_rise_points"] = rise
        nums[f"{s}_AB_min_at_iteration"] = at
        cg_final = (k or {}).get(f"{s}_CG_test_curve_final")
        cg_low = (k or {}).get(f"{s}_CG_test_curve_min")
        aside = ""
        if cg_final is not None and cg_low is not None:
            nums[f"{s}_CG_rise_points"] = 100 * (cg_final - cg_low)
            aside = f"; AdaBoost-CG's rises {100 * (cg_final - cg_low):.1f}"
        parts.append(
            Part(
                f"AdaBoost over-fits on {s} (its mean test error ends above the minimum of its "
                "curve, reached in the first half of the run)",
                rise > 0 and at <= last / 2,
                f"rise {rise:.2f} points from iteration {at:.0f} of {last:.0f}{aside}",
            )
        )
    return parts, nums
