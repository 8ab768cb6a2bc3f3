"""Scenarios for prediction with expert advice and the agnostic learners of finite classes.

Each scenario plays one seeded game and judges the learner's claim on the measured
quantity (the exact expected regret of a randomized learner, or the mistakes of a
deterministic one): Theorem 21.11 for Weighted-Majority, Littlestone and Warmuth's
bound for the deterministic WM, Corollary 21.12 and Theorem 21.10 for the finite-class
learners, and Exercise 4 for the doubling trick (all textbook ch. 21, seed ``000``,
except Littlestone and Warmuth 1994), and the counts the adversaries claim to force.

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

from mistakebound.game import classes
from mistakebound.game.spaces import ExpertAdvice
from mistakebound.verification.scenario import Outcome, Scenario, game

__all__ = ["SCENARIOS"]

_D, _T = 4, 64
_H = classes.thresholds(7)
_TH = 20


def _experts(learner: str, adversary: str, *, d: int = _D, rounds: int = _T, realizable: bool = False, note: str = ""):
    def run(seed: int) -> Outcome:
        return game(learner, adversary, ExpertAdvice(d), rounds=rounds, seed=seed, realizable=realizable, note=note)

    return run


def _on_class(learner: str, note: str):
    def run(seed: int) -> Outcome:
        return game(learner, "ObliviousCoin(labels=coin)", _H, rounds=_TH, seed=seed, realizable=False, note=note)

    return run


SCENARIOS = (
    Scenario("WeightedMajority", "HeaviestExpertLoss", f"experts(d={_D}), T={_T}",
             _experts("WeightedMajority", "HeaviestExpertLoss",
                      note="Thm 21.11: regret <= sqrt(2 T ln d); the heaviest-expert adversary forces part of it"),
             "regret"),
    Scenario("WeightedMajority", "RandomExpertLosses(labels=coin)", f"experts(d={_D}), T={_T}",
             _experts("WeightedMajority", "RandomExpertLosses(labels=coin)",
                      note="Thm 21.11 with uniform random costs"), "regret"),
    Scenario("DeterministicWeightedMajority", "SplitAdvice", f"experts(d={_D}), T={_T}",
             _experts("DeterministicWeightedMajority", "SplitAdvice",
                      note="Littlestone-Warmuth 1994 with the best expert's m; SplitAdvice forces a mistake every round"),
             "mistakes"),
    Scenario("DeterministicWeightedMajority", "RandomExpertLosses(costs=binary,labels=coin)",
             f"experts(d={_D}), T={_T}",
             _experts("DeterministicWeightedMajority", "RandomExpertLosses(costs=binary,labels=coin)",
                      note="Littlestone-Warmuth 1994 with the best expert's m, random binary costs"), "mistakes"),
    Scenario("DeterministicWeightedMajority", "SplitAdvice", "experts(d=16), realizable",
             _experts("DeterministicWeightedMajority", "SplitAdvice", d=16, realizable=True,
                      note="Littlestone-Warmuth 1994 with m = 0; halving the perfect experts forces floor(log2 n)"),
             "mistakes"),
    Scenario("ExpertsFromClass", "ObliviousCoin(labels=coin)", f"thresholds(7), T={_TH}",
             _on_class("ExpertsFromClass", "Cor. 21.12: sqrt(2 T ln |H|) against the best hypothesis"), "regret"),
    Scenario("LittlestoneExperts", "ObliviousCoin(labels=coin)", f"thresholds(7), T={_TH}",
             _on_class("LittlestoneExperts", "Thm 21.10 / Lemma 21.13: sqrt(2 T ln d), d = sum_{L<=Ldim} C(T, L)"),
             "regret"),
    Scenario("DoublingTrick(WeightedMajority)", "HeaviestExpertLoss", f"experts(d={_D}), T=100",
             _experts("DoublingTrick", "HeaviestExpertLoss", rounds=100,
                      note="Exercise 4: sqrt2/(sqrt2-1) alpha sqrt(T), alpha from the blocks' claims"), "regret"),
    Scenario("DoublingTrick(WeightedMajority)", "RandomExpertLosses(costs=binary)", f"experts(d={_D}), T=100",
             _experts("DoublingTrick", "RandomExpertLosses(costs=binary)", rounds=100,
                      note="Exercise 4 with random binary costs"), "regret"),
)
