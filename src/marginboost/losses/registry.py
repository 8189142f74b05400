r"""The registry of the built-in margin costs: :data:`LOSSES` and :func:`get_loss`.

Maps the names ``"exponential"``, ``"logistic"``, ... to the classes of
:mod:`marginboost.losses.convex` and :mod:`marginboost.losses.nonconvex`; re-exported by
:mod:`marginboost.losses`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .base import MarginCost
from .convex import (
    ExponentialLoss,
    GeneralizedHingeLoss,
    HingeLoss,
    LogisticLoss,
    MadaBoostLoss,
    SquaredHingeLoss,
    SquaredLoss,
)
from .nonconvex import NormalizedSigmoidLoss, ZeroOneLoss

__all__ = ["LOSSES", "get_loss"]

#: Registry of the built-in margin costs, name -> class.
LOSSES: dict[str, type[MarginCost]] = {
    cls.name: cls
    for cls in (
        ExponentialLoss,
        LogisticLoss,
        HingeLoss,
        SquaredHingeLoss,
        GeneralizedHingeLoss,
        SquaredLoss,
        NormalizedSigmoidLoss,
        MadaBoostLoss,
        ZeroOneLoss,
    )
}


def get_loss(name: str | MarginCost, **params: Any) -> MarginCost:
    r"""Return a margin cost by registry name (see :data:`LOSSES`), or pass an instance through.

    Parameters
    ----------
    name : str or MarginCost
        A registry key (case, ``-`` and ``_`` insensitive): ``"exponential"``,
        ``"logistic"``, ``"hinge"``, ``"squared_hinge"``, ``"generalized_hinge"``,
        ``"squared"``, ``"normalized_sigmoid"``, ``"madaboost"`` or ``"zero_one"``; or a
        :class:`MarginCost` instance, returned unchanged.
    **params
        The cost's parameters, e.g. ``get_loss("generalized_hinge", p=3)`` or
        ``get_loss("normalized_sigmoid", steepness=2)``.  Not allowed with an instance.

    Returns
    -------
    MarginCost
        A new instance of the registered cost (or ``name`` itself).

    Raises
    ------
    ValueError
        For an unknown name or an invalid parameter value.
    TypeError
        For parameters the cost does not take, or a ``name`` of the wrong type.

    Notes
    -----
    The registry holds the costs of Mason et al. (2000), Table 1 and eq. (4), and of Shen & Li
    (2010a), Fig. 2 and Table I, the latter each with the closed-form conjugate that becomes
    the regularizer of its Lagrange dual.

    References
    ----------
    Mason, L., Baxter, J., Bartlett, P. and Frean, M. (2000). Boosting algorithms as gradient
    descent. Advances in Neural Information Processing Systems 12, 512-518.

    Shen, C. and Li, H. (2010a). On the dual formulation of boosting algorithms. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 32(12), 2216-2231.

    Examples
    --------
    >>> from marginboost.losses import get_loss
    >>> get_loss("generalized_hinge", p=3).dual_exponent
    1.5
    >>> get_loss("Squared-Hinge")
    SquaredHingeLoss()
    """
    if isinstance(name, MarginCost):
        if params:
            raise TypeError(
                f"parameters {sorted(params)} cannot be applied to the existing cost {name!r}"
            )
        return name
    if not isinstance(name, str):
        raise TypeError(
            f"loss must be a registry name (str) or a MarginCost instance; got {name!r}"
        )
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in LOSSES:
        raise ValueError(f"unknown loss {name!r}; known losses: {', '.join(sorted(LOSSES))}")
    cls = LOSSES[key]
    assert dataclasses.is_dataclass(cls)  # every registered cost is a dataclass
    accepted = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        takes = (
            f"its parameters are: {', '.join(accepted)}" if accepted else "it takes no parameters"
        )
        raise TypeError(f"loss {key!r} got unexpected parameter(s) {unknown}; {takes}")
    return cls(**params)
