"""DMCBoost estimator: multi-class direct trees against brute force, phase invariants."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from _dmc_helpers import killed_at_round, killed_in_branch, node_kernel_args

import marginboost
from marginboost.boosting import DMCBoost
from marginboost.boosting.directboost import DirectBoost
from marginboost.boosting.dmcboost import MarginSlopeObjective, ZeroOneTreeObjective
from marginboost.boosting.dmcboost.search import (
    _bottom,
    _lines,
    bottom_average_along,
    margin_line_search,
    zero_one_errors_at,
    zero_one_sweep,
)
from marginboost.margins import bottom_margin_average, multiclass_margins
from marginboost.weak import DirectNode, DirectTreeState


def _codes(rng, n, d, bins):
    return np.asfortranarray(rng.integers(0, bins, size=(n, d)).astype(np.uint8))


def _scores(rng, n, K):
    # small integer scores (plus halves): ties between classes and between crossing points
    return rng.integers(0, 4, size=(n, K)).astype(float) + 0.5 * rng.integers(0, 2, size=(n, K))


def _partial_state(rng, n, K):
    """A root split into two leaves with different labels; one of them is the node."""
    split = rng.random(n) < 0.5
    state = DirectTreeState(np.where(split, 1, 2).astype(np.int64))
    first, second = rng.choice(K, size=2, replace=False)
    state.node_value = {1: float(first), 2: float(second)}
    return state, DirectNode(1, 1, np.flatnonzero(split).astype(np.int64))


def _candidates(codes, node, state, K, equal_labels=True):
    """Every (feature, bin, left, right, h) the node can be split into."""
    inside = node.samples
    pairs = (
        itertools.product(range(K), repeat=2)
        if equal_labels
        else itertools.permutations(range(K), 2)
    )
    pairs = list(pairs)
    for f in range(codes.shape[1]):
        present = np.unique(codes[inside, f])
        for t in present[:-1]:
            for left, right in pairs:
                h = state.predictions().astype(np.intp)
                h[inside] = np.where(codes[inside, f] <= t, left, right)
                yield f, int(t), left, right, h


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("equal_labels", [True, False])
def test_zero_one_split_scores_equal_brute_force(seed, equal_labels):
    rng = np.random.default_rng(seed)
    n, d, bins, K = 36, 3, 5, 3 + seed % 2
    codes, y, F = _codes(rng, n, d, bins), rng.integers(0, K, n), _scores(rng, n, K)
    objective = ZeroOneTreeObjective(F, y, equal_labels=equal_labels)
    state, node = _partial_state(rng, n, K)
    scores, left_values, right_values = objective.split_scores(codes, node, state)
    brute = {}
    for f, t, left, right, h in _candidates(codes, node, state, K, equal_labels):
        errors = zero_one_sweep(F, y, h).errors
        errors_grid, _, score = objective.score(h)
        assert errors_grid == errors  # the grid of all crossing points loses nothing
        brute.setdefault((f, t), []).append((score, errors, left, right))
    for f in range(d):
        for t in range(255):
            if (f, t) not in brute:
                assert scores[f, t] == -np.inf
                continue
            best = max(brute[(f, t)], key=lambda item: item[0])
            assert int(np.floor(-scores[f, t])) == min(item[1] for item in brute[(f, t)])
            assert scores[f, t] == pytest.approx(best[0], rel=1e-12, abs=1e-12)
            chosen = [
                item
                for item in brute[(f, t)]
                if (item[2], item[3]) == (left_values[f, t], right_values[f, t])
            ]
            assert chosen[0][0] == pytest.approx(best[0], rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kernel", ["grid", "segment", "pairs"])
@pytest.mark.parametrize("step", ["best-midpoint", "midpoint", "exp-loss"])
def test_every_phase1_kernel_scores_every_step_rule_as_the_objective(seed, kernel, step):
    """Under each step rule every split kernel (the per-bin profiles, the segment tree with
    its O(log m) search for the best interval, the label pairs' minima per interval) gives
    every split the score of its best label pair as ``ZeroOneTreeObjective.score`` computes
    it over all intervals in numpy."""
    rng = np.random.default_rng(50 + seed)
    n, d, bins, K = 36, 3, 5, 3 + seed % 2
    codes, y, F = _codes(rng, n, d, bins), rng.integers(0, K, n), _scores(rng, n, K)
    objective = ZeroOneTreeObjective(F, y, step=step)
    objective.kernel = kernel
    state, node = _partial_state(rng, n, K)
    scores = objective.split_scores(codes, node, state)[0]
    best: dict = {}
    for f, t, _left, _right, h in _candidates(codes, node, state, K):
        best[(f, t)] = max(best.get((f, t), -np.inf), objective.score(h)[2])
    assert set(best) == {tuple(ix) for ix in np.argwhere(np.isfinite(scores))}
    for (f, t), value in best.items():
        assert scores[f, t] == pytest.approx(value, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("step", ["best-midpoint", "midpoint", "exp-loss"])
def test_every_phase1_kernel_agrees_on_a_subset_of_the_intervals(seed, step):
    """With ``max_intervals`` below the number of intervals, the per-bin profiles, the segment
    tree over the positions of the scored intervals and the label pairs' minima give every
    split the same score and the same label pair (the last two find the best step near the
    loss's minimizer only)."""
    rng = np.random.default_rng(90 + seed)
    n, d, bins, K = 60, 3, 6, 3 + seed % 3
    codes, y, F = _codes(rng, n, d, bins), rng.integers(0, K, n), _scores(rng, n, K)
    F = F + rng.normal(scale=0.05, size=F.shape) * (seed % 2)  # distinct crossings or ties
    results = []
    for kernel in ("grid", "segment", "pairs"):
        objective = ZeroOneTreeObjective(F, y, step=step, max_intervals=3 + seed % 3)
        assert not objective.exact
        objective.kernel = kernel
        state, node = _partial_state(np.random.default_rng(seed), n, K)
        results.append(objective.split_scores(codes, node, state))
    (grid_scores, *grid_labels), *others = results
    # the loss sums are added in another order (per code bucket, not per sample): equal up to
    # rounding, and the same label pairs
    for other_scores, *other_labels in others:
        np.testing.assert_allclose(other_scores, grid_scores, rtol=1e-12, atol=0)
        for grid, other in zip(grid_labels, other_labels):
            np.testing.assert_array_equal(grid, other)
    # the segment tree and the pairs sum the loss terms alike: bit for bit
    for a, b in zip(results[1], results[2]):
        np.testing.assert_array_equal(a, b)


def test_step_rules_pick_their_points_among_the_best_intervals():
    """The three rules on one line with several intervals of fewest errors: "midpoint" takes
    the first one's midpoint, "best-midpoint" the midpoint with the smallest exponential loss,
    "exp-loss" a point no worse than any point of a fine grid inside the best intervals (the
    loss evaluated from the scores after the step, by brute force)."""
    rng = np.random.default_rng(7)
    several = 0
    for _ in range(40):
        n, K = 25, 3
        F, y, h = _scores(rng, n, K), rng.integers(0, K, n), rng.integers(0, K, n)
        sweeps = {
            rule: zero_one_sweep(F, y, h, step=rule)
            for rule in ("midpoint", "best-midpoint", "exp-loss")
        }
        first = sweeps["midpoint"]
        edges = np.concatenate([[0.0], first.breakpoints, [np.inf]])
        best = np.flatnonzero(first.interval_errors == first.errors)
        assert first.best_interval == best[0]

        def loss(alpha):
            G = F.copy()
            G[np.arange(n), h] += alpha
            diff = G - G[np.arange(n), y][:, None]
            diff[np.arange(n), y] = -np.inf
            return float(np.exp(diff).sum())

        mids = [
            edges[j] + 0.5 * (edges[j + 1] - edges[j])
            if np.isfinite(edges[j + 1])
            else (2 * edges[j] if edges[j] > 0 else 1.0)
            for j in best
        ]
        chosen = sweeps["best-midpoint"]
        assert chosen.errors == first.errors and chosen.best_interval in best
        assert loss(chosen.alpha) <= min(loss(m) for m in mids) * (1 + 1e-12)
        several += len(best) > 1
        grid = [
            a
            for j in best
            if np.isfinite(edges[j + 1])
            for a in np.linspace(
                edges[j] + 0.01 * (edges[j + 1] - edges[j]),
                edges[j + 1] - 0.01 * (edges[j + 1] - edges[j]),
                201,
            )
        ]
        clipped = sweeps["exp-loss"]
        assert clipped.errors == first.errors and clipped.best_interval in best
        assert zero_one_errors_at(F, y, h, clipped.alpha) == first.errors
        assert loss(clipped.alpha) <= min(map(loss, grid), default=np.inf) * (1 + 1e-12)
    assert several >= 10  # the rules differ only where several intervals tie


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize(
    ("bins", "equal_labels"),
    [(5, True), (5, False), (256, True), (256, False)],
    ids=["few-codes", "few-codes-distinct", "all-codes", "all-codes-distinct"],
)
def test_margin_slope_split_scores_equal_brute_force(seed, sign, bins, equal_labels):
    rng = np.random.default_rng(seed)
    n, d, K = 36, 3, 3 + seed % 2
    codes, y, F = _codes(rng, n, d, bins), rng.integers(0, K, n), _scores(rng, n, K)
    if bins == 256:  # the two top codes in use: the last split and the totals over all codes
        codes[: n // 6] = 254
        codes[n // 6 : n // 3] = 255
    n_prime = int(rng.integers(1, n + 1))
    objective = MarginSlopeObjective(F, y, n_prime, sign, equal_labels)
    state, node = _partial_state(rng, n, K)
    scores, left_values, right_values = objective.split_scores(codes, node, state)
    brute = {}
    for f, t, left, right, h in _candidates(codes, node, state, K, equal_labels):
        slope = _bottom(_lines(F, y, h, sign), n_prime, 0.0)[1]  # exact S'(0+) on this side
        assert objective.score(h) == slope
        brute.setdefault((f, t), {})[(left, right)] = slope
    root = objective.stump_slopes(codes)
    root_candidates = list(
        _candidates(
            codes,
            DirectNode(0, 0, np.arange(n)),
            DirectTreeState(np.zeros(n, np.int64), {0: 0.0}),
            K,
            equal_labels,
        )
    )
    for f, t, left, right, h in root_candidates:
        assert root[f, t, right, left] == _bottom(_lines(F, y, h, sign), n_prime, 0.0)[1]
    assert np.count_nonzero(np.isfinite(root)) == len(root_candidates)
    for (f, t), values in brute.items():
        assert scores[f, t] == max(values.values())
        assert values[(left_values[f, t], right_values[f, t])] == scores[f, t]
    rejected = [scores[f, t] for f in range(d) for t in range(255) if (f, t) not in brute]
    assert np.all(np.isneginf(rejected))


def _tiny(seed, n=30, d=2, K=3):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, d)).astype(float)
    y = (X[:, 0] + (X[:, 1] > 1) + (rng.random(n) < 0.3)).astype(int) % K
    return X, y


def _replay(model, X, y):
    """The scores F before each round, the rounds' predicted classes and the codes."""
    codes = model._codes(X)
    F = np.zeros((len(y), model.n_classes_))
    for alpha, tree in zip(model.alphas_, model.estimators_):
        h = tree.predict(codes).astype(np.intp)
        yield F.copy(), h, alpha
        F[np.arange(len(y)), h] += alpha


@pytest.mark.parametrize("seed", range(4))
def test_first_two_stumps_are_the_brute_force_best(seed):
    X, y = _tiny(seed)
    model = DMCBoost(max_depth=1, n_estimators=2, phase2=False).fit(X, y)
    codes = model._codes(X)
    for F, h, alpha in _replay(model, X, y):
        objective = ZeroOneTreeObjective(F, y)
        brute = []
        for f in range(codes.shape[1]):
            for t in np.unique(codes[:, f])[:-1]:
                for left, right in itertools.product(range(3), repeat=2):
                    g = np.where(codes[:, f] <= t, left, right)
                    sweep = zero_one_sweep(F, y, g)
                    brute.append((objective.score(g)[2], sweep.errors))
        sweep = zero_one_sweep(F, y, h)
        assert sweep.errors == min(errors for _, errors in brute)
        assert objective.score(h)[2] == pytest.approx(max(s for s, _ in brute), rel=1e-12)
        assert alpha == sweep.alpha


@pytest.mark.parametrize("seed", range(3))
def test_phase1_error_never_increases_and_steps_are_the_sweeps(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(120, 4))
    y = np.argmax(X[:, :3] + 0.8 * rng.normal(size=(120, 3)), axis=1)
    model = DMCBoost(max_depth=2, n_estimators=40, phase2=False, max_bins=16).fit(X, y)
    errors = [len(y)]
    for F, h, alpha in _replay(model, X, y):
        sweep = zero_one_sweep(F, y, h)
        assert alpha == sweep.alpha and alpha > 0
        assert sweep.current_errors == errors[-1]
        errors.append(sweep.errors)
    assert np.array_equal(model.history_["errors"], errors[1:])
    assert np.all(np.diff(errors) <= 0)
    assert np.all(model.history_["phase"] == 1) and model.n_phase1_ == model.n_estimators_
    assert model.stop_reason_.startswith(("phase I", "n_estimators"))
    assert model.phase1_stop_reason_ == model.stop_reason_


def _phase2_model(seed, **params):
    X, y = _tiny(seed, n=40)
    return (
        X,
        y,
        DMCBoost(max_depth=1, n_estimators=300, epsilon=0.0, n_prime=10, **params).fit(X, y),
    )


@pytest.mark.parametrize("seed", [0, 4, 7, 12])  # seeds whose run stops before max_rounds
def test_phase2_objective_never_decreases_and_ends_at_a_coordinatewise_maximum(seed):
    X, y, model = _phase2_model(seed)
    objective = model.history_["objective"]
    assert np.all(np.diff(objective[model.n_phase1_ - 1 :]) >= -1e-12)
    F = model.decision_function(X)
    c = 0.0
    for alpha in model.alphas_:  # summed in training order: phi = S'c - S is often 0 here
        c += abs(alpha)
    assert bottom_margin_average(multiclass_margins(F, y) / c, 10) == pytest.approx(
        objective[-1], rel=1e-12
    )
    assert model.stop_reason_ == "phase II coordinatewise maximum"
    codes = model._codes(X)
    grid = np.geomspace(1e-6, 1e3, 60)
    for f in range(codes.shape[1]):
        for t in np.unique(codes[:, f])[:-1]:
            for left, right in itertools.product(range(model.n_classes_), repeat=2):
                h = np.where(codes[:, f] <= t, left, right)
                search = margin_line_search(F, y, h, c, 10)
                assert search.max_value <= search.initial_value + DMCBoost.improvement_tol
                for alpha in np.concatenate([-grid, grid]):  # and no step on a fine grid
                    assert (
                        bottom_average_along(F, y, h, c, 10, alpha)
                        <= search.initial_value + DMCBoost.improvement_tol
                    )


def test_relaxation_keeps_the_best_round():
    X, y = _tiny(1, n=40)
    model = DMCBoost(
        max_depth=1, n_estimators=300, epsilon=0.01, n_iter_no_change=5, n_prime=10
    ).fit(X, y)
    objective = model.history_["objective"]
    assert objective[-1] == objective[model.n_phase1_ - 1 :].max()
    assert len(objective) == model.n_estimators_ == len(model.alphas_)


def test_two_classes_agree_with_directboost_phase1():
    """K = 2 with distinct leaf labels: the tree search, tie rule and plateau rule are
    DirectBoost's, the step is not.

    DirectBoost steps to the midpoint of the best interval on the grid of *all* crossing
    points |a_i|; DMCBoost to the midpoint of the best interval of the sweep along the chosen
    tree (the paper's Algorithm 1.1: only that tree's intersection points).  The trees, error
    counts and steps agree until the first round where that grid has a point inside the
    tree's best interval; in that round both steps lie in the same interval (same errors)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(150, 3))
    y = (X[:, 0] + 0.7 * X[:, 1] + 0.6 * rng.normal(size=150) > 0).astype(int)
    ours = DMCBoost(
        max_depth=2, n_estimators=30, phase2=False, max_bins=32, distinct_leaf_labels=True
    ).fit(X, y)
    # DirectBoost with the rules DMCBoost shares: midpoint steps, every node split, a plateau
    # rule and no loss tolerance
    theirs = DirectBoost(
        max_depth=2,
        n_estimators=30,
        phase2=False,
        max_bins=32,
        step="midpoint",
        split_rule="always",
        phase1_tol=0.0,
        phase1_n_iter_no_change=ours.n_iter_no_change,
    ).fit(X, y)
    codes = ours._codes(X)
    rounds = 0
    for (F, h, alpha), tree, beta in zip(_replay(ours, X, y), theirs.estimators_, theirs.alphas_):
        assert np.array_equal(h, (tree.predict(codes) > 0).astype(np.intp))
        assert ours.history_["errors"][rounds] == round(
            theirs.history_["train_error"][rounds] * len(y)
        )
        rounds += 1
        if alpha != beta:
            sweep = zero_one_sweep(F, y, h)
            assert sweep.low < beta < sweep.high
            break
    assert rounds >= 3


def test_prediction_interface_and_determinism():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 3))
    labels = np.array(["a", "b", "c"])[np.argmax(X + 0.5 * rng.normal(size=(90, 3)), axis=1)]
    first = DMCBoost(n_estimators=15, n_prime=0.2).fit(X, labels)
    second = DMCBoost(n_estimators=15, n_prime=0.2).fit(X, labels)
    assert np.array_equal(first.alphas_, second.alphas_)
    assert first.stop_reason_ == second.stop_reason_
    scores = first.decision_function(X)
    assert scores.shape == (90, 3) and list(first.classes_) == ["a", "b", "c"]
    staged = list(first.staged_decision_function(X))
    assert len(staged) == first.n_estimators_
    np.testing.assert_allclose(staged[-1], scores)
    assert np.array_equal(first.predict(X), first.classes_[np.argmax(scores, axis=1)])
    assert first.n_prime_ == 18 and "DMCBoost" in marginboost.__all__
    assert marginboost.DMCBoost is DMCBoost
    assert set(first.history_) == {"phase", "train_error", "errors", "objective", "alpha", "time"}


@pytest.mark.parametrize(
    "X, y, params, message",
    [
        (np.zeros((4, 2)), [1, 1, 1, 1], {}, "only one class"),
        (np.array([[0.0], [np.nan], [1.0]]), [0, 1, 2], {}, "NaN"),
        (np.zeros((4, 2)), [0, 1, 2], {}, "inconsistent"),
        (np.zeros((4, 2)), [[0, 1], [1, 0], [0, 1], [1, 0]], {}, "1d array"),
        (np.arange(8.0).reshape(4, 2), [0, 1, 2, 0], {"n_prime": 0}, "n_prime"),
        (np.arange(8.0).reshape(4, 2), [0, 1, 2, 0], {"n_prime": 5}, "n_prime"),
        (np.arange(8.0).reshape(4, 2), [0, 1, 2, 0], {"n_prime": 1.5}, "n_prime"),
        (np.arange(8.0).reshape(4, 2), [0, 1, 2, 0], {"epsilon": -0.1}, "epsilon"),
        (np.arange(8.0).reshape(4, 2), [0, 1, 2, 0], {"max_depth": 0}, "max_depth"),
    ],
)
def test_bad_input_is_rejected(X, y, params, message):
    with pytest.raises(ValueError, match=message):
        DMCBoost(**params).fit(X, y)


def test_sample_weight_must_be_uniform():
    X, y = np.arange(8.0).reshape(4, 2), [0, 1, 2, 0]
    with pytest.raises(ValueError, match="sample_weight"):
        DMCBoost().fit(X, y, sample_weight=[1, 2, 1, 1])
    DMCBoost(n_estimators=2).fit(X, y, sample_weight=[1, 1, 1, 1])


@pytest.mark.parametrize("seed", range(8))
def test_profile_kernel_equals_segment_tree_kernel(seed):
    """Both exact phase-I kernels give the same scores and label pairs on every split, and
    the same whatever the number of feature blocks run in parallel (1 to d)."""
    from marginboost.boosting._direct_common import empty_scores as _empty_scores
    from marginboost.boosting.dmcboost import _phase1_kernels as phase1
    from marginboost.boosting.dmcboost import _phase1_split_kernels as kernels

    rng = np.random.default_rng(100 + seed)
    n, K, d = int(rng.integers(5, 80)), int(rng.integers(2, 6)), 3
    F, y = _scores(rng, n, K), rng.integers(0, K, n)
    codes = _codes(rng, n, d, int(rng.integers(2, 12)))
    objective = ZeroOneTreeObjective(F, y)
    samples = np.sort(rng.choice(n, size=max(2, n // 2), replace=False)).astype(np.int64)
    pred = rng.integers(0, K, n).astype(np.int64)
    outside = np.ones(n, dtype=bool)
    outside[samples] = False
    base = phase1.errors_profile(objective.lo, objective.hi, pred, outside, objective.V.size)
    sums = np.asarray(phase1.loss_sums(objective.Gk, objective.Bk, objective.Rk, pred, outside))
    segment, profile = _empty_scores(d), _empty_scores(d)
    kernels.phase1_split_scores(
        codes,
        samples,
        objective.lo,
        objective.hi,
        objective.V,
        base,
        objective.parts,
        sums,
        objective.shift,
        objective.reference,
        *segment,
        2,
    )
    lo, hi = objective._grid_ranges()
    kernels.phase1_grid_split_scores(*node_kernel_args(objective, codes, samples, pred, profile))
    for a, b in zip(segment, profile):
        np.testing.assert_array_equal(a, b)
    for n_blocks in (1, 3):
        for kernel, ranges, errors in (
            (kernels.phase1_split_scores, (objective.lo, objective.hi), (objective.V, base)),
            (
                kernels.phase1_grid_split_scores,
                (lo, hi),
                (objective.J, objective.V, base[objective.J]),
            ),
        ):
            again = _empty_scores(d)
            kernel(
                codes,
                samples,
                *ranges,
                *errors,
                objective.parts,
                sums,
                objective.shift,
                objective.reference,
                *again,
                n_blocks,
            )
            for a, b in zip(again, profile):
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("seed", range(4))
def test_interval_subset_scores_the_errors_on_the_subset(seed):
    """With ``max_intervals`` below the number of intervals a split scores the fewest errors
    over the chosen intervals only: never below the exact fewest errors."""
    rng = np.random.default_rng(200 + seed)
    n, d, bins, K = 40, 3, 5, 3
    codes, y, F = _codes(rng, n, d, bins), rng.integers(0, K, n), _scores(rng, n, K)
    exact = ZeroOneTreeObjective(F, y)
    subset = ZeroOneTreeObjective(F, y, max_intervals=3)
    m = exact.V.size
    assert m + 1 > 3 and subset.J.size == 3 and subset.J[0] == 0 and subset.J[-1] == m
    state, node = _partial_state(rng, n, K)
    scores = subset.split_scores(codes, node, state)[0]
    best: dict = {}
    for f, t, _left, _right, h in _candidates(codes, node, state, K):
        profile = marginboost.boosting.dmcboost._phase1_kernels.errors_profile(
            exact.lo, exact.hi, h.astype(np.int64), np.ones(n, dtype=bool), m
        )
        on_subset, everywhere = int(profile[subset.J].min()), int(profile.min())
        assert on_subset >= everywhere
        best[(f, t)] = min(best.get((f, t), n + 1), on_subset)
    for (f, t), errors in best.items():
        assert int(np.floor(-scores[f, t])) == errors


def test_max_intervals_is_validated_and_large_data_stays_monotone():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5).astype(int)
    with pytest.raises(ValueError, match="max_intervals"):
        DMCBoost(max_intervals=0, n_estimators=2).fit(X, y)
    model = DMCBoost(max_intervals=4, n_estimators=30, phase2=False).fit(X, y)
    assert np.all(np.diff(model.history_["errors"]) <= 0)
    noisy = np.where(rng.random(300) < 0.3, rng.integers(0, 3, 300), y)
    capped = DMCBoost(n_estimators=30, max_phase1_rounds=2, n_iter_no_change=5).fit(X, noisy)
    assert capped.n_phase1_ == 2 and capped.phase1_stop_reason_ == "max_phase1_rounds"
    assert set(capped.history_["phase"][2:]) <= {2.0}


def _path_data(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(160, 3))
    y = np.where(
        rng.random(160) < 0.2,
        rng.integers(0, 3, 160),
        (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.3).astype(int),
    )
    return X, y


def test_fit_path_equals_separate_fits():
    X, y = _path_data(11)
    grid = [1, 0.25, 0.5]
    path = DMCBoost(n_estimators=40, n_iter_no_change=10).fit_path(X, y, grid)
    assert [model.n_prime for model in path] == grid
    for value, model in zip(grid, path):
        alone = DMCBoost(n_prime=value, n_estimators=40, n_iter_no_change=10).fit(X, y)
        np.testing.assert_array_equal(model.alphas_, alone.alphas_)
        for key in ("phase", "errors", "objective", "alpha"):
            np.testing.assert_array_equal(model.history_[key], alone.history_[key])
        assert model.stop_reason_ == alone.stop_reason_
        np.testing.assert_array_equal(model.decision_function(X), alone.decision_function(X))
    with pytest.raises(ValueError, match="n_prime"):
        DMCBoost().fit_path(X, y, [])


def test_an_interrupted_path_goes_on_from_its_checkpoint(tmp_path, monkeypatch):
    """Killed in the second n' branch, the path keeps phase I and the first branch; the next
    call loads them and computes the rest, giving the uninterrupted path's models."""
    from marginboost.boosting.dmcboost import PathCheckpoint

    X, y = _path_data(12)
    grid = [1, 0.25, 0.5]
    estimator = DMCBoost(n_estimators=40, n_iter_no_change=10)
    whole = estimator.fit_path(X, y, grid)
    with killed_in_branch(monkeypatch):
        estimator.fit_path(X, y, grid, checkpoint=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fingerprint",
        "phase1.npz",
        "phase2-0.npz",
    ]
    saved = PathCheckpoint(tmp_path)
    resumed = estimator.fit_path(X, y, grid, checkpoint=saved)
    assert saved.restored_seconds > 0
    _assert_same_paths(resumed, whole, X)
    # every part is saved now: nothing is fitted again
    with monkeypatch.context() as patch:
        patch.setattr(DMCBoost, "_run_phase1", lambda self, state: pytest.fail("refitted"))
        patch.setattr(DMCBoost, "_run_phase2", lambda self, state: pytest.fail("refitted"))
        again = estimator.fit_path(X, y, grid, checkpoint=tmp_path)
    np.testing.assert_array_equal(again[2].predict(X), whole[2].predict(X))


@pytest.mark.parametrize("phase", [1, 2])
def test_a_path_killed_inside_a_phase_goes_on_from_its_last_round(tmp_path, monkeypatch, phase):
    """With ``every=0`` the phase in progress is saved at each round: a path killed inside
    phase I, or inside the last n' branch's phase II, resumes from that round and gives the
    uninterrupted path's models; the finished phases replace their progress."""
    from marginboost.boosting.dmcboost import PathCheckpoint

    X, y = _path_data(12)
    grid = [1, 0.25, 0.5]
    estimator = DMCBoost(n_estimators=40, n_iter_no_change=10)
    original, calls = DMCBoost._add, []

    def counted(self, *args):  # type: ignore[no-untyped-def]
        calls.append(1)
        return original(self, *args)

    with monkeypatch.context() as patch:
        patch.setattr(DMCBoost, "_add", counted)
        whole = estimator.fit_path(X, y, grid)
    rounds, n1 = len(calls), whole[0].n_phase1_
    assert n1 >= 3 and rounds - n1 >= 6
    # the round to die at, counted over phase I and the branches' rounds in order
    kill = n1 - 1 if phase == 1 else rounds - 1
    with killed_at_round(monkeypatch, kill):
        estimator.fit_path(X, y, grid, checkpoint=PathCheckpoint(tmp_path, every=0))
    progress = "phase1-progress.npz" if phase == 1 else f"phase2-{len(grid) - 1}-progress.npz"
    assert progress in {p.name for p in tmp_path.iterdir()}
    saved = PathCheckpoint(tmp_path, every=0)
    calls.clear()
    with monkeypatch.context() as patch:
        patch.setattr(DMCBoost, "_add", counted)
        resumed = estimator.fit_path(X, y, grid, checkpoint=saved)
    assert len(calls) == rounds - (kill - 1)  # only the rounds after the last save again
    assert saved.restored_seconds > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fingerprint",
        "phase1.npz",
        "phase2-0.npz",
        "phase2-1.npz",
        "phase2-2.npz",
    ]
    _assert_same_paths(resumed, whole, X)


def _assert_same_paths(resumed, whole, X):
    """A resumed path's models are the uninterrupted path's, and its clock goes on from the
    saved parts."""
    for a, b in zip(resumed, whole, strict=True):
        assert a.n_prime == b.n_prime and a.n_phase1_ == b.n_phase1_
        assert a.stop_reason_ == b.stop_reason_
        assert a.phase1_stop_reason_ == b.phase1_stop_reason_
        np.testing.assert_array_equal(a.alphas_, b.alphas_)
        for key in ("phase", "errors", "objective", "alpha"):
            np.testing.assert_array_equal(a.history_[key], b.history_[key])
        assert np.all(np.diff(a.history_["time"]) >= 0)
        np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


def test_a_checkpoint_saves_after_another_run_of_the_cell_removed_its_folder(tmp_path):
    """Two overlapping runs of one grid can fit the same cell at once; the first to finish
    removes the cell's checkpoint folder.  The other's next save makes the folder again, and
    no temporary file is left behind."""
    import shutil

    from marginboost.boosting.dmcboost import PathCheckpoint

    X, y = _path_data(12)
    folder = tmp_path / "cell"
    saved = PathCheckpoint(folder, every=0)
    saved.open(DMCBoost(n_estimators=5), X, y, [0.5], None)
    shutil.rmtree(folder)  # the other run finished the cell
    saved.save("phase1", {"seconds": 1.5, "state": {}})
    assert sorted(p.name for p in folder.iterdir()) == ["phase1.npz"]
    assert saved.load("phase1")["seconds"] == 1.5


def test_path_checkpoint_rejects_a_bad_save_interval(tmp_path):
    from marginboost.boosting.dmcboost import PathCheckpoint

    for bad in (-1.0, float("nan"), "often"):
        with pytest.raises(ValueError, match="every"):
            PathCheckpoint(tmp_path, every=bad)


def test_a_checkpoint_of_another_fit_is_refused(tmp_path):
    X, y = _path_data(12)
    DMCBoost(n_estimators=5).fit_path(X, y, [0.5], checkpoint=tmp_path)
    for other in (
        lambda: DMCBoost(n_estimators=5).fit_path(X, y, [0.25], checkpoint=tmp_path),
        lambda: DMCBoost(n_estimators=6).fit_path(X, y, [0.5], checkpoint=tmp_path),
        lambda: DMCBoost(n_estimators=5).fit_path(X[::-1], y, [0.5], checkpoint=tmp_path),
    ):
        with pytest.raises(ValueError, match="another fit"):
            other()


def _fitted_on_iris():
    """Iris and a small DMCBoost fitted on it (its warning of a stop on n_estimators silenced)."""
    import warnings

    from sklearn.datasets import load_iris
    from sklearn.exceptions import ConvergenceWarning

    X, y = load_iris(return_X_y=True)
    model = DMCBoost(n_estimators=4, max_depth=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    return X, y, model


def test_checkpoint_files_are_data_and_refuse_tampering(tmp_path):
    """A checkpoint part is JSON and arrays (no pickle): an edited file fails its checksum, and
    a part naming a class outside the package's estimators, binnings and trees is refused."""
    import io
    import json

    from marginboost.boosting._checkpoint import CheckpointError, load_checkpoint, save_checkpoint

    X, y, model = _fitted_on_iris()
    path = tmp_path / "part.npz"
    save_checkpoint(path, {"model": model, "seconds": 1.5, "pair": (1, "a")})
    back = load_checkpoint(path)
    np.testing.assert_array_equal(back["model"].decision_function(X), model.decision_function(X))
    assert back["seconds"] == 1.5 and back["pair"] == (1, "a")
    with np.load(path, allow_pickle=False) as data:  # readable without pickle
        arrays = {name: data[name] for name in data.files}
    text = json.loads(arrays["__json__"].tobytes())
    edited = json.dumps(text).replace("1.5", "2.5").encode()
    arrays["__json__"] = np.frombuffer(edited, dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    path.write_bytes(buffer.getvalue())
    with pytest.raises(CheckpointError, match="fails its checksum"):
        load_checkpoint(path)
    with pytest.raises(CheckpointError, match="cannot be saved"):
        save_checkpoint(tmp_path / "other.npz", {"f": io.BytesIO()})
    with pytest.raises(CheckpointError, match="cannot be saved"):
        save_checkpoint(tmp_path / "other.npz", np.array([object()], dtype=object))


@pytest.mark.parametrize(
    "written",
    [
        "marginboost.boosting.dmcboost.DMCBoost",  # the module of DMCBoost before it moved
        "marginboost.boosting.dmcboost.estimator.DMCBoost",  # its module path now
        "marginboost.DMCBoost",  # the stable public name checkpoints are written under
        "os.system",  # not this package's: refused
    ],
)
def test_checkpoints_naming_a_moved_class_by_its_old_module_still_load(tmp_path, written):
    """Parts are written with an estimator's public name (``marginboost.DMCBoost``), which stays
    when its module moves; a part that names the module path a class had when it was written
    (in-flight grid cells saved before ``boosting/dmcboost.py`` became a subpackage) loads as
    that class, and a class outside the package is refused."""
    import json

    from marginboost.boosting._checkpoint import (
        LEGACY_NAMES,
        CheckpointError,
        _digest,
        load_checkpoint,
        save_checkpoint,
    )

    assert LEGACY_NAMES["marginboost.boosting.direct.DirectBoost"] == "marginboost.DirectBoost"
    X, y, model = _fitted_on_iris()
    path = tmp_path / "part.npz"
    save_checkpoint(path, {"model": model})
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    text = arrays.pop("__json__").tobytes().decode()
    arrays.pop("__sha256__")
    assert json.loads(text)["__dict__"][0][1]["__object__"] == "marginboost.DMCBoost"
    text = text.replace('"marginboost.DMCBoost"', json.dumps(written))
    checksum = _digest(text, arrays)  # a valid file, only the class name differs
    arrays["__json__"] = np.frombuffer(text.encode(), dtype=np.uint8)
    arrays["__sha256__"] = np.frombuffer(checksum.encode(), dtype=np.uint8)
    np.savez(path, **arrays)
    if written == "os.system":
        with pytest.raises(CheckpointError, match="names the class 'os.system'"):
            load_checkpoint(path)
        return
    back = load_checkpoint(path)["model"]
    assert type(back) is DMCBoost
    np.testing.assert_array_equal(back.decision_function(X), model.decision_function(X))
