"""The exact value of the mistake-bound game in every setting of labels, feedback and noise.

The textbook's game has two labels, full information and a realizable adversary; its
value for deterministic learners is the Littlestone dimension.  :func:`game_value`
computes the value of the game a :class:`~mistakebound.game.rules.Rules` names, on a
finite table of hypotheses over ``k`` labels (a matrix of integers ``0..k-1``, one row
per hypothesis):

* **labels** ``k >= 2``: with full information the value is the multiclass Littlestone
  dimension (Daniely, Sabato, Ben-David and Shalev-Shwartz 2011);
* **bandit feedback**: the learner learns only whether it erred; the value is the bandit
  Littlestone dimension (Daniely and Helbertal 2013).  With two labels a wrong guess
  reveals the label, so the two feedbacks give the same value;
* **noise budget** ``r``: the adversary's labels must agree with some hypothesis on all but
  at most ``r`` rounds.

The state of the game is, for each distinct row of the table, the fewest mistakes that
hypothesis can have made given what the learner has seen, rows past ``r`` dropped: with
full information a row gains a mistake when it disagrees with the label; under bandit
feedback, when it gives the predicted label after a wrong guess, or another label after
a right one (the adversary names the label later, so any row that does not give the
predicted label may still be right).  The state is kept as ``r + 1`` bitsets over the
distinct rows (row ``i`` in set ``j``: ``i`` has made ``j`` mistakes), so for ``r = 0`` it is
the version space.  The value is the minimax recursion over states

    ``v(S) = max over x of min over ŷ of max over outcomes o of [o is a mistake] + v(S_o)``

over the outcomes that leave some row (labels ``y`` with full information, "right" and
"wrong" under bandit feedback).  An outcome that leaves the state as it was is no
progress: when it is no mistake the adversary gains nothing by it (it is skipped), when
it is a mistake the learner predicted what no row of the state allows, and such a
prediction is worth ``inf`` to the adversary (a learner never needs one: predicting a
label some row gives always moves on).  Every other outcome moves a row up a level or
drops it, so the recursion ends: the potential ``sum over rows of (r + 1 - level)`` falls
at each step.  That potential, minus one, bounds the value (the learner that predicts
the label of a row with the fewest mistakes costs its row a mistake each time it errs);
with full information (or two labels) so does the binomial-weights bound, the largest
``q`` with ``2^q <= sum over rows of sum_{i <= b} C(q, i) (k - 1)^i`` for a row's remaining
budget ``b`` (a plurality vote over every copy of a row with at most ``b`` of its answers
changed loses at least half its copies at each mistake: Cesa-Bianchi, Freund, Helmbold,
Haussler, Schapire and Warmuth 1997; for ``r = 0``, ``log2 |V|``).  The search stops looking
at a state's instances once one reaches its bound.  ``r`` bounds the value from below on a class with an instance (the adversary keeps one
hypothesis and labels against the learner ``r`` times): a search out of its budget
reports these, or what it proved of the root, as its interval.

Against a deterministic learner an oblivious adversary can simulate the learner and
commit to the adaptive adversary's sequence, so adaptivity does not change the value.
A randomized learner (``Rules(randomized=True)``) pays its expected mistakes.  With full
information, at each instance it spreads probability over the labels (see
:meth:`_Search.randomized_instance`); with two labels and no noise this is the randomized
Littlestone dimension (:mod:`mistakebound.theory.randomized_ldim`), an exact fraction.

**Randomized learners under bandit feedback** (Daniely and Helbertal 2013; Filmus, Hanneke,
Mehalel and Moran, NeurIPS 2024).  Each round the adversary picks ``x``; the learner
announces a distribution ``p`` over labels; the adversary, which has seen ``p`` and every
earlier draw but not this one, names ``y``; the learner pays ``1 - p_y`` in expectation;
the engine draws ``ŷ ~ p`` and the learner learns only whether ``ŷ == y``.  Knowing the
past draws, the adversary knows what the learner knows, and the state is the learner's:
the bandit state above, where a wrong round's label is named only at the end (any label
but the draw).  A step is the matrix game (:func:`~mistakebound.theory.matrix_games.matrix_game`,
exact) ``A[ŷ][y] = [ŷ != y] + v(S after (ŷ, y))``: a right draw ``y`` charges the rows
not giving ``y``, a wrong draw ``ŷ`` the rows giving ``ŷ``.  Its rows are the learner's
labels, those some row of ``S`` gives at ``x`` (live labels); its columns the live labels,
and, when some row has a mistake to spare and some label is given by no row, one column
more, every draw wrong (a label no row gives, named as noise).  The no-progress moves:

* a wrong draw of a label no row gives changes nothing; the learner draws only live labels,
  so it never makes it.  Without noise this is no restriction: such a row costs ``1 + v(S)``
  in every column, at least any live row's entry (``v`` of a state with rows moved up is at
  most ``v(S)``), and mixing it in only adds ``l / (1 - l)`` for its weight ``l`` (the
  adversary repeats the instance while the draw falls on it).  With noise it is a
  restriction we make: such a draw can be "right" when the adversary names that label as
  noise, and the values here are those of learners that do not use it;
* a right draw changes nothing only when every row gives the label: the learner then draws
  it (the only live label), the adversary's naming it gains nothing, and the instance is
  worth ``1 + v(every row one mistake more)`` when a row may err, else nothing.

Every other entry moves a row, so the recursion ends as above; with two labels and no noise
a wrong draw reveals the label and the step is the full-information one.  The same
restriction makes the upper bounds above hold (a deterministic learner is one of these).
An oblivious adversary, blind to the draws, may be weaker against a randomized learner
under bandit feedback; its value depends on the number of rounds, and
:mod:`mistakebound.theory.oblivious_values` computes it (``game_value`` refuses those rules).
With full information it is the adaptive value (the adversary's best mixed label at each
step depends on the labels so far only), which ``game_value`` gives.

Examples
--------
>>> import numpy as np
>>> M = np.array([[0, 0], [1, 1], [2, 2], [0, 1]])   # four hypotheses, two instances, three labels
>>> game_value(M, Rules(labels=3)).describe()
'value = 1'
>>> game_value(M, Rules(labels=3, feedback="bandit")).value
2
>>> game_value(M, Rules(labels=3, noise=1)).value
3
>>> game_value(M, Rules(labels=3, randomized=True)).value, game_value(M, Rules(labels=3, feedback="bandit",
...                                                                             randomized=True)).value
(Fraction(5, 6), Fraction(35, 29))
"""

from __future__ import annotations

import contextlib
import functools
import math
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np
from attrs import frozen

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.feedback import BanditFeedback
from mistakebound.game.players import Adversary, Learner, snapshot_of
from mistakebound.game.rules import Rules, require_adaptive_order, require_rules
from mistakebound.foundations import memory
from mistakebound.theory.matrix_games import matrix_game
from mistakebound.theory.search_protocol import Budget, OutOfMemory, SearchResult, memo_share, run_within

__all__ = ["GameSearch", "GameValue", "game_value", "install_order_engine", "solve_game", "table_of", "water_level"]

#: A plan of the bandit adversary (:meth:`GameSearch.plan`) stops after this many rounds in a row that change
#: nothing: its learner keeps predicting labels no hypothesis left gives, and errs in each of them.
STUCK_ROUNDS = 64
#: Bytes a memo entry costs besides its bitsets (the dict slot, the tuple, the int value).
ENTRY_BYTES = 200


@frozen
class GameValue(SearchResult):
    """Proven bounds on the game's value (see :func:`game_value`): mistakes, or expected mistakes of a randomized
    learner.

    Attributes
    ----------
    rules : Rules
        The game whose value it is.
    """

    quantity: ClassVar[str] = "value"

    rules: Rules = Rules()


def table_of(matrix: Any, labels: int) -> np.ndarray:
    """``matrix`` (a 2-d array of integers in ``0..labels-1``, or a :class:`HypothesisClass`) as an int array.

    Raises
    ------
    InvalidArgumentError
        Naming ``matrix``: not 2-d, no rows, or an entry that is not a label below ``labels``.

    Examples
    --------
    >>> table_of([[0, 2]], 3).tolist()
    [[0, 2]]
    >>> table_of([[0, 3]], 3)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: matrix: expected labels in 0..2 (labels=3), got 3 at row 0, column 1
    """
    if isinstance(matrix, HypothesisClass):
        if matrix.n_labels != labels:
            raise InvalidArgumentError(f"rules: the game has {labels} labels and H, {matrix.describe()}, has "
                                       f"{matrix.n_labels}; expected rules with labels={matrix.n_labels}")
        matrix = matrix.matrix
    try:
        M = np.asarray(matrix)
    except Exception as exc:  # noqa: BLE001 - anything numpy cannot read is no table
        raise InvalidArgumentError(f"matrix: expected a 2-d array of labels, got {type(matrix).__name__}") from exc
    if M.ndim != 2 or M.shape[0] == 0:
        raise InvalidArgumentError(f"matrix: expected a 2-d array with at least one row, got shape {M.shape}")
    if M.dtype == bool:
        M = M.astype(np.int64)
    if not np.issubdtype(M.dtype, np.integer):
        if not (np.issubdtype(M.dtype, np.floating) and np.all(np.isfinite(M)) and np.all(M == np.round(M))):
            raise InvalidArgumentError(f"matrix: expected integer labels in 0..{labels - 1}, got dtype {M.dtype}")
        M = M.astype(np.int64)
    bad = np.argwhere((M < 0) | (M >= labels))
    if len(bad):
        i, j = (int(v) for v in bad[0])
        raise InvalidArgumentError(f"matrix: expected labels in 0..{labels - 1} (labels={labels}), "
                                   f"got {M[i, j]} at row {i}, column {j}")
    return M.astype(np.int64)


def _deterministic(rules: Any) -> Rules:
    rules = require_adaptive_order(require_rules(rules), "GameSearch")
    if rules.randomized:
        raise NotApplicableError("rules: GameSearch plays deterministic learners; the randomized value is "
                                 "game_value's")
    return rules


class _Search:
    """The memoised recursion over states of ``r + 1`` bitsets (see the module docstring)."""

    def __init__(self, M: np.ndarray, rules: Rules, clock):
        # identical hypotheses are one: the adversary needs only one of them (row_to_distinct[i]: row i's)
        rows, inverse = np.unique(M, axis=0, return_inverse=True)
        self.row_to_distinct = inverse.reshape(-1)
        self.n = rows.shape[0]
        self.full = (1 << self.n) - 1
        self.k, self.r, self.bandit = rules.labels, rules.noise, rules.feedback == "bandit"
        self.randomized = rules.randomized
        # per instance, per label, the bitset of distinct rows giving that label there
        self.columns = [[sum(1 << i for i in range(self.n) if rows[i, j] == y) for y in range(self.k)]
                        for j in range(rows.shape[1])]
        self.clock = clock
        # the memo is limited to its share of the memory available (None: unknown, no limit); a search
        # that would outgrow it stops with status "memory" and its proven interval
        self.entry = ENTRY_BYTES + (rules.noise + 1) * ((self.n + 7) // 8 + 28)
        share = memo_share(memory.available_memory())
        self.memo_limit = None if share is None else max(1, share // self.entry)
        self.memo: dict[tuple[int, ...], int] = {}
        self._bounds: dict[tuple[int, ...], int] = {}
        self.root = (self.full,) + (0,) * self.r  # every row, no mistake yet
        self.root_lower = 0

    def after(self, S: tuple[int, ...], agree: int) -> tuple[int, ...]:
        """The state once the rows of ``agree`` made no mistake and the others one more."""
        disagree = self.full ^ agree
        return tuple((S[j] & agree) | (S[j - 1] & disagree if j else 0) for j in range(len(S)))

    def outcomes(self, S: tuple[int, ...], cols: list[int], guess: int) -> list[tuple[Any, bool, tuple[int, ...]]]:
        """``(outcome, mistake, state after)`` for every outcome of predicting ``guess`` that leaves a row: the
        outcome is the label with full information, whether the guess was right under bandit feedback."""
        if self.bandit:
            triples = ((True, False, self.after(S, cols[guess])), (False, True, self.after(S, self.full ^ cols[guess])))
        else:
            triples = ((y, y != guess, self.after(S, cols[y])) for y in range(self.k))
        return [(outcome, mistake, T) for outcome, mistake, T in triples if any(T)]

    def worth(self, S: tuple[int, ...], mistake: bool, T: tuple[int, ...], value: Any = None) -> float | None:
        """What an outcome from ``S`` to ``T`` is worth to the adversary: None when it changes nothing and costs the
        learner nothing (no progress: it is never chosen), ``inf`` when it changes nothing and is a mistake (the
        learner predicted what no row allows: repeated forever), else the mistake and ``v(T)`` (``value(T)`` when
        ``value`` is given: the horizon-limited search passes the values one round shorter)."""
        if T == S:
            return math.inf if mistake else None
        return int(mistake) + (value or self.value)(T)

    def guess_worth(self, S: tuple[int, ...], cols: list[int], guess: int, enough: float = math.inf,
                    value: Any = None) -> float:
        """The adversary's best answer to ``guess`` (it stops once it reaches ``enough``, a value already found)."""
        best = 0
        for _, mistake, T in self.outcomes(S, cols, guess):
            worth = self.worth(S, mistake, T, value)
            if worth is not None and worth > best:
                best = worth
                if best >= enough:
                    break
        return best

    @contextlib.contextmanager
    def deep(self) -> Iterator[None]:
        """The interpreter's recursion limit raised, for as long as it lasts, to the deepest line (the potential)."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.n * (self.r + 1) + 1000))
        try:
            yield
        finally:
            sys.setrecursionlimit(limit)

    def solve(self, S: tuple[int, ...], root: bool = False) -> float:
        """:meth:`value` under :meth:`deep`."""
        with self.deep():
            return self.value(S, root)

    def upper(self, S: tuple[int, ...]) -> int:
        """A proven upper bound on ``v(S)`` (see the module docstring): the potential minus one, and with full
        information (or two labels) the binomial-weights bound."""
        counts = tuple(S[j].bit_count() for j in range(len(S)))
        bound = self._bounds.get(counts)  # it depends on the rows' counts per level alone
        if bound is None:
            bound = self._bounds[counts] = self._bound(counts)
        return bound

    def _bound(self, counts: tuple[int, ...]) -> int:
        potential = sum(c * (self.r + 1 - j) for j, c in enumerate(counts)) - 1
        if self.bandit and self.k > 2:
            return potential
        q = 0  # the largest q with 2^q <= sum over rows of the flip patterns of at most their budget in q rounds
        while q < potential and 2 ** (q + 1) <= sum(
                c * sum(math.comb(q + 1, i) * (self.k - 1) ** i for i in range(self.r - j + 1))
                for j, c in enumerate(counts) if c):
            q += 1
        return q

    def value(self, S: tuple[int, ...], root: bool = False) -> float:
        known = self.memo.get(S)
        if known is not None:
            return known
        if self.memo_limit is not None and len(self.memo) >= self.memo_limit:
            raise OutOfMemory  # the memo would outgrow its share of the memory: stop before it does
        self.clock.spend()
        best, cap = 0, self.upper(S)
        for cols in self.columns:
            if best >= cap:
                break  # no instance can do better: the bound is reached
            best = max(best, self.instance_value(S, cols, best))
            if root:
                self.root_lower = max(self.root_lower, best)
        self.memo[S] = best
        return best

    def instance_value(self, S: tuple[int, ...], cols: list[int], best: float = 0, value: Any = None,
                       loops: bool = False) -> float:
        """What the adversary gets by the instance of columns ``cols`` from ``S``, against the best learner of the
        rules: ``min over guesses of guess_worth`` (deterministic), :meth:`randomized_instance` or
        :meth:`bandit_instance`.  A deterministic learner's guesses stop once one is worth at most ``best`` (the
        instance is then no better than one already found, and what it returns is at most ``best``); ``value``
        gives the states' values (default :meth:`value`), ``loops`` is :meth:`randomized_instance`'s."""
        if self.randomized and self.bandit:
            return self.bandit_instance(S, cols, value or self.value)
        if self.randomized:
            return self.randomized_instance(S, cols, value, loops)
        learner = math.inf  # the learner's best prediction at this instance
        for guess in range(self.k):
            # an answer reaching the best prediction so far shows this one is no better
            learner = min(learner, self.guess_worth(S, cols, guess, enough=learner, value=value))
            if learner <= best:
                break  # this instance is no better for the adversary than one already found
        return learner

    def bandit_instance(self, S: tuple[int, ...], cols: list[int], value: Any) -> Fraction:
        """What the adversary gets at one instance against the best randomized prediction under bandit feedback.

        The matrix game of the module docstring, solved exactly (:func:`~mistakebound.theory.matrix_games.
        matrix_game`): rows are the labels some row of ``S`` gives (the learner's), columns the labels the
        adversary may name, entry ``[ŷ != y] + v(S after the outcome)``; when every row gives the same label the
        instance is worth ``1 + v(every row one mistake more)`` if some row has budget left, else nothing.
        """
        live = [y for y in range(self.k) if any(level & cols[y] for level in S)]
        noisy = any(self.after(S, 0))  # some row has a mistake to spare: a label no row gives is legal
        if len(live) == 1 and not noisy:  # every row gives this label, none may err: nothing to gain here
            return Fraction(0)
        wrong = [1 + value(self.after(S, self.full ^ cols[z])) for z in live]  # a wrong draw z: rows giving z err
        if len(live) == 1:  # every row gives this label: the learner draws it, the adversary can only add noise
            return wrong[0]
        right = [value(self.after(S, cols[y])) for y in live]
        game = [[right[i] if i == j else wrong[i] for j in range(len(live))] for i in range(len(live))]
        if noisy and len(live) < self.k:
            for i, row in enumerate(game):
                row.append(wrong[i])  # a label no row gives: every draw is wrong
        return matrix_game(game)[0]

    def randomized_instance(self, S: tuple[int, ...], cols: list[int], value: Any = None,
                            loops: bool = False) -> Fraction:
        """What the adversary gets at one instance against the best randomized prediction (full information).

        The learner gives label ``y`` probability ``p_y`` and pays ``1 - p_y`` when the label is ``y``: it
        minimises ``max over labels y that leave a row of 1 - p_y + v(S_y)``.  A label that changes nothing
        (every row of the state gives it) must get probability 1, or the adversary repeats it forever; then
        the value is ``1 + v(S_y)`` for the best other label.  Otherwise it is the least ``t >= max v(S_y)``
        with ``sum over y of max(0, 1 + v(S_y) - t) <= 1`` (the learner fills the labels of highest value
        first): for two labels the randomized Littlestone recursion (FHMM 2023).  With ``loops`` (a game of
        a fixed number of rounds, ``value`` one round shorter) a label that changes nothing is a label like
        the others, worth ``value(S)``: the adversary's repeats are limited by the rounds left.
        """
        forced, values = False, []
        for _, _, T in self.outcomes(S, cols, 0):  # every label that leaves a row (the guess plays no part)
            if T == S and not loops:
                forced = True
            else:
                values.append((value or self.value)(T))
        if forced:
            return max((1 + v for v in values), default=Fraction(0))
        return water_level(values)


def water_level(values: list) -> Fraction:
    """The least ``t >= max(values)`` with ``sum over v of max(0, 1 + v - t) <= 1``: what the best randomized
    prediction concedes when label ``y`` leads to a state of value ``values[y]`` (0 for no label).

    The learner gives label ``y`` probability ``max(0, 1 + v_y - t)``, filling the labels of highest
    value first (see :meth:`_Search.randomized_instance`).

    Examples
    --------
    >>> water_level([0, 0]), water_level([2, 0]), water_level([1, 1, 1])
    (Fraction(1, 2), Fraction(2, 1), Fraction(5, 3))
    """
    if not values:
        return Fraction(0)
    values = sorted(values, reverse=True)
    total = Fraction(0)
    for m, v in enumerate(values, 1):
        total += 1 + v
        t = (total - 1) / m
        if m == len(values) or t >= 1 + values[m]:
            return max(t, values[0])
    raise AssertionError("unreachable: the last m always answers")  # pragma: no cover


#: How the game is solved when someone else orders the instances (``rules.order`` not the default):
#: ``engine(matrix, rules, max_nodes=, time_limit=) -> (OrderValue, search)``.
#: :mod:`mistakebound.theory.instance_orders` installs it (the package imports that module), so this module,
#: whose results and tables the order searches build on, does not import them.
_order_engine: Any = None


def install_order_engine(engine: Any) -> None:
    """Install the search behind ``game_value(matrix, Rules(order=...))`` (done by
    :mod:`mistakebound.theory.instance_orders` on import)."""
    global _order_engine
    from mistakebound.foundations.validation import check_callable

    _order_engine = check_callable("engine", engine)


def game_value(matrix: Any, rules: Rules = Rules(), *, max_nodes: int | None = None,
               time_limit: float | None = None) -> GameValue:
    """The value of the game ``rules`` names on a finite table, within a budget.

    The largest number of mistakes an adversary playing by ``rules`` can force on every
    deterministic learner (equivalently, what the best deterministic learner can hold
    it to); with ``rules.randomized``, the expected mistakes it can force on every
    randomized learner, an exact fraction.  See the module docstring for the recursion.

    Parameters
    ----------
    matrix : array_like or HypothesisClass
        One row per hypothesis, one column per instance, integer labels in ``0..k-1``
        (``k = rules.labels``).
    rules : Rules
        The game (default: the textbook's, whose value is the Littlestone dimension).
    max_nodes, time_limit : int or float, optional
        A budget of states expanded and/or seconds.  The memo of values is limited to its
        share of the memory available (:func:`~mistakebound.theory.search_protocol.memo_share`).

    Returns
    -------
    GameValue
        Exact, or proven bounds with the status ``"budget"``, ``"interrupted"`` (Ctrl-C) or
        ``"memory"``.

    Raises
    ------
    InvalidArgumentError
        For a bad table, a label outside ``0..k-1``, or a bad budget.
    NotApplicableError
        For a randomized learner against an oblivious adversary under bandit feedback, whose value depends on
        the number of rounds (:func:`~mistakebound.theory.oblivious_values.oblivious_value`); for an order
        other than the default with bandit feedback or a noise budget.

    Notes
    -----
    With ``rules.order`` other than ``"adaptive"`` someone else orders the instances, and
    the value is the order's (:func:`~mistakebound.theory.instance_orders.solve_order`): the
    self-directed complexity (:mod:`~mistakebound.theory.self_directed`), the best or worst
    order's value (:mod:`~mistakebound.theory.instance_orders`), or the transductive game's
    without a number of rounds, which is the worst order's
    (:mod:`~mistakebound.theory.transductive`); an
    :class:`~mistakebound.theory.order_games.OrderValue` with its witness.

    Examples
    --------
    >>> from mistakebound import classes
    >>> game_value(classes.thresholds(7)).value   # the textbook's game: Ldim
    3
    >>> [game_value(classes.thresholds(7), Rules(order=o)).value for o in ("self-directed", "best", "worst")]
    [1, 1, 3]
    >>> game_value(classes.thresholds(7), Rules(noise=1)).value
    5
    >>> b = game_value(classes.power_set(6), Rules(noise=2), max_nodes=3)
    >>> b.status, b.lower <= b.upper
    ('budget', True)
    """
    return solve_game(matrix, rules, max_nodes=max_nodes, time_limit=time_limit)[0]


def solve_game(matrix: Any, rules: Rules = Rules(), *, max_nodes: int | None = None,
               time_limit: float | None = None) -> tuple[GameValue, _Search]:
    """:func:`game_value`, and the search that found it: its memo of exact values, which the certificate
    writer (:mod:`mistakebound.theory.game_certificate`) reads.

    Examples
    --------
    >>> value, search = solve_game([[0, 1], [1, 2]], Rules(labels=3))
    >>> value.value, search.memo[search.root]
    (1, 1)
    """
    rules = require_rules(rules)
    if rules.order != "adaptive":  # someone else orders the instances: the order searches (issue 24)
        if _order_engine is None:  # pragma: no cover - the package imports the engine
            raise NotApplicableError("rules: no search of the orders installed; import "
                                     "mistakebound.theory.instance_orders")
        return _order_engine(matrix, rules, max_nodes=max_nodes, time_limit=time_limit)
    if rules.randomized and not rules.adaptive and rules.feedback == "bandit":
        raise NotApplicableError("rules: adaptive=False with randomized=True and bandit feedback: the oblivious "
                                 "adversary's value depends on the number of rounds; expected "
                                 "oblivious_value(matrix, rules, horizon) (mistakebound.theory.oblivious_values)")
    M = table_of(matrix, rules.labels)
    clock = Budget(max_nodes=max_nodes, time_limit=time_limit).start()
    search = _Search(M, rules, clock)
    root = search.root
    status = run_within(lambda: search.solve(root, root=True))
    if status == "exact":
        value = search.memo[root]
        return GameValue(value, value, nodes=clock.nodes, seconds=clock.seconds, rules=rules), search
    # the adversary keeps one hypothesis and labels against the learner r times (a randomized one: against
    # a label it gives probability at most 1/2)
    floor = (Fraction(rules.noise, 2) if rules.randomized else rules.noise) if M.shape[1] else 0
    lower = max(floor, search.root_lower)
    upper = max(lower, search.upper(root))
    return GameValue(lower, upper, status=status, nodes=clock.nodes, seconds=clock.seconds, rules=rules), search


class GameSearch:
    """The exact search of :func:`game_value`, kept for the optimal players that ask it about many states.

    The memo lives as long as the search: the learner and the adversary it makes
    (:meth:`learner`, :meth:`adversary`) share it, so a state met twice is searched once.
    No budget: for classes whose value :func:`game_value` finds within one.

    Parameters
    ----------
    H : HypothesisClass or array_like
        The class (its instances are its domain), or a table (its instances are the column
        indices ``0..m-1``).
    rules : Rules
        Deterministic rules (``randomized=False``).

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> H = classes.thresholds(7)
    >>> search = GameSearch(H, Rules(noise=1))
    >>> search.value(search.root)
    5
    >>> T = play(search.learner(), search.adversary(), H, rounds=50, rules=Rules(noise=1))
    >>> T.mistakes, T.best_hypothesis_mistakes <= 1
    (5, True)
    """

    def __init__(self, H: Any, rules: Rules = Rules()):
        M = table_of(H, _deterministic(rules).labels)
        self.rules = rules
        # the instances: the class's domain (its own index), or a table's column indices
        self.domain = H.domain if isinstance(H, HypothesisClass) else tuple(range(M.shape[1]))
        self._index_of = H.index_of if isinstance(H, HypothesisClass) else {j: j for j in self.domain}.__getitem__
        self._search = _Search(M, rules, Budget().start())
        self.root = self._search.root

    @staticmethod
    @functools.lru_cache(maxsize=16)
    def shared(H: HypothesisClass, rules: Rules) -> GameSearch:
        """One search per class and rules, kept for the players of many games (the last 16 asked for).

        Its memo holds the values of the states its players asked about: a class's games
        after the first cost what the first did not search.

        Examples
        --------
        >>> from mistakebound import classes
        >>> GameSearch.shared(classes.thresholds(7), Rules()) is GameSearch.shared(classes.thresholds(7), Rules())
        True
        """
        return GameSearch(H, rules)

    def column(self, x: Any) -> int:
        """The column of instance ``x``."""
        try:
            return self._index_of(x)
        except (KeyError, TypeError):
            raise InvalidArgumentError(f"x: expected an instance of the class, got {x!r}") from None

    def value(self, S: tuple[int, ...]) -> int:
        """``v(S)``: the mistakes the adversary can still force from state ``S``."""
        return self._search.solve(S)

    def _guess_value(self, S: tuple[int, ...], j: int, guess: int) -> float:
        with self._search.deep():
            return self._search.guess_worth(S, self._search.columns[j], guess)

    def best_guess(self, S: tuple[int, ...], j: int) -> int:
        """The optimal learner's prediction at column ``j`` from state ``S`` (the smallest label on a tie)."""
        return min(range(self.rules.labels), key=lambda guess: self._guess_value(S, j, guess))

    def best_instance(self, S: tuple[int, ...]) -> int | None:
        """The optimal adversary's column from state ``S``: the first reaching ``v(S)``, None when ``v(S) = 0``."""
        target = self.value(S)
        if target == 0:
            return None
        for j in range(len(self._search.columns)):
            if min(self._guess_value(S, j, guess) for guess in range(self.rules.labels)) == target:
                return j
        raise AssertionError("no instance reaches the state's value")  # pragma: no cover - v(S) is a max over them

    def best_outcome(self, S: tuple[int, ...], j: int, guess: int) -> Any:
        """The optimal adversary's answer to ``guess`` at column ``j``: a label with full information, whether the
        guess was right under bandit feedback (the outcome worth most to it, the first on a tie)."""
        search, best, chosen = self._search, -1, None
        with search.deep():
            for outcome, mistake, T in search.outcomes(S, search.columns[j], guess):
                worth = search.worth(S, mistake, T)
                if worth is not None and worth > best:
                    best, chosen = worth, outcome
        return chosen

    def after(self, S: tuple[int, ...], j: int, outcome: Any, guess: int | None = None) -> tuple[int, ...]:
        """The state once column ``j`` got ``outcome`` (a label; under bandit feedback, whether ``guess`` was right)."""
        search, cols = self._search, self._search.columns[j]
        if search.bandit:
            return search.after(S, cols[guess] if outcome else search.full ^ cols[guess])
        return search.after(S, cols[outcome])

    def learner(self) -> Learner:
        """The optimal deterministic learner, for :func:`~mistakebound.game.play.play` with ``rules=`` the
        search's: at each instance the prediction of least worth to the adversary (under bandit feedback it
        learns from whether it erred, and declares ``feedbacks = ("full", "bandit")``)."""
        return _OptimalLearner(self)

    def adversary(self, learner: Any = None) -> Adversary:
        """The optimal adversary, for :func:`~mistakebound.game.play.play` with ``rules=`` the search's: the
        instance and the outcome of most worth, within the noise budget.

        Under bandit feedback the outcome is whether the learner erred, and the referee still
        takes a label: the adversary plans the rest of the game against a deterministic
        learner whose moves it knows (``learner``, a copy of which it runs beside the game;
        by default the optimal learner) and labels by a hypothesis left at the end of that
        plan.  Its labels are always legal, and against that learner every outcome it plans
        is played, so it forces the value (as on every learner with full information: the
        adversary of the minimax recursion, once the learner is known).  If the learner
        leaves the plan (another learner than the one planned against), it plans again
        against the optimal learner, and forces what its labels allow.
        """
        return _OptimalAdversary(self, learner)

    def row_label(self, h: int, j: int) -> int:
        """The label distinct row ``h`` gives column ``j``."""
        cols = self._search.columns[j]
        return next(y for y in range(self.rules.labels) if cols[y] >> h & 1)

    def plan(self, S: tuple[int, ...], learner: Any = None, t: int = 1) -> tuple[int, ...]:
        """The state at the end of the game from ``S`` (round ``t``) between the optimal adversary and ``learner``
        (a copy it may change; under bandit feedback it learns from a BanditFeedback), by default the optimal
        learner."""
        stuck = 0  # rounds in a row that changed nothing (a mistake on a label no row gives)
        while any(S):
            j = self.best_instance(S)
            if j is None:
                return S
            guess = self.best_guess(S, j) if learner is None else learner.predict_one(self.domain[j])
            outcome = self.best_outcome(S, j, guess)
            S, before = self.after(S, j, outcome, guess), S
            stuck = stuck + 1 if S == before else 0
            if stuck > STUCK_ROUNDS:  # a learner that keeps predicting what no row gives: it errs for ever
                return S
            if learner is not None:
                learner.learn_one(self.domain[j], BanditFeedback(t, guess, outcome, tuple(range(self.rules.labels))))
            t += 1
        return S  # pragma: no cover - a state the optimal adversary reaches keeps a row


class _OptimalLearner(Learner):
    def __init__(self, search: GameSearch):
        self.search, self.S, self._guess = search, search.root, 0
        self.feedbacks = (search.rules.feedback,) if search.rules.feedback == "full" else ("full", "bandit")

    def predict_one(self, x: Any) -> int:
        j = self.search.column(x)
        self._guess = self.search.best_guess(self.S, j) if any(self.S) else 0
        return self._guess

    def learn_one(self, x: Any, y: Any) -> None:
        if any(self.S):  # past the budget (an unrealizable game beyond it) nothing is left to follow
            outcome = y.correct if self.search.rules.feedback == "bandit" else y
            self.S = self.search.after(self.S, self.search.column(x), outcome, self._guess)


class _OptimalAdversary(Adversary):
    def __init__(self, search: GameSearch, learner: Any = None):
        self.search, self.learner = search, learner
        self.start(None)

    def applies_to(self, H: Any, *, rules: Rules | None = None) -> bool:
        """The search's class, under the search's rules."""
        return rules is None or rules == self.search.rules

    def start(self, state: Any) -> None:
        search = self.search
        self.S, self.t = search.root, 1
        self.wrong = [0] * search._search.n  # under bandit feedback: each distinct row's mistakes on the labels given
        self.h: int | None = None  # the row the labels follow (bandit feedback)
        # the learner planned against, run beside the game (None: the optimal learner, or it left the plan)
        self.sim = None if self.learner is None else snapshot_of(self.learner)

    def next_instance(self, state: Any) -> Any:
        j = self.search.best_instance(self.S)
        return None if j is None else self.search.domain[j]

    def label(self, state: Any, x: Any, p: float) -> int:
        search = self.search
        j, guess = search.column(x), int(p)
        outcome = search.best_outcome(self.S, j, guess)
        if search.rules.feedback != "bandit":
            self.S = search.after(self.S, j, outcome, guess)
            return outcome
        if self.sim is not None and self.sim.predict_one(x) != guess:
            self.sim, self.h = None, None  # not the learner planned against: plan against the optimal one
        y = self._bandit_label(j, guess, outcome, x)
        self.S = search.after(self.S, j, y == guess, guess)
        for h in range(len(self.wrong)):
            self.wrong[h] += search.row_label(h, j) != y
        if self.sim is not None:
            self.sim.learn_one(x, BanditFeedback(self.t, guess, y == guess, tuple(range(search.rules.labels))))
        self.t += 1
        return y

    def _bandit_label(self, j: int, guess: int, outcome: bool, x: Any) -> int:
        """A legal label giving ``outcome`` (right or wrong) where one can, by the planned row where it can."""
        search, r = self.search, self.search.rules.noise
        wanted = [guess] if outcome else [y for y in range(search.rules.labels) if y != guess]
        # a plan is made once, and again only when its row no longer gives the outcome wanted (the learner left
        # it): a learner that follows it meets outcomes the row gives to the end
        if self.h is None or search.row_label(self.h, j) not in wanted:
            final = self._plan(search.after(self.S, j, outcome, guess), x, guess, outcome)
            kept = [h for h in range(len(self.wrong)) if any(S >> h & 1 for S in final)]
            self.h = min(kept, key=lambda h: self.wrong[h], default=None)

        def cost(y: int) -> int:  # the fewest mistakes a row has with label y: y is legal when it is at most r
            return min(self.wrong[h] + (search.row_label(h, j) != y) for h in range(len(self.wrong)))

        if self.h is not None and search.row_label(self.h, j) in wanted and cost(search.row_label(self.h, j)) <= r:
            return search.row_label(self.h, j)
        legal = [y for y in wanted if cost(y) <= r]
        return min(legal or range(search.rules.labels), key=cost)  # none legal: the outcome changes

    def _plan(self, after: tuple[int, ...], x: Any, guess: int, outcome: bool) -> tuple[int, ...]:
        """The end of the game from ``after`` (this round's ``outcome`` played) against the learner planned against."""
        if self.sim is None:
            return self.search.plan(after, t=self.t + 1)
        learner = snapshot_of(self.sim)
        learner.learn_one(x, BanditFeedback(self.t, guess, outcome, tuple(range(self.search.rules.labels))))
        return self.search.plan(after, learner, t=self.t + 1)

