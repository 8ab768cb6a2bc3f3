"""A base for learners over a finite class that keep the version space.

Examples
--------
>>> from attrs import define
>>> from mistakebound import classes
>>> @define
... class AnySurvivorSaysOne(VersionSpaceLearner):
...     def predict_one(self, x):
...         return int(self.count(x, 1) > 0)
>>> L = AnySurvivorSaysOne(classes.thresholds(3))
>>> L.learn_one(2, 0)
>>> L.version_space.tolist()
[0, 1]
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.validation import check_instance
from mistakebound.game.hypothesis_class import HypothesisClass, require_binary
from mistakebound.game.players import Learner
from mistakebound.game.version_space import VersionSpace
from mistakebound.learners._setting import not_applicable
from mistakebound.theory.symmetry import keeps_methods

__all__ = ["VersionSpaceLearner", "policy_applies"]


@define
class VersionSpaceLearner(Learner):
    """Keeps the hypotheses of ``H`` consistent with every label seen.

    Subclasses implement ``predict_one`` with :meth:`count` and :meth:`first`;
    ``learn_one`` narrows the version space (a :class:`~mistakebound.game.version_space.VersionSpace`,
    a bitset that becomes an index array once few hypotheses survive).  If the labels
    contradict every hypothesis (possible only in unrealizable games) the version space
    becomes empty and stays so.

    Parameters
    ----------
    H : HypothesisClass

    Raises
    ------
    InvalidArgumentError
        If ``H`` is not a :class:`~mistakebound.HypothesisClass`.
    """

    H: HypothesisClass = field(validator=lambda self, a, v: check_instance("H", v, HypothesisClass, "a HypothesisClass"))
    _vs: VersionSpace = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        require_binary(self.H, what=f"{type(self).__name__}, a learner of 0/1 classes,")
        self._vs = VersionSpace(self.H)

    @property
    def size(self) -> int:
        """Number of hypotheses still consistent."""
        return self._vs.size

    @property
    def version_space(self) -> np.ndarray:
        """Row indices of the hypotheses still consistent."""
        return self._vs.rows()

    def count(self, x: Any, y: int) -> int:
        """How many hypotheses still consistent label ``x`` with ``y``."""
        return self._vs.count(self.H.index_of(x), y)

    def first(self) -> int | None:
        """The lowest row index still consistent (None if none)."""
        return self._vs.first()

    def learn_one(self, x: Any, y: int) -> None:
        self._vs.restrict(self.H.index_of(x), y)

    def state_key(self) -> int:
        """The learner's whole state: the version space as a bitset."""
        return self._vs.mask

    def snapshot(self) -> VersionSpaceLearner:
        """A copy in the current state (the class is shared, not copied)."""
        other = copy.copy(self)
        other._vs = self._vs.copy()
        return other

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> VersionSpaceLearner:
        """A fresh learner for a game on the finite class ``setting`` (``rounds`` is not needed).

        Raises
        ------
        NotApplicableError
            If ``setting`` is not a :class:`~mistakebound.HypothesisClass` (the learner
            keeps a version space, so it needs the class's table).
        """
        if not isinstance(setting, HypothesisClass):
            raise not_applicable(cls.__name__, setting, "finite classes (it keeps the version space of the table)")
        return cls(setting)


def policy_applies(learner: Any, H: Any, base: type) -> bool:
    """Whether a version-space policy written for ``base`` describes ``learner`` on ``H``: the game is on its
    class, it is in its initial state (it has learned nothing), and it keeps ``base``'s own methods."""
    if not keeps_methods(learner, base):
        return False
    if H is not learner.H and H != learner.H:
        return False
    return isinstance(H.full_mask, int) and learner.state_key() == H.full_mask
