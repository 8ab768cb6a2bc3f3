"""Self-directed learning: the learner picks each next instance, the adversary labels it.

The self-directed game (Goldman, Rivest and Schapire 1993; Goldman and Sloan 1994, "The
power of self-directed learning"): at each round the learner chooses an instance of the
domain it has not been shown yet and predicts its label; the adversary then gives the
label, realizable, chosen as the game goes; the game ends when every instance was shown.
The **self-directed complexity** is the fewest mistakes a learner can guarantee, against
every target (equivalently, every adaptive realizable adversary):

    ``SD(V) = min over instances x splitting V of step(SD(V_y) for each label y)``,

``SD(V) = 0`` when one distinct row is left, with the step of
:func:`~mistakebound.theory.order_games.step_value` (``max(v_(1), v_(2) + 1)``; a randomized
learner's water level).  An instance on which ``V`` agrees is worth nothing, and every
instance shown is one, so the state is the version space alone (see
:mod:`~mistakebound.theory.order_games`).

The search memoises ``SD`` by ``V``; at each ``V`` it tries the instances that split it most
unevenly first (they leave a large part whose value is often the answer), evaluates a
split's largest part first, drops an instance as soon as the parts seen already reach the
best found (the step only grows with more parts), and stops at the floor (1 with two rows
left: the adversary labels the first separating instance against the prediction).

Known values (Goldman and Sloan 1994): thresholds and singletons have ``SD = 1`` (left to
right, a mistake at the switch; predict 0 everywhere, a mistake at the one); the power set
of ``d`` points, ``d``; ``SD <= Ldim`` since the adaptive adversary can answer any order.

Examples
--------
>>> from mistakebound import classes
>>> self_directed_value(classes.thresholds(15)).value, self_directed_value(classes.power_set(3)).value
(1, 3)
>>> r = self_directed_value(classes.singletons(4))
>>> r.witness[frozenset(range(4))]          # from the whole class: ask an instance, predict 0
(1, 0)
>>> self_directed_value(classes.power_set(6), max_nodes=2).describe()
'1 <= value <= 6 (partial: budget)'
"""

from __future__ import annotations

from typing import Any

from mistakebound.game.rules import Rules
from mistakebound.theory.order_games import OrderGame, OrderValue, Strategy, deep, order_rules
from mistakebound.theory.search_protocol import Budget, Clock, run_within

__all__ = ["SelfDirectedSearch", "self_directed_value", "solve_self_directed"]


class SelfDirectedSearch:
    """The memoised recursion of the self-directed game (module docstring), kept for the optimal players.

    Parameters
    ----------
    H : HypothesisClass or array_like
        The class, or a table of labels.
    rules : Rules
        Labels and randomization (:func:`~mistakebound.theory.order_games.order_rules`).
    clock : Clock, optional
        The budget being spent (default: none).
    game : OrderGame, optional
        The class as another order's search reads it, whose clock it then spends (``H`` is
        not read again): the best order's search bounds its leaves by this one.

    Examples
    --------
    >>> from mistakebound import classes
    >>> search = SelfDirectedSearch(classes.thresholds(7))
    >>> search.value(search.root), search.game.domain[search.choice[search.root]]
    (1, 1)
    """

    def __init__(self, H: Any, rules: Rules = Rules(), clock: Clock | None = None, *, game: OrderGame | None = None):
        self.rules = order_rules(rules, "self-directed")
        self.game = game if game is not None else OrderGame(H, self.rules, clock)
        self.root = self.game.full
        self.memo: dict[int, Any] = {}  # exact values
        self.lower: dict[int, Any] = {}  # proven lower bounds of the version spaces searched against a bound
        self.choice: dict[int, int] = {}
        self.root_upper: Any = None  # the best the root's instances searched so far gave (proven)

    def value(self, V: int, bound: Any = None) -> Any:
        """``SD(V)``: the mistakes the best learner concedes from version space ``V``; with ``bound``, exact when
        below it, else a proven lower bound at least ``bound`` (a search that needs no more)."""
        with deep(self.game.n):
            return self._value(V, bound)

    def _value(self, V: int, bound: Any = None) -> Any:
        if V.bit_count() <= 1:
            return 0
        known = self.memo.get(V)
        if known is not None:
            return known
        g = self.game
        floor = max(g.floor(V), self.lower.get(V, 0))
        if bound is not None and floor >= bound:
            return floor
        g.clock.spend()
        best, choice = bound, None  # an instance is kept when its step is below best (no bound: any)
        columns = g.splitting(V)
        columns.sort(key=lambda j: -max(part.bit_count() for part in g.parts(V, j)))
        for j in columns:
            parts = sorted(g.parts(V, j), key=int.bit_count, reverse=True)
            if best is not None and g.step([self._known(part) for part in parts]) >= best:
                continue  # the parts' floors already reach the best found: no need to search them
            values = []
            for part in parts:
                values.append(self._value(part, best))  # exact below best, else at least best
                if best is not None and g.step(values) >= best:
                    break  # this instance is no better than one found: the step only grows with more parts
            else:
                best, choice = g.step(values), j
                if V == self.root:
                    self.root_upper = best
                if best <= floor:
                    break
        if choice is None:  # every instance reaches the bound: SD(V) >= bound, proven
            self.lower[V] = max(bound, self.lower.get(V, 0))
            return bound
        self.memo[V] = best
        self.choice[V] = choice
        return best

    def _known(self, V: int) -> Any:
        """What is proven of ``SD(V)`` without a search: exact when known, else a lower bound."""
        if V.bit_count() <= 1:
            return 0
        known = self.memo.get(V)
        return known if known is not None else max(self.game.floor(V), self.lower.get(V, 0))

    def _choice(self, V: int) -> int:
        """The instance the strategy picks at ``V`` (searched if it was not)."""
        self.value(V)
        return self.choice[V]

    def strategy(self) -> Strategy:
        """The optimal learner's strategy from the root: ``{rows of V: (instance, prediction)}`` for every version
        space its play reaches with two distinct rows or more (a :class:`~mistakebound.theory.order_games.Strategy`,
        read as it is asked)."""
        g = self.game

        def move(V: int) -> tuple[int, Any]:
            j = self._choice(V)
            labelled = g.labelled_parts(V, j)
            return j, g.prediction([self.value(part) for _, part in labelled], [y for y, _ in labelled])

        return Strategy(g, self.root, move)


def self_directed_value(H: Any, rules: Rules = Rules(), *, max_nodes: int | None = None,
                        time_limit: float | None = None) -> OrderValue:
    """The self-directed complexity of ``H``: the fewest mistakes a learner choosing the order of the instances
    can guarantee (Goldman and Sloan 1994), exact, with the learner's strategy as witness.

    Parameters
    ----------
    H : HypothesisClass or array_like
        The class (its instances are its domain), or a table of labels ``0..k-1``.
    rules : Rules
        The labels (``rules.labels``) and whether the learner randomizes (then an exact
        fraction); realizable, full information.  ``rules.order`` is the default or
        ``"self-directed"``.
    max_nodes, time_limit : int or float, optional
        A budget of version spaces expanded and/or seconds.

    Returns
    -------
    OrderValue
        Exact, with the strategy of :meth:`SelfDirectedSearch.strategy` as witness; or proven
        bounds (the floor; the best instance fully searched at the root, else the cap) with
        the status ``"budget"`` or ``"interrupted"``, and no witness.

    Raises
    ------
    InvalidArgumentError
        For a bad table or budget, or another order in ``rules``.
    NotApplicableError
        For bandit feedback or a noise budget.

    Examples
    --------
    >>> from mistakebound import classes
    >>> self_directed_value(classes.intervals(6)).value
    2
    >>> self_directed_value(classes.thresholds(7), Rules(randomized=True)).value   # below 1, deterministic's
    Fraction(127, 128)
    """
    return solve_self_directed(H, rules, max_nodes=max_nodes, time_limit=time_limit)[0]


def solve_self_directed(H: Any, rules: Rules = Rules(), *, max_nodes: int | None = None,
                        time_limit: float | None = None) -> tuple[OrderValue, SelfDirectedSearch]:
    """:func:`self_directed_value`, and the search that found it (its memo of exact values and choices; empty when
    a fixed order, the most uneven splits first, reaches the floor, which ends the search before it starts).

    Examples
    --------
    >>> from mistakebound import classes
    >>> value, search = solve_self_directed(classes.power_set(3))   # no fixed order reaches the floor: searched
    >>> value.value, search.memo[search.root]
    (3, 3)
    """
    rules = order_rules(rules, "self-directed")
    clock = Budget(max_nodes=max_nodes, time_limit=time_limit).start()
    search = SelfDirectedSearch(H, rules, clock)
    g, out = search.game, {}

    def run() -> None:
        order = g.uneven_order(search.root)  # a fixed order worth the floor (thresholds, singletons): no search
        if order:
            out["bound"] = g.sequence_value(search.root, order)  # the learner may follow it: SD is at most this
            if out["bound"] == g.floor(search.root):
                out["order"] = order
                return
        search.value(search.root)

    status = run_within(run)
    if status == "exact" and "order" in out:
        value = g.floor(search.root)
        return OrderValue(value, value, nodes=clock.nodes, seconds=clock.seconds, rules=search.rules,
                          witness=g.order_strategy(search.root, out["order"])), search
    if status == "exact":
        value = search.memo.get(search.root, 0)
        return OrderValue(value, value, nodes=clock.nodes, seconds=clock.seconds, rules=search.rules,
                          witness=search.strategy()), search
    if out.get("bound") is not None:
        search.root_upper = out["bound"] if search.root_upper is None else min(search.root_upper, out["bound"])
    upper = g.cap(search.root) if search.root_upper is None else min(g.cap(search.root), search.root_upper)
    return OrderValue(min(g.floor(search.root), upper), upper, status=status, nodes=clock.nodes,
                      seconds=clock.seconds, rules=search.rules), search
