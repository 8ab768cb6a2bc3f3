"""The Littlestone dimension, computed exactly, and the shattered trees that certify it.

``Ldim(V)`` is the depth of the deepest tree shattered by ``V`` (textbook Definitions
21.4 and 21.5).  It obeys the recursion

    Ldim(V) = 0                                       if no instance splits V,
    Ldim(V) = max over splitting x of 1 + min(Ldim(V_x^0), Ldim(V_x^1)),

where ``V_x^r`` holds the hypotheses of ``V`` labelling ``x`` with ``r``.  The textbook
recursion evaluates every branch.  :class:`LdimSearch` returns the same numbers but
answers the decision question "is ``Ldim(V) >= k``?" instead, which lets it stop at
the first column that works and refute a column as soon as one side falls short:

* version spaces are bitsets (Python ints, see :mod:`mistakebound.foundations.bitset`), duplicate
  rows are merged once up front, and the memo keeps, per version space, the largest
  ``k`` proven reachable and the smallest proven unreachable;
* a column that does not split ``V`` splits none of its subsets, so each node passes its
  splitting columns down, and columns inducing the same split of ``V`` (equal or
  complementary on ``V``) are tried once;
* splits are tried most balanced first.  A split whose smaller side has ``s``
  hypotheses reaches at most ``1 + floor(log2 s)``, so once that falls below ``k`` the
  remaining, less balanced, splits are skipped; the same fact, with
  ``Ldim(V) <= floor(log2 |V|)``, gives the upper bound the exact value is searched down
  from, so a class that meets its bound (thresholds, disjunctions) is settled by one
  successful dive;
* a second memo, keyed by a version space's canonical form (its distinct rows projected
  onto the columns that still split it), lets version spaces that differ by a shift or
  a relabelling share one entry (see :class:`LdimSearch`);
* the memos have a memory limit (default a quarter of the memory budget of
  :mod:`mistakebound.foundations.memory`, which counts cgroup limits, ``ulimit -v`` and a
  worker's share): when full, the entries of the smallest version spaces are dropped
  (results stay exact); a class whose bitsets alone would not fit in the available
  memory is refused before anything is allocated, and a search that meets a
  ``MemoryError`` anyway stops with the bounds it proved (status ``"memory"``) and
  halves its memo;
* the search remembers, per version space, the split that proved its value, so a
  shattered tree is read off the memo (with relabelled copies for canonical twins)
  instead of being searched again.

Every search takes the budget of :mod:`mistakebound.theory.search` (``max_nodes``,
``time_limit``, Ctrl-C) and reports an :class:`LdimBounds`, a
:class:`~mistakebound.theory.search.SearchResult`; the functions that return a number or
a tree raise :class:`~mistakebound.theory.search.SearchIncomplete` or
:class:`~mistakebound.theory.search.SearchInterrupted` instead of returning a partial
one.  Drivers of the search (:mod:`mistakebound.theory.parallel`, learners asking many
questions) use the public interface of :class:`LdimSearch`: :meth:`~LdimSearch.plan`,
:meth:`~LdimSearch.at_least`, :meth:`~LdimSearch.proven`, :meth:`~LdimSearch.facts`,
:meth:`~LdimSearch.merge_proven` and the :meth:`~LdimSearch.running` context.

Examples
--------
>>> from mistakebound import classes
>>> littlestone_dimension(classes.thresholds(7))
3
>>> tree = shattered_tree(classes.thresholds(7))
>>> tree.graph["depth"], tree.number_of_nodes()
(3, 15)
>>> is_shattered(classes.thresholds(7), tree)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from types import EllipsisType
from typing import ClassVar

import networkx as nx
import numpy as np
from attrs import define, field, frozen

from mistakebound.foundations import memory
from mistakebound.foundations.bitset import column_to_mask, columns_to_masks, full_mask, mask_to_indices
from mistakebound.foundations.errors import InsufficientMemoryError, InvalidArgumentError, MistakeboundError
from mistakebound.foundations.validation import brief, check_callable, check_instance, check_int
from mistakebound.game.hypothesis_class import HypothesisClass, require_class
import mistakebound.theory.ldim_kernel as ldim_kernel
from mistakebound.theory.canonical import projection, sorted_rows_key
from mistakebound.theory.tree_graphs import ShatteredTree
from mistakebound.theory.search import (
    Budget,
    OutOfBudget,
    SearchIncomplete,
    SearchInterrupted,
    SearchResult,
    require_exact,
    run_within,
)

__all__ = [
    "ENGINES",
    "LdimBounds",
    "LdimEngine",
    "LdimPlan",
    "LdimRun",
    "LdimSearch",
    "default_memo_bytes",
    "install_workers_engine",
    "is_shattered",
    "ldim_engine",
    "littlestone_bounds",
    "littlestone_dimension",
    "search_memory_estimate",
    "shattered_tree",
]


#: Version spaces with fewer distinct hypotheses than this skip the canonical memo.
CANONICAL_MIN = 8
#: Version spaces at least this large answered by the canonical memo keep their form for the tree.
FORM_MIN = 16
#: Every this many canonical forms computed, the size threshold doubles if fewer than
#: one in eight was answered from the canonical memo (classes without symmetry).
CANONICAL_WINDOW = 16
#: Fraction of the available memory the memo may use by default.
MEMO_FRACTION = 0.25
#: The memo limit when the available memory cannot be read.
DEFAULT_MEMO_BYTES = 1 << 30
#: A parallel worker's search runs its tick (fact exchange, stop checks) every this many nodes.
TICK_NODES = 16



def search_memory_estimate(H: HypothesisClass) -> int:
    """Bytes an :class:`LdimSearch` of ``H`` allocates up front, before its memo.

    Counts, with every row assumed distinct: the grouping of identical rows (packed
    rows and their dictionary), the gathered distinct rows (one byte per entry), their
    packed copy, one bitset per instance (``n_hypotheses`` bits each) and one per
    hypothesis (``n_instances`` bits each, made when a tree is built).

    Examples
    --------
    >>> from mistakebound import classes
    >>> search_memory_estimate(classes.thresholds(7)) < 10_000
    True
    """
    n, m = require_class(H).n_hypotheses, H.n_instances
    packed_row = (m + 7) // 8
    grouping = n * (packed_row + 120) + 16 * n
    gathered = n * m + n * packed_row
    bitsets = m * ((n + 7) // 8 + 64) + n * (packed_row + 64)  # columns, and rows (for trees)
    return grouping + gathered + bitsets


def default_memo_bytes(available: int | None | EllipsisType = ...) -> int:
    """The memo limit a search takes by default: :data:`MEMO_FRACTION` of the available memory.

    The available memory is :func:`~mistakebound.foundations.memory.available_memory`
    (the machine's, the cgroup's, ``ulimit -v``, and in a worker its share), read now
    unless the caller passes what it read; :data:`DEFAULT_MEMO_BYTES` when none is
    known; at least 1 MiB.

    Examples
    --------
    >>> default_memo_bytes() >= 1 << 20
    True
    """
    avail = memory.available_memory() if available is ... else available
    return DEFAULT_MEMO_BYTES if avail is None else max(int(avail * MEMO_FRACTION), 1 << 20)


def _require_search_memory(H: HypothesisClass) -> int | None:
    """Refuse a search of ``H`` whose bitsets would not fit; the memory available, as read."""
    available = memory.available_memory()
    memory.require_memory(
        search_memory_estimate(H), parameter="H",
        what=f"a Littlestone search of {H.n_hypotheses} hypotheses x {H.n_instances} instances",
        advice="search a smaller class", available=available,
    )
    return available


def _kernel_memo_bytes(H: HypothesisClass) -> int:
    """The memo limit of the compiled search of ``H`` (see :mod:`mistakebound.theory.ldim_kernel`).

    A small matrix gets :data:`~mistakebound.theory.ldim_kernel.SMALL_MEMO_BYTES` without
    reading the memory budget; a larger class must fit the budget as for
    :class:`LdimSearch`, and gets the same default memo.
    """
    if H.n_hypotheses * H.n_instances <= ldim_kernel.SMALL_MATRIX_BYTES:
        return ldim_kernel.SMALL_MEMO_BYTES
    return default_memo_bytes(_require_search_memory(H))


def _available_text() -> str:
    avail = memory.available_memory()
    return "unknown" if avail is None else memory.format_bytes(avail)


class LdimSearch:
    """An exact Littlestone-dimension search over the sub-classes of one class.

    The search works on the class's distinct rows; version spaces passed to
    :meth:`ldim` are bitsets over those distinct rows (bit ``i`` is distinct row ``i``,
    see :attr:`representatives`).  The memo is kept between calls, so a learner that
    asks about many version spaces of one class (SOA) pays for each only once.

    Questions: :meth:`ldim` (the value), :meth:`bounds` (proven bounds within a
    budget), :meth:`tree` (a shattered tree).  A driver of the search (the parallel
    search of :mod:`mistakebound.theory.parallel`) uses the same steps :meth:`bounds`
    takes: :meth:`plan` (the splits of a version space and its proven starting bounds),
    :meth:`at_least` (the decision "``Ldim(V) >= k``?") inside a :meth:`running`
    context (a budget, a tick run every ``TICK_NODES`` nodes, the facts it proves
    published), :meth:`proven` (what the memo says of a version space),
    :meth:`facts` and :meth:`merge_proven` (to teach another search of the class).

    Two memos are kept.  The first is keyed by the version space's bitset.  The second,
    consulted when the first misses, is keyed by the version space's *canonical form*:
    its distinct rows projected onto the columns that still split it (one column per
    distinct split, in column order), as a sorted set of rows.  Version spaces that
    differ only by a shift of the domain or by which hypotheses they hold (the
    sub-intervals of thresholds, the shifted windows of intervals) share one entry.
    A cheap fingerprint (size and split sizes) is computed first, and the canonical form
    only once two version spaces share a fingerprint; when few lookups succeed (classes
    without symmetry) the size from which they are tried doubles.  A version space whose
    rows are consecutive (a window) is keyed, more cheaply, by its columns cut to the
    window, so windows share entries with windows only.  Every answer stays exact: two
    version spaces with one canonical form have equal projected row sets, hence equal
    Littlestone dimensions.

    The memos are limited to ``max_memo_bytes`` (estimated); when full, the half of
    each memo holding the smallest version spaces (the cheapest to recompute) is
    dropped and counted in :attr:`evictions`.  Answers stay exact; only time grows.
    A ``MemoryError`` during :meth:`bounds` ends that call with proven bounds and status
    ``"memory"``, and halves ``max_memo_bytes`` (the memo is cut to fit).

    Parameters
    ----------
    H : HypothesisClass
        The class whose sub-classes are searched.
    max_memo_bytes : int, optional
        Estimated memory the memos may use; default a quarter of the memory available
        when the search is created
        (:func:`~mistakebound.foundations.memory.available_memory`: the least of the
        machine's, the cgroup's, ``ulimit -v`` and ``MISTAKEBOUND_MEMORY_LIMIT``; 1 GiB
        when none is known).

    Raises
    ------
    InsufficientMemoryError
        If :func:`search_memory_estimate` exceeds the memory available
        (:func:`~mistakebound.foundations.memory.require_memory`), before anything is
        allocated, or if allocating the class's bitsets fails all the same.

    Attributes
    ----------
    representatives : numpy.ndarray
        For each distinct row, the index of its first occurrence in ``H``.
    row_to_distinct : numpy.ndarray
        For each row of ``H``, the index of its distinct row.
    columns : tuple of int
        Per instance of ``H.domain``, the bitset (over distinct rows) of hypotheses
        labelling it 1.
    nodes : int
        Number of search nodes expanded so far (memo hits excluded), over all calls.
    canonical_hits : int
        Number of queries answered by the canonical memo.
    evictions : int
        Number of memo entries dropped to stay within ``max_memo_bytes``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> search = LdimSearch(classes.singletons(5))
    >>> search.ldim(search.full)
    1
    >>> search.ldim(0b00011)  # the sub-class {h_1, h_2}
    1
    >>> search.ldim(0b00001)
    0
    """

    def __init__(self, H: HypothesisClass, *, max_memo_bytes: int | None = None):
        self.H = require_class(H)
        max_memo_bytes = check_int("max_memo_bytes", max_memo_bytes, 1, optional=True)
        available = _require_search_memory(H)  # read once: SOA builds a search per game
        self.max_memo_bytes = default_memo_bytes(available) if max_memo_bytes is None else int(max_memo_bytes)
        #: Whether the memo limit is the default one (a parallel search then shares it out).
        self.memo_is_default = max_memo_bytes is None
        try:
            self.representatives, self.row_to_distinct = H.distinct_rows()
            self.n_distinct = int(self.representatives.shape[0])
            self.full = full_mask(self.n_distinct)
            distinct = H.matrix if self.n_distinct == H.n_hypotheses else H.matrix[self.representatives]
            self.columns = tuple(columns_to_masks(distinct))
            del distinct
        except MemoryError as exc:
            if isinstance(exc, InsufficientMemoryError):
                raise
            raise InsufficientMemoryError(
                f"H: a Littlestone search of {H.n_hypotheses} hypotheses x {H.n_instances} instances ran out of "
                f"memory while reading the class (estimated {memory.format_bytes(search_memory_estimate(H))}, "
                f"{_available_text()} available); search a smaller class",
                needed=search_memory_estimate(H), available=memory.available_memory(),
            ) from None
        # one representative column per split of the full class (the smallest index);
        # constant columns dropped
        seen: dict[int, int] = {}
        for j, c in enumerate(self.columns):
            if c == 0 or c == self.full:
                continue
            key = min(c, self.full ^ c)
            seen.setdefault(key, j)
        self._root_columns = tuple(sorted(seen.values()))
        self._lo: dict[int, int] = {}
        self._hi: dict[int, int] = {}
        self._wit: dict[int, int] = {}  # V -> a column whose two sides both reach _lo[V] - 1
        # canonical form -> [lo, hi, witness position, rep V, cols, rows, hi's rep V, its cols]
        self._canon: dict[tuple, list] = {}
        self._fps: dict[tuple, list | None] = {}  # fingerprint -> pending V's (None: keyed)
        self._forms: dict[int, tuple] = {}  # large V answered by the canonical memo -> its form
        self._rows: list[int] | None = None  # row bitsets, for trees
        self._canon_bytes = 0
        self._entry_bytes = 120 + self.n_distinct // 8
        self.nodes = 0
        self.canonical_hits = 0
        self.evictions = 0
        self._cmin = CANONICAL_MIN  # smallest version space whose canonical form is looked up
        self._keys_made = self._window_hits = 0
        # what the current run (see running()) may spend, where it publishes the facts it
        # proves, and a callable it runs every TICK_NODES nodes (a parallel search exchanges
        # facts there, and may stop the search by raising)
        self._node_limit: int | None = None
        self._deadline: float | None = None
        self._outbox: list | None = None
        self._tick: Callable[[], None] | None = None
        self._runs = 0  # running() contexts open

    # -------------------------------------------------------------- queries
    def canonical_form(self, V: int) -> tuple[Hashable, list[int]]:
        """The canonical form of ``V`` and its key columns (one per distinct split of ``V``, ascending).

        Two version spaces with equal forms give the same set of words on their key
        columns (column ``i`` of one standing for column ``i`` of the other), so they have
        the same Littlestone dimension: the fact certificates record as a ``"map"`` step.
        """
        key, kcols, _ = self._canonical(V, self._splits3(V, self._splitting(V)))
        return key, kcols.tolist()

    def twin(self, V: int) -> tuple:
        """``V``'s canonical form and what the canonical memo holds for it, for certificates.

        ``(key, kcols, entry)``: the form and ``V``'s key columns as from
        :meth:`canonical_form`; ``entry`` is None, or ``(lo, lo_rep, lo_cols, hi, hi_rep,
        hi_cols)``: the largest ``lo`` proven for the form and the version space ``lo_rep``
        whose search proved it with a witness (None if none) with its key columns, and
        the same for the smallest ``hi``.  ``V``'s key column ``i`` stands for each
        representative's key column ``i``.
        """
        key, kcols = self.canonical_form(V)
        e = self._canon.get(key)
        if e is None:
            return key, kcols, None
        lo_rep = e[3] if e[2] is not None and e[4] is not None else None
        return key, kcols, (e[0], lo_rep, None if lo_rep is None else e[4].tolist(),
                            e[1], e[6] if e[7] is not None else None, None if e[7] is None else e[7].tolist())

    def witness(self, V: int, d: int) -> int:
        """A column splitting ``V`` into two sides of Ldim at least ``d - 1`` (``1 <= d <= Ldim(V)``).

        Read off the memo where the search remembered it, searched otherwise.
        """
        return self._witness(V, d)

    def mask_of_rows(self, rows) -> int:
        """The bitset over distinct rows of the given rows of ``H`` (indices or a bitset)."""
        idx = mask_to_indices(rows) if isinstance(rows, int) else np.asarray(list(rows), dtype=np.int64)
        if idx.size == 0:
            return 0
        col = np.zeros(self.n_distinct, dtype=np.uint8)
        col[self.row_to_distinct[idx]] = 1
        return column_to_mask(col)

    def ldim(self, V: int, cap: int | None = None) -> int:
        """``min(Ldim(V), cap)`` for a version space ``V`` over distinct rows.

        With ``cap=None`` the exact value.  An empty ``V`` has Ldim ``-1`` by the usual
        convention (no hypothesis realises even the empty path).
        """
        if V == 0:
            return -1
        splits = self._splits3(V, self._splitting(V))
        k = self._upper3(V, splits)
        if cap is not None and cap < k:
            k = cap
        while k > 0 and not self._at_least(V, (), k, splits):
            k -= 1
        return k

    def bounds(self, V: int | None = None, *, max_nodes: int | None = None,
               time_limit: float | None = None, workers: int | None = 1) -> LdimBounds:
        """Proven bounds on ``Ldim(V)`` within a budget (default: the whole class, no budget).

        The exact search runs down from the proven upper bound of :meth:`plan`, asking
        :meth:`at_least` level by level; when it runs out of nodes or time, or is
        interrupted with Ctrl-C, it stops and reports the bounds proven so far.  Memo
        entries are written only for finished nodes, so a later call resumes with
        everything already proven.

        ``workers`` other than 1 (``None``: one per CPU) has that many processes search
        the whole class, this one included (see :mod:`mistakebound.theory.parallel`); what
        they prove is merged into this search's memo, so :meth:`tree` afterwards reads
        the tree off it.

        Raises
        ------
        InvalidArgumentError
            For a bad budget, ``workers`` or ``V``.

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = LdimSearch(classes.random(3000, 30, 0.3, seed=0))
        >>> search.bounds(max_nodes=5).describe()
        '1 <= Ldim <= 10 (partial: budget)'
        >>> search.bounds().describe()  # resumes from what the first call proved
        'Ldim = 9'
        """
        budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
        if workers != 1:
            return _run_with_workers(self, V, workers, budget)
        plan = self.plan(V)
        evicted = self.evictions
        upper = plan.upper

        def descend() -> None:
            nonlocal upper
            while upper > plan.lower and not self.at_least(plan.V, upper, plan=plan):
                upper -= 1

        with self.running(budget) as run:
            status = run_within(descend)
        lower = upper if status == "exact" else max(plan.lower, self.proven(plan.V)[0])
        if status == "memory":
            self.release_memory()
        return LdimBounds(lower=lower, upper=upper, status=status, nodes=run.nodes, seconds=run.seconds,
                          evictions=self.evictions - evicted)

    def at_least(self, V: int, k: int, *, plan: LdimPlan | None = None) -> bool:
        """Whether ``Ldim(V) >= k`` for a version space ``V`` over distinct rows.

        The decision the search is made of, under the budget of the current
        :meth:`running` context (outside one: no budget): it raises
        :class:`~mistakebound.theory.search.OutOfBudget` when that runs out, and whatever
        the context's ``tick`` raises, leaving only proven facts in the memo.  ``plan``
        (from :meth:`plan` of the same ``V``) saves listing ``V``'s splits again.

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = LdimSearch(classes.thresholds(7))
        >>> search.at_least(search.full, 3), search.at_least(search.full, 4)
        (True, False)
        """
        if V == 0:
            return k <= -1
        if plan is None:
            return self._at_least(V, self._splitting(V), k)
        if plan.V != V:
            raise InvalidArgumentError(f"plan: expected the plan of V = {brief(V)}, got the plan of {brief(plan.V)}")
        return self._at_least(V, (), k, plan.splits)

    def plan(self, V: int | None = None) -> LdimPlan:
        """Where a search of ``Ldim(V)`` starts: ``V``'s distinct splits and its proven bounds.

        ``V`` defaults to the whole class.  The splits are those the search tries at the
        top, most balanced first; ``lower`` and ``upper`` are what is proven before any
        search (the memo, ``floor(log2 |V|)`` and the best split's ``1 + floor(log2)``
        of its smaller side).

        Examples
        --------
        >>> from mistakebound import classes
        >>> p = LdimSearch(classes.thresholds(7)).plan()
        >>> len(p.splits), p.lower, p.upper
        (7, 1, 3)
        """
        V = self.full if V is None else self._version_space(V)
        if V == 0:
            return LdimPlan(V=0, splits=[], lower=-1, upper=-1)
        splits = self._splits3(V, self._splitting(V))
        return LdimPlan(V=V, splits=splits, lower=self._lo.get(V, 1) if splits else 0,
                        upper=self._upper3(V, splits))

    def proven(self, V: int) -> tuple[int, int]:
        """``(lo, hi)`` with ``lo <= Ldim(V) <= hi``, from what is already known (no search).

        ``lo`` is the memo's (at least 1 when ``V`` holds two distinct rows, which some
        instance splits); ``hi`` the memo's and ``floor(log2 |V|)``.

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = LdimSearch(classes.thresholds(7))
        >>> search.proven(search.full)
        (1, 3)
        >>> search.ldim(search.full), search.proven(search.full)
        (3, (3, 3))
        """
        if V == 0:
            return -1, -1
        s = V.bit_count()
        log = s.bit_length() - 1
        hi = self._hi.get(V, log)
        return self._lo.get(V, 1 if s >= 2 else 0), hi if hi < log else log

    def facts(self) -> list[tuple[int, int]]:
        """Every fact the memo holds, encoded as for :meth:`merge_proven` (to seed another search).

        Examples
        --------
        >>> from mistakebound import classes
        >>> a, b = LdimSearch(classes.intervals(6)), LdimSearch(classes.intervals(6))
        >>> a.ldim(a.full)
        4
        >>> b.merge_proven(a.facts()) > 0 and b.ldim(b.full) == 4 and b.nodes == 0
        True
        """
        return [(V, lo) for V, lo in self._lo.items()] + [(V, -1 - hi) for V, hi in self._hi.items()]

    @contextmanager
    def running(self, budget: Budget | None = None, *, tick: Callable[[], None] | None = None,
                publish: bool = False) -> Iterator[LdimRun]:
        """A run of the search: :meth:`at_least` (and :meth:`ldim`) spend ``budget`` inside it.

        Parameters
        ----------
        budget : Budget, optional
            What the run may spend from now on (default: no limit).  Inside another run,
            the tighter of the two limits applies.
        tick : callable, optional
            Called every ``TICK_NODES`` nodes, where a node starts, before it writes
            anything; it may stop the search by raising (a parallel search exchanges facts
            there).  Inside another run, default the outer run's.
        publish : bool
            Collect every fact the search proves, for :meth:`LdimRun.take_facts`.

        Yields
        ------
        LdimRun
            The run: its nodes and seconds, and what can change while it lasts.  Leaving
            the context restores what was set before it, whatever the exit.

        Examples
        --------
        >>> from mistakebound import classes
        >>> from mistakebound.theory.search import Budget, OutOfBudget
        >>> search = LdimSearch(classes.random(3000, 30, 0.3, seed=0))
        >>> with search.running(Budget(max_nodes=3), publish=True) as run:
        ...     try:
        ...         search.at_least(search.full, 9)
        ...     except OutOfBudget:
        ...         print("out of budget after", run.nodes, "nodes")
        out of budget after 3 nodes
        """
        budget = Budget() if budget is None else check_instance("budget", budget, Budget, "a Budget")
        tick = check_callable("tick", tick, optional=True)
        saved = (self._node_limit, self._deadline, self._tick, self._outbox)
        run = LdimRun(self)
        limit = None if budget.max_nodes is None else self.nodes + budget.max_nodes
        deadline = None if budget.time_limit is None else run.started + budget.time_limit
        self._node_limit = limit if saved[0] is None or (limit is not None and limit < saved[0]) else saved[0]
        self._deadline = deadline if saved[1] is None or (deadline is not None and deadline < saved[1]) else saved[1]
        self._tick = saved[2] if tick is None else tick
        self._outbox = [] if publish else saved[3]
        run.outbox = self._outbox
        self._runs += 1
        try:
            yield run
        finally:
            self._runs -= 1
            self._node_limit, self._deadline, self._tick, self._outbox = saved

    @property
    def in_run(self) -> bool:
        """Whether a :meth:`running` context is open."""
        return self._runs > 0

    def _version_space(self, V: object) -> int:
        if isinstance(V, bool) or not isinstance(V, (int, np.integer)) or not 0 <= V <= self.full:
            raise InvalidArgumentError(
                f"V: expected a bitset over the {self.n_distinct} distinct rows (an int in 0..{brief(self.full)}), "
                f"got {brief(V)}"
            )
        return int(V)

    def _splitting(self, V: int) -> list[int]:
        cols = self.columns
        return [j for j in self._root_columns if 0 != (V & cols[j]) != V]

    def _splits3(self, V: int, cand) -> list[tuple[int, int, int]]:
        """Distinct splits of V as (size of smaller side, smaller side, column), most balanced first.

        Of the columns inducing one split, the smallest index is kept, so the columns
        kept depend on ``V`` only (the canonical form relies on it).
        """
        cols = self.columns
        seen: dict[int, tuple[int, int, int]] = {}
        s = V.bit_count()
        for j in cand:
            a = V & cols[j]
            if a == 0 or a == V:
                continue
            b = V ^ a
            key = a if a < b else b
            old = seen.get(key)
            if old is None:
                na = a.bit_count()
                seen[key] = (na, a, j) if 2 * na <= s else (s - na, b, j)
            elif j < old[2]:
                seen[key] = (old[0], old[1], j)
        return sorted(seen.values(), key=lambda t: (-t[0], t[2]))

    def _upper3(self, V: int, splits: list[tuple[int, int, int]]) -> int:
        """A proven upper bound: the memo's, floor(log2 |V|), and 1 + floor(log2) of the best split."""
        hi = V.bit_count().bit_length() - 1
        hi = min(hi, splits[0][0].bit_length()) if splits else 0
        return min(hi, self._hi.get(V, hi))

    # ------------------------------------------------------- canonical forms
    def _canonical(self, V: int, splits) -> tuple[tuple, np.ndarray, np.ndarray]:
        """The canonical form of V, its key columns (ascending) and its rows in key order."""
        kcols = np.fromiter(sorted(j for _, _, j in splits), dtype=np.int64, count=len(splits))
        low = (V & -V).bit_length() - 1
        s = V.bit_count()
        if V >> low == (1 << s) - 1:
            # the rows of V are consecutive (a window): the columns restricted to it, shifted
            cols = self.columns
            key = ("window", s, tuple((cols[j] & V) >> low for j in kcols.tolist()))
            return key, kcols, np.arange(low, low + s, dtype=np.int64)
        idx = mask_to_indices(V)
        rows, order = sorted_rows_key(projection(self.H.matrix, self.representatives[idx], kcols))
        return (len(kcols), rows), kcols, idx[order]

    def _store_canonical(self, key, kcols, rows, V: int) -> None:
        """Copy V's bitset-memo knowledge into the canonical entry ``key``."""
        e = self._canon.get(key)
        if e is None:
            e = self._canon[key] = [1, None, None, 0, None, None, 0, None]
            self._canon_bytes += 200 + _key_size(key) + 8 * (2 * len(kcols) + len(rows))
        hi = self._hi.get(V)
        if hi is not None and (e[1] is None or hi < e[1]):
            e[6], e[7] = V, kcols  # the version space that proved it (for certificates)
            e[1] = hi
        lo = self._lo.get(V)
        if lo is not None and lo >= e[0]:
            w = self._wit.get(V)
            pos = None if w is None else int(np.searchsorted(kcols, w))
            if pos is not None and (pos >= len(kcols) or kcols[pos] != w):
                pos = None  # a witness found from a list of columns that was not V's own
            if lo > e[0] or pos is not None:
                # written in an order that is consistent at every step (see _at_least)
                e[2] = None
                if pos is not None:
                    e[3], e[4], e[5] = V, kcols, rows
                e[0] = lo
                e[2] = pos

    def _fingerprint_lookup(self, V: int, s: int, splits):
        """The canonical key of V if its fingerprint was seen before (else None), and the entry."""
        fp = (s, tuple([t[0] for t in sorted(splits, key=_column_of)]))  # smaller sides by column
        pending = self._fps.get(fp, 0)
        if pending == 0:
            self._fps[fp] = [V]
            self._canon_bytes += 100 + 8 * len(splits)
            return None
        if pending is not None:  # a second version space with this fingerprint: key the first ones
            self._fps[fp] = None
            for P in pending:
                if P != V and (P in self._lo or P in self._hi):
                    Psplits = self._splits3(P, self._splitting(P))
                    self._store_canonical(*self._canonical(P, Psplits), P)
        self._keys_made += 1
        if self._keys_made >= CANONICAL_WINDOW:
            # few hits for the canonical forms computed: try only larger version spaces
            if self._window_hits * 8 < self._keys_made:
                self._cmin *= 2
            self._keys_made = self._window_hits = 0
        return self._canonical(V, splits)

    # ------------------------------------------------------------ the memo
    def merge_proven(self, facts) -> int:
        """Add proven facts ``(V, value)`` to the memo; returns how many were new to it.

        ``value >= 0`` says ``Ldim(V) >= value``; ``value = -1 - m`` says ``Ldim(V) <= m``.
        These are what another search of the same class publishes in a run with
        ``publish=True`` (:meth:`running`) or holds (:meth:`facts`): its version spaces
        are bitsets over the same distinct rows, which is how parallel workers share what
        they prove.  A fact no stronger than the memo's is ignored.

        Examples
        --------
        >>> from mistakebound import classes
        >>> a, b = LdimSearch(classes.thresholds(7)), LdimSearch(classes.thresholds(7))
        >>> with a.running(publish=True) as run:
        ...     a.ldim(a.full)
        3
        >>> b.merge_proven(run.take_facts()) > 0
        True
        >>> b.ldim(b.full), b.nodes
        (3, 0)
        """
        lo, hi, new = self._lo, self._hi, 0
        for V, value in facts:
            if value >= 0:
                if value > lo.get(V, 1):
                    lo[V] = value
                    new += 1
            else:
                m = -1 - value
                if m < hi.get(V, m + 1):
                    hi[V] = m
                    new += 1
        return new

    def memo_bytes(self) -> int:
        """Estimated bytes held by the memos."""
        return (len(self._lo) + len(self._hi) + len(self._wit)) * self._entry_bytes + self._canon_bytes

    def limit_memo(self, max_memo_bytes: int) -> None:
        """Lower the memo's limit to ``max_memo_bytes`` (never raises it); the memo is cut at the next node.

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = LdimSearch(classes.intervals(8), max_memo_bytes=1 << 20)
        >>> search.limit_memo(1 << 30); search.max_memo_bytes == 1 << 20
        True
        >>> search.limit_memo(1 << 16); search.max_memo_bytes
        65536
        """
        self.max_memo_bytes = min(self.max_memo_bytes, max(int(check_int("max_memo_bytes", max_memo_bytes, 1)), 1))

    def release_memory(self) -> None:
        """After a ``MemoryError``: halve the memo's limit and cut the memo to fit (answers stay exact).

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = LdimSearch(classes.intervals(8))
        >>> search.ldim(search.full)
        4
        >>> search.release_memory(); search.memo_bytes() <= search.max_memo_bytes
        True
        """
        self.max_memo_bytes = max(min(self.max_memo_bytes, self.memo_bytes()) // 2, 1)
        self._evict()

    def _evict(self) -> None:
        """Drop the smaller half of every memo (by version-space size) until under the limit."""
        while self.memo_bytes() > self.max_memo_bytes // 2 and (self._lo or self._hi or self._wit or self._canon
                                                                 or self._fps or self._forms):
            for memo in (self._lo, self._hi, self._wit):
                if len(memo) <= 1:
                    self.evictions += len(memo)
                    memo.clear()
                    continue
                keys = sorted(memo, key=int.bit_count)
                for V in keys[: (len(keys) + 1) // 2]:
                    del memo[V]
                self.evictions += (len(keys) + 1) // 2
            if len(self._canon) <= 1:
                self.evictions += len(self._canon)
                self._canon.clear()
            else:
                keys = sorted(self._canon, key=_key_size)
                for key in keys[: (len(keys) + 1) // 2]:
                    del self._canon[key]
                self.evictions += (len(keys) + 1) // 2
            self.evictions += len(self._fps) + len(self._forms)
            self._fps.clear()
            self._forms.clear()
            self._canon_bytes = sum(200 + _key_size(key) + (0 if e[4] is None else 8 * (len(e[4]) + len(e[5])))
                                    for key, e in self._canon.items())

    def _at_least(self, V: int, cand, k: int, splits: list | None = None) -> bool:
        """Whether ``Ldim(V) >= k``; ``cand`` holds every column that may split V.

        The memo keeps, per version space, the largest ``k`` proven reachable
        (``_lo``, with a witnessing column in ``_wit``) and the smallest proven
        unreachable minus one (``_hi``); ``splits`` (as from ``_splits3``), if given,
        saves recomputing them.
        """
        if k <= 0:
            return True
        s = V.bit_count()
        if k > s.bit_length() - 1:  # Ldim(V) <= floor(log2 |V|)
            return False
        lo = self._lo
        if k <= lo.get(V, 1):  # |V| >= 2 distinct rows: some column splits V
            return True
        hi = self._hi
        if k > hi.get(V, k):
            return False
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise OutOfBudget  # the budget is spent: this node is not expanded, nor counted
        self.nodes += 1
        if self._deadline is not None and self.nodes % 256 == 0 and time.monotonic() > self._deadline:
            raise OutOfBudget
        if self._tick is not None and not self.nodes % TICK_NODES:
            self._tick()
        if self.memo_bytes() > self.max_memo_bytes:
            self._evict()
        if k == 2:  # Ldim(V) >= 2 exactly when some column leaves two rows or more on each side
            return self._at_least_two(V, s, [j for _, _, j in splits] if splits is not None else cand)
        if splits is None:
            splits = self._splits3(V, cand)
        canon = None
        if s >= self._cmin and V != self.full:
            canon = self._fingerprint_lookup(V, s, splits)
            if canon is not None:
                e = self._canon.get(canon[0])
                if e is not None:
                    if k <= e[0]:
                        self.canonical_hits += 1
                        self._window_hits += 1
                        self._wit.pop(V, None)  # it witnessed a smaller value; the tree copies the twin's
                        lo[V] = e[0]
                        if self._outbox is not None:
                            self._outbox.append((V, e[0]))
                        if s >= FORM_MIN:  # kept for the tree: costly to recompute on large V
                            self._forms[V] = canon
                            self._canon_bytes += 100 + 8 * (len(canon[1]) + len(canon[2]))
                        return True
                    if e[1] is not None and k > e[1]:
                        self.canonical_hits += 1
                        self._window_hits += 1
                        hi[V] = e[1]
                        if self._outbox is not None:
                            self._outbox.append((V, -1 - e[1]))
                        return False
        sub = [j for _, _, j in splits]
        need = k - 1
        for ns, small, j in splits:
            if ns.bit_length() <= need:
                break  # floor(log2 |small|) < k - 1 here and for every later split
            if self._at_least(small, sub, need) and self._at_least(V ^ small, sub, need):
                # witness first: j also witnesses any smaller value, so an exception between
                # the two writes (Ctrl-C, a parallel worker's stop) leaves the memo consistent
                self._wit[V] = j
                lo[V] = max(k, 1 + min(lo.get(small, need), lo.get(V ^ small, need)))
                if self._outbox is not None:
                    self._outbox.append((V, lo[V]))
                if canon is not None:
                    self._store_canonical(*canon, V)
                return True
        hi[V] = need
        if self._outbox is not None:
            self._outbox.append((V, -1 - need))
        if canon is not None:
            self._store_canonical(*canon, V)
        return False

    def _at_least_two(self, V: int, s: int, cand) -> bool:
        """``Ldim(V) >= 2`` for ``|V| = s >= 4``, without listing the splits: the first column whose
        sides both hold two rows or more is the witness (each side then has Ldim >= 1)."""
        cols = self.columns
        for j in cand:
            n1 = (V & cols[j]).bit_count()
            if 2 <= n1 <= s - 2:
                self._wit[V] = j
                self._lo[V] = 2
                if self._outbox is not None:
                    self._outbox.append((V, 2))
                return True
        self._hi[V] = 1
        if self._outbox is not None:
            self._outbox.append((V, -2))
        return False

    # ------------------------------------------------------------- the tree
    def tree(self, V: int | None = None, *, max_nodes: int | None = None,
             time_limit: float | None = None) -> nx.DiGraph:
        """A shattered tree of depth ``Ldim(V)`` for the version space ``V`` (default all).

        The tree is read off what the value search proved: each node's column is the
        split remembered as the witness of its version space, and a version space
        answered by the canonical memo gets a relabelled copy of the tree of its searched
        twin.  Only what the memo has lost is searched again.

        Raises
        ------
        SearchIncomplete, SearchInterrupted
            If the budget (``max_nodes`` search nodes, ``time_limit`` seconds, for the
            value and the tree together) runs out or Ctrl-C is pressed; no tree is
            returned then, and ``exc.result`` holds the proven bounds.

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = LdimSearch(classes.intervals(8))
        >>> search.ldim(search.full), search.tree().graph["depth"]
        (4, 4)
        """
        budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
        V = self.full if V is None else self._version_space(V)
        if V == 0:
            raise InvalidArgumentError("V: expected a non-empty version space, got the empty set")
        value = require_exact(self.bounds(V, max_nodes=max_nodes, time_limit=time_limit))
        evicted, built = self.evictions, []
        with self.running(Budget(time_limit=budget.remaining(value).time_limit)) as run:
            if max_nodes is not None:
                run.limit_nodes(max(max_nodes - value.nodes, 0))
            status = run_within(lambda: built.append(self._tree_graph(V, value.lower)))
        if status == "exact":
            return built[0]
        # the value is exact, the tree is not finished: the bounds are reported as partial
        partial = LdimBounds(lower=value.lower, upper=value.upper, status=status, nodes=value.nodes + run.nodes,
                             seconds=value.seconds + run.seconds, evictions=value.evictions + self.evictions - evicted)
        raise (SearchInterrupted if status == "interrupted" else SearchIncomplete)(partial)

    def _tree_graph(self, V: int, depth: int) -> nx.DiGraph:
        size = 1 << (depth + 1)
        val = [0] * size  # heap order: column at internal nodes, distinct row at leaves
        self._walk(V, depth, 1, val, {})
        G = ShatteredTree(depth=depth, root=1)
        first_leaf = 1 << depth
        if depth == 0:
            G.add_node(1)
        G.add_edges_from(((i, 2 * i) for i in range(1, first_leaf)), label=0)
        G.add_edges_from(((i, 2 * i + 1) for i in range(1, first_leaf)), label=1)
        domain = self.H.domain
        nx.set_node_attributes(G, {i: domain[val[i]] for i in range(1, first_leaf)}, "instance")
        reps = self.representatives.tolist()
        witness = {i: reps[val[i]] for i in range(first_leaf, size)}
        nx.set_node_attributes(G, witness, "witness")
        name = self.H.hypothesis_name
        nx.set_node_attributes(G, {i: name(w) for i, w in witness.items()}, "witness_name")
        return G

    def _witness(self, W: int, d: int) -> int:
        """A column splitting W into two sides of Ldim >= d - 1 (searching if the memo lost it)."""
        if self._lo.get(W, 0) >= d:
            j = self._wit.get(W)
            if j is not None:
                return j
        if d == 1:  # the first instance on which two hypotheses of W disagree
            r1 = (W & -W).bit_length() - 1
            rest = W ^ (1 << r1)
            r2 = (rest & -rest).bit_length() - 1
            rows = self._row_bits()
            diff = rows[r1] ^ rows[r2]
            return (diff & -diff).bit_length() - 1
        splits = self._splits3(W, self._splitting(W))
        sub = [j for _, _, j in splits]
        for _, small, j in splits:
            if self._at_least(small, sub, d - 1) and self._at_least(W ^ small, sub, d - 1):
                return j
        raise AssertionError("no split realises the computed Littlestone dimension")  # pragma: no cover

    def _row_bits(self) -> list[int]:
        """Per distinct row, the bitset of the instances it labels 1 (made on first use)."""
        if self._rows is None:
            M = self.H.matrix[self.representatives]
            packed = np.packbits(M, axis=1, bitorder="little")
            self._rows = [int.from_bytes(row, "little") for row in packed]
        return self._rows

    def _walk(self, W: int, d: int, h: int, val: list, built: dict) -> None:
        """Write a shattered tree of depth d for W into the heap ``val`` at node h.

        ``built`` maps ``(W, d)`` to the heap and node where such a tree was written;
        written regions are never changed afterwards, so they can be copied.
        """
        if d == 1:
            j = self._witness(W, 1)
            a = W & self.columns[j]
            val[h], val[2 * h], val[2 * h + 1] = j, ((W ^ a) & -(W ^ a)).bit_length() - 1, (a & -a).bit_length() - 1
            return
        if d == 0:
            val[h] = (W & -W).bit_length() - 1
            return
        done = built.get((W, d))
        if done is not None:
            _copy_subtree(done[0], done[1], val, h, d)
            return
        if (d >= 2 and self._canon and not (self._lo.get(W, 0) >= d and W in self._wit)
                and W.bit_count() >= CANONICAL_MIN and W != self.full):
            form = self._forms.get(W)
            if form is None:
                form = self._canonical(W, self._splits3(W, self._splitting(W)))
            key, kcols, rows = form
            e = self._canon.get(key)
            if e is not None and e[0] >= d and e[2] is not None and e[3] != W:
                src = built.get((e[3], d))
                if src is None:  # the searched twin's tree, in a heap of its own
                    tmp = [0] * (2 << d)
                    self._walk(e[3], d, 1, tmp, built)
                    src = (tmp, 1)
                colmap = dict(zip(e[4].tolist(), kcols.tolist()))
                rowmap = dict(zip(e[5].tolist(), rows.tolist()))
                try:
                    _copy_subtree(src[0], src[1], val, h, d, colmap, rowmap)
                except KeyError:  # pragma: no cover - the twin's tree left its columns; search W itself
                    pass
                else:
                    built[(W, d)] = (val, h)
                    return
        j = self._witness(W, d)
        val[h] = j
        a = W & self.columns[j]
        self._walk(W ^ a, d - 1, 2 * h, val, built)
        self._walk(a, d - 1, 2 * h + 1, val, built)
        built[(W, d)] = (val, h)


@frozen
class LdimPlan:
    """Where a search of ``Ldim(V)`` starts (:meth:`LdimSearch.plan`).

    Attributes
    ----------
    V : int
        The version space, a bitset over the search's distinct rows.
    splits : list of (int, int, int)
        One entry per distinct split of ``V`` (columns equal or complementary on ``V``
        count once): the size of the smaller side, the smaller side, and the column; most
        balanced first.
    lower, upper : int
        ``lower <= Ldim(V) <= upper``, proven before any search (-1 for the empty set).

    Examples
    --------
    >>> from mistakebound import classes
    >>> search = LdimSearch(classes.singletons(4))
    >>> p = search.plan(0b0111)
    >>> p.splits, p.lower, p.upper
    ([(1, 1, 0), (1, 2, 1), (1, 4, 2)], 1, 1)
    """

    V: int
    splits: list = field(repr=False)
    lower: int
    upper: int


@define
class LdimRun:
    """A run of an :class:`LdimSearch`, as :meth:`LdimSearch.running` yields it.

    Attributes
    ----------
    search : LdimSearch
    outbox : list or None
        The facts the run publishes (with ``publish=True``), as for
        :meth:`LdimSearch.merge_proven`.
    started : float
        :func:`time.monotonic` when the run began.
    nodes_before : int
        The search's node count when the run began.

    Examples
    --------
    >>> from mistakebound import classes
    >>> search = LdimSearch(classes.intervals(8))
    >>> with search.running(publish=True) as run:
    ...     search.ldim(search.full)
    4
    >>> run.nodes > 0, len(run.take_facts()) > 0, run.take_facts()
    (True, True, [])
    """

    search: LdimSearch = field(repr=False)
    outbox: list | None = field(default=None, repr=False)
    started: float = field(factory=time.monotonic)
    nodes_before: int = field(init=False)

    def __attrs_post_init__(self) -> None:
        self.nodes_before = self.search.nodes

    @property
    def nodes(self) -> int:
        """Nodes expanded since the run began."""
        return self.search.nodes - self.nodes_before

    @property
    def seconds(self) -> float:
        """Seconds since the run began."""
        return time.monotonic() - self.started

    def limit_nodes(self, n: int | None) -> None:
        """From now on, at most ``n`` more nodes (None: no node limit); only while the run lasts."""
        self.search._node_limit = None if n is None else self.search.nodes + check_int("n", n, 0)

    def publish(self) -> None:
        """From now on, collect the facts the search proves (for :meth:`take_facts`)."""
        if self.outbox is None:
            self.outbox = self.search._outbox = []

    def take_facts(self) -> list[tuple[int, int]]:
        """The facts published since the last call (and empties the outbox)."""
        out = self.outbox
        if not out:
            return []
        batch = out[:]
        out.clear()
        return batch


#: How a search runs with worker processes: ``engine(search, V, workers, budget) -> LdimBounds``.
#: :mod:`mistakebound.theory.parallel` installs it (the package imports that module), so
#: this module, which that one drives, does not import it.
_workers_engine: Callable | None = None


def install_workers_engine(engine: Callable) -> None:
    """Install the engine behind ``workers=`` (done by :mod:`mistakebound.theory.parallel` on import)."""
    global _workers_engine
    _workers_engine = check_callable("engine", engine)


def _run_with_workers(search: LdimSearch, V: int | None, workers: object, budget: Budget) -> LdimBounds:
    if _workers_engine is None:  # pragma: no cover - the package imports the engine
        raise MistakeboundError("workers: no parallel engine installed; import mistakebound.theory.parallel")
    return _workers_engine(search, V, workers, budget)


def _column_of(split: tuple) -> int:
    """The column of a ``(size, side, column)`` split."""
    return split[2]


def _key_size(key: tuple) -> int:
    """Estimated bytes of a canonical form (its rows times its columns, in bits)."""
    if key[0] == "window":
        return key[1] * len(key[2]) // 8 + 40 * len(key[2])
    return len(key[1])


def _copy_subtree(src: list, s: int, dst: list, t: int, d: int,
                  colmap: dict | None = None, rowmap: dict | None = None) -> None:
    """Copy the depth-d subtree at heap node s of src to node t of dst, relabelled by the maps."""
    for level in range(d + 1):
        n = 1 << level
        seg = src[s * n: s * n + n]
        if colmap is not None and level < d:
            seg = [colmap[c] for c in seg]
        elif rowmap is not None and level == d:
            seg = [rowmap[r] for r in seg]
        dst[t * n: t * n + n] = seg


@frozen
class LdimBounds(SearchResult):
    """Proven bounds on a Littlestone dimension, from a search that may have stopped early.

    A :class:`~mistakebound.theory.search.SearchResult` (``lower``, ``upper``,
    ``status``, ``nodes``, ``seconds``; ``exact``, ``value``, ``describe()``) with one
    more field.

    Attributes
    ----------
    evictions : int
        Memo entries dropped during this call to stay within the memo's memory limit
        (the bounds stay proven; only time is lost).

    Examples
    --------
    >>> from mistakebound import classes
    >>> b = littlestone_bounds(classes.thresholds(7))
    >>> b.describe(), b.value, b.exact
    ('Ldim = 3', 3, True)
    """

    quantity: ClassVar[str] = "Ldim"

    evictions: int = 0


#: The engines a Littlestone question can be answered by (see :func:`ldim_engine`).
ENGINES = ("compiled", "python", "parallel")


@define
class LdimEngine:
    """The Littlestone search chosen for a question, ready to run: memory checked, nothing searched yet.

    Attributes
    ----------
    name : {"compiled", "python", "parallel"}
        The compiled search (:mod:`mistakebound.theory.ldim_kernel`), the Python search
        (:class:`LdimSearch`, which trees and certificates are read off), or the Python
        search with worker processes.
    search : LdimSearch or None
        The Python search (None for the compiled one, until it falls back to Python).
    """

    H: HypothesisClass
    budget: Budget
    name: str
    workers: int | None = 1
    search: LdimSearch | None = None
    memo_bytes: int = 0

    def run(self, V: int | None = None) -> LdimBounds:
        """Search within the budget; the compiled search falls back to Python when it cannot start."""
        if self.name == "compiled":
            found = ldim_kernel.kernel_bounds(self.H, self.budget, self.memo_bytes)
            if found is not None:
                return LdimBounds(**found)
            self.name, self.search = "python", LdimSearch(self.H)
        return self.search.bounds(V, max_nodes=self.budget.max_nodes, time_limit=self.budget.time_limit,
                                  workers=self.workers)


def ldim_engine(H: HypothesisClass, *, budget: Budget | None = None, workers: int | None = 1,
                keep_search: bool = False) -> LdimEngine:
    """The engine that answers a Littlestone question on ``H``, chosen from the budget and the request.

    The compiled search when the install has it, ``workers`` is 1 and nothing will be read
    off the search but its bounds; otherwise the Python search (``keep_search``: a tree or a
    certificate will be), with workers when ``workers`` asks for them.  The memory the
    search needs up front is checked here, before anything runs.

    Raises
    ------
    InsufficientMemoryError
        When the search's bitsets would not fit (:func:`search_memory_estimate`).

    Examples
    --------
    >>> from mistakebound import classes
    >>> ldim_engine(classes.thresholds(7), keep_search=True).name
    'python'
    >>> ldim_engine(classes.thresholds(7)).run().describe()
    'Ldim = 3'
    """
    H = require_class(H)
    budget = budget or Budget()
    if workers == 1 and not keep_search and ldim_kernel.AVAILABLE:
        return LdimEngine(H, budget, "compiled", memo_bytes=_kernel_memo_bytes(H))
    return LdimEngine(H, budget, "python" if workers == 1 else "parallel", workers=workers, search=LdimSearch(H))


def littlestone_bounds(
    H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None,
    workers: int | None = 1,
) -> LdimBounds:
    """Proven lower and upper bounds on ``Ldim(H)`` within a budget of nodes and/or seconds.

    Without a budget the bounds are equal (the exact value).  Ctrl-C stops the search
    and returns the bounds proven so far, with ``status="interrupted"``.  ``workers``
    other than 1 has that many processes search, this one included (None: one per
    CPU), see :mod:`mistakebound.theory.parallel`; it pays only on long searches of large
    classes (measured in ``benchmarks/parallel_speedup.py``).  The engine is chosen by
    :func:`ldim_engine`, as for every Littlestone question.

    Examples
    --------
    >>> from mistakebound import classes
    >>> littlestone_bounds(classes.thresholds(15)).describe()
    'Ldim = 4'
    >>> b = littlestone_bounds(classes.random(3000, 30, 0.3, seed=0), max_nodes=5)
    >>> b.exact, b.lower <= b.upper
    (False, True)
    """
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)  # refused before anything is allocated
    return ldim_engine(H, budget=budget, workers=workers).run()


def littlestone_dimension(H: HypothesisClass, *, max_nodes: int | None = None,
                          time_limit: float | None = None, workers: int | None = 1) -> int:
    """The Littlestone dimension of a finite class, exactly.

    Parameters
    ----------
    H : HypothesisClass
    max_nodes, time_limit : int or float, optional
        A budget of search nodes and/or seconds.
    workers : int or None
        Processes searching, this one included (default 1: this process alone).

    Returns
    -------
    int
        The depth of the deepest shattered tree (textbook Definition 21.5); 0 for a
        class whose hypotheses all agree on every instance.

    Raises
    ------
    InvalidArgumentError
        If ``H`` is not a :class:`HypothesisClass`, or for a bad budget.
    SearchIncomplete
        If ``max_nodes`` or ``time_limit`` runs out; ``exc.result`` (an
        :class:`LdimBounds`) holds the proven lower and upper bounds (a partial number is
        never returned).
    SearchInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``), with ``exc.result``.

    Examples
    --------
    >>> from mistakebound import HypothesisClass, classes
    >>> littlestone_dimension(classes.singletons(100))
    1
    >>> littlestone_dimension(HypothesisClass.from_matrix([[0, 1]]))
    0
    >>> littlestone_dimension(classes.random(3000, 30, 0.3, seed=0), max_nodes=5)
    Traceback (most recent call last):
    ...
    mistakebound.theory.search.SearchIncomplete: search stopped (budget) after 5 nodes: 1 <= Ldim <= 10 (partial: budget)
    """
    return littlestone_bounds(H, max_nodes=max_nodes, time_limit=time_limit, workers=workers).value


def shattered_tree(H: HypothesisClass, *, max_nodes: int | None = None,
                   time_limit: float | None = None) -> nx.DiGraph:
    """A complete binary tree of depth ``Ldim(H)`` shattered by ``H``.

    Nodes are numbered as in the textbook: the root is 1 and the children of node
    ``i`` are ``2i`` (reached by the edge with ``label=0``) and ``2i + 1``
    (``label=1``).  Internal nodes carry the attribute ``instance``; each leaf carries
    ``witness`` (the row index in ``H`` of a hypothesis consistent with the labels on
    its path) and ``witness_name``.  The graph attribute ``depth`` is the depth.

    Parameters
    ----------
    H : HypothesisClass
    max_nodes, time_limit : optional
        A budget of search nodes and/or seconds, as for :func:`littlestone_dimension`.

    Raises
    ------
    InvalidArgumentError
        If ``H`` is not a :class:`HypothesisClass`, or for a bad budget.
    SearchIncomplete
        If the budget runs out; ``exc.result`` holds the proven bounds on ``Ldim(H)``
        (a partial tree is never returned).
    SearchInterrupted
        On Ctrl-C, with ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> T = shattered_tree(classes.thresholds(3))
    >>> T.nodes[1]["instance"], T.graph["depth"]
    (2, 2)
    >>> sorted(T.nodes[n]["witness"] for n in T if T.out_degree(n) == 0)
    [0, 1, 2, 3]
    >>> from mistakebound.theory.search import SearchIncomplete
    >>> try:
    ...     shattered_tree(classes.random(3000, 30, 0.3, seed=0), max_nodes=5)
    ... except SearchIncomplete as exc:
    ...     exc.result.exact
    False
    """
    Budget(max_nodes=max_nodes, time_limit=time_limit)  # refused before anything is allocated
    return LdimSearch(require_class(H)).tree(max_nodes=max_nodes, time_limit=time_limit)


def _edge_label(value: object) -> int | None:
    """An edge's label as 0 or 1; None for anything else (strings, arrays, 0.5, ...)."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return int(value)
    return None


def is_shattered(H: HypothesisClass, tree: nx.DiGraph) -> bool:
    """Whether ``tree`` is a complete binary tree shattered by ``H``.

    The tree must have the layout :func:`shattered_tree` produces (one root, two
    children per internal node along edges labelled 0 and 1, every leaf at the same
    depth, each internal node's ``instance`` in ``H``'s domain), and every root-to-leaf
    path must be realised by some hypothesis of ``H``.  A leaf that names a
    ``witness`` must name a hypothesis that realises its path.

    Examples
    --------
    >>> import networkx as nx
    >>> from mistakebound import classes
    >>> H = classes.singletons(4)
    >>> is_shattered(H, shattered_tree(H))
    True
    >>> T = nx.DiGraph()
    >>> T.add_node(1, instance=1); T.add_edge(1, 2, label=0); T.add_edge(1, 3, label=1)
    >>> T.add_node(2, instance=2); T.add_edge(2, 4, label=0); T.add_edge(2, 5, label=1)
    >>> T.add_node(3, instance=2); T.add_edge(3, 6, label=0); T.add_edge(3, 7, label=1)
    >>> is_shattered(H, T)  # x=1 and x=2 both labelled 1 by no singleton
    False
    """
    require_class(H)
    if not isinstance(tree, nx.DiGraph) or tree.number_of_nodes() == 0:
        return False
    roots = [n for n in tree if tree.in_degree(n) == 0]
    if len(roots) != 1 or not nx.is_arborescence(tree):
        return False
    cols = H.column_masks
    full = H.full_mask
    depths: set[int] = set()
    stack: list[tuple[Hashable, int, int]] = [(roots[0], full, 0)]
    while stack:
        node, V, d = stack.pop()
        if V == 0:
            return False
        children = list(tree.successors(node))
        if not children:
            depths.add(d)
            w = tree.nodes[node].get("witness")
            if w is not None:
                if not isinstance(w, (int, np.integer)) or not 0 <= w < H.n_hypotheses or not (V >> int(w)) & 1:
                    return False
            continue
        x = tree.nodes[node].get("instance")
        if len(children) != 2 or x not in H:
            return False
        labels = [_edge_label(tree.edges[node, c].get("label")) for c in children]
        if sorted(labels, key=str) != [0, 1]:  # None (not a label) sorts apart from 0 and 1
            return False
        c1 = cols[H.index_of(x)]
        for child, y in zip(children, labels):
            stack.append((child, V & c1 if y == 1 else V & ~c1, d + 1))
    return len(depths) == 1

