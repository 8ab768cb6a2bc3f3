"""The commands' help: the names each command takes (learners, adversaries, classes, spaces), listed from the registry.

:func:`add_command` registers a command on the subparsers with its summary, its
description and an epilog listing the names it takes; the description (when given as a
function) and the epilog are written only when the help is printed
(:class:`~mistakebound.interfaces.arguments.Parser`), so a command that runs lists no zoo
and imports no search to describe another.

Examples
--------
>>> print(epilog(players=False, settings=""))  # doctest: +NORMALIZE_WHITESPACE
exit codes: 0 ok, 1 a bound is broken (or a game errored), 2 bad input (or an output
file that cannot be written), 3 interrupted (Ctrl-C, SIGTERM) or a search out of budget
(partial results printed)
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable

from mistakebound.game import registry

__all__ = ["add_command", "epilog", "fill", "players_usage", "settings_usage"]


def fill(text: str) -> str:
    """``text`` wrapped at 78 columns."""
    return textwrap.fill(text, width=78)


def players_usage(adversaries: bool = True) -> str:
    """The registered learners (and adversaries), one per line with a summary."""
    lines = ["learners (LEARNER; case, '-' and '_' ignored; or module:Class; parameters as Name(key=value)):"]
    lines += registry.usage("learner")
    if adversaries:
        lines.append("adversaries (ADVERSARY):")
        lines += registry.usage("adversary")
    return "\n".join(lines)


def settings_usage(spaces: bool) -> str:
    """The zoo's classes (and, with ``spaces``, the spaces), one per line with a summary."""
    from mistakebound.game.specs import BOOLEAN_SPELLINGS

    lines = [f"zoo classes (CLASS, e.g. thresholds:64, k_sparse:8,2, singletons:5,true; a boolean is "
             f"{BOOLEAN_SPELLINGS}):"]
    lines += registry.usage("class")
    if spaces:
        lines.append("spaces (SETTING, as NAME:ARGS with arguments by position or key=value):")
        lines += registry.usage("space")
    lines.append("or a class file: a path ending in .npy, .csv or .json (rows hypotheses, columns instances).")
    return "\n".join(lines)


def epilog(players: bool | str, settings: str) -> str:
    """A command's help epilog: only the names it takes (``players`` True: learners and
    adversaries, ``"learners"``: learners only; ``settings`` ``"all"``, ``"classes"`` or ``""``)."""
    parts = []
    if players:
        try:
            parts.append(players_usage(adversaries=players is True))
        except Exception:  # noqa: BLE001 - help must work even if the registry cannot be listed
            pass
    if settings:
        try:
            parts.append(settings_usage(spaces=settings == "all"))
        except Exception:  # noqa: BLE001 - help must work even if the zoo cannot be listed
            pass
    parts.append(fill(
        "exit codes: 0 ok, 1 a bound is broken (or a game errored), 2 bad input (or an output "
        "file that cannot be written), 3 interrupted (Ctrl-C, SIGTERM) or a search out of budget "
        "(partial results printed)"
    ))
    return "\n\n".join(parts)


def add_command(subparsers, name: str, summary: str, description: str | Callable[[], str],
                players: bool | str = True, settings: str = "all") -> argparse.ArgumentParser:
    """Register the command ``name`` on ``subparsers``: its one-line ``summary``, its ``description``
    (text, or a function writing it when the help is printed) and the epilog of the names it takes."""
    return subparsers.add_parser(
        name, help=summary,
        description=(lambda: fill(description())) if callable(description) else fill(description),
        epilog=lambda: epilog(players, settings), formatter_class=argparse.RawDescriptionHelpFormatter,
    )
