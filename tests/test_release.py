"""What a release carries besides the package: LICENSE, the license metadata, CITATION.cff, the build's switch.

The build itself (an sdist and a wheel, the wheel installed outside the checkout, the install
without the extension, the ``check`` extra alone) is run by ``.ci/run``: each needs a fresh
venv.  These tests read the files the build reads.
"""

from __future__ import annotations

import datetime
import re
import runpy
import tomllib
from pathlib import Path

import pytest
import setuptools
from setuptools.command.build_ext import build_ext
from setuptools.dist import Distribution

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

#: The keys CFF 1.2.0 requires (https://github.com/citation-file-format/citation-file-format, schema.json).
CFF_REQUIRED = ("cff-version", "message", "title", "authors")


def cff_top_level(text: str) -> dict[str, str | list[str]]:
    """The top-level keys of a CFF file and their scalar values (a list's items for a block list).

    A minimal reader of the YAML subset CITATION.cff is written in, so that the test needs
    no YAML package: ``key: value`` lines, quoted or not, and ``- item`` blocks under a key.
    Anything else at the top level (a tab, a line without a key) is refused.
    """
    found: dict[str, str | list[str]] = {}
    key = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        assert "\t" not in line, f"line {number}: a tab (YAML indents with spaces)"
        top = re.fullmatch(r"([a-z][a-z0-9-]*):(?: +(.*))?", line)
        if top:
            key, value = top.group(1), (top.group(2) or "").strip()
            assert key not in found, f"line {number}: {key} given twice"
            found[key] = _scalar(value) if value else []
        else:
            item = re.fullmatch(r"  (?:- )?([a-z-]+): +(.*)|  - (.*)", line)
            assert item and key is not None and isinstance(found[key], list), f"line {number}: not a key: {line!r}"
            found[key].append(_scalar(item.group(2) if item.group(2) is not None else item.group(3)))
    return found


def _scalar(value: str) -> str:
    if value[:1] in "\"'":
        assert value[-1:] == value[0] and len(value) >= 2, f"an unclosed quote: {value}"
        return value[1:-1]
    assert not value.startswith(("{", "[", "&", "*", "!", "|", ">")), f"not a plain scalar: {value}"
    return value


def test_the_license_file_is_mit_and_the_metadata_says_so_in_the_current_form():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert re.search(r"^Copyright \(c\) 20\d\d the mistakebound developers$", text, re.M)
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in text
    project = PROJECT["project"]
    assert project["license"] == "MIT"  # an SPDX expression: the table form is deprecated by setuptools
    assert project["license-files"] == ["LICENSE"]
    assert not any(c.startswith("License ::") for c in project.get("classifiers", ()))  # PEP 639 forbids both
    (backend,) = [r for r in PROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    assert int(re.search(r">=(\d+)", backend).group(1)) >= 77  # the first setuptools that reads license-files


def test_citation_cff_has_what_cff_1_2_requires_and_matches_the_project():
    cff = cff_top_level((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    missing = [key for key in CFF_REQUIRED if not cff.get(key)]
    assert not missing, f"CITATION.cff lacks {missing}"
    assert cff["cff-version"] == "1.2.0"
    assert cff["title"] == PROJECT["project"]["name"]
    assert cff["version"] == PROJECT["project"]["version"]
    assert cff["license"] == PROJECT["project"]["license"]
    assert cff["authors"] == ["The mistakebound developers"]
    datetime.date.fromisoformat(cff["date-released"])
    abstract = cff["abstract"]
    assert abstract.endswith(".") and abstract.count(". ") == 0, "the abstract is one sentence"


def test_the_cff_reader_refuses_what_it_cannot_read():
    with pytest.raises(AssertionError):
        cff_top_level("title: x\n\tversion: 1\n")
    with pytest.raises(AssertionError):
        cff_top_level('title: "unclosed\n')
    assert cff_top_level("authors:\n  - name: \"A B\"\nkeywords:\n  - x\n") == {"authors": ["A B"], "keywords": ["x"]}


@pytest.mark.parametrize("value, built", [(None, True), ("", True), ("0", True), ("1", False), ("yes", False)])
def test_the_extension_is_built_unless_mistakebound_no_extension_is_set(monkeypatch, value, built):
    given: dict = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: given.update(kwargs))
    if value is None:
        monkeypatch.delenv("MISTAKEBOUND_NO_EXTENSION", raising=False)
    else:
        monkeypatch.setenv("MISTAKEBOUND_NO_EXTENSION", value)
    runpy.run_path(str(ROOT / "setup.py"))
    names = [e.name for e in given["ext_modules"]]
    assert names == (["mistakebound.theory._ldim_kernel"] if built else [])
    if built:
        (kernel,) = given["ext_modules"]
        assert kernel.optional and all((ROOT / s).is_file() for s in kernel.sources)


def _setup_arguments(monkeypatch) -> dict:
    """What setup.py hands setuptools.setup, with the extension on."""
    given: dict = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: given.update(kwargs))
    monkeypatch.delenv("MISTAKEBOUND_NO_EXTENSION", raising=False)
    runpy.run_path(str(ROOT / "setup.py"))
    return given


def test_the_extension_uses_the_limited_api_of_the_oldest_python_and_the_wheel_is_abi3(monkeypatch):
    given = _setup_arguments(monkeypatch)
    (kernel,) = given["ext_modules"]
    oldest = re.fullmatch(r">=3\.(\d+)", PROJECT["project"]["requires-python"]).group(1)
    assert kernel.py_limited_api and ("Py_LIMITED_API", f"0x030{int(oldest):X}0000") in kernel.define_macros
    assert given["options"] == {"bdist_wheel": {"py_limited_api": f"cp3{oldest}"}}


@pytest.mark.parametrize("compiler_type, flag", [("msvc", "/O2"), ("unix", "-O3"), ("mingw32", "-O3")])
def test_the_optimisation_flag_is_the_compilers(monkeypatch, compiler_type, flag):
    # -O3 means nothing to MSVC: the build_ext of setup.py picks the flag by the compiler it found
    given = _setup_arguments(monkeypatch)
    monkeypatch.setattr(build_ext, "build_extensions", lambda self: None)  # no compile
    command = given["cmdclass"]["build_ext"](Distribution({"ext_modules": given["ext_modules"]}))
    command.extensions = given["ext_modules"]
    command.compiler = type("Compiler", (), {"compiler_type": compiler_type})()
    command.build_extensions()
    command.build_extensions()  # a second build adds nothing
    assert [e.extra_compile_args for e in given["ext_modules"]] == [[flag]]


def test_cibuildwheel_builds_the_abi3_wheel_once_and_tests_the_compiled_search(monkeypatch):
    # [tool.cibuildwheel] of pyproject.toml (cibuildwheel itself checks its keys: run there only)
    cibw = PROJECT["tool"]["cibuildwheel"]
    tag = _setup_arguments(monkeypatch)["options"]["bdist_wheel"]["py_limited_api"]
    assert cibw["build"] == f"{tag}-*"  # one build per platform: its abi3 wheel serves the later Pythons
    for table in (cibw, cibw["windows"]):
        commands = " && ".join(table["test-command"])
        assert "mistakebound check" in commands and "test_ldim_kernel.py" in commands
        for path in re.findall(r"\{project\}/(\S+\.py)", commands):
            assert (ROOT / path).is_file(), f"cibuildwheel's test-command runs {path}, which does not exist"
    requires = {re.split(r"[<>=!~ ;\[]", spec, maxsplit=1)[0] for spec in cibw["test-requires"]}
    assert requires == {"pytest", "pytest-xdist", "hypothesis"}  # what those tests import, and no more
