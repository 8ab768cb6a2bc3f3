"""Scenarios for prediction with expert advice and the agnostic learners of finite classes.

Each scenario plays one seeded game and compares the measured quantity (the exact
expected regret of a randomized learner, or the mistakes of a deterministic one) with
the bound proven for it: Theorem 21.11 for Weighted-Majority, Littlestone and Warmuth's
bound for the deterministic WM, Corollary 21.12 and Theorem 21.10 for the finite-class
learners, and Exercise 4 for the doubling trick (all textbook ch. 21, seed ``000``,
except Littlestone and Warmuth 1994).

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

import math

from mistakebound.game import classes
from mistakebound.adversaries.expert_adversaries import HeaviestExpertLoss, RandomExpertLosses, SplitAdvice
from mistakebound.adversaries.oblivious_coin import ObliviousCoin
from mistakebound.game.play import play
from mistakebound.learners.doubling import DoublingTrick
from mistakebound.learners.experts_from_class import ExpertsFromClass
from mistakebound.learners.littlestone_experts import LittlestoneExperts, theorem_21_10_bound
from mistakebound.learners.weighted_majority import DeterministicWeightedMajority, WeightedMajority
from mistakebound.verification.scenario import Outcome, Scenario
from mistakebound.game.spaces import ExpertAdvice

__all__ = ["SCENARIOS"]

_D, _T = 4, 64


def _wm_heaviest(seed: int) -> Outcome:
    learner = WeightedMajority(_D, _T)
    T = play(learner, HeaviestExpertLoss(), ExpertAdvice(_D), rounds=_T, seed=seed, realizable=False)
    bound = WeightedMajority.regret_bound(_D, _T)
    forced = HeaviestExpertLoss.forced_regret(_D, _T, learner.eta)
    return Outcome(
        value=T.regret, bound=bound, forced=math.floor(forced * 1e6) / 1e6,  # exact value, rounded down
        note=f"Thm 21.11: regret <= sqrt(2 T ln d); the heaviest-expert adversary forces {forced / bound:.3f} of it",
    )


def _wm_random(seed: int) -> Outcome:
    T = play(WeightedMajority(_D, _T), RandomExpertLosses(costs="uniform", labels="coin"), ExpertAdvice(_D),
             rounds=_T, seed=seed, realizable=False)
    return Outcome(value=T.regret, bound=WeightedMajority.regret_bound(_D, _T),
                   note="Thm 21.11 (textbook ch. 21): expected regret <= sqrt(2 T ln d), uniform random costs")


def _dwm_split(seed: int) -> Outcome:
    T = play(DeterministicWeightedMajority(_D), SplitAdvice(), ExpertAdvice(_D), rounds=_T, seed=seed,
             realizable=False)
    m = T.best_hypothesis_mistakes
    return Outcome(value=T.mistakes, bound=DeterministicWeightedMajority.mistake_bound_for(_D, m), forced=_T,
                   note=f"Littlestone-Warmuth 1994: M <= (m + log2 n)/log2(4/3), best expert m = {m:g}; "
                        "SplitAdvice forces a mistake every round")


def _dwm_random(seed: int) -> Outcome:
    T = play(DeterministicWeightedMajority(_D), RandomExpertLosses(costs="binary", labels="coin"),
             ExpertAdvice(_D), rounds=_T, seed=seed, realizable=False)
    m = T.best_hypothesis_mistakes
    return Outcome(value=T.mistakes, bound=DeterministicWeightedMajority.mistake_bound_for(_D, m),
                   note=f"Littlestone-Warmuth 1994: M <= (m + log2 n)/log2(4/3), best expert m = {m:g}")


def _dwm_realizable(seed: int) -> Outcome:
    d = 16
    T = play(DeterministicWeightedMajority(d), SplitAdvice(), ExpertAdvice(d), rounds=_T, seed=seed)
    return Outcome(value=T.mistakes, bound=DeterministicWeightedMajority.mistake_bound_for(d, 0),
                   forced=math.floor(math.log2(d)),
                   note="Littlestone-Warmuth 1994 with m = 0: M <= log2 n / log2(4/3); halving the perfect experts "
                        "forces floor(log2 n)")


_H = classes.thresholds(7)
_TH = 20


def _experts_from_class(seed: int) -> Outcome:
    T = play(ExpertsFromClass(_H, _TH), ObliviousCoin(labels="coin"), _H, rounds=_TH, seed=seed, realizable=False)
    return Outcome(value=T.regret, bound=ExpertsFromClass.regret_bound(_H, _TH),
                   note="Cor. 21.12 (textbook ch. 21): regret <= sqrt(2 T ln |H|) against the best hypothesis")


def _littlestone_experts(seed: int) -> Outcome:
    T = play(LittlestoneExperts(_H, _TH), ObliviousCoin(labels="coin"), _H, rounds=_TH, seed=seed, realizable=False)
    return Outcome(value=T.regret, bound=LittlestoneExperts.regret_bound(_H, _TH),
                   note="Thm 21.10/21.11, Lemma 21.13: regret <= sqrt(2 T ln d), d = sum_{L<=Ldim} C(T, L) "
                        f"= 1351; Thm 21.10's min bound {theorem_21_10_bound(_H, _TH):.2f} is ExpertsFromClass's here")


def _doubling(adversary):
    def run(seed: int) -> Outcome:
        T = play(DoublingTrick(lambda n: WeightedMajority(_D, n)), adversary, ExpertAdvice(_D), rounds=100,
                 seed=seed, realizable=False)
        alpha = math.sqrt(2 * math.log(_D))
        return Outcome(value=T.regret, bound=DoublingTrick.regret_bound(alpha, 100),
                       note="Exercise 4 (doubling trick): regret <= sqrt2/(sqrt2-1) alpha sqrt(T), "
                            "alpha = sqrt(2 ln d)")

    return run


SCENARIOS = (
    Scenario("WeightedMajority", "HeaviestExpertLoss", f"experts(d={_D}), T={_T}", _wm_heaviest, "regret"),
    Scenario("WeightedMajority", "RandomExpertLosses", f"experts(d={_D}), T={_T}", _wm_random, "regret"),
    Scenario("DeterministicWeightedMajority", "SplitAdvice", f"experts(d={_D}), T={_T}", _dwm_split, "mistakes"),
    Scenario("DeterministicWeightedMajority", "RandomExpertLosses", f"experts(d={_D}), T={_T}", _dwm_random,
             "mistakes"),
    Scenario("DeterministicWeightedMajority", "SplitAdvice", "experts(d=16), realizable", _dwm_realizable,
             "mistakes"),
    Scenario("ExpertsFromClass", "ObliviousCoin(coin)", f"thresholds(7), T={_TH}", _experts_from_class, "regret"),
    Scenario("LittlestoneExperts", "ObliviousCoin(coin)", f"thresholds(7), T={_TH}", _littlestone_experts,
             "regret"),
    Scenario("DoublingTrick(WeightedMajority)", "HeaviestExpertLoss", f"experts(d={_D}), T=100",
             _doubling(HeaviestExpertLoss()), "regret"),
    Scenario("DoublingTrick(WeightedMajority)", "RandomExpertLosses", f"experts(d={_D}), T=100",
             _doubling(RandomExpertLosses(costs="binary")), "regret"),
)
