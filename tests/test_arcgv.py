r"""Arc-Gv checked against its definition (Shen & Li 2010, Algorithm 1 with eq. (8)).

The reference below is a plain transcription of Algorithm 1 on a **fixed finite pool**: the
matrix :math:`A_{ij} = y_i h_j(x_i)` of every distinct decision stump on the training data
(every midpoint threshold of every raw feature, both polarities, plus the two constant
hypotheses a depth-1 tree can also return), built here without the package's binning, tree or
pool code.  Each round picks the column with the largest edge :math:`r_j = \sum_i u_i A_{ij}`,
sets

.. math:: w_j = \tfrac12\log\frac{1+r_j}{1-r_j} - \tfrac12\log\frac{1+\varrho_j}{1-\varrho_j},
          \qquad \varrho_j = \min_i \frac{y_i\sum_{s<j} w_s h_s(x_i)}{\sum_{s<j} w_s},\
          \varrho_1 = 0,

clips :math:`w_j` into :math:`[0, 1]` and reweights :math:`u_i \propto s_i e^{-y_iF(x_i)}`.
Random, non-uniform initial weights :math:`s_i` make the best column unique in every round, so
:class:`~marginboost.boosting.ArcGv` must pick the same hypotheses and the same weights.

Breiman's limit is checked against the hard-margin LP over the same pool (Shen & Li eq. (19)),
solved by scipy's HiGHS: :math:`\varrho^\star = \max\{\varrho : Aw \ge \varrho\mathbf 1,\
w \ge 0,\ \mathbf 1^\top w = 1\}`.  Two facts hold exactly and are tested at the LP's
tolerance: no convex combination of the pool has a larger minimum margin
(:math:`\varrho_T \le \varrho^\star`), and by LP duality the best edge under *any* example
weights is at least :math:`\varrho^\star` (:math:`r_j \ge \varrho^\star`; so the lower clip
:math:`w_j \ge 0` can only bind at the optimum).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from marginboost.boosting import AdaBoost, ArcGv

EPS = np.finfo(np.float64).eps
#: HiGHS's default primal/dual feasibility tolerance; the LP value is exact to about this.
HIGHS_FEASIBILITY_TOL = 1e-7


# ---- the fixed pool and the LP -------------------------------------------------------------------
def stump_pool(X: np.ndarray) -> np.ndarray:
    """±1 matrix (n, n_hypotheses): the two constants, then x_f <= midpoint and its negation."""
    n = X.shape[0]
    columns = [np.ones(n), -np.ones(n)]
    for f in range(X.shape[1]):
        values = np.unique(X[:, f])
        for threshold in (values[:-1] + values[1:]) / 2:
            h = np.where(X[:, f] <= threshold, 1.0, -1.0)
            columns += [h, -h]
    H = np.array(columns).T
    _, first = np.unique(H, axis=1, return_index=True)
    return H[:, np.sort(first)]


def hard_margin_lp(A: np.ndarray) -> float:
    """max rho s.t. A w >= rho, w >= 0, sum w = 1 (Shen & Li eq. (19)), by HiGHS."""
    M, N = A.shape
    cost = np.zeros(N + 1)
    cost[-1] = -1.0
    res = linprog(
        cost,
        A_ub=np.hstack([-A, np.ones((M, 1))]),
        b_ub=np.zeros(M),
        A_eq=np.hstack([np.ones((1, N)), [[0.0]]]),
        b_eq=[1.0],
        bounds=[(0, None)] * N + [(None, None)],
        method="highs",
    )
    assert res.status == 0, res.message
    return float(-res.fun)


# ---- the reference: Algorithm 1 with eq. (8) ------------------------------------------------------
def reference_step(A: np.ndarray, s: np.ndarray, F: np.ndarray, W: float, clip: bool = True):
    """One round of Algorithm 1 from the state ``F_i = y_i sum_s w_s h_s(x_i)``, ``W = sum_s w_s``.

    Returns ``(k, r, rho, w, err_w)``: the chosen column, its edge, the minimum normalized margin,
    the weight of eq. (8) (clipped into [0, 1] when ``clip``) and a bound on the rounding error by
    which two float64 implementations of this one step can differ.  The edge is a sum of M
    terms of size <= u_i (error <= (M + 4) eps, doubled for the two implementations; the state
    F itself may differ by 2 eps W between them, which changes the weights u relatively by
    twice that); rho has a few eps of error; the weight's error is these times the derivatives
    1 / (1 - r^2) and 1 / (1 - rho^2) of the two logarithms.  Where the clip binds by more than
    the error, both implementations return exactly 1 (or 0).
    """
    M = A.shape[0]
    u = s * np.exp(-(F - F.min()))
    u /= u.sum()
    edges = u @ A
    k = int(np.argmax(edges))
    r = float(edges[k])
    rho = float(F.min() / W) if W > 0 else 0.0
    with np.errstate(divide="ignore"):
        w = 0.5 * np.log((1 + r) / (1 - r)) - 0.5 * np.log((1 + rho) / (1 - rho))
        err_r = 2 * (M + 4) * EPS + 2 * (2 * EPS * W)
        err_w = err_r / (1 - r * r) + 8 * EPS / (1 - rho * rho) + 4 * EPS * abs(w)
    if clip:
        if w == np.inf or w - err_w > 1.0:
            w, err_w = 1.0, 0.0
        elif w + err_w < 0.0:
            w, err_w = 0.0, 0.0
        else:
            w = min(max(w, 0.0), 1.0)
    return k, r, rho, w, err_w


def reference_arc_gv(A: np.ndarray, s: np.ndarray, n_rounds: int, clip: bool = True) -> dict:
    """Shen & Li's Algorithm 1 with eq. (8) on the pool ``A``; ``clip`` = the [0, 1] clip."""
    F = np.zeros(A.shape[0])
    W = 0.0
    out: dict = {"picks": [], "steps": [], "edges": [], "min_margins": []}
    for _ in range(n_rounds):
        k, r, _, w, _ = reference_step(A, s, F, W, clip)
        if w == 0.0:
            break
        F = F + w * A[:, k]
        W += w
        out["picks"].append(k)
        out["steps"].append(w)
        out["edges"].append(r)
        out["min_margins"].append(F.min() / W)
    return {key: np.array(value) for key, value in out.items()}


def picks_of(model: ArcGv, X: np.ndarray, H: np.ndarray) -> list[int]:
    """Index of each fitted weak learner's training predictions among the pool's columns."""
    codes = model.mapper_.transform(X)
    index = {column.tobytes(): j for j, column in enumerate(H.T)}
    return [index[tree.predict(codes).astype(np.float64).tobytes()] for tree in model.estimators_]


def problem(n: int = 60, seed: int = 0):
    """Three continuous features, a non-linear noisy label, random initial weights s_i."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + X[:, 1] * X[:, 2] + 0.3 * rng.normal(size=n) > 0, 1, -1)
    s = rng.uniform(0.5, 1.5, n)
    return X, y, s / s.sum()


# ---- round by round -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1])
def test_arc_gv_matches_algorithm_1_round_by_round(seed):
    X, y, s = problem(seed=seed)
    H = stump_pool(X)
    A = y[:, None] * H
    n_rounds = 300
    ref = reference_arc_gv(A, s, n_rounds)
    model = ArcGv(n_estimators=n_rounds).fit(X, y, sample_weight=s)
    assert model.n_estimators_ == len(ref["steps"]) == n_rounds
    # the same hypotheses in every round ...
    assert picks_of(model, X, H) == ref["picks"].tolist()
    # ... and, from the model's own state before each round, the weight of eq. (8)
    staged = [np.zeros(len(y))] + list(model.staged_decision_function(X))
    totals = np.concatenate([[0.0], np.cumsum(model.alphas_)])
    for t in range(n_rounds):
        k, r, rho, w, err_w = reference_step(A, s, y * staged[t], totals[t])
        assert k == ref["picks"][t]
        assert abs(model.alphas_[t] - w) <= err_w, (t, model.alphas_[t], w, err_w)
        assert abs(model.history_["edge"][t] - r) <= 2 * (len(y) + 4) * EPS * (1 + 2 * totals[t])
    # both parts of eq. (8) matter: the clip binds in early rounds, the margin term later
    assert np.any(model.alphas_ == 1.0) and np.any(model.alphas_ < 0.5)
    # the minimum normalized margin a user sees is that of the reference combination
    combination = A[:, ref["picks"]] @ model.alphas_ / model.alphas_.sum()
    np.testing.assert_allclose(model.margins(X, y), combination, rtol=0, atol=4 * n_rounds * EPS)
    assert model.history_["min_margin"][-1] == pytest.approx(
        combination.min(), abs=4 * n_rounds * EPS
    )


def test_first_step_is_adaboosts_step_clipped_to_one():
    """rho_1 = 0: round 1 is AdaBoost's 0.5 log((1+r)/(1-r)), clipped to 1."""
    X, y, s = problem(seed=2)
    arc = ArcGv(n_estimators=1).fit(X, y, sample_weight=s)
    ada = AdaBoost(n_estimators=1).fit(X, y, sample_weight=s)
    r = arc.history_["edge"][0]
    assert 0 < r < 1
    expected = min(0.5 * np.log((1 + r) / (1 - r)), 1.0)
    assert arc.alphas_[0] == pytest.approx(expected, rel=1e-12)
    assert ada.alphas_[0] == pytest.approx(0.5 * np.log((1 + r) / (1 - r)), rel=1e-12)


def test_second_step_subtracts_the_minimum_margin_term():
    """After one round every normalized margin is +-1, so rho_2 = -1 when h_1 errs once and the
    margin term -0.5 log((1+rho)/(1-rho)) is +inf: the clip gives w_2 = 1 exactly."""
    X, y, s = problem(seed=0)
    model = ArcGv(n_estimators=2).fit(X, y, sample_weight=s)
    assert model.history_["min_margin"][0] == -1.0
    np.testing.assert_array_equal(model.alphas_[1], 1.0)


def test_without_the_clip_eq_8_is_undefined_from_round_2():
    """The [0, 1] clip is not cosmetic: without it w_2 = +inf whenever h_1 misclassifies an
    example (rho_2 = -1), and the combination is not defined any more."""
    X, y, s = problem(seed=0)
    A = y[:, None] * stump_pool(X)
    with np.errstate(invalid="ignore"):
        unclipped = reference_arc_gv(A, s, 2, clip=False)
    assert unclipped["min_margins"][0] == -1.0
    assert np.isinf(unclipped["steps"][1])


def test_a_zero_step_ends_training_only_at_the_lp_optimum():
    """w_j = 0 iff r_j <= rho_j; since r_j >= rho* >= rho_j this happens only at the optimum.
    A pool that separates the data with one stump reaches it in round 1 (r = 1: weight 1)."""
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    y = np.array([0, 0, 1, 1, 1])
    model = ArcGv(n_estimators=10).fit(X, y)
    assert model.stop_reason_ == "perfect weak learner"
    np.testing.assert_array_equal(model.alphas_, [1.0])
    np.testing.assert_array_equal(model.margins(X, y), np.ones(5))


# ---- Breiman's limit: the minimum margin of a long run against the LP optimum ------------------------
def test_minimum_margin_approaches_the_hard_margin_lp_optimum():
    X, y, s = problem(seed=0)
    A = y[:, None] * stump_pool(X)
    rho_star = hard_margin_lp(A)
    assert rho_star > 0  # the pool separates the training data
    ref = reference_arc_gv(A, s, 20_000)
    rho = ref["min_margins"]
    assert len(rho) == 20_000
    # exact facts, at the LP's tolerance: no combination beats the LP; no edge falls below it
    assert rho.max() <= rho_star + HIGHS_FEASIBILITY_TOL
    assert ref["edges"].min() >= rho_star - HIGHS_FEASIBILITY_TOL
    # the limit Breiman proved, seen along the run: the gap shrinks by an order of magnitude
    gap = rho_star - rho
    assert gap[-1] < 0.05 * rho_star
    assert gap[-1] < 0.2 * gap[99] and gap[1999] < gap[99]
    # ArcGv itself, on the same pool, is on the same trajectory
    model = ArcGv(n_estimators=2000).fit(X, y, sample_weight=s)
    assert picks_of(model, X, stump_pool(X)) == ref["picks"][:2000].tolist()
    assert model.margins(X, y).min() <= rho_star + HIGHS_FEASIBILITY_TOL
