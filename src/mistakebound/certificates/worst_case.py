"""Checking a learner's worst case ``M_A(H)`` (``"result": "worst-case"``; textbook Definition 21.1).

The checker cannot run the learner, so the section records the learner's behaviour as a table
and proves the game's value for a learner that behaves as recorded; the package's ``replay``
(:mod:`mistakebound.theory.worst_case_certificate`) confirms that the table is the learner's.
The section::

    {"result": "worst-case", "learner": "Halving", "horizon": h or null,
     "states": [[predictions, [[x, y, next], ...], stay], ...],
     "facts": [[space, state, rounds, "ge" | "le", value, step], ...],
     "claim": {"lower": [fact, value], "upper": [fact, value]}}

States are numbered by their place in ``states``; 0 is the learner's initial state.  A state's
``predictions`` are its probabilities of label 1, one per instance: a list of numbers (0, 1,
``"p/q"``; null where not recorded) or a string of characters ``0``, ``1``, ``-`` (not
recorded).  ``[x, y, next]``: shown ``x`` and told ``y``, the learner moves to state ``next``;
``stay`` (a hexadecimal set of instances) lists the ``x`` on which, told its own prediction
(0 or 1), it stays where it is.  One value per key: a (state, x, y) given twice is rejected.

A position ``(V, s, r)`` is a version space (a space of the table), a state and the rounds left
(null without a horizon: then every fact's ``rounds`` is null, else every one is an integer).
There the adversary plays any ``x`` and ``y`` with ``V_x^y`` non-empty, gains ``|p - y|`` (``p``
the state's prediction on ``x``; for a randomized learner the exact expected mistake) and
moves to ``(V_x^y, next, r - 1)``; at ``r = 0`` the game is over.  A *no-op* gains 0, leaves
``V`` unchanged and stays in ``s``.  A position's value is the supremum of the gains of the
plays from it.  The steps, each using only facts listed before it:

* ``ge v null``, ``v <= 0``: gains are never negative.
* ``ge v [x, y]``: the move is legal and its gain plus the child's value is at least ``v``:
  0 if ``r - 1 = 0``, else the largest value of an earlier ``ge`` fact at the child position.
  The adversary plays the move, then the child's line.
* ``ge "inf" ["cycle", [[x, y], ...]]`` (no horizon): the moves, legal in turn, come back to
  the position with a positive total gain; repeating them gains without bound.
* ``le v null``, ``v`` finite and ``>= 0``: every legal move except no-ops gains, plus the
  child's value, at most ``v``: 0 if ``r - 1 = 0``, else the smallest value of an earlier ``le``
  fact at the child position, which must exist.  Sound by induction on the length ``k`` of a
  play: length 0 gains 0 <= v; a play opening with a no-op goes on from ``(V, s)`` for ``k - 1``
  moves (also a play from the position itself, so by induction at most ``v``); any other opening
  gains ``g`` and goes on from the child, at most ``v'`` with ``g + v' <= v``.  No assumption about
  the learner is needed: no-ops are listed in ``stay``, so the replay confirms them too.
* ``le v "rounds"``: ``r`` is an integer ``<= v``: each round gains at most 1.

The claim's ``lower`` / ``upper`` (either may be missing in a partial certificate) name a
``ge`` / ``le`` fact at the root ``(all rows, state 0, horizon)`` and its value.  What the
replay assumes (the search's own assumption): states with equal ``state_key()`` behave alike.
"""

from __future__ import annotations

import math

__all__ = ["check"]


def _states(section: dict, ctx) -> tuple[list, dict]:
    """Each state's predictions (a list of numbers or None) and the transitions ``(s, x, y) -> t``."""
    states = section.get("states")
    if not isinstance(states, list) or not states:
        raise ctx.fail("worst-case states", "expected a non-empty list of [predictions, transitions, stay]")
    preds, nxt = [], {}
    for s, entry in enumerate(states):
        where = f"worst-case state {s}"
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[1], list)
                and isinstance(entry[2], str)):
            raise ctx.fail(where, "expected [predictions, [[x, y, next], ...], stay]")
        row = entry[0]
        if isinstance(row, str):
            row = [None if c == "-" else int(c) if c in "01" else "?" for c in row]
        if not isinstance(row, list) or len(row) != ctx.m:
            raise ctx.fail(where, f"expected {ctx.m} predictions")
        ps = []
        for x, p in enumerate(row):
            p = None if p is None else ctx.number(p, f"{where} instance {x}")
            if p is not None and not 0 <= p <= 1:
                raise ctx.fail(f"{where} instance {x}", f"a prediction must be in [0, 1], got {p}")
            ps.append(p)
        preds.append(ps)
        for t in entry[1]:
            if not (isinstance(t, list) and len(t) == 3 and t[1] in (0, 1) and type(t[2]) is int
                    and 0 <= t[2] < len(states)):
                raise ctx.fail(where, f"expected a transition [x, label 0/1, state], got {t!r}")
            key = (s, ctx.instance(t[0], where), t[1])
            if key in nxt:
                raise ctx.fail(where, f"two transitions on instance {t[0]}, label {t[1]}")
            nxt[key] = t[2]
        try:
            stay = int(entry[2], 16)
        except ValueError:
            raise ctx.fail(where, "stay: expected a hexadecimal set of instances") from None
        for x in range(ctx.m):
            if stay >> x & 1:
                if ps[x] not in (0, 1) or (s, x, ps[x]) in nxt:
                    raise ctx.fail(where, f"instance {x}: a stay needs a prediction 0/1 and no other transition")
                nxt[s, x, ps[x]] = s
        if stay >> ctx.m:
            raise ctx.fail(where, "stay names an instance the class does not have")
    return preds, nxt


def check(section: dict, ctx) -> tuple:
    """Check every fact of a ``"worst-case"`` section; return the claimed ``(lower, upper)``."""
    if not isinstance(section.get("learner"), str):
        raise ctx.fail("worst-case learner", "expected the learner's description")
    horizon = section.get("horizon")
    if horizon is not None and (type(horizon) is not int or horizon < 0):
        raise ctx.fail("worst-case horizon", f"expected null or a number of rounds, got {horizon!r}")
    preds, nxt = _states(section, ctx)
    facts = section.get("facts")
    if not isinstance(facts, list):
        raise ctx.fail("worst-case facts", "missing")
    best = {"ge": {}, "le": {}}  # position -> best value of the earlier facts of each kind
    seen = []

    def move(where, V, s, r, x, y):
        """(gain, child position or None when no rounds are left) of a legal move."""
        W = ctx.part(V, ctx.instance(x, where), y) if y in (0, 1) else 0
        if not W or r == 0:
            raise ctx.fail(where, f"instance {x}, label {y!r} is no legal move here")
        p = preds[s][x]
        if p is None:
            raise ctx.fail(where, f"state {s} has no recorded prediction on instance {x}")
        if r is not None and r == 1:
            return abs(p - y), None
        if (s, x, y) not in nxt:
            raise ctx.fail(where, f"state {s} has no recorded transition on instance {x}, label {y}")
        return abs(p - y), (W, nxt[s, x, y], None if r is None else r - 1)

    def child(where, kind, pos):
        if pos is None:
            return 0
        if pos not in best[kind]:
            raise ctx.fail(where, f"no earlier {kind!r} fact at the child position "
                                  f"(space {format(pos[0], 'x')}, state {pos[1]}, rounds {pos[2]})")
        return best[kind][pos]

    for k, fact in enumerate(facts):
        where = f"worst-case fact {k}"
        if not isinstance(fact, list) or len(fact) != 6 or fact[3] not in ("ge", "le"):
            raise ctx.fail(where, "expected [space, state, rounds, 'ge' or 'le', value, step]")
        _, s, r, kind, value, step = fact
        V = ctx.space(fact[0], where)
        if type(s) is not int or not 0 <= s < len(preds):
            raise ctx.fail(where, f"expected a state 0..{len(preds) - 1}, got {s!r}")
        if (horizon is None) != (r is None) or (r is not None and (type(r) is not int or r < 0)):
            raise ctx.fail(where, "rounds must be null without a horizon, else a number >= 0")
        value = ctx.number(value, where)
        if kind == "ge" and step is None:
            if value > 0:
                raise ctx.fail(where, f"ge {value} needs a step")
        elif kind == "ge" and isinstance(step, list) and step[:1] == ["cycle"]:
            if r is not None or len(step) != 2 or not isinstance(step[1], list) or not step[1]:
                raise ctx.fail(where, "expected ['cycle', [[x, y], ...]] without a horizon")
            pos, total = (V, s, r), 0
            for mv in step[1]:
                if not (isinstance(mv, list) and len(mv) == 2):
                    raise ctx.fail(where, f"expected a move [x, y], got {mv!r}")
                gain, pos = move(where, pos[0], pos[1], None, *mv)
                total += gain
            if pos != (V, s, r) or total <= 0:
                raise ctx.fail(where, "the cycle must come back to its position with a positive gain")
        elif kind == "ge":
            if not (isinstance(step, list) and len(step) == 2):
                raise ctx.fail(where, "expected a move [x, y], ['cycle', moves] or null")
            gain, pos = move(where, V, s, r, *step)
            if gain + child(where, "ge", pos) < value:
                raise ctx.fail(where, f"the move gains {gain} and its child is worth "
                                      f"{child(where, 'ge', pos)}: less than {value}")
        elif step == "rounds":
            if r is None or value < r:
                raise ctx.fail(where, f"{r} rounds left do not bound the mistakes by {value}")
        else:
            if step is not None or not 0 <= value < math.inf:
                raise ctx.fail(where, "expected a finite value >= 0 and a null step or 'rounds'")
            for x in range(ctx.m if r != 0 else 0):
                for y in (0, 1):
                    if ctx.part(V, x, y) == V and preds[s][x] == y and nxt.get((s, x, y)) == s:
                        continue  # a no-op
                    if ctx.part(V, x, y):
                        gain, pos = move(where, V, s, r, x, y)
                        if gain + child(where, "le", pos) > value:
                            raise ctx.fail(where, f"instance {x}, label {y}: gains {gain} and its child "
                                                  f"allows {child(where, 'le', pos)}: more than {value}")
        pos = (V, s, r)
        if pos not in best[kind] or (value > best[kind][pos] if kind == "ge" else value < best[kind][pos]):
            best[kind][pos] = value
        seen.append((pos, kind, value))
    root = (ctx.full, 0, horizon)
    return ctx.claim(section, "worst-case", seen, lambda pos: pos == root,
                     "at the root (all rows, state 0, the horizon)")
