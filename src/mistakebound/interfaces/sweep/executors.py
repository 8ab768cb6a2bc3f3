"""Where a sweep's cells run: in this process, a local process pool, or a Dask cluster.

:func:`execute` takes the cells still to run and yields their records in batches as
they finish, whichever executor runs them; every executor calls the same
:func:`~mistakebound.interfaces.sweep.cells.run_cell` on the same cells, so the records are the
same (but for ``seconds`` and ``peak_kib``).

``"inprocess"``
    One cell after another in this process (tiny grids, debugging).
``"processes"``
    A pool of ``workers`` processes (default: the number of CPUs) of this module's own
    (:class:`WorkerPool`), built for faults rather than a
    :class:`concurrent.futures.ProcessPoolExecutor`, whose one dead worker breaks every
    task still queued.
``"dask"``
    A ``dask.distributed`` client connected to ``scheduler`` (``tcp://host:port``), or,
    without one, to a ``LocalCluster`` of ``workers`` processes on 127.0.0.1 started for
    the sweep and closed after it.  dask is imported only here, only then:
    ``pip install 'mistakebound[dask]'``.

Cells travel in small batches (``batch`` cells per task; by default enough for about
16 tasks per worker, at most 32 cells).

**Faults.**  A pool worker sends each cell's record as soon as the cell finishes, so when
it dies (a player called ``os.abort``, a ``kill -9``, the kernel's OOM killer) the pool
knows the one cell it was running: that cell is recorded as an infrastructure error
(verdict ``infra``, ``error_type`` ``WorkerDied``, re-run on resume), a fresh worker
takes the dead one's place and the rest of its batch, and the other workers never
notice.  A pool worker whose cell ran out of memory (a ``MemoryError``, recorded ``infra``)
sends that record and retires (:func:`memory_trouble`): a fresh worker takes the rest of
its work, so that the good cells after it do not inherit its heap.  The dead cell is not run again in the same sweep (no loop).  On Dask, a batch
lost with its worker is sent again cell by cell (the LocalCluster retries nothing
itself), and a cell whose worker dies alone is recorded ``infra``; a Dask worker whose cell ran out of memory
runs no more cells (it refuses them) and is restarted by its nanny (:func:`_run_batch`), by its own address, the
rest of its batch sent again.  However many cells run out of memory at the same moment, each is recorded as its
own (``MemoryError``), and a batch refused by such a worker, or lost with it when it is restarted, ran no cell:
it is sent again without spending a retry (:class:`_DaskWork`), so that every good cell gets its row.

**Stopping.**  Workers ignore Ctrl-C (SIGINT reaches the whole terminal's process
group; only the sweep's main process acts on it): on Ctrl-C or SIGTERM in the main
process (see :mod:`~mistakebound.interfaces.sweep.runner`) the pool first hands over the
records its workers have sent, then closing the executor drops the queued work and
terminates the workers at once, a hanging cell included (SIGTERM, then SIGKILL after
:data:`GRACE` seconds).  A worker also dies with the main process, however
that dies (``kill -9`` included), and ends its process group with it (what its players
started): it asks the kernel for a signal when its parent dies (Linux ``PR_SET_PDEATHSIG``,
:data:`_PARENT_DIED`) and a thread checks ``os.getppid()`` every :data:`PARENT_POLL` seconds
as a fallback.  A LocalCluster's worker processes end when the
sweep's process does (dask's own pipe to each), are forked from a forkserver that ignores
Ctrl-C, so that they ignore it from birth, even while still importing
(:func:`_forkserver_ignoring_ctrl_c`), and ignore it again once started
(:func:`dask_setup`, a preload); closing the cluster is quiet (its logs and stderr are
silenced), so a Ctrl-C prints the command line's one line and nothing else.

**What players start.**  Processes a player starts end with its cell, and at the latest
with the worker or the sweep (:mod:`~mistakebound.interfaces.sweep.strays`): each worker
of the sweep's own leads a process group and adopts the orphans of its descendants,
kills what a cell left before it sends the cell's record, the pool and the
LocalCluster kill what is left in a worker's group when they end it, a Dask worker that
died while its cell ran has its group ended when the sweep learns of the loss (its PID is
in the cell's marker) and, at the latest, when the sweep ends, and a pool worker
whose parent died ends its group as it exits; so a ``sleep
1000`` a player forgot holds no pipe open after the sweep (``mistakebound sweep ... |
cat`` ends).

**How many.**  ``workers`` is bounded by what the machine allows (:func:`worker_limit`):
at most :data:`WORKERS_PER_CPU` per CPU this process may use, each with at least
:data:`WORKER_MEMORY` of the memory budget (a Dask worker more), and never more than
:data:`~mistakebound.interfaces.arguments.MAX_WORKERS`; more is refused before any
process starts (exit 2 on the command line), naming the limit and why, rather than
started and hung, or recorded as ``infra`` cells that no rerun can fix.  A remote Dask
scheduler's workers are its own: ``workers`` then only sizes the batches.

**Memory.**  Each worker gets its share of this process's memory budget in its
environment: ``MISTAKEBOUND_MEMORY_LIMIT`` =
:func:`~mistakebound.foundations.memory.memory_share` (available memory / workers), so
that the searches and class caches of ``workers`` processes together stay within what
one process may use (see :func:`worker_environment`).

Examples
--------
>>> from mistakebound.interfaces.sweep.cells import Cell
>>> cells = [Cell(kind="search", search="ldim", cls=f"thresholds:{n}", size=n) for n in (3, 7)]
>>> [r["ldim"] for batch in execute(cells, executor="inprocess") for r in batch]
[2, 3]
>>> sorted(r["ldim"] for batch in execute(cells, executor="processes", workers=2) for r in batch)
[2, 3]
"""

from __future__ import annotations

import collections
import contextlib
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.foundations.text import one_line
from mistakebound.foundations.validation import check_choice, check_int
from mistakebound.interfaces.sweep.cells import INFRA, Cell, error_record, infra_record, interrupts_from, run_cell

__all__ = ["EXECUTORS", "DaskDependencyError", "WorkerPool", "execute", "batches", "default_workers",
           "worker_environment", "worker_limit", "check_workers", "signals_held", "GRACE", "PARENT_POLL",
           "WORKERS_PER_CPU", "WORKER_MEMORY", "memory_trouble"]

#: The executors :func:`execute` knows.
EXECUTORS = ("inprocess", "processes", "dask")
#: Seconds a terminated worker gets before SIGKILL.
GRACE = 1.0
#: Seconds between a worker's checks that its parent is alive (the fallback to PR_SET_PDEATHSIG).
PARENT_POLL = 0.25
#: The most workers per CPU this process may use: cells are CPU-bound, and more only queue for the CPUs.
WORKERS_PER_CPU = 4
#: The least memory a worker process needs, by executor: its interpreter, numpy and the framework
#: (about 60 MiB for a pool worker, 120 MiB for a Dask worker and its nanny), and room for a cell.
WORKER_MEMORY = {"processes": 128 * 2**20, "dask": 256 * 2**20}
#: Worker deaths in a row with no cell to blame (at start-up) after which the pool gives up.
_MAX_IDLE_DEATHS = 3
_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class DaskDependencyError(MistakeboundError, ImportError):
    """dask.distributed, needed by the ``dask`` executor, is not installed."""


def default_workers() -> int:
    """The number of CPUs this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def batches(cells: Sequence[Cell], workers: int, batch: int | None = None) -> list[list[Cell]]:
    """Split ``cells`` into consecutive batches (about 16 per worker, at most 32 cells each).

    Examples
    --------
    >>> [len(b) for b in batches(list(range(10)), workers=2, batch=4)]
    [4, 4, 2]
    """
    if batch is None:
        batch = max(1, min(32, math.ceil(len(cells) / (16 * max(1, workers)))))
    return [list(cells[i:i + batch]) for i in range(0, len(cells), batch)]


def worker_environment(workers: int) -> dict[str, str]:
    """The environment variables each of ``workers`` worker processes gets: its share of the memory budget.

    The share is :func:`mistakebound.foundations.memory.memory_share`, put in
    :data:`~mistakebound.foundations.memory.MEMORY_LIMIT_VARIABLE`, so that every memory
    check and default in a worker (its searches' memos, its class cache) stays within it;
    nothing when the available memory is unknown.

    Examples
    --------
    >>> env = worker_environment(4)
    >>> env == {} or int(env["MISTAKEBOUND_MEMORY_LIMIT"]) > 0
    True
    """
    from mistakebound.foundations.memory import MEMORY_LIMIT_VARIABLE, memory_share

    share = memory_share(workers)
    return {} if share is None else {MEMORY_LIMIT_VARIABLE: str(max(1, share))}


def worker_limit(executor: str = "processes") -> tuple[int, str]:
    """The most workers ``executor`` may start here, and what sets that limit (for messages).

    The smallest of :data:`~mistakebound.interfaces.arguments.MAX_WORKERS`,
    :data:`WORKERS_PER_CPU` times :func:`default_workers`, and the memory available
    (:func:`~mistakebound.foundations.memory.available_memory`, the one budget) over
    :data:`WORKER_MEMORY`; at least 1.

    Examples
    --------
    >>> limit, why = worker_limit("processes")
    >>> 1 <= limit <= 256 and why != ""
    True
    """
    from mistakebound.foundations.memory import available_memory, format_bytes
    from mistakebound.interfaces.arguments import MAX_WORKERS

    cpus = default_workers()
    limits = [(MAX_WORKERS, f"the command line's limit of {MAX_WORKERS}"),
              (WORKERS_PER_CPU * cpus, f"{WORKERS_PER_CPU} per CPU, {cpus} CPU(s) here")]
    available = available_memory()
    if available is not None:
        need = WORKER_MEMORY.get(executor, WORKER_MEMORY["processes"])
        limits.append((available // need, f"each needs about {format_bytes(need)} and "
                                          f"{format_bytes(available)} of memory is available"))
    limit, why = min(limits, key=lambda pair: pair[0])
    return max(1, limit), why


def check_workers(workers: int | None, executor: str = "processes", *, parameter: str = "workers") -> int | None:
    """``workers`` if the machine allows that many (:func:`worker_limit`), else the refusal saying how many it does.

    Raises
    ------
    InvalidArgumentError
        For more workers than :func:`worker_limit` (``--workers`` on the command line: exit 2).

    Examples
    --------
    >>> check_workers(2), check_workers(None)
    (2, None)
    >>> check_workers(100_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: workers: 100000 worker processes are more than this machine allows: at most ... (...); give workers ... or fewer
    """
    workers = check_int(parameter, workers, 1, optional=True)
    if workers is None or executor == "inprocess":
        return workers
    limit, why = worker_limit(executor)
    if workers > limit:
        raise InvalidArgumentError(
            f"{parameter}: {workers} worker processes are more than this machine allows: at most {limit} ({why}); "
            f"give {parameter} {limit} or fewer"
        )
    return workers


def _folder_environment() -> dict[str, str]:
    """The variable that tells a worker the sweep's temporary folder (where it notes its process group)."""
    from mistakebound.interfaces.sweep.scratch import process_folder
    from mistakebound.interfaces.sweep.strays import FOLDER_VARIABLE

    return {FOLDER_VARIABLE: str(process_folder())}


def _check(executor: str, workers: int | None, batch: int | None, scheduler: str | None = None) -> int:
    check_choice("executor", executor, EXECUTORS)
    workers = check_int("workers", workers, 1, optional=True) if scheduler is not None \
        else check_workers(workers, executor)  # a remote cluster's workers are its own
    check_int("batch", batch, 1, optional=True)
    return workers or min(default_workers(), worker_limit(executor)[0])


def execute(
    cells: Sequence[Cell],
    *,
    executor: str = "processes",
    workers: int | None = None,
    scheduler: str | None = None,
    batch: int | None = None,
) -> Iterator[list[dict]]:
    """Run ``cells`` and yield their records, a batch at a time, as they finish.

    Close the iterator (``close()``, or let it be collected) to stop: the queued work is
    dropped and the worker processes are terminated.

    Parameters
    ----------
    cells : sequence of Cell
    executor : {"inprocess", "processes", "dask"}
    workers : int, optional
        Processes of the pool or of a LocalCluster (default: the CPUs available).
    scheduler : str, optional
        With ``"dask"``: the address of a running scheduler; default a LocalCluster.
    batch : int, optional
        Cells per task (default: see the module docstring).

    Raises
    ------
    InvalidArgumentError
        For an unknown executor, bad ``workers``/``batch``, a ``scheduler`` without
        ``"dask"``, or a scheduler that cannot be reached.
    DaskDependencyError
        For ``"dask"`` when dask.distributed is not installed.
    """
    n = _check(executor, workers, batch, scheduler)
    if scheduler is not None and executor != "dask":
        raise InvalidArgumentError(f"scheduler: only the dask executor takes a scheduler, got executor {executor!r}")
    if scheduler is not None:
        from mistakebound.interfaces.sweep.scheduler import check_address

        scheduler = check_address(scheduler)
    if executor == "inprocess":
        return ([_run_here(c)] for c in cells)
    if executor == "processes":
        return _processes(batches(cells, n, batch), n)
    return _dask(batches(cells, n, batch), n, scheduler)


def _run_here(cell: Cell) -> dict:
    """Run a cell in this process, and end the processes its players started and left (:mod:`.strays`)."""
    from mistakebound.interfaces.sweep.strays import adopting

    with adopting():
        return run_cell(cell)


def _processes(work: list[list[Cell]], workers: int) -> Iterator[list[dict]]:
    if not work:
        return
    pool = WorkerPool(min(workers, len(work)))
    try:
        yield from pool.run(work)
    finally:
        pool.close()


# ------------------------------------------------------------------ the worker process
#: The signal the kernel sends a pool worker when its parent dies (Linux ``PR_SET_PDEATHSIG``): caught, to end the
#: worker's process group with it (:func:`_end_with_group`).
_PARENT_DIED = signal.SIGUSR1


def _die_with_parent(parent: int | None) -> None:
    """End this process when ``parent`` dies, with what its players started (:func:`_end_with_group`):
    PR_SET_PDEATHSIG on Linux, and a thread polling getppid.

    ``None``: the parent this process has now (a forkserver, which ends with the main process).
    """
    if parent is None:
        parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            signal.signal(_PARENT_DIED, lambda signum, frame: _end_with_group())
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(_PARENT_DIED), 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError, ValueError):
            pass
    if os.getppid() != parent:  # died before the request above
        _end_with_group()

    def watch() -> None:
        while True:
            time.sleep(PARENT_POLL)
            if os.getppid() != parent:
                _end_with_group()

    threading.Thread(target=watch, name="mistakebound-parent-watch", daemon=True).start()


def _end_with_group() -> None:
    """End this worker now, and the process group it leads (what its players started: :mod:`.strays`), so that
    nothing of it outlives the sweep's main process, even one killed with ``kill -9``; never a group it does not
    lead (the sweep's own)."""
    try:
        if os.getpgid(0) == os.getpid():
            os.killpg(os.getpid(), signal.SIGKILL)  # this process included
    except OSError:
        pass
    os._exit(1)


def memory_trouble(record: dict) -> bool:
    """Whether a cell's record says it ran out of memory (verdict ``infra``, a memory error): its worker retires.

    A process that ran out of memory keeps what it could not free (a player's leak, a heap
    the allocator does not give back), and the good cells after it there would fail too;
    so the worker that ran such a cell sends its record and ends, and a fresh one takes the
    rest of its work (no cell is blamed for the retirement).

    Examples
    --------
    >>> memory_trouble({"verdict": "infra", "error_type": "InsufficientMemoryError"})
    True
    >>> memory_trouble({"verdict": "infra", "error_type": "WorkerDied"}), memory_trouble({"verdict": "ok"})
    (False, False)
    """
    return record.get("verdict") == INFRA and "MemoryError" in str(record.get("error_type") or "")


def _worker(conn: Any, parent: int | None, env: dict[str, str]) -> None:
    """A pool worker: run the cells of each batch it receives, sending each record as the cell finishes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # terminate() ends a hanging cell at once
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
    _die_with_parent(parent)
    from mistakebound.interfaces.sweep.strays import adopt_orphans, children, end_strays

    os.environ.update(env)
    adopt_orphans()  # what the players start is in this worker's group, and its orphans are this worker's
    mine = children()
    interrupts_from(lambda: False)  # SIGINT is ignored here: a KeyboardInterrupt is a player's
    try:
        conn.send(("ready", os.getpid()))
        while True:
            task = conn.recv()
            if task is None:
                return
            for cell in task:
                try:
                    record = run_cell(cell)
                except BaseException as exc:  # noqa: BLE001 - whatever a cell raises is its record
                    record = error_record(cell, exc)
                end_strays(mine)  # before the record leaves: the cell is over, with what it started
                conn.send(record)
                if memory_trouble(record):  # this process's heap cannot be trusted: a fresh worker takes over
                    conn.send(("retire", os.getpid()))
                    return
    except (EOFError, OSError, KeyboardInterrupt):  # the main process went away
        return


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM (delivered at the end of the block), in the main thread.

    For the short steps that must not be cut: starting a worker, handing over records
    that arrived, closing the workers.

    Yields
    ------
    None
        Control, once, to the ``with`` block.
    """
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class _Slot:
    """One worker process and the batches sent to it, in order, with the records received so far."""

    def __init__(self, process: Any, conn: Any):
        self.process = process
        self.conn = conn
        self.ready = False
        self.batches: collections.deque[list[Cell]] = collections.deque()
        self.done = 0  # records received of the first batch
        self.stopping = False
        self.retired = False  # it ended on purpose after a cell that ran out of memory

    @property
    def outstanding(self) -> int:
        return sum(len(b) for b in self.batches) - self.done

    def running(self) -> Cell | None:
        return self.batches[0][self.done] if self.batches else None

    def received(self) -> None:
        self.done += 1
        if self.done == len(self.batches[0]):
            self.batches.popleft()
            self.done = 0

    def unfinished(self) -> list[Cell]:
        """The cells sent and not finished, the running one first."""
        rest = [c for b in self.batches for c in b]
        return rest[self.done:]


def _signal_name(exitcode: int | None) -> str:
    if exitcode is None:
        return "an unknown cause"
    if exitcode < 0:
        try:
            return f"signal {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"signal {-exitcode}"
    return f"exit code {exitcode}"


class WorkerPool:
    """A pool of worker processes that survives the death of any of them.

    Use :meth:`run` to run batches of cells and :meth:`close` (always) to end the workers.

    Parameters
    ----------
    size : int
        Worker processes.
    prefetch : int
        Batches a worker holds at once (one running, the others queued in its pipe), so
        that it never waits for the next one.
    """

    def __init__(self, size: int, *, prefetch: int = 2):
        import multiprocessing

        self.size = size
        self.prefetch = prefetch
        self._context = multiprocessing.get_context()
        self._env = {**worker_environment(size), **_folder_environment()}
        self._slots: list[_Slot] = []
        #: Every worker process started (for tests: their PIDs).
        self.started: list[int] = []
        #: Workers that died while running a cell, and the cells recorded ``infra`` for it.
        self.deaths = 0

    # ------------------------------------------------------------ processes
    def _start(self) -> _Slot:
        ours, theirs = self._context.Pipe(duplex=True)
        parent = None if self._context.get_start_method() == "forkserver" else os.getpid()
        process = self._context.Process(target=_worker, args=(theirs, parent, self._env),
                                        name="mistakebound-sweep-worker", daemon=False)
        with signals_held():  # a Ctrl-C now waits until the child ignores it and this one knows the child
            process.start()
            theirs.close()  # only the worker holds its end: its death is EOF here
            slot = _Slot(process, ours)
            self._slots.append(slot)
            self.started.append(process.pid)
        return slot

    def _feed(self, slot: _Slot, queue: collections.deque) -> None:
        while queue and len(slot.batches) < self.prefetch and not slot.stopping:
            batch = queue.popleft()
            try:
                slot.conn.send(batch)
            except (OSError, ValueError):  # dead already: the batch goes back, the death is seen by run()
                queue.appendleft(batch)
                return
            slot.batches.append(batch)
        if not queue and not slot.batches and not slot.stopping:
            slot.stopping = True
            try:
                slot.conn.send(None)
            except (OSError, ValueError):
                pass

    def run(self, work: Sequence[list[Cell]]) -> Iterator[list[dict]]:
        """Run the batches and yield records as they arrive; each cell's record exactly once.

        Yields
        ------
        dict
            Each cell's record, as it arrives.
        """
        from multiprocessing.connection import wait

        queue: collections.deque[list[Cell]] = collections.deque(list(b) for b in work if b)
        idle_deaths = 0
        for _ in range(min(self.size, len(queue))):
            self._feed(self._start(), queue)
        while True:
            live = [s for s in self._slots if not (s.stopping and not s.batches)]
            if not live:
                break
            by_object: dict[Any, _Slot] = {}
            for s in live:
                by_object[s.conn] = s
                by_object[s.process.sentinel] = s
            records: list[dict] = []
            try:
                ready = wait(list(by_object))
            except KeyboardInterrupt:  # Ctrl-C or SIGTERM: hand over what the workers finished, then stop
                with signals_held():
                    for slot in live:
                        self._drain(slot, records)
                if records:
                    yield records
                raise
            interrupted = None
            try:
                with signals_held():  # a Ctrl-C waits until what arrived is handed over
                    dead: list[_Slot] = []
                    for obj in ready:
                        slot = by_object[obj]
                        if slot in dead:
                            continue
                        if not self._drain(slot, records):
                            dead.append(slot)
                    for slot in dead:
                        blamed = self._bury(slot, queue, records)
                        idle_deaths = 0 if blamed else idle_deaths + 1
                        if idle_deaths >= _MAX_IDLE_DEATHS:  # workers die on their own: nothing left to blame
                            for batch in queue:
                                records += [infra_record(c, "WorkerDied", "worker processes die as they start "
                                                         f"({_signal_name(slot.process.exitcode)}); run again to retry")
                                            for c in batch]
                            queue.clear()
                    for slot in [s for s in self._slots if not s.stopping or s.batches]:
                        self._feed(slot, queue)
                    missing = self.size - sum(1 for s in self._slots if not s.stopping)
                    for _ in range(min(missing, len(queue))):
                        self._feed(self._start(), queue)
            except KeyboardInterrupt as exc:  # delivered as the block ends: hand the records over first
                interrupted = exc
            if records:
                yield records
            if interrupted is not None:
                raise interrupted

    def _drain(self, slot: _Slot, records: list[dict]) -> bool:
        """Receive what ``slot`` sent; False if its worker is dead (EOF, or it exited)."""
        try:
            while slot.conn.poll():
                message = slot.conn.recv()
                if isinstance(message, tuple):  # ("ready", pid), or ("retire", pid) after a memory error
                    slot.ready = True
                    slot.retired = slot.retired or message[0] == "retire"
                    continue
                records.append(message)
                slot.received()
        except (EOFError, OSError):
            return False
        except Exception:  # noqa: BLE001 - a message cut by the worker's death
            return False
        if slot.stopping and not slot.batches:
            return True
        return slot.process.exitcode is None

    def _bury(self, slot: _Slot, queue: collections.deque, records: list[dict]) -> bool:
        """A dead worker: blame its running cell (``infra``), requeue the rest; True if a cell was blamed."""
        from mistakebound.interfaces.sweep.strays import end_group

        slot.process.join(GRACE)
        if slot.process.exitcode is None:
            slot.process.kill()
            slot.process.join(GRACE)
        end_group(slot.process.pid)  # what its players started dies with it
        self._drain(slot, records)  # what it sent before dying
        slot.conn.close()
        self._slots.remove(slot)
        unfinished = slot.unfinished()
        if slot.retired:  # ended on purpose after a memory error, its record sent: the rest goes to a fresh worker
            if unfinished:
                queue.appendleft(unfinished)
            return True
        if not unfinished:
            return slot.ready  # idle: nothing lost
        if not slot.ready:  # died before starting: no cell ran, all go back
            queue.extendleft(reversed([unfinished]))
            return False
        cell, rest = unfinished[0], unfinished[1:]
        self.deaths += 1
        records.append(infra_record(
            cell, "WorkerDied",
            f"the worker process {slot.process.pid} running this cell died ({_signal_name(slot.process.exitcode)}: "
            "a crash in the player, a kill, or the out-of-memory killer); the sweep went on, and a resumed sweep "
            "runs this cell again",
        ))
        if rest:
            queue.appendleft(rest)
        return True

    def close(self) -> None:
        """End every worker now: SIGTERM to the busy ones, then SIGKILL after :data:`GRACE` seconds."""
        with signals_held():  # a second Ctrl-C waits until the workers are gone
            self._close()

    def _close(self) -> None:
        slots, self._slots = self._slots, []
        for slot in slots:
            if slot.process.exitcode is None and not (slot.stopping and not slot.batches):
                slot.process.terminate()
        deadline = time.monotonic() + GRACE
        for slot in slots:
            slot.process.join(max(0.0, deadline - time.monotonic()))
        for slot in slots:
            if slot.process.exitcode is None:
                slot.process.terminate()
        from mistakebound.interfaces.sweep.strays import end_group

        for slot in slots:
            slot.process.join(max(0.0, deadline + GRACE - time.monotonic()))
            if slot.process.exitcode is None:
                slot.process.kill()
                slot.process.join(GRACE)
            end_group(slot.process.pid)  # what its players started, a hanging cell's included
            slot.conn.close()
            try:
                slot.process.close()
            except ValueError:
                pass


# ------------------------------------------------------------------------ dask
def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise DaskDependencyError(
            "executor 'dask' needs dask.distributed, which is not installed; install the dask extra: "
            "pip install 'mistakebound[dask]'"
        ) from exc
    return distributed


def _dask(work: list[list[Cell]], workers: int, scheduler: str | None) -> Iterator[list[dict]]:
    import logging

    distributed = _distributed()  # raises now, before the first record is asked for
    return _dask_run(distributed, work, workers, scheduler, logging.CRITICAL)


#: Set in a Dask worker process whose cell ran out of memory (:func:`memory_trouble`): it runs no more cells, and
#: the client restarts it (:func:`_restart_worker`).
_RETIRING: list[str] = []


def _worker_address() -> str | None:
    """The address of the Dask worker running this task (None outside one)."""
    try:
        import distributed

        return distributed.get_worker().address
    except (ImportError, ValueError, AttributeError):
        return None


def _run_batch(cells: list[Cell], marker: str | None = None) -> tuple[list[dict], str | None]:
    """A Dask task: the records of a batch, and the address of the worker that ran it.

    With ``marker`` (a file the client can read: a LocalCluster), this process's PID and
    the index of each cell are written there before the cell starts, and ``done`` at the
    end, so that when the worker dies the client knows which cell it was running, if any,
    and the process group to end (what its players started, :mod:`.strays`).  A
    KeyboardInterrupt here is a player's: Ctrl-C is the client's to handle.  A cell that
    runs out of memory ends the batch, and this process runs no cell after it
    (:data:`_RETIRING`: it refuses every batch, returning no record and writing no
    marker): fewer records than cells tell the client to restart this worker, by its
    address, and send the rest again.
    """
    from mistakebound.interfaces.sweep import strays

    address = _worker_address()
    if _RETIRING:  # this heap cannot be trusted: the batch goes back, to a fresh worker
        return [], address
    interrupts_from(lambda: False)
    before = strays.children()

    def run(cell: Cell) -> dict:
        try:
            return run_cell(cell)
        finally:
            if strays._adopting:  # a LocalCluster's worker (one thread): the cell's strays end with it
                strays.end_strays(before)

    records = []
    with _marking(marker) as mark:
        for i, cell in enumerate(cells):
            mark(i)
            records.append(run(cell))
            if memory_trouble(records[-1]):
                _RETIRING.append(cell.id)
                break
    return records, address


@contextlib.contextmanager
def _marking(marker: str | None) -> Iterator[Any]:
    """The function that notes in ``marker`` this process's PID and the index of the cell starting (nothing without
    one); ``done`` at the end: a result lost later (its worker died holding it) blames no cell.

    Yields
    ------
    callable
        ``mark(i)``, called before cell ``i`` starts.
    """
    if marker is None:
        yield lambda i: None
        return
    with open(marker, "w", encoding="ascii") as fh:
        def mark(i: int) -> None:
            fh.seek(0)
            fh.write(f"{os.getpid():10d} {i:10d}\n")
            fh.flush()

        yield mark
        fh.seek(0)
        fh.write(f"{os.getpid():10d}       done\n")


def _restart_worker(client: Any, address: str) -> None:
    """Restart the Dask worker at ``address``, whose cell ran out of memory (:func:`_run_batch`).

    Its nanny starts a fresh process, at a new address, in its place (a worker without a
    nanny is only ended: the deployment that started it may start another).  Quietly
    nothing when it is gone already.
    """
    try:
        client.restart_workers([address], raise_for_error=False)
    except Exception:  # noqa: BLE001 - a worker lost meanwhile: its batches are sent again as lost ones
        pass


def _started(marker: str | None) -> tuple[int | None, int | None]:
    """The PID of the worker that ran a lost batch, and the index of the cell it was running (None: unknown, or it
    never started, or it had finished)."""
    if marker is None:
        return None, None
    try:
        with open(marker, encoding="ascii") as fh:
            fields = fh.read().split()
    except OSError:
        return None, None
    pid = int(fields[0]) if fields and fields[0].isdigit() else None
    return pid, (int(fields[1]) if len(fields) == 2 and fields[1].isdigit() else None)


def dask_setup(worker: Any = None) -> None:
    """Dask's preload hook, run in each LocalCluster worker process as it starts: ignore Ctrl-C there.

    A terminal's Ctrl-C reaches every process of its group; the sweep's main process
    handles it (closing the cluster), and a worker that raised ``KeyboardInterrupt`` on
    its own would only print tracebacks.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    from mistakebound.interfaces.sweep.strays import adopt_orphans

    adopt_orphans()  # what its players start is in its own group, ended with each cell and with the cluster


def _forkserver_ignoring_ctrl_c(distributed: Any) -> bool:
    """Start multiprocessing's forkserver with Ctrl-C ignored; True if it now runs so (dask's workers can fork from it).

    Every process forked from that server ignores Ctrl-C from its first instruction (an
    ignored signal stays ignored across ``exec`` and Python's start-up), so a worker
    still importing when Ctrl-C comes prints no traceback, which :func:`dask_setup` alone
    cannot prevent.  The server is started at most once per process, with dask's own
    preload (``distributed`` imported once, so each worker starts in a fraction of a
    second), and ends with this process; processes this program forks from it later
    (``multiprocessing`` with the ``forkserver`` method) ignore Ctrl-C too.  False, and
    nothing changed, outside the main thread, where there is no forkserver, or when it
    was started before without this.
    """
    import multiprocessing
    import multiprocessing.forkserver as forkserver

    import dask

    if threading.current_thread() is not threading.main_thread() \
            or "forkserver" not in multiprocessing.get_all_start_methods():
        return False
    server = getattr(forkserver, "_forkserver", None)
    if getattr(server, "_forkserver_pid", None) is not None:  # running already
        return bool(getattr(server, "_mistakebound_quiet", False))
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        distributed.utils.get_mp_context()  # dask's preload list for the server
    _multiprocessing_folder()
    with signals_held():  # a Ctrl-C now is held, and raised once the server has started
        pending = signal.SIGINT in signal.sigpending()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            forkserver.ensure_running()
        finally:
            signal.signal(signal.SIGINT, previous)
            if pending:  # SIG_IGN dropped it: send it again, delivered as the block ends
                os.kill(os.getpid(), signal.SIGINT)
    if server is not None:
        server._mistakebound_quiet = True
    return True


def _multiprocessing_folder() -> None:
    """Make multiprocessing's temporary folder (the forkserver's socket) in this process's sweep folder, if not made.

    So that a sweep killed with its forkserver leaves nothing but that folder, which the next
    run removes (:mod:`~mistakebound.interfaces.sweep.scratch`); not when the folder's path is
    so long that the forkserver's socket would not fit a Unix socket's address (then
    multiprocessing's ``pymp-*`` folder stays in the temporary folder).
    """
    import multiprocessing.process
    import multiprocessing.util
    import tempfile

    from mistakebound.interfaces.sweep.scratch import process_folder

    if multiprocessing.process.current_process()._config.get("tempdir") is not None:
        return
    folder = str(process_folder())
    if len(folder) + len("/pymp-12345678/listener-12345678") > 100:  # a socket's path has at most 107 bytes
        return
    saved, tempfile.tempdir = tempfile.tempdir, folder
    try:
        multiprocessing.util.get_temp_dir()
    finally:
        tempfile.tempdir = saved


def _local_cluster(distributed: Any, workers: int, quiet: int, settings: contextlib.ExitStack) -> Any:
    """A LocalCluster whose workers ignore Ctrl-C, retry nothing and share the memory budget.

    Its worker processes fork from a forkserver that ignores Ctrl-C
    (:func:`_forkserver_ignoring_ctrl_c`; the dask setting that says so is entered in
    ``settings``, which the caller keeps open while the cluster runs, since a worker that
    dies is started again with the setting of that moment), and also ignore it in
    :func:`dask_setup`, a preload.
    """
    import logging

    import dask

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(max(quiet, logging.getLogger(name).level))
    from mistakebound.interfaces.sweep.scratch import process_folder

    # Dask's dask-scratch-space in this process's folder, which the next run removes if this one is killed
    options: dict[str, Any] = {"distributed.scheduler.allowed-failures": 0, "temporary-directory": str(process_folder())}
    if _forkserver_ignoring_ctrl_c(distributed):
        options["distributed.worker.multiprocessing-method"] = "forkserver"
    settings.enter_context(dask.config.set(options))
    return distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, silence_logs=quiet, env={**worker_environment(workers), **_folder_environment()},
        preload=[__name__],
        # no dashboard; the scheduler's HTTP server (health, metrics) on a free port, not 8787, so that a
        # second cluster on the machine neither collides nor prints "Port 8787 is already in use"
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )


#: Times a batch lost with a dead Dask worker before it started is sent again before its cells count as lost.
_DASK_RETRIES = 3


class _DaskWork:
    """The batches a Dask sweep has sent and not yet handed over, and the workers it restarted (by address).

    A batch is sent again, its attempt unchanged, when its worker refused it (it had run
    out of memory in an earlier cell: :func:`_run_batch`) or was lost with a worker the
    sweep restarted for that reason: no cell of it ran, so none is blamed, and no retry
    budget is spent, however many cells ran out of memory at the same moment.
    """

    def __init__(self, client: Any, markers: str | None):
        import itertools

        self.client = client
        self.markers = markers
        self.pending: dict[str, tuple[Any, list[Cell], str | None, int, int]] = {}  # key -> (future, batch, marker,
        #                                                                             attempt, sequence number)
        self.sequence = itertools.count()
        self.restarted: dict[str, int] = {}  # address -> the sequence number of the first batch sent after its restart
        self.fetched: dict[str, Any] = {}  # key -> the result (or error) of a finished future, fetched before a restart

    def submit(self, batch_list: list[list[Cell]], attempt: int = 0) -> list:
        numbers = [next(self.sequence) for _ in batch_list]
        marker_files = [None if self.markers is None else os.path.join(self.markers, f"{n}.run") for n in numbers]
        submitted = self.client.map(_run_batch, batch_list, marker_files, pure=False)
        for f, b, m, n in zip(submitted, batch_list, marker_files, numbers):
            self.pending[f.key] = (f, b, m, attempt, n)
        return submitted

    def restart(self, address: str | None) -> None:
        """Restart the worker at ``address`` (once: its fresh process has another address), the results of the
        batches finished meanwhile fetched first, so that none is lost with it and computed again (a cell run
        twice, a fresh worker run out of memory where no one looks)."""
        if address is None or address in self.restarted:
            return
        for future, *_ in list(self.pending.values()):
            if future.key not in self.fetched and future.status in ("finished", "error"):
                try:
                    self.fetched[future.key] = future.result()
                except Exception as exc:  # noqa: BLE001 - a lost batch: handled when its turn comes
                    self.fetched[future.key] = exc
                future.release()
        _restart_worker(self.client, address)
        self.restarted[address] = next(self.sequence)

    def outcome(self, future: Any) -> tuple[list[dict], str | None]:
        """The records of a finished batch and the address of the worker that ran it (raises what the batch
        raised); ``future`` is released, and forgotten here."""
        self.pending.pop(future.key, None)
        result = self.fetched.pop(future.key, None)
        if result is None:
            try:
                result = future.result()
            except Exception as exc:  # noqa: BLE001
                result = exc
            future.release()  # before its worker may be restarted: not computed again
        if isinstance(result, BaseException):
            raise result
        return result


def _dask_run(distributed: Any, work, workers: int, scheduler: str | None, quiet: int) -> Iterator[list[dict]]:
    import tempfile

    if not work:
        return
    cluster = None
    client = None
    sent: _DaskWork | None = None
    from mistakebound.interfaces.sweep.scratch import process_folder

    # in this process's folder, which the next run removes if this one is killed (see scratch)
    markers = tempfile.TemporaryDirectory(prefix="markers-", dir=process_folder()) if scheduler is None else None
    settings = contextlib.ExitStack()  # dask settings while the LocalCluster runs
    try:
        if scheduler is None:
            with signals_held():  # a Ctrl-C now comes once the cluster is ours to close
                cluster = _local_cluster(distributed, workers, quiet, settings)
                client = distributed.Client(cluster)
        else:
            from mistakebound.interfaces.sweep.scheduler import probe

            probe(scheduler)  # Dask would wait for ever on a silent server, and misread an HTTP one
            try:
                client = distributed.Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise InvalidArgumentError(
                    f"scheduler: cannot connect to {scheduler!r} ({type(exc).__name__}: {exc}); expected the "
                    "address of a running dask scheduler such as 'tcp://127.0.0.1:8786'"
                ) from None
        sent = _DaskWork(client, None if markers is None else markers.name)
        running = distributed.as_completed(sent.submit(list(work)))
        try:
            for future in running:
                _, batch, marker, attempt, number = sent.pending[future.key]
                try:
                    records, address = sent.outcome(future)
                except Exception as exc:  # noqa: BLE001 - the worker died with the batch
                    records = _lost(sent, running, exc, batch, marker, attempt)
                else:
                    records = _after_memory_trouble(sent, running, batch, attempt, number, records, address)
                if records:
                    yield records
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: hand over the batches finished meanwhile, then stop
            finished: list[dict] = []
            with signals_held():
                for f, *_ in list(sent.pending.values()):
                    if f.key in sent.fetched or f.status == "finished":
                        try:
                            records, _ = sent.fetched[f.key] if f.key in sent.fetched else f.result(timeout=GRACE)
                        except Exception:  # noqa: BLE001 - lost meanwhile: its cells run again on resume
                            continue
                        finished += records
            if finished:
                yield finished
            raise
    finally:
        try:
            _close_dask(client, cluster, [] if sent is None else [f for f, *_ in sent.pending.values()])
        finally:
            settings.close()
            if markers is not None:
                _end_dead_workers_groups(markers.name)
                markers.cleanup()


def _lost(sent: _DaskWork, running: Any, exc: BaseException, batch: list[Cell], marker: str | None,
          attempt: int) -> list[dict]:
    """The records of a batch lost with its worker, what it started ended; what is left of it is sent again."""
    from mistakebound.interfaces.sweep.strays import end_dead_group

    pid, started = _started(marker)
    end_dead_group(pid)  # what the dead worker's players started ends with the cell, not with a next run
    worker = getattr(getattr(exc, "last_worker", None), "address", None)
    if worker is not None and worker in sent.restarted:  # a worker restarted for another cell: none of this ran
        running.update(sent.submit([batch], attempt))
        return []
    lost = f"the dask worker running this cell was lost ({type(exc).__name__}: {one_line(exc)})"
    records, again = _lost_batch(batch, started, attempt, remote=sent.markers is None, why=lost)
    for cells_again, next_attempt in again:
        running.update(sent.submit([cells_again], next_attempt))
    return records


def _end_dead_workers_groups(markers: str) -> None:
    """End what is left in the process groups of the workers that ran a cell and are dead now (their PIDs are in
    the ``markers``): at the latest with the sweep, what players started ends."""
    from mistakebound.interfaces.sweep.strays import end_dead_group

    for pid in {_started(os.path.join(markers, name))[0] for name in os.listdir(markers)}:
        end_dead_group(pid)


def _after_memory_trouble(sent: _DaskWork, running: Any, batch: list[Cell], attempt: int, number: int,
                          records: list[dict], address: str | None) -> list[dict]:
    """``records`` of a batch; when the last ran out of memory, or there are none (refused: :func:`_run_batch`), the
    worker at ``address`` retires: it is restarted, and the cells left go again to a fresh worker.

    A refusal costs no retry unless the worker refused after its restart (the restart did
    not take: at most :data:`_DASK_RETRIES` times, then the cells are recorded ``infra``).
    """
    if records and not memory_trouble(records[-1]) or not batch:
        return records
    refused_after_restart = not records and sent.restarted.get(address, number + 1) <= number
    sent.restart(address)
    rest, attempt = batch[len(records):], (attempt + 1 if refused_after_restart else attempt)
    if not rest:
        return records
    if attempt <= _DASK_RETRIES:
        running.update(sent.submit([rest], attempt))
        return records
    why = ("the dask worker given this cell had run out of memory in an earlier cell and could not be restarted; "
           "a resumed sweep runs this cell again")
    return records + [infra_record(c, "WorkerDied", why) for c in rest]


def _lost_batch(batch: list[Cell], started: int | None, attempt: int, *, remote: bool,
                why: str) -> tuple[list[dict], list[tuple[list[Cell], int]]]:
    """What to do with a batch its Dask worker died with: the ``infra`` records, and what to send again.

    Known running cell (a LocalCluster's marker): it is recorded, the others go again.
    Unknown: on a LocalCluster the batch never started (a bystander), so it goes again,
    up to :data:`_DASK_RETRIES` times; on a remote cluster its cells go again one by one,
    and a cell lost twice alone is recorded.
    """
    tail = "; a resumed sweep runs this cell again"
    if started is not None and 0 <= started < len(batch):
        rest = batch[:started] + batch[started + 1:]
        return [infra_record(batch[started], "WorkerDied", why + tail)], ([(rest, 0)] if rest else [])
    if attempt < (1 if remote else _DASK_RETRIES) and not (remote and len(batch) > 1):
        return [], [(batch, attempt + 1)]
    if len(batch) > 1:
        return [], [([c], 0) for c in batch]
    return [infra_record(batch[0], "WorkerDied", why + tail)], []


def _close_dask(client: Any, cluster: Any, futures: list) -> None:
    """Cancel what is left, close the client and the LocalCluster quickly and quietly, a hanging cell included.

    The nannies are closed first with a short timeout (each terminates its worker
    process if it does not stop at once), so that no worker is restarted and a hanging
    task costs half a second, not Dask's graceful five.
    """
    import asyncio
    import io

    with signals_held(), contextlib.redirect_stderr(io.StringIO()):
        if client is not None:
            try:
                if futures:
                    client.cancel([f for f in futures if not f.done()])
                client.close(timeout=2)
            except Exception:  # noqa: BLE001 - closing after a fault: nothing more to do
                pass
        if cluster is None:
            return
        nannies = list(getattr(cluster, "workers", {}).values())
        processes = [getattr(getattr(getattr(n, "process", None), "process", None), "_process", None) for n in nannies]

        async def stop() -> None:
            await asyncio.gather(*(n.close(timeout=GRACE / 2, reason="sweep-closed") for n in nannies),
                                 return_exceptions=True)

        try:
            cluster.sync(stop)
        except Exception:  # noqa: BLE001
            pass
        try:
            cluster.close(timeout=5)
        except Exception:  # noqa: BLE001
            pass
        from mistakebound.interfaces.sweep.strays import end_group

        for process in processes:  # a worker its nanny could not stop: ours to end (the nannies run here)
            try:
                if process is not None and process.is_alive():
                    process.kill()
                    process.join(GRACE)
            except (OSError, ValueError, AssertionError):
                pass
            end_group(getattr(process, "pid", None))  # what its players started
