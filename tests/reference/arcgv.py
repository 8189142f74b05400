r"""Arc-Gv (Breiman 1999) and AdaBoost, written for reading: coordinate descent over an explicit
finite pool of weak hypotheses, with the step of Shen & Li (2010), eqs. (7) and (8).

A weak hypothesis is its prediction vector ``h`` in {-1, +1}^m on the training set; a *pool* is
a matrix ``H`` of shape (m, K), one column per hypothesis, and ``A = y[:, None] * H`` holds the
products :math:`y_i h_j(x_i)`.  Nothing is imported from the package.

What the papers state, and where the rest comes from:

* **Weights** (Shen & Li, Algorithm 1; Breiman 1999, arc-gv): :math:`u_i \propto s_i
  e^{-y_i F(x_i)}` on the *unnormalized* combination :math:`F = \sum_s w_s h_s`, as in AdaBoost
  (computed as :math:`s_i e^{-(m_i - \min_k m_k)}`, a positive multiple).
* **Weak learner**: the column with the largest edge :math:`r_j = \sum_i u_i A_{ij}` (the
  smallest weighted error); ties go to the lowest column index.
* **Step** (Shen & Li eq. (8); Breiman's arc-gv):
  :math:`w_j = \tfrac12\log\frac{1+r_j}{1-r_j} - \tfrac12\log\frac{1+\varrho_j}{1-\varrho_j}`,
  with :math:`\varrho_j` taken *before* the update from the combination of rounds
  :math:`1, \dots, j-1`, normalized by :math:`\sum_{s<j} w_s` (:math:`\varrho_1 = 0`).
  ``rho`` chooses which :math:`\varrho_j`:

  - ``"current"``: the current minimum normalized margin (Breiman; Shen & Li's text);
  - ``"best"``: the largest minimum normalized margin of the combinations so far,
    :math:`\max_{s<j}\varrho^{\min}_s` with :math:`\varrho_1 = 0` included (so never below 0;
    the variant of Meir & Rätsch 2003 and Rudin et al. 2007);
  - ``"clipped"``: the current minimum margin clipped at 0, :math:`\max(\varrho^{\min}_j, 0)`.

* **Clip** (Shen & Li, after eq. (8), citing Breiman): :math:`w_j` is clipped into
  :math:`[0, \text{upper}]` (``upper=1.0``: Shen & Li's :math:`[0, 1]`; ``upper=None``: only at
  0).  ``rule="adaboost"`` uses eq. (7) instead, :math:`\tfrac12\log\frac{1+r_j}{1-r_j}`.
* **Stop**: a step of 0 (the edge does not exceed :math:`\varrho_j`) ends the run.
"""

from __future__ import annotations

import numpy as np

RHO_RULES = ("current", "best", "clipped")


def half_log_ratio(x: float) -> float:
    r""":math:`\tfrac12\log\frac{1+x}{1-x}` (``+inf`` at 1, ``-inf`` at -1)."""
    with np.errstate(divide="ignore"):
        return float(0.5 * np.log((1.0 + x) / (1.0 - x)))


def weights(A: np.ndarray, s: np.ndarray, F: np.ndarray) -> np.ndarray:
    """AdaBoost's example weights ``u ∝ s_i exp(-y_i F_i)``, summing to 1 (``A`` unused but for
    its row count; ``F`` holds the margins ``y_i F(x_i)``)."""
    u = s * np.exp(-(F - F.min()))
    return u / u.sum()


def step(
    A: np.ndarray,
    s: np.ndarray,
    F: np.ndarray,
    total: float,
    best: float,
    *,
    rule: str = "arc_gv",
    rho: str = "current",
    upper: float | None = 1.0,
) -> tuple[int, float, float, float]:
    """One round from the state ``F_i = y_i sum_s w_s h_s(x_i)``, ``total = sum_s w_s`` and
    ``best`` (the largest minimum margin so far, 0 before round 1).

    Returns ``(k, r, rho_j, w)``: the chosen column, its edge, the margin term's
    :math:`\\varrho_j` and the weight after the clip (``rule="adaboost"``: eq. (7)).
    """
    if rho not in RHO_RULES:
        raise ValueError(f"rho must be one of {RHO_RULES}; got {rho!r}")
    u = weights(A, s, F)
    edges = u @ A
    k = int(np.argmax(edges))
    r = float(edges[k])
    current = float(F.min() / total) if total > 0 else 0.0
    rho_j = {"current": current, "best": max(best, current), "clipped": max(current, 0.0)}[rho]
    if rule == "adaboost":
        return k, r, rho_j, half_log_ratio(r)
    w = half_log_ratio(r) - half_log_ratio(rho_j)
    w = max(w, 0.0) if upper is None else min(max(w, 0.0), upper)
    return k, r, rho_j, w


def arc_gv(
    A: np.ndarray,
    s: np.ndarray | None = None,
    n_rounds: int = 100,
    *,
    rule: str = "arc_gv",
    rho: str = "current",
    upper: float | None = 1.0,
) -> dict:
    """Run Arc-Gv (or AdaBoost, ``rule="adaboost"``) on ``A = y[:, None] * H``.

    Returns the per-round record as arrays: ``picks`` (column index), ``edges``, ``rhos`` (the
    :math:`\\varrho_j` used), ``steps`` (:math:`w_j` after the clip) and ``min_margins`` (the
    minimum normalized margin *after* the round); and ``stop`` (why it ended).
    """
    m = A.shape[0]
    s = np.full(m, 1.0 / m) if s is None else s
    F = np.zeros(m)
    total = 0.0
    best = 0.0  # max over s < j of the minimum margins, with rho_1 = 0
    out: dict = {"picks": [], "edges": [], "rhos": [], "steps": [], "min_margins": []}
    stop = "n_rounds"
    for _ in range(n_rounds):
        k, r, rho_j, w = step(A, s, F, total, best, rule=rule, rho=rho, upper=upper)
        if not w > 0.0:
            stop = "zero step"
            break
        F = F + w * A[:, k]
        total += w
        best = max(best, float(F.min() / total))
        out["picks"].append(k)
        out["edges"].append(r)
        out["rhos"].append(rho_j)
        out["steps"].append(w)
        out["min_margins"].append(float(F.min() / total))
    record = {key: np.array(value) for key, value in out.items()}
    record["stop"] = stop
    return record
