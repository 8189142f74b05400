"""Tests of the papers' target files, their long tables, and paper-vs-ours comparison."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from marginboost.experiments import (
    VERDICT_RULE,
    claims,
    compare,
    compare_tables,
    list_items,
    list_papers,
    load_targets,
    target_table,
)
from marginboost.experiments import targets as targets_module
from marginboost.experiments.compare import describe_agreement, verdict, verdict_counts

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
        entry = next(e for e in data.get("tables", []) + data.get("figures", []) if e["id"] == item)
        if "long_format" not in entry:
            continue
        table = target_table(paper, item, directory=TARGETS)
        assert list(table.columns) == ["dataset", "algorithm", "metric", "mean", "std"]
        assert len(table) == len(entry["rows"]) * len(entry["long_format"]["value_columns"])
        assert not table.duplicated(["dataset", "algorithm", "metric"]).any()
        assert (table["std"].dropna() >= 0).all()


def _value(table, dataset, algorithm, metric):
    row = table[
        (table.dataset == dataset) & (table.algorithm == algorithm) & (table.metric == metric)
    ]
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
    table = {
        "id": "t1",
        "rows": [{"dataset": "d", "A": {"mean": 1.0}}],
        "long_format": {
            "dataset": "{dataset}",
            "algorithm": "{column}",
            "metric": "{measure}",
            "value_columns": ["A"],
        },
    }
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

PAPER = pd.DataFrame(
    {
        "dataset": ["a", "a", "b", "c", "d"],
        "algorithm": ["X", "Y", "X", "X", "X"],
        "metric": ["err"] * 5,
        "mean": [10.0, 20.0, 5.0, np.nan, 40.0],
        "std": [1.0, np.nan, 0.0, np.nan, 2.0],
    }
)


def test_each_verdict_branch():
    # unit "percent": one point is 1.0; paper runs 4, ours 4
    paper = PAPER.copy()
    paper.attrs.update(unit="percent", paper_runs=4)
    ours = pd.DataFrame(
        {
            "dataset": ["a", "a", "b", "c", "e", "d"],
            "algorithm": ["X", "Y", "X", "X", "X", "X"],
            "metric": ["err"] * 6,
            "mean": [11.2, 22.5, 5.6, 3.0, 1.0, np.nan],
            "std": [2.0, 0.5, 0.1, 0.1, 0.1, np.nan],
            "n_runs": [4, 4, 4, 4, 4, 4],
        }
    )
    table = compare_tables(paper, ours)
    assert list(table.columns) == [
        "dataset",
        "algorithm",
        "metric",
        "paper",
        "paper_std",
        "paper_runs",
        "ours",
        "ours_std",
        "n_runs",
        "difference",
        "tolerance",
        "verdict",
    ]
    got = dict(zip(zip(table.dataset, table.algorithm), table.verdict))
    assert got == {
        # SE_diff = sqrt(1/4 + 4/4) = 1.118; |1.2| <= 2.236
        ("a", "X"): "agrees",
        # no paper std: assumed equal to ours, SE = sqrt(2 * 0.25 / 4) = 0.354; floor 1 < 2.5
        ("a", "Y"): "differs",
        ("b", "X"): "agrees",  # |0.6| <= floor of one point
        ("c", "X"): "no paper value",  # paper prints "-"
        ("d", "X"): "not run",  # our value is NaN
        ("e", "X"): "no paper value",  # only we report it
    }
    assert table.tolerance.iloc[0] == pytest.approx(2 * math.sqrt(1 / 4 + 4 / 4))
    assert table.difference.iloc[0] == pytest.approx(1.2)
    # order: paper rows first, then ours-only rows
    assert list(zip(table.dataset, table.algorithm)) == [
        ("a", "X"),
        ("a", "Y"),
        ("b", "X"),
        ("c", "X"),
        ("d", "X"),
        ("e", "X"),
    ]


def test_runs_and_spreads_decide_the_tolerance():
    # more runs -> smaller standard error -> a stricter verdict
    assert verdict(10.0, 2.0, 12.5, ours_std=2.0, paper_runs=2, ours_runs=2) == "agrees"
    assert verdict(10.0, 2.0, 12.5, ours_std=2.0, paper_runs=50, ours_runs=50) == "differs"
    # unknown paper runs: assumed equal to ours
    assert verdict(10.0, 2.0, 12.5, ours_std=2.0, ours_runs=2) == verdict(
        10.0, 2.0, 12.5, ours_std=2.0, paper_runs=2, ours_runs=2
    )
    # no spread at all: only the floor (one point) applies
    assert verdict(10.0, np.nan, 11.0) == "agrees"
    assert verdict(10.0, np.nan, 11.0 + 1e-6) == "differs"
    assert verdict(0.50, np.nan, 0.509, point=0.01) == "agrees"
    assert verdict(0.50, np.nan, 0.52, point=0.01) == "differs"


def test_missing_row_is_not_run_and_floor_applies():
    ours = pd.DataFrame(
        {"dataset": ["a", "b"], "algorithm": ["X", "X"], "metric": ["err"] * 2, "mean": [13.5, 5.4]}
    )
    table = compare_tables(PAPER, ours)  # unit unknown, no atol: the floor is 0
    verdicts = dict(zip(zip(table.dataset, table.algorithm), table.verdict))
    # only the paper's std with our run count unknown: no SE, floor 0
    assert verdicts[("a", "X")] == "differs" and verdicts[("a", "Y")] == "not run"
    assert compare_tables(PAPER, ours, atol=4.0).verdict.iloc[0] == "agrees"
    assert compare_tables(PAPER, ours, atol=1.0).verdict.iloc[2] == "agrees"


def test_verdict_function_boundary():
    assert verdict(10.0, 1.0, 12.0, ours_std=1.0, paper_runs=2, ours_runs=2) == "agrees"
    assert verdict(10.0, 1.0, 12.0 + 1e-6, ours_std=1.0, paper_runs=2, ours_runs=2) == "differs"
    assert verdict(0.153, np.nan, 0.163, point=0.01) == "agrees"  # exact in decimal only
    assert verdict(None, None, 1.0) == "no paper value"
    assert "agrees" in VERDICT_RULE and "differs" in VERDICT_RULE


def test_counts_under_the_stricter_and_looser_rules():
    paper = target_table("mcboost", "table1", directory=TARGETS)
    ours = paper.copy()
    se = np.sqrt(paper["std"] ** 2 / 50 + paper["std"] ** 2 / 10)
    ours["mean"] = paper["mean"] + 1.5 * np.maximum(se, 0.5)  # between the rules
    ours["n_runs"] = 10
    ours.loc[ours.dataset.isin(["ringnorm", "twonorm", "waveform"]), "n_runs"] = 10
    table = compare("mcboost", "table1", ours, directory=TARGETS)
    counts = verdict_counts(table).set_index("rule")
    assert list(counts.index) == ["stricter", "rule", "looser"]
    assert (counts["agrees"] + counts["differs"] == len(paper)).all()
    assert (
        counts.loc["stricter", "agrees"]
        <= counts.loc["rule", "agrees"]
        <= counts.loc["looser", "agrees"]
    )
    assert counts.loc["looser", "agrees"] == len(paper)
    text = describe_agreement(table)
    assert VERDICT_RULE.split()[0] in text and "stricter" in text and "50 random splits" in text


def test_compare_rejects_bad_ours():
    with pytest.raises(ValueError, match=r"lacks columns \['metric'\]"):
        compare_tables(PAPER, pd.DataFrame({"dataset": ["a"], "algorithm": ["X"], "mean": [1]}))
    dup = pd.DataFrame(
        {"dataset": ["a", "a"], "algorithm": ["X", "X"], "metric": ["err"] * 2, "mean": [1.0, 2.0]}
    )
    with pytest.raises(ValueError, match="more than one row"):
        compare_tables(PAPER, dup)
    with pytest.raises(ValueError, match="must be numeric"):
        compare_tables(PAPER, dup.iloc[:1].assign(mean=["low"]))
    with pytest.raises(TypeError, match="DataFrame"):
        compare_tables(PAPER, {"dataset": "a"})
    with pytest.raises(ValueError, match="atol"):
        compare_tables(PAPER, dup.iloc[:1], atol=-0.1)


def test_compare_against_a_real_table():
    paper = target_table("mcboost", "table1", directory=TARGETS)
    runs = np.where(paper["dataset"].isin(["ringnorm", "twonorm", "waveform"]), 10, 50)
    within = np.maximum(2 * np.sqrt(paper["std"] ** 2 / runs + paper["std"] ** 2 / 50), 1.0)
    ours = paper.copy()
    ours["mean"] = ours["mean"] + 0.99 * within
    ours["n_runs"] = 50
    table = compare("mcboost", "table1", ours, directory=TARGETS)
    assert len(table) == len(paper) and (table.verdict == "agrees").all()
    assert table.attrs["unit"] == "percent"
    assert list(table.paper_runs[:3]) == [50, 50, 50]
    assert table.set_index("dataset").loc["ringnorm", "paper_runs"].eq(10).all()
    se = np.sqrt(paper["std"] ** 2 / table["paper_runs"] + paper["std"] ** 2 / 50)
    beyond = np.maximum(2 * se, 1.0)
    shifted = ours.assign(mean=paper["mean"] + beyond + 0.01)
    assert (compare("mcboost", "table1", shifted, directory=TARGETS).verdict == "differs").all()
