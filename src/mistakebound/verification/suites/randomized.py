"""Scenarios for randomized learners: the randomized Littlestone dimension is forced and met.

``OptimalRandomizedLearner`` meets ``RL(H)`` expected mistakes against every adversary
and ``RandomizedForcer`` forces ``RL(H)`` on every learner (Filmus, Hanneke, Mehalel
and Moran, COLT 2023); against each other the expected mistakes equal ``RL(H)``.

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

from mistakebound.game import classes
from mistakebound.adversaries.randomized_forcer import RandomizedForcer
from mistakebound.game.play import play
from mistakebound.learners.optimal_randomized import OptimalRandomizedLearner
from mistakebound.verification.scenario import Outcome, Scenario

__all__ = ["SCENARIOS"]


def _optimal(spec: str):
    def run(seed: int) -> Outcome:
        H = classes.from_spec(spec)
        rl = float(RandomizedForcer.forced(H))
        T = play(OptimalRandomizedLearner(H), RandomizedForcer(), H, rounds=H.n_hypotheses + 1, seed=seed)
        return Outcome(value=T.expected_mistakes, bound=rl, forced=rl,
                       note="FHMM COLT 2023: optimal expected mistakes = RL(H)")

    return run


SCENARIOS = tuple(
    Scenario("OptimalRandomizedLearner", "RandomizedForcer", spec, _optimal(spec), measure="expected mistakes")
    for spec in ("thresholds:15", "singletons:8", "power_set:4", "intervals:8")
)
