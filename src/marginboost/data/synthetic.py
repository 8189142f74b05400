"""Synthetic data sets used by the reproduced papers, with exact definitions.

All generators take an explicit ``seed`` (anything :func:`numpy.random.default_rng` accepts)
and return a :class:`~marginboost.data.dataset.Dataset`.  Binary generators use the classes
``[-1, 1]``, so :meth:`Dataset.y_signed` gives the labels of the definitions below.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .dataset import Dataset

__all__ = ["long_servedio", "twonorm", "ringnorm", "waveform", "mcboost_toy", "LONG_SERVEDIO_CORE"]

#: Size of the first block of Long-Servedio coordinates for ``l = 5`` (and for every ``l`` in the
#: ``"second_block"`` reading; the vector length is ``2l + 11``).
LONG_SERVEDIO_CORE = 11

#: The two readings of "vectors of length 2l + 11": (|A|, |B|, penalizer agreements in A, in B).
_LS_LAYOUTS = {
    "first_block": lambda l: (2 * l + 1, 2 * 5, l, 5 + 1),
    "second_block": lambda l: (LONG_SERVEDIO_CORE, 2 * l, 5, l + 1),
}

#: Code of the three Long-Servedio example types in ``meta["example_type"]``.
_LS_TYPES = ("large_margin", "puller", "penalizer")


def _rng(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def _check_n(n_samples: int) -> int:
    if int(n_samples) != n_samples or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer, got {n_samples!r}")
    return int(n_samples)


def _binary(
    name: str,
    X: np.ndarray,
    y_signed: np.ndarray,
    meta: dict,
    feature_names: list[str] | None = None,
) -> Dataset:
    names = feature_names or [f"x{i}" for i in range(1, X.shape[1] + 1)]
    return Dataset(name, X, (y_signed > 0).astype(np.int64), names, np.array([-1, 1]), meta)


def long_servedio(n_samples: int, l: int = 5, *, seed, layout: str = "first_block") -> Dataset:
    r"""Boolean-feature version of the Long & Servedio (2010) construction.

    Long & Servedio, "Random classification noise defeats all convex potential boosters",
    *Machine Learning* 78:287-304 (2010), build a distribution on which every convex potential
    booster fails under random label noise although a weighted vote of the coordinates is
    perfect on clean data.  DirectBoost (Zhai et al., NIPS 2013, Table 3) reruns it with
    binary vectors of length :math:`2l + 11`, :math:`l \in \{5, 20\}`.

    Definition used here (coordinates are the weak classifiers :math:`h_j(x) = x_j`):

    * the label :math:`y \in \{-1, +1\}` is drawn with probability 1/2 each;
    * coordinates are split into a first block :math:`A` and a second block :math:`B`;
    * with probability 1/4 the example is the **large-margin** example: :math:`x_j = y` for
      all :math:`j`;
    * with probability 1/4 it is a **puller**: :math:`x_j = y` on :math:`A`, :math:`x_j = -y`
      on :math:`B`;
    * with probability 1/2 it is a **penalizer**: a minority of :math:`A` and a majority of
      :math:`B` (one more than half), chosen uniformly at random, equal :math:`y`; the others
      equal :math:`-y`.

    For :math:`l = 5` (21 coordinates, :math:`|A| = 11`, :math:`|B| = 10`) this is the
    boolean construction (pullers: 11 agreeing and 10 disagreeing coordinates; penalizers: 5
    of the first 11 and 6 of the last 10 agree; probabilities 1/4, 1/4, 1/2), and
    :math:`\operatorname{sign}(\sum_j x_j) = y` on every example.  DirectBoost states only
    the length :math:`2l + 11`; which block grows with :math:`l` is not stated, and
    ``layout`` picks one of the two readings (both give the same data for :math:`l = 5`,
    draw for draw):

    ``"first_block"`` (default)
        :math:`|A| = 2l + 1`, :math:`|B| = 10`; penalizers agree on :math:`l` coordinates of
        :math:`A` and 6 of :math:`B`.  A puller's vote is :math:`(2l + 1) - 10` and a
        penalizer's :math:`-1 + 2`, so the plain vote of the coordinates classifies every
        example correctly for every :math:`l \ge 5`, as the construction requires.
    ``"second_block"``
        :math:`|A| = 11`, :math:`|B| = 2l`; penalizers agree on 5 coordinates of :math:`A` and
        :math:`l + 1` of :math:`B`.  Not linearly separable for :math:`l \ge 11` (a puller
        needs :math:`11 w_A > 2l\,w_B`, a penalizer :math:`2 w_B > w_A`, with equal weights
        within the blocks), so for :math:`l = 20` it cannot be the paper's data, on which every
        method reaches 0% clean error (see the Table 3 notebook).

    Label noise is *not* applied here; use :func:`marginboost.data.noise.flip_labels` on the
    training part (DirectBoost: 1000 noisy training examples, clean validation and test sets of
    5000 each).

    **Sources.**  The :math:`l = 5` case is, rule for rule, the 21-coordinate construction of the
    public R function ``dataLS`` by Zhu Wang ("generate random data for classification as in
    Long and Servedio (2010)"): labels :math:`\pm 1` with probability 1/2 each; large-margin
    examples, pullers and penalizers with probabilities 1/4, 1/4, 1/2; pullers equal to
    :math:`y` on coordinates 1-11 and to :math:`-y` on 12-21; penalizers equal to :math:`y` on 5
    random coordinates among the first 11 and 6 among the last 10, :math:`-y` elsewhere; the
    sign of the coordinate sum classifies every clean example; label noise only on the
    training labels (``dataLS`` also flips its tuning labels; DirectBoost keeps its validation
    set clean, as the Table 3 protocol here does).  We could not consult Long & Servedio's own
    statement of the binary-feature version, so the growth with :math:`l` (the two readings
    below) is our reading of DirectBoost's "binary vectors of length :math:`2l + 11`", not a
    quotation of theirs.

    Parameters
    ----------
    n_samples
        Number of examples.
    l
        Size parameter; the vectors have ``2 * l + 11`` coordinates (``l >= 1``).
    seed
        Seed or :class:`numpy.random.Generator`.
    layout
        Which block grows with ``l``: ``"first_block"`` (default; separable for ``l >= 3``)
        or ``"second_block"`` (see above).

    Returns
    -------
    Dataset
        ``X`` in ``{-1, +1}``, classes ``[-1, 1]``; ``meta["example_type"]`` holds 0
        (large margin), 1 (puller) or 2 (penalizer) per row.

    Raises
    ------
    ValueError
        If ``n_samples`` or ``l`` is not a positive integer, or ``layout`` is not one of the
        two readings.

    References
    ----------
    Long, P. M. and Servedio, R. A. (2010). Random classification noise defeats all convex
    potential boosters. *Machine Learning* 78:287-304.

    Wang, Z. R function ``dataLS``, "generate random data for classification as in Long and
    Servedio (2010)" (public source code; its 21-coordinate construction is the ``l = 5`` case
    here).

    Zhai, S., Xia, T., Tan, M. and Wang, S. (2013). Direct 0-1 loss minimization and margin
    maximization with boosting. *Advances in Neural Information Processing Systems 26*.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.data import long_servedio
    >>> ds = long_servedio(200, l=5, seed=0)
    >>> ds.name, ds.X.shape, np.unique(ds.X).tolist()
    ('long_servedio_l5', (200, 21), [-1.0, 1.0])
    >>> bool(np.all(np.sign(ds.X.sum(axis=1)) == ds.y_signed()))  # the plain vote is perfect
    True
    >>> sorted(set(ds.meta["example_type"].tolist()))
    [0, 1, 2]
    >>> wide = long_servedio(200, l=20, seed=0)
    >>> wide.X.shape, bool(np.all(np.sign(wide.X.sum(axis=1)) == wide.y_signed()))
    ((200, 51), True)
    """
    n = _check_n(n_samples)
    if int(l) != l or l < 1:
        raise ValueError(f"l must be a positive integer, got {l!r}")
    l = int(l)
    if layout not in _LS_LAYOUTS:
        raise ValueError(f"layout must be one of {sorted(_LS_LAYOUTS)}, got {layout!r}")
    # sizes of the blocks A and B and how many of each a penalizer agrees with
    size_a, size_b, agree_in_a, agree_in_b = _LS_LAYOUTS[layout](l)
    rng = _rng(seed)
    d = size_a + size_b
    y = rng.choice(np.array([-1, 1]), size=n)
    kind = rng.choice(3, size=n, p=[0.25, 0.25, 0.5])
    pattern = np.ones((n, d))
    pattern[kind == 1, size_a:] = -1.0
    penalizers = np.flatnonzero(kind == 2)
    if penalizers.size:
        pattern[penalizers] = -1.0
        # random subsets via argsort of uniform keys: the first k positions of a random order
        keys_a = rng.random((penalizers.size, size_a))
        keys_b = rng.random((penalizers.size, size_b))
        agree_a = np.argsort(keys_a, axis=1)[:, :agree_in_a]
        agree_b = size_a + np.argsort(keys_b, axis=1)[:, :agree_in_b]
        rows = penalizers[:, None]
        pattern[rows, agree_a] = 1.0
        pattern[rows, agree_b] = 1.0
    X = pattern * y[:, None]
    meta = {
        "generator": "long_servedio",
        "l": l,
        "layout": layout,
        "seed": repr(seed),
        "example_type": kind,
        "example_type_names": list(_LS_TYPES),
        "citation": "Long & Servedio (2010), Machine Learning 78:287-304; "
        "Zhai et al. (2013), NIPS, Table 3",
    }
    return _binary(f"long_servedio_l{l}", X, y, meta)


def twonorm(n_samples: int, *, n_features: int = 20, seed) -> Dataset:
    r"""Breiman's *twonorm*: two Gaussians with opposite means.

    Breiman, "Bias, variance, and arcing classifiers", TR 460, UC Berkeley (1996): class
    :math:`+1` is :math:`N(\mu, I)` and class :math:`-1` is :math:`N(-\mu, I)` with
    :math:`\mu = (a, \dots, a)`, :math:`a = 2/\sqrt{20}` (``n_features = 20``); classes are
    equally likely.  The Bayes error is about 2.3%.

    Parameters
    ----------
    n_samples : int
        Number of examples.
    n_features : int, optional
        Dimension (default 20, Breiman's).  The mean coordinate :math:`a = 2/\sqrt{20}` does
        not change with it.
    seed : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    Dataset
        Named ``"twonorm"``, classes ``[-1, 1]``, feature names ``x1, x2, ...``;
        ``meta["a"]`` is the mean coordinate.

    Raises
    ------
    ValueError
        If ``n_samples`` is not a positive integer.

    References
    ----------
    Breiman, L. (1996). Bias, variance, and arcing classifiers. Technical Report 460,
    Statistics Department, University of California, Berkeley.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.data import twonorm
    >>> ds = twonorm(1000, seed=0)
    >>> ds.X.shape, ds.classes.tolist()
    ((1000, 20), [-1, 1])
    >>> error = np.mean(np.sign(ds.X.sum(axis=1)) != ds.y_signed())  # the Bayes rule
    >>> bool(error < 0.05)
    True
    """
    n = _check_n(n_samples)
    rng = _rng(seed)
    a = 2.0 / np.sqrt(20.0)
    y = rng.choice(np.array([-1, 1]), size=n)
    X = rng.standard_normal((n, n_features)) + a * y[:, None]
    return _binary(
        "twonorm",
        X,
        y,
        {"generator": "twonorm", "a": a, "seed": repr(seed), "citation": "Breiman (1996), TR 460"},
    )


def ringnorm(n_samples: int, *, n_features: int = 20, seed) -> Dataset:
    r"""Breiman's *ringnorm*: a wide Gaussian inside a narrow shifted one.

    Breiman (1996), TR 460: class :math:`+1` is :math:`N(0, 4I)` and class :math:`-1` is
    :math:`N(\mu, I)` with :math:`\mu = (a, \dots, a)`, :math:`a = 1/\sqrt{20}`; classes are
    equally likely.  The Bayes error is about 1.3%.

    Parameters
    ----------
    n_samples : int
        Number of examples.
    n_features : int, optional
        Dimension (default 20, Breiman's).  The mean coordinate :math:`a = 1/\sqrt{20}` does
        not change with it.
    seed : int or numpy.random.Generator
        Seed or generator.

    Returns
    -------
    Dataset
        Named ``"ringnorm"``, classes ``[-1, 1]``, feature names ``x1, x2, ...``;
        ``meta["a"]`` is the mean coordinate of class :math:`-1`.

    Raises
    ------
    ValueError
        If ``n_samples`` is not a positive integer.

    References
    ----------
    Breiman, L. (1996). Bias, variance, and arcing classifiers. Technical Report 460,
    Statistics Department, University of California, Berkeley.

    Examples
    --------
    >>> from marginboost.data import ringnorm
    >>> ds = ringnorm(1000, seed=0)
    >>> ds.X.shape, ds.classes.tolist()
    ((1000, 20), [-1, 1])
    >>> y = ds.y_signed()
    >>> round(float(ds.X[y > 0].std()), 1), round(float(ds.X[y < 0].std()), 1)
    (2.0, 1.0)
    """
    n = _check_n(n_samples)
    rng = _rng(seed)
    a = 1.0 / np.sqrt(20.0)
    y = rng.choice(np.array([-1, 1]), size=n)
    X = np.where(
        (y > 0)[:, None],
        2.0 * rng.standard_normal((n, n_features)),
        a + rng.standard_normal((n, n_features)),
    )
    return _binary(
        "ringnorm",
        X,
        y,
        {"generator": "ringnorm", "a": a, "seed": repr(seed), "citation": "Breiman (1996), TR 460"},
    )


def waveform_base_waves() -> np.ndarray:
    r"""Return the three base waves of Breiman et al. (1984), shape ``(3, 21)``.

    :math:`h_1(i) = \max(6 - |i - 11|, 0)`, :math:`h_2(i) = h_1(i - 4)`,
    :math:`h_3(i) = h_1(i + 4)` for :math:`i = 1, \dots, 21`.
    """
    i = np.arange(1, 22)
    h1 = np.maximum(6 - np.abs(i - 11), 0).astype(float)
    h2 = np.maximum(6 - np.abs(i - 4 - 11), 0).astype(float)
    h3 = np.maximum(6 - np.abs(i + 4 - 11), 0).astype(float)
    return np.vstack([h1, h2, h3])


#: Pairs of base waves mixed by each waveform class (0-based rows of ``waveform_base_waves``).
_WAVE_PAIRS = ((0, 1), (0, 2), (1, 2))


def waveform(n_samples: int, *, seed, binary: bool = False, positive_class: int = 1) -> Dataset:
    r"""Breiman's *waveform* (21 features, 3 classes), optionally as a binary problem.

    Breiman, Friedman, Olshen & Stone, *Classification and Regression Trees* (1984), sec. 2.6.2:
    with :math:`u \sim U(0, 1)` and :math:`\varepsilon_i \sim N(0, 1)` independent,

    * class 0: :math:`x_i = u\,h_1(i) + (1 - u)\,h_2(i) + \varepsilon_i`,
    * class 1: :math:`x_i = u\,h_1(i) + (1 - u)\,h_3(i) + \varepsilon_i`,
    * class 2: :math:`x_i = u\,h_2(i) + (1 - u)\,h_3(i) + \varepsilon_i`,

    classes equally likely (base waves: :func:`waveform_base_waves`).

    ``binary=True`` returns ``positive_class`` against the other two, labelled ``+1``/``-1``.
    The Rätsch benchmark's binary waveform (``ida_waveform``) has 32.9% positives, exactly the
    share of class 1 in PMLB's ``waveform_21`` (the class whose mean peaks at coordinates 7 and
    11, i.e. class 1 here), hence the default ``positive_class=1``.

    Parameters
    ----------
    n_samples : int
        Number of examples.
    seed : int or numpy.random.Generator
        Seed or generator.
    binary : bool, optional
        Return ``positive_class`` against the rest instead of the three classes.
    positive_class : {0, 1, 2}, optional
        The class labelled ``+1`` when ``binary`` is true (default 1).

    Returns
    -------
    Dataset
        21 features ``x1 .. x21``.  Named ``"waveform"`` with classes ``[0, 1, 2]``, or
        ``"waveform_binary"`` with classes ``[-1, 1]``; ``meta["three_class_label"]`` holds
        the three-class label of every row in both cases.  The same seed gives the same
        ``X`` either way.

    Raises
    ------
    ValueError
        If ``n_samples`` is not a positive integer or ``positive_class`` is not 0, 1 or 2.

    References
    ----------
    Breiman, L., Friedman, J. H., Olshen, R. A. and Stone, C. J. (1984). *Classification and
    Regression Trees*. Wadsworth.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.data import waveform
    >>> ds = waveform(300, seed=0)
    >>> ds.X.shape, ds.classes.tolist()
    ((300, 21), [0, 1, 2])
    >>> binary = waveform(300, seed=0, binary=True)
    >>> binary.name, binary.classes.tolist(), bool(np.array_equal(binary.X, ds.X))
    ('waveform_binary', [-1, 1], True)
    >>> bool(np.array_equal(binary.y_signed() == 1, ds.y == 1))
    True
    """
    n = _check_n(n_samples)
    if positive_class not in (0, 1, 2):
        raise ValueError(f"positive_class must be 0, 1 or 2, got {positive_class!r}")
    rng = _rng(seed)
    waves = waveform_base_waves()
    label = rng.integers(0, 3, size=n)
    u = rng.random(n)[:, None]
    first = waves[[_WAVE_PAIRS[k][0] for k in label]]
    second = waves[[_WAVE_PAIRS[k][1] for k in label]]
    X = u * first + (1.0 - u) * second + rng.standard_normal((n, 21))
    meta: dict[str, Any] = {
        "generator": "waveform",
        "seed": repr(seed),
        "three_class_label": label,
        "citation": "Breiman, Friedman, Olshen & Stone (1984), CART, sec. 2.6.2",
    }
    names = [f"x{i}" for i in range(1, 22)]
    if binary:
        meta["positive_class"] = positive_class
        return _binary("waveform_binary", X, np.where(label == positive_class, 1, -1), meta, names)
    return Dataset("waveform", X, label, names, np.array([0, 1, 2]), meta)


def mcboost_toy(n_samples: int = 800, *, seed, label_noise: float = 0.1) -> Dataset:
    r"""A 2-D toy problem in the spirit of MCBoost's Figure 1.

    Known from the paper (Guo & Chen, *Margin Distribution Controlled Boosting*, Fig. 1 and
    sec. 5): 2-D data, 800 points, 60% used for training and 40% for test, decision stumps.
    The generator itself is not described, so everything below is an assumption:

    * :math:`x \sim U([-1, 1]^2)`;
    * :math:`y = +1` inside the disc :math:`\|x\|^2 < 2/\pi` (half of the square's area),
      :math:`-1` outside; an axis-aligned stump ensemble needs many terms to follow the circle,
      so the trade-off between fit and margin that Figure 1 studies is visible;
    * exactly ``round(label_noise * n_samples)`` labels flipped at random (default 10%), so
      that small desired margins E overfit.

    Parameters
    ----------
    n_samples : int, optional
        Number of points (default 800, the paper's).
    seed : int or numpy.random.Generator
        Seed or generator; one generator draws the points and then the flipped labels.
    label_noise : float, optional
        Fraction of labels flipped, in ``[0, 1]`` (default 0.1).

    Returns
    -------
    Dataset
        Named ``"mcboost_toy"``, features ``x1, x2``, classes ``[-1, 1]``;
        ``meta["clean_labels"]`` holds the labels before noise and ``meta["assumed"]`` is
        ``True``.

    Raises
    ------
    ValueError
        If ``n_samples`` is not a positive integer or ``label_noise`` is outside ``[0, 1]``.

    Examples
    --------
    >>> import numpy as np
    >>> from marginboost.data import mcboost_toy
    >>> ds = mcboost_toy(seed=0)
    >>> ds.X.shape, bool(np.abs(ds.X).max() <= 1)
    ((800, 2), True)
    >>> int((ds.y_signed() != ds.meta["clean_labels"]).sum())  # 10% of 800
    80
    """
    from .noise import flip_labels

    n = _check_n(n_samples)
    rng = _rng(seed)
    X = rng.uniform(-1.0, 1.0, size=(n, 2))
    clean = np.where((X**2).sum(axis=1) < 2.0 / np.pi, 1, -1)
    y = flip_labels(clean, label_noise, rng)
    meta = {
        "generator": "mcboost_toy",
        "seed": repr(seed),
        "label_noise": label_noise,
        "clean_labels": clean,
        "assumed": True,
        "citation": "Guo & Chen, Margin Distribution Controlled Boosting, Fig. 1 "
        "(generator not described; this one is assumed)",
    }
    return _binary("mcboost_toy", X, y, meta, ["x1", "x2"])
