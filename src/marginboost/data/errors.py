"""Exceptions raised by :mod:`marginboost.data`.

Every error of the data layer derives from :class:`DataError`, so callers can catch all of them
at once.  Each concrete class also derives from the built-in exception a Python programmer would
expect (``KeyError``/``ValueError`` for bad arguments, ``OSError`` for files that cannot be had),
so generic handlers keep working.
"""

from __future__ import annotations

__all__ = [
    "DataError",
    "UnknownDatasetError",
    "ChecksumError",
    "DataUnavailableError",
    "DataFormatError",
    "ProtocolError",
]


class DataError(Exception):
    """Base class of every error raised by :mod:`marginboost.data`."""


class UnknownDatasetError(DataError, ValueError):
    """A dataset name that is not in the registry.

    Parameters
    ----------
    name
        The name that was asked for.
    close_matches
        Registered names that look similar (from :func:`difflib.get_close_matches`).
    """

    def __init__(self, name: str, close_matches: list[str] | tuple[str, ...] = ()):
        self.name = name
        self.close_matches = list(close_matches)
        hint = (
            f"; did you mean {', '.join(repr(m) for m in self.close_matches)}?"
            if self.close_matches
            else ""
        )
        super().__init__(
            f"unknown dataset {name!r}{hint} "
            "(marginboost.data.list_datasets() lists every registered name)"
        )


class ChecksumError(DataError, OSError):
    """A data file whose SHA-256 differs from the registry; the file is not used.

    Parameters
    ----------
    path
        The offending file.
    expected, actual
        Hex SHA-256 digests from the registry and of the file.
    """

    def __init__(self, path, expected: str, actual: str):
        self.path = str(path)
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"checksum mismatch for {self.path}: expected sha256 {expected}, got {actual}; "
            "the file was not used (replace it with a fresh copy or delete it to re-download)"
        )


class DataUnavailableError(DataError, OSError):
    """A data file that is neither in a mirror nor downloadable (for example: offline)."""


class DataFormatError(DataError, ValueError):
    """A data file that does not parse as its registered format says it should."""


class ProtocolError(DataError, ValueError):
    """Invalid arguments to a split protocol (sizes, fractions, number of folds)."""
