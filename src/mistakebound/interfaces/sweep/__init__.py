"""Sweeps: a grid of games and searches, run on one machine or many, recorded resumably.

``mistakebound sweep CONFIG.toml`` and :func:`sweep` expand a configuration
(:mod:`~mistakebound.interfaces.sweep.config`) into cells (:mod:`~mistakebound.interfaces.sweep.cells`),
run them in-process, on a local process pool or on a Dask cluster
(:mod:`~mistakebound.interfaces.sweep.executors`), stream one CSV row per finished cell and resume
from it (:mod:`~mistakebound.interfaces.sweep.results`), and summarise and plot what they found
(:mod:`~mistakebound.interfaces.sweep.summary`, :mod:`~mistakebound.interfaces.sweep.figures`).

Examples
--------
>>> from mistakebound.interfaces.sweep import sweep
>>> result = sweep({"grid": [{"kind": "search", "search": "ldim", "classes": ["thresholds"],
...                           "sizes": [1, 3, 7, 15]}]})
>>> [r["ldim"] for r in result.records]
[1, 2, 3, 4]
"""

from mistakebound.foundations.lazy import lazy_attributes

# imported when first used: the command line builds its parser from sweep.cli alone
__getattr__, __dir__ = lazy_attributes(globals(), {
    "mistakebound.interfaces.sweep.cells": ("FIELDS", "Cell", "expand", "run_cell"),
    "mistakebound.interfaces.sweep.config": ("Grid", "SweepConfig", "load_config"),
    "mistakebound.interfaces.sweep.executors": ("EXECUTORS", "DaskDependencyError"),
    "mistakebound.interfaces.sweep.results": ("ResultsFile", "read_records", "read_frame"),
    "mistakebound.interfaces.sweep.runner": ("SweepResult", "sweep"),
    "mistakebound.interfaces.sweep.summary": ("format_summary", "replay_command"),
    "mistakebound.interfaces.sweep.figures": ("plot_records",),
})

__all__ = [
    "sweep",
    "SweepConfig",
    "SweepResult",
    "Grid",
    "Cell",
    "FIELDS",
    "EXECUTORS",
    "DaskDependencyError",
    "ResultsFile",
    "expand",
    "format_summary",
    "load_config",
    "plot_records",
    "read_records",
    "read_frame",
    "replay_command",
    "run_cell",
    "Record",
]

#: A record: a flat dict of JSON-able scalars keyed by :data:`FIELDS`.
Record = dict
