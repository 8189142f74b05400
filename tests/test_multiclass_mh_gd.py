"""AdaBoost.MH (Schapire & Singer 1999) and GD-MCBoost (Saberian & Vasconcelos 2011).

References used here, independent of the estimators' code paths:

* Z split rule: brute force over every stump of tiny data,
  :math:`Z = 2\\sum_j\\sum_k\\sqrt{W^j_{+k} W^j_{-k}}` summed by explicit loops;
* leaf values: the closed form :math:`\\tfrac12\\ln\\frac{W_+ + \\epsilon}{W_- + \\epsilon}` on
  weights :math:`D_t` rebuilt round by round from the fitted trees;
* training bound: :math:`\\sum D_1 e^{-Y f} = \\prod_t Z_t` (an identity) and the Hamming loss
  below it;
* K = 2: :class:`~marginboost.boosting.RealAdaBoost` with the same ("confidence") trees;
* GD-MCBoost's step: ``scipy.optimize.minimize_scalar`` on the risk written with the
  codewords' inner products (not the closed form's shortcut);
* GD-MCBoost's weak learner: brute force over all stumps and all leaf labels.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from sklearn.base import clone

import marginboost
from marginboost.boosting import AdaBoostMH, GDMCBoost, RealAdaBoost
from marginboost.boosting.multiclass import codeword_line_search, simplex_codewords
from marginboost.weak import DecisionTree


def noisy_classes(n=150, n_classes=3, n_features=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features))
    score = X[:, 0] + 0.5 * X[:, 1] - 0.3 * X[:, 2] + 0.6 * rng.normal(size=n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))
    return X, y


def tiny_codes(n=14, n_features=3, n_values=5, seed=0):
    rng = np.random.default_rng(seed)
    return np.asfortranarray(rng.integers(0, n_values, size=(n, n_features)).astype(np.uint8))


def brute_force_z(codes, Y, D, feature, split_bin):
    total = 0.0
    for side in (codes[:, feature] <= split_bin, codes[:, feature] > split_bin):
        for k in range(Y.shape[1]):
            plus = sum(D[i, k] for i in np.flatnonzero(side) if Y[i, k] > 0)
            minus = sum(D[i, k] for i in np.flatnonzero(side) if Y[i, k] < 0)
            total += 2.0 * np.sqrt(plus * minus)
    return total


def all_stumps(codes):
    for feature in range(codes.shape[1]):
        for split_bin in np.unique(codes[:, feature])[:-1]:
            yield feature, int(split_bin)


def rebuild_mh_weights(model, codes, Y):
    """D_t(i, k) of every round, from D_1 = 1/(nK) and the fitted trees."""
    D = np.full(Y.shape, 1.0 / Y.size)
    for tree in model.estimators_:
        yield D, tree
        D = D * np.exp(-Y * tree.predict_vector(codes))
        D /= D.sum()


# ---- AdaBoost.MH: the Z split rule -------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_confidence_stump_minimizes_z_over_all_stumps(seed):
    codes = tiny_codes(seed=seed)
    rng = np.random.default_rng(seed + 10)
    K = 3
    y = rng.integers(0, K, size=codes.shape[0])
    Y = np.where(y[:, None] == np.arange(K), 1.0, -1.0)
    D = rng.uniform(0.1, 1.0, size=Y.shape)
    D /= D.sum()
    tree = DecisionTree(max_depth=1, criterion="confidence").fit_multilabel(codes, Y, D)
    candidates = {split: brute_force_z(codes, Y, D, *split) for split in all_stumps(codes)}
    best = min(candidates.values())
    minimizers = [split for split, z in candidates.items() if z <= best * (1 + 1e-12)]
    assert tree.splits() == [minimizers[0]]
    np.testing.assert_allclose(brute_force_z(codes, Y, D, *tree.splits()[0]), best, rtol=1e-12)
    signs = tree.predict_vector(codes)
    stats = tree.leaf_statistics_.reshape(tree.n_leaves_, K, 2)
    np.testing.assert_array_equal(
        signs, np.where(stats[:, :, 1] >= stats[:, :, 0], 1.0, -1.0)[tree.apply(codes)]
    )
    # one problem: fit_binary with the same criterion grows the same stump
    binary = DecisionTree(max_depth=1, criterion="confidence").fit_binary(codes, Y[:, 0], D[:, 0])
    single = DecisionTree(max_depth=1, criterion="confidence").fit_multilabel(
        codes, Y[:, :1], D[:, :1]
    )
    assert binary.splits() == single.splits()
    # the estimator's first stump (uniform D_1) is the brute-force minimizer as well
    model = AdaBoostMH(n_estimators=1, max_depth=1).fit(codes.astype(float), y)
    D1 = np.full(Y.shape, 1.0 / Y.size)
    z_first = {split: brute_force_z(codes, Y, D1, *split) for split in all_stumps(codes)}
    assert brute_force_z(codes, Y, D1, *model.estimators_[0].splits()[0]) <= min(
        z_first.values()
    ) * (1 + 1e-12)


def test_confidence_tree_does_not_split_when_z_cannot_decrease():
    """Splitting stops when Z cannot strictly decrease (a pure or single-valued node)."""
    codes = tiny_codes()
    Y = np.ones((codes.shape[0], 2))
    Y[:, 1] = -1.0
    tree = DecisionTree(max_depth=3, criterion="confidence").fit_multilabel(
        codes, Y, np.ones(Y.shape)
    )
    assert tree.n_leaves_ == 1
    np.testing.assert_array_equal(tree.predict_vector(codes)[0], [1.0, -1.0])


# ---- AdaBoost.MH: leaf values, Z_t and the Hamming bound ---------------------------------------
def test_mh_leaf_values_equal_the_closed_form_and_z_is_the_normalizer():
    X, y = noisy_classes(n=80)
    eps = 0.01
    model = AdaBoostMH(n_estimators=4, max_depth=2, smoothing=eps).fit(X, y)
    codes = model.mapper_.transform(X)
    Y = np.where(y[:, None] == np.arange(3), 1.0, -1.0)
    for t, (D, tree) in enumerate(rebuild_mh_weights(model, codes, Y)):
        leaves = tree.apply(codes)
        for j in range(tree.n_leaves_):
            for k in range(3):
                in_leaf = leaves == j
                plus = D[in_leaf & (Y[:, k] > 0), k].sum()
                minus = D[in_leaf & (Y[:, k] < 0), k].sum()
                np.testing.assert_allclose(
                    tree.leaf_values_[j, k],
                    0.5 * np.log((plus + eps) / (minus + eps)),
                    rtol=1e-12,
                    atol=1e-14,
                )
        z = (D * np.exp(-Y * tree.predict_vector(codes))).sum()
        np.testing.assert_allclose(model.history_["z"][t], z, rtol=1e-12)
    assert np.all(model.alphas_ == 1.0)


def test_mh_training_hamming_loss_is_bounded_by_the_product_of_z():
    X, y = noisy_classes(n=150, n_classes=4)
    model = AdaBoostMH(n_estimators=25, max_depth=2).fit(X, y)
    Y = np.where(y[:, None] == np.arange(4), 1.0, -1.0)
    bound = np.cumprod(model.history_["z"])
    assert (model.history_["z"] < 1).all()
    for t, scores in enumerate(model.staged_decision_function(X)):
        hamming = np.mean(Y * scores <= 0)
        np.testing.assert_allclose(model.history_["hamming_loss"][t], hamming, rtol=1e-12)
        np.testing.assert_allclose(np.mean(np.exp(-Y * scores)), bound[t], rtol=1e-10)
        assert hamming <= bound[t]
    assert model.history_["hamming_loss"][-1] < model.history_["hamming_loss"][0]


def test_mh_with_two_classes_is_real_adaboost():
    X, y = noisy_classes(n=120, n_classes=2)
    labels = np.array(["no", "yes"])[y]
    mh = AdaBoostMH(n_estimators=10, max_depth=2).fit(X, labels)
    # MH's default epsilon is 1/(2nK); each binary half of D weighs 1/2, so RealAdaBoost's
    # weights (summing to 1) need 2 epsilon = 1/(2n), its own default
    real = RealAdaBoost(
        n_estimators=10,
        smoothing=1 / (2 * 120),
        estimator=DecisionTree(max_depth=2, criterion="confidence"),
    ).fit(X, labels)
    assert [t.splits() for t in mh.estimators_] == [t.splits() for t in real.estimators_]
    scores = mh.decision_function(X)
    np.testing.assert_allclose(scores[:, 0], -scores[:, 1], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(scores[:, 1], real.decision_function(X), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(mh.predict(X), real.predict(X))


# ---- GD-MCBoost: codewords and line search -----------------------------------------------------
@pytest.mark.parametrize("K", [2, 3, 4, 7])
def test_codewords_are_a_regular_simplex(K):
    C = simplex_codewords(K)
    assert C.shape == (K, K - 1)
    np.testing.assert_allclose(np.linalg.norm(C, axis=1), 1.0, rtol=1e-14)
    np.testing.assert_allclose(C.sum(axis=0), 0.0, atol=1e-14)
    distances = [np.linalg.norm(C[a] - C[b]) for a, b in itertools.combinations(range(K), 2)]
    np.testing.assert_allclose(distances, np.sqrt(2 * K / (K - 1)), rtol=1e-14)
    np.testing.assert_allclose(C @ C.T, (K * np.eye(K) - 1) / (K - 1), atol=1e-14)
    if K == 2:
        np.testing.assert_array_equal(C, [[-1.0], [1.0]])


@pytest.mark.parametrize("seed", range(4))
def test_codeword_line_search_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    beta = 0.75
    a = rng.exponential(size=40)
    b = beta * rng.choice([-1.0, 0.0, 1.0], p=[0.3, 0.2, 0.5], size=40)
    step, perfect = codeword_line_search(a, b)
    assert not perfect
    # the closed form is a stationary point: phi'(step) = 0 up to the rounding of its 40 terms
    terms = a * b * np.exp(-step * b)
    assert abs(terms.sum()) <= 4 * len(a) * np.finfo(float).eps * np.abs(terms).sum()
    # scipy's bounded Brent search as an independent minimizer.  It stops within
    # 2 (sqrt(eps) |x| + xatol / 3) of its best point (scipy's fminbound rule), and no search
    # on float64 values of phi can place the minimum closer than where phi stops changing:
    # phi(x) - phi* = phi''(x*) (x - x*)^2 / 2 falls below the rounding of phi (n eps phi*) for
    # |x - x*| < sqrt(2 n eps phi* / phi''(x*)).  Both come from the problem, not from a run.
    phi = lambda s: a @ np.exp(-s * b)  # noqa: E731
    xatol, eps = 1e-12, np.finfo(float).eps
    result = minimize_scalar(phi, bounds=(0, 20), method="bounded", options={"xatol": xatol})
    curvature = float(a @ (b**2 * np.exp(-step * b)))
    flat = np.sqrt(2 * len(a) * eps * phi(step) / curvature)
    brent = 2 * (np.sqrt(eps) * abs(result.x) + xatol / 3)
    assert abs(step - result.x) <= brent + flat
    assert phi(step) <= result.fun * (1 + 4 * len(a) * eps)
    # no descent: step 0; no negative slope: clipped finite step, flagged perfect
    assert codeword_line_search(a, -np.abs(b)) == (0.0, False)
    step, perfect = codeword_line_search(a, np.abs(b))
    assert perfect and np.isfinite(step) and step > 10
    with pytest.raises(ValueError, match="-beta, 0 and beta"):
        codeword_line_search(a, b + 0.1 * (b == 0))


def gd_risk(scores, y, s, C, direction_scores=None, step=0.0):
    """R[f + step g] from <y_k, f(x_i)> and <y_k, g(x_i)>, pair by pair."""
    total = 0.0
    for i in range(len(y)):
        for k in range(C.shape[0]):
            if k != y[i]:
                margin = 0.5 * (scores[i, y[i]] - scores[i, k])
                if direction_scores is not None:
                    margin += 0.5 * step * (direction_scores[i, y[i]] - direction_scores[i, k])
                total += s[i] * np.exp(-margin)
    return total


def test_gd_loss_never_increases_and_the_step_is_the_exact_line_search():
    X, y = noisy_classes(n=90, n_classes=4)
    weights = np.random.default_rng(3).uniform(0.5, 2.0, size=90)
    model = GDMCBoost(n_estimators=12, max_depth=2).fit(X, y, sample_weight=weights)
    s = weights / weights.sum()
    C = model.codewords_
    codes = model.mapper_.transform(X)
    losses = np.r_[3.0, model.history_["loss"]]
    assert np.all(np.diff(losses) <= 0) and losses[-1] < 0.8 * losses[0]
    previous = np.zeros((90, 4))
    for t, scores in enumerate(model.staged_decision_function(X)):
        direction = C @ C[model.estimators_[t].predict(codes).astype(int)].T  # <y_k, g(x_i)>
        direction = direction.T
        result = minimize_scalar(
            lambda a: gd_risk(previous, y, s, C, direction, a),
            bounds=(0, 10),
            method="bounded",
            options={"xatol": 1e-10},
        )
        np.testing.assert_allclose(model.alphas_[t], result.x, rtol=1e-6)
        np.testing.assert_allclose(scores, previous + model.alphas_[t] * direction, atol=1e-12)
        np.testing.assert_allclose(model.history_["loss"][t], gd_risk(scores, y, s, C), rtol=1e-10)
        previous = scores


@pytest.mark.parametrize("seed", [0, 1])
def test_gd_weak_learner_maximizes_the_directional_derivative_over_stumps(seed):
    codes = tiny_codes(n=12, seed=seed)
    y = np.random.default_rng(seed).integers(0, 3, size=12)
    y[:3] = [0, 1, 2]
    model = GDMCBoost(n_estimators=2, max_depth=1).fit(codes.astype(float), y)
    C = model.codewords_
    scores = next(model.staged_decision_function(codes.astype(float)))  # f after round 1
    # round 2: -dR[f; g] = sum_i sum_{k != y_i} a_ik 1/2 <y_{y_i} - y_k, g(x_i)>
    a = np.exp(-0.5 * (scores[np.arange(12), y][:, None] - scores)) / 12
    a[np.arange(12), y] = 0.0

    def derivative(h):
        return sum(a[i, k] * 0.5 * (C[y[i]] - C[k]) @ C[h[i]] for i in range(12) for k in range(3))

    best = -np.inf
    for feature, split_bin in all_stumps(codes):
        left = codes[:, feature] <= split_bin
        for labels in itertools.product(range(3), repeat=2):
            best = max(best, derivative(np.where(left, *labels)))
    chosen = model.estimators_[1].predict(codes).astype(int)
    np.testing.assert_allclose(derivative(chosen), best, rtol=1e-10)
    np.testing.assert_allclose(model.history_["derivative"][1], best, rtol=1e-10)


def test_gd_reaches_zero_training_error_on_linearly_separable_classes():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(400, 2))
    angles = np.deg2rad([20, 140, 260])  # oblique boundaries: stumps need rounds
    scores = X @ np.c_[np.cos(angles), np.sin(angles)].T
    top2 = np.sort(scores, axis=1)
    keep = top2[:, -1] - top2[:, -2] > 0.1  # a margin between the three classes
    X, y = X[keep][:150], np.argmax(scores[keep], axis=1)[:150]
    model = GDMCBoost(n_estimators=100, max_depth=1).fit(X, y)
    assert model.history_["train_error"][0] > 0.2
    assert model.history_["train_error"][-1] == 0.0
    np.testing.assert_array_equal(model.predict(X), y)
    assert np.all(np.diff(model.history_["loss"]) <= 0)


# ---- both estimators -----------------------------------------------------------------------------
@pytest.mark.parametrize("Model", [AdaBoostMH, GDMCBoost])
def test_interface_staged_outputs_and_determinism(Model):
    X, y = noisy_classes(n=90)
    labels = np.array([2, 5, 9])[y]
    model = Model(n_estimators=6, max_depth=3).fit(X, labels)
    assert model.max_depth == 3 and model.max_bins == 255 and model.n_estimators == 6
    np.testing.assert_array_equal(model.classes_, [2, 5, 9])
    staged = list(model.staged_decision_function(X))
    assert len(staged) == model.n_estimators_ == len(model.history_["train_error"])
    np.testing.assert_allclose(staged[-1], model.decision_function(X), rtol=1e-12, atol=1e-12)
    assert staged[-1].shape == (90, 3)
    errors = [np.mean(p != labels) for p in model.staged_predict(X)]
    np.testing.assert_allclose(errors, model.history_["train_error"])
    assert set(model.predict(X)) <= {2, 5, 9}
    again = clone(model).fit(X, labels)
    np.testing.assert_array_equal(again.decision_function(X), model.decision_function(X))
    assert getattr(marginboost, Model.__name__) is Model and Model.__name__ in marginboost.__all__


@pytest.mark.parametrize("Model", [AdaBoostMH, GDMCBoost])
@pytest.mark.parametrize(
    "bad, message",
    [
        (lambda X, y: (X, np.full(y.shape, 7)), r"y has only one class \(7\)"),
        (lambda X, y: (np.where(np.arange(X.size).reshape(X.shape) == 4, np.nan, X), y), "NaN"),
        (lambda X, y: (X[:-1], y), "inconsistent numbers of samples"),
        (lambda X, y: (X, np.c_[y, y]), r"y should be a 1d array"),
        (lambda X, y: (X, y + 0.5), "Unknown label type"),
    ],
)
def test_bad_training_data(Model, bad, message):
    X, y = noisy_classes(n=60)
    X_bad, y_bad = bad(X, y.astype(float))
    with pytest.raises(ValueError, match=message):
        Model().fit(X_bad, y_bad)


@pytest.mark.parametrize(
    "Model, params, message",
    [
        (AdaBoostMH, {"n_estimators": 0}, "The 'n_estimators' parameter of"),
        (GDMCBoost, {"max_depth": 0}, "The 'max_depth' parameter of"),
        (GDMCBoost, {"max_bins": 1}, "The 'max_bins' parameter of"),
        (AdaBoostMH, {"smoothing": 0.0}, "The 'smoothing' parameter of"),
        (AdaBoostMH, {"smoothing": np.nan}, "The 'smoothing' parameter of"),
        (AdaBoostMH, {"smoothing": "a"}, "The 'smoothing' parameter of"),
    ],
)
def test_bad_parameters(Model, params, message):
    X, y = noisy_classes(n=60)
    with pytest.raises(ValueError, match=message):
        Model(**params).fit(X, y)


def test_bad_multilabel_tree_input_and_codeword_count():
    codes = tiny_codes()
    Y = np.ones((codes.shape[0], 2))
    D = np.ones(Y.shape)
    fit = DecisionTree(criterion="confidence").fit_multilabel
    with pytest.raises(ValueError, match="only -1 and \\+1"):
        fit(codes, 0 * Y, D)
    with pytest.raises(ValueError, match="weight must have the shape of Y"):
        fit(codes, Y, D[:, :1])
    with pytest.raises(ValueError, match="non-negative"):
        fit(codes, Y, -D)
    with pytest.raises(ValueError, match="all zero"):
        fit(codes, Y, 0 * D)
    with pytest.raises(ValueError, match="fit_multilabel supports criterion"):
        DecisionTree(criterion="gini").fit_multilabel(codes, Y, D)
    for bad in (1, 0, 2.5):
        with pytest.raises(ValueError, match="n_classes must be an integer >= 2"):
            simplex_codewords(bad)


def test_gd_perfect_weak_learner_ends_training_with_a_finite_step():
    X, _ = noisy_classes(n=90)
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    model = GDMCBoost(n_estimators=10, max_depth=2).fit(X, y)
    assert model.stop_reason_ == "perfect weak learner" and model.n_estimators_ == 1
    # A_- clipped to 1e-10 A_+: step ln(1e10) / (2 beta), beta = 3/4; loss (K-1) 1e-5
    np.testing.assert_allclose(model.alphas_, [np.log(1e10) / 1.5], rtol=1e-9)
    np.testing.assert_allclose(model.history_["loss"], [2e-5], rtol=1e-6)
    np.testing.assert_array_equal(model.predict(X), y)


def test_a_boolean_smoothing_is_refused():
    """scikit-learn's Interval(Real) lets True through; AdaBoost.MH's own check refuses it."""
    X = np.random.default_rng(0).normal(size=(30, 2))
    y = np.arange(30) % 3
    with pytest.raises(ValueError, match="smoothing must be a finite number > 0 or None; got True"):
        AdaBoostMH(n_estimators=2, smoothing=True).fit(X, y)


def test_hamming_loss_counts_a_zero_score_as_a_mistake():
    """In the leaf {x = 0} one example of class 0 and one of class 1 balance each other, so the
    leaf's confidence for classes 0 and 1 is exactly 0: a zero score predicts neither sign, and
    those 4 of the 12 (example, class) pairs (weight 1/12 each) are Hamming mistakes."""
    X = np.array([[0.0], [0.0], [1.0], [1.0]])
    y = np.array([0, 1, 2, 2])
    model = AdaBoostMH(n_estimators=1, max_depth=1).fit(X, y)
    assert model.history_["hamming_loss"][0] == pytest.approx(4 / 12, rel=1e-12)
