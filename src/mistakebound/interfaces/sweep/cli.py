"""The ``mistakebound sweep CONFIG.toml`` subcommand.

``add_parser(subparsers)`` registers it on the main parser of :mod:`mistakebound.interfaces.cli`;
``run(args, out)`` runs the sweep, prints the summary table and writes the plots.

Exit codes as in the rest of the command line: 0 every bound held and no cell failed;
1 a bound is broken or a player failed in a cell (each recorded, the sweep went on); 2
bad input (a one-line message); 3 interrupted (Ctrl-C, SIGTERM or SIGHUP: every finished
cell is in the results file) or some cells stopped by an infrastructure error (a worker
that died, memory that ran out, a ``module:Class`` that could not be imported where the
sweep ran): run the same command again to resume, which runs those cells again.  Refused
before any work, with exit 2: a parameter a registered player does not take or a value it
refuses, a grid of more than ``--max-cells`` cells, more ``--workers`` than the machine
allows, a ``--scheduler`` address that is not ``tcp://HOST:PORT`` or answers not as a Dask
scheduler does.  A results file that cannot be written (a full disk) is exit 2 after the
summary of the cells found; processes a player starts end with its cell.

Examples
--------
>>> import argparse, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "g.toml").write_text('''
... [[grid]]
... learners = ["Halving"]
... adversaries = ["BinarySearchThreshold"]
... classes = ["thresholds"]
... sizes = [3, 7]
... horizons = [20]
... ''')
>>> parser = argparse.ArgumentParser(prog="mistakebound")
>>> _ = add_parser(parser.add_subparsers())
>>> args = parser.parse_args(["sweep", str(folder / "g.toml"), "--executor", "inprocess", "--no-progress"])
>>> run(args)  # doctest: +ELLIPSIS
sweep: 2 cells (2 run now, 0 already recorded) on inprocess -> .../g.csv
learner  cells  worst ratio  at ...
...
no bound broken in 2 cells
0
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from mistakebound.foundations.text import printable
from mistakebound.interfaces.arguments import (EXIT_BROKEN, EXIT_INTERRUPTED, EXIT_OK, add_figure, figure_style,
                                               positive, workers)

__all__ = ["NAME", "SUMMARY", "add_parser", "run"]

#: The command's name, and its line in ``mistakebound --help``.
NAME = "sweep"
SUMMARY = "run a grid of games and searches from a TOML file, resumably"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``sweep`` on ``subparsers`` (from ``ArgumentParser.add_subparsers``)."""
    p = subparsers.add_parser(
        NAME, help=SUMMARY,
        description=(
            "Expand the grids of CONFIG.toml (learners x adversaries x classes x sizes x seeds x "
            "horizons, or searches) into cells, run each cell once, stream one CSV row per finished "
            "cell to --out, and print a summary: the worst ratio of mistakes to bound per learner and "
            "every broken bound with the command that replays it. Rerun the same command after an "
            "interruption to run only the cells not yet recorded (and those a dead worker or a lack "
            "of memory or an unimportable module:Class stopped). Exit 0 if every bound held, 1 if one is broken "
            "or a player failed, "
            "2 for bad input, 3 if interrupted (Ctrl-C, SIGTERM) or cells met infrastructure errors."
        ),
    )
    p.add_argument("config", metavar="CONFIG.toml", help="the sweep configuration (see the documentation's Sweeps page)")
    p.add_argument("--out", metavar="FILE.csv", default=None,
                   help="results file, read on start to resume (default: CONFIG with the suffix .csv)")
    p.add_argument("--executor", choices=("auto", "inprocess", "processes", "dask"), default="auto",
                   help="where cells run (default auto: in-process for < 16 cells, else a process pool; "
                        "dask with --scheduler)")
    p.add_argument("--workers", type=workers, default=None,
                   help="worker processes of the pool or of a dask LocalCluster (default: the CPUs; at most "
                        "4 per CPU, and as many as the memory budget gives 128 MiB each, 256 MiB for dask)")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="a dask scheduler, e.g. tcp://10.0.0.5:8786 (implies --executor dask; "
                        "needs pip install 'mistakebound[dask]')")
    p.add_argument("--batch", type=positive, default=None, help="cells per task sent to a worker")
    p.add_argument("--max-cells", type=positive, default=None, metavar="N",
                   help="refuse a CONFIG of more than N cells, counted before anything runs (default 200000)")
    p.add_argument("--plot", metavar="DIR", default=None,
                   help="write figures to DIR: mistakes (regret) against size per learner, mean and band over "
                        "seeds, bounds dashed, broken ones marked; Ldim, VCdim and worst cases of search cells")
    p.add_argument("--plot-format", choices=("png", "svg", "pdf"), default="png",
                   help="with --plot: the figures' format (default png; svg and pdf are vector formats)")
    add_figure(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-import", action="store_true",
                   help="refuse every module:Class player, for a config from someone else: only registered "
                        "names (the zoo's and installed plugins') run; without it a config, like a Python "
                        "script, runs the code it names")
    p.set_defaults(run=run)
    return p


def run(args: Any, out: TextIO | None = None) -> int:
    """Run the ``sweep`` subcommand; return the exit code.

    Bad input raises :class:`~mistakebound.foundations.errors.MistakeboundError` (the main command
    line prints it on one line and exits 2).  SIGTERM and SIGHUP are handled as Ctrl-C
    from here on (exit 3), not only while cells run.
    """
    from mistakebound.interfaces.sweep.runner import signals_as_interrupts

    with signals_as_interrupts():
        return _run(args, out)


def _run(args: Any, out: TextIO | None) -> int:
    from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
    from mistakebound.interfaces.sweep.config import load_config
    from mistakebound.interfaces.sweep.results import ResultsFile, ResultsWriteError, finished
    from mistakebound.interfaces.sweep.runner import SweepInterrupted, sweep
    from mistakebound.interfaces.sweep.figures import plot_records
    from mistakebound.interfaces.sweep.summary import format_summary

    from mistakebound.interfaces.sweep.config import MAX_CELLS
    from mistakebound.interfaces.sweep.executors import check_workers

    out = sys.stdout if out is None else out
    executor = args.executor
    if args.scheduler is not None:
        if executor not in ("auto", "dask"):
            raise InvalidArgumentError(f"--scheduler: needs --executor dask, got --executor {executor}")
        from mistakebound.interfaces.sweep.scheduler import check_address

        check_address(args.scheduler)  # its scheme and form before any work; reached when the cells run
        executor = "dask"
    else:  # a remote cluster's workers are its own; here, as many as the machine allows
        check_workers(args.workers, "processes" if executor == "auto" else executor, parameter="--workers")
    max_cells = getattr(args, "max_cells", None) or MAX_CELLS
    config = load_config(args.config, allow_imports=not getattr(args, "no_import", False), max_cells=max_cells)
    path = Path(args.out) if args.out is not None else Path(args.config).with_suffix(".csv")
    if args.plot is not None:
        _check_plot_folder(args.plot)  # before any work; made only when the plots are written
        from mistakebound.interfaces.plots import _matplotlib

        _matplotlib()  # a missing matplotlib is reported before any work
    try:
        cells = config.cells()
        known = finished(ResultsFile(path, parameter="--out").load())  # also validates the file before any work
        todo = sum(c.id not in known for c in cells)
        result = sweep(config, out=path, executor=executor, workers=args.workers, scheduler=args.scheduler,
                       batch=args.batch, progress=False if args.no_progress else None)
    except ResultsWriteError as exc:  # a full disk: the summary of what was found, then the one line
        from mistakebound.interfaces.cli.failures import OutputFailed

        print(printable(f"sweep: stopped: the results file {str(path)!r} could not be written; the "
                        f"{len(exc.records)} cells found so far:"), file=out)
        print(format_summary(exc.records), file=out)
        raise OutputFailed(shortened_out(str(exc))) from None
    except KeyboardInterrupt as exc:
        try:
            done = len(finished(ResultsFile(path).load()))
        except (MistakeboundError, OSError):
            done = "the finished"
        how = f"stopped by {exc.args[0]}" if isinstance(exc, SweepInterrupted) else _interrupted_by()
        print(printable(f"sweep: {how}; {done} cells recorded in {path}; run the same command again to resume"),
              file=out)
        return EXIT_INTERRUPTED
    rerun = f", {result.rerun} of them again after infrastructure errors" if result.rerun else ""
    print(printable(f"sweep: {len(cells)} cells ({result.ran} run now{rerun}, {result.skipped} already recorded) "
                    f"on {result.executor} -> {path}"), file=out)
    if todo != result.ran:  # cannot happen unless the file changed under us
        print(f"sweep: warning: expected to run {todo} cells, ran {result.ran}", file=out)
    print(format_summary(result.records), file=out)
    if result.unsorted:
        print(printable(f"sweep: note: {result.unsorted}"), file=out)
    if args.plot is not None:
        files = _write_plots(result.records, args, plot_records)
        print(printable(f"wrote {len(files)} plot(s) to {args.plot}"), file=out)
    if result.broken or result.errors:
        return EXIT_BROKEN
    if result.infra:
        print(f"sweep: {len(result.infra)} cell(s) stopped by infrastructure errors; run the same command "
              "again to run them again", file=out)
        return EXIT_INTERRUPTED
    return EXIT_OK


def shortened_out(message: str) -> str:
    """A results file's message as the command line names it (``--out``)."""
    return "--out: " + message.removeprefix("out: ")


def _check_plot_folder(folder: str) -> None:
    """Refuse, before any work, a ``--plot`` folder that could not be used; nothing is created here.

    An existing folder must take new files; a missing one must have a parent folder that
    does (it is made when the plots are written, so that a sweep that fails leaves none).
    """
    from mistakebound.foundations.errors import InvalidArgumentError

    p = Path(folder)
    target = p if p.exists() else next((a for a in p.absolute().parents if a.exists()), Path("/"))
    if not target.is_dir():
        raise InvalidArgumentError(f"--plot: cannot use {folder!r} as a directory for plots ({str(target)!r} "
                                   "is not a directory)")
    import os

    if not os.access(target, os.W_OK | os.X_OK):
        raise InvalidArgumentError(f"--plot: cannot use {folder!r} as a directory for plots ({str(target)!r} "
                                   "takes no new files)")


def _write_plots(records: list, args: Any, plot_records: Any) -> list:
    """Make the ``--plot`` folder and write the figures; a failure names the folder, and a folder made here and
    left empty is removed."""
    from mistakebound.interfaces.cli.failures import OutputFailed

    folder = Path(args.plot)
    made = [a for a in (folder, *folder.parents) if not a.exists()]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return plot_records(records, folder, suffix=f".{args.plot_format}", **figure_style(args))
    except OSError as exc:
        for a in made:  # innermost first: only the folders made here, and only when empty
            try:
                a.rmdir()
            except OSError:
                break
        raise OutputFailed(f"--plot: cannot write the plots to {str(folder)!r}: {exc.strerror or exc}; the "
                           "results above are complete, and the results file is written") from None


def _interrupted_by() -> str:
    """How the command line says what stopped the sweep (the signal, when its handler noted one)."""
    try:
        from mistakebound.interfaces.startup import interrupted_by
    except ImportError:  # pragma: no cover - a command line without it
        return "interrupted"
    by = interrupted_by()
    return "interrupted" if by in (None, "Ctrl-C") else f"stopped by signal {by}"
