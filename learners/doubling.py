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
>>> S = ExpertAdvice(3)
>>> L = DoublingTrick.for_setting(S)      # WeightedMajority(3, 2^m) in block m
>>> T = play(L, HeaviestExpertLoss(), S, rounds=100, seed=0, realizable=False)
>>> L.block_lengths
(1, 2, 4, 8, 16, 32, 64)
>>> claim = L.bound(S, rounds=100, realizable=False)     # alpha = sqrt(2 ln 3)
>>> round(claim.value, 4), T.regret <= claim.value
(50.609, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from attrs import define, field, frozen
from attrs.validators import is_callable

from mistakebound.foundations.validation import check_int, check_real
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Learner, is_randomized
from mistakebound.game.spaces import ExpertAdvice
from mistakebound.learners._setting import describe_setting, not_applicable
from mistakebound.learners.experts_from_class import ExpertsFromClass
from mistakebound.learners.weighted_majority import WeightedMajority
from mistakebound.verification.claims import Bound, stated_bound

__all__ = ["DoublingTrick", "ForHorizon", "block_of_round", "doubling_regret_bound", "doubling_block_regret_bound"]

#: The theorem behind the wrapper's claim.
SOURCE = (
    "Exercise 4, the doubling trick (textbook ch. 21, seed 000): "
    "regret <= sqrt(2)/(sqrt(2)-1) alpha sqrt(T) when each block of 2^m rounds has regret <= alpha sqrt(2^m)"
)


def block_of_round(t: int) -> int:
    """The block ``m`` that round ``t`` (1-based) falls in: ``2^m <= t < 2^(m+1)``.

    Examples
    --------
    >>> [block_of_round(t) for t in range(1, 9)]
    [0, 1, 1, 2, 2, 2, 2, 3]
    """
    return check_int("t", t, 1).bit_length() - 1


def doubling_regret_bound(alpha: float, T: int) -> float:
    """``sqrt(2) / (sqrt(2) - 1) alpha sqrt(T)`` (textbook ch. 21, Exercise 4).

    Examples
    --------
    >>> round(doubling_regret_bound(1.0, 16), 4)   # sqrt 2 / (sqrt 2 - 1) * 4
    13.6569
    """
    alpha = check_real("alpha", alpha, minimum=0)
    T = check_int("T", T, 0)
    return math.sqrt(2.0) / (math.sqrt(2.0) - 1.0) * alpha * math.sqrt(T)


def doubling_block_regret_bound(alpha: float, T: int) -> float:
    """``sum_{m=0}^{M} alpha sqrt(2^m)``, ``M = floor(log2 T)``: the sum the exercise bounds.

    It assumes the last, possibly unfinished, block's regret is also at most
    ``alpha sqrt(2^M)``; for Weighted-Majority it is, since its bound
    ``ln d / eta + eta n / 2`` grows with the rounds ``n`` played.  Never more than
    :func:`doubling_regret_bound`.

    Examples
    --------
    >>> doubling_block_regret_bound(1.0, 4)   # 1 + sqrt 2 + 2
    4.414213562373095
    """
    alpha = check_real("alpha", alpha, minimum=0)
    T = check_int("T", T, 0)
    if T == 0:
        return 0.0
    return math.fsum(alpha * math.sqrt(2.0**m) for m in range(block_of_round(T) + 1))


@frozen
class ForHorizon:
    """``T -> learner_type.for_setting(setting, rounds=T)``: a learner factory for :class:`DoublingTrick`.

    Parameters
    ----------
    learner_type : type
        A learner class with a ``for_setting`` classmethod taking the horizon as ``rounds``.
    setting
        The setting each block's learner is built for.

    Examples
    --------
    >>> from mistakebound.learners.weighted_majority import WeightedMajority
    >>> make = ForHorizon(WeightedMajority, ExpertAdvice(3))
    >>> make(8), make
    (WeightedMajority(d=3, T=8), ForHorizon(WeightedMajority, experts(d=3)))
    """

    learner_type: type
    setting: Any

    def __call__(self, T: int) -> Any:
        return self.learner_type.for_setting(self.setting, rounds=T)

    def __repr__(self) -> str:
        return f"ForHorizon({self.learner_type.__name__}, {describe_setting(self.setting)})"


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
    """

    make_learner: Callable[[int], Any] = field(validator=is_callable())
    _current: Any = field(init=False, default=None, repr=False)
    _left: int = field(init=False, default=0, repr=False)
    _blocks: list = field(init=False, factory=list, repr=False)

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

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> DoublingTrick:
        """The doubling trick around the zoo's learner tuned for a horizon on ``setting``.

        On ``ExpertAdvice(d)`` the blocks run
        :class:`~mistakebound.learners.weighted_majority.WeightedMajority` ``(d, 2^m)``; on
        a finite class, :class:`~mistakebound.learners.experts_from_class.ExpertsFromClass`
        ``(H, 2^m)``.  ``rounds`` is not needed: not knowing it is the point of the trick.

        Raises
        ------
        NotApplicableError
            On any other setting (no learner of the zoo there needs a horizon).

        Examples
        --------
        >>> DoublingTrick.for_setting(ExpertAdvice(2))
        DoublingTrick(make_learner=ForHorizon(WeightedMajority, experts(d=2)))
        """
        if isinstance(setting, ExpertAdvice):
            return cls(ForHorizon(WeightedMajority, setting))
        if isinstance(setting, HypothesisClass):
            return cls(ForHorizon(ExpertsFromClass, setting))
        raise not_applicable(
            cls.__name__, setting,
            "expert advice and finite classes (where the zoo's learners tuned for a horizon play)",
        )

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """``sqrt(2)/(sqrt(2)-1) alpha sqrt(T)``, ``alpha`` read off the block learners' own claims.

        For each block ``m = 0 .. floor(log2 T)`` a fresh ``make_learner(2^m)`` states its
        claim for a game of ``2^m`` rounds on ``setting`` (through
        :func:`~mistakebound.verification.claims.stated_bound`), and ``alpha`` is the
        largest ``claim_m / sqrt(2^m)``; the regret over ``T`` rounds is at most the sum
        of the blocks' (Exercise 4).  Each claim must hold for a block cut short, as
        the claims of games of at most ``2^m`` rounds do.  ``T`` is ``len(transcript)``
        when the finished game is given, else ``rounds``.

        Returns
        -------
        Bound
            On ``"regret"`` (``"expected mistakes"`` in realizable games); none with the
            reason when ``T`` is unknown or a block's learner states no bound.

        Examples
        --------
        >>> from mistakebound.learners.weighted_majority import WeightedMajority
        >>> L = DoublingTrick(lambda T: WeightedMajority(2, T))
        >>> round(L.bound(ExpertAdvice(2), rounds=16, realizable=False).value, 4)   # alpha = sqrt(2 ln 2)
        16.0797
        >>> L.bound(ExpertAdvice(2), realizable=False).reason
        "the bound grows with the game's length T, which is not given: pass rounds (or the transcript)"
        """
        measure = "expected mistakes" if realizable else "regret"
        n = len(transcript) if transcript is not None else rounds
        if n is None:
            return Bound.none(
                "the bound grows with the game's length T, which is not given: pass rounds (or the transcript)",
                measure=measure,
            )
        n = check_int("rounds", n, 0)
        alpha, sources = 0.0, []
        for m in range(block_of_round(n) + 1 if n else 0):
            inner = self.make_learner(2**m)
            claim = stated_bound(inner, setting, rounds=2**m, realizable=realizable)
            if claim.value is None:
                return Bound.none(
                    f"block {m}: {type(inner).__name__} states no bound for a block of {2**m} rounds "
                    f"({claim.reason})",
                    measure=measure,
                )
            alpha = max(alpha, claim.value / math.sqrt(2**m))
            if claim.source not in sources:
                sources.append(claim.source)
        source = SOURCE + "".join(f"; blocks: {s}" for s in sources if s)
        return Bound(doubling_regret_bound(alpha, n), measure, source,
                     (f"alpha = {alpha:.6g} from the blocks' claims",))
