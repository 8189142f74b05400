"""The notebook pipeline: sources, paired reference notebooks, key numbers, nbval.

``pytest --nbval`` (part of ``make test``) re-executes the committed ``notebooks/*.ipynb`` and
compares their outputs; the tests here check what nbval cannot: that the committed notebooks are
in sync with their MyST sources, that each notebook's key numbers agree with the committed ones
(checked inside the nbval run itself when the session has one, see ``notebooks/conftest.py``),
and that nbval really fails when a printed number changes.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from marginboost._repo.notebooks import execute_notebook, list_notebooks
from marginboost.reporting import (
    CHECK_KEY_NUMBERS_ENV,
    KeyNumbersChanged,
    compare_key_numbers,
    key_numbers_path,
    load_key_numbers,
    save_key_numbers,
)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = list_notebooks(ROOT)
IDS = [nb.name for nb in NOTEBOOKS]


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks/<paper>-<item>.md found"


def _code_and_markdown(nb) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source.strip()) for cell in nb.cells]


@pytest.mark.parametrize("source", NOTEBOOKS, ids=IDS)
def test_paired_notebook_matches_its_source(source):
    import jupytext

    assert source.paired_ipynb.exists(), (
        f"{source.paired_ipynb.name} is missing: run `make notebooks`"
    )
    md = jupytext.read(source.path)
    paired = nbformat.read(source.paired_ipynb, as_version=4)
    assert _code_and_markdown(md) == _code_and_markdown(paired), (
        f"{source.paired_ipynb.name} has drifted from {source.path.name}: run `make notebooks`"
    )
    executed = [c for c in paired.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in executed), (
        f"{source.paired_ipynb.name} has unexecuted cells: run `make notebooks`"
    )


@pytest.mark.parametrize("source", NOTEBOOKS, ids=IDS)
def test_notebook_has_a_quick_parameters_cell(source):
    import jupytext

    md = jupytext.read(source.path)
    tagged = [
        c for c in md.cells if c.cell_type == "code" and "parameters" in c.metadata.get("tags", [])
    ]
    assert len(tagged) == 1, "exactly one cell must be tagged `parameters`"
    assert re.search(r'^profile\s*=\s*"quick"\s*$', tagged[0].source, flags=re.M)


def _executed_by_nbval_in_this_session(request, source) -> bool:
    """Whether this pytest session also runs ``--nbval`` over the source's paired notebook."""
    if not request.config.getoption("nbval", default=False):
        return False
    target = source.paired_ipynb.resolve()
    return any(Path(str(item.fspath)).resolve() == target for item in request.session.items)


@pytest.mark.notebook
@pytest.mark.parametrize("source", NOTEBOOKS, ids=IDS)
def test_key_numbers_agree_with_the_committed_ones(source, tmp_path, monkeypatch, request):
    committed = key_numbers_path(source.paper, source.item, "quick", root=ROOT / "data" / "results")
    assert committed.exists(), f"{committed} is missing: execute the notebook once to create it"
    if _executed_by_nbval_in_this_session(request, source):
        # One execution is enough: under nbval (notebooks/conftest.py) the notebook's own
        # save_key_numbers compares with the committed numbers and fails its cell otherwise.
        pytest.skip("checked by the notebook's own nbval run ($MARGINBOOST_CHECK_KEY_NUMBERS)")
    monkeypatch.delenv(CHECK_KEY_NUMBERS_ENV, raising=False)
    monkeypatch.setenv("MARGINBOOST_RESULTS_DIR", str(tmp_path / "results"))
    execute_notebook(source, tmp_path / f"{source.name}.ipynb", profile="quick", progress=False)
    fresh = key_numbers_path(source.paper, source.item, "quick", root=tmp_path / "results")
    assert fresh.exists(), "the notebook did not write its key numbers (save_key_numbers)"
    problems = compare_key_numbers(load_key_numbers(committed), load_key_numbers(fresh))
    assert not problems, "\n".join(problems)


def _change_one_printed_number(nb) -> str:
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream" and re.search(r"\d\.\d", output["text"]):
                old = output["text"]
                output["text"] = re.sub(
                    r"(\d)\.(\d)", lambda m: f"{(int(m[1]) + 1) % 10}.{m[2]}", old, count=1
                )
                return cell.source
    raise AssertionError("no printed number found to change")


@pytest.mark.notebook
def test_nbval_fails_when_a_printed_number_changes(tmp_path):
    source = NOTEBOOKS[0]
    nb = nbformat.read(source.paired_ipynb, as_version=4)
    _change_one_printed_number(nb)
    changed = tmp_path / source.paired_ipynb.name
    nbformat.write(nb, changed)
    env = {**os.environ, "MARGINBOOST_RESULTS_DIR": str(tmp_path / "results"), "TQDM_DISABLE": "1"}
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "--nbval",
        "--nbval-current-env",
        "--nbval-sanitize-with",
        str(ROOT / "tests" / "nbval_sanitize.cfg"),
        "-p",
        "no:cacheprovider",
        "-c",
        os.devnull,
        "--rootdir",
        str(tmp_path),
        str(changed),
    ]
    run = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-2000:]
    assert re.search(r"1 failed", run.stdout), run.stdout[-3000:]
    assert "mismatch" in run.stdout.lower(), run.stdout[-3000:]


def test_committed_key_numbers_are_valid_json():
    for path in (ROOT / "data" / "results").rglob("*.quick.json"):
        record = json.loads(path.read_text())
        assert {"paper", "item", "profile", "numbers", "tolerance"} <= set(record), path


def test_save_key_numbers_fails_on_a_changed_number_when_checking(tmp_path, monkeypatch):
    committed = tmp_path / "committed"
    save_key_numbers("paper", "item", {"a": 1.0, "b": [1, 2]}, profile="quick", root=committed)
    monkeypatch.setenv(CHECK_KEY_NUMBERS_ENV, str(committed))
    fresh = tmp_path / "fresh"
    save_key_numbers("paper", "item", {"a": 1.0 + 1e-9, "b": [1, 2]}, profile="quick", root=fresh)
    with pytest.raises(KeyNumbersChanged, match=r"a: committed 1\.0 vs fresh 1\.1"):
        save_key_numbers("paper", "item", {"a": 1.1, "b": [1, 2]}, profile="quick", root=fresh)
    with pytest.raises(KeyNumbersChanged, match="b: missing from the fresh run"):
        save_key_numbers("paper", "item", {"a": 1.0}, profile="quick", root=fresh)
    with pytest.raises(KeyNumbersChanged, match="is missing: execute the notebook"):
        save_key_numbers("paper", "other", {"a": 1.0}, profile="quick", root=fresh)
    assert load_key_numbers(fresh / "paper" / "item.quick.json")["numbers"] == {"a": 1.0}


@pytest.mark.notebook
def test_notebooks_executed_at_once_give_the_outputs_of_one_at_a_time(tmp_path, monkeypatch):
    """``marginboost book --jobs 2`` runs each notebook in a process of its own; what they
    print is what they print one at a time."""
    from marginboost._repo.notebooks import _run_notebooks

    monkeypatch.setenv("MARGINBOOST_RESULTS_DIR", str(tmp_path / "results"))
    chosen = [nb for nb in NOTEBOOKS if nb.name in ("shen_li-figure2", "anyboost-table1")]
    assert len(chosen) == 2

    def streams(folder):
        runs = list(_run_notebooks(chosen, folder, "quick", 1 if folder.name == "one" else 2))
        assert sorted(run.name for run in runs) == sorted(nb.name for nb in chosen)
        return {
            nb.name: [
                output.get("text")
                for cell in nbformat.read(folder / f"{nb.name}.ipynb", as_version=4).cells
                for output in cell.get("outputs", [])
                if output.get("output_type") == "stream"
            ]
            for nb in chosen
        }

    at_once = streams(tmp_path / "two")
    assert all(at_once.values())
    assert at_once == streams(tmp_path / "one")
