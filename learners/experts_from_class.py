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
>>> T = play(ExpertsFromClass(H, 20), ObliviousCoin(labels="coin"), H, rounds=20, seed=0, realizable=False)
>>> T.regret <= ExpertsFromClass.regret_bound(H, 20)
True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.learners.weighted_majority import WeightedMajority, check_int
from mistakebound.theory.littlestone import _require_class
from mistakebound.game.players import Learner

__all__ = ["ExpertsFromClass"]


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

    H: HypothesisClass = field(validator=lambda self, a, v: _require_class(v))
    T: int = field(converter=lambda v: check_int("T", v, 1))
    _wm: WeightedMajority = field(init=False, repr=False)

    bound_source = (
        "Corollary 21.12 / proof of Theorem 21.10, finite case (textbook ch. 21, seed 000): "
        "expected regret <= sqrt(2 T ln |H|)"
    )

    def __attrs_post_init__(self) -> None:
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

    @staticmethod
    def regret_bound(H: HypothesisClass, T: int) -> float:
        """``sqrt(2 T ln |H|)`` (Corollary 21.12, textbook ch. 21), ``|H|`` counting duplicate rows."""
        H = _require_class(H)
        T = check_int("T", T, 1)
        return math.sqrt(2.0 * T * math.log(H.n_hypotheses))
