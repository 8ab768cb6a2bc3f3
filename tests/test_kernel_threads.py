"""The compiled search in threads (workers=N) against the textbook recursion, its budgets, and its shared cells."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game import classes
from mistakebound.theory import kernel_threads, ldim_kernel
from mistakebound.theory.kernel_threads import threaded_bounds
from mistakebound.theory.littlestone import LdimSearch, ldim_engine, littlestone_bounds, littlestone_dimension
from mistakebound.theory.search_protocol import Budget, resume_searches, spending, stop_searches
from mistakebound.theory.textbook import textbook_ldim
from tests.strategies import class_matrices, sparse_matrices
from tests.signals import raised_after

kernel = ldim_kernel._kernel

pytestmark = pytest.mark.skipif(not kernel_threads.available(), reason="no compiled threads in this install "
                                "(test_ldim_kernel.py::test_the_extension_is_built fails then)")


def truth(matrix: np.ndarray) -> int:
    return textbook_ldim(matrix) if matrix.shape[1] else 0


def at_once(matrix: np.ndarray, threads: int, *, ratio: int | None = None, max_nodes: int = -1,
            memo: int = 1 << 24, coop: bytearray | None = None) -> tuple[int, int, list[int], list[int]]:
    """``threads`` calls of the extension on one buffer, released together by a barrier (so that they
    interleave even on small classes): the largest lower bound, the smallest upper, the statuses, the nodes."""
    M = np.ascontiguousarray(matrix, dtype=np.uint8)
    n, m = M.shape
    coop = bytearray(kernel.coop_bytes(m)) if coop is None else coop
    ratio = kernel.COMPACT_RATIO if ratio is None else ratio
    barrier, out = threading.Barrier(threads), [None] * threads

    def go(i):
        barrier.wait()
        out[i] = kernel.ldim_bounds(M, n, m, max_nodes, -1.0, memo, ratio, coop, i, threads)

    helpers = [threading.Thread(target=go, args=(i,)) for i in range(1, threads)]
    for h in helpers:
        h.start()
    go(0)
    for h in helpers:
        h.join()
    assert all(r[5] is None for r in out)
    return max(r[0] for r in out), min(r[1] for r in out), [r[2] for r in out], [r[3] for r in out]


def _slow_class() -> HypothesisClass:
    return classes.random(8000, 60, 0.2, seed=3)  # about 20,000 nodes, half a second alone


# ------------------------------------------------------------------ exact values
@settings(max_examples=200, deadline=None)
@given(st.one_of(class_matrices(max_rows=24, max_cols=7), sparse_matrices()), st.integers(1, 4),
       st.sampled_from([None, -1, 0]), st.sampled_from([0, 300, 1 << 24]))
@example(np.array([[0], [1]], dtype=np.uint8), 4, None, 1 << 24)  # one split: three threads get no share
@example(np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.uint8), 3, -1, 0)
def test_threads_equal_the_textbook_recursion(matrix, threads, ratio, memo):
    # ratio -1: compact copies wherever they can be; memo 0: none; 300 bytes: one emptied again and again
    lower, upper, codes, _ = at_once(matrix, threads, ratio=ratio, memo=memo)
    assert lower == upper == truth(matrix) and codes == [0] * threads


@settings(max_examples=60, deadline=None)
@given(st.one_of(class_matrices(max_rows=30, max_cols=8), sparse_matrices()), st.integers(1, 4))
def test_workers_use_the_threads_and_equal_the_textbook_recursion(matrix, workers):
    H = HypothesisClass.from_matrix(matrix)
    b = littlestone_bounds(H, workers=workers)
    assert (b.lower, b.upper, b.status) == (truth(matrix), truth(matrix), "exact")
    assert littlestone_dimension(H, workers=workers) == truth(matrix)


@settings(max_examples=12, deadline=None)
@given(st.integers(300, 3000), st.integers(16, 40), st.floats(0.1, 0.5), st.integers(0, 2**32 - 1),
       st.integers(2, 4))
def test_threads_that_interleave_for_longer_agree_with_the_python_search(n, m, density, seed, threads):
    # classes of thousands of nodes: the threads claim, refute and prove levels side by side;
    # the Python search (checked against the recursion in test_littlestone.py) is the oracle
    H = classes.random(n, m, density, seed=seed)
    expected = LdimSearch(H).ldim(LdimSearch(H).full)
    lower, upper, codes, _ = at_once(H.matrix, threads)
    assert lower == upper == expected and codes == [0] * threads
    r = threaded_bounds(H, Budget(), 1 << 24, threads=threads)
    assert (r["lower"], r["upper"], r["status"]) == (expected, expected, "exact")


# ------------------------------------------------------------------ the shared cells
def test_a_level_another_thread_proved_is_not_searched():
    # the lower-bound cell (the buffer's first 8 bytes, _ldim_kernel.c's COOP_LOWER) holds what
    # "another thread" proved: this one refutes the levels above it, then stops
    H = _slow_class()
    value = littlestone_dimension(H)
    alone = at_once(H.matrix, 1)
    coop = bytearray(kernel.coop_bytes(H.n_instances))
    coop[:8] = value.to_bytes(8, "little", signed=True)
    lower, upper, codes, nodes = at_once(H.matrix, 1, coop=coop)
    assert (lower, upper, codes) == (value, value, [0])
    assert nodes[0] < alone[3][0]  # the value's level (a proof) was left to the other thread
    # told that a level above the value holds (a lie), the thread takes it as proven: the cell is the truth
    coop = bytearray(kernel.coop_bytes(H.n_instances))
    coop[:8] = (value + 1).to_bytes(8, "little", signed=True)
    lower, upper, codes, nodes = at_once(H.matrix, 1, coop=coop)
    assert lower == value + 1 and codes == [0] and nodes[0] < alone[3][0]


def test_a_thread_whose_splits_all_went_to_others_proves_nothing_alone():
    # thread 1 of 2 runs alone: it takes its own share, then thread 0's unclaimed splits, so it
    # still finds the value; then thread 0 comes late, finds every split claimed, and stops
    H = classes.random(2000, 30, 0.3, seed=1)
    value = littlestone_dimension(H)
    M = np.ascontiguousarray(H.matrix)
    n, m = M.shape
    coop = bytearray(kernel.coop_bytes(m))
    first = kernel.ldim_bounds(M, n, m, -1, -1.0, 1 << 24, kernel.COMPACT_RATIO, coop, 1, 2)
    late = kernel.ldim_bounds(M, n, m, -1, -1.0, 1 << 24, kernel.COMPACT_RATIO, coop, 0, 2)
    assert first[:3] == (value, value, 0) and first[3] > 0
    assert late[:4] == (value, value, 0, 0)


def test_the_threads_share_one_memo():
    # what one thread proved is a memo hit for the other: together they expand about the nodes of
    # one search alone (measured: within 1%; with a memo each, each expanded nearly all of them)
    H = _slow_class()
    M = np.ascontiguousarray(H.matrix)
    alone = kernel.ldim_bounds(M, *M.shape, -1, -1.0, 1 << 24)[3]  # the search alone, no buffer
    lower, upper, codes, nodes = at_once(H.matrix, 2)
    assert lower == upper and sum(nodes) < 1.5 * alone


def test_coop_stop_stops_every_thread_as_interrupted():
    H = _slow_class()
    M = np.ascontiguousarray(H.matrix)
    n, m = M.shape
    coop = bytearray(kernel.coop_bytes(m))
    out = []
    helper = threading.Thread(target=lambda: out.append(
        kernel.ldim_bounds(M, n, m, -1, -1.0, 1 << 24, kernel.COMPACT_RATIO, coop, 1, 2)))
    helper.start()
    time.sleep(0.05)
    kernel.coop_stop(coop)
    helper.join(5)
    assert not helper.is_alive() and out[0][2] == 2 and out[0][0] <= littlestone_dimension(H) <= out[0][1]


def test_bad_buffers_and_shares_are_refused():
    M = np.eye(4, dtype=np.uint8)
    for coop, i, w in [(bytearray(8), 0, 2), (bytearray(kernel.coop_bytes(4)), 2, 2),
                       (bytearray(kernel.coop_bytes(4)), 0, 0), (bytes(kernel.coop_bytes(4)), 0, 1)]:
        with pytest.raises((ValueError, TypeError)):
            kernel.ldim_bounds(M, 4, 4, -1, -1.0, 1 << 20, kernel.COMPACT_RATIO, coop, i, w)
    with pytest.raises(ValueError):
        kernel.coop_bytes(-1)
    with pytest.raises(ValueError):
        kernel.coop_stop(bytearray(8))


# ------------------------------------------------------------------ budgets
@settings(max_examples=150, deadline=None)
@given(st.one_of(class_matrices(max_rows=40, max_cols=8), sparse_matrices()), st.integers(1, 40),
       st.integers(1, 4))
def test_a_node_budget_is_shared_and_leaves_proven_bounds(matrix, max_nodes, threads):
    t = truth(matrix)
    lower, upper, codes, nodes = at_once(matrix, threads, max_nodes=max_nodes)
    assert lower <= t <= upper and sum(nodes) <= max_nodes and set(codes) <= {0, 1}
    if lower < upper:
        assert 1 in codes
    b = littlestone_bounds(HypothesisClass.from_matrix(matrix), workers=threads, max_nodes=max_nodes)
    assert b.lower <= t <= b.upper and b.nodes <= max_nodes and b.status in ("exact", "budget")
    assert b.exact == (b.status == "exact") and (not b.exact or b.lower == t)


def test_a_time_limit_and_the_step_deadline_stop_every_thread():
    H = _slow_class()
    full = littlestone_bounds(H)
    for run in (lambda: littlestone_bounds(H, workers=2, time_limit=0.02),
                lambda: _in_step(lambda: littlestone_bounds(H, workers=2), 0.02)):
        b = run()
        assert b.status == "budget" and b.lower <= full.value <= b.upper and b.nodes < full.nodes
        assert b.seconds < 0.5  # the whole search takes about 0.5 s alone; checked every 16 nodes


def _in_step(search, seconds):
    with spending(seconds):
        return search()


def test_after_a_signal_stopped_searches_only_the_bounds_before_a_search_are_given():
    H = _slow_class()
    stop_searches()
    try:
        b = littlestone_bounds(H, workers=2)
    finally:
        resume_searches()
    assert b.status == "interrupted" and b.nodes == 0 and b.lower <= littlestone_dimension(H) <= b.upper


def _long_class() -> HypothesisClass:
    return classes.random(40000, 40, 0.3, seed=1)  # about 2 s alone: still searching when a signal comes


def _search_threads() -> list[str]:
    """The compiled search's helper threads still alive (other tests' threads in this process do not count)."""
    return [t.name for t in threading.enumerate() if t.name.startswith("mistakebound-ldim-thread-")]


def test_ctrl_c_stops_every_thread_with_proven_bounds():
    H = _long_class()
    value = littlestone_dimension(H)
    for delay in (0.03, 0.1):
        with raised_after(KeyboardInterrupt, delay):
            t0 = time.perf_counter()
            b = littlestone_bounds(H, workers=3)
        assert b.status == "interrupted" and b.lower <= value <= b.upper and b.nodes > 0
        assert time.perf_counter() - t0 < delay + 0.3  # every thread stopped, not only this one
        assert not _search_threads()


def test_another_exception_from_a_signal_handler_is_raised():
    class Stop(Exception):
        pass

    with raised_after(Stop, 0.03), pytest.raises(Stop):
        littlestone_bounds(_long_class(), workers=2)
    assert not _search_threads()


# ------------------------------------------------------------------ the engine
def test_the_door_gives_workers_to_the_threads_and_falls_back_to_processes(monkeypatch):
    H = classes.intervals(16)
    engine = ldim_engine(H, workers=2)
    assert (engine.name, engine.search, engine.workers) == ("parallel", None, 2)
    assert ldim_engine(H, workers=2, keep_search=True).search is not None  # a tree is read off the Python search
    stats: dict = {}
    r = threaded_bounds(H, Budget(), 1 << 20, threads=3, stats=stats)
    assert (r["lower"], r["status"]) == (truth(H.matrix), "exact")
    assert len(stats["thread_cpu"]) == 3 and sum(stats["thread_nodes"]) == r["nodes"]
    for module, name in ((kernel_threads, "THREADS"), (ldim_kernel, "AVAILABLE")):
        with monkeypatch.context() as patch:
            patch.setattr(module, name, False)
            engine = ldim_engine(H, workers=2)
            assert engine.name == "parallel" and isinstance(engine.search, LdimSearch)
            assert threaded_bounds(H, Budget(), 1 << 20, threads=2) is None
            assert engine.run().describe() == f"Ldim = {truth(H.matrix)}"
    with pytest.raises(InvalidArgumentError, match="workers"):
        littlestone_bounds(H, workers=0)
    with pytest.raises(InvalidArgumentError, match="workers"):
        ldim_engine(H, workers=1.5)


# ------------------------------------------------------------------ how the threads' answers combine
class _ScriptedKernel:
    """Stands for the extension: thread i's call returns ``answers[i]`` (lower, upper, status code), after
    waiting for :meth:`coop_stop` when ``wait[i]``; so the combination and the stop are seen alone."""

    COMPACT_RATIO = 4

    def __init__(self, answers, wait=()):
        self.answers, self.wait, self.stop, self.stopped_by_caller = answers, set(wait), threading.Event(), False

    def coop_bytes(self, m):
        return 64

    def coop_stop(self, coop):
        self.stopped_by_caller = True
        self.stop.set()

    def ldim_bounds(self, M, n, m, max_nodes, time_limit, memo, ratio, coop, i, threads):
        lower, upper, code = self.answers[i]
        if i in self.wait:
            code = 2 if self.stop.wait(3) else code
        return lower, upper, code, 10 * (i + 1), n, None, 0


@pytest.mark.parametrize("answers, expected", [
    # a thread that ended before another refuted the level above: the others' bounds complete its own
    ([(3, 5, 0), (4, 4, 0)], (4, 4, "exact", 30)),
    ([(4, 6, 0), (3, 4, 0), (2, 6, 0)], (4, 4, "exact", 60)),
    ([(2, 6, 1), (3, 5, 1)], (3, 5, "budget", 30)),
    ([(2, 6, 1), (1, 0, 3)], (2, 6, "memory", 30)),  # one could not start: its splits went to the other
    ([(2, 6, 2), (3, 5, 1)], (3, 5, "interrupted", 30)),
    ([(1, 0, 3), (1, 0, 3)], None),  # none could start: the caller runs the Python search
])
def test_the_threads_answers_combine_into_proven_bounds(monkeypatch, answers, expected):
    monkeypatch.setattr(ldim_kernel, "_kernel", _ScriptedKernel(answers))
    r = threaded_bounds(classes.intervals(8), Budget(), 1 << 20, threads=len(answers))
    assert (r if r is None else (r["lower"], r["upper"], r["status"], r["nodes"])) == expected


def test_a_ctrl_c_while_waiting_for_the_threads_stops_them(monkeypatch):
    fake = _ScriptedKernel([(2, 6, 0), (3, 6, 0)], wait=[1])  # thread 1 runs until told to stop
    monkeypatch.setattr(ldim_kernel, "_kernel", fake)
    with raised_after(KeyboardInterrupt, 0.1):
        t0 = time.perf_counter()
        r = threaded_bounds(classes.intervals(8), Budget(), 1 << 20, threads=2)
    assert fake.stopped_by_caller and time.perf_counter() - t0 < 2
    assert (r["lower"], r["upper"], r["status"]) == (3, 6, "interrupted")
