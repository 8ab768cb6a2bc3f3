"""The figures of a sweep: each measured value against the size, with the claims, over seeds.

:func:`plot_records` draws, from a sweep's records (the rows of its results file):

* for the game cells of each class family, adversary, measure and horizon, one curve
  per learner: the mean over seeds at each size, a band from the smallest to the
  largest seed's value, the learner's bound dashed in its colour (equal bounds with
  interleaved dashes and ``(= bound of X)`` in the legend), and a red cross where a
  seed broke the bound;
* for ``ldim`` and ``vc`` search cells, Ldim and the VC dimension of each family against
  the size, in one figure, with the bound ``log2 |H|``; for ``worst_case`` cells, each
  learner's ``M_A(H)`` against its claim.  A search out of budget is drawn as its proven interval.

When the sizes grow geometrically (``4, 8, 16, ...`` or ``3, 7, 15, ...``) the size axis is
logarithmic in base 2 with a tick at each size.  Curves that would coincide are dodged
sideways a little (each learner its own marker and line style), and the legend sits
under the axes.  matplotlib is imported on first use; the files are written with
:func:`mistakebound.interfaces.plots.save_figure` (atomically).

Examples
--------
>>> import tempfile
>>> from mistakebound.interfaces.sweep.cells import Cell, run_cell
>>> records = [run_cell(Cell(kind="game", learner=L, adversary="OppositeLabel", cls=f"thresholds:{n}",
...                          size=n, seed=s, horizon=40)) for L in ("Halving", "SOA") for n in (3, 7, 15)
...            for s in (0, 1)]
>>> [p.name for p in plot_records(records, tempfile.mkdtemp())]
['thresholds-OppositeLabel.png']
>>> doubling([3, 7, 15]), doubling([3, 4, 5])
(True, False)
"""

from __future__ import annotations

import math
import os
import re
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.text import number_text

__all__ = ["plot_records", "sweep_figures", "doubling"]

_BROKEN = "#d62728"
#: The searches of a class, drawn together: their record column and their name.
_DIMENSIONS = {"ldim": "Ldim", "vc": "VCdim"}


def doubling(sizes: Iterable[float]) -> bool:
    """Whether sizes grow geometrically (at least 3, positive, each at least 1.5 times the last): a log2 axis.

    Examples
    --------
    >>> doubling([4, 8, 16, 32]), doubling([1, 2]), doubling([10, 20, 25])
    (True, False, False)
    """
    s = sorted(set(float(v) for v in sizes))
    return len(s) >= 3 and s[0] > 0 and all(b >= 1.5 * a for a, b in zip(s, s[1:]))


def _family(spec: str, size: Any) -> str:
    """The class entry a spec was made from: ``thresholds`` for ``thresholds:8``, ``random:{n},30`` for
    ``random:8,30`` (size 8), so that the classes of two entries of one family get two figures.

    Examples
    --------
    >>> _family("thresholds:8", 8), _family("random:8,30,0.5,1", 8), _family("k_sparse:6,2", 6)
    ('thresholds', 'random:{n},30,0.5,1', 'k_sparse:{n},2')
    """
    name, colon, args = spec.partition(":")
    tokens = args.split(",")
    if not colon or str(size) not in tokens:
        return re.split(r"[:(]", spec, maxsplit=1)[0]
    if tokens == [str(size)]:
        return name
    tokens[tokens.index(str(size))] = "{n}"
    return f"{name}:{','.join(tokens)}"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "sweep"


def _game_value(r: dict) -> tuple[str, float | None, float | None]:
    """``(measure, value, bound)`` of a game record: mistakes (expected ones when the claim is on them) or regret."""
    regret = not r.get("realizable", True) or r.get("mistakes") is None
    measure = "regret" if regret else "mistakes"
    claim = r.get("bound_measure")
    if claim is not None and (claim == "regret") == regret and r.get("measured") is not None:
        return measure, r["measured"], r.get("bound")
    return measure, r.get("regret") if regret else r.get("mistakes"), None


class _Series:
    """One line of a figure: values by size (several seeds each), the bound, the broken sizes, intervals."""

    def __init__(self) -> None:
        self.values: dict[float, list[float]] = defaultdict(list)
        self.bounds: dict[float, float] = {}
        self.broken: set[float] = set()
        self.intervals: dict[float, tuple[float, float]] = {}

    def add(self, size: float, value: float | None, bound: float | None, verdict: str | None) -> None:
        if value is not None:
            self.values[size].append(float(value))
        if bound is not None and math.isfinite(bound):
            self.bounds[size] = max(self.bounds.get(size, -math.inf), float(bound))
        if verdict == "BROKEN":
            self.broken.add(size)


def _bound_key(one: _Series) -> tuple:
    sizes = tuple(sorted(one.bounds))
    return sizes, tuple(one.bounds[s] for s in sizes)


def _dodge(xs: np.ndarray, i: int, n: int, log: bool, span: float) -> np.ndarray:
    """``xs`` moved sideways by a few percent of the axis for the ``i``-th of ``n`` lines, so none hides another."""
    shift = (i - (n - 1) / 2) * 0.04
    return xs * 2 ** shift if log else xs + shift * span * 0.3


def _draw(ax: Any, series: dict[str, _Series]) -> tuple[int, bool]:
    """Draw each series: mean with a band over seeds, bound dashed, broken sizes crossed, intervals as bars.

    Returns the most seeds at one point and whether the value axis is logarithmic (values spread over
    more than a factor of 16: base 2, linear below 1 so that 0 stays on it)."""
    sizes = sorted({s for one in series.values() for s in list(one.values) + list(one.intervals) + list(one.bounds)})
    log = doubling(sizes)
    span = (max(sizes) - min(sizes)) if sizes else 1.0
    n = len(series)
    equal: dict[tuple, list[str]] = defaultdict(list)  # the learners of each bound line
    for name, one in series.items():
        if one.bounds:
            equal[_bound_key(one)].append(name)
    from mistakebound.interfaces.plots import _MARKERS

    broken_labelled = False
    seeds = 1
    for i, (name, one) in enumerate(series.items()):
        color = f"C{i % 10}"
        marker = _MARKERS[i % len(_MARKERS)]
        xs = np.array(sorted(one.values), dtype=float)
        if len(xs):
            vals = [np.asarray(one.values[s]) for s in xs]
            mean = np.array([v.mean() for v in vals])
            lo = np.array([v.min() for v in vals])
            hi = np.array([v.max() for v in vals])
            dx = _dodge(xs, i, n, log, span)
            many = max(len(v) for v in vals)
            seeds = max(seeds, many)
            ax.plot(dx, mean, color=color, marker=marker, linewidth=1.6, markersize=5, zorder=3, label=name)
            if many > 1:
                ax.fill_between(dx, lo, hi, color=color, alpha=0.18, linewidth=0, zorder=2)
            crossed = [k for k, s in enumerate(xs) if s in one.broken]
            if crossed:
                ax.plot(dx[crossed], hi[crossed], linestyle="none", marker="X", markersize=11, color=_BROKEN,
                        markeredgecolor="white", zorder=5, label=None if broken_labelled else "bound broken here")
                broken_labelled = True
        if one.intervals:
            ix = np.array(sorted(one.intervals), dtype=float)
            low = np.array([one.intervals[s][0] for s in ix])
            high = np.array([one.intervals[s][1] for s in ix])
            dx = _dodge(ix, i, n, log, span)
            ax.errorbar(dx, low, yerr=[np.zeros_like(low), high - low], fmt=marker, mfc="white", color=color,
                        capsize=3, zorder=3, label=f"{name}: out of budget, proven interval")
        if one.bounds:
            key = _bound_key(one)
            members = equal[key]
            j, k = members.index(name), len(members)
            also = "" if j == 0 else f" (= bound of {members[0]})"
            ax.plot(np.array(key[0], dtype=float), key[1], color=color, linewidth=1.4, zorder=1,
                    linestyle=(0, (6, 4)) if k == 1 else (j * 5.0, (5, 5 * (k - 1))),  # equal ones interleave
                    label=f"{name} bound{also}")
    if log:
        ax.set_xscale("log", base=2)
        from matplotlib.ticker import FixedLocator, NullLocator

        ax.xaxis.set_major_locator(FixedLocator(sizes))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xticklabels([number_text(s) for s in sizes])
        ax.set_xlim(min(sizes) / 2 ** 0.3, max(sizes) * 2 ** 0.3)
    elif sizes:
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ys = [abs(v) for one in series.values() for v in [*(x for vs in one.values.values() for x in vs),
                                                       *one.bounds.values(), *(b for iv in one.intervals.values()
                                                                               for b in iv)]
          if math.isfinite(v)]
    spread = bool(ys) and max(ys) >= 16 * max(min([v for v in ys if v > 0] or [1.0]), 1.0)
    if spread:
        from matplotlib.ticker import FuncFormatter

        ax.set_yscale("symlog", base=2, linthresh=1, linscale=0.5)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: number_text(v)))
        if min((v for one in series.values() for vs in one.values.values() for v in vs), default=0) >= 0:
            ax.set_ylim(-0.3, max(ys) * 1.5)  # room for a bound at 0 and for the marks at the top
    ax.grid(True, alpha=0.3)
    entries = len(ax.get_legend_handles_labels()[1])
    longest = max((len(t) for t in ax.get_legend_handles_labels()[1]), default=0)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=2 if entries > 2 and longest < 48 else 1,
              fontsize=8, frameon=False)
    return seeds, spread


def _figure_for(title: str) -> tuple[Any, Any]:
    from mistakebound.interfaces.plots import PAPER_WIDTH, _figure, _wrap

    fig = _figure(PAPER_WIDTH, 4.2)
    ax = fig.add_subplot()
    ax.set_title(_wrap(title, PAPER_WIDTH - 0.3, 10), fontsize=10)
    return fig, ax


def _size_label(doubles: bool) -> str:
    return "size n (log2 axis)" if doubles else "size n"


def plot_records(records: Iterable[dict], directory: str | os.PathLike, *, suffix: str = ".png",
                 **style: Any) -> list[Path]:
    """Draw each measured value against the size, over seeds, with the claims; return the files written.

    The figures are those of :func:`sweep_figures`, each written to ``directory`` as
    ``NAME`` + ``suffix`` (``.png``, ``.svg`` or ``.pdf``); ``style`` is
    :func:`~mistakebound.interfaces.plots.save_figure`'s ``dpi`` and ``titles``.

    Raises
    ------
    InvalidArgumentError
        If ``directory`` does not exist.
    PlotDependencyError
        If matplotlib is not installed.
    """
    from mistakebound.interfaces.plots import save_figure

    folder = Path(directory)
    if not folder.is_dir():
        raise InvalidArgumentError(f"plot: the directory {str(directory)!r} does not exist")
    return [save_figure(fig, folder / f"{name}{suffix}", **style) for name, fig in sweep_figures(records)]


def sweep_figures(records: Iterable[dict]) -> list[tuple[str, Any]]:
    """The figures of a sweep's records, as ``(name, matplotlib Figure)`` pairs.

    Game cells: one figure per (class family, adversary, measure, horizon), named
    ``FAMILY-ADVERSARY[-unrealizable][-T<horizon>]`` (the horizon only when the sweep
    has several).  Search cells: ``FAMILY-dimension`` (Ldim and VCdim with ``log2 |H|``) and
    ``FAMILY-worst_case[-T<horizon>]``.  Cells without a size (a fixed class spec) or
    without a value (errors, ``n/a``) are left out.
    """
    records = [r for r in records if r.get("size") is not None]
    games: dict[tuple, dict[str, _Series]] = defaultdict(dict)
    searches: dict[tuple, dict[str, _Series]] = defaultdict(dict)
    horizons: dict[tuple, set] = defaultdict(set)
    for r in records:
        size = float(r["size"])
        family = _family(r["class"], r["size"])
        if r.get("kind") == "game":
            measure, value, bound = _game_value(r)
            if value is None:
                continue
            key = (family, r["adversary"], measure, r.get("horizon"))
            horizons[key[:3]].add(r.get("horizon"))
            one = games[key].setdefault(r["learner"], _Series())
            one.add(size, value, bound, r.get("verdict"))
        elif r.get("search") in _DIMENSIONS:
            key = (family, "dimension", None)
            name = _DIMENSIONS[r["search"]]
            one = searches[key].setdefault(name, _Series())
            one.add(size, r.get(r["search"]), None, None)
            if r.get("exact") is False and r.get("lower") is not None:  # both are at most log2 |H|
                top = min(float(r["upper"]), float(r["bound"])) if r.get("bound") is not None else float(r["upper"])
                one.intervals[size] = (float(r["lower"]), top)
            if r.get("bound") is not None:
                one = searches[key].setdefault("log2 |H|", _Series())
                one.bounds[size] = float(r["bound"])
        elif r.get("search") == "worst_case":
            key = (family, "worst_case", r.get("horizon"))
            horizons[key[:2]].add(r.get("horizon"))
            one = searches[key].setdefault(r["learner"], _Series())
            one.add(size, r.get("worst_case"), r.get("bound"), r.get("verdict"))
            if r.get("exact") is False and r.get("lower") is not None:
                top = float(r["upper"]) if math.isfinite(r["upper"]) else float(r.get("bound") or r["lower"]) * 1.5
                one.intervals[size] = (float(r["lower"]), max(top, float(r["lower"])))
    written: list[tuple[str, Any]] = []
    for (family, adversary, measure, horizon), series in sorted(games.items(), key=lambda kv: str(kv[0])):
        several = len(horizons[(family, adversary, measure)]) > 1
        kind = "realizable" if measure == "mistakes" else "unrealizable"
        fig, ax = _figure_for(f"{family} vs {adversary} ({kind}, {horizon} rounds): {measure} against size")
        seeds, spread = _draw(ax, dict(sorted(series.items())))
        sizes = [s for one in series.values() for s in one.values]
        ax.set_xlabel(_size_label(doubling(sizes)))
        over = f"mean of {seeds} seeds, band: min to max" if seeds > 1 else "1 seed"
        ax.set_ylabel(f"{measure}{' (log axis)' if spread else ''}\n{over}")
        name = f"{_slug(family)}-{_slug(adversary)}{'' if measure == 'mistakes' else '-unrealizable'}"
        name += f"-T{horizon}" if several else ""
        written.append((name, fig))
    for (family, search, horizon), series in sorted(searches.items(), key=lambda kv: str(kv[0])):
        if search == "dimension":
            shown = " and ".join(n for n in ("Ldim", "VCdim") if n in series)
            title = f"{family}: {shown} against size, with the bound log2 |H|"
            ylabel = "dimension"
            series = {k: series[k] for k in ("Ldim", "VCdim", "log2 |H|") if k in series}  # the same order always
        else:
            rounds = "no horizon" if horizon is None else f"horizon {horizon}"
            title = f"{family}: worst case M_A(H) of each learner ({rounds}), with its claim"
            ylabel = "worst-case mistakes M_A(H)"
        fig, ax = _figure_for(title)
        _, spread = _draw(ax, series)
        sizes = [s for one in series.values() for s in list(one.values) + list(one.intervals)]
        ax.set_xlabel(_size_label(doubling(sizes)))
        ax.set_ylabel(ylabel + (" (log axis)" if spread else ""))
        several = search == "worst_case" and len(horizons[(family, search)]) > 1
        name = f"{_slug(family)}-{search}" + (f"-T{horizon}" if several else "")
        written.append((name, fig))
    return written
