"""The move rules of the mistake-bound game, defined once for the referee and every search.

What a label is, what a prediction is, what a mistake costs, and which labels keep a
game realizable on a finite class: :func:`~mistakebound.game.play.play` (the referee)
reads every move through these functions, and so do the searches that play the game
without a referee (the exact worst case, its certificates' replay, the symmetry checks,
the users' checks of :mod:`mistakebound.verification.checks`).  A search that needs a
faster form of a rule in its inner loop (the worst case's bitset search) may inline it,
and its tests check the inlined form against the rule here.

The rules of today's game, the textbook's (chapter 21):

* labels are ``0`` and ``1`` (:data:`LABELS`); a label may be given as any real number
  equal to one of them, or a boolean (:func:`as_label`);
* a deterministic learner predicts a label, a randomized one the probability ``p`` of
  label 1, a real number in ``[0, 1]`` (:func:`as_probability`, :func:`as_prediction`);
* a round costs the learner ``|p - y|`` (:func:`mistake_cost`): one mistake, or none,
  for a label; the exact expected mistake for a probability;
* on a finite class, a label is legal in a realizable game when some hypothesis of the
  version space gives it (:func:`label_splits`, :func:`restrict`).

Examples
--------
>>> as_label(True), as_label(1.0), as_label(2), as_label(float("nan"))
(1, 1, None, None)
>>> as_prediction(0.25, randomized=True), as_prediction(0.25, randomized=False)
(0.25, None)
>>> mistake_cost(1, 0), mistake_cost(0.25, 1)
(1, 0.75)
>>> zeros, ones = label_splits(0b1110, 0b0110)   # hypotheses 1-3 survive; 1 and 2 label the instance 1
>>> bin(zeros), bin(ones), bin(restrict(0b1110, 0b0110, 0))
('0b1000', '0b110', '0b1000')
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.foundations.numerals import range_text
from mistakebound.foundations.validation import check_choice, check_flag, check_int

__all__ = [
    "LABELS",
    "MAX_ROUNDS",
    "require_rounds",
    "FEEDBACKS",
    "ORDERS",
    "Rules",
    "require_rules",
    "require_adaptive_order",
    "is_fatal",
    "as_label",
    "as_probability",
    "as_prediction",
    "expected_prediction",
    "label_words",
    "mistake_cost",
    "label_splits",
    "restrict",
]

#: The labels of the game (textbook chapter 21: 0/1; learners that work in -1/+1 convert at their edge).
LABELS = (0, 1)

#: The most rounds of a game: 10**12, eleven days at a million rounds a second.  The one range of a horizon,
#: read by :func:`require_rounds` (``play(rounds=...)``) and by the command line (``--rounds``, ``--noise``).
MAX_ROUNDS = 10**12


def require_rounds(rounds: Any, minimum: int = 0) -> int:
    """``rounds`` as the horizon of a game, ``minimum`` to :data:`MAX_ROUNDS`; the one check of every door that
    plays one.

    Raises
    ------
    InvalidArgumentError
        ``"rounds: expected an integer from 0 to 1,000,000,000,000, got VALUE"``.

    Examples
    --------
    >>> require_rounds(10)
    10
    >>> require_rounds(10**30)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: rounds: expected an integer from 0 to 1,000,000,000,000, got 1000000000000000000000000000000
    """
    return check_int("rounds", rounds, minimum, MAX_ROUNDS, expected=lambda: range_text(minimum, MAX_ROUNDS))


#: What reading a move may raise that is not the move's fault: the caller's stack ran out (the
#: exact searches, deep in their recursion, turn it into a partial result).
_EXHAUSTED = (RecursionError,)


def is_fatal(exc: BaseException) -> bool:
    """Whether ``exc``, raised during a player's move, stops the game as such rather than being the player's fault.

    Ctrl-C, a closed generator and running out of memory stop a game (or a search);
    anything else a player's method raises, ``SystemExit`` included, is that player's
    error.

    Examples
    --------
    >>> is_fatal(KeyboardInterrupt()), is_fatal(MemoryError()), is_fatal(SystemExit(0)), is_fatal(ValueError())
    (True, True, False, False)
    """
    return isinstance(exc, (KeyboardInterrupt, GeneratorExit, MemoryError))


def as_label(value: Any, labels: tuple = LABELS) -> int | None:
    """``value`` as one of ``labels`` (0 or 1; ``0..k-1`` in a game of ``k`` labels), or None when it is not a
    label (or comparing it raises).

    A boolean (0 or 1), or a real number equal to a label (``1.0``, ``numpy.int8(0)``,
    ``Fraction(2)``), is a label; NaN, other numbers, strings and anything whose comparison
    raises are not.  An exception that stops the game (:func:`is_fatal`) or a
    ``RecursionError`` passes through.

    Examples
    --------
    >>> import numpy as np
    >>> as_label(0), as_label(np.bool_(True)), as_label(np.float32(1.0))
    (0, 1, 1)
    >>> as_label("1"), as_label(-1), as_label(0.5), as_label(2)
    (None, None, None, None)
    >>> as_label(2.0, (0, 1, 2)), as_label(3, (0, 1, 2))
    (2, None)
    """
    try:
        if isinstance(value, (bool, np.bool_)):
            return 1 if value else 0
        if isinstance(value, numbers.Real) and not (isinstance(value, float) and math.isnan(value)):
            if value == 0:
                return 0
            if value == 1:
                return 1
            if labels is not LABELS:
                for y in labels[2:]:  # a few labels: compared as 0 and 1 are
                    if value == y:
                        return y
    except BaseException as exc:  # noqa: BLE001 - a number whose __eq__ or __bool__ raises is no label
        if is_fatal(exc) or isinstance(exc, _EXHAUSTED):
            raise
    return None


def as_probability(value: Any) -> float | None:
    """``value`` as a float in ``[0, 1]`` (a randomized learner's probability of label 1), or None.

    A boolean or a real number in ``[0, 1]`` is a probability; NaN, numbers outside the
    interval, numbers whose conversion to float overflows or raises, and non-numbers
    are not.  An exception that stops the game (:func:`is_fatal`) or a
    ``RecursionError`` passes through.

    Examples
    --------
    >>> from fractions import Fraction
    >>> as_probability(Fraction(1, 4)), as_probability(True), as_probability(1)
    (0.25, 1.0, 1.0)
    >>> as_probability(1.5), as_probability(float("nan")), as_probability(10**400)
    (None, None, None)
    """
    try:
        if isinstance(value, (bool, np.bool_)):
            return 1.0 if value else 0.0
        if isinstance(value, numbers.Real):
            p = float(value)  # 10**400 overflows; a Real's __float__ may raise anything
            if type(p) is float and 0.0 <= p <= 1.0:  # False for NaN
                return p
    except BaseException as exc:  # noqa: BLE001 - a number whose __float__ raises is no probability
        if is_fatal(exc) or isinstance(exc, _EXHAUSTED):
            raise
    return None


def as_prediction(value: Any, randomized: bool) -> int | float | None:
    """A learner's prediction as the game takes it: a label (deterministic) or a probability of 1 (randomized).

    Parameters
    ----------
    value
        What ``predict_one`` (or, for a randomized learner, ``predict_proba_one``) returned.
    randomized : bool
        Whether the learner is randomized (:func:`~mistakebound.game.players.is_randomized`).

    Returns
    -------
    int, float or None
        :func:`as_label` or :func:`as_probability` of ``value``; None for an illegal move
        (:func:`expected_prediction` says what was expected).

    Examples
    --------
    >>> as_prediction(1, randomized=False), as_prediction(1, randomized=True), as_prediction(0.5, randomized=False)
    (1, 1.0, None)
    """
    return as_probability(value) if randomized else as_label(value)


def label_words(labels: tuple = LABELS) -> str:
    """The labels of a game in a message: ``0 or 1``; ``0, 1 or 2``.

    Examples
    --------
    >>> label_words(), label_words((0, 1, 2)), label_words(tuple(range(6)))
    ('0 or 1', '0, 1 or 2', 'an integer 0..5')
    """
    if len(labels) > 4 and labels == tuple(range(len(labels))):
        return f"an integer 0..{len(labels) - 1}"
    shown = [repr(y) for y in labels]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def expected_prediction(randomized: bool, labels: tuple = LABELS) -> str:
    """What a prediction must be, in words, for the message refusing an illegal one.

    Examples
    --------
    >>> expected_prediction(False), expected_prediction(True), expected_prediction(False, (0, 1, 2))
    ('a label 0 or 1', 'a probability in [0, 1]', 'a label 0, 1 or 2')
    """
    return "a probability in [0, 1]" if randomized else f"a label {label_words(labels)}"


def mistake_cost(p: int | float, y: int) -> int | float:
    """What a round costs the learner: ``|p - y|``, an ``int`` when it is whole.

    ``p`` is the prediction as :func:`as_prediction` reads it (a label, or the
    probability of label 1) and ``y`` the label: one mistake or none for a label, the
    exact expected mistake for a probability (the engine draws the label from ``p``;
    the learner's state after ``learn_one`` does not depend on the draw, so the
    expectation is taken round by round).

    Examples
    --------
    >>> mistake_cost(0, 0), mistake_cost(1.0, 0), mistake_cost(0.25, 0), mistake_cost(0.25, 1)
    (0, 1, 0.25, 0.75)
    """
    cost = p - y if p >= y else y - p
    if cost.__class__ is not int and cost == int(cost):
        return int(cost)
    return cost


def label_splits(V: int, column: int) -> tuple[int, int]:
    """The hypotheses of the version space ``V`` labelling an instance 0 and 1: ``(zeros, ones)``, bitsets.

    ``V`` is a version space as a bitset over the rows of a finite class and ``column``
    the instance's column as a bitset (:attr:`~mistakebound.game.hypothesis_class.HypothesisClass.column_masks`).
    In a realizable game label ``y`` is legal on the instance exactly when its part is
    not empty; the version space after it is that part (:func:`restrict`).

    Examples
    --------
    >>> label_splits(0b111, 0b101)
    (2, 5)
    """
    ones = V & column
    return V ^ ones, ones


def restrict(V: int, column: int, y: int) -> int:
    """The version space ``V`` (a bitset) after label ``y`` on the instance whose column is ``column``.

    Examples
    --------
    >>> restrict(0b111, 0b101, 1), restrict(0b111, 0b101, 0)
    (5, 2)
    """
    return V & column if y else V & ~column


# ------------------------------------------------------------------ the game's settings
#: What the learner is shown after each round: the label (``"full"``), or only whether it erred (``"bandit"``).
FEEDBACKS = ("full", "bandit")

#: Who orders the instances (issue 24): the adversary, adaptively (``"adaptive"``, the textbook's game); the
#: adversary, announcing the whole sequence before round 1 (``"transductive"``: Ben-David, Kushilevitz and
#: Mansour 1997; Hanneke, Moran and Shafer 2023); the learner, choosing each next instance among those not yet
#: shown (``"self-directed"``: Goldman, Rivest and Schapire 1993; Goldman and Sloan 1994); or nobody during the
#: game: every instance once, in the order fixed in advance that is the most (``"best"``) or the least
#: (``"worst"``) favourable to the learner (Ben-David, Kushilevitz and Mansour 1997).
ORDERS = ("adaptive", "transductive", "self-directed", "best", "worst")

#: How :meth:`Rules.describe` names an order other than the default.
_ORDER_WORDS = {"transductive": "transductive", "self-directed": "self-directed", "best": "best order",
                "worst": "worst order"}


@frozen
class Rules:
    """Which mistake-bound game is played: labels, feedback, noise budget, adaptivity, randomization.

    One immutable value for the axes of the game beyond the textbook's (issue 23); the
    default is the textbook's game, binary labels, full information, a realizable
    adversary that adapts to the learner, and a deterministic learner.

    Parameters
    ----------
    labels : int
        The number of labels ``k >= 2``; a label is an integer in ``0..k-1``.
    feedback : {"full", "bandit"}
        What the learner is shown after its prediction: the label, or only whether it was
        right (Daniely and Helbertal 2013).
    noise : int
        The adversary's budget ``r >= 0``: its labels must agree with some hypothesis of the
        class on all but at most ``r`` rounds (0: realizable).
    adaptive : bool
        Whether the adversary chooses each move after seeing the learner's earlier ones
        (False: it commits to its sequence before the game, an oblivious adversary).
    randomized : bool
        Whether the learner may randomize (its cost is then its expected number of mistakes).
    order : {"adaptive", "transductive", "self-directed", "best", "worst"}
        Who orders the instances (:data:`ORDERS`): the adversary as the game goes (the default,
        the textbook's game), the adversary before round 1, the learner, or a fixed order of
        every instance, the best or the worst for the learner.  Only an order other than the
        default is named by :meth:`describe`.

    Examples
    --------
    >>> Rules().describe()
    '2 labels, full information, realizable, adaptive, deterministic'
    >>> Rules(labels=3, feedback="bandit", noise=1).describe()
    '3 labels, bandit feedback, noise budget 1, adaptive, deterministic'
    >>> Rules(labels=1)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: labels: expected an int >= 2 (the number of labels), got 1
    >>> Rules(order="self-directed").describe()
    '2 labels, full information, realizable, adaptive, deterministic, self-directed'
    >>> Rules(order="any")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: order: expected one of 'adaptive', 'transductive', 'self-directed', 'best', 'worst', got 'any'
    """

    labels: int = field(default=2, converter=lambda v: check_int(
        "labels", v, 2, expected="an int >= 2 (the number of labels)"))
    feedback: str = field(default="full", converter=lambda v: check_choice("feedback", v, FEEDBACKS))
    noise: int = field(default=0, converter=lambda v: check_int(  # no more than a game's rounds (--noise's range)
        "noise", v, 0, MAX_ROUNDS, expected=f"an int from 0 to {MAX_ROUNDS:,} (the mistakes the best hypothesis may "
                                            "make)"))
    adaptive: bool = field(default=True, converter=lambda v: check_flag("adaptive", v))
    randomized: bool = field(default=False, converter=lambda v: check_flag("randomized", v))
    order: str = field(default="adaptive", converter=lambda v: check_choice("order", v, ORDERS))

    @property
    def textbook(self) -> bool:
        """Whether this is the textbook's game (the default: every search of today answers it)."""
        return self == Rules()

    def describe(self) -> str:
        """The settings in words, one per axis."""
        return ", ".join((
            f"{self.labels} labels",
            "full information" if self.feedback == "full" else "bandit feedback",
            "realizable" if self.noise == 0 else f"noise budget {self.noise}",
            "adaptive" if self.adaptive else "oblivious",
            "randomized" if self.randomized else "deterministic",
        ) + ((_ORDER_WORDS[self.order],) if self.order != "adaptive" else ()))

    def record(self) -> dict:
        """The rules as a JSON object holds them: every field, the order only when it is not the default (so that
        a record of today's game reads as it did before orders were rules).

        Examples
        --------
        >>> Rules(noise=1).record()
        {'labels': 2, 'feedback': 'full', 'noise': 1, 'adaptive': True, 'randomized': False}
        >>> Rules(order="best").record()["order"]
        'best'
        """
        fields = {"labels": self.labels, "feedback": self.feedback, "noise": self.noise, "adaptive": self.adaptive,
                  "randomized": self.randomized}
        if self.order != "adaptive":
            fields["order"] = self.order
        return fields


def require_rules(rules: Any) -> Rules:
    """``rules`` if it is a :class:`Rules` value; the one check every search and door that takes rules makes.

    Examples
    --------
    >>> require_rules(Rules(noise=1)).noise
    1
    >>> require_rules({"noise": 1})
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: rules: expected a Rules value, got dict
    """
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules: expected a Rules value, got {type(rules).__name__}")
    return rules



def require_adaptive_order(rules: Rules, what: str) -> Rules:
    """``rules`` when the adversary orders the instances as the game goes (the default order); the check of a
    search or door written for that game alone (``what`` names it), so that it never answers another order's
    game as if it were this one.

    Examples
    --------
    >>> require_adaptive_order(Rules(noise=1), "the worst case").noise
    1
    >>> require_adaptive_order(Rules(order="best"), "the worst case of a learner")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.NotApplicableError: rules: order='best': the worst case of a learner is about the game where the adversary picks each instance as it goes; expected order='adaptive'
    """
    if rules.order != "adaptive":
        raise NotApplicableError(f"rules: order={rules.order!r}: {what} is about the game where the adversary picks "
                                 "each instance as it goes; expected order='adaptive'")
    return rules
