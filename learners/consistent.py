"""Consistent: predict with the first hypothesis still consistent with the history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from attrs import define

from mistakebound.learners._setting import class_claim
from mistakebound.learners.version_space import VersionSpaceLearner, policy_applies
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

    #: The first row decides: renaming instances changes nothing, reordering rows does.
    symmetries: ClassVar[frozenset[str]] = frozenset({"instances"})

    def version_space_policy(self, H: Any) -> Callable[[int, int], int] | None:
        """The prediction as a function of the version space: the label of ``V``'s lowest row (1 if none).

        For the worst-case search (see :mod:`mistakebound.theory.symmetry`); None when the
        game is not on this learner's class, the learner has learned something, or a
        subclass changed how it predicts or learns.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.thresholds(3)
        >>> predict = Consistent(H).version_space_policy(H)
        >>> predict(0b1100, 2), predict(0b1000, 2), predict(0, 0)
        (0, 1, 1)
        """
        if not policy_applies(self, H, Consistent):
            return None
        cols = H.column_masks

        def predict(V: int, j: int) -> int:
            return 1 if V == 0 else int(cols[j] & (V & -V) != 0)

        return predict

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
