"""The two players' interfaces: :class:`Learner` and :class:`Adversary`.

A learner follows the online-learning convention of river: ``predict_one(x)`` returns
a label in {0, 1}, ``learn_one(x, y)`` updates on the revealed label, and a randomized
learner offers ``predict_proba_one(x)``, the probability of label 1, which the engine
turns into a label with the game's generator.  Any object with these methods can play;
subclassing :class:`Learner` adds ``clone()`` and a place to state a proven bound.

An adaptive adversary implements ``start``, ``next_instance`` and ``label`` and sees the
:class:`~mistakebound.game.play.GameState` (history, version space, its own generator) and
the learner's prediction of the current round.  An oblivious adversary implements
``commit`` instead and fixes every instance and label before round 1.

Examples
--------
>>> from attrs import define
>>> @define
... class AlwaysOne(Learner):
...     def predict_one(self, x):
...         return 1
...     def learn_one(self, x, y):
...         pass
>>> AlwaysOne().clone()
AlwaysOne()
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from mistakebound.game.play import GameState
    from mistakebound.game.hypothesis_class import HypothesisClass

__all__ = ["Learner", "Adversary", "ObliviousAdversary", "describe", "is_randomized"]


class Learner:
    """Base class of the learners (optional: any object with the methods can play).

    Subclasses are attrs classes whose ``__init__`` arguments are their
    hyperparameters, so :meth:`clone` can rebuild a fresh, untrained copy.
    """

    #: Citation of the theorem behind :meth:`mistake_bound`.
    bound_source: ClassVar[str] = ""

    def predict_one(self, x: Any) -> int:  # pragma: no cover - interface
        """The predicted label of ``x`` (0 or 1)."""
        raise NotImplementedError

    def learn_one(self, x: Any, y: int) -> None:  # pragma: no cover - interface
        """Update on the revealed label ``y`` of ``x``."""
        raise NotImplementedError

    def clone(self) -> Learner:
        """A fresh learner with the same hyperparameters and no learned state."""
        params = {a.name.lstrip("_"): getattr(self, a.name) for a in attrs.fields(type(self)) if a.init}
        return type(self)(**params)

    def snapshot(self) -> Learner:
        """A copy of this learner in its current state (used by searches to branch)."""
        return copy.deepcopy(self)

    @classmethod
    def mistake_bound(cls, H: HypothesisClass) -> float | None:
        """The proven mistake bound of this learner on ``H`` in realizable games (None if none)."""
        return None


class Adversary:
    """Base class of adaptive adversaries.

    Subclasses take only their own parameters in ``__init__``; the class arrives with
    the game state in :meth:`start`.
    """

    #: Oblivious adversaries fix the whole game before round 1 (see ObliviousAdversary).
    oblivious: ClassVar[bool] = False

    def applies_to(self, H: HypothesisClass) -> bool:
        """Whether this adversary can play on ``H`` (default: everywhere; override to restrict)."""
        return True

    def start(self, state: GameState) -> None:
        """Called once before round 1."""

    def next_instance(self, state: GameState) -> Any:  # pragma: no cover - interface
        """The instance of round ``state.t``, or None to end the game."""
        raise NotImplementedError

    def label(self, state: GameState, x: Any, p: float) -> int:  # pragma: no cover - interface
        """The true label of ``x``, knowing the learner predicted 1 with probability ``p``."""
        raise NotImplementedError


class ObliviousAdversary(Adversary):
    """An adversary that commits to its whole sequence before round 1 and sees nothing."""

    oblivious: ClassVar[bool] = True

    def commit(
        self, H: HypothesisClass, rounds: int, rng: np.random.Generator, realizable: bool
    ) -> Sequence[tuple[Any, int]]:  # pragma: no cover - interface
        """The pairs ``(x_t, y_t)`` for ``t = 1 .. len``, at most ``rounds`` of them."""
        raise NotImplementedError


def is_randomized(learner: Any) -> bool:
    """Whether the engine treats ``learner`` as randomized (it has ``predict_proba_one``)."""
    return callable(getattr(learner, "predict_proba_one", None))


def describe(player: Any) -> str:
    """A short description of a player: its type and its non-class parameters.

    Examples
    --------
    >>> from mistakebound.adversaries import ObliviousCoin
    >>> describe(ObliviousCoin(labels="coin"))
    "ObliviousCoin(labels='coin')"
    """
    from mistakebound.game.hypothesis_class import HypothesisClass

    name = type(player).__name__
    if not attrs.has(type(player)):
        return name
    parts = []
    for a in attrs.fields(type(player)):
        if not a.init or not a.repr:
            continue
        value = getattr(player, a.name)
        if isinstance(value, HypothesisClass) or value is None or (a.default is not attrs.NOTHING and _same(value, a.default)):
            continue
        shown = a.repr(value) if callable(a.repr) else repr(value)
        parts.append(f"{a.name.lstrip('_')}={shown}")
    return f"{name}({', '.join(parts)})" if parts else name


def _same(value: Any, default: Any) -> bool:
    try:
        return bool(value == default)
    except Exception:  # noqa: BLE001 - arrays and odd types compare ambiguously
        return False
