"""Halving: predict with the majority of the version space (tie -> 1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from attrs import define

from mistakebound.learners._setting import class_claim
from mistakebound.learners.version_space import VersionSpaceLearner, policy_applies
from mistakebound.theory.symmetry import MajorityVote
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

    #: A vote of the version space's rows: renaming instances or reordering rows changes nothing.
    symmetries: ClassVar[frozenset[str]] = frozenset({"instances", "rows"})

    def predict_one(self, x: Any) -> int:
        return int(2 * self.count(x, 1) >= self.size)

    def version_space_policy(self, H: Any) -> Callable[[int, int], int] | None:
        """The prediction as a function of the version space: ``(V, j) -> 1`` iff ``2 |V_x^1| >= |V|``.

        For the worst-case search (see :mod:`mistakebound.theory.symmetry`); None when the
        game is not on this learner's class, the learner has learned something, or a
        subclass changed how it predicts or learns.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.thresholds(3)
        >>> predict = Halving(H).version_space_policy(H)
        >>> [predict(H.full_mask, j) for j in range(3)], predict(0b0011, 1)
        ([1, 1, 0], 0)
        """
        if not policy_applies(self, H, Halving):
            return None
        return MajorityVote(H.column_masks)

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

