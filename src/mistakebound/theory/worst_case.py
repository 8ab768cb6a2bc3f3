"""The exact worst case of a learner: the game value ``M_A(H)`` by exhaustive search.

``M_A(H)`` (textbook Definition 21.1) is the largest number of mistakes a realizable
adversary can force on the learner ``A`` over the class ``H``.  Against a fixed
learner the adversary's problem is a one-player search: in each position (the
learner's state and the version space) it picks an instance and a label some
hypothesis of the version space gives, gains a mistake when the learner predicted
otherwise (``|p - y|``, the exact expected mistake, for a randomized learner: the
learner's state after ``learn_one`` does not depend on the engine's draw, so the
expectation is taken round by round), and moves on.

The search clones the learner with ``snapshot()`` (see
:class:`~mistakebound.game.players.Learner`) to explore each move, and when the learner
exposes ``state_key()`` (a hashable summary of its state) positions are merged in a
memo keyed by ``(state_key, version space)``.  Without a horizon the search relies on
two facts to terminate: the version space only shrinks, and a move that neither errs
nor shrinks it must leave the learner's state as it was (true of every conservative
learner and every learner whose state is a function of the version space), so such
moves are skipped; a line that comes back to a position it has visited gained a mistake
on the way and can be repeated forever: the value is infinite.  A learner that changes
its state without a mistake must be searched with an explicit ``horizon``.

A learner whose state is its version space can declare ``version_space_policy(H)`` (its
prediction as a function of the version-space bitset) and ``symmetries`` (the relabellings
of a version space its predictions ignore; see :mod:`mistakebound.theory.symmetry`).  The
search then plays on bitsets alone (``fast=True``, the default: no ``snapshot`` nor
``predict_one``), and with ``symmetry=True`` merges positions that differ by a declared
relabelling (Halving on ``singletons(64)`` has 64 positions up to renaming, ``2^64 - 1``
without).  A certificate's recorder needs the learner's own states, so with one the plain
search runs.  Declarations are trusted by the search and tested by
:func:`~mistakebound.theory.symmetry.symmetry_violations` and
:func:`~mistakebound.theory.symmetry.fast_path_violations`.

The search takes the budget of every search (``max_nodes``, ``time_limit``, Ctrl-C; see
:mod:`mistakebound.theory.search`) and returns a :class:`WorstCase`, whose bounds are
proven by the search alone: when it stops early, the lower bound is the best line from
the start it found (a line the adversary can play) and the upper bound the horizon, or
infinity.  A learner's claim about its own mistakes is never read: a claim is what a
search like this one tests, never evidence.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.learners import Consistent, Halving, SOA
>>> worst_case_mistakes(SOA(classes.thresholds(7)), classes.thresholds(7)).value
3
>>> H = classes.singletons(5, include_empty=True)
>>> worst_case_mistakes(Consistent(H), H).value  # Exercise 1: |H| - 1
5
>>> worst_case_mistakes(Halving(classes.singletons(5)), classes.singletons(5)).value  # Exercise 3
1
>>> W = worst_case_mistakes(Halving(classes.singletons(40)), classes.singletons(40), symmetry=True)
>>> W.value, W.nodes  # 2^40 - 1 version spaces, 40 up to renaming the instances
(1, 40)
"""

from __future__ import annotations

import contextlib
import copy
import math
import sys
from collections.abc import Callable
from typing import Any, ClassVar

import networkx as nx
from attrs import frozen

from mistakebound.foundations import memory
from mistakebound.foundations.errors import IllegalPredictionError, InvalidArgumentError, PlayerError
from mistakebound.foundations.validation import check_callable, check_instance, check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import describe, is_randomized, state_key_hint
from mistakebound.game.rules import as_prediction, expected_prediction, label_splits, mistake_cost, restrict
from mistakebound.theory.search import Budget, Clock, OutOfBudget, OutOfMemory, SearchResult, memo_share, run_within
from mistakebound.theory.tree_graphs import AdversaryLine

__all__ = ["WorstCase", "worst_case_mistakes", "memo_bytes_needed"]


@frozen
class WorstCase(SearchResult):
    """The worst case ``M_A(H)`` of a learner, as far as the search proved it.

    A :class:`~mistakebound.theory.search.SearchResult`: ``lower <= M_A(H) <= upper``,
    equal when ``exact``, and ``value`` is ``M_A(H)`` (raising
    :class:`~mistakebound.theory.search.SearchIncomplete` for a partial result).  Both
    bounds come from the search alone: ``lower`` is the number of mistakes of the line
    in :attr:`strategy`, which the adversary can play; ``upper`` is the horizon, or
    infinity, until the search finishes.  What the learner claims about itself is never
    read.  ``math.inf`` when mistakes are unbounded.

    Attributes
    ----------
    witness : networkx.DiGraph
        The adversary's line (optimal when exact, the best found otherwise): nodes
        ``0, 1, ..., k``; node ``t`` (for ``t < k``) carries the ``instance`` presented
        in round ``t + 1``, the learner's ``prediction`` (probability of 1), the
        ``label`` answered and the ``gain``; edges ``t -> t + 1`` carry the ``label``.
        Replay it with :class:`mistakebound.adversaries.MinimaxAdversary`.  Also named
        :attr:`strategy`.
    nodes : int
        Positions expanded.
    learner, class_name : str
        What was searched.
    horizon : int or None
        The number of rounds the game was limited to.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Consistent
    >>> H = classes.thresholds(63)
    >>> W = worst_case_mistakes(Consistent(H), H, max_nodes=5)
    >>> W.status, W.lower <= 63 <= W.upper, W.upper
    ('budget', True, inf)
    """

    quantity: ClassVar[str] = "M_A"

    learner: str = ""
    class_name: str = ""
    horizon: int | None = None

    @property
    def strategy(self) -> nx.DiGraph:
        """The adversary's line, as a graph (the same object as :attr:`witness`)."""
        return self.witness

    @property
    def line(self) -> tuple[tuple[Any, int], ...]:
        """The strategy's ``(instance, label)`` pairs in order."""
        G = self.witness
        return tuple((G.nodes[t]["instance"], G.nodes[t]["label"]) for t in range(G.number_of_nodes() - 1))

    def _repr_html_(self) -> str:
        """The proven value and the first rounds of the adversary's line, mistakes highlighted (for notebooks)."""
        from mistakebound.foundations import html_tables as ht

        G = self.witness if self.witness is not None else nx.DiGraph()
        steps = [G.nodes[t] for t in range(min(max(G.number_of_nodes() - 1, 0), ht.PREVIEW_ROWS))]
        rows = [(t + 1, s["instance"], s["prediction"], s["label"], s["gain"]) for t, s in enumerate(steps)]
        return ht.panel(f"Worst case of {self.learner or '?'} on {self.class_name or '?'}",
                        [("result", self.describe()), ("positions", self.nodes), ("horizon", self.horizon)],
                        ht.table(["round", "instance", "prediction", "label", "mistakes"], rows,
                                 total=max(G.number_of_nodes() - 1, 0), what="rounds", marked=[s["gain"] > 0 for s in steps]))


def _snapshot(learner: Any) -> Any:
    take = getattr(learner, "snapshot", None)
    return take() if callable(take) else copy.deepcopy(learner)


# Per memo entry, besides the version-space bitset and the learner's state key: the dict
# slot (about 40 bytes with its share of the table), the (state, V, horizon) key tuple
# (64) and the (value, line) tuple (56).  The line itself is often shared, so it is left
# out, so the estimate is usually below the search's peak (objects shared between entries
# can make it higher).
_ENTRY_OVERHEAD = 40 + 64 + 56


def _deep_size(obj: Any, depth: int = 0) -> int:
    """Approximate bytes held by a state key (ints, bytes, tuples, arrays...)."""
    size = sys.getsizeof(obj, 64)
    if depth < 4 and isinstance(obj, (tuple, list, frozenset, set)):
        size += sum(_deep_size(o, depth + 1) for o in obj)
    nbytes = getattr(obj, "nbytes", None)
    if isinstance(nbytes, int):
        size += nbytes
    return size


def memo_bytes_needed(H: HypothesisClass, max_nodes: int, state_key_bytes: int = 0) -> int:
    """An estimate of the memo's size when :func:`worst_case_mistakes` uses its budget.

    Each expanded position stores one memo entry: the version space as a bitset over
    ``|H|`` hypotheses (a Python int, 4 bytes per 30 hypotheses), the learner's state key
    (``state_key_bytes``) and about 160 bytes of dict slot and tuples.  The lines stored
    with the entries and the snapshots on the recursion stack come on top; objects shared
    between entries come off (measured: within a factor of 2 to 5 of the search's peak).

    Examples
    --------
    >>> from mistakebound import classes
    >>> small = memo_bytes_needed(classes.thresholds(7), 1000)
    >>> big = memo_bytes_needed(classes.thresholds(7_000), 1000)
    >>> 150_000 < small < big
    True
    """
    bitset = sys.getsizeof(H.full_mask)
    return int(max_nodes) * (_ENTRY_OVERHEAD + bitset + int(state_key_bytes))


def _memo_limit(learner: Any, H: HypothesisClass, max_nodes: int | None, keyed: bool) -> int | None:
    """The most memo entries the search may hold, checked against the memory available.

    With ``max_nodes``, a search whose memo cannot fit is refused before it starts (and
    ``max_nodes`` bounds the memo: None is returned); without, the limit is the most entries that fit in
    the search's :func:`~mistakebound.theory.search.memo_share` of the memory available
    (:func:`~mistakebound.foundations.memory.available_memory`; None when unknown): the
    search stops (status ``"memory"``) before its memo estimate outgrows it.  A
    learner without ``state_key()`` is searched without a memo: nothing to check.
    """
    if not keyed:
        return None
    try:
        key_bytes = _deep_size(_snapshot(learner).state_key())
    except Exception:  # noqa: BLE001 - the search itself will report a learner that cannot do this
        key_bytes = 0
    if max_nodes is not None:
        memory.require_memory(
            memo_bytes_needed(H, max_nodes, key_bytes), parameter="max_nodes",
            what=f"a search of up to {max_nodes} positions over {H.n_hypotheses} hypotheses (its memo)",
            advice="lower max_nodes, give a horizon, or search a smaller class",
        )
        return None  # the node budget bounds the memo
    share = memo_share(memory.available_memory())
    if share is None:
        return None
    return max(1, share // memo_bytes_needed(H, 1, key_bytes))


def _check_learner(learner: Any) -> None:
    if not (callable(getattr(learner, "predict_one", None)) or callable(getattr(learner, "predict_proba_one", None))) \
            or not callable(getattr(learner, "learn_one", None)):
        raise InvalidArgumentError(
            f"learner: expected a learner with predict_one (or predict_proba_one) and learn_one, "
            f"got {type(learner).__name__}"
        )


def worst_case_mistakes(
    learner: Any,
    H: HypothesisClass,
    *,
    horizon: int | None = None,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[int], None] | None = None,
    fast: bool = True,
    symmetry: bool = False,
) -> WorstCase:
    """The exact maximum number of mistakes any realizable adaptive adversary forces.

    Parameters
    ----------
    learner
        A learner in its initial state (it is not modified; the search works on
        snapshots).  Deterministic learners give ``M_A(H)``; randomized ones the exact
        worst expected number of mistakes.
    H : HypothesisClass
    horizon : int, optional
        Limit the game to this many rounds.  Required for learners without
        ``state_key()`` and for learners that change state without a mistake.
    max_nodes : int, optional
        Budget of positions to expand (default: none; the memo is then limited to what
        fits in a quarter of the memory available,
        :data:`~mistakebound.theory.search.MEMO_FRACTION`).
    time_limit : float, optional
        Budget of seconds (default: none).
    progress : callable, optional
        Called with the number of positions expanded since its last call (every 256),
        e.g. a progress bar's ``update``.
    fast : bool
        Use the learner's ``version_space_policy(H)`` when it has one (the fast path: the
        game is played on version-space bitsets, without ``predict_one``/``snapshot``;
        see :mod:`mistakebound.theory.symmetry`).  False: the plain search, through the
        learner's own methods.
    symmetry : bool
        On the fast path, merge positions up to the symmetries the learner declares (its
        ``symmetries`` attribute; :class:`~mistakebound.theory.symmetry.VersionSpaceKeys`).
        ``nodes`` then counts positions up to those symmetries.  Off by default, so that
        ``nodes`` keeps counting one position per version space (the figure the README
        quotes); Halving on ``singletons(64)`` needs it.

    Returns
    -------
    WorstCase
        ``status`` ``"exact"``; ``"budget"`` when the search ran out of positions or
        time, or met a line deeper than Python's stack allows; ``"memory"`` when its memo
        reached its share of the memory (without ``max_nodes``) or a ``MemoryError``
        struck; ``"interrupted"`` on Ctrl-C.  A partial result's ``lower`` is the best line found (by the search, or
        by answering against each prediction), its ``upper`` the horizon or infinity.

    Raises
    ------
    InvalidArgumentError
        For a bad ``H``, ``horizon``, budget or ``progress``, a learner without
        ``predict_one`` (or ``predict_proba_one``) and ``learn_one``, a learner without
        ``state_key()`` and no horizon, or a learner found to change its state on a
        round without a mistake when no horizon is given.
    InsufficientMemoryError
        Before the search starts, when the memo for ``max_nodes`` positions (at least
        :func:`memo_bytes_needed` bytes) exceeds the memory available; the message
        names both amounts.
    GameError
        When the learner raises or returns an illegal prediction during the search.

    Notes
    -----
    Size limits: the search visits every distinct position the adversary can reach,
    up to one per reachable version space (``2^|H|`` in the worst case: Halving on
    ``singletons(d)`` visits ``2^d - 1``), each costing ``2 |X|`` learner snapshots and
    updates: about 10,000 positions per second for classes of a few dozen hypotheses
    on a 2-core machine; on the fast path, ``|X|`` policy calls and bitset operations
    (several times faster; ``benchmarks/worst_case_speed.py``).  With ``symmetry=True`` a
    position costs ``O(|X|)`` more per move (its children's keys), so it pays where
    relabelled copies abound: Halving on ``singletons(d)`` visits ``d`` positions.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Halving
    >>> H = classes.thresholds(3)
    >>> W = worst_case_mistakes(Halving(H), H)
    >>> W.value, W.exact, len(W.line), W.describe()
    (2, True, 2, 'M_A = 2')
    """
    return _worst_case(learner, H, horizon=horizon, max_nodes=max_nodes, time_limit=time_limit, progress=progress,
                       fast=fast, symmetry=symmetry)


def _worst_case(learner: Any, H: HypothesisClass, *, horizon: int | None, max_nodes: int | None,
                time_limit: float | None, progress: Callable[[int], None] | None = None,
                recorder: Any = None, fast: bool = True, symmetry: bool = False) -> WorstCase:
    """:func:`worst_case_mistakes`, with a ``recorder`` that sees every prediction, move and finished position.

    The recorder (see :mod:`mistakebound.theory.worst_case_certificate`) has methods
    ``root(L)``, ``state(L)``, ``prediction(s, j, p)``, ``follow(s, j, y, child)`` (the child's
    state), ``stay(s, j, y)`` (a skipped move that left the state as it was), ``done(V, s, h)``
    (a position's value found, finite) and ``line_start()`` (the greedy line begins); None
    (the default) costs nothing.  A recorder needs the learner's states, so with one the
    plain search always runs (``fast`` and ``symmetry`` are ignored): certificates record
    every position of the learner as it is, never a representative of its symmetry class.
    """
    check_instance("H", H, HypothesisClass, "a HypothesisClass")
    horizon = check_int("horizon", horizon, 0, optional=True)
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
    _check_learner(learner)
    progress = check_callable("progress", progress, optional=True)
    from mistakebound.theory.symmetry import declared_symmetries, policy_of

    policy = policy_of(learner, H) if fast and recorder is None else None
    keyed = policy is not None or callable(getattr(learner, "state_key", None))
    if horizon is None and not keyed:
        name = type(learner).__name__
        raise InvalidArgumentError(
            f"horizon: {name} exposes no state_key(), so positions cannot be recognised and the search "
            f"cannot end by itself; give a horizon (horizon=10), or add to {name} `{state_key_hint(learner)}` "
            "(a hashable summary of its learned state, equal for two states exactly when they predict alike "
            "from then on)"
        )
    memo_limit = _memo_limit(learner, H, budget.max_nodes, keyed)
    if policy is not None:
        symmetries = declared_symmetries(learner) if symmetry else frozenset()
        game: Any = _FastGame(learner, H, horizon, budget.start(), progress, memo_limit, policy, symmetries)
    else:
        game = _Game(learner, H, horizon, keyed, budget.start(), progress, memo_limit, recorder)
    status = game.run()
    if status == "exact":
        lower = upper = game.value
        line = game.line
    else:
        try:
            lower, line = game.incumbent
        except MemoryError:  # rebuilding the line asks the learner again: the empty line is still proven
            lower, line = 0, ()
        if status == "memory":
            for memo in (game.memo, getattr(game, "quick", {}), getattr(game, "exact", {})):
                memo.clear()  # room for what follows
        if status in ("budget", "memory"):  # a second line, cheap, from answering against each prediction
            try:
                lower, line = max((lower, line), game.greedy_line(), key=lambda t: t[0])
            except KeyboardInterrupt:
                status = "interrupted"
            except MemoryError:
                pass
        upper = math.inf if horizon is None else horizon
    return WorstCase(
        lower=lower, upper=upper, status=status, witness=_strategy_graph(line, lower), nodes=game.clock.nodes,
        seconds=game.clock.seconds, learner=describe(learner), class_name=H.describe(), horizon=horizon,
    )


@contextlib.contextmanager
def _deep_stack(frames_per_round: int):
    """Room on the stack for a deep search: the recursion limit raised, and how many rounds fit.

    A line deeper than the stack allows is a resource spent (status "budget"): the search
    stops itself well before Python would raise RecursionError (which the learner's code
    might catch or turn into something else).  ``frames_per_round`` counts the search's
    frames per round and a few of the learner's at the leaf.
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    frames, f = 0, sys._getframe()
    while f is not None:
        frames, f = frames + 1, f.f_back
    try:
        yield max((sys.getrecursionlimit() - frames - 200) // frames_per_round, 1)
    finally:
        sys.setrecursionlimit(limit)


def _checked_prediction(raw: Any, randomized: bool, source: str, x: Any, round_: int) -> float:
    """A learner's prediction as the game takes it (a label, or a probability when randomized), or
    :class:`IllegalPredictionError` naming ``source`` (the method that returned it) and the round."""
    p = as_prediction(raw, randomized)
    if p is None:
        raise IllegalPredictionError(f"{source} returned {raw!r} on {x!r}; expected {expected_prediction(randomized)}",
                                     round=round_, player="learner")
    return p


class _Game:
    """One worst-case search: the adversary's best line from every position it reaches.

    A position is the learner (a snapshot) and the version space ``V`` (a bitset over
    the rows of ``H``), with ``h`` rounds left (None: no horizon).  Positions are merged
    in a memo keyed by ``(state_key, V, h)`` when the learner has ``state_key()``.
    While the search runs, :attr:`incumbent` holds the best line from the start found
    so far (a complete line the adversary can play, and its mistakes), which is what a
    stopped search reports as its lower bound.
    """

    def __init__(self, learner: Any, H: HypothesisClass, horizon: int | None, keyed: bool, clock: Clock,
                 progress: Callable[[int], None] | None, memo_limit: int | None = None, recorder: Any = None):
        self.learner = learner
        self.recorder = recorder
        self.memo_limit = memo_limit
        self.max_depth = sys.maxsize  # set by run() from the stack
        self.H = H
        self.horizon = horizon
        self.keyed = keyed
        self.randomized = is_randomized(learner)
        self.clock = clock
        self.progress = progress
        self.domain = H.domain
        self.columns = H.column_masks
        self.memo: dict = {}
        self.moves: list[tuple] = []  # the line from the start to the position being searched
        self.gained: list[float] = [0]  # mistakes along it, after each move
        self.incumbent: tuple[float, tuple] = (0, ())
        self.value: float = 0
        self.line: tuple = ()

    # ------------------------------------------------------------------ the learner
    def predict(self, L: Any, x: Any) -> float:
        try:
            raw = L.predict_proba_one(x) if self.randomized else L.predict_one(x)
        except MemoryError:  # the machine's limit, not the learner's fault: the search stops (status "memory")
            raise
        except Exception as exc:  # noqa: BLE001 - the learner's own fault, reported as in play()
            raise PlayerError(f"raised {exc!r} in the worst-case search", round=len(self.moves) + 1,
                              player="learner") from exc
        source = "predict_proba_one" if self.randomized else "predict_one"
        return float(_checked_prediction(raw, self.randomized, source, x, len(self.moves) + 1))

    def learn(self, L: Any, x: Any, y: int) -> None:
        try:
            L.learn_one(x, y)
        except MemoryError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise PlayerError(f"raised {exc!r} in learn_one during the worst-case search",
                              round=len(self.moves) + 1, player="learner") from exc

    # ------------------------------------------------------------------- the search
    def run(self) -> str:
        """Search from the start; the status it ended with (see :func:`run_within`)."""
        root = _snapshot(self.learner)
        V = self.H.full_mask
        start = (root.state_key(), V, None) if (self.keyed and self.horizon is None) else None
        path = frozenset({start}) if start else frozenset()
        if self.recorder is not None:
            self.recorder.root(root)
        with _deep_stack(frames_per_round=3) as self.max_depth:
            return run_within(lambda: self._explore(root, V, path))

    def _explore(self, root: Any, V: int, path: frozenset) -> None:
        try:
            self.value, self.line = self.search(root, V, self.horizon, path)
        except RecursionError:  # a line deeper than the stack allows: a resource spent
            raise OutOfBudget from None

    def _record(self, value: float, line: tuple) -> None:
        """A line from the current position: the best from the start if it beats the incumbent."""
        total = self.gained[-1] + value
        if total > self.incumbent[0]:
            self.incumbent = (total, tuple(self.moves) + line)

    def _descend(self, child: Any, W: int, h: int | None, path: frozenset, move: tuple) -> tuple[float, tuple]:
        self.moves.append(move)
        self.gained.append(self.gained[-1] + move[3])
        try:
            return self.search(child, W, h, path)
        finally:
            self.moves.pop()
            self.gained.pop()

    def search(self, L: Any, V: int, h: int | None, path: frozenset) -> tuple[float, tuple]:
        """Best (value, line) from this position; line = ((x, p, y, gain), ...)."""
        if h == 0:
            return 0, ()
        if len(self.moves) >= self.max_depth:
            raise OutOfBudget  # see run(): deeper than the stack allows
        key = (L.state_key(), V, h) if self.keyed else None
        if key is not None and key in self.memo:
            return self.memo[key]
        if self.memo_limit is not None and len(self.memo) >= self.memo_limit:
            raise OutOfMemory  # the memo would outgrow its share of the memory: stop before it does
        self.clock.spend()  # raises OutOfBudget past the budget: this position is not expanded
        if self.progress is not None and self.clock.nodes % 256 == 0:
            self.progress(256)
        best: tuple[float, tuple] = (0, ())
        here = L.state_key() if self.keyed else None
        rec = self.recorder
        sid = rec.state(L) if rec is not None else None
        for j, x in enumerate(self.domain):
            p = self.predict(L, x)
            if rec is not None:
                rec.prediction(sid, j, p)
            zeros, ones = label_splits(V, self.columns[j])
            for y, W in ((1, ones), (0, zeros)):
                if W == 0:
                    continue  # no hypothesis of V gives label y: not a legal move of a realizable game
                gain = mistake_cost(p, y)
                child = _snapshot(L)
                self.learn(child, x, y)
                move = (x, p, y, gain)
                if h is None:
                    if gain == 0 and W == V:
                        if child.state_key() == here:
                            if rec is not None:
                                rec.stay(sid, j, y)
                            continue  # nothing gained, nothing changed
                        raise InvalidArgumentError(
                            f"horizon: {type(L).__name__} changed its state on a round without a mistake "
                            f"(instance {x!r}), so the search cannot end by itself; give a horizon"
                        )
                    child_key = (child.state_key(), W, None)
                    if rec is not None:
                        rec.follow(sid, j, y, child)
                    if child_key in path:  # a loop that gains on every pass
                        self._record(math.inf, (move,))
                        return math.inf, (move,)
                    value, line = self._descend(child, W, None, path | {child_key}, move)
                else:
                    if self.keyed and gain == 0 and W == V and child.state_key() == here:
                        # a round that changes nothing only spends the horizon: whatever
                        # follows it can be played without it, so it never does better
                        if rec is not None:
                            rec.stay(sid, j, y)
                        continue
                    if rec is not None and h > 1:  # a child with no rounds left has no state that matters
                        rec.follow(sid, j, y, child)
                    value, line = self._descend(child, W, h - 1, path, move)
                total = gain + value
                if total > best[0]:
                    best = (total, (move,) + line)
                    self._record(*best)
                    if total == math.inf:
                        break
            if best[0] == math.inf:
                break
        if key is not None and best[0] != math.inf:
            self.memo[key] = best
        if rec is not None and best[0] != math.inf:
            rec.done(V, sid, h)
        return best

    def greedy_line(self) -> tuple[float, tuple]:
        """A concrete line (a proven lower bound): answer against the prediction while legal."""
        H = self.H
        L = _snapshot(self.learner)
        V = H.full_mask
        line = []
        total = 0
        rec = self.recorder
        sid = rec.line_start() if rec is not None else None
        rounds = self.horizon if self.horizon is not None else H.n_hypotheses + H.n_instances
        for _ in range(rounds):
            move = None
            for j, x in enumerate(H.domain):
                zeros, ones = label_splits(V, H.column_masks[j])
                if not (zeros and ones):
                    continue
                p = self.predict(L, x)
                if rec is not None:
                    rec.prediction(sid, j, p)
                y = 0 if p >= 0.5 else 1
                move = (x, p, y, mistake_cost(p, y), ones if y == 1 else zeros)
                break
            if move is None:
                break
            x, p, y, gain, V = move
            self.learn(L, x, y)
            if rec is not None:
                sid = rec.follow(sid, j, y, L)
            total += gain
            line.append((x, p, y, gain))
        return total, tuple(line)


class _FastGame:
    """The search of :class:`_Game` for a learner with a ``version_space_policy``: positions are bitsets.

    The learner's state is its version space, so a position is ``V`` (and the rounds left),
    keyed up to the learner's declared symmetries by a
    :class:`~mistakebound.theory.symmetry.VersionSpaceKeys`; every move that does not err
    shrinks ``V`` or leaves the position as it was, so the only loop is a mistake on an
    instance ``V`` labels unanimously (the value is then infinite).  The memo stores each
    position's value and its best move (a position in the key's move list, so that a copy
    reached by a relabelling replays it); lines are rebuilt from the memo when asked.
    """

    def __init__(self, learner: Any, H: HypothesisClass, horizon: int | None, clock: Clock,
                 progress: Callable[[int], None] | None, memo_limit: int | None, policy: Callable,
                 symmetries: frozenset):
        from mistakebound.theory.symmetry import MajorityVote, VersionSpaceKeys

        self.learner = learner
        self.H = H
        self.horizon = horizon
        self.clock = clock
        self.progress = progress
        self.memo_limit = memo_limit
        self.policy = policy
        # a policy whose mistakes are bounded by a theorem the search can apply (the
        # majority vote: floor(log2 |V|)); moves that cannot beat the best are skipped
        # (MajorityVote.move_caps)
        self.vote = policy if type(policy) is MajorityVote else None
        self.randomized = is_randomized(learner)
        self.keys = VersionSpaceKeys(H, symmetries)
        self.domain = H.domain
        self.columns = H.column_masks
        self.memo: dict = {}
        self.quick: dict = {}  # "instances" keys (see VersionSpaceKeys.quick) -> memo entries
        self.exact: dict = {}  # bitsets -> memo entries (under symmetries)
        self.max_depth = sys.maxsize
        self.moves: list[tuple] = []
        self.gained: list[float] = [0]
        self._incumbent: tuple = (0, (), None)  # (total, moves, (V, h) whose best line follows, or None)
        self.value: float = 0
        self.line: tuple = ()

    def predict(self, V: int, j: int) -> float:
        try:
            raw = self.policy(V, j)
        except MemoryError:
            raise
        except Exception as exc:  # noqa: BLE001 - the learner's own fault, as in play()
            raise PlayerError(f"raised {exc!r} in version_space_policy in the worst-case search",
                              round=len(self.moves) + 1, player="learner") from exc
        if raw.__class__ is int and (raw == 0 or raw == 1) and not self.randomized:
            return raw  # the common case, already a label
        return self._checked(raw, j)

    def _checked(self, raw: Any, j: int) -> float:
        p = _checked_prediction(raw, self.randomized, "version_space_policy", self.domain[j], len(self.moves) + 1)
        return p if type(p) is int else float(p)

    def run(self) -> str:
        with _deep_stack(frames_per_round=2) as self.max_depth:
            return run_within(self._explore)

    def _explore(self) -> None:
        """The search, and the optimal line rebuilt from its memo (which asks the policy again:
        inside the run, so that running out of memory there is a stop, not a crash)."""
        try:
            self.value = self.search(self.H.full_mask, self.horizon, None)
            self.line = self._incumbent[1] if self.value == math.inf else self._line_from(self.H.full_mask,
                                                                                          self.horizon)
        except RecursionError:
            raise OutOfBudget from None

    @property
    def incumbent(self) -> tuple[float, tuple]:
        """The best line from the start found so far, and its mistakes (rebuilt from the memo)."""
        total, moves, tail = self._incumbent
        if tail is not None:
            moves = moves + self._line_from(*tail)
        return total, moves

    def _lookup(self, V: int, h: int | None, cand: Any):
        """(memo entry or None, memo keys to store under, moves in key order): moves None on a hit.

        Memo keys are the position's key, paired with ``h`` under a horizon.  Under
        symmetries, three memos: by the bitset ``V`` (a cheap first look), by the
        ``"instances"`` key, and (with ``"rows"`` too) by the normal form; an entry found in
        a later one is copied into the earlier ones.
        """
        keys = self.keys
        if not keys.instances:
            key, moves = keys.form(V)
            key = key if h is None else (key, h)
            return self.memo.get(key), (key, None, None), moves
        exact = V if h is None else (V, h)
        e = self.exact.get(exact)
        if e is not None:
            return e, None, None
        quick = keys.quick(V, cand)
        quick = quick if h is None else (quick, h)
        if not keys.rows:  # instances alone: the quick key is the key
            e = self.memo.get(quick)
            if e is not None:
                self.exact[exact] = e
                return e, None, None
            return None, (quick, None, exact), keys.moves(V, cand)[1]
        e = self.quick.get(quick)
        if e is None:
            key, moves = keys.moves(V, cand)
            key = key if h is None else (key, h)
            e = self.memo.get(key)
            if e is None:
                return None, (key, quick, exact), moves
            self.quick[quick] = e
        self.exact[exact] = e
        return e, None, None

    def search(self, V: int, h: int | None, cand: Any) -> float:
        """The value of position ``V`` with ``h`` rounds left (``cand``: columns holding ``V``'s distinct ones)."""
        if h == 0:
            return 0
        e, key, moves = self._lookup(V, h, cand)
        return e[0] if e is not None else self._expand(V, h, key, moves)

    def _expand(self, V: int, h: int | None, key: tuple, moves: Any) -> float:
        """Search a position the memo does not hold: its moves, in the order of its key."""
        if len(self.moves) >= self.max_depth:
            raise OutOfBudget
        if self.memo_limit is not None and len(self.memo) + len(self.quick) + len(self.exact) >= self.memo_limit:
            raise OutOfMemory
        self.clock.spend()
        if self.keys.instances or self.keys.rows:
            self.clock.check_time()  # a position can cost |X| keys: the clock's stride is too coarse here
        if self.progress is not None and self.clock.nodes % 256 == 0:
            self.progress(256)
        best: float = 0
        best_move = None
        cols, domain, policy, randomized = self.columns, self.domain, self.policy, self.randomized
        moves_here, gained, expand = self.moves, self.gained, self._expand
        nxt = None if h is None else h - 1
        plain = not self.keys.instances and not self.keys.rows
        memo_get = self.memo.get
        lookup = self._lookup
        all_moves = self.keys.all_moves
        child_cand = self.keys.candidates(moves) if self.keys.instances else None
        order: Any = enumerate(moves)
        vote = self.vote
        if vote is not None:  # most promising first; stop once nothing left can beat the best
            top = vote.mistakes_at_most(V)
            if h is not None:
                top = min(h, top)
            caps = vote.move_caps(V, moves, nxt)
            order = sorted(enumerate(moves), key=lambda item: -caps[item[0]])
        for pos, j in order:
            if vote is not None and (caps[pos] <= best or best >= top):
                break
            ones = V & cols[j]
            try:
                p = policy(V, j)
            except MemoryError:
                raise
            except Exception as exc:  # noqa: BLE001 - the learner's own fault, as in play()
                raise PlayerError(f"raised {exc!r} in version_space_policy in the worst-case search",
                                  round=len(moves_here) + 1, player="learner") from exc
            if p.__class__ is not int or randomized or (p != 0 and p != 1):
                p = self._checked(p, j)
            # the move rules inlined (rules.label_splits, rules.mistake_cost: no call per move on this
            # path; tests/test_rules.py checks this search against them)
            zeros = V ^ ones
            for y in (1, 0):
                W = ones if y else zeros
                if not W:
                    continue
                gain = p - y if p >= y else y - p
                if W == V:
                    if not gain:
                        continue  # nothing gained, nothing changed
                    if h is None:  # a mistake that changes nothing: repeated forever
                        self._record(math.inf, (domain[j], p, y, gain), None)
                        return math.inf
                if gain.__class__ is float and gain == int(gain):
                    gain = int(gain)
                if nxt == 0:
                    value = gain
                else:
                    if plain:
                        ckey = W if nxt is None else (W, nxt)
                        e = memo_get(ckey)
                        if e is None:
                            ckey, cmoves = (ckey, None, None), all_moves
                    else:
                        e, ckey, cmoves = lookup(W, nxt, child_cand)
                    if e is not None:
                        value = gain + e[0]
                    else:
                        moves_here.append((domain[j], p, y, gain))
                        gained.append(gained[-1] + gain)
                        try:
                            value = gain + expand(W, nxt, ckey, cmoves)
                        finally:
                            moves_here.pop()
                            gained.pop()
                if value > best:
                    best, best_move = value, (pos, y)
                    self._record(value, (domain[j], p, y, gain), (W, nxt))
                    if value == math.inf:
                        return value
        entry = (best, best_move)
        self.memo[key[0]] = entry
        if key[1] is not None:
            self.quick[key[1]] = entry
        if key[2] is not None:
            self.exact[key[2]] = entry
        return best

    def _record(self, value: float, move: tuple, tail: tuple | None) -> None:
        total = self.gained[-1] + value
        if total > self._incumbent[0]:
            self._incumbent = (total, tuple(self.moves) + (move,), tail if value != math.inf else None)

    def _line_from(self, V: int, h: int | None) -> tuple:
        """The best line from a searched position, replayed from the memo's best moves."""
        line = []
        while h != 0:
            e, _, _ = self._lookup(V, h, None)
            if e is None or e[1] is None:
                break
            pos, y = e[1]
            j = self.keys.form(V)[1][pos]
            p = self.predict(V, j)
            gain = mistake_cost(p, y)
            line.append((self.domain[j], p, y, gain))
            W = restrict(V, self.columns[j], y)
            if W == V and h is None:
                break  # (cannot happen: such a move is infinite, and infinite lines are not rebuilt)
            V, h = W, None if h is None else h - 1
        return tuple(line)

    def greedy_line(self) -> tuple[float, tuple]:
        """A concrete line (a proven lower bound): answer against the prediction while legal."""
        H = self.H
        V = H.full_mask
        line, total = [], 0
        rounds = self.horizon if self.horizon is not None else H.n_hypotheses + H.n_instances
        for _ in range(rounds):
            for j, x in enumerate(H.domain):
                zeros, ones = label_splits(V, self.columns[j])
                if not (zeros and ones):
                    continue
                p = self.predict(V, j)
                y = 0 if p >= 0.5 else 1
                gain = mistake_cost(p, y)
                V = ones if y else zeros
                total += gain
                line.append((x, p, y, gain))
                break
            else:
                break
        return total, tuple(line)


def _strategy_graph(line: tuple, value: float) -> nx.DiGraph:
    G = AdversaryLine(value=value)
    G.add_node(0)
    for t, (x, p, y, gain) in enumerate(line):
        G.nodes[t].update(instance=x, prediction=p, label=y, gain=gain)
        G.add_edge(t, t + 1, label=y)
    return G
