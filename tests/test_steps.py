r"""The step rules of :mod:`marginboost.boosting._steps` against their definitions.

Each step is checked by the property that defines it, computed here independently: an exact
line search is a stationary point of :math:`\varphi(w) = \sum_i s_i c(m_i + w a_i)` (its
derivative vanishes up to the rounding of its n terms) and no other step on a fine bracket does
better; the Lipschitz and Newton steps are their formulas.  Tolerances are rounding bounds
(a few ``n eps`` of the sums involved) or the documented Brent tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import brentq

from marginboost.boosting import _steps
from marginboost.losses import ExponentialLoss, FunctionMarginCost, LogisticLoss, SquaredLoss

EPS = np.finfo(np.float64).eps


def data(seed: int, n: int = 30, values=(-1.0, 1.0)):
    rng = np.random.default_rng(seed)
    margins = rng.normal(scale=0.5, size=n)
    a = rng.choice(values, size=n, p=None)
    s = rng.uniform(0.5, 1.5, n)
    return margins, a, s / s.sum()


def location_tolerance(cost, margins, a, s, w, bracket):
    """How far two minimizers of phi may lie apart: bounded Brent stops within
    2 (sqrt(eps) |x| + xatol / 3), xatol = 1e-12 * bracket (scipy's fminbound rule), and float64
    values of phi stop resolving the minimum within sqrt(2 n eps phi / phi'')."""
    phi = float(s @ np.asarray(cost.value(margins + w * a)))
    curvature = float(s @ (np.asarray(cost.second_derivative(margins + w * a)) * a**2))
    return 2 * (np.sqrt(EPS) * abs(w) + 1e-12 * bracket / 3) + np.sqrt(
        2 * len(a) * EPS * phi / curvature
    )


def derivative_at(cost, margins, a, s, w):
    terms = s * np.asarray(cost.derivative(margins + w * a)) * a
    return float(terms.sum()), float(np.abs(terms).sum())


@pytest.mark.parametrize("seed", [0, 1])
def test_squared_cost_closed_form_is_the_stationary_point(seed):
    margins, a, s = data(seed, values=(-1.0, 0.5, 2.0))
    cost = SquaredLoss()
    step, perfect = _steps.line_search_step(
        cost, margins, a, s, _steps.cost_weights(cost, margins, s)
    )
    assert not perfect
    slope, size = derivative_at(cost, margins, a, s, step)
    assert abs(slope) <= 8 * len(a) * EPS * size


def test_logistic_line_search_finds_a_minimum_beyond_the_first_bracket():
    """Margins that all agree with the direction: the minimizer lies far beyond w = 1, so the
    bracket must double several times before Brent's search."""
    margins = np.full(20, -3.0)
    a = np.ones(20)
    a[:2] = -1.0
    s = np.full(20, 1 / 20)
    cost = LogisticLoss()
    step, _ = _steps.line_search_step(cost, margins, a, s, _steps.cost_weights(cost, margins, s))
    exact = brentq(lambda w: derivative_at(cost, margins, a, s, w)[0], 1.0, 100.0, xtol=1e-14)
    assert exact > 4.0
    assert abs(step - exact) <= location_tolerance(cost, margins, a, s, exact, bracket=16.0)


def test_exponential_cost_off_the_unit_directions_is_searched_not_closed_form():
    """AdaBoost's closed form holds only for a_i in {-1, 1}; with a_i in {-2, 2} the minimizer is
    half of it, which the numerical search finds."""
    margins, a, s = data(2)
    cost = ExponentialLoss()
    g = _steps.cost_weights(cost, margins, s)
    unit, _ = _steps.line_search_step(cost, margins, a, s, g)
    double, _ = _steps.line_search_step(cost, margins, 2 * a, s, g)
    assert abs(double - unit / 2) <= location_tolerance(cost, margins, 2 * a, s, unit / 2, 1.0)
    assert abs(double - unit) > 100 * location_tolerance(cost, margins, 2 * a, s, unit / 2, 1.0)


def test_lipschitz_and_newton_steps_follow_their_formulas():
    margins, a, s = data(3, values=(-1.0, 0.5, 2.0))
    cost = LogisticLoss()
    g = _steps.cost_weights(cost, margins, s)
    descent = float(g @ a)
    expected = descent / (0.25 * float(s @ a**2))
    assert _steps.lipschitz_step(cost, g, a, s) == pytest.approx(expected, rel=8 * len(a) * EPS)
    curvature = float((s * cost.second_derivative(margins)) @ a**2)
    assert _steps.newton_step(cost, margins, g, a, s) == pytest.approx(
        descent / curvature, rel=8 * len(a) * EPS
    )


def test_steps_refuse_costs_without_curvature_or_lipschitz_constant():
    margins, a, s = data(4)
    flat = FunctionMarginCost(
        "linear",
        lambda m: -m,
        derivative_function=lambda m: -np.ones_like(m),
        second_derivative_function=lambda m: np.zeros_like(m),
        convex=True,
        derivative_lipschitz=0.0,
    )
    g = _steps.cost_weights(flat, margins, s)
    with pytest.raises(ValueError, match="Lipschitz"):
        _steps.lipschitz_step(flat, g, a, s)
    with pytest.raises(ValueError, match="positive curvature"):
        _steps.newton_step(flat, margins, g, a, s)


def test_edge_and_entropy_values():
    g = np.array([0.5, 0.25, 0.25])
    a = np.array([1.0, -1.0, 1.0])
    assert _steps.weighted_edge(g, a) == 0.5
    assert _steps.weighted_edge(2 * g, a) == 0.5
    assert _steps.weighted_edge(np.zeros(3), a) == 0.0
    # D = (1/2, 1/4, 1/4): H = (1/2) log 2 + 2 (1/4) log 4 = 1.5 log 2
    assert _steps.weight_entropy(g) == pytest.approx(1.5 * np.log(2), rel=4 * EPS)
    assert _steps.weight_entropy(np.array([3.0, 0.0, 1.0])) == pytest.approx(
        -(0.75 * np.log(0.75) + 0.25 * np.log(0.25)), rel=4 * EPS
    )
    assert _steps.weight_entropy(np.zeros(2)) == 0.0


def test_entropy_with_precomputed_absolute_weights_is_the_same_number():
    """The engine passes ``|w|`` and its sum, computed once per round; the entropy is bitwise
    the one computed from ``w`` alone, with and without zero weights."""
    rng = np.random.default_rng(0)
    for w in (rng.standard_normal(1001), np.r_[rng.random(50), 0.0, -rng.random(50)]):
        p = np.abs(w)
        assert _steps.weight_entropy(w, p, float(p.sum())) == _steps.weight_entropy(w)


def test_compiled_sign_counts_match_numpy():
    """The one-pass kernels of the boosting loop against the NumPy expressions they replace."""
    rng = np.random.default_rng(3)
    for n in (0, 1, 7, 1000):
        scores = rng.standard_normal(n)
        scores[::5] = 0.0  # a zero score predicts the negative class
        positive = rng.random(n) < 0.5
        assert _steps.count_sign_errors(scores, positive) == np.count_nonzero(
            (scores > 0) != positive
        )
        for values in (rng.choice([-1.0, 1.0], size=n), np.where(scores > 0, 1.0, -0.5)):
            assert _steps._all_unit(values) == bool(np.all(np.abs(values) == 1.0))
