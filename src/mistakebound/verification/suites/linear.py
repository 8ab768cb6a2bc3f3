"""Scenarios of linear games: the Perceptron against basis vectors, midpoints and random streams.

Each scenario plays the Perceptron on a :class:`~mistakebound.game.spaces.LinearSpace` and
checks its mistakes against a proven bound: ``(R/gamma)^2`` (Theorem 4 of seed 001)
in realizable games with a margin, where the basis-vector forcer also forces exactly
that many (the bound is tight) and the midpoint adversary forces a logarithmic
number; Theorem 21.16 of seed 000 and the ``q = 2`` form of Theorem 2 of seed 002 on
noisy streams, with the comparator ``u / gamma`` (hinge loss 0 on the clean rounds).
Without a margin the midpoint adversary forces a mistake in every round and no bound
exists.  The finite-class learners (Consistent, Halving, SOA) need a table, so they
have no game against the midpoint adversary on the line: ``applies_to`` is false on
every finite class and the pairs are skipped.

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

import math

import numpy as np

from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
from mistakebound.adversaries.midpoint import MidpointAdversary, guaranteed_rounds
from mistakebound.adversaries.separable_stream import SeparableStream
from mistakebound.game.play import play
from mistakebound.learners.perceptron import (
    Perceptron,
    perceptron_bound,
    perceptron_hinge_bound,
    perceptron_margin_bound,
)
from mistakebound.verification.scenario import Outcome, Scenario
from mistakebound.game.spaces import LinearSpace

__all__ = ["SCENARIOS"]


def _basis(d: int, R: float, gamma: float) -> Scenario:
    S = LinearSpace(d, R=R, gamma=gamma)
    k = min(d, math.floor((R / gamma) ** 2 + 1e-9))

    def run(seed: int) -> Outcome:
        T = play(Perceptron(), BasisVectorForcer(), S, rounds=d + 1, seed=seed)
        return Outcome(
            value=T.mistakes, bound=perceptron_margin_bound(T), forced=k,
            note=f"(R/gamma)^2 = {(R / gamma) ** 2:.4g} (Thm 4, seed 001) is tight: forced = bound",
        )

    return Scenario("Perceptron", "BasisVectorForcer", S.describe(), run)


def _midpoint_margin(gamma: float, rounds: int) -> Scenario:
    S = LinearSpace(2, R=math.sqrt(2.0), gamma=gamma)

    def run(seed: int) -> Outcome:
        T = play(Perceptron(), MidpointAdversary(), S, rounds=rounds, seed=seed)
        return Outcome(
            value=T.mistakes, bound=perceptron_margin_bound(T), forced=guaranteed_rounds(gamma),
            note="(R/gamma)^2 (Thm 4, seed 001); the midpoint adversary (seed 003, fig. 5.2) must stop",
        )

    return Scenario("Perceptron", "MidpointAdversary", S.describe(), run)


def _midpoint_no_margin(rounds: int) -> Scenario:
    S = LinearSpace(2)

    def run(seed: int) -> Outcome:
        T = play(Perceptron(), MidpointAdversary(), S, rounds=rounds, seed=seed)
        return Outcome(
            value=T.mistakes, forced=rounds,
            note=f"no margin: a mistake in each of {rounds} rounds, no bound (seed 003, fig. 5.2)",
        )

    return Scenario("Perceptron", "MidpointAdversary", f"{S.describe()}, T={rounds}", run)


def _stream(d: int, gamma: float, rounds: int) -> Scenario:
    S = LinearSpace(d, R=1.0, gamma=gamma)

    def run(seed: int) -> Outcome:
        T = play(Perceptron(), SeparableStream(d, gamma), S, rounds=rounds, seed=seed)
        return Outcome(value=T.mistakes, bound=perceptron_margin_bound(T),
                       note="(R/gamma)^2 (Thm 4, seed 001) on a random separable stream")

    return Scenario("Perceptron", "SeparableStream", f"{S.describe()}, T={rounds}", run)


def _noisy(d: int, gamma: float, noise: float, rounds: int, q: float | None) -> Scenario:
    S = LinearSpace(d, R=1.0)

    def run(seed: int) -> Outcome:
        T = play(Perceptron(), SeparableStream(d, gamma, noise=noise), S, rounds=rounds, seed=seed, realizable=False)
        u = np.asarray(T.comparator) / gamma
        if q is None:
            bound, note = perceptron_hinge_bound(T, u), "Thm 21.16 (seed 000), u = u*/gamma"
        else:
            bound, note = perceptron_bound(T, q, u), f"Thm 2 (seed 002) with q = {q:g}, u = u*/gamma"
        return Outcome(value=T.mistakes, bound=bound, note=f"{note}, noise {noise:g}")

    return Scenario("Perceptron", "SeparableStream", f"{S.describe()}, noise={noise:g}, T={rounds}", run)


#: The linear scenarios ``mistakebound check`` runs.
SCENARIOS: tuple[Scenario, ...] = (
    _basis(6, 1.0, 0.5),
    _basis(12, 2.0, 2.0 / 3.0),
    _midpoint_margin(0.05, 100),
    _midpoint_no_margin(40),
    _stream(5, 0.05, 300),
    _noisy(5, 0.2, 0.1, 300, None),
    _noisy(5, 0.2, 0.1, 300, 2.0),
)
