"""Cell functions used by the grid-runner tests (top-level, so worker processes can import them)."""

from __future__ import annotations

import os
import time

import numpy as np


def log_call(log_path: str | None, spec: dict) -> None:
    """Append the cell's id to a log file (one line per call, safe across processes)."""
    if log_path:
        with open(log_path, "a", encoding="utf-8") as fh:
            fh.write(f"{spec['cell']}\n")
            fh.flush()
            os.fsync(fh.fileno())


def noisy_square(spec: dict, log_path: str | None = None) -> dict:
    """Deterministic metrics of mixed types; later cells finish first (reversed sleeps)."""
    log_call(log_path, spec)
    time.sleep(spec.get("sleep", 0.0))
    rng = np.random.default_rng(spec["seed"])
    return {
        "square": spec["cell"] ** 2,
        "draw": float(rng.normal()),
        "pair": (spec["cell"], 0.5),
        "curve": np.linspace(0.0, 1.0, 3),
        "count": np.int64(spec["cell"]),
    }


def fails_on_three(spec: dict, log_path: str | None = None) -> dict:
    """Raise a ValueError for cell 3, succeed elsewhere."""
    log_call(log_path, spec)
    if spec["cell"] == 3:
        raise ValueError("cell three is broken")
    return {"cell": spec["cell"]}


def slow_cell(spec: dict, log_path: str | None = None, sleep: float = 0.0) -> dict:
    """Sleep, then return a metric; used by the kill test."""
    log_call(log_path, spec)
    time.sleep(sleep)
    return {"value": spec["cell"] * 10, "seed": spec["seed"]}


def pid_cell(spec: dict, pid_dir: str, sleep: float = 0.0) -> dict:
    """Record the worker's process id (one file per process), then sleep: the kill test of
    worker processes."""
    with open(os.path.join(pid_dir, str(os.getpid())), "w", encoding="utf-8") as fh:
        fh.write("")
    time.sleep(sleep)
    return {"cell": spec["cell"]}


def resumed_cell(spec: dict) -> dict:
    """A cell that went on from a checkpoint of an earlier run that had spent ``spec['before']``
    seconds."""
    return {"value": spec["cell"], "resumed_seconds": spec["before"]}
