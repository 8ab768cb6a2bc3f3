"""What a certificate of the randomized Littlestone dimension costs: to produce, to store, to check.

For each case: the seconds of the exact search (:class:`~mistakebound.theory.randomized_ldim.RLdimSearch`),
of producing the ``"rldim"`` section from its memo (:func:`~mistakebound.theory.randomized_certificate.rldim_section`),
the section's and the whole document's JSON sizes, and the seconds of the independent
checker (:func:`mistakebound.certificates.verify.check`).

Run through :mod:`benchmarks.certificates` (``python -m benchmarks.certificates``).
"""

from __future__ import annotations

import json
import time
from typing import Callable

from mistakebound.certificates.verify import check
from mistakebound.game import classes
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.randomized_ldim import RLdimSearch
from mistakebound.theory.randomized_certificate import rldim_section

__all__ = ["CASES", "SMOKE", "measure_rldim"]

CASES: list[tuple[str, Callable[[], HypothesisClass]]] = [
    ("intervals(8)", lambda: classes.intervals(8)),
    ("intervals(12)", lambda: classes.intervals(12)),
    ("intervals(16)", lambda: classes.intervals(16)),
    ("power_set(8)", lambda: classes.power_set(8)),
    ("power_set(12)", lambda: classes.power_set(12)),
    ("singletons(64)", lambda: classes.singletons(64)),
    ("random(60, 12, 0.5, seed 1)", lambda: classes.random(60, 12, 0.5, 1)),
]
SMOKE = [("intervals(4)", lambda: classes.intervals(4)), ("singletons(6)", lambda: classes.singletons(6))]


def measure_rldim(H: HypothesisClass) -> dict:
    """One run on ``H``: search, production and checking seconds, JSON sizes, facts and the value.

    Examples
    --------
    >>> r = measure_rldim(classes.singletons(4))
    >>> r["value"], r["facts"] > 0, r["document_bytes"] > r["section_bytes"] > 0
    ('7/8', True, True)
    """
    start = time.perf_counter()
    search = RLdimSearch(H)
    value = search.bounds().value
    searched = time.perf_counter() - start
    writer, stats = CertificateWriter(H), {}
    start = time.perf_counter()
    section = rldim_section(search, writer, stats=stats)
    document = writer.document()
    produced = time.perf_counter() - start
    start = time.perf_counter()
    proven = check(document)["rldim"]
    checked = time.perf_counter() - start
    assert proven == (value, value), (proven, value)
    return {"value": str(value), "nodes": search.nodes, "search_s": searched, "produce_s": produced,
            "check_s": checked, "facts": stats["facts"], "spaces": len(document["spaces"]),
            "resolved": stats["searched"],
            "section_bytes": len(json.dumps(section, separators=(",", ":"))),
            "document_bytes": len(json.dumps(document, separators=(",", ":")))}
