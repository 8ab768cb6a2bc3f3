"""ObliviousCoin: a sequence fixed in advance, labelled by coins or by a random target."""

from __future__ import annotations

from typing import Any

import numpy as np
from attrs import define, field
from attrs.validators import in_

from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import ObliviousAdversary

__all__ = ["ObliviousCoin"]


@define
class ObliviousCoin(ObliviousAdversary):
    """Commits before round 1 to uniformly drawn instances and their labels.

    Labels come from a target hypothesis drawn uniformly from the class
    (``labels="target"``, realizable) or from fair coins (``labels="coin"``); the
    default, ``None``, follows the game: a target in realizable games, coins otherwise.
    Everything is drawn from the adversary's generator, so the seed of the game fixes
    the sequence; the learner's moves cannot influence it.

    Parameters
    ----------
    labels : {None, "target", "coin"}

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import SOA
    >>> H = classes.thresholds(15)
    >>> T = play(SOA(H), ObliviousCoin(), H, rounds=30, seed=3)
    >>> len(T), T.mistakes <= 4
    (30, True)
    """

    labels: str | None = field(default=None, validator=in_((None, "target", "coin")))

    def applies_to(self, H: Any) -> bool:
        """Finite classes only: it reads the class's table."""
        return isinstance(H, HypothesisClass)

    def commit(
        self, H: HypothesisClass, rounds: int, rng: np.random.Generator, realizable: bool
    ) -> list[tuple[Any, int]]:
        mode = self.labels or ("target" if realizable else "coin")
        if H.n_instances == 0:
            return []
        cols = rng.integers(0, H.n_instances, size=rounds)
        if mode == "target":
            target = int(rng.integers(0, H.n_hypotheses))
            ys = H.matrix[target, cols]
        else:
            ys = rng.integers(0, 2, size=rounds)
        return [(H.domain[int(j)], int(y)) for j, y in zip(cols, ys)]
