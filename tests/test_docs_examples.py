"""The documentation's pages keep their examples honest, as the README does (``tests/test_readme.py``).

Every Python block of a page in ``docs/`` runs, in a folder of its own, with the page's file blocks
(a ```python block right after a line naming it, such as ``vote.py``:) written beside it; every
``$ mistakebound ...`` line of a console block prints exactly what the page shows.  A page whose
examples read a file that one of its shell lines writes names that line in :data:`PREPARE`.
Sphinx is not needed: the pages are read as Markdown text.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from mistakebound.interfaces.cli import main
from tests.doc_blocks import blocks, console_lines, files_named

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = {p.name: p.read_text(encoding="utf-8") for p in sorted(DOCS.glob("*.md"))} if DOCS.is_dir() else {}
#: A file block: a line naming a Python file, then its ```python block.
FILE_BLOCK = re.compile(r"^`([\w-]+\.py)`:\s*\n\s*\n```python[^\n]*\n(.*?)^```\s*$", re.S | re.M)
#: What a page's examples read that its shell lines write: run first, in the example's folder.
PREPARE = {"pipelines.md": [["check", "--json", "report.json"]]}

pytestmark = pytest.mark.skipif(not PAGES, reason="no docs/ folder")


def _python_cases() -> list[tuple[str, int]]:
    cases = []
    for name, text in PAGES.items():
        files = {body for _, body in FILE_BLOCK.findall(text)}
        cases += [(name, i) for i, body in enumerate(blocks(text, ("python", "py"))) if body not in files]
    return cases


@pytest.mark.parametrize("page, index", _python_cases())
def test_python_example_of_a_page_runs(page, index, tmp_path, monkeypatch, capsys):
    text = PAGES[page]
    files = dict(FILE_BLOCK.findall(text))
    for file_name, body in files.items():
        (tmp_path / file_name).write_text(body, encoding="utf-8")
        monkeypatch.delitem(sys.modules, file_name[:-3], raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    for argv in PREPARE.get(page, []):
        assert main(argv) == 0, argv
    body = blocks(text, ("python", "py"))[index]
    exec(compile(body, f"docs/{page} python block {index + 1}", "exec"), {"__name__": f"docs_block_{index + 1}"})


@pytest.mark.parametrize("page, name", [(page, name) for page, text in PAGES.items()
                                        for name, _ in FILE_BLOCK.findall(text) if name.startswith("test_")])
def test_pytest_file_of_a_page_passes(page, name, tmp_path):
    import subprocess

    for file_name, body in FILE_BLOCK.findall(PAGES[page]):
        (tmp_path / file_name).write_text(body, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", name], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"\b[1-9]\d* passed", run.stdout) and not re.search(r"\b(failed|skipped|error)", run.stdout)


def _console_cases() -> list[tuple[str, list[str], str]]:
    return [(name, argv, expected) for name, text in PAGES.items()
            for argv, expected in console_lines(blocks(text, ("console",)), name)]


@pytest.mark.parametrize("page, argv, expected", _console_cases())
def test_console_line_of_a_page_matches_the_program(page, argv, expected, tmp_path, monkeypatch, capsys):
    """Each line in a folder of its own, after the page's earlier lines that name a file it names."""
    monkeypatch.chdir(tmp_path)
    cases = _console_cases()
    earlier = cases[: cases.index((page, argv, expected))]
    for other, before, _ in earlier:
        if other == page and files_named(before) & files_named(argv):
            assert main(before) == 0, before
    capsys.readouterr()
    assert main(argv) == 0
    assert capsys.readouterr().out.rstrip("\n") == expected


def test_the_pages_have_examples():
    assert len(_python_cases()) >= 15 and len(_console_cases()) >= 10
