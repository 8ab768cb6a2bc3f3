"""VC dimension and shattered sets against brute force."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import brute_force_vcdim, textbook_vcdim
from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.theory import search_protocol as search_module
from mistakebound.theory.search_protocol import SearchIncomplete, SearchInterrupted
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


# ------------------------------------------------------------------ memory, time, cheap cases (issue 13)
def cube(d: int) -> np.ndarray:
    """All 2^d labelings of d instances (the full cube), one per row."""
    return ((np.arange(2**d)[:, None] >> np.arange(d)[None, :]) & 1).astype(np.uint8)


@settings(max_examples=150, deadline=None)
@given(st.one_of(class_matrices(max_rows=80, max_cols=10, min_cols=1), random_tables()), st.integers(1, 40),
       st.sampled_from([1, 4, 64]))
def test_cells_held_as_arrays_give_the_same_answers(M, budget, cell_bytes):
    """With CELL_BYTES tiny, the cells go from bitsets to cell arrays at once (or after a level or two)."""
    from mistakebound.theory import vc

    H = HypothesisClass.from_matrix(M)
    saved = vc.CELL_BYTES, vc.BLOCK_ENTRIES, vc.CUBE_BITS
    # blocks of few candidates too; the rows searched (not the cube, which tiny cells would choose)
    vc.CELL_BYTES, vc.BLOCK_ENTRIES, vc.CUBE_BITS = cell_bytes, 64, 0
    try:
        exact = vc_bounds(H)
        partial = vc_bounds(H, max_nodes=budget)
    finally:
        vc.CELL_BYTES, vc.BLOCK_ENTRIES, vc.CUBE_BITS = saved
    truth = brute_force_vcdim(M)
    assert exact.exact and exact.lower == truth and is_vc_shattered(H, exact.witness)
    assert partial.nodes == vc_bounds(H, max_nodes=budget).nodes  # the same search, whatever holds the cells
    _check_sandwich(H, partial, truth)


@pytest.mark.parametrize("d", [1, 5, 12])
def test_the_full_cube_is_shattered_at_once(d):
    M = cube(d)
    extra = np.column_stack([M, 1 - M[:, :1], M[:, :1], np.ones((2**d, 1), dtype=np.uint8)])  # no new split
    for N in (M, extra, M[::-1]):
        b = vc_bounds(HypothesisClass.from_matrix(N))
        assert b.exact and b.lower == d and b.nodes == 0 and b.witness == tuple(range(d))


def test_the_cube_of_dimension_18_is_cheap():
    import time
    import tracemalloc

    H = HypothesisClass.from_matrix(cube(18))  # 2^18 x 18: 6.8 GB and 15 s before
    tracemalloc.start()
    t = time.perf_counter()
    try:
        b = vc_bounds(H)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert b.exact and b.lower == 18
    assert peak < 200 * 2**20 and time.perf_counter() - t < 10


def test_fewer_than_2_to_the_k_distinct_rows_bound_the_search_at_once():
    M = cube(10)[: 2**9 + 7]  # 519 distinct rows: no 10 instances shattered
    b = vc_bounds(HypothesisClass.from_matrix(M), max_nodes=1)
    assert b.upper <= 9 and b.lower <= brute_force_vcdim(M) <= b.upper
    # out of time before the search began: the bound holds with nothing searched
    b = vc_bounds(HypothesisClass.from_matrix(M), time_limit=1e-9)
    assert b.status == "budget" and b.nodes == 0 and b.upper == 9 and b.lower <= brute_force_vcdim(M)


def test_the_full_cube_is_recognised_without_building_a_cell(monkeypatch):
    from mistakebound.theory import vc

    def no_cells(self, *args):
        raise AssertionError("the cube was searched")

    monkeypatch.setattr(vc._VCSearch, "_greedy", no_cells)
    monkeypatch.setattr(vc._VCSearch, "_cell_array", no_cells)
    M = cube(12)
    H = HypothesisClass.from_matrix(np.column_stack([M, M[:, :1]])[np.random.default_rng(0).permutation(2**12)])
    b = vc_bounds(H)
    assert b.exact and b.lower == 12 and is_vc_shattered(H, b.witness)


@pytest.mark.parametrize("limit", [0.3, 1.0])
def test_a_time_limit_is_honoured_on_a_large_class(limit, monkeypatch):
    from mistakebound.theory import vc

    monkeypatch.setattr(vc, "CUBE_BITS", 0)  # the rows searched (the cube settles this class in 0.1 s)
    rng = np.random.default_rng(0)
    M = cube(17)
    H = HypothesisClass.from_matrix(M[rng.random(M.shape[0]) < 0.5])  # 65,000 rows: cells as arrays
    t = time_now()
    b = vc_bounds(H, time_limit=limit)
    took = time_now() - t
    assert b.status == "budget" and took <= 2 * limit + 1, took  # machines are shared: generous slack
    assert b.lower <= b.upper <= 15 and is_vc_shattered(H, b.witness)


@pytest.mark.parametrize("limit", [1.0, 2.0])
def test_a_time_limit_is_honoured_by_the_cube_search(limit, monkeypatch):
    """random(100000, 22) takes the cube about 6 s: every projection reads the clock.  The limits leave the
    search time to reach the cube on a loaded machine (at 0.3 s, with the machine shared three ways, the budget
    ran out before it, and the test saw nothing of the cube)."""
    from mistakebound.theory import vc

    chosen = []
    original = vc._VCSearch._cube_search
    monkeypatch.setattr(vc._VCSearch, "_cube_search", lambda self, coords: chosen.append(1) or original(self, coords))
    H = classes.random(100_000, 22, 0.5, seed=0)
    t = time_now()
    b = vc_bounds(H, time_limit=limit)
    took = time_now() - t
    assert chosen and b.status == "budget" and took <= 2 * limit + 1, took
    assert b.lower <= 13 <= b.upper <= 16 and len(b.witness) == b.lower and is_vc_shattered(H, b.witness)


def time_now() -> float:
    import time

    return time.monotonic()


def test_ldim_caps_the_search_and_its_upper_bound():
    from mistakebound.theory.littlestone import LdimBounds, littlestone_bounds

    H = classes.random(3000, 30, 0.3, seed=0)
    ldim = littlestone_bounds(H)
    plain, capped = vc_bounds(H), vc_bounds(H, ldim=ldim)
    assert capped.exact and capped.lower == plain.lower and capped.nodes <= plain.nodes
    partial = vc_bounds(H, max_nodes=2, ldim=LdimBounds(lower=6, upper=8, status="budget"))
    assert partial.upper <= 8
    with pytest.raises(InvalidArgumentError, match="^ldim: expected an LdimBounds"):
        vc_bounds(H, ldim=8)


@settings(max_examples=100, deadline=None)
@given(class_matrices(max_rows=40, max_cols=8, min_cols=1), st.integers(0, 12))
def test_with_ldim_the_answer_is_the_same(M, budget):
    from mistakebound.theory.littlestone import littlestone_bounds

    H = HypothesisClass.from_matrix(M)
    b = vc_bounds(H, ldim=littlestone_bounds(H), max_nodes=budget or None)
    _check_sandwich(H, b, brute_force_vcdim(M))


@settings(max_examples=100, deadline=None)
@given(st.one_of(class_matrices(max_rows=80, max_cols=10), random_tables()), st.integers(1, 12),
       st.sampled_from([10**9, 1]))
def test_a_memory_error_in_the_search_gives_proven_bounds(M, when, cell_bytes):
    """A MemoryError at the ``when``-th node: status "memory", bounds still proven."""
    from mistakebound.theory import vc

    H = HypothesisClass.from_matrix(M)
    original = search_module.Clock.spend
    calls = [0]

    def spend(self, n=1):
        calls[0] += 1
        if calls[0] == when:
            raise MemoryError
        original(self, n)

    saved = vc.CELL_BYTES
    search_module.Clock.spend, vc.CELL_BYTES = spend, cell_bytes
    try:
        b = vc_bounds(H)
    finally:
        search_module.Clock.spend, vc.CELL_BYTES = original, saved
    assert b.status in ("exact", "memory")
    _check_sandwich(H, b, brute_force_vcdim(M))
    if not b.exact:
        with pytest.raises(SearchIncomplete, match="memory"):
            from mistakebound.theory.search_protocol import require_exact

            require_exact(b)


def test_a_memory_error_while_reading_the_class_is_refused_cleanly(monkeypatch):
    from mistakebound.foundations.errors import InsufficientMemoryError

    def no_room(self):
        raise MemoryError

    monkeypatch.setattr(HypothesisClass, "distinct_rows", no_room)
    with pytest.raises(InsufficientMemoryError, match="^H: a VC search of 40 hypotheses x 6 instances ran out of memory"):
        vc_bounds(classes.random(40, 6, 0.3, seed=0))


def test_the_memory_estimate_is_linear_in_the_table():
    from mistakebound.theory.vc import vc_memory_estimate

    small = vc_memory_estimate(HypothesisClass.from_matrix(cube(12)))
    large = vc_memory_estimate(HypothesisClass.from_matrix(cube(16)))
    assert large < 16 * 1.5 * small + 40 * 2**20
    assert vc_memory_estimate(HypothesisClass.from_matrix(cube(18))) < 200 * 2**20


# ------------------------------------------------------------------ `mistakebound ldim`: the VC part's budget
def test_ldim_gives_its_vc_search_a_default_time_limit(monkeypatch, capsys):
    from mistakebound.interfaces import cli
    from mistakebound.theory import profile, vc

    calls: list = []

    def slow_vc(H, **kwargs):  # the VC search ran out of its default limit
        calls.append(kwargs)
        return VCBounds(lower=6, upper=9, status="budget", witness=tuple(range(6)), nodes=1234,
                        seconds=kwargs["time_limit"])

    monkeypatch.setattr(vc, "vc_bounds", slow_vc)
    assert cli.main(["ldim", "random:5000,30,0.3,0"]) == 3
    out = capsys.readouterr().out
    (kwargs,) = calls
    assert kwargs["time_limit"] >= profile.VC_SECONDS == 5.0 and kwargs["ldim"].value == 9
    assert kwargs["max_nodes"] is None
    assert out.splitlines()[-4:] == [
        "Ldim = 9",
        "log2|H| = 12.29 (upper bound on Ldim)",
        "6 <= VCdim <= 9 (partial: budget; VCdim <= Ldim), after 1234 nodes",
        f"the VC dimension is partial: its search stopped at the default limit of {kwargs['time_limit']:.1f} s "
        "(the longer of 5 s and the Ldim search's time); give --time-limit for more",
    ]
    calls.clear()
    assert cli.main(["ldim", "random:5000,30,0.3,0", "--time-limit", "30", "--max-nodes", "100000"]) == 3
    (kwargs,) = calls
    assert kwargs["time_limit"] == 30 and kwargs["max_nodes"] == 100000  # a budget of its own, not what is left
    assert "raise --max-nodes / --time-limit for the exact value" in capsys.readouterr().out


def test_ldim_prints_what_it_knows_as_it_goes(monkeypatch, capsys):
    """The class's sizes before any search, Ldim before the VC search; a VC search that takes a while says so."""
    import time

    from mistakebound.interfaces import cli
    from mistakebound.theory import vc
    from mistakebound.theory.littlestone import LdimEngine

    before: list[str] = []
    original = LdimEngine.run

    def bounds(self, *args, **kwargs):  # the engine the library's door chose, as it starts
        before.append(capsys.readouterr().out)  # what the user sees while Ldim is searched
        return original(self, *args, **kwargs)

    def slow_vc(H, **kwargs):
        time.sleep(0.5)
        return VCBounds(lower=1, upper=1, status="exact", witness=(1,), nodes=1, seconds=0.5)

    monkeypatch.setattr(LdimEngine, "run", bounds)
    monkeypatch.setattr(cli.ldim, "LDIM_VC_NOTE_SECONDS", 0.05)
    assert cli.main(["ldim", "thresholds:7"]) == 0  # a quick VC search: no note
    assert before == ["class: thresholds(7)\n|H| = 8\n|X| = 7\n"]
    assert capsys.readouterr() == ("Ldim = 3\nlog2|H| = 3.00 (upper bound on Ldim)\nVCdim = 1\n", "")
    monkeypatch.setattr(vc, "vc_bounds", slow_vc)
    assert cli.main(["ldim", "thresholds:7"]) == 0
    out, err = capsys.readouterr()
    assert out == "Ldim = 3\nlog2|H| = 3.00 (upper bound on Ldim)\nVCdim = 1\n"
    assert re.fullmatch(r"mistakebound ldim: note: searching for VCdim \(<= 3\) for up to 5\.0 s "
                        r"\(--time-limit sets it\)\n", err), err
    assert cli.main(["ldim", "thresholds:7", "--time-limit", "20"]) == 0
    assert re.search(r"for up to 20\.0 s\n$", capsys.readouterr().err)  # the whole of --time-limit


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ldim_interrupted_before_the_search_began_prints_the_bounds_that_need_none(monkeypatch, capsys, workers):
    from mistakebound.theory.textbook import textbook_ldim
    from mistakebound.interfaces import cli
    from mistakebound.theory import ldim_kernel
    from mistakebound.theory.littlestone import LdimSearch

    def interrupted(self, *args, **kwargs):  # Ctrl-C (or SIGTERM) while the search is set up
        raise KeyboardInterrupt

    monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)  # the Python search, whose setup is interrupted
    monkeypatch.setattr(LdimSearch, "plan", interrupted)
    H = classes.random(12, 6, 0.4, seed=3)
    path = f"{classes.random.__name__}:12,6,0.4,3"
    assert cli.main(["ldim", path, "--workers", workers]) == 3
    lines = capsys.readouterr().out.splitlines()
    m = re.fullmatch(r"(\d+) <= Ldim <= (\d+) \(partial: interrupted\), after 0 nodes in 0\.00 s", lines[4])
    assert m, lines
    # interrupted: no further search starts, and VCdim <= Ldim is what is known of it
    assert lines[6:] == [f"1 <= VCdim <= {m.group(2)} (partial: interrupted; VCdim <= Ldim), not searched",
                         "the Littlestone dimension is partial: interrupted (Ctrl-C): the bounds above are proven",
                         "the VC dimension is partial: interrupted (Ctrl-C): the bounds above are proven"]
    assert int(m.group(1)) <= textbook_ldim(H.matrix) <= int(m.group(2)) == math.floor(math.log2(12))


def test_ldim_help_states_the_vc_default_limit_and_the_memory_budget(capsys):
    from mistakebound.interfaces import cli
    from mistakebound.theory import profile

    assert cli.main(["ldim", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Without --time-limit every search after the Ldim's (VC, RL and the others of --what) stops after the " \
           f"longer of {profile.VC_SECONDS:g} s and the time the Ldim search took" in text
    assert f"a VC search still running after {cli.ldim.LDIM_VC_NOTE_SECONDS:g} s says on stderr how long it may take" in text
    assert "Each parameter's search has a budget of its own: the whole of --max-nodes and of --time-limit" in text
    assert "MemAvailable, the cgroup limit, ulimit -v and MISTAKEBOUND_MEMORY_LIMIT, shared with --workers" in text
    assert "prints the bounds it proved on its line, the other parameters' lines still follow, and the command " \
           "exits 3" in text


def test_ldim_prints_vcdim_at_most_ldim_when_the_vc_search_cannot_fit(monkeypatch, capsys):
    from mistakebound.foundations.errors import InsufficientMemoryError
    from mistakebound.interfaces import cli
    from mistakebound.theory import vc

    def refused(H, **kwargs):
        raise InsufficientMemoryError("H: a VC search of 65 hypotheses x 64 instances needs about 9 GiB", needed=9,
                                      available=1)

    monkeypatch.setattr(vc, "vc_bounds", refused)
    assert cli.main(["ldim", "thresholds:64"]) == 3
    out = capsys.readouterr().out
    assert "Ldim = 6\nlog2|H| = 6.02 (upper bound on Ldim)\n1 <= VCdim <= 6 (partial: memory; VCdim <= Ldim), " \
           "not searched\n" in out
    assert out.endswith("the VC dimension is partial: H: a VC search of 65 hypotheses x 64 instances needs "
                        "about 9 GiB\n")


def test_ldim_out_of_memory_prints_the_proven_bounds(monkeypatch, capsys):
    from mistakebound.interfaces import cli
    from mistakebound.theory import ldim_kernel
    from mistakebound.theory.littlestone import LdimSearch

    monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)  # the Python search, which meets a MemoryError

    original = LdimSearch._at_least
    calls = [0]

    def failing(self, *args):
        calls[0] += 1
        if calls[0] == 50:
            raise MemoryError
        return original(self, *args)

    monkeypatch.setattr(LdimSearch, "_at_least", failing)
    assert cli.main(["ldim", "random:5000,30,0.3,0"]) == 3
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[:4] == ["class: random(5000,30,0.3,0)", "|H| = 5000", "distinct hypotheses = 4999", "|X| = 30"]
    assert re.fullmatch(r"(\d+) <= Ldim <= (\d+) \(partial: memory\), after \d+ nodes in [\d.]+ s", lines[4])
    lower, upper = map(int, re.findall(r"\d+", lines[4])[:2])
    assert lower <= 9 <= upper
    assert lines[6] == "VCdim = 8"  # the other parameter's line still follows, searched with its own budget
    assert lines[-1].startswith("the Littlestone dimension is partial: the search ran out of memory (") and \
        lines[-1].endswith("available now): the bounds above are proven; search a smaller class or give it more memory")


def test_the_clock_is_read_inside_every_long_count(monkeypatch):
    """Every block of a count reads the clock, so one node over many candidates cannot overrun the limit."""
    from mistakebound.theory import vc
    from mistakebound.theory.search_protocol import OutOfBudget

    class Clock:
        nodes, seconds, reads, late = 0, 0.0, 0, False

        def spend(self, n=1):
            self.nodes += n

        def check_time(self):
            self.reads += 1
            if self.late:
                raise OutOfBudget

    H = classes.random(500, 200, 0.5, seed=0)
    monkeypatch.setattr(vc, "BLOCK_ENTRIES", 1)  # one candidate a block
    clock = Clock()
    search = vc._VCSearch(H, clock)
    cells = search._cell_array([0, 1])
    mins = search._min_counts(cells, 4, list(range(2, 150)))
    assert clock.reads == 148 and len(mins) == 148
    clock.late = True  # the time is up: the first block stops the count
    with pytest.raises(OutOfBudget):
        search._min_counts(cells, 4, list(range(2, 150)))
    assert clock.reads == 149


# ------------------------------------------------------------------ the cube search
def _forced_cube(monkeypatch, on: bool = True):
    """Make every search go through the cube (or never), whatever it would choose; return the calls made."""
    from mistakebound.theory import vc

    calls = []
    original = vc._VCSearch._cube_search

    def cube_search(self, coords):
        calls.append(len(coords))
        return original(self, coords)

    monkeypatch.setattr(vc._VCSearch, "_use_cube", lambda self, order: on)
    monkeypatch.setattr(vc._VCSearch, "_cube_search", cube_search)
    return calls


@settings(max_examples=200, deadline=None)
@given(st.one_of(class_matrices(max_rows=40, max_cols=8), random_tables()))
def test_the_cube_search_equals_the_textbook_search(M):
    with pytest.MonkeyPatch.context() as monkeypatch:
        _forced_cube(monkeypatch)
        H = HypothesisClass.from_matrix(M)
        b = vc_bounds(H)
    assert b.exact and b.lower == (textbook_vcdim(M) if M.shape[1] else 0)
    assert len(b.witness) == b.lower and is_vc_shattered(H, b.witness)


@settings(max_examples=150, deadline=None)
@given(random_tables(), st.integers(1, 60), st.sampled_from(["budget", "interrupted", "memory"]))
def test_the_cube_search_stopped_early_gives_proven_bounds(M, when, how):
    """A node budget, Ctrl-C or a MemoryError at the ``when``-th projection: the bounds still hold."""
    H = HypothesisClass.from_matrix(M)
    original = search_module.Clock.spend
    calls = [0]

    def spend(self, n=1):
        calls[0] += 1
        if calls[0] == when and how != "budget":
            raise KeyboardInterrupt if how == "interrupted" else MemoryError
        original(self, n)

    with pytest.MonkeyPatch.context() as monkeypatch:
        cubes = _forced_cube(monkeypatch)
        monkeypatch.setattr(search_module.Clock, "spend", spend)
        b = vc_bounds(H, max_nodes=when if how == "budget" else None)
    assert b.status in ("exact", how)
    _check_sandwich(H, b, brute_force_vcdim(M))
    if how == "budget":
        assert b.nodes <= when


def test_the_cube_settles_a_large_random_class():
    """100,000 rows x 20 (VCdim 13): the rows search proved 13 <= VCdim <= 16 in 150 s."""
    H = classes.random(100_000, 20, 0.5, seed=0)
    b = vc_bounds(H)
    assert b.exact and b.lower == 13 and is_vc_shattered(H, b.witness)
    assert b.nodes > 1000  # the cube was searched, not a shortcut
    M = H.matrix[:, list(H.index_of(x) for x in b.witness)].astype(np.int64)
    assert np.unique(M @ (1 << np.arange(13))).size == 2**13


def test_the_cube_is_not_used_when_memory_is_short_or_a_certificate_is_kept(monkeypatch):
    from mistakebound.foundations import memory
    from mistakebound.theory import vc
    from mistakebound.theory.search_protocol import Budget

    H = HypothesisClass.from_matrix(cube(12)[np.random.default_rng(1).random(2**12) < 0.7])
    monkeypatch.setattr(vc, "CELL_BYTES", 1)  # the deepest cells would not fit as bitsets: the cube is wanted
    order = list(range(12))
    assert vc._VCSearch(H, Budget().start())._use_cube(order)
    assert not vc._VCSearch(H, Budget().start(), record=True)._use_cube(order)  # the certificate reads the rows'
    monkeypatch.setattr(memory, "available_memory", lambda: 2 * 2**12)  # the cube's arrays would not fit
    assert not vc._VCSearch(H, Budget().start())._use_cube(order)
    monkeypatch.setattr(memory, "available_memory", lambda: None)
    monkeypatch.setattr(vc, "CUBE_WORK", 2**12)  # the sweep would be too long
    assert not vc._VCSearch(H, Budget().start())._use_cube(order)
    monkeypatch.setattr(vc, "CUBE_WORK", 2**40)
    monkeypatch.setattr(vc, "CUBE_BITS", 11)  # too many dimensions
    assert not vc._VCSearch(H, Budget().start())._use_cube(order)


def test_the_cube_search_reads_the_clock_at_every_projection(monkeypatch):
    from mistakebound.theory import vc
    from mistakebound.theory.search_protocol import OutOfBudget

    class Clock:
        nodes, seconds, reads = 0, 0.0, 0

        def spend(self, n=1):
            self.nodes += n

        def check_time(self):
            self.reads += 1
            if self.reads > 5:
                raise OutOfBudget

    H = classes.random(2000, 14, 0.5, seed=0)
    search = vc._VCSearch(H, Clock())
    with pytest.raises(OutOfBudget):
        search._cube_search(list(range(len(search.cand))))
    assert search.clock.nodes == 6 and search._open_bound() <= 10  # log2(2000)


def test_the_speed_benchmark_runs_in_smoke_mode(capsys):
    from benchmarks.vc_speed import main

    assert main(["--smoke"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# ") and len(lines) == 3 + 3
    assert "VCdim = 10" in lines[3] and "VCdim = 8" in lines[4] and "partial: budget" in lines[5]
