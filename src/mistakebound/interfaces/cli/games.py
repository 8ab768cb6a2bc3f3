"""One game as ``play`` and ``plot`` play it: the library's judged game, with the command line's options.

Examples
--------
>>> from mistakebound.verification.claims import Bound, judge
>>> claim = Bound(3.0, source="Theorem 21.3")
>>> bound_line(claim, judge(3, claim))
'bound = 3 on mistakes: holds (Theorem 21.3)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mistakebound.foundations.errors import GameError, GameInterrupted, MistakeboundError
from mistakebound.foundations.text import number_text
from mistakebound.game.observers import RoundCount
from mistakebound.interfaces.cli.failures import BadInput, ClaimFailed
from mistakebound.interfaces.progress import Progress

if TYPE_CHECKING:  # the commands import the claims when they run: `verify` loads no search
    from mistakebound.verification.claims import Bound, Verdict

__all__ = ["bound_line", "forced_line", "run_game"]


def run_game(args: Any, setting: Any, learner_name: str, bar: Progress | None = None, *,
             keep: str = "rounds", rounds_out: Any = None) -> tuple:
    """One game with the command line's options, through the library's one judged game.

    Returns ``(learner, transcript, claim, verdict)``
    (:func:`~mistakebound.verification.judged.judged_game`).  Raises ``GameInterrupted``
    (with the rounds played) on Ctrl-C, ``GameError`` when a player breaks a rule, and
    :class:`ClaimFailed` (with the finished game) when a claim cannot be read after it.
    ``keep`` and ``rounds_out`` are :func:`play`'s ``keep`` and ``out`` (``play --stream``).
    """
    from mistakebound.verification.judged import judged_game

    if args.unrealizable and not setting.labelled:
        raise BadInput("--unrealizable: an online convex optimisation game has no labels to realize")
    observers = []
    if bar is not None and bar.enabled and setting.labelled:  # the bar reads the library's count
        count = RoundCount()
        observers.append(count)
        bar.follow(lambda: count.rounds)
    try:
        g = judged_game(learner_name, args.adversary, setting, rounds=args.rounds, seed=args.seed,
                        realizable=not args.unrealizable, observers=observers, keep=keep, out=rounds_out,
                        rules=getattr(args, "rules", None))
    except (GameError, GameInterrupted):
        raise
    except MistakeboundError as exc:
        if exc.transcript is None:  # refused before the game: nothing was played
            raise
        raise ClaimFailed(exc, exc.transcript) from exc  # the caller prints the game first
    return g.learner, g.transcript, g.bound, g.verdict


def bound_line(claim: Bound, verdict: Verdict) -> str:
    """``bound = 4 on mistakes: holds (Theorem 21.3 ...)``, or why there is none."""
    if not claim.stated:
        return f"bound = none: {claim.reason}" if claim.reason else "bound = none stated by the learner for this game"
    status = {"ok": "holds", None: f"not judged (this game does not measure {claim.measure})"}.get(
        verdict.bound_status, verdict.bound_status)
    source = f" ({claim.source})" if claim.source else ""
    return f"bound = {number_text(claim.value)} on {claim.measure}: {status}{source}"


def forced_line(forced: Bound | None, verdict: Verdict) -> str | None:
    """``forced = 4 on mistakes: holds (Lemma 21.6 ...)`` when the adversary claims a count."""
    if forced is None or not forced.stated:
        return None
    status = {"ok": "holds", None: f"not judged (this game does not measure {forced.measure})"}.get(
        verdict.forced_status, verdict.forced_status)
    source = f" ({forced.source})" if forced.source else ""
    return f"forced = {number_text(forced.value)} on {forced.measure}: {status}{source}"
