"""Committed full-profile results are evidence: a sample of them is recomputed and must agree.

For every paper with a committed ``data/results/<paper>/store-full``, a random (seeded) sample
of records is recomputed with the cell function that produced them, from the same spec, and the
metrics must be equal (to 1e-9: the computations are deterministic, the tolerance only absorbs
the last bit of floating-point summation order between machines; duality gaps, zero up to the
solver's tolerance, to 1e-8 absolute; metrics that a solver's path decides rather than the
problem, ``SOLVER_PATH_KEYS``, are not compared).  Set
``MARGINBOOST_RESULTS_SAMPLE`` to change the sample size (default 4 per paper) and
``MARGINBOOST_RESULTS_SEED`` to draw another sample.  To keep the suite short, only records whose
recorded computing time is at most ``MARGINBOOST_RESULTS_MAX_SECONDS`` (default 5 s) are drawn;
the others are recomputed by rerunning their notebook (``marginboost reproduce``), or here with
``MARGINBOOST_RESULTS_MAX_SECONDS=inf``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from marginboost.experiments import ResultStore
from marginboost.experiments.store import cell_key
from marginboost.papers import PAPERS, PROTOCOLS, cell_function, notebook_cells
from marginboost.papers.shen_li.tables import SOLVER_PATH_METRICS

ROOT = Path(__file__).resolve().parents[1]
MIRROR = os.environ.get("MARGINBOOST_DATA_MIRROR")
SAMPLE = int(os.environ.get("MARGINBOOST_RESULTS_SAMPLE", "4"))
SEED = int(os.environ.get("MARGINBOOST_RESULTS_SEED", "20261121"))
MAX_SECONDS = float(os.environ.get("MARGINBOOST_RESULTS_MAX_SECONDS", "5"))


def _sampled_records():
    params = []
    for paper in PAPERS:
        store_dir = ROOT / "data" / "results" / paper / "store-full"
        if not store_dir.is_dir():
            continue
        records = sorted(
            (
                r
                for r in ResultStore(store_dir)
                if float(r.get("elapsed_seconds", 0.0)) <= MAX_SECONDS
            ),
            key=lambda r: r["key"],
        )
        rng = np.random.default_rng(SEED)
        chosen = rng.choice(len(records), size=min(SAMPLE, len(records)), replace=False)
        params += [
            pytest.param(paper, records[i], id=f"{paper}-{records[i]['key'][:10]}")
            for i in sorted(chosen)
        ]
    return params


#: Metrics that are wall-clock measurements, not results: present, but not compared.
TIMING_KEYS = ("seconds",)
#: Metrics that a solver's path decides, not the problem: present, but not compared.
SOLVER_PATH_KEYS = set(SOLVER_PATH_METRICS)
#: Metrics that are zero up to a solver's tolerance (a duality gap at the optimum): compared with
#: this absolute tolerance, since their last digits are rounding noise of the platform's BLAS.
SOLVER_TOLERANCE_KEYS = {"final_duality_gap": 1e-8, "duality_gap": 1e-8}


def _assert_same(stored, fresh, path=""):
    if isinstance(stored, dict):
        assert set(stored) == set(fresh), f"{path}: keys differ"
        for key in stored:
            if key in TIMING_KEYS or f"{path}.{key}" in SOLVER_PATH_KEYS:
                continue
            if key in SOLVER_TOLERANCE_KEYS:
                np.testing.assert_allclose(
                    np.asarray(fresh[key], dtype=float),
                    np.asarray(stored[key], dtype=float),
                    rtol=0,
                    atol=SOLVER_TOLERANCE_KEYS[key],
                    err_msg=f"{path}.{key}",
                )
                continue
            _assert_same(stored[key], fresh[key], f"{path}.{key}")
    elif isinstance(stored, list) and any(isinstance(v, (dict, list, str)) for v in stored):
        assert len(stored) == len(fresh), f"{path}: lengths differ"
        for k, (s_item, f_item) in enumerate(zip(stored, fresh)):
            _assert_same(s_item, f_item, f"{path}[{k}]")
    elif isinstance(stored, list):
        np.testing.assert_allclose(
            np.asarray(fresh, dtype=float),
            np.asarray(stored, dtype=float),
            rtol=1e-9,
            atol=1e-12,
            err_msg=path,
        )
    elif isinstance(stored, (int, float)) and not isinstance(stored, bool):
        assert fresh == pytest.approx(stored, rel=1e-9, abs=1e-12, nan_ok=True), path
    else:
        assert fresh == stored, path


@pytest.mark.skipif(
    not MIRROR or not Path(MIRROR).is_dir(),
    reason="MARGINBOOST_DATA_MIRROR does not point at the data mirror",
)
@pytest.mark.parametrize(("paper", "record"), _sampled_records())
def test_stored_full_profile_cell_reproduces(paper, record):
    spec = record["spec"]
    fresh = cell_function(paper, spec)(spec)
    _assert_same(record["metrics"], fresh)


@pytest.mark.skipif(
    not MIRROR or not Path(MIRROR).is_dir(),
    reason="cells are identified by their data files' hashes: needs MARGINBOOST_DATA_MIRROR",
)
@pytest.mark.parametrize("paper", PAPERS)
def test_committed_store_holds_only_cells_a_notebook_computes(paper):
    """A record that no notebook's grid computes (an earlier protocol's cell) would be evidence
    no page shows, and would inflate the performance page's recompute cost: it must leave the
    committed store when its protocol changes."""
    store_dir = ROOT / "data" / "results" / paper / "store-full"
    if not store_dir.is_dir():
        pytest.skip(f"no committed store for {paper}")
    referenced = {cell_key(c) for c in notebook_cells(paper, "full")}
    stale = sorted(p.stem for p in store_dir.glob("*/*.json") if p.stem not in referenced)
    assert not stale, (
        f"{len(stale)} record(s) in {store_dir.relative_to(ROOT)} belong to no notebook's grid "
        f"(first: {stale[:3]}); remove them"
    )


def test_notebook_cells_cover_every_committed_grid_function():
    """Every ``*_cells`` function a notebook calls is named in its paper's ``grids``."""
    import re

    named = {g.split(":")[1] for p in PAPERS for g in PROTOCOLS[p].grids}
    called = set()
    for notebook in (ROOT / "notebooks").glob("*.md"):
        called |= set(re.findall(r"\b([a-z0-9_]+_cells)\(profile", notebook.read_text()))
    assert called and called <= named, sorted(called - named)
