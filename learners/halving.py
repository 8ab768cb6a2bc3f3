"""Halving: predict with the majority of the version space (tie -> 1)."""

from __future__ import annotations

from typing import Any

from attrs import define

from mistakebound.verification.bounds import log2_size
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.learners.version_space import VersionSpaceLearner

__all__ = ["Halving"]


@define
class Halving(VersionSpaceLearner):
    """Predicts the label given by most hypotheses still consistent; 1 on a tie.

    Every mistake at least halves the version space, so it errs at most
    ``log2 |H|`` times (Theorem 21.3).  Duplicate rows count as separate votes, as in
    the theorem.  If the version space is empty (only in unrealizable games) the vote
    is a 0-0 tie and it predicts 1.

    Parameters
    ----------
    H : HypothesisClass

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.adversaries import OppositeLabel
    >>> H = classes.singletons(16)
    >>> play(Halving(H), OppositeLabel(), H, rounds=20, seed=0).mistakes
    1
    >>> Halving.mistake_bound(H)
    4.0
    """

    bound_source = "Theorem 21.3 (textbook ch. 21): M <= log2 |H|"

    def predict_one(self, x: Any) -> int:
        return int(2 * self.count(x, 1) >= self.size)

    @classmethod
    def mistake_bound(cls, H: HypothesisClass) -> float:
        return log2_size(H)
