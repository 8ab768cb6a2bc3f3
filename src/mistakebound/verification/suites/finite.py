"""Scenarios on finite classes beyond the learner-by-adversary grid.

* ``Conservative`` around each realizable learner keeps that learner's claim (Lemma 1 of
  the mistake-bound lecture notes, seed 001);
* ``MinimaxAdversary`` replays the exact worst case found by
  :func:`~mistakebound.theory.worst_case.worst_case_mistakes` and forces exactly that many
  mistakes: Consistent's ``|H| - 1`` on singletons with the empty hypothesis last
  (Exercise 1), Halving's 1 on singletons (Exercise 3), SOA's ``Ldim`` (Corollary 21.8),
  and Halving's 3 > Ldim = 2 on :func:`~mistakebound.game.counterexamples.halving_exceeds_ldim`.

Every player comes from the registry; every claim is the player's own
(:func:`~mistakebound.verification.scenario.game`).

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

from mistakebound.game import classes, registry
from mistakebound.game.counterexamples import halving_exceeds_ldim
from mistakebound.theory.littlestone import littlestone_dimension
from mistakebound.theory.worst_case import worst_case_mistakes
from mistakebound.verification.scenario import Outcome, Scenario, game

__all__ = ["SCENARIOS"]


def _conservative(learner: str, adversary: str, make_class):
    def run(seed: int) -> Outcome:
        H = make_class()
        wrapped = registry.find("learner", "Conservative").target(registry.build("learner", learner, H))
        return game(wrapped, adversary, H, rounds=H.n_hypotheses + H.n_instances, seed=seed,
                    note="Lemma 1 (seed 001): the wrapped learner's claim holds for the conservative version")

    return Scenario(f"Conservative({learner})", adversary, make_class().describe(), run)


def _minimax(learner: str, make_class, note: str, name: str | None = None):
    def run(seed: int) -> Outcome:
        H = make_class()
        W = worst_case_mistakes(registry.build("learner", learner, H), H)
        replay = registry.find("adversary", "MinimaxAdversary").target(W.witness)
        extra = ""
        if name is not None:
            extra = f"; exact worst case {W.value} > Ldim {littlestone_dimension(H)}: Halving is not optimal (SOA is, Cor. 21.8)"
        return game(learner, replay, H, rounds=len(W.line) + 1, seed=seed, note=note + extra)

    return Scenario(learner, "MinimaxAdversary", name or make_class().describe(), run)


SCENARIOS = (
    _conservative("Halving", "OppositeLabel", lambda: classes.thresholds(15)),
    _conservative("SOA", "ShatteredTreeWalker", lambda: classes.intervals(6)),
    _conservative("Consistent", "OppositeLabel", lambda: classes.singletons(6, include_empty=True)),
    _minimax("Consistent", lambda: classes.singletons(6, include_empty=True), "Exercise 1: M_Consistent = |H| - 1"),
    _minimax("Halving", lambda: classes.singletons(12), "Exercise 3: M_Halving(singletons) = 1"),
    _minimax("SOA", lambda: classes.monotone_disjunctions(3), "Corollary 21.8: M_SOA = Ldim"),
    _minimax("Halving", halving_exceeds_ldim, "the worst case replayed", name="halving_exceeds_ldim"),
)
