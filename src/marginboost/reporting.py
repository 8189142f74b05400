"""Helpers that notebooks use to make their numbers checkable.

Two mechanisms make a figure evidence by its numbers rather than its pixels:

* :func:`print_digest` prints a short, rounded summary of the arrays a figure plots.  ``pytest
  --nbval`` compares that text with the committed notebook output (nbval ignores PNG images).
* :func:`save_key_numbers` writes the notebook's key numbers to
  ``<results>/<paper>/<item>.<profile>.json``.  ``tests/test_notebooks.py`` executes each
  notebook and compares the fresh file with the committed one within the tolerances stored in it.
"""

from __future__ import annotations

import json
import math
import numbers
import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ._paths import results_dir

__all__ = [
    "digest",
    "print_digest",
    "save_key_numbers",
    "load_key_numbers",
    "key_numbers_path",
    "compare_key_numbers",
    "KeyNumbersChanged",
    "CHECK_KEY_NUMBERS_ENV",
    "Table",
    "show_table",
    "in_words",
    "say",
    "TEXT_WIDTH",
]

#: Default tolerances of key numbers: relative and absolute, as in ``numpy.isclose``.
DEFAULT_RTOL = 1e-6
DEFAULT_ATOL = 1e-9


#: Characters of a printed line that a book page shows whole: its output column holds about 77
#: monospace characters at a 1280 px window, and a few are kept in reserve.
TEXT_WIDTH = 72


def say(*parts: object, sep: str = " ") -> None:
    """Print a sentence wrapped at :data:`TEXT_WIDTH` characters (blank lines kept as paragraph
    breaks), so that no line of it is cut off on a book page.

    Examples
    --------
    >>> say("a long sentence " * 6)
    a long sentence a long sentence a long sentence a long sentence a long
    sentence a long sentence
    """
    import textwrap

    text = sep.join(str(p) for p in parts)
    print(
        "\n".join(
            textwrap.fill(line, TEXT_WIDTH, break_on_hyphens=False, break_long_words=False)
            if line.strip()
            else ""
            for line in text.split("\n")
        )
    )


def digest(values, decimals: int = 4) -> str:
    """Return a one-line rounded summary of an array: shape, min, max, mean and 5 samples.

    The samples are taken at evenly spaced positions of the flattened array, so the digest
    changes when any plotted curve changes noticeably, while staying short.
    """
    arr = np.asarray(values, dtype=float).ravel()
    if arr.size == 0:
        return "n=0"
    finite = arr[np.isfinite(arr)]
    idx = np.unique(np.linspace(0, arr.size - 1, num=min(5, arr.size)).round().astype(int))

    def fmt(x: float) -> str:
        if not math.isfinite(x):
            return str(x)
        r = round(float(x), decimals)
        return f"{r:.{decimals}f}" if r != 0 else f"{0:.{decimals}f}"

    stats = (
        f"min={fmt(finite.min())} max={fmt(finite.max())} mean={fmt(finite.mean())}"
        if finite.size
        else "no finite values"
    )
    samples = " ".join(fmt(v) for v in arr[idx])
    return f"n={arr.size} {stats} samples=[{samples}]"


def print_digest(name: str, values, decimals: int = 4) -> None:
    """Print ``name: digest(values)`` (see :func:`digest`)."""
    print(f"{name}: {digest(values, decimals)}")


def key_numbers_path(paper: str, item: str, profile: str, root: Path | None = None) -> Path:
    """Path of the key-number file of one notebook and profile."""
    base = Path(root) if root is not None else results_dir()
    return base / paper / f"{item}.{profile}.json"


def _plain(value):
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return (
            [_plain(v) for v in np.asarray(value, dtype=object).tolist()]
            if isinstance(value, np.ndarray)
            else [_plain(v) for v in value]
        )
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        return float(value)
    return value


def save_key_numbers(
    paper: str,
    item: str,
    numbers: Mapping,
    *,
    profile: str,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    tolerances: Mapping[str, Mapping[str, float]] | None = None,
    root: Path | None = None,
) -> Path:
    """Write a notebook's key numbers (atomically) and return the file path.

    Parameters
    ----------
    paper, item
        Notebook identity, as in ``notebooks/<paper>-<item>.md``.
    numbers
        Flat mapping name -> number (or list of numbers).
    profile
        ``"quick"`` or ``"full"``; part of the file name.
    rtol, atol
        Default tolerances with which a re-run must agree (``numpy.isclose`` semantics).
    tolerances
        Optional per-name overrides ``{name: {"rtol": ..., "atol": ...}}``.

    Raises
    ------
    KeyNumbersChanged
        When ``$MARGINBOOST_CHECK_KEY_NUMBERS`` names a folder of committed key numbers
        (``data/results``; the test suite sets it while nbval executes the notebooks) and the
        numbers just written disagree with that folder's record, within the record's
        tolerances, or it has none.  The file is written first either way.
    """
    path = key_numbers_path(paper, item, profile, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "paper": paper,
        "item": item,
        "profile": profile,
        "tolerance": {"rtol": rtol, "atol": atol},
        "tolerances": _plain(dict(tolerances or {})),
        "numbers": _plain(dict(numbers)),
    }
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w") as fh:
        json.dump(record, fh, indent=2, sort_keys=True)
        fh.write("\n")
    os.replace(tmp, path)
    committed_root = os.environ.get(CHECK_KEY_NUMBERS_ENV)
    if committed_root:
        committed = key_numbers_path(paper, item, profile, Path(committed_root))
        if not committed.exists():
            raise KeyNumbersChanged(
                f"{committed} is missing: execute the notebook once (make notebooks) to create it"
            )
        problems = compare_key_numbers(load_key_numbers(committed), record)
        if problems:
            raise KeyNumbersChanged(
                f"the key numbers of {paper}-{item} ({profile}) disagree with {committed}:\n"
                + "\n".join(problems)
            )
    return path


#: Environment variable naming a folder of committed key numbers that
#: :func:`save_key_numbers` compares every record it writes with.
CHECK_KEY_NUMBERS_ENV = "MARGINBOOST_CHECK_KEY_NUMBERS"


class KeyNumbersChanged(AssertionError):
    """A notebook's fresh key numbers disagree with the committed ones."""


def load_key_numbers(path: Path) -> dict:
    """Read a key-number file written by :func:`save_key_numbers`."""
    with open(path) as fh:
        return json.load(fh)


def compare_key_numbers(reference: Mapping, fresh: Mapping) -> list[str]:
    """Return a list of human-readable differences between two key-number records.

    The tolerances of the *reference* record apply.  An empty list means agreement.
    """
    problems: list[str] = []
    ref_numbers, new_numbers = reference["numbers"], fresh["numbers"]
    for name in sorted(set(ref_numbers) | set(new_numbers)):
        if name not in new_numbers:
            problems.append(f"{name}: missing from the fresh run")
            continue
        if name not in ref_numbers:
            problems.append(f"{name}: not in the committed reference")
            continue
        tol = {**reference.get("tolerance", {}), **reference.get("tolerances", {}).get(name, {})}
        rtol, atol = tol.get("rtol", DEFAULT_RTOL), tol.get("atol", DEFAULT_ATOL)
        a = np.asarray(ref_numbers[name], dtype=float)
        b = np.asarray(new_numbers[name], dtype=float)
        if a.shape != b.shape:
            problems.append(f"{name}: shape {a.shape} != {b.shape}")
        elif not np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
            problems.append(
                f"{name}: committed {a.tolist()} vs fresh {b.tolist()} (rtol={rtol}, atol={atol})"
            )
    return problems


def _css_class(value) -> str:
    return "verdict-" + re.sub(r"[^a-z0-9]+", "-", str(value).lower()).strip("-")


class Table:
    """A table for a notebook page: rendered HTML in the book, plain text for ``pytest --nbval``.

    Jupyter shows ``_repr_html_`` (a plain HTML table whose verdict cells carry a CSS class,
    ``verdict-agrees``, ``verdict-differs``, ..., coloured by the book's stylesheet); nbval and a
    terminal see ``__repr__``, the same text as ``DataFrame.to_string``.  Both are built here from
    the rounded values, without pandas' Styler, so the compared outputs do not depend on the
    pandas version.

    Parameters
    ----------
    frame : pandas.DataFrame or pandas.Series
        The rows to show (round them first: what is shown is what is compared); a Series is
        shown as a one-column table.
    verdict_columns : sequence of str
        Columns whose cells are coloured by their value.
    bold : mapping of column name to ``"min"`` or ``"max"``, optional
        Bold the smallest (largest) value of each of these columns, as the papers bold the best.
    group_by : str or sequence of str, optional
        Bold the best value within each group of rows with equal values in these columns (for
        example the best method of each data set) instead of over the whole column.
    caption : str, optional
        Shown above the table.
    index : bool
        Show the frame's index (named index levels become the first columns).
    math_columns : sequence of str, optional
        Columns whose cells are LaTeX formulas: the page typesets them (the text shows the
        source).
    details : sequence of str, optional
        Columns the page moves out of the main table into a second one, folded under it (with
        the main table's first ``n_keys`` columns to say which row is which), so that the main
        table fits the text column; the text shows every column in one table.
    n_keys : int
        How many leading columns identify a row in the folded table of ``details``.

    Notes
    -----
    On the page a column ``x`` with a companion ``x_std`` is shown as one column
    ``x (± std)`` whose cells read ``mean ± std``.

    Examples
    --------
    >>> import pandas as pd
    >>> t = Table(pd.DataFrame({"set": ["a"], "paper": [1.5], "paper_std": [0.2],
    ...                         "folds": [5]}), details=["folds"])
    >>> t
    set  paper  paper_std  folds
      a    1.5        0.2      5
    >>> "<th>paper (± std)</th>" in t._repr_html_() and "1.5 ± 0.2" in t._repr_html_()
    True
    >>> "<details" in t._repr_html_()
    True
    """

    def __init__(
        self,
        frame,
        *,
        verdict_columns=("verdict",),
        bold=None,
        group_by=None,
        caption=None,
        index: bool = False,
        math_columns=(),
        details=(),
        n_keys: int = 2,
    ):
        if not hasattr(frame, "columns"):  # a Series: one column, named as the Series
            frame = frame.to_frame(name="" if frame.name is None else frame.name)
        if index and any(name is not None for name in frame.index.names):
            frame, index = frame.reset_index(), False  # named index levels become columns
        self.frame = frame
        self.verdict_columns = [c for c in verdict_columns if c in frame.columns]
        self.bold = dict(bold or {})
        self.group_by = [group_by] if isinstance(group_by, str) else list(group_by or [])
        self.caption = caption
        self.index = index
        self.math_columns = [c for c in math_columns if c in frame.columns]
        unknown = [c for c in details if c not in frame.columns]
        if unknown:
            raise ValueError(f"details names columns the table lacks: {unknown}")
        self.details = list(details)
        self.n_keys = int(n_keys)

    def __repr__(self) -> str:
        text = self.frame.to_string(index=self.index)
        return f"{self.caption}\n{text}" if self.caption else text

    def _bold_cells(self) -> set:
        """``(row position, column)`` of every cell to bold."""
        import numpy as np

        cells = set()
        frame = self.frame.reset_index(drop=True)
        groups = (
            frame.groupby(self.group_by, sort=False, dropna=False).indices.values()
            if self.group_by
            else [np.arange(len(frame))]
        )
        for column, how in self.bold.items():
            values = frame[column]
            for rows in groups:
                part = values.iloc[rows]
                part = part[part.notna()]
                if len(part):
                    target = part.min() if how == "min" else part.max()
                    cells |= {(i, column) for i in part.index[part == target]}
        return cells

    def _repr_html_(self) -> str:
        main = [c for c in self.frame.columns if c not in self.details]
        html_table = self._html(main, self.caption)
        if not self.details:
            return html_table
        keys = [c for c in main[: self.n_keys] if c not in self.details]
        folded = self._html(keys + self.details, None)
        names = ", ".join(str(c) for c in self.details)
        return (
            f'{html_table}<details class="mb-details"><summary>More columns: {names}'
            f"</summary>{folded}</details>"
        )

    def _html(self, columns, caption) -> str:
        import html

        frame, bold = self.frame, self._bold_cells()
        std = {c: f"{c}_std" for c in columns if f"{c}_std" in columns}
        shown = [c for c in columns if c not in std.values()]
        heads = ([frame.index.name or ""] if self.index else []) + [
            f"{c} (± std)" if c in std else str(c) for c in shown
        ]
        rows = []
        for position, (label, row) in enumerate(frame.iterrows()):
            cells = [f"<th>{html.escape(str(label))}</th>"] if self.index else []
            for column in shown:
                value = row[column]
                text = _cell_text(value)
                if column in std and text and _cell_text(row[std[column]]):
                    text = f"{text} ± {_cell_text(row[std[column]])}"
                attrs = (
                    f' class="{_css_class(value)}"'
                    if column in self.verdict_columns and text
                    else ""
                )
                body = html.escape(text)
                if column in self.math_columns and text:
                    body = f'<span class="math notranslate nohighlight">\\({body}\\)</span>'
                if (position, column) in bold:
                    body = f"<strong>{body}</strong>"
                cells.append(f"<td{attrs}>{body}</td>")
            rows.append("<tr>" + "".join(cells) + "</tr>")
        head = "".join(f"<th>{_header_html(c)}</th>" for c in heads)
        caption = f"<caption>{html.escape(caption)}</caption>" if caption else ""
        return (
            f'<table class="table mb-table">{caption}<thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>"
        )


def _header_html(name: str) -> str:
    """A column name for a page's table header: a lower-case snake_case name of words of two or
    more characters reads with spaces (``train_error``: "train error"); in any other name an
    underscore, or a dot before a letter, may end a line (``<wbr>``; ``DB_eps_avg``, ``y_i``,
    ``AdaBoost.M1`` keep their spelling), so that a header wraps instead of widening the table.

    Examples
    --------
    >>> _header_html("train_error"), _header_html("y_i"), _header_html("AdaBoost.M1")
    ('train error', 'y_<wbr>i', 'AdaBoost.<wbr>M1')
    """
    import html

    text = str(name)
    if re.fullmatch(r"[a-z0-9]{2,}(_[a-z0-9]{2,})+", text):
        return html.escape(text.replace("_", " "))
    from ._html import line_breaks

    return line_breaks(html.escape(text), r"_|\.(?=[A-Za-z])")


def _cell_text(value) -> str:
    return "" if (isinstance(value, float) and math.isnan(value)) else str(value)


def in_words(values) -> str:
    """A mapping (or pandas Series) of names to counts or numbers as words, for a sentence.

    Parameters
    ----------
    values : mapping or pandas.Series
        Names and their counts or numbers, in the order to say them.

    Returns
    -------
    str
        ``"name value"`` pairs joined by commas: no braces, quotes or ``np.float64(...)``.

    Examples
    --------
    >>> in_words({"agrees": 9, "differs": 5})
    'agrees 9, differs 5'
    >>> import numpy as np
    >>> in_words({"Wine": np.float64(2.78), "Car": np.int64(0)})
    'Wine 2.78, Car 0'
    """

    def number(value) -> str:
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, numbers.Integral):
            return str(int(value))
        if isinstance(value, numbers.Real):
            value = float(value)
            return str(int(value)) if value.is_integer() else f"{value:g}"
        return str(value)

    return ", ".join(f"{name} {number(value)}" for name, value in values.items())


def show_table(frame, **kwargs) -> Table:
    """A :class:`Table` of ``frame`` (the last expression of a cell displays it)."""
    return Table(frame, **kwargs)
