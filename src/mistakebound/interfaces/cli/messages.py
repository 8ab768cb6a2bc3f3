"""The command line's lines on stderr: an error (an outcome, counted) or a note (while the command works).

Every line reads ``mistakebound COMMAND: MESSAGE``, on one line, its control characters
escaped and its middle cut when it is longer than about 2,000 characters
(:func:`~mistakebound.interfaces.arguments.shortened`).

Examples
--------
>>> import contextlib, io
>>> err = io.StringIO()
>>> with contextlib.redirect_stderr(err):
...     error("ldim", "error: two\\nlines")
>>> err.getvalue()
'mistakebound ldim: error: two lines\\n'
"""

from __future__ import annotations

import sys

from mistakebound.foundations.text import one_line, printable
from mistakebound.interfaces.arguments import shortened

__all__ = ["SAID", "error", "note"]

#: How many lines the command line printed on stderr in this process (``SAID["lines"]``).
SAID = {"lines": 0}


def error(command: str, message: str, exc: BaseException | None = None) -> None:
    """One line on stderr: ``mistakebound COMMAND: error: MESSAGE`` (control characters escaped), counted in :data:`SAID`."""
    SAID["lines"] += 1
    note(command, message, exc)


def note(command: str, message: str, exc: BaseException | None = None) -> None:
    """One line on stderr that reports no outcome (a note while the command works): not counted in :data:`SAID`."""
    message = shortened(one_line(message) or (type(exc).__name__ if exc is not None else "error"))
    try:
        print(printable(f"mistakebound{' ' + command if command else ''}: {message}"), file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr closed: the exit code still says it
        pass
