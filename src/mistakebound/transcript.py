"""The record of one game: its rounds and the totals computed from them.

A :class:`Transcript` is immutable.  Each :class:`Round` keeps what both players did:
the instance ``x``, the learner's probability ``p`` of label 1 (0 or 1 for a
deterministic learner), the label ``prediction`` the engine drew from ``p``, the true
label ``y`` and whether the drawn prediction was a ``mistake``.

Examples
--------
>>> r = Round(t=1, x=3, p=0.25, prediction=0, y=1)
>>> r.mistake, r.expected_mistake
(True, 0.75)
>>> T = Transcript(rounds=(r,), learner="L", adversary="A", seed=0)
>>> T.mistakes, T.expected_mistakes
(1, 0.75)
"""

from __future__ import annotations

import math
from fractions import Fraction

from attrs import field, frozen

__all__ = ["Round", "Transcript"]


@frozen
class Round:
    """One round of the game (``t`` counts from 1)."""

    t: int
    x: object
    p: float
    prediction: int
    y: int

    @property
    def mistake(self) -> bool:
        """Whether the drawn prediction differs from the true label."""
        return self.prediction != self.y

    @property
    def expected_mistake(self) -> float:
        """``|p - y|``: the probability, over the engine's draw, of a mistake."""
        return abs(self.p - self.y)


@frozen
class Transcript:
    """An immutable record of a game.

    Attributes
    ----------
    rounds : tuple of Round
    learner, adversary : str
        Descriptions of the two players.
    seed : int or None
        The seed that reproduces the game with :func:`mistakebound.game.play`.
    class_name : str or None
        The class the game was played on, if any.
    realizable : bool
        Whether the engine enforced realizability.
    version_space : tuple of int or None
        Row indices of the hypotheses consistent with every round (finite classes).
    best_hypothesis_mistakes : int, float or None
        Loss of the best hypothesis of the class (or the best expert) in hindsight.
    R, gamma : float or None
        Linear games: the radius (given, or the largest norm seen) and the margin
        (given, or the comparator's smallest normalised margin).
    comparator : tuple of float or None
        Linear games: the comparator ``u`` the adversary certified or revealed.
    target : tuple of int or None
        Disjunction games: the target variables the adversary certified.
    """

    rounds: tuple = field(converter=tuple)
    learner: str = ""
    adversary: str = ""
    seed: int | None = None
    class_name: str | None = None
    realizable: bool = True
    version_space: tuple | None = None
    best_hypothesis_mistakes: int | float | None = None
    R: float | None = None
    gamma: float | None = None
    comparator: tuple | None = None
    target: tuple | None = None

    def __len__(self) -> int:
        return len(self.rounds)

    @property
    def mistakes(self) -> int:
        """Number of rounds whose drawn prediction was wrong."""
        return sum(r.mistake for r in self.rounds)

    @property
    def expected_mistakes(self) -> float:
        """``sum_t |p_t - y_t|``, summed exactly as fractions of the stored ``p_t`` and rounded once."""
        total = sum((Fraction(r.p) if r.y == 0 else 1 - Fraction(r.p) for r in self.rounds), Fraction(0))
        return float(total)

    @property
    def regret(self) -> float | None:
        """Expected mistakes minus those of the best hypothesis in hindsight (None without a class)."""
        if self.best_hypothesis_mistakes is None:
            return None
        return self.expected_mistakes - self.best_hypothesis_mistakes

    def comparator_hinge_losses(self, *, mistakes_only: bool = False) -> tuple[float, ...]:
        """Per round, the hinge loss ``max(0, 1 - y <u, x>)`` of the comparator (y in {-1, +1}).

        With ``mistakes_only`` the rounds without a mistake count 0, as in the
        Perceptron bound of Theorem 21.16.  Empty without a comparator.
        """
        if self.comparator is None:
            return ()
        u = self.comparator
        out = []
        for r in self.rounds:
            if mistakes_only and not r.mistake:
                out.append(0.0)
                continue
            margin = (2 * r.y - 1) * math.fsum(a * b for a, b in zip(u, r.x))
            out.append(max(0.0, 1.0 - margin))
        return tuple(out)

    @property
    def comparator_hinge_loss(self) -> float | None:
        """The comparator's cumulative hinge loss over all rounds (None without one)."""
        if self.comparator is None:
            return None
        return math.fsum(self.comparator_hinge_losses())

    @property
    def xs(self) -> tuple:
        """The instances, in order."""
        return tuple(r.x for r in self.rounds)

    @property
    def ys(self) -> tuple:
        """The true labels, in order."""
        return tuple(r.y for r in self.rounds)

    def summary(self) -> str:
        """One line with the players and the totals."""
        regret = "" if self.regret is None else f", regret {self.regret:g}"
        return (
            f"{self.learner} vs {self.adversary} on {self.class_name or 'no class'}: "
            f"{len(self)} rounds, {self.mistakes} mistakes "
            f"(expected {self.expected_mistakes:g}){regret}"
        )
