"""The Littlestone-dimension engine against the textbook recursion, and its certificates."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import textbook_ldim
from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.theory import ldim_kernel
from mistakebound.theory.littlestone import LdimSearch, is_shattered, littlestone_dimension, shattered_tree
from mistakebound.theory.vc import vc_dimension
from tests.strategies import class_matrices, hypothesis_classes

SETTINGS = settings(max_examples=300, deadline=None)


def oracle(M: np.ndarray) -> int:
    return textbook_ldim(M) if M.shape[1] else 0


@SETTINGS
@given(class_matrices(max_rows=14, max_cols=7))
def test_fast_search_equals_textbook_recursion(M):
    assert littlestone_dimension(HypothesisClass.from_matrix(M)) == oracle(M)


@SETTINGS
@given(class_matrices(max_rows=12, max_cols=6), st.data())
def test_capped_queries_on_sub_classes(M, data):
    """``ldim(V, cap) == min(Ldim(V), cap)`` for arbitrary sub-classes, memo shared across queries."""
    H = HypothesisClass.from_matrix(M)
    search = LdimSearch(H)
    for _ in range(4):
        rows = data.draw(st.sets(st.integers(0, H.n_hypotheses - 1), min_size=1))
        cap = data.draw(st.integers(0, 5))
        V = search.mask_of_rows(rows)
        expected = oracle(M[sorted(rows)])
        assert search.ldim(V, cap) == min(expected, cap)
        assert search.ldim(V) == expected


@SETTINGS
@given(class_matrices(max_rows=12, max_cols=6), st.data())
def test_one_memo_answers_any_sequence_of_queries(M, data):
    """Decision and exact queries in any order on one search object agree with the oracle."""
    H = HypothesisClass.from_matrix(M)
    search = LdimSearch(H)
    for _ in range(12):
        rows = sorted(data.draw(st.sets(st.integers(0, H.n_hypotheses - 1), min_size=1)))
        V = search.mask_of_rows(rows)
        truth = oracle(M[rows])
        if data.draw(st.booleans()):
            k = data.draw(st.integers(-1, 5))
            assert search.at_least(V, k) == (truth >= k)
        else:
            assert search.ldim(V) == truth
    assert search.at_least(0, 0) is False and search.ldim(0) == -1


@SETTINGS
@given(hypothesis_classes(max_rows=12, max_cols=6))
def test_tree_is_complete_shattered_and_of_depth_ldim(H):
    d = littlestone_dimension(H)
    T = shattered_tree(H)
    assert T.graph["depth"] == d
    assert T.number_of_nodes() == 2 ** (d + 1) - 1
    assert set(T.nodes) == set(range(1, 2 ** (d + 1)))  # textbook numbering
    for node in T:
        if T.out_degree(node):
            assert T.edges[node, 2 * node]["label"] == 0
            assert T.edges[node, 2 * node + 1]["label"] == 1
            assert T.nodes[node]["instance"] in H
    assert is_shattered(H, T)
    # check every witness independently of is_shattered
    for leaf in (n for n in T if T.out_degree(n) == 0):
        w = T.nodes[leaf]["witness"]
        path = nx.shortest_path(T, 1, leaf)
        for parent, child in zip(path, path[1:]):
            assert H.label(w, T.nodes[parent]["instance"]) == T.edges[parent, child]["label"]


@SETTINGS
@given(hypothesis_classes(max_rows=12, max_cols=6))
def test_dimension_inequalities(H):
    d = littlestone_dimension(H)
    assert vc_dimension(H) <= d <= math.floor(math.log2(H.n_hypotheses))


@settings(max_examples=150, deadline=None)
@given(hypothesis_classes(max_rows=10, max_cols=5), st.data())
def test_no_tree_deeper_than_ldim_is_shattered(H, data):
    """Random complete trees of depth Ldim + 1 are never shattered."""
    d = littlestone_dimension(H) + 1
    if H.n_instances == 0:
        return
    T = nx.DiGraph()
    for node in range(1, 2**d):
        T.add_node(node, instance=data.draw(st.sampled_from(H.domain)))
        T.add_edge(node, 2 * node, label=0)
        T.add_edge(node, 2 * node + 1, label=1)
    assert not is_shattered(H, T)


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=10, max_cols=5), st.data())
def test_ldim_invariant_under_relabelling(M, data):
    """Permuting rows or columns, complementing a column, duplicating a row: same Ldim."""
    base = littlestone_dimension(HypothesisClass.from_matrix(M))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    N = M[rng.permutation(M.shape[0])][:, rng.permutation(M.shape[1])]
    if N.shape[1]:
        j = int(rng.integers(N.shape[1]))
        N = N.copy()
        N[:, j] = 1 - N[:, j]
    N = np.vstack([N, N[:1]])
    assert littlestone_dimension(HypothesisClass.from_matrix(N)) == base


def test_wrong_certificates_are_rejected():
    H = classes.thresholds(7)
    T = shattered_tree(H)
    bad_witness = T.copy()
    leaf = next(n for n in T if T.out_degree(n) == 0)
    w = T.nodes[leaf]["witness"]
    other = next(i for i in range(H.n_hypotheses) if i != w)
    bad_witness.nodes[leaf]["witness"] = other
    assert not is_shattered(H, bad_witness)
    incomplete = T.copy()
    incomplete.remove_node(max(T))
    assert not is_shattered(H, incomplete)
    outside = T.copy()
    outside.nodes[1]["instance"] = "not in the domain"
    assert not is_shattered(H, outside)
    assert not is_shattered(H, nx.DiGraph())
    assert not is_shattered(H, "a tree")


def test_one_hypothesis_has_ldim_zero_and_a_one_node_tree():
    H = HypothesisClass.from_matrix([[0, 1, 1]])
    assert littlestone_dimension(H) == 0
    T = shattered_tree(H)
    assert list(T.nodes) == [1] and T.nodes[1]["witness"] == 0
    assert is_shattered(H, T)


@pytest.mark.parametrize("N", [1, 2, 3, 7, 8, 15, 16, 100, 1023, 4095])
def test_thresholds_closed_form(N):
    assert littlestone_dimension(classes.thresholds(N)) == math.floor(math.log2(N + 1))


@pytest.mark.parametrize("d", [2, 3, 10, 500])
def test_singletons_closed_form(d):
    assert littlestone_dimension(classes.singletons(d)) == 1
    assert littlestone_dimension(classes.singletons(d, include_empty=True)) == 1


def test_singletons_edge_cases():
    assert littlestone_dimension(classes.singletons(1)) == 0
    assert littlestone_dimension(classes.singletons(1, include_empty=True)) == 1


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6])
def test_boolean_families_have_ldim_n(n):
    for family in (classes.monotone_disjunctions, classes.monotone_conjunctions, classes.parities):
        assert littlestone_dimension(family(n)) == n
    assert littlestone_dimension(classes.power_set(n)) == n


@pytest.mark.parametrize(("d", "k"), [(4, 0), (4, 1), (6, 2), (7, 3), (8, 8)])
def test_k_sparse_closed_form(d, k):
    assert littlestone_dimension(classes.k_sparse(d, k)) == k


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8, 9, 16])
def test_projections_closed_form(n):
    assert littlestone_dimension(classes.projections(n)) == math.floor(math.log2(n))


@pytest.mark.parametrize("N", range(1, 11))
def test_intervals_match_the_oracle(N):
    H = classes.intervals(N)
    assert littlestone_dimension(H) == oracle(H.matrix)


def test_disjunctions_match_the_oracle():
    for n in (1, 2, 3):
        H = classes.disjunctions(n)
        assert littlestone_dimension(H) == oracle(H.matrix)


def test_bad_argument_is_refused_with_the_parameter_named():
    with pytest.raises(InvalidArgumentError, match="H: expected a HypothesisClass"):
        littlestone_dimension(np.eye(3))
    with pytest.raises(InvalidArgumentError, match="H:"):
        shattered_tree([[0, 1]])


# ------------------------------------------------------------------ budgets and partial results
from mistakebound.theory.littlestone import littlestone_bounds  # noqa: E402
from mistakebound.theory.search_protocol import SearchIncomplete, SearchInterrupted  # noqa: E402


@SETTINGS
@given(class_matrices(max_rows=14, max_cols=7), st.integers(1, 40))
def test_a_budget_gives_proven_bounds_and_a_second_call_resumes(M, budget):
    H = HypothesisClass.from_matrix(M)
    truth = oracle(M)
    search = LdimSearch(H)
    b = search.bounds(max_nodes=budget)
    assert b.lower <= truth <= b.upper
    if b.exact:
        assert b.lower == truth
    assert search.bounds().lower == truth  # the memo keeps what was proven; the rest is finished


def test_partial_results_are_never_returned_as_numbers():
    H = classes.random(3000, 30, 0.3, seed=0)
    with pytest.raises(SearchIncomplete) as info:
        littlestone_dimension(H, max_nodes=3)
    b = info.value.result
    assert not b.exact and b.status == "budget" and b.lower <= b.upper
    assert "partial" in b.describe() and "Ldim" in str(info.value)
    t = littlestone_bounds(H, time_limit=1e-4)
    assert t.lower <= t.upper


def test_ctrl_c_returns_the_bounds_proven_so_far(monkeypatch):
    H = classes.random(2000, 24, 0.3, seed=1)
    truth = littlestone_dimension(H)
    monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)  # the Python search (the compiled one: test_ldim_kernel)
    calls = {"n": 0}
    original = LdimSearch._distinct_splits

    def interrupting(self, V, cand):
        calls["n"] += 1
        if calls["n"] == 40:
            raise KeyboardInterrupt
        return original(self, V, cand)

    monkeypatch.setattr(LdimSearch, "_distinct_splits", interrupting)
    b = littlestone_bounds(H)
    assert b.status == "interrupted" and b.lower <= truth <= b.upper
    calls["n"] = 0
    with pytest.raises(SearchInterrupted) as info:
        littlestone_dimension(H)
    assert isinstance(info.value, KeyboardInterrupt) and info.value.result.lower <= truth


@pytest.mark.parametrize("kwargs", [dict(max_nodes=0), dict(max_nodes=2.5), dict(max_nodes=True),
                                    dict(time_limit=0), dict(time_limit=-1.0), dict(time_limit=float("nan"))])
def test_bad_budgets_are_refused(kwargs):
    name = next(iter(kwargs))
    with pytest.raises(InvalidArgumentError, match=name):
        littlestone_bounds(classes.thresholds(3), **kwargs)


# ------------------------------------------------------------------ the door's path for small classes
def test_a_small_class_at_the_door_keeps_its_budget_its_workers_and_signals():
    """A small class without a budget goes straight to the compiled search; with one, it is still bound."""
    from mistakebound.theory.search_protocol import resume_searches, stop_searches

    H = classes.random(60, 10, 0.5, seed=3)
    truth = oracle(H.matrix)
    assert littlestone_dimension(H) == truth and littlestone_bounds(H).describe() == f"Ldim = {truth}"
    assert littlestone_dimension(H, workers=2) == truth
    with pytest.raises(SearchIncomplete) as info:
        littlestone_dimension(H, max_nodes=1)
    assert info.value.result.lower <= truth <= info.value.result.upper
    stop_searches()  # a signal: no node is searched; what is proven before any is not the value here
    try:
        with pytest.raises(SearchInterrupted) as stopped:
            littlestone_dimension(H)
        assert littlestone_bounds(H).status == "interrupted"
    finally:
        resume_searches()
    assert stopped.value.result.lower <= truth <= stopped.value.result.upper


@pytest.mark.parametrize("workers", [0, -1, 2.5, "x"])
def test_the_small_class_path_refuses_bad_workers(workers):
    with pytest.raises(InvalidArgumentError, match="^workers: expected None or an integer >= 1"):
        littlestone_dimension(classes.thresholds(3), workers=workers)


@pytest.mark.parametrize("bad", [np.eye(3), None, "thresholds(3)"])
def test_the_small_class_path_refuses_what_the_door_refuses(bad):
    with pytest.raises(InvalidArgumentError, match="^H: expected a HypothesisClass"):
        littlestone_dimension(bad)
    with pytest.raises(InvalidArgumentError, match="^H: expected a HypothesisClass"):
        littlestone_bounds(bad)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 4).flatmap(lambda k: st.tuples(st.just(k), st.lists(
    st.tuples(*[st.integers(0, k - 1)] * 3), min_size=1, max_size=6, unique=True))))
def test_a_small_class_of_more_labels_at_the_door_is_the_multiclass_ldim(case):
    """The multiclass Littlestone dimension (the full-information game on k labels), by the brute force."""
    from tests.game_oracle import oracle as game_oracle

    k, rows = case
    H = HypothesisClass.from_matrix(rows, labels=k)
    truth = game_oracle(rows, k, "full", 0)
    assert littlestone_dimension(H) == truth == littlestone_bounds(H).lower
