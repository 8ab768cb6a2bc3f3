"""The oracles of the combinatorial parameters: brute force, written from the definitions alone.

They share no code with :mod:`mistakebound.theory.threshold_dimension`,
:mod:`~mistakebound.theory.star_number`, :mod:`~mistakebound.theory.teaching` or
:mod:`~mistakebound.theory.one_inclusion`: a class is the set of its distinct rows as
tuples (a family of sets, as the Combinatorial Parameters database reads it), and every
parameter is the maximum or minimum over all subsets or orderings of instances that
:mod:`itertools` lists, with no bitsets, no reductions, no bounds and no pruning.  Meant
for tables of at most about 7 columns and 16 rows.  A module of its own, so that the test
files of several parameters can import it.
"""

from __future__ import annotations

import itertools

__all__ = [
    "concepts",
    "one_inclusion_degree",
    "minimum_teaching_set_size",
    "projection",
    "recursive_teaching_dimension",
    "star_number",
    "teaching_dimension",
    "teaching_set_size",
    "threshold_dimension",
    "threshold_dimension_alon",
]


def concepts(matrix) -> frozenset:
    """The distinct rows of a 0/1 table, as tuples."""
    return frozenset(tuple(int(v) for v in row) for row in matrix)


def _columns(C: frozenset) -> int:
    return len(next(iter(C))) if C else 0


def projection(C: frozenset, S) -> frozenset:
    """The patterns the concepts ``C`` show on the instances ``S`` (column indices, in that order)."""
    return frozenset(tuple(c[j] for j in S) for c in C)


def _has_ordering(P: frozenset, d: int, pattern) -> bool:
    """Whether some ordering ``o`` of positions ``0..d-1`` has ``pattern(o, k)`` in ``P`` for every ``k``.

    The orderings are built one position at a time, and one is abandoned as soon as a pattern of its
    first ``k`` positions is missing: a brute force over :func:`itertools.permutations`, cut early.
    """
    def extend(order: tuple) -> bool:
        if len(order) == d:
            return True
        return any(pattern(order + (p,), len(order) + 1) in P and extend(order + (p,))
                   for p in range(d) if p not in order)

    return pattern((), 0) in P and extend(())


def _longest_segments(matrix, *, empty: bool) -> int:
    """The largest ``d`` with an ordering of ``d`` instances on which the class shows every non-empty initial
    segment, and the empty one too when ``empty``."""
    C = concepts(matrix)
    m = _columns(C)
    best = 0
    for d in range(1, m + 1):
        for S in itertools.combinations(range(m), d):
            P = projection(C, S) if empty else projection(C, S) | {tuple([0] * d)}

            def segment(order: tuple, k: int, d=d) -> tuple:  # the first k of the ordering, labelled 1
                return tuple(1 if p in order[:k] else 0 for p in range(d))

            if _has_ordering(P, d, segment):
                best = max(best, d)
                break
    return best


def threshold_dimension(matrix) -> int:
    """The largest ``d`` with an ordering ``x_1..x_d`` of instances on which the class shows every initial segment.

    The database's definition: ``{x_1, ..., x_k}`` is in ``H`` restricted to the ``d``
    instances for every ``k = 0..d`` (pattern ``1^k 0^(d-k)`` in that order).
    """
    return _longest_segments(matrix, empty=True)


def threshold_dimension_alon(matrix) -> int:
    """The largest ``k`` with ``x_1..x_k`` and ``h_1..h_k``, ``h_i(x_j) = 1`` exactly when ``i <= j``.

    The definition of Alon, Livni, Malliaris and Moran (2019), after Shelah and Hodges:
    ``k`` hypotheses, the empty initial segment not required.  Read backwards
    (``y_j = x_(k+1-j)``), ``h_i`` labels 1 exactly the first ``k + 1 - i`` instances: the
    non-empty initial segments of an ordering.
    """
    return _longest_segments(matrix, empty=False)


def star_number(matrix) -> int:
    """The largest ``s`` with ``s`` instances on which some concept and its ``s`` one-flip neighbours all occur."""
    C = concepts(matrix)
    m = _columns(C)
    best = 0
    for s in range(1, m + 1):
        for S in itertools.combinations(range(m), s):
            P = projection(C, S)
            for center in P:
                if all(tuple(1 - v if i == k else v for i, v in enumerate(center)) in P for k in range(s)):
                    best = max(best, s)
    return best


def teaching_set_size(matrix, row) -> int:
    """The fewest instances on which the concept ``row`` is the only concept of the class agreeing with it."""
    C = concepts(matrix)
    h = tuple(int(v) for v in row)
    m = len(h)
    others = [c for c in C if c != h]
    for size in range(m + 1):
        for T in itertools.combinations(range(m), size):
            if all(any(c[j] != h[j] for j in T) for c in others):
                return size
    raise AssertionError("distinct concepts are told apart by all the instances")


def teaching_dimension(matrix) -> int:
    """The largest teaching set size over the concepts (0 for a single concept)."""
    C = concepts(matrix)
    return max(teaching_set_size(list(C), h) for h in C)


def minimum_teaching_set_size(matrix) -> int:
    """The smallest teaching set size over the concepts."""
    C = concepts(matrix)
    return min(teaching_set_size(list(C), h) for h in C)


def recursive_teaching_dimension(matrix) -> int:
    """Peel the concepts of smallest teaching set size (within what is left), repeat; the largest layer value."""
    left = set(concepts(matrix))
    best = 0
    while left:
        sizes = {h: teaching_set_size(list(left), h) for h in left}
        low = min(sizes.values())
        best = max(best, low)
        left -= {h for h, s in sizes.items() if s == low}
    return best


def one_inclusion_degree(matrix) -> int:
    """The most concepts at Hamming distance one from a concept."""
    C = concepts(matrix)
    return max(sum(1 for g in C if sum(a != b for a, b in zip(g, h)) == 1) for h in C)
