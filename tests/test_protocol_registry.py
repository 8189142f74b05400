"""The registry of reproduced papers is the whole truth: notebooks, targets, chapters, results
and protocol modules all follow it, and profiles are checked in one place."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml

from marginboost._repo.apidoc import CHAPTER_ESTIMATORS
from marginboost._repo.citation import CHAPTER_PAPERS
from marginboost.experiments import Profile, check_profile
from marginboost.experiments.grids import paper_store
from marginboost.papers import PROTOCOLS, protocol

ROOT = Path(__file__).resolve().parents[1]


def test_every_notebook_belongs_to_a_registered_item_and_back():
    on_disk = {p.stem for p in (ROOT / "notebooks").glob("*-*.md")}
    registered = {entry.notebook(item) for entry in PROTOCOLS.values() for item in entry.items}
    assert on_disk == registered


@pytest.mark.parametrize("paper", list(PROTOCOLS))
def test_each_paper_has_its_module_targets_chapter_and_reference(paper):
    entry = protocol(paper)
    module = importlib.import_module(entry.module)
    assert callable(module.cell_function)
    assert (ROOT / "data" / "targets" / f"{paper}.yaml").is_file()
    assert (ROOT / "book" / f"{paper}.md").is_file()
    assert f"{{{entry.reference}," in (ROOT / "book" / "references.bib").read_text()
    assert CHAPTER_PAPERS[paper] == entry.reference
    assert CHAPTER_ESTIMATORS[paper] == list(entry.estimators)
    import marginboost

    assert set(entry.estimators) <= set(marginboost._ESTIMATORS)


def test_the_book_lists_every_paper_in_the_registry_order():
    toc = (ROOT / "_toc.yml").read_text()
    positions = [toc.index(f"book/{paper}") for paper in PROTOCOLS]
    assert positions == sorted(positions)
    assert yaml.safe_load(toc)


def test_unknown_papers_and_items_get_clear_errors():
    with pytest.raises(ValueError, match="unknown paper 'nips'; the reproduced papers: anyboost"):
        protocol("nips")
    with pytest.raises(ValueError, match="has no item 'table9'; its items: table1-2"):
        protocol("mcboost").notebook("table9")


@pytest.mark.parametrize("bad", ["fast", "Full", "", None, 1])
def test_a_bad_profile_gets_one_clear_error_everywhere(bad):
    with pytest.raises(ValueError, match="unknown profile"):
        check_profile(bad)
    with pytest.raises(ValueError, match="unknown profile"):
        paper_store("mcboost", bad)
    from marginboost.papers.dmcboost import protocol as dmcboost
    from marginboost.papers.mcboost import protocol as mcboost

    with pytest.raises(ValueError, match="unknown profile"):
        mcboost.table1_settings(bad)
    with pytest.raises(ValueError, match="unknown profile"):
        dmcboost.table2_cells(bad) if hasattr(dmcboost, "table2_cells") else check_profile(bad)


def test_profiles_compare_equal_to_their_names():
    assert Profile.parse("quick") is Profile.QUICK
    assert Profile.FULL == "full" and str(Profile.FULL) == "full"
    assert check_profile(Profile.FULL) == "full"


def test_the_command_line_names_every_registered_paper_without_loading_the_package():
    import subprocess
    import sys

    from marginboost.cli import build_parser

    help_text = build_parser().format_help() + "".join(
        action.help or ""
        for sub in build_parser()._subparsers._group_actions
        for parser in sub.choices.values()
        for action in parser._actions
    )
    assert all(paper in help_text for paper in PROTOCOLS)
    code = "import sys, marginboost.cli as c; c.build_parser(); print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _places_for_a_paper() -> list[str]:
    """The paths of the architecture page's list of the places a new paper touches."""
    import re

    page = (ROOT / "book" / "architecture.md").read_text()
    block = page.split("<!-- places-for-a-paper -->")[1].split("<!-- end places-for-a-paper -->")[0]
    return [
        re.match(r"- `([^`]+)`", line).group(1) for line in block.splitlines() if line[:2] == "- "
    ]


def test_the_places_a_new_paper_touches_are_the_registrys():
    """The architecture page lists where a paper lives; every registered paper has each of them
    (and its notebooks are its items), and the registry needs no other place of it."""
    places = _places_for_a_paper()
    assert places == [
        "src/marginboost/papers/<paper>/",
        "data/targets/<paper>.yaml",
        "notebooks/<paper>-<item>.md",
        "book/<paper>.md",
        "_toc.yml",
        "book/references.bib",
    ]
    toc, bib = (ROOT / "_toc.yml").read_text(), (ROOT / "book" / "references.bib").read_text()
    for paper, entry in PROTOCOLS.items():
        folder = ROOT / places[0].replace("<paper>", paper)
        assert {"__init__.py", "protocol.py", "claims.py"} <= {p.name for p in folder.iterdir()}
        assert importlib.import_module(entry.package).PAPER is entry
        assert (ROOT / places[1].replace("<paper>", paper)).is_file()
        notebooks = {p.name for p in (ROOT / "notebooks").glob(f"{paper}-*.md")}
        assert notebooks == {
            places[2].replace("<paper>", paper).replace("<item>", item).split("/")[1]
            for item in entry.items
        }
        assert (ROOT / places[3].replace("<paper>", paper)).is_file()
        assert f"file: book/{paper}\n" in toc
        assert all(f"file: notebooks/{entry.notebook(item)}\n" in toc for item in entry.items)
        assert f"{{{entry.reference}," in bib


def test_a_paper_folder_registers_under_its_own_name(tmp_path, monkeypatch):
    """The registry finds paper folders itself and refuses one whose PAPER names another."""
    import marginboost.papers as papers

    assert list(papers.PROTOCOLS) == ["anyboost", "shen_li", "mcboost", "directboost", "dmcboost"]
    assert [p.chapter for p in papers.PROTOCOLS.values()] == [1, 2, 3, 4, 5]
    folder = tmp_path / "misnamed"
    folder.mkdir()
    (folder / "__init__.py").write_text(
        "from marginboost.papers._paper import PaperProtocol\n"
        "PAPER = PaperProtocol('anyboost', 9, (), 'x', ())\n"
    )
    monkeypatch.setattr(papers, "__path__", [*papers.__path__, str(tmp_path)])
    with pytest.raises(ImportError, match="misnamed registers itself as 'anyboost'"):
        papers._discover()
