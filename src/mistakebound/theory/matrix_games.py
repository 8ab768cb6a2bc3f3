"""The exact value of a small zero-sum matrix game, in fractions.

A randomized learner's step in the bandit game is a matrix game: the learner (rows) draws
a label from a distribution it announces, the adversary (columns) answers with a label,
and entry ``A[i][j]`` is what the pair costs the learner.  :func:`matrix_game` returns the
value ``min over p of max over j of sum_i p_i A[i][j]`` (the learner minimises, the
adversary maximises after seeing ``p``; by von Neumann's minimax theorem it is also the
adversary's maximin over its mixed strategies) and an optimal ``p``, exactly, as
:class:`fractions.Fraction` values: no floating point anywhere; :func:`column_strategy` returns
the same value and an optimal mixed strategy ``q`` of the adversary (the columns), read off
the same linear program's dual.

The method is the textbook reduction to a linear program (shift every entry to make it
positive, then ``max 1.u`` subject to ``B^T u <= 1``, ``u >= 0``, whose optimum is
``1 / value``) solved by the simplex method over fractions with Bland's rule (which
cannot cycle).  It is meant for the game's steps, a few labels a side; its cost grows
with the size of the matrix like any dense simplex.

Examples
--------
>>> from fractions import Fraction
>>> matrix_game([[0, 1], [1, 0]])       # matching pennies as a cost: the learner mixes evenly
(Fraction(1, 2), (Fraction(1, 2), Fraction(1, 2)))
>>> column_strategy([[0, 1], [1, 0]])   # the adversary mixes evenly too
(Fraction(1, 2), (Fraction(1, 2), Fraction(1, 2)))
>>> matrix_game([[Fraction(1, 3), 2], [1, 1]])[0]   # the second row is safe: 1 whatever the column
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from mistakebound.foundations.errors import InvalidArgumentError

__all__ = ["column_strategy", "matrix_game"]


def _entries(A: Any) -> list[list[Fraction]]:
    try:
        rows = [[Fraction(a) for a in row] for row in A]
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(f"A: expected a matrix of rational entries, got {A!r}") from exc
    if not rows or not rows[0] or any(len(row) != len(rows[0]) for row in rows):
        raise InvalidArgumentError(f"A: expected a non-empty rectangular matrix, got {A!r}")
    return rows


def matrix_game(A: Sequence[Sequence[Any]]) -> tuple[Fraction, tuple[Fraction, ...]]:
    """The value of the zero-sum game whose row player pays ``A[i][j]``, and an optimal row strategy.

    Parameters
    ----------
    A : sequence of sequences of int or Fraction
        A rectangular matrix of exact entries: rows are the minimiser's pure strategies,
        columns the maximiser's.

    Returns
    -------
    value : Fraction
        ``min over distributions p on the rows of max over columns j of sum_i p_i A[i][j]``.
    p : tuple of Fraction
        A distribution over the rows attaining it.

    Raises
    ------
    InvalidArgumentError
        Naming ``A`` when it is empty, ragged, or has an entry that is not a rational number.

    Examples
    --------
    >>> matrix_game([[3]])
    (Fraction(3, 1), (Fraction(1, 1),))
    >>> value, p = matrix_game([[0, 2, 2], [2, 0, 2], [2, 2, 0]])
    >>> value, p
    (Fraction(4, 3), (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)))
    >>> matrix_game([[1, 2], [3]])
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: A: expected a non-empty rectangular matrix, got [[1, 2], [3]]
    """
    value, p, _ = _solve(A)
    return value, p


def column_strategy(A: Sequence[Sequence[Any]]) -> tuple[Fraction, tuple[Fraction, ...]]:
    """The value of the zero-sum game whose row player pays ``A[i][j]``, and an optimal column strategy.

    The column player (the maximiser) mixes its columns by ``q`` so that every row pays at
    least the value in expectation: ``min over i of sum_j A[i][j] q_j = value``.  It is the
    dual of the linear program :func:`matrix_game` solves (the slack variables' reduced costs
    at the optimum), exact.

    Parameters
    ----------
    A : sequence of sequences of int or Fraction
        As :func:`matrix_game` takes it.

    Returns
    -------
    value : Fraction
        The value of the game, :func:`matrix_game`'s.
    q : tuple of Fraction
        A distribution over the columns attaining it.

    Raises
    ------
    InvalidArgumentError
        Naming ``A`` when it is empty, ragged, or has an entry that is not a rational number.

    Examples
    --------
    >>> column_strategy([[3]])
    (Fraction(3, 1), (Fraction(1, 1),))
    >>> column_strategy([[1, 0], [0, 2]])     # the adversary weighs the cheap column of each row
    (Fraction(2, 3), (Fraction(2, 3), Fraction(1, 3)))
    >>> column_strategy([[0, 1, 5], [1, 0, 5]])[1]   # a column dearest to every row: played alone
    (Fraction(0, 1), Fraction(0, 1), Fraction(1, 1))
    >>> column_strategy([])
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: A: expected a non-empty rectangular matrix, got []
    """
    value, _, q = _solve(A)
    return value, q


def _solve(A: Any) -> tuple[Fraction, tuple[Fraction, ...], tuple[Fraction, ...]]:
    """The value, an optimal row strategy and an optimal column strategy (module docstring: the simplex)."""
    rows = _entries(A)
    m, n = len(rows), len(rows[0])
    shift = 1 - min(min(row) for row in rows)  # every entry of B = A + shift is at least 1
    # tableau of max 1.u s.t. B^T u <= 1 (one constraint per column of A, one variable per row), slacks s
    tableau = [[rows[i][j] + shift for i in range(m)] + [Fraction(int(c == j)) for c in range(n)] + [Fraction(1)]
               for j in range(n)]
    objective = [Fraction(-1)] * m + [Fraction(0)] * (n + 1)  # reduced costs of maximising sum u
    basis = [m + j for j in range(n)]
    while True:
        entering = next((c for c in range(m + n) if objective[c] < 0), None)  # Bland: the lowest index
        if entering is None:
            break
        ratios = [(tableau[r][-1] / tableau[r][entering], basis[r], r) for r in range(n) if tableau[r][entering] > 0]
        _, _, pivot = min(ratios)  # bounded: every u_i is at most 1 / (its entries), so a ratio exists
        row = tableau[pivot]
        factor = row[entering]
        row[:] = [a / factor for a in row]
        for r in range(n):
            if r != pivot and tableau[r][entering]:
                f = tableau[r][entering]
                tableau[r] = [a - f * b for a, b in zip(tableau[r], row)]
        f = objective[entering]
        objective = [a - f * b for a, b in zip(objective, row)]
        basis[pivot] = entering
    total = objective[-1]  # the optimum of sum u: 1 / (value + shift)
    u = [Fraction(0)] * m
    for r, var in enumerate(basis):
        if var < m:
            u[var] = tableau[r][-1]
    # the dual (min 1.w s.t. B w >= 1, w >= 0): w_j is the reduced cost of column j's slack; same optimum
    w = objective[m:m + n]
    return 1 / total - shift, tuple(x / total for x in u), tuple(x / total for x in w)
