"""The oracle of the game's value under other rules: brute force, written from the definitions alone.

It shares no code with :mod:`mistakebound.theory.game_values`: its state is the tuple of
every hypothesis's mistakes (duplicates kept, no bitsets, no pruning, no bounds), and the
adversary's outcomes are enumerated from the labels it could give.  It lives in a module of
its own so that tests of several files can import it (a module of hypothesis tests imported
inside a running one would nest them).
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

__all__ = ["oracle", "randomized_oracle"]


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

