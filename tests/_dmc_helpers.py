"""Helpers shared by the DMCBoost tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

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
