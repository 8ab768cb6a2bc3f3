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

Examples
--------
>>> [name for name, _, _ in cases(smoke=True)]
['thresholds(7)', 'all [2] -> [3]']
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np

from mistakebound.game import classes
from mistakebound.game.rules import Rules
from mistakebound.theory.game_values import game_value

__all__ = ["COLUMNS", "cases", "main"]

#: The settings of the columns: a title and the rules' fields other than the labels.
COLUMNS = (
    ("full", {}),
    ("bandit", {"feedback": "bandit"}),
    ("noise 1", {"noise": 1}),
    ("noise 2", {"noise": 2}),
)


def _all_functions(n: int, k: int) -> np.ndarray:
    return np.array(list(itertools.product(range(k), repeat=n)))


def cases(smoke: bool = False) -> list[tuple[str, np.ndarray, int]]:
    """``(name, table, labels)`` for each row of the table."""
    binary = [classes.thresholds(7)] if smoke else [
        classes.thresholds(15), classes.singletons(8), classes.intervals(8), classes.power_set(4),
        classes.projections(4), classes.monotone_disjunctions(4)]
    multi = [(2, 3)] if smoke else [(2, 3), (3, 3), (2, 4)]
    return ([(H.describe(), H.matrix, 2) for H in binary]
            + [(f"all [{n}] -> [{k}]", _all_functions(n, k), k) for n, k in multi])


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
    args = parser.parse_args(argv)
    print("| class | |H| x |X| | " + " | ".join(title for title, _ in COLUMNS) + " |")
    print("|---|---|" + "---|" * len(COLUMNS))
    for name, matrix, k in cases(args.smoke):
        cells = [_cell(matrix, Rules(labels=k, **fields), args.time_limit) for _, fields in COLUMNS]
        print(f"| {name} | {matrix.shape[0]} x {matrix.shape[1]} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
