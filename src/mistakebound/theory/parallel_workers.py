"""The worker processes of the parallel Littlestone search: started, fed, heard and stopped.

The search of :mod:`mistakebound.theory.parallel` (the coordinator, in the calling
process) hands sub-questions "``Ldim(V) >= need``?" to a :class:`WorkerPool`.  Each worker
is its own :class:`~mistakebound.theory.ldim_search.LdimSearch` of the class: it answers
the sub-questions it is sent, and every :data:`EXCHANGE_SECONDS` it sends what it proved
and merges what the others proved (``_Exchange``, the tick of its search's run).

**Faults.**  The worker processes are stopped before the parallel search returns or raises,
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
:func:`~mistakebound.theory.search_protocol.memo_share` of its share (a quarter).

Workers are started with the ``forkserver`` method where the platform has it (a fork of
a clean, single-threaded server, so threads in the caller do not matter) and ``spawn``
elsewhere.  Under ``spawn``, a script calling this must guard its entry point with
``if __name__ == "__main__":``, as for any use of :mod:`multiprocessing`.

Examples
--------
>>> encode_message(("facts", [(3, 1)])) == bytes(encode_message(("facts", [(3, 1)])))
True
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
from multiprocessing.reduction import ForkingPickler as _ForkingPickler
from queue import SimpleQueue

from mistakebound.foundations import memory
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.ldim_search import LdimRun, LdimSearch
from mistakebound.theory.search_protocol import OutOfBudget

__all__ = ["EXCHANGE_SECONDS", "WorkerPool", "encode_message", "start_server_early"]

#: Seconds between two exchanges of proven facts by a busy process.
EXCHANGE_SECONDS = 0.002


class WorkerPool:
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
        init = encode_message(("init", H, seed))
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
        self.senders[w].put(encode_message(("task", self.task_ids, V, need, remaining)))
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


def encode_message(message) -> bytes:
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


def start_server_early() -> None:
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
    process's memory budget (bytes, see :class:`WorkerPool`).
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
