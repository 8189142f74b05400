"""The user guide's code blocks run, in order, as one program (the page cannot fall behind)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "book" / "user-guide.md"


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)


def test_the_guide_has_python_blocks():
    assert len(_python_blocks(GUIDE.read_text())) >= 5


@pytest.mark.slow
def test_user_guide_blocks_run_in_order(capsys, monkeypatch):
    import os

    if not os.environ.get("MARGINBOOST_DATA_MIRROR"):
        pytest.skip("the last block loads a benchmark file: MARGINBOOST_DATA_MIRROR is not set")
    import matplotlib

    matplotlib.use("Agg")
    namespace: dict = {}
    for i, block in enumerate(_python_blocks(GUIDE.read_text())):
        try:
            exec(compile(block, f"user-guide block {i + 1}", "exec"), namespace)
        except Exception as exc:  # name the block in the failure
            raise AssertionError(f"user-guide block {i + 1} fails: {exc!r}\n{block}") from exc
    out = capsys.readouterr().out
    assert "test accuracy" in out and "relative gap" in out
    assert namespace["result"].gap < 1e-6  # strong duality, at the solver's tolerance
