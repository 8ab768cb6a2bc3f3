"""What a learner is shown after a round: the label (full information) or only whether it erred (bandit).

Under full information the referee calls ``learner.learn_one(x, y)`` with the label.  Under
bandit feedback (``Rules(feedback="bandit")``) it calls ``learner.learn_one(x, feedback)``
with a :class:`BanditFeedback`: the learner's own prediction and whether it was right.
The label is part of it only where the game shows it: when the prediction was right, or
in a game of two labels, where a wrong prediction leaves one label.  Anything else a
learner does to read the label (``feedback.label``, ``int(feedback)``, comparing it with a
number, using it as an index or a key) raises :class:`LabelNotShown`, which the referee
turns into a :class:`~mistakebound.foundations.errors.PeekError` naming the round: a learner
written for full information, given bandit feedback, is caught rather than silently
learning from what it was not shown.

A learner declares the feedback it takes in its ``feedbacks`` attribute (default
``("full",)``, :func:`feedbacks_of`); the referee refuses a game under bandit feedback with
a learner that does not list ``"bandit"``, before round 1.

Examples
--------
>>> f = BanditFeedback(t=3, prediction=2, correct=False, labels=(0, 1, 2))
>>> f.prediction, f.correct, f.revealed
(2, False, False)
>>> f.label
Traceback (most recent call last):
...
mistakebound.game.feedback.LabelNotShown: the label of round 3, which bandit feedback does not show (the learner predicted 2 and was told only that it erred)
>>> BanditFeedback(t=1, prediction=0, correct=False, labels=(0, 1)).label  # two labels: the other one
1
"""

from __future__ import annotations

from typing import Any

__all__ = ["BanditFeedback", "LabelNotShown", "feedbacks_of"]


class LabelNotShown(Exception):
    """A learner read a label that bandit feedback did not show it (the referee makes it a PeekError)."""

    def __init__(self, message: str, t: int):
        super().__init__(message)
        self.t = t


def feedbacks_of(learner: Any) -> tuple[str, ...]:
    """The feedbacks ``learner`` declares it learns from (its ``feedbacks`` attribute; default full only).

    Examples
    --------
    >>> class Guesser:
    ...     feedbacks = ("full", "bandit")
    >>> feedbacks_of(Guesser()), feedbacks_of(object())
    (('full', 'bandit'), ('full',))
    """
    declared = getattr(learner, "feedbacks", ("full",))
    return tuple(declared) if isinstance(declared, (tuple, list, frozenset, set)) else ("full",)


class BanditFeedback:
    """What a learner is told under bandit feedback in round ``t``: its ``prediction`` and whether it was ``correct``.

    Attributes
    ----------
    t : int
        The round.
    prediction : int
        The label the learner predicted (for a randomized learner, the one the engine drew).
    correct : bool
        Whether it was the label.
    revealed : bool
        Whether the label is shown anyway: the prediction was right, or the game has two labels.
    label : int
        The label, where ``revealed``; reading it otherwise raises :class:`LabelNotShown`.
    """

    __slots__ = ("t", "prediction", "correct", "_labels", "_label")

    def __init__(self, t: int, prediction: int, correct: bool, labels: tuple):
        self.t, self.prediction, self.correct, self._labels = t, prediction, bool(correct), labels
        if self.correct:
            self._label = prediction
        elif len(labels) == 2:
            self._label = labels[1] if prediction == labels[0] else labels[0]
        else:
            self._label = None  # not kept: nothing in the object holds what the learner was not shown

    @property
    def revealed(self) -> bool:
        return self._label is not None

    @property
    def label(self) -> int:
        if self._label is None:
            raise LabelNotShown(f"the label of round {self.t}, which bandit feedback does not show (the learner "
                                f"predicted {self.prediction} and was told only that it erred)", self.t)
        return self._label

    def _peek(self, *args: Any) -> Any:
        if self._label is None:
            raise LabelNotShown(f"the label of round {self.t} read as a number, which bandit feedback does not "
                                "show; a learner for bandit feedback reads feedback.correct and "
                                "feedback.prediction", self.t)
        return self._label

    def __int__(self) -> int:
        return self._peek()

    __index__ = __int__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BanditFeedback):
            return (self.t, self.prediction, self.correct) == (other.t, other.prediction, other.correct)
        return self._peek() == other

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._peek())

    def __bool__(self) -> bool:
        return bool(self._peek())

    def __float__(self) -> float:
        return float(self._peek())

    def __repr__(self) -> str:
        return (f"BanditFeedback(t={self.t}, prediction={self.prediction}, correct={self.correct}"
                + (f", label={self._label})" if self._label is not None else ")"))
