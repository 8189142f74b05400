"""Tests of the papers' target files, their long tables, and paper-vs-ours comparison."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from marginboost.experiments import (VERDICT_RULE, claims, compare, compare_tables, list_items,
                                     list_papers, load_targets, target_table)
from marginboost.experiments import targets as targets_module
from marginboost.experiments.compare import DEFAULT_RTOL, verdict

REPO = Path(__file__).resolve().parents[1]
TARGETS = REPO / "data" / "targets"
PAPERS = ["anyboost", "directboost", "dmcboost", "mcboost", "shen_li"]


def test_all_five_papers_are_present():
    assert list_papers(TARGETS) == PAPERS


@pytest.mark.parametrize("paper", PAPERS)
def test_target_file_is_consistent(paper):
    data = load_targets(paper, directory=TARGETS)
    assert data["paper"]["id"] == paper and data["paper"]["title"]
    found = claims(paper, directory=TARGETS)
    assert found and all(c["paper"] == paper and c["statement"] and c["source"] for c in found)
    assert len({c["id"] for c in found}) == len(found)
    for item in list_items(paper, directory=TARGETS):  # every long table is well formed
        entry = next(e for e in data.get("tables", []) + data.get("figures", [])
                     if e["id"] == item)
        if "long_format" not in entry:
            continue
        table = target_table(paper, item, directory=TARGETS)
        assert list(table.columns) == ["dataset", "algorithm", "metric", "mean", "std"]
        assert len(table) == len(entry["rows"]) * len(entry["long_format"]["value_columns"])
        assert not table.duplicated(["dataset", "algorithm", "metric"]).any()
        assert (table["std"].dropna() >= 0).all()


def _value(table, dataset, algorithm, metric):
    row = table[(table.dataset == dataset) & (table.algorithm == algorithm)
                & (table.metric == metric)]
    assert len(row) == 1, (dataset, algorithm, metric)
    return float(row["mean"].iloc[0]), float(row["std"].iloc[0])


def test_numbers_as_printed_in_the_papers():
    mc = target_table("mcboost", "table1", directory=TARGETS)
    assert len(mc) == 13 * 6 and mc.attrs["unit"] == "percent"
    assert _value(mc, "banana", "MC", "test_error") == (26.5, 1.2)
    assert _value(mc, "waveform", "AB", "test_error") == (12.3, 0.6)
    sl = target_table("shen_li", "tableII", directory=TARGETS)
    assert sl.attrs["unit"] == "fraction"
    assert _value(sl, "australian", "AB", "min_margin") == (-0.012, 0.005)  # sign kept
    assert _value(sl, "australian", "AB", "test_error") == (0.153, 0.034)
    db = target_table("directboost", "table1", directory=TARGETS)
    assert _value(db, "Tic-tac-toe", "DirectBoost_avg", "test_error") == (0.63, 0.4)
    ls = target_table("directboost", "table3", directory=TARGETS)
    assert _value(ls, "long-servedio l=20 eta=0.2", "DB_order", "test_error")[0] == 3.2
    dmc = target_table("dmcboost", "table3", directory=TARGETS)
    assert _value(dmc, "Letter", "AdaBoost.MH", "test_error") == (3.1, 0.1)
    noise = target_table("dmcboost", "table4", directory=TARGETS)
    assert _value(noise, "Nursery noise=0.2", "DMCBoost", "test_error") == (1.61, 0.5)


def test_missing_paper_values_are_nan():
    dmc = target_table("dmcboost", "table2", directory=TARGETS)
    mean, std = _value(dmc, "Abalone", "AdaBoost.M1", "test_error")  # printed as "-"
    assert math.isnan(mean) and math.isnan(std)
    mean, std = _value(dmc, "Poker525k", "DMCBoost", "test_error")  # fixed split: no std
    assert mean == 30.09 and math.isnan(std)


def test_unknown_names_and_items_without_numbers():
    with pytest.raises(ValueError, match="unknown paper 'adaboost'.*anyboost"):
        load_targets("adaboost", directory=TARGETS)
    with pytest.raises(ValueError, match="no table or figure 'table9'"):
        target_table("mcboost", "table9", directory=TARGETS)
    with pytest.raises(ValueError, match="no comparable numbers.*items with numbers"):
        target_table("anyboost", "table1", directory=TARGETS)


def test_default_folder_comes_from_the_checkout(monkeypatch):
    monkeypatch.setattr(targets_module, "project_root", lambda: REPO)
    assert list_papers() == PAPERS
    monkeypatch.setattr(targets_module, "project_root", lambda: None)
    with pytest.raises(FileNotFoundError, match="clone of the repository"):
        list_papers()
    with pytest.raises(FileNotFoundError, match="does not exist"):
        list_papers(REPO / "no-such-folder")


def _write(folder: Path, paper: str, data: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{paper}.yaml").write_text(yaml.safe_dump(data))


def test_malformed_target_files(tmp_path):
    _write(tmp_path, "toy", {"paper": {"id": "other"}})
    with pytest.raises(ValueError, match="declares paper id 'other'"):
        load_targets("toy", directory=tmp_path)
    table = {"id": "t1", "rows": [{"dataset": "d", "A": {"mean": 1.0}}],
             "long_format": {"dataset": "{dataset}", "algorithm": "{column}",
                             "metric": "{measure}", "value_columns": ["A"]}}
    _write(tmp_path, "toy", {"paper": {"id": "toy"}, "tables": [table]})
    with pytest.raises(ValueError, match="missing field 'measure'"):
        target_table("toy", "t1", directory=tmp_path)
    table["long_format"]["metric"] = "err"
    table["rows"][0]["A"] = {"mean": "n/a"}
    _write(tmp_path, "toy", {"paper": {"id": "toy"}, "tables": [table]})
    with pytest.raises(ValueError, match="not a number"):
        target_table("toy", "t1", directory=tmp_path)
    _write(tmp_path, "toy", {"paper": {"id": "toy"}, "claims": [{"id": "C1"}, {"id": "C1"}]})
    with pytest.raises(ValueError, match="unique 'id'"):
        load_targets("toy", directory=tmp_path)


def test_load_targets_returns_an_independent_copy():
    data = load_targets("mcboost", directory=TARGETS)
    data["paper"]["id"] = "changed"
    assert load_targets("mcboost", directory=TARGETS)["paper"]["id"] == "mcboost"


# ---------------------------------------------------------------- compare

PAPER = pd.DataFrame({"dataset": ["a", "a", "b", "c", "d"],
                      "algorithm": ["X", "Y", "X", "X", "X"],
                      "metric": ["err"] * 5,
                      "mean": [10.0, 20.0, 5.0, np.nan, 40.0],
                      "std": [1.0, np.nan, 0.0, np.nan, 2.0]})


def test_each_verdict_branch():
    ours = pd.DataFrame({"dataset": ["a", "a", "b", "c", "e", "d"],
                         "algorithm": ["X", "Y", "X", "X", "X", "X"],
                         "metric": ["err"] * 6,
                         "mean": [10.9, 22.5, 5.6, 3.0, 1.0, np.nan],
                         "std": [0.5, 0.5, 0.1, 0.1, 0.1, np.nan]})
    table = compare_tables(PAPER, ours)
    assert list(table.columns) == ["dataset", "algorithm", "metric", "paper", "paper_std",
                                   "ours", "ours_std", "n_runs", "difference", "verdict"]
    got = dict(zip(zip(table.dataset, table.algorithm), table.verdict))
    assert got == {
        ("a", "X"): "agrees",          # |0.9| <= paper std 1.0
        ("a", "Y"): "differs",         # no std: |2.5| > 10% of 20
        ("b", "X"): "differs",         # std 0, |0.6| > 10% of 5 = 0.5
        ("c", "X"): "no paper value",  # paper prints "-"
        ("d", "X"): "not run",         # our value is NaN
        ("e", "X"): "no paper value",  # only we report it
    }
    assert table.difference.iloc[0] == pytest.approx(0.9)
    # order: paper rows first, then ours-only rows
    assert list(zip(table.dataset, table.algorithm)) == [("a", "X"), ("a", "Y"), ("b", "X"),
                                                          ("c", "X"), ("d", "X"), ("e", "X")]


def test_missing_row_is_not_run_and_tolerances_apply():
    ours = pd.DataFrame({"dataset": ["a", "b"], "algorithm": ["X", "X"], "metric": ["err"] * 2,
                         "mean": [11.5, 5.4]})
    table = compare_tables(PAPER, ours)
    verdicts = dict(zip(zip(table.dataset, table.algorithm), table.verdict))
    assert verdicts[("a", "X")] == "differs" and verdicts[("a", "Y")] == "not run"
    assert verdicts[("b", "X")] == "agrees"  # 0.4 <= 10% of 5
    assert compare_tables(PAPER, ours, atol=2.0).verdict.iloc[0] == "agrees"
    assert compare_tables(PAPER, ours, rtol=0.0).verdict.iloc[2] == "differs"


def test_verdict_function_boundary():
    assert verdict(10.0, 1.0, 11.0) == "agrees"  # boundary is inclusive
    assert verdict(10.0, 1.0, 11.0 + 1e-6) == "differs"
    assert verdict(0.153, 0.034, 0.187) == "agrees"  # exact in decimal, not in binary
    assert verdict(100.0, np.nan, 100.0 * (1 + DEFAULT_RTOL)) == "agrees"
    assert verdict(None, None, 1.0) == "no paper value"
    assert "agrees" in VERDICT_RULE and "differs" in VERDICT_RULE


def test_compare_rejects_bad_ours():
    with pytest.raises(ValueError, match=r"lacks columns \['metric'\]"):
        compare_tables(PAPER, pd.DataFrame({"dataset": ["a"], "algorithm": ["X"], "mean": [1]}))
    dup = pd.DataFrame({"dataset": ["a", "a"], "algorithm": ["X", "X"], "metric": ["err"] * 2,
                        "mean": [1.0, 2.0]})
    with pytest.raises(ValueError, match="more than one row"):
        compare_tables(PAPER, dup)
    with pytest.raises(ValueError, match="must be numeric"):
        compare_tables(PAPER, dup.iloc[:1].assign(mean=["low"]))
    with pytest.raises(TypeError, match="DataFrame"):
        compare_tables(PAPER, {"dataset": "a"})
    with pytest.raises(ValueError, match="rtol"):
        compare_tables(PAPER, dup.iloc[:1], rtol=-0.1)


def test_compare_against_a_real_table():
    paper = target_table("mcboost", "table1", directory=TARGETS)
    ours = paper.drop(columns="std").copy()
    ours["mean"] = ours["mean"] + 0.5 * paper["std"]
    ours["n_runs"] = 50
    table = compare("mcboost", "table1", ours, directory=TARGETS)
    assert len(table) == len(paper) and (table.verdict == "agrees").all()
    assert table.attrs["unit"] == "percent"
    beyond = np.maximum(paper["std"], DEFAULT_RTOL * paper["mean"].abs())
    shifted = ours.assign(mean=paper["mean"] + beyond + 0.01)
    assert (compare("mcboost", "table1", shifted, directory=TARGETS).verdict
            == "differs").all()
