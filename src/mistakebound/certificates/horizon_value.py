"""Checking the value of a game of a few rounds for randomized learners (``"value-horizon"``).

The game
--------
``T`` rounds (the *horizon*).  Each round the adversary shows an instance ``x`` and names a
label ``y``; the learner, who has seen ``x`` but not ``y``, draws a label ``ŷ`` and pays
``[ŷ != y]``; then it is shown ``y`` (full information) or only whether ``ŷ == y`` (bandit
feedback).  The adversary's labels must agree with some row of the class on all but at most
``r`` of the rounds so far: a label after which no row is left within the budget is not
*legal*.  The adversary is *oblivious* (it sees nothing of the learner: its moves depend on
its own earlier instances and labels) or *adaptive* (it also sees the learner's earlier
draws, not the current one), and it is held to the labels it names.  The value is the least
expected number of mistakes a randomized learner can guarantee against every such
adversary.  Both players remember all they saw, so the game has perfect recall and is
written in sequence form (Koller, Megiddo and von Stengel 1994).

The section
-----------
::

    {"result": "value-horizon",
     "rules": {"labels": k, "feedback": "full" | "bandit", "noise": r, "adaptive": b, "randomized": true},
     "horizon": T,
     "learner": [[key, [p_0, ..., p_{k-1}]], ...],
     "adversary": [[key, [q_0, ...]], ...],
     "claim": {"lower": a, "upper": b}}

exactly these keys ``[section-keys]``; the rules exactly those keys, ``k`` an integer
``2..MAX_RULES_LABELS``, ``r`` an integer ``0..MAX_NOISE``, ``adaptive`` a boolean and
``randomized`` true ``[rules]``, and no row giving a label ``>= k`` ``[rules-labels]``; ``T`` an
integer ``0..MAX_HORIZON`` ``[horizon]``.

The checker builds the game itself from the class and the rules and never reads a move of
it from the certificate.  It walks the tree depth first, instances, labels and draws each in
increasing order, having first counted its nodes (one per draw) without building it: more than
:data:`MAX_NODES` is refused ``[tree-size]``.  A player's *information set* is what it knows when it moves, named
by a *key*, a list of integers:

* the learner's, before drawing at round ``t``: ``[x_1, ŷ_1, f_1, ..., x_{t-1}, ŷ_{t-1}, f_{t-1}, x_t]``,
  where ``f`` is the label shown (full information) or 1 for a right draw and 0 for a wrong one
  (bandit feedback);
* the adversary's, before showing an instance: its history ``[x_1, y_1, ..., x_{t-1}, y_{t-1}]``
  (oblivious) or ``[x_1, y_1, ŷ_1, ...]`` (adaptive); before naming a label, the same with
  ``x_t`` after it.  A key's length tells the two apart.

A strategy is a list of ``[key, distribution]`` ``[strategy-shape]``: each key the key of an
information set of that player in the game ``[strategy-key]``, at most once ``[strategy-once]``;
the distribution exact numbers (an integer or ``"p/q"``, :mod:`~mistakebound.certificates.context`), one per move
(``k`` labels for a draw or a label, the ``m`` instances for an instance) ``[entry]``, none
negative and summing to 1 ``[distribution]``, and positive on no label that is not legal
``[legal]``.  An information set the player's own strategy reaches with positive probability
must be listed ``[cover]``; one it never reaches may be left out (what it does there changes
nothing).

What is verified
----------------
The checker computes each strategy's *realization plan*: the probability that the player's
own moves follow each of its sequences of moves (the product of its probabilities along the
sequence).  The expected mistakes of a play of two plans is ``sum over mistakes (u, s) of
plan_L(u) plan_A(s)``, over the pairs of a learner's sequence ``u`` and an adversary's ``s``
that together end in a round where the draw differs from the label; it is linear in each
plan, so each player's best answer to the other's plan is a pure strategy, found by backward
induction over its information sets (children before parents: with perfect recall each
information set follows one sequence of its player's).  Then

* ``upper`` = what the adversary's best answer to the learner's plan gets: the learner's
  strategy pays at most that against every adversary, so the value is at most ``upper``;
* ``lower`` = what the learner's best answer to the adversary's plan pays: the adversary's
  strategy gets at least that from every learner, so the value is at least ``lower``.

All in exact fractions.  The claim ``{"lower": a, "upper": b}`` holds two exact numbers with
``a <= lower`` ``[claim-lower]`` and ``b >= upper`` ``[claim-upper]``.
"""

from __future__ import annotations

from fractions import Fraction

if __package__:
    from .positions import MAX_NOISE, MAX_RULES_LABELS, advance
else:  # run as a program: see verify.py
    from positions import MAX_NOISE, MAX_RULES_LABELS, advance  # type: ignore[no-redef]

__all__ = ["KEYS", "MAX_HORIZON", "MAX_NODES", "RULES_KEYS", "check"]

#: The keys of a section, all required; and of its rules.
KEYS = ("result", "rules", "horizon", "learner", "adversary", "claim")
RULES_KEYS = ("labels", "feedback", "noise", "adaptive", "randomized")
#: The longest horizon a section may name, and the most nodes of a game tree the checker builds.
MAX_HORIZON = 64
MAX_NODES = 500_000


class _Player:
    """One player's information sets (by key) and sequences; sequence 0 is the empty one."""

    def __init__(self):
        self.index: dict[tuple, int] = {}
        self.keys: list[tuple] = []
        self.parent: list[int] = []  # per information set: the sequence it follows
        self.moves: list[dict[int, int]] = []  # per information set: move -> sequence
        self.size: list[int] = []  # per information set: how many moves a distribution there lists
        self.n_sequences = 1

    def sequence(self, key: tuple, parent: int, move: int, size: int) -> int:
        i = self.index.get(key)
        if i is None:
            i = self.index[key] = len(self.keys)
            self.keys.append(key)
            self.parent.append(parent)
            self.moves.append({})
            self.size.append(size)
        s = self.moves[i].get(move)
        if s is None:
            s = self.moves[i][move] = self.n_sequences
            self.n_sequences += 1
        return s

    def best(self, gains: list, pick) -> Fraction:
        """What the best pure strategy gets when sequence ``s`` alone earns ``gains[s]`` (``pick``: max or min)."""
        below = [Fraction(0)] * self.n_sequences
        for i in range(len(self.keys) - 1, -1, -1):  # children were created after their parents
            below[self.parent[i]] += pick(gains[s] + below[s] for s in self.moves[i].values())
        return gains[0] + below[0]


class _Game:
    """The sequence form of the ``T``-round game of the class under the section's rules."""

    def __init__(self, ctx, k: int, r: int, bandit: bool, adaptive: bool, horizon: int, where: str):
        self.ctx, self.k, self.r, self.bandit, self.adaptive, self.where = ctx, k, r, bandit, adaptive, where
        self.learner, self.adversary = _Player(), _Player()
        self.mistakes: list[tuple[int, int]] = []  # (learner's sequence, adversary's sequence)
        self.columns = [ctx.by_label(x) for x in range(ctx.m)]
        root = (ctx.full,) + (0,) * r
        nodes = self.count(horizon, root, {})
        if nodes > MAX_NODES:  # [tree-size]
            raise ctx.fail(where, f"the game tree of {horizon} rounds has more than {MAX_NODES} nodes")
        self.grow(horizon, root, (), (), 0, 0)

    def legal(self, levels: tuple) -> list[tuple[int, int, tuple]]:
        """``(x, y, levels after)`` of every instance and legal label."""
        full = self.ctx.full
        return [(x, y, after) for x in range(self.ctx.m) for y in range(self.k)
                for after in [advance(levels, self.columns[x].get(y, 0), full)] if any(after)]

    def count(self, left: int, levels: tuple, memo: dict) -> int:
        """The nodes (draws) of the tree below, counted without building it and no further than past the limit."""
        if left == 0:
            return 0
        known = memo.get((left, levels))
        if known is None:
            known = 0
            for _, _, after in self.legal(levels):
                known += self.k * (1 + self.count(left - 1, after, memo))
                if known > MAX_NODES:
                    break
            memo[left, levels] = known
        return known

    def grow(self, left: int, levels: tuple, seen: tuple, known: tuple, mine: int, theirs: int) -> None:
        if left == 0:
            return
        ctx, L, A = self.ctx, self.learner, self.adversary
        for x, y, after in self.legal(levels):  # a label after which no row is within the budget is not legal
            ax = A.sequence(known, theirs, x, ctx.m)
            ay = A.sequence(known + (x,), ax, y, self.k)
            for guess in range(self.k):
                u = L.sequence(seen + (x,), mine, guess, self.k)
                if guess != y:
                    self.mistakes.append((u, ay))
                shown = int(guess == y) if self.bandit else y
                self.grow(left - 1, after, seen + (x, guess, shown),
                          known + ((x, y, guess) if self.adaptive else (x, y)), u, ay)

    def plan(self, player: _Player, strategy: object, name: str) -> list:
        """The realization plan of the listed strategy of ``player``, every entry checked."""
        ctx, where = self.ctx, f"{self.where} {name}"
        if not isinstance(strategy, list):  # [strategy-shape]
            raise ctx.fail(where, "expected a list of [key, distribution]")
        given: dict[int, list] = {}
        for j, entry in enumerate(strategy):
            at = f"{where} {j}"
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], list)
                    and all(type(v) is int for v in entry[0])):  # [strategy-shape]
                raise ctx.fail(at, "expected [key, distribution], the key a list of integers")
            i = player.index.get(tuple(entry[0]))
            if i is None:  # [strategy-key]
                raise ctx.fail(at, f"the key {ctx.brief(entry[0])} names no information set of the {name} in the game")
            if i in given:  # [strategy-once]
                raise ctx.fail(at, f"a second distribution for the key {ctx.brief(entry[0])}")
            given[i] = self.distribution(player, i, entry[1], at)
        plan = [Fraction(0)] * player.n_sequences
        plan[0] = Fraction(1)
        for i, moves in enumerate(player.moves):  # parents before children
            weight = plan[player.parent[i]]
            if i not in given:
                if weight:  # [cover]
                    raise ctx.fail(where, f"no distribution for the key {ctx.brief(list(player.keys[i]))}, which "
                                          "the strategy reaches")
                continue
            for move, s in moves.items():
                plan[s] = weight * given[i][move]
        return plan

    def distribution(self, player: _Player, i: int, value: object, where: str) -> list:
        ctx = self.ctx
        p = ctx.distribution(value, player.size[i], where)
        for move, q in enumerate(p):
            if q and move not in player.moves[i]:  # [legal]
                raise ctx.fail(where, f"label {move} is not legal there (no row within the budget gives the labels "
                                      f"so far and it); it must have probability 0, not {q}")
        return p


def check(section: dict, ctx, kind: str = "value-horizon") -> tuple[Fraction, Fraction, dict]:
    """Check a ``"value-horizon"`` section; the claimed bounds, the rules and the horizon."""
    if not isinstance(section, dict) or set(section) != set(KEYS):  # [section-keys]
        raise ctx.fail(kind, f"expected a section with exactly the keys {', '.join(KEYS)}")
    rules = section["rules"]
    if not (isinstance(rules, dict) and set(rules) == set(RULES_KEYS) and rules["feedback"] in ("full", "bandit")
            and type(rules["adaptive"]) is bool and rules["randomized"] is True):  # [rules]
        raise ctx.fail(f"{kind} rules", "expected {'labels': k, 'feedback': 'full' or 'bandit', 'noise': r, "
                                        f"'adaptive': true or false, 'randomized': true}}, got {ctx.brief(rules)}")
    k = ctx.integer(rules["labels"], f"{kind} rules", 2, MAX_RULES_LABELS, "the number of labels")  # [rules]
    r = ctx.integer(rules["noise"], f"{kind} rules", 0, MAX_NOISE, "the noise budget")  # [rules]
    if ctx.labels > k:  # [rules-labels]
        raise ctx.fail(f"{kind} rules", f"the class gives {ctx.labels} labels, more than the {k} of the rules")
    horizon = ctx.integer(section["horizon"], f"{kind} horizon", 0, MAX_HORIZON, "the number of rounds")  # [horizon]
    game = _Game(ctx, k, r, rules["feedback"] == "bandit", rules["adaptive"] is True, horizon, kind)
    learner = game.plan(game.learner, section["learner"], "learner")
    adversary = game.plan(game.adversary, section["adversary"], "adversary")
    against_learner = [Fraction(0)] * game.adversary.n_sequences
    against_adversary = [Fraction(0)] * game.learner.n_sequences
    for u, s in game.mistakes:
        against_learner[s] += learner[u]
        against_adversary[u] += adversary[s]
    upper = game.adversary.best(against_learner, max)
    lower = game.learner.best(against_adversary, min)
    claim = section["claim"]
    if not (isinstance(claim, dict) and set(claim) == {"lower", "upper"}):  # [claim-shape]
        raise ctx.fail(f"{kind} claim", "expected {'lower': a, 'upper': b}")
    a = Fraction(ctx.number(claim["lower"], f"{kind} claim lower"))
    b = Fraction(ctx.number(claim["upper"], f"{kind} claim upper"))
    if a > lower:  # [claim-lower]
        raise ctx.fail(f"{kind} claim lower", f"the learner's best answer to the adversary's strategy pays {lower}, "
                                              f"less than {a}")
    if b < upper:  # [claim-upper]
        raise ctx.fail(f"{kind} claim upper", f"the adversary's best answer to the learner's strategy gets {upper}, "
                                              f"more than {b}")
    stated = {"labels": k, "feedback": rules["feedback"], "noise": r, "adaptive": rules["adaptive"],
              "randomized": True}
    return a, b, {"rules": stated, "horizon": horizon}
