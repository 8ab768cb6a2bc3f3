"""The baselines of the benchmarks: the plain textbook recursion, and a pruned alpha-beta search.

This is what public research scripts compute: for a version space V (a frozenset of
distinct rows), ``Ldim(V) = max_x 1 + min(Ldim(V_x^0), Ldim(V_x^1))`` over every
instance that splits V, and 0 when none does; memoised on V, with no pruning.  It is
the baseline of the benchmarks and the oracle of the property tests, so it is kept as
simple as the definition.

:func:`alphabeta_ldim` is the second baseline: what a careful researcher writes in a few
dozen lines.  It answers "is Ldim(V) >= k?" from the bound ``floor(log2 |V|)`` down, tries
splits most balanced first, and cuts a split whose smaller side has ``s`` rows as soon as
``1 + floor(log2 s) < k`` (and every later, less balanced, one with it); bitsets over the
distinct rows, no memo.

Examples
--------
>>> textbook_ldim([[0, 0], [0, 1], [1, 1]])
1
>>> textbook_ldim([[0, 0], [0, 1], [1, 0], [1, 1]])
2
>>> alphabeta_ldim([[0, 0], [0, 1], [1, 0], [1, 1]])
2
"""

from __future__ import annotations

import functools

__all__ = ["alphabeta_ldim", "textbook_ldim", "textbook_vcdim"]


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


def alphabeta_ldim(matrix) -> int:
    """Littlestone dimension by a pruned alpha-beta search (most balanced split first, no memo)."""
    rows = sorted({tuple(int(v) for v in row) for row in matrix})
    n_cols = len(rows[0])
    columns = [sum(1 << i for i, h in enumerate(rows) if h[j]) for j in range(n_cols)]

    def at_least(V: int, k: int) -> bool:
        if k <= 0:
            return True
        if k > V.bit_count().bit_length() - 1:  # Ldim(V) <= floor(log2 |V|)
            return False
        sides = {}
        for c in columns:
            a = V & c
            if a and a != V:
                small = a if 2 * a.bit_count() <= V.bit_count() else V ^ a
                sides[small] = small.bit_count()
        for small, s in sorted(sides.items(), key=lambda item: -item[1]):
            if s.bit_length() < k:  # 1 + floor(log2 s) < k, here and for every later split
                break
            if at_least(small, k - 1) and at_least(V ^ small, k - 1):
                return True
        return False

    full = (1 << len(rows)) - 1
    k = len(rows).bit_length() - 1
    while not at_least(full, k):
        k -= 1
    return k


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
