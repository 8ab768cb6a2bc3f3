"""The cells of a sweep: one game or one search each, and the record it yields.

:func:`expand` turns a :class:`~mistakebound.interfaces.sweep.config.SweepConfig` into
:class:`Cell` values, each with a stable :attr:`Cell.id` computed from its canonical
inputs (the same cell has the same id in every run, on every machine), and
:func:`run_cell` runs one cell and returns its record: a flat dict of JSON-able
scalars whose keys are :data:`FIELDS`.

A ``"game"`` cell is one judged game,
:func:`~mistakebound.verification.judged.judged_game`, as every front end plays it:
``learner`` against ``adversary`` (built by name) on the class (or space) for
``horizon`` rounds (the cell's ``seed`` is the game's seed), the adversary's claim read
before it, the learner's after it, both judged.  A
``"search"`` cell computes ``Ldim`` of the class
(:func:`~mistakebound.theory.littlestone.littlestone_bounds`, the library's door, judged against ``log2 |H|``), its
VC dimension (:func:`~mistakebound.theory.vc.vc_bounds`, judged against the same, as
``VCdim <= Ldim``)
or the learner's worst case (:func:`~mistakebound.theory.worst_case.worst_case_mistakes`,
judged against the learner's claim) within ``max_nodes``; a search out of budget
reports ``exact = false`` with its proven ``lower`` and ``upper`` bounds.

Verdicts: :func:`~mistakebound.verification.claims.judge`'s (``ok``, ``BROKEN``,
``undecided`` when a partial search's interval straddles the claim, ``no bound`` when
the learner states none for this game); ``budget`` for an ``ldim`` or ``vc`` search out of its
node or time budget (its claim ``Ldim <= log2 |H|`` is a theorem, so only the proven
interval ``lower``, ``upper`` says anything); ``n/a`` (the player does not apply to the
class); ``error``, a *player error*, kept on resume (a player raised, ``SystemExit`` and
a player's own ``KeyboardInterrupt`` included, or a ``module:Class`` given a parameter it
does not take; its ``error_type`` and one-line ``error`` are recorded); and ``infra``, an
*infrastructure error* (:data:`INFRA`): the cell did not fail, the machine did (its
worker process died, memory ran out) or the place it runs in did (a ``module:Class``
that cannot be imported there, :class:`~mistakebound.foundations.errors.PlayerImportError`:
the module is not on the path, the sweep runs from another folder), and a resumed sweep
runs it again.  A partial
search has no ``ratio`` and no value (``ldim``, ``vc``, ``worst_case``, ``measured``): a lower
bound is never reported as if it were the value.  A search's value has its own column
(``ldim``, ``vc``, ``worst_case``), never ``mistakes``, which is a game's.
``seconds`` is the wall time of the game or search and ``peak_kib`` its :mod:`tracemalloc`
peak in KiB (Python allocations, numpy buffers included); building the class and importing the players come before and are not
measured (each worker builds and caches them once).

Each process keeps the classes it built in a cache bounded in bytes
(:data:`CLASS_CACHE_BYTES`, at most a quarter of the memory budget, least recently used
first out).  Class matrices are read-only, but a player can make one writable: each cached
class carries a CRC-32 of its matrix, checked after every cell that used it (about 1 us for a
small class, 1 ms for 4 MB; a fresh copy per cell would also rebuild the class's derived
tables, 150 us even for ``thresholds:16``).  A cell that changed its class is a player
error, and the class is rebuilt for the next cell.

Examples
--------
>>> cell = Cell(kind="game", learner="Halving", adversary="BinarySearchThreshold",
...             cls="thresholds:7", size=7, seed=0, horizon=20)
>>> record = run_cell(cell)
>>> record["mistakes"], record["bound"], record["verdict"], record["id"] == cell.id
(3, 3.0, 'ok', True)
>>> r = run_cell(Cell(kind="search", search="ldim", cls="thresholds:7", size=7))
>>> r["ldim"], r["vc"], r["mistakes"]
(3, None, None)
>>> run_cell(Cell(kind="search", search="vc", cls="thresholds:7", size=7))["vc"]
1
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import threading
import time
import tracemalloc
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from attrs import asdict, frozen

from mistakebound.foundations.errors import (GameError, InsufficientMemoryError, MistakeboundError, NotApplicableError,
                                            PlayerImportError)
from mistakebound.foundations.text import one_line
from mistakebound.game import registry
from mistakebound.theory.littlestone import littlestone_bounds
from mistakebound.theory.vc import vc_bounds
from mistakebound.theory.worst_case import worst_case_mistakes
from mistakebound.verification.claims import Bound, Verdict, judge, stated_bound
from mistakebound.verification.judged import judged_game

__all__ = ["Cell", "FIELDS", "INPUT_FIELDS", "INFRA", "CLASS_CACHE_BYTES", "class_specs", "spec_count", "expand", "run_cell",
           "run_cells", "error_record", "infra_record", "is_infrastructure", "interrupts_from"]

#: The input columns of a record (a cell's canonical inputs, plus its id first).
INPUT_FIELDS = ("id", "kind", "search", "learner", "adversary", "class", "size", "seed", "horizon",
                "realizable", "setting", "max_nodes")
#: Every column of a record, in file order.  A search's value has its own column: ``ldim``,
#: ``vc`` (the VC dimension) and ``worst_case`` (the learner's ``M_A(H)``); ``mistakes`` is a
#: game's only.  Each is filled when exact; a partial search's interval is in ``lower`` and ``upper``.
FIELDS = INPUT_FIELDS + (
    "rounds", "mistakes", "expected_mistakes", "regret", "measured", "ldim", "vc", "worst_case", "bound",
    "bound_measure", "forced",
    "forced_measure", "ratio", "note",
    "verdict", "exact", "lower", "upper", "nodes", "error_type", "error", "seconds", "peak_kib",
)

_MAX_ERROR = 300

#: The verdict of an infrastructure error: the cell's process died or ran out of memory.  Such
#: a row is not "already recorded": a resumed sweep runs the cell again.
INFRA = "infra"
#: The most bytes of classes a process keeps built (also at most a quarter of its memory budget).
CLASS_CACHE_BYTES = 256 * 2**20


@frozen
class Cell:
    """One point of a sweep's grid.

    Attributes
    ----------
    kind : {"game", "search"}
    learner, adversary : str or None
        Registered names or import paths ``"module:Class"``.
    cls : str
        The class spec (``"thresholds:8"``).
    size : int or None
        The size the spec was made from (None for a fixed spec).
    seed : int
        The game's seed (0 for searches).
    horizon : int or None
        Rounds of the game; for a worst-case search, None means no horizon.
    realizable : bool
    setting : str or None
        The game's rules, ``"feedback=bandit,noise=1"``
        (:func:`~mistakebound.interfaces.sweep.config.setting_text`); None: the textbook's.
    search : {"ldim", "vc", "worst_case"} or None
    max_nodes : int or None
        The node budget of a search.
    """

    kind: str
    cls: str
    learner: str | None = None
    adversary: str | None = None
    size: int | None = None
    seed: int = 0
    horizon: int | None = None
    realizable: bool = True
    setting: str | None = None
    search: str | None = None
    max_nodes: int | None = None

    @property
    def inputs(self) -> dict:
        """The canonical inputs as a record's columns (``class`` for ``cls``)."""
        d = asdict(self)
        d["class"] = d.pop("cls")
        return {k: d[k] for k in INPUT_FIELDS if k != "id"}

    @property
    def id(self) -> str:
        """A stable id: the first 16 hex digits of the SHA-256 of the canonical inputs."""
        inputs = self.inputs
        if inputs["setting"] is None:  # a cell of the textbook's game keeps the id it had before settings existed
            del inputs["setting"]
        text = json.dumps(inputs, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def expand(config: Any) -> list[Cell]:
    """Every cell of a configuration's grids, in order (duplicates kept once).

    The order is grid by grid, then learner, adversary, class entry, size, seed,
    horizon: the order of the final results file.

    Examples
    --------
    >>> from mistakebound.interfaces.sweep.config import SweepConfig
    >>> cfg = SweepConfig.from_dict({"grid": [{"kind": "search", "search": "ldim",
    ...                                        "classes": ["thresholds"], "sizes": [3, 4]}]})
    >>> [c.cls for c in expand(cfg)]
    ['thresholds:3', 'thresholds:4']
    """
    cells: list[Cell] = []
    seen: set[str] = set()
    for g in config.grids:
        learners = g.learners or (None,)
        adversaries = g.adversaries or (None,)
        for learner in learners:
            for adversary in adversaries:
                for entry in g.classes:
                    for spec, size in class_specs(entry, g.sizes):
                        for seed in g.seeds:
                            for horizon in g.horizons:
                                for setting in g.settings:
                                    cell = Cell(
                                        kind=g.kind, cls=spec, learner=learner, adversary=adversary, size=size,
                                        seed=seed, horizon=horizon, realizable=g.realizable, setting=setting,
                                        search=g.search, max_nodes=g.max_nodes if g.kind == "search" else None,
                                    )
                                    if cell.id not in seen:
                                        seen.add(cell.id)
                                        cells.append(cell)
    return cells


def spec_count(entry: str, sizes: tuple[int, ...]) -> int:
    """``len(class_specs(entry, sizes))``, without building the list.

    Examples
    --------
    >>> spec_count("thresholds", (4, 8)), spec_count("random:6,4,0.5,1", (4, 8))
    (2, 1)
    """
    return len(sizes) if _sized(entry) else 1


def _sized(entry: str) -> bool:
    from mistakebound.game.registry import CLASS_FILE_SUFFIXES

    if "{n}" in entry:
        return True
    return not (":" in entry or "(" in entry or entry.lower().endswith(CLASS_FILE_SUFFIXES))


def class_specs(entry: str, sizes: tuple[int, ...]) -> list[tuple[str, int | None]]:
    """The ``(spec, size)`` pairs a class entry of a grid stands for.

    Examples
    --------
    >>> class_specs("thresholds", (4, 8))
    [('thresholds:4', 4), ('thresholds:8', 8)]
    >>> class_specs("k_sparse:{n},2", (5,))
    [('k_sparse:5,2', 5)]
    >>> class_specs("random:6,4,0.5,1", (4, 8))
    [('random:6,4,0.5,1', None)]
    """
    if "{n}" in entry:
        return [(entry.replace("{n}", str(n)), n) for n in sizes]
    if not _sized(entry):
        return [(entry, None)]
    return [(f"{entry}:{n}", n) for n in sizes]


# ---------------------------------------------------------------------- running
def _footprint(setting: Any) -> int:
    """About the bytes a built class holds: its matrix, its bitsets, its domain and names."""
    matrix = getattr(setting, "matrix", None)
    if matrix is None:
        return 4096  # a space: a few parameters
    rows, columns = matrix.shape
    names = rows if getattr(setting, "names", None) is not None else 0
    return int(matrix.nbytes) * 9 // 8 + 128 * (columns + names)


def _digest(setting: Any) -> int | None:
    matrix = getattr(setting, "matrix", None)
    if matrix is None:
        return None
    return zlib.crc32(matrix.data if matrix.flags.c_contiguous else matrix.tobytes())


class _ClassCache:
    """The classes this process built, by spec: least recently used first out, bounded in bytes.

    The class in use is always kept (even alone above the cap); each entry carries the
    CRC-32 of its matrix, checked by :meth:`verify` after a cell.
    """

    def __init__(self) -> None:
        self._entries: OrderedDict[str, tuple[Any, int | None, int]] = OrderedDict()
        self._lock = threading.Lock()  # a dask worker may run cells in several threads
        self.bytes = 0

    def cap(self) -> int:
        from mistakebound.foundations.memory import available_memory

        budget = available_memory()
        return CLASS_CACHE_BYTES if budget is None else max(0, min(CLASS_CACHE_BYTES, budget // 4))

    def get(self, spec: str) -> Any:
        with self._lock:
            entry = self._entries.get(spec)
            if entry is not None and entry[1] is not None and entry[0].matrix.flags.writeable:
                self._drop(spec)  # made writable since the last check: rebuilt, whatever it holds now
                entry = None
            if entry is not None:
                self._entries.move_to_end(spec)
                return entry[0]
        setting = registry.load_setting(spec)
        size = _footprint(setting)
        with self._lock:
            if spec in self._entries:
                self._drop(spec)
            self._entries[spec] = (setting, _digest(setting), size)
            self.bytes += size
            cap = self.cap()
            while self.bytes > cap and len(self._entries) > 1:
                self._drop(next(iter(self._entries)))
        return setting

    def verify(self, spec: str) -> bool:
        """Whether the cached class of ``spec`` is as built (dropped from the cache when not)."""
        with self._lock:
            entry = self._entries.get(spec)
            if entry is None:
                return True
            setting, digest, _ = entry
            if digest is None or (not setting.matrix.flags.writeable and _digest(setting) == digest):
                return True
            self._drop(spec)
            return False

    def _drop(self, spec: str) -> None:
        _, _, size = self._entries.pop(spec)
        self.bytes -= size

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0

    def __contains__(self, spec: str) -> bool:
        return spec in self._entries

    def __len__(self) -> int:
        return len(self._entries)


_classes = _ClassCache()


def _class(spec: str):
    return _classes.get(spec)


@functools.lru_cache(maxsize=64)
def _player(name: str, kind: str) -> registry.Entry:
    """The player's entry, its parameters checked (:func:`~mistakebound.game.registry.resolve`): an import path
    is imported here, in the process that runs the cell, and its parameters checked then."""
    return registry.resolve(kind, name)[0]


def _number(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    return value


def _prepare(cell: Cell) -> None:
    """Build the class and import the players (cached per process), outside the measurement."""
    _class(cell.cls)
    for name, kind in ((cell.learner, "learner"), (cell.adversary, "adversary")):
        if name is not None:
            _player(name, kind)


def _judged(record: dict, verdict: Verdict) -> None:
    """Write the claims and the verdict (its status, and in ``note`` why it is not ok) into the record."""
    record["verdict"] = verdict.status
    record["note"] = _one_line(verdict.message) if verdict.message else None
    claim, forced = verdict.bound, verdict.forced
    if claim is not None and claim.stated:
        record.update(bound=float(claim.value), bound_measure=claim.measure,
                      ratio=None if verdict.ratio is None else float(verdict.ratio))
    if forced is not None and forced.stated:
        record.update(forced=float(forced.value), forced_measure=forced.measure)


def _played(record: dict, T: Any) -> None:
    """Write what game ``T`` measured: its rounds, mistakes and regret (an online convex optimisation game's
    losses have no mistakes)."""
    record.update(T.totals_record())


def _rules(setting: str | None, H: Any) -> Any:
    """The :class:`~mistakebound.game.rules.Rules` a cell's ``setting`` names, on ``H``'s labels (None: the textbook's)."""
    if setting is None:
        return None
    from mistakebound.game.rules import Rules

    given = dict(part.split("=", 1) for part in setting.split(","))
    return Rules(labels=len(H.labels) if H.labelled else 2, feedback=given.get("feedback", "full"),
                 noise=int(given.get("noise", 0)))


def _game(cell: Cell, record: dict) -> None:
    H = _class(cell.cls)
    try:
        g = judged_game(cell.learner, cell.adversary, H, rounds=cell.horizon, seed=cell.seed,
                        realizable=cell.realizable, rules=_rules(cell.setting, H))  # not applicable: "n/a"
    except MistakeboundError as exc:
        if exc.transcript is not None and not isinstance(exc, GameError):  # a claim read after the game raised
            _played(record, exc.transcript)
        raise
    _played(record, g.transcript)
    if g.measured is not None:
        record["measured"] = float(g.measured)
    _judged(record, g.verdict)


#: What an Ldim search cell is judged against: ``Ldim(H) <= log2 |H|`` (Theorem 21.3 with Lemma 21.6).
_LOG_SOURCE = "Ldim(H) <= log2 |H| (Theorem 21.3 and Lemma 21.6, textbook ch. 21)"


def _searched(record: dict, result: Any, verdict: Verdict, column: str) -> None:
    """Write a search's proven interval, its value in ``column`` (when exact) and its verdict; a partial
    search gets no value and no ratio."""
    if result.status == "interrupted":
        raise KeyboardInterrupt  # a real Ctrl-C, or the player's own (see run_cell)
    exact = bool(result.exact)
    record.update(exact=exact, lower=float(result.lower), upper=float(result.upper), nodes=int(result.nodes),
                  measured=float(result.lower) if exact else None)
    record[column] = _number(result.lower) if exact else None
    _judged(record, verdict)
    if not exact:
        record["ratio"] = None  # lower / bound is not the ratio: the value is unknown
        if result.status == "memory" and verdict.status != "BROKEN":
            raise InsufficientMemoryError(f"the search ran out of memory after {int(result.nodes)} nodes: "
                                          f"{result.describe()}; it runs again on resume")


#: What a VC search cell is judged against: ``VCdim(H) <= Ldim(H) <= log2 |H|`` (textbook, Section 21.1).
_VC_SOURCE = "VCdim(H) <= Ldim(H) <= log2 |H| (textbook ch. 21, Section 21.1)"
#: The searches of a class alone: the function, the record's column, the theorem judged, its measure.
_CLASS_SEARCHES = {
    "ldim": (lambda H, max_nodes: littlestone_bounds(H, max_nodes=max_nodes), "ldim", _LOG_SOURCE, "Ldim <= log2|H|"),
    "vc": (lambda H, max_nodes: vc_bounds(H, max_nodes=max_nodes), "vc", _VC_SOURCE, "VCdim <= log2|H|"),
}


def _search(cell: Cell, record: dict) -> None:
    H = _class(cell.cls)
    if cell.search in _CLASS_SEARCHES:
        run, column, source, measure = _CLASS_SEARCHES[cell.search]
        b = run(H, cell.max_nodes)
        verdict = judge(b, Bound(math.log2(H.n_hypotheses) if H.n_hypotheses else 0.0, source=source))
        _searched(record, b, verdict, column)
        record["bound_measure"] = measure
        if not b.exact and record["verdict"] in ("ok", "undecided"):  # the claim is a theorem: only the interval
            record["verdict"] = "budget"
            record["note"] = _one_line(f"{b.describe()} after {b.nodes} nodes: raise max_nodes for the exact value")
        return
    learner = registry.build("learner", cell.learner, H, rounds=cell.horizon)
    W = worst_case_mistakes(learner, H, horizon=cell.horizon, max_nodes=cell.max_nodes)
    _searched(record, W, judge(W, stated_bound(learner, H, rounds=cell.horizon, realizable=True)), "worst_case")


def _one_line(text: str) -> str:
    """A record's note or error: :func:`~mistakebound.foundations.text.one_line`, cut at :data:`_MAX_ERROR` characters."""
    text = one_line(text)
    return text if len(text) <= _MAX_ERROR else text[: _MAX_ERROR - 3] + "..."


def _blank(cell: Cell) -> dict:
    record = dict.fromkeys(FIELDS)
    record.update(cell.inputs)
    record["id"] = cell.id
    return record


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    while exc is not None and exc not in seen and len(seen) < 20:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    return seen


def is_infrastructure(exc: BaseException) -> bool:
    """Whether a cell's exception is the machine's fault, not the players': out of memory, or a player's module
    that cannot be imported where the cell runs (anywhere in its chain).

    Examples
    --------
    >>> from mistakebound.foundations.errors import PlayerImportError
    >>> is_infrastructure(MemoryError()), is_infrastructure(RuntimeError("a player's bug"))
    (True, False)
    >>> is_infrastructure(PlayerImportError("learner: cannot import 'gone:L'"))
    True
    """
    return any(isinstance(e, (MemoryError, PlayerImportError)) for e in _chain(exc))


def _error_type(exc: BaseException) -> str:
    cause = exc.__cause__ or exc.__context__
    name = type(exc).__name__
    if cause is not None and type(cause).__name__ not in (name, "KeyboardInterrupt"):
        name = f"{name} ({type(cause).__name__})"
    return name


def error_record(cell: Cell, exc: BaseException, *, seconds: float = 0.0) -> dict:
    """The record of a cell that raised ``exc``: verdict ``error`` (``infra`` out of memory), its type and message."""
    record = _blank(cell)
    name = _error_type(exc)
    verdict = INFRA if is_infrastructure(exc) else "error"
    record.update(verdict=verdict, error_type=name, error=_one_line(str(exc) or name), seconds=float(seconds))
    return record


def infra_record(cell: Cell, error_type: str, message: str, *, seconds: float = 0.0) -> dict:
    """The record of a cell that an infrastructure error stopped (a dead worker): verdict :data:`INFRA`.

    Examples
    --------
    >>> r = infra_record(Cell(kind="search", search="ldim", cls="thresholds:3"), "WorkerDied", "killed")
    >>> r["verdict"], r["error_type"], r["error"]
    ('infra', 'WorkerDied', 'killed')
    """
    record = _blank(cell)
    record.update(verdict=INFRA, error_type=error_type, error=_one_line(message), seconds=float(seconds))
    return record


#: Tells whether a KeyboardInterrupt inside a cell is a real interrupt: None (the default)
#: treats every one as real; a sweep that watches its signals, and a worker process that
#: ignores them, install a function (see :func:`interrupts_from`).
_real_interrupt: Callable[[], bool] | None = None


def interrupts_from(source: Callable[[], bool] | None) -> Callable[[], bool] | None:
    """Install how :func:`run_cell` tells Ctrl-C from a player's own ``KeyboardInterrupt``; return the old one.

    ``source()`` is True when this process received SIGINT or SIGTERM: then a
    ``KeyboardInterrupt`` (or a ``SystemExit`` a SIGTERM handler raised) stops the sweep;
    otherwise it came from a player and is that cell's player error.  ``None`` (the
    default) takes every ``KeyboardInterrupt`` as real, and every ``SystemExit`` as a
    player's.
    """
    global _real_interrupt
    old, _real_interrupt = _real_interrupt, source
    return old


def _signalled() -> bool:
    """Whether this process is known to have received SIGINT or SIGTERM during the sweep."""
    source = _real_interrupt
    return source is not None and bool(source())


def run_cell(cell: Cell) -> dict:
    """Run one cell and return its record (never raises, but on a real Ctrl-C).

    A cell that raises is recorded with verdict ``error`` (``n/a`` for a player that
    does not apply to the class), its error type and its message: ``SystemExit`` from a
    player included, and a player's own ``KeyboardInterrupt`` when the sweep can tell it
    from Ctrl-C (see :func:`interrupts_from`).  Out of memory, it is recorded ``infra``.
    """
    record = _blank(cell)
    seconds, peak = 0.0, 0
    try:
        _prepare(cell)
        tracing = tracemalloc.is_tracing()
        if not tracing:
            tracemalloc.start()
        tracemalloc.reset_peak()
        started = time.perf_counter()
        try:
            if cell.kind == "game":
                _game(cell, record)
            else:
                _search(cell, record)
        finally:
            seconds = time.perf_counter() - started
            peak = tracemalloc.get_traced_memory()[1]
            if not tracing:
                tracemalloc.stop()
    except NotApplicableError as exc:
        record.update(verdict="n/a", error_type=type(exc).__name__, error=_one_line(str(exc)))
    except (KeyboardInterrupt, SystemExit) as exc:
        if _signalled() or (isinstance(exc, KeyboardInterrupt) and _real_interrupt is None):
            raise  # Ctrl-C or SIGTERM (its handler may raise either) stops the sweep
        kind = "SystemExit" if isinstance(exc, SystemExit) else "KeyboardInterrupt"  # GameInterrupted included
        what = f"SystemExit({exc.code!r})" if kind == "SystemExit" else f"KeyboardInterrupt ({exc or 'no Ctrl-C'})"
        record.update(verdict="error", error_type=kind, error=_one_line(f"a player raised {what}"))
    except Exception as exc:  # noqa: BLE001 - a failing cell is recorded, the sweep goes on
        name = _error_type(exc)
        record.update(verdict=INFRA if is_infrastructure(exc) else "error", error_type=name,
                      error=_one_line(str(exc) or name))
    if cell.cls in _classes and not _classes.verify(cell.cls):
        record.update(verdict="error", error_type="PlayerError", ratio=None,
                      error=_one_line(f"a player changed the class {cell.cls} (its matrix was made writable "
                                      "and written): the cell's result cannot be trusted; the class is rebuilt"))
    record["seconds"] = seconds
    record["peak_kib"] = round(peak / 1024, 1)
    return record


def run_cells(cells: list[Cell]) -> list[dict]:
    """Run a batch of cells (the unit of work an executor ships to a worker)."""
    return [run_cell(c) for c in cells]
