"""Finding data files: an offline mirror first, else a checked download into the user cache.

Order of precedence for a registry file ``entry["file"]`` (a path relative to the mirror root):

1. the ``mirror`` argument, else the folder named by ``MARGINBOOST_DATA_MIRROR``;
2. the user cache (:func:`marginboost._paths.cache_dir`), filled by downloading the entry's
   commit-pinned ``raw_url`` with :func:`pooch.retrieve`.

The SHA-256 of the file is always compared with the registry before the file is used; a
mismatch raises :class:`~marginboost.data.errors.ChecksumError` and the file is not parsed.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import Any

from .._paths import cache_dir
from .errors import ChecksumError, DataUnavailableError
from .registry import file_entries, get_entry

__all__ = [
    "MIRROR_ENV",
    "mirror_dir",
    "sha256_of",
    "locate",
    "verify",
    "verify_report",
    "fetch",
    "files_of",
]

#: Environment variable naming an offline mirror folder.
MIRROR_ENV = "MARGINBOOST_DATA_MIRROR"


def mirror_dir(mirror: str | os.PathLike | None = None) -> Path | None:
    """Return the mirror folder to use: ``mirror`` if given, else ``$MARGINBOOST_DATA_MIRROR``.

    Returns ``None`` when neither is set.  A folder that does not exist is reported as such
    when a file is looked up, not here.
    """
    if mirror is not None:
        return Path(mirror).expanduser()
    env = os.environ.get(MIRROR_ENV)
    return Path(env).expanduser() if env else None


@functools.lru_cache(maxsize=512)
def _sha256_cached(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def sha256_of(path: str | os.PathLike) -> str:
    """Return the hex SHA-256 of a file (memoised on path, size and modification time)."""
    stat = os.stat(path)
    return _sha256_cached(str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns)


def _check(path: Path, entry: dict[str, Any]) -> Path:
    actual = sha256_of(path)
    if actual != entry["sha256"]:
        raise ChecksumError(path, entry["sha256"], actual)
    return path


def _download(url: str, known_hash: str, fname: str, path: str, progress: bool = False) -> str:
    """Download ``url`` into ``path/fname`` with pooch, checking ``known_hash``."""
    import pooch

    return pooch.retrieve(url, known_hash=known_hash, fname=fname, path=path, progressbar=progress)


def locate(
    name_or_entry: str | dict[str, Any],
    mirror: str | os.PathLike | None = None,
    *,
    progress: bool = False,
) -> Path:
    """Return the local path of a registry file, verified against its SHA-256.

    The mirror is searched first (``mirror``, else ``$MARGINBOOST_DATA_MIRROR``), then the
    user cache; a file found in neither is downloaded from the entry's commit-pinned
    ``raw_url`` into the cache.  Whichever copy is used, its SHA-256 must equal the
    registry's.

    Parameters
    ----------
    name_or_entry : str or dict
        A registry file name (``"sonar"``) or its entry dict.
    mirror : str or path-like, optional
        Mirror folder; defaults to ``$MARGINBOOST_DATA_MIRROR``.
    progress : bool, optional
        Show pooch's progress bar while downloading (default ``False``).

    Returns
    -------
    pathlib.Path
        The checked file: in the mirror, or in the user cache.

    Raises
    ------
    ValueError
        If the name is that of a combined dataset, which has no single file.
    ChecksumError
        The mirror copy, cached copy or download has the wrong SHA-256.
    DataUnavailableError
        The file is in no mirror and cannot be downloaded (for example: no network).

    Examples
    --------
    >>> from marginboost.data import get_entry, locate
    >>> from marginboost.data.fetch import sha256_of
    >>> path = locate("sonar")
    >>> path.name, path.is_file()
    ('sonar.tsv.gz', True)
    >>> sha256_of(path) == get_entry("sonar")["sha256"]
    True
    """
    entry = get_entry(name_or_entry) if isinstance(name_or_entry, str) else name_or_entry
    if "file" not in entry:
        raise ValueError(f"{entry['name']!r} is a combined dataset, not a single file")
    root = mirror_dir(mirror)
    if root is not None:
        candidate = root / entry["file"]
        if candidate.is_file():
            return _check(candidate, entry)
    cached = cache_dir() / entry["file"]
    cached_digest = sha256_of(cached) if cached.is_file() else None
    if cached_digest == entry["sha256"]:
        return cached
    try:
        downloaded = _download(
            entry["raw_url"],
            f"sha256:{entry['sha256']}",
            Path(entry["file"]).name,
            str(cached.parent),
            progress=progress,
        )
    except ValueError as exc:  # pooch reports a hash mismatch as ValueError
        if "hash" in str(exc).lower():
            raise ChecksumError(entry["raw_url"], entry["sha256"], "see: " + str(exc)) from exc
        raise
    except Exception as exc:  # network errors come from requests/urllib/socket
        if cached_digest is not None:
            # the cache holds a damaged copy and no fresh one can be had: that is the problem
            raise ChecksumError(cached, entry["sha256"], cached_digest) from exc
        where = (
            f"the mirror folder {root} has no {entry['file']}"
            if root is not None
            else f"{MIRROR_ENV} is not set"
        )
        raise DataUnavailableError(
            f"cannot obtain data file {entry['file']!r} for dataset {entry['name']!r}: {where}, "
            f"and downloading {entry['raw_url']} failed ({type(exc).__name__}: {exc}). "
            f"Set {MIRROR_ENV} to a folder holding a copy of the benchmark mirror, or connect "
            "to the internet so the file can be downloaded into the cache "
            f"({cache_dir()})"
        ) from exc
    return _check(Path(downloaded), entry)


def verify(mirror: str | os.PathLike | None = None) -> list[str]:
    """Check every registry file in a folder; return one line per problem (empty if none).

    Nothing is downloaded: a file absent from the folder is reported as missing.  A file is
    correct when its SHA-256 and its size in bytes equal the registry's.

    Parameters
    ----------
    mirror : str or path-like, optional
        Folder to check; defaults to ``$MARGINBOOST_DATA_MIRROR``, else the download cache.

    Returns
    -------
    list of str
        In registry order, ``"missing   <file> (<name>)"`` for each absent file and
        ``"mismatch  <file> (<name>): expected ..."`` (both digests and sizes) for each file
        with the wrong content.  Empty when every file is present and correct.

    Examples
    --------
    An empty folder lacks every file:

    >>> import tempfile
    >>> from marginboost.data import list_datasets, verify
    >>> with tempfile.TemporaryDirectory() as empty:
    ...     problems = verify(empty)
    >>> problems[0]
    'missing   pmlb/tic_tac_toe.tsv.gz (tic_tac_toe)'
    >>> all(line.startswith("missing") for line in problems)
    True
    >>> len(problems) < len(list_datasets())  # one line per file; combined sets have none
    True
    """
    root = mirror_dir(mirror) or cache_dir()
    problems = []
    for entry in file_entries():
        path = root / entry["file"]
        if not path.is_file():
            problems.append(f"missing   {entry['file']} ({entry['name']})")
            continue
        size = path.stat().st_size
        digest = sha256_of(path)
        if digest != entry["sha256"] or size != int(entry["bytes"]):
            problems.append(
                f"mismatch  {entry['file']} ({entry['name']}): expected sha256 "
                f"{entry['sha256']} and {entry['bytes']} bytes, got {digest} and "
                f"{size} bytes"
            )
    return problems


def verify_report(mirror: str | os.PathLike | None = None) -> tuple[int, str]:
    """Run :func:`verify` and return ``(exit_code, text)`` for ``marginboost data verify``.

    Missing files are summarised (how many, a few names) with what to do about them; a file
    whose hash or size is wrong is listed in full, since it must not be used.

    Parameters
    ----------
    mirror : str or path-like, optional
        Folder to check; defaults to ``$MARGINBOOST_DATA_MIRROR``, else the download cache.

    Returns
    -------
    exit_code : int
        0 when every registry file is present and correct, else 1.
    text : str
        The report: which folder was checked, the wrong files, a summary of the missing ones
        with advice, and a last line ``"<ok>/<total> files verified"`` with the counts of
        wrong and missing files.

    Examples
    --------
    >>> import tempfile
    >>> from marginboost.data import verify_report
    >>> with tempfile.TemporaryDirectory() as empty:
    ...     code, text = verify_report(empty)
    >>> code
    1
    >>> print(text.splitlines()[-1])
    0/... files verified, ... missing
    """
    explicit = mirror_dir(mirror)
    if explicit is not None and not Path(explicit).is_dir():
        return 1, (
            f"the mirror folder {explicit} does not exist (given by "
            f"{'the argument' if mirror is not None else MIRROR_ENV}); point it at a copy of "
            f"the benchmark mirror, or unset {MIRROR_ENV} to download the files"
        )
    root = explicit or cache_dir()
    problems = verify(mirror)
    total = len(file_entries())
    missing = [p for p in problems if p.startswith("missing")]
    wrong = [p for p in problems if not p.startswith("missing")]
    where = (
        f"the mirror {root}"
        if explicit is not None
        else f"the download cache {root} ({MIRROR_ENV} is not set)"
    )
    lines = [f"checked {total} registry files in {where}"]
    lines += wrong
    if missing:
        shown = ", ".join(p.split()[1] for p in missing[:3])
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        lines.append(
            f"{len(missing)} files are missing ({shown}{more}); "
            + (
                "check that the mirror folder is a copy of the benchmark mirror, or "
                "unset the variable to use downloads"
                if explicit is not None
                else "download them with `marginboost data fetch` (needs the internet), or "
                f"set {MIRROR_ENV} to a folder holding the benchmark mirror"
            )
        )
    lines.append(
        f"{total - len(problems)}/{total} files verified"
        + (f", {len(wrong)} with a wrong sha256 or size" if wrong else "")
        + (f", {len(missing)} missing" if missing else "")
    )
    return (1 if problems else 0), "\n".join(lines)


def files_of(names: list[str] | tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Registry file entries of dataset names (a combined dataset gives all its files); all files
    when ``names`` is empty."""
    entries = file_entries()
    if not names:
        return entries
    by_name = {entry["name"]: entry for entry in entries}
    chosen: dict[str, dict[str, Any]] = {}

    def add(name: str) -> None:
        entry = get_entry(name)
        if entry["kind"] == "file":
            chosen[entry["file"]] = by_name[entry["name"]]
            return
        parts = list((entry.get("parts") or {}).values())
        parent = entry.get("derived_from")
        parts += [parent] if isinstance(parent, str) else list(parent or [])
        for part in parts:
            add(part)

    for name in names:
        add(name)
    return list(chosen.values())


def fetch(
    names: list[str] | tuple[str, ...] = (),
    mirror: str | os.PathLike | None = None,
    *,
    progress: bool | None = None,
    log=print,
) -> list[Path]:
    """Download (or find in the mirror) registry files and check their SHA-256.

    Parameters
    ----------
    names
        Dataset names (``marginboost data list``); empty: every registered file.
    mirror
        Mirror folder; defaults to ``$MARGINBOOST_DATA_MIRROR``.  Files found there are only
        checked, not copied.
    progress
        Show pooch's download bar (default: when standard error is a terminal).
    log
        Called with one line per file.

    Raises
    ------
    DataUnavailableError, ChecksumError
        For the first file that cannot be had; the message names the file, its URL and what to
        do.  Files fetched before it stay in the cache.
    """
    import sys

    if progress is None:
        progress = sys.stderr.isatty()
    entries = files_of(tuple(names))
    paths = []
    for i, entry in enumerate(entries, 1):
        path = locate(entry, mirror, progress=progress)
        log(f"[{i}/{len(entries)}] {entry['file']}: ok ({path})")
        paths.append(path)
    return paths
