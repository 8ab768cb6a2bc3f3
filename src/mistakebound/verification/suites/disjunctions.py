"""Scenarios for monotone k-disjunctions: elimination, the EG Winnow and Littlestone's Winnow.

Each learner plays the random stream and the adaptive halving adversary, on
``KDisjunctionSpace(1000, 3)`` (no table; the adversary certifies the target) and on
the finite zoo class ``monotone_disjunctions(6)`` (the engine tracks the version
space), judged on its own claim: ``n`` for elimination (seed ``001``), the lecture's
``8 (k+1) ln d`` for the EG Winnow (seed ``003`` section 5.2), WINNOW2's and WINNOW1's
bounds for Littlestone's Winnow (Littlestone 1988).  The adaptive adversary also claims
the mistakes it forces on every deterministic learner.

A noise row (10% of the labels flipped, an unrealizable game) exists only for the EG
Winnow, the one learner with an agnostic bound in the texts: the lecture's bound with
the target's hinge loss on the mistake rounds.  Elimination and Littlestone's Winnow
have no bound under noise in the sources, so they get no noise row.

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

from mistakebound.game import classes
from mistakebound.game.spaces import KDisjunctionSpace
from mistakebound.verification.scenario import Outcome, Scenario, game

__all__ = ["SCENARIOS"]

_N, _K, _ROUNDS = 1000, 3, 150
_FINITE_N, _FINITE_ROUNDS = 6, 80

#: The learners, by the names the registry builds them from.
_LEARNERS = ("DisjunctionElimination", "Winnow", "LittlestoneWinnow", "LittlestoneWinnow(variant=winnow1)")


def _runner(learner: str, adversary: str, H, rounds: int):
    def run(seed: int) -> Outcome:
        return game(learner, adversary, H, rounds=rounds, seed=seed)

    return run


def _noisy(seed: int) -> Outcome:
    return game("Winnow", "DisjunctionStream(noise=0.1)", KDisjunctionSpace(_N, _K), rounds=_ROUNDS, seed=seed,
                realizable=False, note="seed 003 sec. 5.2 agnostic: the target's hinge loss on the mistake rounds; "
                                       "10% of the labels flipped")


def _scenarios() -> tuple[Scenario, ...]:
    out = []
    space = KDisjunctionSpace(_N, _K)
    finite = classes.monotone_disjunctions(_FINITE_N)
    for H, rounds in ((space, _ROUNDS), (finite, _FINITE_ROUNDS)):
        for learner in _LEARNERS:
            for adversary in ("DisjunctionStream", "DisjunctionAdversary"):
                out.append(Scenario(learner, adversary, f"{H.describe()}, T={rounds}", _runner(learner, adversary, H, rounds)))
    out.append(Scenario("Winnow", "DisjunctionStream(noise=0.1)", f"{space.describe()}, T={_ROUNDS}", _noisy))
    return tuple(out)


SCENARIOS = _scenarios()
