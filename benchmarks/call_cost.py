"""The fixed cost of one Littlestone question on a small class: the door against its compiled search (issue 26).

A small class's search takes about two microseconds in the compiled search; what the door
adds (argument checks, the engine's choice, the budget, the result) is the rest of a call.
This times, per call, in CPU time (``time.process_time``, steadier than the wall clock on a
shared machine), ``--calls`` calls in a row, ``--repeats`` times, interleaved, medians:

* ``littlestone_dimension``: the issue's goal (under 3 us on ``thresholds(15)``);
* ``littlestone_bounds``: the same with the result object built;
* ``matrix_bounds``: :func:`~mistakebound.theory.ldim_kernel.matrix_bounds` on the class's matrix,
  the compiled search with its budget rules, the floor of a call through the door;
* ``C call``: the extension's own entry point, nothing around it.

Given a second interpreter (``--against``: another checkout's venv), the same measurement runs
in a process of each, alternately, for same-run ratios.

Run from the repository root::

    python -m benchmarks.call_cost                                     # this install
    python -m benchmarks.call_cost --against /path/to/other/venv/bin/python
    python -m benchmarks.call_cost --smoke                             # few calls, one repeat
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

__all__ = ["MODES", "main", "measure"]

#: What is timed, in this order, on ``classes.thresholds(15)``.
MODES = ("littlestone_dimension", "littlestone_bounds", "matrix_bounds", "C call")

#: The measurement, run in a process of the interpreter measured (the extension reached as ldim_kernel does).
_PROGRAM = r"""
import json, sys, time
from mistakebound import classes
from mistakebound.theory import ldim_kernel
from mistakebound.theory.littlestone import littlestone_bounds, littlestone_dimension
from mistakebound.theory.search_protocol import Budget

calls, repeats = int(sys.argv[1]), int(sys.argv[2])
H = classes.thresholds(15)
M, budget, memo = H.matrix, Budget(), ldim_kernel.SMALL_MEMO_BYTES
n, m = M.shape
kernel = ldim_kernel._kernel
modes = {
    "littlestone_dimension": lambda: littlestone_dimension(H),
    "littlestone_bounds": lambda: littlestone_bounds(H),
    "matrix_bounds": lambda: ldim_kernel.matrix_bounds(M, budget, memo),
    "C call": lambda: kernel.ldim_bounds(M, n, m, -1, -1.0, memo),
}
assert littlestone_dimension(H) == 4
us = {name: [] for name in modes}
for _ in range(repeats):
    for name, call in modes.items():
        start = time.process_time()
        for _ in range(calls):
            call()
        us[name].append((time.process_time() - start) / calls * 1e6)
print(json.dumps(us))
"""


def measure(python: str, calls: int, repeats: int) -> dict[str, list[float]]:
    """Microseconds of CPU per call, one list of ``repeats`` per mode, measured by ``python``."""
    done = subprocess.run([python, "-c", _PROGRAM, str(calls), str(repeats)], capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{python}: the measurement failed: {done.stderr[-400:]}")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.call_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000, help="calls per timing (default 20000)")
    parser.add_argument("--repeats", type=int, default=15, help="timings per mode (default 15)")
    parser.add_argument("--rounds", type=int, default=3, help="processes per interpreter, alternated (default 3)")
    parser.add_argument("--against", metavar="PYTHON", help="another install's interpreter, timed alternately")
    parser.add_argument("--smoke", action="store_true", help="200 calls, 3 timings, one process")
    args = parser.parse_args(argv)
    calls, repeats, rounds = (200, 3, 1) if args.smoke else (args.calls, args.repeats, args.rounds)
    from benchmarks.suite import machine

    m = machine()
    pythons = [sys.executable] + ([args.against] if args.against else [])
    found: dict[str, dict[str, list[float]]] = {p: {mode: [] for mode in MODES} for p in pythons}
    for _ in range(rounds):
        for p in pythons:
            for mode, values in measure(p, calls, repeats).items():
                found[p][mode].extend(values)
    print(f"# {m['cpu']} ({m['cpu_count']} CPUs), Python {m['python']}, load {m['load_average']}, {m['date']}")
    print(f"# thresholds(15); CPU microseconds per call: median and minimum of {rounds * repeats} timings of "
          f"{calls} calls")
    head = "".join(f" {'this' if p == sys.executable else 'against':>18}" for p in pythons)
    print(f"{'mode':<22}{head}" + (f" {'ratio':>7}" if args.against else ""))
    for mode in MODES:
        cells = [(statistics.median(found[p][mode]), min(found[p][mode])) for p in pythons]
        line = "".join(f" {med:>8.2f} (min {low:4.2f})" for med, low in cells)
        if args.against:
            line += f" {cells[0][0] / cells[1][0]:>7.2f}"
        print(f"{mode:<22}{line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
