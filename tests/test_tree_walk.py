"""The one walk over a tree (:func:`mistakebound.theory.tree_walk.depth_first`) and the readers that take it."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game import classes
from mistakebound.theory.littlestone import shattered_tree
from mistakebound.theory.tree_export import tree_from_json, tree_to_json, tree_to_tikz
from mistakebound.theory.tree_layout import tree_layout
from mistakebound.theory.tree_walk import children, depth_first, node_texts, tree_root


@st.composite
def trees(draw):
    """A random tree, its node names shuffled: a node's children have distinct labels, or none (equal keys)."""
    n = draw(st.integers(1, 40))
    parents = [None] + [draw(st.integers(0, i - 1)) for i in range(1, n)]
    names = draw(st.permutations(range(100, 100 + n)))
    T = nx.DiGraph()
    T.add_node(names[0])
    labels: dict = {}
    for i in range(1, n):
        p = parents[i]
        label = draw(st.none() | st.integers(0, 5).filter(lambda v: v not in labels.get(p, ())))
        labels.setdefault(p, set()).add(label)
        T.add_edge(names[p], names[i], **({} if label is None else {"label": label}))
    return T


@given(trees())
def test_each_node_once_after_its_parent_its_children_in_label_order(T):
    steps = depth_first(T)
    order = [node for node, *_ in steps]
    assert sorted(order) == sorted(T) and steps[0] == (tree_root(T), None, None, 0)
    at = {node: i for i, node in enumerate(order)}
    for node, parent, label, depth in steps[1:]:
        assert T.has_edge(parent, node) and at[parent] < at[node]
        assert label == T.edges[parent, node].get("label") and depth == steps[at[parent]][3] + 1
    # preorder, children by label: what networkx's own walk gives with the children sorted
    ordered = nx.DiGraph()
    ordered.add_nodes_from(T)
    for node in T:
        ordered.add_edges_from((node, c) for c in children(T, node))
    assert order == list(nx.dfs_preorder_nodes(ordered, tree_root(T)))


@pytest.mark.parametrize("edges, message", [
    ([(1, 2), (1, 3), (2, 3)], "node 3 is reached twice"),
    ([(1, 2), (3, 4)], "one root, found 2 roots"),
    ([(1, 2), (2, 1)], "one root, found 0 roots"),
])
def test_what_is_not_a_tree_is_refused_by_name(edges, message):
    with pytest.raises(InvalidArgumentError, match=message):
        depth_first(nx.DiGraph(edges))


def test_a_cycle_below_a_named_root_is_refused():
    T = nx.DiGraph([(1, 2), (2, 3), (3, 2)], root=1)
    with pytest.raises(InvalidArgumentError, match="reached twice"):
        depth_first(T)
    T = nx.DiGraph([(1, 2), (3, 4), (4, 3)], root=1)  # a cycle apart from the tree
    with pytest.raises(InvalidArgumentError, match="2 nodes are not below the root"):
        depth_first(T)


def test_the_readers_agree_with_the_walk():
    H = classes.intervals(6)
    T = shattered_tree(H)
    steps = depth_first(T)
    depth = max(step[3] for step in steps)
    assert depth == T.graph["depth"] == tree_layout(T).depth
    assert tree_from_json(tree_to_json(T, H), H).graph["depth"] == depth
    tikz = tree_to_tikz(T).splitlines()[2:-1]
    assert [line for line in tikz if line.strip() != "]"][0].startswith("[{x = ")
    assert len(tikz) == len(steps) + sum(1 for node, *_ in steps if T.out_degree(node))  # a closing line per inner node
    internal, leaves = node_texts(T, H)
    assert set(internal) | set(leaves) == set(T) and not set(internal) & set(leaves)
