"""Checking the value of the game for randomized learners under bandit feedback (``"value-randomized-bandit"``).

The section, its rules, its states and the bounds a search stops at are described in
:mod:`~mistakebound.certificates.positions`.  Each round the adversary shows ``x``; the learner announces a distribution
over the labels; the adversary, who has seen it and every earlier draw but not this one, names
a label ``y``; the learner draws ``ŷ``, pays ``[ŷ != y]`` and learns only whether ``ŷ == y``.  The
state is the learner's (the bandit state of :mod:`~mistakebound.certificates.positions`): a right draw ``y`` leaves the
state after the rows giving ``y`` agree, a wrong draw ``ŷ`` the state after the rows not giving
``ŷ`` agree (a wrong round's label is any label but the draw).  So the step at ``S`` and ``x`` is
the matrix game (Daniely and Helbertal 2013; Filmus, Hanneke, Mehalel and Moran 2024)

    ``A[ŷ][y] = [ŷ != y] + v(S after the outcome of drawing ŷ when the label is y)``

whose rows and columns the checker computes itself, never reading them from the certificate:

* the *rows* (the learner's draws) are the *live* labels, those some row of ``S`` gives ``x``.
  A draw of a label no row gives is wrong whatever the adversary names and changes nothing
  (no row gives it, so no row errs): it is a mistake repeated at will, as :mod:`~mistakebound.certificates.positions`
  says ("No progress").  Without noise a learner loses nothing by never drawing it (its row
  costs ``1 + v(S)`` against every column, at least any live row's entry); with noise it is a
  restriction: the values here are those of the learners that draw live labels only (the
  search's, :mod:`mistakebound.theory.game_values`), and the statement is about them;
* the *columns* (the adversary's labels) are the live labels, and the labels no row gives when
  some row of ``S`` has a mistake to spare (``after(S, nothing)`` keeps a row): naming one, every
  draw is wrong (the *noise column*; the labels of it all have the same entries).  A label
  no row gives with no row to spare leaves no hypothesis within the budget: not legal.
* *no progress*: with two live labels or more every entry moves a row (a right draw ``y``
  moves the rows not giving ``y``, a wrong draw ``ŷ`` those giving ``ŷ``) and leaves one (the rows
  of another live label, or of the draw).  With one live label ``z`` (every row gives it) the
  learner draws ``z``; the adversary naming ``z`` changes nothing and gains nothing, and only the
  noise column (if legal) gains: ``1 + v(after(S, nothing))``.

A fact is ``[state, "ge" | "le", value, step]``, ``value`` exact and finite (an integer or
``"p/q"``, :mod:`~mistakebound.certificates.context`) ``[fact-shape]``; a probability is such a number too.  With ``a_T``
the best earlier ``"ge"`` value on the state ``T`` an entry leads to (0 when there is none) and
``b_T`` the best earlier ``"le"`` one (which must exist ``[child-fact]``), by induction on a
fact's position each step concludes a true fact from the earlier ones:

* ``[S, "ge", a, null]`` with ``a <= 0`` ``[ge-zero]``: a value is never negative.
* ``[S, "ge", a, [x, q]]``: ``q`` is the adversary's mixed strategy, ``k`` exact numbers (one per
  label: a label no row gives stands for the noise column) ``[entry]``, none negative,
  summing to 1 ``[distribution]``, none positive on a label that is not a legal column
  ``[ge-legal]``.  For every row ``ŷ`` (every live label: the checker's own list, so no row is
  hidden) ``sum over y of q_y ([ŷ != y] + a_T) >= a`` ``[ge-value]``, where the entry that changes
  nothing (one live label, named) counts 0.  The adversary shows ``x``, names ``y`` with
  probability ``q_y`` and then plays as the child facts say: whatever the learner's
  distribution over the live labels, it pays at least ``a`` in expectation (linear in the
  learner's distribution, so the rows suffice; after the entry that changes nothing the
  adversary goes on from ``S`` and gains at least 0 more).
* ``[S, "le", b, [p_0, ..., p_{m-1}]]``: ``b >= 0`` ``[le-nonnegative]``; one distribution of the
  learner for every instance (``[le-cover]``, :meth:`.positions.Positions.cover`), each a list of
  ``k`` exact numbers ``[entry]``, none negative, summing to 1 ``[distribution]``, none
  positive on a label no row gives ``[le-live]``.  For every legal column ``y`` (every live label
  and, when legal, every label no row gives: the checker's own list, so no column is hidden)
  ``sum over ŷ of p_ŷ ([ŷ != y] + b_T) <= b`` ``[le-value]``, except the column that changes
  nothing: one live label ``z``, which the learner then draws with probability 1, named ``z``
  (no mistake, the state unchanged: a shorter play from ``S``).  The learner that plays these
  distributions (and from each state reached as that state's fact says) pays at most ``b`` in
  expectation against every adversary, by induction on the length of the play.
* ``[S, "le", b, "potential"]`` (``b >= 0`` too): the potential bound of :mod:`~mistakebound.certificates.positions`.  Its
  learner is deterministic and predicts the label of a row of the lowest level, a live label; a
  randomized learner may play it (probability 1 on that label), so the bound holds for the
  randomized value, which is no more than the deterministic one.  ``"binomial"`` with two labels
  alone ``[binomial-applies]``: then a wrong draw names the label and the game is the
  full-information one, and the binomial learner predicts a live label (when every row gives
  ``y``, the state after the other label has the lower weight, so ``y`` may be its prediction).
"""

from __future__ import annotations

from fractions import Fraction

if __package__:
    from .positions import Positions
else:  # run as a program: see verify.py
    from positions import Positions  # type: ignore[no-redef]

__all__ = ["check"]


def check(section: dict, ctx, kind: str = "value-randomized-bandit") -> tuple[Fraction | None, Fraction | None, dict]:
    """Check every fact of a ``"value-randomized-bandit"`` section; the claimed bounds and the rules."""
    game = Positions(section, ctx, kind)

    def value_of(v: object, where: str) -> Fraction:
        return Fraction(ctx.number(v, where))  # [fact-shape]

    for k, fact in enumerate(game.facts):
        side, S, value, step, where = game.fact(k, fact, value_of)
        if side == "ge" and step is None:
            if value > 0:  # [ge-zero]
                raise ctx.fail(where, f"a value of {value} needs a step")
            game.record(side, S, value)
            continue
        if side == "le" and value < 0:  # [le-nonnegative]
            raise ctx.fail(where, "an upper bound must be >= 0")
        if side == "ge":
            if not (isinstance(step, list) and len(step) == 2):
                raise ctx.fail(where, "expected [instance, the adversary's probability of each label]")
            steps = [(ctx.instance(step[0], where), step[1], where)]
        else:
            steps = [(x, p, f"{where} instance {x}")
                     for x, p in enumerate(game.cover(S, value, step, where, "a distribution"))]
        for x, mix, at in steps:
            given = ctx.by_label(x)
            live = [y for y in range(game.k) if any(level & given.get(y, 0) for level in S)]
            noisy = any(game.after(S, 0))  # a row has a mistake to spare: a label no row gives is a legal column
            columns = [y for y in range(game.k) if y in live or noisy]

            def entry(guess: int, y: int, child: str):
                """``[guess != y]`` plus the child's value, or None when the entry changes nothing."""
                agree = given.get(y, 0) if guess == y else ctx.full ^ given.get(guess, 0)
                T = game.after(S, agree)
                return None if T == S else int(guess != y) + game.child(child, T, at)

            if side == "ge":
                q = ctx.distribution(mix, game.k, at, "label")
                for y, qy in enumerate(q):
                    if qy and y not in columns:  # [ge-legal]
                        raise ctx.fail(at, f"label {y}: no row gives it and none has a mistake to spare, so it "
                                           f"leaves no row; it must have probability 0, not {qy}")
                for guess in live:
                    worth = sum(qy * (entry(guess, y, "ge") or 0) for y, qy in enumerate(q) if qy)
                    if worth < value:  # [ge-value]
                        raise ctx.fail(at, f"the learner drawing {guess} pays {worth}, less than {value}")
            else:
                p = ctx.distribution(mix, game.k, at, "label")
                for guess, pg in enumerate(p):
                    if pg and guess not in live:  # [le-live]
                        raise ctx.fail(at, f"label {guess}: no row gives it, so drawing it is a mistake that "
                                           f"changes nothing; it must have probability 0, not {pg}")
                for y in columns:
                    if live == [y]:
                        continue  # every row gives y, drawn with probability 1: naming it changes nothing
                    worth = sum(pg * entry(guess, y, "le") for guess, pg in enumerate(p) if pg)
                    if worth > value:  # [le-value]
                        raise ctx.fail(at, f"the adversary naming {y} gains {worth}, more than {value}")
        game.record(side, S, value)
    return game.claim(section)
