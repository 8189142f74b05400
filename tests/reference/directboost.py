r"""DirectBoost (Zhai, Xia, Tan & Wang 2013), written for reading: Algorithms 1 and 2 over an
explicit finite pool of weak classifiers, with exact line searches.

Everything here works on binned features (``codes``, small non-negative integers) and labels
``y`` in {-1, +1}.  A weak classifier is its prediction vector ``h`` in {-1, +1}^n on the
training set; a *pool* is a matrix ``H`` (one row per candidate) with a label per row (for
stumps: feature, threshold, sign).  Nothing is imported from the package: the only thing the
reference and the fast code share is the binned input.

Notation (the paper's Sec. 2.1): before a round the ensemble's unnormalized margins are
``a_i = y_i sum_k alpha_k h_k(x_i)`` and ``c = sum_k alpha_k``; adding ``h`` with weight
``alpha >= 0`` makes the margin of example ``i`` the line ``a_i + b_i alpha`` with
``b_i = y_i h(x_i)``.  An example counts as an error when its margin is ``<= 0``.

Rules the paper leaves open, as the estimator ``marginboost.boosting.DirectBoost`` resolves
them (each is restated where it is used):

* **Intervals of alpha** (Alg. 1, lines 2-10).  The paper sorts every ``|a(x_i)|`` (line 2),
  names each one ``e_i`` (line 5) and computes the error "on intervals of the e_i" (line 9);
  the error only changes at the ``e_i`` with ``a_i b_i < 0``.  The estimator takes the
  intervals between *all* distinct positive ``|a_i|`` (``breakpoints="all"``); the package's
  stand-alone ``zero_one_line_search`` takes them between the crossing points only
  (``breakpoints="crossings"``).  Both give the same error counts; they differ only in where
  alpha lands.
* **Which minimum-error interval** (line 10, "the interval that has minimum classification
  error"): the first one, i.e. the smallest alpha.
* **Alpha inside the interval** (the paper gives no rule), two readings (``step``):
  ``"midpoint"``, the midpoint of the first interval ``(low, high)`` with the fewest errors
  (for the unbounded last interval ``(low, inf)`` the step ``2 * low``, ``1`` when
  ``low == 0``); and ``"exp-loss"`` (the estimator's default), over *every* interval with the
  fewest errors, the minimizer ``alpha* = log(G / B) / 2`` of the exponential loss
  ``G e^-alpha + B e^alpha`` clipped to ``[low + 0.01 (high - low), high - 0.01 (high - low)]``
  (``[1.01 low, inf)``, or ``[1, inf)`` when ``low == 0``, for the unbounded one; ``2 low`` or
  1 when the loss falls without end), the interval whose point has the smaller loss winning.
  Candidates are ranked by the exponential loss at the step of the reading in force.
* **Ties between weak classifiers** (lines 12-13: "pick the weak classifiers that lead to the
  largest classification error reduction; among them update only the one that gives the
  smallest exponential loss"): fewest errors, then the smallest exponential loss
  ``sum_i exp(-(a_i + b_i alpha))`` at the chosen alpha, then the pool order (lowest feature,
  lowest threshold, sign +1 before -1).
* **Zero-gain rounds and the stop** (line 14, "repeat until training error reaches minimum").
  Read literally, Algorithm 1 stops after the first round with +-1 weak learners (afterwards
  every ``|a_i|`` equals ``alpha_1`` and no single step can lower the error).  The estimator
  also takes a step that keeps the error count when it lowers the logarithm of the
  exponential loss by more than ``loss_tol`` (1e-6; the tie rule of line 13 applied to a
  zero reduction).  It stops at zero training error, when the best candidate keeps the error
  count without lowering the log loss by more than ``loss_tol``, or, when ``patience`` is
  given, after that many consecutive rounds that do not lower the error.
* **Phase 2** (Alg. 2 and Sec. 2.2): the objective is maximized exactly over the search
  region (``[0, d]``, ``d`` the first positive margin whose line falls, or ``[0, inf)`` under
  relaxation); among equal maxima the smallest alpha.  Without relaxation a maximizer at ``d``
  becomes ``d - min(0.01, d / 2)`` (the paper: "d - epsilon"); with relaxation the step is the
  maximizer plus ``epsilon``, cut back like that when it passes ``d``.  A supremum reached only
  as ``alpha -> inf`` gets the step ``max(2 L, c)``, ``L`` the last point where the bottom-n'
  set changes its make-up.  The candidate with the largest objective *at its step* is added;
  ties go to the pool order.  Without relaxation the run stops when no candidate raises the
  objective by more than ``1e-6 * max(1, |objective|)`` (line 17, "until no increment");
  with relaxation after ``patience`` rounds without a new best value, and the ensemble is cut
  back to its best round.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "margin_values",
    "Pool",
    "stump_pool",
    "tree_pool_depth2",
    "interval_points",
    "zero_one_line",
    "exp_loss_step",
    "zero_one_errors_direct",
    "pool_zero_one",
    "phase1",
    "margin_value",
    "margin_line",
    "phase2",
    "greedy_tree",
    "Round",
    "Path",
]


# ---- pools of weak classifiers ----------------------------------------------------------------
@dataclass
class Pool:
    """Candidates as rows of ``H`` (values +-1 on the training set) with a label per row."""

    H: np.ndarray
    labels: list


def _thresholds(column):
    """Thresholds ``t`` of ``code <= t`` that split ``column``: every present code but the
    largest (a threshold between two present codes sends the same samples left as the
    present code below it)."""
    return [int(t) for t in np.unique(column)[:-1]]


def stump_pool(codes):
    """Every stump ``h(x) = s if code_f <= t else -s``: features in order, thresholds
    increasing, sign +1 before -1."""
    rows, labels = [], []
    for f in range(codes.shape[1]):
        for t in _thresholds(codes[:, f]):
            left = codes[:, f] <= t
            for s in (1.0, -1.0):
                rows.append(np.where(left, s, -s))
                labels.append((f, t, s))
    return Pool(np.array(rows), labels)


def tree_pool_depth2(codes):
    """The prediction vectors of every tree of depth <= 2 with leaves in {-1, +1} (stumps
    included: a child that stays a leaf), without duplicates.  Labels are
    ``(root split, left child, right child)`` with a child either a value (+-1) or a split
    ``(feature, threshold, value on its left)``; the first tree in enumeration order is
    kept for each distinct vector."""
    n, d = codes.shape
    splits = [(f, t) for f in range(d) for t in _thresholds(codes[:, f])]
    rows, labels, seen = [], [], set()
    for f, t in splits:
        root_left = codes[:, f] <= t
        options = []  # what each child may predict on the samples it holds
        for side in (root_left, ~root_left):
            choices = [(v, np.full(n, v)) for v in (1.0, -1.0)]
            for g, u in splits:
                inside = codes[side, g]
                if inside.min() <= u < inside.max():  # the split separates the child
                    for v in (1.0, -1.0):
                        choices.append(((g, u, v), np.where(codes[:, g] <= u, v, -v)))
            options.append(choices)
        for left_label, left_h in options[0]:
            for right_label, right_h in options[1]:
                h = np.where(root_left, left_h, right_h)
                key = h.tobytes()
                if key not in seen:
                    seen.add(key)
                    rows.append(h)
                    labels.append(((f, t), left_label, right_label))
    return Pool(np.array(rows), labels)


# ---- Algorithm 1: the 0-1 line search ----------------------------------------------------------
def interval_points(a, b=None, breakpoints="all"):
    """The breakpoints ``V`` (sorted, distinct, positive) that cut ``alpha > 0`` into the open
    intervals ``(0, V_0), (V_0, V_1), ..., (V_last, inf)``.

    ``"all"``: every distinct positive ``|a_i|`` (Alg. 1, lines 2 and 5: ``e_i = |a(x_i)|`` for
    every example).  ``"crossings"``: only those with ``a_i b_i < 0``, where a margin changes
    sign."""
    values = np.abs(a)
    if breakpoints == "crossings":
        values = values[a * b < 0]
    elif breakpoints != "all":
        raise ValueError(breakpoints)
    return np.unique(values[values > 0])


def _alpha_in(low, high):
    """The step inside ``(low, high)``: the midpoint; ``2 low`` (or 1) when unbounded."""
    if np.isfinite(high):
        return 0.5 * (low + high)
    return 2.0 * low if low > 0 else 1.0


def zero_one_errors_direct(a, b, alpha):
    """Errors of the ensemble plus ``alpha h``, counted directly."""
    return int(np.count_nonzero(a + b * alpha <= 0))


def zero_one_line(a, b, breakpoints="all"):
    """``(errors, alpha, low, high)``: the first open interval of alpha with the fewest
    errors and the step in it.  The error on each interval is counted directly at an inner
    point (its midpoint, or ``low + 1`` for the unbounded one) -- the error is constant on the
    interval because no margin changes sign inside it."""
    V = interval_points(a, b, breakpoints)
    lows = np.concatenate([[0.0], V])
    highs = np.concatenate([V, [np.inf]])
    inner = np.where(np.isfinite(highs), 0.5 * (lows + highs), lows + 1.0)
    errors = np.count_nonzero(a[None, :] + b[None, :] * inner[:, None] <= 0, axis=1)
    k = int(np.argmin(errors))  # the first minimum: the smallest alpha
    return int(errors[k]), _alpha_in(lows[k], highs[k]), float(lows[k]), float(highs[k])


def _exp_loss_alpha(a, b, lows, highs, fewest):
    """The ``"exp-loss"`` step over the intervals ``(lows[k], highs[k])`` flagged ``fewest``."""
    good = np.exp(-a[b > 0]).sum()
    bad = np.exp(-a[b < 0]).sum()
    star = np.inf if bad == 0 else (-np.inf if good == 0 else 0.5 * np.log(good / bad))
    best = None
    for low, high in zip(lows[fewest], highs[fewest]):
        if np.isfinite(high):
            alpha = float(np.clip(star, low + 0.01 * (high - low), high - 0.01 * (high - low)))
        elif star == np.inf:
            alpha = 2.0 * low if low > 0 else 1.0
        else:
            alpha = max(star, 1.01 * low if low > 0 else 1.0)
        loss = log_exp_loss(a, b, alpha)
        if best is None or loss < best[0]:
            best = (loss, alpha)
    return best[1]


def exp_loss_step(a, b, breakpoints="all"):
    """``(errors, alpha)`` of the ``"exp-loss"`` reading: every open interval of alpha is
    tried, its error counted directly at an inner point; among those with the fewest errors
    the clipped minimizer of the exponential loss with the smallest loss (ties: the smaller
    alpha)."""
    V = interval_points(a, b, breakpoints)
    lows = np.concatenate([[0.0], V])
    highs = np.concatenate([V, [np.inf]])
    inner = np.where(np.isfinite(highs), 0.5 * (lows + highs), lows + 1.0)
    errors = np.array([zero_one_errors_direct(a, b, t) for t in inner])
    return int(errors.min()), _exp_loss_alpha(a, b, lows, highs, errors == errors.min())


def log_exp_loss(a, b, alpha):
    """``log sum_i exp(-(a_i + b_i alpha))`` (shifted by its largest term)."""
    z = -(a + b * alpha)
    top = z.max()
    return float(top + np.log(np.exp(z - top).sum()))


def pool_zero_one(a, y, H, step="midpoint"):
    """``(errors, alphas, log_losses)`` of every row of ``H`` (the line search of one round,
    on the estimator's intervals, ``breakpoints="all"``).

    The same count as :func:`zero_one_line`, organised for a large pool: with ``r_i`` the
    index of ``|a_i|`` among the breakpoints (``-1`` when ``a_i = 0``), example ``i`` is wrong
    on interval ``k`` iff ``a_i < 0 and k <= r_i`` (it has not crossed yet) or ``b_i = -1 and
    k > r_i`` (it has crossed, or starts at 0, the wrong way).  The tests check it against
    the direct count."""
    n = a.size
    V = interval_points(a, None, "all")
    r = np.searchsorted(V, np.abs(a))  # index of |a_i| in V (a_i != 0)
    r = np.where(a == 0, -1, r)
    m = V.size
    k = np.arange(m + 1)
    base = ((a[None, :] < 0) & (k[:, None] <= r[None, :])).sum(axis=1)  # (m + 1,)
    onehot = np.zeros((n, m + 2))
    onehot[np.arange(n), r + 1] = 1.0  # example i is counted from interval r_i + 1 on
    bad = (y[None, :] * H < 0).astype(np.float64)
    crossed = np.cumsum(bad @ onehot, axis=1)[:, : m + 1]
    errors = base[None, :] + np.rint(crossed).astype(np.int64)
    best = np.argmin(errors, axis=1)
    lows = np.concatenate([[0.0], V])
    highs = np.concatenate([V, [np.inf]])
    if step == "exp-loss":
        alphas = np.array(
            [_exp_loss_alpha(a, y * h, lows, highs, e == e.min()) for h, e in zip(H, errors)]
        )
    elif step == "midpoint":
        alphas = np.array([_alpha_in(lows[j], highs[j]) for j in best])
    else:
        raise ValueError(step)
    z = -(a[None, :] + (y[None, :] * H) * alphas[:, None])
    top = z.max(axis=1)
    losses = top + np.log(np.exp(z - top[:, None]).sum(axis=1))
    return errors[np.arange(H.shape[0]), best], alphas, losses


# ---- Algorithm 1: the rounds ------------------------------------------------------------------
@dataclass
class Round:
    """One round: the chosen candidate (index into the pool, its label and vector), its step
    and the objective after it (error count, or the phase-2 margin objective), and ``ties``:
    the indices of every candidate the tie tolerance could not separate from the best."""

    index: int
    label: object
    h: np.ndarray
    alpha: float
    objective: float
    ties: list


@dataclass
class Path:
    rounds: list = field(default_factory=list)
    stop_reason: str = ""
    a: np.ndarray | None = None
    c: float = 0.0
    best_rounds: int = 0


def phase1_tie_tolerance(n, log_losses, reference):
    """How far apart two exponential losses (logs) may be and still count as a tie.

    The estimator ranks equal error counts by ``errors + 1/2 + arctan(L - L_0)/pi`` (``L_0``
    the current log loss) and treats scores within a relative ``1e-10`` as tied: two losses
    closer than ``pi (1 + X^2) 1e-10 (n + 1)`` (``X`` the largest ``|L - L_0|``, where arctan
    is flattest) may be ranked either way, and the losses themselves carry the rounding of
    a sum of ``n`` terms (about ``n`` units of ``2^-52`` relative to the loss)."""
    x = float(np.max(np.abs(np.asarray(log_losses) - reference))) + 1.0
    eps = np.finfo(float).eps
    return np.pi * (1.0 + x * x) * 1e-10 * (n + 1) + 4 * n * eps * (1.0 + abs(reference))


def phase1(y, pool, max_rounds=2000, patience=None, choose=None, step="exp-loss", loss_tol=1e-6):
    """Algorithm 1 over ``pool`` (see the module docstring for the rules).

    ``choose(round_number, ties)``, when given, picks the candidate among ``ties`` (indices
    that the tie tolerance cannot separate); by default the first in pool order.  ``step``:
    where alpha goes inside the intervals with the fewest errors ("exp-loss" or "midpoint")."""
    n = y.size
    H = pool.H
    a = np.zeros(n)
    c = 0.0
    path = Path()
    errors = n
    plateau = 0
    path.stop_reason = "max_rounds"
    while len(path.rounds) < max_rounds and errors > 0:
        current = log_exp_loss(a, np.zeros(n), 0.0)
        E, alphas, L = pool_zero_one(a, y, H, step)
        fewest = E.min()
        tied = np.flatnonzero(E == fewest)
        tol = phase1_tie_tolerance(n, L[tied], current)
        ties = [int(i) for i in tied if L[i] <= L[tied].min() + tol]
        pick = ties[0] if choose is None else choose(len(path.rounds), ties)
        b = y * H[pick]
        alpha, loss = float(alphas[pick]), L[pick]
        if fewest > errors or (fewest == errors and not loss < current - loss_tol):
            path.stop_reason = "local minimum"
            break
        plateau = plateau + 1 if fewest == errors else 0
        a = a + alpha * b
        c += alpha
        errors = int(np.count_nonzero(a <= 0))
        path.rounds.append(Round(pick, pool.labels[pick], H[pick], alpha, errors, ties))
        if patience is not None and plateau >= patience:
            path.stop_reason = "plateau"
            break
    if errors == 0:
        path.stop_reason = "zero training error"
    path.a, path.c = a, c
    return path


# ---- Algorithm 2: margins ---------------------------------------------------------------------
def margin_value(a, b, c, n_prime, objective, alpha):
    """The bottom-n' average (``"average"``) or the n'-th smallest (``"order"``) of the
    normalized margins ``(a_i + b_i alpha) / (c + alpha)``; at ``alpha = inf`` their limit
    (the margins tend to ``b_i``)."""
    if np.isinf(alpha):
        m = np.sort(b)
    else:
        m = np.sort((a + b * alpha) / (c + alpha))
    return float(m[:n_prime].mean() if objective == "average" else m[n_prime - 1])


def margin_values(a, b, c, n_prime, objective, alphas):
    """:func:`margin_value` at every (finite) point of ``alphas`` at once."""
    alphas = np.asarray(alphas, dtype=np.float64)[:, None]
    m = np.sort((a[None, :] + b[None, :] * alphas) / (c + alphas), axis=1)
    return m[:, :n_prime].mean(axis=1) if objective == "average" else m[:, n_prime - 1]


def _rising_in_bottom(a, b, n_prime, alpha):
    """How many of the n' smallest margins at ``alpha`` rise (``b_i = +1``)."""
    order = np.lexsort((-b, a + b * alpha))  # at a crossing, count the line that rises next
    return int(np.count_nonzero(b[order[:n_prime]] > 0))


def margin_line(a, b, c, n_prime, objective, relaxed_epsilon=0.0, restricted=True, end_gap=0.01):
    """``(q, step, value at step)`` for one weak classifier.

    The bottom-n' set and the order of the margins change only where two lines with
    ``b_i != b_j`` cross, at ``|a_i - a_j| / 2``; between such points the objective is a fixed
    linear function over ``c + alpha``, hence monotone.  So its maximum over ``[0, d]`` is at
    0, at ``d`` or at a crossing point: all are evaluated directly."""
    falling = (a > 0) & (b < 0)
    d = float(a[falling].min()) if restricted and falling.any() else np.inf
    rise, fall = a[b > 0], a[b < 0]
    cross = np.abs(rise[:, None] - fall[None, :]).ravel() / 2.0
    # a crossing within rounding of d (a_j = -d up to the last bits) is the end d itself:
    # |a_i - a_j| / 2 carries an error of up to one unit of 2^-52 relative to max |a|
    cross = cross[cross < d - 4 * np.finfo(float).eps * max(float(np.abs(a).max()), c)]
    points = np.unique(np.concatenate([[0.0], cross[cross > 0], [d] if np.isfinite(d) else []]))
    values = margin_values(a, b, c, n_prime, objective, points)
    best = int(np.argmax(values))  # the first maximum: the smallest alpha
    q, value = float(points[best]), float(values[best])
    if not np.isfinite(d) and margin_value(a, b, c, n_prime, objective, np.inf) > value:
        # the supremum is the limit alpha -> inf: step to twice the last point where the
        # make-up of the bottom-n' set changes (at least c)
        before = [
            _rising_in_bottom(a, b, n_prime, x)
            for x in np.concatenate([[points[0]], 0.5 * (points[:-1] + points[1:])])
        ]
        after = [
            _rising_in_bottom(a, b, n_prime, x)
            for x in np.concatenate([0.5 * (points[:-1] + points[1:]), [points[-1] + 1.0]])
        ]
        changes = [x for x, u, v in zip(points, before, after) if u != v and x > 0]
        last = max(changes) if changes else 0.0
        step = max(2.0 * last, c)
        q = np.inf
    elif relaxed_epsilon > 0:
        step = q + relaxed_epsilon
    else:
        step = q
    if step >= d:
        step = d - min(end_gap, 0.5 * d)
    return q, float(step), margin_value(a, b, c, n_prime, objective, step)


def phase2_tie_tolerance(values):
    """The estimator treats scores within a relative ``1e-10`` as tied; the values (normalized
    margins in [-1, 1]) also carry the rounding of sums of at most n terms."""
    return 1e-10 * float(np.max(np.abs(values))) + 1e-12


def phase2(
    y,
    pool,
    a,
    c,
    n_prime,
    objective="average",
    epsilon=0.0,
    restricted=None,
    max_rounds=2000,
    patience=50,
    improvement_tol=1e-6,
    choose=None,
    keep_all_rounds=False,
):
    """Algorithm 2 (``objective="average"``) or its n'-th order variant (``"order"``) from the
    state ``(a, c)`` that phase 1 left, over ``pool``.  ``restricted`` defaults to "no
    relaxation".  Returns the :class:`Path`, cut back to its best round under relaxation
    (unless ``keep_all_rounds``); ``path.best_rounds`` is that round."""
    relaxed = epsilon > 0
    restricted = (not relaxed) if restricted is None else restricted
    H = pool.H
    path = Path()
    value = margin_value(a, np.ones_like(a), c, n_prime, objective, 0.0)
    best_value, best_rounds, stall = value, 0, 0
    path.stop_reason = "max_rounds"
    while len(path.rounds) < max_rounds:
        lines = [margin_line(a, y * h, c, n_prime, objective, epsilon, restricted) for h in H]
        values = np.array([v for _, _, v in lines])
        tol = phase2_tie_tolerance(values)
        ties = [int(i) for i in np.flatnonzero(values >= values.max() - tol)]
        pick = ties[0] if choose is None else choose(len(path.rounds), ties)
        _, step, new_value = lines[pick]
        if not relaxed and not new_value > value + improvement_tol * max(1.0, abs(value)):
            path.stop_reason = "coordinatewise maximum"
            break
        if not (step > 0 and np.isfinite(step)):
            path.stop_reason = "no admissible step"
            break
        a = a + step * (y * H[pick])
        c += step
        value = margin_value(a, np.ones_like(a), c, n_prime, objective, 0.0)
        path.rounds.append(Round(pick, pool.labels[pick], H[pick], float(step), value, ties))
        if value > best_value + improvement_tol * max(1.0, abs(best_value)):
            best_value, best_rounds, stall = value, len(path.rounds), 0
        else:
            stall += 1
            if relaxed and stall >= patience:
                path.stop_reason = "no improvement within patience"
                break
    path.best_rounds = best_rounds
    if relaxed and best_rounds < len(path.rounds) and not keep_all_rounds:
        path.rounds = path.rounds[:best_rounds]
    path.a, path.c = a, c
    return path


# ---- the greedy direct tree, for comparison with the exhaustive pool ---------------------------
def greedy_tree(codes, a, y, max_depth, split_rule="improve", step="exp-loss"):
    """The depth-``max_depth`` tree grown as the paper describes (Sec. 3: "for each splitting
    node, DirectBoost simply chooses the attribute to split on by minimizing 0-1 loss"),
    with the estimator's bookkeeping: the root predicts the sign whose constant classifier
    scores better; nodes are split level by level, left to right, each at the (feature,
    threshold, left value) whose whole partial tree has the fewest errors after its line
    search (ties: smaller exponential loss, then lower feature, threshold, left value +1);
    the root is split when some threshold separates its samples (the two children get
    opposite values); a node below the root is split only when its best split ranks strictly
    before the partial tree as it is (``split_rule="improve"``) or whenever some threshold
    separates its samples (``"always"``).  Returns the prediction vector."""
    n = y.size
    current = log_exp_loss(a, np.zeros(n), 0.0)

    def score(h):
        if step == "exp-loss":
            errors, alpha = exp_loss_step(a, y * h)
        else:
            errors, alpha, _, _ = zero_one_line(a, y * h)
        return errors, log_exp_loss(a, y * h, alpha)

    def better(s1, s2):
        """Whether ``s1`` ranks strictly before ``s2`` beyond the tie tolerance."""
        if s1[0] != s2[0]:
            return s1[0] < s2[0]
        return s1[1] < s2[1] - phase1_tie_tolerance(n, [s1[1], s2[1]], current)

    plus, minus = score(np.ones(n)), score(-np.ones(n))
    h = np.ones(n) if not better(minus, plus) else -np.ones(n)
    level = [np.arange(n)]
    for _ in range(max_depth):
        next_level = []
        for samples in level:
            best, best_h, best_children = None, None, None
            for f in range(codes.shape[1]):
                for t in _thresholds(codes[samples, f]):
                    left = samples[codes[samples, f] <= t]
                    right = samples[codes[samples, f] > t]
                    for v in (1.0, -1.0):
                        g = h.copy()
                        g[left], g[right] = v, -v
                        s = score(g)
                        if best is None or better(s, best):
                            best, best_h, best_children = s, g, (left, right)
            if best_h is not None and (
                split_rule == "always" or samples.size == n or better(best, score(h))
            ):
                h = best_h
                next_level += list(best_children)
        level = next_level
    return h
