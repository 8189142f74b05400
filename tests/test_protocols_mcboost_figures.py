"""Protocols of Guo & Chen (MCBoost), Figures 1 and 2: cell lists, cell functions, claims."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from marginboost.experiments import cell_key
from marginboost.papers.mcboost import figures as mf

MIRROR = os.environ.get("MARGINBOOST_DATA_MIRROR")
needs_mirror = pytest.mark.skipif(
    not MIRROR or not Path(MIRROR).is_dir(),
    reason="MARGINBOOST_DATA_MIRROR is unset or missing: Figure 2 needs ida_breast_cancer",
)


def _tiny_figure1_spec(E=0.3, n_estimators=25, n_samples=120, seed=0):
    spec = mf.figure1_cells("quick")[0]
    spec = {
        **spec,
        "params": {**spec["params"], "E": E, "n_estimators": n_estimators},
        "n_samples": n_samples,
        "seed": seed,
        "fold": seed,
    }
    return spec


@pytest.mark.parametrize("profile", ["quick", "full"])
def test_figure1_cells_are_keyed_and_deterministic(profile):
    settings = mf.figure1_settings(profile)
    cells = mf.figure1_cells(profile)
    assert cells == mf.figure1_cells(profile)
    assert len(cells) == len(settings["E_grid"]) * settings["n_repeats"]
    assert len({cell_key(c) for c in cells}) == len(cells)
    assert all(0 < E < 1 for E in settings["E_grid"])
    for cell in cells:
        assert cell["figure"] == "figure1" and cell["algorithm"] == "MCBoost"
        assert cell["dataset"] == "mcboost_toy" and cell["dataset_sha256"] == "generated"
        assert cell["params"]["n_estimators"] == 1000 and cell["params"]["epsilon"] == 1e-5
        assert cell["protocol"].startswith(mf.PROTOCOL_VERSION) and cell["profile"] == profile
    if profile == "full":
        assert settings["E_grid"][0] == 0.05 and settings["E_grid"][-1] == 0.9
        assert len(settings["E_grid"]) == 18


@needs_mirror
@pytest.mark.parametrize("profile", ["quick", "full"])
def test_figure2_cells_are_keyed_and_deterministic(profile):
    settings = mf.figure2_settings(profile)
    cells = mf.figure2_cells(profile)
    assert cells == mf.figure2_cells(profile)
    assert len(cells) == settings["n_repeats"]
    assert len({cell_key(c) for c in cells}) == len(cells)
    assert all(c["figure"] == "figure2" and c["dataset"] == "ida_breast_cancer" for c in cells)
    assert max(settings["checkpoints"]) <= settings["n_rounds"]


@pytest.mark.parametrize(
    "builder", [mf.figure1_settings, mf.figure1_cells, mf.figure2_settings, mf.figure2_cells]
)
def test_bad_profile(builder):
    with pytest.raises(ValueError, match="unknown profile 'medium'"):
        builder("medium")


def test_toy_split_is_60_40_and_seeded():
    spec = mf.figure1_cells("quick")[0]
    ds, split = mf.figure1_data(spec)
    ds2, split2 = mf.figure1_data(spec)
    assert ds.X.shape == (800, 2)
    assert split.train.size == 480 and split.validation.size == 0 and split.test.size == 320
    assert np.array_equal(ds.X, ds2.X) and np.array_equal(split.train, split2.train)
    other, _ = mf.figure1_data({**spec, "seed": 1})
    assert not np.array_equal(ds.X, other.X)


def test_tiny_figure1_cell():
    spec = _tiny_figure1_spec()
    out = mf.figure1_cell(spec)
    assert out == mf.figure1_cell(spec)  # deterministic
    assert 0.0 <= out["train_error"] <= 100.0 and 0.0 <= out["test_error"] <= 100.0
    assert out["n_train"] == 72 and out["n_test"] == 48
    assert 1 <= out["n_active"] <= out["n_iterations"] <= 25
    assert out["weight_sum"] == pytest.approx(1.0, abs=1e-9)
    cdf = np.asarray(out["cdf"])
    assert cdf.shape == (mf.CDF_GRID_POINTS,)
    assert np.all(np.diff(cdf) >= 0) and cdf[-1] == 1.0 and cdf[0] >= 0.0
    assert out["min_margin"] <= out["mean_margin"] and out["margin_variance"] >= 0.0
    # the fraction of margins <= 0 read off the grid's midpoint is the training error
    assert cdf[(mf.CDF_GRID_POINTS - 1) // 2] * 100 == pytest.approx(out["train_error"])


def test_figure1_cell_margins_match_an_independent_refit():
    from marginboost import MCBoost
    from marginboost.margins import margin_mean_variance

    spec = _tiny_figure1_spec(E=0.5, n_estimators=15)
    out = mf.figure1_cell(spec)
    ds, split = mf.figure1_data(spec)
    X, y = ds.X[split.train], ds.y_signed()[split.train]
    model = MCBoost(E=0.5, n_estimators=15, tol=1e-5).fit(X, y)
    margins = y * model.decision_function(X) / np.sum(np.abs(model.alphas_))
    mean, variance = margin_mean_variance(margins)
    assert out["mean_margin"] == pytest.approx(mean, abs=1e-12)
    assert out["margin_variance"] == pytest.approx(variance, abs=1e-12)
    assert out["n_iterations"] == model.n_iterations_


@needs_mirror
def test_figure2_cell_matches_recomputed_margins():
    from marginboost import AdaBoost
    from marginboost.data import load
    from marginboost.margins import margin_mean_variance, normalized_margins

    spec = mf.figure2_cells("quick")[0]
    spec = {
        **spec,
        "params": {"n_estimators": 30},
        "checkpoints": [1, 2, 5, 10, 20, 30],
        "n_path": 8,
    }
    out = mf.figure2_cell(spec)
    assert out == mf.figure2_cell(spec)
    assert sorted(out["checkpoints"], key=int) == ["1", "2", "5", "10", "20", "30"]
    ds = load("ida_breast_cancer")
    X, y = ds.X, ds.y_signed()
    split = mf.figure2_split(X.shape[0], spec["seed"])
    assert out["n_train"] == split.train.size == round(0.6 * X.shape[0])
    model = AdaBoost(n_estimators=30).fit(X[split.train], y[split.train])
    staged = list(model.staged_decision_function(X[split.train]))
    for t in (1, 5, 30):
        margins = normalized_margins(y[split.train], staged[t - 1], model.alphas_[:t])
        mean, variance = margin_mean_variance(margins)
        point = out["checkpoints"][str(t)]
        assert point["mean_margin"] == pytest.approx(mean, abs=1e-12)
        assert point["margin_variance"] == pytest.approx(variance, abs=1e-12)
        assert point["train_error"] == pytest.approx(100 * np.mean(margins <= 0))
    # one stump: every margin is +-1, so the mean is 1 - 2 * (training error)
    first = out["checkpoints"]["1"]
    assert first["mean_margin"] == pytest.approx(1 - 2 * first["train_error"] / 100)
    assert out["path"]["rounds"][0] == 1 and out["path"]["rounds"][-1] == 30
    assert len(out["path"]["mean_margin"]) == len(out["path"]["rounds"])


def test_cell_function_dispatch_and_bad_specs():
    spec1 = mf.figure1_cells("quick")[0]
    assert mf.cell_function(spec1) is mf.figure1_cell
    assert mf.cell_function({"figure": "figure2"}) is mf.figure2_cell
    for bad in ({"figure": "figure9"}, {}, {"table": "table1"}):
        with pytest.raises(ValueError, match="figure1' or 'figure2"):
            mf.cell_function(bad)
    with pytest.raises(ValueError, match="not a Figure 1 cell"):
        mf.figure1_cell({**spec1, "figure": "figure2"})
    with pytest.raises(ValueError, match="not a Figure 2 cell"):
        mf.figure2_cell(spec1)
    with pytest.raises(ValueError, match="unknown algorithm"):
        mf.figure1_cell({**spec1, "algorithm": "AdaBoost"})


def test_figure1_claims_on_a_made_up_frame():
    frame = pd.DataFrame(
        {
            "repetition": 0,
            "E": [0.1, 0.3, 0.5, 0.9],
            "train_error": [2.0, 5.0, 9.0, 12.0],
            "test_error": [20.0, 15.0, 18.0, 25.0],
            "n_iterations": [90, 40, 20, 21],
            "n_active": [80, 35, 18, 18],
            "mean_margin": [0.05, 0.1, 0.12, 0.15],
            "margin_variance": [0.001, 0.01, 0.02, 0.03],
            "min_margin": [-0.1, -0.2, -0.3, -0.4],
        }
    )
    claims = mf.figure1_claims(frame.sample(frac=1.0, random_state=0))  # order-free
    assert claims["optimal_E"] == 0.3 and claims["test_error_at_optimum"] == 15.0
    assert not claims["iterations_nonincreasing"] and claims["iterations_max_increase"] == 1
    assert claims["large_E_underfits"] and claims["small_E_overfits"]
    assert claims["mean_margin_nondecreasing"] and claims["variance_nondecreasing"]
    tied = frame.assign(test_error=[20.0, 15.0, 15.0, 25.0])
    assert mf.figure1_claims(tied)["optimal_E"] == 0.5  # ties -> the largest E
    assert not mf.figure1_claims(tied)["large_E_underfits"]
    with pytest.raises(ValueError, match="one repetition"):
        mf.figure1_claims(pd.concat([frame, frame.assign(repetition=1)]))


def test_figure2_claims_on_a_made_up_metric():
    metric = {
        "checkpoints": {
            str(t): {"mean_margin": m, "margin_variance": v, "test_error": e}
            for t, m, v, e in [(10, 0.3, 0.2, 25.0), (1, 0.5, 0.7, 30.0), (100, 0.1, 0.05, 27.0)]
        },
        "path": {
            "rounds": [1, 3, 10, 30, 100],
            "mean_margin": [0.5, 0.55, 0.3, 0.2, 0.1],
            "margin_variance": [0.7, 0.4, 0.2, 0.1, 0.05],
        },
    }
    claims = mf.figure2_claims(metric)
    assert claims["mean_decreasing"] and claims["variance_decreasing"]
    assert claims["mean_path_increases"] == 1 and claims["mean_path_settled"] == 3
    assert claims["variance_path_increases"] == 0 and claims["variance_path_settled"] == 1
    assert (claims["first_round"], claims["last_round"]) == (1, 100)
    assert claims["best_test_error"] == 25.0 and claims["best_test_round"] == 10
