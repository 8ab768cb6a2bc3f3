"""The version space of a finite class: the hypotheses consistent with every label so far.

:class:`VersionSpace` keeps the surviving hypotheses as a bitset (see
:mod:`mistakebound.bitset`) while many survive, and switches to a sorted array of row
indices once few do, so that a round costs time proportional to the survivors rather
than to the class: on a class of a million hypotheses the bitset costs about 16,000
machine words per operation even when a single hypothesis is left.

Examples
--------
>>> from mistakebound import classes
>>> H = classes.thresholds(7)
>>> V = VersionSpace(H)
>>> V.count(H.index_of(4), 1)   # thresholds x < a with a > 4
4
>>> V.restrict(H.index_of(4), 1)
True
>>> V.size, V.first(), V.rows().tolist()
(4, 4, [4, 5, 6, 7])
"""

from __future__ import annotations

import numpy as np

from mistakebound.bitset import indices_to_mask, mask_to_indices
from mistakebound.hypothesis_class import HypothesisClass

__all__ = ["VersionSpace"]

#: Classes with fewer hypotheses always stay in bitset form.
SPARSE_MIN_HYPOTHESES = 1 << 16


class VersionSpace:
    """A mutable set of the rows of ``H`` still consistent with the labels seen.

    Parameters
    ----------
    H : HypothesisClass
    """

    __slots__ = ("H", "_mask", "_rows", "size")

    def __init__(self, H: HypothesisClass):
        self.H = H
        self._mask: int | None = H.full_mask
        self._rows: np.ndarray | None = None
        self.size = H.n_hypotheses

    def copy(self) -> VersionSpace:
        """An independent copy."""
        other = VersionSpace.__new__(VersionSpace)
        other.H, other._mask, other._rows, other.size = self.H, self._mask, self._rows, self.size
        return other  # the array is never modified in place, so sharing it is safe

    @property
    def mask(self) -> int:
        """The survivors as a bitset (built on demand in the sparse form)."""
        if self._mask is None:
            self._mask = indices_to_mask(self._rows)
        return self._mask

    def rows(self) -> np.ndarray:
        """The survivors' row indices, sorted."""
        return self._rows if self._rows is not None else mask_to_indices(self._mask)

    def count(self, column: int, y: int) -> int:
        """How many survivors label instance number ``column`` with ``y``."""
        if self._rows is not None:
            ones = int(self.H.matrix[self._rows, column].sum())
        else:
            ones = (self._mask & self.H.column_masks[column]).bit_count()
        return ones if y == 1 else self.size - ones

    def first(self) -> int | None:
        """The lowest surviving row index (None if none survives)."""
        if self.size == 0:
            return None
        if self._rows is not None:
            return int(self._rows[0])
        return (self._mask & -self._mask).bit_length() - 1

    def restrict(self, column: int, y: int) -> bool:
        """Keep the survivors labelling instance number ``column`` with ``y``; True if any left."""
        if self._rows is not None:
            keep = self._rows[self.H.matrix[self._rows, column] == y]
            self._rows, self._mask, self.size = keep, None, int(keep.size)
            return self.size > 0
        ones = self._mask & self.H.column_masks[column]
        mask = ones if y == 1 else self._mask ^ ones
        if mask != self._mask:
            self._mask = mask
            self.size = mask.bit_count()
            if self.H.n_hypotheses >= SPARSE_MIN_HYPOTHESES and 64 * self.size <= self.H.n_hypotheses:
                self._rows = mask_to_indices(mask)
        return self.size > 0
