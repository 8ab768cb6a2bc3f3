"""Checking a VC-dimension result (``"result": "vc"``) against the definition.

A set of instances is *shattered* when the rows give it all ``2^d`` labelings; VCdim is the
size of a largest one.  A row the class repeats counts once.  The section::

    {"result": "vc", "lower": [x, ...], "upper": {"value": b, "by": ..., ...}}

with no other key ``[section-keys]``; either side may be missing (a partial result).

Why an accepted section is true
-------------------------------
``lower`` is a list of ``d`` instances of the class; the checker collects the labelings the
rows give it and requires all ``2^d`` ``[lower-shattered]``, which is the definition:
``VCdim >= d`` (an instance listed twice would leave labelings out, so the ``d`` are distinct).  ``upper`` states ``VCdim <= b`` for an integer ``b`` in
``0..m`` and proves that no set of ``b + 1`` instances is shattered, with exactly the keys
its ``by`` needs ``[upper-keys]``, ``by`` one of:

* ``"ldim"``: an ``"ldim"`` result earlier in the document proved ``Ldim <= b``
  ``[by-ldim]``; a shattered set asked in any order is a shattered tree of its size, so
  ``VCdim <= Ldim <= b``.
* ``"laminar"`` with ``"parents": [p_0, ..., p_{m-1}]`` and ``b >= 1`` ``[laminar-b]``.
  ``N(x)`` is the set of rows labelling ``x`` otherwise than row 0 does.  Each ``p_x`` is
  ``-1`` or an instance ``[laminar-parents]`` with ``N(x)`` within ``N(p_x)`` and ranking
  above ``x`` (more rows, or the same rows and a smaller index) ``[laminar-nested]``, and the
  instances with the same parent (the roots, ``-1``, included) have disjoint ``N``
  ``[laminar-siblings]``.  Ranks fall along parent links, so the links form a forest, and
  ``N`` only shrinks down it.  Two instances are then nested (one descends from the other)
  or disjoint (they descend from two different siblings, or two roots).  A pair ``u, v``
  is shattered only if some rows lie in ``N(u)`` and not ``N(v)``, some in ``N(v)`` and not
  ``N(u)``, and some in both (labelings are those of row 0 flipped on ``N``): nested sets
  miss the first or second kind, disjoint ones the third.  No pair is shattered:
  ``VCdim <= 1 <= b``.
* ``"search"`` with ``"copies": [[x, z], ...]`` and ``"tree": node``.  Each ``x`` differs from
  ``z``, is listed once, and is equal or complementary to ``z`` on every row
  ``[copies-copy]``, and no ``z`` is itself listed as an ``x`` ``[copies-chain]``.  A shattered
  set holds no ``x`` together with its ``z`` (that pair has only two labelings), and swapping
  ``x`` for ``z`` keeps a set shattered (the same labelings, some flipped), so a largest
  shattered set avoids every ``x``.  The tree's root stands for ``S = {}`` with every
  instance but the copies allowed.

A node stands for a set ``S`` (shattered: every instance added on the way splits every cell)
and allowed instances ``C``, and proves: every shattered ``T`` with ``S <= T <= S + C`` has at
most ``b`` instances.  The *cells* of ``S`` are its distinct rows grouped by their labels on
``S``; ``X`` is the set of instances of ``C`` that split every cell (``S + x`` is shattered only
then); for ``x`` in ``X``, ``g(x)`` is the bit length of the fewest rows of a cell of ``S + x``.
A shattered ``T`` holding ``S + x`` shatters each cell of ``S + x`` with its other
``|T| - |S| - 1`` instances, which needs ``2^(|T| - |S| - 1)`` rows in each, so
``|T| <= |S| + g(x)``.  A node is ``{"split": [[x_1, n_1], ...], "rest": [r, ...]}`` (either
list may be missing, no other key ``[node-shape]``), and it checks:

* the ``x`` and ``r`` are members ``u`` of ``X`` with ``|S| + g(u) > b`` ``[node-named]``, each
  named once ``[node-once]``, and every such member is named ``[node-cover]``: any ``T``
  holding another member of ``X`` has at most ``|S| + g(u) <= b`` instances;
* ``|S| + h <= b``, ``h`` the most ``r`` with ``g(r) >= h`` ``[node-rest]``: a ``T`` that adds to
  ``S`` ``t`` instances, all from ``rest``, has each of them with ``g >= |T| - |S| = t``, so
  ``t <= h`` (this covers ``T = S`` too);
* each ``n_k`` is a node for ``S + x_k`` allowing ``x_(k+1), ..., x_j`` and ``rest``: a ``T``
  meeting the ``x`` lies in the node of its first one (by induction on the tree, every node
  below is true).
"""

from __future__ import annotations

__all__ = ["check"]


def check(section: dict, ctx) -> tuple[int | None, int | None, dict]:
    """Check a ``"vc"`` section; return the certified ``(lower, upper)`` (None for a side not claimed), nothing more."""
    if not set(section) <= {"result", "lower", "upper"}:  # [section-keys]
        raise ctx.fail("vc", "expected the keys 'lower' and/or 'upper'")
    lower = _lower(section["lower"], ctx) if "lower" in section else None
    upper = _upper(section["upper"], ctx) if "upper" in section else None
    return lower, upper, {}


def _lower(xs: object, ctx) -> int:
    where = "vc lower"
    if not isinstance(xs, list) or len(xs) > min(ctx.m, ctx.n.bit_length()):
        raise ctx.fail(where, f"expected a list of at most {min(ctx.m, ctx.n.bit_length())} instances")
    xs = [ctx.instance(x, where) for x in xs]  # an instance twice would leave labelings out: no need to refuse it
    seen = {sum((r >> x & 1) << k for k, x in enumerate(xs)) for r in set(ctx.rows)}
    if len(seen) != 1 << len(xs):  # [lower-shattered]
        raise ctx.fail(where, f"the rows give {len(seen)} of the {1 << len(xs)} labelings of {xs}")
    return len(xs)


#: The keys of ``upper`` for each ``by``.
UPPER_KEYS = {"ldim": {"value", "by"}, "laminar": {"value", "by", "parents"}, "search": {"value", "by", "copies", "tree"}}


def _upper(up: object, ctx) -> int:
    where = "vc upper"
    by = up.get("by") if isinstance(up, dict) else None
    if not isinstance(by, str) or by not in UPPER_KEYS or set(up) != UPPER_KEYS[by]:  # [upper-keys]
        raise ctx.fail(where, "expected {'value': b, 'by': 'ldim'}, {..., 'by': 'laminar', 'parents': [...]} "
                              "or {..., 'by': 'search', 'copies': [...], 'tree': {...}}")
    b = ctx.integer(up["value"], where, 0, ctx.m, "a VC dimension")
    if by == "ldim":
        ldim = ctx.proven.get("ldim", (None, None))[1]
        if ldim is None or ldim > b:  # [by-ldim]
            raise ctx.fail(where, f"no earlier ldim result proves Ldim <= {b}")
    elif by == "laminar":
        _laminar(up["parents"], b, ctx)
    else:
        _search(up["copies"], up["tree"], b, ctx)
    return b


def _laminar(parents: object, b: int, ctx) -> None:
    where = "vc laminar"
    if b < 1:  # [laminar-b]
        raise ctx.fail(where, f"a laminar family proves VCdim <= 1, not <= {b}")
    if not (isinstance(parents, list) and len(parents) == ctx.m):  # [laminar-parents]
        raise ctx.fail(where, f"expected one parent per instance ({ctx.m})")
    N = [c ^ ctx.full if c & 1 else c for c in ctx.columns]
    union: dict[int, int] = {}  # per parent, the rows of its children so far
    for x, p in enumerate(parents):
        p = ctx.integer(p, where, -1, ctx.m - 1, "a parent, -1 or an instance")  # [laminar-parents]
        if p != -1 and (N[x] & ~N[p] or (N[p].bit_count(), -p) <= (N[x].bit_count(), -x)):  # [laminar-nested]
            raise ctx.fail(where, f"instance {p} does not hold instance {x} and rank above it")
        if union.get(p, 0) & N[x]:  # [laminar-siblings]
            raise ctx.fail(where, f"instance {x} meets another child of {p}")
        union[p] = union.get(p, 0) | N[x]


def _search(copies: object, tree: object, b: int, ctx) -> None:
    where = "vc copies"
    if not isinstance(copies, list):
        raise ctx.fail(where, "expected a list of [instance, instance]")
    dropped: dict[int, int] = {}
    for e in copies:
        if not (isinstance(e, list) and len(e) == 2):
            raise ctx.fail(where, "expected [instance, instance]")
        x, z = ctx.instance(e[0], where), ctx.instance(e[1], where)
        if x == z or x in dropped or ctx.columns[x] not in (ctx.columns[z], ctx.full ^ ctx.columns[z]):  # [copies-copy]
            raise ctx.fail(where, f"instance {x} is listed twice or is no copy of {z}")
        dropped[x] = z
    if set(dropped) & set(dropped.values()):  # [copies-chain]
        raise ctx.fail(where, "an instance copied is itself dropped as a copy")
    first: dict[int, int] = {}  # the distinct rows: each one's first row (cells count distinct rows)
    for i, r in enumerate(ctx.rows):
        first.setdefault(r, i)
    keep = sum(1 << i for i in first.values())
    allowed = [x for x in ctx.varying if x not in dropped]  # the others split no cell
    _node(tree, [], [keep], allowed, b, [c & keep for c in ctx.columns], ctx)


def _node(node: object, S: list[int], cells: list[int], allowed: list[int], b: int, cols: list[int], ctx) -> None:
    where = f"vc node {S}"
    if not (isinstance(node, dict) and set(node) <= {"split", "rest"}):  # [node-shape]
        raise ctx.fail(where, "expected {'split': [[instance, node], ...], 'rest': [instance, ...]}")
    split, rest = node.get("split", []), node.get("rest", [])
    if not (isinstance(split, list) and isinstance(rest, list)
            and all(isinstance(e, list) and len(e) == 2 for e in split)):  # [node-shape]
        raise ctx.fail(where, "expected 'split' a list of [instance, node] and 'rest' a list of instances")
    cells = sorted(cells, key=int.bit_count)  # small cells first: they fail soonest
    sizes = [cell.bit_count() for cell in cells]
    gain: dict[int, int] = {}  # X: the allowed instances splitting every cell, with g
    for x in allowed:
        c = cols[x]
        for cell in cells:
            if not 0 != cell & c != cell:
                break
        else:
            ones = [(cell & c).bit_count() for cell in cells]
            gain[x] = min(min(k, size - k) for k, size in zip(ones, sizes)).bit_length()
    needed = {x for x, g in gain.items() if len(S) + g > b}
    named = [e[0] for e in split] + rest
    for x in named:
        if type(x) is not int or x not in needed:  # [node-named]
            raise ctx.fail(where, f"{ctx.brief(x)} is not an allowed instance splitting every cell with |S| + g > {b}")
    if len(set(named)) != len(named):  # [node-once]
        raise ctx.fail(where, "an instance is named twice")
    for u in sorted(needed - set(named)):  # [node-cover]
        raise ctx.fail(where, f"instance {u} (|S| + g = {len(S) + gain[u]} > {b}) is neither split on nor in the rest")
    h = 0
    for g in sorted((gain[r] for r in rest), reverse=True):
        h += g > h
    if len(S) + h > b:  # [node-rest]
        raise ctx.fail(where, f"|S| + h = {len(S)} + {h} > {b}")
    for k, (x, child) in enumerate(split):
        c, later = cols[x], [e[0] for e in split[k + 1:]] + rest
        _node(child, S + [x], [p for cell in cells for p in (cell & c, cell & ~c)], later, b, cols, ctx)
