"""Throughput of ``mistakebound sweep``: cells per second on each executor.

Runs the grid of ``benchmarks/sweep_grid.toml`` (1080 cheap game cells) with results
streamed to a fresh CSV file each time, on:

* ``inprocess`` (reference),
* a process pool of 1 and of 2 workers (pool start-up included: it is part of a sweep),
* a Dask ``LocalCluster`` of 2 worker processes on 127.0.0.1 (started once, before the
  timings; its start-up time is printed separately).

Each is timed ``--repeats`` times; the table gives the median cells per second and the
ratio to one process-pool worker, all measured in the same run.  Every run must produce
the same records (but for ``seconds`` and ``peak_kib``); otherwise the benchmark prints
``MISMATCH`` and exits 1.  Nothing here asserts a time.

Run from the repository root::

    python -m benchmarks.sweep_throughput            # the full grid, 3 repeats
    python -m benchmarks.sweep_throughput --smoke    # a 24-cell grid, 1 repeat (CI)
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mistakebound.interfaces.sweep import SweepConfig, load_config, sweep

__all__ = ["main", "GRID", "SMOKE"]

GRID = Path(__file__).with_name("sweep_grid.toml")
SMOKE = {"grid": [{"learners": ["Halving", "SOA"], "adversaries": ["OppositeLabel", "BinarySearchThreshold"],
                   "classes": ["thresholds", "singletons"], "sizes": [4, 8, 16], "horizons": [20]}]}
TIMING = ("seconds", "peak_kib")


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _strip(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in TIMING} for r in records]


def _time(config: SweepConfig, folder: Path, tag: str, **options) -> tuple[float, list[dict]]:
    out = folder / f"{tag}-{time.monotonic_ns()}.csv"
    started = time.perf_counter()
    result = sweep(config, out=out, **options)
    seconds = time.perf_counter() - started
    out.unlink()
    return seconds, result.records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sweep_throughput", description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a 24-cell grid, one repeat")
    parser.add_argument("--repeats", type=int, default=None, help="timed runs per executor (default 3; smoke 1)")
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask LocalCluster")
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.smoke else 3)
    config = SweepConfig.from_dict(SMOKE) if args.smoke else load_config(GRID)
    n = len(config.cells())
    print(f"machine: {_cpu()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}, "
          f"Python {platform.python_version()}")
    print(f"grid: {'smoke' if args.smoke else GRID.name}, {n} cells; {repeats} repeat(s); median of each")
    runs: list[tuple[str, dict]] = [
        ("in-process", {"executor": "inprocess"}),
        ("process pool, 1 worker", {"executor": "processes", "workers": 1}),
        ("process pool, 2 workers", {"executor": "processes", "workers": 2}),
    ]
    cluster = None
    if not args.no_dask:
        try:
            import distributed
        except ImportError:
            print("dask.distributed not installed: the LocalCluster row is skipped (pip install 'mistakebound[dask]')")
        else:
            started = time.perf_counter()
            cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                               dashboard_address=None, silence_logs=50)
            print(f"dask LocalCluster of 2 workers on 127.0.0.1 started in {time.perf_counter() - started:.2f} s "
                  "(not included below)")
            runs.append(("dask LocalCluster, 2 workers",
                         {"executor": "dask", "scheduler": cluster.scheduler_address}))
    times: dict[str, list[float]] = {name: [] for name, _ in runs}
    reference = None
    mismatch = False
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(repeats):  # interleaved, so load changes hit every executor alike
                for name, options in runs:
                    seconds, records = _time(config, Path(tmp), name.split()[0], **options)
                    times[name].append(seconds)
                    stripped = _strip(records)
                    if reference is None:
                        reference = stripped
                    elif stripped != reference:
                        mismatch = True
                        print(f"MISMATCH: {name} produced different records")
    finally:
        if cluster is not None:
            cluster.close()
    base = statistics.median(times["process pool, 1 worker"])
    print()
    print(f"{'executor':<30} {'median s':>9} {'cells/s':>9} {'vs 1 worker':>12}")
    for name, _ in runs:
        median = statistics.median(times[name])
        print(f"{name:<30} {median:>9.2f} {n / median:>9.0f} {base / median:>11.2f}x")
    return 1 if mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
