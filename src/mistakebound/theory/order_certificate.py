"""Certificates of the games in which someone else orders the instances: self-directed, best, worst, transductive.

The sections are checked by :mod:`mistakebound.certificates.self_directed` (``"self-directed"``)
and :mod:`mistakebound.certificates.orders` (``"best-order"``, ``"worst-order"``,
``"transductive"``), whose docstrings give their formats and why an accepted one is true.

* :func:`self_directed_section`: ``SD(V) <= b`` follows the learner's choice at each version
  space (the search's, or a fixed order's when the search was not needed), ``SD(V) >= a``
  answers every instance splitting ``V`` with facts on its parts, read off the search's
  proven lower bounds (``search.value(V, bound)``);
* :func:`order_section`: the order (sequence) found is one side, valued by the checker; the
  other is, cheapest first, the floor (1 with two distinct rows) or ``log2`` of the distinct
  rows, the horizon, an earlier section of the same document (the self-directed complexity
  below the best order, the Littlestone dimension or the worst order above the others; one
  is added to the writer when it settles the value and ``cite=True``), or a prefix tree
  whose leaves cite facts on the version spaces they leave, each proved the same way.

Deterministic learners and two labels only: other rules raise
:class:`~mistakebound.foundations.errors.NotApplicableError`.  When the budget runs out a
section states only the sides proven (the order's own, and the cheap bound of the other).

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.certificates.verify import check
>>> H = classes.intervals(4)
>>> w = CertificateWriter(H)
>>> _ = self_directed_section(H, w)
>>> _ = order_section(H, w, "best")
>>> _ = order_section(H, w, "worst")
>>> _ = order_section(H, w, "worst", horizon=2)
>>> check(w.document())
{'self-directed': (2, 2), 'best-order': (2, 2), 'worst-order': (3, 3), 'transductive': (2, 2)}
"""

from __future__ import annotations

from typing import Any

from attrs import evolve

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.rules import Rules, require_rules
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.instance_orders import OrderSearch, _order_value
from mistakebound.theory.order_games import OrderGame, OrderValue, deep, order_rules, step_value
from mistakebound.theory.search_protocol import Budget, OutOfBudget, run_within
from mistakebound.theory.self_directed import SelfDirectedSearch

__all__ = ["order_section", "self_directed_section"]

#: The section's kind for each order searched.
KIND = {"best": "best-order", "worst": "worst-order"}


def _deterministic(writer: CertificateWriter, rules: Any, order: str) -> Rules:
    """``rules`` for ``order`` (:func:`~mistakebound.theory.order_games.order_rules`), refused unless the certificate
    can be checked: deterministic learners, two labels."""
    rules = order_rules(rules, order)
    if rules.randomized or rules.labels != 2 or writer.H is None or writer.H.n_labels != 2:
        what = "randomized learners" if rules.randomized else f"{max(rules.labels, 3)} labels"
        raise NotApplicableError(f"rules: the {order} game's certificates are written for deterministic learners and "
                                 f"two labels; got {what} (the checker has no kind for them)")
    return rules


class _Spaces:
    """The writer's spaces of an :class:`OrderGame`'s version spaces (bitsets over distinct rows), parts as parts."""

    def __init__(self, game: OrderGame, writer: CertificateWriter):
        self.game, self.writer, self.ids = game, writer, {}
        self.facts: list[list] = []

    def rows(self, V: int) -> int:
        """``V`` over every row of the class, as the checker reads it."""
        return self.writer.from_distinct(V, self.game.row_to_distinct)

    def index(self, V: int, parent: tuple[int, int, int] | None = None) -> int:
        """The writer's index of ``V``; ``parent=(W, x, y)`` says that ``V`` is ``W_x^y``."""
        found = self.ids.get(V)
        if found is None:
            part_of = None if parent is None else (self.index(parent[0]), parent[1], parent[2])
            found = self.ids[V] = self.writer.space(self.rows(V), part_of=part_of)
        return found

    def part(self, V: int, x: int, y: int) -> int:
        """``V_x^y``, registered as that part."""
        W = V & self.game.columns[x][y]
        self.index(W, (V, x, y))
        return W

    def add(self, fact: list) -> int:
        self.facts.append(fact)
        return len(self.facts) - 1


# ---------------------------------------------------------------------------------------------- self-directed
class _SelfDirected(_Spaces):
    """The facts of a ``"self-directed"`` section, one per version space and side."""

    def __init__(self, search: SelfDirectedSearch, writer: CertificateWriter):
        super().__init__(search.game, writer)
        self.search = search
        self.upper: dict[int, tuple[int, int]] = {}
        self.lower: dict[int, tuple[int, int]] = {}

    def le(self, V: int, choose) -> tuple[int, int]:
        """``(fact, b)``: ``SD(V) <= b`` for the learner that picks ``choose(W)`` at each version space ``W``."""
        done = self.upper.get(V)
        if done is None:
            if V.bit_count() <= 1:  # one distinct row (two differ somewhere: some instance splits them)
                done = (self.add([self.index(V), "le", 0, None]), 0)
            else:
                x = choose(V)
                (f0, v0), (f1, v1) = (self.le(self.part(V, x, y), choose) for y in (0, 1))
                value = step_value([v0, v1])
                done = (self.add([self.index(V), "le", value, [x, f0, f1]]), value)
            self.upper[V] = done
        return done

    def ge(self, V: int, a: int) -> int:
        """A fact ``SD(V) >= a`` (``a <= SD(V)``), every instance splitting ``V`` answered."""
        done = self.lower.get(V)
        if done is not None and done[1] >= a:
            return done[0]
        g = self.game
        if a <= 1:
            a = max(a, 0)
            k = self.add([self.index(V), "ge", a, None])
        else:
            entries, by_parts = [], {}
            for x in range(len(g.columns)):
                if not g.splits(V, x):
                    continue
                P0, P1 = (self.part(V, x, y) for y in (0, 1))
                if (P0, P1) not in by_parts:
                    v0, v1 = (self.search.value(P, a) for P in (P0, P1))  # exact below a, else at least a
                    wants = (a, 0) if v0 >= a else (0, a) if v1 >= a else (a - 1, a - 1)
                    by_parts[P0, P1] = (self.ge(P0, wants[0]), self.ge(P1, wants[1]))
                entries.append([x, *by_parts[P0, P1]])
            k = self.add([self.index(V), "ge", a, entries])
        self.lower[V] = (k, a)
        return k


def self_directed_section(H: Any, writer: CertificateWriter, *, rules: Rules = Rules(), max_nodes: int | None = None,
                          time_limit: float | None = None, result: OrderValue | None = None) -> dict:
    """Add to ``writer`` a certificate of the self-directed complexity ``SD(H)`` (Goldman and Sloan 1994).

    Parameters
    ----------
    H : HypothesisClass
        The class of ``writer``.
    writer : CertificateWriter
        The document the section is added to.
    rules : Rules
        Deterministic learners, two labels; ``rules.order`` the default or ``"self-directed"``.
    max_nodes, time_limit : int or float, optional
        The budget of the search the certificate is read from.
    result : OrderValue, optional
        :func:`~mistakebound.theory.self_directed.self_directed_value`'s answer, already
        computed: its strategy gives the upper side without a search (and, at the floor,
        the lower side too).

    Returns
    -------
    dict
        The section, also added to ``writer``; its claim holds the sides proven (the floor and a
        fixed order's value when the budget runs out).

    Raises
    ------
    NotApplicableError
        For randomized learners or more than two labels.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.certificates.verify import check
    >>> w = CertificateWriter(classes.power_set(3))
    >>> section = self_directed_section(classes.power_set(3), w)
    >>> section["claim"]["lower"][1], section["claim"]["upper"][1], check(w.document())
    (3, 3, {'self-directed': (3, 3)})
    """
    rules = _deterministic(writer, rules, "self-directed")
    H = writer.of(H)
    search = SelfDirectedSearch(H, rules, Budget(max_nodes=max_nodes, time_limit=time_limit).start())
    g, root = search.game, search.root
    p = _SelfDirected(search, writer)
    out: dict = {}
    with deep(g.n + 10):
        if result is not None and result.exact and result.witness is not None:
            out["upper"] = p.le(root, lambda V: result.witness.move(V)[0])
            if result.value <= g.floor(root):
                out["lower"] = (p.ge(root, result.value), result.value)

        def run() -> None:
            value = search.value(root)
            out.setdefault("upper", p.le(root, search._choice))
            out["lower"] = (p.ge(root, value), value)

        if "lower" not in out and run_within(run) != "exact":
            out.setdefault("lower", (p.ge(root, g.floor(root)), g.floor(root)))
            out.setdefault("upper", p.le(root, _first_in(g, g.uneven_order(root))))
    (low, lo), (high, hi) = out["lower"], out["upper"]
    section = {"result": "self-directed", "facts": p.facts, "claim": {"lower": [low, lo], "upper": [high, hi]}}
    writer.add(section)
    return section


def _first_in(game: OrderGame, order: tuple[int, ...]):
    """The learner following ``order``: at each version space, its first instance that splits it."""
    return lambda V: next(x for x in order if game.splits(V, x))


# ---------------------------------------------------------------------------------------------- fixed orders
class _Prefixes(_Spaces):
    """The far side's facts of a best- or worst-order section: every order from ``V`` is at least (``"ge"``) or at
    most (``"le"``) a value, proved by the floor, ``log2`` of the distinct rows, or a prefix tree."""

    def __init__(self, search: OrderSearch, writer: CertificateWriter):
        super().__init__(search.game, writer)
        self.search = search
        self.far = "ge" if search.minimize else "le"
        self.done: dict[int, int] = {}

    def exact(self, V: int) -> int:
        return 0 if V.bit_count() <= 1 else self.search.value(V)

    def trivial(self, V: int, value: int) -> bool:
        """Whether ``value`` needs no proof from ``V`` (the checker's null step)."""
        if self.far == "ge":
            return value <= self.game.floor(V)
        return value >= V.bit_count().bit_length() - 1  # the search's bitsets hold distinct rows

    def fact(self, V: int) -> int:
        """A fact stating the best (worst) order's exact value from ``V``."""
        done = self.done.get(V)
        if done is None:
            value = self.exact(V)
            proof = None if self.trivial(V, value) else self.node((V,), 0, value, None)
            done = self.done[V] = self.add([self.index(V), self.far, value, proof])
        return done

    def meets(self, bound: int, target: int) -> bool:
        return bound >= target if self.far == "ge" else bound <= target

    def node(self, tree: Any, depth: int, target: int, horizon: int | None) -> list:
        """The prefix tree below the prefix whose label tree is ``tree`` (nested tuples, leaves bitsets)."""
        g = self.game
        self.search.game.clock.spend()
        leaves = list(_leaves(tree))
        if horizon is not None and depth == horizon:
            return ["next", []]
        if depth and self.meets(_evaluate(tree, lambda L: _capped(self.exact(L), horizon, depth)), target):
            return ["leaves", [self.fact(L) for L in sorted(leaves, key=self.rows)]]
        children = []
        for x in range(len(g.columns)):
            if any(g.splits(L, x) for L in leaves):
                children.append([x, self.node(_extend(g, tree, x), depth + 1, target, horizon)])
        return ["next", children]


def _capped(value: int, horizon: int | None, depth: int) -> int:
    return value if horizon is None else min(value, horizon - depth)


def _leaves(tree: Any):
    if isinstance(tree, int):
        yield tree
    else:
        for child in tree:
            yield from _leaves(child)


def _extend(game: OrderGame, tree: Any, x: int) -> Any:
    """The label tree one instance longer: every leaf ``x`` splits, split (label 0, then 1)."""
    if isinstance(tree, int):
        return tuple(game.parts(tree, x)) if game.splits(tree, x) else tree
    return tuple(_extend(game, child, x) for child in tree)


def _evaluate(tree: Any, value) -> int:
    """The label tree's step over ``value(leaf)``."""
    if isinstance(tree, int):
        return value(tree)
    return step_value([_evaluate(child, value) for child in tree])


def order_section(H: Any, writer: CertificateWriter, mode: str | None = None, *, rules: Rules = Rules(),
                  horizon: int | None = None, max_nodes: int | None = None, time_limit: float | None = None,
                  result: OrderValue | None = None, cite: bool = True) -> dict:
    """Add to ``writer`` a certificate of the best or the worst order's value, or the transductive one at ``horizon``.

    Parameters
    ----------
    H : HypothesisClass
        The class of ``writer``.
    writer : CertificateWriter
        The document the section is added to.
    mode : {"best", "worst"}, optional
        The order; None reads it off ``rules.order`` (``"transductive"``: the worst, with ``horizon``).
    rules : Rules
        Deterministic learners, two labels.
    horizon : int, optional
        The transductive game's number of rounds (only with ``"worst"``): a ``"transductive"`` section.
    max_nodes, time_limit : int or float, optional
        The budget of the search (and, again, of the prefix tree).
    result : OrderValue, optional
        The value already computed (:func:`~mistakebound.theory.instance_orders.order_value`, with the same
        horizon): its witness is the order side, and no search runs when a cheap bound settles the other.
    cite : bool
        Whether a ``"self-directed"`` (best) or ``"ldim"`` (worst, transductive) section may be added to
        ``writer`` before this one, when it settles the value and ``writer`` has none: add those sections
        first, if the caller wants them anyway.

    Returns
    -------
    dict
        The section, also added to ``writer``; its claim holds the sides proven.

    Raises
    ------
    InvalidArgumentError
        For another mode, or a horizon with the best order.
    NotApplicableError
        For randomized learners or more than two labels.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.certificates.verify import check, describe
    >>> H = classes.thresholds(15)
    >>> w = CertificateWriter(H)
    >>> order_section(H, w, "best")["claim"]["upper"][:2], order_section(H, w, "worst")["claim"]["lower"][:2]
    (['order', 1], ['order', 4])
    >>> print(describe(check(w.document()))[-1])  # doctest: +ELLIPSIS
    4 <= M_worst(H; deterministic learners) <= 4, where H is the class of 16 hypotheses on 15 instances ...
    """
    base = require_rules(rules)
    if mode is None:
        mode = "worst" if base.order == "transductive" else base.order
    if mode not in KIND:
        raise InvalidArgumentError(f"mode: expected 'best' or 'worst', got {mode!r}")
    if horizon is not None and mode != "worst":
        raise InvalidArgumentError("horizon: the transductive game is the worst order's, cut at the horizon; got the "
                                   "best order")
    order = "transductive" if base.order == "transductive" and mode == "worst" else mode
    rules = evolve(_deterministic(writer, base, order), order="adaptive")
    H = writer.of(H)
    kind = KIND[mode] if horizon is None else "transductive"
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
    if result is not None and result.witness is not None:  # the order is known: search only what a proof needs
        search = OrderSearch(H, mode, rules, budget.start())
    else:
        result, search = _order_value(H, mode, rules, horizon=horizon, max_nodes=max_nodes, time_limit=time_limit)
    g = search.game
    g.clock = Budget().start()  # an order's value costs no search (a level of spaces per instance): not budgeted
    p = _Prefixes(search, writer)
    columns = [] if result.witness is None else [g.column(x) for x in result.witness]
    if result.witness is not None and len(columns) == (len(g.columns) if horizon is None else horizon):
        ordered = ["order", g.sequence_value(g.full, columns), columns]
    else:
        ordered = None  # no order found (or no sequence of that length on an empty domain)
    # the value the other side proves: the order's when it is known optimal, else what the search proved
    exact = ordered is not None and result.exact and ordered[1] == result.value
    target = ordered[1] if exact else (result.upper if mode == "worst" else result.lower)
    search.game.clock = budget.start()
    far = _far_side(p, writer, kind, target, horizon, exact, cite, H, budget)
    side = {"best": ("lower", "upper"), "worst": ("upper", "lower")}[mode]
    claim = {side[0]: far, side[1]: ordered}
    section = {"result": kind, **({} if horizon is None else {"horizon": horizon}), "facts": p.facts,
               "claim": {k: v for k, v in claim.items() if v is not None}}
    writer.add(section)
    return section


def _far_side(p: _Prefixes, writer: CertificateWriter, kind: str, target: int, horizon: int | None,
              exact: bool, cite: bool, H: Any, budget: Budget) -> list | None:
    """The claim of the side no order witnesses, proving ``target`` when the budget allows, else what is cheap."""
    g, root, best = p.game, p.game.full, p.far == "ge"
    cheap = [("trivial", g.floor(root) if best else _log2(root))]
    if horizon is not None:
        cheap.append(("horizon", horizon))
    kinds = ("self-directed",) if best else ("ldim", "worst-order") if horizon is not None else ("ldim",)
    cheap += [(cited, value) for cited in kinds
              for value in [writer.claimed(cited, "lower" if best else "upper")] if value is not None]
    how, value = (max if best else min)(cheap, key=lambda c: c[1])
    if exact and not p.meets(value, target) and cite and writer.section(kinds[0]) is None:
        added = _add_cited(writer, kinds[0], H, target, budget)  # a section of its own settles it: add it first
        if added is not None:
            how, value = kinds[0], added
    if exact and not p.meets(value, target):  # a prefix tree, only of a value known exact
        try:
            with deep(g.n * (len(g.columns) + 2)):
                if horizon is None:
                    k = p.fact(root)
                    return ["fact", p.facts[k][2], k]
                node = p.node(root, 0, target, horizon)
                return ["tree", target, node]
        except OutOfBudget:
            pass
    if how == "trivial":
        k = p.add([p.index(root), p.far, value, None])
        return ["fact", value, k]
    if how == "horizon":
        return ["horizon", value]
    return ["cited", value, how]


def _log2(V: int) -> int:
    """``floor(log2 |V|)`` of a version space of distinct rows: what the checker's null ``"le"`` step allows."""
    return max(V.bit_count().bit_length() - 1, 0)


def _add_cited(writer: CertificateWriter, kind: str, H: Any, target: int, budget: Budget) -> int | None:
    """Add to ``writer`` the section of ``kind`` when its search, within ``budget``, proves ``target``; return what
    the section proved (None, and nothing added, when the search does not reach ``target``)."""
    if kind == "self-directed":
        from mistakebound.theory.self_directed import self_directed_value

        found = self_directed_value(H, Rules(), max_nodes=budget.max_nodes, time_limit=budget.time_limit)
        if found.lower < target:
            return None
        return self_directed_section(H, writer, max_nodes=budget.max_nodes, time_limit=budget.time_limit,
                                     result=found)["claim"]["lower"][1]
    from mistakebound.theory.ldim_certificate import engine_section
    from mistakebound.theory.littlestone import ldim_engine

    engine = ldim_engine(H, budget=budget, read="certificate")  # one search: its certificate is read off it
    found = engine.run()
    if found.upper > target:
        return None
    return engine_section(engine, found, writer, budget=budget.remaining(found))["claim"]["upper"][1]
