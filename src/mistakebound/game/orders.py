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

**A learner of the textbook's game plays the orders it is only told** (:data:`TOLD`: the
transductive and the worst order), the announcement ignored.  In those two games the learner
makes no move the textbook's game lacks: the instances still come one a round from the
adversary, and the announcement is information the learner may use or not.  A learner that
ignores it is one of the strategies the game's value is a minimum over (so the value is
unchanged by admitting it), the referee asks it nothing it cannot answer, and every claim it
states for the textbook's game still holds: an adversary that announces a sequence and then
labels as it goes is one adaptive adversary of the textbook's game (it picks the instances it
announced).  So ``Halving`` plays the worst order and keeps its ``log2 |H|``.  The
best-order and self-directed games are different: there the learner *moves* (it chooses the
order, or each instance), and a learner without ``choose_order`` / ``choose_instance`` has no
move to make; the referee does not invent one for it (a default order would be the referee's
strategy, not the learner's), so it refuses them.  One mechanism decides both: a learner that
declares an order must have its hooks (:data:`HOOKS`) and is told through them
(:func:`is_told`); a learner that does not declare a told order is admitted when it plays the
textbook's game, and is told nothing.

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
>>> order_refusal("learner", Chooser(), "best")  # doctest: +ELLIPSIS
"does not declare the 'best' order (its orders are ('adaptive', 'self-directed')); ..."
>>> order_refusal("learner", Chooser(), "transductive") is None   # told the sequence, it may ignore it
True
>>> class OnlyChooser(Chooser):
...     orders = ("self-directed",)
>>> order_refusal("learner", OnlyChooser(), "adaptive")
"plays only the orders ('self-directed',); the game's adversary picks each instance as it goes (order 'adaptive')"
>>> order_refusal("learner", object(), "worst") is None, is_told(object(), "worst")   # the textbook's learner
(True, False)
>>> order_refusal("learner", OnlyChooser(), "worst")  # doctest: +ELLIPSIS
"does not declare the 'worst' order (its orders are ('self-directed',)); ..."
"""

from __future__ import annotations

from typing import Any

__all__ = ["HOOKS", "TOLD", "is_told", "orders_of", "order_refusal"]

#: The methods a player needs in each order other than the default: (learner's, adversary's).
HOOKS = {
    "transductive": (("announce",), ("sequence", "label")),
    "worst": (("announce",), ("sequence", "label")),
    "best": (("choose_order",), ("label",)),
    "self-directed": (("choose_instance",), ("label",)),
}

#: The orders in which the learner is only told the sequence (by ``announce``) and makes no move of its own: a
#: learner of the textbook's game that does not declare them plays them as it plays that game, told nothing.
TOLD = ("transductive", "worst")

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
    which the referee asks) and both must have the order's methods (:data:`HOOKS`); a learner of
    the textbook's game that does not list an order of :data:`TOLD` plays it untold.

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
    if role == "learner" and order in TOLD and order not in orders_of(player) and "adaptive" in orders_of(player):
        return None  # the textbook's learner, the announcement ignored (module docstring)
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


def is_told(learner: Any, order: str) -> bool:
    """Whether the referee tells ``learner`` the sequence (calls its ``announce``) in a game of order ``order``: in
    the orders of :data:`TOLD` that it declares (a learner admitted untold, :func:`order_refusal`, is told nothing).

    Examples
    --------
    >>> class Told:
    ...     orders = ("adaptive", "worst")
    ...     def announce(self, sequence):
    ...         pass
    >>> is_told(Told(), "worst"), is_told(Told(), "transductive"), is_told(Told(), "best")
    (True, False, False)
    """
    return order in TOLD and order in orders_of(learner)
