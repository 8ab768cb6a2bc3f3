"""What certificates cost: size and checking time against the search's own time (issue 14).

For each case of the issue: the exact search, the certificate's production, its size (the
whole document as JSON and gzip-compressed, the section alone) and the independent
checker's time, in process (:func:`mistakebound.certificates.verify.check`) and as a
program of its own (``python -I -S verify.py FILE.json.gz``, reading and decompressing
included).  Ldim is measured here; the VC dimension, the worst case and the randomized
Littlestone dimension by their own modules (:mod:`benchmarks.certificates_vc`,
:mod:`benchmarks.certificates_worst_case`, :mod:`benchmarks.certificates_randomized`), and
the game's value under other rules by :mod:`benchmarks.certificates_game`.
For Ldim, the memo the search keeps (``LdimSearch.memo_bytes()``) is the yardstick of the
certificate's size.  Medians of ``--repeats`` runs; the machine is printed first.

Run from the repository root::

    python -m benchmarks.certificates                  # every case, 3 repeats
    python -m benchmarks.certificates --smoke          # tiny classes, one repeat
    python -m benchmarks.certificates --json out.json  # also the records as JSON
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mistakebound.certificates import verify
from mistakebound.game import classes
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.ldim_certificate import ldim_section
from mistakebound.theory.littlestone import LdimSearch

__all__ = ["LDIM_CASES", "SMOKE", "main", "measure_ldim", "program_seconds"]

#: The classes issue 14 names, for Ldim and the VC dimension.
LDIM_CASES: list[tuple[str, Callable[[], HypothesisClass]]] = [
    ("thresholds(4095)", lambda: classes.thresholds(4095)),
    ("intervals(128)", lambda: classes.intervals(128)),
    ("singletons(8192)", lambda: classes.singletons(8192)),
    ("monotone_disjunctions(12)", lambda: classes.monotone_disjunctions(12)),
    ("random(5000, 30, 0.5, seed 0)", lambda: classes.random(5000, 30, 0.5, seed=0)),
]
SMOKE: list[tuple[str, Callable[[], HypothesisClass]]] = [
    ("thresholds(63)", lambda: classes.thresholds(63)),
    ("intervals(12)", lambda: classes.intervals(12)),
]


def program_seconds(document: dict, folder: Path) -> float:
    """Seconds of ``python -I -S verify.py FILE.json.gz`` on ``document`` (start-up and reading included)."""
    path = folder / "certificate.json.gz"
    path.write_bytes(gzip.compress(json.dumps(document, separators=(",", ":")).encode("ascii"), mtime=0))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-I", "-S", verify.__file__, str(path)], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"the checker refused a produced certificate: {done.stderr}")
    return seconds


def measure_ldim(H: HypothesisClass, *, folder: Path | None = None) -> dict:
    """One run on ``H``: search, production and checking seconds, sizes, and the value proved.

    Examples
    --------
    >>> r = measure_ldim(classes.thresholds(7))
    >>> r["value"], r["facts"] > 0, r["document_bytes"] > r["section_bytes"] > 0
    (3, True, True)
    """
    start = time.perf_counter()
    search = LdimSearch(H)
    bounds = search.bounds()
    searched = time.perf_counter() - start
    memo = search.memo_bytes()
    start = time.perf_counter()
    writer = CertificateWriter(H)
    section = ldim_section(search, writer, lower=bounds.lower, upper=bounds.upper)
    document = writer.document()
    produced = time.perf_counter() - start
    start = time.perf_counter()
    proven = verify.check(document)["ldim"]
    checked = time.perf_counter() - start
    assert proven == (bounds.lower, bounds.upper) == (bounds.lower, bounds.lower), (proven, bounds)
    text = json.dumps(document, separators=(",", ":")).encode("ascii")
    facts = section["facts"]
    record = {
        "value": bounds.lower, "nodes": bounds.nodes, "search_s": searched, "produce_s": produced,
        "check_s": checked, "memo_bytes": memo, "facts": len(facts), "spaces": len(document["spaces"]),
        "maps": sum(1 for f in facts if isinstance(f[3], list) and f[3][:1] == ["map"]),
        "section_bytes": len(json.dumps(section, separators=(",", ":"))),
        "document_bytes": len(text), "gzip_bytes": len(gzip.compress(text, mtime=0)),
    }
    if folder is not None:
        record["program_s"] = program_seconds(document, folder)
    return record


def _machine() -> str:
    cpus = os.cpu_count()
    try:
        model = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        model = platform.processor() or "unknown CPU"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{model}, {cpus} CPUs, load {load:.2f}; Python {platform.python_version()}"


def _median_runs(measure: Callable[[], dict], repeats: int) -> dict:
    runs = [measure() for _ in range(repeats)]
    record = dict(runs[0])
    for key in runs[0]:
        if key.endswith("_s"):
            record[key] = statistics.median(r[key] for r in runs)
    return record


def _fields(record: dict) -> str:
    return " ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in record.items())


def main(argv: list[str] | None = None) -> int:
    """Print one table per kind of result, medians of ``--repeats`` runs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny classes, one repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", metavar="FILE", help="also write every record as JSON")
    args = parser.parse_args(argv)
    from benchmarks.certificates_game import CASES as GAME_CASES
    from benchmarks.certificates_game import SMOKE as GAME_SMOKE
    from benchmarks.certificates_game import measure_game
    from benchmarks.certificates_randomized import CASES as RL_CASES
    from benchmarks.certificates_randomized import SMOKE as RL_SMOKE
    from benchmarks.certificates_randomized import measure_rldim
    from benchmarks.certificates_vc import CASES as VC_CASES
    from benchmarks.certificates_vc import SMOKE as VC_SMOKE
    from benchmarks.certificates_vc import measure_vc
    from benchmarks.certificates_worst_case import CASES as WC_CASES
    from benchmarks.certificates_worst_case import SMOKE as WC_SMOKE
    from benchmarks.certificates_worst_case import measure_worst_case
    from mistakebound.learners import SOA, Halving

    cases, repeats = (SMOKE, 1) if args.smoke else (LDIM_CASES, args.repeats)
    print(f"machine: {_machine()}; medians of {repeats} run(s)")
    records: dict[str, list] = {"ldim": [], "vc": [], "worst-case": [], "rldim": [], "value": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print("\nLdim: search, certificate production and checking (s); sizes (KB); memo of the search (KB)")
        print(f"{'case':30} {'Ldim':>4} {'search':>7} {'produce':>7} {'check':>7} {'program':>7} {'facts':>6} "
              f"{'maps':>5} {'memo':>7} {'section':>8} {'document':>9} {'gzip':>6}")
        for name, build in cases:
            H = build()
            r = _median_runs(lambda: measure_ldim(H, folder=folder), repeats)
            records["ldim"].append({"case": name, **r})
            print(f"{name:30} {r['value']:>4} {r['search_s']:>7.3f} {r['produce_s']:>7.3f} {r['check_s']:>7.3f} "
                  f"{r['program_s']:>7.3f} {r['facts']:>6} {r['maps']:>5} {r['memo_bytes'] / 1e3:>7.0f} "
                  f"{r['section_bytes'] / 1e3:>8.0f} {r['document_bytes'] / 1e3:>9.0f} {r['gzip_bytes'] / 1e3:>6.0f}")
        print("\nVC dimension (a node budget where the search does not finish in minutes)")
        for name, build, budget in (VC_SMOKE if args.smoke else VC_CASES):
            H = build()
            r = _median_runs(lambda: measure_vc(H, max_nodes=budget), repeats)
            records["vc"].append({"case": name, **r})
            print(f"{name:30} " + _fields(r))
        print("\nWorst case")
        for name, build in (WC_SMOKE if args.smoke else WC_CASES):
            H = build()
            for learner in (Halving, SOA):
                r = _median_runs(lambda: measure_worst_case(learner(H), H), repeats)
                records["worst-case"].append({"case": f"{learner.__name__} on {name}", **r})
                print(f"{learner.__name__ + ' on ' + name:34} " + _fields(r))
        print("\nRandomized Littlestone dimension")
        for name, build in (RL_SMOKE if args.smoke else RL_CASES):
            H = build()
            r = _median_runs(lambda: measure_rldim(H), repeats)
            records["rldim"].append({"case": name, **r})
            print(f"{name:30} " + _fields(r))
        print("\nThe game's value under other rules")
        for name, build, rules in (GAME_SMOKE if args.smoke else GAME_CASES):
            H = build()
            r = _median_runs(lambda: measure_game(H, rules), repeats)
            records["value"].append({"case": name, **r})
            print(f"{name:30} " + _fields(r))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": _machine(), "records": records}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
