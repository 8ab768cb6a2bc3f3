"""Checking a randomized-Littlestone result (``"result": "rldim"``) against the FHMM recursion.

``RL(V) = 0`` when no instance splits ``V``, else the largest ``(1 + RL(V_x^0) + RL(V_x^1)) / 2``
over the instances ``x`` splitting ``V`` (Filmus, Hanneke, Mehalel and Moran, COLT 2023:
half the largest expected depth of a shattered tree, down the branch fair coins choose).
``d(V)`` is the number of distinct rows of ``V``.  The section::

    {"result": "rldim", "facts": [[space, "ge" | "le" | "ldim", value, step], ...],
     "claim": {"lower": [fact, value], "upper": [fact, value]}}

with no other key ``[section-keys]``.  ``"ge"`` / ``"le"`` facts state ``RL(V) >= value`` /
``RL(V) <= value``, values exact and finite (integers or ``"p/q"``, see :mod:`~mistakebound.certificates.context`);
``"ldim"`` facts state ``Ldim(V) <= value`` (an integer ``0..n``), used only by the ``"ldim"``
bound below ``[fact-shape]``.  A fact refers only to facts listed before it, of the kind and on
exactly the space its step says ``[earlier]``; by induction on a fact's position, each step
below concludes a true fact from true ones:

* ``[V, "ge", a, null]`` with ``a <= 0`` ``[ge-zero]``: RL is never negative.
* ``[V, "ge", a, [x, f0, f1]]``: ``f0`` and ``f1`` are ``"ge"`` facts on exactly ``V_x^0`` and
  ``V_x^1`` of values ``a0``, ``a1`` (so ``x`` splits ``V``: no space is empty), and
  ``(1 + a0 + a1) / 2 >= a`` ``[ge-value]``: one term of the maximum.
* ``[V, "le", b, [entry, ...]]``: one entry for every instance splitting ``V`` and no other,
  each once ``[le-cover]``, each bounding that instance's term by ``b``: ``[x, f0, f1]`` with
  ``"le"`` facts on exactly ``V_x^0`` and ``V_x^1`` of values ``b0``, ``b1`` and
  ``(1 + b0 + b1) / 2 <= b`` ``[le-value]``; or ``[x, "log2"]`` with
  ``d(V_x^0) d(V_x^1) <= 2^floor(4b - 2)`` ``[le-log2]``, which gives the term at most
  ``(1 + log2 d(V_x^0) / 2 + log2 d(V_x^1) / 2) / 2 <= b`` by the next bound.  Always ``b >= 0``
  ``[le-nonnegative]`` (all that is left to check when nothing splits ``V``).
* ``[V, "le", b, "log2"]``: ``d(V)^q <= 4^p`` for ``b = p/q`` in lowest terms, ``q <= 1024``,
  i.e. ``log2 d(V) / 2 <= b`` ``[log2]``.  Sound because ``RL(V) <= log2 d(V) / 2``: a tree the recursion
  builds ends in leaves holding disjoint sets of rows, so at most ``d(V)`` leaves, and the
  expected depth under fair coins is the entropy of the leaves' probabilities ``2^-depth``,
  at most ``log2`` of their number.
* ``[V, "le", b, ["ldim", f]]``: ``f`` an ``"ldim"`` fact on ``V`` of value ``L`` and
  ``b >= L (1 - 2^(1 - d(V)))`` ``[by-ldim]``.  Sound by induction on ``d``: at a splitting ``x`` both sides
  have fewer rows and Ldim at most ``L``, one of them at most ``L - 1``, so the term is at most
  ``(1 + L (1 - 2^(1-d0)) + (L-1)(1 - 2^(1-d1))) / 2 <= L (1 - 2^(1-d))`` as ``d0, d1 <= d - 1``.
* ``[V, "ldim", L, [[x, y, f], ...]]``: the textbook step (as in :mod:`~mistakebound.certificates.ldim`): every instance
  splitting ``V`` once ``[le-cover]``, ``f`` an ``"ldim"`` fact on exactly ``V_x^y`` of value at
  most ``L - 1`` ``[ldim-child]``.  ``[V, "ldim", L, "log2"]``: ``d(V) < 2^(L + 1)``
  ``[ldim-log2]``.  ``[V, "ldim", L, "class"]``: an ``"ldim"`` result checked earlier in the
  document proved ``Ldim(H) <= L`` ``[ldim-class]``, and a tree shattered by a part of the
  class is shattered by the class.

* ``[V, kind, value, ["map", f, [[x, z, flip], ...]]]`` for ``kind`` ``"ge"`` or ``"le"``: ``V`` is a
  relabelled copy of the space ``W`` of fact ``f``, a fact of the same kind whose value gives
  this one (``"ge"`` at least ``value``, ``"le"`` at most).  The map is checked as the Ldim
  checker's (:mod:`~mistakebound.certificates.ldim`, the same function): every instance splitting ``V`` sent once to an
  instance ``z`` splitting ``W`` with a flip, and the rows of ``V`` so read being the rows of
  ``W`` (no shift: this kind's maps compare words) ``[map-value]``.  Sound because the recursion above depends only on the set of distinct words the
  rows write on the splitting instances, copies of an instance (equal or complementary on
  ``V``, hence on every part of it) counted once, whatever their order and polarity: what is
  left of ``V`` and of ``W`` are the same words, so the two recursions run step for step alike.

The claim's ``lower`` and ``upper`` (either may be missing in a partial certificate) name a
``"ge"`` / ``"le"`` fact on the space of all rows and state its value ``[claim-root]``.
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["check"]

#: The keys of an ``"rldim"`` section, all required.
KEYS = ("result", "facts", "claim")


def check(section: dict, ctx) -> tuple[Fraction | None, Fraction | None, dict]:
    """Check every fact of an ``"rldim"`` section; return the claimed ``(lower, upper)`` and nothing more about them."""
    if set(section) != set(KEYS) or not isinstance(section["facts"], list):  # [section-keys]
        raise ctx.fail("rldim", f"expected a section with exactly the keys {', '.join(KEYS)}, 'facts' a list")
    seen: list[tuple[int, str, Fraction]] = []
    for k, fact in enumerate(section["facts"]):
        where = f"rldim fact {k}"
        if not isinstance(fact, list) or len(fact) != 4 or fact[1] not in ("ge", "le", "ldim"):  # [fact-shape]
            raise ctx.fail(where, "expected [space, 'ge', 'le' or 'ldim', value, step]")
        s, kind, value, step = fact
        V = ctx.space(s, where)
        if kind == "ldim":
            value = Fraction(ctx.integer(value, where, 0, ctx.n, "an Ldim bound"))  # [fact-shape]
        else:
            value = Fraction(ctx.number(value, where))  # [fact-shape]

        def child(f, want_kind: str, want_space: int | None) -> Fraction:
            return ctx.earlier(seen, f, want_kind, want_space, where)

        if kind != "ldim" and isinstance(step, list) and step[:1] == ["map"]:
            if len(step) != 3:
                raise ctx.fail(where, "expected ['map', fact, [[instance, instance, flip], ...]]")
            cvalue = child(step[1], kind, None)
            if (kind == "ge" and cvalue < value) or (kind == "le" and cvalue > value):  # [map-value]
                raise ctx.fail(where, f"fact {step[1]} has value {cvalue}, which does not give {kind} {value}")
            ctx.relabelled(where, V, ctx.spaces[seen[step[1]][0]], step[2])
        elif kind == "ge" and step is None:
            if value > 0:  # [ge-zero]
                raise ctx.fail(where, f"RL >= {value} needs a step")
        elif kind == "ge":
            if not (isinstance(step, list) and len(step) == 3):
                raise ctx.fail(where, "expected [instance, fact for label 0, fact for label 1]")
            x = ctx.instance(step[0], where)  # it splits V: both parts hold facts, and no space is empty
            a0, a1 = child(step[1], "ge", ctx.part(V, x, 0)), child(step[2], "ge", ctx.part(V, x, 1))
            if (1 + a0 + a1) / 2 < value:  # [ge-value]
                raise ctx.fail(where, f"(1 + {a0} + {a1}) / 2 is less than {value}")
        elif value < 0:  # [le-nonnegative]
            raise ctx.fail(where, "an upper bound must be >= 0")
        elif step == "log2":
            d = ctx.distinct(V)
            if kind == "ldim" and d.bit_length() > value + 1:  # [ldim-log2]
                raise ctx.fail(where, f"the space holds {d} distinct rows, not fewer than 2^{value + 1}")
            q = value.denominator  # d^q <= 4^p, compared by bit lengths (no power of a huge p)
            if kind == "le" and (q > 1024 or (d ** q - 1).bit_length() > 2 * value.numerator):  # [log2]
                raise ctx.fail(where, f"log2({d}) / 2 is not checked to be at most {value} (denominator <= 1024)")
        elif kind == "ldim" and step == "class":
            proven = ctx.proven.get("ldim", (None, None))[1]
            if proven is None or proven > value:  # [ldim-class]
                raise ctx.fail(where, f"no earlier 'ldim' result proves Ldim <= {value} for the class")
        elif kind == "le" and isinstance(step, list) and step[:1] == ["ldim"]:
            if len(step) != 2:
                raise ctx.fail(where, "expected ['ldim', fact]")
            L, d = child(step[1], "ldim", V), ctx.distinct(V)
            if value * 2 ** (d - 1) < L * (2 ** (d - 1) - 1):  # [by-ldim]
                raise ctx.fail(where, f"{value} is less than {L} (1 - 2^(1 - {d}))")
        elif isinstance(step, list):
            covered = []
            for entry in step:
                if kind == "ldim":
                    if not (isinstance(entry, list) and len(entry) == 3):
                        raise ctx.fail(where, "expected [instance, label 0/1, fact]")
                    x, y = ctx.instance(entry[0], where), ctx.label_of(entry[1], where)
                    if child(entry[2], "ldim", ctx.part(V, x, y)) > value - 1:  # [ldim-child]
                        raise ctx.fail(where, f"instance {x}: fact {entry[2]} allows more than {value - 1}")
                elif isinstance(entry, list) and len(entry) == 2 and entry[1] == "log2":
                    x = ctx.instance(entry[0], where)
                    product = ctx.distinct(ctx.part(V, x, 0)) * ctx.distinct(ctx.part(V, x, 1))
                    if (product - 1).bit_length() > math.floor(4 * value - 2):  # [le-log2]
                        raise ctx.fail(where, f"instance {x}: its sides' log2 bound exceeds {value}")
                elif isinstance(entry, list) and len(entry) == 3:
                    x = ctx.instance(entry[0], where)
                    b0, b1 = child(entry[1], "le", ctx.part(V, x, 0)), child(entry[2], "le", ctx.part(V, x, 1))
                    if (1 + b0 + b1) / 2 > value:  # [le-value]
                        raise ctx.fail(where, f"instance {x}: (1 + {b0} + {b1}) / 2 exceeds {value}")
                else:
                    raise ctx.fail(where, "expected [instance, fact, fact] or [instance, 'log2']")
                covered.append(x)
            if sorted(covered) != ctx.splitting(V):  # [le-cover]
                missing = sorted(set(ctx.splitting(V)) - set(covered))
                raise ctx.fail(where, f"instances {missing[:10] or 'not splitting the space, or listed twice,'} "
                                      "not answered exactly once")
        else:
            raise ctx.fail(where, "expected a list of entries, 'log2' or ['ldim', fact]")
        seen.append((s, kind, value))
    lower, upper = ctx.claim(section, "rldim", seen)
    return lower, upper, {}
