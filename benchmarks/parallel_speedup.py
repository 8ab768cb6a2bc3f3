"""Serial against parallel exact Littlestone search, compiled threads and Python processes: seconds, speedup, nodes.

Two tables.  The first, ``compiled``, is what ``littlestone_bounds(H, workers=N)`` runs where
the extension is built: for each case, ``--repeats`` rounds, each timing the serial compiled
search (``ldim_engine(H).run()``) and then ``N`` threads of it
(:func:`~mistakebound.theory.kernel_threads.threaded_bounds`, the memo limit the door gives),
on the same class.  Reported: the medians, the speedup (serial median / threads median),
the CPU-bound speedup (the serial search's thread CPU seconds over the busiest thread's,
``time.thread_time`` in each: what the speedup is with a free core per thread, on a machine
too loaded for the wall clock to say), the nodes of each (the threads' sum: what it has
above the serial count is work done twice, sub-classes two threads searched at the same
moment; they share one memo) and the threads' nodes one by one.

The second table is the Python search with worker processes (what ``workers`` runs without
the extension).  For each case, ``--repeats`` rounds (default 3), each timing the serial search
(``LdimSearch(H).bounds()``) and then the parallel search (the code behind
``LdimSearch(H).bounds(workers=N)``: this process searching, ``N - 1`` worker processes
started after :data:`~mistakebound.theory.parallel.WARMUP_SECONDS`) with ``--workers``
(default 2) processes on the same class, so both see the same load.
Reported: the medians, the speedup (serial median / parallel median; below 1 means the
parallel search was slower), and the nodes each expanded (the parallel count adds up
the warm-up's and the workers'; what it has above the serial count is work done twice:
sub-classes two workers searched at the same moment, or before the other's fact
arrived, and the work of helpers).
Building the class is not timed; process start-up is.  The two results must be equal,
or the run prints ``MISMATCH`` and exits 1.

``CPU-bound speedup`` depends less on how loaded the machine is: the serial run's CPU
seconds over the largest CPU time of any one process of the parallel run (this one, or
the busiest worker; they run side by side).  It is what the speedup would be with a free
core per process, minus the operating system's process start-up, which it leaves out
(see ``start-up`` for that).

The row ``start-up`` is the fixed cost of the parallel path alone: a class the serial
search settles in a millisecond, with the warm-up turned off so the workers are started
anyway.

Run from the repository root::

    python -m benchmarks.parallel_speedup             # both tables, about 5 minutes
    python -m benchmarks.parallel_speedup --engine compiled --only 100000
    python -m benchmarks.parallel_speedup --smoke     # tiny sizes, a few seconds
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.suite import machine
from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.theory.search_protocol import Budget
from mistakebound.theory.kernel_threads import available as threads_available
from mistakebound.theory.kernel_threads import threaded_bounds
from mistakebound.theory.littlestone import LdimSearch, ldim_engine
from mistakebound.theory.parallel import WARMUP_SECONDS, _parallel_bounds

__all__ = ["CASES", "COMPILED_CASES", "SMOKE_CASES", "SMOKE_COMPILED_CASES", "main", "measure", "measure_compiled"]

#: The compiled search's cases: the issue's goal (``random:100000,40,0.3,1``, Ldim 12), and
#: classes of other shapes (denser and sparser tables, a dive through intervals).
COMPILED_CASES: list[tuple[str, Callable[[], HypothesisClass]]] = [
    ("random:100000,40,0.3,1", lambda: classes.from_spec("random:100000,40,0.3,1")),
    ("random(20000, 60, 0.1, seed=0)", lambda: classes.random(20000, 60, 0.1, seed=0)),
    ("random(40000, 30, 0.2, seed=0)", lambda: classes.random(40000, 30, 0.2, seed=0)),
    ("random(8000, 60, 0.2, seed=3)", lambda: classes.random(8000, 60, 0.2, seed=3)),
    ("intervals(256)", lambda: classes.intervals(256)),
]

SMOKE_COMPILED_CASES: list[tuple[str, Callable[[], HypothesisClass]]] = [
    ("random(2000, 30, 0.3, seed=1)", lambda: classes.random(2000, 30, 0.3, seed=1)),
    ("intervals(16)", lambda: classes.intervals(16)),
]

#: (name, builder): classes where the top of the search refutes many splits
#: (random tables whose Ldim is far below log2 |H|) or dives once (intervals).
CASES: list[tuple[str, Callable[[], HypothesisClass]]] = [
    ("random(2000, 40, 0.5, seed=1)", lambda: classes.random(2000, 40, 0.5, seed=1)),
    ("random(5000, 30, 0.3, seed=0)", lambda: classes.random(5000, 30, 0.3, seed=0)),
    ("random(20000, 60, 0.1, seed=0)", lambda: classes.random(20000, 60, 0.1, seed=0)),
    ("random(40000, 30, 0.2, seed=0)", lambda: classes.random(40000, 30, 0.2, seed=0)),
    ("intervals(128)", lambda: classes.intervals(128)),
    ("intervals(256)", lambda: classes.intervals(256)),
]

SMOKE_CASES: list[tuple[str, Callable[[], HypothesisClass]]] = [
    ("random(300, 12, 0.3, seed=0)", lambda: classes.random(300, 12, 0.3, seed=0)),
    ("intervals(16)", lambda: classes.intervals(16)),
]


def _timed(func: Callable, clock: Callable[[], float] = time.process_time):
    """Wall seconds, ``clock`` seconds (this process's CPU by default) and the result of ``func()``."""
    start, cpu = time.perf_counter(), clock()
    out = func()
    return time.perf_counter() - start, clock() - cpu, out


def measure(cases, *, workers: int = 2, repeats: int = 3) -> list[dict]:
    """One record per case (plus ``start-up``): medians, speedup, nodes, and the value found."""
    records = []
    tiny = classes.thresholds(15)
    startup = [_timed(lambda: _parallel_bounds(tiny, workers, None, None, 0))[0] for _ in range(repeats)]
    records.append({"case": "start-up", "n_hypotheses": tiny.n_hypotheses, "ldim": 4,
                    "serial_s": None, "parallel_s": statistics.median(startup), "speedup": None,
                    "cpu_speedup": None, "serial_nodes": None, "parallel_nodes": None, "mismatch": None})
    for name, build in cases:
        H = build()
        serial_t, parallel_t, serial_cpu, critical_cpu = [], [], [], []
        for _ in range(repeats):
            t, cpu, s = _timed(lambda: LdimSearch(H).bounds())
            serial_t.append(t)
            serial_cpu.append(cpu)
            stats: dict = {}
            t, cpu, p = _timed(lambda: _parallel_bounds(H, workers, None, None, WARMUP_SECONDS, stats))
            parallel_t.append(t)
            critical_cpu.append(max(cpu, *(stats.get("worker_cpu") or [0.0])))
        mismatch = None if (s.lower, s.upper, s.status) == (p.lower, p.upper, p.status) else \
            f"serial {s.describe()} vs parallel {p.describe()}"
        ser, par = statistics.median(serial_t), statistics.median(parallel_t)
        records.append({"case": name, "n_hypotheses": H.n_hypotheses, "ldim": s.lower,
                        "serial_s": ser, "parallel_s": par, "speedup": ser / par,
                        "cpu_speedup": statistics.median(serial_cpu) / statistics.median(critical_cpu),
                        "serial_nodes": s.nodes, "parallel_nodes": p.nodes, "mismatch": mismatch})
    return records


def measure_compiled(cases, *, workers: int = 2, repeats: int = 3) -> list[dict]:
    """One record per case: the compiled search alone against ``workers`` threads of it."""
    records = []
    for name, build in cases:
        H = build()
        memo = ldim_engine(H, workers=workers).memo_bytes
        serial_t, threads_t, serial_cpu, busiest_cpu = [], [], [], []
        for _ in range(repeats):
            t, cpu, s = _timed(lambda: ldim_engine(H).run(), time.thread_time)
            serial_t.append(t)
            serial_cpu.append(cpu)
            stats: dict = {}
            t, _, p = _timed(lambda: threaded_bounds(H, Budget(), memo, threads=workers, stats=stats))
            threads_t.append(t)
            busiest_cpu.append(max(stats["thread_cpu"]))
        mismatch = None if (s.lower, s.upper, s.status) == (p["lower"], p["upper"], p["status"]) else \
            f"serial {s.describe()} vs threads {p}"
        ser, par = statistics.median(serial_t), statistics.median(threads_t)
        records.append({"case": name, "n_hypotheses": H.n_hypotheses, "ldim": s.lower,
                        "serial_s": ser, "threads_s": par, "speedup": ser / par,
                        "serial_cpu_s": statistics.median(serial_cpu), "busiest_thread_cpu_s": statistics.median(busiest_cpu),
                        "cpu_speedup": statistics.median(serial_cpu) / statistics.median(busiest_cpu),
                        "serial_nodes": s.nodes, "threads_nodes": p["nodes"], "thread_nodes": stats["thread_nodes"],
                        "mismatch": mismatch})
    return records


def _fmt(value, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.parallel_speedup",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="", help="run only the cases whose name contains this")
    parser.add_argument("--out", type=Path, default=None, help="also write the records as JSON here")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: checks the code runs, measures nothing")
    parser.add_argument("--engine", choices=("both", "compiled", "python"), default="both",
                        help="the compiled search's threads, the Python search's processes, or both tables")
    args = parser.parse_args(argv)
    cases = SMOKE_CASES if args.smoke else [c for c in CASES if args.only in c[0]]
    compiled_cases = SMOKE_COMPILED_CASES if args.smoke else [c for c in COMPILED_CASES if args.only in c[0]]
    repeats = 1 if args.smoke else args.repeats
    m = machine()
    print(f"machine: {m['cpu']} | {m['cpu_count']} cpus | {m['memory_gib']} GiB | {m['uname']} | "
          f"python {m['python']} | {m['date']} | load average {m['load_average']}")
    compiled = []
    if args.engine != "python" and threads_available():
        print(f"compiled: threads = {args.workers}; medians of {repeats}; serial = the compiled search alone")
        compiled = measure_compiled(compiled_cases, workers=args.workers, repeats=repeats)
        print("| case | \\|H\\| | Ldim | serial s | threads s | speedup | serial CPU s | busiest thread CPU s "
              "| CPU-bound speedup | serial nodes | threads' nodes | by thread |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for r in compiled:
            print(f"| {r['case']} | {r['n_hypotheses']} | {r['ldim']} | {r['serial_s']:.3f} | {r['threads_s']:.3f} | "
                  f"{r['speedup']:.2f} | {r['serial_cpu_s']:.3f} | {r['busiest_thread_cpu_s']:.3f} | "
                  f"{r['cpu_speedup']:.2f} | {r['serial_nodes']:,} | {r['threads_nodes']:,} | "
                  f"{' + '.join(f'{k:,}' for k in r['thread_nodes'])} |")
    elif args.engine != "python":
        print("compiled: this install has no compiled threads (mistakebound --version); table left out")
    records = []
    if args.engine != "compiled":
        print(f"python: workers = {args.workers}; medians of {repeats}; serial = LdimSearch(H).bounds()")
        records = measure(cases, workers=args.workers, repeats=repeats)
        _print_python(records)
    print(f"load average after: {machine()['load_average']}")
    if args.out is not None:
        args.out.write_text(json.dumps({"machine": m, "workers": args.workers, "repeats": repeats,
                                        "cases": records, "compiled": compiled}, indent=2))
    bad = [r for r in records + compiled if r["mismatch"]]
    for r in bad:
        print(f"MISMATCH {r['case']}: {r['mismatch']}")
    return 1 if bad else 0


def _print_python(records: list[dict]) -> None:
    print("| case | \\|H\\| | Ldim | serial s | parallel s | speedup | CPU-bound speedup | serial nodes | parallel nodes |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in records:
        print(f"| {r['case']} | {r['n_hypotheses']} | {r['ldim']} | {_fmt(r['serial_s'], '.3f')} | "
              f"{_fmt(r['parallel_s'], '.3f')} | {_fmt(r['speedup'], '.2f')} | {_fmt(r['cpu_speedup'], '.2f')} | "
              f"{_fmt(r['serial_nodes'], ',')} | {_fmt(r['parallel_nodes'], ',')} |")


if __name__ == "__main__":
    sys.exit(main())
