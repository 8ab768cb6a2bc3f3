"""Seconds of the exact randomized-Littlestone search (:class:`~mistakebound.theory.randomized_ldim.RLdimSearch`).

For each case: the value ``RL(H)``, the version spaces expanded (``nodes``) and the median
seconds of ``--repeats`` complete searches, each on a fresh search (nothing memoised).
``--time-limit`` caps each run (a capped case prints ``>`` its limit and is not repeated):
the goals of issue 15 are ``intervals(24)`` under 10 s and ``power_set(16)`` under 1 s.

Run from the repository root::

    python -m benchmarks.rldim_speed                 # the full cases, 3 repeats
    python -m benchmarks.rldim_speed --smoke         # tiny sizes, one repeat
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

from benchmarks.suite import machine
from mistakebound.game import classes
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.randomized_ldim import RLdimSearch

__all__ = ["CASES", "SMOKE", "main", "measure"]

CASES: list[tuple[str, Callable[[], HypothesisClass]]] = [
    *[(f"intervals({n})", lambda n=n: classes.intervals(n)) for n in (8, 12, 16, 20, 24)],
    *[(f"power_set({d})", lambda d=d: classes.power_set(d)) for d in (8, 10, 12, 14, 16)],
    ("singletons(64)", lambda: classes.singletons(64)),
    ("random(60, 12, 0.5, seed 1)", lambda: classes.random(60, 12, 0.5, 1)),
]
SMOKE = [("intervals(6)", lambda: classes.intervals(6)), ("power_set(4)", lambda: classes.power_set(4)),
         ("singletons(8)", lambda: classes.singletons(8))]


def measure(build: Callable[[], HypothesisClass], repeats: int, time_limit: float | None = None) -> dict:
    """The value, nodes and median seconds of ``repeats`` searches (``seconds`` None if one hit ``time_limit``).

    Examples
    --------
    >>> r = measure(lambda: classes.singletons(4), 1)
    >>> r["value"], r["nodes"] > 0, r["seconds"] >= 0
    (Fraction(7, 8), True, True)
    """
    H = build()
    seconds, nodes, value = [], [], None
    for _ in range(repeats):
        start = time.perf_counter()
        search = RLdimSearch(H, time_limit=time_limit)
        bounds = search.bounds()
        elapsed = time.perf_counter() - start
        if not bounds.exact:
            return {"value": None, "nodes": search.nodes, "seconds": None, "bounds": bounds}
        seconds.append(elapsed)
        nodes.append(search.nodes)
        value = bounds.value
    return {"value": value, "nodes": int(statistics.median(nodes)), "seconds": statistics.median(seconds)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=120.0, help="cap of one run, seconds")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one repeat")
    parser.add_argument("--only", default=None, help="run only the cases whose name contains this text")
    args = parser.parse_args(argv)
    cases, repeats = (SMOKE, 1) if args.smoke else (CASES, args.repeats)
    if args.only:
        cases = [c for c in cases if args.only in c[0]]
    m = machine()
    print(f"# {m['cpu']} ({m['cpu_count']} CPUs), Python {m['python']}, load {m['load_average']}, {m['date']}")
    print(f"# median of {repeats} runs, each capped at {args.time_limit:g} s")
    print(f"{'case':<30} {'RL':>22} {'nodes':>10} {'seconds':>9}")
    for name, build in cases:
        r = measure(build, repeats, args.time_limit)
        if r["seconds"] is None:
            print(f"{name:<30} {'?':>22} {r['nodes']:>10,} {'>' + format(args.time_limit, 'g'):>9}", flush=True)
        else:
            print(f"{name:<30} {str(r['value']):>22} {r['nodes']:>10,} {r['seconds']:>9.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
