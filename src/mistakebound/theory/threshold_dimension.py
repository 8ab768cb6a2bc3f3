"""The threshold dimension of a finite class, by a greedy chain and a branch-and-bound search.

**Definition** (the Combinatorial Parameters database, ``threshold_dimension``): the
largest ``d`` such that some ``d`` instances ``x_1, ..., x_d`` and ``d + 1`` hypotheses
``h_0, ..., h_d`` satisfy ``h_i(x_j) = 1`` exactly when ``j <= i``: read on ``{x_1..x_d}``,
the class holds all ``d + 1`` initial segments ``{}, {x_1}, {x_1, x_2}, ..., {x_1..x_d}``
(a chain of ``d + 1`` sets).  So ``thresholds(N)`` (``N + 1`` hypotheses on ``N``
instances) has threshold dimension ``N``, and the database's half-intervals (the same
without the empty hypothesis) ``N - 1``.  A single hypothesis gives ``d = 0``.

The model-theory literature (Shelah; Hodges; Alon, Livni, Malliaris and Moran 2019) counts
``k`` thresholds with ``k`` hypotheses, ``h_i(x_j) = 1`` exactly when ``i <= j``, without
the empty segment; that number is this one or one more.  The relations with the
Littlestone dimension (checked in the tests, each with its source):
``Ldim >= floor(log2(T + 1))`` (``H`` restricted to the ``T`` instances contains the
``T + 1`` thresholds, whose Littlestone dimension is ``floor(log2(T + 1))``, and
restricting never raises ``Ldim``), which gives the search the upper bound
``T <= 2^(Ldim + 1) - 2`` when the caller passes ``ldim``.

**The search.**  A sequence is grown from its bottom: a hypothesis ``h_0``, an instance
``x_1`` where it says 0, a hypothesis ``h_1`` saying 1 there, an instance ``x_2`` where
``h_0`` and ``h_1`` say 0, and so on.  The state is a pair of bitsets: ``I``, the distinct
rows labelling every chosen instance 1 (where the next hypotheses must come from), and
``Z``, the instances every chosen hypothesis labels 0 (where the next instances must come
from); only instances splitting ``I`` are kept in ``Z``.

* A greedy descent first (the hypothesis with fewest 1s on ``Z``, then the instance with
  most 1s on ``I``), in numpy with counts kept up to date, on the class and on its
  complement (a threshold sequence of the complement, read backwards, is one of the
  class): on chains (thresholds, intervals, the cube) it meets the upper bound at once, in
  ``O(n m)`` for ``n`` distinct rows and ``m`` instances.
* Then a depth-first search.  Of the hypotheses of ``I``, only those whose 1s on ``Z`` are
  minimal under inclusion are tried (one with fewer 1s leaves more instances), and of the
  instances, only those whose 1s on ``I`` are maximal (more rows, more choices): the value
  grows with both ``I`` and ``Z``.
* A state ``(I, Z)`` can add at most as many instances as ``Z`` holds, one less than the
  rows ``I`` shows on ``Z``, and, since the ``k`` rows still to come have ``k, k - 1,
  ..., 1`` ones (and zeros) on the instances still to come and those instances ``k, ...,
  1`` ones (and zeros) on them, the largest ``k`` such that the ``i``-th largest count is
  at least ``k - i + 1`` (:func:`chain_bound`).  A memo keeps a proven bound per state.
* Columns equal to an earlier one are dropped first (two equal instances are never both
  in a sequence), and so are constant ones.

With a budget (``max_nodes``, ``time_limit``), on Ctrl-C, or when memory runs out, the search
stops with proven bounds (:class:`ThresholdBounds`): the longest sequence found, and the
most any branch left open could reach.

Examples
--------
>>> from mistakebound import classes
>>> threshold_dimension(classes.thresholds(10)), threshold_dimension(classes.power_set(4))
(10, 4)
>>> s = threshold_sequence(classes.intervals(3))
>>> s.instances, s.hypotheses
((2, 1, 3), (6, 3, 1, 2))
"""

from __future__ import annotations

from types import EllipsisType
from typing import ClassVar

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.validation import check_instance
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.littlestone import LdimBounds
from mistakebound.theory.search_protocol import Clock, OutOfMemory, SearchResult, memo_share, require_exact, run_within
from mistakebound.theory.table_reduction import ReducedTable, start_search

__all__ = [
    "ThresholdBounds",
    "ThresholdSequence",
    "chain_bound",
    "threshold_bounds",
    "threshold_dimension",
    "threshold_sequence",
]

#: Bytes a memo entry of the search takes besides its two bitsets (the dict slot, the tuple,
#: the ints' headers, the bound).
MEMO_ENTRY_BYTES = 200


@frozen
class ThresholdSequence:
    """Instances ``x_1..x_d`` and hypotheses ``h_0..h_d`` of a class with ``h_i(x_j) = 1`` exactly when ``j <= i``.

    Attributes
    ----------
    instances : tuple
        ``x_1, ..., x_d``, in the order of the sequence.
    hypotheses : tuple of int
        ``h_0, ..., h_d``: indices in the class (the first hypothesis with those labels).

    Examples
    --------
    >>> ThresholdSequence(instances=(5,), hypotheses=(0, 1)).length
    1
    """

    instances: tuple = ()
    hypotheses: tuple = ()

    @property
    def length(self) -> int:
        """``d``, the number of instances."""
        return len(self.instances)


@frozen
class ThresholdBounds(SearchResult):
    """Proven bounds on a threshold dimension, from a search that may have stopped early.

    A :class:`~mistakebound.theory.search_protocol.SearchResult` whose witness is a
    :class:`ThresholdSequence` of ``lower`` instances.  ``nodes`` counts the states of the
    search expanded (the greedy descents count one a step).

    Examples
    --------
    >>> ThresholdBounds(lower=3, upper=7, status="budget").describe()
    '3 <= Tdim <= 7 (partial: budget)'
    """

    quantity: ClassVar[str] = "Tdim"

    witness: ThresholdSequence = field(factory=ThresholdSequence, eq=False, repr=False)


def chain_bound(counts) -> int:
    """The largest ``k`` such that the ``i``-th largest of ``counts`` is at least ``k - i + 1`` for ``i <= k``.

    The instances and rows of a threshold sequence of length ``k`` have ``k, k - 1, ...,
    1`` ones among each other (and as many zeros), so this bounds ``k`` from any of the
    four counts.

    Examples
    --------
    >>> chain_bound([5, 5, 5]), chain_bound([1, 1, 1, 1]), chain_bound([3, 2, 1]), chain_bound([])
    (3, 1, 3, 0)
    """
    k, low = 0, None
    for i, c in enumerate(sorted(counts, reverse=True), start=1):
        low = c + i - 1 if low is None else min(low, c + i - 1)
        if low < i:
            break
        k = i
    return k


class _Frame:
    """A state of the search on the stack: its bitsets, depth, children (sorted by bound) and progress."""

    __slots__ = ("I", "Z", "depth", "children", "idx", "proven", "key")

    def __init__(self, I: int, Z: int, depth: int, children: list, key: tuple):
        self.I, self.Z, self.depth, self.children, self.key = I, Z, depth, children, key
        self.idx = 0
        self.proven = 0  # the most any explored child proved it adds, plus one


class _ThresholdSearch:
    """One search of the threshold dimension of a reduced table (see the module's docstring)."""

    def __init__(self, T: ReducedTable, clock: Clock, ldim_upper: int | None, available: int | None):
        self.T = T
        self.clock = clock
        n, m = T.n_rows, T.n_columns
        self.n, self.m = n, m
        self.rows = T.row_bits
        self.cols = T.column_bits
        self.all_rows = T.all_rows
        self.all_cols = (1 << m) - 1
        upper = min(m, max(n - 1, 0))
        if n:
            upper = min(upper, chain_bound(T.matrix.sum(axis=1).tolist()), chain_bound(T.matrix.sum(axis=0).tolist()),
                        chain_bound((m - T.matrix.sum(axis=1)).tolist()), chain_bound((n - T.matrix.sum(axis=0)).tolist()))
        if ldim_upper is not None:
            upper = min(upper, (1 << (max(int(ldim_upper), 0) + 1)) - 2)
        self.static_upper = max(upper, 0)
        self.best_rows: list[int] = [0] if n else []
        self.best_cols: list[int] = []
        self.stack: list[_Frame] = []
        self.memo: dict[tuple[int, int], int] = {}
        share = memo_share(available)
        self.memo_limit = None if share is None else max(share // (2 * (n + m) // 8 + MEMO_ENTRY_BYTES), 1)
        self.searching = False  # True once the depth-first search has its root

    @property
    def best(self) -> int:
        return len(self.best_cols)

    # ------------------------------------------------------------ greedy descent
    def _greedy(self, M: np.ndarray) -> tuple[list[int], list[int]]:
        """A sequence grown greedily on ``M`` (rows, columns of the reduced table)."""
        n, m = M.shape
        MT = np.ascontiguousarray(M.T)  # the columns, each contiguous
        spend = self.clock.spend
        I = np.ones(n, dtype=bool)
        Z = np.ones(m, dtype=bool)
        row_ones = M.sum(axis=1, dtype=np.int64)  # ones on Z
        col_ones = M.sum(axis=0, dtype=np.int64)  # ones on I
        big = np.int64(n + m + 1)
        rows: list[int] = []
        cols: list[int] = []
        while True:
            spend()
            h = int(np.argmin(np.where(I, row_ones, big)))
            rows.append(h)
            drop = Z & (M[h] == 1)
            if drop.any():
                row_ones -= MT[drop].sum(axis=0, dtype=np.int64)
                Z &= ~drop
            score = np.where(Z, col_ones, 0)
            x = int(np.argmax(score)) if m else 0
            if not m or score[x] == 0:
                return rows, cols
            cols.append(x)
            out = I & (MT[x] == 0)
            col_ones -= M[out].sum(axis=0, dtype=np.int64)
            I &= ~out

    def _keep(self, rows: list[int], cols: list[int]) -> None:
        if len(cols) > self.best:
            self.best_rows, self.best_cols = list(rows), list(cols)

    # ------------------------------------------------------------ the depth-first search
    def _useful(self, I: int, Z: int) -> int:
        """The instances of ``Z`` that split ``I`` (labelled 1 by some of its rows and 0 by another)."""
        cols = self.cols
        out = 0
        z = Z
        while z:
            low = z & -z
            j = low.bit_length() - 1
            c = cols[j] & I
            if c and c != I:
                out |= low
            z ^= low
        return out

    def _bound(self, I: int, Z: int) -> int:
        """How many more instances a sequence can add from the state ``(I, Z)`` (``Z`` already useful)."""
        rows, cols = self.rows, self.cols
        row_ones = []
        row_zeros = []
        seen = set()
        zc = Z.bit_count()
        i = I
        while i:
            low = i & -i
            r = rows[low.bit_length() - 1] & Z
            i ^= low
            if r in seen:
                continue
            seen.add(r)
            k = r.bit_count()
            row_ones.append(k)
            row_zeros.append(zc - k)
        col_ones = []
        col_zeros = []
        ic = I.bit_count()
        z = Z
        while z:
            low = z & -z
            k = (cols[low.bit_length() - 1] & I).bit_count()
            col_ones.append(k)
            col_zeros.append(ic - k)
            z ^= low
        return min(zc, len(seen) - 1, chain_bound(row_ones), chain_bound(row_zeros), chain_bound(col_ones),
                   chain_bound(col_zeros))

    def _children(self, I: int, Z: int) -> list[tuple]:
        """``(bound, h, x, I', Z')`` for each move from ``(I, Z)``, most promising first, dominated moves left out."""
        rows, cols = self.rows, self.cols
        # hypotheses whose 1s on Z are minimal under inclusion (one per pattern)
        by_pattern: dict[int, int] = {}
        i = I
        while i:
            low = i & -i
            h = low.bit_length() - 1
            by_pattern.setdefault(rows[h] & Z, h)
            i ^= low
        patterns = sorted(by_pattern, key=int.bit_count)
        minimal: list[int] = []
        for p in patterns:
            if not any(q & ~p == 0 for q in minimal):
                minimal.append(p)
        check = self.clock.check_time
        out = []
        for p in minimal:
            check()
            h = by_pattern[p]
            Zh = Z & ~p
            by_rows: dict[int, int] = {}
            z = Zh
            while z:
                low = z & -z
                j = low.bit_length() - 1
                c = cols[j] & I
                if c:
                    by_rows.setdefault(c, j)
                z ^= low
            sets = sorted(by_rows, key=int.bit_count, reverse=True)
            maximal: list[int] = []
            for c in sets:
                if not any(c & ~d == 0 for d in maximal):
                    maximal.append(c)
            for c in maximal:
                out.append((min(c.bit_count() - 1, Zh.bit_count() - 1), h, by_rows[c], c, Zh))
        out.sort(key=lambda t: -t[0])
        return out

    def _frame(self, I: int, Z: int, depth: int) -> _Frame | int:
        """The frame of state ``(I, Z)`` at ``depth``, or the bound it proved on what it adds when cut."""
        Z = self._useful(I, Z)
        key = (I, Z)
        known = self.memo.get(key)
        if known is not None and depth + known <= self.best:
            return known
        bound = self._bound(I, Z)
        if known is not None:
            bound = min(bound, known)
        if depth + bound <= self.best:
            return bound
        children = self._children(I, Z)
        if not children:
            return 0
        return _Frame(I, Z, depth, children, key)

    def _remember(self, key: tuple[int, int], bound: int) -> None:
        memo = self.memo
        if key in memo:
            memo[key] = min(memo[key], bound)
            return
        if self.memo_limit is not None and len(memo) >= self.memo_limit:
            return  # full: the search goes on without remembering (time lost, nothing else)
        memo[key] = bound

    def _dfs(self) -> None:
        spend = self.clock.spend
        stack = self.stack
        root = self._frame(self.all_rows, self.all_cols, 0)
        if not isinstance(root, _Frame):
            return
        stack.append(root)
        self.searching = True
        while stack:
            f = stack[-1]
            if f.idx >= len(f.children) or f.depth + 1 + f.children[f.idx][0] <= self.best:
                rest = f.children[f.idx][0] + 1 if f.idx < len(f.children) else 0
                self._remember(f.key, max(f.proven, rest))
                done = max(f.proven, rest)
                stack.pop()
                if stack:
                    parent = stack[-1]
                    parent.proven = max(parent.proven, 1 + done)
                    parent.idx += 1
                continue
            _, h, x, Ic, Zc = f.children[f.idx]
            spend()
            if f.depth + 1 > self.best:
                path = [g.children[g.idx] for g in stack]
                final = (Ic & -Ic).bit_length() - 1
                self._keep([c[1] for c in path] + [final], [c[2] for c in path])
            if f.depth + 1 >= self.static_upper:
                stack.clear()
                return
            child = self._frame(Ic, Zc, f.depth + 1)
            if isinstance(child, _Frame):
                stack.append(child)
            else:
                f.proven = max(f.proven, 1 + child)
                f.idx += 1

    def run(self) -> None:
        if self.n < 2 or self.m == 0 or self.static_upper == 0:
            return
        M = self.T.matrix
        for complemented in (False, True):
            rows, cols = self._greedy(1 - M if complemented else M)
            if complemented:  # read backwards, a sequence of the complement is one of the class
                rows, cols = rows[::-1], cols[::-1]
            self._keep(rows, cols)
            if self.best >= self.static_upper:
                return
        self._dfs()

    def open_bound(self) -> int:
        """The most instances a sequence not yet ruled out could have."""
        if not self.searching:
            return self.static_upper
        stack = self.stack
        hi = self.best
        for k, f in enumerate(stack):
            idx = f.idx + 1 if k + 1 < len(stack) else f.idx
            if idx < len(f.children):
                hi = max(hi, f.depth + 1 + f.children[idx][0])
        return hi

    def result(self, status: str, H: HypothesisClass) -> ThresholdBounds:
        T = self.T
        lower = self.best
        upper = lower if status == "exact" else max(lower, min(self.open_bound(), self.static_upper))
        if upper == lower:
            status = "exact"
        witness = ThresholdSequence(instances=T.instances(H, self.best_cols), hypotheses=T.hypotheses(self.best_rows))
        return ThresholdBounds(lower=lower, upper=upper, status=status, witness=witness, nodes=self.clock.nodes,
                               seconds=self.clock.seconds)


def threshold_bounds(H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None,
                     ldim: LdimBounds | None = None) -> ThresholdBounds:
    """Proven lower and upper bounds on the threshold dimension of ``H`` within a budget.

    Without a budget the bounds are equal (the exact value).  Ctrl-C stops the search and
    returns the bounds proven so far, with ``status="interrupted"``.

    Parameters
    ----------
    H : HypothesisClass
        A class of labels 0 and 1.
    max_nodes : int, optional
        Budget of search states expanded (each step of the greedy descents counts one).
    time_limit : float, optional
        Budget of seconds, counted from the call.
    ldim : LdimBounds, optional
        A Littlestone search's result for the same class: the threshold dimension is at
        most ``2^(ldim.upper + 1) - 2`` (see the module's docstring).

    Returns
    -------
    ThresholdBounds
        ``lower`` is the length of the sequence ``witness``; ``upper`` is at most the
        number of distinct non-constant instances, the number of distinct rows minus one,
        the bound of :func:`chain_bound` on the whole table, and what the open branches
        could reach.

    Raises
    ------
    InvalidArgumentError, NotApplicableError, InsufficientMemoryError
        As :func:`~mistakebound.theory.table_reduction.start_search` says, and for an ``ldim`` that is no
        LdimBounds.

    Examples
    --------
    >>> from mistakebound import classes
    >>> threshold_bounds(classes.thresholds(4095)).describe()
    'Tdim = 4095'
    >>> b = threshold_bounds(classes.random(60, 12, 0.5, seed=1), max_nodes=3)
    >>> b.status, b.lower <= b.upper, b.witness.length == b.lower
    ('budget', True, True)
    """
    ldim_upper = None
    if ldim is not None:
        ldim_upper = check_instance("ldim", ldim, LdimBounds,
                                    "an LdimBounds (from littlestone_bounds of the same class)").upper
    T, clock, available = start_search(H, what="the threshold dimension", search="a threshold search",
                                       copies="equal", max_nodes=max_nodes, time_limit=time_limit)
    search = _ThresholdSearch(T, clock, ldim_upper, available)

    def run() -> None:
        try:
            search.run()
        except MemoryError:
            search.memo.clear()
            raise OutOfMemory from None

    status = run_within(run)
    return search.result(status, H)


def threshold_sequence(H: HypothesisClass, *, max_nodes: int | None = None,
                       time_limit: float | None = None) -> ThresholdSequence:
    """A longest threshold sequence of ``H``: instances ``x_1..x_d``, hypotheses ``h_0..h_d``.

    Raises
    ------
    SearchIncomplete
        If the budget runs out; ``exc.result`` is a :class:`ThresholdBounds` whose witness
        is the longest sequence found (never returned as if longest).
    SearchInterrupted
        On Ctrl-C, with ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> threshold_sequence(classes.thresholds(3)).hypotheses
    (0, 1, 2, 3)
    """
    return require_exact(threshold_bounds(H, max_nodes=max_nodes, time_limit=time_limit)).witness


def threshold_dimension(H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None,
                        ldim: LdimBounds | None = None) -> int:
    """The threshold dimension of ``H``, exactly (see the module's docstring for the definition).

    Where :func:`threshold_bounds` would return partial bounds, raises SearchIncomplete (out of budget)
    or SearchInterrupted (Ctrl-C) carrying them as ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> threshold_dimension(classes.singletons(4)), threshold_dimension(classes.singletons(4, include_empty=True))
    (1, 1)
    """
    return threshold_bounds(H, max_nodes=max_nodes, time_limit=time_limit, ldim=ldim).value
