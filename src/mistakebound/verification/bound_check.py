"""The bound check: :func:`check_learner` plays a learner against every applicable adversary.

Classes and seeds are drawn by hypothesis (imported only when a check runs), realizable
games are played against the registry's adversaries (or the caller's), the exact
worst-case search (:func:`~mistakebound.theory.worst_case.worst_case_mistakes`) runs on
classes small enough, and the first counterexample is shrunk and raised
(:mod:`mistakebound.verification.check_failures`).  :mod:`mistakebound.verification.checks`
is the public home of these names, beside the interface checks.

Examples
--------
>>> from mistakebound import bounds
>>> from mistakebound.learners import SOA
>>> check_learner(SOA, bound=bounds.ldim, max_examples=5).violations
0
"""

from __future__ import annotations


import contextlib
import copy
import functools
import math
import numbers
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from attrs import define, field, fields, frozen

import mistakebound.game.play as _game
from mistakebound.foundations.errors import GameError, InvalidArgumentError, NotApplicableError
from mistakebound.foundations.validation import check_int
from mistakebound.game import registry
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import ObliviousAdversary, hyperparameters, is_randomized, rebuild
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace, Space
from mistakebound.verification.claims import Bound, judge, measured, stated_bound
import mistakebound.verification.strategies as strategies_module
from mistakebound.verification.strategies import MarginStream, kept_apart, zoo_adversaries
from mistakebound.verification.check_failures import (
    BoundViolation,
    CheckFailure,
    GameFailure,
    _Failure,
    _delete_rows_and_columns,
    _failure_message,
    _adversary_expr,
    _is_learner,
    _learner_expr,
    _name_of,
    _six,
)

__all__ = ["CheckSummary", "PROJECT_MARKERS", "RandomStream", "check_learner", "project_root"]

#: What marks a project's root when no pytest session says it: pytest's configuration files
#: and the folders of version control.
PROJECT_MARKERS = ("pyproject.toml", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "setup.py", ".git", ".hg")


def _hypothesis():
    """``(hypothesis, hypothesis.strategies)``, or an ImportError saying how to get them."""
    st = strategies_module._hypothesis("mistakebound.verification.checks.check_learner")
    import hypothesis

    return hypothesis, st


def project_root(cwd: Path | None = None) -> Path | None:
    """The root of the user's project: where the check kit keeps hypothesis's files (``.hypothesis/``).

    Inside a pytest session, its rootdir (noted by the plugin's hooks,
    ``_mistakebound_pytestplugin``); otherwise the nearest of ``cwd`` (default: the current
    directory) and its parents that holds one of :data:`PROJECT_MARKERS`; None when none does.

    Examples
    --------
    >>> import _mistakebound_pytestplugin as hooks
    >>> project_root() == (hooks.ROOTDIRS[-1] if hooks.ROOTDIRS else _nearest_project(Path.cwd()))
    True
    """
    rootdirs = getattr(sys.modules.get("_mistakebound_pytestplugin"), "ROOTDIRS", None)
    if rootdirs:
        return rootdirs[-1]
    return _nearest_project(Path.cwd() if cwd is None else Path(cwd))


def _nearest_project(here: Path) -> Path | None:
    """The nearest of ``here`` and its parents that holds one of :data:`PROJECT_MARKERS`, or None.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     (Path(tmp) / "pyproject.toml").touch()
    ...     (Path(tmp) / "notebooks").mkdir()
    ...     _nearest_project(Path(tmp) / "notebooks") == Path(tmp)
    True
    """
    return next((d for d in (here, *here.parents) if any((d / m).exists() for m in PROJECT_MARKERS)), None)


@contextlib.contextmanager
def _hypothesis_storage_in_project() -> Iterator[None]:
    """hypothesis's files (its ``.hypothesis/`` caches) under the project's root while the check runs.

    hypothesis keeps them under the directory current when it was imported, which is not the
    project's when a test or a notebook runs from a sub-folder.  A directory the user chose is
    kept: ``HYPOTHESIS_STORAGE_DIRECTORY``, or one given to
    ``hypothesis.configuration.set_hypothesis_home_dir``; without a project
    (:func:`project_root` is None) hypothesis's default stands.
    """
    from hypothesis import configuration

    state = vars(configuration)
    chosen = state.get("__hypothesis_home_directory")
    default = state.get("__hypothesis_home_directory_default")
    user_set = bool(os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY")) or (
        chosen is not None and (default is None or Path(chosen) != Path(default)))
    root = None if user_set or not hasattr(configuration, "set_hypothesis_home_dir") else project_root()
    if root is None:
        yield
        return
    configuration.set_hypothesis_home_dir(root / ".hypothesis")
    try:
        yield
    finally:
        configuration.set_hypothesis_home_dir(chosen)


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
        def own(learner: Any, H: Any, rounds: int | None, T: Any, rules: Any = None) -> Bound:
            return stated_bound(learner, H, rounds=rounds, realizable=True, transcript=T, rules=rules)

        return own
    if callable(bound):
        name = getattr(bound, "__qualname__", None) or getattr(bound, "__name__", None) or repr(bound)
        name = "bound" if name == "<lambda>" else name

        def given(learner: Any, H: Any, rounds: int | None, T: Any, rules: Any = None) -> Bound:
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
        return lambda learner, H, rounds, T, rules=None: Bound(fixed, _default_measure(learner),
                                                               f"the bound {_six(fixed)}")
    raise InvalidArgumentError(
        f"bound: expected None (the learner's own claim), a number >= 0 or a function of the class "
        f"(e.g. bounds.ldim), got {bound!r}"
    )


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
    rules: Any = None,
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
    rules : Rules, optional
        The game's rules (:class:`~mistakebound.game.rules.Rules`: labels, bandit feedback, a
        noise budget), each game played under them on the class's labels; the default
        classes are then drawn with ``rules.labels`` labels, the learner's claim is read for
        the rules, the adversaries that do not play them are skipped, and the optimal
        adversary of the rules (:class:`~mistakebound.adversaries.GameMinimax`) plays too.
        Default: the textbook's game.

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
    mistakebound.verification.check_failures.BoundViolation: Halving made 1 mistake, more than the bound 0, against ... on thresholds(2) (seed 0)
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
    if rules is not None:
        from attrs import evolve

        from mistakebound.game.rules import require_adaptive_order, require_rules

        rules = require_adaptive_order(require_rules(rules), "check_learner (its adversaries, its worst cases)")
        if classes is None:
            from mistakebound.verification.strategies import hypothesis_classes

            classes = hypothesis_classes(labels=rules.labels)

    def rules_on(H: Any) -> Any:  # the rules on the class's own labels
        return None if rules is None else evolve(rules, labels=len(H.labels))
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
            T = _game.play(learner, adversary, H, rounds=n, seed=case_seed, rules=rules_on(H))
        except GameError as exc:
            if exc.player != "learner":
                raise
            return failure(kind="error", transcript=exc.transcript, error=exc)
        except NotApplicableError as exc:
            if rules is None or not str(exc).startswith("adversary:"):
                raise
            return None  # an adversary that does not play these rules, refused before round 1: skipped
        claim = claim_of(learner, H, n, T, rules_on(H))
        value = measured(T, claim.measure)
        verdict = judge(value, claim)
        stats.add(value, verdict.ratio)
        if verdict.broken:
            return failure(kind="bound", transcript=T, measured=value, claim=claim)
        return None

    def search(H: HypothesisClass, case_seed: int, n: int) -> _Failure | None:
        from mistakebound.theory.search_protocol import SearchInterrupted
        from mistakebound.theory.worst_case import worst_case_mistakes

        learner = factory(H)
        claim = claim_of(learner, H, None, None, rules_on(H))
        if not claim.stated:
            return None
        b = claim.value
        options = {"max_nodes": int(worst_case_max_nodes)}
        if rules is not None:  # the search under the game's rules (the textbook's game: as before, no option)
            options["rules"] = rules_on(H)
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
        if rules is not None and isinstance(H, HypothesisClass):  # the optimal adversary of the rules
            games.append(registry.build("adversary", f"GameMinimax(feedback={rules.feedback},noise={rules.noise})",
                                        H, rounds=n))
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
        with _hypothesis_storage_in_project():
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
