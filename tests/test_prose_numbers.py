"""No hand-typed result number in the book's prose (:data:`marginboost.prose.HAND_TYPED_RULE`).

Every chapter in ``book/`` and the markdown of every notebook is checked.  Generated pages are
written by code from the committed results (``tests/test_generated_pages.py`` guards them).  The
pages not yet converted to generated numbers are listed once, in :data:`KNOWN_UNCONVERTED`, with
the count of hand-typed numbers each still holds: the test prints them, fails when a converted
page gains one, and fails when a listed page no longer needs to be listed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from marginboost._repo.notebooks import generated_pages
from marginboost.prose import (
    HAND_TYPED_RULE,
    hand_typed_numbers,
    key_number_refs,
    substitutions_for,
)

REPO = Path(__file__).resolve().parents[1]

#: Pages whose prose still holds hand-typed result numbers: path -> how many it holds today.
#: Convert a page (glue in a notebook, key_numbers substitutions in a chapter), then remove it.
KNOWN_UNCONVERTED: dict[str, int] = {}

#: Numbers of a page that are not results: facts of the data or the machine, constants of the
#: protocol.  (page, number) -> why.
ALLOWED = {
    ("notebooks/directboost-table2.md", "2.6"): "the paper's machine (2.6 GHz)",
    ("notebooks/dmcboost-table2.md", "0.01"): "the epsilon-relaxation step of the protocol",
    ("notebooks/shen_li-figure2.md", "1.01"): "the scaling used to leave the simplex",
    ("notebooks/shen_li-duality-checks.md", "3.5"): "a section number (Sec. 3.3 and 3.5)",
    ("notebooks/anyboost-figure2.md", "60%"): "the training share of a split (protocol)",
    ("notebooks/anyboost-figure2.md", "15%"): "the label-noise rate of the protocol",
    ("notebooks/anyboost-figure2.md", "10%"): "the quantile the notebook reports (a choice)",
    ("notebooks/shen_li-table4-figure5.md", "70%"): "the training share of a run (protocol)",
    ("notebooks/shen_li-table4-figure5.md", "15%"): "the test and unused shares (protocol)",
    ("notebooks/shen_li-figure3.md", "70%"): "the training share of a random split (protocol)",
    ("notebooks/shen_li-figure3.md", "0.1"): "the verdict's stated tolerance in kurtosis",
    ("notebooks/mcboost-figure2.md", "60%"): "the training share of the split (protocol)",
    ("notebooks/mcboost-figure2.md", "40%"): "the test share of the split (protocol)",
    ("notebooks/mcboost-figure2.md", "0.6"): "the split fractions (0.6, 0, 0.4) of the protocol",
    ("notebooks/mcboost-figure2.md", "0.4"): "the split fractions (0.6, 0, 0.4) of the protocol",
    ("notebooks/shen_li-table5-8.md", "3.841"): "the chi-square critical value at 5% (1 dof)",
    ("notebooks/shen_li-table5-8.md", "3.84"): "the chi-square critical value at 5% (1 dof)",
    ("book/mcboost.md", "1.645"): "the one-tailed normal critical value at 5% (Wilcoxon test)",
}


def _pages() -> list[str]:
    generated = {f"book/{name}" for name in generated_pages(REPO)}
    chapters = [
        p for p in sorted((REPO / "book").glob("*.md")) if f"book/{p.name}" not in generated
    ]
    notebooks = sorted((REPO / "notebooks").glob("*.md"))
    return [str(p.relative_to(REPO)) for p in chapters + notebooks]


def _found(page: str) -> list[tuple[int, str]]:
    return [
        (line, number)
        for line, number in hand_typed_numbers((REPO / page).read_text())
        if (page, number) not in ALLOWED
    ]


@pytest.mark.parametrize("page", _pages())
def test_no_hand_typed_result_number(page):
    found = _found(page)
    if page in KNOWN_UNCONVERTED:
        print(f"{page}: not converted yet, {len(found)} hand-typed numbers")
        assert len(found) <= KNOWN_UNCONVERTED[page], (
            f"{page} gained hand-typed numbers ({len(found)} > {KNOWN_UNCONVERTED[page]}): {found}"
        )
        assert found, f"{page} has no hand-typed number left: remove it from KNOWN_UNCONVERTED"
        return
    assert not found, (
        f"{page} has hand-typed result numbers (line, number) {found}; insert "
        f"them from the key numbers. Rule: {HAND_TYPED_RULE}"
    )


def test_known_unconverted_pages_exist():
    pages = set(_pages())
    assert set(KNOWN_UNCONVERTED) <= pages
    print(
        "pages not converted yet:\n"
        + "\n".join(f"  {page} ({count})" for page, count in KNOWN_UNCONVERTED.items())
    )


@pytest.mark.parametrize("page", [p for p in _pages() if p.startswith("book/")])
def test_chapter_substitutions_come_from_committed_key_numbers(page):
    text = (REPO / page).read_text()
    values = substitutions_for(text, REPO)  # raises on a key that is not committed
    used = set(__import__("re").findall(r"\{\{\s*(\w+)\s*\}\}", text))
    assert used <= set(values), f"{page} uses undeclared substitutions {used - set(values)}"
    assert set(key_number_refs(text)) <= used, f"{page} declares key numbers it never uses"


def test_the_rule_catches_what_it_names():
    text = (
        "---\nkey_numbers: {}\n---\nOurs is 12.5 here, 7 of 10 splits, 30% better.\n"
        "The paper reports 0.63% and Sec. 3.1 says so; with 20% label noise.\n"
        "$x = 0.5$ and `1.5` and {{ a }} and {math}`2.5`.\n"
    )
    assert [n for _, n in hand_typed_numbers(text)] == ["12.5", "7 of 10", "30%"]


def test_the_rule_catches_ranges_and_counted_results():
    text = (
        "Car after 4–7 on four of five rotations, Yeast after 1–2 and Glass after 16-49.\n"
        "The exact search ends with 53 training errors on rotation 0, 2 test errors and 3 wins.\n"
        "Every method is 2 points better, 3 percentage points lower; 9 times more rounds.\n"
        "DOOM II is better on eight of the\nnine data sets.\n"
    )
    assert [n for _, n in hand_typed_numbers(text)] == [
        "4–7",
        "four of five",
        "1–2",
        "16-49",
        "53",
        "2",
        "3",
        "2",
        "3",
        "9",
        "eight of the nine",
    ]


def test_the_rule_leaves_names_references_and_the_papers_ranges():
    text = (
        "The 0-1 loss and the training 0-1\nerror; depth-12 errors and phase-1 training error.\n"
        "Tables 2-4, Sections 3–5 and lines 12-13; 800 points and 100 rounds; rotation 0.\n"
        "The paper's errors are 1–4 points lower; {{ lo }}–{{ hi }} trees; one of the sets; "
        "{glue:text}`n:.0f` errors.\n"
    )
    assert hand_typed_numbers(text) == []


@pytest.mark.parametrize("page", _pages())
def test_no_control_characters(page):
    """A control character in a page is almost always an escape gone wrong (``"\\alpha"``
    written from a Python string becomes BEL + "lpha") and renders as garbage."""
    import re

    text = (REPO / page).read_text()
    bad = [
        (text.count("\n", 0, m.start()) + 1, repr(m.group()))
        for m in re.finditer(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text)
    ]
    assert not bad, f"{page}: control characters at (line, character) {bad}"
