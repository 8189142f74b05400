"""Protocols of Shen & Li (2010), Figures 3 and 4: cell lists, cell functions, summaries."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

MIRROR = os.environ.get("MARGINBOOST_DATA_MIRROR")
pytestmark = pytest.mark.skipif(
    not MIRROR or not Path(MIRROR).is_dir(),
    reason="MARGINBOOST_DATA_MIRROR is unset or missing: the Shen & Li protocols need the "
    "australian_scale and breast-cancer_scale data files",
)

from marginboost.papers.shen_li import protocol as shen_li  # noqa: E402


@pytest.fixture(scope="module")
def figure3_quick():
    cells = shen_li.figure3_cells("quick")
    return cells, [shen_li.figure3_cell(cells[0]), shen_li.figure3_cell(cells[1])]


@pytest.fixture(scope="module")
def figure4_quick():
    cells = shen_li.figure4_cells("quick")
    return cells, [shen_li.figure4_cell(cell) for cell in cells]


@pytest.mark.parametrize("profile", ["quick", "full"])
def test_figure3_cells(profile):
    settings = shen_li.figure3_settings(profile)
    cells = shen_li.figure3_cells(profile)
    assert len(cells) == 1 + settings["n_repeats"]
    assert settings["n_weak"] == [50, 1100]
    assert cells[0]["protocol"] == f"{shen_li.PROTOCOL_VERSION}/whole-data"
    assert [c["fold"] for c in cells[1:]] == list(range(settings["n_repeats"]))
    assert all(c["protocol"].endswith("train-70-of-70-15-15") for c in cells[1:])
    assert all(
        c["params"] == {"n_estimators": 1100}
        and c["profile"] == profile
        and c["dataset"] == "australian_scale"
        and c["figure"] == "figure3"
        for c in cells
    )
    assert len({repr(sorted(c.items())) for c in cells}) == len(cells)


@pytest.mark.parametrize("profile", ["quick", "full"])
def test_figure4_cells(profile):
    settings = shen_li.figure4_settings(profile)
    cells = shen_li.figure4_cells(profile)
    assert len(cells) == 3 * settings["n_repeats"]
    assert [c["algorithm"] for c in cells[:3]] == ["AdaBoost", "AdaBoostQP", "ArcGv"]
    for cell in cells:
        assert cell["dataset"] == "breast-cancer_scale" and cell["figure"] == "figure4"
        if cell["algorithm"] == "AdaBoostQP":
            assert cell["params"]["n_pool"] == settings["n_pool"]
            assert cell["params"]["inverse_T_grid"] == settings["inverse_T_grid"]
        else:
            assert cell["params"] == {"n_estimators": settings["n_rounds"]}
    if profile == "full":
        assert settings["n_rounds"] == 600 and settings["n_pool"] == 1500
        assert settings["inverse_T_grid"] == [10, 20, 30, 40, 50, 100, 200, 500]


@pytest.mark.parametrize(
    "builder",
    [
        shen_li.figure3_settings,
        shen_li.figure3_cells,
        shen_li.figure4_settings,
        shen_li.figure4_cells,
    ],
)
def test_bad_profile(builder):
    with pytest.raises(ValueError, match="unknown profile 'medium'"):
        builder("medium")


def test_figure3_cell_whole_data(figure3_quick):
    from scipy import stats

    from marginboost import AdaBoost
    from marginboost.data import load

    cells, metrics = figure3_quick
    whole = metrics[0]
    assert whole["n_train"] == 690 and whole["n_rounds_fitted"] == 1100
    assert set(whole["checkpoints"]) == {"50", "1100"}
    ds = load("australian_scale")
    X, y = ds.X, ds.y_signed()
    for n_weak, values in whole["checkpoints"].items():
        # the checkpoint of the long run equals a separate run of that many rounds
        direct = AdaBoost(n_estimators=int(n_weak)).fit(X, y).margins(X, y)
        np.testing.assert_allclose(values["margins"], direct, atol=1e-12)
        assert values["excess_kurtosis"] == pytest.approx(stats.kurtosis(direct))
        assert -1.0 <= values["min_margin"] <= values["mean_margin"] <= 1.0
        assert 0.95 < values["probplot_r"] <= 1.0
        assert -1.0 < values["excess_kurtosis"] < 1.0  # near-Gaussian, as the paper claims
    path = whole["kurtosis_path"]
    assert path["rounds"][0] == 1 and path["rounds"][-1] == 1100
    assert path["excess_kurtosis"][-1] == pytest.approx(
        whole["checkpoints"]["1100"]["excess_kurtosis"]
    )


def test_figure3_cell_training_subset(figure3_quick):
    cells, metrics = figure3_quick
    subset = metrics[1]
    n = 690
    assert abs(subset["n_train"] - 0.7 * n) < 2
    assert len(subset["checkpoints"]["50"]["margins"]) == subset["n_train"]
    summary = shen_li.figure3_summary(cells[:2], metrics)
    assert list(summary["sample"]) == ["whole data set"] * 2 + ["70% split 0"] * 2
    assert list(summary["n_weak"]) == [50, 1100, 50, 1100]
    assert "margins" not in summary.columns


def test_figure4_cell_metrics(figure4_quick):
    cells, metrics = figure4_quick
    settings = shen_li.figure4_settings("quick")
    for cell, metric in zip(cells, metrics):
        for key in ("test_error", "validation_error", "train_error"):
            assert 0.0 <= metric[key] <= 0.2, (cell["algorithm"], key, metric[key])
        margins = np.asarray(metric["margins"])
        assert abs(margins.size - 0.7 * 683) < 2  # the 70% training part
        assert np.all(np.abs(margins) <= 1 + 1e-12)
        assert metric["min_margin"] == pytest.approx(margins.min())
        assert metric["mean_margin"] == pytest.approx(margins.mean())
        assert metric["train_error"] == pytest.approx(np.mean(margins <= 0))
    qp = metrics[1]
    assert qp["inverse_T"] in settings["inverse_T_grid"]
    assert len(qp["validation_errors"]) == len(settings["inverse_T_grid"])
    assert min(qp["validation_errors"]) == pytest.approx(
        qp["validation_errors"][settings["inverse_T_grid"].index(qp["inverse_T"])]
    )
    assert qp["validation_error"] == pytest.approx(min(qp["validation_errors"]))


def test_figure4_summary_and_claims(figure4_quick):
    cells, metrics = figure4_quick
    summary = shen_li.figure4_summary(cells, metrics)
    assert list(summary["algorithm"]) == ["AdaBoost", "AdaBoost-QP", "Arc-Gv"]
    assert list(summary["n_splits"]) == [1, 1, 1]
    by_alg = summary.set_index("algorithm")
    for cell, metric in zip(cells, metrics):
        label = shen_li.ALGORITHM_LABELS[cell["algorithm"]]
        assert by_alg.loc[label, "test_error"] == pytest.approx(metric["test_error"])
    claims = shen_li.figure4_claims(cells, metrics)
    m = {c["algorithm"]: metric for c, metric in zip(cells, metrics)}
    expected = float(
        m["ArcGv"]["min_margin"] > max(m["AdaBoost"]["min_margin"], m["AdaBoostQP"]["min_margin"])
    )
    assert claims["arcgv_largest_min_margin"] == expected
    expected = float(
        m["AdaBoostQP"]["mean_margin"] > m["AdaBoost"]["mean_margin"] > m["ArcGv"]["mean_margin"]
    )
    assert claims["mean_margin_qp_ab_arcgv"] == expected
    assert claims["n_splits"] == 1
    with pytest.raises(ValueError, match="no results for"):
        shen_li.figure4_claims(cells[:2], metrics[:2])


def test_figure4_cell_bad_algorithm():
    cell = dict(shen_li.figure4_cells("quick")[0], algorithm="LPBoost")
    with pytest.raises(ValueError, match="unknown algorithm 'LPBoost'"):
        shen_li.figure4_cell(cell)


def test_cell_function_mapping():
    for cell in shen_li.figure3_cells("quick"):
        assert shen_li.cell_function(cell) is shen_li.figure3_cell
    for cell in shen_li.figure4_cells("full"):
        assert shen_li.cell_function(cell) is shen_li.figure4_cell
    with pytest.raises(ValueError, match="no shen_li cell function"):
        shen_li.cell_function({"algorithm": "AdaBoost", "protocol": "other"})
    with pytest.raises(ValueError, match="not a Figure 4 cell"):
        shen_li.figure4_cell(shen_li.figure3_cells("quick")[0])
    with pytest.raises(ValueError, match="not a Figure 3 cell"):
        shen_li.figure3_cell(shen_li.figure4_cells("quick")[0])
