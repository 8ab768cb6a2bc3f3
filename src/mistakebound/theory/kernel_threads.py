"""The compiled Littlestone search in several threads: what ``workers=N`` runs when the extension is built.

``Ldim(H)`` is the largest ``k`` for which some split ``(H_x^0, H_x^1)`` of the class has
both sides of Littlestone dimension ``>= k - 1``.  :func:`threaded_bounds` has ``N``
threads (this one included) each run the compiled search of
:mod:`mistakebound.theory.ldim_kernel` (which holds no GIL while it searches, so the
threads run on ``N`` cores), descending from the upper bound together:

* at each level ``k`` a thread claims the root's splits one at a time, its own share first
  (splits ``i, i + N, i + 2N, ...`` of the most-balanced-first order, so that it meets
  again the sides it searched a level higher), then whatever split is still unclaimed, and
  answers "are both sides ``>= k - 1``?" for it;
* the threads share one memo (a spin lock guards it: a look-up or a store takes a fraction of
  a node's microseconds), so a sub-class one thread proved something of is a memo hit for
  the others: the threads together expand about as many nodes as one search alone (within
  a few percent, ``benchmarks/parallel_speedup.py``; with a memo each, each thread
  expanded almost all of them);
* a proven lower bound and the lowest refuted level are cells every thread reads and
  raises: a thread proving its level (a split with both sides holding) raises the lower
  bound, and a thread on a level another one proved stops within 16 nodes.  A level is
  refuted once all its splits are claimed and refuted, whichever threads did it.

The budget is the serial search's (:func:`~mistakebound.theory.ldim_kernel.kernel_limits`):
``max_nodes`` is one pool all threads take from (64 nodes at a time, never more than
``max_nodes`` in total), ``time_limit`` and the step's shared deadline bind every thread,
and a Ctrl-C stops them all, here with the proven bounds and ``status="interrupted"``.  The
memo budget is the serial search's, for the one shared memo.  The result is exact when the
threads' bounds meet, as they do whenever no budget stopped a thread; otherwise it holds the
proven bounds and the status that stopped them.

The extension's threads need atomic operations (GCC, clang, MSVC): :data:`THREADS` says
whether its build has them, and :func:`available` whether they run here (the extension
installed and :data:`~mistakebound.theory.ldim_kernel.AVAILABLE` on); where they do not,
:func:`~mistakebound.theory.littlestone.ldim_engine` gives ``workers`` to the Python search
with worker processes (:mod:`mistakebound.theory.parallel`).  Tests turn either off.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.theory.search_protocol import Budget
>>> r = threaded_bounds(classes.thresholds(15), Budget(), 1 << 20, threads=2)
>>> available() == (r is not None)
True
>>> r is None or (r["lower"], r["upper"], r["status"]) == (4, 4, "exact")
True
"""

from __future__ import annotations

import threading
import time
from typing import Any

from mistakebound.game.hypothesis_class import HypothesisClass
import mistakebound.theory.ldim_kernel as ldim_kernel
from mistakebound.theory.search_protocol import STATUSES

__all__ = ["THREADS", "available", "threaded_bounds"]

#: Whether the extension's build has the atomic operations its threads share cells with.
THREADS: bool = bool(getattr(ldim_kernel._kernel, "THREADS", 0))


def available() -> bool:
    """Whether ``workers`` runs the compiled search in threads here; read when called (tests turn it off)."""
    return ldim_kernel.AVAILABLE and THREADS


def threaded_bounds(H: HypothesisClass, budget: Any, memo_bytes: int, *, threads: int,
                    stats: dict | None = None) -> dict | None:
    """Proven bounds on ``Ldim(H)`` from ``threads`` threads of the compiled search within ``budget``, or None.

    Parameters
    ----------
    H : HypothesisClass
        A 0/1 class.
    budget : Budget
        ``max_nodes`` in total over the threads, ``time_limit`` for the call.
    memo_bytes : int
        The limit of the memo the threads share.
    threads : int
        Threads searching, this one included, ``>= 1``.
    stats : dict, optional
        Receives ``thread_cpu`` (each thread's CPU seconds, this one's first) and
        ``thread_nodes``.

    Returns
    -------
    dict or None
        ``lower``, ``upper``, ``status``, ``nodes`` (the threads' sum) and ``seconds``, as
        :func:`~mistakebound.theory.ldim_kernel.kernel_bounds` returns; None when the
        threads cannot run here (:func:`available` false) or none could start for lack of
        memory: the caller runs the Python search then.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.theory.search_protocol import Budget
    >>> r = threaded_bounds(classes.random(3000, 30, 0.3, seed=0), Budget(max_nodes=5), 1 << 20, threads=2)
    >>> r is None or (r["status"], r["lower"] <= r["upper"], r["nodes"] <= 5) == ("budget", True, True)
    True
    """
    if not available():
        return None
    kernel = ldim_kernel._kernel
    M = H.matrix
    n, m = M.shape
    max_nodes, time_limit, stopped = ldim_kernel.kernel_limits(budget)
    coop = bytearray(kernel.coop_bytes(m))  # zeroed: the cells the threads share
    results: list[tuple | None] = [None] * threads
    cpu = [0.0] * threads

    def search(i: int) -> None:
        start = time.thread_time()
        results[i] = kernel.ldim_bounds(M, n, m, max_nodes, time_limit, memo_bytes, kernel.COMPACT_RATIO,
                                        coop, i, threads)
        cpu[i] = time.thread_time() - start

    def helper(i: int, finished: threading.Event) -> None:
        try:
            search(i)
        finally:
            finished.set()

    # waited for with events, not Thread.join: a join that a Ctrl-C interrupted takes the thread for
    # finished on CPython 3.11 (the next join returns at once, the thread still running)
    t0 = time.perf_counter()
    started: list[tuple[threading.Thread, threading.Event]] = []
    interrupted = False
    try:
        for i in range(1, threads):
            finished = threading.Event()
            thread = threading.Thread(target=helper, args=(i, finished), name=f"mistakebound-ldim-thread-{i}",
                                      daemon=True)
            try:
                thread.start()
            except RuntimeError:  # no more threads here: those started claim every split anyway
                break
            started.append((thread, finished))
        search(0)  # this thread's search runs the signal handlers (Ctrl-C) for all of them
        for _, finished in started:
            finished.wait()
    except KeyboardInterrupt:  # while starting or waiting for the others: they stop at their next check
        interrupted = True
        kernel.coop_stop(coop)
        for _, finished in started:
            finished.wait()
    for thread, _ in started:  # their searches have returned: they are ending
        thread.join()
    seconds = time.perf_counter() - t0
    done = [r for r in results if r is not None]
    for r in done:
        if r[5] is not None and not isinstance(r[5], KeyboardInterrupt):
            raise r[5]
    ran = [r for r in done if r[0] <= r[1]]  # the others could not start for lack of memory
    if not ran:
        if interrupted:  # before any search began: as a Ctrl-C before the serial search's call
            raise KeyboardInterrupt
        return None
    if stats is not None:
        stats.update(thread_cpu=cpu, thread_nodes=[0 if r is None else r[3] for r in results])
    lower, upper = max(r[0] for r in ran), min(r[1] for r in ran)
    codes = {STATUSES[r[2]] for r in done}
    if lower == upper:
        status = "exact"
    elif interrupted or stopped or "interrupted" in codes:
        status = "interrupted"
    elif "memory" in codes or len(ran) < len(done):
        status = "memory"
    else:
        status = "budget"
    return {"lower": lower, "upper": upper, "status": status, "nodes": sum(r[3] for r in done), "seconds": seconds}
