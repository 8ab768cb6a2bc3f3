"""The one-inclusion graph of a class, and its maximum degree.

The one-inclusion graph of a class has one vertex per concept (per distinct row: the
class read as a family of sets) and an edge between two concepts that differ on exactly
one instance of the domain (Haussler, Littlestone and Warmuth 1994).  Its **maximum
degree** is a parameter of the Combinatorial Parameters database (``maximum_degree``):
the most concepts adjacent to one concept.  A vertex of degree ``s`` with its neighbours
is a *star*: a center and ``s`` leaves, each differing from the center on one instance of
its own (:class:`Star`, the witness of this module and of
:mod:`~mistakebound.theory.star_number`, whose parameter is the largest star of any
projection of the class).

The edges are found without comparing every pair of rows.  Two distinct rows differ on
exactly one instance only when one has ``k`` ones and the other ``k + 1``, so the rows are
taken level by level (by their number of ones).  Each distinct row gets a random 64-bit
linear hash (the sum of one random word ``w_j`` per instance ``j`` labelled 1, modulo
``2^64``), so the row differing from row ``r`` only on an instance ``j`` where ``r`` has
label 0 must hash to ``hash(r) + w_j``: the next level's hashes are sorted and searched
for every row and instance at once, block by block, and every hit is compared bit for
bit with the row it stands for (the weights are drawn again, from a fixed sequence of
seeds, until no two distinct rows share a hash, so a hit is a neighbour exactly when the
comparison says so).  Two levels of which one has few rows (chains such as thresholds,
one row a level) are compared directly instead.  The work is at most ``O(n m log n)`` for
``n`` distinct rows and ``m`` instances, in numpy, with arrays of at most
:data:`BLOCK_ENTRIES` entries.

Examples
--------
>>> from mistakebound import classes
>>> one_inclusion_degree(classes.thresholds(6))
2
>>> b = one_inclusion_degree_bounds(classes.singletons(4, include_empty=True))
>>> b.describe(), b.witness.instances
('max degree = 4', (1, 2, 3, 4))
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.search_protocol import Clock, SearchResult, run_within
from mistakebound.theory.table_reduction import start_search

__all__ = [
    "BLOCK_ENTRIES",
    "OneInclusionDegree",
    "Star",
    "one_inclusion_degree",
    "one_inclusion_degree_bounds",
    "one_inclusion_edges",
]

#: Entries (rows x instances) of the arrays one step of the edge search holds.
BLOCK_ENTRIES = 1 << 20
#: Seeds of the hash weights, tried in turn until no two distinct rows share a hash.
_SEEDS = (0x5EED, 0xB0B, 0xCAFE, 0xF00D, 0xBEEF)


@frozen
class Star:
    """A star of a class: a center hypothesis and one leaf per instance, differing from it there only.

    On the instances of the star, leaf ``k`` differs from the center exactly on
    ``instances[k]``: the witness of the star number (where the leaves may differ from the
    center off the star) and of the maximum degree of the one-inclusion graph (where they
    do not: the leaves are the center's neighbours).

    Attributes
    ----------
    center : int
        The index in the class of the center (the first hypothesis with its labels).
    instances : tuple
        The instances of the star, in domain order.
    leaves : tuple of int
        For each instance, the index in the class of its leaf.

    Examples
    --------
    >>> s = Star(center=3, instances=("a", "b"), leaves=(0, 1))
    >>> s.size
    2
    """

    center: int | None = None
    instances: tuple = ()
    leaves: tuple = ()

    @property
    def size(self) -> int:
        """The number of instances (and of leaves)."""
        return len(self.instances)


@frozen
class OneInclusionDegree(SearchResult):
    """Proven bounds on the maximum degree of a class's one-inclusion graph.

    A :class:`~mistakebound.theory.search_protocol.SearchResult` whose witness is a
    :class:`Star`: a concept and ``lower`` neighbours, each differing from it on one
    instance.  ``nodes`` counts the instances whose edges were looked for.

    Examples
    --------
    >>> OneInclusionDegree(lower=2, upper=9, status="budget").describe()
    '2 <= max degree <= 9 (partial: budget)'
    """

    quantity: ClassVar[str] = "max degree"

    witness: Star = field(factory=Star, eq=False, repr=False)


def _weights(m: int, seed: int) -> np.ndarray:
    """One random odd 64-bit weight per column."""
    return np.random.default_rng(seed).integers(0, 2**63, size=m, dtype=np.uint64) * np.uint64(2) + np.uint64(1)


def _hashes(M: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each row's hash: the sum of the weights of its 1s, modulo 2^64."""
    n, m = M.shape
    h = np.zeros(n, dtype=np.uint64)
    step = max(1, BLOCK_ENTRIES // max(n, 1))
    for a in range(0, m, step):
        with np.errstate(over="ignore"):
            h += (M[:, a:a + step].astype(np.uint64) * w[a:a + step]).sum(axis=1, dtype=np.uint64)
    return h


#: A pair of levels (rows with ``k`` and ``k + 1`` ones) whose rows are compared pair by pair
#: when the smaller level has at most this many rows; by hashing otherwise.
DIRECT_ROWS = 32


def _edges(M: np.ndarray, clock: Clock | None, found: list, done: list | None = None) -> None:
    """Append to ``found`` the edges of the one-inclusion graph of ``M`` (distinct rows).

    Two distinct rows differ on exactly one column only when one has ``k`` ones and the
    other ``k + 1``, the first's inside the second's; the levels ``k, k + 1`` are taken in
    turn.  When the smaller of the two levels has at most :data:`DIRECT_ROWS` rows, its
    rows are compared with the other level's by one product of the tables (row ``r`` of
    level ``k`` lies inside row ``s`` exactly when they share ``k`` ones); otherwise each
    row of level ``k`` is hashed with each of its 0s turned to 1 and looked up among the
    level above's hashes, and every hit compared bit for bit.  Each level pair appends
    ``(u, v, j)``: three int64 arrays, rows ``u`` (label 0 on column ``j``) and ``v``
    (label 1) differing exactly on column ``j``, and counts the rows of level ``k``
    against ``clock``; ``done[0]`` holds the level ``k`` of the pairs searched so far (the
    edges of every row of fewer than ``done[0]`` ones are all found).
    """
    n, m = M.shape
    if n < 2 or m == 0:
        if done is not None:
            done[0] = m + 1
        return
    ones = M.sum(axis=1, dtype=np.int64)
    levels = [np.flatnonzero(ones == k) for k in range(m + 1)]
    h = packed = w = None
    for k in range(m):
        A, B = levels[k], levels[k + 1]
        if done is not None:
            done[0] = k
        if not A.size or not B.size:
            continue
        if clock is not None:
            clock.spend(int(A.size))
        if min(A.size, B.size) <= DIRECT_ROWS:
            MA, MB = M[A], M[B]
            step = max(1, BLOCK_ENTRIES // max(B.size, 1))
            for a in range(0, A.size, step):
                overlap = MA[a:a + step].astype(np.float32) @ MB.T.astype(np.float32)
                ri, si = np.nonzero(overlap == k)
                if ri.size:
                    j = np.argmax(MB[si] > MA[a + ri], axis=1)
                    found.append((A[a + ri].astype(np.int64), B[si].astype(np.int64), j.astype(np.int64)))
                if clock is not None:
                    clock.check_time()
            continue
        if h is None:
            for seed in _SEEDS:
                w = _weights(m, seed)
                h = _hashes(M, w)
                if np.unique(h).size == n:
                    break
            else:  # pragma: no cover - five 64-bit hash families, each with a collision among distinct rows
                raise InvalidArgumentError("H: no hash of the rows was free of collisions; expected distinct rows")
            packed = np.packbits(M, axis=1)
        order = np.argsort(h[B], kind="stable")
        sorted_h = h[B][order]
        step = max(1, BLOCK_ENTRIES // m)
        for a in range(0, A.size, step):
            rows = A[a:a + step]
            with np.errstate(over="ignore"):
                target = h[rows][:, None] + w[None, :]
            pos = np.searchsorted(sorted_h, target)
            np.minimum(pos, B.size - 1, out=pos)
            hit = (M[rows] == 0) & (sorted_h[pos] == target)
            ri, j = np.nonzero(hit)
            if ri.size:
                partner = B[order[pos[ri, j]]]
                expected = packed[rows[ri]]
                expected[np.arange(ri.size), j // 8] ^= (np.uint8(128) >> (j % 8).astype(np.uint8))
                ok = (expected == packed[partner]).all(axis=1)
                found.append((rows[ri][ok].astype(np.int64), partner[ok].astype(np.int64), j[ok].astype(np.int64)))
            if clock is not None:
                clock.check_time()
    if done is not None:
        done[0] = m + 1


def one_inclusion_edges(matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The edges of the one-inclusion graph of a table of distinct rows.

    Parameters
    ----------
    matrix : array_like
        A 0/1 table whose rows are distinct.

    Returns
    -------
    tuple of numpy.ndarray
        Three int64 arrays ``(u, v, column)``, one entry per edge: rows ``u`` and ``v`` differ
        exactly on ``column``, where ``u`` has label 0 and ``v`` label 1.

    Raises
    ------
    InvalidArgumentError
        For a table that is not 2-D 0/1, or whose rows are not distinct.

    Examples
    --------
    >>> u, v, col = one_inclusion_edges([[0, 0], [1, 0], [1, 1]])
    >>> sorted(zip(u.tolist(), v.tolist(), col.tolist()))
    [(0, 1, 0), (1, 2, 1)]
    """
    M = np.asarray(matrix)
    if M.ndim != 2 or (M.size and not np.isin(M, (0, 1)).all()):
        raise InvalidArgumentError(f"matrix: expected a 2-D table of 0s and 1s, got shape {M.shape}")
    M = M.astype(np.uint8)
    if M.shape[0] > 1 and np.unique(M, axis=0).shape[0] != M.shape[0]:
        raise InvalidArgumentError("matrix: expected distinct rows, got a repeated row")
    found: list = []
    _edges(M, None, found)
    return _joined(found)


def _joined(found: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy(), empty.copy()
    return tuple(np.concatenate([f[k] for f in found]) for k in range(3))  # type: ignore[return-value]


def neighbour_lists(n: int, edges: tuple[np.ndarray, np.ndarray, np.ndarray]) -> list[dict[int, int]]:
    """For each of ``n`` rows, ``{neighbour: column}`` from the edges of :func:`one_inclusion_edges`.

    Examples
    --------
    >>> neighbour_lists(3, one_inclusion_edges([[0, 0], [1, 0], [1, 1]]))
    [{1: 0}, {0: 0, 2: 1}, {1: 1}]
    """
    out: list[dict[int, int]] = [{} for _ in range(n)]
    for a, b, j in zip(*(e.tolist() for e in edges)):
        out[a][b] = j
        out[b][a] = j
    return out


def one_inclusion_degree_bounds(H: HypothesisClass, *, max_nodes: int | None = None,
                                time_limit: float | None = None) -> OneInclusionDegree:
    """Proven bounds on the maximum degree of the one-inclusion graph of ``H``, with a vertex attaining the lower.

    The vertices are the distinct rows of ``H`` (duplicated hypotheses are one concept);
    two are adjacent when they differ on exactly one instance of the domain (duplicated
    instances count twice: concepts differing on two copies of an instance are not
    adjacent).

    Parameters
    ----------
    H : HypothesisClass
        A class of labels 0 and 1.
    max_nodes : int, optional
        Budget of rows whose edges upwards (to rows with one more 1) are looked for.
    time_limit : float, optional
        Budget of seconds, read between blocks of rows.

    Returns
    -------
    OneInclusionDegree
        ``lower`` is the degree of ``witness.center``; ``upper`` adds, to each vertex's
        edges found, one for each instance whose edges at that vertex are not yet looked
        for (at most the number of distinct rows minus one).

    Raises
    ------
    InvalidArgumentError, NotApplicableError, InsufficientMemoryError
        As :func:`~mistakebound.theory.table_reduction.start_search` says.

    Examples
    --------
    >>> from mistakebound import classes
    >>> one_inclusion_degree_bounds(classes.power_set(5)).describe()
    'max degree = 5'
    >>> b = one_inclusion_degree_bounds(classes.thresholds(6), max_nodes=1)
    >>> b.status, b.lower, b.upper
    ('budget', 1, 6)
    >>> b.witness
    Star(center=0, instances=(1,), leaves=(1,))
    """
    T, clock, _ = start_search(H, what="the one-inclusion graph", search="a one-inclusion graph", copies=None,
                               constants=True, max_nodes=max_nodes, time_limit=time_limit)
    found: list = []
    done = [0]
    status = run_within(lambda: _edges(T.matrix, clock, found, done))
    u, v, col = _joined(found)
    n, m = T.n_rows, T.n_columns
    degree = np.bincount(np.concatenate([u, v]), minlength=n) if n else np.zeros(0, dtype=np.int64)
    lower = int(degree.max()) if n else 0
    if status == "exact" or n < 2:
        upper, status = lower, "exact"
    else:
        # the levels below k = done[0] (rows of fewer ones) have all their edges; an edge not yet found
        # joins a row of more than k ones, which has at most one edge per instance
        k = done[0]
        upper = max(lower, min(m, n - 1)) if (T.matrix.sum(axis=1) > k).any() else lower
        if upper == lower:
            status = "exact"
    center = int(np.argmax(degree)) if n else None
    if center is None or lower == 0:
        star = Star(center=T.hypotheses([center])[0] if center is not None else None)
    else:
        pairs = sorted((int(j), int(b if a == center else a)) for a, b, j in zip(u.tolist(), v.tolist(), col.tolist())
                       if center in (a, b))
        star = Star(center=T.hypotheses([center])[0], instances=T.instances(H, [j for j, _ in pairs]),
                    leaves=T.hypotheses([r for _, r in pairs]))
    return OneInclusionDegree(lower=lower, upper=upper, status=status, witness=star, nodes=clock.nodes,
                              seconds=clock.seconds)


def one_inclusion_degree(H: HypothesisClass, *, max_nodes: int | None = None,
                         time_limit: float | None = None) -> int:
    """The maximum degree of the one-inclusion graph of ``H``, exactly.

    Where :func:`one_inclusion_degree_bounds` would return partial bounds, raises SearchIncomplete (out of budget)
    or SearchInterrupted (Ctrl-C) carrying them as ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> one_inclusion_degree(classes.singletons(5)), one_inclusion_degree(classes.intervals(5))
    (0, 5)
    """
    return one_inclusion_degree_bounds(H, max_nodes=max_nodes, time_limit=time_limit).value
