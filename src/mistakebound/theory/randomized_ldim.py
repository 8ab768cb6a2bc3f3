"""The randomized Littlestone dimension: the best expected mistake bound of a randomized learner.

Filmus, Hanneke, Mehalel and Moran ("Optimal Prediction Using Expert Advice and
Randomized Littlestone Dimension", COLT 2023, arXiv:2302.13849) prove that the optimal
expected number of mistakes a randomized learner can guarantee against an adaptive
realizable adversary over a class ``H`` is ``RL(H)``, the randomized Littlestone
dimension, which they define through shattered trees: ``RL(H)`` is the largest ``d``
such that some tree shattered by ``H`` (not necessarily complete) has average depth
``2d``.  Here the average is over the branch chosen by fair coin flips, the walk an
adversary answering uniformly at random takes, which costs any learner 1/2 per round
(our reading of the abstract's "average depth"; the game derivation below gives the
same number independently).  For a finite class this is the recursion

    RL(V) = 0                                            if no instance splits V,
    RL(V) = max over splitting x of (1 + RL(V_x^0) + RL(V_x^1)) / 2,

(``V_x^r`` holds the hypotheses of ``V`` labelling ``x`` with ``r``): a tree rooted at
``x`` has expected depth one plus the mean of its subtrees' expected depths.

**The same number from the game.**  Against an adaptive adversary that sees the
learner's probability ``p`` of predicting 1 (but not the coin), a round on ``x`` costs
the learner ``|p - y|`` in expectation, and the version space moves to ``V_x^y``.  The
value of the game from ``V`` is therefore

    v(V) = max over x of  min over p in [0, 1] of  max((1 - p) + v(V_x^1), p + v(V_x^0)),

an instance that does not split ``V`` gaining nothing against a learner that predicts
the forced label.  The two lines cross at ``p* = (1 + v(V_x^1) - v(V_x^0)) / 2``, so the
inner value is ``(1 + v(V_x^0) + v(V_x^1)) / 2`` when the two sides' values differ by
at most 1 and ``max(v(V_x^0), v(V_x^1))`` otherwise, i.e. ``max(v0, v1, (1 + v0 + v1)/2)``.
Both recursions give the same number: ``RL`` is monotone (a tree shattered by a
sub-class is shattered by the class), so the extra ``max(v0, v1)`` never exceeds
``RL(V)``, and at a column achieving the maximum of the tree recursion the two sides
differ by at most 1 (else ``RL(V)`` would be below the larger side).  The tests check
the tree recursion used here against a plain recursion on the game formula.

**Proven relations** (``n`` is the number of distinct hypotheses, ``L = Ldim``):

* ``L / 2 <= RL <= L``: a complete shattered tree of depth ``L`` has average depth
  ``L``; a deterministic learner (SOA) is a randomized one (FHMM, from the definitions).
  The lower bound is tight: ``RL(power_set(d)) = d / 2``.
* ``RL <= L (1 - 2^(1 - n))``, in particular ``RL < L`` whenever ``L >= 1``: by
  induction, one side of a split has Ldim at most ``L - 1`` and fewer than ``n`` rows.
  Tight for ``singletons(d)``, where ``RL = 1 - 2^(1 - d)``.
* ``RL <= log2(n) / 2``: the average depth of a tree with at most ``n`` leaves is at
  most ``log2 n`` (induction with ``2 sqrt(ab) <= a + b``).  Tight for power sets.
* ``RL`` is a dyadic rational whose denominator divides ``2^(n - 1)``.

The claim ``RL >= (L + 1) / 2`` is false (``singletons(2)`` has ``L = 1`` and
``RL = 1/2``).

**The search.**  Version spaces are bitsets over the class's distinct rows (as in
:class:`~mistakebound.theory.littlestone.LdimSearch`, whose columns and representatives are
reused), the memo keeps the exact value of every version space met, columns that split
``V`` the same way (equal or complementary on ``V``) are tried once, and splits are
tried in decreasing order of a proven upper bound on their value (the two bounds above
applied to each side, the Ldim one asked only up to where it can beat the log one); a
split whose bound does not exceed the best value found is skipped (compared exactly: the
log bound of both sides as ``n0 n1 <= 2^(4 best - 2)``).  A second memo is keyed by a
version space's canonical form (:mod:`mistakebound.theory.canonical`: its distinct rows on
one column per distinct split, columns complemented to at most half ones and sorted by
cheap invariants, rows sorted), so relabelled copies (the shifted and mirrored windows and
reordered gaps of ``intervals``, the sub-cubes of ``power_set``) are searched once; a form
is computed only for spaces of at least :data:`CANONICAL_MIN` rows whose fingerprint (size
and split sizes) was met before, and not for sizes where few forms were memo hits.  That
makes symmetric classes cheap: ``singletons(d)`` costs ``2d - 1`` nodes instead of
``2^d``, ``power_set(d)`` costs ``d + 12`` instead of ``2^(d+1) - 1`` (``3^d`` without
pruning).

**Budgets.**  The search takes the budget of every search
(:class:`~mistakebound.theory.search_protocol.Budget`): at most ``max_nodes`` version spaces and
``time_limit`` seconds per query (default: none), and Ctrl-C.  Measured on a 2-core
machine (``python -m benchmarks.rldim_speed``, medians of 3, load 3): ``intervals(24)``
in 2.7 s (1,571 nodes; 6,600 version spaces answered by relabelled copies),
``intervals(32)`` in 17 s, ``power_set(16)`` in 0.4 s, ``random(60, 12, 0.5, 1)`` in
0.6 s (5,720 nodes), ``random(120, 14, 0.5, 5)`` in 5 s (46,545 nodes); classes
without symmetry search about 10,000 nodes per second, so :data:`DEFAULT_MAX_NODES`
(300,000, the per-query budget the players that ask many questions default to) is
reached in under a minute.  Classes with many distinct splits per version space cost
more per node (``thresholds(200)``: 247 nodes in 1.6 s; ``singletons(200)``: 399 nodes
in 3 s).  A search stopped by its budget or by Ctrl-C reports proven bounds
(:class:`RLdimBounds`, a :class:`~mistakebound.theory.search_protocol.SearchResult`), computed from
what it finished, without searching further: :func:`randomized_littlestone_bounds` returns
them, and :func:`randomized_littlestone_dimension` raises
:class:`~mistakebound.theory.search_protocol.SearchIncomplete` (or
:class:`~mistakebound.theory.search_protocol.SearchInterrupted`) carrying them.

Examples
--------
>>> from mistakebound import classes
>>> randomized_littlestone_dimension(classes.singletons(3))
Fraction(3, 4)
>>> randomized_littlestone_dimension(classes.power_set(3))
Fraction(3, 2)
>>> randomized_littlestone_dimension(classes.thresholds(3))
Fraction(1, 1)
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import ClassVar

import numpy as np
from attrs import frozen

from mistakebound.foundations import memory
from mistakebound.foundations.memory import require_memory
from mistakebound.foundations.validation import brief, check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.hypothesis_class import require_binary, require_class
from mistakebound.foundations.bitset import mask_to_indices
from mistakebound.theory.canonical import projection, relabelled_key
from mistakebound.theory.littlestone import LdimSearch
from mistakebound.theory.search_protocol import Budget, Clock, OutOfMemory, SearchResult, memo_share, run_within

__all__ = [
    "DEFAULT_MAX_NODES",
    "RLdimBounds",
    "RLdimSearch",
    "optimal_probability",
    "randomized_littlestone_bounds",
    "randomized_littlestone_dimension",
]

#: A per-query budget for players that ask many questions (about a minute of work); the
#: searches themselves default to no budget.
DEFAULT_MAX_NODES = 300_000

#: Version spaces with fewer distinct rows than this skip the canonical memo (cheaper to search).
CANONICAL_MIN = 8
#: Per range of sizes (``2^k <= |V| < 2^(k+1)``), after this many canonical forms computed, forms are
#: computed only while at least one in eight was a memo hit (classes without symmetry stop paying).
CANONICAL_WINDOW = 64
#: Estimated bytes of one memo entry (the version space, its value and its best split).
_ENTRY_BYTES = 240

_HALF = Fraction(1, 2)
_ZERO = Fraction(0)
_ONE = Fraction(1)


def _up(x: float) -> float:
    """``x`` rounded up past the floating-point error of the few operations that made it."""
    return math.nextafter(x + 4 * math.ulp(x), math.inf)


def _round_value(v0: Fraction | float, v1: Fraction | float) -> Fraction | float:
    """``(1 + v0 + v1) / 2``, exact for fractions and rounded up otherwise (for upper bounds)."""
    if isinstance(v0, Fraction) and isinstance(v1, Fraction):
        return (1 + v0 + v1) / 2
    return _up((1 + float(v0) + float(v1)) / 2)


def _exact(bound: Fraction | tuple[int, int]) -> Fraction:
    """An exact upper bound as a fraction: itself, or ``L (1 - 2^(1-n))`` for ``(L, n)``."""
    if isinstance(bound, Fraction):
        return bound
    L, n = bound
    return Fraction(L * ((1 << (n - 1)) - 1), 1 << (n - 1))


def optimal_probability(v0: Fraction, v1: Fraction) -> Fraction:
    """The learner's optimal probability of predicting 1 on an instance splitting ``V``.

    ``v0`` and ``v1`` are the values (``RL``) of the two sides ``V_x^0`` and ``V_x^1``.
    It minimises ``max((1 - p) + v1, p + v0)`` over ``p`` in [0, 1]: the crossing point
    ``(1 + v1 - v0) / 2`` clipped to [0, 1] (the minimiser is unique).

    Examples
    --------
    >>> optimal_probability(Fraction(0), Fraction(0))
    Fraction(1, 2)
    >>> optimal_probability(Fraction(0), Fraction(3, 2))
    Fraction(1, 1)
    """
    p = (1 + v1 - v0) / 2
    return _ZERO if p < 0 else _ONE if p > 1 else Fraction(p)


class RLdimSearch:
    """An exact randomized-Littlestone search over the sub-classes of one class.

    Version spaces are bitsets over the class's distinct rows (bit ``i`` is distinct
    row ``i``; see :attr:`representatives`), exactly as in
    :class:`~mistakebound.theory.littlestone.LdimSearch`, whose Ldim queries serve the pruning
    bounds.  The memo is kept between calls, so a learner or an adversary that asks
    about many version spaces of one class pays for each only once; a second memo, keyed
    by canonical forms (:meth:`form`), answers a version space from a relabelled copy
    searched before (:meth:`twin`), its best split relabelled.

    Parameters
    ----------
    H : HypothesisClass
    max_nodes : int, optional
        Budget of version spaces each query (:meth:`bounds`, :meth:`value`) may expand
        (default: none; the memo is then limited to its
        :func:`~mistakebound.theory.search_protocol.memo_share` of the memory available when the
        search is created, and a query that would outgrow it stops with status ``"memory"``).
    time_limit : float, optional
        Budget of seconds for each query (default: none).

    Attributes
    ----------
    budget : Budget
        The budget of each query.
    columns : tuple of int
        Per instance of ``H.domain``, the bitset (over distinct rows) labelling it 1.
    full : int
        The bitset of every distinct row.
    representatives : numpy.ndarray
        For each distinct row, the index of its first occurrence in ``H``.
    nodes : int
        Version spaces expanded so far (memo hits excluded), over all calls.
    canonical_hits : int
        Version spaces answered by a relabelled copy's entry, over all calls.

    Raises
    ------
    InvalidArgumentError
        For a bad ``H`` or budget.
    InsufficientMemoryError
        Before anything is allocated, when the Ldim search's bitsets, or the memo of
        ``max_nodes`` version spaces, would not fit in the memory available.

    Examples
    --------
    >>> from mistakebound import classes
    >>> search = RLdimSearch(classes.singletons(4))
    >>> search.value(search.full)
    Fraction(7, 8)
    >>> search.value(0b0011)  # the sub-class {h_1, h_2}
    Fraction(1, 2)
    >>> search.best_split(0b0011)  # the column of instance 1 splits it
    0
    """

    def __init__(self, H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None):
        self.H = require_binary(require_class(H), what="the randomized Littlestone search of a 0/1 class "
                                "(randomized_littlestone_bounds answers for more labels)")
        self.budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
        available = memory.available_memory()  # read once, for every check and default below
        entry = _ENTRY_BYTES + (H.n_hypotheses + 7) // 8
        if max_nodes is not None:
            require_memory(
                self.budget.max_nodes * entry, parameter="max_nodes",
                what=f"a randomized-Littlestone search of up to {self.budget.max_nodes} version spaces over "
                     f"{H.n_hypotheses} hypotheses", advice="lower max_nodes or search a smaller class",
                available=available,
            )
        self.ldim_search = LdimSearch(H, available=available)
        # without a node budget the memo is limited by memory: its memo_share of what is
        # available (the Ldim memo has its own limit), None when that is unknown
        share = memo_share(available) if max_nodes is None else None
        self.memo_limit = None if share is None else max(1, share // entry)
        self.columns = self.ldim_search.columns
        self.full = self.ldim_search.full
        self.representatives = self.ldim_search.representatives
        self.n_distinct = self.ldim_search.n_distinct
        self._value: dict[int, Fraction] = {}
        self._best: dict[int, int | None] = {}
        # the canonical memo: relabelled_key of a searched V -> (RL, best split's key position, V)
        self._canon: dict[tuple, tuple[Fraction, int | None, int]] = {}
        self._canon_bytes = 0
        self._entry = entry
        self._searched: set[int] = set()  # version spaces expanded (the others in the memo are twins')
        self._fps: dict[tuple, list[int]] = {}  # fingerprint -> the one space met with it ([]: keyed)
        self._rates: dict[int, list[int]] = {}  # bit length of |V| -> [forms computed, memo hits]
        self.canonical_hits = 0
        self._root_columns = self._splitting(self.full, range(len(self.columns)))
        self._clock: Clock | None = None
        self.nodes = 0

    # -------------------------------------------------------------- queries
    def mask_of_rows(self, rows) -> int:
        """The bitset over distinct rows of the given rows of ``H`` (indices or a bitset)."""
        return self.ldim_search.mask_of_rows(rows)

    def bounds(self, V: int | None = None) -> RLdimBounds:
        """Proven bounds on ``RL(V)`` within the search's budget (default ``V``: the whole class).

        The exact search runs until it finishes, its budget runs out, or Ctrl-C; then
        the bounds come from what it finished, without searching further: ``lower`` is
        the larger of ``Ldim(V) / 2`` (as far as proven) and half the average depth of a
        greedy shattered tree that uses the memo's exact values, ``upper`` the smaller
        of the bounds ``Ldim(V)(1 - 2^(1-n))`` and ``log2(n) / 2`` for ``V`` and, one
        split down, for its sides.  A memoised ``V`` is exact at once.

        Raises
        ------
        InvalidArgumentError
            If ``V`` is empty or holds bits beyond the class.

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = RLdimSearch(classes.power_set(5), max_nodes=3)
        >>> b = search.bounds()
        >>> b.status, b.lower <= Fraction(5, 2) <= b.upper
        ('budget', True)
        """
        V = self.full if V is None else self._require_mask(V)
        clock = self.budget.start()
        if V not in self._value:
            self._clock = clock
            limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(limit, 4 * self.n_distinct + 1000))
            try:
                # the Ldim queries of the pruning bounds stop at the same deadline
                with self.ldim_search.running(Budget(time_limit=self.budget.time_limit)):
                    status = run_within(lambda: self._search(V, self._splitting(V, self._root_columns)))
            finally:
                sys.setrecursionlimit(limit)
                self._clock = None
            if status != "exact":
                if status == "memory":
                    self.ldim_search.release_memory()  # room for the bounds (the values found stay)
                try:
                    lower, upper = self._partial_bounds(V)
                except MemoryError:  # what is proven without a search
                    lower = Fraction(max(self.ldim_search.proven(V)[0], 0), 2)
                    upper = self._upper_known(V)
                    status = "memory"
                return RLdimBounds(lower=lower, upper=upper, status=status, nodes=clock.nodes, seconds=clock.seconds)
        value = self._value[V]
        return RLdimBounds(lower=value, upper=value, status="exact", nodes=clock.nodes, seconds=clock.seconds)

    def value(self, V: int) -> Fraction:
        """``RL(V)`` exactly, for a non-empty version space ``V`` over distinct rows.

        Raises
        ------
        InvalidArgumentError
            If ``V`` is empty or holds bits beyond the class.
        SearchIncomplete
            If the search needs more than the budget; ``exc.result`` (an
            :class:`RLdimBounds`) holds proven bounds.
        SearchInterrupted
            On Ctrl-C, with ``exc.result``.
        """
        V = self._require_mask(V)
        value = self._value.get(V)
        return self.bounds(V).value if value is None else value

    def best_split(self, V: int) -> int | None:
        """The column index of an instance achieving ``RL(V)``'s maximum (None if none splits V).

        At that instance the two sides' values differ by at most 1, so the optimal
        learner's probability is strictly inside the clipped range and the adversary's
        two labels are worth the same against it.
        """
        V = self._require_mask(V)
        self.value(V)
        return self._best[V]

    def memo(self, V: int) -> tuple[Fraction, int | None] | None:
        """What the memo holds on ``V`` (no search): ``(RL(V), best split's column or None)``, or None.

        A version space whose relabelled copy was searched (see :meth:`form`) is answered
        from the copy's entry.  The best split's two sides of a version space the search
        expanded (:meth:`twin` is ``V``) are in the memo too (certificates read the optimal
        tree off it: :mod:`mistakebound.theory.randomized_certificate`).

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = RLdimSearch(classes.singletons(2))
        >>> search.memo(search.full) is None, search.value(search.full), search.memo(search.full)
        (True, Fraction(1, 2), (Fraction(1, 2), 0))
        """
        value = self._value.get(V)
        if value is not None:
            return value, self._best[V]
        form, e = self._known_form(V)
        if e is not None:  # a relabelled copy's value, its best split relabelled
            return e[0], None if e[1] is None else form[1][e[1]]
        return None

    def greedy_split(self, V: int) -> int | None:
        """The column the greedy tree of a partial lower bound takes at ``V`` (None if none splits it).

        The split of best proven upper bound, from what is known (no search): the tree
        :meth:`bounds` measures when a search stops early.
        """
        cand = self._splitting(V, self._root_columns)
        return self._ranked(V, cand, self._known_ldim)[0][1] if cand else None

    def sides(self, V: int, j: int) -> tuple[int, int]:
        """``(V_x^0, V_x^1)`` for the instance in column ``j``."""
        ones = V & self.columns[j]
        return V ^ ones, ones

    def probability(self, V: int, j: int) -> Fraction:
        """The optimal learner's probability of label 1 on column ``j`` from version space ``V``.

        ``1`` or ``0`` when the column does not split ``V`` (the forced label), ``1/2``
        when ``V`` is empty (only after an unrealizable label), otherwise
        :func:`optimal_probability` of the two sides' values.
        """
        V0, V1 = self.sides(V, j)
        if V0 == 0 and V1 == 0:
            return _HALF
        if V0 == 0:
            return _ONE
        if V1 == 0:
            return _ZERO
        return optimal_probability(self.value(V0), self.value(V1))

    # ------------------------------------------------------------- internals
    def _require_mask(self, V: object) -> int:
        return check_int("V", V, 1, self.full, expected=lambda: (
            f"a non-empty bitset over the {self.n_distinct} distinct rows (an int in 1..{brief(self.full)})"))

    def _splitting(self, V: int, cand) -> list[int]:
        """Columns of ``cand`` that split ``V``, one per distinct split (equal or complementary)."""
        cols = self.columns
        seen: set[int] = set()
        out = []
        for j in cand:
            a = V & cols[j]
            if a == 0 or a == V:
                continue
            key = a if a < V ^ a else V ^ a
            if key not in seen:
                seen.add(key)
                out.append(j)
        return out

    def _upper(self, V: int, ldim=None, lazy: bool = False) -> tuple[Fraction, float]:
        """Proven upper bounds on RL(V): exact ``L (1 - 2^(1-n))`` and float ``log2(n)/2``.

        ``L`` is ``ldim(V)``, by default the Littlestone dimension (a search, capped where
        the bound would not beat the log one); with ``lazy`` the exact bound is returned as
        ``(L, n)`` (see :func:`_exact`) and ``V`` must not be memoised.
        """
        if not lazy and V in self._value:
            v = self._value[V]
            return v, float(v)
        n = V.bit_count()
        log = math.log2(n) / 2
        if ldim is not None:
            L = ldim(V)
        elif n <= 2:
            L = n - 1
        else:
            # Ldim matters only below cap, where L (1 - 2^(1-n)) < log2(n) / 2: at or above
            # it (a quick dive for the Ldim search) floor(log2 n), never smaller, serves
            cap = math.floor(log) + 1
            lo, hi = self.ldim_search.proven(V)
            L = hi if lo >= cap or lo == hi else self.ldim_search.ldim(V, cap)
            if L >= cap:
                L = self.ldim_search.proven(V)[1]
        return ((L, n) if lazy else _exact((L, n))), log

    def _known_ldim(self, V: int) -> int:
        """The proven upper bound on Ldim(V) the Ldim memo holds (no search)."""
        return self.ldim_search.proven(V)[1]

    def _upper_known(self, V: int) -> Fraction | float:
        """A proven upper bound on RL(V) from what is known, without searching."""
        exact, log = self._upper(V, self._known_ldim)
        if exact <= log:
            return exact
        n = V.bit_count()
        return Fraction(n.bit_length() - 1, 2) if n & (n - 1) == 0 else _up(log)  # log2 exact for 2^k

    def _partial_bounds(self, V: int) -> tuple[Fraction, Fraction | float]:
        """Proven ``(lower, upper)`` on RL(V) from what a stopped search finished (no search)."""
        cand = self._splitting(V, self._root_columns)
        lower = max(Fraction(max(self.ldim_search.proven(V)[0], 0), 2), self._greedy(V, cand, self._known_ldim))
        upper = self._upper_known(V)
        if cand:  # one split down: RL(V) is the best split's (1 + RL(V0) + RL(V1)) / 2
            sides = [self.sides(V, j) for j in cand]
            split = max((_round_value(self._upper_known(V0), self._upper_known(V1)) for V0, V1 in sides),
                        key=float)
            if split < upper:
                upper = split
        return lower, upper

    def _ranked(self, V: int, cand: list[int], ldim=None) -> list[tuple]:
        """Splits of V with their upper bounds, the largest float bound first.

        Each entry is ``(approx, j, e0, e1, g0, g1, n, f0, f1)``: the float bound (each side
        bounded by the smaller of its two bounds), the column, the exact bounds of the two
        sides (a memoised value, or ``(L, n)`` for the Ldim bound ``L (1 - 2^(1-n))``, made a
        fraction only when a comparison needs it: see :func:`_exact`), their float log
        bounds, the product of the sides' sizes, and the exact bounds as floats.  ``ldim`` is
        passed on to :meth:`_upper`.
        """
        ranked = []
        cols = self.columns
        for j in cand:
            V1 = V & cols[j]
            V0 = V ^ V1
            e0, f0, g0 = self._side(V0, ldim)
            e1, f1, g1 = self._side(V1, ldim)
            approx = (1 + (f0 if f0 < g0 else g0) + (f1 if f1 < g1 else g1)) / 2
            ranked.append((approx, j, e0, e1, g0, g1, V0.bit_count() * V1.bit_count(), f0, f1))
        ranked.sort(key=lambda t: (-t[0], t[1]))
        return ranked

    def _side(self, V: int, ldim=None) -> tuple[Fraction | tuple[int, int], float, float]:
        """:meth:`_upper` of a side, its exact bound kept as ``(L, n)`` (no fraction made) and as a float."""
        v = self._value.get(V)
        if v is not None:
            f = float(v)
            return v, f, f
        exact, log = self._upper(V, ldim, lazy=True)
        L, n = exact
        return exact, L - L * 2.0 ** (1 - n), log

    @staticmethod
    def _cannot_beat(entry: tuple, best: Fraction, fbest: float, k: int | None) -> bool:
        """Whether a proven bound shows the split is worth at most ``best`` (``fbest`` as a float).

        Exact where a bound is rational: the exact bounds of both sides (decided in floating
        point when a margin of 1e-9 does, exactly otherwise), or the log bounds of both
        sides, ``(1 + log2(n0)/2 + log2(n1)/2)/2 <= best`` being ``n0 n1 <= 2^k`` with
        ``k = 4 best - 2`` when that is a non-negative integer (``k`` None otherwise); the
        mixed combinations in floating point with a safety margin.
        """
        _, _, e0, e1, g0, g1, product, f0, f1 = entry
        t = (1 + f0 + f1) / 2
        if t <= fbest - 1e-9:
            return True
        if t < fbest + 1e-9 and (1 + _exact(e0) + _exact(e1)) / 2 <= best:
            return True
        if k is not None and product <= 1 << k:
            return True
        fbest -= 1e-9
        return (1 + f0 + g1) / 2 <= fbest or (1 + g0 + f1) / 2 <= fbest

    def form(self, V: int) -> tuple[tuple, list[int], list[int]]:
        """``V``'s canonical form: ``(key, columns, flips)``, a function of ``V`` alone.

        ``columns`` holds one column per distinct split of ``V`` (the smallest index of
        each), in the key's order, and ``flips`` whether each is complemented: ``V``'s rows
        read on ``columns`` (xor ``flips``) are the words of the key
        (:func:`~mistakebound.theory.canonical.relabelled_key`).  Version spaces with one
        key are relabelled copies, so they have one RL; the search keeps one memo entry per
        key (see :meth:`twin`).

        Examples
        --------
        >>> from mistakebound import classes
        >>> search = RLdimSearch(classes.singletons(4))
        >>> search.form(0b0011)[0] == search.form(0b1100)[0], search.form(0b0011)[1:]
        (True, ([0], [0]))
        """
        return self._form(V, self._splitting(V, self._root_columns))

    def twin(self, V: int) -> int | None:
        """The version space searched for ``V``'s canonical form (``V`` itself, a relabelled copy, or None).

        Certificates prove ``V``'s facts on the twin and map them to ``V`` (a ``"map"`` step
        of :mod:`mistakebound.certificates.randomized`).
        """
        if V in self._searched:
            return V
        _, e = self._known_form(V)
        return None if e is None else e[2]

    def _known_form(self, V: int):
        """``(form, entry)`` of ``V`` if the canonical memo holds its form, else ``(None, None)`` (no search).

        The fingerprint first: a form is only ever stored once its fingerprint was shared.
        """
        if V.bit_count() < CANONICAL_MIN:
            return None, None
        cand = self._splitting(V, self._root_columns)
        if len(cand) < 2 or self._fps.get(self._fingerprint(V, cand)) != []:
            return None, None
        form = self._form(V, cand)
        e = self._canon.get(form[0])
        return (None, None) if e is None else (form, e)

    def _form(self, V: int, cand: list[int]) -> tuple[tuple, list[int], list[int]]:
        """:meth:`form` with ``cand`` the ascending columns of ``V``'s distinct splits."""
        kcols = np.asarray(cand, dtype=np.int64)
        sub = projection(self.H.matrix, self.representatives[mask_to_indices(V)], kcols)
        key, order, flips = relabelled_key(sub)
        return key, kcols[order].tolist(), flips[order].tolist()

    def _store(self, V: int, value: Fraction, best_j: int | None, form) -> None:
        """Memoise a searched ``V``: by bitset, and by its canonical form if it has one."""
        self._value[V] = value
        self._best[V] = best_j
        self._searched.add(V)
        if form is not None and form[0] not in self._canon:
            self._canon[form[0]] = (value, None if best_j is None else form[1].index(best_j), V)
            self._canon_bytes += 100 + len(form[0][2])

    def _fingerprint(self, V: int, cand: list[int]) -> tuple:
        """A cheap invariant of ``V``'s relabellings: its size and the sorted sizes of its splits' smaller sides."""
        s, cols = V.bit_count(), self.columns
        sizes = [(V & cols[j]).bit_count() for j in cand]
        return s, tuple(sorted([a if 2 * a <= s else s - a for a in sizes]))

    def _lookup(self, V: int, cand: list[int]):
        """``V``'s canonical form and the memo's entry for it, once another space shared its fingerprint.

        Returns ``(fingerprint, form, entry)``: the form (and entry) None while ``V``'s
        fingerprint is new (the first space with a fingerprint is keyed, if searched, when a
        second one comes: classes without symmetry rarely pay for a form).
        """
        fp = self._fingerprint(V, cand)
        pending = self._fps.get(fp)
        if pending is None:
            self._fps[fp] = [V]
            self._canon_bytes += 100 + 8 * len(fp[1])
            return fp, None, None
        if pending:  # a second space with this fingerprint: key the first ones
            self._fps[fp] = []
            for P in pending:
                if P in self._searched:
                    self._store(P, self._value[P], self._best[P], self.form(P))
        form = self._form(V, cand)
        return fp, form, self._canon.get(form[0])

    def _search(self, V: int, cand: list[int]) -> Fraction:
        memo = self._value
        if V in memo:
            return memo[V]
        fp = form = None
        size = V.bit_count()
        if len(cand) >= 2 and size >= CANONICAL_MIN:
            rate = self._rates.setdefault(size.bit_length(), [0, 0])  # forms computed, memo hits
            if rate[0] < CANONICAL_WINDOW or 8 * rate[1] >= rate[0]:  # else: this size rarely pays
                fp, form, e = self._lookup(V, cand)
                if form is not None:
                    rate[0] += 1
                    rate[1] += e is not None
            else:
                e = None
            if e is not None:  # a relabelled copy was searched: its value, its best split relabelled
                self.canonical_hits += 1
                memo[V] = e[0]
                self._best[V] = None if e[1] is None else form[1][e[1]]
                return e[0]
        if self.memo_limit is not None and len(memo) + self._canon_bytes // self._entry >= self.memo_limit:
            raise OutOfMemory  # the memo would outgrow its share of the memory: stop before it does
        self._clock.spend()  # raises OutOfBudget past the budget: this node is not expanded
        self.nodes += 1
        best, fbest, k = _ZERO, 0.0, None
        best_j = self._complete_split(V, size, cand) if cand else None
        if best_j is not None:  # the two bounds meet: RL(V) = Ldim(V) / 2 = log2 d / 2, down a complete tree
            V0, V1 = self.sides(V, best_j)
            best = (1 + self._search(V0, self._splitting(V0, cand)) + self._search(V1, self._splitting(V1, cand))) / 2
        elif cand:
            for entry in self._ranked(V, cand):
                if best_j is not None:
                    if entry[0] + 1e-9 <= fbest:
                        break  # ranked by this bound: no later split can beat the best found
                    if self._cannot_beat(entry, best, fbest, k):
                        continue  # this split cannot beat it (a later one might)
                j = entry[1]
                V0, V1 = self.sides(V, j)
                v = (1 + self._search(V0, self._splitting(V0, cand)) + self._search(V1, self._splitting(V1, cand))) / 2
                if best_j is None or v > best:
                    best, best_j = v, j
                    fbest = float(best)
                    four = 4 * best - 2
                    k = int(four) if four.denominator == 1 and four >= 0 else None
        if form is None and fp is not None and not self._fps[fp]:
            form = self._form(V, cand)  # its fingerprint was shared while it was searched
        self._store(V, best, best_j, form)
        return best

    def _complete_split(self, V: int, d: int, cand: list[int]) -> int | None:
        """The root column of a complete shattered tree of depth ``log2 d`` when ``V`` holds ``d = 2^k`` distinct
        rows and has one (``Ldim(V) = k``), else None.

        Then ``RL(V) = k / 2``: at least ``Ldim / 2``, at most ``log2(d) / 2`` (module docstring); each side
        of that column holds ``2^(k-1)`` rows (the tree's ``2^k`` leaves hold one row each) and Ldim ``k - 1``,
        so the search follows the tree without ranking the other columns.  The column returned is the one of
        ``cand`` (one per split) splitting ``V`` as the tree's root does.
        """
        k = d.bit_length() - 1
        if d != 1 << k or k < 1 or self.ldim_search.proven(V)[1] < k or self.ldim_search.ldim(V, k) < k:
            return None
        ones = V & self.columns[self.ldim_search.witness(V, k)]
        return next(j for j in cand if V & self.columns[j] in (ones, V ^ ones))

    def _greedy(self, V: int, cand: list[int], ldim=None) -> Fraction:
        """Half the average depth of the tree that follows the best-bounded split (a lower bound).

        A version space the memo holds counts its exact value (its optimal subtree);
        ``ldim`` is passed on to the ranking (:meth:`_upper`).
        """
        total = _ZERO
        stack = [(V, cand, _ONE)]  # version space, candidate columns, probability of reaching it
        while stack:
            W, c, weight = stack.pop()
            if W in self._value:
                total += weight * self._value[W]
                continue
            if not c:
                continue
            j = self._ranked(W, c, ldim)[0][1]
            total += weight / 2  # one edge, counted as 1/2 mistake
            for side in self.sides(W, j):
                stack.append((side, self._splitting(side, c), weight / 2))
        return total


@frozen
class RLdimBounds(SearchResult):
    """Proven bounds on a randomized Littlestone dimension, from a search that may have stopped early.

    A :class:`~mistakebound.theory.search_protocol.SearchResult`: ``lower`` and ``upper`` are
    :class:`~fractions.Fraction` (``upper`` a float when the bound ``log2(n) / 2``,
    rounded up, is the smaller), equal to ``RL`` when ``exact``; ``value`` is ``RL``
    (raising for a partial result).

    Examples
    --------
    >>> from mistakebound import classes
    >>> randomized_littlestone_bounds(classes.singletons(3)).describe()
    'RL = 3/4'
    """

    quantity: ClassVar[str] = "RL"


def randomized_littlestone_bounds(
    H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None
) -> RLdimBounds:
    """Proven lower and upper bounds on ``RL(H)`` within a budget; equal when the search finishes.

    Parameters
    ----------
    H : HypothesisClass
    max_nodes : int, optional
        Budget of version spaces to expand (default: none).
    time_limit : float, optional
        Budget of seconds (default: none).

    Returns
    -------
    RLdimBounds
        ``status`` ``"exact"``, ``"budget"``, ``"interrupted"`` (Ctrl-C) or ``"memory"``.

    Raises
    ------
    InvalidArgumentError
        If ``H`` is not a :class:`HypothesisClass` or for a bad budget.

    Examples
    --------
    >>> from mistakebound import classes
    >>> B = randomized_littlestone_bounds(classes.power_set(4), max_nodes=5)
    >>> B.exact, B.lower <= 2 <= B.upper
    (False, True)
    >>> randomized_littlestone_bounds(classes.power_set(4)).value
    Fraction(2, 1)

    On a class of ``k > 2`` labels: the best expected mistakes of a randomized learner in the
    full-information game on ``k`` labels (:func:`~mistakebound.theory.game_values.game_value`).

    >>> randomized_littlestone_bounds(classes.all_functions(1, 3)).value
    Fraction(2, 3)
    """
    if isinstance(H, HypothesisClass) and H.n_labels != 2:
        from mistakebound.game.rules import Rules
        from mistakebound.theory.game_values import game_value

        found = game_value(H, Rules(labels=H.n_labels, randomized=True), max_nodes=max_nodes, time_limit=time_limit)
        return RLdimBounds(lower=found.lower, upper=found.upper, status=found.status, nodes=found.nodes,
                           seconds=found.seconds)
    return RLdimSearch(H, max_nodes=max_nodes, time_limit=time_limit).bounds()


def randomized_littlestone_dimension(
    H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None
) -> Fraction:
    """The randomized Littlestone dimension ``RL(H)`` of a finite class, exactly.

    ``RL(H)`` is the optimal expected number of mistakes a randomized learner can
    guarantee against an adaptive realizable adversary (Filmus, Hanneke, Mehalel and
    Moran, COLT 2023): half the largest average depth of a tree shattered by ``H``.
    See the module docstring for the recursion and the proven relations to Ldim.

    Parameters
    ----------
    H : HypothesisClass
    max_nodes : int, optional
        Budget of version spaces to expand (default: none).
    time_limit : float, optional
        Budget of seconds (default: none).

    Returns
    -------
    fractions.Fraction
        A dyadic rational; 0 for a class whose hypotheses agree everywhere.

    Raises
    ------
    InvalidArgumentError
        If ``H`` is not a :class:`HypothesisClass` or for a bad budget.
    SearchIncomplete
        If the budget runs out; ``exc.result`` (an :class:`RLdimBounds`) holds proven
        bounds (a partial number is never returned).
    SearchInterrupted
        On Ctrl-C, with ``exc.result``.

    Examples
    --------
    >>> from mistakebound import HypothesisClass, classes
    >>> randomized_littlestone_dimension(classes.singletons(2))
    Fraction(1, 2)
    >>> randomized_littlestone_dimension(HypothesisClass.from_matrix([[0, 1], [0, 1]]))
    Fraction(0, 1)
    >>> randomized_littlestone_dimension(classes.intervals(12), max_nodes=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mistakebound.theory.search_protocol.SearchIncomplete: search stopped (budget) after 3 nodes: ... <= RL <= ... (partial: budget)
    """
    return randomized_littlestone_bounds(H, max_nodes=max_nodes, time_limit=time_limit).value
