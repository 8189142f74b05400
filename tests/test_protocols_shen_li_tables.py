"""Protocols of Shen & Li (2010), Tables II-VIII: helpers, cells and summaries."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from marginboost.papers.shen_li import table2_3 as t23
from marginboost.papers.shen_li import table4_figure5 as t4
from marginboost.papers.shen_li import table5_8 as t58
from marginboost.papers.shen_li import tables as st

MIRROR = os.environ.get("MARGINBOOST_DATA_MIRROR")
needs_data = pytest.mark.skipif(
    not MIRROR or not Path(MIRROR).is_dir(),
    reason="MARGINBOOST_DATA_MIRROR is unset or missing: the Shen & Li tables need the data",
)


def test_mcnemar_by_hand():
    a = np.array([True] * 10 + [False] * 2 + [True] * 5 + [False] * 3)
    b = np.array([False] * 10 + [True] * 2 + [True] * 5 + [False] * 3)
    out = t58.mcnemar_chi2(a, b)
    assert (out["b"], out["c"]) == (10, 2)
    assert out["chi2"] == pytest.approx((abs(10 - 2) - 1) ** 2 / 12)
    assert t58.mcnemar_chi2(a, a)["chi2"] == 0.0
    with pytest.raises(ValueError, match="shapes differ"):
        t58.mcnemar_chi2(a, a[:-1])


def test_cost39_is_mean_over_T_minus_variance_over_2T2():
    margins = np.array([0.1, 0.3, -0.2, 0.4])
    T = 0.05
    expected = margins.mean() / T - np.var(margins) / (2 * T * T)
    assert t23.cost39(margins, T) == pytest.approx(expected)


def test_profiles_are_checked():
    for settings in (
        t23.table2_settings,
        t23.table3_settings,
        t4.table4_settings,
        t58.table5_settings,
        t58.table7_settings,
    ):
        with pytest.raises(ValueError, match="unknown profile"):
            settings("medium")


def test_full_profiles_follow_the_paper():
    assert t23.table2_settings("full")["rounds"] == [600, 800, 1000, 1200, 1500]
    assert t23.table2_settings("full")["n_repeats"] == 10
    assert len(t23.table2_settings("full")["datasets"]) == 14
    assert t4.table4_settings("full")["checkpoints"] == [100, 500, 1000]
    assert t58.table5_settings("full")["lda_inverse_T_grid"][0] == 2
    assert len(t58.table5_settings("full")["lda_inverse_T_grid"]) == 15
    assert t58.table7_settings("full")["n_repeats"] == 50


@needs_data
def test_splice_runs_draw_1000_rows_reproducibly():
    X, y, split = st.load_split("splice", 3)
    assert X.shape == (1000, 60)
    assert split.train.size == 700 and split.validation.size == 150
    X2, _, split2 = st.load_split("splice", 3)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(split.test, split2.test)
    X3, _, _ = st.load_split("splice", 4)
    assert not np.array_equal(X, X3)
    with pytest.raises(ValueError, match="unknown Shen & Li data set"):
        st.load_split("liver-disorders", 0)


@needs_data
def test_table4_cell_carries_the_converged_cg_model_forward():
    cell = t4.table4_cells("quick")[1]  # heart
    metric = t4.table4_cell(cell)
    cg = metric["AdaBoostCG"]
    assert cg["converged"] and cg["n_iterations"] < 100
    after = [i for i, t in enumerate(metric["iterations"]) if t >= cg["n_iterations"]]
    assert len({cg["train_error"][i] for i in after}) == 1
    assert len({cg["test_error"][i] for i in after}) == 1
    # T is 1/sum(w) of the cell's AdaBoost run
    from marginboost.boosting.corrective import adaboost_T_heuristic

    X, y, split = st.load_split("heart", cell["seed"])
    assert metric["T"] == pytest.approx(
        adaboost_T_heuristic(X[split.train], y[split.train], 100), rel=1e-12
    )
    frame = t4.table4_frame([cell], [metric])
    assert set(frame["metric"]) == {
        "test_10",
        "test_50",
        "test_100",
        "train_10",
        "train_50",
        "train_100",
    }


@needs_data
def test_table5_cell_chooses_T_on_validation_and_tests_mcnemar():
    cell = [c for c in t58.table5_cells("quick") if c["params"]["weak_learner"] == "stump"][1]
    metric = t58.table5_cell(cell)
    cg = metric["AdaBoostCG"]
    grid = cell["params"]["inverse_T_grid"]
    assert cg["inverse_T"] == grid[int(np.argmin(cg["validation_errors"]))]
    assert metric["mcnemar"]["b"] + metric["mcnemar"]["c"] <= metric["n_test"]
    assert "LogitBoostCG" in metric
    frames = t58.table5_frames([cell], [metric])
    assert frames["tableV"]["algorithm"].tolist() == ["CG"]


@needs_data
def test_logitboost_cg_survives_small_T():
    """Regression: the restricted master used to stop with 'failed to descend' at T = 1/200."""
    from marginboost.boosting import LogitBoostCG

    X, y, split = st.load_split("heart", 0)
    model = LogitBoostCG(T=1 / 200, n_estimators=300).fit(X[split.train], y[split.train])
    assert model.converged_
    assert model.history_["duality_gap"][-1] < 1e-5


def test_cells_refuse_foreign_specs():
    for func in (
        t23.table2_cell,
        t23.table3_cell,
        t4.table4_cell,
        t58.table5_cell,
        t58.table7_cell,
    ):
        with pytest.raises(ValueError, match="spec is not"):
            func({"table": "tableX"})
    from marginboost.papers.shen_li import protocol

    # the paper's dispatcher finds each table's cell function; a figure's spec is no table's
    assert protocol.cell_function({"table": "table7"}) is t58.table7_cell
    assert protocol.cell_function({"figure": "figure3"}) is protocol.figure3_cell
