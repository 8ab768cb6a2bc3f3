"""Where a sweep's cells run: in this process, a local process pool, or a Dask cluster.

:func:`execute` takes the cells still to run and yields their records in batches as
they finish, whichever executor runs them; every executor calls the same
:func:`~mistakebound.interfaces.sweep.cells.run_cells` on the same cells, so the records are the
same (but for ``seconds`` and ``peak_kib``).

``"inprocess"``
    One cell after another in this process (tiny grids, debugging).
``"processes"``
    A :class:`concurrent.futures.ProcessPoolExecutor` of ``workers`` processes
    (default: the number of CPUs).
``"dask"``
    A ``dask.distributed`` client connected to ``scheduler`` (``tcp://host:port``), or,
    without one, to a ``LocalCluster`` of ``workers`` processes on 127.0.0.1 started for
    the sweep and closed after it.  dask is imported only here, only then:
    ``pip install 'mistakebound[dask]'``.

Cells travel in small batches (``batch`` cells per task; by default enough for about
16 tasks per worker, at most 32 cells) so that cheap cells do not drown in messaging.
A batch that fails as a whole (a worker that died) yields an ``error`` record for each
of its cells; the sweep goes on.

Examples
--------
>>> from mistakebound.interfaces.sweep.cells import Cell
>>> cells = [Cell(kind="search", search="ldim", cls=f"thresholds:{n}", size=n) for n in (3, 7)]
>>> [r["mistakes"] for batch in execute(cells, executor="inprocess") for r in batch]
[2, 3]
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from typing import Any

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.interfaces.sweep.cells import Cell, error_record, run_cell, run_cells

__all__ = ["EXECUTORS", "DaskDependencyError", "execute", "batches", "default_workers"]

#: The executors :func:`execute` knows.
EXECUTORS = ("inprocess", "processes", "dask")


class DaskDependencyError(MistakeboundError, ImportError):
    """dask.distributed, needed by the ``dask`` executor, is not installed."""


def default_workers() -> int:
    """The number of CPUs this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def batches(cells: Sequence[Cell], workers: int, batch: int | None = None) -> list[list[Cell]]:
    """Split ``cells`` into consecutive batches (about 16 per worker, at most 32 cells each).

    Examples
    --------
    >>> [len(b) for b in batches(list(range(10)), workers=2, batch=4)]
    [4, 4, 2]
    """
    if batch is None:
        batch = max(1, min(32, math.ceil(len(cells) / (16 * max(1, workers)))))
    return [list(cells[i:i + batch]) for i in range(0, len(cells), batch)]


def _check(executor: str, workers: int | None, batch: int | None) -> int:
    if executor not in EXECUTORS:
        raise InvalidArgumentError(f"executor: expected one of {', '.join(EXECUTORS)}, got {executor!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise InvalidArgumentError(f"workers: expected None or an integer >= 1, got {workers!r}")
    if batch is not None and (isinstance(batch, bool) or not isinstance(batch, int) or batch < 1):
        raise InvalidArgumentError(f"batch: expected None or an integer >= 1, got {batch!r}")
    return workers or default_workers()


def execute(
    cells: Sequence[Cell],
    *,
    executor: str = "processes",
    workers: int | None = None,
    scheduler: str | None = None,
    batch: int | None = None,
) -> Iterator[list[dict]]:
    """Run ``cells`` and yield their records, a batch at a time, as they finish.

    Parameters
    ----------
    cells : sequence of Cell
    executor : {"inprocess", "processes", "dask"}
    workers : int, optional
        Processes of the pool or of a LocalCluster (default: the CPUs available).
    scheduler : str, optional
        With ``"dask"``: the address of a running scheduler; default a LocalCluster.
    batch : int, optional
        Cells per task (default: see the module docstring).

    Raises
    ------
    InvalidArgumentError
        For an unknown executor, bad ``workers``/``batch``, a ``scheduler`` without
        ``"dask"``, or a scheduler that cannot be reached.
    DaskDependencyError
        For ``"dask"`` when dask.distributed is not installed.
    """
    n = _check(executor, workers, batch)
    if scheduler is not None and executor != "dask":
        raise InvalidArgumentError(f"scheduler: only the dask executor takes a scheduler, got executor {executor!r}")
    if executor == "inprocess":
        return (([run_cell(c)]) for c in cells)
    if executor == "processes":
        return _processes(batches(cells, n, batch), n)
    return _dask(batches(cells, n, batch), n, scheduler)


def _failed(cells: list[Cell], exc: BaseException) -> list[dict]:
    return [error_record(c, exc) for c in cells]


def _processes(work: list[list[Cell]], workers: int) -> Iterator[list[dict]]:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    if not work:
        return
    pool = ProcessPoolExecutor(max_workers=min(workers, len(work)))
    try:
        futures = {pool.submit(run_cells, b): b for b in work}
        for future in as_completed(futures):
            try:
                records = future.result()
            except Exception as exc:  # noqa: BLE001 - a dead worker: record, go on
                records = _failed(futures[future], exc)
            yield records
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise DaskDependencyError(
            "executor 'dask' needs dask.distributed, which is not installed; install the dask extra: "
            "pip install 'mistakebound[dask]'"
        ) from exc
    return distributed


def _dask(work: list[list[Cell]], workers: int, scheduler: str | None) -> Iterator[list[dict]]:
    import logging

    distributed = _distributed()  # raises now, before the first record is asked for
    return _dask_run(distributed, work, workers, scheduler, logging.CRITICAL)


def _dask_run(distributed: Any, work, workers: int, scheduler: str | None, quiet: int) -> Iterator[list[dict]]:
    if not work:
        return
    cluster = None
    try:
        if scheduler is None:
            cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, silence_logs=quiet,
            )
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise InvalidArgumentError(
                    f"scheduler: cannot connect to {scheduler!r} ({type(exc).__name__}: {exc}); expected the "
                    "address of a running dask scheduler such as 'tcp://127.0.0.1:8786'"
                ) from None
        try:
            futures = client.map(run_cells, work, pure=False)
            index = {f.key: b for f, b in zip(futures, work)}
            for future in distributed.as_completed(futures):
                try:
                    records = future.result()
                except Exception as exc:  # noqa: BLE001 - a worker that died: record, go on
                    records = _failed(index[future.key], exc)
                yield records
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
