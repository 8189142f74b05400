r"""Stage-wise boosting: the AnyBoost engine and the voting methods it contains.

Mason, Baxter, Bartlett & Frean (1999), "Boosting algorithms as gradient descent", NIPS 12,
view boosting as gradient descent on a margin cost functional

.. math:: C(F) = \sum_{i=1}^m s_i\, c(y_i F(x_i)), \qquad s_i = 1/m \text{ by default},

in the space of functions with the inner product (2),
:math:`\langle F, G \rangle = \sum_i s_i F(x_i) G(x_i)` (the paper's :math:`1/m` average; fit's
``sample_weight`` changes the :math:`s_i`).  Algorithm 1 (AnyBoost) starts from :math:`F_0 = 0`
and repeats: ask the weak learner for :math:`f_{t+1}` with a large
:math:`-\langle \nabla C(F_t), f_{t+1}\rangle \propto \sum_i s_i (-c'(y_i F_t(x_i))) y_i f_{t+1}(x_i)`
(for ±1 learners: minimize the weighted error with weights :math:`D(i) \propto -c'(y_iF_t(x_i))`);
stop if this is :math:`\le 0`; otherwise choose a step :math:`w_{t+1}` and set
:math:`F_{t+1} = F_t + w_{t+1} f_{t+1}`.  The members differ in the cost :math:`c`, the step rule
(Table 1) and, for DOOM II, in a normalisation that keeps :math:`F` a convex combination.

Stopping rules (every estimator):

* the AnyBoost test: the new weak learner does not point downhill (its edge is :math:`\le 0`);
* ``n_estimators`` rounds;
* ``tol``: the absolute change of the training cost in one round falls below ``tol`` (the rule
  "change of loss below 1e-6" of Zhai et al. 2013; off by default);
* early stopping on validation data: pass ``X_val, y_val`` to :meth:`fit`, or set
  ``n_iter_no_change`` to hold out a stratified ``validation_fraction`` of the training data.
  Training stops after ``n_iter_no_change`` rounds without a lower validation error (never when
  it is ``None``), and the ensemble is cut back to the **smallest** number of rounds with the
  lowest validation error (:func:`marginboost.experiments.best_round`, the rule of Guo & Chen).
  ``history_["validation_error"]`` keeps the staged validation errors up to that round;
  ``n_rounds_run_`` is the number of rounds trained before the cut.

Every estimator records ``history_``, a dict of per-round arrays: ``train_error`` (fraction of
training examples misclassified by :math:`F_t`), ``objective`` (the training cost
:math:`C(F_t)`), ``edge`` (:math:`\sum_i D_i y_i f_t(x_i)` with :math:`D \propto -s_i c'`,
normalised to :math:`\sum_i |D_i| = 1`), ``min_margin`` and ``mean_margin`` (normalized margins
after the round), ``weight_entropy`` (Shannon entropy of the example weights given to the weak
learner), ``step`` (:math:`w_t`) and ``time`` (seconds since the start of ``fit``).

The members live in one module per family; this module gathers them under their old names and
lists them (:func:`anyboost_members`):

* :mod:`~marginboost.boosting.anyboost`: :class:`AnyBoost`, any cost and step rule;
* :mod:`~marginboost.boosting.adaboost`: :class:`AdaBoost`, :class:`MadaBoost` and
  :class:`RealAdaBoost`;
* :mod:`~marginboost.boosting.arcing`: :class:`ArcGv` and :class:`ArcX4`;
* :mod:`~marginboost.boosting.least_squares`: :class:`LogitBoost` and :class:`L2Boost`;
* :mod:`~marginboost.boosting.doom`: :class:`DoomII`;
* :mod:`~marginboost.boosting._stagewise_common`: the members' shared constructor and
  docstring sections.  The loop itself is :mod:`~marginboost.boosting._engine`'s.
"""

from __future__ import annotations

from typing import Any

from . import _steps as _steps
from ._engine import StagewiseBoosting as _StagewiseBoosting  # noqa: F401
from ._stagewise_common import _ATTRIBUTES as _ATTRIBUTES
from ._stagewise_common import _COMMON_PARAMETERS as _COMMON_PARAMETERS
from ._stagewise_common import _POSITIVE as _POSITIVE
from ._stagewise_common import FloatArray as FloatArray
from ._stagewise_common import _examples as _examples
from ._stagewise_common import _FixedCostBoosting as _FixedCostBoosting
from .adaboost import AdaBoost, MadaBoost, RealAdaBoost
from .anyboost import AnyBoost
from .arcing import ArcGv, ArcX4
from .doom import DoomII
from .least_squares import L2Boost, LogitBoost

__all__ = [
    "AnyBoost",
    "AdaBoost",
    "ArcGv",
    "ArcX4",
    "RealAdaBoost",
    "LogitBoost",
    "DoomII",
    "L2Boost",
    "MadaBoost",
    "anyboost_members",
]


def anyboost_members() -> list[dict[str, Any]]:
    """The registered members of the AnyBoost engine: cost, step rule and normalisation.

    Generated from the estimator classes themselves (their cost object and ``step_rule``), so the
    book's version of Mason et al.'s Table 1 cannot drift from the code.
    """
    rows = []
    for cls in (AdaBoost, ArcX4, RealAdaBoost, LogitBoost, ArcGv, MadaBoost, L2Boost, DoomII):
        model = cls()
        if cls is ArcX4:
            model.set_params(variant="anyboost")
        model._check_params()
        cost = model._cost_function()
        rows.append(
            {
                "algorithm": cls._algorithm_name,
                "cost": cost.name,
                "cost_formula": cost.formula,
                "step_rule": cls.step_rule,
                "normalization": model._normalization,
                "reference": cls.reference,
            }
        )
    return rows
