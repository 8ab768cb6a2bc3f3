"""Sweeps: a grid of games and searches, run on one machine or many, recorded resumably.

``mistakebound sweep CONFIG.toml`` and :func:`sweep` expand a configuration
(:mod:`~mistakebound.interfaces.sweep.config`) into cells (:mod:`~mistakebound.interfaces.sweep.cells`),
run them in-process, on a local process pool or on a Dask cluster
(:mod:`~mistakebound.interfaces.sweep.executors`), stream one CSV row per finished cell and resume
from it (:mod:`~mistakebound.interfaces.sweep.results`), and summarise and plot what they found
(:mod:`~mistakebound.interfaces.sweep.summary`).

Examples
--------
>>> result = sweep({"grid": [{"kind": "search", "search": "ldim", "classes": ["thresholds"],
...                           "sizes": [1, 3, 7, 15]}]})
>>> [r["mistakes"] for r in result.records]
[1, 2, 3, 4]
"""

from mistakebound.interfaces.sweep.cells import FIELDS, Cell, expand, run_cell
from mistakebound.interfaces.sweep.config import Grid, SweepConfig, load_config
from mistakebound.interfaces.sweep.executors import EXECUTORS, DaskDependencyError
from mistakebound.interfaces.sweep.results import ResultsFile, read_records
from mistakebound.interfaces.sweep.runner import SweepResult, sweep
from mistakebound.interfaces.sweep.summary import format_summary, plot_records, replay_command

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
    "replay_command",
    "run_cell",
    "Record",
]

#: A record: a flat dict of JSON-able scalars keyed by :data:`FIELDS`.
Record = dict
