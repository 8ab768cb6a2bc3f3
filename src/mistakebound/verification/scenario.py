"""Named, seeded experiments whose outcome is judged against a claimed bound.

A :class:`Scenario` is what ``mistakebound check`` runs beyond the learner-by-adversary
grid: a learner, an adversary and a setting (a space, a class, a horizon), and a
function that plays it for a seed and returns an :class:`Outcome`: the measured
quantity, the claim it is judged against (a
:class:`~mistakebound.verification.claims.Bound`: the learner's own, read with
:func:`~mistakebound.verification.claims.stated_bound`, or a theorem the experiment
tests) and, for lower-bound adversaries, the count they force.  The verdict is
:func:`~mistakebound.verification.claims.judge`'s, as everywhere else.

Most scenarios are one game between players named in the registry, judged on their
own claims: :func:`game` plays it and returns the :class:`Outcome`.

Examples
--------
>>> s = Scenario("Halving", "BinarySearchThreshold", "thresholds(7)",
...              lambda seed: game("Halving", "BinarySearchThreshold", "thresholds:7", rounds=10, seed=seed))
>>> outcome = s.run(0)
>>> outcome.value, outcome.bound.value, outcome.forced.value, outcome.verdict
(3, 3.0, 3, 'ok')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attrs import field, frozen
from attrs.validators import in_, instance_of, is_callable, optional

from mistakebound.verification.claims import MEASURES, Bound, Verdict, judge, judge_transcript, measured
from mistakebound.verification.judged import judged_game

__all__ = ["Outcome", "Scenario", "game"]


@frozen
class Outcome:
    """The result of one scenario run.

    Attributes
    ----------
    value : float
        The measured quantity.
    bound : Bound or None
        The claimed upper bound on ``value`` (None when the scenario only forces).
    forced : Bound or None
        The count the adversary forces (a lower bound on ``value``).
    note : str
        Anything a reader of the table should know (the theorem, a parameter).
    transcript : Transcript or OCOTranscript, optional
        The game, when the outcome is one game: each claim is then judged on its own
        measure (:func:`~mistakebound.verification.claims.judge_transcript`).
    """

    value: float
    bound: Bound | None = field(default=None, validator=optional(instance_of(Bound)))
    forced: Bound | None = field(default=None, validator=optional(instance_of(Bound)))
    note: str = ""
    transcript: Any = field(default=None, eq=False, repr=False)

    @property
    def judged(self) -> Verdict:
        """The verdict on the claims (:func:`~mistakebound.verification.claims.judge`)."""
        if self.transcript is not None:
            return judge_transcript(self.transcript, self.bound, self.forced)
        return judge(self.value, self.bound, self.forced)

    @property
    def verdict(self) -> str:
        """The verdict's status: ``"ok"``, ``"BROKEN"`` or ``"no bound"``."""
        return self.judged.status


@frozen
class Scenario:
    """A named experiment: ``run(seed) -> Outcome``; ``measure`` is one of the claims' ``MEASURES``."""

    learner: str
    adversary: str
    setting: str
    run: Callable[[int], Outcome] = field(validator=is_callable())
    measure: str = field(default="mistakes", validator=in_(MEASURES))


def game(learner: Any, adversary: Any, setting: Any, *, rounds: int, seed: int, realizable: bool = True,
         note: str = "", rules: Any = None) -> Outcome:
    """One game between players built by the registry, judged on their own claims.

    Parameters
    ----------
    learner, adversary
        Names (or entries, or types) for :func:`mistakebound.game.registry.build`, or
        players already built.
    setting
        A class, a space, an :class:`~mistakebound.game.oco.OCOSetting`, or a spec for
        :func:`mistakebound.game.registry.load_setting`.
    rounds, seed, realizable
        The game's horizon, seed and kind.
    note : str
        Anything a reader of the table should know (the theorem, a parameter).
    rules : Rules, optional
        The game's rules (:class:`~mistakebound.game.rules.Rules`; None: the textbook's).

    Returns
    -------
    Outcome
        The game of :func:`~mistakebound.verification.judged.judged_game`: the value in the measure of the
        learner's claim
        (:func:`~mistakebound.verification.claims.stated_bound`), the claim, and the
        count the adversary claims to force
        (:func:`~mistakebound.verification.claims.forced_bound`).
    """
    g = judged_game(learner, adversary, setting, rounds=rounds, seed=seed, realizable=realizable, rules=rules)
    return Outcome(value=measured(g.transcript, g.bound.measure), bound=g.bound,
                   forced=g.forced if g.forced.stated else None, note=note, transcript=g.transcript)
