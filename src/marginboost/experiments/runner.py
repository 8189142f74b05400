"""Run a grid of experiment cells serially, on local processes, or on a dask cluster.

A *cell* is a spec dict (see :func:`marginboost.experiments.cell_key`); a *cell function* is a
picklable top-level function ``func(spec) -> dict of metrics``.  :func:`run_grid` skips the cells
already in the result store, computes the others with the chosen executor and writes each record
as soon as its cell finishes, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import json
import os
import pickle
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from sklearn.exceptions import ConvergenceWarning

from .._progress import report as _report_progress
from .store import ResultStore, _canonical, canonical_json, cell_key

__all__ = ["run_grid", "CellError", "EXECUTORS"]

#: Executors understood by :func:`run_grid`.
EXECUTORS = ("serial", "processes", "dask")


class CellError(RuntimeError):
    """A cell function raised; the message names the cell spec and the original error."""


class _Failure:
    """What a worker returns when the cell function raised (picklable)."""

    def __init__(self, index: int, exc: BaseException, tb: str) -> None:
        self.index = index
        try:
            pickle.dumps(exc)
            self.exc: BaseException = exc
        except Exception:  # unpicklable exception: keep its text
            self.exc = RuntimeError(repr(exc))
        self.tb = tb


def _run_cell(func: Callable[[dict], Mapping], index: int, spec: dict):
    """Run one cell and time it; return ``(index, metrics, seconds)`` or a :class:`_Failure`."""
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            # A grid cell records whether its fits converged (``converged_`` in its metrics);
            # the estimators' warnings about it would only clutter the notebooks' output.
            warnings.simplefilter("ignore", ConvergenceWarning)
            metrics = func(dict(spec))
    except Exception as exc:
        return _Failure(index, exc, traceback.format_exc())
    elapsed = time.perf_counter() - start
    if isinstance(metrics, Mapping):
        # a cell that went on from its own checkpoint reports the seconds spent before
        elapsed += float(metrics.get("resumed_seconds", 0.0))
    if not isinstance(metrics, Mapping):
        return _Failure(
            index,
            TypeError(
                f"the cell function must return a dict of metrics, got {type(metrics).__name__}"
            ),
            "",
        )
    try:
        plain = _canonical(metrics, "metrics", allow_nan=True)
    except (TypeError, ValueError) as exc:
        return _Failure(index, exc, traceback.format_exc())
    return index, plain, elapsed


def _normalise_metrics(metrics: Mapping) -> dict:
    """Round-trip through JSON so fresh and stored results are identical objects, down to the
    order of their keys (the store writes records with sorted keys, so a notebook that prints
    a metrics dict prints the same whether its cells were computed or loaded)."""
    return json.loads(
        json.dumps(_canonical(metrics, "metrics", allow_nan=True), allow_nan=True, sort_keys=True)
    )


def _raise_failure(failure: _Failure, spec: Mapping) -> None:
    detail = f"\n\nTraceback in the worker:\n{failure.tb}" if failure.tb else ""
    raise CellError(
        f"cell {canonical_json(spec)} failed with "
        f"{type(failure.exc).__name__}: {failure.exc}{detail}"
    ) from failure.exc


def _serial(func, todo: Sequence[tuple[int, dict]]) -> Iterator:
    for index, spec in todo:
        yield _run_cell(func, index, spec)


_BOUND_TO_PARENT = False


def _bind_to_parent() -> None:
    """Make this worker process die with the process that started it (Linux only).

    A grid run killed with ``kill -9`` cannot stop its loky workers itself; with
    ``PR_SET_PDEATHSIG`` the kernel sends them SIGKILL when their parent dies, so no worker is
    left computing (and holding memory) for nobody.  Elsewhere this does nothing.
    """
    global _BOUND_TO_PARENT
    if _BOUND_TO_PARENT or not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - no prctl in this libc
        return
    _BOUND_TO_PARENT = True
    if os.getppid() == 1:  # the parent died before the call above
        os._exit(1)


def _run_cell_in_worker(func, index: int, spec: dict):
    _bind_to_parent()
    return _run_cell(func, index, spec)


def _processes(func, todo: Sequence[tuple[int, dict]], n_jobs: int) -> Iterator:
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered")
    yield from parallel(delayed(_run_cell_in_worker)(func, index, spec) for index, spec in todo)


def _dask(func, todo: Sequence[tuple[int, dict]], n_jobs: int, scheduler) -> Iterator:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "executor='dask' needs dask.distributed; install it with "
            "`pip install marginboost[distributed]`"
        ) from exc
    cluster = None
    own_client = True
    if scheduler is None:
        cluster = LocalCluster(
            n_workers=n_jobs, processes=True, threads_per_worker=1, dashboard_address=None
        )
        client = Client(cluster)
    elif isinstance(scheduler, str):
        client = Client(scheduler)
    elif hasattr(scheduler, "submit") and hasattr(scheduler, "gather"):
        client, own_client = scheduler, False
    else:
        raise TypeError(
            "scheduler must be None, a scheduler address such as "
            f"'tcp://host:8786' or a distributed.Client, got {scheduler!r}"
        )
    futures = []
    try:
        futures = [client.submit(_run_cell, func, index, spec, pure=False) for index, spec in todo]
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()
        if own_client:
            client.close()
        if cluster is not None:
            cluster.close()


def _progress_bar_class():
    """tqdm's notebook widget where ipywidgets is installed, its text bar otherwise (tqdm.auto
    warns on import when a notebook lacks ipywidgets)."""
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        from tqdm import tqdm
    else:
        from tqdm.auto import tqdm
    return tqdm


def run_grid(
    func: Callable[[dict], Mapping],
    cells: Sequence[Mapping],
    *,
    store: ResultStore | None = None,
    executor: str = "serial",
    n_jobs: int = 1,
    scheduler: Any = None,
    progress: bool = True,
    desc: str | None = None,
) -> list[dict]:
    """Compute ``func(spec)`` for every cell, reusing and filling a result store.

    Parameters
    ----------
    func : callable
        Picklable top-level function ``func(spec) -> dict`` returning the metrics of one cell.
        A cell that goes on from its own checkpoint of an interrupted run reports the seconds
        that run had spent in ``metrics["resumed_seconds"]``; they count in its elapsed time.
    cells : sequence of dict
        Cell specs (dicts); duplicates are computed once.
    store : ResultStore, optional
        Result store; cells found in it are loaded instead of computed, and each computed cell
        is written to it as soon as it finishes.  ``None`` computes everything and stores nothing.
    executor : {"serial", "processes", "dask"}, optional
        ``"serial"`` (in this process), ``"processes"`` (joblib/loky worker processes) or
        ``"dask"`` (a ``dask.distributed`` cluster; needs the ``[distributed]`` extra).
    n_jobs : int, optional
        Number of worker processes for ``"processes"`` (``-1``: all cores) and of local dask
        workers when ``scheduler`` is None.
    scheduler : str or distributed.Client, optional
        For ``"dask"``: address of a running scheduler (``"tcp://host:8786"``), an existing
        ``distributed.Client``, or None to start a local cluster with ``n_jobs`` single-threaded
        worker processes for the duration of the call.
    progress : bool, optional
        Show a tqdm progress bar (default ``True``; the environment variable ``TQDM_DISABLE``
        hides it too).
    desc : str, optional
        Label of the progress bar.

    Returns
    -------
    list of dict
        The metrics of each cell, in the order of ``cells``.  Metrics pass through JSON, so fresh
        and stored results are equal objects (tuples and arrays become lists) whichever executor
        computed them.

    Raises
    ------
    CellError
        If a cell function raises; the message holds the cell spec and the original error
        (chained as ``__cause__``).  Cells finished before the failure stay in the store.
    TypeError
        If ``func`` is not callable, ``cells`` is not a list of mappings, or ``store`` is not
        a :class:`ResultStore`.
    ValueError
        On an unknown ``executor``, a bad ``n_jobs``, or a ``scheduler`` without
        ``executor="dask"``.

    Examples
    --------
    A cell function in the serial executor; with ``"processes"`` or ``"dask"`` it must be a
    top-level function of an importable module, so that it can be pickled.

    >>> import tempfile
    >>> from marginboost.experiments import ResultStore, run_grid
    >>> def square(spec):
    ...     return {"square": spec["x"] ** 2}
    >>> cells = [{"x": 1}, {"x": 2}, {"x": 3}, {"x": 2}]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     store = ResultStore(folder)
    ...     print(run_grid(square, cells, store=store, progress=False))
    ...     print(len(store))  # the repeated cell is computed and stored once
    ...     print(run_grid(square, cells[:2], store=store, progress=False))  # loaded, not run
    [{'square': 1}, {'square': 4}, {'square': 9}, {'square': 4}]
    3
    [{'square': 1}, {'square': 4}]
    """
    if not callable(func):
        raise TypeError(f"func must be callable, got {func!r}")
    if isinstance(cells, Mapping) or not isinstance(cells, Sequence):
        raise TypeError(f"cells must be a list of spec dicts, got {type(cells).__name__}")
    if executor not in EXECUTORS:
        raise ValueError(f"executor must be one of {EXECUTORS}, got {executor!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or not (n_jobs >= 1 or n_jobs == -1):
        raise ValueError(f"n_jobs must be a positive integer or -1, got {n_jobs!r}")
    if executor == "dask" and n_jobs == -1:
        import os

        n_jobs = os.cpu_count() or 1
    if store is not None and not isinstance(store, ResultStore):
        raise TypeError(f"store must be a ResultStore or None, got {type(store).__name__}")
    if scheduler is not None and executor != "dask":
        raise ValueError(f"scheduler is only used with executor='dask' (got executor={executor!r})")

    keys: list[str] = []
    for position, spec in enumerate(cells):
        if not isinstance(spec, Mapping):
            raise TypeError(f"cell {position} is not a spec dict: {spec!r}")
        keys.append(cell_key(spec))

    results: dict[str, dict] = {}
    todo: list[tuple[int, dict]] = []
    seen: set[str] = set()
    for position, (key, spec) in enumerate(zip(keys, cells)):
        if key in seen:
            continue
        seen.add(key)
        if store is not None and store.has(spec):
            results[key] = _normalise_metrics(store.get(spec)["metrics"])
        else:
            todo.append((position, dict(spec)))

    _report_progress("grid", desc=desc or "", total=len(seen), stored=len(seen) - len(todo))
    tqdm = _progress_bar_class()
    # progress=False always hides the bar; otherwise tqdm's own defaults apply, so the
    # TQDM_DISABLE environment variable (set while notebooks are executed) can hide it.
    hidden = {} if progress else {"disable": True}
    with tqdm(
        total=len(seen), initial=len(seen) - len(todo), desc=desc, unit="cell", **hidden
    ) as bar:
        if todo:
            if executor == "serial":
                stream = _serial(func, todo)
            elif executor == "processes":
                stream = _processes(func, todo, n_jobs)
            else:
                stream = _dask(func, todo, n_jobs, scheduler)
            try:
                for outcome in stream:
                    if isinstance(outcome, _Failure):
                        _raise_failure(outcome, cells[outcome.index])
                    index, metrics, elapsed = outcome
                    spec = cells[index]
                    if store is not None:
                        store.put(spec, metrics, elapsed)
                    results[keys[index]] = _normalise_metrics(metrics)
                    bar.update(1)
                    _report_progress("cell", desc=desc or "")
            finally:
                close = getattr(stream, "close", None)
                if close is not None:
                    close()
    return [results[key] for key in keys]
