"""The VC dimension of a finite class, by depth-first branch and bound with early exit.

A set of instances is shattered when the class realises all its labelings.  Every
subset of a shattered set is shattered, so the search grows sets one instance at a
time, in a fixed order of the candidate instances, and abandons a set as soon as it is
not shattered (level-by-level enumeration of all ``k``-sets explodes on parities).

* A set ``S`` partitions the class's distinct rows into ``2^|S|`` non-empty cells, one
  per labeling; ``S + x`` is shattered exactly when ``x`` splits every cell.  Cells
  only get finer as ``S`` grows, so an instance that fails to split the cells of ``S``
  fails for every extension: each branch passes down the list of instances that still
  split every cell, and the branch can grow by at most the length of that list.
* A cell of ``s`` rows supports at most ``floor(log2 s)`` further instances, so the
  smallest cell bounds the branch too (at the root: ``floor(log2 |distinct rows|)``).
* A class with fewer than ``2^k`` distinct rows shatters no ``k`` instances, which
  bounds the search from above (with the number of instances left, and ``Ldim`` when
  the caller has it: ``VCdim <= Ldim``); a class whose distinct rows are all ``2^d``
  labelings of its ``d`` instances (the full cube, ``power_set``) is shattered at once.
* Columns that are constant, or equal or complementary to another, are dropped up
  front.  Instances are tried most balanced first, so large sets are found early and
  the bounds above prune the rest.
* The cells are not sets but one array, each row's cell number, per level of the
  search (see :class:`_VCSearch`): memory linear in the table, time checked inside
  every count.
* Past the rows, the cube: when the cells the search would need outgrow
  :data:`CELL_BYTES` as bitsets (many rows, many levels) and the candidates are few
  (:data:`CUBE_BITS`), the search turns around.  The distinct rows, read on the
  candidates, are a set of labelings held as one boolean array over all ``2^m``; a set
  of candidates is shattered exactly when the projection onto it is full, and the
  projections are made from the top down, removing one coordinate at a time (one pass
  over the parent's array each), cut as soon as a projection holds fewer than
  ``2^(best + 1)`` labelings (see :meth:`_VCSearch._cube_search`).  Growing sets from
  below must visit every shattered set up to the answer, a million on ``100000 x 20``
  random rows (VCdim 13); from above, the ``C(20, 6)`` projections onto 14 instances
  settle it in under a second.  It is chosen only when its sweep
  (:data:`CUBE_WORK`) and its arrays (half the memory available) fit, and never when a
  certificate is recorded (the certificate reads the rows search's branches).
* ``VCdim >= 2`` is decided first in near-linear time: after complementing each column
  so that it excludes row 0, two instances are shattered exactly when their columns
  cross (meet, and neither contains the other), so ``VCdim <= 1`` exactly when the
  columns form a laminar family.  Chains such as thresholds are settled without the
  quadratic pair search; otherwise the crossing pair found is the first lower bound.

With a budget (``max_nodes``, ``time_limit``: the :class:`~mistakebound.theory.search_protocol.Budget`
of every search), on Ctrl-C, or when memory runs out (status ``"memory"``), the search
stops and reports proven bounds (:class:`VCBounds`, a
:class:`~mistakebound.theory.search_protocol.SearchResult`): the largest shattered set found,
and the largest size any unexplored branch could still reach.  A search whose
:func:`vc_memory_estimate` exceeds the available memory is refused before it starts
(:class:`~mistakebound.foundations.errors.InsufficientMemoryError`); the cube search
takes its arrays only when they fit in half the memory then available, and searches
the rows otherwise.

Examples
--------
>>> from mistakebound import classes
>>> vc_dimension(classes.thresholds(10))
1
>>> shattered_set(classes.power_set(3))
(0, 1, 2)
>>> vc_bounds(classes.intervals(8)).describe()
'VCdim = 2'
"""

from __future__ import annotations

from collections.abc import Iterable
from types import EllipsisType
from typing import ClassVar

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.bitset import columns_to_masks
from mistakebound.foundations import memory
from mistakebound.foundations.errors import InsufficientMemoryError, InvalidArgumentError
from mistakebound.foundations.memory import format_bytes, require_memory
from mistakebound.foundations.validation import check_instance
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.hypothesis_class import require_binary, require_class
from mistakebound.theory.littlestone import LdimBounds, search_memory_estimate
from mistakebound.theory.search_protocol import Budget, Clock, SearchResult, require_exact, run_within

__all__ = [
    "VCBounds",
    "is_vc_shattered",
    "shattered_set",
    "vc_bounds",
    "vc_dimension",
    "vc_memory_estimate",
]

#: Entries of the array one count of the search covers (a block of candidates times
#: the rows), so that its memory is fixed and the clock is read often.
BLOCK_ENTRIES = 1 << 20
#: Bytes the cells of one node of the search may take as bitsets; past it (many cells of
#: many rows) they are held as one array of cell numbers instead.
CELL_BYTES = 16 << 20
#: The most candidate instances the search projects onto the cube of their labelings
#: (one byte per labeling, twice: 128 MiB at 26).
CUBE_BITS = 26
#: The most bytes the projections of the cube search may sweep, unpruned (about a
#: gigabyte a second on one core); past it the search grows sets over the rows instead.
CUBE_WORK = 1 << 35


class _Found(Exception):
    """A shattered set meeting the static upper bound: nothing larger exists."""


@frozen
class VCBounds(SearchResult):
    """Proven bounds on a VC dimension, from a search that may have stopped early.

    A :class:`~mistakebound.theory.search_protocol.SearchResult` (``lower``, ``upper``,
    ``status``, ``nodes``, ``seconds``; ``exact``, ``value``, ``describe()``) whose
    witness is a shattered set.

    Attributes
    ----------
    witness : tuple
        A shattered set of ``lower`` instances, in domain order.
    nodes : int
        Search nodes expanded (candidate sets whose extensions were listed).

    Examples
    --------
    >>> from mistakebound import classes
    >>> b = vc_bounds(classes.power_set(4))
    >>> b.exact, b.lower, b.witness
    (True, 4, (0, 1, 2, 3))
    >>> VCBounds(lower=2, upper=5, status="budget").describe()
    '2 <= VCdim <= 5 (partial: budget)'
    """

    quantity: ClassVar[str] = "VCdim"

    witness: tuple = field(default=(), eq=False, repr=False)


class _VCSearch:
    """One branch-and-bound search over the distinct rows of a class.

    The cells of a shattered set are held in one of two ways.  While they are few, as a
    list of bitsets over the distinct rows (one Python int per cell): testing a
    candidate stops at the first cell it does not split, which is fast when most
    candidates fail.  When the cells' bitsets would take more than
    :data:`CELL_BYTES` (``2^|S|`` cells of ``|rows| / 8`` bytes each: gigabytes on a
    class of ``2^18`` rows), as one integer array, the cell number of each distinct row:
    ``S + x`` is shattered exactly when every cell holds rows of both labels of ``x``,
    and one ``numpy.bincount`` of ``2 * cell + label`` decides it for a block of
    candidates at a time (:data:`BLOCK_ENTRIES` entries), in memory linear in the rows
    whatever the number of cells.  The clock is read inside both loops.
    """

    def __init__(self, H: HypothesisClass, clock: Clock, ldim_upper: int | None = None, record: bool = False,
                 available: int | None | EllipsisType = ...):
        self.H = H
        self.clock = clock
        self.available = available  # the memory budget as the caller read it (...: read when needed)
        reps, _ = H.distinct_rows()
        D = H.matrix if reps.size == H.n_hypotheses else H.matrix[reps]
        self.n_distinct = n = int(D.shape[0])
        self.full = full = (1 << n) - 1
        cols = columns_to_masks(D)
        # one candidate per split of the class: constant columns, and columns equal or
        # complementary to an earlier one, are dropped (they add nothing to a shattered set)
        seen: dict[int, int] = {}
        cand: list[int] = []
        self.copies: list[list[int]] = []  # with ``record``: [j, the earlier column j copies]
        for j, c in enumerate(cols):
            if c == 0 or c == full:
                continue
            key = min(c, full ^ c)
            if key not in seen:
                seen[key] = j
                cand.append(j)
            elif record:
                self.copies.append([j, seen[key]])
        del seen
        self.cand = cand
        self.cols = [cols[j] for j in cand]  # per candidate position, its column as a bitset
        del cols
        self.D = D
        self._C: np.ndarray | None = None
        # floor(log2 |distinct rows|) (k instances need 2^k distinct rows), the number of
        # usable instances, and Ldim when the caller proved it (VCdim <= Ldim)
        upper = min(max(n.bit_length() - 1, 0), len(cand))
        if ldim_upper is not None:
            upper = min(upper, max(int(ldim_upper), 0))
        self.static_upper = upper
        # the most cells held as bitsets (both the cells and their refinement)
        self.max_bitset_cells = max(1, CELL_BYTES // (2 * (n // 8 + 100)))
        self.best: list[int] = []  # positions in cand
        self.stack: list[list] = []
        # with ``record``, the branches of the search as a tree (see :meth:`run`), for its certificate
        self.tree: dict | None = {"split": []} if record else None
        self.parents: list[int] | None = None  # when the columns are laminar: each one's smallest superset
        self.cube_frames: list[list[int]] | None = None  # the cube search's open nodes (see _cube_search)

    @property
    def C(self) -> np.ndarray:
        """Per candidate position, its column (the labels of the distinct rows), made on first use."""
        if self._C is None:
            self._C = np.ascontiguousarray(self.D[:, self.cand].T)
        return self._C

    # ------------------------------------------------------------ cell arrays
    def _cell_array(self, chosen: list[int]) -> np.ndarray:
        """Each distinct row's cell under the candidates ``chosen`` (its labels read in binary)."""
        cells = np.zeros(self.n_distinct, dtype=np.int32)
        for k in chosen:
            cells *= 2
            cells += self.C[k]
        return cells

    def _min_counts(self, cells: np.ndarray, width: int, ks) -> np.ndarray:
        """Per candidate position in ``ks``: the fewest rows of a (cell, label) pair (0: a cell not split).

        ``cells`` holds each distinct row's cell, in ``0 .. width - 1``.  The candidates
        are counted a block at a time (about :data:`BLOCK_ENTRIES` entries), and the
        clock is read after every block.
        """
        ks = np.asarray(ks, dtype=np.intp)
        out = np.zeros(ks.size, dtype=np.int64)
        step = max(1, BLOCK_ENTRIES // max(cells.size, 2 * width, 1))
        base = cells.astype(np.intp) * 2
        for a in range(0, ks.size, step):
            block = ks[a:a + step]
            keys = self.C[block].astype(np.intp)
            keys += base
            keys += (np.arange(block.size, dtype=np.intp) * (2 * width))[:, None]
            counts = np.bincount(keys.ravel(), minlength=block.size * 2 * width)
            out[a:a + block.size] = counts.reshape(block.size, 2 * width).min(axis=1)
            del keys, counts
            self.clock.check_time()
        return out

    # ------------------------------------------------------------ VCdim <= 1 ?
    def _crossing_pair(self) -> tuple[int, int] | None:
        """Two shattered candidates, or None when the columns (up to complement) are laminar.

        When laminar, :attr:`parents` holds each candidate's smallest superset among the
        columns turned to exclude row 0 (its position, -1 for none).
        """
        D, cand, cols, full = self.D, self.cand, self.cols, self.full
        norm = [c if not c & 1 else full ^ c for c in cols]  # each column turned to exclude row 0
        order = sorted(range(len(cols)), key=lambda p: (-norm[p].bit_count(), p))
        owner = np.full(self.n_distinct, -1, dtype=np.int64)
        parents = [-1] * len(cols)
        check = self.clock.check_time
        for p in order:
            check()
            column = D[:, cand[p]]
            rows = np.flatnonzero(column != column[0])
            o = owner[rows]
            if (o != o[0]).any():
                s = norm[p]
                for u in np.unique(o).tolist():
                    if u < 0:
                        continue
                    t = norm[u]
                    if s & t and s & ~t and t & ~s:
                        return (u, p)
                return None  # pragma: no cover - a crossing owner always exists
            owner[rows] = p
            parents[p] = int(o[0])
        self.parents = parents
        return None

    def _greedy(self, order: list[int]) -> list[int]:
        """A shattered set grown first-fit along ``order`` (a quick first lower bound)."""
        cols, check = self.cols, self.clock.check_time
        cells: list[int] | None = [self.full]
        array: np.ndarray | None = None
        chosen: list[int] = []
        for t, k in enumerate(order):
            if len(chosen) >= self.static_upper:
                break
            if cells is not None:
                if len(cells) > 16 or not t & 255:
                    check()
                c = cols[k]
                for cell in cells:
                    a = cell & c
                    if a == 0 or a == cell:
                        break
                else:
                    chosen.append(k)
                    if 2 * len(cells) <= self.max_bitset_cells:
                        cells = [part for cell in cells for part in (cell & c, cell & ~c)]
                    else:  # too many cells for bitsets: one array from now on
                        cells, array = None, self._cell_array(chosen)
            elif self._min_counts(array, 1 << len(chosen), [k])[0] > 0:
                chosen.append(k)
                array = array * 2 + self.C[k]
        return chosen

    # ------------------------------------------------------------ the cube
    def _cube_work(self, m: int) -> int:
        """Bytes the cube search over ``m`` candidates sweeps at most, from the best set found so far.

        The projections onto every set of more than ``len(best)`` candidates, each made from
        its parent's in one pass: ``sum_j C(m, j) 2^(m - j)`` over ``j < m - len(best)``.
        """
        total, ways = 0, 1
        for j in range(max(m - len(self.best), 0)):
            total += ways << (m - j)
            ways = ways * (m - j) // (j + 1)
        return total

    def _use_cube(self, order: list[int]) -> bool:
        """Whether to search by projections of the cube (see :meth:`_cube_search`) rather than over the rows.

        Not when recording (the certificate reads the rows search's branches), nor while
        the deepest cells the rows search could need fit in :data:`CELL_BYTES` as bitsets
        (it is fast then), nor when the cube has more than :data:`CUBE_BITS` dimensions,
        its sweep more than :data:`CUBE_WORK` bytes, or its arrays more than half the
        memory available.
        """
        m = len(order)
        if self.tree is not None or m > CUBE_BITS or (1 << self.static_upper) <= self.max_bitset_cells:
            return False
        if self._cube_work(m) > CUBE_WORK:
            return False
        available = memory.available_memory() if self.available is ... else self.available
        return available is None or 2 * ((2 << m) + 16 * self.n_distinct) <= available

    def _cube_search(self, coords: list[int]) -> None:
        """The largest shattered set, by projecting the set of labelings down, one coordinate at a time.

        The distinct rows, read on the candidates ``coords`` (coordinate ``i`` is bit ``i``),
        are a set ``P`` of labelings, held as a boolean array over all ``2^m``.  A set
        ``T`` of candidates is shattered exactly when the projection of ``P`` onto ``T``
        is all ``2^|T|`` labelings.  The search removes coordinates in increasing order
        (each removal set once, depth first): a node ``T`` is its parent's projection with
        one more coordinate ORed away (one pass over the parent's array, into a buffer
        per depth), and it is

        * shattered when its projection is full: a new best set, and its subsets need
          no look;
        * cut when ``|T| - 1`` is not above the best size, or when its projection holds
          fewer than ``2^(best + 1)`` labelings (a projection never grows, and a shattered
          set of ``d`` instances needs ``2^d`` of them).

        Each node counts one against the budget and reads the clock.  Stopped early, a
        node left with children to try bounds what they hold (:meth:`_open_bound`).
        """
        m = len(coords)
        codes = np.zeros(self.n_distinct, dtype=np.int64)
        for i, k in enumerate(coords):
            codes |= self.C[k].astype(np.int64) << i
        top = np.zeros(1 << m, dtype=bool)
        top[codes] = True
        del codes
        bufs = [top] + [np.empty(1 << (m - j), dtype=bool) for j in range(1, m + 1)]
        spend, check = self.clock.spend, self.clock.check_time
        # per depth: [size of T, labelings of its projection, next coordinate to remove]
        frames = self.cube_frames = []
        removed: list[int] = []
        limit = self.static_upper

        def visit(t: int, start: int, labelings: int) -> None:
            j = len(removed)
            a = bufs[j]
            frame = [t, labelings, start]
            frames.append(frame)
            child = bufs[j + 1]
            for r in range(start, m):
                frame[2] = r
                if t - 1 <= len(self.best) or frame[1] < 2 << len(self.best):
                    break
                spend()
                check()
                low = 1 << (r - j)  # removed coordinates all lie below r
                np.bitwise_or(a.reshape(-1, 2, low)[:, 0, :], a.reshape(-1, 2, low)[:, 1, :],
                              out=child.reshape(-1, low))
                removed.append(r)
                count = int(np.count_nonzero(child))
                if count == child.size:
                    gone = set(removed)
                    self.best = [coords[i] for i in range(m) if i not in gone]
                    removed.pop()
                    if len(self.best) >= limit:
                        raise _Found
                    continue
                visit(t - 1, r + 1, count)
                removed.pop()
            frames.pop()

        try:
            visit(m, 0, int(np.count_nonzero(top)))
        except _Found:
            frames.clear()

    # ------------------------------------------------------------ the search
    def result(self, status: str) -> VCBounds:
        """The bounds proven when the search ended with ``status``."""
        best = list(self.best)
        lower = len(best)
        upper = lower if status == "exact" else min(max(lower, self._open_bound()), self.static_upper)
        witness = tuple(self.H.domain[j] for j in sorted(self.cand[p] for p in best))
        clock = self.clock
        return VCBounds(lower=lower, upper=upper, status=status, witness=witness, nodes=clock.nodes,
                        seconds=clock.seconds)

    def _open_bound(self) -> int:
        """The largest size an unexplored branch could reach.

        A frame ``[size, gains, pos]`` stands for the sets grown from a shattered set of
        ``size`` instances by candidates ``pos, pos + 1, ...`` of its list; the child being
        explored (the next frame, if any) accounts for candidate ``pos`` itself.
        """
        if self.cube_frames is not None:
            # a shattered set not yet seen lies below a frame's next removal: it has fewer
            # than |T| instances and at most log2 of T's labelings
            if not self.cube_frames:
                return self.static_upper
            return max(min(t - 1, labelings.bit_length() - 1) for t, labelings, _ in self.cube_frames)
        stack = list(self.stack)
        if not stack:
            return self.static_upper  # stopped before the search began
        hi = 0
        for d, (size, gains, pos) in enumerate(stack):
            rest = gains[pos + 1:] if d + 1 < len(stack) else gains[pos:]
            hi = max(hi, size + _h_index(rest))
        return hi

    def run(self) -> None:
        """Search; :attr:`best` holds the largest shattered set found, :attr:`stack` what is left open."""
        cand, cols = self.cand, self.cols
        limit = self.static_upper
        n_all = self.n_distinct
        if not cand or limit == 0:
            return
        if n_all == 1 << len(cand) and limit == len(cand):
            # the distinct rows, distinct on the candidates, are all 2^|cand| labelings of them
            self.best = list(range(len(cand)))
            return
        full = self.full
        root = []
        for p, c in enumerate(cols):
            ones = c.bit_count()
            root.append((min(ones, n_all - ones).bit_length(), p))
        root.sort(key=lambda t: -t[0])  # most balanced first (stable: domain order on ties)
        order = [p for _, p in root]
        self.best = self._greedy(order)
        if len(self.best) >= limit:
            return
        if len(self.best) == 1:
            pair = self._crossing_pair()
            if pair is None:
                return  # laminar: VCdim == 1
            self.best = list(pair)
            if limit <= 2:
                return
        if self._use_cube(order):
            self._cube_search(order[::-1])
            return
        stack = self.stack
        spend = self.clock.spend
        check = self.clock.check_time
        max_cells = self.max_bitset_cells
        chosen: list[int] = []

        def extensions_by_bitsets(new: list[tuple[int, int]], rest: list[int], need: int) -> list[tuple[int, int]]:
            new.sort(key=lambda t: t[0])  # small cells first: they fail soonest
            sub_counts = [t[0] for t in new]
            sub_cells = [t[1] for t in new]
            thr = 1 << need
            often = len(sub_cells) > 16
            ext: list[tuple[int, int]] = []
            for t, k in enumerate(rest):
                if often or not t & 255:
                    check()
                ck = cols[k]
                if thr == 1:  # only "splits every cell" matters: compare, count later
                    for cell in sub_cells:
                        a = cell & ck
                        if a == 0 or a == cell:
                            break
                    else:
                        m = min(min(na, cnt - na) for na, cnt in
                                (((cell & ck).bit_count(), cnt) for cell, cnt in zip(sub_cells, sub_counts)))
                        ext.append((m.bit_length(), k))
                    continue
                m = n_all
                for cell, cnt in zip(sub_cells, sub_counts):
                    na = (cell & ck).bit_count()
                    if na < thr or cnt - na < thr:
                        break
                    if na < m:
                        m = na
                    if cnt - na < m:
                        m = cnt - na
                else:
                    ext.append((m.bit_length(), k))
            return ext

        def grow(cells: list[int] | None, counts: list[int] | None, array: np.ndarray | None,
                 L: list[int], gains: list[int], node: dict | None) -> None:
            # Invariants: chosen is shattered; its cells are ``cells``/``counts`` (bitsets and
            # sizes, smallest first) or, once they are too many, ``array`` (each distinct
            # row's cell); every k in L splits every cell, and a shattered set containing
            # chosen + k has at most len(chosen) + gains[i] instances; gains descend.
            # When recording, ``node`` keeps L and gains, and one [L[i], child] per branch taken,
            # in order (so however the loop ends, L[len(split):] are the candidates left).
            size = len(chosen)
            width = 1 << size
            frame = [size, gains, 0]
            stack.append(frame)
            n = len(L)
            split = None
            if node is not None:
                node["L"], node["gains"], split = L, gains, node["split"]
            for i in range(n):
                frame[2] = i
                # h-index of gains[i:]: the most candidates that can still be added together
                h = 0
                while i + h < n and gains[i + h] > h:
                    h += 1
                if size + h <= len(self.best):
                    break
                k = L[i]
                chosen.append(k)
                if len(chosen) > len(self.best):
                    self.best = list(chosen)
                    if len(chosen) >= limit:
                        raise _Found
                need = len(self.best) - size - 1  # a useful k must leave every sub-cell >= 2**need rows
                record: dict | None = None  # when recording: this branch (None: not expanded)
                recorded = False
                if gains[i] - 1 > need and i + 1 < n:
                    spend()  # raises OutOfBudget past the budget: this node is not expanded
                    check()
                    rest = L[i + 1:]
                    if cells is not None and 2 * width <= max_cells:
                        c = cols[k]
                        new: list[tuple[int, int]] = []
                        for cell, cnt in zip(cells, counts):
                            a = cell & c
                            na = a.bit_count()
                            new.append((na, a))
                            new.append((cnt - na, cell ^ a))
                        ext = extensions_by_bitsets(new, rest, need)
                        sub_cells: list[int] | None = [t[1] for t in new]
                        sub_counts: list[int] | None = [t[0] for t in new]
                        sub_array = None
                        del new
                    else:
                        sub_array = self._cell_array(chosen) if array is None else array * 2 + self.C[k]
                        mins = self._min_counts(sub_array, 2 * width, rest).tolist()
                        thr = 1 << need
                        ext = [(m.bit_length(), q) for m, q in zip(mins, rest) if m >= thr]
                        sub_cells = sub_counts = None
                    if ext:
                        ext.sort(key=lambda t: -t[0])
                        child_gains = [g for g, _ in ext]
                        if size + 1 + _h_index(child_gains) > len(self.best):
                            sub = None
                            if split is not None:
                                sub = {"split": []}
                                split.append([k, sub])  # before growing it: a budget may stop it
                                recorded = True
                            grow(sub_cells, sub_counts, sub_array, [q for _, q in ext], child_gains, sub)
                        elif split is not None:  # the h-index cut: none of ext branched
                            record = {"split": [], "L": [q for _, q in ext], "gains": child_gains}
                    del sub_cells, sub_counts, sub_array
                if split is not None and not recorded:
                    split.append([k, record])
                chosen.pop()
            stack.pop()

        try:
            grow([full], [n_all], None, order, [g for g, _ in root], self.tree)
        except _Found:
            stack.clear()


def _h_index(gains) -> int:
    """The largest ``h`` such that ``h`` of the (descending) gains are at least ``h``."""
    h = 0
    for g in gains:
        if g > h:
            h += 1
        else:
            break
    return h


def vc_bounds(H: HypothesisClass, *, max_nodes: int | None = None,
              time_limit: float | None = None, ldim: LdimBounds | None = None) -> VCBounds:
    """Proven lower and upper bounds on ``VCdim(H)`` within a budget of nodes and/or seconds.

    Without a budget the bounds are equal (the exact value).  Ctrl-C stops the search
    and returns the bounds proven so far, with ``status="interrupted"``.

    Parameters
    ----------
    H : HypothesisClass
    max_nodes : int, optional
        Budget of search nodes (candidate sets whose extensions are listed).
    time_limit : float, optional
        Budget of seconds, counted from the call (reading the class included); the
        clock is read at every node and inside every long count, so the search stops
        within a few milliseconds of it (a node of the cube search, one projection,
        takes at most tens of milliseconds).
    ldim : LdimBounds, optional
        A Littlestone search's result for the same class: ``VCdim <= Ldim <=
        ldim.upper`` (textbook, Section 21.1), so the search stops as soon as it finds a
        shattered set of ``ldim.upper`` instances, and its upper bound is never above it.

    Returns
    -------
    VCBounds
        ``lower`` is the size of the shattered set ``witness``; ``upper`` is at most
        ``floor(log2(number of distinct rows))`` (``k`` instances need ``2^k`` distinct
        rows), the number of instances that split the class and ``ldim.upper``, and
        below that what the unexplored branches could reach.  ``status`` is
        ``"memory"`` when the search met a ``MemoryError`` (the bounds are still
        proven).

    Raises
    ------
    InvalidArgumentError
        For a bad ``H``, ``max_nodes``, ``time_limit`` or ``ldim``.
    InsufficientMemoryError
        Before the search starts, when :func:`vc_memory_estimate` exceeds the memory
        available (:func:`~mistakebound.foundations.memory.available_memory`), or when
        reading the class runs out of memory all the same.

    Examples
    --------
    >>> from mistakebound import classes
    >>> vc_bounds(classes.parities(6)).describe()
    'VCdim = 6'
    >>> b = vc_bounds(classes.random(3000, 30, 0.3, seed=0), max_nodes=5)
    >>> b.status, b.lower <= b.upper, len(b.witness) == b.lower
    ('budget', True, True)
    """
    require_binary(require_class(H), what="the VC dimension")
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
    ldim_upper = None
    if ldim is not None:
        check_instance("ldim", ldim, LdimBounds, "an LdimBounds (from littlestone_bounds of the same class)")
        ldim_upper = ldim.upper
    return _searched(H, budget, ldim_upper)[1]


def _searched(H: HypothesisClass, budget: Budget, ldim_upper: int | None,
              record: bool = False) -> tuple[_VCSearch, VCBounds]:
    """Run one search of ``H`` within ``budget`` (see :func:`vc_bounds`); return it and its bounds.

    With ``record`` the search keeps what its certificate needs (:attr:`_VCSearch.tree`,
    ``copies``, ``parents``; read by :mod:`mistakebound.theory.vc_certificate`).
    """
    what = f"a VC search of {H.n_hypotheses} hypotheses x {H.n_instances} instances"
    available = memory.available_memory()  # read once, for the check and the choice of the cube
    require_memory(vc_memory_estimate(H), parameter="H", what=what, advice="search a smaller class",
                   available=available)
    clock = budget.start()
    try:
        search = _VCSearch(H, clock, ldim_upper, record, available)
    except MemoryError as exc:
        if isinstance(exc, InsufficientMemoryError):
            raise
        raise InsufficientMemoryError(
            f"H: {what} ran out of memory while reading the class (estimated "
            f"{format_bytes(vc_memory_estimate(H))}); search a smaller class",
            needed=vc_memory_estimate(H), available=memory.available_memory(),
        ) from None
    status = run_within(search.run)
    return search, search.result(status)


def vc_memory_estimate(H: HypothesisClass) -> int:
    """Bytes a VC search of ``H`` needs at most, with every row assumed distinct.

    The grouping of identical rows and the distinct rows (as for
    :func:`~mistakebound.theory.littlestone.search_memory_estimate`), two working
    copies of the table (one byte per entry) and its columns as bitsets, one cell array
    per level of the search (4 bytes a row, at most ``floor(log2 |H|) + 2`` levels), and
    the counting block (:data:`BLOCK_ENTRIES` entries, twice, 8 bytes each).  Linear in
    the size of the table: the full cube ``{0,1}^18`` (``2^18 x 18``) needs about
    80 MiB.  The cube search's arrays are not counted: it runs only when they fit in
    half the memory available when it would start, and the rows are searched otherwise.

    Examples
    --------
    >>> from mistakebound import classes
    >>> vc_memory_estimate(classes.thresholds(7)) < 40 * 2**20
    True
    """
    n, m = require_class(H).n_hypotheses, H.n_instances
    levels = min(max(n.bit_length() - 1, 0), m) + 2
    return search_memory_estimate(H) + 2 * n * m + n * m // 8 + 4 * n * levels + 16 * BLOCK_ENTRIES


def shattered_set(H: HypothesisClass, *, max_nodes: int | None = None,
                  time_limit: float | None = None) -> tuple:
    """A largest set of instances shattered by ``H`` (in the VC sense).

    Parameters
    ----------
    H : HypothesisClass
    max_nodes, time_limit : optional
        A budget, as in :func:`vc_bounds`.

    Returns
    -------
    tuple
        Instances of ``H.domain``, in domain order; ``()`` when no single instance is
        labelled both ways.

    Raises
    ------
    InvalidArgumentError
        For a bad ``H`` or budget.
    SearchIncomplete
        If the budget runs out; ``exc.result`` is a :class:`VCBounds` whose
        ``witness`` is the largest shattered set found (never returned as if largest).
    SearchInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``), with ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> len(shattered_set(classes.intervals(6)))
    2
    """
    return require_exact(vc_bounds(H, max_nodes=max_nodes, time_limit=time_limit)).witness


def vc_dimension(H: HypothesisClass, *, max_nodes: int | None = None,
                 time_limit: float | None = None) -> int:
    """The VC dimension of ``H``: the size of a largest shattered set, exactly.

    Parameters
    ----------
    H : HypothesisClass
    max_nodes, time_limit : optional
        A budget, as in :func:`vc_bounds`.

    Returns
    -------
    int

    Raises
    ------
    InvalidArgumentError
        For a bad ``H`` or budget.
    SearchIncomplete
        If the budget runs out; ``exc.result`` (a :class:`VCBounds`) holds the proven
        bounds, so a partial number is never returned as exact.
    SearchInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``), with ``exc.result``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> vc_dimension(classes.monotone_disjunctions(3))
    3
    """
    return vc_bounds(H, max_nodes=max_nodes, time_limit=time_limit).value


def is_vc_shattered(H: HypothesisClass, instances) -> bool:
    """Whether ``H`` realises every labeling of the given distinct instances.

    Examples
    --------
    >>> from mistakebound import classes
    >>> is_vc_shattered(classes.thresholds(5), [2]), is_vc_shattered(classes.thresholds(5), [2, 4])
    (True, False)
    """
    require_class(H)
    if isinstance(instances, (str, bytes)) or not isinstance(instances, Iterable):
        raise InvalidArgumentError(
            f"instances: expected an iterable of instances of the domain, got {type(instances).__name__} {instances!r}"
        )
    items = list(instances)
    if not all(x in H for x in items):  # also False for unhashable items
        return False
    if len(set(items)) != len(items):
        return False
    patterns = {tuple(row) for row in H.matrix[:, [H.index_of(x) for x in items]].tolist()}
    return len(patterns) == 2 ** len(items)
