"""The exact Littlestone-dimension search, run here with other processes helping.

The serial search (:class:`~mistakebound.theory.ldim_search.LdimSearch`) answers "is
``Ldim(H) >= k``?" for ``k`` from a proven upper bound down.  At the top that question
holds iff some split ``(V_x^0, V_x^1)`` of the class has both sides of Littlestone
dimension ``>= k - 1``.  :func:`parallel_littlestone_bounds` runs that same search in
the calling process and has ``workers - 1`` worker processes answer the top
sub-questions "``Ldim(side) >= k - 1``?" from the other end:

* the search here starts at once; the workers are started only once it has run for
  :data:`WARMUP_SECONDS`, so a class settled sooner never pays for processes (the
  forkserver, about 0.3 s once per process, is started on the other core meanwhile).
  Each worker is its own :class:`LdimSearch`, taught everything proved here so far;
* the search here takes the splits most balanced first; the workers take the larger
  side of the first split (the one the search here starts with), then the smaller
  sides of the other splits from the least balanced back, and a split's larger side
  once its smaller side holds.  A side whose split has failed is cancelled;
* every process sends what it proves ("``Ldim(V) >= a``", "``Ldim(V) <= b``" for
  version spaces ``V``) to the others every couple of milliseconds (the workers
  through the search here, which passes their facts on), and each merges them into
  its memo (:meth:`LdimSearch.merge_proven`).  A side a worker refuted is a
  memo hit when the search here reaches it, and a split whose two sides the workers
  proved ends the level at once: ``Ldim(H) >= k``.

Where the compiled search is built, ``littlestone_bounds(H, workers=N)`` (and ``mistakebound
ldim --workers N``) runs it in ``N`` threads instead (:mod:`mistakebound.theory.kernel_threads`,
faster by far); this search is what ``workers`` runs without it, and when a tree or a
certificate will be read off the search (:func:`~mistakebound.theory.littlestone.ldim_engine`
chooses).

Every process drives its :class:`LdimSearch` through the search's public interface only:
:meth:`~LdimSearch.plan` (the top splits and the starting upper bound),
:meth:`~LdimSearch.at_least` (the decision, under the run's budget),
:meth:`~LdimSearch.proven`, :meth:`~LdimSearch.facts`, :meth:`~LdimSearch.merge_proven`
and the :meth:`~LdimSearch.running` context (budget, tick, published facts).  Importing
this module installs it as the engine behind ``LdimSearch.bounds(workers=...)``
(:func:`~mistakebound.theory.ldim_search.install_workers_engine`).

Because the search here never waits for the workers, a search they cannot help (one
long dive through a single split, like intervals, where the canonical memo does most
of the work) costs about what the serial search costs plus the exchange; searches that
refute many top splits, each a lot of work (large random classes), gain most.
``benchmarks/parallel_speedup.py`` measures both.  Sub-classes that two processes
search at the same moment are still searched twice, since a fact is shared only once
proved.

Budgets and Ctrl-C end the call with the proven bounds and ``status`` ``"budget"`` or
``"interrupted"`` (``"memory"`` when this process runs out of memory), exactly as
:meth:`LdimSearch.bounds` does; a partial number is never reported as exact.

The worker processes, the pipes between them and how they are started and stopped are
in :mod:`mistakebound.theory.parallel_workers`; this module holds the search they help:
which side each worker takes, and what the facts they send decide.

Examples
--------
>>> from mistakebound import classes
>>> parallel_littlestone_bounds(classes.thresholds(15), workers=2).describe()
'Ldim = 4'
>>> parallel_littlestone_bounds(classes.singletons(8), workers=1).describe()
'Ldim = 1'
"""

from __future__ import annotations

import os
import pickle
import time
import warnings
from multiprocessing.connection import wait

from mistakebound.foundations import memory
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_instance, check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.ldim_search import (
    LdimBounds,
    LdimRun,
    LdimSearch,
    default_memo_bytes,
    install_workers_engine,
)
from mistakebound.theory.parallel_workers import EXCHANGE_SECONDS, WorkerPool, encode_message, start_server_early
from mistakebound.theory.search_protocol import Budget, run_within

__all__ = ["WARMUP_SECONDS", "check_workers", "parallel_littlestone_bounds"]

#: Seconds the search runs alone before the worker processes are started (a little
#: less than starting the forkserver and two workers costs).
WARMUP_SECONDS = 0.25

#: Tests set this: the search here then waits at each tick until the workers have
#: answered every side they can take, so their answers are always used.
_LOCKSTEP = False


def parallel_littlestone_bounds(H: HypothesisClass, *, workers: int | None,
                                max_nodes: int | None = None,
                                time_limit: float | None = None) -> LdimBounds:
    """Proven bounds on ``Ldim(H)``, searched by ``workers`` processes (this one included).

    Without a budget the bounds are equal (the exact value).  ``workers=1`` runs the
    serial search (:meth:`LdimSearch.bounds`) in this process.

    Parameters
    ----------
    H : HypothesisClass
    workers : int or None
        Processes searching, ``>= 1``: this one and ``workers - 1`` worker processes;
        ``None`` means ``os.cpu_count()``.
    max_nodes : int, optional
        Search nodes, in total: what is left when the workers start is shared equally
        between this process and them.  A worker notices it is over its share within a
        few milliseconds, so the total can exceed ``max_nodes`` by the nodes of those
        milliseconds.
    time_limit : float, optional
        Wall-clock seconds for the whole call, process start-up included; stopping the
        workers afterwards can add a fraction of a second.

    Returns
    -------
    LdimBounds
        ``status`` is ``"exact"``, ``"budget"``, ``"interrupted"`` (Ctrl-C) or ``"memory"``
        (this process ran out of memory; a worker that does is dropped); ``nodes``
        adds up this process's nodes and those of the workers' answered or cancelled
        sides (not of sides still running when the call ends).

    Raises
    ------
    InvalidArgumentError
        If ``H`` is not a :class:`HypothesisClass`, or for a bad ``workers`` or budget.

    Warns
    -----
    RuntimeWarning
        When a worker process dies (killed, out of memory) or fails: the search goes on
        without it, here and in the other workers, and stays exact (the workers only
        help; nothing they did not prove is used).  Also when the workers cannot be
        started: the search runs here alone.

    Examples
    --------
    >>> from mistakebound import classes
    >>> b = parallel_littlestone_bounds(classes.intervals(16), workers=2)
    >>> b.describe(), b.exact
    ('Ldim = 6', True)
    >>> b = parallel_littlestone_bounds(classes.random(3000, 30, 0.3, seed=0), workers=2, max_nodes=5)
    >>> b.status, b.lower <= b.upper
    ('budget', True)
    """
    check_instance("H", H, HypothesisClass, "a HypothesisClass")
    n_workers = check_workers(workers)
    Budget(max_nodes=max_nodes, time_limit=time_limit)  # refused before anything is allocated
    return LdimSearch(H).bounds(max_nodes=max_nodes, time_limit=time_limit, workers=n_workers)


def check_workers(workers: object) -> int:
    """``workers`` as a number of processes (``None``: one per CPU); InvalidArgumentError if bad."""
    workers = check_int("workers", workers, 1, optional=True)
    return os.cpu_count() or 1 if workers is None else workers


def _with_workers(search: LdimSearch, V: int | None, workers: object, budget: Budget) -> LdimBounds:
    """The engine behind ``LdimSearch.bounds(workers=...)``: ``workers`` processes search ``V``."""
    n = check_workers(workers)
    if n == 1:
        return search.bounds(V, max_nodes=budget.max_nodes, time_limit=budget.time_limit)
    if V is not None and V != search.full:
        raise InvalidArgumentError(
            "V: the search with workers covers the whole class only; leave V out or pass workers=1"
        )
    return _parallel_bounds(search.H, n, budget.max_nodes, budget.time_limit, WARMUP_SECONDS, search=search)


install_workers_engine(_with_workers)


# ------------------------------------------------------------------ the coordinator
def _parallel_bounds(H: HypothesisClass, n_workers: int, max_nodes: int | None,
                     time_limit: float | None, warmup: float, stats: dict | None = None,
                     search: LdimSearch | None = None) -> LdimBounds:
    """Run the search here, with ``n_workers - 1`` worker processes helping after ``warmup`` s.

    ``warmup=0`` starts the workers before the search (used by the tests).  A ``stats``
    dict, if given, receives ``worker_cpu`` (CPU seconds each worker spent on
    sub-questions), ``worker_nodes``, ``worker_shared`` (per worker: facts sent, facts
    received, received facts that were new to it), ``coordinator_received`` and
    ``coordinator_taught`` (facts the workers sent here, and those new here, answers
    included), ``levels_by_workers`` (levels the workers
    proved before this process did), ``lost_workers`` (``(pid, exit code, why)`` of
    each worker that died or failed), ``worker_memo_bytes`` (each worker's memo limit,
    from its share of the memory) and ``coordinator_memo_bytes``.  ``search``, if given, is the search run here (its
    memo keeps what was proved, for a shattered tree afterwards).
    """
    run = _Run(H, n_workers - 1, max_nodes, time_limit, warmup, search)
    try:
        return run.bounds()
    finally:
        run.pool.stop()
        if stats is not None:
            stats.update(worker_cpu=list(run.pool.cpu), worker_nodes=list(run.pool.nodes_by_worker),
                         worker_shared=list(run.pool.shared), coordinator_received=run.received,
                         coordinator_taught=run.taught,
                         levels_by_workers=run.levels_by_workers, lost_workers=list(run.pool.lost),
                         worker_memo_bytes=list(run.pool.memo_bytes),
                         coordinator_memo_bytes=run.search.max_memo_bytes)


class _LevelProven(Exception):
    """Raised in this process's search when the workers proved the level it is on."""


class _Run:
    """One parallel search: this process searches, the workers take top sides from the other end.

    The question of a level, "``Ldim(H) >= k``?", is searched here exactly as
    :meth:`LdimSearch.bounds` does, splits most balanced first.  Every
    :data:`EXCHANGE_SECONDS` (from the search's tick) this process sends the workers
    what it proved, merges what they proved, collects their answers and hands idle
    workers the next side: first the larger side of the first split (the one this
    process starts with), then the smaller sides of the other splits from the least
    balanced one back, and the larger side of a split once its smaller side holds.  A
    side they refute is a memo hit here when the search gets to it; a split whose two
    sides they prove ends the level at once.
    """

    def __init__(self, H: HypothesisClass, helpers: int, max_nodes: int | None,
                 time_limit: float | None, warmup: float, search: LdimSearch | None = None):
        self.H = H
        self.helpers = helpers
        self.max_nodes = max_nodes
        self.budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
        self.started = time.monotonic()
        self.deadline = None if time_limit is None else self.started + time_limit
        self.warmup = warmup
        self.search = LdimSearch(H) if search is None else search
        self.run: LdimRun | None = None
        self.pool = WorkerPool()
        self.last = 0.0
        self.taught = self.received = 0
        self.levels_by_workers = 0
        self.need = None
        self.queue: list[tuple[int, int]] = []
        self.side: dict[tuple[int, int], bool] = {}
        self.running: dict[int, tuple[int, tuple[int, int]]] = {}  # worker -> (task id, key)
        self.level_tid = 0  # replies to tasks older than this are from a finished level
        self.proven = False
        self.pool_started = False  # the workers were started (or could not be: then never again)

    # ------------------------------------------------------------ the search here
    def bounds(self) -> LdimBounds:
        search = self.search
        plan = search.plan()
        self.splits = [(small, j) for _, small, j in plan.splits]
        evicted, upper = search.evictions, plan.upper

        def descend() -> None:
            nonlocal upper
            if self.warmup <= 0 and plan.splits:
                self.start_pool()
            elif plan.splits:
                start_server_early()  # on the other core, while the search here begins
            while upper > plan.lower:
                self.begin_level(upper - 1)
                try:
                    if search.at_least(plan.V, upper, plan=plan):
                        return
                except _LevelProven:
                    self.levels_by_workers += 1
                    return
                upper -= 1

        with search.running(self.budget, tick=self.tick) as run:
            self.run = run
            status = run_within(descend)
        lower = upper if status == "exact" else max(plan.lower, min(search.proven(plan.V)[0], upper))
        if status == "memory":
            search.release_memory()
        return LdimBounds(lower=lower, upper=upper, status=status, nodes=run.nodes + self.pool.nodes,
                          seconds=time.monotonic() - self.started, evictions=search.evictions - evicted)

    def tick(self) -> None:
        now = time.monotonic()
        if now - self.last < EXCHANGE_SECONDS and not _LOCKSTEP:
            return
        self.last = now
        if not self.pool_started:
            if now - self.started < self.warmup:
                return
            self.start_pool()
        if not self.pool.alive:
            return
        self.exchange()
        self.collect()
        self.dispatch()
        while _LOCKSTEP and self.running and not self.proven:
            wait([self.pool.conns[w] for w in self.running], timeout=1)
            self.collect()
            self.dispatch()
        if self.proven:
            raise _LevelProven

    # ---------------------------------------------------------------- the workers
    def start_pool(self) -> None:
        """Start the workers, each with its share of the memory budget (this process's memo takes its own).

        A pool that cannot be started (no memory to fork, too many processes) is warned
        about, and the search goes on here alone.
        """
        self.pool_started = True
        run = self.run
        quota = None
        if self.max_nodes is not None:  # what is left, shared equally with the workers
            quota = max(1, (self.max_nodes - run.nodes) // (self.helpers + 1))
        share = memory.memory_share(self.helpers + 1)
        try:
            self.pool.start(self.H, self.helpers, quota, self.search.facts(), share)
        except (OSError, MemoryError, EOFError, pickle.PicklingError) as exc:
            self.pool.stop()
            warnings.warn(f"workers: could not start the worker processes ({exc!r}); the search goes on here alone",
                          RuntimeWarning, stacklevel=2)
            return
        if quota is not None:
            run.limit_nodes(quota)
        if share is not None and self.search.memo_is_default:  # this process keeps to its share too
            self.search.limit_memo(default_memo_bytes(share))
        run.publish()
        if self.need is not None:
            self.begin_level(self.need)

    def exchange(self) -> None:
        """Send the workers what this process proved since the last time."""
        batch = self.run.take_facts()
        if batch:
            self.pool.share(encode_message(("facts", batch)))

    def begin_level(self, need: int) -> None:
        """Hand out the sides of the level ``Ldim(H) >= need + 1`` from now on."""
        self.need = need
        self.proven = False
        self.side = {}
        if not self.pool.alive:
            return
        for w, (tid, _) in self.running.items():
            self.pool.cancel[w].value = tid
        self.level_tid = self.pool.task_ids + 1
        eligible = [i for i, (small, _) in enumerate(self.splits) if small.bit_count().bit_length() > need]
        self.queue = ([(eligible[0], 1)] if eligible else []) + [(i, 0) for i in reversed(eligible[1:])]

    def version_space(self, key) -> int:
        """The side ``key = (split, 0 for the smaller side or 1 for the larger)`` as a bitset."""
        i, s = key
        small = self.splits[i][0]
        return small if s == 0 else self.search.full ^ small

    def known(self, key) -> bool | None:
        """What this process's memo (with the workers' facts) already says of a side."""
        if key in self.side:
            return self.side[key]
        lo, hi = self.search.proven(self.version_space(key))
        if self.need <= lo:
            return True
        if self.need > hi:
            return False
        return None

    def collect(self) -> None:
        """Merge the facts the workers sent (and pass them on to the other workers); take in their answers.

        A worker found dead (or lost otherwise) gives its side back to the queue.
        """
        pool = self.pool
        for w in list(pool.alive):
            for message, raw in pool.messages(w):
                if message[0] == "facts":
                    self.received += len(message[1])
                    self.taught += self.search.merge_proven(message[1])
                    pool.share(raw, but=w)
                elif message[0] == "hello":
                    pool.memo_bytes[w] = message[2]
                else:
                    self.answer(w, message)
            if w not in pool.alive:
                self.give_back(w)

    def give_back(self, w: int) -> None:
        """Worker ``w`` is lost: the side it was searching goes back to the front of the queue."""
        tid, key = self.running.pop(w, (None, None))
        if key is not None and tid >= self.level_tid:
            self.queue.insert(0, key)

    def answer(self, w: int, reply: tuple) -> None:
        """Worker ``w``'s reply to its side."""
        outcome, answer = self.pool.account(w, reply)
        if w not in self.running:  # a worker that could not even start its search
            return
        if outcome in ("memory", "error"):  # the worker is lost
            self.give_back(w)
            return
        tid, key = self.running.pop(w)
        if outcome == "budget":  # its share of the node budget is spent
            if w in self.pool.alive:
                self.pool.alive.remove(w)
            return
        if outcome != "ok" or tid < self.level_tid:  # cancelled, or from a finished level
            return
        self.side[key] = answer
        i, s = key
        W = self.version_space(key)
        self.taught += self.search.merge_proven([(W, self.need) if answer else (W, -self.need)])
        if answer and self.known((i, 1 - s)) is True:
            self.proven = True
        elif answer and s == 0:
            self.queue.insert(0, (i, 1))

    def dispatch(self) -> None:
        pool = self.pool
        for w, (tid, (i, s)) in self.running.items():  # a side whose split has failed: stop it
            if tid >= self.level_tid and self.known((i, 1 - s)) is False:
                pool.cancel[w].value = tid
        for w in pool.alive:
            if w in self.running:
                continue
            while self.queue:
                key = self.queue.pop(0)
                i, s = key
                mine, other = self.known(key), self.known((i, 1 - s))
                if mine is True and other is True:
                    self.proven = True
                    return
                if mine is True and other is None and s == 0:  # known here: its larger side next
                    self.queue.insert(0, (i, 1))
                elif mine is None and other is not False and all(k != key for _, k in self.running.values()):
                    pool.send(w, self.version_space(key), self.need, self.deadline, self.running, key)
                    break
