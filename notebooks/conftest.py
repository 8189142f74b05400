"""pytest --nbval set-up for the notebooks.

The notebooks write their key numbers to ``$MARGINBOOST_RESULTS_DIR``; while nbval re-executes
them they must not overwrite the committed files in ``data/results``, so the folder is pointed
at a temporary directory.  Progress bars are switched off because their text is volatile.
"""
import os
import tempfile

_TMP = tempfile.TemporaryDirectory(prefix="marginboost-nbval-")


def pytest_configure(config):
    os.environ["MARGINBOOST_RESULTS_DIR"] = _TMP.name
    os.environ["TQDM_DISABLE"] = "1"
    os.environ.setdefault("PYTHONHASHSEED", "0")
