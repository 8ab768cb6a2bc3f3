"""Start-up of the command line: whole processes, timed alternately for two installs in the same run.

A command a user types pays for the interpreter and for every module it imports before it
answers.  This times ``python -m mistakebound ARGS`` for a few commands that do almost no
work (tiny classes), so the time is the start-up, and, given a second interpreter (another
checkout's venv), the same commands with it, alternately, for same-run ratios on a shared
machine.  Medians over ``--repeats`` runs.

Run from the repository root::

    python -m benchmarks.startup                                   # this install alone
    python -m benchmarks.startup --against /path/to/other/venv/bin/python
    python -m benchmarks.startup --smoke                           # one command, two runs

Examples
--------
>>> [argv[0] for argv in COMMANDS]
['ldim', 'ldim', '--help', 'play']
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

__all__ = ["COMMANDS", "main", "measure"]

#: The commands timed: a value search, the same with the Ldim only, the help listing, one game.
COMMANDS = (
    ("ldim", "thresholds:5"),
    ("ldim", "thresholds:5", "--what", "ldim"),
    ("--help",),
    ("play", "halving", "binary-search-threshold", "thresholds:7", "--quiet"),
)


def _seconds(python: str, argv: tuple[str, ...]) -> float:
    start = time.perf_counter()
    done = subprocess.run([python, "-m", "mistakebound", *argv], capture_output=True, timeout=120)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{python} -m mistakebound {' '.join(argv)} exited {done.returncode}: "
                           f"{done.stderr.decode(errors='replace')[-300:]}")
    return seconds


def measure(pythons: list[str], commands=COMMANDS, repeats: int = 11) -> list[tuple[tuple[str, ...], list[float]]]:
    """``(argv, [median seconds per interpreter])`` per command, the interpreters timed alternately."""
    times = {(argv, p): [] for argv in commands for p in pythons}
    for _ in range(repeats):
        for argv in commands:
            for p in pythons:
                times[argv, p].append(_seconds(p, argv))
    return [(argv, [statistics.median(times[argv, p]) for p in pythons]) for argv in commands]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="PYTHON", help="a second interpreter (another install) to compare")
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--smoke", action="store_true", help="one command, two runs")
    args = parser.parse_args(argv)
    pythons = [sys.executable] + ([args.against] if args.against else [])
    commands, repeats = (COMMANDS[:1], 2) if args.smoke else (COMMANDS, args.repeats)
    print(f"start-up, medians of {repeats} (ms): this install" + (", the other, ratio" if args.against else ""))
    for command, medians in measure(pythons, commands, repeats):
        cells = [f"{m * 1000:.0f}" for m in medians]
        if len(medians) == 2:
            cells.append(f"{medians[0] / medians[1]:.2f}")
        print(f"  {' '.join(command)}: {' '.join(cells)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
