"""Numbers in the book's prose come from the committed key numbers, never typed.

Two mechanisms insert a result number into text:

* a notebook's markdown uses myst-nb ``glue``: a code cell calls ``glue("name", value,
  display=False)`` (the value read from the notebook's own results) and the markdown writes
  ``{glue:text}`name:.1f```; the book is built from the papermill-executed notebooks, whose
  outputs hold the glued values;
* a chapter in ``book/`` declares in its front matter which key numbers it quotes::

      ---
      key_numbers:
        mc_wins: mcboost/table1-2 mc_wins {:.0f}
      ---

  and writes ``{{ mc_wins }}`` in its text.  When the book is staged,
  :func:`fill_substitutions` reads ``data/results/<paper>/<item>.full.json`` and writes the
  formatted values as MyST substitutions (``myst: substitutions:``) into the staged copy; a key
  that is not committed is an error, so a chapter never quotes a number the results lack.

:func:`hand_typed_numbers` says which numbers of a page's prose are typed by hand (the rule is
:data:`HAND_TYPED_RULE`); ``tests/test_prose_numbers.py`` applies it to every chapter and every
notebook's markdown.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

__all__ = [
    "HAND_TYPED_RULE",
    "hand_typed_numbers",
    "prose_text",
    "key_number_refs",
    "fill_substitutions",
    "substitutions_for",
]

#: What counts as a hand-typed result number in prose.
HAND_TYPED_RULE = (
    "In a chapter or a notebook's markdown, outside front matter, code (fenced blocks, code "
    "cells, inline code), math ($...$, $$...$$, math directives and roles), MyST roles and "
    "directives' options (glue roles included), substitutions ({{ ... }}), link targets and HTML "
    "comments, a hand-typed result number is a decimal number (3.5), a percentage (12%, 0.5 %), "
    "a count 'N of M' in digits or words (7 of 10, four of five, eight of the nine), a range of numbers joined by an en dash or a hyphen (4–7, 1-2; "
    "not the '0-1' of the 0-1 loss or error), an integer followed by what a result counts "
    "(errors, mistakes, wins, losses or ties, directly or after one of the words training, "
    "test, validation, more, fewer or additional: 53 training errors), or a difference or a "
    "ratio ('N percentage points', 'N points better/worse/lower/higher/above/below/apart', "
    "'N times more/fewer/faster/slower/larger/smaller'); an integer joined to a word by a "
    "hyphen (depth-12, phase-1) is a name, not a count.  It is not a result number when (a) it "
    "follows a reference word (Sec., Section, Table, Fig., Figure, eq., Algorithm, Theorem, "
    "line, version, Python), (b) it is a noise rate of the protocol (a percentage followed by "
    "'noise' or 'label noise'), or (c) it is the paper's: the word 'paper' (or 'papers', "
    "'paper's') appears before it in the same clause, at most 60 characters earlier and with "
    "no '.', ';' or line break between."
)

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_FENCE = re.compile(r"^(```+|~~~+|:::+).*?^\1\s*$", re.S | re.M)
_REMOVE = [
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"\$\$.*?\$\$", re.S),
    re.compile(r"(?<!\\)\$[^$\n]+?(?<!\\)\$"),
    re.compile(r"\{[\w:.-]+\}`[^`]*`"),  # MyST roles with their content
    re.compile(r"``[^`]*``|`[^`\n]*`"),  # inline code
    re.compile(r"\{\{.*?\}\}", re.S),  # substitutions
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"https?://\S+"),
    re.compile(r"\\begin\{(\w+\*?)\}.*?\\end\{\1\}", re.S),
]
_WORDS = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty)"
)
_NUMBER = re.compile(
    r"(?<![\w.])("
    r"\d+ of \d+"
    rf"|(?i:{_WORDS}\s+of\s+(?:the\s+)?{_WORDS})"  # four of five, eight of the nine
    r"|(?<![–-])(?!0-1\s+(?:loss|error))"
    r"\d+(?:\.\d+)?\s?%?\s?[–-]\s?\d+(?:\.\d+)?\s?%?"  # a range: 4–7, 1-2
    r"|\d+(?:\.\d+)?\s?%"
    r"|\d+\.\d+"
    r"|(?<![–-])\d+(?=\s+(?:(?:training|test|validation|more|fewer|additional)\s+)?"
    r"(?:errors?|mistakes?|wins?|losses|ties?)\b)"  # a count: 53 training errors
    r"|(?<![–-])\d+(?=\s+(?:percentage\s+points?|points?\s+(?:better|worse|lower|higher|"
    r"above|below|apart)|times\s+(?:more|fewer|faster|slower|larger|smaller))\b)"  # 3 points
    r")(?![\w])"
)
_REFERENCE = re.compile(
    r"\b(Sec\.|Section|Sections|Table|Tables|Fig\.|Figs\.|Figure|Figures|eq\.|"
    r"eqs\.|Eq\.|Algorithm|Theorem|Lemma|Proposition|Corollary|version|"
    r"Python|v|line|lines)\s*\(?$"
)
_NOISE_RATE = re.compile(r"^\s*(label\s+)?noise\b")
_PAPER = re.compile(r"\bpapers?('s)?\b[^.;\n]*$", re.I)


def prose_text(markdown: str) -> str:
    """The prose of a MyST page: ``markdown`` with front matter, code, math, roles,
    substitutions, link targets and comments blanked out (line numbers are kept)."""

    def blank(match: re.Match) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    text = _FRONT_MATTER.sub(blank, markdown)
    text = _FENCE.sub(blank, text)
    for pattern in _REMOVE:
        text = pattern.sub(blank, text)
    return text


def hand_typed_numbers(markdown: str) -> list[tuple[int, str]]:
    """``(line number, number)`` of every hand-typed result number (:data:`HAND_TYPED_RULE`)."""
    text = prose_text(markdown)
    found = []
    for match in _NUMBER.finditer(text):
        before = text[max(0, match.start() - 60) : match.start()]
        if _REFERENCE.search(before.rstrip()) or _REFERENCE.search(before):
            continue
        if _PAPER.search(before):
            continue
        if match.group(1).endswith("%") and _NOISE_RATE.match(text[match.end() : match.end() + 20]):
            continue
        line = text.count("\n", 0, match.start()) + 1
        found.append((line, " ".join(match.group(1).split())))
    return found


def _front_matter(markdown: str) -> dict:
    match = _FRONT_MATTER.match(markdown)
    return (yaml.safe_load(match.group(0).strip("-\n")) or {}) if match else {}


def key_number_refs(markdown: str) -> dict[str, tuple[str, str, str, str]]:
    """The ``key_numbers`` a chapter declares: name -> (paper, item, key, format)."""
    refs = {}
    for name, spec in (_front_matter(markdown).get("key_numbers") or {}).items():
        parts = str(spec).split()
        fmt = parts.pop() if len(parts) > 2 and parts[-1].startswith("{") else "{}"
        if len(parts) < 2 or "/" not in parts[0]:
            raise ValueError(
                f"key_numbers entry {name!r}: expected 'paper/item key [format]', got {spec!r}"
            )
        paper, item = parts[0].split("/", 1)
        refs[name] = (paper, item, " ".join(parts[1:]), fmt)
    return refs


def substitutions_for(markdown: str, root: str | Path, profile: str = "full") -> dict[str, str]:
    """The formatted values of a chapter's ``key_numbers`` from the committed key numbers."""
    out = {}
    for name, (paper, item, key, fmt) in key_number_refs(markdown).items():
        path = Path(root) / "data" / "results" / paper / f"{item}.{profile}.json"
        if not path.is_file():
            raise FileNotFoundError(f"{name}: {path} is not committed")
        numbers = json.loads(path.read_text())["numbers"]
        if key not in numbers:
            raise KeyError(f"{name}: {paper}/{item} has no key number {key!r}")
        out[name] = fmt.format(numbers[key])
    return out


def fill_substitutions(root: str | Path, book: str | Path, profile: str = "full") -> list[Path]:
    """Write each staged chapter's key numbers as MyST substitutions into its front matter.

    ``book`` is the staged copy of ``book/`` (never the committed one).  Returns the pages
    changed.
    """
    changed = []
    for page in sorted(Path(book).glob("*.md")):
        markdown = page.read_text(encoding="utf-8")
        values = substitutions_for(markdown, root, profile)
        if not values:
            continue
        meta = _front_matter(markdown)
        meta.pop("key_numbers", None)
        meta.setdefault("myst", {}).setdefault("substitutions", {}).update(values)
        body = _FRONT_MATTER.sub("", markdown, count=1)
        page.write_text(
            "---\n" + yaml.safe_dump(meta, sort_keys=False) + "---\n" + body, encoding="utf-8"
        )
        changed.append(page)
    return changed
