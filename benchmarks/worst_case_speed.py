"""Positions per second of the exact worst-case search, over learners and classes.

The README quotes the speed of :func:`mistakebound.worst_case_mistakes` as positions
(memoised game states) searched per second.  The rate depends on the learner (how much a
``predict_one``/``learn_one`` costs and how its ``state_key`` merges positions) and on the
class, so this script measures a spread of cases and reports, for each, the median of
``--repeats`` timed runs of the whole search: positions, seconds, positions per second.

Run from the repository root::

    python -m benchmarks.worst_case_speed              # the full cases, 5 repeats
    python -m benchmarks.worst_case_speed --smoke      # tiny sizes, one repeat
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

from benchmarks.suite import machine
from mistakebound.foundations.text import number_text
from mistakebound.game import classes
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.learners.consistent import Consistent
from mistakebound.learners.experts_from_class import ExpertsFromClass
from mistakebound.learners.halving import Halving
from mistakebound.learners.soa import SOA
from mistakebound.theory.worst_case import worst_case_mistakes

__all__ = ["CASES", "main", "measure"]

#: (name, class builder, learner builder, horizon); the horizon is None for realizable searches
#: that end by themselves (the version space shrinks on every mistake).
CASES: list[tuple[str, Callable[[], HypothesisClass], Callable, int | None]] = [
    ("SOA singletons(12)", lambda: classes.singletons(12), SOA, None),
    ("Halving singletons(12)", lambda: classes.singletons(12), Halving, None),
    ("Consistent singletons(10)", lambda: classes.singletons(10), Consistent, None),
    ("SOA thresholds(31)", lambda: classes.thresholds(31), SOA, None),
    ("Halving power_set(4)", lambda: classes.power_set(4), Halving, None),
    ("SOA random(64, 8, 0.5, seed 1)", lambda: classes.random(64, 8, 0.5, 1), SOA, None),
    ("ExpertsFromClass thresholds(3), horizon 6", lambda: classes.thresholds(3), lambda H: ExpertsFromClass(H, 6), 6),
]

SMOKE = [
    ("SOA singletons(5)", lambda: classes.singletons(5), SOA, None),
    ("Halving thresholds(7)", lambda: classes.thresholds(7), Halving, None),
]


def measure(build: Callable[[], HypothesisClass], learner: Callable, horizon: int | None,
            repeats: int) -> dict:
    """The median seconds and positions of ``repeats`` complete searches (exact results only)."""
    H = build()
    seconds, nodes = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        W = worst_case_mistakes(learner(H), H, horizon=horizon)
        seconds.append(time.perf_counter() - start)
        nodes.append(W.nodes)
        if not W.exact:
            raise RuntimeError(f"the search stopped early ({W.status}); the rate would not be comparable")
    median = statistics.median(seconds)
    return {"value": W.value, "positions": int(statistics.median(nodes)), "seconds": median,
            "positions_per_second": statistics.median(nodes) / median}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one repeat")
    args = parser.parse_args(argv)
    cases, repeats = (SMOKE, 1) if args.smoke else (CASES, args.repeats)
    m = machine()
    print(f"# {m['cpu']} ({m['cpu_count']} CPUs), Python {m['python']}, load {m['load_average']}, {m['date']}")
    print(f"# median of {repeats} runs")
    print(f"{'case':<44} {'value':>5} {'positions':>10} {'seconds':>9} {'positions/s':>12}")
    for name, build, learner, horizon in cases:
        r = measure(build, learner, horizon, repeats)
        print(f"{name:<44} {number_text(r['value']):>5} {r['positions']:>10,} {r['seconds']:>9.3f} "
              f"{r['positions_per_second']:>12,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
