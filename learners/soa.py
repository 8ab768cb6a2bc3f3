"""SOA, the Standard Optimal Algorithm: follow the side of larger Littlestone dimension."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, ClassVar

from attrs import define, field

from mistakebound.foundations.validation import check_instance
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Learner
from mistakebound.theory.symmetry import keeps_methods
from mistakebound.learners._setting import class_claim, not_applicable
from mistakebound.theory.littlestone import LdimSearch
from mistakebound.verification.claims import Bound

__all__ = ["SOA"]

#: The theorem behind SOA's claim.
SOURCE = "Lemma 21.7 (textbook ch. 21): M <= Ldim(H)"


@define
class SOA(Learner):
    """Predicts the label whose sub-version-space has the larger Ldim; 1 on a tie.

    On a mistake the Ldim of the version space drops by at least one, so SOA errs at
    most ``Ldim(H)`` times (Lemma 21.7), which no learner can beat (Lemma 21.6).  The
    Ldim queries go to one :class:`~mistakebound.theory.littlestone.LdimSearch` whose memo
    lives as long as the learner (and is shared with its clones), so a version space
    met twice is never searched twice.  Each prediction computes the Ldim of the
    1-side exactly and asks only whether the 0-side's is larger.

    Parameters
    ----------
    H : HypothesisClass

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.adversaries import OppositeLabel
    >>> H = classes.singletons(16)
    >>> play(SOA(H), OppositeLabel(), H, rounds=20, seed=0).mistakes
    1
    >>> SOA(classes.thresholds(15)).bound(classes.thresholds(15)).value
    4
    """

    H: HypothesisClass = field(validator=lambda self, a, v: check_instance("H", v, HypothesisClass, "a HypothesisClass"))
    _search: LdimSearch = field(init=False, repr=False)
    _V: int = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._search = LdimSearch(self.H)
        self._V = self._search.full

    #: Ldim of sub-classes: renaming instances or reordering rows changes nothing.
    symmetries: ClassVar[frozenset[str]] = frozenset({"instances", "rows"})

    def version_space_policy(self, H: Any) -> Callable[[int, int], int] | None:
        """The prediction as a function of the version space ``V`` (a bitset over the rows of ``H``).

        1 unless ``Ldim(V_x^0) > Ldim(V_x^1)``, asked of the learner's own
        :class:`~mistakebound.theory.littlestone.LdimSearch` (shared with its predictions).
        For the worst-case search (see :mod:`mistakebound.theory.symmetry`); None when the
        game is not on this learner's class, the learner has learned something, or a
        subclass changed how it predicts or learns.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.thresholds(3)
        >>> predict = SOA(H).version_space_policy(H)
        >>> [predict(H.full_mask, j) for j in range(3)]
        [1, 1, 0]
        """
        if not keeps_methods(self, SOA):
            return None
        if (H is not self.H and H != self.H) or self._V != self._search.full:
            return None
        search = self._search
        columns, exceeds = search.columns, search.exceeds
        if search.n_distinct == H.n_hypotheses:  # bitsets over the rows are over the distinct rows

            def predict(V: int, j: int) -> int:
                V1 = V & columns[j]
                return 0 if exceeds(V ^ V1, V1) else 1

            return predict
        to_distinct = _distinct_rows(search, H)

        def predict_distinct(V: int, j: int) -> int:
            V = to_distinct(V)
            V1 = V & columns[j]
            return 0 if exceeds(V ^ V1, V1) else 1

        return predict_distinct

    def predict_one(self, x: Any) -> int:
        search = self._search
        V1 = self._V & search.columns[self.H.index_of(x)]
        return 0 if search.exceeds(self._V ^ V1, V1) else 1

    def learn_one(self, x: Any, y: int) -> None:
        ones = self._V & self._search.columns[self.H.index_of(x)]
        self._V = ones if y == 1 else self._V ^ ones

    def state_key(self) -> int:
        """The learner's whole state: the version space bitset (over distinct rows)."""
        return self._V

    def snapshot(self) -> SOA:
        """A copy in the current state, sharing the class and the Ldim memo."""
        return copy.copy(self)

    def clone(self) -> SOA:
        fresh = SOA.__new__(SOA)
        fresh.H = self.H
        fresh._search = self._search
        fresh._V = self._search.full
        return fresh

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> SOA:
        """A fresh SOA for a game on the finite class ``setting`` (``rounds`` is not needed).

        Raises
        ------
        NotApplicableError
            If ``setting`` is not a :class:`~mistakebound.HypothesisClass`.
        """
        if not isinstance(setting, HypothesisClass):
            raise not_applicable("SOA", setting, "finite classes (it searches the Ldim of the table)")
        return cls(setting)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``Ldim(H)`` mistakes in a realizable game on ``H`` (Lemma 21.7); none otherwise.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.thresholds(7)
        >>> SOA(H).bound(H).describe()
        '3 on mistakes (Lemma 21.7 (textbook ch. 21): M <= Ldim(H))'
        >>> SOA(H).bound(H, realizable=False).reason
        'Lemma 21.7 needs a realizable game'
        """
        # Ldim(H) from the learner's own search: the same memo its predictions use
        return class_claim(self, setting, realizable=realizable, theorem="Lemma 21.7", source=SOURCE,
                           value=lambda H: self._search.ldim(self._search.full))


def _distinct_rows(search: Any, H: Any) -> Callable[[int], int]:
    """Bitsets over the rows of ``H`` -> over the search's distinct rows (the identity without duplicates)."""
    if search.n_distinct == H.n_hypotheses:
        return lambda V: V
    cache: dict[int, int] = {}

    def convert(V: int) -> int:
        D = cache.get(V)
        if D is None:
            D = cache[V] = search.mask_of_rows(V) if V else 0
        return D

    return convert
