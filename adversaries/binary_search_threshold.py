"""BinarySearchThreshold: present the instance that splits the version space most evenly."""

from __future__ import annotations

import functools
from typing import Any

from attrs import define

from mistakebound.adversaries._forcing import forced_rounds, measure_for
from mistakebound.adversaries._labels import legal_against
from mistakebound.game import classes
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.play import GameState
from mistakebound.game.players import Adversary
from mistakebound.verification.claims import Bound

__all__ = ["BinarySearchThreshold", "threshold_size"]

#: Where its forced count comes from.
SOURCE = (
    "the binary-search adversary on thresholds (mistake-bound lecture notes, seed 001): "
    "floor(log2(N + 1)) mistakes on every deterministic learner"
)


@functools.lru_cache(maxsize=64)
def threshold_size(H: HypothesisClass) -> int | None:
    """``N`` if ``H`` has the domain and the hypotheses of ``classes.thresholds(N)`` (in any row order), else None.

    Examples
    --------
    >>> threshold_size(classes.thresholds(5)), threshold_size(classes.singletons(5))
    (5, None)
    """
    N = H.n_instances
    if N < 1 or H.n_hypotheses != N + 1 or H.domain != tuple(range(1, N + 1)):
        return None
    rows = sorted(map(bytes, H.matrix.astype("uint8")))
    return N if rows == sorted(map(bytes, classes.thresholds(N).matrix.astype("uint8"))) else None


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
    >>> BinarySearchThreshold().forces(H, learner=SOA(H)).value
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

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """``floor(log2(N + 1))`` mistakes on every deterministic learner on ``thresholds(N)``.

        Each round splits the interval of thresholds in doubt as evenly as it can and
        both labels stay possible, so it answers against the likelier prediction; an
        interval of ``s`` thresholds keeps at least ``floor(s/2)``, and the game lasts
        while ``s >= 2``: at least ``floor(log2(N + 1))`` rounds from ``N + 1``.  A
        randomized learner pays at least half of that in expectation.

        Returns
        -------
        Bound
            None with the reason on any class but ``thresholds(N)``.

        Examples
        --------
        >>> from mistakebound.learners import Halving
        >>> H = classes.singletons(4)
        >>> BinarySearchThreshold().forces(H, learner=Halving(H)).reason
        'its forced count is proven on thresholds(N) only; singletons(4) is not one'
        """
        measure = measure_for(learner, realizable, True)
        N = threshold_size(setting) if isinstance(setting, HypothesisClass) else None
        if N is None:
            where = setting.describe() if isinstance(setting, HypothesisClass) else "the game's setting"
            return Bound.none(f"its forced count is proven on thresholds(N) only; {where} is not one",
                              measure=measure)
        return forced_rounds((N + 1).bit_length() - 1, learner=learner, rounds=rounds, realizable=realizable,
                             source=SOURCE, assumptions=(f"H = thresholds({N})",))
