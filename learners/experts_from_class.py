"""Weighted-Majority over the hypotheses of a finite class: the agnostic learner for finite H.

Each hypothesis ``h_i`` of the class is an expert whose advice on ``x`` is ``h_i(x)``;
the learner is :class:`~mistakebound.learners.weighted_majority.WeightedMajority` over
those experts and plays on the class itself.  Its expected regret against the best
hypothesis is at most ``sqrt(2 T ln |H|)`` (textbook ch. 21, the finite case of the
proof of Theorem 21.10, Corollary 21.12).

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.adversaries import ObliviousCoin
>>> H = classes.thresholds(7)
>>> L = ExpertsFromClass(H, 20)
>>> T = play(L, ObliviousCoin(labels="coin"), H, rounds=20, seed=0, realizable=False)
>>> claim = L.bound(H, rounds=20, realizable=False)
>>> round(claim.value, 4), T.regret <= claim.value
(9.1202, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.validation import check_instance, check_int, integer_converter
from mistakebound.game.hypothesis_class import HypothesisClass, require_binary
from mistakebound.game.players import Learner
from mistakebound.learners._setting import describe_setting, horizon_claim, need_rounds, not_applicable, same_table
from mistakebound.learners.weighted_majority import WeightedMajority, weighted_majority_regret_bound
from mistakebound.verification.claims import Bound

__all__ = ["ExpertsFromClass"]

#: The theorem behind the learner's claim.
SOURCE = (
    "Corollary 21.12 / proof of Theorem 21.10, finite case (textbook ch. 21, seed 000): "
    "expected regret <= sqrt(2 T ln |H|)"
)


@define
class ExpertsFromClass(Learner):
    """Weighted-Majority whose experts are the hypotheses of a finite class ``H``.

    On instance ``x`` expert ``i`` advises ``H.matrix[i, col(x)]``; the learner predicts
    label 1 with probability ``p_t = sum_i w_i h_i(x_t)`` and multiplies the weight of every
    hypothesis that got the label wrong by ``exp(-eta)``, ``eta = sqrt(2 ln |H| / T)``.
    Duplicate rows are separate experts, as ``|H|`` counts them in the bound.

    Parameters
    ----------
    H : HypothesisClass
        The class; the game is played on it (instances from its domain).
    T : int
        The horizon the learning rate is tuned for.

    Examples
    --------
    >>> from mistakebound import classes
    >>> L = ExpertsFromClass(classes.thresholds(3), 10)
    >>> L.predict_proba_one(2)   # thresholds x < a, a = 1..4: two of four say 1 at x = 2
    0.5
    >>> L.learn_one(2, 1)
    >>> L.predict_proba_one(2) > 0.5
    True
    """

    H: HypothesisClass = field(validator=lambda self, a, v: check_instance("H", v, HypothesisClass, "a HypothesisClass"))
    T: int = field(converter=integer_converter("T", 1))
    _wm: WeightedMajority = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        require_binary(self.H, what="ExpertsFromClass, a learner of 0/1 classes,")
        self._wm = WeightedMajority(self.H.n_hypotheses, self.T)

    def _advice(self, x: Any) -> np.ndarray:
        return self.H.matrix[:, self.H.index_of(x)].astype(float)

    @property
    def weights(self) -> np.ndarray:
        """The normalised weight of each hypothesis (row of ``H``)."""
        return self._wm.weights

    @property
    def eta(self) -> float:
        """The learning rate ``sqrt(2 ln |H| / T)``."""
        return self._wm.eta

    def predict_proba_one(self, x: Any) -> float:
        return self._wm.predict_proba_one(self._advice(x))

    def learn_one(self, x: Any, y: int) -> None:
        self._wm.learn_one(self._advice(x), y)

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> ExpertsFromClass:
        """``ExpertsFromClass(H, rounds)`` for a game of ``rounds`` rounds on the finite class ``H``.

        Raises
        ------
        NotApplicableError
            If ``setting`` is not a :class:`~mistakebound.HypothesisClass`.
        InvalidArgumentError
            If ``rounds`` (the horizon its rate is tuned for) is missing.
        """
        if not isinstance(setting, HypothesisClass):
            raise not_applicable(cls.__name__, setting, "finite classes (its experts are the rows of the table)")
        if rounds is None:
            raise need_rounds(cls.__name__, rounds)
        return cls(setting, check_int("rounds", rounds, 1))

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``sqrt(2 T ln |H|)`` on the expected regret of a game of at most ``T`` rounds (Corollary 21.12).

        ``|H|`` counts duplicate rows.  The measure is ``"regret"`` in unrealizable games
        and ``"expected mistakes"`` in realizable ones (the best hypothesis makes none).

        Returns
        -------
        Bound
            None with the reason on another setting than the learner's class, when the
            game's length is unknown, or when it exceeds ``T``.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.thresholds(7)
        >>> L = ExpertsFromClass(H, 20)
        >>> b = L.bound(H, rounds=20)
        >>> b.measure, round(b.value, 4)
        ('expected mistakes', 9.1202)
        >>> L.bound(H).reason
        "the bound holds for games of at most T = 20 rounds, and the game's length is not given: pass rounds (or the transcript)"
        """
        measure = "expected mistakes" if realizable else "regret"
        if not isinstance(setting, HypothesisClass):
            return Bound.none(f"ExpertsFromClass plays on a finite class; the game is on {describe_setting(setting)}",
                              measure=measure)
        if not same_table(self.H, setting):
            return Bound.none(f"ExpertsFromClass was built for {self.H.describe()}; the game is on "
                              f"{setting.describe()}", measure=measure)
        return horizon_claim(self.T, rounds, transcript, weighted_majority_regret_bound(self.H.n_hypotheses, self.T),
                              measure, SOURCE, type(self).__name__)
