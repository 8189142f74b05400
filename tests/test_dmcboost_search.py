"""DMCBoost's one-dimensional searches (Zhai, Xia & Wang 2014) against brute force and theorems.

References used here are independent of the module's internals: errors and margins are
recomputed from the shifted score matrix (``multiclass_margins``), phase II's exact optimum is
found by evaluating (5) at every crossing of the lines ``a_y - a_k + alpha (1[h=y] - 1[h=k])``
(between two consecutive crossings the bottom-n' sum is linear, so (5) is monotone), and
Theorem 1 is checked with two different LPs solved by HiGHS.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import linprog

from marginboost.boosting.directboost import bottom_average_line_search, zero_one_line_search
from marginboost.boosting.dmcboost.search import (
    EPSILON,
    TH,
    bottom_average_along,
    bottom_average_slope,
    margin_line_search,
    margin_numerators,
    margin_scenarios,
    zero_one_errors_at,
    zero_one_scenarios,
    zero_one_sweep,
)
from marginboost.margins import bottom_margin_average, multiclass_margins


def _instance(seed, K=None, n=None, integer=True):
    rng = np.random.default_rng(seed)
    K = K or int(rng.choice([3, 5]))
    n = n or int(rng.integers(1, 25))
    if integer:  # integer scores create ties between scores and between breakpoints on purpose
        F = rng.integers(0, 5, size=(n, K)).astype(float) * (0.5 if seed % 2 else 1.0)
    else:
        F = rng.uniform(0, 3, size=(n, K))
    return rng, F, rng.integers(0, K, n), rng.integers(0, K, n)


# ---- phase I ----------------------------------------------------------------------------------
def test_figure1_three_scenarios_by_hand():
    # K = 3, true class 0 for all examples
    F = np.array(
        [
            [1.0, 3.0, 2.0],  # h = y: true score rises, overtakes class 1 at q = 2
            [3.0, 1.0, 0.5],  # h = 2 != y, true class ahead: class 2 overtakes at 2.5
            [1.0, 3.0, 0.0],  # h = 2, class 1 already ahead: always an error
            [2.0, 2.0, 0.0],
        ]
    )  # h = 1, tie with class 1: an error (ties are errors)
    y = np.zeros(4, dtype=int)
    h = np.array([0, 2, 2, 1])
    scenario, q = zero_one_scenarios(F, y, h)
    assert scenario.tolist() == [1, 2, 3, 3]
    assert q[:2].tolist() == [2.0, 2.5] and np.isnan(q[2:]).all()
    sweep = zero_one_sweep(F, y, h)
    assert sweep.breakpoints.tolist() == [2.0, 2.5]
    assert sweep.interval_errors.tolist() == [3, 2, 3]
    assert sweep.breakpoint_errors.tolist() == [3, 3]  # the ties at q are errors
    assert (sweep.low, sweep.high, sweep.alpha, sweep.errors) == (2.0, 2.5, 2.25, 2)
    assert sweep.current_errors == 3
    # the paper's printed scenario-2 point a(x,y) - a(x,y_i) = -2.5 is the sign typo
    assert zero_one_errors_at(F[1:2], y[1:2], h[1:2], 2.4) == 0
    assert zero_one_errors_at(F[1:2], y[1:2], h[1:2], 2.6) == 1


def _brute_sweep(F, y, h):
    """Every positive crossing of two score lines F[i, k] + alpha 1[h_i = k] of one example."""
    n, K = F.shape
    pts = set()
    for i in range(n):
        lines = [(F[i, k], float(h[i] == k)) for k in range(K)]
        for (p1, s1), (p2, s2) in itertools.combinations(lines, 2):
            if s1 != s2 and (p2 - p1) / (s1 - s2) > 0:
                pts.add((p2 - p1) / (s1 - s2))
    return np.array(sorted(pts))


@pytest.mark.parametrize("seed", range(60))
def test_sweep_equals_recomputed_errors_on_every_interval_and_breakpoint(seed):
    rng, F, y, h = _instance(seed)
    sweep = zero_one_sweep(F, y, h)
    edges = np.concatenate([[0.0], sweep.breakpoints])
    probes = [(lo + hi) / 2 for lo, hi in zip(edges[:-1], edges[1:])] + [edges[-1] + 1.0]
    assert sweep.interval_errors.tolist() == [zero_one_errors_at(F, y, h, p) for p in probes]
    assert sweep.breakpoint_errors.tolist() == [
        zero_one_errors_at(F, y, h, p) for p in sweep.breakpoints
    ]
    assert sweep.current_errors == zero_one_errors_at(F, y, h, 0.0)
    assert sweep.initial_errors == sweep.interval_errors[0]
    # every crossing of two score lines where the error changes is a breakpoint
    crossings = _brute_sweep(F, y, h)
    assert set(sweep.breakpoints.tolist()) <= set(crossings.tolist())
    for lo, hi in zip(np.concatenate([[0.0], crossings]), np.concatenate([crossings, [np.inf]])):
        mid = (lo + hi) / 2 if np.isfinite(hi) else lo + 1.0
        j = int(np.searchsorted(sweep.breakpoints, mid))
        assert zero_one_errors_at(F, y, h, mid) == sweep.interval_errors[j]
    # the best interval is the first with the fewest errors; alpha at its middle
    best = int(np.argmin(sweep.interval_errors))
    assert sweep.best_interval == best and sweep.errors == sweep.interval_errors.min()
    assert sweep.low == edges[best]
    if np.isfinite(sweep.high):
        assert sweep.alpha == (sweep.low + sweep.high) / 2
    else:
        assert sweep.alpha == (2 * sweep.low if sweep.low > 0 else 1.0)
    assert zero_one_errors_at(F, y, h, sweep.alpha) == sweep.errors


@pytest.mark.parametrize("K", [3, 5])
def test_fine_alpha_grid_never_beats_the_sweep(K):
    for seed in range(8):
        rng, F, y, h = _instance(1000 + seed, K=K, n=20, integer=False)
        sweep = zero_one_sweep(F, y, h)
        grid = np.linspace(1e-9, 4 * np.ptp(F) + 1, 2001)
        assert min(zero_one_errors_at(F, y, h, a) for a in grid) == sweep.errors


@pytest.mark.parametrize("seed", range(10))
def test_two_classes_reduce_to_directboost_phase1(seed):
    rng, F, y, h = _instance(seed, K=2, n=20)
    a = F[np.arange(20), y] - F[np.arange(20), 1 - y]
    b = np.where(h == y, 1.0, -1.0)
    binary, multi = zero_one_line_search(a, b), zero_one_sweep(F, y, h, step="midpoint")
    assert (binary.errors, binary.low, binary.high, binary.alpha) == (
        multi.errors,
        multi.low,
        multi.high,
        multi.alpha,
    )
    assert binary.initial_errors == multi.initial_errors


# ---- phase II ---------------------------------------------------------------------------------
def _exact_phase2(F, y, h, c, n_prime, sign):
    """Max of (5) on the half-line `sign`: over 0 and every crossing of two numerator lines."""
    n, K = F.shape
    lines = []
    for i in range(n):
        for k in range(K):
            if k != y[i]:
                lines.append((F[i, y[i]] - F[i, k], float(h[i] == y[i]) - float(h[i] == k)))
    cand = {0.0}
    for (p1, s1), (p2, s2) in itertools.combinations(set(lines), 2):
        if s1 != s2:
            x = (p2 - p1) / (s1 - s2)
            if sign * x > 0:
                cand.add(x)
    cand = np.array(sorted(cand))
    values = np.array([bottom_average_along(F, y, h, c, n_prime, x) for x in cand])
    far = sign * 1e9 * (np.abs(F).max() + c)
    return cand, values, bottom_average_along(F, y, h, c, n_prime, far)


def _tolerance(F, c, alpha):
    # |dM_i/dalpha| <= (c + |N_i|) / (c + |alpha|)^2 with |N_i| <= ptp(F) + |alpha|
    return TH * (c + np.ptp(F) + abs(alpha) + 1.0) / c**2


@pytest.mark.parametrize("seed", range(50))
def test_margin_search_matches_the_exact_optimum_on_each_side(seed):
    rng, F, y, h = _instance(seed, n=int(np.random.default_rng(seed).integers(2, 12)))
    n = F.shape[0]
    c = float(rng.uniform(0.5, 2.0) * (np.ptp(F) + 1))
    n_prime = int(rng.integers(1, n + 1))
    for negative in (False, True):
        result = margin_line_search(F, y, h, c, n_prime, negative=negative)
        sides = [1, -1] if negative else [1]
        exact = [_exact_phase2(F, y, h, c, n_prime, s) for s in sides]
        best_finite = max(v.max() for _, v, _ in exact)
        assert result.initial_value == pytest.approx(bottom_average_along(F, y, h, c, n_prime, 0))
        if result.unbounded:
            assert result.value >= best_finite - 1e-12
            far = [lim for _, _, lim in exact]
            assert result.value == pytest.approx(max(far), abs=1e-6)
            continue
        assert result.value == pytest.approx(
            bottom_average_along(F, y, h, c, n_prime, result.alpha), abs=1e-12
        )
        tol = _tolerance(F, c, result.alpha)
        assert result.value >= best_finite - tol
        assert result.value <= best_finite + 1e-12
        assert max(lim for _, _, lim in exact) <= result.value + tol + 1e-6
        assert result.value >= result.initial_value - 1e-15
        if not negative:
            assert result.alpha >= 0
        # the maximizer is within th of the leftmost exact maximizer of its half-line
        side = 1 if result.maximizer >= 0 else -1
        cand, values, _ = exact[sides.index(side)]
        top = cand[values >= values.max() - 1e-12]
        assert np.min(np.abs(top - result.maximizer)) <= TH


@pytest.mark.parametrize("K", [3, 5])
def test_fine_alpha_grid_never_beats_the_margin_search(K):
    for seed in range(8):
        rng, F, y, h = _instance(2000 + seed, K=K, n=15, integer=False)
        c = float(rng.uniform(1.0, 4.0))
        n_prime = int(rng.integers(1, 16))
        result = margin_line_search(F, y, h, c, n_prime)
        grid = np.linspace(-3 * c, 3 * c, 1201)
        best_grid = max(bottom_average_along(F, y, h, c, n_prime, a) for a in grid)
        assert result.value >= best_grid - _tolerance(F, c, result.alpha)


@pytest.mark.parametrize("seed", range(10))
def test_two_classes_reduce_to_directboost_margin_search(seed):
    rng, F, y, h = _instance(seed, K=2, n=15, integer=False)
    a = F[np.arange(15), y] - F[np.arange(15), 1 - y]
    b = np.where(h == y, 1.0, -1.0)
    c = float(rng.uniform(1.0, 3.0))
    n_prime = int(rng.integers(1, 16))
    binary = bottom_average_line_search(a, b, c, n_prime, d=np.inf)
    multi = margin_line_search(F, y, h, c, n_prime, negative=False)
    assert multi.unbounded == np.isinf(binary.alpha)
    assert multi.value == pytest.approx(
        binary.value, abs=_tolerance(F, c, binary.alpha) if np.isfinite(binary.alpha) else 1e-12
    )


def test_figure2_scenarios_and_the_printed_switch_point():
    F = np.array(
        [
            [3.0, 2.0, 0.5],  # h = y: increasing
            [3.0, 2.0, 0.5],  # h = l = 1: decreasing
            [3.0, 2.0, 0.5],
        ]
    )  # h = 2: flat until a_l - a_h = 1.5, then decreasing
    y = np.zeros(3, dtype=int)
    h = np.array([0, 1, 2])
    assert margin_scenarios(F, y, h).tolist() == [1, 2, 3]
    grid = np.linspace(0, 4, 81)
    N = np.array([margin_numerators(F, y, h, a) for a in grid])
    assert np.all(np.diff(N[:, 0]) > 0) and np.all(np.diff(N[:, 1]) < 0)
    assert np.allclose(N[grid <= 1.5, 2], 1.0)
    assert np.allclose(N[grid >= 1.5, 2], 2.5 - grid[grid >= 1.5])


@pytest.mark.parametrize("seed", range(20))
def test_derivative_9_10_matches_finite_differences(seed):
    rng, F, y, h = _instance(seed, n=12, integer=False)
    c = float(rng.uniform(1.0, 3.0))
    n_prime = int(rng.integers(1, 13))
    for alpha in rng.uniform(-2 * c, 2 * c, size=5):
        sign = 1.0 if alpha >= 0 else -1.0
        d = 1e-7
        fd = (
            bottom_average_along(F, y, h, c, n_prime, alpha + sign * d)
            - bottom_average_along(F, y, h, c, n_prime, alpha)
        ) / d
        assert bottom_average_slope(F, y, h, c, n_prime, alpha) == pytest.approx(fd, abs=1e-5)
        # eq. (10) per example (corrected typos), averaged over B_n' as in eq. (9)
        a = F + 0.0
        rows = np.arange(12)
        wrong = a.copy()
        wrong[rows, y] = -np.inf
        G = wrong.copy()
        G[rows, h] += alpha
        k_star = G.argmax(axis=1)  # the wrong class on top after the step
        N = margin_numerators(F, y, h, alpha)
        slope = (h == y).astype(float) - (h == k_star).astype(float)  # dN/dalpha
        dM = (sign * slope * (c + abs(alpha)) - N) / (c + abs(alpha)) ** 2
        B = np.argsort(N, kind="stable")[:n_prime]
        assert np.mean(dM[B]) == pytest.approx(fd, abs=1e-5)


def test_relaxation_steps_epsilon_beyond_the_maximizer():
    rng, F, y, h = _instance(7, K=3, n=10, integer=False)
    c = 2.0
    plain = margin_line_search(F, y, h, c, 3)
    relaxed = margin_line_search(F, y, h, c, 3, relax=True)
    assert relaxed.maximizer == plain.maximizer
    side = 1.0 if plain.maximizer >= 0 else -1.0
    assert relaxed.alpha == pytest.approx(plain.maximizer + side * EPSILON)
    assert relaxed.value == pytest.approx(bottom_average_along(F, y, h, c, 3, relaxed.alpha))
    assert relaxed.value <= relaxed.max_value + 1e-12
    assert plain.alpha == plain.maximizer and plain.value == plain.max_value


def test_non_improving_coordinate_gives_zero_and_unbounded_gives_the_limit():
    # every example already classified; h votes for a wrong class everywhere: no gain for alpha >= 0
    F = np.array([[3.0, 1.0, 0.0], [0.0, 4.0, 1.0]])
    y = np.array([0, 1])
    h = np.array([1, 2])
    result = margin_line_search(F, y, h, 4.0, 2, negative=False)
    assert result.alpha == 0.0 and result.value == result.initial_value
    # badly misclassified examples and h = y everywhere: (5) rises towards 1 as alpha -> inf
    F = np.array([[0.0, 5.0, 0.0], [0.0, 0.0, 5.0]])
    result = margin_line_search(F, np.array([0, 1]), np.array([0, 1]), 5.0, 1)
    assert result.unbounded and result.alpha == np.inf and result.value == 1.0


# ---- Theorem 3 --------------------------------------------------------------------------------
def _g(H, y, alpha, K, n_prime):
    """Eq. (8): bottom-n' average margin of the weights alpha on the pool H (n x J classes)."""
    n = H.shape[0]
    scores = np.zeros((n, K))
    for j in range(H.shape[1]):
        scores[np.arange(n), H[:, j]] += alpha[j]
    return bottom_margin_average(multiclass_margins(scores, y) / np.abs(alpha).sum(), n_prime)


@pytest.mark.parametrize("seed", range(20))
def test_theorem3_quasiconcave_along_random_lines(seed):
    rng = np.random.default_rng(400 + seed)
    K = int(rng.choice([3, 5]))
    n, J = 12, 5
    y = rng.integers(0, K, n)
    H = rng.integers(0, K, (n, J))
    H[:, 0] = y  # a perfect hypothesis makes the zero-error region non-empty
    n_prime = int(rng.integers(1, n + 1))
    lam = np.linspace(0, 1, 201)

    def unimodal(values):
        peak = int(np.argmax(values))
        return np.all(np.diff(values[: peak + 1]) >= -1e-12) and np.all(
            np.diff(values[peak:]) <= 1e-12
        )

    def zero_error_point():
        while True:  # mixed signs allowed; keep only points with every margin > 0
            alpha = rng.normal(size=J)
            alpha[0] = abs(alpha[0]) + 1.0
            if _g(H, y, alpha, K, 1) > 0:
                return alpha

    for _ in range(5):
        a1, a2 = zero_error_point(), zero_error_point()
        values = np.array([_g(H, y, (1 - t) * a1 + t * a2, K, n_prime) for t in lam])
        assert values.min() > 0  # the zero-error region is convex (concave numerators)
        assert unimodal(values)
        # non-negative weights: quasiconcave at every level, in any region
        b1, b2 = rng.uniform(0, 1, J), rng.uniform(0, 1, J)
        assert unimodal(np.array([_g(H, y, (1 - t) * b1 + t * b2, K, n_prime) for t in lam]))


# ---- Theorem 1 --------------------------------------------------------------------------------
def _soft_margin_lp(H, y, K, n_prime):
    """(6) over the simplex (M_i is scale-free): max rho - sum(xi)/n' s.t. for every i and
    every wrong class k: sum_j alpha_j (1[h_j = y_i] - 1[h_j = k]) + xi_i >= rho."""
    n, J = H.shape
    rows, rhs = [], []
    for i in range(n):
        for k in range(K):
            if k != y[i]:
                row = np.zeros(J + 1 + n)
                row[:J] = -((H[i] == y[i]).astype(float) - (H[i] == k).astype(float))
                row[J] = 1.0
                row[J + 1 + i] = -1.0
                rows.append(row)
                rhs.append(0.0)
    cost = np.concatenate([np.zeros(J), [-1.0], np.full(n, 1.0 / n_prime)])
    eq = np.concatenate([np.ones(J), [0.0], np.zeros(n)])[None, :]
    bounds = [(0, None)] * J + [(None, None)] + [(0, None)] * n
    res = linprog(
        cost, A_ub=np.array(rows), b_ub=rhs, A_eq=eq, b_eq=[1.0], bounds=bounds, method="highs"
    )
    assert res.status == 0
    return -res.fun, res.x[:J], res.x[J]


def _bottom_average_lp(H, y, K, n_prime):
    """(5) over the simplex without slacks: max s s.t. s <= (1/n') sum_{i in B}
    (f(x_i, y_i) - f(x_i, k_i)) for every n'-subset B and every choice of wrong classes k_i."""
    n, J = H.shape
    diff = {
        (i, k): (H[i] == y[i]).astype(float) - (H[i] == k).astype(float)
        for i in range(n)
        for k in range(K)
        if k != y[i]
    }
    rows = []
    for B in itertools.combinations(range(n), n_prime):
        for ks in itertools.product(*[[k for k in range(K) if k != y[i]] for i in B]):
            row = np.zeros(J + 1)
            row[:J] = -sum(diff[i, k] for i, k in zip(B, ks)) / n_prime
            row[J] = 1.0
            rows.append(row)
    cost = np.concatenate([np.zeros(J), [-1.0]])
    eq = np.concatenate([np.ones(J), [0.0]])[None, :]
    res = linprog(
        cost,
        A_ub=np.array(rows),
        b_ub=np.zeros(len(rows)),
        A_eq=eq,
        b_eq=[1.0],
        bounds=[(0, None)] * J + [(None, None)],
        method="highs",
    )
    assert res.status == 0
    return -res.fun


@pytest.mark.parametrize("seed", range(12))
def test_theorem1_bottom_average_equals_the_soft_margin_lp(seed):
    rng = np.random.default_rng(500 + seed)
    K = 3 if seed % 2 else 5
    n, J = 6, 4
    y = rng.integers(0, K, n)
    H = rng.integers(0, K, (n, J))
    n_prime = int(rng.integers(1, 4))
    soft, alpha, rho = _soft_margin_lp(H, y, K, n_prime)
    direct = _bottom_average_lp(H, y, K, n_prime)
    assert soft == pytest.approx(direct, abs=1e-8)
    # the LP's weights attain the optimum of (5); rho lies between the n'-th and (n'+1)-th margin
    assert _g(H, y, alpha, K, n_prime) == pytest.approx(soft, abs=1e-8)
    m = np.sort(multiclass_margins(sum(np.eye(K)[H[:, j]] * alpha[j] for j in range(J)), y))
    assert m[n_prime - 1] - 1e-8 <= rho <= (m[n_prime] if n_prime < n else np.inf) + 1e-8
    # no random point of the simplex does better
    for w in rng.dirichlet(np.ones(J), size=300):
        assert _g(H, y, w, K, n_prime) <= soft + 1e-9


# ---- bad input --------------------------------------------------------------------------------
GOOD_F = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, 0.5]])
GOOD_Y = np.array([0, 1])
GOOD_H = np.array([2, 1])


@pytest.mark.parametrize(
    "F, y, h, message",
    [
        (GOOD_F, np.array([0, 3]), GOOD_H, "y must hold class indices in 0..2"),
        (GOOD_F, np.array([-1, 0]), GOOD_H, "y must hold class indices"),
        (GOOD_F, np.array([0.5, 1.0]), GOOD_H, "non-integer"),
        (GOOD_F, GOOD_Y, np.array([0, 5]), "h must hold class indices"),
        (np.ones((2, 1)), np.array([0, 0]), np.array([0, 0]), "K >= 2"),
        (np.ones(3), GOOD_Y, GOOD_H, "2-D"),
        (GOOD_F, np.array([0, 1, 1]), GOOD_H, "y must have shape \\(2,\\)"),
        (GOOD_F, GOOD_Y, np.array([1]), "h must have shape \\(2,\\)"),
        (np.zeros((0, 3)), np.zeros(0, int), np.zeros(0, int), "at least one example"),
        (np.array([[np.nan, 0.0, 1.0], [0.0, 1.0, 0.0]]), GOOD_Y, GOOD_H, "NaN"),
        (GOOD_F, np.array([True, False]), GOOD_H, "integer class indices"),
    ],
)
def test_bad_input_is_rejected(F, y, h, message):
    with pytest.raises(ValueError, match=message):
        zero_one_sweep(F, y, h)
    with pytest.raises(ValueError, match=message):
        margin_line_search(F, y, h, 1.0, 1)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_prime": 0}, "n_prime must be an integer in \\[1, 2\\]"),
        ({"n_prime": 3}, "n_prime must be an integer in \\[1, 2\\]"),
        ({"n_prime": 1.5}, "n_prime must be an integer"),
        ({"c": 0.0}, "c \\(the sum of \\|alpha\\|"),
        ({"c": np.inf}, "c \\(the sum"),
        ({"th": 0.0}, "th must be a positive"),
        ({"relax": True, "epsilon": 0.0}, "epsilon must be positive"),
    ],
)
def test_bad_search_parameters_are_rejected(kwargs, message):
    args = {"c": 1.0, "n_prime": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        margin_line_search(GOOD_F, GOOD_Y, GOOD_H, **args)


# ---- Theorem 2 --------------------------------------------------------------------------------
from scipy.stats import binom  # noqa: E402

from marginboost.boosting.dmcboost.search import generalization_bound, kl_inverse  # noqa: E402


def _kl(q, p):
    return sum(a * np.log(a / b) for a, b in ((q, p), (1 - q, 1 - p)) if a > 0)


@pytest.mark.parametrize("q, c", [(0.0, 0.1), (0.1, 0.05), (0.3, 0.5), (0.5, 0.001), (0.9, 2.0)])
def test_kl_inverse_is_the_largest_p_within_c(q, c):
    p = kl_inverse(q, c)
    assert q <= p <= 1
    if p < 1:
        assert _kl(q, p) <= c + 1e-12  # within c, and the bisection's bracket is tight
        assert p + 1e-10 >= 1 or _kl(q, p + 1e-10) > c


def test_chernoff_step_of_the_proof():
    # P[Bin(n, eps) <= n'-1] <= exp(-n KL((n'-1)/n || eps)) for eps >= (n'-1)/n
    for n in (20, 100):
        for n_prime in (1, n // 10, n // 4, n // 2):
            q = (n_prime - 1) / n
            for eps in np.linspace(q, 0.99, 15):
                assert binom.cdf(n_prime - 1, n, eps) <= np.exp(-n * _kl(q, eps)) + 1e-12


def test_generalization_bound_is_monotone():
    kw = dict(n=1000, n_prime=100, K=4, n_hypotheses=1e6, delta=0.05)
    thetas = np.linspace(0.05, 1.0, 40)
    values = [generalization_bound(t, **kw) for t in thetas]
    assert np.all(np.diff(values) <= 1e-12)  # a larger bottom-n' margin never hurts
    assert values[-1] < values[0]
    base = generalization_bound(0.5, **kw)
    assert generalization_bound(0.5, **{**kw, "n_hypotheses": 1e8}) > base
    assert generalization_bound(0.5, **{**kw, "delta": 0.01}) > generalization_bound(0.5, **kw)
    assert generalization_bound(0.5, **{**kw, "n_prime": 300}) > generalization_bound(0.5, **kw)
    assert generalization_bound(
        0.5, **{**kw, "n": 100000, "n_prime": 10000}
    ) < generalization_bound(0.5, **kw)
    with pytest.raises(ValueError, match="8/\\|H\\|"):
        generalization_bound(1e-7, **kw)
    with pytest.raises(ValueError, match="n_prime in \\[1, n\\]"):
        generalization_bound(0.5, **{**kw, "n_prime": 0})


def test_a_bottom_sum_that_ends_flat_at_zero_has_a_finite_maximizer():
    """n' = 2, c = 1, positive steps: the margins -1 + b, 1 - b and -0.5 + b.  The bottom sum
    rises from -1.5 until b = 0.75 and is 0 from there on (the lines -1 + b and 1 - b cancel),
    so (5) reaches its supremum 0 at b = 0.75 and stays there: the search stops at 0.75 (within
    th), not at an unbounded step."""
    F = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 0.5]])
    y = np.array([0, 0, 0])
    h = np.array([0, 1, 0])
    result = margin_line_search(F, y, h, 1.0, 2, negative=False)
    assert not result.unbounded
    assert result.initial_value == -0.75
    assert abs(result.maximizer - 0.75) <= 1e-5
    assert -1e-5 <= result.max_value <= 0.0


def test_bisection_runs_while_the_bracket_is_at_least_th():
    """Algorithm 2.1 bisects while end - begin >= th.  For the bottom sum above (maximum
    reached at b = 0.75) with c = 1 and th = 1/4 the bracket starts as [0, 1] (the derivative
    is not positive at c): [0.5, 1], [0.5, 0.75], then, its width being exactly th,
    [0.625, 0.75]; the step is that bracket's midpoint."""
    F = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 0.5]])
    y = np.array([0, 0, 0])
    h = np.array([0, 1, 0])
    result = margin_line_search(F, y, h, 1.0, 2, negative=False, th=0.25)
    assert result.iterations == 3
    assert result.maximizer == 0.6875
    # S(0.6875) = (-0.3125) + (0.1875) = -0.125, divided by n' (c + b) = 2 * 1.6875
    assert result.max_value == pytest.approx(-0.125 / (2 * 1.6875), rel=1e-12)
