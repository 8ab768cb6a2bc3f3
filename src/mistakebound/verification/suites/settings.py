"""Scenarios in the game's other settings: many labels, bandit feedback, a noise budget.

``GameSOA`` claims the game's value under its rules (proven by the exact search of
:func:`~mistakebound.theory.game_values.game_value`) and ``GameMinimax`` forces it with
full information, and under bandit feedback on the learner it plans against (here the
one it plays); ``PluralityHalving`` claims ``log2 |H|`` for any number of labels.  Each
game is judged on both claims like every row of ``mistakebound check``.

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

from mistakebound.game import registry
from mistakebound.game.rules import Rules
from mistakebound.verification.scenario import Outcome, Scenario, game

__all__ = ["SCENARIOS"]

#: (learner, class, feedback, noise, what the row shows)
_ROWS = (
    ("GameSOA", "all_functions:2,3", "full", 0, "multiclass Ldim n (Daniely et al. 2011)"),
    ("GameSOA", "one_vs_rest:3,4", "bandit", 0, "bandit Ldim k - 1 (Daniely and Helbertal 2013)"),
    ("GameSOA", "thresholds:7", "full", 1, "r-realizable value, r = 1"),
    ("GameSOA", "monotone_functions:4,3", "bandit", 1, "bandit feedback and a noise budget"),
    ("PluralityHalving", "all_functions:3,3", "full", 0, "plurality vote: log2 |H| for any k"),
)


def _row(learner: str, spec: str, feedback: str, noise: int, note: str):
    def run(seed: int) -> Outcome:
        H = registry.load_setting(spec)
        rules = Rules(labels=H.n_labels, feedback=feedback, noise=noise)
        own = "" if learner == "PluralityHalving" else f"(feedback={feedback},noise={noise})"
        plan = f",learner={learner}" if feedback == "bandit" else ""  # under bandit feedback: plan against it
        return game(learner + own, f"GameMinimax(feedback={feedback},noise={noise}{plan})", H, rounds=60, seed=seed,
                    rules=rules, note=note)

    return run


SCENARIOS = tuple(
    Scenario(learner, "GameMinimax", f"{spec} ({feedback} feedback, noise {noise})",
             _row(learner, spec, feedback, noise, note))
    for learner, spec, feedback, noise, note in _ROWS
)
