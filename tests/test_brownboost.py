"""BrownBoost (Freund 2001): the step equations, the time budget, noise, conventions."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from reference.brownboost import ode_end_point
from scipy.optimize import fsolve
from scipy.special import erf

from marginboost.boosting import AdaBoost, BrownBoost, NoEdgeError
from marginboost.boosting.brownboost import brownboost_step, time_budget

PAPER_GRID = [0.0001, 0.001, 0.01, 0.03, 0.05, 0.08, 0.1, 0.14, 0.17, 0.2]


def noisy_problem(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + X[:, 1] + 0.7 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def diagonal_problem(n=300, seed=0, flip_rate=0.0):
    """y = sign(x0 + x1) (many stumps needed); labels of points far from the boundary flipped."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2))
    z = X.sum(axis=1)
    clean = np.where(z > 0, 1, -1)
    flipped = (rng.random(n) < flip_rate) & (np.abs(z) > 0.5)
    return X, np.where(flipped, -clean, clean), flipped


def phi(z, c):
    """Freund's potential 1 - erf(z / sqrt(c)), written independently of the module."""
    return 1.0 - erf(np.asarray(z) / math.sqrt(c))


def edge(d, b, c):
    """sum_i exp(-d_i^2/c) b_i / sum_i exp(-d_i^2/c)."""
    w = np.exp(-(d * d - np.min(d * d)) / c)
    return float(w @ b / w.sum())


def replay(model, X, y):
    """Per round: margins r before it, b = y h, and the remaining time s before it."""
    codes = model.mapper_.transform(X)
    y_signed = np.where(y == model.classes_[1], 1.0, -1.0)
    scores = [np.zeros(len(y)), *model.staged_decision_function(X)]
    remaining = np.concatenate([[model.c_], model.history_["remaining_time"]])
    for k, tree in enumerate(model.estimators_):
        yield y_signed * scores[k], y_signed * tree.predict(codes), remaining[k]


# ---- the time budget -------------------------------------------------------------------------
@pytest.mark.parametrize("target_error", PAPER_GRID)
def test_time_budget_solves_freunds_equation(target_error):
    c = time_budget(target_error)
    assert c > 0
    assert 1.0 - erf(math.sqrt(c)) == pytest.approx(target_error, rel=1e-9, abs=1e-15)
    model = BrownBoost(target_error=target_error, n_estimators=2).fit(*noisy_problem(n=40))
    assert model.c_ == c


def test_c_takes_precedence_over_target_error():
    X, y = noisy_problem(n=40)
    model = BrownBoost(target_error=0.3, c=2.5, n_estimators=3).fit(X, y)
    assert model.c_ == 2.5
    # target_error is not even validated when c is given
    assert BrownBoost(target_error=7.0, c=2.5, n_estimators=3).fit(X, y).c_ == 2.5


# ---- the step equations after every round ----------------------------------------------------
@pytest.mark.parametrize("target_error, max_depth", [(0.1, 1), (0.01, 2), (0.2, 3)])
def test_equations_hold_after_every_round(target_error, max_depth):
    X, y = noisy_problem()
    model = BrownBoost(target_error=target_error, max_depth=max_depth, n_estimators=300).fit(X, y)
    c, history = model.c_, model.history_
    assert model.n_estimators_ >= 5
    limited = 0
    for k, (r, b, s) in enumerate(replay(model, X, y)):
        alpha, t = model.alphas_[k], history["t"][k]
        assert alpha > 0 and 0 < t <= s
        before = phi(r + s, c).sum()
        after = phi(r + alpha * b + s - t, c).sum()
        # equation (2): the potential is conserved
        assert abs(after - before) <= 2e-10 * before + 1e-12 * len(y), k
        # the edge of the weak learner under W = exp(-(r + s)^2 / c)
        assert history["edge"][k] == pytest.approx(edge(r + s, b, c), abs=1e-12)
        if t < s:
            # equation (1): the weighted correlation vanishes at the end point
            assert abs(edge(r + alpha * b + s - t, b, c)) <= 1e-9, k
        else:
            limited += 1
            assert k == model.n_estimators_ - 1 and model.stop_reason_ == "time exhausted"
    assert limited <= 1
    # the average potential stays at the target error (it starts there)
    np.testing.assert_allclose(history["potential"], target_error, rtol=1e-8)


def check_step(r, b, s, c, v):
    """brownboost_step against the ODE and fsolve (started at the ODE's end point)."""
    step = brownboost_step(r, b, s, c, v)
    alpha, t, limited = ode_end_point(r, b, s, c, v)
    assert step.time_limited == limited
    assert step.alpha == pytest.approx(alpha, abs=1e-6)
    assert step.t == pytest.approx(t, abs=1e-6)
    a = r + s
    p0 = float(v @ phi(a, c))

    def potential_change(alpha, t):
        return float(v @ phi(a + alpha * b - t, c)) - p0

    if limited:
        assert step.t == s
        # polish the ODE's alpha on the potential equation (2) with t = s
        root, *_ = fsolve(
            lambda x: [potential_change(x[0], s)], [alpha], xtol=1e-13, full_output=True
        )
        assert step.alpha == pytest.approx(root[0], rel=1e-8, abs=1e-10)
        assert step.edge > 0
    else:

        def equations(x):
            d = a + x[0] * b - x[1]
            weights = v * np.exp(-(d * d - np.min(d * d)) / c)
            return [float(weights @ b / weights.sum()), potential_change(x[0], x[1]) / p0]

        root, *_ = fsolve(equations, [alpha, t], xtol=1e-13, full_output=True)
        assert step.alpha == pytest.approx(root[0], rel=1e-8, abs=1e-10)
        assert step.t == pytest.approx(root[1], rel=1e-8, abs=1e-10)
        assert abs(step.edge) <= 1e-10
    assert abs(step.potential_change) <= 1e-10 * p0 + 1e-14 * v.sum()
    return limited


def test_step_agrees_with_the_differential_equation_and_an_independent_root_finder():
    rng = np.random.default_rng(7)
    outcomes = []
    for _ in range(40):
        n = int(rng.integers(5, 60))
        c = float(rng.uniform(0.3, 8.0))
        s = float(rng.uniform(0.05, 1.0) * c)
        r = rng.normal(size=n) * rng.uniform(0.0, 2.0) * math.sqrt(c)
        b = np.where(rng.random(n) < rng.uniform(0.5, 0.95), 1.0, -1.0)
        v = rng.uniform(0.1, 1.0, size=n)
        a = r + s
        w = v * np.exp(-(a * a - np.min(a * a)) / c)
        if w @ b < 0:  # the weak hypothesis must have a positive edge
            b = -b
        if not w @ b > 1e-3:
            continue
        outcomes.append(check_step(r, b, s, c, v))
    # both kinds of end point were exercised
    assert len(outcomes) >= 30
    assert 5 <= sum(outcomes) <= len(outcomes) - 5


def hard_instance(index):
    """Instance ``index`` of a stress family: wide ranges of c, s and spread of the margins."""
    rng = np.random.default_rng(11)
    k = -1
    while True:
        n = int(rng.integers(3, 300))
        c = float(10 ** rng.uniform(-4, 2.3))
        s = float(10 ** rng.uniform(-6, 0) * c)
        spread = rng.choice([0.1, 1, 3, 10, 40])
        r = rng.normal(size=n) * spread * math.sqrt(c)
        if rng.random() < 0.3:
            r = np.round(r, 1)
        b = np.where(rng.random(n) < rng.uniform(0.3, 0.99), 1.0, -1.0)
        v = rng.random(n)
        a = r + s
        w = v * np.exp(-(a * a - np.min(a * a)) / c)
        if w @ b <= 0:
            b = -b
        if w @ b <= 1e-6 * w.sum():
            continue
        k += 1
        if k == index:
            return r, b, s, c, v


@pytest.mark.parametrize(
    "index, what",
    [
        (41, "a first step far past the zero (bisection from an off-curve point)"),
        (56, "the edge dips below 0 and rises again within one weight width"),
        (79, "a flat potential: every example far from the boundary, t = s"),
        (382, "a flat potential with a tiny remaining time"),
        (202, "a tiny time budget; t reaches s just before the edge vanishes"),
        (21, "the edge has several zeros along the curve (a longer step skips the first)"),
        (535, "the edge has several zeros along the curve (found by the dip probe)"),
    ],
)
def test_hard_instances_match_the_differential_equation(index, what):
    r, b, s, c, v = hard_instance(index)
    step = brownboost_step(r, b, s, c, v)
    alpha, t, limited = ode_end_point(r, b, s, c, v)
    assert step.time_limited == limited
    assert step.alpha == pytest.approx(alpha, rel=1e-6, abs=1e-9 * math.sqrt(c))
    assert step.t == pytest.approx(t, rel=1e-6, abs=1e-9 * math.sqrt(c))


@pytest.mark.parametrize("step", [1e-2, 3e-3])
def test_taylor_expansion_of_the_potential_is_third_order(step):
    """Near an evaluated point the solver expands the potential instead of calling erfc."""
    from marginboost.boosting.brownboost import _Sums, _taylor_change

    rng = np.random.default_rng(3)
    for c in (0.5, 3.0):
        n = 40
        v = rng.uniform(0.1, 1.0, size=n)
        sums = _Sums(rng.normal(size=n) * 2.0, np.where(rng.random(n) < 0.7, 1.0, -1.0), v, c)
        base = sums(0.3, 0.1)
        for d_alpha, d_t in [(step, 0.5 * step), (-step, step), (0.3 * step, -step)]:
            exact = sums.excess(0.3 + d_alpha, 0.1 + d_t) - base.excess
            approx = _taylor_change(base.taylor, d_alpha / math.sqrt(c), d_t / math.sqrt(c))
            h = (abs(d_alpha) + abs(d_t)) / math.sqrt(c)
            assert abs(approx - exact) <= 0.2 * h**4 * v.sum()


def test_a_perfect_hypothesis_uses_the_whole_time_in_one_round():
    X = np.arange(20.0).reshape(-1, 1)
    y = np.where(X[:, 0] > 9, 1, 0)
    model = BrownBoost(target_error=0.05).fit(X, y)
    assert model.n_estimators_ == 1 and model.stop_reason_ == "time exhausted"
    assert model.alphas_[0] == pytest.approx(model.c_) and model.history_["t"][0] == model.c_
    assert model.history_["train_error"][-1] == 0.0


# ---- the time budget is used up exactly ------------------------------------------------------
@pytest.mark.parametrize("target_error", [0.05, 0.1, 0.2])
def test_time_used_sums_to_c_and_never_goes_negative(target_error):
    X, y = noisy_problem()
    model = BrownBoost(target_error=target_error, max_depth=2).fit(X, y)
    assert model.stop_reason_ == "time exhausted"
    history = model.history_
    assert math.fsum(history["t"]) == pytest.approx(model.c_, rel=1e-12)
    assert np.all(history["remaining_time"] >= 0) and np.all(history["t"] > 0)
    assert history["remaining_time"][-1] == 0.0 == model.remaining_time_
    np.testing.assert_allclose(
        history["remaining_time"], model.c_ - np.cumsum(history["t"]), atol=1e-12 * model.c_
    )
    assert np.all(np.diff(history["remaining_time"]) < 0)
    # Freund's guarantee: when the time is used up, the training error is below the target
    assert history["train_error"][-1] <= target_error


def test_n_estimators_caps_the_run_and_leaves_time():
    X, y = noisy_problem()
    model = BrownBoost(target_error=0.01, n_estimators=4).fit(X, y)
    assert model.n_estimators_ == 4 and model.stop_reason_ == "n_estimators"
    assert model.remaining_time_ > 0
    assert model.remaining_time_ == pytest.approx(model.c_ - model.history_["t"].sum())


class _ScriptedLearner:
    """A weak learner returning fixed hypotheses, one per call to fit_binary."""

    def __init__(self, hypotheses):
        self.hypotheses = hypotheses
        self.calls = 0

    def fit_binary(self, codes, y, sample_weight):
        h = self.hypotheses[min(self.calls, len(self.hypotheses) - 1)]
        self.calls += 1
        return _Fixed(h)


class _Fixed:
    def __init__(self, h):
        self.h = np.asarray(h, dtype=np.float64)

    def predict(self, codes):
        return self.h


def test_no_edge_stops_training_and_a_useless_first_learner_raises():
    X, y = noisy_problem(n=50)
    signed = np.where(y == 1, 1.0, -1.0)
    decent = np.where(np.arange(50) % 5 == 0, -signed, signed)
    model = BrownBoost(estimator=_ScriptedLearner([decent, -signed])).fit(X, y)
    assert model.stop_reason_ == "no edge" and model.n_estimators_ == 1
    with pytest.raises(NoEdgeError, match="could not make a first step: no edge"):
        BrownBoost(estimator=_ScriptedLearner([-signed])).fit(X, y)
    with pytest.raises(ValueError, match="outputs -1 and \\+1"):
        BrownBoost(estimator=_ScriptedLearner([0.5 * signed])).fit(X, y)


# ---- behaviour: separable data and label noise -----------------------------------------------
def test_reaches_low_training_error_on_separable_data():
    X, y, _ = diagonal_problem()
    model = BrownBoost(target_error=0.01).fit(X, y)
    assert model.stop_reason_ == "time exhausted"
    assert model.history_["train_error"][-1] <= 0.01
    assert model.score(X, y) >= 0.99


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gives_up_on_flipped_labels(seed):
    """Points far from the boundary with flipped labels end with tiny weights exp(-r^2/c).

    The target error 0.2 exceeds twice the noise rate, so the conserved potential (2 per
    abandoned point) allows BrownBoost to abandon all of them.  AdaBoost, for contrast, puts
    most of its weight on them.
    """
    X, y, flipped = diagonal_problem(n=400, seed=seed, flip_rate=0.1)
    assert 0.03 < flipped.mean() < 0.09
    model = BrownBoost(target_error=0.2).fit(X, y)
    assert model.stop_reason_ == "time exhausted"
    r = np.where(y == 1, 1.0, -1.0) * model.decision_function(X)
    assert np.all(r[flipped] < 0)  # abandoned: still misclassified
    assert np.mean(r[~flipped] <= 0) <= 0.03  # the clean points are learned
    weights = np.exp(-((r + model.remaining_time_) ** 2) / model.c_)
    assert weights[flipped].mean() < 0.2 * weights[~flipped].mean()
    assert np.median(weights[flipped]) < 0.01 * weights.max()
    ada = AdaBoost(n_estimators=model.n_estimators_).fit(X, y)
    ada_weights = np.exp(-np.where(y == 1, 1.0, -1.0) * ada.decision_function(X))
    assert ada_weights[flipped].mean() > 2.0 * ada_weights[~flipped].mean()


# ---- conventions -----------------------------------------------------------------------------
def test_fits_are_deterministic():
    X, y = noisy_problem()
    first = BrownBoost(target_error=0.1, n_estimators=100).fit(X, y)
    second = BrownBoost(target_error=0.1, n_estimators=100).fit(X, y)
    np.testing.assert_array_equal(first.alphas_, second.alphas_)
    for key, value in first.history_.items():
        if key != "time":
            np.testing.assert_array_equal(value, second.history_[key])
    np.testing.assert_array_equal(first.decision_function(X), second.decision_function(X))


def test_predictions_agree_with_the_staged_ones():
    X, y = noisy_problem()
    model = BrownBoost(target_error=0.1, max_depth=2).fit(X, y)
    staged = list(model.staged_decision_function(X))
    assert len(staged) == model.n_estimators_
    np.testing.assert_allclose(staged[-1], model.decision_function(X), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(list(model.staged_predict(X))[-1], model.predict(X))
    errors = [np.mean(labels != y) for labels in model.staged_predict(X)]
    np.testing.assert_allclose(errors, model.history_["train_error"])
    scores = [float(np.mean(np.where(y == 1, 1.0, -1.0) * f > 0)) for f in staged]
    np.testing.assert_allclose(scores, list(model.staged_score(X, y)))
    assert set(model.predict(X)) <= {-1, 1}
    assert model.reference == "freund2001adaptive"


def test_sample_weights_act_like_repeated_examples():
    X, y = noisy_problem(n=60)
    counts = np.arange(60) % 3  # 0, 1 or 2 copies
    weighted = BrownBoost(target_error=0.1, n_estimators=40).fit(X, y, sample_weight=counts)
    repeated = BrownBoost(target_error=0.1, n_estimators=40).fit(
        np.repeat(X, counts, axis=0), np.repeat(y, counts)
    )
    assert weighted.n_estimators_ == repeated.n_estimators_
    np.testing.assert_allclose(weighted.alphas_, repeated.alphas_, rtol=1e-7)
    np.testing.assert_allclose(weighted.history_["t"], repeated.history_["t"], rtol=1e-7)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"c": 0.0}, "The 'c' parameter of"),
        ({"c": -1.0}, "The 'c' parameter of"),
        ({"c": float("nan")}, "The 'c' parameter of"),
        ({"c": float("inf")}, "The 'c' parameter of"),
        (
            {"target_error": 0.0},
            r"target_error must be a number in the open interval \(0, 1\); got 0.0",
        ),
        ({"target_error": 1.0}, r"target_error must be a number in the open interval \(0, 1\)"),
        ({"target_error": -0.1}, r"target_error must be a number in the open interval \(0, 1\)"),
        ({"target_error": float("nan")}, r"target_error must be a number in the open interval"),
        ({"target_error": None}, "needs the time budget c or a target_error; both are None"),
        ({"nu": -0.1}, "The 'nu' parameter of"),
        ({"n_estimators": 0}, "n_estimators"),
        ({"max_depth": 0}, "The 'max_depth' parameter of"),
        ({"tol": 0.0}, "The 'tol' parameter of"),
    ],
)
def test_bad_parameters_are_named(params, message):
    X, y = noisy_problem(n=30)
    with pytest.raises(ValueError, match=message):
        BrownBoost(**params).fit(X, y)


def test_bad_training_data_is_refused():
    X, y = noisy_problem(n=30)
    X_nan = X.copy()
    X_nan[4, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        BrownBoost().fit(X_nan, y)
    with pytest.raises(ValueError, match="y has 3 classes; BrownBoost is binary"):
        BrownBoost().fit(X, np.arange(30) % 3)
    with pytest.raises(ValueError, match="only one class"):
        BrownBoost().fit(X, np.ones(30))
    with pytest.raises(ValueError, match="no positive edge"):
        brownboost_step(np.zeros(4), -np.ones(4), 1.0, 1.0)


def test_history_margins_and_errors_are_those_of_the_staged_ensembles():
    """history_'s per-round training error and smallest / mean normalized margin, recomputed
    from the staged decision function and the weights: y F_t / sum_s |alpha_s|."""
    X, y = noisy_problem(n=150, seed=4)
    model = BrownBoost(target_error=0.1, max_depth=1, n_estimators=40).fit(X, y)
    y_signed = np.where(y == model.classes_[1], 1.0, -1.0)
    l1 = np.cumsum(np.abs(model.alphas_))
    staged = list(model.staged_decision_function(X))
    assert len(staged) == model.n_estimators_ >= 5
    for k, scores in enumerate(staged):
        margins = y_signed * scores / l1[k]
        assert model.history_["min_margin"][k] == pytest.approx(margins.min(), rel=1e-12)
        assert model.history_["mean_margin"][k] == pytest.approx(margins.mean(), rel=1e-12)
        assert model.history_["train_error"][k] == np.mean((scores > 0) != (y_signed > 0))


def test_history_time_is_seconds_since_the_start_of_the_fit():
    X, y = noisy_problem(n=60)
    BrownBoost(target_error=0.1, n_estimators=5).fit(X, y)  # compiles the kernels
    before = time.perf_counter()
    model = BrownBoost(target_error=0.1, n_estimators=5).fit(X, y)
    elapsed = time.perf_counter() - before
    seconds = model.history_["time"]
    assert seconds.size == model.n_estimators_
    assert np.all(np.diff(seconds) >= 0) and seconds[0] >= 0
    assert seconds[-1] <= elapsed
