"""Run a sweep: expand the grid, skip the cells already recorded, run the rest, record.

:func:`sweep` is the whole loop behind ``mistakebound sweep``: it expands the
configuration into cells, loads the results file (if any) and skips the cells it
already holds, runs the others on the chosen executor, appends each record to the file
as it arrives (under a progress bar), and at the end rewrites the file in grid order
with each cell exactly once.  Interrupted (Ctrl-C, a kill), it leaves every finished
row in the file; run it again with the same file to finish the rest.

Examples
--------
>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
>>> config = {"grid": [{"kind": "game", "learners": ["Halving", "SOA"], "adversaries": ["OppositeLabel"],
...                     "classes": ["thresholds"], "sizes": [3, 7], "horizons": [20]}]}
>>> result = sweep(config, out=out, executor="inprocess")
>>> len(result.records), result.ran, result.skipped, result.ok
(4, 4, 0, True)
>>> sweep(config, out=out, executor="inprocess").skipped  # resumed: nothing left to run
4
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TextIO

from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.interfaces.sweep.config import SweepConfig, load_config
from mistakebound.interfaces.sweep.executors import execute

__all__ = ["sweep", "SweepResult", "AUTO_INPROCESS_BELOW", "as_config"]

#: With ``executor="auto"``, fewer cells than this run in-process (no pool to start).
AUTO_INPROCESS_BELOW = 16


@frozen
class SweepResult:
    """What :func:`sweep` returns.

    Attributes
    ----------
    records : list of dict
        One record per cell of the grid, in grid order (those loaded from the file
        and those run now).
    ran, skipped : int
        Cells run now, and cells found already recorded.
    out : Path or None
        The results file.
    executor : str
        The executor that ran the cells.
    """

    records: list = field(factory=list)
    ran: int = 0
    skipped: int = 0
    out: Path | None = None
    executor: str = ""

    @property
    def broken(self) -> list[dict]:
        """The records whose bound is broken."""
        return [r for r in self.records if r["verdict"] == "BROKEN"]

    @property
    def errors(self) -> list[dict]:
        """The records of cells that raised."""
        return [r for r in self.records if r["verdict"] == "error"]

    @property
    def ok(self) -> bool:
        """No bound broken and no cell failed."""
        return not self.broken and not self.errors


def as_config(config: Any) -> SweepConfig:
    """A :class:`SweepConfig` from itself, a dict (parsed TOML) or a path to a TOML file."""
    if isinstance(config, SweepConfig):
        return config
    if isinstance(config, dict):
        return SweepConfig.from_dict(config)
    if isinstance(config, (str, os.PathLike)):
        return load_config(config)
    raise InvalidArgumentError(
        f"config: expected a SweepConfig, a dict or the path of a .toml file, got {type(config).__name__}"
    )


def sweep(
    config: Any,
    *,
    out: str | os.PathLike | None = None,
    executor: str = "auto",
    workers: int | None = None,
    scheduler: str | None = None,
    batch: int | None = None,
    progress: bool | None = False,
    stream: TextIO | None = None,
) -> SweepResult:
    """Run every cell of a sweep not yet in ``out`` and return all the records.

    Parameters
    ----------
    config : SweepConfig, dict or path
        The grid (see :mod:`mistakebound.interfaces.sweep.config`).
    out : path, optional
        The ``.csv`` results file: read first (cells already there are skipped), appended
        to as cells finish, rewritten in grid order at the end.  None keeps the records
        in memory only.
    executor : {"auto", "inprocess", "processes", "dask"}
        ``"auto"``: in-process below :data:`AUTO_INPROCESS_BELOW` cells to run, a
        process pool otherwise.  See :mod:`mistakebound.interfaces.sweep.executors`.
    workers : int, optional
        Worker processes (default: the CPUs available).
    scheduler : str, optional
        A dask scheduler address (``executor="dask"``; default a LocalCluster).
    batch : int, optional
        Cells per task sent to a worker.
    progress : bool or None
        A progress bar over cells on ``stream`` (None: when it is a terminal).
    stream : file-like, optional
        Where the bar is drawn; default stderr.

    Returns
    -------
    SweepResult

    Raises
    ------
    InvalidArgumentError
        For a bad configuration, output file or executor option.
    KeyboardInterrupt
        Passed on after closing the executor; every finished cell is in ``out``.
    """
    from mistakebound.interfaces.progress import Progress
    from mistakebound.interfaces.sweep.results import ResultsFile, normalize

    cfg = as_config(config)
    cells = cfg.cells()
    results = ResultsFile(out) if out is not None else None
    done = results.load() if results is not None else {}
    todo = [c for c in cells if c.id not in done]
    if executor == "auto":
        executor = "inprocess" if len(todo) < AUTO_INPROCESS_BELOW and scheduler is None else "processes"
        if scheduler is not None:
            executor = "dask"
    fresh: dict[str, dict] = {}
    running = execute(todo, executor=executor, workers=workers, scheduler=scheduler, batch=batch)
    try:
        with Progress(len(todo), desc="sweep", unit="cells", enabled=progress, stream=stream) as bar:
            for batch_records in running:
                for record in batch_records:
                    if results is not None:
                        results.append(record)
                    fresh[record["id"]] = record
                bar.update(len(batch_records))
    finally:
        running.close()  # stops the pool or the dask client now, also on Ctrl-C
        if results is not None:
            results.close()
    # loaded rows are as read back; fresh ones are normalised to match them exactly
    by_id = {**done, **{k: normalize(v) for k, v in fresh.items()}} if results is not None else fresh
    ordered = [by_id[c.id] for c in cells]
    if results is not None:
        extra = [r for k, r in done.items() if k not in {c.id for c in cells}]
        results.finalize(ordered + extra)  # rows of cells no longer in the grid are kept, at the end
    return SweepResult(records=ordered, ran=len(fresh), skipped=len(cells) - len(todo),
                       out=None if results is None else results.path, executor=executor)
