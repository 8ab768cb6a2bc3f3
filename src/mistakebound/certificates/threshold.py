"""Checking a threshold-dimension result (``"result": "threshold"``) against the definition.

A *threshold sequence* of length ``d`` is ``d`` instances ``x_1..x_d`` and ``d + 1`` rows
``h_0..h_d`` with ``h_i(x_j) = 1`` exactly when ``j <= i``; ``Tdim`` is the length of a longest
one (0 for a single row).  The section::

    {"result": "threshold", "lower": {"instances": [x_1, ...], "hypotheses": [h_0, ...]},
     "upper": {"value": b, "by": "ldim"} or {"value": b, "by": "search", "tree": node}}

with no other key ``[threshold-keys]``; either side may be missing (a partial result).

Why an accepted section is true
-------------------------------
``lower`` holds ``d`` instances and ``d + 1`` row indices (``d`` at most ``m``)
``[threshold-lower-shape]``, the instances distinct ``[threshold-distinct]``; the checker requires
each ``h_i`` to label 1, of the ``x_j``, exactly ``x_1..x_i`` ``[threshold-chain]``: ``h_i(x_j) = 1``
exactly when ``j <= i``, the definition.  ``upper`` states ``Tdim <= b`` for an
integer ``b`` in ``0..m``, with exactly the keys its ``by`` needs ``[threshold-upper-keys]``:

* ``"ldim"``: an ``"ldim"`` result earlier in the document proved ``Ldim <= L`` with
  ``2^(L + 1) - 2 <= b`` ``[threshold-by-ldim]``.  The class restricted to the ``T`` instances
  of a sequence holds the ``T + 1`` thresholds, whose Littlestone dimension is
  ``floor(log2(T + 1))``, and restricting never raises it: ``T + 1 < 2^(L + 1)``.
* ``"search"``: a tree over the states of growing a sequence from its bottom.  Having chosen
  ``h_0, x_1, ..., h_(k-1), x_k``, the rest ``h_k..h_d, x_(k+1)..x_d`` is a threshold sequence of
  length ``d - k`` whose rows lie in ``I`` (the rows labelling ``x_1..x_k`` with 1) and whose
  instances lie in ``Z`` (the instances ``h_0..h_(k-1)`` label 0); conversely any such
  sequence continues the prefix.  Write ``t(I, Z)`` for the longest sequence with rows in
  ``I`` and instances in ``Z``: it grows with ``I`` and with ``Z``, and, ``C_x`` being the rows
  labelling ``x`` with 1, ``t(I, Z)`` is 0 or ``1 + t(I & C_x, Z - ones(h))`` for a step ``(h, x)``
  with ``h`` in ``I``, ``x`` in ``Z``, ``h(x) = 0`` and ``I & C_x`` not empty (an *admissible* step).

The root is ``(all rows, all instances)`` at depth 0, whose ``t`` is ``Tdim``.  A node at depth
``k`` for ``(I, Z)`` proves ``t(I, Z) <= b - k``.  ``Zu`` is the set of instances of ``Z`` splitting
``I`` (every instance still to come is labelled 0 by ``h_k`` and 1 by ``h_d``, both in ``I``, and
``t(I, Z) = t(I, Zu)``: a step on an instance of ``Z`` outside ``Zu`` is not admissible, nor in
any state below).  A node is an object ``[threshold-node-shape]``, either

* ``{}``, closed: ``k + bound(I, Zu) <= b`` ``[threshold-bound]``, where ``bound`` is the least
  of ``|Zu|``; the number of distinct patterns the rows of ``I`` write on ``Zu``, minus one (the
  ``t + 1`` rows of a sequence write distinct ones); and :func:`chain_bound` of each of four
  counts: the patterns' ones and zeros on ``Zu``, the instances' ones and zeros on ``I`` (the
  rows ``h_k..h_d`` have ``0, 1, ..., t`` ones on the instances to come and ``t, ..., 0``
  zeros, those instances ``t, ..., 1`` ones and ``1, ..., t`` zeros on the rows);
* or ``{"children": [[h, x, node], ...]}``, a list of any rows ``h`` and instances ``x``, each
  child a node at depth ``k + 1`` for ``(I & C_x, Z - ones(h))``.  It requires ``k <= b``
  ``[threshold-depth]`` (for ``t = 0``) and that every admissible step ``(h', x')`` is
  *dominated* by a child: ``ones(h) & Zu`` within ``ones(h') & Zu`` and ``I & C_x'`` within
  ``I & C_x`` ``[threshold-cover]``.  Then the state of ``(h', x')`` lies within the child's (its
  instances outside ``Zu`` split nothing below), so ``t`` of it is at most the child's ``b - k - 1``
  by growth; a child need not be an admissible step itself, since it is only ever used as
  such an upper bound.

A node is checked with its state, from the root down (by induction on the tree every node
proves its claim); the checker refuses a tree of more than :data:`MAX_NODES` nodes.
"""

from __future__ import annotations

__all__ = ["MAX_NODES", "chain_bound", "check", "state_bound"]

#: The most nodes a tree may have.
MAX_NODES = 1 << 20


def check(section: dict, ctx) -> tuple[int | None, int | None, dict]:
    """Check a ``"threshold"`` section; return the certified ``(lower, upper)`` (None for a side not claimed)."""
    if not set(section) <= {"result", "lower", "upper"}:  # [threshold-keys]
        raise ctx.fail("threshold", "expected the keys 'lower' and/or 'upper'")
    lower = _lower(section["lower"], ctx) if "lower" in section else None
    upper = _upper(section["upper"], ctx) if "upper" in section else None
    return lower, upper, {}


def _lower(low: object, ctx) -> int:
    where = "threshold lower"
    xs = low.get("instances") if isinstance(low, dict) else None
    hs = low.get("hypotheses") if isinstance(low, dict) else None
    if not (isinstance(xs, list) and isinstance(hs, list) and set(low) == {"instances", "hypotheses"}
            and len(xs) <= ctx.m and len(hs) == len(xs) + 1):  # [threshold-lower-shape]
        raise ctx.fail(where, "expected {'instances': [x_1, ...], 'hypotheses': [h_0, ...]}, one hypothesis more "
                              "than instances")
    xs = [ctx.instance(x, where) for x in xs]
    hs = [ctx.integer(h, where, 0, ctx.n - 1, "a hypothesis") for h in hs]
    if len(set(xs)) != len(xs):  # [threshold-distinct]
        raise ctx.fail(where, "an instance is listed twice")
    listed = 0
    for x in xs:
        listed |= 1 << x
    prefix = 0  # the first i instances, as a set
    for i, h in enumerate(hs):
        if i:
            prefix |= 1 << xs[i - 1]
        if ctx.rows[h] & listed != prefix:  # [threshold-chain]
            raise ctx.fail(where, f"h_{i} (row {h}) labels 1 other instances of the sequence than x_1..x_{i}")
    return len(xs)


#: The keys of ``upper`` for each ``by``.
UPPER_KEYS = {"ldim": {"value", "by"}, "search": {"value", "by", "tree"}}


def _upper(up: object, ctx) -> int:
    where = "threshold upper"
    by = up.get("by") if isinstance(up, dict) else None
    if not isinstance(by, str) or by not in UPPER_KEYS or set(up) != UPPER_KEYS[by]:  # [threshold-upper-keys]
        raise ctx.fail(where, "expected {'value': b, 'by': 'ldim'} or {'value': b, 'by': 'search', 'tree': {...}}")
    b = ctx.integer(up["value"], where, 0, ctx.m, "a threshold dimension")
    if by == "ldim":
        ldim = ctx.proven.get("ldim", (None, None))[1]
        if ldim is None or ldim + 1 >= (b + 2).bit_length():  # [threshold-by-ldim]
            raise ctx.fail(where, f"no earlier ldim result proves Ldim <= L with 2^(L + 1) - 2 <= {b}")
    else:
        _tree(up["tree"], b, ctx)
    return b


def chain_bound(counts: list[int]) -> int:
    """The largest ``k`` with the ``i``-th largest of ``counts`` at least ``k - i + 1`` for every ``i <= k``.

    >>> chain_bound([5, 5, 5]), chain_bound([1, 1, 1, 1]), chain_bound([3, 2, 1]), chain_bound([])
    (3, 1, 3, 0)
    """
    k = 0
    low = None
    for i, c in enumerate(sorted(counts, reverse=True), start=1):
        low = c + i - 1 if low is None else min(low, c + i - 1)
        if low < i:
            break
        k = i
    return k


def _bits(s: int) -> list[int]:
    out = []
    while s:
        low = s & -s
        out.append(low.bit_length() - 1)
        s ^= low
    return out


def state_bound(rows: list[int], columns: list[int], I: int, Z: int) -> tuple[int, list[int], int]:
    """``(Zu, patterns, bound)`` of the state ``(I, Z)``: the instances of ``Z`` splitting ``I``, the distinct
    patterns the rows of ``I`` write on them, and the bound of the module's docstring (-1 when ``I`` is empty).

    ``rows[i]`` is row ``i`` (bit ``x``: its label of instance ``x``), ``columns[x]`` the rows labelling ``x`` 1.

    >>> rows = [0b00, 0b01, 0b11]                      # thresholds on two instances
    >>> state_bound(rows, [0b110, 0b100], 0b111, 0b11)
    (3, [0, 1, 3], 2)
    """
    Zu = 0
    col_ones = []
    ic = I.bit_count()
    for x in _bits(Z):
        k = (columns[x] & I).bit_count()
        if 0 < k < ic:
            Zu |= 1 << x
            col_ones.append(k)
    patterns = sorted({rows[i] & Zu for i in _bits(I)})
    zc = Zu.bit_count()
    ones = [p.bit_count() for p in patterns]
    bound = min(zc, len(patterns) - 1, chain_bound(ones), chain_bound([zc - k for k in ones]),
                chain_bound(col_ones), chain_bound([ic - k for k in col_ones]))
    return Zu, patterns, bound


def _tree(tree: object, b: int, ctx) -> None:
    rows, cols = ctx.rows, ctx.columns
    stack = [(tree, ctx.full, (1 << ctx.m) - 1, 0)]
    nodes = 0
    while stack:
        node, I, Z, depth = stack.pop()
        nodes += 1
        where = f"threshold node {nodes - 1} (depth {depth})"
        if nodes > MAX_NODES:
            raise ctx.fail(where, f"a tree of more than {MAX_NODES:,} nodes")
        if not (isinstance(node, dict) and set(node) <= {"children"}):  # [threshold-node-shape]
            raise ctx.fail(where, "expected {} or {'children': [[hypothesis, instance, node], ...]}")
        Zu, patterns, bound = state_bound(rows, cols, I, Z)
        if "children" not in node:
            if depth + bound > b:  # [threshold-bound]
                raise ctx.fail(where, f"closed, but depth + bound = {depth} + {bound} > {b}")
            continue
        children = node["children"]
        if not (isinstance(children, list)
                and all(isinstance(e, list) and len(e) == 3 for e in children)):  # [threshold-node-shape]
            raise ctx.fail(where, "expected 'children' a list of [hypothesis, instance, node]")
        if depth > b:  # [threshold-depth]
            raise ctx.fail(where, f"a sequence of {depth} > {b} instances reaches this node")
        listed = []
        for h, x, child in children:
            h = ctx.integer(h, where, 0, ctx.n - 1, "a hypothesis")
            x = ctx.instance(x, where)
            listed.append((rows[h] & Zu, I & cols[x]))
            stack.append((child, I & cols[x], Z & ~rows[h], depth + 1))
        for P in patterns:
            above = [C for Q, C in listed if not Q & ~P]
            for x in _bits(Zu & ~P):
                Cx = I & cols[x]
                if not any(not Cx & ~C for C in above):  # [threshold-cover]
                    raise ctx.fail(where, f"the step on instance {x} from a row of pattern {P:x} is dominated by "
                                          "no child")
