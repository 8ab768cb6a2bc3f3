"""The benchmark cases and the one runner that times them.

A :class:`Case` is a name, a ``build`` that makes the input (not timed) and a ``run``
that is timed: ``--repeats`` times, the median reported.  One more, untimed, run under
:mod:`tracemalloc` gives the peak of Python allocations.  A case may name a
``baseline`` (a function of the 0/1 matrix from :mod:`benchmarks.baseline`); it runs
once, in a forked process killed at the cap, and when it finishes its value must equal
ours, or the run reports a MISMATCH and exits non-zero.

Run from the repository root::

    python -m benchmarks --smoke
    python -m benchmarks --repeats 3 --baseline-cap 60 --only thresholds
"""

from __future__ import annotations

import datetime
import json
import multiprocessing
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
from attrs import frozen

import mistakebound as mb
from benchmarks.baseline import textbook_ldim, textbook_vcdim
from mistakebound import HypothesisClass, classes
from mistakebound.adversaries import ObliviousCoin
from mistakebound.learners import SOA, Consistent, Halving

__all__ = ["Case", "cases", "machine", "measure", "main"]

SEED = 20240601
MiB = 1024 * 1024


@frozen
class Case:
    """One benchmark: ``run(build())`` is timed.

    ``outcome(H, output)`` (untimed; default: the output itself) turns what ``run``
    returned into the reported result.  ``baseline`` (optional) maps the 0/1 matrix to the value ``run`` must return;
    ``reference`` (optional) is timed like ``run`` on the same input and reported as the
    ratio run/reference, its value must equal ``run``'s; ``rounds`` (games) turns the
    median into rounds per second.
    """

    name: str
    build: Callable[[], HypothesisClass]
    run: Callable[[HypothesisClass], Any]
    outcome: Callable[[HypothesisClass, Any], Any] = lambda H, output: output
    baseline: Callable[[Any], int] | None = None
    reference: Callable[[HypothesisClass], Any] | None = None
    rounds: int | None = None


# ------------------------------------------------------------------ the cases
def _random(n: int, m: int, density: float) -> Callable[[], HypothesisClass]:
    return lambda: classes.random(n, m, density, seed=SEED)


def _tree_depth(H: HypothesisClass, tree) -> int | str:
    """The depth of the tree if ``H`` shatters it (checked), else a message."""
    depth = tree.graph["depth"]
    return depth if mb.is_shattered(H, tree) else f"NOT SHATTERED (depth {depth})"


def _game(learner: type, rounds: int) -> Callable[[HypothesisClass], mb.Transcript]:
    def run(H: HypothesisClass) -> mb.Transcript:
        return mb.play(learner(H), ObliviousCoin(labels="target"), H, rounds=rounds, seed=SEED)

    return run


def _ldim(name: str, build: Callable[[], HypothesisClass]) -> Case:
    return Case(f"ldim {name}", build, mb.littlestone_dimension, baseline=textbook_ldim)


def _vc(name: str, build: Callable[[], HypothesisClass]) -> Case:
    return Case(f"vc {name}", build, mb.vc_dimension, baseline=textbook_vcdim)


def _tree(name: str, build: Callable[[], HypothesisClass]) -> Case:
    return Case(f"tree {name}", build, mb.shattered_tree, _tree_depth, reference=mb.littlestone_dimension)


def _play(learner: type, name: str, build: Callable[[], HypothesisClass], rounds: int) -> Case:
    return Case(f"play {learner.__name__} {name}", build, _game(learner, rounds), lambda H, T: T.mistakes, rounds=rounds)


def cases(smoke: bool = False) -> list[Case]:
    """The cases of a full run, or the tiny ones of ``--smoke``."""
    if smoke:
        return [
            _ldim("thresholds(63)", lambda: classes.thresholds(63)),
            _ldim("singletons(8)", lambda: classes.singletons(8)),
            _ldim("intervals(10)", lambda: classes.intervals(10)),
            _ldim("monotone_disjunctions(3)", lambda: classes.monotone_disjunctions(3)),
            _ldim("parities(3)", lambda: classes.parities(3)),
            _ldim("k_sparse(6, 2)", lambda: classes.k_sparse(6, 2)),
            _ldim("power_set(6)", lambda: classes.power_set(6)),
            _ldim("random(40, 6, 0.5)", _random(40, 6, 0.5)),
            _tree("thresholds(63)", lambda: classes.thresholds(63)),
            _vc("parities(3)", lambda: classes.parities(3)),
            _vc("random(40, 6, 0.3)", _random(40, 6, 0.3)),
            _play(SOA, "random(60, 8, 0.5)", _random(60, 8, 0.5), 50),
            _play(Halving, "random(1000, 16, 0.5)", _random(1000, 16, 0.5), 50),
            _play(Consistent, "random(1000, 16, 0.5)", _random(1000, 16, 0.5), 50),
        ]
    out = []
    out += [_ldim(f"thresholds({N})", lambda N=N: classes.thresholds(N)) for N in (255, 1023, 4095)]
    out += [_ldim(f"singletons({d})", lambda d=d: classes.singletons(d)) for d in (1024, 4096, 8192)]
    out += [_ldim(f"intervals({N})", lambda N=N: classes.intervals(N)) for N in (16, 32, 64, 128)]
    out += [
        _ldim(f"monotone_disjunctions({n})", lambda n=n: classes.monotone_disjunctions(n))
        for n in (8, 10, 12)
    ]
    out += [_ldim(f"parities({n})", lambda n=n: classes.parities(n)) for n in (6, 8, 10)]
    out += [_ldim(f"k_sparse({d}, {k})", lambda d=d, k=k: classes.k_sparse(d, k)) for d, k in ((16, 2), (20, 3))]
    out += [_ldim(f"power_set({d})", lambda d=d: classes.power_set(d)) for d in (10, 12)]
    out += [
        _ldim(f"random({n}, {m}, {p})", _random(n, m, p))
        for n, m, p in ((4096, 12, 0.5), (1024, 16, 0.5), (5000, 30, 0.3), (2000, 20, 0.05))
    ]
    out += [
        _tree("thresholds(4095)", lambda: classes.thresholds(4095)),
        _tree("intervals(64)", lambda: classes.intervals(64)),
        _vc("parities(10)", lambda: classes.parities(10)),
        _vc("monotone_disjunctions(12)", lambda: classes.monotone_disjunctions(12)),
        _vc("random(5000, 30, 0.3)", _random(5000, 30, 0.3)),
        _play(SOA, "random(2000, 24, 0.5)", _random(2000, 24, 0.5), 1000),
        _play(Halving, "random(100000, 64, 0.5)", _random(100000, 64, 0.5), 1000),
        _play(Consistent, "random(100000, 64, 0.5)", _random(100000, 64, 0.5), 1000),
    ]
    return out


# ----------------------------------------------------------------- the machine
def _meminfo_total() -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict:
    """What the numbers were measured on."""
    u = platform.uname()
    total = _meminfo_total()
    return {
        "cpu": _cpu_model(),
        "uname": f"{u.system} {u.release} {u.machine}",
        "cpu_count": os.cpu_count(),
        "memory_gib": None if total is None else round(total / 1024**3, 1),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
    }


# -------------------------------------------------------------- the baseline
def _baseline_child(func: Callable, matrix: np.ndarray, conn) -> None:
    """Run ``func(matrix)`` once in this (forked) process and send back what happened.

    The recursion limit and the thread's stack are raised so that the textbook recursion
    fails by time, not by depth; address space is capped at half the machine's memory.
    """
    try:
        import resource

        total = _meminfo_total()
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
def _timed(func: Callable, H: HypothesisClass, repeats: int, outcome=lambda H, out: out) -> tuple[list[float], list]:
    """``repeats`` timings of ``func(H)`` and the outcomes (computed outside the timing)."""
    times, values = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        output = func(H)
        times.append(time.perf_counter() - t0)
        values.append(outcome(H, output))
        del output
    return times, values


def measure(case: Case, repeats: int, cap: float) -> dict:
    """Build, trace, time and cross-check one case; the record written to the JSON."""
    H = case.build()
    tracemalloc.start()
    output = case.run(H)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    value = case.outcome(H, output)
    del output
    times, values = _timed(case.run, H, repeats, case.outcome)
    rec: dict[str, Any] = {
        "case": case.name,
        "n_hypotheses": H.n_hypotheses,
        "n_instances": H.n_instances,
        "result": value,
        "median_s": statistics.median(times),
        "times_s": times,
        "peak_mib": peak / MiB,
        "baseline_status": None,
        "baseline_s": None,
        "baseline_result": None,
        "ratio": None,
        "mismatch": None,
        "note": "",
    }
    problems = [f"repeat gave {v}, first run gave {value}" for v in values if v != value]
    if case.rounds:
        rec["rounds_per_s"] = case.rounds / rec["median_s"]
        rec["note"] = f"{case.rounds} rounds, {rec['rounds_per_s']:,.0f} rounds/s, result = mistakes"
    if case.reference is not None:
        ref_times, ref_values = _timed(case.reference, H, repeats)
        rec["reference_median_s"] = statistics.median(ref_times)
        rec["tree_over_ldim"] = rec["median_s"] / rec["reference_median_s"]
        rec["note"] = f"tree/ldim {rec['tree_over_ldim']:.2f}x (ldim {rec['reference_median_s']:.3g} s)"
        problems += [f"littlestone_dimension gave {v}" for v in set(ref_values) if v != value]
    if case.baseline is not None:
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
    if problems:
        rec["mismatch"] = "; ".join(problems)
    return rec


# ------------------------------------------------------------------ the output
COLUMNS = ("case", "size", "result", "median s", "peak MiB", "baseline s", "ratio", "note")


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
    note = rec["note"]
    if rec["mismatch"]:
        note = f"MISMATCH: {rec['mismatch']}"
    return (
        rec["case"],
        f"{rec['n_hypotheses']} x {rec['n_instances']}",
        str(rec["result"]),
        f"{rec['median_s']:.4g}",
        f"{rec['peak_mib']:.1f}",
        base,
        ratio,
        note,
    )


def _line(cells: tuple[str, ...], widths: tuple[int, ...]) -> str:
    """Case name left-aligned, figures right-aligned, the note last and unpadded."""
    padded = [cells[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells[1:-1], widths[1:])]
    return "  ".join(padded + [cells[-1]]).rstrip()


def _write_json(path: str, payload: dict) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".bench-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(payload, f, indent=2)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks``: run the cases, print the table, write the JSON."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    p.add_argument("--smoke", action="store_true", help="tiny sizes, 1 repeat, baseline cap 2 s")
    p.add_argument("--repeats", type=int, default=5, help="timed runs per case (median reported)")
    p.add_argument("--baseline-cap", type=float, default=60.0, help="seconds before the baseline is killed")
    p.add_argument("--out", default=os.path.join("benchmarks", "results", "latest.json"), help="JSON output")
    p.add_argument("--only", default=None, help="run only the cases whose name contains this")
    args = p.parse_args(argv)
    repeats, cap = (1, 2.0) if args.smoke else (args.repeats, args.baseline_cap)
    if repeats < 1:
        p.error(f"--repeats: expected an integer >= 1, got {repeats}")
    selected = [c for c in cases(args.smoke) if args.only is None or args.only in c.name]
    if not selected:
        p.error(f"--only: no case name contains {args.only!r}")

    m = machine()
    print(
        f"# {m['cpu']}, {m['uname']}, {m['cpu_count']} CPUs, {m['memory_gib']} GiB, "
        f"Python {m['python']}, numpy {m['numpy']}, {m['date']}"
    )
    print(
        f"# mode {'smoke' if args.smoke else 'full'}; median s = median of {repeats} run(s); "
        f"peak MiB = tracemalloc peak (Python allocations) of one extra run; "
        f"baseline = textbook recursion (benchmarks/baseline.py), run once in a child process "
        f"killed after {cap:g} s; ratio = baseline s / median s"
    )
    print(flush=True)
    widths = (max(len(c.name) for c in selected), 14, 7, 9, 9, 10, 10)
    print(_line(COLUMNS, widths), flush=True)
    records = []
    for case in selected:
        rec = measure(case, repeats, cap)
        records.append(rec)
        print(_line(_row(rec, cap), widths), flush=True)
        if rec["mismatch"]:
            print(f"!!! MISMATCH in {case.name}: {rec['mismatch']}", file=sys.stderr, flush=True)

    payload = {
        "machine": m,
        "mode": "smoke" if args.smoke else "full",
        "repeats": repeats,
        "baseline_cap_s": cap,
        "peak_memory": "tracemalloc peak of Python allocations, one untimed run",
        "cases": records,
    }
    _write_json(args.out, payload)
    print(f"\nwrote {args.out}")
    bad = [r["case"] for r in records if r["mismatch"]]
    if bad:
        print(f"\n!!! MISMATCH in {len(bad)} case(s): {', '.join(bad)}", file=sys.stderr)
        return 1
    return 0
