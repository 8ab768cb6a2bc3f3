"""The exact Littlestone-dimension search, run here with other processes helping.

The serial search (:class:`~mistakebound.theory.littlestone.LdimSearch`) answers "is
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

Every process drives its :class:`LdimSearch` through the search's public interface only:
:meth:`~LdimSearch.plan` (the top splits and the starting upper bound),
:meth:`~LdimSearch.at_least` (the decision, under the run's budget),
:meth:`~LdimSearch.proven`, :meth:`~LdimSearch.facts`, :meth:`~LdimSearch.merge_proven`
and the :meth:`~LdimSearch.running` context (budget, tick, published facts).  Importing
this module installs it as the engine behind ``LdimSearch.bounds(workers=...)``
(:func:`~mistakebound.theory.littlestone.install_workers_engine`).

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

**Faults.**  The worker processes are stopped before the function returns or raises,
whatever the reason, and they die with this process however it dies (each watches a
pipe only this process writes to, and ends itself at its end of file), so a ``kill
-9`` here leaves no worker, forkserver or resource tracker behind.  No process reads a
pipe whose writing end it holds itself, so a process that dies half-way through a
message never blocks its reader.  A worker's class comes over its pipe, read by its own
code, not in its start-up arguments, and Ctrl-C or SIGTERM wait until a start is written
whole: a start cut short ends the new process quietly instead of with a traceback.  A
worker that dies (killed, out of memory) or fails is dropped with a
:class:`RuntimeWarning`, and the search goes on without it, still exact: the workers
only help, and only what they proved is used.

**Memory.**  The processes share one memory budget
(:func:`~mistakebound.foundations.memory.available_memory` when the workers start,
divided equally): each worker gets its share through ``MISTAKEBOUND_MEMORY_LIMIT``, and
the default memo of every process, this one included, is its
:func:`~mistakebound.theory.search.memo_share` of its share (a quarter).

Workers are started with the ``forkserver`` method where the platform has it (a fork of
a clean, single-threaded server, so threads in the caller do not matter) and ``spawn``
elsewhere.  Under ``spawn``, a script calling this must guard its entry point with
``if __name__ == "__main__":``, as for any use of :mod:`multiprocessing`.

Examples
--------
>>> from mistakebound import classes
>>> parallel_littlestone_bounds(classes.thresholds(15), workers=2).describe()
'Ldim = 4'
>>> parallel_littlestone_bounds(classes.singletons(8), workers=1).describe()
'Ldim = 1'
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
import traceback
import warnings
from multiprocessing.connection import wait
from multiprocessing.reduction import ForkingPickler as _ForkingPickler
from queue import SimpleQueue

from mistakebound.foundations import memory
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_instance, check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.littlestone import (
    LdimBounds,
    LdimRun,
    LdimSearch,
    default_memo_bytes,
    install_workers_engine,
)
from mistakebound.theory.search import Budget, OutOfBudget, run_within

__all__ = ["WARMUP_SECONDS", "check_workers", "parallel_littlestone_bounds"]

#: Seconds the search runs alone before the worker processes are started (a little
#: less than starting the forkserver and two workers costs).
WARMUP_SECONDS = 0.25

#: Tests set this: the search here then waits at each tick until the workers have
#: answered every side they can take, so their answers are always used.
_LOCKSTEP = False
#: Seconds between two exchanges of proven facts by a busy process.
EXCHANGE_SECONDS = 0.002


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
        self.pool = _Pool()
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
                _start_server_early()  # on the other core, while the search here begins
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
            self.pool.share(_dumps(("facts", batch)))

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


class _Pool:
    """Worker processes, at most one sub-question per worker at a time.

    Worker ``w`` has two pipes, and holds one end of each only:

    * ``conns[w]``, a duplex pipe to the coordinator: sides to search and the facts the
      other processes proved one way, answers and the facts the worker proved the other
      way.  The coordinator relays every worker's facts to the other workers, so no
      process ever reads a pipe whose writing end it holds itself: a writer that dies,
      even half-way through a message, is an end of file for its reader, never a hang;
    * ``lifelines[w]``, a one-way pipe whose writing end only the coordinator holds: a
      thread in the worker waits on it and ends the worker at once when it reads end of
      file, so the workers die with the coordinator, however it dies (``kill -9``
      included), and the forkserver and the resource tracker, which live as long as
      some process of the search holds their pipes, follow.

    The coordinator writes to each worker through a thread of its own (:class:`_Sender`),
    so its search never waits for a busy worker to read.  A worker that dies, fails or
    runs out of memory is *lost*: :meth:`lose` drops it, and the search goes on without
    it (what it proved and sent stays proven).
    """

    def __init__(self):
        self.procs: list = []
        self.conns: list = []
        self.senders: list = []
        self.lifelines: list = []
        self.cancel: list = []
        self.alive: list[int] = []
        self.lost: list[tuple[int, int | None, str]] = []  # (pid, exit code, why)
        self.nodes = 0
        self.cpu: list[float] = []
        self.nodes_by_worker: list[int] = []
        self.shared: list[tuple[int, int, int]] = []
        self.memo_bytes: list[int | None] = []  # each worker's memo limit, as it reported it
        self.task_ids = 0

    def start(self, H: HypothesisClass, n: int, quota: int | None, seed: list,
              memory_share: int | None = None) -> None:
        """Start ``n`` workers, each with its own search of ``H`` taught the facts ``seed``.

        ``memory_share`` (bytes, None: unknown) is what each worker may use in all: it is
        put in the worker's ``MISTAKEBOUND_MEMORY_LIMIT``, so its memo's default size
        follows (:func:`~mistakebound.foundations.memory.available_memory`).
        """
        ctx = _context()
        self.cpu, self.nodes_by_worker, self.shared = [0.0] * n, [0] * n, [(0, 0, 0)] * n
        self.memo_bytes = [None] * n
        init = _dumps(("init", H, seed))
        for w in range(n):
            parent_end, child_end = ctx.Pipe()
            life_r, life_w = ctx.Pipe(duplex=False)
            cancel = ctx.RawValue("q", -1)
            # the class and the facts go over the pipe, not in the process's arguments: a start
            # cut short (the coordinator killed) then leaves the new process a message it reads
            # in its own code, which ends quietly, not a truncated pickle it dies of with a traceback
            p = ctx.Process(target=_worker_main, daemon=True, name="mistakebound-ldim-worker",
                            args=(child_end, life_r, cancel, quota, memory_share))
            # kept before it starts: stop() closes the lifeline of a worker whose start was interrupted
            self.procs.append(p)
            self.conns.append(parent_end)
            self.lifelines.append(life_w)
            self.cancel.append(cancel)
            try:
                with _signals_deferred():  # a start cut short leaves the new process a truncated pickle
                    p.start()
            finally:
                child_end.close()
                life_r.close()
            self.senders.append(_Sender(parent_end))
            self.senders[w].put(init)  # the worker's first message
            self.alive.append(w)

    def send(self, w: int, V: int, need: int, deadline: float | None, running: dict, key) -> None:
        """Ask worker ``w`` whether ``Ldim(V) >= need``, recorded in ``running`` under ``key``."""
        self.task_ids += 1
        remaining = None if deadline is None else max(deadline - time.monotonic(), 1e-6)
        self.senders[w].put(_dumps(("task", self.task_ids, V, need, remaining)))
        running[w] = (self.task_ids, key)

    def share(self, raw: bytes, but: int | None = None) -> None:
        """Send a pickled ``("facts", batch)`` to every live worker (but worker ``but``)."""
        for w in self.alive:
            if w != but:
                self.senders[w].put(raw)

    def messages(self, w: int) -> list[tuple[tuple, bytes]]:
        """What worker ``w`` has sent, each message with its pickled bytes; [] once it is lost.

        A worker whose pipe reads end of file (it died, even half-way through a message)
        is lost (:meth:`lose`) with the messages before that kept.
        """
        out = []
        if w not in self.alive:
            return out
        conn = self.conns[w]
        try:
            while conn.poll():
                raw = conn.recv_bytes()
                out.append((pickle.loads(raw), raw))
        except (EOFError, OSError):
            self.lose(w, "died")
        return out

    def account(self, w: int, reply: tuple) -> tuple[str, bool | None]:
        """Count a reply's nodes and CPU; ``(outcome, answer)``.

        The outcome is ``"ok"``, ``"cancelled"``, ``"budget"`` (the worker's share of the
        node budget is spent), ``"memory"`` or ``"error"`` (then ``answer`` is the
        traceback); the last two lose the worker.
        """
        _, tid, outcome, answer, n, cpu, self.shared[w] = reply
        self.nodes += n
        self.nodes_by_worker[w] += n
        self.cpu[w] += cpu
        if outcome == "memory":
            self.lose(w, "ran out of memory")
        elif outcome == "error":
            self.lose(w, f"failed:\n{answer}")
        return outcome, answer

    def lose(self, w: int, why: str) -> None:
        """Stop using worker ``w`` (and stop it); the search goes on without it."""
        if w not in self.alive:
            return
        self.alive.remove(w)
        p = self.procs[w]
        if why == "died":
            p.join(0.5)
            code = p.exitcode
            why = f"died (exit code {code}{', killed by a signal' if code is not None and code < 0 else ''})"
        try:
            self.lifelines[w].close()  # the worker ends itself
        except OSError:  # pragma: no cover
            pass
        self.lost.append((p.pid, p.exitcode, why))
        warnings.warn(f"workers: worker process {p.pid} {why}; the search goes on without it",
                      RuntimeWarning, stacklevel=2)

    def stop(self) -> None:
        """Stop every worker (running or not) and reap it; safe to call twice."""
        for life in self.lifelines:  # each worker ends itself when its lifeline closes
            try:
                life.close()
            except OSError:  # pragma: no cover
                pass
        for p in self.procs:
            if p.pid is not None and p.is_alive():
                p.terminate()
        for p in self.procs:
            if p.pid is None:  # interrupted before it started
                continue
            p.join(5)
            if p.is_alive():  # pragma: no cover - SIGTERM ignored
                p.kill()
                p.join()
        for w, conn in enumerate(self.conns):
            if w >= len(self.senders) or self.senders[w].finish():  # no thread holds the pipe: safe to close
                conn.close()
        self.procs, self.conns, self.senders, self.lifelines, self.cancel, self.alive = [], [], [], [], [], []


@contextlib.contextmanager
def _signals_deferred():
    """Hold Ctrl-C and SIGTERM back while the block runs (main thread only); deliver them after.

    Starting a worker writes its pickled arguments to the new process: a
    ``KeyboardInterrupt`` raised half-way through (Ctrl-C, or SIGTERM in the command
    line) would leave it a truncated pickle, and it would print a traceback as it dies.
    A signal that comes meanwhile is handled as soon as the block ends, by the handler
    that was there before.  Outside the main thread (where handlers cannot be set)
    nothing is held back.

    Examples
    --------
    >>> with _signals_deferred():
    ...     pass
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = []
    saved = {}
    for name in ("SIGINT", "SIGTERM"):
        signum = getattr(signal, name, None)
        if signum is None:  # pragma: no cover - not Unix
            continue
        handler = signal.getsignal(signum)
        if callable(handler) or handler == signal.SIG_DFL:  # SIG_IGN and C handlers (None) stay as they are
            saved[signum] = handler
            signal.signal(signum, lambda n, frame: got.append(n))
    try:
        yield
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        if got:
            signum = got[0]
            handler = saved[signum]
            if callable(handler):
                handler(signum, None)
            else:  # the default action: die of it
                os.kill(os.getpid(), signum)


def _dumps(message) -> bytes:
    return bytes(_ForkingPickler.dumps(message))


class _Sender:
    """A thread writing pickled messages to one pipe, in order, so that the writer never waits."""

    def __init__(self, conn):
        self.conn = conn
        self.queue: SimpleQueue = SimpleQueue()
        self.broken = False
        self.thread = threading.Thread(target=self._run, daemon=True, name="mistakebound-coordinator-sender")
        self.thread.start()

    def put(self, raw: bytes) -> None:
        if not self.broken:
            self.queue.put(raw)

    def _run(self) -> None:
        while True:
            raw = self.queue.get()
            if raw is None:
                return
            try:
                self.conn.send_bytes(raw)
            except Exception:  # noqa: BLE001 - the worker is gone (BrokenPipeError, closed handle...)
                self.broken = True
                return

    def finish(self, timeout: float = 2.0) -> bool:
        """Stop the thread; whether it has stopped (then the pipe may be closed)."""
        self.queue.put(None)
        self.thread.join(timeout)
        return not self.thread.is_alive()


_preload_set = False


def _start_server_early() -> None:
    """Start the forkserver (about 0.3 s, once per process) in a background thread.

    :meth:`multiprocessing.Process.start` would start it anyway, under the same lock,
    so this only moves that cost off the critical path: it overlaps the warm-up.
    """
    ctx = _context()
    if ctx.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    def start() -> None:
        try:
            forkserver.ensure_running()
        except Exception:  # noqa: BLE001 - Process.start() retries and reports it
            pass

    threading.Thread(target=start, daemon=True, name="mistakebound-forkserver-start").start()


def _context():
    """``forkserver`` (with this module preloaded, so a worker starts in milliseconds) or ``spawn``."""
    global _preload_set
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        if not _preload_set:
            ctx.set_forkserver_preload([__name__])
            _preload_set = True
        return ctx
    return multiprocessing.get_context("spawn")


# ------------------------------------------------------------------------ the worker
class _Stop(Exception):
    """Raised inside a worker's search: the sub-question ran out of budget or was cancelled."""


class _Exchange:
    """A worker's link to the other processes, the ``tick`` of its search's run.

    Every :data:`EXCHANGE_SECONDS` it sends the facts its search proved since the last
    time (``Ldim(V) >= a``, ``Ldim(V) <= b``, published by the run:
    :meth:`LdimRun.take_facts`) to the coordinator (``post``, through the worker's sender
    thread; the coordinator relays them to the other workers), and merges what the
    coordinator sent into its own memo (:meth:`LdimSearch.merge_proven`).  A task the
    coordinator sent meanwhile (it sends one only to an idle worker, so only after a
    stop) is kept in :attr:`pending`.

    The same tick stops the current sub-question, by raising :class:`_Stop`, once it is
    cancelled or its share of the budget is spent.  It runs where a node starts, before
    the node writes anything, so the memo stays correct when the search unwinds.
    """

    def __init__(self, search: LdimSearch, conn, cancel, quota: int | None, post):
        self.search = search
        self.conn = conn
        self.cancel = cancel
        self.node_limit = None if quota is None else search.nodes + quota
        self.post = post
        self.deadline: float | None = None
        self.task = -1
        self.armed = False
        self.last = time.monotonic()
        self.sent = self.received = self.taught = 0
        self.run: LdimRun | None = None
        self.pending: list = []

    def attach(self, run: LdimRun) -> None:
        """The run (with ``publish=True``) whose facts this link sends."""
        self.run = run

    def arm(self, task: int, seconds: float | None) -> None:
        self.task = task
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.armed = True
        self.tick()

    def disarm(self) -> None:
        self.armed = False

    def tick(self) -> None:
        if self.armed:
            if self.cancel.value == self.task:
                self.armed = False
                raise _Stop("cancelled")
            if ((self.node_limit is not None and self.search.nodes > self.node_limit)
                    or (self.deadline is not None and time.monotonic() > self.deadline)):
                self.armed = False
                raise _Stop("budget")
        if time.monotonic() - self.last >= EXCHANGE_SECONDS:
            self.swap()

    def swap(self) -> None:
        """Send what this worker proved since the last swap; merge what the coordinator sent."""
        self.last = time.monotonic()
        batch = self.run.take_facts()
        if batch:
            self.post(("facts", batch))
            self.sent += len(batch)
        conn = self.conn
        try:
            while conn.poll():
                self.take(conn.recv())
        except (EOFError, OSError):  # the coordinator is gone
            os._exit(0)

    def take(self, message) -> None:
        """A message from the coordinator: facts are merged, anything else kept for :func:`_serve`."""
        if message is not None and message[0] == "facts":
            self.received += len(message[1])
            self.taught += self.search.merge_proven(message[1])
        else:
            self.pending.append(message)


def _watch_parent(lifeline) -> None:
    """End this process as soon as ``lifeline`` reads end of file (the coordinator is gone)."""

    def watch() -> None:
        try:
            while True:
                lifeline.recv_bytes()
        except BaseException:  # noqa: BLE001 - EOFError, OSError: nobody holds the other end
            os._exit(0)

    threading.Thread(target=watch, daemon=True, name="mistakebound-worker-lifeline").start()


def _worker_main(conn, lifeline, cancel, quota: int | None, memory_share: int | None = None) -> None:
    """Answer sub-questions ``("task", task id, V, need, seconds)``: whether Ldim(V) >= need.

    The first message is ``("init", H, seed)``: the class, and the facts the
    coordinator's warm-up proved (as for :meth:`LdimSearch.merge_proven`); a coordinator
    gone before it is whole ends this process quietly.  ``memory_share`` is this
    process's memory budget (bytes, see :class:`_Pool`).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    _watch_parent(lifeline)
    if memory_share is not None:
        os.environ[memory.MEMORY_LIMIT_VARIABLE] = str(max(int(memory_share), 1))
    try:
        _, H, seed = conn.recv()
    except Exception:  # noqa: BLE001 - EOFError, a truncated pickle: the coordinator is gone
        os._exit(0)
    outgoing: SimpleQueue = SimpleQueue()

    def send_all() -> None:  # a thread, so the search never waits for the coordinator to read
        while True:
            message = outgoing.get()
            try:
                conn.send(message)
            except OSError:  # the coordinator is gone
                os._exit(0)

    threading.Thread(target=send_all, daemon=True, name="mistakebound-worker-sender").start()
    try:
        search = LdimSearch(H)
        search.merge_proven(seed)
    except MemoryError:  # no room for a search here: say so, then wait to be stopped
        outgoing.put(("reply", -1, "memory", None, 0, 0.0, (0, 0, 0)))
        _drain(conn)
        return
    del seed
    outgoing.put(("hello", os.getpid(), search.max_memo_bytes))
    link = _Exchange(search, conn, cancel, quota, outgoing.put)
    with search.running(tick=link.tick, publish=True) as run:
        link.attach(run)
        _serve(conn, search, link, outgoing)


def _drain(conn) -> None:
    """Read (and drop) what the coordinator sends until it goes away."""
    try:
        while conn.recv() is not None:
            pass
    except (EOFError, OSError):
        pass


def _serve(conn, search: LdimSearch, link: _Exchange, outgoing: SimpleQueue) -> None:
    """Answer the coordinator's sub-questions until it sends None or goes away."""
    while True:
        if link.pending:
            msg = link.pending.pop(0)
        else:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                return
        if msg is None:
            return
        if msg[0] == "facts":
            link.take(msg)
            continue
        _, tid, V, need, seconds = msg
        before, cpu = search.nodes, time.process_time()
        try:
            try:
                link.swap()
                link.arm(tid, seconds)
                reply = (tid, "ok", search.at_least(V, need))
            finally:
                link.disarm()
                link.swap()
        except _Stop as stop:
            reply = (tid, str(stop), None)
        except OutOfBudget:  # pragma: no cover - the worker's run has no budget of its own
            reply = (tid, "budget", None)
        except MemoryError:
            search.release_memory()
            reply = (tid, "memory", None)
        except Exception:  # noqa: BLE001 - reported to the coordinator, which stops using this worker
            reply = (tid, "error", traceback.format_exc())
        outgoing.put(("reply", *reply, search.nodes - before, time.process_time() - cpu,
                      (link.sent, link.received, link.taught)))
        if reply[1] in ("memory", "error"):
            _drain(conn)
            return
