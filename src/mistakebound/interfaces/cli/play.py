"""``mistakebound play LEARNER ADVERSARY SETTING``: one game, its transcript, its totals, and the claims judged.

The players are built by name (:mod:`mistakebound.game.registry`), the game played and
judged (:func:`~mistakebound.interfaces.cli.games.run_game`); the transcript prints
itself (its ``header``, :func:`~mistakebound.game.transcript.format_transcript`, its
``totals_lines``) and writes its records (:func:`~mistakebound.game.transcript.transcript_records`)
with ``--out FILE.jsonl``, or as it is played with ``--stream``.

Examples
--------
>>> from mistakebound.interfaces.cli import main
>>> main(["play", "halving", "binary-search-threshold", "thresholds:3", "--quiet"])  # doctest: +ELLIPSIS
game: Halving vs BinarySearchThreshold on thresholds(3), realizable, seed 0, at most 100 rounds
rounds = 2
mistakes = 2
...
0
"""

from __future__ import annotations

import json
import os
from typing import Any

from mistakebound.foundations.errors import GameError, GameInterrupted
from mistakebound.foundations.text import one_line, printable
from mistakebound.game import registry
from mistakebound.game.transcript import format_transcript, transcript_records
from mistakebound.interfaces.arguments import EXIT_BROKEN, EXIT_INTERRUPTED, EXIT_OK, rounds, seed
from mistakebound.interfaces.cli.failures import BadInput, ClaimFailed
from mistakebound.interfaces.cli.games import bound_line, forced_line, run_game
from mistakebound.interfaces.cli.help_text import add_command
from mistakebound.interfaces.cli.messages import error
from mistakebound.interfaces.cli.options import DEFAULT_ROUNDS, add_rules, given_rules
from mistakebound.interfaces.cli.output import check_out, jsonl_writer, write_output
from mistakebound.interfaces.progress import Progress

__all__ = ["NAME", "SUMMARY", "add_parser", "run"]

_JSONL_SUFFIXES = (".jsonl", ".ndjson")

#: The command's name, and its line in ``mistakebound --help``.
NAME = "play"
SUMMARY = "play one game and print its transcript, totals and the learner's claim"


def add_parser(subparsers):
    """Register ``play`` on ``subparsers``."""
    p = add_command(
        subparsers, NAME, SUMMARY,
        "Play LEARNER against ADVERSARY on SETTING and print one line per round (t, x, the "
        "learner's probability p of label 1, its prediction, the label y, mistake) and the "
        "totals: mistakes, expected mistakes, regret against the best hypothesis in "
        "hindsight, the version space, and the learner's claimed bound with its verdict. "
        "Exit 1 if the claim is broken.",
    )
    p.add_argument("learner", metavar="LEARNER", help="a learner name (listed below) or module:Class")
    p.add_argument("adversary", metavar="ADVERSARY", help="an adversary name (listed below) or module:Class")
    p.add_argument("cls", metavar="SETTING", help="a zoo class, a space, or a class file (listed below)")
    p.add_argument("--rounds", type=rounds, default=None, help=f"the horizon, 1..10**12 rounds (default {DEFAULT_ROUNDS})")
    p.add_argument("--seed", type=seed, default=0, help="seed of the game, 0..2**128-1 (default 0)")
    p.add_argument("--unrealizable", action="store_true",
                   help="allow labels no hypothesis gives (default: realizable games)")
    add_rules(p)
    p.add_argument("--out", metavar="FILE.jsonl",
                   help="also write the game as JSON Lines: one object per round, then a summary")
    p.add_argument("-q", "--quiet", action="store_true", help="print the totals only, not the rounds")
    p.add_argument("--stream", action="store_true",
                   help="for long horizons: write the rounds to --out as they are played and keep only the "
                        "totals in memory (the same file; implies -q)")
    p.set_defaults(run=run)
    return p


def _stream_game(args: Any, setting: Any, bar: Progress) -> tuple:
    """``play --stream``: the rounds go to ``--out`` as they are played (the game keeps only its
    totals), then the summary; the file is written atomically, and not at all if the game stops."""
    from mistakebound.foundations.files import write_atomically

    result: list = []

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            result.extend(run_game(args, setting, args.learner, bar, keep="totals", rounds_out=fh))
            _, T, claim, verdict = result
            fh.write(json.dumps(transcript_records(T, claim=claim, verdict=verdict)[-1]) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    try:
        write_atomically(args.out, write)
    except OSError as exc:  # a full disk, say: one line, exit 2 (the game's own errors pass through)
        raise BadInput(f"--out: cannot write {args.out!r}: {exc.strerror or exc}") from None
    return tuple(result)


def run(args, out) -> int:
    """Run ``play``: the game, its totals and verdict; exit 1 if a claim is broken or a player broke a rule."""
    if args.rounds is None:
        args.rounds = DEFAULT_ROUNDS
    stream = bool(getattr(args, "stream", False))
    if stream and not args.out:
        raise BadInput("--stream: needs --out FILE.jsonl, the file the rounds are written to as they are played")
    args.quiet = args.quiet or stream  # a streamed game keeps no rounds to print
    check_out(args.out, _JSONL_SUFFIXES, "JSON Lines")
    setting = registry.load_setting(args.cls, labels=args.labels)
    args.rules = given_rules(args, setting)
    try:
        with Progress(args.rounds, desc="play", unit="rounds") as bar:
            if stream:
                learner, T, claim, verdict = _stream_game(args, setting, bar)
            else:
                learner, T, claim, verdict = run_game(args, setting, args.learner, bar)
    except GameInterrupted as exc:
        played = exc.transcript
        print(f"interrupted after {len(played)} rounds of {played.learner} vs {played.adversary} "
              f"on {setting.describe()}", file=out)
        if len(played) and not args.quiet:
            print(format_transcript(played), file=out)
        for line in played.totals_lines(setting)[:3]:
            print(line, file=out)
        return EXIT_INTERRUPTED
    except ClaimFailed as failed:  # the game finished; the learner's or adversary's claim could not be read
        T = failed.transcript
        print(T.header(args.rounds, setting), file=out)
        if not args.quiet:
            print(format_transcript(T), file=out)
        for line in T.totals_lines(setting):
            print(line, file=out)
        message = one_line(failed.error)
        print(f"bound = not judged: {message}", file=out)
        error("play", f"error: {message}")
        return EXIT_BROKEN
    except GameError as exc:
        message = one_line(exc)
        print(f"game stopped: {message}", file=out)
        played = exc.transcript
        if played is not None:
            if len(played) and not args.quiet:
                print(format_transcript(played), file=out)
            print(f"rounds completed = {len(played)}", file=out)
        error("play", f"error: {message}")
        return EXIT_BROKEN
    print(T.header(args.rounds, setting), file=out)
    if not args.quiet:
        print(format_transcript(T), file=out)
    for line in T.totals_lines(setting):
        print(line, file=out)
    print(bound_line(claim, verdict), file=out)
    forced = forced_line(verdict.forced, verdict)
    if forced:
        print(forced, file=out)
    if args.out and stream:
        print(printable(f"wrote {args.out} ({len(T)} rounds and a summary, JSON Lines)"), file=out)
    elif args.out:
        records = transcript_records(T, claim=claim, verdict=verdict)
        write_output("--out", args.out, out, f"wrote {args.out} ({len(T)} rounds and a summary, JSON Lines)",
                     data=jsonl_writer(records))
    return EXIT_BROKEN if verdict.broken else EXIT_OK
