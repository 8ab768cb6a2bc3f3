"""Run a sweep: expand the grid, skip the cells already recorded, run the rest, record.

:func:`sweep` is the whole loop behind ``mistakebound sweep``: it expands the
configuration into cells, loads the results file (if any) and skips the cells it
already holds, runs the others on the chosen executor, appends each record to the file
as it arrives (under a progress bar), and at the end rewrites the file in grid order
with each cell exactly once.  Interrupted (Ctrl-C, a kill), it leaves every finished
row in the file; run it again with the same file to finish the rest.  Rows of
infrastructure errors (verdict ``infra``: a worker that died, memory that ran out) do not
count as finished: a resumed sweep runs those cells again; player errors (``error``) are
kept.

Signals: while a sweep runs in the main thread, SIGTERM (and SIGHUP) are handled as
Ctrl-C: both raise ``KeyboardInterrupt`` in the main process, which closes the
executor (queued work dropped, workers terminated within about a second, see
:mod:`~mistakebound.interfaces.sweep.executors`) with every finished cell in the file.
A handler you installed yourself for either signal is left alone.  The sweep also
notes that a signal came, so that a player's own ``KeyboardInterrupt`` inside a cell
is recorded as that cell's error instead of ending the sweep.

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

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.interfaces.sweep.cells import INFRA, interrupts_from
from mistakebound.interfaces.sweep.config import MAX_CELLS, SweepConfig, load_config
from mistakebound.interfaces.sweep.executors import execute, signals_held

__all__ = ["sweep", "SweepResult", "AUTO_INPROCESS_BELOW", "as_config", "SweepInterrupted", "signals_as_interrupts"]

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
        Cells run now, and cells found already recorded (infrastructure errors of an
        earlier run are not: they are run again).
    rerun : int
        Of the cells run now, those an earlier run had recorded as infrastructure errors.
    out : Path or None
        The results file.
    executor : str
        The executor that ran the cells.
    unsorted : str or None
        Why the results file was kept in the order the cells finished rather than
        rewritten in grid order (a disk without room for the copy); None when it is in
        grid order.
    """

    records: list = field(factory=list)
    ran: int = 0
    skipped: int = 0
    rerun: int = 0
    out: Path | None = None
    executor: str = ""
    unsorted: str | None = None

    @property
    def broken(self) -> list[dict]:
        """The records whose bound is broken."""
        return [r for r in self.records if r["verdict"] == "BROKEN"]

    @property
    def errors(self) -> list[dict]:
        """The records of cells whose player failed (player errors, kept on resume)."""
        return [r for r in self.records if r["verdict"] == "error"]

    @property
    def infra(self) -> list[dict]:
        """The records of cells stopped by an infrastructure error (run again on resume)."""
        return [r for r in self.records if r["verdict"] == INFRA]

    @property
    def ok(self) -> bool:
        """No bound broken, no cell failed, and none stopped by an infrastructure error."""
        return not self.broken and not self.errors and not self.infra

    def to_pandas(self) -> Any:
        """The records as a ``pandas.DataFrame``, one row per cell in grid order (see
        :func:`~mistakebound.interfaces.sweep.results.records_frame`; pandas is optional)."""
        from mistakebound.interfaces.sweep.results import records_frame

        return records_frame(self.records)


class SweepInterrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP during a sweep, handled as Ctrl-C; ``signal`` is its number."""

    def __init__(self, signum: int):
        super().__init__(f"signal {signal.Signals(signum).name}")
        self.signal = signum


@contextlib.contextmanager
def signals_as_interrupts() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`SweepInterrupted`, and every such signal is noted.

    Only in the main thread.  A signal whose handler is Python's default gets the sweep's
    (Ctrl-C raises ``KeyboardInterrupt``, SIGTERM and SIGHUP :class:`SweepInterrupted`);
    a handler of yours (or the command line's) is kept and called, after the sweep
    notes the signal; an ignored signal stays ignored.  While the block runs, a
    ``KeyboardInterrupt`` or ``SystemExit`` inside a cell with no signal received is the
    player's own (see :func:`mistakebound.interfaces.sweep.cells.interrupts_from`).

    Yields
    ------
    None
        Control, once, to the ``with`` block.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def interrupt(signum: int, frame: Any) -> None:
        received.append(signum)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SweepInterrupted(signum)

    def noting(previous: Any) -> Any:
        def handler(signum: int, frame: Any) -> Any:
            received.append(signum)
            return previous(signum, frame)

        handler.previous = previous  # type: ignore[attr-defined]
        return handler

    old: dict[int, Any] = {}
    for name, default in (("SIGINT", signal.default_int_handler), ("SIGTERM", signal.SIG_DFL),
                          ("SIGHUP", signal.SIG_DFL)):
        signum = getattr(signal, name, None)
        if signum is None:
            continue
        current = signal.getsignal(signum)
        if current is default:
            old[signum] = signal.signal(signum, interrupt)
        elif callable(current):
            old[signum] = signal.signal(signum, noting(current))
    previous = interrupts_from(lambda: bool(received))
    try:
        yield
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)
        interrupts_from(previous)


def as_config(config: Any, *, max_cells: int = MAX_CELLS) -> SweepConfig:
    """A :class:`SweepConfig` from itself, a dict (parsed TOML) or a path to a TOML file (at most ``max_cells`` cells)."""
    if isinstance(config, SweepConfig):
        return config
    if isinstance(config, dict):
        return SweepConfig.from_dict(config, max_cells=max_cells)
    if isinstance(config, (str, os.PathLike)):
        return load_config(config, max_cells=max_cells)
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
    max_cells: int = MAX_CELLS,
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
    max_cells : int
        A configuration (a dict or a file) of more cells is refused before any work
        (:func:`~mistakebound.interfaces.sweep.config.check_cell_count`).

    Returns
    -------
    SweepResult

    Raises
    ------
    InvalidArgumentError
        For a bad configuration, output file or executor option.
    KeyboardInterrupt
        Passed on after closing the executor (also for SIGTERM or SIGHUP, as
        :class:`SweepInterrupted`); every finished cell is in ``out``.
    """
    from mistakebound.interfaces.sweep.results import ResultsFile, finished
    from mistakebound.interfaces.sweep.scratch import remove_abandoned

    remove_abandoned()  # the temporary folders of sweeps that were killed
    cfg = as_config(config, max_cells=max_cells)
    cells = cfg.cells()
    results = ResultsFile(out) if out is not None else None
    loaded = results.load() if results is not None else {}
    done = finished(loaded)
    todo = [c for c in cells if c.id not in done]
    if executor == "auto":
        executor = "inprocess" if len(todo) < AUTO_INPROCESS_BELOW and scheduler is None else "processes"
        if scheduler is not None:
            executor = "dask"
    from mistakebound.interfaces.sweep.results import ResultsWriteError, normalize

    fresh: dict[str, dict] = {}
    try:
        with signals_as_interrupts():
            _run(todo, results, fresh, executor=executor, workers=workers, scheduler=scheduler, batch=batch,
                 progress=progress, stream=stream)
    except ResultsWriteError as exc:  # a full disk: what was found so far, for the summary
        got = {**done, **{k: normalize(v) for k, v in fresh.items()}}
        exc.records = [got[c.id] for c in cells if c.id in got]
        raise

    # loaded rows are as read back; fresh ones are normalised to match them exactly
    by_id = {**done, **{k: normalize(v) for k, v in fresh.items()}} if results is not None else fresh
    ordered = [by_id[c.id] for c in cells]
    if results is not None:
        ids = {c.id for c in cells}
        extra = [r for k, r in loaded.items() if k not in ids]
        results.finalize(ordered + extra)  # rows of cells no longer in the grid are kept, at the end
    return SweepResult(records=ordered, ran=len(fresh), skipped=len(cells) - len(todo),
                       rerun=sum(c.id in loaded for c in todo),
                       out=None if results is None else results.path, executor=executor,
                       unsorted=None if results is None else results.unsorted)


def _run(todo: list, results: Any, fresh: dict[str, dict], *, executor: str, workers: int | None,
         scheduler: str | None, batch: int | None, progress: bool | None, stream: TextIO | None) -> dict[str, dict]:
    """Run the cells, appending each record to ``results`` as it arrives and putting it in ``fresh`` by id."""
    from mistakebound.interfaces.progress import Progress

    running = execute(todo, executor=executor, workers=workers, scheduler=scheduler, batch=batch)
    try:
        with Progress(len(todo), desc="sweep", unit="cells", enabled=progress, stream=stream) as bar:
            for batch_records in running:
                with signals_held():  # a batch that arrived is written whole, even on Ctrl-C
                    for record in batch_records:
                        if results is not None:
                            results.append(record)
                        fresh[record["id"]] = record
                bar.update(len(batch_records))
    finally:
        try:
            running.close()  # stops the pool or the dask client now, also on Ctrl-C
        finally:
            if results is not None:
                results.close()
    return fresh
