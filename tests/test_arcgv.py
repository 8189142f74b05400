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
from reference import arcgv as ref_arcgv
from scipy.optimize import linprog

from marginboost.boosting import AdaBoost, ArcGv, _steps, stagewise

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


# ---- against tests/reference/arcgv.py: the defaults and the variants of rho and the clip ----------
VARIANTS = [
    {"rho": "current", "max_step": 1.0},
    {"rho": "best", "max_step": 1.0},
    {"rho": "best", "max_step": None},
    {"rho": "clipped", "max_step": 1.0},
    {"rho": "clipped", "max_step": None},
]


def easy_problem(n: int = 60, seed: int = 4):
    """Like :func:`problem`, with a label that one stump nearly decides: the first edges exceed
    tanh(1), so the upper clip binds for every rho (and ``max_step`` matters)."""
    X, _, s = problem(n, seed)
    rng = np.random.default_rng(seed + 100)
    y = np.where(X[:, 0] + 0.3 * X[:, 1] * X[:, 2] + 0.2 * rng.normal(size=n) > 0, 1, -1)
    return X, y, s


def step_error_bound(M: int, r: float, rho: float, w: float, total: float) -> float:
    """Rounding bound of one step of eq. (8) between two float64 implementations (see
    :func:`reference_step`): the edge's error through 1 / (1 - r^2), rho's through
    1 / (1 - rho^2), and the final subtraction."""
    err_r = 2 * (M + 4) * EPS + 2 * (2 * EPS * total)
    return err_r / (1 - r * r) + 8 * EPS / (1 - rho * rho) + 4 * EPS * abs(w)


def disagreements(model: ArcGv, X, y, s, H, rho: str, upper) -> list:
    """Rounds where ``model`` differs from one step of the reference taken from the model's own
    state: another hypothesis, or a weight further than the rounding bound (exact where the clip
    binds by more than that bound)."""
    A = y[:, None] * H
    staged = [np.zeros(len(y))] + list(model.staged_decision_function(X))
    totals = np.concatenate([[0.0], np.cumsum(model.alphas_)])
    picks = picks_of(model, X, H)
    bad, best = [], 0.0
    for t in range(model.n_estimators_):
        F = y * staged[t]
        k, r, rho_j, w = ref_arcgv.step(A, s, F, totals[t], best, rho=rho, upper=upper)
        if t > 0:
            best = max(best, float(F.min() / totals[t]))
        finite = np.isfinite(w) and abs(rho_j) < 1 and abs(r) < 1
        err = step_error_bound(len(y), r, rho_j, w, totals[t]) if finite else 0.0
        if upper is not None and (w == np.inf or w - err > upper):
            w, err = upper, 0.0
        if k != picks[t] or not abs(model.alphas_[t] - w) <= err:
            bad.append((t, k, picks[t], model.alphas_[t], w))
    return bad


def matches_reference(model: ArcGv, X, y, s, H, rho: str, upper, n_rounds: int) -> bool:
    """The model runs as many rounds as the reference run, picks the same hypotheses, and each
    weight is the reference's step from the model's own state (:func:`disagreements`)."""
    ref = ref_arcgv.arc_gv(y[:, None] * H, s, n_rounds, rho=rho, upper=upper)
    return (
        model.n_estimators_ == len(ref["steps"])
        and picks_of(model, X, H) == ref["picks"].tolist()
        and disagreements(model, X, y, s, H, rho, upper) == []
    )


@pytest.mark.parametrize("data", [problem, easy_problem])
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v['rho']}-{v['max_step']}")
def test_arc_gv_matches_the_reference_module_round_by_round(variant, data):
    X, y, s = data(seed=3)
    H = stump_pool(X)
    rho, upper = variant["rho"], variant["max_step"]
    n_rounds = 200
    ref = ref_arcgv.arc_gv(y[:, None] * H, s, n_rounds, rho=rho, upper=upper)
    model = ArcGv(n_estimators=n_rounds, **variant).fit(X, y, sample_weight=s)
    assert model.n_estimators_ == len(ref["steps"]) == n_rounds
    assert matches_reference(model, X, y, s, H, rho, upper, n_rounds)
    np.testing.assert_allclose(model.alphas_, ref["steps"], rtol=1e-9, atol=0)


def test_the_default_is_shen_and_lis_form():
    X, y, s = problem(seed=3)
    default = ArcGv(n_estimators=50).fit(X, y, sample_weight=s)
    explicit = ArcGv(n_estimators=50, rho="current", max_step=1.0).fit(X, y, sample_weight=s)
    np.testing.assert_array_equal(default.alphas_, explicit.alphas_)


def test_the_variants_differ_from_each_other():
    """Each option changes the run on this problem (so the round-by-round test tests each)."""
    X, y, s = easy_problem(seed=3)
    runs = [ArcGv(n_estimators=50, **v).fit(X, y, sample_weight=s).alphas_ for v in VARIANTS]
    for i in range(len(runs)):
        for j in range(i):
            assert not np.array_equal(runs[i], runs[j]), (VARIANTS[i], VARIANTS[j])


def test_unbounded_steps_need_a_nonnegative_rho():
    X, y, _ = problem(seed=3)
    with pytest.raises(ValueError, match="max_step=None needs"):
        ArcGv(n_estimators=5, max_step=None).fit(X, y)


def _flipped_sign(edge, min_margin, max_step=1.0):
    edge_part, perfect = _steps.adaboost_step(edge)
    margin_part, _ = _steps.adaboost_step(min_margin)
    return min(max(edge_part + margin_part, 0.0), max_step), perfect


def _rho_per_round(self, round_):
    # rho normalized by the number of rounds instead of the l1 norm of the weights
    n = round_.index
    rho = float(round_.margins.min()) / n if n > 0 else 0.0
    return _steps.arc_gv_step(round_.edge, rho)


def _rho_after_update(self, round_):
    # rho of the combination *with* the new hypothesis at a tentative AdaBoost step
    alpha, _ = _steps.adaboost_step(round_.edge)
    new = round_.margins + alpha * round_.label_times_direction
    return _steps.arc_gv_step(round_.edge, float(new.min()) / (round_.l1_norm + alpha))


@pytest.mark.parametrize(
    "broken",
    [
        pytest.param(("arc_gv_step", _flipped_sign), id="sign-of-rho-term-flipped"),
        pytest.param(("_step", _rho_per_round), id="rho-normalized-by-rounds"),
        pytest.param(("_step", _rho_after_update), id="rho-after-the-update"),
    ],
)
def test_the_reference_comparison_catches_a_broken_step(monkeypatch, broken):
    name, replacement = broken
    if name == "arc_gv_step":
        monkeypatch.setattr(_steps, "arc_gv_step", replacement)
        assert stagewise._steps.arc_gv_step is replacement
    else:
        monkeypatch.setattr(ArcGv, "_step", replacement)
    X, y, s = problem(seed=3)
    H = stump_pool(X)
    model = ArcGv(n_estimators=200).fit(X, y, sample_weight=s)
    assert not matches_reference(model, X, y, s, H, "current", 1.0, 200)


def test_the_unbroken_step_passes_the_same_check():
    X, y, s = problem(seed=3)
    model = ArcGv(n_estimators=200).fit(X, y, sample_weight=s)
    assert matches_reference(model, X, y, s, stump_pool(X), "current", 1.0, 200)
