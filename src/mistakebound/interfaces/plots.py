"""Figures: cumulative mistakes (or regret) against the proven bounds, and game trees.

* :func:`plot_cumulative` draws, for one or several transcripts, the cumulative
  (expected) mistakes or the regret over the rounds, with each learner's claimed bound
  dashed in the same colour: a horizontal line, or a curve in ``t`` when the claim grows
  with the rounds (:func:`claim_curve`).  Equal bounds and coinciding curves stay
  distinguishable, the legend sits under the axes, ``log=True`` gives logarithmic axes,
  and ``notes`` (a learner that could not play) are printed under the figure.
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
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.foundations.files import write_atomically
from mistakebound.foundations.memory import require_memory
from mistakebound.foundations.text import number_text
from mistakebound.foundations.validation import check_int, check_real
from mistakebound.game.transcript import instance_text
from mistakebound.theory.tree_layout import fit_layout
from mistakebound.theory.tree_walk import children, node_texts
from mistakebound.verification.claims import Bound, stated_bound

__all__ = [
    "PlotDependencyError",
    "plot_cumulative",
    "draw_tree",
    "draw_strategy",
    "save_figure",
    "bare",
    "DPI",
    "write_atomically",
    "cumulative_curve",
    "claim_curve",
    "BoundCurve",
    "FIGURE_FORMATS",
    "PAPER_WIDTH",
]

#: The file suffixes :func:`save_figure` writes.
FIGURE_FORMATS = (".png", ".svg", ".pdf")
#: Bytes a raster figure takes per pixel while it is written: Agg's RGBA buffer (4) and the PNG
#: writer's rows (measured about 4.2 in all, tests/test_memory_estimates.py).
RASTER_BYTES_PER_PIXEL = 5
#: The most pixels a side of a raster figure may have (Agg's limit, 2**23).
MAX_RASTER_SIDE = 2**23

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
    return transcript.cumulative_curve(measure, H)


@frozen
class BoundCurve:
    """A learner's claim as a function of the rounds: ``value[i]`` bounds the game's first ``t[i]`` rounds.

    Made by :func:`claim_curve`; :func:`plot_cumulative` draws it as a dashed curve.

    Attributes
    ----------
    t : tuple of int
        Rounds, increasing.
    value : tuple of float
        The claim for a game of ``t[i]`` rounds.
    claim : Bound
        The claim for the whole game (the one judged), whose value is ``value[-1]``.
    """

    t: tuple = field(converter=lambda ts: tuple(int(t) for t in ts))
    value: tuple = field(converter=lambda vs: tuple(float(v) for v in vs))
    claim: Bound = field(factory=lambda: Bound(None))

    def __attrs_post_init__(self) -> None:
        if len(self.t) != len(self.value) or not self.t:
            raise InvalidArgumentError(f"value: expected one value per round t ({len(self.t)}), got {len(self.value)}")


def _sample_rounds(n: int, points: int) -> list[int]:
    """The rounds a claim is asked about: every ``t`` up to ``points``, else ``points`` spread linearly and geometrically."""
    if n <= points:
        return list(range(1, n + 1))
    spread = np.concatenate([np.linspace(1, n, points // 2), np.geomspace(1, n, points - points // 2)])
    return sorted({int(round(t)) for t in spread} | {n})


def claim_curve(
    learner: Any, setting: Any, *, rounds: int | None = None, realizable: bool = True, transcript: Any = None,
    points: int = 150,
) -> BoundCurve | Bound:
    """The learner's claim for the first ``t`` rounds, ``t = 1 .. T``: its bound as a function of ``t``.

    Each value is the learner's own claim for a game of ``t`` rounds, asked through
    :func:`~mistakebound.verification.claims.stated_bound` (the one lookup of a claim);
    the last is the claim for the whole game, read with its transcript (the one judged).
    A claim that does not change with ``t`` (a mistake bound, or a learner tuned to the
    horizon ``T``, whose claim holds for every game of at most ``T`` rounds), or that needs
    the finished game to be stated, is returned as that one :class:`Bound`, drawn flat.

    Parameters
    ----------
    learner
        The learner that played (its claim may depend on its parameters).
    setting : HypothesisClass or Space
    rounds : int, optional
        The horizon the game was played with.
    realizable : bool
    transcript : Transcript, optional
        The finished game; ``T`` is its length (else ``rounds``).
    points : int
        At most about this many rounds are asked (every ``t`` for short games).

    Returns
    -------
    BoundCurve or Bound

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Halving, DoublingTrick
    >>> H = classes.thresholds(7)
    >>> claim_curve(Halving(H), H, rounds=20).value  # log2 |H|: the same for every t
    3.0
    >>> c = claim_curve(DoublingTrick.for_setting(H), H, rounds=20, realizable=False)
    >>> c.t[:3], [round(v, 2) for v in c.value[:3]], c.claim.measure  # sqrt(2)/(sqrt(2)-1) sqrt(2 ln 8) sqrt(t)
    ((1, 2, 3), [6.96, 9.85, 12.06], 'regret')
    """
    claim = stated_bound(learner, setting, rounds=rounds, realizable=realizable, transcript=transcript)
    n = len(transcript) if transcript is not None else rounds
    if not claim.stated or not n or not math.isfinite(claim.value):
        return claim
    ts = _sample_rounds(int(n), check_int("points", points, 2))
    values = []
    for t in ts[:-1]:
        c = stated_bound(learner, setting, rounds=t, realizable=realizable)
        if not c.stated or c.measure != claim.measure or not math.isfinite(c.value):
            return claim  # the claim needs the finished game: only its value at T is known
        values.append(float(c.value))
    alone = stated_bound(learner, setting, rounds=int(n), realizable=realizable)
    if not alone.stated or alone.value != claim.value or all(v == claim.value for v in values):
        return claim  # flat, or read off the transcript (so its earlier values are not comparable)
    return BoundCurve(ts, values + [float(claim.value)], claim)


def _line_height(bound: Any) -> float | None:
    """Where a flat claim's dashed line goes: its value (a Bound's, or a number), None for none or inf."""
    value = bound.value if isinstance(bound, Bound) else bound
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _label(value: float) -> str:
    return number_text(value, digits=4)


def _measure_of(bound: Any) -> str | None:
    claim = bound.claim if isinstance(bound, BoundCurve) else bound
    return claim.measure if isinstance(claim, Bound) and claim.stated else None


def _bound_shape(bound: Any) -> tuple | None:
    """``("flat", v)``, ``("curve", ts, values)`` or None (nothing to draw): the key equal bounds share."""
    if isinstance(bound, BoundCurve):
        return ("curve", bound.t, bound.value)
    v = _line_height(bound)
    return None if v is None else ("flat", v)


#: Figure width in inches: a full text width of a paper (``6.5in``), so the figure prints at 100%.
PAPER_WIDTH = 6.5
_MARKERS = "osD^vP*Xh<>p"


def _wrap(text: str, width_inches: float, fontsize: float) -> str:
    """``text`` wrapped to lines that fit ``width_inches`` at ``fontsize`` points."""
    per_line = max(20, int(width_inches * 72 / (0.52 * fontsize)))
    lines = []
    for part in text.split("\n"):
        head, paren, tail = part.partition(" (")  # a parenthesis that does not fit goes whole to the next line
        if len(part) > per_line and paren and len(head) <= per_line:
            lines += [head, *textwrap.wrap("(" + tail, per_line)]
        else:
            lines += textwrap.wrap(part, per_line) or [""]
    return "\n".join(lines)


def plot_cumulative(
    transcripts: Sequence[Any],
    bounds: Sequence[Any],
    title: str,
    *,
    H: Any = None,
    measure: str = "mistakes",
    labels: Sequence[str] | None = None,
    log: bool = False,
    notes: Sequence[str] = (),
):
    """Cumulative mistakes (or regret) over the rounds, one curve per transcript.

    Parameters
    ----------
    transcripts : sequence of Transcript
        One game per learner (usually against the same adversary, on the same class).
    bounds : sequence
        For each transcript the learner's claim: a
        :class:`~mistakebound.verification.claims.Bound` or a number (a dashed
        horizontal line in the colour of its curve), a :class:`BoundCurve` (the claim as
        a function of ``t``, from :func:`claim_curve`: a dashed curve), or None (no
        line).  Equal bounds are drawn with interleaved dashes, so every colour stays
        visible, and the legend says ``(= bound of X)``; curves that coincide get their
        markers at different rounds and ``(same curve as X)``.
    title : str
        The figure's title (name the class and the adversary); wrapped, never clipped.
    H : HypothesisClass, optional
        The class; needed for ``measure="regret"``.
    measure : {"mistakes", "regret"}
        See :func:`cumulative_curve`.
    labels : sequence of str, optional
        Legend names; default the transcripts' learner descriptions.
    log : bool
        Logarithmic axes (``symlog``: linear between -1 and 1, so round 0 and a count of
        0 stay on them), for bounds far above the curves and for long games.
    notes : sequence of str
        Printed under the figure, e.g. a learner that could not play and why.

    Returns
    -------
    matplotlib.figure.Figure
        ``PAPER_WIDTH`` inches wide; the legend sits under the axes, never over a curve.

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
        m = _measure_of(b)
        if m is not None and (m == "regret") != (measure == "regret"):
            raise InvalidArgumentError(
                f"bounds[{i}]: a bound on {m} cannot be drawn on a curve of {measure}; "
                "pass None, or plot the measure it bounds"
            )
    names = list(labels) if labels is not None else [t.learner or f"learner {i + 1}" for i, t in enumerate(transcripts)]
    if len(names) != len(transcripts):
        raise InvalidArgumentError(f"labels: expected one per transcript ({len(transcripts)}), got {len(names)}")
    curves = [cumulative_curve(t, H=H, measure=measure) for t in transcripts]
    randomized = any(t.randomized for t in transcripts)

    fig = _figure(PAPER_WIDTH, 4.6 + 0.25 * len(notes))
    ax = fig.add_subplot()
    colors = [f"C{i % 10}" for i in range(len(transcripts))]
    n = len(transcripts)
    longest = max(len(c) - 1 for c in curves)
    step = max(1, math.ceil(longest / 14))  # about 14 markers on the longest curve
    for i, (curve, name, color, game) in enumerate(zip(curves, names, colors, transcripts)):
        total = _label(curve[-1])
        if measure == "regret":
            summary = f"regret {total}"
        elif not float(curve[-1]).is_integer() or game.randomized:
            summary = f"{total} expected mistakes"
        else:
            summary = f"{total} mistake{'' if curve[-1] == 1 else 's'}"
        same = next((names[j] for j in range(i) if np.array_equal(curves[j], curve)), None)
        if same is not None:
            summary += f" (same curve as {same})"
        # earlier curves drawn thicker and below, each with its own marker at its own rounds (offset by
        # i * step / n), so curves that coincide stay visible
        last = len(curve) - 1
        if log:  # as evenly spaced on a logarithmic axis: geometric, each curve's a fraction of a step later
            spots = np.geomspace(1, max(longest, 1), 14) * (max(longest, 1) ** (1 / 13)) ** (i / n)
            marks = sorted({int(round(x)) for x in spots if x <= last} | {last})
        else:
            marks = sorted(set(range(min((i * step) // n, last), last + 1, step)) | {last})
        ax.plot(
            np.arange(len(curve)), curve, color=color, zorder=2 + i,
            linewidth=1.2 + 1.8 * (n - 1 - i) / max(n - 1, 1) if n > 1 else 1.8,
            marker=_MARKERS[i % len(_MARKERS)], markevery=marks,
            markersize=4.0 + 2.0 * (n - 1 - i) / max(n - 1, 1) if n > 1 else 4.5,
            label=f"{name}: {summary}",
        )
    shapes = [_bound_shape(b) for b in bounds]
    groups: dict[tuple, list[int]] = {}
    for i, shape in enumerate(shapes):
        if shape is not None:
            groups.setdefault(shape, []).append(i)
    dash = 7.0
    tops: list[float] = []
    for shape, members in groups.items():
        k = len(members)
        for j, i in enumerate(members):
            style = (0, (dash, 0.6 * dash)) if k == 1 else (j * dash, (dash, dash * (k - 1)))
            also = "" if j == 0 else f" (= bound of {names[members[0]]})"
            if shape[0] == "flat":
                tops.append(shape[1])
                tuned = isinstance(bounds[i], Bound) and "at most T rounds" in bounds[i].assumptions
                ax.axhline(shape[1], color=colors[i], linestyle=style, linewidth=1.6, zorder=1,
                           label=f"{names[i]} bound = {_label(shape[1])}{' for every t <= T' if tuned else ''}{also}")
            else:
                _, ts, values = shape
                tops.append(max(values))
                ax.plot(ts, values, color=colors[i], linestyle=style, linewidth=1.6, zorder=1,
                        label=f"{names[i]} bound(t): {_label(values[-1])} at t = {ts[-1]}{also}")
    ax.set_xlabel("round t")
    if measure == "regret":
        ax.set_ylabel("regret (expected mistakes\nminus best hypothesis)" if transcripts[0].labelled
                      else "regret (against the best fixed point)")
    else:
        ax.set_ylabel("cumulative expected mistakes" if randomized else "cumulative mistakes")
    ax.set_title(_wrap(title, PAPER_WIDTH - 0.3, 10), fontsize=10)
    top = max([float(np.max(c)) for c in curves] + tops + [1.0])
    bottom = min([float(np.min(c)) for c in curves] + [0.0])
    from matplotlib.ticker import MaxNLocator

    if log:
        ax.set_xscale("symlog", linthresh=1)
        ax.set_yscale("symlog", linthresh=1)
        ax.set_xlim(0, max(longest, 1) * 1.15)
        ax.set_ylim(min(bottom * 1.5, 0), top * 1.6)
    else:
        ax.set_xlim(0, max(longest, 1) * 1.02)
        ax.set_ylim(bottom - 0.04 * (top - bottom), top + 0.08 * (top - bottom))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if not randomized and measure == "mistakes":
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(True, alpha=0.3)
    entries = len(ax.get_legend_handles_labels()[1])
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), ncols=2 if entries > 3 else 1,
              fontsize=_FONT - 1, frameon=False)
    if notes:
        fig.supxlabel(_wrap("\n".join(notes), PAPER_WIDTH - 0.3, _FONT - 1), fontsize=_FONT - 1, color="#a04000")
    return fig


# ------------------------------------------------------------------------------ trees
#: The size of a tree's text at that width, in points (a paper prints nothing below ~6).
TREE_FONT = 7.0


def _node_box(color: str, pad: float = 0.3) -> dict:
    return dict(boxstyle=f"round,pad={pad}", facecolor=color, edgecolor="0.35", linewidth=0.8)


def draw_tree(tree, H: Any = None, *, title: str | None = None, levels: int | None = None,
              width: float = PAPER_WIDTH, fontsize: float = TREE_FONT):
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
    width = check_real("width", width, minimum=1.0)
    fontsize = check_real("fontsize", fontsize, minimum=1.0)
    node_text, leaf_names = node_texts(tree, H)
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
                  width: float = PAPER_WIDTH, fontsize: float = TREE_FONT):
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
    width = check_real("width", width, minimum=1.0)
    fontsize = check_real("fontsize", fontsize, minimum=1.0)
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
#: The resolution of a raster figure (``.png``) unless one is asked for; vector formats ignore it.
DPI = 130


def bare(fig):
    """``fig`` without its title and caption (the axes' titles, the figure's texts, its suptitle and
    supxlabel): a figure whose caption the paper writes.  Legends, labels and the drawing stay; returns ``fig``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.set_title("a title"); _ = fig.text(0.1, 0.01, "a caption"); _ = ax.plot([0, 1], label="curve")
    >>> fig is bare(fig), ax.get_title(), len(fig.texts)
    (True, '', 0)
    >>> len(ax.lines)
    1
    >>> plt.close(fig)
    """
    for ax in fig.axes:
        ax.set_title("")
    for text in list(fig.texts):
        text.remove()
    for name in ("_suptitle", "_supxlabel", "_supylabel"):
        if getattr(fig, name, None) is not None:
            getattr(fig, name).remove()
            setattr(fig, name, None)
    return fig


def save_figure(fig, path: str | os.PathLike, *, dpi: int = DPI, titles: bool = True) -> Path:
    """Write ``fig`` to ``path`` (``.png``, ``.svg`` or ``.pdf``) atomically and return the path.

    The figure is rendered to a temporary file in the same directory, then moved over
    ``path`` in one step (see :func:`write_atomically`).  ``dpi`` is a raster figure's
    resolution; with ``titles=False`` the title and caption are left out (:func:`bare`) and the
    figure is cut to what is drawn.

    Raises
    ------
    InvalidArgumentError
        For an unsupported suffix or a directory that does not exist, or a ``.png`` of more
        than :data:`MAX_RASTER_SIDE` pixels a side.
    InsufficientMemoryError
        For a ``.png`` whose pixels (:data:`RASTER_BYTES_PER_PIXEL` each) the memory budget
        cannot take, before it is drawn.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FIGURE_FORMATS:
        raise InvalidArgumentError(
            f"out: expected a file name ending in {', '.join(FIGURE_FORMATS)}, got {str(path)!r}"
        )
    if suffix == ".png":
        _require_raster(fig, dpi)
    cut = {} if titles else {"bbox_inches": _drawn(bare(fig))}
    return write_atomically(path, lambda tmp: fig.savefig(tmp, format=suffix[1:], dpi=dpi, **cut))


def _require_raster(fig, dpi: int) -> None:
    """Refuse, before it is drawn, a raster that Agg cannot hold or the memory budget cannot take."""
    w, h = (float(v) for v in fig.get_size_inches())
    px_w, px_h = math.ceil(w * dpi), math.ceil(h * dpi)
    what = f"a {px_w:,} x {px_h:,} pixel figure ({w:g} x {h:g} inches at {dpi} dpi)"
    advice = "give a smaller --dpi or --width, or write .svg or .pdf (vector formats have no pixels)"
    if max(px_w, px_h) >= MAX_RASTER_SIDE:
        raise InvalidArgumentError(f"dpi: {what} has more than the {MAX_RASTER_SIDE:,} pixels a side a raster can "
                                   f"have; {advice}")
    require_memory(px_w * px_h * RASTER_BYTES_PER_PIXEL, parameter="dpi", what=what, advice=advice)


def _drawn(fig, pad: float = 0.05):
    """The box, in inches, of what ``fig`` draws: an axes with its axis by its tight box (ticks, labels, legend),
    one drawn without an axis (a tree) by its artists alone (not the empty frame around them), the figure's
    legends; ``pad`` inches around."""
    from matplotlib.axis import Axis
    from matplotlib.transforms import Bbox

    fig.canvas.draw()  # the layout first (a layout engine moves the axes as it draws)
    renderer = fig.canvas.get_renderer()
    boxes = [legend.get_window_extent(renderer) for legend in fig.legends]
    for ax in fig.axes:
        if ax.axison:
            boxes.append(ax.get_tightbbox(renderer))
            continue
        frame = {ax.patch, *ax.spines.values()}
        boxes += [a.get_window_extent(renderer) for a in ax.get_children()
                  if a.get_visible() and a not in frame and not isinstance(a, Axis)]
    boxes = [b for b in boxes if b is not None and b.width > 0 and b.height > 0]
    if not boxes:
        return "tight"
    box = Bbox.union(boxes).transformed(fig.dpi_scale_trans.inverted())
    return box.padded(pad)
