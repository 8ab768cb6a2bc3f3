"""Shattered trees of the Littlestone dimension: read off a search's memo, and checked.

A tree of depth ``Ldim(V)`` shattered by ``V`` (textbook Definitions 21.4 and 21.5) is
read off what the exact search (:class:`~mistakebound.theory.ldim_search.LdimSearch`)
proved: each node's instance is the split remembered as the witness of its version
space, a version space answered by the canonical memo gets a relabelled copy of the
tree of its searched twin, and only what the memo has lost is searched again.
:class:`TreeReader` holds that reading, as the part of
:class:`~mistakebound.theory.ldim_search.LdimSearch` that builds trees;
:func:`heap_tree` builds the graph of a tree given in heap order (this reader's, or the
compiled search's: :func:`~mistakebound.theory.ldim_kernel.kernel_tree`), and
:func:`is_shattered` checks any tree against a class, whoever built it.  The front door
for a tree is :func:`~mistakebound.theory.littlestone.shattered_tree`.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.theory.ldim_search import LdimSearch
>>> H = classes.thresholds(7)
>>> tree = LdimSearch(H).tree()
>>> tree.graph["depth"], tree.number_of_nodes(), is_shattered(H, tree)
(3, 15, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from attrs import evolve

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.memory import collection_paused
from mistakebound.game.hypothesis_class import HypothesisClass, require_class
from mistakebound.theory.search_protocol import Budget, SearchIncomplete, SearchInterrupted, require_exact, run_within

if TYPE_CHECKING:  # networkx and the tree graphs are imported when a tree is built or checked (a value
    import networkx as nx  # search, as ``mistakebound ldim --what ldim`` runs, never pays their 0.1 s)

__all__ = ["TreeReader", "heap_tree", "is_shattered"]


class TreeReader:
    """The shattered trees of an :class:`~mistakebound.theory.ldim_search.LdimSearch`, read off its memo.

    The part of the search that builds trees (the search extends it): :meth:`tree`
    and :meth:`witness` use the search's memo (``_lo``, ``_wit``, the canonical memo
    ``_canon`` and ``_forms``), its decision ``_at_least`` and its splits, and search
    again only what the memo has lost.
    """

    def witness(self, V: int, d: int) -> int:
        """A column splitting ``V`` into two sides of Ldim at least ``d - 1`` (``1 <= d <= Ldim(V)``).

        Read off the memo where the search remembered it, searched otherwise.
        """
        return self._witness(V, d)


    def tree(self, V: int | None = None, *, max_nodes: int | None = None,
             time_limit: float | None = None) -> nx.DiGraph:
        """A shattered tree of depth ``Ldim(V)`` for the version space ``V`` (default all).

        The tree is read off what the value search proved: each node's column is the
        split remembered as the witness of its version space, and a version space
        answered by the canonical memo gets a relabelled copy of the tree of its searched
        twin.  Only what the memo has lost is searched again.

        Raises
        ------
        SearchIncomplete, SearchInterrupted
            If the budget (``max_nodes`` search nodes, ``time_limit`` seconds, for the
            value and the tree together) runs out or Ctrl-C is pressed; no tree is
            returned then, and ``exc.result`` holds the proven bounds.

        Examples
        --------
        >>> from mistakebound import classes
        >>> from mistakebound.theory.ldim_search import LdimSearch
        >>> search = LdimSearch(classes.intervals(8))
        >>> search.ldim(search.full), search.tree().graph["depth"]
        (4, 4)
        """
        from mistakebound.theory.tree_graphs import ShatteredTree  # noqa: F401 - imported before the search,
        # whose tree is built when memory may be short: an import then could fail where the tree would not

        budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
        V = self.full if V is None else self._version_space(V)
        if V == 0:
            raise InvalidArgumentError("V: expected a non-empty version space, got the empty set")
        value = require_exact(self.bounds(V, max_nodes=max_nodes, time_limit=time_limit))
        evicted, built = self.evictions, []
        with self.running(Budget(time_limit=budget.remaining(value).time_limit)) as run:
            if max_nodes is not None:
                run.limit_nodes(max(max_nodes - value.nodes, 0))
            status = run_within(lambda: built.append(self._tree_graph(V, value.lower)))
        if status == "exact":
            return built[0]
        # the value is exact, the tree is not finished: the bounds are reported as partial
        partial = evolve(value, status=status, nodes=value.nodes + run.nodes, seconds=value.seconds + run.seconds,
                         evictions=value.evictions + self.evictions - evicted)
        raise (SearchInterrupted if status == "interrupted" else SearchIncomplete)(partial)

    def _tree_graph(self, V: int, depth: int) -> nx.DiGraph:
        val = [0] * (1 << (depth + 1))  # heap order: column at internal nodes, distinct row at leaves
        self._walk(V, depth, 1, val, {})
        reps = self.representatives.tolist()
        return heap_tree(self.H, depth, val, [reps[r] for r in val[1 << depth:]])

    def _witness(self, W: int, d: int) -> int:
        """A column splitting W into two sides of Ldim >= d - 1 (searching if the memo lost it)."""
        if self._lo.get(W, 0) >= d:
            j = self._wit.get(W)
            if j is not None:
                return j
        if d == 1:  # the first instance on which two hypotheses of W disagree
            r1 = (W & -W).bit_length() - 1
            rest = W ^ (1 << r1)
            r2 = (rest & -rest).bit_length() - 1
            rows = self._row_bits()
            diff = rows[r1] ^ rows[r2]
            return (diff & -diff).bit_length() - 1
        splits = self._distinct_splits(W, self._splitting(W))
        sub = [j for _, _, j in splits]
        for _, small, j in splits:
            if self._at_least(small, sub, d - 1) and self._at_least(W ^ small, sub, d - 1):
                return j
        raise AssertionError("no split realises the computed Littlestone dimension")  # pragma: no cover

    def _row_bits(self) -> list[int]:
        """Per distinct row, the bitset of the instances it labels 1 (made on first use)."""
        if self._rows is None:
            M = self.H.matrix[self.representatives]
            packed = np.packbits(M, axis=1, bitorder="little")
            self._rows = [int.from_bytes(row, "little") for row in packed]
        return self._rows

    def _walk(self, W: int, d: int, h: int, val: list, built: dict) -> None:
        """Write a shattered tree of depth d for W into the heap ``val`` at node h.

        ``built`` maps ``(W, d)`` to the heap and node where such a tree was written;
        written regions are never changed afterwards, so they can be copied.
        """
        if d == 1:
            j = self._witness(W, 1)
            a = W & self.columns[j]
            val[h], val[2 * h], val[2 * h + 1] = j, ((W ^ a) & -(W ^ a)).bit_length() - 1, (a & -a).bit_length() - 1
            return
        if d == 0:
            val[h] = (W & -W).bit_length() - 1
            return
        done = built.get((W, d))
        if done is not None:
            _copy_subtree(done[0], done[1], val, h, d)
            return
        if (d >= 2 and self._canon and not (self._lo.get(W, 0) >= d and W in self._wit)
                and W.bit_count() >= self._canon_min and W != self.full):
            form = self._forms.get(W)
            if form is None:
                form = self._canonical(W, self._distinct_splits(W, self._splitting(W)))
            key, kcols, rows = form
            e = self._canon.get(key)
            if e is not None and e[0] >= d and e[2] is not None and e[3] != W:
                src = built.get((e[3], d))
                if src is None:  # the searched twin's tree, in a heap of its own
                    tmp = [0] * (2 << d)
                    self._walk(e[3], d, 1, tmp, built)
                    src = (tmp, 1)
                colmap = dict(zip(e[4].tolist(), kcols.tolist()))
                rowmap = dict(zip(e[5].tolist(), rows.tolist()))
                try:
                    _copy_subtree(src[0], src[1], val, h, d, colmap, rowmap)
                except KeyError:  # pragma: no cover - the twin's tree left its columns; search W itself
                    pass
                else:
                    built[(W, d)] = (val, h)
                    return
        j = self._witness(W, d)
        val[h] = j
        a = W & self.columns[j]
        self._walk(W ^ a, d - 1, 2 * h, val, built)
        self._walk(a, d - 1, 2 * h + 1, val, built)
        built[(W, d)] = (val, h)



def heap_tree(H: HypothesisClass, depth: int, columns: list[int], witnesses: list[int]) -> nx.DiGraph:
    """The graph of a shattered tree of ``H`` given in heap order: the one builder of
    :func:`~mistakebound.theory.littlestone.shattered_tree`'s layout, whoever searched.

    ``columns[h]`` is the column of ``H`` asked at internal node ``h`` (``1 <= h < 2^depth``;
    ``columns[0]`` and any entries past ``2^depth - 1`` are not read), ``witnesses[i]`` the
    row of ``H`` at leaf ``2^depth + i``.  Nothing is checked here (:func:`is_shattered` does).

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.thresholds(3)
    >>> T = heap_tree(H, 2, [0, 1, 0, 2], [0, 1, 2, 3])
    >>> T.nodes[1]["instance"], T.nodes[7]["witness"], is_shattered(H, T)  # column 1 is the instance 2
    (2, 3, True)
    """
    from mistakebound.theory.tree_graphs import ShatteredTree

    G = ShatteredTree(depth=depth, root=1)
    first_leaf = 1 << depth
    domain, name = H.domain, H.hypothesis_name
    # written into the fresh graph's own dicts (networkx's dict-of-dicts: _node, _succ, _pred) in
    # the order add_edges_from would give, edges (i, 2i) then (i, 2i + 1): one edge a fraction
    # of add_edges_from's microseconds, which on a tree of 2^13 leaves cost more than the search
    nodes, succ, pred = G._node, G._succ, G._pred
    order = [1] + [c for i in range(1, first_leaf) for c in ((i, 2 * i) if i & 1 and i > 1 else (2 * i,))]
    order += range(first_leaf + 1, 2 * first_leaf, 2)  # the leaves 2i + 1, the last nodes the edges bring
    with collection_paused():  # five dicts a node, none garbage
        nodes.update({i: {"instance": domain[columns[i]]} if i < first_leaf else
                      {"witness": (w := witnesses[i - first_leaf]), "witness_name": name(w)} for i in order})
        edge = [{"label": c & 1} for c in range(2 * first_leaf)]  # edge[c]: the one into node c (c >= 2)
        succ.update({i: {2 * i: edge[2 * i], 2 * i + 1: edge[2 * i + 1]} if i < first_leaf else {} for i in order})
        pred.update({i: {i >> 1: edge[i]} if i > 1 else {} for i in order})
    return G


def _copy_subtree(src: list, s: int, dst: list, t: int, d: int,
                  colmap: dict | None = None, rowmap: dict | None = None) -> None:
    """Copy the depth-d subtree at heap node s of src to node t of dst, relabelled by the maps."""
    for level in range(d + 1):
        n = 1 << level
        seg = src[s * n: s * n + n]
        if colmap is not None and level < d:
            seg = [colmap[c] for c in seg]
        elif rowmap is not None and level == d:
            seg = [rowmap[r] for r in seg]
        dst[t * n: t * n + n] = seg



def _edge_label(value: object) -> int | None:
    """An edge's label as 0 or 1; None for anything else (strings, arrays, 0.5, ...)."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return int(value)
    return None


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
    >>> from mistakebound.theory.littlestone import shattered_tree
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
    import networkx as nx

    from mistakebound.theory.tree_walk import depth_first, successors

    require_class(H)
    if not isinstance(tree, nx.DiGraph) or tree.number_of_nodes() == 0:
        return False
    roots = [n for n in tree if tree.in_degree(n) == 0]
    if len(roots) != 1:
        return False
    try:
        steps = depth_first(tree, root=roots[0])
    except InvalidArgumentError:  # not a tree below its root
        return False
    cols = H.column_masks
    succ = successors(tree)
    depths: set[int] = set()
    space = {roots[0]: H.full_mask}  # node -> the hypotheses that realise its path (set by its parent)
    for node, _, _, d in steps:
        V = space.pop(node)
        if V == 0:
            return False
        below = succ[node]
        if not below:
            depths.add(d)
            w = tree.nodes[node].get("witness")
            if w is not None:
                if not isinstance(w, (int, np.integer)) or not 0 <= w < H.n_hypotheses or not (V >> int(w)) & 1:
                    return False
            continue
        x = tree.nodes[node].get("instance")
        if len(below) != 2 or x not in H:
            return False
        labels = [_edge_label(edge.get("label")) for edge in below.values()]
        if sorted(labels, key=str) != [0, 1]:  # None (not a label) sorts apart from 0 and 1
            return False
        c1 = cols[H.index_of(x)]
        for child, y in zip(below, labels):
            space[child] = V & c1 if y == 1 else V & ~c1
    return len(depths) == 1
