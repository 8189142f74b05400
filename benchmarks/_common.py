"""Helpers shared by the benchmark scripts: the machine facts stored with every result file,
writing it, the best-of-n timer and the timed cvxpy solve."""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path


def environment(**versions) -> dict:
    """Python, machine, core count and marginboost version, plus the given ``versions``."""
    import marginboost

    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "marginboost": marginboost.__version__,
        **versions,
    }


def sklearn_environment() -> dict:
    """:func:`environment` with the processor, numba (and its threads) and scikit-learn versions,
    for the benchmarks that compare with scikit-learn."""
    import numba
    import sklearn

    return environment(
        processor=platform.processor(),
        numba=numba.__version__,
        sklearn=sklearn.__version__,
        numba_threads=numba.config.NUMBA_NUM_THREADS,
    )


def write_result(output: str | Path, result: dict) -> None:
    """Write one benchmark's result file (JSON) and say where."""
    path = Path(output)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {path}")


def best_of(fn, repeats: int = 3) -> float:
    """The shortest wall-clock time (seconds) of ``repeats`` calls of ``fn()``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def timed_cvxpy_solve(
    build, label: str, repeats: int = 2, **solve_options
) -> tuple[float, float, float]:
    """Best wall time (``build()`` and the solve, from scratch), best solver-only time, and the
    optimal value of the cvxpy problem that ``build()`` returns, over ``repeats`` solves with
    ``problem.solve(**solve_options)``; a status other than optimal raises, naming ``label``."""
    import numpy as np

    walls, inside, value = [], [], np.nan
    for _ in range(repeats):
        start = time.perf_counter()
        problem = build()
        problem.solve(**solve_options)
        walls.append(time.perf_counter() - start)
        inside.append(problem.solver_stats.solve_time or np.nan)
        if problem.status != "optimal":
            raise RuntimeError(f"{label}: status {problem.status}")
        value = float(problem.value)
    return min(walls), float(np.nanmin(inside)), value
