"""Players by name: the learners and adversaries the command line can put on a finite class.

:data:`LEARNERS` and :data:`ADVERSARIES` map a name to a :class:`Factory`, a callable
that builds a fresh player for a class and a horizon: ``LEARNERS["Halving"](H)``.  A
factory names its player's class by import path and imports it only when called, so
listing the names (``mistakebound --help``) imports nothing and a module that fails to
import breaks only its own entry.  Registering a new learner is one line in the tuple
that builds :data:`LEARNERS`::

    Factory("Winnow", "mistakebound.learners.winnow:Winnow", args="", domain="vectors",
            summary="multiplicative updates for k-disjunctions"),

``args`` says what the constructor takes: ``"H"`` the class, ``"H,T"`` the class and
the horizon (learners tuned for ``T`` rounds), ``""`` nothing.  ``domain="vectors"``
restricts the entry to classes whose instances are numeric tuples.  The
:class:`~mistakebound.theory.worst_case.MinimaxAdversary` is not here: it replays a strategy
that ``worst_case_mistakes`` computes for one learner (``mistakebound worst-case``).

Names are looked up ignoring case, ``-`` and ``_`` (``opposite-label`` finds
``OppositeLabel``); an unknown name raises
:class:`~mistakebound.foundations.errors.InvalidArgumentError` with the closest names and the list
of known ones.

Examples
--------
>>> from mistakebound import classes, play
>>> H = classes.thresholds(15)
>>> learner = get_learner("halving")(H)
>>> adversary = get_adversary("binary-search-threshold")(H)
>>> play(learner, adversary, H, rounds=20, seed=0).mistakes
4
>>> get_learner("Halving").bound(H)
Bound(value=4.0, measure='mistakes', source='Theorem 21.3 (textbook ch. 21): M <= log2 |H|')
>>> get_learner("halvng")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mistakebound.foundations.errors.InvalidArgumentError: learner: unknown name 'halvng'; did you mean 'Halving'? known learners: ...
"""

from __future__ import annotations

import difflib
import importlib
import math
import numbers
from typing import Any

from attrs import field, frozen
from attrs.validators import in_

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError

__all__ = [
    "Bound",
    "Factory",
    "LEARNERS",
    "ADVERSARIES",
    "get_learner",
    "get_adversary",
    "learner_bound",
]


@frozen
class Bound:
    """A proven bound a learner states for a game.

    Attributes
    ----------
    value : float
        The bound.
    measure : {"mistakes", "expected mistakes", "regret"}
        What it bounds: the number of mistakes (deterministic learners, realizable
        games), the expected number of mistakes, or the expected regret against the
        best hypothesis in hindsight.
    source : str
        The theorem it comes from (the learner's ``bound_source``).
    """

    value: float
    measure: str
    source: str = ""


def _is_vector_domain(H: Any) -> bool:
    domain = getattr(H, "domain", ())
    return bool(domain) and all(
        isinstance(x, tuple) and x and all(isinstance(v, numbers.Real) for v in x) for x in domain[:1]
    )


@frozen
class Factory:
    """Builds a fresh player for a class: ``factory(H, rounds=T)``.

    Parameters
    ----------
    name : str
        The name users type.
    path : str
        ``"module:Attribute"`` of the player's class (imported on first use).
    args : {"H", "H,T", ""}
        What the class's constructor takes: the hypothesis class; the class and the
        horizon ``T``; or nothing.
    domain : {"any", "vectors"}
        The classes it can play on: any finite class, or classes whose instances are
        numeric tuples (linear learners).
    summary : str
        One line for ``--help``.
    """

    name: str
    path: str
    args: str = field(default="H", validator=in_(("H", "H,T", "")))
    domain: str = field(default="any", validator=in_(("any", "vectors")))
    summary: str = ""

    @property
    def player_type(self) -> type:
        """The player's class (imports its module)."""
        module, _, attribute = self.path.partition(":")
        try:
            return getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as exc:
            raise InvalidArgumentError(f"{self.name}: cannot import {self.path}: {exc}") from None

    @property
    def needs_horizon(self) -> bool:
        """Whether the player is built for a known number of rounds."""
        return self.args == "H,T"

    def applies_to(self, H: Any) -> bool:
        """Whether the player can be built for ``H``."""
        return self.domain == "any" or _is_vector_domain(H)

    def __call__(self, H: Any, *, rounds: int | None = None) -> Any:
        """A fresh player for the class ``H`` (and the horizon ``rounds`` when it needs one).

        Raises
        ------
        NotApplicableError
            When the player cannot play on ``H``.
        InvalidArgumentError
            When the player needs a horizon and ``rounds`` is None or < 1.
        """
        if not self.applies_to(H):
            raise NotApplicableError(
                f"{self.name}: plays on classes whose instances are numeric vectors; "
                f"{H.describe()} has instances such as {H.domain[0]!r}"
            )
        cls = self.player_type
        if self.args == "":
            return cls()
        if self.args == "H":
            return cls(H)
        if rounds is None or rounds < 1:
            raise InvalidArgumentError(
                f"rounds: the learner {self.name} is tuned for a horizon T; give the number of "
                f"rounds (--rounds, or --horizon for a worst case), got {rounds!r}"
            )
        return cls(H, rounds)

    def bound(self, H: Any, *, rounds: int | None = None, realizable: bool = True) -> Bound | None:
        """The learner's proven bound for a game on ``H`` (None if it states none).

        See :func:`learner_bound`.
        """
        return learner_bound(self.player_type, H, rounds=rounds, realizable=realizable)


def learner_bound(learner: Any, H: Any, *, rounds: int | None = None, realizable: bool = True) -> Bound | None:
    """The proven bound a learner (or learner class) states for a game on ``H``.

    In a realizable game the learner's ``mistake_bound(H)`` bounds its mistakes; a
    learner that states instead a regret bound ``regret_bound(H, T)`` (the agnostic
    learners) bounds its expected mistakes (the best hypothesis makes none).  In an
    unrealizable game only a regret bound applies.  A learner whose bound raises or is
    not a number states none.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import SOA
    >>> learner_bound(SOA, classes.thresholds(7)).value
    3
    >>> learner_bound(SOA, classes.thresholds(7), realizable=False) is None
    True
    """
    kind = learner if isinstance(learner, type) else type(learner)
    source = getattr(kind, "bound_source", "") or ""
    if realizable:
        value = _number(getattr(kind, "mistake_bound", None), H)
        if value is not None:
            return Bound(value, "mistakes", source)
    if rounds is not None and rounds >= 1:
        value = _number(getattr(kind, "regret_bound", None), H, rounds)
        if value is not None:
            return Bound(value, "expected mistakes" if realizable else "regret", source)
    return None


def _number(method: Any, *args: Any) -> float | None:
    if not callable(method):
        return None
    try:
        value = method(*args)
    except Exception:  # noqa: BLE001 - a bound that does not apply to H is no bound
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or math.isnan(value):
        return None
    return value


def _table(*factories: Factory) -> dict[str, Factory]:
    return {f.name: f for f in factories}


#: The learners the command line can play on a finite class, by name.
LEARNERS: dict[str, Factory] = _table(
    Factory("Consistent", "mistakebound.learners.consistent:Consistent",
            summary="first consistent hypothesis; M <= |H| - 1"),
    Factory("Halving", "mistakebound.learners.halving:Halving",
            summary="majority vote of the version space; M <= log2 |H|"),
    Factory("SOA", "mistakebound.learners.soa:SOA",
            summary="side of larger Littlestone dimension; M <= Ldim(H)"),
    Factory("ExpertsFromClass", "mistakebound.learners.experts_from_class:ExpertsFromClass", args="H,T",
            summary="randomized weighted majority over H; regret <= sqrt(2 T ln |H|)"),
    Factory("LittlestoneExperts", "mistakebound.learners.littlestone_experts:LittlestoneExperts", args="H,T",
            summary="weighted majority over the Ldim experts; regret <= sqrt(2 T ln d)"),
    Factory("Perceptron", "mistakebound.learners.perceptron:Perceptron", args="", domain="vectors",
            summary="sign of <w, x>, w += y x on a mistake (classes over 0/1 vectors)"),
)

#: The adversaries the command line can put on a finite class, by name.
ADVERSARIES: dict[str, Factory] = _table(
    Factory("OppositeLabel", "mistakebound.adversaries.opposite_label:OppositeLabel", args="",
            summary="answers against every prediction (first disagreed instance)"),
    Factory("ShatteredTreeWalker", "mistakebound.adversaries.shattered_tree_walker:ShatteredTreeWalker", args="",
            summary="walks a shattered tree of depth Ldim: forces Ldim(H) mistakes"),
    Factory("BinarySearchThreshold", "mistakebound.adversaries.binary_search_threshold:BinarySearchThreshold",
            args="", summary="most even split of the version space, against the prediction"),
    Factory("BasisVectorForcer", "mistakebound.adversaries.basis_vector_forcer:BasisVectorForcer", args="",
            summary="presents e_1, e_2, ... against the prediction (classes over 0/1 vectors)"),
    Factory("ObliviousCoin", "mistakebound.adversaries.oblivious_coin:ObliviousCoin", args="",
            summary="random instances fixed in advance; a random target, or coins if unrealizable"),
)


def _normal(name: str) -> str:
    return name.lower().replace("-", "").replace("_", "").replace(" ", "")


def _lookup(table: dict[str, Factory], name: Any, kind: str) -> Factory:
    if not isinstance(name, str):
        raise InvalidArgumentError(f"{kind}: expected a name such as {next(iter(table))!r}, got {name!r}")
    by_normal = {_normal(k): k for k in table}
    key = by_normal.get(_normal(name))
    if key is not None:
        return table[key]
    close = difflib.get_close_matches(_normal(name), list(by_normal), n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(repr(by_normal[c]) for c in close)}? " if close else ""
    raise InvalidArgumentError(f"{kind}: unknown name {name!r}; {hint}known {kind}s: {', '.join(table)}")


def get_learner(name: str) -> Factory:
    """The learner factory registered under ``name`` (case, ``-`` and ``_`` ignored).

    Raises
    ------
    InvalidArgumentError
        For an unknown name, with the closest names and the known ones.
    """
    return _lookup(LEARNERS, name, "learner")


def get_adversary(name: str) -> Factory:
    """The adversary factory registered under ``name`` (case, ``-`` and ``_`` ignored).

    Raises
    ------
    InvalidArgumentError
        For an unknown name, with the closest names and the known ones.

    Examples
    --------
    >>> get_adversary("OpositeLabel")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: adversary: unknown name 'OpositeLabel'; did you mean 'OppositeLabel'? ...
    """
    return _lookup(ADVERSARIES, name, "adversary")
