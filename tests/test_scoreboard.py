"""Tests of the claims scoreboard and of its MyST page."""
from __future__ import annotations

import importlib
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


def test_without_status_file_every_claim_is_not_yet_run(tmp_path):
    board = scoreboard(statuses=tmp_path / "absent.yaml", targets_directory=TARGETS)
    expected = all_claims()
    assert len(board) == len(expected) and len(expected) > 40
    assert set(board.paper) == {"anyboost", "directboost", "dmcboost", "mcboost", "shen_li"}
    assert (board.status == "not yet run").all()
    assert list(zip(board.paper, board.claim)) == [(c["paper"], c["id"]) for c in expected]


def test_recorded_statuses_are_applied(tmp_path):
    path = write_statuses(tmp_path, {
        "shen_li/C8": {"status": "partly", "evidence": "../notebooks/shen_li-tableII.md",
                       "note": "QP wins on fewer datasets"},
        "mcboost/C3": {"status": "reproduced", "evidence": "duality.md#mcboost"},
    })
    board = scoreboard(statuses=path, targets_directory=TARGETS).set_index(["paper", "claim"])
    assert board.loc[("shen_li", "C8"), "status"] == "partly"
    assert board.loc[("shen_li", "C8"), "note"] == "QP wins on fewer datasets"
    assert board.loc[("mcboost", "C3"), "evidence"] == "duality.md#mcboost"
    assert (board.status == "not yet run").sum() == len(board) - 2


@pytest.mark.parametrize("data, match", [
    ({"shen_li/C8": {"status": "done", "evidence": "x.md"}}, "unknown status 'done'"),
    ({"shen_li/C99": {"status": "partly", "evidence": "x.md"}}, "has no claim 'C99'"),
    ({"adaboost/C1": {"status": "partly", "evidence": "x.md"}}, "unknown paper 'adaboost'"),
    ({"shen_li-C1": {"status": "partly", "evidence": "x.md"}}, "paper/claim_id"),
    ({"shen_li/C1": {"status": "reproduced"}}, "needs an 'evidence' link"),
    ({"shen_li/C1": {"status": "partly", "evidence": "x.md", "by": "me"}}, "unknown fields"),
    ({"shen_li/C1": "reproduced"}, "needs at least a 'status'"),
    (["shen_li/C1"], "must map"),
])
def test_invalid_status_files(tmp_path, data, match):
    path = write_statuses(tmp_path, data)
    with pytest.raises(ValueError, match=match):
        load_statuses(path, targets_directory=TARGETS)


def test_default_status_file_is_in_the_checkout(monkeypatch, tmp_path):
    (tmp_path / "data" / "results").mkdir(parents=True)
    write_statuses(tmp_path / "data" / "results",
                   {"anyboost/C1": {"status": "not checkable", "evidence": "anyboost.md"}})
    monkeypatch.setattr(scoreboard_module, "project_root", lambda: tmp_path)
    assert load_statuses(targets_directory=TARGETS)["anyboost/C1"]["status"] == "not checkable"
    monkeypatch.setattr(scoreboard_module, "project_root", lambda: None)
    with pytest.raises(FileNotFoundError, match="clone"):
        load_statuses(targets_directory=TARGETS)


def test_escape_keeps_formulas_as_plain_text():
    assert _escape("a | b") == r"a \| b"
    assert _escape("cost $5 and $x$") == r"cost \$5 and \$x\$"
    assert _escape("y_i F(x_i) * 2\n  next") == r"y\_i F(x\_i) \* 2 next"


def _cell_text(inline) -> str:
    return "".join(t.content for t in inline.children if t.type in ("text", "text_special"))


def test_markdown_page_is_valid_myst(tmp_path):
    pytest.importorskip("myst_parser")
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    path = write_statuses(tmp_path, {
        "directboost/C7": {"status": "not reproduced", "evidence": "../notebooks/db-table2.md"}})
    page = scoreboard_markdown(statuses=path, targets_directory=TARGETS)
    parser = create_md_parser(MdParserConfig(enable_extensions={"dollarmath", "amsmath"}),
                              RendererHTML)
    tokens = parser.parse(page)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"
                and t.tag == "h1"]
    assert headings == ["Scoreboard"]
    assert not any(t.type.startswith("math") for t in tokens), "text was read as math"
    assert sum(t.type == "table_open" for t in tokens) == 1 + len(list_papers(TARGETS))
    for status in STATUSES:
        assert status in page

    # every claim row has 5 cells whose text is the statement as written in the target file
    rows, row = [], None
    for token in tokens:
        if token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(token)
        elif token.type == "tr_close":
            rows.append(row)
            row = None
    claim_rows = [r for r in rows if len(r) == 5 and _cell_text(r[0]) != "claim"]
    by_id = {(c["paper"], c["id"]): c for c in all_claims()}
    assert len(claim_rows) == len(by_id)
    statements = {_cell_text(r[1]) for r in claim_rows}
    for claim in by_id.values():
        if "note" not in claim:
            assert " ".join(claim["statement"].split()) in statements
    linked = [r for r in claim_rows if _cell_text(r[3]) == "not reproduced"]
    assert len(linked) == 1
    assert any(t.type == "link_open" and t.attrs["href"] == "../notebooks/db-table2.md"
               for t in linked[0][4].children)
