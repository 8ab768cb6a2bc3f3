"""The threshold dimension against the brute force of ``tests/parameter_oracles.py``, its witnesses read
from the definition, closed forms of the zoo, budgets, refusals, and its relations with Ldim and VCdim."""

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
from mistakebound.theory import threshold_dimension as threshold_module
from mistakebound.theory.littlestone import littlestone_bounds, littlestone_dimension
from mistakebound.theory.search_protocol import SearchIncomplete, SearchInterrupted
from mistakebound.theory.threshold_dimension import (ThresholdBounds, ThresholdSequence, chain_bound,
                                                     threshold_bounds, threshold_dimension, threshold_sequence)
from mistakebound.theory.vc import vc_dimension
from tests import parameter_oracles as oracle
from tests.parameter_checks import at_every_node, interrupted
from tests.strategies import class_matrices
from tests.test_vc import interrupting_spend


def check_sequence(H: HypothesisClass, s: ThresholdSequence) -> None:
    """``s`` is a threshold sequence of ``H``, read from the definition: ``h_i(x_j) = 1`` exactly when ``j <= i``."""
    d = len(s.instances)
    assert len(s.hypotheses) == d + 1
    assert len(set(s.instances)) == d and all(x in H for x in s.instances)
    for i, h in enumerate(s.hypotheses):
        for j, x in enumerate(s.instances, start=1):
            assert H.label(h, x) == (1 if j <= i else 0), (i, j)


def check_sandwich(H: HypothesisClass, b: ThresholdBounds, truth: int) -> None:
    assert b.lower <= truth <= b.upper
    assert b.witness.length == b.lower
    if b.lower:
        check_sequence(H, b.witness)
    assert b.exact == (b.lower == b.upper)


@settings(max_examples=300, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6))
def test_the_search_equals_the_brute_force_and_its_sequence_is_one(M):
    H = HypothesisClass.from_matrix(M)
    b = threshold_bounds(H, max_nodes=100_000)  # far more than these classes need: a runaway search fails
    assert b.exact and b.value == oracle.threshold_dimension(M)
    check_sequence(H, b.witness)
    assert threshold_dimension(H) == b.value and threshold_sequence(H) == b.witness


@settings(max_examples=150, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6), st.integers(1, 25))
def test_a_node_budget_gives_an_interval_holding_the_value(M, nodes):
    H = HypothesisClass.from_matrix(M)
    b = threshold_bounds(H, max_nodes=nodes)
    check_sandwich(H, b, oracle.threshold_dimension(M))
    assert b.status in ("exact", "budget") and b.nodes <= nodes


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6), st.integers(1, 12))
def test_ctrl_c_gives_the_bounds_proven_so_far(M, when):
    H = HypothesisClass.from_matrix(M)
    b = interrupted(threshold_bounds, H, when)
    assert b.status in ("exact", "interrupted")
    check_sandwich(H, b, oracle.threshold_dimension(M))


@pytest.mark.parametrize("seed", range(8))
def test_every_node_budget_gives_an_interval_holding_the_value(seed):
    """Stopped at every node of a search in turn: wherever it stops, the branch in progress counts."""
    H = classes.random(16, 7, 0.45, seed=seed)
    truth = oracle.threshold_dimension(H.matrix)
    for b in at_every_node(threshold_bounds, H):
        check_sandwich(H, b, truth)


@pytest.fixture
def no_greedy(monkeypatch):
    """The depth-first search alone: the greedy descents return a single hypothesis."""
    monkeypatch.setattr(threshold_module._ThresholdSearch, "_greedy", lambda self, M: ([0], []))


@settings(max_examples=150, deadline=None)
@given(M=class_matrices(max_rows=14, max_cols=6))
def test_the_depth_first_search_alone_equals_the_brute_force(M):
    H = HypothesisClass.from_matrix(M)
    with mock.patch.object(threshold_module._ThresholdSearch, "_greedy", lambda self, M: ([0], [])):
        b = threshold_bounds(H)
    assert b.exact and b.value == oracle.threshold_dimension(M)
    check_sequence(H, b.witness)


@pytest.mark.parametrize("H", [classes.thresholds(6), classes.intervals(4), classes.random(16, 7, 0.45, seed=3)],
                         ids=lambda H: H.name)
def test_every_node_budget_of_the_search_alone_holds_the_value(no_greedy, H):
    truth = oracle.threshold_dimension(H.matrix)
    for b in at_every_node(threshold_bounds, H):
        check_sandwich(H, b, truth)


def test_ctrl_c_raises_search_interrupted_from_the_bare_number(monkeypatch):
    H = classes.random(60, 12, 0.4, seed=5)
    monkeypatch.setattr(search_module.Clock, "spend", interrupting_spend(2))
    with pytest.raises(SearchInterrupted) as info:
        threshold_dimension(H)
    assert isinstance(info.value.result, ThresholdBounds) and info.value.result.status == "interrupted"
    monkeypatch.undo()
    check_sandwich(H, info.value.result, threshold_dimension(H))


def test_an_exhausted_budget_raises_with_the_proven_bounds():
    H = classes.random(60, 30, 0.3, seed=2)
    with pytest.raises(SearchIncomplete) as info:
        threshold_sequence(H, max_nodes=50)
    b = info.value.result
    assert b.status == "budget" and b.lower < b.upper
    check_sequence(H, b.witness)


# ------------------------------------------------------------------ closed forms
@pytest.mark.parametrize("N", [1, 2, 3, 7, 40])
def test_closed_forms_of_the_line(N):
    """thresholds(N) is a full chain (N + 1 hypotheses); intervals hold the chain of initial segments."""
    assert threshold_dimension(classes.thresholds(N)) == N
    assert threshold_dimension(classes.intervals(N)) == N
    assert threshold_dimension(classes.singletons(N + 1, include_empty=True)) == 1
    assert threshold_dimension(classes.singletons(N + 1)) == 1


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_closed_forms_of_the_cube(n):
    """The cube shows every chain on its n instances; the n projections a chain of n rows; parities a chain on
    n independent instances and no longer one (a chain's segments span a space of their length)."""
    assert threshold_dimension(classes.power_set(n)) == n
    assert threshold_dimension(classes.projections(n)) == n - 1
    assert threshold_dimension(classes.parities(n)) == n
    assert threshold_dimension(classes.monotone_disjunctions(n)) == n


def test_thresholds_4095_are_settled_by_the_greedy_chain():
    """The benchmark class of issue 24: exact, in one greedy descent (a node a step), never a search."""
    b = threshold_bounds(classes.thresholds(4095), max_nodes=4096)
    assert b.exact and b.value == 4095
    assert b.witness.instances == tuple(range(1, 4096)) and b.witness.hypotheses == tuple(range(4096))


def test_a_single_hypothesis_and_a_class_without_instances_have_dimension_zero():
    for M in ([[0, 1, 1]], [[1], [1]], np.zeros((3, 0), dtype=np.uint8)):
        b = threshold_bounds(HypothesisClass.from_matrix(M))
        assert b.exact and b.value == 0 and b.witness.instances == () and len(b.witness.hypotheses) == 1


def test_duplicated_and_complemented_columns():
    """Equal columns are never both in a sequence; a complemented one may serve where the original cannot."""
    M = classes.thresholds(3).matrix
    doubled = HypothesisClass.from_matrix(np.column_stack([M, M]))
    assert threshold_dimension(doubled) == 3
    flipped = HypothesisClass.from_matrix(1 - M)
    assert threshold_dimension(flipped) == 3  # the complement of a chain is a chain read backwards
    mixed = HypothesisClass.from_matrix(np.column_stack([M[:, :1], 1 - M[:, 1:]]))
    assert threshold_dimension(mixed) == oracle.threshold_dimension(mixed.matrix)


def test_chain_bound():
    assert chain_bound([]) == 0 and chain_bound([0, 0]) == 0
    assert chain_bound([4, 3, 2, 1]) == 4 and chain_bound([4, 3, 2]) == 3 and chain_bound([1, 4, 2, 3]) == 4
    assert chain_bound([9, 1, 1]) == 2


# ------------------------------------------------------------------ the Littlestone dimension as a bound
@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=14, max_cols=6))
def test_the_ldim_bound_is_honoured(M):
    H = HypothesisClass.from_matrix(M)
    ldim = littlestone_bounds(H)
    b = threshold_bounds(H, ldim=ldim, max_nodes=1)
    assert b.upper <= 2 ** (ldim.value + 1) - 2 or b.upper == 0
    check_sandwich(H, b, oracle.threshold_dimension(M))


# ------------------------------------------------------------------ refusals
def test_bad_input_is_refused_by_name():
    with pytest.raises(InvalidArgumentError, match="^H: expected a HypothesisClass, got list"):
        threshold_bounds([[0, 1]])
    three = HypothesisClass.from_matrix([[0, 2], [1, 1]], labels=3, name="three")
    with pytest.raises(NotApplicableError, match="^H: the threshold dimension needs a class of labels 0 and 1"):
        threshold_dimension(three)
    for kwargs, name in (({"max_nodes": 0}, "max_nodes"), ({"time_limit": -1}, "time_limit"),
                         ({"max_nodes": True}, "max_nodes")):
        with pytest.raises(InvalidArgumentError, match=f"^{name}: "):
            threshold_bounds(classes.thresholds(3), **kwargs)
    with pytest.raises(InvalidArgumentError, match="^ldim: expected an LdimBounds"):
        threshold_bounds(classes.thresholds(3), ldim=3)


def test_a_class_too_large_for_the_memory_is_refused_before_the_search(monkeypatch):
    from mistakebound.foundations import memory
    from mistakebound.foundations.errors import InsufficientMemoryError

    H = classes.random(200, 30, 0.5, seed=0)
    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    with pytest.raises(InsufficientMemoryError, match="^H: a threshold search of 200 hypotheses x 30 instances"):
        threshold_bounds(H)


# ------------------------------------------------------------------ relations, each with its source
@settings(max_examples=200, deadline=None)
@given(class_matrices(max_rows=16, max_cols=6))
def test_ldim_is_at_least_log_of_the_threshold_dimension(M):
    """Ldim >= floor(log2(T + 1)), hence Ldim >= floor(log2 T) (Shelah 1978; Alon, Livni, Malliaris and Moran,
    "Private PAC learning implies finite Littlestone dimension", STOC 2019, Theorem 3, for their thresholds).

    Proof for the database's T: restricted to the T instances of a sequence, H contains the T + 1 thresholds,
    whose Littlestone dimension is floor(log2(T + 1)) (binary search, ``classes.thresholds``), and a shattered
    tree of a restriction is one of H."""
    H = HypothesisClass.from_matrix(M)
    T = threshold_dimension(H)
    assert littlestone_dimension(H) >= math.floor(math.log2(T + 1))


@settings(max_examples=200, deadline=None)
@given(class_matrices(max_rows=16, max_cols=6))
def test_the_threshold_dimension_is_at_least_log_of_ldim(M):
    """Hodges 1997 (as Alon, Livni, Malliaris and Moran 2019, Theorem 3): a class of Littlestone dimension d
    contains floor(log2 d) thresholds in their sense (k hypotheses, h_i(x_j) = 1 iff i <= j).

    That count, T_ALMM, is the database's T or one more (dropping the last instance of an ALMM sequence leaves
    all T_ALMM initial segments, the empty one included; a database sequence without its empty segment is an
    ALMM one), so what is proved for the database's T is T >= floor(log2 Ldim) - 1; both are checked here, and
    the stronger T >= floor(log2 Ldim) is not claimed."""
    H = HypothesisClass.from_matrix(M)
    T = threshold_dimension(H)
    almm = oracle.threshold_dimension_alon(M)
    assert T <= almm <= T + 1
    ldim = littlestone_dimension(H)
    if ldim:
        assert almm >= math.floor(math.log2(ldim))
        assert T >= math.floor(math.log2(ldim)) - 1


@pytest.mark.parametrize("H", [classes.parities(4), classes.power_set(5), classes.thresholds(100),
                               classes.intervals(12), classes.monotone_disjunctions(4)], ids=lambda H: H.name)
def test_the_relations_with_ldim_on_larger_classes(H):
    T, ldim = threshold_dimension(H), littlestone_dimension(H)
    assert ldim >= math.floor(math.log2(T + 1))
    assert T >= math.floor(math.log2(ldim)) - 1


@settings(max_examples=200, deadline=None)
@given(class_matrices(max_rows=16, max_cols=6))
def test_the_threshold_dimension_is_at_least_the_vc_dimension(M):
    """T >= VCdim (the database's relationship 033, "Lemma"): a shattered set shows every pattern, in particular
    every initial segment of any ordering of it."""
    H = HypothesisClass.from_matrix(M)
    assert threshold_dimension(H) >= (vc_dimension(H) if H.n_instances else 0)
