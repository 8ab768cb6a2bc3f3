"""``mistakebound tree CLASS --out FILE``: a shattered tree drawn (or written as DOT, TikZ or JSON), or a worst-case line drawn.

The tree is :func:`~mistakebound.theory.littlestone.shattered_tree`'s, written by
:mod:`mistakebound.theory.tree_export` or drawn by
:func:`~mistakebound.interfaces.plots.draw_tree`; with ``--worst-case LEARNER`` the
adversary's optimal line (:func:`~mistakebound.interfaces.cli.worst_case.search_worst_case`)
is drawn by :func:`~mistakebound.interfaces.plots.draw_strategy`.
"""

from __future__ import annotations

from pathlib import Path

from mistakebound.foundations.text import number_text
from mistakebound.game import registry
from mistakebound.interfaces.arguments import EXIT_INTERRUPTED, EXIT_OK, add_figure, figure_style, horizon, inches
from mistakebound.interfaces.cli.failures import BadInput
from mistakebound.interfaces.cli.help_text import add_command
from mistakebound.interfaces.cli.options import add_budget
from mistakebound.interfaces.cli.output import check_out, require_plots, save_drawing, write_output
from mistakebound.interfaces.cli.settings import finite_class
from mistakebound.interfaces.cli.worst_case import search_worst_case
from mistakebound.interfaces.progress import Progress

__all__ = ["NAME", "SUMMARY", "TREE_FORMATS", "add_parser", "run"]

#: What ``tree --format`` writes, and the file names each format takes.
TREE_FORMATS = {"png": (".png",), "svg": (".svg",), "pdf": (".pdf",), "dot": (".dot", ".gv"),
                "tikz": (".tex", ".tikz"), "json": (".json",)}


#: The command's name, and its line in ``mistakebound --help``.
NAME = "tree"
SUMMARY = "draw a shattered tree (or a worst-case line), or write it as DOT, TikZ or JSON"


def add_parser(subparsers):
    """Register ``tree`` on ``subparsers``."""
    p = add_command(
        subparsers, NAME, SUMMARY,
        "Draw a shattered tree of CLASS of depth Ldim: nodes labelled with their instances, "
        "edges with the labels 0 and 1, leaves with the witness hypotheses, to print at --width "
        "inches with 7 pt text; a tree too deep for that is cut, the subtrees below the cut "
        "counted. --format dot|tikz|json (or the suffix .dot, .tex, .json) writes the whole tree "
        "as text instead. With --worst-case LEARNER draw the adversary's optimal line against "
        "LEARNER. Figures need matplotlib (pip install 'mistakebound[plot]').",
        settings="classes",
    )
    p.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or a .npy, .csv or .json class file")
    p.add_argument("--worst-case", metavar="LEARNER", help="draw the worst-case line against this learner")
    p.add_argument("--horizon", type=horizon, default=None, help="with --worst-case: limit games to this many rounds (0..2**31-1)")
    add_budget(p, "the search (the shattered tree's, or with --worst-case the worst case's)")
    p.add_argument("--out", metavar="FILE", required=True,
                   help="the file: a figure (.png, .svg, .pdf) or an export (.dot, .tex, .json)")
    p.add_argument("--format", choices=tuple(TREE_FORMATS), default=None,
                   help="what to write (default: the one --out's suffix names): a figure, a Graphviz "
                        "digraph (dot), a LaTeX forest (tikz) or the tree's nodes (json, read back by "
                        "mistakebound.theory.tree_export.tree_from_json)")
    p.add_argument("--levels", type=horizon, default=None,
                   help="figures: draw this many levels below the root, 0..2**31-1 (default: as many as fit --width)")
    p.add_argument("--width", type=inches, default=6.5, metavar="INCHES",
                   help="figures: the width to print at, 1..100 inches, text at 7 pt (default 6.5, a paper's text width)")
    add_figure(p)
    p.set_defaults(run=run)
    return p


def _tree_format(args) -> str:
    """The format ``tree`` writes: ``--format``, else the one ``--out``'s suffix names."""
    if args.format is not None:
        check_out(args.out, TREE_FORMATS[args.format], f"{args.format}")
        return args.format
    suffixes = tuple(x for names in TREE_FORMATS.values() for x in names)
    check_out(args.out, suffixes, "figure or export")
    suffix = Path(args.out).suffix.lower()
    return next(f for f, names in TREE_FORMATS.items() if suffix in names)


def run(args, out) -> int:
    """Run ``tree``; exit 3 if the search stopped early (no tree, or a partial worst-case line)."""
    from mistakebound.interfaces.plots import draw_strategy, draw_tree

    fmt = _tree_format(args)
    figure = fmt in ("png", "svg", "pdf")
    if args.worst_case and not figure:
        raise BadInput(f"--format: {fmt} exports a shattered tree; a worst-case line is drawn "
                       "(png, svg or pdf) or written with 'mistakebound worst-case --certificate'")
    if figure:
        require_plots()
    H = finite_class(args.cls, "tree")
    if args.worst_case:
        learner = registry.build("learner", args.worst_case, H, rounds=args.horizon)
        name = registry.find("learner", args.worst_case).name
        W = search_worst_case(learner, H, args, f"worst case of {name}")
        fig = draw_strategy(W.witness, H, learner=name, width=args.width)
        state = (f"{number_text(W.lower)} mistakes (exact)" if W.exact else
                 f"between {number_text(W.lower)} and {number_text(W.upper)} mistakes (partial: {W.status})")
        what = f"the worst-case line of {name} on {H.describe()}, {state}"
        save_drawing(fig, args.out, out, what, **figure_style(args))
        return EXIT_OK if W.exact else EXIT_INTERRUPTED
    from mistakebound.theory.littlestone import shattered_tree
    from mistakebound.theory.search_protocol import SearchIncomplete, SearchInterrupted

    with Progress(None, desc="Littlestone dimension") as bar:
        bar.start_ticker()
        try:
            tree = shattered_tree(H, max_nodes=args.max_nodes, time_limit=args.time_limit)
        except (SearchIncomplete, SearchInterrupted) as exc:
            bounds = exc.result
            print(f"{bounds.describe()}, after {bounds.nodes} nodes in {bounds.seconds:.2f} s; no tree drawn", file=out)
            print("the result is partial: raise --max-nodes / --time-limit for the exact value and the tree", file=out)
            return EXIT_INTERRUPTED
    depth = tree.graph["depth"]
    what = f"a shattered tree of {H.describe()}, depth {depth} = Ldim, {2 ** depth} leaves"
    if not figure:
        from mistakebound.theory import tree_export

        text = {"dot": tree_export.tree_to_dot, "tikz": tree_export.tree_to_tikz,
                "json": lambda T: tree_export.tree_to_json(T, H)}[fmt](tree)
        write_output("--out", args.out, out, f"wrote {args.out}: {what} ({fmt})", data=text + "\n")
        return EXIT_OK
    fig = draw_tree(tree, H, levels=args.levels, width=args.width)
    drawn = fig.tree_layout
    if drawn.levels < drawn.depth:
        what += f", levels 0-{drawn.levels} drawn (the rest counted; --levels draws more)"
    save_drawing(fig, args.out, out, what, **figure_style(args))
    return EXIT_OK
