"""The game's value in each setting, side by side, with what each search costs (issue 23).

For a handful of small classes, :func:`~mistakebound.theory.game_values.game_value` under
the textbook's rules (the Littlestone dimension), bandit feedback, and noise budgets 1
and 2, for deterministic learners; the multiclass tables (all functions from ``n`` points
to ``k`` labels) with full and bandit feedback.  Each cell is ``value (seconds)``; a search
that does not finish within ``--time-limit`` prints its proven interval.  One run each
(the searches are deterministic; the seconds are wall time on this machine).

Run from the repository root::

    python -m benchmarks.settings_table             # the table, markdown
    python -m benchmarks.settings_table --smoke     # two small classes
    python -m benchmarks.settings_table --reach     # and the largest class per setting in 10 s

Examples
--------
>>> [name for name, _, _ in cases(smoke=True)]
['thresholds(7)', 'all_functions(2,3)']
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from mistakebound.game import classes
from mistakebound.game.rules import Rules
from mistakebound.theory.game_values import game_value

__all__ = ["COLUMNS", "FAMILIES", "REACH", "cases", "largest", "main"]

#: The settings of the columns: a title and the rules' fields other than the labels.
COLUMNS = (
    ("full", {}),
    ("bandit", {"feedback": "bandit"}),
    ("noise 1", {"noise": 1}),
    ("noise 2", {"noise": 2}),
)


def cases(smoke: bool = False) -> list[tuple[str, np.ndarray, int]]:
    """``(name, table, labels)`` for each row of the table."""
    binary = [classes.thresholds(7)] if smoke else [
        classes.thresholds(15), classes.singletons(8), classes.intervals(8), classes.power_set(4),
        classes.projections(4), classes.monotone_disjunctions(4)]
    multi = [classes.all_functions(2, 3)] if smoke else [
        classes.all_functions(2, 3), classes.all_functions(3, 3), classes.all_functions(2, 4),
        classes.one_vs_rest(4, 4), classes.monotone_functions(4, 3)]
    return [(H.describe(), H.matrix, H.n_labels) for H in binary + multi]


#: The families of the "largest class in the time limit" table: a name, the sizes tried in turn, the class of a size.
FAMILIES = (
    ("thresholds(N)", (3, 7, 15, 31, 63, 127, 255, 511), classes.thresholds),
    ("power_set(d)", tuple(range(2, 13)), classes.power_set),
    ("intervals(N)", (2, 4, 6, 8, 12, 16, 24, 32, 48, 64), classes.intervals),
    ("all_functions(n, 3)", tuple(range(1, 8)), lambda n: classes.all_functions(n, 3)),
    ("one_vs_rest(d, 4)", (2, 4, 8, 16, 32, 64), lambda d: classes.one_vs_rest(d, 4)),
)
#: The settings of the largest-class table: the columns above and a randomized learner.
REACH = COLUMNS + (("randomized", {"randomized": True}),)


def largest(build, sizes, fields: dict, time_limit: float) -> str:
    """The largest size whose search finishes within ``time_limit`` seconds (sizes tried in turn), and its time."""
    best = "none"
    for size in sizes:
        H = build(size)
        start = time.perf_counter()
        result = game_value(H, Rules(labels=H.n_labels, **fields), time_limit=time_limit)
        seconds = time.perf_counter() - start
        if not result.exact:
            break
        best = f"{size} ({seconds:.2g} s)"
    return best


def _cell(matrix: np.ndarray, rules: Rules, time_limit: float) -> str:
    start = time.perf_counter()
    result = game_value(matrix, rules, time_limit=time_limit)
    seconds = time.perf_counter() - start
    shown = str(result.lower) if result.exact else f"[{result.lower}, {result.upper}]"
    return f"{shown} ({seconds:.2g} s)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.settings_table", description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="two small classes")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per search (default 10)")
    parser.add_argument("--reach", action="store_true",
                        help="also the largest class of each family each setting finishes within the time limit")
    args = parser.parse_args(argv)
    print("| class | |H| x |X| | " + " | ".join(title for title, _ in COLUMNS) + " |")
    print("|---|---|" + "---|" * len(COLUMNS))
    for name, matrix, k in cases(args.smoke):
        cells = [_cell(matrix, Rules(labels=k, **fields), args.time_limit) for _, fields in COLUMNS]
        print(f"| {name} | {matrix.shape[0]} x {matrix.shape[1]} | " + " | ".join(cells) + " |", flush=True)
    if args.reach:
        print()
        print(f"The largest size each setting's search finishes within {args.time_limit:g} s:")
        print()
        print("| family | " + " | ".join(title for title, _ in REACH) + " |")
        print("|---|" + "---|" * len(REACH))
        for name, sizes, build in FAMILIES[:1] if args.smoke else FAMILIES:
            sizes = sizes[:2] if args.smoke else sizes
            cells = [largest(build, sizes, fields, args.time_limit) for _, fields in REACH]
            print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
