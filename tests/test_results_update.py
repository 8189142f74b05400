"""Runs never write into the committed results; ``marginboost results update`` is the one way in.

Covers the layered result store (runs read the committed evidence, write elsewhere), the update
command's report (what changed and by how much), the per-profile executed notebooks, the
progress events of grids and the data commands' summaries.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from marginboost._paths import committed_results_dir, results_dir
from marginboost.cli import main
from marginboost.experiments import run_grid
from marginboost.experiments.store import RecordConflictError, ResultStore
from marginboost.experiments.update import describe_key_number_change, update_results
from marginboost.reporting import save_key_numbers

ROOT = Path(__file__).resolve().parents[1]


def _square(spec):
    return {"value": spec["x"] ** 2}


# -- where runs write -------------------------------------------------------------------------


def test_runs_write_under_build_not_into_the_committed_results(monkeypatch):
    monkeypatch.delenv("MARGINBOOST_RESULTS_DIR", raising=False)
    assert results_dir() == ROOT / "_build" / "results"
    assert committed_results_dir() == ROOT / "data" / "results"


def test_paper_store_reads_the_committed_evidence_and_writes_elsewhere(tmp_path, monkeypatch):
    from marginboost.experiments.grids import paper_store

    monkeypatch.setenv("MARGINBOOST_RESULTS_DIR", str(tmp_path))
    full = paper_store("shen_li", "full")
    assert full.path == tmp_path / "shen_li" / "store-full"
    assert [f.path for f in full.fallbacks] == [
        ROOT / "data" / "results" / "shen_li" / "store-full"
    ]
    committed = ResultStore(ROOT / "data" / "results" / "shen_li" / "store-full")
    assert len(committed) > 0 and len(full) == len(committed)
    record = next(iter(committed))
    assert full.has(record["spec"]) and full.get(record["spec"]) == record
    # the quick profile has no committed evidence to fall back on
    assert paper_store("shen_li", "quick").fallbacks == ()


# -- the layered store ------------------------------------------------------------------------


def test_store_with_fallback_reuses_its_records_and_writes_only_new_ones(tmp_path):
    evidence = ResultStore(tmp_path / "evidence")
    evidence.put({"x": 1}, {"value": 1}, elapsed=0.0)
    before = sorted(p.name for p in (tmp_path / "evidence").rglob("*.json"))
    store = ResultStore(tmp_path / "run", fallbacks=[tmp_path / "evidence"])
    assert store.has({"x": 1}) and store.get({"x": 1})["metrics"] == {"value": 1}
    # an equal put of a fallback's key is a no-op; a different one is the append-only error
    store.put({"x": 1}, {"value": 1}, elapsed=0.0)
    with pytest.raises(RecordConflictError):
        store.put({"x": 1}, {"value": 2}, elapsed=0.0)
    out = run_grid(_square, [{"x": 1}, {"x": 2}], store=store, progress=False)
    assert out == [{"value": 1}, {"value": 4}]
    assert sorted(p.name for p in (tmp_path / "evidence").rglob("*.json")) == before
    assert [r["spec"] for r in store.own_records()] == [{"x": 2}]
    assert len(store) == 2 and sorted(r["spec"]["x"] for r in store) == [1, 2]


# -- marginboost results update ---------------------------------------------------------------


def _layout(tmp_path):
    fresh, committed = tmp_path / "build", tmp_path / "data"
    save_key_numbers("p", "same", {"a": 1.0}, profile="full", root=committed)
    save_key_numbers("p", "same", {"a": 1.0}, profile="full", root=fresh)
    save_key_numbers(
        "p", "moved", {"a": 1.0, "b": [2.0, 3.0]}, profile="quick", rtol=1e-6, root=committed
    )
    save_key_numbers(
        "p", "moved", {"a": 1.0 + 1e-9, "b": [2.0, 3.5]}, profile="quick", rtol=1e-6, root=fresh
    )
    save_key_numbers("p", "new", {"a": 5.0}, profile="full", root=fresh)
    ResultStore(committed / "p" / "store-full").put({"x": 1}, {"value": 1}, elapsed=0.0)
    run = ResultStore(fresh / "p" / "store-full", fallbacks=[committed / "p" / "store-full"])
    run_grid(_square, [{"x": 1}, {"x": 3}], store=run, progress=False)
    return fresh, committed


def test_describe_key_number_change_says_how_much_and_against_which_tolerance():
    old = {
        "tolerance": {"rtol": 1e-6, "atol": 0},
        "tolerances": {},
        "numbers": {"a": 1.0, "b": [2.0, 3.0], "c": 7},
    }
    assert describe_key_number_change(old, json.loads(json.dumps(old))) is None
    within = {**old, "numbers": {"a": 1.0 + 1e-9, "b": [2.0, 3.0], "c": 7}}
    line = describe_key_number_change(old, within)
    assert "1 of 3 numbers changed" in line and "all within the committed tolerances" in line
    beyond = {**old, "numbers": {"a": 1.0, "b": [2.0, 3.5], "c": 7, "d": 1}}
    line = describe_key_number_change(old, beyond)
    assert "largest difference 0.5 (relative 0.143) in b" in line
    assert "beyond the committed tolerances: b" in line and "new numbers: d" in line


def test_update_reports_and_copies_what_runs_wrote(tmp_path):
    fresh, committed = _layout(tmp_path)
    dry = update_results(source=fresh, target=committed, dry_run=True, pages=False)
    text = "\n".join(dry.lines)
    assert "changed  data/results/p/moved.quick.json: 2 of 2 numbers changed" in text
    assert "beyond the committed tolerances: b" in text
    assert "new      data/results/p/new.full.json" in text
    assert "added    1 grid records to data/results/p/store-full" in text
    assert dry.unchanged == 1 and dry.new_records == 1
    assert not (committed / "p" / "new.full.json").exists()  # a dry run writes nothing
    assert len(ResultStore(committed / "p" / "store-full")) == 1

    done = update_results(source=fresh, target=committed, pages=False)
    assert done.changed and len(done.changed_files) == 2
    assert json.loads((committed / "p" / "moved.quick.json").read_text())["numbers"]["b"] == [
        2.0,
        3.5,
    ]
    assert len(ResultStore(committed / "p" / "store-full")) == 2
    again = update_results(source=fresh, target=committed, pages=False)
    assert not again.changed and again.unchanged == 3


def test_update_restricted_to_a_profile_and_refusing_a_conflict(tmp_path):
    fresh, committed = _layout(tmp_path)
    only_quick = update_results(source=fresh, target=committed, profile="quick", pages=False)
    assert [p.name for p in only_quick.changed_files] == ["moved.quick.json"]
    assert only_quick.new_records == 0
    ResultStore(committed / "p" / "store-full").put({"x": 3}, {"value": 10}, elapsed=0.0)
    with pytest.raises(RecordConflictError, match="append-only"):
        update_results(source=fresh, target=committed, pages=False)


def test_update_refuses_the_committed_folder_as_its_own_source():
    with pytest.raises(ValueError, match="same folder"):
        update_results(source=ROOT / "data" / "results", target=ROOT / "data" / "results")


def test_results_update_dry_run_on_the_checkout_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MARGINBOOST_RESULTS_DIR", str(tmp_path / "nothing-here"))
    assert main(["results", "update", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "no results of runs" in out and "would change 0 files" in out


# -- progress of grids ------------------------------------------------------------------------


def test_grid_progress_counts_stored_and_computed_cells(tmp_path):
    from marginboost._progress import PROGRESS_ENV, GridProgress

    store = ResultStore(tmp_path / "store")
    store.put({"x": 1}, {"value": 1}, elapsed=0.0)
    with GridProgress("t", bar=False, interval=0.01) as progress:
        run_grid(_square, [{"x": 1}, {"x": 2}, {"x": 3}], store=store, progress=False)
    assert (progress.total, progress.stored, progress.computed) == (3, 1, 2)
    assert progress.summary() == "grid cells: 1 from the store, 2 computed"
    import os

    assert PROGRESS_ENV not in os.environ


def test_notebook_run_line_names_profile_seconds_and_cells(tmp_path):
    from marginboost._repo.notebooks import NotebookRun, executed_dir

    run = NotebookRun("p-item", "full", tmp_path, 12.34, 40, 2, 42)
    assert run.line() == "p-item (full): 12.3 s, grid cells: 40 from the store, 2 computed"
    assert (
        NotebookRun("p-x", "quick", tmp_path, 1.0, 0, 0, 0).line() == "p-x (quick): 1.0 s, no grid"
    )
    assert executed_dir("quick", ROOT) != executed_dir("full", ROOT)
    with pytest.raises(ValueError, match="unknown profile"):
        executed_dir("medium", ROOT)


def test_executed_pages_say_which_profile_built_them(tmp_path):
    import nbformat

    from marginboost._repo.notebooks import PROFILE_NOTES, _mark_profile

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Title"), nbformat.v4.new_code_cell("1")]
    nb.metadata["papermill"] = {"parameters": {"profile": "full"}}
    nbformat.write(nb, tmp_path / "in.ipynb")
    _mark_profile(tmp_path / "in.ipynb", tmp_path / "out.ipynb")
    out = nbformat.read(tmp_path / "out.ipynb", as_version=4)
    assert [c.cell_type for c in out.cells] == ["markdown", "markdown", "code"]
    assert PROFILE_NOTES["full"] in out.cells[1].source


# -- data commands ----------------------------------------------------------------------------


def test_data_verify_without_mirror_or_downloads_prints_one_summary(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("MARGINBOOST_DATA_MIRROR", raising=False)
    monkeypatch.setenv("MARGINBOOST_CACHE_DIR", str(tmp_path))
    assert main(["data", "verify"]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3, lines
    assert "MARGINBOOST_DATA_MIRROR is not set" in lines[0]
    assert "marginboost data fetch" in lines[1]
    assert lines[2].startswith("0/") and "missing" in lines[2]


def test_data_fetch_expands_combined_datasets():
    from marginboost.data.fetch import files_of

    names = [e["name"] for e in files_of(["ida_banana_realisation1"])]
    assert names == ["ida_banana_train_data_1", "ida_banana_test_data_1"]
    assert [e["name"] for e in files_of(["vote1"])] == ["vote"]
    with pytest.raises(ValueError, match="did you mean"):
        files_of(["tic_tac_to"])


def test_data_fetch_names_file_url_and_remedy_when_offline(tmp_path, monkeypatch, capsys):
    import marginboost.data.fetch as fetch_module

    def offline(*args, **kwargs):
        raise ConnectionError("no network")

    monkeypatch.delenv("MARGINBOOST_DATA_MIRROR", raising=False)
    monkeypatch.setenv("MARGINBOOST_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(fetch_module, "_download", offline)
    assert main(["data", "fetch", "tic_tac_toe"]) == 2
    err = capsys.readouterr().err
    assert "pmlb/tic_tac_toe.tsv.gz" in err and "https://raw.githubusercontent.com/" in err
    assert "MARGINBOOST_DATA_MIRROR" in err


def test_data_fetch_from_the_mirror(capsys):
    import os

    mirror = os.environ.get("MARGINBOOST_DATA_MIRROR")
    if not mirror or not Path(mirror).is_dir():
        pytest.skip("MARGINBOOST_DATA_MIRROR does not point at the data mirror")
    assert main(["data", "fetch", "tic_tac_toe", "sonar"]) == 0
    out = capsys.readouterr().out
    assert "[1/2] pmlb/tic_tac_toe.tsv.gz: ok" in out and "2 files present and verified" in out


def test_update_keeps_committed_numbers_that_moved_only_within_tolerance(tmp_path):
    fresh, committed = tmp_path / "build", tmp_path / "data"
    save_key_numbers("p", "x", {"a": 1.0}, profile="quick", rtol=1e-6, root=committed)
    save_key_numbers("p", "x", {"a": 1.0 + 1e-12}, profile="quick", rtol=1e-6, root=fresh)
    kept = update_results(source=fresh, target=committed, pages=False)
    assert not kept.changed and kept.unchanged == 1
    assert any(line.startswith("kept     data/results/p/x.quick.json") for line in kept.lines)
    assert json.loads((committed / "p" / "x.quick.json").read_text())["numbers"]["a"] == 1.0
    exact = update_results(source=fresh, target=committed, pages=False, exact=True)
    assert exact.changed
    assert json.loads((committed / "p" / "x.quick.json").read_text())["numbers"]["a"] != 1.0


def test_a_damaged_file_in_the_cache_is_a_checksum_error_when_offline(tmp_path, monkeypatch):
    import marginboost.data.fetch as fetch_module
    from marginboost.data import ChecksumError, get_entry

    def offline(*args, **kwargs):
        raise ConnectionError("no network")

    monkeypatch.delenv("MARGINBOOST_DATA_MIRROR", raising=False)
    monkeypatch.setenv("MARGINBOOST_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(fetch_module, "_download", offline)
    entry = get_entry("tic_tac_toe")
    damaged = tmp_path / entry["file"]
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(b"not the data")
    with pytest.raises(ChecksumError, match="checksum mismatch") as info:
        fetch_module.locate("tic_tac_toe")
    assert info.value.path == str(damaged)
