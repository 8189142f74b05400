"""Input checks of the duality package: what a user is told about bad labels, weights and
arguments (the value named in the message is the offending one)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from marginboost.duality import build_adaboost_l1_primal, log_sum_exp, numeric_conjugate_vector
from marginboost.duality.conjugates import numeric_conjugate
from marginboost.duality.entropy import q_logarithm, shannon_entropy, tsallis_entropy


def test_bad_labels_are_named_with_the_first_offending_index():
    H = np.ones((4, 2))
    with pytest.raises(
        ValueError, match=r"labels y must be -1 or \+1; got (np\.float64\()?0\.0\)? at index 1"
    ):
        build_adaboost_l1_primal(H, [1, 0, 2, -1], T=0.5)


def test_non_finite_weights_are_listed():
    with pytest.raises(ValueError, match=r"weights u must be finite; got \[nan, inf\]"):
        shannon_entropy([0.2, np.nan, 0.3, np.inf])


def test_q_logarithm_names_the_first_value_that_is_not_positive():
    with pytest.raises(ValueError, match=r"q_logarithm needs x > 0; got (np\.float64\()?-1\.0\b"):
        q_logarithm([0.5, -1.0, 2.0], 0.5)


def test_simplex_tolerance_scales_with_the_vector_length_not_the_stack_size():
    """A stack of 2 probability vectors of length 40: the sums may be off by up to
    tolerance * 40 (the rounding of a 40-term sum), whatever the number of vectors."""
    u = np.full((2, 40), 1.0 / 40)
    u[:, 0] += 20 * 1e-9  # sums off by 2e-8: within 1e-9 * 40, beyond 1e-9 * 2
    values = tsallis_entropy(u, 2.0, tolerance=1e-9)
    assert np.shape(values) == (2,)
    u[:, 0] += 30 * 1e-9  # off by 5e-8: beyond 1e-9 * 40
    with pytest.raises(ValueError, match="must sum to 1"):
        tsallis_entropy(u, 2.0, tolerance=1e-9)


def test_numeric_conjugate_options_are_keyword_only():
    parameters = inspect.signature(numeric_conjugate).parameters
    for name in ("bounds", "x0", "search_radius", "slope_tolerance"):
        assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY
    with pytest.raises(TypeError):
        numeric_conjugate(np.square, 1.0, (None, None))


def test_log_sum_exp_refuses_empty_vectors_in_a_stack():
    for shape in [(0,), (2, 0)]:
        with pytest.raises(ValueError, match="needs a non-empty vector"):
            log_sum_exp(np.zeros(shape))


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_vector_conjugate_treats_points_outside_the_domain_as_infeasible():
    """x log x is NaN for x < 0: the search treats such points as -inf, and the conjugate of
    the negative entropy is sum_i exp(u_i - 1)."""
    u = np.array([0.3, -0.2])

    def negative_entropy(x):
        with np.errstate(all="ignore"):
            return float(np.sum(x * np.log(x)))

    value = numeric_conjugate_vector(negative_entropy, u, x0=[0.5, 0.5])
    assert value == pytest.approx(np.exp(u - 1.0).sum(), rel=1e-9)


@pytest.mark.parametrize("solver", [123, "", None])
def test_a_solver_that_is_not_a_name_is_refused(solver):
    from marginboost.duality import verify_adaboost_l1

    H, y = np.array([[1.0, -1.0], [1.0, 1.0]]), np.array([1.0, -1.0])
    with pytest.raises(TypeError, match="solver must be a cvxpy solver name"):
        verify_adaboost_l1(H, y, 0.5, solver=solver)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0)])
def test_an_empty_hypothesis_matrix_is_refused(shape):
    y = np.ones(shape[0])
    with pytest.raises(ValueError, match=r"H must be a non-empty 2-D array"):
        build_adaboost_l1_primal(np.zeros(shape), y, 0.5)


def test_shannon_entropy_clips_rounding_below_zero_and_rejects_real_negatives():
    """An entry a rounding error below 0 counts as 0 (0 log 0 = 0; 0^q = 0 for Tsallis); a
    clearly negative entry is not a probability and is rejected with the interval it must lie
    in."""
    nearly = [0.5, 0.5 + 1e-13, -1e-13]
    assert shannon_entropy(nearly) == pytest.approx(np.log(2.0), rel=1e-12)
    assert tsallis_entropy(nearly, 2.0) == pytest.approx(0.5, rel=1e-12)  # 1 - 2 * 0.5^2
    assert tsallis_entropy(nearly, 0.5) == pytest.approx(2 * (np.sqrt(2.0) - 1), rel=1e-9)
    for entropy in (shannon_entropy, lambda u: tsallis_entropy(u, 2.0)):
        with pytest.raises(ValueError, match=r"must lie in \[0, inf\]"):
            entropy([0.75, 0.75, -0.5])


def test_shannon_entropy_takes_u_by_name_and_tolerance_only_by_name():
    """``u`` may be passed by keyword; ``tolerance`` is keyword-only."""
    assert shannon_entropy(u=[0.25, 0.75]) == shannon_entropy([0.25, 0.75])
    with pytest.raises(TypeError):
        shannon_entropy([0.25, 0.75], 1e-9)


def test_bottom_average_identity_bounds_n_bottom_by_the_examples():
    """n' counts examples (rows of H), 1..M, also when there are more weak learners (columns)
    than examples."""
    from marginboost.duality import bottom_average_identity

    H = np.array([[1.0, -1.0, 1.0, 1.0], [-1.0, 1.0, 1.0, -1.0]])
    y = np.array([1, -1])
    assert bottom_average_identity(H, y, n_bottom=2).difference < 1e-6
    with pytest.raises(ValueError, match=r"n_bottom must be an integer in \[1, M=2\]; got 3"):
        bottom_average_identity(H, y, n_bottom=3)
