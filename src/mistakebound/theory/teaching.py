"""Teaching: the teaching dimension, the minimum teaching set size and the recursive teaching dimension.

A **teaching set** of a hypothesis ``h`` of a class is a set of instances on which ``h`` is
the only hypothesis of the class that agrees with ``h``: shown those instances with
``h``'s labels, a learner who knows the class knows ``h``.  Its smallest size is
``TS(h)``.

* The **teaching dimension** (Goldman and Kearns 1995; the database's
  ``teaching_dimension``, equal to its ``maximum_teaching_set_size``) is the largest
  ``TS(h)`` over the class: :func:`teaching_dimension_bounds`.
* The **minimum teaching set size** (the database's ``minimum_teaching_set_size``) is the
  smallest: :func:`minimum_teaching_set_bounds`.
* The **recursive teaching dimension** (Zilles, Lange, Holte and Zinkevich 2011) peels the
  class in layers: the hypotheses of smallest ``TS`` within what is left form the next
  layer, and the largest of those layers' values is ``RTD``:
  :func:`recursive_teaching_bounds`.  ``RTD <= TD``, and ``RTD <= Ldim``: every class has a
  hypothesis taught by ``Ldim`` examples (follow, from the root, the side of smaller
  Littlestone dimension of an instance splitting what is left: it drops by one each time),
  and a layer's class is a subclass.

**Duplicated hypotheses.**  Two hypotheses with the same labels everywhere can never be
told apart, so read literally no teaching set exists for either.  The class is read here
as the database reads it, a family of sets: duplicates are one concept, taught by the
teaching set of their labels, and reported under the first of them.  A class of one
concept has every parameter 0 (the empty set teaches it).

**The search.**  ``TS(h)`` is the least number of instances covering every other concept,
an instance covering the concepts that label it differently from ``h``: a set cover.

* A concept differing from ``h`` on one instance only (a neighbour in the one-inclusion
  graph, :mod:`~mistakebound.theory.one_inclusion`) can only be covered by that instance:
  those instances are in every teaching set, and often already cover everything (on
  thresholds, the cube, intervals, every ``TS(h)`` is settled this way).
* What they leave is covered by an exact search over a budget, deepening: "is there a cover
  of ``k`` more instances?" for ``k`` from a lower bound (concepts no instance covers two
  of, counted greedily) up, each "no" a proven lower bound; the search branches on the
  concept with fewest instances covering it, and a greedy cover gives the upper bound.
* Equal and complementary columns, and constant ones, are dropped first (they teach the
  same); the teaching sets found are reported on the class's own instances.

With a budget (``max_nodes``, ``time_limit``) or on Ctrl-C, every function returns proven
bounds: a teaching set of each concept bounds ``TD`` above (and ``TSmin`` above with one),
what a concept's search refuted bounds it below.

Examples
--------
>>> from mistakebound import classes
>>> H = classes.thresholds(8)
>>> teaching_dimension(H), minimum_teaching_set_size(H), recursive_teaching_dimension(H)
(2, 1, 1)
>>> H = classes.singletons(4, include_empty=True)
>>> teaching_dimension(H), minimum_teaching_set_size(H), recursive_teaching_dimension(H)
(4, 1, 1)
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.validation import check_instance, check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.littlestone import LdimBounds
from mistakebound.theory.one_inclusion import _edges, neighbour_lists
from mistakebound.theory.search_protocol import Clock, SearchResult, require_exact, run_within
from mistakebound.theory.table_reduction import ReducedTable, start_search

__all__ = [
    "MinTeachingBounds",
    "RecursiveTeachingBounds",
    "TeachingBounds",
    "TeachingLayer",
    "TeachingPlan",
    "TeachingSet",
    "TeachingSets",
    "minimum_teaching_set_bounds",
    "minimum_teaching_set_size",
    "recursive_teaching_bounds",
    "recursive_teaching_dimension",
    "smallest_teaching_set",
    "teaching_dimension",
    "teaching_dimension_bounds",
]


# ------------------------------------------------------------------ witnesses
@frozen
class TeachingSet:
    """Instances on which ``hypothesis`` is the only concept of the class (or of a layer) agreeing with it.

    Attributes
    ----------
    hypothesis : int
        Index in the class (the first hypothesis with those labels).
    instances : tuple
        The instances, in domain order; shown with the hypothesis's labels they teach it.

    Examples
    --------
    >>> TeachingSet(hypothesis=2, instances=(3, 4)).size
    2
    """

    hypothesis: int
    instances: tuple = ()

    @property
    def size(self) -> int:
        """The number of instances."""
        return len(self.instances)


@frozen
class TeachingSets:
    """The witness of a teaching dimension: a teaching set per concept, and the hardest concept.

    Attributes
    ----------
    sets : tuple of TeachingSet
        One teaching set for each concept (distinct row), in the class's order: the
        largest of them bounds the teaching dimension above.
    hardest : int or None
        A hypothesis whose teaching sets all have at least ``lower`` instances (proven by
        the search), None for an empty witness.
    """

    sets: tuple = ()
    hardest: int | None = None


@frozen
class TeachingLayer:
    """One layer of a recursive teaching plan: its value and a smallest teaching set of each of its concepts.

    The teaching sets teach within the layer's class: the concepts not in earlier layers.
    """

    value: int
    sets: tuple = ()


@frozen
class TeachingPlan:
    """The witness of a recursive teaching dimension: the layers, in order.

    Each concept lies in exactly one layer of a complete plan; a partial plan (a search
    that stopped) holds the layers completed.
    """

    layers: tuple = ()


@frozen
class TeachingBounds(SearchResult):
    """Proven bounds on a teaching dimension; the witness is :class:`TeachingSets`.

    Examples
    --------
    >>> TeachingBounds(lower=2, upper=4, status="budget").describe()
    '2 <= TD <= 4 (partial: budget)'
    """

    quantity: ClassVar[str] = "TD"

    witness: TeachingSets = field(factory=TeachingSets, eq=False, repr=False)


@frozen
class MinTeachingBounds(SearchResult):
    """Proven bounds on a minimum teaching set size; the witness is a smallest :class:`TeachingSet` found.

    Examples
    --------
    >>> MinTeachingBounds(lower=1, upper=1).describe()
    'TSmin = 1'
    """

    quantity: ClassVar[str] = "TSmin"

    witness: TeachingSet | None = field(default=None, eq=False, repr=False)


@frozen
class RecursiveTeachingBounds(SearchResult):
    """Proven bounds on a recursive teaching dimension; the witness is a :class:`TeachingPlan`.

    Examples
    --------
    >>> RecursiveTeachingBounds(lower=1, upper=3, status="interrupted").describe()
    '1 <= RTD <= 3 (partial: interrupted)'
    """

    quantity: ClassVar[str] = "RTD"

    witness: TeachingPlan = field(factory=TeachingPlan, eq=False, repr=False)


# ------------------------------------------------------------------ the search
class _Teacher:
    """The teaching sets of the concepts of a reduced table, within sub-classes of it (bitsets of rows)."""

    def __init__(self, T: ReducedTable, clock: Clock):
        self.T = T
        self.clock = clock
        self.n, self.m = T.n_rows, T.n_columns
        self.full = T.all_rows
        found: list = []
        _edges(T.matrix, clock, found)
        u = [f[0] for f in found]
        self.neighbours = neighbour_lists(self.n, tuple(np.concatenate(a) if a else np.zeros(0, dtype=np.int64)
                                                        for a in (u, [f[1] for f in found], [f[2] for f in found])))

    def cover(self, h: int, x: int) -> int:
        """The rows that column ``x`` tells apart from row ``h`` (those labelling it otherwise)."""
        col = self.T.column_bits[x]
        return self.full ^ col if (self.T.row_bits[h] >> x) & 1 else col

    def forced(self, h: int, V: int) -> list[int]:
        """The columns every teaching set of ``h`` within ``V`` holds: one per neighbour of ``h`` in ``V``."""
        return sorted(j for r, j in self.neighbours[h].items() if (V >> r) & 1)

    def _diff(self, h: int, r: int) -> int:
        """The columns on which rows ``h`` and ``r`` differ, as a bitset."""
        return self.T.row_bits[h] ^ self.T.row_bits[r]

    def packing(self, h: int, U: int, used: int = 0) -> int:
        """A lower bound on the columns covering ``U``: rows of ``U`` no column covers two of (greedy)."""
        rows = []
        u = U
        while u:
            low = u & -u
            r = low.bit_length() - 1
            rows.append(self._diff(h, r) & ~used)
            u ^= low
        rows.sort(key=int.bit_count)
        taken, count = 0, 0
        for d in rows:
            if not d & taken:
                taken |= d
                count += 1
        return count

    def greedy(self, h: int, U: int, banned: int) -> list[int]:
        """A cover of ``U`` by columns (not in ``banned``), each time the column covering most."""
        chosen: list[int] = []
        check = self.clock.check_time
        while U:
            check()
            best, best_x = 0, -1
            for x in range(self.m):
                if (banned >> x) & 1:
                    continue
                c = (self.cover(h, x) & U).bit_count()
                if c > best:
                    best, best_x = c, x
            chosen.append(best_x)
            banned |= 1 << best_x
            U &= ~self.cover(h, best_x)
        return chosen

    def cover_within(self, h: int, U: int, k: int, banned: int, failed: dict[int, int]) -> list[int] | None:
        """Columns (at most ``k``, none in ``banned``) covering ``U``, or None when there are none.

        ``banned`` holds the columns chosen on the way here (they cover nothing of ``U``) and those
        whose branch an ancestor already refuted.  A cover of ``U`` by ``k`` columns using one of
        the latter would, with the columns chosen since that ancestor, be a cover the ancestor's
        refuted branch holds; so a refutation is one for ``U`` and ``k`` whatever was banned, and
        ``failed`` remembers, per ``U``, the largest ``k`` refuted.
        """
        if not U:
            return []
        if k <= 0 or failed.get(U, -1) >= k:
            return None
        self.clock.spend()
        # the row of U with fewest columns covering it: every cover takes one of them
        u = U
        pick, pick_cols, fewest = -1, 0, None
        while u:
            low = u & -u
            r = low.bit_length() - 1
            cols = self._diff(h, r) & ~banned
            c = cols.bit_count()
            if fewest is None or c < fewest:
                pick, pick_cols, fewest = r, cols, c
                if c <= 1:
                    break
            u ^= low
        if k == 1:
            x = _first_covering(self, h, U, pick_cols)
            if x is not None:
                return [x]
            failed[U] = max(failed.get(U, -1), k)
            return None
        if self.packing(h, U, banned) > k:
            failed[U] = max(failed.get(U, -1), k)
            return None
        options = []
        c = pick_cols
        while c:
            low = c & -c
            x = low.bit_length() - 1
            options.append(((self.cover(h, x) & U).bit_count(), x))
            c ^= low
        options.sort(key=lambda t: -t[0])
        for _, x in options:
            found = self.cover_within(h, U & ~self.cover(h, x), k - 1, banned | (1 << x), failed)
            if found is not None:
                return [x] + found
            banned |= 1 << x  # covers without x are all that is left to try
        failed[U] = max(failed.get(U, -1), k)
        return None


def _first_covering(teacher: _Teacher, h: int, U: int, cols: int) -> int | None:
    """A column of ``cols`` covering all of ``U`` alone, or None."""
    c = cols
    while c:
        low = c & -c
        x = low.bit_length() - 1
        if U & ~teacher.cover(h, x) == 0:
            return x
        c ^= low
    return None


class _Concept:
    """What is known of one concept's smallest teaching set within a class: bounds and a set attaining the upper."""

    __slots__ = ("h", "lower", "upper", "columns", "forced", "rest")

    def __init__(self, teacher: _Teacher, h: int, V: int, greedy: bool = True):
        self.h = h
        U = V & ~(1 << h)
        if not U:
            self.lower = self.upper = 0
            self.columns: list[int] = []
            self.forced: list[int] = []
            self.rest = 0
            return
        forced = teacher.forced(h, V)
        for x in forced:
            U &= ~teacher.cover(h, x)
        self.forced, self.rest = forced, U
        self.lower = max(len(forced), 1)
        if not U:
            self.upper, self.columns = len(forced), list(forced)
            return
        banned = sum(1 << x for x in forced)
        self.lower = len(forced) + max(teacher.packing(h, U, banned), 1)
        if greedy:
            extra = teacher.greedy(h, U, banned)
            self.upper, self.columns = len(forced) + len(extra), forced + extra
        else:  # every column covers: a teaching set of at most all the columns left
            self.upper, self.columns = None, None

    @property
    def exact(self) -> bool:
        return self.upper is not None and self.lower == self.upper

    def search(self, teacher: _Teacher, cap: int | None = None) -> None:
        """Deepen from the lower bound until a cover is found (exact), or past ``cap`` (``TS > cap`` proven)."""
        if self.exact:
            return
        banned = sum(1 << x for x in self.forced)
        failed: dict[int, int] = {}
        top = self.upper - 1 if self.upper is not None else teacher.m
        if cap is not None:
            top = min(top, cap)
        k = self.lower
        while k <= top:
            extra = teacher.cover_within(self.h, self.rest, k - len(self.forced), banned, failed)
            if extra is not None:
                self.upper, self.columns = len(self.forced) + len(extra), self.forced + extra
                self.lower = self.upper
                return
            k += 1
            self.lower = k
        if self.upper is None and cap is None:  # pragma: no cover - a cover of all columns always exists
            raise AssertionError("no teaching set within all the columns")


def _teaching_set(T: ReducedTable, H: HypothesisClass, concept: _Concept) -> TeachingSet:
    cols = sorted(int(T.columns[j]) for j in (concept.columns or []))
    return TeachingSet(hypothesis=T.hypotheses([concept.h])[0], instances=tuple(H.domain[j] for j in cols))


def _start(H: HypothesisClass, what: str, max_nodes, time_limit) -> tuple[ReducedTable, Clock]:
    T, clock, _ = start_search(H, what=what, search=f"a search of {what}", copies="complement",
                               max_nodes=max_nodes, time_limit=time_limit)
    return T, clock


# ------------------------------------------------------------------ the teaching dimension
def teaching_dimension_bounds(H: HypothesisClass, *, max_nodes: int | None = None,
                              time_limit: float | None = None) -> TeachingBounds:
    """Proven bounds on the teaching dimension of ``H``, the largest ``TS(h)``, with a teaching set of each concept.

    Parameters
    ----------
    H : HypothesisClass
        A class of labels 0 and 1 (duplicated hypotheses are one concept).
    max_nodes : int, optional
        Budget of search nodes (states of the set-cover searches, and rows whose
        one-inclusion edges are looked for).
    time_limit : float, optional
        Budget of seconds, counted from the call.

    Returns
    -------
    TeachingBounds
        ``upper`` is the size of the largest of ``witness.sets`` (one teaching set per
        concept, once the concepts have all been read); ``lower`` is what the search proved
        of ``witness.hardest``.

    Raises
    ------
    InvalidArgumentError, NotApplicableError, InsufficientMemoryError
        As :func:`~mistakebound.theory.table_reduction.start_search` says.

    Examples
    --------
    >>> from mistakebound import classes
    >>> b = teaching_dimension_bounds(classes.intervals(4))
    >>> b.describe(), b.witness.hardest, b.witness.sets[b.witness.hardest]
    ('TD = 4', 5, TeachingSet(hypothesis=5, instances=(1, 2, 3, 4)))
    """
    T, clock = _start(H, "the teaching dimension", max_nodes, time_limit)
    state: dict = {"concepts": []}

    def run() -> None:
        teacher = _Teacher(T, clock)
        V = T.all_rows
        concepts = state["concepts"]
        for h in range(T.n_rows):
            clock.check_time()
            concepts.append(_Concept(teacher, h, V))
        state["read"] = True
        lower = max((c.lower for c in concepts), default=0)
        for c in sorted(concepts, key=lambda c: -c.upper):
            if c.upper <= lower:
                break
            if c.lower <= lower:  # first settle whether it is harder than the hardest so far at all
                c.search(teacher, cap=lower)
            if c.lower > lower:
                c.search(teacher)
            lower = max(lower, c.lower)

    status = run_within(run)
    concepts = state["concepts"]
    n = T.n_rows
    lower = max((c.lower for c in concepts), default=0)
    hardest = T.hypotheses([max(concepts, key=lambda c: c.lower).h])[0] if concepts else None
    if lower == 0 and n > 1:  # two concepts or more: each needs an instance
        lower, hardest = 1, T.hypotheses([0])[0]
    if len(concepts) == n and state.get("read"):
        upper = max((c.upper for c in concepts), default=0)
        sets = tuple(_teaching_set(T, H, c) for c in concepts)
    else:  # not every concept read: each has a teaching set of all the columns, and needs no more than n - 1
        upper = min(T.n_columns, max(n - 1, 0))
        sets = ()
    upper = max(upper, lower)
    if upper == lower and sets:  # the bounds met, and a teaching set of every concept shows it
        status = "exact"
    witness = TeachingSets(sets=sets, hardest=hardest if n else None)
    return TeachingBounds(lower=lower, upper=upper, status=status, witness=witness, nodes=clock.nodes,
                          seconds=clock.seconds)


def teaching_dimension(H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None) -> int:
    """The teaching dimension of ``H`` (Goldman and Kearns 1995), exactly.

    Where :func:`teaching_dimension_bounds` would return partial bounds, raises SearchIncomplete (out of budget)
    or SearchInterrupted (Ctrl-C) carrying them as ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> teaching_dimension(classes.power_set(5)), teaching_dimension(classes.singletons(5))
    (5, 1)
    """
    return teaching_dimension_bounds(H, max_nodes=max_nodes, time_limit=time_limit).value


def smallest_teaching_set(H: HypothesisClass, hypothesis: int, *, max_nodes: int | None = None,
                          time_limit: float | None = None) -> TeachingSet:
    """A smallest teaching set of hypothesis number ``hypothesis`` of ``H`` (its duplicates are the same concept).

    Raises
    ------
    InvalidArgumentError
        For a ``hypothesis`` that is not a row index of ``H``.
    SearchIncomplete
        If the budget runs out; ``exc.result`` is a :class:`MinTeachingBounds` of that
        hypothesis alone, whose witness is the smallest teaching set found.
    SearchInterrupted
        On Ctrl-C, with ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> smallest_teaching_set(classes.thresholds(5), 2)
    TeachingSet(hypothesis=2, instances=(2, 3))
    """
    T, clock = _start(H, "a teaching set", max_nodes, time_limit)
    i = check_int("hypothesis", hypothesis, 0, H.n_hypotheses - 1,
                  expected=f"a row index of H, an integer from 0 to {H.n_hypotheses - 1}")
    _, group = H.distinct_rows()
    h = int(group[i])
    state: dict = {}

    def run() -> None:
        teacher = _Teacher(T, clock)
        c = state["concept"] = _Concept(teacher, h, T.all_rows)
        c.search(teacher)

    status = run_within(run)
    c = state.get("concept")
    if c is None:
        upper = min(T.n_columns, max(T.n_rows - 1, 0))
        result = MinTeachingBounds(lower=0, upper=upper, status=status, nodes=clock.nodes, seconds=clock.seconds)
    else:
        found = _teaching_set(T, H, c)
        witness = TeachingSet(hypothesis=i, instances=found.instances)
        result = MinTeachingBounds(lower=c.lower, upper=c.upper, status="exact" if c.exact else status,
                                   witness=witness, nodes=clock.nodes, seconds=clock.seconds)
    return require_exact(result).witness


# ------------------------------------------------------------------ the minimum teaching set size
def minimum_teaching_set_bounds(H: HypothesisClass, *, max_nodes: int | None = None,
                                time_limit: float | None = None) -> MinTeachingBounds:
    """Proven bounds on the minimum teaching set size of ``H``: the smallest ``TS(h)`` over its concepts.

    Parameters
    ----------
    H : HypothesisClass
        A class of labels 0 and 1 (duplicated hypotheses are one concept).
    max_nodes, time_limit : optional
        A budget, as in :func:`teaching_dimension_bounds`.

    Returns
    -------
    MinTeachingBounds
        ``upper`` is the size of the teaching set ``witness``; ``lower`` the smallest lower
        bound proven over all concepts.

    Raises
    ------
    InvalidArgumentError, NotApplicableError, InsufficientMemoryError
        As :func:`teaching_dimension_bounds`.

    Examples
    --------
    >>> from mistakebound import classes
    >>> b = minimum_teaching_set_bounds(classes.thresholds(6))
    >>> b.describe(), b.witness
    ('TSmin = 1', TeachingSet(hypothesis=0, instances=(1,)))
    """
    T, clock = _start(H, "the minimum teaching set size", max_nodes, time_limit)
    state: dict = {"concepts": []}

    def run() -> None:
        teacher = _Teacher(T, clock)
        V = T.all_rows
        concepts = state["concepts"]
        for h in range(T.n_rows):
            clock.check_time()
            concepts.append(_Concept(teacher, h, V))
        state["read"] = True
        upper = min(c.upper for c in concepts)
        for c in sorted(concepts, key=lambda c: c.lower):
            if c.lower >= upper:
                break
            c.search(teacher, cap=upper - 1)
            upper = min(upper, c.upper)

    status = run_within(run)
    concepts = state["concepts"]
    if state.get("read"):
        best = min(concepts, key=lambda c: (c.upper, c.h))
        lower, upper = min(c.lower for c in concepts), best.upper
        witness = _teaching_set(T, H, best)
    else:  # a concept not read needs at least one instance (two concepts or more), at most all of them
        upper = min(T.n_columns, max(T.n_rows - 1, 0))
        witness = None
        if concepts:
            best = min(concepts, key=lambda c: (c.upper, c.h))
            upper, witness = min(upper, best.upper), _teaching_set(T, H, best)
        lower = min([c.lower for c in concepts] + [min(T.n_rows - 1, 1)])
    upper = max(upper, lower)
    if upper == lower:
        status = "exact"
    return MinTeachingBounds(lower=lower, upper=upper, status=status, witness=witness, nodes=clock.nodes,
                             seconds=clock.seconds)


def minimum_teaching_set_size(H: HypothesisClass, *, max_nodes: int | None = None,
                              time_limit: float | None = None) -> int:
    """The minimum teaching set size of ``H``, exactly.

    Where :func:`minimum_teaching_set_bounds` would return partial bounds, raises SearchIncomplete (out of budget)
    or SearchInterrupted (Ctrl-C) carrying them as ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> minimum_teaching_set_size(classes.power_set(4)), minimum_teaching_set_size(classes.singletons(1))
    (4, 0)
    """
    return minimum_teaching_set_bounds(H, max_nodes=max_nodes, time_limit=time_limit).value


# ------------------------------------------------------------------ the recursive teaching dimension
class _Peeling:
    """The layers of a recursive teaching plan, peeled one at a time (see :func:`recursive_teaching_bounds`)."""

    def __init__(self, T: ReducedTable, clock: Clock):
        self.T = T
        self.clock = clock
        self.layers: list[tuple[int, list[_Concept]]] = []
        self.V = T.all_rows
        self.degree: list[int] = []
        self.buckets: dict[int, set[int]] = {}

    def run(self) -> None:
        T, clock = self.T, self.clock
        teacher = _Teacher(T, clock)
        n = T.n_rows
        degree = self.degree = [len(teacher.neighbours[h]) for h in range(n)]
        buckets = self.buckets
        for h, d in enumerate(degree):
            buckets.setdefault(d, set()).add(h)
        left = n
        while left:
            V = self.V
            best: int | None = None
            layer: list[_Concept] = []
            for d in sorted(buckets):
                if best is not None and max(d, 1 if left > 1 else 0) > best:
                    break
                for h in sorted(buckets[d]):
                    clock.check_time()
                    c = _Concept(teacher, h, V, greedy=False)
                    if best is not None and c.lower > best:
                        continue
                    c.search(teacher, cap=best)
                    if best is not None and c.lower > best:
                        continue
                    if best is None or c.upper < best:
                        best, layer = c.upper, [c]
                    else:
                        layer.append(c)
            self.layers.append((best, layer))
            for c in layer:
                h = c.h
                self.V &= ~(1 << h)
                buckets[degree[h]].discard(h)
                if not buckets[degree[h]]:
                    del buckets[degree[h]]
                for r in teacher.neighbours[h]:
                    if (self.V >> r) & 1:
                        buckets[degree[r]].discard(r)
                        if not buckets[degree[r]]:
                            del buckets[degree[r]]
                        degree[r] -= 1
                        buckets.setdefault(degree[r], set()).add(r)
            left -= len(layer)

    def bounds(self, ldim_upper: int | None) -> tuple[int, int]:
        done = max((value for value, _ in self.layers), default=0)
        if not self.V:
            return done, done
        left = self.V.bit_count()
        lower = max(done, 1 if left > 1 else 0)  # two concepts left or more: the next layer needs an instance
        rest = min(self.T.n_columns, left - 1)  # what is left has RTD <= TD <= min(columns, concepts - 1)
        if ldim_upper is not None:
            rest = min(rest, ldim_upper)
        return lower, max(lower, done, rest)


def recursive_teaching_bounds(H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None,
                              ldim: LdimBounds | None = None) -> RecursiveTeachingBounds:
    """Proven bounds on the recursive teaching dimension of ``H`` (Zilles, Lange, Holte and Zinkevich 2011).

    The concepts of smallest teaching set size in the class form the first layer; those
    of smallest teaching set size in what is left, the second; and so on.  ``RTD`` is the
    largest of the layers' smallest sizes.

    Parameters
    ----------
    H : HypothesisClass
        A class of labels 0 and 1 (duplicated hypotheses are one concept).
    max_nodes, time_limit : optional
        A budget, as in :func:`teaching_dimension_bounds`.
    ldim : LdimBounds, optional
        A Littlestone search's result for the same class: ``RTD <= Ldim`` (see the
        module's docstring) bounds what a search that stopped has left.

    Returns
    -------
    RecursiveTeachingBounds
        Its witness is the :class:`TeachingPlan` of the layers peeled; a search that stopped
        has ``lower`` the largest value of a completed layer (or 1 while concepts are
        left to tell apart) and ``upper`` adds what is left: at most its number of distinct
        columns, its number of concepts minus one, and ``ldim.upper``.

    Raises
    ------
    InvalidArgumentError, NotApplicableError, InsufficientMemoryError
        As :func:`teaching_dimension_bounds`, and for an ``ldim`` that is no LdimBounds.

    Examples
    --------
    >>> from mistakebound import classes
    >>> b = recursive_teaching_bounds(classes.thresholds(3))
    >>> b.describe(), [(layer.value, [s.hypothesis for s in layer.sets]) for layer in b.witness.layers]
    ('RTD = 1', [(1, [0, 3]), (1, [1, 2])])
    """
    ldim_upper = None
    if ldim is not None:
        ldim_upper = check_instance("ldim", ldim, LdimBounds,
                                    "an LdimBounds (from littlestone_bounds of the same class)").upper
    T, clock = _start(H, "the recursive teaching dimension", max_nodes, time_limit)
    peeling = _Peeling(T, clock)
    status = run_within(peeling.run)
    lower, upper = peeling.bounds(ldim_upper)  # stopped, partial even when the bounds meet: the plan is not whole
    plan = TeachingPlan(layers=tuple(
        TeachingLayer(value=value, sets=tuple(_teaching_set(T, H, c) for c in sorted(layer, key=lambda c: c.h)))
        for value, layer in peeling.layers))
    return RecursiveTeachingBounds(lower=lower, upper=upper, status=status, witness=plan, nodes=clock.nodes,
                                   seconds=clock.seconds)


def recursive_teaching_dimension(H: HypothesisClass, *, max_nodes: int | None = None,
                                 time_limit: float | None = None) -> int:
    """The recursive teaching dimension of ``H``, exactly.

    Where :func:`recursive_teaching_bounds` would return partial bounds, raises SearchIncomplete (out of budget)
    or SearchInterrupted (Ctrl-C) carrying them as ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> recursive_teaching_dimension(classes.power_set(3)), recursive_teaching_dimension(classes.intervals(5))
    (3, 2)
    """
    return recursive_teaching_bounds(H, max_nodes=max_nodes, time_limit=time_limit).value

