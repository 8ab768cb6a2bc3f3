"""Checking the value of the game for deterministic learners (``"value-full"``, ``"value-bandit"``).

The section, its rules, its states and outcomes, the bounds a search stops at and the claim
are described in :mod:`~mistakebound.certificates.positions`; the two kinds differ in their outcomes alone (the labels
with full information, ``"right"`` and ``"wrong"`` under bandit feedback) and in where the
binomial-weights bound holds.  The recursion (the multiclass Littlestone dimension of
Daniely, Sabato, Ben-David and Shalev-Shwartz 2011 with full information, the bandit one of
Daniely and Helbertal 2013, both with a noise budget ``r``) is

    ``v(S) = max over x of min over ŷ of max over legal outcomes o of [o is a mistake] + v(S_o)``

where an outcome that changes nothing is worth nothing when it is no mistake and without
bound when it is one (:mod:`~mistakebound.certificates.positions`, "No progress").

A fact is ``[state, "ge" | "le", value, step]``, ``value`` an integer ``0..n (r + 1)`` (no value
is larger: the potential bound) ``[fact-shape]``.  By induction on a fact's position, each
step concludes a true fact from the earlier ones:

* ``[S, "ge", 0, null]`` ``[ge-zero]``: a value is never negative.
* ``[S, "ge", a, [x, answers]]``: ``answers`` holds one answer for each of the ``k``
  predictions ``0..k-1`` ``[ge-cover]``, a label (full information) or ``"right"`` /
  ``"wrong"`` (bandit feedback) ``[ge-entry]``, legal ``[ge-legal]``.  An answer that changes
  nothing must be a mistake ``[ge-progress]``: the learner predicted what no row allows, and
  the adversary answers so until the learner predicts otherwise, a mistake each time (so at
  least ``a`` of them, or a prediction of another answer).  Any other answer is worth its
  mistake and the best earlier ``"ge"`` value on the state it leads to, at least ``a``
  ``[ge-value]``.  The adversary shows ``x`` and answers as listed: whatever the learner
  predicts, at least ``a`` mistakes follow.
* ``[S, "le", b, predictions]``: one prediction for every instance ``0..m-1`` (``[le-cover]``, checked
  by :meth:`.positions.Positions.cover`),
  a label ``[le-entry]``; no outcome of a prediction changes nothing and is a mistake
  ``[le-progress]``; every other legal outcome that changes the state is worth its mistake and
  the best earlier ``"le"`` value on its state, which must exist ``[child-fact]``, at most ``b``
  ``[le-value]``.  The learner that predicts as listed (and from each state reached as that
  state's fact says) makes at most ``b`` mistakes, by induction on the length of the play: an
  outcome that changes nothing is no mistake and leaves a shorter play from ``S`` itself.
* ``[S, "le", b, "potential"]`` and ``[S, "le", b, "binomial"]``: the bounds of :mod:`~mistakebound.certificates.positions`.
"""

from __future__ import annotations

if __package__:
    from .positions import Positions
else:  # run as a program: see verify.py
    from positions import Positions  # type: ignore[no-redef]

__all__ = ["check"]


def check(section: dict, ctx, kind: str) -> tuple[int | None, int | None, dict]:
    """Check every fact of a ``"value-full"`` or ``"value-bandit"`` section; the claimed bounds and the rules."""
    game = Positions(section, ctx, kind)
    top = ctx.n * (game.r + 1)

    def value_of(v: object, where: str) -> int:
        return ctx.integer(v, where, 0, top, "a number of mistakes")  # [fact-shape]

    for k, fact in enumerate(game.facts):
        side, S, value, step, where = game.fact(k, fact, value_of)
        if side == "ge" and step is None:
            if value != 0:  # [ge-zero]
                raise ctx.fail(where, f"a value of {value} needs a step")
        elif side == "ge":
            if not (isinstance(step, list) and len(step) == 2 and isinstance(step[1], list)):
                raise ctx.fail(where, "expected [instance, [an answer to each prediction]]")
            x, answers = ctx.instance(step[0], where), step[1]
            if len(answers) != game.k:  # [ge-cover]
                raise ctx.fail(where, f"expected an answer to each of the {game.k} predictions, got {len(answers)}")
            for guess, answer in enumerate(answers):
                mistake, T = game.outcome(S, x, guess, answer, where)
                if T == S:
                    if not mistake:  # [ge-progress]
                        raise ctx.fail(where, f"prediction {guess}: the answer changes nothing and is no mistake")
                    continue  # the learner predicted what no row allows: as many mistakes as wanted
                if mistake + game.child("ge", T, where) < value:  # [ge-value]
                    raise ctx.fail(where, f"prediction {guess}: the answer is worth "
                                          f"{mistake + game.child('ge', T, where)}, less than {value}")
        else:
            for x, guess in enumerate(game.cover(S, value, step, where, "a prediction")):
                guess = ctx.integer(guess, f"{where} instance {x}", 0, game.k - 1, "a label")  # [le-entry]
                for mistake, T in game.outcomes(S, x, guess):
                    if T == S and mistake:  # [le-progress]
                        raise ctx.fail(where, f"instance {x}: predicting {guess}, which no row of the state gives, "
                                              "lets the adversary repeat a mistake without end")
                    if T == S:
                        continue  # no mistake and no change: a shorter play from this state
                    if mistake + game.child("le", T, where) > value:  # [le-value]
                        raise ctx.fail(where, f"instance {x}: an outcome of predicting {guess} is worth "
                                              f"{mistake + game.child('le', T, where)}, more than {value}")
        game.record(side, S, value)
    return game.claim(section)
