"""Imports run down the layers: kernels, weak learners and estimators never import from the
experiments layer (protocols, grids, stores) or the repository tooling."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "marginboost"
LOWER = sorted(
    [
        *(PACKAGE / "boosting").rglob("*.py"),
        *(PACKAGE / "weak").glob("*.py"),
        *(PACKAGE / "duality").glob("*.py"),
        *(PACKAGE / "losses").glob("*.py"),
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


def _module_graph() -> dict[str, set[str]]:
    """``{module: the package's modules it imports}``, imports inside functions included; a
    ``from package import name`` counts as importing the module ``package.name`` when there is
    one, the package otherwise."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)

    def resolve(name: str) -> str:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name

    graph = {}
    for module, (path, is_package) in modules.items():
        package = module if is_package else module.rpartition(".")[0]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                deps |= {resolve(a.name) for a in node.names if a.name.startswith("marginboost")}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    name = ".".join(base + ([node.module] if node.module else []))
                else:
                    name = node.module or ""
                if name.startswith("marginboost"):
                    deps |= {
                        resolve(f"{name}.{a.name}" if f"{name}.{a.name}" in modules else name)
                        for a in node.names
                    }
        graph[module] = deps - {module, ""}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_has_no_import_circle():
    """No module reaches itself through imports, those inside functions included."""
    graph = _module_graph()
    assert len(graph) > 80 and "marginboost.papers.dmcboost.claims" in graph
    assert _cycles(graph) == []
    # the check sees a circle where there is one
    assert _cycles(
        {**graph, "marginboost.papers": graph["marginboost.papers"] | {"marginboost.cli"}}
    )
