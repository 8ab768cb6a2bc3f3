"""Rounds per second of ``play`` on finite classes: the lean loop against the general one and two plain loops.

For Halving and Consistent against ``ObliviousCoin(labels="target")`` (realizable labels of a
random target, instances drawn uniformly) on a random 2000 x 24 and a random 10^6 x 64 class
(density 0.5), each row the median of ``--repeats`` (default 5) timed runs, the modes interleaved
so that they see the same load:

* ``play (lean)``: ``mistakebound.play`` as it is, whose lean loop plays a learner that declares
  its state is its version space (:func:`mistakebound.game.players.follows_version_space`);
  the adversary's ``commit`` and the transcript's totals included.
* ``play (general)``: the same game with the lean loop off
  (:func:`mistakebound.game.play.general_loop`: every round asks ``predict_one`` and tells
  ``learn_one``).  ``x general`` is its median over the mode's.
* ``bitmask loop``: the game in a plain Python loop over int bitsets (the class's
  ``column_masks``), on the same instances and labels drawn beforehand: no checks, no
  transcript, the predictions kept in a list.
* ``numpy loop``: the same in numpy: the version space as packed 64-bit words (an ``&`` and a
  popcount per vote), then as row indices once at most one row in 256 survives (the forms of
  :class:`~mistakebound.game.version_space.VersionSpace`, without its checks and sharing).

The transcripts of the two ``play`` modes are compared (their JSON, byte for byte) and the plain
loops' mistakes checked against them.  The class is built outside the timing, and each ``play``
mode plays one untimed game first (the class's bitsets and cached packings are then built, as in
every game after a class's first).

Run from the repository root::

    python -m benchmarks.play_speed              # 2000 x 24 (10^5 and 10^3 rounds) and 10^6 x 64 (10^3 rounds)
    python -m benchmarks.play_speed --smoke      # tiny sizes, one repeat
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import numpy as np

from benchmarks.suite import machine
from mistakebound import play
from mistakebound.adversaries.oblivious_coin import ObliviousCoin
from mistakebound.game import classes
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.play import general_loop
from mistakebound.game.transcript_json import transcript_to_json
from mistakebound.learners.consistent import Consistent
from mistakebound.learners.halving import Halving

__all__ = ["CASES", "main", "measure", "bitmask_loop", "numpy_loop"]

SEED = 20261129

#: (class name, builder, rounds) of the full run.
CASES: list[tuple[str, Callable[[], HypothesisClass], int]] = [
    ("random(2000, 24, 0.5)", lambda: classes.random(2000, 24, 0.5, seed=0), 100_000),
    ("random(2000, 24, 0.5)", lambda: classes.random(2000, 24, 0.5, seed=0), 1_000),
    ("random(10^6, 64, 0.5)", lambda: classes.random(10**6, 64, 0.5, seed=0), 1_000),
]

SMOKE = [("random(200, 10, 0.5)", lambda: classes.random(200, 10, 0.5, seed=0), 500)]

LEARNERS = (Halving, Consistent)


def _committed(H: HypothesisClass, rounds: int) -> tuple[np.ndarray, np.ndarray]:
    """The columns and labels ``ObliviousCoin(labels="target")`` commits in the timed games (same seed)."""
    _, adversary_seq = np.random.SeedSequence(SEED).spawn(2)  # as play() splits its seed
    pairs = ObliviousCoin(labels="target").commit(H, rounds, np.random.default_rng(adversary_seq), True)
    return (np.array([H.index_of(x) for x, _ in pairs], dtype=np.int64),
            np.array([y for _, y in pairs], dtype=np.int64))


def bitmask_loop(H: HypothesisClass, learner: type, cols: np.ndarray, ys: np.ndarray) -> list[int]:
    """The predictions of Halving or Consistent in a plain loop over int bitsets (no checks, no transcript).

    >>> H = classes.thresholds(3)
    >>> bitmask_loop(H, Halving, np.array([1, 2]), np.array([1, 0]))
    [1, 1]
    """
    masks = H.column_masks
    V = H.full_mask
    out = []
    halving = learner is Halving
    for j, y in zip(cols.tolist(), ys.tolist()):
        ones = V & masks[j]
        if halving:
            p = int(2 * ones.bit_count() >= V.bit_count())
        else:
            p = 1 if V == 0 else int(ones & (V & -V) != 0)
        out.append(p)
        V = ones if y else V ^ ones
    return out


#: Per class (by id, with the class kept alive): its columns packed as rows of 64-bit words (built untimed).
_PACKED: dict[int, tuple] = {}


def _packed(H: HypothesisClass) -> np.ndarray:
    entry = _PACKED.get(id(H))
    if entry is None or entry[0] is not H:
        n_words = (H.n_hypotheses + 63) // 64
        packed = np.zeros((H.n_instances, 8 * n_words), dtype=np.uint8)
        packed[:, : (H.n_hypotheses + 7) // 8] = np.packbits(H.matrix.T, axis=1, bitorder="little")
        entry = _PACKED[id(H)] = (H, packed.view(np.uint64))
    return entry[1]


def numpy_loop(H: HypothesisClass, learner: type, cols: np.ndarray, ys: np.ndarray) -> list[int]:
    """The same predictions by numpy: the version space as packed words (an ``&`` and a popcount per
    vote), then, once at most one row in 256 survives, as row indices reading the table.

    >>> H = classes.thresholds(3)
    >>> numpy_loop(H, Consistent, np.array([1, 2]), np.array([1, 0]))  # the first row of {0, 1, 2, 3}, then of {2, 3}
    [0, 0]
    """
    words = _packed(H)
    n, M = H.n_hypotheses, H.matrix
    V = np.zeros(words.shape[1], dtype=np.uint64)
    V.view(np.uint8)[: (n + 7) // 8] = np.packbits(np.ones(n, dtype=np.uint8), bitorder="little")
    size, rows = n, None
    out = []
    halving = learner is Halving
    for j, y in zip(cols.tolist(), ys.tolist()):
        if rows is None:
            ones = V & words[j]
            count = int(np.bitwise_count(ones).sum())
            if halving:
                p = int(2 * count >= size)
            elif size:
                w = int(np.flatnonzero(V)[0])
                p = int(int(ones[w]) & (int(V[w]) & -int(V[w])) != 0)
            else:
                p = 1
            V = ones if y else V ^ ones
            size = count if y else size - count
            if 256 * size <= n:
                rows = np.flatnonzero(np.unpackbits(V.view(np.uint8), bitorder="little", count=n))
        else:
            col = M[rows, j]
            if halving:
                p = int(2 * int(np.count_nonzero(col)) >= rows.size)
            else:
                p = int(col[0]) if rows.size else 1
            rows = rows[col == y]
        out.append(p)
    return out


def _game(H: HypothesisClass, learner: type, rounds: int):
    T = play(learner(H), ObliviousCoin(labels="target"), H, rounds=rounds, seed=SEED)
    T.mistakes  # the totals are part of the timing
    return T


def measure(H: HypothesisClass, learner: type, rounds: int, repeats: int) -> dict:
    """Median seconds of each mode over ``repeats`` interleaved runs, and the checks of their agreement."""
    cols, ys = _committed(H, rounds)
    modes: dict[str, Callable[[], object]] = {
        "play (lean)": lambda: _game(H, learner, rounds),
        "play (general)": lambda: _general(H, learner, rounds),
        "bitmask loop": lambda: bitmask_loop(H, learner, cols, ys),
        "numpy loop": lambda: numpy_loop(H, learner, cols, ys),
    }
    results = {name: run() for name, run in modes.items()}  # untimed: caches built, answers compared
    lean, general = results["play (lean)"], results["play (general)"]
    if transcript_to_json(lean) != transcript_to_json(general):
        raise RuntimeError(f"{learner.__name__}: the lean loop's transcript differs from the general loop's")
    for name in ("bitmask loop", "numpy loop"):
        if sum(p != y for p, y in zip(results[name], ys.tolist())) != lean.mistakes:
            raise RuntimeError(f"{learner.__name__}: the {name} counts other mistakes than play")
    seconds: dict[str, list[float]] = {name: [] for name in modes}
    for _ in range(repeats):
        for name, run in modes.items():
            start = time.perf_counter()
            run()
            seconds[name].append(time.perf_counter() - start)
    return {name: statistics.median(s) for name, s in seconds.items()}


def _general(H: HypothesisClass, learner: type, rounds: int):
    with general_loop():
        return _game(H, learner, rounds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one repeat")
    args = parser.parse_args(argv)
    cases, repeats = (SMOKE, 1) if args.smoke else (CASES, args.repeats)
    m = machine()
    print(f"# {m['cpu']} ({m['cpu_count']} CPUs), Python {m['python']}, load {m['load_average']}, {m['date']}")
    print(f"# median of {repeats} interleaved runs; x general = play (general) seconds / this mode's (same run)")
    print(f"{'class':<24} {'rounds':>8} {'learner':<11} {'mode':<15} {'seconds':>9} {'rounds/s':>12} {'x general':>9}")
    for name, build, rounds in cases:
        H = build()
        for learner in LEARNERS:
            r = measure(H, learner, rounds, repeats)
            for mode, s in r.items():
                print(f"{name:<24} {rounds:>8,} {learner.__name__:<11} {mode:<15} {s:>9.4f} {rounds / s:>12,.0f} "
                      f"{r['play (general)'] / s:>9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
