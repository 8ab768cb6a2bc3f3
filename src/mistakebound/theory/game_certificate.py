"""Certificates of the game's value under other rules, read off the memo of :func:`~mistakebound.theory.game_values.game_value`'s search.

The section (``"value-full"``, ``"value-bandit"`` or ``"value-randomized"``, checked by
:mod:`mistakebound.certificates.game_value` and :mod:`mistakebound.certificates.randomized_value`,
whose docstrings argue each step) is a list of facts ``v(S) >= a`` and ``v(S) <= b`` on the
search's states (widened from its distinct rows to the class's rows), each written once per
state and side, children first:

* ``v(S) >= a``: an instance at which every prediction has an answer whose child the memo
  values at least ``a`` less its mistake (deterministic), or at which the water-filling value
  of the children's memo values reaches ``a`` (randomized); the children's facts follow the
  same instance the search found best;
* ``v(S) <= b``: the search's own bound where it suffices (the potential, or the
  binomial-weights bound), else for every instance the prediction of least worth (its
  outcomes' children all bounded by the memo or by their own bound), or the water-filling
  distribution over those bounds.

Nothing is searched again: the memo (read, never written) holds the exact value of every
state the search finished.  A search stopped by its budget certifies the interval it
reports: the best instance it finished at the root or the floor ``r`` (the adversary keeps
one hypothesis and answers against the learner; ``r / 2`` for a randomized learner),
whichever is larger, and the root's bound.

Examples
--------
>>> from mistakebound.certificates.verify import check, describe
>>> M = np.array([[0, 0], [1, 1], [2, 2], [0, 1]])
>>> writer = game_certificate(M, Rules(labels=3, feedback="bandit"))
>>> print(describe(check(writer.document()))[0])  # doctest: +ELLIPSIS
value(H; 3 labels, bandit feedback, noise 0, deterministic learners) = 2, where H is the class of 4 hypotheses ...
>>> check(game_certificate(M, Rules(labels=3, randomized=True)).document())["value-randomized"]
(Fraction(5, 6), Fraction(5, 6))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.rules import Rules, require_rules
from mistakebound.theory.certificate import CertificateWriter, number_text
from mistakebound.theory.game_values import GameValue, _Search, solve_game, table_of, water_level
from mistakebound.theory.matrix_games import column_strategy, matrix_game

__all__ = ["KINDS", "certifiable", "game_certificate", "game_section"]

#: The kind of section for each (feedback, randomized) of the rules.
KINDS = {("full", False): "value-full", ("bandit", False): "value-bandit", ("full", True): "value-randomized",
         ("bandit", True): "value-randomized-bandit"}


class _Producer:
    """The facts of one section, each state's ``"ge"`` and ``"le"`` facts written once."""

    def __init__(self, search: _Search, writer: CertificateWriter):
        self.search, self.writer = search, writer
        self.facts: list[list] = []
        self.done: dict[tuple[str, tuple], tuple[int, Any]] = {}  # (side, state) -> (fact, value)
        self._texts: dict[tuple, list[str]] = {}

    def state(self, S: tuple[int, ...]) -> list[str]:
        """``S`` as the format writes it: a set of the class's rows per level, in hexadecimal."""
        text = self._texts.get(S)
        if text is None:
            rtd = self.search.row_to_distinct
            text = self._texts[S] = [format(self.writer.from_distinct(level, rtd), "x") for level in S]
        return text

    def add(self, S: tuple[int, ...], side: str, value: Any, step: Any) -> int:
        self.facts.append([self.state(S), side, number_text(value), step])
        self.done[side, S] = (len(self.facts) - 1, value)
        return len(self.facts) - 1

    def known(self, side: str, S: tuple[int, ...], value: Any) -> int | None:
        hit = self.done.get((side, S))
        if hit is not None and (hit[1] >= value if side == "ge" else hit[1] <= value):
            return hit[0]
        return None

    def bound_of(self, T: tuple[int, ...]) -> Any:
        """The least upper bound on ``v(T)`` the search knows: its memo's value, or its bound."""
        exact = self.search.memo.get(T)
        bound = self.search.upper(T)
        return bound if exact is None else min(exact, bound)

    # ---------------------------------------------------------------- lower bounds
    def settled(self, S: tuple[int, ...], a: Any) -> int | None:
        """A ``"ge"`` fact of at least ``a`` on ``S`` already written, or ``v(S) >= 0`` written now; else None."""
        hit = self.known("ge", S, a)
        if hit is None and a <= 0:
            hit = self.add(S, "ge", 0, None)
        return hit

    def ge(self, S: tuple[int, ...], a: Any) -> int:
        """A fact ``v(S) >= a`` (``a`` at most what the memo proves of ``S``)."""
        hit = self.settled(S, a)
        if hit is not None:
            return hit
        search = self.search
        for x, cols in enumerate(search.columns):
            found = (self._bandit_ge(S, cols, a) if search.randomized and search.bandit
                     else self._randomized_ge(S, cols, a) if search.randomized else self._deterministic_ge(S, cols, a))
            if found is not None:
                step, children = found
                for T in children:
                    if search.memo.get(T, 0) > 0:
                        self.ge(T, search.memo[T])
                return self.add(S, "ge", a, [x, step] if step is not None else [x])
        raise AssertionError(f"no instance of the memo reaches {a}")  # pragma: no cover - the search found one

    def _deterministic_ge(self, S, cols, a) -> tuple[list, list] | None:
        """An answer to each prediction worth at least ``a``, by the memo, and the children it leads to."""
        search, answers, children = self.search, [], []
        for guess in range(search.k):
            for outcome, mistake, T in search.outcomes(S, cols, guess):
                if T == S:
                    if mistake:  # the learner predicted what no row allows
                        break
                    continue
                if search.memo.get(T) is not None and mistake + search.memo[T] >= a:
                    children.append(T)
                    break
            else:
                return None
            answers.append(outcome if not search.bandit else "right" if outcome else "wrong")
        return answers, children

    def _randomized_ge(self, S, cols, a) -> tuple[None, list] | None:
        """The children when the water-filling value of their memo values reaches ``a`` at this instance."""
        search = self.search
        outcomes = search.outcomes(S, cols, 0)
        children = [T for _, _, T in outcomes if T != S]
        values = [search.memo.get(T, 0) for T in children]
        if len(children) < len(outcomes):  # a label changes nothing: it must have probability 1
            worth = max((1 + v for v in values), default=0)
        else:
            worth = water_level(values)
        return (None, children) if worth >= a else None

    def _bandit_game(self, S, cols, value) -> tuple[list[int], list[int], list[list], list[list]]:
        """The matrix game of a randomized learner under bandit feedback at ``S`` (see
        :mod:`mistakebound.certificates.randomized_bandit_value`): the live labels (its rows), its columns as
        labels (the live ones, then the first label no row gives when a row may err: the noise column), and per
        row and column the entry (``value`` of each child) and the child (None: the entry changes nothing)."""
        search = self.search
        live = [y for y in range(search.k) if any(level & cols[y] for level in S)]
        columns = list(live)
        if any(search.after(S, 0)) and len(live) < search.k:
            columns.append(next(y for y in range(search.k) if y not in live))
        entries, children = [], []
        for guess in live:
            row, kids = [], []
            for y in columns:
                T = search.after(S, cols[y] if guess == y else search.full ^ cols[guess])
                kids.append(None if T == S else T)
                row.append(0 if T == S else int(guess != y) + value(T))
            entries.append(row)
            children.append(kids)
        return live, columns, entries, children

    def _bandit_ge(self, S, cols, a) -> tuple[list, list] | None:
        """The adversary's optimal mixed label over the memo's values (as the checker reads it: a no-op entry is
        worth 0), if it reaches ``a``, and the children of the labels it names."""
        search = self.search
        live, columns, A, children = self._bandit_game(S, cols, lambda T: search.memo.get(T, 0))
        worth, q = column_strategy(A)
        if worth < a:
            return None
        mix = [Fraction(0)] * search.k
        for y, qy in zip(columns, q):
            mix[y] = qy
        kids = [T for row in children for (T, qy) in zip(row, q) if qy and T is not None]
        return [number_text(v) for v in mix], kids

    def _bandit_le(self, S, cols, b) -> tuple[list, list] | None:
        """The learner's optimal mixed draw over the children's bounds, if it holds the instance to ``b`` (a column
        that changes nothing, one live label named, is left out as the checker leaves it out)."""
        search = self.search
        live, columns, A, children = self._bandit_game(S, cols, self.bound_of)
        p = [Fraction(0)] * search.k
        if len(live) == 1:  # every row gives it: drawn with probability 1; only the noise column, if any, gains
            p[live[0]] = Fraction(1)
            worth = max((A[0][c] for c, y in enumerate(columns) if y != live[0]), default=0)
            weights = (Fraction(1),)
        else:
            worth, weights = matrix_game(A)
            for y, w in zip(live, weights):
                p[y] = w
        if worth > b:
            return None
        kids = [T for row, w in zip(children, weights) if w for T in row if T is not None]
        return [number_text(v) for v in p], kids

    def floor(self, S: tuple[int, ...], c: Any) -> int:
        """A fact ``v(S) >= c`` without the memo, for ``c`` at most the budget left to a row of the lowest level of
        ``S`` (half of it for a randomized learner): the adversary keeps that row and answers against the learner
        at instance 0, a mistake a time (a randomized learner: a label of probability at most 1/2)."""
        hit = self.settled(S, c)
        if hit is not None:
            return hit
        search = self.search
        level = next(level for level in S if level)
        row = (level & -level).bit_length() - 1  # a row with the fewest mistakes
        cols = search.columns[0]
        kept = next(y for y in range(search.k) if cols[y] >> row & 1)
        other = 1 if kept == 0 else 0
        if search.randomized and search.bandit:
            return self._bandit_floor(S, c, row, kept)
        if search.randomized:  # both labels worth c - 1/2 after: their water-filling reaches c
            for T in (search.after(S, cols[kept]), search.after(S, cols[other])):
                if T != S:
                    self.floor(T, c - Fraction(1, 2))
            return self.add(S, "ge", c, [0])
        answers = []
        for guess in range(search.k):
            if search.bandit:
                answer, T = "wrong", search.after(S, search.full ^ cols[guess])
            else:
                answer = kept if guess != kept else other
                T = search.after(S, cols[answer])
            if T != S:
                self.floor(T, c - 1)
            answers.append(answer)
        return self.add(S, "ge", c, [0, answers])

    def _bandit_floor(self, S: tuple[int, ...], c: Any, row: int, kept: int) -> int:
        """:meth:`floor` under bandit feedback: at instance 0 the adversary names ``kept`` (the row's label) and
        another live label half the time each (each draw pays at least ``c``: a right draw of ``kept`` keeps the row,
        ``c``; a wrong one is a mistake, ``1 + c - 1/2``; a draw of the other label the converse; a third label two
        mistakes), or a label no row gives when every row gives ``kept`` (a mistake, ``1 + c - 1/2``)."""
        search = self.search
        cols = search.columns[0]
        live = [y for y in range(search.k) if any(level & cols[y] for level in S)]
        q = [Fraction(0)] * search.k
        if len(live) == 1:
            q[next(y for y in range(search.k) if y not in live)] = Fraction(1)
            self.floor(search.after(S, 0), c - Fraction(1, 2))
        else:
            other = next(y for y in live if y != kept)
            q[kept] = q[other] = Fraction(1, 2)
            for guess in live:
                for y in (kept, other):
                    T = search.after(S, cols[y] if guess == y else search.full ^ cols[guess])
                    self.floor(T, c if (cols[y] if guess == y else search.full ^ cols[guess]) >> row & 1
                               else c - Fraction(1, 2))
        return self.add(S, "ge", c, [0, [number_text(v) for v in q]])

    # ---------------------------------------------------------------- upper bounds
    def le(self, S: tuple[int, ...], b: Any) -> int:
        """A fact ``v(S) <= b`` (``b`` at least what the memo or the search's bound proves of ``S``)."""
        hit = self.known("le", S, b)
        if hit is not None:
            return hit
        search = self.search
        bound = search.upper(S)
        if bound <= b:
            counts = [level.bit_count() for level in S]
            potential = sum(c * (search.r + 1 - j) for j, c in enumerate(counts))
            return self.add(S, "le", bound, "potential" if potential - 1 <= bound else "binomial")
        step, children = [], []
        for cols in search.columns:
            found = (self._bandit_le(S, cols, b) if search.randomized and search.bandit
                     else self._randomized_le(S, cols, b) if search.randomized else self._deterministic_le(S, cols, b))
            if found is None:  # pragma: no cover - the memo proved v(S) <= b at every instance
                raise AssertionError(f"no prediction holds the adversary to {b}")
            step.append(found[0])
            children += found[1]
        for T in children:
            self.le(T, self.bound_of(T))
        return self.add(S, "le", b, step)

    def _deterministic_le(self, S, cols, b) -> tuple[int, list] | None:
        """The first prediction whose every outcome is worth at most ``b``, and the children it leads to."""
        search = self.search
        for guess in range(search.k):
            children = []
            for _, mistake, T in search.outcomes(S, cols, guess):
                if T == S:
                    if mistake:
                        break
                    continue
                if mistake + self.bound_of(T) > b:
                    break
                children.append(T)
            else:
                return guess, children
        return None

    def _randomized_le(self, S, cols, b) -> tuple[list, list] | None:
        """The water-filling distribution over the children's bounds, if it holds the instance to ``b``."""
        search = self.search
        p = [Fraction(0)] * search.k
        bounds = {}
        for y, _, T in search.outcomes(S, cols, 0):
            if T == S:
                p[y] = Fraction(1)  # every row gives y: the learner must give it probability 1
            else:
                bounds[y] = self.bound_of(T)
        if any(p):
            if max((1 + c for c in bounds.values()), default=0) > b:
                return None
        else:
            t = water_level(list(bounds.values()))
            if t > b:
                return None
            for y, c in bounds.items():
                p[y] = max(Fraction(0), 1 + c - t)
        children = [search.after(S, cols[y]) for y in bounds]
        return [number_text(q) for q in p], children


def certifiable(rules: Rules) -> bool:
    """Whether the game's value under ``rules`` has a kind of certificate: deterministic learners, or randomized ones
    against an adaptive adversary (with full information, or under bandit feedback: a matrix game at each step).
    Against an oblivious adversary a randomized learner's value is another game, played for a number of rounds:
    :mod:`~mistakebound.theory.horizon_certificate` certifies it.  Under another order of the instances,
    deterministic learners on two labels (:mod:`~mistakebound.theory.order_certificate`).

    Examples
    --------
    >>> certifiable(Rules(noise=1)), certifiable(Rules(randomized=True)), certifiable(Rules(randomized=True, feedback="bandit"))
    (True, True, True)
    >>> certifiable(Rules(randomized=True, feedback="bandit", adaptive=False)), certifiable(Rules(order="best"))
    (False, True)
    >>> certifiable(Rules(order="worst", randomized=True)), certifiable(Rules(order="self-directed", labels=3))
    (False, False)
    """
    if rules.order != "adaptive":
        return not rules.randomized and rules.labels == 2
    return not rules.randomized or rules.adaptive


def _certifiable(rules: Rules) -> Rules:
    if not certifiable(rules):
        raise NotApplicableError(f"rules: the value of randomized learners under {rules.describe()} has no kind of "
                                 "certificate without a horizon (horizon_certificate in "
                                 "mistakebound.theory.horizon_certificate certifies it in T rounds)")
    return rules


def game_section(search: _Search, value: GameValue, writer: CertificateWriter) -> dict:
    """Add to ``writer`` the section proving what ``search`` (which found ``value``) proved of the root.

    Exact: ``value``.  Partial: the interval ``value`` states, the larger of the best instance
    the search finished at the root and the floor ``r`` (``r / 2`` for a randomized learner:
    :meth:`_Producer.floor`), and the root's bound.

    Returns
    -------
    dict
        The section, also added to ``writer``.
    """
    rules = _certifiable(value.rules)
    kind = KINDS[rules.feedback, rules.randomized]
    p = _Producer(search, writer)
    root = search.root
    with search.deep():
        if value.exact:
            low = p.ge(root, search.memo[root])
            high = p.le(root, search.memo[root])
        else:
            floor = (Fraction(rules.noise, 2) if rules.randomized else rules.noise) if search.columns else 0
            low = p.ge(root, search.root_lower) if search.root_lower >= floor else p.floor(root, floor)
            high = p.le(root, search.upper(root))
    section = {"result": kind,
               "rules": {"labels": rules.labels, "feedback": rules.feedback, "noise": rules.noise,
                         "randomized": rules.randomized},
               "facts": p.facts,
               "claim": {"lower": [low, p.facts[low][2]], "upper": [high, p.facts[high][2]]}}
    writer.add(section)
    return section


def game_certificate(matrix: Any, rules: Rules = Rules(), *, writer: CertificateWriter | None = None,
                     max_nodes: int | None = None, time_limit: float | None = None) -> CertificateWriter:
    """Search the game's value under ``rules`` within a budget and write its certificate (exact or partial).

    Parameters
    ----------
    matrix : array_like or HypothesisClass
        The table of labels (as :func:`~mistakebound.theory.game_values.game_value` takes it).
    rules : Rules
        The game (:func:`certifiable`).
    writer : CertificateWriter, optional
        The document to add the section to (default: a new one of the class, or of the table).

    Returns
    -------
    CertificateWriter
        ``writer``, with the section added.

    Raises
    ------
    NotApplicableError
        For rules with no kind of certificate (:func:`certifiable`).
    """
    rules = require_rules(rules)
    _certifiable(rules)
    value, search = solve_game(matrix, rules, max_nodes=max_nodes, time_limit=time_limit)
    if writer is None:
        writer = CertificateWriter(matrix if isinstance(matrix, HypothesisClass) else table_of(matrix, rules.labels))
    game_section(search, value, writer)
    return writer
