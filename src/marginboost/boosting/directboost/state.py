"""DirectBoost's training state between rounds: one typed object that phase 1 builds and
phase 2 advances (and that :func:`~marginboost.boosting.directboost.directboost_variants` copies
once per model after their shared phase 1)."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["TrainingState"]


@dataclass
class TrainingState:
    """What a DirectBoost fit knows between two rounds.

    Attributes
    ----------
    a : ndarray of shape (n_samples,)
        The unnormalized margins :math:`y_i F(x_i)` of the trees so far.
    c : float
        The sum of the step sizes (the margins' normalizer).
    trees, alphas : list
        The trees and their step sizes, in order.
    history : dict of str to list
        One value per round for each key of ``history_``.
    start : float
        ``time.perf_counter()`` at the start of the fit.
    objectives : dict of (str, int) to list of float
        Extra objective values recorded after every round, keyed by ``(objective, n_prime)``
        (:func:`~marginboost.boosting.directboost.directboost_variants`' shared phase 1).
    stop_reason : str
        Why phase 1 stopped.
    n_phase1 : int
        Phase 1's round count.
    """

    a: NDArray[np.float64]
    history: dict[str, list[float]]
    c: float = 0.0
    trees: list[Any] = field(default_factory=list)
    alphas: list[float] = field(default_factory=list)
    start: float = field(default_factory=time.perf_counter)
    objectives: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    stop_reason: str = "n_estimators"
    n_phase1: int = 0

    def branch(self, objective: tuple[str, int]) -> TrainingState:
        """A copy for one model's phase 2: its own margins, trees, step sizes and history, whose
        objective values are those recorded for ``objective``, and no extra objectives."""
        history = {key: list(value) for key, value in self.history.items()}
        history["objective"] = list(self.objectives[objective])
        return dataclasses.replace(
            self,
            a=self.a.copy(),
            trees=list(self.trees),
            alphas=list(self.alphas),
            history=history,
            objectives={},
        )
