"""DirectBoost protocols: data, splits, cells and tables of the notebooks (quick grids)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from marginboost.papers.directboost import figure3 as F3
from marginboost.papers.directboost import noise as N
from marginboost.papers.directboost import protocol as D
from marginboost.papers.directboost import settings as DS
from marginboost.papers.directboost import table1 as T1


def test_table1_data_sets_and_substitutes():
    assert list(DS.DATASETS) == [
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
    X, y = DS.load_table1_data("Adult", "raw")  # the mirror file's 14 attributes
    assert X.shape == (6414, 14) and set(np.unique(y)) == {-1.0, 1.0}
    X2, _ = DS.load_table1_data("Adult", "raw")
    np.testing.assert_array_equal(X, X2)  # the draw is seeded
    coded, y_coded = DS.load_table1_data("Adult")  # the table's coding: the paper's file's
    assert coded.shape == (6414, 123) and set(np.unique(coded)) == {0.0, 1.0}
    np.testing.assert_array_equal(coded, DS.load_table1_data("Adult", "a5a")[0])
    np.testing.assert_array_equal(y, y_coded)  # the same rows under both codings
    # an indicator holds exactly where its raw attribute has that level
    from marginboost.data import binarize_adult, load

    names = binarize_adult(load("adult")).feature_names
    sex = list(load("adult").feature_names).index("sex")
    np.testing.assert_array_equal(coded[:, names.index("sex=0")] == 1, X[:, sex] == 0)
    with pytest.raises(ValueError, match="unknown encoding"):
        DS.load_table1_data("Adult", "one-hot")
    with pytest.raises(ValueError, match="not defined for 'Heart'"):
        DS.load_table1_data("Heart", "a5a")
    assert DS.load_table1_data("Splice")[0].shape[0] == 1000
    with pytest.raises(ValueError, match="unknown DirectBoost data set"):
        DS.load_table1_data("Iris")


def test_rotations_are_3_1_1_and_noise_touches_training_labels_only():
    spec = N.table4_cells("full")[0]
    spec = {**spec, "data": {**spec["data"], "noise": 0.2}}
    Xtr, ytr, Xva, yva, Xte, yte = DS._cell_data(spec)
    clean = {**spec, "data": {**spec["data"], "noise": 0.0}}
    _, ytr0, _, yva0, _, yte0 = DS._cell_data(clean)
    n = Xtr.shape[0] + Xva.shape[0] + Xte.shape[0]
    assert abs(Xtr.shape[0] - 3 * n / 5) <= 3 and abs(Xte.shape[0] - n / 5) <= 1
    assert np.mean(ytr != ytr0) == pytest.approx(0.2, abs=0.01)
    np.testing.assert_array_equal(yva, yva0)
    np.testing.assert_array_equal(yte, yte0)


def test_long_servedio_cells_have_clean_evaluation_sets():
    spec = N.table3_cells("quick")[0]
    Xtr, ytr, Xva, yva, Xte, yte = DS._cell_data(spec)
    assert Xtr.shape[0] == 300 and Xva.shape[0] == Xte.shape[0] == 1000
    assert Xtr.shape[1] == 2 * 5 + 11


@pytest.mark.parametrize(("l", "eta"), [(5, 0.05), (5, 0.2), (20, 0.05), (20, 0.0)])
def test_long_servedio_cells_flip_exactly_eta_of_the_training_labels_only(l, eta):
    """Table 3's noise: exactly round(eta * n_train) training labels differ from the
    generator's clean labels (random classification noise at rate eta, as a fixed count); the
    inputs are the generator's, and the validation and test labels are the clean ones."""
    from marginboost.data import long_servedio

    cell = next(
        c
        for c in N.table3_cells("full")
        if (c["data"]["l"], c["data"]["noise"]) == (l, eta)
        and c["data"].get("layout", "first_block") == "first_block"
    )
    data = dict(cell["data"], n_train=400, n_eval=300)  # smaller draws, same construction
    Xtr, ytr, Xva, yva, Xte, yte = DS._cell_data(dict(cell, data=data))
    seed = [DS._SALT, 3, l, cell["fold"]]
    clean = [long_servedio(n, l, seed=seed + [k]) for k, n in enumerate((400, 300, 300))]
    for X, ds in zip((Xtr, Xva, Xte), clean):
        np.testing.assert_array_equal(X, ds.X)
    assert int((ytr != clean[0].y_signed()).sum()) == round(eta * 400)
    np.testing.assert_array_equal(yva, clean[1].y_signed())
    np.testing.assert_array_equal(yte, clean[2].y_signed())


def test_quick_table1_cell_records_every_method():
    cells = T1.table1_cells("quick")
    assert {c["algorithm"] for c in cells} == set(DS.METHODS)
    direct = next(c for c in cells if c["algorithm"] == "DirectBoost")
    record = D.method_cell(direct)
    assert set(record) == set(DS.DIRECT_VARIANTS)
    for r in record.values():
        assert 0 <= r["test_error"] <= 100 and r["chosen"] in direct["params"]["nprime_grid"]
    frame = T1.table1_frame([direct], [record])
    assert set(frame["algorithm"]) == set(DS.DIRECT_VARIANTS)
    with pytest.raises(ValueError, match="not a DirectBoost cell"):
        D.method_cell({"algorithm": "AdaBoost"})


def test_confidence_of_the_reconstructed_table():
    assert T1.table1_confidence("Tic-tac-toe", "BrownBoost") == "high"
    assert T1.table1_confidence("Diabetes", "AdaBoost").startswith("low")
    assert T1.table1_confidence("Fourclass", "DirectBoost_eps_avg").startswith("medium")


def test_figure3_cells_run_both_phase1_readings_and_flag_capped_runs():
    """A Figure 3 cell with ``phase1_readings`` fits DirectBoost under both readings of the
    phase-1 stop and records, for every run, the rounds it ran and whether a cap ended it; a
    cell without the key (the first full run's) computes the record it computed then."""
    assert F3.figure3_settings("full")["direct_rounds"] >= 100_000
    cell = next(c for c in F3.figure3_cells("quick") if c["params"]["depth"] == 1)
    assert cell["params"]["phase1_readings"] == ["default", "literal"]
    small = dict(cell, params=dict(cell["params"], lpboost_rounds=5, direct_rounds=30))
    with pytest.warns(ConvergenceWarning, match="n_estimators"):  # a capped run warns
        record = F3.figure3_cell(small)
    lp = record["LPBoost"]
    assert lp["rounds"] == len(lp["curve"]) == 5 and lp["capped"] is (not lp["converged"])
    default, literal = record["DirectBoost_eps_avg"], record["DirectBoost_eps_avg_literal_phase1"]
    # with stumps the default phase 1 outlasts 30 rounds; the literal one ends after two
    assert (
        default["capped"] and default["rounds"] == 30 and default["stop_reason"] == "n_estimators"
    )
    assert default["phase1_rounds"] == 30
    assert literal["phase1_rounds"] == 2 and literal["rounds"] >= literal["rounds_kept"]
    assert literal["rounds_kept"] == len(literal["curve"])
    old = dict(small, params={k: v for k, v in small["params"].items() if k != "phase1_readings"})
    with pytest.warns(ConvergenceWarning):
        before = F3.figure3_cell(old)
    assert set(before) == {"n_prime", "n_train", "LPBoost", "DirectBoost_eps_avg"}
    assert set(before["DirectBoost_eps_avg"]) == {"curve", "phase1_rounds", "stop_reason"}
    assert "capped" not in before["LPBoost"]
    assert before["DirectBoost_eps_avg"]["curve"] == default["curve"]


def test_cell_function_dispatch():
    assert D.cell_function(F3.figure3_cells("quick")[0]) is F3.figure3_cell
    assert D.cell_function(T1.table1_cells("quick")[0]) is D.method_cell
    with pytest.raises(ValueError):
        D.cell_function({"table": "table9"})


def test_rule_sets_caps_and_the_literal_stop_reading(monkeypatch):
    """Every DirectBoost cell of the rule-set comparison maps back to its rules; the full
    profile's cap is 50,000 rounds for every rule set except on Adult, where the midpoint
    ablation keeps 5000 and the first implementation 2000
    (``ABLATION_ROUNDS_EXCEPTIONS``); the literal reading fits with ``n_iter_no_change=1``,
    the others with the estimator's default."""
    from marginboost.boosting import directboost as direct

    full = T1.choices_cells("full")
    kept = {name for name, _ in DS.ABLATION_ROUNDS_EXCEPTIONS}
    assert kept == {"Adult"}
    assert {T1.choice_of(cell) for cell in full} == set(DS.DIRECT_CHOICES)
    caps = {
        (cell["data"]["name"], T1.choice_of(cell)): cell["params"]["max_rounds"] for cell in full
    }
    assert {choice: cap for (name, choice), cap in caps.items() if name not in kept} == {
        "default": 50_000,
        "literal": 50_000,
        "midpoint": 50_000,
        "v1": 50_000,
    }
    for name in kept:
        mine = {choice: cap for (other, choice), cap in caps.items() if other == name}
        assert mine == {"default": 50_000, "literal": 50_000, "midpoint": 5000, "v1": 2000}
    seen = {}
    real = direct.directboost_variants

    def spy(X, y, variants, n_primes, **params):
        seen[choice] = params.get("n_iter_no_change")
        return real(X, y, variants, n_primes, **params)

    monkeypatch.setattr(direct, "directboost_variants", spy)
    quick = {T1.choice_of(c): c for c in T1.choices_cells("quick")}
    for choice in ("default", "literal"):
        D.method_cell(quick[choice])
    assert seen == {"default": None, "literal": 1}


def test_table1_codes_adult_as_the_paper_s_file_and_the_raw_cells_keep_their_caps():
    table = [c for c in T1.table1_cells("full") if c["data"]["name"] == "Adult"]
    assert len(table) == 5 * len(DS.METHODS)
    assert all(c["data"]["encoding"] == "a5a" for c in table)
    assert all("encoding" not in c["data"] for c in T1.table1_cells("full") if c not in table)
    lp = next(c for c in table if c["algorithm"] == "LPBoost")
    assert lp["params"]["max_rounds"] == 3000  # the safety cap only
    assert lp["params"]["smoothing"] == DS.LPBOOST_SMOOTHING["Adult"]
    ada = next(c for c in table if c["algorithm"] == "AdaBoost")
    assert ada["params"]["max_rounds"] == DS.CODED_STAGEWISE_ROUNDS
    heart_ada = next(c for c in T1.table1_cells("full") if c["algorithm"] == "AdaBoost")
    assert heart_ada["params"]["max_rounds"] == 5000  # other sets keep the table's cap
    # the rule-set ablations code Adult as the table does
    assert all(
        c["data"]["encoding"] == "a5a"
        for c in T1.choices_cells("full")
        if c["data"]["name"] == "Adult"
    )
    raw = T1.file_coding_cells("full")
    assert {c["data"]["name"] for c in raw} == {"Adult"} and len(raw) == len(table)
    assert all("encoding" not in c["data"] for c in raw)
    raw_lp = next(c for c in raw if c["algorithm"] == "LPBoost")
    assert raw_lp["params"]["max_rounds"] == DS.LPBOOST_CAP_EXCEPTIONS["Adult", "raw"][0]
    assert "smoothing" not in raw_lp["params"]
    assert next(c for c in raw if c["algorithm"] == "AdaBoost")["params"]["max_rounds"] == 5000
    # the same rotation's cells differ only by the coding (and the caps)
    brown = next(c for c in table if c["algorithm"] == "BrownBoost" and c["fold"] == 0)
    brown_raw = next(c for c in raw if c["algorithm"] == "BrownBoost" and c["fold"] == 0)
    assert {**brown, "data": brown_raw["data"]} == brown_raw
    assert T1.file_coding_cells("quick") == []  # the quick profile has no Adult


def test_capped_fits_are_rerun_with_a_higher_cap_and_replace_their_record():
    """A variant with a fit on the safety cap is rerun alone over its n' grid with the cap
    raised; its record replaces the capped one in that cell only; Adult is an exception."""
    from marginboost.papers.directboost.reruns import (
        CAPPED_RERUN_EXCEPTIONS,
        CAPPED_RERUN_FACTOR,
        capped_reruns,
        with_reruns,
    )
    from marginboost.papers.directboost.table1 import table1_cells

    cells = [
        c
        for c in table1_cells("full")
        if c["algorithm"] == "DirectBoost" and c["data"]["name"] in ("Heart", "Fourclass")
    ]
    own = {"stop_reasons": ["phase 2 coordinatewise maximum", "phase 2 coordinatewise maximum"]}
    capped = {"stop_reasons": ["n_estimators", "phase 2 coordinatewise maximum"]}
    metrics = [
        {"DirectBoost_avg": own, "DirectBoost_eps_avg": capped, "DirectBoost_order": own}
        for _ in cells
    ]
    reruns = capped_reruns(cells, metrics)
    assert len(reruns) == len(cells)
    for spec, cell in zip(reruns, cells):
        assert spec["params"]["variants"] == ["DirectBoost_eps_avg"]
        assert spec["params"]["max_rounds"] == CAPPED_RERUN_FACTOR * cell["params"]["max_rounds"]
    fixed = {"stop_reasons": ["phase 2 no improvement within patience"] * 2}
    merged = with_reruns(cells, metrics, reruns[:1], [{"DirectBoost_eps_avg": fixed}])
    assert merged[0]["DirectBoost_eps_avg"] is fixed
    assert merged[0]["DirectBoost_avg"] is own
    assert all(m["DirectBoost_eps_avg"] is capped for m in merged[1:])  # other cells untouched
    adult = [{**cells[0], "data": {**cells[0]["data"], "name": "Adult"}}]
    assert "Adult" in CAPPED_RERUN_EXCEPTIONS
    assert capped_reruns(adult, metrics[:1]) == []
    quick = [c for c in table1_cells("quick") if c["algorithm"] == "DirectBoost"]
    assert capped_reruns(quick, metrics[: len(quick)]) == []  # the quick caps are its reduction


def test_validation_spread_bounds_agree_with_brute_force():
    """Claim C3's bounds on a record's spread with its capped fits free in 0-100%: the least
    and greatest spread over every placement of the capped fits' errors on a fine grid."""
    import itertools

    from marginboost.papers.directboost.table1 import validation_spread_bounds

    rng = np.random.default_rng(3)
    grid = np.linspace(0.0, 100.0, 201)
    for _ in range(60):
        k = int(rng.integers(1, 6))
        errors = list(np.round(rng.uniform(0, 60, size=k), 1))
        capped = rng.random(k) < 0.4
        reasons = ["n_estimators" if c else "tol" for c in capped]
        spread, least, greatest, n_capped = validation_spread_bounds(
            {"validation_errors": errors, "stop_reasons": reasons}
        )
        assert spread == max(errors) - min(errors) and n_capped == int(capped.sum())
        free = [i for i in range(k) if capped[i]]
        spreads = []
        for values in itertools.product(grid, repeat=len(free)):
            trial = list(errors)
            for i, v in zip(free, values):
                trial[i] = v
            spreads.append(max(trial) - min(trial))
        assert least == pytest.approx(min(spreads), abs=0.5) and least <= min(spreads) + 1e-12
        assert greatest == pytest.approx(max(spreads)) and greatest >= max(spreads) - 1e-12
