"""The compiled Littlestone search: the value of ``Ldim(H)``, when no tree is asked for.

:func:`~mistakebound.theory.littlestone.littlestone_bounds` (and so
``littlestone_dimension`` and ``mistakebound ldim``) hands a one-process search to the C
extension ``mistakebound.theory._ldim_kernel`` when it is built.  The extension runs the
exact search of :class:`~mistakebound.theory.littlestone.LdimSearch`'s bitset memo
(distinct rows, distinct splits tried most balanced first and the smaller side first, a
split cut as soon as ``1 + floor(log2 s) < k``, the splitting columns passed down, a
memo of proven lower and upper bounds per version space, descending from the upper bound)
at about a microsecond a node instead of tens, with the same budget: ``max_nodes``,
``time_limit`` (checked every 16 nodes) and Ctrl-C (checked every 5 ms), reporting proven
bounds and a status as every search does.

Three things make its cost follow the version spaces rather than the class (issue 26):

* before any search, the bounds ``floor(log2 |distinct rows|)``, ``1 + floor(log2 s)`` of
  the most balanced split, and the number of distinct splits (columns not constant, one
  per pair of equal or complementary ones: no path of a shattered tree asks two of a
  pair); when the distinct rows are every labelling of one column per split, that number
  is the value and no search runs (the full cube ``2^18 x 18``, in any column order);
* the rows are renumbered first (columns most balanced first, rows sorted by their labels
  read in that order), so the first splits cut runs of consecutive rows whatever order the
  class came in;
* a version space small against the words its bitset spans goes on in a compact copy (its
  rows renumbered, its splitting columns projected: ``MB_COMPACT_RATIO`` in the C), and the
  memo keys every version space by its rows in the class's numbering (its words, or its
  non-empty words as pairs, the shorter), so a key's size follows what it holds.

The search runs without the GIL: other threads run meanwhile, and searches in two threads
run on two cores.  ``python -m benchmarks.kernel_shapes`` measures all of this.  Several
threads also search one class together (``workers=N``: the root's splits shared out, one
memo, :mod:`mistakebound.theory.kernel_threads`).

Shattered trees and the facts of Ldim certificates are read off the compiled search's memo
too (:func:`kernel_tree`): once the search has proven ``Ldim(H) = d``, the C reads a tree of
depth ``d`` (at each node the first split, in the search's order, whose two sides are proven
of Ldim ``>= d - 1``: memo hits, or further decisions within the same budget) and a
refutation of ``Ldim(H) >= d + 1`` (every splitting column answered by a side of Ldim
``<= b - 1``, down to ``log2`` steps), both in the caller's rows and columns.
:func:`~mistakebound.theory.littlestone.ldim_engine` runs it, once and under the one budget,
whenever a tree or a certificate will be read (``read=``, ``keep_search=True``):
:func:`~mistakebound.theory.littlestone.shattered_tree`,
:func:`~mistakebound.theory.ldim_certificate.ldim_certificate` and the profile's ``tree()`` and
``certificate()`` (so ``mistakebound ldim --tree``, ``--certificate`` and ``dims --witness``)
read what that run kept.  What stays in Python: the search with worker processes (no
compiler, or a tree read with more than one worker), trees and certificates asked of a kept
:class:`~mistakebound.theory.littlestone.LdimSearch` (its witnesses, canonical forms and runs),
and a learner's questions on small version spaces.  A question a learner (SOA) asks of an
``LdimSearch`` outside a run, on a version space of
:data:`~mistakebound.theory.ldim_search.COMPILED_MIN` distinct rows or more, goes to this
search on the sub-class of its rows (:func:`matrix_bounds`), and what it proves goes into
that search's memo, so a repeated question is a memo hit (``python -m
benchmarks.soa_questions`` measures both).  Without a C
compiler the package installs without the extension (it is optional), as it does with
``MISTAKEBOUND_NO_EXTENSION=1`` set at install (``setup.py``), and every search runs in
Python; :data:`AVAILABLE` says which, and :func:`engine_description` says it to the user
(``mistakebound --version``, and ``mistakebound ldim`` when the Python search ran).

Memory: the matrix of ``H`` already holds ``n * m`` bytes; the extension's bitsets take
an eighth of that (and as much again for the rows' labels and the compact copies), and its
memo grows by doubling up to a limit.  For a matrix of at
most :data:`SMALL_MATRIX_BYTES` the limit is :data:`SMALL_MEMO_BYTES` and the memory
budget is not read (reading it costs more than such a search); for a larger one the
class must pass :func:`~mistakebound.foundations.memory.require_memory` as for
:class:`~mistakebound.theory.littlestone.LdimSearch`, and the memo takes that search's
default share of the budget.  A full memo is emptied, never outgrown: answers stay exact.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.theory.search_protocol import Budget
>>> r = kernel_bounds(classes.thresholds(15), Budget(), SMALL_MEMO_BYTES)
>>> AVAILABLE == (r is not None)
True
>>> r is None or (r["lower"], r["upper"], r["status"]) == (4, 4, "exact")
True
>>> engine_description().startswith("the compiled" if AVAILABLE else "the Python")
True
"""

from __future__ import annotations

import time
from typing import Any

from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.search_protocol import STATUSES, searches_stopped, shared_deadline

try:  # built from _ldim_kernel.c when a C compiler was there at install time
    import mistakebound.theory._ldim_kernel as _kernel
except ImportError:  # pragma: no cover - depends on the install
    _kernel = None

__all__ = ["AVAILABLE", "SMALL_MATRIX_BYTES", "SMALL_MEMO_BYTES", "engine_description", "kernel_bounds", "kernel_limits",
           "kernel_tree", "matrix_bounds"]

#: Whether the compiled search is installed.
AVAILABLE: bool = _kernel is not None

#: A matrix of at most this many bytes is searched without reading the memory budget.
SMALL_MATRIX_BYTES = 1 << 16

#: The memo limit of such a search.
SMALL_MEMO_BYTES = 64 << 20


def engine_description() -> str:
    """Which Littlestone search this install runs, as the user reads it: the one place that says it.

    ``mistakebound --version`` prints it, and ``mistakebound ldim`` when its Ldim search ran
    in Python for want of the extension.  Read when called, so that it follows
    :data:`AVAILABLE` (which tests turn off).
    """
    if AVAILABLE:
        return "the compiled Littlestone search (C extension)"
    return ("the Python Littlestone search: the C extension was not built (no C compiler at install, or "
            "MISTAKEBOUND_NO_EXTENSION set); searches are 5 to 10 times slower")

#: A node budget the compiled search takes as it is (a C long long); a larger one is as
#: good as none (2^62 nodes are centuries of search).
NODES_UNLIMITED = 1 << 62


def kernel_bounds(H: HypothesisClass, budget: Any, memo_bytes: int) -> dict | None:
    """Proven bounds on ``Ldim(H)`` from the compiled search within ``budget``, or None.

    ``memo_bytes`` limits the memo (the caller,
    :func:`~mistakebound.theory.littlestone.littlestone_bounds`, takes it from the memory
    budget as said above).  None when the extension is not installed (or
    :data:`AVAILABLE` was turned off), or when it could not even start for lack of
    memory: the caller then runs the Python search, which has its own ways with memory.
    Otherwise a dict with ``lower``, ``upper``, ``status``, ``nodes`` and ``seconds``.
    A Ctrl-C during the search gives status ``"interrupted"``; any other exception a
    signal handler raised is raised.
    """
    return matrix_bounds(H.matrix, budget, memo_bytes)


def matrix_bounds(M: Any, budget: Any, memo_bytes: int) -> dict | None:
    """:func:`kernel_bounds` of the class whose matrix is ``M`` (0/1, ``n x m``, ``n >= 1``), built by nobody.

    For a search that asks about a sub-class, the rows of a version space gathered
    (:meth:`~mistakebound.theory.ldim_search.LdimSearch.at_least` does): the same
    budget rules (``budget``, the step's shared deadline, a signal), the same dict.

    Examples
    --------
    >>> import numpy as np
    >>> from mistakebound.theory.search_protocol import Budget
    >>> r = matrix_bounds(np.eye(4, dtype=np.uint8), Budget(), SMALL_MEMO_BYTES)
    >>> r is None or (r["lower"], r["upper"]) == (1, 1)
    True
    """
    if not AVAILABLE:
        return None
    return _run(_kernel.ldim_bounds, M, budget, memo_bytes)


def kernel_tree(H: HypothesisClass, budget: Any, memo_bytes: int, *, refutation: bool = False) -> dict | None:
    """:func:`kernel_bounds`, and once the value is exact, a shattered tree read off the compiled search.

    The same budget covers the value and the reading.  The dict has, besides the bounds,
    ``tree``: ``(instances, witnesses)``, ``instances[h]`` the column of ``H`` asked at node
    ``h`` (textbook numbering: root 1, children ``2h`` on label 0 and ``2h + 1`` on label 1;
    ``instances[0]`` unused) and ``witnesses[i]`` the row of ``H`` at leaf ``2^d + i`` (the
    first of ``H``'s rows reaching it); and with ``refutation``, ``refutation``: ``(values,
    starts, counts, entries)``, facts ``Ldim(V_k) <= values[k]`` whose last is the class's,
    each ``"log2"`` (``starts[k] < 0``) or ``counts[k]`` triples ``(column, label, fact)`` from
    ``entries[starts[k]]`` (one column of ``H`` per split of the class's columns, the first of
    those equal or complementary to it, answered by the side of that label; by column).  A
    ``"log2"`` fact below the class's is cited by every side of fewer than ``2^(b+1)`` rows
    (``b`` its value), each side to be counted in place; any other fact is one
    version space's, found from the class's down the (column, label) parts.  Both are None
    unless the status is ``"exact"`` (the reading out of budget leaves exact bounds with the
    status of its stop).  None, as for :func:`kernel_bounds`, when the compiled search cannot
    answer.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.theory.search_protocol import Budget
    >>> r = kernel_tree(classes.thresholds(3), Budget(), SMALL_MEMO_BYTES)
    >>> r is None or (r["lower"], r["tree"]) == (2, ([0, 1, 0, 2], [0, 1, 2, 3]))
    True
    """
    if not AVAILABLE:
        return None
    return _run(_kernel.ldim_tree, H.matrix, budget, memo_bytes, True, refutation)


def _run(entry: Any, M: Any, budget: Any, memo_bytes: int, *extra: Any) -> dict | None:
    """Run a compiled entry (``ldim_bounds`` or ``ldim_tree``) on ``M`` within ``budget``: the one place of its rules."""
    n, m = M.shape
    max_nodes, time_limit, stopped = kernel_limits(budget)
    t0 = time.perf_counter()
    lower, upper, code, nodes, _distinct, exc, _memo, *read = entry(
        M, n, m, max_nodes, time_limit, memo_bytes, *extra,
    )
    seconds = time.perf_counter() - t0
    if exc is not None and not isinstance(exc, KeyboardInterrupt):
        raise exc
    if lower > upper:  # out of memory before the search began
        return None
    status = "interrupted" if stopped and lower < upper else STATUSES[code]  # the C's status codes are their positions
    found = {"lower": lower, "upper": upper, "status": status, "nodes": nodes, "seconds": seconds}
    if read:
        found["tree"], found["refutation"] = read
    return found


def kernel_limits(budget: Any) -> tuple[int, float, bool]:
    """The extension's ``max_nodes`` and ``time_limit`` for ``budget`` (-1: none), and whether a signal stopped searches.

    The step's shared deadline binds the compiled search too, and after a signal it only
    reports the bounds it proves before any node (``search_protocol.spending``,
    ``stop_searches``): ``max_nodes`` is 0 then.  One place for every caller of the
    extension (:func:`matrix_bounds`, the threads of
    :mod:`~mistakebound.theory.kernel_threads`).

    Examples
    --------
    >>> from mistakebound.theory.search_protocol import Budget
    >>> kernel_limits(Budget(max_nodes=10))
    (10, -1.0, False)
    """
    stopped = searches_stopped()
    limit, deadline = budget.time_limit, shared_deadline()
    if deadline is not None:
        left = max(deadline - time.monotonic(), 0.0)
        limit = left if limit is None else min(limit, left)
    max_nodes = 0 if stopped else -1 if budget.max_nodes is None else min(budget.max_nodes, NODES_UNLIMITED)
    return max_nodes, -1.0 if limit is None else limit, stopped
