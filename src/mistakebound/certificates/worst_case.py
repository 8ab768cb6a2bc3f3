"""Checking a learner's worst case ``M_A(H)`` (``"result": "worst-case"``; textbook Definition 21.1).

The checker cannot run the learner, so the section records the learner's behaviour as a table
and proves the value of the game against a learner that behaves as recorded: what is
verified is a statement about that table, named by the horizon and by the learner the
table is said to be.  The package's ``replay``
(:mod:`mistakebound.theory.worst_case_certificate`, ``mistakebound verify FILE CLASS
--learner NAME``) confirms that the table is that learner's.  The section has exactly these
keys ``[section-keys]``::

    {"result": "worst-case", "learner": "Halving", "horizon": h or null,
     "states": [[predictions, [[x, y, next], ...], stay], ...],
     "facts": [[space, state, rounds, "ge" | "le", value, step], ...],
     "claim": {"lower": [fact, value], "upper": [fact, value]}}

``learner`` is a name of at most 1,000 characters ``[learner]``; ``horizon`` null (no
horizon) or an integer ``>= 0`` ``[horizon]``.

The table
---------
States are numbered by their place in ``states``; 0 is the learner's initial state.  A state's
``predictions`` are its probabilities of label 1, one per instance ``[state-shape]``: a list of
numbers in ``[0, 1]`` (0, 1, ``"p/q"``; null where not recorded) or a string of ``m``
characters ``0``, ``1``, ``-`` (not recorded) ``[prediction-value]``.  ``[x, y, next]``: shown ``x``
and told ``y``, the learner moves to state ``next`` ``[transition-shape]``; ``stay`` (a set of
instances, written as the class's rows are) lists the ``x`` on which, told its own prediction
(0 or 1), it stays where it is ``[stay-instances]``.  One value per key: a (state, x, y) given
twice, by two transitions or by a transition and a stay, is rejected ``[transition-once]``,
and a stay needs a prediction 0 or 1 ``[stay-noop]``.

The game the facts are about
----------------------------
A position ``(V, s, r)`` is a version space (a space of the table), a state and the rounds left
(null without a horizon: then every fact's ``rounds`` is null, else every one is an integer
``0..horizon`` ``[fact-rounds]``).  There the adversary plays any ``x`` and ``y`` with ``V_x^y``
non-empty and ``r != 0`` (a *legal move* ``[move-legal]``), gains ``|p - y|`` (``p`` the state's
recorded prediction on ``x``, which must exist ``[move-recorded]``; for a randomized learner
the exact expected mistake) and moves to ``(V_x^y, next, r - 1)`` (the recorded transition,
which must exist ``[move-recorded]``); at ``r = 0`` the game is over.  A *no-op* is a legal move
with ``V_x^y = V``, ``p = y`` and ``next = s``: it gains 0 and leaves the position as it was
(but for ``r``).  A position's value is the supremum of the gains of the plays from it;
``M_A(H)`` is the value of the root ``(all rows, state 0, horizon)``.

Why an accepted section is true
-------------------------------
By induction on a fact's position: the facts before it are true, and each step, from true
premises, concludes a true fact.  ``best`` keeps, per position, the largest value of an
earlier ``ge`` fact and the smallest of an earlier ``le`` fact there, so a step that cites
"the child's value" cites a true bound ``[child-fact]``; a child with no rounds left is worth
0.  Each fact is ``[space, state, rounds, kind, value, step]`` ``[fact-shape]``:

* ``ge v null``, ``v <= 0`` ``[ge-zero]``: gains are never negative.
* ``ge v [x, y]``: the move is legal and recorded, and its gain plus the child's ``ge`` value
  is at least ``v`` ``[ge-value]``: the adversary plays the move, then the child's line.
* ``ge "inf" ["cycle", [[x, y], ...]]``: the moves, legal and recorded in turn, come back to
  the position, rounds included, with a positive total gain ``[cycle-back]``; the table's
  behaviour depends only on the position, so repeating the moves is a play and gains
  without bound.  (With a horizon the rounds left fall with every move, so no cycle comes
  back: only a game without one can be worth infinity.)
* ``le v null``, ``v`` finite and ``>= 0`` ``[le-finite]``: every legal move but the no-ops
  ``[le-noop]`` gains, plus the child's ``le`` value (which must exist), at most ``v``
  ``[le-value]``.  By induction on the length ``k`` of a play from the position: length 0 gains
  ``0 <= v``; a play opening with a no-op goes on from the same ``V`` and ``s`` with fewer
  rounds, which is also a play of length ``k - 1`` from the position itself (fewer rounds only
  cut plays short), so by induction it gains at most ``v``; any other opening gains ``g`` and
  goes on from the child, at most ``v'`` with ``g + v' <= v``.  No assumption about the
  learner is needed: a no-op is a recorded stay or transition, which the replay confirms.
* ``le v "rounds"``: ``r`` is an integer ``<= v`` ``[le-rounds]``: each round gains at most 1,
  as predictions lie in ``[0, 1]``.

The claim's ``lower`` / ``upper`` (either may be missing in a partial certificate) name a
``ge`` / ``le`` fact at the root and state its value ``[claim-root]``.  What the replay assumes
(the search's own assumption): states with equal ``state_key()`` behave alike.
"""

from __future__ import annotations

import math
import re

__all__ = ["check"]

#: The keys of a ``"worst-case"`` section, all required.
KEYS = ("result", "learner", "horizon", "states", "facts", "claim")
#: The longest name a certificate may give its learner.
MAX_LEARNER = 1000

_HEX = re.compile(r"0|[1-9a-f][0-9a-f]*")


def _states(states: object, ctx) -> tuple[list, dict]:
    """Each state's predictions (a list of numbers or None) and the transitions ``(s, x, y) -> t``."""
    if not isinstance(states, list):  # [state-shape]
        raise ctx.fail("worst-case states", "expected a list of [predictions, transitions, stay]")
    preds, nxt = [], {}
    for s, entry in enumerate(states):
        where = f"worst-case state {s}"
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[1], list)
                and isinstance(entry[2], str)):  # [state-shape]
            raise ctx.fail(where, "expected [predictions, [[x, y, next], ...], stay]")
        row = entry[0]
        if isinstance(row, str):
            if len(row) != ctx.m or row.strip("01-"):  # [prediction-value]
                raise ctx.fail(where, f"expected {ctx.m} predictions, each 0, 1 or - (not recorded)")
            row = [None if c == "-" else int(c) for c in row]
        if not isinstance(row, list) or len(row) != ctx.m:  # [state-shape]
            raise ctx.fail(where, f"expected {ctx.m} predictions")
        ps = []
        for x, p in enumerate(row):
            p = None if p is None else ctx.number(p, f"{where} instance {x}")
            if p is not None and not 0 <= p <= 1:  # [prediction-value]
                raise ctx.fail(f"{where} instance {x}", f"a prediction must be in [0, 1], got {p}")
            ps.append(p)
        preds.append(ps)
        for t in entry[1]:
            if not (isinstance(t, list) and len(t) == 3):  # [transition-shape]
                raise ctx.fail(where, f"expected a transition [x, label 0/1, state], got {ctx.brief(t)}")
            key = (s, ctx.instance(t[0], where), ctx.label_of(t[1], where))  # [transition-shape]
            target = ctx.integer(t[2], where, 0, len(states) - 1, "a state")  # [transition-shape]
            if key in nxt:  # [transition-once]
                raise ctx.fail(where, f"two transitions on instance {t[0]}, label {t[1]}")
            nxt[key] = target
        if not (len(entry[2]) <= max(1, -(-ctx.m // 4)) and _HEX.fullmatch(entry[2])):  # [stay-instances]
            raise ctx.fail(where, "stay: expected a set of instances in lower-case hexadecimal")
        stay = int(entry[2], 16)
        if stay.bit_length() > ctx.m:  # [stay-instances]
            raise ctx.fail(where, "stay names an instance the class does not have")
        for x in range(stay.bit_length()):
            if stay >> x & 1:
                if ps[x] not in (0, 1):  # [stay-noop]
                    raise ctx.fail(where, f"instance {x}: a stay needs a prediction 0 or 1")
                if (s, x, ps[x]) in nxt:  # [transition-once]
                    raise ctx.fail(where, f"instance {x}: a stay and a transition on the same label")
                nxt[s, x, ps[x]] = s
    return preds, nxt


def check(section: dict, ctx) -> tuple:
    """Check every fact of a ``"worst-case"`` section; return the claimed ``(lower, upper)`` and what they are of."""
    if set(section) != set(KEYS):  # [section-keys]
        raise ctx.fail("worst-case", f"expected a section with exactly the keys {', '.join(KEYS)}")
    learner, horizon = section["learner"], section["horizon"]
    if not isinstance(learner, str) or len(learner) > MAX_LEARNER:  # [learner]
        raise ctx.fail("worst-case learner", f"expected the learner's name, at most {MAX_LEARNER} characters")
    if horizon is not None:
        horizon = ctx.integer(horizon, "worst-case horizon", 0, 1 << ctx.bits, "null or a number of rounds")  # [horizon]
    preds, nxt = _states(section["states"], ctx)
    facts = section["facts"]
    if not isinstance(facts, list):
        raise ctx.fail("worst-case facts", "expected a list of facts")
    best = {"ge": {}, "le": {}}  # position -> best value of the earlier facts of each kind
    seen = []

    def move(where, V, s, r, x, y):
        """(gain, child position or None when no rounds are left) of a legal move."""
        x, y = ctx.instance(x, where), ctx.label_of(y, where)
        W = ctx.part(V, x, y)
        if not W or r == 0:  # [move-legal]
            raise ctx.fail(where, f"instance {x}, label {y} is no legal move here")
        p = preds[s][x]
        if p is None:  # [move-recorded]
            raise ctx.fail(where, f"state {s} has no recorded prediction on instance {x}")
        if r == 1:
            return abs(p - y), None
        if (s, x, y) not in nxt:  # [move-recorded]
            raise ctx.fail(where, f"state {s} has no recorded transition on instance {x}, label {y}")
        return abs(p - y), (W, nxt[s, x, y], None if r is None else r - 1)

    def child(where, kind, pos):
        if pos is None:
            return 0
        if pos not in best[kind]:  # [child-fact]
            raise ctx.fail(where, f"no earlier {kind!r} fact at the child position "
                                  f"(space {format(pos[0], 'x')[:40]}, state {pos[1]}, rounds {pos[2]})")
        return best[kind][pos]

    for k, fact in enumerate(facts):
        where = f"worst-case fact {k}"
        if not isinstance(fact, list) or len(fact) != 6 or fact[3] not in ("ge", "le"):  # [fact-shape]
            raise ctx.fail(where, "expected [space, state, rounds, 'ge' or 'le', value, step]")
        _, s, r, kind, value, step = fact
        V = ctx.space(fact[0], where)
        s = ctx.integer(s, where, 0, len(preds) - 1, "a state")  # [fact-shape]
        if (horizon is None) != (r is None):  # [fact-rounds]
            raise ctx.fail(where, "rounds must be null without a horizon, else a number of rounds left")
        if r is not None:
            r = ctx.integer(r, where, 0, horizon, "the rounds left")  # [fact-rounds]
        value = ctx.number(value, where, infinite=True)
        if kind == "ge" and step is None:
            if value > 0:  # [ge-zero]
                raise ctx.fail(where, f"ge {value} needs a step")
        elif kind == "ge" and isinstance(step, list) and step[:1] == ["cycle"]:
            if len(step) != 2 or not isinstance(step[1], list) or not step[1]:
                raise ctx.fail(where, "expected ['cycle', [[x, y], ...]]")
            pos, total = (V, s, r), 0
            for mv in step[1]:
                if pos is None or not (isinstance(mv, list) and len(mv) == 2):
                    raise ctx.fail(where, f"expected a move [x, y] from a position, got {ctx.brief(mv)}")
                gain, pos = move(where, *pos, *mv)
                total += gain
            if pos != (V, s, r) or total <= 0:  # [cycle-back]
                raise ctx.fail(where, "the cycle must come back to its position with a positive gain")
        elif kind == "ge":
            if not (isinstance(step, list) and len(step) == 2):
                raise ctx.fail(where, "expected a move [x, y], ['cycle', moves] or null")
            gain, pos = move(where, V, s, r, *step)
            if gain + child(where, "ge", pos) < value:  # [ge-value]
                raise ctx.fail(where, f"the move gains {gain} and its child is worth "
                                      f"{child(where, 'ge', pos)}: less than {value}")
        elif step == "rounds":
            if r is None or value < r:  # [le-rounds]
                raise ctx.fail(where, f"{r} rounds left do not bound the mistakes by {value}")
        else:
            if step is not None or not 0 <= value < math.inf:  # [le-finite]
                raise ctx.fail(where, "expected a finite value >= 0 and a null step or 'rounds'")
            for x in range(ctx.m if r != 0 else 0):
                for y in (0, 1):
                    W = ctx.part(V, x, y)
                    if W == V and preds[s][x] == y and nxt.get((s, x, y)) == s:  # [le-noop]
                        continue
                    if W:
                        gain, pos = move(where, V, s, r, x, y)
                        if gain + child(where, "le", pos) > value:  # [le-value]
                            raise ctx.fail(where, f"instance {x}, label {y}: gains {gain} and its child "
                                                  f"allows {child(where, 'le', pos)}: more than {value}")
        pos = (V, s, r)
        if pos not in best[kind] or (value > best[kind][pos] if kind == "ge" else value < best[kind][pos]):
            best[kind][pos] = value
        seen.append((pos, kind, value))
    root = (ctx.full, 0, horizon)
    lower, upper = ctx.claim(section, "worst-case", seen, lambda pos: pos == root,
                             "at the root (all rows, state 0, the horizon)")
    return lower, upper, {"horizon": horizon, "learner": learner, "states": len(preds)}
