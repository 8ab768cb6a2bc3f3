"""Claims and verdicts: what a player says it guarantees, and whether a game or a search kept it.

Three things, each in one place:

* :class:`Bound`: a claim, whether a learner's upper bound or an adversary's lower
  bound (what it forces).  It says what is bounded (``"mistakes"``, ``"expected
  mistakes"`` or ``"regret"``), the number, the theorem it comes from and the
  assumptions it needs, or, when the game does not meet them, no number and the
  reason.
* :func:`stated_bound` and :func:`forced_bound`, the one lookup of a learner's
  claim (its ``bound`` method) and of an adversary's (its ``forces`` method).  Every
  front end (``check``, ``play``, ``plot``, ``sweep``, the worst-case command,
  :func:`~mistakebound.verification.checks.check_learner`, the pytest report) asks
  through them and nowhere else.
* :func:`judge`, the one verdict: a measured value (a number, or a search's proven
  interval) against a claimed upper bound and a forced lower bound, with the one
  tolerance :data:`TOLERANCE`; :func:`judge_transcript` applies it to a finished game,
  each claim on its own measure.  Playing a game and judging it is one call,
  :func:`~mistakebound.verification.judged.judged_game`.

A claim is never evidence: :func:`judge` tests it against what a game measured or
what a search proved; a search's proven bounds never come from a claim.

The learner protocol (see :class:`~mistakebound.game.players.Learner`) is::

    def bound(self, setting, *, rounds=None, realizable=True, transcript=None) -> Bound | None

``setting`` is the class or space of the game, ``rounds`` its horizon (None when the
game's length is not fixed in advance, as in a worst-case search), ``realizable``
whether labels must stay consistent with the class, and ``transcript`` the finished
game, for bounds that depend on it (the comparator's hinge loss, the best expert's
mistakes).  Adversaries state what they force the same way, with ``forces(setting, *,
learner, rounds=None, realizable=True)``.

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.learners import Halving
>>> from mistakebound.adversaries import BinarySearchThreshold
>>> H = classes.thresholds(15)
>>> learner = Halving(H)
>>> T = play(learner, BinarySearchThreshold(), H, rounds=20, seed=0)
>>> claim = stated_bound(learner, H, rounds=20, transcript=T)
>>> claim.value, claim.measure
(4.0, 'mistakes')
>>> verdict = judge(measured(T, claim.measure), claim)
>>> verdict.status, verdict.ratio
('ok', 1.0)
>>> judge(5, claim).message
'mistakes 5 > bound 4 (Theorem 21.3 (textbook ch. 21): M <= log2 |H|)'
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.foundations.text import number_text
from mistakebound.foundations.validation import check_choice, keywords_of
from mistakebound.game.registry import describe_setting

__all__ = [
    "MEASURES",
    "TOLERANCE",
    "VERDICTS",
    "Bound",
    "ClaimError",
    "Verdict",
    "forced_bound",
    "judge",
    "judge_transcript",
    "measured",
    "stated_bound",
]

#: What a bound can bound: mistakes (a deterministic count), the exact expected number of
#: mistakes of a randomized learner, or the expected regret against the best hypothesis.
MEASURES = ("mistakes", "expected mistakes", "regret")

#: The one slack when a measured number is compared with a bound (``log2`` and square-root
#: bounds are floats, measured expectations sums of floats).
TOLERANCE = 1e-9

#: The verdicts of :func:`judge`: the claim holds, is broken, cannot be decided from a
#: partial search's interval, or there is nothing to judge.
VERDICTS = ("ok", "BROKEN", "undecided", "no bound")


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _check_value(instance: Any, attribute: Any, value: Any) -> None:
    if value is None:
        return
    if not _is_number(value) or math.isnan(value) or value < 0:
        raise InvalidArgumentError(f"value: expected None or a number >= 0 (inf allowed), got {value!r}")


def _check_measure(instance: Any, attribute: Any, value: Any) -> None:
    check_choice("measure", value, MEASURES)


@frozen
class Bound:
    """A claimed bound on one measure of a game: a number with its theorem, or none with the reason.

    Attributes
    ----------
    value : float or None
        The bound (``math.inf`` allowed), or None when the claim does not apply to
        this game (``reason`` says why).
    measure : {"mistakes", "expected mistakes", "regret"}
        What it bounds.
    source : str
        The theorem it comes from.
    assumptions : tuple of str
        What the theorem needs of the game (``"realizable"``, ``"margin gamma > 0"``,
        ``"at most T rounds"``, ...), for the reader; a learner returns no number when
        the game does not meet them.
    reason : str
        Why there is no number (empty when there is one).

    Examples
    --------
    >>> Bound(3, source="Lemma 21.7").describe()
    '3 on mistakes (Lemma 21.7)'
    >>> Bound.none("needs the horizon T").describe()
    'none: needs the horizon T'
    >>> Bound(float("nan"))
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: value: expected None or a number >= 0 (inf allowed), got nan
    """

    value: float | None = field(validator=_check_value)
    measure: str = field(default="mistakes", validator=_check_measure)
    source: str = ""
    assumptions: tuple = field(default=(), converter=tuple)
    reason: str = ""

    @classmethod
    def none(cls, reason: str, *, measure: str = "mistakes") -> Bound:
        """No bound for this game, and why."""
        return cls(None, measure=measure, reason=reason)

    @property
    def stated(self) -> bool:
        """Whether there is a number."""
        return self.value is not None

    def describe(self) -> str:
        """``"4 on mistakes (Theorem 21.3 ...)"``, or ``"none: <reason>"``."""
        if self.value is None:
            return f"none: {self.reason}" if self.reason else "none"
        source = f" ({self.source})" if self.source else ""
        return f"{number_text(self.value)} on {self.measure}{source}"


class ClaimError(MistakeboundError):
    """A player's ``bound`` or ``forces`` method raised, or returned something that is not a claim.

    The original exception, if any, is chained as ``__cause__``; nothing is swallowed.
    """


def _name(player: Any) -> str:
    return player.__name__ if isinstance(player, type) else type(player).__name__


def _ask(player: Any, method: str, setting: Any, options: dict, measure_hint: str) -> Bound:
    name = _name(player)
    ask = getattr(player, method, None)
    if isinstance(player, type):
        raise InvalidArgumentError(
            f"learner: expected a player instance (its claim may depend on its parameters), got the type {name}"
        )
    if not callable(ask):
        verb = "states no bound" if method == "bound" else "states nothing it forces"
        return Bound.none(f"{name} {verb} (it has no {method} method)", measure=measure_hint)
    refused = _other_rules(player, method, options, measure_hint)
    if refused is not None:
        return refused
    accepted = keywords_of(type(player), method)
    given = {k: v for k, v in options.items() if (accepted is None or k in accepted) and (k != "rules" or v is not None)}
    try:
        claim = ask(setting, **given)
    except MistakeboundError:
        raise
    except Exception as exc:
        raise ClaimError(
            f"{name}.{method}: raised {type(exc).__name__}: {exc} on {describe_setting(setting)}"
        ) from exc
    if claim is None:
        what = "states no bound" if method == "bound" else "states nothing it forces"
        return Bound.none(f"{name} {what} for this game", measure=measure_hint)
    if not isinstance(claim, Bound):
        raise ClaimError(
            f"{name}.{method}: expected a Bound or None, got {type(claim).__name__} {claim!r}"
        )
    return claim


def _plain(rules: Any) -> bool:
    """Whether ``rules`` (None: the textbook's) are those every claim is stated for: full information, no noise."""
    return rules is None or (rules.feedback == "full" and rules.noise == 0)


def _other_rules(player: Any, method: str, options: dict, measure_hint: str) -> Bound | None:
    """The refusal of a claim stated for the textbook's game in a game under other rules, or None.

    A player whose ``bound`` / ``forces`` takes ``rules`` states its claim for them; any other
    player's claim is about full information without noise, so a game under bandit feedback
    or a noise budget has no claim of its.
    """
    rules = options.get("rules")
    if _plain(rules):
        return None
    accepted = keywords_of(type(player), method) if callable(getattr(player, method, None)) else frozenset()
    if accepted is None or "rules" in accepted:
        return None
    return Bound.none(f"{_name(player)} states its claim for full information without noise; this game has "
                      f"{rules.describe()}", measure=measure_hint)


def _default_measure(player: Any) -> str:
    return "expected mistakes" if callable(getattr(player, "predict_proba_one", None)) else "mistakes"


def stated_bound(
    learner: Any, setting: Any, *, rounds: int | None = None, realizable: bool = True, transcript: Any = None,
    rules: Any = None,
) -> Bound:
    """The bound ``learner`` claims for a game on ``setting``: the one lookup of a claim.

    Calls ``learner.bound(setting, rounds=..., realizable=..., transcript=...)``,
    leaving out the keywords its method does not take (a bound that does not read the
    transcript does not depend on it).

    Parameters
    ----------
    learner
        The learner instance (its claim may depend on its hyperparameters).
    setting : HypothesisClass or Space
        Where the game is played.
    rounds : int, optional
        The game's horizon.
    realizable : bool
    transcript : Transcript, optional
        The finished game, for bounds that depend on what happened in it.
    rules : Rules, optional
        The game's rules (:class:`~mistakebound.game.rules.Rules`; None: the textbook's),
        passed to a ``bound`` that takes them; a learner whose ``bound`` does not states its
        claim for full information without noise, and has none under other rules.

    Returns
    -------
    Bound
        Always a :class:`Bound`; ``value`` None (with the reason) when the learner
        states none for this game.

    Raises
    ------
    ClaimError
        When the learner's ``bound`` raises or returns something that is not a
        :class:`Bound` or None (the original exception chained).
    InvalidArgumentError
        When ``learner`` is a type rather than a learner.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import SOA
    >>> stated_bound(SOA(classes.thresholds(7)), classes.thresholds(7)).value
    3
    >>> stated_bound(SOA(classes.thresholds(7)), classes.thresholds(7), realizable=False).reason
    'Lemma 21.7 needs a realizable game'
    """
    options = {"rounds": rounds, "realizable": bool(realizable), "transcript": transcript, "rules": rules}
    return _ask(learner, "bound", setting, options, _default_measure(learner))


def forced_bound(
    adversary: Any, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True,
    rules: Any = None,
) -> Bound:
    """What ``adversary`` claims to force on ``learner`` in a game on ``setting`` (a lower bound).

    Calls ``adversary.forces(setting, learner=..., rounds=..., realizable=...)``; same
    contract as :func:`stated_bound`.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Halving
    >>> from mistakebound.adversaries import ShatteredTreeWalker
    >>> H = classes.thresholds(7)
    >>> forced_bound(ShatteredTreeWalker(), H, learner=Halving(H)).value
    3
    """
    options = {"learner": learner, "rounds": rounds, "realizable": bool(realizable), "rules": rules}
    return _ask(adversary, "forces", setting, options, _default_measure(learner))


def measured(transcript: Any, measure: str) -> float | None:
    """The value of ``measure`` in a finished game: its mistakes, expected mistakes or regret.

    For an online convex optimisation game (an
    :class:`~mistakebound.game.oco.OCOTranscript`) the regret is against the best fixed
    point in hindsight (``best_fixed_regret()``).

    Examples
    --------
    >>> from mistakebound.game.transcript import Round, Transcript
    >>> T = Transcript(rounds=[Round(1, 0, 0.25, 0, 1)], best_hypothesis_mistakes=0)
    >>> measured(T, "mistakes"), measured(T, "expected mistakes"), measured(T, "regret")
    (1, 0.75, 0.75)
    """
    _check_measure(None, None, measure)
    if measure == "mistakes":
        return transcript.mistakes
    if measure == "expected mistakes":
        return transcript.expected_mistakes
    best = getattr(transcript, "best_fixed_regret", None)
    return best() if callable(best) else transcript.regret


@frozen
class Verdict:
    """Whether a measured value (or a search's proven interval) keeps its claims.

    Attributes
    ----------
    status : {"ok", "BROKEN", "undecided", "no bound"}
        ``"ok"``: every stated claim holds; ``"BROKEN"``: one is proven false;
        ``"undecided"``: a partial search's interval straddles a claim; ``"no bound"``:
        neither a bound nor a forced count to judge.
    lower, upper : float or None
        The measured value (equal), or a search's proven interval.
    bound, forced : Bound or None
        The claimed upper bound and the forced lower bound judged against.
    message : str
        Why a verdict is not ``"ok"``, with the numbers and the theorem.
    ratio : float or None
        ``lower / bound`` (0 when both are 0, ``inf`` above a bound of 0); None without
        a stated bound.
    bound_status, forced_status : str or None
        The verdict on each claim alone (``"ok"``, ``"BROKEN"``, ``"undecided"``), None
        for a claim without a number.
    """

    status: str
    lower: float | None = None
    upper: float | None = None
    bound: Bound | None = None
    forced: Bound | None = None
    message: str = ""
    ratio: float | None = None
    bound_status: str | None = None
    forced_status: str | None = None

    @property
    def holds(self) -> bool | None:
        """True for ``"ok"``, False for ``"BROKEN"``, None when nothing was decided."""
        return {"ok": True, "BROKEN": False}.get(self.status)

    @property
    def broken(self) -> bool:
        """Whether a claim is proven false."""
        return self.status == "BROKEN"


def _interval(value: Any) -> tuple[float | None, float | None]:
    if value is None:
        return None, None
    if _is_number(value):
        return value, value
    lower, upper = getattr(value, "lower", None), getattr(value, "upper", None)
    if not (_is_number(lower) and _is_number(upper)):
        raise InvalidArgumentError(
            f"measured: expected a number, None or a search result with numeric lower and upper, got {value!r}"
        )
    return lower, upper


def _ratio(value: float, bound: float) -> float:
    if bound > 0:
        return float(value / bound)
    return 0.0 if value <= TOLERANCE else math.inf


def judge(measured: Any, bound: Bound | None = None, forced: Bound | None = None) -> Verdict:
    """The verdict on a measured value against a claimed bound and a forced count: the one verdict.

    Parameters
    ----------
    measured : number, search result or None
        What the game measured (in the bound's measure), or a search's result, whose
        proven ``lower`` and ``upper`` are judged: a claim is broken when the lower
        bound exceeds it, holds when the upper bound does not, and is undecided in
        between.  None when the game did not measure it.
    bound : Bound, optional
        The claimed upper bound (a :class:`Bound` without a number judges nothing).
    forced : Bound, optional
        The count the adversary claims to force (a lower bound on the same measure).

    Returns
    -------
    Verdict

    Examples
    --------
    >>> judge(3, Bound(3.0)).status
    'ok'
    >>> judge(3.0000000001, Bound(3)).status   # within TOLERANCE
    'ok'
    >>> v = judge(2, Bound(5), forced=Bound(3, source="Lemma 21.6"))
    >>> v.status, v.message
    ('BROKEN', 'mistakes 2 < forced 3 (Lemma 21.6)')
    >>> from mistakebound.theory.search_protocol import SearchResult
    >>> judge(SearchResult(lower=2, upper=6, status="budget"), Bound(4)).status
    'undecided'
    >>> judge(SearchResult(lower=5, upper=6, status="budget"), Bound(4)).status
    'BROKEN'
    >>> judge(7, Bound.none("no theorem")).status
    'no bound'
    """
    lower, upper = _interval(measured)
    upper_claim = bound if bound is not None and bound.stated else None
    lower_claim = forced if forced is not None and forced.stated else None
    if upper_claim is not None and lower_claim is not None and upper_claim.measure != lower_claim.measure:
        raise InvalidArgumentError(
            f"forced: a count on {lower_claim.measure!r} cannot be judged with one measured value against a bound "
            f"on {upper_claim.measure!r}; judge a finished game with judge_transcript, which measures each on its own"
        )
    if lower is None or (upper_claim is None and lower_claim is None):
        return Verdict("no bound", lower, upper, bound, forced)
    problems: list[str] = []
    undecided: list[str] = []
    each: dict[bool, str | None] = {True: None, False: None}
    for claim, above in ((upper_claim, True), (lower_claim, False)):
        if claim is None:
            continue
        source = f" ({claim.source})" if claim.source else ""
        each[above] = "ok"
        if above:
            if lower > claim.value + TOLERANCE:
                shown = number_text(lower) if lower == upper else f"at least {number_text(lower)}"
                problems.append(f"{claim.measure} {shown} > bound {number_text(claim.value)}{source}")
                each[above] = "BROKEN"
            elif upper > claim.value + TOLERANCE:
                undecided.append(f"{claim.measure} in [{number_text(lower)}, {number_text(upper)}] against bound "
                                 f"{number_text(claim.value)}{source}")
                each[above] = "undecided"
        else:
            if upper < claim.value - TOLERANCE:
                shown = number_text(upper) if lower == upper else f"at most {number_text(upper)}"
                problems.append(f"{claim.measure} {shown} < forced {number_text(claim.value)}{source}")
                each[above] = "BROKEN"
            elif lower < claim.value - TOLERANCE:
                undecided.append(f"{claim.measure} in [{number_text(lower)}, {number_text(upper)}] against forced "
                                 f"{number_text(claim.value)}{source}")
                each[above] = "undecided"
    ratio = None if upper_claim is None else _ratio(lower, upper_claim.value)
    status = "BROKEN" if problems else "undecided" if undecided else "ok"
    message = "; ".join(problems or undecided)
    return Verdict(status, lower, upper, bound, forced, message, ratio, each[True], each[False])


_WORST_FIRST = ("BROKEN", "undecided", "ok", "no bound")


def judge_transcript(transcript: Any, bound: Bound | None = None, forced: Bound | None = None) -> Verdict:
    """The verdict on a finished game's transcript: each claim against the game's value in its own measure.

    A learner's bound and an adversary's forced count may bound different measures (a
    mistake bound, a regret an adversary forces); each is measured with :func:`measured`
    and judged, and the verdict is the worse of the two (``BROKEN`` before
    ``undecided`` before ``ok``).  The verdict's value and ratio are those of the bound.

    Examples
    --------
    >>> from mistakebound.game.transcript import Round, Transcript
    >>> T = Transcript(rounds=[Round(1, 0, 1.0, 1, 0), Round(2, 1, 1.0, 1, 0)], best_hypothesis_mistakes=1)
    >>> v = judge_transcript(T, Bound(1, "regret"), forced=Bound(3, "mistakes", "toy"))
    >>> v.status, v.lower, v.message
    ('BROKEN', 1.0, 'mistakes 2 < forced 3 (toy)')
    """
    measures = {c.measure for c in (bound, forced) if c is not None and c.stated}
    if len(measures) <= 1:
        measure = measures.pop() if measures else (bound or forced or Bound(None)).measure
        return judge(measured(transcript, measure), bound, forced)
    upper = judge(measured(transcript, bound.measure), bound)
    lower = judge(measured(transcript, forced.measure), None, forced)
    status = min((upper.status, lower.status), key=_WORST_FIRST.index)
    message = "; ".join(m for m in (upper.message, lower.message) if m)
    return Verdict(status, upper.lower, upper.upper, bound, forced, message, upper.ratio,
                   upper.bound_status, lower.forced_status)

