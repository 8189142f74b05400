r"""DOOM II (Mason, Baxter, Bartlett & Frean 1999, Sec. 5), written for reading: AnyBoost on the
normalized sigmoid cost over an explicit finite pool of weak hypotheses.

A weak hypothesis is its prediction vector ``h`` in {-1, +1}^m on the training set; a *pool* is
a matrix ``H`` of shape (m, K), one column per hypothesis.  The combination is a weight vector
``w`` over the columns, ``F = H @ w``.  Nothing is imported from the package.

What the paper states, and where the rest comes from:

* **Cost** (eq. 4): ``C(F) = sum_i s_i (1 - tanh(lam * y_i F(x_i)))`` with ``s_i = 1/m`` (the
  paper's average; other ``s`` are fit's ``sample_weight``).
* **Inner product** (eq. 2) and the weak learner (Sec. 3): the learner returns the column with
  the largest ``-<grad C(F), h> ∝ sum_i D_i y_i h_i``, ``D_i ∝ -s_i c'(y_i F_i) =
  s_i lam sech^2(lam y_i F_i)``; ties go to the lowest column index.
* **Convex combination** (Sec. 5: "F must be a convex combination of base hypotheses") and the
  update of the full version's AnyBoost.L1 (the paper's ref. [15]):
  ``w_{t+1} = (w_t + eps e_k) / ||w_t + eps e_k||_1``, computed literally (so ``w_1 = e_k``
  from ``w_0 = 0``, whatever ``eps``).
* **Step**: the fixed ``eps = 0.05`` of all the paper's experiments.
* **Stop**: AnyBoost.L1 stops when the chosen hypothesis does not point downhill along the
  direction the normalized update moves in, ``-<grad C(F_t), h - F_t> <= 0`` (``stop="moved"``);
  Algorithm 1 of the seed paper tests ``-<grad C(F_t), h> <= 0`` (``stop="algorithm1"``).
  A derivative within ``1e-12`` (relative) of zero counts as zero.

``choose`` replaces the exact learner by a caller's rule (a function of the round and the
weights ``D``): the estimator's boosting by resampling draws a sample from ``D`` and fits a stump
to it, which this reference does not reimplement; a test hands the reference the estimator's
choices and compares everything else round by round.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

RELATIVE_ZERO = 1e-12


def cost(F: np.ndarray, y: np.ndarray, lam: float, s: np.ndarray | None = None) -> float:
    """Normalized sigmoid cost (4) of the combination's values ``F`` on the training set."""
    s = np.full(y.shape[0], 1.0 / y.shape[0]) if s is None else s
    return float(s @ (1.0 - np.tanh(lam * y * F)))


def weights(F: np.ndarray, y: np.ndarray, lam: float, s: np.ndarray | None = None) -> np.ndarray:
    """Example weights ``D ∝ -s_i c'(y_i F_i)``, summing to 1."""
    s = np.full(y.shape[0], 1.0 / y.shape[0]) if s is None else s
    D = s * lam / np.cosh(lam * y * F) ** 2
    return D / D.sum()


def doom2(
    H: np.ndarray,
    y: np.ndarray,
    lam: float,
    *,
    eps: float = 0.05,
    n_rounds: int = 100,
    s: np.ndarray | None = None,
    stop: str = "moved",
    choose: Callable[[int, np.ndarray], int] | None = None,
) -> dict:
    """Run DOOM II on the pool ``H``; return the per-round record.

    The record holds, for each accepted round ``t``: ``D`` (the weights the learner was given),
    ``chosen`` (column index), ``edge`` (``sum_i D_i y_i h_i``), ``w`` and ``F`` (after the
    update), ``cost`` (after the update); and ``stop`` (why it ended).
    """
    m, K = H.shape
    w = np.zeros(K)
    record: dict = {
        "D": [],
        "chosen": [],
        "edge": [],
        "w": [],
        "F": [],
        "cost": [],
        "stop": "n_rounds",
    }
    for t in range(n_rounds):
        F = H @ w
        D = weights(F, y, lam, s)
        if choose is None:
            k = int(np.argmax(D @ (y[:, None] * H)))
        else:
            k = int(choose(t, D))
        h = H[:, k]
        move = h - F if stop == "moved" else h
        derivative = float(D @ (y * move))
        if not derivative > RELATIVE_ZERO * float(D @ np.abs(move)):
            record["stop"] = "not downhill"
            break
        unnormalized = w.copy()
        unnormalized[k] += eps
        w = unnormalized / np.abs(unnormalized).sum()
        F = H @ w
        record["D"].append(D)
        record["chosen"].append(k)
        record["edge"].append(float(D @ (y * h)))
        record["w"].append(w.copy())
        record["F"].append(F)
        record["cost"].append(cost(F, y, lam, s))
    return record


def step_cost_changes(
    H: np.ndarray, y: np.ndarray, lam: float, k: int, *, eps: float = 0.05
) -> np.ndarray:
    """``C((h_k + eps h_j) / (1 + eps)) - C(h_k)`` for every column ``j``: the change of the cost
    of one DOOM II step away from the single hypothesis ``F = h_k``."""
    base = cost(H[:, k], y, lam)
    return np.array(
        [cost((H[:, k] + eps * H[:, j]) / (1.0 + eps), y, lam) - base for j in range(H.shape[1])]
    )


def stump_pool(X: np.ndarray) -> tuple[np.ndarray, list[tuple[int, float, float, float]]]:
    """Every distinct ±1 stump on ``X``: ``h(x) = a if x_j <= threshold else b`` for each
    feature, each midpoint between consecutive distinct values and each ``(a, b)`` in
    {±1}^2 (the constant hypotheses included, as a stump with two equal leaves is one).
    Columns that take the same values on every row are kept once (the first).
    """
    columns, labels, seen = [], [], set()
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for threshold in (values[:-1] + values[1:]) / 2:
            left = X[:, j] <= threshold
            for a in (1.0, -1.0):
                for b in (1.0, -1.0):
                    h = np.where(left, a, b)
                    key = h.tobytes()
                    if key not in seen:
                        seen.add(key)
                        columns.append(h)
                        labels.append((j, float(threshold), a, b))
    return np.array(columns).T, labels


def column_of(H: np.ndarray, h: np.ndarray) -> int:
    """Index of the pool column equal to the prediction vector ``h``."""
    matches = np.flatnonzero(np.all(H == h[:, None], axis=0))
    if matches.size != 1:
        raise AssertionError(f"{matches.size} pool columns equal the given hypothesis")
    return int(matches[0])
