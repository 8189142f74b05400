"""The DMCBoost protocol: cells, splits, label noise, model selection and the table frames."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from marginboost.experiments.store import cell_key
from marginboost.papers.dmcboost import cell as C
from marginboost.papers.dmcboost import cost as COST
from marginboost.papers.dmcboost import figure3 as F3
from marginboost.papers.dmcboost import protocol as P
from marginboost.papers.dmcboost import settings as S
from marginboost.papers.dmcboost import summaries as SUM

MIRROR = os.environ.get("MARGINBOOST_DATA_MIRROR")
needs_mirror = pytest.mark.skipif(
    not MIRROR or not Path(MIRROR).is_dir(),
    reason="MARGINBOOST_DATA_MIRROR does not point at the mirror",
)


@needs_mirror
@pytest.mark.parametrize("profile", ["quick", "full"])
def test_cells_are_unique_and_cover_the_tables(profile):
    cells = P.grid_cells(profile)
    keys = [
        (
            c["paper_dataset"],
            c["fold"],
            c["noise_rate"],
            c["params"]["depth"],
            c["algorithm"],
            c["params"]["max_rounds"],
        )
        for c in cells
    ]
    assert len(keys) == len(set(keys))
    s = S.grid_settings(profile)
    table2 = P.grid_cells(profile, tables=("table2",))
    assert {c["algorithm"] for c in table2} == set(S.METHODS) - {"AdaBoost.MH"}
    assert {c["params"]["depth"] for c in table2} == {3}
    protocols = {name: S.table2_protocol(name, profile) for name in s["folds"]}
    assert len(table2) == 4 * sum(t["folds"] for t in protocols.values())
    for c in table2:  # each cell carries its set's Table 2 caps
        t = protocols[c["paper_dataset"]]
        cap = t["dmc_max_rounds"] if c["algorithm"] == "DMCBoost" else t["max_rounds"]
        assert c["params"]["max_rounds"] == cap
    for c in cells:
        grid = c["params"].get("n_prime_grid")
        if grid is not None:
            assert grid == (["n/4"] if c["paper_dataset"] in S.FIXED else s["n_prime_grid"])
    if profile == "full":
        assert set(s["folds"]) == set(S.DATASETS)
        poker = [c for c in cells if c["paper_dataset"] == "Poker525k"]
        assert poker and all(c["params"]["max_rounds"] == 5000 for c in poker)
        assert {c["fold"] for c in poker} == {0}  # its fixed split


def test_table2_paper_protocol_sets_and_the_reduced_tables_3_and_4():
    s = S.grid_settings("full")
    assert s["table2_paper"] and set(s["table2_paper"]) <= set(S.DATASETS)
    for name in S.DATASETS:
        t = S.table2_protocol(name, "full")
        if name in s["table2_paper"]:
            assert t == {
                "folds": 1 if name in S.FIXED else 5,
                "max_rounds": 5000,
                "dmc_max_rounds": S.DMC_SAFETY_CAP,
                "paper": True,
                "paper_baselines": True,
            }
            assert all(S.on_paper_protocol(t, m) for m in S.METHODS)
        elif name in s["table2_paper_baselines"]:
            # the baselines on the paper's protocol, DMCBoost on the reduced cap
            assert t == {
                "folds": 5,
                "max_rounds": 5000,
                "dmc_max_rounds": s["dmc_max_rounds"],
                "paper": False,
                "paper_baselines": True,
            }
            assert S.on_paper_protocol(t, "SAMME") and not S.on_paper_protocol(t, "DMCBoost")
        else:
            assert not t["paper"] and not t["paper_baselines"] and t["max_rounds"] <= 1000
            assert not any(S.on_paper_protocol(t, m) for m in S.METHODS)
    assert not set(s["table2_paper"]) & set(s["table2_paper_baselines"])
    # Tables 3 and 4 run the paper's caps on the sets in table3_paper / table4_paper (all
    # rotations), the reduced ones elsewhere
    assert set(s["table3_paper"]) <= set(s["table3_datasets"])
    assert set(s["table4_paper"]) <= set(s["table4"])
    folds: dict[tuple, set] = {}
    for table in ("table3", "table4"):
        for c in P.grid_cells("full", tables=(table,)):
            name = c["paper_dataset"]
            if name in s[f"{table}_paper"]:
                folds.setdefault((table, name), set()).add(c["fold"])
                cap = S.DMC_SAFETY_CAP if c["algorithm"] == "DMCBoost" else 5000
                assert c["params"]["max_rounds"] == cap
                continue
            if table == "table4":
                assert c["fold"] < s["table4"][name]["folds"]
            cap = s["dmc_max_rounds"] if c["algorithm"] == "DMCBoost" else s["max_rounds"]
            assert c["params"]["max_rounds"] == cap
    for table, protocol in (("table3", S.table3_protocol), ("table4", S.table4_protocol)):
        for name in s[f"{table}_paper"]:
            assert folds[table, name] == ({0} if name in S.FIXED else set(range(5)))
            assert protocol(name, "full")["paper"]
    # Table 4's noise-free cells on the paper's protocol are Table 3's own
    table3 = {cell_key(c) for c in P.grid_cells("full", tables=("table3",))}
    clean4 = [
        c
        for c in P.grid_cells("full", tables=("table4",))
        if c["noise_rate"] == 0 and c["paper_dataset"] in s["table4_paper"]
    ]
    assert clean4 and all(cell_key(c) in table3 for c in clean4)
    assert S.table4_protocol("Nursery", "full")["paper"]
    with pytest.raises(ValueError, match="not one of Table 4's data sets"):
        S.table4_protocol("Wine", "full")
    quick = S.grid_settings("quick")
    assert not S.table3_protocol("Wine", "quick")["paper"]
    assert S.table3_protocol("Wine", "quick")["folds"] == quick["table3_folds"]
    assert not S.grid_settings("quick")["table2_paper"]
    with pytest.raises(ValueError, match="unknown DMCBoost data set"):
        S.table2_protocol("Iris", "full")


@needs_mirror
def test_rotations_partition_the_data_and_noise_spares_the_test_part():
    _, y0, _, _ = S.load_fold("Car", 0)
    tests = []
    for fold in range(5):
        X, y, y_clean, split = S.load_fold("Car", fold, noise_rate=0.2)
        assert split.sizes[1] > 0 and abs(split.sizes[1] - split.sizes[2]) <= 1
        assert split.sizes[0] + split.sizes[1] + split.sizes[2] == y.size
        tests.append(split.test)
        np.testing.assert_array_equal(y[split.test], y_clean[split.test])
        for part in (split.train, split.validation):
            changed = np.count_nonzero(y[part] != y_clean[part])
            assert changed == round(0.2 * part.size)
        np.testing.assert_array_equal(y_clean, y0)
    assert np.array_equal(np.sort(np.concatenate(tests)), np.arange(y0.size))
    again = S.load_fold("Car", 3, noise_rate=0.2)
    np.testing.assert_array_equal(again[1], S.load_fold("Car", 3, noise_rate=0.2)[1])


@needs_mirror
def test_fixed_split_and_bad_folds():
    X, y, _, split = S.load_fold("Segmentation", 0)
    assert split.sizes == (210, 0, 2100)
    with pytest.raises(ValueError, match="fixed split"):
        S.load_fold("Segmentation", 1)
    with pytest.raises(ValueError, match="fold must be in 0..4"):
        S.load_fold("Car", 5)
    with pytest.raises(ValueError, match="unknown DMCBoost data set"):
        S.load_fold("Iris", 0)


def test_n_prime_labels():
    assert S.n_prime_label(0.25) == "n/4" and S.n_prime_label(1) == "1"
    with pytest.raises(ValueError, match="grid"):
        S.n_prime_label(0.3)


def test_foreign_specs_are_rejected():
    with pytest.raises(ValueError, match="not a DMCBoost table cell"):
        C.grid_cell({"paper": "mcboost", "table": "table1"})
    with pytest.raises(ValueError, match="not a DMCBoost Figure 3 cell"):
        F3.figure3_cell({"paper": "dmcboost", "figure": "figure1"})
    with pytest.raises(ValueError, match="no dmcboost cell function"):
        P.cell_function({"paper": "dmcboost"})
    with pytest.raises(ValueError, match="unknown profile"):
        S.grid_settings("medium")


def _frame(rows):
    return pd.DataFrame(
        rows,
        columns=[
            "dataset",
            "fold",
            "noise_rate",
            "depth",
            "algorithm",
            "test_error",
            "validation_error",
            "train_error",
            "boosted",
            "chosen",
            "seconds",
        ],
    )


def test_depth_is_chosen_by_mean_validation_error_and_m1_dash_is_missing():
    rows = []
    for fold in range(2):
        for depth, val, test in ((3, 10.0, 20.0), (5, 8.0 + fold, 18.0), (8, 8.5, 5.0)):
            rows.append(("Car", fold, 0.0, depth, "SAMME", test + fold, val, 1.0, True, 1, 0.0))
        rows.append(("Car", fold, 0.0, 3, "AdaBoost.M1", np.nan, np.nan, np.nan, False, 0, 0.0))
    frame = _frame(rows)
    t3 = SUM.table3_frame(frame).set_index("algorithm")
    # mean validation error: depth 3: 10, depth 5: 8.5, depth 8: 8.5 -> tie, the smaller depth
    assert t3.loc["SAMME", "chosen_depth"] == 5
    assert t3.loc["SAMME", "mean"] == pytest.approx(18.5)
    assert t3.loc["SAMME", "std"] == pytest.approx(np.std([18.0, 19.0], ddof=1))
    assert np.isnan(t3.loc["AdaBoost.M1", "mean"])
    t2 = SUM.table2_frame(frame).set_index("algorithm")
    assert t2.loc["SAMME", "mean"] == pytest.approx(20.5) and t2.loc["SAMME", "n_runs"] == 2


def test_fixed_split_depth_falls_back_to_training_error():
    rows = [
        ("Segmentation", 0, 0.0, 3, "SAMME", 9.0, np.nan, 4.0, True, 1, 0.0),
        ("Segmentation", 0, 0.0, 8, "SAMME", 7.0, np.nan, 0.0, True, 1, 0.0),
    ]
    t3 = SUM.table3_frame(_frame(rows)).set_index("algorithm")
    assert t3.loc["SAMME", "chosen_depth"] == 8 and t3.loc["SAMME", "mean"] == 7.0


@needs_mirror
def test_a_quick_cell_selects_n_prime_on_validation():
    spec = [
        c
        for c in P.grid_cells("quick", tables=("table2",))
        if c["paper_dataset"] == "Wine" and c["algorithm"] == "DMCBoost"
    ][0]
    record = C.grid_cell(spec)
    val = record["validation_errors"]
    best = spec["params"]["n_prime_grid"][int(np.argmin(val))]
    assert record["chosen"] == best
    assert record["test_error"] == record["test_errors"][int(np.argmin(val))]
    assert 0 <= record["test_error"] <= 100


@needs_mirror
def test_an_interrupted_dmcboost_cell_goes_on_from_its_checkpoint(tmp_path, monkeypatch):
    """A DMCBoost cell killed in its second n' branch keeps its finished parts; run again, it
    gives the same record, counts the earlier run's seconds and removes its checkpoint."""
    from _dmc_helpers import killed_in_branch

    monkeypatch.setenv("MARGINBOOST_RESULTS_DIR", str(tmp_path))
    spec = [
        c
        for c in P.grid_cells("quick", tables=("table2",))
        if c["paper_dataset"] == "Wine" and c["algorithm"] == "DMCBoost"
    ][0]
    folder = C.checkpoint_folder(spec)
    assert folder.is_relative_to(tmp_path) and folder.name == cell_key(spec)
    whole = C.grid_cell(spec)
    assert "resumed_seconds" not in whole and not folder.exists()
    with killed_in_branch(monkeypatch):
        C.grid_cell(spec)
    assert (folder / "phase1.npz").exists() and (folder / "phase2-0.npz").exists()
    resumed = C.grid_cell(spec)
    assert not folder.exists()
    assert 0 < resumed["resumed_seconds"] < resumed["seconds"]
    for key in ("test_errors", "validation_errors", "train_errors", "rounds", "chosen"):
        assert resumed[key] == whole[key]


@needs_mirror
@pytest.mark.parametrize("method", ["SAMME", "GD-MCBoost", "AdaBoost.M1"])
def test_an_interrupted_baseline_cell_goes_on_from_its_last_part(tmp_path, monkeypatch, method):
    """A baseline cell fits in parts of rounds (warm starts) and saves its model after each:
    killed in its third part, run again, it goes on from the second and gives the record of
    an uninterrupted run (AdaBoost.M1 stops by its own rule in round 8 on Car)."""
    from marginboost.boosting import SAMME, AdaBoostM1, GDMCBoost

    monkeypatch.setenv("MARGINBOOST_RESULTS_DIR", str(tmp_path))
    monkeypatch.setattr(C, "FIRST_PART", 3)
    monkeypatch.setattr(C, "CHECKPOINT_EVERY", 0.0)  # every later part FIRST_PART rounds
    spec = [
        c
        for c in P.grid_cells("quick", tables=("table2",))
        if c["paper_dataset"] == "Car" and c["algorithm"] == method
    ][0]
    folder = C.checkpoint_folder(spec)
    whole = C.grid_cell(spec)
    assert "resumed_seconds" not in whole and not folder.exists()
    cls = {"SAMME": SAMME, "GD-MCBoost": GDMCBoost, "AdaBoost.M1": AdaBoostM1}[method]
    original, calls = cls.fit, []

    def dies(self, *args, **kwargs):
        calls.append(self.n_estimators)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return original(self, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(cls, "fit", dies)
        with pytest.raises(KeyboardInterrupt):
            C.grid_cell(spec)
    assert calls == [3, 6, 9] and (folder / "fit-progress.npz").exists()
    resumed = C.grid_cell(spec)
    assert not folder.exists()
    assert 0 < resumed["resumed_seconds"] < resumed["seconds"]
    for key, value in whole.items():
        if key not in ("seconds", "resumed_seconds"):
            assert resumed[key] == value, key


def test_rounds_run_counts_the_rounds_each_run_trained():
    """A capped run trained the cap, a run stopped by the patience rule 50 rounds beyond the
    round it keeps (never beyond the cap), any other run exactly the rounds it keeps."""
    record = {
        "rounds": [196, 442, 500, 497, 30, 480],
        "stop_reasons": [
            "phase II no improvement within patience; cut back to the best round 196",
            "phase II no improvement within patience; cut back to the best round 442",
            "n_estimators",
            "n_estimators; cut back to the best round 497",
            "phase I zero training error",
            "phase II no improvement within patience; cut back to the best round 480",
        ],
    }
    assert COST.rounds_run(record, 500) == [246, 492, 500, 500, 30, 500]


def test_cost_frame_projects_the_paper_protocol_from_seconds_per_round():
    """Seconds per round from the cells, times the rounds of the paper's protocol (5000 for a
    capped run, the observed rounds otherwise), times 5 rotations (1 on a fixed split); DMCBoost
    counts phase I once and each n' run's phase II; a capped DMCBoost run makes the projection
    a lower bound, except on a fixed split, where 5000 rounds is the paper's own limit."""

    def cell(name, method, cap=100):
        return {"paper_dataset": name, "algorithm": method, "params": {"max_rounds": cap}}

    cells = [
        cell("Car", "SAMME"),
        cell("Car", "SAMME"),
        cell("Poker525k", "SAMME"),
        cell("Car", "DMCBoost"),
        cell("Car", "AdaBoost.M1"),
        cell("Glass", "DMCBoost"),
        cell("Poker525k", "DMCBoost"),
    ]
    metrics = [
        {"seconds": 2.0, "rounds_fitted": 100, "stop_reason": "n_estimators"},
        {"seconds": 2.0, "rounds_fitted": 100, "stop_reason": "n_estimators"},
        {"seconds": 1.0, "rounds_fitted": 10, "stop_reason": "zero training error"},
        {
            "seconds": 9.0,
            "n_phase1": 10,
            "rounds": [40, 100],
            "stop_reasons": ["phase I zero training error", "n_estimators"],
        },
        {"seconds": 0.5, "rounds_fitted": 5, "stop_reason": "weighted error 0.5 >= 1/2"},
        {
            "seconds": 9.0,
            "phase1_seconds": 6.0,
            "n_phase1": 10,
            "rounds": [40, 100],
            "stop_reasons": ["phase I zero training error", "n_estimators"],
        },
        {"seconds": 5.0, "n_phase1": 10, "rounds": [100], "stop_reasons": ["n_estimators"]},
    ]
    out = COST.cost_frame(cells, metrics, paper_rounds=5000).set_index(["dataset", "algorithm"])
    samme = out.loc[("Car", "SAMME")]
    assert samme["s_per_round"] == pytest.approx(0.02)
    assert samme["paper_cpu_h"] == pytest.approx(0.02 * 5000 * 5 / 3600)
    assert not samme["lower_bound"]
    poker = out.loc[("Poker525k", "SAMME")]
    assert poker["paper_cpu_h"] == pytest.approx(0.1 * 10 * 1 / 3600)
    dmc = out.loc[("Car", "DMCBoost")]
    # phase I 10 rounds, phase II 30 and 90 rounds: 130 rounds in 9 s
    assert dmc["rounds"] == 130 and dmc["capped"] == 1 and dmc["lower_bound"]
    assert dmc["paper_cpu_h"] == pytest.approx(9 / 130 * (10 + 30 + 4990) * 5 / 3600)
    assert dmc["rate"] == "blended" and samme["rate"] == "blended"
    m1 = out.loc[("Car", "AdaBoost.M1")]
    assert m1["paper_cpu_h"] == pytest.approx(0.1 * 5 * 5 / 3600)
    # with phase I's seconds recorded: phase I as it is, phase II's 120 rounds took 3 s
    glass = out.loc[("Glass", "DMCBoost")]
    assert glass["rate"] == "per phase"
    assert glass["paper_cpu_h"] == pytest.approx((6.0 + 3.0 / 120 * (30 + 4990)) * 5 / 3600)
    # on a fixed split the paper's own limit is 5000 rounds: a capped run is no lower bound
    poker_dmc = out.loc[("Poker525k", "DMCBoost")]
    assert poker_dmc["capped"] == 1 and not poker_dmc["lower_bound"]


def test_missing_cost_estimates_from_the_closest_computed_cells():
    """A missing cell costs the mean of the computed cells of its set, method, depth and noise;
    else of the same depth at another noise rate; else its set's depth-3 mean times the method's
    depth factor (summed seconds over the sets with both depths); else nothing (unestimated)."""

    def cell(name, method, depth, noise=0.0):
        return {
            "paper_dataset": name,
            "algorithm": method,
            "params": {"depth": depth},
            "noise_rate": noise,
        }

    computed = [
        (cell("Car", "SAMME", 3), 10.0),
        (cell("Car", "SAMME", 3), 20.0),
        (cell("Car", "SAMME", 8), 60.0),
        (cell("Glass", "SAMME", 3), 5.0),
        (cell("Glass", "SAMME", 8), 50.0),
        (cell("Yeast", "SAMME", 3), 2.0),
        (cell("Yeast", "SAMME", 8, noise=0.2), 9.0),  # noisy: not in the factor
        (cell("Wine", "SAMME", 3), 0.0),
        (cell("Wine", "SAMME", 8), 30.0),  # factor (60 + 50 + 30) / (15 + 5 + 0) = 7
    ]
    cells = [c for c, _ in computed] + [cell("Vowel", "SAMME", 3)]
    metrics = [{"seconds": s} for _, s in computed] + [None]
    missing = [
        cell("Car", "SAMME", 3),  # same depth: 15
        cell("Yeast", "SAMME", 8, noise=0.05),  # other noise: 9
        cell("Yeast", "SAMME", 8),  # other noise too: 9
        cell("Car", "DMCBoost", 3),  # never run: no estimate
        cell("Vowel", "SAMME", 8),  # no depth-3 time of Vowel: no estimate
        cell("Yeast", "SAMME", 12),  # no factor for depth 12: no estimate
    ]
    out = COST.missing_cost(cells, metrics, missing).set_index(["dataset", "algorithm"])
    assert out.loc[("Car", "SAMME"), "cpu_h"] == pytest.approx(15.0 / 3600)
    yeast = out.loc[("Yeast", "SAMME")]
    assert yeast["missing"] == 3 and yeast["unestimated"] == 1
    assert yeast["cpu_h"] == pytest.approx(18.0 / 3600)
    assert yeast["basis"] == "other noise, none"
    assert out.loc[("Car", "DMCBoost"), "unestimated"] == 1
    assert out.loc[("Vowel", "SAMME"), "unestimated"] == 1
    # without Yeast's noisy depth-8 cell, Yeast at depth 8 is its depth-3 time times 7
    keep = [i for i in range(len(cells)) if i != 6]
    alone = COST.missing_cost(
        [cells[i] for i in keep], [metrics[i] for i in keep], [cell("Yeast", "SAMME", 8)]
    )
    assert alone["basis"].tolist() == ["depth 3 x factor"]
    assert alone["cpu_h"].iloc[0] == pytest.approx(2.0 * 7.0 / 3600)
    # a noisy cell scales the depth-3 time at its own noise rate where there is one
    noisy = [cell("Yeast", "SAMME", 3, noise=0.2)]
    at_noise = COST.missing_cost(
        [cells[i] for i in keep] + noisy,
        [metrics[i] for i in keep] + [{"seconds": 4.0}],
        [cell("Yeast", "SAMME", 8, noise=0.2), cell("Yeast", "SAMME", 8, noise=0.1)],
    )
    # at 0.2: 4 x 7; at 0.1 (no depth-3 cell there): the mean over noise rates, 3 x 7
    assert at_noise["cpu_h"].iloc[0] == pytest.approx((4.0 * 7.0 + 3.0 * 7.0) / 3600)
    assert COST.missing_cost(cells, metrics, []).empty


def test_the_papers_protocol_in_full_lifts_every_reduction_and_holds_the_books_cells():
    s = S.grid_settings("full", protocol="paper")
    assert set(s["table2_paper"]) == set(s["table3_paper"]) == set(S.DATASETS)
    assert set(s["table4_paper"]) == set(s["table4"]) == {"Car", "Nursery"}
    for name in S.DATASETS:
        for protocol in (S.table2_protocol, S.table3_protocol):
            t = protocol(name, "full", "paper")
            assert t["paper"] and t["paper_baselines"]
            assert t["folds"] == (1 if name in S.FIXED else 5)
    paper = P.grid_cells("full", protocol="paper")
    assert P.paper_protocol_cells("full") == paper and P.paper_protocol_cells("quick") == []
    for c in paper:
        assert c["params"]["max_rounds"] == 5000  # the baselines' limit, DMCBoost's safety cap
    # 4 methods in Table 2; 5 methods x 4 depths in Table 3, and in Table 4 at 3 noise rates
    rotations = {name: 1 if name in S.FIXED else 5 for name in S.DATASETS}
    table2 = P.grid_cells("full", tables=("table2",), protocol="paper")
    assert len(table2) == 4 * sum(rotations.values())
    table3 = P.grid_cells("full", tables=("table3",), protocol="paper")
    assert len(table3) == 5 * 4 * sum(rotations.values())
    table4 = P.grid_cells("full", tables=("table4",), protocol="paper")
    assert len(table4) == 5 * 4 * 3 * 5 * 2
    # the book's cells on the paper's protocol are among them, so a run of it reuses them
    keys = {cell_key(c) for c in paper}
    book = P.grid_cells("full")
    on_paper = [
        c
        for c in book
        if c["params"]["max_rounds"] == 5000
        and (
            c["algorithm"] != "DMCBoost"
            or c["paper_dataset"] in S.grid_settings("full")["table2_paper"]
        )
    ]
    assert on_paper and all(cell_key(c) in keys for c in on_paper)
    with pytest.raises(ValueError, match="needs the full profile"):
        S.grid_settings("quick", protocol="paper")
    with pytest.raises(ValueError, match="unknown protocol 'whole'"):
        P.grid_cells("full", protocol="whole")


def test_phase1_only_cells_are_table2_cells_without_phase_two():
    cells = P.phase1_only_cells("full")
    assert {c["paper_dataset"] for c in cells} == set(P.PHASE1_ONLY)
    table2 = {
        (c["paper_dataset"], c["fold"]): c
        for c in P.grid_cells("full", tables=("table2",))
        if c["algorithm"] == "DMCBoost"
    }
    for c in cells:
        twin = table2[c["paper_dataset"], c["fold"]]
        extra = {
            "phase2": False,
            **({"max_intervals": None} if "max_intervals" in c["params"] else {}),
        }
        assert c["params"] == {**twin["params"], **extra}
        assert {k: v for k, v in c.items() if k != "params"} == {
            k: v for k, v in twin.items() if k != "params"
        }
        assert cell_key(c) != cell_key(twin)
    assert len(cells) == 2 * sum(S.table2_protocol(n, "full")["folds"] for n in P.PHASE1_ONLY)
    assert sum("max_intervals" in c["params"] for c in cells) == len(cells) // 2
    assert P.phase1_only_cells("quick") == []


@needs_mirror
def test_a_dmcboost_cell_passes_phase2_and_max_intervals_when_its_params_name_them(monkeypatch):
    from marginboost.boosting import DMCBoost

    seen = []
    original = DMCBoost.fit_path

    def spy(self, *args, **kwargs):
        seen.append((self.phase2, self.max_intervals))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(DMCBoost, "fit_path", spy)
    X, y, y_clean, split = S.load_fold("Wine", 0)
    parts = (split.train, split.validation, split.test)
    data = tuple(
        a for part in parts for a in (X[part], (y_clean if part is split.test else y)[part])
    )
    s = S.grid_settings("quick")
    plain = S._cell("Wine", 0, 0.0, 3, "DMCBoost", (20, 20), s, "quick")
    exact = S._cell(
        "Wine", 0, 0.0, 3, "DMCBoost", (20, 20), s, "quick", phase2=False, max_intervals=None
    )
    for spec in (plain, exact):
        C._dmcboost(spec["params"], data, fixed=False)
    assert seen == [(True, DMCBoost().max_intervals), (False, None)]


def test_reduced_cap_cells_are_dmcboost_at_the_reduced_cap_on_every_rotation():
    s = S.grid_settings("full")
    assert set(P.REDUCED_CAP_CHECK) <= set(s["table2_paper"])
    cells = P.reduced_cap_cells("full")
    assert {c["paper_dataset"] for c in cells} == set(P.REDUCED_CAP_CHECK)
    for name in P.REDUCED_CAP_CHECK:
        mine = [c for c in cells if c["paper_dataset"] == name]
        assert sorted(c["fold"] for c in mine) == list(
            range(S.table2_protocol(name, "full")["folds"])
        )
    assert all(c["algorithm"] == "DMCBoost" for c in cells)
    assert all(c["params"]["max_rounds"] == s["dmc_max_rounds"] for c in cells)
    # the same cells as Table 2's DMCBoost cells of a set on the reduced protocol
    reduced = {**s, "table2_paper": [], "table2_paper_baselines": []}
    for c in cells:
        name, fold = c["paper_dataset"], c["fold"]
        caps = S._reduced_caps(reduced)
        assert cell_key(c) == cell_key(S._cell(name, fold, 0.0, 3, "DMCBoost", caps, s, "full"))
    # and not Table 2's own cells of those sets, which run the paper's protocol
    table2 = {cell_key(c) for c in P.grid_cells("full", tables=("table2",))}
    assert not {cell_key(c) for c in cells} & table2
    assert P.reduced_cap_cells("quick") == []


@needs_mirror
def test_capped_and_raised_pairs_of_tables_2_and_3_from_the_committed_store():
    """Each pair is a stored DMCBoost cell whose chosen n' ended on the cap, with the same cell
    at a cap CAP_RAISE times larger; Tables 2 and 3 share their depth-3 cells, and a shared one
    is listed once."""
    from marginboost.experiments.grids import paper_store

    store = paper_store("dmcboost", "full")
    t2 = P.capped_and_raised("full", "paper", ("table2",))
    both = P.capped_and_raised("full", "paper", ("table2", "table3"))
    assert t2, "the committed Table 2 has capped chosen runs"
    keys = [cell_key(c) for c, _ in both]
    assert len(keys) == len(set(keys))
    assert {cell_key(c) for c, _ in t2} <= set(keys)
    for capped, rerun in both:
        assert capped["algorithm"] == "DMCBoost" and capped["paper_dataset"] not in S.FIXED
        assert P.chosen_run_capped(capped, store.get(capped)["metrics"])
        assert rerun == P.with_raised_cap(capped)
    with pytest.raises(ValueError, match="unknown table"):
        P.capped_and_raised("full", "paper", ("table1",))


def test_cells_whose_chosen_run_ended_on_our_cap_rerun_with_a_larger_cap():
    """Only DMCBoost cells on the paper's protocol (not the fixed splits, whose limit is the
    paper's) whose *chosen* n' ended on the cap are rerun, as new cells with a larger cap."""
    car = [c for c in P.grid_cells("full", tables=("table4",)) if c["paper_dataset"] == "Car"]
    cells = [c for c in car if c["algorithm"] == "SAMME"][:1]
    cells += [c for c in car if c["algorithm"] == "DMCBoost"][:3]
    dmc = [1, 2, 3]
    grid = list(cells[dmc[0]]["params"]["n_prime_grid"])
    stops = ["phase II no improvement"] * len(grid)
    metrics = [{} for _ in cells]
    metrics[dmc[0]] = {"chosen": grid[1], "stop_reasons": stops[:1] + ["n_estimators"] + stops[2:]}
    metrics[dmc[1]] = {"chosen": grid[2], "stop_reasons": stops[:1] + ["n_estimators"] + stops[2:]}
    metrics[dmc[2]] = {"chosen": grid[0], "stop_reasons": list(stops)}
    protocols = {"Car": S.table4_protocol("Car", "full")}
    assert protocols["Car"]["paper"]
    assert P.raise_capped_cells(cells, metrics, protocols) == [dmc[0]]  # the chosen run capped
    assert P.raise_capped_cells(cells, metrics, {"Car": {"paper": False}}) == []
    raised = P.with_raised_cap(cells[dmc[0]])
    assert raised["params"]["max_rounds"] == P.CAP_RAISE * cells[dmc[0]]["params"]["max_rounds"]
    assert cell_key(raised) != cell_key(cells[dmc[0]])
    assert {k: v for k, v in raised.items() if k != "params"} == {
        k: v for k, v in cells[dmc[0]].items() if k != "params"
    }
