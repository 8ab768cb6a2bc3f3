"""The Setting protocol: where a game is played, what its referee checks, and how its totals fold.

Every place a game can be played is a :class:`Setting`: a finite
:class:`~mistakebound.game.hypothesis_class.HypothesisClass` (the engine tracks the
version space exactly), a space of :mod:`mistakebound.game.spaces` (halfspaces,
k-disjunctions, expert advice: realizability certified by the adversary's witness), and
an :class:`~mistakebound.game.oco.OCOSetting` (online convex optimisation: points and
losses, no labels).  The referee (:func:`~mistakebound.game.play.play`) and the front
ends ask the setting, never its type:

====================== ======================================================================
``describe()``         its short text (``thresholds(7)``, ``experts(d=4)``, ``oco(d=2)``)
``labelled``           whether moves are instances, predictions and labels (the mistake-bound
                       game); False for online convex optimisation (points and losses)
``labels``             the labels a move may carry (:data:`~mistakebound.game.rules.LABELS`)
``read_label(v)``      ``v`` as one of ``labels``, or None: how the referee reads a label and a
                       deterministic prediction (:func:`~mistakebound.game.rules.as_label`)
``mistake_cost(p, y)`` what a round costs the learner (:func:`~mistakebound.game.rules.mistake_cost`)
``finite``             whether the referee tracks the version space exactly (a finite class:
                       exact searches, worst cases, version spaces printed by name)
``hindsight``          whether the loss of the best hypothesis over any rounds is defined
                       (the regret of an unrealizable game), and ``hindsight_curve(xs, ys)``
                       that loss round by round over labelled rounds
``referee(...)``       a fresh :class:`Referee` for one game: what it checks, what it folds
====================== ======================================================================

A :class:`Referee` checks one game: each instance (:meth:`Referee.instance`: illegal ones
refused with the reason), each label against the class or the adversary's certificate
(:meth:`Referee.round_error`), the rounds it applies (:meth:`Referee.update`); it gives the
fields of the transcript it knows about (:meth:`Referee.finish`), and, in a game that
keeps only its totals, folds blocks of rounds into them (:meth:`Referee.fold`) and gives
the same fields from them (:meth:`Referee.folded`).  What a prediction and a label are,
and what a mistake costs, are the same in every setting: :mod:`mistakebound.game.rules`.

The game's other settings (issue 23) are values of the same protocol: ``labels`` becomes
``range(k)`` (and :mod:`~mistakebound.game.rules` reads a label below ``k``, a randomized
prediction as a distribution, the cost as ``1 - p[y]``); the referee's ``realizable``
flag becomes the noise budget ``r`` (0: realizable; today's unrealizable game: no
budget), which a finite class's referee keeps per hypothesis instead of the version
space; bandit feedback is what the referee shows the learner (``learn_one`` then gets
whether it erred, and the transcript records what each side saw); an oblivious
adversary is already the adversary's declared kind (``oblivious = True``: the referee
checks its committed sequence in bulk, :meth:`Referee.instances` and
:meth:`Referee.sure_labels`); a randomized learner is the learner's
(:func:`~mistakebound.game.players.is_randomized`), read by
:func:`~mistakebound.game.rules.as_prediction`.

Examples
--------
>>> from mistakebound.game import classes
>>> from mistakebound.game.spaces import ExpertAdvice
>>> from mistakebound.game.oco import OCOSetting
>>> [(S.describe(), S.labelled, S.finite, S.hindsight)
...  for S in (classes.thresholds(3), ExpertAdvice(2), OCOSetting(2))]
[('thresholds(3)', True, True, True), ('experts(d=2)', True, False, True), ('oco(d=2)', False, False, True)]
>>> referee = classes.thresholds(3).referee(realizable=True)
>>> referee.instance(2), referee.round_error(1, 2, 1)
((2, 2), None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.rules import LABELS, as_label, mistake_cost

__all__ = ["Setting", "Referee"]


class Setting:
    """Where a game is played: the protocol the referee and the front ends ask (see the module docstring).

    Subclasses set the class attributes that differ and implement :meth:`describe` and,
    when ``labelled``, :meth:`referee`.
    """

    __slots__ = ()

    #: Whether moves are instances, predictions and labels (False: online convex optimisation).
    labelled: ClassVar[bool] = True
    #: The labels a move may carry.
    labels: ClassVar[tuple] = LABELS
    #: Whether the referee tracks the version space exactly (a finite class).
    finite: ClassVar[bool] = False
    #: Whether the loss of the best hypothesis over any rounds is defined (the regret of an unrealizable game).
    hindsight: ClassVar[bool] = False

    def describe(self) -> str:  # pragma: no cover - interface
        """The setting's short text, on one line."""
        raise NotImplementedError

    def read_label(self, value: Any) -> int | None:
        """``value`` as one of :attr:`labels`, or None when it is none of them.

        The referee reads every label and every deterministic prediction through this
        (an ``int`` already in :attr:`labels` without the call).  The default is
        :func:`~mistakebound.game.rules.as_label` kept to :attr:`labels`; a setting
        with other labels overrides it.

        Examples
        --------
        >>> from mistakebound.game import classes
        >>> H = classes.thresholds(3)
        >>> H.read_label(1.0), H.read_label(True), H.read_label(2), H.read_label("0")
        (1, 1, None, None)
        """
        labels = self.labels
        y = as_label(value, labels)
        return y if y in labels else None

    def mistake_cost(self, p: int | float, y: int) -> int | float:
        """What a round costs the learner that predicted ``p`` (a label, or a randomized learner's
        probability of label 1) when the label is ``y``: :func:`~mistakebound.game.rules.mistake_cost`.

        Examples
        --------
        >>> from mistakebound.game import classes
        >>> classes.thresholds(3).mistake_cost(1, 0), classes.thresholds(3).mistake_cost(0.25, 1)
        (1, 0.75)
        """
        return mistake_cost(p, y)

    def hindsight_curve(self, xs: Sequence, ys: Sequence[int]) -> Any:
        """The loss of the best hypothesis over the first ``t`` rounds, ``t = 0, 1, ..., len(ys)``.

        Defined where :attr:`hindsight` and :attr:`labelled` both hold (a finite class: the
        fewest mistakes of a row; expert advice: the smallest loss of an expert); other
        settings refuse.  An online convex optimisation game has a best fixed point in
        hindsight but no labelled rounds: its transcript answers its regret curve
        (:meth:`~mistakebound.game.oco.OCOTranscript.cumulative_curve`).

        Parameters
        ----------
        xs : sequence
            The rounds' instances, in order.
        ys : sequence of int
            The rounds' labels.

        Returns
        -------
        numpy.ndarray
            ``len(ys) + 1`` floats, starting at 0.

        Raises
        ------
        InvalidArgumentError
            If the setting has no best hypothesis in hindsight over labelled rounds.

        Examples
        --------
        >>> from mistakebound.game import classes
        >>> from mistakebound.game.spaces import LinearSpace
        >>> classes.thresholds(2).hindsight_curve([1, 2, 1], [1, 0, 0]).tolist()
        [0.0, 0.0, 0.0, 1.0]
        >>> LinearSpace(2).hindsight_curve([(1.0, 0.0)], [1])
        Traceback (most recent call last):
        ...
        mistakebound.foundations.errors.InvalidArgumentError: H: the regret curve needs the finite class or the expert advice of the game, got halfspaces(d=2)
        """
        raise InvalidArgumentError(
            f"H: the regret curve needs the finite class or the expert advice of the game, got {self.describe()}"
        )

    def referee(self, realizable: bool, *, totals: bool = False) -> Referee:  # pragma: no cover - interface
        """A fresh referee for one game.

        Parameters
        ----------
        realizable : bool
            Whether labels must stay consistent with some hypothesis.
        totals : bool
            Whether the game keeps only its totals: the referee then keeps what
            :meth:`Referee.folded` needs (a finite class's counts per instance and label).
        """
        raise NotImplementedError


class Referee:
    """Checks one game on a setting.  Subclasses override what they need.

    Examples
    --------
    >>> from mistakebound.game.spaces import ExpertAdvice
    >>> r = ExpertAdvice(2).referee(realizable=False)
    >>> r.fold([(0.0, 1.0), (1.0, 1.0)], [1, 1])
    >>> r.folded(2)
    {'best_hypothesis_mistakes': 0.0}
    """

    #: Whether a realizable game needs the adversary's certificate.
    needs_certificate: bool = False

    def __init__(self, realizable: bool, space: Any = None):
        self.realizable = realizable
        self.space = space
        self.certificate: Any = None

    def instance(self, x: Any) -> tuple[Any, Any]:
        """``(stored, shown)`` forms of ``x``; raises ValueError with a reason if illegal."""
        return self.space.instance(x)

    def commit(self, certificate: Any) -> None:
        """Accept the adversary's certificate (validated); None means 'not yet'."""
        self.certificate = certificate

    def instances(self, xs: Sequence) -> tuple[list, list]:
        """``(stored, shown)`` forms of the longest prefix of ``xs`` whose instances are legal.

        The engine calls this once with the instances an oblivious adversary committed
        to; the first instance past the prefix then goes through :meth:`instance` in its
        round, which raises the error.  Subclasses may check in bulk, but must accept
        exactly the instances :meth:`instance` accepts, with the same forms.
        """
        stored, shown = [], []
        for x in xs:
            try:
                s, v = self.instance(x)
            except Exception:  # noqa: BLE001 - raised again, in its round, by instance()
                break
            stored.append(s)
            shown.append(v)
        return stored, shown

    def sure_labels(self, shown: Sequence, ys: Sequence[int]) -> Sequence[bool] | None:
        """Per round, True when label ``ys[i]`` of ``shown[i]`` is legal whatever the rounds before it.

        Called once with an oblivious adversary's committed rounds (after
        :meth:`commit`); :meth:`round_error` is skipped on the rounds marked True, and
        still decides every other round.  None (the default) marks none.
        """
        return None

    def round_error(self, t: int, x: Any, y: int) -> str | None:
        """Why label ``y`` of stored instance ``x`` is illegal in round ``t``, or None."""
        return None

    def first_error(self, rounds: Sequence) -> tuple[int, str] | None:
        """``(t, why)`` for the first of ``rounds`` whose label :meth:`round_error` refuses, or None."""
        for r in rounds:
            problem = self.round_error(r.t, r.x, r.y)
            if problem is not None:
                return r.t, problem
        return None

    def update(self, x: Any, y: int) -> None:
        """Record a legal round."""

    def finish(self, rounds: Sequence) -> dict:
        """Fields of the transcript this referee knows about, from every round of the game."""
        return {}

    def fold(self, xs: Sequence, ys: Sequence[int]) -> None:
        """Fold a block of rounds (stored instances, labels) into the totals :meth:`folded` reads.

        A game that keeps only its totals (``play(..., keep="totals")``) calls this with
        its rounds in order, in blocks; the rounds are then dropped.
        """

    def folded(self, n: int) -> dict:
        """:meth:`finish`'s fields for the ``n`` rounds folded so far: equal to those from the rounds themselves."""
        return {}
