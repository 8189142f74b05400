"""The repository's set-up files agree with each other."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_top_level_layout_is_as_designed():
    for name in [
        "book",
        "src",
        "notebooks",
        "data",
        "tests",
        "_config.yml",
        "_toc.yml",
        "environment.yml",
        "README.md",
        "pyproject.toml",
        ".ci/run",
        "Makefile",
        "CITATION.cff",
        "LICENSE",
    ]:
        assert (ROOT / name).exists(), f"{name} is missing from the repository root"


def test_pyproject_declares_the_three_extras():
    extras = _pyproject()["project"]["optional-dependencies"]
    assert {"book", "test", "distributed"} <= set(extras)
    assert any(req.startswith("jupyter-book>=1.0.4,<2") for req in extras["book"])


#: The extras the set-up does not install: ``bench`` holds only the libraries the benchmarks
#: compare with (LightGBM, XGBoost and its CUDA communication library, about 350 MB), installed
#: on demand; benchmarks/bench_lightgbm.py skips them with a note when absent.
ON_DEMAND_EXTRAS = {"bench"}


def _environment_pip_requirements() -> list[str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert any(
        str(dep).startswith("python=3.11") for dep in env["dependencies"] if isinstance(dep, str)
    )
    pip = [dep["pip"] for dep in env["dependencies"] if isinstance(dep, dict) and "pip" in dep]
    assert len(pip) == 1, "environment.yml must have exactly one pip: section"
    return pip[0]


def test_environment_yml_installs_the_package_with_the_same_extras():
    reqs = _environment_pip_requirements()
    editable = [r for r in reqs if r.startswith("-e .")]
    assert len(editable) == 1, f"environment.yml must install the package editable: {reqs}"
    named = set(re.search(r"\[(.*)\]", editable[0]).group(1).split(","))
    assert named == set(_pyproject()["project"]["optional-dependencies"]) - ON_DEMAND_EXTRAS, (
        "environment.yml names other extras than pyproject.toml"
    )
    # Nothing else is pinned there: pyproject.toml is the single source of the package lists.
    assert reqs == editable


def test_makefile_installs_the_same_extras_as_environment_yml():
    makefile = (ROOT / "Makefile").read_text()
    extras = set(_pyproject()["project"]["optional-dependencies"]) - ON_DEMAND_EXTRAS
    match = re.search(r'pip install --quiet -e "\.\[(.*)\]"', makefile)
    assert match and set(match.group(1).split(",")) == extras


def test_readme_gives_the_two_commands_and_ci_calls_the_test_command():
    readme = (ROOT / "README.md").read_text()
    assert "make book" in readme and "make test" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test\b", ci, flags=re.M), ".ci/run must call `make test`"
    assert "book-strict" in ci
    assert "MARGINBOOST_DATA_MIRROR" in ci
    makefile = (ROOT / "Makefile").read_text()
    test_recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "--nbval" in test_recipe and "--nbval-sanitize-with" in test_recipe
    assert "-W" not in test_recipe
    assert "--strict" in makefile.split("\nbook-strict:", 1)[1].split("\n\n", 1)[0]


def test_book_configuration_builds_offline_without_execution():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["execute"]["execute_notebooks"] == "off"
    sphinx = config["sphinx"]["config"]
    static = ROOT / sphinx["html_static_path"][0]
    assert (static / sphinx["mathjax_path"]).is_file(), "vendored MathJax is missing"
    assert (static / "mathjax/output/chtml/fonts/woff-v2").is_dir()
    assert not sphinx["mathjax_path"].startswith("http")
    for bib in config["bibtex_bibfiles"]:
        assert (ROOT / bib).is_file()


def _toc_files(node) -> list[str]:
    files = []
    if isinstance(node, dict):
        if "file" in node:
            files.append(node["file"])
        if "root" in node:
            files.append(node["root"])
        for value in node.values():
            files += _toc_files(value)
    elif isinstance(node, list):
        for value in node:
            files += _toc_files(value)
    return files


def test_every_toc_entry_exists_and_every_notebook_is_in_the_toc():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = _toc_files(toc)
    for entry in files:
        candidates = [ROOT / f"{entry}.md", ROOT / f"{entry}.ipynb"]
        assert any(c.exists() for c in candidates), f"_toc.yml entry {entry} has no file"
    notebooks = {f"notebooks/{p.stem}" for p in (ROOT / "notebooks").glob("*-*.md")}
    assert notebooks <= set(files), f"notebooks missing from _toc.yml: {notebooks - set(files)}"


def test_pytest_never_collects_build_copies():
    options = _pyproject()["tool"]["pytest"]["ini_options"]
    assert "_build" in options["norecursedirs"]
    assert options["testpaths"] == ["tests", "notebooks"]


def test_public_estimators_are_importable_from_the_package():
    import marginboost

    for name in [
        "AnyBoost",
        "AdaBoost",
        "ArcGv",
        "ArcX4",
        "RealAdaBoost",
        "LogitBoost",
        "DoomII",
        "L2Boost",
        "MadaBoost",
        "LPBoost",
        "HingeLPBoost",
        "AdaBoostCG",
        "LogitBoostCG",
        "AdaBoostL1",
        "AdaBoostQP",
    ]:
        estimator = getattr(marginboost, name)
        assert hasattr(estimator, "fit") and hasattr(estimator, "decision_function")
        assert name in marginboost.__all__
    import pytest

    with pytest.raises(AttributeError, match="no attribute 'NoSuchBoost'"):
        marginboost.NoSuchBoost  # noqa: B018
