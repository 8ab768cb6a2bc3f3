"""The plain memoised textbook recursion for the Littlestone dimension.

This is what public research scripts compute: for a version space V (a frozenset of
distinct rows), ``Ldim(V) = max_x 1 + min(Ldim(V_x^0), Ldim(V_x^1))`` over every
instance that splits V, and 0 when none does; memoised on V, with no pruning.  It is
the baseline of the benchmarks and the oracle of the property tests, so it is kept as
simple as the definition.

Examples
--------
>>> textbook_ldim([[0, 0], [0, 1], [1, 1]])
1
>>> textbook_ldim([[0, 0], [0, 1], [1, 0], [1, 1]])
2
"""

from __future__ import annotations

import functools

__all__ = ["textbook_ldim", "textbook_vcdim"]


def textbook_ldim(matrix) -> int:
    """Littlestone dimension of the class whose rows are the rows of ``matrix``."""
    rows = frozenset(tuple(int(v) for v in row) for row in matrix)
    n_cols = len(next(iter(rows)))

    @functools.lru_cache(maxsize=None)
    def ldim(V: frozenset) -> int:
        best = 0
        for j in range(n_cols):
            ones = frozenset(h for h in V if h[j] == 1)
            zeros = V - ones
            if ones and zeros:
                best = max(best, 1 + min(ldim(ones), ldim(zeros)))
        return best

    return ldim(rows)


def textbook_vcdim(matrix) -> int:
    """VC dimension by trying every subset of columns, largest first."""
    import itertools

    rows = {tuple(int(v) for v in row) for row in matrix}
    n_cols = len(next(iter(rows)))
    for k in range(n_cols, 0, -1):
        for cols in itertools.combinations(range(n_cols), k):
            if len({tuple(h[j] for j in cols) for h in rows}) == 2**k:
                return k
    return 0
