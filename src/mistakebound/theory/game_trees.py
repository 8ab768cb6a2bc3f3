"""Shattered trees of the game's other settings: the multiclass tree and the bandit tree.

A tree of depth ``d`` shows, instance by instance, how an adversary forces ``d`` mistakes:

* **many labels, full information** (Daniely, Sabato, Ben-David and Shalev-Shwartz 2011): a
  complete binary tree whose internal nodes hold an instance and whose two edges carry two
  *different* labels; every root-to-leaf path is realised by a hypothesis.  Whatever the
  learner predicts, one of the two labels is a mistake.  Nodes are numbered as the
  textbook's (root 1, children ``2i`` along the smaller label and ``2i + 1`` along the
  larger), edges carry ``label``.
* **bandit feedback** (Daniely and Helbertal 2013): a complete ``k``-ary tree whose
  internal nodes hold an instance and whose ``k`` edges carry each possible prediction
  ``ŷ``; along a path, a hypothesis gives each instance a label *other* than the edge's
  prediction.  The adversary answers "wrong" every round, and the learner, told nothing
  more, follows the edge of its prediction.  Root 1, the child along prediction ``c`` of
  node ``i`` is ``k (i - 1) + 2 + c``; edges carry ``prediction`` and, for text, ``label``
  (``"not c"``).

Leaves carry ``witness`` (a row of the class consistent with the path) and
``witness_name``; the graph carries ``depth`` and ``kind`` (``"multiclass"`` or
``"bandit"``).  :func:`game_tree` reads a tree of depth the game's value off the exact
search (:class:`~mistakebound.theory.game_values.GameSearch`), and :func:`is_game_shattered`
checks one against the class.  Such a tree of depth ``d`` exists exactly when the game's
value is at least ``d`` (the theorems cited above): the depth is the value, and
:func:`game_tree` finds one of that depth.  With a noise budget the game has no tree of
this kind (the adversary's answers depend on the learner's mistakes so far); the optimal
players of :class:`~mistakebound.theory.game_values.GameSearch` play it.

Examples
--------
>>> from mistakebound import classes
>>> H = classes.all_functions(2, 3)
>>> T = game_tree(H)
>>> T.graph["kind"], T.graph["depth"], sorted(T.edges[1, c]["label"] for c in T.successors(1))
('multiclass', 2, [0, 1])
>>> B = game_tree(H, Rules(labels=3, feedback="bandit"))
>>> B.graph["depth"], sorted(B.edges[1, c]["prediction"] for c in B.successors(1))
(4, [0, 1, 2])
>>> is_game_shattered(H, T), is_game_shattered(H, B)
(True, True)
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game.hypothesis_class import HypothesisClass, require_class
from mistakebound.game.rules import Rules, require_adaptive_order, require_rules
from mistakebound.theory.search_protocol import SearchIncomplete, SearchInterrupted

__all__ = ["game_tree", "is_game_shattered"]


def game_tree(H: HypothesisClass, rules: Rules | None = None, *, max_nodes: int | None = None,
              time_limit: float | None = None) -> nx.DiGraph:
    """A shattered tree of depth the game's value: the multiclass tree, or under bandit feedback the bandit tree.

    Parameters
    ----------
    H : HypothesisClass
        A class of any number of labels.
    rules : Rules, optional
        Full information or bandit feedback on ``H``'s labels, no noise, a deterministic
        learner (default: full information).
    max_nodes, time_limit : optional
        The budget of the value's search (:func:`~mistakebound.theory.game_values.game_value`).

    Raises
    ------
    NotApplicableError
        For a noise budget or a randomized learner (no tree of this kind).
    SearchIncomplete, SearchInterrupted
        When the value's search runs out of budget or is interrupted, with its proven bounds
        (a partial tree is never returned).
    """
    from mistakebound.theory.game_values import GameSearch, game_value

    H = require_class(H)
    rules = Rules(labels=H.n_labels) if rules is None else require_adaptive_order(require_rules(rules), "a tree")
    if rules.noise or rules.randomized:
        raise NotApplicableError(f"rules: {rules.describe()} has no shattered tree (trees are drawn for a "
                                 "deterministic learner without a noise budget); GameSearch's players play it")
    found = game_value(H, rules, max_nodes=max_nodes, time_limit=time_limit)
    if found.status == "interrupted":
        raise SearchInterrupted(found)
    if not found.exact:
        raise SearchIncomplete(found)
    search = GameSearch(H, rules)
    with search._search.deep():
        return _Builder(H, search, rules).tree(int(found.value))


class _Builder:
    """Reads a tree off the search's values (see the module docstring for why each step finds one)."""

    def __init__(self, H: HypothesisClass, search: Any, rules: Rules):
        self.H, self.search, self.k = H, search._search, rules.labels
        self.bandit = rules.feedback == "bandit"
        # the search's distinct row i is np.unique's i-th row: the class's first row equal to it
        first = {tuple(row): i for i, row in reversed(list(enumerate(H.matrix.tolist())))}
        self.row_of = [first[tuple(row)] for row in np.unique(H.matrix, axis=0).tolist()]
        self.graph = nx.DiGraph(kind="bandit" if self.bandit else "multiclass")

    def tree(self, depth: int) -> nx.DiGraph:
        self.graph.graph["depth"] = depth
        self._build(self.search.root, depth, 1)
        return self.graph

    def _value(self, S: tuple[int, ...]) -> float:
        return self.search.value(S) if any(S) else -1

    def _leaf(self, S: tuple[int, ...], node: int) -> None:
        row = self.row_of[(S[0] & -S[0]).bit_length() - 1]
        self.graph.add_node(node, witness=row, witness_name=self.H.hypothesis_name(row))

    def _build(self, S: tuple[int, ...], depth: int, node: int) -> None:
        search, full = self.search, self.search.full
        if depth == 0:
            self._leaf(S, node)
            return
        for j, cols in enumerate(search.columns):
            if self.bandit:  # every prediction's "wrong" child still worth depth - 1
                children = [search.after(S, full ^ cols[c]) for c in range(self.k)]
                if all(self._value(T) >= depth - 1 for T in children):
                    self.graph.add_node(node, instance=self.H.domain[j])
                    for c, T in enumerate(children):
                        child = self.k * (node - 1) + 2 + c
                        self.graph.add_edge(node, child, prediction=c, label=f"not {c}")
                        self._build(T, depth - 1, child)
                    return
            else:  # two different labels, each child worth depth - 1
                good = [y for y in range(self.k) if self._value(search.after(S, cols[y])) >= depth - 1]
                if len(good) >= 2:
                    self.graph.add_node(node, instance=self.H.domain[j])
                    for child, y in ((2 * node, good[0]), (2 * node + 1, good[1])):
                        self.graph.add_edge(node, child, label=y)
                        self._build(search.after(S, cols[y]), depth - 1, child)
                    return
        for cols in search.columns:  # no such instance: a smaller version space is worth as much
            for y in range(self.k):
                T = search.after(S, cols[y])
                if any(T) and T != S and self._value(T) >= depth:
                    self._build(T, depth, node)
                    return
        raise AssertionError("the value promised a tree")  # pragma: no cover - the module docstring's argument


def is_game_shattered(H: HypothesisClass, tree: nx.DiGraph) -> bool:
    """Whether ``tree`` (of :func:`game_tree`'s layout, its ``kind`` and ``depth``) is shattered by ``H``.

    A multiclass tree: every internal node has two children along two different labels;
    a bandit tree: ``k`` children, one along each prediction.  Every leaf is at the
    tree's depth, and its witness (a row of ``H``) gives each instance on its path the
    edge's label (multiclass) or a label other than the edge's prediction (bandit).
    """
    H = require_class(H)
    kind, depth = tree.graph.get("kind"), tree.graph.get("depth")
    if kind not in ("multiclass", "bandit") or not isinstance(depth, int) or 1 not in tree:
        return False
    stack = [(1, 0, [])]  # node, its depth, the path's (column, edge) pairs
    while stack:
        node, d, path = stack.pop()
        children = list(tree.successors(node))
        if not children:
            w = tree.nodes[node].get("witness")
            if d != depth or not isinstance(w, int) or not 0 <= w < H.n_hypotheses:
                return False
            for j, (key, value) in path:
                given = int(H.matrix[w, j])
                if (key == "label" and given != value) or (key == "prediction" and given == value):
                    return False
            continue
        x = tree.nodes[node].get("instance")
        if x not in H:
            return False
        j = H.index_of(x)
        key = "prediction" if kind == "bandit" else "label"
        values = [tree.edges[node, c].get(key) for c in children]
        wanted = list(range(H.n_labels)) if kind == "bandit" else None
        if kind == "bandit" and sorted(values) != wanted:
            return False
        if kind == "multiclass" and (len(values) != 2 or values[0] == values[1]
                                     or not all(v in H.labels for v in values)):
            return False
        stack.extend((c, d + 1, path + [(j, (key, v))]) for c, v in zip(children, values))
    return True
