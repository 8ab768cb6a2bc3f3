"""``mistakebound plot SETTING --learners A,B --adversary X --out FILE``: cumulative mistakes (or regret) against each learner's claim.

Each learner plays one game (:func:`~mistakebound.interfaces.cli.games.run_game`); the
figure is :func:`~mistakebound.interfaces.plots.plot_cumulative`'s, the claims' curves
:func:`~mistakebound.interfaces.plots.claim_curve`'s.  A learner that cannot play the
game is left out with a note.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mistakebound.foundations.errors import GameError, MistakeboundError
from mistakebound.foundations.text import number_text, one_line
from mistakebound.foundations.text_tables import text_table
from mistakebound.game import registry
from mistakebound.interfaces.arguments import (EXIT_BROKEN, EXIT_INTERRUPTED, EXIT_OK, add_figure, figure_style,
                                               rounds, seed)
from mistakebound.interfaces.cli.failures import BadInput
from mistakebound.interfaces.cli.games import run_game
from mistakebound.interfaces.cli.help_text import add_command
from mistakebound.interfaces.cli.messages import error
from mistakebound.interfaces.cli.options import DEFAULT_ROUNDS
from mistakebound.interfaces.cli.output import check_out, require_plots, write_output
from mistakebound.interfaces.progress import Progress

if TYPE_CHECKING:  # the commands import the claims when they run: `verify` loads no search
    from mistakebound.verification.claims import Bound, Verdict

__all__ = ["NAME", "SUMMARY", "add_parser", "run"]

#: The command's name, and its line in ``mistakebound --help``.
NAME = "plot"
SUMMARY = "draw cumulative mistakes (or regret) against the learners' claims"


def add_parser(subparsers):
    """Register ``plot`` on ``subparsers``."""
    p = add_command(
        subparsers, NAME, SUMMARY,
        "Play each learner of --learners against --adversary on SETTING (same seed) and draw "
        "cumulative mistakes over the rounds, or with --unrealizable (and on oco settings) the "
        "regret, each learner's claimed bound dashed in its colour (a curve in t when the claim "
        "grows with the rounds). A learner that cannot play this game is left out with a note "
        "under the figure. Needs matplotlib (pip install 'mistakebound[plot]').",
    )
    p.add_argument("cls", metavar="SETTING", help="a zoo class, a space, or a class file (listed below)")
    p.add_argument("--learners", required=True, metavar="L1,L2", help="comma-separated learner names")
    p.add_argument("--adversary", required=True, metavar="ADVERSARY", help="an adversary name")
    p.add_argument("--rounds", type=rounds, default=None, help=f"the horizon, 1..10**12 rounds (default {DEFAULT_ROUNDS})")
    p.add_argument("--seed", type=seed, default=0, help="seed of every game, 0..2**128-1 (default 0)")
    p.add_argument("--unrealizable", action="store_true", help="unrealizable games; plot the regret")
    p.add_argument("--out", metavar="FILE", required=True, help="the figure: a .png, .svg or .pdf file name")
    p.add_argument("--log", action="store_true",
                   help="logarithmic axes (linear below 1, so 0 stays on them): for bounds far above the curves")
    add_figure(p)
    p.set_defaults(run=run)
    return p


def run(args, out) -> int:
    """Run ``plot``: the games' table, then the figure; exit 1 if a claim is broken or a game errored."""
    from mistakebound.interfaces.plots import FIGURE_FORMATS, claim_curve, plot_cumulative, save_figure

    if args.rounds is None:
        args.rounds = DEFAULT_ROUNDS
    check_out(args.out, FIGURE_FORMATS, "figure")
    names = [n.strip() for n in args.learners.split(",") if n.strip()]
    if not names:
        raise BadInput(f"--learners: expected comma-separated learner names, got {args.learners!r}")
    # unknown names and parameters a player does not take fail before any game (exit 2)
    labels = [registry.resolve("learner", n)[0].name for n in names]
    adversary_name = registry.resolve("adversary", args.adversary)[0].name
    require_plots()
    setting = registry.load_setting(args.cls)
    games: list[tuple[str, Any, Bound, Verdict]] = []
    learners: list[Any] = []
    refused: list[tuple[str, MistakeboundError]] = []  # learners that cannot play this game: a note each
    try:
        with Progress(len(names), desc="plot", unit="games") as bar:
            for name, label in zip(names, labels):
                try:
                    learner, T, claim, verdict = run_game(args, setting, name)
                except GameError:
                    raise
                except MistakeboundError as exc:  # refused (not applicable, too large...): the others are drawn
                    refused.append((label, exc))
                else:
                    games.append((label, T, claim, verdict))
                    learners.append(learner)
                bar.update()
    except KeyboardInterrupt:
        print(f"interrupted after {len(games)} of {len(names)} games; no figure written", file=out)
        _print_games(games, out)
        return EXIT_INTERRUPTED
    except GameError as exc:  # a player broke a rule: a game errored (exit 1), as in play
        message = one_line(exc)
        print(f"game {len(games) + len(refused) + 1} of {len(names)} stopped: {message}; no figure written", file=out)
        _print_games(games, out)
        error("plot", f"error: {message}")
        return EXIT_BROKEN
    if not games:  # nothing to draw: the first refusal is the error (bad input, exit 2)
        raise refused[0][1]
    notes = [f"{label} not drawn: {' '.join(str(exc).split())}" for label, exc in refused]
    oco = not setting.labelled
    regret_curve = oco or (args.unrealizable and setting.hindsight)
    measure = "regret" if regret_curve else "mistakes"  # settings without a best hypothesis in hindsight: mistakes
    kind = "online convex optimisation" if oco else ("unrealizable" if args.unrealizable else "realizable")
    what = "Regret" if measure == "regret" else "Cumulative mistakes"
    title = f"{what} on {setting.describe()} against {adversary_name} ({kind}, seed {args.seed})"
    bounds = [claim_curve(learner, setting, rounds=args.rounds, realizable=not args.unrealizable, transcript=T)
              if c.stated and (c.measure == "regret") == regret_curve else None
              for learner, (_, T, c, _) in zip(learners, games)]
    fig = plot_cumulative([T for _, T, _, _ in games], bounds, title, H=setting, measure=measure,
                          labels=[label for label, _, _, _ in games], log=args.log, notes=notes)
    _print_games(games, out)  # the games first: a figure that cannot be written loses none of them
    for note in notes:
        print(note, file=out)
    write_output("--out", args.out, out, f"wrote {args.out}", save=lambda: save_figure(fig, args.out, **figure_style(args)))
    return EXIT_BROKEN if any(v.broken for *_, v in games) else EXIT_OK


def _print_games(games, out) -> None:
    """The games played so far as a table: each learner's totals, claim and verdict."""
    rows = [[label, *T.totals_row(),
             "-" if not claim.stated else f"{number_text(claim.value)} ({claim.measure})",
             {"ok": "ok", "no bound": "-"}.get(verdict.status, verdict.status)]
            for label, T, claim, verdict in games]
    if rows:
        print(text_table(["learner", "rounds", "mistakes", "expected", "regret", "bound", "verdict"], rows), file=out)
