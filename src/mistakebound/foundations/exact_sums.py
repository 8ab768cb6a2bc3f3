"""Exact sums of doubles: every finite double is an integer multiple of ``2**-SHIFT``.

A game that keeps only its totals sums probabilities and losses over millions of rounds;
folded in blocks, floating-point sums would depend on the block boundaries.  These sums
are exact instead: integers scaled by ``2**SHIFT``, turned into a
:class:`~fractions.Fraction` (or a float) only at the end.

Examples
--------
>>> import numpy as np
>>> from fractions import Fraction
>>> sums = exact_column_sums(np.array([[0.1, 1.0], [0.2, 0.5]]))
>>> Fraction(sums[0], 1 << SHIFT) == Fraction(0.1) + Fraction(0.2), Fraction(sums[1], 1 << SHIFT)
(True, Fraction(3, 2))
"""

from __future__ import annotations

import numpy as np

__all__ = ["SHIFT", "exact_column_sums"]

#: Every finite double is an integer multiple of 2**-SHIFT (the smallest subnormal is 2**-1074 and
#: frexp's mantissa has 53 bits), so exact sums are kept as integers scaled by 2**SHIFT.
SHIFT = 1126
_SPAN = 2100  # the scaled exponents of doubles lie in [0, 2098)
_LOW = (1 << 26) - 1


def exact_column_sums(A: np.ndarray) -> list[int]:
    """Per column, the exact sum of the finite non-negative entries of ``A`` (n x d), times ``2**SHIFT``.

    Each entry is ``m 2**(e - 53)`` with an integer ``m < 2**53``; the mantissas are
    summed per column and exponent (in two halves of 26 and 27 bits, whose sums over a
    block of at most 2**16 rows stay far below 2**53, exact in floating point) and
    the sums shifted into one integer per column.
    """
    n, d = A.shape
    out = [0] * d
    step = 1 << 16
    for start in range(0, n, step):
        block = np.ascontiguousarray(A[start:start + step], dtype=np.float64)
        if not block.size:
            continue
        mantissa, exponent = np.frexp(block)
        m = (mantissa * 9007199254740992.0).astype(np.int64)  # * 2**53: exact
        key = (exponent.astype(np.int64) + (SHIFT - 53)) + _SPAN * np.arange(d, dtype=np.int64)[None, :]
        key = key.ravel()
        if d * _SPAN <= 1 << 22:
            hi = np.bincount(key, weights=(m >> 26).ravel(), minlength=d * _SPAN)
            lo = np.bincount(key, weights=(m & _LOW).ravel(), minlength=d * _SPAN)
            keys = np.flatnonzero((hi != 0) | (lo != 0))
            hi, lo = hi[keys], lo[keys]
        else:
            keys, inverse = np.unique(key, return_inverse=True)
            hi = np.bincount(inverse, weights=(m >> 26).ravel(), minlength=len(keys))
            lo = np.bincount(inverse, weights=(m & _LOW).ravel(), minlength=len(keys))
        for k, h, low in zip(keys.tolist(), hi.tolist(), lo.tolist()):
            column, scale = divmod(k, _SPAN)
            out[column] += ((int(h) << 26) + int(low)) << scale
    return out
