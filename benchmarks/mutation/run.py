"""Mutation testing of the core modules with cosmic-ray: ``make mutation``.

Each core module is one cosmic-ray session (``_build/mutation/<module>.sqlite``): cosmic-ray lists
the module's mutants and writes each mutated source.  A mutant is judged by the fast tests of its
module (``GROUPS`` below; ``pytest -x -m "not slow"``), run by ``pool.py`` in scratch copies of
``src/`` and ``tests/`` (one per worker, ``--jobs``), never in the working tree, so the
repository stays usable while a run is in progress and an interrupted run leaves nothing behind.

Left out of the score: the operators in ``EXCLUDED_OPERATORS`` (with the reason) and every
mutant inside a type annotation (never evaluated: each core module has
``from __future__ import annotations``).  There are about 23,000 other mutants, at 5-60 s each
on one core; ``--sample K`` tests a seeded random sample of K per module (the summary then gives
each score with its 95% interval, and a larger K with the same seed only adds mutants).

numba kernels are recompiled for every mutant of a module that contains them (a fresh, empty
``NUMBA_CACHE_DIR`` per test command).  Modules without kernels share one cache per worker.

Sessions are resumable: a rerun tests only the sampled mutants still pending, and a session is
rebuilt from scratch when its module's source changed (sha256 recorded beside the session).
``--rerun-survivors`` tests the survivors again (after new tests were added).
``--budget-minutes`` stops cleanly after that many minutes; the next run goes on where it
stopped.  On another machine: ``--plan-only PLAN.json.gz`` writes the sampled mutants,
``python benchmarks/mutation/pool.py PLAN.json.gz --jobs N --out RESULTS.jsonl`` tests them
there (standard library and the test suite's requirements only), and
``--import-results RESULTS.jsonl`` reads the outcomes back.  ``check.py JOB_ID TEST_FILE``
tells whether a new test kills a given mutant.

The summary, ``benchmarks/mutation/SUMMARY.md``, is rewritten from all sessions after every run.
Surviving mutants that cannot change any result are listed with their reason in
``benchmarks/mutation/equivalent.toml`` (matched on module, original line and mutated line) and
counted apart from the survivors.

Usage::

    python benchmarks/mutation/run.py [--modules boosting/_steps.py weak/binning.py]
                                      [--sample 15] [--seed 0] [--jobs 4]
                                      [--budget-minutes 60] [--rerun-survivors]
                                      [--plan-only PLAN] [--import-results RESULTS]
                                      [--summary-only]
"""

from __future__ import annotations

import argparse
import ast
import difflib
import gzip
import hashlib
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pool

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BUILD = ROOT / "_build" / "mutation"
FIRST_SURVIVORS = "first_survivors.json"  # in BUILD: see record_first_survivors
TREE = BUILD / "tree"
PACKAGE = "src/marginboost"

STAGEWISE = [
    "tests/test_steps.py",
    "tests/test_arcgv.py",
    "tests/test_stagewise.py",
    "tests/test_stagewise_reference.py",
    "tests/test_doom2_reference.py",
    "tests/test_public_contract.py",
]
MASTERS = [
    "tests/test_master_certificates.py",
    "tests/test_solver_tolerances.py",
    "tests/test_lpboost_master.py",
    "tests/test_corrective.py",
    "tests/test_mdboost.py",
    "tests/test_mcboost.py",
    "tests/test_mcboost_lasso.py",
    "tests/test_solver_guards.py",
    "tests/test_public_contract.py",
]
DIRECT = [
    "tests/test_directboost.py",
    "tests/test_direct_line_search.py",
    "tests/test_direct_figures.py",
    "tests/test_directboost_edges.py",
    "tests/test_directboost_reference.py",
]
DMC = [
    "tests/test_dmcboost.py",
    "tests/test_dmcboost_search.py",
    "tests/test_dmcboost_edges.py",
    "tests/test_dmcboost_phase2.py",
    "tests/test_dmcboost_reference.py",
]
DUALITY = [
    "tests/test_duality_pairs.py",
    "tests/test_duality_conjugates.py",
    "tests/test_duality_inputs.py",
    "tests/test_solver_guards.py",
    "tests/test_public_contract.py",
]
WEAK_EDGES = "tests/test_weak_learner_edges.py"
WEAK_TREE = ["tests/test_weak_trees.py", "tests/test_weak_raw_features.py", WEAK_EDGES]
LOSSES = ["tests/test_losses.py", "tests/test_duality_conjugates.py"]
BROWNBOOST = [
    "tests/test_brownboost.py",
    "tests/test_brownboost_steps.py",
    "tests/test_solver_guards.py",
    "tests/test_public_contract.py",
]
MULTICLASS = [
    "tests/test_multiclass.py",
    "tests/test_multiclass_mh_gd.py",
    "tests/test_public_contract.py",
]
TREE_KERNELS = [
    "tests/test_binning_cuts.py",
    "tests/test_weak_trees.py",
    "tests/test_weak_raw_features.py",
    "tests/test_fast_histograms.py",
    WEAK_EDGES,
]

#: module (relative to src/marginboost) -> the fast tests that exercise it, in the order
#: in which a run visits them (the most used code first).
GROUPS: dict[str, list[str]] = {
    "boosting/_steps.py": STAGEWISE,
    "weak/binning.py": ["tests/test_binning_cuts.py", "tests/test_weak_binning.py", WEAK_EDGES],
    "margins.py": ["tests/test_margins.py", "tests/test_public_contract.py"],
    "boosting/_engine.py": STAGEWISE,
    "weak/_input_kernels.py": TREE_KERNELS,
    "weak/_histogram_kernels.py": TREE_KERNELS,
    "weak/_search_histogram_kernels.py": TREE_KERNELS,
    "weak/_split_kernels.py": TREE_KERNELS,
    "weak/_apply_kernels.py": TREE_KERNELS,
    "weak/tree.py": WEAK_TREE,
    "weak/_tree_fitting.py": WEAK_TREE,
    "losses/base.py": LOSSES,
    "losses/convex.py": LOSSES,
    "losses/nonconvex.py": LOSSES,
    "losses/registry.py": LOSSES,
    "boosting/stagewise.py": STAGEWISE,  # anyboost_members(); the members are in the modules below
    "boosting/_stagewise_common.py": STAGEWISE,
    "boosting/anyboost.py": STAGEWISE,
    "boosting/adaboost.py": STAGEWISE,
    "boosting/arcing.py": STAGEWISE,
    "boosting/least_squares.py": STAGEWISE,
    "boosting/doom.py": STAGEWISE,
    "boosting/_base.py": STAGEWISE + ["tests/test_estimator_validation.py"],
    "boosting/_master_solution.py": MASTERS,
    "boosting/_master_lp.py": MASTERS,
    "boosting/_master_smooth.py": MASTERS,
    "boosting/_master_entropy.py": MASTERS,
    "boosting/_master_quadratic.py": MASTERS,
    "boosting/column_generation.py": MASTERS,
    "boosting/lpboost.py": MASTERS,
    "boosting/adaboost_cg.py": MASTERS,
    "boosting/margin_distribution.py": MASTERS,
    "boosting/fixed_pool.py": [
        "tests/test_pool_methods.py",
        "tests/test_solver_tolerances.py",
        "tests/test_public_contract.py",
    ],
    "weak/pool.py": ["tests/test_weak_pool.py", "tests/test_pool_methods.py", WEAK_EDGES],
    "boosting/brownboost.py": BROWNBOOST,
    "boosting/_brownboost_solver.py": BROWNBOOST,
    "boosting/_multiclass_base.py": MULTICLASS,
    "boosting/samme.py": MULTICLASS,
    "boosting/adaboost_mh.py": MULTICLASS,
    "boosting/gdmcboost.py": MULTICLASS,
    "boosting/directboost/estimator.py": DIRECT,
    "boosting/directboost/line_search.py": DIRECT,
    "boosting/directboost/objectives.py": DIRECT,
    "boosting/directboost/_phase1_kernels.py": DIRECT,
    "boosting/directboost/_phase2_kernels.py": DIRECT,
    "boosting/_direct_common.py": DIRECT + DMC,
    "boosting/_segment_tree.py": DIRECT + DMC,
    "weak/direct.py": ["tests/test_weak_direct.py", WEAK_EDGES] + DIRECT,
    "boosting/dmcboost/estimator.py": DMC,
    "boosting/dmcboost/objectives.py": DMC,
    "boosting/dmcboost/search.py": DMC,
    "boosting/dmcboost/checkpoint.py": DMC,
    "boosting/dmcboost/_phase1_kernels.py": DMC,
    "boosting/dmcboost/_phase1_split_kernels.py": DMC,
    "boosting/dmcboost/_phase2_kernels.py": DMC,
    "weak/lda.py": ["tests/test_weak_lda.py", WEAK_EDGES],
    "duality/_common.py": DUALITY,
    "duality/conjugates.py": DUALITY,
    "duality/entropy.py": DUALITY,
    "duality/pairs_adaboost_problems.py": DUALITY,
    "duality/pairs_adaboost_verify.py": DUALITY,
    "duality/pairs_logit.py": DUALITY,
    "duality/pairs_lpboost_problems.py": DUALITY,
    "duality/pairs_lpboost_verify.py": DUALITY,
    "duality/pairs_mcboost.py": DUALITY,
}

# The contract tests (documented defaults, input checks, error messages) concern every module.
for _tests in GROUPS.values():
    if "tests/test_public_contract.py" not in _tests:
        _tests.append("tests/test_public_contract.py")

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
    """Copy the unmutated sources and tests into the scratch tree (where cosmic-ray reads them)."""
    pool.make_tree(TREE)


def uses_numba(module: str) -> bool:
    return "numba" in (ROOT / PACKAGE / module).read_text()


def write_config(module: str) -> Path:
    """The cosmic-ray configuration of one module (used to list and filter its mutants)."""
    excluded = ", ".join(f"'{e}'" for e in EXCLUDED_OPERATORS)
    config = BUILD / f"{module_key(module)}.toml"
    config.write_text(
        "[cosmic-ray]\n"
        f'module-path = "{PACKAGE}/{module}"\n'
        f"timeout = {TIMEOUT_S}.0\n"
        "excluded-modules = []\n"
        'test-command = "false"\n\n'
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


def rerun_survivors(session: Path, results: Path, module: str) -> int:
    """Make a session's survivors pending again (also in the pool's results file).

    Survivors listed in ``equivalent.toml`` stay as they are: no test can kill them.
    """
    from summary import _changed_lines, load_equivalents

    equivalents = load_equivalents(HERE / "equivalent.toml")
    where = "WHERE worker_outcome = 'NORMAL' AND test_outcome = 'SURVIVED'"
    with sqlite3.connect(session) as db:
        rows = db.execute(f"SELECT job_id, diff FROM work_results {where}").fetchall()
        jobs = {
            job for job, diff in rows if (module, *_changed_lines(diff or "")) not in equivalents
        }
        record_first_survivors(jobs)
        db.executemany("DELETE FROM work_results WHERE job_id = ?", [(job,) for job in jobs])
    if jobs and results.exists():
        kept = [
            line
            for line in results.read_text().splitlines()
            if not any(f'"job_id": "{job}"' in line for job in jobs)
        ]
        results.write_text("".join(line + "\n" for line in kept))
    return len(jobs)


def record_first_survivors(jobs: set[str]) -> None:
    """Keep, before they are tested again, the ids of mutants whose first test survived: the
    held-out score counts a mutant by its first outcome (see ``summary.write_summary``)."""
    path = BUILD / FIRST_SURVIVORS
    known = set(json.loads(path.read_text())) if path.exists() else set()
    path.write_text(json.dumps(sorted(known | jobs), indent=0) + "\n")


def population(session: Path) -> list[str]:
    """Job ids of a session's mutants, less those its operator filter left out."""
    with sqlite3.connect(session) as db:
        rows = db.execute(
            "SELECT w.job_id FROM work_items w LEFT JOIN work_results r ON r.job_id = w.job_id "
            "WHERE r.worker_outcome IS NULL OR r.worker_outcome != 'SKIPPED'"
        ).fetchall()
    return sorted(job for (job,) in rows)


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(start, end) positions of every annotation in ``source``."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        annotations = []
        if isinstance(node, ast.arg | ast.AnnAssign):
            annotations.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            annotations.append(node.returns)
        for a in annotations:
            if a is not None and a.end_lineno is not None and a.end_col_offset is not None:
                spans.append(((a.lineno, a.col_offset), (a.end_lineno, a.end_col_offset)))
    return spans


def in_annotations(module: str, session: Path) -> set[str]:
    """Job ids of the mutants inside type annotations.

    Every core module starts with ``from __future__ import annotations`` (checked here), so its
    annotations are never evaluated: a mutant there cannot change any result, and it is left out
    of the score like the excluded operators.
    """
    source = (ROOT / PACKAGE / module).read_text()
    if "from __future__ import annotations" not in source:
        return set()
    spans = annotation_spans(source)
    with sqlite3.connect(session) as db:
        rows = db.execute(
            "SELECT job_id, start_pos_row, start_pos_col FROM mutation_specs"
        ).fetchall()
    return {job for job, row, col in rows if any(lo <= (row, col) < hi for lo, hi in spans)}


def sample(module: str, jobs: list[str], size: int | None, seed: int) -> list[str]:
    """A seeded random sample of ``size`` job ids (all of them when ``size`` is None).

    The order is a seeded shuffle of the sorted ids, so a larger sample with the same seed
    contains the smaller one: growing ``--sample`` only adds mutants.
    """
    if size is None or size >= len(jobs):
        return list(jobs)
    order = list(jobs)
    random.Random(f"{seed}/{module}").shuffle(order)
    return order[:size]


def plan_module(module: str, session: Path, chosen: set[str]) -> list[dict]:
    """The pending chosen mutants of a module, with their mutated source."""
    from cosmic_ray.mutating import mutate_code
    from cosmic_ray.plugins import get_operator
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    original = (ROOT / PACKAGE / module).read_text()
    skip = in_annotations(module, session)
    mutants = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in db.pending_work_items:
            if item.job_id not in chosen or item.job_id in skip:
                continue
            (spec,) = item.mutations
            operator = get_operator(spec.operator_name)(**(spec.operator_args or {}))
            code = mutate_code(original, operator, spec.occurrence)
            if code is None:
                db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.NO_TEST))
                continue
            mutants.append(
                {
                    "job_id": item.job_id,
                    "module": module,
                    "code": code,
                    "group": module,
                    "fresh_cache": uses_numba(module),
                }
            )
    return mutants


def diff(module: str, before: str, after: str) -> str:
    name = f"{PACKAGE}/{module}"
    lines = difflib.unified_diff(
        before.splitlines(), after.splitlines(), f"a/{name}", f"b/{name}", lineterm=""
    )
    return "\n".join(lines)


def import_results(plan: dict, results: Path) -> int:
    """Write the outcomes in ``results`` into the sessions; the number written."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    by_id = {m["job_id"]: m for m in plan["mutants"]}
    outcomes = {}
    for line in results.read_text().splitlines() if results.exists() else []:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record["job_id"] in by_id:
            outcomes[record["job_id"]] = record
    written = 0
    for module in sorted({m["module"] for m in plan["mutants"]}):
        session = BUILD / f"{module_key(module)}.sqlite"
        original = (ROOT / PACKAGE / module).read_text()
        with use_db(str(session), WorkDB.Mode.open) as db:
            pending = {item.job_id for item in db.pending_work_items}
            for job_id, record in outcomes.items():
                mutant = by_id[job_id]
                if mutant["module"] != module or job_id not in pending:
                    continue
                killed = record["outcome"] in ("killed", "timeout")
                db.set_result(
                    job_id,
                    WorkResult(
                        worker_outcome=WorkerOutcome.NORMAL,
                        test_outcome=TestOutcome.KILLED if killed else TestOutcome.SURVIVED,
                        output=f"{record['outcome']} in {record['seconds']} s\n{record['output']}",
                        diff=diff(module, original, mutant["code"]),
                    ),
                )
                written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--modules",
        nargs="*",
        default=None,
        help="modules relative to src/marginboost (default: all core modules)",
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=None,
        help="test a seeded random sample of this many mutants per module (default: all)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    parser.add_argument(
        "--guided",
        type=int,
        default=None,
        help="the sample size whose survivors new tests were written for: the summary scores "
        "the rest of the sample apart, as held-out mutants (kept from the last run if omitted)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested at once (default 1)")
    parser.add_argument("--budget-minutes", type=float, default=None)
    parser.add_argument("--rerun-survivors", action="store_true")
    parser.add_argument("--summary-only", action="store_true")
    parser.add_argument(
        "--plan-only",
        type=Path,
        default=None,
        help="write the plan (mutated sources) to this file for pool.py and stop",
    )
    parser.add_argument(
        "--import-results",
        type=Path,
        default=None,
        help="read pool.py's results of the plan in _build/mutation/plan.json into the sessions",
    )
    args = parser.parse_args(argv)
    modules = args.modules or list(GROUPS)
    unknown = [m for m in modules if m not in GROUPS]
    if unknown:
        parser.error(f"not a core module: {unknown}; choose from {list(GROUPS)}")
    BUILD.mkdir(parents=True, exist_ok=True)
    plan_file = BUILD / "plan.json"
    if args.import_results is not None:
        plan = json.loads(plan_file.read_text())
        print(f"{import_results(plan, args.import_results)} results read into the sessions")
    elif not args.summary_only:
        sync_tree()
        plan = {"tests": {}, "mutants": []}
        for module in modules:
            _, session = prepare(module)
            if args.rerun_survivors:
                again = rerun_survivors(session, BUILD / "results.jsonl", module)
                print(f"{module}: {again} survivors to test again")
            chosen = set(sample(module, population(session), args.sample, args.seed))
            plan["mutants"] += plan_module(module, session, chosen)
            plan["tests"][module] = [t for t in GROUPS[module] if (ROOT / t).exists()]
        if plan_file.exists():  # keep the planned mutants of the modules not visited now
            earlier = json.loads(plan_file.read_text())
            kept = [m for m in earlier["mutants"] if m["module"] not in modules]
            plan = {
                "tests": {**earlier["tests"], **plan["tests"]},
                "mutants": kept + plan["mutants"],
            }
        plan_file.write_text(json.dumps(plan))
        meta = BUILD / "sample.json"
        guided = args.guided
        if guided is None and meta.exists():
            guided = json.loads(meta.read_text()).get("guided")
        meta.write_text(json.dumps({"sample": args.sample, "seed": args.seed, "guided": guided}))
        mine = [m for m in plan["mutants"] if m["module"] in modules]
        print(f"{len(mine)} mutants to test", flush=True)
        if args.plan_only is not None:
            opener = gzip.open if args.plan_only.suffix == ".gz" else open
            with opener(args.plan_only, "wt") as handle:
                json.dump({"tests": plan["tests"], "mutants": mine}, handle)
            print(f"plan written to {args.plan_only}; run pool.py on it, then --import-results")
            return 0
        results = BUILD / "results.jsonl"
        todo = {
            "tests": plan["tests"],
            "mutants": [m for m in plan["mutants"] if m["module"] in modules],
        }
        counts = pool.run_plan(todo, results, args.jobs, BUILD / "workers", args.budget_minutes)
        print("this run:", ", ".join(f"{k} {v}" for k, v in counts.items()), flush=True)
        print(f"{import_results(plan, results)} results read into the sessions")
    from summary import write_summary

    meta = BUILD / "sample.json"
    sampling = json.loads(meta.read_text()) if meta.exists() else {"sample": None, "seed": 0}
    if args.summary_only and args.guided is not None:
        sampling["guided"] = args.guided
        meta.write_text(json.dumps(sampling))
    chosen, guided, annotations = {}, {}, {}
    for module in GROUPS:
        session = BUILD / f"{module_key(module)}.sqlite"
        if session.exists():
            jobs = population(session)
            chosen[module] = set(sample(module, jobs, sampling["sample"], sampling["seed"]))
            if sampling.get("guided") is not None:
                guided[module] = set(sample(module, jobs, sampling["guided"], sampling["seed"]))
            annotations[module] = in_annotations(module, session)
    path = write_summary(
        BUILD,
        list(GROUPS),
        HERE / "equivalent.toml",
        HERE / "SUMMARY.md",
        chosen,
        sampling,
        annotations,
        guided,
    )
    print(f"summary: {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
