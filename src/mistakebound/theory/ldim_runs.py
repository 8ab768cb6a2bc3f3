"""What a Littlestone search hands its drivers: where it starts, a run under way, the bounds it proved.

:class:`LdimPlan` (:meth:`~mistakebound.theory.ldim_search.LdimSearch.plan`), :class:`LdimRun`
(:meth:`~mistakebound.theory.ldim_search.LdimSearch.running`) and :class:`LdimBounds`, the
:class:`~mistakebound.theory.search_protocol.SearchResult` every Littlestone question reports.

Examples
--------
>>> LdimBounds(lower=2, upper=3, status="budget", nodes=5, seconds=0.1).describe()
'2 <= Ldim <= 3 (partial: budget)'
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from attrs import define, field, frozen

from mistakebound.foundations.validation import check_int
from mistakebound.theory.search_protocol import SearchResult

__all__ = ["LdimBounds", "LdimPlan", "LdimRun"]


@frozen
class LdimPlan:
    """Where a search of ``Ldim(V)`` starts (:meth:`LdimSearch.plan`).

    Attributes
    ----------
    V : int
        The version space, a bitset over the search's distinct rows.
    splits : list of (int, int, int)
        One entry per distinct split of ``V`` (columns equal or complementary on ``V``
        count once): the size of the smaller side, the smaller side, and the column; most
        balanced first.
    lower, upper : int
        ``lower <= Ldim(V) <= upper``, proven before any search (-1 for the empty set).

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.theory.ldim_search import LdimSearch
    >>> search = LdimSearch(classes.singletons(4))
    >>> p = search.plan(0b0111)
    >>> p.splits, p.lower, p.upper
    ([(1, 1, 0), (1, 2, 1), (1, 4, 2)], 1, 1)
    """

    V: int
    splits: list = field(repr=False)
    lower: int
    upper: int


@define
class LdimRun:
    """A run of an :class:`LdimSearch`, as :meth:`LdimSearch.running` yields it.

    Attributes
    ----------
    search : LdimSearch
    outbox : list or None
        The facts the run publishes (with ``publish=True``), as for
        :meth:`LdimSearch.merge_proven`.
    started : float
        :func:`time.monotonic` when the run began.
    nodes_before : int
        The search's node count when the run began.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.theory.ldim_search import LdimSearch
    >>> search = LdimSearch(classes.intervals(8))
    >>> with search.running(publish=True) as run:
    ...     search.ldim(search.full)
    4
    >>> run.nodes > 0, len(run.take_facts()) > 0, run.take_facts()
    (True, True, [])
    """

    search: Any = field(repr=False)  # the LdimSearch
    outbox: list | None = field(default=None, repr=False)
    started: float = field(factory=time.monotonic)
    nodes_before: int = field(init=False)

    def __attrs_post_init__(self) -> None:
        self.nodes_before = self.search.nodes

    @property
    def nodes(self) -> int:
        """Nodes expanded since the run began."""
        return self.search.nodes - self.nodes_before

    @property
    def seconds(self) -> float:
        """Seconds since the run began."""
        return time.monotonic() - self.started

    def limit_nodes(self, n: int | None) -> None:
        """From now on, at most ``n`` more nodes (None: no node limit); only while the run lasts."""
        self.search._node_limit = None if n is None else self.search.nodes + check_int("n", n, 0)

    def publish(self) -> None:
        """From now on, collect the facts the search proves (for :meth:`take_facts`)."""
        if self.outbox is None:
            self.outbox = self.search._outbox = []

    def take_facts(self) -> list[tuple[int, int]]:
        """The facts published since the last call (and empties the outbox)."""
        out = self.outbox
        if not out:
            return []
        batch = out[:]
        out.clear()
        return batch


@frozen
class LdimBounds(SearchResult):
    """Proven bounds on a Littlestone dimension, from a search that may have stopped early.

    A :class:`~mistakebound.theory.search_protocol.SearchResult` (``lower``, ``upper``,
    ``status``, ``nodes``, ``seconds``; ``exact``, ``value``, ``describe()``) with one
    more field.

    Attributes
    ----------
    evictions : int
        Memo entries dropped during this call to stay within the memo's memory limit
        (the bounds stay proven; only time is lost).

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.theory.littlestone import littlestone_bounds
    >>> b = littlestone_bounds(classes.thresholds(7))
    >>> b.describe(), b.value, b.exact
    ('Ldim = 3', 3, True)
    """

    quantity: ClassVar[str] = "Ldim"

    evictions: int = 0
