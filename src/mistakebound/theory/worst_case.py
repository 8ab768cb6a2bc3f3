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
"""

from __future__ import annotations

import copy
import math
import numbers
import sys
from collections.abc import Callable
from typing import Any

import networkx as nx
from attrs import field, frozen

from mistakebound.foundations.errors import (
    IllegalPredictionError,
    InsufficientMemoryError,
    InvalidArgumentError,
    PlayerError,
)
from mistakebound.foundations.memory import available_memory as _available_memory
from mistakebound.foundations.memory import format_bytes
from mistakebound.game.play import _as_label, _as_probability
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import Adversary, describe, is_randomized

__all__ = ["WorstCase", "worst_case_mistakes", "MinimaxAdversary", "memo_bytes_needed"]


@frozen
class WorstCase:
    """The result of :func:`worst_case_mistakes`.

    Attributes
    ----------
    value : int, float
        ``M_A(H)`` when ``exact``; otherwise the proven lower bound (the value of the
        best line found).  ``math.inf`` when mistakes are unbounded.
    exact : bool
        False when the search ran out of its node budget.
    lower, upper : float
        Proven bounds on ``M_A(H)`` (equal to ``value`` when exact).  When the search is
        partial, ``upper`` is the learner's own proven bound if it states one, the
        horizon if one was given, or infinity.
    strategy : networkx.DiGraph
        The adversary's optimal line of play: nodes ``0, 1, ..., k``; node ``t`` (for
        ``t < k``) carries the ``instance`` presented in round ``t + 1``, the learner's
        ``prediction`` (probability of 1), the ``label`` answered and the ``gain``;
        edges ``t -> t + 1`` carry the ``label``.  Replay it with
        :class:`MinimaxAdversary`.
    nodes : int
        Positions expanded.
    """

    value: float
    exact: bool
    lower: float
    upper: float
    strategy: nx.DiGraph = field(repr=False, eq=False)
    nodes: int = 0
    learner: str = ""
    class_name: str = ""
    horizon: int | None = None

    @property
    def line(self) -> tuple[tuple[Any, int], ...]:
        """The strategy's ``(instance, label)`` pairs in order."""
        G = self.strategy
        return tuple((G.nodes[t]["instance"], G.nodes[t]["label"]) for t in range(G.number_of_nodes() - 1))


class _OutOfBudget(Exception):
    pass


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


def _check_memory(learner: Any, H: HypothesisClass, max_nodes: int, keyed: bool) -> None:
    """Refuse, before starting, a search whose memo cannot fit in the available memory."""
    key_bytes = 0
    if keyed:
        try:
            key_bytes = _deep_size(_snapshot(learner).state_key())
        except Exception:  # the search itself will report a learner that cannot do this
            key_bytes = 0
    needed = memo_bytes_needed(H, max_nodes, key_bytes)
    available = _available_memory()
    if available is not None and needed > available:
        raise InsufficientMemoryError(
            f"max_nodes: a search of up to {max_nodes} positions over {H.n_hypotheses} hypotheses "
            f"needs at least {format_bytes(needed)} for its memo, but only {format_bytes(available)} of memory is "
            "available; lower max_nodes, give a horizon, or search a smaller class",
            needed=needed, available=available,
        )



def worst_case_mistakes(
    learner: Any,
    H: HypothesisClass,
    *,
    horizon: int | None = None,
    max_nodes: int = 200_000,
    progress: Callable[[int], None] | None = None,
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
    max_nodes : int
        Budget of positions to expand; past it the result is partial (``exact`` is
        False) with proven lower and upper bounds.
    progress : callable, optional
        Called with the number of positions expanded since its last call (every 256),
        e.g. a progress bar's ``update``.

    Notes
    -----
    Size limits: the search visits every distinct position the adversary can reach,
    up to one per reachable version space (``2^|H|`` in the worst case: Halving on
    ``singletons(d)`` visits ``2^d - 1``), each costing ``2 |X|`` learner snapshots and
    updates: about 10,000 positions per second for classes of a few dozen hypotheses
    on a 2-core machine, so the default budget is reached in well under a minute.

    Returns
    -------
    WorstCase

    Raises
    ------
    InvalidArgumentError
        For a bad ``H``, ``horizon``, ``max_nodes`` or ``progress``, a learner without
        ``predict_one`` (or ``predict_proba_one``) and ``learn_one``, a learner without
        ``state_key()`` and no horizon, or a learner found to change its state on a
        round without a mistake when no horizon is given.
    InsufficientMemoryError
        Before the search starts, when the memo for ``max_nodes`` positions (at least
        :func:`memo_bytes_needed` bytes) exceeds the memory available; the message
        names both amounts.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Halving
    >>> H = classes.thresholds(3)
    >>> W = worst_case_mistakes(Halving(H), H)
    >>> W.value, W.exact, len(W.line)
    (2, True, 2)
    """
    if not isinstance(H, HypothesisClass):
        raise InvalidArgumentError(f"H: expected a HypothesisClass, got {type(H).__name__}")
    if horizon is not None and (isinstance(horizon, bool) or not isinstance(horizon, numbers.Integral) or horizon < 0):
        raise InvalidArgumentError(f"horizon: expected None or an integer >= 0, got {horizon!r}")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, numbers.Integral) or max_nodes < 1:
        raise InvalidArgumentError(f"max_nodes: expected an integer >= 1, got {max_nodes!r}")
    if not (callable(getattr(learner, "predict_one", None)) or callable(getattr(learner, "predict_proba_one", None))) \
            or not callable(getattr(learner, "learn_one", None)):
        raise InvalidArgumentError(
            f"learner: expected a learner with predict_one (or predict_proba_one) and learn_one, "
            f"got {type(learner).__name__}"
        )
    if progress is not None and not callable(progress):
        raise InvalidArgumentError(f"progress: expected None or a callable, got {progress!r}")
    keyed = callable(getattr(learner, "state_key", None))
    if horizon is None and not keyed:
        raise InvalidArgumentError(
            f"horizon: {type(learner).__name__} exposes no state_key(), so positions cannot be "
            "recognised and the search cannot end by itself; give a horizon"
        )
    _check_memory(learner, H, int(max_nodes), keyed)
    randomized = is_randomized(learner)
    domain = H.domain
    columns = H.column_masks
    memo: dict = {}
    counter = [0]

    depth = [0]  # rounds played on the line being searched, for error messages

    def predict(L: Any, x: Any) -> float:
        try:
            raw = L.predict_proba_one(x) if randomized else L.predict_one(x)
        except Exception as exc:  # noqa: BLE001 - the learner's own fault, reported as in play()
            raise PlayerError(f"raised {exc!r} in the worst-case search", round=depth[0] + 1,
                              player="learner") from exc
        p = _as_probability(raw) if randomized else _as_label(raw)
        if p is None:
            raise IllegalPredictionError(
                f"{'predict_proba_one' if randomized else 'predict_one'} returned {raw!r} on {x!r}; "
                f"expected {'a probability in [0, 1]' if randomized else 'a label 0 or 1'}",
                round=depth[0] + 1, player="learner")
        return float(p)

    def learn(L: Any, x: Any, y: int) -> None:
        try:
            L.learn_one(x, y)
        except Exception as exc:  # noqa: BLE001
            raise PlayerError(f"raised {exc!r} in learn_one during the worst-case search",
                              round=depth[0] + 1, player="learner") from exc

    def key_of(L: Any, V: int, h: int | None) -> Any:
        return (L.state_key(), V, h) if keyed else None

    def search(L: Any, V: int, h: int | None, path: frozenset) -> tuple[float, tuple]:
        """Best (value, line) from this position; line = ((x, p, y, gain), ...)."""
        if h == 0:
            return 0, ()
        key = key_of(L, V, h)
        if key is not None and key in memo:
            return memo[key]
        counter[0] += 1
        if counter[0] > max_nodes:
            raise _OutOfBudget
        if progress is not None and counter[0] % 256 == 0:
            progress(256)
        best: tuple[float, tuple] = (0, ())
        here = L.state_key() if keyed else None
        for j, x in enumerate(domain):
            p = predict(L, x)
            ones = V & columns[j]
            for y, W in ((1, ones), (0, V ^ ones)):
                if W == 0:
                    continue
                gain = abs(p - y)
                if gain == int(gain):
                    gain = int(gain)
                child = _snapshot(L)
                learn(child, x, y)
                if h is None:
                    if gain == 0 and W == V:
                        if child.state_key() == here:
                            continue  # nothing gained, nothing changed
                        raise InvalidArgumentError(
                            f"horizon: {type(L).__name__} changed its state on a round without a mistake "
                            f"(instance {x!r}), so the search cannot end by itself; give a horizon"
                        )
                    child_key = (child.state_key(), W, None)
                    if child_key in path:  # a loop that gains on every pass
                        return math.inf, ((x, p, y, gain),)
                    depth[0] += 1
                    try:
                        value, line = search(child, W, None, path | {child_key})
                    finally:
                        depth[0] -= 1
                else:
                    if keyed and gain == 0 and W == V and child.state_key() == here:
                        # a round that changes nothing only spends the horizon: whatever
                        # follows it can be played without it, so it never does better
                        continue
                    depth[0] += 1
                    try:
                        value, line = search(child, W, h - 1, path)
                    finally:
                        depth[0] -= 1
                total = gain + value
                if total > best[0]:
                    best = (total, ((x, p, y, gain),) + line)
                    if total == math.inf:
                        break
            if best[0] == math.inf:
                break
        if key is not None and best[0] != math.inf:
            memo[key] = best
        return best

    root = _snapshot(learner)
    start_key = (root.state_key(), H.full_mask, None) if (keyed and horizon is None) else None
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    exact = True
    try:
        value, line = search(root, H.full_mask, horizon, frozenset({start_key}) if start_key else frozenset())
    except (_OutOfBudget, RecursionError):  # out of nodes, or a line deeper than the stack allows
        exact = False
        value, line = _greedy_line(learner, H, horizon, predict)
    finally:
        sys.setrecursionlimit(limit)
    if exact:
        lower = upper = value
    else:
        lower = value
        bound = getattr(type(learner), "mistake_bound", None)
        stated = bound(H) if callable(bound) else None
        upper = min(x for x in (stated, horizon, math.inf) if x is not None)
    return WorstCase(
        value=value, exact=exact, lower=lower, upper=upper, strategy=_strategy_graph(line, value),
        nodes=min(counter[0], int(max_nodes)), learner=describe(learner), class_name=H.describe(), horizon=horizon,
    )


def _greedy_line(learner: Any, H: HypothesisClass, horizon: int | None, predict) -> tuple[float, tuple]:
    """A concrete line (a proven lower bound): answer against the prediction while legal."""
    L = _snapshot(learner)
    V = H.full_mask
    line = []
    total = 0
    rounds = horizon if horizon is not None else H.n_hypotheses + H.n_instances
    for _ in range(rounds):
        move = None
        for j, x in enumerate(H.domain):
            ones = V & H.column_masks[j]
            if ones == 0 or ones == V:
                continue
            p = predict(L, x)
            y = 0 if p >= 0.5 else 1
            move = (x, p, y, abs(p - y), ones if y == 1 else V ^ ones)
            break
        if move is None:
            break
        x, p, y, gain, V = move
        if gain == int(gain):
            gain = int(gain)
        L.learn_one(x, y)
        total += gain
        line.append((x, p, y, gain))
    return total, tuple(line)


def _strategy_graph(line: tuple, value: float) -> nx.DiGraph:
    G = nx.DiGraph(value=value)
    G.add_node(0)
    for t, (x, p, y, gain) in enumerate(line):
        G.nodes[t].update(instance=x, prediction=p, label=y, gain=gain)
        G.add_edge(t, t + 1, label=y)
    return G


class MinimaxAdversary(Adversary):
    """Replays the optimal line of a :class:`WorstCase` strategy in :func:`~mistakebound.play`.

    It presents the recorded instances in order and answers the recorded labels; the
    labels are those of one hypothesis of the class, so the game stays realizable
    whatever the learner predicts.  Against the learner the strategy was computed for
    (with the same starting state) it forces exactly ``WorstCase.value`` mistakes.

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import Consistent
    >>> H = classes.singletons(4, include_empty=True)
    >>> W = worst_case_mistakes(Consistent(H), H)
    >>> play(Consistent(H), MinimaxAdversary(W.strategy), H, rounds=10, seed=0).mistakes
    4
    """

    def __init__(self, strategy: nx.DiGraph):
        if not isinstance(strategy, nx.DiGraph):
            raise InvalidArgumentError(f"strategy: expected the networkx DiGraph of a WorstCase, got {type(strategy).__name__}")
        self.strategy = strategy

    def __repr__(self) -> str:
        return f"MinimaxAdversary(value={self.strategy.graph.get('value')})"

    def next_instance(self, state) -> Any:
        t = state.t - 1
        node = self.strategy.nodes.get(t, {})
        return node.get("instance") if "label" in node else None

    def label(self, state, x: Any, p: float) -> int:
        return self.strategy.nodes[state.t - 1]["label"]
