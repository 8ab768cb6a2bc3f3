"""Figures: cumulative mistakes (or regret) against the proven bounds, and game trees.

* :func:`plot_cumulative` draws, for one or several transcripts, the cumulative
  (expected) mistakes or the regret over the rounds, with each learner's proven bound
  as a dashed horizontal line of the same colour.
* :func:`draw_tree` draws a shattered tree (:func:`~mistakebound.shattered_tree`) to
  print at a paper's width: internal nodes labelled with their instances, edges with the
  labels 0 and 1, leaves with the names of their witness hypotheses; the layout is
  layered (:mod:`mistakebound.theory.tree_layout`), and a tree too deep for the page is
  cut, the subtrees below the cut counted.
* :func:`draw_strategy` draws the optimal line of a
  :func:`~mistakebound.theory.worst_case.worst_case_mistakes` search the same way, one node per
  round, the edges of forced mistakes in red.
* :func:`save_figure` writes a figure to ``.png``, ``.svg`` or ``.pdf`` atomically.

matplotlib is optional (``pip install 'mistakebound[plot]'``) and imported only when a
figure is made; without it these functions raise :class:`PlotDependencyError`.  The
figures are plain :class:`matplotlib.figure.Figure` objects on the Agg canvas, never
pyplot's global state, so making one does not open a window or change the backend.

Examples
--------
>>> from mistakebound import classes, play, shattered_tree
>>> from mistakebound.learners import Halving
>>> from mistakebound.adversaries import BinarySearchThreshold
>>> H = classes.thresholds(15)
>>> T = play(Halving(H), BinarySearchThreshold(), H, rounds=20, seed=0)
>>> fig = plot_cumulative([T], [4.0], "Halving on thresholds(15)")
>>> fig.axes[0].get_xlabel(), fig.axes[0].get_ylabel()
('round t', 'cumulative mistakes')
>>> fig = draw_tree(shattered_tree(H), H)  # 6.5 inches wide, 7 pt text
>>> fig.tree_layout.levels, fig.tree_layout.elided  # all 4 levels drawn, nothing cut
(4, {})
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.foundations.files import write_atomically
from mistakebound.foundations.text import number_text
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.oco import OCOTranscript
from mistakebound.game.spaces import ExpertAdvice
from mistakebound.theory.tree_layout import children, fit_layout, instance_text, leaf_text
from mistakebound.verification.claims import Bound

__all__ = [
    "PlotDependencyError",
    "plot_cumulative",
    "draw_tree",
    "draw_strategy",
    "save_figure",
    "write_atomically",
    "cumulative_curve",
    "FIGURE_FORMATS",
]

#: The file suffixes :func:`save_figure` writes.
FIGURE_FORMATS = (".png", ".svg", ".pdf")

_FONT = 9  # points, for node and edge text


class PlotDependencyError(MistakeboundError, ImportError):
    """matplotlib, needed for figures, is not installed (``pip install 'mistakebound[plot]'``)."""


def _matplotlib():
    """The Figure class and the Agg canvas, imported on first use."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise PlotDependencyError(
            "figures need matplotlib, which is not installed; install the plot extra: "
            "pip install 'mistakebound[plot]'"
        ) from exc
    return Figure, FigureCanvasAgg


def _figure(width: float, height: float):
    Figure, Canvas = _matplotlib()
    fig = Figure(figsize=(width, height), layout="constrained")
    Canvas(fig)
    return fig


# ------------------------------------------------------------------------ cumulative
def cumulative_curve(transcript: Any, *, H: Any = None, measure: str = "mistakes") -> np.ndarray:
    """The curve of a transcript over rounds ``0, 1, ..., n`` (value 0 before round 1).

    Parameters
    ----------
    transcript : Transcript or OCOTranscript
    H : HypothesisClass or ExpertAdvice, optional
        The class (or the expert advice) of the game; needed for ``measure="regret"``.
    measure : {"mistakes", "regret"}
        ``"mistakes"``: cumulative expected mistakes ``sum_{s <= t} |p_s - y_s|`` (the
        mistakes themselves for a deterministic learner).  ``"regret"``: that minus the
        mistakes, over the first ``t`` rounds, of the best hypothesis of ``H`` (or the
        best expert) on those rounds; for an online convex optimisation game, the regret
        against the best fixed point of the first ``t`` rounds.

    Examples
    --------
    >>> from mistakebound import HypothesisClass
    >>> from mistakebound.game.transcript import Round, Transcript
    >>> H = HypothesisClass.from_matrix([[0], [1]])
    >>> T = Transcript(rounds=[Round(1, 0, 1.0, 1, 0), Round(2, 0, 0.0, 0, 1), Round(3, 0, 0.5, 1, 1)])
    >>> cumulative_curve(T).tolist()
    [0.0, 1.0, 2.0, 2.5]
    >>> cumulative_curve(T, H=H, measure="regret").tolist()  # best constant: 0, 1, 1, 1 mistakes
    [0.0, 1.0, 1.0, 1.5]
    """
    if measure not in ("mistakes", "regret"):
        raise InvalidArgumentError(f"measure: expected 'mistakes' or 'regret', got {measure!r}")
    if isinstance(transcript, OCOTranscript):
        if measure != "regret":
            raise InvalidArgumentError("measure: an online convex optimisation game has a regret curve, not mistakes")
        return np.array([0.0] + [
            OCOTranscript(rounds=transcript.rounds[:t], d=transcript.d, radius=transcript.radius).best_fixed_regret()
            for t in range(1, len(transcript) + 1)
        ])
    rounds = transcript.rounds
    losses = np.array([abs(r.p - r.y) for r in rounds], dtype=float)
    curve = np.concatenate([[0.0], np.cumsum(losses)])
    if measure == "mistakes":
        return curve
    return curve - _best_in_hindsight(rounds, H)


def _best_in_hindsight(rounds: Sequence[Any], H: Any) -> np.ndarray:
    """The best hypothesis's (or expert's) loss over the first ``t`` rounds, ``t = 0, 1, ...``."""
    if isinstance(H, ExpertAdvice):
        losses = np.zeros(H.d)
        best = [0.0]
        for r in rounds:
            losses += np.abs(np.asarray(r.x, dtype=float) - r.y)
            best.append(float(losses.min()))
        return np.asarray(best)
    if not isinstance(H, HypothesisClass):
        raise InvalidArgumentError(
            f"H: the regret curve needs the finite class or the expert advice of the game, got "
            f"{H.describe() if hasattr(H, 'describe') else H!r}"
        )
    M = H.matrix
    wrong = np.zeros(M.shape[0], dtype=np.int64)
    best = [0]
    for r in rounds:
        column = M[:, H.index_of(r.x)]
        wrong += column != r.y
        best.append(int(wrong.min()))
    return np.asarray(best, dtype=float)


def _line_height(bound: Any) -> float | None:
    """Where a claim's dashed line goes: its value (a Bound's, or a number), None for none or inf."""
    value = bound.value if isinstance(bound, Bound) else bound
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _label(value: float) -> str:
    return number_text(value, digits=4)


def plot_cumulative(
    transcripts: Sequence[Any],
    bounds: Sequence[Any],
    title: str,
    *,
    H: Any = None,
    measure: str = "mistakes",
    labels: Sequence[str] | None = None,
):
    """Cumulative mistakes (or regret) over the rounds, one curve per transcript.

    Parameters
    ----------
    transcripts : sequence of Transcript
        One game per learner (usually against the same adversary, on the same class).
    bounds : sequence
        For each transcript the learner's claim: a
        :class:`~mistakebound.verification.claims.Bound`, a number or None (no line).  Each is drawn as a
        dashed horizontal line in the colour of its curve; bounds of equal value are
        drawn with interleaved dashes so every colour stays visible.
    title : str
        The figure's title (name the class and the adversary).
    H : HypothesisClass, optional
        The class; needed for ``measure="regret"``.
    measure : {"mistakes", "regret"}
        See :func:`cumulative_curve`.
    labels : sequence of str, optional
        Legend names; default the transcripts' learner descriptions.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    InvalidArgumentError
        When ``bounds`` (or ``labels``) and ``transcripts`` differ in length, for a
        bad ``measure``, or for a :class:`~mistakebound.verification.claims.Bound` on
        regret beside a mistakes curve (or on mistakes beside a regret curve).
    PlotDependencyError
        Without matplotlib.
    """
    transcripts = list(transcripts)
    bounds = list(bounds)
    if not transcripts:
        raise InvalidArgumentError("transcripts: expected at least one transcript, got none")
    if len(bounds) != len(transcripts):
        raise InvalidArgumentError(
            f"bounds: expected one per transcript ({len(transcripts)}), got {len(bounds)}"
        )
    for i, b in enumerate(bounds):  # a claim is drawn only beside the curve of what it bounds
        if isinstance(b, Bound) and b.stated and (b.measure == "regret") != (measure == "regret"):
            raise InvalidArgumentError(
                f"bounds[{i}]: a bound on {b.measure} cannot be drawn on a curve of {measure}; "
                "pass None, or plot the measure it bounds"
            )
    names = list(labels) if labels is not None else [t.learner or f"learner {i + 1}" for i, t in enumerate(transcripts)]
    if len(names) != len(transcripts):
        raise InvalidArgumentError(f"labels: expected one per transcript ({len(transcripts)}), got {len(names)}")
    curves = [cumulative_curve(t, H=H, measure=measure) for t in transcripts]
    randomized = any(not float(r.p).is_integer() for t in transcripts if not isinstance(t, OCOTranscript) for r in t.rounds)

    fig = _figure(8.0, 5.0)
    ax = fig.add_subplot()
    colors = [f"C{i % 10}" for i in range(len(transcripts))]
    n = len(transcripts)
    markers = "osD^vP*X"
    longest = max(len(c) - 1 for c in curves)
    for i, (curve, name, color) in enumerate(zip(curves, names, colors)):
        total = _label(curve[-1])
        if measure == "regret":
            summary = f"regret {total}"
        elif randomized:
            summary = f"{total} expected mistakes"
        else:
            summary = f"{total} mistake{'' if curve[-1] == 1 else 's'}"
        # earlier curves drawn thicker and below, so curves that coincide stay visible
        thick = 1.4 + 2.2 * (n - 1 - i) / max(n - 1, 1) if n > 1 else 2.0
        ax.plot(
            np.arange(len(curve)), curve, color=color, linewidth=thick, zorder=2 + i,
            marker=markers[i % len(markers)] if longest <= 80 else None,
            markersize=3.5 + 2.5 * (n - 1 - i) / max(n - 1, 1) if n > 1 else 4.5,
            label=f"{name}: {summary}",
        )
    values = [_line_height(b) for b in bounds]
    groups: dict[float, list[int]] = {}
    for i, v in enumerate(values):
        if v is not None:
            groups.setdefault(v, []).append(i)
    dash = 7.0
    for v, members in groups.items():
        k = len(members)
        for j, i in enumerate(members):
            style = (0, (dash, 0.6 * dash)) if k == 1 else (j * dash, (dash, dash * (k - 1)))
            ax.axhline(
                v, color=colors[i], linestyle=style, linewidth=1.6, zorder=1,
                label=f"{names[i]} bound = {_label(v)}",
            )
    ax.set_xlabel("round t")
    if measure == "regret":
        ax.set_ylabel("regret (expected mistakes minus best hypothesis)")
    else:
        ax.set_ylabel("cumulative expected mistakes" if randomized else "cumulative mistakes")
    ax.set_title(title)
    ax.set_xlim(0, max(longest, 1) * 1.02)
    top = max([float(np.max(c)) for c in curves] + [v for v in values if v is not None] + [1.0])
    bottom = min([float(np.min(c)) for c in curves] + [0.0])
    ax.set_ylim(bottom - 0.04 * (top - bottom), top + 0.08 * (top - bottom))
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if not randomized and measure == "mistakes":
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize=_FONT, framealpha=0.9)
    return fig


# ------------------------------------------------------------------------------ trees
#: The width a tree is drawn to by default: a paper's text column, in inches.
PAGE_WIDTH = 6.5
#: The size of a tree's text at that width, in points (a paper prints nothing below ~6).
TREE_FONT = 7.0


def _node_box(color: str, pad: float = 0.3) -> dict:
    return dict(boxstyle=f"round,pad={pad}", facecolor=color, edgecolor="0.35", linewidth=0.8)


def _tree_texts(tree, H: Any) -> tuple[dict, dict]:
    """The text of each internal node (its instance) and of each leaf (its witness)."""
    node_text = {n: instance_text(tree.nodes[n].get("instance")) for n in tree if tree.out_degree(n)}
    leaves = {n: leaf_text(tree, n, H) for n in tree if not tree.out_degree(n)}
    return node_text, leaves


def _wrap(text: str, width: float, fontsize: float) -> str:
    import textwrap

    return textwrap.fill(text, max(int(width / (0.55 * fontsize / 72)), 20))


def _check_size(name: str, value: Any, least: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < least:
        raise InvalidArgumentError(f"{name}: expected a number >= {least:g}, got {value!r}")
    return float(value)


def draw_tree(tree, H: Any = None, *, title: str | None = None, levels: int | None = None,
              width: float = PAGE_WIDTH, fontsize: float = TREE_FONT):
    """Draw a shattered tree to print at ``width`` inches: instances at the nodes, witnesses at the leaves.

    The layout is layered (:func:`~mistakebound.theory.tree_layout.fit_layout`): the
    child along label 0 on the left, each parent centred over its children.  A tree too
    deep for ``width`` is cut: the levels that fit are drawn, and each subtree below the
    cut is one grey triangle, its depth and leaves counted in the caption (or under it,
    when the subtrees differ).  When the whole tree fits only without its leaves' names,
    the leaves are dots.  Edges wide enough carry their label; the caption says that
    left is 0 and right is 1 for all of them.

    Parameters
    ----------
    tree : networkx.DiGraph
        A tree in the layout of :func:`~mistakebound.shattered_tree`: internal nodes
        carry ``instance``, edges ``label``, leaves ``witness`` / ``witness_name``.
    H : HypothesisClass, optional
        The class, used for the title and to name witnesses without ``witness_name``.
    title : str, optional
        Default: "Shattered tree of <class>: depth <d> = Ldim" when ``H`` is given.
    levels : int, optional
        Draw this many levels below the root, however wide that makes the figure;
        default: as many as fit ``width`` at ``fontsize``.
    width : float
        The figure's width in inches (default 6.5, a paper's text width); wider only
        when ``levels`` asks for more than fits.
    fontsize : float
        Points, at ``width`` inches (default 7; titles one point larger).

    Returns
    -------
    matplotlib.figure.Figure
        Its attribute ``tree_layout`` is the
        :class:`~mistakebound.theory.tree_layout.TreeLayout` drawn (the levels shown, the
        subtrees cut).

    Raises
    ------
    InvalidArgumentError
        For a graph that is not a tree, or a bad ``levels``, ``width`` or ``fontsize``.
    PlotDependencyError
        Without matplotlib.

    Examples
    --------
    >>> from mistakebound import classes, shattered_tree
    >>> H = classes.thresholds(4095)  # Ldim 12: 4096 leaves
    >>> fig = draw_tree(shattered_tree(H), H)
    >>> width, height = fig.get_size_inches()  # inches: a paper's text width, however deep
    >>> float(width), bool(height < 4)
    (6.5, True)
    >>> fig.texts[-1].get_text().splitlines()[1]
    'Levels 0-5 of 12 drawn: each triangle is a subtree of depth 7 with 128 leaves (4096 leaves in all).'
    """
    width = _check_size("width", width, 1.0)
    fontsize = _check_size("fontsize", fontsize, 1.0)
    node_text, leaf_names = _tree_texts(tree, H)
    char = 0.62 * fontsize / 72  # inches: one character, roughly
    line = 1.1 * fontsize / 72  # one line of text
    pad = 0.4 * fontsize / 72  # a label's frame, both sides together
    margin = 0.12
    layout = fit_layout(tree, width=width - 2 * margin, levels=levels, line=line + pad, gap=0.03,
                        width_of=lambda n: len(node_text[n]) * char + pad)
    pitch = max(layout.pitch, (width - 2 * margin) / layout.slots)  # the room there is, shared out
    W = max(width, layout.slots * pitch + 2 * margin)
    left = (W - layout.slots * pitch) / 2
    drawn_leaves = [n for n in layout.x if n in leaf_names]
    longest_leaf = max((len(leaf_names[n]) for n in drawn_leaves), default=0)
    across = longest_leaf * char + pad + 0.03 <= pitch  # leaf names written across, else upwards
    # the text under the tree
    if title is None and H is not None:
        title = f"Shattered tree of {H.describe()}: depth {tree.graph.get('depth', layout.depth)} = Ldim"
    sizes = set(layout.elided.values())
    notes = ["Nodes: the instance asked; left edge: label 0, right edge: label 1"
             + ("; leaves: a witness hypothesis." if layout.leaf_labels and drawn_leaves else ".")]
    if layout.elided:
        (d, n), = sizes if len(sizes) == 1 else [(None, None)]
        each = (f"each triangle is a subtree of depth {d} with {n} leaves" if d is not None else
                "each triangle is a subtree, its leaves counted under it")
        notes.append(f"Levels 0-{layout.levels} of {layout.depth} drawn: {each} ({layout.leaves} leaves in all).")
    if not layout.leaf_labels:
        notes.append(f"The {layout.leaves} leaves are dots: their witnesses do not fit (the JSON export names them).")
    caption = "\n".join(_wrap(n, W - 2 * margin, fontsize) for n in notes)
    title = _wrap(title, W - 2 * margin, fontsize + 1) if title else ""
    # heights, in inches, top down
    title_h = (title.count("\n") + 1) * 1.3 * (fontsize + 1) / 72 + 0.1 if title else 0.0
    level_h = max(0.42, 2.4 * line + pad)
    if layout.leaf_labels and drawn_leaves and not across:
        below = longest_leaf * char + pad
    else:
        below = line
    if layout.elided:
        below = max(below, 0.3 + (line + max(len(str(n)) for _, n in layout.elided.values()) * char
                                   if len(sizes) > 1 else 0.3))
    caption_h = (caption.count("\n") + 1) * 1.3 * fontsize / 72 + 0.04
    Ht = margin + title_h + line + layout.levels * level_h + below + caption_h + margin

    def X(node) -> float:
        return left + (layout.x[node] + 0.5) * pitch

    def Y(node) -> float:
        return Ht - margin - title_h - line / 2 - 0.05 - layout.level[node] * level_h

    Figure, Canvas = _matplotlib()
    fig = Figure(figsize=(W, Ht))
    Canvas(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(0, W)
    ax.set_ylim(0, Ht)
    small = max(fontsize - 1, 1)
    for node in layout.x:
        if node in layout.elided or node in leaf_names:
            continue
        for child in children(tree, node):
            x0, y0, x1, y1 = X(node), Y(node), X(child), Y(child)
            ax.plot([x0, x1], [y0, y1], color="0.45", linewidth=0.7, zorder=1)
            label = tree.edges[node, child].get("label")
            if label is not None and abs(x1 - x0) >= 3 * line:  # room for the label's circle
                ax.text((x0 + x1) / 2, (y0 + y1) / 2, str(label), fontsize=small, ha="center", va="center",
                        color="0.1", zorder=3,
                        bbox=dict(boxstyle="circle,pad=0.12", facecolor="white", edgecolor="0.6", linewidth=0.5))
    for node, text in node_text.items():
        if node in layout.x and node not in layout.elided:
            ax.text(X(node), Y(node), text, fontsize=fontsize, ha="center", va="center", zorder=4,
                    bbox=_node_box("#dbe8f6", 0.2))
    for node in drawn_leaves:
        x, y = X(node), Y(node)
        if not layout.leaf_labels:
            ax.plot([x], [y], marker="o", markersize=2.5, color="#4f8a3c", zorder=4)
        elif across:
            ax.text(x, y, leaf_names[node], fontsize=fontsize, ha="center", va="center", zorder=4,
                    bbox=_node_box("#e3f2dc", 0.2))
        else:
            ax.text(x, y + line / 2, leaf_names[node], fontsize=fontsize, ha="center", va="top", rotation=90,
                    zorder=4, bbox=_node_box("#e3f2dc", 0.2))
    from matplotlib.patches import Polygon

    half = min(0.4 * pitch, 0.15)
    for node, (d, n) in layout.elided.items():
        x, y = X(node), Y(node)
        ax.add_patch(Polygon([(x, y + 0.03), (x - half, y - 0.27), (x + half, y - 0.27)], closed=True,
                             facecolor="0.85", edgecolor="0.4", linewidth=0.6, zorder=2))
        if len(sizes) > 1:
            ax.text(x, y - 0.3, str(n), fontsize=small, ha="center", va="top", rotation=90, zorder=4)
    if title:
        fig.text(0.5, 1 - margin / Ht, title, fontsize=fontsize + 1, ha="center", va="top")
    fig.text(margin / W, margin / Ht, caption, fontsize=fontsize, ha="left", va="bottom", color="0.2")
    fig.tree_layout = layout
    return fig


def draw_strategy(strategy, H: Any = None, *, learner: str | None = None, title: str | None = None,
                  width: float = PAGE_WIDTH, fontsize: float = TREE_FONT):
    """Draw the optimal adversary line of a worst-case search, one node per round.

    Parameters
    ----------
    strategy : networkx.DiGraph
        ``WorstCase.strategy``: nodes ``0 .. k``, node ``t`` carrying the ``instance``
        of round ``t + 1``, the learner's ``prediction`` (probability of 1), the
        ``label`` answered and the ``gain`` (mistake).
    H : HypothesisClass, optional
        The class: the last node lists the hypotheses consistent with the whole line.
    learner : str, optional
        The learner's name, for the default title.
    title : str, optional
    width : float
        The widest the figure gets, in inches (default 6.5, a paper's text width): the
        steps left and right shrink to fit it.
    fontsize : float
        Points (default 7; the title one point larger, the edges one smaller).

    Returns
    -------
    matplotlib.figure.Figure
        The line goes down one level per round, to the left on label 0 and to the
        right on label 1 (as in a shattered tree); edges of mistakes are red.
    """
    width = _check_size("width", width, 1.0)
    fontsize = _check_size("fontsize", fontsize, 1.0)
    char = 0.62 * fontsize / 72
    k = strategy.number_of_nodes() - 1
    xs = [0.0]
    for t in range(k):
        xs.append(xs[-1] + (1.0 if strategy.nodes[t]["label"] == 1 else -1.0))
    texts = []
    total = 0.0
    for t in range(k):
        a = strategy.nodes[t]
        p = float(a.get("prediction", 0))
        predicted = _label(p) if p in (0.0, 1.0) else f"1 w.p. {p:.2f}"
        texts.append(f"round {t + 1}: x = {instance_text(a['instance'])}\nlearner predicts {predicted}")
        total += float(a.get("gain", 0))
    end = f"end: {_label(total)} mistake{'s' if total != 1 else ''}"
    if H is not None and hasattr(H, "column_masks"):
        mask = H.full_mask
        for t in range(k):
            a = strategy.nodes[t]
            ones = mask & H.column_masks[H.index_of(a["instance"])]
            mask = ones if a["label"] == 1 else mask ^ ones
        names = [H.hypothesis_name(i) for i in range(H.n_hypotheses) if mask >> i & 1]
        shown = ", ".join(names[:3]) + (f", ... ({len(names)} in all)" if len(names) > 3 else "")
        end += f"\nconsistent: {shown}"
    texts.append(end)
    if title is None:
        value = float(strategy.graph.get("value", total))
        who = f" of {learner}" if learner else ""
        where = f" on {H.describe()}" if H is not None else ""
        title = f"Worst case{who}{where}:\nthe adversary's optimal line forces {_label(value)} mistakes"
    longest = max(len(line) for t in texts for line in t.splitlines())
    box = longest * char + 0.2  # inches
    span = max(xs) - min(xs)
    # one step left or right; consecutive rounds sit on different levels, so any step keeps them apart
    unit = min(0.55 * box, (width - box - 0.6) / span) if span else 0.55 * box
    unit = max(unit, 0.05)
    title = "\n".join(_wrap(line, width - 0.4, fontsize + 1) for line in title.splitlines())
    title_width = max(len(line) for line in title.splitlines()) * (fontsize + 1) / fontsize * char
    fig_width = max(span * unit + box + 0.6, title_width + 0.4, 3.0)
    level = 4.6 * fontsize / 72  # two lines of a node, an edge's label between
    height = max(2.0, level * (k + 1) + 0.25 * (title.count("\n") + 1) + 0.4)
    fig = _figure(fig_width, height)
    ax = fig.add_subplot()
    ax.set_axis_off()
    for t in range(k):
        a = strategy.nodes[t]
        gain = float(a.get("gain", 0))
        color = "#c0392b" if gain > 0 else "0.5"
        ax.plot([xs[t], xs[t + 1]], [-t, -t - 1], color=color, linewidth=2.2 if gain > 0 else 1.2, zorder=1)
        word = "mistake" if gain >= 1 else ("no mistake" if gain == 0 else f"expected {gain:.2f}")
        ax.text(
            (xs[t] + xs[t + 1]) / 2, -t - 0.5, f"y = {a['label']}: {word}", fontsize=max(fontsize - 1, 1),
            ha="center", va="center", color=color, zorder=3,
            bbox=dict(boxstyle="round,pad=0.2", facecolor="white", edgecolor=color, linewidth=0.6),
        )
    for t, text in enumerate(texts):
        ax.text(
            xs[t], -t, text, fontsize=fontsize, ha="center", va="center", zorder=4,
            bbox=_node_box("#e3f2dc" if t == k else "#dbe8f6"),
        )
    margin = (box / 2 + 0.15) / unit
    ax.set_xlim(min(xs) - margin, max(xs) + margin)
    ax.set_ylim(-k - 0.6, 0.6)
    ax.set_title(title, fontsize=fontsize + 1)
    return fig


# ----------------------------------------------------------------------------- saving
def save_figure(fig, path: str | os.PathLike, *, dpi: int = 130) -> Path:
    """Write ``fig`` to ``path`` (``.png``, ``.svg`` or ``.pdf``) atomically and return the path.

    The figure is rendered to a temporary file in the same directory, then moved over
    ``path`` in one step (see :func:`write_atomically`).

    Raises
    ------
    InvalidArgumentError
        For an unsupported suffix or a directory that does not exist.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FIGURE_FORMATS:
        raise InvalidArgumentError(
            f"out: expected a file name ending in {', '.join(FIGURE_FORMATS)}, got {str(path)!r}"
        )
    return write_atomically(path, lambda tmp: fig.savefig(tmp, format=suffix[1:], dpi=dpi))
