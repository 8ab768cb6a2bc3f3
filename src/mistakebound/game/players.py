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
  uses as its fast path, and whose presence declares to the referee that the learner's state is its
  version space (:func:`follows_version_space`); with it, the class attribute :attr:`Learner.symmetries` says which
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
import inspect
from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
import numpy as np

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.text import printable
from mistakebound.game.hypothesis_class import HypothesisClass

__all__ = ["Learner", "Adversary", "ObliviousAdversary", "describe", "is_randomized", "hyperparameters", "rebuild",
           "snapshot_of", "state_key_hint", "keeps_methods", "follows_version_space"]


def snapshot_of(learner: Any) -> Any:
    """A copy of ``learner`` in its current state: its ``snapshot()`` where it has one, else a deep copy.

    How searches and adversaries branch a learner's game without touching the learner itself.

    Examples
    --------
    >>> class Counter:
    ...     def __init__(self): self.n = 0
    >>> c = Counter(); d = snapshot_of(c); d.n += 1
    >>> c.n, d.n
    (0, 1)
    """
    take = getattr(learner, "snapshot", None)
    return take() if callable(take) else copy.deepcopy(learner)


class Learner:
    """Base class of the learners (optional: any object with the methods can play).

    The protocol: ``predict_one(x)`` returns a label 0 or 1 (or define
    ``predict_proba_one(x)``, the probability of label 1, and the engine draws the label with
    the game's generator); ``learn_one(x, y)`` updates on the true label.  The engine calls
    them in that order once per round, with ``x`` an instance of the game's class (a
    read-only array on a space) and ``y`` in {0, 1} (in a realizable game, the label of a
    hypothesis consistent with every round so far); a learner that returns anything else,
    or raises, ends the game with a :class:`~mistakebound.foundations.errors.GameError`
    naming the round.

    The ``__init__`` arguments are the hyperparameters, each kept under its own name
    (``self.H = H``; an attrs class does this by itself), and everything learned is set in
    ``__init__`` from them: :meth:`clone` then rebuilds a fresh, untrained copy
    (:func:`rebuild`).  Optional methods, looked up by name, each used where it is present:

    * ``bound(setting, *, rounds=None, realizable=True, transcript=None)``: the claim the
      checks (:func:`~mistakebound.verification.checks.check_learner`), ``mistakebound
      check`` and every verdict test; the base class claims nothing.
    * ``state_key()``: a hashable summary of the learned state, equal for two states
      exactly when they predict alike from then on.  The exact worst-case search
      (:func:`~mistakebound.theory.worst_case.worst_case_mistakes`) merges positions by it
      and needs it to end without a ``horizon``; ``check_learner`` cuts its search at the
      claim plus two rounds without it.  :func:`state_key_hint` writes one for a learner.
    * ``snapshot()``: a copy in the current state, which the worst-case search branches
      from; the default deep-copies, so override it only to share what never changes
      (a large table, say) between copies.
    * ``version_space_policy(H)`` and :attr:`symmetries`: the search's fast path for a
      learner whose state is its version space (see :mod:`mistakebound.theory.symmetry`).
      Defining the method declares that state (:func:`follows_version_space`), which the
      referee trusts too: against an oblivious adversary it asks ``predict_one`` once per
      instance between two rounds that narrow the version space, and tells ``learn_one`` only
      those rounds (:func:`~mistakebound.game.play.play`).
    * ``for_setting(setting, *, rounds=None)`` (a classmethod): how the registry builds the
      learner for a setting (see the module docstring).

    Examples
    --------
    >>> class Vote(Learner):  # a plain class; attrs is not needed
    ...     def __init__(self, H):
    ...         self.H = H
    ...         self.alive = H.full_mask
    ...     def predict_one(self, x):
    ...         ones = (self.alive & self.H.column_masks[self.H.index_of(x)]).bit_count()
    ...         return int(2 * ones >= self.alive.bit_count())
    ...     def learn_one(self, x, y):
    ...         col = self.H.column_masks[self.H.index_of(x)]
    ...         self.alive &= col if y else ~col
    ...     def state_key(self):
    ...         return self.alive
    >>> from mistakebound import classes
    >>> L = Vote(classes.thresholds(3))
    >>> L.learn_one(1, 1)
    >>> L.alive, L.clone().alive
    (14, 15)
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
        """A fresh learner with the same hyperparameters and no learned state (:func:`rebuild`)."""
        return rebuild(self)

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


def _attrs_init(cls: type) -> bool:
    """Whether ``cls`` is built by the ``__init__`` attrs wrote (not a plain subclass's own)."""
    owner = next(k for k in cls.__mro__ if "__init__" in k.__dict__)
    return "__attrs_attrs__" in owner.__dict__


def hyperparameters(player: Any) -> dict[str, Any]:
    """The arguments of ``type(player)(...)`` that rebuild ``player`` fresh: its ``__init__`` parameters.

    river's convention: the hyperparameters are the ``__init__`` arguments, and each is kept
    on the object under its own name.  An attrs class maps each ``__init__`` argument to its
    field (``_rate`` for an argument ``rate``); any other class (a plain subclass of an attrs
    class with an ``__init__`` of its own included) is read by the names of its
    ``__init__`` signature, ``getattr(player, name)``.  Learned state (attrs
    ``field(init=False)``, or attributes that are no ``__init__`` argument) is left out.

    Parameters
    ----------
    player
        A learner, an adversary or any object built by its type's ``__init__``.

    Returns
    -------
    dict
        ``{argument name: current value}``, in the signature's order.

    Raises
    ------
    InvalidArgumentError
        When the ``__init__`` takes ``*args`` or ``**kwargs``, or takes an argument the
        object keeps under no attribute of the same name (a hidden hyperparameter).

    Examples
    --------
    >>> class Vote:
    ...     def __init__(self, H, tie=1):
    ...         self.H, self.tie = H, tie
    ...         self.alive = None  # learned state: no __init__ argument
    >>> hyperparameters(Vote("H", tie=0))
    {'H': 'H', 'tie': 0}
    >>> class Hidden:
    ...     def __init__(self, rate):
    ...         self._rate = rate
    >>> hyperparameters(Hidden(0.5))
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: Hidden: __init__ takes 'rate' but the object has no attribute 'rate'; expected every __init__ argument stored under its own name (self.rate = rate) so that clone() can rebuild it
    """
    cls = type(player)
    if attrs.has(cls) and _attrs_init(cls):
        return {a.alias: getattr(player, a.name) for a in attrs.fields(cls) if a.init}
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(f"{cls.__name__}: its __init__ signature cannot be read ({exc}); "
                                   "expected named __init__ arguments, one per hyperparameter") from None
    found = {}
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            star = "*" if p.kind is p.VAR_POSITIONAL else "**"
            raise InvalidArgumentError(
                f"{cls.__name__}: __init__ takes {star}{p.name}, which clone() cannot read back; expected "
                "named __init__ arguments, one per hyperparameter, each stored under its own name")
        if not hasattr(player, p.name):
            raise InvalidArgumentError(
                f"{cls.__name__}: __init__ takes {p.name!r} but the object has no attribute {p.name!r}; expected "
                f"every __init__ argument stored under its own name (self.{p.name} = {p.name}) so that clone() "
                "can rebuild it")
        found[p.name] = getattr(player, p.name)
    return found


def rebuild(player: Any, **changes: Any) -> Any:
    """A fresh copy of ``player``: ``type(player)(**hyperparameters(player), **changes)``.

    The one way the framework clones a player (:meth:`Learner.clone`, ``OCOLearner.clone``,
    the checks rebuilding a learner on another class with ``rebuild(learner, H=H)``, the
    registry applying named parameters): attrs classes and plain classes alike.  The
    values are passed as they are (a hypothesis class is shared, never copied).

    Raises
    ------
    InvalidArgumentError
        For a hidden hyperparameter (see :func:`hyperparameters`) or a change naming no
        ``__init__`` argument.

    Examples
    --------
    >>> class Vote:
    ...     def __init__(self, H, tie=1):
    ...         self.H, self.tie = H, tie
    ...         self.alive = None  # learned state
    >>> trained = Vote("H", tie=0)
    >>> trained.alive = [2]
    >>> v = rebuild(trained, tie=1)
    >>> (v.H, v.tie, v.alive)
    ('H', 1, None)
    >>> rebuild(Vote("H"), ties=0)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: ties: Vote's __init__ takes no argument 'ties'; expected one of ['H', 'tie']
    """
    params = hyperparameters(player)
    unknown = [name for name in changes if name not in params]
    if unknown:
        raise InvalidArgumentError(
            f"{unknown[0]}: {type(player).__name__}'s __init__ takes no argument {unknown[0]!r}; "
            f"expected one of {list(params)}")
    return type(player)(**{**params, **changes})


def _learned_attributes(learner: Any) -> list[str]:
    """The names of the attributes of ``learner`` that are no ``__init__`` argument: its learned state."""
    cls = type(learner)
    try:
        taken = set(hyperparameters(learner))
    except InvalidArgumentError:
        taken = set()
    names = [a.name for a in attrs.fields(cls) if a.alias not in taken or not a.init] if attrs.has(cls) else []
    names += [n for n in getattr(learner, "__dict__", {}) if n not in names]
    return [n for n in names if n not in taken and not n.startswith("__")]


def _hashable_expr(name: str, value: Any) -> str:
    """A hashable expression of ``self.<name>`` for a state key."""
    if isinstance(value, np.ndarray):
        return f"self.{name}.tobytes()"
    if isinstance(value, (list, tuple)):
        return f"tuple(self.{name})"
    if isinstance(value, (set, frozenset)):
        return f"frozenset(self.{name})"
    if isinstance(value, dict):
        return f"tuple(sorted(self.{name}.items()))"
    return f"self.{name}"


def state_key_hint(learner: Any) -> str:
    """The ``state_key`` method to add to ``learner``'s class: its learned attributes, as a hashable tuple.

    Read from the learner as it is: its attributes that are no ``__init__`` argument
    (:func:`hyperparameters`), each made hashable (a list as a tuple, an array as its
    bytes).  It is a starting point: the key must be equal for two states exactly when they
    predict alike from then on, which only the author can vouch for.

    Examples
    --------
    >>> class Vote:
    ...     def __init__(self, H):
    ...         self.H = H
    ...         self.alive = [0, 1, 2]
    >>> state_key_hint(Vote("H"))
    'def state_key(self): return (tuple(self.alive),)'
    """
    parts = [_hashable_expr(n, getattr(learner, n, None)) for n in _learned_attributes(learner)]
    body = "None  # no learned state: every position is the same state" if not parts else \
        "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    return f"def state_key(self): return {body}"


def is_randomized(learner: Any) -> bool:
    """Whether the engine treats ``learner`` as randomized (it has ``predict_proba_one``)."""
    return callable(getattr(learner, "predict_proba_one", None))


def keeps_methods(learner: Any, base: type,
                  names: tuple[str, ...] = ("predict_one", "learn_one", "state_key", "snapshot")) -> bool:
    """Whether ``learner``'s class uses ``base``'s own ``names`` (a name neither has counts as kept): a
    declaration written for ``base`` describes a subclass only if the subclass changed none of them (how it
    predicts, learns or keeps its state).

    Examples
    --------
    >>> class Base:
    ...     def predict_one(self, x): return 1
    >>> class Other(Base):
    ...     def predict_one(self, x): return 0
    >>> keeps_methods(Base(), Base, ("predict_one",)), keeps_methods(Other(), Base, ("predict_one",))
    (True, False)
    """
    kind = type(learner)
    return all(getattr(kind, name, None) is getattr(base, name, None) for name in names)


#: The methods a class's declaration that the learner's state is its version space covers.
_STATE_METHODS = ("predict_one", "predict_proba_one", "learn_one", "state_key", "snapshot")


def follows_version_space(learner: Any, H: Any) -> bool:
    """Whether ``learner``, about to play on the finite class ``H``, declares that its state is its version space.

    The declaration is a ``version_space_policy`` method (see :class:`Learner`): its predictions are
    a function of the hypotheses of ``H`` consistent with the rounds it has learned, so a round
    that every one of them labels alike changes nothing.  It holds for the class that defines the
    method, and for a subclass only when the subclass kept that class's ``predict_one``,
    ``predict_proba_one``, ``learn_one``, ``state_key`` and ``snapshot``; the learner must play on
    its own class (``learner.H`` is ``H``) and have learned nothing yet (``state_key()`` is the
    bitset of every row of ``H``: a learner keyed otherwise, such as SOA over its distinct rows,
    is not trusted).  No policy is built (that can cost the class's bitsets).  The referee
    (:func:`~mistakebound.game.play.play`) then asks ``predict_one`` once per instance between two
    rounds that shrink the version space, and tells ``learn_one`` only those rounds.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Halving, Perceptron
    >>> H = classes.thresholds(3)
    >>> follows_version_space(Halving(H), H), follows_version_space(Perceptron(), H)
    (True, False)
    >>> class Contrarian(Halving):
    ...     def predict_one(self, x):
    ...         return 1 - super().predict_one(x)
    >>> follows_version_space(Contrarian(H), H), follows_version_space(Halving(H), classes.thresholds(4))
    (False, False)
    """
    owner = next((c for c in type(learner).__mro__ if "version_space_policy" in vars(c)), None)
    if owner is None or not callable(vars(owner)["version_space_policy"]):
        return False
    if not keeps_methods(learner, owner, _STATE_METHODS):
        return False
    mine = getattr(learner, "H", None)
    if mine is not H and (type(mine) is not type(H) or mine != H):
        return False
    state_key = getattr(learner, "state_key", None)
    return callable(state_key) and state_key() == H.full_mask


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
        return printable(name)
    parts = []
    for a in attrs.fields(type(player)):
        if not a.init or not a.repr:
            continue
        value = getattr(player, a.name)
        if isinstance(value, HypothesisClass) or value is None or (a.default is not attrs.NOTHING and _same(value, a.default)):
            continue
        shown = a.repr(value) if callable(a.repr) else repr(value)
        parts.append(f"{a.name.lstrip('_')}={shown}")
    return printable(f"{name}({', '.join(parts)})" if parts else name)


def _same(value: Any, default: Any) -> bool:
    try:
        return bool(value == default)
    except Exception:  # noqa: BLE001 - arrays and odd types compare ambiguously
        return False
