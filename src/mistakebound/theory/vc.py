"""The VC dimension of a finite class, by depth-first branch and bound with early exit.

A set of instances is shattered when the class realises all its labelings.  Every
subset of a shattered set is shattered, so the search grows sets one instance at a
time, in a fixed order of the candidate instances, and abandons a set as soon as it is
not shattered (level-by-level enumeration of all ``k``-sets explodes on parities).

* A set ``S`` partitions the class's distinct rows into ``2^|S|`` non-empty cells, one
  per labeling; ``S + x`` is shattered exactly when ``x`` splits every cell.  Cells
  only get finer as ``S`` grows, so an instance that fails to split the cells of ``S``
  fails for every extension: each branch passes down the list of instances that still
  split every cell, and the branch can grow by at most the length of that list.
* A cell of ``s`` rows supports at most ``floor(log2 s)`` further instances, so the
  smallest cell bounds the branch too (at the root: ``floor(log2 |distinct rows|)``).
* Columns that are constant, or equal or complementary to another, are dropped up
  front.  Instances are tried most balanced first, so large sets are found early and
  the bounds above prune the rest.
* ``VCdim >= 2`` is decided first in near-linear time: after complementing each column
  so that it excludes row 0, two instances are shattered exactly when their columns
  cross (meet, and neither contains the other), so ``VCdim <= 1`` exactly when the
  columns form a laminar family.  Chains such as thresholds are settled without the
  quadratic pair search; otherwise the crossing pair found is the first lower bound.

With a budget (``max_nodes``, ``time_limit``: the :class:`~mistakebound.theory.search.Budget`
of every search), or on Ctrl-C, the search stops and reports proven bounds
(:class:`VCBounds`, a :class:`~mistakebound.theory.search.SearchResult`): the largest
shattered set found, and the largest size any unexplored branch could still reach.

Examples
--------
>>> from mistakebound import classes
>>> vc_dimension(classes.thresholds(10))
1
>>> shattered_set(classes.power_set(3))
(0, 1, 2)
>>> vc_bounds(classes.intervals(8)).describe()
'VCdim = 2'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.bitset import columns_to_masks
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.memory import require_memory
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.hypothesis_class import require_class
from mistakebound.theory.littlestone import search_memory_estimate
from mistakebound.theory.search import Budget, Clock, SearchResult, require_exact, run_within

__all__ = [
    "VCBounds",
    "is_vc_shattered",
    "shattered_set",
    "vc_bounds",
    "vc_dimension",
]


class _Found(Exception):
    """A shattered set meeting the static upper bound: nothing larger exists."""


@frozen
class VCBounds(SearchResult):
    """Proven bounds on a VC dimension, from a search that may have stopped early.

    A :class:`~mistakebound.theory.search.SearchResult` (``lower``, ``upper``,
    ``status``, ``nodes``, ``seconds``; ``exact``, ``value``, ``describe()``) whose
    witness is a shattered set.

    Attributes
    ----------
    witness : tuple
        A shattered set of ``lower`` instances, in domain order.
    nodes : int
        Search nodes expanded (candidate sets whose extensions were listed).

    Examples
    --------
    >>> from mistakebound import classes
    >>> b = vc_bounds(classes.power_set(4))
    >>> b.exact, b.lower, b.witness
    (True, 4, (0, 1, 2, 3))
    >>> VCBounds(lower=2, upper=5, status="budget").describe()
    '2 <= VCdim <= 5 (partial: budget)'
    """

    quantity: ClassVar[str] = "VCdim"

    witness: tuple = field(default=(), eq=False, repr=False)


class _VCSearch:
    """One branch-and-bound search over the distinct rows of a class."""

    def __init__(self, H: HypothesisClass):
        self.H = H
        reps, _ = H.distinct_rows()
        D = H.matrix if reps.size == H.n_hypotheses else H.matrix[reps]
        self.n_distinct = int(D.shape[0])
        self.full = full = (1 << self.n_distinct) - 1
        self.cols = cols = columns_to_masks(D)
        seen: set[int] = set()
        cand: list[int] = []
        for j, c in enumerate(cols):
            if c == 0 or c == full:
                continue
            key = min(c, full ^ c)
            if key not in seen:
                seen.add(key)
                cand.append(j)
        self.cand = cand
        self.D = D
        # floor(log2 |distinct rows|) and the number of usable instances
        self.static_upper = min(self.n_distinct.bit_length() - 1, len(cand))
        self.best: list[int] = []
        self.stack: list[list[int]] = []

    # ------------------------------------------------------------ VCdim <= 1 ?
    def _crossing_pair(self) -> tuple[int, int] | None:
        """Two shattered instances, or None when the columns (up to complement) are laminar."""
        D, cols, full = self.D, self.cols, self.full
        norm = {j: (cols[j] if not cols[j] & 1 else full ^ cols[j]) for j in self.cand}
        order = sorted(self.cand, key=lambda j: (-norm[j].bit_count(), j))
        owner = np.full(self.n_distinct, -1, dtype=np.int64)
        for j in order:
            rows = np.flatnonzero(D[:, j] != D[0, j])
            o = owner[rows]
            if (o != o[0]).any():
                s = norm[j]
                for u in np.unique(o).tolist():
                    if u < 0:
                        continue
                    t = norm[u]
                    if s & t and s & ~t and t & ~s:
                        return (u, j)
                return None  # pragma: no cover - a crossing owner always exists
            owner[rows] = j
        return None

    def _greedy(self, order: list[int]) -> list[int]:
        """A shattered set grown first-fit along ``order`` (a quick first lower bound)."""
        cols = self.cols
        cells = [self.full]
        chosen: list[int] = []
        for j in order:
            c = cols[j]
            for cell in cells:
                a = cell & c
                if a == 0 or a == cell:
                    break
            else:
                chosen.append(j)
                cells = [part for cell in cells for part in (cell & c, cell & ~c)]
                if len(chosen) >= self.static_upper:
                    break
        return chosen

    # ------------------------------------------------------------ the search
    def run(self, budget: Budget) -> VCBounds:
        clock = budget.start()
        status = run_within(lambda: self._run(clock))
        best = list(self.best)
        lower = len(best)
        upper = lower if status == "exact" else min(max(lower, self._open_bound()), self.static_upper)
        witness = tuple(self.H.domain[j] for j in sorted(best))
        return VCBounds(lower=lower, upper=upper, status=status, witness=witness, nodes=clock.nodes,
                        seconds=clock.seconds)

    def _open_bound(self) -> int:
        """The largest size an unexplored branch could reach.

        A frame ``[size, gains, pos]`` stands for the sets grown from a shattered set of
        ``size`` instances by candidates ``pos, pos + 1, ...`` of its list; the child being
        explored (the next frame, if any) accounts for candidate ``pos`` itself.
        """
        stack = list(self.stack)
        if not stack:
            return self.static_upper  # stopped before the search began
        hi = 0
        for d, (size, gains, pos) in enumerate(stack):
            rest = gains[pos + 1:] if d + 1 < len(stack) else gains[pos:]
            hi = max(hi, size + _h_index(rest))
        return hi

    def _run(self, clock: Clock) -> None:
        cand, cols = self.cand, self.cols
        limit = self.static_upper
        if not cand:
            return
        n_all = self.n_distinct
        full = self.full
        root = []
        for j in cand:
            ones = cols[j].bit_count()
            root.append((min(ones, n_all - ones).bit_length(), j))
        root.sort(key=lambda t: -t[0])  # most balanced first (stable: domain order on ties)
        order = [j for _, j in root]
        self.best = self._greedy(order)
        if len(self.best) >= limit:
            return
        if len(self.best) == 1:
            pair = self._crossing_pair()
            if pair is None:
                return  # laminar: VCdim == 1
            self.best = list(pair)
            if limit <= 2:
                return
        stack = self.stack
        spend = clock.spend

        def grow(chosen: list[int], cells: list[int], counts: list[int], L: list[int], gains: list[int]) -> None:
            # Invariants: chosen is shattered, ``cells``/``counts`` are its cells (smallest
            # first), every k in L splits every cell, and a shattered set containing
            # chosen + k has at most len(chosen) + gains[i] instances; gains descend.
            frame = [len(chosen), gains, 0]
            stack.append(frame)
            size = len(chosen)
            n = len(L)
            for i in range(n):
                frame[2] = i
                # h-index of gains[i:]: the most candidates that can still be added together
                h = 0
                while i + h < n and gains[i + h] > h:
                    h += 1
                if size + h <= len(self.best):
                    break
                j = L[i]
                c = cols[j]
                new: list[tuple[int, int]] = []
                for cell, cnt in zip(cells, counts):
                    a = cell & c
                    na = a.bit_count()
                    new.append((na, a))
                    new.append((cnt - na, cell ^ a))
                chosen.append(j)
                if len(chosen) > len(self.best):
                    self.best = list(chosen)
                    if len(chosen) >= limit:
                        raise _Found
                need = len(self.best) - size - 1  # a useful k must leave every sub-cell >= 2**need rows
                if gains[i] - 1 > need and i + 1 < n:
                    spend()  # raises OutOfBudget past the budget: this node is not expanded
                    new.sort(key=lambda t: t[0])  # small cells first: they fail soonest
                    sub_counts = [t[0] for t in new]
                    sub_cells = [t[1] for t in new]
                    thr = 1 << need
                    ext: list[tuple[int, int]] = []
                    for k in L[i + 1:]:
                        ck = cols[k]
                        if thr == 1:  # only "splits every cell" matters: compare, count later
                            for cell in sub_cells:
                                a = cell & ck
                                if a == 0 or a == cell:
                                    break
                            else:
                                m = min(min(na, cnt - na) for na, cnt in
                                        (((cell & ck).bit_count(), cnt) for cell, cnt in zip(sub_cells, sub_counts)))
                                ext.append((m.bit_length(), k))
                            continue
                        m = n_all
                        for cell, cnt in zip(sub_cells, sub_counts):
                            na = (cell & ck).bit_count()
                            if na < thr or cnt - na < thr:
                                break
                            if na < m:
                                m = na
                            if cnt - na < m:
                                m = cnt - na
                        else:
                            ext.append((m.bit_length(), k))
                    if ext:
                        ext.sort(key=lambda t: -t[0])
                        child_gains = [g for g, _ in ext]
                        if size + 1 + _h_index(child_gains) > len(self.best):
                            grow(chosen, sub_cells, sub_counts, [k for _, k in ext], child_gains)
                chosen.pop()
            stack.pop()

        try:
            grow([], [full], [n_all], order, [g for g, _ in root])
        except _Found:
            stack.clear()


def _h_index(gains) -> int:
    """The largest ``h`` such that ``h`` of the (descending) gains are at least ``h``."""
    h = 0
    for g in gains:
        if g > h:
            h += 1
        else:
            break
    return h


def vc_bounds(H: HypothesisClass, *, max_nodes: int | None = None,
              time_limit: float | None = None) -> VCBounds:
    """Proven lower and upper bounds on ``VCdim(H)`` within a budget of nodes and/or seconds.

    Without a budget the bounds are equal (the exact value).  Ctrl-C stops the search
    and returns the bounds proven so far, with ``status="interrupted"``.

    Parameters
    ----------
    H : HypothesisClass
    max_nodes : int, optional
        Budget of search nodes (candidate sets whose extensions are listed).
    time_limit : float, optional
        Budget of seconds.

    Returns
    -------
    VCBounds
        ``lower`` is the size of the shattered set ``witness``; ``upper`` is at most
        ``floor(log2(number of distinct rows))`` and the number of instances that
        split the class, and below that what the unexplored branches could reach.

    Raises
    ------
    InvalidArgumentError
        For a bad ``H``, ``max_nodes`` or ``time_limit``.
    InsufficientMemoryError
        Before the search starts, when the class's bitsets would not fit in the memory
        available.

    Examples
    --------
    >>> from mistakebound import classes
    >>> vc_bounds(classes.parities(6)).describe()
    'VCdim = 6'
    >>> b = vc_bounds(classes.random(3000, 30, 0.3, seed=0), max_nodes=5)
    >>> b.status, b.lower <= b.upper, len(b.witness) == b.lower
    ('budget', True, True)
    """
    require_class(H)
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
    require_memory(search_memory_estimate(H), parameter="H",
                   what=f"a VC search of {H.n_hypotheses} hypotheses x {H.n_instances} instances",
                   advice="search a smaller class")
    return _VCSearch(H).run(budget)


def shattered_set(H: HypothesisClass, *, max_nodes: int | None = None,
                  time_limit: float | None = None) -> tuple:
    """A largest set of instances shattered by ``H`` (in the VC sense).

    Parameters
    ----------
    H : HypothesisClass
    max_nodes, time_limit : optional
        A budget, as in :func:`vc_bounds`.

    Returns
    -------
    tuple
        Instances of ``H.domain``, in domain order; ``()`` when no single instance is
        labelled both ways.

    Raises
    ------
    InvalidArgumentError
        For a bad ``H`` or budget.
    SearchIncomplete
        If the budget runs out; ``exc.result`` is a :class:`VCBounds` whose
        ``witness`` is the largest shattered set found (never returned as if largest).
    SearchInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``), with ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> len(shattered_set(classes.intervals(6)))
    2
    """
    return require_exact(vc_bounds(H, max_nodes=max_nodes, time_limit=time_limit)).witness


def vc_dimension(H: HypothesisClass, *, max_nodes: int | None = None,
                 time_limit: float | None = None) -> int:
    """The VC dimension of ``H``: the size of a largest shattered set, exactly.

    Parameters
    ----------
    H : HypothesisClass
    max_nodes, time_limit : optional
        A budget, as in :func:`vc_bounds`.

    Returns
    -------
    int

    Raises
    ------
    InvalidArgumentError
        For a bad ``H`` or budget.
    SearchIncomplete
        If the budget runs out; ``exc.result`` (a :class:`VCBounds`) holds the proven
        bounds, so a partial number is never returned as exact.
    SearchInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``), with ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> vc_dimension(classes.monotone_disjunctions(3))
    3
    """
    return vc_bounds(H, max_nodes=max_nodes, time_limit=time_limit).value


def is_vc_shattered(H: HypothesisClass, instances) -> bool:
    """Whether ``H`` realises every labeling of the given distinct instances.

    Examples
    --------
    >>> from mistakebound import classes
    >>> is_vc_shattered(classes.thresholds(5), [2]), is_vc_shattered(classes.thresholds(5), [2, 4])
    (True, False)
    """
    require_class(H)
    if isinstance(instances, (str, bytes)) or not isinstance(instances, Iterable):
        raise InvalidArgumentError(
            f"instances: expected an iterable of instances of the domain, got {type(instances).__name__} {instances!r}"
        )
    items = list(instances)
    if not all(x in H for x in items):  # also False for unhashable items
        return False
    if len(set(items)) != len(items):
        return False
    patterns = {tuple(row) for row in H.matrix[:, [H.index_of(x) for x in items]].tolist()}
    return len(patterns) == 2 ** len(items)
