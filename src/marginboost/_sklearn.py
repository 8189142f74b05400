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

__all__ = ["PARAMETERS", "EXPECTED_FAILED_CHECKS", "constraints", "expected_failed_checks"]

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
}


def constraints(*names: str, **own: Any) -> dict[str, Any]:
    """``_parameter_constraints`` of an estimator: the shared ``names`` plus its ``own``."""
    return {**{name: PARAMETERS[name] for name in names}, **own}


#: class name -> {check name: why the estimator fails it by design}.
EXPECTED_FAILED_CHECKS: dict[str, dict[str, str]] = {}


def expected_failed_checks(estimator: Any) -> dict[str, str]:
    """The expected failures of ``estimator`` (for ``parametrize_with_checks``)."""
    return dict(EXPECTED_FAILED_CHECKS.get(type(estimator).__name__, {}))
