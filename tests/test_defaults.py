"""A new user's first fits: every public estimator with its defaults on scikit-learn's toy data
(breast cancer for the binary methods; digits, iris and wine for the multi-class ones).

Defaults that finish end without a warning.  The fits that warn today, and the defaults too slow
for a test, are listed with what they do: the test fails when one of the others starts to warn,
and when a listed one changes (update the list).
"""

from __future__ import annotations

import warnings

import pytest
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine

import marginboost

DATA = {
    "breast_cancer": load_breast_cancer,
    "digits": load_digits,
    "iris": load_iris,
    "wine": load_wine,
}
ESTIMATORS = sorted(n for n in marginboost.__all__ if n in marginboost._ESTIMATORS)
#: The multi-class estimators (the others are binary and refuse more than two classes).
MULTICLASS = {"SAMME", "AdaBoostM1", "AdaBoostMH", "GDMCBoost", "DMCBoost"}

#: Default fits that warn today, and the warnings they give (measured; to be brought to none).
WARNS: dict[tuple[str, str], set[str]] = {}
#: Default fits too slow for the test suite (seconds measured on 2 cores), with what they gave.
SLOW = {
    # its own stop (phase II's patience) comes at about 11,100 rounds: 11,053 kept, 922 s
    ("DMCBoost", "digits"): "26 s; ConvergenceWarning at 1,000 rounds",
}


def _fit(name, data):
    X, y = DATA[data](return_X_y=True)
    with warnings.catch_warnings(record=True) as raised:
        warnings.simplefilter("always")
        try:
            getattr(marginboost, name)().fit(X, y)
        except ValueError as exc:  # a binary method given several classes
            if "class" in str(exc):
                return None
            raise
    return {w.category.__name__ for w in raised}


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("name", ESTIMATORS)
def test_defaults_finish_without_a_warning_or_are_listed(name, data):
    if (name, data) in SLOW:
        pytest.skip(f"too slow for the suite: {SLOW[name, data]}")
    if data != "breast_cancer" and name not in MULTICLASS:
        assert _fit(name, data) is None, f"{name} fits {data}: add it to MULTICLASS"
        return
    raised = _fit(name, data)
    assert raised is not None, f"{name} refused {data}"
    assert raised == WARNS.get((name, data), set())
