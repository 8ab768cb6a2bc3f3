"""The optimal learner of every order of the instances (issue 24), for the zoo.

:class:`OrderSOA` is the learner of :class:`~mistakebound.theory.order_players.OrderLearner`
(the Standard Optimal Algorithm of each order: at each instance the label whose part of the
version space leaves the most value of the game on what follows), built by name for a game's
:class:`~mistakebound.game.rules.Rules` and stating its claim: the order's value, from the one
door :func:`~mistakebound.theory.game_values.game_value` (Ben-David, Kushilevitz and Mansour
1997 for the best and worst orders; Goldman, Rivest and Schapire 1993 for the self-directed
game; the transductive game of any number of rounds is worth at most the worst order's value,
Hanneke, Moran and Shafer 2023).  It plays the order it is built for, or, built without one,
every order, learning which from the move the referee asks of it first (told the sequence:
transductive or worst; asked the order: best; asked each instance: self-directed; asked a
prediction: the textbook's game, where it is the SOA of :class:`~mistakebound.learners.GameSOA`
and claims the Littlestone dimension, Lemma 21.7).

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.game.rules import Rules
>>> from mistakebound.adversaries import OrderMinimax
>>> H = classes.thresholds(15)
>>> rules = Rules(order="worst")
>>> T = play(OrderSOA(H), OrderMinimax(order="worst"), H, rounds=20, rules=rules)
>>> T.mistakes, OrderSOA(H).bound(H, rules=rules).value
(4, 4)
>>> OrderSOA(H).bound(H, rules=Rules(order="self-directed")).describe()  # doctest: +ELLIPSIS
"1 on mistakes (the self-directed game's value, by exact search (game_value): ..."
"""

from __future__ import annotations

import copy
from typing import Any

from attrs import define, evolve, field

from mistakebound.foundations.errors import NotApplicableError
from mistakebound.foundations.validation import check_choice, check_instance
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Learner
from mistakebound.game.rules import ORDERS, Rules
from mistakebound.learners._setting import not_applicable
from mistakebound.learners.game_soa import rules_claim
from mistakebound.verification.claims import Bound

__all__ = ["OrderSOA", "ORDERED", "order_game"]

#: The orders in which someone other than the adversary-as-it-goes orders the instances (every order but the
#: textbook's): those :class:`OrderSOA` plays.
ORDERED = tuple(o for o in ORDERS if o != "adaptive")

#: The order whose player a hook tells an :class:`OrderSOA` built without one it is in (a told sequence is played
#: alike in the transductive and worst orders: the value of the game on the rest of the sequence; a prediction
#: asked first: the adversary picks each instance as it goes).
_HOOK_ORDER = {"announce": "transductive", "choose_order": "best", "choose_instance": "self-directed",
               "predict_one": "adaptive"}

#: The theorem behind each order's value, for the claim's source.
_SOURCES = {
    "adaptive": "the Littlestone dimension (Littlestone 1988; Lemma 21.7; k labels: Daniely et al. 2011)",
    "transductive": "the transductive game's value is at most the worst order's (Hanneke, Moran and Shafer 2023)",
    "worst": "the worst order's value (Ben-David, Kushilevitz and Mansour 1997)",
    "best": "the best order's value (Ben-David, Kushilevitz and Mansour 1997)",
    "self-directed": "the self-directed complexity (Goldman, Rivest and Schapire 1993)",
}


def _check_order(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None:
        check_choice("order", value, ORDERS)


@define
class OrderSOA(Learner):
    """The SOA of every order of the instances (Rules(order=...)): the order's value, no more.

    Parameters
    ----------
    H : HypothesisClass
        The class, of any number of labels.
    order : {"adaptive", "transductive", "self-directed", "best", "worst"} or None
        The order it plays; None (the default): every one of them, found in the game from the
        move the referee asks of it first.

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.thresholds(7)
    >>> OrderSOA(H).orders, OrderSOA(H, order="best").orders
    (('adaptive', 'transductive', 'self-directed', 'best', 'worst'), ('best',))
    >>> OrderSOA(H, order="best").choose_order(H.domain)   # from both ends inwards: one mistake
    (1, 7, 2, 6, 3, 5, 4)
    >>> OrderSOA(H, order="any")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: order: expected one of 'adaptive', 'transductive', 'self-directed', 'best', 'worst', got 'any'
    """

    H: HypothesisClass = field(validator=lambda self, a, v: check_instance("H", v, HypothesisClass, "a HypothesisClass"))
    order: str | None = field(default=None, validator=_check_order)
    _player: Any = field(default=None, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.order is not None:
            self._player = self._build(self.order)

    def _build(self, order: str) -> Any:
        if order == "adaptive":  # the textbook's game: its SOA, by the search of the game's value
            from mistakebound.learners.game_soa import GameSOA

            return GameSOA(self.H)
        from mistakebound.theory.order_players import OrderLearner

        return OrderLearner(self.H, Rules(labels=self.H.n_labels, order=order))

    def _for(self, hook: str) -> Any:
        """The player of the game the referee's ``hook`` says it is in (built at the first hook)."""
        if self._player is None:
            self._player = self._build(_HOOK_ORDER[hook])
        return self._player

    @property
    def orders(self) -> tuple[str, ...]:
        """The orders it plays: its own, or every order."""
        return (self.order,) if self.order is not None else ORDERS

    def announce(self, sequence: Any) -> None:
        """Told the sequence before round 1 (transductive, worst order)."""
        self._for("announce").announce(sequence)

    def choose_order(self, domain: Any) -> tuple:
        """The best order, chosen before round 1."""
        return self._for("choose_order").choose_order(domain)

    def choose_instance(self, left: Any) -> Any:
        """Self-directed: the next instance of the self-directed search's strategy."""
        return self._for("choose_instance").choose_instance(left)

    def predict_one(self, x: Any) -> int:
        return self._for("predict_one").predict_one(x)

    def learn_one(self, x: Any, y: Any) -> None:
        self._for("predict_one").learn_one(x, y)

    def snapshot(self) -> OrderSOA:
        """A copy in the current state (its player's snapshot: the searches are shared, not copied)."""
        from mistakebound.game.players import snapshot_of

        other = copy.copy(self)
        other._player = None if self._player is None else snapshot_of(self._player)
        return other

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None, rules: Rules | None = None) -> OrderSOA:
        """A fresh OrderSOA for a game on the finite class ``setting`` under ``rules``, built for their order (without
        rules: for every order, the game names its own); realizable games with full information only (GameSOA plays
        the others)."""
        if not isinstance(setting, HypothesisClass):
            raise not_applicable("OrderSOA", setting, "finite classes (it searches the order's value on the table)")
        if rules is not None and (rules.noise or rules.feedback != "full"):
            raise NotApplicableError(f"OrderSOA plays realizable games with full information (GameSOA plays the "
                                     f"others); the game has {rules.describe()}")
        return cls(setting, order=rules.order if rules is not None else None)

    def bound(self, setting: Any, *, rounds: int | None = None, realizable: bool = True, transcript: Any = None,
              rules: Rules | None = None) -> Bound:
        """The value of the game's order, from :func:`~mistakebound.theory.game_values.game_value` (the textbook's
        game: Ldim): exact, or, out of the search's budget, the upper bound it proved; none under another order
        than its own, with noise or bandit feedback.

        Examples
        --------
        >>> from mistakebound import classes
        >>> H = classes.thresholds(15)
        >>> OrderSOA(H).bound(H).value, OrderSOA(H).bound(H, rules=Rules(order="best")).value
        (4, 1)
        >>> OrderSOA(H, order="best").bound(H, rules=Rules(order="worst")).reason
        "OrderSOA was built for the 'best' order; the game's order is 'worst'"
        """
        played = rules if rules is not None else Rules(labels=getattr(setting, "n_labels", 2))
        if self.order is not None and played.order != self.order:
            return Bound.none(f"OrderSOA was built for the {self.order!r} order; the game's order is {played.order!r}")
        own = Rules(labels=self.H.n_labels, order=played.order)
        searched: list = []

        def value(H: HypothesisClass) -> Any:
            from mistakebound.theory.game_values import game_value

            searched.append(game_value(H, own))  # the door: the order's value (exact unless stopped)
            return searched[-1].lower if searched[-1].exact else searched[-1].upper

        source = f"{order_game(played.order)}'s value, by exact search (game_value): {_SOURCES[played.order]}"
        claim = rules_claim(self, setting, own, played, realizable=realizable,
                            theorem=f"{order_game(played.order)}'s value", source=source, value=value)
        if searched and not searched[-1].exact:  # stopped (Ctrl-C, memory): the upper bound it proved, if any
            result = searched[-1]
            if result.upper == float("inf"):
                return Bound.none(f"the search of {order_game(played.order)}'s value stopped ({result.status}) "
                                  "before it proved a bound", measure="mistakes")
            claim = evolve(claim, source=f"an upper bound on {order_game(played.order)}'s value, proved by its "
                                         f"search (game_value, partial: {result.status}): {_SOURCES[played.order]}")
        return claim


def order_game(order: str) -> str:
    """How a claim or a message names an order's game (the players of both zoos say it alike).

    Examples
    --------
    >>> order_game("best"), order_game("self-directed"), order_game("adaptive")
    ('the best-order game', 'the self-directed game', 'the textbook game')
    """
    return f"the {({'best': 'best-order', 'worst': 'worst-order', 'adaptive': 'textbook'}).get(order, order)} game"
