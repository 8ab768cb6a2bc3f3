"""OppositeLabel: always answer the opposite of the learner's prediction."""

from __future__ import annotations

from typing import Any

from attrs import define

from mistakebound.adversaries._forcing import forced_rounds, measure_for
from mistakebound.adversaries._labels import against, legal_against
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.play import GameState
from mistakebound.game.players import Adversary
from mistakebound.verification.claims import Bound

__all__ = ["OppositeLabel"]

#: Where its forced count comes from.
SOURCE = "Cover's argument (textbook ch. 21): answered against every prediction, a deterministic learner errs every round"


@define
class OppositeLabel(Adversary):
    """Labels every round against the learner's (more likely) prediction.

    In a realizable game it only presents instances on which the version space still
    disagrees, the first such instance in domain order, so either label is legal and
    every round is a forced mistake for a deterministic learner; the game ends when
    the version space agrees everywhere.  In an unrealizable game it presents the first
    instance of the domain again and again: a deterministic learner then errs in every
    round, while the better of two constant hypotheses errs at most half the time
    (Cover's argument, regret >= T/2).

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import Halving
    >>> H = classes.thresholds(7)
    >>> T = play(Halving(H), OppositeLabel(), H, rounds=100, seed=0, realizable=False)
    >>> T.mistakes, T.regret >= 50
    (100, True)
    """

    def applies_to(self, H: Any) -> bool:
        """Finite classes only: it reads the class's table."""
        return isinstance(H, HypothesisClass)

    def next_instance(self, state: GameState) -> Any:
        if not state.realizable:
            return state.H.domain[0] if state.H.n_instances else None
        open_questions = state.disagreements()
        return open_questions[0] if open_questions else None

    def label(self, state: GameState, x: Any, p: float) -> int:
        return legal_against(state, x, p) if state.realizable else against(p)

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """In an unrealizable game, a mistake of every deterministic learner in each of the ``rounds`` rounds.

        It repeats the first instance and answers against the likelier prediction, so a
        randomized learner pays at least ``rounds / 2`` in expectation.  In a realizable
        game every round it plays is a mistake too, but how many it plays depends on the
        learner: no count is claimed.

        Examples
        --------
        >>> from mistakebound import classes
        >>> from mistakebound.learners import Halving
        >>> H = classes.thresholds(7)
        >>> OppositeLabel().forces(H, learner=Halving(H), rounds=100, realizable=False).value
        100
        """
        measure = measure_for(learner, realizable, False)
        if not isinstance(setting, HypothesisClass):
            return Bound.none("OppositeLabel plays on a finite class", measure=measure)
        if realizable:
            return Bound.none("in a realizable game the number of rounds it plays depends on the learner's "
                              "answers: no count is claimed", measure=measure)
        if rounds is None:
            return Bound.none("in an unrealizable game it forces a mistake in every round until the horizon: "
                              "give rounds", measure=measure)
        if not setting.n_instances:
            return Bound.none("the class has no instance to present", measure=measure)
        return forced_rounds(rounds, learner=learner, rounds=rounds, realizable=False, source=SOURCE,
                             labels_consistent=False)
