"""The benchmark cases and the one runner that times them.

A :class:`Case` is a name, a ``build`` that makes the input (not timed) and a ``run``
that is timed: ``--repeats`` times, the median reported.  One more run, before the
timed ones and not timed, is traced by :mod:`tracemalloc` for the peak of Python
allocations (numpy buffers included), so tracing never slows a timed run; it also
builds the class's cached views (column bitsets), which the timed runs then reuse.

A case may name a ``baseline`` (a function of the 0/1 matrix from
:mod:`mistakebound.theory.textbook`); it runs once, in a forked process killed at the cap, and
when it finishes its value must equal ours, or the run reports a MISMATCH and exits
non-zero.  Within a family (cases in order of growing size), once the baseline is
killed at the cap, it is not run on the larger sizes (``skipped``; ``--all-baselines``
runs them anyway).

The figures go to a JSON file and, per class family, to a log-log scaling plot of
seconds against ``|H|`` (see :mod:`benchmarks.plots`).

Run from the repository root::

    python -m benchmarks --smoke
    python -m benchmarks --repeats 3 --baseline-cap 60 --only thresholds
"""

from __future__ import annotations

import functools
import json
import math
import multiprocessing
import os
import statistics
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from attrs import frozen

import mistakebound as mb
from mistakebound.theory.textbook import alphabeta_ldim, textbook_ldim, textbook_vcdim
from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.adversaries import ObliviousCoin
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.files import write_atomically
from mistakebound.foundations.machine import machine, memory_total
from mistakebound.learners import SOA, Consistent, Halving
from mistakebound.theory.worst_case import worst_case_mistakes

__all__ = ["KINDS", "Case", "cases", "hard_random", "machine", "measure", "main", "median_seconds", "median_times"]

SEED = 20240601


def median_times(func: Callable[[], object], repeats: int, *, warm: bool = False) -> tuple[float, float, object]:
    """Median wall and CPU seconds of ``repeats`` calls of ``func``, and its last result: the benchmarks' one timer.

    ``warm``: one untimed call first.  Every result is kept until all are timed, so freeing one
    (a tree's networkx dicts, say) is not counted in building the next.
    """
    kept = [func()] if warm else []
    wall, cpu = [], []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        kept.append(func())
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu), kept[-1]


def median_seconds(func: Callable[[], object], repeats: int) -> tuple[float, object]:
    """Median wall seconds of ``repeats`` calls of ``func`` (no untimed call first), and its last result."""
    wall, _cpu, out = median_times(func, repeats)
    return wall, out
MiB = 1024 * 1024

#: What a case measures: the Littlestone dimension of a zoo or random class (``ldim``),
#: of a "hard" random class whose Ldim is far below ``log2 |H|`` (``hard``), a shattered
#: tree (``tree``), the VC dimension (``vc``), a game through ``play`` (``play``) and
#: the exact worst-case search (``worst_case``).
KINDS = ("ldim", "hard", "tree", "vc", "play", "worst_case")


@frozen
class Case:
    """One benchmark: ``run(build())`` is timed.

    ``outcome(input, output)`` (untimed; default: the output itself) turns what ``run``
    returned into the reported result, ``note(input, output)`` (optional) into a note.
    ``baseline`` (optional) maps the 0/1 matrix to the value ``run`` must return;
    ``reference`` (optional) is timed like ``run`` on the same input and reported as the
    ratio run/reference, its value must equal ``run``'s; ``rounds`` (games) turns the
    median into rounds per second.  ``kind`` is one of :data:`KINDS`; ``family`` names
    the scaling plot the case is a point of (cases of one family are listed in order of
    growing ``|H|``); ``size`` describes an input that is not a class.
    """

    name: str
    build: Callable[[], Any]
    run: Callable[[Any], Any]
    outcome: Callable[[Any, Any], Any] = lambda H, output: output
    baseline: Callable[[Any], int] | None = None
    #: A second baseline, run like the first (the pruned alpha-beta search for Ldim cases).
    alphabeta: Callable[[Any], int] | None = None
    reference: Callable[[HypothesisClass], Any] | None = None
    rounds: int | None = None
    kind: str = "ldim"
    family: str | None = None
    size: str | None = None
    note: Callable[[Any, Any], str] | None = None


# ------------------------------------------------------------------ the inputs
@functools.lru_cache(maxsize=4)
def _cached_random(n: int, m: int, density: float) -> HypothesisClass:
    return classes.random(n, m, density, seed=SEED)


def _random(n: int, m: int, density: float) -> Callable[[], HypothesisClass]:
    return lambda: _cached_random(n, m, density)


def hard_random(n_hypotheses: int, n_instances: int, density: float, seed: int) -> HypothesisClass:
    """``n_hypotheses`` distinct random rows, i.i.d. Bernoulli(``density``) entries.

    With a small density on many columns the rows are sparse and all distinct, so
    ``log2 |H|`` is large while the Littlestone dimension stays small (a version space
    that agrees on a few ones has few members left): the search for Ldim cannot stop at
    the bound ``log2 |H|``.  Rows are drawn from ``numpy.random.default_rng(seed)``;
    duplicates are dropped and replaced by further draws, first occurrences kept in
    order.

    Parameters
    ----------
    n_hypotheses : int
        Number of distinct rows, at least 1 and at most ``2 ** n_instances``.
    n_instances : int
        Number of columns, at least 1.
    density : float
        Probability of a 1, in ``(0, 1)``.
    seed : int
        Seed of the generator.

    Returns
    -------
    HypothesisClass
        Named ``"hard_random(n_hypotheses,n_instances,density,seed)"``.

    Raises
    ------
    InvalidArgumentError
        If ``n_hypotheses`` exceeds ``2 ** n_instances`` or ``density`` is outside ``(0, 1)``.

    Examples
    --------
    >>> H = hard_random(64, 32, 0.05, seed=1)
    >>> H.n_hypotheses, len({tuple(r) for r in H.matrix.tolist()})
    (64, 64)
    >>> mb.littlestone_dimension(H) <= math.log2(64) - 2
    True
    """
    if n_hypotheses < 1 or n_instances < 1 or n_hypotheses > 2**n_instances:
        raise InvalidArgumentError(
            f"n_hypotheses: expected 1 <= n_hypotheses <= 2 ** n_instances = 2 ** {n_instances}, got {n_hypotheses}"
        )
    if not 0.0 < density < 1.0:
        raise InvalidArgumentError(f"density: expected a number in (0, 1), got {density!r}")
    rng = np.random.default_rng(seed)
    rows = np.zeros((0, n_instances), dtype=np.uint8)
    while len(rows) < n_hypotheses:
        more = (rng.random((n_hypotheses - len(rows) + 16, n_instances)) < density).astype(np.uint8)
        both = np.concatenate([rows, more])
        _, first = np.unique(both, axis=0, return_index=True)
        rows = both[np.sort(first)]
    rows = rows[:n_hypotheses]
    spec = f"hard_random({n_hypotheses},{n_instances},{density!r},{seed})"
    return HypothesisClass.from_matrix(rows, range(n_instances), [f"h{i}" for i in range(n_hypotheses)], name=spec)


def _hard(n: int, m: int, density: float) -> Callable[[], HypothesisClass]:
    return lambda: hard_random(n, m, density, seed=SEED)


def _tree_depth(H: HypothesisClass, tree) -> int | str:
    """The depth of the tree if ``H`` shatters it (checked), else a message."""
    depth = tree.graph["depth"]
    return depth if mb.is_shattered(H, tree) else f"NOT SHATTERED (depth {depth})"


def _game(learner: type, rounds: int) -> Callable[[HypothesisClass], mb.Transcript]:
    def run(H: HypothesisClass) -> mb.Transcript:
        return mb.play(learner(H), ObliviousCoin(labels="target"), H, rounds=rounds, seed=SEED)

    return run


def _log2_note(H: HypothesisClass, value: Any) -> str:
    gap = math.log2(H.n_hypotheses) - value
    return f"log2|H| - Ldim = {gap:.1f}" + ("" if gap >= 3 else " (NOT HARD: gap below 3)")


# ------------------------------------------------------------------ the cases
def _ldim(name: str, build: Callable[[], HypothesisClass], family: str | None = None) -> Case:
    return Case(f"ldim {name}", build, mb.littlestone_dimension, baseline=textbook_ldim, alphabeta=alphabeta_ldim,
                family=family)


def _hard_ldim(n: int, m: int, density: float) -> Case:
    return Case(
        f"ldim hard_random({n}, {m}, {density})", _hard(n, m, density), mb.littlestone_dimension,
        baseline=textbook_ldim, alphabeta=alphabeta_ldim, kind="hard", family=f"hard random, density {density}, |X| = {m}", note=_log2_note,
    )


def _vc(name: str, build: Callable[[], HypothesisClass], family: str | None = None) -> Case:
    return Case(f"vc {name}", build, mb.vc_dimension, baseline=vc_baseline, kind="vc", family=family)


def _tree(name: str, build: Callable[[], HypothesisClass]) -> Case:
    return Case(f"tree {name}", build, mb.shattered_tree, _tree_depth, reference=mb.littlestone_dimension, kind="tree")


def _play(learner: type, name: str, build: Callable[[], HypothesisClass], rounds: int) -> Case:
    return Case(
        f"play {learner.__name__} {name}", build, _game(learner, rounds), lambda H, T: T.mistakes,
        rounds=rounds, kind="play",
    )


def _perceptron(d: int, gamma: float, rounds: int) -> Case:
    from mistakebound.adversaries.separable_stream import SeparableStream
    from mistakebound.learners.perceptron import Perceptron
    from mistakebound.game.spaces import LinearSpace

    def run(space: LinearSpace) -> mb.Transcript:
        return mb.play(Perceptron(), SeparableStream(d, gamma), space, rounds=rounds, seed=SEED)

    return Case(
        f"play Perceptron SeparableStream({d}, {gamma})", lambda: LinearSpace(d, R=1.0, gamma=gamma), run,
        lambda space, T: T.mistakes, rounds=rounds, kind="play", size=f"d = {d}",
    )


def _worst_case_outcome(H: HypothesisClass, W) -> Any:
    return W.value if W.exact else f"partial: in [{W.lower}, {W.upper}]"


def _worst_case(learner: type, name: str, build: Callable[[], HypothesisClass]) -> Case:
    """The exact worst-case search; for SOA its value must be Ldim (the textbook recursion checks it)."""
    return Case(
        f"worst_case {learner.__name__} {name}", build, lambda H: worst_case_mistakes(learner(H), H),
        _worst_case_outcome, baseline=textbook_ldim if learner is SOA else None, kind="worst_case",
        note=lambda H, W: f"{W.nodes} positions; "
        + ("baseline: textbook Ldim (= M_SOA)" if learner is SOA else "no baseline (M_Halving may exceed Ldim)"),
    )


def _series(family: str, fmt: str, sizes, build: Callable[..., HypothesisClass]) -> list[Case]:
    """One ``ldim`` case per size, all of ``family``; ``fmt`` formats the size into the name."""
    out = []
    for size in sizes:
        args = size if isinstance(size, tuple) else (size,)
        out.append(_ldim(fmt.format(*args), lambda args=args: build(*args), family))
    return out


def cases(smoke: bool = False) -> list[Case]:
    """The cases of a full run, or the tiny ones of ``--smoke`` (every kind of :data:`KINDS`)."""
    if smoke:
        return [
            *_series("thresholds", "thresholds({})", (15, 63), classes.thresholds),
            *_series("singletons", "singletons({})", (8,), classes.singletons),
            *_series("intervals", "intervals({})", (10,), classes.intervals),
            *_series("monotone_disjunctions", "monotone_disjunctions({})", (3,), classes.monotone_disjunctions),
            *_series("parities", "parities({})", (3,), classes.parities),
            *_series("k_sparse(d, 2)", "k_sparse({}, {})", ((6, 2),), classes.k_sparse),
            *_series("power_set", "power_set({})", (4, 6), classes.power_set),
            _ldim("random(40, 6, 0.5)", _random(40, 6, 0.5), "random, density 0.5"),
            _ldim("random(40, 8, 0.3)", _random(40, 8, 0.3), "random, density 0.3"),
            _ldim("random(40, 8, 0.05)", _random(40, 8, 0.05), "random, density 0.05"),
            _hard_ldim(64, 32, 0.05),
            _hard_ldim(128, 32, 0.05),
            _tree("thresholds(63)", lambda: classes.thresholds(63)),
            _vc("parities(3)", lambda: classes.parities(3), "parities"),
            _vc("random(40, 6, 0.3)", _random(40, 6, 0.3)),
            _worst_case(SOA, "thresholds(7)", lambda: classes.thresholds(7)),
            _worst_case(Halving, "thresholds(7)", lambda: classes.thresholds(7)),
            _play(SOA, "random(60, 8, 0.5)", _random(60, 8, 0.5), 50),
            _play(Halving, "random(1000, 16, 0.5)", _random(1000, 16, 0.5), 50),
            _play(Consistent, "random(1000, 16, 0.5)", _random(1000, 16, 0.5), 50),
            _perceptron(10, 0.1, 200),
        ]
    out: list[Case] = []
    out += _series("thresholds", "thresholds({})", (15, 63, 255, 1023, 4095), classes.thresholds)
    out += _series("singletons", "singletons({})", (8, 12, 16, 256, 1024, 4096, 8192), classes.singletons)
    out += _series("intervals", "intervals({})", (8, 16, 32, 64, 128), classes.intervals)
    out += _series("monotone_disjunctions", "monotone_disjunctions({})", (4, 6, 8, 10, 12), classes.monotone_disjunctions)
    out += _series("parities", "parities({})", (4, 6, 8, 10), classes.parities)
    out += _series("k_sparse(d, 2)", "k_sparse({}, {})", ((8, 2), (16, 2), (32, 2), (64, 2)), classes.k_sparse)
    out += _series("power_set", "power_set({})", (4, 6, 8, 10, 12), classes.power_set)
    fam = "random, density 0.5, |X| = log2 n"
    out += [_ldim(f"random({2**k}, {k}, 0.5)", _random(2**k, k, 0.5), fam) for k in (6, 8, 10, 12, 14)]
    out += [_ldim("random(1024, 16, 0.5)", _random(1024, 16, 0.5))]
    fam = "random, density 0.3, |X| = 30"
    out += [_ldim(f"random({n}, 30, 0.3)", _random(n, 30, 0.3), fam) for n in (12, 40, 156, 625, 1250, 2500, 5000)]
    fam = "random, density 0.05, |X| = 20"
    out += [_ldim(f"random({n}, 20, 0.05)", _random(n, 20, 0.05), fam) for n in (16, 64, 250, 500, 1000, 2000)]
    out += [_hard_ldim(n, 128, 0.03) for n in (32, 256, 1024, 2048, 4096, 8192)]
    out += [
        _tree("thresholds(4095)", lambda: classes.thresholds(4095)),
        _tree("intervals(64)", lambda: classes.intervals(64)),
        _tree("intervals(128)", lambda: classes.intervals(128)),
        _tree("singletons(8192)", lambda: classes.singletons(8192)),
        _tree("monotone_disjunctions(12)", lambda: classes.monotone_disjunctions(12)),
        _tree("random(4096, 12, 0.5)", _random(4096, 12, 0.5)),
        _tree("random(5000, 30, 0.3)", _random(5000, 30, 0.3)),
    ]
    out += [_vc(f"parities({n})", lambda n=n: classes.parities(n), "parities") for n in (4, 6, 8, 10)]
    out += [
        _vc(f"monotone_disjunctions({n})", lambda n=n: classes.monotone_disjunctions(n), "monotone_disjunctions")
        for n in (4, 6, 8, 10, 12)
    ]
    out += [_vc(f"random({n}, 30, 0.3)", _random(n, 30, 0.3), "random, density 0.3, |X| = 30") for n in (12, 40, 625, 2500, 5000)]
    out += [
        _worst_case(learner, name, build)
        for name, build in (
            ("thresholds(31)", lambda: classes.thresholds(31)),
            ("intervals(8)", lambda: classes.intervals(8)),
            ("singletons(12)", lambda: classes.singletons(12)),
            ("random(16, 8, 0.5)", _random(16, 8, 0.5)),
        )
        for learner in (SOA, Halving)
    ]
    out += [
        _play(SOA, "random(2000, 24, 0.5)", _random(2000, 24, 0.5), 1000),
        _play(Halving, "random(100000, 64, 0.5)", _random(100000, 64, 0.5), 1000),
        _play(Consistent, "random(100000, 64, 0.5)", _random(100000, 64, 0.5), 1000),
        _play(Halving, "random(1000000, 64, 0.5)", _random(1000000, 64, 0.5), 1000),
        _play(Consistent, "random(1000000, 64, 0.5)", _random(1000000, 64, 0.5), 1000),
        _perceptron(100, 0.1, 10000),
    ]
    return out


# -------------------------------------------------------------- the baseline
def vc_baseline(matrix) -> int:
    """The VC baseline: :func:`~mistakebound.theory.textbook.textbook_vcdim`, largest subsets first."""
    return textbook_vcdim(matrix, largest_first=True)


def _baseline_child(func: Callable, matrix: np.ndarray, conn) -> None:
    """Run ``func(matrix)`` once in this (forked) process and send back what happened.

    The recursion limit and the thread's stack are raised so that the textbook recursion
    fails by time, not by depth; address space is capped at half the machine's memory.
    """
    try:
        import resource

        total = memory_total()
        if total:
            resource.setrlimit(resource.RLIMIT_AS, (total // 2, total // 2))
    except (ImportError, ValueError, OSError):
        pass
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 * MiB)
    out: dict = {}

    def target() -> None:
        try:
            t0 = time.perf_counter()
            value = func(matrix)
            out.update(status="ok", value=int(value), seconds=time.perf_counter() - t0)
        except BaseException as exc:  # noqa: BLE001 - reported, not raised
            out.update(status=f"error: {type(exc).__name__}")

    t = threading.Thread(target=target)
    t.start()
    t.join()
    conn.send(out)
    conn.close()


def run_baseline(func: Callable, matrix: np.ndarray, cap: float) -> dict:
    """``func(matrix)`` once in a child process; killed after ``cap`` seconds."""
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_baseline_child, args=(func, matrix, send), daemon=True)
    proc.start()
    send.close()
    try:
        if recv.poll(cap):
            try:
                return recv.recv()
            except EOFError:
                proc.join()
                return {"status": f"crashed (exit code {proc.exitcode})"}
        return {"status": "timeout"}
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()


# ------------------------------------------------------------------ the runner
def _timed(func: Callable, H: Any, repeats: int, outcome=lambda H, out: out) -> tuple[list[float], list]:
    """``repeats`` timings of ``func(H)`` and the outcomes (computed outside the timing)."""
    times, values = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        output = func(H)
        times.append(time.perf_counter() - t0)
        values.append(outcome(H, output))
        del output
    return times, values


def measure(case: Case, repeats: int, cap: float, skip_baseline: str | None = None) -> dict:
    """Build, trace, time and cross-check one case; the record written to the JSON.

    ``skip_baseline`` (a reason) leaves the baseline out: status ``skipped``.
    """
    H = case.build()
    is_class = isinstance(H, HypothesisClass)
    tracemalloc.start()
    try:
        output = case.run(H)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    value = case.outcome(H, output)
    note = case.note(H, output) if case.note is not None else ""
    del output
    times, values = _timed(case.run, H, repeats, case.outcome)
    rec: dict[str, Any] = {
        "case": case.name,
        "kind": case.kind,
        "family": case.family,
        "n_hypotheses": H.n_hypotheses if is_class else None,
        "n_instances": H.n_instances if is_class else None,
        "size": f"{H.n_hypotheses} x {H.n_instances}" if is_class else (case.size or ""),
        "result": value,
        "median_s": statistics.median(times),
        "times_s": times,
        "peak_mib": peak / MiB,
        "baseline_status": None,
        "baseline_s": None,
        "baseline_result": None,
        "ratio": None,
        "mismatch": None,
        "note": note,
    }
    if case.kind == "hard":
        rec["log2_n_hypotheses"] = math.log2(H.n_hypotheses)
    problems = [f"repeat gave {v}, first run gave {value}" for v in values if v != value]
    if case.rounds:
        rec["rounds_per_s"] = case.rounds / rec["median_s"]
        rec["note"] = f"{case.rounds} rounds, {rec['rounds_per_s']:,.0f} rounds/s; result = mistakes"
    if case.reference is not None:
        ref_times, ref_values = _timed(case.reference, H, repeats)
        rec["reference_median_s"] = statistics.median(ref_times)
        rec["tree_over_ldim"] = rec["median_s"] / rec["reference_median_s"]
        rec["note"] = f"tree/ldim {rec['tree_over_ldim']:.2f}x (ldim {rec['reference_median_s']:.3g} s)"
        problems += [f"littlestone_dimension gave {v}" for v in set(ref_values) if v != value]
    if case.baseline is not None and skip_baseline is not None:
        rec["baseline_status"] = "skipped"
        rec["note"] = "; ".join(filter(None, [rec["note"], f"baseline skipped: {skip_baseline}"]))
    elif case.baseline is not None:
        b = run_baseline(case.baseline, H.matrix, cap)
        rec["baseline_status"] = b["status"]
        if b["status"] == "ok":
            rec["baseline_s"] = b["seconds"]
            rec["baseline_result"] = b["value"]
            rec["ratio"] = b["seconds"] / rec["median_s"]
            if b["value"] != value:
                problems.append(f"baseline {case.baseline.__name__} gave {b['value']}, ours {value}")
        elif b["status"] == "timeout":
            rec["ratio_at_least"] = cap / rec["median_s"]
    if case.alphabeta is not None:  # the second baseline: always run, capped like the first
        b = run_baseline(case.alphabeta, H.matrix, cap)
        rec["alphabeta_status"] = b["status"]
        if b["status"] == "ok":
            rec["alphabeta_s"] = b["seconds"]
            rec["alphabeta_ratio"] = b["seconds"] / rec["median_s"]
            if b["value"] != value:
                problems.append(f"baseline {case.alphabeta.__name__} gave {b['value']}, ours {value}")
        elif b["status"] == "timeout":
            rec["alphabeta_ratio_at_least"] = cap / rec["median_s"]
    if problems:
        rec["mismatch"] = "; ".join(problems)
    return rec


# ------------------------------------------------------------------ the output
COLUMNS = ("case", "size", "result", "median s", "peak MiB", "baseline s", "ratio", "a-b ratio", "note")


def _result_text(rec: dict) -> str:
    if rec.get("log2_n_hypotheses") is not None:
        return f"{rec['result']} (log2|H| {rec['log2_n_hypotheses']:.1f})"
    if rec.get("rounds_per_s") is not None:
        return f"{rec['result']} ({rec['rounds_per_s']:,.0f}/s)"
    return str(rec["result"])


def _row(rec: dict, cap: float) -> tuple[str, ...]:
    status = rec["baseline_status"]
    if status is None:
        base, ratio = "-", "-"
    elif status == "ok":
        base, ratio = f"{rec['baseline_s']:.3g}", f"{rec['ratio']:,.1f}x"
    elif status == "timeout":
        base, ratio = f"> {cap:g}", f"> {rec['ratio_at_least']:,.1f}x"
    else:
        base, ratio = status, "-"
    ab = rec.get("alphabeta_status")
    if ab == "ok":
        ab_ratio = f"{rec['alphabeta_ratio']:,.1f}x"
    elif ab == "timeout":
        ab_ratio = f"> {rec['alphabeta_ratio_at_least']:,.1f}x"
    else:
        ab_ratio = "-" if ab is None else ab
    note = rec["note"]
    if rec["mismatch"]:
        note = f"MISMATCH: {rec['mismatch']}"
    return (
        rec["case"],
        rec["size"],
        _result_text(rec),
        f"{rec['median_s']:.4g}",
        f"{rec['peak_mib']:.1f}",
        base,
        ratio,
        ab_ratio,
        note,
    )


def _line(cells: tuple[str, ...], widths: tuple[int, ...]) -> str:
    """Case name left-aligned, figures right-aligned, the note last and unpadded."""
    padded = [cells[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells[1:-1], widths[1:])]
    return "  ".join(padded + [cells[-1]]).rstrip()


def _write_json(path: str, payload: dict) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    write_atomically(path, json.dumps(payload, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks``: run the cases, print the table, write the JSON and the plots."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    p.add_argument("--smoke", action="store_true", help="tiny sizes, 1 repeat, baseline cap 2 s")
    p.add_argument("--repeats", type=int, default=5, help="timed runs per case (median reported)")
    p.add_argument("--baseline-cap", type=float, default=60.0, help="seconds before the baseline is killed")
    p.add_argument("--all-baselines", action="store_true",
                   help="run the baseline on every size, even past a size of the same family it did not finish")
    p.add_argument("--out", default=None,
                   help="JSON output (default: benchmarks/results/latest.json, or smoke.json with --smoke)")
    p.add_argument("--plots", default=None, metavar="DIR",
                   help="folder for the scaling plots (default: the folder of --out)")
    p.add_argument("--no-plots", action="store_true", help="do not draw the scaling plots")
    p.add_argument("--only", default=None, help="run only the cases whose name contains this")
    args = p.parse_args(argv)
    repeats, cap = (1, 2.0) if args.smoke else (args.repeats, args.baseline_cap)
    if repeats < 1:
        p.error(f"--repeats: expected an integer >= 1, got {repeats}")
    if not cap > 0:
        p.error(f"--baseline-cap: expected a number of seconds > 0, got {cap}")
    selected = [c for c in cases(args.smoke) if args.only is None or args.only in c.name]
    if not selected:
        p.error(f"--only: no case name contains {args.only!r}")
    if args.out is None:
        args.out = os.path.join("benchmarks", "results", "smoke.json" if args.smoke else "latest.json")
    plot_dir = None if args.no_plots else Path(args.plots if args.plots is not None else os.path.dirname(os.path.abspath(args.out)))

    m = machine()
    print(
        f"# {m['cpu']}, {m['uname']}, {m['cpu_count']} CPUs, {m['memory_gib']} GiB, "
        f"Python {m['python']}, numpy {m['numpy']}, {m['date']}, load average {m['load_average']}"
    )
    print(
        f"# mode {'smoke' if args.smoke else 'full'}; median s = median of {repeats} run(s); "
        f"peak MiB = tracemalloc peak (Python allocations) of one extra, untimed run; "
        f"baseline = textbook recursion (mistakebound.theory.textbook), run once in a child process "
        f"killed after {cap:g} s, skipped past a size of the same family it did not finish"
        f"{' (--all-baselines: never skipped)' if args.all_baselines else ''}; ratio = baseline s / median s; "
        f"a-b ratio = the same for the second baseline, a pruned alpha-beta search (most balanced split first, "
        f"cut at 1 + floor(log2 |smaller side|), no memo), run once per case; "
        f"result (n/s) = mistakes (rounds per second)"
    )
    print(flush=True)
    widths = (max(len(c.name) for c in selected), 14, 18, 9, 9, 10, 11, 10)
    print(_line(COLUMNS, widths), flush=True)
    records = []
    unfinished: dict[tuple, str] = {}  # (kind, family) -> the case whose baseline was killed
    started = time.perf_counter()
    for case in selected:
        key = (case.kind, case.family)
        skip = None
        if case.family is not None and key in unfinished and not args.all_baselines:
            skip = f"{unfinished[key]} exceeded the {cap:g} s cap"
        rec = measure(case, repeats, cap, skip)
        records.append(rec)
        if case.family is not None and rec["baseline_status"] not in (None, "ok", "skipped"):
            unfinished.setdefault(key, case.name)
        print(_line(_row(rec, cap), widths), flush=True)
        if rec["mismatch"]:
            print(f"!!! MISMATCH in {case.name}: {rec['mismatch']}", file=sys.stderr, flush=True)

    payload = {
        "machine": m,
        "mode": "smoke" if args.smoke else "full",
        "repeats": repeats,
        "baseline_cap_s": cap,
        "wall_s": time.perf_counter() - started,
        "peak_memory": "tracemalloc peak of Python allocations (numpy buffers included), one untimed run",
        "cases": records,
    }
    _write_json(args.out, payload)
    print(f"\nwrote {args.out} ({payload['wall_s']:.0f} s of benchmarks)")
    if plot_dir is not None:
        from benchmarks.plots import plot_scaling

        try:
            for path in plot_scaling(payload, plot_dir):
                print(f"wrote {path}")
        except ImportError as exc:
            print(f"scaling plots skipped: {exc}")
    bad = [r["case"] for r in records if r["mismatch"]]
    if bad:
        print(f"\n!!! MISMATCH in {len(bad)} case(s): {', '.join(bad)}", file=sys.stderr)
        return 1
    return 0
