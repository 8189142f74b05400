r"""What every restricted master returns, and the checks of its inputs.

:class:`MasterSolution` (primal weights ``w``, dual example weights ``u``, the edge bound ``r``
and the optimal value), :class:`MasterSolverError` (a master that could not be solved), and the
argument checks the solvers of :mod:`marginboost.boosting._masters` share (the column matrix
:math:`A_{ij} = y_i h_j(x_i)` and the regularisation ``T``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["MasterSolution", "MasterSolverError"]

FloatArray = NDArray[np.float64]


class MasterSolverError(RuntimeError):
    """A restricted master problem could not be solved (infeasible, unbounded, no convergence)."""

    def __init__(self, status: str) -> None:
        super().__init__(status)
        self.status = status


@dataclass
class MasterSolution:
    r"""Solution of a restricted master problem.

    Attributes
    ----------
    w : ndarray (J,)
        Primal hypothesis weights (non-negative).
    u : ndarray (M,)
        Dual example weights.
    r : float
        Dual variable: the edge bound :math:`\max_j (A^\top u)_j` (restricted columns).
    objective : float
        Optimal value of the problem the solver states (see each solver).
    duality_gap : float
        Certified gap of the restricted problem (0 for the LP/QP solvers, which report their own
        tolerances through the solver status).
    iterations : int
        Solver iterations.
    stalled : bool
        True when an iterative solver stopped because rounding stopped the descent before its
        gap reached the stated tolerance; the gap then meets the looser stall bound of
        :func:`solve_simplex_smooth`.
    """

    w: FloatArray
    u: FloatArray
    r: float
    objective: float
    duality_gap: float = 0.0
    iterations: int = 0
    stalled: bool = False


def _check_matrix(A: FloatArray) -> FloatArray:
    A = np.asarray(A, dtype=np.float64)
    if A.ndim != 2 or A.shape[0] < 1 or A.shape[1] < 1:
        raise ValueError(
            f"A must be a non-empty 2-D array (examples x columns); got shape {A.shape}"
        )
    if not np.isfinite(A).all():
        raise ValueError("A contains NaN or inf")
    return A


def _check_T(T: float) -> float:
    if not (np.isfinite(T) and T > 0):
        raise ValueError(f"T must be a positive finite number; got {T!r}")
    return float(T)
