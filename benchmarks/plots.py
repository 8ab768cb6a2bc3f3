"""Scaling plots of a benchmark run: seconds against ``|H|`` per class family, log-log.

:func:`plot_scaling` reads the payload :func:`benchmarks.suite.main` writes to JSON and
draws one panel per class family (the cases sharing a ``family``), in two figures
(prefixed ``smoke_`` for a smoke run): ``scaling_ldim.png`` (Littlestone dimension,
the "hard" random classes included) and ``scaling_vc.png`` (VC dimension).  Each
panel shows the engine's median seconds (filled circles, solid line) and the textbook baseline's one run where it finished
(filled squares, dashed line), and the second baseline's, the pruned alpha-beta search
(diamonds, dotted line); where a baseline was killed at the cap, an open triangle
pointing up sits at the cap: a lower bound, the true time is above it.
Baselines skipped past an unfinished size are not drawn (they were not measured).

matplotlib is imported on first use; files are written atomically.  To redraw the
figures of a finished run: ``python -m benchmarks.plots benchmarks/results/latest.json``.

Examples
--------
>>> import tempfile
>>> rec = lambda n, s, status, b: {"kind": "ldim", "family": "thresholds", "n_hypotheses": n,
...     "median_s": s, "baseline_status": status, "baseline_s": b}
>>> payload = {"baseline_cap_s": 2.0, "mode": "smoke", "machine": {"date": "today"},
...            "cases": [rec(16, 1e-4, "ok", 0.01), rec(64, 1e-3, "timeout", None)]}
>>> [p.name for p in plot_scaling(payload, tempfile.mkdtemp())]
['smoke_scaling_ldim.png']
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mistakebound.foundations.files import write_atomically

__all__ = ["FIGURES", "family_series", "main", "plot_scaling"]

#: Figure file name -> the case kinds drawn in it.
FIGURES = {"scaling_ldim.png": ("ldim", "hard"), "scaling_vc.png": ("vc",)}


def family_series(records: list[dict], kinds: tuple[str, ...]) -> dict[str, dict[str, list]]:
    """Per family (in first-seen order), the points of the plot.

    Returns ``{family: {"ours": [(n, s)], "baseline": [(n, s)], "capped": [n],
    "alphabeta": [(n, s)], "alphabeta_capped": [n]}}`` over the records of the given kinds
    that name a family; the ``capped`` lists hold the sizes where that baseline was killed
    (its cap is the caller's payload's).

    Examples
    --------
    >>> r = {"kind": "vc", "family": "f", "n_hypotheses": 4, "median_s": 0.1,
    ...      "baseline_status": "timeout", "baseline_s": None, "alphabeta_status": "ok", "alphabeta_s": 0.5}
    >>> family_series([r], ("vc",))
    {'f': {'ours': [(4, 0.1)], 'baseline': [], 'capped': [4], 'alphabeta': [(4, 0.5)], 'alphabeta_capped': []}}
    """
    out: dict[str, dict[str, list]] = {}
    for r in records:
        if r.get("kind") not in kinds or r.get("family") is None or not r.get("n_hypotheses"):
            continue
        s = out.setdefault(r["family"], {"ours": [], "baseline": [], "capped": [], "alphabeta": [],
                                         "alphabeta_capped": []})
        s["ours"].append((r["n_hypotheses"], r["median_s"]))
        for name, capped in (("baseline", "capped"), ("alphabeta", "alphabeta_capped")):
            if r.get(f"{name}_status") == "ok":
                s[name].append((r["n_hypotheses"], r[f"{name}_s"]))
            elif r.get(f"{name}_status") == "timeout":
                s[capped].append(r["n_hypotheses"])
    return out


def _figure(n_panels: int):
    """A grid figure with ``n_panels`` axes (matplotlib imported here, Agg canvas)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    cols = min(4, n_panels)
    rows = -(-n_panels // cols)
    fig = Figure(figsize=(3.6 * cols, 3.0 * rows + 0.6), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax in axes[n_panels:]:
        ax.set_visible(False)
    return fig, axes


def _panel(ax, family: str, series: dict[str, list], cap: float) -> None:
    ours = sorted(series["ours"])
    ax.plot(*zip(*ours), "o-", color="tab:blue", label="mistakebound (median of the repeats)")
    if series["baseline"]:
        ax.plot(*zip(*sorted(series["baseline"])), "s--", color="tab:red", label="textbook recursion")
    if series["capped"]:
        ax.plot(series["capped"], [cap] * len(series["capped"]), "^", markerfacecolor="none",
                markeredgecolor="tab:red", markersize=9, linestyle="none", label=f"textbook > {cap:g} s (killed)")
    if series.get("alphabeta"):
        ax.plot(*zip(*sorted(series["alphabeta"])), "D:", color="tab:green", markersize=4,
                label="pruned alpha-beta search")
    if series.get("alphabeta_capped"):
        ax.plot(series["alphabeta_capped"], [cap] * len(series["alphabeta_capped"]), "^", markerfacecolor="none",
                markeredgecolor="tab:green", markersize=7, linestyle="none")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_title(family, fontsize=9)
    ax.set_xlabel("|H|", fontsize=8)
    ax.set_ylabel("seconds", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(True, which="major", alpha=0.3)
    from matplotlib.ticker import NullFormatter

    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_minor_formatter(NullFormatter())


def _legend(fig, axes, cap: float) -> None:
    """One legend for the figure, above the panels, with every kind of mark drawn."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], color="tab:blue", marker="o", label="mistakebound (median of the repeats)"),
        Line2D([], [], color="tab:red", marker="s", linestyle="--", label="textbook recursion (one run)"),
        Line2D([], [], color="tab:green", marker="D", markersize=4, linestyle=":",
               label="pruned alpha-beta search (one run; the second baseline)"),
        Line2D([], [], color="tab:red", marker="^", markerfacecolor="none", linestyle="none",
               label=f"a baseline killed at {cap:g} s (its colour): a lower bound"),
    ]
    fig.legend(handles=handles, loc="outside lower center", ncols=4, fontsize=8, frameon=False)


def plot_scaling(payload: dict[str, Any], folder: str | os.PathLike) -> list[Path]:
    """Draw the figures of :data:`FIGURES` that have points into ``folder``; the paths written.

    ``folder`` is created if missing.  The figures of a smoke run are named with a
    ``smoke_`` prefix, so that they never replace those of a full run.  Raises
    ImportError when matplotlib is not installed.
    """
    prefix = "smoke_" if payload.get("mode") == "smoke" else ""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cap = float(payload["baseline_cap_s"])
    written = []
    for name, kinds in FIGURES.items():
        families = family_series(payload["cases"], kinds)
        if not families:
            continue
        fig, axes = _figure(len(families))
        for ax, (family, series) in zip(axes, families.items()):
            _panel(ax, family, series, cap)
        _legend(fig, axes, cap)
        what = " / ".join(kinds)
        fig.suptitle(
            f"{what}: seconds against |H| ({payload.get('mode', '')} run, {payload.get('machine', {}).get('date', '')}; "
            f"open triangles: baseline killed at {cap:g} s, a lower bound)",
            fontsize=9,
        )
        written.append(write_atomically(folder / f"{prefix}{name}", lambda tmp, fig=fig: fig.savefig(tmp, format="png", dpi=110)))
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.plots RESULTS.json [DIR]``: redraw the figures of a run."""
    import argparse
    import json

    p = argparse.ArgumentParser(prog="python -m benchmarks.plots", description=__doc__.split("\n")[0])
    p.add_argument("results", help="the JSON written by python -m benchmarks")
    p.add_argument("folder", nargs="?", default=None, help="where to write (default: the JSON's folder)")
    args = p.parse_args(argv)
    with open(args.results, encoding="utf-8") as fh:
        payload = json.load(fh)
    for path in plot_scaling(payload, args.folder or os.path.dirname(os.path.abspath(args.results))):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
