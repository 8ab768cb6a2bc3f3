"""What a worst-case certificate costs: search, production, size, checking and replay.

For each case, :func:`measure_worst_case` times the plain search
(:func:`~mistakebound.theory.worst_case.worst_case_mistakes`), the recording search that writes
the ``"worst-case"`` section (:func:`~mistakebound.theory.worst_case_certificate.worst_case_section`,
the document included), the independent check (in this process, and as the program
``python -I -S verify.py`` on the file) and the replay against the learner; and reports the
section's and the document's JSON sizes.  Not a test.

Run through :mod:`benchmarks.certificates` (``python -m benchmarks.certificates``).
"""

from __future__ import annotations

import gzip
import json
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from benchmarks.certificates import program_seconds
from mistakebound.certificates import verify
from mistakebound.game import classes
from mistakebound.game.counterexamples import halving_exceeds_ldim
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.worst_case import worst_case_mistakes
from mistakebound.theory.worst_case_certificate import replay, worst_case_section

__all__ = ["CASES", "SMOKE", "measure_worst_case"]

CASES: list[tuple[str, Callable[[], HypothesisClass]]] = [
    ("halving_exceeds_ldim", halving_exceeds_ldim),
    ("thresholds(63)", lambda: classes.thresholds(63)),
    ("singletons(12)", lambda: classes.singletons(12)),
]
SMOKE: list[tuple[str, Callable[[], HypothesisClass]]] = [("thresholds(7)", lambda: classes.thresholds(7))]


def measure_worst_case(learner: Any, H: HypothesisClass, *, program: bool = True) -> dict:
    """One measurement: seconds of the search, the production, the check(s) and the replay; sizes in bytes."""
    t = time.perf_counter()
    W = worst_case_mistakes(learner, H)
    search = time.perf_counter() - t
    t = time.perf_counter()
    writer = CertificateWriter(H)
    _, section = worst_case_section(learner, H, writer)
    document = writer.document()
    text = json.dumps(document, separators=(",", ":"))
    production = time.perf_counter() - t
    t = time.perf_counter()
    proven = verify.check(json.loads(text))["worst-case"]
    checking = time.perf_counter() - t
    t = time.perf_counter()
    replay(document, learner, H)
    replaying = time.perf_counter() - t
    result = {"value": W.value, "proven": proven, "positions": W.nodes, "states": len(section["states"]),
              "facts": len(section["facts"]), "search_s": search, "production_s": production,
              "check_s": checking, "replay_s": replaying,
              "section_bytes": len(json.dumps(section, separators=(",", ":"))), "document_bytes": len(text),
              "gzip_bytes": len(gzip.compress(text.encode(), 6, mtime=0))}
    if program:
        with tempfile.TemporaryDirectory() as tmp:
            result["program_s"] = program_seconds(document, Path(tmp))
    return result
