"""ShatteredTreeWalker: force Ldim(H) mistakes by walking a shattered tree."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attrs import define, field

from mistakebound.adversaries._forcing import forced_rounds, measure_for
from mistakebound.adversaries._labels import against
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.play import GameState
from mistakebound.game.players import Adversary
from mistakebound.theory.littlestone import is_shattered, littlestone_dimension, shattered_tree
from mistakebound.verification.claims import Bound

if TYPE_CHECKING:  # imported where a tree is walked: listing the zoo (as every `play` does) never pays for it
    import networkx as nx

__all__ = ["ShatteredTreeWalker"]

#: The lemma behind what it forces.
SOURCE = "Lemma 21.6 (textbook ch. 21): the walk of a shattered tree of depth d forces d mistakes"


def _leaf_depth(tree: nx.DiGraph) -> int:
    """The number of edges from the root to the nearest leaf: the rounds every walk plays."""
    import networkx as nx

    root = next(n for n in tree if tree.in_degree(n) == 0)
    depths = nx.single_source_shortest_path_length(tree, root)
    return min(depth for node, depth in depths.items() if tree.out_degree(node) == 0)


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
    >>> ShatteredTreeWalker().forces(H, learner=Halving(H)).describe()
    '4 on mistakes (Lemma 21.6 (textbook ch. 21): the walk of a shattered tree of depth d forces d mistakes)'
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

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """``Ldim(H)`` mistakes on every deterministic learner (Lemma 21.6); ``Ldim(H)/2`` expected on a randomized one.

        The walk of its own tree (depth ``Ldim(H)``, or the depth of the nearest leaf
        of a given tree) plays that many rounds whatever the predictions, each answered
        against the likelier label; the horizon caps it.  Every label follows a
        hypothesis of the path, so in an unrealizable game a randomized learner's
        regret is bounded below as well.

        Returns
        -------
        Bound
            None with the reason on a setting that is not a finite class, or one that
            does not shatter the given tree.

        Examples
        --------
        >>> from mistakebound import classes
        >>> from mistakebound.learners import OptimalRandomizedLearner
        >>> H = classes.thresholds(7)
        >>> b = ShatteredTreeWalker().forces(H, learner=OptimalRandomizedLearner(H))
        >>> b.value, b.measure
        (1.5, 'expected mistakes')
        """
        measure = measure_for(learner, realizable, True)
        if not isinstance(setting, HypothesisClass):
            return Bound.none("ShatteredTreeWalker plays on a finite class", measure=measure)
        if self.tree is None:
            depth, what = littlestone_dimension(setting), "its own tree, of depth Ldim(H)"
        elif is_shattered(setting, self.tree):
            depth, what = _leaf_depth(self.tree), "the given shattered tree"
        else:
            return Bound.none(f"the given tree is not shattered by {setting.describe()}", measure=measure)
        return forced_rounds(depth, learner=learner, rounds=rounds, realizable=realizable, source=SOURCE,
                             assumptions=(f"it walks {what}",))
