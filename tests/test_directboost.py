"""DirectBoost estimator: direct-tree objectives against brute force, phase invariants, theorems."""

from __future__ import annotations

import numpy as np
import pytest

from marginboost.boosting.directboost import (
    VARIANTS,
    DirectBoost,
    MarginObjective,
    ZeroOneObjective,
    best_stump_zero_one,
    bottom_average_line_search,
    bottom_margin_average_at,
    directboost_variant,
    margin_objective,
    order_margin,
    zero_error_end,
    zero_one_line_search,
)
from marginboost.boosting.directboost import _phase2_kernels as K
from marginboost.weak import BinMapper, DirectNode, DirectTreeBuilder, DirectTreeState


def _codes(rng, n, d, bins):
    return np.asfortranarray(rng.integers(0, bins, size=(n, d)).astype(np.uint8))


def _sparse_codes(rng, n, d, bins):
    """Codes where most samples of a feature share one code (the phase-2 kernel moves only the
    others when a node has two codes): binary features with the mode below or above the other
    code, and features with a mode in the middle of ``bins`` codes."""
    columns = []
    for f in range(d):
        mode = [0, bins - 1, bins // 2][f % 3]
        other = rng.integers(0, bins, size=n) if f % 3 == 2 else np.full(n, bins - 1 - mode)
        columns.append(np.where(rng.random(n) < 0.75, mode, other))
    return np.asfortranarray(np.column_stack(columns).astype(np.uint8))


def _rare_codes(rng, n, d, bins):
    """Binary features whose other code only a few samples have (most often none among the
    positions a node's first sweep moves): the phase-2 kernel then scores the split from the
    sign arrays as they are, computed once and reused for every such feature."""
    codes = np.zeros((n, d), dtype=np.uint8)
    for f in range(d):
        codes[rng.choice(n, size=int(rng.integers(1, 4)), replace=False), f] = 1
    return np.asfortranarray(codes)


def _margins(rng, n, scale=3):
    # integer-valued margins produce ties between |a_i| on purpose
    return rng.integers(-scale, scale + 1, size=n).astype(float) + 0.5 * rng.integers(0, 2, size=n)


def _partial_state(rng, n):
    """A root split into two leaves with +-1 values, and one of the two leaves as the node."""
    split = rng.random(n) < 0.5
    state = DirectTreeState(np.where(split, 1, 2).astype(np.int64))
    state.node_value = {1: 1.0, 2: -1.0}
    node = DirectNode(1, 1, np.flatnonzero(split).astype(np.int64))
    return state, node


def _candidate_h(codes, node, state, f, t, left):
    h = state.predictions().copy()
    inside = node.samples
    h[inside] = np.where(codes[inside, f] <= t, left, -left)
    return h


@pytest.mark.parametrize("seed", range(6))
def test_zero_one_split_scores_equal_brute_force(seed):
    rng = np.random.default_rng(seed)
    n, d, bins = 40, 3, 5
    codes, y = _codes(rng, n, d, bins), rng.choice([-1.0, 1.0], n)
    a = _margins(rng, n)
    objective = ZeroOneObjective(a, y)
    state, node = _partial_state(rng, n)
    scores, left_values, _ = objective.split_scores(codes, node, state)
    for f in range(d):
        top = codes[node.samples, f].max()
        for t in range(bins):
            present = np.any(codes[node.samples, f] == t)
            if not present or t >= top:
                assert scores[f, t] == -np.inf
                continue
            brute = min(
                zero_one_line_search(a, y * _candidate_h(codes, node, state, f, t, s)).errors
                for s in (1.0, -1.0)
            )
            assert int(np.floor(-scores[f, t])) == brute
            chosen = _candidate_h(codes, node, state, f, t, left_values[f, t])
            assert zero_one_line_search(a, y * chosen).errors == brute


@pytest.mark.parametrize("seed", range(4))
def test_direct_stump_matches_the_exhaustive_stump_search(seed):
    rng = np.random.default_rng(seed)
    n = 60
    codes, y = _codes(rng, n, 4, 8), rng.choice([-1.0, 1.0], n)
    a = _margins(rng, n)
    tree = DirectTreeBuilder(max_depth=1).fit(codes, ZeroOneObjective(a, y))
    errors, alpha, _, _ = ZeroOneObjective(a, y).line(tree.predict(codes))
    step = best_stump_zero_one(codes, a, y)
    assert errors == step.errors
    # the chosen alpha is inside the best interval: the error count there is the minimum
    assert np.count_nonzero(a + y * tree.predict(codes) * alpha <= 0) == step.errors


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("restricted", [True, False])
def test_average_line_equals_the_envelope_search(seed, restricted):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 25))
    a, b = rng.normal(size=n) + 0.3, rng.choice([-1.0, 1.0], n)
    c, n_prime = float(rng.uniform(0.5, 3)), int(rng.integers(1, n + 1))
    order = np.argsort(a, kind="stable")
    R, kr, F, kf, d = K.collect_lines(order, a, b, n_prime, restricted)
    q, value, _ = K._avg_search(R, kr, F, kf, n_prime, c, d)
    reference = bottom_average_line_search(
        a, b, c, n_prime, d=zero_error_end(a, b) if restricted else np.inf
    )
    assert value == pytest.approx(reference.value, rel=1e-9, abs=1e-12)
    if np.isfinite(q):
        assert bottom_margin_average_at(a, b, c, n_prime, q) == pytest.approx(value, abs=1e-12)
    else:
        assert reference.alpha == np.inf


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("restricted", [True, False])
def test_order_line_is_the_maximum_over_a_fine_grid(seed, restricted):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 15))
    c, n_prime = float(rng.uniform(0.5, 3)), int(rng.integers(1, n + 1))
    # margins of an ensemble with total weight c lie in [-c, c]
    a, b = rng.uniform(-c, c, size=n), rng.choice([-1.0, 1.0], n)
    order = np.argsort(a, kind="stable")
    R, kr, F, kf, d = K.collect_lines(order, a, b, n_prime, restricted)
    q, value, _ = K._order_search(R, kr, F, kf, n_prime, c, d)
    end = d if np.isfinite(d) else 20.0
    grid = np.concatenate(
        [
            np.linspace(0, end, 4001),
            [
                abs(a[i] - a[j]) / 2
                for i in range(n)
                for j in range(n)
                if b[i] != b[j] and abs(a[i] - a[j]) / 2 <= end
            ],
        ]
    )
    brute = max(order_margin(a, b, c, n_prime, x) for x in grid)
    if np.isfinite(q):
        assert order_margin(a, b, c, n_prime, q) == pytest.approx(value, abs=1e-12)
        assert value >= brute - 1e-12
    else:  # the supremum 1 is approached: the n'-th example is correct under b
        assert value == 1.0 and np.sort(b)[n_prime - 1] == 1.0


@pytest.mark.parametrize("coding", ["uniform", "sparse", "rare"])
@pytest.mark.parametrize("objective", ["average", "order"])
@pytest.mark.parametrize("restricted", [True, False])
@pytest.mark.parametrize(
    "seed, n, n_prime, spread",
    # n' small against n: the kernel first moves only the samples among the first few n'
    # positions and sweeps a feature again with more when a line search reads further
    [(7, 36, 6, 1.0), (8, 300, 10, 0.2), (9, 300, 10, 5.0), (10, 200, 150, 1.0)],
)
def test_margin_split_scores_equal_brute_force(
    coding, objective, restricted, seed, n, n_prime, spread
):
    rng = np.random.default_rng(seed)
    d, bins = (3, 5) if coding != "rare" else (8, 2)
    codes = {"uniform": _codes, "sparse": _sparse_codes, "rare": _rare_codes}[coding](
        rng, n, d, bins
    )
    y = rng.choice([-1.0, 1.0], n)
    a = spread * rng.normal(size=n) + 0.5
    obj = MarginObjective(a, y, 2.0, n_prime, objective, restricted, 0.0 if restricted else 0.01)
    state, node = _partial_state(rng, n)
    scores, left_values, _ = obj.split_scores(codes, node, state)
    for f in range(d):
        top = codes[node.samples, f].max()
        for t in range(bins):
            if t >= top or not np.any(codes[node.samples, f] == t):
                assert scores[f, t] == -np.inf
                continue
            plus, minus = (obj.line(_candidate_h(codes, node, state, f, t, s))[2] for s in (1, -1))
            assert scores[f, t] == pytest.approx(max(plus, minus), abs=1e-12)
            if abs(plus - minus) > 1e-9:  # the left child predicts the better sign
                assert left_values[f, t] == (1.0 if plus > minus else -1.0)


@pytest.mark.parametrize("objective", ["average", "order"])
@pytest.mark.parametrize("restricted", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_two_code_sweep_equals_the_bucketed_sweep_bit_for_bit(
    monkeypatch, objective, restricted, seed
):
    """A feature with two codes in the node, one its mode, moves only the other code's samples,
    read from the positions of the round's sparse form; the scores are those of the general
    sweep (every mode withheld), bit for bit, also when the positions stop short of where the
    line searches read (small n', a stop of n' positions, one short of the first limit)."""
    rng = np.random.default_rng(seed)
    n, d, bins = int(rng.integers(40, 400)), 9, 4
    codes, y = _sparse_codes(rng, n, d, bins), rng.choice([-1.0, 1.0], n)
    a = np.round(rng.normal(size=n), 1)  # ties between margins
    n_prime = int(rng.integers(1, n // 3))
    obj = MarginObjective(a, y, 1.5, n_prime, objective, restricted, 0.0 if restricted else 0.01)
    state, node = _partial_state(rng, n)
    node.samples = node.samples[codes[node.samples, 0] == codes[node.samples, 0].min()]
    pred = np.ascontiguousarray(state.predictions())
    mode, other, row_ptr, row_features, feature_ptr = K.sparse_code_rows(codes)
    assert np.any(other >= 0) and np.any((mode >= 0) & (other < 0))

    def scores(mode, other, stop):
        positions, end = K.sparse_code_positions(
            obj.order, row_ptr, row_features, feature_ptr, stop
        )
        out = [np.full((d, 256), -np.inf), np.zeros((d, 256)), np.zeros((d, 256))]
        K.phase2_split_scores(
            codes, node.samples, node.code_counts(codes), pred, obj.order,
            K.sorted_by_margin(obj.order, obj.a, obj.y), n_prime, obj.c, restricted, objective == "order", obj.epsilon, obj.end_gap, *out, 2,
            mode, other, feature_ptr, positions, end, stop,
        )  # fmt: skip
        return out

    withheld = np.full(d, -1, dtype=np.int64)
    general = scores(withheld, withheld, 0)
    monkeypatch.setattr(K, "PARALLEL_WORK", 0)  # the parallel kernel too
    assert all(np.array_equal(g, w) for g, w in zip(scores(withheld, withheld, 0), general))
    monkeypatch.undo()
    assert np.isfinite(general[0]).any()
    first_limit = (K.NEAR_FACTOR + (objective == "order")) * n_prime
    for stop in (n, n_prime, min(n, first_limit) - 1):
        for got, want in zip(scores(mode, other, stop), general):
            assert np.array_equal(got, want)


@pytest.mark.parametrize("seed", range(4))
def test_order_after_a_step_is_the_stable_argsort(seed):
    """Phase 2 merges the examples whose margin rose and fell instead of sorting: the order is
    ``np.argsort(kind="stable")``'s, ties made by rounding and signed zeros included."""
    rng = np.random.default_rng(seed)
    for trial in range(400):
        n = int(rng.integers(1, 80))
        a = [
            rng.integers(-3, 4, n).astype(float),
            rng.normal(size=n),
            1.0 + np.round(rng.normal(size=n), 1) * 1e-17,
            rng.choice([0.0, -0.0, 5e-324, 1.0], n),
        ][trial % 4]
        direction = rng.choice([-1.0, 1.0, 0.0] if trial % 3 else [-1.0, 1.0], n)
        new = a + [0.5, 1e-17, 2.0**-60, 3.0][trial % 4] * direction
        got = K.stable_order_after_step(np.argsort(a, kind="stable"), new, direction)
        assert np.array_equal(got, np.argsort(new, kind="stable"))
    # a direction outside {-1, 0, 1}: sorted from scratch
    a = rng.normal(size=30)
    direction = rng.choice([-1.0, 0.5], 30)
    got = K.stable_order_after_step(np.argsort(a, kind="stable"), a + direction, direction)
    assert np.array_equal(got, np.argsort(a + direction, kind="stable"))


def _toy(seed, n=120, noise=0.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = np.where(X[:, 0] + 0.8 * X[:, 1] ** 2 - 0.5 * X[:, 2] > 0.3, 1, -1)
    flip = rng.random(n) < noise
    return X, np.where(flip, -y, y)


@pytest.mark.parametrize("depth", [1, 3])
def test_phase1_training_error_never_increases(depth):
    X, y = _toy(0, noise=0.1)
    model = DirectBoost(phase2=False, max_depth=depth).fit(X, y)
    errors = model.history_["train_error"]
    assert model.n_phase1_ == errors.size > 1
    assert np.all(np.diff(errors) <= 0)
    # the recorded error is the error of the returned ensemble
    assert errors[-1] == pytest.approx(np.mean(model.predict(X) != y))


def test_phase2_without_relaxation_increases_the_objective_every_round():
    X, y = _toy(1, noise=0.05)
    model = DirectBoost(n_prime=0.2, max_depth=1).fit(X, y)
    hist = model.history_
    phase2 = hist["phase"] == 2
    assert phase2.sum() > 2
    values = hist["objective"][model.n_phase1_ - 1 :]
    assert np.all(np.diff(values) > 0)
    # staying in the minimum-error region: no round of phase 2 raises the training error
    assert np.all(np.diff(hist["train_error"][model.n_phase1_ - 1 :]) <= 0)
    assert hist["objective"][-1] == pytest.approx(
        margin_objective(model.margins(X, y), model.n_prime_, "average"), abs=1e-12
    )


def test_phase2_stops_at_a_coordinatewise_maximum_over_all_stumps():
    X, y = _toy(2, n=80)
    model = DirectBoost(n_prime=8, max_depth=1, max_bins=16).fit(X, y)
    assert model.stop_reason_ == "phase 2 coordinatewise maximum"
    codes = model.mapper_.transform(X)
    y_signed = np.where(y == model.classes_[1], 1.0, -1.0)
    a = y_signed * model.decision_function(X)
    c = model.alphas_.sum()
    current = bottom_margin_average_at(a, np.ones_like(a), c, 8, 0.0)
    best = -np.inf
    for f in range(codes.shape[1]):
        for t in range(int(codes[:, f].max())):
            for s in (1.0, -1.0):
                b = s * y_signed * np.where(codes[:, f] <= t, 1.0, -1.0)
                d = zero_error_end(a, b)
                result = bottom_average_line_search(a, b, c, 8, d=d)
                alpha = result.alpha if not result.at_end else d - min(0.01, d / 2)
                best = max(best, bottom_margin_average_at(a, b, c, 8, alpha))
    assert best <= current + DirectBoost.improvement_tol * max(1.0, abs(current))


@pytest.mark.parametrize("seed", [0, 3])
def test_theorem3_average_of_all_margins_stops_at_a_corner_below_the_lp_optimum(seed):
    """Theorem 3 (coordinate ascent on the average of all margins in the zero-error region
    reaches an optimum) fails for stumps: phase 2 with n' = n stops where no stump of the whole
    pool raises the average even at the end d of the zero-error region (checked in closed form,
    outside the estimator's line search), while the linear program over the same pool (HiGHS)
    reaches a larger average."""
    from reference import directboost as ref
    from scipy.optimize import linprog

    X, y = _toy(seed, n=80)
    model = directboost_variant(
        "DirectBoost_avg", n_prime=1.0, max_depth=1, max_bins=16, n_estimators=20_000
    ).fit(X, y)
    assert model.stop_reason_ == "phase 2 coordinatewise maximum"
    assert model.history_["train_error"][-1] == 0
    codes = model.mapper_.transform(X)
    y_signed = np.where(y == model.classes_[1], 1.0, -1.0)
    A = y_signed[:, None] * ref.stump_pool(codes).H.T  # the reference's pool of every stump
    a, c = y_signed * model.decision_function(X), model.alphas_.sum()
    ours = a.mean() / c
    for b in A.T:  # the average along a coordinate is monotone: its sup is at 0 or at d
        falling = b < 0
        end = b.mean() if not falling.any() else None
        if end is None:
            d = np.min(a[falling] / -b[falling])
            end = (a + d * b).mean() / (c + d)
        assert end <= ours + 1e-5
    lp = linprog(
        -A.mean(axis=0),
        A_ub=-A,
        b_ub=np.zeros(len(y)),
        A_eq=np.ones((1, A.shape[1])),
        b_eq=[1.0],
        bounds=(0, None),
        method="highs",
    )
    assert lp.status == 0
    assert -lp.fun > ours + 0.04


def test_theorem1_zero_error_region_of_trained_models_is_a_convex_cone():
    X, y = _toy(3, n=100)
    first = DirectBoost(phase2=False, max_depth=3).fit(X, y)
    second = directboost_variant("DirectBoost_avg", n_prime=0.5, max_depth=3).fit(X, y)
    assert first.history_["train_error"][-1] == 0 and second.history_["train_error"][-1] == 0
    F1, F2 = first.decision_function(X), second.decision_function(X)
    y_signed = np.where(y == first.classes_[1], 1.0, -1.0)
    for scale in (1e-3, 1.0, 1e3):
        assert np.all(y_signed * scale * F1 > 0)
    for t in np.linspace(0, 1, 21):
        assert np.all(y_signed * ((1 - t) * F1 + t * F2) > 0)


def test_relaxed_variant_returns_its_best_iterate():
    X, y = _toy(4, noise=0.1)
    model = directboost_variant(
        "DirectBoost_eps_avg", n_prime=0.2, max_depth=1, n_iter_no_change=10
    ).fit(X, y)
    values = model.history_["objective"][model.n_phase1_ :]
    assert values.size >= 1
    assert values[-1] == pytest.approx(values.max())
    assert model.history_["objective"][-1] == pytest.approx(
        margin_objective(model.margins(X, y), model.n_prime_, "average"), abs=1e-12
    )


def test_variants_and_determinism():
    X, y = _toy(5, noise=0.1)
    assert set(VARIANTS) == {"DirectBoost_avg", "DirectBoost_eps_avg", "DirectBoost_order"}
    for name in VARIANTS:
        one = directboost_variant(name, n_prime=0.1, max_depth=3).fit(X, y)
        two = directboost_variant(name, n_prime=0.1, max_depth=3).fit(X, y)
        np.testing.assert_array_equal(one.decision_function(X), two.decision_function(X))
        assert one.n_prime_ == 12


def test_bad_inputs_are_rejected():
    X, y = _toy(6, n=40)
    with pytest.raises(ValueError, match="objective"):
        DirectBoost(objective="median").fit(X, y)
    with pytest.raises(ValueError, match="n_prime"):
        DirectBoost(n_prime=0).fit(X, y)
    with pytest.raises(ValueError, match="n_prime"):
        DirectBoost(n_prime=41).fit(X, y)
    with pytest.raises(ValueError, match="n_prime"):
        DirectBoost(n_prime=1.5).fit(X, y)
    with pytest.raises(ValueError, match="epsilon"):
        DirectBoost(epsilon=-0.1).fit(X, y)
    with pytest.raises(ValueError, match="region"):
        DirectBoost(region="everywhere").fit(X, y)
    with pytest.raises(ValueError, match="sample_weight"):
        DirectBoost().fit(X, y, sample_weight=np.arange(1, 41))
    with pytest.raises(ValueError, match="classes"):
        DirectBoost().fit(X, np.arange(40) % 3)
    with pytest.raises(ValueError, match="unknown DirectBoost variant"):
        directboost_variant("DirectBoost_max")
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        DirectBoost().fit(Xn, y)
    assert isinstance(BinMapper, type)


def test_shared_phase1_fits_equal_separate_fits():
    from marginboost.boosting.directboost import directboost_variants

    X, y = _toy(8, noise=0.1)
    fitted = directboost_variants(X, y, list(VARIANTS), [0.1, 0.5], max_depth=3, n_estimators=150)
    assert len(fitted) == 6
    for (name, n_prime), model in fitted.items():
        alone = directboost_variant(name, n_prime=n_prime, max_depth=3, n_estimators=150).fit(X, y)
        np.testing.assert_array_equal(model.decision_function(X), alone.decision_function(X))
        for key in ("phase", "train_error", "objective", "alpha"):
            np.testing.assert_allclose(model.history_[key], alone.history_[key], rtol=0, atol=0)
        assert model.stop_reason_ == alone.stop_reason_


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize(
    "restricted,epsilon", [(True, 0.0), (False, 0.01), (False, 0.0), (True, 0.3)]
)
def test_lazy_average_line_equals_the_full_collection(seed, restricted, epsilon):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    c = float(rng.uniform(0.5, 3))
    # integer grid: ties between lines and breakpoints
    a = rng.integers(-4, 5, size=n) * c / 4
    b = rng.choice([-1.0, 1.0], n, p=[0.3, 0.7])
    n_prime = int(rng.integers(1, n + 1))
    order = np.argsort(a, kind="stable")
    R, kr, F, kf, d = K.collect_lines(order, a, b, n_prime, restricted)
    expected = K.phase2_line(R, kr, F, kf, n_prime, c, d, False, epsilon, 0.01)
    got = K.avg_line_lazy(order, a, b, n_prime, c, restricted, epsilon, 0.01)
    assert got[0] == pytest.approx(expected[0], abs=1e-12) or got[0] == expected[0]
    assert got[1] == pytest.approx(expected[1], abs=1e-12) or got[1] == expected[1]
    assert got[2] == pytest.approx(expected[2], abs=1e-12)
    assert got[2] == pytest.approx(
        bottom_margin_average_at(a, b, c, n_prime, got[1]), abs=1e-12
    ) or not np.isfinite(got[1])


@pytest.mark.parametrize("variant", ["DirectBoost_avg", "DirectBoost_eps_avg", "DirectBoost_order"])
def test_split_search_does_not_depend_on_the_number_of_feature_blocks(monkeypatch, variant):
    """The split kernels share the features out in one block per numba thread; any number of
    blocks gives the same ensemble, bit for bit (every node on the parallel kernel here, which
    otherwise takes only nodes of enough samples times features)."""
    import types

    import marginboost.boosting.directboost.objectives as direct_module

    monkeypatch.setattr(K, "PARALLEL_WORK", 0)

    rng = np.random.default_rng(7)
    X = rng.normal(size=(120, 7))
    X[:, 3] = rng.integers(0, 2, size=120)  # a binary feature: few samples to move
    y = np.where(X[:, 0] + 0.5 * X[:, 1] * X[:, 3] + 0.3 * rng.normal(size=120) > 0, 1, -1)
    fits = []
    for blocks in (1, 3, 7):
        monkeypatch.setattr(
            direct_module, "numba", types.SimpleNamespace(get_num_threads=lambda b=blocks: b)
        )
        model = directboost_variant(variant, n_prime=0.2, max_depth=2, n_estimators=40).fit(X, y)
        fits.append((model.alphas_, model.decision_function(X)))
    for alphas, scores in fits[1:]:
        np.testing.assert_array_equal(alphas, fits[0][0])
        np.testing.assert_array_equal(scores, fits[0][1])
