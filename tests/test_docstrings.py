"""Every public estimator is documented (numpydoc sections) and its Examples run (doctest)."""
from __future__ import annotations

import doctest

import pytest

import marginboost

NAMES = sorted(marginboost._ESTIMATORS)


@pytest.mark.parametrize("name", NAMES)
def test_public_estimator_has_a_numpydoc_docstring(name):
    doc = getattr(marginboost, name).__doc__
    assert doc is not None, f"{name}.__doc__ is None"
    assert "Parameters\n    ----------" in doc, f"{name} has no Parameters section"


@pytest.mark.parametrize("name", NAMES)
def test_docstring_examples_run(name):
    cls = getattr(marginboost, name)
    tests = doctest.DocTestFinder(recurse=False).find(cls, name, globs={})
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0, f"{name} has no Examples to run"
    assert result.failed == 0, f"{result.failed} doctest example(s) of {name} failed"
