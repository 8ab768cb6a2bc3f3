"""One game as ``play`` and ``plot`` play it: the players built by name, the game played, the claims judged.

(Issue 22: this becomes a call of the library's one judged game once it exists.)

Examples
--------
>>> from mistakebound.verification.claims import Bound, judge
>>> claim = Bound(3.0, source="Theorem 21.3")
>>> bound_line(claim, judge(3, claim))
'bound = 3 on mistakes: holds (Theorem 21.3)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mistakebound.foundations.errors import MistakeboundError
from mistakebound.foundations.text import number_text
from mistakebound.game import registry
from mistakebound.game.oco import OCOSetting
from mistakebound.game.play import Observer, play
from mistakebound.interfaces.cli.failures import BadInput, ClaimFailed
from mistakebound.interfaces.progress import Progress

if TYPE_CHECKING:  # the commands import the claims when they run: `verify` loads no search
    from mistakebound.verification.claims import Bound, Verdict

__all__ = ["RoundBar", "bound_line", "forced_line", "run_game"]


class RoundBar(Observer):
    """Advances a progress bar after each round."""

    def __init__(self, bar: Progress):
        self.bar = bar

    def on_round(self, game: Any, r: Any) -> None:
        self.bar.update()


def run_game(args: Any, setting: Any, learner_name: str, bar: Progress | None = None, *,
             keep: str = "rounds", rounds_out: Any = None) -> tuple:
    """Build the players by name and play one game with the command line's options.

    Returns ``(learner, transcript, claim, verdict)``.  Raises ``GameInterrupted`` (with
    the rounds played) on Ctrl-C and ``GameError`` when a player breaks a rule.
    ``keep`` and ``rounds_out`` are :func:`play`'s ``keep`` and ``out`` (``play --stream``).
    """
    from mistakebound.verification.claims import forced_bound, judge_played

    realizable = not args.unrealizable
    learner = registry.build("learner", learner_name, setting, rounds=args.rounds)
    adversary = registry.build("adversary", args.adversary, setting, rounds=args.rounds)
    forced = forced_bound(adversary, setting, learner=learner, rounds=args.rounds, realizable=realizable)
    if isinstance(setting, OCOSetting) and args.unrealizable:
        raise BadInput("--unrealizable: an online convex optimisation game has no labels to realize")
    observers = [] if bar is None or isinstance(setting, OCOSetting) else [RoundBar(bar)]
    T = play(learner, adversary, setting, rounds=args.rounds, seed=args.seed, realizable=realizable,
             observers=observers, keep=keep, out=rounds_out)
    try:
        verdict = judge_played(learner, setting, T, rounds=args.rounds, realizable=realizable, forced=forced)
    except MistakeboundError as exc:  # nothing already played is lost: the caller prints the game first
        raise ClaimFailed(exc, T) from exc
    return learner, T, verdict.bound, verdict


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
