"""Checking a self-directed complexity (``"result": "self-directed"``) against its recursion.

In the self-directed game (Goldman and Sloan 1994) the learner picks each next instance,
predicts its label, and the adversary labels it, realizable.  For deterministic learners
and two labels its value from a set of rows ``V`` is

    ``SD(V) = 0`` when no instance splits ``V``, else
    ``SD(V) = min over instances x splitting V of step(SD(V_x^0), SD(V_x^1))``,

with ``step(a, b) = max(a, b, min(a, b) + 1)`` (:func:`.orders.step`: the learner predicts the
label of the larger value, the adversary answers the better label against it).  An instance
on which ``V`` agrees costs nothing and changes nothing, and every instance shown so far is
one, so the version space is the whole state.  The section has exactly these keys::

    {"result": "self-directed", "facts": [[space, "ge" | "le", value, step], ...],
     "claim": {"lower": [fact, value], "upper": [fact, value]}}

A fact states ``SD(V) >= value`` (``"ge"``) or ``SD(V) <= value`` (``"le"``) for the space
``V`` of the table; ``value`` an integer ``0..n`` ``[fact-shape]``.

Why an accepted section is true
-------------------------------
By induction on a fact's position (every fact it cites is earlier, of the kind and on
exactly the space its step says ``[earlier]``), each step gives a true conclusion from true
premises.  ``step`` is non-decreasing in each argument.

* ``[V, "le", b, null]``: no instance splits ``V`` ``[le-zero]``, so ``SD(V) = 0 <= b``.
* ``[V, "le", b, [x, f0, f1]]``: ``f0`` and ``f1`` are ``"le"`` facts on exactly ``V_x^0`` and
  ``V_x^1`` (no space is empty, so ``x`` splits ``V``) whose step is at most ``b``
  ``[le-step]``.  The learner that picks ``x`` at ``V`` and plays optimally after concedes
  ``step(SD(V_x^0), SD(V_x^1)) <= step(v0, v1) <= b``, and ``SD(V)`` is the least over instances.
* ``[V, "ge", a, null]``: ``a`` is 0, or ``a`` is 1 and some instance splits ``V``
  ``[ge-floor]``: then every term of the minimum is at least ``step(0, 0) = 1``.
* ``[V, "ge", a, [[x, f0, f1], ...]]``: the entries name every instance that splits ``V`` and
  no other, each once, and at least one when ``a > 0`` ``[ge-cover]``; ``f0``, ``f1`` are
  ``"ge"`` facts on exactly ``V_x^0`` and ``V_x^1`` whose step is at least ``a``
  ``[ge-step]``.  Every term of the minimum is then at least ``a``, and there is one.

The claim's ``lower`` and ``upper`` (either may be missing) name a fact of the right kind on
the space of all rows and state its value ``[claim-root]``.

Examples
--------
>>> from mistakebound.certificates.verify import FORMAT, check, class_hash
>>> rows, domain = ["0", "1", "3"], [0, 1]            # thresholds on two instances: SD 1
>>> facts = [[1, "le", 0, None], [3, "le", 0, None], [4, "le", 0, None], [2, "le", 1, [1, 1, 2]],
...          [0, "le", 1, [0, 0, 3]], [0, "ge", 1, None]]
>>> c = {"format": FORMAT, "version": 2,
...      "class": {"n_hypotheses": 3, "n_instances": 2, "rows": rows, "domain": domain,
...                "sha256": class_hash(rows, domain)},
...      "spaces": ["7", [0, 0, 0], [0, 0, 1], [2, 1, 0], [2, 1, 1]],
...      "results": [{"result": "self-directed", "facts": facts,
...                   "claim": {"lower": [5, 1], "upper": [4, 1]}}]}
>>> check(c)
{'self-directed': (1, 1)}
>>> facts[4][2] = 0
>>> check(c)
Traceback (most recent call last):
...
mistakebound.certificates.document.CertificateError: self-directed fact 4: instance 0: its parts allow 0 and 1, a step of 1, more than 0
"""

from __future__ import annotations

if __package__:
    from .orders import step
else:  # run as a program: see verify.py
    from orders import step  # type: ignore[no-redef]

__all__ = ["check"]

#: The keys of a ``"self-directed"`` section, all required.
KEYS = ("result", "facts", "claim")


def check(section: dict, ctx) -> tuple[int | None, int | None, dict]:
    """Check every fact of a ``"self-directed"`` section; return the claimed ``(lower, upper)``."""
    if set(section) != set(KEYS) or not isinstance(section["facts"], list):  # [section-keys]
        raise ctx.fail("self-directed", f"expected a section with exactly the keys {', '.join(KEYS)}, 'facts' a list")
    seen: list[tuple[int, str, int]] = []
    for k, fact in enumerate(section["facts"]):
        where = f"self-directed fact {k}"
        if not isinstance(fact, list) or len(fact) != 4 or fact[1] not in ("ge", "le"):  # [fact-shape]
            raise ctx.fail(where, "expected [space, 'ge' or 'le', value, step]")
        s, kind, value, proof = fact
        V = ctx.space(s, where)
        value = ctx.integer(value, where, 0, ctx.n, "a number of mistakes")  # [fact-shape]
        if proof is None:
            if kind == "le" and ctx.splitting(V):  # [le-zero]
                raise ctx.fail(where, "SD <= b with no step needs a space no instance splits")
            if kind == "ge" and value > (1 if ctx.splitting(V) else 0):  # [ge-floor]
                raise ctx.fail(where, f"SD >= {value} needs a step (null proves 0, or 1 on a space some instance "
                                      "splits)")
        elif kind == "le":
            if not (isinstance(proof, list) and len(proof) == 3):
                raise ctx.fail(where, "expected [instance, fact for label 0, fact for label 1] or null")
            x = ctx.instance(proof[0], where)
            v0 = ctx.earlier(seen, proof[1], "le", ctx.part(V, x, 0), where, "label 0")
            v1 = ctx.earlier(seen, proof[2], "le", ctx.part(V, x, 1), where, "label 1")
            if step(v0, v1) > value:  # [le-step]
                raise ctx.fail(where, f"instance {x}: its parts allow {v0} and {v1}, a step of {step(v0, v1)}, "
                                      f"more than {value}")
        else:
            if not isinstance(proof, list):
                raise ctx.fail(where, "expected a list of [instance, fact for label 0, fact for label 1] or null")
            covered = []
            for entry in proof:
                if not (isinstance(entry, list) and len(entry) == 3):
                    raise ctx.fail(where, f"expected [instance, fact for label 0, fact for label 1], got "
                                          f"{ctx.brief(entry)}")
                x = ctx.instance(entry[0], where)
                g0 = ctx.earlier(seen, entry[1], "ge", ctx.part(V, x, 0), where, f"instance {x} label 0")
                g1 = ctx.earlier(seen, entry[2], "ge", ctx.part(V, x, 1), where, f"instance {x} label 1")
                if step(g0, g1) < value:  # [ge-step]
                    raise ctx.fail(where, f"instance {x}: its parts give at least {g0} and {g1}, a step of "
                                          f"{step(g0, g1)}, less than {value}")
                covered.append(x)
            if sorted(covered) != ctx.splitting(V) or (not covered and value > 0):  # [ge-cover]
                missing = sorted(set(ctx.splitting(V)) - set(covered))
                raise ctx.fail(where, f"instances {missing[:10] or 'not splitting the space, or listed twice,'} "
                                      "not answered exactly once")
        seen.append((s, kind, value))
    lower, upper = ctx.claim(section, "self-directed", seen)
    return lower, upper, {}
