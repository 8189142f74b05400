"""The numba cache of the package's kernels: say once that the first fit compiles them.

The kernels are compiled on their first call and cached on disk (``NUMBA_CACHE_DIR``, or a
``__pycache__`` folder beside the sources); a process that finds them cached loads them in a
fraction of a second.  With an empty cache the first fit of a process compiles for several
seconds to a minute without output, which looks like a hang: :func:`announce_compilation`
prints one line to standard error before it, once per process, when the kernels of the tree
learner have no cache entry yet.  ``marginboost compile`` fills the cache ahead of time.
"""

from __future__ import annotations

import os
import sys

__all__ = ["announce_compilation", "kernels_cached", "compile_kernels"]

_ANNOUNCED = False


def _cache_index_paths() -> list[str]:
    """Where numba keeps the index file of each cached kernel of the tree learner."""
    from numba.core.registry import CPUDispatcher

    from .weak import (
        _apply_kernels,
        _histogram_kernels,
        _input_kernels,
        _search_histogram_kernels,
        _split_kernels,
    )

    paths = []
    for module in (
        _input_kernels,
        _histogram_kernels,
        _search_histogram_kernels,
        _split_kernels,
        _apply_kernels,
    ):
        for value in vars(module).values():
            cache = getattr(value, "_cache", None) if isinstance(value, CPUDispatcher) else None
            if cache is not None:
                cache_file = getattr(cache, "_cache_file", None)
                path = getattr(cache_file, "_index_path", None)
                if path and path not in paths:  # a kernel imported by another module: once
                    paths.append(path)
    return paths


def kernels_cached() -> bool | None:
    """Whether the tree learner's kernels have entries in the numba cache.

    Returns
    -------
    bool or None
        True when at least one of them is cached, False when none is (the next fit compiles
        them), None when it cannot be told (numba's JIT switched off, or no cache).

    Examples
    --------
    >>> kernels_cached() in (True, False, None)
    True
    """
    try:
        paths = _cache_index_paths()
    except Exception:  # numba's cache layout is not public: never fail a fit over it
        return None
    if not paths:
        return None
    return any(os.path.exists(path) for path in paths)


def announce_compilation() -> None:
    """Print once per process, before a fit compiles the kernels, that it does and for how long.

    Nothing is printed when the kernels are cached, when it cannot be told, or when
    ``MARGINBOOST_QUIET`` is set to a non-empty value.
    """
    global _ANNOUNCED
    if _ANNOUNCED:
        return
    _ANNOUNCED = True
    if os.environ.get("MARGINBOOST_QUIET") or kernels_cached() is not False:
        return
    print(
        "marginboost: compiling its numba kernels for this machine; a first fit takes from a few "
        "seconds to a minute, once: later fits load them from the cache "
        "(`marginboost compile` fills it ahead of time)",
        file=sys.stderr,
        flush=True,
    )


def compile_kernels(*, progress: bool | None = None) -> dict[str, float]:
    """Fill the numba cache: fit every public estimator once on a small data set.

    Each estimator runs a few rounds on 60 examples (three classes where it takes them, two
    otherwise), so that its kernels are compiled and cached; later processes load them.

    Parameters
    ----------
    progress : bool, optional
        Draw a bar of the estimators on standard error (default: only on a terminal).

    Returns
    -------
    dict of str to float
        Seconds per estimator (the first ones pay for the kernels they share).
    """
    import time
    import warnings

    import numpy as np
    from tqdm.auto import tqdm

    import marginboost

    global _ANNOUNCED
    _ANNOUNCED = True  # the bar says it
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    two = (X[:, 0] + 0.3 * rng.normal(size=60) > 0).astype(int)
    three = np.digitize(X[:, 0], [-0.4, 0.4])
    names = sorted(n for n in marginboost.__all__ if n in marginboost._ESTIMATORS)
    seconds = {}
    bar = tqdm(names, desc="compiling kernels", unit="estimator", disable=progress is False)
    for name in bar:
        bar.set_postfix_str(name)
        start = time.perf_counter()
        estimator = getattr(marginboost, name)()
        small = {k: 5 for k in ("n_estimators",) if k in estimator.get_params()}
        estimator.set_params(**small)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                estimator.fit(X, three)
            except ValueError:  # a binary method
                estimator.fit(X, two)
        seconds[name] = time.perf_counter() - start
    return seconds
