"""No silent failure: every public estimator on degenerate data, wrong keywords and sparse
input either raises an error that names the problem or warns with a named warning class, and
its fitted attributes say how the fit ended."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer
from sklearn.exceptions import ConvergenceWarning

import marginboost
from marginboost.boosting import NoEdgeError, NotBoostedWarning

NAMES = sorted(marginboost._ESTIMATORS)


def _estimator(name: str):
    model = getattr(marginboost, name)()
    if "n_estimators" in model.get_params():
        model.set_params(n_estimators=20)
    return model


def _constant_features():
    return np.zeros((20, 3)), np.arange(20) % 2


def _duplicated_opposite_rows():
    X = np.repeat(np.random.default_rng(0).normal(size=(10, 3)), 2, axis=0)
    return X, np.tile([0, 1], 10)


@pytest.mark.parametrize("name", NAMES)
def test_a_wrong_keyword_names_the_estimator_called(name):
    with pytest.raises(TypeError, match=rf"^{name}\.__init__\(\) got an unexpected keyword"):
        getattr(marginboost, name)(not_a_parameter=1)


@pytest.mark.parametrize("name", NAMES)
def test_sparse_input_is_refused_with_the_remedy(name):
    X = sp.random(30, 4, density=0.5, format="csr", random_state=0)
    with pytest.raises(TypeError, match=r"Sparse data was passed.*toarray"):
        _estimator(name).fit(X, np.arange(30) % 2)


@pytest.mark.parametrize("data", [_constant_features, _duplicated_opposite_rows])
@pytest.mark.parametrize("name", NAMES)
def test_data_without_an_edge_never_looks_boosted(name, data):
    """No weak classifier beats chance: a clear error, or a NotBoostedWarning with the fitted
    attributes saying so -- never a fit that reports convergence in silence."""
    X, y = data()
    model = _estimator(name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model.fit(X, y)
        except (NoEdgeError, ValueError) as error:
            assert str(error)
            return
    categories = [w.category for w in caught]
    assert NotBoostedWarning in categories, (name, [str(w.message) for w in caught])
    if hasattr(model, "converged_"):
        assert model.converged_ is False
    if hasattr(model, "boosted_") and not hasattr(model, "converged_"):
        assert model.boosted_ is False
    if hasattr(model, "stop_reason_") and hasattr(model, "converged_"):
        assert model.stop_reason_ == "no edge"


def test_brownboost_on_its_cap_warns_and_says_it():
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.warns(ConvergenceWarning, match="remaining time"):
        model = marginboost.BrownBoost(c=50, n_estimators=20).fit(X, y)
    assert model.stop_reason_ == "n_estimators" and model.converged_ is False
    assert model.remaining_time_ > 0


@pytest.mark.parametrize("name", ["DirectBoost", "DMCBoost", "BrownBoost", "LPBoost"])
def test_every_iterative_estimator_says_whether_it_reached_its_stop(name):
    X, y = load_breast_cancer(return_X_y=True)
    params = {"c": 2.0} if name == "BrownBoost" else {}
    if name == "LPBoost":
        params = {"nu": 0.1, "n_estimators": 500}
    model = getattr(marginboost, name)(**params).fit(X, y)
    assert model.converged_ is True
    assert model.stop_reason_ not in ("n_estimators", "no edge")


@pytest.mark.parametrize("name", NAMES)
def test_one_class_error_prints_the_plain_label(name):
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match=r"y has only one class \(1\)"):
        getattr(marginboost, name)().fit(X, np.ones(10, dtype=np.int64))


@pytest.mark.parametrize(
    "name", ["LPBoost", "ERLPBoost", "HingeLPBoost", "AdaBoost", "LogitBoost", "MCBoost"]
)
def test_column_generation_defaults_finish_on_breast_cancer(name):
    """The default round limit is a safety cap: on a toy data set the fit ends by its own rule,
    without a warning."""
    X, y = load_breast_cancer(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = getattr(marginboost, name)().fit(X, y)
    if hasattr(model, "converged_"):
        assert model.converged_


def _bad_inputs():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] > 0).astype(int)
    cell = np.arange(120).reshape(40, 3) == 5
    return (
        X,
        y,
        {
            "NaN in X": (np.where(cell, np.nan, X), y, None),
            "inf in X": (np.where(cell, np.inf, X), y, None),
            "one sample": (X[:1], y[:1], None),
            "1-D X": (X[:, 0], y, None),
            "y of another length": (X, y[:-1], None),
            "zero sample weights": (X, y, np.zeros(40)),
            "negative sample weights": (X, y, -np.ones(40)),
            "NaN sample weights": (X, y, np.full(40, np.nan)),
            "sample weights of another length": (X, y, np.ones(39)),
        },
    )


@pytest.mark.parametrize("case", list(_bad_inputs()[2]))
@pytest.mark.parametrize("name", NAMES)
def test_bad_input_is_refused_with_a_message(name, case):
    X, y, sw = _bad_inputs()[2][case]
    model = _estimator(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((ValueError, TypeError)) as error:
            model.fit(X, y) if sw is None else model.fit(X, y, sample_weight=sw)
    assert str(error.value)


@pytest.mark.parametrize("name", NAMES)
def test_odd_but_valid_input_fits(name):
    """Huge feature values, string labels and pandas inputs fit, and predict the labels given."""
    import pandas as pd

    X, y, _ = _bad_inputs()
    labels = np.where(y == 1, "yes", "no")
    for features, target in (
        (X * 1e300, y),
        (X, labels),
        (pd.DataFrame(X, columns=list("abc")), pd.Series(labels)),
    ):
        model = _estimator(name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(features, target)
        assert set(np.unique(model.predict(features))) <= set(np.unique(np.asarray(target)))


@pytest.mark.parametrize("name", NAMES)
def test_predict_with_another_number_of_features_is_refused(name):
    X, y, _ = _bad_inputs()
    model = _estimator(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :2])
