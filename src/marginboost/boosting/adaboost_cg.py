r"""AdaBoost-CG and LogitBoost-CG: totally-corrective AdaBoost and LogitBoost (Shen & Li 2010).

Column generation on the AdaBoost-:math:`\ell_1` primal (5) (dual (15)) and on the LogitBoost
primal (32) (dual (31)), both with the hypothesis weights summing to :math:`1/T`
(:func:`~marginboost.boosting._master_entropy.solve_adaboost_l1`,
:func:`~marginboost.boosting._master_entropy.solve_logitboost`), and :func:`adaboost_T_heuristic`,
Shen & Li's choice of ``T`` from an AdaBoost run.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._sklearn import examples_section as _examples_section
from . import _masters
from ._base import check_positive_int, check_real
from .column_generation import _ATTRIBUTES, _COMMON_DOC, _POSITIVE, FloatArray, _CGParams

__all__ = ["AdaBoostCG", "LogitBoostCG", "adaboost_T_heuristic"]


class AdaBoostCG(_CGParams):
    __doc__ = (
        r"""AdaBoost-CG (Shen & Li 2010, Algorithm 2): totally-corrective AdaBoost-l1.

    Minimises :math:`\log\sum_i\exp(-y_iF(x_i))` over :math:`F = \sum_j w_jh_j`,
    :math:`w \ge 0`, :math:`\mathbf 1^\top w = 1/T` (eq. (5)) by column generation on the
    entropy-regularised dual (15).  The restricted master is solved in the primal with a
    projected accelerated gradient method warm-started from the previous weights
    (:func:`~marginboost.boosting._master_entropy.solve_adaboost_l1`); ``u = softmax(-Aw)`` (24).

    Parameters
    ----------
    T : float
        Regularisation: ``alphas_`` sum to ``1/T``.  Shen & Li (Table IV) take
        ``T = 1 / sum(w)`` of a 1000-round AdaBoost (:func:`adaboost_T_heuristic`).
    """
        + _COMMON_DOC
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Shen & Li (2010a), Theorem 3.1: the Lagrange dual of the :math:`\ell_1`-constrained
    AdaBoost (5) is (10), equivalently the entropy-regularised LPBoost (15), and the KKT
    conditions give the AdaBoost weights (24).
    Column generation follows Shen & Li's Sec. 3.7 (Algorithm 2): the oracle (42) returns
    :math:`\arg\max_h \sum_i u_i y_i h(x_i)` for the current dual weights, and training
    stops when its edge is below :math:`r + \varepsilon`.  Shen & Li compare it with AdaBoost
    in their Table IV (with ``T`` from :func:`adaboost_T_heuristic`) and Table V (``T`` chosen
    by cross-validation).

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.
    """
    )

    _algorithm_name = "AdaBoost-CG"
    _proba_link = "exponential"
    _parameter_constraints: dict[str, Any] = {**_CGParams._parameter_constraints, "T": _POSITIVE}

    def __init__(
        self,
        T: float = 0.05,
        *,
        n_estimators: int = 100,
        max_depth: int = 1,
        estimator: Any = None,
        max_bins: int = 255,
        tol: float = 1e-5,
        random_state: int | None = None,
        warm_start: bool = False,
    ) -> None:
        self.T = T
        self._set_common(
            n_estimators, max_depth, estimator, max_bins, tol, random_state, warm_start
        )

    def _check_params(self, n_samples: int) -> None:
        check_real(self.T, "T", 0.0)

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_adaboost_l1(A, float(self.T), w0)

    def _gap(self, solution: _masters.MasterSolution, edge: float) -> float:
        return solution.duality_gap + max(0.0, edge - solution.r)


class LogitBoostCG(AdaBoostCG):
    __doc__ = (
        r"""LogitBoost-CG (Shen & Li 2010, Sec. 3.4): totally-corrective LogitBoost.

    Minimises :math:`\sum_i\log(1+\exp(-y_iF(x_i)))` with :math:`w \ge 0`,
    :math:`\mathbf 1^\top w = 1/T` (eq. (32)); dual (31); example weights
    :math:`u_i = 1/(1+\exp(y_iF(x_i)))` (33), not normalised.

    Parameters
    ----------
    T : float
        Regularisation: ``alphas_`` sum to ``1/T``.
    """
        + _COMMON_DOC
        + _ATTRIBUTES
        + r"""
    Notes
    -----
    Shen & Li (2010a), Sec. 3.4 and Theorem 3.2: the :math:`\ell_1`-constrained logistic loss
    (32) has the binary-entropy-regularised dual (31), whose weights (33) are bounded by 1 but
    not normalised.
    Column generation follows Shen & Li's Sec. 3.7 (Algorithm 2): the oracle (42) returns
    :math:`\arg\max_h \sum_i u_i y_i h(x_i)` for the current dual weights, and training
    stops when its edge is below :math:`r + \varepsilon`.  The experiments are in their
    Table VIII.

    References
    ----------
    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.
    """
    )

    _algorithm_name = "LogitBoost-CG"
    _proba_link = "logistic"

    def _solve_master(self, A: FloatArray, w0: FloatArray | None) -> _masters.MasterSolution:
        return _masters.solve_logitboost(A, float(self.T), w0)


def adaboost_T_heuristic(
    X: ArrayLike, y: ArrayLike, n_rounds: int = 1000, *, max_depth: int = 1, max_bins: int = 255
) -> float:
    r"""``T = 1 / sum(w)`` of an ``n_rounds`` AdaBoost run (Shen & Li 2010, Table IV).

    Parameters
    ----------
    X, y : arrays
        Training data (binary labels).
    n_rounds : int, default=1000
        AdaBoost rounds (it may stop earlier on a perfect weak learner).
    max_depth, max_bins : int
        Weak learner depth and binning, as for :class:`~marginboost.boosting.AdaBoost`.

    Returns
    -------
    float
        The regularisation parameter ``T`` for :class:`AdaBoostCG` and the pool methods.

    Notes
    -----
    Shen & Li (2010a), Table IV, run AdaBoost-CG with the :math:`\ell_1` norm of the weights
    that AdaBoost reaches after 1000 rounds: :math:`1/T = \sum_t \alpha_t`, so that both
    methods compare at the same norm.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from marginboost.boosting import adaboost_T_heuristic
    >>> X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    >>> T = adaboost_T_heuristic(X, y, n_rounds=20)
    >>> 0 < T < 1
    True
    """
    from .stagewise import AdaBoost

    model = AdaBoost(
        n_estimators=check_positive_int(n_rounds, "n_rounds"),
        max_depth=max_depth,
        max_bins=max_bins,
    ).fit(X, y)
    return 1.0 / float(np.sum(model.alphas_))


# numpydoc Examples sections, run by doctest (tests/test_docstrings.py)
AdaBoostCG.__doc__ = (
    (AdaBoostCG.__doc__ or "").rstrip() + "\n" + _examples_section("AdaBoostCG", "n_estimators=100")
)
LogitBoostCG.__doc__ = (
    (LogitBoostCG.__doc__ or "").rstrip()
    + "\n"
    + _examples_section("LogitBoostCG", "n_estimators=100")
)
