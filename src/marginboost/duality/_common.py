r"""Shared pieces of the primal/dual checks: result record, input validation, solver call.

Every ``verify_<pair>`` function of :mod:`marginboost.duality` solves a primal and its Lagrange
dual as two independent cvxpy problems and reports a :class:`VerifyResult`.  Notation follows
Shen & Li (2010): ``H`` is the :math:`M \times N` matrix of weak-learner outputs
(``H[i, j] = h_j(x_i)``, rows are examples), ``y`` the labels in :math:`\{-1, +1\}^M`, and
:math:`A = \mathrm{diag}(y) H`, so ``A @ w`` are the margins and ``A.T @ u`` the edges of the
columns under example weights ``u``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import cvxpy as cp
import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "VerifyResult",
    "DualitySolverError",
    "check_instance",
    "solve_problem",
    "relative_gap",
    "check_positive",
    "DEFAULT_SOLVER_OPTIONS",
    "FALLBACK_SOLVER_OPTIONS",
    "SUCCESS_STATUSES",
]

#: Options used for a solver unless the caller passes its own.  SCS is a first-order method
#: whose default tolerance (1e-4) is far too loose for duality-gap checks; Clarabel's
#: defaults (1e-8) leave KKT residuals of order 1e-6 on exponential-cone problems.
DEFAULT_SOLVER_OPTIONS: dict[str, dict[str, Any]] = {
    "SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200_000},
    "CLARABEL": {
        "tol_gap_abs": 1e-10,
        "tol_gap_rel": 1e-10,
        "tol_feas": 1e-10,
        "tol_ktratio": 1e-8,
    },
}
#: Options of further attempts, in order, when the previous one ends "optimal_inaccurate" (given explicitly:
#: cvxpy keeps a solver's previous settings when the same problem is solved again).
FALLBACK_SOLVER_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "SCS": [{"eps_abs": 1e-8, "eps_rel": 1e-8, "max_iters": 200_000}],
    "CLARABEL": [
        {"tol_gap_abs": 1e-8, "tol_gap_rel": 1e-8, "tol_feas": 1e-8, "tol_ktratio": 1e-6},
        {"tol_gap_abs": 1e-7, "tol_gap_rel": 1e-7, "tol_feas": 1e-7, "tol_ktratio": 1e-5},
    ],
}
#: cvxpy statuses accepted as a solved problem.
SUCCESS_STATUSES = (cp.OPTIMAL,)


class DualitySolverError(RuntimeError):
    """A cvxpy solver did not return an optimal solution of a primal or dual problem."""


@dataclass(frozen=True)
class VerifyResult:
    r"""Outcome of solving a primal/dual pair independently.

    Returned by the ``verify_<pair>`` functions of :mod:`marginboost.duality`.

    Parameters
    ----------
    name, primal, dual, gap, kkt_residual, constraint_violation, primal_point, dual_point, solver
        The fields described under Attributes, in that order.
    extras : dict, optional
        Pair-specific derived quantities (default empty).

    Attributes
    ----------
    name : str
        The pair, e.g. ``"AdaBoost-l1 (5)/(10)"``.
    primal, dual : float
        Optimal values as returned by the solver, each in its paper's own sign and scale.
    gap : float
        Relative gap ``|primal - converted dual| / max(1, |primal|, |converted dual|)``
        after the documented conversion of the dual value to the primal's scale.
    kkt_residual : float
        Largest absolute violation of the KKT map and complementary slackness between the two
        independently computed optimal points.
    constraint_violation : float
        Largest violation of the primal and dual constraints at the returned points.
    primal_point, dual_point : dict of str to ndarray
        The optimal variables (``w``, ``rho``, ``xi``, ... and ``u``, ``r``).
    solver : str
        The cvxpy solver used for both problems.
    extras : dict
        Pair-specific derived quantities (for example the mapped weights).

    Notes
    -----
    Every pair is a primal boosting problem and its Lagrange dual as derived by Shen & Li
    (2010a), Sec. 3 (or Guo & Chen, Sec. 4, for MCBoost).  Strong duality makes the two
    optimal values agree and the KKT conditions link the optimal points (for AdaBoost, eq.
    (24): the dual variables are the example weights).  :meth:`passes` applies the default
    tolerances: a relative gap of :math:`10^{-6}`, KKT residuals of :math:`10^{-5}` and
    feasibility of :math:`10^{-7}`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript,
    Nanjing University of Aeronautics and Astronautics.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.duality import verify_hard_margin_lpboost
    >>> H = np.array([[-1., 1., 1.], [1., -1., 1.], [1., 1., -1.], [1., 1., 1.]])
    >>> result = verify_hard_margin_lpboost(H, np.ones(4))
    >>> result.name, result.solver, sorted(result.primal_point)
    ('hard-margin LPBoost (19)/(20)', 'CLARABEL', ['rho', 'w'])
    >>> round(result.primal, 4), result.gap < 1e-6, result.passes()
    (0.3333, True, True)
    """

    name: str
    primal: float
    dual: float
    gap: float
    kkt_residual: float
    constraint_violation: float
    primal_point: dict[str, NDArray[np.float64]]
    dual_point: dict[str, NDArray[np.float64]]
    solver: str
    extras: dict[str, Any] = field(default_factory=dict)

    def passes(
        self, gap_tol: float = 1e-6, kkt_tol: float = 1e-5, constraint_tol: float = 1e-7
    ) -> bool:
        """Whether gap, KKT residual and constraint violation are all within tolerance.

        Parameters
        ----------
        gap_tol, kkt_tol, constraint_tol : float
            Upper bounds (inclusive) for :attr:`gap`, :attr:`kkt_residual` and
            :attr:`constraint_violation`.

        Returns
        -------
        bool
            True when all three are within their bounds.
        """
        return (
            self.gap <= gap_tol
            and self.kkt_residual <= kkt_tol
            and self.constraint_violation <= constraint_tol
        )


def check_instance(
    H: ArrayLike, y: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Validate a weak-learner matrix and labels; return ``(H, y, A)`` as float arrays.

    Parameters
    ----------
    H : array_like, shape (M, N)
        Weak-learner outputs, rows are examples (finite reals; the papers use ``{-1, +1}``).
    y : array_like, shape (M,)
        Labels in ``{-1, +1}``.

    Returns
    -------
    H, y, A : ndarray
        ``A = y[:, None] * H``.
    """
    try:
        H_arr = np.asarray(H, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"H must be a 2-D array of real numbers; got {type(H).__name__}") from exc
    if H_arr.ndim != 2 or H_arr.shape[0] == 0 or H_arr.shape[1] == 0:
        raise ValueError(
            f"H must be a non-empty 2-D array (examples x weak learners); got shape {H_arr.shape}"
        )
    if not np.all(np.isfinite(H_arr)):
        raise ValueError("H must contain only finite values")
    try:
        y_arr = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"y must be an array of labels in {{-1, +1}}; got {type(y).__name__}"
        ) from exc
    if y_arr.ndim != 1 or y_arr.shape[0] != H_arr.shape[0]:
        raise ValueError(
            f"y must be a vector with one label per row of H ({H_arr.shape[0]}); "
            f"got shape {y_arr.shape}"
        )
    bad = ~np.isin(y_arr, (-1.0, 1.0))
    if np.any(bad):
        raise ValueError(
            f"labels y must be -1 or +1; got {y_arr[bad][0]!r} at index "
            f"{int(np.flatnonzero(bad)[0])}"
        )
    return H_arr, y_arr, y_arr[:, None] * H_arr


def check_positive(value: float, name: str, *, lower: float = 0.0, meaning: str = "") -> float:
    """Return ``float(value)`` if it is a finite real number ``> lower``, else raise ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number; got {value!r}")
    value = float(value)
    if not math.isfinite(value) or value <= lower:
        extra = f" ({meaning})" if meaning else ""
        raise ValueError(f"{name} must be finite and > {lower:g}{extra}; got {name}={value!r}")
    return value


def solve_problem(
    problem: cp.Problem, solver: str, what: str, solver_options: dict[str, Any] | None = None
) -> float:
    """Solve ``problem`` with the named cvxpy solver and return its optimal value.

    Parameters
    ----------
    problem : cvxpy.Problem
        The problem to solve.
    solver : str
        A cvxpy solver name such as ``"CLARABEL"`` or ``"SCS"``.
    what : str
        Human-readable name of the problem, used in error messages.
    solver_options : dict, optional
        Keyword options for the solver.  When omitted, :data:`DEFAULT_SOLVER_OPTIONS` for the
        solver are tried first and, if the solver stops with "optimal_inaccurate", the solve
        is repeated with each of :data:`FALLBACK_SOLVER_OPTIONS` in turn (looser tolerances;
        the reported gap and KKT residual show the accuracy reached).

    Raises
    ------
    DualitySolverError
        If the solver is not installed, raises, or ends with a status other than optimal.
    """
    if not isinstance(solver, str) or not solver:
        raise TypeError(f"solver must be a cvxpy solver name such as 'CLARABEL'; got {solver!r}")
    name = solver.upper()
    if name not in cp.installed_solvers():
        raise DualitySolverError(
            f"{what}: solver {solver!r} is not installed; installed solvers "
            f"are {sorted(cp.installed_solvers())}"
        )
    if solver_options is None and name in DEFAULT_SOLVER_OPTIONS:
        # tight tolerances first; interior-point methods sometimes stall just short of them
        # ("optimal_inaccurate"), and then the looser FALLBACK_SOLVER_OPTIONS are used
        attempts = [DEFAULT_SOLVER_OPTIONS[name], *FALLBACK_SOLVER_OPTIONS.get(name, [])]
    else:
        attempts = [dict(solver_options or {})]
    for options in attempts:
        # cvxpy warns on inaccurate solutions, which are retried or raised below, and numpy
        # warns when cvxpy evaluates a power of an entry a rounding error below zero
        with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
            warnings.filterwarnings(
                "ignore", message="Solution may be inaccurate", category=UserWarning
            )
            try:
                problem.solve(solver=name, **options)
            except cp.error.SolverError as exc:
                raise DualitySolverError(f"{what}: solver {name} failed ({exc})") from exc
        if problem.status in SUCCESS_STATUSES:
            break
    value = problem.value
    if problem.status in SUCCESS_STATUSES and (value is None or not np.isfinite(value)):
        # cvxpy re-evaluates the objective at the returned point; an entropy or power term
        # of an entry a rounding error below zero then gives inf/nan although the solver
        # reported a finite optimum, which is used instead
        value = problem.solution.opt_val
    if problem.status not in SUCCESS_STATUSES or value is None or not np.isfinite(value):
        raise DualitySolverError(
            f"{what}: solver {name} ended with status {problem.status!r} "
            f"(value {value!r}); expected 'optimal'"
        )
    return float(value)


def relative_gap(a: float, b: float) -> float:
    """``|a - b| / max(1, |a|, |b|)``: absolute for small values, relative for large ones."""
    return abs(a - b) / max(1.0, abs(a), abs(b))


def value_of(variable: cp.Variable) -> NDArray[np.float64]:
    """The solved value of a cvxpy variable as a float array (a 0-d array for scalars)."""
    return np.asarray(variable.value, dtype=np.float64)


def simplex_violation(w: NDArray[np.float64], total: float) -> float:
    """Largest violation of ``w >= 0, sum(w) = total``."""
    return max(float(np.max(-w, initial=0.0)), abs(float(w.sum()) - total))
