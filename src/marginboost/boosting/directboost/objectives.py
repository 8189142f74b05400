r"""DirectBoost's objectives (Zhai et al. 2013): what a direct tree's split scores, per phase.

Each round grows a direct tree (:class:`~marginboost.weak.DirectTreeBuilder`) on one of them:
:class:`ZeroOneObjective` in phase 1 (the training 0-1 loss after the best step, kernels
:mod:`~marginboost.boosting.directboost._phase1_kernels`) and :class:`MarginObjective` in
phase 2 (the margin objective, :func:`margin_objective`, after the step along the tree, kernels
:mod:`~marginboost.boosting.directboost._phase2_kernels`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...margins import check_n_prime
from .._direct_common import empty_scores
from . import _phase1_kernels as _k1
from . import _phase2_kernels as _k2

if TYPE_CHECKING:
    from ...weak.direct import DirectNode, DirectTreeState

FloatArray = NDArray[np.float64]

__all__ = ["margin_objective", "sorted_margin_objective", "ZeroOneObjective", "MarginObjective"]


def margin_objective(margins: ArrayLike, n_prime: int, objective: str = "average") -> float:
    """Bottom-``n_prime`` average (``"average"``) or ``n_prime``-th smallest (``"order"``) of
    the given (normalized) margins."""
    return sorted_margin_objective(
        np.sort(np.asarray(margins, dtype=np.float64)), n_prime, objective
    )


def sorted_margin_objective(m: FloatArray, n_prime: int, objective: str = "average") -> float:
    """:func:`margin_objective` of margins already sorted in increasing order."""
    n_prime = check_n_prime(n_prime, m.size)
    return float(m[:n_prime].mean() if objective == "average" else m[n_prime - 1])


class ZeroOneObjective:
    r"""Direct-tree objective of phase 1: the training 0-1 loss after the best step.

    A split scores ``-(errors + t)``, where ``errors`` is the fewest training errors of the
    ensemble plus the tree along :math:`\alpha`
    (:func:`~marginboost.boosting.directboost.line_search.zero_one_line_search`) and
    :math:`t \in (0, 1)` increases with the exponential loss at the chosen step, so that equal
    error counts are ranked by exponential loss (the paper's tie rule).  Leaves predict
    :math:`\pm 1`; no example weights are involved.

    Parameters
    ----------
    a : array (n,)
        Current unnormalized margins :math:`y_i F(x_i)`.
    y : array (n,)
        Labels in {-1, +1}.
    step : {"exp-loss", "midpoint"}, default "exp-loss"
        The step along a candidate: among the intervals of :math:`\alpha` with the fewest
        errors, the point with the smallest exponential loss
        (:func:`~marginboost.boosting.directboost._phase1_kernels.exp_loss_step`), or the
        midpoint of the first such interval.
    """

    kind = "binary"

    def __init__(
        self, a: NDArray[np.float64], y: NDArray[np.float64], step: str = "exp-loss"
    ) -> None:
        if step not in ("exp-loss", "midpoint"):
            raise ValueError(f"step must be 'exp-loss' or 'midpoint'; got {step!r}")
        self.step = step
        self.a = np.ascontiguousarray(a, dtype=np.float64)
        self.y = np.ascontiguousarray(y, dtype=np.float64)
        self.r, self.V = _k1.zero_one_ranks(self.a)
        self.shift = float(np.max(-self.a))
        self.w = np.exp(-self.a - self.shift)
        self.reference = self.shift + float(np.log(self.w.sum()))

    def line(self, h: NDArray[np.float64]) -> tuple[int, float, float, float]:
        """``(errors, alpha, score, log exp loss)`` of adding ``h`` (the paper's Algorithm 1)
        with the step of :attr:`step` -- the step at which splits are scored, too."""
        bad = (self.y * h) < 0
        errors, alpha, score, loss = _k1.phase1_line(
            self.a, self.r, self.V, bad, self.w, self.shift, self.reference, self.step == "exp-loss"
        )
        return int(errors), float(alpha), float(score), float(loss)

    def split_scores(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        pred = state.predictions()
        outside = np.ones(self.a.size, dtype=bool)
        outside[node.samples] = False
        bad_out = outside & (self.y * pred < 0)
        base = _k1.errors_by_interval(self.a, self.r, self.V.size, bad_out)
        scores, left, right = empty_scores(codes.shape[1])
        _k1.phase1_split_scores(
            codes,
            node.samples,
            self.y,
            self.a,
            self.r,
            self.V,
            base,
            float(self.w[bad_out].sum()),
            self.w,
            self.shift,
            self.reference,
            scores,
            left,
            right,
            numba.get_num_threads(),
            self.step == "exp-loss",
        )
        return scores, left, right

    def leaf_value(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        plus = self.line(np.ones_like(self.a))[2]
        minus = self.line(-np.ones_like(self.a))[2]
        return 1.0 if plus >= minus else -1.0

    def stay_score(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        """Score of the partial tree as it is (a node below the root splits only to beat it)."""
        return self.line(state.predictions())[2]


class MarginObjective:
    r"""Direct-tree objective of phase 2: the margin objective after the step along the tree.

    A split scores the bottom-:math:`n'` average (``objective="average"``) or the
    :math:`n'`-th smallest (``"order"``) normalized margin at the step
    :func:`~marginboost.boosting.directboost._phase2_kernels.phase2_line` takes along it (the
    maximizer, moved by ``epsilon`` under relaxation); with ``restricted`` the search stays in
    :math:`[0, d)`, the region where no correctly classified example is lost.

    Parameters
    ----------
    a : array (n,)
        Current unnormalized margins.
    y : array (n,)
        Labels in {-1, +1}.
    c : float
        Sum of the current weights (> 0).
    n_prime : int
        Number of bottom examples.
    objective : {"average", "order"}
    restricted : bool
    epsilon : float
        Relaxation (0 for none).
    end_gap : float
        How far below ``d`` a step that reaches ``d`` stops.
    order : array of int64 (n,), optional
        ``np.argsort(a, kind="stable")`` when the caller has it already.
    sparse : tuple of arrays, optional
        :func:`~marginboost.boosting.directboost._phase2_kernels.sparse_code_rows` of the codes
        the trees are grown on, when the caller has it already (it depends on the codes alone);
        computed at the first split otherwise.
    """

    kind = "binary"

    def __init__(
        self,
        a: ArrayLike,
        y: ArrayLike,
        c: float,
        n_prime: int,
        objective: str = "average",
        restricted: bool = True,
        epsilon: float = 0.0,
        end_gap: float = 0.01,
        order: NDArray[np.int64] | None = None,
        sparse: tuple[NDArray[np.int64], ...] | None = None,
    ) -> None:
        self.a = np.ascontiguousarray(a, dtype=np.float64)
        self.y = np.ascontiguousarray(y, dtype=np.float64)
        self.c = float(c)
        self.n_prime = check_n_prime(n_prime, self.a.size)
        if objective not in ("average", "order"):
            raise ValueError(f"objective must be 'average' or 'order'; got {objective!r}")
        self.order_objective = objective == "order"
        self.restricted = bool(restricted)
        self.epsilon = float(epsilon)
        self.end_gap = float(end_gap)
        self.order = np.argsort(self.a, kind="stable") if order is None else order
        self.sparse = sparse
        self._sparse_positions: tuple[NDArray[np.int64], NDArray[np.int64], int] | None = None
        self._sorted: tuple[NDArray[np.int64], FloatArray, FloatArray] | None = None

    def line(self, h: NDArray[np.float64]) -> tuple[float, float, float]:
        """``(maximizer q, step, objective value at the step)`` of adding ``h``."""
        b = self.y * h
        R, kr, F, kf, d = _k2.collect_lines(self.order, self.a, b, self.n_prime, self.restricted)
        q, step, value = _k2.phase2_line(
            R, kr, F, kf, self.n_prime, self.c, d, self.order_objective, self.epsilon, self.end_gap
        )
        return float(q), float(step), float(value)

    def split_scores(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        pred = np.ascontiguousarray(state.predictions())
        scores, left, right = empty_scores(codes.shape[1])
        if self.sparse is None:
            self.sparse = _k2.sparse_code_rows(codes)
        mode, other, row_ptr, row_features, feature_ptr = self.sparse
        if self._sparse_positions is None:  # once per round: the order is the round's
            # the positions the line searches mostly read: the kernel's first limit and its
            # first raise by half (the next, 2.25 times the first, sweeps without them)
            first = min(self.a.size, (_k2.NEAR_FACTOR + self.order_objective) * self.n_prime)
            stop = min(self.a.size, first + first // 2)
            self._sparse_positions = (
                *_k2.sparse_code_positions(self.order, row_ptr, row_features, feature_ptr, stop),
                stop,
            )
            self._sorted = _k2.sorted_by_margin(self.order, self.a, self.y)
        _k2.phase2_split_scores(
            codes,
            node.samples,
            node.code_counts(codes),
            pred,
            self.order,
            self._sorted,
            self.n_prime,
            self.c,
            self.restricted,
            self.order_objective,
            self.epsilon,
            self.end_gap,
            scores,
            left,
            right,
            numba.get_num_threads(),
            mode,
            other,
            feature_ptr,
            *self._sparse_positions,
        )
        return scores, left, right

    def leaf_value(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        plus = self.line(np.ones_like(self.a))
        minus = self.line(-np.ones_like(self.a))
        return 1.0 if plus[2] >= minus[2] else -1.0

    def stay_score(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        """Objective of the partial tree as it is (a node below the root splits only to beat it)."""
        return self.line(np.ascontiguousarray(state.predictions()))[2]
