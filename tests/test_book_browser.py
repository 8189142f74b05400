"""The built book, opened in headless Chromium: title, typeset math, loaded figures, no CDN.

By default the book is built (from the committed quick-profile notebooks, without executing them)
into a temporary folder and served on 127.0.0.1.  With ``MARGINBOOST_BOOK_HTML`` set to the HTML
folder of a book already built (``make book`` writes ``_build/book/_build/html``), that book is
served instead: `.ci/run` checks the full-profile book this way after building it.  Skipped, with
the reason, when Chromium or Playwright is not installed (`.ci/run` installs both).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("headless Chromium is not installed (Debian package `chromium`)")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep the test output readable
        pass


#: The environment variable naming the HTML folder of a book already built, to check instead of
#: building one from the committed notebooks.
BUILT_BOOK_VARIABLE = "MARGINBOOST_BOOK_HTML"


def _built_book() -> Path | None:
    """The HTML folder named by :data:`BUILT_BOOK_VARIABLE`, or ``None`` when it is unset."""
    value = os.environ.get(BUILT_BOOK_VARIABLE, "").strip()
    if not value:
        return None
    html = Path(value).resolve()
    if not (html / "index.html").is_file():
        raise FileNotFoundError(
            f"{BUILT_BOOK_VARIABLE}={value!r} has no index.html; build the book first "
            "(`make book` writes _build/book/_build/html)"
        )
    return html


@pytest.fixture(scope="module")
def served_book(tmp_path_factory):
    html = _built_book()
    if html is None:
        from marginboost._repo.notebooks import build_book

        build = tmp_path_factory.mktemp("book")
        index = build_book(
            use_reference_notebooks=True, build_dir=build, regenerate_pages=False, root=ROOT
        )
        html = index.parent
    handler = functools.partial(_QuietHandler, directory=str(html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", html
    server.shutdown()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    executable = _chromium()
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (the [test] extra)"
    )
    user_data = tmp_path_factory.mktemp("chromium-profile")
    with playwright.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(user_data),
            executable_path=executable,
            headless=True,
            args=[a for a in CHROMIUM_FLAGS if a != "--headless"],
        )
        yield context
        context.close()


def _open(context, url: str):
    page = context.new_page()
    requests: list[str] = []
    failed: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto(url, wait_until="networkidle")
    page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("() => MathJax.startup.promise")
    return page, requests, failed


def _assert_local_only(base: str, requests: list[str], failed: list[str]) -> None:
    host = urlparse(base).netloc
    outside = [
        u
        for u in requests
        if urlparse(u).scheme in ("http", "https") and urlparse(u).netloc != host
    ]
    assert not outside, f"the page loads from outside the book: {outside[:5]}"
    assert not failed, f"failed requests: {failed[:5]}"


def test_intro_page_has_title_and_typeset_math(served_book, browser):
    base, html = served_book
    page, requests, failed = _open(browser, f"{base}/book/intro.html")
    assert "Margins, duality and direct optimization in boosting" in page.title()
    heading = page.locator("h1").first.inner_text()
    assert "Margins, duality and direct optimization" in heading
    typeset = page.evaluate("() => document.querySelectorAll('mjx-container').length")
    assert typeset >= 3, "MathJax did not typeset the page's math"
    raw_tex = page.evaluate("() => document.body.innerText.includes('\\\\frac{y_i')")
    assert not raw_tex, "raw TeX is visible: math was not typeset"
    _assert_local_only(base, requests, failed)
    shot = html.parent / "intro.png"
    page.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 10_000


def test_notebook_page_shows_its_figures_and_math(served_book, browser):
    base, html = served_book
    page, requests, failed = _open(browser, f"{base}/notebooks/shen_li-figure2.html")
    assert page.locator("h1").first.inner_text().strip()
    images = page.evaluate(
        "() => Array.from(document.images).filter(i => i.src.includes('.png'))"
        ".map(i => [i.src, i.complete, i.naturalWidth])"
    )
    assert images, "the notebook page shows no figure"
    assert all(complete and width > 100 for _, complete, width in images), images
    typeset = page.evaluate("() => document.querySelectorAll('mjx-container').length")
    assert typeset >= 1
    _assert_local_only(base, requests, failed)
    shot = html.parent / "notebook.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


# Real top-level domains of the sites the book links to; a link whose host ends otherwise (for
# example "AdaBoost.MH" or "DUALITY.md" turned into a link) points at a host that does not exist.
_REAL_TLDS = {
    "com",
    "org",
    "net",
    "edu",
    "io",
    "gov",
    "de",
    "uk",
    "cc",
    "ai",
    "fr",
    "nl",
    "ch",
    "int",
    "info",
    "dev",
    "jp",
    "cn",
    "ca",
    "au",
    "eu",
}


def _pages(html: Path) -> list[str]:
    return sorted(
        str(p.relative_to(html))
        for p in html.rglob("*.html")
        if p.parent.name in ("book", "notebooks", "api") and "_static" not in p.parts
    )


def test_every_page_reads_as_a_page(served_book, browser):
    """Every chapter, notebook and API page: links only to real hosts, every image loaded, no
    horizontal overflow at 1280 px, and no test plumbing in the visible text."""
    base, html = served_book
    pages = _pages(html)
    assert len(pages) > 30
    problems = []
    page = browser.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    for name in pages:
        page.goto(f"{base}/{name}", wait_until="load")
        hosts = page.evaluate(
            "() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"
            ".filter(h => h.startsWith('http')).map(h => new URL(h).hostname)"
        )
        local = urlparse(base).hostname
        bogus = sorted({h for h in hosts if h != local and h.rsplit(".", 1)[-1] not in _REAL_TLDS})
        if bogus:
            problems.append(f"{name}: links to hosts that do not exist: {bogus}")
        broken = page.evaluate(
            "() => Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)"
            ".map(i => i.src)"
        )
        if broken:
            problems.append(f"{name}: images that did not load: {broken[:3]}")
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        if overflow > 1:
            problems.append(f"{name}: the page is {overflow} px wider than the window")
        text = page.evaluate("() => document.body.innerText")
        for plumbing in ("save_key_numbers", "print_digest", " samples=["):
            if plumbing in text:
                problems.append(f"{name}: shows test plumbing ({plumbing!r})")
    page.close()
    assert not problems, "\n".join(problems)


def test_api_pages_and_cite_blocks_exist(served_book, browser):
    base, html = served_book
    page = browser.new_page()
    page.goto(f"{base}/book/api/estimators.html", wait_until="load")
    documented = page.evaluate(
        "() => Array.from(document.querySelectorAll('dl.py.class > dt')).map(d => d.id)"
    )
    import marginboost

    for name in marginboost.__all__:
        if name != "__version__":
            assert f"marginboost.{name}" in documented, f"no API entry for {name}"
    for chapter in ("anyboost", "shen_li", "mcboost", "directboost", "dmcboost"):
        page.goto(f"{base}/book/{chapter}.html", wait_until="load")
        text = page.evaluate("() => document.body.innerText")
        assert "Cite this chapter" in text and "@incollection{marginboost-" in text, chapter
        links = page.evaluate(
            "() => Array.from(document.querySelectorAll('a[href]'))"
            ".map(a => a.getAttribute('href'))"
        )
        assert any("api/estimators.html#marginboost." in link for link in links), (
            f"{chapter} does not link to the API entries of its estimators"
        )
    page.goto(f"{base}/book/how-to-cite.html", wait_until="load")
    assert "@software{marginboost" in page.evaluate("() => document.body.innerText")
    page.close()


#: What a reader must not meet on a page, each found by one check of :func:`_reader_problems`.
READER_CHECKS = {
    "hidden table columns": "a table wider than the text column (its columns scroll out of view)",
    "cut-off output": "an output line wider than the text column (cut off at the page edge)",
    "stderr box": "a stderr box (a warning or log line a run printed)",
    "LaTeX source": "LaTeX source in the prose, a table or an output instead of typeset math",
    "Python repr": "a Python repr (np.float64(...), {'key': ...}) instead of a table or words",
    "missing file": "a reference to a file the repository does not have",
    "broken link": "a link to a page or file of the book that does not exist",
}

_READER_JS = r"""() => {
  const wide = el => el.scrollWidth > el.clientWidth + 8;  // fonts differ by a few pixels
  const article = document.querySelector('article') || document.body;
  const outputs = Array.from(article.querySelectorAll('.cell_output'));
  const prose = Array.from(article.querySelectorAll('p, li, td, th, .cell_output'));
  const proseText = prose.map(e => e.innerText).join('\n');
  const outputText = outputs.map(e => e.innerText).join('\n');
  return {
    tables: Array.from(article.querySelectorAll('table')).filter(wide).length,
    pres: Array.from(article.querySelectorAll('.cell_output pre')).filter(wide).length,
    stderr: article.querySelectorAll('.cell_output .stderr, .output.stderr').length,
    latex: /\\(begin|frac|left|right|max|log|tanh|sum|mathrm|operatorname)\b/.test(proseText),
    repr: /np\.(int|float)\d*\(|\{'[^'\n]{1,40}': /.test(outputText),
    missing: /DUALITY\.md|ALGORITHMS\.md|\.\.\/shared/.test(article.innerText),
    hrefs: Array.from(article.querySelectorAll('a[href]')).map(a => a.getAttribute('href')),
  };
}"""


def _reader_problems(page, html: Path, name: str) -> set[str]:
    """The :data:`READER_CHECKS` a page at 1280 px fails."""
    found = page.evaluate(_READER_JS)
    problems = {
        kind
        for kind, hit in [
            ("hidden table columns", found["tables"]),
            ("cut-off output", found["pres"]),
            ("stderr box", found["stderr"]),
            ("LaTeX source", found["latex"]),
            ("Python repr", found["repr"]),
            ("missing file", found["missing"]),
        ]
        if hit
    }
    folder = (html / name).parent
    for href in found["hrefs"]:
        target = href.split("#", 1)[0]
        if not target or urlparse(target).scheme or target.startswith("//"):
            continue
        if not (folder / target).resolve().exists():
            problems.add("broken link")
    return problems


#: The pages that fail some of the reader checks, and which (measured on the book built from the
#: committed notebooks): none today.  The test fails when a page gains a problem; a page listed
#: here that no longer has one is reported, to be removed.
KNOWN_READER_PROBLEMS: dict[str, set[str]] = {}


def test_every_page_passes_the_readers_checks_or_is_listed(served_book, browser):
    """At 1280 px, every page of the book: no hidden table columns, no cut-off output, no stderr
    box, no LaTeX source, no Python repr, no missing file, no broken link — except the pages
    listed in :data:`KNOWN_READER_PROBLEMS`, which fail at most what is listed."""
    base, html = served_book
    page = browser.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    found = {}
    for name in _pages(html):
        page.goto(f"{base}/{name}", wait_until="networkidle")
        # pages with math load MathJax: wait until it has typeset them
        page.evaluate("() => window.MathJax && MathJax.startup ? MathJax.startup.promise : null")
        problems = _reader_problems(page, html, name)
        if problems:
            found[name] = problems
    page.close()
    assert set().union(*found.values(), set()) <= set(READER_CHECKS)
    new = {n: kinds - KNOWN_READER_PROBLEMS.get(n, set()) for n, kinds in found.items()}
    new = {n: kinds for n, kinds in new.items() if kinds}
    report = "\n".join(f"{name}: {sorted(kinds)}" for name, kinds in sorted(new.items()))
    assert not new, f"pages with problems a reader must not meet:\n{report}"
    fixed = {
        n: sorted(kinds - found.get(n, set()))
        for n, kinds in KNOWN_READER_PROBLEMS.items()
        if kinds - found.get(n, set())
    }
    if fixed:
        import warnings

        warnings.warn(
            f"fixed since listed (remove from KNOWN_READER_PROBLEMS): {fixed}", stacklevel=2
        )
