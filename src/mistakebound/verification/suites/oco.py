"""Online convex optimisation scenarios: OGD, Follow-the-Leader, FTRL and logistic regression.

Each scenario plays one small seeded game and judges the learner's claim against the
measured regret (or expected mistakes), or, for Follow-the-Leader on the alternating
sequence, the regret that sequence claims to force.

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS]
['ok', 'ok', 'ok', 'ok', 'ok']
"""

from __future__ import annotations

from mistakebound.game.oco import OCOSetting, RandomLinearLosses
from mistakebound.game.spaces import LinearSpace
from mistakebound.verification.scenario import Outcome, Scenario, game

__all__ = ["SCENARIOS"]

_T = 200
_NOISY = "SeparableStream(gamma=0.1,noise=0.1)"


def _ogd_alternating(seed: int) -> Outcome:
    return game("OnlineGradientDescent", "AlternatingLosses", OCOSetting(1, radius=1.0), rounds=_T, seed=seed,
                note="Theorem 21.15 (seeds/000), B = 1, gradients from the game")


def _ogd_random(seed: int) -> Outcome:
    return game("OnlineGradientDescent", RandomLinearLosses(scale=1.0), OCOSetting(3, radius=1.0), rounds=_T,
                seed=seed, note="Theorem 21.15 (seeds/000), d = 3, ||z_t|| <= 1")


def _ftl_alternating(seed: int) -> Outcome:
    return game("FollowTheLeader", "AlternatingLosses", OCOSetting(1, radius=1.0), rounds=_T, seed=seed,
                note="the alternating sequence forces (T-1) B m on FTL (seeds/004 Sec. 3.1): no sublinear bound")


def _randomized_linear(seed: int) -> Outcome:
    return game("RandomizedLinearClassifier", _NOISY, LinearSpace(3, R=1.0), rounds=_T, seed=seed, realizable=False,
                note="Theorem 1 (seeds/002): sqrt(2T) plus the comparator's expected mistakes, noise 0.1")


def _logistic(seed: int) -> Outcome:
    return game("OnlineLogisticRegression", _NOISY, LinearSpace(3, R=1.0), rounds=_T, seed=seed, realizable=False,
                note="Theorem 21.15 (seeds/000) on the log loss, noise 0.1")


#: The OCO scenarios ``mistakebound check`` runs.
SCENARIOS = (
    Scenario("OnlineGradientDescent", "AlternatingLosses", f"oco(d=1, radius=1), T={_T}", _ogd_alternating, "regret"),
    Scenario("OnlineGradientDescent", "RandomLinearLosses", f"oco(d=3, radius=1), T={_T}", _ogd_random, "regret"),
    Scenario("FollowTheLeader", "AlternatingLosses", f"oco(d=1, radius=1), T={_T}", _ftl_alternating, "regret"),
    Scenario("RandomizedLinearClassifier", _NOISY, f"halfspaces(d=3, R=1), T={_T}", _randomized_linear,
             "expected mistakes"),
    Scenario("OnlineLogisticRegression", _NOISY, f"halfspaces(d=3, R=1), T={_T}", _logistic, "expected mistakes"),
)
