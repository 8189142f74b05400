"""The book's datasets page, generated from the registry (MyST markdown)."""

from __future__ import annotations

from .registry import combined_entries, file_entries, missing_datasets

__all__ = ["datasets_page_markdown"]

_STATUS_TEXT = {
    "original": "exact original",
    "likely-original": "very likely original",
    "unverified": "not verifiable",
    "deviates": "deviates",
    "repackaged": "repackaged (pooled)",
}


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def _code(text: str) -> str:
    """``text`` in code type with line-break chances (``<wbr>``) after ``/``, ``_``, ``-`` and
    ``.``, so that a long name wraps in its table cell instead of widening the table."""
    import html

    from .._html import line_breaks

    return "<code>" + line_breaks(html.escape(str(text)), r"[/_.-]") + "</code>"


def _file_link(name: str, url: str) -> str:
    """The file's name (:func:`_code`) linked to its download address."""
    import html

    return f'<a href="{html.escape(url)}">{_code(name)}</a>'


def _file_row(e: dict) -> str:
    """One row of the provenance table: the data set with its file (linked to the download
    address) and shortened SHA-256 (the full value in a tooltip) in one cell, its counts in
    another, then the copy's relation to the original and the differences from the papers --
    four columns, so that the table fits the text column of a page."""
    sha = e["sha256"]
    status = _STATUS_TEXT.get(e["byte_status"], e["byte_status"])
    return (
        "| "
        + " | ".join(
            [
                f"{_code(_cell(e['name']))}<br>{_file_link(e['file'], e['raw_url'])}<br>"
                f'<abbr title="sha256 {sha}">`{sha[:12]}`</abbr>',
                f"{e['n']} × {e['d']}<br>{e['n_classes']} classes",
                _cell(f"{status}: {e['byte_note']}"),
                _cell(e["differences"]),
            ]
        )
        + " |"
    )


def datasets_page_markdown() -> str:
    """Return the MyST page listing every registered dataset with its provenance.

    The page has a provenance table (name with its file, linked to the commit-pinned download
    URL, and its SHA-256 shortened with the full value in a tooltip; counts; byte status;
    differences from the papers), the combined datasets, what is missing and the substitute registered for it.

    Returns
    -------
    str
        The page's MyST markdown (the book's ``datasets.md``), one table row per registry
        entry, ending with a newline.

    Examples
    --------
    >>> from marginboost.data import datasets_page_markdown
    >>> page = datasets_page_markdown()
    >>> page.splitlines()[0]
    '# Datasets'
    >>> for line in page.splitlines():
    ...     if line.startswith("## "):
    ...         print(line)
    ## How the copies relate to the originals
    ## Provenance table
    ## Combined and derived datasets
    ## Not available, and what is used instead
    ## Citing the data
    >>> any(line.startswith("| <code>sonar</code><br>") for line in page.splitlines())
    True
    """
    files = file_entries()
    lines = [
        "# Datasets",
        "",
        "Every benchmark file used in this book is listed below with where it came from, its",
        "SHA-256 and what the loader (`marginboost.data.load`) makes of it. The registry behind",
        "this page is `data/datasets.yaml`; `marginboost data verify` re-checks the hashes of a",
        "local copy, and a missing file is downloaded from its commit-pinned URL and checked",
        "against the same hash before use.",
        "",
        "Counts `n`, `d` and classes are those returned by the loader: identifier and",
        "bookkeeping columns are removed, categorical UCI attributes are encoded as noted in the",
        "registry, and rows with a missing value are dropped, as the papers do",
        "(`load(..., drop_missing=False)` keeps them).",
        "",
        "## How the copies relate to the originals",
        "",
        "All files are byte-for-byte copies of files in public repositories; nothing was",
        "re-encoded. Their relation to the canonical distribution differs by source:",
        "",
        "- **PMLB** (`pmlb/`): taken from the last PMLB commit before the files moved to Git LFS.",
        "  For 39 of the 41 files the bytes equal the LFS object on PMLB's current master;",
        "  `titanic` and `banana` are older versions that master has since replaced.",
        "- **LIBSVM** (`libsvm/`): the LIBSVM site could not be reached, so copies were collected",
        "  from other repositories. `svmguide1`, `svmguide1.t` (MD5 as published by LIBSVM) and",
        "  `heart_scale` (from LIBSVM itself) are verified; `breast-cancer_scale`,",
        "  `diabetes_scale`, `fourclass_scale`, `mushrooms` and `w1a.t` are very likely untouched.",
        "  Known byte differences: `australian_scale`, `german.numer_scale`, `ionosphere_scale` and",
        "  `sonar_scale` lack the final newline, `w1a` has CRLF line endings, and `svmguide3`",
        "  (no final newline) and `svmguide3.t` (CRLF) cannot be verified. None of these changes",
        "  affects the parsed values.",
        "- **Rätsch benchmark** (`ida_raetsch/`): the `.mat` files hold the pooled unique",
        "  patterns of ten data sets from a third-party repackaging; the realisation index sets",
        "  are not part of them. The `.asc` files are the original realisation-1 files of banana,",
        "  german, titanic, heart and ringnorm. For banana and german the pooled rows equal the",
        "  rows of realisation 1 (train + test).",
        "- **UCI** (`uci/`): `wdbc.data` is identical in two independent repositories;",
        "  `poker-hand-training-true.data` and `letter-recognition.data` come from the commit that",
        "  first added them. `segmentation.test` has trailing whitespace removed from a comment",
        "  line, `abalone.csv` is `abalone.data` renamed and without its final newline, and",
        "  `CNAE-9.data` and `vowel-context.data` could not be compared with UCI checksums.",
        "",
        "## Provenance table",
        "",
        "| data set, file and sha256 | n × d, classes | copy | differs from the papers |",
        "|---|---|---|---|",
    ]
    lines += [_file_row(e) for e in files]
    lines += [
        "",
        "## Combined and derived datasets",
        "",
        "| name | built from | n | d | classes | notes |",
        "|---|---|---|---|---|---|",
    ]
    for e in combined_entries():
        source = (
            _code(e["derived_from"])
            if "derived_from" in e
            else f"{_code(e['parts']['train'])} + {_code(e['parts']['test'])}"
        )
        lines.append(
            "| "
            + " | ".join(
                [
                    _code(e["name"]),
                    source,
                    str(e["n"]),
                    str(e["d"]),
                    str(e["n_classes"]),
                    _cell(e["description"] + " " + e["differences"]),
                ]
            )
            + " |"
        )
    lines += [
        "",
        "## Not available, and what is used instead",
        "",
        "These datasets (or parts of them) appear in the papers but no unmodified copy could",
        "be found. Results that use a substitute say so next to the number.",
        "",
        "| missing | used by | substitute | notes |",
        "|---|---|---|---|",
    ]
    for m in missing_datasets():
        lines.append(
            "| "
            + " | ".join(
                [
                    _cell(m["dataset"]),
                    _cell(m["papers"]),
                    _code(_cell(m["substitute"])),
                    _cell(m["note"]),
                ]
            )
            + " |"
        )
    lines += [
        "",
        "## Citing the data",
        "",
        "Cite the original donors listed on each dataset's source page, and the collections:",
        "PMLB (Olson et al., 2017, *BioData Mining* 10:36), LIBSVM (Chang & Lin, 2011,",
        "*ACM TIST* 2(3):27), the Rätsch benchmark (Rätsch, Onoda & Müller, 2001, *Machine",
        "Learning* 42(3):287-320) and the UCI Machine Learning Repository (Dua & Graff, 2019).",
        "",
    ]
    return "\n".join(lines)
