"""The doubling trick: run a learner that needs the horizon on blocks of length 1, 2, 4, ...

Textbook ch. 21, Exercise 4 (seed ``000``): given a factory ``T -> learner`` whose regret
over a block of ``2^m`` rounds is at most ``alpha sqrt(2^m)``, restart a fresh learner
with horizon ``2^m`` on rounds ``2^m, ..., 2^(m+1) - 1`` for ``m = 0, 1, 2, ...``.  The
total regret after ``T`` rounds is at most the sum of the blocks' regrets (the best
expert overall is no better, on each block, than that block's best), hence at most
``sum_{m=0}^{M} alpha sqrt(2^m) <= sqrt(2) / (sqrt(2) - 1) alpha sqrt(T)``, ``M = floor(log2 T)``.

Examples
--------
>>> from mistakebound import play
>>> from mistakebound.game.spaces import ExpertAdvice
>>> from mistakebound.learners.weighted_majority import WeightedMajority
>>> from mistakebound.adversaries.expert_adversaries import HeaviestExpertLoss
>>> L = DoublingTrick(lambda T: WeightedMajority(3, T))
>>> T = play(L, HeaviestExpertLoss(), ExpertAdvice(3), rounds=100, seed=0, realizable=False)
>>> L.block_lengths
(1, 2, 4, 8, 16, 32, 64)
>>> T.regret <= DoublingTrick.regret_bound(math.sqrt(2 * math.log(3)), 100)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from attrs import define, field
from attrs.validators import is_callable

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.learners.weighted_majority import check_int
from mistakebound.game.players import Learner, is_randomized

__all__ = ["DoublingTrick", "block_of_round"]


def block_of_round(t: int) -> int:
    """The block ``m`` that round ``t`` (1-based) falls in: ``2^m <= t < 2^(m+1)``.

    Examples
    --------
    >>> [block_of_round(t) for t in range(1, 9)]
    [0, 1, 1, 2, 2, 2, 2, 3]
    """
    return check_int("t", t, 1).bit_length() - 1


@define
class DoublingTrick(Learner):
    """Restarts ``make_learner(2^m)`` on the rounds ``2^m .. 2^(m+1) - 1``, ``m = 0, 1, 2, ...``.

    The wrapper always offers ``predict_proba_one``: the inner learner's probability,
    or 0/1 from its ``predict_one`` when it is deterministic (the engine's draw from 0 or 1
    is then that label).  ``predict_one`` gives the inner learner's label, or for a
    randomized one its likelier label (1 when ``p >= 1/2``).  A block's learner is built
    when the block's first round is predicted, so no learner is built for a block the
    game never reaches.

    Parameters
    ----------
    make_learner : callable
        ``T -> learner``: a fresh learner tuned for horizon ``T``.

    Examples
    --------
    >>> from mistakebound.learners.weighted_majority import WeightedMajority
    >>> L = DoublingTrick(lambda T: WeightedMajority(2, T))
    >>> for t in range(1, 5):
    ...     _ = L.predict_proba_one([1.0, 0.0]); L.learn_one([1.0, 0.0], 0)
    >>> L.block_lengths, L.current.T
    ((1, 2, 4), 4)
    >>> round(DoublingTrick.regret_bound(1.0, 16), 4)   # sqrt 2 / (sqrt 2 - 1) * 4
    13.6569
    """

    make_learner: Callable[[int], Any] = field(validator=is_callable())
    _current: Any = field(init=False, default=None, repr=False)
    _left: int = field(init=False, default=0, repr=False)
    _blocks: list = field(init=False, factory=list, repr=False)

    bound_source = (
        "Exercise 4, the doubling trick (textbook ch. 21, seed 000): "
        "regret <= sqrt(2)/(sqrt(2)-1) alpha sqrt(T) when each block of 2^m rounds has regret <= alpha sqrt(2^m)"
    )

    def _learner(self) -> Any:
        if self._current is None:
            length = 1 << len(self._blocks)
            self._current = self.make_learner(length)
            self._left = length
            self._blocks.append(length)
        return self._current

    @property
    def current(self) -> Any:
        """The learner of the current block (None before the first round)."""
        return self._current

    @property
    def block_lengths(self) -> tuple[int, ...]:
        """The horizons of the blocks started so far: 1, 2, 4, ..."""
        return tuple(self._blocks)

    def predict_proba_one(self, x: Any) -> float:
        inner = self._learner()
        if is_randomized(inner):
            return inner.predict_proba_one(x)
        return float(inner.predict_one(x))

    def predict_one(self, x: Any) -> int:
        inner = self._learner()
        if is_randomized(inner):
            return int(inner.predict_proba_one(x) >= 0.5)
        return inner.predict_one(x)

    def learn_one(self, x: Any, y: int) -> None:
        self._learner().learn_one(x, y)
        self._left -= 1
        if self._left == 0:
            self._current = None

    @staticmethod
    def regret_bound(alpha: float, T: int) -> float:
        """``sqrt(2) / (sqrt(2) - 1) alpha sqrt(T)`` (textbook ch. 21, Exercise 4)."""
        alpha = _check_alpha(alpha)
        T = check_int("T", T, 0)
        return math.sqrt(2.0) / (math.sqrt(2.0) - 1.0) * alpha * math.sqrt(T)

    @staticmethod
    def block_regret_bound(alpha: float, T: int) -> float:
        """``sum_{m=0}^{M} alpha sqrt(2^m)``, ``M = floor(log2 T)``: the sum the exercise bounds.

        It assumes the last, possibly unfinished, block's regret is also at most
        ``alpha sqrt(2^M)``; for Weighted-Majority it is, since its bound
        ``ln d / eta + eta n / 2`` grows with the rounds ``n`` played.  Never more than
        :meth:`regret_bound`.

        Examples
        --------
        >>> DoublingTrick.block_regret_bound(1.0, 4)   # 1 + sqrt 2 + 2
        4.414213562373095
        """
        alpha = _check_alpha(alpha)
        T = check_int("T", T, 0)
        if T == 0:
            return 0.0
        return math.fsum(alpha * math.sqrt(2.0**m) for m in range(block_of_round(T) + 1))


def _check_alpha(alpha: Any) -> float:
    try:
        a = float(alpha)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"alpha: expected a number >= 0, got {alpha!r}") from None
    if not (a >= 0 and math.isfinite(a)):
        raise InvalidArgumentError(f"alpha: expected a finite number >= 0, got {alpha!r}")
    return a
