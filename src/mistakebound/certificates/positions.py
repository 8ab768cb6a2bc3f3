"""The positions of the game under other rules, shared by the kinds of :mod:`~mistakebound.certificates.game_value`, :mod:`~mistakebound.certificates.randomized_value` and
:mod:`~mistakebound.certificates.randomized_bandit_value`.

A section of one of those kinds (``"value-full"``, ``"value-bandit"``, ``"value-randomized"``,
``"value-randomized-bandit"``)
has exactly the keys ``[section-keys]``::

    {"result": kind, "rules": {"labels": k, "feedback": "full" | "bandit", "noise": r, "randomized": b},
     "facts": [[state, "ge" | "le", value, step], ...],
     "claim": {"lower": [fact, value], "upper": [fact, value]}}

The rules
---------
``rules`` has exactly those four keys: ``k`` an integer ``2..MAX_RULES_LABELS``, ``r`` an integer
``0..MAX_NOISE``, the feedback and ``randomized`` the ones the kind is about (``"value-full"``:
full information, deterministic; ``"value-bandit"``: bandit feedback, deterministic;
``"value-randomized"``: full information, randomized; ``"value-randomized-bandit"``: bandit
feedback, randomized) ``[rules]``, and no row of the class
gives a label ``>= k`` ``[rules-labels]`` (a class of two labels is a table of labels 0 and 1
under any ``k``).  The statement names them.

The game
--------
The adversary shows an instance ``x``; the learner predicts a label ``ŷ`` (a randomized learner:
probabilities ``p`` over the labels); the adversary answers, and the learner is shown the label
``y`` (full information) or only whether ``ŷ`` was right (bandit feedback), and pays a mistake
(``1 - p_y`` when randomized) when ``y != ŷ``.  The adversary's labels must agree with some
hypothesis of the class on all but at most ``r`` rounds.  The *value* of a position is the
infimum over learners of the supremum over adversaries of the mistakes still to come (the
expected mistakes of a randomized learner).

A position is a *state*: for every row still within the budget, the fewest mistakes it can
have made given what the learner was shown.  A state is written as a list of ``r + 1`` sets
of rows (bitsets over the class's rows, in the grammar of the class's rows: lower-case
hexadecimal without leading zeros, ``"0"`` for none, below ``2^n``), set ``j`` holding the rows
with ``j`` mistakes; the sets are disjoint and not all empty ``[state-shape]``.  The root is every
row with no mistake.  An *outcome* of a prediction at ``x`` moves the state to
:meth:`Positions.after` the rows that made no mistake (``agree``): each other row goes up a
level, out of the state past ``r``.  With full information the outcomes are the labels ``y``
(``agree``: the rows giving ``x`` the label ``y``); under bandit feedback ``"right"`` (the rows
giving ``ŷ``) and ``"wrong"`` (the rows not giving it: the label is another one, which a row
giving ``ŷ`` did not give).  An outcome is *legal* when it leaves a row: otherwise no hypothesis
stays within the budget.

The checker never reads a child state from the certificate: it computes each outcome's state
itself and finds there the best earlier fact of the kind it needs (the largest ``"ge"`` value,
the smallest ``"le"`` one) ``[child-fact]``; by induction on a fact's position every earlier
fact is true.  A ``"ge"`` step may find none: then it uses 0, as a value is never negative.

*No progress.*  An outcome whose state is the state it left changes nothing: every row of the
state gave the label the adversary answered.  When it is no mistake (the learner predicted
that label) the adversary gains nothing by it; when it is a mistake the learner predicted a
label that no row of the state allows, and the adversary may answer so again and again: such
a prediction lets the adversary force as many mistakes as it wants, and a learner never needs
it (the label the rows give makes the outcome a no-op).  Each kind says what it demands there.

The bounds a search stops at
----------------------------
``[state, "le", b, "potential"]``: ``b >= Φ(S) - 1`` ``[potential]``, where ``Φ(S)`` is the sum
over the distinct rows of each level ``j`` of ``r + 1 - j``.  Rows equal in all their labels
behave alike (they agree and disagree together), so counting each distinct row once per level
counts no fewer than a state of one copy each, whose value is the same.  The learner that
predicts the label of a row of the lowest level costs that row a mistake (up a level, or out)
whenever it errs, with either feedback, and no row ever comes down: ``Φ`` falls by at least one
at each mistake and stays at least one while a row is left, so at most ``Φ(S) - 1`` mistakes.

``[state, "le", b, "binomial"]``: either ``b >= Φ(S) - 1`` (the potential bound gives it), or,
with full information or ``k = 2`` (where a wrong guess names the label) ``[binomial-applies]``,
``2^q > W_q(S)`` for ``q = floor(b) + 1`` ``[binomial]``, where
``W_q(S)`` is the sum over the distinct rows of ``w_q(budget) = sum over i <= budget of
C(q, i) (k - 1)^i``, the budget of a row at level ``j`` being ``r - j``; computed in integers.
This is the binomial-weights bound (Cesa-Bianchi, Freund, Helmbold, Haussler, Schapire and
Warmuth 1997, for ``k`` labels): ``W_q(S) < 2^q`` implies ``v(S) <= q - 1``.  By induction on
``q`` and the potential: at ``x``, the state ``T_y`` after label ``y`` keeps each row's budget
where it gives ``y`` and lowers it by one for the ``k - 1`` other labels, and Pascal's rule
``w_q(b) = w_{q-1}(b) + (k - 1) w_{q-1}(b - 1)`` (``w(-1) = 0``: the row is out) gives
``sum over y of W_{q-1}(T_y) = W_q(S) < 2^q``.  So at most one label ``y`` has
``W_{q-1}(T_y) >= 2^{q-1}``; the learner predicts it (any label when none has).  A mistake
leaves a state with ``W_{q-1} < 2^{q-1}``, worth at most ``q - 2`` by induction, so the mistake
costs at most ``q - 1``; no mistake leaves a state with ``W_q <= W_q(S) < 2^q`` (budgets only
fall), of smaller potential or the same state (a no-op), worth at most ``q - 1``.  There is no
``q = 0`` case: ``W_0(S)`` counts the rows, at least 1.  Both bounds hold for randomized
learners too, which can play the deterministic learners they name.

The claim's ``lower`` / ``upper`` name a ``"ge"`` / ``"le"`` fact at the root and state its value
``[claim-root]`` (checked by :meth:`.context.Context.claim`).
"""

from __future__ import annotations

import math
import re

__all__ = ["KEYS", "MAX_NOISE", "MAX_RULES_LABELS", "Positions", "RULES_KEYS", "advance"]

#: The keys of a section of the game's value, all required.
KEYS = ("result", "rules", "facts", "claim")
#: The keys of its rules, all required.
RULES_KEYS = ("labels", "feedback", "noise", "randomized")
#: The most labels, and the largest noise budget, a section's rules may name.
MAX_RULES_LABELS = 1 << 20
MAX_NOISE = 1 << 16
#: Per kind, the feedback and the learners it is about.
KINDS = {"value-full": ("full", False), "value-bandit": ("bandit", False), "value-randomized": ("full", True),
         "value-randomized-bandit": ("bandit", True)}

_HEX = re.compile(r"0|[1-9a-f][0-9a-f]*")


def advance(S: tuple[int, ...], agree: int, full: int) -> tuple[int, ...]:
    """The levels ``S`` once the rows of ``agree`` made no mistake and the others of ``full`` one more (out past the
    last level)."""
    disagree = full ^ agree
    return tuple((S[j] & agree) | (S[j - 1] & disagree if j else 0) for j in range(len(S)))


class Positions:
    """The rules of one section, read and checked, and the positions of its game (see the module docstring)."""

    def __init__(self, section: object, ctx, kind: str):
        self.ctx, self.kind = ctx, kind
        if (not isinstance(section, dict) or set(section) != set(KEYS)
                or not isinstance(section["facts"], list)):  # [section-keys]
            raise ctx.fail(kind, f"expected a section with exactly the keys {', '.join(KEYS)}, 'facts' a list")
        rules = section["rules"]
        feedback, randomized = KINDS[kind]
        if not (isinstance(rules, dict) and set(rules) == set(RULES_KEYS) and rules["feedback"] == feedback
                and rules["randomized"] is randomized):  # [rules]
            raise ctx.fail(f"{kind} rules", f"expected {{'labels': k, 'feedback': {feedback!r}, 'noise': r, "
                                            f"'randomized': {str(randomized).lower()}}}, got {ctx.brief(rules)}")
        self.k = ctx.integer(rules["labels"], f"{kind} rules", 2, MAX_RULES_LABELS, "the number of labels")  # [rules]
        self.r = ctx.integer(rules["noise"], f"{kind} rules", 0, MAX_NOISE, "the noise budget")  # [rules]
        if ctx.labels > self.k:  # [rules-labels]
            raise ctx.fail(f"{kind} rules", f"the class gives {ctx.labels} labels, more than the {self.k} of the rules")
        self.bandit, self.randomized = feedback == "bandit", randomized
        self.rules = {"labels": self.k, "feedback": feedback, "noise": self.r, "randomized": randomized}
        self.root = (ctx.full,) + (0,) * self.r
        self.facts = section["facts"]
        self.best: dict[str, dict[tuple, object]] = {"ge": {}, "le": {}}
        self.seen: list[tuple] = []

    # ------------------------------------------------------------------ states
    def state(self, value: object, where: str) -> tuple[int, ...]:
        """A state as written in a fact, checked: ``r + 1`` disjoint sets of rows, not all empty."""
        ctx, digits = self.ctx, max(1, -(-self.ctx.n // 4))
        if not (isinstance(value, list) and len(value) == self.r + 1
                and all(isinstance(t, str) and len(t) <= digits and _HEX.fullmatch(t) for t in value)):  # [state-shape]
            raise ctx.fail(where, f"expected a state: {self.r + 1} sets of rows in lower-case hexadecimal")
        levels = tuple(int(t, 16) for t in value)
        union = 0
        for level in levels:
            if level >> ctx.n or level & union:  # [state-shape]
                raise ctx.fail(where, "a state's sets must be disjoint sets of the class's rows")
            union |= level
        if not union:  # [state-shape]
            raise ctx.fail(where, "a state must hold a row")
        return levels

    def after(self, S: tuple[int, ...], agree: int) -> tuple[int, ...]:
        """The state once the rows of ``agree`` made no mistake and the others one more (out past ``r``)."""
        return advance(S, agree, self.ctx.full)

    def outcomes(self, S: tuple[int, ...], x: int, guess: int) -> list[tuple[bool, tuple[int, ...]]]:
        """``(mistake, state after)`` for every legal outcome of predicting ``guess`` at ``x`` (deterministic).

        With full information the labels no row gives ``x`` all lead to one state (every row
        disagrees): it is listed once as a mistake (when such a label other than ``guess``
        exists) and once as no mistake (when ``guess`` is one of them)."""
        given = self.ctx.by_label(x)
        if self.bandit:
            agree = given.get(guess, 0)
            found = [(False, self.after(S, agree)), (True, self.after(S, self.ctx.full ^ agree))]
        else:
            found = [(y != guess, self.after(S, agree)) for y, agree in given.items()]
            others = self.k - len(given)
            if others:
                T = self.after(S, 0)
                if guess in given or others >= 2:
                    found.append((True, T))
                if guess not in given:
                    found.append((False, T))
        return [(mistake, T) for mistake, T in found if any(T)]

    def outcome(self, S: tuple[int, ...], x: int, guess: int, answer: object, where: str) -> tuple[bool, tuple]:
        """``(mistake, state after)`` of the adversary's ``answer`` to ``guess`` at ``x``, which must be legal."""
        ctx = self.ctx
        if self.bandit:
            if answer not in ("right", "wrong"):  # [ge-entry]
                raise ctx.fail(where, f"prediction {guess}: expected the answer 'right' or 'wrong', "
                                      f"got {ctx.brief(answer)}")
            agree, right = ctx.by_label(x).get(guess, 0), answer == "right"
            mistake, T = not right, self.after(S, agree if right else ctx.full ^ agree)
        else:
            y = ctx.integer(answer, f"{where} prediction {guess}", 0, self.k - 1, "a label")  # [ge-entry]
            mistake, T = y != guess, self.after(S, ctx.by_label(x).get(y, 0))
        if not any(T):  # [ge-legal]
            raise ctx.fail(where, f"prediction {guess}: the answer {ctx.brief(answer)} leaves no row within the budget")
        return mistake, T

    def child(self, kind: str, T: tuple[int, ...], where: str):
        """The best earlier ``kind`` fact's value on the state ``T`` (0 for a missing ``"ge"`` fact)."""
        known = self.best[kind].get(T)
        if known is None and kind == "le":  # [child-fact]
            raise self.ctx.fail(where, f"no earlier 'le' fact on the state after an outcome "
                                       f"({', '.join(format(t, 'x')[:20] for t in T)})")
        return 0 if known is None else known

    # ------------------------------------------------------------------ bounds
    def counts(self, S: tuple[int, ...]) -> list[int]:
        """The number of distinct rows at each level of ``S``."""
        return [len({self.ctx.text_rows[i] for i in self.ctx.members(level)}) for level in S]

    def bound(self, S: tuple[int, ...], b, step: str, where: str) -> None:
        """Check ``v(S) <= b`` by the potential or the binomial-weights bound (``step``)."""
        ctx, counts = self.ctx, self.counts(S)
        potential = sum(c * (self.r + 1 - j) for j, c in enumerate(counts))
        if step == "potential":
            if potential - 1 > b:  # [potential]
                raise ctx.fail(where, f"the potential of the state is {potential}: it bounds the value by "
                                      f"{potential - 1}, not {b}")
            return
        if potential - 1 <= b:
            return  # the potential gives it already (so the binomial check below never meets a q past the potential)
        if self.bandit and self.k > 2:  # [binomial-applies]
            raise ctx.fail(where, "the binomial-weights bound holds with full information or two labels")
        q = max(math.floor(b), -1) + 1  # v <= floor(b) <= b; a negative b gives q = 0, never enough
        limit = 1 << q
        prefix, term, total = [], 1, 0  # prefix[i]: sum over i' <= i of C(q, i') (k - 1)^i'
        for i in range(min(self.r, q) + 1):
            total += term
            prefix.append(total)
            if total >= limit:
                break  # one row of this budget is already too many
            term = term * (q - i) // (i + 1) * (self.k - 1)
        weight = sum(c * prefix[min(self.r - j, len(prefix) - 1)] for j, c in enumerate(counts) if c)
        if weight >= limit:  # [binomial]
            raise ctx.fail(where, f"2^{q} is not more than the binomial weights {weight} of the state")

    def cover(self, S: tuple[int, ...], b, step: object, where: str, what: str) -> list:
        """The entries of an ``"le"`` step, one per instance ``[le-cover]``; none for a bound, checked here instead."""
        if step in ("potential", "binomial"):
            self.bound(S, b, step, where)
            return []
        if not isinstance(step, list) or len(step) != self.ctx.m:  # [le-cover]
            raise self.ctx.fail(where, f"expected {what} for each of the {self.ctx.m} instances, 'potential' or "
                                       "'binomial'")
        return step

    # ------------------------------------------------------------------ facts
    def fact(self, k: int, fact: object, value_of) -> tuple[str, tuple[int, ...], object, object, str]:
        """``(kind, state, value, step, where)`` of fact ``k``; ``value_of(value, where)`` reads its value."""
        where = f"{self.kind} fact {k}"
        if not isinstance(fact, list) or len(fact) != 4 or fact[1] not in ("ge", "le"):  # [fact-shape]
            raise self.ctx.fail(where, "expected [state, 'ge' or 'le', value, step]")
        S = self.state(fact[0], where)
        return fact[1], S, value_of(fact[2], where), fact[3], where

    def record(self, kind: str, S: tuple[int, ...], value) -> None:
        """Keep a checked fact: the best value per state and kind, and the fact's place for the claim."""
        best = self.best[kind]
        if S not in best or (value > best[S] if kind == "ge" else value < best[S]):
            best[S] = value
        self.seen.append((S, kind, value))

    def claim(self, section: dict) -> tuple[object, object, dict]:
        """The claimed ``(lower, upper)`` at the root, and the rules they are of."""
        lower, upper = self.ctx.claim(section, self.kind, self.seen, lambda S: S == self.root,
                                      "at the root (every row, no mistake)")
        return lower, upper, {"rules": self.rules}
