"""Adversaries for prediction with expert advice (:class:`~mistakebound.game.spaces.ExpertAdvice`).

* :class:`HeaviestExpertLoss` charges loss 1 to the expert Weighted-Majority weighs most
  (advice ``e_i``, label 0) and 0 to the others.
* :class:`RandomExpertLosses` commits to random cost vectors (0/1 or uniform in [0, 1]).
* :class:`SplitAdvice` splits the leading experts in two and answers against the
  learner's likelier label: every deterministic learner errs in every round.

Examples
--------
>>> from mistakebound import play
>>> from mistakebound.game.spaces import ExpertAdvice
>>> from mistakebound.learners.weighted_majority import WeightedMajority
>>> T = play(WeightedMajority(2, 64), HeaviestExpertLoss(), ExpertAdvice(2), rounds=64, seed=0, realizable=False)
>>> round(T.regret, 6) == round(HeaviestExpertLoss.forced_regret(2, 64, WeightedMajority(2, 64).eta), 6)
True
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
from attrs import define, field
from attrs.validators import in_

from mistakebound.adversaries._labels import against
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.play import GameState
from mistakebound.game.players import Adversary, ObliviousAdversary
from mistakebound.game.spaces import ExpertAdvice

__all__ = ["HeaviestExpertLoss", "RandomExpertLosses", "SplitAdvice", "cumulative_losses"]


def cumulative_losses(state: GameState) -> np.ndarray:
    """Each expert's loss ``sum_t |x_{t,i} - y_t|`` over the rounds played so far."""
    d = state.H.d
    if not state.history:
        return np.zeros(d)
    X = np.array([r.x for r in state.history], dtype=float).reshape(len(state.history), d)
    y = np.array([r.y for r in state.history], dtype=float)[:, None]
    return np.abs(X - y).sum(axis=0)


def _optional_int(name: str, value: Any, minimum: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise InvalidArgumentError(f"{name}: expected None or an integer >= {minimum}, got {value!r}")
    return int(value)


def _optional_eta(value: Any) -> float | None:
    if value is None:
        return None
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
    if not ok:
        raise InvalidArgumentError(f"eta: expected None or a finite number >= 0, got {value!r}")
    return float(value)


@define
class HeaviestExpertLoss(Adversary):
    """Charges loss 1 to the expert with the largest Weighted-Majority weight, 0 to the rest.

    From the history it recomputes the weights ``exp(-eta L_i)`` a Weighted-Majority
    learner holds (``L_i`` the cumulative losses) and presents the advice ``x = e_i`` with
    label 0 for the heaviest expert ``i``, the lowest index on a tie.  For any ``eta > 0``
    the heaviest expert is the one with the smallest loss, so the choice does not depend
    on ``eta`` (``eta = None``, the default, means "some ``eta > 0``"; ``eta = 0`` makes
    every round a tie, so expert 0 is always charged).  The losses go round-robin:
    expert ``(t - 1) mod d`` in round ``t``.

    Against :class:`~mistakebound.learners.weighted_majority.WeightedMajority` the
    learner pays, in the ``j``-th round of each cycle of ``d``, the weight
    ``1 / (d - j (1 - e^{-eta}))`` of the charged expert, so the regret is exactly
    :meth:`forced_regret`.  That is a constant fraction of the bound ``sqrt(2 T ln d)``,
    not the bound itself: per cycle it is at least ``(1 - e^{-eta}) (d - 1) / (2d)``,
    about ``eta (d - 1) / (2d)``, so the regret is about ``(d - 1) / (2 d^2) eta T =
    (d - 1) / (2 d^2) sqrt(2 T ln d)``: 1/8 of the bound for ``d = 2`` (measured: 0.1248 at
    ``T = 64``), 0.094 for ``d = 4`` (0.095 at ``T = 64``) and 0.045 for ``d = 10``
    (0.046 at ``T = 100``).

    In a realizable game it never charges the last expert without loss: it ends the
    game instead (after ``d - 1`` rounds).

    Parameters
    ----------
    eta : float, optional
        The learning rate of the simulated weights (see above).
    d : int, optional
        The number of experts; if given the adversary applies only to ``ExpertAdvice(d)``.
    """

    eta: float | None = field(default=None, converter=_optional_eta)
    d: int | None = field(default=None, converter=lambda v: _optional_int("d", v, 1))

    def applies_to(self, H: Any) -> bool:
        return isinstance(H, ExpertAdvice) and (self.d is None or self.d == H.d)

    def weights(self, state: GameState) -> np.ndarray:
        """The normalised weights ``exp(-eta L_i) / Z`` of the simulated learner (uniform when ``eta = 0``)."""
        L = cumulative_losses(state)
        eta = 1.0 if self.eta is None else self.eta
        w = np.exp(-eta * (L - L.min()))
        return w / w.sum()

    def heaviest(self, state: GameState) -> int:
        """The expert carrying the most weight (lowest index on a tie)."""
        L = cumulative_losses(state)
        if self.eta == 0:
            return 0
        return int(np.argmin(L))  # exp(-eta L) is largest where L is smallest, for eta > 0

    def next_instance(self, state: GameState) -> Any:
        i = self.heaviest(state)
        if state.realizable and int(np.count_nonzero(cumulative_losses(state) == 0)) <= 1:
            return None
        x = np.zeros(state.H.d)
        x[i] = 1.0
        return x

    def label(self, state: GameState, x: Any, p: float) -> int:
        return 0

    @staticmethod
    def forced_regret(d: int, T: int, eta: float) -> float:
        """The exact regret this adversary forces on Weighted-Majority with rate ``eta`` in ``T`` rounds.

        ``sum_t 1 / ((d - j_t) + j_t e^{-eta}) - floor(T / d)``, ``j_t = (t - 1) mod d``:
        in round ``t`` the charged expert has the smallest loss ``k`` while ``j_t`` others
        have ``k + 1``; the best expert ends with loss ``floor(T / d)``.

        Examples
        --------
        >>> HeaviestExpertLoss.forced_regret(2, 2, 0.0)   # weights stay uniform: 1/2 + 1/2 - 1
        0.0
        """
        terms = [1.0 / ((d - j) + j * math.exp(-eta)) for j in ((t - 1) % d for t in range(1, T + 1))]
        return math.fsum(terms) - T // d


@define
class RandomExpertLosses(ObliviousAdversary):
    """Commits to random cost vectors, drawn from the adversary's generator before round 1.

    Each round's cost vector ``v`` is 0/1 with fair coins (``costs="binary"``) or uniform
    in [0, 1]^d (``costs="uniform"``).  With ``labels="zero"`` (the default) it is
    presented as the advice ``x = v`` with label 0, the textbook's cost game; with
    ``labels="coin"`` the label ``y`` is a fair coin and the advice ``|y - v|``, so expert
    ``i`` still loses ``v_i``.  In a realizable game one expert, drawn at random, costs 0
    in every round.

    Parameters
    ----------
    costs : {"binary", "uniform"}
    labels : {"zero", "coin"}

    Examples
    --------
    >>> import numpy as np
    >>> pairs = RandomExpertLosses(costs="binary").commit(ExpertAdvice(3), 2, np.random.default_rng(0), False)
    >>> [len(x) for x, y in pairs], [y for x, y in pairs]
    ([3, 3], [0, 0])
    """

    costs: str = field(default="uniform", validator=in_(("binary", "uniform")))
    labels: str = field(default="zero", validator=in_(("zero", "coin")))

    def applies_to(self, H: Any) -> bool:
        return isinstance(H, ExpertAdvice)

    def commit(self, H: Any, rounds: int, rng: np.random.Generator, realizable: bool) -> list[tuple[tuple, int]]:
        d = H.d
        if self.costs == "binary":
            V = rng.integers(0, 2, size=(rounds, d)).astype(float)
        else:
            V = rng.random((rounds, d))
        if realizable:
            V[:, int(rng.integers(0, d))] = 0.0
        ys = rng.integers(0, 2, size=rounds) if self.labels == "coin" else np.zeros(rounds, dtype=int)
        return [(tuple(float(a) for a in (np.abs(y - v) if y else v)), int(y)) for v, y in zip(V, ys)]


@define
class SplitAdvice(Adversary):
    """Splits the leading experts into two halves advising 1 and 0, and labels against the learner.

    The leaders are the experts with the smallest loss so far; the first half of them
    (``ceil(k/2)`` in index order) advise 1, every other expert advises 0, and the label
    is the opposite of the learner's likelier prediction (0 when ``p >= 1/2``).  A
    deterministic learner therefore errs in every round (Cover's argument, in the
    experts setting).  In an unrealizable game of ``T`` rounds every deterministic
    learner makes ``T`` mistakes, and ``DeterministicWeightedMajority`` stays within
    ``(m + log2 d) / log2(4/3)``, ``m`` the best expert's loss.  In a realizable game
    the game ends when a single leader without loss is left, so every deterministic
    learner errs at least ``floor(log2 d)`` times against a perfect expert.

    Examples
    --------
    >>> from mistakebound import play
    >>> from mistakebound.learners.weighted_majority import DeterministicWeightedMajority
    >>> T = play(DeterministicWeightedMajority(8), SplitAdvice(), ExpertAdvice(8), rounds=10, seed=0)
    >>> T.mistakes, T.best_hypothesis_mistakes
    (3, 0.0)
    """

    def applies_to(self, H: Any) -> bool:
        return isinstance(H, ExpertAdvice)

    def next_instance(self, state: GameState) -> Any:
        L = cumulative_losses(state)
        leaders = np.flatnonzero(L == L.min())
        if state.realizable and (L.min() > 0 or leaders.size <= 1):
            return None
        x = np.zeros(state.H.d)
        x[leaders[: (leaders.size + 1) // 2]] = 1.0
        return x

    def label(self, state: GameState, x: Any, p: float) -> int:
        return against(p)
