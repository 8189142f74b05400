"""Test prepared mutants in parallel, each worker in its own copy of the tree.

This file needs the standard library only (no cosmic-ray), so a plan written by
``run.py --plan-only`` can be tested on any machine that can run the test suite::

    python benchmarks/mutation/pool.py PLAN.json[.gz] --jobs 8 --out RESULTS.jsonl [--budget-minutes 30]

``PLAN.json`` (written by ``run.py``) holds the test files of each group and, per mutant, its
cosmic-ray job id, the module (relative to ``src/marginboost``), the mutated source and the
group of tests that judges it.  Each result is appended to ``RESULTS.jsonl`` as soon as its
tests end, so an interrupted run loses no finished mutant, and a rerun skips the job ids
already there.  ``run.py`` reads the results back into its cosmic-ray sessions.

Before any mutant, the unmutated tests of every group in the plan must pass in the worker
trees; a group whose baseline fails is not run (every mutant would count as killed).

A mutant is **killed** when its tests fail (or exceed the timeout: three times the group's
baseline time plus a minute), and **survives** when they pass.  Each test process is
single-threaded (numba, BLAS, OpenMP), so that workers do not compete for cores, with
``PYTHONDONTWRITEBYTECODE`` set (a mutant of the same size as the original, written in the same
second, would otherwise be read from a stale ``.pyc``).  Modules with numba kernels get a fresh
``NUMBA_CACHE_DIR`` per mutant; the others share one cache per worker tree, filled from the
unmutated kernels.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path("src") / "marginboost"
SINGLE_THREAD = {
    "NUMBA_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def make_tree(tree: Path) -> None:
    """A fresh copy of the unmutated sources and tests under ``tree``."""
    tree.mkdir(parents=True, exist_ok=True)
    for name in ("src", "tests"):
        shutil.rmtree(tree / name, ignore_errors=True)
        shutil.copytree(
            ROOT / name,
            tree / name,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"),
        )
    shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
    data = tree / "data"
    if not data.exists():
        data.symlink_to(ROOT / "data")


def tree_env(tree: Path) -> dict[str, str]:
    """The environment in which ``tree``'s own sources are imported first."""
    path = os.pathsep.join(
        filter(None, [str(tree.resolve() / "src"), os.environ.get("PYTHONPATH")])
    )
    return dict(os.environ, PYTHONPATH=path, PYTHONDONTWRITEBYTECODE="1", **SINGLE_THREAD)


def check_imports_from(tree: Path) -> None:
    """Fail unless the tests in ``tree`` import the package from ``tree`` (where mutants go).

    An installed copy found first (an editable install, a relative ``PYTHONPATH``) would make
    every mutant survive.
    """
    code = "import marginboost; print(marginboost.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, env=tree_env(tree), capture_output=True, text=True
    )
    found = Path(out.stdout.strip() or ".").resolve()
    if not found.is_relative_to(tree.resolve()):
        raise SystemExit(f"the tests in {tree} import marginboost from {found}, not from the tree")


def run_tests(
    tree: Path, tests: list[str], fresh_cache: bool, timeout: float
) -> tuple[str, float, str]:
    """Run ``tests`` in ``tree``: (outcome, seconds, last lines of output)."""
    env = tree_env(tree)
    cache = tempfile.mkdtemp(prefix="numba-") if fresh_cache else None
    env["NUMBA_CACHE_DIR"] = cache or str(tree / "numba-shared")
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    command += ["-m", "not slow", *tests]
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            command, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout
        )
        outcome = "survived" if proc.returncode == 0 else "killed"
        output = (proc.stdout + proc.stderr)[-2000:]
    except subprocess.TimeoutExpired:
        outcome, output = "timeout", f"tests ran past {timeout:.0f} s"
    finally:
        if cache is not None:
            shutil.rmtree(cache, ignore_errors=True)
    return outcome, time.perf_counter() - start, output


def done_ids(out: Path) -> set[str]:
    if not out.exists():
        return set()
    ids = set()
    for line in out.read_text().splitlines():
        try:
            ids.add(json.loads(line)["job_id"])
        except (json.JSONDecodeError, KeyError):
            continue  # a line cut short by an interruption
    return ids


def run_plan(
    plan: dict, out: Path, jobs: int, work: Path, budget_minutes: float | None = None
) -> dict[str, int]:
    """Test the plan's mutants not yet in ``out``; counts of this run's outcomes."""
    deadline = None if budget_minutes is None else time.time() + 60 * budget_minutes
    finished = done_ids(out)
    mutants = [m for m in plan["mutants"] if m["job_id"] not in finished]
    todo = len(mutants)
    counts = {"killed": 0, "survived": 0, "timeout": 0, "not run": 0}
    if not mutants:
        return counts
    jobs = max(1, min(jobs, len(mutants)))
    trees: queue.Queue[Path] = queue.Queue()
    for i in range(jobs):
        tree = (work / f"tree-{i}").resolve()
        make_tree(tree)
        check_imports_from(tree)
        trees.put(tree)

    groups = sorted({m["group"] for m in mutants})
    suites = sorted({tuple(plan["tests"][g]) for g in groups})
    print(f"baseline of {len(suites)} test suites on {jobs} workers", flush=True)

    def base(tests: tuple[str, ...]) -> tuple[tuple[str, ...], str, float, str]:
        tree = trees.get()
        try:
            outcome, seconds, output = run_tests(tree, list(tests), False, 1800)
            return tests, outcome, seconds, output
        finally:
            trees.put(tree)

    passed: dict[tuple[str, ...], float] = {}
    with ThreadPoolExecutor(jobs) as pool:
        for tests, outcome, seconds, output in pool.map(base, suites):
            if outcome == "survived":
                passed[tests] = seconds
            else:
                print(
                    f"baseline of {' '.join(tests)} fails; its mutants are not run:\n{output}",
                    flush=True,
                )
    baseline = {
        g: passed[tuple(plan["tests"][g])] for g in groups if tuple(plan["tests"][g]) in passed
    }
    mutants = [m for m in mutants if m["group"] in baseline]
    counts["not run"] = todo - len(mutants)
    lock = threading.Lock()

    def test(mutant: dict) -> None:
        if deadline is not None and time.time() > deadline:
            return
        tree = trees.get()
        path = tree / PACKAGE / mutant["module"]
        original = path.read_text()
        try:
            path.write_text(mutant["code"])
            timeout = 3 * baseline[mutant["group"]] + 60
            if deadline is not None:
                timeout = min(timeout, max(1.0, deadline - time.time()))
            outcome, seconds, output = run_tests(
                tree, plan["tests"][mutant["group"]], mutant["fresh_cache"], timeout
            )
        finally:
            path.write_text(original)
            trees.put(tree)
        if outcome == "timeout" and deadline is not None and time.time() >= deadline - 1:
            return  # stopped by the budget, not by the mutant: stays pending
        record = {
            "job_id": mutant["job_id"],
            "outcome": outcome,
            "seconds": round(seconds, 2),
            "output": output,
        }
        with lock:
            with out.open("a") as handle:
                handle.write(json.dumps(record) + "\n")
            counts[outcome] += 1
            total = counts["killed"] + counts["survived"] + counts["timeout"]
            print(
                f"[{total}/{len(mutants)}] {mutant['module']} {mutant['job_id'][:8]} {outcome} {seconds:.0f} s",
                flush=True,
            )

    with ThreadPoolExecutor(jobs) as pool:
        pending = {pool.submit(test, m) for m in mutants}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                future.result()
    left = len(mutants) - counts["killed"] - counts["survived"] - counts["timeout"]
    counts["not run"] += left
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("plan", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--budget-minutes", type=float, default=None)
    parser.add_argument("--work", type=Path, default=None, help="where the worker trees go")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="mutation-"))
    opener = gzip.open if args.plan.suffix == ".gz" else open
    with opener(args.plan, "rt") as handle:
        plan = json.load(handle)
    counts = run_plan(plan, args.out, args.jobs, work, args.budget_minutes)
    print("this run:", ", ".join(f"{k} {v}" for k, v in counts.items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
