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

__all__ = [
    "EXIT_OK",
    "EXIT_BROKEN",
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
    "MAX_WORKERS",
    "Parser",
    "integer",
    "positive",
    "seed",
    "seconds",
    "workers",
]

#: Exit code: success.
EXIT_OK = 0
#: Exit code: a bound is broken, a game errored, or a sweep cell failed.
EXIT_BROKEN = 1
#: Exit code: bad input (arguments, class spec, matrix file).
EXIT_BAD_INPUT = 2
#: Exit code: interrupted (Ctrl-C), or a search stopped by its budget; partial results printed.
EXIT_INTERRUPTED = 3

#: The most processes --workers may ask for (a typo must not start thousands).
MAX_WORKERS = 256


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
    """An argument parser whose usage errors are one line on stderr (exit code 2)."""

    def error(self, message: str):
        # one line: control characters an argument held are shown escaped ('\\r'), not printed
        message = re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", lambda m: repr(m.group())[1:-1], message)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")
