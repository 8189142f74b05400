r"""Multi-class boosting with decision trees: AdaBoost.M1, SAMME, AdaBoost.MH and GD-MCBoost.

:class:`AdaBoostMH` (K binary problems, vector-valued trees) and :class:`GDMCBoost` (codeword
predictor, functional gradient descent) are described in their own docstrings; they share the
validation, binning and prediction interface (scores of shape ``(n_samples, K)``, the
not-boosted handling) of the base class below.  The rest of this docstring is about
AdaBoost.M1 and SAMME.

Both combine weak classifiers :math:`h_t : \mathcal{X} \to \{1, \dots, K\}` (depth-``max_depth``
trees from :meth:`marginboost.weak.DecisionTree.fit_multiclass` on binned features) by the
weighted plurality vote of DMCBoost's eq. (1) (Zhai, Xia & Wang, KDD 2014),

.. math:: F(x) = \arg\max_k f(x, k), \qquad f(x, k) = \sum_t \alpha_t \,[h_t(x) = k],

which is what :meth:`~MulticlassBoostingClassifier.decision_function` returns, shape
``(n_samples, K)`` (also for ``K = 2``), columns in the order of ``classes_``.  Ties go to the
first class in ``classes_``.

The two algorithms share one loop.  Starting from the normalized example weights
:math:`w_i` (uniform, or ``sample_weight``), round :math:`t`

1. fits a tree :math:`h_t` to the labels with weights :math:`w`;
2. computes the weighted error :math:`\varepsilon_t = \sum_i w_i [h_t(x_i) \ne y_i]`;
3. stops, *without* adding :math:`h_t`, when :math:`\varepsilon_t` reaches the algorithm's limit;
4. sets :math:`\alpha_t` from :math:`\varepsilon_t` and
   :math:`w_i \leftarrow w_i \exp(\alpha_t [h_t(x_i) \ne y_i])`, then renormalizes.

The algorithms differ in the weight and in the limit:

* AdaBoost.M1: :math:`\alpha_t = \log\frac{1-\varepsilon_t}{\varepsilon_t}`, stop when
  :math:`\varepsilon_t \ge 1/2`;
* SAMME: :math:`\alpha_t = \log\frac{1-\varepsilon_t}{\varepsilon_t} + \log(K - 1)`, stop when
  :math:`\varepsilon_t \ge 1 - 1/K`.

For AdaBoost.M1 (Freund & Schapire 1997, Fig. 3) the update multiplies the weights of the
correctly classified examples by :math:`\beta_t = \varepsilon_t / (1 - \varepsilon_t)`; after
normalization that is the update above with :math:`\alpha_t = \log(1/\beta_t)`, and the final
hypothesis :math:`\arg\max_y \sum_t \log(1/\beta_t)[h_t(x) = y]` is the vote above.  For
``K = 2`` both algorithms coincide.

When the limit is reached in the first round nothing can be boosted: the fit still succeeds,
but ``boosted_`` is ``False``, ``stop_reason_`` says why, a :class:`NotBoostedWarning` is
issued and the prediction methods raise (DMCBoost's Table 2 shows such entries as "-").

The limit is a tie that rounding must not decide.  The update gives the round's own tree a
weighted error of exactly the limit under the new weights (AdaBoost.M1: the incorrect examples
then hold half the mass; SAMME: :math:`1 - 1/K` of it), so a weak learner that returns the same
tree again sits on the limit, and its computed error falls on either side of it by the last bit
of a sum.  A weighted error within ``ERROR_LIMIT_RTOL`` (1e-12, relative) below the limit counts as
reaching it: boosting stops there, as it would in exact arithmetic, instead of adding trees whose
vote is rounding noise on one machine and stopping on another.

A weak learner with zero weighted error gets the weight of the clipped error
:data:`~marginboost.boosting._steps.MIN_WEIGHTED_ERROR` and ends training
(``stop_reason_ = "perfect weak learner"``).

SAMME equals scikit-learn's ``AdaBoostClassifier`` (which implements only SAMME in
scikit-learn 1.9) with ``DecisionTreeClassifier(max_depth=max_depth)`` fitted to our bin
codes when both grow the same trees (``criterion="gini"``, no ties between splits;
``tests/test_multiclass.py``): the same ``alphas_`` (scikit-learn's ``estimator_weights_``),
weighted errors and predictions.  scikit-learn clips example weights below machine epsilon
and gives a perfect tree the weight 1; those corner cases differ.

Every fitted estimator records ``history_``, per-round arrays ``weighted_error``
(:math:`\varepsilon_t`), ``train_error`` (training error of :math:`F_t`) and ``time`` (seconds
since the start of ``fit``).

The code is in one module per estimator family; this module gathers it under its old names:

* :mod:`~marginboost.boosting._multiclass_base`: :class:`MulticlassBoostingClassifier` and
  :data:`MULTICLASS_CRITERIA`;
* :mod:`~marginboost.boosting.samme`: the loop above, :class:`AdaBoostM1` and :class:`SAMME`;
* :mod:`~marginboost.boosting.adaboost_mh`: :class:`AdaBoostMH` and
  :func:`confidence_leaf_values`;
* :mod:`~marginboost.boosting.gdmcboost`: :class:`GDMCBoost`, :func:`simplex_codewords` and
  :func:`codeword_line_search`.
"""

from __future__ import annotations

from ._base import NotBoostedWarning
from ._multiclass_base import _COMMON_ATTRIBUTES as _COMMON_ATTRIBUTES
from ._multiclass_base import _WARM_START as _WARM_START
from ._multiclass_base import MULTICLASS_CRITERIA, MulticlassBoostingClassifier
from ._multiclass_base import FloatArray as FloatArray
from .adaboost_mh import AdaBoostMH, confidence_leaf_values
from .adaboost_mh import _check_smoothing as _check_smoothing
from .gdmcboost import GDMCBoost, codeword_line_search, simplex_codewords
from .samme import ERROR_LIMIT_RTOL as ERROR_LIMIT_RTOL
from .samme import SAMME, AdaBoostM1
from .samme import _DiscreteMulticlassBoosting as _DiscreteMulticlassBoosting

__all__ = [
    "MulticlassBoostingClassifier",
    "AdaBoostM1",
    "SAMME",
    "AdaBoostMH",
    "GDMCBoost",
    "NotBoostedWarning",
    "MULTICLASS_CRITERIA",
    "simplex_codewords",
    "codeword_line_search",
    "confidence_leaf_values",
]
