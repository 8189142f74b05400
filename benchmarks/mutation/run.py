"""Mutation testing of the core modules with cosmic-ray: ``make mutation``.

Each core module is one cosmic-ray session (``_build/mutation/<module>.sqlite``) whose mutants
are tested by the fast tests of that module (``GROUPS`` below; ``pytest -x -m "not slow"``).
Mutants are applied to a scratch copy of ``src/`` and ``tests/`` under ``_build/mutation/tree``,
never to the working tree, so the repository stays usable while a run is in progress and an
interrupted run leaves nothing behind.

numba kernels are recompiled for every mutant of a module that contains them: each test command
of such a module gets a fresh, empty ``NUMBA_CACHE_DIR``.  Modules without kernels share one
cache of the unmutated kernels (numba revalidates each entry against its source file, which
those mutants do not touch).

Sessions are resumable: a rerun executes only the mutants still pending, and a session is
rebuilt from scratch when its module's source changed (sha256 recorded beside the session).
``--rerun-survivors`` tests the survivors again (after new tests were added).  ``--budget-minutes``
stops cleanly after that many minutes; the next run goes on where it stopped.

The summary, ``benchmarks/mutation/SUMMARY.md``, is rewritten from all sessions after every run.
Surviving mutants that cannot change any result are listed with their reason in
``benchmarks/mutation/equivalent.toml`` (matched on module, original line and mutated line) and
counted apart from the survivors.

Usage::

    python benchmarks/mutation/run.py [--modules boosting/_steps.py weak/binning.py]
                                      [--budget-minutes 60] [--rerun-survivors] [--summary-only]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BUILD = ROOT / "_build" / "mutation"
TREE = BUILD / "tree"
PACKAGE = "src/marginboost"

STAGEWISE = [
    "tests/test_steps.py",
    "tests/test_arcgv.py",
    "tests/test_stagewise.py",
    "tests/test_stagewise_reference.py",
]
MASTERS = [
    "tests/test_solver_tolerances.py",
    "tests/test_lpboost_master.py",
    "tests/test_corrective.py",
    "tests/test_mdboost.py",
    "tests/test_mcboost.py",
    "tests/test_mcboost_lasso.py",
]
DIRECT = [
    "tests/test_directboost.py",
    "tests/test_direct_line_search.py",
    "tests/test_direct_figures.py",
]
DMC = ["tests/test_dmcboost.py", "tests/test_dmcboost_search.py"]
DUALITY = ["tests/test_duality_pairs.py", "tests/test_duality_conjugates.py"]

#: module (relative to src/marginboost) -> the fast tests that exercise it, in the order
#: in which a run visits them (the most used code first).
GROUPS: dict[str, list[str]] = {
    "boosting/_steps.py": STAGEWISE,
    "weak/binning.py": ["tests/test_binning_cuts.py", "tests/test_weak_binning.py"],
    "margins.py": ["tests/test_margins.py"],
    "boosting/_engine.py": STAGEWISE,
    "weak/_kernels.py": [
        "tests/test_binning_cuts.py",
        "tests/test_weak_trees.py",
        "tests/test_weak_raw_features.py",
    ],
    "weak/tree.py": ["tests/test_weak_trees.py", "tests/test_weak_raw_features.py"],
    "losses.py": ["tests/test_losses.py", "tests/test_duality_conjugates.py"],
    "boosting/stagewise.py": STAGEWISE,
    "boosting/_base.py": STAGEWISE + ["tests/test_estimator_validation.py"],
    "boosting/_masters.py": MASTERS,
    "boosting/corrective.py": MASTERS,
    "boosting/pool.py": ["tests/test_pool_methods.py", "tests/test_solver_tolerances.py"],
    "weak/pool.py": ["tests/test_weak_pool.py", "tests/test_pool_methods.py"],
    "boosting/brownboost.py": ["tests/test_brownboost.py"],
    "boosting/multiclass.py": ["tests/test_multiclass.py", "tests/test_multiclass_mh_gd.py"],
    "boosting/direct.py": DIRECT,
    "boosting/_direct_kernels.py": DIRECT,
    "weak/direct.py": ["tests/test_weak_direct.py"] + DIRECT,
    "boosting/dmcboost.py": DMC,
    "boosting/dmcboost_search.py": DMC,
    "boosting/_dmcboost_kernels.py": DMC,
    "weak/lda.py": ["tests/test_weak_lda.py"],
    "duality/_common.py": DUALITY,
    "duality/conjugates.py": DUALITY,
    "duality/entropy.py": DUALITY,
    "duality/pairs_adaboost.py": DUALITY,
    "duality/pairs_logit.py": DUALITY,
    "duality/pairs_lpboost.py": DUALITY,
    "duality/pairs_mcboost.py": DUALITY,
}

#: Operators left out, with the reason: a bitwise or shift operator put in place of an
#: arithmetic one on floats raises TypeError at once (a trivially killed mutant that costs a
#: whole test process); ``is``/``is not`` in place of a numeric comparison is not Python a
#: reviewer would write.
EXCLUDED_OPERATORS = [
    r"core/ReplaceBinaryOperator_\w+_(BitOr|BitAnd|BitXor|LShift|RShift)$",
    r"core/ReplaceComparisonOperator_\w+_(Is|IsNot)$",
]

#: seconds one test command may run before the mutant counts as killed (an endless loop)
TIMEOUT_S = 300


def module_key(module: str) -> str:
    return module.replace("/", "__").removesuffix(".py")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sync_tree() -> None:
    """Copy the unmutated sources and tests into the scratch tree."""
    TREE.mkdir(parents=True, exist_ok=True)
    for name in ("src", "tests"):
        shutil.rmtree(TREE / name, ignore_errors=True)
        shutil.copytree(
            ROOT / name,
            TREE / name,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"),
        )
    shutil.copy2(ROOT / "pyproject.toml", TREE / "pyproject.toml")
    data = TREE / "data"
    if not data.exists():
        data.symlink_to(ROOT / "data")


def uses_numba(module: str) -> bool:
    return "numba" in (ROOT / PACKAGE / module).read_text()


def write_config(module: str) -> Path:
    tests = [t for t in GROUPS[module] if (ROOT / t).exists()]
    mode = "fresh" if uses_numba(module) else "shared"
    command = f"bash {HERE / 'run_tests.sh'} {mode} " + " ".join(tests)
    excluded = ", ".join(f"'{e}'" for e in EXCLUDED_OPERATORS)
    config = BUILD / f"{module_key(module)}.toml"
    config.write_text(
        "[cosmic-ray]\n"
        f'module-path = "{PACKAGE}/{module}"\n'
        f"timeout = {TIMEOUT_S}.0\n"
        "excluded-modules = []\n"
        f'test-command = "{command}"\n\n'
        "[cosmic-ray.distributor]\n"
        'name = "local"\n\n'
        "[cosmic-ray.filters.operators-filter]\n"
        f"exclude-operators = [{excluded}]\n"
    )
    return config


def cosmic(*args: str) -> list[str]:
    return [str(Path(sys.executable).with_name("cosmic-ray")), *args]


def prepare(module: str) -> tuple[Path, Path]:
    config = write_config(module)
    session = BUILD / f"{module_key(module)}.sqlite"
    stamp = session.with_suffix(".sha256")
    digest = sha256(ROOT / PACKAGE / module)
    if not session.exists() or not stamp.exists() or stamp.read_text().strip() != digest:
        session.unlink(missing_ok=True)
        subprocess.run(cosmic("init", str(config), str(session)), cwd=TREE, check=True)
        subprocess.run(
            [str(Path(sys.executable).with_name("cr-filter-operators")), str(session), str(config)],
            cwd=TREE,
            check=True,
        )
        stamp.write_text(digest + "\n")
    return config, session


def rerun_survivors(session: Path) -> int:
    with sqlite3.connect(session) as db:
        cursor = db.execute(
            "DELETE FROM work_results WHERE worker_outcome = 'NORMAL' AND test_outcome = 'SURVIVED'"
        )
        return cursor.rowcount


def warm_shared_cache() -> None:
    """Fill the shared numba cache from the unmutated kernels (one quick fit)."""
    env = dict(
        os.environ, PYTHONPATH=str(TREE / "src"), NUMBA_CACHE_DIR=str(BUILD / "numba-shared")
    )
    code = (
        "import numpy as np; from marginboost.boosting import AdaBoost; "
        "X = np.random.default_rng(0).normal(size=(40, 3)); "
        "AdaBoost(n_estimators=3).fit(X, X[:, 0] > 0)"
    )
    subprocess.run([sys.executable, "-c", code], cwd=TREE, env=env, check=True)


def execute(config: Path, session: Path, deadline: float | None) -> bool:
    """Run the pending mutants; False when the deadline stopped the run."""
    proc = subprocess.Popen(
        cosmic("exec", str(config), str(session)), cwd=TREE, start_new_session=True
    )
    try:
        proc.wait(timeout=None if deadline is None else max(1.0, deadline - time.time()))
        return True
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        return False
    finally:
        sync_tree()  # an interrupted mutant must not stay in the scratch tree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--modules",
        nargs="*",
        default=None,
        help="modules relative to src/marginboost (default: all core modules)",
    )
    parser.add_argument("--budget-minutes", type=float, default=None)
    parser.add_argument("--rerun-survivors", action="store_true")
    parser.add_argument("--summary-only", action="store_true")
    args = parser.parse_args(argv)
    modules = args.modules or list(GROUPS)
    unknown = [m for m in modules if m not in GROUPS]
    if unknown:
        parser.error(f"not a core module: {unknown}; choose from {list(GROUPS)}")
    BUILD.mkdir(parents=True, exist_ok=True)
    os.environ["MUTATION_PYTHON"] = sys.executable
    if not args.summary_only:
        deadline = None if args.budget_minutes is None else time.time() + 60 * args.budget_minutes
        sync_tree()
        warm_shared_cache()
        for module in modules:
            config, session = prepare(module)
            if args.rerun_survivors:
                print(f"{module}: {rerun_survivors(session)} survivors to test again")
            print(f"== {module}", flush=True)
            if not execute(config, session, deadline):
                print("budget used up; rerun to continue", flush=True)
                break
    from summary import write_summary

    path = write_summary(BUILD, list(GROUPS), HERE / "equivalent.toml", HERE / "SUMMARY.md")
    print(f"summary: {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.exit(main())
