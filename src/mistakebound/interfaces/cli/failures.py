"""The command line's own failures: each becomes one line on stderr and an exit code (see :func:`~mistakebound.interfaces.cli.main`).

* :class:`BadInput`: bad user input (exit 2);
* :class:`OutputFailed`: an output file (or standard output) that could not be written
  after the work was done (exit 2; the results were printed);
* :class:`ClaimFailed`: a finished game whose claims could not be read (exit 1; the game
  is still shown).

Examples
--------
>>> str(BadInput("CLASS: expected a class"))
'CLASS: expected a class'
"""

from __future__ import annotations

from typing import Any

__all__ = ["BadInput", "ClaimFailed", "OutputFailed"]


class BadInput(Exception):
    """Bad user input, reported as one line on stderr with exit code 2."""


class OutputFailed(Exception):
    """An output file could not be written after the work was done (exit code 2; the results were printed)."""


class ClaimFailed(Exception):
    """A finished game whose claims could not be read (the claim raised): the game is still shown."""

    def __init__(self, error: Exception, transcript: Any):
        super().__init__(str(error))
        self.error = error
        self.transcript = transcript
