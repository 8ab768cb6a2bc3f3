"""The oracle of the game's value under other rules: brute force, written from the definitions alone.

It shares no code with :mod:`mistakebound.theory.game_values`: its state is the tuple of
every hypothesis's mistakes (duplicates kept, no bitsets, no pruning, no bounds), and the
adversary's outcomes are enumerated from the labels it could give.  :func:`learner_oracle`,
a learner's worst case over a few rounds, shares none with
:mod:`mistakebound.theory.worst_case_rules` either: no snapshots, no state keys, no memo;
the learner is built afresh and replayed from the first round at every position; nor does
:func:`automaton_oracle`, the worst case without a horizon of a learner given as tables,
found by value iteration over the whole graph of positions.  It lives in a module of
its own so that tests of several files can import it (a module of hypothesis tests imported
inside a running one would nest them).
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

__all__ = ["automaton_oracle", "bandit_randomized_oracle", "learner_oracle", "oblivious_oracle", "oracle",
           "randomized_oracle", "support_enumeration"]


def oracle(rows: list[tuple[int, ...]], k: int, feedback: str, r: int) -> float:
    """The deterministic value by brute force over tuples of per-hypothesis mistakes (``r + 1``: out)."""
    n_cols = len(rows[0])

    def charged(counts, x, gives_no_mistake):
        return tuple(c if c > r or gives_no_mistake(h[x]) else c + 1 for c, h in zip(counts, rows))

    def seen(counts):  # what the game's state is: the mistakes of the hypotheses still within budget
        return tuple(c if c <= r else None for c in counts)

    @functools.lru_cache(maxsize=None)
    def v(counts: tuple[int, ...]) -> float:
        best = 0
        for x in range(n_cols):
            learner = math.inf
            for guess in range(k):
                if feedback == "full":
                    moves = [(y != guess, charged(counts, x, lambda label, y=y: label == y)) for y in range(k)]
                else:
                    moves = [(False, charged(counts, x, lambda label: label == guess)),
                             (True, charged(counts, x, lambda label: label != guess))]
                adversary = 0
                for mistake, after in moves:
                    if not any(c <= r for c in after):
                        continue  # no hypothesis left within its budget: not a legal outcome
                    if seen(after) == seen(counts):
                        if mistake:
                            adversary = math.inf
                        continue
                    adversary = max(adversary, int(mistake) + v(after))
                learner = min(learner, adversary)
            best = max(best, learner)
        return best

    return v(tuple(0 for _ in rows))


def randomized_oracle(rows: list[tuple[int, ...]], k: int, r: int) -> Fraction:
    """The randomized learner's value with full information, by brute force over mistake counts.

    At each instance the learner chooses probabilities ``p`` over the labels and pays ``1 - p_y``; its best
    worst case ``t`` is found among the candidates where the constraints ``1 - p_y + v_y <= t`` bind: for
    every set A of labels, ``t = (sum over A of (1 + v_y) - 1) / |A|``, each ``v_y`` and each ``1 + v_y``,
    the least candidate for which probabilities exist (each ``p_y >= 1 + v_y - t``, ``p_y >= 0``, summing to
    at most 1).  A label leaving the state as it was must get probability 1.
    """
    n_cols = len(rows[0])

    def seen(counts):
        return tuple(c if c <= r else None for c in counts)

    @functools.lru_cache(maxsize=None)
    def v(counts: tuple[int, ...]) -> Fraction:
        best = Fraction(0)
        for x in range(n_cols):
            moves = {}
            for y in range(k):
                after = tuple(c if c > r or h[x] == y else c + 1 for c, h in zip(counts, rows))
                if any(c <= r for c in after):
                    moves[y] = None if seen(after) == seen(counts) else v(after)
            stuck = [y for y, value in moves.items() if value is None]
            values = [value for value in moves.values() if value is not None]
            if stuck:
                here = max((1 + value for value in values), default=Fraction(0))
            elif not values:
                here = Fraction(0)
            else:
                candidates = {Fraction(value) for value in values} | {1 + value for value in values}
                for size in range(1, len(values) + 1):
                    for chosen in itertools.combinations(values, size):
                        candidates.add((sum(1 + value for value in chosen) - 1) / size)
                here = min(t for t in candidates if t >= max(values)
                           and sum(max(Fraction(0), 1 + value - t) for value in values) <= 1)
            best = max(best, here)
        return best

    return v(tuple(0 for _ in rows))



# ------------------------------------------------------------------ randomized learners under bandit feedback
def _solve(system: list[list[Fraction]]) -> list[Fraction] | None:
    """The unique solution of a square linear system given as augmented rows, by Gauss-Jordan; None if singular."""
    rows = [list(r) for r in system]
    n = len(rows)
    for c in range(n):
        pivot = next((r for r in range(c, n) if rows[r][c] != 0), None)
        if pivot is None:
            return None
        rows[c], rows[pivot] = rows[pivot], rows[c]
        rows[c] = [a / rows[c][c] for a in rows[c]]
        for r in range(n):
            if r != c and rows[r][c] != 0:
                f = rows[r][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[c])]
    return [rows[r][n] for r in range(n)]


def support_enumeration(A: list[list[Fraction]]) -> Fraction:
    """``min over p of max over j of p.A[:, j]`` by enumerating square supports (an optimal vertex has some
    set I of rows in its support and as many columns J tight: p on I summing to 1, each column of J paying v)."""
    m, n = len(A), len(A[0])
    best = None
    for size in range(1, min(m, n) + 1):
        for I in itertools.combinations(range(m), size):
            for J in itertools.combinations(range(n), size):
                # unknowns p_i (i in I) and v: sum p = 1, and p.A[:, j] - v = 0 for j in J
                system = [[Fraction(1)] * size + [Fraction(0), Fraction(1)]]
                system += [[Fraction(A[i][j]) for i in I] + [Fraction(-1), Fraction(0)] for j in J]
                solution = _solve(system)
                if solution is None or min(solution[:size]) < 0:
                    continue
                pay = max(sum(solution[a] * A[i][j] for a, i in enumerate(I)) for j in range(n))
                best = pay if best is None else min(best, pay)
    return best


def bandit_randomized_oracle(rows: list[tuple[int, ...]], k: int, r: int, horizon: int | None = None) -> Fraction:
    """The randomized learner's value under bandit feedback (the model of ``game_values``), by brute force over
    tuples of per-hypothesis mistakes, each step's matrix game by support enumeration.

    The learner draws a label some hypothesis still within budget gives at the instance; the adversary names a
    label such a hypothesis gives, or, when some such hypothesis has a mistake to spare and some label is given
    by none of them, that label (then every draw is wrong).  A right draw y charges the hypotheses not giving y,
    a wrong draw z the hypotheses giving z.  When all of them give one label, the instance is worth one mistake
    more than the state where each of them erred, if one may err, else nothing.  With ``horizon``, the game of
    that many rounds: the adversary may also waste a round.
    """
    n_cols = len(rows[0])

    def seen(counts):
        return tuple(c if c <= r else None for c in counts)

    @functools.lru_cache(maxsize=None)
    def v(counts: tuple[int, ...], left: int | None) -> Fraction:
        if left == 0:
            return Fraction(0)
        shorter = None if left is None else left - 1
        best = Fraction(0) if left is None else v(counts, shorter)
        alive = [h for c, h in zip(counts, rows) if c <= r]
        if not alive:
            return Fraction(0)  # no hypothesis left (a state the adversary never reaches)
        spare = any(c < r for c in counts)
        for x in range(n_cols):
            given = sorted({h[x] for h in alive})

            def charged(err):  # each hypothesis within budget charged when err(its label)
                return tuple(c + 1 if c <= r and err(h[x]) else c for c, h in zip(counts, rows))

            wrong = {z: 1 + v(charged(lambda label, z=z: label == z), shorter) for z in given}
            if len(given) == 1:
                here = wrong[given[0]] if spare else Fraction(0)
            else:
                right = {y: v(charged(lambda label, y=y: label != y), shorter) for y in given}
                columns = [[right[y] if z == y else wrong[z] for z in given] for y in given]
                if spare and len(given) < k:
                    columns.append([wrong[z] for z in given])
                here = support_enumeration([list(col) for col in zip(*columns)])
            best = max(best, here)
        return best

    return v(tuple(0 for _ in rows), horizon)


# ------------------------------------------------------------------ the oblivious adversary
def oblivious_oracle(rows: list[tuple[int, ...]], k: int, feedback: str, r: int, horizon: int,
                     adaptive: bool = False) -> float:
    """The oblivious adversary's value for a randomized learner in ``horizon`` rounds, in floating point.

    A different program from the library's: the adversary's variables are its pure strategies (the legal
    labelled sequences, enumerated), the learner's side is its best response written as constraints, one value
    per information set (what the learner has seen: instances, its draws, its feedback) bounded by each action's
    cost plus its children's values; the adversary maximises the sum of the first round's values.  With
    ``adaptive=True`` the adversary sees the learner's past draws (held to the labels it names): a pure strategy
    is then a tree, a legal labelled round for every sequence of past draws (enumerated too: small horizons only).
    """
    from scipy.optimize import linprog

    n_cols = len(rows[0])
    if n_cols == 0 or horizon == 0:
        return 0.0  # no round is played
    sequences = []  # pure strategies: draws so far -> the next labelled round

    def legal_moves(counts):
        for x in range(n_cols):
            for y in range(k):
                after = [c + (h[x] != y) for c, h in zip(counts, rows)]
                if min(after) <= r:
                    yield (x, y), after

    def trees(t, counts):
        """Every pure strategy of the rounds from ``t`` on, as a dict: tuple of draws since ``t`` -> labelled round."""
        if t == horizon:
            return [{}]
        out = []
        for move, after in legal_moves(counts):
            rest = trees(t + 1, after)
            options = [rest] * k if adaptive else [rest]  # a subtree per draw, or one for every draw
            for parts in itertools.product(*options):
                tree = {(): move}
                for g in range(k):
                    part = parts[0] if not adaptive else parts[g]
                    tree.update({(g,) + d: v for d, v in part.items()})
                out.append(tree)
        return out

    for tree in trees(0, [0] * len(rows)):
        sequences.append(tree)

    def played(tree, draws):
        return [tree[tuple(draws[:t])] for t in range(horizon)]

    info: dict = {}  # learner information set -> number
    cost: dict = {}  # (information set, action) -> {sequence: 1}
    children: dict = {}  # (information set, action) -> set of information sets

    for j, tree in enumerate(sequences):
        for draws in itertools.product(range(k), repeat=horizon):
            history = ()
            previous = None
            for t, ((x, y), guess) in enumerate(zip(played(tree, draws), draws)):
                key = (history, x)
                info.setdefault(key, len(info))
                if previous is not None:
                    children.setdefault(previous, set()).add(key)
                cost.setdefault((key, guess), {})
                if guess != y:
                    cost[(key, guess)][j] = 1
                history = history + ((x, guess, y if feedback == "full" else guess == y),)
                previous = (key, guess)
    nq, nw = len(sequences), len(info)
    A_ub, b_ub = [], []
    for key, i in info.items():
        for guess in range(k):
            row = [0.0] * (nq + nw)
            row[nq + i] = 1.0
            for j in cost.get((key, guess), {}):
                row[j] -= 1.0
            for child in children.get((key, guess), ()):
                row[nq + info[child]] -= 1.0
            A_ub.append(row)
            b_ub.append(0.0)
    c = [0.0] * (nq + nw)
    for key, i in info.items():
        if key[0] == ():
            c[nq + i] = -1.0
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=[[1.0] * nq + [0.0] * nw], b_eq=[1.0],
                  bounds=[(0, None)] * nq + [(None, None)] * nw, method="highs")
    assert res.status == 0, res.message
    return -res.fun

def learner_oracle(make, rows: list[tuple[int, ...]], k: int, feedback: str, r: int, rounds: int) -> int:
    """A deterministic learner's worst case over at most ``rounds`` rounds, by brute force.

    ``make()`` builds the learner afresh (its instances are the column numbers); every label
    that leaves some hypothesis with at most ``r`` mistakes is tried, and the learner is
    shown the label, or under bandit feedback the ``BanditFeedback`` the referee shows.
    """
    from mistakebound.game.feedback import BanditFeedback

    labels = tuple(range(k))

    def replayed(history):
        learner = make()
        for t, (x, y) in enumerate(history, 1):
            guess = learner.predict_one(x)
            learner.learn_one(x, BanditFeedback(t, guess, guess == y, labels) if feedback == "bandit" else y)
        return learner

    def worst(history, left):
        if left == 0:
            return 0
        best = 0
        for x in range(len(rows[0])):
            guess = replayed(history).predict_one(x)
            for y in labels:
                wrong = [sum(h[x2] != y2 for x2, y2 in history + [(x, y)]) for h in rows]
                if min(wrong) > r:
                    continue  # every hypothesis past the budget: the referee refuses the label
                best = max(best, int(guess != y) + worst(history + [(x, y)], left - 1))
        return best

    return worst([], rounds)


def automaton_oracle(predictions, transitions, rows: list[tuple[int, ...]], k: int, feedback: str, r: int) -> float:
    """The worst case, without a horizon, of the learner with finitely many states given by tables.

    In state ``s`` it predicts ``predictions[s][x]`` on instance ``x`` and moves to
    ``transitions[s][x][o]``, where ``o`` is the label (full information) or ``1`` when it was
    right and ``0`` when not (bandit feedback).  The positions (its state, every
    hypothesis's mistakes with those past ``r`` counted as ``r + 1``) are enumerated from the
    start, and ``v_h`` (the most mistakes in ``h`` rounds) iterated: with ``N`` positions a
    line without a loop that gains is worth what its ``N`` first rounds are (a loop that gains
    nothing can be cut out), at most ``N - 1``, while a loop that gains makes ``v_h`` grow past
    ``N - 1`` by ``h = N (N + 1)``: then the worst case is infinite.
    """
    def moves(position):
        s, counts = position
        for x in range(len(rows[0])):
            guess = predictions[s][x]
            for y in range(k):
                after = tuple(min(r + 1, c + (h[x] != y)) for c, h in zip(counts, rows))
                if min(after) > r:
                    continue  # the referee refuses the label
                shown = y if feedback == "full" else int(guess == y)
                yield int(guess != y), (transitions[s][x][shown], after)

    root = (0, tuple(0 for _ in rows))
    positions, todo = {root}, [root]
    while todo:
        for _, child in moves(todo.pop()):
            if child not in positions:
                positions.add(child)
                todo.append(child)
    edges = {p: list(moves(p)) for p in positions}
    n = len(positions)
    v = {p: 0 for p in positions}
    after_n = None
    for h in range(1, n * (n + 1) + 1):
        v = {p: max((gain + v[child] for gain, child in edges[p]), default=0) for p in positions}
        if h == n:
            after_n = v[root]
    return after_n if v[root] <= n - 1 else math.inf
