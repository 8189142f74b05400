"""DMCBoost against the plain reference of ``tests/reference/dmcboost.py``, round by round.

On the same binned input and the same finite pool of weak classifiers (every stump: feature,
threshold, pair of leaf labels) the fast estimator must make the reference's choice every
round: the same prediction vector on the training set (and a stump the reference ranks
first), the same step alpha and the same objective (error count in phase I, the bottom-n'
average margin (5) in phase II), the same number of rounds and the same stop reason.  Where the
reference finds several candidates the estimator's tie tolerance cannot separate
(``Round.ties``), the estimator's pick must be one of them and both go on from it; the rules
are stated in the reference's docstring.

The reference shares nothing with the package but the binned codes and the labels: it finds
breakpoints by a loop over examples and labels and counts errors directly from the shifted
scores, where the package accumulates signed updates over ranks and keeps segment trees.  The
features are small integers, which the binning maps to codes in the same order.

Depth-2 trees: the reference grows Algorithm 1.2's greedy tree as the estimator resolves it
and finds the best tree of depth <= 2 by exhaustive search; the estimator's trees must be the
greedy ones, never better than the exhaustive best, and the best where greedy cannot miss it.

One xfail test (strict) names where the estimator departs: its phase-II weak learner is the
steepest stump at alpha = 0, not the stump reaching the largest (5) after its line search (the
paper's reading; a documented departure).  A second one, now a plain test, caught the
estimator breaking exact ties between its two phase-II trees towards alpha < 0 where its
documentation says alpha > 0.

Tolerances come from the arithmetic.  Phase I: both sides update the scores by the same
floating-point additions and take midpoints of the same differences, so the steps agree to the
last bit (checked to ``rel=1e-9``).  Phase II: both sides bisect on the sign of the same
derivative from the same interval, so the steps agree to the rounding of the derivative's sign
test; the exact maximizer is checked to the bisection threshold ``th``.
"""

from __future__ import annotations

import numpy as np
import pytest
from _data_helpers import requires_mirror
from reference import dmcboost as ref

from marginboost.boosting import DMCBoost
from marginboost.boosting.dmcboost import MarginSlopeObjective, ZeroOneTreeObjective
from marginboost.boosting.dmcboost.search import margin_line_search, zero_one_sweep
from marginboost.weak import DirectTreeBuilder

pytestmark = pytest.mark.filterwarnings("ignore::marginboost.boosting.PhaseTwoWarning")

#: Algorithm 2.1's bisection threshold (the paper's, the estimator's default ``tol``).
TH = 1e-5

PHASE1_STOPS = {
    "phase I zero training error": "zero training error",
    "phase I coordinatewise minimum": "coordinatewise minimum",
    "phase I plateau": "plateau",
    "n_estimators": "max_rounds",
}
PHASE2_STOPS = {
    "phase II coordinatewise maximum": "coordinatewise maximum",
    "phase II unbounded step": "unbounded step",
    "phase II no improvement within patience": "no improvement within patience",
    "n_estimators": "max_rounds",
}


class _FullPath(DMCBoost):
    """DMCBoost that keeps every phase-II round: under relaxation the estimator cuts the
    ensemble back to its best round; here that round is only recorded (``best_rounds_``), so
    the comparison covers the rounds after it too."""

    def _phase2(self, state):
        stop, best = super()._phase2(state)
        self.best_rounds_ = best
        return stop, None


def _fit(X, y, full_path=False, **kw):
    """Every DMCBoost of this file: exact interval search (``max_intervals=None``)."""
    cls = _FullPath if full_path else DMCBoost
    return cls(max_intervals=None, **kw).fit(X, y)


def _data(seed, n=24, d=2, values=4, K=3):
    """Small integer features and K classes from a noisy ordinal score of two features."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, values, size=(n, d)).astype(float)
    s = X[:, 0] + 0.5 * X[:, 1] + rng.normal(0.0, 1.0, n)
    y = np.digitize(s, np.quantile(s, np.linspace(0, 1, K + 1)[1:-1]))
    return X, y


def _scores(rng, n, K):
    """Class scores with ties between scores and between breakpoints (integers and halves)."""
    return rng.integers(0, 4, size=(n, K)) * 0.5


def _fitted(model, X, y):
    """Codes, labels 0..K-1, the prediction vector of every round and the alphas."""
    codes = model.mapper_.transform(X)
    for f in range(X.shape[1]):  # integer features: the codes are their ranks
        np.testing.assert_array_equal(
            np.unique(X[:, f], return_inverse=True)[1],
            np.unique(codes[:, f], return_inverse=True)[1],
        )
    y = np.searchsorted(model.classes_, y)
    hs = [tree.predict(codes).astype(np.int64) for tree in model.estimators_]
    return codes, y, hs, np.asarray(model.alphas_)


def _stump_label(tree):
    """``(feature, threshold, left label, right label)`` of a fitted stump."""
    assert tree.node_feature.size == 3  # a root and two leaves
    left, right = tree.leaf_values_
    return int(tree.node_feature[0]), int(tree.node_bin[0]), int(left), int(right)


def _follow(hs, pool):
    """A ``choose`` for the reference: the estimator's pick, which must be among the ties;
    beyond the estimator's rounds the reference's own (the first in pool order)."""

    def choose(t, ties):
        if t >= len(hs):
            return ties[0]
        match = [i for i in ties if np.array_equal(pool.H[i], hs[t])]
        assert match, (
            f"round {t + 1}: the estimator's weak classifier is not among the "
            f"reference's best ({[pool.labels[i] for i in ties]})"
        )
        return match[0]

    return choose


def _stop(reasons, text):
    return next(value for key, value in reasons.items() if text.startswith(key))


def _check_phase1(model, X, y, equal_labels=True):
    """Phase I of ``model`` (stumps) against the reference, round by round."""
    codes, y, hs, alphas = _fitted(model, X, y)
    K = len(model.classes_)
    n1 = model.n_phase1_
    pool = ref.stump_pool(codes, K, equal_labels)
    path = ref.phase1(
        y,
        K,
        pool,
        max_rounds=model.n_estimators,
        patience=model.n_iter_no_change,
        choose=_follow(hs[:n1], pool),
        step=model.step,
    )
    assert len(path.rounds) == n1
    assert path.stop_reason == _stop(PHASE1_STOPS, model.phase1_stop_reason_)
    for t, rnd in enumerate(path.rounds):
        np.testing.assert_array_equal(hs[t], rnd.h, err_msg=f"round {t + 1}")
        assert _stump_label(model.estimators_[t]) in [pool.labels[i] for i in rnd.ties]
        assert alphas[t] == pytest.approx(rnd.alpha, rel=1e-9), f"round {t + 1}"
        assert model.history_["errors"][t] == rnd.objective, f"round {t + 1}"
    return path


def _check_phase2(model, X, y):
    """Phase I, then phase II, of ``model`` (stumps) against the reference, round by round."""
    codes, y, hs, alphas = _fitted(model, X, y)
    K = len(model.classes_)
    n1, n_prime = model.n_phase1_, model.n_prime_
    pool = ref.stump_pool(codes, K)
    first = ref.phase1(
        y,
        K,
        pool,
        max_rounds=model.n_estimators,
        patience=model.n_iter_no_change,
        choose=_follow(hs[:n1], pool),
        step=model.step,
    )
    assert len(first.rounds) == n1
    path = ref.phase2(
        y,
        pool,
        first.F,
        first.c,
        n_prime,
        epsilon=model.epsilon_,
        th=model.tol_,
        max_rounds=model.n_estimators - n1,
        patience=model.n_iter_no_change,
        choose=_follow(hs[n1:], pool),
    )
    F, c = first.F, first.c
    for t, rnd in enumerate(path.rounds):
        assert n1 + t < len(hs), "the reference takes more rounds than the estimator"
        np.testing.assert_array_equal(hs[n1 + t], rnd.h, err_msg=f"phase-II round {t + 1}")
        assert alphas[n1 + t] == pytest.approx(rnd.alpha, rel=1e-9, abs=1e-12)
        assert model.history_["objective"][n1 + t] == pytest.approx(rnd.objective, abs=1e-12)
        # the bisection lands within th of the exact maximizer of its half-line
        sign = 1 if rnd.alpha > 0 else -1
        exact, _ = ref.exact_side(F, y, rnd.h, c, n_prime, sign)
        assert abs(abs(rnd.alpha) - model.epsilon_ - exact) <= TH
        F, c = ref.add_vote(F, rnd.h, rnd.alpha), c + abs(rnd.alpha)
    assert len(path.rounds) == len(hs) - n1
    assert path.stop_reason == _stop(PHASE2_STOPS, model.stop_reason_)
    if model.epsilon_ > 0:  # the round the relaxed estimator cuts the ensemble back to
        assert model.best_rounds_ == n1 + path.best_rounds
    return path


# ---- the reference's own pieces, by brute force ----------------------------------------------------
def _brute_force_errors(F, y, h, alpha):
    """Errors of the ensemble plus ``alpha h``: examples whose true class is not the only
    arg max of the votes (a tie is an error)."""
    G = F.copy()
    G[np.arange(len(y)), h] += alpha
    top = G.max(axis=1)
    wins = (G == top[:, None]).sum(axis=1) == 1
    return int(np.count_nonzero(~(wins & (G.argmax(axis=1) == y))))


@pytest.mark.parametrize("step", ref.STEPS)
@pytest.mark.parametrize("seed", range(10))
def test_interval_errors_equal_the_brute_force_count(seed, step):
    """On every interval between the reference's breakpoints (its own, and the finer grid of
    every label), the error it reports is the one the votes give at random points inside the
    interval, recounted by brute force; no alpha of a fine grid does better than its best
    interval; the chosen step lies in a best interval (the first one for ``"midpoint"``, the
    one whose midpoint has the smallest exponential loss for ``"best-midpoint"``).
    Independent: the brute force recounts the arg max of the votes, the reference knows
    nothing of it."""
    rng = np.random.default_rng(seed)
    n, K = int(rng.integers(2, 30)), int(rng.choice([3, 4]))
    F, y, h = _scores(rng, n, K), rng.integers(0, K, n), rng.integers(0, K, n)
    for points in (ref.crossing_points(F, y, h), ref.crossing_points(F, y)):
        errors, alpha, low, high, per_interval = ref.zero_one_line(F, y, h, points, step)
        lows = np.concatenate([[0.0], points])
        highs = np.concatenate([points, [np.inf]])
        for lo, hi, e in zip(lows, highs, per_interval):
            top = hi if np.isfinite(hi) else lo + 10.0
            for x in lo + (top - lo) * rng.uniform(0.01, 0.99, 5):
                assert _brute_force_errors(F, y, h, x) == e
        best = np.flatnonzero(per_interval == per_interval.min())
        steps = [ref.interval_step(lows[j], highs[j]) for j in best]
        losses = [ref.log_exp_loss(ref.add_vote(F, h, a), y) for a in steps]
        chosen = best[0] if step == "midpoint" else best[int(np.argmin(losses))]
        assert (low, high) == (lows[chosen], highs[chosen]) and errors == per_interval.min()
        assert low < alpha < high or (np.isinf(high) and alpha == (2 * low if low else 1.0))
        assert _brute_force_errors(F, y, h, alpha) == errors
        grid = np.linspace(1e-9, 2 * np.abs(F).max() + 3, 3001)
        assert min(_brute_force_errors(F, y, h, x) for x in grid) >= errors


@pytest.mark.parametrize("step", ref.STEPS)
@pytest.mark.parametrize("seed", range(10))
def test_zero_one_sweep_equals_the_reference(seed, step):
    """The package's Algorithm 1.1 (signed updates summed over sorted keys) against the
    reference's (direct count per interval): the same breakpoints, the same error on every
    interval, the same interval and step (the package compares the midpoints' losses in
    closed form, the reference from the scores after each step)."""
    rng = np.random.default_rng(100 + seed)
    n, K = int(rng.integers(2, 30)), int(rng.choice([3, 4]))
    F, y, h = _scores(rng, n, K), rng.integers(0, K, n), rng.integers(0, K, n)
    sweep = zero_one_sweep(F, y, h, step=step)
    errors, alpha, low, high, per_interval = ref.zero_one_line(F, y, h, step=step)
    np.testing.assert_array_equal(sweep.breakpoints, ref.crossing_points(F, y, h))
    np.testing.assert_array_equal(sweep.interval_errors, per_interval)
    assert (sweep.errors, sweep.alpha, sweep.low, sweep.high) == (errors, alpha, low, high)


@pytest.mark.parametrize("step", ref.STEPS)
@pytest.mark.parametrize("seed", range(10))
def test_tree_objective_ranks_candidates_as_the_reference(seed, step):
    """``ZeroOneTreeObjective`` builds the grid of every crossing point (``V``) and each
    example's error range per label (``lo``, ``hi``) from ranks; the reference loops over
    examples and labels and counts errors directly.  The same grid, the current loss, and for
    random candidates the same fewest errors, the same step on the grid (``step``'s midpoint
    of a best grid interval) and the same exponential loss there: the numbers phase I ranks
    candidates by."""
    rng = np.random.default_rng(200 + seed)
    n, K = int(rng.integers(2, 30)), int(rng.choice([3, 4]))
    F, y = _scores(rng, n, K), rng.integers(0, K, n)
    objective = ZeroOneTreeObjective(F, y, None, step=step)
    grid = ref.crossing_points(F, y)
    np.testing.assert_array_equal(objective.V, grid)
    assert objective.reference == pytest.approx(ref.log_exp_loss(F, y), rel=1e-12)
    for _ in range(10):
        h = rng.integers(0, K, n)
        errors, alpha, _ = objective.score(h)
        ref_errors, ref_loss, ref_alpha = ref.phase1_rank(F, y, h, grid, step)
        assert (errors, alpha) == (ref_errors, ref_alpha)
        assert objective.log_loss(h, alpha) == pytest.approx(ref_loss, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_margin_line_search_equals_the_reference(seed):
    """Algorithm 2.1 in the package against the reference on random scores: on each half-line
    the reference's bisection (numerators as minima of lines, evaluated from the scores) lands
    within th of the exact maximizer (direct evaluation of (5) at every crossing of two lines),
    and the package's search takes the same step and reaches the same value."""
    rng = np.random.default_rng(300 + seed)
    n, K = int(rng.integers(3, 25)), int(rng.choice([3, 4]))
    F = rng.uniform(0.0, 2.0, size=(n, K))
    y, h = rng.integers(0, K, n), rng.integers(0, K, n)
    c, n_prime = float(F.sum(axis=1).max()), int(rng.integers(1, n + 1))
    for sign in (1, -1):
        b, value = ref.search_side(F, y, h, c, n_prime, sign, TH)
        exact_b, exact_value = ref.exact_side(F, y, h, c, n_prime, sign)
        if np.isinf(exact_b):
            assert np.isinf(b) and value == pytest.approx(exact_value, abs=1e-12)
        else:
            assert abs(b - exact_b) <= TH and exact_value >= value - 1e-12
    fast = margin_line_search(F, y, h, c, n_prime, th=TH)
    mine = ref.margin_line_search(F, y, h, c, n_prime, TH)
    assert fast.unbounded == mine.unbounded
    if not mine.unbounded:
        assert fast.alpha == pytest.approx(mine.alpha, rel=1e-9, abs=1e-12)
    assert fast.max_value == pytest.approx(mine.max_value, abs=1e-12)
    assert fast.initial_value == pytest.approx(mine.initial_value, abs=1e-12)


# ---- phase I with stumps ---------------------------------------------------------------------------
@pytest.mark.parametrize("step", ref.STEPS)
@pytest.mark.parametrize("K", [3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_phase1_with_stumps_makes_the_reference_choices(seed, K, step):
    """Every phase-I round of ``DMCBoost(max_depth=1)`` is the reference's: the same stump
    (prediction vector, and a (feature, threshold, labels) the reference ranks first), the same
    step, the same training error after it, the same number of rounds and stop reason; under
    both step rules."""
    X, y = _data(seed, n=30, d=3, values=5, K=K)
    model = _fit(X, y, max_depth=1, phase2=False, n_estimators=200, n_iter_no_change=10, step=step)
    path = _check_phase1(model, X, y)
    assert len(path.rounds) >= 10


@pytest.mark.parametrize(
    "case", ["zero training error", "coordinatewise minimum", "distinct leaf labels"]
)
def test_phase1_stop_rules_and_distinct_labels_follow_the_reference(case):
    """The other ways phase I ends, reached by the reference on its own: zero training error
    (labels a function of one feature), a coordinatewise minimum (no stump lowers the error or
    the exponential loss, at a step that has not vanished), and the pool of stumps whose two
    leaves differ (``distinct_leaf_labels=True``)."""
    K, equal_labels, patience = 3, True, 10
    if case == "zero training error":
        rng = np.random.default_rng(0)
        X = rng.integers(0, 3, size=(20, 2)).astype(float)
        y = X[:, 0].astype(int)
    elif case == "coordinatewise minimum":
        X, y = _data(1)
        patience = 50
    else:
        X, y = _data(5, n=30, d=3, values=5, K=K)
        equal_labels = False
    model = _fit(
        X,
        y,
        max_depth=1,
        phase2=False,
        n_estimators=200,
        n_iter_no_change=patience,
        distinct_leaf_labels=not equal_labels,
    )
    path = _check_phase1(model, X, y, equal_labels)
    if case == "distinct leaf labels":
        assert all(label[2] != label[3] for label in (r.label for r in path.rounds))
    else:
        assert path.stop_reason == case
    if case == "coordinatewise minimum":
        assert path.rounds[-1].alpha > 1e-6


# ---- phase II with stumps --------------------------------------------------------------------------
@pytest.mark.parametrize("epsilon", [0.0, 0.01])
@pytest.mark.parametrize("seed", range(1, 4))
def test_phase2_with_stumps_makes_the_reference_choices(seed, epsilon):
    """Every phase-II round of ``DMCBoost(max_depth=1)``, without and with epsilon-relaxation,
    is the reference's: the same stump, the same step (the bisection's, within th of the exact
    maximizer found by direct evaluation), the same value of (5) after it, the same stop reason
    and (relaxed) the same best round.  Where the two trees of a round reach the same maximum
    of (5) up to rounding the estimator's pick must be one of them (its exact tie rule is
    checked separately, below)."""
    K = 3 + seed % 2
    X, y = _data(seed, K=K)
    model = _fit(
        X,
        y,
        full_path=True,
        max_depth=1,
        n_prime=6,
        epsilon=epsilon,
        n_iter_no_change=10,
        n_estimators=50,
    )
    path = _check_phase2(model, X, y)
    assert len(path.rounds) >= 10


def _exact_tie_between_the_two_trees(seed=2):
    """A phase-II round of the estimator (stumps, no relaxation) at which its two trees are
    different stumps tied on both ranking keys, in the package's own arithmetic: maxima of (5)
    equal bit for bit (``margin_line_search``) and equal ``S'(0+)``
    (``MarginSlopeObjective.score``).  The two trees are the reference's (the steepest stump
    on each half-line); returns the estimator's tree of that round, the two trees (pool
    indices) and the pool."""
    X, y = _data(seed)
    model = _fit(X, y, max_depth=1, n_prime=6, epsilon=0.0, n_iter_no_change=10, n_estimators=30)
    codes, y, hs, alphas = _fitted(model, X, y)
    pool = ref.stump_pool(codes, 3)
    F, c = np.zeros((y.size, 3)), 0.0
    for t, (h, alpha) in enumerate(zip(hs, alphas)):
        candidates = ref.phase2_candidates(F, y, pool, c, 6) if t >= model.n_phase1_ else []
        if len(candidates) == 2:
            plus, minus = candidates
            fast = [margin_line_search(F, y, pool.H[i.index], c, 6, th=TH) for i in (plus, minus)]
            slopes = [
                MarginSlopeObjective(F, y, 6, i.sign).score(pool.H[i.index]) for i in (plus, minus)
            ]
            if (
                plus.index != minus.index
                and fast[0].max_value == fast[1].max_value
                and slopes[0] == slopes[1]
            ):
                return h, plus.index, minus.index, pool
        F, c = ref.add_vote(F, h, alpha), c + abs(alpha)
    raise AssertionError("no round with an exact tie between the two trees")


def test_phase2_exact_tie_between_the_two_trees_goes_to_the_one_grown_for_positive_alpha():
    """The estimator's documented rule between its two phase-II trees tied on the maximum of
    (5) and on ``S'(0+)``, with no rounding deciding: the one grown for alpha > 0 (the
    reference's ``prefer="positive"``, :func:`reference.dmcboost.rank_trees`).  The first
    implementation ranked by ``-sign`` and took the tree grown for alpha < 0."""
    h, plus, minus, pool = _exact_tie_between_the_two_trees()
    assert not np.array_equal(pool.H[plus], pool.H[minus])
    np.testing.assert_array_equal(h, pool.H[plus])


@pytest.mark.xfail(
    strict=True,
    reason="documented departure: DMCBoost grows its phase-II trees by the derivative S'(0+) "
    "of (5) at alpha = 0 (steepest ascent), not by the value of (5) after Algorithm 2.1's "
    "line search along each candidate, so its stump can reach a smaller (5) than another one",
)
def test_phase2_stump_reaches_the_largest_bottom_average_of_all_stumps():
    """The paper's reading of the phase-II weak learner (Alg. 1.2 with the 0-1 loss replaced
    by (5)): every phase-II round of ``DMCBoost(max_depth=1)`` (no relaxation) adds a stump
    whose step reaches the largest value of (5) that any stump reaches after its own line
    search (the reference's ``best_stump_by_value``, up to the bisection threshold)."""
    X, y = _data(0)
    model = _fit(X, y, max_depth=1, n_prime=6, epsilon=0.0, n_iter_no_change=10, n_estimators=50)
    codes, y, hs, alphas = _fitted(model, X, y)
    pool = ref.stump_pool(codes, 3)
    F, c = np.zeros((y.size, 3)), 0.0
    for t, (h, alpha) in enumerate(zip(hs, alphas)):
        if t >= model.n_phase1_:
            _, best = ref.best_stump_by_value(F, y, pool, c, 6, TH)
            assert model.history_["objective"][t] >= best.max_value - 1e-6, f"round {t + 1}"
        F, c = ref.add_vote(F, h, alpha), c + abs(alpha)


# ---- trees of depth 2 ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_direct_tree_builder_grows_the_reference_greedy_tree(seed):
    """On generic scores (no exact ties) the package's depth-2 direct tree (builder and phase-I
    objective) is the reference's greedy tree (Alg. 1.2 as the estimator resolves it), and the
    best tree of depth <= 2 (exhaustive search) has at most as many errors (when this test was
    written: 2 fewer on seed 1, 1 fewer on seed 5, as many on the others)."""
    rng = np.random.default_rng(400 + seed)
    n, K = 24, 3 + seed % 2
    codes = np.asfortranarray(rng.integers(0, 3 + seed % 2, size=(n, 3)).astype(np.uint8))
    y, F = rng.integers(0, K, n), rng.normal(size=(n, K))
    fast = DirectTreeBuilder(max_depth=2).fit(codes, ZeroOneTreeObjective(F, y, None))
    h = fast.predict(codes).astype(np.int64)
    np.testing.assert_array_equal(h, ref.greedy_tree(codes, F, y, K))
    best, best_h = ref.best_tree_depth2(codes, F, y, K)
    assert ref.zero_one_line(F, y, best_h)[0] == best <= ref.zero_one_line(F, y, h)[0]


@pytest.mark.parametrize("seed", range(6))
def test_first_depth2_tree_against_greedy_and_exhaustive_search(seed):
    """Round 1 of ``DMCBoost(max_depth=2)`` (all scores 0: a tree's error is its number of
    misclassified examples): the estimator's tree is the reference's greedy tree, and has at
    least as many errors as the best tree of depth <= 2 (exhaustive search).  Greedy costs
    something on some seeds: when this test was written, one error more than the best on
    seeds 0, 2 and 3 (7 against 6, 8 against 7, 10 against 9), none on the others."""
    X, y = _data(500 + seed, n=24, d=3, values=4, K=3 + seed % 2)
    K = 3 + seed % 2
    model = _fit(X, y, max_depth=2, phase2=False, n_estimators=1)
    codes, y, hs, _ = _fitted(model, X, y)
    F = np.zeros((y.size, K))
    np.testing.assert_array_equal(hs[0], ref.greedy_tree(codes, F, y, K))
    errors = ref.zero_one_line(F, y, hs[0])[0]
    assert errors == model.history_["errors"][0]
    best, _ = ref.best_tree_depth2(codes, F, y, K)
    assert best <= errors, f"greedy {errors}, best {best}"


@pytest.mark.parametrize("seed", range(2))
def test_phase1_with_depth2_trees_makes_the_reference_choices(seed):
    """Every phase-I round of ``DMCBoost(max_depth=2)`` is the reference's: the reference's
    greedy tree at the current scores, the same step and training error, the same number of
    rounds and stop reason; and every round's tree has at least as many errors (after its
    line search) as the best tree of depth <= 2 at those scores (exhaustive search).  When this
    test was written the greedy tree was one error short of the best in rounds 3-4 (seed 0)
    and 3-8 (seed 1), and the best in all other rounds."""
    K = 3 + seed % 2
    X, y = _data(700 + seed, n=24, d=3, values=4, K=K)
    model = _fit(X, y, max_depth=2, phase2=False, n_estimators=200, n_iter_no_change=10)
    codes, y, hs, alphas = _fitted(model, X, y)
    path = ref.phase1(y, K, max_rounds=200, patience=10, trees=(codes, 2, True))
    assert len(path.rounds) == model.n_phase1_ >= 10
    assert path.stop_reason == _stop(PHASE1_STOPS, model.phase1_stop_reason_)
    F = np.zeros((y.size, K))
    for t, rnd in enumerate(path.rounds):
        np.testing.assert_array_equal(hs[t], rnd.h, err_msg=f"round {t + 1}")
        assert alphas[t] == pytest.approx(rnd.alpha, rel=1e-9)
        assert model.history_["errors"][t] == rnd.objective
        best, _ = ref.best_tree_depth2(codes, F, y, K)
        assert best <= ref.zero_one_line(F, y, rnd.h)[0]
        F = ref.add_vote(F, rnd.h, rnd.alpha)


@pytest.mark.parametrize("labels", [[0, 1, 2], [2, 0, 1], [0, 1, 1, 2], [1, 0, 0, 2]])
def test_first_depth2_tree_is_the_best_with_one_informative_feature(labels):
    """Labels a function of one feature's 3 or 4 codes (other features noise): any root split
    of that feature leaves children a second split can make pure, and it beats every split of
    a noise feature, so greedy must find a tree with no error -- the exhaustive minimum."""
    rng = np.random.default_rng(len(labels))
    codes0 = np.repeat(np.arange(len(labels)), 8)
    X = np.column_stack([codes0, rng.integers(0, 4, size=(codes0.size, 2))]).astype(float)
    y = np.array(labels)[codes0]
    K = len(set(labels))
    model = _fit(X, y, max_depth=2, phase2=False, n_estimators=1)
    codes, y, hs, _ = _fitted(model, X, y)
    F = np.zeros((y.size, K))
    best, _ = ref.best_tree_depth2(codes, F, y, K)
    assert ref.zero_one_line(F, y, hs[0])[0] == best == 0
    assert model.history_["errors"][0] == 0


def test_exhaustive_depth2_pool_is_complete():
    """Counting check of the enumeration: on two binary features (four cells) every one of
    the 3^4 labellings with three classes is a tree of depth <= 2 (the root splits one
    feature, each child splits the other), so all 81 must be present, none twice."""
    codes = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.uint8)
    trees = ref.tree_pool_depth2(codes, 3)
    assert len({h.tobytes() for h in trees.H}) == trees.H.shape[0] == 81


@pytest.mark.parametrize("seed", range(3))
def test_exhaustive_search_is_the_minimum_over_the_tree_pool(seed):
    """The reference's exhaustive search (errors per grid interval added over the two sides
    of the root) against the plain minimum over every tree of the pool, each line-searched on
    its own: the same fewest errors, at zero scores and at generic ones."""
    rng = np.random.default_rng(600 + seed)
    n, K = 16, 3
    codes = rng.integers(0, 3, size=(n, 2)).astype(np.uint8)
    y = rng.integers(0, K, n)
    pool = ref.tree_pool_depth2(codes, K)
    for F in (np.zeros((n, K)), rng.normal(size=(n, K))):
        best, best_h = ref.best_tree_depth2(codes, F, y, K)
        assert best == min(ref.zero_one_line(F, y, h)[0] for h in pool.H)
        assert ref.zero_one_line(F, y, best_h)[0] == best


# ---- a slice of a real data set --------------------------------------------------------------------
@requires_mirror
def test_phase1_and_phase2_with_stumps_on_car_rows():
    """60 rows of Car (1728 cars, 6 ordinal attributes, K = 4; the paper's Table 2): phase I
    and phase II (relaxed, the paper's epsilon) make the reference's choices round by round."""
    from marginboost.data import load

    data = load("car")
    rows = np.sort(np.random.default_rng(0).choice(data.X.shape[0], 60, replace=False))
    X, y = data.X[rows], data.y[rows]
    model = _fit(
        X,
        y,
        full_path=True,
        max_depth=1,
        n_prime=15,
        epsilon=0.01,
        n_iter_no_change=10,
        n_estimators=40,
    )
    path = _check_phase2(model, X, y)
    assert model.n_phase1_ >= 5 and len(path.rounds) >= 5
