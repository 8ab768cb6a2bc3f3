"""Transductive online learning: the adversary announces the sequence of instances before round 1.

The transductive game (Ben-David, Kushilevitz and Mansour 1997, "off-line learning with the
worst sequence"; Hanneke, Moran and Shafer 2023, "A trichotomy for transductive online
learning", NeurIPS): the adversary fixes a sequence ``x_1, ..., x_n`` of instances and shows
it to the learner before round 1; then, round by round, the learner predicts the label of
``x_t`` and the adversary gives it, realizable, chosen as the game goes.  Its value in ``n``
rounds is

    ``M(H, n) = max over sequences x in X^n of the value of the game on x``

(the value of a fixed sequence: :meth:`~mistakebound.theory.order_games.OrderGame.sequence_value`).
Hanneke, Moran and Shafer study how ``M(H, n)`` grows with ``n`` (``n``, ``Θ(log n)`` or
``Θ(1)``); on a finite class it is reached at a finite ``n``, as follows.

**What it reduces to on a finite class.**  The sequences of ``X^n`` may repeat instances
(Hanneke, Moran and Shafer take any sequence).  A repeat is worth nothing: once ``x`` was
labelled, every hypothesis left agrees on it, the learner predicts that label and the state
does not change; so a sequence is worth what its first occurrences are worth, in their
order.  Adding instances at the end of a sequence never lowers its value (the adversary
plays as before, and a mistake is never taken back).  Hence

* ``M(H, n)`` is the largest value of a sequence of ``min(n, |X|)`` distinct instances
  (shorter ones padded at the end);
* it does not decrease with ``n``, and ``M(H, n) <= n``;
* for ``n >= |X|`` it is the **worst order** value ``M_worst`` of
  :mod:`~mistakebound.theory.instance_orders` (a sequence of distinct instances padded with
  the rest of the domain is an order of the domain), its supremum over ``n``;
* ``M(H, n) <= Ldim(H)`` (the adaptive adversary can announce nothing and play the same
  sequence), and ``M(H, n) >= min(n, VCdim(H))`` (a shattered set first).

So ``Rules(order="transductive")`` names the game without a number of rounds, whose value
is ``sup_n M(H, n) = M_worst``; :func:`transductive_value` with ``horizon=n`` computes
``M(H, n)``, by the worst order's branch and bound cut at ``n`` instances (a leaf's value
is then also at most the instances left).

Examples
--------
>>> from mistakebound import classes
>>> [transductive_value(classes.thresholds(15), horizon=n).value for n in (1, 3, 7, 15, 100)]
[1, 2, 3, 4, 4]
>>> transductive_value(classes.thresholds(15), horizon=3).witness
(8, 4, 12)
"""

from __future__ import annotations

from typing import Any

from attrs import evolve

from mistakebound.foundations.validation import check_int
from mistakebound.game.rules import Rules
from mistakebound.theory.instance_orders import order_value
from mistakebound.theory.order_games import OrderValue, order_rules

__all__ = ["transductive_value"]


def transductive_value(H: Any, rules: Rules = Rules(), *, horizon: int | None = None, max_nodes: int | None = None,
                       time_limit: float | None = None) -> OrderValue:
    """``M(H, horizon)``: the value of the transductive game in ``horizon`` rounds (Hanneke, Moran and Shafer 2023),
    exact, with the announced sequence as witness; without a horizon, its supremum, the worst order's value.

    Parameters
    ----------
    H : HypothesisClass or array_like
        The class (its instances are its domain), or a table of labels ``0..k-1``.
    rules : Rules
        The labels and whether the learner randomizes; realizable, full information;
        ``rules.order`` the default or ``"transductive"``.
    horizon : int, optional
        The number of rounds ``n >= 0``; None for any number (the supremum).
    max_nodes, time_limit : int or float, optional
        A budget of prefixes expanded and/or seconds.

    Returns
    -------
    OrderValue
        ``rules.order == "transductive"``, ``horizon`` as given; the witness is a sequence of
        ``horizon`` instances (repeats at its end when the domain is shorter; the empty
        sequence for a class without instances), or, without a horizon, an order of the
        domain.  Out of budget, proven bounds as :func:`~mistakebound.theory.instance_orders.order_value`.

    Raises
    ------
    InvalidArgumentError
        For a bad table, budget or horizon, or another order in ``rules``.
    NotApplicableError
        For bandit feedback or a noise budget.

    Examples
    --------
    >>> from mistakebound import classes
    >>> transductive_value(classes.power_set(4), horizon=2).value, transductive_value(classes.power_set(4)).value
    (2, 4)
    """
    rules = order_rules(rules, "transductive")
    horizon = check_int("horizon", horizon, 0, optional=True, expected="an int >= 0 (the number of rounds)")
    result = order_value(H, "worst", evolve(rules, order="adaptive"), horizon=horizon, max_nodes=max_nodes,
                         time_limit=time_limit)
    return evolve(result, rules=rules)
