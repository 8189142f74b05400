r"""Column generation on margin-distribution objectives: HingeLPBoost, MCBoost and MDBoost.

* :class:`HingeLPBoost`: the soft margin with the generalized hinge loss :math:`\xi_i^p`
  (Shen & Li 2010, eqs. (27)-(28)), the LPBoost dual regularised by the Tsallis entropy;
* :class:`MCBoost` (Guo & Chen): the normalized margins pulled towards a target margin
  :math:`E` (a simplex-constrained least-squares master);
* :class:`MDBoost` (Shen & Li 2010b): the mean margin against the margin variance
  (AdaBoost-QP over the generated columns).

MCBoost and MDBoost hand the weak learner signed example weights.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

from sklearn.utils._param_validation import Interval

from .._sklearn import examples_section as _examples_section
from . import _masters
from ._base import check_real
from .column_generation import _ATTRIBUTES, _COMMON_DOC, _POSITIVE, FloatArray, _CGParams

__all__ = ["HingeLPBoost", "MCBoost", "MDBoost"]


class HingeLPBoost(_CGParams):
    __doc__ = (
        r"""Soft-margin LPBoost with a generalized hinge loss (Shen & Li 2010, eqs. 27-28).

    Maximises :math:`\varrho - D\sum_i\xi_i^p` (``p = 2``: squared hinge) over
    :math:`\mathbf 1^\top w = 1`, :math:`w \ge 0`, by column generation on the
    Tsallis-regularised dual (28), solved with Clarabel.

    Parameters
    ----------
    D : float, default=1.0
        Weight of the slack penalty (positive).
    p : float, default=2.0
        Exponent of the hinge, ``p > 1``.
    """
        + _COMMON_DOC.replace("n_estimators : int, default=100", "n_estimators : int, default=1000")
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Shen & Li (2010a), eqs. (27)-(29): the soft-margin LPBoost with the generalized hinge loss
    :math:`\xi_i^p` has the dual (27) (:math:`p = 2`) or, in general, (28), with
    :math:`1/p + 1/q = 1`: LPBoost regularised by the Tsallis entropy (29).
    Column generation follows Shen & Li's Sec. 3.7 (Algorithm 2): the oracle (42) returns
    :math:`\arg\max_h \sum_i u_i y_i h(x_i)` for the current dual weights, and training
    stops when its edge is below :math:`r + \varepsilon`.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Tsallis, C. (1988). Possible generalization of Boltzmann-Gibbs statistics. Journal of
    Statistical Physics 52(1-2), 479-487.
    """
    )

    _algorithm_name = "HingeLPBoost"
    _parameter_constraints: dict[str, Any] = {
        **_CGParams._parameter_constraints,
        "D": _POSITIVE,
        "p": [Interval(Real, 1.0, float("inf"), closed="neither")],
    }

    def __init__(
        self,
        D: float = 1.0,
        p: float = 2.0,
        *,
        n_estimators: int = 1000,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 1e-5,
        random_state: int | None = None,
        warm_start: bool = False,
    ) -> None:
        self.D = D
        self.p = p
        self._set_common(
            n_estimators, max_depth, estimator, max_bins, tol, random_state, warm_start
        )

    def _check_params(self, n_samples: int) -> None:
        check_real(self.D, "D", 0.0)
        check_real(self.p, "p", 1.0)

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_hinge_dual(A, float(self.D), float(self.p), w0)


class MCBoost(_CGParams):
    __doc__ = (
        r"""MCBoost, margin distribution controlled boosting (Guo & Chen, Algorithm 1).

    Primal (their eq. (8)/(12)): the normalized margins :math:`\rho = A w` of a convex
    combination of weak classifiers (:math:`w \ge 0`, :math:`\mathbf 1^\top w = 1`) are pulled
    towards a target margin :math:`E`,

    .. math:: \min_w\ \sum_i (\rho_i - E)^2,

    which trades the margin variance against the squared distance of the mean margin from
    :math:`E` (eqs. (10)-(11)).  Column generation on the dual (19),
    :math:`\min_{r,u}\ r + \tfrac14 (u - 2E\mathbf 1)^\top(u - 2E\mathbf 1)` subject to
    :math:`\sum_i u_i y_i h_j(x_i) \le r` for the selected columns: the weak learner ("strong
    oracle") returns the tree maximizing :math:`\sum_i u_i y_i h(x_i)` for the current dual
    weights :math:`u`, which may be negative (examples whose margin exceeds :math:`E`), and
    training stops when its edge is below :math:`r + \epsilon`.  The restricted master is
    solved in the primal by :func:`~marginboost.boosting._master_quadratic.solve_mcboost` (a
    simplex-constrained least-squares problem), and the dual comes from the KKT map (17),
    :math:`u = 2(E\mathbf 1 - \rho)`, :math:`r = \max_j (A^\top u)_j`.

    Parameters
    ----------
    E : float, default=0.3
        Target margin, positive (the paper chooses it in (0, 1) on validation).
    """
        + _COMMON_DOC.replace("n_estimators : int, default=100", "n_estimators : int, default=1000")
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Guo & Chen, Algorithm 1: the primal (8), written as (12), its decomposition into margin
    variance and mean (10)-(11), the dual (19) and the KKT map (17), as above.  They show
    that the problem is L2Boost with :math:`\|w\|_1 = 1/E` (eq. (20)) and a lasso-penalised
    L2Boost (eq. (21)); their baselines are :class:`L2Boost`, :class:`AdaBoost`,
    :class:`AdaBoostCG`, :class:`LPBoost` and :class:`MDBoost`.

    References
    ----------
    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript, College
    of Computer Science and Technology, Nanjing University of Aeronautics and Astronautics.
    """
    )

    _algorithm_name = "MCBoost"
    _parameter_constraints: dict[str, Any] = {**_CGParams._parameter_constraints, "E": _POSITIVE}
    reference = "guo2013mcboost"

    def __init__(
        self,
        E: float = 0.3,
        *,
        n_estimators: int = 1000,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 1e-5,
        random_state: int | None = None,
        warm_start: bool = False,
    ) -> None:
        self.E = E
        self._set_common(
            n_estimators, max_depth, estimator, max_bins, tol, random_state, warm_start
        )

    def _check_params(self, n_samples: int) -> None:
        check_real(self.E, "E", 0.0)

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_mcboost(A, float(self.E), w0)

    def _oracle_weights(self, u: FloatArray) -> FloatArray:
        return u  # signed: fit_binary with the "error" criterion maximizes sum u_i y_i h(x_i)


class MDBoost(_CGParams):
    __doc__ = (
        r"""MDBoost, boosting through optimization of margin distributions (Shen & Li 2010b).

    Source of truth: the formulation of Shen & Li, "Boosting through optimization of margin
    distributions", IEEE TNN 21(4), 2010, as it is restated in their TPAMI paper (AdaBoost-QP,
    eqs. (39)-(41)) and in Guo & Chen (Sec. 3: "maximizes the average margin and minimizes the
    margin variance simultaneously", the trade-off chosen by cross-validation).  The TNN text
    itself is not available here; the assumptions are:

    * the margins are the normalized margins :math:`\rho = A w` of a convex combination
      (:math:`w \ge 0`, :math:`\mathbf 1^\top w = 1`), as for MCBoost and LPBoost;
    * the objective is the average margin minus ``D / 2`` times the *population* variance,

      .. math:: \max_w\ \bar\rho - \tfrac{D}{2}\,\tfrac1M\sum_i (\rho_i - \bar\rho)^2,

      (the TNN paper writes the variance with the matrix of pairwise differences, whose
      normalization :math:`1/(M-1)` instead of :math:`1/M` only rescales ``D`` by
      :math:`M/(M-1)`); this is AdaBoost-QP (41) with :math:`T = 1/D` over the columns
      generated so far, so the restricted master is
      :func:`~marginboost.boosting._master_quadratic.solve_adaboost_qp`;
    * column generation as for the other masters: the example weights are the gradient of the
      objective with respect to the margins, normalized to sum to 1,
      :math:`u_i = (1 - D(\rho_i - \bar\rho)) / M` (negative for examples whose margin exceeds
      the mean by more than :math:`1/D`), the oracle returns
      :math:`\arg\max_h \sum_i u_i y_i h(x_i)` and training stops when that edge is below
      :math:`r + \epsilon`, :math:`r = \max_j (A^\top u)_j` over the selected columns (at the
      restricted optimum every column in the support has edge ``r``: its KKT conditions).

    Parameters
    ----------
    D : float, default=1.0
        Weight of the margin variance (positive); chosen on validation in the experiments.
    """
        + _COMMON_DOC.replace("n_estimators : int, default=100", "n_estimators : int, default=1000")
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Shen & Li (2010b) maximise the average margin while minimising the margin variance, the
    trade-off being chosen by cross-validation; Shen & Li (2010a, eqs. (39)-(41)) derive the
    same objective as AdaBoost-QP (:class:`AdaBoostQP`, a fixed pool).  The restricted master
    here is that QP over the generated columns, solved by column generation as the other
    totally-corrective methods; see the assumptions above.  Guo & Chen use MDBoost as a
    baseline of MCBoost.

    References
    ----------
    Shen, C. and Li, H. (2010b). Boosting through optimization of margin distributions. IEEE
    Transactions on Neural Networks 21(4), 659-666.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Guo, G. and Chen, S. (2013). Margin distribution controlled boosting. Manuscript, College
    of Computer Science and Technology, Nanjing University of Aeronautics and Astronautics.
    """
    )

    _algorithm_name = "MDBoost"
    _parameter_constraints: dict[str, Any] = {**_CGParams._parameter_constraints, "D": _POSITIVE}
    reference = "shen2010mdboost"

    def __init__(
        self,
        D: float = 1.0,
        *,
        n_estimators: int = 1000,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 1e-5,
        random_state: int | None = None,
        warm_start: bool = False,
    ) -> None:
        self.D = D
        self._set_common(
            n_estimators, max_depth, estimator, max_bins, tol, random_state, warm_start
        )

    def _check_params(self, n_samples: int) -> None:
        check_real(self.D, "D", 0.0)

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_mdboost(A, float(self.D), w0)

    def _oracle_weights(self, u: FloatArray) -> FloatArray:
        return u  # signed, as for MCBoost


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
HingeLPBoost.__doc__ = (
    (HingeLPBoost.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("HingeLPBoost", "n_estimators=100")
)
MCBoost.__doc__ = (
    (MCBoost.__doc__ or "").rstrip() + "\n" + _examples_section("MCBoost", "n_estimators=100")
)
MDBoost.__doc__ = (
    (MDBoost.__doc__ or "").rstrip() + "\n" + _examples_section("MDBoost", "n_estimators=100")
)
