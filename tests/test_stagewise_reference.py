"""Mason et al. (1999), Table 1 as executable checks, and agreement with scikit-learn.

Each stage-wise estimator is compared with a direct, hand-written implementation of the
published algorithm that uses its own brute-force decision stumps (every midpoint threshold of
every feature, leaf values chosen independently of the engine's tree code).  Random,
non-uniform initial example weights make the best stump unique in every round, so the two
implementations must choose the same weak learners; the example weights they hand to the weak
learner are then compared round by round.

Tolerance: 1e-10 relative, far above the ~1e-15 rounding differences between two summation
orders over 40 examples and far below any change of a chosen stump.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.special import expit

from marginboost.boosting import AdaBoost, AnyBoost, ArcX4, L2Boost, LogitBoost, RealAdaBoost
from marginboost.weak import DecisionTree

RTOL = 1e-10
N_ROUNDS = 12


# ---- independent brute-force stumps ------------------------------------------------------------
def split_matrix(X: np.ndarray) -> np.ndarray:
    """Boolean (n, n_splits): ``x_j <= midpoint`` for every feature and consecutive value pair."""
    columns = []
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for threshold in (values[:-1] + values[1:]) / 2:
            columns.append(X[:, j] <= threshold)
    return np.array(columns).T


def best_sign_stump(left: np.ndarray, signed_weights: np.ndarray) -> np.ndarray:
    """±1 stump maximizing sum_i g_i h(x_i), each leaf taking the sign of its sum of g."""
    g_left = signed_weights @ left
    g_right = signed_weights.sum() - g_left
    best = int(np.argmax(np.abs(g_left) + np.abs(g_right)))
    return np.where(left[:, best], np.sign(g_left[best]), np.sign(g_right[best]))


def best_regression_stump(left: np.ndarray, target: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted least-squares regression stump (leaf = weighted mean)."""
    best_sse, best_fit = np.inf, None
    for k in range(left.shape[1]):
        fit = np.empty_like(target)
        for side in (left[:, k], ~left[:, k]):
            fit[side] = np.average(target[side], weights=weights[side])
        sse = weights @ (target - fit) ** 2
        if sse < best_sse:
            best_sse, best_fit = sse, fit
    return best_fit


def leaf_partition(h: np.ndarray, left: np.ndarray) -> np.ndarray:
    """Indicator of the stump's left leaf, recovered from a stump's prediction vector."""
    for k in range(left.shape[1]):
        if len(np.unique(h[left[:, k]])) == 1 and len(np.unique(h[~left[:, k]])) == 1:
            return left[:, k]
    raise AssertionError("no split reproduces the stump")


# ---- recording weak learner: logs the weights the engine hands over ---------------------------
class RecordingStump:
    """A ``DecisionTree`` wrapper that records the example weights of every fit."""

    log: list[np.ndarray] = []  # class attribute: survives the engine's deepcopy

    def __init__(self, criterion: str = "error") -> None:
        self.tree = DecisionTree(max_depth=1, criterion=criterion)

    def fit_binary(self, codes, y, weights):
        RecordingStump.log.append(np.asarray(weights, dtype=float) / np.abs(weights).sum())
        return self.tree.fit_binary(codes, y, weights)

    def fit_regression(self, codes, target, weights):
        RecordingStump.log.append(np.asarray(weights, dtype=float) / np.abs(weights).sum())
        return self.tree.fit_regression(codes, target, weights)


def fit_recording(estimator, X, y, s, criterion="error"):
    RecordingStump.log = []
    estimator.set_params(estimator=RecordingStump(criterion), n_estimators=N_ROUNDS)
    estimator.fit(X, y, sample_weight=s)
    return [w.copy() for w in RecordingStump.log]


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(20240611)
    X = rng.normal(size=(40, 3)).round(3)
    y = np.where(X[:, 0] + 0.8 * np.sin(3 * X[:, 1]) + 0.4 * rng.normal(size=40) > 0, 1.0, -1.0)
    s = rng.uniform(0.5, 1.5, size=40)
    return X, y, s / s.sum(), split_matrix(X)


def assert_same_weights(engine_weights, reference_weights):
    assert len(engine_weights) == len(reference_weights) == N_ROUNDS
    for t, (ours, ref) in enumerate(zip(engine_weights, reference_weights)):
        np.testing.assert_allclose(
            ours,
            ref / np.abs(ref).sum(),
            rtol=RTOL,
            atol=1e-300,
            err_msg=f"example weights differ in round {t + 1}",
        )


# ---- Table 1 rows --------------------------------------------------------------------------------
def test_adaboost_is_anyboost_with_exponential_cost_and_line_search(problem):
    X, y, s, left = problem
    F, reference, alphas = np.zeros_like(y), [], []
    for _ in range(N_ROUNDS):
        D = s * np.exp(-y * F)
        D /= D.sum()
        h = best_sign_stump(left, D * y)
        error = D[h != y].sum()
        alpha = 0.5 * np.log((1 - error) / error)
        reference.append(D)
        alphas.append(alpha)
        F += alpha * h
    for estimator in (AdaBoost(), AnyBoost(cost="exponential", step="line_search")):
        weights = fit_recording(estimator, X, y, s)
        assert_same_weights(weights, reference)
        np.testing.assert_allclose(estimator.alphas_, alphas, rtol=RTOL)
        np.testing.assert_allclose(estimator.decision_function(X), F, rtol=RTOL, atol=1e-12)


def test_arc_x4_breiman_weights(problem):
    X, y, s, left = problem
    mistakes, votes, reference = np.zeros_like(y), np.zeros_like(y), []
    for _ in range(N_ROUNDS):
        D = s * (1 + mistakes**4)
        h = best_sign_stump(left, D / D.sum() * y)
        reference.append(D)
        mistakes += h != y
        votes += h
    estimator = ArcX4(variant="breiman")
    assert_same_weights(fit_recording(estimator, X, y, s), reference)
    np.testing.assert_array_equal(estimator.alphas_, np.ones(N_ROUNDS))
    np.testing.assert_allclose(estimator.decision_function(X), votes, rtol=RTOL)


def test_arc_x4_anyboost_form_is_cost_one_minus_margin_to_the_fifth_with_step_one_over_t(problem):
    """Here many weights are exactly 0 (examples no hypothesis has missed yet), so several stumps
    can share the best edge; the reference checks that the engine's stump attains the brute-force
    best edge and then continues with that stump."""
    X, y, s, left = problem
    estimator = ArcX4(variant="anyboost")
    weights = fit_recording(estimator, X, y, s)
    codes = estimator.mapper_.transform(X)
    hypotheses, reference, mistakes = [], [], np.zeros_like(y)
    for t in range(N_ROUNDS):
        F = np.mean(hypotheses, axis=0) if hypotheses else np.zeros_like(y)
        D = s * 5 * (1 - y * F) ** 4
        reference.append(D)
        h = estimator.estimators_[t].predict(codes)
        best = best_sign_stump(left, D / D.sum() * y)
        assert D @ (y * h) == pytest.approx(D @ (y * best), rel=1e-12)
        if t > 0:  # -c'(yF) = 5 (2 k_i / t)^4 is proportional to Breiman's k_i^4 (no "+1")
            expected = s * mistakes**4
            np.testing.assert_allclose(
                weights[t], expected / expected.sum(), rtol=RTOL, atol=1e-300
            )
        hypotheses.append(h)
        mistakes += h != y
    assert_same_weights(weights, reference)
    np.testing.assert_allclose(
        estimator.decision_function(X), np.mean(hypotheses, axis=0), rtol=RTOL, atol=1e-12
    )


def test_confidence_boost_is_exponential_cost_with_confidence_rated_leaves(problem):
    X, y, s, left = problem
    smoothing = 1e-3
    F, reference = np.zeros_like(y), []
    for _ in range(N_ROUNDS):
        D = s * np.exp(-y * F)
        D /= D.sum()
        partition = leaf_partition(best_sign_stump(left, D * y), left)
        f = np.empty_like(y)
        for leaf in (partition, ~partition):
            w_plus, w_minus = D[leaf & (y > 0)].sum(), D[leaf & (y < 0)].sum()
            f[leaf] = 0.5 * np.log((w_plus + smoothing) / (w_minus + smoothing))
        reference.append(D)
        F += f
    estimator = RealAdaBoost(smoothing=smoothing)
    assert_same_weights(fit_recording(estimator, X, y, s), reference)
    np.testing.assert_allclose(estimator.decision_function(X), F, rtol=1e-9)


def test_real_adaboost_unit_weight_is_the_line_search_without_smoothing(problem):
    """For leaves 0.5 log(W+/W-) the minimizer of Z(alpha) is alpha = 1 (Schapire & Singer)."""
    X, y, s, _ = problem
    estimator = RealAdaBoost(smoothing=1e-12, n_estimators=5).fit(X, y, sample_weight=s)
    staged = [np.zeros_like(y), *estimator.staged_decision_function(X)]
    for before, after in zip(staged[:-1], staged[1:]):
        f = after - before
        Z = lambda alpha: float(s @ np.exp(-y * (before + alpha * f)))  # noqa: E731
        best = minimize_scalar(Z, bounds=(0, 5), method="bounded", options={"xatol": 1e-10}).x
        assert best == pytest.approx(1.0, abs=1e-6)


def test_logitboost_fht_newton_steps_with_regression_stumps(problem):
    X, y, s, left = problem
    F, reference = np.zeros_like(y), []
    for _ in range(N_ROUNDS):
        p = expit(2 * F)
        z = np.clip(((y + 1) / 2 - p) / (p * (1 - p)), -4, 4)
        v = s * np.maximum(p * (1 - p), 2 * np.finfo(float).eps)
        reference.append(v)
        F += 0.5 * best_regression_stump(left, z, v)
    estimator = LogitBoost(z_max=4.0)
    weights = fit_recording(estimator, X, y, s, criterion="squared_error")
    assert_same_weights(weights, reference)
    np.testing.assert_allclose(estimator.decision_function(X), F, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(
        estimator.history_["objective"][-1], s @ np.log1p(np.exp(-2 * y * F)), rtol=1e-9
    )


def test_logistic_cost_with_newton_raphson_step(problem):
    """Table 1's LogitBoost row: cost ln(1 + e^{-yF}), weights 1/(1 + e^{yF}), Newton step."""
    X, y, s, left = problem
    F, reference = np.zeros_like(y), []
    for _ in range(N_ROUNDS):
        m = y * F
        D = s * expit(-m)
        h = best_sign_stump(left, D / D.sum() * y)
        step = (D @ (y * h)) / ((s * expit(m) * expit(-m)) @ (h * h))
        reference.append(D)
        F += step * h
    estimator = AnyBoost(cost="logistic", step="newton")
    assert_same_weights(fit_recording(estimator, X, y, s), reference)
    np.testing.assert_allclose(estimator.decision_function(X), F, rtol=1e-9, atol=1e-12)


def test_l2boost_classifier_form_is_squared_cost_with_line_search(problem):
    X, y, s, left = problem
    F, reference = np.zeros_like(y), []
    for _ in range(N_ROUNDS):
        residual = y - F
        g = s * residual  # sum_i s_i U_i h(x_i) is maximized
        h = best_sign_stump(left, g / np.abs(g).sum())
        beta = (s * residual) @ h / (s @ h**2)
        reference.append(2 * s * y * residual)  # -c'(m_i) = 2 (1 - m_i) = 2 y_i U_i
        F += beta * h
    estimator = L2Boost(form="classifier")
    assert_same_weights(fit_recording(estimator, X, y, s), reference)
    np.testing.assert_allclose(estimator.decision_function(X), F, rtol=1e-9, atol=1e-12)


def test_l2boost_regression_form_fits_residuals(problem):
    X, y, s, left = problem
    F = np.zeros_like(y)
    for _ in range(N_ROUNDS):
        F += 0.5 * best_regression_stump(left, y - F, s)
    estimator = L2Boost(form="regression", learning_rate=0.5)
    fit_recording(estimator, X, y, s, criterion="squared_error")
    np.testing.assert_allclose(estimator.decision_function(X), F, rtol=1e-9, atol=1e-12)


# ---- scikit-learn's AdaBoostClassifier ---------------------------------------------------------
def test_adaboost_matches_scikit_learn_samme_with_gini_stumps():
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng(7)
    # Few distinct values per feature: binning is exact, thresholds are the same midpoints.
    X = rng.integers(0, 6, size=(120, 4)).astype(float)
    y = np.where(X[:, 0] + X[:, 1] - X[:, 2] + rng.normal(scale=1.5, size=120) > 2.5, "b", "a")
    s = rng.uniform(0.5, 1.5, size=120)  # generic weights: no ties between splits
    X_test = rng.integers(0, 6, size=(200, 4)).astype(float)
    n_rounds = 15
    ours = AdaBoost(n_estimators=n_rounds, estimator=DecisionTree(max_depth=1, criterion="gini"))
    ours.fit(X, y, sample_weight=s)
    theirs = AdaBoostClassifier(
        DecisionTreeClassifier(max_depth=1), n_estimators=n_rounds, random_state=0
    ).fit(X, y, sample_weight=s)
    assert len(theirs.estimators_) == ours.n_estimators_ == n_rounds
    # SAMME with K = 2: alpha = log((1 - err) / err), twice AdaBoost's.
    np.testing.assert_allclose(theirs.estimator_weights_, 2 * ours.alphas_, rtol=1e-9)
    np.testing.assert_array_equal(theirs.predict(X_test), ours.predict(X_test))
    # scikit-learn's binary SAMME score adds the +-w codes of both class columns: twice the
    # normalized score sum_t alpha_t h_t(x) / sum_t alpha_t.
    np.testing.assert_allclose(
        theirs.decision_function(X_test),
        2 * ours.decision_function(X_test) / ours.alphas_.sum(),
        atol=1e-12,
    )
