"""Execute the project's notebooks and build the book.

The notebooks are jupytext MyST markdown files ``notebooks/<paper>-<item>.md`` (the reviewed
source).  Each has a cell tagged ``parameters`` with ``profile = "quick"``.  This module

* converts a source to ``.ipynb`` with jupytext and executes it with papermill (parameters
  injected, working directory ``notebooks/``), writing executed copies to the git-ignored
  ``_build/executed/notebooks/`` folder;
* refreshes the committed paired ``notebooks/<name>.ipynb`` files (quick profile, outputs kept)
  that ``pytest --nbval`` re-executes and compares;
* regenerates the generated book pages (datasets, scoreboard);
* stages a clean source tree and runs ``jupyter-book build`` on it with notebook execution off.

The command line front-end is ``marginboost book`` / ``marginboost reproduce`` (see
:mod:`marginboost.cli`), and ``make book`` calls it.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ._paths import require_project_root

__all__ = ["NotebookSource", "list_notebooks", "find_notebooks", "execute_notebook",
           "declared_parameters", "NotebookExecutionError",
           "refresh_reference_notebook", "write_generated_pages", "build_book", "PROFILES"]

#: Execution profiles understood by every notebook's ``parameters`` cell.
PROFILES = ("quick", "full")

#: Environment every notebook kernel runs in: no progress bars (their text is volatile) and
#: fixed hash seed, so outputs are reproducible. (MPLBACKEND is left alone: kernels need the
#: inline backend for figures to appear in the notebook.)
KERNEL_ENV = {"TQDM_DISABLE": "1", "PYTHONHASHSEED": "0"}


class NotebookExecutionError(RuntimeError):
    """A notebook raised an exception while it was executed."""


@dataclass(frozen=True)
class NotebookSource:
    """One notebook: its MyST source and where its paired/executed copies live."""

    path: Path

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def paper(self) -> str:
        return self.name.split("-", 1)[0]

    @property
    def item(self) -> str:
        parts = self.name.split("-", 1)
        return parts[1] if len(parts) == 2 else ""

    @property
    def paired_ipynb(self) -> Path:
        return self.path.with_suffix(".ipynb")


def list_notebooks(root: Path | None = None) -> list[NotebookSource]:
    """All notebook sources ``notebooks/*.md`` of the checkout, sorted by name."""
    root = root or require_project_root()
    return [NotebookSource(p) for p in sorted((root / "notebooks").glob("*-*.md"))]


def find_notebooks(paper: str, item: str | None = None, root: Path | None = None
                   ) -> list[NotebookSource]:
    """Notebooks of one paper (and optionally one item); a clear error when there are none."""
    notebooks = list_notebooks(root)
    papers = sorted({nb.paper for nb in notebooks})
    chosen = [nb for nb in notebooks if nb.paper == paper and (item is None or nb.item == item)]
    if not chosen:
        if paper not in papers:
            raise ValueError(f"unknown paper {paper!r}; papers with notebooks: {', '.join(papers)}")
        items = sorted(nb.item for nb in notebooks if nb.paper == paper)
        raise ValueError(f"paper {paper!r} has no item {item!r}; its items: {', '.join(items)}")
    return chosen


def _read_as_notebook(source: Path):
    import jupytext

    nb = jupytext.read(source)
    nb.metadata.setdefault("kernelspec", {"name": "python3", "display_name": "Python 3",
                                          "language": "python"})
    return nb


def _enter_kernel_environment() -> dict[str, str]:
    """Set :data:`KERNEL_ENV` for a kernel about to start; return the environment to restore.

    tqdm reads its ``TQDM_*`` defaults once, when it is first imported, so it is imported here
    first: otherwise progress bars of this process would stay disabled after the restore.
    """
    import tqdm  # noqa: F401

    saved = dict(os.environ)
    os.environ.update(KERNEL_ENV)
    return saved


def declared_parameters(nb) -> set[str]:
    """Names assigned in the notebook's cell tagged ``parameters``."""
    import ast

    names: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", []):
            for node in ast.parse(cell.source).body:
                if isinstance(node, ast.Assign):
                    names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    names.add(node.target.id)
    return names


def execute_notebook(source: NotebookSource, output: Path, *, profile: str = "quick",
                     parameters: dict | None = None, progress: bool = True) -> Path:
    """Execute one notebook with papermill and write the executed ``.ipynb`` to ``output``.

    Parameters
    ----------
    source
        The notebook (MyST markdown) to run.
    output
        Where the executed notebook goes (its folder is created).
    profile
        ``"quick"`` or ``"full"``; injected into the ``parameters`` cell.
    parameters
        Further parameters to inject (``jobs``, ``scheduler``).
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {PROFILES}")
    import nbformat
    import papermill

    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    staged = output.with_name(f".{output.stem}.source.ipynb")
    nb = _read_as_notebook(source.path)
    declared = declared_parameters(nb)
    if "profile" not in declared:
        raise ValueError(f"{source.path.name} has no `profile` in a cell tagged `parameters`")
    # Inject only what the notebook declares (papermill would warn about the rest); jobs and
    # scheduler matter only to notebooks that run grids.
    params = {"profile": profile, **{k: v for k, v in (parameters or {}).items() if k in declared}}
    nbformat.write(nb, staged)
    # papermill starts the kernel with this process' environment
    saved_env = _enter_kernel_environment()
    try:
        papermill.execute_notebook(
            str(staged), str(output), parameters=params, kernel_name="python3",
            cwd=str(source.path.parent), progress_bar=progress, log_output=False,
        )
    except papermill.PapermillExecutionError as exc:
        raise NotebookExecutionError(
            f"{source.path.name} failed in cell {exc.exec_count}: {exc.ename}: {exc.evalue} "
            f"(the executed copy with the traceback is {output})") from exc
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        staged.unlink(missing_ok=True)
    return output


def refresh_reference_notebook(source: NotebookSource, timeout: int = 1800) -> Path:
    """Re-execute a notebook (quick profile) into its committed paired ``.ipynb``.

    The paired file keeps the source cells exactly (so the drift test can compare them) plus the
    quick-profile outputs that ``pytest --nbval`` compares against.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = _read_as_notebook(source.path)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(source.path.parent)}})
    saved_env = _enter_kernel_environment()
    try:
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
    # Stable cell ids (jupytext draws random ones), so that a refresh without a change of the
    # source or the outputs leaves the committed file byte-identical.
    for index, cell in enumerate(nb.cells):
        cell.id = f"cell-{index:03d}"
    nbformat.write(nb, source.paired_ipynb)
    return source.paired_ipynb


def write_generated_pages(root: Path | None = None) -> list[Path]:
    """Regenerate the book pages made from registries and results (datasets, scoreboard,
    performance)."""
    root = root or require_project_root()
    from .data.page import datasets_page_markdown
    from .experiments import scoreboard_markdown
    from .experiments.performance import performance_page_markdown

    pages = {root / "book" / "datasets.md": datasets_page_markdown(),
             root / "book" / "scoreboard.md": scoreboard_markdown(),
             root / "book" / "performance.md": performance_page_markdown(root)}
    for path, text in pages.items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    return list(pages)


def _stage_source_tree(root: Path, executed: Path, stage: Path) -> None:
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    for name in ("_config.yml", "_toc.yml"):
        shutil.copy2(root / name, stage / name)
    shutil.copytree(root / "book", stage / "book")
    (stage / "notebooks").mkdir()
    for nb in sorted(executed.glob("*.ipynb")):
        if not nb.name.startswith("."):
            shutil.copy2(nb, stage / "notebooks" / nb.name)


def build_book(*, profile: str = "quick", warnings_as_errors: bool = False,
               execute: bool = True, use_reference_notebooks: bool = False,
               build_dir: Path | None = None, regenerate_pages: bool = True,
               root: Path | None = None) -> Path:
    """Execute every notebook, regenerate generated pages and build the HTML book.

    Parameters
    ----------
    profile
        Profile injected into every notebook's ``parameters`` cell.
    warnings_as_errors
        Pass ``-W --keep-going`` to jupyter-book (Sphinx warnings fail the build).
    execute
        Execute the notebooks with papermill; ``False`` reuses earlier executed copies.
    use_reference_notebooks
        Build from the committed quick-profile ``notebooks/*.ipynb`` instead of executing
        (fast; used by the browser test).
    build_dir
        Output folder (default ``<checkout>/_build``).
    regenerate_pages
        Rewrite the generated pages (datasets, scoreboard) from the registries first.

    Returns
    -------
    pathlib.Path
        The built ``index.html``.
    """
    root = root or require_project_root()
    build = Path(build_dir) if build_dir is not None else root / "_build"
    notebooks = list_notebooks(root)
    if use_reference_notebooks:
        executed = root / "notebooks"
    else:
        executed = build / "executed" / "notebooks"
        if execute:
            for i, nb in enumerate(notebooks, 1):
                start = time.perf_counter()
                print(f"[{i}/{len(notebooks)}] executing {nb.path.relative_to(root)} "
                      f"(profile={profile})", flush=True)
                execute_notebook(nb, executed / f"{nb.name}.ipynb", profile=profile)
                print(f"    done in {time.perf_counter() - start:.1f} s", flush=True)
    missing = [nb.name for nb in notebooks if not (executed / f"{nb.name}.ipynb").exists()]
    if missing:
        raise FileNotFoundError(f"no executed copy of {', '.join(missing)} in {executed}; "
                                "run the build with execution on")
    if regenerate_pages:
        write_generated_pages(root)
    stage = build / "source"
    _stage_source_tree(root, executed, stage)
    jb = shutil.which("jupyter-book", path=str(Path(sys.executable).parent)) or shutil.which(
        "jupyter-book")
    if jb is None:
        raise FileNotFoundError("jupyter-book is not installed; install the [book] extra "
                                "(pip install -e '.[book]') or run `make book`")
    cmd = [jb, "build", str(stage), "--path-output", str(build / "book")]
    if warnings_as_errors:
        cmd += ["-W", "--keep-going"]
    print("building the HTML book:", " ".join(cmd[1:]), flush=True)
    subprocess.run(cmd, check=True)
    index = build / "book" / "_build" / "html" / "index.html"
    if not index.exists():
        raise FileNotFoundError(f"jupyter-book finished but {index} is missing")
    return index
