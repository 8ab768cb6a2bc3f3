"""A sweep's figures, its search columns, its older results files and its summary (issue 16)."""

from __future__ import annotations

import numpy as np
import pytest

from mistakebound.interfaces.sweep import format_summary, read_records, sweep
from mistakebound.interfaces.sweep.cells import FIELDS
from mistakebound.interfaces.sweep.results import LEGACY_FIELDS, ResultsFile, encode

PREFIX = "tests.test_sweep_players:"

GAMES = {"grid": [
    {"kind": "game", "learners": ["Halving", "SOA", "Consistent"], "adversaries": ["ObliviousCoin"],
     "classes": ["singletons"], "sizes": [4, 8, 16, 32], "seeds": [0, 1, 2], "horizons": [30]},
    {"kind": "game", "learners": ["Halving", PREFIX + "Overconfident"], "adversaries": ["OppositeLabel"],
     "classes": ["thresholds"], "sizes": [4, 8, 16], "seeds": [0, 1], "horizons": [20]},
    {"kind": "search", "search": "ldim", "classes": ["thresholds"], "sizes": [3, 7, 15, 31]},
    {"kind": "search", "search": "vc", "classes": ["thresholds"], "sizes": [3, 7, 15, 31]},
    {"kind": "search", "search": "vc", "classes": ["power_set"], "sizes": [3, 7]},
    {"kind": "search", "search": "worst_case", "learners": ["Halving", "Consistent"], "classes": ["singletons"],
     "sizes": [2, 4, 8], "max_nodes": 20000},
]}


@pytest.fixture(scope="module")
def records():
    return sweep(GAMES, executor="inprocess").records


@pytest.fixture(scope="module")
def figures(records):
    pytest.importorskip("matplotlib")
    from mistakebound.interfaces.sweep.figures import sweep_figures

    return dict(sweep_figures(records))


def _legend(fig) -> list[str]:
    return [t.get_text() for t in fig.axes[0].get_legend().get_texts()]


def test_doubling_sizes_get_a_log2_axis_with_a_tick_at_each_size(figures):
    from mistakebound.interfaces.sweep.figures import doubling, sweep_figures

    ax = figures["singletons-ObliviousCoin"].axes[0]
    assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
    assert list(ax.get_xticks()) == [4, 8, 16, 32]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["4", "8", "16", "32"]  # no 3.0, 3.5
    assert "log2" in ax.get_xlabel()
    assert figures["thresholds-dimension"].axes[0].get_xscale() == "log"  # 3, 7, 15, 31: doubling too
    # sizes that do not double keep a linear axis
    linear = [{"kind": "game", "learner": "Halving", "adversary": "A", "class": f"thresholds:{n}", "size": n,
               "seed": 0, "horizon": 5, "realizable": True, "mistakes": 1} for n in (3, 4, 5)]
    ((_, fig),) = sweep_figures(linear)
    assert fig.axes[0].get_xscale() == "linear" and not doubling([3, 4, 5])


def test_each_learner_is_the_mean_over_seeds_with_a_band_from_min_to_max(records, figures):
    from matplotlib.collections import PolyCollection

    fig = figures["singletons-ObliviousCoin"]
    ax = fig.axes[0]
    assert "mean of 3 seeds, band: min to max" in ax.get_ylabel()
    (consistent,) = [ln for ln in ax.get_lines() if ln.get_label() == "Consistent"]
    rows = [r for r in records if r["kind"] == "game" and r["learner"] == "Consistent" and r["class"].startswith("singletons")]
    for n, y in zip((4, 8, 16, 32), consistent.get_ydata()):
        values = [r["mistakes"] for r in rows if r["size"] == n]
        assert len(values) == 3 and y == pytest.approx(np.mean(values))
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(bands) == 3  # one per learner
    # the learners' markers differ, and equal means are moved apart, not drawn on top of each other
    curves = [ln for ln in ax.get_lines() if ln.get_label() in ("Halving", "SOA", "Consistent")]
    assert len({ln.get_marker() for ln in curves}) == 3
    assert len({tuple(np.round(ln.get_xdata(), 6)) for ln in curves}) == 3


def test_broken_bounds_are_marked_where_they_broke(records, figures):
    ax = figures["thresholds-OppositeLabel"].axes[0]
    (crosses,) = [ln for ln in ax.get_lines() if ln.get_label() == "bound broken here"]
    broken = sorted({r["size"] for r in records if r["verdict"] == "BROKEN"})
    assert broken == [4, 8, 16]
    assert np.round(np.asarray(crosses.get_xdata()) / 2 ** 0.02).tolist() == broken  # dodged by 2^0.02
    assert crosses.get_marker() == "X"
    texts = _legend(figures["thresholds-OppositeLabel"])
    assert "bound broken here" in texts
    # a sweep that broke nothing marks nothing
    assert "bound broken here" not in _legend(figures["singletons-ObliviousCoin"])


def test_equal_bounds_are_named_in_the_legend():
    from mistakebound.interfaces.sweep.figures import sweep_figures

    rows = [{"kind": "search", "search": "worst_case", "learner": L, "class": f"thresholds:{n}", "size": n,
             "worst_case": w, "bound": b, "exact": True, "verdict": "ok"}
            for L, w in (("Halving", 1), ("SOA", 2)) for n, b in ((3, 2.0), (7, 3.0), (15, 4.0))]
    ((_, fig),) = sweep_figures(rows)
    texts = _legend(fig)
    assert "Halving bound" in texts and "SOA bound (= bound of Halving)" in texts


def test_search_cells_are_plotted(records, figures):
    ax = figures["thresholds-dimension"].axes[0]
    by_label = {ln.get_label(): ln for ln in ax.get_lines()}
    ldim = [r["ldim"] for r in records if r["search"] == "ldim"]
    assert list(by_label["Ldim"].get_ydata()) == ldim == [2, 3, 4, 5]
    assert list(by_label["VCdim"].get_ydata()) == [1, 1, 1, 1]
    assert "log2 |H| bound" in by_label
    ax = figures["singletons-worst_case"].axes[0]
    labels = {ln.get_label() for ln in ax.get_lines()}
    assert {"Halving", "Consistent", "Halving bound", "Consistent bound"} <= labels


def test_a_partial_search_is_drawn_as_its_proven_interval():
    from mistakebound.interfaces.sweep.figures import sweep_figures

    pytest.importorskip("matplotlib")
    rows = sweep({"grid": [{"kind": "search", "search": "ldim", "classes": ["random:{n},30,0.3,0"],
                            "sizes": [1000, 2000, 4000], "max_nodes": 3}]}, executor="inprocess").records
    assert all(r["exact"] is False and r["ldim"] is None for r in rows)
    ((_, fig),) = sweep_figures(rows)
    assert any(t.endswith("out of budget, proven interval") for t in _legend(fig))


def test_search_values_have_named_columns(records):
    from mistakebound.game.registry import load_setting
    from mistakebound.theory.textbook import textbook_vcdim

    ldim = [r for r in records if r["search"] == "ldim"]
    assert [(r["ldim"], r["vc"], r["mistakes"]) for r in ldim] == [(2, None, None), (3, None, None), (4, None, None),
                                                                   (5, None, None)]
    vc = [r for r in records if r["search"] == "vc"]
    assert len(vc) == 6 and all(r["exact"] and r["verdict"] == "ok" for r in vc)
    for r in vc:
        assert r["vc"] == textbook_vcdim(load_setting(r["class"]).matrix) and r["ldim"] is None and r["mistakes"] is None
        assert r["bound_measure"] == "VCdim <= log2|H|"
    assert [r["vc"] for r in vc if r["class"].startswith("power_set")] == [3, 7]  # 2^n sets shatter n points
    worst = {(r["learner"], r["size"]): r for r in records if r["search"] == "worst_case"}
    assert worst["Consistent", 8]["worst_case"] == 7 and worst["Halving", 8]["worst_case"] == 1  # Halving errs once on singletons
    assert all(r["mistakes"] is None and r["ldim"] is None for r in worst.values())
    assert {"ldim", "vc", "worst_case"} <= set(FIELDS)


def test_a_results_file_of_the_earlier_format_is_read_and_upgraded_before_a_resume(records, tmp_path):
    path = tmp_path / "old.csv"
    old_rows = []
    for r in records:  # as the earlier sweep wrote them: a search's value in mistakes, no vc column
        old = {k: r.get(k) for k in LEGACY_FIELDS}
        if r["kind"] == "search":
            old["mistakes"] = r["ldim"] if r["search"] == "ldim" else r["worst_case"]
        old_rows.append(",".join(encode(old[k]) for k in LEGACY_FIELDS))
    path.write_text(",".join(LEGACY_FIELDS) + "\n" + "\n".join(old_rows) + "\n")
    read = read_records(path)
    assert [r["ldim"] for r in read if r["search"] == "ldim"] == [2, 3, 4, 5]
    assert all(r["vc"] is None and r["mistakes"] is None for r in read if r["kind"] == "search")  # not computed then
    assert [r["mistakes"] for r in read if r["kind"] == "game"] == [r["mistakes"] for r in records if r["kind"] == "game"]
    # a resume loads it, rewrites it in the current format, and runs nothing again
    f = ResultsFile(path)
    assert len(f.load()) == len(records) and f.upgraded
    assert path.read_text().splitlines()[0] == ",".join(FIELDS)
    again = sweep(GAMES, out=path, executor="inprocess")
    assert again.ran == 0 and len(read_records(path)) == len(records)


def test_the_summary_names_the_worst_cell_in_full(records):
    from mistakebound.interfaces.sweep.summary import learner_table

    text = format_summary(records)
    table = learner_table(records)
    assert any(len(row["at"] or "") > 22 for row in table)  # longer than the 22 characters it was cut to
    for row in table:
        line = next(line for line in text.splitlines() if line.startswith(row["learner"] + " "))
        assert row["at"] is None or f"  {row['at']}  " in line


def test_two_entries_of_one_family_get_a_figure_each():
    from mistakebound.interfaces.sweep.figures import sweep_figures

    pytest.importorskip("matplotlib")
    rows = sweep({"grid": [{"kind": "search", "search": "vc", "classes": ["random:{n},6,0.5,1", "random:{n},9,0.5,1"],
                            "sizes": [4, 8, 16]}]}, executor="inprocess").records
    figures = dict(sweep_figures(rows))
    assert sorted(figures) == ["random-n-6-0.5-1-dimension", "random-n-9-0.5-1-dimension"]
    assert figures["random-n-9-0.5-1-dimension"].axes[0].get_title().startswith("random:{n},9,0.5,1: VCdim")
