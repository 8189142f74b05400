r"""Restricted master problems of totally-corrective boosting (Shen & Li 2010, Sec. 3).

Every solver takes the matrix :math:`A_{ij} = y_i h_j(x_i)` of the columns selected so far
(shape ``(M, J)``) and returns a :class:`MasterSolution`: the primal hypothesis weights ``w``,
the dual example weights ``u`` (the weights handed to the weak learner next), the dual
variable ``r`` (the largest edge :math:`\max_j (A^\top u)_j` allowed by the dual constraints)
and the optimal value.

* :class:`LPBoostMaster`: the LP duals (20) (hard margin) and (22) (soft margin,
  :math:`0 \le u_i \le D`) kept in a HiGHS model (``highspy``) that grows by one edge
  constraint per column and is re-solved by the dual simplex method from the last optimal
  basis; ``w`` are the multipliers of the edge constraints.  :func:`solve_lpboost_dual` is
  its one-shot (cold) form.
* :func:`solve_lpboost_primal`: the primal LPs (19)/(21), used to check strong duality.
* :func:`solve_simplex_smooth`: a projected accelerated gradient method (FISTA with function
  restarts and backtracking) for a smooth convex loss over the scaled simplex
  :math:`\{w \ge 0, \mathbf 1^\top w = 1/T\}`, stopped by the Frank-Wolfe duality gap.  It
  solves the AdaBoost-:math:`\ell_1` primal (5) (:func:`solve_adaboost_l1`) and the LogitBoost
  primal (32) (:func:`solve_logitboost`); the duals (15)/(31) follow from the KKT conditions
  (24)/(33).
* :func:`solve_hinge_dual`: the generalized-hinge dual (27)/(28) with cvxpy (Clarabel).
* :func:`solve_adaboost_qp`: AdaBoost-QP (41) with cvxpy (Clarabel).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linprog
from scipy.special import expit, softmax

__all__ = [
    "MasterSolution",
    "MasterSolverError",
    "LPBoostMaster",
    "solve_lpboost_dual",
    "solve_lpboost_primal",
    "solve_simplex_smooth",
    "solve_adaboost_l1",
    "solve_logitboost",
    "solve_hinge_dual",
    "solve_adaboost_qp",
    "project_scaled_simplex",
]

FloatArray = NDArray[np.float64]
_P = ParamSpec("_P")
_R = TypeVar("_R")

if TYPE_CHECKING:
    import cvxpy as cp
    import highspy


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


# ------------------------------------------------------------------------------ LPBoost
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


# ------------------------------------------------------------------------------ smooth masters
def project_scaled_simplex(v: FloatArray, scale: float) -> FloatArray:
    r"""Euclidean projection of ``v`` onto :math:`\{w \ge 0, \mathbf 1^\top w = s\}`."""
    v = np.asarray(v, dtype=np.float64)
    descending = np.sort(v)[::-1]
    cumulative = np.cumsum(descending) - scale
    index = np.arange(1, v.size + 1)
    kept = np.flatnonzero(descending - cumulative / index > 0)
    if kept.size == 0:
        # the largest entry always qualifies (its test reads scale > 0) unless rounding fails
        # it, for entries beyond about scale / eps: the projection is then its vertex
        vertex = np.zeros_like(v)
        vertex[int(np.argmax(v))] = scale
        return vertex
    rho = kept[-1]
    shift = cumulative[rho] / (rho + 1.0)
    projected: FloatArray = np.maximum(v - shift, 0.0)
    return projected


def _single_blas_thread(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``function`` with BLAS limited to one thread (see :func:`solve_simplex_smooth`)."""
    import functools

    @functools.wraps(function)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        from threadpoolctl import threadpool_limits

        with threadpool_limits(1, user_api="blas"):
            return function(*args, **kwargs)

    return wrapper


@_single_blas_thread
def solve_simplex_smooth(
    value_grad: Callable[[FloatArray], tuple[float, FloatArray]],
    n: int,
    scale: float,
    w0: FloatArray | None = None,
    *,
    rtol: float = 1e-10,
    stall_rtol: float = 1e-6,
    max_iter: int = 50_000,
    hessian: Callable[[FloatArray, NDArray[np.intp]], FloatArray] | None = None,
) -> tuple[FloatArray, float, float, int, bool]:
    r"""Minimise a smooth convex function over :math:`\{w \ge 0, \mathbf 1^\top w = s\}`.

    FISTA (Beck & Teboulle 2009) with backtracking on the Lipschitz constant and a function-
    value restart (O'Donoghue & Candès 2015), warm-started from ``w0``.  Stops when the
    Frank-Wolfe gap :math:`g^\top w - s\min_j g_j` (an upper bound on
    :math:`f(w) - \min f`) is at most ``rtol * max(1, |f(w)|)``.  The gap bound is pessimistic:
    when the objective stops decreasing (no decrease above rounding in 100 iterations, or a
    plain projected gradient step fails to descend) the point is accepted if the gap is at most
    ``stall_rtol * max(1, |f(w)|, s)``.  The last term matters for large ``s``: near the
    optimum the gap is about ``s`` times the spread of the gradient over the support, while the
    objective only changes by the square of it, so rounding in ``f`` stops the descent at a gap
    of order :math:`s\sqrt{\varepsilon L |f|}`.  For the boosting masters the gap divided by
    ``s`` is the excess of the best column's edge over the weight-averaged edge, the quantity
    column generation compares with its absolute threshold (``1e-5``); ``stall_rtol = 1e-6``
    keeps it a tenth of that.

    With ``hessian(w, S)`` (the Hessian block on the columns ``S``) the iterate is polished by
    Newton steps on its support (an active-set method, :func:`_newton_polish`) at the first
    iteration -- from a warm start that is often all it takes -- and then, at most every 20
    iterations, whenever the gap is below ``1e-3 * max(1, |f|)`` or has halved since the last
    polish; FISTA resumes from the polished point if the gap is still too large.

    The matrices of restricted masters are small, so BLAS runs single-threaded here: with
    several threads (and other processes on the cores) the many small products were up to
    10 times slower.

    Returns
    -------
    w, value, gap, iterations, stalled
        ``stalled`` is True when the point was accepted by the stall rule above (its gap is
        then within ``stall_rtol * max(1, |f(w)|, s)`` but may exceed ``rtol * max(1, |f(w)|)``).

    Raises
    ------
    MasterSolverError
        If the gap is not reached within ``max_iter`` iterations or the values stop being finite.
    """
    if w0 is None or np.asarray(w0).size != n:
        w = np.full(n, scale / n)
    else:
        w = project_scaled_simplex(np.asarray(w0, dtype=np.float64), scale)
    f_w, g_w = value_grad(w)
    lipschitz = 1.0
    y, f_y, g_y = w, f_w, g_w
    momentum = 1.0
    gap = np.inf
    reference, last_progress = f_w, 0
    last_polish = -np.inf
    polished_gap = np.inf  # gap right after the last Newton polish
    for iteration in range(1, max_iter + 1):
        gap = float(g_w @ w - scale * g_w.min())
        if not np.isfinite(gap) or not np.isfinite(f_w):
            raise MasterSolverError(
                f"non-finite objective or gradient after {iteration} iterations"
            )
        if gap <= rtol * max(1.0, abs(f_w)):
            return w, f_w, gap, iteration, False
        if hessian is not None and (
            iteration == 1
            or (
                iteration - last_polish >= 20
                and (gap <= 1e-3 * max(1.0, abs(f_w)) or gap <= 0.5 * polished_gap)
            )
        ):
            last_polish = iteration
            w, f_w, g_w = _newton_polish(
                value_grad, hessian, w, f_w, g_w, scale, rtol * max(1.0, abs(f_w))
            )
            y, f_y, g_y, momentum = w, f_w, g_w, 1.0
            gap = polished_gap = float(g_w @ w - scale * g_w.min())
            if gap <= rtol * max(1.0, abs(f_w)):
                return w, f_w, gap, iteration, False
        if f_w < reference - 1e-15 * max(1.0, abs(reference)):
            reference, last_progress = f_w, iteration
        elif iteration - last_progress >= 100:
            if gap <= stall_rtol * max(1.0, abs(f_w), scale):
                return w, f_w, gap, iteration, True
            raise MasterSolverError(
                f"FISTA stalled at iteration {iteration} with duality gap {gap:.3g}"
            )
        while True:
            z = project_scaled_simplex(y - g_y / lipschitz, scale)
            f_z, g_z = value_grad(z)
            step = z - y
            bound = f_y + g_y @ step + 0.5 * lipschitz * (step @ step)
            if f_z <= bound + 1e-14 * max(1.0, abs(f_y)) or lipschitz > 1e16:
                break
            lipschitz *= 2.0
        if f_z > f_w:  # restart: no momentum, retry from the best point
            if y is w:  # even a plain projected gradient step does not descend
                if gap <= stall_rtol * max(1.0, abs(f_w), scale):
                    return w, f_w, gap, iteration, True  # stalled at rounding level
                if hessian is not None and last_polish < iteration:
                    # rounding limits the first-order steps; Newton steps may still descend
                    last_polish = iteration
                    w, f_w, g_w = _newton_polish(
                        value_grad, hessian, w, f_w, g_w, scale, rtol * max(1.0, abs(f_w))
                    )
                    gap = float(g_w @ w - scale * g_w.min())
                    if gap <= stall_rtol * max(1.0, abs(f_w), scale):
                        return w, f_w, gap, iteration, True
                    y, f_y, g_y, momentum = w, f_w, g_w, 1.0
                    continue
                raise MasterSolverError(
                    f"projected gradient step failed to descend at "
                    f"iteration {iteration} (gap {gap:.3g})"
                )
            momentum = 1.0
            y, f_y, g_y = w, f_w, g_w
            continue
        next_momentum = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * momentum**2))
        y = z + ((momentum - 1.0) / next_momentum) * (z - w)
        f_y, g_y = value_grad(y)
        w, f_w, g_w = z, f_z, g_z
        momentum = next_momentum
        lipschitz *= 0.9
    raise MasterSolverError(
        f"FISTA did not reach the duality gap {rtol:g} in {max_iter} iterations (gap {gap:.3g})"
    )


def _newton_polish(
    value_grad: Callable[[FloatArray], tuple[float, FloatArray]],
    hessian: Callable[[FloatArray, NDArray[np.intp]], FloatArray],
    w: FloatArray,
    f: float,
    g: FloatArray,
    scale: float,
    target: float,
    max_steps: int = 30,
) -> tuple[FloatArray, float, FloatArray]:
    r"""Active-set Newton steps on the support of ``w`` (plus the column of smallest gradient).

    Each step solves the equality-constrained Newton system on the support
    (:math:`\mathbf 1^\top d = 0`), cuts the step where a weight reaches 0 (the column leaves
    the support) and backtracks (Armijo).  Returns an iterate no worse than the input.
    """
    for _ in range(max_steps):
        gap = float(g @ w - scale * g.min())
        if gap <= target:
            break
        support = w > 0
        support[int(np.argmin(g))] = True
        S = np.flatnonzero(support)
        k = S.size
        system = np.zeros((k + 1, k + 1))
        block = hessian(w, S)
        system[:k, :k] = block + 1e-12 * (np.trace(block) / k + 1e-300) * np.eye(k)
        system[:k, k] = 1.0
        system[k, :k] = 1.0
        rhs = np.append(-g[S], 0.0)
        try:
            direction = np.linalg.solve(system, rhs)[:k]
        except np.linalg.LinAlgError:  # singular (e.g. duplicate columns): least squares
            direction = np.linalg.lstsq(system, rhs, rcond=None)[0][:k]
        if not np.isfinite(direction).all():
            break
        slope = float(g[S] @ direction)
        if not slope < 0:
            break
        shrinking = direction < 0
        alpha = (
            min(1.0, float(np.min(w[S][shrinking] / -direction[shrinking])))
            if shrinking.any()
            else 1.0
        )
        while alpha > 1e-12:
            trial = w.copy()
            trial[S] = np.maximum(w[S] + alpha * direction, 0.0)
            trial *= scale / trial.sum()
            f_trial, g_trial = value_grad(trial)
            if f_trial <= f + 1e-4 * alpha * slope:
                break
            if (
                alpha == 1.0
                and abs(f_trial - f) <= 1e-13 * max(1.0, abs(f))
                and float(g_trial @ trial - scale * g_trial.min()) < gap
            ):
                # the full Newton step changes f only at rounding level, where the Armijo
                # test cannot see progress; accept it when the gap (from gradients) shrinks
                break
            alpha *= 0.5
        else:
            break
        w, f, g = trial, f_trial, g_trial
    return w, f, g


def _check_T(T: float) -> float:
    if not (np.isfinite(T) and T > 0):
        raise ValueError(f"T must be a positive finite number; got {T!r}")
    return float(T)


def solve_adaboost_l1(
    A: FloatArray, T: float, w0: FloatArray | None = None, *, rtol: float = 1e-10
) -> MasterSolution:
    r"""AdaBoost-:math:`\ell_1` primal (Shen & Li eq. (5)) and its dual (15).

    .. math:: \min_w\ \log\sum_i \exp(-(A w)_i) \quad\text{s.t.}\quad w \ge 0,\
              \mathbf 1^\top w = 1/T.

    ``objective`` is the value of (5); ``u = softmax(-A w)`` (KKT (24)); ``r`` is the largest
    edge :math:`\max_j (A^\top u)_j`, so that :math:`(r, u)` is feasible for (15) and
    ``duality_gap`` :math:`= r + T\sum_i u_i\log u_i + T\cdot\mathrm{Opt}(5) \ge 0`.
    """
    A = _check_matrix(A)
    T = _check_T(T)

    def value_grad(w: FloatArray) -> tuple[float, FloatArray]:
        z = -(A @ w)
        top = float(z.max())  # log-sum-exp by hand: scipy's is ~50x slower on small vectors
        value = top + float(np.log(np.exp(z - top).sum()))
        return value, -(A.T @ np.exp(z - value))

    def hessian(w: FloatArray, S: NDArray[np.intp]) -> FloatArray:
        u: FloatArray = softmax(-(A @ w))
        block = A[:, S]
        edges = block.T @ u
        return (block.T * u) @ block - np.outer(edges, edges)

    w, value, _, iterations, stalled = solve_simplex_smooth(
        value_grad, A.shape[1], 1.0 / T, w0, rtol=rtol, hessian=hessian
    )
    u = softmax(-(A @ w))
    r = float((A.T @ u).max())
    entropy_term = float(np.sum(u[u > 0] * np.log(u[u > 0])))
    gap = max(0.0, r + T * entropy_term + T * value)
    return MasterSolution(
        w=w, u=u, r=r, objective=value, duality_gap=gap, iterations=iterations, stalled=stalled
    )


def solve_logitboost(
    A: FloatArray, T: float, w0: FloatArray | None = None, *, rtol: float = 1e-10
) -> MasterSolution:
    r"""LogitBoost primal (Shen & Li eq. (32)) and its dual (31).

    .. math:: \min_w\ \sum_i \log(1 + \exp(-(A w)_i)) \quad\text{s.t.}\quad w \ge 0,\
              \mathbf 1^\top w = 1/T.

    ``u_i = 1/(1 + exp(z_i))`` with ``z = A w`` (KKT (33), not normalised); ``r`` is the largest
    edge; ``duality_gap`` :math:`= r + T\sum_i[u_i\log u_i + (1-u_i)\log(1-u_i)] + T\cdot
    \mathrm{Opt}(32) \ge 0`.
    """
    A = _check_matrix(A)
    T = _check_T(T)

    def value_grad(w: FloatArray) -> tuple[float, FloatArray]:
        z = A @ w
        return float(np.logaddexp(0.0, -z).sum()), -(A.T @ expit(-z))

    def hessian(w: FloatArray, S: NDArray[np.intp]) -> FloatArray:
        p: FloatArray = expit(-(A @ w))
        block = A[:, S]
        return (block.T * (p * (1.0 - p))) @ block

    w, value, _, iterations, stalled = solve_simplex_smooth(
        value_grad, A.shape[1], 1.0 / T, w0, rtol=rtol, hessian=hessian
    )
    z = A @ w
    u = expit(-z)
    r = float((A.T @ u).max())
    # log u = -log(1 + e^{z}) and log(1 - u) = -log(1 + e^{-z})
    binary_entropy = -(u * np.logaddexp(0.0, z) + (1.0 - u) * np.logaddexp(0.0, -z))
    gap = max(0.0, r + T * float(binary_entropy.sum()) + T * value)
    return MasterSolution(
        w=w, u=u, r=r, objective=value, duality_gap=gap, iterations=iterations, stalled=stalled
    )


# ------------------------------------------------------------------------------ conic masters
def _solve_cvxpy(problem: cp.Problem, what: str) -> None:
    import cvxpy as cp

    try:
        problem.solve(solver=cp.CLARABEL)
    except cp.error.SolverError as error:
        raise MasterSolverError(f"{what}: Clarabel failed ({error})") from error
    if problem.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
        raise MasterSolverError(f"{what}: Clarabel status {problem.status}")


def solve_hinge_dual(A: FloatArray, D: float, p: float = 2.0) -> MasterSolution:
    r"""Generalized-hinge LPBoost dual (Shen & Li eqs. (27), (28)) with Clarabel.

    .. math:: \min_{r,u}\ r + D^{1-q}(p^{1-q} - p^{-q})\sum_i u_i^q \quad\text{s.t.}\quad
              A^\top u \le r\mathbf 1,\ u \ge 0,\ \mathbf 1^\top u = 1,\qquad 1/p + 1/q = 1.

    ``w`` are the multipliers of the edge constraints (the primal weights of
    :math:`\max \varrho - D\sum_i\xi_i^p`); ``objective`` is the common optimal value.
    """
    import cvxpy as cp

    A = _check_matrix(A)
    if not (np.isfinite(D) and D > 0):
        raise ValueError(f"D must be a positive finite number; got {D!r}")
    if not (np.isfinite(p) and p > 1):
        raise ValueError(f"p must be a finite number > 1; got {p!r}")
    q = p / (p - 1.0)
    coefficient = D ** (1.0 - q) * (p ** (1.0 - q) - p ** (-q))
    M = A.shape[0]
    u, r = cp.Variable(M, nonneg=True), cp.Variable()
    penalty = cp.sum_squares(u) if p == 2.0 else cp.sum(cp.power(u, q))
    edges = A.T @ u <= r
    problem = cp.Problem(cp.Minimize(r + coefficient * penalty), [edges, cp.sum(u) == 1])
    _solve_cvxpy(problem, "generalized-hinge dual")
    w = np.clip(np.asarray(edges.dual_value, dtype=np.float64).ravel(), 0.0, None)
    r_value = r.value
    assert r_value is not None  # solved above (_solve_cvxpy raises otherwise)
    return MasterSolution(
        w=w,
        u=np.clip(np.asarray(u.value).ravel(), 0.0, None),
        r=float(r_value),
        objective=float(problem.value),
    )


def solve_adaboost_qp(
    A: FloatArray, T: float, w0: FloatArray | None = None, *, rtol: float = 1e-12
) -> tuple[FloatArray, float]:
    r"""AdaBoost-QP (Shen & Li eq. (41)) on a fixed pool; returns ``(w, objective)``.

    .. math:: \min_w\ \tfrac12 w^\top C w - T b^\top w \quad\text{s.t.}\quad w \ge 0,\
              \mathbf 1^\top w = 1,

    with :math:`b = \frac1M\sum_i A_i^\top` (so :math:`b^\top w` is the mean normalized margin)
    and :math:`C = \frac1M\sum_i (A_i - b^\top)^\top(A_i - b^\top)` (so :math:`w^\top C w` is
    their population variance).  ``objective`` is the QP value
    :math:`= -T^2(\bar\varrho/T - \sigma^2/(2T^2))`.

    Solved by :func:`solve_simplex_smooth` with the exact Hessian :math:`C` on the support:
    its Newton polish is then a primal active-set method, which for a QP ends at the exact
    optimum of the final support.  Warm-starting from ``w0`` (the solution for a neighbouring
    ``T``) makes a sweep over ``T`` cheap.  On the pools of Shen & Li's Table III (about 1,700
    stumps) this is some 20 times faster than Clarabel through cvxpy; the tests check both agree.
    """
    A = _check_matrix(A)
    T = _check_T(T)
    M, _ = A.shape
    b = A.mean(axis=0)
    centred = A - b

    def value_grad(w: FloatArray) -> tuple[float, FloatArray]:
        z = centred @ w
        return 0.5 / M * float(z @ z) - T * float(b @ w), (centred.T @ z) / M - T * b

    def hessian(w: FloatArray, S: NDArray[np.intp]) -> FloatArray:
        block = centred[:, S]
        covariance: FloatArray = (block.T @ block) / M
        return covariance

    weights, value, _, _, _ = solve_simplex_smooth(
        value_grad, A.shape[1], 1.0, w0, rtol=rtol, hessian=hessian
    )
    return weights, value


def solve_mcboost(A: FloatArray, E: float, w0: FloatArray | None = None) -> MasterSolution:
    r"""MCBoost's restricted master (Guo & Chen eq. (12)): :math:`\min_w \|A w - E\mathbf 1\|^2`
    over :math:`w \ge 0`, :math:`\mathbf 1^\top w = 1`.

    A simplex-constrained least-squares problem, solved by :func:`solve_simplex_smooth` with
    the exact Hessian :math:`2A_S^\top A_S` on the support, so that its Newton polish ends at
    the exact optimum of the final support (an active-set method; warm-started from the
    previous iteration's ``w0`` in column generation).  The dual of (19) follows from the KKT
    map (17): :math:`u = 2(E\mathbf 1 - A w)` and :math:`r = \max_j (A^\top u)_j`, the common
    edge of the columns in the support.  ``objective`` is :math:`\|Aw - E\mathbf 1\|^2`.
    """
    A = _check_matrix(A)
    E = float(E)
    if not np.isfinite(E) or E <= 0.0:
        raise ValueError(f"E must be a positive number; got {E!r}")

    def value_grad(w: FloatArray) -> tuple[float, FloatArray]:
        residual = A @ w - E
        return float(residual @ residual), 2.0 * (A.T @ residual)

    def hessian(w: FloatArray, S: NDArray[np.intp]) -> FloatArray:
        block = A[:, S]
        return 2.0 * (block.T @ block)

    w, value, _, iterations, stalled = solve_simplex_smooth(
        value_grad, A.shape[1], 1.0, w0, hessian=hessian
    )
    u = 2.0 * (E - A @ w)
    return MasterSolution(
        w=w,
        u=u,
        r=float((A.T @ u).max()),
        objective=value,
        iterations=int(iterations),
        stalled=stalled,
    )


def solve_mdboost(A: FloatArray, D: float, w0: FloatArray | None = None) -> MasterSolution:
    r"""MDBoost's restricted master: :math:`\max_w \bar\rho - \frac D2 \sigma^2(\rho)` over the
    simplex, :math:`\rho = Aw` (population variance).

    Equal to AdaBoost-QP (41) with :math:`T = 1/D` (divide its objective by :math:`-T`), solved
    by :func:`solve_adaboost_qp`.  The example weights are the normalized gradient of the
    objective in the margins, :math:`u_i = (1 - D(\rho_i - \bar\rho))/M` (they sum to 1), and
    :math:`r = \max_j (A^\top u)_j`.  ``objective`` is :math:`\bar\rho - \frac D2\sigma^2`.
    """
    D = float(D)
    if not np.isfinite(D) or D <= 0.0:
        raise ValueError(f"D must be a positive number; got {D!r}")
    A = _check_matrix(A)
    w, _ = solve_adaboost_qp(A, 1.0 / D, w0)
    margins = A @ w
    centred = margins - margins.mean()
    M = A.shape[0]
    u = (1.0 - D * centred) / M
    objective = float(margins.mean() - 0.5 * D * (centred @ centred) / M)
    return MasterSolution(w=w, u=u, r=float((A.T @ u).max()), objective=objective, iterations=0)


# ------------------------------------------------------------------------------ ERLPBoost
def capped_softmax(scores: FloatArray, D: float) -> FloatArray:
    r"""The distribution :math:`d_i = \min(D, e^{s_i - \lambda})` with :math:`\lambda` such that
    :math:`\sum_i d_i = 1`: the entropy projection onto the capped simplex
    :math:`\{d \ge 0, \mathbf 1^\top d = 1, d \le D\}`.

    It minimises :math:`-s^\top d + \sum_i d_i\log d_i` over the capped simplex (Warmuth, Glocer
    & Vishwanathan 2008): the largest scores are capped at :math:`D` and the rest share the
    remaining mass in proportion to :math:`e^{s_i}`.  Computed exactly from the sorted scores in
    :math:`O(M\log M)`: with :math:`k` weights capped, the largest free one is
    :math:`(1 - kD)e^{s_{(k+1)}}/\sum_{j > k} e^{s_{(j)}}`, and :math:`k` is the smallest count
    for which it is at most :math:`D`.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.boosting._masters import capped_softmax
    >>> capped_softmax(np.log(np.array([6.0, 2.0, 1.0, 1.0])), D=0.5).round(3)
    array([0.5  , 0.25 , 0.125, 0.125])
    """
    scores = np.asarray(scores, dtype=np.float64)
    M = scores.size
    if not (np.isfinite(D) and D * M >= 1.0 - 1e-12):
        raise ValueError(f"D must be at least 1/M = {1.0 / M:.6g} (else no distribution fits)")
    order = np.argsort(-scores, kind="stable")
    ordered = scores[order]
    # suffix log-sum-exp: tail[k] = log sum_{j >= k} exp(s_(j))
    tail = np.logaddexp.accumulate(ordered[::-1])[::-1]
    k = np.arange(M)
    free_mass = 1.0 - k * D
    fits = np.zeros(M, dtype=bool)
    positive = free_mass > 0.0
    fits[positive] = (
        np.log(free_mass[positive]) + ordered[positive] - tail[positive] <= np.log(D) + 1e-12
    )
    capped = int(np.argmax(fits)) if fits.any() else M - 1
    d = np.empty(M)
    d[:capped] = D
    d[capped:] = max(free_mass[capped], 0.0) * np.exp(ordered[capped:] - tail[capped])
    out = np.empty(M)
    out[order] = d
    return out


def relative_entropy_to_uniform(d: FloatArray) -> float:
    r""":math:`\Delta(d, \mathbf 1/M) = \sum_i d_i \log(M d_i)`, the relative entropy of a
    distribution to the uniform one (0 at the uniform distribution, at most :math:`\log M`)."""
    d = np.asarray(d, dtype=np.float64)
    positive = d > 0
    return float(np.sum(d[positive] * np.log(d.size * d[positive])))


def solve_erlpboost(
    A: FloatArray, D: float, eta: float, w0: FloatArray | None = None, *, rtol: float = 1e-10
) -> MasterSolution:
    r"""ERLPBoost's restricted master (Warmuth, Glocer & Vishwanathan 2008) and its dual.

    The entropy-regularised soft-margin LPBoost dual over the columns of ``A``,

    .. math:: P(d) = \max_j\,(A^\top d)_j + \tfrac1\eta\,\Delta(d, \mathbf 1/M),\qquad
              \min_d P(d)\ \ \text{s.t.}\ \ \mathbf 1^\top d = 1,\ 0 \le d \le D,

    is solved through its Lagrange dual, a smooth concave problem over the hypothesis weights,

    .. math:: \max_{w \ge 0,\ \mathbf 1^\top w = 1}\ g(w),\qquad
              g(w) = \min_{0 \le d \le D,\ \mathbf 1^\top d = 1}
              d^\top A w + \tfrac1\eta\,\Delta(d, \mathbf 1/M),

    whose inner minimiser is :func:`capped_softmax` of :math:`-\eta A w` and whose gradient is
    :math:`A^\top d` -- by :func:`solve_simplex_smooth` with the exact Hessian
    :math:`\eta A_F^\top(\mathrm{diag}(d_F) - d_Fd_F^\top/\mathbf 1^\top d_F)A_F` (``F``: the
    uncapped examples).  With ``D = 1`` there is no cap and this is AdaBoost-:math:`\ell_1`'s
    dual (15) (Shen & Li 2010) with :math:`T = 1/\eta`.

    Returns a :class:`MasterSolution`: ``w`` the hypothesis weights (summing to 1), ``u`` the
    example distribution :math:`d`, ``r`` the largest edge :math:`\max_j (A^\top d)_j`,
    ``objective`` :math:`g(w)` and ``duality_gap`` :math:`P(d) - g(w) \ge 0`.
    """
    A = _check_matrix(A)
    M = A.shape[0]
    if not (np.isfinite(D) and D * M >= 1.0 - 1e-12):
        raise ValueError(f"D must be a finite number >= 1/M = {1.0 / M:.6g}; got {D!r}")
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a positive finite number; got {eta!r}")

    def inner(w: FloatArray) -> tuple[FloatArray, FloatArray]:
        margins = A @ w
        return margins, capped_softmax(-eta * margins, D)

    def value_grad(w: FloatArray) -> tuple[float, FloatArray]:
        margins, d = inner(w)
        value = float(d @ margins) + relative_entropy_to_uniform(d) / eta
        return -value, -(A.T @ d)

    def hessian(w: FloatArray, S: NDArray[np.intp]) -> FloatArray:
        _, d = inner(w)
        free = d < D * (1.0 - 1e-12)
        block = A[np.ix_(free, S)]
        d_free = d[free]
        mass = float(d_free.sum())
        edges = block.T @ d_free
        curvature: FloatArray = (block.T * d_free) @ block
        if mass > 0.0:
            curvature -= np.outer(edges, edges) / mass
        return eta * curvature

    w, value, _, iterations, stalled = solve_simplex_smooth(
        value_grad, A.shape[1], 1.0, w0, rtol=rtol, hessian=hessian
    )
    _, d = inner(w)
    r = float((A.T @ d).max())
    g = -value
    gap = max(0.0, r + relative_entropy_to_uniform(d) / eta - g)
    return MasterSolution(
        w=w, u=d, r=r, objective=g, duality_gap=gap, iterations=iterations, stalled=stalled
    )
