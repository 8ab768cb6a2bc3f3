"""ShatteredTreeWalker: force Ldim(H) mistakes by walking a shattered tree."""

from __future__ import annotations

from typing import Any

import networkx as nx
from attrs import define, field

from mistakebound.adversaries._labels import against
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.play import GameState
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.littlestone import is_shattered, shattered_tree
from mistakebound.game.players import Adversary

__all__ = ["ShatteredTreeWalker"]


@define
class ShatteredTreeWalker(Adversary):
    """Walks a shattered tree from the root, answering against the prediction.

    At each node it presents the node's instance, labels it against the learner's
    (more likely) prediction and moves along the edge with that label; at a leaf the
    game ends.  Because the tree is shattered, every path it can take is realised by a
    hypothesis, so the game stays realizable.  With a tree of depth ``Ldim(H)`` (the
    default, from :func:`~mistakebound.theory.littlestone.shattered_tree`) every
    deterministic learner makes exactly ``Ldim(H)`` mistakes (Lemma 21.6), and a
    randomized one at least ``Ldim(H) / 2`` in expectation.

    Parameters
    ----------
    tree : networkx.DiGraph, optional
        A shattered tree in the layout of ``shattered_tree``; computed when omitted.

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import Halving
    >>> H = classes.thresholds(15)
    >>> play(Halving(H), ShatteredTreeWalker(), H, rounds=100, seed=0).mistakes
    4
    """

    tree: nx.DiGraph | None = field(default=None, repr=False)
    _walk: nx.DiGraph | None = field(init=False, default=None, repr=False)
    _node: Any = field(init=False, default=None, repr=False)

    def applies_to(self, H: HypothesisClass) -> bool:
        return isinstance(H, HypothesisClass) and (self.tree is None or is_shattered(H, self.tree))

    def start(self, state: GameState) -> None:
        if self.tree is not None and not is_shattered(state.H, self.tree):
            raise InvalidArgumentError("tree: expected a tree shattered by the game's class, it is not")
        self._walk = self.tree if self.tree is not None else shattered_tree(state.H)
        self._node = next(n for n in self._walk if self._walk.in_degree(n) == 0)

    def next_instance(self, state: GameState) -> Any:
        if self._walk.out_degree(self._node) == 0:
            return None
        return self._walk.nodes[self._node]["instance"]

    def label(self, state: GameState, x: Any, p: float) -> int:
        y = against(p)
        self._node = next(c for c in self._walk.successors(self._node) if self._walk.edges[self._node, c]["label"] == y)
        return y
