"""The committed generated book pages are up to date with the registries they are made from."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_datasets_page_is_current():
    from marginboost.data.page import datasets_page_markdown

    page = (ROOT / "book" / "datasets.md").read_text()
    assert page == datasets_page_markdown(), (
        "book/datasets.md is stale: run `make book` (or marginboost book) to regenerate it")


def test_scoreboard_page_is_current():
    from marginboost.experiments import scoreboard_markdown

    page = (ROOT / "book" / "scoreboard.md").read_text()
    assert page == scoreboard_markdown(), "book/scoreboard.md is stale: regenerate it"


def test_performance_page_is_current():
    from marginboost.experiments.performance import performance_page_markdown

    page = (ROOT / "book" / "performance.md").read_text()
    assert page == performance_page_markdown(ROOT), (
        "book/performance.md is stale: run `marginboost bench` to regenerate it")


def test_not_reproduced_page_is_current():
    from marginboost.experiments.scoreboard import not_reproduced_markdown

    page = (ROOT / "book" / "not_reproduced.md").read_text()
    assert page == not_reproduced_markdown(), (
        "book/not_reproduced.md is stale: run `marginboost scoreboard --update`")
