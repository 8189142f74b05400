"""Every public object of the API reference has a numpydoc docstring whose Examples run.

The objects are those the API pages document (``marginboost._repo.apidoc.api_pages``: every public
class, function and exception of the package).  Each docstring has a summary line, a
``Parameters`` section when the object takes parameters, a ``Returns`` (or ``Yields``) section
when a function returns something, and an ``Examples`` section that doctest runs and that must
pass.  The objects that implement a paper's method or derivation (estimators, margin costs,
margins, duality checks: :data:`NEEDS_NOTES`) also carry ``Notes`` (the paper's equations) and
``References``.  Exceptions need only a summary.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import re

import pytest

import marginboost
from marginboost._repo.apidoc import api_pages

#: Modules whose public objects implement a paper's method or derivation.
NEEDS_NOTES = ("marginboost", "marginboost.margins", "marginboost.losses", "marginboost.duality")


def _api_objects() -> list[tuple[str, str]]:
    found = []
    for text in api_pages().values():
        module = None
        for line in text.splitlines():
            m = re.match(r"\.\. currentmodule:: (\S+)", line)
            if m:
                module = m.group(1)
                continue
            m = re.match(r"\.\. auto(class|function|exception):: (\S+)", line)
            if m and module is not None:
                found.append((module, m.group(2)))
    return sorted(set(found))


OBJECTS = _api_objects()
IDS = [f"{module}.{name}" for module, name in OBJECTS]


def _object(module: str, name: str):
    return getattr(importlib.import_module(module), name)


def _section(doc: str, title: str) -> bool:
    return re.search(rf"^\s*{title}\n\s*-{{{len(title)}}}\s*$", doc, flags=re.M) is not None


def _takes_parameters(obj) -> bool:
    target = obj.__init__ if inspect.isclass(obj) else obj
    try:
        params = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return False
    return any(p not in ("self", "cls") for p in params)


def _returns_something(obj) -> bool:
    if inspect.isclass(obj):
        return False
    annotation = inspect.signature(obj).return_annotation
    return annotation not in (None, "None", inspect.Signature.empty)


def test_the_api_pages_document_many_objects():
    assert len(OBJECTS) > 150
    assert ("marginboost", "DirectBoost") in OBJECTS


@pytest.mark.parametrize(("module", "name"), OBJECTS, ids=IDS)
def test_public_object_has_a_numpydoc_docstring(module, name):
    obj = _object(module, name)
    doc = inspect.getdoc(obj)
    assert doc, f"{module}.{name} has no docstring"
    assert doc.splitlines()[0].strip(), f"{module}.{name} has no summary line"
    if inspect.isclass(obj) and issubclass(obj, BaseException):
        return
    if _takes_parameters(obj):
        assert _section(doc, "Parameters"), f"{module}.{name} has no Parameters section"
    if _returns_something(obj):
        assert _section(doc, "Returns") or _section(doc, "Yields"), (
            f"{module}.{name} has no Returns section"
        )
    assert _section(doc, "Examples"), f"{module}.{name} has no Examples section"
    if module in NEEDS_NOTES:
        assert _section(doc, "Notes"), f"{module}.{name} has no Notes section"
        assert _section(doc, "References"), f"{module}.{name} has no References section"


@pytest.mark.parametrize(("module", "name"), OBJECTS, ids=IDS)
def test_docstring_examples_run(module, name):
    obj = _object(module, name)
    if inspect.isclass(obj) and issubclass(obj, BaseException):
        pytest.skip("exceptions need only a summary")
    tests = doctest.DocTestFinder(recurse=False).find(obj, name, globs={})
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0, f"{module}.{name} has no Examples to run"
    assert result.failed == 0, f"{result.failed} doctest example(s) of {module}.{name} failed"


def test_every_estimator_is_in_the_api_pages():
    assert {("marginboost", n) for n in marginboost._ESTIMATORS} <= set(OBJECTS)
