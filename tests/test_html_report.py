"""The HTML report (`--report FILE.html`; htmlreport.py, heapsvg.py,
costplot.py): what a page holds for a module and for a package run, read
back from the page; and the page in a real headless Chromium (no script
errors, pictures drawn, a screenshot kept in the test artefacts)."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pathcraft.report.heapsvg import changed_rows, heap_svg
from pathcraft.report.htmlreport import function_lines

HERE = Path(__file__).resolve().parent
LINKED = HERE / "fixtures" / "linked.py"
ARTEFACTS = Path(os.environ.get("PATHCRAFT_ARTEFACTS", HERE.parent / "test-artefacts"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Balanced(HTMLParser):
    """Checks that every element the page opens it closes, in order."""

    VOID = {"meta", "br", "img", "input", "link", "hr", "path", "circle", "line", "rect"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids += [v for k, v in attrs if k == "id" and v]
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids += [v for k, v in attrs if k == "id" and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()


def gen(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pathcraft", "gen", *arguments], capture_output=True, text=True,
                          cwd=cwd)


@pytest.fixture(scope="module")
def module_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("report")
    done = gen(str(LINKED), "-o", str(folder / "test_linked.py"), "--costs", "steps,memory",
               "--report", str(folder / "linked.html"), cwd=folder)
    assert done.returncode == 0, done.stderr
    return (folder / "linked.html").read_text(encoding="utf-8")


def test_the_page_is_well_formed_with_unique_ids(module_page: str) -> None:
    checker = Balanced()
    checker.feed(module_page)
    assert checker.stack == ["html", "body"] or checker.stack == []  # </body></html> close them
    assert len(checker.ids) == len(set(checker.ids))


def test_each_function_says_which_of_its_lines_its_tests_reach(module_page: str) -> None:
    tree = ast.parse(LINKED.read_text())
    for qualname in ("count_to_cycle", "SList.remove_first", "BST.insert"):
        span = function_lines(tree, qualname)
        assert span is not None
        found = re.search(rf'{re.escape(qualname)}</h3> (\d+) tests, lines reached: (\d+) of (\d+)', module_page)
        assert found is not None, qualname
        assert int(found.group(3)) == len(span[2]) and int(found.group(1)) > 0
    # every source line shown is one of the file's, marked reached ("run") or not ("mis") where it is a statement
    shown = re.findall(r'<span class="line (run|mis|)"><span class="no">(\d+)</span>', module_page)
    assert {kind for kind, _ in shown} >= {"run"}


def test_object_graphs_show_cycles_and_aliasing() -> None:
    cycle = {"a": {"class": "Node", "fields": {"next": {"$ref": "b"}}},
             "b": {"class": "Node", "fields": {"next": {"$ref": "a"}}}}
    picture = heap_svg(cycle, {"n": {"$ref": "a"}})
    assert picture.count('class="edge back"') == 1 and "Node ×2" in picture  # b -> a goes back; a is reached twice
    shared = {"l": {"class": "Pair", "fields": {"x": {"$ref": "o"}, "y": {"$ref": "o"}}},
              "o": {"class": "Box", "fields": {"v": 1}}}
    picture = heap_svg(shared, {"p": {"$ref": "l"}})
    assert 'class="object aliased"' in picture and "back" not in picture
    after = {**shared, "o": {"class": "Box", "fields": {"v": 2}}}
    assert changed_rows(shared, after) == {"o.v"}


def test_a_symbolic_cost_is_plotted_against_the_parameter_it_is_written_in(tmp_path: Path) -> None:
    source = tmp_path / "alloc.py"
    source.write_text("def fill(n: int) -> list[int]:\n    if n > 5:\n        raise ValueError('big')\n"
                      "    return [0] * n\n")
    done = gen(str(source), "-o", str(tmp_path / "test_alloc.py"), "--costs", "memory",
               "--report", str(tmp_path / "alloc.html"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "alloc.html").read_text()
    if "memory = <code>" not in page or not re.search(r"memory = <code>[^<]*n", page):
        pytest.skip("no symbolic memory cost for this function")
    assert 'class="plot"' in page and '>n</text>' in page


@pytest.fixture(scope="module")
def package_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pkgreport")
    package = root / "shapes"
    package.mkdir()
    (package / "__init__.py").write_text("")
    shutil.copy(LINKED, package / "linked.py")
    (package / "untyped.py").write_text("def f(x):\n    return x.y\n")
    done = gen(str(package), "-o", str(root / "generated"), "-q", "--jobs", "2", "--report",
               str(root / "report.html"), cwd=root)
    assert done.returncode == 0, done.stderr
    return root / "report.html"


def test_a_package_page_lists_modules_tests_and_refused_functions(package_page: Path) -> None:
    page = package_page.read_text()
    assert "shapes/linked.py" in page and "shapes/untyped.py" in page
    assert re.search(r"<h4>Refused</h4><ul class=\"refused\"><li><code>f</code>", page)
    tests = len(re.findall(r'<details class="test">', page))
    written = sum(p.read_text().count("\ndef test_") for p in (package_page.parent / "generated").rglob("*.py"))
    assert tests == written > 0


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (.ci/run installs Debian's)")
def test_the_page_in_a_headless_browser(package_page: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
                  "--disable-background-networking", "--disable-component-update"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1600})
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(package_page.as_uri())
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            pictures = page.locator("svg.heap")
            assert pictures.count() > 10
            box = pictures.first.bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 30
            assert page.locator("svg.heap .edge.back").count() > 0  # count_to_cycle's cyclic inputs
            assert page.locator("svg.heap .aliased").count() > 0
            assert page.locator("pre.source .run").count() > 0
            page.locator("#shapes-linked-py-count_to_cycle").scroll_into_view_if_needed()
            ARTEFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTEFACTS / "html-report.png"))
        finally:
            browser.close()
    assert errors == []
    assert (ARTEFACTS / "html-report.png").stat().st_size > 10_000


def test_a_function_without_a_test_says_why_on_the_page(tmp_path: Path) -> None:
    """Each function's row and section give why paths were dropped, and
    why a function got no test; the heading counts those without one."""
    source = tmp_path / "odd.py"
    source.write_text("def spin() -> int:\n    while True:\n        pass\n\n\n"
                      "def root(x: float) -> float:\n    if x > 0:\n        return x ** 0.5\n    return 0.0\n")
    done = gen(str(source), "-o", str(tmp_path / "test_odd.py"), "--report", str(tmp_path / "odd.html"),
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "odd.html").read_text(encoding="utf-8")
    Balanced().feed(page)
    assert "2 functions searched (1 of them without a test)" in page
    spin, root = (re.search(f'id="[^"]*odd-py-{name}"', page).start() for name in ("spin", "root"))  # type: ignore[union-attr]
    assert "<h4>No test: why</h4>" in page[spin:root] and "cut by a bound of the search" in page[spin:root]
    assert "<h4>Paths dropped</h4>" in page[root:]
    assert "&#x27;**&#x27; on floats" in page
