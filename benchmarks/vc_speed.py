"""Seconds and peak memory of the VC search, and how closely it keeps a time limit.

For each case a fresh child process builds the class and runs
:func:`~mistakebound.theory.vc.vc_bounds` once; it reports the search's seconds, its
result, and the process's peak resident memory (``VmHWM`` of ``/proc/self/status``,
the interpreter and the class included).  Each case is run ``--repeats`` times and the
medians are printed.  One more run, under :mod:`tracemalloc` (which slows the search
several times over, so its seconds are not kept), gives the peak of the allocations
made during the search alone (numpy's arrays included).  A case with a time limit also prints
the overshoot, ``seconds / limit - 1`` (the goal: under 10%).

The full cube ``{0,1}^d`` is built with :meth:`HypothesisClass.from_matrix`
(:func:`~mistakebound.game.classes.power_set` stops at ``d = 16``).

``--before`` runs the same cases with the search of the last commit (``git show
HEAD:src/mistakebound/theory/vc.py`` loaded as a module of its own; read-only), under
``--before-limit`` seconds, so that before and after are measured on the same machine.

Run from the repository root::

    python -m benchmarks.vc_speed                  # the cases, medians of 3
    python -m benchmarks.vc_speed --before         # and the last commit's search
    python -m benchmarks.vc_speed --smoke          # tiny sizes, one run

Measured first (the last commit's search, before the cube search), on this machine:
``2^18 x 18`` full cube 0.21 s, 112 MB peak RSS; random ``100000 x 20`` (density 0.5, seed 0)
stopped at ``13 <= VCdim <= 16`` by a 60 s limit (14,336 nodes), 88 MB; ``time_limit=2``
kept within 0.01 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.suite import machine

__all__ = ["CASES", "SMOKE", "main", "measure"]

ROOT = Path(__file__).resolve().parent.parent

#: (name, class spec, time limit or None).  A spec is ("cube", d) or ("random", n, m, density, seed).
CASES: list[tuple[str, tuple, float | None]] = [
    ("full cube 2^18 x 18", ("cube", 18), None),
    ("full cube 2^20 x 20", ("cube", 20), None),
    ("random(100000, 20, 0.5, seed 0)", ("random", 100_000, 20, 0.5, 0), None),
    ("random(100000, 22, 0.5, seed 0)", ("random", 100_000, 22, 0.5, 0), None),
    ("random(3000, 30, 0.3, seed 0)", ("random", 3000, 30, 0.3, 0), None),
    ("random(100000, 22, 0.5, seed 0), limit 2 s", ("random", 100_000, 22, 0.5, 0), 2.0),
    ("random(100000, 22, 0.5, seed 0), limit 0.5 s", ("random", 100_000, 22, 0.5, 0), 0.5),
    ("random(3000, 30, 0.3, seed 0), limit 0.5 s", ("random", 3000, 30, 0.3, 0), 0.5),
]
SMOKE: list[tuple[str, tuple, float | None]] = [
    ("full cube 2^10 x 10", ("cube", 10), None),
    ("random(2000, 12, 0.5, seed 0)", ("random", 2000, 12, 0.5, 0), None),
    ("random(2000, 12, 0.5, seed 0), limit 0.01 s", ("random", 2000, 12, 0.5, 0), 0.01),
]

_CHILD = r"""
import json, sys, time, tracemalloc
import numpy as np
spec, limit, module_path, trace = json.loads(sys.argv[1])
if module_path:
    import importlib.util
    s = importlib.util.spec_from_file_location("vc_before", module_path)
    vc = importlib.util.module_from_spec(s)
    s.loader.exec_module(vc)
else:
    from mistakebound.theory import vc
from mistakebound.game import classes
from mistakebound.game.hypothesis_class import HypothesisClass
if spec[0] == "cube":
    d = spec[1]
    codes = np.arange(2**d, dtype=np.uint32)
    M = ((codes[:, None] >> np.arange(d - 1, -1, -1, dtype=np.uint32)[None, :]) & 1).astype(np.uint8)
    H = HypothesisClass.from_matrix(M, range(d))
else:
    H = classes.random(*spec[1:])
if trace:
    tracemalloc.start()
t = time.perf_counter()
b = vc.vc_bounds(H, time_limit=limit)
seconds = time.perf_counter() - t
traced = tracemalloc.get_traced_memory()[1] if trace else 0
hwm = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(json.dumps({"seconds": seconds, "result": b.describe(), "nodes": b.nodes, "rss": hwm, "traced": traced}))
"""


def _run_child(spec: tuple, limit: float | None, module_path: str | None, trace: bool = False) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]))
    out = subprocess.run([sys.executable, "-c", _CHILD, json.dumps([list(spec), limit, module_path, trace])],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(spec: tuple, limit: float | None, repeats: int, module_path: str | None = None) -> dict:
    """Medians of ``repeats`` runs, each in a fresh process: seconds, peak RSS, the result; traced bytes of one more.

    Examples
    --------
    >>> r = measure(("cube", 6), None, 1)
    >>> r["result"], r["nodes"]
    ('VCdim = 6', 0)
    """
    runs = [_run_child(spec, limit, module_path) for _ in range(repeats)]
    out = {key: statistics.median(r[key] for r in runs) for key in ("seconds", "rss", "nodes")}
    out["traced"] = _run_child(spec, limit, module_path, trace=True)["traced"]
    out["result"] = statistics.mode(r["result"] for r in runs)
    return out


def _before_module(directory: str) -> str:
    """The last commit's ``vc.py`` written to ``directory`` (``git show``, which changes nothing)."""
    text = subprocess.run(["git", "show", "HEAD:src/mistakebound/theory/vc.py"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    path = Path(directory) / "vc_before.py"
    path.write_text(text)
    return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one run")
    parser.add_argument("--before", action="store_true", help="also run the last commit's search")
    parser.add_argument("--before-limit", type=float, default=60.0,
                        help="seconds the last commit's search gets on a case without a limit (default 60)")
    args = parser.parse_args(argv)
    cases, repeats = (SMOKE, 1) if args.smoke else (CASES, args.repeats)
    m = machine()
    print(f"# {m['cpu']} ({m['cpu_count']} CPUs, {m['memory_gib']} GiB), Python {m['python']}, "
          f"numpy {m['numpy']}, load {m['load_average']}, {m['date']}")
    print(f"# median of {repeats} runs, each in a fresh process; RSS: peak resident (VmHWM) of that process")
    print(f"{'case':<46} {'search':<8} {'seconds':>8} {'over':>6} {'peak RSS':>9} {'traced':>9}  result")
    with tempfile.TemporaryDirectory() as tmp:
        variants = [("now", None)]
        if args.before:
            variants.append(("before", _before_module(tmp)))
        for name, spec, limit in cases:
            for label, path in variants:
                run_limit = limit if limit is not None or label == "now" else args.before_limit
                r = measure(spec, run_limit, repeats, path)
                over = f"{r['seconds'] / limit - 1:+.0%}" if limit else ""
                print(f"{name:<46} {label:<8} {r['seconds']:>8.2f} {over:>6} {r['rss'] / 2**20:>7.0f}MB "
                      f"{r['traced'] / 2**20:>7.0f}MB  {r['result']} ({r['nodes']:,.0f} nodes)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
