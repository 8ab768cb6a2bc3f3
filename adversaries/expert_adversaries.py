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
from typing import Any

import numpy as np
from attrs import define, field
from attrs.validators import in_

from mistakebound.adversaries._forcing import forced_rounds, measure_for
from mistakebound.adversaries._labels import against
from mistakebound.foundations.validation import check_int, check_real, integer_converter, real_converter
from mistakebound.game.play import GameState
from mistakebound.game.players import Adversary, ObliviousAdversary
from mistakebound.game.spaces import ExpertAdvice
from mistakebound.verification.claims import Bound

__all__ = ["HeaviestExpertLoss", "RandomExpertLosses", "SplitAdvice", "cumulative_losses"]

#: Where the forced counts come from.
HEAVIEST_SOURCE = (
    "HeaviestExpertLoss.forced_regret: Weighted-Majority pays, in the j-th round of each cycle of d, the weight "
    "1/(d - j (1 - e^-eta)) of the charged expert (exact, from the round-robin pattern)"
)
SPLIT_SOURCE = (
    "SplitAdvice (Cover's argument in the experts setting): a mistake of every deterministic learner in every round; "
    "in a realizable game it lasts while the perfect leaders can be halved, at least floor(log2 d) rounds"
)


def cumulative_losses(state: GameState) -> np.ndarray:
    """Each expert's loss ``sum_t |x_{t,i} - y_t|`` over the rounds played so far."""
    d = state.H.d
    if not state.history:
        return np.zeros(d)
    X = np.array([r.x for r in state.history], dtype=float).reshape(len(state.history), d)
    y = np.array([r.y for r in state.history], dtype=float)[:, None]
    return np.abs(X - y).sum(axis=0)


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

    eta: float | None = field(default=None, converter=real_converter("eta", minimum=0, optional=True))
    d: int | None = field(default=None, converter=integer_converter("d", 1, optional=True))

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

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """The exact regret it forces on :class:`~mistakebound.learners.weighted_majority.WeightedMajority`.

        :meth:`forced_regret` with the learner's ``eta`` over the rounds played: the
        horizon in an unrealizable game, ``min(rounds, d - 1)`` in a realizable one
        (where it stops before charging the last perfect expert, and the regret is the
        expected mistakes).

        Returns
        -------
        Bound
            None with the reason for any other learner (the count is exact for
            Weighted-Majority only), another setting, ``eta = 0`` (it then always
            charges expert 0), or an unrealizable game of unknown length.

        Examples
        --------
        >>> from mistakebound.learners.weighted_majority import WeightedMajority
        >>> L = WeightedMajority(2, 64)
        >>> b = HeaviestExpertLoss().forces(ExpertAdvice(2), learner=L, rounds=64, realizable=False)
        >>> b.measure, round(b.value, 4)
        ('regret', 1.1753)
        """
        from mistakebound.learners.weighted_majority import WeightedMajority

        measure = "expected mistakes" if realizable else "regret"
        if not isinstance(learner, WeightedMajority):
            return Bound.none(f"its forced regret is exact for WeightedMajority only, not {type(learner).__name__}",
                              measure=measure)
        if not self.applies_to(setting) or setting.d != learner.d:
            return Bound.none(f"it plays on ExpertAdvice(d) with the learner's d = {learner.d}", measure=measure)
        if self.eta == 0:
            return Bound.none("with eta = 0 it charges expert 0 in every round; the count is for eta > 0",
                              measure=measure)
        if realizable:
            n = learner.d - 1 if rounds is None else min(check_int("rounds", rounds, 0), learner.d - 1)
        elif rounds is None:
            return Bound.none("in an unrealizable game it plays until the horizon: give rounds", measure=measure)
        else:
            n = check_int("rounds", rounds, 0)
        return Bound(self.forced_regret(learner.d, n, learner.eta), measure, HEAVIEST_SOURCE,
                     (f"WeightedMajority with eta = {learner.eta:.6g}", f"{n} rounds"))

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
        d, T = check_int("d", d, 1), check_int("T", T, 0)
        eta = check_real("eta", eta, minimum=0)
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

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """A mistake in every round of a deterministic learner: ``floor(log2 d)`` if realizable, the horizon if not.

        Every round is answered against the likelier prediction.  In a realizable game
        the leaders without loss keep at least half their number each round and it
        stops at one: at least ``floor(log2 d)`` rounds; in an unrealizable game it
        never stops.  A randomized learner pays at least half of that in expectation
        (on the regret when realizable, on the expected mistakes when not: the leaders'
        losses grow too).

        Examples
        --------
        >>> from mistakebound.learners.weighted_majority import DeterministicWeightedMajority
        >>> L = DeterministicWeightedMajority(8)
        >>> SplitAdvice().forces(ExpertAdvice(8), learner=L).value
        3
        >>> SplitAdvice().forces(ExpertAdvice(8), learner=L, rounds=20, realizable=False).value
        20
        """
        measure = measure_for(learner, realizable, False)
        if not isinstance(setting, ExpertAdvice):
            return Bound.none("SplitAdvice plays on expert advice (ExpertAdvice(d))", measure=measure)
        if realizable:
            return forced_rounds(setting.d.bit_length() - 1, learner=learner, rounds=rounds, realizable=True,
                                 source=SPLIT_SOURCE, assumptions=("realizable: some expert is never wrong",))
        if rounds is None:
            return Bound.none("in an unrealizable game it forces a mistake in every round until the horizon: "
                              "give rounds", measure=measure)
        return forced_rounds(rounds, learner=learner, rounds=rounds, realizable=False, source=SPLIT_SOURCE,
                             labels_consistent=False)
