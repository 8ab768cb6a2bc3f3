"""The optimal learner and adversary of each order of the game, read off the order searches.

For :func:`~mistakebound.game.play.play` under ``Rules(order=...)`` (the hooks of
:mod:`~mistakebound.game.orders`):

* :class:`OrderLearner` plays the order's value: told the sequence (transductive, worst
  order), it predicts at each instance the label of largest value of the game on the rest of
  the sequence (:meth:`~mistakebound.theory.order_games.OrderGame.sequence_value`); in the
  best order it chooses the best order (:func:`~mistakebound.theory.instance_orders.best_order_value`'s
  witness) and plays it so; self-directed, it picks the instance of the self-directed search's
  strategy and predicts the same way.  It errs at most the value of the game it is in
  (at most the order's value), whatever the adversary.
* :class:`OrderAdversary` forces it on every deterministic learner: it announces the worst
  order (or, transductive, the best sequence of the game's rounds) and, whatever the
  instances, answers the label whose part is worth most against the prediction (one step of
  :func:`~mistakebound.theory.order_games.step_value` from the adversary's side); on a
  randomized learner it forces the expectation.

A learner of a table without a class plays on the column indices.  Both players keep the
version space of the labels given so far, and the adversary's labels are always realizable.

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.game.rules import Rules
>>> H = classes.thresholds(15)
>>> rules = Rules(order="worst")
>>> T = play(OrderLearner(H, rules), OrderAdversary(H, rules), H, rounds=20, rules=rules)
>>> T.mistakes, len(T)
(4, 15)
>>> rules = Rules(order="self-directed")
>>> play(OrderLearner(H, rules), OrderAdversary(H, rules), H, rounds=20, rules=rules).mistakes
1
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
from attrs import evolve

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.players import Adversary, Learner
from mistakebound.game.rules import Rules, require_rules
from mistakebound.theory.order_games import OrderGame

__all__ = ["OrderAdversary", "OrderLearner"]


def _order_of(rules: Any) -> Rules:
    rules = require_rules(rules)
    if rules.order == "adaptive":
        raise InvalidArgumentError("rules: expected an order other than 'adaptive' (GameSearch's players play that "
                                   "one); got order='adaptive'")
    return rules


class _Player:
    """What both players keep: the class's game, the version space, and the sequence of a fixed order."""

    def _setup(self, H: Any, rules: Rules) -> None:
        from mistakebound.theory.order_games import order_rules

        self.H, self.rules = H, _order_of(rules)
        order_rules(rules, rules.order)  # refused here, not mid-game, where the order is not searched
        self.game = OrderGame(H, evolve(rules, order="adaptive"))
        self.V = self.game.full
        self.fixed: tuple[int, ...] | None = None  # the columns of a fixed order
        self.t = 0  # instances of the fixed order played

    def _value(self, part: int) -> Any:
        """The value of what follows ``part`` after the current instance."""
        if self.rules.order == "self-directed":
            return self._self_directed.value(part)
        return self.game.sequence_value(part, self.fixed, self.t + 1)

    def _column(self, x: Any) -> int:
        return self.game.column(x)

    def _restrict(self, x: Any, y: Any) -> None:
        j = self._column(x)
        self.V &= self.game.columns[j][int(y)]
        if self.fixed is not None:
            self.t += 1

    @property
    def _self_directed(self) -> Any:
        search = getattr(self, "_sd", None)
        if search is None:
            from mistakebound.theory.self_directed import SelfDirectedSearch

            search = self._sd = SelfDirectedSearch(None, evolve(self.rules, order="adaptive"), game=self.game)
        return search


class OrderLearner(_Player, Learner):
    """The optimal learner of a game under ``rules.order`` (module docstring).

    Parameters
    ----------
    H : HypothesisClass or array_like
        The class (a table: its instances are the column indices).
    rules : Rules
        The game: an order other than the default, full information, no noise;
        ``randomized=True`` makes it a randomized learner (two labels).

    Examples
    --------
    >>> from mistakebound import classes
    >>> learner = OrderLearner(classes.thresholds(7), Rules(order="best"))
    >>> learner.choose_order(classes.thresholds(7).domain)    # from both ends inwards: one mistake
    (1, 7, 2, 6, 3, 5, 4)
    """

    def __new__(cls, H: Any, rules: Rules):
        if cls is OrderLearner and getattr(rules, "randomized", False):
            return super().__new__(_RandomizedOrderLearner)
        return super().__new__(cls)

    def __init__(self, H: Any, rules: Rules):
        self._setup(H, rules)
        self.orders = (self.rules.order,)  # it needs the order's information: no other game

    def announce(self, sequence: Any) -> None:
        """Told the sequence before round 1 (transductive, worst order)."""
        self.fixed = tuple(self._column(x) for x in sequence)

    def choose_order(self, domain: Any) -> tuple:
        """The best order, chosen before round 1."""
        from mistakebound.theory.instance_orders import best_order_value

        order = best_order_value(self.H, evolve(self.rules, order="best")).witness
        self.fixed = tuple(self._column(x) for x in order)
        return order

    def choose_instance(self, left: Any) -> Any:
        """Self-directed: the strategy's instance for the version space, else (nothing left to learn) the first."""
        search = self._self_directed
        if self.V.bit_count() > 1:
            search.value(self.V)
            return self.game.domain[search.choice[self.V]]
        return left[0]

    def _prediction(self, x: Any) -> Any:
        j = self._column(x)
        labelled = self.game.labelled_parts(self.V, j)
        if not labelled:  # a label no hypothesis left gives came earlier (a game beyond realizable): any label
            return 0 if not self.rules.randomized else tuple(Fraction(y == 0) for y in range(self.rules.labels))
        values = [self._value(part) for _, part in labelled]
        return self.game.prediction(values, [y for y, _ in labelled])

    def predict_one(self, x: Any) -> int:
        return self._prediction(x)

    def learn_one(self, x: Any, y: Any) -> None:
        self._restrict(x, y)

    def clone(self) -> OrderLearner:
        return OrderLearner(self.H, self.rules)


class _RandomizedOrderLearner(OrderLearner):
    """:class:`OrderLearner` with ``rules.randomized``: the water level's probability of label 1 (two labels)."""

    def predict_proba_one(self, x: Any) -> float:
        return float(self._prediction(x)[1])


class OrderAdversary(_Player, Adversary):
    """The optimal adversary of a game under ``rules.order`` (module docstring).

    Parameters
    ----------
    H : HypothesisClass or array_like
        The class.
    rules : Rules
        The game: an order other than the default, full information, no noise.

    Examples
    --------
    >>> from mistakebound import classes
    >>> adversary = OrderAdversary(classes.thresholds(7), Rules(order="worst"))
    >>> adversary.applies_to(classes.thresholds(7), rules=Rules(order="worst")), adversary.applies_to(
    ...     classes.thresholds(7), rules=Rules(order="best"))
    (True, False)
    """

    def __init__(self, H: Any, rules: Rules):
        self._setup(H, rules)

    def applies_to(self, H: Any, *, rules: Rules | None = None) -> bool:
        """Its class, under its order (labels and randomization may be any the referee allows)."""
        if rules is None or rules.order != self.rules.order:
            return False
        return H is self.H or (tuple(getattr(H, "domain", ())) == tuple(self.game.domain)
                               and np.array_equal(np.asarray(getattr(H, "matrix", H)), np.asarray(getattr(
                                   self.H, "matrix", self.H))))

    def start(self, state: Any) -> None:
        self.V, self.t, self.fixed = self.game.full, 0, None

    def sequence(self, state: Any) -> tuple:
        """The instances announced before round 1: the worst order, or (transductive) the best sequence of the
        game's rounds."""
        from mistakebound.theory.instance_orders import order_value

        horizon = state.rounds if self.rules.order == "transductive" else None
        announced = order_value(self.H, "worst", evolve(self.rules, order="adaptive"), horizon=horizon).witness
        self.fixed = tuple(self._column(x) for x in announced)
        return announced

    def announce(self, sequence: Any) -> None:
        """Told the learner's order before round 1 (best order)."""
        self.fixed = tuple(self._column(x) for x in sequence)

    def next_instance(self, state: Any) -> Any:  # pragma: no cover - the orders' instances come from elsewhere
        return None

    def label(self, state: Any, x: Any, p: float) -> int:
        j = self._column(x)
        guess = (1 - Fraction(p), Fraction(p)) if 0 < p < 1 else int(p)
        y = self.game.answer(self.V, j, guess, self._value)
        self._restrict(x, y)
        return y

