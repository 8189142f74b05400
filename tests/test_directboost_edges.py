"""DirectBoost edge cases: zero margins, crossings already passed at alpha = 0, patience."""

from __future__ import annotations

import numpy as np
import pytest
from reference import directboost as ref

from marginboost.boosting.directboost import (
    DirectBoost,
    MarginObjective,
    best_stump_zero_one,
    directboost_variant,
)
from marginboost.weak import BinMapper


# ---- phase 1: the error count before the step ------------------------------------------------
def test_initial_errors_count_zero_margins_by_the_sign_of_the_new_classifier():
    """An example with margin a_i = 0 is an error before the step exactly when b_i < 0 (a tiny
    positive step moves it to the side of b_i)."""
    X = np.arange(5.0).reshape(-1, 1)
    y = np.array([-1.0, -1.0, 1.0, 1.0, -1.0])
    codes = BinMapper(max_bins=8).fit_transform(X)
    # the best stump predicts -1 for x <= 1 and +1 beyond: only the last example is wrong
    step = best_stump_zero_one(codes, np.zeros(5), y)
    assert step.errors == 1
    assert step.initial_errors == 1
    # negative margins always count, positive ones never; zeros follow b
    a = np.array([-0.5, 0.0, 0.0, 0.5, 0.0])
    step = best_stump_zero_one(codes, a, y)
    b = step.polarity * y * np.where(codes[:, step.feature] <= step.bin, 1.0, -1.0)
    expected = 1 + sum(1 for i in (1, 2, 4) if b[i] < 0)
    assert step.initial_errors == expected


# ---- phase 2: the n'-th order objective along one classifier ---------------------------------
@pytest.mark.parametrize(
    "a, b, c, n_prime",
    [
        ([0.0, 0.7, 0.6], [1.0, 1.0, -1.0], 1.0, 2),
        ([-2.6, 2.5, 1.5, 1.6], [1.0, 1.0, -1.0, 1.0], 2.5, 2),
        ([-1.6, -1.0, 1.1, 0.3], [1.0, 1.0, 1.0, -1.0], 2.3, 3),
    ],
)
@pytest.mark.parametrize("epsilon", [0.0, 0.01])
def test_order_line_never_steps_back_past_crossings_already_behind_alpha_0(
    a, b, c, n_prime, epsilon
):
    """Rising and falling lines that crossed at a negative alpha do not give a candidate: the
    step along the classifier is the reference's maximizer over alpha >= 0 (here alpha = 0)."""
    a, b = np.array(a), np.array(b)
    objective = MarginObjective(a, b, c, n_prime, "order", True, epsilon)
    q, step, value = objective.line(np.ones_like(a))
    q_ref, step_ref, value_ref = ref.margin_line(a, b, c, n_prime, "order", epsilon, True)
    assert q == pytest.approx(q_ref, abs=1e-12) and q >= 0.0
    assert step == pytest.approx(step_ref, abs=1e-12) and step >= 0.0
    assert value == pytest.approx(value_ref, abs=1e-12)


@pytest.mark.parametrize("seed", range(40))
def test_order_line_matches_the_reference_on_small_rounded_instances(seed):
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(2, 8))
    c = float(rng.uniform(0.5, 3))
    n_prime = int(rng.integers(1, n + 1))
    a, b = np.round(rng.uniform(-c, c, size=n), 1), rng.choice([-1.0, 1.0], n)
    restricted = bool(seed % 2)
    epsilon = 0.0 if restricted else 0.01
    q, step, value = MarginObjective(a, b, c, n_prime, "order", restricted, epsilon).line(
        np.ones(n)
    )
    q_ref, step_ref, value_ref = ref.margin_line(a, b, c, n_prime, "order", epsilon, restricted)
    if np.isfinite(q_ref):
        assert q == pytest.approx(q_ref, abs=1e-12)
    else:
        assert q == np.inf
    assert step == pytest.approx(step_ref, abs=1e-12)
    assert value == pytest.approx(value_ref, abs=1e-12)


# ---- phase 2 under relaxation: patience -------------------------------------------------------
class _KeepAllRounds(DirectBoost):
    """Records the round a relaxed fit is cut back to instead of cutting."""

    def _truncate(self, n_rounds):
        self.best_rounds_ = n_rounds


def _toy(seed, n=120, noise=0.1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = np.where(X[:, 0] + 0.8 * X[:, 1] ** 2 - 0.5 * X[:, 2] > 0.3, 1, -1)
    flip = rng.random(n) < noise
    return X, np.where(flip, -y, y)


@pytest.mark.parametrize("patience", [2, 3])
def test_relaxed_phase2_waits_n_iter_no_change_rounds_without_a_new_best(patience):
    X, y = _toy(4)
    params = dict(n_prime=0.2, max_depth=1, n_iter_no_change=patience, n_estimators=400)
    base = directboost_variant("DirectBoost_eps_avg", **params).get_params()
    model = _KeepAllRounds(**base).fit(X, y)
    assert model.stop_reason_ == "phase 2 no improvement within patience"
    rounds = len(model.history_["objective"])
    assert rounds - model.best_rounds_ == patience
    # the last new best came before the final stall, and nothing after it beats it
    values = model.history_["objective"]
    best = values[model.best_rounds_ - 1]
    assert np.all(values[model.best_rounds_ :] <= best + model.tol_ * max(1.0, abs(best)))


@pytest.mark.parametrize("objective", ["average", "order"])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_phase2_constant_leaf_is_the_better_constant(objective, sign):
    """An unsplit root in phase 2 predicts the constant (+1 or -1) whose line search reaches
    the larger objective: the one that raises the bottom margins, here those of class -sign."""
    from marginboost.boosting.directboost import MarginObjective
    from marginboost.weak import DirectNode, DirectTreeState

    y = sign * np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    a = np.array([3.0, 3.0, 3.0, -1.0, -0.5])  # the two examples of class -sign are at the bottom
    model = MarginObjective(a, y, 2.0, 2, objective, False, 0.01)
    codes = np.zeros((5, 1), dtype=np.uint8, order="F")
    root = DirectNode(0, 0, np.arange(5))
    value = model.leaf_value(codes, root, DirectTreeState(np.zeros(5, np.int64)))
    assert value == -sign
    assert model.line(value * np.ones(5))[2] > model.line(-value * np.ones(5))[2]


# ---- memory safety: the kernels with numba's bounds checks -------------------------------------
def _bounds_checked(monkeypatch, module):
    """Replace every numba kernel of ``module`` by a fresh copy compiled with bounds checks
    (``boundscheck=True``; lazily, so callers compile against the checked callees)."""
    import numba
    from numba.core.registry import CPUDispatcher

    for name, kernel in list(vars(module).items()):
        if isinstance(kernel, CPUDispatcher):
            options = {**kernel.targetoptions, "boundscheck": True, "cache": False}
            options.pop("nopython", None)
            monkeypatch.setattr(module, name, numba.njit(**options)(kernel.py_func))


def test_phase2_kernels_stay_inside_their_arrays(monkeypatch):
    """Numba does not check indices: a work array one entry short would be written past its
    end without an error.  With every DirectBoost kernel recompiled with bounds checks, a
    phase-II fit with depth-2 trees raises no IndexError and gives the same model."""
    from marginboost.boosting import _direct_common, _segment_tree
    from marginboost.boosting.directboost import _phase1_kernels, _phase2_kernels

    rng = np.random.default_rng(7)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + rng.normal(0, 0.7, 60) > 0, 1, -1)
    params = {"n_prime": 0.2, "max_depth": 2, "n_estimators": 12}
    variant = "DirectBoost_eps_avg"  # the average-margin walk and its work arrays
    plain = directboost_variant(variant, **params).fit(X, y)
    for module in (_segment_tree, _direct_common, _phase1_kernels, _phase2_kernels):
        _bounds_checked(monkeypatch, module)
    checked = directboost_variant(variant, **params).fit(X, y)
    assert checked.n_estimators_ == plain.n_estimators_ > checked.n_phase1_
    np.testing.assert_array_equal(checked.decision_function(X), plain.decision_function(X))


# ---- a fit that ends on n_estimators says so ---------------------------------------------------
def test_a_fit_stopped_by_n_estimators_warns_and_one_that_converges_does_not():
    from sklearn.exceptions import ConvergenceWarning

    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 3))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=80) > 0, 1.0, -1.0)
    with pytest.warns(ConvergenceWarning, match="n_estimators=2 rounds"):
        capped = DirectBoost(n_estimators=2, max_depth=1).fit(X, y)
    assert capped.stop_reason_ == "n_estimators"
    free = DirectBoost(max_depth=1, n_estimators=5000)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        free.fit(X, y)
    assert free.stop_reason_ != "n_estimators"
