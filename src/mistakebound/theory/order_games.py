"""The games in which someone else orders the instances: the state, the step and the bounds they share.

In the textbook's game the adversary picks each instance as the game goes.  Issue 24 adds
the games where the instances are ordered otherwise (:data:`~mistakebound.game.rules.ORDERS`):

* **self-directed** (:mod:`~mistakebound.theory.self_directed`): the learner picks each next
  instance;
* **best order, worst order** (:mod:`~mistakebound.theory.instance_orders`): every instance
  once, in an order fixed before the game and known to the learner;
* **transductive** (:mod:`~mistakebound.theory.transductive`): the adversary announces the
  sequence before round 1.

In every one of them the labels are the adversary's, chosen as the game goes, realizable,
and shown to the learner.  This module holds what their searches share: the class as
bitsets over its distinct rows (:class:`OrderGame`), one step of the game, the value of a
fixed sequence of instances (:meth:`OrderGame.sequence_value`), the proven bounds each
search cuts with, and the result they return (:class:`OrderValue`).

**One step.**  At an instance whose column splits the version space ``V`` into the
non-empty parts ``V_y`` (one per label some hypothesis of ``V`` gives), with ``v_y`` the
value of the game that follows part ``y``, a deterministic learner predicts the label of a
part of largest value and the adversary answers the best label against it:
``min over ŷ of max over y of [y != ŷ] + v_y = max(v_(1), v_(2) + 1)``, for the largest and
second largest ``v_y`` (:func:`step_value`; with two labels the rank recursion of
Ben-David, Kushilevitz and Mansour 1997).  A randomized learner gives label ``y``
probability ``p_y`` and pays ``1 - p_y``: the water level of
:func:`~mistakebound.theory.game_values.water_level`.  An instance on which ``V`` agrees
(one part) costs nothing and changes nothing.

**The version space is the whole state.**  When each instance is shown at most once, every
instance shown so far is one on which the version space agrees, and an instance on which it
agrees is worth nothing wherever it comes.  So the value of what is left of these games
depends on the version space alone, not on which instances were shown: the searches memoise
it by ``V`` (a bitset over the distinct rows), and two instances whose columns split ``V``
into the same parts are one (after either, the other is settled).

**Bounds every search cuts with** (:meth:`OrderGame.cap`, :meth:`OrderGame.floor`): each
order's value is at most the adaptive game's (the adversary of the textbook's game can play
any of them: Littlestone 1988), so at most ``floor(log2 |V|)`` (a plurality vote loses half
the version space at each mistake: Theorem 21.3's argument), and at most the number of
instances that still split ``V`` (one mistake each, at most; and the water level is at most
one more than its largest value); a randomized learner does no worse than a deterministic
one.  With two distinct rows left, some instance separates them, and whoever picks it the
adversary labels against the prediction: at least 1 (a randomized learner: 1/2).

Examples
--------
>>> from mistakebound import classes
>>> g = OrderGame(classes.thresholds(7))
>>> g.sequence_value(g.full, (3, 1, 5, 0, 2, 4, 6))   # binary search: every threshold is a leaf at depth 3
3
>>> g.sequence_value(g.full, tuple(range(7)))        # left to right: one mistake, at the threshold
1
>>> step_value([2, 2]), step_value([3, 1, 0]), step_value([0, 0], randomized=True)
(3, 3, Fraction(1, 2))
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np
from attrs import evolve, frozen

from mistakebound.foundations.bitset import columns_to_masks
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.rules import Rules, require_rules
from mistakebound.theory.game_values import GameValue, table_of, water_level
from mistakebound.theory.search_protocol import Budget, Clock

__all__ = ["OrderGame", "OrderValue", "Strategy", "deep", "order_rules", "step_value"]


#: How many columns splitting off one row each :meth:`OrderGame.balanced_order` compares before it stops.
BALANCE_SCAN = 256


@frozen
class OrderValue(GameValue):
    """Proven bounds on the value of a game under an order of the instances (``rules.order``), with its witness.

    Attributes
    ----------
    rules : Rules
        The game, its ``order`` among them.
    horizon : int or None
        The transductive game's number of rounds (None: any number, and every other order).
    witness
        Best and worst order: the order, every instance of the domain once (its value is the
        value: an order no better, for the best; no worse, for the worst).  Transductive: the
        announced sequence.  Self-directed: the learner's strategy, a dict from each version
        space its play reaches (a frozenset of row indices of the class, duplicates included)
        to ``(instance, prediction)``, the prediction a label (or, randomized, the probability
        of each label).  None for a partial result that found none.
    """

    quantity: ClassVar[str] = "value"

    horizon: int | None = None


def step_value(values: Sequence[Any], randomized: bool = False) -> Any:
    """What an instance is worth when its labels lead to games of the given values (one per label that
    leaves a hypothesis): ``max(v_(1), v_(2) + 1)`` for a deterministic learner, the water level for a
    randomized one; the single value when one label is left.

    Non-decreasing in each value and in adding a value, which the searches' cuts rely on.

    Examples
    --------
    >>> step_value([0, 0]), step_value([1, 0]), step_value([4])
    (1, 1, 4)
    >>> step_value([1, 0], randomized=True), step_value([0, 0, 0], randomized=True)
    (Fraction(1, 1), Fraction(2, 3))
    """
    if len(values) == 1:
        return values[0]
    if randomized:
        return water_level(list(values))
    top = second = -1
    for v in values:
        if v > top:
            top, second = v, top
        elif v > second:
            second = v
    return max(top, second + 1)


def order_rules(rules: Any, order: str) -> Rules:
    """``rules`` with ``order`` set: refused where the order's game is not defined here.

    ``rules.order`` must be the default (``"adaptive"``: not said) or ``order`` itself.  The
    orders are searched with full information, realizable labels and any number of labels,
    for deterministic or randomized learners; against a deterministic learner an oblivious
    adversary is as strong as an adaptive one (it can simulate the learner), and with full
    information against a randomized one too (see :mod:`~mistakebound.theory.game_values`),
    so ``adaptive=False`` gives the same value.

    Raises
    ------
    InvalidArgumentError
        Naming ``rules``: not a :class:`~mistakebound.game.rules.Rules`, or another order.
    NotApplicableError
        Naming ``rules``: bandit feedback or a noise budget (each instance would no longer be
        settled once shown; not searched here).

    Examples
    --------
    >>> order_rules(Rules(labels=3), "best").describe()
    '3 labels, full information, realizable, adaptive, deterministic, best order'
    >>> order_rules(Rules(noise=1), "worst")
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.NotApplicableError: rules: the worst order is searched in realizable games with full information; got noise budget 1 (expected noise=0, feedback='full')
    """
    rules = require_rules(rules)
    if rules.order not in ("adaptive", order):
        raise InvalidArgumentError(f"rules: order={rules.order!r} asked of the search of the {order!r} order; "
                                   f"expected order={order!r} or the default")
    if rules.noise or rules.feedback != "full":
        what = f"noise budget {rules.noise}" if rules.noise else "bandit feedback"
        name = {"best": "the best order", "worst": "the worst order"}.get(order, f"the {order} game")
        raise NotApplicableError(f"rules: {name} is searched in realizable games with full information; got "
                                 f"{what} (expected noise=0, feedback='full')")
    return evolve(rules, order=order)


class OrderGame:
    """A finite class as the order searches read it: bitsets over its distinct rows, one per label and column.

    Parameters
    ----------
    H : HypothesisClass or array_like
        The class (its instances are its domain), or a table of labels (its instances are the
        column indices ``0..m-1``).
    rules : Rules
        Its labels and whether the learner randomizes (checked by :func:`order_rules`).
    clock : Clock, optional
        The budget being spent (default: none).

    Attributes
    ----------
    n : int
        Distinct rows; a version space is a bitset over them, ``full`` all of them.
    columns : list of tuple of int
        For each instance, the bitset of the distinct rows giving each label.
    domain : tuple
        The instances, one per column.
    """

    def __init__(self, H: Any, rules: Rules = Rules(), clock: Clock | None = None):
        M = table_of(H, require_rules(rules).labels)
        self.domain = H.domain if isinstance(H, HypothesisClass) else tuple(range(M.shape[1]))
        if isinstance(H, HypothesisClass):  # the class's own grouping, computed once per class
            first, inverse = H.distinct_rows()
            rows = M[first]
        else:
            rows, inverse = _distinct_rows(M)
        self.row_to_distinct = inverse.reshape(-1)
        self.table = rows  # the distinct rows
        self._copies: list | None = None  # per distinct row, the class's rows equal to it
        self.n_rows = M.shape[0]
        self.n = rows.shape[0]
        self.full = (1 << self.n) - 1
        self.k = rules.labels
        self.randomized = rules.randomized
        by_label = [columns_to_masks((rows == y).astype(np.uint8)) for y in range(self.k)]  # bitsets, not loops
        self.columns = [tuple(masks[j] for masks in by_label) for j in range(rows.shape[1])]
        self.clock = clock if clock is not None else Budget().start()
        self._sequences: dict[tuple, dict] = {}
        self._adaptive: dict[int, int] = {}
        self.adaptive_choice: dict[int, int] = {}  # the adversary's instance of the textbook's game, per version space

    # ------------------------------------------------------------------ the step
    def parts(self, V: int, j: int) -> list[int]:
        """The non-empty parts of ``V`` by the label column ``j`` gives, in label order."""
        if self.k == 2:
            ones = V & self.columns[j][1]
            zeros = V ^ ones
            return [zeros, ones] if zeros and ones else [V]
        return [part for part in (V & c for c in self.columns[j]) if part]

    def labelled_parts(self, V: int, j: int) -> list[tuple[int, int]]:
        """``(label, part)`` for every label some row of ``V`` gives column ``j``."""
        return [(y, V & c) for y, c in enumerate(self.columns[j]) if V & c]

    def splits(self, V: int, j: int) -> bool:
        """Whether column ``j`` separates two rows of ``V``."""
        if self.k == 2:
            ones = V & self.columns[j][1]
            return ones != 0 and ones != V
        return sum(1 for c in self.columns[j] if V & c) >= 2

    def splitting(self, V: int) -> list[int]:
        """The columns that split ``V``, one per partition of ``V`` they make (the first in column order)."""
        seen, out = set(), []
        if self.k == 2:  # a partition in two is known by the smaller bitset of its parts
            for j, (_, column) in enumerate(self.columns):
                ones = V & column
                if ones and ones != V:
                    key = min(ones, V ^ ones)
                    if key not in seen:
                        seen.add(key)
                        out.append(j)
            return out
        for j in range(len(self.columns)):
            parts = self.parts(V, j)
            if len(parts) >= 2:
                key = frozenset(parts)
                if key not in seen:
                    seen.add(key)
                    out.append(j)
        return out

    def step(self, values: Sequence[Any]) -> Any:
        """:func:`step_value` for this game's learner."""
        return step_value(values, self.randomized)

    def prediction(self, values: Sequence[Any], labels: Sequence[int]) -> Any:
        """The optimal learner's prediction when label ``labels[i]`` leads to value ``values[i]``: the label of
        largest value (the first on a tie); randomized, the water level's probability of every label."""
        if not self.randomized:
            return labels[max(range(len(values)), key=lambda i: (values[i], -i))]
        t = water_level(list(values)) if len(values) > 1 else None
        p = [Fraction(0)] * self.k
        if t is None:
            p[labels[0]] = Fraction(1)
            return tuple(p)
        for y, v in zip(labels, values):
            p[y] = max(Fraction(0), 1 + v - t)
        slack = 1 - sum(p)  # the water level may leave probability over: on the label of largest value
        p[labels[max(range(len(values)), key=lambda i: (values[i], -i))]] += slack
        return tuple(p)

    def answer(self, V: int, j: int, guess: Any, value: Callable[[int], Any]) -> int:
        """The adversary's best label at column ``j`` from ``V`` against ``guess`` (a label, or a learner's
        probabilities), when ``value(part)`` is what follows each part: the most mistakes now and later (the
        first label on a tie)."""
        best, chosen = None, None
        for y, part in self.labelled_parts(V, j):
            cost = (1 - guess[y]) if isinstance(guess, tuple) else int(y != guess)
            worth = cost + value(part)
            if best is None or worth > best:
                best, chosen = worth, y
        return chosen

    # ------------------------------------------------------------------ bounds
    def cap(self, V: int) -> int:
        """A proven upper bound on every order's value from ``V`` (module docstring): ``floor(log2 |V|)`` and the
        number of instances that still split ``V``."""
        size = V.bit_count()
        if size <= 1:
            return 0
        return min(size.bit_length() - 1, len(self.splitting(V)))

    def adaptive_value(self, V: int) -> int:
        """The textbook's game from ``V`` (the adversary picks each instance as the game goes) for a deterministic
        learner: the Littlestone dimension, multiclass with ``k`` labels (Daniely, Sabato, Ben-David and
        Shalev-Shwartz 2011), ``max over x of 1 + the second largest value of its parts``; an upper bound on every
        order's value, randomized ones included.  Memoised by ``V``; it stops at :meth:`cap`.

        Examples
        --------
        >>> from mistakebound import classes
        >>> g = OrderGame(classes.thresholds(15))
        >>> g.adaptive_value(g.full)
        4
        """
        with deep(self.n):
            return self._adaptive_value(V)

    def _adaptive_value(self, V: int) -> int:
        if V.bit_count() <= 1:
            return 0
        known = self._adaptive.get(V)
        if known is not None:
            return known
        self.clock.spend()
        best, cap = 1, self.cap(V)
        columns = self.splitting(V)
        choice = columns[0]
        for j in columns:
            if best >= cap:
                break
            parts = sorted(self.parts(V, j), key=int.bit_count)
            if len(parts) == 2:
                small = self._adaptive_value(parts[0])
                if 1 + small <= best:
                    continue  # the smaller part bounds what this instance gives
                here = 1 + min(small, self._adaptive_value(parts[1]))
            else:
                here = 1 + sorted(self._adaptive_value(part) for part in parts)[-2]
            if here > best:
                best, choice = here, j
        self._adaptive[V] = best
        self.adaptive_choice[V] = choice
        return best

    def floor(self, V: int) -> Any:
        """A proven lower bound on every order's value from ``V``: 1 (randomized 1/2) with two rows, else 0."""
        if V.bit_count() <= 1:
            return 0
        return Fraction(1, 2) if self.randomized else 1

    # ------------------------------------------------------------------ a fixed sequence
    def sequence_value(self, V: int, sequence: Sequence[int], start: int = 0) -> Any:
        """The value of the game from ``V`` on the columns ``sequence[start:]``, in that order, known to the learner
        (Ben-David, Kushilevitz and Mansour's off-line game), memoised by ``(V, position)``.

        Examples
        --------
        >>> g = OrderGame([[0, 0], [0, 1], [1, 0], [1, 1]])
        >>> g.sequence_value(g.full, (0, 1)), g.sequence_value(g.full, (1,)), g.sequence_value(g.full, ())
        (2, 1, 0)
        """
        sequence = tuple(sequence)
        memo = self._sequences.setdefault(sequence, {})
        with deep(len(sequence)):
            return self._sequence_value(V, sequence, start, memo)

    def _sequence_value(self, V: int, sequence: tuple, i: int, memo: dict) -> Any:
        if V & (V - 1) == 0:
            return 0  # one row left (or none): nothing to learn
        while i < len(sequence) and not self.splits(V, sequence[i]):
            i += 1  # an instance on which V agrees: no mistake, nothing learnt
        if i == len(sequence):
            return 0
        known = memo.get((V, i))
        if known is not None:
            return known
        self.clock.spend()
        value = self.step([self._sequence_value(part, sequence, i + 1, memo) for part in self.parts(V, sequence[i])])
        memo[(V, i)] = value
        return value

    def uneven_order(self, V: int) -> tuple[int, ...]:
        """The columns splitting ``V``, the ones that split it most unevenly first (the fewest rows in all but its
        largest part; left to right from both ends on thresholds): one pass, no search."""
        columns = self.splitting(V)
        return tuple(sorted(columns, key=lambda j: (V.bit_count() - max(p.bit_count() for p in self.parts(V, j)), j)))

    def balanced_order(self, V: int) -> tuple[int, ...]:
        """An order of the columns splitting ``V``, breadth first over the version spaces it leaves, each taking the
        column that splits it most evenly among those splitting its parent (binary search on thresholds); then the
        rest.  No search: each version space scans its parent's columns only."""
        order, placed = [], set()
        todo = deque([(V, self.splitting(V))])
        while todo:
            W, candidates = todo.popleft()
            # the splitting column whose smaller part is largest; the scan stops at a perfect split, or after
            # BALANCE_SCAN columns that split off one row each (a class like singletons: a scan of every column
            # at every version space would cost its width each time)
            size, kept, i, j, best = W.bit_count(), [], 0, None, 0
            while i < len(candidates):
                c = candidates[i]
                i += 1
                if not self.splits(W, c):
                    continue
                kept.append(c)
                smaller = size - max(p.bit_count() for p in self.parts(W, c))
                if smaller > best:
                    j, best = c, smaller
                if best >= size // 2 or (best == 1 and len(kept) >= BALANCE_SCAN):
                    break
            if j is None:
                continue
            if j not in placed:
                placed.add(j)
                order.append(j)
            # the columns that may split each part: of those scanned, the ones that do; the rest unscanned
            rest = candidates[i:]
            todo.extend((part, [c for c in kept if c != j and self.splits(part, c)] + rest)
                        for part in self.parts(W, j) if part & (part - 1))
        return tuple(order) + tuple(j for j in self.splitting(V) if j not in placed)

    def order_strategy(self, V: int, order: Sequence[int]) -> Strategy:
        """The learner's strategy of a fixed ``order`` as a self-directed one (:class:`OrderValue`'s witness): at
        each version space the first column of ``order`` splitting it, and the prediction of largest value."""
        order = tuple(order)
        start: dict[int, int] = {}  # a part's first position worth scanning: a column not splitting W splits no part

        def move(W: int) -> tuple[int, Any]:
            t = next(t for t in range(start.get(W, 0), len(order)) if self.splits(W, order[t]))
            labelled = self.labelled_parts(W, order[t])
            for _, part in labelled:
                start[part] = t + 1
            values = [self.sequence_value(part, order, t + 1) for _, part in labelled]
            return order[t], self.prediction(values, [y for y, _ in labelled])

        return Strategy(self, V, move)

    def ldim_bound(self, V: int) -> int:
        """A proven upper bound on every order's value from ``V``: the Littlestone dimension, by the compiled search
        on the root of a two-label class (:func:`~mistakebound.theory.littlestone.littlestone_bounds`, within the
        clock's time left), else :meth:`adaptive_value`."""
        if V != self.full or self.k != 2 or not self.columns:
            return self.adaptive_value(V)
        from mistakebound.theory.littlestone import littlestone_bounds

        left = None if self.clock.deadline is None else max(1e-3, self.clock.deadline - time.monotonic())
        found = littlestone_bounds(HypothesisClass.from_matrix(self.table), time_limit=left)
        self.clock.check_time()
        return min(int(found.upper), self.cap(V))

    def walk(self, V: int, choose: Callable[[int], int], breadth_first: bool = False) -> Iterator[tuple[int, int]]:
        """``(W, j)`` for every version space ``W`` of two rows or more that the strategy ``choose(W) -> column``
        reaches from ``V`` (over every label), with its column; depth first, or breadth first.

        Yields
        ------
        tuple of int
            ``(W, j)``: a version space the strategy reaches and its column.
        """
        todo = deque([V])
        while todo:
            W = todo.popleft() if breadth_first else todo.pop()
            if W.bit_count() <= 1:
                continue
            j = choose(W)
            yield W, j
            todo.extend(self.parts(W, j))

    def rows_of(self, V: int) -> frozenset[int]:
        """The rows of the class (duplicates included) in the version space ``V`` of distinct rows."""
        if self._copies is None:
            self._copies = [[] for _ in range(self.n)]
            for i, d in enumerate(self.row_to_distinct.tolist()):
                self._copies[d].append(i)
        bits = bin(V)[:1:-1]
        return frozenset(i for d, bit in enumerate(bits) if bit == "1" for i in self._copies[d])

    def version_space(self, rows: Any) -> int:
        """The bitset of distinct rows of the class's row indices ``rows``."""
        V = 0
        for i in rows:
            V |= 1 << int(self.row_to_distinct[i])
        return V

    def column(self, x: Any) -> int:
        """The column of instance ``x`` of the domain."""
        try:
            return self.domain.index(x)
        except ValueError:
            raise InvalidArgumentError(f"x: expected an instance of the class, got {x!r}") from None


def _distinct_rows(M: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``M`` in increasing order, and each row's index among them (``numpy.unique`` over rows,
    sorting them as strings of bytes: far faster than by columns on a wide table)."""
    if M.shape[1] == 0:
        return M[:1], np.zeros(M.shape[0], dtype=np.int64)
    packed = np.ascontiguousarray(M.astype(np.uint8 if M.max() < 256 else np.int64))
    keys = packed.view(np.dtype((np.void, packed.dtype.itemsize * packed.shape[1]))).reshape(-1)
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return M[first], inverse.reshape(-1)


class Strategy(Mapping):
    """A self-directed learner's strategy, read as it is asked (a class of thousands of rows has thousands of
    version spaces on its play): ``{rows of a version space: (instance, prediction)}``.

    The keys are the version spaces of two distinct rows or more that the play from ``root``
    reaches, each as the frozenset of the class's rows in it (duplicates included); a lookup of
    another version space of the class is answered too (the learner's move there), iteration
    walks the play.  Compares equal to a dict of the same entries.

    Examples
    --------
    >>> from mistakebound import classes
    >>> g = OrderGame(classes.thresholds(3))
    >>> s = g.order_strategy(g.full, (0, 1, 2))
    >>> len(s), s[frozenset(range(4))]
    (3, (1, 1))
    """

    def __init__(self, game: OrderGame, root: int, move: Callable[[int], tuple[int, Any]]):
        self.game, self.root, self.move = game, root, move

    def _space(self, rows: Any) -> int | None:
        try:
            rows = frozenset(rows)
            V = self.game.version_space(rows)
        except (TypeError, IndexError):
            return None
        if V.bit_count() <= 1 or self.game.rows_of(V) != rows:
            return None
        return V

    def __getitem__(self, rows: Any) -> tuple[Any, Any]:
        V = self._space(rows)
        if V is None:
            raise KeyError(rows)
        j, prediction = self.move(V)
        return self.game.domain[j], prediction

    def __contains__(self, rows: object) -> bool:
        return self._space(rows) is not None

    def __iter__(self) -> Iterator[frozenset]:
        for W, _ in self.game.walk(self.root, lambda W: self.move(W)[0]):
            yield self.game.rows_of(W)

    def __len__(self) -> int:
        return sum(1 for _ in self.game.walk(self.root, lambda W: self.move(W)[0]))


class deep:
    """The interpreter's recursion limit raised, while it lasts, for a recursion ``depth`` levels deep."""

    def __init__(self, depth: int):
        self.depth = depth

    def __enter__(self) -> None:
        self.limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.limit, 8 * self.depth + 1000))

    def __exit__(self, *exc: Any) -> None:
        sys.setrecursionlimit(self.limit)

