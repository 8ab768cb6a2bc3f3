"""How a shattered tree is read: its root, its children in label order, the one depth-first walk, its texts.

Every reader of a tree in the layout of
:func:`~mistakebound.theory.littlestone.shattered_tree` (internal nodes with
``instance``, edges with ``label``, leaves with ``witness`` and ``witness_name``) reads it
with these: :func:`tree_root`, :func:`children` (the child along label 0 first),
:func:`successors` (every node's children at once), :func:`depth_first` (the one walk over
a tree: each node with its parent, edge label and depth, children in label order), and
:func:`leaf_text` and :func:`node_texts` (how its nodes are written).  The exports
(:mod:`~mistakebound.theory.tree_export`: JSON, DOT, TikZ), the layout of the figures
(:mod:`~mistakebound.theory.tree_layout`), the notebook pictures
(:mod:`~mistakebound.theory.tree_graphs`), the command line's text form and
:func:`~mistakebound.theory.littlestone.is_shattered` all walk a tree with
:func:`depth_first`.

Examples
--------
>>> import networkx as nx
>>> T = nx.DiGraph([(1, 3, {"label": 1}), (1, 2, {"label": 0}), (3, 6, {"label": 0}), (3, 7, {"label": 1})])
>>> tree_root(T), children(T, 1)
(1, [2, 3])
>>> [(node, depth) for node, parent, label, depth in depth_first(T)]
[(1, 0), (2, 1), (3, 1), (6, 2), (7, 2)]
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import networkx as nx

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import brief
from mistakebound.game.transcript import instance_text  # one way to write an instance, in tables and trees

__all__ = ["children", "depth_first", "leaf_text", "node_texts", "successors", "tree_root"]


def tree_root(tree: nx.DiGraph) -> Hashable:
    """The root of ``tree``: ``tree.graph["root"]`` when set, else the one node without a parent.

    Raises
    ------
    InvalidArgumentError
        If ``tree`` is not a networkx DiGraph or has no single root.

    Examples
    --------
    >>> tree_root(nx.DiGraph([(5, 6), (5, 7)]))
    5
    """
    if not isinstance(tree, nx.DiGraph):
        raise InvalidArgumentError(f"tree: expected a networkx DiGraph, got {brief(tree)}")
    root = tree.graph.get("root")
    if root is not None and root in tree:
        return root
    roots = [n for n in tree if tree.in_degree(n) == 0]
    if len(roots) != 1:
        raise InvalidArgumentError(f"tree: expected a tree with one root, found {len(roots)} roots")
    return roots[0]


def _label_key(value: Any) -> tuple:
    return (0, value) if isinstance(value, (int, float)) else (1, str(value))


def _by_label(edge: tuple) -> tuple:
    """The sort key of ``(child, edge attributes)``: the edge's label (0 when it has none)."""
    return _label_key(edge[1].get("label", 0))


def children(tree: nx.DiGraph, node: Hashable) -> list:
    """The children of ``node``, the one along edge label 0 first (edges without a label count as 0).

    Examples
    --------
    >>> children(nx.DiGraph([(1, 3, {"label": 1}), (1, 2, {"label": 0})]), 1)
    [2, 3]
    """
    return [c for c, _ in sorted(tree.succ[node].items(), key=_by_label)]


def successors(tree: nx.DiGraph) -> dict:
    """Node -> ``{child: edge attributes}``, the whole tree at once (networkx's ``adjacency()``, as a dict).

    The readers that look at every node's children take this once instead of a view per node.

    Examples
    --------
    >>> successors(nx.DiGraph([(1, 2, {"label": 0})]))
    {1: {2: {'label': 0}}, 2: {}}
    """
    return dict(tree.adjacency())


def depth_first(tree: nx.DiGraph, *, root: Hashable | None = None) -> list[tuple[Hashable, Hashable | None, Any, int]]:
    """Every node of ``tree``, depth first: each node before its children, the child along label 0 first.

    Each node comes as ``(node, parent, label, depth)``: the root's ``parent`` and
    ``label`` are None; ``label`` is the ``label`` attribute of the edge from the parent as
    it is (None when absent).  In this order the subtree of a node is the run of nodes
    after it that are deeper than it, and the children of a node come in label order.

    Parameters
    ----------
    tree : networkx.DiGraph
    root : hashable, optional
        Where to start (default: :func:`tree_root`).

    Returns
    -------
    list of tuple
        ``(node, parent, label, depth)``, one per node of ``tree``.

    Raises
    ------
    InvalidArgumentError
        If ``tree`` is not a DiGraph, has no single root, or is not a tree below its root
        (a node reached twice, or nodes not below the root).

    Examples
    --------
    >>> T = nx.DiGraph([(1, 3, {"label": 1}), (1, 2, {"label": 0})])
    >>> depth_first(T)
    [(1, None, None, 0), (2, 1, 0, 1), (3, 1, 1, 1)]
    >>> depth_first(nx.DiGraph([(1, 2), (1, 3), (2, 3)]))
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: tree: expected a tree, node 3 is reached twice
    """
    root = tree_root(tree) if root is None else root
    succ = successors(tree)
    steps: list = []
    seen: set = set()
    stack: list = [(root, None, None, 0)]
    while stack:
        step = stack.pop()
        node = step[0]
        if node in seen:
            raise InvalidArgumentError(f"tree: expected a tree, node {brief(node)} is reached twice")
        seen.add(node)
        steps.append(step)
        below = succ[node]
        if below:
            depth = step[3] + 1
            edges = sorted(below.items(), key=_by_label) if len(below) > 1 else list(below.items())
            stack.extend([(c, node, attrs.get("label"), depth) for c, attrs in reversed(edges)])  # 0-child on top
    if len(steps) != tree.number_of_nodes():
        raise InvalidArgumentError(
            f"tree: expected a tree, {tree.number_of_nodes() - len(steps)} nodes are not below the root")
    return steps


def leaf_text(tree: nx.DiGraph, node: Hashable, H: Any = None) -> str:
    """How a leaf is written: its ``witness_name``, else ``H``'s name for its ``witness``, else ``h<row>``.

    Examples
    --------
    >>> T = nx.DiGraph([(1, 2)]); T.nodes[2]["witness"] = 4
    >>> leaf_text(T, 2), leaf_text(T, 1)
    ('h4', 'leaf')
    """
    attrs = tree.nodes[node]
    w, name = attrs.get("witness"), attrs.get("witness_name")
    if name is None and w is not None and H is not None:
        name = H.hypothesis_name(w)
    return str(name if name is not None else (f"h{w}" if w is not None else "leaf"))


def node_texts(tree: nx.DiGraph, H: Any = None) -> tuple[dict, dict]:
    """The text of each internal node (its instance, :func:`~mistakebound.game.transcript.instance_text`) and of each leaf.

    Leaves are written by :func:`leaf_text` (``H`` names witnesses without ``witness_name``).

    Examples
    --------
    >>> T = nx.DiGraph([(1, 2), (1, 3)]); T.nodes[1]["instance"] = (0, 1); T.nodes[2]["witness"] = 4
    >>> node_texts(T)
    ({1: '(0,1)'}, {2: 'h4', 3: 'leaf'})
    """
    internal = {n: instance_text(tree.nodes[n].get("instance")) for n in tree if tree.out_degree(n)}
    leaves = {n: leaf_text(tree, n, H) for n in tree if not tree.out_degree(n)}
    return internal, leaves
