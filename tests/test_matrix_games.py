"""The exact matrix-game solver, against support enumeration (:func:`tests.game_oracle.support_enumeration`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.theory.matrix_games import column_strategy, matrix_game
from tests.game_oracle import support_enumeration

entries = st.fractions(min_value=-4, max_value=4, max_denominator=6)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(entries, min_size=n, max_size=n), min_size=1,
                                                    max_size=4)))
def test_the_value_is_support_enumerations_and_the_strategy_attains_it(A):
    value, p = matrix_game(A)
    assert value == support_enumeration(A)
    assert sum(p) == 1 and min(p) >= 0
    assert max(sum(pi * row[j] for pi, row in zip(p, A)) for j in range(len(A[0]))) == value


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(entries, min_size=n, max_size=n), min_size=1,
                                                    max_size=4)))
def test_the_column_strategy_attains_the_value_against_every_row(A):
    value, q = column_strategy(A)
    assert value == support_enumeration(A) == matrix_game(A)[0]
    assert sum(q) == 1 and min(q) >= 0 and len(q) == len(A[0])
    assert min(sum(qj * a for qj, a in zip(q, row)) for row in A) == value


def test_a_dominated_row_and_a_saddle_point():
    assert matrix_game([[1, 1], [2, 0], [0, 2]])[0] == 1  # the first row, or the other two mixed evenly
    assert matrix_game([[2, 3], [1, 5]])[0] == 3  # the first row, the second column


@pytest.mark.parametrize("A, message", [
    ([], "A: expected a non-empty rectangular matrix, got []"),
    ([[1], [1, 2]], "A: expected a non-empty rectangular matrix, got [[1], [1, 2]]"),
    ([["x"]], "A: expected a matrix of rational entries, got [['x']]"),
])
def test_bad_matrices_are_refused_by_name(A, message):
    with pytest.raises(InvalidArgumentError) as info:
        matrix_game(A)
    assert str(info.value) == message
