"""The framework's exception types.

Every error raised on purpose by ``mistakebound`` derives from
:class:`MistakeboundError`, so a caller can catch the framework's refusals in one
``except`` clause and let genuine bugs through.  Errors about bad input also derive
from :class:`ValueError`, so code written against the standard library still works.

Game errors (:class:`GameError` and its subclasses) name the round (1-based) and the
player at fault, and carry the transcript of every round completed before the fault,
so nothing already played is lost.

Examples
--------
>>> from mistakebound import HypothesisClass
>>> from mistakebound.foundations.errors import InvalidClassError
>>> try:
...     HypothesisClass.from_matrix([[0, 2]])
... except InvalidClassError as exc:
...     print(exc)
matrix: row 1, column 2: 2 is not 0 or 1; expected every entry to be 0 or 1 (rows and columns counted from 1: matrix[0, 1]); a class of more labels says how many (labels=k)
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "MistakeboundError",
    "InvalidClassError",
    "InvalidArgumentError",
    "PlayerImportError",
    "NotApplicableError",
    "InsufficientMemoryError",
    "GameError",
    "IllegalInstanceError",
    "IllegalPredictionError",
    "IllegalLabelError",
    "UnrealizableLabelError",
    "PeekError",
    "PlayerError",
    "GameInterrupted",
]


class MistakeboundError(Exception):
    """Base class of every error the framework raises on purpose.

    Attributes
    ----------
    transcript : Transcript or None
        What was played before the error, when it came in or after a game: the rounds
        before a fault (:class:`GameError`), or the whole game when its claims could not
        be read after it (:func:`~mistakebound.verification.judged.judged_game`).
        None otherwise.
    """

    transcript: Any = None


class InvalidArgumentError(MistakeboundError, ValueError):
    """A parameter has a value outside what the function accepts.

    The message names the parameter, the value received and what was expected.
    """


class PlayerImportError(InvalidArgumentError, ImportError):
    """An import path ``module:Class`` naming a player could not be imported, or names no player of its kind.

    The fault is where the program runs (the module not on the path, the current
    directory another one), not the player's: a sweep records such a cell as an
    infrastructure error, run again on resume.
    """


class InvalidClassError(InvalidArgumentError):
    """A hypothesis class could not be built from the given matrix, domain or names."""


class InsufficientMemoryError(MistakeboundError, MemoryError):
    """A search would need more memory than the machine has available; raised before it starts.

    Attributes
    ----------
    needed, available : int or None
        The estimated bytes the search needs and the bytes available, when known.
    """

    def __init__(self, message: str, *, needed: int | None = None, available: int | None = None):
        super().__init__(message)
        self.needed = needed
        self.available = available


class NotApplicableError(MistakeboundError, ValueError):
    """A player or a computation does not apply to the given hypothesis class.

    Raised, for instance, when ``BasisVectorForcer`` is asked to play on a class whose
    domain holds no basis vectors.
    """


class GameError(MistakeboundError):
    """A game stopped because a player broke the rules or raised.

    Attributes
    ----------
    round : int
        The 1-based round in which the fault happened.
    player : str
        ``"learner"`` or ``"adversary"``.
    transcript : Transcript or None
        The rounds completed before the fault (the faulty round is not included).
    """

    def __init__(self, message: str, *, round: int, player: str, transcript: Any = None):
        super().__init__(f"round {round}, {player}: {message}")
        self.round = round
        self.player = player
        self.transcript = transcript


class IllegalInstanceError(GameError, ValueError):
    """The adversary presented an instance outside the class's domain."""


class IllegalPredictionError(GameError, ValueError):
    """The learner's prediction is not a label in {0, 1} or a probability in [0, 1]."""


class IllegalLabelError(GameError, ValueError):
    """The adversary revealed a label that is not 0 or 1."""


class UnrealizableLabelError(IllegalLabelError):
    """In a realizable game, no hypothesis still in the version space gives this label."""


class PeekError(GameError):
    """Under bandit feedback, the learner read a label the game did not show it."""


class PlayerError(GameError):
    """A player raised an exception; the original is chained as ``__cause__``."""


class GameInterrupted(KeyboardInterrupt):
    """Ctrl-C during a game; ``.transcript`` holds every round completed before it.

    A ``KeyboardInterrupt``, so code that stops on Ctrl-C still stops; code that wants
    what was played reads the transcript instead of losing it.
    """

    def __init__(self, transcript: Any):
        super().__init__(f"interrupted after {len(transcript)} rounds")
        self.transcript = transcript
