"""How to cite the book: the "How to cite" page and a "Cite this chapter" block per chapter.

Both are generated from ``CITATION.cff`` (authors, title, version, date), ``pyproject.toml`` (the
documentation URL), ``_toc.yml`` (the chapters and their parts) and ``book/references.bib`` (the
original papers, with their DOIs where they have one), so a citation never disagrees with the
release it cites. The page is committed with the other generated pages; the blocks are appended
to the chapters in the staged copy the book is built from.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

from ..papers import PROTOCOLS

__all__ = ["CHAPTER_PAPERS", "how_to_cite_page", "cite_chapter_block", "bib_entries"]

#: The original paper of each chapter (a key of ``book/references.bib``), from the registry.
CHAPTER_PAPERS = {p.paper: p.reference for p in PROTOCOLS.values()}


def _cff(root: Path) -> dict:
    return yaml.safe_load((root / "CITATION.cff").read_text())


def _docs_url(root: Path) -> str:
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    return project["urls"]["Documentation"].rstrip("/")


def bib_entries(root: Path) -> dict[str, str]:
    """``{key: entry text}`` of ``book/references.bib`` (entries start with ``@type{key,``)."""
    text = (root / "book" / "references.bib").read_text()
    entries = {}
    for match in re.finditer(r"^@\w+\{([^,]+),.*?^\}", text, flags=re.M | re.S):
        entries[match.group(1).strip()] = match.group(0)
    return entries


def _field(entry: str, name: str) -> str | None:
    match = re.search(rf"^\s*{name}\s*=\s*\{{(.*?)\}},?\s*$", entry, flags=re.M)
    return match.group(1) if match else None


def _authors(cff: dict) -> str:
    names = []
    for author in cff["authors"]:
        if "name" in author:
            names.append(author["name"])
        else:
            names.append(f"{author.get('given-names', '')} {author['family-names']}".strip())
    return " and ".join(names)


def _year(cff: dict) -> str:
    return str(cff["date-released"])[:4]


def _citable(entry: str) -> str:
    """A BibTeX entry as a reader copies it: the letter that tells two papers of one year apart
    in the book's own labels (``2010a``) is dropped from ``year``, which BibTeX wants numeric."""
    return re.sub(r"(\byear\s*=\s*\{\d{4})[a-z]\}", r"\1}", entry)


def _paper_line(entry: str) -> str:
    authors = _field(entry, "author") or ""
    surnames = [a.split(",")[0].strip() for a in authors.split(" and ")]
    who = surnames[0] + (
        " et al." if len(surnames) > 2 else f" and {surnames[1]}" if len(surnames) == 2 else ""
    )
    title = _field(entry, "title") or ""
    venue = _field(entry, "journal") or _field(entry, "booktitle") or _field(entry, "note") or ""
    year = _field(entry, "year") or ""
    doi = _field(entry, "doi")
    line = f"{who} ({year}). *{title}*. {venue}."
    if doi:
        line += f" [doi:{doi}](https://doi.org/{doi})"
    return line


def _chapters(root: Path) -> list[tuple[str, str]]:
    """``(file stem, part caption)`` of the chapters under ``book/`` that have a paper."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    out = []
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            stem = Path(chapter["file"]).name
            if stem in CHAPTER_PAPERS:
                out.append((stem, part.get("caption", "")))
    return out


def _title(markdown: str) -> str:
    match = re.search(r"^# (.+)$", markdown, flags=re.M)
    return match.group(1).strip() if match else ""


def cite_chapter_block(root: Path, stem: str, markdown: str) -> str:
    """The "Cite this chapter" block appended to chapter ``book/<stem>.md``."""
    cff, bib = _cff(root), bib_entries(root)
    title, year, version = _title(markdown), _year(cff), cff["version"]
    url = f"{_docs_url(root)}/book/{stem}.html"
    book = yaml.safe_load((root / "_config.yml").read_text())["title"]
    bibtex = (
        f"@incollection{{marginboost-{stem.replace('_', '-')},\n"
        f"  author    = {{{{{_authors(cff)}}}}},\n"
        f"  title     = {{{title}}},\n"
        f"  booktitle = {{{book}}},\n"
        f"  year      = {{{year}}},\n"
        f"  edition   = {{version {version}}},\n"
        f"  url       = {{{url}}}\n}}"
    )
    paper = bib.get(CHAPTER_PAPERS[stem])
    paper = _citable(paper) if paper else paper
    text = (
        "\n\n## Cite this chapter\n\n"
        f'{_authors(cff)} ({year}). "{title}". In *{book}*, version {version}. <{url}>\n\n'
        f"```bibtex\n{bibtex}\n```\n"
    )
    if paper:
        text += (
            "\nPlease cite the original paper as well: " + _paper_line(paper) + "\n\n"
            f"```bibtex\n{paper}\n```\n"
        )
    return text


def how_to_cite_page(root: Path) -> str:
    """The book's "How to cite" page (generated; see the module docstring)."""
    cff, bib = _cff(root), bib_entries(root)
    year, version = _year(cff), cff["version"]
    software = (
        f"@software{{marginboost,\n"
        f"  author  = {{{{{_authors(cff)}}}}},\n"
        f"  title   = {{{cff['title']}}},\n"
        f"  version = {{{version}}},\n"
        f"  year    = {{{year}}},\n"
        f"  url     = {{{cff['repository-code']}}}\n}}"
    )
    lines = [
        "# How to cite",
        "",
        f"{cff['message']} The metadata are in `CITATION.cff` of the repository; everything on "
        "this page is generated from it and from the book's bibliography.",
        "",
        "## The software and the book",
        "",
        f"{_authors(cff)} ({year}). *{cff['title']}*, version {version}. "
        f"<{cff['repository-code']}>",
        "",
        "```bibtex",
        software,
        "```",
        "",
        "## A chapter",
        "",
        "Each chapter ends with a *Cite this chapter* block: the chapter as part of the book, "
        "and the original paper it reproduces.",
        "",
        "| chapter | part | original paper |",
        "|---|---|---|",
    ]
    for stem, caption in _chapters(root):
        paper: str | None = bib.get(CHAPTER_PAPERS[stem], "")
        doi = _field(paper, "doi") if paper else None
        ref = f"[doi:{doi}](https://doi.org/{doi})" if doi else "no DOI"
        lines.append(f"| [{stem}]({stem}.md) | {caption} | {ref} |")
    lines += ["", "## The original papers", ""]
    for stem, _ in _chapters(root):
        paper = bib.get(CHAPTER_PAPERS[stem])
        if paper:
            paper = _citable(paper)
            lines += [
                f"- {_paper_line(paper)}",
                "",
                "  ```bibtex",
                *[f"  {line}" for line in paper.splitlines()],
                "  ```",
                "",
            ]
    return "\n".join(lines).rstrip("\n") + "\n"
