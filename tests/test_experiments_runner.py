"""Tests of the grid runner: executors, store reuse, failures, and a kill-and-resume run."""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from marginboost.experiments import CellError, ResultStore, run_grid
from marginboost.experiments.store import _KEY_PATTERN

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _grid_cells import fails_on_three, noisy_square, resumed_cell, slow_cell

HERE = Path(__file__).resolve().parent
# later cells sleep less, so parallel executors finish them out of order
CELLS = [{"cell": i, "seed": 10 + i, "sleep": 0.02 * (5 - i)} for i in range(6)]


def expected(cell: dict) -> dict:
    rng = np.random.default_rng(cell["seed"])
    return {
        "square": cell["cell"] ** 2,
        "draw": float(rng.normal()),
        "pair": [cell["cell"], 0.5],
        "curve": [0.0, 0.5, 1.0],
        "count": cell["cell"],
    }


def calls(log: Path) -> list[int]:
    return [int(line) for line in log.read_text().split()] if log.exists() else []


def test_serial_results_in_cell_order_and_stored(tmp_path):
    store = ResultStore(tmp_path / "store")
    log = tmp_path / "calls.log"
    cells = CELLS[::-1]
    results = run_grid(
        functools.partial(noisy_square, log_path=str(log)), cells, store=store, progress=False
    )
    assert results == [expected(c) for c in cells]
    assert len(store) == len(cells)
    for cell, result in zip(cells, results):
        record = store.get(cell)
        assert record["metrics"] == result
        assert record["elapsed_seconds"] >= cell["sleep"]
    # a rerun loads everything from the store and calls nothing
    log.unlink()
    again = run_grid(
        functools.partial(noisy_square, log_path=str(log)), cells, store=store, progress=False
    )
    assert again == results and calls(log) == []


def test_a_resumed_cell_counts_the_seconds_of_its_earlier_run(tmp_path):
    store = ResultStore(tmp_path / "store")
    cells = [{"cell": 1, "before": 120.0}, {"cell": 2, "before": 0.0}]
    run_grid(resumed_cell, cells, store=store, progress=False)
    assert 120.0 <= store.get(cells[0])["elapsed_seconds"] < 130.0
    assert store.get(cells[1])["elapsed_seconds"] < 10.0


def test_only_missing_cells_are_computed(tmp_path):
    store = ResultStore(tmp_path)
    log = tmp_path / "calls.log"
    func = functools.partial(noisy_square, log_path=str(log))
    run_grid(func, CELLS[:2], store=store, progress=False)
    assert sorted(calls(log)) == [0, 1]
    log.unlink()
    results = run_grid(func, CELLS, store=store, executor="processes", n_jobs=2, progress=False)
    assert sorted(calls(log)) == [2, 3, 4, 5]
    assert results == [expected(c) for c in CELLS]


def test_duplicate_cells_are_computed_once(tmp_path):
    log = tmp_path / "calls.log"
    cells = [CELLS[0], CELLS[1], dict(CELLS[0])]
    results = run_grid(functools.partial(noisy_square, log_path=str(log)), cells, progress=False)
    assert sorted(calls(log)) == [0, 1]
    assert results[0] == results[2] == expected(CELLS[0])


def test_three_executors_give_identical_results(tmp_path):
    serial = run_grid(noisy_square, CELLS, progress=False)
    processes = run_grid(noisy_square, CELLS, executor="processes", n_jobs=2, progress=False)
    dask = run_grid(noisy_square, CELLS, executor="dask", n_jobs=2, progress=False)
    assert serial == [expected(c) for c in CELLS]
    assert processes == serial
    assert dask == serial
    assert json.dumps(dask) == json.dumps(serial)  # same types and key order too


def test_dask_with_existing_scheduler_fills_the_store(tmp_path):
    distributed = pytest.importorskip("distributed")
    store = ResultStore(tmp_path / "store")
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        results = run_grid(
            noisy_square,
            CELLS,
            store=store,
            executor="dask",
            scheduler=cluster.scheduler_address,
            progress=False,
        )
    assert results == [expected(c) for c in CELLS]
    assert len(store) == len(CELLS)
    assert all(store.get(c)["metrics"] == r for c, r in zip(CELLS, results))


@pytest.mark.parametrize("executor", ["serial", "processes"])
def test_failing_cell_names_its_spec_and_keeps_finished_cells(tmp_path, executor):
    store = ResultStore(tmp_path / "store")
    cells = [{"cell": i} for i in range(3)] + [{"cell": 3, "tag": "bad"}]
    with pytest.raises(CellError, match=r'"cell":3,"tag":"bad".*ValueError: cell three') as info:
        run_grid(fails_on_three, cells, store=store, executor=executor, n_jobs=2, progress=False)
    assert isinstance(info.value.__cause__, ValueError)
    if executor == "serial":  # cells before the failure are all done and stored
        assert len(store) == 3
    assert all(store.get(c)["metrics"] == {"cell": c["cell"]} for c in cells[:3] if store.has(c))
    assert not store.has(cells[3])


def test_cell_must_return_a_dict():
    with pytest.raises(CellError, match="must return a dict"):
        run_grid(len, [{"cell": 0}], progress=False)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"executor": "threads"}, ValueError, "executor must be one of"),
        ({"n_jobs": 0}, ValueError, "n_jobs must be a positive integer"),
        ({"scheduler": "tcp://127.0.0.1:1"}, ValueError, "only used with executor='dask'"),
        ({"store": "results/"}, TypeError, "store must be a ResultStore"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        run_grid(noisy_square, CELLS, progress=False, **kwargs)


def test_bad_cells():
    with pytest.raises(TypeError, match="list of spec dicts"):
        run_grid(noisy_square, {"cell": 0}, progress=False)
    with pytest.raises(TypeError, match="cell 1 is not a spec dict"):
        run_grid(noisy_square, [CELLS[0], 5], progress=False)
    with pytest.raises(TypeError, match="callable"):
        run_grid("noisy_square", CELLS, progress=False)


def test_progress_bar(capsys):
    run_grid(noisy_square, CELLS[:2], progress=True, desc="squares")
    err = capsys.readouterr().err
    assert "squares" in err and "2/2" in err
    run_grid(noisy_square, CELLS[:2], progress=False, desc="squares")
    assert "squares" not in capsys.readouterr().err


def _record_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def _kill_grid_run(args, ready, what, timeout=60):
    """Start ``_kill_grid_script.py`` with ``args``, wait until ``ready()``, then SIGKILL it."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(HERE.parent / "src"), os.environ.get("PYTHONPATH", "")]),
    }
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "_kill_grid_script.py"), *map(str, args)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + timeout
    try:
        while not ready():
            if proc.poll() is not None:
                pytest.fail(f"grid process ended early: {proc.stderr.read().decode()}")
            if time.monotonic() > deadline:
                pytest.fail(f"{what} within {timeout} s")
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.parametrize("kill_after", [1, 3, 8])
def test_killed_run_resumes_with_only_missing_cells(tmp_path, kill_after):
    """``kill -9`` at several points of a grid (after its first, third and eighth record):
    the resumed run computes only the cells not stored, and the store ends complete."""
    store_path, log1, log2 = tmp_path / "store", tmp_path / "run1.log", tmp_path / "run2.log"
    n_cells, sleep = 12, 0.15
    store = ResultStore(store_path)
    _kill_grid_run(
        [store_path, log1, n_cells, sleep],
        lambda: len(store) >= kill_after,
        "grid process wrote no records",
    )

    # every file that looks like a record is complete, valid JSON; anything else is ignored
    done = len(store)
    assert kill_after <= done < n_cells, "the run must be killed mid-grid"
    record_files = [
        p for p in _record_files(store_path) if p.suffix == ".json" and _KEY_PATTERN.match(p.stem)
    ]
    assert len(record_files) == done
    for path in record_files:
        json.loads(path.read_text())
    # plant what a kill in mid-write leaves behind: it must never count as a record
    sub = record_files[0].parent
    (sub / ".tmp-killed.part").write_text('{"key": "' + "0" * 30)
    assert len(store) == done
    stored_cells = sorted(r["spec"]["cell"] for r in store)

    # resume: only the missing cells run, and the store ends complete
    cells = [{"cell": i, "seed": 100 + i} for i in range(n_cells)]
    results = run_grid(
        functools.partial(slow_cell, log_path=str(log2), sleep=0.0),
        cells,
        store=store,
        progress=False,
    )
    assert sorted(calls(log2)) == sorted(set(range(n_cells)) - set(stored_cells))
    assert len(store) == n_cells
    assert results == [{"value": 10 * i, "seed": 100 + i} for i in range(n_cells)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_worker_processes_die_with_a_killed_grid_run(tmp_path):
    """``kill -9`` of a ``--jobs 2`` run leaves no worker computing for nobody."""
    store_path, pid_dir = tmp_path / "store", tmp_path / "pids"
    pid_dir.mkdir()
    _kill_grid_run(
        [store_path, "", 40, 0.5, pid_dir],
        lambda: len(list(pid_dir.iterdir())) >= 2,
        "the two workers did not start",
        timeout=120,
    )
    workers = [int(p.name) for p in pid_dir.iterdir()]

    def alive(pid):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        # a zombie (dead, not yet reaped by init) counts as gone
        status = Path(f"/proc/{pid}/status")
        return status.exists() and "zombie" not in status.read_text()

    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)]


def test_fresh_and_stored_metrics_have_the_same_key_order(tmp_path):
    """A notebook printing a metrics dict must print the same whether its cells were just
    computed or loaded from the store (which writes sorted keys)."""

    def unordered(spec):
        return {"zeta": 1, "alpha": {"50": 2, "1100": 3}, "mid": [1, 2]}

    store = ResultStore(tmp_path / "store")
    fresh = run_grid(unordered, [{"cell": 1}], store=store, progress=False)
    loaded = run_grid(unordered, [{"cell": 1}], store=store, progress=False)
    assert list(fresh[0]) == list(loaded[0]) == ["alpha", "mid", "zeta"]
    assert list(fresh[0]["alpha"]) == list(loaded[0]["alpha"])
