"""Checking a Littlestone-dimension result (``"result": "ldim"``) against the textbook recursion.

Ldim(V) is the largest ``d`` such that some instance ``x`` splits ``V`` into two parts of
Ldim at least ``d - 1``; 0 when no instance splits ``V``.  The section::

    {"result": "ldim", "facts": [[space, "ge" | "le", value, step], ...],
     "claim": {"lower": [fact, value], "upper": [fact, value]}}

A fact refers only to facts listed before it, so one pass in order checks them all.  The steps:

* ``[V, "ge", 0, null]``: a non-empty space has Ldim >= 0.
* ``[V, "ge", a, [x, f0, f1]]`` with ``a >= 1``: ``f0`` and ``f1`` are ``"ge"`` facts on
  exactly ``V_x^0`` and ``V_x^1``, each of value at least ``a - 1``.  The ``"ge"`` facts
  under a lower claim are a shattered tree of depth ``a``.
* ``[V, "le", b, [[x, y, f], ...]]``: one entry for every instance ``x`` that splits ``V``
  (no other), ``f`` a ``"le"`` fact on exactly ``V_x^y`` of value at most ``b - 1``: whichever
  ``x`` the adversary shows, the learner predicts ``1 - y``, so a mistake leaves ``V_x^y``.
  With no splitting instance the list is empty and ``b >= 0``.
* ``[V, "le", b, "log2"]``: ``V`` holds fewer than ``2^(b+1)`` distinct rows (Ldim <= log2 |V|).
* ``[V, kind, value, ["map", f, [[x, z, flip], ...]]]``: ``V`` is a relabelled copy of the
  space ``W`` of fact ``f`` (of the same kind; a ``"ge"`` fact of value at least ``value``, a
  ``"le"`` one of at most ``value``).  Every instance ``x`` splitting ``V`` is listed once, with an
  instance ``z`` splitting ``W`` and ``flip`` 0 or 1; an instance splitting ``W`` that is no
  ``z`` must be a copy of one (equal or complementary on ``W``).  Each row ``r`` of ``V`` then
  reads, on the ``z`` in increasing order, as ``r[x] xor flip`` for any ``x`` sent to ``z`` (all
  such ``x`` must agree on every row of ``V``), and the set of these words must be the set of
  words the rows of ``W`` give on the same instances.  Why that preserves Ldim: instances
  that split nothing never matter, instances that are copies of one another split the space
  and every part of it the same way (so dropping copies changes no value), and what is left
  of ``V`` and of ``W`` are the same words, so the two recursions run step for step alike.
  With a fifth element ``["map", f, entries, shift]`` the rows correspond one to one, row
  ``i`` of ``V`` to row ``i - shift`` of ``W`` (so ``W`` is ``V`` shifted by ``shift`` bits), and
  instead of comparing words the checker compares each listed instance's part:
  ``V_x^1`` shifted must be ``W_z^1`` (``W_z^0`` when ``flip`` is 1).

The claim's ``lower`` and ``upper`` (either may be missing in a partial certificate) name a
fact on the space of all rows and its value.
"""

from __future__ import annotations

__all__ = ["check"]


def check(section: dict, ctx) -> tuple[int | None, int | None]:
    """Check every fact of an ``"ldim"`` section; return the claimed ``(lower, upper)``."""
    facts = section.get("facts")
    if not isinstance(facts, list):
        raise ctx.fail("ldim facts", "missing")
    seen: list[tuple[int, str, int]] = []
    for k, fact in enumerate(facts):
        where = f"ldim fact {k}"
        if not isinstance(fact, list) or len(fact) != 4:
            raise ctx.fail(where, "expected [space, 'ge' or 'le', value, step]")
        s, kind, value, step = fact
        V = ctx.space(s, where)
        if kind not in ("ge", "le") or type(value) is not int:
            raise ctx.fail(where, "expected 'ge' or 'le' and an integer value")

        def child(f, want_kind: str, want_space: int | None, what: str) -> int:
            return ctx.earlier(seen, f, want_kind, want_space, where, what)

        if isinstance(step, list) and step[:1] == ["map"]:
            if len(step) not in (3, 4):
                raise ctx.fail(where, "expected ['map', fact, [[instance, instance, flip], ...](, shift)]")
            cvalue = child(step[1], kind, None, "map")
            if (kind == "ge" and cvalue < value) or (kind == "le" and cvalue > value):
                raise ctx.fail(where, f"fact {step[1]} has value {cvalue}, which does not give {kind} {value}")
            ctx.relabelled(where, V, ctx.spaces[seen[step[1]][0]], step[2], *step[3:])
        elif kind == "ge":
            if value <= 0:
                if value < 0 or step is not None:
                    raise ctx.fail(where, "Ldim >= 0 needs no step (null), and values are >= 0")
            else:
                if not (isinstance(step, list) and len(step) == 3):
                    raise ctx.fail(where, "expected [instance, fact for label 0, fact for label 1]")
                x = ctx.instance(step[0], where)
                if not 0 != V & ctx.columns[x] != V:
                    raise ctx.fail(where, f"instance {x} does not split the space")
                v0 = child(step[1], "ge", ctx.part(V, x, 0), "label 0")
                v1 = child(step[2], "ge", ctx.part(V, x, 1), "label 1")
                if min(v0, v1) < value - 1:
                    raise ctx.fail(where, f"its children must have values >= {value - 1}, got {v0} and {v1}")
        elif step == "log2":
            if value < 0 or ctx.distinct(V, below=1 << (value + 1)) >= 1 << (value + 1):
                raise ctx.fail(where, f"the space holds {ctx.distinct(V)} distinct rows, not fewer than 2^{value + 1}")
        else:
            if not isinstance(step, list) or value < 0:
                raise ctx.fail(where, "expected a list of [instance, label, fact] and a value >= 0")
            splitting = ctx.splitting(V)
            covered = []
            for entry in step:
                if not (isinstance(entry, list) and len(entry) == 3 and entry[1] in (0, 1)):
                    raise ctx.fail(where, f"expected [instance, label 0/1, fact], got {entry!r}")
                x, y, f = ctx.instance(entry[0], where), entry[1], entry[2]
                if x not in splitting:
                    raise ctx.fail(where, f"instance {x} does not split the space")
                if child(f, "le", ctx.part(V, x, y), f"instance {x}") > value - 1:
                    raise ctx.fail(where, f"instance {x}: fact {f} allows more than {value - 1}")
                covered.append(x)
            if sorted(covered) != splitting:
                missing = sorted(set(splitting) - set(covered))
                raise ctx.fail(where, f"instances {missing or 'listed twice'} not answered exactly once")
        seen.append((s, kind, value))
    return ctx.claim(section, "ldim", seen)
