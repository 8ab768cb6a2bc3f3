"""The Littlestone dimension, computed exactly, and the shattered trees that certify it.

``Ldim(V)`` is the depth of the deepest tree shattered by ``V`` (textbook Definitions
21.4 and 21.5).  It obeys the recursion

    Ldim(V) = 0                                       if no instance splits V,
    Ldim(V) = max over splitting x of 1 + min(Ldim(V_x^0), Ldim(V_x^1)),

where ``V_x^r`` holds the hypotheses of ``V`` labelling ``x`` with ``r``.  The textbook
recursion evaluates every branch.  :class:`LdimSearch` returns the same numbers but
answers the decision question "is ``Ldim(V) >= k``?" instead, which lets it stop at
the first column that works and refute a column as soon as one side falls short:

* version spaces are bitsets (Python ints, see :mod:`mistakebound.bitset`), duplicate
  rows are merged once up front, and the memo keeps, per version space, the largest
  ``k`` proven reachable and the smallest proven unreachable;
* a column that does not split ``V`` splits none of its subsets, so each node passes its
  splitting columns down, and columns inducing the same split of ``V`` (equal or
  complementary on ``V``) are tried once;
* splits are tried most balanced first.  A split whose smaller side has ``s``
  hypotheses reaches at most ``1 + floor(log2 s)``, so once that falls below ``k`` the
  remaining, less balanced, splits are skipped; the same fact, with
  ``Ldim(V) <= floor(log2 |V|)``, gives the upper bound the exact value is searched down
  from, so a class that meets its bound (thresholds, disjunctions) is settled by one
  successful dive.

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

import numbers
import time
from collections.abc import Hashable

import networkx as nx
import numpy as np
from attrs import frozen

from mistakebound.bitset import column_to_mask, full_mask, mask_to_indices
from mistakebound.errors import InvalidArgumentError, MistakeboundError
from mistakebound.hypothesis_class import HypothesisClass

__all__ = [
    "LdimBounds",
    "LdimSearch",
    "SearchIncomplete",
    "SearchInterrupted",
    "is_shattered",
    "littlestone_bounds",
    "littlestone_dimension",
    "shattered_tree",
]


def _require_class(H: object, parameter: str = "H") -> HypothesisClass:
    if not isinstance(H, HypothesisClass):
        raise InvalidArgumentError(
            f"{parameter}: expected a HypothesisClass, got {type(H).__name__}"
        )
    return H


class LdimSearch:
    """An exact Littlestone-dimension search over the sub-classes of one class.

    The search works on the class's distinct rows; version spaces passed to
    :meth:`ldim` are bitsets over those distinct rows (bit ``i`` is distinct row ``i``,
    see :attr:`representatives`).  The memo is kept between calls, so a learner that
    asks about many version spaces of one class (SOA) pays for each only once.

    Parameters
    ----------
    H : HypothesisClass
        The class whose sub-classes are searched.

    Attributes
    ----------
    representatives : numpy.ndarray
        For each distinct row, the index of its first occurrence in ``H``.
    row_to_distinct : numpy.ndarray
        For each row of ``H``, the index of its distinct row.
    columns : tuple of int
        Per instance of ``H.domain``, the bitset (over distinct rows) of hypotheses
        labelling it 1.
    nodes : int
        Number of search nodes expanded so far (memo hits excluded).

    Examples
    --------
    >>> from mistakebound import classes
    >>> search = LdimSearch(classes.singletons(5))
    >>> search.ldim(search.full)
    1
    >>> search.ldim(0b00011)  # the sub-class {h_1, h_2}
    1
    >>> search.ldim(0b00001)
    0
    """

    def __init__(self, H: HypothesisClass):
        self.H = _require_class(H)
        self.representatives, self.row_to_distinct = H.distinct_rows()
        distinct = H.matrix[self.representatives]
        self.n_distinct = int(distinct.shape[0])
        self.full = full_mask(self.n_distinct)
        packed = np.packbits(distinct, axis=0, bitorder="little")
        self.columns = tuple(
            int.from_bytes(packed[:, j].tobytes(), "little") for j in range(distinct.shape[1])
        )
        # one representative column per split of the full class; constant columns dropped
        seen: dict[int, int] = {}
        for j, c in enumerate(self.columns):
            if c == 0 or c == self.full:
                continue
            key = min(c, self.full ^ c)
            seen.setdefault(key, j)
        self._root_columns = tuple(sorted(seen.values()))
        self._lo: dict[int, int] = {}
        self._hi: dict[int, int] = {}
        self.nodes = 0
        self._node_limit: int | None = None
        self._deadline: float | None = None

    # -------------------------------------------------------------- queries
    def mask_of_rows(self, rows) -> int:
        """The bitset over distinct rows of the given rows of ``H`` (indices or a bitset)."""
        idx = mask_to_indices(rows) if isinstance(rows, int) else np.asarray(list(rows), dtype=np.int64)
        if idx.size == 0:
            return 0
        col = np.zeros(self.n_distinct, dtype=np.uint8)
        col[self.row_to_distinct[idx]] = 1
        return column_to_mask(col)

    def ldim(self, V: int, cap: int | None = None) -> int:
        """``min(Ldim(V), cap)`` for a version space ``V`` over distinct rows.

        With ``cap=None`` the exact value.  An empty ``V`` has Ldim ``-1`` by the usual
        convention (no hypothesis realises even the empty path).
        """
        if V == 0:
            return -1
        splits = self._splits(V, self._splitting(V))
        k = self._upper(V, splits)
        if cap is not None and cap < k:
            k = cap
        while k > 0 and not self._at_least(V, (), k, splits):
            k -= 1
        return k

    def bounds(self, V: int | None = None, *, max_nodes: int | None = None,
               time_limit: float | None = None) -> LdimBounds:
        """Proven bounds on ``Ldim(V)`` within a budget (default: the whole class, no budget).

        The exact search runs down from a proven upper bound; when it runs out of nodes
        or time, or is interrupted with Ctrl-C, it stops and reports the bounds proven so
        far.  Memo entries are written only for finished nodes, so a later call resumes
        with everything already proven.
        """
        V = self.full if V is None else V
        started, nodes_before = time.monotonic(), self.nodes
        self._node_limit = None if max_nodes is None else self.nodes + max_nodes
        self._deadline = None if time_limit is None else started + time_limit
        splits = self._splits(V, self._splitting(V)) if V else []
        upper = self._upper(V, splits) if V else -1
        lower = -1 if V == 0 else 0 if not splits else self._lo.get(V, 1)
        status = "exact"
        try:
            k = upper
            while k > lower and not self._at_least(V, (), k, splits):
                k -= 1
                upper = k
            lower = upper
        except _OutOfBudget:
            status = "budget"
        except KeyboardInterrupt:
            status = "interrupted"
        finally:
            self._node_limit = self._deadline = None
        lower = max(lower, self._lo.get(V, lower)) if V else lower
        return LdimBounds(lower=lower, upper=upper, status=status,
                          nodes=self.nodes - nodes_before, seconds=time.monotonic() - started)

    def at_least(self, V: int, k: int) -> bool:
        """Whether ``Ldim(V) >= k`` for a version space ``V`` over distinct rows."""
        if V == 0:
            return k <= -1
        return self._at_least(V, self._splitting(V), k)

    def _splitting(self, V: int) -> list[int]:
        cols = self.columns
        return [j for j in self._root_columns if 0 != (V & cols[j]) != V]

    def _splits(self, V: int, cand) -> list[tuple[int, int]]:
        """Distinct splits of V as (smaller side, column), most balanced first."""
        cols = self.columns
        seen: dict[int, tuple[int, int]] = {}
        for j in cand:
            a = V & cols[j]
            if a == 0 or a == V:
                continue
            b = V ^ a
            na = a.bit_count()
            small, ns = (a, na) if 2 * na <= V.bit_count() else (b, V.bit_count() - na)
            key = a if a < b else b
            if key not in seen:
                seen[key] = (ns, small, j)
        out = sorted(seen.values(), key=lambda t: (-t[0], t[2]))
        return [(small, j) for _, small, j in out]

    def _upper(self, V: int, splits: list[tuple[int, int]]) -> int:
        """A proven upper bound: the memo's, floor(log2 |V|), and 1 + floor(log2) of the best split."""
        hi = V.bit_count().bit_length() - 1
        if splits:
            hi = min(hi, splits[0][0].bit_count().bit_length())
        else:
            hi = 0
        return min(hi, self._hi.get(V, hi))

    def _at_least(self, V: int, cand, k: int, splits: list | None = None) -> bool:
        """Whether ``Ldim(V) >= k``; ``cand`` holds every column that may split V.

        The memo keeps, per version space, the largest ``k`` proven reachable
        (``_lo``) and the smallest proven unreachable minus one (``_hi``).
        """
        if k <= 0:
            return True
        if k > V.bit_count().bit_length() - 1:  # Ldim(V) <= floor(log2 |V|)
            return False
        if k <= self._lo.get(V, 1):  # |V| >= 2 distinct rows: some column splits V
            return True
        if k > self._hi.get(V, k):
            return False
        self.nodes += 1
        if self._node_limit is not None and self.nodes > self._node_limit:
            raise _OutOfBudget
        if self._deadline is not None and self.nodes % 256 == 0 and time.monotonic() > self._deadline:
            raise _OutOfBudget
        if splits is None:
            splits = self._splits(V, cand)
        sub = [j for _, j in splits]
        need = k - 1
        lo = self._lo
        for small, j in splits:
            if small.bit_count().bit_length() <= need:
                break  # floor(log2 |small|) < k - 1 here and for every later split
            if self._at_least(small, sub, need) and self._at_least(V ^ small, sub, need):
                gained = 1 + min(lo.get(small, need), lo.get(V ^ small, need))
                lo[V] = max(k, gained)
                return True
        self._hi[V] = need
        return False

    # ------------------------------------------------------------- the tree
    def tree(self, V: int | None = None) -> nx.DiGraph:
        """A shattered tree of depth ``Ldim(V)`` for the version space ``V`` (default all)."""
        V = self.full if V is None else V
        if V == 0:
            raise InvalidArgumentError("V: expected a non-empty version space, got the empty set")
        depth = self.ldim(V)
        G = nx.DiGraph(depth=depth, root=1)
        domain = self.H.domain
        cols = self.columns
        stack = [(1, V, depth, self._splitting(V))]
        while stack:
            node, W, d, cand = stack.pop()
            if d == 0:
                row = int(self.representatives[mask_to_indices(W)[0]])
                G.add_node(node, witness=row, witness_name=self.H.hypothesis_name(row))
                continue
            splits = self._splits(W, cand)
            sub = [k for _, k in splits]
            for small, j in splits:
                a = W & cols[j]
                if self._at_least(a, sub, d - 1) and self._at_least(W ^ a, sub, d - 1):
                    break
            else:  # pragma: no cover - contradicts the value just computed
                raise AssertionError("no split realises the computed Littlestone dimension")
            G.add_node(node, instance=domain[j])
            G.add_edge(node, 2 * node, label=0)
            G.add_edge(node, 2 * node + 1, label=1)
            stack.append((2 * node, W ^ a, d - 1, sub))
            stack.append((2 * node + 1, a, d - 1, sub))
        return G


class _OutOfBudget(Exception):
    pass


@frozen
class LdimBounds:
    """Proven bounds on a Littlestone dimension, from a search that may have stopped early.

    Attributes
    ----------
    lower, upper : int
        ``lower <= Ldim <= upper``; equal when the search finished.
    status : str
        ``"exact"``, ``"budget"`` (out of nodes or time) or ``"interrupted"`` (Ctrl-C).
    nodes : int
        Search nodes expanded by this call.
    seconds : float
        Wall time of this call.
    """

    lower: int
    upper: int
    status: str
    nodes: int = 0
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        """Whether the search finished (then ``lower == upper == Ldim``)."""
        return self.status == "exact"

    def describe(self) -> str:
        """``"Ldim = 4"`` or ``"3 <= Ldim <= 5 (partial: budget)"``."""
        if self.exact:
            return f"Ldim = {self.lower}"
        return f"{self.lower} <= Ldim <= {self.upper} (partial: {self.status})"


class SearchIncomplete(MistakeboundError):
    """An exact search stopped before finishing; ``.bounds`` holds what it proved.

    Raised by :func:`littlestone_dimension` when its budget runs out, so that a
    partial number is never returned as if it were exact.
    """

    def __init__(self, bounds: LdimBounds):
        super().__init__(f"search stopped ({bounds.status}) after {bounds.nodes} nodes: {bounds.describe()}")
        self.bounds = bounds


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C during an exact search; ``.bounds`` holds what it proved."""

    def __init__(self, bounds: LdimBounds):
        super().__init__(f"interrupted after {bounds.nodes} nodes: {bounds.describe()}")
        self.bounds = bounds


def _check_budget(max_nodes: object, time_limit: object) -> None:
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, numbers.Integral) or max_nodes < 1):
        raise InvalidArgumentError(f"max_nodes: expected None or an integer >= 1, got {max_nodes!r}")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real)
                                   or not time_limit > 0 or time_limit != time_limit):
        raise InvalidArgumentError(f"time_limit: expected None or a number of seconds > 0, got {time_limit!r}")


def littlestone_bounds(
    H: HypothesisClass, *, max_nodes: int | None = None, time_limit: float | None = None
) -> LdimBounds:
    """Proven lower and upper bounds on ``Ldim(H)`` within a budget of nodes and/or seconds.

    Without a budget the bounds are equal (the exact value).  Ctrl-C stops the search
    and returns the bounds proven so far, with ``status="interrupted"``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> littlestone_bounds(classes.thresholds(15)).describe()
    'Ldim = 4'
    >>> b = littlestone_bounds(classes.random(3000, 30, 0.3, seed=0), max_nodes=5)
    >>> b.exact, b.lower <= b.upper
    (False, True)
    """
    _check_budget(max_nodes, time_limit)
    return LdimSearch(_require_class(H)).bounds(max_nodes=max_nodes, time_limit=time_limit)


def littlestone_dimension(H: HypothesisClass, *, max_nodes: int | None = None,
                          time_limit: float | None = None) -> int:
    """The Littlestone dimension of a finite class, exactly.

    Parameters
    ----------
    H : HypothesisClass

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
        If ``max_nodes`` or ``time_limit`` runs out; ``exc.bounds`` holds the proven
        lower and upper bounds (a partial number is never returned).
    SearchInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``), with ``exc.bounds``.

    Examples
    --------
    >>> from mistakebound import HypothesisClass, classes
    >>> littlestone_dimension(classes.singletons(100))
    1
    >>> littlestone_dimension(HypothesisClass.from_matrix([[0, 1]]))
    0
    """
    bounds = littlestone_bounds(H, max_nodes=max_nodes, time_limit=time_limit)
    if bounds.status == "interrupted":
        raise SearchInterrupted(bounds)
    if not bounds.exact:
        raise SearchIncomplete(bounds)
    return bounds.lower


def shattered_tree(H: HypothesisClass) -> nx.DiGraph:
    """A complete binary tree of depth ``Ldim(H)`` shattered by ``H``.

    Nodes are numbered as in the textbook: the root is 1 and the children of node
    ``i`` are ``2i`` (reached by the edge with ``label=0``) and ``2i + 1``
    (``label=1``).  Internal nodes carry the attribute ``instance``; each leaf carries
    ``witness`` (the row index in ``H`` of a hypothesis consistent with the labels on
    its path) and ``witness_name``.  The graph attribute ``depth`` is the depth.

    Examples
    --------
    >>> from mistakebound import classes
    >>> T = shattered_tree(classes.thresholds(3))
    >>> T.nodes[1]["instance"], T.graph["depth"]
    (2, 2)
    >>> sorted(T.nodes[n]["witness"] for n in T if T.out_degree(n) == 0)
    [0, 1, 2, 3]
    """
    return LdimSearch(H).tree()


def is_shattered(H: HypothesisClass, tree: nx.DiGraph) -> bool:
    """Whether ``tree`` is a complete binary tree shattered by ``H``.

    The tree must have the layout :func:`shattered_tree` produces (one root, two
    children per internal node along edges labelled 0 and 1, every leaf at the same
    depth, each internal node's ``instance`` in ``H``'s domain), and every root-to-leaf
    path must be realised by some hypothesis of ``H``.  A leaf that names a
    ``witness`` must name a hypothesis that realises its path.

    Examples
    --------
    >>> import networkx as nx
    >>> from mistakebound import classes
    >>> H = classes.singletons(4)
    >>> is_shattered(H, shattered_tree(H))
    True
    >>> T = nx.DiGraph()
    >>> T.add_node(1, instance=1); T.add_edge(1, 2, label=0); T.add_edge(1, 3, label=1)
    >>> T.add_node(2, instance=2); T.add_edge(2, 4, label=0); T.add_edge(2, 5, label=1)
    >>> T.add_node(3, instance=2); T.add_edge(3, 6, label=0); T.add_edge(3, 7, label=1)
    >>> is_shattered(H, T)  # x=1 and x=2 both labelled 1 by no singleton
    False
    """
    _require_class(H)
    if not isinstance(tree, nx.DiGraph) or tree.number_of_nodes() == 0:
        return False
    roots = [n for n in tree if tree.in_degree(n) == 0]
    if len(roots) != 1 or not nx.is_arborescence(tree):
        return False
    cols = H.column_masks
    full = H.full_mask
    depths: set[int] = set()
    stack: list[tuple[Hashable, int, int]] = [(roots[0], full, 0)]
    while stack:
        node, V, d = stack.pop()
        if V == 0:
            return False
        children = list(tree.successors(node))
        if not children:
            depths.add(d)
            w = tree.nodes[node].get("witness")
            if w is not None:
                if not isinstance(w, (int, np.integer)) or not 0 <= w < H.n_hypotheses or not (V >> int(w)) & 1:
                    return False
            continue
        x = tree.nodes[node].get("instance")
        if len(children) != 2 or x not in H:
            return False
        labels = sorted(tree.edges[node, c].get("label") for c in children)
        if labels != [0, 1]:
            return False
        c1 = cols[H.index_of(x)]
        for child in children:
            y = tree.edges[node, child]["label"]
            stack.append((child, V & c1 if y == 1 else V & ~c1, d + 1))
    return len(depths) == 1
