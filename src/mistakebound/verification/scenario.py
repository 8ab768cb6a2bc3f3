"""Named, seeded experiments whose outcome is checked against a proven bound.

A :class:`Scenario` is what ``mistakebound check`` runs beyond the finite-class grid: a
learner, an adversary and a setting (a space, a class, a horizon), and a function that
plays it for a seed and returns an :class:`Outcome`: the measured quantity (mistakes,
expected mistakes or regret), the proven upper bound it must not exceed, and, for
lower-bound adversaries, the count it must reach.

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.learners import Halving
>>> from mistakebound.adversaries import BinarySearchThreshold
>>> def run(seed):
...     H = classes.thresholds(7)
...     T = play(Halving(H), BinarySearchThreshold(), H, rounds=10, seed=seed)
...     return Outcome(value=T.mistakes, bound=Halving.mistake_bound(H), forced=3)
>>> s = Scenario("Halving", "BinarySearchThreshold", "thresholds(7)", run)
>>> s.run(0).verdict
'ok'
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import field, frozen
from attrs.validators import in_, is_callable

__all__ = ["MEASURES", "Outcome", "Scenario"]

#: What a scenario can measure.
MEASURES = ("mistakes", "expected mistakes", "regret", "risk")

_EPS = 1e-9


@frozen
class Outcome:
    """The result of one scenario run.

    Attributes
    ----------
    value : float
        The measured quantity.
    bound : float or None
        The proven upper bound on ``value`` (None when the scenario only forces).
    forced : float or None
        The proven lower bound the adversary forces (None when it forces nothing).
    note : str
        Anything a reader of the table should know (the theorem, a parameter).
    """

    value: float
    bound: float | None = None
    forced: float | None = None
    note: str = ""

    @property
    def verdict(self) -> str:
        """``"ok"``, or ``"BROKEN"`` if ``value`` exceeds ``bound`` or falls short of ``forced``."""
        if self.bound is not None and self.value > self.bound + _EPS:
            return "BROKEN"
        if self.forced is not None and self.value < self.forced - _EPS:
            return "BROKEN"
        return "ok"


@frozen
class Scenario:
    """A named experiment: ``run(seed) -> Outcome``."""

    learner: str
    adversary: str
    setting: str
    run: Callable[[int], Outcome] = field(validator=is_callable())
    measure: str = field(default="mistakes", validator=in_(MEASURES))
