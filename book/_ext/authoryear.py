"""Author-year labels for the book's bibliography (a local Sphinx extension).

The chapters cite author-year ("Shen and Li 2010a"); with pybtex's ``plain`` style the reference
list would be numbered instead. This registers a pybtex style ``authoryear``: the ``plain``
formatting with labels "Surname Year", "Surname and Surname Year" or "Surname et al. Year".
Two papers of the same authors and year are told apart by their ``year`` field (``2010a``,
``2010b`` in ``references.bib``).
"""
from __future__ import annotations

from pybtex.plugin import register_plugin
from pybtex.richtext import Text
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle


class AuthorYearLabels(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        for entry in sorted_entries:
            people = entry.persons.get("author") or entry.persons.get("editor") or []
            surnames = [Text.from_latex(" ".join(person.last_names)).render_as("text")
                        for person in people]
            if len(surnames) > 2:
                who = f"{surnames[0]} et al."
            elif len(surnames) == 2:
                who = f"{surnames[0]} and {surnames[1]}"
            else:
                who = surnames[0] if surnames else entry.key
            yield f"{who} {entry.fields.get('year', '')}".strip()


class AuthorYearStyle(PlainStyle):
    default_label_style = AuthorYearLabels
    default_sorting_style = "author_year_title"


def setup(app):
    register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
