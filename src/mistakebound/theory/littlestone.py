"""The Littlestone dimension, computed exactly, and the shattered trees that certify it.

``Ldim(V)`` is the depth of the deepest tree shattered by ``V`` (textbook Definitions
21.4 and 21.5).  It obeys the recursion

    Ldim(V) = 0                                       if no instance splits V,
    Ldim(V) = max over splitting x of 1 + min(Ldim(V_x^0), Ldim(V_x^1)),

where ``V_x^r`` holds the hypotheses of ``V`` labelling ``x`` with ``r``.  The textbook
recursion evaluates every branch; the exact search of
:class:`~mistakebound.theory.ldim_search.LdimSearch` answers the decision question "is
``Ldim(V) >= k``?" instead, with a memo of what it proved, and the shattered trees are read
off that memo (:mod:`mistakebound.theory.ldim_trees`).

This module holds the question's front doors: :func:`littlestone_dimension`,
:func:`littlestone_bounds` and :func:`shattered_tree`, each answered by the engine
:func:`ldim_engine` chooses from the budget and the request (the compiled search of
:mod:`mistakebound.theory.ldim_kernel`, alone or in the threads of
:mod:`mistakebound.theory.kernel_threads`, the Python search, or the Python search with the
worker processes of :mod:`mistakebound.theory.parallel`).  A tree or a certificate is read
off that engine too: the compiled search reads them in its run, under its budget
(:class:`LdimReading`), so no question is searched twice.  It also gives the names of the
search (:class:`LdimSearch`, :class:`LdimBounds`, ...) and :func:`is_shattered`, so one
import reaches the whole question.

Every search takes the budget of :mod:`mistakebound.theory.search_protocol` (``max_nodes``,
``time_limit``, Ctrl-C) and reports an :class:`LdimBounds`, a
:class:`~mistakebound.theory.search_protocol.SearchResult`; the functions that return a number or
a tree raise :class:`~mistakebound.theory.search_protocol.SearchIncomplete` or
:class:`~mistakebound.theory.search_protocol.SearchInterrupted` instead of returning a partial
one.

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

from types import EllipsisType
from typing import TYPE_CHECKING

from attrs import define, frozen

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_choice
from mistakebound.game.hypothesis_class import HypothesisClass, require_binary, require_class
import mistakebound.theory.kernel_threads as kernel_threads
import mistakebound.theory.ldim_kernel as ldim_kernel
from mistakebound.theory.ldim_search import (
    LdimBounds,
    LdimPlan,
    LdimRun,
    LdimSearch,
    default_memo_bytes,
    install_workers_engine,
    require_search_memory,
    search_memory_estimate,
)
from mistakebound.theory.ldim_trees import is_shattered
from mistakebound.theory.parallel import check_workers
from mistakebound.theory.search_protocol import Budget

if TYPE_CHECKING:  # networkx is imported where a tree is built: a value search never pays for it
    import networkx as nx

__all__ = [
    "ENGINES",
    "READS",
    "LdimBounds",
    "LdimEngine",
    "LdimPlan",
    "LdimReading",
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


#: The engines a Littlestone question can be answered by (see :func:`ldim_engine`).
ENGINES = ("compiled", "python", "parallel")

#: The budget of a question asked without one (a Budget is frozen: one serves every call,
#: and a small class's call does not pay for building and checking it each time).
_NO_BUDGET = Budget()


@frozen
class LdimReading:
    """What the compiled search read off its memo within its engine's one budget (:func:`~mistakebound.theory.ldim_kernel.kernel_tree`).

    Attributes
    ----------
    bounds : LdimBounds
        The run's, the value and the reading together: ``"exact"`` once the tree (and the
        refutation, when asked for) was read; else the proven bounds and the status of the
        stop (equal bounds when the value was found and the reading stopped).
    tree : tuple or None
        ``(instances, witnesses)``, the heap of a shattered tree of depth ``Ldim`` and the
        first row of ``H`` at each leaf; None unless ``bounds`` is exact.
    refutation : tuple or None
        The facts ``Ldim(V) <= b`` of ``kernel_tree``; None unless ``bounds`` is exact and
        the engine was asked for a certificate (``read="certificate"``).
    """

    bounds: LdimBounds
    tree: tuple | None = None
    refutation: tuple | None = None

    def shattered_tree(self, H: HypothesisClass) -> nx.DiGraph:
        """The tree read, as :func:`shattered_tree` gives it (``H`` the class searched); raises what stopped it.

        Raises
        ------
        SearchIncomplete, SearchInterrupted
            When the run stopped before the tree was read, with ``exc.result`` its bounds.
        """
        from mistakebound.theory.ldim_trees import heap_tree
        from mistakebound.theory.search_protocol import require_exact

        return heap_tree(H, require_exact(self.bounds).lower, *self.tree)


#: What an engine can be asked to read off its search besides the value (:func:`ldim_engine`'s ``read``).
READS = ("tree", "certificate")


@define
class LdimEngine:
    """The Littlestone search chosen for a question, ready to run: memory checked, nothing searched yet.

    Attributes
    ----------
    name : {"compiled", "python", "parallel"}
        The compiled search (:mod:`mistakebound.theory.ldim_kernel`), the Python search
        (:class:`LdimSearch`), or a search with ``workers`` workers: the compiled search in
        threads (:mod:`mistakebound.theory.kernel_threads`) when ``search`` is None, else
        the Python search with worker processes (:mod:`mistakebound.theory.parallel`).
    search : LdimSearch or None
        The Python search (None for the compiled one, until it falls back to Python).
    read : {None, "tree", "certificate"}
        What will be read off the search besides the value: a shattered tree, or a tree and
        the refutation a certificate needs.  The compiled search reads them in the same run,
        within the same budget (``reading``); the Python search keeps its memo (``search``).
    reading : LdimReading or None
        What the compiled search read, once :meth:`run` ran (None for the Python search).
    """

    H: HypothesisClass
    budget: Budget
    name: str
    workers: int | None = 1
    search: LdimSearch | None = None
    memo_bytes: int = 0
    available: int | None | EllipsisType = ...  # the memory budget as read when the engine was chosen
    read: str | None = None
    reading: LdimReading | None = None

    def run(self, V: int | None = None) -> LdimBounds:
        """Search within the budget; the compiled search falls back to Python when it cannot start.

        With ``read``, the compiled search reads the tree (and the refutation) in the same
        run, kept in :attr:`reading`; the bounds returned are the value's (exact when the
        value was found, whatever stopped the reading after it).
        """
        if self.search is None:  # the compiled search, in this thread or in ``workers`` threads
            if self.read is not None:  # ldim_engine gives a reading one thread
                found = ldim_kernel.kernel_tree(self.H, self.budget, self.memo_bytes,
                                                refutation=self.read == "certificate")
                if found is not None:
                    tree, refutation = found.pop("tree"), found.pop("refutation")
                    self.reading = LdimReading(LdimBounds(**found), tree, refutation)
                    if found["lower"] == found["upper"]:  # the value is proven even if the reading stopped
                        found["status"] = "exact"
                    return LdimBounds(**found)
            elif self.workers == 1:
                found = ldim_kernel.kernel_bounds(self.H, self.budget, self.memo_bytes)
            else:
                found = kernel_threads.threaded_bounds(self.H, self.budget, self.memo_bytes, threads=self.workers)
            if found is not None:
                return LdimBounds(**found)
            self.search = LdimSearch(self.H, available=self.available)
            self.name = "python" if self.workers == 1 else "parallel"
        return self.search.bounds(V, max_nodes=self.budget.max_nodes, time_limit=self.budget.time_limit,
                                  workers=self.workers)

    def tree(self, budget: Budget | None = None) -> nx.DiGraph:
        """A shattered tree of depth ``Ldim(H)``, read off this engine's search (run first if it has not run).

        What the compiled search read needs no budget; the Python search reads its memo
        within ``budget`` (default: the engine's), searching only what the memo lost, its
        value and its tree under that one budget (:meth:`LdimSearch.tree`).

        Raises
        ------
        InvalidArgumentError
            For an engine not asked to read (``read`` None).
        SearchIncomplete, SearchInterrupted
            When the search stopped before the tree was read, with ``exc.result``.
        """
        if self.read is None:
            raise InvalidArgumentError("tree: expected an engine asked to read a tree (ldim_engine(read='tree' or "
                                       "'certificate'), or keep_search=True)")
        if self.search is None and self.reading is None:
            self.run()
        if self.reading is not None:
            return self.reading.shattered_tree(self.H)
        budget = self.budget if budget is None else budget
        return self.search.tree(max_nodes=budget.max_nodes, time_limit=budget.time_limit)


def ldim_engine(H: HypothesisClass, *, budget: Budget | None = None, workers: int | None = 1,
                keep_search: bool = False, read: str | None = None) -> LdimEngine:
    """The engine that answers a Littlestone question on ``H``, chosen from the budget and the request.

    The compiled search when the install has it: for the value alone in ``workers``
    threads when ``workers`` asks for more than one
    (:mod:`mistakebound.theory.kernel_threads`); when something will be read off the search
    (``read``: ``"tree"``, or ``"certificate"``, the tree and the refutation; ``keep_search``
    means ``"certificate"``) in one thread, which reads it in the same run under the same
    budget (:func:`~mistakebound.theory.ldim_kernel.kernel_tree`).  Otherwise the Python
    search (without the extension, or to read with more than one worker), with worker
    processes when ``workers`` asks for them (:mod:`mistakebound.theory.parallel`; also
    where the install has no compiled threads), whose memo a tree or a certificate is read
    off.  ``workers`` is checked here
    (:func:`~mistakebound.theory.parallel.check_workers`: None is one per CPU).  The memory
    the search needs up front is checked here, before anything runs.  The doors take the
    first choice themselves for a small 0/1 class asked without a budget in one process (the
    compiled search, its fixed memo, no engine built: such a call costs little more than its
    search, ``python -m benchmarks.call_cost``).

    Raises
    ------
    InsufficientMemoryError
        When the search's bitsets would not fit (:func:`search_memory_estimate`).

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.theory import ldim_kernel
    >>> engine = ldim_engine(classes.thresholds(7), read="tree")
    >>> engine.name == ("compiled" if ldim_kernel.AVAILABLE else "python")
    True
    >>> engine.run().describe(), engine.tree().graph["depth"]
    ('Ldim = 3', 3)
    >>> ldim_engine(classes.thresholds(7), workers=2, keep_search=True).name
    'parallel'
    """
    H = require_binary(require_class(H), what="the Littlestone search of a 0/1 class (littlestone_bounds answers "
                                              "for more labels)")
    budget = budget or _NO_BUDGET
    workers = check_workers(workers)
    if read is not None:
        read = check_choice("read", read, READS)
    if keep_search:
        read = "certificate"
    name = "compiled" if workers == 1 else "parallel"
    # a reading runs in one thread: threads search a value alone
    if ldim_kernel.AVAILABLE if workers == 1 else read is None and kernel_threads.available():
        # a small matrix gets the compiled search's fixed memo, the memory budget unread; a larger
        # class must fit the budget as for LdimSearch (read once), and gets the same default memo
        # (one memo for all the threads: they share it)
        if _small(H):
            return LdimEngine(H, budget, name, workers=workers, memo_bytes=ldim_kernel.SMALL_MEMO_BYTES, read=read)
        available = require_search_memory(H)
        return LdimEngine(H, budget, name, workers=workers, memo_bytes=default_memo_bytes(available),
                          available=available, read=read)
    return LdimEngine(H, budget, "python" if workers == 1 else "parallel", workers=workers, search=LdimSearch(H),
                      read=read)


def _small(H: HypothesisClass) -> bool:
    """Whether the compiled search of ``H`` takes the fixed memo of a small matrix, the memory budget unread."""
    return H.matrix.size <= ldim_kernel.SMALL_MATRIX_BYTES


def _small_unbudgeted(H: object, max_nodes: object, time_limit: object, workers: object) -> dict | None:
    """The compiled search's answer on a small 0/1 class asked without a budget in one process, else None.

    The first choice of :func:`ldim_engine`, taken at the door without building a budget or
    an engine (a call on a small class costs little more than its search): None whenever
    :func:`ldim_engine` would choose otherwise or check anything, and then the door takes
    its ordinary way.
    """
    if (max_nodes is None and time_limit is None and workers == 1 and ldim_kernel.AVAILABLE
            and isinstance(H, HypothesisClass) and H.n_labels == 2 and _small(H)):
        return ldim_kernel.matrix_bounds(H.matrix, _NO_BUDGET, ldim_kernel.SMALL_MEMO_BYTES)
    return None


def littlestone_bounds(
    H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None,
    workers: int | None = 1,
) -> LdimBounds:
    """Proven lower and upper bounds on ``Ldim(H)`` within a budget of nodes and/or seconds.

    Without a budget the bounds are equal (the exact value).  Ctrl-C stops the search
    and returns the bounds proven so far, with ``status="interrupted"``.  ``workers``
    other than 1 has that many workers search, this one included (None: one per
    CPU): threads of the compiled search (:mod:`mistakebound.theory.kernel_threads`), or
    without it processes of the Python search (:mod:`mistakebound.theory.parallel`);
    measured in ``benchmarks/parallel_speedup.py``.  The engine is chosen by
    :func:`ldim_engine`, as for every Littlestone question.

    On a class of ``k > 2`` labels the bounds are those of the multiclass Littlestone
    dimension (Daniely, Sabato, Ben-David and Shalev-Shwartz 2011): the value of the
    full-information game on ``k`` labels, :func:`~mistakebound.theory.game_values.game_value`'s.

    Examples
    --------
    >>> from mistakebound import classes
    >>> littlestone_bounds(classes.thresholds(15)).describe()
    'Ldim = 4'
    >>> littlestone_bounds(classes.all_functions(3, 4)).describe()
    'Ldim = 3'
    >>> b = littlestone_bounds(classes.random(3000, 30, 0.3, seed=0), max_nodes=5)
    >>> b.exact, b.lower <= b.upper
    (False, True)
    """
    found = _small_unbudgeted(H, max_nodes, time_limit, workers)
    if found is not None:
        return LdimBounds(**found)
    # refused before anything is allocated
    budget = _NO_BUDGET if max_nodes is None and time_limit is None else Budget(max_nodes=max_nodes,
                                                                                  time_limit=time_limit)
    if isinstance(H, HypothesisClass) and H.n_labels != 2:
        # the multiclass Littlestone dimension: the value of the full-information game on k labels
        from mistakebound.game.rules import Rules
        from mistakebound.theory.game_values import game_value

        found = game_value(H, Rules(labels=H.n_labels), max_nodes=max_nodes, time_limit=time_limit)
        return LdimBounds(lower=found.lower, upper=found.upper, status=found.status, nodes=found.nodes,
                          seconds=found.seconds)
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
        Workers searching, this one included (default 1: this thread alone), as for
        :func:`littlestone_bounds`.

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
    mistakebound.theory.search_protocol.SearchIncomplete: search stopped (budget) after 5 nodes: 1 <= Ldim <= 10 (partial: budget)
    """
    found = _small_unbudgeted(H, max_nodes, time_limit, workers)
    if found is not None:  # the bounds object is built only when it is raised
        return found["lower"] if found["status"] == "exact" else LdimBounds(**found).value
    return littlestone_bounds(H, max_nodes=max_nodes, time_limit=time_limit, workers=workers).value


def shattered_tree(H: HypothesisClass, *, max_nodes: int | None = None,
                   time_limit: float | None = None) -> nx.DiGraph:
    """A complete binary tree of depth ``Ldim(H)`` shattered by ``H``.

    Nodes are numbered as in the textbook: the root is 1 and the children of node
    ``i`` are ``2i`` (reached by the edge with ``label=0``) and ``2i + 1``
    (``label=1``).  Internal nodes carry the attribute ``instance``; each leaf carries
    ``witness`` (the row index in ``H`` of a hypothesis consistent with the labels on
    its path: the first of ``H``'s rows that is) and ``witness_name``.  The graph attribute
    ``depth`` is the depth.  The tree is read off the search :func:`ldim_engine` chooses
    (``read="tree"``): the compiled search, which reads it in the same run, when the install
    has it; the Python search otherwise.  One budget covers the value and the tree.

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
    >>> from mistakebound.theory.search_protocol import SearchIncomplete
    >>> try:
    ...     shattered_tree(classes.random(3000, 30, 0.3, seed=0), max_nodes=5)
    ... except SearchIncomplete as exc:
    ...     exc.result.exact
    False
    """
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)  # refused before anything is allocated
    return ldim_engine(H, budget=budget, read="tree").tree()
