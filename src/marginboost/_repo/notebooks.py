"""Execute the project's notebooks and build the book.

The notebooks are jupytext MyST markdown files ``notebooks/<paper>-<item>.md`` (the reviewed
source).  Each has a cell tagged ``parameters`` with ``profile = "quick"``.  This module

* converts a source to ``.ipynb`` with jupytext and executes it with papermill (parameters
  injected, working directory ``notebooks/``), writing executed copies to the git-ignored
  ``_build/executed/<profile>/notebooks/`` folder (one folder per profile, so a quick run never
  replaces the input of the full-profile book); results go to ``_build/results`` (see
  :func:`marginboost._paths.results_dir`), never to the committed ``data/results``;
* refreshes the committed paired ``notebooks/<name>.ipynb`` files (quick profile, outputs kept)
  that ``pytest --nbval`` re-executes and compares;
* generates the book pages made from registries and results (datasets, scoreboard,
  performance) into a staged copy of the sources, marks each notebook page with the profile it
  was executed with, and runs ``jupyter-book build`` on it with notebook execution off.

The command line front-end is ``marginboost book`` / ``marginboost reproduce`` (see
:mod:`marginboost.cli`), and ``make book`` calls it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .._paths import require_project_root
from ..prose import fill_substitutions

__all__ = [
    "NotebookSource",
    "list_notebooks",
    "find_notebooks",
    "execute_notebook",
    "run_notebook",
    "NotebookRun",
    "executed_dir",
    "declared_parameters",
    "NotebookExecutionError",
    "refresh_reference_notebook",
    "generated_pages",
    "write_generated_pages",
    "build_book",
    "PROFILES",
    "PROFILE_NOTES",
]

#: Execution profiles understood by every notebook's ``parameters`` cell.
PROFILES = ("quick", "full")

#: Environment every notebook kernel runs in: no progress bars (their text is volatile) and
#: fixed hash seed, so outputs are reproducible. (MPLBACKEND is left alone: kernels need the
#: inline backend for figures to appear in the notebook.)
KERNEL_ENV = {"TQDM_DISABLE": "1", "PYTHONHASHSEED": "0"}

#: Extra command-line arguments of every kernel: ipykernel's own log lines (the start-up warning
#: "Kernel is running over TCP without encryption", once per notebook, and "KeyboardInterrupt
#: caught in kernel" when the client interrupts an idle kernel to shut it down) are not for
#: readers of a build log. An error in a cell still stops the run with its traceback.
KERNEL_ARGUMENTS = ["--IPKernelApp.log_level=CRITICAL"]

#: What each profile means, shown at the top of every notebook page of the book.
PROFILE_NOTES = {
    "full": (
        "This page was executed with the **full** profile: the paper's protocol, with any "
        "reduction of it stated on the page. Its grid cells are loaded from the committed "
        "results under `data/results/`."
    ),
    "quick": (
        "This page was executed with the **quick** profile: small grids that run in "
        "seconds, for tests. Its numbers are not the paper's protocol; the published book "
        "uses the full profile."
    ),
}


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


def find_notebooks(
    paper: str, item: str | None = None, root: Path | None = None
) -> list[NotebookSource]:
    """Notebooks of one paper (and optionally one item); a clear error when there are none."""
    from ..papers import protocol

    entry = protocol(paper)  # a clear error for an unknown paper
    if item is not None:
        entry.notebook(item)  # a clear error for an item the paper does not have
    notebooks = list_notebooks(root)
    chosen = [nb for nb in notebooks if nb.paper == paper and (item is None or nb.item == item)]
    if not chosen:
        raise ValueError(
            f"no notebook of {paper!r}" + (f" item {item!r}" if item else "") + " in this checkout"
        )
    return chosen


def _read_as_notebook(source: Path):
    import jupytext

    nb = jupytext.read(source)
    nb.metadata.setdefault(
        "kernelspec", {"name": "python3", "display_name": "Python 3", "language": "python"}
    )
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


def executed_dir(profile: str, root: Path | None = None) -> Path:
    """Folder of the executed notebooks of one profile: ``_build/executed/<profile>/notebooks``."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {PROFILES}")
    root = root or require_project_root()
    return root / "_build" / "executed" / profile / "notebooks"


@dataclass(frozen=True)
class NotebookRun:
    """What one notebook execution did: where it wrote, how long it took, its grid cells."""

    name: str
    profile: str
    output: Path
    seconds: float
    stored: int
    computed: int
    total: int

    def line(self) -> str:
        """One line for a build log: name, profile, seconds, cells from the store vs computed."""
        grid = (
            f"grid cells: {self.stored} from the store, {self.computed} computed"
            if self.total
            else "no grid"
        )
        return f"{self.name} ({self.profile}): {self.seconds:.1f} s, {grid}"


def run_notebook(
    source: NotebookSource,
    output: Path,
    *,
    profile: str = "quick",
    parameters: dict | None = None,
    progress: bool | None = None,
) -> NotebookRun:
    """Execute one notebook (see :func:`execute_notebook`) and return a :class:`NotebookRun`.

    ``progress`` draws a bar of the notebook's grid cells on standard error (default: only when
    standard error is a terminal).
    """
    from .._progress import GridProgress

    start = time.perf_counter()
    with GridProgress(source.name, bar=progress) as grid:
        _execute(source, output, profile=profile, parameters=parameters)
    return NotebookRun(
        source.name,
        profile,
        Path(output),
        time.perf_counter() - start,
        grid.stored,
        grid.computed,
        grid.total,
    )


def execute_notebook(
    source: NotebookSource,
    output: Path,
    *,
    profile: str = "quick",
    parameters: dict | None = None,
    progress: bool | None = False,
) -> Path:
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
    progress
        Draw a bar of the grid cells on standard error (``None``: only on a terminal).
    """
    if progress is False:
        return _execute(source, output, profile=profile, parameters=parameters)
    return run_notebook(
        source, output, profile=profile, parameters=parameters, progress=progress
    ).output


def _execute(
    source: NotebookSource, output: Path, *, profile: str, parameters: dict | None
) -> Path:
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
            str(staged),
            str(output),
            parameters=params,
            kernel_name="python3",
            cwd=str(source.path.parent),
            progress_bar=False,
            log_output=False,
            extra_arguments=KERNEL_ARGUMENTS,
        )
    except papermill.PapermillExecutionError as exc:
        raise NotebookExecutionError(
            f"{source.path.name} failed in cell {exc.exec_count}: {exc.ename}: {exc.evalue} "
            f"(the executed copy with the traceback is {output})"
        ) from exc
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
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,
        extra_arguments=KERNEL_ARGUMENTS,
        resources={"metadata": {"path": str(source.path.parent)}},
    )
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


def generated_pages(root: Path | None = None) -> dict[str, str]:
    """The book pages made from registries and results: ``{path under book/: markdown}``."""
    root = root or require_project_root()
    from ..data.page import datasets_page_markdown
    from ..experiments import scoreboard_markdown
    from ..experiments.scoreboard import not_reproduced_markdown
    from .apidoc import api_pages
    from .citation import how_to_cite_page
    from .performance import performance_page_markdown
    from .protocols_page import PAGE, full_protocols_page_markdown

    return {
        "datasets.md": datasets_page_markdown(),
        "scoreboard.md": scoreboard_markdown(root=root),
        "performance.md": performance_page_markdown(root),
        PAGE: full_protocols_page_markdown(root),
        "how-to-cite.md": how_to_cite_page(root),
        "not_reproduced.md": not_reproduced_markdown(root=root),
        **api_pages(),
    }


def write_generated_pages(root: Path | None = None, book_dir: Path | None = None) -> list[Path]:
    """Write the generated pages into ``book_dir`` (default: the checkout's ``book/``);
    return the pages whose text changed."""
    root = root or require_project_root()
    book_dir = Path(book_dir) if book_dir is not None else root / "book"
    changed = []
    for name, text in generated_pages(root).items():
        path = book_dir / name
        if not path.exists() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            changed.append(path)
    return changed


#: A line that :func:`marginboost.reporting.print_digest` prints (for nbval, not for readers).
_DIGEST_LINE = re.compile(
    r"^[^\n]*: n=(?:0|\d+ (?:min=\S+ max=\S+ mean=\S+|no finite values) "
    r"samples=\[[^\n]*\])$\n?",
    flags=re.M,
)


def _tag(cell, tag: str) -> None:
    tags = cell.metadata.setdefault("tags", [])
    if tag not in tags:
        tags.append(tag)


def _for_readers(nb) -> None:
    """Turn an executed notebook into a page for readers (the book's copy only).

    The committed notebooks keep everything ``pytest --nbval`` compares; on the page the
    plumbing goes: the parameters cells are removed, the code of the cell that writes the key
    numbers is removed (its output stays), the rounded digests printed for nbval are dropped from
    the outputs, and every other code cell is folded (``hide-input``), so that a reader sees the
    claim, the tables and figures and the reading, and can unfold the code to rerun it.
    """
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tags = cell.metadata.get("tags", [])
        if "parameters" in tags or "injected-parameters" in tags:
            _tag(cell, "remove-cell")
            continue
        if "save_key_numbers(" in cell.source:
            _tag(cell, "remove-input")
        else:
            _tag(cell, "hide-input")
        outputs = []
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                output["text"] = _DIGEST_LINE.sub("", output["text"])
                if not output["text"].strip():
                    continue
            outputs.append(output)
        cell["outputs"] = outputs


def _mark_profile(notebook_path: Path, target: Path) -> None:
    """Copy an executed notebook for the book: a note of its profile after its title, and the
    plumbing hidden (:func:`_for_readers`)."""
    import nbformat

    nb = nbformat.read(notebook_path, as_version=4)
    _for_readers(nb)
    profile = (nb.metadata.get("papermill", {}).get("parameters", {}) or {}).get("profile")
    if profile in PROFILE_NOTES:
        note = nbformat.v4.new_markdown_cell(
            f":::{{note}}\n{PROFILE_NOTES[profile]}\n:::", metadata={"tags": ["profile-note"]}
        )
        note.id = "profile-note"
        first_markdown = next((i for i, c in enumerate(nb.cells) if c.cell_type == "markdown"), -1)
        nb.cells.insert(first_markdown + 1, note)
    nbformat.write(nb, target)


def _append_cite_blocks(root: Path, book_dir: Path) -> None:
    """End every paper's chapter (in the staged copy) with links to the API entries of its
    estimators and its "Cite this chapter" block."""
    from .apidoc import chapter_api_block
    from .citation import CHAPTER_PAPERS, cite_chapter_block

    for stem in CHAPTER_PAPERS:
        page = book_dir / f"{stem}.md"
        if page.exists():
            text = page.read_text()
            page.write_text(
                text.rstrip("\n")
                + chapter_api_block(stem).rstrip("\n")
                + cite_chapter_block(root, stem, text)
            )


def _stage_source_tree(
    root: Path, executed: Path, stage: Path, regenerate_pages: bool = True
) -> None:
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    for name in ("_config.yml", "_toc.yml"):
        shutil.copy2(root / name, stage / name)
    shutil.copytree(root / "book", stage / "book")
    # the numbers a chapter quotes from the committed key numbers (marginboost.prose)
    fill_substitutions(root, stage / "book")
    if regenerate_pages:
        write_generated_pages(root, stage / "book")
    _append_cite_blocks(root, stage / "book")
    (stage / "notebooks").mkdir()
    for nb in sorted(executed.glob("*.ipynb")):
        if not nb.name.startswith("."):
            _mark_profile(nb, stage / "notebooks" / nb.name)


def _run_for_book(nb: NotebookSource, output: Path, profile: str, bar: bool | None):
    return run_notebook(nb, output, profile=profile, progress=bar)


def _run_notebooks(notebooks, executed: Path, profile: str, jobs: int):
    """Execute the notebooks, ``jobs`` at once, yielding each :class:`NotebookRun` as it ends."""
    if jobs == 1 or len(notebooks) < 2:
        for nb in notebooks:
            yield run_notebook(nb, executed / f"{nb.name}.ipynb", profile=profile)
        return
    import multiprocessing
    from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait

    # a process per notebook at a time: the kernel environment and the progress file of a run
    # are set in its process' environment; bars from several runs would interleave, so none
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(notebooks)), mp_context=context) as pool:
        pending = {
            pool.submit(_run_for_book, nb, executed / f"{nb.name}.ipynb", profile, False)
            for nb in notebooks
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_EXCEPTION)
            for future in done:
                error = future.exception()
                if error is not None:
                    for other in pending:
                        other.cancel()
                    raise error
                yield future.result()


def build_book(
    *,
    profile: str = "quick",
    warnings_as_errors: bool = False,
    execute: bool = True,
    use_reference_notebooks: bool = False,
    build_dir: Path | None = None,
    regenerate_pages: bool = True,
    root: Path | None = None,
    jobs: int = 1,
) -> Path:
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
        Generate the pages made from registries and results (datasets, scoreboard,
        performance) into the staged copy of ``book/`` (the committed copies are not touched;
        ``marginboost results update`` refreshes them).
    jobs
        Notebooks executed at once, each in a process of its own (its kernel, its progress
        file); the executed notebooks do not depend on it.

    Returns
    -------
    pathlib.Path
        The built ``index.html``.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number >= 1; got {jobs!r}")
    root = root or require_project_root()
    build = Path(build_dir) if build_dir is not None else root / "_build"
    notebooks = list_notebooks(root)
    if use_reference_notebooks:
        executed = root / "notebooks"
    else:
        executed = build / "executed" / profile / "notebooks"
        if execute:
            start_all = time.perf_counter()
            for i, run in enumerate(_run_notebooks(notebooks, executed, profile, jobs), 1):
                print(f"[{i}/{len(notebooks)}] {run.line()}", flush=True)
            print(
                f"executed {len(notebooks)} notebooks in {time.perf_counter() - start_all:.0f} s"
                + (f" ({jobs} at once)" if jobs > 1 else ""),
                flush=True,
            )
    missing = [nb.name for nb in notebooks if not (executed / f"{nb.name}.ipynb").exists()]
    if missing:
        raise FileNotFoundError(
            f"no executed copy of {', '.join(missing)} in {executed}; "
            "run the build with execution on"
        )
    stage = build / "source"
    _stage_source_tree(root, executed, stage, regenerate_pages)
    jb = shutil.which("jupyter-book", path=str(Path(sys.executable).parent)) or shutil.which(
        "jupyter-book"
    )
    if jb is None:
        raise FileNotFoundError(
            "jupyter-book is not installed; install the [book] extra "
            "(pip install -e '.[book]') or run `make book`"
        )
    cmd = [jb, "build", str(stage), "--path-output", str(build / "book")]
    if warnings_as_errors:
        cmd += ["-W", "--keep-going"]
    if not sys.stdout.isatty():
        cmd.append("-q")  # in a log: Sphinx's warnings only, not its per-page status lines
    print("building the HTML book:", " ".join(cmd[1:]), flush=True)
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    print(f"built the HTML book in {time.perf_counter() - start:.0f} s", flush=True)
    index = build / "book" / "_build" / "html" / "index.html"
    if not index.exists():
        raise FileNotFoundError(f"jupyter-book finished but {index} is missing")
    return index
