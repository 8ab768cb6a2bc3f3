"""The command line's exit codes and argument types, shared by every subcommand.

Every subcommand (``check``, ``ldim``, ``play``, ``worst-case``, ``tree``, ``plot``,
``sweep``) exits with the same codes and parses its numbers with the same types, so a
bad ``--seed`` reads the same everywhere: ``expected an integer >= 0, got '-1'``.

Examples
--------
>>> positive("3")
3
>>> positive("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected an integer >= 1, got '0'
>>> seconds("2.5"), EXIT_BAD_INPUT
(2.5, 2)
"""

from __future__ import annotations

import argparse
import re
import sys

# the exit codes are defined in a module of their own (the start-up guard reads them before argparse loads)
from mistakebound.interfaces.exit_codes import EXIT_BAD_INPUT, EXIT_BROKEN, EXIT_INTERRUPTED, EXIT_OK

__all__ = [
    "EXIT_OK",
    "EXIT_BROKEN",
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
    "MAX_MESSAGE_CHARS",
    "MAX_WORKERS",
    "Parser",
    "integer",
    "positive",
    "printable",
    "seed",
    "seconds",
    "shortened",
    "workers",
]


#: The most processes --workers may ask for (a typo must not start thousands).
MAX_WORKERS = 256


#: Characters never printed as they are: C0 and C1 controls, DEL, and the invisible format
#: characters that reorder or hide text (bidirectional overrides, zero-width marks, BOM).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
_UNPRINTABLE_IN_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def printable(text: str, *, lines: bool = False) -> str:
    r"""``text`` with control characters escaped as Python writes them (``\x1b``, ``\r``).

    Every message and every line the command line prints goes through it, so a file name
    holding a terminal escape sequence is shown, never obeyed.  With ``lines=True`` line
    breaks and tabs are kept (for whole blocks of output).

    Examples
    --------
    >>> print(printable("a\x1b[31mb.csv"))
    a\x1b[31mb.csv
    >>> print(printable("two\nlines"))
    two\nlines
    >>> printable("row\tcol\n", lines=True) == "row\tcol\n"
    True
    """
    pattern = _UNPRINTABLE_IN_LINES if lines else _UNPRINTABLE
    if pattern.search(text) is None:
        return text
    return pattern.sub(lambda m: repr(m.group())[1:-1], text)


#: The most characters of an error line; the middle of a longer one is cut (and says so).
MAX_MESSAGE_CHARS = 2000


def shortened(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message``, its middle cut when it is longer than ``limit`` characters (an argument of 50,000 ``[``).

    Examples
    --------
    >>> shortened("short")
    'short'
    >>> shortened("a" * 50 + "b" * 50, limit=30)
    'aaaaaaaaaaaaaaaaaaaa ...(73 characters cut)... bbbbbbb'
    """
    if len(message) <= limit:
        return message
    head, tail = limit * 2 // 3, limit // 4
    return f"{message[:head]} ...({len(message) - head - tail:,} characters cut)... {message[-tail:]}"


def integer(text: str, minimum: int, maximum: int | None = None) -> int:
    """``text`` as an integer in ``[minimum, maximum]``, or an argparse error saying what was expected."""
    expected = f"an integer >= {minimum}" if maximum is None else f"an integer from {minimum} to {maximum}"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
    if value < minimum or (maximum is not None and value > maximum):
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
    return value


def positive(text: str) -> int:
    """An integer >= 1 (``--rounds``, ``--max-nodes``, ...)."""
    return integer(text, 1)


def seed(text: str) -> int:
    """An integer >= 0 (``--seed``, ``--horizon``)."""
    return integer(text, 0)


def workers(text: str) -> int:
    """An integer from 1 to :data:`MAX_WORKERS`."""
    return integer(text, 1, MAX_WORKERS)


def seconds(text: str) -> float:
    """A finite number of seconds > 0 (``--time-limit``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit code 2).

    ``--help`` that cannot be written (``> /dev/full``) raises the ``OSError`` (argparse
    would drop it and exit 0), for the command line to report."""

    def print_help(self, file=None) -> None:
        file = sys.stdout if file is None else file
        if file is not None:  # standard output closed: nowhere to print
            file.write(self.format_help())
            file.flush()

    def error(self, message: str):
        # one line: control characters an argument held are shown escaped ('\\r'), not printed
        message = printable(shortened(message))
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")
