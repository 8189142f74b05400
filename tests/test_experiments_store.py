"""Tests of the content-addressed result store and of cell keys."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import marginboost
from marginboost.experiments import (
    CorruptRecordError,
    RecordConflictError,
    ResultStore,
    cell_key,
    experiment_spec,
    run_grid,
)
from marginboost.experiments.store import canonical_json

SPEC = {
    "algorithm": "AdaBoost",
    "params": {"n_estimators": 100, "learning_rate": 0.1},
    "dataset": "heart",
    "dataset_sha256": "ab" * 32,
    "protocol": "mcboost-60-20-20",
    "fold": 3,
    "seed": 7,
    "profile": "quick",
}


def test_cell_key_is_sha256_of_sorted_compact_json():
    text = (
        '{"algorithm":"AdaBoost","dataset":"heart","dataset_sha256":"' + "ab" * 32 + '",'
        '"fold":3,"params":{"learning_rate":0.1,"n_estimators":100},"profile":"quick",'
        '"protocol":"mcboost-60-20-20","seed":7}'
    )
    assert canonical_json(SPEC) == text
    assert cell_key(SPEC) == hashlib.sha256(text.encode()).hexdigest()
    # pinned value: changing the canonical form would orphan every stored result
    assert cell_key(SPEC) == "5deb2de509ae0b55efeaa59f046766a0aabc3448204fb619940901166347d497"


def test_cell_key_ignores_representation_but_not_content():
    same = {
        "seed": np.int64(7),
        "profile": "quick",
        "protocol": "mcboost-60-20-20",
        "fold": np.int32(3),
        "dataset_sha256": "ab" * 32,
        "dataset": np.str_("heart"),
        "params": {"learning_rate": np.float64(0.1), "n_estimators": 100},
        "algorithm": "AdaBoost",
    }
    assert cell_key(same) == cell_key(SPEC)
    assert (
        cell_key({"grid": (1, 2)})
        == cell_key({"grid": [1, 2]})
        == cell_key({"grid": np.array([1, 2])})
    )
    assert cell_key({**SPEC, "seed": 8}) != cell_key(SPEC)
    assert cell_key({"x": 1}) != cell_key({"x": 1.0})
    assert cell_key({"x": True}) != cell_key({"x": 1})
    assert cell_key({"x": 0.1 + 0.2}) != cell_key({"x": 0.3})  # floats by repr, exactly


@settings(max_examples=50, deadline=None)
@given(
    st.dictionaries(
        st.text(min_size=1, max_size=5),
        st.one_of(
            st.integers(),
            st.floats(allow_nan=False, allow_infinity=False),
            st.text(max_size=5),
            st.lists(st.integers(), max_size=3),
        ),
        max_size=6,
    )
)
def test_cell_key_independent_of_insertion_order_and_sequence_type(spec):
    reversed_spec = {
        k: (tuple(v) if isinstance(v, list) else v) for k, v in reversed(list(spec.items()))
    }
    assert cell_key(reversed_spec) == cell_key(spec)


@pytest.mark.parametrize(
    "spec, error, match",
    [
        ({"x": float("nan")}, ValueError, r"spec\.x.*non-finite"),
        ({"x": {1: 2}}, TypeError, "keys must be strings"),
        ({"x": object()}, TypeError, r"spec\.x.*type object"),
        ([("x", 1)], TypeError, "must be a mapping"),
    ],
)
def test_cell_key_rejects_bad_specs(spec, error, match):
    with pytest.raises(error, match=match):
        cell_key(spec)


def test_experiment_spec_holds_every_determining_field():
    spec = experiment_spec(
        algorithm="AdaBoost",
        params={"n_estimators": 100},
        dataset="heart",
        dataset_sha256="ab" * 32,
        protocol="p",
        fold=1,
        seed=2,
        profile="quick",
        noise_rate=0.05,
    )
    assert set(spec) == {
        "algorithm",
        "params",
        "dataset",
        "dataset_sha256",
        "protocol",
        "fold",
        "seed",
        "profile",
        "noise_rate",
    }
    with pytest.raises(ValueError, match="dataset_sha256"):
        experiment_spec(
            algorithm="A",
            params={},
            dataset="d",
            dataset_sha256="",
            protocol="p",
            fold=0,
            seed=0,
            profile="quick",
        )


def test_put_get_roundtrip_and_layout(tmp_path):
    store = ResultStore(tmp_path / "store")
    assert not store.has(SPEC) and len(store) == 0
    record = store.put(
        SPEC,
        {"test_error": np.float64(0.25), "curve": np.array([1.0, 0.5]), "rounds": np.int64(40)},
        elapsed=1.25,
    )
    key = cell_key(SPEC)
    path = tmp_path / "store" / key[:2] / f"{key}.json"
    assert path.is_file() and store.record_path(SPEC) == path
    on_disk = json.loads(path.read_text())
    assert on_disk == record
    assert on_disk["metrics"] == {"test_error": 0.25, "curve": [1.0, 0.5], "rounds": 40}
    assert on_disk["spec"] == json.loads(canonical_json(SPEC))
    assert on_disk["elapsed_seconds"] == 1.25
    assert on_disk["version"] == marginboost.__version__
    assert on_disk["created"].endswith("+00:00")
    assert store.has(SPEC) and SPEC in store and len(store) == 1
    assert store.get(SPEC) == record
    assert [r["key"] for r in store] == [key]
    assert not list((tmp_path / "store" / key[:2]).glob(".tmp-*")), "temporary file left behind"


def test_records_say_what_computed_them_and_older_records_still_read(tmp_path):
    import platform

    import numba
    import scipy

    from marginboost.experiments import computing_environment, source_fingerprint

    store = ResultStore(tmp_path / "store")
    record = store.put(SPEC, {"test_error": 0.25}, elapsed=1.0)
    environment = record["environment"]
    assert environment == computing_environment()
    assert environment["numpy"] == np.__version__ and environment["scipy"] == scipy.__version__
    assert environment["numba"] == numba.__version__
    assert environment["python"] == platform.python_version()
    assert environment["source"] == source_fingerprint()[:12]
    assert len(source_fingerprint()) == 64 and int(source_fingerprint(), 16) >= 0
    # the environment is not part of the checksum: a record written before it existed reads
    path = store.record_path(SPEC)
    older = json.loads(path.read_text())
    del older["environment"]
    path.write_text(json.dumps(older))
    assert ResultStore(tmp_path / "store").get(SPEC)["metrics"] == {"test_error": 0.25}


def test_store_is_append_only(tmp_path):
    store = ResultStore(tmp_path)
    first = store.put(SPEC, {"test_error": 0.25, "missing": float("nan")}, elapsed=1.0)
    before = store.record_path(SPEC).read_bytes()
    again = store.put(SPEC, {"test_error": 0.25, "missing": float("nan")}, elapsed=9.0)
    # same payload: no-op, the original record (first elapsed time) is kept
    assert again["elapsed_seconds"] == first["elapsed_seconds"] == 1.0
    assert again["created"] == first["created"]
    assert store.record_path(SPEC).read_bytes() == before
    with pytest.raises(RecordConflictError, match="append-only.*0.25.*0.3"):
        store.put(SPEC, {"test_error": 0.3, "missing": float("nan")}, elapsed=1.0)
    assert store.record_path(SPEC).read_bytes() == before


def test_get_missing_and_bad_arguments(tmp_path):
    store = ResultStore(tmp_path)
    with pytest.raises(KeyError, match="no record"):
        store.get(SPEC)
    with pytest.raises(TypeError, match="metrics must be a mapping"):
        store.put(SPEC, [0.1], elapsed=1.0)
    with pytest.raises(ValueError, match="elapsed"):
        store.put(SPEC, {"a": 1}, elapsed=-1.0)
    (tmp_path / "file").write_text("x")
    with pytest.raises(NotADirectoryError):
        ResultStore(tmp_path / "file")


def test_corrupt_record_names_the_file(tmp_path):
    store = ResultStore(tmp_path)
    store.put(SPEC, {"a": 1}, elapsed=0.5)
    path = store.record_path(SPEC)
    path.write_text('{"key": "trunc')
    with pytest.raises(CorruptRecordError, match=str(path.name)):
        store.get(SPEC)
    with pytest.raises(CorruptRecordError, match="not valid JSON"):
        list(store)
    path.write_text(json.dumps({"key": path.stem}))
    with pytest.raises(CorruptRecordError, match="lacks some of the fields"):
        store.get(SPEC)


def test_record_under_wrong_name_is_detected(tmp_path):
    store = ResultStore(tmp_path)
    record = store.put(SPEC, {"a": 1}, elapsed=0.5)
    other = {**SPEC, "seed": 99}
    wrong = store.record_path(other)
    wrong.parent.mkdir(parents=True, exist_ok=True)
    wrong.write_text(json.dumps(record))
    with pytest.raises(CorruptRecordError, match="does not match its file name"):
        store.get(other)


def test_temporary_and_foreign_files_are_not_records(tmp_path):
    store = ResultStore(tmp_path)
    store.put(SPEC, {"a": 1}, elapsed=0.5)
    sub = store.record_path(SPEC).parent
    (sub / ".tmp-abc.part").write_text('{"half": ')
    (sub / "notes.json").write_text("{}")
    (tmp_path / "README.txt").write_text("results")
    assert len(store) == 1
    assert [r["metrics"] for r in store] == [{"a": 1}]


def test_to_frame(tmp_path):
    store = ResultStore(tmp_path)
    assert list(store.to_frame().columns) == ["key", "elapsed_seconds", "version", "created"]
    for seed in (1, 2, 3):
        store.put({**SPEC, "seed": seed}, {"test_error": seed / 10}, elapsed=seed)
    frame = store.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) == 3
    assert {
        "key",
        "spec.seed",
        "spec.params.n_estimators",
        "metrics.test_error",
        "elapsed_seconds",
        "version",
    } <= set(frame.columns)
    by_seed = frame.set_index("spec.seed")
    assert by_seed.loc[2, "metrics.test_error"] == pytest.approx(0.2)
    assert by_seed.loc[3, "elapsed_seconds"] == 3.0


def test_an_edited_number_fails_the_records_checksum(tmp_path):
    import json

    store = ResultStore(tmp_path / "store")
    store.put({"x": 1}, {"test_error": 0.25}, elapsed=1.0)
    path = store.record_path({"x": 1})
    record = json.loads(path.read_text())
    assert record["checksum"]
    record["metrics"]["test_error"] = 0.20  # a hand edit of the evidence
    path.write_text(json.dumps(record))
    with pytest.raises(CorruptRecordError, match="fails its checksum"):
        store.get({"x": 1})


def test_every_committed_record_carries_a_valid_checksum():
    import json
    from pathlib import Path

    from marginboost.experiments.store import record_checksum

    root = Path(__file__).resolve().parents[1] / "data" / "results"
    paths = sorted(root.glob("*/store-*/*/*.json"))
    assert paths
    for path in paths:
        record = json.loads(path.read_text())
        assert record.get("checksum") == record_checksum(record), path


@pytest.mark.parametrize("alteration", ["delete", "rename"])
def test_a_record_without_its_checksum_is_refused(tmp_path, alteration):
    import json

    store = ResultStore(tmp_path / "store")
    store.put({"x": 1}, {"test_error": 0.25}, elapsed=1.0)
    path = store.record_path({"x": 1})
    record = json.loads(path.read_text())
    checksum = record.pop("checksum")
    if alteration == "rename":
        record["check_sum"] = checksum
    record["metrics"]["test_error"] = 0.20  # and a number edited behind it
    path.write_text(json.dumps(record))
    with pytest.raises(CorruptRecordError, match="no checksum field.*delete it to recompute"):
        store.get({"x": 1})


def test_fields_outside_the_checksum_never_reach_a_grid(tmp_path):
    """created, environment, elapsed_seconds and version describe a run; editing them changes
    nothing a grid hands its caller (the metrics alone)."""
    import json

    def cell(spec):
        return {"test_error": 0.25, "seconds": 1.5}

    store = ResultStore(tmp_path / "store")
    spec = {"x": 1}
    first = run_grid(cell, [spec], store=store, progress=False)
    path = store.record_path(spec)
    record = json.loads(path.read_text())
    record.update(created="1999-01-01T00:00:00+00:00", elapsed_seconds=-5.0, version="0.0")
    record["environment"] = {"numpy": "edited"}
    path.write_text(json.dumps(record))
    assert run_grid(cell, [spec], store=ResultStore(tmp_path / "store"), progress=False) == first


def test_runs_that_differ_only_in_their_timings_do_not_conflict(tmp_path):
    store = ResultStore(tmp_path)
    first = store.put(SPEC, {"test_error": 0.25, "seconds": 1.0, "fits": [{"seconds": 2.0}]}, 1.0)
    again = store.put(SPEC, {"test_error": 0.25, "seconds": 7.0, "fits": [{"seconds": 3.0}]}, 7.0)
    assert again == first  # the first record stays
    with pytest.raises(RecordConflictError):
        store.put(SPEC, {"test_error": 0.3, "seconds": 1.0, "fits": [{"seconds": 2.0}]}, 1.0)


#: Fields that describe a run and never decide a result (the store's documented exception):
#: an alteration of them may be read, but never changes what a grid hands its caller.
_DESCRIPTIVE = ("created", "elapsed_seconds", "environment", "version")


def _field_paths(node, prefix=()):
    """Every field of a record, nested ones included, as a tuple path of keys and indices."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in items:
        yield (*prefix, key)
        if isinstance(value, dict | list) and value:
            yield from _field_paths(value, (*prefix, key))


def _alter(record, path, alteration):
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if alteration == "edit":
        value = parent[last]
        if isinstance(value, bool):
            parent[last] = not value
        elif isinstance(value, int | float):
            parent[last] = value + 1
        elif isinstance(value, str):
            parent[last] = value + "x"
        elif isinstance(value, list):
            parent[last] = [*value, 0]
        else:
            parent[last] = {**value, "added": 0}
    elif isinstance(parent, list):  # a list entry has no name: delete or rename = drop it
        del parent[last]
    elif alteration == "delete":
        del parent[last]
    else:  # rename
        parent[f"{last}_renamed"] = parent.pop(last)


def _fault_record(tmp_path):
    def cell(spec):
        return {
            "test_error": 0.25,
            "converged": True,
            "stop_reason": "tol",
            "curve": [0.5, 0.25],
            "fits": [{"n_rounds": 3, "seconds": 0.5}],
        }

    spec = {"algorithm": "AdaBoost", "params": {"n_estimators": 3, "tol": 1e-6}, "seed": 1}
    store = ResultStore(tmp_path / "store")
    first = run_grid(cell, [spec], store=store, progress=False)
    return cell, spec, store.record_path(spec), first


def test_every_field_of_a_record_edited_deleted_or_renamed_is_refused_or_harmless(tmp_path):
    """The store fault matrix: each field of a real record, at every depth, is edited, deleted
    and renamed in turn.  Every alteration of what a record asserts (key, spec, metrics,
    checksum) is refused with CorruptRecordError naming the file; an alteration of a field
    that only describes the run is read, and the grid still returns the original metrics."""
    cell, spec, path, first = _fault_record(tmp_path)
    original = path.read_text()
    paths = list(_field_paths(json.loads(original)))
    assert {("spec", "params", "tol"), ("metrics", "fits", 0, "seconds")} <= set(paths)
    refused, harmless = 0, 0
    for field in paths:
        for alteration in ("edit", "delete", "rename"):
            record = json.loads(original)
            _alter(record, field, alteration)
            path.write_text(json.dumps(record))
            store = ResultStore(tmp_path / "store")
            try:
                got = run_grid(cell, [spec], store=store, progress=False)
            except CorruptRecordError as exc:
                assert path.name in str(exc) and "delete it" in str(exc), (field, alteration)
                refused += 1
                continue
            # read, so it must be a descriptive field (or inside one); of those only the
            # environment may be missing (records written before it was recorded)
            assert field[0] in _DESCRIPTIVE and not (
                alteration != "edit" and len(field) == 1 and field[0] != "environment"
            ), f"{alteration} of {field} was read silently"
            assert got == first, (field, alteration)
            harmless += 1
    path.write_text(original)
    assert run_grid(cell, [spec], store=ResultStore(tmp_path / "store"), progress=False) == first
    assert refused > 3 * 20 and harmless > 0


def test_nothing_the_project_reads_back_is_unpickled():
    """Results, checkpoints and caches are data (JSON, npz without pickles): no file the
    project or its benchmarks read back can run code."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    pattern = re.compile(r"pickle\.loads?\(|allow_pickle\s*=\s*True|joblib\.load\(|dill\.load")
    sources = sorted((root / "src").rglob("*.py")) + sorted((root / "benchmarks").rglob("*.py"))
    assert len(sources) > 50
    offenders = [
        f"{p.relative_to(root)}:{i}"
        for p in sources
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []
