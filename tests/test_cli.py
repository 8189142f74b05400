"""The ``marginboost`` command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from marginboost.cli import main

ROOT = Path(__file__).resolve().parents[1]
MIRROR = os.environ.get("MARGINBOOST_DATA_MIRROR")
needs_mirror = pytest.mark.skipif(
    not MIRROR or not Path(MIRROR).is_dir(),
    reason="MARGINBOOST_DATA_MIRROR does not point at the data mirror",
)


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert "marginboost 0." in capsys.readouterr().out


def test_console_script_is_installed():
    run = subprocess.run(
        [sys.executable, "-m", "marginboost.cli", "--help"], capture_output=True, text=True
    )
    assert run.returncode == 0 and "reproduce" in run.stdout


def test_data_list_prints_the_registry(capsys):
    assert main(["data", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("tic_tac_toe", "svmguide1", "banana"):
        assert name in out


@needs_mirror
def test_data_verify_passes_on_the_mirror(capsys):
    assert main(["data", "verify", "--mirror", MIRROR]) == 0


def test_data_verify_fails_on_a_broken_mirror(tmp_path, capsys):
    (tmp_path / "pmlb").mkdir()
    (tmp_path / "pmlb" / "tic_tac_toe.tsv.gz").write_bytes(b"not the data")
    assert main(["data", "verify", "--mirror", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "tic_tac_toe" in out


def test_reproduce_names_unknown_papers_and_items(capsys):
    assert main(["reproduce", "nosuchpaper"]) == 2
    assert "unknown paper 'nosuchpaper'" in capsys.readouterr().err
    assert main(["reproduce", "shen_li", "table99"]) == 2
    err = capsys.readouterr().err
    assert "no item 'table99'" in err and "figure2" in err


def test_reproduce_runs_one_notebook(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MARGINBOOST_RESULTS_DIR", str(tmp_path))
    assert main(["reproduce", "shen_li", "figure2", "--profile", "quick"]) == 0
    out = capsys.readouterr().out
    assert "executed notebook" in out
    assert (tmp_path / "shen_li" / "figure2.quick.json").exists()


def test_scoreboard_lists_every_claim(capsys):
    from marginboost.experiments import scoreboard

    assert main(["scoreboard"]) == 0
    out = capsys.readouterr().out
    board = scoreboard()
    for paper in board["paper"].unique():
        assert paper in out
    assert len(board) == board[["paper", "claim"]].drop_duplicates().shape[0] > 0


def test_scoreboard_writes_the_page(tmp_path):
    target = tmp_path / "scoreboard.md"
    assert main(["scoreboard", "--output", str(target)]) == 0
    assert target.read_text().startswith("# Scoreboard")


def test_bench_output_dir_leaves_the_results_and_the_page_alone(tmp_path, monkeypatch, capsys):
    import marginboost._paths as paths

    root = tmp_path / "checkout"
    (root / "benchmarks").mkdir(parents=True)
    (root / "benchmarks" / "bench_fake.py").write_text(
        "import json, sys\n"
        "out = sys.argv[sys.argv.index('--output') + 1]\n"
        "json.dump({'quick': '--quick' in sys.argv}, open(out, 'w'))\n"
    )
    monkeypatch.setattr(paths, "require_project_root", lambda: root)
    out_dir = tmp_path / "smoke"
    assert main(["bench", "--quick", "--output-dir", str(out_dir)]) == 0
    assert (out_dir / "fake.json").read_text() == '{"quick": true}'
    assert not (root / "book").exists()  # the performance page is not regenerated
    assert "benchmarks/results and the performance page unchanged" in capsys.readouterr().out
    assert main(["bench", "nosuch", "--output-dir", str(out_dir)]) == 2
    assert "unknown benchmark 'nosuch'" in capsys.readouterr().err


def test_reproduce_paper_protocol_is_dmcboosts_tables_2_to_4_on_the_full_profile(capsys):
    assert main(["reproduce", "dmcboost", "table2", "--protocol", "paper"]) == 2
    assert "--protocol paper needs --profile full" in capsys.readouterr().err
    args = ["reproduce", "anyboost", "--profile", "full", "--protocol", "paper"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "applies to dmcboost-table2, dmcboost-table3, dmcboost-table4 only" in err
    args = ["reproduce", "dmcboost", "figure3", "--profile", "full", "--protocol", "paper"]
    assert main(args) == 2
    assert "applies to" in capsys.readouterr().err


def test_cells_names_unknown_papers_tables_data_sets_and_methods(capsys):
    assert main(["cells", "anyboost"]) == 2
    assert "only dmcboost has a paper's protocol" in capsys.readouterr().err
    assert main(["cells", "dmcboost", "table5"]) == 2
    assert "unknown table 'table5'; the tables are table2, table3, table4" in (
        capsys.readouterr().err
    )
    assert main(["cells", "dmcboost", "--dataset", "Iris"]) == 2
    err = capsys.readouterr().err
    assert "unknown data set 'Iris'" in err and "Waveform" in err
    assert main(["cells", "dmcboost", "--method", "Samme"]) == 2
    assert "unknown method 'Samme'; the methods are AdaBoost.M1" in capsys.readouterr().err


@needs_mirror
def test_cells_selects_the_paper_protocols_cells_and_runs_only_the_missing_ones(
    tmp_path, monkeypatch, capsys
):
    """Table 3 on Waveform is 5 rotations x 4 depths x 5 methods; Table 2 on Car is complete in
    the committed store, so nothing runs; a selection with missing cells is estimated and
    handed to the grid runner (here a stand-in that only records them)."""
    from marginboost.experiments import grids
    from marginboost.papers.dmcboost import protocol as P

    waveform = P.select_paper_cells(["table3"], ["Waveform"])
    assert len(waveform) == 100
    assert {c["algorithm"] for c in waveform} == set(P.METHODS)
    assert len(P.select_paper_cells(["table3"], ["Waveform"], ["DMCBoost"])) == 20
    # Tables 2-4 share cells: Table 2's are Table 3's depth-3 cells
    both = P.select_paper_cells(["table2", "table3"], ["Car"])
    assert len(both) == len({repr(sorted(c.items())) for c in both}) == 100

    monkeypatch.setenv("MARGINBOOST_RESULTS_DIR", str(tmp_path))
    ran = []
    monkeypatch.setattr(grids, "run_paper_grid", lambda paper, f, cells, **kw: ran.extend(cells))
    assert main(["cells", "dmcboost", "table2", "--dataset", "Car"]) == 0
    assert "20 cells of the paper's protocol chosen, 20 in the store, 0 to compute" in (
        capsys.readouterr().out
    )
    assert ran == []

    store = grids.paper_store("dmcboost", "full")
    monkeypatch.setattr(type(store), "has", lambda self, spec: spec["fold"] != 4)
    args = ["cells", "dmcboost", "table3", "--dataset", "Car", "--method", "SAMME"]
    assert main([*args, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "20 cells of the paper's protocol chosen, 16 in the store, 4 to compute" in out
    assert "estimated CPU h" in out and ran == []
    assert main(args) == 0
    assert [c["fold"] for c in ran] == [4, 4, 4, 4]
    assert "computed 4 cells" in capsys.readouterr().out

    # Table 4: the DMCBoost cells whose chosen n' ended on the cap run again, raised
    capped = P.select_paper_cells(["table4"], ["Car"], ["DMCBoost"])[:2]
    pairs = [(c, P.with_raised_cap(c)) for c in capped]
    monkeypatch.setattr(
        P,
        "capped_and_raised",
        lambda profile, protocol, tables: pairs if "table4" in tables else [],
    )
    monkeypatch.setattr(type(store), "has", lambda self, spec: spec is not pairs[1][1])
    monkeypatch.setattr(type(store), "get", lambda self, spec: {"elapsed_seconds": 900.0})
    ran.clear()
    args = ["cells", "dmcboost", "table4", "--dataset", "Car", "--method", "DMCBoost"]
    assert main([*args, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "2 Table 4 DMCBoost cells chose an n' whose run ended on the safety cap" in out
    assert "1 in the store, 1 to compute (at most about 1.0 CPU hours" in out and ran == []
    assert main(args) == 0
    assert ran == [pairs[1][1]] and ran[0]["params"]["max_rounds"] == 4 * 5000
    assert "computed 1 cells" in capsys.readouterr().out
    # another table, data set or method than DMCBoost's Table 4 runs no reruns
    assert main(["cells", "dmcboost", "table4", "--dataset", "Car", "--method", "SAMME"]) == 0
    assert main(["cells", "dmcboost", "table4", "--dataset", "Nursery"]) == 0
    assert ran == [pairs[1][1]]

    # Tables 2 and 3 share their depth-3 cells: a capped one is counted for each, rerun once
    shared = [(c, P.with_raised_cap(c)) for c in P.select_paper_cells(["table2"], ["Car"])[:1]]
    monkeypatch.setattr(
        P,
        "capped_and_raised",
        lambda profile, protocol, tables: [] if "table4" in tables else shared,
    )
    monkeypatch.setattr(type(store), "has", lambda self, spec: spec["params"]["max_rounds"] == 5000)
    ran.clear()
    args = ["cells", "dmcboost", "--dataset", "Car", "--method", "DMCBoost"]
    assert main([*args, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "1 Table 2 DMCBoost cells chose an n' whose run ended on the safety cap" in out
    assert "1 Table 3 DMCBoost cells chose" in out and "0 in the store, 1 to compute" in out
    assert main(args) == 0
    assert ran == [shared[0][1]]


def test_data_verify_names_a_mirror_folder_that_does_not_exist(tmp_path, capsys):
    assert main(["data", "verify", "--mirror", str(tmp_path / "absent")]) == 1
    out = capsys.readouterr().out
    assert "does not exist" in out and "unset MARGINBOOST_DATA_MIRROR" in out


@pytest.mark.parametrize("jobs", ["0", "-2", "two"])
def test_jobs_below_one_is_refused_before_any_work(jobs, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["reproduce", "dmcboost", "--jobs", jobs])
    assert exit_info.value.code == 2
    assert "--jobs: must be a whole number >= 1" in capsys.readouterr().err


def test_results_update_names_an_unknown_paper(capsys):
    assert main(["results", "update", "nopaper", "--dry-run"]) == 2
    assert "unknown paper 'nopaper'" in capsys.readouterr().err


def test_compile_fits_every_public_estimator_and_fills_the_cache(capsys):
    import marginboost

    assert main(["compile"]) == 0
    n = sum(name in marginboost._ESTIMATORS for name in marginboost.__all__)
    out = capsys.readouterr().out
    assert f"{n} estimators fitted in" in out and "cache:" in out


def test_the_first_compiling_fit_says_so_once(monkeypatch, capsys):
    """With the kernels not cached, the first fit of a process says that it compiles them, once;
    with them cached, or when it cannot be told, nothing is printed."""
    import numpy as np

    from marginboost import AdaBoost, _numba_cache

    X = np.random.default_rng(0).normal(size=(30, 3))
    y = (X[:, 0] > 0).astype(int)
    for cached, printed in [(False, True), (True, False), (None, False)]:
        monkeypatch.setattr(_numba_cache, "_ANNOUNCED", False)
        monkeypatch.setattr(_numba_cache, "kernels_cached", lambda cached=cached: cached)
        AdaBoost(n_estimators=2).fit(X, y)
        AdaBoost(n_estimators=2).fit(X, y)
        err = capsys.readouterr().err
        assert err.count("compiling its numba kernels") == (1 if printed else 0), cached
    monkeypatch.setattr(_numba_cache, "_ANNOUNCED", False)
    monkeypatch.setattr(_numba_cache, "kernels_cached", lambda: False)
    monkeypatch.setenv("MARGINBOOST_QUIET", "1")
    AdaBoost(n_estimators=2).fit(X, y)
    assert capsys.readouterr().err == ""


def test_the_cache_check_answers_for_the_tree_kernels():
    from marginboost._numba_cache import _cache_index_paths, kernels_cached

    paths = _cache_index_paths()
    assert len(paths) > 10 and all(p.endswith(".nbi") for p in paths)
    assert kernels_cached() is any(__import__("os").path.exists(p) for p in paths)
    # every kernel module of the weak learners' trees is listed, each kernel once
    weak = Path(__file__).resolve().parents[1] / "src" / "marginboost" / "weak"
    listed = {Path(p).name.split(".")[0] for p in paths}
    modules = {m.stem for m in weak.glob("_*_kernels.py")}
    assert modules == listed and len(modules) >= 5
    assert len(set(paths)) == len(paths)
