"""The textbook recursions, plain and slow, that the searches are tested and benchmarked against.

Each question the package answers by a search has here its definition written out, and
nothing more: a memoised recursion over sets of rows, or a brute force over subsets of
instances, sharing no code with the searches (this module imports nothing of the package).
The tests use them as oracles, the benchmarks as baselines, and the certificate campaign
of ``tests/certificate_lies.py`` builds its honest certificates with them.

- :func:`textbook_ldim`: ``Ldim(V) = max_x 1 + min(Ldim(V_x^0), Ldim(V_x^1))`` over the
  instances that split ``V``, 0 when none does (a single hypothesis), -1 for no hypothesis.
- :func:`alphabeta_ldim`: the same value by the pruned alpha-beta search a careful
  researcher writes (the benchmarks' second baseline).
- :func:`textbook_vcdim`: the largest number of instances on which the class shows every
  pattern, by trying the subsets of instances; :func:`brute_force_vcdim` the same, vectorised.
- :func:`round_value`, :func:`textbook_rldim_values`, :func:`textbook_rldim`: the
  randomized Littlestone dimension, by the game's own recursion (the learner picks a
  probability ``p``, the adversary a label ``y``, the loss is ``|p - y|`` plus what follows),
  in exact fractions; :func:`optimal_rule` is the optimal randomized learner's rule it implies.
- :func:`textbook_worst_case`: a learner's worst-case number of mistakes (expected mistakes
  for a randomized one), the maximum over the adversary's legal moves, for a learner given
  as a *rule* (its probability of label 1 on an instance, a function of the version space):
  :func:`halving_rule`, :func:`consistent_rule`, :func:`vote_rule`.

Every function takes a 0/1 matrix (rows are hypotheses, columns instances), or any object
with a ``matrix`` attribute (a :class:`~mistakebound.HypothesisClass`).

Why a module of the installed package, and not a file of ``tests/`` or ``benchmarks/``:
both the tests and the benchmarks import these, so either folder holding them would make
the other import it, which needs the repository root on ``sys.path``, and with the root on
the path the folders ``learners/`` and ``adversaries/`` become importable a second time as
top-level packages (``learners.halving.Halving is not mistakebound.learners.halving.Halving``).
Here they are importable wherever the package is installed, from a wheel, an sdist or the
repository, and the doctests run with the package's.

Examples
--------
>>> textbook_ldim([[0, 0], [0, 1], [1, 1]])
1
>>> textbook_ldim([[0, 1]]), textbook_ldim([])
(0, -1)
>>> textbook_ldim([[0, 0], [0, 1], [1, 0], [1, 1]])
2
>>> alphabeta_ldim([[0, 0], [0, 1], [1, 0], [1, 1]])
2
>>> textbook_vcdim([[0, 0], [0, 1], [1, 1]]), textbook_vcdim([[0, 0], [0, 1], [1, 1]], largest_first=True)
(1, 1)
>>> brute_force_vcdim([[0, 0], [0, 1], [1, 0], [1, 1]])
2
>>> textbook_rldim([[0], [1]])
Fraction(1, 2)
>>> M = [[0, 0], [0, 1], [1, 1]]
>>> textbook_worst_case(M, halving_rule(M)), textbook_worst_case(M, consistent_rule(M))
(1.0, 2.0)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

__all__ = [
    "alphabeta_ldim",
    "brute_force_vcdim",
    "consistent_rule",
    "halving_rule",
    "optimal_rule",
    "round_value",
    "textbook_ldim",
    "textbook_rldim",
    "textbook_rldim_values",
    "textbook_vcdim",
    "textbook_worst_case",
    "vote_rule",
]

#: A learner as a rule: ``rule(rows, j)`` is its probability of label 1 on column ``j`` when the
#: version space is the frozenset ``rows`` of row indices.
Rule = Callable[[frozenset, int], float]


def _matrix(matrix) -> np.ndarray:
    """The 0/1 matrix of ``matrix`` (a 2-d array-like, or an object with a ``matrix`` attribute), as int64."""
    M = np.asarray(getattr(matrix, "matrix", matrix), dtype=np.int64)
    if M.shape == (0,):  # no row at all, given as an empty sequence
        M = M.reshape(0, 0)
    if M.ndim != 2:
        raise ValueError(f"matrix: expected a 2-d 0/1 array (rows are hypotheses), got shape {M.shape}")
    return M


# ------------------------------------------------------------------------------------ Ldim
def textbook_ldim(matrix) -> int:
    """Littlestone dimension of the class whose rows are the rows of ``matrix`` (-1 if it has none).

    The recursion over sets of distinct rows, memoised on the set, no pruning.
    """
    M = _matrix(matrix)
    if M.shape[0] == 0:
        return -1
    rows = frozenset(tuple(int(v) for v in row) for row in M.tolist())
    n_cols = M.shape[1]

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
    """Littlestone dimension by a pruned alpha-beta search (most balanced split first, no memo).

    It answers "is Ldim(V) >= k?" from the bound ``floor(log2 |V|)`` down, tries splits most
    balanced first, and cuts a split whose smaller side has ``s`` rows as soon as
    ``1 + floor(log2 s) < k`` (and every later, less balanced, one with it); bitsets over the
    distinct rows.  The benchmarks' second baseline: what a careful researcher writes in a
    few dozen lines.
    """
    M = _matrix(matrix)
    if M.shape[0] == 0:
        return -1
    rows = sorted({tuple(int(v) for v in row) for row in M.tolist()})
    columns = [sum(1 << i for i, h in enumerate(rows) if h[j]) for j in range(M.shape[1])]

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


# -------------------------------------------------------------------------------------- VC
def textbook_vcdim(matrix, *, largest_first: bool = False) -> int:
    """VC dimension: the largest ``k`` such that some ``k`` columns show all ``2^k`` patterns.

    Every subset of columns of each size, smallest sizes first, stopping at the first size
    no subset is shattered at (shattering is closed under subsets): the tests' oracle.  With
    ``largest_first``, the sizes from the number of columns down, the first shattered subset
    ending the search: the benchmarks' VC baseline, as public research scripts write it
    (exponential in the number of columns whatever the answer).  0 for a class with no
    column or no row.
    """
    M = _matrix(matrix)
    rows = {tuple(int(v) for v in row) for row in M.tolist()}

    def shattered(k: int) -> bool:
        return any(len({tuple(h[j] for j in cols) for h in rows}) == 2**k
                   for cols in itertools.combinations(range(M.shape[1]), k))

    if largest_first:
        return next((k for k in range(M.shape[1], 0, -1) if shattered(k)), 0)
    best = 0
    for k in range(1, M.shape[1] + 1):
        if not shattered(k):
            break
        best = k
    return best


def brute_force_vcdim(matrix) -> int:
    """VC dimension by every subset of columns as a bit mask, each row's pattern read as an integer.

    The same definition as :func:`textbook_vcdim`, vectorised with numpy (a subset is shattered
    when its ``2^k`` codes all occur): fast enough for a few hundred rows and a dozen columns.
    """
    M = _matrix(matrix)
    best = 0
    for subset in range(1, 1 << M.shape[1]):
        cols = [j for j in range(M.shape[1]) if subset >> j & 1]
        if len(cols) > best:
            codes = M[:, cols] @ (1 << np.arange(len(cols), dtype=np.int64))
            if np.unique(codes).size == 1 << len(cols):
                best = len(cols)
    return best


# ------------------------------------------------------------------------- randomized Ldim
def round_value(v0: Fraction, v1: Fraction) -> Fraction:
    """One round of the randomized game: ``min over p in [0, 1] of max((1 - p) + v1, p + v0)``.

    Solved by hand: the two lines cross at ``p* = (1 + v1 - v0) / 2``.  If ``p*`` lies in
    ``[0, 1]`` the value is the common height ``(1 + v0 + v1) / 2``; if ``p* > 1``
    (``v1 - v0 > 1``) the minimum over ``[0, 1]`` is at ``p = 1``, where the max is ``v1``;
    if ``p* < 0`` it is at ``p = 0``, where the max is ``v0``.
    """
    if abs(v1 - v0) >= 1:
        return max(v0, v1)
    return (1 + v0 + v1) / 2


def textbook_rldim_values(matrix) -> Callable[[frozenset], Fraction]:
    """The game's values ``v(S)``, over frozensets ``S`` of row indices of ``matrix``, memoised.

    ``v(S) = max over instances splitting S of round_value(v(S^0), v(S^1))``, 0 when none
    splits ``S``.
    """
    M = _matrix(matrix)

    @functools.lru_cache(maxsize=None)
    def v(rows: frozenset) -> Fraction:
        best = Fraction(0)
        for j in range(M.shape[1]):
            S1 = frozenset(r for r in rows if M[r, j] == 1)
            S0 = rows - S1
            if S0 and S1:
                best = max(best, round_value(v(S0), v(S1)))
        return best

    return v


def textbook_rldim(matrix) -> Fraction:
    """The randomized Littlestone dimension of the class, exact: ``v`` of all its rows."""
    return textbook_rldim_values(matrix)(frozenset(range(_matrix(matrix).shape[0])))


def optimal_rule(matrix) -> Rule:
    """The optimal randomized learner's probability of label 1 on column ``j`` given the rows left.

    Forced where one side is empty, else ``clip((1 + v(S^1) - v(S^0)) / 2)`` by
    :func:`textbook_rldim_values` (a rule of :func:`textbook_worst_case`).
    """
    M = _matrix(matrix)
    v = textbook_rldim_values(M)

    def rule(rows: frozenset, j: int) -> Fraction:
        S1 = frozenset(r for r in rows if M[r, j] == 1)
        S0 = rows - S1
        if not S0:
            return Fraction(1)
        if not S1:
            return Fraction(0)
        return min(Fraction(1), max(Fraction(0), (1 + v(S1) - v(S0)) / 2))

    return rule


# ------------------------------------------------------------------------------ worst case
def textbook_worst_case(matrix, rule: Rule, horizon: int | None = None) -> float:
    """A learner's worst case: max over legal ``(x, y)`` of ``|p - y|`` plus what follows.

    The plain recursion on frozensets of row indices.  ``rule(rows, j)`` is the learner's
    probability of label 1 on column ``j`` given the version space ``rows`` (a learner whose
    state is a function of the version space).  With a ``horizon``, the game over that many
    rounds (0 rounds: value 0); without, ``math.inf`` where a mistake that leaves the version
    space as it was can be repeated forever.
    """
    M = _matrix(matrix)

    @functools.lru_cache(maxsize=None)
    def value(rows: frozenset, left: int | None) -> float:
        best = 0
        for j in range(M.shape[1] if left != 0 else 0):
            p = rule(rows, j)
            for y in (0, 1):
                sub = frozenset(r for r in rows if M[r, j] == y)
                if not sub or (sub == rows and abs(p - y) == 0):
                    continue
                if sub == rows and left is None:
                    return math.inf  # a mistake that changes nothing can be repeated forever
                best = max(best, abs(p - y) + value(sub, None if left is None else left - 1))
        return best

    return value(frozenset(range(M.shape[0])), horizon)


def halving_rule(matrix) -> Rule:
    """Halving as a rule: label 1 when at least half the rows left say 1 (a tie predicts 1)."""
    M = _matrix(matrix)
    return lambda rows, j: float(2 * sum(M[r, j] for r in rows) >= len(rows))


def consistent_rule(matrix) -> Rule:
    """Consistent as a rule: the label of the first row left."""
    M = _matrix(matrix)
    return lambda rows, j: float(M[min(rows), j])


def vote_rule(matrix) -> Rule:
    """The randomized vote as a rule: the fraction of the rows left that say 1."""
    M = _matrix(matrix)
    return lambda rows, j: sum(M[r, j] for r in rows) / len(rows)
