"""The exact Littlestone-dimension search, with the top of the search spread over processes.

The serial search (:class:`~mistakebound.littlestone.LdimSearch`) answers "is
``Ldim(H) >= k``?" for ``k`` from a proven upper bound down.  At the top that question
holds iff some split ``(V_x^0, V_x^1)`` of the class has both sides of Littlestone
dimension ``>= k - 1``, and the splits are independent sub-questions.
:func:`parallel_littlestone_bounds` hands them out to worker processes:

* a short serial warm-up (:data:`WARMUP_SECONDS`) runs first, so a class the serial
  search settles at once never pays for starting processes (the forkserver, about
  0.3 s once per process, starts on the other core meanwhile); what it proves is handed
  to the workers;
* then, level by level, the sub-questions "``Ldim(side) >= k - 1``?" for the two sides
  of each split go to the workers, one at a time each: both sides of the first split at
  once (when the level succeeds it is usually there, and its sides are independent
  halves of the work), then the smaller sides of the other splits, most balanced first,
  each larger side as soon as its smaller side holds.  A side still running when its
  split has failed is cancelled.  Each worker is its own :class:`LdimSearch` with its
  memo kept for the whole call, and a side goes back, when it can, to the worker that
  had it at the level above;
* the workers share what they prove: every couple of milliseconds each one sends the
  facts its search has proved since ("``Ldim(V) >= a``", "``Ldim(V) <= b``" for
  version spaces ``V``) to the others, which merge them into their memos
  (:meth:`LdimSearch.merge_proven`), so a sub-class settled by one worker is not
  searched again by another once the fact has arrived;
* a worker with nothing left to take helps the side that has run longest: it searches
  the same side with the larger side of each split first, so the two meet in the
  middle through the shared facts, and the first answer settles the side;
* a split with both sides proven proves ``Ldim(H) = k`` (every level above was
  refuted); a level whose every split fails proves ``Ldim(H) <= k - 1``.

What it gains depends on the shape of the search (``benchmarks/parallel_speedup.py``
measures it).  Searches that refute many top splits, where one split is a lot of work
(large random classes), gain most; sub-classes that two workers search at the same
moment are still searched twice, since a fact is shared only once proved.  A search
that is one long dive through a single split (intervals, where the canonical memo,
which is not shared, does most of the work) gains nothing and is slower than the
serial search.  That is why the serial search stays the default.

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
import numbers
import os
import signal
import threading
import time
import traceback
from multiprocessing.connection import wait
from queue import Empty

from mistakebound.errors import InvalidArgumentError, MistakeboundError
from mistakebound.hypothesis_class import HypothesisClass
from mistakebound.littlestone import LdimBounds, LdimSearch, _check_budget

__all__ = ["WARMUP_SECONDS", "parallel_littlestone_bounds"]

#: Seconds the serial warm-up may run before any process is started (about what
#: starting two workers costs).
WARMUP_SECONDS = 0.25

_GRACE = 2.0  # seconds past time_limit after which silent workers are stopped unasked
#: Seconds between two exchanges of proven memo entries by a busy worker.
EXCHANGE_SECONDS = 0.002


def parallel_littlestone_bounds(H: HypothesisClass, *, workers: int | None,
                                max_nodes: int | None = None,
                                time_limit: float | None = None) -> LdimBounds:
    """Proven bounds on ``Ldim(H)``, the top of the search split over ``workers`` processes.

    Without a budget the bounds are equal (the exact value).  ``workers=1`` runs the
    serial search (:meth:`LdimSearch.bounds`) in this process.

    Parameters
    ----------
    H : HypothesisClass
    workers : int or None
        Number of worker processes, ``>= 1``; ``None`` means ``os.cpu_count()``.
    max_nodes : int, optional
        Search nodes, in total: the warm-up's, then the rest shared equally among the
        workers.  A worker notices it is over its share within a few milliseconds, so
        the total can exceed ``max_nodes`` by the nodes of those milliseconds.
    time_limit : float, optional
        Wall-clock seconds for the whole call, process start-up included; stopping the
        workers afterwards can add a fraction of a second.

    Returns
    -------
    LdimBounds
        ``status`` is ``"exact"``, ``"budget"`` or ``"interrupted"`` (Ctrl-C); ``nodes``
        adds up the nodes of the warm-up and of every worker's sub-questions, cancelled
        ones included.

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
    if not isinstance(H, HypothesisClass):
        raise InvalidArgumentError(f"H: expected a HypothesisClass, got {type(H).__name__}")
    n_workers = _check_workers(workers)
    _check_budget(max_nodes, time_limit)
    if n_workers == 1:
        return LdimSearch(H).bounds(max_nodes=max_nodes, time_limit=time_limit)
    return _parallel_bounds(H, n_workers, max_nodes, time_limit, WARMUP_SECONDS)


def _check_workers(workers: object) -> int:
    if workers is None:
        return os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, numbers.Integral) or workers < 1:
        raise InvalidArgumentError(
            f"workers: expected None (one per CPU) or an integer >= 1, got {workers!r}"
        )
    return int(workers)



# ------------------------------------------------------------------ the coordinator
def _parallel_bounds(H: HypothesisClass, n_workers: int, max_nodes: int | None,
                     time_limit: float | None, warmup: float, stats: dict | None = None) -> LdimBounds:
    """The coordinator; ``warmup=0`` skips the serial warm-up (used by the tests).

    A ``stats`` dict, if given, receives ``worker_cpu`` (CPU seconds each worker spent
    on sub-questions), ``worker_nodes``, ``worker_shared`` (per worker: facts sent,
    facts received, and received facts that were new to it) and ``helper_tasks`` (used
    by the benchmark and the tests).
    """
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit

    def result(lower: int, upper: int, status: str, nodes: int) -> LdimBounds:
        return LdimBounds(lower=lower, upper=upper, status=status, nodes=nodes,
                          seconds=time.monotonic() - started)

    search = LdimSearch(H)
    V = search.full
    splits = search._splits(V, search._splitting(V))
    if not splits:
        return result(0, 0, "exact", 0)
    lower, upper, nodes = 1, search._upper(V, splits), 0
    if warmup > 0:
        _start_server_early()  # on the other core while the warm-up runs
        warm = search.bounds(max_nodes=max_nodes,
                             time_limit=warmup if time_limit is None else min(warmup, time_limit))
        if warm.status != "budget":
            return result(warm.lower, warm.upper, warm.status, warm.nodes)
        lower, upper, nodes = warm.lower, warm.upper, warm.nodes
    if lower >= upper:
        return result(upper, upper, "exact", nodes)
    if (max_nodes is not None and nodes >= max_nodes) or (deadline is not None and time.monotonic() >= deadline):
        return result(lower, upper, "budget", nodes)
    quota = None if max_nodes is None else max(1, (max_nodes - nodes) // min(n_workers, 2 * len(splits)))

    pool = _Pool()
    status = "exact"
    try:
        seed = [(W, lo) for W, lo in search._lo.items()] + [(W, -1 - hi) for W, hi in search._hi.items()]
        pool.start(H, V, min(n_workers, 2 * len(splits)), quota, seed)
        k = upper
        while k > lower:
            answer = pool.level(splits, k - 1, deadline)
            if answer is True:
                lower = k
            elif answer is False:
                k -= 1
                upper = k
            else:  # out of budget: level k is open
                status = "budget"
                break
        if status == "exact":
            lower = upper
    except KeyboardInterrupt:
        status = "interrupted"
    finally:
        pool.stop()
        if stats is not None:
            stats.update(worker_cpu=list(pool.cpu), worker_nodes=list(pool.nodes_by_worker),
                         worker_shared=list(pool.shared), helper_tasks=pool.helper_tasks)
    return result(lower, upper, status, nodes + pool.nodes)


class _Pool:
    """Worker processes, one pipe each, at most one sub-question per worker at a time.

    A sub-question is one side of one top split: ``(i, side)`` with side 0 the smaller
    part of split ``i`` and 1 the larger.  What the workers proved is kept per side
    across levels (``Ldim(side) >= need`` implies it for every smaller ``need``).
    """

    def __init__(self):
        self.procs: list = []
        self.conns: list = []
        self.cancel: list = []
        self.alive: list[int] = []
        self.nodes = 0
        self.cpu: list[float] = []
        self.nodes_by_worker: list[int] = []
        self.task_ids = 0
        self.owner: dict[tuple[int, int], int] = {}
        self.proven_lo: dict[tuple[int, int], int] = {}  # Ldim(side) >= value
        self.proven_hi: dict[tuple[int, int], int] = {}  # Ldim(side) < value
        self.inboxes: list = []
        self.shared: list[tuple[int, int, int]] = []
        self.helper_tasks = 0

    def start(self, H: HypothesisClass, full: int, n: int, quota: int | None, seed: list) -> None:
        self.full = full
        ctx = _context()
        self.inboxes = [ctx.Queue() for _ in range(n)]
        for index in range(n):
            parent_end, child_end = ctx.Pipe()
            cancel = ctx.RawValue("q", -1)
            p = ctx.Process(target=_worker_main, daemon=True, name="mistakebound-ldim-worker",
                            args=(child_end, cancel, H, quota, self.inboxes, index, seed))
            self.procs.append(p)
            self.conns.append(parent_end)
            self.cancel.append(cancel)
            p.start()
            child_end.close()
        self.alive = list(range(n))
        self.cpu, self.nodes_by_worker = [0.0] * n, [0] * n
        self.shared = [(0, 0, 0)] * n  # per worker: facts sent, received, new to it

    def _known(self, key, need: int) -> bool | None:
        if need <= self.proven_lo.get(key, -1):
            return True
        if need >= self.proven_hi.get(key, need + 1):
            return False
        return None

    def level(self, splits, need: int, deadline: float | None) -> bool | None:
        """Whether some eligible split has both sides ``>= need``; None when out of budget.

        Order of work: both sides of the first split at once (a success there is
        the usual last level, and its two halves are the two halves of the work), then
        the smaller sides of the other splits, one per worker, each split's larger side
        as soon as its smaller side holds.  A side is cancelled once its split fails.
        """
        eligible = [i for i, (small, _) in enumerate(splits) if small.bit_count().bit_length() > need]
        verdict: dict[int, bool] = {}
        side: dict[tuple[int, int], bool] = {}
        for i in eligible:
            for s in (0, 1):
                known = self._known((i, s), need)
                if known is not None:
                    side[i, s] = known
        queue: list[tuple[int, int]] = []
        running: dict[int, tuple[int, tuple[int, int]]] = {}  # worker -> (task id, key)

        def settle(i: int) -> None:
            if i in verdict:
                return
            if side.get((i, 0)) is False or side.get((i, 1)) is False:
                verdict[i] = False
                for w, (tid, key) in running.items():
                    if key[0] == i:
                        self.cancel[w].value = tid
            elif side.get((i, 0)) and side.get((i, 1)):
                verdict[i] = True

        for i in eligible:
            settle(i)
        if any(verdict.values()):
            return True
        for i in eligible:
            if i in verdict:
                continue
            if not queue or side.get((i, 0)) is True:
                queue += [(i, 0), (i, 1)]
            else:
                queue.append((i, 0))
        try:
            while len(verdict) < len(eligible):
                if any(verdict.values()):
                    return True
                for w in self.alive:
                    if w not in running:
                        key = self._pick(w, queue, side, verdict, running)
                        helper = key is None
                        if helper:  # nothing left to hand out: help the side running longest
                            key = self._help(running)
                            if key is None:
                                break
                        self._send(w, key, splits, need, deadline, running, helper)
                if not running:  # work left, no worker with budget left
                    return None
                timeout = None if deadline is None else max(0.0, deadline + _GRACE - time.monotonic())
                ready = wait([self.conns[w] for w in running], timeout)
                if not ready:  # workers silent past the deadline: they will be stopped
                    return None
                for conn in ready:
                    w = self.conns.index(conn)
                    outcome, answer, key = self._receive(w, running)
                    i, s = key
                    if outcome == "budget":
                        self.alive.remove(w)
                        if i not in verdict:
                            queue.insert(0, key)
                        continue
                    if outcome != "ok":  # cancelled
                        continue
                    side[key] = answer
                    for v, (tid, other) in running.items():  # its helper, or the side it helped
                        if other == key:
                            self.cancel[v].value = tid
                    if answer:
                        self.proven_lo[key] = max(need, self.proven_lo.get(key, need))
                    else:
                        self.proven_hi[key] = min(need, self.proven_hi.get(key, need))
                    settle(i)
                    if answer and s == 0 and i not in verdict:  # the larger side next, first
                        if (i, 1) in queue:
                            queue.remove((i, 1))
                        if all(k != (i, 1) for _, k in running.values()):
                            queue.insert(0, (i, 1))
            return any(verdict.values())
        finally:
            self._drain(running)

    def _pick(self, w, queue, side, verdict, running):
        """The next useful key, preferring (among the next few) one this worker had before."""
        busy = {key for _, key in running.values()}
        useful = [key for key in queue if key[0] not in verdict and key not in side and key not in busy]
        queue[:] = useful
        if not useful:
            return None
        for key in useful[:len(self.alive)]:
            if self.owner.get(key) == w:
                queue.remove(key)
                return key
        return queue.pop(0)

    @staticmethod
    def _help(running):
        """The side running longest among those only one worker runs, or None."""
        counts: dict = {}
        for tid, key in running.values():
            counts.setdefault(key, []).append(tid)
        alone = [(tids[0], key) for key, tids in counts.items() if len(tids) == 1]
        return min(alone)[1] if alone else None

    def _send(self, w, key, splits, need, deadline, running, helper: bool = False) -> None:
        """Hand side ``key`` to worker ``w``; a helper searches the larger side of each split first."""
        i, s = key
        small = splits[i][0]
        V = small if s == 0 else self.full ^ small
        self.task_ids += 1
        if helper:
            self.helper_tasks += 1
        else:
            self.owner[key] = w
        remaining = None if deadline is None else deadline - time.monotonic()
        self._post(w, (self.task_ids, V, need, remaining, helper))
        running[w] = (self.task_ids, key)

    def _post(self, w: int, message) -> None:
        try:
            self.conns[w].send(message)
        except OSError as exc:  # BrokenPipeError: the worker is gone
            raise self._died(w) from exc

    def _died(self, w: int) -> MistakeboundError:
        self.procs[w].join(1)
        return MistakeboundError(
            f"workers: worker process {self.procs[w].pid} died "
            f"(exit code {self.procs[w].exitcode}) during the search"
        )

    def _receive(self, w, running):
        _, key = running.pop(w)
        try:
            tid, outcome, answer, n, cpu, self.shared[w] = self.conns[w].recv()
        except (EOFError, OSError) as exc:
            raise self._died(w) from exc
        self.nodes += n
        self.nodes_by_worker[w] += n
        self.cpu[w] += cpu
        if outcome == "error":
            raise MistakeboundError(f"workers: a worker process failed:\n{answer}")
        return outcome, answer, key

    def _drain(self, running) -> None:
        """Cancel what still runs and wait for the replies, so the next level starts clean."""
        for w, (tid, _) in running.items():
            self.cancel[w].value = tid
        while running:
            ready = wait([self.conns[w] for w in running], _GRACE)
            if not ready:  # silent (past the deadline, say): never asked again, stopped at the end
                self.alive = [w for w in self.alive if w not in running]
                running.clear()
                return
            for conn in ready:
                self._receive(self.conns.index(conn), running)

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
    """A worker's link to its peers, run by its search every few nodes (``LdimSearch._tick``).

    Every :data:`EXCHANGE_SECONDS` it puts the facts its search proved since the last
    time (``Ldim(V) >= a``, ``Ldim(V) <= b``, collected in ``LdimSearch._outbox``) into
    the inbox of every other worker, and merges what the others sent into its own memo
    (:meth:`LdimSearch.merge_proven`): a sub-class one worker settled is not searched
    again by another.  The inboxes are :class:`multiprocessing.Queue` objects, whose
    ``put`` never blocks (a feeder thread writes the pipe), so two workers sending to
    each other cannot deadlock.

    The same tick stops the current sub-question, by raising :class:`_Stop`, once it is
    cancelled or its share of the budget is spent.  It runs where a node starts, before
    the node writes anything, so the memo stays correct when the search unwinds.
    """

    def __init__(self, search: LdimSearch, cancel, quota: int | None, inboxes: list, index: int):
        self.search = search
        self.cancel = cancel
        self.node_limit = None if quota is None else search.nodes + quota
        self.inbox = inboxes[index]
        self.peers = [q for i, q in enumerate(inboxes) if i != index]
        self.deadline: float | None = None
        self.task = -1
        self.armed = False
        self.last = time.monotonic()
        self.sent = self.received = self.taught = 0
        search._outbox = []
        search._tick = self.tick

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
        out = self.search._outbox
        if out and self.peers:
            batch = out[:]
            out.clear()
            for q in self.peers:
                q.put(batch)
            self.sent += len(batch)
        elif out:
            out.clear()
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
    search = LdimSearch(H)
    search.merge_proven(seed)
    link = _Exchange(search, cancel, quota, inboxes, index)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        tid, V, need, seconds, helper = msg
        before, cpu = search.nodes, time.process_time()
        try:
            try:
                link.swap()
                link.arm(tid, seconds)
                search._large_first = helper
                reply = (tid, "ok", search.at_least(V, need))
            finally:
                search._large_first = False
                link.disarm()
                link.swap()
        except _Stop as stop:
            reply = (tid, str(stop), None)
        except Exception:  # noqa: BLE001 - reported to the coordinator, which raises
            reply = (tid, "error", traceback.format_exc())
        conn.send((*reply, search.nodes - before, time.process_time() - cpu,
                   (link.sent, link.received, link.taught)))
