"""Adversaries for monotone k-disjunctions: a random stream and an adaptive forcer.

* :class:`DisjunctionStream` (oblivious) draws a target of ``k`` variables and random
  0/1 instances labelled by it, optionally with a fraction of the labels flipped.
* :class:`DisjunctionAdversary` (adaptive) narrows down, by halving, where each of
  the target's variables can be, answering every such query against the learner's
  prediction, then keeps presenting instances whose label the target forces.

Both play on :class:`~mistakebound.game.spaces.KDisjunctionSpace` (instances are 0/1 numpy
vectors, realizability certified by ``certificate(state)``) and on a finite class over
all of ``{0,1}^n`` such as ``classes.monotone_disjunctions(n)`` (instances are tuples,
the engine checks labels against the version space).

Examples
--------
>>> from mistakebound import classes, play
>>> from mistakebound.game.spaces import KDisjunctionSpace
>>> from mistakebound.learners.elimination import DisjunctionElimination
>>> T = play(DisjunctionElimination(), DisjunctionStream(), KDisjunctionSpace(50, 2), rounds=40, seed=0)
>>> len(T), T.mistakes <= 50, len(T.target)
(40, True, 2)
>>> H = classes.monotone_disjunctions(6)
>>> play(DisjunctionElimination(), DisjunctionAdversary(), H, rounds=30, seed=0).mistakes >= 6
True
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
from attrs import define, field

from mistakebound.adversaries._forcing import forced_rounds, measure_for
from mistakebound.adversaries._labels import against
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.foundations.validation import check_int, check_probability, integer_converter
from mistakebound.game import classes
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.play import GameState
from mistakebound.game.players import Adversary, ObliviousAdversary
from mistakebound.game.spaces import KDisjunctionSpace
from mistakebound.verification.claims import Bound

__all__ = ["DisjunctionStream", "DisjunctionAdversary", "half_density", "cube_dimension", "block_queries"]

#: Where its forced count comes from.
SOURCE = (
    "DisjunctionAdversary.forced_mistakes: each halving query is answered against the prediction and a block of m "
    "variables takes at least block_queries(m) of them (about k log2(n/k) in all; n = the basis-vector bound of "
    "seed 001 when k = n)"
)


def half_density(k: int) -> float:
    """``1 - 2^(-1/k)``: the density making the OR of ``k`` independent bits 1 with probability 1/2.

    For ``k = 0`` (the empty target, every label 0) it is 1/2.

    Examples
    --------
    >>> half_density(1), round(half_density(3), 4)
    (0.5, 0.2063)
    >>> 1 - (1 - half_density(5)) ** 5
    0.5
    """
    k = check_int("k", k, 0)
    return 0.5 if k == 0 else 1.0 - 2.0 ** (-1.0 / k)


def cube_dimension(H: Any) -> int | None:
    """``n`` if ``H`` is a ``KDisjunctionSpace(n, k)`` or a finite class over all of ``{0,1}^n``, else None.

    Examples
    --------
    >>> from mistakebound import classes
    >>> cube_dimension(classes.monotone_disjunctions(3)), cube_dimension(classes.thresholds(3))
    (3, None)
    """
    if isinstance(H, KDisjunctionSpace):
        return H.n
    if isinstance(H, HypothesisClass) and H.n_instances:
        first = H.domain[0]
        if not isinstance(first, tuple) or not first:
            return None
        n = len(first)
        if H.n_instances != 2**n:
            return None
        ok = all(isinstance(x, tuple) and len(x) == n and all(b in (0, 1) for b in x) for x in H.domain)
        return n if ok else None
    return None


def block_queries(m: int, required: bool = False) -> int:
    """The fewest halving queries that decide a block of ``m`` candidates (see :class:`DisjunctionAdversary`).

    Examples
    --------
    >>> [block_queries(m) for m in range(1, 9)]
    [1, 1, 2, 2, 2, 2, 3, 3]
    """
    if m == 0 or (required and m == 1):
        return 0
    return 1 + min(block_queries(math.ceil(m / 2), True), block_queries(m // 2, required))


def _max_k(H: Any, n: int) -> int:
    return H.k if isinstance(H, KDisjunctionSpace) else n


@functools.lru_cache(maxsize=32)
def _holds_every_disjunction(H: HypothesisClass, n: int) -> bool:
    """Whether the finite class ``H`` over ``{0,1}^n`` holds every monotone disjunction (so every answer is legal)."""
    if n > 12 or H.n_hypotheses < 2**n:
        return False
    M = classes.monotone_disjunctions(n)
    table = M.matrix[:, [M.index_of(x) for x in H.domain]].astype("uint8")
    rows = {bytes(row) for row in H.matrix.astype("uint8")}
    return all(bytes(row) in rows for row in table)


def _present(H: Any, bits: np.ndarray) -> Any:
    """An instance in the form ``H`` expects: a 0/1 uint8 vector on a space, a tuple on a class."""
    if isinstance(H, KDisjunctionSpace):
        return bits.astype(np.uint8)
    return tuple(int(b) for b in bits)


@define
class DisjunctionStream(ObliviousAdversary):
    """Random instances labelled by a random target of ``k`` variables, with optional noise.

    Before round 1 it draws (from the game's adversary generator) a target of ``k``
    distinct variables and ``T`` instances whose entries are independent bits equal
    to 1 with probability ``density`` (default :func:`half_density`, so that about half
    the labels are 1), labels each by the target's OR, and flips the labels of
    ``round(noise * T)`` rounds chosen uniformly.  A noisy stream needs an unrealizable
    game (``realizable=False``); its :meth:`certificate` still names the target, so the
    transcript's ``best_hypothesis_mistakes`` counts the flips.

    Parameters
    ----------
    n : int, optional
        The number of variables; None takes it from the class or space (and a given
        ``n`` must match it).
    k : int, optional
        The target's size; None means the space's ``k`` (``n`` on a finite class,
        capped at 3 so the default stream is sparse).
    density : float, optional
        The probability that an entry of an instance is 1, in [0, 1].
    noise : float
        The fraction of labels flipped, in [0, 1].

    Examples
    --------
    >>> from mistakebound import play
    >>> from mistakebound.learners.winnow import Winnow
    >>> S = KDisjunctionSpace(1000, 3)
    >>> T = play(Winnow(), DisjunctionStream(noise=0.1), S, rounds=200, seed=2, realizable=False)
    >>> T.best_hypothesis_mistakes
    20
    """

    n: int | None = field(default=None, converter=integer_converter("n", 0, optional=True))
    k: int | None = field(default=None, converter=integer_converter("k", 0, optional=True))
    density: float | None = field(
        default=None, converter=lambda v: None if v is None else check_probability("density", v)
    )
    noise: float = field(default=0.0, converter=lambda v: check_probability("noise", v))
    _target: tuple | None = field(init=False, default=None, repr=False)

    def applies_to(self, H: Any) -> bool:
        """On a KDisjunctionSpace, or a finite class over {0,1}^n holding every monotone disjunction (its targets)."""
        n = cube_dimension(H)
        if n is None or (self.n is not None and self.n != n):
            return False
        if isinstance(H, HypothesisClass) and not _holds_every_disjunction(H, n):
            return False
        return self.k is None or self.k <= _max_k(H, n)

    def target_size(self, H: Any) -> int:
        """The ``k`` it uses on ``H``."""
        n = cube_dimension(H)
        if n is None:
            raise NotApplicableError(f"DisjunctionStream: {H!r} is neither a KDisjunctionSpace nor a class over {{0,1}}^n")
        if self.k is not None:
            return self.k
        return H.k if isinstance(H, KDisjunctionSpace) else min(3, n)

    def commit(self, H: Any, rounds: int, rng: np.random.Generator, realizable: bool) -> list[tuple[Any, int]]:
        if realizable and self.noise > 0:
            raise InvalidArgumentError(
                f"noise: a realizable game needs noise = 0, got {self.noise!r}; play it with realizable=False"
            )
        n = cube_dimension(H)
        k = self.target_size(H)
        target = np.sort(rng.choice(n, size=k, replace=False)) if k else np.zeros(0, dtype=np.int64)
        self._target = tuple(int(i) for i in target)
        p = half_density(k) if self.density is None else float(self.density)
        X = rng.random((rounds, n)) < p
        y = X[:, target].any(axis=1) if k else np.zeros(rounds, dtype=bool)
        flips = int(round(self.noise * rounds))
        if flips:
            y[rng.choice(rounds, size=flips, replace=False)] ^= True
        if isinstance(H, HypothesisClass) and realizable:
            self._check_in_class(H, n)
        return [(_present(H, X[t]), int(y[t])) for t in range(rounds)]

    def _check_in_class(self, H: HypothesisClass, n: int) -> None:
        labels = np.array([int(any(x[i] for i in self._target)) for x in H.domain], dtype=np.uint8)
        if not np.any(np.all(H.matrix == labels, axis=1)):
            raise NotApplicableError(f"DisjunctionStream: the disjunction of {list(self._target)} is not in {H.describe()}")

    def certificate(self, state: GameState) -> tuple[int, ...] | None:
        """The target it drew (0-based variable indices)."""
        return self._target


@define
class DisjunctionAdversary(Adversary):
    """Forces mistakes on monotone k-disjunctions by halving, then presents forced labels.

    The ``n`` variables are shuffled and cut into ``k`` blocks of near-equal size; the
    target will hold at most one variable per block.  Each block keeps a set of
    candidates (where its target variable may still be) and whether it must hold one.
    While some block is undecided, it presents the first half of that block's
    candidates; both labels are then consistent with some target, so it answers
    against the learner's prediction: label 1 keeps that half as the candidates (and
    the block must hold one of them), label 0 removes it.  A block is decided when it
    must hold a variable and one candidate is left, or when no candidate is left (it
    holds none).  Every such query is a mistake of a deterministic learner, and a
    block of ``m`` variables takes at least :func:`block_queries` ``(m)`` of them (about
    ``log2 m``), so it forces about ``k log2(n/k)`` mistakes
    (:meth:`forced_mistakes`); with ``k = n`` it is the basis vector adversary, ``n``
    mistakes.

    Once every block is decided the target is fixed (the remaining candidate of every
    block that must hold one) and it presents, at random, positive instances (one
    target variable and random others) and negative ones (random non-target
    variables), labelled by the target: these cannot be answered against, but a learner
    that has not converged still errs on them.

    Every label is consistent with the certificate revealed at the end: a positive
    query contained all the candidates its block kept, a negative one only variables
    removed from every block.  In an unrealizable game it presents the same instances
    and answers every round against the prediction.

    Parameters
    ----------
    k : int, optional
        The number of blocks (the target's largest size); None means the space's
        ``k`` or, on a finite class, ``n``.

    Examples
    --------
    >>> from mistakebound import play
    >>> from mistakebound.learners.winnow import LittlestoneWinnow
    >>> T = play(LittlestoneWinnow(), DisjunctionAdversary(), KDisjunctionSpace(64, 2), rounds=100, seed=0)
    >>> T.mistakes >= 2, len(T.target) <= 2
    (True, True)
    """

    k: int | None = field(default=None, converter=integer_converter("k", 0, optional=True))
    _H: Any = field(init=False, default=None, repr=False)
    _n: int = field(init=False, default=0, repr=False)
    _candidates: list = field(init=False, factory=list, repr=False)
    _required: list = field(init=False, factory=list, repr=False)
    _pending: tuple | None = field(init=False, default=None, repr=False)
    _queries: int = field(init=False, default=0, repr=False)

    def applies_to(self, H: Any) -> bool:
        """On a KDisjunctionSpace, or a finite class over {0,1}^n holding every monotone disjunction (so every
        label it gives is legal)."""
        n = cube_dimension(H)
        if n is None or (isinstance(H, HypothesisClass) and not _holds_every_disjunction(H, n)):
            return False
        return self.k is None or self.k <= _max_k(H, n)

    def blocks(self, H: Any) -> int:
        """The number of blocks (target variables) it uses on ``H``."""
        n = cube_dimension(H)
        if n is None:
            raise NotApplicableError(f"DisjunctionAdversary: {H!r} is neither a KDisjunctionSpace nor a class over {{0,1}}^n")
        return self.k if self.k is not None else _max_k(H, n)

    def forced_mistakes(self, H: Any) -> int:
        """The halving queries it is sure to ask on ``H``: each is a mistake of any deterministic learner.

        A block with ``c`` candidates, still undecided, costs one query and continues
        with ``ceil(c/2)`` candidates that must hold the variable (label 1) or the other
        ``floor(c/2)`` (label 0); the learner's predictions choose the branch, so the
        forced count is the minimum over both branches (:func:`block_queries`), summed
        over the blocks.  The horizon must leave room for them.

        Examples
        --------
        >>> DisjunctionAdversary().forced_mistakes(KDisjunctionSpace(8, 8))
        8
        >>> DisjunctionAdversary().forced_mistakes(KDisjunctionSpace(1000, 3))
        24
        """
        n = cube_dimension(H)
        k = min(self.blocks(H), n)
        sizes = [len(b) for b in np.array_split(np.arange(n), k)] if k else []
        return sum(block_queries(m) for m in sizes)

    def start(self, state: GameState) -> None:
        H = state.H
        self._H = H
        self._n = n = cube_dimension(H)
        k = min(self.blocks(H), n)
        order = state.rng.permutation(n)
        self._candidates = [list(map(int, b)) for b in np.array_split(order, k)] if k else []
        self._required = [False] * len(self._candidates)
        self._pending = None
        self._queries = 0

    def _undecided(self) -> int | None:
        for j, (c, r) in enumerate(zip(self._candidates, self._required)):
            if c and not (r and len(c) == 1):
                return j
        return None

    @property
    def queries(self) -> int:
        """How many rounds so far were halving queries (answered against the prediction)."""
        return self._queries

    def target(self) -> tuple[int, ...]:
        """The variables of the target it would reveal now (consistent with every label so far)."""
        return tuple(sorted(c[0] for c, r in zip(self._candidates, self._required) if r and c))

    def next_instance(self, state: GameState) -> Any:
        bits = np.zeros(self._n, dtype=bool)
        j = self._undecided()
        if j is not None:
            c = self._candidates[j]
            half = c[: math.ceil(len(c) / 2)]
            bits[half] = True
            self._pending = (j, half)
            return _present(self._H, bits)
        self._pending = None
        rng = state.rng
        target = self.target()
        others = np.setdiff1d(np.arange(self._n), np.array(target, dtype=np.int64))
        if target and rng.random() < 0.5:
            bits[int(rng.choice(target))] = True
        if others.size:
            bits[others[rng.random(others.size) < 0.5]] = True
        return _present(self._H, bits)

    def label(self, state: GameState, x: Any, p: float) -> int:
        if self._pending is None:
            truth = int(any(int(x[i]) for i in self.target()))
            return truth if state.realizable else against(p)
        j, half = self._pending
        self._pending = None
        self._queries += 1
        y = against(p)
        if y == 1:
            self._candidates[j] = half
            self._required[j] = True
        else:
            self._candidates[j] = self._candidates[j][len(half):]
        return y

    def forces(self, setting: Any, *, learner: Any, rounds: int | None = None, realizable: bool = True) -> Bound:
        """:meth:`forced_mistakes` mistakes on every deterministic learner in a realizable game; every round if not.

        The halving queries come first, each answered against the likelier prediction;
        in an unrealizable game it answers every round that way.  A randomized learner
        pays at least half of that in expectation.  On a finite class the count needs
        every monotone disjunction in the class (so every answer is legal).

        Examples
        --------
        >>> from mistakebound.learners.winnow import LittlestoneWinnow
        >>> DisjunctionAdversary().forces(KDisjunctionSpace(1000, 3), learner=LittlestoneWinnow()).value
        24
        """
        measure = measure_for(learner, realizable, realizable)
        n = cube_dimension(setting)
        if n is None or not self.applies_to(setting):
            return Bound.none("DisjunctionAdversary plays on a KDisjunctionSpace or a finite class over {0,1}^n "
                              "(with k at most the space's)", measure=measure)
        if realizable and isinstance(setting, HypothesisClass) and not _holds_every_disjunction(setting, n):
            return Bound.none(f"{setting.describe()} does not hold every monotone disjunction of {n} variables: "
                              "its answers may be illegal there", measure=measure)
        if realizable:
            return forced_rounds(self.forced_mistakes(setting), learner=learner, rounds=rounds, realizable=True,
                                 source=SOURCE)
        if rounds is None:
            return Bound.none("in an unrealizable game it forces a mistake in every round until the horizon: "
                              "give rounds", measure=measure)
        return forced_rounds(rounds, learner=learner, rounds=rounds, realizable=False, source=SOURCE,
                             labels_consistent=False)

    def certificate(self, state: GameState) -> tuple[int, ...] | None:
        """None before round 1 (the target is not chosen yet); afterwards the target."""
        if not state.history:
            return None
        return self.target()
