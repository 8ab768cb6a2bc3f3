"""Helpers the learners share to read a setting: what it is, its sizes, and the refusals.

Each learner states its claim with ``bound(setting, ...)`` and builds itself with
``for_setting(setting, ...)``; both need the same few facts about a setting (a finite
class, a space of halfspaces, of disjunctions, of expert advice, an OCO ball), and
the same wording when a setting does not fit.  Private to the learner zoo.
"""

from __future__ import annotations

import functools
import numbers
from typing import Any

import numpy as np

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.foundations.validation import check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.registry import describe_setting, missing_horizon
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace
from mistakebound.theory.search_protocol import OutOfBudget
from mistakebound.verification.claims import Bound

__all__ = [
    "describe_setting",
    "not_applicable",
    "need_rounds",
    "same_table",
    "vector_length",
    "disjunction_setting",
    "not_disjunctions",
    "class_claim",
    "horizon_claim",
    "disjunction_problem",
]


def not_applicable(name: str, setting: Any, plays_on: str) -> NotApplicableError:
    """``NAME plays on PLAYS_ON; got SETTING``: the refusal of ``for_setting``."""
    return NotApplicableError(f"{name} plays on {plays_on}; got {describe_setting(setting)}")


def need_rounds(name: str, rounds: Any) -> InvalidArgumentError:
    """The refusal of ``for_setting`` for a learner tuned for a horizon when ``rounds`` is missing (the registry's)."""
    return missing_horizon(name, rounds)


def same_table(H: HypothesisClass, G: Any) -> bool:
    """Whether ``G`` is a class with the same domain and table as ``H`` (names may differ)."""
    if G is H:
        return True
    return (
        isinstance(G, HypothesisClass)
        and H.domain == G.domain
        and H.matrix.shape == G.matrix.shape
        and bool(np.array_equal(H.matrix, G.matrix))
    )


def _numbers(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) > 0 and all(
        isinstance(v, numbers.Real) and not isinstance(v, bool) for v in x
    )


def vector_length(setting: Any) -> int | None:
    """The length of the instance vectors of ``setting``, or None when its instances are not vectors.

    ``d`` of a :class:`~mistakebound.game.spaces.LinearSpace` or
    :class:`~mistakebound.game.spaces.ExpertAdvice`, ``n`` of a
    :class:`~mistakebound.game.spaces.KDisjunctionSpace`, the common length of a finite
    class whose instances are tuples of numbers.

    Examples
    --------
    >>> from mistakebound import classes
    >>> vector_length(classes.monotone_disjunctions(3)), vector_length(classes.thresholds(3))
    (3, None)
    """
    if isinstance(setting, (LinearSpace, ExpertAdvice)):
        return setting.d
    if isinstance(setting, KDisjunctionSpace):
        return setting.n
    if isinstance(setting, HypothesisClass) and setting.n_instances:
        first = setting.domain[0]
        if _numbers(first) and all(_numbers(x) and len(x) == len(first) for x in setting.domain):
            return len(first)
    return None


def _binary(setting: HypothesisClass) -> bool:
    return all(all(v in (0, 1) for v in x) for x in setting.domain)


def disjunction_setting(setting: Any) -> tuple[int, int] | None:
    """``(n, k)`` when ``setting`` is a game on monotone disjunctions of at most ``k`` of ``n`` variables.

    A :class:`~mistakebound.game.spaces.KDisjunctionSpace` gives its ``(n, k)``; a finite
    class whose instances are 0/1 tuples of length ``n`` gives ``(n, n)`` (a target may use
    every variable).  None for anything else.  Whether every hypothesis of a finite class
    is a monotone disjunction is checked by :func:`not_disjunctions`.

    Examples
    --------
    >>> from mistakebound import classes
    >>> disjunction_setting(KDisjunctionSpace(1000, 3)), disjunction_setting(classes.monotone_disjunctions(4))
    ((1000, 3), (4, 4))
    >>> disjunction_setting(classes.thresholds(4)) is None
    True
    """
    if isinstance(setting, KDisjunctionSpace):
        return setting.n, setting.k
    if isinstance(setting, HypothesisClass):
        n = vector_length(setting)
        if n is not None and _binary(setting):
            return n, n
    return None


@functools.lru_cache(maxsize=32)
def not_disjunctions(H: HypothesisClass) -> str:
    """Why some hypothesis of ``H`` (a class over 0/1 tuples) is not a monotone disjunction; ``""`` if none.

    A hypothesis ``h`` is the disjunction of the variables ``S`` iff ``S`` contains
    every variable of a positive instance that could be in the target: the largest
    candidate is ``S* = {i : x_i = 0 for every x with h(x) = 0}``, and ``h`` is a
    monotone disjunction iff every ``x`` with ``h(x) = 1`` meets ``S*``.

    Examples
    --------
    >>> from mistakebound import classes
    >>> not_disjunctions(classes.monotone_disjunctions(3))
    ''
    >>> not_disjunctions(classes.parities(2))
    'hypothesis 3 (x1 xor x2) labels (1, 1) with 0 and (0, 1) with 1: not a monotone disjunction'
    """
    X = np.array(H.domain, dtype=np.int64).reshape(H.n_instances, -1).astype(bool)
    for i, row in enumerate(H.matrix):
        row = row.astype(bool)
        candidates = ~X[~row].any(axis=0)
        positives = X[row]
        missing = ~(positives[:, candidates]).any(axis=1) if positives.size else np.zeros(0, dtype=bool)
        if missing.any():
            x_pos = H.domain[int(np.flatnonzero(row)[int(np.flatnonzero(missing)[0])])]
            blocking = [H.domain[j] for j in np.flatnonzero(~row) if X[j][X[H.index_of(x_pos)]].any()]
            detail = f"labels {blocking[0]!r} with 0 and {x_pos!r} with 1" if blocking else f"labels {x_pos!r} with 1"
            return f"hypothesis {i} ({H.hypothesis_name(i)}) {detail}: not a monotone disjunction"
    return ""


def class_claim(
    learner: Any,
    setting: Any,
    *,
    realizable: bool,
    theorem: str,
    source: str,
    value: Any,
    measure: str = "mistakes",
) -> Bound:
    """The claim of a learner built for a finite class ``learner.H``: ``value(H)`` in realizable games on ``H``.

    Parameters
    ----------
    learner
        The learner; its class is ``learner.H``.
    setting
        The game's setting.
    realizable : bool
    theorem : str
        The theorem's short name, for the reasons (``"Lemma 21.7"``).
    source : str
        The full citation, the :class:`~mistakebound.verification.claims.Bound`'s source.
    value : callable
        ``H -> number``: the bound.
    measure : str
        ``"mistakes"`` (deterministic learners) or ``"expected mistakes"``.

    Returns
    -------
    Bound
        None with the reason when the setting is not the learner's class or the game is
        not realizable.
    """
    name = type(learner).__name__
    if not isinstance(setting, HypothesisClass):
        return Bound.none(f"{theorem} is about a finite class; the game is on {describe_setting(setting)}",
                          measure=measure)
    if not same_table(learner.H, setting):
        return Bound.none(f"{name} was built for {learner.H.describe()}; the game is on {setting.describe()}",
                          measure=measure)
    if not realizable:
        return Bound.none(f"{theorem} needs a realizable game", measure=measure)
    try:
        number = value(setting)
    except OutOfBudget:  # a search for the value, inside a step whose deadline passed (search_protocol.spending)
        return Bound.none(f"{theorem}'s value was not computed within the budget (raise --time-limit)",
                          measure=measure)
    return Bound(number, measure, source, ("realizable",))


def horizon_claim(T: int, rounds: Any, transcript: Any, value: float, measure: str, source: str,
                  name: str) -> Bound:
    """``value`` for a game of at most ``T`` rounds (its length read from the transcript, else ``rounds``)."""
    n = len(transcript) if transcript is not None else rounds
    if n is None:
        return Bound.none(
            f"the bound holds for games of at most T = {T} rounds, and the game's length is not given: "
            "pass rounds (or the transcript)",
            measure=measure,
        )
    n = check_int("rounds", n, 0)
    if n > T:
        return Bound.none(
            f"{name} is tuned for T = {T} rounds; the game has {n}: build it with T >= {n} "
            "(or wrap it in DoublingTrick)",
            measure=measure,
        )
    return Bound(value, measure, source, ("at most T rounds",))


def disjunction_problem(name: str, n: int | None, setting: Any) -> tuple[tuple[int, int] | None, str]:
    """``((n, k), "")`` for a game on monotone disjunctions this learner can bound, else ``(None, reason)``.

    Parameters
    ----------
    name : str
        The learner's name, for the reason.
    n : int or None
        The number of variables the learner was built for (None: any).
    setting
        The game's setting: a ``KDisjunctionSpace`` or a finite class over 0/1 tuples
        whose every hypothesis is a monotone disjunction (``k = n`` there).
    """
    nk = disjunction_setting(setting)
    if nk is None:
        return None, (f"{name} plays on monotone disjunctions (a KDisjunctionSpace, or a finite class over 0/1 "
                      f"tuples); the game is on {describe_setting(setting)}")
    if n is not None and nk[0] != n:
        return None, f"{name} was built for n = {n} variables; the game has {nk[0]}"
    if isinstance(setting, HypothesisClass):
        why = not_disjunctions(setting)
        if why:
            return None, f"the bound is for targets that are monotone disjunctions, and in {setting.describe()} {why}"
    return nk, ""
