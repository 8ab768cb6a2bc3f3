"""The parser of ``mistakebound``: the top-level options, then each command's own ``add_parser``.

Each command module (:data:`COMMANDS`) has its ``NAME``, its ``SUMMARY`` line, and
``add_parser(subparsers)``, which registers it and sets its ``run(args, out)`` as the
parsed arguments' ``run``; only the parser of the command that runs is built in full.  Descriptions and epilogs are written
only when a help is printed (:class:`~mistakebound.interfaces.arguments.Parser`): ``ldim``'s
names the library's default VC time, which ``verify``, say, has no need to import.

Examples
--------
>>> args = build_parser("ldim").parse_args(["ldim", "thresholds:7", "--what", "ldim"])
>>> args.command, args.cls, args.what, args.run.__module__
('ldim', 'thresholds:7', ('ldim',), 'mistakebound.interfaces.cli.ldim')
"""

from __future__ import annotations

import argparse
import platform

import mistakebound.interfaces.cli.check as check
import mistakebound.interfaces.cli.dims as dims
import mistakebound.interfaces.cli.ldim as ldim
import mistakebound.interfaces.cli.play as play
import mistakebound.interfaces.cli.plot as plot
import mistakebound.interfaces.cli.tree as tree
import mistakebound.interfaces.cli.verify as verify
import mistakebound.interfaces.cli.worst_case as worst_case
import mistakebound.interfaces.sweep.cli as sweep
from mistakebound.interfaces.arguments import EXIT_OK, Parser
from mistakebound.interfaces.cli.help_text import epilog

__all__ = ["COMMANDS", "Version", "build_parser"]

#: The command modules, in the order ``mistakebound --help`` lists them: each has
#: ``add_parser(subparsers)`` and ``run(args, out) -> int``.
COMMANDS = (check, ldim, dims, play, worst_case, verify, tree, plot, sweep)


class Version(argparse.Action):
    """``--version``: the version installed and which Littlestone engine the install has (read when asked)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib import metadata

        from mistakebound.theory import ldim_kernel

        try:
            version = metadata.version("mistakebound")
        except metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree, not installed
            version = "(not installed)"
        print(f"mistakebound {version}, {ldim_kernel.engine_description()}; Python {platform.python_version()}")
        parser.exit(EXIT_OK)


def build_parser(wanted: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command (:data:`COMMANDS`); the command's ``run`` is the parsed ``args.run``.

    Given the command that runs (``wanted``, the first word of the command line that is
    not an option), only its own parser is built in full; the others are registered by
    name and summary alone, which is all ``mistakebound --help`` and a parse of ``wanted``
    read of them.  Without it (or for a word that names no command) every parser is built.
    """
    parser = Parser(
        prog="mistakebound",
        description="The online mistake-bound game, played and verified exactly.",
        epilog=lambda: epilog(players=True, settings="all"), formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=Version, help="print the version and the engine this install has, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    every = wanted not in {command.NAME for command in COMMANDS}
    for command in COMMANDS:
        if every or command.NAME == wanted:
            command.add_parser(sub)
        else:
            sub.add_parser(command.NAME, help=command.SUMMARY)
    return parser
