"""The compiled Littlestone search (mistakebound.theory.ldim_kernel): exact against the
textbook recursion, its budget, Ctrl-C, memory, and the Python search it stands in for."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import textbook_ldim
from mistakebound import HypothesisClass
from mistakebound.foundations import memory
from mistakebound.foundations.errors import InsufficientMemoryError
from mistakebound.game import classes
from mistakebound.theory import ldim_kernel
from mistakebound.theory.littlestone import LdimSearch, littlestone_bounds, littlestone_dimension
from mistakebound.theory.search_protocol import Budget, SearchInterrupted
from tests.strategies import class_matrices
from tests.signals import raised_after

kernel = ldim_kernel._kernel


def truth(matrix: np.ndarray) -> int:
    return textbook_ldim(matrix) if matrix.shape[1] else 0


def run(matrix: np.ndarray, max_nodes: int = -1, memo: int = 1 << 24, ratio: int | None = None) -> tuple:
    # (lower, upper, status, nodes, distinct rows, exception); the memo's peak bytes dropped
    m = np.ascontiguousarray(matrix, dtype=np.uint8)
    extra = () if ratio is None else (ratio,)
    return kernel.ldim_bounds(m, m.shape[0], m.shape[1], max_nodes, -1.0, memo, *extra)[:6]


def test_the_extension_is_built():
    # the README's install compiles it (the machines we support have a C compiler); without
    # it every number is still right but the benchmarks' speed is the Python search's
    assert ldim_kernel.AVAILABLE and kernel is not None


@settings(max_examples=300, deadline=None)
@given(class_matrices(max_rows=24, max_cols=7), st.sampled_from([0, 300, 4000, 1 << 24]))
@example(np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.uint8), 0)
def test_exact_against_the_textbook_recursion(matrix, memo):
    # memo 0: no memo at all; 300 and 4000 bytes: a memo emptied again and again
    lower, upper, status, nodes, distinct, exc = run(matrix, memo=memo)
    assert (lower, upper, status, exc) == (truth(matrix), truth(matrix), 0, None)
    assert distinct == len({tuple(r) for r in matrix.tolist()})


@settings(max_examples=150, deadline=None)
@given(class_matrices(max_rows=40, max_cols=8), st.integers(1, 30))
def test_a_budget_leaves_proven_bounds(matrix, max_nodes):
    lower, upper, status, nodes, _, _ = run(matrix, max_nodes=max_nodes)
    t = truth(matrix)
    assert lower <= t <= upper and nodes <= max_nodes and status in (0, 1)
    if status == 0:
        assert lower == upper == t


@settings(max_examples=60, deadline=None)
@given(class_matrices(max_rows=30, max_cols=8))
def test_littlestone_bounds_agrees_with_the_python_search(matrix):
    H = HypothesisClass.from_matrix(matrix)
    search = LdimSearch(H)
    assert littlestone_dimension(H) == search.ldim(search.full) == truth(matrix)


@pytest.mark.parametrize("H, value", [
    (classes.thresholds(255), 8), (classes.intervals(32), 8), (classes.singletons(300), 1),
    (classes.parities(6), 6), (classes.k_sparse(12, 3), 3), (classes.monotone_disjunctions(7), 7),
    (classes.power_set(9), 9),
])
def test_zoo_values_the_theory_gives(H, value):
    # the values the textbook's examples give (log2 for thresholds, parities, disjunctions,
    # power sets; 1 for singletons; k for k-sparse; floor(log2(N+1)) for intervals on N)
    b = littlestone_bounds(H)
    assert (b.lower, b.upper, b.status) == (value, value, "exact") and b.describe() == f"Ldim = {value}"


def _slow_class() -> HypothesisClass:
    return classes.random(8000, 60, 0.2, seed=3)  # about 20,000 nodes, half a second


def test_ctrl_c_stops_the_compiled_search_with_proven_bounds():
    H = _slow_class()
    value = littlestone_dimension(H)

    with raised_after(KeyboardInterrupt, 0.03):
        b = littlestone_bounds(H)
    assert b.status == "interrupted" and b.lower <= value <= b.upper and b.nodes > 0
    with raised_after(KeyboardInterrupt, 0.03), pytest.raises(SearchInterrupted) as info:
        littlestone_dimension(H)
    assert info.value.result.lower <= value <= info.value.result.upper


def test_another_exception_from_a_signal_handler_is_raised():
    H = _slow_class()

    class Stop(Exception):
        pass

    with raised_after(Stop, 0.03), pytest.raises(Stop):
        littlestone_bounds(H)


def test_a_time_limit_stops_the_search():
    H = _slow_class()
    full = littlestone_bounds(H)
    b = littlestone_bounds(H, time_limit=0.02)
    assert b.status == "budget" and b.lower <= full.value <= b.upper and b.nodes < full.nodes
    assert b.seconds < 0.5  # the whole search takes about 0.5 s alone; checked every 16 nodes


def test_a_small_class_does_not_read_the_memory_budget(monkeypatch):
    H = classes.thresholds(63)  # building a zoo class checks its size against the budget

    def unread():
        raise AssertionError("read the memory budget")

    monkeypatch.setattr(memory, "available_memory", unread)
    assert littlestone_dimension(H) == 6


def test_a_large_class_must_fit_the_memory_budget(monkeypatch):
    H = classes.random(1100, 4000, 0.5, seed=0)  # 4.4 MB of matrix: past SMALL_MATRIX_BYTES
    assert H.n_hypotheses * H.n_instances > ldim_kernel.SMALL_MATRIX_BYTES
    monkeypatch.setattr(memory, "available_memory", lambda: 1 << 20)
    with pytest.raises(InsufficientMemoryError) as info:
        littlestone_dimension(H)
    assert "1100 hypotheses x 4000 instances" in str(info.value)


def test_without_the_extension_the_python_search_answers(monkeypatch):
    monkeypatch.setattr(ldim_kernel, "AVAILABLE", False)
    assert ldim_kernel.kernel_bounds(classes.thresholds(7), Budget(), 1 << 20) is None
    b = littlestone_bounds(classes.thresholds(63), max_nodes=10_000)
    assert b.value == 6


def test_bad_matrices_are_refused_by_the_extension():
    with pytest.raises(ValueError, match="n \\* m bytes"):
        kernel.ldim_bounds(b"\x00\x01\x01", 2, 2, -1, -1.0, 0)


@settings(max_examples=150, deadline=None)
@given(st.integers(8, 300), st.integers(4, 14), st.floats(0.05, 0.6), st.integers(0, 2**32 - 1))
def test_larger_random_classes_against_the_python_search(n, m, density, seed):
    # larger than the textbook recursion can take: the Python search (itself tested
    # against the recursion) is the oracle; sub-classes met at several depths of one
    # search exercise the memo's lower bounds
    H = classes.random(n, m, density, seed=seed)
    search = LdimSearch(H)
    assert run(H.matrix)[:3] == (search.ldim(search.full), search.ldim(search.full), 0)


@pytest.mark.parametrize("max_nodes", [2**63, 10**30])
def test_a_budget_past_what_c_counts_is_no_budget(max_nodes):
    # found by test_fuzz_api: 2^63 does not fit a C long long
    b = littlestone_bounds(classes.thresholds(63), max_nodes=max_nodes)
    assert (b.lower, b.upper, b.status) == (6, 6, "exact")


# ------------------------------------------------------------ compact copies (issue 26)
@st.composite
def reordered_matrices(draw, max_rows: int = 24, max_cols: int = 7) -> np.ndarray:
    """class_matrices with their rows and columns permuted (the order must change nothing)."""
    M = draw(class_matrices(max_rows=max_rows, max_cols=max_cols))
    rows = draw(st.permutations(range(M.shape[0])))
    cols = draw(st.permutations(range(M.shape[1])))
    return M[np.asarray(rows, dtype=np.int64)][:, np.asarray(cols, dtype=np.int64)]


@settings(max_examples=300, deadline=None)
@given(reordered_matrices(), st.sampled_from([-1, 1, 2, 4]), st.sampled_from([0, 4000, 1 << 24]))
def test_compact_copies_are_exact(matrix, ratio, memo):
    # ratio -1: every version space smaller than its context's goes on in a compact copy,
    # so that classes small enough for the textbook recursion take that path at every depth
    lower, upper, status, _, _, exc = run(matrix, memo=memo, ratio=ratio)
    assert (lower, upper, status, exc) == (truth(matrix), truth(matrix), 0, None)


@settings(max_examples=60, deadline=None)
@given(st.integers(70, 400), st.integers(5, 12), st.floats(0.1, 0.6), st.integers(0, 2**32 - 1),
       st.sampled_from([-1, 2, 4]))
def test_compact_copies_of_wide_classes_against_the_python_search(n, m, density, seed, ratio):
    # more than 64 distinct rows: the copies are made from several words, shuffled or not
    H = classes.random(n, m, density, seed=seed)
    M = H.matrix[np.random.default_rng(seed).permutation(n)]
    search = LdimSearch(H)
    value = search.ldim(search.full)
    assert run(M, ratio=ratio)[:3] == (value, value, 0)
    assert run(M[:, ::-1], ratio=ratio)[:3] == (value, value, 0)


@settings(max_examples=100, deadline=None)
@given(reordered_matrices(max_rows=30, max_cols=8), st.integers(1, 40), st.sampled_from([-1, 4]))
def test_a_budget_leaves_proven_bounds_in_compact_copies(matrix, max_nodes, ratio):
    lower, upper, status, nodes, _, _ = run(matrix, max_nodes=max_nodes, ratio=ratio)
    t = truth(matrix)
    assert lower <= t <= upper and nodes <= max_nodes and status in (0, 1)


# ------------------------------------------------------------ bounds before any search
@settings(max_examples=300, deadline=None)
@given(reordered_matrices(max_rows=24, max_cols=7))
def test_the_bounds_before_any_search_are_proven(matrix):
    # max_nodes=0: the search stops at its first node, so the bounds are those of the set-up
    # (floor(log2 |distinct rows|), the most balanced split, the number of distinct splits,
    # and that number exactly when the rows are the full cube on one column per split)
    lower, upper, status, nodes, _, _ = run(matrix, max_nodes=0)
    t = truth(matrix)
    assert lower <= t <= upper and nodes == 0
    assert status == (0 if lower == upper else 1)


@st.composite
def cubes(draw) -> np.ndarray:
    """Every labelling of d columns, rows shuffled and repeated, columns duplicated,
    complemented and padded with constants: Ldim d, known before any search."""
    d = draw(st.integers(1, 5))
    M = np.array([[(r >> j) & 1 for j in range(d)] for r in range(2**d)], dtype=np.uint8)
    M = np.vstack([M, M[draw(st.lists(st.integers(0, 2**d - 1), max_size=3))]])
    extra = draw(st.lists(st.tuples(st.integers(0, d - 1), st.sampled_from(["dup", "neg", "0", "1"])), max_size=4))
    for j, kind in extra:
        c = {"dup": M[:, j], "neg": 1 - M[:, j], "0": 0 * M[:, j], "1": 0 * M[:, j] + 1}[kind]
        M = np.column_stack([M, c])
    rows = np.asarray(draw(st.permutations(range(M.shape[0]))), dtype=np.int64)
    cols = np.asarray(draw(st.permutations(range(M.shape[1]))), dtype=np.int64)
    return M[rows][:, cols].astype(np.uint8)


@settings(max_examples=100, deadline=None)
@given(cubes())
def test_a_full_cube_is_answered_without_a_search(matrix):
    lower, upper, status, nodes, _, _ = run(matrix, max_nodes=0)
    assert lower == upper == truth(matrix) and (status, nodes) == (0, 0)


def test_the_full_cube_2_18_in_any_column_order_needs_no_search():
    M = classes.power_set(18).matrix
    for matrix in (M, M[:, ::-1]):
        assert run(np.ascontiguousarray(matrix))[:4] == (18, 18, 0, 0)


# ------------------------------------------------------------ threads (the GIL is released)
def _tick_while(search) -> tuple[int, object]:
    """How many times a thread sleeping 5 ms at a time woke up while ``search()`` ran in this one."""
    ticks, done = [0], threading.Event()

    def tick():
        while not done.is_set():
            time.sleep(0.005)
            ticks[0] += 1

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.02)
    try:
        before = ticks[0]
        found = search()
        return ticks[0] - before, found
    finally:
        done.set()
        ticker.join()


def test_another_thread_runs_during_a_search():
    # the search takes about 0.2 s alone (60 periods of the ticker); holding the GIL, it let
    # the ticker wake at most once or twice.  Five is far below what a loaded machine gives.
    H = _slow_class()
    ticks, found = _tick_while(lambda: littlestone_bounds(H))
    assert found.exact and found.nodes > 10_000
    assert ticks >= 5


def test_searches_in_two_threads_at_once_are_exact():
    Hs = [_slow_class(), classes.random(3000, 40, 0.3, seed=5)]
    alone = [littlestone_bounds(H) for H in Hs]
    results = [None, None]

    def work(i):
        results[i] = littlestone_bounds(Hs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [(r.lower, r.upper, r.nodes) for r in results] == [(r.lower, r.upper, r.nodes) for r in alone]


@settings(max_examples=25, deadline=None)
@given(st.integers(70, 200), st.integers(65, 140), st.floats(0.05, 0.2), st.integers(0, 2**32 - 1),
       st.sampled_from([-1, 4]))
def test_classes_of_more_than_64_splits_against_the_python_search(n, m, density, seed, ratio):
    # the rows' labels take two words or more: the copies are cut from several 64-column
    # blocks, and the rows keep the class's order (sorting them takes labels in one word)
    H = classes.random(n, m, density, seed=seed)
    search = LdimSearch(H)
    value = search.ldim(search.full)
    assert run(H.matrix, ratio=ratio)[:3] == (value, value, 0)


@pytest.mark.parametrize("d", [8, 12])
def test_the_order_of_rows_and_columns_changes_no_memo_entry(d):
    # the rows are renumbered by their labels (columns most balanced first) before the
    # search: a power set less one row, shuffled or with its columns reversed, is searched as
    # built, node for node and memo byte for memo byte (the memo's peak is the kernel's 7th)
    M = classes.power_set(d).matrix[:-1]
    shuffled = M[np.random.default_rng(d).permutation(M.shape[0])]
    found = [kernel.ldim_bounds(np.ascontiguousarray(X), X.shape[0], d, -1, -1.0, 1 << 24)
             for X in (M, shuffled, M[:, ::-1])]
    assert {(f[0], f[3], f[6]) for f in found} == {(d - 1, found[0][3], found[0][6])}


def test_the_kernel_shapes_benchmark_runs_in_smoke_mode(capsys):
    from benchmarks import kernel_shapes

    assert kernel_shapes.main(["--smoke"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line[:32].strip() for line in lines[2:-1]] == list(kernel_shapes.SMOKE)
