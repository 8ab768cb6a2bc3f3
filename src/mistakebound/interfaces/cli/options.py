"""Options several commands share, and the length every argument is held to.

* :func:`add_budget`: ``--max-nodes`` and ``--time-limit`` of a search;
* :func:`add_certificate`: ``--certificate FILE.json``, and :data:`CERTIFICATE_SUFFIXES`;
* :func:`check_lengths`: an argument longer than :data:`MAX_ARGUMENT_CHARS` refused
  before anything reads it.

Examples
--------
>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_budget(p, "the search")
>>> p.parse_args(["--max-nodes", "10"])
Namespace(max_nodes=10, time_limit=None)
>>> check_lengths(argparse.Namespace(cls="x" * 5000))
Traceback (most recent call last):
...
mistakebound.interfaces.cli.failures.BadInput: CLASS: expected at most 4,096 characters (a name, a class spec or a file name), got 5,000: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'...
"""

from __future__ import annotations

import argparse

from mistakebound.interfaces.arguments import positive, seconds
from mistakebound.interfaces.cli.failures import BadInput

__all__ = ["CERTIFICATE_SUFFIXES", "DEFAULT_ROUNDS", "MAX_ARGUMENT_CHARS", "add_budget", "add_certificate",
           "check_lengths"]

#: Default number of rounds of ``play`` and ``plot``.
DEFAULT_ROUNDS = 100

#: The file names ``--certificate`` takes: JSON, or JSON compressed with gzip (``.json.gz``).
CERTIFICATE_SUFFIXES = (".json", ".gz")

#: The most characters an argument (a name, a class spec, a file name) may hold: a file
#: name's limit on Linux (PATH_MAX).  Longer ones are refused before anything reads them.
MAX_ARGUMENT_CHARS = 4096
_METAVARS = {"cls": "CLASS", "learner": "LEARNER", "adversary": "ADVERSARY", "config": "CONFIG.toml"}


def add_budget(p: argparse.ArgumentParser, what: str, default_nodes: int | None = None) -> None:
    """``--max-nodes`` and ``--time-limit``: the budget of ``what`` (a search)."""
    p.add_argument("--max-nodes", type=positive, default=default_nodes,
                   help=f"stop {what} after this many nodes and print proven bounds (exit 3)")
    p.add_argument("--time-limit", type=seconds, default=None,
                   help=f"stop {what} after this many seconds and print proven bounds (exit 3); Ctrl-C does the same")


def add_certificate(p: argparse.ArgumentParser, what: str) -> None:
    """``--certificate FILE.json``: a certificate of ``what``, for ``mistakebound verify``."""
    p.add_argument("--certificate", metavar="FILE.json", default=None,
                   help=f"also write a certificate of {what} to this file (.json, or .json.gz compressed), "
                        "whose every step `mistakebound verify FILE` checks")


def check_lengths(args: argparse.Namespace) -> None:
    """Refuse an argument longer than :data:`MAX_ARGUMENT_CHARS` (50,000 ``[`` as a class spec, say)."""
    for key, value in vars(args).items():
        if isinstance(value, str) and len(value) > MAX_ARGUMENT_CHARS:
            name = _METAVARS.get(key, "--" + key.replace("_", "-"))
            raise BadInput(f"{name}: expected at most {MAX_ARGUMENT_CHARS:,} characters (a name, a class spec or a "
                           f"file name), got {len(value):,}: {value[:40]!r}...")
