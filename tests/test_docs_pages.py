"""What the documentation's pages state about the project holds: the install page's dependencies
are pyproject.toml's, the benchmarks page quotes cases and commands that exist, every name of
the registry is documented, and every test a page cites exists.

The pages' examples are run by ``tests/test_docs_examples.py``; the site's build by
``tests/test_docs.py``.  These are the checks the README carried before its content moved here.
"""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

from tests.doc_blocks import requirement_names, section

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = {p.name: p.read_text(encoding="utf-8") for p in sorted(DOCS.glob("*.md"))} if DOCS.is_dir() else {}
ALL_PAGES = "\n".join(PAGES.values())

pytestmark = pytest.mark.skipif(not PAGES, reason="no docs/ folder (an unpacked wheel)")


def test_install_page_lists_every_dependency_of_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    text = section(PAGES["install.md"], "Dependencies")
    named = set(re.findall(r"[a-z][a-z0-9_-]+", text.lower()))
    extras = project["optional-dependencies"]
    assert requirement_names(project["dependencies"]) | requirement_names(extras["test"]) <= named
    for extra in extras:
        assert f"'.[{extra}]'" in PAGES["install.md"], f"the install page never shows pip install '.[{extra}]'"
    assert "nothing else" in text.lower()


def test_benchmarks_page_quotes_cases_the_benchmarks_run():
    from benchmarks.suite import cases

    text = section(PAGES["benchmarks.md"], "The searches")
    assert "`python -m benchmarks" in text
    measured = {c.name.split(" ", 1)[1].replace(", ", ",") for c in cases() if c.name.startswith("ldim ")}
    table = text[text.index("| case | \\|H\\| x \\|X\\|"):].split("\n\n", 1)[0]  # the suite's table
    rows = [line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ") and "x" in line]
    zoo_rows = [r for r in rows if "(" in r and not r.startswith("case")]
    assert len(zoo_rows) >= 5, "the benchmarks page lists no case"
    for name in zoo_rows:
        assert name.replace(", ", ",") in measured, f"the page quotes {name!r}, which python -m benchmarks does not run"


def test_every_benchmark_command_the_pages_name_exists():
    commands = set(re.findall(r"python -m (benchmarks(?:\.\w+)?)", ALL_PAGES))
    named = set(re.findall(r"`(certificates_\w+)`", PAGES["benchmarks.md"]))
    modules = commands | {f"benchmarks.{n}" for n in named}
    assert len(modules) >= 10
    for module in sorted(modules):
        path = ROOT / (module.replace(".", "/") + ("/__main__.py" if module == "benchmarks" else ".py"))
        assert path.is_file(), f"the documentation runs python -m {module}, which does not exist"


def test_every_learner_and_adversary_of_the_registry_is_documented():
    from mistakebound.game import registry

    names = registry.names("learner") + registry.names("adversary")
    assert len(names) >= 30
    missing = [name for name in names if f"`{name}`" not in ALL_PAGES]
    assert not missing, f"the documentation never names {missing}"


def test_every_space_and_zoo_class_is_documented():
    from mistakebound.game import registry

    missing = [n for n in registry.names("space") + registry.names("class") if f"`{n}" not in ALL_PAGES]
    assert not missing, f"the documentation never names {missing}"


def test_every_test_the_pages_cite_exists():
    """The theory and guarantees pages name the tests behind each bound and promise; each must exist
    (``tests/x.py::name``, or ``::name`` after a file on the same line)."""
    cited = {}
    for page, text in PAGES.items():
        for line in text.splitlines():
            last_file = None
            for path, name in re.findall(r"`(tests/test_\w+\.py)?(?:::(\w+))?`", line):
                if path:
                    last_file = ROOT / path
                    assert last_file.is_file(), f"{page}: {path} does not exist"
                    cited[page] = cited.get(page, 0) + 1
                if name:
                    assert last_file is not None, f"{page}: ::{name} follows no test file"
                    assert re.search(rf"^def {name}\(", last_file.read_text(encoding="utf-8"), re.M), \
                        f"{page}: {last_file.name} has no test {name}"
    assert sum(cited.values()) > 40
    assert cited.get("guarantees.md", 0) >= 10 and cited.get("theory.md", 0) >= 10, cited


def test_a_page_shows_a_pytest_file_for_a_learner():
    assert re.search(r"^`test_\w+\.py`:", PAGES["learner_authors.md"], re.M)
    assert importlib.util.find_spec("mistakebound.verification.checks")
