"""The transductive game (issue 24): the adversary announces the sequence before round 1 (Ben-David, Kushilevitz
and Mansour 1997; Hanneke, Moran and Shafer 2023).

The oracle (:func:`tests.order_oracles.transductive_oracle`) tries every sequence of ``n`` instances, repeats
included, so it checks the module docstring's reduction (repeats are worth nothing, the value is the best sequence
of distinct instances, the worst order's once ``n`` reaches the domain) instead of assuming it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import classes
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.rules import Rules
from mistakebound.theory.instance_orders import worst_order_value
from mistakebound.theory.transductive import transductive_value
from mistakebound.theory.vc import vc_dimension
from mistakebound.verification.strategies import hypothesis_classes as package_classes
from tests.order_oracles import sequence_oracle, transductive_oracle
from tests.strategies import hypothesis_classes, order_classes


def rows_of(H) -> list[tuple[int, ...]]:
    return [tuple(int(v) for v in row) for row in H.matrix.tolist()]


def check_sequence(H, result, n: int, k: int = 2, randomized: bool = False) -> None:
    """The witness is a sequence of n instances of the domain whose value is the value."""
    if H.n_instances == 0:
        assert result.witness == ()
        return
    assert len(result.witness) == n and all(x in H.domain for x in result.witness)
    assert sequence_oracle(rows_of(H), [H.domain.index(x) for x in result.witness], k, randomized) == result.value


@settings(max_examples=80, deadline=None)
@given(st.one_of(hypothesis_classes(max_rows=8, max_cols=2), order_classes(max_rows=10, max_cols=4)),
       st.integers(0, 4))
def test_the_value_is_the_brute_force_over_every_sequence_repeats_included(H, n):
    rows = rows_of(H)
    if H.n_instances ** n > 1300:  # the oracle tries them all
        n = 2
    result = transductive_value(H, horizon=n)
    assert result.value == transductive_oracle(rows, n)
    assert result.rules.order == "transductive" and result.horizon == n
    check_sequence(H, result, n)


@settings(max_examples=30, deadline=None)
@given(package_classes(labels=3, max_hypotheses=6, max_instances=3), st.integers(0, 3), st.booleans())
def test_many_labels_and_randomized_learners_against_the_brute_force(H, n, randomized):
    rules = Rules(labels=3, randomized=randomized)
    result = transductive_value(H, rules, horizon=n)
    assert result.value == transductive_oracle(rows_of(H), n, 3, randomized)
    check_sequence(H, result, n, 3, randomized)


@settings(max_examples=60, deadline=None)
@given(order_classes(max_rows=16, max_cols=6))
def test_what_the_value_reduces_to_on_a_finite_class(H):
    """M(H, n) does not decrease with n, is at most n, is at least min(n, VCdim) (a shattered set first), and is
    the worst order's value once n reaches the number of instances (the module docstring's argument)."""
    values = [transductive_value(H, horizon=n).value for n in range(H.n_instances + 2)]
    assert values == sorted(values)
    assert all(v <= n for n, v in enumerate(values))
    vc = vc_dimension(H)
    assert all(v >= min(n, vc) for n, v in enumerate(values))
    worst = worst_order_value(H).value
    assert values[H.n_instances] == values[-1] == worst == transductive_value(H).value


@pytest.mark.parametrize("N", [1, 3, 7, 15])
def test_thresholds_a_balanced_search_tree_of_n_instances(N):
    """On thresholds a sequence of n instances forces floor(log2(n + 1)) mistakes and no more (the learner knows
    the sequence: an instance forces a mistake only if both its sides still hold instances to come), capped at
    Ldim = floor(log2(N + 1)); checked against the brute force for N <= 3."""
    for n in range(N + 3):
        assert transductive_value(classes.thresholds(N), horizon=n).value == min(int(math.log2(n + 1)),
                                                                                 int(math.log2(N + 1)))
        if N <= 3 and n <= 4:
            assert transductive_oracle(rows_of(classes.thresholds(N)), n) == min(int(math.log2(n + 1)),
                                                                                int(math.log2(N + 1)))


def test_without_a_horizon_the_worst_order_and_game_value_answers_it():
    from mistakebound import game_value

    H = classes.intervals(6)
    unbounded = transductive_value(H)
    assert unbounded.horizon is None and unbounded.value == worst_order_value(H).value
    by_door = game_value(H, Rules(order="transductive"))
    assert by_door.value == unbounded.value and by_door.rules.order == "transductive"
    assert sorted(by_door.witness) == sorted(H.domain)


def test_edge_cases():
    assert transductive_value(np.zeros((3, 0), dtype=int), horizon=4).witness == ()
    assert transductive_value([[0, 1]], horizon=3).value == 0
    short = transductive_value([[0, 1], [1, 0]], horizon=5)
    assert short.value == 1 and len(short.witness) == 5


def test_out_of_budget_a_proven_interval_holding_the_value():
    H = classes.intervals(9)
    exact = transductive_value(H, horizon=5).value
    for nodes in (1, 4, 30):
        partial = transductive_value(H, horizon=5, max_nodes=nodes)
        assert partial.lower <= exact <= partial.upper <= 5


def test_bad_input_refused_by_name():
    with pytest.raises(InvalidArgumentError, match="horizon: expected None or an int >= 0"):
        transductive_value(classes.thresholds(3), horizon=-1)
    with pytest.raises(InvalidArgumentError, match="order='best'"):
        transductive_value(classes.thresholds(3), Rules(order="best"))
    with pytest.raises(NotApplicableError, match="transductive game .* noise budget 1"):
        transductive_value(classes.thresholds(3), Rules(noise=1))
