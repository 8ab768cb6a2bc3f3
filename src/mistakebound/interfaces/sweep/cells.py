"""The cells of a sweep: one game or one search each, and the record it yields.

:func:`expand` turns a :class:`~mistakebound.interfaces.sweep.config.SweepConfig` into
:class:`Cell` values, each with a stable :attr:`Cell.id` computed from its canonical
inputs (the same cell has the same id in every run, on every machine), and
:func:`run_cell` runs one cell and returns its record: a flat dict of JSON-able
scalars whose keys are :data:`FIELDS`.

A ``"game"`` cell plays ``learner`` against ``adversary`` on the class for
``horizon`` rounds with :func:`mistakebound.play` (the cell's ``seed`` is the game's
seed) and checks the learner's proven bound (:func:`mistakebound.game.registry.learner_bound`).
A ``"search"`` cell computes ``Ldim`` of the class (:class:`~mistakebound.theory.littlestone.LdimSearch`,
checked against ``log2 |H|``) or the learner's exact worst case
(:func:`~mistakebound.theory.worst_case.worst_case_mistakes`, checked against its bound) within
``max_nodes``; a search out of budget reports ``exact = false`` with its proven
``lower`` and ``upper`` bounds, and the verdict ``budget`` unless the lower bound
already breaks the bound.

Verdicts: ``ok`` (the bound holds), ``BROKEN`` (it does not), ``no bound`` (the learner
states none for this game), ``budget`` (a search out of budget decided nothing),
``n/a`` (the player does not apply to the class) and ``error`` (the cell raised; its
``error_type`` and one-line ``error`` are recorded).  ``seconds`` is the wall time of
the game or search and ``peak_kib`` its :mod:`tracemalloc` peak in KiB (Python
allocations, numpy buffers included); building the class and importing the players
come before and are not measured (each worker builds and caches them once).

Examples
--------
>>> cell = Cell(kind="game", learner="Halving", adversary="BinarySearchThreshold",
...             cls="thresholds:7", size=7, seed=0, horizon=20)
>>> record = run_cell(cell)
>>> record["mistakes"], record["bound"], record["verdict"], record["id"] == cell.id
(3, 3.0, 'ok', True)
>>> run_cell(Cell(kind="search", search="ldim", cls="thresholds:7", size=7))["mistakes"]
3
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import time
import tracemalloc
from typing import Any

from attrs import asdict, frozen

from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game.play import play
from mistakebound.theory.littlestone import LdimSearch
from mistakebound.game.registry import learner_bound
from mistakebound.theory.worst_case import worst_case_mistakes

__all__ = ["Cell", "FIELDS", "INPUT_FIELDS", "expand", "run_cell", "run_cells", "error_record"]

#: The input columns of a record (a cell's canonical inputs, plus its id first).
INPUT_FIELDS = ("id", "kind", "search", "learner", "adversary", "class", "size", "seed", "horizon",
                "realizable", "max_nodes")
#: Every column of a record, in file order.
FIELDS = INPUT_FIELDS + (
    "rounds", "mistakes", "expected_mistakes", "regret", "measured", "bound", "bound_measure", "ratio",
    "verdict", "exact", "lower", "upper", "nodes", "error_type", "error", "seconds", "peak_kib",
)

_EPS = 1e-9
_MAX_ERROR = 300


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
    search : {"ldim", "worst_case"} or None
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
        text = json.dumps(self.inputs, sort_keys=True, separators=(",", ":"))
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
    from mistakebound.interfaces.sweep.config import class_specs

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
                                cell = Cell(
                                    kind=g.kind, cls=spec, learner=learner, adversary=adversary, size=size,
                                    seed=seed, horizon=horizon, realizable=g.realizable, search=g.search,
                                    max_nodes=g.max_nodes if g.kind == "search" else None,
                                )
                                if cell.id not in seen:
                                    seen.add(cell.id)
                                    cells.append(cell)
    return cells


# ---------------------------------------------------------------------- running
@functools.lru_cache(maxsize=32)
def _class(spec: str):
    from mistakebound.game import classes

    return classes.from_spec(spec)


@functools.lru_cache(maxsize=64)
def _player(name: str, kind: str):
    from mistakebound.interfaces.sweep.config import resolve_player

    return resolve_player(name, kind, kind)


def _ratio(measured: float, bound: float) -> float:
    if bound > 0:
        return measured / bound
    return 0.0 if measured <= _EPS else math.inf


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
            _player(name, kind).player_type


def _game(cell: Cell, record: dict) -> None:
    H = _class(cell.cls)
    lf = _player(cell.learner, "learner")
    af = _player(cell.adversary, "adversary")
    learner = lf(H, rounds=cell.horizon)
    adversary = af(H, rounds=cell.horizon)
    T = play(  # raises NotApplicableError (recorded as "n/a") for an adversary that does not apply
        learner, adversary, H, rounds=cell.horizon, seed=cell.seed, realizable=cell.realizable)
    record.update(rounds=len(T), mistakes=int(T.mistakes), expected_mistakes=float(T.expected_mistakes),
                  regret=None if T.regret is None else float(T.regret))
    bound = learner_bound(learner, H, rounds=cell.horizon, realizable=cell.realizable)
    if bound is None:
        record["verdict"] = "no bound"
        return
    measured = {"mistakes": T.mistakes, "expected mistakes": T.expected_mistakes}.get(bound.measure, T.regret)
    if measured is None:
        record["verdict"] = "no bound"
        return
    record.update(measured=float(measured), bound=float(bound.value), bound_measure=bound.measure,
                  ratio=_ratio(float(measured), float(bound.value)),
                  verdict="ok" if measured <= bound.value + _EPS else "BROKEN")


def _search(cell: Cell, record: dict) -> None:
    H = _class(cell.cls)
    if cell.search == "ldim":
        b = LdimSearch(H).bounds(max_nodes=cell.max_nodes)
        if b.status == "interrupted":
            raise KeyboardInterrupt
        exact = b.status == "exact"
        bound = math.log2(H.n_hypotheses) if H.n_hypotheses else 0.0
        lower, upper = int(b.lower), int(b.upper)
        record.update(mistakes=lower, measured=float(lower), bound=float(bound),
                      bound_measure="Ldim <= log2|H|", exact=exact, lower=float(lower), upper=float(upper),
                      nodes=int(b.nodes), ratio=_ratio(float(lower), bound))
        record["verdict"] = ("BROKEN" if lower > bound + _EPS else
                             "ok" if upper <= bound + _EPS else "budget")
        return
    lf = _player(cell.learner, "learner")
    learner = lf(H, rounds=cell.horizon)
    W = worst_case_mistakes(learner, H, horizon=cell.horizon, max_nodes=cell.max_nodes)
    record.update(mistakes=_number(W.value), exact=bool(W.exact), lower=float(W.lower), upper=float(W.upper),
                  nodes=int(W.nodes), measured=float(W.lower))
    bound = learner_bound(learner, H, rounds=cell.horizon, realizable=True)
    if bound is None:
        record["verdict"] = "no bound" if W.exact else "budget"
        return
    record.update(bound=float(bound.value), bound_measure=bound.measure,
                  ratio=_ratio(float(W.lower), float(bound.value)))
    if W.lower > bound.value + _EPS:
        record["verdict"] = "BROKEN"  # proven: the search found a line forcing more
    else:
        record["verdict"] = "ok" if W.exact else "budget"  # a partial upper may be the bound itself


def _one_line(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= _MAX_ERROR else text[: _MAX_ERROR - 3] + "..."


def _blank(cell: Cell) -> dict:
    record = dict.fromkeys(FIELDS)
    record.update(cell.inputs)
    record["id"] = cell.id
    return record


def error_record(cell: Cell, exc: BaseException, *, seconds: float = 0.0) -> dict:
    """The record of a cell that raised ``exc``: verdict ``error``, its type and message."""
    record = _blank(cell)
    record.update(verdict="error", error_type=type(exc).__name__, error=_one_line(str(exc) or type(exc).__name__),
                  seconds=float(seconds))
    return record


def run_cell(cell: Cell) -> dict:
    """Run one cell and return its record (never raises, except KeyboardInterrupt).

    A cell that raises is recorded with verdict ``error`` (``n/a`` for a player that
    does not apply to the class), its error type and its message.
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
    except Exception as exc:  # noqa: BLE001 - a failing cell is recorded, the sweep goes on
        cause = exc.__cause__ or exc.__context__
        name = type(exc).__name__
        if cause is not None and type(cause).__name__ not in (name, "KeyboardInterrupt"):
            name = f"{name} ({type(cause).__name__})"
        record.update(verdict="error", error_type=name, error=_one_line(str(exc) or name))
    record["seconds"] = seconds
    record["peak_kib"] = round(peak / 1024, 1)
    return record


def run_cells(cells: list[Cell]) -> list[dict]:
    """Run a batch of cells (the unit of work an executor ships to a worker)."""
    return [run_cell(c) for c in cells]
