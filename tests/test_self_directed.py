"""The self-directed game (issue 24): the learner picks each next instance (Goldman and Sloan 1994).

The oracle (:func:`tests.order_oracles.self_directed_oracle`) recurses over histories, from
the definition, sharing no code with :mod:`mistakebound.theory.self_directed`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import classes
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game.rules import Rules
from mistakebound.theory.self_directed import self_directed_value
from mistakebound.verification.strategies import hypothesis_classes as package_classes
from tests.order_oracles import self_directed_oracle, strategy_mistakes
from tests.strategies import hypothesis_classes, order_classes


def rows_of(H) -> list[tuple[int, ...]]:
    return [tuple(int(v) for v in row) for row in H.matrix.tolist()]


@settings(max_examples=120, deadline=None)
@given(st.one_of(hypothesis_classes(max_rows=8, max_cols=4), order_classes(max_rows=16, max_cols=5)))
def test_the_value_is_the_brute_force_value_and_the_strategy_attains_it(H):
    """Duplicated rows and columns, constant columns and one-hypothesis classes included (tests.strategies)."""
    result = self_directed_value(H)
    rows = rows_of(H)
    assert result.exact and result.value == self_directed_oracle(rows)
    assert strategy_mistakes(rows, H.domain, result.witness) == result.value


@settings(max_examples=60, deadline=None)
@given(package_classes(labels=st.integers(2, 3), max_hypotheses=6, max_instances=3))
def test_many_labels_and_randomized_learners_against_the_brute_force(H):
    rows = rows_of(H)
    k = H.n_labels
    deterministic = self_directed_value(H, Rules(labels=k))
    assert deterministic.value == self_directed_oracle(rows, k)
    randomized = self_directed_value(H, Rules(labels=k, randomized=True))
    assert randomized.value == self_directed_oracle(rows, k, randomized=True)
    assert strategy_mistakes(rows, H.domain, randomized.witness) == randomized.value
    assert randomized.value <= deterministic.value  # a deterministic learner is a randomized one


@pytest.mark.parametrize("N", [1, 2, 7, 31])
def test_closed_forms_thresholds_and_singletons_one_power_set_d(N):
    """Goldman and Sloan (1994): thresholds and singletons are learnt with one mistake when the learner picks
    the order (left to right; predict 0 until the one); every order of the power set of d points costs d."""
    assert self_directed_value(classes.thresholds(N)).value == 1
    assert self_directed_value(classes.singletons(N + 1)).value == 1
    assert self_directed_value(classes.power_set(min(N, 5))).value == min(N, 5)


def test_randomized_thresholds_approach_one_from_below():
    """N + 1 thresholds: splitting off one at a time, each step the water level of (v, 0), the randomized
    learner concedes 1/2, 3/4, ..., 1 - 2^-N (checked against the brute force on the small ones)."""
    for N in range(1, 8):
        assert self_directed_value(classes.thresholds(N), Rules(randomized=True)).value == 1 - Fraction(1, 2 ** N)
    for N in range(1, 4):
        assert self_directed_oracle(rows_of(classes.thresholds(N)), randomized=True) == 1 - Fraction(1, 2 ** N)


def test_a_class_of_one_hypothesis_or_no_instance_is_worth_nothing():
    assert self_directed_value([[0, 1, 1]]).value == 0
    assert self_directed_value(np.zeros((3, 0), dtype=int)).value == 0
    assert self_directed_value([[0, 1], [0, 1]]).witness == {}


def test_out_of_budget_a_proven_interval_holding_the_value():
    H = classes.power_set(6)
    exact = self_directed_value(H).value
    for nodes in (1, 2, 5, 50):
        partial = self_directed_value(H, max_nodes=nodes)
        assert partial.status == "budget" and partial.lower <= exact <= partial.upper
    assert self_directed_value(classes.intervals(8), time_limit=1e-9).status in ("budget", "exact")


def test_bad_input_refused_by_name():
    with pytest.raises(NotApplicableError, match="noise budget 1"):
        self_directed_value(classes.thresholds(3), Rules(noise=1))
    with pytest.raises(NotApplicableError, match="bandit feedback"):
        self_directed_value(classes.thresholds(3), Rules(feedback="bandit"))
    with pytest.raises(InvalidArgumentError, match="order='best'"):
        self_directed_value(classes.thresholds(3), Rules(order="best"))
    with pytest.raises(InvalidArgumentError, match="max_nodes"):
        self_directed_value(classes.thresholds(3), max_nodes=0)
    with pytest.raises(InvalidArgumentError, match="matrix"):
        self_directed_value([[0, 2]])
    assert self_directed_value(classes.thresholds(3), Rules(order="self-directed")).rules.order == "self-directed"
