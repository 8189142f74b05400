r"""The examples of DirectBoost's Figures 1 and 2 and its Theorem 1 (Zhai et al. 2013).

Figure 2's six margins are those of ``notebooks/directboost-figures1-2.md``: along one
coordinate :math:`\alpha` the normalized margins are
:math:`m_i(\alpha) = (a_i + b_i\alpha)/(c + \alpha)` (the paper's eq. (7)).  Theorem 1 is checked
on random separable pools with LP feasibility problems solved by HiGHS.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import linprog

from marginboost.boosting.directboost import (
    bottom_average_line_search,
    bottom_margin_average_at,
    zero_error_end,
    zero_one_error_at,
    zero_one_line_search,
)
from marginboost.margins import bottom_margin_indices, margin_order_statistic

# Figure 2 of the notebook: every example correct at alpha = 0, margins ordered m1 < ... < m6
C = 1.0
N_PRIME = 3
A = np.array([0.10, 0.25, 0.35, 0.45, 0.60, 0.70])
B = np.array([1.0, 1.0, -1.0, 1.0, -1.0, -1.0])
D = 0.35  # the smallest intercept of a falling margin: x3 reaches 0 first
Q = [0.05, 0.175, 0.25, 0.3]  # changes of the third-smallest example (the paper's q_1..q_4)
BOTTOM_SET_CHANGES = [0.175, 0.3]  # the paper's caption: "at q2 and q4" the bottom-3 set changes


def margins_at(alpha: float) -> np.ndarray:
    return (A + B * alpha) / (C + alpha)


def test_figure1_configuration_of_the_notebook():
    # e_1 < e_2 < e_3 < e_4 as on the paper's axis; 50% -> 25% on (e_2, e_3) -> 50%
    a = np.array([-0.5, -1.0, 2.0, 2.5])
    b = np.array([-1.0, 1.0, -1.0, 1.0])
    result = zero_one_line_search(a, b)
    assert (result.initial_errors, result.errors) == (2, 1)
    assert (result.low, result.high, result.alpha) == (1.0, 2.0, 1.5)
    grid = np.linspace(0.0, 4.0, 4001)
    errors = np.array([zero_one_error_at(a, b, x) for x in grid])
    assert set(errors[(grid > 0) & (grid < 1)]) == {2}
    assert set(errors[(grid > 1) & (grid < 2)]) == {1}
    assert set(errors[grid > 2]) == {2}


def test_zero_error_region_ends_at_d():
    d = zero_error_end(A, B)
    assert d == D == A[(B < 0) & (A > 0)].min()
    below = np.linspace(0.0, np.nextafter(D, 0.0), 2001)
    assert all(zero_one_error_at(A, B, x) == 0 for x in below)
    # at d the margin of x3 is 0 (an error by the package's convention); just after, -epsilon
    assert zero_one_error_at(A, B, D) == 1
    assert zero_one_error_at(A, B, D + 1e-9) == 1
    assert np.flatnonzero(A + B * (D + 1e-9) <= 0).tolist() == [2]
    # the error stays 1/6 until the next falling margin, x5, reaches zero at 0.6
    assert all(zero_one_error_at(A, B, x) == 1 for x in np.linspace(D + 1e-9, 0.6 - 1e-9, 101))
    assert zero_one_error_at(A, B, 0.6 + 1e-9) == 2


def test_each_margin_is_monotone_with_the_sign_of_eq8():
    """DB eq. (8): dm_i/dalpha = (b_i c - a_i)/(c + alpha)^2, a fixed sign in alpha."""
    sign = np.sign(B * C - A)
    assert np.array_equal(sign, B)  # |a_i| < c: the sign of b_i
    grid = np.linspace(0.0, 2.0, 2001)
    curves = np.array([margins_at(x) for x in grid])
    assert np.all(np.diff(curves, axis=0) * sign > 0)  # strictly monotone
    step = 1e-6  # central differences: truncation error O(step^2), rounding O(1e-16 / step)
    for x in (1e-3, 0.1, D, 1.0, 5.0):
        central = (margins_at(x + step) - margins_at(x - step)) / (2 * step)
        assert central == pytest.approx((B * C - A) / (C + x) ** 2, rel=1e-7)


def test_margins_cross_at_half_the_intercept_gap():
    r"""The margins share the denominator :math:`c + \alpha > 0`, so :math:`m_i = m_j` iff
    :math:`a_i + b_i\alpha = a_j + b_j\alpha`, i.e. :math:`\alpha = (a_j - a_i)/(b_i - b_j)`:
    never when :math:`b_i = b_j`; at :math:`\alpha = |a_i - a_j|/2 > 0` when :math:`b_i = -b_j`
    and the rising margin starts below the falling one; for :math:`\alpha < 0` (not in the
    search) when the rising one starts above.  The normalized and unnormalized margins cross at
    the same point."""
    grid = np.linspace(0.0, 3.0, 3001)
    curves = np.array([margins_at(x) for x in grid])
    for i, j in itertools.combinations(range(A.size), 2):
        difference = curves[:, i] - curves[:, j]
        if B[i] == B[j]:
            assert np.all(np.sign(difference) == np.sign(A[i] - A[j]))
            continue
        rise, fall = (i, j) if B[i] > 0 else (j, i)
        if A[rise] < A[fall]:
            x = abs(A[i] - A[j]) / 2
            assert margins_at(x)[i] == pytest.approx(margins_at(x)[j], abs=1e-15)
            assert (A + B * x)[i] == pytest.approx((A + B * x)[j], abs=1e-15)
            assert margins_at(x - 1e-6)[rise] < margins_at(x - 1e-6)[fall]
            assert margins_at(x + 1e-6)[rise] > margins_at(x + 1e-6)[fall]
            assert np.count_nonzero(np.diff(difference > 0)) == 1  # one crossing only
        else:
            assert np.all(curves[:, rise] > curves[:, fall])


def test_figure2_breakpoints_by_brute_force():
    """On a fine grid, the third-smallest example changes at q_1..q_4 and the bottom-3 set at
    q_2 and q_4 only, as in the paper's caption."""
    grid = np.linspace(0.0, D, 35001)  # step 1e-5
    third = np.array([np.argsort(margins_at(x), kind="stable")[N_PRIME - 1] for x in grid])
    bottom = [frozenset(bottom_margin_indices(margins_at(x), N_PRIME).tolist()) for x in grid]
    third_changes = grid[1:][third[1:] != third[:-1]]
    set_changes = grid[1:][[u != v for u, v in zip(bottom[1:], bottom[:-1])]]
    assert third_changes == pytest.approx(Q, abs=2e-5)
    assert set_changes == pytest.approx(BOTTOM_SET_CHANGES, abs=2e-5)


def test_bottom_average_search_equals_the_grid_maximum():
    result = bottom_average_line_search(A, B, C, N_PRIME)
    assert result.alpha == pytest.approx(0.175, abs=1e-15)  # the breakpoint q_2
    # there the bottom set is {x1, x3, x5}: numerators 0.275 + 0.175 + 0.425
    assert result.value == pytest.approx(0.875 / (3 * 1.175), rel=1e-12)
    assert result.initial_value == pytest.approx(0.7 / 3, rel=1e-12)
    assert not result.at_end
    grid = np.concatenate([np.linspace(0.0, D, 100001), Q, [D]])
    values = np.array([bottom_margin_average_at(A, B, C, N_PRIME, x) for x in grid])
    assert result.value == pytest.approx(values.max(), rel=1e-9)
    assert result.value >= values.max() - 1e-15


def _worst_quasiconcavity_violation(values: np.ndarray) -> float:
    """max over x of min(max_{y <= x} f, max_{y >= x} f) - f(x): 0 iff f has no interior dip."""
    left = np.maximum.accumulate(values)
    right = np.maximum.accumulate(values[::-1])[::-1]
    return float(np.max(np.minimum(left, right) - values))


def test_order_margin_is_multimodal_and_bottom_average_is_not():
    grid = np.linspace(0.0, D, 7001)
    order = np.array([margin_order_statistic(margins_at(x), N_PRIME) for x in grid])
    average = np.array([bottom_margin_average_at(A, B, C, N_PRIME, x) for x in grid])
    assert _worst_quasiconcavity_violation(average) <= 1e-12
    assert _worst_quasiconcavity_violation(order) > 0.02
    interior = (order[1:-1] > order[:-2]) & (order[1:-1] > order[2:])
    peaks = grid[1:-1][interior]
    assert peaks == pytest.approx([0.175, 0.3], abs=1e-4)  # q_2 and q_4; alpha = 0 is a third
    assert order[0] > order[1]


# --- Theorem 1: the zero-training-error region is a convex cone ---------------------------------


def _separable_pool(seed: int, n_examples: int = 40, n_classifiers: int = 20):
    rng = np.random.default_rng(seed)
    H = rng.choice([-1.0, 1.0], size=(n_examples, n_classifiers))
    w0 = rng.exponential(size=n_classifiers) * (rng.random(n_classifiers) < 0.5)
    w0[0] += 1.0  # not the zero vector
    scores = H @ w0
    assert np.all(scores != 0)
    return H, np.sign(scores)


def _in_zero_error_region(margin_matrix: np.ndarray, alpha: np.ndarray) -> bool:
    return bool(np.all(alpha >= 0) and np.any(alpha > 0) and np.all(margin_matrix @ alpha > 0))


def _point_of_zero_error_region(margin_matrix: np.ndarray, objective: np.ndarray) -> np.ndarray:
    """A vertex of {alpha >= 0 : y_i (H alpha)_i >= 1}: by scaling, Z is non-empty iff this LP
    is feasible; a positive objective keeps it bounded."""
    n_examples = margin_matrix.shape[0]
    lp = linprog(
        objective, A_ub=-margin_matrix, b_ub=-np.ones(n_examples), bounds=(0, None), method="highs"
    )
    assert lp.status == 0, lp.message
    return lp.x


@pytest.mark.parametrize("seed", range(6))
def test_theorem1_zero_error_region_is_a_convex_cone(seed):
    H, y = _separable_pool(seed)
    margin_matrix = y[:, None] * H
    rng = np.random.default_rng(1000 + seed)
    first = _point_of_zero_error_region(margin_matrix, rng.uniform(0.1, 1.0, H.shape[1]))
    # a second point in another direction, so that the segment between them is not one ray
    # (different objectives often share the optimal vertex: draw until they do not)
    for _ in range(20):
        second = _point_of_zero_error_region(margin_matrix, rng.uniform(0.1, 1.0, H.shape[1]))
        cosine = first @ second / (np.linalg.norm(first) * np.linalg.norm(second))
        if cosine < 1 - 1e-6:
            break
    assert cosine < 1 - 1e-6, "no second direction found"
    assert _in_zero_error_region(margin_matrix, first)
    assert _in_zero_error_region(margin_matrix, second)
    # not every direction is in Z: no single weak classifier separates the sample
    assert not any(_in_zero_error_region(margin_matrix, e) for e in np.eye(H.shape[1]))
    for scale in (1e-3, 1.0, 1e3):
        assert _in_zero_error_region(margin_matrix, scale * first)
    for t in np.linspace(0.0, 1.0, 101):
        assert _in_zero_error_region(margin_matrix, (1 - t) * first + t * second)
    assert _in_zero_error_region(margin_matrix, first + 7.0 * second)


def test_minimum_error_region_need_not_be_convex():
    """Two examples, both labelled +1, and three weak classifiers with outputs
    h1 = (-1, -1), h2 = (-1, +1), h3 = (+1, -1).  Example 1 is correct iff a3 > a1 + a2 and
    example 2 iff a2 > a1 + a3; both together would need a1 < 0, so the minimum training error
    is 1 of 2, reached on the union of two disjoint open cones.  The midpoint of one point from
    each has both margins strictly negative: the minimum-error region is not convex (unlike the
    zero-error region of Theorem 1, which the paper's statement concerns)."""
    y = np.array([1.0, 1.0])
    H = np.array([[-1.0, -1.0, 1.0], [-1.0, 1.0, -1.0]])
    margin_matrix = y[:, None] * H
    no_zero_error = linprog(
        np.ones(3), A_ub=-margin_matrix, b_ub=-np.ones(2), bounds=(0, None), method="highs"
    )
    assert no_zero_error.status == 2  # infeasible: Z is empty
    first, second = np.array([1.0, 0.0, 4.0]), np.array([1.0, 4.0, 0.0])
    assert np.count_nonzero(margin_matrix @ first <= 0) == 1
    assert np.count_nonzero(margin_matrix @ second <= 0) == 1
    middle = (first + second) / 2
    assert np.all(margin_matrix @ middle < 0)
    assert np.count_nonzero(margin_matrix @ middle <= 0) == 2
