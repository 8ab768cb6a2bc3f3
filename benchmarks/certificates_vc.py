"""What a certificate of the VC dimension costs: to produce, to store, to check.

For each case: the seconds of the VC search alone (:func:`~mistakebound.theory.vc.vc_bounds`),
of producing the ``"vc"`` section (:func:`~mistakebound.theory.vc_certificate.vc_section`,
which runs the search again keeping a record of its branches), the section's and the whole
document's JSON sizes, the seconds of the independent checker in this process
(:func:`mistakebound.certificates.verify.check`) and as a program of its own
(``python -I -S verify.py FILE``, start-up and reading the file included).  Medians of
``--repeats`` runs.

Run through :mod:`benchmarks.certificates` (``python -m benchmarks.certificates``).
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Callable

from benchmarks.certificates import program_seconds
from mistakebound.certificates.verify import check
from mistakebound.game import classes
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.vc import vc_bounds
from mistakebound.theory.vc_certificate import vc_section

__all__ = ["CASES", "SMOKE", "measure_vc"]

#: (name, class builder, node budget): the random class is not searched to the end in minutes
#: (a partial certificate of the interval proven within the budget).
CASES: list[tuple[str, Callable[[], HypothesisClass], int | None]] = [
    ("thresholds(4095)", lambda: classes.thresholds(4095), None),
    ("intervals(128)", lambda: classes.intervals(128), None),
    ("singletons(8192)", lambda: classes.singletons(8192), None),
    ("monotone_disjunctions(12)", lambda: classes.monotone_disjunctions(12), None),
    ("random(5000, 30, 0.5, seed 0)", lambda: classes.random(5000, 30, 0.5, 0), 20000),
]
SMOKE = [("intervals(8)", lambda: classes.intervals(8), None),
         ("random(60, 9, 0.5, seed 3)", lambda: classes.random(60, 9, 0.5, 3), 5)]


def _tree_nodes(node: dict) -> int:
    return 1 + sum(_tree_nodes(child) for _, child in node.get("split", []))


def measure_vc(H: HypothesisClass, *, max_nodes: int | None = None, program: bool = True) -> dict:
    """One run on ``H``: search, production and checking seconds, JSON sizes, the proof's kind and size.

    With ``max_nodes`` the search and the certificate stop there (a partial certificate:
    ``lower`` and ``upper`` are the interval it proves).  With ``program`` the checker also
    runs as ``python -I -S verify.py`` on the written file.

    Examples
    --------
    >>> r = measure_vc(classes.intervals(8), program=False)
    >>> r["lower"], r["upper"], r["by"], r["document_bytes"] > r["section_bytes"] > 0
    (2, 2, 'search', True)
    """
    start = time.perf_counter()
    bounds = vc_bounds(H, max_nodes=max_nodes)
    searched = time.perf_counter() - start
    writer = CertificateWriter(H)
    start = time.perf_counter()
    section = vc_section(H, writer, max_nodes=max_nodes)
    document = writer.document()
    produced = time.perf_counter() - start
    start = time.perf_counter()
    proven = check(document)["vc"]
    checked = time.perf_counter() - start
    assert proven == (bounds.lower, bounds.upper), (proven, bounds)
    up = section["upper"]
    result = {"lower": bounds.lower, "upper": bounds.upper, "nodes": bounds.nodes, "by": up["by"],
              "tree_nodes": _tree_nodes(up["tree"]) if "tree" in up else 0,
              "search_s": searched, "produce_s": produced, "check_s": checked,
              "section_bytes": len(json.dumps(section, separators=(",", ":"))),
              "document_bytes": len(json.dumps(document, separators=(",", ":")))}
    if program:
        with tempfile.TemporaryDirectory() as folder:
            result["program_s"] = program_seconds(document, Path(folder))
    return result
