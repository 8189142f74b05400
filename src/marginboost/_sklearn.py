"""The scikit-learn side of the estimators: shared parameter constraints and the checks that fail.

``PARAMETERS`` holds the constraint of every parameter that several estimators share (one name
per concept, following scikit-learn: ``n_estimators``, ``learning_rate``, ``max_depth``,
``tol``, ``n_iter_no_change``, ``random_state``); each estimator's ``_parameter_constraints``
picks from it and adds its own, so a bad value gets scikit-learn's standard error
(:class:`sklearn.utils._param_validation.InvalidParameterError`, a ``ValueError``) that names
the parameter, the estimator and the allowed values.

:data:`EXPECTED_FAILED_CHECKS` lists, in one place, every check of
:func:`sklearn.utils.estimator_checks.parametrize_with_checks` that an estimator fails by
design, with the reason; ``tests/test_sklearn_compliance.py`` passes it to the checks.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

from sklearn.utils._param_validation import Interval

__all__ = [
    "PARAMETERS",
    "EXPECTED_FAILED_CHECKS",
    "constraints",
    "expected_failed_checks",
    "examples_section",
]

#: Constraints of the parameters shared by several estimators.
PARAMETERS: dict[str, Any] = {
    "n_estimators": [Interval(Integral, 1, None, closed="left")],
    "max_depth": [Interval(Integral, 1, None, closed="left")],
    # the weak learner's own interface is checked when it is used (fit_binary/fit_regression)
    "estimator": "no_validation",
    # bin codes are uint8: at most 256 bins, and a split needs 2
    "max_bins": [Interval(Integral, 2, 256, closed="both")],
    "learning_rate": [Interval(Real, 0.0, float("inf"), closed="neither")],
    "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
    "validation_fraction": [Interval(Real, 0.0, 1.0, closed="neither")],
    "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
    "random_state": ["random_state"],
    "warm_start": ["boolean"],
}


def constraints(*names: str, **own: Any) -> dict[str, Any]:
    """``_parameter_constraints`` of an estimator: the shared ``names`` plus its ``own``."""
    return {**{name: PARAMETERS[name] for name in names}, **own}


_UNWEIGHTED = {
    "LPBoost": "its restricted master problems (Shen & Li 2010, eqs. (20), (22))",
    "ERLPBoost": "its restricted master problems (Warmuth et al. 2008)",
    "HingeLPBoost": "its restricted master problems (Shen & Li 2010, Sec. 4)",
    "AdaBoostCG": "its restricted master problem (Shen & Li 2010, eq. (5))",
    "LogitBoostCG": "its restricted master problem (Shen & Li 2010, eq. (11))",
    "MCBoost": "its restricted master problem (Guo & Chen, eq. (12))",
    "MDBoost": "its restricted master problem (Shen & Li 2010b, eq. (6))",
    "AdaBoostL1": "its pool problem (Shen & Li 2010, eq. (5))",
    "AdaBoostQP": "its pool problem (Shen & Li 2010, eq. (10))",
    "DirectBoost": "its objectives, counts of training errors and averages of the smallest "
    "margins (Zhai et al. 2013, eqs. (2), (5))",
    "DMCBoost": "its objectives, counts of training errors and averages of the smallest "
    "margins (Zhai et al. 2014, eqs. (2), (5))",
}

#: Multi-class estimators: decision_function is the class scores f(x, k).
_CLASS_SCORES = (
    "decision_function returns the class scores f(x, k), shape (n_samples, K), also "
    "for K = 2 (scikit-learn expects shape (n_samples,) for two classes); the "
    "multi-class margins f(x, y) - max_{k != y} f(x, k) of DMCBoost's eq. (4) are "
    "defined on them"
)
_ZERO_WEIGHT_BINS = (
    "rows of weight 0 take part in the binning of the features, so removing "
    "them can move a bin boundary between two training values"
)

#: class name -> {check name: why the estimator fails it by design}.
EXPECTED_FAILED_CHECKS: dict[str, dict[str, str]] = {
    "RealAdaBoost": {
        "check_sample_weight_equivalence_on_dense_data": "the default smoothing 1/(2m) of the leaf values depends on the number of rows m, "
        "so repeating a row is not the same as doubling its weight"
    },
    "DoomII": {
        "check_sample_weight_equivalence_on_dense_data": "boosting by resampling (the default) draws m rows from the weights; with repeated "
        "rows m changes, so the random draws (and the fitted stumps) differ"
    },
    **{
        name: {
            "check_sample_weights_not_overwritten": f"non-uniform sample_weight is refused with a ValueError: every example weighs the "
            f"same in {where}",
            "check_sample_weight_equivalence_on_dense_data": f"non-uniform sample_weight is refused with a ValueError: every example weighs the "
            f"same in {where}",
        }
        for name, where in _UNWEIGHTED.items()
    },
    **{
        name: {
            "check_classifiers_train": _CLASS_SCORES,
            "check_classifiers_classes": _CLASS_SCORES,
            "check_decision_proba_consistency": _CLASS_SCORES,
            "check_sample_weight_equivalence_on_dense_data": _ZERO_WEIGHT_BINS,
        }
        for name in ("AdaBoostM1", "SAMME")
    },
    "GDMCBoost": {
        "check_classifiers_train": _CLASS_SCORES,
        "check_classifiers_classes": _CLASS_SCORES,
        "check_sample_weight_equivalence_on_dense_data": _ZERO_WEIGHT_BINS,
    },
    "AdaBoostMH": {
        "check_classifiers_train": _CLASS_SCORES,
        "check_classifiers_classes": _CLASS_SCORES,
        "check_sample_weight_equivalence_on_dense_data": "the default smoothing 1/(2mK) of the leaf values depends on the number of rows m, "
        "so repeating a row is not the same as doubling its weight",
    },
}
EXPECTED_FAILED_CHECKS["DMCBoost"] = {
    **EXPECTED_FAILED_CHECKS["DMCBoost"],
    "check_classifiers_train": _CLASS_SCORES,
    "check_classifiers_classes": _CLASS_SCORES,
    "check_decision_proba_consistency": _CLASS_SCORES,
}


def expected_failed_checks(estimator: Any) -> dict[str, str]:
    """The expected failures of ``estimator`` (for ``parametrize_with_checks``).

    Those of its class, less the ones its parameters avoid: DOOM II with
    ``sampling="reweight"`` and RealAdaBoost / AdaBoost.MH with a fixed ``smoothing`` treat a
    weight like a repeated row.
    """
    failures = dict(EXPECTED_FAILED_CHECKS.get(type(estimator).__name__, {}))
    if (type(estimator).__name__ == "DoomII" and estimator.sampling == "reweight") or (
        type(estimator).__name__ == "RealAdaBoost" and estimator.smoothing is not None
    ):
        failures.pop("check_sample_weight_equivalence_on_dense_data", None)
    return failures


def examples_section(name: str, params: str = "n_estimators=10", *, n_classes: int = 2) -> str:
    """A short runnable numpydoc Examples section for estimator ``name`` (run by doctest in
    ``tests/test_docstrings.py``)."""
    return f"""
    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from marginboost import {name}
    >>> X, y = make_classification(n_samples=90, n_features=4, n_informative=3,
    ...                            n_redundant=0, n_classes={n_classes}, random_state=0)
    >>> model = {name}({params}).fit(X, y)
    >>> model.predict(X[:3]).shape, model.predict_proba(X[:3]).shape
    ((3,), (3, {n_classes}))
    """
