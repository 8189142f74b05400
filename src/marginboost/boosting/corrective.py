r"""Totally-corrective boosting by column generation: LPBoost, AdaBoost-CG, LogitBoost-CG.

Shen & Li (2010), "On the dual formulation of boosting algorithms", IEEE TPAMI 32(12), Sec. 3.7
(Algorithm 2), and Demiriz, Bennett & Shawe-Taylor (2002) solve a convex problem over the
non-negative combinations of *all* weak hypotheses through its dual, adding one dual
constraint (one column of :math:`A_{ij} = y_i h_j(x_i)`) at a time:

1. start from uniform example weights :math:`u_i = 1/M`;
2. ask the weak learner for :math:`h = \arg\max_h \sum_i u_i y_i h(x_i)` (the most violated
   dual constraint, eq. (42));
3. if its edge is below :math:`r + \varepsilon` (:math:`\varepsilon` = ``tol``; ``r``: the dual variable of the restricted
   master, the largest edge it allows) no dual constraint is violated by more than
   :math:`\varepsilon` and the current combination is optimal up to :math:`\varepsilon`: stop;
4. otherwise add the column, re-solve the restricted master for :math:`(w, u, r)` (every
   weight is re-optimised: "totally corrective") and go to 2.

The masters (:mod:`marginboost.boosting._masters`):

* :class:`LPBoost`: hard-margin dual (20) or soft-margin dual (22) (HiGHS, one model per fit
  that grows by a row per column and is re-solved warm by the dual simplex method);
* :class:`AdaBoostCG`: the AdaBoost-:math:`\ell_1` primal (5) over
  :math:`\{w\ge0, \mathbf 1^\top w = 1/T\}`, dual (15), :math:`u = \mathrm{softmax}(-Aw)` (24);
* :class:`LogitBoostCG`: the LogitBoost primal (32), dual (31), :math:`u_i = 1/(1+e^{(Aw)_i})`;
* :class:`HingeLPBoost`: the generalized-hinge dual (27)/(28) (Clarabel).

``history_`` holds one entry per iteration (per master solve): ``objective`` (the master's
optimal value: (20)/(22) min-max edge, (5), (32), or (28)), ``duality_gap`` (certified gap
of the *full* problem after the iteration, from the edge ``e`` of the next oracle column: the
restricted dual solution with :math:`r' = \max(r, e)` is feasible for the full dual, so the gap is
``max(0, e - r)`` for the LPs and :math:`r' + T\,\psi(u) + T\,\mathrm{Opt}` for (15)/(31),
:math:`\psi` the (binary) negative entropy; exact when the weak learner is an exact oracle, e.g.
stumps), ``n_active`` (columns with :math:`w_j > 10^{-9}`), ``time`` (seconds since the start of
``fit``), ``train_error``, ``min_margin`` and ``mean_margin`` (normalized margins of the master's
combination), and ``edge`` (edge of the column added in that iteration under the example
weights that selected it).

``staged_decision_function`` yields, after iteration ``t``, the master solution of iteration
``t`` (the weights are re-optimised every iteration, so the stages are not partial sums of the
final ``alphas_``).  Failures of a master raise :class:`ColumnGenerationError`.

The code is in one module per role; this module gathers it under its old names:

* :mod:`~marginboost.boosting.column_generation`: the loop (:class:`ColumnGenerationBoosting`)
  and :class:`ColumnGenerationError`;
* :mod:`~marginboost.boosting.lpboost`: :class:`LPBoost` and :class:`ERLPBoost`;
* :mod:`~marginboost.boosting.adaboost_cg`: :class:`AdaBoostCG`, :class:`LogitBoostCG` and
  :func:`adaboost_T_heuristic`;
* :mod:`~marginboost.boosting.margin_distribution`: :class:`HingeLPBoost`, :class:`MCBoost` and
  :class:`MDBoost`;
* :mod:`~marginboost.boosting._masters`: the restricted masters they solve.
"""

from __future__ import annotations

from . import _masters as _masters
from .adaboost_cg import AdaBoostCG, LogitBoostCG, adaboost_T_heuristic
from .column_generation import _ATTRIBUTES as _ATTRIBUTES
from .column_generation import _COMMON_DOC as _COMMON_DOC
from .column_generation import _HISTORY_KEYS as _HISTORY_KEYS
from .column_generation import _POSITIVE as _POSITIVE
from .column_generation import ACTIVE_WEIGHT as ACTIVE_WEIGHT
from .column_generation import ColumnGenerationBoosting, ColumnGenerationError
from .column_generation import FloatArray as FloatArray
from .column_generation import _CGParams as _CGParams
from .lpboost import ERLPBoost as ERLPBoost
from .lpboost import LPBoost
from .margin_distribution import HingeLPBoost, MCBoost, MDBoost

__all__ = [
    "ColumnGenerationBoosting",
    "LPBoost",
    "AdaBoostCG",
    "LogitBoostCG",
    "HingeLPBoost",
    "ColumnGenerationError",
    "adaboost_T_heuristic",
    "MCBoost",
    "MDBoost",
]
