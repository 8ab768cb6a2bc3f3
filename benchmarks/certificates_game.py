"""What a certificate of the game's value under other rules costs: to produce, to store, to check.

For each case (a class and the rules of a game): the seconds of the exact search
(:func:`~mistakebound.theory.game_values.solve_game`), of producing the section from its memo
(:func:`~mistakebound.theory.game_certificate.game_section`), the section's and the whole
document's JSON sizes, and the seconds of the independent checker
(:func:`mistakebound.certificates.verify.check`).

Run through :mod:`benchmarks.certificates` (``python -m benchmarks.certificates``).
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Any, Callable

import numpy as np

from mistakebound.certificates.verify import check
from mistakebound.game import classes
from mistakebound.game.rules import Rules
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.game_certificate import game_section
from mistakebound.theory.game_values import solve_game, table_of

__all__ = ["CASES", "SMOKE", "measure_game"]


def _all_maps(points: int, labels: int) -> np.ndarray:
    """Every map from ``points`` instances to ``labels`` labels, one row each."""
    return np.array(list(itertools.product(range(labels), repeat=points)))


CASES: list[tuple[str, Callable[[], Any], Rules]] = [
    ("thresholds(15)", lambda: classes.thresholds(15), Rules(noise=1)),
    ("thresholds(15)", lambda: classes.thresholds(15), Rules(noise=2)),
    ("singletons(8)", lambda: classes.singletons(8), Rules(noise=2)),
    ("power_set(4)", lambda: classes.power_set(4), Rules(noise=2)),
    ("all [3] -> [3]", lambda: _all_maps(3, 3), Rules(labels=3, feedback="bandit")),
    ("all [3] -> [3]", lambda: _all_maps(3, 3), Rules(labels=3, noise=2)),
    ("thresholds(7)", lambda: classes.thresholds(7), Rules(noise=1, randomized=True)),
    ("all [2] -> [3]", lambda: _all_maps(2, 3), Rules(labels=3, noise=1, randomized=True)),
]
SMOKE = [("thresholds(3)", lambda: classes.thresholds(3), Rules(noise=1)),
         ("all [2] -> [3]", lambda: _all_maps(2, 3), Rules(labels=3, feedback="bandit"))]


def measure_game(H: Any, rules: Rules) -> dict:
    """One run on ``H`` under ``rules``: search, production and checking seconds, JSON sizes, facts and the value.

    Examples
    --------
    >>> r = measure_game(classes.thresholds(3), Rules(noise=1))
    >>> r["value"], r["facts"] > 0, r["document_bytes"] > r["section_bytes"] > 0
    ('4', True, True)
    """
    start = time.perf_counter()
    value, search = solve_game(H, rules)
    searched = time.perf_counter() - start
    start = time.perf_counter()
    writer = CertificateWriter(H if not isinstance(H, np.ndarray) else table_of(H, rules.labels))
    section = game_section(search, value, writer)
    document = writer.document()
    produced = time.perf_counter() - start
    start = time.perf_counter()
    (proven,) = check(document).values()
    checked = time.perf_counter() - start
    assert proven == (value.value, value.value), (proven, value)
    return {"value": str(value.value), "rules": rules.describe(), "nodes": value.nodes, "search_s": searched,
            "produce_s": produced, "check_s": checked, "facts": len(section["facts"]),
            "section_bytes": len(json.dumps(section, separators=(",", ":"))),
            "document_bytes": len(json.dumps(document, separators=(",", ":")))}
