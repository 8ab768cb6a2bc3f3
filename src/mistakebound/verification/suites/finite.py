"""Scenarios on finite classes beyond the learner-by-adversary grid.

* :class:`~mistakebound.learners.Conservative` around each realizable learner keeps
  that learner's bound (Lemma 1 of the mistake-bound lecture notes, seed 001);
* :class:`~mistakebound.theory.worst_case.MinimaxAdversary` replays the exact worst case
  found by :func:`~mistakebound.theory.worst_case.worst_case_mistakes` and forces exactly that
  many mistakes: Consistent's ``|H| - 1`` on singletons with the empty hypothesis last
  (Exercise 1), Halving's 1 on singletons (Exercise 3), and Halving's 3 > Ldim = 2 on
  :func:`~mistakebound.game.examples.halving_exceeds_ldim`.

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

from mistakebound.game import classes
from mistakebound.adversaries import OppositeLabel, ShatteredTreeWalker
from mistakebound.game.examples import halving_exceeds_ldim
from mistakebound.game.play import play
from mistakebound.learners import SOA, Conservative, Consistent, Halving
from mistakebound.theory.littlestone import littlestone_dimension
from mistakebound.verification.scenario import Outcome, Scenario
from mistakebound.theory.worst_case import MinimaxAdversary, worst_case_mistakes

__all__ = ["SCENARIOS"]


def _conservative(learner_type, adversary_type, make_class):
    def run(seed: int) -> Outcome:
        H = make_class()
        wrapped = Conservative(learner_type(H))
        T = play(wrapped, adversary_type(), H, rounds=H.n_hypotheses + H.n_instances, seed=seed)
        return Outcome(value=T.mistakes, bound=wrapped.bound(H), note="Lemma 1 (seed 001): same bound as the wrapped learner")

    H = make_class()
    return Scenario(f"Conservative({learner_type.__name__})", adversary_type.__name__, H.describe(), run)


def _minimax(learner_type, make_class, note):
    def run(seed: int) -> Outcome:
        H = make_class()
        W = worst_case_mistakes(learner_type(H), H)
        T = play(learner_type(H), MinimaxAdversary(W.strategy), H, rounds=len(W.line) + 1, seed=seed)
        return Outcome(value=T.mistakes, bound=learner_type.mistake_bound(H), forced=W.value, note=note)

    return Scenario(learner_type.__name__, "MinimaxAdversary", make_class().describe(), run)


def _halving_trap(seed: int) -> Outcome:
    H = halving_exceeds_ldim()
    W = worst_case_mistakes(Halving(H), H)
    T = play(Halving(H), MinimaxAdversary(W.strategy), H, rounds=10, seed=seed)
    d = littlestone_dimension(H)
    return Outcome(
        value=T.mistakes, bound=Halving.mistake_bound(H), forced=d + 1,
        note=f"exact worst case {W.value} > Ldim {d}: Halving is not optimal (SOA is, Cor. 21.8)",
    )


SCENARIOS = (
    _conservative(Halving, OppositeLabel, lambda: classes.thresholds(15)),
    _conservative(SOA, ShatteredTreeWalker, lambda: classes.intervals(6)),
    _conservative(Consistent, OppositeLabel, lambda: classes.singletons(6, include_empty=True)),
    _minimax(Consistent, lambda: classes.singletons(6, include_empty=True), "Exercise 1: M_Consistent = |H| - 1"),
    _minimax(Halving, lambda: classes.singletons(12), "Exercise 3: M_Halving(singletons) = 1"),
    _minimax(SOA, lambda: classes.monotone_disjunctions(3), "Corollary 21.8: M_SOA = Ldim"),
    Scenario("Halving", "MinimaxAdversary", "halving_exceeds_ldim", _halving_trap),
)
