"""Who watches a game: the state a player sees, the observers' hooks, and observers installed for a while.

:class:`GameState` is what :func:`~mistakebound.game.play.play` shows a player that asks
(the rounds so far, the version space of a finite class); :class:`Observer` has three
hooks, ``on_start(game)`` with a :class:`GameInfo`, ``on_round(game, round)`` and
``on_end(game, transcript)``; :func:`observing` installs observers for every game played
inside a ``with`` block (the pytest plugin's report watches games this way).

Examples
--------
>>> installed()  # none outside a ``with observing(...)`` block
()
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import brief
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.spaces import Space
from mistakebound.game.transcript import History, Round, Transcript
from mistakebound.game.version_space import VersionSpace

__all__ = ["GameInfo", "GameState", "Observer", "RoundCount", "observing", "installed"]


class _VersionsView:
    """The referee's version space as the players see it: read, never restricted.

    ``copy()`` gives an independent :class:`~mistakebound.game.version_space.VersionSpace`
    to experiment on; ``rows()`` is a copy of the survivors' indices.
    """

    __slots__ = ("_vs",)

    def __init__(self, vs: VersionSpace):
        self._vs = vs

    @property
    def H(self) -> HypothesisClass:
        return self._vs.H

    @property
    def size(self) -> int:
        return self._vs.size

    @property
    def mask(self) -> int:
        return self._vs.mask

    def rows(self) -> np.ndarray:
        rows = np.array(self._vs.rows(), dtype=np.int64, copy=True)
        rows.setflags(write=False)
        return rows

    def count(self, column: int, y: int) -> int:
        return self._vs.count(column, y)

    def first(self) -> int | None:
        return self._vs.first()

    def copy(self) -> VersionSpace:
        return self._vs.copy()

    def __repr__(self) -> str:
        return f"VersionSpace({self._vs.size} of {self._vs.H.n_hypotheses} hypotheses, read-only)"


def _as_history(value: Any) -> History:
    return value if isinstance(value, History) else History(list(value))


def _as_versions(value: Any) -> Any:
    return _VersionsView(value) if isinstance(value, VersionSpace) else value


@frozen
class GameState:
    """What an adaptive adversary may look at during a game: read-only.

    Attributes
    ----------
    H : HypothesisClass or Space
        The class (or space) of the game.
    rounds : int
        The horizon: the game lasts at most this many rounds.
    realizable : bool
        Whether labels must stay consistent with some hypothesis of ``H``.
    rng : numpy.random.Generator
        The adversary's own generator (derived from the game's seed).
    versions : read-only view of a VersionSpace, or None
        The hypotheses consistent with every round so far (finite classes; None on a
        space); ``version_mask`` and ``version_space`` give it as a bitset and as rows.
        ``versions.copy()`` is an independent version space to experiment on.
    history : History
        Completed rounds, a read-only sequence of :class:`~mistakebound.game.transcript.Round`
        (in a game played with ``keep="totals"``, only the last round can be read).
    """

    H: HypothesisClass | Space
    rounds: int
    realizable: bool
    rng: np.random.Generator = field(repr=False)
    versions: Any = field(default=None, repr=False, converter=_as_versions)
    history: History = field(factory=History, repr=False, converter=_as_history)

    @property
    def version_mask(self) -> int | None:
        """Bitset of the hypotheses consistent with every round so far (None on a space)."""
        return None if self.versions is None else self.versions.mask

    @property
    def t(self) -> int:
        """The number of the round being played (1-based)."""
        return len(self.history) + 1

    @property
    def version_space(self) -> np.ndarray:
        """Row indices of the hypotheses consistent with every round so far."""
        return self.versions.rows()

    def split(self, x: Any) -> tuple[int, int]:
        """How many hypotheses of the version space label ``x`` with 0 and with 1."""
        j = self.H.index_of(x)
        return self.versions.count(j, 0), self.versions.count(j, 1)

    def possible_labels(self, x: Any) -> tuple[int, ...]:
        """The labels of ``x`` that some hypothesis of the version space gives."""
        n0, n1 = self.split(x)
        return tuple(y for y, n in ((0, n0), (1, n1)) if n)

    def disagreements(self) -> list:
        """The instances, in domain order, on which the version space disagrees."""
        V = self.version_mask
        return [x for x, c in zip(self.H.domain, self.H.column_masks) if 0 != (V & c) != V]


@frozen
class GameInfo:
    """Who plays which game: what :class:`Observer` methods receive.

    Attributes
    ----------
    learner, adversary
        The players (observers must not call their methods: that would change the game).
    H : HypothesisClass or Space
    rounds : int
        The horizon.
    seed : int
    realizable : bool
    rules : Rules or None
        The rules :func:`~mistakebound.game.play.play` was given (None: the textbook's).
    """

    learner: Any
    adversary: Any
    H: Any
    rounds: int
    seed: int
    realizable: bool
    rules: Any = None


class Observer:
    """Something that watches games: every method is optional, and a no-op here.

    Pass observers to :func:`play` (``observers=[...]``) for one game, or install them
    for every game with :func:`observing`.  They see each round after it is complete,
    never before the players move, and must not touch the players.

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import Halving
    >>> from mistakebound.adversaries import BinarySearchThreshold
    >>> class Mistakes(Observer):
    ...     def __init__(self):
    ...         self.seen = []
    ...     def on_round(self, game, r):
    ...         self.seen.append(r.mistake)
    >>> watch = Mistakes()
    >>> H = classes.thresholds(7)
    >>> _ = play(Halving(H), BinarySearchThreshold(), H, rounds=10, seed=0, observers=[watch])
    >>> watch.seen
    [True, True, True]
    """

    def on_start(self, game: GameInfo) -> None:
        """Before round 1 (after the adversary committed or started)."""

    def on_round(self, game: GameInfo, r: Round) -> None:
        """After each completed round."""

    def on_end(self, game: GameInfo, transcript: Transcript) -> None:
        """After the last round, with the transcript :func:`play` returns."""


class RoundCount(Observer):
    """Counts the rounds of the games it watches, for a reader elsewhere (a progress bar's thread).

    ``rounds`` is the number of rounds completed; nothing is called back: whoever wants
    the count reads it (:meth:`mistakebound.interfaces.progress.Progress.follow`).

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import Halving
    >>> from mistakebound.adversaries import OppositeLabel
    >>> H, count = classes.thresholds(7), RoundCount()
    >>> T = play(Halving(H), OppositeLabel(), H, rounds=6, observers=[count])
    >>> count.rounds == len(T.rounds)
    True
    """

    def __init__(self) -> None:
        self.rounds = 0

    def on_round(self, game: GameInfo, r: Round) -> None:
        self.rounds += 1


#: Observers installed for every game by :func:`observing` (a tuple, replaced, never mutated).
_OBSERVERS: tuple = ()


@contextlib.contextmanager
def observing(*observers: Any) -> Iterator[None]:
    """Install ``observers`` for every game played inside the ``with`` block.

    This is how the pytest report (``pytest --mistakebound-report``) sees every game of a
    test session without changing :func:`play`.

    Yields
    ------
    None
        Control, once, to the ``with`` block.

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import SOA
    >>> from mistakebound.adversaries import OppositeLabel
    >>> class Count(Observer):
    ...     games = 0
    ...     def on_end(self, game, transcript):
    ...         Count.games += 1
    >>> H = classes.thresholds(3)
    >>> with observing(Count()):
    ...     _ = play(SOA(H), OppositeLabel(), H, rounds=5, seed=0)
    >>> _ = play(SOA(H), OppositeLabel(), H, rounds=5, seed=0)
    >>> Count.games
    1
    """
    global _OBSERVERS
    added = _check_observers(observers)
    _OBSERVERS = (*_OBSERVERS, *added)
    try:
        yield
    finally:
        remaining = list(_OBSERVERS)
        for o in added:
            remaining.remove(o)
        _OBSERVERS = tuple(remaining)


def _check_observers(observers: Any) -> tuple:
    if isinstance(observers, (str, bytes)) or not isinstance(observers, (Sequence, tuple)):
        raise InvalidArgumentError(f"observers: expected a sequence of observers, got {brief(observers)}")
    for o in observers:
        if not any(callable(getattr(o, name, None)) for name in ("on_start", "on_round", "on_end")):
            raise InvalidArgumentError(
                f"observers: {brief(o)} has none of on_start, on_round, on_end; expected an Observer"
            )
    return tuple(observers)


def _hooks(observers: tuple) -> tuple[list, list, list]:
    """The observers' bound methods, by moment (the base class's no-ops left out)."""
    out: tuple[list, list, list] = ([], [], [])
    for o in observers:
        for hooks, name in zip(out, ("on_start", "on_round", "on_end")):
            method = getattr(o, name, None)
            if callable(method) and getattr(type(o), name, None) is not getattr(Observer, name):
                hooks.append(method)
    return out


def installed() -> tuple:
    """The observers :func:`observing` has installed now (every game played reads them when it starts)."""
    return _OBSERVERS
