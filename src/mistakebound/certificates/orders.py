"""Checking the games' values on an order fixed in advance: ``"best-order"``, ``"worst-order"``, ``"transductive"``.

Ben-David, Kushilevitz and Mansour (1997): the instances come in a sequence known to the
learner before round 1; the labels are the adversary's, chosen as the game goes,
realizable; the learner is deterministic; two labels.  The value of one sequence ``s`` from a
set of rows ``V`` is the step recursion along it: at ``s_t`` splitting the current space ``W``
into ``W_0, W_1`` it is :func:`step` of what follows each part, ``max(a, b, min(a, b) + 1)``;
an instance on which ``W`` agrees costs nothing and changes nothing.  ``M_best(V)`` is the
least value over the orders of the domain (every instance once), ``M_worst(V)`` the largest,
and the transductive value ``M(V, n)`` the largest over the sequences of ``n`` instances,
repeats allowed (Hanneke, Moran and Shafer 2023).  The section has exactly these keys
(``"horizon": n``, an integer ``0..MAX_HORIZON``, only and always in a ``"transductive"`` one)
``[section-keys]``::

    {"result": "best-order" | "worst-order" | "transductive", ("horizon": n,)
     "facts": [[space, side, value, proof], ...],
     "claim": {"lower": [how, value, ...], "upper": [how, value, ...]}}

**The two sides.**  One side is an order: its value, which the checker computes, is an
upper bound on ``M_best`` and a lower bound on ``M_worst`` and on ``M(H, n)``.  The other
side needs a proof that *every* order (sequence) is at least (best) or at most (worst,
transductive) a value: the section's *far side*, ``"ge"`` for the best order and ``"le"`` for
the others.  A fact ``[V, side, value, proof]`` is of the far side only and states that every
order of the domain is worth at least ``value`` from ``V`` (``"ge"``: ``M_best(V) >= value``) or
at most (``"le"``: ``M_worst(V) <= value``); ``value`` is an integer ``0..n`` ``[fact-shape]``.

Why an accepted section is true
-------------------------------
Facts are checked in order and cite only earlier facts of the section's far side, on exactly
the space the step says ``[earlier]``; by induction each is true.  ``step`` is non-decreasing
in each argument, and ``step(a, b) >= max(a, b)``.

* ``[V, "ge", a, null]``: ``a`` is 0, or ``a`` is 1 and some instance splits ``V``
  ``[ge-floor]``: in every order, the first instance that splits ``V`` comes while the
  version space is still ``V`` (those before it split nothing), so both its labels are
  realizable and the adversary answers against the prediction.
* ``[V, "le", b, null]``: ``V`` holds fewer than ``2^(b+1)`` distinct rows ``[le-cap]``: on
  any sequence the majority vote over the distinct rows left loses at least half of them at
  each mistake, so no sequence is worth more than ``floor(log2 d(V)) <= b``.
* ``[V, side, value, node]``: a **prefix tree** from ``V`` proves a bound (below) that gives
  ``value`` (``"ge"``: the bound is at least ``value``; ``"le"``: at most) ``[tree-bound]``.

**Prefix trees.**  A node is a prefix ``P`` (the instances on the path to it; the root's is
empty).  Its *leaves* are the sets of rows of ``V`` that the labellings of ``P`` leave, which
the checker computes: the *label tree* of ``P`` splits ``V`` by each instance of ``P`` in turn,
wherever it splits.  The value of any order ``P + R`` from ``V`` is that label tree's step
recursion over the values from its leaves ``L`` of ``R``; and since ``P``'s instances are
constant on each leaf, the value of ``R`` from ``L`` is that of the whole order ``P + R`` from
``L``, so at least ``M_best(L)`` and at most ``M_worst(L)``.  A node is one of:

* ``["leaves", [f, ...]]``: one fact per leaf, the leaves in increasing order of their sets
  of rows as numbers ``[tree-leaves]``, each fact on exactly its leaf ``[earlier]``.  Its
  bound is the label tree's step over the facts' values (with a horizon, each capped by
  the rounds left, ``n - |P|``: a round costs at most one mistake).  As ``step`` is monotone,
  every order (sequence) beginning with ``P`` is at least (at most) it.
* ``["next", [[x, node], ...]]``: a child for every instance that splits some leaf, each
  exactly once and no other (with a horizon, none once ``|P| = n``) ``[tree-cover]``; the
  child's prefix is ``P + x``.  Its bound is the least (best) or largest (worst) of its
  children's, or with no child the label tree's step over zeros.  Why that covers every
  order (sequence) ``P + S``: an instance that splits no leaf of ``P`` is constant on every
  leaf and on every part of it, so it is worth nothing wherever it comes after ``P``; moving
  those of ``S`` to its end (or, in a sequence, dropping them and repeating one at the end)
  keeps the value (a sequence, shorter now, is padded back to its length at the end, which
  never lowers a value: the step is monotone and values are at least 0).  Then either ``S``
  begins with an instance that splits a leaf (a child's orders), or no instance of ``S``
  splits a leaf and the value is the label tree's step over zeros.  Without a horizon that
  happens only without a child (``S`` holds every instance not in ``P``: no leaf is split by
  any, each holds one distinct row); with a horizon it may happen beside children, but then
  ``P + x`` padded to ``n`` instances, one of child ``x``'s sequences, is worth at least it,
  so the largest child's bound covers it; once ``|P| = n`` the sequence is complete.

The claim
---------
``{"lower": ..., "upper": ...}``, either side optional ``[claim-shape]``, each side
``[how, value, ...]``, ``value`` an integer ``0..n`` (up to the horizon, if larger):

* the order side (``"upper"`` for the best order, ``"lower"`` for the others):
  ``["order", value, [x, ...]]``, every instance of the domain exactly once (transductive:
  ``n`` instances, repeats allowed) ``[claim-order]``, whose value the checker computes and
  which must equal ``value`` ``[claim-order]``;
* the far side: ``["fact", value, f]``: fact ``f`` is on the space of all rows and states
  ``value`` ``[claim-fact]``; ``["tree", value, node]``: a prefix tree from all rows, whose
  bound gives ``value`` ``[tree-bound]`` (the transductive one counts its depth against
  ``n``); ``["cited", value, kind]``: an earlier result of ``kind`` in the document proved
  it ``[claim-cited]``: the best order is at least the self-directed complexity's proven
  lower bound (a self-directed learner may follow the best order), the worst order at most
  the Littlestone dimension's proven upper bound (the textbook's adversary may follow the
  worst order), the transductive value at most either the Ldim's or the worst order's
  (its sequences are worth what their first occurrences are, in order, and a sequence of
  distinct instances is worth at most any order it begins: adding instances never takes a
  mistake back); ``["horizon", value]`` (transductive): ``value >= n`` ``[claim-horizon]``,
  one mistake a round at most.
"""

from __future__ import annotations

__all__ = ["MAX_HORIZON", "check", "sequence_value", "step"]

#: The keys of a section, all required (a ``"transductive"`` one adds ``"horizon"``).
KEYS = ("result", "facts", "claim")
#: The largest horizon a transductive section may state.
MAX_HORIZON = 2 ** 31
#: Each kind's far side, and the earlier results its claim may cite there (with the side of theirs it reads).
FAR = {"best-order": "ge", "worst-order": "le", "transductive": "le"}
CITED = {"best-order": {"self-directed": 0}, "worst-order": {"ldim": 1}, "transductive": {"ldim": 1, "worst-order": 1}}


def step(a: int, b: int) -> int:
    """What an instance splitting a space is worth to a deterministic learner when its parts are worth ``a``
    and ``b``: it predicts the label of the larger, the adversary answers the better label.

    >>> step(0, 0), step(2, 0), step(2, 2)
    (1, 2, 3)
    """
    return max(a, b, min(a, b) + 1)


def sequence_value(ctx, sequence: list[int]) -> int:
    """The value of the game on ``sequence`` (instances, known to the learner) from all rows: one level of
    spaces per instance (at most one per row), then the step recursion from the last level up."""
    levels, spaces = [], [ctx.full]
    for x in sequence:
        levels.append((x, spaces))
        after = []
        for V in spaces:
            after += [ctx.part(V, x, 0), ctx.part(V, x, 1)] if ctx.splits(V, x) else [V]
        spaces = [V for V in after if V & (V - 1)]  # a single row is worth 0 from here
    value: dict[int, int] = {}
    for x, spaces in reversed(levels):
        value = {V: step(value.get(ctx.part(V, x, 0), 0), value.get(ctx.part(V, x, 1), 0)) if ctx.splits(V, x)
                 else value.get(V, 0) for V in spaces}
    return value.get(ctx.full, 0)


def _tree_value(spaces: list[int], kids: list, values: dict[int, int]) -> int:
    """The label tree's step over ``values`` at its leaves (0 where missing), from the leaves up."""
    val = [0] * len(spaces)
    for i in range(len(spaces) - 1, -1, -1):
        val[i] = values.get(spaces[i], 0) if kids[i] is None else step(val[kids[i][0]], val[kids[i][1]])
    return val[0]


def _extend(ctx, spaces: list[int], kids: list, x: int) -> tuple[list[int], list]:
    """The label tree of the prefix one instance longer: each leaf ``x`` splits, split."""
    spaces, kids = list(spaces), list(kids)
    for i in range(len(spaces)):
        if kids[i] is None and ctx.splits(spaces[i], x):
            kids[i] = (len(spaces), len(spaces) + 1)
            spaces += [ctx.part(spaces[i], x, 0), ctx.part(spaces[i], x, 1)]
            kids += [None, None]
    return spaces, kids


def tree_bound(ctx, seen: list, where: str, V: int, node: object, far: str, horizon: int | None) -> int:
    """The bound the prefix tree ``node`` from ``V`` proves (module docstring), checked node by node without
    recursion (a stack of nodes still to check and of bounds found)."""
    least = far == "ge"
    todo: list = [(node, [V], [None], 0, None)]
    bounds: list[int] = []
    while todo:
        item = todo.pop()
        if item[0] == "join":
            _, count, spaces, kids = item
            found = bounds[len(bounds) - count:]
            del bounds[len(bounds) - count:]
            bounds.append((min(found) if least else max(found)) if found else _tree_value(spaces, kids, {}))
            continue
        node, spaces, kids, depth, x = item
        if x is not None:
            spaces, kids = _extend(ctx, spaces, kids, x)
        if not (isinstance(node, list) and len(node) == 2 and node[0] in ("leaves", "next")
                and isinstance(node[1], list)):
            raise ctx.fail(where, f"expected a node ['leaves', [fact, ...]] or ['next', [[instance, node], ...]], "
                                  f"got {ctx.brief(node)}")
        leaves = sorted(spaces[i] for i in range(len(spaces)) if kids[i] is None)
        if node[0] == "leaves":
            if len(node[1]) != len(leaves):  # [tree-leaves]
                raise ctx.fail(where, f"the prefix leaves {len(leaves)} spaces, not the {len(node[1])} cited")
            values = {}
            for L, f in zip(leaves, node[1]):
                v = ctx.earlier(seen, f, far, L, where, "leaf")
                values[L] = v if horizon is None else min(v, horizon - depth)
            bounds.append(_tree_value(spaces, kids, values))
            continue
        entries = node[1]
        for entry in entries:
            if not (isinstance(entry, list) and len(entry) == 2):
                raise ctx.fail(where, f"expected [instance, node], got {ctx.brief(entry)}")
            ctx.instance(entry[0], where)
        splitting = [] if horizon is not None and depth >= horizon else sorted(
            {x for L in leaves for x in ctx.splitting(L)})
        if sorted(entry[0] for entry in entries) != splitting:  # [tree-cover]
            raise ctx.fail(where, "the children must be the instances splitting some leaf of the prefix, each once "
                                  "(none once the horizon is reached)")
        todo.append(("join", len(entries), spaces, kids))
        todo += [(entry[1], spaces, kids, depth + 1, entry[0]) for entry in entries]
    return bounds[0]


def check(section: dict, ctx) -> tuple[int | None, int | None, dict]:
    """Check a ``"best-order"``, ``"worst-order"`` or ``"transductive"`` section; return its ``(lower, upper)``
    and, for the transductive one, its horizon."""
    kind = section["result"]
    keys = KEYS + (("horizon",) if kind == "transductive" else ())
    if set(section) != set(keys) or not isinstance(section["facts"], list):  # [section-keys]
        raise ctx.fail(kind, f"expected a section with exactly the keys {', '.join(keys)}, 'facts' a list")
    horizon = None
    if kind == "transductive":
        horizon = ctx.integer(section["horizon"], f"{kind} horizon", 0, MAX_HORIZON, "a horizon")  # [section-keys]
    far = FAR[kind]
    seen: list[tuple[int, str, int]] = []
    for k, fact in enumerate(section["facts"]):
        where = f"{kind} fact {k}"
        if not isinstance(fact, list) or len(fact) != 4 or fact[1] != far:  # [fact-shape]
            raise ctx.fail(where, f"expected [space, {far!r}, value, proof]")
        s, _, value, proof = fact
        V = ctx.space(s, where)
        value = ctx.integer(value, where, 0, ctx.n, "a number of mistakes")  # [fact-shape]
        if proof is None:
            if far == "ge" and value > (1 if ctx.splitting(V) else 0):  # [ge-floor]
                raise ctx.fail(where, f"every order >= {value} needs a proof (null proves 0, or 1 on a space some "
                                      "instance splits)")
            if far == "le" and ctx.distinct(V, below=1 << (value + 1)).bit_length() > value + 1:  # [le-cap]
                raise ctx.fail(where, f"the space holds {ctx.distinct(V)} distinct rows, not fewer than "
                                      f"2^{value + 1}")
        else:
            _bound(ctx, where, value, tree_bound(ctx, seen, where, V, proof, far, None), far)
        seen.append((s, far, value))
    lower, upper = _claim(section, ctx, kind, seen, horizon)
    return lower, upper, ({"horizon": horizon} if kind == "transductive" else {})


def _bound(ctx, where: str, value: int, bound: int, far: str) -> None:
    if (value > bound) if far == "ge" else (value < bound):  # [tree-bound]
        raise ctx.fail(where, f"the prefix tree proves {'>=' if far == 'ge' else '<='} {bound}, which does not give "
                              f"{value}")


def _claim(section: dict, ctx, kind: str, seen: list, horizon: int | None) -> tuple[int | None, int | None]:
    claim, far = section["claim"], FAR[kind]
    if not isinstance(claim, dict) or not set(claim) <= {"lower", "upper"}:  # [claim-shape]
        raise ctx.fail(f"{kind} claim", "expected {'lower': [how, value, ...], 'upper': [how, value, ...]}")
    order_side = "upper" if far == "ge" else "lower"
    result = []
    for side in ("lower", "upper"):
        entry, where = claim.get(side), f"{kind} claim {side}"
        if entry is None:
            result.append(None)
            continue
        if not (isinstance(entry, list) and 2 <= len(entry) <= 3 and isinstance(entry[0], str)):  # [claim-shape]
            raise ctx.fail(where, "expected [how, value, ...]")
        value = ctx.integer(entry[1], where, 0, max(ctx.n, horizon or 0))  # a horizon above n may be claimed
        how, arg = entry[0], entry[2] if len(entry) == 3 else None
        if how == "order" and side == order_side and arg is not None:
            _order(ctx, where, kind, value, arg, horizon)
        elif how == "fact" and side != order_side:
            if (type(arg) is not int or not 0 <= arg < len(seen) or ctx.spaces[seen[arg][0]] != ctx.full
                    or seen[arg][2] != value):  # [claim-fact]
                raise ctx.fail(where, f"expected a fact of value {value} on all rows, got {ctx.brief(arg)}")
        elif how == "tree" and side != order_side:
            _bound(ctx, where, value, tree_bound(ctx, seen, where, ctx.full, arg, far, horizon), far)
        elif how == "cited" and side != order_side:
            proven = ctx.proven.get(arg) if isinstance(arg, str) and arg in CITED[kind] else None
            known = None if proven is None else proven[CITED[kind][arg]]
            if known is None or ((value > known) if far == "ge" else (value < known)):  # [claim-cited]
                raise ctx.fail(where, f"no earlier result among {sorted(CITED[kind])} proves {value}")
        elif how == "horizon" and side == "upper" and horizon is not None and len(entry) == 2:
            if value < horizon:  # [claim-horizon]
                raise ctx.fail(where, f"{horizon} rounds allow up to {horizon} mistakes, more than {value}")
        else:
            raise ctx.fail(where, f"{ctx.brief(how)} does not prove the {side} side of a {kind} value")
        result.append(value)
    return result[0], result[1]


def _order(ctx, where: str, kind: str, value: int, sequence: object, horizon: int | None) -> None:
    """Check the order side: ``sequence`` an order of the domain (transductive: ``n`` instances), worth ``value``."""
    if not isinstance(sequence, list) or len(sequence) != (ctx.m if horizon is None else horizon):  # [claim-order]
        raise ctx.fail(where, f"expected {'an order of the domain' if horizon is None else f'{horizon} instances'}")
    sequence = [ctx.instance(x, where) for x in sequence]
    if horizon is None and len(set(sequence)) != ctx.m:  # [claim-order]
        raise ctx.fail(where, "the order names an instance twice")
    if sequence_value(ctx, sequence) != value:  # [claim-order]
        raise ctx.fail(where, f"the order is worth {sequence_value(ctx, sequence)}, not {value}")
