"""The record of one game: its rounds and the totals computed from them.

A :class:`Transcript` is immutable.  Each :class:`Round` keeps what both players did:
the instance ``x``, the learner's probability ``p`` of label 1 (0 or 1 for a
deterministic learner), the label ``prediction`` the engine drew from ``p``, the true
label ``y`` and whether the drawn prediction was a ``mistake``.

The engine records the rounds of a game against an oblivious adversary as columns
(a :class:`RoundLog`) and a transcript built from one turns them into :class:`Round`
objects the first time its ``rounds`` are read: the same rounds, equal and serialised
byte for byte as if they had been built during the game.

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
import operator
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from attrs import field, frozen

__all__ = ["Round", "RoundLog", "Transcript"]


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


class RoundLog(Sequence):
    """Rounds ``first_t, first_t + 1, ...`` kept as columns and built as :class:`Round` objects on demand.

    Parameters
    ----------
    xs : sequence
        The stored instances; slicing it gives a list (``xs[:n]`` is how all of them are read).
    ps : list of float
        The learner's probabilities of label 1.
    predictions, ys : list of int
        The drawn predictions and the true labels.
    first_t : int
        The number of the first round.

    Examples
    --------
    >>> log = RoundLog(["a", "b"], [1.0, 0.25], [1, 0], [0, 0], first_t=3)
    >>> len(log), log[1]
    (2, Round(t=4, x='b', p=0.25, prediction=0, y=0))
    >>> log.rounds() == tuple(log)
    True
    """

    __slots__ = ("_xs", "_ps", "_predictions", "_ys", "_first_t")

    def __init__(self, xs: Sequence, ps: list, predictions: list, ys: list, first_t: int = 1):
        self._xs, self._ps, self._predictions, self._ys, self._first_t = xs, ps, predictions, ys, first_t

    def __len__(self) -> int:
        return len(self._predictions)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return self.rounds()[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"round index {i} out of range for {n} rounds")
        return Round(self._first_t + i, self._xs[i], self._ps[i], self._predictions[i], self._ys[i])

    def rounds(self) -> tuple:
        """Every round, as a tuple of :class:`Round`."""
        n = len(self)
        t0 = self._first_t
        return tuple(map(Round, range(t0, t0 + n), self._xs[:n], self._ps[:n], self._predictions, self._ys[:n]))


class _Deferred:
    """Holds the :class:`RoundLog` of a transcript whose rounds are not built yet."""

    __slots__ = ("_log",)


@frozen
class Transcript(_Deferred):
    """An immutable record of a game.

    Attributes
    ----------
    rounds : tuple of Round
    learner, adversary : str
        Descriptions of the two players.
    seed : int or None
        The seed that reproduces the game with :func:`mistakebound.game.play.play`.
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

    @classmethod
    def from_log(cls, log: RoundLog | Sequence, **fields: Any) -> Transcript:
        """A transcript whose ``rounds`` are built from ``log`` when first read.

        ``log`` is a :class:`RoundLog` (or any sequence of :class:`Round` with a
        ``rounds()`` method returning them as a tuple); the other fields are those of
        the constructor.

        Examples
        --------
        >>> T = Transcript.from_log(RoundLog([7], [1.0], [1], [0]), seed=5)
        >>> len(T), T.rounds, T == Transcript(rounds=(Round(1, 7, 1.0, 1, 0),), seed=5)
        (1, (Round(t=1, x=7, p=1.0, prediction=1, y=0),), True)
        """
        T = cls(rounds=(), **fields)
        object.__delattr__(T, "rounds")
        object.__setattr__(T, "_log", log)
        return T

    def __getattr__(self, name: str) -> Any:
        # only reached for an unset slot: the rounds of a transcript made by from_log
        if name == "rounds":
            try:
                log = object.__getattribute__(self, "_log")
            except AttributeError:
                log = None
            if log is not None:
                rounds = tuple(log.rounds())
                object.__setattr__(self, "rounds", rounds)
                object.__setattr__(self, "_log", None)
                return rounds
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __len__(self) -> int:
        try:
            log = object.__getattribute__(self, "_log")
        except AttributeError:
            log = None
        return len(self.rounds) if log is None else len(log)

    def _columns(self) -> tuple[Sequence, Sequence, Sequence]:
        """``(ps, predictions, ys)`` of the rounds, read off the log while the rounds are unbuilt."""
        try:
            log = object.__getattribute__(self, "_log")
        except AttributeError:
            log = None
        if isinstance(log, RoundLog):
            n = len(log)
            return log._ps[:n], log._predictions, log._ys[:n]
        R = self.rounds
        return [r.p for r in R], [r.prediction for r in R], [r.y for r in R]

    @property
    def mistakes(self) -> int:
        """Number of rounds whose drawn prediction was wrong."""
        _, predictions, ys = self._columns()
        return sum(map(operator.ne, predictions, ys))

    @property
    def expected_mistakes(self) -> float:
        """``sum_t |p_t - y_t|``, summed exactly as fractions of the stored ``p_t`` and rounded once."""
        ps, _, ys = self._columns()
        whole, parts = 0, []  # deterministic rounds (p = 0 or 1) add an integer; others exactly
        for p, y in zip(ps, ys):
            if p == 0.0 or p == 1.0:
                whole += p != y
            else:
                parts.append(Fraction(p) if y == 0 else 1 - Fraction(p))
        return float(sum(parts, Fraction(whole)))

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
