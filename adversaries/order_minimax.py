"""The optimal adversary of the games in which someone else orders the instances (issue 24), for the zoo.

:class:`OrderMinimax` plays :class:`~mistakebound.theory.order_players.OrderAdversary` for the
order it is built for: in the transductive and worst orders it announces the sequence worth
most (the worst order; transductive, the best sequence of the game's rounds), in the best-order
and self-directed games it takes the learner's order or picks, and whatever the instances it
answers the label whose part of the version space is worth most against the prediction.  It
forces the order's value (:func:`~mistakebound.theory.game_values.game_value`) on every
deterministic learner: where it orders, the value of the sequence it announces; where the
learner orders, the value of the order the learner chose, at least the order's value.

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.game.rules import Rules
>>> from mistakebound.learners import Halving
>>> H = classes.thresholds(15)
>>> play(Halving(H), OrderMinimax(order="worst"), H, rounds=20, rules=Rules(order="worst")).mistakes
4
>>> OrderMinimax(order="worst").forces(H, learner=Halving(H), rules=Rules(order="worst")).value
4
"""

from __future__ import annotations

from typing import Any

from attrs import define, field

from mistakebound.foundations.validation import check_choice
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Adversary
from mistakebound.game.rules import Rules
from mistakebound.learners.order_soa import ORDERED, order_game
from mistakebound.verification.claims import Bound

__all__ = ["OrderMinimax"]



@define
class OrderMinimax(Adversary):
    """Forces the value of a game whose instances someone else orders: the order's optimal labels.

    Parameters
    ----------
    order : {"transductive", "self-directed", "best", "worst"}
        The order it plays (``OrderMinimax(order=worst)`` on the command line; built by name, the
        game's ``--order``).

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.thresholds(7)
    >>> OrderMinimax(order="best").applies_to(H, rules=Rules(order="best")), OrderMinimax(
    ...     order="best").applies_to(H, rules=Rules(order="worst")), OrderMinimax(order="best").applies_to(H, rules=Rules())
    (True, False, False)
    """

    order: str = field(default="worst", validator=lambda self, a, v: check_choice("order", v, ORDERED))
    _player: Any = field(default=None, init=False, repr=False)

    @classmethod
    def for_setting(cls, setting: Any, *, rounds: int | None = None, rules: Rules | None = None) -> OrderMinimax:
        """An OrderMinimax for a game on the finite class ``setting`` under ``rules``, built for their order."""
        from mistakebound.foundations.errors import NotApplicableError
        from mistakebound.learners._setting import not_applicable

        if not isinstance(setting, HypothesisClass):
            raise not_applicable("OrderMinimax", setting, "finite classes (it searches the order's value on the table)")
        if rules is None or rules.order == "adaptive":
            raise NotApplicableError(f"OrderMinimax plays the games where someone else orders the instances, one of "
                                     f"{ORDERED}; the game is the textbook's (order 'adaptive'): give its order "
                                     "(--order, Rules(order=...)), or play GameMinimax")
        return cls(order=rules.order)

    def applies_to(self, H: Any, *, rules: Rules | None = None) -> bool:
        """Finite classes (``rules`` None: the class alone, as the registry asks), in a game of its order, realizable
        with full information (any labels)."""
        return isinstance(H, HypothesisClass) and (rules is None or (
            rules.order == self.order and rules.noise == 0 and rules.feedback == "full"))

    def _rules(self, H: HypothesisClass) -> Rules:
        return Rules(labels=H.n_labels, order=self.order)

    def start(self, state: Any) -> None:
        from mistakebound.theory.order_players import OrderAdversary

        if self._player is None or self._player.H is not state.H:
            self._player = OrderAdversary(state.H, self._rules(state.H))
        self._player.start(state)

    def sequence(self, state: Any) -> tuple:
        """The instances announced before round 1 (transductive, worst order)."""
        return self._player.sequence(state)

    def announce(self, sequence: Any) -> None:
        """Told the learner's order before round 1 (best order)."""
        self._player.announce(sequence)

    def next_instance(self, state: Any) -> Any:  # pragma: no cover - the referee takes the instances from the order
        return self._player.next_instance(state)

    def label(self, state: Any, x: Any, p: float) -> int:
        return self._player.label(state, x, p)

    def forces(self, setting: Any, *, learner: Any = None, rounds: int | None = None, realizable: bool = True,
               rules: Rules | None = None) -> Bound:
        """The order's value (:func:`~mistakebound.theory.game_values.game_value`) on every deterministic learner, in a
        game of its order of at least as many rounds as instances (the transductive game's value without a number
        of rounds is the worst order's, which it announces when the rounds allow)."""
        from mistakebound.game.players import is_randomized
        from mistakebound.theory.game_values import game_value

        if not isinstance(setting, HypothesisClass):
            return Bound.none("OrderMinimax plays finite classes")
        if not self.applies_to(setting, rules=rules if rules is not None else Rules(labels=setting.n_labels)):
            return Bound.none(f"OrderMinimax was built for {order_game(self.order)}, realizable with full "
                              f"information; the game has {(rules or Rules()).describe()}")
        if learner is not None and is_randomized(learner):
            return Bound.none("OrderMinimax claims the value it forces on deterministic learners")
        if rounds is not None and rounds < setting.n_instances:  # the door's value is that of every instance
            return Bound.none(f"OrderMinimax forces {order_game(self.order)}'s value over all "
                              f"{setting.n_instances} instances, more than the {rounds} rounds played")
        result = game_value(setting, self._rules(setting))
        if not result.exact:
            return Bound.none(f"the search of {order_game(self.order)}'s value stopped ({result.status})")
        value = result.lower
        return Bound(value, "mistakes", f"{order_game(self.order)}'s value, by exact search (game_value): the "
                     "adversary's best sequence and labels", ("realizable",))
