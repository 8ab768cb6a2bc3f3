"""Keep the README honest: its Python examples run, its commands are the two promised ones,
its console transcripts match the program, and its dependency list matches pyproject.toml."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from mistakebound.interfaces.cli import main
from tests.doc_blocks import FENCE, console_lines, files_named

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = [(lang.lower(), body) for lang, body in FENCE.findall(README)]
PYTHON_BLOCKS = [body for lang, body in BLOCKS if lang in ("python", "py")]
CONSOLE_BLOCKS = [body for lang, body in BLOCKS if lang == "console"]
#: Python blocks that are files (```python title="vote.py"): written out, importable from
#: the other blocks, and a ``test_*.py`` one is run by pytest.
FILE_BLOCKS = dict(re.findall(r'^```python title="([\w-]+\.py)"[^\n]*\n(.*?)^```\s*$', README, re.S | re.M))

INSTALL_AND_CHECK = "python -m venv .venv && .venv/bin/pip install . && .venv/bin/mistakebound check"
INSTALL_AND_TEST = "python -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"


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


def test_readme_has_python_examples():
    assert len(PYTHON_BLOCKS) >= 3


@pytest.fixture(scope="module")
def readme_files(tmp_path_factory):
    """A folder holding every file block of the README."""
    folder = tmp_path_factory.mktemp("readme_files")
    for name, body in FILE_BLOCKS.items():
        (folder / name).write_text(body, encoding="utf-8")
    return folder


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_python_example_runs(index, capsys, readme_files, monkeypatch):
    monkeypatch.syspath_prepend(str(readme_files))  # a block imports the file blocks (from vote import Vote)
    for name in FILE_BLOCKS:
        monkeypatch.delitem(sys.modules, name[:-3], raising=False)
    code = compile(PYTHON_BLOCKS[index], f"README.md python block {index + 1}", "exec")
    exec(code, {"__name__": f"readme_block_{index + 1}"})


def test_the_readme_shows_a_pytest_file():
    assert any(name.startswith("test_") for name in FILE_BLOCKS)


@pytest.mark.parametrize("name", sorted(n for n in FILE_BLOCKS if n.startswith("test_")))
def test_pytest_file_example_passes(name, readme_files):
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", name], cwd=readme_files,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    passed = re.search(r"\b(\d+) passed", run.stdout)
    assert passed and int(passed.group(1)) >= 1 and not re.search(r"\b(failed|skipped|xfailed|error)", run.stdout), run.stdout


def console_commands():
    """(argv after ``mistakebound``, expected output) for every ``$ mistakebound`` line."""
    return console_lines(CONSOLE_BLOCKS, "README.md")


def test_readme_shows_the_ldim_command():
    assert any(argv[:1] == ["ldim"] for argv, _ in console_commands())


@pytest.mark.parametrize("argv, expected", console_commands())
def test_console_transcript_matches_the_program(argv, expected, capsys, tmp_path, monkeypatch):
    """Each console line in a folder of its own, after the README's earlier lines that name a file it names
    (``verify intervals16.json.gz`` after the ``ldim`` that writes it): it passes alone, in any order."""
    monkeypatch.chdir(tmp_path)
    earlier = console_commands()[: console_commands().index((argv, expected))]
    for before, _ in earlier:
        if files_named(before) & files_named(argv):
            assert main(before) == 0, before
    capsys.readouterr()
    assert main(argv) == 0
    assert capsys.readouterr().out.rstrip("\n") == expected


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert match, f"README has no '## {title}' section"
    return match.group(1)


def requirement_name(spec: str) -> str:
    return re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0].strip().lower()


def test_dependencies_section_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {requirement_name(s) for s in project["dependencies"]}
    tests = {requirement_name(s) for s in project["optional-dependencies"]["test"]}
    text = section("Dependencies")
    named = set(re.findall(r"[a-z][a-z0-9_-]+", text.lower()))
    assert runtime | tests <= named
    assert "nothing else" in text.lower()


def test_performance_section_quotes_cases_the_benchmarks_run():
    from benchmarks.suite import cases

    text = section("Performance")
    assert "`python -m benchmarks" in text
    measured = {c.name.split(" ", 1)[1].replace(", ", ",") for c in cases() if c.name.startswith("ldim ")}
    rows = [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ") and "x" in line]
    zoo_rows = [r for r in rows if "(" in r and not r.startswith("case")]
    assert zoo_rows, "the performance table lists no case"
    for name in zoo_rows:
        assert name.replace(", ", ",") in measured, f"README quotes {name!r}, which python -m benchmarks does not run"


def test_every_learner_and_adversary_of_the_registry_is_documented():
    from mistakebound.game import registry

    names = registry.names("learner") + registry.names("adversary")
    assert len(names) >= 30
    missing = [name for name in names if f"`{name}`" not in README]
    assert not missing, f"the README never names {missing}"


def test_every_space_and_zoo_class_is_documented():
    from mistakebound.game import registry

    for name in registry.names("space") + registry.names("class"):
        assert f"`{name}" in README, name


def test_every_test_the_guarantees_cite_exists():
    text = section("What mistakebound guarantees")
    cited = re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`", text)
    assert len(cited) >= 10
    for path, name in cited:
        source = (ROOT / path).read_text(encoding="utf-8")
        if name:
            assert re.search(rf"^def {name}\(", source, re.M), f"README cites {path}::{name}, which does not exist"
