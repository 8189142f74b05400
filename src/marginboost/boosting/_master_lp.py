r"""The LPBoost masters: the LP duals (20)/(22) of Shen & Li (2010) and the primal LPs (19)/(21).

* :class:`LPBoostMaster`: the LP duals (20) (hard margin) and (22) (soft margin,
  :math:`0 \le u_i \le D`) kept in a HiGHS model (``highspy``) that grows by one edge
  constraint per column and is re-solved by the dual simplex method from the last optimal
  basis; ``w`` are the multipliers of the edge constraints.  :func:`solve_lpboost_dual` is
  its one-shot (cold) form.
* :func:`solve_lpboost_primal`: the primal LPs (19)/(21), used to check strong duality.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linprog

from ._master_solution import MasterSolution, MasterSolverError, _check_matrix

__all__ = ["LPBoostMaster", "solve_lpboost_dual", "solve_lpboost_primal"]

FloatArray = NDArray[np.float64]

if TYPE_CHECKING:
    import highspy


#: HiGHS model statuses as ``scipy.optimize.linprog`` numbers them (0 optimal, 1 limit reached,
#: 2 infeasible, 3 unbounded, 4 numerical or other trouble), so that the messages of
#: :class:`LPBoostMaster` read like those of :func:`solve_lpboost_primal`.
_LINPROG_STATUS = {
    "kOptimal": (0, "Optimization terminated successfully."),
    "kTimeLimit": (1, "Time limit reached."),
    "kIterationLimit": (1, "Iteration limit reached."),
    "kInfeasible": (2, "The problem is infeasible."),
    "kUnbounded": (3, "The problem is unbounded."),
    "kUnboundedOrInfeasible": (4, "The problem is unbounded or infeasible."),
}


def _most_frequent(values: FloatArray) -> float:
    """The most frequent entry of ``values`` (the smallest on ties)."""
    distinct, counts = np.unique(values, return_counts=True)
    return float(distinct[np.argmax(counts)])


_HIGHS_BANNER_SILENCED = False


def _new_highs() -> highspy.Highs:
    """A new ``highspy.Highs`` model, without the banner HiGHS prints on the C-level standard
    output when a process creates its first model (before any option can turn output off)."""
    global _HIGHS_BANNER_SILENCED
    import highspy

    if _HIGHS_BANNER_SILENCED:
        return highspy.Highs()
    import ctypes
    import os
    import sys

    sys.stdout.flush()
    libc = ctypes.CDLL(None)
    saved, devnull = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        highs = highspy.Highs()
        libc.fflush(None)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
    _HIGHS_BANNER_SILENCED = True
    return highs


class LPBoostMaster:
    r"""Incremental LPBoost restricted dual, Shen & Li eq. (20) (``D=None``) or eq. (22).

    .. math:: \min_{r,u}\ r \quad\text{s.t.}\quad \sum_i u_i A_{ij} \le r \ \ (j = 1..J),\quad
              \mathbf 1^\top u = 1,\quad 0 \le u_i \le D.

    Column generation adds one column of :math:`A` per iteration, i.e. one *row* (edge
    constraint) of this LP.  The HiGHS model is kept between iterations
    (:meth:`add_column` then :meth:`solve`): after a row is added the previous optimal basis,
    extended by the new row's slack, is still dual feasible, so the dual simplex method
    restarts from it and needs far fewer pivots than a cold solve over the whole matrix.
    This is what ``scipy.optimize.linprog`` cannot do (no model kept, no basis passed in),
    hence the direct use of ``highspy``.  Two more savings, neither of which changes the
    optimum: each edge row is stored relative to its column's most frequent entry (see
    :meth:`add_columns`), and the dual simplex runs without cost perturbation unless it
    stalls (see :meth:`solve`).

    ``solve`` returns a :class:`MasterSolution`: ``u`` and ``r`` the LP solution, ``objective``
    :math:`= r`, and ``w`` the primal hypothesis weights (19)/(21): the multipliers of the edge
    constraints.  HiGHS reports :math:`\partial\,\mathrm{opt}/\partial\,\text{rhs} \le 0` for
    a :math:`\le` row of a minimisation, so :math:`w = -\text{row duals}` (non-negative and
    summing to 1, the reduced cost of the free variable :math:`r`).

    Parameters
    ----------
    n_examples : int
        Number of examples :math:`M` (rows of :math:`A`).
    D : float, optional
        Upper bound on :math:`u_i` (soft margin); ``None`` for the hard margin.  The LP is
        infeasible for :math:`D < 1/M`, which :meth:`solve` reports.

    Attributes
    ----------
    n_columns : int
        Columns (edge constraints) added so far.
    perturbed_restarts : int
        Solves that were continued with cost perturbation after the unperturbed dual
        simplex reached its pivot limit.
    """

    #: pivot limit of an unperturbed run: ``base + per_row * (n_columns + 1)``
    _unperturbed_pivot_limit = (1000, 50)

    def __init__(self, n_examples: int, D: float | None = None) -> None:
        import highspy

        if (
            isinstance(n_examples, bool)
            or not isinstance(n_examples, (int, np.integer))
            or n_examples < 1
        ):
            raise ValueError(f"n_examples must be an integer >= 1; got {n_examples!r}")
        if D is not None and not (np.isfinite(D) and D > 0):
            raise ValueError(f"D must be a positive finite number or None; got {D!r}")
        self.n_examples = M = int(n_examples)
        self.D = None if D is None else float(D)
        self.n_columns = 0
        self.perturbed_restarts = 0
        highs = _new_highs()
        for name, value in (
            ("output_flag", False),
            ("presolve", "off"),
            ("solver", "simplex"),
            ("simplex_strategy", 1),
        ):  # serial dual simplex: warm-startable
            highs.setOptionValue(name, value)
        self._default_iteration_limit = int(highspy.kHighsIInf)
        self._infinity = infinity = highspy.kHighsInf
        # variables u_0 .. u_{M-1} in [0, D], r free; objective r
        cost = np.zeros(M + 1)
        cost[M] = 1.0
        lower = np.zeros(M + 1)
        lower[M] = -infinity
        upper = np.full(M + 1, infinity if D is None else float(D))
        upper[M] = infinity
        highs.addCols(
            M + 1,
            cost,
            lower,
            upper,
            0,
            np.zeros(M + 1, dtype=np.int32),
            np.zeros(0, dtype=np.int32),
            np.zeros(0),
        )
        # row 0: sum u = 1
        highs.addRow(1.0, 1.0, M, np.arange(M, dtype=np.int32), np.ones(M))
        self._highs = highs
        self._status_names = {
            value: name for name, value in highspy.HighsModelStatus.__members__.items()
        }

    def add_columns(self, A: FloatArray) -> None:
        """Add the columns of ``A`` (shape ``(M, k)``), i.e. ``k`` edge constraints."""
        A = _check_matrix(A)
        M, k = A.shape
        if M != self.n_examples:
            raise ValueError(f"columns must have {self.n_examples} entries; got {M}")
        # Row j: sum_i A_ij u_i - r <= 0.  Given sum_i u_i = 1 it equals
        # sum_i (A_ij - c_j) u_i - r <= -c_j for any constant c_j; with c_j the most frequent
        # entry of the column the row keeps only the other entries (for a +-1 column: the
        # minority sign, at most M/2), which makes every simplex iteration cheaper (2.4 times
        # on Adult with depth-3 trees).  The multiplier of the row (the primal weight w_j) is
        # the same in both forms.
        shift = np.array([_most_frequent(column) for column in A.T])
        block = np.hstack([A.T - shift[:, None], -np.ones((k, 1))])
        rows, cols = np.nonzero(block)
        starts = np.searchsorted(rows, np.arange(k)).astype(np.int32)
        self._highs.addRows(
            k,
            np.full(k, -self._infinity),
            -shift,
            rows.size,
            starts,
            cols.astype(np.int32),
            block[rows, cols],
        )
        self.n_columns += k

    def add_column(self, a: FloatArray) -> None:
        """Add one column :math:`a_i = y_i h(x_i)` (one edge constraint)."""
        a = np.asarray(a, dtype=np.float64)
        if a.ndim != 1:
            raise ValueError(f"a column must be 1-D; got shape {a.shape}")
        self.add_columns(a[:, None])

    def get_basis(self) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
        """The last optimal basis: HiGHS's status codes of the variables (``u`` then ``r``) and
        of the rows (the sum row then one edge row per column), for :meth:`set_basis`."""
        basis = self._highs.getBasis()
        if not basis.valid:
            raise ValueError("the master has no basis yet: solve it first")
        return (
            np.array([int(v) for v in basis.col_status], dtype=np.int8),
            np.array([int(v) for v in basis.row_status], dtype=np.int8),
        )

    def set_basis(self, col_status: ArrayLike, row_status: ArrayLike) -> None:
        """Start the next :meth:`solve` from a basis of :meth:`get_basis` taken from a master
        with the same columns (in the same order) and the same ``D``."""
        import highspy

        col_status = np.asarray(col_status, dtype=np.int64)
        row_status = np.asarray(row_status, dtype=np.int64)
        if col_status.shape != (self.n_examples + 1,) or row_status.shape != (self.n_columns + 1,):
            raise ValueError(
                f"a basis of this master has {self.n_examples + 1} variable and "
                f"{self.n_columns + 1} row statuses; got {col_status.shape} and "
                f"{row_status.shape}"
            )
        basis = highspy.HighsBasis()
        basis.col_status = [highspy.HighsBasisStatus(int(v)) for v in col_status]
        basis.row_status = [highspy.HighsBasisStatus(int(v)) for v in row_status]
        basis.valid = True
        status = self._highs.setBasis(basis)
        if status != highspy.HighsStatus.kOk:
            raise ValueError(f"HiGHS refused the basis ({status})")

    def solve(self) -> MasterSolution:
        """Re-solve from the last basis (dual simplex) and return the solution.

        Raises
        ------
        MasterSolverError
            When HiGHS does not report an optimum (e.g. infeasible for ``D < 1/M``); the
            message starts with ``HiGHS status N`` numbered as by ``scipy.optimize.linprog``.
        """
        if self.n_columns == 0:
            raise ValueError("add at least one column before solving (min r is unbounded)")
        highs = self._highs
        # Without cost perturbation the warm-started dual simplex needed up to half the
        # pivots on LPBoost masters of real +-1 columns (Adult, depth-3 trees); perturbation is
        # HiGHS's guard against stalling on degenerate LPs, so an unperturbed run that reaches
        # the pivot limit is continued, from the basis it reached, with the default
        # perturbation.
        base, per_row = self._unperturbed_pivot_limit
        highs.setOptionValue("dual_simplex_cost_perturbation_multiplier", 0.0)
        highs.setOptionValue("simplex_iteration_limit", int(base + per_row * (self.n_columns + 1)))
        highs.run()
        iterations = int(highs.getInfo().simplex_iteration_count)
        if self._status_names.get(highs.getModelStatus()) == "kIterationLimit":
            self.perturbed_restarts += 1
            highs.setOptionValue("dual_simplex_cost_perturbation_multiplier", 1.0)
            highs.setOptionValue("simplex_iteration_limit", self._default_iteration_limit)
            highs.run()
            iterations += int(highs.getInfo().simplex_iteration_count)
        status = highs.getModelStatus()
        name = self._status_names.get(status, str(status))
        if name != "kOptimal":
            code, message = _LINPROG_STATUS.get(name, (4, "HiGHS did not reach an optimum."))
            raise MasterSolverError(
                f"HiGHS status {code}: {message} (HiGHS model status "
                f"{highs.modelStatusToString(status)})"
            )
        solution = highs.getSolution()
        values = np.asarray(solution.col_value, dtype=np.float64)
        row_duals = np.asarray(solution.row_dual, dtype=np.float64)
        M = self.n_examples
        return MasterSolution(
            w=np.clip(-row_duals[1:], 0.0, None),
            u=np.clip(values[:M], 0.0, None),
            r=float(values[M]),
            objective=float(highs.getInfo().objective_function_value),
            iterations=iterations,
        )


def solve_lpboost_dual(A: FloatArray, D: float | None = None) -> MasterSolution:
    r"""LPBoost restricted dual, Shen & Li eq. (20) (``D=None``) or eq. (22), solved cold.

    .. math:: \min_{r,u}\ r \quad\text{s.t.}\quad A^\top u \le r\mathbf 1,\quad
              \mathbf 1^\top u = 1,\quad 0 \le u_i \le D.

    The one-shot form of :class:`LPBoostMaster` (same model, options and solution map, all
    columns at once, dual simplex from the slack basis).  The primal weights ``w`` are the
    multipliers of the edge constraints (non-negative, summing to 1).

    Raises
    ------
    MasterSolverError
        When HiGHS does not report an optimum (e.g. infeasible for ``D < 1/M``).
    """
    A = _check_matrix(A)
    master = LPBoostMaster(A.shape[0], D)
    master.add_columns(A)
    return master.solve()


def solve_lpboost_primal(A: FloatArray, D: float | None = None) -> tuple[float, FloatArray]:
    r"""LPBoost primal, Shen & Li eq. (19) (``D=None``) or eq. (21); returns ``(value, w)``.

    .. math:: \max_{w,\varrho,\xi}\ \varrho - D\mathbf 1^\top\xi \quad\text{s.t.}\quad
              A w \ge \varrho\mathbf 1 - \xi,\ w \ge 0,\ \mathbf 1^\top w = 1,\ \xi \ge 0.

    ``A`` holds :math:`A_{ij} = y_i h_j(x_i)` over a fixed set of weak classifiers (HiGHS through
    ``scipy.optimize.linprog``); the hard-margin value is the largest minimum normalized margin
    any convex combination of them reaches.

    Parameters
    ----------
    A : array of shape (n_examples, n_classifiers)
        The margins :math:`y_i h_j(x_i)` of each example under each weak classifier.
    D : float, optional
        The soft-margin penalty (eq. (21)); ``None`` for the hard margin (eq. (19)).

    Returns
    -------
    value : float
        The optimal value: the largest minimum margin (hard), or
        :math:`\varrho - D\sum_i\xi_i` (soft).
    w : ndarray of shape (n_classifiers,)
        Optimal weights of the classifiers (non-negative, summing to 1).

    Raises
    ------
    MasterSolverError
        When HiGHS does not report an optimum.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.boosting import solve_lpboost_primal
    >>> A = np.array([[1.0, 1.0, -1.0], [1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]])
    >>> value, w = solve_lpboost_primal(A)
    >>> round(value, 4), w.round(4).tolist()
    (0.3333, [0.3333, 0.3333, 0.3333])
    """
    A = _check_matrix(A)
    M, J = A.shape
    soft = D is not None
    n_xi = M if soft else 0
    # variables: w (J), rho (1), xi (n_xi); minimise -rho + D sum xi
    cost = np.zeros(J + 1 + n_xi)
    cost[J] = -1.0
    if D is not None:
        cost[J + 1 :] = float(D)
    # rho - A w - xi <= 0
    A_ub = np.hstack([-A, np.ones((M, 1))] + ([-np.eye(M)] if soft else []))
    A_eq = np.zeros((1, J + 1 + n_xi))
    A_eq[0, :J] = 1.0
    bounds = [(0.0, None)] * J + [(None, None)] + [(0.0, None)] * n_xi
    res = linprog(
        cost, A_ub=A_ub, b_ub=np.zeros(M), A_eq=A_eq, b_eq=[1.0], bounds=bounds, method="highs"
    )
    if res.status != 0:
        raise MasterSolverError(f"HiGHS status {res.status}: {res.message}")
    return float(-res.fun), np.clip(res.x[:J], 0.0, None)
