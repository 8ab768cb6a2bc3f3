"""The value of the game in a fixed number of rounds, against an oblivious or an adaptive adversary.

Against a deterministic learner an oblivious adversary loses nothing (it simulates the
learner), and :func:`~mistakebound.theory.game_values.game_value` ignores ``adaptive``.
Against a randomized learner it may: the oblivious adversary commits to a distribution
over labelled sequences before the game, blind to the learner's draws.  Its value depends
on the number of rounds ``T`` (the horizon), so this module computes values at a horizon:

* :func:`oblivious_value`: the ``T``-round game as a linear program in sequence form over
  the learner's information sets (Koller, Megiddo and von Stengel 1994).  The learner's
  information set at round ``t`` is what it has seen: the instances, its own draws and its
  feedback (the label with full information; whether its draw was right under bandit
  feedback).  The adversary names its labels and is held to them: the sequence must keep
  some hypothesis within ``r`` mistakes.  With ``rules.adaptive=False`` it sees nothing of
  the learner (an oblivious adversary); with ``rules.adaptive=True`` it sees the learner's
  past draws (and its announced distributions, which it can compute), not the current
  draw.  The program is solved in floating point by HiGHS (``scipy.optimize.linprog``, the
  optional ``lp`` extra), then made exact: both players' strategies are read off the
  solution, rounded to fractions of small denominators, and each is scored exactly in
  fractions by the other player's best response.  The learner's strategy proves an upper
  bound, the adversary's a lower bound; the value is reported exact only when the two meet,
  else as the proven interval (status ``"budget"``: the denominators tried ran out).  The two
  strategies are a certificate (:mod:`~mistakebound.theory.horizon_certificate`; the checker
  rebuilds the game and scores them itself).
* :func:`adaptive_value`: the recursion of :mod:`~mistakebound.theory.game_values` cut
  at ``T`` rounds (``v_0 = 0``; ``v_t(S) = max over x of the step at x with v_{t-1}``, where a
  move that changes nothing is worth what the state is worth one round shorter; a step
  grows with the values it is given, so by induction ``v_t >= v_{t-1}``: a longer game is
  worth at least as much).  It
  reaches :func:`~mistakebound.theory.game_values.game_value` once ``T`` is past the game's
  depth, but for a randomized learner with full information and noise: there the adversary
  may repeat a label every hypothesis gives, which the unbounded game forbids the learner to
  doubt, and the horizon values approach the value from below (one hypothesis, ``r = 1``:
  ``1/2, 3/4, 7/8, ...`` towards ``1``).  With full information it is the same game as the program's (the labels are
  shown), and the two agree: on all 651 classes of up to four hypotheses, one or two
  instances, two or three labels, noise 0 or 1 and horizons 1 to 3 we tried, the oblivious,
  the adaptive program and the recursion gave one value.  Under bandit feedback the
  recursion's adversary is stronger than the program's adaptive one: it names a wrong
  round's label only at the end (that module's state is what the learner knows), and with a
  noise budget its learner draws only labels of its state's hypotheses; on those classes it
  was larger in 288 of 651 cases (``((0, 0), (0, 1), (1, 0), (2, 2))``, three labels, no
  noise, two rounds: ``75/68`` against ``27/25``).

What the literature proves, and what the values here show.  With full information and
the learner's expected mistakes, the adversary's best answer at each step is a mixed label
that depends on the labels so far only, so an oblivious adversary achieves the adaptive
value, at every horizon (the minimax theorem at each step; for two labels without noise the
randomized Littlestone dimension is the value against both: Filmus, Hanneke, Mehalel and
Moran 2023).  Under bandit feedback they differ, by a factor up to ``Θ(k)`` for ``k``
labels (Filmus, Hanneke, Mehalel and Moran, "Bandit-feedback online multiclass
classification: variants and tradeoffs", NeurIPS 2024; their adaptive adversary chooses
each round after the learner's past predictions, their oblivious one fixes the sequence in
advance).  The smallest class we found where they differ (:data:`GAP_CLASS`, by search over
every class of up to four hypotheses on one or two instances, three labels, no noise, two
and three rounds): the four hypotheses ``(0, 0), (0, 1), (0, 2), (1, 0)`` under bandit
feedback, two rounds: the oblivious value is ``1``, the adaptive one ``15/14`` (the program's
and the recursion's alike).  At one round both are ``2/3``, from three rounds on both
``7/6``, the value of the unbounded game.

Examples
--------
>>> import attrs
>>> rules = Rules(labels=3, feedback="bandit", adaptive=False, randomized=True)
>>> oblivious_value(GAP_CLASS, rules, 2).value
Fraction(1, 1)
>>> oblivious_value(GAP_CLASS, attrs.evolve(rules, adaptive=True), 2).value
Fraction(15, 14)
>>> adaptive_value(GAP_CLASS, rules, 2).value
Fraction(15, 14)
>>> oblivious_value([[0, 0], [1, 1]], Rules(randomized=True, adaptive=False), 2).value
Fraction(1, 2)
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np
from attrs import frozen

from mistakebound.foundations.errors import InvalidArgumentError, MistakeboundError
from mistakebound.foundations.validation import check_int
from mistakebound.game.rules import Rules, require_adaptive_order, require_rules
from mistakebound.theory.game_values import GameValue, _Search, table_of
from mistakebound.theory.search_protocol import Budget, run_within

__all__ = ["GAP_CLASS", "DENOMINATORS", "HorizonValue", "LPDependencyError", "Strategy", "adaptive_value",
           "oblivious_value", "solve_horizon"]

#: Four hypotheses over two instances and three labels: under bandit feedback a randomized learner concedes
#: 1 in two rounds to an oblivious adversary and 15/14 to an adaptive one (see the module docstring).
GAP_CLASS = ((0, 0), (0, 1), (0, 2), (1, 0))

#: The largest denominators the linear program's strategies are rounded to, in turn, before they are scored
#: exactly; the first that makes the two bounds meet gives the exact value.
DENOMINATORS = (12, 120, 5040, 10**5, 10**7, 10**9)


class LPDependencyError(MistakeboundError, ImportError):
    """scipy, needed for :func:`oblivious_value`'s linear program, is not installed (``pip install 'mistakebound[lp]'``)."""


@frozen
class HorizonValue(GameValue):
    """Proven bounds on the value of the game in ``horizon`` rounds (see the module docstring).

    Attributes
    ----------
    horizon : int
        The number of rounds.
    """

    horizon: int = 0


def _horizon(horizon: Any) -> int:
    return check_int("horizon", horizon, 0, expected="an int >= 0 (the number of rounds)")


def _linprog():
    try:
        from scipy.optimize import linprog
        from scipy.sparse import coo_matrix
    except ImportError as exc:
        raise LPDependencyError("oblivious_value needs scipy, which is not installed; install the lp extra: "
                                "pip install 'mistakebound[lp]'") from exc
    return linprog, coo_matrix


# ------------------------------------------------------------------ the adaptive value at a horizon
class _Rounds:
    """The recursion of :class:`~mistakebound.theory.game_values._Search` with the rounds left in the state."""

    def __init__(self, search: _Search, clock):
        self.search, self.clock = search, clock
        self.memo: dict[tuple[tuple[int, ...], int], Any] = {}
        self.root_lower: Any = 0

    def value(self, S: tuple[int, ...], t: int, root: bool = False) -> Any:
        if t == 0:
            return 0
        known = self.memo.get((S, t))
        if known is not None:
            return known
        self.clock.spend()
        shorter = lambda T: self.value(T, t - 1)  # noqa: E731 - the states' values one round shorter
        best = 0
        for cols in self.search.columns:
            best = max(best, self.search.instance_value(S, cols, best, shorter, loops=True))
            if root:
                self.root_lower = max(self.root_lower, best)
        self.memo[(S, t)] = best
        return best


@contextlib.contextmanager
def _deep(frames: int) -> Iterator[None]:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, frames))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def adaptive_value(matrix: Any, rules: Rules, horizon: int, *, max_nodes: int | None = None,
                   time_limit: float | None = None) -> HorizonValue:
    """The value of :func:`~mistakebound.theory.game_values.game_value`'s game cut at ``horizon`` rounds.

    The adaptive adversary of :mod:`~mistakebound.theory.game_values` (``rules.adaptive`` is
    not read: against a deterministic learner the oblivious adversary is as strong, against a
    randomized one this is the adaptive value to set beside :func:`oblivious_value`).

    Parameters
    ----------
    matrix : array_like or HypothesisClass
        One row per hypothesis, labels ``0..k-1``.
    rules : Rules
        Labels, feedback, noise and whether the learner randomizes.
    horizon : int
        The number of rounds, ``>= 0``.
    max_nodes, time_limit : int or float, optional
        A budget of states expanded and/or seconds.

    Returns
    -------
    HorizonValue
        Exact, or proven bounds with the status ``"budget"`` (at most ``horizon``: a round costs at
        most one mistake).

    Raises
    ------
    InvalidArgumentError
        For a bad table, rules, horizon or budget.

    Examples
    --------
    >>> from mistakebound import classes
    >>> [adaptive_value(classes.thresholds(7), Rules(), T).value for T in range(5)]
    [0, 1, 2, 3, 3]
    >>> adaptive_value([[0], [1]], Rules(randomized=True, noise=1), 1).value
    Fraction(1, 2)
    """
    rules = require_adaptive_order(require_rules(rules), "the game of a number of rounds")
    M = table_of(matrix, rules.labels)
    horizon = _horizon(horizon)
    clock = Budget(max_nodes=max_nodes, time_limit=time_limit).start()
    search = _Search(M, rules, clock)
    rounds = _Rounds(search, clock)
    with _deep(12 * horizon + 1000):
        status = run_within(lambda: rounds.value(search.root, horizon, root=True))
    if status == "exact":
        value = rounds.memo.get((search.root, horizon), 0)
        return HorizonValue(value, value, nodes=clock.nodes, seconds=clock.seconds, rules=rules, horizon=horizon)
    lower = rounds.root_lower
    upper = max(lower, min(horizon, search.upper(search.root)))
    return HorizonValue(lower, upper, status=status, nodes=clock.nodes, seconds=clock.seconds, rules=rules,
                        horizon=horizon)


# ------------------------------------------------------------------ the sequence form
class _Player:
    """One player's information sets and sequences (sequence 0 is the empty one)."""

    def __init__(self):
        self.index: dict[Any, int] = {}
        self.parent: list[int] = []  # per information set: the sequence that leads to it
        self.choices: list[dict[int, int]] = []  # per information set: action -> sequence
        self.sequences: list[tuple[int, int] | None] = [None]  # sequence -> (information set, action)

    def sequence(self, key: Any, parent: int, action: int) -> int:
        i = self.index.get(key)
        if i is None:
            i = self.index[key] = len(self.parent)
            self.parent.append(parent)
            self.choices.append({})
        s = self.choices[i].get(action)
        if s is None:
            s = self.choices[i][action] = len(self.sequences)
            self.sequences.append((i, action))
        return s

    def plan(self, behaviour: list[dict[int, Fraction]]) -> list[Fraction]:
        """The realization plan of a behaviour strategy (information sets come after their parents)."""
        plan = [Fraction(0)] * len(self.sequences)
        plan[0] = Fraction(1)
        for i, choices in enumerate(self.choices):
            for action, s in choices.items():
                plan[s] = plan[self.parent[i]] * behaviour[i][action]
        return plan

    def best_response(self, gains: list[Fraction], best) -> Fraction:
        """What the player's best pure strategy gets, when sequence ``s`` alone earns ``gains[s]``."""
        below = [Fraction(0)] * len(self.sequences)  # per sequence: what the information sets after it add
        for i in range(len(self.choices) - 1, -1, -1):  # children before parents
            below[self.parent[i]] += best(gains[s] + below[s] for s in self.choices[i].values())
        return gains[0] + below[0]


class _SequenceForm:
    """The ``horizon``-round game of a table under ``rules``, both players in sequence form."""

    def __init__(self, M: np.ndarray, rules: Rules, horizon: int, clock):
        self.rows = [tuple(int(v) for v in row) for row in np.unique(M, axis=0)]
        self.k, self.r, self.bandit, self.adaptive = rules.labels, rules.noise, rules.feedback == "bandit", rules.adaptive
        self.learner, self.adversary = _Player(), _Player()
        self.mistakes: list[tuple[int, int]] = []  # (learner sequence, adversary sequence) pairs that cost one
        self.clock = clock
        self._grow(horizon, (0,) * len(self.rows), (), (), 0, 0)

    def _grow(self, left: int, counts: tuple[int, ...], seen: tuple, known: tuple, mine: int, theirs: int) -> None:
        if left == 0:
            return
        for x in range(len(self.rows[0])):
            ax = self.adversary.sequence(("x", known), theirs, x)
            for y in range(self.k):
                after = tuple(min(c + (row[x] != y), self.r + 1) for c, row in zip(counts, self.rows))
                if min(after) > self.r:
                    continue  # no hypothesis within the budget would give this sequence
                ay = self.adversary.sequence(("y", known, x), ax, y)
                for guess in range(self.k):
                    self.clock.spend()
                    lg = self.learner.sequence((seen, x), mine, guess)
                    if guess != y:
                        self.mistakes.append((lg, ay))
                    feedback = guess == y if self.bandit else y
                    self._grow(left - 1, after, seen + ((x, guess, feedback),),
                               known + ((x, y, guess) if self.adaptive else (x, y),), lg, ay)

    def solve(self) -> tuple[list[float], list[float]]:
        """HiGHS's optimal realization plans: the learner's (the primal) and the adversary's (the duals)."""
        linprog, coo_matrix = _linprog()
        L, A = self.learner, self.adversary
        nL, nU = len(L.sequences), 1 + len(A.parent)
        # equalities: the learner's plan (root 1, each information set's actions sum to its parent sequence)
        eq = [(0, 0, 1.0)]
        for i, choices in enumerate(L.choices):
            eq += [(1 + i, s, 1.0) for s in choices.values()] + [(1 + i, L.parent[i], -1.0)]
        # one inequality per adversary sequence s: mistakes(rho, s) <= (F^T u)_s, u = (root, information sets)
        ub = [(s, q, 1.0) for q, s in self.mistakes] + [(0, nL, -1.0)]
        for i, choices in enumerate(A.choices):
            ub += [(s, nL + 1 + i, -1.0) for s in choices.values()] + [(A.parent[i], nL + 1 + i, 1.0)]
        sparse = lambda entries, n_rows: coo_matrix(  # noqa: E731
            ([v for _, _, v in entries], ([r for r, _, _ in entries], [c for _, c, _ in entries])),
            shape=(n_rows, nL + nU)).tocsr()
        c = np.zeros(nL + nU)
        c[nL] = 1.0
        res = linprog(c, A_ub=sparse(ub, len(A.sequences)), b_ub=np.zeros(len(A.sequences)),
                      A_eq=sparse(eq, 1 + len(L.choices)), b_eq=np.eye(1, 1 + len(L.choices)).ravel(),
                      bounds=[(0, None)] * nL + [(None, None)] * nU, method="highs")
        if res.status != 0:  # pragma: no cover - the program is feasible and bounded by construction
            raise MistakeboundError(f"the sequence-form program was not solved: {res.message}")
        return list(res.x[:nL]), [-m for m in res.ineqlin.marginals]

    def bounds(self, primal: list[float], dual: list[float], denominator: int) -> tuple[Strategy, Strategy]:
        """The rounded strategies of both players, the learner's and the adversary's, each with the exact value of
        the other's best answer to it: an upper bound on the game's value for the learner's, a lower one for the
        adversary's."""
        learner = _behaviour(self.learner, primal, denominator)
        adversary = _behaviour(self.adversary, dual, denominator)
        learner_plan, adversary_plan = self.learner.plan(learner), self.adversary.plan(adversary)
        against_learner = [Fraction(0)] * len(self.adversary.sequences)
        against_adversary = [Fraction(0)] * len(self.learner.sequences)
        for q, s in self.mistakes:
            against_learner[s] += learner_plan[q]
            against_adversary[q] += adversary_plan[s]
        return (Strategy(self.learner, learner, self.adversary.best_response(against_learner, max)),
                Strategy(self.adversary, adversary, self.learner.best_response(against_adversary, min)))


@frozen
class Strategy:
    """One player's behaviour strategy in the sequence form, and what the other's best answer to it makes.

    ``behaviour[i]`` is the distribution at the player's information set ``i`` (of ``player``);
    ``value`` the exact expected mistakes of the other player's best answer: a lower bound on the
    game's value for the adversary's strategy, an upper bound for the learner's.
    """

    player: _Player
    behaviour: list
    value: Fraction


def _behaviour(player: _Player, plan: list[float], denominator: int) -> list[dict[int, Fraction]]:
    """The behaviour strategy of a float realization plan, each distribution rounded to fractions of at most
    ``denominator`` and made to sum to exactly one."""
    behaviour = []
    for choices in player.choices:
        weights = {a: max(plan[s], 0.0) for a, s in choices.items()}
        total = sum(weights.values())
        if total <= 1e-12:  # an information set the plan never reaches: anything will do
            weights, total = {a: 1.0 for a in choices}, float(len(choices))
        rounded = {a: Fraction(w / total).limit_denominator(denominator) for a, w in weights.items()}
        top = max(rounded, key=rounded.get)
        rounded[top] = 1 - sum(p for a, p in rounded.items() if a != top)
        if rounded[top] < 0:  # pragma: no cover - rounding errors of this size do not occur at these denominators
            scale = sum(max(p, Fraction(0)) for p in rounded.values())
            rounded = {a: max(p, Fraction(0)) / scale for a, p in rounded.items()}
        behaviour.append(rounded)
    return behaviour


def oblivious_value(matrix: Any, rules: Rules, horizon: int, *, max_nodes: int | None = None,
                    time_limit: float | None = None) -> HorizonValue:
    """The value of the ``horizon``-round game for a randomized learner, by the sequence-form linear program.

    Against an oblivious adversary (``rules.adaptive=False``), or an adaptive one held to the labels it
    names (``rules.adaptive=True``); see the module docstring.  A deterministic learner's value is the
    adaptive one (the adversary simulates the learner): :func:`adaptive_value` answers it.

    Parameters
    ----------
    matrix : array_like or HypothesisClass
        One row per hypothesis, labels ``0..k-1``.
    rules : Rules
        Labels, feedback, noise, adaptivity; ``randomized`` is read only to send deterministic learners
        to :func:`adaptive_value`.
    horizon : int
        The number of rounds, ``>= 0``.
    max_nodes, time_limit : int or float, optional
        A budget for building the game tree (its nodes) and/or seconds; out of it, the bounds
        ``0 <= value <= horizon``.

    Returns
    -------
    HorizonValue
        Exact, or a proven interval with the status ``"budget"``.

    Raises
    ------
    InvalidArgumentError
        For a bad table, rules, horizon or budget.
    LPDependencyError
        When scipy (the ``lp`` extra) is not installed.

    Examples
    --------
    >>> oblivious_value([[0, 1], [1, 0]], Rules(randomized=True, adaptive=False), 3).value
    Fraction(1, 2)
    >>> oblivious_value([[0]], Rules(), -1)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: horizon: expected an int >= 0 (the number of rounds), got -1
    """
    rules = require_rules(rules)
    if not rules.randomized:
        return adaptive_value(matrix, rules, horizon, max_nodes=max_nodes, time_limit=time_limit)
    return solve_horizon(matrix, rules, horizon, max_nodes=max_nodes, time_limit=time_limit)[0]


def solve_horizon(matrix: Any, rules: Rules, horizon: int, *, max_nodes: int | None = None,
                  time_limit: float | None = None) -> tuple[HorizonValue, tuple[Strategy, Strategy] | None]:
    """:func:`oblivious_value` for a randomized learner, and the two strategies that prove its bounds (the
    learner's, then the adversary's), which the certificate writer
    (:mod:`mistakebound.theory.horizon_certificate`) writes; None when the game tree was not built within the
    budget (the bounds are then ``0`` and ``horizon``).

    Examples
    --------
    >>> value, (learner, adversary) = solve_horizon([[0, 1], [1, 0]], Rules(randomized=True), 2)
    >>> value.value, adversary.value, learner.value
    (Fraction(1, 2), Fraction(1, 2), Fraction(1, 2))
    """
    rules = require_adaptive_order(require_rules(rules), "the game of a number of rounds")
    M = table_of(matrix, rules.labels)
    horizon = _horizon(horizon)
    if not rules.randomized:
        raise InvalidArgumentError(f"rules: expected randomized=True (the linear program is the game of randomized "
                                   f"learners), got {rules.describe()}")
    _linprog()  # refuse before building anything when scipy is missing
    clock = Budget(max_nodes=max_nodes, time_limit=time_limit).start()
    built: list[_SequenceForm] = []
    status = run_within(lambda: built.append(_SequenceForm(M, rules, horizon, clock)))
    if status != "exact":
        return HorizonValue(Fraction(0), Fraction(horizon), status=status, nodes=clock.nodes, seconds=clock.seconds,
                            rules=rules, horizon=horizon), None
    game = built[0]
    if not game.learner.choices:  # no round is played (no instance, or no round): nothing to solve
        none = (Strategy(game.learner, [], Fraction(0)), Strategy(game.adversary, [], Fraction(0)))
        return HorizonValue(Fraction(0), Fraction(0), nodes=clock.nodes, seconds=clock.seconds, rules=rules,
                            horizon=horizon), none
    primal, dual = game.solve()
    best: tuple[Strategy, Strategy] | None = None
    for denominator in DENOMINATORS:
        learner, adversary = game.bounds(primal, dual, denominator)
        if best is None:
            best = learner, adversary
        else:
            best = (min(best[0], learner, key=lambda s: s.value), max(best[1], adversary, key=lambda s: s.value))
        if best[0].value == best[1].value:
            break
    assert best is not None
    upper, lower = best[0].value, best[1].value
    status = "exact" if lower == upper else "budget"
    return HorizonValue(lower, upper, status=status, nodes=clock.nodes, seconds=clock.seconds, rules=rules,
                        horizon=horizon), best
