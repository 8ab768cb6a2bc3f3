"""False certificates of the game's value under other rules: for each kind of step, the smallest lie it could carry.

The campaign of :mod:`tests.certificate_lies` calls :func:`game_documents` for each of its
classes.  The honest facts are built here by a plain recursion over the game's states (every
row of the table kept, no pruning, no bounds), written from the definitions of
:mod:`mistakebound.certificates.positions` and sharing no code with the checker or the
package's search; the campaign's judge finds a lie false with the brute force of
:mod:`tests.game_oracle`, which shares nothing with either.  Each lie departs from an honest
certificate in one step, the step its kind names (``"value-full.ge"``, ``"value-bandit.rules"``,
...); ``"grammar"`` documents leave the grammar of the section, and ``"honest"`` ones must be
accepted.

The randomized learner's value under bandit feedback (``"value-randomized-bandit"``) is a matrix
game at each step, whose optimal strategies the plain recursion does not give: its honest
certificates are the package's writer's (:func:`~mistakebound.theory.game_certificate.game_certificate`),
each checked honest by the campaign, and its lies depart from them in one step (:func:`bandit_lies`);
the judge is still the brute force of :mod:`tests.game_oracle`.

Besides the campaign's class (0/1 entries), the lies use two tables derived from it: its first
row alone (one hypothesis: the adversary's only weapon is its noise, and every instance is a
no-op for some label) and a table of three labels (its entries plus those of a rotated column).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from mistakebound.certificates.context import class_hash, label_width
from tests.documents import clone

__all__ = ["Game", "GameFacts", "bandit_lies", "class_of", "game_documents", "horizon_lies", "rows_of"]

#: A randomized value's smallest step in the lies (a value raised or lowered by it).
HAIR = Fraction(1, 2 ** 12)


def class_of(M: np.ndarray) -> dict:
    """The class section of the table ``M``: hexadecimal rows for 0/1 entries, else ``"labels"`` and base-36 texts."""
    M = np.asarray(M)
    n, m = M.shape
    domain = list(range(m))
    k = int(M.max()) + 1 if M.size else 1
    if k <= 2:
        rows = [format(sum(int(v) << x for x, v in enumerate(row)), "x") for row in M]
        return {"n_hypotheses": n, "n_instances": m, "rows": rows, "domain": domain, "sha256": class_hash(rows, domain)}
    width = label_width(k)
    rows = ["".join(np.base_repr(int(v), 36).lower().rjust(width, "0") for v in row) for row in M]
    return {"n_hypotheses": n, "n_instances": m, "rows": rows, "domain": domain, "labels": k,
            "sha256": class_hash(rows, domain, k)}


def rows_of(cls: dict) -> list[tuple[int, ...]]:
    """The rows of a class section as tuples of labels."""
    m = len(cls["domain"])
    if "labels" not in cls:
        return [tuple(int(r, 16) >> x & 1 for x in range(m)) for r in cls["rows"]]
    w = label_width(cls["labels"])
    return [tuple(int(r[j:j + w], 36) for j in range(0, len(r), w)) for r in cls["rows"]]


def _text(v) -> int | str:
    v = Fraction(v)
    return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


class Game:
    """The game under rules on a table, by the plain recursion over states of ``r + 1`` bitsets of rows."""

    def __init__(self, M: np.ndarray, k: int, feedback: str, r: int, randomized: bool = False):
        self.M = np.asarray(M)
        self.n, self.m = self.M.shape
        self.k, self.feedback, self.r, self.randomized = k, feedback, r, randomized
        self.full = (1 << self.n) - 1
        self.cols = [[sum(1 << i for i in range(self.n) if self.M[i, x] == y) for y in range(k)] for x in range(self.m)]
        self.root = (self.full,) + (0,) * r
        self.kind = "value-randomized" if randomized else f"value-{feedback}"

    def rules(self) -> dict:
        return {"labels": self.k, "feedback": self.feedback, "noise": self.r, "randomized": self.randomized}

    def text(self, S: tuple[int, ...]) -> list[str]:
        return [format(level, "x") for level in S]

    def after(self, S, agree: int) -> tuple[int, ...]:
        out = []
        for j in range(self.r + 1):
            stay = S[j] & agree
            up = S[j - 1] & ~agree & self.full if j else 0
            out.append(stay | up)
        return tuple(out)

    def moves(self, S, x: int, guess: int) -> list[tuple[object, bool, tuple]]:
        """``(answer, mistake, state)`` of every legal answer to ``guess`` at ``x``."""
        if self.feedback == "bandit":
            given = self.cols[x][guess] if guess < self.k else 0
            found = [("right", False, self.after(S, given)), ("wrong", True, self.after(S, self.full & ~given))]
        else:
            found = [(y, y != guess, self.after(S, self.cols[x][y])) for y in range(self.k)]
        return [f for f in found if any(f[2])]

    def worth(self, S, mistake: bool, T) -> float | None:
        if T == S:
            return math.inf if mistake else None
        return int(mistake) + self.value(T)

    def guess_value(self, S, x: int, guess: int):
        return max([w for _, mistake, T in self.moves(S, x, guess) for w in [self.worth(S, mistake, T)]
                    if w is not None], default=0)

    def labels(self, S, x: int) -> list[tuple[int, tuple]]:
        """``(label, state)`` of every legal label at ``x`` (full information)."""
        return [(y, T) for y in range(self.k) for T in [self.after(S, self.cols[x][y])] if any(T)]

    def distribution(self, values: dict[int, Fraction], forced: int | None) -> tuple[Fraction, list[Fraction]]:
        """The randomized learner's best worth and probabilities, given each progressing label's value."""
        p = [Fraction(0)] * self.k
        if forced is not None:
            p[forced] = Fraction(1)
            return max((1 + v for v in values.values()), default=Fraction(0)), p
        order = sorted(values, key=lambda y: -values[y])
        for size in range(1, len(order) + 1):
            t = (sum(1 + values[y] for y in order[:size]) - 1) / size
            if size == len(order) or t >= 1 + values[order[size]]:
                break
        for y in order:
            p[y] = max(Fraction(0), 1 + values[y] - t)
        return t, p

    def instance_value(self, S, x: int):
        if not self.randomized:
            return min(self.guess_value(S, x, g) for g in range(self.k))
        forced = next((y for y, T in self.labels(S, x) if T == S), None)
        values = {y: self.value(T) for y, T in self.labels(S, x) if T != S}
        return self.distribution(values, forced)[0]

    @functools.lru_cache(maxsize=None)
    def value(self, S: tuple[int, ...]):
        zero = Fraction(0) if self.randomized else 0
        return max([self.instance_value(S, x) for x in range(self.m)], default=zero)

    def potential(self, S) -> int:
        """Sum over each level's distinct rows of ``r + 1 - level``."""
        return sum(len({tuple(self.M[i]) for i in range(self.n) if level >> i & 1}) * (self.r + 1 - j)
                   for j, level in enumerate(S))


class GameFacts:
    """An honest section of the game's value under construction, each state's facts written once."""

    def __init__(self, game: Game):
        self.game, self.facts, self.done = game, [], {}

    def add(self, fact: list) -> int:
        self.facts.append(fact)
        return len(self.facts) - 1

    def ge(self, S) -> int:
        g = self.game
        if ("ge", S) not in self.done:
            v = g.value(S)
            if v <= 0:
                self.done["ge", S] = self.add([g.text(S), "ge", 0, None])
            else:
                x = max(range(g.m), key=lambda x: g.instance_value(S, x))
                self.done["ge", S] = self.add([g.text(S), "ge", _text(v), self.ge_step(S, x)])
        return self.done["ge", S]

    def ge_step(self, S, x: int, guesses: range | None = None) -> list:
        """The adversary's step at ``x`` (its best answer to each guess, the children's facts written first)."""
        g = self.game
        if g.randomized:
            for _, T in g.labels(S, x):
                if T != S:
                    self.ge(T)
            return [x]
        answers = []
        for guess in guesses or range(g.k):
            answer, mistake, T = max(((a, mi, T) for a, mi, T in g.moves(S, x, guess) if g.worth(S, mi, T) is not None),
                                     key=lambda move: g.worth(S, move[1], move[2]))
            if T != S:
                self.ge(T)
            answers.append(answer)
        return [x, answers]

    def le(self, S) -> int:
        g = self.game
        if ("le", S) not in self.done:
            step = self.le_step(S, range(g.m))
            self.done["le", S] = self.add([g.text(S), "le", _text(g.value(S)), step])
        return self.done["le", S]

    def prediction(self, S, x: int) -> object:
        """The learner's best prediction at ``x`` (a label, or a list of probabilities)."""
        g = self.game
        if g.randomized:
            forced = next((y for y, T in g.labels(S, x) if T == S), None)
            values = {y: g.value(T) for y, T in g.labels(S, x) if T != S}
            return [_text(q) for q in g.distribution(values, forced)[1]]
        return min(range(g.k), key=lambda guess: g.guess_value(S, x, guess))

    def children(self, S, x: int, prediction) -> list[tuple]:
        g = self.game
        if g.randomized:
            return [T for _, T in g.labels(S, x) if T != S]
        return [T for _, _, T in g.moves(S, x, prediction) if T != S]

    def le_step(self, S, instances, *, write_children: bool = True) -> list:
        step = []
        for x in instances:
            p = self.prediction(S, x)
            if write_children:
                for T in self.children(S, x, p):
                    self.le(T)
            step.append(p)
        return step

    def section(self, lower: int | None = None, upper: int | None = None, lower_value=None,
                upper_value=None) -> dict:
        claim = {}
        if lower is not None:
            claim["lower"] = [lower, self.facts[lower][2] if lower_value is None else lower_value]
        if upper is not None:
            claim["upper"] = [upper, self.facts[upper][2] if upper_value is None else upper_value]
        return {"result": self.game.kind, "rules": self.game.rules(), "facts": clone(self.facts), "claim": claim}


def document(M: np.ndarray, *sections: dict, spaces: list | None = None) -> dict:
    return {"format": "mistakebound-certificate", "version": 2, "class": class_of(M), "spaces": spaces or [],
            "results": list(sections)}


def honest(game: Game) -> dict:
    F = GameFacts(game)
    return document(game.M, F.section(lower=F.ge(game.root), upper=F.le(game.root)))


def _more(game: Game, v):
    return v + (HAIR if game.randomized else 1)


def _less(game: Game, v):
    return v - (HAIR if game.randomized else 1)


# ---------------------------------------------------------------------------------- lies on any table
def step_lies(game: Game) -> Iterator[tuple[str, dict, str]]:
    """The root's value raised or lowered by a step, covers missing an instance or a prediction, children left out,
    bounds too small, a claim that says what its fact does not."""
    K, S, M = game.kind, game.root, game.M
    true = game.value(S)
    if game.m:
        x = max(range(game.m), key=lambda x: game.instance_value(S, x))
        if true > 0 or game.randomized:
            F = GameFacts(game)
            k = F.add([game.text(S), "ge", _text(_more(game, true)), F.ge_step(S, x)])
            yield f"{K}.ge", document(M, F.section(lower=k)), "the root's value raised over honest answers"
        F = GameFacts(game)
        k = F.add([game.text(S), "ge", _text(_more(game, true)), None])
        yield f"{K}.ge", document(M, F.section(lower=k)), "a raised value with no step"
        F = GameFacts(game)
        k = F.add([game.text(S), "le", _text(_less(game, true)), F.le_step(S, range(game.m))])
        if _less(game, true) >= 0 or game.randomized:
            yield f"{K}.le", document(M, F.section(upper=k)), "the root's bound lowered over honest predictions"
        # the instance that needs most left out of the cover
        order = sorted(range(game.m), key=lambda x: game.instance_value(S, x))
        rest = max([game.instance_value(S, x) for x in order[:-1]], default=0)
        if rest < true and order[-1] == game.m - 1:
            F = GameFacts(game)
            k = F.add([game.text(S), "le", _text(rest), F.le_step(S, range(game.m - 1))])
            yield f"{K}.le", document(M, F.section(upper=k)), "the last instance, which needs more, left out"
        # a prediction left out: the last one, when the others all have an answer worth more
        if not game.randomized:
            for x in range(game.m):
                others = min((game.guess_value(S, x, g) for g in range(game.k - 1)), default=math.inf)
                if others > true:
                    F = GameFacts(game)
                    k = F.add([game.text(S), "ge", _text(true + 1), F.ge_step(S, x, range(game.k - 1))])
                    yield f"{K}.ge", document(M, F.section(lower=k)), "the last prediction, the learner's best, left out"
                    break
        # every child's fact left out: a checker reading a missing child as 0 takes 1 for the root's bound
        if true > 1:
            F = GameFacts(game)
            k = F.add([game.text(S), "le", 1, F.le_step(S, range(game.m), write_children=False)])
            yield f"{K}.child", document(M, F.section(upper=k)), "no child's fact: outcomes read as worth nothing"
    # the bounds the search stops at, too small
    potential = game.potential(S)
    if 0 <= potential - 2 < true:
        F = GameFacts(game)
        k = F.add([game.text(S), "le", potential - 2, "potential"])
        yield f"{K}.bound", document(M, F.section(upper=k)), "the potential bound less one"
    if true >= 1:
        F = GameFacts(game)
        k = F.add([game.text(S), "le", _text(math.ceil(true) - 1), "binomial"])
        yield f"{K}.bound", document(M, F.section(upper=k)), "a binomial-weights bound below the value"
    # the claim
    F = GameFacts(game)
    lo = F.ge(S)
    yield f"{K}.claim", document(M, F.section(lower=lo, lower_value=_text(_more(game, true)))), \
        "the claim states a value its fact does not"
    smaller = [T for x in range(game.m) for T in F.children(S, x, F.prediction(S, x)) if game.value(T) < true]
    if smaller:
        yield f"{K}.claim", document(M, F.section(upper=F.le(smaller[0]))), "the upper claim names a fact on a child"
    # the rules: one more unit of noise, or one label fewer, stated over the honest facts
    if game.m:  # with no instance the adversary has nothing to spend its noise on
        doc = honest(game)
        doc["results"][0]["rules"]["noise"] += 1
        yield f"{K}.rules", doc, "the rules state one more unit of noise"
    if game.k == 3 and Game(M, 2, game.feedback, game.r, game.randomized).value(S) < true:
        doc = honest(game)
        doc["results"][0]["rules"]["labels"] = 2
        yield f"{K}.rules", doc, "the rules state two labels"


# ---------------------------------------------------------------------------------- lies on one hypothesis
def single_row_lies(row: np.ndarray) -> Iterator[tuple[str, dict, str]]:
    """Lies that a table of one hypothesis makes possible: every instance is a no-op for the row's label."""
    M = np.asarray(row, dtype=np.int64).reshape(1, -1)
    m = M.shape[1]
    if not m:
        return
    h = [int(v) for v in M[0]]
    for r in (1, 2):
        game = Game(M, 2, "full", r)
        F = GameFacts(game)
        # answering the row's own label to every prediction: a no-op, no mistake for the prediction it is
        k = F.add([game.text(game.root), "ge", r + 1, [0, [h[0]] * 2]])
        yield "value-full.ge", document(M, F.section(lower=k)), "a no-op without a mistake as an answer"
        one = next((x for x in range(m) if h[x] == 1), None)
        if one is not None:  # prediction 1 left out: 0 is answered by the no-op mistake, worth any value
            F = GameFacts(game)
            k = F.add([game.text(game.root), "ge", r + 1, [one, [1]]])
            yield "value-full.ge", document(M, F.section(lower=k)), "the learner's only good prediction left out"
        # predicting the label no row gives: the no-op mistake skipped
        F = GameFacts(game)
        up = (0, game.full) + (0,) * (r - 1)
        F.le(up)
        k = F.add([game.text(game.root), "le", r - 1, [1 - v for v in h]])
        yield "value-full.le", document(M, F.section(upper=k)), "a prediction no row gives, its no-op mistake skipped"
        # randomized: the no-op label's probability below 1, the forced value raised
        game = Game(M, 2, "full", r, randomized=True)
        F = GameFacts(game)
        F.le(up)
        half = [["1/2", "1/2"] for _ in range(m)]
        k = F.add([game.text(game.root), "le", _text(Fraction(1, 2) + game.value(up)), half])
        yield "value-randomized.le", document(M, F.section(upper=k)), "half on the no-op label"
        F = GameFacts(game)
        k = F.add([game.text(game.root), "ge", _text(game.value(game.root) + Fraction(1, 2)), F.ge_step(game.root, 0)])
        yield "value-randomized.ge", document(M, F.section(lower=k)), "a forced instance worth more than its others"
        F = GameFacts(game)
        everything = [[1, 1] for _ in range(m)]
        F.le(up)
        k = F.add([game.text(game.root), "le", _text(game.value(up)), everything])
        yield "value-randomized.le", document(M, F.section(upper=k)), "probability 1 on every label"
    # no noise and a third label no row gives: answers that leave no row
    game = Game(M, 3, "full", 0)
    F = GameFacts(game)
    k = F.add([game.text(game.root), "ge", 1, [0, [2, 2, h[0]]]])
    yield "value-full.ge", document(M, F.section(lower=k)), "answers that leave no row within the budget"
    game = Game(M, 2, "full", 0, randomized=True)
    F = GameFacts(game)
    k = F.add([game.text(game.root), "le", -1, [[1, 0] if v == 0 else [0, 1] for v in h]])
    yield "value-randomized.le", document(M, F.section(upper=k)), "a negative bound where every label is a no-op"


# ---------------------------------------------------------------------------------- documents outside the grammar
def grammar(game: Game) -> Iterator[tuple[str, dict, str]]:
    """Honest documents with one departure from the grammar of the section, the class or the rules."""
    doc = honest(game)
    sec, facts = doc["results"][0], doc["results"][0]["facts"]
    r = game.r

    def edited(change, why):
        d = clone(doc)
        if change(d) is not False:
            return "grammar", d, why
        return None

    def sec_of(d):
        return d["results"][0]

    def first(d, test):
        return next((f for f in sec_of(d)["facts"] if test(f)), None)

    ge_full = lambda f: f[1] == "ge" and isinstance(f[3], list) and len(f[3]) == 2 and 1 in f[3][1]  # noqa: E731
    ge_bandit = lambda f: f[1] == "ge" and isinstance(f[3], list) and len(f[3]) == 2 and "wrong" in f[3][1]  # noqa: E731
    le_one = lambda f: f[1] == "le" and isinstance(f[3], list) and 1 in f[3]  # noqa: E731

    def swap(f, old, new):
        if f is None:
            return False
        f[3][1][f[3][1].index(old)] = new

    cases = [
        (lambda d: sec_of(d).__setitem__("setting", 1), "a section key the checker does not know"),
        (lambda d: sec_of(d)["rules"].__setitem__("feedback", "bandit" if game.feedback == "full" else "full"),
         "the rules of another kind"),
        (lambda d: sec_of(d)["rules"].__setitem__("labels", float(game.k)), "labels 3.0"),
        (lambda d: sec_of(d)["rules"].__setitem__("noise", True) if r == 1 else False, "noise true"),
        (lambda d: sec_of(d)["facts"].append(clone(sec_of(d)["facts"][0]) + [None]), "a fact of five elements"),
        (lambda d: sec_of(d)["facts"][0][0].__setitem__(0, "0" + sec_of(d)["facts"][0][0][0]),
         "a state with a leading zero"),
        (lambda d: sec_of(d)["facts"].append([["1"] * (r + 1), "ge", 0, None]) if r else False,
         "a state holding a row at two levels"),
        (lambda d: sec_of(d)["facts"].append([["0"] * (r + 1), "ge", 0, None]), "a state holding no row"),
        (lambda d: sec_of(d)["facts"].append([[format(1 << game.n, "x")] + ["0"] * r, "ge", 0, None])
         if game.n % 4 else False, "a state naming row n"),
    ]
    if game.randomized:
        def value_text(d):
            f = sec_of(d)["facts"][sec_of(d)["claim"]["lower"][0]]
            f[2] = str(f[2]) if isinstance(f[2], int) else " " + f[2]
        cases += [
            (value_text, "a value outside the grammar of numbers"),
            (lambda d: bool([p.append(0) for f in sec_of(d)["facts"] if f[1] == "le" and isinstance(f[3], list)
                             for p in f[3]]) and r == 0, "a distribution with a probability too many"),
        ]
    else:
        def value_float(d):
            f = sec_of(d)["facts"][sec_of(d)["claim"]["upper"][0]]
            f[2] = float(f[2])
        cases += [
            (value_float, "a value of 1.0"),
            (lambda d: first(d, le_one) and first(d, le_one)[3].__setitem__(first(d, le_one)[3].index(1), True)
             if first(d, le_one) else False, "a prediction true"),
        ]
        if game.feedback == "full":
            cases.append((lambda d: swap(first(d, ge_full), 1, True), "an answer true"))
        else:
            cases.append((lambda d: swap(first(d, ge_bandit), "wrong", "Wrong"), "an answer 'Wrong'"))
    for change, why in cases:
        found = edited(change, why)
        if found is not None:
            yield found


def class_lies(M3: np.ndarray) -> Iterator[tuple[str, dict, str]]:
    """A class of three labels changed in one entry, and given as what it is not."""
    game = Game(M3, 3, "full", 0)
    doc = honest(game)
    changed = clone(doc)
    row = changed["class"]["rows"][0]
    changed["class"]["rows"][0] = str((int(row[0]) + 1) % 3) + row[1:]
    yield "class", changed, "the class table changed in one entry"
    # rows read beyond the class's labels: a table of six labels written as three
    M6 = M3.copy()
    M6[0, 0] = 5
    doc6 = honest(Game(M6, 6, "full", 0))
    cls = class_of(M6)
    cls["labels"] = 3
    cls["sha256"] = class_hash(cls["rows"], cls["domain"], 3)
    doc6["class"] = cls
    yield "grammar", doc6, "a row giving label 5 in a class of three labels"
    longer = clone(doc)
    longer["class"]["rows"][0] += "0"
    longer["class"]["sha256"] = class_hash(longer["class"]["rows"], longer["class"]["domain"], 3)
    yield "grammar", longer, "a row one label too long"
    odd = clone(doc)
    odd["class"]["labels"] = "3"
    yield "grammar", odd, "labels '3'"
    # rules of two labels on a class of three
    # rules of two labels on a class declared of three (whose rows give only 0 and 1)
    M2 = (M3 > 0).astype(np.int64)
    two = honest(Game(M2, 2, "full", 0))
    cls = two["class"]
    cls["rows"] = ["".join(str(int(v)) for v in row) for row in M2]
    cls["labels"] = 3
    cls["sha256"] = class_hash(cls["rows"], cls["domain"], 3)
    yield "grammar", two, "two labels in the rules, three in the class"
    # a kind that reads two labels, given a class of three
    n = M3.shape[0]
    ldim = {"format": "mistakebound-certificate", "version": 2, "class": class_of(M3),
            "spaces": [format((1 << n) - 1, "x")],
            "results": [{"result": "ldim", "facts": [[0, "ge", 0, None]], "claim": {"lower": [0, 0]}}]}
    yield "grammar", ldim, "an 'ldim' result on a class of three labels"


def game_documents(M: np.ndarray, rng: random.Random) -> Iterator[tuple[str, dict, str]]:
    """``(kind, document, why)``: the honest certificates, lies and documents outside the grammar for ``M``."""
    M = np.asarray(M, dtype=np.int64)
    n, m = M.shape
    M3 = M + (np.roll(M, 1, axis=1) if m else M)
    configs = [Game(M, rng.choice((2, 3)), "full", rng.choice((0, 1))),
               Game(M3 if m and M3.max() == 2 else M, 3, "bandit", rng.choice((0, 1))),
               Game(M, rng.choice((2, 3)), "full", rng.choice((0, 1)), randomized=True)]
    for game in configs:
        yield "honest", honest(game), f"{game.kind}, {game.k} labels, noise {game.r}"
        yield from step_lies(game)
        yield from grammar(game)
    # the randomized bandit kind: its exact values grow fast with the table (noise 1 on a 7 x 4 table of three
    # labels runs for minutes), so one setting per class drawn, on at most 4 rows and 3 columns of it
    k, r = rng.choice(((2, 0), (2, 1), (3, 0), (3, 1)))
    yield from bandit_lies(M[:4, :3], k, r)
    yield from bandit_lies(M[:1], 3, 0)  # one row: the lies only a table of one hypothesis makes possible
    yield from horizon_lies(M, rng)
    yield from single_row_lies(M[0])
    if m and M3.max() == 2:
        yield from class_lies(M3)


def bandit_lies(M: np.ndarray, k: int, r: int) -> Iterator[tuple[str, dict, str]]:
    """The honest ``"value-randomized-bandit"`` certificate of ``M`` (three labels: its entries plus a rotated
    column's) under ``k`` labels and noise ``r``, and its smallest lies, one step each."""
    from mistakebound import Rules
    from mistakebound.theory.game_certificate import game_certificate

    M = np.asarray(M, dtype=np.int64)
    if k == 3:
        M = M + np.roll(M, 1, axis=1)
    doc = game_certificate(M, Rules(labels=k, feedback="bandit", randomized=True, noise=r)).document()
    K = "value-randomized-bandit"
    yield "honest", doc, f"{K}, {k} labels, noise {r}"
    sec = doc["results"][0]
    facts, claim = sec["facts"], sec["claim"]
    lo, hi = claim["lower"][0], claim["upper"][0]

    def edited(change) -> dict | None:
        d = clone(doc)
        return d if change(d["results"][0]) is not False else None

    def raise_claim(s, side, i, v):
        s["facts"][i][2] = _text(v)
        s["claim"][side][1] = _text(v)

    true = Fraction(facts[lo][2])
    ge, le = facts[lo], facts[hi]
    if ge[3] is not None:
        yield f"{K}.ge", edited(lambda s: raise_claim(s, "lower", lo, true + HAIR)), "the root's value raised"
        x, q = ge[3]
        for why, bad in (("a strategy summing to more than 1", [_text(Fraction(v) + HAIR) for v in q]),
                         ("a negative probability", [-1, 2] + [0] * (k - 2)),
                         ("a label left out", q[:-1])):
            yield f"{K}.ge", edited(lambda s, bad=bad: (s["facts"][lo].__setitem__(3, [x, bad]),
                                                         raise_claim(s, "lower", lo, true + HAIR))), why
    else:
        yield f"{K}.ge", edited(lambda s: raise_claim(s, "lower", lo, true + HAIR)), "a raised value with no step"
    if r == 0 and k == 3:  # the adversary's weight on a label no row gives, with no row to spare
        for x in range(M.shape[1]):
            absent = [y for y in range(k) if y not in set(M[:, x].tolist())]
            if absent:
                q = [0] * k
                q[absent[0]] = 1
                yield f"{K}.ge", edited(lambda s, x=x, q=q: (s["facts"][lo].__setitem__(3, [x, q]),
                                                             raise_claim(s, "lower", lo, true + 1))), \
                    "a label no row gives named without noise"
                break
    if isinstance(le[3], list):
        yield f"{K}.le", edited(lambda s: raise_claim(s, "upper", hi, true - HAIR)), "the root's bound lowered"
        if true == 0:
            yield f"{K}.le", edited(lambda s: raise_claim(s, "upper", hi, -HAIR)), "a negative bound"
        yield f"{K}.le", edited(lambda s: (s["facts"][hi].__setitem__(3, le[3][:-1]),
                                           raise_claim(s, "upper", hi, true - HAIR))), "an instance left out"
        for x in range(M.shape[1]):  # the learner's weight on a label no row gives: a no-op mistake
            absent = [y for y in range(k) if y not in set(M[:, x].tolist())]
            if absent:
                def cheat(s, x=x, y=absent[0]):
                    step = [list(p) for p in le[3]]
                    step[x] = [1 if z == y else 0 for z in range(k)]
                    s["facts"][hi][3] = step
                    raise_claim(s, "upper", hi, true - HAIR)
                yield f"{K}.le", edited(cheat), "a draw of a label no row gives"
                break
        children = [i for i, f in enumerate(facts) if f[1] == "le" and i != hi]
        if children:
            def orphan(s):  # every child's "le" fact dropped (indices shift: the claim follows)
                s["facts"] = [f for i, f in enumerate(s["facts"]) if i not in children and f[1] == "le"]
                s["claim"] = {"upper": [len(s["facts"]) - 1, s["facts"][-1][2]]}
                raise_claim(s, "upper", len(s["facts"]) - 1, true - HAIR)
            yield f"{K}.child", edited(orphan), "no child's fact"
    else:
        yield f"{K}.bound", edited(lambda s: raise_claim(s, "upper", hi, Fraction(le[2]) - 1)), "the bound less one"
    # honest documents outside the kind's grammar
    def value_text(s):  # the fact's value misspelt, the claim's as it was: only the grammar of numbers refuses it
        f = s["facts"][lo]
        f[2] = str(f[2]) if isinstance(f[2], int) else " " + f[2]
    grammar = [(value_text, "a value outside the grammar of numbers")]
    if isinstance(le[3], list) and le[3]:  # a cover of at least one instance
        grammar.append((lambda s: [p.append(0) for p in s["facts"][hi][3]], "a distribution with a probability too many"))
    if ge[3] is not None:
        grammar.append((lambda s: s["facts"][lo][3][1].append(0), "an adversary's mix with a probability too many"))
    for change, why in grammar:
        d = edited(change)
        if d is not None:
            yield "grammar", d, why
    if M.shape[0] == 1 and M.shape[1] and k == 3:  # one row: every instance a no-op, no column to bound
        row = [int(v) for v in M[0]]
        F = clone(doc)
        s = F["results"][0]
        s["facts"].append([s["facts"][hi][0], "le", "-1/2", [[int(y == row[x]) for y in range(k)]
                                                            for x in range(M.shape[1])]])
        s["claim"]["upper"] = [len(s["facts"]) - 1, "-1/2"]
        yield f"{K}.le", F, "a negative bound on a state whose every instance is a no-op"


def horizon_lies(M: np.ndarray, rng: random.Random) -> Iterator[tuple[str, dict, str]]:
    """The honest ``"value-horizon"`` certificate of a corner of ``M`` (at most 3 rows and 2 columns; three labels:
    its entries plus a rotated column's) under drawn rules and horizon, and its smallest lies, one step each.

    The honest certificate is the package's writer's (the strategies come from a linear program), checked honest by
    the campaign; the judge of the lies is the other program of :func:`tests.game_oracle.oblivious_oracle`."""
    from mistakebound import Rules
    from mistakebound.theory.horizon_certificate import horizon_certificate

    M = np.asarray(M, dtype=np.int64)[:3, :2]
    k, r, T, adaptive = rng.choice((2, 3)), rng.choice((0, 1)), rng.choice((1, 2)), rng.choice((False, True))
    feedback = rng.choice(("full", "bandit"))
    if k == 3:
        M = M + np.roll(M, 1, axis=1)
    rules = Rules(labels=k, feedback=feedback, noise=r, adaptive=adaptive, randomized=True)
    doc = horizon_certificate(M, rules, T).document()
    K = "value-horizon"
    yield "honest", doc, f"{K}, {k} labels, {feedback}, noise {r}, {'adaptive' if adaptive else 'oblivious'}, T={T}"
    true = Fraction(doc["results"][0]["claim"]["lower"])

    def edited(change) -> dict:
        d = clone(doc)
        change(d["results"][0])
        return d

    def claim(s, side, v):
        s["claim"][side] = _text(v)

    yield f"{K}.claim", edited(lambda s: claim(s, "lower", true + HAIR)), "the lower bound raised"
    if true > 0:
        yield f"{K}.claim", edited(lambda s: claim(s, "upper", true - HAIR)), "the upper bound lowered"
        yield f"{K}.learner", edited(lambda s: (s.__setitem__("learner", []), claim(s, "upper", 0))), \
            "a learner of no distributions claims to pay nothing"
        yield f"{K}.learner", edited(lambda s: (s["learner"][0].__setitem__(1, [0] * k), claim(s, "upper", 0))), \
            "a first draw of probability 0 everywhere"
        yield f"{K}.learner", edited(lambda s: (s["learner"][0].__setitem__(1, [1, -1] + [1] * (k - 2)),
                                                claim(s, "upper", true - HAIR))), "a negative probability"
        yield f"{K}.rules", edited(lambda s: (s["rules"].__setitem__("noise", r + 1), claim(s, "upper", true - HAIR))), \
            "the learner's strategy checked under other rules"
    if not doc["results"][0]["learner"]:
        return  # no instance: the game has no move, the raised claim was the lie to tell
    # honest statements outside the kind's grammar: refused whatever they state
    first = doc["results"][0]["learner"][0]
    for change, why in (
            (lambda s: s["learner"].append(clone(first)), "a second distribution for a key"),
            (lambda s: s["learner"].append([[99], [1] + [0] * (k - 1)]), "a key naming no information set"),
            (lambda s: s["learner"].append([first[0], [1] + [0] * (k - 1)]), "a key listed twice, differently"),
            (lambda s: s["learner"].__setitem__(0, [first[0], first[1] + [0]]), "a probability too many"),
            (lambda s: s["learner"].__setitem__(0, [first[0][0], first[1]]), "a key that is not a list"),
            (lambda s: s["learner"].__setitem__(0, first[0]), "an entry without a distribution"),
            (lambda s: s.__setitem__("horizon", str(T)), "a horizon as a text"),
            (lambda s: s.__setitem__("horizon", 65), "a horizon past the limit"),
            (lambda s: (s["rules"].__setitem__("noise", 1), s.__setitem__("horizon", 64)),
             "a tree of more nodes than the checker builds"),
            (lambda s: s["rules"].__setitem__("randomized", False), "deterministic learners"),
            (lambda s: s["rules"].__setitem__("adaptive", 1), "adaptivity as a number"),
            (lambda s: s["rules"].__setitem__("feedback", "partial"), "a feedback of no game"),
            (lambda s: s["rules"].__setitem__("labels", 1), "one label"),
            (lambda s: s.__setitem__("claim", {"lower": s["claim"]["lower"]}), "a claim of one side"),
            (lambda s: s.__setitem__("extra", 1), "a key too many")):
        yield "grammar", edited(change), why
    for change, why in (
            (lambda s: s.__setitem__("learner", None), "a strategy that is not a list"),
            (lambda s: s["rules"].__setitem__("labels", 2.0), "a number of labels written as a float"),
            (lambda s: s["rules"].__setitem__("noise", 0.5), "a noise budget of a half")):
        yield "grammar", edited(change), why
    if k == 3 and int(M.max()) == 2:
        yield "grammar", edited(lambda s: s["rules"].__setitem__("labels", 2)), "two labels on a class of three"
        yield "grammar", edited(lambda s: (s["rules"].__setitem__("labels", 2), s.update(
            horizon=0, learner=[], adversary=[], claim={"lower": 0, "upper": 0}))), \
            "two labels on a class of three, over no round (a true value of a game the class cannot be played in)"
    for x in range(M.shape[1]):  # the adversary's weight on a label that leaves no row within the budget
        absent = [y for y in range(k) if y not in set(M[:, x].tolist())]
        if absent and r == 0:
            def illegal(s, x=x, y=absent[0]):  # the adversary's label at x, on the first round, all on y
                s["adversary"] = [e for e in s["adversary"] if e[0] != [x]] + [[[x], [int(z == y) for z in range(k)]]]
            yield "grammar", edited(illegal), "a label no row gives named without noise"
            break
