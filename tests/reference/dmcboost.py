r"""DMCBoost (Zhai, Xia & Wang 2014), written for reading: Algorithms 1, 1.1, 1.2, 2 and 2.1 over
an explicit finite pool of multi-class weak classifiers, with line searches by direct evaluation.

Everything here works on binned features (``codes``, small non-negative integers) and labels
``y`` in ``0 .. K-1``.  A weak classifier is its prediction vector ``h`` in ``{0 .. K-1}^n`` on
the training set; a *pool* is a matrix ``H`` (one row per candidate) with a label per row.
Nothing is imported from the package: the only thing the reference and the fast code share is
the binned input and the integer labels.

Notation (the paper's Sec. 2).  Before a round the ensemble's votes are the score matrix
``F[i, k] = a(x_i, k) = sum_t alpha_t 1(h_t(x_i) = k)`` (``n x K``).  Adding ``h`` with weight
``alpha`` adds ``alpha`` to ``F[i, h_i]`` only (eq. (3)).  The margin of example ``i`` is
``F[i, y_i] - max_{k != y_i} F[i, k]`` (eq. (4) before normalization); an example is an error
when its margin is ``<= 0`` (a tie with a wrong class is an error).  ``c = sum_t |alpha_t|``.

Rules the paper leaves open, as the estimator ``marginboost.boosting.DMCBoost`` resolves them
(each is restated where it is used):

Phase I (0-1 loss, Algorithms 1, 1.1, 1.2)

* **Where the error can change** (Alg. 1.1, Figure 1).  Voting ``k`` for example ``i`` changes
  its correctness at one positive ``alpha`` at most: for ``k = y_i`` where the true score
  catches the best wrong one, ``max_{j != y_i} F_ij - F_{i y_i}`` (scenario 1); for
  ``k != y_i``, when ``i`` is correct now, where the wrong class ``k`` reaches the true score,
  ``F_{i y_i} - F_ik`` (scenario 2: the paper prints the opposite sign); otherwise never
  (scenario 3).  Only ``alpha > 0`` is searched; crossings ``<= 0`` are not breakpoints.
* **Errors on an interval**: counted directly, at an inner point (the midpoint; ``low + 1`` on
  the unbounded last one), from the scores after the step; the count cannot change inside an
  interval because no margin changes sign there.
* **The step inside the best interval** (Alg. 1, line 5 "a value within this interval", the
  text "the middle point"): a midpoint, ``2 low`` on the unbounded interval ``(low, inf)``
  (``1`` when ``low == 0``, which is round 1: all scores 0, every example tied, hence wrong).
  When several intervals have the fewest errors, ``step="best-midpoint"`` (the estimator's
  default) takes the midpoint whose exponential loss (below), evaluated from the scores after
  the step, is the smallest (exact ties: the smaller step); ``step="midpoint"`` the first
  (smallest-alpha) interval.
* **Ranking candidates** (Alg. 1.2, line 13 "choose the optimal binary split"): fewest errors,
  then the smaller multi-class exponential loss ``sum_i sum_{k != y_i} exp(F_ik - F_iy_i)``
  after the step -- with the step taken on the grid of *every* crossing point of *every*
  example and label (the ``step`` rule on that finer grid), not on the candidate's own
  breakpoints -- then the pool order.  The estimator folds both keys into one
  score, ``-(errors + 1/2 + arctan(L - L_0) / pi)``, compares the label pairs of one split
  exactly and the splits with a relative tolerance ``1e-10`` (:func:`phase1_tie_tolerance`);
  candidates it cannot separate are reported as ties.
* **Leaf labels** (Alg. 1.2, lines 7-10 choose the left label, then the right one): the two
  labels of a split are chosen *jointly* over all ``K^2`` pairs, equal labels allowed
  (``equal_labels``; the estimator's ``distinct_leaf_labels=False``).  Pool order of the
  stumps: feature, threshold (a present code, not the largest), right label, left label.
* **Trees deeper than 1** (Alg. 1.2, lines 15-16): grown level by level, nodes of a level
  left to right; every node with a threshold that separates its samples is split (no "stay a
  leaf" test), even when no split lowers the error; a split is scored by the whole partial
  tree (examples outside the node keep the labels chosen so far, a later node sees the labels
  of earlier ones).  :func:`greedy_tree` grows it; :func:`best_tree_depth2` finds the best tree
  of depth <= 2 by exhaustive search, for comparison.
* **The accepted step and the stop** (line 7, "until the training error reaches the local
  coordinatewise minimum").  The chosen candidate's step is the ``step`` rule's midpoint among
  *its own* breakpoints.  The round is taken when it lowers the error count, or
  keeps it and lowers the exponential loss at that step (strictly, no tolerance).  Otherwise
  phase I stops ("coordinatewise minimum").  It also stops at zero training error, after
  ``patience`` rounds in a row that keep the error count (the plateau rule), or after
  ``max_rounds``.  With ``step="midpoint"`` the best interval on a plateau is usually
  ``(0, V_0)``, so the steps halve from round to round until the loss stops falling in
  floating point (steps near ``1e-15`` after some 50 rounds): the "coordinatewise minimum" a
  long plateau ends at is then decided by rounding.

Phase II (bottom-n' average margin (5), Algorithms 2 and 2.1), with stumps only; it starts
from the scores phase I leaves (at least one round, so ``c > 0``)

* **Objective** (5): the mean of the ``n'`` smallest normalized margins
  ``margin_i / (c + |alpha|)``.  Along ``h`` with ``alpha = sign * b``, ``b >= 0``, the margin
  numerator of example ``i`` is the minimum over the wrong classes ``j`` of the lines
  ``(F_iy - F_ij) + b (s_y - s_j)``, ``s_k = sign 1(h_i = k)``; so the sum ``S(b)`` of the
  ``n'`` smallest is concave and piecewise linear and (5) = ``S(b) / (n' (c + b))`` is
  quasiconcave on each half-line (Theorem 3).
* **Derivative (9)**: its sign is that of ``phi = S'(b+) (c + b) - S(b)``, ``S'`` the right
  derivative (moving away from 0): per numerator the smallest slope among the lines that are
  active, and among numerators tied at the ``n'``-th place the smallest slopes count.  "Positive"
  means ``phi > 1e-12 (|S'| (c + b) + |S|)``.
* **Algorithm 2.1's interval** (not given by the paper): ``begin = 0``; when ``phi(0) <= 0`` the
  maximizer is 0; when ``S`` still rises beyond its last breakpoint (``s c - p > 0`` for the line
  ``p + s b`` it ends on) the supremum is the limit ``b -> inf`` ("unbounded"); otherwise
  ``end`` doubles from ``max(c, th)`` until ``phi(end) <= 0``, and the bisection runs while
  ``end - begin >= th`` (``th = 1e-5``, the paper's).  Both half-lines are searched; the larger
  value wins, ties to ``alpha > 0``.  :func:`exact_side` finds the exact maximizer (at a
  breakpoint of ``S``) for comparison.
* **epsilon-relaxation**: the step is the maximizer moved ``epsilon`` further from 0 (also when
  the maximizer is 0); candidates are still ranked by the value *at the maximizer*.
* **Weak learner of phase II** (Alg. 2, line 4 "select a weak learner"; the estimator's
  departure): for each half-line, the stump with the largest ``S'(0+)`` (an integer; margins
  within ``1e-12 max(1, max |F|)`` of the ``n'``-th one count as tied with it), ties to the
  pool order; each of the two is searched on both half-lines; unbounded ones are dropped
  ("unbounded step" when both are); the one with the larger maximum of (5) is taken, then the
  larger ``S'(0+)``, then -- the estimator's docstring -- the tree grown for ``alpha > 0``
  (``prefer="positive"``; the code prefers the other one, ``prefer="negative"``, see the
  tests).  Maxima equal up to rounding are reported as ties: the estimator compares them
  exactly, and two different trees often reach the same maximum (a stump that adds ``alpha``
  to one class and one that takes it from the others move the same margins).
* **Stop without relaxation** (line 7, "no increment"): the step must raise (5) by more than
  ``1e-6 max(1, |g|)``; when neither tree does, every stump whose ``S'(0+)`` on some side makes
  ``phi(0) > 0`` is searched (steepest first, ties to the pool order) and the first one that
  gains is taken; when none does, phase II stops ("coordinatewise maximum").
* **Stop with relaxation**: after ``patience`` rounds in a row without a value of (5) strictly
  larger than the best so far (no tolerance); the ensemble is cut back to the best round.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "Pool",
    "stump_pool",
    "tree_pool_depth2",
    "add_vote",
    "margins",
    "count_errors",
    "log_exp_loss",
    "crossing_points",
    "errors_along",
    "interval_step",
    "zero_one_line",
    "phase1_rank",
    "phase1_tie_tolerance",
    "phase1",
    "bottom_average",
    "margin_lines",
    "bottom_sum",
    "slope_at_zero",
    "search_side",
    "exact_side",
    "margin_line_search",
    "phase2_candidates",
    "best_stump_by_value",
    "rank_trees",
    "phase2",
    "TreeCandidate",
    "greedy_tree",
    "best_tree_depth2",
    "Round",
    "Path",
    "LineSearch",
]

EPS = np.finfo(float).eps
#: The estimator's relative tie tolerance between split scores.
TIE_RTOL = 1e-10


# ---- pools of weak classifiers ----------------------------------------------------------------
@dataclass
class Pool:
    """Candidates as rows of ``H`` (labels ``0 .. K-1`` on the training set) with a label per
    row (for stumps: ``(feature, threshold, left label, right label)``)."""

    H: np.ndarray
    labels: list


def _thresholds(column):
    """Thresholds ``t`` of ``code <= t`` that split ``column``: every present code but the
    largest."""
    return [int(t) for t in np.unique(column)[:-1]]


def _label_pairs(K, equal_labels):
    """``(left, right)`` label pairs in the estimator's order: right label, then left label."""
    return [
        (left, right) for right in range(K) for left in range(K) if equal_labels or left != right
    ]


def stump_pool(codes, K, equal_labels=True):
    """Every stump ``h(x) = left if code_f <= t else right``, in pool order: feature,
    threshold, right label, left label."""
    rows, labels = [], []
    for f in range(codes.shape[1]):
        for t in _thresholds(codes[:, f]):
            goes_left = codes[:, f] <= t
            for left, right in _label_pairs(K, equal_labels):
                rows.append(np.where(goes_left, left, right))
                labels.append((f, t, left, right))
    return Pool(np.array(rows, dtype=np.int64), labels)


def _child_options(codes, side, K, equal_labels):
    """What a child of the root holding the samples ``side`` may predict on them: a leaf (any
    label) or a split ``(feature, threshold, left, right)`` that separates them."""
    options = [((k,), np.full(side.sum(), k)) for k in range(K)]
    inside = codes[side]
    for g in range(codes.shape[1]):
        for u in _thresholds(inside[:, g]):
            goes_left = inside[:, g] <= u
            for left, right in _label_pairs(K, equal_labels):
                options.append(((g, u, left, right), np.where(goes_left, left, right)))
    return options


def tree_pool_depth2(codes, K, equal_labels=True):
    """The prediction vectors of every tree of depth <= 2 (a root split whose children are
    leaves or splits; stumps included), without duplicates.  Labels are
    ``(root split (feature, threshold), left child, right child)``, a child being ``(label,)``
    or ``(feature, threshold, left label, right label)``; the first tree in enumeration order is
    kept for each distinct vector."""
    n, d = codes.shape
    rows, labels, seen = [], [], set()
    for f in range(d):
        for t in _thresholds(codes[:, f]):
            root_left = codes[:, f] <= t
            left_options = _child_options(codes, root_left, K, equal_labels)
            right_options = _child_options(codes, ~root_left, K, equal_labels)
            for left_label, left_h in left_options:
                for right_label, right_h in right_options:
                    h = np.empty(n, dtype=np.int64)
                    h[root_left], h[~root_left] = left_h, right_h
                    key = h.tobytes()
                    if key not in seen:
                        seen.add(key)
                        rows.append(h)
                        labels.append(((f, t), left_label, right_label))
    return Pool(np.array(rows, dtype=np.int64), labels)


# ---- scores, margins, losses -------------------------------------------------------------------
def add_vote(F, h, alpha):
    """The scores after adding ``h`` with weight ``alpha``: ``alpha`` added to ``F[i, h_i]``."""
    G = np.array(F, dtype=np.float64, copy=True)
    G[np.arange(G.shape[0]), h] += alpha
    return G


def margins(F, y):
    """Unnormalized margins ``F[i, y_i] - max_{k != y_i} F[i, k]``."""
    rows = np.arange(F.shape[0])
    others = np.array(F, dtype=np.float64, copy=True)
    others[rows, y] = -np.inf
    return F[rows, y] - others.max(axis=1)


def count_errors(F, y):
    """Training errors of the scores ``F``: margins ``<= 0`` (ties are errors)."""
    return int(np.count_nonzero(margins(F, y) <= 0))


def log_exp_loss(F, y):
    """Log of the multi-class exponential loss ``sum_i sum_{k != y_i} exp(F_ik - F_iy_i)``."""
    rows = np.arange(F.shape[0])
    z = F - F[rows, y][:, None]
    z[rows, y] = -np.inf
    top = z.max()
    return float(top + np.log(np.exp(z - top).sum()))


# ---- Algorithm 1.1: the 0-1 line search ----------------------------------------------------------
def crossing_points(F, y, h=None):
    """The sorted distinct ``alpha > 0`` at which some example changes between error and
    correct when ``h`` is added (``h=None``: every example voted for every label in turn, the
    estimator's grid).  See the module docstring (Figure 1's scenarios)."""
    n, K = F.shape
    points = []
    for i in range(n):
        true = F[i, y[i]]
        best_wrong = max(F[i, k] for k in range(K) if k != y[i])
        for k in range(K) if h is None else [h[i]]:
            if k == y[i]:  # scenario 1: the true score rises to the best wrong one
                q = best_wrong - true
            elif true > best_wrong:  # scenario 2: the wrong class k rises to the true score
                q = true - F[i, k]
            else:  # scenario 3: wrong whatever alpha >= 0
                continue
            if q > 0:
                points.append(q)
    return np.unique(np.array(points, dtype=np.float64))


def errors_along(F, y, h, alphas):
    """Errors after adding ``h`` with each weight of ``alphas``, counted directly from the
    scores."""
    n, K = F.shape
    vote = np.zeros((n, K))
    vote[np.arange(n), h] = 1.0
    G = F[None, :, :] + np.asarray(alphas, dtype=np.float64)[:, None, None] * vote[None, :, :]
    rows = np.arange(n)
    true = G[:, rows, y]
    G[:, rows, y] = -np.inf
    return np.count_nonzero(true - G.max(axis=2) <= 0, axis=1)


def _intervals(points):
    """``(lows, highs, inner)``: the open intervals of ``alpha > 0`` cut by ``points`` and an
    inner point of each (the midpoint; ``low + 1`` for the unbounded last one)."""
    lows = np.concatenate([[0.0], points])
    highs = np.concatenate([points, [np.inf]])
    inner = np.where(np.isfinite(highs), 0.5 * (lows + highs), lows + 1.0)
    return lows, highs, inner


def interval_step(low, high):
    """The step inside ``(low, high)``: the midpoint; ``2 low`` (``1`` if ``low == 0``) when
    ``high`` is infinite."""
    if np.isfinite(high):
        return 0.5 * (low + high)
    return 2.0 * low if low > 0 else 1.0


STEPS = ("best-midpoint", "midpoint")


def zero_one_line(F, y, h, points=None, step="best-midpoint"):
    """``(errors, alpha, low, high, interval_errors)``: the errors on every interval between
    ``points`` (default: the crossing points of ``h`` itself), the interval with the fewest
    that ``step`` picks (module docstring) and the step in it."""
    if step not in STEPS:
        raise ValueError(f"step must be one of {STEPS}; got {step!r}")
    points = crossing_points(F, y, h) if points is None else points
    lows, highs, inner = _intervals(points)
    errors = errors_along(F, y, h, inner)
    best = np.flatnonzero(errors == errors.min())  # increasing alpha
    k = int(best[0])
    if step == "best-midpoint":
        losses = [log_exp_loss(add_vote(F, h, interval_step(lows[j], highs[j])), y) for j in best]
        k = int(best[int(np.argmin(losses))])  # the first minimum: the smaller step
    low, high = float(lows[k]), float(highs[k])
    return int(errors[k]), interval_step(low, high), low, high, errors


def phase1_rank(F, y, h, grid, step="best-midpoint"):
    """``(errors, loss, alpha)`` by which the estimator ranks ``h`` in phase I: the fewest
    errors over ``alpha > 0`` and the log exponential loss at ``alpha``, the step ``step``
    takes on ``grid`` (every crossing point of every label)."""
    errors, alpha, _, _, _ = zero_one_line(F, y, h, grid, step)
    return errors, log_exp_loss(add_vote(F, h, alpha), y), alpha


def phase1_tie_tolerance(n_terms, log_losses, reference, errors):
    """How far apart two log losses may be and still rank as a tie for the estimator.

    It scores ``-(errors + 1/2 + arctan(L - L_0) / pi)`` (``L_0`` the current log loss) and
    treats scores within a relative ``1e-10`` as tied: losses closer than
    ``pi (1 + X^2) 1e-10 (errors + 1)`` (``X`` the largest ``|L - L_0|``) may rank either way;
    the losses themselves carry the rounding of a sum of ``n_terms`` terms."""
    x = float(np.max(np.abs(np.asarray(log_losses) - reference))) + 1.0
    return np.pi * (1.0 + x * x) * TIE_RTOL * (errors + 1) + 4 * n_terms * EPS * (
        1.0 + abs(reference)
    )


# ---- Algorithm 1: the rounds ---------------------------------------------------------------------
@dataclass
class Round:
    """One round: the chosen candidate (index into the pool, its label and vector), its step,
    the objective after it (error count in phase I, (5) in phase II) and ``ties``: the indices
    of every candidate the estimator's tolerance could not separate from the chosen one."""

    index: int
    label: object
    h: np.ndarray
    alpha: float
    objective: float
    ties: list


@dataclass
class Path:
    """A run: its rounds, why it stopped, the final scores ``F`` and ``c``, and (phase II with
    relaxation) the round count it is cut back to."""

    rounds: list = field(default_factory=list)
    stop_reason: str = ""
    F: np.ndarray | None = None
    c: float = 0.0
    best_rounds: int = 0


def _pool_select(pool, choose, step):
    """The weak learner of :func:`phase1` over a pool: ``(index, label, h, ties)``."""

    def select(F, y, round_number):
        n, K = F.shape
        grid = crossing_points(F, y)
        current = log_exp_loss(F, y)
        ranks = [phase1_rank(F, y, h, grid, step) for h in pool.H]
        E = np.array([r[0] for r in ranks])
        L = np.array([r[1] for r in ranks])
        tied = np.flatnonzero(E == E.min())
        tol = phase1_tie_tolerance(n * K, L[tied], current, int(E.min()))
        ties = [int(i) for i in tied if L[i] <= L[tied].min() + tol]
        pick = ties[0] if choose is None else choose(round_number, ties)
        return pick, pool.labels[pick], pool.H[pick], ties

    return select


def _tree_select(codes, max_depth, equal_labels, step):
    """The weak learner of :func:`phase1` growing :func:`greedy_tree`: ``(index, label, h,
    ties)`` with no index, label or ties (-1, None, [])."""

    def select(F, y, round_number):
        h = greedy_tree(codes, F, y, F.shape[1], max_depth, equal_labels, step)
        return -1, None, h, []

    return select


def phase1(
    y, K, pool=None, max_rounds=1000, patience=50, choose=None, trees=None, step="best-midpoint"
):
    """Algorithm 1 from all-zero scores (rules: the module docstring), over the stumps of
    ``pool`` or, with ``trees=(codes, max_depth, equal_labels)``, with the greedy direct trees
    of :func:`greedy_tree`.

    ``choose(round_number, ties)``, when given, picks the candidate of the pool among ``ties``
    (indices the tie tolerance cannot separate, in pool order); by default the first."""
    select = _pool_select(pool, choose, step) if trees is None else _tree_select(*trees, step)
    n = y.size
    F = np.zeros((n, K))
    c, errors, plateau = 0.0, n, 0
    path = Path()
    while True:
        if errors == 0:
            path.stop_reason = "zero training error"
            break
        if len(path.rounds) >= max_rounds:
            path.stop_reason = "max_rounds"
            break
        pick, label, h, ties = select(F, y, len(path.rounds))
        current = log_exp_loss(F, y)
        new_errors, alpha, _, _, _ = zero_one_line(F, y, h, step=step)  # h's own intervals
        if new_errors > errors or (
            new_errors == errors and not log_exp_loss(add_vote(F, h, alpha), y) < current
        ):
            path.stop_reason = "coordinatewise minimum"
            break
        plateau = plateau + 1 if new_errors == errors else 0
        F = add_vote(F, h, alpha)
        c += alpha
        errors = count_errors(F, y)
        path.rounds.append(Round(pick, label, h, alpha, errors, ties))
        if plateau >= patience:
            path.stop_reason = "plateau"
            break
    path.F, path.c = F, c
    return path


# ---- Algorithm 2.1: the margin line search -------------------------------------------------------
def bottom_average(F, y, c, n_prime):
    """Objective (5): the mean of the ``n_prime`` smallest margins of ``F`` divided by ``c``."""
    return float(np.sort(margins(F, y) / c)[:n_prime].mean())


def margin_lines(F, y, h, sign):
    """``(P, Q)``, shape ``(n, K - 1)``: the margin numerator of example ``i`` along ``h`` at
    ``alpha = sign * b`` is ``min_j (P[i, j] + Q[i, j] b)`` over its wrong classes ``j``
    (``P = F_iy - F_ij``, ``Q = s_y - s_j`` with ``s_k = sign 1(h_i = k)``)."""
    n, K = F.shape
    rows = np.arange(n)
    s = np.where(np.arange(K)[None, :] == h[:, None], float(sign), 0.0)  # d F_ik / d b
    wrong = np.arange(K)[None, :] != y[:, None]
    P = (F[rows, y][:, None] - F)[wrong].reshape(n, K - 1)
    Q = (s[rows, y][:, None] - s)[wrong].reshape(n, K - 1)
    return P, Q


def _numerators(lines, b):
    """Each numerator at ``b >= 0`` and its right derivative (the smallest slope among the
    lines that are active there)."""
    P, Q = lines
    v = P + Q * b
    value = v.min(axis=1)
    slope = np.where(v == value[:, None], Q, np.inf).min(axis=1)
    return value, slope


def bottom_sum(values, slopes, n_prime, gap=0.0):
    """``(S, S')``: the sum of the ``n_prime`` smallest ``values`` and its right derivative.

    Values below the ``n_prime``-th smallest by more than ``gap`` are in the bottom set; the
    places left go to the values within ``gap`` of it, the smallest slopes first (the exact
    one-sided derivative of a sum of the smallest, when ``gap = 0``)."""
    vstar = np.sort(values)[n_prime - 1]
    below = values < vstar - gap
    tied = ~below & (values <= vstar + gap)
    need = n_prime - int(np.count_nonzero(below))
    S = float(np.sort(values)[:n_prime].sum())
    dS = float(slopes[below].sum() + np.sort(slopes[tied])[:need].sum())
    return S, dS


def slope_at_zero(F, y, h, sign, n_prime, near_tie=1e-12):
    """``S'(0+)`` along ``h`` on the half-line ``sign``: the estimator's phase-II split score
    (margins within ``near_tie max(1, max |F|)`` of the ``n_prime``-th one count as tied)."""
    value, slope = _numerators(margin_lines(F, y, h, sign), 0.0)
    gap = near_tie * max(1.0, float(np.abs(F).max()))
    return int(round(bottom_sum(value, slope, n_prime, gap)[1]))


def _phi_positive(lines, n_prime, c, b):
    """Whether the derivative (9) moving away from 0 is positive at ``|alpha| = b``."""
    S, dS = bottom_sum(*_numerators(lines, b), n_prime)
    phi = dS * (c + b) - S
    return bool(phi > 1e-12 * (abs(dS) * (c + b) + abs(S)))


def _tail(lines, n_prime):
    """``(p, s)``: the line ``p + s b`` that ``S`` ends on as ``b -> inf`` (each numerator ends
    on its line of smallest slope, then smallest intercept; the bottom set on the numerators of
    smallest final slope, then intercept)."""
    P, Q = lines
    order = np.lexsort((P, Q), axis=1)[:, 0]
    rows = np.arange(P.shape[0])
    p, s = P[rows, order], Q[rows, order]
    pick = np.lexsort((p, s))[:n_prime]
    return float(p[pick].sum()), float(s[pick].sum())


def _value(F, y, h, c, n_prime, alpha):
    """Objective (5) after adding ``h`` with weight ``alpha``, from the scores."""
    return bottom_average(add_vote(F, h, alpha), y, c + abs(alpha), n_prime)


def _values_along(F, y, h, c, n_prime, alphas):
    """:func:`_value` at every (finite) weight of ``alphas`` at once."""
    n, K = F.shape
    alphas = np.asarray(alphas, dtype=np.float64)
    vote = np.zeros((n, K))
    vote[np.arange(n), h] = 1.0
    G = F[None, :, :] + alphas[:, None, None] * vote[None, :, :]
    rows = np.arange(n)
    true = G[:, rows, y]
    G[:, rows, y] = -np.inf
    m = (true - G.max(axis=2)) / (c + np.abs(alphas))[:, None]
    return np.sort(m, axis=1)[:, :n_prime].mean(axis=1)


def search_side(F, y, h, c, n_prime, sign, th=1e-5):
    """``(b, value)``: Algorithm 2.1 on the half-line ``alpha = sign * b``, ``b >= 0``, with the
    estimator's interval (module docstring); ``b`` is ``inf`` when (5) rises without end, the
    value then its limit."""
    lines = margin_lines(F, y, h, sign)
    if not _phi_positive(lines, n_prime, c, 0.0):
        return 0.0, _value(F, y, h, c, n_prime, 0.0)
    p, s = _tail(lines, n_prime)
    if s * c - p > 1e-12 * (abs(s) * c + abs(p)):
        return np.inf, s / n_prime
    end = max(c, th)
    for _ in range(2100):
        if not _phi_positive(lines, n_prime, c, end):
            break
        end *= 2.0
    else:  # the tail check rules this out
        raise RuntimeError("no point with a non-positive derivative")
    begin = 0.0
    while end - begin >= th:
        q = 0.5 * (begin + end)
        if _phi_positive(lines, n_prime, c, q):
            begin = q
        else:
            end = q
    b = 0.5 * (begin + end)
    return b, _value(F, y, h, c, n_prime, sign * b)


def exact_side(F, y, h, c, n_prime, sign):
    """``(b, value)``: the exact maximizer of (5) on the half-line ``sign`` (``inf`` when the
    supremum is the limit), by direct evaluation at ``b = 0`` and at every positive crossing of
    two numerator lines -- ``S`` is linear between consecutive crossings, and there (5), a
    ratio of two linear functions, is monotone."""
    P, Q = margin_lines(F, y, h, sign)
    p, q = P.ravel(), Q.ravel()
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = (p[:, None] - p[None, :]) / (q[None, :] - q[:, None])
    points = np.unique(np.concatenate([[0.0], cross[np.isfinite(cross) & (cross > 0)]]))
    values = _values_along(F, y, h, c, n_prime, sign * points)
    best = int(np.argmax(values))
    tail_p, tail_s = _tail((P, Q), n_prime)
    if tail_s / n_prime > values[best] + 1e-12 and tail_s * c - tail_p > 0:
        return np.inf, tail_s / n_prime
    return float(points[best]), float(values[best])


@dataclass
class LineSearch:
    """Algorithm 2.1 along one weak classifier, both half-lines: the maximizer (signed), the
    step (the maximizer, or moved ``epsilon`` further from 0), (5) at the step, at the
    maximizer and at 0, and whether the maximizer is infinite."""

    maximizer: float
    alpha: float
    value: float
    max_value: float
    initial_value: float
    unbounded: bool


def margin_line_search(F, y, h, c, n_prime, th=1e-5, relax=False, epsilon=0.01):
    """Algorithm 2.1 on both half-lines; the larger value wins, ties to ``alpha > 0``."""
    best = None
    for sign in (1, -1):
        b, value = search_side(F, y, h, c, n_prime, sign, th)
        if best is None or value > best[2]:
            best = (sign, b, value)
    sign, b, value = best
    step_b = b + epsilon if relax else b
    if np.isfinite(step_b):
        step_value = _value(F, y, h, c, n_prime, sign * step_b)
    else:
        step_value = value
    return LineSearch(
        maximizer=sign * b,
        alpha=sign * step_b,
        value=step_value,
        max_value=value,
        initial_value=_value(F, y, h, c, n_prime, 0.0),
        unbounded=bool(np.isinf(b)),
    )


# ---- Algorithm 2: the rounds ---------------------------------------------------------------------
def _steepest(F, y, pool, sign, n_prime):
    """``(index, S'(0+))`` of the first stump of the pool with the largest ``S'(0+)`` on the
    half-line ``sign``."""
    slopes = [slope_at_zero(F, y, h, sign, n_prime) for h in pool.H]
    pick = int(np.argmax(slopes))
    return pick, slopes[pick]


@dataclass
class TreeCandidate:
    """One of the two trees of a phase-II round: the stump (pool index) with the largest
    ``S'(0+)`` on the half-line ``sign``, that slope, and its line search (both half-lines)."""

    index: int
    sign: int
    slope: int
    search: LineSearch


def phase2_candidates(F, y, pool, c, n_prime, epsilon=0.0, th=1e-5):
    """The bounded ones of the two trees of a phase-II round (first the one grown for
    ``alpha > 0``)."""
    candidates = []
    for sign in (1, -1):
        pick, slope = _steepest(F, y, pool, sign, n_prime)
        search = margin_line_search(F, y, pool.H[pick], c, n_prime, th, epsilon > 0, epsilon)
        if not search.unbounded:
            candidates.append(TreeCandidate(pick, sign, slope, search))
    return candidates


def rank_trees(candidates, prefer="positive"):
    """``(chosen, ties)``: the candidate with the larger maximum of (5), then the larger
    ``S'(0+)``, then the one grown for ``alpha > 0`` (``prefer="positive"``) or ``< 0``; and
    every candidate whose maximum is the chosen one's up to rounding (``1e-12 max(1,
    |value|)``).  The estimator compares the maxima exactly: when they are equal in exact
    arithmetic, its rounding may make either one larger (then ``S'(0+)`` and the preference do
    not decide), so all of these are ties."""
    order = 1 if prefer == "positive" else -1
    top = max(t.search.max_value for t in candidates)
    near = 1e-12 * max(1.0, abs(top))
    ties = [t for t in candidates if t.search.max_value >= top - near]
    chosen = max(ties, key=lambda t: (t.slope, order * t.sign))
    return chosen, [chosen] + [t for t in ties if t is not chosen]


def best_stump_by_value(F, y, pool, c, n_prime, th=1e-5):
    """``(index, search)``: the paper's reading of the phase-II weak learner (Alg. 1.2 with the
    0-1 loss replaced by (5)), not the estimator's: the stump whose line
    search (both half-lines, no relaxation) reaches the largest (bounded) value of (5), ties
    to the pool order."""
    best = None
    for i, h in enumerate(pool.H):
        search = margin_line_search(F, y, h, c, n_prime, th)
        if not search.unbounded and (best is None or search.max_value > best[1].max_value):
            best = (i, search)
    return best


def _fallback(F, y, pool, c, n_prime, threshold, th):
    """The first stump, steepest first (``max`` over both half-lines of ``S'(0+)``, ties to the
    pool order), among those with ``phi(0) > 0`` on some side, whose line search reaches (5)
    above ``threshold`` (bounded); ``None`` when none does."""
    S = float(np.sort(margins(F, y))[:n_prime].sum())
    slopes = np.array(
        [
            max(slope_at_zero(F, y, h, 1, n_prime), slope_at_zero(F, y, h, -1, n_prime))
            for h in pool.H
        ]
    )
    admissible = np.flatnonzero(slopes * c - S > 1e-12 * (np.abs(slopes) * c + abs(S)))
    for i in admissible[np.argsort(-slopes[admissible], kind="stable")]:
        search = margin_line_search(F, y, pool.H[i], c, n_prime, th)
        if search.max_value > threshold and not search.unbounded:
            return int(i), search
    return None


def phase2(
    y,
    pool,
    F,
    c,
    n_prime,
    epsilon=0.0,
    th=1e-5,
    max_rounds=1000,
    patience=50,
    prefer="positive",
    choose=None,
    improvement_tol=1e-6,
):
    """Algorithm 2 over the stumps of ``pool`` from the phase-I scores ``F`` and ``c``
    (rules: the module docstring).  ``prefer``: which of two trees tied on (5) and ``S'(0+)``
    is taken (:func:`rank_trees`).  ``choose(round_number, ties)``, when given, picks among
    the pool indices of the trees :func:`rank_trees` reports as ties (by default the first).
    Returns the whole :class:`Path` (not cut back); ``best_rounds`` is the round count the
    estimator keeps under relaxation."""
    relaxed = epsilon > 0
    F = np.array(F, dtype=np.float64, copy=True)
    path = Path()
    best_value = bottom_average(F, y, c, n_prime)
    stall = 0
    path.stop_reason = "max_rounds"
    while len(path.rounds) < max_rounds:
        candidates = phase2_candidates(F, y, pool, c, n_prime, epsilon, th)
        if not candidates:
            path.stop_reason = "unbounded step"
            break
        chosen, tied = rank_trees(candidates, prefer)
        search = chosen.search
        tol = improvement_tol * max(1.0, abs(search.initial_value))
        if not relaxed and not search.max_value > search.initial_value + tol:
            found = _fallback(F, y, pool, c, n_prime, search.initial_value + tol, th)
            if found is None:
                path.stop_reason = "coordinatewise maximum"
                break
            pick, search = found
            ties = [pick]
        else:
            ties = [t.index for t in tied]
            if choose is not None and len(tied) > 1:
                index = choose(len(path.rounds), ties)
                chosen = next(t for t in tied if t.index == index)
            pick, search = chosen.index, chosen.search
        h = pool.H[pick]
        F = add_vote(F, h, search.alpha)
        c += abs(search.alpha)
        value = bottom_average(F, y, c, n_prime)
        path.rounds.append(Round(pick, pool.labels[pick], h, search.alpha, value, ties))
        if value > best_value:
            best_value, path.best_rounds, stall = value, len(path.rounds), 0
        else:
            stall += 1
            if relaxed and stall >= patience:
                path.stop_reason = "no improvement within patience"
                break
    path.F, path.c = F, c
    return path


# ---- trees of depth 2: greedy (Alg. 1.2) and exhaustive ------------------------------------------
def greedy_tree(codes, F, y, K, max_depth=2, equal_labels=True, step="best-midpoint"):
    """The direct tree of Algorithm 1.2 as the estimator grows it (module docstring): level by
    level, left to right, each node with a separating threshold split at the (feature,
    threshold, label pair) whose whole partial tree ranks first by :func:`phase1_rank`;
    candidates are scanned in the order feature, threshold, right label, left label and one
    replaces the best so far only when it ranks before it beyond the tie tolerance.  The root
    starts as the best constant classifier.  Returns the prediction vector."""
    n = y.size
    grid = crossing_points(F, y)
    current = log_exp_loss(F, y)

    def better(r1, r2):
        if r1[0] != r2[0]:
            return r1[0] < r2[0]
        return r1[1] < r2[1] - phase1_tie_tolerance(n * K, [r1[1], r2[1]], current, r1[0])

    h, best = None, None
    for k in range(K):
        r = phase1_rank(F, y, np.full(n, k), grid, step)
        if best is None or better(r, best):
            h, best = np.full(n, k, dtype=np.int64), r
    level = [np.arange(n)]
    for _ in range(max_depth):
        next_level = []
        for samples in level:
            best, best_h, children = None, None, None
            for f in range(codes.shape[1]):
                for t in _thresholds(codes[samples, f]):
                    left = samples[codes[samples, f] <= t]
                    right = samples[codes[samples, f] > t]
                    for left_label, right_label in _label_pairs(K, equal_labels):
                        g = h.copy()
                        g[left], g[right] = left_label, right_label
                        r = phase1_rank(F, y, g, grid, step)
                        if best is None or better(r, best):
                            best, best_h, children = r, g, (left, right)
            if best_h is not None:
                h = best_h
                next_level += list(children)
        level = next_level
    return h


def best_tree_depth2(codes, F, y, K, equal_labels=True):
    """``(errors, h)``: the fewest phase-I errors (over ``alpha > 0``) reachable by adding one
    tree of depth <= 2, and a tree reaching them, by exhaustive search.

    Every (root split, left child, right child) of :func:`tree_pool_depth2` is tried.  The
    error of any tree is constant between consecutive points of the grid of every crossing
    point, so per grid interval ``j`` the errors of a tree are the errors of its left part plus
    those of its right part, each counted directly from the scores at an inner point."""
    n = y.size
    _, _, inner = _intervals(crossing_points(F, y))
    # wrong[i, k, j]: example i voted k is an error at the inner point of interval j
    wrong = np.array(
        [[_wrong_each(F, y, np.full(n, k), t) for t in inner] for k in range(K)]
    ).transpose(2, 0, 1)
    rows = np.arange(n)
    best = (n + 1, None)
    for f in range(codes.shape[1]):
        for t in _thresholds(codes[:, f]):
            root_left = codes[:, f] <= t
            parts = []
            for side in (root_left, ~root_left):
                options = _child_options(codes, side, K, equal_labels)
                labels = np.array([o[1] for o in options])  # (options, |side|)
                # errors of each option on each interval: sum over the side's examples
                counts = wrong[rows[side], labels].sum(axis=1)  # (options, J)
                parts.append((options, labels, counts))
            (_, left_labels, left_counts), (_, right_labels, right_counts) = parts
            total = left_counts[:, None, :] + right_counts[None, :, :]  # (L, R, J)
            per_tree = total.min(axis=2)
            a, b = np.unravel_index(int(np.argmin(per_tree)), per_tree.shape)
            if per_tree[a, b] < best[0]:
                h = np.empty(n, dtype=np.int64)
                h[root_left], h[~root_left] = left_labels[a], right_labels[b]
                best = (int(per_tree[a, b]), h)
    return best


def _wrong_each(F, y, h, alpha):
    """Per example: whether it is an error after adding ``h`` with weight ``alpha``."""
    return margins(add_vote(F, h, alpha), y) <= 0
