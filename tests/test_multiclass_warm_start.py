"""``warm_start`` of the multi-class estimators: a fit run in parts, pickled in between, is the
fit run at once (same trees, votes, history and scores, bit for bit); bad continuations are
refused with the fitted model left as it was."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from test_multiclass import noisy_classes

from marginboost.boosting import SAMME, AdaBoostM1, AdaBoostMH, GDMCBoost, NotBoostedWarning

MODELS = [SAMME, AdaBoostM1, AdaBoostMH, GDMCBoost]


def _same_fit(a, b):
    assert a.n_estimators_ == b.n_estimators_ and a.stop_reason_ == b.stop_reason_
    np.testing.assert_array_equal(a.alphas_, b.alphas_)
    for ta, tb in zip(a.estimators_, b.estimators_):
        np.testing.assert_array_equal(ta.node_feature, tb.node_feature)
        np.testing.assert_array_equal(ta.node_bin, tb.node_bin)
        np.testing.assert_array_equal(ta.leaf_values_, tb.leaf_values_)
    assert sorted(a.history_) == sorted(b.history_)
    for key in a.history_:
        if key != "time":
            np.testing.assert_array_equal(a.history_[key], b.history_[key], err_msg=key)


@pytest.mark.parametrize("Model", MODELS)
@pytest.mark.parametrize("weighted", [False, True])
def test_a_fit_in_parts_equals_the_fit_at_once(Model, weighted):
    X, y = noisy_classes(n=200, n_classes=4, seed=3)
    w = np.random.default_rng(1).uniform(0.5, 2.0, y.size) if weighted else None
    once = Model(n_estimators=12, max_depth=2).fit(X, y, sample_weight=w)
    assert once.n_estimators_ > 3  # rounds after the first part (AdaBoost.M1 stops at 5)
    parts = Model(n_estimators=3, max_depth=2, warm_start=True).fit(X, y, sample_weight=w)
    for n in (3, 7, 12):  # 3 again: nothing to add, the model is kept
        parts = pickle.loads(pickle.dumps(parts))
        parts.set_params(n_estimators=n).fit(X, y, sample_weight=w)
        assert parts.n_estimators_ == min(n, once.n_estimators_)
    _same_fit(parts, once)
    np.testing.assert_array_equal(parts.decision_function(X), once.decision_function(X))
    assert np.all(np.diff(parts.history_["time"]) >= 0)  # the clock goes on


def test_a_fit_that_stopped_by_its_own_rule_is_kept():
    X, y = noisy_classes(n_classes=4)
    once = AdaBoostM1(n_estimators=50, max_depth=3).fit(X, y)
    assert once.stop_reason_.startswith("weighted error")
    stopped = once.n_estimators_
    parts = AdaBoostM1(n_estimators=2, max_depth=3, warm_start=True).fit(X, y)
    while parts.stop_reason_ == "n_estimators":
        parts.set_params(n_estimators=parts.n_estimators + 2).fit(X, y)
    _same_fit(parts, once)
    assert parts.n_estimators_ == stopped
    kept = parts.alphas_
    parts.set_params(n_estimators=100).fit(X, y)  # stays stopped: the same next tree fails
    assert parts.alphas_ is kept and parts.stop_reason_ == once.stop_reason_


def test_a_model_that_could_not_boost_stays_so():
    X, y = noisy_classes(n=300, n_classes=6)
    with pytest.warns(NotBoostedWarning):
        model = AdaBoostM1(n_estimators=5, max_depth=1, warm_start=True).fit(X, y)
    with pytest.warns(NotBoostedWarning, match="not able to boost"):
        model.set_params(n_estimators=10).fit(X, y)
    assert not model.boosted_ and model.n_estimators_ == 0


def test_without_warm_start_a_second_fit_starts_over():
    X, y = noisy_classes(n_classes=3)
    model = SAMME(n_estimators=4, max_depth=2).fit(X, y)
    model.set_params(n_estimators=6).fit(X, y)
    _same_fit(model, SAMME(n_estimators=6, max_depth=2).fit(X, y))


@pytest.mark.parametrize("Model", MODELS)
def test_bad_continuations_are_refused_and_the_model_is_kept(Model):
    X, y = noisy_classes(n=200, n_classes=4, seed=3)
    model = Model(n_estimators=5, max_depth=2, warm_start=True).fit(X, y)
    alphas, classes = model.alphas_.copy(), model.classes_
    name = Model.__name__
    fitted = model.n_estimators_  # 5, AdaBoost.M1 4 (it stops in round 5)
    message = f"{name} with warm_start=True: n_estimators=2 must be at least the {fitted} rounds"
    with pytest.raises(ValueError, match=message):
        model.set_params(n_estimators=2).fit(X, y)
    model.set_params(n_estimators=8)
    with pytest.raises(ValueError, match=r"X has 4 features, the fitted model 5"):
        model.fit(X[:, :4], y)
    with pytest.raises(ValueError, match=r"classes \[0 1 2\], the fitted model \[0 1 2 3\]"):
        model.fit(X[y < 3], y[y < 3])
    assert model.n_features_in_ == 5 and model.n_classes_ == 4
    np.testing.assert_array_equal(model.classes_, classes)
    np.testing.assert_array_equal(model.alphas_, alphas)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.predict(X)  # still the fitted model
