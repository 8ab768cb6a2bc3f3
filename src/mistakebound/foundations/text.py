"""How numbers and names are written in every table, verdict and message: a function each.

:func:`number_text`: integers (and floats that are whole numbers) are written plainly,
other floats to a number of significant digits, infinities as ``inf``, and a missing value
as ``-``.

:func:`printable`: a name (of a class, a hypothesis, a player, an instance, a file) as
one line of text, its control characters escaped as Python writes them (``\\n``,
``\\x1b``, ``\\u2028``), so that a name read from a file or an argument can neither
start a line of its own in the output nor drive the terminal.  Every layer that turns a
name into text calls it (``HypothesisClass.describe()``, ``hypothesis_name``, a player's
description, ``instance_text``, the command line's ``wrote`` lines and tables); the
command line passes whole blocks of its output through it too (``lines=True``).
:func:`one_line` is the same for a message: its runs of white space, line breaks
included, read as one space, and every other control character escaped.

Examples
--------
>>> number_text(4.0), number_text(2.584962500721156), number_text(float("inf")), number_text(None)
('4', '2.585', 'inf', '-')
>>> number_text(13.3169, digits=3), number_text(7)
('13.3', '7')
>>> print(printable("x\\nLdim = 99"))
x\\nLdim = 99
"""

from __future__ import annotations

import math
import numbers
import re
from typing import Any

__all__ = ["number_text", "one_line", "printable"]


def number_text(value: Any, *, digits: int = 4) -> str:
    """``value`` as text: whole numbers plainly, others to ``digits`` significant digits, None as ``-``."""
    if value is None:
        return "-"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    v = float(value)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v.is_integer() and abs(v) < 2**63:
        return str(int(v))
    return f"{v:.{digits}g}"


#: Characters never printed as they are: C0 and C1 controls (every line break among them:
#: ``\n``, ``\r``, ``\x0b``, ``\x0c``, ``\x1c``-``\x1e``, ``\x85``), DEL, the line and paragraph
#: separators, the invisible format characters that reorder or hide text (bidirectional
#: overrides, zero-width marks, BOM), and lone surrogates (which no output encoding takes).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ud800-\udfff\ufeff]")
_UNPRINTABLE_IN_LINES = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ud800-\udfff\ufeff]")


def printable(text: str, *, lines: bool = False) -> str:
    r"""``text`` on one line, its control characters escaped as Python writes them (``\x1b``, ``\r``).

    The one way a name becomes text (see the module docstring): a class, hypothesis,
    player or file name holding a line break or a terminal escape sequence is shown, never
    obeyed.  A backslash is kept as it is, so text already escaped is left unchanged.
    With ``lines=True`` line breaks (``\n``) and tabs are kept (for whole blocks of
    output, which the command line writes through it).

    Parameters
    ----------
    text : str
    lines : bool
        Keep ``\n`` and ``\t`` (every other control character is still escaped).

    Returns
    -------
    str

    Examples
    --------
    >>> print(printable("a\x1b[31mb.csv"))
    a\x1b[31mb.csv
    >>> print(printable("two\nlines"))
    two\nlines
    >>> printable("row\tcol\n", lines=True) == "row\tcol\n"
    True
    """
    if text.isprintable():  # the common case, at C speed: every character escaped below is unprintable to str
        return text
    pattern = _UNPRINTABLE_IN_LINES if lines else _UNPRINTABLE
    if pattern.search(text) is None:
        return text
    return pattern.sub(lambda m: repr(m.group())[1:-1], text)


def one_line(message: object) -> str:
    r"""A message on one line: runs of white space (line breaks included) as one space, other control characters
    escaped (:func:`printable`).

    Parameters
    ----------
    message : object
        Its ``str`` is taken (an exception, say).

    Returns
    -------
    str

    Examples
    --------
    >>> print(one_line("a bug\n  over two lines\x1b[2J"))
    a bug over two lines\x1b[2J
    """
    return printable(" ".join(str(message).split()))
