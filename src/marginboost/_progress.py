"""Progress of grids that run inside a notebook kernel, reported to the process that runs it.

A notebook executed by papermill runs in a separate kernel process whose output is captured into
the notebook, so a progress bar drawn there is invisible to the person who typed ``marginboost
reproduce`` (and its volatile text must not end up in a committed notebook).  Instead,
:func:`marginboost.experiments.run_grid` appends one JSON line per event to the file named by
``MARGINBOOST_PROGRESS_LOG`` when that variable is set, and :class:`GridProgress`, used by the
command line around each notebook, reads the file while the notebook runs: it draws a tqdm bar
when standard error is a terminal and returns the counts (cells loaded from a store, cells
computed) for the one-line summary printed after each notebook.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
from pathlib import Path

__all__ = ["PROGRESS_ENV", "report", "GridProgress"]

#: Environment variable naming the progress file a grid appends its events to.
PROGRESS_ENV = "MARGINBOOST_PROGRESS_LOG"


def report(event: str, **fields) -> None:
    """Append one event to the progress file, if one is set (otherwise do nothing).

    Errors are swallowed: progress reporting must never make a computation fail.
    """
    path = os.environ.get(PROGRESS_ENV)
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"event": event, **fields}, sort_keys=True) + "\n")
    except OSError:
        pass


class GridProgress:
    """Context manager that sets ``MARGINBOOST_PROGRESS_LOG`` and follows the grids' events.

    Parameters
    ----------
    label
        Text shown before the bar (the notebook's name).
    bar
        Draw a tqdm bar on standard error; default: only when standard error is a terminal (a
        log file gets the one-line summary only, never carriage-return bars).

    Attributes
    ----------
    stored, computed, total : int
        Cells loaded from a result store, cells computed, cells in all grids seen so far.
    """

    def __init__(self, label: str = "", *, bar: bool | None = None, interval: float = 0.5):
        self.label = label
        self.bar = sys.stderr.isatty() if bar is None else bar
        self.interval = interval
        self.stored = self.computed = self.total = 0
        self._offset = 0
        self._stop = threading.Event()
        self._tqdm = None

    def __enter__(self) -> GridProgress:
        fd, name = tempfile.mkstemp(prefix="marginboost-progress-", suffix=".jsonl")
        os.close(fd)
        self._path = Path(name)
        self._saved = os.environ.get(PROGRESS_ENV)
        os.environ[PROGRESS_ENV] = name
        if self.bar:
            from tqdm import tqdm

            self._tqdm = tqdm(
                total=0,
                desc=self.label,
                unit="cell",
                leave=False,
                file=sys.stderr,
                dynamic_ncols=True,
            )
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._read()
        if self._tqdm is not None:
            self._tqdm.close()
        if self._saved is None:
            os.environ.pop(PROGRESS_ENV, None)
        else:
            os.environ[PROGRESS_ENV] = self._saved
        self._path.unlink(missing_ok=True)

    def _follow(self) -> None:
        while not self._stop.wait(self.interval):
            self._read()

    def _read(self) -> None:
        try:
            with open(self._path, encoding="utf-8") as fh:
                fh.seek(self._offset)
                chunk = fh.read()
        except OSError:
            return
        complete = chunk[: chunk.rfind("\n") + 1]
        self._offset += len(complete.encode("utf-8"))
        for line in complete.splitlines():
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue
            if event.get("event") == "grid":
                self.total += int(event.get("total", 0))
                self.stored += int(event.get("stored", 0))
            elif event.get("event") == "cell":
                self.computed += 1
        if self._tqdm is not None:
            self._tqdm.total = self.total
            self._tqdm.n = self.stored + self.computed
            self._tqdm.refresh()

    def summary(self) -> str:
        """``"grid cells: N from the store, M computed"`` (or ``"no grid"``)."""
        if not self.total:
            return "no grid"
        return f"grid cells: {self.stored} from the store, {self.computed} computed"
