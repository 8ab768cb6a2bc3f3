"""Checking a VC-dimension result (``"result": "vc"``) against the definition.

A set of instances is *shattered* when the rows give it all ``2^d`` labelings; VCdim is the
size of a largest one.  A row the class repeats counts once.  The section::

    {"result": "vc", "lower": [x, ...], "upper": {"value": b, "by": ..., ...}}

Either side may be missing (a partial result).  ``lower`` is a shattered set: the checker
collects the labelings the rows give it and requires all of them.  ``upper`` proves that no
set of ``b + 1`` instances is shattered, ``by`` one of:

* ``"ldim"``: an ``"ldim"`` result earlier in the document proved ``Ldim <= b``; a shattered
  set asked in any order is a shattered tree, so ``VCdim <= Ldim``.
* ``"laminar"`` (``b >= 1``) with ``"parents": [p_0, ..., p_{m-1}]``: ``N(x)`` is the set of
  rows labelling ``x`` otherwise than row 0 does.  Each ``p_x`` is ``-1`` or an instance
  with ``N(x)`` within ``N(p_x)`` and ranking above ``x`` (more rows, or the same rows and a
  smaller index), and instances with the same parent have disjoint ``N``.  In such a forest
  two ``N`` are nested (one descends from the other) or disjoint (they descend from
  disjoint siblings), so some labeling of every pair is missing: no pair is shattered.
* ``"search"`` with ``"copies": [[x, z], ...]`` and ``"tree": node``: each ``x`` is equal or
  complementary to ``z`` on every row, and no ``z`` is itself a copy.  A shattered set
  holds no ``x`` with its ``z`` (that pair is not shattered), and swapping ``x`` for ``z``
  keeps it shattered, so a largest one avoids the copies.  The tree's root stands for
  ``S = {}`` with all instances but the copies allowed.

A node stands for a set ``S`` and allowed instances ``C`` and proves: every shattered ``T``
with ``S <= T <= S + C`` has at most ``b`` instances.  The *cells* of ``S`` are its distinct
rows grouped by their labels on ``S``; ``X`` is the set of instances of ``C`` that split every
cell (``S + x`` is shattered only then); for ``x`` in ``X``, ``g(x)`` is the bit length of the
fewest rows of a cell of ``S + x``.  A cell of ``c`` rows is shattered by at most
``floor(log2 c)`` instances, so a shattered ``T`` holding ``S + x`` has at most
``|S| + g(x)`` instances.  A node is ``{"split": [[x_1, n_1], ...], "rest": [r, ...]}`` (either
list may be missing), and it checks:

* the ``x`` and ``r`` name, once each, exactly the members ``u`` of ``X`` with ``|S| + g(u) > b``
  (any ``T`` holding another member is covered by its ``g``);
* ``|S| + h <= b``, ``h`` the most ``r`` with ``g(r) >= h``: the ``t`` instances a ``T`` adds to
  ``S`` out of ``rest`` each have ``g >= t`` (this covers ``T = S`` too);
* each ``n_k`` is a node for ``S + x_k`` allowing ``x_(k+1), ..., x_j`` and ``rest``: a ``T``
  meeting the ``x`` lies in the node of its first one.
"""

from __future__ import annotations

__all__ = ["check"]


def check(section: dict, ctx) -> tuple[int | None, int | None]:
    """Check a ``"vc"`` section; return the certified ``(lower, upper)`` (None for a side not claimed)."""
    if not set(section) <= {"result", "lower", "upper"}:
        raise ctx.fail("vc", "expected the keys 'lower' and/or 'upper'")
    lower = _lower(section["lower"], ctx) if "lower" in section else None
    upper = _upper(section["upper"], ctx) if "upper" in section else None
    return lower, upper


def _lower(xs: object, ctx) -> int:
    if not isinstance(xs, list):
        raise ctx.fail("vc lower", "expected a list of instances")
    xs = [ctx.instance(x, "vc lower") for x in xs]
    rows = set(ctx.rows)
    if len(set(xs)) != len(xs) or 1 << len(xs) > len(rows):
        raise ctx.fail("vc lower", f"expected d distinct instances, 2^d <= {len(rows)} distinct rows, got {xs}")
    seen = {sum((r >> x & 1) << k for k, x in enumerate(xs)) for r in rows}
    if len(seen) != 1 << len(xs):
        raise ctx.fail("vc lower", f"the rows give {len(seen)} of the {1 << len(xs)} labelings of {xs}")
    return len(xs)


def _upper(up: object, ctx) -> int:
    where = "vc upper"
    if not (isinstance(up, dict) and type(up.get("value")) is int and up["value"] >= 0):
        raise ctx.fail(where, "expected {'value': b >= 0, 'by': ...}")
    b, by = up["value"], up.get("by")
    if by == "ldim":
        ldim = ctx.proven.get("ldim", (None, None))[1]
        if ldim is None or ldim > b:
            raise ctx.fail(where, f"no earlier ldim result proves Ldim <= {b}")
    elif by == "laminar":
        _laminar(up.get("parents"), b, ctx)
    elif by == "search":
        if not (isinstance(up.get("copies"), list) and "tree" in up):
            raise ctx.fail(where, "expected 'copies' and 'tree'")
        dropped: dict[int, int] = {}
        for e in up["copies"]:
            if not (isinstance(e, list) and len(e) == 2):
                raise ctx.fail("vc copies", f"expected [instance, instance], got {e!r}")
            x, z = ctx.instance(e[0], "vc copies"), ctx.instance(e[1], "vc copies")
            if x == z or x in dropped or ctx.columns[x] not in (ctx.columns[z], ctx.full ^ ctx.columns[z]):
                raise ctx.fail("vc copies", f"instance {x} is listed twice or is no copy of {z}")
            dropped[x] = z
        if set(dropped) & set(dropped.values()):
            raise ctx.fail("vc copies", "an instance copied is itself dropped as a copy")
        first: dict[int, int] = {}  # the distinct rows: each one's first row (cells count distinct rows)
        for i, r in enumerate(ctx.rows):
            first.setdefault(r, i)
        bits = ["0"] * ctx.n
        for i in first.values():
            bits[i] = "1"
        keep = int("".join(reversed(bits)), 2)
        allowed = [x for x in range(ctx.m) if x not in dropped]
        _node(up["tree"], [], [keep], allowed, b, [c & keep for c in ctx.columns], ctx)
    else:
        raise ctx.fail(where, f"expected 'by' among 'ldim', 'laminar', 'search', got {by!r}")
    return b


def _laminar(parents: object, b: int, ctx) -> None:
    where = "vc laminar"
    if b < 1 or not (isinstance(parents, list) and len(parents) == ctx.m):
        raise ctx.fail(where, f"expected b >= 1 and one parent per instance ({ctx.m})")
    N = [c ^ ctx.full if c & 1 else c for c in ctx.columns]
    union: dict[int, int] = {}  # per parent, the rows of its children so far
    for x, p in enumerate(parents):
        if p != -1:
            p = ctx.instance(p, where)
            if N[x] & ~N[p] or (N[p].bit_count(), -p) <= (N[x].bit_count(), -x):
                raise ctx.fail(where, f"instance {p} does not hold instance {x} and rank above it")
        if union.get(p, 0) & N[x]:
            raise ctx.fail(where, f"instance {x} meets another child of {p}")
        union[p] = union.get(p, 0) | N[x]


def _node(node: object, S: list[int], cells: list[int], allowed: list[int], b: int, cols: list[int], ctx) -> None:
    where = f"vc node {S}"
    if not (isinstance(node, dict) and set(node) <= {"split", "rest"}):
        raise ctx.fail(where, "expected {'split': [[instance, node], ...], 'rest': [instance, ...]}")
    split, rest = node.get("split", []), node.get("rest", [])
    if not (isinstance(split, list) and isinstance(rest, list)
            and all(isinstance(e, list) and len(e) == 2 for e in split)):
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
        if type(x) is not int or x not in needed:
            raise ctx.fail(where, f"{x!r} is not an allowed instance splitting every cell with |S| + g > {b}")
    if len(set(named)) != len(named):
        raise ctx.fail(where, "an instance is named twice")
    for u in sorted(needed - set(named)):
        raise ctx.fail(where, f"instance {u} (|S| + g = {len(S) + gain[u]} > {b}) is neither split on nor in the rest")
    h = 0
    for g in sorted((gain[r] for r in rest), reverse=True):
        h += g > h
    if len(S) + h > b:
        raise ctx.fail(where, f"|S| + h = {len(S)} + {h} > {b}")
    for k, (x, child) in enumerate(split):
        c, later = cols[x], [e[0] for e in split[k + 1:]] + rest
        _node(child, S + [x], [p for cell in cells for p in (cell & c, cell & ~c)], later, b, cols, ctx)
