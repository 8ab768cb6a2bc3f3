"""Scenarios of linear games: the Perceptron against basis vectors, midpoints and random streams.

Each scenario plays the Perceptron on a :class:`~mistakebound.game.spaces.LinearSpace`
and judges its claim: ``(R/gamma)^2`` (Theorem 4 of seed 001) in realizable games with a
margin, where the basis-vector forcer also forces exactly that many (the bound is tight)
and the midpoint adversary forces a logarithmic number; Theorem 21.16 of seed 000 on
noisy streams, with the stream's certified comparator.  Without a margin the midpoint
adversary forces a mistake in every round and the Perceptron claims nothing.  The
finite-class learners need a table, so they have no game on the line.

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

import math

from mistakebound.game.spaces import LinearSpace
from mistakebound.verification.scenario import Outcome, Scenario, game

__all__ = ["SCENARIOS"]


def _scenario(adversary: str, S: LinearSpace, rounds: int, note: str, *, realizable: bool = True,
              label: str | None = None) -> Scenario:
    def run(seed: int) -> Outcome:
        return game("Perceptron", adversary, S, rounds=rounds, seed=seed, realizable=realizable, note=note)

    return Scenario("Perceptron", adversary, label or S.describe(), run)


#: The linear scenarios ``mistakebound check`` runs.
SCENARIOS: tuple[Scenario, ...] = (
    _scenario("BasisVectorForcer", LinearSpace(6, R=1.0, gamma=0.5), 7,
              "(R/gamma)^2 = 4 (Thm 4, seed 001) is tight: forced = bound"),
    _scenario("BasisVectorForcer", LinearSpace(12, R=2.0, gamma=2.0 / 3.0), 13,
              f"(R/gamma)^2 = {(2.0 / (2.0 / 3.0)) ** 2:.4g} (Thm 4, seed 001) is tight: forced = bound"),
    _scenario("MidpointAdversary", LinearSpace(2, R=math.sqrt(2.0), gamma=0.05), 100,
              "(R/gamma)^2 (Thm 4, seed 001); the midpoint adversary (seed 003, fig. 5.2) must stop"),
    _scenario("MidpointAdversary", LinearSpace(2), 40,
              "no margin: a mistake in every round, no bound (seed 003, fig. 5.2)", label="halfspaces(d=2), T=40"),
    _scenario("SeparableStream", LinearSpace(5, R=1.0, gamma=0.05), 300,
              "(R/gamma)^2 (Thm 4, seed 001) on a random separable stream", label="halfspaces(d=5, R=1, gamma=0.05), T=300"),
    _scenario("SeparableStream(gamma=0.2,noise=0.1)", LinearSpace(5, R=1.0), 300,
              "Thm 21.16 (seed 000) with the stream's comparator, 10% of the labels flipped", realizable=False,
              label="halfspaces(d=5, R=1), noise=0.1, T=300"),
)
