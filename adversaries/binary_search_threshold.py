"""BinarySearchThreshold: present the instance that splits the version space most evenly."""

from __future__ import annotations

from typing import Any

from attrs import define

from mistakebound.adversaries._labels import legal_against
from mistakebound.game.play import GameState
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Adversary

__all__ = ["BinarySearchThreshold"]


@define
class BinarySearchThreshold(Adversary):
    """Binary search on thresholds; most even split on any other class.

    Each round it presents the instance whose split of the version space has the
    largest smaller side (the first such instance in domain order) and answers against
    the learner's prediction.  On ``thresholds(N)`` that instance is the midpoint of
    the interval of thresholds still in doubt, the version space keeps at least half
    its size after each answer, and every deterministic learner makes
    ``floor(log2(N + 1))`` mistakes (the binary-search adversary of the mistake-bound
    lecture notes).  The game ends when no instance splits the version space.

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import SOA
    >>> H = classes.thresholds(31)
    >>> play(SOA(H), BinarySearchThreshold(), H, rounds=50, seed=0).mistakes
    5
    """

    def applies_to(self, H: Any) -> bool:
        """Finite classes only: it reads the class's table."""
        return isinstance(H, HypothesisClass)

    def next_instance(self, state: GameState) -> Any:
        V = state.version_mask
        size = V.bit_count()
        best, best_x = 0, None
        for x, c in zip(state.H.domain, state.H.column_masks):
            ones = (V & c).bit_count()
            small = min(ones, size - ones)
            if small > best:
                best, best_x = small, x
        return best_x

    def label(self, state: GameState, x: Any, p: float) -> int:
        return legal_against(state, x, p)
