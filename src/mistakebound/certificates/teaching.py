"""Checking teaching results: ``"td"``, ``"tsmin"`` and ``"rtd"`` (teaching sets, teaching plans, hitting trees).

A class is read as a family of sets (the convention of the Combinatorial Parameters database,
and of :mod:`mistakebound.theory.teaching`): rows with the same labels everywhere are one
*concept*.  For a concept ``h`` and a set ``W`` of rows, a set ``T`` of instances *teaches*
``h`` within ``W`` when every row of ``W`` that agrees with ``h`` on ``T`` has ``h``'s labels;
``TS(h; W)`` is the size of a smallest such ``T``.  With ``D(h, g)`` the instances on which
rows ``h`` and ``g`` differ, ``T`` teaches ``h`` exactly when it meets ``D(h, g)`` for every
row ``g`` of ``W`` that is another concept: teaching sets are hitting sets.

* ``TD(H)`` is the largest ``TS(h; H)`` over the concepts (Goldman and Kearns 1995);
* ``TSmin(H)`` the smallest;
* ``RTD(H)`` (Zilles, Lange, Holte and Zinkevich 2011) is the least *order* of a *teaching
  plan*: a sequence ``(c_1, T_1), ..., (c_N, T_N)`` listing every concept once, each ``T_t``
  teaching ``c_t`` within ``{c_t, ..., c_N}``; its order is the largest ``|T_t|``.

The section has the keys ``result`` and ``lower`` and/or ``upper``, nothing else
``[section-keys]`` (a side left out is not claimed)::

    {"result": "td" | "tsmin" | "rtd",
     "lower": {"value": a, "trees": [[h, node], ...]}            (rtd: also "rows": [g, ...]),
     "upper": {"value": b, "sets": [[h, [x, ...]], ...]}}       (rtd: "plan" instead of "sets")

with exactly those keys ``[side-keys]``; ``a`` and ``b`` are integers ``0..m``, rows ``h``
and ``g`` integers ``0..n-1`` ``[integer]`` and instances integers ``0..m-1`` ``[instance]``.

Why an accepted section is true
-------------------------------
**Teaching sets.**  For an entry ``[h, [x, ...]]`` the checker keeps the rows of ``W`` that
agree with ``h`` on each listed ``x`` in turn and requires that only rows with ``h``'s labels
are left ``[set-teaches]``, and at most ``b`` instances listed ``[set-size]``: a ``T`` of at
most ``b`` instances (an instance listed twice only counts twice) teaches ``h`` within ``W``,
so ``TS(h; W) <= b``.

* ``"td"``: ``W`` is all rows; the entries' rows hold every concept of the class
  ``[sets-cover]``: every concept has ``TS <= b``, so ``TD <= b``.
* ``"tsmin"``: one entry at least ``[sets-some]``: one concept has ``TS <= b``, so
  ``TSmin <= b``.
* ``"rtd"``: ``"plan"`` lists entries in the plan's order, their rows holding every concept
  ``[sets-cover]``, and entry ``t`` teaches within ``W_t``: all rows less those of the
  concepts of the entries before it.  The entries that name a concept for the first time,
  in order, are then a teaching plan of order at most ``b`` (``W_t`` is that concept's rows
  and those of the concepts first named later; a concept named again is taught within rows
  that no longer hold it, which proves nothing and is not needed), and ``RTD`` is the least
  order of one: ``RTD <= b``.

**Hitting trees.**  A tree ``[h, node]`` proves ``TS(h; W) >= a`` for ``a >= 1`` (for
``a = 0`` there is nothing to prove, and ``trees`` is empty).  A node stands for a set ``S``
of instances chosen on the way to it, a set ``E`` of instances excluded, and a count ``r``,
and says: *no* ``T`` with ``S <= T``, ``T`` disjoint from ``E`` and ``|T| <= |S| + r`` teaches
``h`` within ``W``.  The root has ``S = E = {}`` and ``r = a - 1``: no ``T`` of fewer than
``a`` instances teaches ``h``.  Every row a node names is a row of ``W`` with labels other
than ``h``'s ``[node-row]`` (so its ``D`` is not empty) whose ``D`` the set ``S`` does not
meet ``[node-unhit]``.  A node is one of:

* ``{"pack": [g_1, ..., g_k]}``: ``k >= r + 1`` ``[pack-count]``, and the sets ``D(h, g_i)``
  less ``E`` pairwise disjoint ``[pack-disjoint]``.  A ``T`` as above must meet each
  ``D(h, g_i)`` outside ``S`` (they miss ``S``) and outside ``E``: in ``k`` different
  instances not in ``S`` (the sets are disjoint there), so ``|T| >= |S| + k > |S| + r``.
* ``{"g": g, "x": [[x_1, node_1], ..., [x_j, node_j]]}``: the ``x_i`` are the instances of
  ``D(h, g)`` not in ``E``, each exactly once ``[node-cover]``, and ``node_i`` stands for
  ``S + {x_i}``, ``E + {x_1, ..., x_(i-1)}`` and ``r - 1`` (refused below ``0``).  A ``T`` as
  above meets ``D(h, g)`` outside ``S`` and ``E``, so it holds some ``x_i``; for the first
  one, ``T`` holds ``S + {x_i}`` (``x_i`` is not in ``S``), misses ``x_1, ..., x_(i-1)`` and
  ``E``, and has at most ``|S + {x_i}| + r - 1`` instances: ``node_i`` says there is none
  (by induction from the leaves).  With no ``x_i`` at all, no ``T`` meets ``D(h, g)``.

Each tree's root says ``TS(h; W) >= a``:

* ``"td"``: ``W`` is all rows and one tree at least ``[trees-some]``: one concept has
  ``TS >= a``, so ``TD >= a``.
* ``"tsmin"``: ``W`` is all rows and the trees' rows hold every concept ``[trees-cover]``:
  every concept has ``TS >= a``, so ``TSmin >= a``.
* ``"rtd"``: ``W`` is the non-empty set of rows ``"rows"`` listed, and the trees' rows,
  rows of ``W``, hold every concept of ``W`` ``[trees-cover]``: ``TSmin(W) >= a``.  Then
  ``RTD >= a`` (Doliwa, Fan, Simon and Zilles 2014, JMLR 15, show ``RTD(C)`` is the largest
  ``TSmin(C')`` over the subclasses ``C'``; the half used here is short): in any teaching
  plan of the class, let ``c_t`` be the first concept of ``W``; all of ``W`` is among
  ``c_t, ..., c_N``, so ``T_t`` teaches ``c_t`` within ``W`` and ``|T_t| >= TSmin(W) >= a``.

Before it reads a tree the checker counts its nodes, and refuses more than
:data:`MAX_NODES` in one section.

Examples
--------
>>> from mistakebound.certificates.context import Context, class_hash
>>> rows, domain = ["0", "1", "3"], [0, 1]          # thresholds on 2 instances: 00, 10, 11
>>> ctx = Context({"n_hypotheses": 3, "n_instances": 2, "rows": rows, "domain": domain,
...                "sha256": class_hash(rows, domain)})
>>> section = {"result": "td",
...            "lower": {"value": 2, "trees": [[1, {"pack": [0, 2]}]]},
...            "upper": {"value": 2, "sets": [[0, [0]], [1, [0, 1]], [2, [1]]]}}
>>> check(section, ctx)
(2, 2, {})
>>> section["lower"]["trees"] = [[0, {"pack": [1, 2]}]]  # D(0, 1) = {0} and D(0, 2) = {0, 1} meet
>>> check(section, ctx)
Traceback (most recent call last):
...
mistakebound.certificates.document.CertificateError: td lower tree 0 node []: the rows' disagreements with row 0 meet outside the excluded instances
"""

from __future__ import annotations

__all__ = ["MAX_NODES", "check"]

#: The most tree nodes one section may hold (each is checked in time linear in the instances).
MAX_NODES = 10_000_000
#: The keys of each side, per kind.
LOWER_KEYS = {"td": {"value", "trees"}, "tsmin": {"value", "trees"}, "rtd": {"value", "trees", "rows"}}
UPPER_KEYS = {"td": {"value", "sets"}, "tsmin": {"value", "sets"}, "rtd": {"value", "plan"}}


def check(section: dict, ctx) -> tuple[int | None, int | None, dict]:
    """Check a teaching section (its ``"result"`` names the parameter); return the certified ``(lower, upper)``."""
    kind = section["result"]
    if not set(section) <= {"result", "lower", "upper"}:  # [section-keys]
        raise ctx.fail(kind, "expected the keys 'lower' and/or 'upper'")
    groups: dict[int, int] = {}  # each concept's rows
    for i, r in enumerate(ctx.rows):
        groups[r] = groups.get(r, 0) | 1 << i
    lower = _lower(kind, section["lower"], ctx) if "lower" in section else None
    upper = _upper(kind, section["upper"], groups, ctx) if "upper" in section else None
    return lower, upper, {}


def _side(kind: str, side: str, value: object, keys: set, ctx) -> int:
    where = f"{kind} {side}"
    if not (isinstance(value, dict) and set(value) == keys):  # [side-keys]
        raise ctx.fail(where, f"expected an object with exactly the keys {', '.join(sorted(keys))}")
    return ctx.integer(value["value"], where, 0, ctx.m, "a number of instances")


def _entries(value: object, where: str, ctx) -> list:
    if not (isinstance(value, list) and all(isinstance(e, list) and len(e) == 2 for e in value)):
        raise ctx.fail(where, "expected a list of [row, ...] pairs")
    return value


def _row(g: object, where: str, ctx) -> int:
    return ctx.integer(g, where, 0, ctx.n - 1, "a row")


def _concepts(W: int, ctx) -> set[int]:
    """The concepts (distinct labels) of the rows of ``W``."""
    return {ctx.rows[i] for i in ctx.members(W)}


# ------------------------------------------------------------------ upper: teaching sets and plans
def _upper(kind: str, up: object, groups: dict[int, int], ctx) -> int:
    b = _side(kind, "upper", up, UPPER_KEYS[kind], ctx)
    where = f"{kind} upper"
    entries = _entries(up["plan" if kind == "rtd" else "sets"], where, ctx)
    hs = [_row(h, where, ctx) for h, _ in entries]
    if kind == "tsmin":
        if not entries:  # [sets-some]
            raise ctx.fail(where, "expected a teaching set of one concept at least")
    else:
        listed = [ctx.rows[h] for h in hs]
        if set(listed) != set(ctx.rows):  # [sets-cover]
            raise ctx.fail(where, "the entries' rows do not hold every concept of the class")
    W = ctx.full  # in a plan, the rows of this entry's concept and of the later ones: every concept is listed once
    for t, (h, (_, xs)) in enumerate(zip(hs, entries)):
        _teaches(h, xs, W, b, groups[ctx.rows[h]], f"{where} entry {t}", ctx)
        if kind == "rtd":
            W &= ~groups[ctx.rows[h]]
    return b


def _teaches(h: int, xs: object, W: int, b: int, mine: int, where: str, ctx) -> None:
    """Refuse unless ``xs`` lists at most ``b`` instances on which only rows of ``mine`` (``h``'s concept) in ``W``
    agree with row ``h``."""
    if not isinstance(xs, list):
        raise ctx.fail(where, "expected a list of instances")
    if len(xs) > b:  # [set-size]
        raise ctx.fail(where, f"{len(xs)} instances, more than {b}")
    V = W
    for x in xs:
        x = ctx.instance(x, where)
        V = ctx.part(V, x, ctx.label(h, x))
    if V & ~mine:  # [set-teaches]
        raise ctx.fail(where, f"a row of another concept agrees with row {h} on every instance listed")


# ------------------------------------------------------------------ lower: hitting trees
def _lower(kind: str, low: object, ctx) -> int:
    a = _side(kind, "lower", low, LOWER_KEYS[kind], ctx)
    where = f"{kind} lower"
    W = ctx.full
    if kind == "rtd":
        rows = low["rows"]
        if not (isinstance(rows, list) and rows):
            raise ctx.fail(where, "expected 'rows' a non-empty list of rows")
        W = 0
        for g in rows:
            W |= 1 << _row(g, where, ctx)
    trees = _entries(low["trees"], where, ctx)
    if a == 0:
        if trees:
            raise ctx.fail(where, "a lower bound of 0 needs no tree")
        return a
    _count(trees, where, ctx)
    hs = [_row(h, where, ctx) for h, _ in trees]
    if kind == "td":
        if not trees:  # [trees-some]
            raise ctx.fail(where, "expected a tree for one concept at least")
    elif not _concepts(W, ctx) <= {ctx.rows[h] for h in hs if W >> h & 1}:  # [trees-cover]
        raise ctx.fail(where, "the trees' rows do not hold every concept of the rows")
    for k, (h, (_, node)) in enumerate(zip(hs, trees)):
        _tree(h, node, W, a - 1, f"{where} tree {k}", ctx)
    return a


def _count(trees: list, where: str, ctx) -> None:
    """Refuse a section of more than :data:`MAX_NODES` nodes, counted before any is checked."""
    todo, count = [node for _, node in trees], 0
    while todo:
        node = todo.pop()
        count += 1
        if count > MAX_NODES:
            raise ctx.fail(where, f"more than {MAX_NODES} nodes")
        children = node.get("x") if isinstance(node, dict) else None
        if isinstance(children, list):
            todo.extend(c[1] for c in children if isinstance(c, list) and len(c) == 2)


def _tree(h: int, root: object, W: int, r0: int, where: str, ctx) -> None:
    """Check the tree below ``root`` for row ``h`` within ``W`` (depth first, with a stack of its own)."""
    mine = ctx.rows[h]
    stack = [(root, [], 0, 0, r0)]  # node, S as a list, S and E as bitsets of instances, r
    while stack:
        node, path, S, E, r = stack.pop()
        at = f"{where} node {path}"
        if not (isinstance(node, dict) and set(node) in ({"pack"}, {"g", "x"})):
            raise ctx.fail(at, "expected {'pack': [row, ...]} or {'g': row, 'x': [[instance, node], ...]}")
        named = node["pack"] if "pack" in node else [node["g"]]
        if not isinstance(named, list):
            raise ctx.fail(at, "expected 'pack' a list of rows")
        Ds = []
        for g in named:
            g = _row(g, at, ctx)
            if not W >> g & 1 or ctx.rows[g] == mine:  # [node-row]
                raise ctx.fail(at, f"row {g} is not a row of another concept among the rows taught within")
            D = ctx.rows[g] ^ mine
            if D & S:  # [node-unhit]
                raise ctx.fail(at, f"the instances chosen already tell row {g} apart")
            Ds.append(D & ~E)
        if "pack" in node:
            if len(Ds) < r + 1:  # [pack-count]
                raise ctx.fail(at, f"{len(Ds)} rows, fewer than the {r + 1} the node needs")
            union = 0
            for D in Ds:
                if union & D:  # [pack-disjoint]
                    raise ctx.fail(at, f"the rows' disagreements with row {h} meet outside the excluded instances")
                union |= D
            continue
        children = _entries(node["x"], at, ctx)
        xs = [ctx.instance(x, at) for x, _ in children]
        if len(xs) != Ds[0].bit_count() or sum(1 << x for x in set(xs)) != Ds[0]:  # [node-cover]
            raise ctx.fail(at, f"the children are not the instances row {named[0]} differs on, each once")
        if children and r < 1:
            raise ctx.fail(at, "a node of no instance more has no children")
        done = E
        for x, (_, child) in zip(xs, children):
            stack.append((child, path + [x], S | 1 << x, done, r - 1))
            done |= 1 << x
