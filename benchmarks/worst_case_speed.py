"""Positions per second of the exact worst-case search, over learners and classes.

The README quotes the speed of :func:`mistakebound.worst_case_mistakes` as positions
(memoised game states) searched per second.  The rate depends on the learner (how much a
``predict_one``/``learn_one`` costs and how its ``state_key`` merges positions) and on the
class, so this script measures a spread of cases and reports, for each, the median of
``--repeats`` timed runs of the whole search: positions, seconds, positions per second.

Each case runs in up to four modes, in the same run so that they compare: ``plain`` (the
search through ``predict_one``/``snapshot``, ``fast=False``: the "before"), ``fast`` (the
learner's ``version_space_policy``, positions keyed by bitsets, ``symmetry=False``),
``symmetry`` (the fast path with positions merged up to the learner's declared symmetries,
``symmetry=True``) and ``default`` (the search's own choice between the last two,
``symmetry=None``: see :func:`mistakebound.theory.symmetry.merging_pays`).  ``x plain`` is the
plain mode's median seconds over the mode's, ``x fast`` the fast mode's; the ``default`` row
also says which way the choice went (``merged`` or not).  A mode that would take far too long
is left out of a case (``-``), and a run that hits ``--time-limit`` is reported with its
proven bounds instead of a value.

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
from mistakebound.learners.optimal_randomized import OptimalRandomizedLearner
from mistakebound.learners.soa import SOA
from mistakebound.theory.worst_case import worst_case_mistakes

__all__ = ["CASES", "MODES", "main", "measure"]

#: The search options of each mode.
MODES = {"plain": {"fast": False}, "fast": {"symmetry": False}, "symmetry": {"symmetry": True}, "default": {}}
ALL = ("plain", "fast", "symmetry", "default")
#: The modes of cases where the plain and fast searches take too long.
MERGED = ("symmetry", "default")

#: (name, class builder, learner builder, horizon, modes); the horizon is None for realizable
#: searches that end by themselves (the version space shrinks on every mistake).
CASES: list[tuple[str, Callable[[], HypothesisClass], Callable, int | None, tuple]] = [
    ("SOA singletons(12)", lambda: classes.singletons(12), SOA, None, ALL),
    ("Halving singletons(10)", lambda: classes.singletons(10), Halving, None, ALL),
    ("Halving singletons(12)", lambda: classes.singletons(12), Halving, None, ALL),
    ("Halving singletons(14)", lambda: classes.singletons(14), Halving, None, ALL),
    ("Halving singletons(20)", lambda: classes.singletons(20), Halving, None, MERGED),
    ("Halving singletons(64)", lambda: classes.singletons(64), Halving, None, MERGED),
    ("Consistent singletons(10)", lambda: classes.singletons(10), Consistent, None, ALL),
    ("SOA thresholds(31)", lambda: classes.thresholds(31), SOA, None, ALL),
    ("Halving thresholds(63)", lambda: classes.thresholds(63), Halving, None, ALL),
    ("Halving thresholds(255)", lambda: classes.thresholds(255), Halving, None, ("fast",) + MERGED),
    ("Halving thresholds(1023)", lambda: classes.thresholds(1023), Halving, None, ("fast",) + MERGED),
    ("Halving thresholds(4095)", lambda: classes.thresholds(4095), Halving, None, MERGED),
    ("Consistent thresholds(31)", lambda: classes.thresholds(31), Consistent, None, ALL),
    ("SOA intervals(8)", lambda: classes.intervals(8), SOA, None, ALL),
    ("SOA monotone_disjunctions(4)", lambda: classes.monotone_disjunctions(4), SOA, None, ALL),
    ("Halving power_set(4)", lambda: classes.power_set(4), Halving, None, ALL),
    ("SOA random(64, 8, 0.5, seed 1)", lambda: classes.random(64, 8, 0.5, 1), SOA, None, ALL),
    ("Consistent random(64, 8, 0.5, seed 1)", lambda: classes.random(64, 8, 0.5, 1), Consistent, None, ALL),
    ("Halving random(256, 10, 0.5, seed 2)", lambda: classes.random(256, 10, 0.5, 2), Halving, None, ALL),
    ("OptimalRandomized singletons(8)", lambda: classes.singletons(8), OptimalRandomizedLearner, None, ALL),
    ("ExpertsFromClass thresholds(3), horizon 6", lambda: classes.thresholds(3), lambda H: ExpertsFromClass(H, 6), 6,
     ("plain",)),
]

SMOKE = [
    ("SOA singletons(5)", lambda: classes.singletons(5), SOA, None, ALL),
    ("Halving thresholds(7)", lambda: classes.thresholds(7), Halving, None, ALL),
    ("Halving singletons(9)", lambda: classes.singletons(9), Halving, None, ALL),  # past the probe: merged
]


def measure(build: Callable[[], HypothesisClass], learner: Callable, horizon: int | None,
            repeats: int, *, time_limit: float | None = None, **options) -> dict:
    """The median seconds and positions of ``repeats`` complete searches (``options``: the search's).

    Without ``time_limit`` a search must finish (exact); with one, a search that stops is
    reported as such (``status``, ``lower``, ``upper``) after its first run.
    """
    H = build()
    seconds, nodes = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        W = worst_case_mistakes(learner(H), H, horizon=horizon, time_limit=time_limit, **options)
        seconds.append(time.perf_counter() - start)
        nodes.append(W.nodes)
        if not W.exact:
            if time_limit is None:
                raise RuntimeError(f"the search stopped early ({W.status}); the rate would not be comparable")
            return {"status": W.status, "lower": W.lower, "upper": W.upper, "positions": W.nodes,
                    "seconds": seconds[0], "positions_per_second": W.nodes / seconds[0]}
    median = statistics.median(seconds)
    return {"status": "exact", "value": W.value, "positions": int(statistics.median(nodes)), "seconds": median,
            "positions_per_second": statistics.median(nodes) / median, "line": W.line}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one repeat")
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds per search (default 600)")
    parser.add_argument("--only", default="", help="run only the cases whose name contains this text")
    args = parser.parse_args(argv)
    cases, repeats = (SMOKE, 1) if args.smoke else (CASES, args.repeats)
    cases = [c for c in cases if args.only in c[0]]
    m = machine()
    print(f"# {m['cpu']} ({m['cpu_count']} CPUs), Python {m['python']}, load {m['load_average']}, {m['date']}")
    print(f"# median of {repeats} runs; x plain, x fast = that mode's seconds / this mode's seconds (same run)")
    print(f"{'case':<42} {'mode':<8} {'value':>5} {'positions':>10} {'seconds':>9} {'positions/s':>12} "
          f"{'x plain':>8} {'x fast':>7}")
    for name, build, learner, horizon, modes in cases:
        done: dict = {}
        for mode in ALL:
            if mode not in modes:
                print(f"{name:<42} {mode:<8} {'-':>5}")
                continue
            r = done[mode] = measure(build, learner, horizon, repeats, time_limit=args.time_limit, **MODES[mode])
            print(_row(name, mode, r, done))
    return 0


def _row(name: str, mode: str, r: dict, done: dict) -> str:
    """One line of the table: ``r`` measured in ``mode``, against the modes ``done`` before it in the same run."""
    exact = r["status"] == "exact"
    value = number_text(r["value"]) if exact else f"{r['status']} [{number_text(r['lower'])}, {number_text(r['upper'])}]"
    ratios = []
    for other in ("plain", "fast"):
        o = done.get(other)
        ok = o is not None and o is not r and o["status"] == "exact" and exact
        ratios.append(f"{o['seconds'] / r['seconds']:.1f}" if ok else "-")
    note = ""
    if mode == "default" and exact:
        merged = done.get("symmetry")
        if merged is not None and merged["status"] == "exact" and merged["line"] != r["line"]:
            raise RuntimeError(f"{name}: the default's line differs from symmetry=True's")
        fast = done.get("fast")
        note = "  (not merged)" if fast is not None and fast.get("positions") == r["positions"] else "  (merged)"
    return (f"{name:<42} {mode:<8} {value:>5} {r['positions']:>10,} {r['seconds']:>9.3f} "
            f"{r['positions_per_second']:>12,.0f} {ratios[0]:>8} {ratios[1]:>7}{note}")


if __name__ == "__main__":
    raise SystemExit(main())
