"""pytest --nbval set-up for the notebooks.

The notebooks write their key numbers and result stores under ``$MARGINBOOST_RESULTS_DIR``;
while nbval re-executes them they must not write into the committed ``data/results``, so the
folder is pointed at a temporary directory.  ``$MARGINBOOST_CHECK_KEY_NUMBERS`` points at the
committed ``data/results``: each notebook's ``save_key_numbers`` then compares what it writes
with the committed key numbers and fails its cell on a disagreement, so one execution checks
both the printed outputs (nbval) and the key numbers; after a notebook's last cell its key
numbers must have been written.  Progress bars are switched off because their text is
volatile.  The variables are set only around the notebook items (the kernel inherits them
when it starts with a notebook's first cell) and restored afterwards, so they never leak into
the unit tests.
"""

import os
import tempfile
from pathlib import Path

import pytest

from marginboost.reporting import CHECK_KEY_NUMBERS_ENV, key_numbers_path

ROOT = Path(__file__).resolve().parents[1]
_TMP = tempfile.TemporaryDirectory(prefix="marginboost-nbval-")
_KERNEL_ENV = {
    "MARGINBOOST_RESULTS_DIR": _TMP.name,
    CHECK_KEY_NUMBERS_ENV: str(ROOT / "data" / "results"),
    "TQDM_DISABLE": "1",
    "PYTHONHASHSEED": "0",
}


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
    path = Path(str(item.fspath))
    if path.suffix != ".ipynb" or (nextitem is not None and Path(str(nextitem.fspath)) == path):
        return
    paper, _, notebook_item = path.stem.partition("-")
    written = key_numbers_path(paper, notebook_item, "quick", root=Path(_TMP.name))
    if not written.exists():
        pytest.fail(f"{path.name} did not write its key numbers (save_key_numbers)")
