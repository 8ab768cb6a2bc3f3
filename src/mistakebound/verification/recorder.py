"""A tally of every game played while it watches: what the pytest report prints.

:class:`GameRecorder` is an :class:`~mistakebound.game.play.Observer`: installed for
every game with :meth:`GameRecorder.start` (or as a context manager), it records, at
the end of each game, who played on which class, the measured value, the learner's
claim and the verdict on it and on the adversary's claim — the same claims and verdict
as ``mistakebound check`` and ``mistakebound play`` give for that game: it reads the
adversary's claim when the game starts and judges the game when it ends with
:meth:`JudgedGame.after <mistakebound.verification.judged.JudgedGame.after>`, the step
:func:`~mistakebound.verification.judged.judged_game` ends with (the recorder watches
games it does not play).  ``pytest
--mistakebound-report`` (:mod:`mistakebound.verification.pytest_plugin`) uses one for a
whole test session.

Examples
--------
>>> from mistakebound.game import classes
>>> from mistakebound.game.play import play
>>> from mistakebound.learners import Halving
>>> from mistakebound.adversaries import OppositeLabel
>>> H = classes.thresholds(7)
>>> with GameRecorder() as recorder:
...     _ = play(Halving(H), OppositeLabel(), H, rounds=10, seed=0)
>>> r = recorder.records[0]
>>> r.learner, r.mistakes, r.bound, r.verdict
('Halving', 1, 3.0, 'ok')
>>> print(recorder.format_table())
learner  adversary      games  max mistakes  max mistakes/bound  violations
Halving  OppositeLabel      1             1               0.333           0
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from mistakebound.foundations.errors import MistakeboundError
from mistakebound.foundations.text import number_text
from mistakebound.foundations.text_tables import text_table
from mistakebound.game.play import GameInfo, Observer, observing
from mistakebound.game.transcript import Transcript
from mistakebound.verification.claims import forced_bound
from mistakebound.verification.judged import JudgedGame

__all__ = ["GameRecord", "GameRecorder"]


@frozen
class GameRecord:
    """One game seen by a :class:`GameRecorder`.

    Attributes
    ----------
    learner, adversary, class_name : str
    mistakes : float
        The measured value, in the claim's measure (mistakes, expected mistakes or regret).
    bound : float or None
        The learner's claim for the game (None when it states none).
    measure : str
    verdict : str
        :func:`~mistakebound.verification.claims.judge`'s verdict, or ``"ERROR"`` when the
        claim could not be read (``message`` says why).
    ratio : float or None
        Measured over bound.
    message : str
    """

    learner: str
    adversary: str
    class_name: str
    mistakes: float | None
    bound: float | None
    measure: str = "mistakes"
    verdict: str = "no bound"
    ratio: float | None = None
    message: str = ""

    @property
    def violation(self) -> bool:
        """Whether the game broke the learner's claim."""
        return self.verdict == "BROKEN"


class GameRecorder(Observer):
    """Records every game played while it is installed (see the module docstring)."""

    def __init__(self) -> None:
        self.records: list[GameRecord] = []
        self._installed: Any = None
        self._forced: dict = {}

    @property
    def active(self) -> bool:
        """Whether the recorder is installed."""
        return self._installed is not None

    def start(self) -> GameRecorder:
        """Install the recorder for every game (until :meth:`stop`)."""
        if not self.active:
            self._installed = observing(self)
            self._installed.__enter__()
        return self

    def stop(self) -> None:
        """Uninstall it."""
        if self.active:
            installed, self._installed = self._installed, None
            installed.__exit__(None, None, None)

    def __enter__(self) -> GameRecorder:
        return self.start()

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()

    def on_start(self, game: GameInfo) -> None:
        """Read the adversary's claim before round 1 (as every front end does)."""
        try:
            self._forced[id(game)] = forced_bound(game.adversary, game.H, learner=game.learner, rounds=game.rounds,
                                                  realizable=game.realizable, rules=game.rules)
        except MistakeboundError as exc:
            self._forced[id(game)] = exc

    def on_end(self, game: GameInfo, transcript: Transcript) -> None:
        """Record one finished game."""
        base = dict(learner=type(game.learner).__name__, adversary=type(game.adversary).__name__,
                    class_name=transcript.class_name or "")
        forced = self._forced.pop(id(game), None)
        try:
            if isinstance(forced, MistakeboundError):
                raise forced
            verdict = JudgedGame.after(game.learner, game.H, transcript, rounds=game.rounds,
                                       realizable=game.realizable, forced=forced).verdict
        except MistakeboundError as exc:  # a claim that cannot be read is reported, never raised into a test
            self.records.append(GameRecord(**base, mistakes=transcript.expected_mistakes, bound=None,
                                           verdict="ERROR", message=f"{type(exc).__name__}: {exc}"))
            return
        claim = verdict.bound
        self.records.append(GameRecord(**base, mistakes=verdict.lower, bound=claim.value, measure=claim.measure,
                                       verdict=verdict.status, ratio=verdict.ratio, message=verdict.message))

    def rows(self) -> list[dict]:
        """One row per (learner, adversary): games, max mistakes, max mistakes/bound, violations."""
        groups: dict = {}
        for r in self.records:
            groups.setdefault((r.learner, r.adversary), []).append(r)
        out = []
        for (learner, adversary), games in sorted(groups.items()):
            ratios = [g.ratio for g in games if g.ratio is not None]
            values = [g.mistakes for g in games if g.mistakes is not None]
            out.append({
                "learner": learner, "adversary": adversary, "games": len(games),
                "max mistakes": max(values) if values else None,
                "max mistakes/bound": max(ratios) if ratios else None,
                "violations": sum(g.violation for g in games),
            })
        return out

    def format_table(self) -> str:
        """The rows as an aligned text table (``-`` where no bound was stated)."""
        columns = ["learner", "adversary", "games", "max mistakes", "max mistakes/bound", "violations"]
        if not self.records:
            return "no games were played through mistakebound.play"

        body = [[number_text(row[c], digits=3) for c in columns] for row in self.rows()]
        return text_table(columns, body, right=columns[2:], rule=False)
