"""Helpers shared by the DMCBoost tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest

from marginboost.boosting import DMCBoost


@contextmanager
def killed_in_branch(monkeypatch: pytest.MonkeyPatch, branch: int = 2) -> Iterator[None]:
    """Inside the block, the ``branch``-th phase II of a fit raises ``KeyboardInterrupt``
    (as a killed run would stop there); the block expects it."""
    original, calls = DMCBoost._run_phase2, []

    def dies(self, state):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == branch:
            raise KeyboardInterrupt
        return original(self, state)

    with monkeypatch.context() as patch:
        patch.setattr(DMCBoost, "_run_phase2", dies)
        with pytest.raises(KeyboardInterrupt):
            yield


@contextmanager
def killed_at_round(monkeypatch: pytest.MonkeyPatch, rounds: int) -> Iterator[None]:
    """Inside the block, a fit raises ``KeyboardInterrupt`` as it is about to add its
    ``rounds``-th tree, counted over all the fits of the block (phase I and every phase II
    branch of a path); the block expects it."""
    original, calls = DMCBoost._add, []

    def dies(self, state, *args):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == rounds:
            raise KeyboardInterrupt
        return original(self, state, *args)

    with monkeypatch.context() as patch:
        patch.setattr(DMCBoost, "_add", dies)
        with pytest.raises(KeyboardInterrupt):
            yield


def node_kernel_args(objective, codes, samples, pred, out, n_blocks=2):  # type: ignore[no-untyped-def]
    """The arguments of the phase-I split kernels over the scored intervals
    (``phase1_grid_split_scores``, ``phase1_seg_grid_split_scores``,
    ``phase1_pair_split_scores``, before their own flags) for the node ``samples`` of a
    ``ZeroOneTreeObjective``, the other examples predicted ``pred``; ``out`` the
    ``(scores, left, right)`` arrays they fill."""
    from marginboost.boosting.dmcboost import _phase1_kernels as phase1

    outside = np.ones(pred.size, dtype=bool)
    outside[samples] = False
    base = phase1.errors_profile(objective.lo, objective.hi, pred, outside, objective.V.size)
    sums = np.asarray(phase1.loss_sums(objective.Gk, objective.Bk, objective.Rk, pred, outside))
    lo, hi = (objective.lo, objective.hi) if objective.exact else objective._grid_ranges()
    return (
        codes,
        samples,
        lo,
        hi,
        objective.J,
        objective.V,
        base if objective.exact else base[objective.J],
        objective.parts,
        sums,
        objective.shift,
        objective.reference,
        *out,
        n_blocks,
    )
