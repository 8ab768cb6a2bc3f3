"""Checking the value of the game for randomized learners with full information (``"value-randomized"``).

The section, its rules, its states and outcomes, the bounds a search stops at and the claim
are described in :mod:`~mistakebound.certificates.positions`.  A randomized learner spreads probabilities ``p`` over the
``k`` labels and pays ``1 - p_y`` when the label is ``y``; the adversary sees ``p``, never the
draw.  At a state ``S`` and an instance ``x``, let ``L`` be the legal labels (those leaving a row;
the labels no row gives ``x`` all lead to one state, and each is a label of its own).  When a
label of ``L`` changes nothing (every row of ``S`` gives it) the learner must give it
probability 1, or the adversary answers it again and again at a gain of ``1 - p_y > 0`` each
time; then the instance is worth ``1 + v(S_y)`` for the best other label of ``L``.  Otherwise it is
worth ``min over p of max over y in L of 1 - p_y + v(S_y)``: the least ``t`` with
``sum over y in L of max(0, 1 + v(S_y) - t) <= 1``, which the learner reaches by filling the
labels of highest value first (for two labels and no noise, the randomized Littlestone
recursion of Filmus, Hanneke, Mehalel and Moran 2023).

A fact is ``[state, "ge" | "le", value, step]``, ``value`` exact and finite (an integer or
``"p/q"``, :mod:`~mistakebound.certificates.context`) ``[fact-shape]``.  By induction on a fact's position, each step
concludes a true fact from the earlier ones:

* ``[S, "ge", a, null]`` with ``a <= 0`` ``[ge-zero]``: a value is never negative.
* ``[S, "ge", a, [x]]``, with ``a_y`` the best earlier ``"ge"`` value on the state after ``y``
  (0 when there is none).  When a legal label changes nothing: ``a <= 1 + a_y`` for some other
  legal ``y``, or ``a <= 0`` ``[ge-forced]`` (a learner giving that label ``1 - δ`` loses ``δ`` a time
  as often as the adversary wants, else ``1 - δ + a_y`` on ``y``: the supremum is at least
  ``1 + a_y``).  Otherwise ``sum over y in L of max(0, 1 + a_y - a) >= 1`` ``[ge-water]``: a
  learner with ``1 - p_y + a_y < a`` for every ``y`` of ``L`` would need ``p_y > 1 + a_y - a`` for
  each, more than its whole probability; so some answer gains at least ``a`` in expectation.
* ``[S, "le", b, [p_0, ..., p_{m-1}]]``: ``b >= 0`` ``[le-nonnegative]``; one distribution for
  every instance (``[le-cover]``, :meth:`.positions.Positions.cover`), each a list of ``k``
  exact numbers ``[le-entry]``, none negative,
  summing to 1 ``[le-distribution]``; a legal label that changes nothing has probability 1
  ``[le-progress]`` (it then costs nothing and leaves a shorter play from ``S`` itself); every
  other legal label ``y`` costs ``1 - p_y`` plus the best earlier ``"le"`` value on its state, which
  must exist ``[child-fact]``, at most ``b`` ``[le-value]``.  The learner that plays these
  distributions (and from each state reached as that state's fact says) pays at most ``b`` in
  expectation, by induction on the length of the play.
* ``[S, "le", b, "potential"]`` and ``[S, "le", b, "binomial"]``: the bounds of :mod:`~mistakebound.certificates.positions`
  (``b >= 0`` too), which a randomized learner meets by playing the deterministic one.
"""

from __future__ import annotations

from fractions import Fraction

if __package__:
    from .positions import Positions
else:  # run as a program: see verify.py
    from positions import Positions  # type: ignore[no-redef]

__all__ = ["check"]


def check(section: dict, ctx, kind: str = "value-randomized") -> tuple[Fraction | None, Fraction | None, dict]:
    """Check every fact of a ``"value-randomized"`` section; the claimed bounds and the rules."""
    game = Positions(section, ctx, kind)

    def value_of(v: object, where: str) -> Fraction:
        return Fraction(ctx.number(v, where))  # [fact-shape]

    for k, fact in enumerate(game.facts):
        side, S, value, step, where = game.fact(k, fact, value_of)
        if side == "ge" and step is None:
            if value > 0:  # [ge-zero]
                raise ctx.fail(where, f"a value of {value} needs a step")
        elif side == "ge":
            if not (isinstance(step, list) and len(step) == 1):
                raise ctx.fail(where, "expected [instance]")
            x = ctx.instance(step[0], where)
            given = ctx.by_label(x)
            labels = [(1, game.after(S, agree)) for agree in given.values()]
            labels.append((game.k - len(given), game.after(S, 0)))  # the labels no row gives x
            legal = [(count, T) for count, T in labels if count and any(T)]
            if any(T == S for _, T in legal):
                best = max((1 + game.child("ge", T, where) for _, T in legal if T != S), default=0)
                if value > best:  # [ge-forced]
                    raise ctx.fail(where, f"a label changes nothing and the others are worth at most {best}, "
                                          f"less than {value}")
            elif sum(count * max(0, 1 + game.child("ge", T, where) - value) for count, T in legal) < 1:  # [ge-water]
                raise ctx.fail(where, f"a learner can keep every label's worth below {value}")
        elif value < 0:  # [le-nonnegative]
            raise ctx.fail(where, "an upper bound must be >= 0")
        else:
            for x, p in enumerate(game.cover(S, value, step, where, "a distribution")):
                at = f"{where} instance {x}"
                if not isinstance(p, list) or len(p) != game.k:  # [le-entry]
                    raise ctx.fail(at, f"expected {game.k} probabilities, one per label")
                p = [Fraction(ctx.number(q, at)) for q in p]
                if min(p) < 0 or sum(p) != 1:  # [le-distribution]
                    raise ctx.fail(at, "expected probabilities >= 0 summing to 1")
                given, nobody = ctx.by_label(x), None
                for y, q in enumerate(p):
                    if y in given:
                        T = game.after(S, given[y])
                    else:
                        nobody = T = nobody or game.after(S, 0)
                    if not any(T):
                        continue  # not a legal label: no row would stay within the budget
                    if T == S and q != 1:  # [le-progress]
                        raise ctx.fail(at, f"label {y} changes nothing and must have probability 1, not {q}")
                    if T != S and 1 - q + game.child("le", T, at) > value:  # [le-value]
                        raise ctx.fail(at, f"label {y} is worth {1 - q + game.child('le', T, at)}, more than {value}")
        game.record(side, S, value)
    return game.claim(section)
