"""The compiled Littlestone search on the shapes that made it slow (issue 26).

A node of the compiled search used to cost the width of the whole class, so the same
class in another row or column order could take fifty times longer, and its memo keys
were as wide as the class.  Each case here runs in a fresh process of its own (so that
its peak resident memory, ``ru_maxrss``, is its own), ``--repeats`` times; medians are
reported, with the same-run ratio to the natural order where there is one:

* ``power_set(16)``: as built, its rows shuffled (seed 0), its columns reversed; then the
  same without its last row (``-1``: Ldim 15), since a full cube is now answered by the
  bounds before any search and these cases must still search;
* the full cube ``2^18 x 18`` (``power_set(18)``) as built and with its columns reversed
  (instance ``j`` is then bit ``j`` of the row index, the order of the binary expansion
  read from the low bit: the database's order), and the same without its last row;
* ``random(128000, 30, 0.5, 0)``: seconds, peak resident memory, and the memo's peak bytes
  as the kernel reports them (where it does: not before issue 26);
* ``random:100000,40,0.3,1`` (the zoo spec);
* ``ticker``: a thread ticking every 10 ms while ``random(20000, 60, 0.2, 3)`` is searched
  in the main thread: the fraction of its ticks it kept;
* ``two threads``: the same search in two threads at once, against one alone; the cores
  the process used meanwhile, and the share of the time both searches were in progress.

``MB_COMPACT_RATIO`` set in the environment overrides the threshold of the compact copies
(``_ldim_kernel.c``; 0: none), to compare choices.

Run from the repository root::

    python -m benchmarks.kernel_shapes                 # every case, 3 repeats
    python -m benchmarks.kernel_shapes --smoke         # small classes, one repeat
    python -m benchmarks.kernel_shapes --only cube
    MB_KERNEL_SO=/path/to/old/_ldim_kernel.so python -m benchmarks.kernel_shapes   # a "before"
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

__all__ = ["CASES", "SMOKE", "in_fresh_process", "main", "measure_case"]

#: name -> (family, size, order, without its last row); "-1" cases drop the last row, so that
#: the bounds before any search (which answer a full cube at once) leave a search to run
CASES = {
    "power_set(16)": ("power_set", 16, "natural", False),
    "power_set(16) rows shuffled": ("power_set", 16, "shuffled", False),
    "power_set(16) columns reversed": ("power_set", 16, "reversed", False),
    "power_set(16)-1": ("power_set", 16, "natural", True),
    "power_set(16)-1 rows shuffled": ("power_set", 16, "shuffled", True),
    "power_set(16)-1 columns reversed": ("power_set", 16, "reversed", True),
    "cube 2^18": ("power_set", 18, "natural", False),
    "cube 2^18 columns reversed": ("power_set", 18, "reversed", False),
    "cube 2^18-1": ("power_set", 18, "natural", True),
    "cube 2^18-1 columns reversed": ("power_set", 18, "reversed", True),
    "random 128000x30": ("random", (128000, 30, 0.5, 0), "natural", False),
    "random:100000,40,0.3,1": ("spec", "random:100000,40,0.3,1", "natural", False),
    "ticker": ("random", (20000, 60, 0.2, 3), "ticker", False),
    "two threads": ("random", (20000, 60, 0.2, 3), "threads", False),
}
SMOKE = {
    "power_set(10)-1": ("power_set", 10, "natural", True),
    "power_set(10)-1 rows shuffled": ("power_set", 10, "shuffled", True),
    "power_set(10)-1 columns reversed": ("power_set", 10, "reversed", True),
    "cube 2^10 columns reversed": ("power_set", 10, "reversed", False),
    "random 2000x30": ("random", (2000, 30, 0.5, 0), "natural", False),
    "ticker": ("random", (2000, 30, 0.2, 3), "ticker", False),
    "two threads": ("random", (2000, 30, 0.2, 3), "threads", False),
}


def _matrix(kind: str, arg, order: str, drop_last: bool) -> np.ndarray:
    from mistakebound.game import classes

    if kind == "power_set":
        M = classes.power_set(arg).matrix
    elif kind == "random":
        M = classes.random(*arg).matrix
    else:
        M = classes.from_spec(arg).matrix
    if drop_last:
        M = M[:-1]
    if order == "shuffled":
        M = M[np.random.default_rng(0).permutation(M.shape[0])]
    elif order == "reversed":
        M = M[:, ::-1]
    return np.ascontiguousarray(M, dtype=np.uint8)


def _kernel():
    """The installed extension, or the one built elsewhere that ``MB_KERNEL_SO`` names (a "before")."""
    path = os.environ.get("MB_KERNEL_SO")
    if not path:
        from mistakebound.theory.ldim_kernel import _kernel as kernel

        return kernel
    import importlib.util

    spec = importlib.util.spec_from_file_location("mistakebound.theory._ldim_kernel", path)
    kernel = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kernel)
    return kernel


def _search(M: np.ndarray) -> tuple:
    ratio = os.environ.get("MB_COMPACT_RATIO")  # the threshold of the compact copies, to compare choices
    extra = () if ratio is None else (int(ratio),)
    return KERNEL[0].ldim_bounds(M, M.shape[0], M.shape[1], -1, -1.0, 1 << 32, *extra)


KERNEL: list = []


def _ticker(M: np.ndarray) -> dict:
    ticks, done = [0], threading.Event()

    def tick():
        while not done.is_set():
            time.sleep(0.01)
            ticks[0] += 1

    thread = threading.Thread(target=tick)
    thread.start()
    time.sleep(0.05)
    start_ticks, start = ticks[0], time.perf_counter()
    _search(M)
    seconds = time.perf_counter() - start
    kept = ticks[0] - start_ticks
    done.set()
    thread.join()
    return {"seconds": seconds, "kept": kept / max(seconds / 0.01, 1)}


def _threads(M: np.ndarray) -> dict:
    """One search alone, then two in two threads at once: wall seconds, the cores the two used
    (CPU seconds of the process over wall seconds: at most 1 while the GIL is held, and no
    more than the machine's load leaves), and how much of the time both searches were in
    progress, from both calls to the first return (about 50% while the GIL is held: the
    second waits for the first to finish, then runs alone; about 100% otherwise, whatever
    the load)."""
    _search(M)  # once before the clock: the pages the search touches are mapped
    start = time.perf_counter()
    _search(M)
    one = time.perf_counter() - start
    spans = [None, None]

    def work(i):
        began = time.perf_counter()
        _search(M)
        spans[i] = (began, time.perf_counter())

    workers = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    start, cpu = time.perf_counter(), time.process_time()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    two, cpu = time.perf_counter() - start, time.process_time() - cpu
    both = max(0.0, min(spans[0][1], spans[1][1]) - max(spans[0][0], spans[1][0]))
    return {"seconds": two, "one": one, "two/one": two / one, "cores": cpu / two, "overlap": both / two}


def measure_case(name: str, table: dict) -> dict:
    """One run of case ``name`` in this process: seconds, peak memory, and what the search reported."""
    KERNEL[:] = [_kernel()]  # imported before the clock starts
    kind, arg, order, drop_last = table[name]
    M = _matrix(kind, arg, order, drop_last)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    if order == "ticker":
        out = _ticker(M)
    elif order == "threads":
        out = _threads(M)
    else:
        start, cpu = time.perf_counter(), time.process_time()
        found = _search(M)
        out = {"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu, "lower": found[0], "upper": found[1], "nodes": found[3]}
        if len(found) > 6:
            out["memo_bytes"] = found[6]
    out["rss_before"] = rss_before
    out["rss_peak"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return out


def in_fresh_process(name: str, smoke: bool) -> dict:
    """:func:`measure_case` of case ``name`` (of :data:`SMOKE` if ``smoke``, else of :data:`CASES`) in a new process."""
    cmd = [sys.executable, "-m", "benchmarks.kernel_shapes", "--child", name] + (["--smoke"] if smoke else [])
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--only", default="", help="run only the cases whose name contains it")
    parser.add_argument("--skip", default=None, help="skip the cases whose name contains it")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    table = SMOKE if args.smoke else CASES
    if args.child:
        print(json.dumps(measure_case(args.child, table)))
        return 0
    repeats = 1 if args.smoke else args.repeats
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"medians of {repeats} run(s), each in a fresh process; load {load:.2f} at the start")
    print(f"{'case':<32} {'seconds':>9} {'cpu s':>8} {'peak MB':>8} {'memo MB':>8}  notes")
    natural = {}
    for name in table:
        if args.only not in name or (args.skip and args.skip in name):
            continue
        runs = [in_fresh_process(name, args.smoke) for _ in range(repeats)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0] if isinstance(runs[0][k], (int, float))}
        memo = f"{med['memo_bytes'] / 1e6:8.1f}" if "memo_bytes" in med else f"{'-':>8}"
        notes = ""
        base = name.split(" ")[0]  # the case in its natural order
        if name == base:
            natural[base] = med["seconds"]
        elif base in natural and "threads" not in name and "ticker" not in name:
            notes = f"{med['seconds'] / natural[base]:.1f}x natural"
        if "kept" in med:
            notes = f"kept {100 * med['kept']:.0f}% of the ticks"
        if "two/one" in med:
            notes = (f"one alone {med['one']:.3f} s; two at once / one = {med['two/one']:.2f}; "
                     f"cores used {med['cores']:.2f}; both in progress {100 * med['overlap']:.0f}% of the time")
        if "lower" in med:
            notes = (notes + f"  Ldim {med['lower']:.0f}" + ("" if med["lower"] == med["upper"] else "?")).strip()
        cpu = f"{med['cpu']:8.3f}" if "cpu" in med else f"{'-':>8}"
        print(f"{name:<32} {med['seconds']:9.3f} {cpu} {med['rss_peak'] / 1e6:8.0f} {memo}  {notes}", flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load {load:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
