"""Behaviour of the AnyBoost engine: Theorems 1 and 2, stopping rules, numerics, members."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from marginboost.boosting import (
    AdaBoost,
    AnyBoost,
    ArcGv,
    ArcX4,
    DoomII,
    L2Boost,
    LogitBoost,
    MadaBoost,
    RealAdaBoost,
)
from marginboost.boosting._steps import MIN_WEIGHTED_ERROR
from marginboost.experiments import best_round
from marginboost.losses import FunctionMarginCost, LogisticLoss


def noisy_problem(n=60, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)).round(2)
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.7 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def grid_problem(n=120, seed=4):
    """Few distinct feature values and label noise: no combination of stumps separates the
    data, so the logistic cost has a minimizer over the stumps' linear hull."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, 2)).astype(float)
    y = np.where(X[:, 0] - X[:, 1] + rng.normal(scale=1.5, size=n) > 0, 1, -1)
    return X, y


def stump_pool(X):
    """All +-1 stumps (left = +1) plus the constant: spans the stumps' linear hull."""
    columns = [np.ones(X.shape[0])]
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for threshold in (values[:-1] + values[1:]) / 2:
            columns.append(np.where(X[:, j] <= threshold, 1.0, -1.0))
    return np.array(columns).T


ALL_ESTIMATORS = [
    AdaBoost(),
    ArcGv(),
    ArcX4(),
    ArcX4(variant="anyboost"),
    RealAdaBoost(),
    LogitBoost(),
    DoomII(),
    L2Boost(),
    L2Boost(form="regression"),
    MadaBoost(),
    AnyBoost(cost="logistic", step="lipschitz"),
]


# ---- Theorem 1 and 2 -----------------------------------------------------------------------------
@pytest.mark.parametrize("cost", ["logistic", "normalized_sigmoid", "squared_hinge"])
def test_lipschitz_step_decreases_the_cost_every_round(cost):
    """Mason et al. (1999), Theorem 1: with step (3) C(F_t) is non-increasing."""
    X, y = noisy_problem()
    model = AnyBoost(cost=cost, step="lipschitz", n_estimators=150).fit(X, y)
    objective = np.concatenate([[model._cost.value(0.0)], model.history_["objective"]])
    assert np.all(np.diff(objective) <= 1e-15)
    assert objective[-1] < objective[0]


def test_lipschitz_step_converges_to_the_convex_optimum_over_the_stump_hull():
    """Theorem 2: logistic cost, exact weak learner, negation-closed stumps -> inf over lin(F)."""
    X, y = grid_problem()
    H = stump_pool(X)
    loss = LogisticLoss()

    def cost(w):
        return float(np.mean(loss.value(y * (H @ w))))

    def gradient(w):
        return H.T @ (y * loss.derivative(y * (H @ w))) / len(y)

    optimum = minimize(
        cost,
        np.zeros(H.shape[1]),
        jac=gradient,
        method="L-BFGS-B",
        options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 10000},
    ).fun
    model = AnyBoost(cost="logistic", step="lipschitz", n_estimators=1500).fit(X, y)
    assert model.history_["objective"][-1] == pytest.approx(optimum, abs=1e-5)
    assert model.history_["objective"][-1] >= optimum - 1e-9
    # the best edge tends to 0 (first-order optimality)
    assert abs(model.history_["edge"][-1]) < 0.05 * model.history_["edge"][0]


# ---- stopping rules -----------------------------------------------------------------------------
def test_stops_when_the_weak_learner_no_longer_points_downhill():
    """With one constant feature only constants are available; after the squared-loss step to
    the mean, the gradient is orthogonal to every hypothesis: -<grad C, f> = 0."""
    X = np.zeros((10, 1))
    y = np.array([1] * 7 + [0] * 3)
    model = AnyBoost(cost="squared", step="line_search", n_estimators=50).fit(X, y)
    assert model.n_estimators_ == 1
    assert model.stop_reason_ == "weak learner does not point downhill"
    np.testing.assert_allclose(model.decision_function(X), 0.4)  # mean of +-1 labels


def test_tol_stops_on_a_small_change_of_the_cost():
    X, y = grid_problem()
    model = AdaBoost(n_estimators=5000, tol=1e-6).fit(X, y)
    assert model.stop_reason_ == "tol"
    objective = model.history_["objective"]
    assert abs(objective[-1] - objective[-2]) < 1e-6
    assert np.all(np.abs(np.diff(objective[:-1])) >= 1e-6)


def test_explicit_validation_set_keeps_the_smallest_best_round():
    X, y = noisy_problem(n=80, seed=5)
    X_val, y_val = noisy_problem(n=60, seed=6)
    model = AdaBoost(n_estimators=40).fit(X, y, X_val=X_val, y_val=y_val)
    full = AdaBoost(n_estimators=40).fit(X, y)
    staged_errors = [np.mean(p != y_val) for p in full.staged_predict(X_val)]
    assert model.n_rounds_run_ == 40
    assert model.n_estimators_ == best_round(staged_errors)
    np.testing.assert_array_equal(
        model.history_["validation_error"], staged_errors[: model.n_estimators_]
    )
    np.testing.assert_allclose(model.alphas_, full.alphas_[: model.n_estimators_])


def test_n_iter_no_change_holds_out_a_validation_split_and_stops():
    X, y = noisy_problem(n=200, seed=8)
    model = AdaBoost(
        n_estimators=2000, n_iter_no_change=10, validation_fraction=0.25, random_state=0
    ).fit(X, y)
    assert model.stop_reason_ == "early stopping"
    assert model.n_rounds_run_ < 2000
    errors = model.history_["validation_error"]
    assert errors[-1] == errors.min() and np.all(errors[:-1] > errors.min())
    # it ran exactly n_iter_no_change rounds past the best one, then cut back to it
    assert model.n_rounds_run_ - model.n_estimators_ == 10


# ---- numerics -----------------------------------------------------------------------------------
class StumpPoolLearner:
    """A cheap exact weak learner: the three stumps and the constant on codes 0..3."""

    tables = np.array([[1, -1, -1, -1], [1, 1, -1, -1], [1, 1, 1, -1], [1, 1, 1, 1]], dtype=float)

    def fit_binary(self, codes, y, weights):
        h = self.tables[:, codes[:, 0]]
        edges = h @ (weights * y)
        best = np.argmax(np.abs(edges))
        return _Lookup(np.sign(edges[best]) * self.tables[best])

    fit_regression = fit_binary


class _Lookup:
    def __init__(self, table):
        self.table = table

    def predict(self, codes):
        return self.table[codes[:, 0]]


def test_100000_rounds_stay_finite():
    """Separable by three stumps but by no single one: AdaBoost's exponential weights would
    under/overflow after a few thousand rounds; the log-domain weights keep every round finite."""
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([1, -1, -1, 1])
    model = AdaBoost(n_estimators=100_000, estimator=StumpPoolLearner()).fit(X, y)
    assert model.n_estimators_ == 100_000
    for key, values in model.history_.items():
        assert np.all(np.isfinite(values)), key
    assert model.history_["train_error"][-1] == 0
    assert np.all(np.isfinite(model.decision_function(X)))
    assert np.abs(model.decision_function(X)).min() > 700  # e^{-700}: plain weights would be 0
    assert model.history_["min_margin"][-1] > 0.3  # AdaBoost's min margin approaches 1/3 here


def test_convex_combinations_survive_many_rounds():
    X, y = noisy_problem(n=20)
    model = AnyBoost(
        cost="logistic", step="fixed", learning_rate=0.05, normalization="convex", n_estimators=5000
    ).fit(X, y)
    assert model.n_estimators_ > 1000
    assert np.all(np.isfinite(model.alphas_)) and model.alphas_.sum() == pytest.approx(1.0)
    # the first learner has been shrunk by 1.05 every later round (in the log domain)
    assert model.alphas_[0] == pytest.approx(1.05 ** -(model.n_estimators_ - 1), rel=1e-9)
    last = list(model.staged_decision_function(X))[-1]
    np.testing.assert_allclose(last, model.decision_function(X), atol=1e-9)


def test_perfect_weak_learner_gets_a_finite_weight_and_ends_training():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    for model in (AdaBoost(), MadaBoost(), AnyBoost(step="adaboost")):
        model.fit(X, y)
        assert model.stop_reason_ == "perfect weak learner"
        expected = 0.5 * np.log((1 - MIN_WEIGHTED_ERROR) / MIN_WEIGHTED_ERROR)
        np.testing.assert_allclose(model.alphas_, [expected])
        np.testing.assert_array_equal(model.predict(X), y)
    arc = ArcGv().fit(X, y)
    np.testing.assert_allclose(arc.alphas_, [1.0])


# ---- members ------------------------------------------------------------------------------------
def test_convex_normalization_follows_the_normalized_update():
    X, y = noisy_problem()
    model = AnyBoost(
        cost="logistic", step="fixed", learning_rate=0.05, normalization="convex", n_estimators=60
    ).fit(X, y)
    assert model.n_estimators_ == 60
    assert model.alphas_.min() >= 0 and model.alphas_.sum() == pytest.approx(1.0)
    staged = list(model.staged_decision_function(X))
    codes = model.mapper_.transform(X)
    np.testing.assert_allclose(staged[0], model.estimators_[0].predict(codes))
    for t in range(1, len(staged)):
        expected = (staged[t - 1] + 0.05 * model.estimators_[t].predict(codes)) / 1.05
        np.testing.assert_allclose(staged[t], expected, atol=1e-12)
    np.testing.assert_allclose(
        model.margins(X, y), np.where(y == 1, 1, -1) * staged[-1], atol=1e-12
    )


def test_doom_ii_stops_at_its_first_stationary_point():
    """After F_1 = f_1 all normalized margins are +-1 and c'(m) = -lambda sech^2(lambda m) is
    even, so the weights are uniform, the weak learner returns f_1 again and the test
    -<grad C(F_1), f_2 - F_1> <= 0 ends training with the single weak learner f_1."""
    X, y = noisy_problem()
    model = DoomII(steepness=2.0, n_estimators=60, sampling="reweight").fit(X, y)
    assert model.n_estimators_ == 1
    assert model.stop_reason_ == "weak learner does not point downhill"
    np.testing.assert_allclose(model.alphas_, [1.0])


def test_doom_ii_by_resampling_grows_a_convex_combination_and_is_seeded():
    X, y = noisy_problem()
    model = DoomII(steepness=2.0, n_estimators=60, random_state=3).fit(X, y)
    assert model.n_estimators_ > 10
    np.testing.assert_allclose(model.alphas_.sum(), 1.0)
    assert len({(t.describe(model.mapper_)) for t in model.estimators_}) > 1
    again = DoomII(steepness=2.0, n_estimators=60, random_state=3).fit(X, y)
    np.testing.assert_array_equal(model.decision_function(X), again.decision_function(X))
    other = DoomII(steepness=2.0, n_estimators=60, random_state=4).fit(X, y)
    assert not np.array_equal(model.decision_function(X), other.decision_function(X))
    with pytest.raises(ValueError, match="sampling"):
        DoomII(sampling="bootstrap").fit(X, y)


def test_arc_gv_step_follows_shen_li_eq_8():
    X, y = noisy_problem(n=80)
    model = ArcGv(n_estimators=30).fit(X, y)
    steps, edges = model.history_["step"], model.history_["edge"]
    rho = np.concatenate([[0.0], model.history_["min_margin"][:-1]])
    assert np.all(np.abs(edges) < 1)
    with np.errstate(divide="ignore"):  # rho = -1 gives +inf, clipped to 1 like the engine
        expected = 0.5 * np.log((1 + edges) / (1 - edges)) - 0.5 * np.log((1 + rho) / (1 - rho))
    np.testing.assert_allclose(steps, np.clip(expected, 0, 1), rtol=1e-9)
    assert np.all((steps > 0) & (steps <= 1))


def test_user_supplied_cost():
    X, y = noisy_problem()
    cubic = FunctionMarginCost(
        "cubic_hinge",
        lambda m: np.maximum(0, 1 - m) ** 3,
        derivative_function=lambda m: -3 * np.maximum(0, 1 - m) ** 2,
        convex=True,
    )
    model = AnyBoost(cost=cubic, step="line_search", n_estimators=30).fit(X, y)
    y_signed = np.where(y == 1, 1.0, -1.0)
    expected = np.mean(np.maximum(0, 1 - y_signed * model.decision_function(X)) ** 3)
    assert model.history_["objective"][-1] == pytest.approx(expected, rel=1e-12)
    assert np.all(np.diff(model.history_["objective"]) <= 1e-15)  # exact line search descends


@pytest.mark.parametrize("model", ALL_ESTIMATORS, ids=lambda m: repr(m))
def test_history_staged_predictions_and_margins_are_consistent(model):
    X, y = noisy_problem()
    model.set_params(n_estimators=25).fit(X, y)
    T = model.n_estimators_
    assert set(model.history_) >= {
        "train_error",
        "objective",
        "edge",
        "min_margin",
        "mean_margin",
        "weight_entropy",
        "time",
    }
    assert all(len(v) == T for v in model.history_.values())
    staged = list(model.staged_decision_function(X))
    assert len(staged) == T
    np.testing.assert_allclose(staged[-1], model.decision_function(X), atol=1e-10)
    errors = [np.mean(p != y) for p in model.staged_predict(X)]
    np.testing.assert_allclose(errors, model.history_["train_error"])
    margins = model.margins(X, y)
    assert margins.min() == pytest.approx(model.history_["min_margin"][-1], abs=1e-10)
    assert margins.mean() == pytest.approx(model.history_["mean_margin"][-1], abs=1e-10)
    assert np.all(np.diff(model.history_["time"]) >= 0)
    assert np.all(model.history_["weight_entropy"] <= np.log(len(y)) + 1e-12)
    assert model.score(X, y) == pytest.approx(1 - errors[-1])


def test_determinism_with_random_state():
    X, y = noisy_problem(n=120)
    a = LogitBoost(n_estimators=50, n_iter_no_change=5, random_state=3).fit(X, y)
    b = LogitBoost(n_estimators=50, n_iter_no_change=5, random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.alphas_, b.alphas_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    np.testing.assert_array_equal(a.history_["validation_error"], b.history_["validation_error"])


def test_held_out_split_keeps_the_relative_sample_weights():
    """n_iter_no_change's own split equals passing the same split as X_val: the training part
    keeps the relative weights of its examples (non-uniform weights, as a user passes them)."""
    from sklearn.model_selection import train_test_split

    X, y = noisy_problem(n=160, seed=9)
    weights = np.random.default_rng(3).uniform(0.2, 5.0, size=y.shape[0])
    params = {"n_estimators": 60, "n_iter_no_change": 8, "validation_fraction": 0.25}
    internal = AdaBoost(random_state=4, **params).fit(X, y, sample_weight=weights)
    train, held_out = train_test_split(
        np.arange(y.shape[0]), test_size=0.25, stratify=np.where(y > 0, 1.0, -1.0), random_state=4
    )
    explicit = AdaBoost(**params).fit(
        X[train], y[train], sample_weight=weights[train], X_val=X[held_out], y_val=y[held_out]
    )
    assert internal.n_estimators_ == explicit.n_estimators_
    np.testing.assert_allclose(internal.alphas_, explicit.alphas_, rtol=1e-10)
    np.testing.assert_array_equal(
        internal.history_["validation_error"], explicit.history_["validation_error"]
    )
    # and the weights matter: uniform weights give another model
    uniform = AdaBoost(random_state=4, **params).fit(X, y)
    assert not np.allclose(uniform.alphas_[:5], internal.alphas_[:5])


@pytest.mark.parametrize("n_iter_no_change", [None, 5])
def test_first_objective_is_adaboosts_normalizer(n_iter_no_change):
    """Exponential cost, exact line search, training weights normalized to sum 1 (also after a
    validation split): after the first round the cost is AdaBoost's normalizer
    Z = sqrt(1 - r^2) of the first weak learner's edge r."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = np.where(X[:, 0] + rng.normal(0, 0.8, 200) > 0, 1, -1)
    model = AnyBoost(
        n_estimators=5, n_iter_no_change=n_iter_no_change, validation_fraction=0.25, random_state=0
    ).fit(X, y)
    edge = model.history_["edge"][0]
    assert 0.3 < edge < 1.0
    assert model.history_["objective"][0] == pytest.approx(np.sqrt(1.0 - edge**2), rel=1e-9)


def test_a_cost_flat_beyond_the_margin_stops_on_zero_gradient():
    """The squared hinge has zero derivative at margins >= 1: once one stump separates the data
    with a step that puts every margin there, no example has weight and the fit stops."""
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([-1, -1, 1, 1])
    model = AnyBoost(cost="squared_hinge", n_estimators=20).fit(X, y)
    assert model.stop_reason_ == "zero gradient"
    assert model.n_estimators_ == 1
    assert (y * model.decision_function(X) >= 1.0).all()


def test_margins_of_an_example_on_which_every_hypothesis_agrees_are_exactly_one():
    """These 16 weights added in order (as F is) give 8.936000000000002, while numpy's
    pairwise sum gives 8.936: dividing by the latter put the examples on which every (+-1)
    stump is right an ulp above 1, out of the cumulative distribution at 1.  The norm is
    summed in F's order, so they are exactly +1, and those on which every stump is wrong
    exactly -1."""
    from marginboost.margins import cumulative_margin_distribution

    X = np.arange(10.0).reshape(-1, 1)
    y = np.where(X[:, 0] >= 5, 1, -1)
    model = AdaBoost(n_estimators=1).fit(X, y)
    tree = model.estimators_[0]
    alphas = [0.157, 0.973, 0.891, 0.824, 0.485, 0.24, 0.804, 0.924]
    alphas += [0.273, 0.544, 0.448, 0.932, 0.05, 0.735, 0.618, 0.038]
    model.estimators_ = [tree] * 16
    model.alphas_ = np.array(alphas)
    assert model.decision_function(X).max() > np.sum(alphas)  # the rounding at stake
    np.testing.assert_array_equal(model.margins(X, y), np.ones(10))
    np.testing.assert_array_equal(model.margins(X, -y), -np.ones(10))
    _, cdf = cumulative_margin_distribution(model.margins(X, y), [-1.0, 0.0, 1.0])
    np.testing.assert_array_equal(cdf, [0.0, 0.0, 1.0])
    _, cdf = cumulative_margin_distribution(model.margins(X, -y), [-1.0, 0.0, 1.0])
    np.testing.assert_array_equal(cdf, [1.0, 1.0, 1.0])


def test_margins_of_real_valued_hypotheses_are_the_scores_over_the_l1_norm():
    X = np.arange(10.0).reshape(-1, 1)
    y = np.where(X[:, 0] >= 5, 1, -1)
    model = RealAdaBoost(n_estimators=3).fit(X, y)
    assert np.abs(model.estimators_[0].leaf_values_).max() > 1.0
    np.testing.assert_allclose(
        model.margins(X, y), y * model.decision_function(X) / np.abs(model.alphas_).sum()
    )
