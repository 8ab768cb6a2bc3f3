"""Online convex optimisation scenarios: OGD, Follow-the-Leader, FTRL and logistic regression.

Each scenario plays one small seeded game and reports the measured regret against its
theorem's bound (or, for Follow-the-Leader on the alternating sequence, against the
regret that sequence forces).

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS]
['ok', 'ok', 'ok', 'ok', 'ok']
"""

from __future__ import annotations


import numpy as np
from attrs import define

from mistakebound.adversaries.alternating_losses import AlternatingLosses
from mistakebound.game.play import play
from mistakebound.learners.gradient import (
    FollowTheLeader,
    OnlineGradientDescent,
    OnlineLogisticRegression,
    log_loss_regret,
)
from mistakebound.learners.randomized_linear import RandomizedLinearClassifier
from mistakebound.game.oco import RandomLinearLosses, play_oco
from mistakebound.game.players import ObliviousAdversary
from mistakebound.verification.scenario import Outcome, Scenario
from mistakebound.game.spaces import LinearSpace

__all__ = ["SCENARIOS", "NoisyHalfspaceStream"]

_T = 200
_B = 1.0


@define
class NoisyHalfspaceStream(ObliviousAdversary):
    """iid points of norm at most ``R`` labelled by the halfspace of ``u``, each label flipped w.p. ``noise``.

    Directions are uniform (normalised Gaussians), radii ``R * U^(1/d)``; the labels
    are the sides of ``<u, x>`` (label 1 for ``>= 0``), then flipped independently.
    Play it with ``realizable=False``.
    """

    u: tuple
    R: float = 1.0
    noise: float = 0.1

    def commit(self, H, rounds, rng, realizable):
        d = len(self.u)
        u = np.asarray(self.u, dtype=float)
        out = []
        for _ in range(rounds):
            g = rng.standard_normal(d)
            x = g / np.linalg.norm(g) * self.R * rng.random() ** (1.0 / d)
            y = int(float(np.dot(u, x)) >= 0)
            if rng.random() < self.noise:
                y = 1 - y
            out.append((x, y))
        return out


def _ogd_alternating(seed: int) -> Outcome:
    ogd = OnlineGradientDescent.tuned(1, radius=_B, rho=1.0, T=_T)
    T = play_oco(ogd, AlternatingLosses(), d=1, rounds=_T, seed=seed, radius=_B)
    return Outcome(
        value=T.best_fixed_regret(),
        bound=OnlineGradientDescent.lipschitz_regret_bound(_B, 1.0, _T),
        note=f"Theorem 21.15 (seeds/000): B rho sqrt(T), B=1, rho=1, T={_T}, eta=B/(rho sqrt T)",
    )


def _ogd_random(seed: int) -> Outcome:
    d = 3
    ogd = OnlineGradientDescent.tuned(d, radius=_B, rho=1.0, T=_T)
    T = play_oco(ogd, RandomLinearLosses(scale=1.0), d=d, rounds=_T, seed=seed, radius=_B)
    return Outcome(
        value=T.best_fixed_regret(),
        bound=OnlineGradientDescent.lipschitz_regret_bound(_B, 1.0, _T),
        note=f"Theorem 21.15 (seeds/000): B rho sqrt(T), d={d}, ||z_t|| <= 1, T={_T}",
    )


def _ftl_alternating(seed: int) -> Outcome:
    adversary = AlternatingLosses()
    T = play_oco(FollowTheLeader(1, radius=_B), adversary, d=1, rounds=_T, seed=seed, radius=_B)
    return Outcome(
        value=T.best_fixed_regret(),
        forced=adversary.forced_regret(_T, _B),
        note=(
            "forced = (T-1) B m, the regret the alternating sequence forces on FTL "
            "(seeds/004 Sec. 3.1): linear in T, no sublinear bound"
        ),
    )


def _randomized_linear(seed: int) -> Outcome:
    d, R = 3, 1.0
    u = np.array([1.0, -1.0, 0.5])
    u = u / (np.linalg.norm(u) * R)  # ||u|| = 1/R: the feasible comparator set of Theorem 1
    learner = RandomizedLinearClassifier(d, R=R)
    adversary = NoisyHalfspaceStream(u=tuple(u), R=R, noise=0.1)
    T = play(learner, adversary, LinearSpace(d, R=R), rounds=_T, seed=seed, realizable=False)
    return Outcome(
        value=learner.expected_regret(T, u),
        bound=RandomizedLinearClassifier.regret_bound(_T),
        note=f"Theorem 1 (seeds/002): sqrt(2T), comparator ||u|| = 1/R, R={R:g}, noise 0.1, T={_T}",
    )


def _logistic(seed: int) -> Outcome:
    d, R = 3, 1.0
    u = np.array([2.0, 1.0, -1.0])
    u = _B * u / np.linalg.norm(u)
    learner = OnlineLogisticRegression.tuned(d, radius=_B, R=R, T=_T)
    adversary = NoisyHalfspaceStream(u=tuple(u), R=R, noise=0.1)
    T = play(learner, adversary, LinearSpace(d, R=R), rounds=_T, seed=seed, realizable=False)
    return Outcome(
        value=log_loss_regret(T, u),
        bound=OnlineLogisticRegression.lipschitz_regret_bound(_B, R, _T),
        note=f"Theorem 21.15 (seeds/000) on the log loss: B R sqrt(T), B=1, R=1, T={_T}",
    )


#: The OCO scenarios ``mistakebound check`` runs.
SCENARIOS = (
    Scenario("OnlineGradientDescent", "AlternatingLosses", f"OCO ball(d=1, B=1), T={_T}", _ogd_alternating, "regret"),
    Scenario("OnlineGradientDescent", "RandomLinearLosses", f"OCO ball(d=3, B=1), T={_T}", _ogd_random, "regret"),
    Scenario("FollowTheLeader", "AlternatingLosses", f"OCO [-1, 1], T={_T}", _ftl_alternating, "regret"),
    Scenario(
        "RandomizedLinearClassifier", "NoisyHalfspaceStream(noise=0.1)", f"halfspaces(d=3, R=1), T={_T}",
        _randomized_linear, "regret",
    ),
    Scenario(
        "OnlineLogisticRegression", "NoisyHalfspaceStream(noise=0.1)", f"halfspaces(d=3, R=1), log loss, T={_T}",
        _logistic, "regret",
    ),
)
