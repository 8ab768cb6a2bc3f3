"""Fault injection for the searches: killed `ldim --workers` processes, and searches under `ulimit -v`.

Every test runs real processes: `mistakebound ldim ... --workers 2` killed (the
coordinator with SIGKILL or SIGTERM, with the compiled search's threads or the Python
search's worker processes; a worker with SIGKILL) at random moments, and
searches in a subprocess whose address space is limited.  Each asserts what issue 13
asks of the searches: no process left behind (by PID: every process of the run carries
a tag in its environment, found in /proc), exit 3 with proven bounds when a worker dies
or the search is stopped, never exit 2 and never a traceback, and partial results under
memory pressure that are still proven (``lower <= truth <= upper``).

Run them alone with ``pytest -m faults``.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import numpy as np
import pytest

from mistakebound.game import classes
from tests.processes import WITH_WORKER_PROCESSES

pytestmark = [
    pytest.mark.faults,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; ulimit -v"),
]

#: The class the kill tests search: its Ldim search takes minutes, so it is always
#: running when killed; its Ldim is 12 (measured with the serial search).
BIG = "random:100000,40,0.3,1"
BIG_LDIM = 12
TAG = "MISTAKEBOUND_FAULT_TAG"


# ------------------------------------------------------------------ processes, by PID
def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return fields[0], int(fields[1])
    except (OSError, IndexError, ValueError):
        return None


def tagged(tag: str) -> set[int]:
    """Every live (not zombie) process whose environment carries ``tag``."""
    found = set()
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                if f"{TAG}={tag}".encode() not in f.read().split(b"\0"):
                    continue
        except OSError:
            continue
        st = _stat(int(d))
        if st is not None and st[0] != "Z":
            found.add(int(d))
    return found


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def start_ldim(*args: str, processes: bool = False) -> tuple[subprocess.Popen, str]:
    """``mistakebound ldim *args``; ``processes``: with worker processes for ``--workers``, not threads."""
    tag = uuid.uuid4().hex
    env = {**os.environ, TAG: tag}
    env.pop("MISTAKEBOUND_MEMORY_LIMIT", None)
    entry = ["-c", WITH_WORKER_PROCESSES] if processes else ["-m", "mistakebound"]
    p = subprocess.Popen([sys.executable, *entry, "ldim", *args], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p, tag


def workers_of(p: subprocess.Popen, tag: str) -> list[int]:
    """The worker processes of the run (children of its forkserver)."""
    procs = tagged(tag)
    servers = {q for q in procs if "forkserver" in cmdline(q)}
    return sorted(q for q in procs if (_stat(q) or ("", 0))[1] in servers)


def assert_nothing_left(tag: str, seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        left = tagged(tag)
        if not left:
            return
        time.sleep(0.05)
    left = tagged(tag)
    details = {q: cmdline(q)[:120] for q in left}
    for q in left:  # do not leave them to the next test
        try:
            os.kill(q, signal.SIGKILL)
        except OSError:
            pass
    raise AssertionError(f"processes left behind: {details}")


BOUNDS = re.compile(r"^(\d+) <= Ldim <= (\d+) \(partial: (\w+)\)", re.MULTILINE)


def assert_proven_partial(out: str, err: str, statuses=("budget", "interrupted", "memory")) -> None:
    assert "Traceback" not in out + err, err
    m = BOUNDS.search(out)
    assert m, out
    lower, upper, status = int(m.group(1)), int(m.group(2)), m.group(3)
    assert lower <= BIG_LDIM <= upper and status in statuses, out


# ------------------------------------------------------------------ killing the coordinator
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
@pytest.mark.parametrize("processes", [False, True])
def test_killing_ldim_with_workers_leaves_no_process(sig, processes):
    # threads (the compiled search's) or worker processes (the Python search's): the search takes
    # 4 s or more with two free cores, minutes in Python
    rng = random.Random(f"{sig}-{processes}-{time.time_ns()}")
    p, tag = start_ldim(BIG, "--workers", "2", processes=processes)
    try:
        time.sleep(rng.uniform(0.3, 3.0 if processes else 1.5))  # before, while or after the workers start
        seen = tagged(tag)
        os.kill(p.pid, sig)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert seen and p.pid in seen
    assert_nothing_left(tag)
    if sig == signal.SIGKILL:
        assert p.returncode == -signal.SIGKILL
    else:  # SIGTERM stops the search like Ctrl-C: the bounds proven so far, exit 3
        assert p.returncode == 3, (out, err)
        assert "Traceback" not in err
        if "|X| = 40" in out:  # the class was built when the signal came: the search's bounds
            assert_proven_partial(out, err, ("interrupted",))


def test_a_worker_deep_in_a_long_side_dies_with_its_coordinator():
    """The coordinator is killed (SIGKILL) while its worker searches a side that takes minutes."""
    script = textwrap.dedent(f"""
        import os, signal, sys, time
        from mistakebound.game import classes
        from mistakebound.theory.parallel_workers import WorkerPool

        if __name__ == "__main__":
            H = classes.{BIG.replace(":", "(").replace(",1", ", seed=1")})
            n = len(H.distinct_rows()[0])
            pool = WorkerPool()
            pool.start(H, 1, None, [])
            pool.send(0, (1 << n) - 1, {BIG_LDIM + 1}, None, {{}}, None)  # a refutation: minutes of work
            time.sleep(2)
            print(pool.procs[0].pid, flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
    """)
    tag = uuid.uuid4().hex
    env = {**os.environ, TAG: tag}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == -signal.SIGKILL, result.stderr
    worker = int(result.stdout.split()[0])
    assert_nothing_left(tag, seconds=3)
    assert (_stat(worker) or ("Z",))[0] == "Z"  # the worker: gone, or a zombie its dying parent leaves


def test_a_worker_whose_pipe_stays_open_still_dies_with_its_coordinator(tmp_path):
    """The lifeline alone: the worker's task pipe is kept open by another process (so no end of file
    comes that way); the coordinator's death must still end the worker, through the pipe only the
    coordinator writes to."""
    script = textwrap.dedent("""
        import os, signal, subprocess, time
        from mistakebound.theory import parallel_workers

        if __name__ == "__main__":
            ctx = parallel_workers._context()
            parent_end, child_end = ctx.Pipe()
            life_r, life_w = ctx.Pipe(duplex=False)
            p = ctx.Process(target=parallel_workers._worker_main, args=(child_end, life_r, ctx.RawValue("q", -1), None))
            p.start()
            child_end.close(); life_r.close()
            # a process that outlives this one holds the other end of the worker's task pipe
            keeper = subprocess.Popen(["sleep", "60"], pass_fds=[parent_end.fileno()], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            parent_end.close()
            print(p.pid, keeper.pid, flush=True)
            time.sleep(0.3)  # the worker waits for its class, on a pipe that will not close
            os.kill(os.getpid(), signal.SIGKILL)
    """)
    tag = uuid.uuid4().hex
    env = {**os.environ, TAG: tag}
    out = tmp_path / "pids"
    with open(out, "w") as f:  # a file, not a pipe: a worker left behind must not hold up the test
        p = subprocess.Popen([sys.executable, "-c", script], stdout=f, stderr=subprocess.DEVNULL, env=env)
        code = p.wait(timeout=60)
    worker, keeper = map(int, out.read_text().split())
    end = time.monotonic() + 3
    while worker in tagged(tag) and time.monotonic() < end:
        time.sleep(0.05)
    outlived = worker in tagged(tag)
    os.kill(keeper, signal.SIGKILL)  # now the task pipe closes too
    assert code == -signal.SIGKILL
    assert_nothing_left(tag, seconds=3)  # the forkserver and the resource tracker (all killed if not)
    assert not outlived, "the worker outlived its coordinator by 3 s"


@pytest.mark.parametrize("trial", range(2))
def test_a_coordinator_killed_while_its_workers_start_leaves_no_traceback_and_no_process(trial):
    """SIGKILL at a random moment of starting two workers: while the forkserver starts, while a
    worker's start is written to it, or while the class (4 MB) is on its way to the workers.

    The class goes to each worker over its pipe, read by the worker's own code: a message
    cut short ends the worker quietly (the class was in the process's arguments before,
    and a start cut short made the new process print a traceback as it died).
    """
    delay = random.Random(time.time_ns()).uniform(0.0, 0.4)
    script = textwrap.dedent(f"""
        import os, signal, sys, threading, time
        from mistakebound.game import classes
        from mistakebound.theory.parallel_workers import WorkerPool

        if __name__ == "__main__":
            H = classes.{BIG.replace(":", "(").replace(",1", ", seed=1")})
            threading.Timer({delay}, os.kill, (os.getpid(), signal.SIGKILL)).start()
            pool = WorkerPool()
            pool.start(H, 2, None, [])
            time.sleep(5)
    """)
    tag = uuid.uuid4().hex
    env = {**os.environ, TAG: tag}
    # the workers and the forkserver hold this stderr too: run() returns once they are all gone
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert result.stderr == "", (delay, result.stderr)
    assert_nothing_left(tag, seconds=3)


def test_a_killed_worker_gives_proven_bounds_and_exit_3():
    rng = random.Random(time.time_ns())
    p, tag = start_ldim(BIG, "--what", "ldim", "--workers", "2", "--time-limit", "2.5",  # killed within 1.5 s
                        processes=True)
    try:
        victims: list[int] = []
        end = time.monotonic() + 10
        while not victims and time.monotonic() < end and p.poll() is None:
            victims = workers_of(p, tag)
            time.sleep(0.02)
        assert victims, "the worker never started"
        time.sleep(rng.uniform(0.0, 1.5))
        os.kill(victims[0], signal.SIGKILL)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 3, (out, err)  # never 2 (bad input)
    assert_proven_partial(out, err, ("budget",))
    assert re.search(rf"note: workers: worker process {victims[0]} died \(exit code -9, killed by a signal\); "
                     r"the search goes on without it", err), err
    assert_nothing_left(tag)


# ------------------------------------------------------------------ under ulimit -v
def run_limited(script: str, headroom_mib: int, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``script`` in a new interpreter whose address space is limited to its size + ``headroom_mib``.

    The script calls ``limit()`` once its class is built (``ulimit -v`` from inside: the
    same kernel limit, set where the headroom can be measured).
    """
    prelude = textwrap.dedent(f"""
        import resource
        from mistakebound.foundations import memory

        def limit():
            soft = memory._statm(0) + {headroom_mib} * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (soft, resource.getrlimit(resource.RLIMIT_AS)[1]))
    """)
    env = {**os.environ}
    env.pop("MISTAKEBOUND_MEMORY_LIMIT", None)
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(script)], capture_output=True,
                          text=True, timeout=timeout, env=env)


def test_an_ldim_search_that_meets_a_memory_error_returns_proven_bounds():
    # a memo limit far above what the address space allows: the search meets MemoryError
    result = run_limited(f"""
        from mistakebound.game import classes
        from mistakebound.theory.littlestone import LdimSearch
        H = classes.{BIG.replace(":", "(").replace(",1", ", seed=1")})
        search = LdimSearch(H, max_memo_bytes=2**40)
        limit()
        b = search.bounds(time_limit=30)
        print(b.status, b.lower, b.upper, search.max_memo_bytes < 2**40)
        b2 = search.bounds(time_limit=0.5)  # the search is still usable afterwards
        print(b2.lower <= {BIG_LDIM} <= b2.upper)
    """, headroom_mib=40)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    first, second = result.stdout.split("\n")[:2]
    status, lower, upper, halved = first.split()
    assert status == "memory" and int(lower) <= BIG_LDIM <= int(upper) and halved == "True", first
    assert second == "True"


def test_a_vc_search_that_meets_a_memory_error_returns_proven_bounds():
    # cells forced to bitsets (CELL_BYTES huge): 2^k cells of 16 KiB each outgrow the limit
    result = run_limited("""
        import numpy as np
        from mistakebound import HypothesisClass
        from mistakebound.theory import vc
        rng = np.random.default_rng(0)
        M = ((np.arange(2**17)[:, None] >> np.arange(17)[None, :]) & 1).astype(np.uint8)
        H = HypothesisClass.from_matrix(M[rng.random(2**17) < 0.6])
        vc.CELL_BYTES = 2**40
        limit()
        b = vc.vc_bounds(H, time_limit=30)
        print(b.status, b.lower, b.upper, vc.is_vc_shattered(H, b.witness))
    """, headroom_mib=150)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    status, lower, upper, shattered = result.stdout.split()
    assert status in ("memory", "exact") and int(lower) <= int(upper) <= 16 and shattered == "True"
    assert status == "memory", "the address space was not small enough to make the search fail"


def test_a_worst_case_search_that_meets_a_memory_error_returns_proven_bounds():
    result = run_limited("""
        from mistakebound.game import classes
        from mistakebound.learners import Halving
        from mistakebound.theory.worst_case import worst_case_mistakes

        class Hoarder(Halving):
            hoard = []
            def learn_one(self, x, y):
                Hoarder.hoard.append(bytearray(2**20))  # a megabyte a round, never given back
                super().learn_one(x, y)

        H = classes.singletons(14)
        limit()
        W = worst_case_mistakes(Hoarder(H), H)
        Hoarder.hoard.clear()
        print(W.status, W.lower, W.upper)
    """, headroom_mib=60)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    status, lower, upper = result.stdout.split()
    assert status == "memory" and float(lower) <= 1 <= float(upper)  # M_Halving(singletons) = 1


def test_ldim_on_the_command_line_under_ulimit_prints_proven_bounds():
    # the memo follows the address space (a quarter of what is left under the limit), so
    # the search runs to its time limit instead of dying of MemoryError
    env = {**os.environ}
    env.pop("MISTAKEBOUND_MEMORY_LIMIT", None)
    cmd = f'ulimit -v 700000; exec "{sys.executable}" -m mistakebound ldim {BIG} --what ldim --time-limit 5'
    result = subprocess.run(["/bin/sh", "-c", cmd], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 3, (result.stdout, result.stderr)
    assert_proven_partial(result.stdout, result.stderr)


def test_a_class_too_large_for_the_limit_gives_the_bounds_that_need_no_search(tmp_path):
    # from a class file: the zoo's random() checks its own draw against the budget first.  A class
    # of many rows over few instances: the class takes about 115 MB to read (its rows: at most 16
    # are distinct), a search of it about 210 MB (it assumes every row distinct)
    path = tmp_path / "big.npy"
    np.save(path, classes.random(10**6, 4, 0.3, seed=1).matrix)
    env = {**os.environ}
    env["MISTAKEBOUND_MEMORY_LIMIT"] = "220M"  # what the process holds once the class is read, and 150 MB
    result = subprocess.run([sys.executable, "-m", "mistakebound", "ldim", str(path)],
                            capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 3 and result.stderr == "", result.stderr
    lines = result.stdout.splitlines()
    assert lines[:6] == ["class: big.npy", "|H| = 1000000", "|X| = 4",
                         "0 <= Ldim <= 19 (partial: memory; Ldim <= log2|H|), not searched",
                         "log2|H| = 19.93 (upper bound on Ldim)",
                         "0 <= VCdim <= 19 (partial: memory; VCdim <= Ldim), not searched"]
    for line, search in zip(lines[6:], ("the Littlestone dimension", "the VC dimension")):
        assert re.fullmatch(rf"{search} is partial: H: a \w+ search of 1000000 hypotheses x 4 instances "
                            r"needs about .*, but only .* of memory is available \(the MISTAKEBOUND_MEMORY_LIMIT "
                            r"budget\); search a smaller class", line), line
    assert len(lines) == 8
