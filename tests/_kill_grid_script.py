"""Run a slow grid into a result store; the kill test terminates this process mid-run.

Usage: python _kill_grid_script.py STORE LOG N_CELLS SLEEP [PID_DIR]

With ``PID_DIR`` the grid runs in two worker processes, each cell recording its worker's
process id there.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _grid_cells import pid_cell, slow_cell

from marginboost.experiments import ResultStore, run_grid


def main() -> None:
    store_path, log_path = sys.argv[1], sys.argv[2]
    n_cells, sleep = int(sys.argv[3]), float(sys.argv[4])
    cells = [{"cell": i, "seed": 100 + i} for i in range(n_cells)]
    if len(sys.argv) > 5:
        run_grid(
            functools.partial(pid_cell, pid_dir=sys.argv[5], sleep=sleep),
            cells,
            store=ResultStore(store_path),
            progress=False,
            executor="processes",
            n_jobs=2,
        )
        return
    run_grid(
        functools.partial(slow_cell, log_path=log_path, sleep=sleep),
        cells,
        store=ResultStore(store_path),
        progress=False,
    )


if __name__ == "__main__":
    main()
