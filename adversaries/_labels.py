"""Helpers shared by the adaptive adversaries."""

from __future__ import annotations

from typing import Any

from mistakebound.game.play import GameState

__all__ = ["against", "legal_against"]


def against(p: float) -> int:
    """The label opposite to the learner's more likely prediction (p >= 1/2 counts as 1)."""
    return 0 if p >= 0.5 else 1


def legal_against(state: GameState, x: Any, p: float) -> int:
    """The label opposite to the likelier prediction, unless realizability forbids it."""
    y = against(p)
    if state.realizable:
        labels = state.possible_labels(x)
        if y not in labels and labels:
            return labels[0]
    return y
