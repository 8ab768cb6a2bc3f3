"""The record of one game: its rounds and the totals computed from them.

A :class:`Transcript` is immutable.  Each :class:`Round` keeps what both players did:
the instance ``x``, the learner's probability ``p`` of label 1 (0 or 1 for a
deterministic learner), the label ``prediction`` the engine drew from ``p``, the true
label ``y`` and whether the drawn prediction was a ``mistake``.

The engine records the rounds of a game against an oblivious adversary as columns
(a :class:`RoundLog`) and a transcript built from one turns them into :class:`Round`
objects the first time its ``rounds`` are read: the same rounds, equal and serialised
byte for byte as if they had been built during the game.

A game played with ``play(..., keep="totals")`` keeps only its totals: its transcript's
``rounds`` is a :class:`RoundsNotKept` (its length is the number of rounds; reading a
round raises), and the rounds went, as they were played, to the game's ``out`` file as
JSON Lines (:func:`round_record`, one object per round).  The players read the rounds
so far through a :class:`History`, a read-only view.

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
from typing import Any, ClassVar

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.json_format import json_value
from mistakebound.foundations.text import number_text, printable
from mistakebound.foundations.text_tables import text_table
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.setting import Setting

__all__ = ["Round", "RoundLog", "Transcript", "RoundsNotKept", "History", "round_record",
           "format_rounds", "format_transcript", "transcript_records", "instance_text"]


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


def round_record(r: Round) -> dict:
    """The JSON Lines object of one round: the one format of ``play --out`` and ``play(..., out=...)``.

    Examples
    --------
    >>> round_record(Round(t=1, x=(0, 1), p=1.0, prediction=1, y=0))
    {'type': 'round', 't': 1, 'x': [0, 1], 'p': 1.0, 'prediction': 1, 'y': 0, 'mistake': True}
    """
    return {"type": "round", "t": r.t, "x": json_value(r.x), "p": float(r.p), "prediction": r.prediction,
            "y": r.y, "mistake": bool(r.mistake)}


class RoundsNotKept(Sequence):
    """The ``rounds`` of a transcript that kept only its totals (``play(..., keep="totals")``).

    Its length is the number of rounds played; reading a round, or iterating, raises
    :class:`~mistakebound.foundations.errors.InvalidArgumentError` saying where the rounds
    went, so that nothing computed from the rounds is silently computed from none.

    Examples
    --------
    >>> kept = RoundsNotKept(3, mistakes=1, expected_mistakes=Fraction(3, 2))
    >>> len(kept)
    3
    >>> kept[0]
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: rounds: the game kept only the totals of its 3 rounds (play(..., keep='totals')); its rounds are in its out file, or play it with keep='rounds'
    """

    __slots__ = ("_n", "mistakes", "expected_mistakes")

    def __init__(self, n: int, *, mistakes: int, expected_mistakes: Fraction | float):
        self._n, self.mistakes, self.expected_mistakes = int(n), int(mistakes), expected_mistakes

    def __len__(self) -> int:
        return self._n

    def _refuse(self) -> InvalidArgumentError:
        return InvalidArgumentError(
            f"rounds: the game kept only the totals of its {self._n} rounds (play(..., keep='totals')); "
            "its rounds are in its out file, or play it with keep='rounds'"
        )

    def __getitem__(self, i: Any) -> Any:
        raise self._refuse()

    def __iter__(self) -> Any:
        if self._n:
            raise self._refuse()
        return iter(())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RoundsNotKept):
            return NotImplemented
        return (self._n, self.mistakes, self.expected_mistakes) == (other._n, other.mistakes, other.expected_mistakes)

    def __hash__(self) -> int:
        return hash((RoundsNotKept, self._n, self.mistakes, self.expected_mistakes))

    def __repr__(self) -> str:
        return f"RoundsNotKept({self._n} rounds, {self.mistakes} mistakes)"


class History(Sequence):
    """The rounds completed so far, as the players see them (``GameState.history``): read-only.

    A view of the engine's own record, not a copy: it has no ``append``, ``clear`` or
    item assignment, and slices are tuples.  In a game that keeps only its totals
    (``play(..., keep="totals")``) it holds the last round alone, and reading an
    earlier one raises :class:`~mistakebound.foundations.errors.InvalidArgumentError`
    (the player that reads it is reported as failing: play it with ``keep="rounds"``).

    Examples
    --------
    >>> h = History([Round(1, 3, 1.0, 1, 0)])
    >>> len(h), h[-1].x, h == [Round(1, 3, 1.0, 1, 0)]
    (1, 3, True)
    >>> h.clear()
    Traceback (most recent call last):
    ...
    AttributeError: 'History' object has no attribute 'clear'
    """

    __slots__ = ("_rounds", "_dropped", "_window")

    def __init__(self, rounds: Sequence = ()):
        # the engine's list (never copied; only the engine changes it), the number of
        # earlier rounds already folded into a totals-only game's totals, and how many
        # of the last rounds may be read (None: all)
        self._rounds = rounds if isinstance(rounds, list) else list(rounds)
        self._dropped = 0
        self._window: int | None = None

    def __len__(self) -> int:
        return self._dropped + len(self._rounds)

    def _first_readable(self) -> int:
        n = self._dropped + len(self._rounds)
        return 0 if self._window is None else max(0, n - self._window)

    def _refuse(self, i: int) -> InvalidArgumentError:
        return InvalidArgumentError(
            f"history: round {i + 1} is not kept: a game played with keep='totals' shows only the last round "
            "in state.history; play it with keep='rounds' (play without --stream) for an adversary that reads "
            "earlier rounds"
        )

    def __getitem__(self, i: Any) -> Any:
        n = self._dropped + len(self._rounds)
        if isinstance(i, slice):
            indices = range(*i.indices(n))
            first = self._first_readable()
            if len(indices) and min(indices[0], indices[-1]) < first:
                raise self._refuse(min(indices[0], indices[-1]))
            return tuple(self._rounds[k - self._dropped] for k in indices)
        i = operator.index(i)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"history index {i} out of range for {n} rounds")
        if i < self._first_readable():
            raise self._refuse(i)
        return self._rounds[i - self._dropped]

    def __iter__(self) -> Any:
        if self._first_readable() > 0:
            raise self._refuse(0)
        return iter(tuple(self._rounds))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (History, list, tuple)):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment] - it changes as the game goes

    def __repr__(self) -> str:
        return f"History({len(self)} rounds)"


class _Deferred:
    """Holds the :class:`RoundLog` of a transcript whose rounds are not built yet."""

    __slots__ = ("_log",)


@frozen
class Transcript(_Deferred):
    """An immutable record of a game.

    Attributes
    ----------
    rounds : tuple of Round, or RoundsNotKept
        The rounds; a game played with ``keep="totals"`` has a :class:`RoundsNotKept`.
    learner, adversary : str
        Descriptions of the two players.
    seed : int or None
        The seed that reproduces the game with :func:`mistakebound.game.play.play`.
    class_name : str or None
        The class the game was played on, if any.
    realizable : bool
        Whether the engine enforced realizability.
    rules : Rules or None
        The rules the game was played under when :func:`~mistakebound.game.play.play` was given
        them (None: the textbook's).  Under ``feedback="bandit"`` each round's learner saw only
        ``prediction`` and whether it equalled ``y`` (:meth:`seen_by_learner`); the adversary saw
        ``x`` and ``p``, as in every game.
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

    #: Whether the moves are instances, predictions and labels (as the setting's ``labelled``).
    labelled: ClassVar[bool] = True

    rounds: tuple = field(converter=lambda rounds: rounds if isinstance(rounds, RoundsNotKept) else tuple(rounds))
    learner: str = ""
    adversary: str = ""
    seed: int | None = None
    class_name: str | None = None
    realizable: bool = True
    rules: Any = None
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

    @classmethod
    def from_totals(cls, n_rounds: int, *, mistakes: int, expected_mistakes: Fraction | float,
                    **fields: Any) -> Transcript:
        """A transcript that keeps only the totals of its ``n_rounds`` rounds (``play(..., keep="totals")``).

        ``expected_mistakes`` is the exact sum (a :class:`~fractions.Fraction`, rounded
        once when read); its ``rounds`` is a :class:`RoundsNotKept`.

        Examples
        --------
        >>> T = Transcript.from_totals(10**9, mistakes=3, expected_mistakes=Fraction(7, 2), seed=1)
        >>> len(T), T.mistakes, T.expected_mistakes, T.rounds_kept
        (1000000000, 3, 3.5, False)
        """
        return cls(rounds=RoundsNotKept(n_rounds, mistakes=mistakes, expected_mistakes=expected_mistakes), **fields)

    @property
    def rounds_kept(self) -> bool:
        """False for a transcript that kept only its totals (its ``rounds`` is a :class:`RoundsNotKept`)."""
        return self._totals() is None

    def _totals(self) -> RoundsNotKept | None:
        try:
            log = object.__getattribute__(self, "_log")
        except AttributeError:
            log = None
        if log is not None:
            return None
        rounds = self.rounds
        return rounds if isinstance(rounds, RoundsNotKept) else None

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
        totals = self._totals()
        if totals is not None:
            return totals.mistakes
        _, predictions, ys = self._columns()
        return sum(map(operator.ne, predictions, ys))

    @property
    def expected_mistakes(self) -> float:
        """``sum_t |p_t - y_t|``, summed exactly as fractions of the stored ``p_t`` and rounded once."""
        totals = self._totals()
        if totals is not None:
            return float(totals.expected_mistakes)
        ps, _, ys = self._columns()
        whole, parts = 0, []  # deterministic rounds (p = 0 or 1) add an integer; others p, or 1 - p as 1 and -p
        for p, y in zip(ps, ys):
            if p == 0.0 or p == 1.0:
                whole += p != y
            elif y == 0:
                parts.append(p)
            else:
                whole += 1
                parts.append(-p)
        if all(type(p) is float for p in parts):  # math.fsum rounds the exact sum of floats once
            return math.fsum([whole, *parts])
        return float(sum(map(Fraction, parts), Fraction(whole)))

    @property
    def regret(self) -> float | None:
        """Expected mistakes minus those of the best hypothesis in hindsight (None without a class)."""
        if self.best_hypothesis_mistakes is None:
            return None
        return self.expected_mistakes - self.best_hypothesis_mistakes

    @property
    def randomized(self) -> bool:
        """Whether the learner predicted with a probability other than 0 or 1 in some round.

        Examples
        --------
        >>> [Transcript(rounds=[Round(1, 0, p, 1, 0)]).randomized for p in (1.0, 0.5)]
        [False, True]
        """
        return any(not float(p).is_integer() for p in self._columns()[0])

    def cumulative_curve(self, measure: str = "mistakes", setting: Any = None) -> np.ndarray:
        """The learner's expected mistakes (``measure="mistakes"``) or its regret against the best
        hypothesis of ``setting`` (``"regret"``) over the first ``t`` rounds, ``t = 0, 1, ...``.

        Raises
        ------
        InvalidArgumentError
            If ``measure`` is neither, or the regret is asked of a setting with no best
            hypothesis in hindsight (:meth:`~mistakebound.game.setting.Setting.hindsight_curve`).

        Examples
        --------
        >>> H = HypothesisClass.from_matrix([[0], [1]])
        >>> T = Transcript(rounds=[Round(1, 0, 1.0, 1, 0), Round(2, 0, 0.0, 0, 1), Round(3, 0, 0.5, 1, 1)])
        >>> T.cumulative_curve().tolist(), T.cumulative_curve("regret", H).tolist()
        ([0.0, 1.0, 2.0, 2.5], [0.0, 1.0, 1.0, 1.5])
        """
        if measure not in ("mistakes", "regret"):
            raise InvalidArgumentError(f"measure: expected 'mistakes' or 'regret', got {measure!r}")
        ps, _, ys = self._columns()
        curve = np.concatenate([[0.0], np.cumsum(np.abs(np.asarray(ps, dtype=float) - np.asarray(ys, dtype=float)))])
        if measure == "mistakes":
            return curve
        if not isinstance(setting, Setting):
            raise InvalidArgumentError("H: the regret curve needs the finite class or the expert advice of the game, "
                                       f"got {setting!r}")
        return curve - setting.hindsight_curve(self.xs, ys)

    def totals_record(self) -> dict:
        """The game's totals as the fields of a record: ``rounds``, ``mistakes``, ``expected_mistakes``, ``regret``.

        Examples
        --------
        >>> Transcript(rounds=[Round(1, 3, 0.25, 0, 1)], best_hypothesis_mistakes=0).totals_record()
        {'rounds': 1, 'mistakes': 1, 'expected_mistakes': 0.75, 'regret': 0.75}
        """
        return {"rounds": len(self), "mistakes": self.mistakes, "expected_mistakes": self.expected_mistakes,
                "regret": self.regret}

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

    def format_table(self, *, limit: int | None = None) -> str:
        """The rounds as an aligned table (:func:`format_rounds`), the first ``limit`` of them when given.

        Examples
        --------
        >>> T = Transcript(rounds=(Round(1, "left", 1.0, 1, 0), Round(2, "up", 0.0, 0, 0)))
        >>> print(T.format_table())
        t  x     p  prediction  y  mistake
        -  ----  -  ----------  -  -------
        1  left  1  1           0  yes
        2  up    0  0           0  no
        """
        return format_rounds(self.rounds if limit is None else self._head(limit))  # a log's others unbuilt

    def _head(self, n: int) -> tuple:
        """The first ``n`` rounds (at most), read off the log without building the others."""
        try:
            log = object.__getattribute__(self, "_log")
        except AttributeError:
            log = None
        source = self.rounds if log is None else log
        return tuple(source[i] for i in range(min(n, len(source))))

    def to_pandas(self) -> Any:
        """The rounds as a ``pandas.DataFrame``: one row per round, in order.

        Columns ``t`` (int), ``x`` (the instance: numbers as numbers, vectors as tuples),
        ``p`` (float: the learner's probability of label 1), ``prediction`` and ``y``
        (int: the drawn and the true label), ``mistake`` (bool) and ``expected_mistake``
        (float: ``|p - y|``).

        Raises
        ------
        PandasDependencyError
            If pandas is not installed (``pip install 'mistakebound[pandas]'``).
        InvalidArgumentError
            For a game that kept only its totals (``play(..., keep="totals")``).

        Examples
        --------
        >>> T = Transcript(rounds=(Round(1, "a", 1.0, 1, 0), Round(2, "b", 0.25, 0, 0)))
        >>> df = T.to_pandas()
        >>> list(df.columns)
        ['t', 'x', 'p', 'prediction', 'y', 'mistake', 'expected_mistake']
        >>> df["x"].tolist(), df["mistake"].tolist(), float(df["expected_mistake"].sum())
        (['a', 'b'], [True, False], 1.25)
        """
        from mistakebound.foundations.dataframes import frame, pandas

        pandas()  # the missing library is named before the rounds are read
        totals = self._totals()
        if totals is not None:
            raise totals._refuse()  # saying where the rounds went
        ps, predictions, ys = self._columns()
        try:
            log = object.__getattribute__(self, "_log")
        except AttributeError:
            log = None
        if isinstance(log, RoundLog):  # read off the log: a million rounds are not built one by one
            ts, xs = range(log._first_t, log._first_t + len(log)), log._xs[: len(log)]
        else:
            ts, xs = [r.t for r in self.rounds], [r.x for r in self.rounds]
        return frame({
            "t": ts, "x": xs, "p": [float(p) for p in ps], "prediction": [int(v) for v in predictions],
            "y": [int(y) for y in ys], "mistake": [a != b for a, b in zip(predictions, ys)],
            "expected_mistake": [float(abs(p - y)) for p, y in zip(ps, ys)],
        })

    def _repr_html_(self) -> str:
        """The totals and the first rounds, mistakes highlighted (for notebooks; bounded in size)."""
        from mistakebound.foundations import html_tables as ht

        facts = [("rounds", len(self)), ("mistakes", self.mistakes), ("expected mistakes", self.expected_mistakes)]
        regret = self.regret  # a pass over the rounds: once
        facts += [("regret", regret)] if regret is not None else []
        facts += [("seed", self.seed), ("realizable", self.realizable)]
        title = f"Transcript: {self.learner or '?'} vs {self.adversary or '?'} on {self.class_name or 'no class'}"
        if not self.rounds_kept:
            return ht.panel(title, facts, ht.note("rounds not kept (played with keep='totals')"))
        head = self._head(ht.PREVIEW_ROWS)
        rows = [(r.t, r.x, r.p, r.prediction, r.y, "✗" if r.mistake else "") for r in head]
        return ht.panel(title, facts, ht.table(["t", "x", "p", "prediction", "y", "mistake"], rows,
                                                   total=len(self), what="rounds", marked=[r.mistake for r in head]))

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's plain text (computed beside the HTML): the summary line, not every round."""
        printer.text(f"Transcript({self.summary()}, seed {self.seed})")

    def seen_by_learner(self) -> list[tuple]:
        """What the learner was shown in each round: ``(x, y)`` with full information, ``(x, prediction, correct)``
        under bandit feedback (:attr:`rules`).

        Examples
        --------
        >>> from mistakebound.game.rules import Rules
        >>> T = Transcript(rounds=(Round(1, 5, 2.0, 2, 0),), rules=Rules(labels=3, feedback="bandit"))
        >>> T.seen_by_learner()
        [(5, 2, False)]
        """
        if self.rules is not None and self.rules.feedback == "bandit":
            return [(r.x, r.prediction, r.prediction == r.y) for r in self.rounds]
        return [(r.x, r.y) for r in self.rounds]

    def summary(self) -> str:
        """One line with the players and the totals (names escaped by :func:`~mistakebound.foundations.text.printable`)."""
        regret = "" if self.regret is None else f", regret {self.regret:g}"
        return printable(
            f"{self.learner} vs {self.adversary} on {self.class_name or 'no class'}: "
            f"{len(self)} rounds, {self.mistakes} mistakes "
            f"(expected {self.expected_mistakes:g}){regret}"
        )

    # ------------------------------------------------------------ its text and records
    def header(self, rounds: int, setting: Any = None) -> str:
        """The line that opens a game's report: the players, the class, the seed and the horizon ``rounds``.

        Examples
        --------
        >>> Transcript(rounds=(), learner="L", adversary="A", seed=0, class_name="thresholds(7)").header(100)
        'game: L vs A on thresholds(7), realizable, seed 0, at most 100 rounds'
        """
        kind = "realizable" if self.realizable else "unrealizable"
        if self.rules is not None:
            kind = self.rules.describe() if self.realizable else f"{self.rules.describe()}, any label (unrealizable)"
        return (f"game: {self.learner} vs {self.adversary} on {self.class_name}, {kind}, seed {self.seed}, "
                f"at most {rounds} rounds")

    def table(self) -> str:
        """The rounds as a table (:func:`format_rounds`)."""
        return format_rounds(self.rounds)

    def totals_lines(self, setting: Any = None) -> list[str]:
        """The totals, one ``name = value`` line each: rounds, mistakes, expected mistakes, regret, version space.

        The version space is named (its first five hypotheses) when ``setting`` is the
        finite class the game was played on.

        Examples
        --------
        >>> T = Transcript(rounds=[Round(1, 3, 0.25, 0, 1)], best_hypothesis_mistakes=0)
        >>> for line in T.totals_lines():
        ...     print(line)
        rounds = 1
        mistakes = 1
        expected mistakes = 0.75
        regret = 0.75 (the best hypothesis in hindsight makes 0 mistakes)
        """
        lines = [f"rounds = {len(self)}", f"mistakes = {self.mistakes}",
                 f"expected mistakes = {number_text(self.expected_mistakes)}"]
        if self.regret is not None:
            n = self.best_hypothesis_mistakes
            lines.append(f"regret = {number_text(self.regret)} (the best hypothesis in hindsight makes "
                         f"{number_text(n)} mistake{'' if n == 1 else 's'})")
        if self.version_space is not None and isinstance(setting, HypothesisClass):
            names = [setting.hypothesis_name(i) for i in self.version_space]
            shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
            lines.append(f"version space = {len(names)} of {setting.n_hypotheses} hypotheses"
                         + (f": {shown}" if names else ""))
        return lines

    def totals_row(self) -> list[str]:
        """The totals as the cells of a table: rounds, mistakes, expected mistakes, regret."""
        return [str(len(self)), str(self.mistakes), number_text(self.expected_mistakes), number_text(self.regret)]

    def round_records(self) -> list[dict]:
        """The JSON Lines object of each round (:func:`round_record`); none when only the totals were kept."""
        return [round_record(r) for r in self.rounds] if self.rounds_kept else []

    def summary_record(self) -> dict:
        """The players, the class, the seed and the totals, as the fields of a JSON summary object."""
        return {"learner": self.learner, "adversary": self.adversary, "class": self.class_name, "seed": self.seed,
                "realizable": self.realizable, **self.totals_record(),
                "best_hypothesis_mistakes": self.best_hypothesis_mistakes,
                "version_space": None if self.version_space is None else list(self.version_space)}


def instance_text(x: Any) -> str:
    """An instance as one cell of a table: on one line, with no padding of its own.

    Tuples and arrays read ``(a,b,c)``; text is shown as it is, its line breaks, tabs and
    other control characters, which would break the row, escaped
    (:func:`~mistakebound.foundations.text.printable`, as every name is).

    Examples
    --------
    >>> instance_text((0, 1, 1)), instance_text(np.array([0.5, 1.0])), instance_text("a b")
    ('(0,1,1)', '(0.5,1.0)', 'a b')
    >>> print(instance_text("two\\nlines"))
    two\\nlines
    """
    if isinstance(x, np.ndarray):
        x = tuple(x.tolist()) if x.ndim else x.item()
    if isinstance(x, tuple):
        return "(" + ",".join(instance_text(v) for v in x) + ")"
    return printable(str(x))


def format_rounds(rounds: Sequence[Any]) -> str:
    """The rounds of a game as a table: ``t, x, p, prediction, y, mistake``, columns aligned.

    Each column is as wide as its widest cell (an instance is one cell,
    :func:`instance_text`), so every row has its columns at the same offsets, whatever the
    instances are (strings of any length, tuples, arrays).  ``rounds`` holds
    :class:`Round` objects (or objects with the same attributes; a ``prediction`` of None
    prints as ``?``).

    Examples
    --------
    >>> print(format_rounds([Round(1, 8, 1.0, 1, 0), Round(2, 4, 0.25, 0, 0)]))
    t  x  p     prediction  y  mistake
    -  -  ----  ----------  -  -------
    1  8  1     1           0  yes
    2  4  0.25  0           0  no
    >>> print(format_rounds([Round(9, "a long instance", 1.0, 1, 1), Round(10, "b", 0.5, 0, 1)]))
    t   x                p    prediction  y  mistake
    --  ---------------  ---  ----------  -  -------
    9   a long instance  1    1           1  no
    10  b                0.5  0           1  yes
    """
    header = ["t", "x", "p", "prediction", "y", "mistake"]
    rows = []
    for r in rounds:
        prediction = getattr(r, "prediction", None)
        mistake = "?" if prediction is None else ("yes" if prediction != r.y else "no")
        rows.append([str(r.t), instance_text(r.x), number_text(r.p),
                     "?" if prediction is None else str(prediction), str(r.y), mistake])
    return text_table(header, rows)


def format_transcript(T: Any) -> str:
    """The rounds of a game as a table, for a game of any setting (its transcript's ``table()``).

    A finite-class game's rounds read ``t, x, p, prediction, y, mistake``
    (:func:`format_rounds`); an online convex optimisation game's ``t, w, loss``.

    Examples
    --------
    >>> print(format_transcript(Transcript(rounds=[Round(1, 8, 1.0, 1, 0), Round(2, 4, 0.25, 0, 0)])))
    t  x  p     prediction  y  mistake
    -  -  ----  ----------  -  -------
    1  8  1     1           0  yes
    2  4  0.25  0           0  no
    """
    return T.table()


def _claim_record(claim: Any) -> dict:
    return {"value": json_value(claim.value), "measure": claim.measure, "source": claim.source,
            "assumptions": list(claim.assumptions), "reason": claim.reason}


def transcript_records(T: Any, *, claim: Any = None, verdict: Any = None, complete: bool = True) -> list[dict]:
    """The JSON Lines records of a game: one object per round, then one summary object.

    Round objects hold ``type`` (``"round"``), ``t``, ``x`` (tuples as lists), ``p``,
    ``prediction``, ``y`` and ``mistake`` (``t``, ``w``, ``value`` for an online convex
    optimisation game); the summary (``type`` ``"summary"``) holds the players, the
    class, the seed, the totals, the version space, the learner's claim and the verdict.
    A game that kept only its totals (``play(..., keep="totals")``) has the summary only:
    its rounds were written as they were played.

    Parameters
    ----------
    T : Transcript or OCOTranscript
        The game.
    claim : Bound, optional
        The learner's claim (:func:`~mistakebound.verification.claims.stated_bound`).
    verdict : Verdict, optional
        The verdict on the game (:func:`~mistakebound.verification.judged.judged_game`),
        with the adversary's forced count.
    complete : bool
        False for a game that stopped before its horizon.

    Examples
    --------
    >>> T = Transcript(rounds=[Round(1, (0, 1), 1.0, 1, 0)], learner="L", adversary="A", seed=0)
    >>> records = transcript_records(T)
    >>> records[0]
    {'type': 'round', 't': 1, 'x': [0, 1], 'p': 1.0, 'prediction': 1, 'y': 0, 'mistake': True}
    >>> records[1]["mistakes"], records[1]["complete"], records[1]["verdict"]
    (1, True, None)
    """
    claimed = None if claim is None else _claim_record(claim)
    forced = None if verdict is None else verdict.forced
    judged = {
        "bound": claimed if claim is not None and claim.stated else None,
        "claim": claimed,
        "forced": None if forced is None or not forced.stated else {
            "value": json_value(forced.value), "measure": forced.measure, "source": forced.source},
        "verdict": None if verdict is None else verdict.status,
        "bound_holds": None if verdict is None else verdict.holds,
        "message": None if verdict is None else verdict.message,
    }
    summary = {"type": "summary", "complete": bool(complete), **T.summary_record(), **judged}
    return [*T.round_records(), {k: json_value(v) for k, v in summary.items()}]
