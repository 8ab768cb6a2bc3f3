"""Shattered trees as text: indented lines, JSON (written and read back), Graphviz DOT, and a TikZ ``forest``.

* :func:`tree_to_text`: one line per node, indented by its depth (what ``mistakebound
  ldim --tree`` prints).

* :func:`tree_to_json` / :func:`tree_from_json`: every node, edge label and witness,
  format ``"mistakebound.shattered_tree"`` version 1, built from the framework's JSON
  pieces (:mod:`mistakebound.foundations.json_format`): instances of any type a class
  file holds, tuples included, read back as they were.  Given the class, the reader checks
  the tree with :func:`~mistakebound.theory.littlestone.is_shattered`.
* :func:`tree_to_dot`: a ``digraph`` for Graphviz (``dot -Tpdf tree.dot -o tree.pdf``).
* :func:`tree_to_tikz`: a ``forest`` environment for LaTeX (``\\usepackage{forest}``),
  the child along label 0 on the left.

All four take a tree in the layout of :func:`~mistakebound.theory.littlestone.shattered_tree`
(internal nodes with ``instance``, edges with ``label``, leaves with ``witness`` and
``witness_name``) and write the whole tree, however deep (a figure cuts deep trees; these
do not).

Examples
--------
>>> from mistakebound import classes, shattered_tree
>>> H = classes.thresholds(3)
>>> T = shattered_tree(H)
>>> back = tree_from_json(tree_to_json(T, H), H)  # checked against H as it is read
>>> back.graph["depth"], back.nodes[1]["instance"], back.nodes[4]["witness_name"]
(2, 2, 'x<1')
>>> print(tree_to_dot(T).splitlines()[3])
  "1" [label="x = 2"];
>>> tree_to_tikz(T).splitlines()[2]
'[{x = 2}'
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from mistakebound.foundations import json_format as jf
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import brief
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.transcript import instance_text
from mistakebound.theory.littlestone import is_shattered
from mistakebound.theory.tree_graphs import ShatteredTree
from mistakebound.theory.tree_walk import depth_first, leaf_text, successors

__all__ = ["TREE_FORMAT", "tree_to_text", "tree_to_json", "tree_from_json", "tree_to_dot", "tree_to_tikz"]

#: The ``"format"`` of a shattered tree's JSON document.
TREE_FORMAT = "mistakebound.shattered_tree"


# ---------------------------------------------------------------------------- text
def tree_to_text(tree: nx.DiGraph, H: HypothesisClass | None = None) -> str:
    """A shattered tree as indented text: node instances, edge labels, leaf witnesses.

    Nodes are numbered as in the textbook (root 1, children ``2i`` along label 0 and
    ``2i + 1`` along label 1); each line is one node, indented by its depth.  A leaf's
    witness is named by ``H`` when it is given (:func:`~mistakebound.theory.tree_walk.leaf_text`),
    and its row is counted from 1, as in every message about a class's rows
    (:data:`~mistakebound.game.hypothesis_class.COUNTED_FROM_1`).

    Examples
    --------
    >>> from mistakebound import classes, shattered_tree
    >>> H = classes.thresholds(3)
    >>> print(tree_to_text(shattered_tree(H), H))  # doctest: +ELLIPSIS
    [1] x = 2
      0 -> [2] x = 1
        0 -> [4] leaf: witness ...
        1 -> [5] leaf: witness ...
      1 -> [3] x = 3
        0 -> [6] leaf: witness ...
        1 -> [7] leaf: witness ...
    """
    lines: list[str] = []
    succ = successors(tree)
    for node, parent, edge, depth in depth_first(tree):
        prefix = "  " * depth + ("" if parent is None else f"{edge} -> ")
        if succ[node]:
            lines.append(f"{prefix}[{node}] x = {tree.nodes[node]['instance']!r}")
        else:
            w = tree.nodes[node].get("witness")
            lines.append(f"{prefix}[{node}] leaf: witness {leaf_text(tree, node, H)} (row {'?' if w is None else w + 1})")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- JSON
def tree_to_json(tree: nx.DiGraph, H: HypothesisClass | None = None) -> str:
    """The JSON text of a shattered tree: its nodes (parent first) with their edge labels.

    Each node is ``{"id", "parent", "label", "instance"}`` for an internal node and
    ``{"id", "parent", "label", "witness", "witness_name"}`` for a leaf (``parent`` and
    ``label`` are null at the root); ids are the graph's integer node names.  ``class``
    is ``H.describe()`` when ``H`` is given.

    Raises
    ------
    InvalidArgumentError
        For a graph that is not a tree, a node name that is not an int, an edge label
        other than 0 and 1, or an instance that JSON cannot hold (the message names the node).

    Examples
    --------
    >>> import networkx as nx
    >>> T = nx.DiGraph(depth=1, root=1)
    >>> T.add_node(1, instance=(0, 1)); T.add_edge(1, 2, label=0); T.add_edge(1, 3, label=1)
    >>> tree_to_json(T)  # doctest: +NORMALIZE_WHITESPACE
    '{"format":"mistakebound.shattered_tree","version":1,"class":null,"depth":1,"nodes":[{"id":1,"parent":null,"label":null,"instance":{"tuple":[0,1]}},{"id":2,"parent":1,"label":0,"witness":null,"witness_name":null},{"id":3,"parent":1,"label":1,"witness":null,"witness_name":null}]}'
    """
    nodes = []
    steps = depth_first(tree)  # parent first; refuses what is not a tree with one root
    for node, parent, label, _ in steps:
        where = f"node {brief(node)}"
        entry = {"id": jf.expect_int(f"{where}: id", node), "parent": parent,
                 "label": None if label is None else _label(f"{where}: label", label)}
        attrs = tree.nodes[node]
        if tree.out_degree(node):
            entry["instance"] = jf.encode_instance(attrs.get("instance"), f"{where}: instance")
        else:
            w = attrs.get("witness")
            # a numpy integer is a row number; anything else but an int is refused, not truncated
            entry["witness"] = None if w is None else jf.expect_int(
                f"{where}: witness", int(w) if isinstance(w, np.integer) else w)
            name = attrs.get("witness_name")
            if name is None and w is not None and H is not None:
                name = H.hypothesis_name(int(w))
            entry["witness_name"] = None if name is None else str(name)
        nodes.append(entry)
    depth = max(step[3] for step in steps)  # the tree's own, whatever its graph attribute says
    return jf.dumps({**jf.header(TREE_FORMAT), "class": None if H is None else H.describe(),
                     "depth": int(depth), "nodes": nodes})


def _label(where: str, value: Any) -> int:
    if isinstance(value, bool) or value not in (0, 1):
        raise InvalidArgumentError(f"{where}: expected the edge label 0 or 1, got {brief(value)}")
    return int(value)


def tree_from_json(text: str | bytes, H: HypothesisClass | None = None) -> nx.DiGraph:
    """Rebuild the tree written by :func:`tree_to_json`; given ``H``, check that ``H`` shatters it.

    Returns
    -------
    networkx.DiGraph
        In the layout of :func:`~mistakebound.theory.littlestone.shattered_tree`:
        graph attributes ``depth`` and ``root``, ``instance`` on internal nodes,
        ``label`` on edges, ``witness`` and ``witness_name`` on leaves.

    Raises
    ------
    InvalidArgumentError
        For malformed JSON, another format or version, missing or unknown fields, values
        of the wrong type, a parent named before it appears, two roots, an id twice, or
        (given ``H``) a tree that ``H`` does not shatter.

    Examples
    --------
    >>> from mistakebound import classes
    >>> text = ('{"format":"mistakebound.shattered_tree","version":1,"class":null,"depth":1,"nodes":['
    ...         '{"id":1,"parent":null,"label":null,"instance":0},'
    ...         '{"id":2,"parent":1,"label":0,"witness":0,"witness_name":null},'
    ...         '{"id":3,"parent":1,"label":1,"witness":0,"witness_name":null}]}')
    >>> tree_from_json(text).number_of_nodes()
    3
    >>> tree_from_json(text, classes.thresholds(3))  # hypothesis 0 cannot end both paths
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: tree: thresholds(3) does not shatter the tree read (a path no hypothesis realises, a witness off its path, or leaves at different depths)
    """
    data = jf.parse(text, what="shattered tree", fmt=TREE_FORMAT)
    jf.check_keys("shattered tree", data, ["format", "version", "class", "depth", "nodes"])
    jf.optional(jf.expect_str)("class", data["class"])
    depth = jf.expect_int("depth", data["depth"])
    if type(data["nodes"]) is not list or not data["nodes"]:
        raise InvalidArgumentError(f"nodes: expected a non-empty JSON list, got {jf.type_name(data['nodes'])}")
    T = ShatteredTree(depth=depth)
    for i, entry in enumerate(data["nodes"]):
        where = f"nodes[{i}]"
        if type(entry) is not dict:
            raise InvalidArgumentError(f"{where}: expected a JSON object, got {jf.type_name(entry)}")
        inner = "instance" in entry
        jf.check_keys(where, entry, ["id", "parent", "label", "instance"] if inner else
                      ["id", "parent", "label", "witness", "witness_name"])
        node = jf.expect_int(f"{where}.id", entry["id"])
        if node in T:
            raise InvalidArgumentError(f"{where}.id: expected a new id, got {node} a second time")
        parent = jf.optional(jf.expect_int)(f"{where}.parent", entry["parent"])
        if inner:
            T.add_node(node, instance=jf.decode_instance(entry["instance"], f"{where}.instance"))
        else:
            T.add_node(node, witness=jf.optional(jf.expect_int)(f"{where}.witness", entry["witness"]),
                       witness_name=jf.optional(jf.expect_str)(f"{where}.witness_name", entry["witness_name"]))
        if parent is None:
            if "root" in T.graph:
                raise InvalidArgumentError(f"{where}.parent: expected the id of an earlier node, got null "
                                           f"(a second root; node {T.graph['root']} is the first)")
            T.graph["root"] = node
            continue
        if parent not in T or "instance" not in T.nodes[parent]:
            raise InvalidArgumentError(f"{where}.parent: expected the id of an earlier internal node, got {parent}")
        T.add_edge(parent, node, label=_label(f"{where}.label", entry["label"]))
    found = max(step[3] for step in depth_first(T))  # refuses nodes not below the root
    if found != depth:
        raise InvalidArgumentError(f"depth: expected the depth of the tree read, {found}, got {depth}")
    if H is not None and not is_shattered(H, T):
        raise InvalidArgumentError(
            f"tree: {H.describe()} does not shatter the tree read (a path no hypothesis realises, "
            "a witness off its path, or leaves at different depths)")
    return T


# ----------------------------------------------------------------------------- DOT
def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def tree_to_dot(tree: nx.DiGraph, *, name: str = "shattered_tree") -> str:
    """A Graphviz ``digraph``: boxes ``x = instance`` at internal nodes, the witnesses at the leaves.

    Edges carry their labels; ``ordering=out`` keeps the child along label 0 on the left.

    Examples
    --------
    >>> import networkx as nx
    >>> T = nx.DiGraph([(1, 2, {"label": 0}), (1, 3, {"label": 1})])
    >>> T.nodes[1]["instance"] = 'a "b"'
    >>> print(tree_to_dot(T))  # doctest: +NORMALIZE_WHITESPACE
    digraph "shattered_tree" {
      graph [ordering=out];
      node [shape=box, style=rounded, fontsize=10];
      "1" [label="x = a \\"b\\""];
      "2" [label="leaf", shape=ellipse];
      "3" [label="leaf", shape=ellipse];
      "1" -> "2" [label="0"];
      "1" -> "3" [label="1"];
    }
    """
    order = depth_first(tree)
    lines = [f"digraph {_dot_string(name)} {{", "  graph [ordering=out];",
             "  node [shape=box, style=rounded, fontsize=10];"]
    for node, *_ in order:
        if tree.out_degree(node):
            text = f"x = {instance_text(tree.nodes[node].get('instance'))}"
            lines.append(f"  {_dot_string(str(node))} [label={_dot_string(text)}];")
        else:
            lines.append(f"  {_dot_string(str(node))} [label={_dot_string(leaf_text(tree, node))}, shape=ellipse];")
    for node, parent, label, _ in order:
        if parent is not None:
            extra = "" if label is None else f" [label={_dot_string(str(label))}]"
            lines.append(f"  {_dot_string(str(parent))} -> {_dot_string(str(node))}{extra};")
    lines.append("}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- TikZ
_LATEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\$", "%": r"\%",
          "&": r"\&", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
          "<": r"\textless{}", ">": r"\textgreater{}"}


def _latex(text: str) -> str:
    return "".join(_LATEX.get(c, c) for c in text)


def tree_to_tikz(tree: nx.DiGraph) -> str:
    """A ``forest`` environment (LaTeX, ``\\usepackage{forest}``): instances at nodes, witnesses at leaves.

    Node texts are escaped for LaTeX and braced (commas and brackets in them are safe);
    each edge is labelled 0 or 1 at its middle.  A tree wider than the page can be scaled
    to it with ``\\resizebox{\\linewidth}{!}{...}`` around the environment (package graphicx).

    Examples
    --------
    >>> import networkx as nx
    >>> T = nx.DiGraph([(1, 2, {"label": 0}), (1, 3, {"label": 1})])
    >>> T.nodes[1]["instance"] = (0, 1)
    >>> T.nodes[2]["witness_name"] = "x_1 & x_2"
    >>> print(tree_to_tikz(T))
    \\begin{forest}
    for tree={draw, rounded corners, font=\\footnotesize, inner sep=2pt, l sep=4mm, s sep=1mm}
    [{x = (0,1)}
      [{x\\_1 \\& x\\_2}, edge label={node[midway, fill=white, inner sep=1pt, font=\\scriptsize]{0}}]
      [{leaf}, edge label={node[midway, fill=white, inner sep=1pt, font=\\scriptsize]{1}}]
    ]
    \\end{forest}
    """
    lines = [r"\begin{forest}", r"for tree={draw, rounded corners, font=\footnotesize, inner sep=2pt, l sep=4mm, s sep=1mm}"]
    open_until: list = []  # the depths of the nodes whose bracket is open, the deepest last
    for node, parent, label, depth in depth_first(tree):
        while open_until and open_until[-1] >= depth:  # the subtrees this node is not in are closed
            lines.append("  " * open_until.pop() + "]")
        if tree.out_degree(node):
            text = _latex(f"x = {instance_text(tree.nodes[node].get('instance'))}")
        else:
            text = _latex(leaf_text(tree, node))
        edge = "" if label is None else (
            f", edge label={{node[midway, fill=white, inner sep=1pt, font=\\scriptsize]{{{label}}}}}")
        if tree.out_degree(node):
            lines.append("  " * depth + f"[{{{text}}}{edge}")
            open_until.append(depth)
        else:
            lines.append("  " * depth + f"[{{{text}}}{edge}]")
    while open_until:
        lines.append("  " * open_until.pop() + "]")
    lines.append(r"\end{forest}")
    return "\n".join(lines)
