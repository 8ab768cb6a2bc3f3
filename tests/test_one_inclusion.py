"""The one-inclusion graph's edges and maximum degree against brute force, both ways of finding edges
(direct products and hashing), closed forms, budgets and refusals."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game import classes
from mistakebound.theory import one_inclusion
from mistakebound.theory import search_protocol as search_module
from mistakebound.theory.one_inclusion import (OneInclusionDegree, Star, neighbour_lists, one_inclusion_degree,
                                               one_inclusion_degree_bounds, one_inclusion_edges)
from mistakebound.theory.search_protocol import SearchInterrupted
from tests import parameter_oracles as oracle
from tests.strategies import class_matrices
from tests.test_vc import interrupting_spend


def brute_edges(M: np.ndarray) -> set[tuple[int, int, int]]:
    """(row with label 0, row with label 1, column) for every pair of rows differing on one column."""
    out = set()
    for a, b in itertools.permutations(range(M.shape[0]), 2):
        diff = np.flatnonzero(M[a] != M[b])
        if diff.size == 1 and M[a, diff[0]] == 0:
            out.add((a, b, int(diff[0])))
    return out


def check_neighbours(H: HypothesisClass, s: Star) -> None:
    """Each leaf differs from the center on its instance and on no other instance of the domain."""
    for leaf, x in zip(s.leaves, s.instances):
        assert [y for y in H.domain if H.label(leaf, y) != H.label(s.center, y)] == [x]


@settings(max_examples=200, deadline=None)
@given(class_matrices(max_rows=20, max_cols=7), st.sampled_from([0, 10**9]))
def test_the_edges_are_those_of_the_brute_force_found_either_way(M, direct):
    D = np.unique(M, axis=0)
    saved = one_inclusion.DIRECT_ROWS
    one_inclusion.DIRECT_ROWS = direct  # 0: every level pair hashed; 10**9: every pair compared directly
    try:
        u, v, col = one_inclusion_edges(D)
    finally:
        one_inclusion.DIRECT_ROWS = saved
    found = list(zip(u.tolist(), v.tolist(), col.tolist()))
    assert len(found) == len(set(found)) and set(found) == brute_edges(D)


@settings(max_examples=300, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6))
def test_the_degree_equals_the_brute_force_and_its_star_is_a_vertex_and_its_neighbours(M):
    H = HypothesisClass.from_matrix(M)
    b = one_inclusion_degree_bounds(H)
    assert b.exact and b.value == oracle.one_inclusion_degree(M) == one_inclusion_degree(H)
    assert b.witness.size == b.value
    check_neighbours(H, b.witness)


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6), st.integers(1, 6))
def test_a_node_budget_gives_an_interval_holding_the_value(M, nodes):
    H = HypothesisClass.from_matrix(M)
    b = one_inclusion_degree_bounds(H, max_nodes=nodes)
    truth = oracle.one_inclusion_degree(M)
    assert b.lower <= truth <= b.upper and b.witness.size == b.lower
    check_neighbours(H, b.witness)


def test_ctrl_c_raises_search_interrupted_from_the_bare_number(monkeypatch):
    H = classes.thresholds(30)
    monkeypatch.setattr(search_module.Clock, "spend", interrupting_spend(3))
    with pytest.raises(SearchInterrupted) as info:
        one_inclusion_degree(H)
    b = info.value.result
    assert isinstance(b, OneInclusionDegree) and b.status == "interrupted" and b.lower <= 2 <= b.upper


@pytest.mark.parametrize("n", [2, 3, 6, 50])
def test_closed_forms(n):
    assert one_inclusion_degree(classes.thresholds(n)) == 2
    assert one_inclusion_degree(classes.intervals(n)) == n
    assert one_inclusion_degree(classes.singletons(n)) == 0
    assert one_inclusion_degree(classes.singletons(n, include_empty=True)) == n
    assert one_inclusion_degree(classes.projections(min(n, 6))) == 0
    assert one_inclusion_degree(classes.power_set(min(n, 10))) == min(n, 10)


def test_a_duplicated_instance_breaks_the_edges_through_it():
    M = classes.thresholds(3).matrix
    assert one_inclusion_degree(HypothesisClass.from_matrix(M)) == 2
    assert one_inclusion_degree(HypothesisClass.from_matrix(np.column_stack([M, M[:, 1]]))) == 1
    assert one_inclusion_degree(HypothesisClass.from_matrix(np.vstack([M, M]))) == 2  # a concept, twice


def test_neighbour_lists():
    assert neighbour_lists(2, one_inclusion_edges([[0], [1]])) == [{1: 0}, {0: 0}]


def test_bad_input_is_refused_by_name():
    with pytest.raises(InvalidArgumentError, match="^H: expected a HypothesisClass"):
        one_inclusion_degree_bounds(np.zeros((2, 2)))
    three = HypothesisClass.from_matrix([[0, 2], [1, 1]], labels=3, name="three")
    with pytest.raises(NotApplicableError, match="^H: the one-inclusion graph needs a class of labels 0 and 1"):
        one_inclusion_degree(three)
    with pytest.raises(InvalidArgumentError, match="^matrix: expected distinct rows"):
        one_inclusion_edges([[0, 1], [0, 1]])
    with pytest.raises(InvalidArgumentError, match="^matrix: expected a 2-D table of 0s and 1s"):
        one_inclusion_edges([[0, 2]])
    with pytest.raises(InvalidArgumentError, match="^max_nodes: "):
        one_inclusion_degree(classes.thresholds(3), max_nodes=0)
