"""Content-addressed, append-only store of experiment results.

Every result of an experiment cell is saved as one JSON record whose file name is the hash of
everything that determines the result (algorithm, parameters, dataset and its sha256, protocol,
fold, seed, profile).  A rerun of a notebook finds the cells it already computed and loads them
instead of recomputing; a crashed or killed run loses at most the cells that were in flight,
because every record is written atomically (temporary file in the same folder, ``fsync``, then an
atomic link or rename onto the final name).

Layout::

    <store>/<key[:2]>/<key>.json

where ``key = cell_key(spec)`` is a 64-character sha256 hex digest.  Temporary files start with
``.tmp-`` and never match the record pattern, so a half-written file is never mistaken for a record.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import math
import os
import re
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "ResultStore",
    "cell_key",
    "canonical_json",
    "experiment_spec",
    "RecordConflictError",
    "CorruptRecordError",
    "computing_environment",
    "source_fingerprint",
]

_KEY_PATTERN = re.compile(r"^[0-9a-f]{64}$")
_RECORD_FIELDS = ("key", "spec", "metrics", "elapsed_seconds", "version", "created")


class RecordConflictError(ValueError):
    """A record exists under the same key with different metrics (the store is append-only)."""


class CorruptRecordError(ValueError):
    """A record file cannot be read back as a valid record."""


def _canonical(value: Any, path: str, *, allow_nan: bool) -> Any:
    """Convert ``value`` to plain JSON types (str-keyed dict, list, str, number, bool, None)."""
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if isinstance(k, (np.str_,)):
                k = str(k)
            if not isinstance(k, str):
                raise TypeError(
                    f"{path}: mapping keys must be strings, got {k!r} ({type(k).__name__})"
                )
            out[k] = _canonical(v, f"{path}.{k}", allow_nan=allow_nan)
        return out
    if isinstance(value, np.ndarray):
        return [
            _canonical(v, f"{path}[{i}]", allow_nan=allow_nan) for i, v in enumerate(value.tolist())
        ]
    if isinstance(value, (list, tuple)):
        return [_canonical(v, f"{path}[{i}]", allow_nan=allow_nan) for i, v in enumerate(value)]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if not allow_nan and not math.isfinite(number):
            raise ValueError(
                f"{path}: non-finite number {number!r} cannot be part of a cell "
                "spec (its hash would not be portable JSON)"
            )
        return number
    if isinstance(value, (str, np.str_)):
        return str(value)
    if value is None:
        return None
    raise TypeError(
        f"{path}: cannot store a value of type {type(value).__name__} ({value!r}); "
        "use numbers, strings, booleans, None, lists, tuples, arrays or dicts"
    )


def canonical_json(spec: Mapping) -> str:
    """Return the canonical JSON text of a cell spec (the text that :func:`cell_key` hashes).

    Keys are sorted, tuples and arrays become lists, numpy scalars become Python numbers and
    floats are written with ``repr`` (shortest round-tripping form), so equal specs give the same
    text on every machine and Python version.  ``1`` and ``1.0`` stay different.
    """
    if not isinstance(spec, Mapping):
        raise TypeError(f"a cell spec must be a mapping (dict), got {type(spec).__name__}")
    plain = _canonical(spec, "spec", allow_nan=False)
    return json.dumps(
        plain, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    )


def cell_key(spec: Mapping) -> str:
    """Return the sha256 hex digest of the canonical JSON of ``spec``.

    The canonical JSON sorts keys, turns tuples and arrays into lists and numpy scalars into
    Python numbers, so a spec has the same key on every machine and Python version, whatever
    the order of its keys.  ``1`` and ``1.0`` stay different.

    Parameters
    ----------
    spec : mapping
        Everything that determines a result: algorithm, parameters, dataset name and sha256,
        protocol, fold, seed and profile (see :func:`experiment_spec`).  Keys must be strings;
        values numbers, strings, booleans, ``None``, lists, tuples, arrays or mappings of
        these; numbers must be finite.

    Returns
    -------
    str
        64 lowercase hex characters.

    Raises
    ------
    TypeError
        If ``spec`` is not a mapping, a key is not a string or a value has another type.
    ValueError
        If a number is NaN or infinite.

    Examples
    --------
    >>> from marginboost.experiments import cell_key
    >>> from marginboost.experiments.store import canonical_json
    >>> key = cell_key({"algorithm": "AdaBoost", "seed": 0, "params": {"depth": (1, 2)}})
    >>> len(key), key == cell_key({"seed": 0, "params": {"depth": [1, 2]}, "algorithm": "AdaBoost"})
    (64, True)
    >>> canonical_json({"seed": 0, "params": {"depth": (1, 2)}, "algorithm": "AdaBoost"})
    '{"algorithm":"AdaBoost","params":{"depth":[1,2]},"seed":0}'
    >>> cell_key({"seed": 1}) == cell_key({"seed": 1.0})
    False
    """
    return hashlib.sha256(canonical_json(spec).encode("ascii")).hexdigest()


def experiment_spec(
    *,
    algorithm: str,
    params: Mapping,
    dataset: str,
    dataset_sha256: str,
    protocol: str,
    fold: int,
    seed: int,
    profile: str,
    **extra: Any,
) -> dict:
    """Build a cell spec holding every field that determines a result.

    Extra keyword arguments (for example ``noise_rate``) are added as further fields.

    Parameters
    ----------
    algorithm : str
        Name of the algorithm (non-empty).
    params : mapping
        Its hyper-parameters (copied into a plain dict).
    dataset : str
        Dataset name (non-empty).
    dataset_sha256 : str
        SHA-256 of the data file, so that a changed file gives new cells (non-empty).
    protocol : str
        Name of the split protocol (non-empty).
    fold : int
        Fold, rotation or repetition index.
    seed : int
        Random seed of the cell.
    profile : str
        ``"quick"`` or ``"full"`` (any non-empty string).
    **extra
        Further fields that change the result.

    Returns
    -------
    dict
        The fields above (``fold`` and ``seed`` as ``int``) followed by ``extra``; pass it to
        :func:`cell_key`, :class:`ResultStore` or :func:`run_grid`.

    Raises
    ------
    ValueError
        If one of the string fields is empty or not a string.
    TypeError
        If ``params`` is not a mapping.

    Examples
    --------
    >>> from marginboost.experiments import experiment_spec
    >>> spec = experiment_spec(algorithm="AdaBoost", params={"n_estimators": 100},
    ...                        dataset="sonar", dataset_sha256="64378cab", protocol="rotated",
    ...                        fold=0, seed=0, profile="quick", noise_rate=0.1)
    >>> list(spec)
    ['algorithm', 'params', 'dataset', 'dataset_sha256', 'protocol', 'fold', 'seed', 'profile',
     'noise_rate']
    >>> spec["params"], spec["noise_rate"]
    ({'n_estimators': 100}, 0.1)
    """
    for name, value in (
        ("algorithm", algorithm),
        ("dataset", dataset),
        ("dataset_sha256", dataset_sha256),
        ("protocol", protocol),
        ("profile", profile),
    ):
        if not isinstance(value, str) or not value:
            raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    if not isinstance(params, Mapping):
        raise TypeError(f"params must be a mapping, got {type(params).__name__}")
    spec = {
        "algorithm": algorithm,
        "params": dict(params),
        "dataset": dataset,
        "dataset_sha256": dataset_sha256,
        "protocol": protocol,
        "fold": int(fold),
        "seed": int(seed),
        "profile": profile,
    }
    spec.update(extra)
    return spec


def _metrics_json(metrics: Mapping) -> str:
    return json.dumps(metrics, sort_keys=True, separators=(",", ":"), allow_nan=True)


#: Metrics that time a run (wall-clock seconds): two runs of the same cell agree on everything
#: else, so the append-only check compares records without them (the first record stays).
TIMING_METRICS = frozenset({"seconds", "phase1_seconds", "resumed_seconds"})


def _drop_timings(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _drop_timings(v) for k, v in value.items() if k not in TIMING_METRICS}
    if isinstance(value, list):
        return [_drop_timings(v) for v in value]
    return value


def _without_timings(metrics: Mapping) -> dict:
    """``metrics`` with every :data:`TIMING_METRICS` entry dropped, at any depth."""
    return {k: _drop_timings(v) for k, v in metrics.items() if k not in TIMING_METRICS}


def record_checksum(record: Mapping) -> str:
    """SHA-256 of what a record asserts: its key, spec and metrics (canonical JSON).

    Stored in the record as ``checksum``; a record whose numbers were edited by hand (or damaged)
    no longer matches it and is refused with :class:`CorruptRecordError`.
    """
    payload = json.dumps(
        {"key": record["key"], "spec": record["spec"], "metrics": record["metrics"]},
        sort_keys=True,
        separators=(",", ":"),
        allow_nan=True,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _package_version() -> str:
    from marginboost import __version__

    return __version__


@functools.lru_cache(maxsize=1)
def source_fingerprint() -> str:
    """SHA-256 of the package's own source files (``*.py`` and ``*.yaml`` under the package).

    Returns
    -------
    str
        64 hexadecimal digits; equal for two checkouts whose package sources are equal.

    Examples
    --------
    >>> from marginboost.experiments import source_fingerprint
    >>> len(source_fingerprint())
    64
    """
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(package)).encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def computing_environment() -> dict[str, str]:
    """What computed a record, beside the code: the interpreter, the numerical libraries, the
    machine's architecture and the package sources' fingerprint (first 12 digits).

    Results are deterministic for a given environment; across library versions or CPUs a
    computation that meets a tie can take the other branch, and this record says where to look.

    Returns
    -------
    dict of str to str
        ``python``, ``machine``, ``source`` and the version of each of numpy, scipy, numba,
        highspy, cvxpy and scikit-learn that is installed.

    Examples
    --------
    >>> from marginboost.experiments import computing_environment
    >>> sorted(computing_environment())[:3]
    ['cvxpy', 'highspy', 'machine']
    """
    return dict(_environment())


@functools.lru_cache(maxsize=1)
def _environment() -> dict[str, str]:
    import platform
    from importlib import metadata

    environment = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "source": source_fingerprint()[:12],
    }
    for package in ("numpy", "scipy", "numba", "highspy", "cvxpy", "scikit-learn"):
        try:
            environment[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            pass
    return environment


class ResultStore:
    """Append-only folder of result records, one JSON file per experiment cell.

    A record is a JSON object with the fields ``key`` (:func:`cell_key` of the spec),
    ``spec``, ``metrics``, ``elapsed_seconds``, ``version`` (of marginboost), ``created`` (UTC
    time), ``environment`` (:func:`computing_environment`; records written before it existed
    have none) and ``checksum`` (SHA-256 of key, spec and metrics, so that a record edited by
    hand, or one whose checksum is missing, is refused).  Only ``spec`` and ``metrics`` decide
    a result: the grids hand the notebooks a record's ``metrics`` alone, and ``elapsed_seconds``,
    ``version``, ``created`` and ``environment`` -- outside the checksum -- only describe the
    run (cost estimates, provenance).  Two runs of the same cell that differ only in their
    timings (:data:`TIMING_METRICS`) do not conflict: the first record stays.  ``spec in store`` is :meth:`has`; iterating yields every record of the store
    and its fallbacks in key order, and ``len(store)`` counts them.

    Parameters
    ----------
    path : str or path-like
        Folder of the store; created on the first :meth:`put`.  New records are written here.
    fallbacks : sequence of str, path-like or ResultStore, optional
        Read-only stores consulted after ``path`` (for example the committed evidence under
        ``data/results`` while a run writes to ``_build/results``).  A cell found in a fallback
        is not recomputed, and :meth:`put` of a key that a fallback holds checks equality with
        it instead of writing.

    Attributes
    ----------
    path : pathlib.Path
        Folder of the store.
    fallbacks : tuple of ResultStore
        The fallback stores, in the order they are consulted.

    Raises
    ------
    NotADirectoryError
        If ``path`` exists and is not a folder.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from marginboost.experiments import RecordConflictError, ResultStore
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     store = ResultStore(Path(folder) / "results")
    ...     spec = {"algorithm": "AdaBoost", "seed": 0}
    ...     record = store.put(spec, {"test_error": 0.12}, elapsed=1.5)
    ...     print(spec in store, len(store), store.get(spec)["metrics"])
    ...     try:
    ...         store.put(spec, {"test_error": 0.13}, elapsed=1.0)
    ...     except RecordConflictError:
    ...         print("append-only: a different result for the same cell is refused")
    ...     later = ResultStore(Path(folder) / "later", fallbacks=[store])
    ...     print(later.has(spec), len(list(later.own_records())))
    True 1 {'test_error': 0.12}
    append-only: a different result for the same cell is refused
    True 0
    """

    def __init__(
        self, path: str | os.PathLike, fallbacks: Sequence[str | os.PathLike | ResultStore] = ()
    ) -> None:
        self.path = Path(path)
        if self.path.exists() and not self.path.is_dir():
            raise NotADirectoryError(f"result store path {self.path} exists and is not a folder")
        self.fallbacks = tuple(
            f if isinstance(f, ResultStore) else ResultStore(f) for f in fallbacks
        )

    def __repr__(self) -> str:
        if self.fallbacks:
            return (
                f"ResultStore({str(self.path)!r}, fallbacks="
                f"{[str(f.path) for f in self.fallbacks]!r})"
            )
        return f"ResultStore({str(self.path)!r})"

    def _find(self, key: str) -> Path | None:
        """The record file of ``key`` in this store or the first fallback that has it."""
        path = self.record_path(key)
        if path.is_file():
            return path
        for fallback in self.fallbacks:
            found = fallback._find(key)
            if found is not None:
                return found
        return None

    def record_path(self, spec_or_key: Mapping | str) -> Path:
        """Path of the record file of a spec (or of a key) in this store: ``<key[:2]>/<key>.json``
        under :attr:`path`, whether the file exists or not."""
        key = spec_or_key if isinstance(spec_or_key, str) else cell_key(spec_or_key)
        if not _KEY_PATTERN.match(key):
            raise ValueError(f"not a record key (64 hex characters): {key!r}")
        return self.path / key[:2] / f"{key}.json"

    def has(self, spec: Mapping) -> bool:
        """Whether a record of ``spec`` is stored (here or in a fallback)."""
        return self._find(cell_key(spec)) is not None

    def __contains__(self, spec: Mapping) -> bool:
        return self.has(spec)

    def get(self, spec: Mapping) -> dict:
        """Return the record of ``spec``.

        Raises
        ------
        KeyError
            If no record of ``spec`` is stored.
        CorruptRecordError
            If the record file is not a valid record.
        """
        path = self._find(cell_key(spec))
        if path is None:
            raise KeyError(f"no record for spec {canonical_json(spec)} in {self.path}")
        return self._read(path)

    def put(self, spec: Mapping, metrics: Mapping, elapsed: float) -> dict:
        """Store the metrics of one cell and return the record.

        Writing a key that exists with equal metrics is a no-op (the stored record is returned);
        with different metrics it raises :class:`RecordConflictError`.

        Parameters
        ----------
        spec
            Cell spec (see :func:`cell_key`).
        metrics
            Mapping of metric name to JSON-able value (numbers, lists, arrays, strings).
        elapsed
            Wall-clock seconds the computation took.

        Returns
        -------
        dict
            The record as written (or as already stored under the same key).

        Raises
        ------
        RecordConflictError
            If the key is stored (here or in a fallback) with different metrics.
        """
        if not isinstance(metrics, Mapping):
            raise TypeError(f"metrics must be a mapping, got {type(metrics).__name__}")
        elapsed = float(elapsed)
        if not math.isfinite(elapsed) or elapsed < 0:
            raise ValueError(f"elapsed must be a finite number of seconds >= 0, got {elapsed!r}")
        key = cell_key(spec)
        record = {
            "key": key,
            "spec": _canonical(spec, "spec", allow_nan=False),
            "metrics": _canonical(metrics, "metrics", allow_nan=True),
            "elapsed_seconds": elapsed,
            "version": _package_version(),
            "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "environment": computing_environment(),
        }
        record["checksum"] = record_checksum(record)
        existing = self._find(key)
        if existing is not None:
            return self._check_same(existing, record)
        path = self.record_path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".part")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(record, fh, indent=1, sort_keys=True, allow_nan=True)
                fh.write("\n")
                fh.flush()
                os.fsync(fh.fileno())
            try:
                # os.link fails if the target exists: an exclusive, atomic create.
                os.link(tmp, path)
            except FileExistsError:
                return self._check_same(path, record)
            except OSError:
                # file systems without hard links: atomic rename (last writer wins)
                os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        _fsync_dir(path.parent)
        return record

    def _check_same(self, path: Path, record: dict) -> dict:
        stored = self._read(path)
        if _metrics_json(_without_timings(stored["metrics"])) != _metrics_json(
            _without_timings(record["metrics"])
        ):
            raise RecordConflictError(
                f"the store is append-only: {path} already holds different metrics for spec "
                f"{json.dumps(record['spec'], sort_keys=True)}: stored "
                f"{_metrics_json(stored['metrics'])}, new {_metrics_json(record['metrics'])}"
            )
        return stored

    def _read(self, path: Path) -> dict:
        try:
            with open(path, encoding="utf-8") as fh:
                record = json.load(fh)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CorruptRecordError(
                f"result record {path} is not valid JSON ({exc}); delete it to recompute the cell"
            ) from exc
        if not isinstance(record, dict) or any(f not in record for f in _RECORD_FIELDS):
            raise CorruptRecordError(
                f"result record {path} lacks some of the fields "
                f"{list(_RECORD_FIELDS)}; delete it to recompute the cell"
            )
        if record["key"] != path.stem or cell_key(record["spec"]) != path.stem:
            raise CorruptRecordError(
                f"result record {path} does not match its file name (its "
                "spec hashes to another key); delete it to recompute"
            )
        if "checksum" not in record:
            raise CorruptRecordError(
                f"result record {path} has no checksum field (removed or renamed), so its spec "
                "and metrics cannot be trusted; delete it to recompute the cell"
            )
        if record["checksum"] != record_checksum(record):
            raise CorruptRecordError(
                f"result record {path} fails its checksum: its spec or "
                "metrics were changed after it was written; delete it to "
                "recompute the cell"
            )
        return record

    def _record_files(self) -> list[Path]:
        if not self.path.is_dir():
            return []
        files = []
        for sub in sorted(self.path.iterdir()):
            if not (sub.is_dir() and len(sub.name) == 2):
                continue
            files += [
                p
                for p in sorted(sub.iterdir())
                if p.suffix == ".json"
                and _KEY_PATTERN.match(p.stem)
                and p.stem[:2] == sub.name
                and p.is_file()
            ]
        return files

    def _all_record_files(self) -> list[Path]:
        """Record files of this store and its fallbacks, one per key (this store first), in
        key order."""
        by_key: dict[str, Path] = {}
        for store in (self, *self.fallbacks):
            for path in store._all_record_files() if store is not self else self._record_files():
                by_key.setdefault(path.stem, path)
        return [by_key[key] for key in sorted(by_key)]

    def __iter__(self) -> Iterator[dict]:
        """Yield every record (of this store and its fallbacks), in key order."""
        for path in self._all_record_files():
            yield self._read(path)

    def __len__(self) -> int:
        return len(self._all_record_files())

    def own_records(self) -> Iterator[dict]:
        """Yield the records written to this store itself (not its fallbacks), in key order."""
        for path in self._record_files():
            yield self._read(path)

    def to_frame(self) -> pd.DataFrame:
        """One row per record (this store and its fallbacks), in key order.

        Columns: ``key``, ``elapsed_seconds``, ``version``, ``created``, then the other
        fields sorted by name (``checksum``, ``metrics.<name>``, ``spec.<field>``).  Nested
        fields are flattened with dots (``spec.params.n_estimators``).
        """
        records = list(self)
        columns = ["key", "elapsed_seconds", "version", "created"]
        if not records:
            return pd.DataFrame(columns=columns)
        frame = pd.json_normalize(records, sep=".")
        first = [c for c in columns if c in frame]
        rest = sorted(c for c in frame.columns if c not in columns)
        return frame[first + rest]


def _fsync_dir(directory: Path) -> None:
    """Flush a folder entry to disk where the platform allows it (POSIX)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
