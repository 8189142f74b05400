"""Tests of marginboost.losses: values, derivatives, Lipschitz constants, conjugates, registry."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marginboost.losses import (
    LOSSES,
    ExponentialLoss,
    FunctionMarginCost,
    GeneralizedHingeLoss,
    HingeLoss,
    LogisticLoss,
    MadaBoostLoss,
    MarginCost,
    NormalizedSigmoidLoss,
    SquaredHingeLoss,
    SquaredLoss,
    ZeroOneLoss,
    get_loss,
)

LOG2 = math.log(2.0)
E = math.e

# c(-1), c(0), c(1), computed by hand from the formulas.
KNOWN_VALUES = [
    (ExponentialLoss(), [E, 1.0, 1.0 / E]),
    (LogisticLoss(), [math.log(1 + E), LOG2, math.log(1 + 1 / E)]),
    (HingeLoss(), [2.0, 1.0, 0.0]),
    (SquaredHingeLoss(), [4.0, 1.0, 0.0]),
    (GeneralizedHingeLoss(p=3), [8.0, 1.0, 0.0]),
    (GeneralizedHingeLoss(p=1.5), [2.0**1.5, 1.0, 0.0]),
    (SquaredLoss(), [4.0, 1.0, 0.0]),
    (NormalizedSigmoidLoss(steepness=1.0), [1 + math.tanh(1.0), 1.0, 1 - math.tanh(1.0)]),
    (NormalizedSigmoidLoss(steepness=2.5), [1 + math.tanh(2.5), 1.0, 1 - math.tanh(2.5)]),
    (MadaBoostLoss(), [2.0, 1.0, 1.0 / E]),
    (ZeroOneLoss(), [1.0, 1.0, 0.0]),
]

DIFFERENTIABLE = [
    ExponentialLoss(),
    LogisticLoss(),
    HingeLoss(),
    SquaredHingeLoss(),
    GeneralizedHingeLoss(p=1.5),
    GeneralizedHingeLoss(p=3),
    SquaredLoss(),
    NormalizedSigmoidLoss(steepness=1.0),
    NormalizedSigmoidLoss(steepness=3.0),
    MadaBoostLoss(),
]
CONVEX = [
    ExponentialLoss(),
    LogisticLoss(),
    HingeLoss(),
    SquaredHingeLoss(),
    GeneralizedHingeLoss(p=1.5),
    GeneralizedHingeLoss(p=4),
    SquaredLoss(),
    MadaBoostLoss(),
]


def _ids(losses):
    return [repr(loss) for loss in losses]


@pytest.mark.parametrize(("loss", "expected"), KNOWN_VALUES, ids=_ids([k[0] for k in KNOWN_VALUES]))
def test_values_at_known_margins(loss, expected):
    np.testing.assert_allclose(loss.value(np.array([-1.0, 0.0, 1.0])), expected, rtol=1e-14, atol=0)
    assert float(loss(0.0)) == pytest.approx(expected[1], rel=1e-14)


@pytest.mark.parametrize("loss", DIFFERENTIABLE, ids=_ids(DIFFERENTIABLE))
def test_derivatives_match_central_differences(loss):
    # Points avoid the kinks at m = 0 (MadaBoost's c'') and m = 1 (hinge family).
    m = np.array([-2.3, -1.1, -0.4, 0.3, 0.7, 1.4, 2.9])
    h = 1e-6
    fd1 = (loss.value(m + h) - loss.value(m - h)) / (2 * h)
    np.testing.assert_allclose(loss.derivative(m), fd1, rtol=1e-6, atol=1e-8)
    fd2 = (loss.derivative(m + h) - loss.derivative(m - h)) / (2 * h)
    np.testing.assert_allclose(loss.second_derivative(m), fd2, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "loss",
    [HingeLoss(), SquaredHingeLoss(), GeneralizedHingeLoss(p=3)],
    ids=["hinge", "squared_hinge", "hinge^3"],
)
def test_derivative_at_kink_is_left_limit(loss):
    left = loss.derivative(1.0 - 1e-12)
    assert float(loss.derivative(1.0)) == pytest.approx(float(left), abs=1e-9)
    assert float(loss.derivative(1.0 + 1e-12)) == 0.0


def test_madaboost_weights_are_capped_exponential_weights():
    m = np.linspace(-4, 4, 81)
    np.testing.assert_allclose(
        -MadaBoostLoss().derivative(m), np.minimum(1.0, np.exp(-m)), rtol=1e-15
    )
    # continuous and C^1 at the junction m = 0
    assert float(MadaBoostLoss().value(-1e-12)) == pytest.approx(1.0, abs=1e-11)
    assert float(MadaBoostLoss().value(1e-12)) == pytest.approx(1.0, abs=1e-11)


def test_normalized_sigmoid_matches_tanh_and_stays_accurate_in_tails():
    loss = NormalizedSigmoidLoss(steepness=2.0)
    m = np.linspace(-3, 3, 61)
    np.testing.assert_allclose(loss.value(m), 1 - np.tanh(2 * m), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(
        loss.derivative(m), -2.0 / np.cosh(2 * m) ** 2, rtol=1e-12, atol=1e-15
    )
    # 1 - tanh(40) underflows to 0 with naive evaluation; 2 e^{-80} is the exact tail.
    assert float(loss.value(20.0)) == pytest.approx(2 * math.exp(-80.0), rel=1e-12)


def test_logistic_is_numerically_stable():
    loss = LogisticLoss()
    with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
        values = loss.value(np.array([-1000.0, 1000.0, 40.0]))
        derivs = loss.derivative(np.array([-1000.0, 1000.0]))
    assert values[0] == pytest.approx(1000.0)
    assert values[2] == pytest.approx(math.exp(-40.0), rel=1e-12)
    np.testing.assert_allclose(derivs, [-1.0, 0.0], atol=1e-300)


LIPSCHITZ = [
    (LogisticLoss(), 0.25),
    (SquaredHingeLoss(), 2.0),
    (GeneralizedHingeLoss(p=2), 2.0),
    (SquaredLoss(), 2.0),
    (MadaBoostLoss(), 1.0),
    (NormalizedSigmoidLoss(steepness=1.0), 4 / (3 * math.sqrt(3))),
    (NormalizedSigmoidLoss(steepness=3.0), 9 * 4 / (3 * math.sqrt(3))),
]


@pytest.mark.parametrize(("loss", "expected"), LIPSCHITZ, ids=_ids([k[0] for k in LIPSCHITZ]))
def test_lipschitz_constant_is_sup_of_second_derivative(loss, expected):
    assert loss.lipschitz_constant == pytest.approx(expected, rel=1e-12)
    m = np.linspace(-10, 10, 400_001)
    sup = np.max(np.abs(loss.second_derivative(m)))
    assert sup <= expected * (1 + 1e-12)
    assert sup == pytest.approx(expected, rel=1e-4)  # grid spacing 5e-5


@pytest.mark.parametrize(
    "loss",
    [
        ExponentialLoss(),
        HingeLoss(),
        GeneralizedHingeLoss(p=1.5),
        GeneralizedHingeLoss(p=3),
        ZeroOneLoss(),
    ],
    ids=["exp", "hinge", "hinge^1.5", "hinge^3", "zero_one"],
)
def test_lipschitz_constant_none_when_derivative_not_lipschitz(loss):
    assert loss.lipschitz_constant is None


@pytest.mark.parametrize("loss", CONVEX, ids=_ids(CONVEX))
def test_convex_losses_satisfy_midpoint_convexity(loss):
    assert loss.is_convex
    a, b = np.meshgrid(np.linspace(-3, 3, 41), np.linspace(-3, 3, 41))
    assert np.all(loss.value((a + b) / 2) <= (loss.value(a) + loss.value(b)) / 2 + 1e-12)


@pytest.mark.parametrize(
    "loss", [NormalizedSigmoidLoss(), ZeroOneLoss()], ids=["sigmoid", "zero_one"]
)
def test_nonconvex_losses_are_flagged_and_violate_convexity(loss):
    assert not loss.is_convex
    a, b = np.meshgrid(np.linspace(-3, 3, 41), np.linspace(-3, 3, 41))
    assert np.any(loss.value((a + b) / 2) > (loss.value(a) + loss.value(b)) / 2 + 1e-6)


def test_generalized_hinge_with_p2_equals_squared_hinge():
    g, s = GeneralizedHingeLoss(p=2), SquaredHingeLoss()
    m = np.linspace(-3, 3, 61)
    u = np.linspace(-1, 5, 61)
    for method in ("value", "derivative", "second_derivative"):
        np.testing.assert_allclose(getattr(g, method)(m), getattr(s, method)(m), rtol=1e-14)
    np.testing.assert_allclose(g.conjugate(u), s.conjugate(u), rtol=1e-14)
    assert g.dual_exponent == 2.0


def test_generalized_hinge_constant_matches_shen_li_eq_28():
    # (p^{1-q} - p^{-q}) = (1/q) p^{1-q}; for p = 2 it is 1/4 (eq. 27 with D = 1).
    for p in (1.5, 2.0, 3.0, 7.0):
        q = p / (p - 1)
        u = 0.7
        conj = float(GeneralizedHingeLoss(p=p).conjugate(u))
        assert conj == pytest.approx(-u + (1 / q) * p ** (1 - q) * u**q, rel=1e-13)


@pytest.mark.parametrize("loss", CONVEX, ids=_ids(CONVEX))
@settings(max_examples=60, deadline=None)
@given(m=st.floats(-4, 4), u=st.floats(-3, 6))
def test_fenchel_young_inequality_and_equality(loss, m, u):
    # g(z) + g*(u) >= u z with z = -m, equality at u = g'(z) = -c'(m).
    conj = float(loss.conjugate(u))
    assert float(loss.value(m)) + conj >= -u * m - 1e-9
    u_star = -float(loss.derivative(m))
    lhs = float(loss.value(m)) + float(loss.conjugate(u_star))
    assert lhs == pytest.approx(-u_star * m, abs=1e-9)


def test_conjugate_domains():
    u = np.array([-0.5, 0.0, 0.5, 1.0, 1.5])
    inf = np.inf
    np.testing.assert_array_equal(np.isinf(ExponentialLoss().conjugate(u)), [1, 0, 0, 0, 0])
    np.testing.assert_array_equal(np.isinf(LogisticLoss().conjugate(u)), [1, 0, 0, 0, 1])
    np.testing.assert_array_equal(np.isinf(HingeLoss().conjugate(u)), [1, 0, 0, 0, 1])
    np.testing.assert_array_equal(np.isinf(MadaBoostLoss().conjugate(u)), [1, 0, 0, 0, 1])
    assert np.all(np.isfinite(SquaredLoss().conjugate(u)))
    np.testing.assert_array_equal(NormalizedSigmoidLoss().conjugate(u), [inf, 0.0, inf, inf, inf])
    np.testing.assert_array_equal(ZeroOneLoss().conjugate(u), [inf, 0.0, inf, inf, inf])
    assert float(ExponentialLoss().conjugate(0.0)) == 0.0  # 0 log 0 = 0


def test_logistic_margin_conjugate_is_shen_li_logit_star():
    v = np.linspace(-1, 0, 11)
    expected = np.where(v < 0, -v * np.log(np.where(v < 0, -v, 1)), 0) + np.where(
        v > -1, (1 + v) * np.log(np.where(v > -1, 1 + v, 1)), 0
    )
    np.testing.assert_allclose(LogisticLoss().margin_conjugate(v), expected, atol=1e-15)
    assert np.isinf(LogisticLoss().margin_conjugate(0.1))
    assert np.isinf(LogisticLoss().margin_conjugate(-1.1))


def test_shapes_are_preserved():
    m = np.linspace(-1, 1, 12).reshape(3, 4)
    for cls in LOSSES.values():
        assert cls().value(m).shape == (3, 4)
    assert np.ndim(ExponentialLoss().value(0.5)) == 0
    assert np.ndim(ExponentialLoss().conjugate(0.5)) == 0


def test_zero_one_loss_has_no_derivative():
    with pytest.raises(NotImplementedError, match="0-1 loss"):
        ZeroOneLoss().derivative(0.3)


@pytest.mark.parametrize("p", [1, 1.0, 0.5, -2, float("nan"), float("inf")])
def test_generalized_hinge_rejects_bad_exponent(p):
    with pytest.raises(ValueError, match="p must be finite and > 1"):
        GeneralizedHingeLoss(p=p)


def test_generalized_hinge_p1_points_to_hinge():
    with pytest.raises(ValueError, match="hinge"):
        get_loss("generalized_hinge", p=1)
    with pytest.raises(TypeError, match="real number"):
        GeneralizedHingeLoss(p="2")


@pytest.mark.parametrize("steepness", [0, -1.0, float("nan")])
def test_sigmoid_rejects_bad_steepness(steepness):
    with pytest.raises(ValueError, match="steepness"):
        NormalizedSigmoidLoss(steepness=steepness)


def test_non_numeric_margins_raise():
    with pytest.raises(TypeError, match="margins must be real numbers"):
        ExponentialLoss().value(["a", "b"])


def test_registry_and_get_loss():
    assert set(LOSSES) >= {
        "exponential",
        "logistic",
        "hinge",
        "squared_hinge",
        "generalized_hinge",
        "squared",
        "normalized_sigmoid",
        "madaboost",
        "zero_one",
    }
    for name, cls in LOSSES.items():
        assert cls.name == name
        assert isinstance(get_loss(name), cls)
    assert get_loss("Squared-Hinge") == SquaredHingeLoss()
    assert get_loss("generalized_hinge", p=3) == GeneralizedHingeLoss(p=3.0)
    assert get_loss("normalized_sigmoid", steepness=2).steepness == 2.0
    loss = LogisticLoss()
    assert get_loss(loss) is loss


def test_get_loss_errors_are_clear():
    with pytest.raises(ValueError, match="unknown loss 'savage'.*exponential"):
        get_loss("savage")
    with pytest.raises(TypeError, match=r"unexpected parameter\(s\) \['p'\].*no parameters"):
        get_loss("hinge", p=2)
    with pytest.raises(TypeError, match="parameters are: p"):
        get_loss("generalized_hinge", q=2)
    with pytest.raises(TypeError, match="registry name"):
        get_loss(3)
    with pytest.raises(TypeError, match="cannot be applied"):
        get_loss(HingeLoss(), p=2)


def test_formulas_are_latex_strings():
    for cls in LOSSES.values():
        assert isinstance(cls().formula, str) and cls().formula
    assert "^{3}" in GeneralizedHingeLoss(p=3).formula
    assert "2.5" in NormalizedSigmoidLoss(steepness=2.5).formula


@dataclass(frozen=True)
class CubicHinge(MarginCost):
    name = "cubic_hinge"
    formula = r"\max\{0, 1-m\}^3"
    is_convex = True

    def value(self, m):
        return np.maximum(0.0, 1.0 - np.asarray(m, dtype=float)) ** 3

    def derivative(self, m):
        return -3.0 * np.maximum(0.0, 1.0 - np.asarray(m, dtype=float)) ** 2


def test_user_defined_subclass_agrees_with_builtin():
    m = np.linspace(-2, 2, 21)
    np.testing.assert_allclose(
        CubicHinge().value(m), GeneralizedHingeLoss(p=3).value(m), rtol=1e-14
    )
    np.testing.assert_allclose(CubicHinge().negative_margin_form(-m), CubicHinge().value(m))
    with pytest.raises(NotImplementedError, match="cubic_hinge"):
        CubicHinge().conjugate(0.5)
    with pytest.raises(NotImplementedError, match="second derivative"):
        CubicHinge().second_derivative(0.5)


def test_function_margin_cost():
    cost = FunctionMarginCost(
        "exp2",
        lambda m: np.exp(-2 * m),
        derivative_function=lambda m: -2 * np.exp(-2 * m),
        convex=True,
        cost_formula="e^{-2m}",
    )
    assert cost.name == "exp2" and cost.is_convex and cost.formula == "e^{-2m}"
    assert float(cost.value(0.5)) == pytest.approx(math.exp(-1.0))
    assert float(cost.derivative(0.0)) == -2.0
    assert cost.lipschitz_constant is None
    with pytest.raises(NotImplementedError, match="second_derivative_function"):
        cost.second_derivative(0.0)
    with pytest.raises(TypeError, match="callable"):
        FunctionMarginCost("bad", 3.0)


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_every_loss_is_an_immutable_hashable_value(name):
    """Losses are frozen dataclasses: equal parameters give equal, hashable objects (usable as
    cache keys), and their parameters cannot be changed after construction."""
    import dataclasses

    first, second = LOSSES[name](), LOSSES[name]()
    assert first == second and hash(first) == hash(second)
    assert len({first, second}) == 1
    fields = dataclasses.fields(first)
    target = fields[0].name if fields else "formula"
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(first, target, 1.0)
