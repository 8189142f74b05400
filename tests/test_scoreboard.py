"""Tests of the claims scoreboard and of its MyST page."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
import yaml

from marginboost.experiments import STATUSES, claims, list_papers, scoreboard, scoreboard_markdown
from marginboost.experiments.scoreboard import _escape, load_statuses

# the package exports a function named like the module, so fetch the module itself
scoreboard_module = importlib.import_module("marginboost.experiments.scoreboard")

REPO = Path(__file__).resolve().parents[1]
TARGETS = REPO / "data" / "targets"


def all_claims():
    return [c for paper in list_papers(TARGETS) for c in claims(paper, directory=TARGETS)]


def write_statuses(tmp_path: Path, data) -> Path:
    path = tmp_path / "scoreboard.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_every_claim_has_a_predicate():
    """No claim is left without a computed verdict."""
    from marginboost.experiments.predicates import registered_claims

    keys = {f"{c['paper']}/{c['id']}" for c in all_claims()}
    assert len(keys) > 40
    assert keys == set(registered_claims())


def test_committed_verdicts_equal_their_predicates():
    """data/results/scoreboard.yaml is exactly what the predicates give on the committed results."""
    from marginboost.experiments.predicates import evaluate_all

    committed = load_statuses(targets_directory=TARGETS)
    computed = evaluate_all()
    differ = {
        k: (committed.get(k, {}).get("status"), c.status)
        for k, c in computed.items()
        if committed.get(k, {}).get("status") != c.status
    }
    assert not differ, (
        f"committed verdict != predicate (committed, computed): {differ}; "
        "run `marginboost scoreboard --update`"
    )
    generated = scoreboard_module.generated_scoreboard_files(REPO)
    assert (REPO / "data/results/scoreboard.yaml").read_text() == generated[
        "data/results/scoreboard.yaml"
    ], "run `marginboost scoreboard --update`"


def test_board_reports_the_predicates(tmp_path):
    board = scoreboard(targets_directory=TARGETS)
    assert set(board.status) <= set(STATUSES)
    assert list(zip(board.paper, board.claim)) == [(c["paper"], c["id"]) for c in all_claims()]
    assert (board.decided_by.str.len() > 0).all()


def test_a_verdict_follows_the_numbers(tmp_path):
    """The same predicate on changed results gives another verdict: verdicts are not constants."""
    import json
    import shutil

    from marginboost.experiments.predicates import Evidence, evaluate

    shutil.copytree(
        REPO / "data" / "results" / "shen_li",
        tmp_path / "data/results/shen_li",
        ignore=shutil.ignore_patterns("store-*"),
    )
    path = tmp_path / "data/results/shen_li/figure1.full.json"
    record = json.loads(path.read_text())
    record["numbers"]["breast_cancer_fraction_adaboost_lower"] = 1.0
    record["numbers"]["australian_fraction_adaboost_lower"] = 1.0
    path.write_text(json.dumps(record))
    assert evaluate("shen_li/C5", Evidence(tmp_path)).status == "reproduced"
    record["numbers"]["breast_cancer_fraction_adaboost_lower"] = 0.3
    record["numbers"]["australian_fraction_adaboost_lower"] = 0.3
    record["numbers"]["fits_on_cap"] = 0
    path.write_text(json.dumps(record))
    assert evaluate("shen_li/C5", Evidence(tmp_path)).status == "not reproduced"
    record["numbers"]["fits_on_cap"] = 2  # failing parts on capped fits are not decided
    path.write_text(json.dumps(record))
    assert evaluate("shen_li/C5", Evidence(tmp_path)).status == "not decided (capped)"
    path.unlink()
    assert evaluate("shen_li/C5", Evidence(tmp_path)).status == "not tested"


def test_a_claim_checked_by_tests_needs_a_recorded_run(tmp_path):
    from marginboost.experiments.predicates import Evidence, evaluate

    assert evaluate("anyboost/C8").status == "reproduced"
    (tmp_path / "tests").mkdir()
    assert evaluate("anyboost/C8", Evidence(tmp_path)).status == "not tested"


def test_sign_test():
    from marginboost.experiments.predicates import sign_test_p

    assert sign_test_p(10, 10) == pytest.approx(1 / 1024)
    assert sign_test_p(9, 10) == pytest.approx(11 / 1024)
    assert sign_test_p(8, 10) > 0.05 > sign_test_p(9, 10)
    assert sign_test_p(0, 0) == 1.0


@pytest.mark.parametrize(
    "data, match",
    [
        ({"shen_li/C8": {"status": "done", "evidence": "x.md"}}, "unknown status 'done'"),
        ({"shen_li/C99": {"status": "partly", "evidence": "x.md"}}, "has no claim 'C99'"),
        ({"adaboost/C1": {"status": "partly", "evidence": "x.md"}}, "unknown paper 'adaboost'"),
        ({"shen_li-C1": {"status": "partly", "evidence": "x.md"}}, "paper/claim_id"),
        ({"shen_li/C1": {"status": "reproduced"}}, "needs an 'evidence' link"),
        ({"shen_li/C1": {"status": "partly", "evidence": "x.md", "note": "me"}}, "unknown fields"),
        ({"shen_li/C1": "reproduced"}, "needs at least a 'status'"),
        (["shen_li/C1"], "must map"),
    ],
)
def test_invalid_status_files(tmp_path, data, match):
    path = write_statuses(tmp_path, data)
    with pytest.raises(ValueError, match=match):
        load_statuses(path, targets_directory=TARGETS)


def test_default_status_file_is_in_the_checkout(monkeypatch, tmp_path):
    (tmp_path / "data" / "results").mkdir(parents=True)
    write_statuses(
        tmp_path / "data" / "results",
        {"anyboost/C1": {"status": "not tested", "evidence": "anyboost.md"}},
    )
    monkeypatch.setattr(scoreboard_module, "project_root", lambda: tmp_path)
    assert load_statuses(targets_directory=TARGETS)["anyboost/C1"]["status"] == "not tested"
    monkeypatch.setattr(scoreboard_module, "project_root", lambda: None)
    with pytest.raises(FileNotFoundError, match="clone"):
        load_statuses(targets_directory=TARGETS)


def test_escape_keeps_formulas_as_plain_text():
    assert _escape("a | b") == r"a \| b"
    assert _escape("cost $5 and $x$") == r"cost \$5 and \$x\$"
    assert _escape("y_i F(x_i) * 2\n  next") == r"y\_i F(x\_i) \* 2 next"


def _cell_text(inline) -> str:
    return "".join(
        f"${t.content}$" if t.type == "math_inline" else t.content
        for t in inline.children
        if t.type in ("text", "text_special", "math_inline")
    )


def test_markdown_page_is_valid_myst():
    pytest.importorskip("myst_parser")
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    page = scoreboard_markdown(targets_directory=TARGETS)
    parser = create_md_parser(
        MdParserConfig(enable_extensions={"dollarmath", "amsmath"}), RendererHTML
    )
    tokens = parser.parse(page)
    headings = [
        tokens[i + 1].content
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and t.tag == "h1"
    ]
    assert headings == ["Scoreboard"]
    # the only math is the formulas the statements write as $...$; no other text is read as math
    formulas = {
        m
        for c in all_claims()
        for m in re.findall(r"\$([^$]+)\$", " ".join(c["statement"].split()))
    }
    math = [
        child.content
        for t in tokens
        if t.type == "inline"
        for child in t.children
        if child.type.startswith("math")
    ]
    assert formulas and set(math) == formulas, "text was read as math, or a formula was not"
    assert sum(t.type == "table_open" for t in tokens) == 1 + len(list_papers(TARGETS))
    for status in STATUSES:
        assert status in page

    # every claim row has 4 cells: the claim (linking its evidence), the statement as written in
    # the target file followed by its source in the paper, the status and what decided it
    rows, row = [], None
    for token in tokens:
        if token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(token)
        elif token.type == "tr_close":
            rows.append(row)
            row = None
    claim_rows = [
        r
        for r in rows
        if len(r) == 4
        and _cell_text(r[0]).split()[0][:1] == "C"
        and _cell_text(r[0]).split()[0][1:].isdigit()
    ]
    by_id = {(c["paper"], c["id"]): c for c in all_claims()}
    assert len(claim_rows) == len(by_id)
    statements = {_cell_text(r[1]) for r in claim_rows}
    for claim in by_id.values():
        shown = " ".join(claim["statement"].split())
        if claim.get("reading"):  # how the predicate reads the words follows the statement
            shown += " Read as: " + " ".join(claim["reading"].split())
        assert f"{shown} ({' '.join(claim['source'].split())})" in statements
    board = scoreboard(targets_directory=TARGETS)
    # the status is a coloured badge: the role {bdg-...} with the status as its content
    badges = [
        [t for t in r[2].children if t.type != "text" or t.content.strip()] for r in claim_rows
    ]
    assert all(b[0].type == "myst_role" and b[0].meta["name"].startswith("bdg-") for b in badges)
    assert sorted(b[0].content for b in badges) == sorted(board.status)


def test_every_claim_not_reproduced_is_explained_and_no_other():
    from marginboost.experiments.scoreboard import load_causes

    board = scoreboard(targets_directory=TARGETS)
    causes = load_causes()
    open_claims = {f"{r.paper}/{r.claim}" for r in board.itertuples() if r.status != "reproduced"}
    assert open_claims == set(causes)


def _evidence_with(tmp_path: Path, paper: str, item: str, numbers: dict):
    from marginboost.experiments.predicates import Evidence

    path = tmp_path / "data" / "results" / paper / f"{item}.full.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"numbers": numbers}))
    return Evidence(tmp_path)


def test_the_papers_own_table3_satisfies_directboost_c8(tmp_path):
    """The predicate of DirectBoost's Long-Servedio claim, applied to the paper's own Table 3,
    says "reproduced"; with BrownBoost fine at l = 20 under noise (a part of the claim
    broken) it says "partly"."""
    from marginboost.experiments import target_table
    from marginboost.experiments.predicates import evaluate

    table = target_table("directboost", "table3", directory=TARGETS)
    numbers = {f"{r.dataset}_{r.algorithm}": float(r.mean) for r in table.itertuples()}
    check = evaluate("directboost/C8", _evidence_with(tmp_path, "directboost", "table3", numbers))
    assert check.status == "reproduced", check.parts
    numbers["long-servedio l=20 eta=0.05_BB"] = 3.0
    broken = evaluate("directboost/C8", _evidence_with(tmp_path, "directboost", "table3", numbers))
    assert broken.status == "partly"
    assert [p.holds for p in broken.parts] == [True, True, True, False, True]


def _claim_keys():
    return [f"{c['paper']}/{c['id']}" for c in all_claims()]


@pytest.mark.parametrize("key", _claim_keys())
def test_every_predicate_passes_the_paper_itself(key):
    """Applied to the paper's own printed numbers (or, where it prints none, the weakest numbers
    its words allow: data/targets/<paper>.yaml, as_printed), every predicate says "reproduced";
    one that does not asks more than the paper does."""
    from marginboost.experiments.predicates import PaperEvidence, evaluate

    check = evaluate(key, PaperEvidence(key, targets_directory=TARGETS))
    assert check.status == "reproduced", check.reason


def test_the_paper_itself_can_fail_a_predicate():
    """The paper's numbers are data, not a pass: a predicate over them fails when they change."""
    from marginboost.experiments.predicates import PaperEvidence, evaluate

    ev = PaperEvidence("dmcboost/C4", targets_directory=TARGETS)
    ev.entry = {**ev.entry, "table4": {**ev.entry["table4"], "Car_0.2_DMCBoost_n_prime": 0.05}}
    check = evaluate("dmcboost/C4", ev)
    assert check.status == "partly"
    assert [p.holds for p in check.parts] == [False, True]


def test_a_part_checked_by_a_test_needs_its_recorded_pass(tmp_path):
    """A test decides a part by its recorded outcome for its current source, not by existing."""
    from marginboost.experiments.predicates import (
        UNIT_CHECKS,
        Evidence,
        evaluate,
        fingerprint_of_test,
    )

    (tmp_path / "tests").mkdir()
    source = "def test_stops_when_the_weak_learner_no_longer_points_downhill():\n    pass\n"
    (tmp_path / "tests" / "test_stagewise.py").write_text(source)
    name = "tests/test_stagewise.py::test_stops_when_the_weak_learner_no_longer_points_downhill"
    sha = fingerprint_of_test(
        tmp_path, "test_stagewise", "test_stops_when_the_weak_learner_no_longer_points_downhill"
    )
    record = tmp_path / UNIT_CHECKS
    record.parent.mkdir(parents=True)

    def status(outcome, digest=sha):
        record.write_text(
            yaml.safe_dump({"tests": {name: {"outcome": outcome, "source_sha256": digest}}})
        )
        return evaluate("anyboost/C8", Evidence(tmp_path)).status

    assert status("passed") == "reproduced"
    assert status("failed") == "not reproduced"
    assert status("passed", digest="0" * 64) == "not tested"  # edited since its run
    record.unlink()
    assert evaluate("anyboost/C8", Evidence(tmp_path)).status == "not tested"


def test_recorded_test_outcomes_are_current():
    """data/results/unit_checks.yaml records a pass of every test a predicate names, for the
    test's current source (`marginboost scoreboard --update` runs them)."""
    from marginboost.experiments.predicates import UNIT_CHECKS, fingerprint_of_test

    recorded = yaml.safe_load((REPO / UNIT_CHECKS).read_text())["tests"]
    from marginboost._repo.unit_checks import named_tests

    assert sorted(recorded) == named_tests(REPO)
    for test, record in recorded.items():
        module, name = test[len("tests/") :].split(".py::")
        assert record["source_sha256"] == fingerprint_of_test(REPO, module, name), test
        assert record["outcome"] == "passed", test


def test_every_verdict_carries_its_deciding_numbers():
    """Each claim's record names the numbers that decided it (unit-test claims: how many of
    their tests passed), and how many of its deciding runs ended on a cap of ours."""
    committed = yaml.safe_load((REPO / "data/results/scoreboard.yaml").read_text())
    assert [k for k, v in committed.items() if not v["numbers"]] == []
    assert [k for k, v in committed.items() if not isinstance(v["runs_on_cap"], int)] == []


def test_a_claim_without_capped_runs_says_why():
    """A claim registered as decided by fits that cannot end on a cap of ours records 0 such
    runs, is not also counted from a notebook, and its reason is printed beside the count."""
    from marginboost.experiments.predicates import CAP_COUNTS, NO_CAPPED_RUNS, evaluate_all
    from marginboost.experiments.scoreboard import not_reproduced_markdown

    assert NO_CAPPED_RUNS and not set(NO_CAPPED_RUNS) & set(CAP_COUNTS)
    checks = evaluate_all()
    assert all(checks[key].runs_on_cap == 0 for key in NO_CAPPED_RUNS)
    page = not_reproduced_markdown()
    for key, why in NO_CAPPED_RUNS.items():
        if checks[key].status not in ("reproduced", "not tested"):
            assert f"0 of its deciding runs ended on a cap of ours: {why}" in page, key


def test_a_capped_run_that_could_change_a_part_leaves_it_undecided():
    """A failing part whose capped runs could change it is not decided; one whose capped runs
    cannot change it stays decided."""
    from marginboost.experiments.predicates import Check, Part, could_change, evaluate

    table = {("a", "m"): 10.0, ("a", "n"): 20.0, ("b", "m"): 30.0, ("b", "n"): 5.0}

    def m_wins_both(t):
        return all(t[s, "m"] < t[s, "n"] for s in "ab")

    assert not m_wins_both(table)
    assert could_change(table, {("b", "m"): 1}, m_wins_both) == 1
    assert could_change(table, {("a", "n"): 2}, m_wins_both) == 0  # b fails regardless
    assert isinstance(evaluate("directboost/C2"), Check)
    part = Part("x", False, "", runs_on_cap=1)
    assert part.runs_on_cap == 1


def test_dmcboost_c1_counts_only_capped_runs_that_could_change_a_part(tmp_path):
    """DMCBoost C1 on a made-up Table 2: a set where DMCBoost loses with no capped run decides
    "lowest on all sets" whatever the capped runs elsewhere would give; with the only losing
    set's chosen run capped, the part is not decided."""
    from marginboost.experiments.predicates import evaluate

    errors = {"A": (10.0, 9.0, 5.0), "B": (10.0, 8.0, 9.0), "C": (10.0, 7.0, 6.0)}
    numbers = {"m1_no_model": 5.0}
    for s, (m1, gd, dmc) in errors.items():
        numbers |= {f"{s}_AdaBoost.M1": m1, f"{s}_GD-MCBoost": gd, f"{s}_DMCBoost": dmc}
        numbers |= {f"{s}_dmc_runs": 7.0, f"{s}_dmc_chosen_on_cap": 0.0}
    numbers["C_dmc_chosen_on_cap"] = 2.0  # DMCBoost wins on C: its capped run cannot matter
    check = evaluate("dmcboost/C1", _evidence_with(tmp_path, "dmcboost", "table2", numbers))
    first = check.parts[0]
    assert (first.holds, first.runs_on_cap) == (False, 0)  # B loses with no capped run
    assert "cannot change it" in first.detail
    numbers |= {"B_dmc_chosen_on_cap": 3.0, "C_dmc_chosen_on_cap": 0.0}
    check = evaluate("dmcboost/C1", _evidence_with(tmp_path, "dmcboost", "table2", numbers))
    assert check.parts[0].holds is None and check.parts[0].runs_on_cap == 3


def test_the_critical_value_in_the_mcboost_chapter_is_the_normal_quantile():
    """The chapter's 1.645 is the one-sided 5% quantile the predicate uses, not a typed copy."""
    from statistics import NormalDist

    from marginboost.experiments.predicates import Z_ONE_SIDED_5

    assert Z_ONE_SIDED_5 == round(NormalDist().inv_cdf(0.95), 3)
    text = (REPO / "book" / "mcboost.md").read_text()
    assert f"one-tailed critical value {Z_ONE_SIDED_5}" in " ".join(text.split())


def test_every_cap_count_a_claim_names_is_committed():
    """The key numbers that count a claim's capped fits exist in the committed results, so a
    claim cannot lose its count silently."""
    from marginboost.experiments.predicates import CAP_COUNTS, Evidence, registered_claims

    ev = Evidence(REPO)
    claims = registered_claims()  # registers the papers' claims and their cap counts
    assert CAP_COUNTS and set(CAP_COUNTS) <= set(claims)
    missing = [
        (claim, item, name)
        for claim, (paper, item, name) in CAP_COUNTS.items()
        if name not in (ev.key(paper, item) or {})
    ]
    assert missing == []


def test_a_round_limit_that_does_not_change_a_part_does_not_cap_it(tmp_path):
    """AnyBoost C5: the grid at other round limits decides whether our limit decides a part.
    A part with the same outcome at every round count is decided (0 runs on the cap); one whose
    outcome changes with the round count stays "not decided (capped)"."""
    from marginboost.experiments.predicates import evaluate
    from marginboost.papers.anyboost.claims import _ANY_SETS

    def numbers(advantage_at):  # advantage_at(rounds, noise) for every set
        out = {"fits_on_cap": 1000.0}
        for r in (500, 1000, 2000):
            for noise in (0, 5, 15):
                a = advantage_at(r, noise)
                out[f"rounds_{r}_mean_advantage_{noise}"] = a
                for s in _ANY_SETS:
                    out[f"rounds_{r}_advantage_{s}_{noise}"] = a
                    if r == 1000:
                        out[f"advantage_{s}_{noise}"] = a
                if r == 1000:
                    out[f"mean_advantage_{noise}"] = a
        return out

    # fails at 0% noise at every round count: decided, "partly"
    ev = _evidence_with(
        tmp_path, "anyboost", "figure1", numbers(lambda r, n: -1.0 if n == 0 else 2.0)
    )
    check = evaluate("anyboost/C5", ev)
    assert check.status == "partly"
    assert check.runs_on_cap == 0
    assert "the same at 500, 1000, 2000 rounds" in check.parts[0].detail
    # fails at 0% noise at 1000 rounds but holds at 2000: the round limit decides it
    ev = _evidence_with(
        tmp_path / "b",
        "anyboost",
        "figure1",
        numbers(lambda r, n: (1.0 if r == 2000 else -1.0) if n == 0 else 2.0),
    )
    check = evaluate("anyboost/C5", ev)
    assert check.status == "not decided (capped)"
    assert check.runs_on_cap == 1000
    assert "holds at 2000 of 500, 1000, 2000 rounds" in check.parts[0].detail
