"""The committed generated book pages are up to date with the registries they are made from."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MIRROR = os.environ.get("MARGINBOOST_DATA_MIRROR")


def test_datasets_page_is_current():
    from marginboost.data.page import datasets_page_markdown

    page = (ROOT / "book" / "datasets.md").read_text()
    assert page == datasets_page_markdown(), (
        "book/datasets.md is stale: run `make book` (or marginboost book) to regenerate it"
    )


def test_scoreboard_page_is_current():
    from marginboost.experiments import scoreboard_markdown

    page = (ROOT / "book" / "scoreboard.md").read_text()
    assert page == scoreboard_markdown(), "book/scoreboard.md is stale: regenerate it"


@pytest.mark.skipif(
    not MIRROR or not Path(MIRROR).is_dir(),
    reason="the page's cost table identifies the notebooks' cells by their data files' hashes",
)
def test_performance_page_is_current():
    from marginboost._repo.performance import performance_page_markdown

    page = (ROOT / "book" / "performance.md").read_text()
    assert page == performance_page_markdown(ROOT), (
        "book/performance.md is stale: run `marginboost bench` to regenerate it"
    )


def test_api_and_citation_pages_are_current():
    from marginboost._repo.notebooks import generated_pages

    pages = generated_pages(ROOT)
    for name in [n for n in pages if n.startswith("api/")] + ["how-to-cite.md"]:
        path = ROOT / "book" / name
        assert path.exists() and path.read_text() == pages[name], (
            f"book/{name} is stale: run `marginboost results update` to regenerate it"
        )


def test_api_reference_lists_every_public_estimator():
    import marginboost

    page = (ROOT / "book" / "api" / "estimators.md").read_text()
    for name in marginboost.__all__:
        if name != "__version__":
            assert f".. autoclass:: {name}\n" in page, name


def test_cite_blocks_name_the_chapter_and_the_papers_doi():
    from marginboost._repo.citation import cite_chapter_block

    text = (ROOT / "book" / "shen_li.md").read_text()
    block = cite_chapter_block(ROOT, "shen_li", text)
    assert "## Cite this chapter" in block and "@incollection{marginboost-shen-li," in block
    assert "https://doi.org/10.1109/TPAMI.2010.47" in block


def test_not_reproduced_page_is_current():
    from marginboost.experiments.scoreboard import not_reproduced_markdown

    page = (ROOT / "book" / "not_reproduced.md").read_text()
    assert page == not_reproduced_markdown(), (
        "book/not_reproduced.md is stale: run `marginboost scoreboard --update`"
    )


@pytest.mark.parametrize("missed", [("adult-d1",), ("adult-d3",), ("adult-d1", "adult-d3")])
def test_the_missed_goals_paragraph_reads_for_any_missed_goal(missed):
    """The "goal not met" paragraph names exactly the goals this run missed, in sentences
    joined by single spaces, whichever of them miss."""
    import copy

    from marginboost._repo.performance import adaboost_section, load_benchmark_results

    record = copy.deepcopy(load_benchmark_results(ROOT)["adaboost"])
    for case in record["cases"]:
        if case["case"] in missed:
            case["speedup"] = 1.0
    paragraph = next(
        line for line in adaboost_section(record) if line.startswith("**Where a goal is not met")
    )
    assert "  " not in paragraph
    assert paragraph.endswith("Goals missed in this run: " + ", ".join(missed) + ".")
    assert ("A depth-3 round" in paragraph) == ("adult-d3" in missed)


@pytest.mark.skipif(
    not MIRROR or not Path(MIRROR).is_dir(),
    reason="the page's cost table identifies the notebooks' cells by their data files' hashes",
)
def test_full_protocols_page_is_current():
    from marginboost._repo.protocols_page import PAGE, full_protocols_page_markdown

    page = (ROOT / "book" / PAGE).read_text()
    assert page == full_protocols_page_markdown(ROOT), (
        f"book/{PAGE} is stale: run `marginboost results update` to regenerate it"
    )


def test_full_protocols_page_reads_dmcboost_counts_from_the_results(tmp_path):
    """The DMCBoost section's counts come from the Table 2 key numbers: change one and the page
    says so."""
    import json
    import shutil

    from marginboost._repo.protocols_page import _dmcboost_section

    source = ROOT / "data" / "results" / "dmcboost" / "table2.full.json"
    target = tmp_path / "data" / "results" / "dmcboost" / "table2.full.json"
    target.parent.mkdir(parents=True)
    shutil.copy(source, target)
    record = json.loads(target.read_text())
    numbers = record["numbers"]
    cells, done = int(numbers["table4_paper_cells"]), int(numbers["table4_paper_cells_computed"])
    row = f"| Table 4 | {cells} | {done} | {cells - done} |"
    assert any(line.startswith(row) for line in _dmcboost_section(tmp_path))
    numbers["table4_paper_cells_computed"] = float(cells)
    target.write_text(json.dumps(record))
    lines = _dmcboost_section(tmp_path)
    assert any(line.startswith(f"| Table 4 | {cells} | {cells} | 0 |") for line in lines)
    # the reruns with a raised cap: said when counted, from the same numbers
    numbers.update(
        table4_raised_reruns=18.0,
        table4_raised_reruns_computed=4.0,
        table4_raised_missing_cpu_h_max=5.84,
    )
    target.write_text(json.dumps(record))
    text = "\n".join(_dmcboost_section(tmp_path))
    assert "Besides, 18 of Table 4's DMCBoost cells" in text
    assert "The store holds 4 of these reruns; the rest take at most 5.8 CPU hours" in text
    assert _dmcboost_section(tmp_path / "elsewhere") == []


def test_gap_projection_recovers_power_laws_and_sums_the_master_seconds():
    """The projection of LPBoost's gap curve on the performance page: on an exact power law it
    finds the exponents, the column where the law reaches each tolerance and the master seconds
    of the columns from the run's end to there."""
    import numpy as np

    from marginboost._repo.performance.masters import gap_projection

    columns = np.arange(1, 401, dtype=float)
    projection = gap_projection(columns, 2.0 * columns**-1.5, 1e-3 * columns**2, tols=(1e-5, 1.0))
    assert projection["gap_exponent"] == pytest.approx(-1.5)
    assert projection["running_min_exponent"] == pytest.approx(-1.5)
    assert projection["master_exponent"] == pytest.approx(2.0)
    assert projection["fitted_from"] == 200 and projection["to"] == 400
    far = projection["tolerances"][1e-5]["gap"]
    assert far["columns"] == pytest.approx(2e5 ** (2 / 3))
    assert far["master_s"] == pytest.approx(1e-3 * (far["columns"] ** 3 - 400.0**3) / 3)
    assert projection["tolerances"][1.0]["gap"] == {"columns": 400.0, "master_s": 0.0}
    rising = gap_projection(columns, columns, np.ones(400), tols=(1e-3,))
    assert rising["tolerances"][1e-3]["gap"] is None


def test_lpboost_section_reads_the_longest_run_at_each_tolerance():
    """The measured part: the first column whose gap is within each tolerance, and its master
    seconds (cumulative), from the longest LPBoost run's trajectory."""
    from marginboost._repo.performance.masters import _projection_lines

    gap = [0.5, 0.02, 0.009, 0.03, 0.0009] + [0.002] * 10
    run = {"columns": list(range(1, 16)), "gap": gap, "master_s": [1.0] * 15}
    text = "\n".join(_projection_lines(run, 286, [{"last_gap": 0.01}], 0.03))
    assert "| 0.01 | 3 | 3 |" in text and "| 0.001 | 5 | 5 |" in text
    assert "| 0.0001 | not within 15 | |" in text
    assert "3.0 times smaller" in text
    assert "costs this run 3 columns and 3 s of master" in text


def test_vertex_moves_lines_read_the_counts_of_the_case():
    """The LPBoost section's vertex-moves part: its numbers (rows a merge would remove, pivots
    per example moved) come from the case's counts, and a record without the case adds
    nothing."""
    from marginboost._repo.performance.masters import _vertex_moves_lines

    assert _vertex_moves_lines(None) == []
    case = {
        "n": 1000,
        "columns": 60,
        "measured": "2026-01-01",
        "checkpoints": [
            {"columns": 25, "distinct_patterns": 700, "moved_per_column": 40.0,
             "pivots_per_column": 44.0},
            {"columns": 60, "distinct_patterns": 990, "moved_per_column": 50.0,
             "pivots_per_column": 50.0},
        ],
    }  # fmt: skip
    text = "\n".join(_vertex_moves_lines(case))
    assert "990 of the 1,000 examples" in text and "would remove 10 of" in text
    assert "1.00 to 1.10 pivots per example moved" in text
    assert "| 25 | 700 of 1,000 | 40 | 44 |" in text


def test_lightgbm_section_keeps_the_busy_fits_apart():
    """Fits measured with the other core busy get their own table, with the slowdown against the
    quiet fit and the 2-thread goal judged against the busy 1-thread time; they never replace
    the quiet numbers."""
    from marginboost._repo.performance.trees import lightgbm_section

    def case(library, threads, ms, busy):
        return {"case": "adult-d3", "library": library, "threads": threads, "ms_per_tree": ms,
                "busy": busy, "read_floor_ms": 0.2}  # fmt: skip

    record = {
        "environment": {"cpu_count": 2, "lightgbm": "4.7.0"},
        "cases": [
            case("marginboost", 1, 8.0, False),
            case("lightgbm", 1, 8.0, False),
            case("marginboost", 2, 5.0, False),
            case("lightgbm", 2, 5.0, False),
            case("marginboost", 1, 10.0, True),
            case("lightgbm", 1, 5.0, True),
            case("marginboost", 2, 11.0, True),
            case("lightgbm", 2, 10.0, True),
        ],
    }
    lines = lightgbm_section(record)
    assert "| adult-d3 | 1 | 8.00 | 8.00 | 0.200 | 1.00x, met |" in lines
    assert "| adult-d3 | 2 | 5.00 | 5.00 | 0.200 | 1.00x, met |" in lines
    assert "| adult-d3 | 1 | 10.00 | 5.00 | 1.25x | 2.00x, not met |" in lines
    assert (
        "| adult-d3 | 2 | 11.00 | 10.00 | 2.20x | 1.10x, not met; slower than 1 thread |" in lines
    )
    record["cases"] = record["cases"][:4]
    assert not any("busy" in line for line in lightgbm_section(record))
