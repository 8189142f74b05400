"""DMCBoost edge cases: label ties, near-tied margins, 256-code features, input messages."""

from __future__ import annotations

import math
import warnings

import numba
import numpy as np
import pytest
from _dmc_helpers import node_kernel_args

from marginboost.boosting import DMCBoost, PhaseTwoWarning
from marginboost.boosting.dmcboost import MarginSlopeObjective, ZeroOneTreeObjective
from marginboost.boosting.dmcboost.search import (
    generalization_bound,
    kl_inverse,
    zero_one_sweep,
)
from marginboost.weak import DirectNode, DirectTreeState


def _tiny(seed, n=30, d=2, K=3):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, d)).astype(float)
    y = (X[:, 0] + (X[:, 1] > 1) + (rng.random(n) < 0.3)).astype(int) % K
    return X, y


def _structural_depth(tree):
    """Depth of a fitted tree read off its node arrays (root at depth 0)."""
    depth, stack = 0, [(0, 0)]
    while stack:
        node, level = stack.pop()
        if tree.node_leaf[node] >= 0:
            depth = max(depth, level)
        else:
            stack.extend([(tree.node_left[node], level + 1), (tree.node_right[node], level + 1)])
    return depth


def test_constant_feature_tied_labels_go_to_the_first_class():
    """A root that cannot split takes the lowest class when every label ties."""
    X = np.zeros((6, 2))
    y = np.array(["a", "b", "c", "a", "b", "c"])
    model = DMCBoost(n_estimators=1, phase2=False, max_depth=1).fit(X, y)
    assert model.n_estimators_ == 1
    assert model.estimators_[0].leaf_values_.tolist() == [0.0]
    assert model.predict(X).tolist() == ["a"] * 6


def test_phase2_stumps_report_their_depth():
    """Every tree of a fit, also the stumps of the exhaustive phase-II check, has depth 1
    under max_depth=1 and reports the depth of its node structure."""
    X, y = _tiny(12, n=40)
    model = DMCBoost(max_depth=1, n_estimators=300, epsilon=0.0, n_prime=10).fit(X, y)
    assert model.stop_reason_ == "phase II coordinatewise maximum"
    assert model.n_estimators_ > model.n_phase1_
    for tree in model.estimators_:
        assert tree.depth_ == 1
        assert _structural_depth(tree) == tree.depth_


def test_margins_within_relative_near_tie_of_the_nth_one_count_as_tied():
    """The near-tie band scales with max |F|: a margin 1.5e-12 above the n'-th one is tied
    when max |F| = 2 (band 2e-12), so the steeper side of the pair fills the bottom set."""
    y = np.array([0, 0])
    h = np.array([0, 1])
    near = np.array([[2.0, 0.0], [2.0 + 1.5e-12, 0.0]])
    tied = MarginSlopeObjective(near, y, 1, 1)
    assert tied.need == 1
    assert tied.score(h) == -1
    far = np.array([[2.0, 0.0], [2.0 + 8e-12, 0.0]])
    assert MarginSlopeObjective(far, y, 1, 1).score(h) == 1


def test_phase2_split_scores_ignore_codes_of_other_features():
    """A feature whose largest code is below 255 has no split at its largest code, even when
    an earlier feature uses code 255."""
    n, K = 8, 3
    codes = np.zeros((n, 2), dtype=np.uint8)
    codes[:, 0] = [0, 255, 0, 255, 0, 255, 0, 255]
    codes[:, 1] = [0, 1, 1, 0, 1, 0, 0, 1]
    codes = np.asfortranarray(codes)
    rng = np.random.default_rng(3)
    F = rng.integers(0, 3, size=(n, K)).astype(float)
    y = rng.integers(0, K, n)
    objective = MarginSlopeObjective(F, y, 3, 1)
    state = DirectTreeState(np.zeros(n, np.int64), {0: 0.0})
    node = DirectNode(0, 0, np.arange(n, dtype=np.int64))
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        scores, _, _ = objective.split_scores(codes, node, state)
    finally:
        numba.set_num_threads(threads)
    assert np.isfinite(scores[0, 0]) and np.isfinite(scores[1, 0])
    finite = {(f, t) for f, t in zip(*np.nonzero(np.isfinite(scores)))}
    assert finite == {(0, 0), (1, 0)}


GOOD_F = np.array([[0.0, 1.0, 0.5], [1.0, 0.0, 0.0]])


def test_wrong_label_dtype_message_names_the_class_range():
    with pytest.raises(ValueError, match=r"y must hold integer class indices in 0\.\.2; got dtype"):
        zero_one_sweep(GOOD_F, np.array([True, False]), np.array([2, 1]))


def test_integral_float_labels_are_accepted():
    """Labels given as integral floats give the same sweep as integer labels."""
    h = np.array([2, 1])
    as_float = zero_one_sweep(GOOD_F, np.array([0.0, 1.0]), h)
    as_int = zero_one_sweep(GOOD_F, np.array([0, 1]), h)
    assert as_float.errors == as_int.errors
    assert as_float.alpha == as_int.alpha
    assert np.array_equal(as_float.interval_errors, as_int.interval_errors)


def test_generalization_bound_for_a_single_example():
    """n = n' = 1 is allowed; the value follows Theorem 2's formula."""
    H, theta = 4.0, 2.0
    value = generalization_bound(theta, n=1, n_prime=1, K=2, n_hypotheses=H)
    log_h = math.log(H)
    u = 8.0 / theta**2 * math.log(2.0 / log_h) * math.log(2.0 * H) + log_h + math.log(20.0)
    expected = log_h / 2.0 + math.sqrt(log_h / 2.0) + kl_inverse(0.0, u)
    assert value == pytest.approx(expected, rel=1e-9)


def test_generalization_bound_theta_message_gives_the_threshold():
    with pytest.raises(ValueError, match=r"must be >= 8/\|H\| = 8e-06 "):
        generalization_bound(1e-7, n=1000, n_prime=100, K=4, n_hypotheses=1e6)


def test_phase_two_that_ends_with_more_errors_than_phase_one_warns():
    """Constant features: phase I can only vote for classes as a whole; phase II trades errors
    for the bottom margins and ends with more errors than phase I and than the majority class,
    which the fit says."""
    rng = np.random.default_rng(0)
    X, y = np.ones((200, 5)), rng.choice(3, 200, p=[0.415, 0.3, 0.285])
    with pytest.warns(PhaseTwoWarning, match=r"phase II ended with (\d+) training errors, more"):
        model = DMCBoost(n_estimators=20).fit(X, y)
    errors, phase = model.history_["errors"], model.history_["phase"]
    phase1_errors = int(errors[phase == 1][-1])
    assert int(np.sum(model.predict(X) != y)) == errors[-1] > phase1_errors == model.phase1_errors_
    assert errors[-1] >= 200 - np.bincount(y).max()
    # phase I alone, and a fit whose phase II does not lose accuracy, do not warn
    with warnings.catch_warnings():
        warnings.simplefilter("error", PhaseTwoWarning)
        DMCBoost(n_estimators=20, phase2=False).fit(X, y)
        Xr = rng.normal(size=(200, 5))
        DMCBoost(n_estimators=20).fit(Xr, (Xr[:, 0] > 0).astype(int) + (Xr[:, 1] > 0))


def test_phase_two_that_trades_errors_but_beats_the_majority_class_does_not_warn():
    """Iris: phase I ends with no training error, phase II trades a few errors for the bottom
    margins (as the paper allows) and still beats voting for the majority class: no warning,
    and the fit records both phases' errors."""
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PhaseTwoWarning)
        model = DMCBoost().fit(X, y)
    errors = model.history_["errors"]
    assert model.phase1_errors_ == int(errors[: model.n_phase1_].min()) == 0
    assert 0 < errors[-1] == np.sum(model.predict(X) != y) < 100  # majority class: 100 errors


@pytest.mark.parametrize("patience", [1, 3, 6])
def test_phase_one_stops_after_n_iter_no_change_rounds_without_fewer_errors(patience):
    """Constant features: round 1 votes for the majority class, and every later phase-I round
    keeps the error count, so phase I ends on the plateau rule after exactly ``patience``
    such rounds."""
    rng = np.random.default_rng(0)
    X, y = np.ones((200, 5)), rng.choice(3, 200, p=[0.415, 0.3, 0.285])
    model = DMCBoost(n_estimators=20, phase2=False, n_iter_no_change=patience).fit(X, y)
    assert model.n_phase1_ == 1 + patience
    assert model.phase1_stop_reason_ == f"phase I plateau ({patience} rounds without fewer errors)"
    errors = model.history_["errors"]
    assert np.all(errors == errors[0]) and errors[0] == np.sum(y != np.bincount(y).argmax())


def test_max_phase1_rounds_of_one_runs_one_phase_one_round():
    X, y = np.arange(60.0).reshape(30, 2) % 7, np.arange(30) % 3
    model = DMCBoost(max_phase1_rounds=1, n_estimators=5, max_depth=1).fit(X, y)
    assert model.n_phase1_ == 1
    assert model.history_["phase"][0] == 1 and set(model.history_["phase"][1:]) <= {2}


@pytest.mark.parametrize(("n", "n_prime", "K"), [(50, 5, 3), (1000, 100, 4)])
def test_generalization_bound_follows_theorem_2_for_larger_samples(n, n_prime, K):
    """The three terms of Theorem 2's bound, written out: (K - 1) log|H| / (2n),
    sqrt(log|H| / (2 n^2)) and kl^{-1}((n' - 1)/n, u/n)."""
    H, theta, delta = 1e4, 0.5, 0.05
    value = generalization_bound(theta, n=n, n_prime=n_prime, K=K, n_hypotheses=H, delta=delta)
    log_h = math.log(H)
    u = (
        8.0 / theta**2 * math.log(2.0 * n * n / log_h) * math.log(2.0 * H)
        + log_h
        + math.log(1.0 / delta)
    )
    expected = (
        (K - 1) * log_h / (2.0 * n)
        + math.sqrt(log_h / (2.0 * n**2))
        + kl_inverse((n_prime - 1) / n, u / n)
    )
    assert value == pytest.approx(expected, rel=1e-9)


def test_phase1_kernel_choice_follows_the_cost_of_each_kernel():
    """Both phase-I split kernels are exact; which one runs is a cost decision.  The per-bin
    profile touches bins * G cells (G error intervals), sorting a node's crossings costs about
    G + 2 n_node log2(G + 1).  With G in the hundreds, a 10-sample node is sorted even with 4
    bins, while a 2-bin feature over 400 samples uses the profile."""
    rng = np.random.default_rng(5)
    n, K = 400, 3
    objective = ZeroOneTreeObjective(rng.normal(size=(n, K)), rng.integers(0, K, n))
    G = objective.J.size
    assert objective.exact and G > 300
    four_bins = np.asfortranarray(rng.integers(0, 4, size=(n, 2)).astype(np.uint8))
    two_bins = np.asfortranarray(rng.integers(0, 2, size=(n, 2)).astype(np.uint8))
    assert 4 * G > G + 2 * 10 * math.log2(G + 1)
    assert not objective._use_grid(four_bins, 10)
    assert 2 * G < G + 2 * n * math.log2(G + 1)
    assert objective._use_grid(two_bins, n)


@pytest.mark.parametrize("many_values", [False, True])
def test_phase1_split_scores_do_not_depend_on_the_number_of_feature_blocks(
    monkeypatch, many_values
):
    """The features are shared out in one contiguous block per numba thread; every score
    depends on its feature alone, so 1, 2, 3 or 7 blocks (more than the 5 features) give the
    same scores and leaf labels, with the profile kernel (few codes) and the sorting kernel."""
    rng = np.random.default_rng(11)
    n, K = 60, 3
    objective = ZeroOneTreeObjective(rng.normal(size=(n, K)), rng.integers(0, K, n))
    high = 200 if many_values else 3
    codes = np.asfortranarray(rng.integers(0, high, size=(n, 5)).astype(np.uint8))
    assert objective._use_grid(codes, n) is not many_values
    state = DirectTreeState(np.zeros(n, np.int64), {0: 0.0})
    node = DirectNode(0, 0, np.arange(n, dtype=np.int64))
    results = []
    for blocks in (1, 2, 3, 7):
        monkeypatch.setattr(numba, "get_num_threads", lambda blocks=blocks: blocks)
        results.append(objective.split_scores(codes, node, state))
        objective.kernel = "pairs"
        results.append(objective.split_scores(codes, node, state))
        objective.kernel = None
    _assert_same_split_scores(results)


def test_unknown_step_rule_is_refused_by_name():
    """A misspelt step rule fails before any work, naming the accepted rules."""
    X, y = _tiny(0)
    with pytest.raises(ValueError, match="step"):
        DMCBoost(step="middle").fit(X, y)
    with pytest.raises(ValueError, match="best-midpoint"):
        zero_one_sweep(GOOD_F, np.array([0, 1]), np.array([1, 0]), step="middle")
    with pytest.raises(ValueError, match="best-midpoint"):
        ZeroOneTreeObjective(GOOD_F, np.array([0, 1]), step="middle")


def test_a_fit_stopped_by_its_round_caps_warns_and_one_that_converges_does_not():
    from sklearn.exceptions import ConvergenceWarning

    X, y = _tiny(5, n=60)
    with pytest.warns(ConvergenceWarning, match="n_estimators=2 rounds"):
        capped = DMCBoost(n_estimators=2, max_depth=1).fit(X, y)
    assert capped.stop_reason_.startswith("n_estimators")
    with pytest.warns(ConvergenceWarning, match="max_phase1_rounds=1 rounds"):
        DMCBoost(max_phase1_rounds=1, phase2=False, max_depth=1).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        free = DMCBoost(max_depth=1, phase2=False).fit(X, y)
    assert free.stop_reason_.startswith("phase I")


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("step", ["best-midpoint", "midpoint", "exp-loss"])
def test_segment_kernel_scores_alike_with_its_errors_flat_or_in_the_tree(monkeypatch, seed, step):
    """The segment-tree kernel keeps the errors on the scored intervals in the tree or, where
    there are at most as many intervals as node samples, flat; the tree, the flat array and the
    automatic choice give the same scores and leaf labels bit for bit, on a node with more
    samples than intervals and on one with fewer."""
    from marginboost.boosting.dmcboost import _phase1_split_kernels as kernels

    rng = np.random.default_rng(300 + seed)
    n, K = 200, 3 + seed
    F = rng.integers(0, 4, size=(n, K)) * 0.5
    F = F + rng.normal(scale=0.3, size=(n, K)) * (rng.random((n, K)) < 0.1)  # ties and crossings
    objective = ZeroOneTreeObjective(F, rng.integers(0, K, n), step=step)
    objective.kernel = "segment"
    n_intervals = objective.J.size
    codes = np.asfortranarray(rng.integers(0, 12, size=(n, 3)).astype(np.uint8))
    state = DirectTreeState(np.zeros(n, np.int64), {0: 0.0})
    kernel = kernels.phase1_seg_grid_split_scores
    for size in (n, 12):
        assert (size >= n_intervals) is (size == n)  # both sides of the automatic choice
        node = DirectNode(0, 0, np.sort(rng.choice(n, size, replace=False)).astype(np.int64))
        results = []
        for flat in (-1, 1, 0):
            monkeypatch.setattr(
                kernels,
                "phase1_seg_grid_split_scores",
                lambda *args, flat=flat: kernel(*args, flat),
            )
            results.append(objective.split_scores(codes, node, state))
        objective.kernel = "pairs"  # the label pairs' minima: the same, bit for bit
        results.append(objective.split_scores(codes, node, state))
        objective.kernel = "segment"
        _assert_same_split_scores(results)


@pytest.mark.parametrize("seed", range(40))
def test_pair_kernel_scores_every_split_as_the_segment_tree_kernel(seed):
    """``phase1_pair_split_scores`` finds each split's fewest errors from the per-interval
    minima over the left and the right labels and computes steps only for the label pairs
    reaching them: the segment-tree kernel's scores and leaf labels, bit for bit, on random
    nodes with ties and crossings, 2 to 8 labels, every step rule, all the intervals or a
    subset of them."""
    from marginboost.boosting._direct_common import empty_scores as _empty_scores
    from marginboost.boosting.dmcboost import _phase1_split_kernels as kernels

    rng = np.random.default_rng(700 + seed)
    n, K, d = int(rng.integers(5, 120)), int(rng.integers(2, 9)), 3
    F = rng.integers(0, 4, size=(n, K)) * 0.5
    F = F + rng.normal(scale=0.3, size=(n, K)) * (rng.random((n, K)) < rng.random())
    y = rng.integers(0, K, n)
    objective = ZeroOneTreeObjective(
        F,
        y,
        max_intervals=None if seed % 2 else int(rng.integers(2, 30)),
        step=("best-midpoint", "midpoint", "exp-loss")[seed % 3],
    )
    codes = np.asfortranarray(rng.integers(0, int(rng.integers(2, 20)), size=(n, d)))
    codes = codes.astype(np.uint8)
    size = max(2, int(n * rng.random()))
    samples = np.sort(rng.choice(n, size=size, replace=False)).astype(np.int64)
    pred = rng.integers(0, K, n).astype(np.int64)
    results = []
    for kernel in ("segment", "pairs"):
        out = _empty_scores(d)
        args = node_kernel_args(objective, codes, samples, pred, out)
        if kernel == "segment":
            kernels.phase1_seg_grid_split_scores(*args, True, objective.mode)
        else:
            kernels.phase1_pair_split_scores(*args, objective.mode)
        results.append(out)
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)
    assert np.isfinite(results[0][0]).any()


def test_the_kernel_choice_follows_labels_bins_and_node_size():
    """The pairs' kernel needs labels that may be equal and at least 4 of them; against the
    per-bin profiles it is chosen where bins * K * |J| exceeds the node's size (few samples
    or many intervals), and the profiles stay where a node is large and has few bins and
    intervals, as on Poker525k."""
    rng = np.random.default_rng(3)
    n = 30
    few_bins = np.asfortranarray(rng.integers(0, 2, size=(n, 2)).astype(np.uint8))
    for K, equal_labels, grid, size, expected in (
        (4, True, False, n, "pairs"),
        (12, True, False, n, "pairs"),
        (3, True, False, n, "segment"),
        (4, False, False, n, "segment"),
        (70, True, False, n, "segment"),
        (4, True, True, n, "pairs"),  # 2 bins * 4 labels * |J| > 30 samples
        (4, True, True, 10**6, "grid"),  # a large node with few bins and intervals
        (3, True, True, n, "grid"),
    ):
        F, y = rng.normal(size=(n, K)), rng.integers(0, K, n)
        objective = ZeroOneTreeObjective(F, y, equal_labels=equal_labels)
        assert 2 * K * objective.J.size > n
        objective._use_grid = lambda codes, n_node, grid=grid: grid
        assert objective._kernel(few_bins, size) == expected


def _assert_same_split_scores(results):
    """The ``(scores, left labels, right labels)`` of several ``split_scores`` calls are equal
    bit for bit, and score more than a handful of splits."""
    for scores, left, right in results[1:]:
        np.testing.assert_array_equal(scores, results[0][0])
        np.testing.assert_array_equal(left, results[0][1])
        np.testing.assert_array_equal(right, results[0][2])
    assert np.isfinite(results[0][0]).sum() > 5


@pytest.mark.parametrize("seed", range(3))
def test_phase2_split_scores_on_one_thread_equal_the_parallel_kernel(monkeypatch, seed):
    """A node too small to pay for the threads is scored by the serial kernel: the same scores,
    values and label pairs as the parallel kernel with several feature blocks."""
    from marginboost.boosting.dmcboost import objectives

    rng = np.random.default_rng(40 + seed)
    n, K, d = 60, 4, 5
    codes = np.asfortranarray(rng.integers(0, 6, size=(n, d)).astype(np.uint8))
    F = rng.integers(0, 3, size=(n, K)).astype(float)
    y = rng.integers(0, K, n)
    objective = MarginSlopeObjective(F, y, K, 15)
    state = DirectTreeState(np.zeros(n, np.int64), {0: 0.0})
    node = DirectNode(0, 0, np.sort(rng.choice(n, 40, replace=False)).astype(np.int64))
    monkeypatch.setattr(numba, "get_num_threads", lambda: 3)
    results = []
    for threshold in (0, 1 << 30):  # every node parallel, then every node serial
        monkeypatch.setattr(objectives, "PARALLEL_WORK", threshold)
        results.append(objective.split_scores(codes, node, state))
    assert np.isfinite(results[0][0]).any()
    for parallel, serial in zip(*results):
        np.testing.assert_array_equal(parallel, serial)
