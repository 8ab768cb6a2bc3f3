"""The command line against the library's door on the same question, in the same run (issue 22).

``mistakebound ldim SPEC --what ldim`` must take the time ``littlestone_dimension`` takes
on the class of the same spec: both ask :func:`mistakebound.theory.littlestone.ldim_engine`,
which chooses the compiled search.  For each case this times, alternately and ``--repeats``
times (medians reported):

* ``api``: :func:`~mistakebound.theory.littlestone.littlestone_bounds` on the class, built
  beforehand (building it is timed apart: ``build``);
* ``cli``: :func:`mistakebound.interfaces.cli.main` in this process, the spec parsed and the
  class built inside, its output thrown away;
* ``program``: ``python -m mistakebound ldim SPEC --what ldim`` as a process of its own,
  the interpreter's start-up included.

``cli / (build + api)`` is the ratio the issue asks about (1.0: the same time).

Run from the repository root::

    python -m benchmarks.front_doors                 # the issue's two classes, 5 repeats
    python -m benchmarks.front_doors --smoke         # tiny classes, one repeat
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import subprocess
import sys
import time

from mistakebound.game import registry
from mistakebound.interfaces import cli
from mistakebound.theory.littlestone import littlestone_bounds

__all__ = ["CASES", "SMOKE", "main", "measure"]

#: The classes issue 22 measured (8.6 s against 1.3 s, and 3.4 s against 0.43 s, before).
CASES = ["random:40000,30,0.2,0", "intervals:256"]
SMOKE = ["thresholds:63", "intervals:16"]


def _seconds(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def measure(spec: str, repeats: int, program: bool = True) -> dict:
    """Medians of ``repeats`` alternating runs of the door and of the command line on ``spec``."""
    build, api, line, proc = [], [], [], []
    for _ in range(repeats):
        holder = {}
        build.append(_seconds(lambda: holder.setdefault("H", registry.load_setting(spec))))
        api.append(_seconds(lambda: littlestone_bounds(holder["H"])))
        with contextlib.redirect_stdout(io.StringIO()):
            line.append(_seconds(lambda: cli.main(["ldim", spec, "--what", "ldim"])))
        if program:
            proc.append(_seconds(lambda: subprocess.run(
                [sys.executable, "-m", "mistakebound", "ldim", spec, "--what", "ldim"], check=True,
                capture_output=True)))
    med = {name: statistics.median(v) for name, v in
           (("build", build), ("api", api), ("cli", line), ("program", proc)) if v}
    med["ratio"] = med["cli"] / (med["build"] + med["api"])
    return med


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args(argv)
    cases, repeats = (SMOKE, 1) if args.smoke else (CASES, args.repeats)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"medians of {repeats} run(s), load {load:.2f}; seconds")
    print(f"{'case':<26} {'build':>7} {'api':>7} {'cli':>7} {'program':>8} {'cli/(build+api)':>16}")
    for spec in cases:
        r = measure(spec, repeats)
        print(f"{spec:<26} {r['build']:7.3f} {r['api']:7.3f} {r['cli']:7.3f} {r['program']:8.3f} {r['ratio']:16.2f}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
