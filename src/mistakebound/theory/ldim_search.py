"""The exact Littlestone-dimension search: :class:`LdimSearch`, its memo and its runs.

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
* a question (:meth:`~LdimSearch.at_least`, :meth:`~LdimSearch.ldim`,
  :meth:`~LdimSearch.exceeds`: a learner's) that proven bounds do not settle, on a version
  space of :data:`COMPILED_MIN` distinct rows or more, goes to the compiled search on the
  sub-class of its rows when the extension is installed, and the bounds it proves go into
  the memo (:meth:`~LdimSearch.merge_proven`); inside a run it spends what is left of the
  run's budget, and runs out of it as the Python search does.  The Python search's own
  descent (:meth:`~LdimSearch.bounds`, the trees and certificates read off its memo) and
  the runs that tick or publish their facts (a parallel search's) stay in Python;
* the search remembers, per version space, the split that proved its value, so a
  shattered tree is read off the memo (:class:`~mistakebound.theory.ldim_trees.TreeReader`,
  which :class:`LdimSearch` extends) instead of being searched again.

Every search takes the budget of :mod:`mistakebound.theory.search_protocol` (``max_nodes``,
``time_limit``, Ctrl-C) and reports an :class:`LdimBounds`, a
:class:`~mistakebound.theory.search_protocol.SearchResult`.  Drivers of the search
(:mod:`mistakebound.theory.parallel`, learners asking many questions) use the public
interface of :class:`LdimSearch`: :meth:`~LdimSearch.plan`, :meth:`~LdimSearch.at_least`,
:meth:`~LdimSearch.proven`, :meth:`~LdimSearch.facts`, :meth:`~LdimSearch.merge_proven`
and the :meth:`~LdimSearch.running` context.  The questions' front doors (the value, its
bounds, a tree, the engine that answers them) are in :mod:`mistakebound.theory.littlestone`.

Examples
--------
>>> from mistakebound import classes
>>> search = LdimSearch(classes.thresholds(7))
>>> search.bounds().describe(), search.nodes > 0
('Ldim = 3', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import EllipsisType

import numpy as np

from mistakebound.foundations import memory
from mistakebound.foundations.bitset import column_to_mask, columns_to_masks, full_mask, mask_to_indices
from mistakebound.foundations.errors import InsufficientMemoryError, InvalidArgumentError, MistakeboundError
from mistakebound.foundations.validation import brief, check_callable, check_instance, check_int
from mistakebound.game.hypothesis_class import HypothesisClass, require_binary, require_class
import mistakebound.theory.ldim_canonical as ldim_canonical
import mistakebound.theory.ldim_kernel as ldim_kernel
from mistakebound.theory.ldim_canonical import CanonicalMemo, key_bytes
from mistakebound.theory.ldim_runs import LdimBounds, LdimPlan, LdimRun
from mistakebound.theory.ldim_trees import TreeReader
from mistakebound.theory.search_protocol import (
    Budget,
    OutOfBudget,
    earliest,
    memo_share,
    run_within,
    searches_stopped,
    shared_deadline,
)

__all__ = [
    "LdimBounds",
    "LdimPlan",
    "LdimRun",
    "LdimSearch",
    "default_memo_bytes",
    "install_workers_engine",
    "require_search_memory",
    "search_memory_estimate",
]


#: Version spaces at least this large answered by the canonical memo keep their form for the tree.
FORM_MIN = 16
#: The memo limit when the available memory cannot be read.
DEFAULT_MEMO_BYTES = 1 << 30
#: A question on a version space of at least this many distinct rows (outside a run, or in
#: a run that neither ticks nor publishes, under its budget) goes to the compiled search on the sub-class of its
#: rows when the extension is installed.  Measured (``python -m benchmarks.soa_questions``):
#: one cold question costs the compiled search 20 to 140 times less than the Python memo from
#: 13 rows to 40,000, and SOA's games ran faster with 32 than with 256 (play on random(2000,
#: 24) 3.4x against 2.4x the Python memo's rounds/s); below 32 a cold Python question costs
#: about a millisecond or less, and a warm one (a memo hit) the same either way.
COMPILED_MIN = 32
#: The budget of a question asked outside a run (a Budget is frozen: one serves every question).
_NO_BUDGET = Budget()
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
    """The memo limit a search takes by default: its :func:`~mistakebound.theory.search_protocol.memo_share`.

    That is :data:`~mistakebound.theory.search_protocol.MEMO_FRACTION` of ``available``, the memory
    available (:func:`~mistakebound.foundations.memory.available_memory`: the machine's,
    the cgroup's, ``ulimit -v``, and in a worker its share) as the caller read it, read
    now by default; :data:`DEFAULT_MEMO_BYTES` when none is known; at least 1 MiB.

    Examples
    --------
    >>> default_memo_bytes() >= 1 << 20
    True
    >>> default_memo_bytes(1 << 34) == 1 << 32, default_memo_bytes(None) == DEFAULT_MEMO_BYTES
    (True, True)
    """
    share = memo_share(memory.available_memory() if available is ... else available)
    return DEFAULT_MEMO_BYTES if share is None else max(share, 1 << 20)


def require_search_memory(H: HypothesisClass, available: int | None | EllipsisType = ...) -> int | None:
    """Refuse a search of ``H`` whose bitsets would not fit; the memory available, as read.

    ``available`` is the budget as the caller read it; read here by default (once: the
    value returned is what the search's defaults take).
    """
    if available is ...:
        available = memory.available_memory()
    memory.require_memory(
        search_memory_estimate(H), parameter="H",
        what=f"a Littlestone search of {H.n_hypotheses} hypotheses x {H.n_instances} instances",
        advice="search a smaller class", available=available,
    )
    return available


class LdimSearch(CanonicalMemo, TreeReader):
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
    available : int or None, optional
        The memory available as the caller already read it (a front door reads the
        budget once and passes it down; None: unknown); read when the search is created
        by default.

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

    Raises
    ------
    InsufficientMemoryError
        If :func:`search_memory_estimate` exceeds the memory available
        (:func:`~mistakebound.foundations.memory.require_memory`), before anything is
        allocated, or if allocating the class's bitsets fails all the same.

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

    def __init__(self, H: HypothesisClass, *, max_memo_bytes: int | None = None,
                 available: int | None | EllipsisType = ...):
        self.H = require_binary(require_class(H), what="the Littlestone search of a 0/1 class (littlestone_bounds "
                                "answers for more labels)")
        max_memo_bytes = check_int("max_memo_bytes", max_memo_bytes, 1, optional=True)
        available = require_search_memory(H, available)  # read once: SOA builds a search per game
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
            left = memory.available_memory()  # what is left now that the allocation failed
            raise InsufficientMemoryError(
                f"H: a Littlestone search of {H.n_hypotheses} hypotheses x {H.n_instances} instances ran out of "
                f"memory while reading the class (estimated {memory.format_bytes(search_memory_estimate(H))}, "
                f"{'unknown' if left is None else memory.format_bytes(left)} available); search a smaller class",
                needed=search_memory_estimate(H), available=left,
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
        self.compiled_questions = 0  # questions settled by the compiled search (_ask_compiled)
        self.canonical_hits = 0
        self.evictions = 0
        self._cmin = ldim_canonical.CANONICAL_MIN  # smallest version space whose canonical form is looked up
        self._canon_min = ldim_canonical.CANONICAL_MIN  # no smaller version space is in the canonical memo (for trees)
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
        lo, hi = self.proven(V)  # a tiny V, or one the memo settles: no search, no list of splits
        if cap is not None and cap <= lo:
            return cap
        if lo == hi:
            return lo
        self._ask_compiled(V, None)
        splits = self._distinct_splits(V, self._splitting(V))
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

        def descend() -> None:  # the Python search itself: its memo keeps the witnesses trees are read from
            nonlocal upper
            while upper > plan.lower and not self._at_least(plan.V, (), upper, plan.splits):
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
        :class:`~mistakebound.theory.search_protocol.OutOfBudget` when that runs out, and whatever
        the context's ``tick`` raises, leaving only proven facts in the memo.  ``plan``
        (from :meth:`plan` of the same ``V``) saves listing ``V``'s splits again.

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = LdimSearch(classes.thresholds(7))
        >>> search.at_least(search.full, 3), search.at_least(search.full, 4)
        (True, False)
        """
        if plan is not None and plan.V != V:
            raise InvalidArgumentError(f"plan: expected the plan of V = {brief(V)}, got the plan of {brief(plan.V)}")
        if V == 0:
            return k <= -1
        lo, hi = self.proven(V)  # settled without a search, before the splits are listed
        if k <= lo:
            return True
        if k > hi:
            return False
        self._ask_compiled(V, k)
        if plan is None:
            return self._at_least(V, self._splitting(V), k)
        return self._at_least(V, (), k, plan.splits)

    def exceeds(self, A: int, B: int) -> bool:
        """Whether ``Ldim(A) > Ldim(B)``, for version spaces over distinct rows: SOA's question.

        Proven bounds settle it first, with no search (:meth:`proven`: exact on version
        spaces of at most three distinct rows, ``-1, 0, 1, 1``, and on what the memo holds;
        ``floor(log2 |V|)`` above); otherwise ``B``'s value is searched, then whether ``A``
        reaches one more, as :meth:`ldim` and :meth:`at_least` do (the same budget and rules).

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = LdimSearch(classes.thresholds(7))
        >>> search.exceeds(search.full, 0b1), search.exceeds(0b11, 0b1100), search.nodes
        (True, False, 0)
        """
        a, b = A.bit_count(), B.bit_count()
        if a <= 1 or b <= 1:  # Ldim = |V| - 1 on one side, at least 1 on a side of 2 rows or more
            return a > b
        if a <= 3 and b <= 3:  # Ldim 1 on both sides
            return False
        lo, hi = self._lo, self._hi
        log = a.bit_length() - 1
        la = lo.get(A, 1)
        ha = hi.get(A, log)
        ha = ha if ha < log else log
        log = b.bit_length() - 1
        lb = lo.get(B, 1)
        hb = hi.get(B, log)
        hb = hb if hb < log else log
        if la > hb:
            return True
        if ha <= lb:
            return False
        return self.at_least(A, self.ldim(B) + 1)

    def _ask_compiled(self, V: int, k: int | None) -> None:
        """Settle ``Ldim(V)`` by the compiled search on ``V``'s rows, when that is the rule; record what it proves.

        The rule: the extension is installed, ``V`` holds at least :data:`COMPILED_MIN`
        distinct rows, the memo does not already answer "``Ldim(V) >= k``?" (``k`` None: the
        value), and the run open, if any, neither has a ``tick`` nor publishes (a parallel
        search's runs exchange facts every ``TICK_NODES`` nodes, which the compiled search
        cannot, and publish the facts of every version space searched, where the compiled
        search proves bounds on ``V`` alone).  Inside a :meth:`running` context the compiled
        search gets what is left of the run's budget (its nodes and seconds), and its nodes
        count as the run's.  It keeps the step's shared deadline and stops
        after a signal (:func:`~mistakebound.theory.ldim_kernel.matrix_bounds`).  The bounds
        it proves go into the memo by :meth:`merge_proven`, so the question that follows is
        a memo hit when they settle it, and otherwise the Python search goes on from them.
        When it ran out of budget and its bounds do not settle the question, this raises
        :class:`~mistakebound.theory.search_protocol.OutOfBudget`, as the Python search does
        when its budget runs out; a Ctrl-C (or a signal) during it raises ``KeyboardInterrupt``.
        The Python search's own descent (:meth:`bounds`, whose memo trees and certificates
        are read from) never asks here.

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = LdimSearch(classes.thresholds(1023))
        >>> search.ldim(search.full), search.nodes == 0 or not ldim_kernel.AVAILABLE
        (10, True)
        >>> search = LdimSearch(classes.random(300, 20, 0.5, seed=0))
        >>> with search.running(Budget(max_nodes=10)) as run:  # inside a run: its budget binds
        ...     try:
        ...         search.ldim(search.full)
        ...     except OutOfBudget:
        ...         print("out of budget after", run.nodes, "nodes")
        out of budget after 10 nodes
        >>> with search.running(Budget(max_nodes=10_000)) as run:
        ...     search.ldim(search.full), search.compiled_questions == 2 or not ldim_kernel.AVAILABLE
        (8, True)
        """
        if (not ldim_kernel.AVAILABLE or self._tick is not None or self._outbox is not None
                or V.bit_count() < COMPILED_MIN):
            return
        lo, hi = self.proven(V)
        if lo == hi or (k is not None and not lo < k <= hi):
            return
        budget = _NO_BUDGET
        limit = self._node_limit
        if self._runs:
            nodes = None if limit is None else limit - self.nodes
            seconds = None if self._deadline is None else self._deadline - time.monotonic()
            if (nodes is not None and nodes <= 0) or (seconds is not None and seconds <= 0):
                return  # spent: the Python search raises as it does
            budget = Budget(max_nodes=nodes, time_limit=seconds)
        M = self.H.matrix[self.representatives[mask_to_indices(V)]]
        memo = ldim_kernel.SMALL_MEMO_BYTES if M.size <= ldim_kernel.SMALL_MATRIX_BYTES else self.max_memo_bytes
        found = ldim_kernel.matrix_bounds(M, budget, memo)
        if found is None:  # no memory to start: the Python search answers
            return
        self.compiled_questions += 1
        if self._runs:
            self.nodes += found["nodes"]
            if limit is not None and self.nodes > limit:
                self.nodes = limit  # as the Python search: no node past the budget is counted
        self.merge_proven([(V, found["lower"]), (V, -1 - found["upper"])])
        status = found["status"]
        if status == "interrupted":
            raise KeyboardInterrupt
        if status == "budget":
            lo, hi = self.proven(V)
            if lo != hi and (k is None or lo < k <= hi):
                raise OutOfBudget

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
        splits = self._distinct_splits(V, self._splitting(V))
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
        >>> from mistakebound.theory.search_protocol import Budget, OutOfBudget
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
        self._deadline = earliest(deadline, saved[1])  # and the step's shared deadline (spending)
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
        return check_int("V", V, 0, self.full, expected=lambda: (
            f"a bitset over the {self.n_distinct} distinct rows (an int in 0..{brief(self.full)})"))

    def _splitting(self, V: int) -> list[int]:
        cols = self.columns
        return [j for j in self._root_columns if 0 != (V & cols[j]) != V]

    def _distinct_splits(self, V: int, cand) -> list[tuple[int, int, int]]:
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
                keys = sorted(self._canon, key=key_bytes)
                for key in keys[: (len(keys) + 1) // 2]:
                    del self._canon[key]
                self.evictions += (len(keys) + 1) // 2
            self.evictions += len(self._fps) + len(self._forms)
            self._fps.clear()
            self._forms.clear()
            self._canon_bytes = sum(200 + key_bytes(key) + (0 if e[4] is None else 8 * (len(e[4]) + len(e[5])))
                                    for key, e in self._canon.items())

    def _at_least(self, V: int, cand, k: int, splits: list | None = None) -> bool:
        """Whether ``Ldim(V) >= k``; ``cand`` holds every column that may split V.

        The memo keeps, per version space, the largest ``k`` proven reachable
        (``_lo``, with a witnessing column in ``_wit``) and the smallest proven
        unreachable minus one (``_hi``); ``splits`` (as from ``_distinct_splits``), if given,
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
        deadline = self._deadline if self._runs else shared_deadline()  # a query outside run(): the step's
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfBudget
        if searches_stopped():
            raise KeyboardInterrupt
        if self._tick is not None and not self.nodes % TICK_NODES:
            self._tick()
        if self.memo_bytes() > self.max_memo_bytes:
            self._evict()
        if k == 2:  # Ldim(V) >= 2 exactly when some column leaves two rows or more on each side
            return self._at_least_two(V, s, [j for _, _, j in splits] if splits is not None else cand)
        if splits is None:
            splits = self._distinct_splits(V, cand)
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
