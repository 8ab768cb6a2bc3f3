"""The star number against the brute force of ``tests/parameter_oracles.py``, its stars read from the
definition, closed forms of the zoo, budgets, refusals, and its relations with VCdim, TD and the
one-inclusion graph."""

from __future__ import annotations

import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game import classes
from mistakebound.theory import search_protocol as search_module
from mistakebound.theory import star_number as star_module
from mistakebound.theory.one_inclusion import Star, one_inclusion_degree
from mistakebound.theory.search_protocol import SearchIncomplete, SearchInterrupted
from mistakebound.theory.star_number import StarBounds, chain_cover, largest_star, star_bounds, star_number
from mistakebound.theory.teaching import teaching_dimension
from mistakebound.theory.vc import vc_dimension
from tests import parameter_oracles as oracle
from tests.parameter_checks import at_every_node, interrupted
from tests.strategies import class_matrices
from tests.test_vc import interrupting_spend


def check_star(H: HypothesisClass, s: Star) -> None:
    """``s`` is a star of ``H``, read from the definition: leaf k differs from the center on instance k, and on
    no other instance of the star."""
    assert len(s.leaves) == len(s.instances) == len(set(s.instances))
    assert all(x in H for x in s.instances)
    assert list(s.instances) == sorted(s.instances, key=H.index_of)
    for leaf, x in zip(s.leaves, s.instances):
        differ = [y for y in s.instances if H.label(leaf, y) != H.label(s.center, y)]
        assert differ == [x]


def check_sandwich(H: HypothesisClass, b: StarBounds, truth: int) -> None:
    assert b.lower <= truth <= b.upper
    assert b.witness.size == b.lower
    if b.lower:
        check_star(H, b.witness)
    assert b.exact == (b.lower == b.upper)


@settings(max_examples=300, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6))
def test_the_search_equals_the_brute_force_and_its_star_is_one(M):
    H = HypothesisClass.from_matrix(M)
    b = star_bounds(H)
    assert b.exact and b.value == oracle.star_number(M)
    check_star(H, b.witness)
    assert star_number(H) == b.value and largest_star(H) == b.witness


@settings(max_examples=150, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6), st.integers(1, 25))
def test_a_node_budget_gives_an_interval_holding_the_value(M, nodes):
    H = HypothesisClass.from_matrix(M)
    b = star_bounds(H, max_nodes=nodes)
    check_sandwich(H, b, oracle.star_number(M))
    assert b.status in ("exact", "budget") and b.nodes <= nodes


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6), st.integers(1, 12))
def test_ctrl_c_gives_the_bounds_proven_so_far(M, when):
    H = HypothesisClass.from_matrix(M)
    b = interrupted(star_bounds, H, when)
    assert b.status in ("exact", "interrupted")
    check_sandwich(H, b, oracle.star_number(M))


@pytest.mark.parametrize("seed", range(8))
def test_every_node_budget_gives_an_interval_holding_the_value(seed):
    """Stopped at every node of a search in turn: wherever it stops, the branch in progress counts."""
    H = classes.random(12, 7, 0.45, seed=seed)
    truth = oracle.star_number(H.matrix)
    for b in at_every_node(star_bounds, H):
        check_sandwich(H, b, truth)


@pytest.fixture
def no_start(monkeypatch):
    """The search over centers alone: no star from the one-inclusion graph to start from, every center."""
    monkeypatch.setattr(star_module._StarSearch, "_from_degrees", lambda self: list(range(self.n)))


@settings(max_examples=150, deadline=None)
@given(M=class_matrices(max_rows=14, max_cols=6))
def test_the_search_alone_equals_the_brute_force(M):
    H = HypothesisClass.from_matrix(M)
    with mock.patch.object(star_module._StarSearch, "_from_degrees", lambda self: list(range(self.n))):
        b = star_bounds(H)
    assert b.exact and b.value == oracle.star_number(M)
    check_star(H, b.witness)


@pytest.mark.parametrize("H", [classes.singletons(5, include_empty=True), classes.power_set(3),
                               classes.random(12, 7, 0.45, seed=1)], ids=lambda H: H.name)
def test_every_node_budget_of_the_search_alone_holds_the_value(no_start, H):
    truth = oracle.star_number(H.matrix)
    for b in at_every_node(star_bounds, H):
        check_sandwich(H, b, truth)


def test_ctrl_c_raises_search_interrupted_from_the_bare_number(monkeypatch):
    H = classes.random(40, 12, 0.5, seed=3)
    monkeypatch.setattr(search_module.Clock, "spend", interrupting_spend(2))
    with pytest.raises(SearchInterrupted) as info:
        star_number(H)
    assert isinstance(info.value.result, StarBounds) and info.value.result.status == "interrupted"
    monkeypatch.undo()
    check_sandwich(H, info.value.result, star_number(H))


def test_an_exhausted_budget_raises_with_the_proven_bounds():
    H = classes.random(40, 12, 0.5, seed=3)
    with pytest.raises(SearchIncomplete) as info:
        largest_star(H, max_nodes=60)
    b = info.value.result
    assert b.status == "budget" and b.lower < b.upper
    check_star(H, b.witness)


# ------------------------------------------------------------------ closed forms
@pytest.mark.parametrize("N", [2, 3, 7, 40])
def test_closed_forms_of_the_line(N):
    """Thresholds: a chain, so at most one leaf on each side of the center; intervals: the empty interval and
    the singletons; singletons: a singleton reads as empty off its point (d - 1), with the empty set d."""
    assert star_number(classes.thresholds(N)) == 2
    assert star_number(classes.intervals(N)) == N
    assert star_number(classes.singletons(N)) == N - 1
    assert star_number(classes.singletons(N, include_empty=True)) == N


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_closed_forms_of_the_cube(n):
    """The cube is a star on its n instances; parities: a star's center and leaves differ by every unit vector,
    which a linear code's projection holds only on n instances or fewer; projections: n rows, so n - 1 leaves.
    Monotone disjunctions: the disjunction of all variables, on the points of weight n/2, with the disjunction
    of the variables off a point as that point's leaf: C(n, floor(n/2)), more than n from n = 4 on (the brute force
    agrees at n = 4, where it takes seconds: run once, and below in the test)."""
    assert star_number(classes.power_set(n)) == n
    assert star_number(classes.parities(n)) == n
    assert star_number(classes.monotone_disjunctions(n)) == math.comb(n, n // 2)
    if n < 4:
        assert oracle.star_number(classes.monotone_disjunctions(n).matrix) == math.comb(n, n // 2)
    if n > 1:
        assert star_number(classes.projections(n)) == n - 1


def test_a_single_hypothesis_and_a_class_without_instances_have_star_number_zero():
    assert star_number(classes.thresholds(1)) == 1
    for M in ([[0, 1, 1]], [[1], [1]], np.zeros((3, 0), dtype=np.uint8)):
        b = star_bounds(HypothesisClass.from_matrix(M))
        assert b.exact and b.value == 0 and b.witness.instances == ()


def test_the_bounds_settle_thresholds_4095_without_a_search():
    """The columns of thresholds are a chain: twice one chain bounds the star number, and the one-inclusion
    graph has a vertex of degree 2: no center is searched."""
    b = star_bounds(classes.thresholds(4095), max_nodes=4096)
    assert b.exact and b.value == 2
    check_star(classes.thresholds(4095), b.witness)


def test_chain_cover():
    assert chain_cover([]) == 0
    assert chain_cover([0b0001, 0b0011, 0b0111, 0b1111]) == 1
    assert chain_cover([0b01, 0b10, 0b11]) == 2
    assert chain_cover([1 << k for k in range(6)], limit=3) == 4  # stops counting past the limit


# ------------------------------------------------------------------ refusals
def test_bad_input_is_refused_by_name():
    with pytest.raises(InvalidArgumentError, match="^H: expected a HypothesisClass, got list"):
        star_bounds([[0, 1]])
    three = HypothesisClass.from_matrix([[0, 2], [1, 1]], labels=3, name="three")
    with pytest.raises(NotApplicableError, match="^H: the star number needs a class of labels 0 and 1"):
        star_number(three)
    for kwargs, name in (({"max_nodes": 0}, "max_nodes"), ({"time_limit": 0}, "time_limit")):
        with pytest.raises(InvalidArgumentError, match=f"^{name}: "):
            star_bounds(classes.thresholds(3), **kwargs)


def test_a_class_too_large_for_the_memory_is_refused_before_the_search(monkeypatch):
    from mistakebound.foundations import memory
    from mistakebound.foundations.errors import InsufficientMemoryError

    H = classes.random(200, 30, 0.5, seed=0)
    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    with pytest.raises(InsufficientMemoryError, match="^H: a star search of 200 hypotheses x 30 instances"):
        star_bounds(H)


# ------------------------------------------------------------------ relations, each with its source
@settings(max_examples=200, deadline=None)
@given(class_matrices(max_rows=16, max_cols=6))
def test_the_star_number_is_at_least_the_vc_dimension(M):
    """s >= VCdim (Hanneke and Yang, "Minimax analysis of active learning", JMLR 2015): a shattered set holds a
    star around any of its patterns."""
    H = HypothesisClass.from_matrix(M)
    assert star_number(H) >= (vc_dimension(H) if H.n_instances else 0)


@settings(max_examples=200, deadline=None)
@given(class_matrices(max_rows=16, max_cols=6))
def test_the_star_number_is_at_least_the_teaching_dimension_and_the_degree(M):
    """s >= TD: a smallest teaching set T of h is a star centered on h (without any x of T, some other concept
    agrees with h on T - x, so it differs from h on T at x alone); the database states more (relationship 022:
    s equals the largest teaching dimension of a projection).  s >= the largest degree of the one-inclusion
    graph (relationships 014 and 015: s is the largest degree of a projection's graph)."""
    H = HypothesisClass.from_matrix(M)
    s = star_number(H)
    assert s >= teaching_dimension(H)
    assert s >= one_inclusion_degree(H)
