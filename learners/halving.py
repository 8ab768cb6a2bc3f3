"""Halving: predict with the majority of the version space (tie -> 1)."""

from __future__ import annotations

from typing import Any

from attrs import define

from mistakebound.learners._setting import class_claim
from mistakebound.learners.version_space import VersionSpaceLearner
from mistakebound.verification.bounds import log2_size
from mistakebound.verification.claims import Bound

__all__ = ["Halving"]

#: The theorem behind Halving's claim.
SOURCE = "Theorem 21.3 (textbook ch. 21): M <= log2 |H|"


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
    >>> Halving(H).bound(H).value
    4.0
    """

    def predict_one(self, x: Any) -> int:
        return int(2 * self.count(x, 1) >= self.size)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``log2 |H|`` mistakes in a realizable game on ``H`` (Theorem 21.3); none otherwise.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.thresholds(15)
        >>> Halving(H).bound(H).describe()
        '4 on mistakes (Theorem 21.3 (textbook ch. 21): M <= log2 |H|)'
        >>> Halving(H).bound(classes.thresholds(7)).reason
        'Halving was built for thresholds(15); the game is on thresholds(7)'
        """
        return class_claim(self, setting, realizable=realizable, theorem="Theorem 21.3", source=SOURCE,
                           value=log2_size)
