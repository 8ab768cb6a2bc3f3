"""Checking a star number (``"result": "star"``) and the one-inclusion graph's largest degree (``"degree"``).

A *star* of ``s`` instances is a center row ``c``, instances ``x_1..x_s`` and leaf rows
``l_1..l_s``, leaf ``l_k`` differing from ``c`` on ``x_k`` and on no other ``x_j``; the star number
is the size of a largest one (Hanneke and Yang 2015).  The *degree* of a row in the
one-inclusion graph is the number of distinct rows differing from it on exactly one
instance of the domain (all ``m`` instances counted); ``degree(H)`` is the largest.  The
sections, with no other key ``[stars-keys]`` and either side missing for a partial result::

    {"result": "degree", "lower": star, "upper": {"value": b}}
    {"result": "star", "lower": star,
     "upper": {"value": b, "by": "chains", "chains": [[x, ...], ...]}
              or {"value": b, "by": "search", "centers": [[c, node], ...]}}

where ``star`` is ``{"center": c, "instances": [x_1, ...], "leaves": [l_1, ...]}``, at most ``m``
instances and as many leaves ``[stars-lower-shape]``.

Why an accepted section is true
-------------------------------
*Lower sides.*  For a star the checker reads every label and requires ``l_k(x_j) != c(x_j)``
exactly when ``j = k`` ``[star-leaf]``: the definition (two equal ``x_j`` would contradict it,
so they are distinct).  For a degree each leaf must be the center's row with the label of
``x_k`` flipped, on the whole domain ``[degree-leaf]``, and the ``x_k`` distinct
``[degree-distinct]``: the leaves are then ``s`` distinct neighbours of ``c``.

*The degree's upper side*, ``{"value": b}`` and no other key ``[stars-upper-keys]``, is
recomputed: ``b`` is an integer ``0..m`` and no distinct row has
more than ``b`` of its ``m`` one-label flips among the rows ``[degree-upper]`` (a flip changes the
number of ones by one: the checker compares a row with the rows of the two levels beside its
own, or looks its flips up, whichever is fewer); it refuses a class needing more than
:data:`DEGREE_WORK` such comparisons.

*The star number's upper side*, ``b`` an integer ``0..m`` with the keys its ``by`` needs
``[star-upper-keys]``.  For a center ``c``, ``E_x`` is the set of distinct rows (each row's
first copy: a private row's copies are private too) differing from ``c`` on ``x``.  A set ``S``
of instances is a star centered on ``c`` exactly when each ``x`` of ``S`` has a *private* row, in
``E_x`` and in no ``E_y`` of ``S``, its leaf; so the ``E_x`` of a star are pairwise incomparable,
and a subset of a star is a star.

* ``"chains"``: every instance some rows label 0 and others 1 is in one of the lists
  ``[star-chains-cover]``, each list a chain of columns under inclusion, each within the next
  ``[star-chains-chain]``, and ``2 * len(chains) <= b`` ``[star-chains-bound]``.  ``E_x`` is the
  column of ``x`` where ``c`` reads 0 and its complement where ``c`` reads 1; two instances of a
  chain on which ``c`` reads the same have comparable ``E``: a star takes at most two of each
  chain (a constant instance has an empty ``E`` and is in none).
* ``"search"``: the centers' rows include every row of the class ``[star-centers]``, each with a
  tree.  A node stands for ``S`` (the instances added on the way), its members' private rows
  ``P_y`` (in ``E_y``, outside the other members' ``E``), ``U`` (the union of their ``E``) and a list
  ``C`` of candidates (the root: ``S`` empty, every instance), and proves that every star ``T``
  centered on ``c`` with ``S <= T <= S + C`` has at most ``b`` instances.  ``C'`` is the
  *joinable* candidates, ``x`` with a row of ``E_x`` outside ``U`` and ``E_x`` leaving each ``P_y``
  a row (``S + x`` is a star when ``S`` is); ``T - S`` lies within ``C'``, as ``S + x`` is a subset of
  ``T`` for each ``x`` of it.  The node is an object ``[star-node-shape]``, either

  - ``{}``, closed: ``|S| + bound <= b`` ``[star-bound]``, ``bound`` the least of ``|C'|``; the
    rows of the ``E_x`` of ``C'`` outside ``U`` (each ``x`` of ``T - S`` has a private row there, a row
    private to one instance only); and the largest ``h`` such that ``h`` members of ``C'`` are
    *compatible* with at least ``h - 1`` others, two being compatible when each ``E`` minus ``U``
    has a row outside the other's (their private rows), as ``T - S`` is a set of pairwise
    compatible members;
  - or ``{"split": [[x_1, node_1], ...]}`` with ``|S| <= b`` ``[star-size]`` (``T = S``) and every
    member of ``C'`` among the ``x_k`` ``[star-cover]``; ``node_k`` is the node of ``S + x_k`` with
    the candidates ``x_(k+1), ...``: a ``T`` larger than ``S`` lies in the node of its first
    instance on the list.  A node whose ``S`` is no star proves nothing false (no ``T`` exists).

The checker refuses trees of more than :data:`MAX_NODES` nodes in all.
"""

from __future__ import annotations

__all__ = ["DEGREE_WORK", "MAX_NODES", "check", "degree", "degree_work", "joinable", "star_bound", "star_sets"]

#: The most nodes the trees of a section may have in all.
MAX_NODES = 1 << 20
#: The most pairs of a distinct row and an instance whose flip the degree's upper side looks up.
DEGREE_WORK = 1 << 26


def check(section: dict, ctx) -> tuple[int | None, int | None, dict]:
    """Check a ``"star"`` or ``"degree"`` section; return the certified ``(lower, upper)``."""
    kind = section["result"]
    if not set(section) <= {"result", "lower", "upper"}:  # [stars-keys]
        raise ctx.fail(kind, "expected the keys 'lower' and/or 'upper'")
    lower = _lower(kind, section["lower"], ctx) if "lower" in section else None
    upper = None
    if "upper" in section:
        upper = _degree_upper(section["upper"], ctx) if kind == "degree" else _star_upper(section["upper"], ctx)
    return lower, upper, {}


def _lower(kind: str, low: object, ctx) -> int:
    where = f"{kind} lower"
    xs = low.get("instances") if isinstance(low, dict) else None
    ls = low.get("leaves") if isinstance(low, dict) else None
    if not (isinstance(xs, list) and isinstance(ls, list) and set(low) == {"center", "instances", "leaves"}
            and len(xs) == len(ls) <= ctx.m):  # [stars-lower-shape]
        raise ctx.fail(where, "expected {'center': row, 'instances': [...], 'leaves': [...]}, a leaf per instance")
    c = ctx.integer(low["center"], where, 0, ctx.n - 1, "a hypothesis")
    xs = [ctx.instance(x, where) for x in xs]
    ls = [ctx.integer(h, where, 0, ctx.n - 1, "a hypothesis") for h in ls]
    rows = ctx.rows
    if kind == "degree":
        if len(set(xs)) != len(xs):  # [degree-distinct]
            raise ctx.fail(where, "an instance is listed twice")
        for x, h in zip(xs, ls):
            if rows[h] != rows[c] ^ 1 << x:  # [degree-leaf]
                raise ctx.fail(where, f"row {h} is not row {c} with instance {x} flipped")
        return len(xs)
    for k, h in enumerate(ls):
        for j, x in enumerate(xs):
            if (rows[h] ^ rows[c]) >> x & 1 != (j == k):  # [star-leaf]
                raise ctx.fail(where, f"leaf {k} (row {h}) {'agrees' if j == k else 'differs'} with the center on "
                                      f"instance {x}")
    return len(xs)


def degree(rows: list[int], m: int) -> int:
    """The largest degree of the one-inclusion graph of the distinct ``rows`` on ``m`` instances.

    A neighbour of a row of ``k`` ones has ``k - 1`` or ``k + 1``: each row is compared with the
    rows of those two levels, or its ``m`` flips looked up, whichever is fewer (:func:`degree_work`).

    >>> degree([0b00, 0b01, 0b10, 0b01], 2)
    2
    """
    present = set(rows)
    levels: dict[int, list[int]] = {}
    for r in present:
        levels.setdefault(r.bit_count(), []).append(r)
    best = 0
    for r in present:
        k = r.bit_count()
        near = levels.get(k - 1, []) + levels.get(k + 1, [])
        if len(near) < m:
            found = sum(not (r ^ s) & ((r ^ s) - 1) for s in near)
        else:
            found = sum(r ^ 1 << x in present for x in range(m))
        best = max(best, found)
    return best


def degree_work(rows: list[int], m: int) -> int:
    """The comparisons :func:`degree` makes: per distinct row, the fewer of ``m`` and its two levels' rows."""
    counts: dict[int, int] = {}
    present = set(rows)
    for r in present:
        counts[r.bit_count()] = counts.get(r.bit_count(), 0) + 1
    return sum(min(m, counts.get(r.bit_count() - 1, 0) + counts.get(r.bit_count() + 1, 0)) for r in present)


def _degree_upper(up: object, ctx) -> int:
    where = "degree upper"
    if not (isinstance(up, dict) and set(up) == {"value"}):  # [stars-upper-keys]
        raise ctx.fail(where, "expected {'value': b}")
    b = ctx.integer(up["value"], where, 0, ctx.m, "a degree")
    if degree_work(ctx.rows, ctx.m) > DEGREE_WORK:
        raise ctx.fail(where, f"the degree is not recounted past {DEGREE_WORK:,} comparisons of rows")
    found = degree(ctx.rows, ctx.m)
    if found > b:  # [degree-upper]
        raise ctx.fail(where, f"a row has {found} > {b} neighbours")
    return b


#: The keys of a star's ``upper`` for each ``by``.
UPPER_KEYS = {"chains": {"value", "by", "chains"}, "search": {"value", "by", "centers"}}


def _star_upper(up: object, ctx) -> int:
    where = "star upper"
    by = up.get("by") if isinstance(up, dict) else None
    if not isinstance(by, str) or by not in UPPER_KEYS or set(up) != UPPER_KEYS[by]:  # [star-upper-keys]
        raise ctx.fail(where, "expected {'value': b, 'by': 'chains', 'chains': [...]} or "
                              "{'value': b, 'by': 'search', 'centers': [[row, node], ...]}")
    b = ctx.integer(up["value"], where, 0, ctx.m, "a star number")
    if by == "chains":
        _chains(up["chains"], b, ctx)
    else:
        _search(up["centers"], b, ctx)
    return b


def _chains(chains: object, b: int, ctx) -> None:
    where = "star chains"
    if not (isinstance(chains, list) and all(isinstance(chain, list) for chain in chains)):
        raise ctx.fail(where, "expected a list of lists of instances")
    listed = set()
    for chain in chains:
        xs = [ctx.instance(x, where) for x in chain]
        for x, y in zip(xs, xs[1:]):
            if ctx.columns[x] & ~ctx.columns[y]:  # [star-chains-chain]
                raise ctx.fail(where, f"the column of instance {x} is not within that of {y}")
        listed.update(xs)
    for x in sorted(set(ctx.varying) - listed):  # [star-chains-cover]
        raise ctx.fail(where, f"instance {x} is in no chain")
    if 2 * len(chains) > b:  # [star-chains-bound]
        raise ctx.fail(where, f"{len(chains)} chains bound the star number by {2 * len(chains)}, not {b}")


def star_sets(rows: list[int], columns: list[int], keep: int, c: int) -> list[int]:
    """``E_x`` for each instance ``x``: the rows of ``keep`` differing from row ``c`` on ``x``.

    >>> star_sets([0b00, 0b01, 0b10], [0b010, 0b100], 0b111, 0)
    [2, 4]
    """
    center = rows[c]
    return [(col if not center >> x & 1 else ~col) & keep for x, col in enumerate(columns)]


def joinable(E: list[int], private: list[int], union: int, cands: list[int]) -> list[int]:
    """The candidates ``x`` with a row of ``E[x]`` outside ``union`` leaving each member's ``private`` a row."""
    return [x for x in cands if E[x] & ~union and all(p & ~E[x] for p in private)]


def star_bound(E: list[int], union: int, join: list[int]) -> int:
    """How many of the joinable ``join`` a star can add (the module's docstring: the least of three bounds).

    >>> star_bound([0b1, 0b10, 0b11], 0, [0, 1, 2])
    2
    """
    free = [E[x] & ~union for x in join]
    rows = 0
    for f in free:
        rows |= f
    k = len(free)
    degrees = [0] * k
    for a in range(k):
        for d in range(a + 1, k):
            if free[a] & ~free[d] and free[d] & ~free[a]:
                degrees[a] += 1
                degrees[d] += 1
    degrees.sort(reverse=True)
    h = 0
    while h < k and degrees[h] >= h:
        h += 1
    return min(k, rows.bit_count(), h)


def _search(centers: object, b: int, ctx) -> None:
    where = "star centers"
    if not (isinstance(centers, list) and all(isinstance(e, list) and len(e) == 2 for e in centers)):
        raise ctx.fail(where, "expected a list of [row, node]")
    first: dict[int, int] = {}
    for i, r in enumerate(ctx.rows):
        first.setdefault(r, i)
    keep = sum(1 << i for i in first.values())
    nodes = 0
    covered = set()
    for c, tree in centers:
        c = ctx.integer(c, where, 0, ctx.n - 1, "a hypothesis")
        covered.add(ctx.rows[c])
        E = star_sets(ctx.rows, ctx.columns, keep, c)
        stack = [(tree, [], [], 0, list(range(ctx.m)))]
        while stack:
            node, S, private, union, cands = stack.pop()
            nodes += 1
            here = f"star node {nodes - 1} (center {c}, S = {S})"
            if nodes > MAX_NODES:
                raise ctx.fail(here, f"trees of more than {MAX_NODES:,} nodes")
            if not (isinstance(node, dict) and set(node) <= {"split"}):  # [star-node-shape]
                raise ctx.fail(here, "expected {} or {'split': [[instance, node], ...]}")
            join = joinable(E, private, union, cands)
            if "split" not in node:
                bound = star_bound(E, union, join)
                if len(S) + bound > b:  # [star-bound]
                    raise ctx.fail(here, f"closed, but |S| + bound = {len(S)} + {bound} > {b}")
                continue
            split = node["split"]
            if not (isinstance(split, list)
                    and all(isinstance(e, list) and len(e) == 2 for e in split)):  # [star-node-shape]
                raise ctx.fail(here, "expected 'split' a list of [instance, node]")
            if len(S) > b:  # [star-size]
                raise ctx.fail(here, f"a star of {len(S)} > {b} instances reaches this node")
            xs = [ctx.instance(x, here) for x, _ in split]
            for x in sorted(set(join) - set(xs)):  # [star-cover]
                raise ctx.fail(here, f"the joinable instance {x} is not split on")
            for k, (x, (_, child)) in enumerate(zip(xs, split)):
                Ex = E[x]
                stack.append((child, S + [x], [p & ~Ex for p in private] + [Ex & ~union], union | Ex, xs[k + 1:]))
    for r in sorted(set(ctx.rows) - covered):  # [star-centers]
        raise ctx.fail(where, f"row {ctx.rows.index(r)} is the center of no tree")
