"""Best order and worst order: every instance once, in an order fixed in advance and known to the learner.

Ben-David, Kushilevitz and Mansour (1997, "Online learning versus offline learning",
Machine Learning 29) study the off-line game: the sequence of instances is known to the
learner before round 1, the labels are the adversary's, chosen as the game goes, and
realizable.  On a finite domain, with every instance presented once,

* the **best order** value ``M_best`` is the least, over the orders of the domain, of the
  value of the game on that order (the order most favourable to the learner);
* the **worst order** value ``M_worst`` the largest (least favourable).

The value of a fixed order is the rank-like recursion of
:meth:`~mistakebound.theory.order_games.OrderGame.sequence_value`.  They sit between the
others (each proven by a player of one game playing another's): the self-directed
complexity ``<= M_best`` (a self-directed learner may follow the best order),
``M_best <= M_worst``, and ``M_worst <= Ldim`` (the adaptive adversary may follow the worst
order); ``VCdim <= M_worst`` (the worst order may start with a shattered set, every label of
which is realizable).  See :mod:`~mistakebound.theory.transductive` for the worst order as
the transductive game's value.

**The search** is a branch and bound over orders, memoised by version space: from ``V``, an
order's first instances (its prefix ``P``) split ``V`` into a tree whose leaves are the
version spaces the labels of ``P`` leave, and the value of the whole order is the tree's
step recursion over the values of the rest of the order at its leaves.  The rest is one
order for every leaf, but each leaf's value under it is at least its own best-order value
and at most its own worst-order value, both memoised by ``V`` (the version space is the whole
state: :mod:`~mistakebound.theory.order_games`); the step only grows with its values, so the
tree over those bounds every order beginning with ``P`` (from below for the best order, from
above for the worst).  Before searching, it values one order (:meth:`OrderSearch.guess`: the
self-directed strategy's instances along its largest parts for the best order, left to right
on thresholds; the textbook adversary's instances breadth first for the worst, binary search
on thresholds) against the bound no order passes (the self-directed complexity below the best
order, the Littlestone dimension and the horizon above the worst): equal, that order is the
answer.  Otherwise it extends prefixes depth first, the most promising child first (bounded
by the cheap bounds of its leaves: the self-directed complexity or the Littlestone
dimension; once it completed an order of its own, by their exact values before it descends),
drops those whose bound cannot beat the order found, and stops once an order reaches the
bound of the first level.  Two instances next to each other in a prefix that split
different leaves give the same tree in either order: only the one with the smaller column
first is searched.  An instance that splits no leaf is worth nothing anywhere after (its
leaves only get smaller) and goes to the end of the order, as do instances that split ``V``
as another one does.

Examples
--------
>>> from mistakebound import classes
>>> best_order_value(classes.thresholds(15)).value, worst_order_value(classes.thresholds(15)).value
(1, 4)
>>> worst_order_value(classes.thresholds(7)).witness    # binary search, breadth first
(4, 2, 6, 1, 3, 5, 7)
>>> best_order_value(classes.power_set(4)).value         # every order: each point's label is free
4
"""

from __future__ import annotations

from typing import Any

from attrs import evolve

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.rules import Rules
from mistakebound.theory.game_values import install_order_engine
from mistakebound.theory.order_games import OrderGame, OrderValue, deep, order_rules
from mistakebound.theory.search_protocol import Budget, Clock, run_within
from mistakebound.theory.self_directed import SelfDirectedSearch

__all__ = ["OrderSearch", "best_order_value", "worst_order_value", "order_value", "solve_order"]

#: The two orders fixed in advance, and whether the search minimises (the learner's) or maximises (the adversary's).
MODES = {"best": True, "worst": False}


class _Found(Exception):
    """An order reached the bound of the first level: no order can do better."""


class OrderSearch:
    """The branch and bound of the best or the worst order (module docstring), memoised by version space.

    Parameters
    ----------
    H : HypothesisClass or array_like
        The class, or a table of labels.
    mode : {"best", "worst"}
        The order searched.
    rules : Rules
        Labels and randomization (:func:`~mistakebound.theory.order_games.order_rules`).
    clock : Clock, optional
        The budget being spent (default: none).

    Examples
    --------
    >>> from mistakebound import classes
    >>> search = OrderSearch(classes.singletons(5), "worst")
    >>> search.value(search.root), search.solve(search.root)
    (1, (1, (0, 1, 2, 3, 4)))
    """

    def __init__(self, H: Any, mode: str, rules: Rules = Rules(), clock: Clock | None = None):
        if mode not in MODES:
            raise InvalidArgumentError(f"mode: expected 'best' or 'worst', got {mode!r}")
        self.mode = mode
        self.minimize = MODES[mode]
        self.rules = order_rules(rules, "worst" if mode == "worst" else "best")
        self.game = OrderGame(H, self.rules, clock)
        # the best order's leaves are bounded below by the self-directed complexity (on the same bitsets and clock)
        self.self_directed = SelfDirectedSearch(None, evolve(self.rules, order="adaptive"), game=self.game)
        self.root = self.game.full
        self.memo: dict[int, Any] = {}
        self.orders: dict[int, tuple[int, ...]] = {}
        # what the search of the root proved so far: an order's value (upper for best, lower for worst) and the
        # first level's bound (the other side), None until known
        self.found: Any = None
        self.found_order: tuple[int, ...] | None = None
        self.level_bound: Any = None

    def value(self, V: int) -> Any:
        """The best (or worst) order's value from version space ``V``, exact."""
        with deep(self.game.n * (len(self.game.columns) + 2)):
            return self._value(V)

    def _value(self, V: int) -> Any:
        if V.bit_count() <= 1:
            return 0
        known = self.memo.get(V)
        if known is None:
            known, order = self._solve(V, None, False)
            self.memo[V], self.orders[V] = known, order
        return known

    def solve(self, V: int, horizon: int | None = None) -> tuple[Any, tuple[int, ...]]:
        """``(value, order)``: the best (or worst) order of the columns splitting ``V``, at most ``horizon`` of them
        (None: all), and its value; what it proves is kept in :attr:`found` and :attr:`level_bound` as it goes."""
        with deep(self.game.n * (len(self.game.columns) + 2)):
            if horizon is None and V in self.memo:
                return self.memo[V], self.orders[V]
            value, order = self._solve(V, horizon, True)
            if horizon is None:
                self.memo[V], self.orders[V] = value, order
            return value, order

    def cheap(self, L: int) -> Any:
        """A bound on ``L``'s value that costs no search of orders: the exact value when known, else the
        self-directed complexity (below the best order's) or the Littlestone dimension (above the worst's)."""
        if L.bit_count() <= 1:
            return 0
        known = self.memo.get(L)
        if known is not None:
            return known
        if self.minimize:
            return self.self_directed.value(L)
        return self.game.adaptive_value(L)

    def guess(self, V: int, horizon: int | None = None) -> tuple[int, ...]:
        """A first order of the columns splitting ``V``, before any search: for the best order, the self-directed
        strategy's instances along its largest parts (left to right on thresholds); for the worst, the textbook
        adversary's instances, breadth first (binary search on thresholds); then the rest; cut at ``horizon``."""
        g, order = self.game, []
        if self.minimize:
            W = V
            while W.bit_count() > 1:
                self.self_directed.value(W)
                j = self.self_directed.choice[W]
                order.append(j)
                W = max(g.parts(W, j), key=int.bit_count)
        else:
            for _, j in g.walk(V, self._adaptive_choice, breadth_first=True):
                if j not in order:
                    order.append(j)
        order += [j for j in g.splitting(V) if j not in order]
        return tuple(order if horizon is None else order[:horizon])

    def _adaptive_choice(self, V: int) -> int:
        self.game.adaptive_value(V)
        return self.game.adaptive_choice[V]

    def bound(self, V: int, horizon: int | None = None) -> Any:
        """A proven bound on ``V``'s value before any search of orders: below the best order's, the self-directed
        complexity; above the worst's (and the transductive game's), the Littlestone dimension, and the horizon."""
        if self.minimize:
            return self.self_directed.value(V)
        ldim = self.game.ldim_bound(V)
        return ldim if horizon is None else min(ldim, horizon)

    def _solve(self, V: int, horizon: int | None, record: bool) -> tuple[Any, tuple[int, ...]]:
        g, minimize = self.game, self.minimize
        columns = g.splitting(V)
        if not columns or horizon == 0:
            return 0, ()
        # a first order that costs no search (the most uneven splits first for the best order, the most even ones
        # breadth first for the worst), against the bound no order passes: equal, it is the answer
        quick = g.uneven_order(V) if minimize else g.balanced_order(V)
        quick = quick if horizon is None else quick[:horizon]
        first, first_value = quick, g.sequence_value(V, quick)
        if record:
            self.found, self.found_order = first_value, first
        if first_value == (g.floor(V) if minimize else min([g.cap(V)] + ([] if horizon is None else [horizon]))):
            if record:
                self.level_bound = first_value
            return first_value, first
        level: list = [self.bound(V, horizon)]
        if record:
            self.level_bound = level[0]
        if first_value != level[0]:  # then a first order read off the searches of the other games
            guess = self.guess(V, horizon)
            guess_value = g.sequence_value(V, guess)
            if (guess_value < first_value) if minimize else (guess_value > first_value):
                first, first_value = guess, guess_value
                if record:
                    self.found, self.found_order = first_value, first
        best: list = [first_value, first]  # the incumbent: value, order
        dived = [False]  # whether the search completed an order itself (then it refines bounds before descending)
        if first_value == level[0]:
            return first_value, first

        def evaluate(tree: Any, left: int | None, leaf: Any) -> Any:
            if isinstance(tree, int):
                if left == 0 or tree.bit_count() <= 1:
                    return 0
                v = leaf(tree)
                return v if left is None else min(v, left)
            return g.step([evaluate(child, left, leaf) for child in tree])

        def extend(tree: Any, j: int, parents: list) -> Any:
            if isinstance(tree, int):
                parts = g.parts(tree, j)
                if len(parts) < 2:
                    return tree
                parents.append(tree)
                return tuple(parts)
            return tuple(extend(child, j, parents) for child in tree)

        def improves(b: Any) -> bool:
            return best[0] is None or (b < best[0] if minimize else b > best[0])

        def dfs(tree: Any, placed: tuple[int, ...], last: int | None, last_parents: list) -> None:
            left = None if horizon is None else horizon - len(placed)
            after = None if left is None else left - 1
            current = [tree] if isinstance(tree, int) else list(_leaves(tree))
            children = []
            if left != 0:
                for j in columns:
                    if j in placed or not any(g.splits(L, j) for L in current):
                        continue
                    if last is not None and j < last and not any(g.splits(L, j) for L in last_parents):
                        continue  # it commutes with the last instance: the smaller column first was searched
                    g.clock.spend()  # a node: a prefix bounded
                    parents: list = []
                    child = extend(tree, j, parents)
                    children.append((evaluate(child, after, self.cheap), j, child, parents))
            if not children:  # every instance that splits a leaf placed (or the horizon reached)
                value = evaluate(tree, 0, self.cheap)
                dived[0] = True
                if improves(value):
                    best[0], best[1] = value, placed
                    if record:
                        self.found, self.found_order = value, placed
                return
            children.sort(key=lambda c: (c[0] if minimize else -c[0], c[1]))
            if not placed:  # no order beats the best child's bound
                level[0] = max(level[0], children[0][0]) if minimize else min(level[0], children[0][0])
                if record:
                    self.level_bound = level[0]
                if best[0] == level[0]:
                    raise _Found
            for b, j, child, parents in children:
                if not improves(b):
                    break
                if dived[0]:  # the search completed an order: bound the child by its leaves' exact values first
                    if not improves(evaluate(child, after, self._value)):
                        continue
                dfs(child, placed + (j,), j, parents)
                if best[0] == level[0]:
                    raise _Found

        try:
            dfs(V, (), None, [])
        except _Found:
            pass
        return best[0], best[1]

    def order_of(self, columns: tuple[int, ...], length: int | None = None) -> tuple:
        """The instances of ``columns`` then the rest of the domain in its order: a whole order (or the first
        ``length`` instances, repeating the last when the domain is shorter)."""
        g = self.game
        rest = [j for j in range(len(g.columns)) if j not in columns]
        order = list(columns) + rest
        if length is not None:
            order = order[:length]
            while order and len(order) < length:
                order.append(order[-1])
        return tuple(g.domain[j] for j in order)


def _leaves(tree: Any):
    if isinstance(tree, int):
        yield tree
    else:
        for child in tree:
            yield from _leaves(child)


def order_value(H: Any, mode: str, rules: Rules = Rules(), *, horizon: int | None = None,
                max_nodes: int | None = None, time_limit: float | None = None) -> OrderValue:
    """The best or worst order's value (``mode``), or with ``horizon`` the transductive game's: the search of
    :class:`OrderSearch` within a budget, an :class:`~mistakebound.theory.order_games.OrderValue`.

    Out of budget, the interval is what the search proved: an order's value on one side (its
    witness), the first level's bound on the other, else the floor and the cap of
    :class:`~mistakebound.theory.order_games.OrderGame` (and the horizon).

    Examples
    --------
    >>> from mistakebound import classes
    >>> [order_value(classes.thresholds(7), "worst", horizon=n).value for n in range(8)]  # 2^d - 1 rounds for d
    [0, 1, 1, 2, 2, 2, 2, 3]
    >>> order_value(classes.thresholds(7), "worst", horizon=3).witness
    (4, 2, 6)
    """
    return _order_value(H, mode, rules, horizon=horizon, max_nodes=max_nodes, time_limit=time_limit)[0]


def _order_value(H: Any, mode: str, rules: Rules, *, horizon: int | None, max_nodes: int | None,
                 time_limit: float | None) -> tuple[OrderValue, OrderSearch]:
    clock = Budget(max_nodes=max_nodes, time_limit=time_limit).start()
    search = OrderSearch(H, mode, rules, clock)
    rules = search.rules if horizon is None else evolve(search.rules, order="transductive")
    out: dict = {}
    status = run_within(lambda: out.setdefault("result", search.solve(search.root, horizon)))
    length = None if horizon is None else horizon
    if status == "exact":
        value, columns = out["result"]
        return OrderValue(value, value, nodes=clock.nodes, seconds=clock.seconds, rules=rules, horizon=horizon,
                          witness=search.order_of(columns, length)), search
    g = search.game
    floor, cap = g.floor(search.root), g.cap(search.root)
    if horizon is not None:
        floor, cap = min(floor, horizon), min(cap, horizon)
    found = search.found
    witness = None if search.found_order is None else search.order_of(search.found_order, length)
    if search.minimize:
        upper = cap if found is None else min(cap, found)
        lower = floor if search.level_bound is None else max(floor, search.level_bound)
    else:
        lower = floor if found is None else max(floor, found)
        upper = cap if search.level_bound is None else min(cap, search.level_bound)
    lower = min(lower, upper)
    return OrderValue(lower, upper, status=status, nodes=clock.nodes, seconds=clock.seconds, rules=rules,
                      horizon=horizon, witness=witness), search


def best_order_value(H: Any, rules: Rules = Rules(), *, max_nodes: int | None = None,
                     time_limit: float | None = None) -> OrderValue:
    """``M_best``: the value of the game on the order of the domain most favourable to the learner (Ben-David,
    Kushilevitz and Mansour 1997), exact, with that order as witness.

    Parameters
    ----------
    H : HypothesisClass or array_like
        The class (its instances are its domain), or a table of labels ``0..k-1``.
    rules : Rules
        The labels and whether the learner randomizes; realizable, full information;
        ``rules.order`` the default or ``"best"``.
    max_nodes, time_limit : int or float, optional
        A budget of prefixes expanded and/or seconds.

    Returns
    -------
    OrderValue
        Exact, or proven bounds (see :func:`order_value`).

    Raises
    ------
    InvalidArgumentError
        For a bad table or budget, or another order in ``rules``.
    NotApplicableError
        For bandit feedback or a noise budget.

    Examples
    --------
    >>> from mistakebound import classes
    >>> r = best_order_value(classes.intervals(5))
    >>> r.value, len(r.witness)
    (2, 5)
    """
    return order_value(H, "best", rules, max_nodes=max_nodes, time_limit=time_limit)


def worst_order_value(H: Any, rules: Rules = Rules(), *, max_nodes: int | None = None,
                      time_limit: float | None = None) -> OrderValue:
    """``M_worst``: the value of the game on the order of the domain least favourable to the learner (Ben-David,
    Kushilevitz and Mansour 1997), exact, with that order as witness.

    Parameters and the rest as :func:`best_order_value` (``rules.order`` the default or ``"worst"``).

    Examples
    --------
    >>> from mistakebound import classes
    >>> worst_order_value(classes.singletons(6)).value, worst_order_value(classes.power_set(3)).value
    (1, 3)
    """
    return order_value(H, "worst", rules, max_nodes=max_nodes, time_limit=time_limit)


def solve_order(H: Any, rules: Rules, *, max_nodes: int | None = None,
                time_limit: float | None = None) -> tuple[OrderValue, Any]:
    """The value of the game under ``rules.order`` (not the default), and the search that found it: what
    :func:`~mistakebound.theory.game_values.game_value` answers for an order.

    ``"transductive"`` is the game without a number of rounds, whose value is the worst order's
    (:mod:`~mistakebound.theory.transductive`); its witness is the worst order.

    Examples
    --------
    >>> from mistakebound import classes
    >>> value, search = solve_order(classes.thresholds(7), Rules(order="transductive"))
    >>> value.value, value.rules.order, value.witness[:3]
    (3, 'transductive', (4, 2, 6))
    """
    order = rules.order
    if order == "self-directed":
        from mistakebound.theory.self_directed import solve_self_directed

        return solve_self_directed(H, rules, max_nodes=max_nodes, time_limit=time_limit)
    if order == "transductive":
        base = order_rules(rules, "transductive")
        value, search = _order_value(H, "worst", evolve(base, order="adaptive"), horizon=None, max_nodes=max_nodes,
                                     time_limit=time_limit)
        return evolve(value, rules=base), search
    if order not in MODES:
        raise InvalidArgumentError(f"rules: order={order!r} is not searched by the order searches; expected one of "
                                   "'transductive', 'self-directed', 'best', 'worst'")
    return _order_value(H, order, rules, horizon=None, max_nodes=max_nodes, time_limit=time_limit)


install_order_engine(solve_order)
