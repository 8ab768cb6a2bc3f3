"""Checking a Littlestone-dimension result (``"result": "ldim"``) against the textbook recursion.

Ldim(V) is the largest ``d`` such that some instance ``x`` splits ``V`` into two parts of
Ldim at least ``d - 1``; 0 when no instance splits ``V`` (textbook, Definition 21.5 and the
recursion of the Standard Optimal Algorithm).  The section has exactly these keys::

    {"result": "ldim", "facts": [[space, "ge" | "le", value, step], ...],
     "claim": {"lower": [fact, value], "upper": [fact, value]}}

A fact states ``Ldim(V) >= value`` (``"ge"``) or ``Ldim(V) <= value`` (``"le"``) for the space
``V`` of the table; ``value`` is an integer ``0..n`` ``[fact-shape]``.  A fact refers only to
facts listed before it, so one pass in order checks them all.

Why an accepted section is true
-------------------------------
By induction on a fact's position: every fact before it is true (the facts a step cites
are earlier facts of the kind and on exactly the space the step says ``[earlier]``), so it
is enough that each step, given true premises, gives a true conclusion.

* ``[V, "ge", 0, null]`` ``[ge-zero]``: every space is non-empty (:mod:`~mistakebound.certificates.context`), and a
  non-empty space has Ldim >= 0.
* ``[V, "ge", a, [x, f0, f1]]`` with ``a >= 1``: ``f0`` and ``f1`` are ``"ge"`` facts on exactly
  ``V_x^0`` and ``V_x^1`` ``[earlier]`` (so ``x`` splits ``V``: no space is empty), of values at
  least ``a - 1`` ``[ge-values]``.  Then ``x`` is one term of the recursion's maximum, and
  ``Ldim(V) >= 1 + min(Ldim(V_x^0), Ldim(V_x^1)) >= a``.  (The ``"ge"`` facts under a lower
  claim are a shattered tree of depth ``a``.)
* ``[V, "le", b, [[x, y, f], ...]]``: the entries name every instance that splits ``V`` and no
  other, each once ``[le-cover]``; each entry's ``y`` is a label ``[le-entry]`` and ``f`` is a
  ``"le"`` fact on exactly ``V_x^y`` ``[earlier]`` of value at most ``b - 1`` ``[le-child]``.
  Every term of the maximum is then ``1 + min(Ldim(V_x^0), Ldim(V_x^1)) <= 1 + Ldim(V_x^y) <= b``;
  with no splitting instance the list is empty and ``Ldim(V) = 0 <= b``, as ``b >= 0``.
  An entry may be ``[x, y, "log2"]`` instead: ``V_x^y`` holds fewer than ``2^b`` distinct rows
  ``[le-log2-entry]``, so ``Ldim(V_x^y) <= b - 1`` by the ``[log2]`` argument below (a shattered
  tree of depth ``d`` needs ``2^d`` distinct rows), the fact ``[V_x^y, "le", b - 1, "log2"]``
  checked in place, with neither a space nor a fact written for it; the term of ``x`` is again at
  most ``b``.  (``x`` splits ``V`` by ``[le-cover]``, so ``V_x^y`` is not empty and ``b = 0``
  is always refused.)
* ``[V, "le", b, "log2"]``: ``V`` holds fewer than ``2^(b+1)`` distinct rows ``[log2]``.  A
  shattered tree of depth ``d`` has ``2^d`` leaves, each reached by a different row, so
  ``2^Ldim(V) <= d(V) < 2^(b+1)``.  (Compared by bit lengths: no power of ``b`` is built.)
* ``[V, kind, value, ["map", f, entries]]`` or ``["map", f, entries, shift]``: ``f`` is an
  earlier fact of the same kind on some space ``W`` ``[earlier]`` whose value gives this one
  (at least ``value`` for ``"ge"``, at most for ``"le"``) ``[map-value]``, and ``V`` is a
  relabelled copy of ``W`` under ``entries`` (and ``shift``), checked by
  :meth:`.context.Context.relabelled`, whose docstring argues why copies have equal Ldim.

The claim's ``lower`` and ``upper`` (either may be missing in a partial certificate) name a
fact of the right kind on the space of all rows and state its value ``[claim-root]``: by the
above that fact is true of the class.
"""

from __future__ import annotations

__all__ = ["check"]

#: The keys of an ``"ldim"`` section, all required.
KEYS = ("result", "facts", "claim")


def check(section: dict, ctx) -> tuple[int | None, int | None, dict]:
    """Check every fact of an ``"ldim"`` section; return the claimed ``(lower, upper)`` and nothing more about them."""
    if set(section) != set(KEYS) or not isinstance(section["facts"], list):  # [section-keys]
        raise ctx.fail("ldim", f"expected a section with exactly the keys {', '.join(KEYS)}, 'facts' a list")
    seen: list[tuple[int, str, int]] = []
    for k, fact in enumerate(section["facts"]):
        where = f"ldim fact {k}"
        if not isinstance(fact, list) or len(fact) != 4 or fact[1] not in ("ge", "le"):  # [fact-shape]
            raise ctx.fail(where, "expected [space, 'ge' or 'le', value, step]")
        s, kind, value, step = fact
        V = ctx.space(s, where)
        value = ctx.integer(value, where, 0, ctx.n, "an Ldim")  # [fact-shape]

        def child(f, want_kind: str, want_space: int | None, what: str) -> int:
            return ctx.earlier(seen, f, want_kind, want_space, where, what)

        if isinstance(step, list) and step[:1] == ["map"]:
            if len(step) not in (3, 4):
                raise ctx.fail(where, "expected ['map', fact, [[instance, instance, flip], ...](, shift)]")
            cvalue = child(step[1], kind, None, "map")
            if (kind == "ge" and cvalue < value) or (kind == "le" and cvalue > value):  # [map-value]
                raise ctx.fail(where, f"fact {step[1]} has value {cvalue}, which does not give {kind} {value}")
            ctx.relabelled(where, V, ctx.spaces[seen[step[1]][0]], step[2], *step[3:])
        elif kind == "ge" and value == 0:
            if step is not None:  # [ge-zero]
                raise ctx.fail(where, "Ldim >= 0 needs no step (null)")
        elif kind == "ge":
            if not (isinstance(step, list) and len(step) == 3):
                raise ctx.fail(where, "expected [instance, fact for label 0, fact for label 1]")
            x = ctx.instance(step[0], where)  # it splits V: both parts hold facts, and no space is empty
            v0 = child(step[1], "ge", ctx.part(V, x, 0), "label 0")
            v1 = child(step[2], "ge", ctx.part(V, x, 1), "label 1")
            if min(v0, v1) < value - 1:  # [ge-values]
                raise ctx.fail(where, f"its children must have values >= {value - 1}, got {v0} and {v1}")
        elif step == "log2":
            if ctx.distinct(V, below=1 << (value + 1)).bit_length() > value + 1:  # [log2]
                raise ctx.fail(where, f"the space holds {ctx.distinct(V)} distinct rows, not fewer than 2^{value + 1}")
        else:
            if not isinstance(step, list):
                raise ctx.fail(where, "expected a list of [instance, label, fact or 'log2'], 'log2' or a map")
            splitting = ctx.splitting(V)
            covered = []
            below = 1 << value  # an inline "log2" entry's side holds fewer distinct rows than this
            for entry in step:
                if not (isinstance(entry, list) and len(entry) == 3):  # [le-entry]
                    raise ctx.fail(where, "expected [instance, label 0/1, fact or 'log2']")
                x, y, f = ctx.instance(entry[0], where), ctx.label_of(entry[1], where), entry[2]  # [le-entry]
                if f == "log2":
                    d = ctx.distinct(ctx.part(V, x, y), below=below)
                    if d >= below:  # [le-log2-entry]
                        raise ctx.fail(where, f"instance {x}: its side labelled {y} holds {d} distinct rows, not "
                                              f"fewer than 2^{value}")
                elif child(f, "le", ctx.part(V, x, y), f"instance {x}") > value - 1:  # [le-child]
                    raise ctx.fail(where, f"instance {x}: fact {f} allows more than {value - 1}")
                covered.append(x)
            if sorted(covered) != splitting:  # [le-cover]
                missing = sorted(set(splitting) - set(covered))
                raise ctx.fail(where, f"instances {missing[:10] or 'not splitting the space, or listed twice,'} "
                                      "not answered exactly once")
        seen.append((s, kind, value))
    lower, upper = ctx.claim(section, "ldim", seen)
    return lower, upper, {}
