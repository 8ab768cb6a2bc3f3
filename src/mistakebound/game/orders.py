"""Who orders the instances: how players declare the orders they play, and what the referee asks of them.

:data:`~mistakebound.game.rules.ORDERS` names the orders (``Rules(order=...)``).  In the
default one, ``"adaptive"``, the adversary's ``next_instance(state)`` picks each instance as
the game goes.  In the others the referee (:func:`~mistakebound.game.play.play`) gets the
instances elsewhere, and every label is still the adversary's ``label(state, x, p)``:

* ``"transductive"`` and ``"worst"``: before round 1 the adversary's ``sequence(state)``
  gives the instances (transductive: at most ``rounds`` of them, repeats allowed; worst: every
  instance of the domain once, an order), and the learner is told them by its
  ``announce(sequence)``;
* ``"best"``: before round 1 the learner's ``choose_order(domain)`` gives the order of every
  instance (the one it plays best), and the adversary is told it by its ``announce(sequence)``
  when it has one;
* ``"self-directed"``: each round the learner's ``choose_instance(left)`` picks one of the
  instances not shown yet (``left``, a tuple in the domain's order).

A learner declares the orders it plays in its ``orders`` attribute (default ``("adaptive",)``,
:func:`orders_of`; one that leaves ``"adaptive"`` out is refused in the textbook's game), as it
declares its feedbacks (:mod:`~mistakebound.game.feedback`); an
adversary, by its ``applies_to(H, *, rules)`` reading ``rules.order``.  The referee refuses,
before round 1, a player that does not declare the game's order or lacks the method it
needs (:func:`order_refusal`), and the orders other than the default on a space (they
need a finite domain) or against an oblivious adversary.

Examples
--------
>>> class Chooser:
...     orders = ("adaptive", "self-directed")
...     def choose_instance(self, left):
...         return left[0]
>>> orders_of(Chooser()), orders_of(object())
(('adaptive', 'self-directed'), ('adaptive',))
>>> order_refusal("learner", Chooser(), "self-directed") is None
True
>>> order_refusal("learner", Chooser(), "transductive")  # doctest: +ELLIPSIS
"does not declare the 'transductive' order (its orders are ('adaptive', 'self-directed')); ..."
>>> class OnlyChooser(Chooser):
...     orders = ("self-directed",)
>>> order_refusal("learner", OnlyChooser(), "adaptive")
"plays only the orders ('self-directed',); the game's adversary picks each instance as it goes (order 'adaptive')"
"""

from __future__ import annotations

from typing import Any

__all__ = ["HOOKS", "orders_of", "order_refusal"]

#: The methods a player needs in each order other than the default: (learner's, adversary's).
HOOKS = {
    "transductive": (("announce",), ("sequence", "label")),
    "worst": (("announce",), ("sequence", "label")),
    "best": (("choose_order",), ("label",)),
    "self-directed": (("choose_instance",), ("label",)),
}

#: What each hook does, for the refusal's message.
_WORDS = {
    "announce": "announce(sequence), told the instances before round 1",
    "sequence": "sequence(state), the instances it announces before round 1",
    "choose_order": "choose_order(domain), the order of every instance it plays",
    "choose_instance": "choose_instance(left), the instance it picks each round",
    "label": "label(state, x, p)",
}


def orders_of(learner: Any) -> tuple[str, ...]:
    """The orders ``learner`` declares it plays (its ``orders`` attribute; default the adaptive one only).

    Examples
    --------
    >>> class L:
    ...     orders = ["adaptive", "transductive"]
    >>> orders_of(L())
    ('adaptive', 'transductive')
    """
    declared = getattr(learner, "orders", ("adaptive",))
    return tuple(declared) if isinstance(declared, (tuple, list, frozenset, set)) else ("adaptive",)


def order_refusal(role: str, player: Any, order: str) -> str | None:
    """Why ``player`` (``role``: ``"learner"`` or ``"adversary"``) cannot play a game of order ``order``, or None.

    A learner must list the order in its ``orders`` (an adversary declares it by ``applies_to``,
    which the referee asks) and both must have the order's methods (:data:`HOOKS`).

    Examples
    --------
    >>> class Labeller:
    ...     def label(self, state, x, p):
    ...         return 0
    >>> order_refusal("adversary", Labeller(), "best") is None, order_refusal("adversary", Labeller(), "worst")
    (True, 'lacks sequence(state), the instances it announces before round 1, which the worst order needs')
    """
    if order == "adaptive":
        if role == "learner" and order not in orders_of(player):
            return (f"plays only the orders {orders_of(player)}; the game's adversary picks each instance as it goes "
                    "(order 'adaptive')")
        return None
    if role == "learner" and order not in orders_of(player):
        hooks = " and ".join(_WORDS[h] for h in HOOKS[order][0])
        return (f"does not declare the {order!r} order (its orders are {orders_of(player)}); a learner for it lists "
                f"it (orders = ('adaptive', {order!r})) and has {hooks}")
    needed = HOOKS[order][0 if role == "learner" else 1]
    missing = [h for h in needed if not callable(getattr(player, h, None))]
    if missing:
        name = {"best": "the best order", "worst": "the worst order"}.get(order, f"the {order} game")
        return f"lacks {', '.join(_WORDS[h] for h in missing)}, which {name} needs"
    return None
