"""Imports run down the layers: kernels, weak learners and estimators never import from the
experiments layer (protocols, grids, stores) or the repository tooling."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "marginboost"
LOWER = sorted(
    [
        *(PACKAGE / "boosting").glob("*.py"),
        *(PACKAGE / "weak").glob("*.py"),
        *(PACKAGE / "duality").glob("*.py"),
        PACKAGE / "losses.py",
        PACKAGE / "margins.py",
    ]
)
UPPER = ("experiments", "papers", "_repo", "reporting", "cli", "plotting")


def _imported_modules(path: Path) -> list[str]:
    package = path.parent.relative_to(PACKAGE.parent).parts
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            names.append(".".join(base + ([node.module] if node.module else [])))
    return names


@pytest.mark.parametrize("path", LOWER, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_lower_layers_do_not_import_upper_ones(path):
    upward = [
        name
        for name in _imported_modules(path)
        if any(
            name == f"marginboost.{top}" or name.startswith(f"marginboost.{top}.") for top in UPPER
        )
    ]
    assert not upward, f"{path.name} imports {upward}"


#: The only modules outside the repository tooling that may import it: the command line (its
#: book, notebooks, reproduce and results subcommands) and ``marginboost results update``.
REPO_TOOLING_USERS = {"cli.py", "experiments/update.py"}
LIBRARY = sorted(
    p
    for p in PACKAGE.rglob("*.py")
    if "_repo" not in p.relative_to(PACKAGE).parts
    and str(p.relative_to(PACKAGE)) not in REPO_TOOLING_USERS
)


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_library_does_not_import_the_repository_tooling(path):
    tooling = [
        name
        for name in _imported_modules(path)
        if name == "marginboost._repo" or name.startswith("marginboost._repo.")
    ]
    assert not tooling, f"{path.relative_to(PACKAGE)} imports {tooling}"


def test_repository_tooling_users_exist():
    assert all((PACKAGE / name).is_file() for name in REPO_TOOLING_USERS)
