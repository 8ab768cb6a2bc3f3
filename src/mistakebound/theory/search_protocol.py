"""One protocol for every exact search: a budget, a result shape, and the way a search stops.

Every search of the theory layer (the Littlestone dimension, shattered trees, the VC
dimension, the randomized Littlestone dimension, a learner's worst case) takes the same
budget, :class:`Budget` (``max_nodes`` nodes and/or ``time_limit`` seconds; Ctrl-C
stops any of them, and so does running out of memory), and returns a
:class:`SearchResult`: proven ``lower`` and ``upper`` bounds on the quantity, a
``status`` (``"exact"``, ``"budget"``, ``"interrupted"`` or ``"memory"``), the
``witness`` that proves the lower bound (a shattered tree or set, the adversary's
line), and the ``nodes`` and ``seconds`` spent.  ``lower <=
upper`` always, and both are proven by the search itself: a lower bound is something
the search exhibited, an upper bound something it refuted (or a theorem about the
class), never a claim a player made.

The functions that return a bare number (``littlestone_dimension``, ``vc_dimension``,
...) call :func:`require_exact`, which raises :class:`SearchIncomplete` (out of budget)
or :class:`SearchInterrupted` (Ctrl-C) carrying the partial result, so that a partial
number is never returned as if it were exact.

Inside a search, :class:`Clock` counts nodes and watches the deadline and raises
:class:`OutOfBudget` when either runs out; :func:`run_within` turns that, or Ctrl-C,
into the result's status.  The clock is read at every node: a node of the Python searches
costs microseconds (tens of milliseconds on a class of 100,000 rows and 2,000 columns),
a read of :func:`time.monotonic` a tenth of one.

**One budget for every search of a step.**  A search can run others: a learner asks its
own Littlestone questions while the worst-case search plays it, a claim looks up the
class's Ldim.  Inside :func:`spending`, every search started, at any depth, stops by the
step's deadline as well as by its own (:func:`shared_deadline`); a search outside any
search's clock, such as a learner's own query, checks it node by node too.  After a
signal (:func:`stop_searches`, called by the command line's handler of Ctrl-C and
SIGTERM), every search that runs or starts stops at its next node as interrupted, so
that the command ends after the partial results it has instead of computing on.

**Memory.**  The memory a search may use is the one budget of
:mod:`mistakebound.foundations.memory` (the least of ``MemAvailable``, the cgroup limit,
``ulimit -v`` and ``MISTAKEBOUND_MEMORY_LIMIT``).  A search refuses to start
(:class:`~mistakebound.foundations.errors.InsufficientMemoryError`) when what it needs
up front cannot fit; its memo takes :data:`MEMO_FRACTION` of that budget by default
(:func:`memo_share`, the one place every search's default comes from), and a search
whose memo would outgrow it stops before allocating (it raises :class:`OutOfMemory`,
status ``"memory"``).  A search reads the budget once, when it starts, and passes what
it read to the checks and defaults below it (``available=``).  A ``MemoryError`` inside a search (the estimate was too low, or
another process took the memory) is caught the same way: the search stops with the
bounds it proved, status ``"memory"``, instead of dying.

Examples
--------
>>> budget = Budget(max_nodes=3)
>>> clock = budget.start()
>>> def search():
...     for _ in range(10):
...         clock.spend()
>>> run_within(search)
'budget'
>>> clock.nodes
3
>>> r = SearchResult(lower=2, upper=5, status="budget", nodes=3)
>>> r.exact, r.describe()
(False, '2 <= value <= 5 (partial: budget)')
>>> require_exact(r)
Traceback (most recent call last):
...
mistakebound.theory.search_protocol.SearchIncomplete: search stopped (budget) after 3 nodes: 2 <= value <= 5 (partial: budget)
>>> Budget(max_nodes=0)
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidArgumentError: max_nodes: expected None or an integer >= 1, got 0
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ClassVar

from attrs import define, field, frozen

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.foundations.json_format import json_value
from mistakebound.foundations.validation import check_choice, check_int, check_real

__all__ = [
    "MEMO_FRACTION",
    "STATUSES",
    "Budget",
    "Clock",
    "earliest",
    "OutOfBudget",
    "OutOfMemory",
    "SEARCH_STOPS",
    "SearchResult",
    "SearchIncomplete",
    "SearchInterrupted",
    "memo_share",
    "require_exact",
    "resume_searches",
    "run_within",
    "searches_stopped",
    "shared_deadline",
    "spending",
    "stop_searches",
]

#: What a search's ``status`` can be: finished; out of nodes or time; stopped by Ctrl-C;
#: out of memory.
STATUSES = ("exact", "budget", "interrupted", "memory")

#: The deadline that every search started in the current :func:`spending` step shares.
_DEADLINE: ContextVar[float | None] = ContextVar("mistakebound_search_deadline", default=None)
#: Whether a signal told every search to stop (:func:`stop_searches`): one flag for the process.
_STOPPED = [False]


@contextmanager
def spending(time_limit: float | None) -> Iterator[float | None]:
    """A step whose searches, a learner's own and a claim's included, all stop by ``time_limit`` seconds from now.

    Nested steps keep the earlier deadline.

    Yields
    ------
    float or None
        The step's deadline, a :func:`time.monotonic` time (None: no deadline).

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.theory.ldim_search import LdimSearch
    >>> search = LdimSearch(classes.random(3000, 30, 0.3, seed=0))
    >>> with spending(1e-9):  # a learner's query outside any search's own budget stops too
    ...     try:
    ...         search.at_least(search.full, 9)
    ...     except OutOfBudget:
    ...         print("stopped by the step's deadline")
    stopped by the step's deadline
    >>> shared_deadline() is None  # outside the step
    True
    """
    outer = _DEADLINE.get()
    mine = None if time_limit is None else time.monotonic() + _time_limit(time_limit)
    deadline = mine if outer is None else outer if mine is None else min(outer, mine)
    token = _DEADLINE.set(deadline)
    try:
        yield deadline
    finally:
        _DEADLINE.reset(token)


def shared_deadline() -> float | None:
    """The deadline of the current :func:`spending` step (a :func:`time.monotonic` time), or None."""
    return _DEADLINE.get()


def stop_searches() -> None:
    """Every search running or started after this stops at its next node as interrupted (a signal came)."""
    _STOPPED[0] = True


def searches_stopped() -> bool:
    """Whether a signal stopped every search (:func:`stop_searches`)."""
    return _STOPPED[0]


def resume_searches() -> None:
    """Undo :func:`stop_searches` (a new command starts in the same process)."""
    _STOPPED[0] = False


def earliest(*deadlines: float | None) -> float | None:
    """The earliest of the deadlines given (None: none), the step's shared one included."""
    found = [d for d in (*deadlines, _DEADLINE.get()) if d is not None]
    return min(found) if found else None

#: The fraction of the memory available that a search's memo may take by default (the
#: Ldim, randomized-Ldim and worst-case searches alike): a memo's estimate runs below the
#: search's peak (measured: by a factor of 2 to 5), so a quarter leaves room for the rest.
MEMO_FRACTION = 0.25


def memo_share(available: int | None) -> int | None:
    """The bytes a search's memo may take by default: :data:`MEMO_FRACTION` of ``available``.

    ``available`` is the memory budget as the search read it
    (:func:`~mistakebound.foundations.memory.available_memory`, read once when the search
    starts); None when it is unknown, and then None (each search says what it does
    without a limit).

    Examples
    --------
    >>> memo_share(4 * 2**30) == 2**30, memo_share(None)
    (True, None)
    """
    return None if available is None else int(available * MEMO_FRACTION)


def _max_nodes(value: Any) -> int | None:
    return check_int("max_nodes", value, 1, optional=True)


def _time_limit(value: Any) -> float | None:
    return check_real("time_limit", value, minimum=0.0, open_minimum=True, optional=True)


@frozen
class Budget:
    """What a search may spend: ``max_nodes`` nodes and/or ``time_limit`` seconds (None: no limit).

    Every search takes the two as keyword arguments of the same names and builds its
    budget with them, so they are validated in one place.

    Examples
    --------
    >>> Budget().unlimited, Budget(time_limit=2).unlimited
    (True, False)
    >>> Budget(time_limit=-1)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: time_limit: expected None or a finite number > 0, got -1
    """

    max_nodes: int | None = field(default=None, converter=_max_nodes)
    time_limit: float | None = field(default=None, converter=_time_limit)

    @property
    def unlimited(self) -> bool:
        """Whether neither a node budget nor a time limit is set."""
        return self.max_nodes is None and self.time_limit is None

    def start(self) -> Clock:
        """A :class:`Clock` running this budget from now."""
        return Clock(self)

    def remaining(self, spent: SearchResult) -> Budget:
        """What is left of this budget after a search that spent ``spent.nodes`` and ``spent.seconds``.

        Examples
        --------
        >>> Budget(max_nodes=10, time_limit=5.0).remaining(SearchResult(0, 1, "budget", nodes=4, seconds=1.5))
        Budget(max_nodes=6, time_limit=3.5)
        """
        nodes = None if self.max_nodes is None else max(self.max_nodes - spent.nodes, 1)
        seconds = None if self.time_limit is None else max(self.time_limit - spent.seconds, 1e-3)
        return Budget(max_nodes=nodes, time_limit=seconds)


@define
class Clock:
    """A budget being spent: counts nodes and raises :class:`OutOfBudget` when the budget runs out.

    ``spend()`` is for searches whose nodes cost far more than the call (the worst
    case, the randomized Littlestone dimension, the VC search); the Littlestone engine
    inlines the same test (``nodes > node_limit``, ``monotonic() > deadline``).

    Attributes
    ----------
    nodes : int
        Nodes spent so far.
    node_limit : int or None
        The node count past which the budget is spent.
    deadline : float or None
        The :func:`time.monotonic` time past which the budget is spent.
    """

    budget: Budget
    started: float = field(factory=time.monotonic)
    nodes: int = 0
    node_limit: int | None = field(init=False)
    deadline: float | None = field(init=False)

    def __attrs_post_init__(self) -> None:
        self.node_limit = self.budget.max_nodes
        own = None if self.budget.time_limit is None else self.started + self.budget.time_limit
        self.deadline = earliest(own)  # the step's shared deadline too (spending)

    def spend(self, n: int = 1) -> None:
        """Count ``n`` nodes; raise :class:`OutOfBudget` past the node budget or the deadline.

        Raises ``KeyboardInterrupt`` once a signal stopped every search (:func:`stop_searches`).
        """
        self.nodes += n
        if self.node_limit is not None and self.nodes > self.node_limit:
            self.nodes = self.node_limit  # a node past the budget is neither expanded nor counted
            raise OutOfBudget
        self.check_time()

    def check_time(self) -> None:
        """Raise :class:`OutOfBudget` past the deadline (for long stretches of work between nodes), and
        ``KeyboardInterrupt`` once a signal stopped every search."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfBudget
        if _STOPPED[0]:
            raise KeyboardInterrupt

    @property
    def seconds(self) -> float:
        """Seconds since the clock started."""
        return time.monotonic() - self.started


class OutOfBudget(Exception):
    """Raised inside a search when its :class:`Budget` is spent (caught by the search itself)."""


#: What a player's call inside a search may raise that stops the search instead of being the player's
#: fault: the machine's memory ran out, or a search the player ran for itself reached the step's
#: deadline (:func:`spending`).
SEARCH_STOPS = (MemoryError, OutOfBudget)


class OutOfMemory(OutOfBudget):
    """Raised inside a search whose memo would outgrow its memory budget, before it allocates.

    :func:`run_within` reports it as the status ``"memory"``.
    """


def run_within(search: Callable[[], Any]) -> str:
    """Run ``search()`` and return the status it ended with.

    ``"exact"`` when it returned, ``"budget"`` when it raised :class:`OutOfBudget`,
    ``"interrupted"`` on Ctrl-C (``KeyboardInterrupt``), ``"memory"`` when it raised
    :class:`OutOfMemory` or ``MemoryError``.  The search keeps whatever it proved in its
    own state; the caller reads it after this returns (a search that ran out of memory
    should free what it can first: the caller may have more to do).

    Examples
    --------
    >>> def greedy():
    ...     raise MemoryError
    >>> run_within(greedy)
    'memory'
    """
    try:
        search()
    except OutOfMemory:
        return "memory"
    except OutOfBudget:
        return "budget"
    except KeyboardInterrupt:
        return "interrupted"
    except MemoryError:
        return "memory"
    return "exact"


def _bounds_and_status(instance: Any, attribute: Any, value: Any) -> None:
    """``lower <= upper``, then a known status, equal bounds when exact: one validator, one call per result."""
    lower, upper = instance.lower, instance.upper
    if lower > upper:
        raise InvalidArgumentError(
            f"upper: a search result needs lower <= upper, got lower = {lower!r} > upper = {upper!r}"
        )
    if value == "exact":
        if lower != upper:
            raise InvalidArgumentError(
                f"status: an exact result needs lower == upper, got lower = {lower!r}, upper = {upper!r}"
            )
    else:
        check_choice("status", value, STATUSES)


@frozen
class SearchResult:
    """What a search proved: ``lower <= quantity <= upper``, equal when it finished.

    Every search's result has this shape (its own subclass names the quantity and may
    add fields: :class:`~mistakebound.theory.littlestone.LdimBounds`,
    :class:`~mistakebound.theory.vc.VCBounds`,
    :class:`~mistakebound.theory.randomized_ldim.RLdimBounds`,
    :class:`~mistakebound.theory.worst_case.WorstCase`).

    Attributes
    ----------
    lower, upper : int, fractions.Fraction or float
        Proven bounds (``math.inf`` for an unbounded upper side); ``lower <= upper``.
    status : {"exact", "budget", "interrupted", "memory"}
        Whether the search finished (then ``lower == upper``), ran out of its budget
        (nodes or time), was stopped by Ctrl-C, or ran out of memory.
    witness
        What proves ``lower`` (a shattered tree or set, the adversary's line), or None.
    nodes : int
        Nodes expanded.
    seconds : float
        Wall time.
    """

    #: The name of the quantity, in :meth:`describe`.
    quantity: ClassVar[str] = "value"

    lower: Any
    upper: Any
    status: str = field(default="exact", validator=_bounds_and_status)
    witness: Any = field(default=None, eq=False, repr=False)
    nodes: int = 0
    seconds: float = field(default=0.0, eq=False)

    @property
    def exact(self) -> bool:
        """Whether the search finished (then ``lower == upper``)."""
        return self.status == "exact"

    @property
    def value(self) -> Any:
        """The exact value; raises :class:`SearchIncomplete` or :class:`SearchInterrupted` if partial."""
        return require_exact(self).lower

    def describe(self) -> str:
        """``"Ldim = 4"`` or ``"3 <= Ldim <= 5 (partial: budget)"``."""
        if self.exact:
            return f"{self.quantity} = {self.lower}"
        return f"{self.lower} <= {self.quantity} <= {self.upper} (partial: {self.status})"

    def record(self) -> dict:
        """What the search proved as JSON can hold it: the quantity, ``value`` (None unless exact), the bounds,
        the status, nodes and seconds; an exact fraction as its text (``"139/64"``), an infinite bound as
        ``"inf"``.

        Examples
        --------
        >>> SearchResult(2, 5, "budget", nodes=7, seconds=0.5).record()
        {'quantity': 'value', 'value': None, 'lower': 2, 'upper': 5, 'status': 'budget', 'nodes': 7, 'seconds': 0.5}
        >>> from fractions import Fraction
        >>> SearchResult(Fraction(3, 4), Fraction(3, 4)).record()["value"]
        '3/4'
        """
        return {"quantity": self.quantity, "value": json_value(self.lower) if self.exact else None,
                "lower": json_value(self.lower), "upper": json_value(self.upper), "status": self.status,
                "nodes": int(self.nodes), "seconds": round(float(self.seconds), 6)}


class SearchIncomplete(MistakeboundError):
    """A search ran out of its budget (nodes, time or memory) before finishing; ``.result`` holds what it proved."""

    def __init__(self, result: SearchResult):
        super().__init__(f"search stopped ({result.status}) after {result.nodes} nodes: {result.describe()}")
        self.result = result


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a search; ``.result`` holds what it proved."""

    def __init__(self, result: SearchResult):
        super().__init__(f"interrupted after {result.nodes} nodes: {result.describe()}")
        self.result = result


def require_exact(result: SearchResult) -> SearchResult:
    """``result`` when the search finished; else raise what it proved.

    Raises
    ------
    SearchInterrupted
        For a search stopped by Ctrl-C, carrying ``result``.
    SearchIncomplete
        For a search out of budget or out of memory, carrying ``result``.
    """
    if result.status == "interrupted":
        raise SearchInterrupted(result)
    if not result.exact:
        raise SearchIncomplete(result)
    return result
