"""DirectBoost against the plain reference of ``tests/reference/directboost.py``, round by round.

On the same binned input and the same finite pool of weak classifiers (all stumps on all
thresholds, both signs) the fast estimator must make the same choice as the reference every
round: the same prediction vector on the training set (distinct stumps may predict alike), the
same step alpha and the same objective value (error count in phase 1, margin objective in
phase 2).  Where the reference finds several candidates that the estimator's tie tolerance
cannot separate (``Round.ties``), the estimator's pick must be one of them and both continue
from it; the tie rules are stated in the reference's docstring.

Tolerances come from the arithmetic: both sides update the margins by the same floating-point
operations (``a + alpha * (y h)``, products with +-1 exact), so a phase-1 step -- the
midpoint of two of those margins -- agrees to the rounding of one midpoint, and a phase-2 step
-- a crossing ``|a_i - a_j| / 2`` plus epsilon -- to a few units of 2^-52 relative to the
margins; the phase-2 objective is a mean of at most n normalized margins in [-1, 1], summed in
a different order on each side (n units of 2^-52).
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import directboost as ref

from marginboost.boosting.directboost import DirectBoost, ZeroOneObjective, zero_one_line_search
from marginboost.weak import DirectTreeBuilder

EPS = np.finfo(float).eps


class _FullPath(DirectBoost):
    """DirectBoost that keeps every round: under relaxation the estimator cuts the ensemble
    back to its best round; here that round is only recorded (``best_rounds_``), so the
    comparison covers the rounds after it too."""

    def _truncate(self, n_rounds):
        self.best_rounds_ = n_rounds


def _fit_directboost(X, y, full_path=False, **kw):
    """Every DirectBoost constructed in this file (parameter names in one place)."""
    rounds = kw.pop("rounds", 2000)
    patience = kw.pop("patience", 50)
    cls = _FullPath if full_path else DirectBoost
    return cls(
        n_estimators=rounds, n_iter_no_change=patience, phase1_n_iter_no_change=patience, **kw
    ).fit(X, y)


def _data(seed, n=60, d=4):
    """Continuous features with a noisy non-linear boundary (no stump separates it)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.8 * X[:, 1] ** 2 - 0.5 * X[:, 2] > 0.3, 1, -1)
    flip = rng.random(n) < 0.1
    return X, np.where(flip, -y, y)


def _tic_tac_toe_rows(n_rows, seed=0):
    from marginboost.data import load

    data = load("tic_tac_toe")
    rows = np.sort(np.random.default_rng(seed).choice(data.X.shape[0], n_rows, replace=False))
    return data.X[rows], data.y[rows]


def _fitted_rounds(model, X, y):
    """Codes, signed labels and, per round, (prediction vector, alpha) of a fitted model."""
    codes = model.mapper_.transform(X)
    y_signed = np.where(y == model.classes_[1], 1.0, -1.0)
    hs = [tree.predict(codes) for tree in model.estimators_]
    return codes, y_signed, hs, np.asarray(model.alphas_)


def _follow(hs, pool):
    """A ``choose`` for the reference: the estimator's pick, which must be among the ties."""

    def choose(t, ties):
        assert t < len(hs), "the reference takes more rounds than the estimator"
        match = [i for i in ties if np.array_equal(pool.H[i], hs[t])]
        assert match, (
            f"round {t + 1}: the estimator's weak classifier is not among the "
            f"reference's best ({[pool.labels[i] for i in ties]})"
        )
        return match[0]

    return choose


#: Both sides hold the same margins (the same float operations); a phase-1 step is one
#: midpoint (or doubling) of two of them: equal up to the rounding of that midpoint.
PHASE1_ALPHA_RTOL = 4 * EPS


# ---- the reference's own pieces ---------------------------------------------------------------
@pytest.mark.parametrize("seed", range(10))
def test_reference_pool_search_equals_the_direct_count(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    a = rng.integers(-4, 5, size=n) * 0.5  # ties between |a_i| and zeros on purpose
    y = rng.choice([-1.0, 1.0], n)
    H = rng.choice([-1.0, 1.0], size=(25, n))
    errors, alphas, losses = ref.pool_zero_one(a, y, H)
    for h, e, alpha, loss in zip(H, errors, alphas, losses):
        direct = ref.zero_one_line(a, y * h)
        assert (e, alpha) == direct[:2]
        assert ref.zero_one_errors_direct(a, y * h, alpha) == e
        # no alpha on a fine grid does better
        grid = np.linspace(1e-9, 2 * np.abs(a).max() + 2, 2001)
        assert min(ref.zero_one_errors_direct(a, y * h, x) for x in grid) >= e
        assert loss == pytest.approx(ref.log_exp_loss(a, y * h, alpha), abs=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_both_readings_of_the_intervals_give_the_same_errors(seed):
    """The paper's intervals between every |a_i| (the estimator) and between the crossing
    points only (``zero_one_line_search``) reach the same error count, at different alphas."""
    rng = np.random.default_rng(seed)
    n = 30
    a = rng.integers(-6, 7, size=n) * 0.25
    b = rng.choice([-1.0, 1.0], n)
    every = ref.zero_one_line(a, b, "all")
    crossings = ref.zero_one_line(a, b, "crossings")
    fast = zero_one_line_search(a, b)
    assert every[0] == crossings[0] == fast.errors
    assert crossings[1] == pytest.approx(fast.alpha, rel=4 * EPS)
    assert crossings[2] <= every[2] < every[3] <= crossings[3]


# ---- Algorithm 1 ------------------------------------------------------------------------------
def _check_phase1(model, X, y):
    codes, y_signed, hs, alphas = _fitted_rounds(model, X, y)
    pool = ref.stump_pool(codes)
    path = ref.phase1(
        y_signed,
        pool,
        max_rounds=len(hs),
        patience=model.phase1_n_iter_no_change,
        choose=_follow(hs, pool),
        step=model.step,
        loss_tol=model.phase1_tol_,
    )
    n = y_signed.size
    assert len(path.rounds) == len(hs) == model.n_phase1_
    if path.stop_reason == "max_rounds":  # the reference's own decision after the last round
        path.stop_reason = _reference_stop(y_signed, pool, path, model)
    for t, (rnd, alpha) in enumerate(zip(path.rounds, alphas)):
        # the exp-loss step log(G/B)/2 comes from sums of n terms taken in different orders,
        # over margins that carry the rounding of every earlier step
        atol = 0.0 if model.step == "midpoint" else 8 * n * EPS * (t + 1)
        np.testing.assert_array_equal(rnd.h, hs[t])
        assert alpha == pytest.approx(rnd.alpha, rel=PHASE1_ALPHA_RTOL, abs=atol), f"round {t + 1}"
        assert model.history_["train_error"][t] * n == pytest.approx(rnd.objective, abs=1e-9)
    fast_reason = model.stop_reason_.removeprefix("phase 1 ")
    assert {
        "zero training error": "zero training error",
        "local minimum": "local minimum",
        "plateau": "plateau",
        "n_estimators": "max_rounds",
    }[fast_reason] == path.stop_reason
    return path


def _reference_stop(y, pool, path, model):
    """Whether the reference stops after the estimator's last round, and why.

    It stops ("local minimum") when the candidate it would pick neither lowers the error nor
    lowers the log exponential loss by more than ``tol``; the pick is any of the
    candidates the ranking's tie tolerance cannot separate, so the stop is accepted when one
    of them stops it.  Otherwise it would go on ("max_rounds", which the estimator reports
    as ``n_estimators``)."""
    a, n = path.a, y.size
    errors = int(np.count_nonzero(a <= 0))
    if errors == 0:
        return "zero training error"
    current = ref.log_exp_loss(a, np.zeros(n), 0.0)
    E, alphas, L = ref.pool_zero_one(a, y, pool.H, model.step)
    if E.min() < errors:
        return "max_rounds"
    tied = np.flatnonzero(E == E.min())
    tol = ref.phase1_tie_tolerance(n, L[tied], current)
    for i in tied[L[tied] <= L[tied].min() + tol]:
        if not L[i] < current - model.phase1_tol_:
            return "local minimum"
    return "max_rounds"


@pytest.mark.parametrize("step", ["exp-loss", "midpoint"])
@pytest.mark.parametrize("seed", range(3))
def test_phase1_with_stumps_makes_the_reference_choices(seed, step):
    X, y = _data(seed)
    model = _fit_directboost(X, y, phase2=False, max_depth=1, max_bins=8, patience=20, step=step)
    path = _check_phase1(model, X, y)
    assert len(path.rounds) >= 10


@pytest.mark.parametrize("step", ["exp-loss", "midpoint"])
def test_phase1_with_stumps_on_tic_tac_toe_rows(step):
    X, y = _tic_tac_toe_rows(300)
    model = _fit_directboost(X, y, phase2=False, max_depth=1, patience=20, step=step)
    path = _check_phase1(model, X, y)
    assert len(path.rounds) >= 10


@pytest.mark.parametrize("seed", range(40))
def test_exp_loss_step_matches_the_reference(seed):
    """The kernel's step against the reference's interval-by-interval search (ties between
    |a_i|, zero margins and candidates that are always right or always wrong included)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    a = rng.integers(-4, 5, size=n) * 0.5 + (0.1 * rng.normal(size=n) if seed % 2 else 0.0)
    y = rng.choice([-1.0, 1.0], n)
    h = rng.choice([-1.0, 1.0], n) if seed % 5 else (y if seed % 10 else -y)
    errors, alpha, _, loss = ZeroOneObjective(a, y, "exp-loss").line(h)
    ref_errors, ref_alpha = ref.exp_loss_step(a, y * h)
    assert errors == ref_errors == ref.zero_one_errors_direct(a, y * h, alpha)
    assert alpha == pytest.approx(ref_alpha, rel=1e-12, abs=8 * n * EPS)
    assert loss == pytest.approx(ref.log_exp_loss(a, y * h, alpha), rel=1e-12, abs=1e-12)
    # never worse than the midpoint of the first best interval
    mid_errors, mid_alpha, _, mid_loss = ZeroOneObjective(a, y, "midpoint").line(h)
    assert mid_errors == errors
    assert loss <= mid_loss + 1e-12


# ---- Algorithm 2 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "objective,epsilon", [("average", 0.0), ("average", 0.01), ("order", 0.01)]
)
@pytest.mark.parametrize("seed", range(2))
def test_phase2_with_stumps_makes_the_reference_choices(objective, epsilon, seed):
    X, y = _data(10 + seed, n=50)
    n_prime, rounds = 8, 150
    model = _fit_directboost(
        X,
        y,
        full_path=True,
        objective=objective,
        epsilon=epsilon,
        n_prime=n_prime,
        max_depth=1,
        max_bins=8,
        rounds=rounds,
        patience=15,
        step="midpoint",
    )  # phase 1's exact arithmetic
    codes, y_signed, hs, alphas = _fitted_rounds(model, X, y)
    pool = ref.stump_pool(codes)
    n1 = model.n_phase1_
    first = ref.phase1(
        y_signed,
        pool,
        max_rounds=n1,
        patience=model.phase1_n_iter_no_change,
        choose=_follow(hs, pool),
        step="midpoint",
        loss_tol=model.phase1_tol_,
    )
    assert len(first.rounds) == n1
    hs2 = hs[n1:]
    path = ref.phase2(
        y_signed,
        pool,
        first.a,
        first.c,
        n_prime,
        objective,
        epsilon,
        max_rounds=rounds - n1,
        patience=model.n_iter_no_change,
        choose=_follow(hs2, pool),
        keep_all_rounds=True,
    )
    assert len(path.rounds) == len(hs2) >= 10
    scale = np.abs(first.a).max() + first.c
    for t, rnd in enumerate(path.rounds):
        np.testing.assert_array_equal(rnd.h, hs2[t])
        assert alphas[n1 + t] == pytest.approx(rnd.alpha, rel=0, abs=8 * EPS * scale)
        assert model.history_["objective"][n1 + t] == pytest.approx(
            rnd.objective, abs=4 * y.size * EPS
        )
    reasons = {
        "phase 2 coordinatewise maximum": "coordinatewise maximum",
        "phase 2 no improvement within patience": "no improvement within patience",
        "phase 2 no admissible step": "no admissible step",
        "n_estimators": "max_rounds",
    }
    assert reasons[model.stop_reason_] == path.stop_reason
    if epsilon > 0:  # the round the relaxed estimator is cut back to
        assert getattr(model, "best_rounds_", len(hs)) == n1 + path.best_rounds


# ---- the direct tree builder ------------------------------------------------------------------
def _zero_one_of(a, y, h):
    errors, alpha, _, _ = ref.zero_one_line(a, y * h)
    return errors, ref.log_exp_loss(a, y * h, alpha)


@pytest.mark.parametrize("seed", range(6))
def test_direct_trees_against_greedy_and_exhaustive_search(seed):
    """Depth 1: the builder's stump reaches the fewest errors of every depth-1 tree.  Depth 2:
    the builder grows the greedy tree (each split the best for the whole partial tree, given
    the splits before it), and that tree is one of the trees of depth <= 2; the best of those
    (found by enumerating them all) may do better -- the gap is what greediness costs."""
    rng = np.random.default_rng(seed)
    n = 24
    codes = np.asfortranarray(rng.integers(0, 3, size=(n, 3)).astype(np.uint8))
    y = rng.choice([-1.0, 1.0], n)
    a = rng.integers(-3, 4, size=n) * 0.5 + 0.25 * rng.integers(0, 2, size=n)
    stumps = ref.stump_pool(codes)
    errors, _, _ = ref.pool_zero_one(a, y, stumps.H)
    stump = DirectTreeBuilder(max_depth=1).fit(codes, ZeroOneObjective(a, y)).predict(codes)
    assert _zero_one_of(a, y, stump)[0] == errors.min()

    trees = ref.tree_pool_depth2(codes)
    tree_errors, _, _ = ref.pool_zero_one(a, y, trees.H)
    for rule, step in [
        ("improve", "exp-loss"),
        ("improve", "midpoint"),
        ("always", "exp-loss"),
        ("always", "midpoint"),
    ]:
        fast = (
            DirectTreeBuilder(max_depth=2, split_rule=rule)
            .fit(codes, ZeroOneObjective(a, y, step))
            .predict(codes)
        )
        greedy = ref.greedy_tree(codes, a, y, 2, split_rule=rule, step=step)
        np.testing.assert_array_equal(fast, greedy)
        assert any(np.array_equal(fast, h) for h in trees.H)
        assert tree_errors.min() <= min(_zero_one_of(a, y, fast)[0], errors.min())
    # a node below the root splits only when that helps: never worse than the tree's root stump
    improve = DirectTreeBuilder(max_depth=2).fit(codes, ZeroOneObjective(a, y)).predict(codes)
    assert _zero_one_of(a, y, improve)[0] <= errors.min()


def test_exhaustive_depth2_pool_is_complete():
    """Counting check of the enumeration: on two binary features (four cells) each of the 16
    labellings is a tree of depth <= 2 (the root splits one feature, each child splits the
    other or stays a leaf), so all 16 must be present, none twice."""
    codes = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.uint8)
    trees = ref.tree_pool_depth2(codes)
    assert len({h.tobytes() for h in trees.H}) == trees.H.shape[0] == 16


# ---- the phase-1 stall on Tic-tac-toe, and its fix -------------------------------------------
def test_first_depth2_tree_on_tic_tac_toe_is_the_best_tree_of_depth_at_most_2():
    """Round 1 on the whole Tic-tac-toe set (all margins 0): a builder that splits every node
    grows a depth-2 tree worse than its own root stump; one that splits a node only when that
    helps grows the best of all trees of depth <= 2 (found by enumerating them)."""
    from marginboost.data import load

    data = load("tic_tac_toe")
    model = DirectBoost(max_depth=1, n_estimators=1, phase2=False).fit(data.X, data.y)
    codes = model.mapper_.transform(data.X)
    y = np.where(data.y == model.classes_[1], 1.0, -1.0)
    a = np.zeros(y.size)
    best_tree = ref.pool_zero_one(a, y, ref.tree_pool_depth2(codes).H)[0].min()
    best_stump = ref.pool_zero_one(a, y, ref.stump_pool(codes).H)[0].min()
    errors = {}
    for rule in ("always", "improve"):
        h = (
            DirectTreeBuilder(max_depth=2, split_rule=rule)
            .fit(codes, ZeroOneObjective(a, y))
            .predict(codes)
        )
        errors[rule] = _zero_one_of(a, y, h)[0]
    assert errors["always"] > best_stump > best_tree == errors["improve"]


def test_phase1_on_tic_tac_toe_reaches_zero_training_error_with_depth3_trees():
    """The paper: with reasonably strong weak learners phase 1 usually reaches zero training
    error.  With the default rules it does on the whole Tic-tac-toe set at depth 3; with the
    first implementation's rules (midpoint steps, every node split, a 50-round plateau rule)
    it stalled above 10% training error."""
    from marginboost.data import load

    data = load("tic_tac_toe")
    default = DirectBoost(max_depth=3, phase2=False, n_estimators=3000).fit(data.X, data.y)
    assert default.stop_reason_ == "phase 1 zero training error"
    assert default.history_["train_error"][-1] == 0.0
    v1 = DirectBoost(
        max_depth=3,
        phase2=False,
        n_estimators=3000,
        step="midpoint",
        split_rule="always",
        phase1_tol=0.0,
        phase1_n_iter_no_change=50,
    ).fit(data.X, data.y)
    assert v1.history_["train_error"][-1] > 0.1
