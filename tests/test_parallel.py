"""The process-parallel Littlestone search against the textbook recursion, its budgets, and its clean-up."""

from __future__ import annotations

import _thread
import contextlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound.theory.textbook import textbook_ldim
from mistakebound import HypothesisClass
from mistakebound.game import classes
from mistakebound.theory import ldim_search
from mistakebound.theory import parallel, parallel_workers
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.theory.littlestone import LdimSearch
from mistakebound.theory.parallel import _parallel_bounds, parallel_littlestone_bounds
from mistakebound.theory.search_protocol import MEMO_FRACTION
from tests.strategies import class_matrices, sparse_matrices

# every call starts worker processes (tens of milliseconds each with forkserver): few examples
SETTINGS = settings(max_examples=25, deadline=None)

# a class whose search takes seconds, for the interrupt and clean-up tests
SLOW = classes.random(20000, 60, 0.1, seed=0)
SLOW_LDIM = 7


def oracle(M: np.ndarray) -> int:
    return textbook_ldim(M) if M.shape[1] else 0


def workers_of_this_process() -> list:
    return [p for p in multiprocessing.active_children() if p.name == "mistakebound-ldim-worker"]


def no_worker_left() -> bool:
    return not workers_of_this_process()


@contextlib.contextmanager
def lockstep():
    """The search here waits for the workers at every node: their answers are always used."""
    saved = parallel._LOCKSTEP, ldim_search.TICK_NODES
    parallel._LOCKSTEP, ldim_search.TICK_NODES = True, 1
    try:
        yield
    finally:
        parallel._LOCKSTEP, ldim_search.TICK_NODES = saved


@pytest.fixture(autouse=True)
def _no_leftover_workers():
    yield
    assert no_worker_left(), workers_of_this_process()


@SETTINGS
@given(st.one_of(class_matrices(max_rows=16, max_cols=7), sparse_matrices()))
def test_two_workers_equal_the_textbook_recursion(M):
    # warm-up 0 and lockstep: the worker answers every top side it can take, even on tiny classes
    with lockstep():
        b = _parallel_bounds(HypothesisClass.from_matrix(M), 2, None, None, 0)
    assert b.exact and b.lower == b.upper == oracle(M)
    b = _parallel_bounds(HypothesisClass.from_matrix(M), 2, None, None, 0)  # and free running
    assert b.exact and b.lower == b.upper == oracle(M)


@SETTINGS
@given(sparse_matrices())
def test_levels_the_workers_prove_are_right(M):
    stats: dict = {}
    with lockstep():
        b = _parallel_bounds(HypothesisClass.from_matrix(M), 3, None, None, 0, stats)
    assert b.exact and b.lower == oracle(M)
    # lockstep: the workers settle the level that holds (Ldim >= 1 needs no search)
    assert stats["levels_by_workers"] == (1 if b.lower >= 2 else 0)


def test_in_lockstep_the_workers_search_and_settle_the_level():
    H = classes.random(300, 12, 0.3, seed=0)
    stats: dict = {}
    with lockstep():
        b = _parallel_bounds(H, 2, None, None, 0, stats)
    assert b.exact and b.lower == oracle(H.matrix)
    assert stats["levels_by_workers"] == 1 and stats["worker_nodes"][0] > 0
    assert stats["coordinator_taught"] > 0


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 5))
def test_more_workers_than_cores_on_larger_random_classes(seed, workers):
    rng = np.random.default_rng(seed)
    M = (rng.random((int(rng.integers(40, 90)), 9)) < rng.choice([0.2, 0.5])).astype(np.uint8)
    with lockstep():
        b = _parallel_bounds(HypothesisClass.from_matrix(M), workers, None, None, 0)
    assert b.exact and b.lower == oracle(M)


def test_public_function_with_warm_up_and_default_workers():
    H = classes.random(60, 9, 0.5, seed=4)
    b = parallel_littlestone_bounds(H, workers=None)
    assert b.exact and b.lower == oracle(H.matrix)


def test_one_worker_is_the_serial_search():
    H = classes.random(3000, 30, 0.3, seed=0)
    for budget in ({}, {"max_nodes": 7}):
        par = parallel_littlestone_bounds(H, workers=1, **budget)
        ser = LdimSearch(H).bounds(**budget)
        assert (par.lower, par.upper, par.status, par.nodes) == (ser.lower, ser.upper, ser.status, ser.nodes)


@SETTINGS
@given(st.one_of(class_matrices(max_rows=16, max_cols=7), sparse_matrices()), st.integers(1, 12))
def test_a_node_budget_gives_proven_bounds(M, max_nodes):
    b = _parallel_bounds(HypothesisClass.from_matrix(M), 2, max_nodes, None, 0)
    truth = oracle(M)
    assert b.lower <= truth <= b.upper
    assert b.status in ("exact", "budget")
    if b.exact:
        assert b.lower == b.upper


def test_budgets_on_a_slow_class_stop_with_proven_bounds():
    truth = LdimSearch(SLOW).bounds().lower
    for budget in ({"max_nodes": 40}, {"time_limit": 0.4}):
        b = parallel_littlestone_bounds(SLOW, workers=2, **budget)
        assert b.status == "budget", budget
        assert 1 <= b.lower <= truth <= b.upper < b.lower + 20
        assert not b.exact
    b = parallel_littlestone_bounds(SLOW, workers=2, max_nodes=400)
    assert b.status == "budget" and b.lower <= truth <= b.upper
    assert b.nodes < 400 + 200  # shared between the warm-up and the two workers, a few ms late at most


def test_ctrl_c_returns_proven_bounds_and_stops_the_workers():
    seen: list = []

    def interrupt_once_workers_run():
        for _ in range(400):
            seen[:] = [p.pid for p in workers_of_this_process()]
            if seen:
                break
            time.sleep(0.01)
        time.sleep(0.2)
        _thread.interrupt_main()

    thread = threading.Thread(target=interrupt_once_workers_run)
    thread.start()
    try:
        b = parallel_littlestone_bounds(SLOW, workers=2)
    finally:
        thread.join()
    assert seen, "the workers never started"
    assert b.status == "interrupted" and not b.exact
    assert 1 <= b.lower <= b.upper
    for pid in seen:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.parametrize("after", [0.02, 0.15])  # as the first sides go out; later in the search
@pytest.mark.parametrize("workers", [2, 3])
def test_a_dead_worker_is_dropped_and_the_search_goes_on_exact(after, workers):
    killed: list = []

    def kill_one_worker():
        for _ in range(400):
            found = workers_of_this_process()
            if len(found) == workers - 1:
                time.sleep(after)
                os.kill(found[0].pid, signal.SIGKILL)
                killed.append(found[0].pid)
                return
            time.sleep(0.01)

    thread = threading.Thread(target=kill_one_worker)
    thread.start()
    stats: dict = {}
    try:
        with pytest.warns(RuntimeWarning, match=r"workers: worker process \d+ died \(exit code -9, killed by a signal\); "
                                                r"the search goes on without it"):
            b = _parallel_bounds(SLOW, workers, None, None, 0.05, stats)
    finally:
        thread.join()
    assert killed and [pid for pid, _, _ in stats["lost_workers"]] == killed
    assert b.exact and b.lower == SLOW_LDIM


@settings(max_examples=12, deadline=None)
@given(st.one_of(class_matrices(max_rows=16, max_cols=7), sparse_matrices()), st.floats(0.0, 0.03),
       st.one_of(st.none(), st.integers(1, 40)))
def test_a_worker_killed_at_any_moment_leaves_bounds_around_the_textbook_value(M, delay, max_nodes):
    """SIGKILL of a worker at a random moment (the workers answer every side: lockstep): the
    result is still exact without a budget, and proven with one (the textbook recursion decides)."""
    H = HypothesisClass.from_matrix(M)

    def kill_the_worker():
        for _ in range(200):
            found = workers_of_this_process()
            if found:
                time.sleep(delay)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(found[0].pid, signal.SIGKILL)
                return
            time.sleep(0.001)

    thread = threading.Thread(target=kill_the_worker)
    thread.start()
    try:
        with lockstep(), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # "worker process ... died"
            b = _parallel_bounds(H, 2, max_nodes, None, 0.0)
    finally:
        thread.join()
    truth = oracle(M)
    assert b.lower <= truth <= b.upper
    assert b.exact or (max_nodes is not None and b.status == "budget")


def test_a_worker_that_fails_or_runs_out_of_memory_is_dropped(monkeypatch):
    from mistakebound.theory.parallel_workers import WorkerPool

    pool = WorkerPool()
    try:
        pool.start(classes.thresholds(15), 2, None, [])
        pool.alive = [0, 1]
        with pytest.warns(RuntimeWarning, match="ran out of memory"):
            assert pool.account(0, ("reply", 1, "memory", None, 5, 0.1, (0, 0, 0))) == ("memory", None)
        with pytest.warns(RuntimeWarning, match="failed:\nTraceback"):
            pool.account(1, ("reply", 2, "error", "Traceback (most recent call last): ...", 5, 0.1, (0, 0, 0)))
        assert pool.alive == [] and len(pool.lost) == 2 and pool.nodes == 10
    finally:
        pool.stop()


@pytest.mark.parametrize("workers", [0, -2, 1.5, True, "2", 2.0])
def test_bad_workers_are_refused(workers):
    with pytest.raises(InvalidArgumentError, match=r"workers: expected None or an integer >= 1, got"):
        parallel_littlestone_bounds(classes.thresholds(3), workers=workers)


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"max_nodes": 0}, "max_nodes"), ({"max_nodes": 2.5}, "max_nodes"),
    ({"time_limit": 0}, "time_limit"), ({"time_limit": float("nan")}, "time_limit"),
])
def test_bad_budgets_and_classes_are_refused(kwargs, name):
    with pytest.raises(InvalidArgumentError, match=f"^{name}: expected"):
        parallel_littlestone_bounds(classes.thresholds(3), workers=2, **kwargs)
    with pytest.raises(InvalidArgumentError, match="^H: expected a HypothesisClass"):
        parallel_littlestone_bounds([[0, 1]], workers=2)


def test_benchmark_smoke_run_agrees_with_the_serial_search(tmp_path):
    from benchmarks.parallel_speedup import SMOKE_CASES

    out = tmp_path / "p.json"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.parallel_speedup", "--smoke", "--out", str(out)],
        cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    records = json.loads(out.read_text())["cases"]
    assert [r["case"] for r in records] == ["start-up"] + [name for name, _ in SMOKE_CASES]
    assert all(r["mismatch"] is None for r in records)
    assert "| start-up |" in proc.stdout


def test_littlestone_dimension_takes_workers():
    from mistakebound import littlestone_bounds, littlestone_dimension

    H = classes.random(80, 9, 0.3, seed=5)
    assert littlestone_dimension(H, workers=2) == littlestone_dimension(H) == oracle(H.matrix)
    b = littlestone_bounds(H, workers=2, max_nodes=3)
    assert b.lower <= oracle(H.matrix) <= b.upper
    with pytest.raises(InvalidArgumentError, match="workers"):
        littlestone_dimension(H, workers=0)


def test_the_processes_share_what_they_prove():
    # in lockstep: the worker answers every side it takes, so its counts reach this process
    # (a worker still searching when the search here ends reports nothing: a race under load)
    H = classes.random(5000, 30, 0.3, seed=1)
    stats: dict = {}
    with lockstep():
        b = _parallel_bounds(H, 2, None, None, 0, stats)
    assert b.exact and b.lower == LdimSearch(H).bounds().lower
    [(sent, received, taught)] = stats["worker_shared"]
    assert sent > 0 and received > 0 and 0 < taught <= received, stats
    assert 0 < stats["coordinator_received"] <= sent, stats  # the worker's facts reach this process
    assert stats["coordinator_taught"] > 0, stats
    assert stats["worker_nodes"][0] > 0


def reply(conn, seconds: float = 3) -> tuple:
    """The next reply a worker sends (the facts it sends meanwhile skipped)."""
    end = time.monotonic() + seconds
    while conn.poll(max(0.0, end - time.monotonic())):
        message = conn.recv()
        if message[0] not in ("facts", "hello"):
            return message
    return ()


def test_a_worker_stops_a_cancelled_or_overdue_side_at_once():
    from mistakebound.theory.parallel_workers import WorkerPool

    search = LdimSearch(SLOW)
    full = search.full
    need = search.bounds().lower + 1  # a refutation that takes about 0.5 s
    pool = WorkerPool()
    try:
        pool.start(SLOW, 1, None, [])
        conn = pool.conns[0]

        def send(message):  # through the pool's sender, the one writer of the pipe
            pool.senders[0].put(parallel_workers.encode_message(message))

        send(("task", 1, full, need, None))
        time.sleep(0.05)
        pool.cancel[0].value = 1
        assert reply(conn)[:4] == ("reply", 1, "cancelled", None), "the cancelled side did not stop"
        send(("task", 2, full, need, 0.05))  # 0.05 s allowed
        assert reply(conn)[:4] == ("reply", 2, "budget", None), "the overdue side did not stop"
        send(("task", 3, full, need - 1, None))  # and the worker still answers right
        assert reply(conn, 30)[:4] == ("reply", 3, "ok", True)
    finally:
        pool.stop()


def test_signals_are_held_back_while_a_worker_starts_and_delivered_after():
    """Ctrl-C (or SIGTERM, the command line's KeyboardInterrupt) never cuts a worker's start in two."""
    got: list[int] = []

    def handler(signum, frame):
        got.append(signum)

    saved = signal.signal(signal.SIGTERM, handler)
    try:
        with parallel_workers._signals_deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            assert got == []  # held back
        assert got == [signal.SIGTERM]  # delivered once the block ends
        with pytest.raises(KeyboardInterrupt):  # Ctrl-C: the usual KeyboardInterrupt, after the block
            with parallel_workers._signals_deferred():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)
                got.append("the block ran to its end")
        assert got[-1] == "the block ran to its end"
        assert signal.getsignal(signal.SIGTERM) is handler and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGTERM, saved)


def test_a_workers_class_goes_over_its_pipe_not_in_its_start(monkeypatch):
    """A start cut short must not leave the new process a truncated pickle: the class is not in it."""
    from mistakebound.theory.parallel_workers import WorkerPool

    real, started = parallel_workers._context, []

    class Recording:  # the start method's context, recording what each process is started with
        def __init__(self, ctx):
            self.ctx = ctx

        def __getattr__(self, name):
            return getattr(self.ctx, name)

        def Process(self, *args, **kwargs):
            started.append(kwargs["args"])
            return self.ctx.Process(*args, **kwargs)

    monkeypatch.setattr(parallel_workers, "_context", lambda: Recording(real()))
    pool = WorkerPool()
    try:
        pool.start(SLOW, 1, None, [])
        (args,) = started
        assert not any(isinstance(a, (HypothesisClass, list, np.ndarray)) for a in args), args
        conn = pool.conns[0]
        pool.senders[0].put(parallel_workers.encode_message(("task", 1, LdimSearch(SLOW).full, 1, None)))
        assert reply(conn, 30)[:4] == ("reply", 1, "ok", True)  # the worker got the class all the same
    finally:
        pool.stop()


class FakePool:
    """Stands in for the worker processes in the unit tests of the coordinator's bookkeeping."""

    def __init__(self):
        self.procs, self.alive, self.task_ids, self.sent = [object()], [0], 0, []
        self.cancel = [multiprocessing.RawValue("q", -1)]

    def send(self, w, V, need, deadline, running, key):
        self.task_ids += 1
        running[w] = (self.task_ids, key)
        self.sent.append(key)

    def account(self, w, reply):
        return reply[1], reply[2]


def coordinator_with_fake_pool(H):
    run = parallel._Run(H, 1, None, None, 0.25)
    run.splits = [(small, j) for _, small, j in run.search.plan().splits]
    run.pool = FakePool()
    truth = LdimSearch(H)

    def ldim_of_side(i, s):
        return truth.ldim(run.version_space((i, s)))

    return run, ldim_of_side


def answer(run, key, value, tid=None):
    run.running[0] = (run.level_tid if tid is None else tid, key)  # default: a task of this level
    run.answer(0, (None, "ok", value))


def test_one_side_that_holds_does_not_prove_the_level_but_two_do():
    H = classes.random(300, 12, 0.3, seed=0)
    run, ldim_of_side = coordinator_with_fake_pool(H)
    pairs = [(i, ldim_of_side(i, 0), ldim_of_side(i, 1)) for i in range(len(run.splits))]
    i, a, b = next((i, a, b) for i, a, b in pairs if a != b)  # a split whose sides differ
    need, s_high = max(a, b), (0 if a > b else 1)
    run.begin_level(need)
    answer(run, (i, s_high), True)  # the side that reaches need
    assert run.known((i, s_high)) is True
    run.queue = [(i, 1 - s_high)]  # the dispatcher looks at the other side next
    run.dispatch()
    assert not run.proven
    run.side.clear()
    j, a, b = next((j, a, b) for j, a, b in pairs if min(a, b) >= 2)
    run.begin_level(min(a, b))
    answer(run, (j, 0), True)
    assert not run.proven
    answer(run, (j, 1), True)
    assert run.proven


def test_an_answer_from_a_finished_level_is_not_used():
    H = classes.random(300, 12, 0.3, seed=0)
    run, ldim_of_side = coordinator_with_fake_pool(H)
    i = 0
    d = ldim_of_side(i, 0)
    run.begin_level(d + 1)  # "Ldim(side) >= d + 1?": no
    old = run.pool.task_ids = 7
    run.begin_level(d)  # the next level down
    answer(run, (i, 0), False, tid=old)  # the old level's "no" arrives late
    assert run.known((i, 0)) is not False
    small = run.splits[i][0]
    assert run.search.proven(small)[1] >= d  # no false "Ldim(side) <= d - 1" in the memo
    answer(run, (i, 0), True)  # this level's answer is used
    assert run.known((i, 0)) is True


def test_a_search_with_workers_leaves_its_memo_for_the_tree(monkeypatch):
    from mistakebound import is_shattered

    monkeypatch.setattr(parallel, "WARMUP_SECONDS", 0)  # the worker starts before the search
    H = classes.random(3000, 14, 0.3, seed=2)
    search = LdimSearch(H)
    with lockstep():  # and answers every top side it can take: the memo holds its facts
        b = search.bounds(workers=2)
    assert b.exact and b.lower == LdimSearch(H).bounds().lower
    T = search.tree()
    assert T.graph["depth"] == b.lower and is_shattered(H, T)
    assert not search.in_run  # nothing of the run left behind
    with pytest.raises(InvalidArgumentError, match="^V: the search with workers covers the whole class only"):
        search.bounds(1, workers=2)


def test_the_command_line_takes_workers(capsys, monkeypatch):
    from mistakebound.interfaces.cli import main

    monkeypatch.setattr(parallel, "WARMUP_SECONDS", 0)  # the worker starts at once

    outputs = []
    for extra in ([], ["--workers", "2"]):
        assert main(["ldim", "intervals:12", "--tree", *extra]) == 0
        outputs.append(capsys.readouterr().out)
    # the same lines up to the tree, a tree of the same depth: workers=1 reads the compiled search's tree, workers=2
    # the Python search's memo (both shattered: tests/test_kernel_tree.py, tests/test_littlestone.py)
    before = [out.split("shattered tree of depth ")[0] for out in outputs]
    assert before[0] == before[1] and "Ldim = 5" in outputs[0]
    assert all("shattered tree of depth 5 " in out for out in outputs)
    for bad in ("300", "0", "two"):
        assert main(["ldim", "intervals:12", "--workers", bad]) == 2
        err = capsys.readouterr().err
        assert "--workers" in err and "expected an integer from 1 to 256" in err and repr(bad) in err


def test_a_search_shorter_than_the_warm_up_starts_no_process(monkeypatch):
    started: list = []
    monkeypatch.setattr(parallel_workers.WorkerPool, "start", lambda self, *args: started.append(args))
    H = classes.random(2000, 40, 0.5, seed=1)  # about 0.02 s
    b = parallel_littlestone_bounds(H, workers=2)
    assert b.exact and b.lower == LdimSearch(H).bounds().lower
    assert started == []


def test_the_processes_share_one_memory_budget(monkeypatch):
    """Each worker gets its share through MISTAKEBOUND_MEMORY_LIMIT; every memo is a quarter of a share."""
    from mistakebound.foundations import memory

    share = 1 << 30
    asked: list = []
    monkeypatch.setattr(memory, "memory_share", lambda processes: asked.append(processes) or share)
    monkeypatch.delenv(memory.MEMORY_LIMIT_VARIABLE, raising=False)
    H = classes.random(3000, 14, 0.3, seed=2)
    stats: dict = {}
    with lockstep():
        b = _parallel_bounds(H, 3, None, None, 0, stats)
    assert b.exact and asked == [3]
    quarter = share * MEMO_FRACTION
    # a worker's budget is its share less what it holds (tens of MiB): its memo a quarter of that
    assert len(stats["worker_memo_bytes"]) == 2
    for limit in stats["worker_memo_bytes"]:
        assert quarter * 0.8 < limit <= quarter, stats["worker_memo_bytes"]
    assert stats["coordinator_memo_bytes"] <= quarter
    assert memory.MEMORY_LIMIT_VARIABLE not in os.environ  # only the workers' environment changed


def test_workers_that_cannot_start_leave_the_search_here_alone(monkeypatch):
    def no_fork(self, *args, **kwargs):
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(parallel_workers.WorkerPool, "start", no_fork)
    with pytest.warns(RuntimeWarning, match="could not start the worker processes .*the search goes on here alone"):
        b = _parallel_bounds(SLOW, 2, None, None, 0)
    assert b.exact and b.lower == SLOW_LDIM
