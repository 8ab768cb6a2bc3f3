"""One judged game: state the claims, play, judge, in one call every front end makes.

:func:`judged_game` is the one door to "play this learner against this adversary and
say whether their claims hold": it reads the adversary's claim before the game
(:func:`~mistakebound.verification.claims.forced_bound`: an adversary may replay its
line on a snapshot of the learner), plays the game (:func:`~mistakebound.game.play.play`),
reads the learner's claim after it, with the transcript
(:func:`~mistakebound.verification.claims.stated_bound`), and judges each claim on its own
measure (:func:`~mistakebound.verification.claims.judge_transcript`).  It returns one
:class:`JudgedGame`: the transcript, the two claims and the verdict.

``mistakebound check`` (:func:`~mistakebound.verification.selfcheck.run_check`), a
sweep's game cells, the scenarios of the check command
(:func:`~mistakebound.verification.scenario.game`) and ``mistakebound play`` call it; the
pytest report's recorder, which watches games it does not play, reads the adversary's
claim when a game starts and judges it with :meth:`JudgedGame.after`, the same step.

Examples
--------
>>> from mistakebound import classes
>>> g = judged_game("SOA", "ShatteredTreeWalker", classes.thresholds(7), rounds=10, seed=0)
>>> g.verdict.status, g.transcript.mistakes, g.bound.value, g.forced.value
('ok', 3, 3, 3)
>>> g.bound.describe()
'3 on mistakes (Lemma 21.7 (textbook ch. 21): M <= Ldim(H))'
"""

from __future__ import annotations

from typing import Any

from attrs import field, frozen

from mistakebound.foundations.errors import MistakeboundError
from mistakebound.foundations.validation import check_flag, check_int
from mistakebound.game import registry
from mistakebound.game.play import play
from mistakebound.verification.claims import Bound, Verdict, forced_bound, judge_transcript, stated_bound

__all__ = ["JudgedGame", "judged_game"]


@frozen
class JudgedGame:
    """A finished game with its claims and the verdict on them.

    Attributes
    ----------
    transcript : Transcript or OCOTranscript
        The game.
    bound : Bound
        The learner's claim, read after the game with its transcript (a :class:`Bound`
        without a number, and the reason, when it states none).
    forced : Bound
        The adversary's claim (what it forces), read before the game.
    verdict : Verdict
        Each claim judged on its own measure
        (:func:`~mistakebound.verification.claims.judge_transcript`); its ``bound`` and
        ``forced`` are :attr:`bound` and :attr:`forced`.
    learner, adversary
        The players of the game (built by :func:`judged_game` when given by name).
    """

    transcript: Any = field(repr=False)
    bound: Bound
    forced: Bound
    verdict: Verdict
    learner: Any = field(default=None, eq=False, repr=False)
    adversary: Any = field(default=None, eq=False, repr=False)

    @property
    def measured(self) -> float | None:
        """The game's value in the learner's claim's measure (the verdict's ``lower``)."""
        return self.verdict.lower

    @classmethod
    def after(cls, learner: Any, setting: Any, transcript: Any, *, rounds: int | None = None,
              realizable: bool = True, forced: Bound | None = None, adversary: Any = None) -> JudgedGame:
        """Judge a finished game: read the learner's claim now, with the transcript, and judge it beside
        ``forced``, the adversary's claim read before the game.

        A :class:`~mistakebound.foundations.errors.MistakeboundError` raised while the
        learner's claim is read (a :class:`~mistakebound.verification.claims.ClaimError`,
        say) carries the finished game as its ``transcript``: nothing played is lost.

        Examples
        --------
        >>> from mistakebound import classes, play
        >>> H = classes.thresholds(7)
        >>> learner, adversary = registry.build("learner", "Halving", H), registry.build("adversary", "OppositeLabel", H)
        >>> T = play(learner, adversary, H, rounds=10, seed=0)
        >>> g = JudgedGame.after(learner, H, T, rounds=10)
        >>> g.verdict.status, g.measured, g.bound.value, g.forced.stated
        ('ok', 1, 3.0, False)
        """
        try:
            claim = stated_bound(learner, setting, rounds=rounds, realizable=realizable, transcript=transcript,
                                 rules=getattr(transcript, "rules", None))
            if forced is None:
                forced = Bound.none("no claim of the adversary's was read before the game",
                                    measure=claim.measure)
            verdict = judge_transcript(transcript, claim, forced)
        except MistakeboundError as exc:
            if exc.transcript is None:
                exc.transcript = transcript
            raise
        return cls(transcript, claim, forced, verdict, learner, adversary)


def _player(kind: str, player: Any, setting: Any, rounds: int, rules: Any = None) -> Any:
    """``player`` itself when it is a player of ``kind``, else built by the registry from its name, entry or type
    (for the game's ``rules``)."""
    if registry.player_kind(player) == kind and not isinstance(player, type):
        return player
    return registry.build(kind, player, setting, rounds=rounds, rules=rules)


def judged_game(learner: Any, adversary: Any, setting: Any, *, rounds: int, seed: Any = 0, realizable: bool = True,
                observers: Any = (), keep: str = "rounds", out: Any = None, rules: Any = None) -> JudgedGame:
    """Play one game and judge both players' claims on it: the one judged game of every front end.

    Parameters
    ----------
    learner, adversary
        The players, or their names (``"Halving"``, ``"ObliviousCoin(labels=coin)"``),
        registry entries or types, built by :func:`mistakebound.game.registry.build`
        for ``setting`` and ``rounds``.  A player given as itself is played as it is
        (not copied).
    setting
        A :class:`~mistakebound.game.setting.Setting` (a class, a space, an online convex
        optimisation setting) or its spec (``"thresholds:7"``), read by
        :func:`mistakebound.game.registry.load_setting`.
    rounds : int
        The horizon (at least 0).
    seed, realizable, observers, keep, out, rules
        As for :func:`~mistakebound.game.play.play`; the claims are read for ``rules``
        (:func:`~mistakebound.verification.claims.stated_bound`).

    Returns
    -------
    JudgedGame
        The transcript, the learner's claim (read after the game), the adversary's
        (read before it) and the verdict.

    Raises
    ------
    NotApplicableError
        When a player built by name does not apply to the setting, or the adversary
        refuses it before round 1 (no game is played).
    GameError
        When a player breaks a rule (carrying the rounds played before it).
    ClaimError
        When a claim cannot be read; raised after the game, it carries the finished game
        as its ``transcript``.
    InvalidArgumentError
        For a bad ``rounds``, ``realizable`` or setting spec, and what
        :func:`~mistakebound.game.play.play` refuses.

    Examples
    --------
    >>> g = judged_game("Halving", "OppositeLabel", "thresholds:7", rounds=10, seed=0)
    >>> g.verdict.status, g.measured, g.bound.value
    ('ok', 1, 3.0)
    >>> judged_game("Halving", "OppositeLabel", "thresholds:7", rounds=-1)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: rounds: expected an integer >= 0, got -1
    """
    rounds = check_int("rounds", rounds, 0)
    realizable = check_flag("realizable", realizable)
    if isinstance(setting, str):
        setting = registry.load_setting(setting)
    L = _player("learner", learner, setting, rounds, rules)
    A = _player("adversary", adversary, setting, rounds, rules)
    forced = forced_bound(A, setting, learner=L, rounds=rounds, realizable=realizable, rules=rules)  # before the game
    T = play(L, A, setting, rounds=rounds, seed=seed, realizable=realizable, observers=observers, keep=keep, out=out,
             rules=rules)
    return JudgedGame.after(L, setting, T, rounds=rounds, realizable=realizable, forced=forced, adversary=A)
