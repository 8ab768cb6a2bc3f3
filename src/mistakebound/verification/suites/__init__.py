"""Scenario suites that ``mistakebound check`` runs beyond the finite-class grid.

Each module of this package holds the scenarios of one topic in a tuple
``SCENARIOS`` of :class:`~mistakebound.verification.scenario.Scenario`; :func:`all_scenarios` gathers
them in a fixed order.

Examples
--------
>>> all(s.measure for s in all_scenarios())
True
"""

from __future__ import annotations

import importlib
import pkgutil

from mistakebound.verification.scenario import Scenario

__all__ = ["all_scenarios"]


def all_scenarios() -> tuple[Scenario, ...]:
    """Every scenario of every suite module, module by module in name order."""
    out: list[Scenario] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        out.extend(getattr(module, "SCENARIOS", ()))
    return tuple(out)
