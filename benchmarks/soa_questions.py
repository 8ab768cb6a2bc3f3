"""The cost of SOA's questions: the Python memo against the compiled search (issue 26).

SOA asks, per prediction, ``Ldim(V)`` and ``Ldim(V) >= k`` of version spaces ``V`` of its
class.  Part one times one question ``Ldim(V)`` on the version spaces a game meets: the
rows of ``random(40000, 30, 0.5, seed=0)`` that agree with row 0 on its first ``t``
columns, ``t = 11 .. 0`` (about 20 to 40,000 rows), asked

* of a fresh :class:`~mistakebound.theory.ldim_search.LdimSearch` with its memo cold
  (the compiled path off; the search's construction untimed),
* of the same search again (its memo warm: a repeated question),
* of the compiled search on the sub-class of ``V``'s rows (the sub-matrix gathered and
  searched: :func:`~mistakebound.theory.ldim_kernel.matrix_bounds`), timed whole,
* of a fresh search with the compiled path on (:data:`~mistakebound.theory.ldim_search.COMPILED_MIN`),
  which is what the rule chosen does.

Part two asks the same cold questions inside a budgeted run (``LdimSearch.running`` with a
time limit, as a search that asks a learner's questions within its own step does), with the
compiled path off and on, and says how a run of 50 nodes ends each way.

Part three times whole games and worst cases of :class:`~learners.soa.SOA` with the compiled
path off (``COMPILED_MIN`` = none) and on (the default): ``play`` rounds per second
against ``ObliviousCoin(labels="target")`` and ``worst_case_mistakes`` (positions per
second, within 5 s: positions per second is the rate either way).  Medians of ``--repeats`` runs, in
one process, with the same-run ratio; the load (``uptime``) is printed first.

Run from the repository root::

    python -m benchmarks.soa_questions            # 3 repeats
    python -m benchmarks.soa_questions --only runs   # part two alone
    python -m benchmarks.soa_questions --smoke    # small classes, one repeat
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np

from benchmarks.suite import median_seconds
import mistakebound.theory.ldim_search as ldim_search
from mistakebound import play
from mistakebound.adversaries.oblivious_coin import ObliviousCoin
from mistakebound.foundations.bitset import mask_to_indices
from mistakebound.game import classes
from mistakebound.theory import ldim_kernel
from mistakebound.theory.ldim_search import LdimSearch
from mistakebound.theory.search_protocol import Budget, OutOfBudget
from mistakebound.theory.worst_case import worst_case_mistakes
from mistakebound.learners import SOA

__all__ = ["main", "question_rows", "game_rows"]

OFF = 1 << 62  # a COMPILED_MIN no version space reaches: the compiled path off


def _with_min(value: int):
    old = ldim_search.COMPILED_MIN
    ldim_search.COMPILED_MIN = value
    return old


def question_rows(n: int, m: int, depths: range, repeats: int) -> list[str]:
    """One line per version space: |V|, Ldim, and the seconds of each way of asking (medians)."""
    H = classes.random(n, m, 0.5, seed=0)
    M = H.matrix
    out = [f"## one question Ldim(V) on random({n}, {m}, 0.5): V = rows agreeing with row 0 on t columns",
           "| t | |V| | Ldim | python cold s | python warm s | compiled sub-class s | search, compiled path on s"
           " | cold/compiled |"]
    for t in depths:
        keep = np.all(M[:, :t] == M[0, :t], axis=1)
        probe = LdimSearch(H)
        V = probe.mask_of_rows([int(i) for i in np.flatnonzero(keep)])
        rows = probe.representatives[mask_to_indices(V)]
        old = _with_min(OFF)
        try:
            cold = []
            for _ in range(repeats):
                s = LdimSearch(H)
                t0 = time.perf_counter()
                value = s.ldim(V)
                cold.append(time.perf_counter() - t0)
            warm, _ = median_seconds(lambda: s.ldim(V), repeats)
        finally:
            _with_min(old)
        compiled, r = median_seconds(lambda: ldim_kernel.matrix_bounds(M[rows], Budget(), ldim_kernel.SMALL_MEMO_BYTES),
                              repeats)
        assert r is None or r["lower"] == r["upper"] == value, (r, value)
        on = []
        for _ in range(repeats):
            s = LdimSearch(H)
            t0 = time.perf_counter()
            assert s.ldim(V) == value
            on.append(time.perf_counter() - t0)
        cold_s = statistics.median(cold)
        out.append(f"| {t} | {V.bit_count()} | {value} | {cold_s:.2e} | {warm:.2e} | {compiled:.2e} | "
                   f"{statistics.median(on):.2e} | {cold_s / compiled:.1f} |")
    return out


def run_rows(n: int, m: int, depths: range, repeats: int) -> list[str]:
    """One line per version space: the cold question ``Ldim(V)`` asked inside a budgeted run, compiled path off and on.

    The run is :meth:`~mistakebound.theory.ldim_search.LdimSearch.running` with a time limit (a
    learner's questions inside another search's step); the line also says how a run of 50 nodes
    ends each way (``OutOfBudget`` raised, or the value when the bounds settle it).
    """
    H = classes.random(n, m, 0.5, seed=0)
    M = H.matrix
    out = [f"## one question Ldim(V) inside a run (time_limit=600) on random({n}, {m}, 0.5), compiled path off and on",
           "| t | |V| | Ldim | off s | on s | off/on | a run of 50 nodes: off / on |"]
    for t in depths:
        keep = np.all(M[:, :t] == M[0, :t], axis=1)
        V = LdimSearch(H).mask_of_rows([int(i) for i in np.flatnonzero(keep)])
        seconds, ends, values = {}, {}, set()
        for mode, value in (("off", OFF), ("on", ldim_search.COMPILED_MIN)):
            old = _with_min(value)
            try:
                times = []
                for _ in range(repeats):
                    s = LdimSearch(H)
                    with s.running(Budget(time_limit=600)):
                        t0 = time.perf_counter()
                        values.add(s.ldim(V))
                        times.append(time.perf_counter() - t0)
                seconds[mode] = statistics.median(times)
                s = LdimSearch(H)
                with s.running(Budget(max_nodes=50)) as run:
                    try:
                        ends[mode] = f"Ldim {s.ldim(V)} in {run.nodes} nodes"
                    except OutOfBudget:
                        ends[mode] = f"OutOfBudget after {run.nodes} nodes"
            finally:
                _with_min(old)
        assert len(values) == 1, values
        out.append(f"| {t} | {V.bit_count()} | {values.pop()} | {seconds['off']:.2e} | {seconds['on']:.2e} | "
                   f"{seconds['off'] / seconds['on']:.1f} | {ends['off']} / {ends['on']} |")
    return out


def _play(H, rounds: int) -> Callable[[], object]:
    return lambda: play(SOA(H), ObliviousCoin(labels="target"), H, rounds=rounds, seed=0)


def game_rows(cases: list, repeats: int) -> list[str]:
    """Per class: play's rounds/s and the worst case's positions/s, compiled path off and on (medians)."""
    out = ["## SOA games: compiled path off (COMPILED_MIN = none) against on (COMPILED_MIN = "
           f"{ldim_search.COMPILED_MIN})",
           "| class | what | off | on | on/off | same answer |"]
    for name, build, rounds, time_limit in cases:
        H = build()
        res = {}
        for mode, value in (("off", OFF), ("on", ldim_search.COMPILED_MIN)):
            old = _with_min(value)
            try:
                sec, T = median_seconds(_play(H, rounds), repeats)
                wsec, W = median_seconds(lambda: worst_case_mistakes(SOA(H), H, time_limit=time_limit), repeats)
            finally:
                _with_min(old)
            res[mode] = (rounds / sec, T.mistakes, tuple(T.rounds),
                         W.nodes / wsec, (W.lower, W.upper, W.status))
        same_play = res["off"][1:3] == res["on"][1:3]
        out.append(f"| {name} | play rounds/s | {res['off'][0]:,.0f} | {res['on'][0]:,.0f} | "
                   f"{res['on'][0] / res['off'][0]:.2f} | {same_play} |")
        out.append(f"| {name} | worst case positions/s {res['off'][4]} / {res['on'][4]} | {res['off'][3]:,.0f} | "
                   f"{res['on'][3]:,.0f} | {res['on'][3] / res['off'][3]:.2f} | "
                   f"{res['off'][4] == res['on'][4] or 'budget'} |")
    return out


CASES = [
    ("random(2000, 24, 0.5)", lambda: classes.random(2000, 24, 0.5, seed=0), 1000, 5.0),
    ("random(40000, 30, 0.5)", lambda: classes.random(40000, 30, 0.5, seed=0), 200, 5.0),
    ("thresholds(31)", lambda: classes.thresholds(31), 1000, 5.0),
    ("thresholds(1023)", lambda: classes.thresholds(1023), 1000, 5.0),
]
SMOKE = [("random(200, 10, 0.5)", lambda: classes.random(200, 10, 0.5, seed=0), 100, 5.0)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soa_questions", description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=("questions", "runs", "games"))
    parser.add_argument("--min", type=int, help="COMPILED_MIN for the 'on' runs (default: the module's)")
    args = parser.parse_args(argv)
    if args.min is not None:
        ldim_search.COMPILED_MIN = args.min
    repeats = 1 if args.smoke else args.repeats
    print(f"# median of {repeats}; load {os.getloadavg()}; compiled search available: {ldim_kernel.AVAILABLE}")
    n, m, depths = (2000, 16, range(6, -1, -2)) if args.smoke else (40000, 30, range(11, -1, -1))
    if args.only in (None, "questions"):
        print("\n".join(question_rows(n, m, depths, repeats)), flush=True)
    if args.only in (None, "runs"):
        print("\n".join(run_rows(n, m, depths[::3] if not args.smoke else depths, repeats)), flush=True)
    if args.only in (None, "games"):
        for i, case in enumerate(SMOKE if args.smoke else CASES):  # a line per case as it is measured
            print("\n".join(game_rows([case], repeats)[0 if i == 0 else 2:]), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
