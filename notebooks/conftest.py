"""pytest --nbval set-up for the notebooks.

The notebooks write their key numbers and result stores under ``$MARGINBOOST_RESULTS_DIR``;
while nbval re-executes them they must not write into the committed ``data/results``, so the
folder is pointed at a temporary directory.  Progress bars are switched off because their text
is volatile.  The variables are set only around the notebook items (the kernel inherits them
when it starts with a notebook's first cell) and restored afterwards, so they never leak into
the unit tests.
"""
import os
import tempfile

_TMP = tempfile.TemporaryDirectory(prefix="marginboost-nbval-")
_KERNEL_ENV = {"MARGINBOOST_RESULTS_DIR": _TMP.name, "TQDM_DISABLE": "1", "PYTHONHASHSEED": "0"}


_SAVED: dict = {}


def pytest_runtest_setup(item):
    # Runs before the item's parents are set up, i.e. before nbval starts the kernel.
    _SAVED.update({name: os.environ.get(name) for name in _KERNEL_ENV})
    os.environ.update(_KERNEL_ENV)


def pytest_runtest_teardown(item, nextitem):
    for name, value in _SAVED.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
