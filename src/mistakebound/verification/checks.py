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
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
from attrs import define

import mistakebound.game.play as _game
from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.game import registry
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import describe, is_randomized
from mistakebound.game.rules import as_label, as_probability, expected_prediction
from mistakebound.game.spaces import LinearSpace, Space
from mistakebound.verification.bound_check import (
    CheckSummary,
    RandomStream,
    _evolvable,
    _factory_of,
    _random_stream,
    check_learner,
)
from mistakebound.verification.check_failures import BoundViolation, CheckFailure, GameFailure, _is_learner, _name_of
from mistakebound.verification.claims import stated_bound

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


#: Rounds of the interface checks' streams.
_STREAM_ROUNDS = 30


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
