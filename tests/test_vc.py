"""VC dimension and shattered sets against brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.baseline import textbook_vcdim
from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.theory import search as search_module
from mistakebound.theory.search import SearchIncomplete, SearchInterrupted
from mistakebound.theory.vc import (
    VCBounds,
    is_vc_shattered,
    shattered_set,
    vc_bounds,
    vc_dimension,
)
from tests.strategies import class_matrices


@settings(max_examples=300, deadline=None)
@given(class_matrices(max_rows=16, max_cols=7))
def test_vc_equals_brute_force_and_the_set_is_shattered(M):
    H = HypothesisClass.from_matrix(M)
    S = shattered_set(H)
    assert len(S) == (textbook_vcdim(M) if M.shape[1] else 0)
    assert is_vc_shattered(H, S)
    assert list(S) == sorted(S, key=H.index_of)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_zoo_closed_forms(n):
    assert vc_dimension(classes.thresholds(2 * n)) == 1
    assert vc_dimension(classes.monotone_disjunctions(n)) == n
    assert vc_dimension(classes.monotone_conjunctions(n)) == n
    assert vc_dimension(classes.power_set(n)) == n
    assert vc_dimension(classes.singletons(n + 1)) == 1
    assert vc_dimension(classes.intervals(n + 1)) == 2
    assert vc_dimension(classes.projections(n + 1)) == math.floor(math.log2(n + 1))
    assert vc_dimension(classes.k_sparse(n + 2, 2)) == 2


def test_parities_do_not_explode():
    # 1024 instances, 1024 hypotheses; a level-by-level enumeration would try C(1024, 10) sets
    assert vc_dimension(classes.parities(10)) == 10


def test_is_vc_shattered_rejects_duplicates_and_strangers():
    H = classes.power_set(3)
    assert not is_vc_shattered(H, [0, 0])
    assert not is_vc_shattered(H, [0, 99])
    assert is_vc_shattered(H, [])
    assert not is_vc_shattered(classes.thresholds(4), [1, 2])


def test_single_hypothesis_has_vc_zero():
    assert shattered_set(HypothesisClass.from_matrix([[1, 0, 1]])) == ()
    assert math.isclose(vc_dimension(HypothesisClass.from_matrix([[1, 0, 1]])), 0)


def test_bad_argument():
    with pytest.raises(InvalidArgumentError, match="H:"):
        vc_dimension([[0, 1], [1, 0]])


# ------------------------------------------------------------------ larger classes, exactly
@settings(max_examples=150, deadline=None)
@given(class_matrices(max_rows=80, max_cols=10, min_cols=1))
def test_vc_equals_brute_force_on_larger_tables(M):
    """Deeper searches: the h-index pruning, the greedy start and the laminar test all act here."""
    H = HypothesisClass.from_matrix(M)
    b = vc_bounds(H)
    assert b.exact and b.lower == b.upper == textbook_vcdim(M)
    assert is_vc_shattered(H, b.witness) and len(b.witness) == b.lower


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("density", [0.2, 0.5])
def test_vc_equals_brute_force_on_random_tables(seed, density):
    H = classes.random(300, 12, density, seed=seed)
    assert vc_dimension(H) == textbook_vcdim(H.matrix)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=12), st.booleans())
def test_laminar_columns_have_vc_at_most_one(spans, complement):
    """Columns that are nested or disjoint intervals of rows (a laminar family), some
    complemented: VCdim <= 1, and one crossing pair lifts it to 2."""
    n = 32
    cols = []
    for a, b in spans:
        lo, hi = min(a, b), max(a, b) + 1
        c = np.zeros(n, dtype=np.uint8)
        c[lo:hi] = 1
        cols.append(c)
    M = np.column_stack(cols)
    laminar = all(not (x & y).any() or (x <= y).all() or (y <= x).all() for x in cols for y in cols)
    if complement:
        M[:, ::2] = 1 - M[:, ::2]
    H = HypothesisClass.from_matrix(M)
    assert vc_dimension(H) == textbook_vcdim(M)
    if laminar:
        assert vc_dimension(H) <= 1


# ------------------------------------------------------------------ budgets and partial results
def _oracle(M):
    return textbook_vcdim(M) if M.shape[1] else 0


def brute_force_vcdim(M) -> int:
    """Every subset of columns, each pattern read as an integer: a faster brute force."""
    M = np.asarray(M, dtype=np.int64)
    best = 0
    for subset in range(1, 1 << M.shape[1]):
        cols = [j for j in range(M.shape[1]) if subset >> j & 1]
        if len(cols) > best:
            codes = M[:, cols] @ (1 << np.arange(len(cols), dtype=np.int64))
            if np.unique(codes).size == 1 << len(cols):
                best = len(cols)
    return best


@st.composite
def random_tables(draw):
    """Random tables large enough that small budgets cut the search short."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_rows, n_cols = draw(st.integers(20, 300)), draw(st.integers(6, 11))
    density = draw(st.sampled_from([0.2, 0.3, 0.5, 0.7]))
    return (rng.random((n_rows, n_cols)) < density).astype(np.uint8)


@settings(max_examples=40, deadline=None)
@given(class_matrices(max_rows=40, max_cols=8))
def test_the_fast_brute_force_agrees_with_the_textbook_one(M):
    assert brute_force_vcdim(M) == _oracle(M)


def _check_sandwich(H, b, truth):
    assert isinstance(b, VCBounds)
    assert b.lower <= truth <= b.upper, (b, truth)
    assert len(b.witness) == b.lower and is_vc_shattered(H, b.witness)
    assert b.upper <= max(b.lower, math.floor(math.log2(len({tuple(r) for r in H.matrix.tolist()}))))
    if b.exact:
        assert b.lower == b.upper == truth


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=40, max_cols=9), st.integers(1, 30))
def test_a_node_budget_gives_proven_bounds(M, budget):
    H = HypothesisClass.from_matrix(M)
    b = vc_bounds(H, max_nodes=budget)
    assert b.status in ("exact", "budget")
    _check_sandwich(H, b, _oracle(M))


@settings(max_examples=150, deadline=None)
@given(random_tables(), st.integers(1, 12))
def test_a_node_budget_gives_proven_bounds_on_random_tables(M, budget):
    H = HypothesisClass.from_matrix(M)
    b = vc_bounds(H, max_nodes=budget)
    assert b.status in ("exact", "budget")
    _check_sandwich(H, b, brute_force_vcdim(M))


@pytest.mark.parametrize("seed", range(4))
def test_budgets_on_random_tables_stop_and_bound_the_truth(seed):
    H = classes.random(400, 13, 0.35, seed=seed)
    truth = textbook_vcdim(H.matrix)
    statuses = set()
    for budget in (1, 2, 3, 5, 8, 13, 40, 10_000):
        b = vc_bounds(H, max_nodes=budget)
        _check_sandwich(H, b, truth)
        assert b.nodes <= budget
        statuses.add(b.status)
        if not b.exact:
            with pytest.raises(SearchIncomplete) as info:
                vc_dimension(H, max_nodes=budget)
            assert isinstance(info.value.result, VCBounds) and info.value.result.status == "budget"
            with pytest.raises(SearchIncomplete):
                shattered_set(H, max_nodes=budget)
    assert statuses == {"budget", "exact"}  # the budgets did cut some searches short


def test_a_small_budget_does_stop_a_large_search():
    H = classes.random(3000, 30, 0.3, seed=0)
    b = vc_bounds(H, max_nodes=3)
    assert b.status == "budget" and b.nodes == 3 and b.lower < b.upper
    assert is_vc_shattered(H, b.witness)
    assert b.upper <= math.floor(math.log2(3000))
    with pytest.raises(SearchIncomplete, match="budget"):
        vc_dimension(H, max_nodes=3)


def test_a_time_limit_stops_the_search():
    H = classes.random(3000, 30, 0.3, seed=0)  # about a second and 35,000 nodes to finish
    b = vc_bounds(H, time_limit=0.05)
    assert b.status == "budget" and b.lower < b.upper and b.seconds < 0.5
    assert is_vc_shattered(H, b.witness) and len(b.witness) == b.lower <= 7 <= b.upper  # VCdim(H) = 7
    with pytest.raises(SearchIncomplete):
        vc_dimension(H, time_limit=0.05)


def interrupting_spend(when: int):
    """A ``Clock.spend`` that raises KeyboardInterrupt (Ctrl-C) at its ``when``-th call."""
    original = search_module.Clock.spend
    calls = [0]

    def spend(self, n=1):
        calls[0] += 1
        if calls[0] == when:
            raise KeyboardInterrupt
        original(self, n)

    return spend


@settings(max_examples=150, deadline=None)
@given(st.one_of(class_matrices(max_rows=80, max_cols=10), random_tables()), st.integers(1, 12))
def test_ctrl_c_gives_the_bounds_proven_so_far(M, when):
    """A KeyboardInterrupt raised at the ``when``-th node."""
    H = HypothesisClass.from_matrix(M)
    original = search_module.Clock.spend
    search_module.Clock.spend = interrupting_spend(when)
    try:
        b = vc_bounds(H)
    finally:
        search_module.Clock.spend = original
    assert b.status in ("exact", "interrupted")
    _check_sandwich(H, b, brute_force_vcdim(M))


def test_ctrl_c_raises_search_interrupted_from_vc_dimension(monkeypatch):
    monkeypatch.setattr(search_module.Clock, "spend", interrupting_spend(3))
    H = classes.random(400, 13, 0.35, seed=2)
    with pytest.raises(SearchInterrupted) as info:
        vc_dimension(H)
    assert isinstance(info.value, KeyboardInterrupt)
    b = info.value.result
    assert b.status == "interrupted" and not b.exact
    monkeypatch.undo()
    _check_sandwich(H, b, vc_dimension(H))


def test_a_class_too_large_for_the_memory_is_refused_before_the_search(monkeypatch):
    from mistakebound.foundations import memory
    from mistakebound.foundations.errors import InsufficientMemoryError

    H = classes.random(2000, 40, 0.5, seed=0)
    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    for f in (vc_bounds, vc_dimension, shattered_set):
        with pytest.raises(InsufficientMemoryError, match="^H: a VC search of 2000 hypotheses x 40 instances"):
            f(H)


@pytest.mark.parametrize("kwargs", [
    {"max_nodes": 0}, {"max_nodes": -3}, {"max_nodes": 1.5}, {"max_nodes": True}, {"max_nodes": "10"},
    {"time_limit": 0}, {"time_limit": -1.0}, {"time_limit": float("nan")}, {"time_limit": True},
    {"time_limit": "1"},
])
def test_bad_budgets_are_refused(kwargs):
    (name,) = kwargs
    H = classes.thresholds(4)
    for f in (vc_bounds, vc_dimension, shattered_set):
        with pytest.raises(InvalidArgumentError, match=name):
            f(H, **kwargs)


def test_bounds_describe_themselves():
    assert vc_bounds(classes.power_set(3)).describe() == f"VCdim = {textbook_vcdim(classes.power_set(3).matrix)}"
    b = VCBounds(lower=2, upper=5, status="budget")
    assert b.describe() == "2 <= VCdim <= 5 (partial: budget)" and not b.exact
