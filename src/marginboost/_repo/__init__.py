"""Tooling of the marginboost repository, not part of the library's API.

These modules build the book from a checkout: they execute the notebooks (``notebooks``),
write the generated pages (the API reference ``apidoc``, the citation blocks ``citation``, the
performance page ``performance``) and need the repository's files (``notebooks/``, ``book/``,
``data/results/``, ``benchmarks/results/``) and the ``[book]`` extra.  The ``marginboost``
command's ``book``, ``reproduce``, ``notebooks`` and ``results`` subcommands use them; nothing
in the library (estimators, weak learners, duality checks, data, experiments) imports them.
"""
