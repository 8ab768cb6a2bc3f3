"""False certificates of the order games: for each kind of step, the smallest lie it could carry.

The campaign of :mod:`tests.certificate_lies` calls :func:`order_documents` for each of its
classes (cut to six rows and four instances: the oracles try every order).  The honest facts
are built here from the brute force of :mod:`tests.order_oracles` (every history, every
permutation, every sequence), sharing no code with the checker or the package's searches and
writers; prefix trees are expanded in full (every prefix until no instance splits a leaf, or
the horizon), or closed at the first level by facts on the leaves.  Each lie departs from an
honest document in one step, the step its kind names (``"self-directed.ge"``,
``"worst-order.tree"``, ...), and the judge (:func:`truth`) finds its claim false by brute force.
``"grammar"`` documents leave the grammar of a section; ``"honest"`` ones must be accepted.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator

import numpy as np

from tests.documents import clone
from tests.game_lies import class_of
from tests.order_oracles import (best_order_oracle, self_directed_oracle, sequence_oracle, transductive_oracle,
                                 worst_order_oracle)

__all__ = ["KINDS", "order_documents", "truth"]

#: The kinds of result these lies are about.
KINDS = ("self-directed", "best-order", "worst-order", "transductive")


def truth(rows: list[tuple[int, ...]], section: dict):
    """The true value of what ``section`` states, by brute force."""
    kind = section["result"]
    if kind == "self-directed":
        return self_directed_oracle(rows)
    if kind == "best-order":
        return best_order_oracle(rows)
    if kind == "worst-order":
        return worst_order_oracle(rows)
    return transductive_oracle(rows, section["horizon"])


def _step(a: int, b: int) -> int:
    return max(a, b) if a != b else a + 1


class Honest:
    """A class (a 0/1 table) and the honest pieces of its certificates, by brute force on its sets of rows."""

    def __init__(self, M: np.ndarray):
        self.M = np.asarray(M, dtype=np.uint8)
        self.n, self.m = self.M.shape
        self.full = (1 << self.n) - 1
        self.table: list = []
        self.index: dict[int, int] = {}
        self.facts: list = []
        self.done: dict = {}

    def document(self, *sections: dict) -> dict:
        return {"format": "mistakebound-certificate", "version": 2, "class": class_of(self.M),
                "spaces": list(self.table), "results": [clone(s) for s in sections]}

    def space(self, V: int) -> int:
        if V not in self.index:
            self.index[V] = len(self.table)
            self.table.append(format(V, "x"))
        return self.index[V]

    def rows(self, V: int) -> list[tuple[int, ...]]:
        return [tuple(int(v) for v in self.M[i]) for i in range(self.n) if V >> i & 1]

    def part(self, V: int, x: int, y: int) -> int:
        return sum(1 << i for i in range(self.n) if V >> i & 1 and self.M[i, x] == y)

    def splits(self, V: int, x: int) -> bool:
        return 0 < self.part(V, x, 1) < V

    def splitting(self, V: int) -> list[int]:
        return [x for x in range(self.m) if self.splits(V, x)]

    @functools.lru_cache(maxsize=None)
    def value(self, kind: str, V: int, horizon: int | None = None):
        rows = self.rows(V)
        return truth(rows, {"result": kind, "horizon": horizon})

    def add(self, fact: list) -> int:
        self.facts.append(fact)
        return len(self.facts) - 1

    # ------------------------------------------------------------------ self-directed
    def sd_le(self, V: int) -> int:
        if ("le", V) not in self.done:
            xs = self.splitting(V)
            if not xs:
                self.done["le", V] = self.add([self.space(V), "le", 0, None])
            else:
                x = min(xs, key=lambda x: _step(*(self.value("self-directed", self.part(V, x, y)) for y in (0, 1))))
                f0, f1 = (self.sd_le(self.part(V, x, y)) for y in (0, 1))
                self.done["le", V] = self.add([self.space(V), "le", self.value("self-directed", V), [x, f0, f1]])
        return self.done["le", V]

    def sd_ge(self, V: int) -> int:
        if ("ge", V) not in self.done:
            a = self.value("self-directed", V)
            if a <= 1:
                self.done["ge", V] = self.add([self.space(V), "ge", a, None])
            else:
                entries = [[x, self.sd_ge(self.part(V, x, 0)), self.sd_ge(self.part(V, x, 1))]
                           for x in self.splitting(V)]
                self.done["ge", V] = self.add([self.space(V), "ge", a, entries])
        return self.done["ge", V]

    # ------------------------------------------------------------------ orders
    def leaves(self, V: int, prefix: tuple) -> list[int]:
        out = [V]
        for x in prefix:
            out = [W for L in out for W in ((self.part(L, x, 0), self.part(L, x, 1)) if self.splits(L, x) else (L,))]
        return sorted(out)

    def full_tree(self, V: int, prefix: tuple = (), horizon: int | None = None) -> list:
        """Every prefix from ``V`` until no instance splits a leaf (or the horizon): the exact bound."""
        if horizon is not None and len(prefix) >= horizon:
            return ["next", []]
        leaves = self.leaves(V, prefix)
        xs = [x for x in range(self.m) if any(self.splits(L, x) for L in leaves)]
        return ["next", [[x, self.full_tree(V, prefix + (x,), horizon)] for x in xs]]

    def order_fact(self, kind: str, V: int) -> int:
        """A fact stating the exact best (worst) order's value from ``V``: null when trivial, else a full tree."""
        if (kind, V) not in self.done:
            far = "ge" if kind == "best-order" else "le"
            v = self.value(kind, V)
            trivial = v <= (1 if self.splitting(V) else 0) if far == "ge" else len(set(self.rows(V))) < 2 ** (v + 1)
            self.done[kind, V] = self.add([self.space(V), far, v, None if trivial else self.full_tree(V)])
        return self.done[kind, V]

    def first_level(self, kind: str, V: int) -> list:
        """A tree closed at the first level: a child per splitting instance, each citing facts on its two leaves."""
        return ["next", [[x, ["leaves", [self.order_fact(kind, L) for L in self.leaves(V, (x,))]]]
                         for x in self.splitting(V)]]

    def first_level_bound(self, kind: str, V: int) -> int:
        values = [_step(*(self.value(kind, L) for L in self.leaves(V, (x,)))) for x in self.splitting(V)]
        return (min if kind == "best-order" else max)(values, default=0)


def _section(kind: str, facts: list, claim: dict, horizon: int | None = None) -> dict:
    return {"result": kind, **({} if horizon is None else {"horizon": horizon}), "facts": clone(facts), "claim": claim}


def _orders(m: int, kind: str, rows) -> tuple[list[int], int]:
    """An optimal order (best or worst) and its value, by brute force."""
    pick = min if kind == "best-order" else max
    return pick(([list(p), sequence_oracle(rows, p)] for p in itertools.permutations(range(m))), key=lambda o: o[1])


def order_documents(M: np.ndarray, rng: random.Random) -> Iterator[tuple[str, dict, str]]:
    """``(kind, document, why)``: honest certificates of the four kinds, lies departing from them in one step,
    and documents outside their grammar, on ``M`` cut to six rows and four instances."""
    M = np.asarray(M, dtype=np.uint8)[:6, :4]
    yield from _self_directed(Honest(M))
    for kind in ("best-order", "worst-order"):
        yield from _fixed_order(Honest(M), kind, rng)
    for horizon in (1, 2):
        yield from _transductive(Honest(M), horizon)


def _self_directed(h: Honest) -> Iterator[tuple[str, dict, str]]:
    S, K = h.full, "self-directed"
    sd = h.value(K, S)
    lo, hi = h.sd_ge(S), h.sd_le(S)
    honest = _section(K, h.facts, {"lower": [lo, sd], "upper": [hi, sd]})
    yield "honest", h.document(honest), "self-directed, exact"

    def lie(fact: list, side: str, value: int, why: str, kind: str) -> tuple[str, dict, str]:
        facts = clone(h.facts) + [fact]
        return f"{K}.{kind}", h.document(_section(K, facts, {side: [len(facts) - 1, value]})), why

    yield lie([h.space(S), "ge", sd + 1, None], "lower", sd + 1, "SD >= its value + 1 with no step", "ge")
    yield lie([h.space(S), "ge", sd + 1, []], "lower", sd + 1, "SD >= its value + 1, no instance answered", "ge")
    xs = h.splitting(S)
    if xs:
        entries = [[x, h.sd_ge(h.part(S, x, 0)), h.sd_ge(h.part(S, x, 1))] for x in xs]
        yield lie([h.space(S), "ge", sd + 1, entries], "lower", sd + 1, "SD >= its value + 1 over honest parts", "ge")
        terms = {x: _step(*(h.value(K, h.part(S, x, y)) for y in (0, 1))) for x in xs}
        x0 = min(xs, key=terms.get)
        rest = [e for e in entries if e[0] != x0]
        above = min((terms[e[0]] for e in rest), default=None)
        if above is not None and above > sd:
            yield lie([h.space(S), "ge", above, rest], "lower", above, "the best instance left out", "ge")
            yield lie([h.space(S), "ge", above, rest + [rest[0]]], "lower", above,
                      "the best instance replaced by another listed twice", "ge")
            swapped = rest + [[x0, entries[0][1], entries[0][2]]] if entries[0][0] != x0 else None
            if swapped is not None:
                yield lie([h.space(S), "ge", above, swapped], "lower", above,
                          "the best instance answered with facts on another instance's parts", "ge")
    if sd >= 1:
        yield lie([h.space(S), "le", sd - 1, None], "upper", sd - 1, "SD <= its value - 1 with no step", "le")
        x = h.facts[hi][3][0]
        f0, f1 = h.facts[hi][3][1:]
        yield lie([h.space(S), "le", sd - 1, [x, f0, f1]], "upper", sd - 1, "SD <= its value - 1 over honest parts",
                  "le")
        low = [k for k, fa in enumerate(h.facts) if fa[1] == "le" and fa[2] == 0]
        yield lie([h.space(S), "le", sd - 1, [x, low[0], low[0]]], "upper", sd - 1,
                  "a part's bound cited from a fact on another space", "le")
        doc = h.document(_section(K, h.facts, {"lower": [lo, sd], "upper": [hi, sd - 1]}))
        yield f"{K}.claim", doc, "the claim states less than its fact"
    doc = h.document(_section(K, h.facts + [[h.space(S), "eq", 0, None]], {"lower": [lo, sd], "upper": [hi, sd]}))
    yield "grammar", doc, "a fact neither 'ge' nor 'le'"
    doc = h.document(_section(K, h.facts + [[h.space(S), "ge", -1, None]], {"lower": [lo, sd], "upper": [hi, sd]}))
    yield "grammar", doc, "a fact of value -1"
    doc = h.document({**_section(K, h.facts, {"lower": [lo, sd], "upper": [hi, sd]}), "order": []})
    yield "grammar", doc, "a self-directed section with a key more"


def _fixed_order(h: Honest, K: str, rng: random.Random) -> Iterator[tuple[str, dict, str]]:
    S, best = h.full, K == "best-order"
    far, far_side, order_side = ("ge", "lower", "upper") if best else ("le", "upper", "lower")
    rows = h.rows(S)
    order, v = _orders(h.m, K, rows)
    f = h.order_fact(K, S)
    honest = {far_side: ["fact", v, f], order_side: ["order", v, order]}
    yield "honest", h.document(_section(K, h.facts, honest)), f"{K}, exact"
    tree = h.full_tree(S)
    yield "honest", h.document(_section(K, h.facts, {far_side: ["tree", v, tree]})), f"{K}, a tree in the claim"
    first = h.first_level(K, S)
    b1 = h.first_level_bound(K, S)
    yield "honest", h.document(_section(K, h.facts, {far_side: ["tree", b1, first]})), f"{K}, one level"
    more, less = (v + 1, v - 1) if best else (v - 1, v + 1)

    def claim(side: str, entry: list, why: str, step: str, facts: list | None = None, before=()) -> tuple:
        section = _section(K, h.facts if facts is None else facts, {side: entry})
        return f"{K}.{step}", h.document(*before, section), why

    if more >= 0:
        yield claim(far_side, ["tree", more, tree], "a full tree's bound passed by one", "tree")
        yield claim(far_side, ["fact", more, f], "a fact's value passed by one in the claim", "claim")
        yield claim(far_side, ["fact", more, len(h.facts)], "every order bounded by one more, no proof",
                    "fact", h.facts + [[h.space(S), far, more, None]])
        yield claim(far_side, ["fact", more, len(h.facts)], "every order bounded by one more, a full tree's proof",
                    "fact", h.facts + [[h.space(S), far, more, tree]])
    if less >= 0:
        yield claim(order_side, ["order", less, order], "the order's value one off", "claim")
    # children left out, listed twice; the horizon-free tree stopped at the root
    if tree[1]:
        bounds = {x: _child_bound(h, K, rows, x) for x, _ in tree[1]}
        pick = min if best else max
        x0 = pick(bounds, key=bounds.get)
        rest = [c for c in tree[1] if c[0] != x0]
        if rest:
            other = pick(bounds[c[0]] for c in rest)
            if other != v:
                yield claim(far_side, ["tree", other, ["next", rest]], "the best child left out", "tree")
                yield claim(far_side, ["tree", other, ["next", rest + [rest[0]]]],
                            "the best child replaced by another listed twice", "tree")
        if not best and v >= 1:
            yield claim(far_side, ["tree", 0, ["next", []]], "no child, as if no instance split", "tree")
            if v >= 2:
                cut = ["next", [[x, ["leaves", []]] for x, _ in first[1]]]
                yield claim(far_side, ["tree", 1, cut], "first-level leaves cited by no fact", "tree")
                low = next((k for k, fa in enumerate(h.facts) if fa[2] == 0), None)
                if low is not None:
                    wrong = ["next", [[x, ["leaves", [low] * len(node[1])]] for x, node in first[1]]]
                    yield claim(far_side, ["tree", 1, wrong], "leaf bounds cited from a fact on another space",
                                "tree")
    # an order that is none
    if best and h.m >= 2:
        bad = [order[0]] + order[:-1]
        w = sequence_oracle(rows, bad)
        if w < v:
            yield claim(order_side, ["order", w, bad], "an instance repeated, another left out", "claim")
        w = sequence_oracle(rows, order[:-1])
        if w < v:
            yield claim(order_side, ["order", w, order[:-1]], "an order one instance short", "claim")
    # cited results
    sd_section = _section("self-directed", [[h.space(S), "ge", 0, None]], {"lower": [0, 0]})
    ld_section = _section("ldim", [[h.space(S), "le", h.n, "log2"]], {"upper": [0, h.n]})
    if best:
        sd = h.value("self-directed", S)
        yield claim(far_side, ["cited", v + 1, "self-directed"], "the self-directed bound passed by one", "cited",
                    before=[_section("self-directed", [[h.space(S), "ge", min(sd, 1), None]],
                                     {"lower": [0, min(sd, 1)]})])
        yield claim(far_side, ["cited", v + 1, "ldim"], "an Ldim bound cited below the best order", "cited",
                    before=[_section("ldim", [[h.space(S), "ge", 0, None]], {"lower": [0, 0]})])
    else:
        if v >= 1:
            yield claim(far_side, ["cited", v - 1, "ldim"], "the Ldim bound undercut", "cited", before=[ld_section])
            yield claim(far_side, ["cited", v - 1, "self-directed"], "a self-directed bound cited above the worst",
                        "cited", before=[sd_section])
    # grammar
    yield "grammar", h.document({**_section(K, h.facts, honest), "horizon": 3}), "a horizon in a fixed order"
    yield "grammar", h.document(_section(K, h.facts + [[h.space(S), "le" if best else "ge", 0, None]], honest)), \
        "a fact of the other side"
    yield "grammar", h.document(_section(K, h.facts + [[h.space(S), far, -1, None]], honest)), "a fact of value -1"
    yield "grammar", h.document(_section(K, h.facts, {**honest, "middle": ["order", v, order]})), "a third side"


def _child_bound(h: Honest, K: str, rows, x: int) -> int:
    """The best (worst) value of the orders beginning with ``x``: what the full tree's child ``x`` proves."""
    values = [sequence_oracle(rows, (x,) + p) for p in itertools.permutations([z for z in range(h.m) if z != x])]
    return min(values) if K == "best-order" else max(values)


def _transductive(h: Honest, n: int) -> Iterator[tuple[str, dict, str]]:
    S, K = h.full, "transductive"
    rows = h.rows(S)
    if h.m == 0:
        return
    seq, v = max(([list(s), sequence_oracle(rows, s)] for s in itertools.product(range(h.m), repeat=n)),
                 key=lambda o: o[1])
    tree = h.full_tree(S, horizon=n)
    honest = {"lower": ["order", v, seq], "upper": ["tree", v, tree]}
    yield "honest", h.document(_section(K, h.facts, honest, n)), f"transductive, {n} rounds"
    yield "honest", h.document(_section(K, h.facts, {"upper": ["horizon", n]}, n)), f"transductive, {n} rounds"
    if v >= 1:
        yield f"{K}.tree", h.document(_section(K, h.facts, {"upper": ["tree", v - 1, tree]}, n)), "the tree undercut"
        yield f"{K}.tree", h.document(_section(K, h.facts, {"upper": ["tree", 0, ["next", []]]}, n)), \
            "the tree stopped at the root"
    if v == n:
        yield f"{K}.claim", h.document(_section(K, h.facts, {"upper": ["horizon", n - 1]}, n)), "fewer than n mistakes"
    longer = max(([list(s), sequence_oracle(rows, s)] for s in itertools.product(range(h.m), repeat=n + 1)),
                 key=lambda o: o[1])
    if longer[1] > v:
        yield f"{K}.claim", h.document(_section(K, h.facts, {"lower": ["order", longer[1], longer[0]]}, n)), \
            "a sequence one too long"
    if n >= 2:
        short = transductive_oracle(rows, n - 1)
        if short < v:
            yield f"{K}.claim", h.document(_section(K, h.facts, {"lower": ["order", v, seq]}, n - 1)), \
                "the horizon lowered under the sequence"
    if v >= 1:
        yield f"{K}.cited", h.document(
            _section("worst-order", [[h.space(S), "le", h.n, None]], {"upper": ["fact", h.n, 0]}),
            _section(K, h.facts, {"upper": ["cited", v - 1, "worst-order"]}, n)), "the worst order's bound undercut"
    yield "grammar", h.document({**_section(K, h.facts, honest, n), "horizon": True}), "a horizon of true"
    yield "grammar", h.document(_section(K, h.facts, {"lower": 5}, n)), "a side that is no list"
