"""OppositeLabel: always answer the opposite of the learner's prediction."""

from __future__ import annotations

from typing import Any

from attrs import define

from mistakebound.adversaries._labels import against, legal_against
from mistakebound.game.play import GameState
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Adversary

__all__ = ["OppositeLabel"]


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
