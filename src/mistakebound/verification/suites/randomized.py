"""Scenarios for randomized learners: the randomized Littlestone dimension is forced and met.

``OptimalRandomizedLearner`` claims ``RL(H)`` expected mistakes against every adversary
and ``RandomizedForcer`` claims to force ``RL(H)`` on every learner (Filmus, Hanneke,
Mehalel and Moran, COLT 2023); against each other both claims are judged on one game.

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

from mistakebound.game import registry
from mistakebound.verification.scenario import Outcome, Scenario, game

__all__ = ["SCENARIOS"]


def _optimal(spec: str):
    def run(seed: int) -> Outcome:
        H = registry.load_setting(spec)
        return game("OptimalRandomizedLearner", "RandomizedForcer", H, rounds=H.n_hypotheses + 1, seed=seed,
                    note="FHMM COLT 2023: optimal expected mistakes = RL(H)")

    return run


SCENARIOS = tuple(
    Scenario("OptimalRandomizedLearner", "RandomizedForcer", spec, _optimal(spec), measure="expected mistakes")
    for spec in ("thresholds:15", "singletons:8", "power_set:4", "intervals:8")
)
