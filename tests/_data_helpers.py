"""Shared helpers of the data-layer tests: where the benchmark mirror is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

MIRROR_ENV = "MARGINBOOST_DATA_MIRROR"
_value = os.environ.get(MIRROR_ENV)
MIRROR: Path | None = Path(_value) if _value and Path(_value, "MANIFEST.csv").is_file() else None

requires_mirror = pytest.mark.skipif(
    MIRROR is None,
    reason=f"{MIRROR_ENV} is unset or does not point at the benchmark mirror "
    "(a folder with MANIFEST.csv)",
)

REPO_ROOT = Path(__file__).resolve().parents[1]
