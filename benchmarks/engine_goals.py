"""Every performance goal of issue 26, measured in one run on one machine under one load.

One table, ``| goal | measured | target | met |``, a row per goal, each measurement the
median of ``--repeats`` runs (default 3) and every ratio a same-run ratio.  The measuring is
the other benchmark modules' (one mechanism, one place); this module only chooses the cases
of the goals, calls them, and compares with the targets:

1. ``power_set(16)-1`` rows shuffled and columns reversed against its natural order, each run
   in a fresh process (:func:`benchmarks.kernel_shapes.in_fresh_process`): within 2x;
2. the full cube ``2^18`` with its columns reversed (the database's order), in a fresh process:
   under 1 s and under 500 MB of peak resident memory;
3. the memo's peak bytes on ``random(128000, 30, 0.5, 0)`` as the kernel reports them: under 500 MB;
4. ``random:100000,40,0.3,1``: the serial compiled search under 8 s, on the wall clock and in
   CPU time (what the wall clock would say with a free core); two threads of it
   (:func:`benchmarks.parallel_speedup.measure_compiled`) at least 1.6x faster than one, on
   the wall clock and CPU-bound (serial CPU over the busiest thread's CPU);
5. a thread ticking every 10 ms keeps at least 80% of its ticks during a compiled search
   (the ``ticker`` case of :mod:`benchmarks.kernel_shapes`);
6. the shattered tree and the certificate of ``thresholds(4095)``, ``intervals(128)`` and
   ``random(5000, 30, 0.3, 0)`` (:data:`benchmarks.kernel_trees.CASES`) within 2x of the value
   alone, in process CPU seconds;
7. SOA's worst-case search on ``singletons(12)`` (fast mode) at least 150,000 positions/s, and
   Halving's on ``singletons(64)`` (default options) under 1 s (:func:`benchmarks.worst_case_speed.measure`);
8. ``littlestone_dimension(classes.thresholds(15))`` under 3 us of CPU per call
   (:func:`benchmarks.call_cost.measure`, in a process of its own);
9. ``play``: Halving against ``ObliviousCoin(labels="target")`` at least 1,000,000 rounds/s on
   a random 2000 x 24 class, and within 1.3x of the faster plain loop (bitmask or numpy) on
   10^6 x 64 (:func:`benchmarks.play_speed.measure`);
10. the compiled search against the pruned alpha-beta search and the textbook recursion on the
    ``ldim`` and ``hard`` cases of the suite (:func:`benchmarks.suite.measure`, the baselines run
    once each in a child process killed at ``--baseline-cap``): the smallest and largest ratio
    baseline seconds / ours, with the case.  A baseline killed at the cap gives a lower bound
    (``>``); as in the suite, past a size of a family where a baseline was killed, that
    baseline is not run on the larger sizes of the family.

``--smoke`` runs tiny sizes (one repeat, a 2 s cap): it checks that every row is produced, and
measures nothing.  ``--json OUT`` writes every number.

Run from the repository root::

    python -m benchmarks.engine_goals                  # about 10 minutes
    python -m benchmarks.engine_goals --smoke          # tiny sizes, seconds
    python -m benchmarks.engine_goals --repeats 5 --baseline-cap 60 --json goals.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from attrs import evolve

from benchmarks import call_cost, kernel_shapes, kernel_trees, parallel_speedup, play_speed, suite, worst_case_speed
from benchmarks.suite import machine, median_times
from mistakebound.game import classes
from mistakebound.learners.halving import Halving
from mistakebound.learners.soa import SOA
from mistakebound.theory.littlestone import littlestone_dimension, shattered_tree

__all__ = ["GOALS", "main", "measure_goals"]

#: The goal rows in order: (key, what is measured, unit, target text).
GOALS = (
    ("1a", "power_set(16)-1 rows shuffled / natural order (wall)", "x", "<= 2"),
    ("1b", "power_set(16)-1 columns reversed / natural order (wall)", "x", "<= 2"),
    ("2a", "cube 2^18, columns reversed: seconds", "s", "< 1"),
    ("2b", "cube 2^18, columns reversed: peak resident MB", "MB", "< 500"),
    ("3", "memo peak MB on random(128000, 30, 0.5, 0)", "MB", "< 500"),
    ("4a", "random:100000,40,0.3,1: serial compiled search, wall seconds", "s", "< 8"),
    ("4b", "random:100000,40,0.3,1: serial compiled search, CPU seconds", "s", "< 8"),
    ("4c", "random:100000,40,0.3,1: 2 threads, wall speedup", "x", ">= 1.6"),
    ("4d", "random:100000,40,0.3,1: 2 threads, CPU-bound speedup", "x", ">= 1.6"),
    ("5", "10 ms ticker: ticks kept during a compiled search", "%", ">= 80"),
    ("6a", "thresholds(4095): max(tree, certificate) / value (CPU)", "x", "<= 2"),
    ("6b", "intervals(128): max(tree, certificate) / value (CPU)", "x", "<= 2"),
    ("6c", "random(5000, 30, 0.3, 0): max(tree, certificate) / value (CPU)", "x", "<= 2"),
    ("7a", "SOA worst case, singletons(12), fast mode: positions/s", "/s", ">= 150000"),
    ("7b", "Halving worst case, singletons(64), default options: seconds", "s", "< 1"),
    ("8", "littlestone_dimension(thresholds(15)): CPU us per call", "us", "< 3"),
    ("9a", "play Halving vs ObliviousCoin, random 2000x24: rounds/s", "/s", ">= 1000000"),
    ("9b", "play Halving, random 10^6x64: play / best plain loop (wall)", "x", "<= 1.3"),
    ("10a", "alpha-beta s / ours s, smallest over the suite's Ldim cases", "x", ">= 1"),
    ("10b", "alpha-beta s / ours s, largest over the suite's Ldim cases", "x", ">= 1"),
    ("10c", "textbook s / ours s, smallest over the suite's Ldim cases", "x", ">= 1"),
    ("10d", "textbook s / ours s, largest over the suite's Ldim cases", "x", ">= 1"),
)

#: The sizes of each goal, full and ``--smoke``.
SIZES = {
    False: {"power_set": ("power_set(16)-1", "power_set(16)-1 rows shuffled", "power_set(16)-1 columns reversed"),
            "cube": "cube 2^18 columns reversed", "memo": "random 128000x30", "ticker": "ticker",
            "threads": parallel_speedup.COMPILED_CASES[:1], "trees": kernel_trees.CASES,
            "soa": lambda: classes.singletons(12), "halving": lambda: classes.singletons(64),
            "calls": 20_000, "play": (lambda: classes.random(2000, 24, 0.5, seed=0), 100_000),
            "play_big": (lambda: classes.random(10**6, 64, 0.5, seed=0), 1_000)},
    True: {"power_set": ("power_set(10)-1", "power_set(10)-1 rows shuffled", "power_set(10)-1 columns reversed"),
           "cube": "cube 2^10 columns reversed", "memo": "random 2000x30", "ticker": "ticker",
           "threads": parallel_speedup.SMOKE_COMPILED_CASES[:1], "trees": kernel_trees.SMOKE[:1] * 3,
           "soa": lambda: classes.singletons(5), "halving": lambda: classes.singletons(9),
           "calls": 200, "play": (lambda: classes.random(200, 10, 0.5, seed=0), 500),
           "play_big": (lambda: classes.random(200, 10, 0.5, seed=0), 500)},
}


def _shapes(name: str, smoke: bool, repeats: int) -> dict:
    """The medians of ``repeats`` runs of a :mod:`benchmarks.kernel_shapes` case, each in a fresh process."""
    runs = [kernel_shapes.in_fresh_process(name, smoke) for _ in range(repeats)]
    return {k: statistics.median(r[k] for r in runs) for k in runs[0] if isinstance(runs[0][k], (int, float))}


def _trees(H, repeats: int) -> dict:
    """CPU medians of the value, the shattered tree and the certificate of ``H``, and their ratios."""
    value = median_times(lambda: littlestone_dimension(H), repeats, warm=True)[1]
    tree = median_times(lambda: shattered_tree(H), repeats, warm=True)[1]
    cert = median_times(lambda: kernel_trees.certificate_of(H), repeats, warm=True)[1]
    return {"value_cpu_s": value, "tree_cpu_s": tree, "certificate_cpu_s": cert,
            "tree/value": tree / value, "certificate/value": cert / value}


def _extreme(records: list[dict], key: str, smallest: bool) -> dict:
    """The smallest (or largest) ratio of baseline ``key`` (``ratio``: textbook, ``alphabeta_ratio``) over the records.

    A baseline killed at the cap counts with its lower bound, and the result says so (``bound``).
    """
    found, killed = [], 0
    for r in records:
        if r.get(key) is not None:
            found.append((r[key], False, r["case"]))
        elif r.get(key.replace("ratio", "") + "ratio_at_least") is not None:
            found.append((r[key.replace("ratio", "") + "ratio_at_least"], True, r["case"]))
            killed += 1
    if not found:
        return {"value": float("nan"), "bound": False, "case": None, "cases": 0, "killed": 0}
    value, bound, case = (min if smallest else max)(found)
    return {"value": value, "bound": bound, "case": case, "cases": len(found), "killed": killed}


def _suite(smoke: bool, repeats: int, cap: float) -> list[dict]:
    """The suite's ``ldim`` and ``hard`` cases measured by :func:`benchmarks.suite.measure`, both baselines capped.

    As in the suite, past a size of a family where a baseline was killed, that baseline is left
    out of the larger sizes (the alpha-beta search likewise, here).
    """
    killed: dict[tuple, set] = {}
    records = []
    for case in suite.cases(smoke):
        if case.kind not in ("ldim", "hard"):
            continue
        key = (case.kind, case.family)
        gone = killed.get(key, set()) if case.family is not None else set()
        if "alphabeta" in gone:
            case = evolve(case, alphabeta=None)
        rec = suite.measure(case, repeats, cap, "a smaller size exceeded the cap" if "textbook" in gone else None)
        if rec["mismatch"]:
            raise RuntimeError(f"{case.name}: {rec['mismatch']}")
        if rec["baseline_status"] == "timeout":
            killed.setdefault(key, set()).add("textbook")
        if rec.get("alphabeta_status") == "timeout":
            killed.setdefault(key, set()).add("alphabeta")
        records.append(rec)
    return records


def measure_goals(repeats: int = 3, smoke: bool = False, cap: float = 20.0,
                  progress: Callable[[str], None] = lambda line: None) -> dict:
    """Measure every goal: ``{key: (value, detail text, record)}``, in the order of :data:`GOALS`.

    ``progress`` is told each part's name as it starts.
    """
    size = SIZES[smoke]
    out: dict = {}

    progress("1, 2, 3, 5: kernel shapes (fresh processes)")
    natural, shuffled, reversed_ = (_shapes(name, smoke, repeats) for name in size["power_set"])
    for key, other, how in (("1a", shuffled, "shuffled"), ("1b", reversed_, "reversed")):
        out[key] = (other["seconds"] / natural["seconds"],
                    f"{how} {other['seconds']:.3f} s, natural {natural['seconds']:.3f} s", [natural, other])
    cube = _shapes(size["cube"], smoke, repeats)
    out["2a"] = (cube["seconds"], f"Ldim {cube['lower']:.0f}, {cube['nodes']:.0f} nodes; the kernel's call", cube)
    out["2b"] = (cube["rss_peak"] / 1e6, f"ru_maxrss of its process ({cube['rss_before'] / 1e6:.0f} MB before)", cube)
    memo = _shapes(size["memo"], smoke, repeats)
    out["3"] = (memo.get("memo_bytes", float("nan")) / 1e6,
                f"{memo['seconds']:.2f} s, peak resident {memo['rss_peak'] / 1e6:.0f} MB", memo)
    ticker = _shapes(size["ticker"], smoke, repeats)
    out["5"] = (100 * ticker["kept"], f"search {ticker['seconds']:.2f} s", ticker)

    progress("4: two threads of the compiled search")
    (t,) = parallel_speedup.measure_compiled(size["threads"], workers=2, repeats=repeats)
    if t["mismatch"]:
        raise RuntimeError(t["mismatch"])
    out["4a"] = (t["serial_s"], f"Ldim {t['ldim']}, ldim_engine(H).run()", t)
    out["4b"] = (t["serial_cpu_s"], "its thread's CPU time", t)
    out["4c"] = (t["speedup"], f"serial {t['serial_s']:.2f} s / threads {t['threads_s']:.2f} s", t)
    out["4d"] = (t["cpu_speedup"], f"serial CPU {t['serial_cpu_s']:.2f} s / busiest thread "
                 f"{t['busiest_thread_cpu_s']:.2f} s", t)

    progress("6: shattered trees and certificates")
    for key, (name, build) in zip(("6a", "6b", "6c"), size["trees"]):
        r = _trees(build(), repeats)
        out[key] = (max(r["tree/value"], r["certificate/value"]),
                    f"{name}: tree {r['tree/value']:.2f}x, certificate {r['certificate/value']:.2f}x of "
                    f"{r['value_cpu_s'] * 1e3:.2f} ms", r)

    progress("7: worst cases")
    w = worst_case_speed.measure(size["soa"], SOA, None, repeats, **worst_case_speed.MODES["fast"])
    out["7a"] = (w["positions_per_second"], f"{w['positions']:,} positions in {w['seconds']:.3f} s", w)
    w = worst_case_speed.measure(size["halving"], Halving, None, repeats, **worst_case_speed.MODES["default"])
    out["7b"] = (w["seconds"], f"{w['positions']:,} positions, value {w['value']}", w)

    progress("8: the cost of a call")
    us = call_cost.measure(sys.executable, size["calls"], repeats)
    out["8"] = (statistics.median(us["littlestone_dimension"]),
                f"C call alone {statistics.median(us['C call']):.2f} us; {size['calls']:,} calls per timing", us)

    progress("9: play")
    build, rounds = size["play"]
    p = play_speed.measure(build(), Halving, rounds, repeats)
    out["9a"] = (rounds / p["play (lean)"], f"{rounds:,} rounds in {p['play (lean)']:.3f} s", p)
    build, rounds = size["play_big"]
    p = play_speed.measure(build(), Halving, rounds, repeats)
    best = min(p["bitmask loop"], p["numpy loop"])
    out["9b"] = (p["play (lean)"] / best, f"play {p['play (lean)'] * 1e3:.1f} ms, bitmask {p['bitmask loop'] * 1e3:.1f} ms, "
                 f"numpy {p['numpy loop'] * 1e3:.1f} ms; {rounds:,} rounds", p)

    progress(f"10: the suite's Ldim cases against both baselines (cap {cap:g} s)")
    records = _suite(smoke, repeats, cap)
    for key, which, smallest in (("10a", "alphabeta_ratio", True), ("10b", "alphabeta_ratio", False),
                                 ("10c", "ratio", True), ("10d", "ratio", False)):
        e = _extreme(records, which, smallest)
        out[key] = (e["value"], f"on {e['case']}, of {e['cases']} cases ({e['killed']} killed at the cap)"
                    f"{'; the baseline killed at the cap: a lower bound' if e['bound'] else ''}",
                    {**e, "records": records if key == "10a" else "see 10a"})
    return out


def _met(value: float, target: str) -> str:
    op, bound = target.split()
    bound = float(bound)
    ok = {"<": value < bound, "<=": value <= bound, ">=": value >= bound}[op]
    return "yes" if ok else "no"


def _number(value: float, unit: str) -> str:
    if unit == "/s":
        return f"{value:,.0f}/s"
    if unit == "%":
        return f"{value:.0f}%"
    if unit == "x":
        return f"{value:,.2f}x"
    return f"{value:,.3g} {unit}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine_goals", description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per measurement, median reported (default 3)")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one repeat, a 2 s cap: measures nothing")
    parser.add_argument("--baseline-cap", type=float, default=20.0, help="seconds before a baseline is killed")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT", help="write every number here")
    args = parser.parse_args(argv)
    repeats, cap = (1, 2.0) if args.smoke else (args.repeats, args.baseline_cap)
    if repeats < 1:
        parser.error(f"--repeats: expected an integer >= 1, got {repeats}")
    m = machine()
    print(f"machine: {m['cpu']} | {m['cpu_count']} cpus | {m['memory_gib']} GiB | {m['uname']} | "
          f"python {m['python']} | {m['date']} | load average {m['load_average']}")
    print(f"# medians of {repeats}; ratios are same-run; baseline cap {cap:g} s{' (smoke: measures nothing)' if args.smoke else ''}",
          flush=True)
    started = time.perf_counter()
    found = measure_goals(repeats, args.smoke, cap, lambda line: print(f"# measuring {line}", flush=True))
    wall = time.perf_counter() - started
    end = machine()["load_average"]
    print("| goal | measured | target | met |")
    print("|---|---:|---|:-:|")
    rows = []
    for key, what, unit, target in GOALS:
        value, detail, record = found[key]
        met = _met(value, target)
        rows.append({"key": key, "goal": what, "value": value, "unit": unit, "target": target, "met": met,
                     "detail": detail, "record": record})
        bound = "> " if isinstance(record, dict) and record.get("bound") else ""
        print(f"| {key}. {what} | {bound}{_number(value, unit)} ({detail}) | {target} {unit} | {met} |")
    print(f"# {wall:.0f} s in all; load average at the end {end}")
    if args.json is not None:
        args.json.write_text(json.dumps({"machine": m, "load_average_end": end, "repeats": repeats,
                                         "baseline_cap_s": cap, "smoke": args.smoke, "wall_s": wall,
                                         "goals": rows}, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
