"""Consistent: predict with the first hypothesis still consistent with the history."""

from __future__ import annotations

from typing import Any

from attrs import define

from mistakebound.learners._setting import class_claim
from mistakebound.learners.version_space import VersionSpaceLearner
from mistakebound.verification.bounds import size_minus_one
from mistakebound.verification.claims import Bound

__all__ = ["Consistent"]

#: The theorem behind Consistent's claim.
SOURCE = "Corollary 21.2 (textbook ch. 21): M <= |H| - 1"


@define
class Consistent(VersionSpaceLearner):
    """Predicts as the lowest-index hypothesis of the version space.

    The textbook's Consistent picks any consistent hypothesis; this one fixes the
    choice to the first row of ``H`` still consistent, which makes it deterministic and
    lets the row order steer its worst case (Exercise 1: singletons with the empty
    hypothesis listed last force ``|H| - 1`` mistakes).  Each mistake removes at least
    that hypothesis, so it errs at most ``|H| - 1`` times (Corollary 21.2).  If the
    labels contradict every hypothesis (only in unrealizable games) it predicts 1.

    Parameters
    ----------
    H : HypothesisClass

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.adversaries import OppositeLabel
    >>> H = classes.singletons(5, include_empty=True)
    >>> play(Consistent(H), OppositeLabel(), H, rounds=10, seed=0).mistakes
    5
    >>> Consistent(H).bound(H).value
    5
    """

    def predict_one(self, x: Any) -> int:
        first = self.first()
        if first is None:
            return 1
        return int(self.H.matrix[first, self.H.index_of(x)])

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``|H| - 1`` mistakes in a realizable game on ``H`` (Corollary 21.2); none otherwise.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.thresholds(7)
        >>> Consistent(H).bound(H)
        Bound(value=7, measure='mistakes', source='Corollary 21.2 (textbook ch. 21): M <= |H| - 1', assumptions=('realizable',), reason='')
        >>> Consistent(H).bound(H, realizable=False).reason
        'Corollary 21.2 needs a realizable game'
        """
        return class_claim(self, setting, realizable=realizable, theorem="Corollary 21.2", source=SOURCE,
                           value=size_minus_one)
