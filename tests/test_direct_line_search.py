"""DirectBoost's 0-1 loss line search (Zhai et al. 2013, Alg. 1) against brute force."""

from __future__ import annotations

import numpy as np
import pytest

from marginboost.boosting.directboost import zero_one_error_at, zero_one_line_search


def brute_force(a, b):
    """Errors on every open interval between the critical points, by evaluating its midpoint."""
    points = np.unique(np.abs(a[a * b < 0]))
    edges = np.concatenate([[0.0], points])
    probes = [(lo + hi) / 2 for lo, hi in zip(edges[:-1], edges[1:])] + [edges[-1] + 1.0]
    return [zero_one_error_at(a, b, p) for p in probes], edges


def test_paper_figure1_example():
    # x1: falling line below 0; x2: rising line below 0; x3: falling line above 0; x4 rising
    # above 0 -- errors 50% at alpha = 0, 25% on [e2, e3], back to 50% after e3.
    a = np.array([-1.0, -0.5, 1.5, 0.8])
    b = np.array([-1.0, 1.0, -1.0, 1.0])
    result = zero_one_line_search(a, b)
    assert result.initial_errors == 2
    assert result.errors == 1
    assert (result.low, result.high) == (0.5, 1.5)
    assert result.alpha == 1.0
    assert zero_one_error_at(a, b, result.alpha) == 1


@pytest.mark.parametrize("seed", range(40))
def test_matches_brute_force_on_random_instances(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    # integer-valued margins create ties between critical points and zeros
    a = rng.integers(-4, 5, size=n).astype(float) * (0.5 if seed % 2 else 1.0)
    b = rng.choice([-1.0, 1.0], size=n)
    errors, edges = brute_force(a, b)
    result = zero_one_line_search(a, b)
    best = int(np.argmin(errors))  # first (smallest-alpha) interval with the fewest errors
    assert result.errors == errors[best]
    assert result.low == edges[best]
    assert result.high == (edges[best + 1] if best + 1 < len(edges) else np.inf)
    assert zero_one_error_at(a, b, result.alpha) == result.errors
    assert result.errors <= result.initial_errors


def test_fine_alpha_grid_never_beats_the_search():
    rng = np.random.default_rng(3)
    for _ in range(20):
        a = rng.normal(size=25)
        b = rng.choice([-1.0, 1.0], size=25)
        result = zero_one_line_search(a, b)
        grid = np.linspace(1e-9, 4 * np.abs(a).max() + 1, 4001)
        assert min(zero_one_error_at(a, b, x) for x in grid) == result.errors


def test_given_order_is_used_and_checked():
    a = np.array([0.3, -0.2, 0.1])
    b = np.array([-1.0, 1.0, 1.0])
    order = np.argsort(np.abs(a))
    assert zero_one_line_search(a, b, order) == zero_one_line_search(a, b)
    with pytest.raises(ValueError, match="order must have shape"):
        zero_one_line_search(a, b, order[:2])


def test_first_round_all_zero_margins():
    a = np.zeros(4)
    b = np.array([1.0, 1.0, -1.0, 1.0])
    result = zero_one_line_search(a, b)
    assert result.errors == 1 and result.high == np.inf and result.alpha == 1.0


@pytest.mark.parametrize(
    "a, b, message",
    [
        (np.array([0.1, np.nan]), np.array([1.0, 1.0]), "NaN"),
        (np.array([0.1, 0.2]), np.array([1.0, 0.5]), "only -1 and"),
        (np.array([0.1, 0.2]), np.array([1.0]), "same length"),
        (np.zeros(0), np.zeros(0), "at least one"),
    ],
)
def test_bad_input(a, b, message):
    with pytest.raises(ValueError, match=message):
        zero_one_line_search(a, b)


from marginboost.boosting.directboost import (  # noqa: E402
    bottom_average_line_search,
    bottom_margin_average_at,
    zero_error_end,
)


@pytest.mark.parametrize("seed", range(30))
def test_bottom_average_search_matches_a_fine_grid(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 25))
    b = rng.choice([-1.0, 1.0], size=n)
    c = float(rng.uniform(0.5, 3.0))
    a = rng.uniform(0.05, 1.0, size=n) * c  # a correctly classified start (zero error)
    n_prime = int(rng.integers(1, n + 1))
    d = zero_error_end(a, b)
    result = bottom_average_line_search(a, b, c, n_prime)
    assert result.value == pytest.approx(
        bottom_margin_average_at(a, b, c, n_prime, result.alpha), abs=1e-12
    )
    assert result.initial_value == pytest.approx(bottom_margin_average_at(a, b, c, n_prime, 0.0))
    upper = d if np.isfinite(d) else 1e6 * c
    grid = np.concatenate([np.linspace(0.0, min(upper, 50 * c), 2001), [upper]])
    best_grid = max(bottom_margin_average_at(a, b, c, n_prime, x) for x in grid)
    assert result.value >= best_grid - 1e-12
    assert result.value >= result.initial_value
    assert 0.0 <= result.alpha <= d
    if np.isinf(result.alpha):  # a supremum, approached as alpha grows
        assert result.value == pytest.approx(np.sort(b)[:n_prime].mean())
        assert result.value <= best_grid + 1e-5


def test_special_cases_min_and_average_margin():
    a = np.array([0.2, 0.5, 0.9])
    b = np.array([1.0, -1.0, 1.0])
    c = 1.0
    # n' = n: the average margin is monotone in alpha (Theorem 3): the optimum is 0 or d
    average = bottom_average_line_search(a, b, c, 3)
    assert average.alpha in (0.0, zero_error_end(a, b))
    # n' = 1: the minimum margin; the rising 0.2 and falling 0.5 lines meet at alpha = 0.15
    minimum = bottom_average_line_search(a, b, c, 1)
    assert minimum.alpha == pytest.approx(0.15)
    assert minimum.value == pytest.approx(0.35 / 1.15)


def test_margin_search_bad_input():
    a, b = np.array([0.2, 0.5]), np.array([1.0, -1.0])
    with pytest.raises(ValueError, match="n_prime"):
        bottom_average_line_search(a, b, 1.0, 3)
    with pytest.raises(ValueError, match="c \\(the sum"):
        bottom_average_line_search(a, b, 0.0, 1)
    with pytest.raises(ValueError, match="d must be"):
        bottom_average_line_search(a, b, 1.0, 1, d=-1.0)


from marginboost.boosting.directboost import best_stump_zero_one  # noqa: E402
from marginboost.weak import BinMapper  # noqa: E402


def _stump_b(codes, y, feature, bin_, polarity):
    return polarity * y * np.where(codes[:, feature] <= bin_, 1.0, -1.0)


@pytest.mark.parametrize("seed", range(6))
def test_best_stump_agrees_with_a_scalar_search_over_every_stump(seed):
    rng = np.random.default_rng(200 + seed)
    X = rng.normal(size=(40, 3)).round(1)
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.3 * rng.normal(size=40) > 0, 1.0, -1.0)
    codes = BinMapper(max_bins=16).fit_transform(X)
    a = rng.normal(size=40).round(1)
    step = best_stump_zero_one(codes, a, y)
    candidates = []
    for f in range(3):
        for t in range(int(codes[:, f].max())):
            for polarity in (1.0, -1.0):
                b = _stump_b(codes, y, f, t, polarity)
                r = zero_one_line_search(a, b)
                loss = np.log(np.exp(-(a + b * r.alpha)).sum())
                candidates.append((r.errors, loss))
    fewest = min(c[0] for c in candidates)
    assert step.errors == fewest
    assert step.log_exp_loss == pytest.approx(min(l for e, l in candidates if e == fewest))
    b = _stump_b(codes, y, step.feature, step.bin, step.polarity)
    assert zero_one_error_at(a, b, step.alpha) == step.errors


def test_phase_one_training_error_never_increases():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(80, 4))
    y = np.where(np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2] > 0, 1.0, -1.0)
    codes = BinMapper(max_bins=32).fit_transform(X)
    a = np.zeros(80)
    history, loss = [], np.inf
    for _ in range(60):
        step = best_stump_zero_one(codes, a, y)
        # a step must lower the error, or keep it and lower the exponential loss (the
        # paper's tie-break); otherwise this is a coordinatewise minimum
        if history and (
            step.errors > history[-1] or (step.errors == history[-1] and step.log_exp_loss >= loss)
        ):
            break
        a = a + step.alpha * _stump_b(codes, y, step.feature, step.bin, step.polarity)
        history.append(int(np.count_nonzero(a <= 0)))
        loss = step.log_exp_loss
        assert history[-1] == step.errors
    assert history == sorted(history, reverse=True)
    assert history[-1] < history[0]


def test_best_stump_bad_input():
    codes = np.zeros((3, 2), dtype=np.uint8)
    with pytest.raises(ValueError, match="every feature is constant"):
        best_stump_zero_one(codes, np.zeros(3), np.array([1.0, -1.0, 1.0]))
    codes[0, 0] = 1
    with pytest.raises(ValueError, match="only -1 and \\+1"):
        best_stump_zero_one(codes, np.zeros(3), np.array([1.0, 0.0, 1.0]))
    with pytest.raises(ValueError, match="shape \\(3,\\)"):
        best_stump_zero_one(codes, np.zeros(2), np.array([1.0, -1.0, 1.0]))


@pytest.mark.parametrize("seed", range(20))
def test_theorem2_bottom_average_is_quasiconcave_in_the_zero_error_region(seed):
    """Along a coordinate, inside [0, d) the bottom-n' average margin has no interior dip:
    every upper level set of a quasiconcave function on an interval is an interval."""
    rng = np.random.default_rng(300 + seed)
    n = int(rng.integers(3, 30))
    c = float(rng.uniform(0.5, 2.0))
    a = rng.uniform(0.01, 1.0, size=n) * c  # zero training error at alpha = 0
    b = rng.choice([-1.0, 1.0], size=n)
    d = zero_error_end(a, b)
    upper = d if np.isfinite(d) else 20 * c
    grid = np.linspace(0.0, upper, 600, endpoint=not np.isfinite(d))
    n_prime = int(rng.integers(1, n + 1))
    values = np.array([bottom_margin_average_at(a, b, c, n_prime, x) for x in grid])
    peak = int(np.argmax(values))
    assert np.all(np.diff(values[: peak + 1]) >= -1e-12)  # non-decreasing up to the maximum
    assert np.all(np.diff(values[peak:]) <= 1e-12)  # non-increasing after it


def test_supremum_at_infinity_keeps_the_value_at_zero():
    """Two rising lines and one falling line, d = inf, n' = 2: the bottom-2 average rises
    towards 0 (the limit slope / n') without reaching it, so the search reports the supremum;
    its initial value is still the objective at alpha = 0, not at the last breakpoint."""
    a, b, c = np.array([-0.5, -0.4, 0.3]), np.array([1.0, 1.0, -1.0]), 1.0
    result = bottom_average_line_search(a, b, c, 2, d=np.inf)
    assert np.isinf(result.alpha) and result.value == 0.0
    assert result.initial_value == pytest.approx(bottom_margin_average_at(a, b, c, 2, 0.0))
    assert result.initial_value == pytest.approx(-0.45)
    assert bottom_margin_average_at(a, b, c, 2, 0.35) == pytest.approx(-0.2 / 2.7)  # a breakpoint
