"""The oracle of the game's value under other rules: brute force, written from the definitions alone.

It shares no code with :mod:`mistakebound.theory.game_values`: its state is the tuple of
every hypothesis's mistakes (duplicates kept, no bitsets, no pruning, no bounds), and the
adversary's outcomes are enumerated from the labels it could give.  It lives in a module of
its own so that tests of several files can import it (a module of hypothesis tests imported
inside a running one would nest them).
"""

from __future__ import annotations

import functools
import math

__all__ = ["oracle"]


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
