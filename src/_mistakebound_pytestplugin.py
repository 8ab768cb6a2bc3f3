"""mistakebound's pytest hooks, loaded into every pytest run of the environment: they import pytest alone.

pytest imports every ``pytest11`` entry point at start-up, in every project of the
environment, whether it uses mistakebound or not.  A module inside the package would
import the package (numpy, the game, the zoo: about a quarter of a second) into all of
them; this one is top-level, as hypothesis's ``_hypothesis_pytestplugin`` is, and imports
nothing of mistakebound until a session asks for ``--mistakebound-report``.  The report
itself (the recorder and the table) is :mod:`mistakebound.verification.pytest_plugin`.

It also notes each session's rootdir (:data:`ROOTDIRS`), where the check kit keeps
hypothesis's files (:func:`mistakebound.verification.bound_check.project_root`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

__all__ = ["ROOTDIRS"]

#: The rootdir of each pytest session configured in this process, the innermost last
#: (a session inside a test, as pytester runs, adds its own until it ends).
ROOTDIRS: list[Path] = []

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


def pytest_configure(config: pytest.Config) -> None:
    ROOTDIRS.append(Path(config.rootpath))


def pytest_unconfigure(config: pytest.Config) -> None:
    if Path(config.rootpath) in ROOTDIRS:
        ROOTDIRS.remove(Path(config.rootpath))


def pytest_sessionstart(session: pytest.Session) -> None:
    if not session.config.getoption("mistakebound_report", default=False):
        return
    from mistakebound.verification.pytest_plugin import start_report

    session.config.stash[_RECORDER] = start_report()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    recorder = session.config.stash.get(_RECORDER, None)
    if recorder is not None:
        recorder.stop()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    recorder = config.stash.get(_RECORDER, None)
    if recorder is not None:
        from mistakebound.verification.pytest_plugin import write_report

        write_report(terminalreporter, recorder)
