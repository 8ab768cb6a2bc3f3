"""The code blocks of a Markdown page, as the README's and the documentation's tests read them.

One reader for ``tests/test_readme.py`` and ``tests/test_docs_examples.py``: the fenced blocks
(:data:`FENCE`), the ``$ mistakebound ...`` lines of console blocks with the output each shows
(:func:`console_lines`), the file names a command line names (:func:`files_named`), so that a
line that reads a file runs after the earlier line that writes it, a page's ``## section``
(:func:`section`), and the names of requirements as pyproject.toml lists them
(:func:`requirement_names`).
"""

from __future__ import annotations

import re
import shlex

__all__ = ["FENCE", "blocks", "console_lines", "files_named", "requirement_names", "section"]

#: A fenced block: its language, then its body.
FENCE = re.compile(r"^```([\w+-]*)[^\n]*\n(.*?)^```\s*$", re.S | re.M)


def blocks(text: str, langs: tuple[str, ...]) -> list[str]:
    """The bodies of ``text``'s fenced blocks in one of ``langs`` (lower case), in order."""
    return [body for lang, body in FENCE.findall(text) if lang.lower() in langs]


def console_lines(bodies: list[str], where: str = "") -> list[tuple[list[str], str]]:
    """``(argv after mistakebound, expected output)`` for every ``$ mistakebound`` line of the console ``bodies``."""
    found = []
    for body in bodies:
        for chunk in re.split(r"^\$ ", body, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            argv = shlex.split(command)
            assert argv[0] == "mistakebound", (where, command)
            found.append((argv[1:], output.rstrip("\n")))
    return found


def files_named(argv: list[str]) -> set[str]:
    """The file names among a command's arguments (``intervals16.json.gz``, ``grid.toml``...)."""
    return {a for a in argv if re.fullmatch(r"[\w.-]+\.(json(\.gz)?|csv|npy|toml|png|svg|pdf|dot|txt)", a)}


def section(text: str, title: str) -> str:
    """The body of ``text``'s ``## title`` section, up to the next ``##`` heading (it must be there)."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert match, f"no '## {title}' section"
    return match.group(1)


def requirement_names(specs: list[str]) -> set[str]:
    """The distribution names of requirement specifiers: ``"dask[distributed]>=2024.1"`` -> ``"dask"``."""
    return {re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0].strip().lower() for spec in specs}
