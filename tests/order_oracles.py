"""Brute-force oracles of the games where someone else orders the instances, from the definitions alone.

They share no code with :mod:`mistakebound.theory.order_games`, ``self_directed``,
``instance_orders`` or ``transductive``: no bitsets, no version space as the state (the
state is the history, the labelled instances shown so far), no bounds, no cuts, no dedup of
instances, no argument about repeats; each oracle memoises its own recursion over histories
and nothing else.  A class is a list of rows (tuples of labels ``0..k-1``), duplicates kept.

* :func:`sequence_oracle`: the value of the game on a fixed sequence known to the learner
  (Ben-David, Kushilevitz and Mansour 1997);
* :func:`best_order_oracle`, :func:`worst_order_oracle`: the least and largest over every
  permutation of the domain;
* :func:`transductive_oracle`: the largest over every sequence of ``n`` instances, repeats
  allowed (Hanneke, Moran and Shafer 2023);
* :func:`self_directed_oracle`: the learner picks an instance not yet shown at each round,
  until every instance was shown (Goldman and Sloan 1994);
* :func:`strategy_mistakes`: the most mistakes a self-directed strategy (as the searches
  give it) makes against every adaptive realizable labelling, read off the definition.

A learner's step is ``min over predictions of max over labels some consistent row gives``
of the mistake plus what follows; a randomized learner's, the matrix game of its mixed
prediction against the labels, solved exactly by support enumeration
(:func:`tests.game_oracle.support_enumeration`, itself a brute force).
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

from tests.game_oracle import support_enumeration

__all__ = ["best_order_oracle", "recursive_teaching_dimension_oracle", "self_directed_oracle", "sequence_oracle",
           "strategy_mistakes",
           "transductive_oracle", "worst_order_oracle"]


def _consistent(rows: list[tuple[int, ...]], history: tuple) -> list[int]:
    return [i for i, h in enumerate(rows) if all(h[x] == y for x, y in history)]


def _learner_step(outcomes: dict, k: int, randomized: bool):
    """The learner's best worst case when label ``y`` (a key) leads to ``outcomes[y]`` mistakes to come."""
    labels = sorted(outcomes)
    if not randomized:
        return min(max(int(y != guess) + outcomes[y] for y in labels) for guess in range(k))
    # rows: the learner's labels (any of the k); columns: the adversary's labels; a mixed row pays 1 - p_y + v_y
    A = [[Fraction(int(guess != y)) + outcomes[y] for y in labels] for guess in range(k)]
    return support_enumeration(A)


def sequence_oracle(rows: list[tuple[int, ...]], sequence, k: int = 2, randomized: bool = False):
    """The value of the game on ``sequence`` (column indices), known to the learner, labels adaptive."""
    sequence = tuple(sequence)

    @functools.lru_cache(maxsize=None)
    def v(history: tuple):
        t = len(history)
        if t == len(sequence):
            return 0
        x = sequence[t]
        alive = _consistent(rows, history)
        outcomes = {y: v(history + ((x, y),)) for y in {rows[i][x] for i in alive}}
        return _learner_step(outcomes, k, randomized)

    return v(())


def _columns(rows: list[tuple[int, ...]]) -> int:
    return len(rows[0]) if rows else 0


def best_order_oracle(rows: list[tuple[int, ...]], k: int = 2, randomized: bool = False):
    """The least value over every order of the domain."""
    return min(sequence_oracle(rows, p, k, randomized) for p in itertools.permutations(range(_columns(rows))))


def worst_order_oracle(rows: list[tuple[int, ...]], k: int = 2, randomized: bool = False):
    """The largest value over every order of the domain."""
    return max(sequence_oracle(rows, p, k, randomized) for p in itertools.permutations(range(_columns(rows))))


def transductive_oracle(rows: list[tuple[int, ...]], n: int, k: int = 2, randomized: bool = False):
    """The largest value over every sequence of ``n`` instances of the domain, repeats allowed (0 for an empty
    domain: no sequence to announce)."""
    m = _columns(rows)
    if m == 0 or n == 0:
        return 0
    return max(sequence_oracle(rows, s, k, randomized) for s in itertools.product(range(m), repeat=n))


def self_directed_oracle(rows: list[tuple[int, ...]], k: int = 2, randomized: bool = False):
    """The self-directed game: the learner picks each next instance among those not shown, until all were."""
    m = _columns(rows)

    @functools.lru_cache(maxsize=None)
    def v(history: frozenset):
        shown = {x for x, _ in history}
        left = [x for x in range(m) if x not in shown]
        if not left:
            return 0
        alive = _consistent(rows, tuple(history))
        best = None
        for x in left:
            outcomes = {y: v(history | {(x, y)}) for y in {rows[i][x] for i in alive}}
            value = _learner_step(outcomes, k, randomized)
            best = value if best is None else min(best, value)
        return best

    return v(frozenset())


def strategy_mistakes(rows: list[tuple[int, ...]], domain, strategy: dict):
    """The most (expected) mistakes the self-directed ``strategy`` makes, over every adaptive realizable
    labelling: at the set of rows consistent so far it asks ``strategy[set] = (instance, prediction)`` (a
    label, or a probability per label); once the rows left agree everywhere it predicts their labels.

    Raises AssertionError where the strategy is not a legal self-directed learner: a set it has no move for
    while the rows disagree somewhere, an instance shown twice or outside the domain, probabilities that
    are not a distribution.
    """
    index = {x: j for j, x in enumerate(domain)}

    def go(alive: frozenset, shown: frozenset):
        if len({rows[i] for i in alive}) <= 1:
            return 0  # the rows left agree everywhere: the learner predicts their labels
        assert alive in strategy, f"no move for the rows {sorted(alive)}"
        x, prediction = strategy[alive]
        assert x in index and index[x] not in shown, f"instance {x!r} outside the domain or shown twice"
        j = index[x]
        if isinstance(prediction, tuple):
            assert all(p >= 0 for p in prediction) and sum(prediction) == 1, prediction
        worst = None
        for y in sorted({rows[i][j] for i in alive}):
            cost = 1 - prediction[y] if isinstance(prediction, tuple) else int(prediction != y)
            value = cost + go(frozenset(i for i in alive if rows[i][j] == y), shown | {j})
            worst = value if worst is None else max(worst, value)
        return worst

    return go(frozenset(range(len(rows))), frozenset())


def recursive_teaching_dimension_oracle(rows: list[tuple[int, ...]]) -> int:
    """The recursive teaching dimension (Zilles, Lange, Holte and Zinkevich 2011) of the set of distinct rows, by
    brute force: peel off the concepts of least teaching dimension (the fewest instances on which no other concept
    left agrees with it) until none is left; the largest of those least dimensions.  For the database's relation
    ``M_sd >= RTD`` (Doliwa, Fan, Simon and Zilles 2014)."""
    left = sorted(set(rows))
    m = _columns(rows)

    def teaching(c, concepts):
        for size in range(m + 1):
            for S in itertools.combinations(range(m), size):
                if all(any(d[x] != c[x] for x in S) for d in concepts if d != c):
                    return size
        raise AssertionError("distinct concepts are told apart by every instance")  # pragma: no cover

    rtd = 0
    while left:
        dims = {c: teaching(c, left) for c in left}
        least = min(dims.values())
        rtd = max(rtd, least)
        left = [c for c in left if dims[c] != least]
    return rtd
