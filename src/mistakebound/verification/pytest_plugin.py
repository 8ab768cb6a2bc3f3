"""pytest plugin: ``pytest --mistakebound-report`` tallies every game a test session plays.

Installed with the package (entry point ``pytest11``), so the option exists in every
pytest run; it does nothing unless given.  With the option, every game played through
:func:`mistakebound.play` between the start and the end of the session is recorded by a
:class:`mistakebound.verification.recorder.GameRecorder`, an observer installed for
every game (:func:`mistakebound.game.play.observing`), and the terminal summary prints
one row per learner and adversary: games, the most mistakes, the largest ratio of the
measured value to the learner's claim (:func:`~mistakebound.verification.claims.stated_bound`)
and the number of games that broke it (:func:`~mistakebound.verification.claims.judge`).

Everything from ``mistakebound`` is imported inside the hooks, so the plugin costs
nothing when the option is absent, and it never needs hypothesis.

Examples
--------
On the command line::

    pytest --mistakebound-report
"""

from __future__ import annotations

from typing import Any

import pytest

__all__: list[str] = []

_RECORDER = pytest.StashKey[Any]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mistakebound")
    group.addoption(
        "--mistakebound-report",
        action="store_true",
        default=False,
        help="tally every game played through mistakebound.play and print a learner-by-adversary "
        "table (games, max mistakes, max mistakes/bound, violations) at the end",
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    if not session.config.getoption("mistakebound_report", default=False):
        return
    from mistakebound.verification.recorder import GameRecorder

    session.config.stash[_RECORDER] = GameRecorder().start()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    recorder = session.config.stash.get(_RECORDER, None)
    if recorder is not None:
        recorder.stop()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    recorder = config.stash.get(_RECORDER, None)
    if recorder is None:
        return
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
