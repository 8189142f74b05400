"""MCBoost Table 1/2 protocol: splits, cells, model selection rules and the Wilcoxon statistic."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon

from marginboost.experiments import cell_key, target_table
from marginboost.papers.mcboost import protocol as P


def _paper_means() -> pd.DataFrame:
    table = target_table("mcboost", "table1")
    return table.pivot_table(index="dataset", columns="algorithm", values="mean", sort=False)


def test_wilcoxon_z_reproduces_the_papers_table2_from_its_table1():
    """The paper's worked numbers: Table 2's z from Table 1's means (within 0.03, the residual
    the target file attributes to rounded means)."""
    means = _paper_means()
    table2 = P.table2_frame(means).set_index("baseline")
    paper = {"AB": 2.8, "L2B": 2.92, "LP": 2.92, "AB-CG": 2.67, "MD": 2.17}
    for baseline, z in paper.items():
        assert table2.loc[baseline, "z"] == pytest.approx(z, abs=0.03)
        assert table2.loc[baseline, "significant"]
    # zero differences dropped: f-solar ties MC with AB and L2B
    assert table2.loc["AB", "n"] == 12 and table2.loc["AB-CG", "n"] == 13


def test_wilcoxon_z_agrees_with_scipy_without_ties():
    rng = np.random.default_rng(0)
    a = rng.normal(size=15)
    b = a + rng.normal(0.3, 1.0, size=15)
    ours = P.wilcoxon_z(a, b)
    ref = wilcoxon(b - a, alternative="greater", method="approx", correction=False)
    assert ours["p_value"] == pytest.approx(ref.pvalue, rel=1e-10)
    assert ours["n"] == 15


def test_wilcoxon_z_rejects_bad_input():
    with pytest.raises(ValueError, match="same length"):
        P.wilcoxon_z(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="finite"):
        P.wilcoxon_z(np.array([1.0, np.nan]), np.zeros(2))
    assert P.wilcoxon_z(np.ones(3), np.ones(3))["n"] == 0


def test_splits_follow_the_papers_fractions_and_are_stable_across_profiles():
    X, y, split = P.load_split("german", 3)
    assert split.train.size == 600 and split.validation.size == 200 and split.test.size == 200
    _, _, again = P.load_split("german", 3)
    np.testing.assert_array_equal(split.train, again.train)
    _, _, large = P.load_split("twonorm", 0)
    assert large.train.size == 740 and large.validation.size == 2220
    assert set(np.unique(y)) == {-1.0, 1.0}
    with pytest.raises(ValueError, match="unknown MCBoost data set"):
        P.load_split("iris", 0)


def test_cells_cover_every_method_and_have_unique_keys():
    cells = P.table1_cells("quick")
    assert {c["algorithm"] for c in cells} == set(P.METHODS)
    assert len({cell_key(c) for c in cells}) == len(cells)
    full = P.table1_settings("full")
    assert full["datasets"] == list(P.DATASETS) and full["max_rounds"] == 1000
    with pytest.raises(ValueError, match="profile"):
        P.table1_settings("medium")


@pytest.fixture(scope="module")
def quick_heart_cells():
    cells = [c for c in P.table1_cells("quick") if c["paper_dataset"] == "heart"]
    return cells, [P.table1_cell(c) for c in cells]


def test_cell_records_follow_the_selection_rules(quick_heart_cells):
    cells, metrics = quick_heart_cells
    by_method = {c["algorithm"]: m for c, m in zip(cells, metrics)}
    mc = by_method["MC"]
    errs = np.asarray(mc["validation_errors"])
    grid = (
        cells[0]["params"]["E_grid"]
        if cells[0]["algorithm"] == "MC"
        else next(c for c in cells if c["algorithm"] == "MC")["params"]["E_grid"]
    )
    # MCBoost: the largest E among the lowest validation errors
    assert mc["chosen"] == max(g for g, e in zip(grid, errs) if e == errs.min())
    for method in ("LP", "AB-CG", "MD"):
        record = by_method[method]
        assert record["validation_error"] == min(record["validation_errors"])
    for method in ("AB", "L2B"):
        record = by_method[method]
        assert 1 <= record["chosen"] <= record["rounds_fitted"]
    for method in ("MC", "AB", "L2B"):
        cdf = np.asarray(by_method[method]["margin_cdf"])
        assert cdf.shape == (len(P.MARGIN_GRID),) and np.all(np.diff(cdf) >= 0) and cdf[-1] == 1.0
        # the fraction of non-positive training margins is the training error
        assert cdf[len(cdf) // 2] * 100 == pytest.approx(by_method[method]["train_error"])
    for record in metrics:
        assert 0.0 <= record["test_error"] <= 100.0


def test_frames_and_curves(quick_heart_cells):
    cells, metrics = quick_heart_cells
    frame = P.table1_frame(cells, metrics)
    assert set(frame["algorithm"]) == set(P.METHODS) and (frame["n_runs"] == 1).all()
    curves = P.error_curves(cells, metrics, ["heart"])
    train, test = curves[("heart", "MC")]
    assert train.shape == test.shape == (len(P.CURVE_ITERATIONS),)
    margins = P.margin_curves(cells, metrics, ["heart"])
    assert set(margins) == {("heart", "MC"), ("heart", "AB"), ("heart", "L2B")}


def test_bad_cells_are_rejected():
    cell = dict(P.table1_cells("quick")[0])
    with pytest.raises(ValueError, match="not an MCBoost Table 1 cell"):
        P.table1_cell({**cell, "table": "table9"})
    with pytest.raises(ValueError, match="unknown method"):
        P.table1_cell({**cell, "algorithm": "XB"})
    with pytest.raises(ValueError, match="no mcboost cell function"):
        P.cell_function({"paper": "mcboost"})
