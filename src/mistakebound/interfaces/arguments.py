"""The command line's exit codes and argument types, shared by every subcommand.

Every subcommand (``check``, ``ldim``, ``play``, ``worst-case``, ``tree``, ``plot``,
``sweep``) exits with the same codes and parses its numbers with the same types, so a
bad ``--seed`` reads the same everywhere: ``expected an integer from 0 to 2**128 - 1, got '-1'``.
Each type reads its text with :mod:`mistakebound.foundations.numerals` (the one reading of
numbers written as text) and has a documented range, refused at the parser (exit 2, one
line) rather than deep in the work:

==================================  ==========================================================
type (options)                      range
==================================  ==========================================================
:func:`rounds` (``--rounds``)       1 .. :data:`MAX_ROUNDS` (10**12: eleven days of a game at
                                    a million rounds a second)
:func:`nodes` (``--max-nodes``)     1 .. :data:`MAX_NODES` (2**63 - 1, the searches' counter)
:func:`seed` (``--seed``)           0 .. :data:`MAX_SEED` (2**128 - 1, as the zoo's ``random``)
:func:`horizon` (``--horizon``,     0 .. :data:`MAX_HORIZON` (2**31 - 1: the compiled searches
``--levels``)                       count rounds in a C ``int``)
:func:`labels` (``--labels``)       2 .. :data:`MAX_LABELS` (256, a class's most labels)
:func:`noise` (``--noise``)         0 .. :data:`MAX_ROUNDS`
:func:`workers` (``--workers``)     1 .. :data:`MAX_WORKERS` (256)
:func:`seconds` (``--time-limit``)  more than 0, at most :data:`MAX_SECONDS` (10**9 s, 31 years)
:func:`inches` (``tree --width``)   1 .. :data:`MAX_INCHES` (100 inches, a poster's width)
``--dpi``                           10 .. 2400
==================================  ==========================================================

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
>>> rounds(str(10**30))
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected an integer from 1 to 1,000,000,000,000, got '1000000000000000000000000000000'
"""

from __future__ import annotations

import argparse
import sys

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.numerals import integer_text, real_text
from mistakebound.foundations.text import printable
# the most rounds of a game is the game's own range (``play(rounds=...)`` refuses the same)
from mistakebound.game.rules import MAX_ROUNDS
# the exit codes are defined in a module of their own (the start-up guard reads them before argparse loads)
from mistakebound.interfaces.exit_codes import EXIT_BAD_INPUT, EXIT_BROKEN, EXIT_INTERRUPTED, EXIT_OK

__all__ = [
    "EXIT_OK",
    "EXIT_BROKEN",
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
    "MAX_HORIZON",
    "MAX_INCHES",
    "MAX_LABELS",
    "MAX_MESSAGE_CHARS",
    "MAX_NODES",
    "MAX_ROUNDS",
    "MAX_SECONDS",
    "MAX_SEED",
    "MAX_WORKERS",
    "Parser",
    "add_figure",
    "figure_style",
    "horizon",
    "inches",
    "integer",
    "labels",
    "nodes",
    "noise",
    "positive",
    "rounds",
    "seed",
    "seconds",
    "shortened",
    "workers",
]


#: The most processes --workers may ask for (a typo must not start thousands).
MAX_WORKERS = 256
#: The most nodes of a search's budget (``--max-nodes``): the searches count them in 64 bits.
MAX_NODES = 2**63 - 1
#: The largest seed (``--seed``), as for the zoo's ``random`` class.
MAX_SEED = 2**128 - 1
#: The longest horizon (``--horizon``) and the most levels drawn (``--levels``): a C ``int`` of the compiled searches.
MAX_HORIZON = 2**31 - 1
#: The most labels of a game (``--labels``), as for a class.
MAX_LABELS = 256
#: The longest time limit (``--time-limit``), in seconds: 31 years.
MAX_SECONDS = 1e9
#: The widest figure (``tree --width``), in inches.
MAX_INCHES = 100.0


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
    """``text`` as an integer in ``[minimum, maximum]``, or an argparse error saying what was expected
    (:func:`~mistakebound.foundations.numerals.integer_text`: a 5,000-digit number is out of range, not
    "not an integer")."""
    try:
        return integer_text(text, name=None, minimum=minimum, maximum=maximum)
    except InvalidArgumentError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def positive(text: str) -> int:
    """An integer >= 1 (an option whose own code bounds it)."""
    return integer(text, 1)


def rounds(text: str) -> int:
    """The rounds of a game, 1 to :data:`MAX_ROUNDS` (``--rounds``)."""
    return integer(text, 1, MAX_ROUNDS)


def nodes(text: str) -> int:
    """A search's node budget, 1 to :data:`MAX_NODES` (``--max-nodes``)."""
    return integer(text, 1, MAX_NODES)


def seed(text: str) -> int:
    """A seed, 0 to :data:`MAX_SEED` (``--seed``)."""
    return integer(text, 0, MAX_SEED)


def horizon(text: str) -> int:
    """A horizon or a number of levels, 0 to :data:`MAX_HORIZON` (``--horizon``, ``--levels``)."""
    return integer(text, 0, MAX_HORIZON)


def labels(text: str) -> int:
    """A number of labels, 2 to :data:`MAX_LABELS` (``--labels``)."""
    return integer(text, 2, MAX_LABELS)


def noise(text: str) -> int:
    """A noise budget, 0 to :data:`MAX_ROUNDS` (``--noise``)."""
    return integer(text, 0, MAX_ROUNDS)


def workers(text: str) -> int:
    """An integer from 1 to :data:`MAX_WORKERS`."""
    return integer(text, 1, MAX_WORKERS)


def seconds(text: str) -> float:
    """A finite number of seconds > 0 and at most :data:`MAX_SECONDS` (``--time-limit``)."""
    try:
        return real_text(text, name=None, minimum=0.0, maximum=MAX_SECONDS, above=True, what="a number of seconds")
    except InvalidArgumentError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def inches(text: str) -> float:
    """A width in inches, 1 to :data:`MAX_INCHES` (``tree --width``)."""
    try:
        return real_text(text, name=None, minimum=1.0, maximum=MAX_INCHES, what="a width in inches")
    except InvalidArgumentError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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
