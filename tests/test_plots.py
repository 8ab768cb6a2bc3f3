"""Tests of the figures (mistakebound.interfaces.plots): curves, bound lines, tree layout, saving."""

from __future__ import annotations

import itertools
import math
import os

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.image as mimage  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from mistakebound import HypothesisClass, littlestone_dimension, play, shattered_tree
from mistakebound.game import classes  # noqa: E402
from mistakebound.adversaries import BinarySearchThreshold, ObliviousCoin, OppositeLabel  # noqa: E402
from mistakebound.learners import SOA, Consistent, Halving  # noqa: E402
from mistakebound.interfaces.plots import (  # noqa: E402
    PlotDependencyError,
    cumulative_curve,
    draw_strategy,
    draw_tree,
    plot_cumulative,
    save_figure,
)
from mistakebound.theory.worst_case import worst_case_mistakes  # noqa: E402
from mistakebound.foundations.errors import InvalidArgumentError  # noqa: E402
from mistakebound.verification.claims import Bound, stated_bound  # noqa: E402


def _is_hline(line: Line2D) -> bool:
    y = np.asarray(line.get_ydata(), dtype=float)
    x = np.asarray(line.get_xdata(), dtype=float)
    return len(x) == 2 and x.tolist() == [0.0, 1.0] and y[0] == y[1]


def bound_lines(ax) -> list[Line2D]:
    return [line for line in ax.get_lines() if _is_hline(line)]


def data_lines(ax) -> list[Line2D]:
    return [line for line in ax.get_lines() if not _is_hline(line)]


# ------------------------------------------------------------------------ cumulative
def test_cumulative_mistakes_and_regret_match_a_brute_force_count():
    H = classes.thresholds(7)
    T = play(Halving(H), ObliviousCoin(labels="coin"), H, rounds=40, seed=5, realizable=False)
    mistakes = cumulative_curve(T)
    regret = cumulative_curve(T, H=H, measure="regret")
    assert mistakes[0] == 0 and regret[0] == 0
    for t in range(1, len(T) + 1):
        prefix = T.rounds[:t]
        own = sum(r.prediction != r.y for r in prefix)  # deterministic: p = prediction
        best = min(sum(H.label(i, r.x) != r.y for r in prefix) for i in range(H.n_hypotheses))
        assert mistakes[t] == own
        assert regret[t] == own - best
    assert regret[-1] == pytest.approx(T.regret)


def test_regret_curve_needs_the_class():
    H = classes.thresholds(3)
    T = play(Halving(H), OppositeLabel(), H, rounds=5, seed=0)
    with pytest.raises(ValueError, match="H"):
        cumulative_curve(T, measure="regret")
    with pytest.raises(ValueError, match="measure"):
        cumulative_curve(T, measure="loss")


def test_plot_draws_each_curve_and_its_bound_in_the_same_colour():
    H = classes.thresholds(31)
    learners = (Consistent, Halving, SOA)
    transcripts = [play(L(H), BinarySearchThreshold(), H, rounds=40, seed=0) for L in learners]
    bounds = [stated_bound(L(H), H, rounds=40, transcript=T) for L, T in zip(learners, transcripts)]
    assert [b.value for b in bounds] == [31, 5.0, 5]  # |H| - 1, log2 |H|, Ldim
    title = "Cumulative mistakes on thresholds(31) against BinarySearchThreshold"
    fig = plot_cumulative(transcripts, bounds, title, labels=[L.__name__ for L in learners])
    ax = fig.axes[0]
    assert ax.get_title() == title
    assert ax.get_xlabel() == "round t" and ax.get_ylabel() == "cumulative mistakes"
    data = data_lines(ax)
    hlines = bound_lines(ax)
    assert len(data) == 3 and len(hlines) == 3
    for T, line in zip(transcripts, data):
        expected = np.concatenate([[0], np.cumsum([r.mistake for r in T.rounds])])
        assert np.array_equal(np.asarray(line.get_ydata()), expected)
    for line, bound, curve in zip(hlines, bounds, data):
        assert line.get_ydata()[0] == pytest.approx(bound.value)
        assert mcolors.same_color(line.get_color(), curve.get_color())
        assert line.get_linestyle() != "-"  # dashed
    lo, hi = ax.get_ylim()
    assert lo < 0 < max(b.value for b in bounds) < hi  # every bound is inside the view
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("Halving bound = 5" in t for t in texts)
    assert any("SOA: 5 mistakes" in t for t in texts)


def test_equal_bounds_are_interleaved_so_both_colours_show():
    H = classes.thresholds(15)  # Halving's log2 16 = 4 = SOA's Ldim
    transcripts = [play(L(H), OppositeLabel(), H, rounds=20, seed=0) for L in (Halving, SOA)]
    fig = plot_cumulative(transcripts, [4.0, 4], "t")
    a, b = bound_lines(fig.axes[0])
    pattern_a = getattr(a, "_unscaled_dash_pattern", None)  # matplotlib's own record of the dashes
    if pattern_a is None:
        pytest.skip("this matplotlib does not expose the dash pattern")
    (off_a, dashes_a), (off_b, dashes_b) = pattern_a, b._unscaled_dash_pattern
    assert dashes_a == dashes_b and off_a != off_b
    assert dashes_a[1] >= dashes_a[0]  # the gap leaves room for the other colour


def test_regret_plot_labels_and_randomized_learners():
    from mistakebound.learners.experts_from_class import ExpertsFromClass

    H = classes.thresholds(7)
    learner = ExpertsFromClass(H, 50)
    T = play(learner, ObliviousCoin(), H, rounds=50, seed=1, realizable=False)
    bound = stated_bound(learner, H, rounds=50, realizable=False, transcript=T)
    assert bound.measure == "regret" and bound.value == pytest.approx((2 * 50 * math.log(8)) ** 0.5)  # Cor. 21.12
    fig = plot_cumulative([T], [bound], "regret", H=H, measure="regret")
    ax = fig.axes[0]
    assert "regret" in ax.get_ylabel()
    (curve,) = data_lines(ax)
    assert curve.get_ydata()[-1] == pytest.approx(T.regret)
    (line,) = bound_lines(ax)
    assert line.get_ydata()[0] == pytest.approx(bound.value)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[0].endswith(f"regret {T.regret:.4g}")
    assert texts[1].endswith("bound = 14.42 for every t <= T")  # 4 significant digits; tuned to the horizon


def test_bounds_may_be_bounds_numbers_or_none_and_a_bound_without_a_number_draws_no_line():
    H = classes.thresholds(7)
    transcripts = [play(L(H), OppositeLabel(), H, rounds=10, seed=0) for L in (Consistent, Halving, SOA, Halving)]
    fig = plot_cumulative(transcripts, [Bound(7), 3.0, None, Bound.none("no theorem")], "t")
    lines = bound_lines(fig.axes[0])
    assert [line.get_ydata()[0] for line in lines] == [7, 3]
    fig = plot_cumulative(transcripts[:1], [Bound(math.inf)], "t")  # an infinite claim draws no line
    assert bound_lines(fig.axes[0]) == []


def test_a_bound_on_another_measure_is_refused():
    from mistakebound.learners.experts_from_class import ExpertsFromClass

    H = classes.thresholds(7)
    T = play(ExpertsFromClass(H, 20), ObliviousCoin(), H, rounds=20, seed=0, realizable=False)
    with pytest.raises(InvalidArgumentError, match=r"bounds\[0\]: a bound on regret .* on a curve of mistakes"):
        plot_cumulative([T], [Bound(3, "regret")], "t")
    with pytest.raises(InvalidArgumentError, match=r"bounds\[1\]: a bound on mistakes .* on a curve of regret"):
        plot_cumulative([T, T], [Bound(3, "regret"), Bound(3)], "t", H=H, measure="regret")
    # a claim on expected mistakes is drawn on the (expected) mistakes curve
    fig = plot_cumulative([T], [Bound(12, "expected mistakes")], "t")
    assert [line.get_ydata()[0] for line in bound_lines(fig.axes[0])] == [12]


def test_plot_refuses_mismatched_bounds():
    H = classes.thresholds(3)
    T = play(Halving(H), OppositeLabel(), H, rounds=5, seed=0)
    with pytest.raises(ValueError, match="bounds"):
        plot_cumulative([T], [], "t")
    with pytest.raises(ValueError, match="transcripts"):
        plot_cumulative([], [], "t")


# ------------------------------------------------------------------------------ trees
def overlapping_texts(fig) -> list[tuple[str, str]]:
    """Pairs of text boxes (with their frames) that overlap in the rendered figure."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = []
    for text in fig.axes[0].texts:
        patch = text.get_bbox_patch()
        extent = patch.get_window_extent(renderer) if patch is not None else text.get_window_extent(renderer)
        boxes.append((text.get_text(), extent))
    return [(a, b) for (a, ea), (b, eb) in itertools.combinations(boxes, 2) if ea.overlaps(eb)]


def text_heights_points(fig) -> list[float]:
    """The font size (points, at the figure's own size) of each text of a figure."""
    return [t.get_fontsize() for t in fig.axes[0].texts + fig.texts if t.get_text()]


def _text_of(value) -> str:
    return "(" + ",".join(map(str, value)) + ")" if isinstance(value, tuple) else str(value)


@pytest.mark.parametrize("spec", ["thresholds:31", "monotone_disjunctions:4", "intervals:6", "k_sparse:6,2", "parities:3"])
def test_tree_labels_every_drawn_node_and_nothing_overlaps(spec):
    H = classes.from_spec(spec)
    tree = shattered_tree(H)
    d = littlestone_dimension(H)
    fig = draw_tree(tree, H)
    layout = fig.tree_layout
    texts = [t.get_text() for t in fig.axes[0].texts]
    for node in layout.x:  # every internal node drawn shows its instance, every leaf its witness (or is a dot)
        if node in layout.elided:
            continue
        if tree.out_degree(node):
            assert _text_of(tree.nodes[node]["instance"]) in texts
        elif layout.leaf_labels:
            assert H.hypothesis_name(tree.nodes[node]["witness"]) in texts
    assert layout.levels <= d and layout.depth == d
    assert str(d) in fig.texts[0].get_text() and H.describe() in fig.texts[0].get_text()
    assert overlapping_texts(fig) == []
    assert min(text_heights_points(fig)) >= 6  # printed at its own width, 6.5 inches
    assert fig.get_size_inches()[0] == pytest.approx(6.5)


@pytest.mark.parametrize("d", [4, 6, 8, 10, 12])
def test_deep_trees_fit_a_page_and_count_what_they_cut(d):
    H = classes.thresholds(2 ** d - 1)
    fig = draw_tree(shattered_tree(H), H)
    width, height = fig.get_size_inches()
    assert width == pytest.approx(6.5) and height <= 4.5  # before: 120 x 11 inches at depth 10, refused beyond 8
    layout = fig.tree_layout
    assert layout.levels >= min(d, 5)  # at least the first five levels, whatever the depth
    leaves_drawn = sum(1 for n in layout.x if n not in layout.elided and layout.level[n] == d)
    assert sum(n for _, n in layout.elided.values()) + leaves_drawn == 2 ** d  # every leaf accounted for
    caption = fig.texts[-1].get_text()
    if layout.levels < d:
        assert f"Levels 0-{layout.levels} of {d} drawn" in caption and f"({2 ** d} leaves in all)" in caption
        assert len(layout.elided) == 2 ** layout.levels
    assert overlapping_texts(fig) == []
    assert min(text_heights_points(fig)) >= 6


def test_levels_draws_more_on_a_wider_figure_and_width_is_checked():
    H = classes.thresholds(255)
    tree = shattered_tree(H)
    fig = draw_tree(tree, H, levels=8)
    assert fig.tree_layout.levels == 8 and fig.tree_layout.elided == {}
    assert fig.get_size_inches()[0] > 6.5
    assert overlapping_texts(fig) == []
    assert draw_tree(tree, H, width=13).tree_layout.levels > draw_tree(tree, H).tree_layout.levels
    for bad in (0.5, float("nan"), "6"):
        with pytest.raises(InvalidArgumentError, match="width: expected a finite number >= 1"):
            draw_tree(tree, H, width=bad)
    with pytest.raises(InvalidArgumentError, match="levels: expected an int >= 0"):
        draw_tree(tree, H, levels=-1)


def test_tree_layout_centres_parents_and_orders_children_by_label():
    H = classes.thresholds(7)
    tree = shattered_tree(H)
    fig = draw_tree(tree, H)
    positions = {}
    for text in fig.axes[0].texts:
        if text.get_fontsize() == 7:  # nodes and leaves; the edge labels are a point smaller
            positions.setdefault(text.get_text(), []).append(text.get_position())
    for node in tree:
        if tree.out_degree(node) == 0:
            continue
        (px, py), = positions[str(tree.nodes[node]["instance"])]
        kids = sorted(tree.successors(node), key=lambda c: tree.edges[node, c]["label"])
        child_pos = []
        for c in kids:
            a = tree.nodes[c]
            key = str(a["instance"]) if tree.out_degree(c) else a["witness_name"]
            (cx, cy), = positions[key]
            child_pos.append((cx, cy))
            assert cy < py
        assert child_pos[0][0] < px < child_pos[1][0]  # label 0 on the left
        assert px == pytest.approx((child_pos[0][0] + child_pos[1][0]) / 2)


def test_a_class_of_ldim_zero_draws_a_single_leaf():
    H = HypothesisClass.from_matrix([[0, 1]])
    fig = draw_tree(shattered_tree(H), H)
    assert [t.get_text() for t in fig.axes[0].texts] == [H.hypothesis_name(0)]


@pytest.mark.parametrize("learner, spec", [(Consistent, "singletons:5,empty"), (Halving, "monotone_disjunctions:3")])
def test_strategy_drawing_shows_every_round_and_marks_mistakes(learner, spec):
    H = classes.from_spec(spec)
    W = worst_case_mistakes(learner(H), H)
    fig = draw_strategy(W.strategy, H, learner=learner.__name__)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    k = len(W.line)
    assert sum(t.startswith("round ") for t in texts) == k
    assert sum(": mistake" in t for t in texts) == W.value
    assert any(t.startswith(f"end: {W.value} mistake") for t in texts)
    assert learner.__name__ in ax.get_title() and H.describe() in ax.get_title()
    assert overlapping_texts(fig) == []


def test_a_long_worst_case_line_fits_the_page_width():
    H = classes.from_spec("singletons:12,empty")
    W = worst_case_mistakes(Consistent(H), H)
    fig = draw_strategy(W.strategy, H, learner="Consistent")
    width, height = fig.get_size_inches()
    assert width <= 6.5 and height <= 9  # before: 13.7 x 14 inches
    assert min(text_heights_points(fig)) >= 6
    assert overlapping_texts(fig) == []
    assert sum(t.get_text().startswith("round ") for t in fig.axes[0].texts) == 12


# ----------------------------------------------------------------------------- saving
@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_save_writes_atomically_with_normal_permissions(tmp_path, suffix):
    H = classes.thresholds(7)
    fig = draw_tree(shattered_tree(H), H)
    path = tmp_path / f"tree{suffix}"
    path.write_text("old")
    save_figure(fig, path)
    assert path.stat().st_size > 1000
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    if suffix == ".png":
        image = mimage.imread(path)
        height, width = image.shape[:2]
        assert 200 < height < 4000 and 400 < width < 8000


def test_save_refuses_unknown_suffixes_and_missing_directories(tmp_path):
    H = classes.thresholds(3)
    fig = draw_tree(shattered_tree(H), H)
    with pytest.raises(ValueError, match=r"\.png"):
        save_figure(fig, tmp_path / "tree.gif")
    with pytest.raises(ValueError, match="does not exist"):
        save_figure(fig, tmp_path / "missing" / "tree.png")


def test_a_failed_save_keeps_the_old_file(tmp_path):
    H = classes.thresholds(3)
    fig = draw_tree(shattered_tree(H), H)
    path = tmp_path / "tree.png"
    path.write_bytes(b"old")

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    fig.savefig = boom
    with pytest.raises(KeyboardInterrupt):
        save_figure(fig, path)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["tree.png"]


def test_missing_matplotlib_names_the_extra(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    H = classes.thresholds(3)
    with pytest.raises(PlotDependencyError, match=r"mistakebound\[plot\]"):
        draw_tree(shattered_tree(H), H)


# ------------------------------------------------- issue 16: a researcher's first figures
def _legend(ax) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


def _captured_plot(monkeypatch, capsys, *argv):
    """Run ``mistakebound plot ...`` and return (exit code, stdout, the figure it saved)."""
    import mistakebound.interfaces.plots as plots
    from mistakebound.interfaces.cli import main

    saved = []
    real = plots.save_figure
    monkeypatch.setattr(plots, "save_figure", lambda fig, path, **kw: (saved.append(fig), real(fig, path, **kw))[1])
    code = main(["plot", *argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err, (saved[0] if saved else None)


def test_equal_bounds_say_whose_bound_they_equal_and_coinciding_curves_say_so():
    H = classes.thresholds(15)  # Halving's log2 16 = 4 = SOA's Ldim, and both err once against OppositeLabel
    transcripts = [play(L(H), OppositeLabel(), H, rounds=20, seed=0) for L in (Halving, SOA, Consistent)]
    assert np.array_equal(cumulative_curve(transcripts[0]), cumulative_curve(transcripts[1]))
    fig = plot_cumulative(transcripts, [4.0, 4, 15], "t", labels=["Halving", "SOA", "Consistent"])
    ax = fig.axes[0]
    texts = _legend(ax)
    assert "Halving bound = 4" in texts and "SOA bound = 4 (= bound of Halving)" in texts
    assert "Consistent bound = 15" in texts  # a bound equal to no other says nothing more
    assert any(t.startswith("SOA: 1 mistake (same curve as Halving)") for t in texts)
    curves = data_lines(ax)
    assert len({line.get_marker() for line in curves}) == 3  # a marker each
    assert curves[0].get_linewidth() > curves[1].get_linewidth()  # the one below is thicker


def test_markers_of_coinciding_curves_sit_at_different_rounds():
    H = classes.singletons(40)
    transcripts = [play(Consistent(H), OppositeLabel(), H, rounds=40, seed=0) for _ in range(3)]
    fig = plot_cumulative(transcripts, [None] * 3, "t", labels=["a", "b", "c"])
    marks = [set(line.get_markevery()) - {len(transcripts[0])} for line in data_lines(fig.axes[0])]
    assert all(marks) and not (marks[0] & marks[1]) and not (marks[1] & marks[2])


def test_log_sets_logarithmic_axes_that_keep_zero(monkeypatch, capsys, tmp_path):
    H = classes.thresholds(7)
    T = play(Halving(H), OppositeLabel(), H, rounds=10, seed=0)
    fig = plot_cumulative([T], [1000.0], "t", log=True)
    ax = fig.axes[0]
    assert (ax.get_xscale(), ax.get_yscale()) == ("symlog", "symlog")
    assert ax.get_ylim()[0] <= 0 < 1000 < ax.get_ylim()[1]  # round 0, a count of 0 and the bound all shown
    assert plot_cumulative([T], [3.0], "t").axes[0].get_yscale() == "linear"
    code, _, fig = _captured_plot(monkeypatch, capsys, "thresholds:7", "--learners", "halving", "--adversary",
                                  "opposite-label", "--log", "--out", str(tmp_path / "p.png"))
    assert code == 0 and fig.axes[0].get_yscale() == "symlog"


def test_a_long_title_is_wrapped_inside_the_figure():
    H = classes.thresholds(7)
    T = play(Halving(H), OppositeLabel(), H, rounds=10, seed=0)
    title = "Cumulative mistakes on " + "a class with a long description, " * 4 + "(realizable, seed 0)"
    fig = plot_cumulative([T], [3.0], title)
    fig.canvas.draw()
    box = fig.axes[0].title.get_window_extent()
    assert box.x0 >= 0 and box.x1 <= fig.bbox.width  # nothing clipped
    assert fig.axes[0].get_title().replace("\n", " ") == title  # every word kept
    assert "\n(realizable, seed 0)" in fig.axes[0].get_title()  # a parenthesis moves whole to the next line
    assert fig.get_figwidth() == pytest.approx(6.5)  # printed at 100% on a paper's text width


def test_a_regret_bound_that_grows_with_t_is_drawn_as_a_curve(monkeypatch, capsys, tmp_path):
    from mistakebound.interfaces.plots import BoundCurve, claim_curve
    from mistakebound.learners import DoublingTrick

    H = classes.thresholds(7)
    learner = DoublingTrick.for_setting(H)
    T = play(learner, ObliviousCoin(), H, rounds=60, seed=1, realizable=False)
    curve = claim_curve(learner, H, rounds=60, realizable=False, transcript=T)
    assert isinstance(curve, BoundCurve) and curve.t == tuple(range(1, 61))
    for t, value in zip(curve.t, curve.value):  # each point is the learner's own claim for t rounds
        assert value == pytest.approx(stated_bound(learner, H, rounds=t, realizable=False).value)
    assert curve.value[-1] == stated_bound(learner, H, rounds=60, realizable=False, transcript=T).value
    assert len(set(curve.value)) > 5  # not flat
    # a claim that does not change with t stays one number, drawn flat
    assert claim_curve(Halving(H), H, rounds=60) == stated_bound(Halving(H), H, rounds=60)
    code, out, fig = _captured_plot(monkeypatch, capsys, "thresholds:7", "--learners", "doubling-trick,halving",
                                    "--adversary", "oblivious-coin", "--rounds", "60", "--unrealizable",
                                    "--out", str(tmp_path / "r.png"))
    assert code == 0, out
    (line,) = [ln for ln in fig.axes[0].get_lines() if ln.get_label().startswith("DoublingTrick bound(t)")]
    assert np.asarray(line.get_xdata()).tolist() == list(range(1, 61))
    assert np.asarray(line.get_ydata()) == pytest.approx(curve.value)


def test_a_learner_that_cannot_play_is_a_note_and_the_others_are_drawn(monkeypatch, capsys, tmp_path):
    # LittlestoneExperts refuses intervals(32) for 100 rounds (10^11 groups of experts)
    code, out, fig = _captured_plot(monkeypatch, capsys, "intervals:32", "--learners",
                                    "halving,soa,littlestone-experts", "--adversary", "opposite-label",
                                    "--out", str(tmp_path / "p.png"))
    assert code == 0, out
    assert [row.split()[0] for row in out.splitlines()[2:4]] == ["Halving", "SOA"]
    assert "LittlestoneExperts not drawn: LittlestoneExperts cannot play 100 rounds on intervals(32)" in out
    assert len(data_lines(fig.axes[0])) == 2
    assert "LittlestoneExperts not drawn" in fig._supxlabel.get_text()
    assert (tmp_path / "p.png").stat().st_size > 1000
    # when no learner can play, there is nothing to draw: the refusal is the error
    code, out, fig = _captured_plot(monkeypatch, capsys, "intervals:32", "--learners", "littlestone-experts",
                                    "--adversary", "opposite-label", "--out", str(tmp_path / "q.png"))
    assert code == 2 and fig is None and not (tmp_path / "q.png").exists()
    assert "error: LittlestoneExperts cannot play 100 rounds on intervals(32)" in out


def test_a_deterministic_curve_beside_a_randomized_one_counts_mistakes_and_log_markers_spread():
    from mistakebound.learners.experts_from_class import ExpertsFromClass

    H = classes.singletons(8)
    games = [play(Halving(H), OppositeLabel(), H, rounds=8, seed=0), play(ExpertsFromClass(H, 8), OppositeLabel(), H,
                                                                          rounds=8, seed=0)]
    texts = _legend(plot_cumulative(games, [None, None], "t", labels=["Halving", "EFC"]).axes[0])
    assert texts[0] == "Halving: 1 mistake" and texts[1].startswith("EFC: 0.875 expected mistakes")
    H = classes.singletons(500)
    T = play(Consistent(H), OppositeLabel(), H, rounds=500, seed=0)
    (line,) = data_lines(plot_cumulative([T], [None], "t", log=True).axes[0])
    marks = np.asarray(line.get_markevery(), dtype=float)
    assert len(marks) >= 10 and marks[len(marks) // 2] < 100  # half the markers in the first fifth: even on log t
