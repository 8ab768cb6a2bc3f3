"""OptimalRandomizedLearner: the randomized learner whose expected worst case is ``RL(H)``."""

from __future__ import annotations

import copy
from collections.abc import Callable
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np
from attrs import define, field

from mistakebound.foundations.bitset import mask_to_indices
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_instance
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Learner
from mistakebound.theory.symmetry import keeps_methods
from mistakebound.learners._setting import class_claim, not_applicable
from mistakebound.learners.soa import _distinct_rows
from mistakebound.verification.claims import Bound
from mistakebound.theory.randomized_ldim import DEFAULT_MAX_NODES, RLdimSearch

__all__ = ["OptimalRandomizedLearner"]

#: The theorem behind the learner's claim.
SOURCE = (
    "Filmus, Hanneke, Mehalel and Moran, COLT 2023: the optimal expected mistake bound "
    "of a randomized learner is RL(H); E[mistakes] <= RL(H)"
)


@define
class OptimalRandomizedLearner(Learner):
    """Predicts 1 with the probability that solves the round's min-max against ``RL``.

    On an instance ``x`` splitting the version space ``V`` it predicts 1 with
    probability ``p = (1 + RL(V_x^1) - RL(V_x^0)) / 2`` clipped to [0, 1], the ``p``
    minimising ``max((1 - p) + RL(V_x^1), p + RL(V_x^0))``, the adversary's best
    continuation; on an instance the version space labels unanimously it predicts that
    label with probability 1.  Then it keeps the hypotheses consistent with the label.
    For every instance and label, ``|p - y| + RL(V_x^y) <= RL(V)``, so its expected
    number of mistakes never exceeds ``RL(H)``, the optimum of Filmus, Hanneke,
    Mehalel and Moran (COLT 2023); :class:`~mistakebound.adversaries.randomized_forcer.RandomizedForcer`
    forces exactly that much.

    The exact probability of the last prediction is kept in :attr:`last_probability`
    (a :class:`~fractions.Fraction`); :meth:`probability` computes it without
    predicting.  ``RL`` queries go to one
    :class:`~mistakebound.theory.randomized_ldim.RLdimSearch` shared by the learner's clones and
    snapshots.  If the labels contradict every hypothesis (only in unrealizable games)
    the version space becomes empty and it predicts 1/2 from then on.

    Parameters
    ----------
    H : HypothesisClass
    max_nodes : int
        The search budget of each ``RL`` query (see
        :func:`~mistakebound.theory.randomized_ldim.randomized_littlestone_dimension`); a query over
        budget raises :class:`~mistakebound.theory.search_protocol.SearchIncomplete`.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.theory.worst_case import worst_case_mistakes
    >>> H = classes.singletons(3)
    >>> L = OptimalRandomizedLearner(H)
    >>> L.predict_proba_one(1), L.last_probability
    (0.25, Fraction(1, 4))
    >>> worst_case_mistakes(OptimalRandomizedLearner(H), H).value
    0.75
    >>> L.bound(H).describe()
    '0.75 on expected mistakes (Filmus, Hanneke, Mehalel and Moran, COLT 2023: the optimal expected mistake bound of a randomized learner is RL(H); E[mistakes] <= RL(H))'
    """

    H: HypothesisClass = field(validator=lambda self, a, v: check_instance("H", v, HypothesisClass, "a HypothesisClass"))
    max_nodes: int = DEFAULT_MAX_NODES
    _search: RLdimSearch = field(init=False, repr=False)
    _V: int = field(init=False, repr=False)
    last_probability: Fraction | None = field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        self._search = RLdimSearch(self.H, max_nodes=self.max_nodes)
        self._V = self._search.full

    #: RL of sub-classes: renaming instances or reordering rows changes nothing.
    symmetries: ClassVar[frozenset[str]] = frozenset({"instances", "rows"})

    def version_space_policy(self, H: Any) -> Callable[[int, int], float] | None:
        """The probability of 1 as a function of the version space ``V`` (a bitset over the rows of ``H``).

        ``float(RLdimSearch.probability(V, j))`` from the learner's own search, as
        :meth:`predict_proba_one`.  For the worst-case search (see
        :mod:`mistakebound.theory.symmetry`); None when the game is not on this learner's
        class, the learner has learned something, or a subclass changed how it predicts.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.singletons(3)
        >>> OptimalRandomizedLearner(H).version_space_policy(H)(H.full_mask, 1)
        0.25
        """
        if not keeps_methods(self, OptimalRandomizedLearner,
                             ("predict_proba_one", "probability", "learn_one", "state_key", "snapshot")):
            return None
        if (H is not self.H and H != self.H) or self._V != self._search.full:
            return None
        probability = self._search.probability
        to_distinct = _distinct_rows(self._search.ldim_search, H)

        def predict(V: int, j: int) -> float:
            return float(probability(to_distinct(V), j))

        return predict

    def probability(self, x: Any) -> Fraction:
        """The exact probability of predicting 1 on ``x`` from the current version space."""
        return self._search.probability(self._V, self._column(x))

    def predict_proba_one(self, x: Any) -> float:
        p = self.probability(x)
        self.last_probability = p
        return float(p)

    def learn_one(self, x: Any, y: int) -> None:
        ones = self._V & self._search.columns[self._column(x)]
        self._V = ones if y == 1 else self._V ^ ones

    def _column(self, x: Any) -> int:
        try:
            return self.H.index_of(x)
        except KeyError:
            raise InvalidArgumentError(f"x: {x!r} is not an instance of the class's domain") from None

    @property
    def version_space(self) -> np.ndarray:
        """Row indices of ``H`` (every copy of a duplicated row) still consistent."""
        distinct = mask_to_indices(self._V)
        return np.flatnonzero(np.isin(self._search.ldim_search.row_to_distinct, distinct))

    def state_key(self) -> int:
        """The learner's whole state: the version space bitset (over distinct rows)."""
        return self._V

    def snapshot(self) -> OptimalRandomizedLearner:
        """A copy in the current state, sharing the class and the ``RL`` memo."""
        return copy.copy(self)

    def clone(self) -> OptimalRandomizedLearner:
        fresh = copy.copy(self)
        fresh._V = self._search.full
        fresh.last_probability = None
        return fresh

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> OptimalRandomizedLearner:
        """A fresh learner for a game on the finite class ``setting`` (``rounds`` is not needed).

        Raises
        ------
        NotApplicableError
            If ``setting`` is not a :class:`~mistakebound.HypothesisClass`.
        """
        if not isinstance(setting, HypothesisClass):
            raise not_applicable(cls.__name__, setting, "finite classes (it searches RL of the table)")
        return cls(setting)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``RL(H)`` expected mistakes in a realizable game on ``H`` (FHMM, COLT 2023); none otherwise.

        ``RL(H)`` is computed exactly by the learner's own search (the one its
        predictions use, with its budget), so asking costs nothing more than playing;
        a class too large for that budget raises the search's out-of-budget error, as
        playing would.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.power_set(3)
        >>> OptimalRandomizedLearner(H).bound(H).value
        1.5
        >>> OptimalRandomizedLearner(H).bound(H, realizable=False).reason
        'FHMM (COLT 2023) needs a realizable game'
        """
        return class_claim(self, setting, realizable=realizable, theorem="FHMM (COLT 2023)", source=SOURCE,
                           value=lambda H: float(self._search.value(self._search.full)),
                           measure="expected mistakes")
