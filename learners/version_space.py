"""A base for learners over a finite class that keep the version space.

Examples
--------
>>> from attrs import define
>>> from mistakebound import classes
>>> @define
... class FirstSurvivor(VersionSpaceLearner):
...     def predict_one(self, x):
...         return 1 if self.survivors_labelling(x, 1) else 0
>>> L = FirstSurvivor(classes.thresholds(3))
>>> L.learn_one(2, 0)
>>> L.version_space.tolist()
[0, 1]
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.bitset import mask_to_indices
from mistakebound.hypothesis_class import HypothesisClass
from mistakebound.players import Learner

__all__ = ["VersionSpaceLearner"]


@define
class VersionSpaceLearner(Learner):
    """Keeps the bitset of the hypotheses of ``H`` consistent with every label seen.

    Subclasses implement ``predict_one``; ``learn_one`` narrows the version space.  If
    the labels contradict every hypothesis (possible only in unrealizable games) the
    version space becomes empty and stays so.

    Parameters
    ----------
    H : HypothesisClass
    """

    H: HypothesisClass
    _V: int = field(init=False, repr=False)
    _size: int = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._V = self.H.full_mask
        self._size = self.H.n_hypotheses

    @property
    def size(self) -> int:
        """Number of hypotheses still consistent."""
        return self._size

    @property
    def version_space(self) -> np.ndarray:
        """Row indices of the hypotheses still consistent."""
        return mask_to_indices(self._V)

    def survivors_labelling(self, x: Any, y: int) -> int:
        """The bitset of hypotheses still consistent that label ``x`` with ``y``."""
        ones = self._V & self.H.column_masks[self.H.index_of(x)]
        return ones if y == 1 else self._V ^ ones

    def learn_one(self, x: Any, y: int) -> None:
        V = self.survivors_labelling(x, y)
        if V != self._V:
            self._V = V
            self._size = V.bit_count()

    def state_key(self) -> int:
        """The learner's whole state: the version space bitset."""
        return self._V

    def snapshot(self) -> VersionSpaceLearner:
        """A copy in the current state (the class is shared, not copied)."""
        return copy.copy(self)
