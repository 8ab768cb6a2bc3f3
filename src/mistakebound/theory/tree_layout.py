"""Where the nodes of a tree go when it is drawn in layers, and where a deep tree is cut.

A tree of depth ``d`` has up to ``2^d`` leaves: no page holds the leaves of a depth-12
tree side by side at a readable size.  :func:`fit_layout` therefore draws the first
``levels`` levels only, as many as fit the width asked, and replaces every subtree below
the cut by one mark that counts its depth and its leaves (:attr:`TreeLayout.elided`).

The layout is layered: the node at depth ``k`` sits on level ``k``; the bottom row (the
leaves drawn and the cut nodes) is spaced evenly, left to right in the order of the edge
labels (label 0 before label 1); each parent is centred over its children, so no two
nodes of a level ever overlap.  Positions are in *slots* (the bottom row at
``x = 0, 1, 2, ...``); :attr:`TreeLayout.pitch` says how wide a slot must be for the
labels of every level to fit side by side.  The figures (:func:`mistakebound.interfaces.plots.draw_tree`)
and the notebook pictures (:mod:`mistakebound.theory.tree_graphs`) use this one layout; it
reads the tree with the one walk of :mod:`mistakebound.theory.tree_walk`.

Examples
--------
>>> import networkx as nx
>>> T = nx.balanced_tree(2, 3, create_using=nx.DiGraph)  # depth 3, 8 leaves
>>> full = tree_layout(T)
>>> full.levels, full.depth, full.slots, full.x[0]
(3, 3, 8, 3.5)
>>> cut = tree_layout(T, levels=1)  # the root and its two children; each hides a subtree
>>> cut.slots, sorted(cut.elided.items())
(2, [(1, (2, 4)), (2, (2, 4))])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import networkx as nx
from attrs import evolve, frozen

from mistakebound.foundations.validation import check_int
from mistakebound.theory.tree_walk import depth_first

__all__ = ["TreeLayout", "tree_layout", "fit_layout"]


@frozen
class TreeLayout:
    """The layered positions of a tree's first ``levels`` levels.

    Attributes
    ----------
    root : hashable
    x : dict
        Node -> horizontal position in slots (the bottom row at 0, 1, 2, ...), for every
        node drawn.
    level : dict
        Node -> its depth (0 for the root), for every node drawn.
    levels : int
        The deepest level drawn.
    depth : int
        The depth of the whole tree (edges on its longest root-to-leaf path).
    elided : dict
        Node on level ``levels`` that has children -> ``(depth, leaves)`` of the subtree
        below it that is not drawn (its depth counted from that node).
    slots : int
        Positions on the bottom row.
    pitch : float
        The width of a slot (in the unit of the label widths given to
        :func:`fit_layout`; 1.0 from :func:`tree_layout`).
    leaf_labels : bool
        Whether the leaves are drawn with their labels (:func:`fit_layout` drops them when
        only that makes the whole tree fit).
    leaves : int
        Leaves of the whole tree, drawn or counted under the cut.
    """

    root: Any
    x: dict
    level: dict
    levels: int
    depth: int
    elided: dict
    slots: int
    leaves: int = 0
    pitch: float = 1.0
    leaf_labels: bool = True

    def row(self, k: int) -> list:
        """The nodes drawn on level ``k``, left to right."""
        return sorted((n for n, lv in self.level.items() if lv == k), key=self.x.__getitem__)


class _Stats:
    """Per node of a tree: children, depth, height, leaves and subtree size, from one walk (:func:`depth_first`)."""

    def __init__(self, tree: nx.DiGraph):
        steps = depth_first(tree)  # refuses what is not a tree with one root
        self.root = steps[0][0]
        self.order = [step[0] for step in steps]  # depth first: a subtree is the run after its root
        self.level = {step[0]: step[3] for step in steps}
        self.kids = kids = {node: [] for node in self.order}
        for node, parent, _, _ in steps[1:]:
            kids[parent].append(node)  # met in label order
        self.height = height = {}
        self.leaves = leaves = {}
        self.size = size = {}  # nodes in the subtree
        for node in reversed(self.order):  # children before their parent
            kids = self.kids[node]
            if kids:
                height[node] = 1 + max([height[c] for c in kids])
                leaves[node] = sum([leaves[c] for c in kids])
                size[node] = 1 + sum([size[c] for c in kids])
            else:
                height[node], leaves[node], size[node] = 0, 1, 1
        self.depth = height[self.root]

    def layout(self, levels: int) -> TreeLayout:
        x: dict = {}
        level: dict = {}
        elided: dict = {}
        slot = 0
        open_: list = []  # the nodes drawn whose children are being placed, the deepest last
        order, i = self.order, 0
        while i < len(order):  # the walk's order, each subtree below the cut skipped whole
            node = order[i]
            k = self.level[node]
            while open_ and self.level[open_[-1]] >= k:  # a parent is placed after its children
                self._centre(open_.pop(), x)
            level[node] = k
            if k < levels and self.kids[node]:
                open_.append(node)
                i += 1
                continue
            x[node] = float(slot)
            slot += 1
            if self.kids[node]:
                elided[node] = (self.height[node], self.leaves[node])
            i += self.size[node]
        while open_:
            self._centre(open_.pop(), x)
        return TreeLayout(root=self.root, x=x, level=level, levels=min(levels, self.depth), depth=self.depth,
                          elided=elided, slots=slot, leaves=self.leaves[self.root])

    def _centre(self, node, x: dict) -> None:
        """Place ``node`` over its first and last children (placed already)."""
        kids = self.kids[node]
        x[node] = (x[kids[0]] + x[kids[-1]]) / 2


def _check_levels(levels: Any) -> int | None:
    return None if levels is None else check_int("levels", levels, 0,
                                                 expected="an int >= 0 (the levels to draw below the root)")


def tree_layout(tree: nx.DiGraph, *, levels: int | None = None) -> TreeLayout:
    """The layered layout of ``tree`` down to level ``levels`` (default: all), slots of width 1.

    Raises
    ------
    InvalidArgumentError
        If ``tree`` is not a tree with one root, or ``levels`` is not an int >= 0.

    Examples
    --------
    >>> T = nx.DiGraph([(1, 2), (1, 3), (3, 6), (3, 7)])
    >>> L = tree_layout(T)
    >>> L.x  # leaves 2, 6, 7 at slots 0, 1, 2; node 3 over 6 and 7; the root over 2 and 3
    {2: 0.0, 6: 1.0, 7: 2.0, 3: 1.5, 1: 0.75}
    """
    stats = _Stats(tree)
    levels = _check_levels(levels)
    return stats.layout(stats.depth if levels is None else levels)


def _pitch(layout: TreeLayout, stats: _Stats, width_of: Callable, line: float, gap: float, leaf_labels: bool) -> float:
    """The narrowest slot in which every level's labels fit side by side, ``gap`` apart."""

    def width(node) -> float:
        if node in layout.elided:
            return line if counted else line / 2  # the mark of a cut subtree, with its count written upwards
        if not stats.kids[node]:
            return line if leaf_labels else line / 3  # a leaf's label is written upwards, or a dot
        return width_of(node)

    counted = len(set(layout.elided.values())) > 1  # cut subtrees that differ are counted one by one
    pitch = 0.0
    bottom = sorted((n for n in layout.x if n in layout.elided or not stats.kids[n]), key=layout.x.__getitem__)
    for row in [bottom] + [layout.row(k) for k in range(layout.levels + 1)]:
        for a, b in zip(row, row[1:]):
            pitch = max(pitch, ((width(a) + width(b)) / 2 + gap) / (layout.x[b] - layout.x[a]))
    if layout.slots == 1:
        return width(layout.root)
    return pitch


def fit_layout(tree: nx.DiGraph, *, width: float, width_of: Callable[[Hashable], float], line: float,
               gap: float, levels: int | None = None) -> TreeLayout:
    """The layout with the most levels whose labels fit in ``width``, and its slot width.

    Parameters
    ----------
    tree : networkx.DiGraph
    width : float
        The room for the bottom row (in any unit, the same as the others).
    width_of : callable
        Node -> the width of its label written across (asked of internal nodes only).
    line : float
        The height of a line of text: a leaf's label and the count of a cut subtree are
        written upwards, one line wide.  When the cut subtrees are all alike (nothing to
        count one by one) their marks are half a line wide; unlabelled leaves a third.
    gap : float
        The least room between the labels of two neighbours.
    levels : int, optional
        Draw exactly this many levels below the root (or all, if the tree is shallower),
        however wide that is; ``pitch`` is then the least that fits.

    Returns
    -------
    TreeLayout
        With ``pitch`` set.  Without ``levels``: the deepest cut that fits ``width``; the
        whole tree when it fits, if need be with its leaves unlabelled; at least the root.

    Examples
    --------
    >>> T = nx.balanced_tree(2, 6, create_using=nx.DiGraph)  # 64 leaves
    >>> L = fit_layout(T, width=40, width_of=lambda n: 2.0, line=1.0, gap=0.25)
    >>> L.levels, L.slots, L.leaf_labels, L.slots * L.pitch <= 40
    (5, 32, True, True)
    """
    stats = _Stats(tree)
    levels = _check_levels(levels)
    if levels is not None:
        layout = stats.layout(levels)
        pitch = _pitch(layout, stats, width_of, line, gap, True)
        return evolve(layout, pitch=pitch)
    best = None
    for k in range(stats.depth + 1):
        layout = stats.layout(k)
        pitch = _pitch(layout, stats, width_of, line, gap, True)
        if layout.slots * pitch <= width or best is None:
            best = evolve(layout, pitch=pitch)
            if layout.slots * pitch <= width:
                continue
        if k == stats.depth:  # the whole tree, its leaves unlabelled, before cutting above the leaves
            bare = _pitch(layout, stats, width_of, line, gap, False)
            if layout.slots * bare <= width:
                best = evolve(layout, pitch=bare, leaf_labels=False)
        break
    return best

