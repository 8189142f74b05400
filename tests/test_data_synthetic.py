"""Synthetic generators: determinism and the defining properties of each construction."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from marginboost.data import long_servedio, mcboost_toy, ringnorm, twonorm, waveform
from marginboost.data.synthetic import waveform_base_waves

GENERATORS = [
    lambda seed: long_servedio(300, 5, seed=seed),
    lambda seed: long_servedio(300, 20, seed=seed),
    lambda seed: twonorm(300, seed=seed),
    lambda seed: ringnorm(300, seed=seed),
    lambda seed: waveform(300, seed=seed),
    lambda seed: waveform(300, seed=seed, binary=True),
    lambda seed: mcboost_toy(seed=seed),
]


@pytest.mark.parametrize("make", GENERATORS)
def test_same_seed_same_data_other_seed_other_data(make):
    a, b, c = make(7), make(7), make(8)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)


# (|A|, |B|, penalizer agreements in A, in B) of the two readings, written out
BLOCKS = {
    "first_block": lambda l: (2 * l + 1, 10, l, 6),
    "second_block": lambda l: (11, 2 * l, 5, l + 1),
}


@pytest.mark.parametrize("layout", sorted(BLOCKS))
@pytest.mark.parametrize("l", [5, 20])
def test_long_servedio_structure(l, layout):
    ds = long_servedio(4000, l, seed=1, layout=layout)
    size_a, size_b, in_a, in_b = BLOCKS[layout](l)
    assert size_a + size_b == 2 * l + 11
    assert ds.X.shape == (4000, 2 * l + 11)
    assert ds.meta["layout"] == layout
    assert set(np.unique(ds.X)) == {-1.0, 1.0}
    y = ds.y_signed()
    agree = ds.X * y[:, None] > 0  # coordinate equals the label
    kind = ds.meta["example_type"]
    assert agree[kind == 0].all()  # large margin
    pullers = agree[kind == 1]
    assert pullers[:, :size_a].all() and not pullers[:, size_a:].any()
    assert (agree[kind == 2][:, :size_a].sum(axis=1) == in_a).all()  # penalizers
    assert (agree[kind == 2][:, size_a:].sum(axis=1) == in_b).all()
    shares = np.bincount(kind, minlength=3) / len(kind)
    assert np.allclose(shares, [0.25, 0.25, 0.5], atol=0.03)  # 4000 draws: sd < 0.008
    assert abs(y.mean()) < 0.06
    # penalizers choose their agreeing coordinates uniformly: every coordinate is used
    assert agree[kind == 2].any(axis=0).all()


@pytest.mark.parametrize("l", [5, 20])
def test_long_servedio_plain_vote_margins_by_example_kind(l):
    """With equal weights 1 / (2l + 11) on every coordinate (the first-block reading) the
    normalized margin is 1 on large-margin examples, (2l - 9) / (2l + 11) on pullers and
    1 / (2l + 11) on penalizers: the noise-free data are separated by the majority vote of the
    coordinates with minimum normalized margin 1 / (2l + 11)."""
    ds = long_servedio(3000, l, seed=[3, l])
    d = 2 * l + 11
    margins = ds.y_signed() * ds.X.sum(axis=1) / d
    kind = ds.meta["example_type"]
    np.testing.assert_allclose(margins[kind == 0], 1.0)
    np.testing.assert_allclose(margins[kind == 1], (2 * l - 9) / d)
    np.testing.assert_allclose(margins[kind == 2], 1 / d)
    assert margins.min() == pytest.approx(1 / d)


def test_long_servedio_l5_is_the_21_coordinate_construction():
    """For l = 5 the generator is the 21-coordinate construction as the public R function
    ``dataLS`` (Zhu Wang) draws it: large-margin examples equal y everywhere, pullers equal y on
    coordinates 1-11 and -y on 12-21, penalizers equal y on 5 random coordinates of the first 11
    and 6 random coordinates of the last 10; types drawn with probabilities 1/4, 1/4, 1/2 and
    labels with 1/2 each."""
    ds = long_servedio(8000, 5, seed=11)
    y = ds.y_signed()
    agree = ds.X == y[:, None]
    kind = ds.meta["example_type"]
    assert ds.X.shape[1] == 21
    assert agree[kind == 0].all()
    assert agree[kind == 1][:, :11].all() and not agree[kind == 1][:, 11:].any()
    assert (agree[kind == 2][:, :11].sum(axis=1) == 5).all()
    assert (agree[kind == 2][:, 11:].sum(axis=1) == 6).all()
    # each penalizer coordinate agrees with probability 5/11 (first block) or 6/10 (last 10);
    # about 4000 penalizers: sd of a coordinate's share < 0.008
    share = agree[kind == 2].mean(axis=0)
    assert np.allclose(share[:11], 5 / 11, atol=0.04) and np.allclose(share[11:], 0.6, atol=0.04)
    # 8000 draws: sd of a type's share < 0.0056, of the share of +1 labels 0.0056
    assert np.allclose(np.bincount(kind, minlength=3) / kind.size, [0.25, 0.25, 0.5], atol=0.02)
    assert abs((y > 0).mean() - 0.5) < 0.02


def test_long_servedio_readings_coincide_for_l5():
    a = long_servedio(2000, 5, seed=[4, 2])
    b = long_servedio(2000, 5, seed=[4, 2], layout="second_block")
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
    assert np.array_equal(np.sign(a.X.sum(axis=1)), a.y_signed())


def _best_vote_margin(X, y):
    """max t with y_i x_i . w >= t, ||w||_1 = 1 (w = w+ - w-): an LP solved by HiGHS."""
    d = X.shape[1]
    signed = y[:, None] * X
    result = linprog(
        np.r_[np.zeros(2 * d), -1.0],
        A_ub=np.c_[-signed, signed, np.ones(len(y))],
        b_ub=np.zeros(len(y)),
        A_eq=np.r_[np.ones(2 * d), 0.0][None],
        b_eq=[1.0],
        bounds=[(0, None)] * (2 * d) + [(None, None)],
        method="highs",
    )
    assert result.status == 0
    return -result.fun


@pytest.mark.parametrize(
    ("l", "layout", "separable"),
    [(20, "first_block", True), (11, "second_block", False), (20, "second_block", False)],
)
def test_long_servedio_separability_of_the_readings(l, layout, separable):
    """The construction needs a vote of the coordinates that is right on every clean example:
    the first-block reading has one for every l >= 3 (the plain sum for l >= 5); the
    second-block reading has none from l = 11 on (best minimum margin 0)."""
    ds = long_servedio(1500, l, seed=[7, l], layout=layout)
    margin = _best_vote_margin(ds.X, ds.y_signed())
    if separable:
        assert margin > 0.01
        assert np.array_equal(np.sign(ds.X.sum(axis=1)), ds.y_signed())
    else:
        assert abs(margin) <= 1e-9


def test_long_servedio_rejects_an_unknown_layout():
    with pytest.raises(ValueError, match="layout must be one of"):
        long_servedio(10, 5, seed=0, layout="both")


def test_twonorm_class_means_are_plus_minus_a():
    ds = twonorm(40000, seed=0)
    a = 2 / np.sqrt(20)
    y = ds.y_signed()
    # per-coordinate mean of ~20000 unit-variance draws: sd 0.007
    assert np.allclose(ds.X[y == 1].mean(axis=0), a, atol=0.03)
    assert np.allclose(ds.X[y == -1].mean(axis=0), -a, atol=0.03)
    assert np.allclose(ds.X[y == 1].std(axis=0), 1.0, atol=0.03)


def test_ringnorm_variances_and_means():
    ds = ringnorm(40000, seed=0)
    y = ds.y_signed()
    assert np.allclose(ds.X[y == 1].var(axis=0), 4.0, atol=0.15)
    assert np.allclose(ds.X[y == -1].var(axis=0), 1.0, atol=0.05)
    assert np.allclose(ds.X[y == -1].mean(axis=0), 1 / np.sqrt(20), atol=0.03)
    assert np.allclose(ds.X[y == 1].mean(axis=0), 0.0, atol=0.05)


def test_waveform_class_means_follow_the_base_waves():
    ds = waveform(30000, seed=0)
    h = waveform_base_waves()
    assert h.shape == (3, 21) and h[0, 10] == 6 and h[1, 14] == 6 and h[2, 6] == 6
    for label, (i, j) in enumerate([(0, 1), (0, 2), (1, 2)]):
        expected = 0.5 * (h[i] + h[j])  # E[u] = 1/2, noise has mean 0
        assert np.allclose(ds.X[ds.y == label].mean(axis=0), expected, atol=0.1)
    assert np.allclose(np.bincount(ds.y) / ds.n_samples, 1 / 3, atol=0.02)
    binary = waveform(3000, seed=5, binary=True, positive_class=2)
    assert np.array_equal(binary.y_signed() == 1, binary.meta["three_class_label"] == 2)
    with pytest.raises(ValueError, match="positive_class"):
        waveform(10, seed=0, binary=True, positive_class=3)


def test_mcboost_toy_has_800_points_and_exact_noise():
    ds = mcboost_toy(seed=2)
    assert ds.X.shape == (800, 2)
    assert (np.abs(ds.X) <= 1).all()
    clean = ds.meta["clean_labels"]
    assert np.array_equal(clean, np.where((ds.X**2).sum(axis=1) < 2 / np.pi, 1, -1))
    assert (clean != ds.y_signed()).sum() == 80


@pytest.mark.parametrize("bad", [0, -5, 2.5])
def test_bad_sizes_are_rejected(bad):
    with pytest.raises(ValueError, match="n_samples"):
        twonorm(bad, seed=0)
    with pytest.raises(ValueError):
        long_servedio(10, bad, seed=0)
