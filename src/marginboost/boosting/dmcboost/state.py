"""DMCBoost's training state between rounds: one typed object that phases I and II advance and
that :class:`~marginboost.boosting.dmcboost.checkpoint.PathCheckpoint` saves and restores.

The part a checkpoint keeps (:meth:`TrainingState.saved`) is the same mapping of names to
values that the checkpoints of earlier versions hold, so a part written by them restores here
(:meth:`TrainingState.restore`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["TrainingState"]

#: The per-round records of ``history_``, in the order a round appends them.
HISTORY_KEYS = ("phase", "train_error", "errors", "objective", "alpha", "time")


def _empty_history() -> dict[str, list[float]]:
    return {key: [] for key in HISTORY_KEYS}


@dataclass
class TrainingState:
    """What a DMCBoost fit knows between two rounds.

    Attributes
    ----------
    y : ndarray of shape (n_samples,)
        The encoded training labels.
    codes : ndarray of shape (n_samples, n_features)
        The binned training features.
    builder : DirectTreeBuilder
        The weak learner.
    F : ndarray of shape (n_samples, n_classes)
        The class scores :math:`F(x_i, l)` of the trees so far.
    c : float
        The sum of the absolute step sizes, :math:`\\sum_t |\\alpha_t|` (the margins'
        normalizer).
    trees, alphas : list
        The trees and their step sizes, in order.
    history : dict of str to list
        One value per round for each of :data:`HISTORY_KEYS`.
    start : float
        ``time.perf_counter()`` at the start of the fit (moved back by the seconds of a
        restored part).
    plateau : int
        Phase I's rounds in a row without fewer training errors.
    phase2 : tuple of (float, int, int) or None
        Phase II's best value of (5), the round count at it, and the rounds since; ``None``
        before phase II starts.
    objective_path : list of int or None
        :meth:`DMCBoost.fit_path <marginboost.DMCBoost.fit_path>`'s values of :math:`n'`,
        while its phase I records (5) for each of them.
    objective_values : list of list of float or None
        Those values of (5), one list per phase-I round.
    progress : callable or None
        Called with the state at the start of every round (a checkpoint's save hook).
    """

    y: NDArray[np.intp]
    codes: NDArray[Any]
    builder: Any
    F: NDArray[np.float64]
    c: float = 0.0
    trees: list[Any] = field(default_factory=list)
    alphas: list[float] = field(default_factory=list)
    history: dict[str, list[float]] = field(default_factory=_empty_history)
    start: float = field(default_factory=time.perf_counter)
    plateau: int = 0
    phase2: tuple[float, int, int] | None = None
    objective_path: list[int] | None = None
    objective_values: list[list[float]] | None = None
    progress: Callable[[TrainingState], None] | None = None

    #: The fields a checkpoint keeps; the others are rebuilt from the data and the estimator.
    SAVED = (
        "F",
        "c",
        "trees",
        "alphas",
        "history",
        "plateau",
        "phase2",
        "objective_path",
        "objective_values",
    )

    def saved(self) -> dict[str, Any]:
        """The fields a checkpoint keeps, by name (an optional one only where it is set)."""
        return {name: getattr(self, name) for name in self.SAVED if getattr(self, name) is not None}

    def restore(self, saved: Mapping[str, Any], seconds: float) -> None:
        """Put a checkpoint's :meth:`saved` fields into this state; its clock goes on from
        ``seconds``."""
        unknown = sorted(set(saved) - set(self.SAVED))
        if unknown:
            raise ValueError(f"a DMCBoost checkpoint holds unknown state fields: {unknown}")
        for name, value in saved.items():
            if name == "phase2" and value is not None:
                value = tuple(value)
            setattr(self, name, value)
        self.start = time.perf_counter() - float(seconds)

    def branch(self) -> TrainingState:
        """A copy for one value's phase II: its own scores, trees, step sizes and history, no
        path of :math:`n'` values and no progress hook."""
        return dataclasses.replace(
            self,
            F=self.F.copy(),
            trees=list(self.trees),
            alphas=list(self.alphas),
            history={key: list(value) for key, value in self.history.items()},
            objective_path=None,
            progress=None,
        )
