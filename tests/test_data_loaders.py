"""Every registered dataset loads from the mirror with the counts its entry states."""

from __future__ import annotations

import numpy as np
import pytest
from _data_helpers import MIRROR, requires_mirror

import marginboost.data as data

pytestmark = requires_mirror


@pytest.mark.parametrize("name", data.list_datasets())
def test_registered_dataset_loads_with_stated_counts(name):
    entry = data.get_entry(name)
    ds = data.load(name, MIRROR)
    assert ds.name == name
    assert ds.X.dtype == np.float64 and ds.y.dtype == np.int64
    assert ds.X.shape == (entry["n"], entry["d"])
    assert len(ds.feature_names) == entry["d"]
    assert len(np.unique(ds.y)) == entry["n_classes"]
    assert list(ds.classes) == entry["classes"]
    assert np.isfinite(ds.X).all()
    assert ds.meta["missing_policy"]
    assert (len(ds.classes) == 2) == (entry["task"] == "binary")


@pytest.mark.parametrize(
    "name", [n for n in data.list_datasets() if data.get_entry(n).get("n_rows_with_missing", 0)]
)
def test_missing_rows_are_dropped_by_default_and_kept_on_request(name):
    entry = data.get_entry(name)
    full = data.load(name, MIRROR, drop_missing=False)
    assert full.n_samples == entry["n"] + entry["n_rows_with_missing"]
    assert np.isnan(full.X).any(axis=1).sum() == entry["n_rows_with_missing"]
    assert "kept" in full.meta["missing_policy"]
    assert "dropped" in data.load(name, MIRROR).meta["missing_policy"]


def test_load_returns_independent_copies():
    first = data.load("sonar", MIRROR)
    first.X[:] = 0.0
    first.y[:] = 0
    second = data.load("sonar", MIRROR)
    assert second.X.any() and second.y.any()


def test_binary_signed_labels_and_multiclass_refusal():
    ds = data.load("breast-cancer_scale", MIRROR)
    signed = ds.y_signed()
    assert set(np.unique(signed)) == {-1, 1}
    assert np.array_equal(signed == 1, ds.classes[ds.y] == 1)
    with pytest.raises(ValueError, match="binary"):
        data.load("wine_recognition", MIRROR).y_signed()


def test_libsvm_pairs_share_width_and_classes():
    train, test = data.load_train_test("svmguide3", MIRROR)
    assert train.n_features == test.n_features == 22
    assert list(train.classes) == list(test.classes) == [-1, 1]
    assert (test.y_signed() == 1).all()  # svmguide3.t holds only class +1
    train_t, test_t = data.load_train_test("w1a.t", MIRROR)
    assert (train_t.n_samples, test_t.n_samples) == (2477, 47272)


def test_segmentation_train_test_and_pooled_split_agree():
    train, test = data.load_train_test("segmentation_train", MIRROR)
    pooled = data.load("segmentation_uci", MIRROR)
    split = pooled.meta["split"]
    assert np.array_equal(pooled.X[split["train"]], train.X)
    assert np.array_equal(pooled.X[split["test"]], test.X)
    assert (train.n_samples, test.n_samples) == (210, 2100)
    assert "BRICKFACE" in list(train.classes)
    assert train.feature_names[0] == "REGION-CENTROID-COL"


def test_ida_realisation_matches_pooled_mat_rows():
    realisation = data.load("ida_banana_realisation1", MIRROR)
    pooled = data.load("ida_banana", MIRROR)
    rows = {tuple(r) for r in np.column_stack([realisation.X, realisation.y])}
    assert rows == {tuple(r) for r in np.column_stack([pooled.X, pooled.y])}
    train, test = data.load_train_test("ida_banana_test_labels_1", MIRROR)
    assert np.array_equal(realisation.X[realisation.meta["split"]["test"]], test.X)
    assert (train.n_samples, test.n_samples) == (400, 4900)
    with pytest.raises(data.ProtocolError, match="realisation 2"):
        data.load_train_test("ida_banana_realisation1", MIRROR, realisation=2)


def test_no_fixed_split_is_a_protocol_error():
    with pytest.raises(data.ProtocolError, match="no fixed train/test split"):
        data.load_train_test("sonar", MIRROR)


def test_uci_column_handling():
    abalone = data.load("abalone", MIRROR)
    assert abalone.feature_names[-3:] == ["sex=F", "sex=I", "sex=M"]
    assert (abalone.X[:, -3:].sum(axis=1) == 1).all()
    vowel = data.load("vowel_context", MIRROR)
    assert vowel.n_features == 10 and set(vowel.meta["speaker"]).__len__() > 1
    glass = data.load("glass_uci", MIRROR)
    assert "id" not in glass.feature_names and glass.n_classes == 6
    wpbc = data.load("wpbc", MIRROR)
    assert "time" not in wpbc.feature_names and list(wpbc.classes) == ["N", "R"]
    wine = data.load("wine_recognition", MIRROR)  # label column first in this PMLB file
    assert list(wine.classes) == [1, 2, 3] and "target" not in wine.feature_names


def test_vote1_drops_physician_fee_freeze():
    vote, vote1 = data.load("vote", MIRROR), data.load("vote1", MIRROR)
    assert "physician fee freeze" in vote.feature_names
    assert "physician fee freeze" not in vote1.feature_names
    keep = [vote.feature_names.index(f) for f in vote1.feature_names]
    assert np.array_equal(vote.X[:, keep], vote1.X)
