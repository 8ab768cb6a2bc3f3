"""Conservative: a wrapper that lets a learner update only on its mistakes.

Definition 2 and Lemma 1 of the mistake-bound lecture notes (seed ``001``): an
algorithm is conservative if it changes its hypothesis only after a mistake, and any
learner with mistake bound ``M`` becomes a conservative one with the same bound by
acting as if the rounds it got right had never happened.  The wrapper does exactly
that: on a correct round the wrapped learner's ``learn_one`` is not called.

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.learners.halving import Halving
>>> from mistakebound.adversaries.oblivious_coin import ObliviousCoin
>>> H = classes.thresholds(15)
>>> L = Conservative(Halving(H))
>>> T = play(L, ObliviousCoin(), H, rounds=30, seed=1)
>>> T.mistakes <= L.bound(H).value, L.updates == T.mistakes, L.updates + L.skipped == len(T)
(True, True, True)
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Learner, describe, is_randomized
from mistakebound.learners._setting import not_applicable
from mistakebound.learners.halving import Halving
from mistakebound.verification.claims import Bound, stated_bound

__all__ = ["Conservative"]

#: The lemma behind the wrapper's claim.
SOURCE = "Lemma 1 (mistake-bound lecture notes, seed 001): the wrapped learner's mistake bound M"


def _as_label(value: Any) -> int:
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    try:
        if value == 0 or value == 1:
            return int(value)
    except (TypeError, ValueError):
        pass
    raise InvalidArgumentError(f"predict_one returned {value!r}; expected a label 0 or 1")


@define
class Conservative(Learner):
    """Forwards predictions to ``learner`` and its ``learn_one`` only on mistake rounds.

    ``predict_one(x)`` asks the wrapped learner and remembers the answer; in
    ``learn_one(x, y)`` the wrapped learner learns ``(x, y)`` only if that answer was
    wrong (if ``learn_one`` comes for another instance than the last prediction, it
    asks the wrapped learner again).  The wrapped learner thus sees only the
    subsequence of its mistake rounds, and on that subsequence it errs every time, so
    the wrapper errs at most as often as the wrapped learner's bound allows (Lemma 1,
    seed 001): :meth:`bound` is the wrapped learner's claim.

    The construction needs a deterministic learner: whether a round is a mistake must
    be a function of the learner's state and the instance.  A randomized learner's
    mistake is decided by the engine's coin, which the learner never sees, so a
    learner offering ``predict_proba_one`` is refused.

    Parameters
    ----------
    learner
        A deterministic learner (``predict_one`` and ``learn_one``, no
        ``predict_proba_one``).

    Attributes
    ----------
    updates, skipped : int
        The rounds passed to the wrapped learner (its mistakes) and those withheld.

    Raises
    ------
    InvalidArgumentError
        If ``learner`` lacks ``predict_one`` or ``learn_one``, or is randomized.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners.soa import SOA
    >>> L = Conservative(SOA(classes.singletons(4)))
    >>> L.predict_one(1)
    0
    >>> L.learn_one(1, 0)              # correct: SOA is not told
    >>> L.updates, L.skipped
    (0, 1)
    """

    learner: Any
    updates: int = field(init=False, default=0)
    skipped: int = field(init=False, default=0)
    _last: tuple | None = field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        name = type(self.learner).__name__
        if is_randomized(self.learner):
            raise InvalidArgumentError(
                f"learner: {name} is randomized (it has predict_proba_one); a conservative wrapper needs a "
                "deterministic learner, since a randomized learner's mistakes depend on coins it never sees"
            )
        for method in ("predict_one", "learn_one"):
            if not callable(getattr(self.learner, method, None)):
                raise InvalidArgumentError(f"learner: {name} has no {method} method")

    def predict_one(self, x: Any) -> int:
        p = _as_label(self.learner.predict_one(x))
        self._last = (x, p)
        return p

    def learn_one(self, x: Any, y: Any) -> None:
        last = self._last
        self._last = None
        if last is not None and last[0] is x:
            p = last[1]
        else:
            p = _as_label(self.learner.predict_one(x))
        if p != int(y):
            self.updates += 1
            self.learner.learn_one(x, y)
        else:
            self.skipped += 1

    def clone(self) -> Conservative:
        """A fresh wrapper around a fresh copy of the wrapped learner (its ``clone()``, else a deep copy)."""
        inner = self.learner
        fresh = inner.clone() if callable(getattr(inner, "clone", None)) else copy.deepcopy(inner)
        return Conservative(fresh)

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None) -> Conservative:
        """``Conservative(Halving(H))`` for a game on the finite class ``H``.

        Halving is the default inner learner: deterministic, and not conservative
        itself (it narrows its version space on every round), so the wrapper changes
        what it does.  The zoo's learners of the other label settings (the Perceptron,
        Winnow, elimination) already update only on mistakes, where the wrapper would
        change nothing; there it is not offered.

        Raises
        ------
        NotApplicableError
            If ``setting`` is not a :class:`~mistakebound.HypothesisClass`.

        Examples
        --------
        >>> from mistakebound import classes
        >>> Conservative.for_setting(classes.thresholds(3))
        Conservative(Halving)
        """
        if not isinstance(setting, HypothesisClass):
            raise not_applicable(
                cls.__name__, setting,
                "finite classes by default (around Halving); elsewhere wrap a learner yourself: Conservative(learner)",
            )
        return cls(Halving(setting))

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Bound:
        """The wrapped learner's claim for a realizable game on ``setting`` (Lemma 1, seed 001).

        The wrapped learner plays the subsequence of the wrapper's mistake rounds, a
        realizable game of its own, and errs on every round of it; so the wrapper errs
        at most as often as the wrapped learner's claim for that game allows.  The claim
        is asked through :func:`~mistakebound.verification.claims.stated_bound` without
        the transcript (the wrapped learner's game is not the wrapper's).

        Returns
        -------
        Bound
            On ``"mistakes"``; none with the reason in an unrealizable game or when the
            wrapped learner states no mistake bound.

        Examples
        --------
        >>> from mistakebound import classes
        >>> from mistakebound.learners.soa import SOA
        >>> H = classes.thresholds(7)
        >>> Conservative(SOA(H)).bound(H).describe()
        '3 on mistakes (Lemma 1 (mistake-bound lecture notes, seed 001) with Lemma 21.7 (textbook ch. 21): M <= Ldim(H))'
        >>> Conservative(SOA(H)).bound(H, realizable=False).reason
        'Lemma 1 (seed 001) keeps a mistake bound of realizable games; this game is not realizable'
        """
        if not realizable:
            return Bound.none("Lemma 1 (seed 001) keeps a mistake bound of realizable games; this game is not realizable")
        inner = stated_bound(self.learner, setting, rounds=rounds, realizable=True)
        name = type(self.learner).__name__
        if inner.value is None:
            return Bound.none(f"the wrapped {name} states no bound: {inner.reason}")
        if inner.measure != "mistakes":
            return Bound.none(f"the wrapped {name} bounds {inner.measure}, not mistakes; Lemma 1 (seed 001) "
                              "needs a mistake bound")
        source = f"Lemma 1 (mistake-bound lecture notes, seed 001) with {inner.source}" if inner.source else SOURCE
        return Bound(inner.value, "mistakes", source, inner.assumptions)

    def __repr__(self) -> str:
        return f"Conservative({describe(self.learner)})"
