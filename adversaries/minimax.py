"""MinimaxAdversary: replay the adversary's line that an exact worst-case search found.

:func:`~mistakebound.theory.worst_case.worst_case_mistakes` computes a learner's worst
case ``M_A(H)`` and the line of play that reaches it, as a graph (``WorstCase.witness``,
also ``WorstCase.strategy``); :class:`MinimaxAdversary` plays that line in
:func:`~mistakebound.play`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from mistakebound.adversaries._forcing import measure_for
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Adversary, is_randomized, snapshot_of
from mistakebound.verification.claims import Bound

if TYPE_CHECKING:  # imported where a strategy is given: listing the zoo (as `play` does) never pays for it
    import networkx as nx

__all__ = ["MinimaxAdversary"]

#: Where its forced count comes from.
SOURCE = "worst_case_mistakes: the line of the exact worst-case search, replayed (its gains, on the same learner)"




class MinimaxAdversary(Adversary):
    """Replays the optimal line of a :class:`~mistakebound.theory.worst_case.WorstCase` strategy in :func:`~mistakebound.play`.

    It presents the recorded instances in order and answers the recorded labels; the
    labels are those of one hypothesis of the class, so the game stays realizable
    whatever the learner predicts.  Against the learner the strategy was computed for
    (with the same starting state) it forces exactly ``WorstCase.value`` mistakes.

    Parameters
    ----------
    strategy : networkx.DiGraph
        The line: nodes ``0 .. k``, node ``t < k`` carrying the ``instance``, the
        learner's ``prediction``, the ``label`` and the ``gain`` of round ``t + 1``.

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import Consistent
    >>> from mistakebound.theory.worst_case import worst_case_mistakes
    >>> H = classes.singletons(4, include_empty=True)
    >>> W = worst_case_mistakes(Consistent(H), H)
    >>> play(Consistent(H), MinimaxAdversary(W.strategy), H, rounds=10, seed=0).mistakes
    4
    >>> MinimaxAdversary(W.strategy).forces(H, learner=Consistent(H)).value
    4
    """

    def __init__(self, strategy: nx.DiGraph):
        import networkx as nx

        if not isinstance(strategy, nx.DiGraph):
            raise InvalidArgumentError(f"strategy: expected the networkx DiGraph of a WorstCase, got {type(strategy).__name__}")
        self.strategy = strategy

    def __repr__(self) -> str:
        return f"MinimaxAdversary(value={self.strategy.graph.get('value')})"

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None, learner: Any = None,
                    max_nodes: int | None = None) -> MinimaxAdversary:
        """The worst case of ``learner`` (a registered name or ``module:Class``) on the finite class ``setting``.

        Its line belongs to one learner, so the learner must be named:
        ``MinimaxAdversary(learner=halving)`` on the command line.  The search
        (:func:`~mistakebound.theory.worst_case.worst_case_mistakes`) runs over games of at
        most ``rounds`` rounds, within ``max_nodes`` positions when given; out of budget
        it replays the best line found (what it forces is then the line's gains).

        Raises
        ------
        NotApplicableError
            Without a learner, or on a setting that is not a finite class.

        Examples
        --------
        >>> from mistakebound import classes, play
        >>> from mistakebound.learners import Halving
        >>> from mistakebound.game.counterexamples import halving_exceeds_ldim
        >>> H = halving_exceeds_ldim()
        >>> A = MinimaxAdversary.for_setting(H, learner="halving", rounds=10)
        >>> play(Halving(H), A, H, rounds=10, seed=0).mistakes
        3
        """
        from mistakebound.game import registry
        from mistakebound.theory.worst_case import worst_case_mistakes

        if learner is None:
            raise NotApplicableError(
                "MinimaxAdversary replays the line a worst-case search found for one learner: name it, "
                "MinimaxAdversary(learner=halving), or build it as MinimaxAdversary(worst_case_mistakes(learner, H).witness)"
            )
        if not isinstance(setting, HypothesisClass):
            raise NotApplicableError(f"MinimaxAdversary searches a finite class; got {registry.describe_setting(setting)}")
        target = registry.build("learner", learner, setting, rounds=rounds)
        W = worst_case_mistakes(target, setting, horizon=rounds, max_nodes=max_nodes)
        return cls(W.witness)

    def next_instance(self, state) -> Any:
        t = state.t - 1
        node = self.strategy.nodes.get(t, {})
        return node.get("instance") if "label" in node else None

    def label(self, state, x: Any, p: float) -> int:
        return self.strategy.nodes[state.t - 1]["label"]

    def _line(self) -> list[dict]:
        nodes = self.strategy.nodes
        out = []
        t = 0
        while "label" in nodes.get(t, {}):
            out.append(nodes[t])
            t += 1
        return out

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """The gains of its line on ``learner``: exactly what the worst-case search found, on the same learner.

        The line was computed for one learner from one starting state.  A copy of
        ``learner`` (its ``snapshot()``, else a deep copy) replays it here; if every
        prediction is the recorded one, the game will give the recorded gains: the
        mistakes (for a deterministic learner) or ``sum |p_t - y_t|`` (randomized) of
        its first ``rounds`` rounds.

        Returns
        -------
        Bound
            None with the reason when the learner predicts otherwise than the line
            records (another learner, or one already trained), or on a setting that is
            not a finite class.
        """
        measure = measure_for(learner, realizable, True)
        if not isinstance(setting, HypothesisClass):
            return Bound.none("MinimaxAdversary replays a line on a finite class", measure=measure)
        line = self._line()
        if rounds is not None:
            line = line[:rounds]
        copy_ = snapshot_of(learner)
        randomized = is_randomized(copy_)
        gains = []
        for t, node in enumerate(line, start=1):
            x, y = node["instance"], node["label"]
            p = float(copy_.predict_proba_one(x)) if randomized else float(copy_.predict_one(x))
            if p != float(node["prediction"]):
                return Bound.none(
                    f"{type(learner).__name__} predicts {p:g} in round {t} where the line records "
                    f"{float(node['prediction']):g}: the line was computed for another learner or starting state",
                    measure=measure,
                )
            gains.append(abs(p - y))
            copy_.learn_one(x, y)
        value = math.fsum(gains)
        if measure == "mistakes":
            value = int(round(value))
        return Bound(value, measure, SOURCE, ("the learner the line was computed for, from its starting state",))
