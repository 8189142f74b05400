"""Tests of marginboost.duality conjugates and entropies (Shen & Li 2010, Sec. 3)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.special import softmax

from marginboost.duality import (
    binary_relative_entropy,
    check_conjugate,
    check_lse_conjugate,
    log_sum_exp,
    lse_conjugate,
    numeric_conjugate,
    numeric_conjugate_vector,
    q_logarithm,
    shannon_entropy,
    tsallis_entropy,
)
from marginboost.losses import (
    ExponentialLoss,
    GeneralizedHingeLoss,
    HingeLoss,
    LogisticLoss,
    MadaBoostLoss,
    NormalizedSigmoidLoss,
    SquaredHingeLoss,
    SquaredLoss,
    ZeroOneLoss,
)

# Numerical suprema are refined to ~1e-13 in x; 1e-8 leaves room for platform differences.
CONJUGATE_ATOL = 1e-8

WITH_CLOSED_FORM = [
    ExponentialLoss(),
    LogisticLoss(),
    HingeLoss(),
    SquaredHingeLoss(),
    GeneralizedHingeLoss(p=1.5),
    GeneralizedHingeLoss(p=3),
    GeneralizedHingeLoss(p=4),
    SquaredLoss(),
    MadaBoostLoss(),
    NormalizedSigmoidLoss(steepness=2.0),
    ZeroOneLoss(),
]


@pytest.mark.parametrize("loss", WITH_CLOSED_FORM, ids=[repr(x) for x in WITH_CLOSED_FORM])
def test_closed_form_conjugates_match_numeric_on_grid(loss):
    # The grid crosses every domain boundary (0 and 1) and includes them exactly.
    us = np.concatenate([np.linspace(-1.0, 3.0, 41), [0.0, 1.0, 1e-9, 1 - 1e-9]])
    assert check_conjugate(loss, us) < CONJUGATE_ATOL


@pytest.mark.parametrize(
    "loss",
    [
        ExponentialLoss(),
        LogisticLoss(),
        GeneralizedHingeLoss(p=2.5),
        MadaBoostLoss(),
        SquaredLoss(),
    ],
    ids=["exp", "logistic", "hinge^2.5", "madaboost", "squared"],
)
@settings(max_examples=40, deadline=None)
@given(u=st.floats(-2.0, 4.0))
def test_closed_form_conjugates_match_numeric_at_random_points(loss, u):
    # Within slope_tolerance of a domain boundary (0 or 1) the unboundedness rule is
    # ambiguous by design (see numeric_conjugate); the boundaries themselves are fine.
    assume(u in (0.0, 1.0) or min(abs(u), abs(u - 1.0)) > 1e-7)
    assert check_conjugate(loss, [u]) < CONJUGATE_ATOL


def test_check_conjugate_detects_a_wrong_closed_form():
    class WrongExponential(ExponentialLoss):
        def conjugate(self, u):
            return super().conjugate(u) + 1e-4

    class WrongDomain(LogisticLoss):
        def conjugate(self, u):
            return np.where(np.asarray(u) > 1, 0.0, super().conjugate(u))

    us = np.linspace(-0.5, 2, 11)
    assert check_conjugate(WrongExponential(), us) == pytest.approx(1e-4, rel=1e-3)
    assert check_conjugate(WrongDomain(), us) == np.inf


def test_check_conjugate_rejects_non_loss():
    with pytest.raises(TypeError, match="MarginCost"):
        check_conjugate(lambda m: m**2, [0.1])


# ------------------------------------------------------------------ numeric_conjugate itself


def test_numeric_conjugate_of_quadratic_and_bounds():
    u = np.linspace(-3, 3, 13)
    np.testing.assert_allclose(numeric_conjugate(lambda x: 0.5 * x**2, u), 0.5 * u**2, atol=1e-10)
    # restricted to x >= 0: sup_x>=0 ux - x^2/2 = max(u, 0)^2 / 2
    np.testing.assert_allclose(
        numeric_conjugate(lambda x: 0.5 * x**2, u, bounds=(0, None)),
        0.5 * np.maximum(u, 0) ** 2,
        atol=1e-10,
    )
    # compact interval: sup_{|x|<=1} ux - 0 = |u|
    np.testing.assert_allclose(
        numeric_conjugate(lambda x: 0.0 * x, u, bounds=(-1, 1)), np.abs(u), atol=1e-12
    )


def test_numeric_conjugate_unboundedness_rule():
    # f(x) = 2x: f*(u) = 0 at u = 2, +inf elsewhere
    values = numeric_conjugate(lambda x: 2.0 * x, [1.9, 2.0, 2.1])
    assert np.isinf(values[0]) and np.isinf(values[2]) and values[1] == pytest.approx(0.0, abs=1e-9)
    # f = exp: unbounded for u < 0 only; near the boundary the rule still resolves
    assert np.isinf(numeric_conjugate(np.exp, -1e-6))
    assert numeric_conjugate(np.exp, 0.0) == pytest.approx(0.0, abs=1e-12)


def test_numeric_conjugate_non_vectorized_function_and_x0():
    value = numeric_conjugate(lambda x: math.cosh(x - 5.0), 0.0, x0=5.0)
    assert value == pytest.approx(-1.0, abs=1e-10)  # sup_x -cosh(x-5) = -1 at x = 5


def test_numeric_conjugate_input_errors():
    with pytest.raises(TypeError, match="callable"):
        numeric_conjugate(3.0, 0.5)
    with pytest.raises(ValueError, match="finite"):
        numeric_conjugate(np.exp, [0.5, np.nan])
    with pytest.raises(ValueError, match="low < high"):
        numeric_conjugate(np.exp, 0.5, bounds=(1, 0))
    with pytest.raises(ValueError, match="pair"):
        numeric_conjugate(np.exp, 0.5, bounds=(1,))


def test_numeric_conjugate_vector_quadratic_with_and_without_gradient():
    rng = np.random.default_rng(3)
    u = rng.normal(size=(4, 3))
    f = lambda x: 0.5 * float(x @ x)  # noqa: E731
    np.testing.assert_allclose(
        numeric_conjugate_vector(f, u), 0.5 * np.sum(u**2, axis=1), atol=1e-8
    )
    np.testing.assert_allclose(
        numeric_conjugate_vector(f, u, gradient=lambda x: x), 0.5 * np.sum(u**2, axis=1), atol=1e-10
    )
    # box x >= 0 coordinatewise
    box = numeric_conjugate_vector(f, u, bounds=[(0, None)] * 3, gradient=lambda x: x)
    np.testing.assert_allclose(box, 0.5 * np.sum(np.maximum(u, 0) ** 2, axis=1), atol=1e-10)


def test_numeric_conjugate_vector_input_errors():
    with pytest.raises(ValueError, match="shape"):
        numeric_conjugate_vector(log_sum_exp, np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="x0 must have shape"):
        numeric_conjugate_vector(log_sum_exp, np.full(3, 1 / 3), x0=np.zeros(2))
    with pytest.raises(ValueError, match="one \\(low, high\\) pair per coordinate"):
        numeric_conjugate_vector(log_sum_exp, np.full(3, 1 / 3), bounds=[(0, 1)])


# ------------------------------------------------------------------ Proposition 3.1


def test_log_sum_exp_is_stable():
    assert log_sum_exp([1000.0, 1000.0]) == pytest.approx(1000.0 + math.log(2.0))
    assert log_sum_exp([-1000.0, -1000.0]) == pytest.approx(-1000.0 + math.log(2.0))
    with pytest.raises(ValueError, match="non-empty"):
        log_sum_exp([])


def test_proposition_3_1_on_random_simplex_points():
    rng = np.random.default_rng(20100101)
    for dim in (2, 3, 5, 8):
        u = rng.dirichlet(np.ones(dim), size=6)
        assert check_lse_conjugate(u) < 1e-8
        # supremum attained at x = log u + const (Shen & Li / Boyd & Vandenberghe)
        x_star = np.log(u[0]) + 0.37
        assert float(u[0] @ x_star - log_sum_exp(x_star)) == pytest.approx(
            float(lse_conjugate(u[0])), abs=1e-12
        )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dim=st.integers(2, 6))
def test_proposition_3_1_hypothesis(seed, dim):
    u = np.random.default_rng(seed).dirichlet(np.full(dim, 0.7))
    numeric = numeric_conjugate_vector(log_sum_exp, u, gradient=softmax)
    assert numeric == pytest.approx(float(np.sum(u * np.log(np.maximum(u, 1e-300)))), abs=1e-8)


def test_proposition_3_1_boundary_of_simplex():
    u = np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]])
    np.testing.assert_allclose(lse_conjugate(u), [math.log(0.5), 0.0], atol=1e-15)
    assert check_lse_conjugate(u) < 1e-8


def test_proposition_3_1_off_simplex_is_unbounded():
    rng = np.random.default_rng(7)
    u = rng.dirichlet(np.ones(4), size=3)
    scaled_up, scaled_down = 1.01 * u, 0.99 * u
    negative = u.copy()
    negative[:, 0] = -0.05
    negative[:, 1] += u[:, 0] + 0.05  # still sums to 1
    for off in (scaled_up, scaled_down, negative):
        assert np.all(np.isinf(lse_conjugate(off)))
        assert np.all(np.isinf(numeric_conjugate_vector(log_sum_exp, off, gradient=softmax)))
    assert check_lse_conjugate(np.vstack([u, scaled_up, negative])) < 1e-8


def test_lse_conjugate_tolerance():
    u = np.array([0.5, 0.5 + 1e-12, -1e-12])
    assert np.isfinite(lse_conjugate(u))
    assert np.isinf(lse_conjugate(u, tolerance=1e-14))


# ------------------------------------------------------------------ Theorem 3.2 and entropies


def test_logistic_conjugate_is_negative_binary_entropy():
    u = np.linspace(0, 1, 101)
    np.testing.assert_allclose(
        LogisticLoss().conjugate(u), -binary_relative_entropy(u[:, None]), atol=1e-15
    )
    assert binary_relative_entropy([0.5, 0.5, 0.5]) == pytest.approx(3 * math.log(2))
    assert binary_relative_entropy([0.0, 1.0]) == 0.0


def test_shannon_entropy():
    assert shannon_entropy(np.full(7, 1 / 7)) == pytest.approx(math.log(7))
    assert shannon_entropy([1.0, 0.0, 0.0]) == 0.0  # 0 log 0 = 0
    assert shannon_entropy([0.5, 0.5, -1e-12]) == pytest.approx(math.log(2))  # clipped
    rows = np.array([[0.25] * 4, [0.5, 0.5, 0, 0]])
    np.testing.assert_allclose(shannon_entropy(rows), [math.log(4), math.log(2)])
    # on the simplex it is minus the log-sum-exp conjugate
    u = np.random.default_rng(1).dirichlet(np.ones(5))
    assert shannon_entropy(u) == pytest.approx(-float(lse_conjugate(u)), rel=1e-14)


def test_entropy_input_errors():
    with pytest.raises(ValueError, match=r"must lie in \[0, inf\].*-0.001"):
        shannon_entropy([0.5, 0.501, -1e-3])
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\].*1.2"):
        binary_relative_entropy([0.2, 1.2])
    with pytest.raises(ValueError, match="scalar"):
        shannon_entropy(0.5)
    with pytest.raises(ValueError, match="finite"):
        shannon_entropy([0.5, np.nan])
    with pytest.raises(ValueError, match="sum to 1"):
        tsallis_entropy([0.2, 0.2], 2.0)
    with pytest.raises(ValueError, match="q must be finite and > 0"):
        tsallis_entropy([0.5, 0.5], 0.0)
    with pytest.raises(TypeError, match="real number"):
        tsallis_entropy([0.5, 0.5], "2")


def test_tsallis_known_values():
    u = np.array([0.2, 0.3, 0.5])
    assert tsallis_entropy(u, 2.0) == pytest.approx(1 - np.sum(u**2), rel=1e-14)
    assert tsallis_entropy(u, 3.0) == pytest.approx((1 - np.sum(u**3)) / 2, rel=1e-14)
    assert tsallis_entropy(u, 0.5) == pytest.approx((1 - np.sum(u**0.5)) / -0.5, rel=1e-14)
    assert tsallis_entropy(u, 1.0) == shannon_entropy(u)
    assert tsallis_entropy(np.full(4, 0.25), 2.0) == pytest.approx(0.75)


def test_tsallis_tends_to_shannon_linearly():
    u = np.random.default_rng(29).dirichlet(np.ones(6))
    s1 = shannon_entropy(u)
    for sign in (1, -1):
        ratios = []
        for k in range(1, 7):
            eps = sign * 10.0**-k
            gap = tsallis_entropy(u, 1 + eps) - s1
            ratios.append(gap / eps)
        # |S_q - S_1| = O(|q-1|): the ratio converges to a finite, non-zero constant
        # (-1/2 sum u log^2 u), with differences shrinking by ~10x per decade.
        expected = -0.5 * np.sum(u * np.log(u) ** 2)
        assert ratios[-1] == pytest.approx(expected, rel=1e-4)
        assert abs(ratios[-1] - ratios[-2]) < abs(ratios[1] - ratios[0])


def test_tsallis_q_logarithm_identities_and_shen_li_typo():
    u = np.array([0.1, 0.2, 0.3, 0.4])
    for q in (0.5, 1.5, 2.0, 3.0):
        s = tsallis_entropy(u, q)
        assert np.sum(u * q_logarithm(1 / u, q)) == pytest.approx(s, rel=1e-13)
        assert -np.sum(u**q * q_logarithm(u, q)) == pytest.approx(s, rel=1e-13)
        # the form printed in Shen & Li, -sum u log_q u, is S_{2-q}
        if 2 - q > 0:
            assert -np.sum(u * q_logarithm(u, q)) == pytest.approx(
                tsallis_entropy(u, 2 - q), rel=1e-13
            )
    assert q_logarithm(2.0, 1.0) == pytest.approx(math.log(2.0))
    assert q_logarithm(2.0, 1 + 1e-9) == pytest.approx(math.log(2.0), rel=1e-8)
    with pytest.raises(ValueError, match="x > 0"):
        q_logarithm([1.0, 0.0], 2.0)


@pytest.mark.parametrize("p", [1.5, 2.0, 3.0, 4.0])
def test_generalized_hinge_dual_regularizer_is_tsallis(p):
    # Shen & Li eq. (28)-(29): sum_i g*(u_i) = -1 + c (1 - (q-1) S_q(u)) on the simplex.
    loss = GeneralizedHingeLoss(p=p)
    q = loss.dual_exponent
    c = p ** (1 - q) - p ** (-q)
    u = np.random.default_rng(int(10 * p)).dirichlet(np.ones(5))
    assert np.sum(loss.conjugate(u)) == pytest.approx(
        -1 + c * (1 - (q - 1) * tsallis_entropy(u, q)), rel=1e-12
    )
