"""The two players' protocols: :class:`Learner` and :class:`Adversary`.

A learner follows the online-learning convention of river: ``predict_one(x)`` returns
a label in {0, 1}, ``learn_one(x, y)`` updates on the revealed label, and a randomized
learner offers ``predict_proba_one(x)``, the probability of label 1, which the engine
turns into a label with the game's generator.  Any object with these methods can play;
subclassing :class:`Learner` adds ``clone()`` and ``snapshot()``.

An adaptive adversary implements ``start``, ``next_instance`` and ``label`` and sees the
:class:`~mistakebound.game.play.GameState` (history, version space, its own generator) and
the learner's prediction of the current round.  An oblivious adversary implements
``commit`` instead and fixes every instance and label before round 1.

Three optional methods make a player known to the rest of the framework:

* ``bound(setting, *, rounds=None, realizable=True, transcript=None)`` (learners): the
  bound the learner claims for a game on ``setting`` (a class or a space), as a
  :class:`~mistakebound.verification.claims.Bound`, or None.  The framework reads it
  only through :func:`~mistakebound.verification.claims.stated_bound` and tests it;
  it never takes it as proven.
* ``forces(setting, *, learner, rounds=None, realizable=True)`` (adversaries): the count
  the adversary claims to force on ``learner``, a lower bound, read through
  :func:`~mistakebound.verification.claims.forced_bound`.
* ``for_setting(setting, *, rounds=None)`` (a classmethod): a fresh player for a game on
  ``setting`` with horizon ``rounds``, raising
  :class:`~mistakebound.foundations.errors.NotApplicableError` where it cannot play.
  Without it, :func:`mistakebound.game.registry.build` passes the class to a
  constructor argument named ``H`` and the horizon to one named ``T``.
* ``version_space_policy(H)`` (learners whose state is their version space): a function
  ``(V, j) -> prediction`` over version-space bitsets, or None, which the worst-case search
  uses as its fast path; with it, the class attribute :attr:`Learner.symmetries` says which
  relabellings of a version space leave the predictions unchanged (see
  :mod:`mistakebound.theory.symmetry`, whose ``symmetry_violations`` and
  ``fast_path_violations`` test both declarations).

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
>>> AlwaysOne().bound(None) is None
True
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
import numpy as np

from mistakebound.game.hypothesis_class import HypothesisClass

__all__ = ["Learner", "Adversary", "ObliviousAdversary", "describe", "is_randomized"]


class Learner:
    """Base class of the learners (optional: any object with the methods can play).

    Subclasses are attrs classes whose ``__init__`` arguments are their
    hyperparameters, so :meth:`clone` can rebuild a fresh, untrained copy.
    """

    #: The relabellings of a version space its predictions ignore: a subset of
    #: ``{"instances", "rows"}`` (see :mod:`mistakebound.theory.symmetry`).  Read only with a
    #: ``version_space_policy``; the default, none, is always safe.
    symmetries: ClassVar[frozenset[str]] = frozenset()

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

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True,
              transcript: Any = None) -> Any:
        """The bound this learner claims for a game on ``setting`` (a ``Bound``), or None.

        See :mod:`mistakebound.verification.claims`; the base class claims nothing.
        """
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

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Any:
        """The count this adversary claims to force on ``learner`` (a ``Bound``), or None.

        See :mod:`mistakebound.verification.claims`; the base class claims nothing.
        """
        return None

    def start(self, state: Any) -> None:
        """Called once before round 1."""

    def next_instance(self, state: Any) -> Any:  # pragma: no cover - interface
        """The instance of round ``state.t``, or None to end the game."""
        raise NotImplementedError

    def label(self, state: Any, x: Any, p: float) -> int:  # pragma: no cover - interface
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
