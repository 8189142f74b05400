"""Show one mutant of the last plan and test it: does a new test kill it?

    python benchmarks/mutation/check.py JOB_ID [TEST ...]

``JOB_ID`` is a cosmic-ray job id (or a unique prefix) from ``_build/mutation/plan.json``,
the plan of the last ``make mutation``, or of any mutant in the modules' sessions (the job ids
``SUMMARY.md``'s survivors come from; their mutated source is rebuilt from the session).  The mutant's diff is printed; then the given tests
(default: the module's group in ``run.py``) run against it in a scratch copy of the tree, and
the outcome is printed: ``killed`` or ``survived``.  Use it to confirm that a test written for
a survivor fails on the mutant (and passes on the unmutated code, which ``make test`` checks).
"""

from __future__ import annotations

import difflib
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import pool  # noqa: E402

PLAN = HERE.parents[1] / "_build" / "mutation" / "plan.json"


def from_sessions(prefix: str) -> list[dict]:
    """Mutants whose job id starts with ``prefix`` in any module's session, with their code."""
    import run
    from cosmic_ray.mutating import mutate_code
    from cosmic_ray.plugins import get_operator
    from cosmic_ray.work_db import WorkDB, use_db

    found = []
    for module in run.GROUPS:
        session = run.BUILD / f"{run.module_key(module)}.sqlite"
        if not session.exists():
            continue
        original = (run.ROOT / run.PACKAGE / module).read_text()
        with use_db(str(session), WorkDB.Mode.open) as db:
            for item in db.work_items:
                if not item.job_id.startswith(prefix):
                    continue
                (spec,) = item.mutations
                operator = get_operator(spec.operator_name)(**(spec.operator_args or {}))
                code = mutate_code(original, operator, spec.occurrence)
                if code is not None:
                    found.append(
                        {
                            "job_id": item.job_id,
                            "module": module,
                            "code": code,
                            "group": module,
                            "fresh_cache": run.uses_numba(module),
                        }
                    )
    return found


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    plan = json.loads(PLAN.read_text())
    found = [m for m in plan["mutants"] if m["job_id"].startswith(argv[0])]
    if not found:
        found = from_sessions(argv[0])
    if len(found) != 1:
        print(f"{len(found)} mutants match {argv[0]!r} in {PLAN} and the sessions")
        return 2
    (mutant,) = found
    original = (pool.ROOT / pool.PACKAGE / mutant["module"]).read_text()
    diff = difflib.unified_diff(
        original.splitlines(),
        mutant["code"].splitlines(),
        mutant["module"],
        mutant["module"],
        lineterm="",
    )
    print("\n".join(diff))
    tests = argv[1:] or plan["tests"][mutant["group"]]
    with tempfile.TemporaryDirectory(prefix="mutant-") as work:
        tree = Path(work) / "tree"
        pool.make_tree(tree)
        pool.check_imports_from(tree)
        (tree / pool.PACKAGE / mutant["module"]).write_text(mutant["code"])
        outcome, seconds, output = pool.run_tests(tree, tests, mutant["fresh_cache"], 1800)
    print(output[-1500:])
    print(f"{mutant['job_id']}: {outcome} by {' '.join(tests)} in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
