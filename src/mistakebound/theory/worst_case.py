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
:mod:`mistakebound.theory.search_protocol`) and returns a :class:`WorstCase`, whose bounds are
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

import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
from attrs import frozen

from mistakebound.foundations import memory
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.foundations.validation import check_callable, check_instance, check_int
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.play import learner_rules
from mistakebound.game.players import describe, is_randomized, snapshot_of, state_key_hint
from mistakebound.game.rules import Rules, require_adaptive_order
from mistakebound.theory.search_protocol import SEARCH_STOPS, Budget, OutOfBudget, SearchResult, memo_share, spending
from mistakebound.theory.worst_case_games import _FastGame, _Game
from mistakebound.theory.worst_case_rules import _RulesGame

if TYPE_CHECKING:  # networkx is imported where a line is drawn as a graph: importing the search is cheap
    import networkx as nx

__all__ = ["WorstCase", "worst_case_mistakes", "memo_bytes_needed"]


@frozen
class WorstCase(SearchResult):
    """The worst case ``M_A(H)`` of a learner, as far as the search proved it.

    A :class:`~mistakebound.theory.search_protocol.SearchResult`: ``lower <= M_A(H) <= upper``,
    equal when ``exact``, and ``value`` is ``M_A(H)`` (raising
    :class:`~mistakebound.theory.search_protocol.SearchIncomplete` for a partial result).  Both
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
    rules : Rules or None
        The game searched (None: the textbook's, ``rules`` not given).

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
    rules: Rules | None = None

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

        import networkx as nx

        G = self.witness if self.witness is not None else nx.DiGraph()
        steps = [G.nodes[t] for t in range(min(max(G.number_of_nodes() - 1, 0), ht.PREVIEW_ROWS))]
        rows = [(t + 1, s["instance"], s["prediction"], s["label"], s["gain"]) for t, s in enumerate(steps)]
        return ht.panel(f"Worst case of {self.learner or '?'} on {self.class_name or '?'}",
                        [("result", self.describe()), ("positions", self.nodes), ("horizon", self.horizon)],
                        ht.table(["round", "instance", "prediction", "label", "mistakes"], rows,
                                 total=max(G.number_of_nodes() - 1, 0), what="rounds", marked=[s["gain"] > 0 for s in steps]))


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


def _memo_limit(learner: Any, H: HypothesisClass, max_nodes: int | None, keyed: bool,
                extra_bytes: int = 0) -> int | None:
    """The most memo entries the search may hold, checked against the memory available.

    With ``max_nodes``, a search whose memo cannot fit is refused before it starts (and
    ``max_nodes`` bounds the memo: None is returned); without, the limit is the most entries that fit in
    the search's :func:`~mistakebound.theory.search_protocol.memo_share` of the memory available
    (:func:`~mistakebound.foundations.memory.available_memory`; None when unknown): the
    search stops (status ``"memory"``) before its memo estimate outgrows it.  A
    learner without ``state_key()`` is searched without a memo: nothing to check.
    ``extra_bytes``: what a position holds beyond one bitset (the referee's other bitsets
    under a noise budget).
    """
    if not keyed:
        return None
    try:
        key_bytes = _deep_size(snapshot_of(learner).state_key())
    except Exception:  # noqa: BLE001 - the search itself will report a learner that cannot do this
        key_bytes = 0
    key_bytes += extra_bytes
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
    rules: Rules | None = None,
) -> WorstCase:
    """The exact maximum number of mistakes any adaptive adversary playing by the rules forces.

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
        :data:`~mistakebound.theory.search_protocol.MEMO_FRACTION`).
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
        ``nodes`` keeps counting one position per version space (the figure the benchmarks page
        quotes); Halving on ``singletons(64)`` needs it.
    rules : Rules, optional
        The game (:class:`~mistakebound.game.rules.Rules`): ``labels`` (the class's),
        ``feedback`` and a ``noise`` budget ``r`` (a label is legal when some hypothesis has
        made at most ``r`` mistakes with it, as :func:`~mistakebound.game.play.play`
        referees it).  Refused with :func:`play`'s own check when the learner does not
        support them (a learner without ``"bandit"`` in its ``feedbacks``, say).  Default:
        the textbook's game on ``H``'s labels; on a class of two labels, and under rules
        with two labels, full information and no noise, the search above runs as it is
        (``fast``, ``symmetry``).  Otherwise the search plays the learner's own methods
        against the referee's state (see :mod:`mistakebound.theory.worst_case_rules`):
        ``fast`` and ``symmetry`` do not apply, and a partial result's ``upper`` is still
        the horizon or infinity (the game's value bounds the best learner, not this one).
        A deterministic learner's worst case is the same against oblivious adversaries
        (one can simulate the learner), so ``adaptive=False`` searches it too; a
        randomized learner is searched with full information against adaptive
        adversaries only.

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
        round without a mistake when no horizon is given (the textbook's game), or
        ``rules`` that are not a ``Rules`` or not of ``H``'s labels.
    NotApplicableError
        When the learner does not support ``rules`` (:func:`~mistakebound.game.play.learner_rules`),
        or for a randomized learner under bandit feedback or against oblivious adversaries.
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

    In the game's other settings (issue 23), any learner that plays them:

    >>> from mistakebound.game.rules import Rules
    >>> from mistakebound.learners import GameSOA, PluralityHalving
    >>> worst_case_mistakes(Halving(H), H, rules=Rules(noise=1)).value  # two wrong labels empty its version space
    inf
    >>> worst_case_mistakes(GameSOA(H, noise=1), H, rules=Rules(noise=1), horizon=4).value  # the game's value
    4
    >>> G = classes.all_functions(2, 3)   # 3 labels on 2 instances
    >>> worst_case_mistakes(PluralityHalving(G), G).value
    2
    >>> worst_case_mistakes(GameSOA(G, feedback="bandit"), G, rules=Rules(labels=3, feedback="bandit"), horizon=4).value
    4
    """
    if rules is None and not (isinstance(H, HypothesisClass) and H.n_labels != 2):
        return _worst_case(learner, H, horizon=horizon, max_nodes=max_nodes, time_limit=time_limit,
                           progress=progress, fast=fast, symmetry=symmetry)
    check_instance("H", H, HypothesisClass, "a HypothesisClass")
    _check_learner(learner)
    if isinstance(rules, Rules):
        require_adaptive_order(rules, "the worst case of a learner")
    rules = learner_rules(H, rules, learner)
    if is_randomized(learner) and (rules.feedback != "full" or not rules.adaptive or rules.labels != 2):
        raise NotApplicableError(
            f"rules: the worst case of a randomized learner ({describe(learner)}) is searched with two labels and "
            f"full information against adaptive adversaries; got {rules.describe()} (under bandit feedback what "
            "it learns depends on the engine's draw, and an oblivious adversary cannot answer its probabilities)")
    if (rules.labels, rules.feedback, rules.noise) == (2, "full", 0):  # the textbook's game: the search above
        W = _worst_case(learner, H, horizon=horizon, max_nodes=max_nodes, time_limit=time_limit,
                        progress=progress, fast=fast, symmetry=symmetry)
        return attrs.evolve(W, rules=rules)
    return _search_by_rules(learner, H, rules, horizon=horizon, max_nodes=max_nodes, time_limit=time_limit,
                            progress=progress)


def _checked(learner: Any, H: HypothesisClass, horizon: Any, max_nodes: Any, time_limit: Any,
             progress: Any) -> tuple[int | None, Budget, Callable[[int], None] | None]:
    """The arguments of every search of the worst case, checked: ``(horizon, budget, progress)``."""
    check_instance("H", H, HypothesisClass, "a HypothesisClass")
    horizon = check_int("horizon", horizon, 0, optional=True)
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)
    _check_learner(learner)
    progress = check_callable("progress", progress, optional=True)
    from mistakebound.theory.tree_graphs import AdversaryLine  # noqa: F401 - imported before the search: the
    # line is reported when memory has run out too, and an import then could fail where the graph would not
    return horizon, budget, progress


def _needs_horizon(learner: Any) -> InvalidArgumentError:
    """The refusal of a search without a horizon of a learner whose positions cannot be recognised."""
    name = type(learner).__name__
    return InvalidArgumentError(
        f"horizon: {name} exposes no state_key(), so positions cannot be recognised and the search "
        f"cannot end by itself; give a horizon (horizon=10), or add to {name} `{state_key_hint(learner)}` "
        "(a hashable summary of its learned state, equal for two states exactly when they predict alike "
        "from then on)"
    )


def _search_by_rules(learner: Any, H: HypothesisClass, rules: Rules, *, horizon: int | None,
                     max_nodes: int | None, time_limit: float | None,
                     progress: Callable[[int], None] | None = None) -> WorstCase:
    """The search under ``rules`` (:class:`~mistakebound.theory.worst_case_rules._RulesGame`), whatever they are:
    the textbook's too (its tests compare it with the textbook's search).  ``rules`` are taken as checked."""
    horizon, budget, progress = _checked(learner, H, horizon, max_nodes, time_limit, progress)
    keyed = callable(getattr(learner, "state_key", None))
    if horizon is None and not keyed:
        raise _needs_horizon(learner)
    memo_limit = _memo_limit(learner, H, budget.max_nodes, keyed, extra_bytes=rules.noise * sys.getsizeof(H.full_mask))
    game = _RulesGame(learner, H, rules, horizon, keyed, budget.start(), progress, memo_limit)
    with spending(time_limit):  # the learner's own searches stop by the same deadline
        return _finish(game, game.run(), learner, H, horizon, rules)


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
    horizon, budget, progress = _checked(learner, H, horizon, max_nodes, time_limit, progress)
    from mistakebound.theory.symmetry import declared_symmetries, policy_of

    policy = policy_of(learner, H) if fast and recorder is None else None
    keyed = policy is not None or callable(getattr(learner, "state_key", None))
    if horizon is None and not keyed:
        raise _needs_horizon(learner)
    memo_limit = _memo_limit(learner, H, budget.max_nodes, keyed)
    if policy is not None:
        symmetries = declared_symmetries(learner) if symmetry else frozenset()
        game: Any = _FastGame(learner, H, horizon, budget.start(), progress, memo_limit, policy, symmetries)
    else:
        game = _Game(learner, H, horizon, keyed, budget.start(), progress, memo_limit, recorder)
    with spending(time_limit):  # the learner's own searches (SOA's Ldim questions) stop by the same deadline
        return _finish(game, game.run(), learner, H, horizon)


def _finish(game: Any, status: str, learner: Any, H: HypothesisClass, horizon: int | None,
            rules: Rules | None = None) -> WorstCase:
    """The :class:`WorstCase` a search run ended with ``status`` proved (a partial one's lines compared)."""
    if status == "exact":
        lower = upper = game.value
        line = game.line
    else:
        try:
            lower, line = game.incumbent
        except (*SEARCH_STOPS, KeyboardInterrupt):  # rebuilding the line asks the learner again, whose own
            lower, line = 0, ()  # search may be out of memory, time or stopped by a signal: the empty line is proven
        if status == "memory":
            for memo in (game.memo, getattr(game, "quick", {}), getattr(game, "exact", {})):
                memo.clear()  # room for what follows
        if status in ("budget", "memory"):  # a second line, cheap, from answering against each prediction
            try:
                lower, line = max((lower, line), game.greedy_line(), key=lambda t: t[0])
            except KeyboardInterrupt:
                status = "interrupted"
            except (MemoryError, OutOfBudget):  # a learner's own search past the deadline: the line found stands
                pass
        upper = math.inf if horizon is None else horizon
    return WorstCase(
        lower=lower, upper=upper, status=status, witness=_strategy_graph(line, lower), nodes=game.clock.nodes,
        seconds=game.clock.seconds, learner=describe(learner), class_name=H.describe(), horizon=horizon,
        rules=rules,
    )


def _strategy_graph(line: tuple, value: float) -> nx.DiGraph:
    from mistakebound.theory.tree_graphs import AdversaryLine

    G = AdversaryLine(value=value)
    G.add_node(0)
    for t, (x, p, y, gain) in enumerate(line):
        G.nodes[t].update(instance=x, prediction=p, label=y, gain=gain)
        G.add_edge(t, t + 1, label=y)
    return G
