"""The folder where :meth:`DMCBoost.fit_path <marginboost.DMCBoost.fit_path>` keeps the parts
of a path it has finished (:class:`PathCheckpoint`), and the training state as it keeps it."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator

from .._base import check_real

if TYPE_CHECKING:
    from collections.abc import Callable

    from .state import TrainingState

__all__ = ["PathCheckpoint", "state_part"]


def state_part(state: TrainingState) -> dict[str, Any]:
    """The training state as a checkpoint keeps it (:meth:`TrainingState.saved
    <marginboost.boosting.dmcboost.state.TrainingState.saved>`), with the fit's seconds so far."""
    return {"state": state.saved(), "seconds": time.perf_counter() - state.start}


class PathCheckpoint:
    """A folder where :meth:`DMCBoost.fit_path <marginboost.DMCBoost.fit_path>` keeps the parts
    of a path it has finished.

    Each part is a data-only file (JSON and arrays in an ``.npz``, with a checksum; see
    :mod:`marginboost.boosting._checkpoint`) written atomically (a killed write leaves no
    part), next to a
    fingerprint of the fit (the estimator's parameters, the data and the :math:`n'` values):
    a folder that holds another fit's parts is refused.  The phase in progress (phase I, or
    one :math:`n'` value's phase II) is also saved, at the start of a round, once ``every``
    seconds have passed since the last save (0: every round), and a later fit goes on from
    it; finished phases replace their progress.  ``restored_seconds`` is the fit time, in
    seconds, of the parts loaded rather than computed by the last
    :meth:`DMCBoost.fit_path <marginboost.DMCBoost.fit_path>` (the time of an uninterrupted fit
    is that plus the time of the call).  Reading a part
    runs no code from the file: a part that is damaged, altered or names a class other than
    this package's estimators, binnings and trees is refused.

    Examples
    --------
    >>> import tempfile
    >>> from sklearn.datasets import load_iris
    >>> from marginboost.boosting import DMCBoost
    >>> from marginboost.boosting.dmcboost import PathCheckpoint
    >>> X, y = load_iris(return_X_y=True)
    >>> folder = tempfile.mkdtemp()
    >>> model = DMCBoost(n_estimators=6, max_depth=1)
    >>> first = model.fit_path(X, y, [0.1, 0.5], checkpoint=folder)
    >>> saved = PathCheckpoint(folder)
    >>> again = model.fit_path(X, y, [0.1, 0.5], checkpoint=saved)  # loaded, not refitted
    >>> saved.restored_seconds > 0, [m.n_estimators_ for m in again] == [m.n_estimators_ for m in first]
    (True, True)
    """

    def __init__(self, folder: str | os.PathLike[str], every: float = 600.0) -> None:
        self.folder = Path(folder)
        self.every = check_real(every, "every", 0.0, low_inclusive=True)
        self.restored_seconds = 0.0
        self._fingerprint: str | None = None
        self._last_save = time.monotonic()

    def open(
        self,
        estimator: BaseEstimator,
        X: ArrayLike,
        y: ArrayLike,
        n_primes: list[float],
        sample_weight: ArrayLike | None,
    ) -> None:
        """Tie the folder to this fit; raise ``ValueError`` if it holds another fit's parts.

        The fingerprint covers the estimator's class and parameters, the data and the
        :math:`n'` values (``[]`` for a fit of another estimator run in parts)."""
        import hashlib
        import pickle

        digest = hashlib.blake2b(digest_size=16)
        params = sorted((k, repr(v)) for k, v in estimator.get_params(deep=False).items())
        digest.update(pickle.dumps((type(estimator).__name__, params, [repr(v) for v in n_primes])))
        for array in (X, y, sample_weight):
            if array is not None:
                data = np.ascontiguousarray(np.asarray(array))
                digest.update(repr((data.dtype.str, data.shape)).encode())
                digest.update(pickle.dumps(data.tolist()) if data.dtype == object else data.data)
        self._fingerprint = digest.hexdigest()
        self.restored_seconds = 0.0
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = self.folder / "fingerprint"
        if stamp.exists():
            if stamp.read_text().strip() != self._fingerprint:
                raise ValueError(
                    f"checkpoint folder {self.folder} holds the parts of another fit (other "
                    "parameters, data or n' values); use another folder or empty this one"
                )
        else:
            stamp.write_text(self._fingerprint + "\n")

    def load(self, name: str) -> Any:
        """The saved part ``name``, or None."""
        from .._checkpoint import load_checkpoint

        path = self.folder / f"{name}.npz"
        if not path.exists():
            return None
        part = load_checkpoint(path)
        if isinstance(part, dict):  # phase I, or a phase in progress
            self.restored_seconds = max(self.restored_seconds, float(part["seconds"]))
        elif len(part.history_["time"]):
            self.restored_seconds = max(self.restored_seconds, float(part.history_["time"][-1]))
        return part

    def save(self, name: str, part: Any) -> None:
        """Write part ``name`` atomically.

        The part goes to a temporary file of its own, then replaces ``name``: two processes
        that fit the same cell at once (two overlapping runs of the same grid) never write
        into one file, and a folder removed by the one that finished first is made again."""
        from .._checkpoint import save_checkpoint

        if self._fingerprint is None:
            raise RuntimeError("open the checkpoint for a fit before saving parts")
        self.folder.mkdir(parents=True, exist_ok=True)
        save_checkpoint(self.folder / f"{name}.npz", part)
        self._last_save = time.monotonic()

    def discard(self, name: str) -> None:
        """Remove part ``name`` if it is there."""
        (self.folder / f"{name}.npz").unlink(missing_ok=True)

    def resume(self, name: str, state: TrainingState) -> bool:
        """Put the saved progress ``name`` (if any) into the training ``state``; whether there
        was one.  The state's clock goes on from the progress's seconds."""
        part = self.load(name)
        if part is None:
            return False
        state.restore(part["state"], part["seconds"])
        return True

    def progress(self, name: str) -> Callable[[TrainingState], None]:
        """The hook a phase calls at the start of each round: it saves the state as progress
        ``name`` once :attr:`every` seconds have passed since the last save."""

        def hook(state: TrainingState) -> None:
            if time.monotonic() - self._last_save >= self.every:
                self.save(name, state_part(state))

        return hook
