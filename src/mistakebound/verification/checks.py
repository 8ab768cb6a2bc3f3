"""Checks for your own learner: does it keep its claimed bound, and play by the rules?

Three entry points, after scikit-learn's ``check_estimator`` / ``parametrize_with_checks``
and river's ``check_estimator`` / ``yield_checks``:

* :func:`check_learner` plays the learner against every applicable adversary (the
  registry's by default), in realizable games over classes drawn by hypothesis, plus the exact
  worst-case search (:func:`~mistakebound.theory.worst_case.worst_case_mistakes`) on classes
  small enough, and raises :class:`BoundViolation` with the counterexample shrunk by
  hypothesis: the class matrix, the adversary, the seed, the transcript and a replay.
* :func:`yield_checks` yields small named check functions: the interface checks
  (predictions are labels or probabilities, ``learn_one`` leaves its input alone, clones
  are independent, same seed same transcript) and the bound check when the learner
  claims a bound (its ``bound()`` method, read with
  :func:`~mistakebound.verification.claims.stated_bound`).
* :func:`parametrize_with_checks` turns them into a ``pytest.mark.parametrize``
  decorator, with expected failures declared per learner as ``{check: reason}`` and
  marked ``xfail(strict=True)``: a declared failure that starts passing fails the run.

hypothesis and pytest are imported only inside the functions that need them, so
``import mistakebound`` and ``mistakebound check`` work without the test extra.

Examples
--------
>>> from mistakebound import bounds
>>> from mistakebound.learners import SOA, Halving
>>> check_learner(SOA, bound=bounds.ldim, max_examples=10).violations
0
>>> try:
...     check_learner(Halving, bound=bounds.ldim, max_examples=50)
... except BoundViolation as exc:
...     print(exc.H.n_hypotheses <= 6, exc.replay().mistakes > exc.bound)
True True
"""

from __future__ import annotations

import copy
import functools
import math
import numbers
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
from attrs import define, field, fields, frozen

import mistakebound.game.play as _game
from mistakebound.foundations.errors import GameError, InvalidArgumentError, MistakeboundError, NotApplicableError
from mistakebound.foundations.text import number_text
from mistakebound.foundations.validation import check_int
from mistakebound.game import registry
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import ObliviousAdversary, describe, hyperparameters, is_randomized, rebuild
from mistakebound.game.rules import as_label, as_probability, expected_prediction
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace, Space
from mistakebound.game.transcript import Transcript
from mistakebound.verification.claims import Bound, judge, measured, stated_bound
from mistakebound.verification.strategies import MarginStream, StreamReplay, kept_apart, zoo_adversaries

__all__ = [
    "CheckFailure",
    "GameFailure",
    "BoundViolation",
    "CheckSummary",
    "check_learner",
    "yield_checks",
    "parametrize_with_checks",
    "check_predictions_are_labels",
    "check_learn_one_does_not_mutate_input",
    "check_clone_is_independent",
    "check_same_seed_same_transcript",
    "check_mistake_bound",
    "RandomStream",
]

#: Rows of the transcript and of the class matrix shown in a failure message.
_SHOW_ROWS = 40
#: Rounds of the interface checks' streams.
_STREAM_ROUNDS = 30


# ============================================================== errors
class CheckFailure(MistakeboundError, AssertionError):
    """A learner failed one of the checks of this module.

    It is an ``AssertionError``, so pytest reports it as a test failure.
    """


class GameFailure(CheckFailure):
    """A check's game went wrong for the learner; the game can be replayed.

    Raised as such when the learner broke a rule or raised during a game (the
    :class:`~mistakebound.foundations.errors.GameError` is chained as ``__cause__``); its subclass
    :class:`BoundViolation` when the learner made more mistakes than its bound.

    Attributes
    ----------
    H : HypothesisClass or Space
        The (shrunk) class or space of the game.
    adversary
        The adversary, as it was before the game (:meth:`replay` plays a copy).
    seed : int
        The seed of the game.
    rounds : int
        The horizon of the game.
    transcript : Transcript or None
        The game's transcript (the rounds before the fault, for a crash).
    stream : MarginStream or None
        The stream, when the case was drawn by :func:`~mistakebound.verification.strategies.separable_streams`.
    """

    def __init__(
        self,
        message: str,
        *,
        H: Any,
        adversary: Any,
        seed: int,
        rounds: int,
        transcript: Transcript | None,
        make_learner: Callable[[Any], Any],
        stream: MarginStream | None = None,
    ):
        super().__init__(message)
        self.H = H
        self.adversary = adversary
        self.seed = seed
        self.rounds = rounds
        self.transcript = transcript
        self.stream = stream
        self._make_learner = make_learner

    def replay(self) -> Transcript:
        """Play the game again, with a fresh learner and a copy of the adversary.

        Returns the transcript (for a learner that crashed, the same error is raised).
        """
        learner = self._make_learner(self.H)
        return _game.play(learner, copy.deepcopy(self.adversary), self.H, rounds=self.rounds, seed=self.seed)


class BoundViolation(GameFailure):
    """The learner broke the claimed bound in a realizable game.

    Attributes
    ----------
    bound : float
        The claimed bound on the class of the game.
    mistakes : float
        What the learner made, in the claim's measure (the exact expected number for a
        randomized learner).
    claim : Bound
        The claim, with its measure and its source.

    See :class:`GameFailure` for the rest, and :meth:`GameFailure.replay`.
    """

    def __init__(self, message: str, *, bound: float, mistakes: float, claim: Bound | None = None, **kwargs: Any):
        super().__init__(message, **kwargs)
        self.bound = bound
        self.mistakes = mistakes
        self.claim = claim


# ============================================================== small helpers
def _hypothesis():
    try:
        import hypothesis
        from hypothesis import strategies as st
    except ImportError as exc:  # pragma: no cover - exercised only without the test extra
        raise ImportError(
            "mistakebound.verification.checks.check_learner needs hypothesis; install it with "
            "pip install 'mistakebound[test]' (or pip install hypothesis)"
        ) from exc
    return hypothesis, st


def _is_learner(obj: Any) -> bool:
    """An object that plays (not a type and not a mere factory)."""
    return not isinstance(obj, type) and callable(getattr(obj, "learn_one", None))


def _name_of(obj: Any) -> str:
    """The short name used in ids and tables: the type's name, or the factory's."""
    if isinstance(obj, type):
        return obj.__name__
    if _is_learner(obj):
        return type(obj).__name__
    name = getattr(obj, "__name__", None) or type(obj).__name__
    return "make_learner" if name == "<lambda>" else name


def _evolvable(obj: Any) -> bool:
    """A learner whose ``__init__`` takes the class as ``H`` (it is rebuilt on each class by
    :func:`~mistakebound.game.players.rebuild`)."""
    try:
        return "H" in hyperparameters(obj)
    except InvalidArgumentError:
        return False


def _factory_of(obj: Any, *, param: str = "make_learner") -> Callable[[Any], Any]:
    """``H -> fresh learner`` for a learner type, a factory or a learner instance."""
    if isinstance(obj, type) or (callable(obj) and not _is_learner(obj)):
        return obj
    if not _is_learner(obj):
        raise InvalidArgumentError(
            f"{param}: expected a learner type, a callable H -> learner or a learner, got {obj!r}"
        )
    if _evolvable(obj):
        return lambda H: rebuild(obj, H=H)
    bound_to = getattr(obj, "H", None)
    if isinstance(bound_to, (HypothesisClass, Space)):
        def same_class_only(H: Any) -> Any:
            if H is not bound_to and H != bound_to:
                raise InvalidArgumentError(
                    f"{param}: {type(obj).__name__} is bound to {bound_to.describe()} and cannot be rebuilt on "
                    f"{H.describe()}; pass its type or a callable H -> learner"
                )
            return copy.deepcopy(obj)

        return same_class_only
    return lambda H: copy.deepcopy(obj)


def _six(value: Any) -> str:
    return number_text(value, digits=6)


def _default_measure(learner: Any) -> str:
    """What a bare number claims to bound: mistakes, or the expected number for a randomized learner."""
    return "expected mistakes" if is_randomized(learner) else "mistakes"


def _claims(bound: Any) -> Callable[..., Bound]:
    """``(learner, H, rounds, transcript) -> Bound``: the claim a check tests.

    None: the learner's own claim (:func:`~mistakebound.verification.claims.stated_bound`);
    a number, or a function of the class returning a number or None: that claim, on the
    learner's mistakes (expected mistakes for a randomized learner).
    """
    if bound is None:
        def own(learner: Any, H: Any, rounds: int | None, T: Any) -> Bound:
            return stated_bound(learner, H, rounds=rounds, realizable=True, transcript=T)

        return own
    if callable(bound):
        name = getattr(bound, "__qualname__", None) or getattr(bound, "__name__", None) or repr(bound)
        name = "bound" if name == "<lambda>" else name

        def given(learner: Any, H: Any, rounds: int | None, T: Any) -> Bound:
            value = bound(H)
            if value is None:
                return Bound.none(f"{name} states no bound on {H.describe()}", measure=_default_measure(learner))
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or math.isnan(value) or value < 0:
                raise InvalidArgumentError(
                    f"bound: the bound function returned {value!r} on {H.describe()}; expected a number >= 0 or None"
                )
            return Bound(float(value), _default_measure(learner), f"{name}(H) = {_six(float(value))}")

        return given
    if isinstance(bound, numbers.Real) and not isinstance(bound, bool) and not math.isnan(bound) and bound >= 0:
        fixed = float(bound)
        return lambda learner, H, rounds, T: Bound(fixed, _default_measure(learner), f"the bound {_six(fixed)}")
    raise InvalidArgumentError(
        f"bound: expected None (the learner's own claim), a number >= 0 or a function of the class "
        f"(e.g. bounds.ldim), got {bound!r}"
    )


def _claim_text(claim: Bound) -> str:
    """``"ldim(H) = 1"``, ``"the bound 2"``, or the learner's own claim with its theorem."""
    if claim.source.startswith("the bound ") or "(H) = " in claim.source:
        return claim.source
    return f"its claimed bound {_six(claim.value)} ({claim.source})" if claim.source else f"the bound {_six(claim.value)}"


# ============================================================== streams and RandomStream
def _random_stream(H: Any, n: int, rng: np.random.Generator) -> tuple[list, Any]:
    """``n`` realizable ``(x, y)`` pairs on ``H`` and their certificate."""
    if isinstance(H, HypothesisClass):
        if H.n_instances == 0:
            return [], None
        target = int(rng.integers(0, H.n_hypotheses))
        cols = rng.integers(0, H.n_instances, size=n)
        return [(H.domain[int(j)], int(H.matrix[target, j])) for j in cols], None
    if isinstance(H, LinearSpace):
        R = 1.0 if H.R is None else H.R
        gamma = H.gamma if H.gamma else 0.1 * R
        if gamma > R:
            raise InvalidArgumentError(f"H: {H.describe()} has a margin larger than its radius; no point fits")
        u = rng.standard_normal(H.d)
        u /= np.linalg.norm(u)
        pairs = []
        for _ in range(n):
            s = 1 if rng.random() < 0.5 else -1
            a = rng.uniform(gamma, R)
            w = rng.standard_normal(H.d)
            w -= np.dot(w, u) * u
            norm = np.linalg.norm(w)
            r = rng.uniform(0.0, math.sqrt(max(R * R - a * a, 0.0)))
            x = s * a * u + (r / norm * w if norm > 1e-12 else 0.0)
            pairs.append((x, int(s > 0)))
        return pairs, u
    if isinstance(H, KDisjunctionSpace):
        target = {int(i) for i in rng.choice(H.n, size=H.k, replace=False)}
        pairs = []
        for _ in range(n):
            x = rng.integers(0, 2, size=H.n).astype(np.uint8)
            pairs.append((x, H.label(target, x)))
        return pairs, target
    if isinstance(H, ExpertAdvice):
        best = int(rng.integers(0, H.d))
        pairs = []
        for _ in range(n):
            x = rng.integers(0, 2, size=H.d).astype(float)
            pairs.append((x, int(x[best])))
        return pairs, None
    raise InvalidArgumentError(
        f"H: the checks draw games on a HypothesisClass, LinearSpace, KDisjunctionSpace or ExpertAdvice, "
        f"got {type(H).__name__}"
    )


@define
class RandomStream(ObliviousAdversary):
    """An oblivious adversary that draws a random realizable stream on a class or a space.

    On a finite class: a target hypothesis and uniformly drawn instances.  On halfspaces:
    a random unit comparator and points at distance in ``[gamma, R]`` from its hyperplane
    (``gamma = 0.1 R`` when the space states no margin).  On k-disjunctions: a random
    target of ``k`` variables and random 0/1 vectors.  On expert advice: random 0/1 advice
    labelled by one expert.  Everything comes from the game's generator, and
    :meth:`certificate` gives the witness.  :func:`check_learner` adds it to the
    adversaries of every game on a space.

    Examples
    --------
    >>> from mistakebound import play
    >>> from mistakebound.learners.perceptron import Perceptron
    >>> T = play(Perceptron(), RandomStream(), LinearSpace(3, R=1.0, gamma=0.25), rounds=50, seed=0)
    >>> len(T), T.mistakes <= 16
    (50, True)
    """

    _witness: Any = field(init=False, default=None, repr=False)

    def applies_to(self, H: Any) -> bool:
        return isinstance(H, (HypothesisClass, LinearSpace, KDisjunctionSpace, ExpertAdvice))

    def commit(self, H: Any, rounds: int, rng: np.random.Generator, realizable: bool) -> list:
        pairs, self._witness = _random_stream(H, rounds, rng)
        return pairs

    def certificate(self, state: Any) -> Any:
        """The comparator (halfspaces) or target (disjunctions) of the committed stream."""
        return copy.copy(self._witness)


# ============================================================== check_learner
@frozen
class CheckSummary:
    """What :func:`check_learner` played when no counterexample was found.

    Attributes
    ----------
    cases : int
        Classes (or streams) drawn, with their game seeds.
    games : int
        Games played (each adversary on each case), worst-case replays included.
    searches : int
        Exact worst-case searches run.
    max_mistakes : float
        The most mistakes of any game.
    max_ratio : float
        The largest mistakes / bound (0 when no game had a positive bound).
    violations : int
        Always 0 (a violation raises); kept so a summary reads like a report row.
    refused : int
        Cases skipped because the learner's factory refused the class drawn
        (:class:`~mistakebound.foundations.errors.InvalidArgumentError` or
        :class:`~mistakebound.foundations.errors.NotApplicableError`: a learner that
        needs two instances, say); when it refuses every case, the check raises its error.
    """

    cases: int
    games: int
    searches: int
    max_mistakes: float
    max_ratio: float
    violations: int = 0
    refused: int = 0

    def _repr_html_(self) -> str:
        """What was played, as one line of facts (for notebooks)."""
        from mistakebound.foundations import html_tables as ht

        return ht.panel("check_learner: no counterexample found",
                        [(a.name.replace("_", " "), getattr(self, a.name)) for a in fields(type(self))])


@define
class _Failure:
    kind: str  # "bound" or "error"
    H: Any
    stream: MarginStream | None
    adversary: Any
    adversary_expr: str
    adversary_imports: tuple
    seed: int
    rounds: int
    transcript: Transcript | None
    measured: float | None = None
    claim: Bound | None = None
    error: BaseException | None = None


@define
class _Stats:
    cases: int = 0
    games: int = 0
    searches: int = 0
    max_mistakes: float = 0
    max_ratio: float = 0.0
    refused: int = 0

    def add(self, value: float, ratio: float | None) -> None:
        self.games += 1
        self.max_mistakes = max(self.max_mistakes, value)
        if ratio is not None:
            self.max_ratio = max(self.max_ratio, ratio)


class _Refused(Exception):
    """The learner's factory refused a class (its error is the cause)."""


def _adversary_factories(adversaries: Any) -> Callable[[Any], list[Any]]:
    """``H -> fresh adversaries that apply to H``: the registry's (default), or those given."""
    if adversaries is None:
        return zoo_adversaries
    if isinstance(adversaries, (str, bytes)) or not isinstance(adversaries, Sequence):
        adversaries = [adversaries]
    makers: list[Callable[[], Any]] = []
    for a in adversaries:
        if isinstance(a, type):
            makers.append(a)
        elif callable(getattr(a, "next_instance", None)) or callable(getattr(a, "commit", None)):
            makers.append(functools.partial(copy.deepcopy, a))
        elif callable(a):
            makers.append(a)
        else:
            raise InvalidArgumentError(
                f"adversaries: expected adversary types, adversaries or zero-argument factories, got {a!r}"
            )

    def given(H: Any) -> list[Any]:
        out = []
        for make in makers:
            adversary = make()
            applies = getattr(adversary, "applies_to", None)
            if applies is None or applies(H):
                out.append(adversary)
        return out

    return given


def _classes_strategy(classes: Any, st: Any) -> Any:
    from hypothesis.strategies import SearchStrategy

    from mistakebound.verification.strategies import hypothesis_classes

    if classes is None:
        return hypothesis_classes()
    if isinstance(classes, SearchStrategy):
        return classes
    if isinstance(classes, (HypothesisClass, Space, MarginStream)):
        return st.just(classes)
    if isinstance(classes, Sequence) and classes and all(isinstance(c, (HypothesisClass, Space, MarginStream)) for c in classes):
        return st.sampled_from(list(classes))
    raise InvalidArgumentError(
        "classes: expected a hypothesis strategy, a HypothesisClass, a Space, a MarginStream "
        f"or a non-empty list of them, got {classes!r}"
    )


def _seeds_strategy(game_seeds: Any, st: Any) -> Any:
    from hypothesis.strategies import SearchStrategy

    if game_seeds is None:
        return st.integers(0, 2**32 - 1)
    if isinstance(game_seeds, SearchStrategy):
        return game_seeds
    if isinstance(game_seeds, (list, tuple)) and game_seeds:
        return st.sampled_from([check_int("game_seeds[]", s, 0) for s in game_seeds])
    raise InvalidArgumentError(
        f"game_seeds: expected None, a non-empty list of integers >= 0 or a hypothesis strategy, got {game_seeds!r}"
    )


def _import_line(obj: Any) -> str | None:
    """``from module import name`` for a module-level class or function, else None."""
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", "")
    if not module or "<" in qualname or module == "__main__":
        return None
    return f"from {module} import {qualname.split('.')[0]}"


def _learner_expr(make_learner: Any) -> tuple[str, tuple]:
    if isinstance(make_learner, type):
        line = _import_line(make_learner)
        return f"{make_learner.__name__}(H)", (line,) if line else ()
    if _is_learner(make_learner):
        return f"make_learner(H)  # rebuilds your {type(make_learner).__name__}", ()
    name = getattr(make_learner, "__name__", "<lambda>")
    line = _import_line(make_learner)
    if name == "<lambda>" or line is None:
        return "make_learner(H)  # make_learner: the callable you passed", ()
    return f"{name}(H)", (line,)


def _adversary_expr(adversary: Any) -> tuple[str, tuple]:
    if isinstance(adversary, StreamReplay):
        return "S.adversary()", ()
    line = _import_line(type(adversary))
    expr = describe(adversary)
    return expr if "(" in expr else expr + "()", (line,) if line else ()


def _format_class(H: HypothesisClass) -> list[str]:
    lines = [f"  domain: {H.domain!r}" if len(H.domain) <= 30 else f"  domain: {H.domain[:30]!r}... ({H.n_instances} instances)"]
    for i, row in enumerate(H.matrix[:_SHOW_ROWS]):
        bits = " ".join(str(int(b)) for b in row[:60]) + (" ..." if H.n_instances > 60 else "")
        lines.append(f"  {H.hypothesis_name(i):>4}: {bits}")
    if H.n_hypotheses > _SHOW_ROWS:
        lines.append(f"  ... ({H.n_hypotheses - _SHOW_ROWS} more rows)")
    return lines


def _format_transcript(T: Transcript | None) -> list[str]:
    if T is None or not len(T):
        return ["  (no rounds)"]
    lines = ["  " + line for line in T.format_table(limit=_SHOW_ROWS).splitlines()]
    if len(T) > _SHOW_ROWS:
        lines.append(f"  ... ({len(T) - _SHOW_ROWS} more rounds)")
    return lines


def _snippet(f: _Failure, make_learner: Any) -> list[str]:
    learner_expr, learner_imports = _learner_expr(make_learner)
    table = f.stream is None and isinstance(f.H, HypothesisClass)
    imports = [f"from mistakebound import {'HypothesisClass, ' * table}play", *learner_imports, *f.adversary_imports]
    body = []
    if "  #" in learner_expr:
        body.append("#" + learner_expr.split("  #", 1)[1])
    if f.stream is not None:
        imports.append("from mistakebound.verification.strategies import MarginStream")
        s = f.stream
        body += [f"S = MarginStream(pairs={s.pairs!r}, comparator={s.comparator!r}, gamma={s.gamma!r}, R={s.R!r})",
                 "H = S.space"]
    elif isinstance(f.H, HypothesisClass):
        domain = "" if f.H.domain == tuple(range(f.H.n_instances)) else f", domain={list(f.H.domain)!r}"
        body.append(f"H = HypothesisClass.from_matrix({f.H.matrix.tolist()!r}{domain})")
    else:
        line = _import_line(type(f.H))
        if line:
            imports.append(line)
        body.append(f"H = {f.H!r}")
    call = f"T = play({learner_expr.split('  #')[0]}, {f.adversary_expr}, H, rounds={f.rounds}, seed={f.seed})"
    body.append(call)
    seen: list[str] = []
    for line in imports:
        if line not in seen:
            seen.append(line)
    return ["  " + line for line in seen + body]


def _failure_message(f: _Failure, make_learner: Any, shrunk_from: int) -> str:
    who = _name_of(make_learner)
    where = f.stream.space.describe() if f.stream is not None else f.H.describe()
    if f.kind == "bound":
        what = "mistake" if f.claim.measure == "mistakes" else f.claim.measure.replace("mistakes", "mistake")
        plural = "" if f.measured == 1 or f.claim.measure == "regret" else "s"
        head = (
            f"{who} made {_six(f.measured)} {what}{plural}, more than {_claim_text(f.claim)}, "
            f"against {describe(f.adversary)} on {where} (seed {f.seed})"
        )
    else:
        head = f"{who} failed during a game against {describe(f.adversary)} on {where} (seed {f.seed}): {f.error}"
    lines = [head, f"counterexample shrunk by hypothesis ({shrunk_from} cases tried):"]
    if f.stream is not None:
        lines.append(f"stream ({len(f.stream)} rounds, comparator {f.stream.comparator!r}, gamma {f.stream.gamma:g}, R {f.stream.R:g})")
    elif isinstance(f.H, HypothesisClass):
        lines.append(f"class matrix ({f.H.n_hypotheses} hypotheses x {f.H.n_instances} instances; rows are hypotheses):")
        lines += _format_class(f.H)
    else:
        lines.append(f"space: {f.H!r}")
    lines.append(f"adversary: {describe(f.adversary)}")
    lines.append(f"seed: {f.seed}   rounds: {f.rounds}")
    lines.append("transcript:" if f.kind == "bound" else "transcript (rounds before the fault):")
    lines += _format_transcript(f.transcript)
    if f.kind == "bound":
        lines.append(f"bound: {_claim_text(f.claim)}; {f.claim.measure}: {_six(f.measured)}")
    lines.append("replay with exc.replay(), or:")
    lines += _snippet(f, make_learner)
    return "\n".join(lines)


def _without(H: HypothesisClass, *, row: int | None = None, column: int | None = None) -> HypothesisClass:
    M = H.matrix
    if row is not None:
        return HypothesisClass.from_matrix(np.delete(M, row, axis=0), H.domain)
    domain = H.domain[:column] + H.domain[column + 1:]
    if H.domain == tuple(range(H.n_instances)):
        domain = None  # keep the default domain 0, 1, ... of a generated class
    return HypothesisClass.from_matrix(np.delete(M, column, axis=1), domain)


def _all_distinct(M: np.ndarray) -> bool:
    """Whether no two rows of ``M`` are equal."""
    return len({row.tobytes() for row in np.ascontiguousarray(M)}) == len(M)


def _delete_rows_and_columns(case: tuple, fails: Callable[[tuple], bool],
                             apart: tuple[bool, bool] = (False, False)) -> tuple:
    """Delete rows, then columns, one at a time while the case still fails, to a fixed point.

    hypothesis shrinks the draws; this finishes the job on the class itself, so the
    counterexample is 1-minimal: removing any single row or column makes it pass, or
    gives a class the learner cannot be built on.  It never builds a class without a
    hypothesis or without an instance, nor, with ``apart`` (what the strategy keeps apart on
    every draw, :func:`~mistakebound.verification.strategies.kept_apart`), repeats rows or
    columns, and a smaller class on which ``fails`` raises
    (the learner's factory refusing it, say) is not taken: the case returned always
    failed.
    """
    H, case_seed = case
    if not isinstance(H, HypothesisClass):
        return case
    progress = True
    while progress:
        progress = False
        candidates = [dict(row=i) for i in range(H.n_hypotheses)] if H.n_hypotheses > 1 else []
        candidates += [dict(column=j) for j in range(H.n_instances)] if H.n_instances > 1 else []
        for where in candidates:
            try:
                smaller = _without(H, **where)
                kept = (not apart[0] or _all_distinct(smaller.matrix),  # checked only where promised
                        not apart[1] or _all_distinct(smaller.matrix.T))
                failed = all(kept) and fails((smaller, case_seed))
            except Exception:  # noqa: BLE001 - not a smaller counterexample: stop at the last valid class
                failed = False
            if failed:
                H, progress = smaller, True
                break
    return H, case_seed


def check_learner(
    make_learner: Any,
    *,
    bound: Any = None,
    classes: Any = None,
    adversaries: Any = None,
    max_examples: int = 50,
    seed: int = 0,
    rounds: int | None = None,
    game_seeds: Any = None,
    worst_case: bool = True,
    worst_case_max_hypotheses: int = 10,
    worst_case_max_nodes: int = 5_000,
) -> CheckSummary:
    """Check that a learner keeps a claimed bound in every realizable game it is put through.

    For each case hypothesis draws (a class and a game seed), a fresh learner plays
    every applicable adversary; on a finite class of at most
    ``worst_case_max_hypotheses`` hypotheses the exact worst case is searched too, and
    its optimal line played (:class:`~mistakebound.adversaries.MinimaxAdversary`).  Each
    game is judged by :func:`~mistakebound.verification.claims.judge`, as in every other
    front end.  A game that breaks the claim (by default the learner's own,
    :func:`~mistakebound.verification.claims.stated_bound`), or in which the learner
    breaks a rule or raises, is a counterexample;
    hypothesis shrinks it, rows and columns of a drawn class are then deleted one at a
    time while it still fails (so every row and column of the class shown matters),
    and the error shows it.  A class you name yourself is reported whole.

    Parameters
    ----------
    make_learner : type or callable
        Builds a fresh learner for a class: a learner type such as ``Halving``, or any
        callable ``H -> learner`` (``lambda H: Perceptron()``).  A learner instance is
        accepted too: a learner whose ``__init__`` takes ``H`` is rebuilt on each class, a
        learner without a class is copied.
    bound : None, float or callable
        The claim to test.  None (the default): the learner's own claim for each game,
        read with :func:`~mistakebound.verification.claims.stated_bound`.  A number, or a
        function of the class (or space) such as :func:`mistakebound.verification.bounds.ldim`:
        a claim on the learner's mistakes (the exact expected number for a randomized
        learner).  A game without a claim is still played, for the rules.
    classes : strategy, class, space or list, optional
        Where to play: a hypothesis strategy of classes, spaces or
        :class:`~mistakebound.verification.strategies.MarginStream` s (from
        :func:`~mistakebound.verification.strategies.separable_streams`: the stream is one adversary,
        on its space), one of those, or a list to sample from.  Default:
        :func:`~mistakebound.verification.strategies.hypothesis_classes`.
    adversaries : sequence, optional
        Adversary types, instances (copied for each game) or zero-argument factories.
        Default: every adversary of the registry (:mod:`mistakebound.game.registry`) that
        can be built for the class.  Those that do not apply to a class are skipped on
        it; every game on a space also gets a :class:`RandomStream`.
    max_examples : int
        Cases hypothesis draws before it gives up looking.
    seed : int
        Seeds hypothesis's search, so a run is reproducible.
    rounds : int, optional
        The horizon of each game; default ``2 (|X| + |H|) + 2`` on a finite class, the
        stream's length for a stream and 60 on a space.
    game_seeds : list of int or strategy, optional
        The seeds of the games (each case draws one); default any seed in ``[0, 2^32)``.
        A list replays given games.
    worst_case : bool
        Whether to run the exact worst-case search on small classes, when the learner has
        a claim there.  It needs the learner's ``state_key()`` to merge positions; without
        it the search is cut at ``floor(claim) + 2`` rounds.
    worst_case_max_hypotheses, worst_case_max_nodes : int
        The largest class searched, and the search's budget of positions (past it the
        best line found so far is played).

    Returns
    -------
    CheckSummary
        What was played, when no counterexample was found.

    Raises
    ------
    BoundViolation
        With the shrunk counterexample, when the learner breaks the claim.
    GameFailure
        When the learner breaks a rule or raises during a game.
    InvalidArgumentError
        For a bad argument.

    Examples
    --------
    >>> from mistakebound import bounds, classes
    >>> from mistakebound.learners import Halving
    >>> check_learner(Halving, max_examples=5).violations  # its own claim, log2 |H| (Theorem 21.3)
    0
    >>> check_learner(Halving, bound=0, classes=classes.thresholds(2), max_examples=5)
    Traceback (most recent call last):
    ...
    mistakebound.verification.checks.BoundViolation: Halving made 1 mistake, more than the bound 0, against OppositeLabel on thresholds(2) (seed 0)
    ...
    """
    __tracebackhide__ = True  # pytest shows the failure, not this frame
    hypothesis, st = _hypothesis()
    given_factory = _factory_of(make_learner)

    def factory(H: Any) -> Any:
        try:
            return given_factory(H)
        except (InvalidArgumentError, NotApplicableError) as exc:  # "not on this class"
            raise _Refused(str(exc)) from exc
    claim_of = _claims(bound)
    max_examples = check_int("max_examples", max_examples, 1)
    seed = check_int("seed", seed, 0)
    worst_case_max_hypotheses = check_int("worst_case_max_hypotheses", worst_case_max_hypotheses, 0)
    worst_case_max_nodes = check_int("worst_case_max_nodes", worst_case_max_nodes, 1)
    rounds = check_int("rounds", rounds, 1, optional=True)
    cases = st.tuples(_classes_strategy(classes, st), _seeds_strategy(game_seeds, st))
    generated = classes is None or isinstance(classes, hypothesis.strategies.SearchStrategy)
    opponents = _adversary_factories(adversaries)
    stats = _Stats()

    def horizon_of(H: Any, stream: MarginStream | None) -> int:
        if rounds is not None:
            return int(rounds)
        if stream is not None:
            return max(len(stream), 1)
        if isinstance(H, HypothesisClass):
            return 2 * (H.n_instances + H.n_hypotheses) + 2
        return 60

    def one_game(H, adversary, adversary_expr, imports, case_seed, n, stream) -> _Failure | None:
        pristine = copy.deepcopy(adversary)
        failure = functools.partial(
            _Failure, H=H, stream=stream, adversary=pristine, adversary_expr=adversary_expr,
            adversary_imports=imports, seed=case_seed, rounds=n,
        )
        try:
            learner = factory(H)
            T = _game.play(learner, adversary, H, rounds=n, seed=case_seed)
        except GameError as exc:
            if exc.player != "learner":
                raise
            return failure(kind="error", transcript=exc.transcript, error=exc)
        claim = claim_of(learner, H, n, T)
        value = measured(T, claim.measure)
        verdict = judge(value, claim)
        stats.add(value, verdict.ratio)
        if verdict.broken:
            return failure(kind="bound", transcript=T, measured=value, claim=claim)
        return None

    def search(H: HypothesisClass, case_seed: int, n: int) -> _Failure | None:
        from mistakebound.theory.search import SearchInterrupted
        from mistakebound.theory.worst_case import worst_case_mistakes

        learner = factory(H)
        claim = claim_of(learner, H, None, None)
        if not claim.stated:
            return None
        b = claim.value
        options = {"max_nodes": int(worst_case_max_nodes)}
        if not callable(getattr(learner, "state_key", None)):
            options["horizon"] = int(math.floor(b)) + 2 if math.isfinite(b) else n
        try:
            W = worst_case_mistakes(learner, H, **options)
        except InvalidArgumentError as exc:
            if "horizon" in options or not str(exc).startswith("horizon"):
                raise
            options["horizon"] = int(math.floor(b)) + 2 if math.isfinite(b) else n
            W = worst_case_mistakes(factory(H), H, **options)
        if W.status == "interrupted":
            raise SearchInterrupted(W)  # Ctrl-C stops the check, as it stops every search
        stats.searches += 1
        if not judge(W, claim).broken:  # broken only when the line the search found exceeds the claim
            return None
        extra = "".join(f", {k}={v}" for k, v in sorted(options.items()))
        learner_expr, learner_imports = _learner_expr(make_learner)
        expr = f"MinimaxAdversary(worst_case_mistakes({learner_expr.split('  #')[0]}, H{extra}).witness)"
        imports = ("from mistakebound.adversaries import MinimaxAdversary",
                   "from mistakebound.theory.worst_case import worst_case_mistakes")
        horizon = max(n, len(W.line))
        replay = registry.find("adversary", "MinimaxAdversary").target(W.witness)
        return one_game(H, replay, expr, imports, case_seed, horizon, None)

    def evaluate(case: tuple) -> _Failure | None:
        item, case_seed = case
        stats.cases += 1
        stream = item if isinstance(item, MarginStream) else None
        H = stream.space if stream is not None else item
        n = horizon_of(H, stream)
        games = []
        if stream is not None:
            games.append(stream.adversary())
        games += opponents(H)
        if isinstance(H, Space) and stream is None:
            games.append(RandomStream())
        for adversary in games:
            expr, imports = _adversary_expr(adversary)
            found = one_game(H, adversary, expr, imports, case_seed, n, stream)
            if found is not None:
                return found
        if worst_case and isinstance(H, HypothesisClass) and H.n_hypotheses <= worst_case_max_hypotheses:
            return search(H, case_seed, n)
        return None

    settings = hypothesis.settings(
        max_examples=int(max_examples), database=None, deadline=None, print_blob=False,
        phases=(hypothesis.Phase.generate, hypothesis.Phase.shrink),
    )
    found: list = []  # the last counterexample found and its failure: never lost while shrinking
    refusals: list = []  # the factory's first refusal of a drawn class

    def fails(case: tuple) -> bool:
        try:
            f = evaluate(case)
        except _Refused as refused:
            if not found:  # a class drawn that the learner does not take: skipped, and counted
                stats.refused += 1
                refusals[:1] = refusals[:1] or [refused.__cause__]
            return False
        except Exception:  # noqa: BLE001
            if found:  # shrinking: a case a player cannot take is no smaller counterexample
                return False
            raise  # before any counterexample: the caller's learner or classes are at fault
        if f is not None:
            found[:] = [case, f]
        return f is not None

    try:
        minimal = hypothesis.find(cases, fails, settings=settings, random=random.Random(seed))
    except hypothesis.errors.NoSuchExample:
        if refusals and stats.refused >= stats.cases:  # it took none of the classes drawn
            raise refusals[0]
        return CheckSummary(cases=stats.cases, games=stats.games, searches=stats.searches,
                            max_mistakes=stats.max_mistakes, max_ratio=stats.max_ratio, refused=stats.refused)
    except Exception:  # noqa: BLE001 - hypothesis gave up while shrinking: report what was found
        if not found:
            raise
        minimal = found[0]
    if generated:  # a class the caller named is reported as it is, not a sub-class of it
        minimal = _delete_rows_and_columns(minimal, fails, kept_apart(classes))
    tried = stats.cases
    try:
        f = evaluate(minimal)
    except Exception:  # noqa: BLE001 - the replay raised: report the counterexample as it was found
        if not found:
            raise
        f = found[1]
    if f is None:
        raise CheckFailure(
            f"{_name_of(make_learner)} failed on {minimal!r} during the search but not when replayed: "
            "its games are not reproducible from the seed (see check_same_seed_same_transcript)"
        )
    message = _failure_message(f, make_learner, tried)
    common = dict(H=f.H, adversary=f.adversary, seed=f.seed, rounds=f.rounds, transcript=f.transcript,
                  make_learner=given_factory, stream=f.stream)
    if f.kind == "bound":
        raise BoundViolation(message, bound=f.claim.value, mistakes=f.measured, claim=f.claim, **common)
    raise GameFailure(message, **common) from f.error


# ============================================================== yield_checks
def _default_class() -> HypothesisClass:
    """Monotone disjunctions over {0,1}^3 plus a duplicate row: vectors, a constant column, a constant row."""
    from mistakebound.game import classes

    H = classes.monotone_disjunctions(3)
    M = np.vstack([H.matrix, H.matrix[1:2]])
    names = list(H.names) + [H.names[1] + " (again)"]
    return HypothesisClass.from_matrix(M, H.domain, names, name="monotone_disjunctions(3) + a duplicate row")


@define
class _Subject:
    """A learner under check: how to make fresh ones, and the class or space it plays on."""

    name: str
    factory: Callable[[Any], Any]
    H: Any
    explicit: bool
    rebuildable: bool

    def fresh(self) -> Any:
        return self.factory(self.H)


def _subject(obj: Any, H: Any = None) -> _Subject:
    if H is not None and not isinstance(H, (HypothesisClass, Space)):
        raise InvalidArgumentError(f"H: expected None, a HypothesisClass or a Space, got {type(H).__name__}")
    own = getattr(obj, "H", None) if _is_learner(obj) else None
    playground = H if H is not None else own if isinstance(own, (HypothesisClass, Space)) else _default_class()
    rebuildable = not _is_learner(obj) or _evolvable(obj) or not isinstance(own, (HypothesisClass, Space))
    return _Subject(_name_of(obj), _factory_of(obj, param="learner"), playground, H is not None, rebuildable)


def _shown(H: Any, x: Any) -> Any:
    """The instance as a learner receives it, but writable (a fresh array on a space)."""
    if isinstance(H, HypothesisClass):
        return x
    return np.array(x, copy=True)


def _stream_of(subject: _Subject, seed: int) -> list:
    pairs, _ = _random_stream(subject.H, _STREAM_ROUNDS, np.random.default_rng(seed))
    return pairs


def _predict(learner: Any, x: Any) -> Any:
    return learner.predict_proba_one(x) if is_randomized(learner) else learner.predict_one(x)


def _wrapped(check: Callable, **options: Any) -> Callable:
    bound = functools.partial(check, **options)
    functools.update_wrapper(bound, check)
    return bound


def check_predictions_are_labels(learner: Any, *, H: Any = None, seed: int = 0) -> None:
    """Predictions are labels 0/1 (``predict_one``) or probabilities in [0, 1] (``predict_proba_one``).

    The method checked is the one the engine calls: ``predict_proba_one`` for a
    randomized learner (one that has it), ``predict_one`` otherwise.  A fresh learner predicts and learns along a random realizable stream on ``H`` (the
    learner's own class, or a small default class); every answer must be one the engine
    accepts.

    Parameters
    ----------
    learner : learner, type or callable
        A learner, or what builds one for a class (as in :func:`check_learner`).
    H : HypothesisClass or Space, optional
    seed : int

    Raises
    ------
    CheckFailure

    Examples
    --------
    >>> from mistakebound.learners import Halving
    >>> check_predictions_are_labels(Halving)
    """
    __tracebackhide__ = True  # pytest shows the failure, not this frame
    subject = _subject(learner, H)
    L = subject.fresh()
    # the method the engine calls: predict_proba_one when there is one, else predict_one
    methods = ["predict_proba_one"] if is_randomized(L) else ["predict_one"]
    if not callable(getattr(L, methods[0], None)):
        raise CheckFailure(f"{subject.name} has neither predict_one nor predict_proba_one")
    for t, (x, y) in enumerate(_stream_of(subject, seed), start=1):
        shown = _shown(subject.H, x)
        for method in methods:
            value = getattr(L, method)(shown)
            if method == "predict_one" and as_label(value) is None:
                raise CheckFailure(
                    f"{subject.name}.predict_one returned {value!r} in round {t} (x = {x!r}); "
                    f"expected {expected_prediction(False)}"
                )
            if method == "predict_proba_one" and as_probability(value) is None:
                raise CheckFailure(
                    f"{subject.name}.predict_proba_one returned {value!r} in round {t} (x = {x!r}); "
                    f"expected {expected_prediction(True)}"
                )
        L.learn_one(shown, y)


def check_learn_one_does_not_mutate_input(learner: Any, *, H: Any = None, seed: int = 0) -> None:
    """``predict_one`` and ``learn_one`` leave the instance they are given as it was.

    On a space the learner gets writable copies of each vector (the engine hands out
    read-only ones, so a learner that writes into ``x`` would crash there): after each
    call the copy must still equal the original.

    Raises
    ------
    CheckFailure

    Examples
    --------
    >>> from mistakebound.learners.perceptron import Perceptron
    >>> from mistakebound.game.spaces import LinearSpace
    >>> check_learn_one_does_not_mutate_input(Perceptron(), H=LinearSpace(3, R=1.0, gamma=0.25))
    """
    __tracebackhide__ = True  # pytest shows the failure, not this frame
    subject = _subject(learner, H)
    L = subject.fresh()
    for t, (x, y) in enumerate(_stream_of(subject, seed), start=1):
        shown = _shown(subject.H, x)
        before = copy.deepcopy(shown)
        _predict(L, shown)
        for step in ("predict", "learn_one"):
            if step == "learn_one":
                L.learn_one(shown, y)
            same = np.array_equal(shown, before) if isinstance(shown, np.ndarray) else shown == before
            if not same:
                raise CheckFailure(
                    f"{subject.name}.{'predict_one' if step == 'predict' else 'learn_one'} changed its input in "
                    f"round {t}: x was {before!r}, it is now {shown!r}; copy x before writing into it"
                )


def check_clone_is_independent(learner: Any, *, H: Any = None, seed: int = 0) -> None:
    """``clone()`` gives an untrained learner that shares no state with the original.

    Clones of a fresh learner learn the stream, the stream with flipped labels, all 0
    and all 1: the original must still predict exactly as before.  Then the learner
    learns half the stream, and a clone of it must predict like a fresh learner.

    Raises
    ------
    CheckFailure

    Examples
    --------
    >>> from mistakebound.learners import SOA
    >>> check_clone_is_independent(SOA)
    """
    __tracebackhide__ = True  # pytest shows the failure, not this frame
    subject = _subject(learner, H)
    pairs = _stream_of(subject, seed)
    probes = [_shown(subject.H, x) for x, _ in pairs]
    L = subject.fresh()
    if not callable(getattr(L, "clone", None)):
        raise CheckFailure(f"{subject.name} has no clone() method")
    untrained = [_predict(L, x) for x in probes]
    lessons = {
        "the stream": [y for _, y in pairs],
        "the stream with flipped labels": [1 - y for _, y in pairs],
        "label 0 everywhere": [0] * len(pairs),
        "label 1 everywhere": [1] * len(pairs),
    }
    for lesson, labels in lessons.items():
        try:
            C = L.clone()
        except InvalidArgumentError as exc:  # a hyperparameter clone() cannot read back (players.hyperparameters)
            raise CheckFailure(f"{subject.name}.clone() cannot rebuild the learner: {exc}") from exc
        for (x, _), y in zip(pairs, labels):
            try:
                C.learn_one(_shown(subject.H, x), y)
            except Exception:  # noqa: BLE001 - contradictory labels may be refused; only sharing matters here
                break
        after = [_predict(L, x) for x in probes]
        if after != untrained:
            t = next(i for i, (a, b) in enumerate(zip(after, untrained)) if a != b)
            raise CheckFailure(
                f"{subject.name}: learning on a clone changed the original: after a clone learned {lesson}, "
                f"on x = {pairs[t][0]!r} the original predicts {after[t]!r} instead of {untrained[t]!r}; "
                "clone() must not share mutable state"
            )
    for x, y in pairs[: len(pairs) // 2]:
        L.learn_one(_shown(subject.H, x), y)
    fresh = [_predict(L.clone(), x) for x in probes]
    if fresh != untrained:
        t = next(i for i, (a, b) in enumerate(zip(fresh, untrained)) if a != b)
        raise CheckFailure(
            f"{subject.name}.clone() of a trained learner is not untrained: on x = {pairs[t][0]!r} the clone "
            f"predicts {fresh[t]!r}, a fresh learner {untrained[t]!r}"
        )


def check_same_seed_same_transcript(learner: Any, *, H: Any = None, seed: int = 0) -> None:
    """Two fresh learners in two games with the same seed produce the same transcript.

    The games are against ``OppositeLabel`` (adaptive) and ``ObliviousCoin`` on a finite
    class, and a :class:`RandomStream` on a space.  A learner that draws from global
    random state, or from anything but the seed it is given, fails.

    Raises
    ------
    CheckFailure

    Examples
    --------
    >>> from mistakebound.learners import Consistent
    >>> check_same_seed_same_transcript(Consistent)
    """
    __tracebackhide__ = True  # pytest shows the failure, not this frame
    subject = _subject(learner, H)
    if isinstance(subject.H, HypothesisClass):
        opponents = [functools.partial(registry.build, "adversary", name, subject.H)
                     for name in ("OppositeLabel", "ObliviousCoin")]
    else:
        opponents = [RandomStream]
    for make in opponents:
        first, second = (
            _game.play(subject.fresh(), make(), subject.H, rounds=_STREAM_ROUNDS, seed=1000 + seed) for _ in range(2)
        )
        if first.rounds != second.rounds:
            t = next(
                (i for i, (a, b) in enumerate(zip(first.rounds, second.rounds)) if a != b),
                min(len(first), len(second)),
            )
            a = first.rounds[t] if t < len(first) else "(ended)"
            b = second.rounds[t] if t < len(second) else "(ended)"
            raise CheckFailure(
                f"{subject.name}: two games against {describe(make())} with seed {1000 + seed} differ in round {t + 1}: "
                f"{a} then {b}; draw every random choice from a seed passed in"
            )


def _claims_something(subject: _Subject) -> bool:
    """Whether the learner claims a bound on the subject's class or space (a claim that raises counts,
    so that the bound check is yielded and shows the error)."""
    try:
        L = subject.fresh()
    except Exception:  # noqa: BLE001 - the interface checks will report it
        return False
    try:
        return stated_bound(L, subject.H).stated
    except MistakeboundError:
        return True


def check_mistake_bound(learner: Any, *, H: Any = None, max_examples: int = 20, seed: int = 0) -> None:
    """The learner keeps its own claim, ``bound()`` (:func:`check_learner` with ``bound=None``).

    On finite classes the classes are drawn by
    :func:`~mistakebound.verification.strategies.hypothesis_classes` (only ``H`` itself when it is given,
    or when the learner is bound to its class and cannot be rebuilt); on halfspaces with a
    radius and a margin, streams by :func:`~mistakebound.verification.strategies.separable_streams`.

    Raises
    ------
    BoundViolation, GameFailure

    Examples
    --------
    >>> from mistakebound.learners import Consistent
    >>> check_mistake_bound(Consistent, max_examples=5)
    """
    __tracebackhide__ = True  # pytest shows the failure, not this frame
    from mistakebound.verification.strategies import separable_streams

    subject = _subject(learner, H)
    if not _claims_something(subject):
        raise CheckFailure(f"{subject.name} claims no bound on {subject.H.describe()}")
    where = subject.H
    if isinstance(where, LinearSpace):
        classes: Any = separable_streams(d=where.d, gamma=where.gamma, R=where.R)
    elif isinstance(where, HypothesisClass) and subject.rebuildable and not subject.explicit:
        classes = None
    else:
        classes = where
    check_learner(subject.factory, classes=classes, max_examples=max_examples, seed=seed)


def yield_checks(learner: Any, *, H: Any = None, max_examples: int = 20, seed: int = 0) -> Iterator[Callable]:
    """The checks that apply to a learner, as functions of the learner.

    Each yielded function has the ``__name__`` of its check and takes the learner (or
    type, or factory) as its only argument, as river's ``yield_checks``; the options
    given here are bound into it.

    Parameters
    ----------
    learner : learner, type or callable
        What to check: a learner (copied, never modified), a learner type, or a callable
        ``H -> learner``.
    H : HypothesisClass or Space, optional
        Where the checks play.  Default: the learner's own ``H`` if it has one, else a
        small class over 0/1 vectors (monotone disjunctions over {0,1}^3 with a duplicate
        row).  A learner of vectors (a Perceptron) works on it; for the bound check give
        a ``LinearSpace`` with ``R`` and ``gamma``.
    max_examples : int
        For the bound check.
    seed : int

    Yields
    ------
    callable
        ``check_predictions_are_labels``, ``check_learn_one_does_not_mutate_input``,
        ``check_clone_is_independent`` (when the learner has ``clone``),
        ``check_same_seed_same_transcript`` and ``check_mistake_bound`` (when the
        learner claims a bound for ``H``, :func:`~mistakebound.verification.claims.stated_bound`).

    Examples
    --------
    >>> from mistakebound.learners import Halving
    >>> [check.__name__ for check in yield_checks(Halving)]  # doctest: +NORMALIZE_WHITESPACE
    ['check_predictions_are_labels', 'check_learn_one_does_not_mutate_input', 'check_clone_is_independent',
     'check_same_seed_same_transcript', 'check_mistake_bound']
    >>> for check in yield_checks(Halving):
    ...     check(Halving)
    """
    subject = _subject(learner, H)
    yield _wrapped(check_predictions_are_labels, H=H, seed=seed)
    yield _wrapped(check_learn_one_does_not_mutate_input, H=H, seed=seed)
    try:
        has_clone = callable(getattr(subject.fresh(), "clone", None))
    except Exception:  # noqa: BLE001 - the other checks will report it
        has_clone = True
    if has_clone:
        yield _wrapped(check_clone_is_independent, H=H, seed=seed)
    yield _wrapped(check_same_seed_same_transcript, H=H, seed=seed)
    if _claims_something(subject):
        yield _wrapped(check_mistake_bound, H=H, max_examples=max_examples, seed=seed)


def parametrize_with_checks(
    learners: Sequence[Any],
    *,
    expected_failures: dict | None = None,
    H: Any = None,
    max_examples: int = 20,
    seed: int = 0,
):
    """A ``pytest.mark.parametrize`` decorator running every check on every learner.

    The test it decorates takes ``learner`` and ``check`` and calls ``check(learner)``.
    Test ids read ``"Learner-check_name"``.  A check declared in ``expected_failures``
    is marked ``pytest.mark.xfail(reason=..., strict=True)``: it is reported as an
    expected failure, and fails the run if it passes.  Nothing is skipped silently:
    a declared check or learner that does not exist is an error.

    Parameters
    ----------
    learners : sequence
        Learners, learner types or factories (as :func:`yield_checks` takes them).
    expected_failures : dict, optional
        ``{learner_or_type: {"check_name": "reason"}}``; a key matches an entry of
        ``learners`` that is it, or whose type it is.
    H, max_examples, seed
        Passed to :func:`yield_checks`.

    Returns
    -------
    pytest.MarkDecorator

    Raises
    ------
    InvalidArgumentError
        For an expected failure naming an unknown check or learner, or without a reason.

    Examples
    --------
    >>> from mistakebound.learners import SOA, Halving
    >>> @parametrize_with_checks([SOA, Halving], expected_failures={Halving: {"check_mistake_bound": "why"}})
    ... def test_learner(learner, check):
    ...     check(learner)
    >>> [p.id for p in test_learner.pytestmark[0].args[1]][:2]
    ['SOA-check_predictions_are_labels', 'SOA-check_learn_one_does_not_mutate_input']
    """
    import pytest

    declared = dict(expected_failures or {})
    for key, fails in declared.items():
        if not isinstance(fails, dict) or not all(isinstance(k, str) and isinstance(v, str) and v for k, v in fails.items()):
            raise InvalidArgumentError(
                f"expected_failures: for {_name_of(key)} expected a dict {{check_name: reason}} with non-empty "
                f"reasons, got {fails!r}"
            )
    used: set = set()
    params = []
    for entry in learners:
        keys = [k for k in declared if k is entry or (isinstance(k, type) and not isinstance(entry, type) and isinstance(entry, k))]
        fails: dict = {}
        for k in keys:
            fails.update(declared[k])
            used.add(id(k))
        name = _name_of(entry)
        names = []
        for check in yield_checks(entry, H=H, max_examples=max_examples, seed=seed):
            names.append(check.__name__)
            marks = ()
            if check.__name__ in fails:
                marks = (pytest.mark.xfail(reason=fails[check.__name__], strict=True),)
            params.append(pytest.param(entry, check, id=f"{name}-{check.__name__}", marks=marks))
        unknown = sorted(set(fails) - set(names))
        if unknown:
            raise InvalidArgumentError(
                f"expected_failures: {name} declares {unknown}, which are not among its checks {names}"
            )
    unused = [_name_of(k) for k in declared if id(k) not in used]
    if unused:
        raise InvalidArgumentError(f"expected_failures: {unused} match none of the learners given")
    return pytest.mark.parametrize("learner, check", params)
