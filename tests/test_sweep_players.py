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

PREFIX = "tests.test_sweep_players:"


class Overconfident(Consistent):
    """The consistent learner claiming a bound it cannot keep: no mistakes at all."""

    bound_source = "planted: a false bound"

    @classmethod
    def mistake_bound(cls, H: Any) -> float:
        return 0


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
    assert T.mistakes > Overconfident.mistake_bound(H)
    with pytest.raises(GameError, match="planted failure"):
        play(Raising(H), OppositeLabel(), H, rounds=10, seed=0)
    assert play(Slow(H), OppositeLabel(), H, rounds=10, seed=0).mistakes == \
        play(Halving(H), OppositeLabel(), H, rounds=10, seed=0).mistakes
