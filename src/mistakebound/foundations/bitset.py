"""Sets of hypotheses as Python integers used as bitsets.

A version space over a class of ``n`` hypotheses is an ``int`` whose bit ``i`` is set
when hypothesis ``i`` is still in it.  Intersection is ``&``, the size is
``int.bit_count``, and an ``int`` is hashable, so it serves directly as a memo key.
CPython's big integers work word by word, so an operation on a class of a million
hypotheses touches about 16,000 machine words.

Examples
--------
>>> import numpy as np
>>> mask = indices_to_mask([0, 2, 5])
>>> mask
37
>>> mask_to_indices(mask).tolist()
[0, 2, 5]
>>> column_to_mask(np.array([1, 0, 1, 0, 0, 1], dtype=np.uint8)) == mask
True
>>> full_mask(4)
15
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = ["column_to_mask", "columns_to_masks", "full_mask", "indices_to_mask", "mask_to_indices", "popcount"]


def columns_to_masks(M: np.ndarray) -> list[int]:
    """Each column of the 0/1 matrix ``M`` as a bitset over its rows (bit ``i`` = row ``i``).

    Eight rows are shifted into one byte at a time, several times faster than
    ``numpy.packbits`` along the strided row axis of a large table.

    Examples
    --------
    >>> columns_to_masks(np.array([[1, 0], [0, 1], [1, 1]], dtype=np.uint8))
    [5, 6]
    """
    n, m = M.shape
    if m == 0:
        return []
    pad = (-n) % 8
    A = M.astype(np.uint8, copy=False)
    if pad:
        A = np.vstack([A, np.zeros((pad, m), dtype=np.uint8)])
    A = A.reshape(-1, 8, m)
    packed = A[:, 0, :].copy()
    for k in range(1, 8):
        packed |= A[:, k, :] << np.uint8(k)
    rows = np.ascontiguousarray(packed.T)
    return [int.from_bytes(rows[j].tobytes(), "little") for j in range(m)]


def full_mask(n: int) -> int:
    """The bitset holding hypotheses ``0 .. n-1``."""
    return (1 << n) - 1


def popcount(mask: int) -> int:
    """Number of hypotheses in the bitset ``mask``."""
    return mask.bit_count()


def column_to_mask(column: np.ndarray) -> int:
    """Pack a 0/1 vector (one entry per hypothesis) into a bitset."""
    packed = np.packbits(np.asarray(column, dtype=np.uint8), bitorder="little")
    return int.from_bytes(packed.tobytes(), "little")


def indices_to_mask(indices: Iterable[int]) -> int:
    """The bitset holding the given hypothesis indices."""
    idx = np.asarray(list(indices) if not isinstance(indices, np.ndarray) else indices, dtype=np.int64)
    if idx.size == 0:
        return 0
    column = np.zeros(int(idx.max()) + 1, dtype=np.uint8)
    column[idx] = 1
    return column_to_mask(column)


def mask_to_indices(mask: int) -> np.ndarray:
    """The sorted hypothesis indices held by the bitset ``mask``, as an int64 array."""
    if mask == 0:
        return np.zeros(0, dtype=np.int64)
    raw = np.frombuffer(mask.to_bytes((mask.bit_length() + 7) // 8, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little")).astype(np.int64)
