"""Players planted in sweeps by import path (``tests.test_sweep_players:Overconfident``), and their checks.

They live in a module of their own, importable by worker processes and by a sweep run
in a subprocess, so that the sweep tests can plant a broken bound, a failing cell and a
slow cell.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from mistakebound import play
from mistakebound.game import classes
from mistakebound.adversaries import OppositeLabel
from mistakebound.foundations.errors import GameError
from mistakebound.learners import Consistent, Halving
from mistakebound.verification.claims import Bound

PREFIX = "tests.test_sweep_players:"


class Overconfident(Consistent):
    """The consistent learner claiming a bound it cannot keep: no mistakes at all."""

    def bound(self, setting: Any, *, rounds=None, realizable=True, transcript=None) -> Bound:
        return Bound(0, source="planted: a false bound")


class JustUnder(Halving):
    """Halving claiming its game's measured mistakes minus 5e-8: broken, by more than the one TOLERANCE (1e-9).

    Without a transcript (a worst-case search) it claims its exact worst case minus 5e-8.
    """

    slack = -5e-8

    def bound(self, setting: Any, *, rounds=None, realizable=True, transcript=None) -> Bound:
        if transcript is not None:
            value = transcript.mistakes
        else:
            from mistakebound.theory.worst_case import worst_case_mistakes

            value = worst_case_mistakes(Halving(setting), setting).value
        return Bound(max(value + self.slack, 0.0), source=f"planted: measured {self.slack:+g}")


class JustOver(JustUnder):
    """Halving claiming its measured mistakes minus 5e-10: within the one TOLERANCE, so kept."""

    slack = -5e-10


class Raising(Halving):
    """Halving that raises whenever it is asked to predict."""

    def predict_one(self, x: Any) -> int:
        raise RuntimeError("planted failure in predict_one")


class Slow(Halving):
    """Halving that sleeps 20 ms per prediction (a cell a test can kill halfway through a sweep)."""

    def predict_one(self, x: Any) -> int:
        time.sleep(0.02)
        return super().predict_one(x)


def test_planted_players_do_what_they_say():
    H = classes.thresholds(8)
    T = play(Overconfident(H), OppositeLabel(), H, rounds=10, seed=0)
    assert T.mistakes > Overconfident(H).bound(H).value == 0
    with pytest.raises(GameError, match="planted failure"):
        play(Raising(H), OppositeLabel(), H, rounds=10, seed=0)
    T = play(JustUnder(H), OppositeLabel(), H, rounds=10, seed=0)
    assert 0 < T.mistakes - JustUnder(H).bound(H, transcript=T).value < 1e-7
    assert 0 < T.mistakes - JustOver(H).bound(H, transcript=T).value < 1e-9
    assert play(Slow(H), OppositeLabel(), H, rounds=10, seed=0).mistakes == \
        play(Halving(H), OppositeLabel(), H, rounds=10, seed=0).mistakes
