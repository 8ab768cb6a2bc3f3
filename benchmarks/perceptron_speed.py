"""Perceptron rounds per second in d = 100: one game through the engine against the batched mode.

Four rows, each the median of ``--repeats`` (default 5) timed runs:

* ``play``: ``mistakebound.play(Perceptron(), SeparableStream(d, gamma), ...)``, one
  game; rounds per second, stream generation, the engine's checks and reading the
  transcript's totals included.
* ``play, stream drawn beforehand``: the same game with the adversary's stream drawn
  outside the timing and replayed by an oblivious adversary: the engine's and the
  learner's cost per round, without the adversary's random numbers.
* ``batch``: :func:`mistakebound.learners.batched.play_perceptron_batch` with
  ``--games`` games (one per seed) against the same stream; rounds x games per second,
  stream generation (one ``commit`` per seed) included.
* ``batch kernel``: :func:`mistakebound.learners.batched.perceptron_batch` on the same
  instances, generated beforehand; rounds x games per second of the game alone.

Run from the repository root::

    python -m benchmarks.perceptron_speed            # d = 100, 1000 games
    python -m benchmarks.perceptron_speed --smoke    # tiny sizes, a few seconds
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from benchmarks.suite import machine, median_seconds
from mistakebound import play
from mistakebound.adversaries.separable_stream import SeparableStream
from mistakebound.learners.batched import perceptron_batch, play_perceptron_batch
from mistakebound.learners.perceptron import Perceptron
from mistakebound.game.players import ObliviousAdversary
from mistakebound.game.spaces import LinearSpace

__all__ = ["main", "measure"]

SEED = 20240601


class _Replay(ObliviousAdversary):
    """Replays a stream committed beforehand, with its comparator as the certificate."""

    def __init__(self, pairs, comparator):
        self.pairs, self.comparator = pairs, comparator

    def commit(self, H, rounds, rng, realizable):
        return self.pairs[:rounds]

    def certificate(self, state):
        return self.comparator


def _read(T):
    """The game's totals are part of the timing (a transcript builds its rounds only when read)."""
    T.mistakes, T.expected_mistakes
    return T


def measure(*, d: int = 100, gamma: float = 0.1, single_rounds: int = 20000, games: int = 1000,
            batch_rounds: int = 200, repeats: int = 5) -> list[dict]:
    """Time the four modes; each row: mode, games, rounds, median seconds, rounds per second, mistakes."""
    space = LinearSpace(d, R=1.0, gamma=gamma)
    stream = lambda: SeparableStream(d, gamma)  # noqa: E731
    seeds = list(range(SEED, SEED + games))

    single_s, T = median_seconds(
        lambda: _read(play(Perceptron(), stream(), space, rounds=single_rounds, seed=SEED)), repeats)
    drawn = stream()
    pairs = drawn.commit(space, single_rounds, np.random.default_rng(SEED), True)
    replay_s, R = median_seconds(
        lambda: _read(play(Perceptron(), _Replay(pairs, drawn.comparator), space, rounds=single_rounds, seed=SEED)),
        repeats)
    batch_s, out = median_seconds(lambda: play_perceptron_batch(space, stream, seeds=seeds, rounds=batch_rounds), repeats)

    # the same instances for the kernel alone, generated outside the timing
    X = np.zeros((batch_rounds, games, d))
    y = np.zeros((batch_rounds, games), dtype=np.int64)
    for j, seed in enumerate(seeds):
        pairs = stream().commit(space, batch_rounds, np.random.default_rng(np.random.SeedSequence(seed).spawn(2)[1]), True)
        X[:, j] = [x for x, _ in pairs]
        y[:, j] = [label for _, label in pairs]
    kernel_s, kernel = median_seconds(lambda: perceptron_batch(X, y), repeats)
    if kernel.mistakes.tolist() != out.mistakes.tolist():
        raise AssertionError("the kernel and play_perceptron_batch disagree on the same instances")

    return [
        {"mode": "play (1 game)", "games": 1, "rounds": single_rounds, "seconds": single_s,
         "per_second": single_rounds / single_s, "mistakes": f"{T.mistakes}"},
        {"mode": "play, stream drawn before", "games": 1, "rounds": single_rounds, "seconds": replay_s,
         "per_second": single_rounds / replay_s, "mistakes": f"{R.mistakes}"},
        {"mode": "batch (generation + play)", "games": games, "rounds": batch_rounds, "seconds": batch_s,
         "per_second": games * batch_rounds / batch_s, "mistakes": f"max {int(out.mistakes.max())}"},
        {"mode": "batch kernel (play only)", "games": games, "rounds": batch_rounds, "seconds": kernel_s,
         "per_second": games * batch_rounds / kernel_s, "mistakes": f"max {int(kernel.mistakes.max())}"},
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.perceptron_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--d", type=int, default=100)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: checks the code runs, measures nothing")
    args = parser.parse_args(argv)
    if args.smoke:
        rows = measure(d=10, single_rounds=100, games=20, batch_rounds=20, repeats=1)
    else:
        rows = measure(d=args.d, games=args.games, repeats=args.repeats)
    m = machine()
    print(f"machine: {m['cpu']} | {m['cpu_count']} cpus | {m['memory_gib']} GiB | {m['uname']} | "
          f"python {m['python']} | numpy {m['numpy']} | {m['date']}")
    print(f"d = {args.d if not args.smoke else 10}, gamma = 0.1, R = 1; medians of {1 if args.smoke else args.repeats}")
    header = f"{'mode':<28}{'games':>7}{'rounds':>8}{'median s':>11}{'game-rounds/s':>16}  mistakes"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['mode']:<28}{r['games']:>7}{r['rounds']:>8}{r['seconds']:>11.4f}{r['per_second']:>16,.0f}  {r['mistakes']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
