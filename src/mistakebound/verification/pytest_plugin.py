"""pytest plugin: ``pytest --mistakebound-report`` tallies every game a test session plays.

Installed with the package (entry point ``pytest11``), so the option exists in every
pytest run; it does nothing unless given.  With the option, every game played through
:func:`mistakebound.play` between the start and the end of the session is recorded by a
:class:`mistakebound.verification.recorder.GameRecorder`, an observer installed for
every game (:func:`mistakebound.game.play.observing`), and the terminal summary prints
one row per learner and adversary: games, the most mistakes, the largest ratio of the
measured value to the learner's claim (:func:`~mistakebound.verification.claims.stated_bound`)
and the number of games that broke it (:func:`~mistakebound.verification.claims.judge`).

The hooks pytest calls are in the top-level module ``_mistakebound_pytestplugin`` (the
entry point), which imports pytest alone: importing this module would import the package,
numpy and all, into the start-up of every pytest run in the environment, mistakebound's
users or not.  They call the two functions here only for a session given the option, and
nothing here needs hypothesis.

Examples
--------
On the command line::

    pytest --mistakebound-report
"""

from __future__ import annotations

from typing import Any

from mistakebound.verification.recorder import GameRecorder

__all__ = ["start_report", "write_report"]


def start_report() -> GameRecorder:
    """A recorder of every game played from now on (``pytest_sessionstart`` of a session with the option)."""
    return GameRecorder().start()


def write_report(terminalreporter: Any, recorder: GameRecorder) -> None:
    """The table of the games ``recorder`` saw, with its violations and unreadable claims, on pytest's terminal."""
    terminalreporter.write_sep("=", "mistakebound report")
    for line in recorder.format_table().splitlines():
        terminalreporter.write_line(line)
    violations = sum(r.violation for r in recorder.records)
    if violations:
        terminalreporter.write_line(
            f"{violations} game(s) broke the learner's claimed bound "
            "(a test may do so on purpose: this is a tally, not a verdict)"
        )
    errors = [r for r in recorder.records if r.verdict == "ERROR"]
    if errors:  # shown as "-" in the table, like no bound: say why
        terminalreporter.write_line(
            f"{len(errors)} game(s): the learner's claim could not be read (first: {errors[0].learner} on "
            f"{errors[0].class_name}: {errors[0].message})"
        )
