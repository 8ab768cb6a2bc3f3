"""The ``mistakebound-cli`` directive: the command line's help, printed by its real parser.

``.. mistakebound-cli::`` writes, for the top-level parser and for every subcommand, a
section with the command's ``--help`` text, taken at build time from
:func:`mistakebound.interfaces.cli.parser.build_parser`; the page can never disagree with
the program.
"""

from __future__ import annotations

import argparse
import os

from docutils import nodes
from docutils.parsers.rst import Directive

__all__ = ["CliReference", "setup"]


def _help(parser: argparse.ArgumentParser) -> str:
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "96"
    try:
        return parser.format_help()
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous


class CliReference(Directive):
    """Sections of ``mistakebound --help`` and of ``mistakebound COMMAND --help``."""

    has_content = False

    def run(self):
        from mistakebound.interfaces.cli.parser import COMMANDS, build_parser

        parser = build_parser()
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        result = []
        top = nodes.section(ids=["cli-mistakebound"], names=["cli-mistakebound"])
        top += nodes.title(text="mistakebound")
        top += nodes.literal_block(text=_help(parser), language="none", classes=["cli-help"])
        result.append(top)
        for command in COMMANDS:
            section = nodes.section(ids=[f"cli-{command.NAME}"], names=[f"cli-{command.NAME}"])
            section += nodes.title(text=f"mistakebound {command.NAME}")
            section += nodes.paragraph(text=command.SUMMARY)
            section += nodes.literal_block(text=_help(sub.choices[command.NAME]), language="none", classes=["cli-help"])
            result.append(section)
        return result


def setup(app):
    app.add_directive("mistakebound-cli", CliReference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
