"""Best order and worst order (issue 24): every instance once, in an order fixed in advance and known to the
learner (Ben-David, Kushilevitz and Mansour 1997).

The oracles (:mod:`tests.order_oracles`) try every permutation of the domain, each by a recursion over
histories, sharing no code with :mod:`mistakebound.theory.instance_orders`.
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
from mistakebound.theory.instance_orders import OrderSearch, best_order_value, order_value, worst_order_value
from mistakebound.verification.strategies import hypothesis_classes as package_classes
from tests.order_oracles import best_order_oracle, sequence_oracle, worst_order_oracle
from tests.strategies import hypothesis_classes, order_classes


def rows_of(H) -> list[tuple[int, ...]]:
    return [tuple(int(v) for v in row) for row in H.matrix.tolist()]


def check_order(H, result, k: int = 2, randomized: bool = False) -> None:
    """The witness is an order of the whole domain, each instance once, whose value is the value."""
    assert sorted(map(repr, result.witness)) == sorted(map(repr, H.domain))
    columns = [H.domain.index(x) for x in result.witness]
    assert sequence_oracle(rows_of(H), columns, k, randomized) == result.value


@settings(max_examples=100, deadline=None)
@given(st.one_of(hypothesis_classes(max_rows=8, max_cols=3), order_classes(max_rows=12, max_cols=5)))
def test_best_and_worst_are_the_brute_force_over_every_permutation(H):
    """Duplicated rows and columns, constant columns and one-hypothesis classes included (tests.strategies), and
    classes of many distinct rows on up to 5 columns, where the best and worst orders differ."""
    rows = rows_of(H)
    best, worst = best_order_value(H), worst_order_value(H)
    assert best.value == best_order_oracle(rows)
    assert worst.value == worst_order_oracle(rows)
    check_order(H, best)
    check_order(H, worst)


@settings(max_examples=40, deadline=None)
@given(package_classes(labels=st.integers(2, 3), max_hypotheses=6, max_instances=4), st.booleans())
def test_many_labels_and_randomized_learners_against_the_brute_force(H, randomized):
    rows, k = rows_of(H), H.n_labels
    rules = Rules(labels=k, randomized=randomized)
    best, worst = best_order_value(H, rules), worst_order_value(H, rules)
    assert best.value == best_order_oracle(rows, k, randomized)
    assert worst.value == worst_order_oracle(rows, k, randomized)
    check_order(H, best, k, randomized)
    check_order(H, worst, k, randomized)


@pytest.mark.parametrize("N", [1, 2, 3, 7, 15, 31])
def test_thresholds_best_one_worst_binary_search(N):
    """Left to right costs one mistake; the binary-search order forces floor(log2(N + 1)) = Ldim, the most any
    order can (worst <= Ldim, Littlestone 1988)."""
    assert best_order_value(classes.thresholds(N)).value == 1
    worst = worst_order_value(classes.thresholds(N))
    assert worst.value == int(math.log2(N + 1))
    check_order(classes.thresholds(N), worst)


@pytest.mark.parametrize("d", [1, 2, 5, 12])
def test_singletons_one_and_the_power_set_d_in_every_order(d):
    for H in (classes.singletons(d + 1), classes.singletons(d, include_empty=True)):
        assert best_order_value(H).value == worst_order_value(H).value == 1
    cube = classes.power_set(min(d, 6))
    assert best_order_value(cube).value == worst_order_value(cube).value == min(d, 6)


def test_edge_classes():
    assert best_order_value([[1, 0, 1]]).value == worst_order_value([[1, 0, 1]]).value == 0
    assert worst_order_value(np.zeros((2, 0), dtype=int)).witness == ()
    assert best_order_value([[0], [1]]).witness == (0,)


@pytest.mark.parametrize("mode", ["best", "worst"])
def test_out_of_budget_a_proven_interval_holding_the_value(mode):
    H = classes.intervals(9)
    exact = order_value(H, mode).value
    for nodes in (1, 3, 10, 40, 200):
        partial = order_value(H, mode, max_nodes=nodes)
        assert partial.lower <= exact <= partial.upper
        if partial.status == "budget" and partial.witness is not None:  # the order found proves its side
            found = sequence_oracle(rows_of(H), [H.domain.index(x) for x in partial.witness])
            assert (partial.upper if mode == "best" else partial.lower) == found


def test_the_search_keeps_exact_values_per_version_space():
    search = OrderSearch(classes.thresholds(7), "worst")
    assert search.value(search.root) == 3
    assert all(v <= search.game.adaptive_value(V) for V, v in search.memo.items())


def test_bad_input_refused_by_name():
    with pytest.raises(NotApplicableError, match="the best order .* noise budget 2"):
        best_order_value(classes.thresholds(3), Rules(noise=2))
    with pytest.raises(NotApplicableError, match="the worst order .* bandit feedback"):
        worst_order_value(classes.thresholds(3), Rules(feedback="bandit"))
    with pytest.raises(InvalidArgumentError, match="order='worst'"):
        best_order_value(classes.thresholds(3), Rules(order="worst"))
    with pytest.raises(InvalidArgumentError, match="mode"):
        OrderSearch(classes.thresholds(3), "middle")
    with pytest.raises(InvalidArgumentError, match="time_limit"):
        worst_order_value(classes.thresholds(3), time_limit=-1)
    with pytest.raises(InvalidArgumentError, match="rules"):
        worst_order_value(classes.thresholds(3), "worst")


def test_wide_classes_are_settled_by_the_first_order_without_a_search():
    """The first order, costing no search, meets the bound no order passes on thresholds and singletons: a budget
    of a thousand nodes (the first order's own states) finds the exact values (the most even splits breadth
    first: binary search)."""
    H = classes.thresholds(255)
    worst = worst_order_value(H, max_nodes=1000)
    assert worst.exact and worst.value == 8 and worst.witness[:3] == (128, 64, 192)
    assert best_order_value(H, max_nodes=1000).exact
    assert worst_order_value(classes.singletons(255), max_nodes=1000).exact
