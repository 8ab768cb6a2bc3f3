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
  version spaces ``V``) to the others every couple of milliseconds, and each merges
  them into its memo (:meth:`LdimSearch.merge_proven`).  A side a worker refuted is a
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
``"interrupted"``, exactly as :meth:`LdimSearch.bounds` does; a partial number is never
reported as exact.  The worker processes are stopped before the function returns or
raises, whatever the reason.

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

import multiprocessing
import os
import signal
import threading
import time
import traceback
from multiprocessing.connection import wait
from queue import Empty, SimpleQueue

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.foundations.validation import check_instance, check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.littlestone import LdimBounds, LdimRun, LdimSearch, install_workers_engine
from mistakebound.theory.search import Budget, run_within

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
        ``status`` is ``"exact"``, ``"budget"`` or ``"interrupted"`` (Ctrl-C); ``nodes``
        adds up this process's nodes and those of the workers' answered or cancelled
        sides (not of sides still running when the call ends).

    Raises
    ------
    InvalidArgumentError
        If ``H`` is not a :class:`HypothesisClass`, or for a bad ``workers`` or budget.
    MistakeboundError
        If a worker process fails or dies (the other workers are stopped first).

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
    included) and ``levels_by_workers`` (levels the workers
    proved before this process did).  ``search``, if given, is the search run here (its
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
                         levels_by_workers=run.levels_by_workers)


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
        return LdimBounds(lower=lower, upper=upper, status=status, nodes=run.nodes + self.pool.nodes,
                          seconds=time.monotonic() - self.started, evictions=search.evictions - evicted)

    def tick(self) -> None:
        now = time.monotonic()
        if now - self.last < EXCHANGE_SECONDS and not _LOCKSTEP:
            return
        self.last = now
        if not self.pool.procs:
            if now - self.started < self.warmup:
                return
            self.start_pool()
        self.exchange()
        self.collect()
        self.dispatch()
        while _LOCKSTEP and self.running and not self.proven:
            wait([self.pool.conns[w] for w in self.running])
            self.collect()
            self.dispatch()
        if self.proven:
            raise _LevelProven

    # ---------------------------------------------------------------- the workers
    def start_pool(self) -> None:
        run = self.run
        quota = None
        if self.max_nodes is not None:  # what is left, shared equally with the workers
            quota = max(1, (self.max_nodes - run.nodes) // (self.helpers + 1))
            run.limit_nodes(quota)
        self.pool.start(self.H, self.helpers, quota, self.search.facts())
        run.publish()
        if self.need is not None:
            self.begin_level(self.need)

    def exchange(self) -> None:
        """Send the workers what this process proved since the last time."""
        batch = self.run.take_facts()
        if batch:
            for q in self.pool.inboxes:
                q.put(batch)

    def begin_level(self, need: int) -> None:
        """Hand out the sides of the level ``Ldim(H) >= need + 1`` from now on."""
        self.need = need
        self.proven = False
        self.side = {}
        if not self.pool.procs:
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
        """Merge the facts the workers sent and take in their answers."""
        pool = self.pool
        for w in range(len(pool.conns)):
            for message in pool.messages(w):
                if message[0] == "facts":
                    self.received += len(message[1])
                    self.taught += self.search.merge_proven(message[1])
                else:
                    self.answer(w, message)

    def answer(self, w: int, reply: tuple) -> None:
        """Worker ``w``'s reply to its side."""
        tid, key = self.running.pop(w)
        outcome, answer = self.pool.account(w, reply)
        if outcome == "budget":
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

    Worker ``w`` has a pipe to the coordinator (``conns[w]``: sides to search one way,
    answers and the facts it proved the other way) and an inbox (``inboxes[w]``, a
    :class:`multiprocessing.Queue`) for the facts the others proved.  Facts come to the
    coordinator over the pipes, not over a queue: a pipe whose worker dies reads as
    closed, while a queue that a killed process was writing to can block its reader.
    """

    def __init__(self):
        self.procs: list = []
        self.conns: list = []
        self.cancel: list = []
        self.alive: list[int] = []
        self.inboxes: list = []
        self.nodes = 0
        self.cpu: list[float] = []
        self.nodes_by_worker: list[int] = []
        self.shared: list[tuple[int, int, int]] = []
        self.task_ids = 0

    def start(self, H: HypothesisClass, n: int, quota: int | None, seed: list) -> None:
        """Start ``n`` workers, each with its own search of ``H`` taught the facts ``seed``."""
        ctx = _context()
        self.inboxes = [ctx.Queue() for _ in range(n)]
        self.cpu, self.nodes_by_worker, self.shared = [0.0] * n, [0] * n, [(0, 0, 0)] * n
        for w in range(n):
            parent_end, child_end = ctx.Pipe()
            cancel = ctx.RawValue("q", -1)
            p = ctx.Process(target=_worker_main, daemon=True, name="mistakebound-ldim-worker",
                            args=(child_end, cancel, H, quota, self.inboxes, w, seed))
            self.procs.append(p)
            self.conns.append(parent_end)
            self.cancel.append(cancel)
            p.start()
            child_end.close()
        self.alive = list(range(n))

    def send(self, w: int, V: int, need: int, deadline: float | None, running: dict, key) -> None:
        """Ask worker ``w`` whether ``Ldim(V) >= need``, recorded in ``running`` under ``key``."""
        self.task_ids += 1
        remaining = None if deadline is None else max(deadline - time.monotonic(), 1e-6)
        try:
            self.conns[w].send((self.task_ids, V, need, remaining))
        except OSError as exc:  # BrokenPipeError: the worker is gone
            raise self._died(w) from exc
        running[w] = (self.task_ids, key)

    def messages(self, w: int) -> list:
        """What worker ``w`` has sent: ``("facts", batch)`` and replies to its sides."""
        out = []
        conn = self.conns[w]
        try:
            while conn.poll():
                out.append(conn.recv())
        except (EOFError, OSError) as exc:  # the worker is gone
            raise self._died(w) from exc
        return out

    def account(self, w: int, reply: tuple) -> tuple[str, bool | None]:
        """Count a reply's nodes and CPU; ``("ok", answer)``, ``("cancelled", None)`` or ``("budget", None)``."""
        tid, outcome, answer, n, cpu, self.shared[w] = reply
        self.nodes += n
        self.nodes_by_worker[w] += n
        self.cpu[w] += cpu
        if outcome == "error":
            raise MistakeboundError(f"workers: a worker process failed:\n{answer}")
        return outcome, answer

    def _died(self, w: int) -> MistakeboundError:
        self.procs[w].join(1)
        return MistakeboundError(
            f"workers: worker process {self.procs[w].pid} died "
            f"(exit code {self.procs[w].exitcode}) during the search"
        )

    def stop(self) -> None:
        """Stop every worker (running or not) and reap it; safe to call twice."""
        for p in self.procs:
            if p.is_alive():
                p.terminate()
        for p in self.procs:
            if p.pid is None:  # interrupted before it started
                continue
            p.join(5)
            if p.is_alive():  # pragma: no cover - SIGTERM ignored
                p.kill()
                p.join()
        for conn in self.conns:
            conn.close()
        for q in self.inboxes:
            q.close()
            q.cancel_join_thread()
        self.procs, self.conns, self.cancel, self.alive, self.inboxes = [], [], [], [], []


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
    thread) and into the inbox of every other worker, and merges what the others sent
    into its own memo
    (:meth:`LdimSearch.merge_proven`).  The inboxes are :class:`multiprocessing.Queue`
    objects, whose ``put`` never blocks (a feeder thread writes the pipe), so two
    processes sending to each other cannot deadlock.

    The same tick stops the current sub-question, by raising :class:`_Stop`, once it is
    cancelled or its share of the budget is spent.  It runs where a node starts, before
    the node writes anything, so the memo stays correct when the search unwinds.
    """

    def __init__(self, search: LdimSearch, cancel, quota: int | None, inboxes: list, index: int, post):
        self.search = search
        self.cancel = cancel
        self.node_limit = None if quota is None else search.nodes + quota
        self.inbox = inboxes[index]
        self.peers = [q for i, q in enumerate(inboxes) if i != index]
        self.post = post
        self.deadline: float | None = None
        self.task = -1
        self.armed = False
        self.last = time.monotonic()
        self.sent = self.received = self.taught = 0
        self.run: LdimRun | None = None

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
        """Send what this worker proved since the last swap; merge what the others sent."""
        self.last = time.monotonic()
        batch = self.run.take_facts()
        if batch:
            self.post(("facts", batch))
            for q in self.peers:
                q.put(batch)
            self.sent += len(batch)
        while True:
            try:
                batch = self.inbox.get_nowait()
            except Empty:
                return
            self.received += len(batch)
            self.taught += self.search.merge_proven(batch)


def _worker_main(conn, cancel, H: HypothesisClass, quota: int | None, inboxes: list, index: int,
                 seed: list) -> None:
    """Answer sub-questions ``(task id, V, need, seconds)``: whether Ldim(V) >= need.

    ``seed`` holds the facts the coordinator's warm-up proved (as for
    :meth:`LdimSearch.merge_proven`).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    outgoing: SimpleQueue = SimpleQueue()

    def send_all() -> None:  # a thread, so the search never waits for the coordinator to read
        while True:
            message = outgoing.get()
            try:
                conn.send(message)
            except OSError:  # the coordinator is gone
                return

    threading.Thread(target=send_all, daemon=True, name="mistakebound-worker-sender").start()
    search = LdimSearch(H)
    search.merge_proven(seed)
    link = _Exchange(search, cancel, quota, inboxes, index, outgoing.put)
    with search.running(tick=link.tick, publish=True) as run:
        link.attach(run)
        _serve(conn, search, link, outgoing)


def _serve(conn, search: LdimSearch, link: _Exchange, outgoing: SimpleQueue) -> None:
    """Answer the coordinator's sub-questions until it sends None or goes away."""
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        tid, V, need, seconds = msg
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
        except Exception:  # noqa: BLE001 - reported to the coordinator, which raises
            reply = (tid, "error", traceback.format_exc())
        outgoing.put((*reply, search.nodes - before, time.process_time() - cpu,
                      (link.sent, link.received, link.taught)))
