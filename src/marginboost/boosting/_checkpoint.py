"""Data-only files for fits saved in parts (checkpoints): JSON plus arrays in one ``.npz``.

A checkpoint holds fitted estimators and training states: dicts, lists, tuples, strings,
numbers, ``None``, numpy arrays and scalars, and objects of a few of this package's classes (the
estimators, :class:`~marginboost.weak.BinMapper`, :class:`~marginboost.weak.RawFeatures`,
:class:`~marginboost.weak.tree.FittedTree`), rebuilt from their attributes.  Nothing in the
file is code: it is read with ``numpy.load(allow_pickle=False)`` and JSON, an object of any
other class is refused when written and when read, and a SHA-256 checksum over the JSON text
and every array (dtype, shape and bytes) refuses a file changed after it was written.  (A pickle
would run code from anyone who can write the folder.)
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["CheckpointError", "save_checkpoint", "load_checkpoint"]


class CheckpointError(ValueError):
    """A checkpoint file is damaged, altered, or holds something that is not data."""


#: The classes that moved since checkpoints were written under their module path: the path an
#: older checkpoint names, and the public name of the class it is read as.
LEGACY_NAMES = {
    "marginboost.boosting.direct.DirectBoost": "marginboost.DirectBoost",
    "marginboost.boosting.dmcboost.DMCBoost": "marginboost.DMCBoost",
    # boosting/corrective.py split into lpboost.py, adaboost_cg.py and margin_distribution.py
    **{
        f"marginboost.boosting.corrective.{name}": f"marginboost.{name}"
        for name in (
            "LPBoost",
            "ERLPBoost",
            "AdaBoostCG",
            "LogitBoostCG",
            "HingeLPBoost",
            "MCBoost",
            "MDBoost",
        )
    },
    # boosting/stagewise.py split into anyboost.py, adaboost.py, arcing.py, least_squares.py
    # and doom.py
    **{
        f"marginboost.boosting.stagewise.{name}": f"marginboost.{name}"
        for name in (
            "AnyBoost",
            "AdaBoost",
            "MadaBoost",
            "RealAdaBoost",
            "ArcGv",
            "ArcX4",
            "LogitBoost",
            "L2Boost",
            "DoomII",
        )
    },
    # boosting/multiclass.py split into samme.py, adaboost_mh.py and gdmcboost.py
    **{
        f"marginboost.boosting.multiclass.{name}": f"marginboost.{name}"
        for name in ("AdaBoostM1", "SAMME", "AdaBoostMH", "GDMCBoost")
    },
    # boosting/pool.py renamed fixed_pool.py (weak/pool.py is the pool of weak hypotheses)
    **{
        f"marginboost.boosting.pool.{name}": f"marginboost.{name}"
        for name in ("AdaBoostL1", "AdaBoostQP")
    },
}


def _allowed_classes() -> dict[str, type]:
    """The classes a checkpoint may hold, by the name it is written under: an estimator by its
    public name ``marginboost.<name>`` (which stays when its module moves), the others by
    their module path."""
    import marginboost
    from marginboost.weak import BinMapper, RawFeatures
    from marginboost.weak.tree import FittedTree

    allowed = {
        f"marginboost.{name}": getattr(marginboost, name) for name in marginboost._ESTIMATORS
    }
    for cls in (BinMapper, RawFeatures, FittedTree):
        allowed[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return allowed


def _readable_classes() -> dict[str, type]:
    """The names a checkpoint may hold: those written now, every allowed class's module path
    (what checkpoints written before the public names hold) and :data:`LEGACY_NAMES`."""
    allowed = _allowed_classes()
    readable = dict(allowed)
    readable |= {f"{cls.__module__}.{cls.__qualname__}": cls for cls in allowed.values()}
    readable |= {legacy: allowed[public] for legacy, public in LEGACY_NAMES.items()}
    return readable


class _Encoder:
    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}
        self.names = {cls: name for name, cls in _allowed_classes().items()}

    def array(self, value: np.ndarray) -> dict[str, str]:
        if value.dtype.hasobject:
            raise CheckpointError(
                f"an array of Python objects cannot be saved (dtype {value.dtype})"
            )
        name = f"a{len(self.arrays)}"
        self.arrays[name] = value
        return {"__array__": name}

    def encode(self, value: Any) -> Any:
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, (int, float)) and type(value) in (int, float):
            return value
        if isinstance(value, np.ndarray):
            return self.array(value)
        if isinstance(value, np.generic):
            return {"__scalar__": self.array(np.asarray(value))["__array__"]}
        if isinstance(value, tuple):
            return {"__tuple__": [self.encode(v) for v in value]}
        if isinstance(value, list):
            return [self.encode(v) for v in value]
        if isinstance(value, dict):
            return {"__dict__": [[self.encode(k), self.encode(v)] for k, v in value.items()]}
        name = self.names.get(type(value))
        if name is not None:
            # what a pickle would keep: the estimators drop unpicklable parts (LPBoost's HiGHS
            # model) in __getstate__
            state = value.__getstate__() if hasattr(value, "__getstate__") else vars(value)
            if not isinstance(state, dict):
                state = vars(value)
            return {"__object__": name, "state": self.encode(dict(state))}
        name = f"{type(value).__module__}.{type(value).__qualname__}"
        raise CheckpointError(f"a {name} cannot be saved in a checkpoint (not data)")


class _Decoder:
    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self.arrays = arrays
        self.allowed = _readable_classes()

    def decode(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.decode(v) for v in value]
        if not isinstance(value, dict):
            return value
        if "__array__" in value:
            return self.arrays[value["__array__"]]
        if "__scalar__" in value:
            return self.arrays[value["__scalar__"]][()]
        if "__tuple__" in value:
            return tuple(self.decode(v) for v in value["__tuple__"])
        if "__dict__" in value:
            return {self.decode(k): self.decode(v) for k, v in value["__dict__"]}
        if "__object__" in value:
            cls = self.allowed.get(value["__object__"])
            if cls is None:
                raise CheckpointError(f"a checkpoint names the class {value['__object__']!r}")
            obj: Any = object.__new__(cls)
            state = self.decode(value["state"])
            if hasattr(obj, "__setstate__"):
                obj.__setstate__(state)
            else:
                obj.__dict__.update(state)
            return obj
        raise CheckpointError(f"unknown entry in a checkpoint: {sorted(value)}")


def _digest(text: str, arrays: dict[str, np.ndarray]) -> str:
    digest = hashlib.sha256(text.encode("utf-8"))
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}:{array.dtype.str}:{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def save_checkpoint(path: str | os.PathLike[str], value: Any) -> None:
    """Write ``value`` to ``path`` (an ``.npz`` file) atomically: a killed write leaves the
    previous file, or none."""
    encoder = _Encoder()
    text = json.dumps(encoder.encode(value), allow_nan=True, sort_keys=True)
    arrays = dict(encoder.arrays)
    checksum = _digest(text, arrays)
    arrays["__json__"] = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    arrays["__sha256__"] = np.frombuffer(checksum.encode("ascii"), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    path = Path(path)
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".partial")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(buffer.getvalue())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


def load_checkpoint(path: str | os.PathLike[str]) -> Any:
    """Read a file written by :func:`save_checkpoint`; :class:`CheckpointError` when it is not
    one, fails its checksum or names a class that is not data."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError) as error:
        raise CheckpointError(f"checkpoint {path} cannot be read ({error}); delete it") from error
    try:
        text = arrays.pop("__json__").tobytes().decode("utf-8")
        checksum = arrays.pop("__sha256__").tobytes().decode("ascii")
    except (KeyError, UnicodeDecodeError) as error:
        raise CheckpointError(f"checkpoint {path} is not a marginboost checkpoint") from error
    if _digest(text, arrays) != checksum:
        raise CheckpointError(
            f"checkpoint {path} fails its checksum (changed after it was written); delete it"
        )
    return _Decoder(arrays).decode(json.loads(text))
