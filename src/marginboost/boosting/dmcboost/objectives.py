r"""DMCBoost's objectives for its multi-class direct trees (Zhai, Xia & Wang 2014): what a
split scores, per phase.

Phase I's :class:`ZeroOneTreeObjective` scores a split by the fewest training errors along the
tree's weight (Algorithm 1.2; kernels :mod:`~marginboost.boosting.dmcboost._phase1_kernels`
and :mod:`~marginboost.boosting.dmcboost._phase1_split_kernels`), phase II's
:class:`MarginSlopeObjective` by the slope of the bottom-:math:`n'` average margin at 0
(Algorithm 2; kernels :mod:`~marginboost.boosting.dmcboost._phase2_kernels`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numba
import numpy as np
from numpy.typing import NDArray

from .._direct_common import PARALLEL_WORK, empty_scores, tie_break
from . import _phase1_kernels as _k1
from . import _phase1_split_kernels as _ks
from . import _phase2_kernels as _k2

if TYPE_CHECKING:
    from ...weak.direct import DirectNode, DirectTreeState

__all__ = ["ZeroOneTreeObjective", "MarginSlopeObjective"]


def _label_ties_first(values: NDArray[np.float64]) -> int:
    """Index of the largest value; ties go to the lowest index."""
    return int(np.flatnonzero(values == values.max())[0])


class ZeroOneTreeObjective:
    r"""Direct-tree objective of phase I (Alg. 1.2): the 0-1 error after the best step.

    A candidate scores ``-(errors + t)``, ``errors`` the fewest training errors of the
    ensemble plus the (partial) tree over :math:`\alpha > 0` and :math:`t \in (0, 1)`
    increasing with the exponential loss at the chosen step (see the module docstring).

    Parameters
    ----------
    F : array (n, K)
        Current class scores.
    y : int array (n,)
        Class indices ``0 .. K-1``.
    max_intervals : int or None
        When the line search has more intervals than this, splits are scored on this many of
        them, evenly spaced in rank (including the first and the last), instead of all of
        them; ``None``: always all of them (see :class:`~marginboost.DMCBoost`).
    equal_labels : bool
        Whether the two children of a split may get the same label.
    step : {"best-midpoint", "midpoint", "exp-loss"}
        The step inside the intervals with the fewest errors (see :class:`~marginboost.DMCBoost`).
    """

    kind = "multiclass"

    def __init__(
        self,
        F: NDArray[np.float64],
        y: NDArray[np.intp],
        max_intervals: int | None = None,
        equal_labels: bool = True,
        step: str = "best-midpoint",
    ) -> None:
        self.mode = _k1.step_mode(step)
        self.step = step
        F = np.ascontiguousarray(F, dtype=np.float64)
        n, K = F.shape
        rows = np.arange(n)
        y = np.asarray(y, dtype=np.int64)
        own = y[:, None] == np.arange(K)
        # the crossings and the error ranges in two compiled passes (``lo``/``hi``: label k
        # of example i is an error on the intervals lo <= j < hi; label y_i is wrong on the
        # intervals 0..r while its crossing q1 = a_l - a_true > 0 lies ahead, a label k !=
        # y_i of an example classified right from its crossing q2 = a_true - f_k on, and
        # always when the example is misclassified now)
        a_true, a_l, points = _k1.phase1_crossings(F, y)
        self.V = np.unique(points)
        m = self.V.size
        self._intervals = np.arange(m + 1, dtype=np.int64)  # the profile's interval indices
        self.lo, self.hi = _k1.phase1_ranges(F, y, a_true, a_l, self.V)
        # exponential loss: u_ik = exp(f_k - f_y - shift), w_i = sum_{k != y_i} u_ik
        diff = np.where(own, -np.inf, F - a_true[:, None])
        self.shift = float(diff.max())
        u = np.exp(diff - self.shift)
        w = u.sum(axis=1)
        # G, B and R side by side in one (n, K, 3) array, written in place; Gk, Bk and Rk
        # are views of it.  G: w_i at the true label, 0 elsewhere; B: u; R: w_i - u_ik
        # (not below 0) off the true label, 0 at it.
        self.parts = np.empty((n, K, 3))
        self.Gk, self.Bk, self.Rk = (self.parts[:, :, c] for c in range(3))
        self.Gk[...] = 0.0
        self.Gk[rows, y] = w
        self.Bk[...] = u
        np.subtract(w[:, None], u, out=self.Rk)
        np.maximum(self.Rk, 0.0, out=self.Rk)
        self.Rk[rows, y] = 0.0
        self.reference = self.shift + float(np.log(w.sum()))
        self.n_classes = K
        self.equal_labels = bool(equal_labels)
        self.max_intervals = max_intervals
        if max_intervals is not None and m + 1 > max_intervals:
            self.J = np.unique(np.rint(np.linspace(0, m, max_intervals)).astype(np.int64))
        else:
            self.J = np.arange(m + 1, dtype=np.int64)
        self.exact = self.J.size == m + 1
        self._grid: tuple[NDArray[np.int64], NDArray[np.int64]] | None = None
        #: ``None``: :meth:`_kernel` chooses; else one of its kernels' names
        self.kernel: str | None = None
        self._bins_of: tuple[NDArray[np.uint8], int] | None = None

    def _grid_ranges(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The error ranges as positions in :attr:`J` (computed once)."""
        if self._grid is None:
            self._grid = (
                np.searchsorted(self.J, self.lo).astype(np.int64),
                np.searchsorted(self.J, self.hi).astype(np.int64),
            )
        return self._grid

    def _use_grid(self, codes: NDArray[np.uint8], n_node: int) -> bool:
        """Whether the per-bin profile kernel is the cheaper one for this node: it touches
        about ``bins * G`` cells per label pair (``G`` intervals scored), the segment tree
        ``G + 2 n_node log2(G + 1)``.  Both are exact on the intervals scored."""
        G = self.J.size
        return bool(self._bins(codes) * G < G + 2.0 * n_node * np.log2(G + 1))

    def _bins(self, codes: NDArray[np.uint8]) -> int:
        """The number of codes in use, ``codes.max() + 1``: read once per codes array (a tree
        scores all its nodes on the same one), not once per node and kernel test."""
        if self._bins_of is None or self._bins_of[0] is not codes:
            self._bins_of = (codes, int(codes.max()) + 1)
        return self._bins_of[1]

    def score(
        self, h: NDArray[np.intp], mask: NDArray[np.bool_] | None = None
    ) -> tuple[int, float, float]:
        """``(errors, alpha on the grid, score)`` of adding the classifier ``h``."""
        mask = np.ones(h.size, dtype=bool) if mask is None else mask
        E = _k1.errors_profile(self.lo, self.hi, h, mask, self.V.size)
        G, B, R = _k1.loss_sums(self.Gk, self.Bk, self.Rk, h, mask)
        errors, alpha = _k1.profile_step(E, self._intervals, self.V, self.mode, G, B)
        loss = _k1.log_loss3(alpha, G, B, R, self.shift)
        return int(errors), float(alpha), -(int(errors) + float(tie_break(loss, self.reference)))

    def log_loss(self, h: NDArray[np.intp], alpha: float) -> float:
        """Log of the multi-class exponential loss after adding ``h`` with weight ``alpha``."""
        G, B, R = _k1.loss_sums(
            self.Gk, self.Bk, self.Rk, np.asarray(h, np.int64), np.ones(len(h), dtype=bool)
        )
        return float(_k1.log_loss3(float(alpha), G, B, R, self.shift))

    def split_scores(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        pred = state.predictions().astype(np.int64)
        outside = np.ones(pred.size, dtype=bool)
        outside[node.samples] = False
        base = _k1.errors_profile(self.lo, self.hi, pred, outside, self.V.size)
        sums = np.asarray(_k1.loss_sums(self.Gk, self.Bk, self.Rk, pred, outside))
        scores, left, right = empty_scores(codes.shape[1])
        # the error ranges and outside errors on the scored intervals J (all of them when
        # exact); the label pairs' minima per interval (``_use_pairs``), else per-bin
        # profiles or a segment tree over J's positions, whichever is cheaper
        lo, hi = (self.lo, self.hi) if self.exact else self._grid_ranges()
        args = (
            codes,
            node.samples,
            lo,
            hi,
            self.J,
            self.V,
            base if self.exact else base[self.J],
            self.parts,
            sums,
            self.shift,
            self.reference,
            scores,
            left,
            right,
            numba.get_num_threads(),
        )
        kernel = self._kernel(codes, node.samples.size)
        if kernel == "pairs":
            _ks.phase1_pair_split_scores(*args, self.mode)
        elif kernel == "grid":
            _ks.phase1_grid_split_scores(*args, self.equal_labels, self.mode)
        else:
            _ks.phase1_seg_grid_split_scores(*args, self.equal_labels, self.mode)
        return scores, left, right

    def _kernel(self, codes: NDArray[np.uint8], n_node: int) -> str:
        r"""The kernel that scores a node's splits (all give the same label pairs and scores,
        the last up to the order in which loss terms are added; tests set :attr:`kernel`).

        ``"pairs"`` (:func:`~._phase1_split_kernels.phase1_pair_split_scores`) needs leaf labels
        that may be equal and 4 to :data:`~._phase1_split_kernels.PAIR_KERNEL_MAX_LABELS`
        labels; it reads the node's samples by code and spends :math:`O(K |J|)` per split.
        It is used where the per-bin profiles' label pairs, :math:`bins\,K^2 |J|` in all,
        would cost more than reading the samples in their own order, i.e. where
        :math:`bins\,K |J|` exceeds the node's size: measured 1.5 to 25 times faster than the
        others on Car, Letter and Abalone, while on Poker525k (525,010 examples, 4 or 13
        bins, few intervals) the per-bin profiles are 2 to 7 times faster than the pairs.
        Otherwise ``"grid"`` or ``"segment"`` as :meth:`_use_grid` says."""
        if self.kernel is not None:
            return self.kernel
        pairs = self.equal_labels and 4 <= self.n_classes <= _ks.PAIR_KERNEL_MAX_LABELS
        grid = self._use_grid(codes, n_node)
        if pairs and (not grid or self._pairs_beat_grid(codes, n_node)):
            return "pairs"
        return "grid" if grid else "segment"

    def _pairs_beat_grid(self, codes: NDArray[np.uint8], n_node: int) -> bool:
        r"""Whether the label pairs of the per-bin profiles (:math:`bins\,K^2 |J|`) cost
        more than bucketing the node's samples (:math:`n_{node} K`, with its scattered
        reads), i.e. :math:`bins\,K |J| > n_{node}` (see :meth:`_kernel`)."""
        return bool(self._bins(codes) * self.n_classes * self.J.size > n_node)

    def leaf_value(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        n = self.lo.shape[0]
        values = np.array(
            [self.score(np.full(n, k, dtype=np.int64))[2] for k in range(self.n_classes)]
        )
        return float(_label_ties_first(values))


class MarginSlopeObjective:
    r"""Direct-tree objective of phase II: :math:`S'(0^+)` along the tree on one half-line.

    :math:`S` is the sum of the ``n_prime`` smallest margin numerators
    :math:`a_y - \max_{k \ne y}(a_k + \alpha [h = k]) + \alpha[h = y]` as a function of
    :math:`b = |\alpha|` on the side ``sign``; the derivative (9) of (5) at 0 is
    :math:`(S'(0^+) c - S(0)) / (n' c^2)` and :math:`S(0)` does not depend on the tree, so
    ranking trees by :math:`S'(0^+)` ranks them by (9).  Per example the slope of label
    :math:`k` is, for ``sign = +1``: +1 if :math:`k = y_i`, -1 if :math:`a_k` is a largest
    wrong score, else 0; for ``sign = -1``: -1 if :math:`k = y_i`, +1 if :math:`a_k` is the
    unique largest wrong score, else 0.
    """

    kind = "multiclass"
    #: Margins within this fraction of ``max(1, max |F|)`` of the :math:`n'`-th one are tied.
    near_tie = 1e-12

    def __init__(
        self,
        F: NDArray[np.float64],
        y: NDArray[np.intp],
        n_prime: int,
        sign: int,
        equal_labels: bool = True,
    ) -> None:
        F = np.ascontiguousarray(F, dtype=np.float64)
        n, K = F.shape
        self.slope, value = _k2.slope_rows(F, np.asarray(y, dtype=np.int64), int(sign))
        vstar = np.partition(value, n_prime - 1)[n_prime - 1]
        # margins a few ulps from the n'-th one are ties in exact arithmetic (sums of the same
        # steps in another order): count them as tied, or (9) at 0 reflects rounding noise
        gap = self.near_tie * max(1.0, float(np.abs(F).max()))
        self.status = np.where(value < vstar - gap, 0, np.where(value <= vstar + gap, 1, 2)).astype(
            np.int8
        )
        self.need = int(n_prime - np.count_nonzero(self.status == 0))
        self._lists = _k2.slope_lists(self.slope, self.status)
        self.n_classes = K
        self.equal_labels = bool(equal_labels)

    @property
    def parts(self) -> NDArray[np.int64]:
        """Per example and label (n, K, 4): the slope if the example is strictly inside the
        bottom set, and whether it is tied at the n'-th value with slope -1, 0, +1."""
        slope = self.slope.astype(np.int64)
        tied = (self.status == 1)[:, None, None] & (slope[:, :, None] == np.arange(-1, 2))
        return np.ascontiguousarray(
            np.concatenate(
                [(slope * (self.status == 0)[:, None])[:, :, None], tied], axis=2
            ).astype(np.int64)
        )

    def _parts(
        self, h: NDArray[np.int64], mask: NDArray[np.bool_]
    ) -> tuple[int, NDArray[np.int64]]:
        less, tied = _k2.slope_parts(self.slope, self.status, h, mask)
        return int(less), tied

    def score(self, h: NDArray[np.intp]) -> int:
        """:math:`S'(0^+)` of adding ``h``."""
        less, tied = self._parts(np.asarray(h, np.int64), np.ones(h.size, dtype=bool))
        return int(self._value(less, *tied))

    def _value(
        self,
        less: int | NDArray[np.int64],
        minus: NDArray[np.int64],
        zero: NDArray[np.int64],
        plus: NDArray[np.int64],
    ) -> NDArray[np.int64]:
        """:math:`S'(0^+)` from the slope sum of the strictly-bottom examples and the slope
        counts of the tied ones (the ``need`` smallest fill the bottom set), elementwise."""
        take = np.minimum(self.need, minus)
        rest = self.need - take
        rest = rest - np.minimum(rest, zero)
        value: NDArray[np.int64] = less + rest - take
        return value

    def stump_slopes(self, codes: NDArray[np.uint8]) -> NDArray[np.float64]:
        """:math:`S'(0^+)` of every stump, shape ``(d, 255, K, K)``: entry ``[f, b, r, l]``
        for ``l`` where ``code_f <= b`` and ``r`` elsewhere (``-inf``: no such stump; ``l = r``
        is the constant classifier)."""
        n, d = codes.shape
        K = self.n_classes
        out = np.full((d, 255, K, K), -np.inf)
        parts = self.parts
        for f in range(d):
            hist = np.zeros((256, K, 4), dtype=np.int64)
            np.add.at(hist, codes[:, f], parts)
            cum = np.cumsum(hist, axis=0)[:255]  # codes <= b
            total = cum[-1] + hist[255]
            both = cum[:, None, :, :] + total[None, :, None, :] - cum[:, :, None, :]
            value = self._value(*(both[..., j] for j in range(4)))  # [b, r, l]
            present = np.flatnonzero(np.bincount(codes[:, f], minlength=256))
            ok = np.zeros(255, dtype=bool)
            ok[present[:-1]] = True  # a code with a larger one
            out[f, ok] = value[ok]
        if not self.equal_labels:
            out[:, :, np.arange(K), np.arange(K)] = -np.inf
        return out

    def split_scores(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        pred = state.predictions().astype(np.int64)
        outside = np.ones(pred.size, dtype=bool)
        outside[node.samples] = False
        less, tied = self._parts(pred, outside)
        scores, left, right = empty_scores(codes.shape[1])
        indptr, cls, slp = self._lists
        status, n_classes, need, equal = self.status, self.n_classes, self.need, self.equal_labels
        if node.samples.size * codes.shape[1] >= PARALLEL_WORK:
            threads = numba.get_num_threads()
            _k2.phase2_split_scores(
                codes, node.samples, status, indptr, cls, slp, n_classes, less, tied, need,
                scores, left, right, threads, equal,
            )  # fmt: skip
        else:  # too small a node to pay for starting the threads
            _k2.phase2_feature_scores(
                codes, node.samples, status, indptr, cls, slp, n_classes, less, tied, need,
                scores, left, right, 0, codes.shape[1], equal,
            )  # fmt: skip
        return scores, left, right

    def leaf_value(
        self, codes: NDArray[np.uint8], node: DirectNode, state: DirectTreeState
    ) -> float:
        n = self.slope.shape[0]
        values = np.array(
            [self.score(np.full(n, k, dtype=np.int64)) for k in range(self.n_classes)],
            dtype=np.float64,
        )
        return float(_label_ties_first(values))
