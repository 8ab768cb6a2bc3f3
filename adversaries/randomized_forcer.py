"""RandomizedForcer: force ``RL(H)`` expected mistakes on every learner, randomized or not."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from attrs import define, field

from mistakebound.adversaries._forcing import measure_for
from mistakebound.adversaries._labels import against
from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game.play import GameState
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Adversary
from mistakebound.theory.randomized_ldim import DEFAULT_MAX_NODES, RLdimSearch, randomized_littlestone_dimension
from mistakebound.verification.claims import Bound

__all__ = ["RandomizedForcer"]

#: Where its forced count comes from.
SOURCE = (
    "Filmus, Hanneke, Mehalel and Moran (COLT 2023), the lower-bound half: RL(H) expected mistakes on every "
    "learner (ceil(RL(H)) mistakes on a deterministic one)"
)


@define
class RandomizedForcer(Adversary):
    """Walks the randomized-Littlestone recursion, answering each prediction with the better label.

    While the version space ``V`` (tracked by the adversary over the class's distinct
    rows) has two hypotheses that disagree somewhere, it presents an instance ``x``
    achieving ``RL(V) = (1 + RL(V_x^0) + RL(V_x^1)) / 2`` (the first found by
    :meth:`~mistakebound.theory.randomized_ldim.RLdimSearch.best_split`), and, seeing the learner's
    probability ``p`` of predicting 1, answers the label ``y`` maximising
    ``|p - y| + RL(V_x^y)``; on a tie, the label against the likelier prediction.  Both
    labels are given by some hypothesis of ``V``, so the game stays realizable; the game
    ends when ``V`` holds a single distinct hypothesis (at most ``|H| - 1`` rounds).

    **What it forces.**  The larger of the two labels' totals is at least their mean,
    ``(1 + RL(V_x^0) + RL(V_x^1)) / 2 = RL(V)``, so ``sum |p_t - y_t| + RL(V_t)`` never
    decreases along the game; it starts at ``RL(H)`` and ends with ``RL = 0``.  Hence
    the transcript's ``expected_mistakes`` is at least ``RL(H)`` against every learner,
    on every run and every seed (a deterministic learner's ``p`` is 0 or 1, so it
    makes at least ``ceil(RL(H))`` mistakes), with equality against
    :class:`~mistakebound.learners.optimal_randomized.OptimalRandomizedLearner`.  This
    is the lower-bound half of the theorem of Filmus, Hanneke, Mehalel and Moran
    (COLT 2023) that ``RL(H)`` is the optimal expected mistake bound.

    Parameters
    ----------
    max_nodes : int
        The search budget of each ``RL`` query (see
        :func:`~mistakebound.theory.randomized_ldim.randomized_littlestone_dimension`).

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import SOA
    >>> from mistakebound.learners.optimal_randomized import OptimalRandomizedLearner
    >>> H = classes.power_set(3)
    >>> play(OptimalRandomizedLearner(H), RandomizedForcer(), H, rounds=10, seed=0).expected_mistakes
    1.5
    >>> play(SOA(H), RandomizedForcer(), H, rounds=10, seed=0).mistakes >= 1.5
    True
    >>> RandomizedForcer.forced(H)
    Fraction(3, 2)
    """

    max_nodes: int = DEFAULT_MAX_NODES
    _search: RLdimSearch | None = field(init=False, default=None, repr=False)
    _V: int = field(init=False, default=0, repr=False)

    def applies_to(self, H: Any) -> bool:
        return isinstance(H, HypothesisClass)

    def start(self, state: GameState) -> None:
        if not isinstance(state.H, HypothesisClass):
            raise NotApplicableError(
                f"H: RandomizedForcer plays on a finite HypothesisClass, got {type(state.H).__name__}"
            )
        if self._search is None or self._search.H is not state.H:
            self._search = RLdimSearch(state.H, max_nodes=self.max_nodes)
        self._V = self._search.mask_of_rows(state.version_mask) if state.version_mask else self._search.full

    def next_instance(self, state: GameState) -> Any:
        j = self._search.best_split(self._V) if self._V else None
        return None if j is None else state.H.domain[j]

    def label(self, state: GameState, x: Any, p: float) -> int:
        search = self._search
        V0, V1 = search.sides(self._V, state.H.index_of(x))
        q = Fraction(p)  # exact: the float the engine saw
        one = (1 - q) + search.value(V1)
        zero = q + search.value(V0)
        y = 1 if one > zero else 0 if zero > one else against(p)
        self._V = V1 if y == 1 else V0
        return y

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """``RL(H)`` expected mistakes on every learner; ``ceil(RL(H))`` mistakes on a deterministic one.

        The potential ``sum |p_t - y_t| + RL(V_t)`` never decreases (see the class
        docstring), and the game ends when ``RL(V) = 0``, after at most ``m - 1`` rounds
        for ``m`` distinct hypotheses; a horizon shorter than that could stop it early,
        so then no count is claimed.  Every label follows a hypothesis of ``V``, so in an
        unrealizable game it bounds a randomized learner's regret too.

        Examples
        --------
        >>> from mistakebound import classes
        >>> from mistakebound.learners import SOA, OptimalRandomizedLearner
        >>> H = classes.power_set(3)
        >>> RandomizedForcer().forces(H, learner=SOA(H)).value
        2
        >>> RandomizedForcer().forces(H, learner=OptimalRandomizedLearner(H)).value
        1.5
        """
        measure = measure_for(learner, realizable, True)
        if not isinstance(setting, HypothesisClass):
            return Bound.none("RandomizedForcer plays on a finite class", measure=measure)
        longest = len({bytes(row) for row in setting.matrix.astype("uint8")}) - 1
        if rounds is not None and rounds < longest:
            return Bound.none(f"the game may need up to {longest} rounds (one per distinct hypothesis but one) and "
                              f"the horizon is {rounds}: give at least {longest}", measure=measure)
        rl = self.forced(setting)
        value = math.ceil(rl) if measure == "mistakes" else float(rl)
        return Bound(value, measure, SOURCE, ("the game runs until one distinct hypothesis is left",))

    @classmethod
    def forced(cls, H: HypothesisClass) -> Fraction:
        """``RL(H)``: the expected mistakes it forces on every learner (FHMM, COLT 2023; see above)."""
        return randomized_littlestone_dimension(H)
