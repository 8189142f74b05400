"""AnyBoost protocols: the first-stump diagnosis of Figure 1's DOOM II (small sizes)."""

from __future__ import annotations

import pytest

from marginboost.papers.anyboost import protocol as A


def test_first_stump_diagnosis_on_vote1():
    spec = {"dataset": A.FIGURE1_DATASETS["vote1"], "seed": 0, "noise_rate": 0.15}
    out = A.doom2_first_stump(spec, n_draws=8, n_rounds=6, steepness_grid=[2.0, 5.0])
    # the exact learner stops after its first stump, whose test error it keeps
    assert out["reweight_distinct"] == 1 and out["reweight_rounds"] == 1
    assert out["reweight_test_error"] == out["first_stump_test_error"]
    assert out["first_stump_test_error"] == A.first_stump_test_error(spec)
    assert 0.0 <= out["runner_up_edge"] <= out["best_edge"] <= 1.0
    assert 0.0 <= out["escape_fraction"] <= 1.0
    assert out["escape_fraction"] * 8 == int(out["escape_fraction"] * 8)
    assert 1 <= out["resample_distinct"] <= out["resample_rounds"] <= 6
    again = A.doom2_first_stump(spec, n_draws=8, n_rounds=6, steepness_grid=[2.0, 5.0])
    assert again == out  # seeded


def test_first_stump_settings():
    full = A.doom2_first_stump_settings("full")
    assert full["n_rounds"] == A.figure1_settings("full")["n_rounds"]
    assert set(full["datasets"]) <= set(A.FIGURE1_DATASETS)
    with pytest.raises(ValueError, match="unknown profile"):
        A.doom2_first_stump_settings("medium")
