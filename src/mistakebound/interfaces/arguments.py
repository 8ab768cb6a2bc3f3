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
import sys

from mistakebound.foundations.text import printable
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
    "add_figure",
    "figure_style",
    "integer",
    "positive",
    "seed",
    "seconds",
    "shortened",
    "workers",
]


#: The most processes --workers may ask for (a typo must not start thousands).
MAX_WORKERS = 256


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

    Its ``description`` and ``epilog`` may be functions returning the text: they run only
    when the help is printed.

    ``--help`` that cannot be written (``> /dev/full``) raises the ``OSError`` (argparse
    would drop it and exit 0), for the command line to report."""

    def format_help(self) -> str:
        # a description or epilog given as a function is written now, when the help is printed: a command
        # that runs never lists the zoo or imports a search to describe itself or another command
        for name in ("description", "epilog"):
            if callable(getattr(self, name)):
                setattr(self, name, getattr(self, name)())
        return super().format_help()

    def print_help(self, file=None) -> None:
        file = sys.stdout if file is None else file
        if file is not None:  # standard output closed: nowhere to print
            file.write(self.format_help())
            file.flush()

    def error(self, message: str):
        # one line: control characters an argument held are shown escaped ('\\r'), not printed
        message = printable(shortened(message))
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def add_figure(p: argparse.ArgumentParser) -> None:
    """``--dpi`` and ``--no-titles``: how a command that draws writes its figures
    (:func:`~mistakebound.interfaces.plots.save_figure`), for a paper: a raster resolution (vector
    formats, ``.svg`` and ``.pdf``, ignore it) and the title and caption left out for the paper's own."""
    p.add_argument("--dpi", type=_dpi, default=None, metavar="N",
                   help="the resolution of a .png figure, 10..2400 dots per inch (default 130; .svg and .pdf "
                        "are vector formats)")
    p.add_argument("--no-titles", action="store_true",
                   help="leave out the figure's title and caption (a paper writes its own), cut to the drawing")


def figure_style(args: argparse.Namespace) -> dict:
    """The keywords of :func:`~mistakebound.interfaces.plots.save_figure` that :func:`add_figure`'s options give."""
    from mistakebound.interfaces.plots import DPI

    return {"dpi": DPI if args.dpi is None else args.dpi, "titles": not args.no_titles}


def _dpi(text: str) -> int:
    return integer(text, 10, 2400)
