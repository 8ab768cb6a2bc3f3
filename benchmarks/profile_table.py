"""Every parameter of the profile of the zoo's classes at two sizes, with what each costs (issue 24).

Each row is a class, each column a parameter of the profile door
(:data:`~mistakebound.theory.profile.PARAMETERS` but ``value``), computed by
:func:`~mistakebound.theory.profile.profile_steps` as ``mistakebound dims`` computes them; a
cell is ``value (seconds)``, or the proven interval ``lo..hi`` of a search stopped by
``--time-limit`` (each search has the whole of it).  One run each: the searches are
deterministic, the seconds are wall time on this machine (see :mod:`benchmarks.machine`).
The last line times ``mistakebound dims thresholds:4095`` as a process, the issue's target.

Run from the repository root::

    python -m benchmarks.profile_table                  # the table, markdown
    python -m benchmarks.profile_table --smoke          # two small classes, a short limit

Examples
--------
>>> [name for name, _ in cases(smoke=True)]
['thresholds:7', 'power_set:3']
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from mistakebound.game import classes
from mistakebound.theory.profile import PARAMETERS, profile_steps

__all__ = ["FAMILIES", "cases", "dims_seconds", "main", "row"]

#: The zoo families of the table, each at a small and a larger size.
FAMILIES = ("thresholds:{}", "singletons:{}", "intervals:{}", "power_set:{}", "monotone_disjunctions:{}",
            "parities:{}", "projections:{}")
SIZES = {"thresholds:{}": (15, 255), "singletons:{}": (8, 64), "intervals:{}": (8, 24), "power_set:{}": (3, 6),
         "monotone_disjunctions:{}": (3, 6), "parities:{}": (3, 5), "projections:{}": (3, 6)}


def cases(smoke: bool = False) -> list[tuple[str, object]]:
    """``(spec, class)`` for each row."""
    if smoke:
        return [(spec, classes.from_spec(spec)) for spec in ("thresholds:7", "power_set:3")]
    return [(family.format(n), classes.from_spec(family.format(n))) for family in FAMILIES for n in SIZES[family]]


def row(H, time_limit: float) -> dict[str, str]:
    """Each parameter's cell for the class ``H``: ``value (seconds)``, ``lo..hi (seconds)`` or ``-`` (not defined)."""
    what = tuple(p for p in PARAMETERS if p != "value")
    cells: dict[str, str] = {}
    for parameter, result, P in profile_steps(H, what=what, time_limit=time_limit):
        if parameter not in what:
            continue
        if result is None:
            cells[parameter] = "-"
            continue
        value = str(result.lower) if result.exact else f"{result.lower}..{result.upper}"
        cells[parameter] = f"{value} ({result.seconds:.2g} s)"
    return cells


def dims_seconds(spec: str = "thresholds:4095") -> float:
    """The wall time of ``mistakebound dims SPEC`` as a process (its exit 3, a partial parameter, counts as done)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mistakebound", "dims", spec], capture_output=True, check=False)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profile_table", description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="two small classes, a one-second limit")
    parser.add_argument("--time-limit", type=float, default=10.0, help="each search's limit in seconds (default 10)")
    args = parser.parse_args(argv)
    limit = 1.0 if args.smoke else args.time_limit
    what = [p for p in PARAMETERS if p != "value"]
    print("| class | " + " | ".join(what) + " |")
    print("|---|" + "---|" * len(what))
    for spec, H in cases(args.smoke):
        cells = row(H, limit)
        print(f"| {spec} | " + " | ".join(cells.get(p, "") for p in what) + " |", flush=True)
    if not args.smoke:
        print(f"\n`mistakebound dims thresholds:4095`: {dims_seconds():.1f} s (wall, one process)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
