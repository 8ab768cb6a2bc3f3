"""The star number of a finite class, by a search over centers with private rows.

**Definition** (Hanneke and Yang 2015, Definition 2; the Combinatorial Parameters
database, ``star_number``): the largest ``s`` such that some instances ``x_1, ..., x_s``
and hypotheses ``h_0, h_1, ..., h_s`` of the class have, for every ``i``, ``h_i``
differing from ``h_0`` on ``x_i`` and on no other ``x_j``.  Read on ``S = {x_1..x_s}``:
the class holds a center ``h_0`` and all ``s`` sets at Hamming distance one from it, a
star of the one-inclusion graph of the class restricted to ``S``.  The witness is a
:class:`~mistakebound.theory.one_inclusion.Star`.  It is 0 for a single hypothesis, at
least the VC dimension (Hanneke and Yang 2015), and at least the teaching dimension (a
smallest teaching set of a hypothesis is a star centered on it: removing one of its
instances lets some other hypothesis agree on the rest), tested in
``tests/test_star_number.py``.

**The search.**  For a center ``c``, turn every column so that ``c`` reads 0 on it: the
column's 1s are ``E_x``, the rows differing from ``c`` on ``x``.  A set ``S`` of instances
is a star centered on ``c`` exactly when every ``E_x`` (``x`` in ``S``) has a *private* row,
one in no other ``E_y`` of ``S``: that row is the leaf of ``x``.  So

* stars are closed under subsets: the search grows ``S`` one instance at a time, in a fixed
  order (smallest ``E_x`` first), keeping each member's private rows, and passes down the
  list of instances that can still join (an instance that cannot join ``S`` cannot join
  any larger set); each instance added needs a private row outside the union of the
  members' ``E``, so a branch can grow by at most the length of that list and the number
  of such rows its candidates cover;
* the private rows make the ``E_x`` of a star pairwise incomparable under inclusion, and the
  ``E_x`` turned (``c`` reading 1) are complements of columns: a star has at most twice as
  many instances as the fewest chains covering the columns under inclusion (found greedily:
  any cover bounds), at most as many as the distinct columns, and at most one less than the
  distinct rows;
* two candidates can only join together if each has a row outside the other's ``E``: ``k``
  candidates joining need ``k`` with ``k - 1`` such partners each (a bound computed for each
  branch that the others leave open);
* the largest degree of the one-inclusion graph (:mod:`~mistakebound.theory.one_inclusion`)
  is a star on the whole domain: the search starts from it, and from a first-fit star of each
  center before that center's search, and centers are tried in
  decreasing degree, one per orbit of the column flips mapping the class onto itself
  (all of a linear code's rows are one orbit).

Columns equal or complementary to an earlier one, and constant ones, are dropped first:
complementing a column maps stars to stars, and two copies of an instance are never both
in a star.  On thresholds (the columns are a chain: at most 2) or intervals (the empty
interval and the singletons: a star on every instance), the bounds meet before any search.

Examples
--------
>>> from mistakebound import classes
>>> star_number(classes.thresholds(100)), star_number(classes.singletons(6)), star_number(classes.power_set(4))
(2, 5, 4)
>>> b = star_bounds(classes.singletons(4))
>>> b.witness
Star(center=0, instances=(2, 3, 4), leaves=(1, 2, 3))
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from attrs import field, frozen

from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.one_inclusion import Star, _edges
from mistakebound.theory.search_protocol import Clock, SearchResult, require_exact, run_within
from mistakebound.theory.table_reduction import ReducedTable, start_search

__all__ = [
    "ORBIT_ROWS",
    "StarBounds",
    "chain_cover",
    "largest_star",
    "star_bounds",
    "star_number",
]


#: The most distinct rows on which the search looks for flips mapping the class onto itself
#: (``O(n^2)`` bitset operations at worst), to search one center per orbit.
ORBIT_ROWS = 1024


@frozen
class StarBounds(SearchResult):
    """Proven bounds on a star number, from a search that may have stopped early.

    A :class:`~mistakebound.theory.search_protocol.SearchResult` whose witness is a
    :class:`~mistakebound.theory.one_inclusion.Star` of ``lower`` instances.  ``nodes``
    counts the instances tried on a star.

    Examples
    --------
    >>> StarBounds(lower=2, upper=6, status="budget").describe()
    '2 <= star number <= 6 (partial: budget)'
    """

    quantity: ClassVar[str] = "star number"

    witness: Star = field(factory=Star, eq=False, repr=False)


def chain_cover(sets, *, limit: int | None = None) -> int:
    """The number of chains (under inclusion) a first-fit cover of ``sets`` (bitsets) uses.

    Any cover of a family by ``k`` chains shows that no ``k + 1`` of its sets are pairwise
    incomparable (Dilworth's easy direction); first fit, largest sets first, is not
    always the fewest.  Stops counting past ``limit``.

    Examples
    --------
    >>> chain_cover([0b1, 0b11, 0b111]), chain_cover([0b1, 0b10, 0b100]), chain_cover([0b11, 0b110, 0b10])
    (1, 3, 2)
    """
    tops: list[int] = []
    for s in sorted(sets, key=int.bit_count, reverse=True):
        for k, t in enumerate(tops):
            if s & ~t == 0:
                tops[k] = s
                break
        else:
            tops.append(s)
            if limit is not None and len(tops) > limit:
                break
    return len(tops)


class _StarSearch:
    """One search of the star number of a reduced table (see the module's docstring)."""

    def __init__(self, T: ReducedTable, clock: Clock):
        self.T = T
        self.clock = clock
        n, m = T.n_rows, T.n_columns
        self.n, self.m = n, m
        upper = min(m, max(n - 1, 0))
        if upper > 0:
            upper = min(upper, 2 * chain_cover(T.column_bits, limit=upper // 2 + 1))
        self.static_upper = upper
        self.best: tuple[int, list[int], list[int]] = (0, [], [])  # center, columns, leaves
        self.centers_left: list[int] = []
        self.frames: list[list] = []  # the current center's open branches (see _frame)
        self.started = False

    @property
    def size(self) -> int:
        return len(self.best[1])

    def _from_degrees(self) -> list[int]:
        """Start from the largest star of the one-inclusion graph; return the centers by decreasing degree."""
        found: list = []
        _edges(self.T.matrix, self.clock, found)
        degree = np.zeros(self.n, dtype=np.int64)
        nbrs: dict[int, list[tuple[int, int]]] = {}
        for u, v, j in found:
            np.add.at(degree, u, 1)
            np.add.at(degree, v, 1)
        center = int(np.argmax(degree))
        if degree[center] > 0:
            for u, v, j in found:
                for a, b, x in zip(u.tolist(), v.tolist(), j.tolist()):
                    if a == center or b == center:
                        nbrs.setdefault(center, []).append((x, b if a == center else a))
            pairs = sorted(nbrs[center])
            self.best = (center, [x for x, _ in pairs], [r for _, r in pairs])
        return [int(c) for c in np.argsort(-degree, kind="stable")]

    def _one_per_orbit(self, order: list[int]) -> list[int]:
        """``order`` with one center kept per orbit of the flips that map the class onto itself.

        Flipping the columns of a set ``v`` maps stars to stars (a center ``c`` to ``c ^ v``),
        and when it maps every row to a row (linear codes: parities), the centers ``c`` and
        ``c ^ v`` have stars of the same sizes.  The flips that do are found among ``r ^ r_0``
        (``r_0`` must go to some row), on classes of at most :data:`ORBIT_ROWS` distinct rows.
        """
        rows = self.T.row_bits
        if len(rows) > ORBIT_ROWS:
            return list(order)
        present = set(rows)
        check = self.clock.check_time
        flips = []
        for r in rows[1:]:
            check()
            v = r ^ rows[0]
            if all(q ^ v in present for q in rows):
                flips.append(v)
        if not flips:
            return list(order)
        index = {r: i for i, r in enumerate(rows)}
        seen: set[int] = set()
        kept = []
        for c in order:
            if c in seen:
                continue
            kept.append(c)
            seen.update(index[rows[c] ^ v] for v in flips)
        return kept

    def _center(self, c: int) -> None:
        """The largest star centered on row ``c``, if larger than the best so far."""
        T = self.T
        full = T.all_rows
        E = [col if not (T.row_bits[c] >> j) & 1 else full ^ col for j, col in enumerate(T.column_bits)]
        spend, check = self.clock.spend, self.clock.check_time
        order = sorted(range(self.m), key=lambda j: (E[j].bit_count(), j))
        self._dive(c, order, E)
        if self.size >= self.static_upper:
            return
        frames = self.frames
        root = self._frame([], [], 0, order, E)
        root[6] = self._clique_bound(order, E, 0)
        frames.append(root)
        while frames:
            f = frames[-1]
            members, private, union, cands, suffix, i, _ = f
            if i >= len(cands) or self._reach(f, i) <= self.size:
                frames.pop()
                continue
            z = cands[i]
            f[5] = i + 1
            spend()
            Ez = E[z]
            new_private = [p & ~Ez for p in private] + [Ez & ~union]
            new_members = members + [z]
            new_union = union | Ez
            if len(new_members) > self.size:
                leaves = [(p & -p).bit_length() - 1 for p in new_private]
                self.best = (c, list(new_members), leaves)
                if self.size >= self.static_upper:
                    frames.clear()
                    return
            rest = []
            for k in range(i + 1, len(cands)):
                y = cands[k]
                Ey = E[y]
                if Ey & ~new_union and all(p & ~Ey for p in new_private):
                    rest.append(y)
            check()
            if rest:
                child = self._frame(new_members, new_private, new_union, rest, E)
                if self._reach(child, 0) > self.size:
                    child[6] = self._clique_bound(rest, E, new_union)
                    if self._reach(child, 0) > self.size:
                        frames.append(child)

    def _dive(self, c: int, order: list[int], E: list[int]) -> None:
        """A star centered on ``c`` grown first-fit along ``order`` (a quick lower bound before the search).

        It counts one node: a node budget spent before it leaves the center unexplored."""
        self.clock.spend()
        members: list[int] = []
        private: list[int] = []
        union = 0
        check = self.clock.check_time
        for t, z in enumerate(order):
            if not t & 63:
                check()
            Ez = E[z]
            if Ez & ~union and all(p & ~Ez for p in private):
                private = [p & ~Ez for p in private] + [Ez & ~union]
                members.append(z)
                union |= Ez
        if len(members) > self.size:
            self.best = (c, members, [(p & -p).bit_length() - 1 for p in private])

    @staticmethod
    def _frame(members: list[int], private: list[int], union: int, cands: list[int], E: list[int]) -> list:
        """A branch: its members, their private rows, the union of their ``E``, the candidates, the
        unions of the candidates' ``E`` from each position on, the next position, and a bound on how many
        candidates can join (their number, until :meth:`_clique_bound` says better)."""
        suffix = [0] * (len(cands) + 1)
        for k in range(len(cands) - 1, -1, -1):
            suffix[k] = suffix[k + 1] | E[cands[k]]
        return [members, private, union, cands, suffix, 0, len(cands)]

    def _clique_bound(self, cands: list[int], E: list[int], union: int) -> int:
        """The most candidates that can join together: two can only if each has a row outside the other's ``E``
        (and the union), so they are pairwise compatible, and ``k`` of them need ``k`` with ``k - 1`` compatible
        partners each (the degrees' h-index)."""
        free = [E[y] & ~union for y in cands]
        k = len(free)
        degree = [0] * k
        check = self.clock.check_time
        for a in range(k):
            fa = free[a]
            for b in range(a + 1, k):
                fb = free[b]
                if fa & ~fb and fb & ~fa:
                    degree[a] += 1
                    degree[b] += 1
            check()
        degree.sort(reverse=True)
        h = 0
        while h < k and degree[h] >= h:
            h += 1
        return h

    @staticmethod
    def _reach(frame: list, i: int) -> int:
        """The largest star the branch can still reach from candidate ``i`` on.

        Each instance added needs a private row of its own outside the union of the
        members' ``E`` (and inside its own ``E``): at most as many as such rows, and as
        candidates left.
        """
        members, _, union, cands, suffix, _, clique = frame
        return len(members) + min(len(cands) - i, (suffix[i] & ~union).bit_count(), clique)

    def run(self) -> None:
        if self.n < 2 or self.static_upper == 0:
            return
        order = self._from_degrees()
        self.centers_left = self._one_per_orbit(order)
        self.started = True
        while self.centers_left and self.size < self.static_upper:
            self._center(self.centers_left[0])
            self.centers_left.pop(0)

    def open_bound(self) -> int:
        if not self.started:
            return self.static_upper
        hi = self.size
        if self.frames:
            last = len(self.frames) - 1
            for k, f in enumerate(self.frames):
                # a frame's candidate in progress is the frame above it; the top frame's may have been
                # stopped before its branch was made, so it counts again
                hi = max(hi, self._reach(f, max(f[5] - 1, 0) if k == last else f[5]))
            # the center being searched is accounted for by its frames; the others wait
            if len(self.centers_left) > 1:
                hi = self.static_upper
        elif self.centers_left:
            hi = self.static_upper
        return min(hi, self.static_upper)

    def result(self, status: str, H: HypothesisClass) -> StarBounds:
        T = self.T
        lower = self.size
        upper = lower if status == "exact" else max(lower, self.open_bound())
        if upper == lower:
            status = "exact"
        center, cols, leaves = self.best
        pairs = sorted(zip((int(T.columns[j]) for j in cols), leaves))
        star = Star(center=T.hypotheses([center])[0] if self.n else None,
                    instances=tuple(H.domain[j] for j, _ in pairs), leaves=T.hypotheses([r for _, r in pairs]))
        return StarBounds(lower=lower, upper=upper, status=status, witness=star, nodes=self.clock.nodes,
                          seconds=self.clock.seconds)


def star_bounds(H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None) -> StarBounds:
    """Proven lower and upper bounds on the star number of ``H`` within a budget.

    Without a budget the bounds are equal (the exact value).  Ctrl-C stops the search and
    returns the bounds proven so far, with ``status="interrupted"``.

    Parameters
    ----------
    H : HypothesisClass
        A class of labels 0 and 1.
    max_nodes : int, optional
        Budget of search nodes (instances tried on a star, and rows whose one-inclusion
        edges are looked for).
    time_limit : float, optional
        Budget of seconds, counted from the call.

    Returns
    -------
    StarBounds
        ``lower`` is the size of the star ``witness``; ``upper`` is at most the number of
        distinct non-constant instances (up to complement), the number of distinct rows
        minus one, twice a chain cover of the columns, and what the open branches and the
        centers not yet searched could reach.

    Raises
    ------
    InvalidArgumentError, NotApplicableError, InsufficientMemoryError
        As :func:`~mistakebound.theory.table_reduction.start_search` says.

    Examples
    --------
    >>> from mistakebound import classes
    >>> star_bounds(classes.thresholds(4095)).describe()
    'star number = 2'
    >>> b = star_bounds(classes.random(40, 12, 0.5, seed=3), max_nodes=20)
    >>> b.status, b.lower <= b.upper, b.witness.size == b.lower
    ('budget', True, True)
    """
    T, clock, _ = start_search(H, what="the star number", search="a star search", copies="complement",
                               max_nodes=max_nodes, time_limit=time_limit)
    search = _StarSearch(T, clock)
    status = run_within(search.run)
    return search.result(status, H)


def largest_star(H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None) -> Star:
    """A largest star of ``H``: a center, instances, and a leaf per instance differing from the center there only.

    Raises
    ------
    SearchIncomplete
        If the budget runs out; ``exc.result`` is a :class:`StarBounds` whose witness is
        the largest star found (never returned as if largest).
    SearchInterrupted
        On Ctrl-C, with ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> largest_star(classes.intervals(3))
    Star(center=1, instances=(1, 2, 3), leaves=(3, 0, 2))
    """
    return require_exact(star_bounds(H, max_nodes=max_nodes, time_limit=time_limit)).witness


def star_number(H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None) -> int:
    """The star number of ``H``, exactly (see the module's docstring for the definition).

    Where :func:`star_bounds` would return partial bounds, raises SearchIncomplete (out of budget)
    or SearchInterrupted (Ctrl-C) carrying them as ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> star_number(classes.singletons(5, include_empty=True)), star_number(classes.parities(3))
    (5, 3)
    """
    return star_bounds(H, max_nodes=max_nodes, time_limit=time_limit).value
