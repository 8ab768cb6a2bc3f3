"""Keep the README honest and short: its commands are the two promised ones, its Python example
runs, its console transcript matches the program, its dependency list matches pyproject.toml,
its links reach pages that exist, and it fits on two screens (everything else lives in
``docs/``, whose pages ``tests/test_docs_examples.py`` and ``tests/test_docs_pages.py`` keep honest)."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest

from mistakebound.interfaces.cli import main
from tests.doc_blocks import FENCE, console_lines, files_named, requirement_names, section

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = [(lang.lower(), body) for lang, body in FENCE.findall(README)]
PYTHON_BLOCKS = [body for lang, body in BLOCKS if lang in ("python", "py")]
CONSOLE_BLOCKS = [body for lang, body in BLOCKS if lang == "console"]

INSTALL_AND_CHECK = "python -m venv .venv && .venv/bin/pip install . && .venv/bin/mistakebound check"
INSTALL_AND_TEST = "python -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"
#: "Fits on two screens", as the documentation issue put it: about 250 lines.
MAX_LINES = 250


def test_readme_starts_with_the_name_and_a_paragraph():
    lines = README.splitlines()
    assert lines[0] == "# mistakebound"
    first_paragraph = README.split("\n\n")[1]
    assert not first_paragraph.startswith(("```", "#"))
    for audience in ("researchers", "authors of online learners", "CI"):
        assert audience in first_paragraph


def test_first_shell_block_has_exactly_the_two_commands():
    shell = [body for lang, body in BLOCKS if lang in ("bash", "sh", "shell")]
    assert shell, "README has no ```bash block"
    assert BLOCKS[0][0] in ("bash", "sh", "shell"), "the two commands come before any other code"
    commands = [line.strip() for line in shell[0].splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert commands == [INSTALL_AND_CHECK, INSTALL_AND_TEST]


def test_readme_fits_on_two_screens():
    assert len(README.splitlines()) <= MAX_LINES


def test_readme_has_a_python_example():
    assert PYTHON_BLOCKS


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_python_example_runs(index, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = compile(PYTHON_BLOCKS[index], f"README.md python block {index + 1}", "exec")
    exec(code, {"__name__": f"readme_block_{index + 1}"})


def console_commands():
    """(argv after ``mistakebound``, expected output) for every ``$ mistakebound`` line."""
    return console_lines(CONSOLE_BLOCKS, "README.md")


def test_readme_shows_the_ldim_command():
    assert any(argv[:1] == ["ldim"] for argv, _ in console_commands())


@pytest.mark.parametrize("argv, expected", console_commands())
def test_console_transcript_matches_the_program(argv, expected, capsys, tmp_path, monkeypatch):
    """Each console line in a folder of its own, after the README's earlier lines that name a file it names."""
    monkeypatch.chdir(tmp_path)
    earlier = console_commands()[: console_commands().index((argv, expected))]
    for before, _ in earlier:
        if files_named(before) & files_named(argv):
            assert main(before) == 0, before
    capsys.readouterr()
    assert main(argv) == 0
    assert capsys.readouterr().out.rstrip("\n") == expected


def test_every_link_of_the_readme_reaches_a_page_and_its_section():
    """A relative link names a file of the checkout; a ``#fragment`` names one of that page's headings."""
    links = re.findall(r"\]\(([^)\s]+)\)", README)
    local = [link for link in links if not re.match(r"[a-z]+://", link)]
    assert len(local) >= 10, "the README links into the documentation"
    for link in local:
        path, _, fragment = link.partition("#")
        target = ROOT / path
        assert target.is_file(), f"the README links to {path}, which does not exist"
        if fragment:
            headings = re.findall(r"^#+ (.+)$", target.read_text(encoding="utf-8"), re.M)
            slugs = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}
            assert fragment in slugs, f"{path} has no heading #{fragment}"


def test_the_readme_links_every_page_of_the_documentation():
    pages = {p.name for p in (ROOT / "docs").glob("*.md")} - {"README.md", "index.md", "getting_started.md",
                                                             "user_guide.md", "reference.md"}
    missing = sorted(p for p in pages if f"(docs/{p}" not in README)
    assert not missing, f"the README links no page {missing}"


def test_dependencies_section_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    text = section(README, "Dependencies").lower()
    named = set(re.findall(r"[a-z][a-z0-9_-]+", text))
    assert requirement_names(project["dependencies"]) <= named
    bullets = {extra: body for head, body in re.findall(r"^- (`[^:]+`): (.*?)(?=^- |^\n)", text, re.S | re.M)
               for extra in re.findall(r"`([\w-]+)`", head)}  # "- `river` and `sklearn`: why" names two
    for extra, specs in project["optional-dependencies"].items():
        assert extra in bullets, f"the README does not say why the {extra!r} extra is there"
        said = set(re.findall(r"[a-z][a-z0-9_-]+", bullets[extra]))
        assert requirement_names(specs) <= said, f"the {extra!r} bullet does not name {requirement_names(specs) - said}"
    assert "nothing else" in text


def test_no_stale_reference_to_a_readme_section_in_the_package():
    """The package's messages send the reader to pages that exist, not to README sections that moved."""
    for path in (ROOT / "src").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"README'?s? \w+ section|see the README", text), path


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
