"""Command-line interface: ``marginboost data|reproduce|scoreboard|book``.

Examples
--------
::

    marginboost data list
    marginboost data verify
    marginboost data fetch sonar
    marginboost reproduce shen_li figure2 --profile full
    marginboost results update --dry-run
    marginboost scoreboard --output book/scoreboard.md
    marginboost book --profile quick
    marginboost bench adaboost
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ._cli_parser import build_parser

__all__ = ["main", "build_parser"]


def _cmd_data_list(args: argparse.Namespace) -> int:
    from .data import format_registry_table

    print(format_registry_table())
    return 0


def _cmd_data_verify(args: argparse.Namespace) -> int:
    from .data import verify_report

    code, text = verify_report(mirror=args.mirror)
    print(text)
    return code


def _cmd_data_fetch(args: argparse.Namespace) -> int:
    from .data.fetch import fetch

    paths = fetch(args.names, mirror=args.mirror)
    print(f"{len(paths)} files present and verified")
    return 0


def _cmd_reproduce(args: argparse.Namespace) -> int:
    from ._paths import require_project_root
    from ._repo import notebooks
    from .experiments.update import describe_key_number_change
    from .reporting import key_numbers_path, load_key_numbers

    root = require_project_root()
    chosen = notebooks.find_notebooks(args.paper, args.item, root)
    params = {"jobs": args.jobs, "scheduler": args.scheduler}
    out_dir = notebooks.executed_dir(args.profile, root)
    if args.protocol != "book":
        chosen = _paper_protocol_notebooks(args, chosen)
        params["protocol"] = args.protocol
        out_dir = out_dir / f"protocol-{args.protocol}"
    changed = False
    for nb in chosen:
        run = notebooks.run_notebook(
            nb, out_dir / f"{nb.name}.ipynb", profile=args.profile, parameters=params
        )
        print(run.line(), flush=True)
        print(f"  executed notebook: {run.output.relative_to(root)}")
        if args.protocol != "book":  # these notebooks save no key numbers (see --protocol)
            continue
        numbers = key_numbers_path(nb.paper, nb.item, args.profile)
        if numbers.exists():
            committed = key_numbers_path(
                nb.paper, nb.item, args.profile, root=root / "data" / "results"
            )
            if committed.exists():
                change = describe_key_number_change(
                    load_key_numbers(committed), load_key_numbers(numbers)
                )
                verdict = "same as the committed ones" if change is None else change
            else:
                change, verdict = "new", "not committed yet"
            changed |= change is not None
            print(f"  key numbers: {numbers} ({verdict})")
    if changed:
        print("to record these results as the committed ones: marginboost results update")
    return 0


#: The notebooks that take ``--protocol paper``: DMCBoost's Tables 2-4, whose ``full`` profile
#: reduces the paper's protocol on some data sets.
PAPER_PROTOCOL_NOTEBOOKS = ("dmcboost-table2", "dmcboost-table3", "dmcboost-table4")


def _paper_protocol_notebooks(args: argparse.Namespace, chosen: list) -> list:
    """The notebooks of ``chosen`` that run ``--protocol paper``, or a clear error."""
    if args.profile != "full":
        raise ValueError(f"--protocol {args.protocol} needs --profile full")
    kept = [nb for nb in chosen if nb.name in PAPER_PROTOCOL_NOTEBOOKS]
    if not kept:
        raise ValueError(
            f"--protocol {args.protocol} applies to {', '.join(PAPER_PROTOCOL_NOTEBOOKS)} only "
            f"(the notebooks whose full profile it lifts the reductions of)"
        )
    return kept


def _cmd_cells(args: argparse.Namespace) -> int:
    from .experiments.grids import paper_store, run_paper_grid
    from .experiments.store import cell_key
    from .papers.dmcboost import protocol
    from .papers.dmcboost.cell import grid_cell
    from .papers.dmcboost.cost import estimate_missing

    if args.paper != "dmcboost":
        raise ValueError(
            f"only dmcboost has a paper's protocol beyond the book's full profile, not "
            f"{args.paper!r} (its notebooks run with `marginboost reproduce {args.paper}`)"
        )
    store = paper_store("dmcboost", "full")
    chosen = protocol.select_paper_cells(args.tables, args.dataset, args.method)
    missing = [c for c in chosen if not store.has(c)]
    print(
        f"{len(chosen)} cells of the paper's protocol chosen, {len(chosen) - len(missing)} "
        f"in the store, {len(missing)} to compute"
    )
    if missing:
        cost = estimate_missing(store, missing)
        print(cost.rename(columns={"cpu_h": "estimated CPU h"}).round(2).to_string(index=False))
        print(
            f"about {cost['cpu_h'].sum():.1f} CPU hours in all (an estimate from the cells "
            f"computed), {int(cost['unestimated'].sum())} cells without an estimate"
        )
    if not args.dry_run and missing:
        run_paper_grid(
            "dmcboost",
            grid_cell,
            missing,
            jobs=args.jobs,
            scheduler=args.scheduler,
            desc="dmcboost paper-protocol cells",
        )
    # the reruns with a raised cap (Table 4's first: claim C3), found from the stored cells, so
    # after those ran; a cell shared by two tables is rerun once
    raised: list[tuple[dict, dict]] = []
    if not args.method or "DMCBoost" in args.method:
        seen: set[str] = set()
        for table in protocol.RAISED_TABLES:
            if args.tables and table not in args.tables:
                continue
            pairs = [
                (capped, rerun)
                for capped, rerun in protocol.capped_and_raised("full", "paper", (table,))
                if not args.dataset or capped["paper_dataset"] in args.dataset
            ]
            if not pairs:
                continue
            done = sum(store.has(rerun) for _, rerun in pairs)
            bound = protocol.raised_reruns_bound_cpu_h(store, pairs)
            print(
                f"{len(pairs)} Table {table[-1]} DMCBoost cells chose an n' whose run ended on "
                f"the safety cap, each rerun with a cap {protocol.CAP_RAISE} times larger: "
                f"{done} in the store, {len(pairs) - done} to compute (at most about "
                f"{bound:.1f} CPU hours: {protocol.CAP_RAISE} times the capped cells' own)"
            )
            for capped, rerun in pairs:
                if cell_key(rerun) not in seen:
                    seen.add(cell_key(rerun))
                    raised.append((capped, rerun))
    raised_missing = [(c, r) for c, r in raised if not store.has(r)]
    if args.dry_run or not (missing or raised_missing):
        return 0
    if raised_missing:
        run_paper_grid(
            "dmcboost",
            grid_cell,
            [r for _, r in raised_missing],
            jobs=args.jobs,
            scheduler=args.scheduler,
            desc="dmcboost reruns with a raised cap",
        )
    print(
        f"computed {len(missing) + len(raised_missing)} cells into {store.path}; "
        "`marginboost results update dmcboost --profile full` records them with the "
        "committed results"
    )
    return 0


def _cmd_results_update(args: argparse.Namespace) -> int:
    from .experiments.update import update_results
    from .papers import PAPERS

    if args.paper is not None and args.paper not in PAPERS:
        raise ValueError(
            f"unknown paper {args.paper!r}; the reproduced papers: {', '.join(PAPERS)}"
        )
    report = update_results(
        paper=args.paper, profile=args.profile, dry_run=args.dry_run, exact=args.exact
    )
    print("\n".join(report.lines))
    return 0


def _write_if_changed(root: Path, name: str, text: str) -> None:
    """Write ``root / name`` when its text differs, and say whether it changed."""
    path = root / name
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)
        print(f"changed  {name}")
    else:
        print(f"same     {name}")


def _cmd_scoreboard(args: argparse.Namespace) -> int:
    from .experiments import scoreboard, scoreboard_markdown
    from .experiments.scoreboard import generated_scoreboard_files

    if args.update:
        from ._paths import require_project_root

        root = require_project_root()
        if not args.no_tests:
            from ._repo.unit_checks import record_unit_checks
            from .experiments.predicates import UNIT_CHECKS

            text, outcomes = record_unit_checks(root)
            passed = sum(o == "passed" for o in outcomes.values())
            print(f"ran the {len(outcomes)} tests the claims name: {passed} passed")
            for test, outcome in sorted(outcomes.items()):
                if outcome != "passed":
                    print(f"  {outcome}: {test}")
            _write_if_changed(root, UNIT_CHECKS, text)
        for name, text in generated_scoreboard_files(root).items():
            _write_if_changed(root, name, text)
        return 0
    if args.output:
        Path(args.output).write_text(scoreboard_markdown())
        print(f"wrote {args.output}")
    else:
        table = scoreboard().drop(columns=["numbers", "decided_by"])
        print(table.to_string(index=False, max_colwidth=60))
    return 0


def _cmd_book(args: argparse.Namespace) -> int:
    import os

    from ._repo.notebooks import build_book

    jobs = args.jobs if args.jobs is not None else max(1, min(os.cpu_count() or 1, 8))
    index = build_book(
        profile=args.profile,
        warnings_as_errors=args.strict,
        execute=not args.no_execute,
        jobs=jobs,
    )
    print(f"\nThe book is at {index}")
    return 0


def _cmd_compile(args: argparse.Namespace) -> int:
    import os
    import time

    from ._numba_cache import compile_kernels, kernels_cached

    start = time.perf_counter()
    was_cached = kernels_cached()
    seconds = compile_kernels()
    where = os.environ.get("NUMBA_CACHE_DIR") or "the __pycache__ folders beside the sources"
    print(
        f"{len(seconds)} estimators fitted in {time.perf_counter() - start:.0f} s "
        f"({'the cache was already filled' if was_cached else 'kernels compiled'}); "
        f"cache: {where}"
    )
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    import subprocess

    from ._paths import require_project_root
    from ._repo.performance import (
        performance_page_markdown,
        write_lpboost_convergence_figure,
        write_scaling_figure,
    )

    root = require_project_root()
    scripts = {p.stem.removeprefix("bench_"): p for p in (root / "benchmarks").glob("bench_*.py")}
    names = [args.name] if args.name else sorted(scripts)
    unknown = [n for n in names if n not in scripts]
    if unknown:
        raise ValueError(
            f"unknown benchmark {unknown[0]!r}; benchmarks: {', '.join(sorted(scripts))}"
        )
    output_dir = Path(args.output_dir).resolve() if args.output_dir else None
    if output_dir is not None:
        output_dir.mkdir(parents=True, exist_ok=True)
    for name in names:
        cmd = [sys.executable, str(scripts[name])] + (["--quick"] if args.quick else [])
        if output_dir is not None:
            cmd += ["--output", str(output_dir / f"{name}.json")]
        subprocess.run(cmd, check=True, cwd=root)
    if output_dir is not None:
        print(f"results in {output_dir} (benchmarks/results and the performance page unchanged)")
        return 0
    figure = write_scaling_figure(root)
    write_lpboost_convergence_figure(root)
    page = root / "book" / "performance.md"
    page.write_text(performance_page_markdown(root))
    print(f"wrote {page}" + (f" and {figure}" if figure else ""))
    return 0


def _cmd_notebooks_refresh(args: argparse.Namespace) -> int:
    import time

    from ._repo.notebooks import list_notebooks, refresh_reference_notebook

    chosen = [nb for nb in list_notebooks() if not args.names or nb.name in args.names]
    unknown = sorted(set(args.names) - {nb.name for nb in chosen})
    if unknown:
        raise ValueError(
            f"no notebook named {', '.join(unknown)}; names look like 'shen_li-figure2'"
        )
    for i, nb in enumerate(chosen, 1):
        start = time.perf_counter()
        refresh_reference_notebook(nb)
        print(
            f"[{i}/{len(chosen)}] refreshed {nb.paired_ipynb.name} "
            f"({time.perf_counter() - start:.1f} s)",
            flush=True,
        )
    print(
        "their quick-profile key numbers are in _build/results; "
        "`marginboost results update --profile quick` records them"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``marginboost`` command; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return globals()[args.func](args)
    except (ValueError, OSError, RuntimeError) as exc:
        print(f"marginboost: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
