"""Fault injection for sweeps: players that crash their process, killed workers, killed and signalled main processes.

Every test runs real sweeps (``python -m mistakebound.interfaces.cli sweep``) in a
subprocess whose current directory holds the config and a module of faulty players
(imported by ``module:Class``), and checks, by PID (read from ``/proc``), that nothing is
left behind, that each cell is recorded exactly once, that only the cell a dead worker
was running is affected, that such infrastructure errors are run again on resume, and
the exit codes.  Run them alone with ``pytest -m faults``.

The faults: a player that calls ``os.abort`` or ``os._exit`` in its pool worker, one that
asks for more memory than exists (a real ``MemoryError``), ``SystemExit(7)`` and
``KeyboardInterrupt`` raised by players, a player that writes into its cached class
behind numpy's back; pool workers SIGKILLed at random moments (what the OOM killer
does); the main process of a process-pool or Dask sweep stopped by Ctrl-C (SIGINT to
its process group, as a terminal sends it: also while Dask's workers still import),
SIGTERM or SIGKILL while cells hang.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from mistakebound.interfaces.sweep import ResultsFile, SweepConfig, read_records, sweep

pytestmark = [pytest.mark.faults, pytest.mark.skipif(not sys.platform.startswith("linux"),
                                                      reason="reads process trees from /proc")]

TIMING = ("seconds", "peak_kib")

PLAYERS = '''
"""Faulty learners for the fault-injection tests; a fault is on while its flag file is in the current directory."""

import ctypes
import os
import time

from mistakebound.learners import Halving


class Aborting(Halving):
    """Halving that calls os.abort on classes of 9 instances while abort.on exists."""

    def predict_one(self, x):
        if self.H.n_instances == 9 and os.path.exists("abort.on"):
            os.abort()
        return super().predict_one(x)


class Vanishing(Halving):
    """Halving that ends its process with os._exit(5) on classes of 9 instances while abort.on exists."""

    def predict_one(self, x):
        if self.H.n_instances == 9 and os.path.exists("abort.on"):
            os._exit(5)
        return super().predict_one(x)


class Greedy(Halving):
    """Halving that asks for more memory than any machine has (a real MemoryError from the allocator), noting each
    run in greedy.runs (its class's size) and taking 20 ms first, so that the Greedy cells of two workers overlap."""

    def predict_one(self, x):
        with open("greedy.runs", "a") as fh:
            fh.write(f"{self.H.n_instances}\\n")
        time.sleep(0.02)
        bytearray(1 << 62)
        return super().predict_one(x)


class Slow(Halving):
    """Halving that sleeps 10 ms per prediction."""

    def predict_one(self, x):
        time.sleep(0.01)
        return super().predict_one(x)


class Sluggish(Halving):
    """Halving that sleeps 60 ms per prediction: a sweep long enough to kill its workers several times."""

    def predict_one(self, x):
        time.sleep(0.06)
        return super().predict_one(x)


class Hanging(Halving):
    """Halving that hangs in predict_one while hang.on exists."""

    def predict_one(self, x):
        while os.path.exists("hang.on"):
            time.sleep(0.02)
        return super().predict_one(x)


class Exiting(Halving):
    """Halving that raises SystemExit(7) when asked to predict."""

    def predict_one(self, x):
        raise SystemExit(7)


class ExitingAtBirth(Halving):
    """A learner whose constructor raises SystemExit(7)."""

    def __init__(self, H):
        raise SystemExit(7)


class Interrupting(Halving):
    """Halving that raises KeyboardInterrupt when asked to predict (no Ctrl-C was pressed)."""

    def predict_one(self, x):
        raise KeyboardInterrupt("planted")


class CtrlC(Halving):
    """Halving during whose first prediction this process gets a SIGINT: Ctrl-C pressed while the cell runs."""

    def predict_one(self, x):
        os.kill(os.getpid(), __import__("signal").SIGINT)
        time.sleep(0.5)  # the interrupt lands here
        return super().predict_one(x)


class Scribbling(Halving):
    """Halving that overwrites its class's matrix in memory (through ctypes: numpy would refuse)."""

    def __init__(self, H):
        super().__init__(H)
        m = H.matrix
        ctypes.memset(m.ctypes.data, 1, m.nbytes)


class MemoryBudget(Halving):
    """Halving that fails with the MISTAKEBOUND_MEMORY_LIMIT its process was given, as its error message."""

    def predict_one(self, x):
        raise RuntimeError("budget=" + os.environ.get("MISTAKEBOUND_MEMORY_LIMIT", "unset"))
'''


# ------------------------------------------------------------------ helpers
def _setup(tmp_path: Path, grid: str, *flags: str) -> Path:
    (tmp_path / "faulty_players.py").write_text(PLAYERS)
    for flag in flags:
        (tmp_path / flag).write_text("")
    config = tmp_path / "grid.toml"
    config.write_text(grid)
    return config


def _command(config: Path, *options: str) -> list[str]:
    return [sys.executable, "-m", "mistakebound.interfaces.cli", "sweep", config.name, "--no-progress", *options]


def _run(config: Path, *options: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(_command(config, *options), cwd=config.parent, capture_output=True, text=True,
                          timeout=timeout)


def _start(config: Path, *options: str) -> subprocess.Popen:
    # a session of its own: the test can signal its whole process group, as a terminal's Ctrl-C does
    return subprocess.Popen(_command(config, *options), cwd=config.parent, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    return children


def _tree(root: int) -> set[int]:
    """The PIDs of ``root`` and all its descendants now."""
    children, found, stack = _children(), set(), [root]
    while stack:
        pid = stack.pop()
        found.add(pid)
        stack += children.get(pid, [])
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie is dead, waiting to be reaped


def _wait_gone(pids: set[int], seconds: float) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = {p for p in pids if _alive(p)}
        if not left:
            return set()
        time.sleep(0.05)
    return {p for p in pids if _alive(p)}


def _rows(path: Path) -> int:
    try:
        return max(0, path.read_bytes().count(b"\n") - 1)
    except FileNotFoundError:
        return 0


def _wait_for(predicate, seconds: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the sweep ended early ({proc.returncode}): {proc.communicate()}")
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)


def _one_line_at_most(stderr: str) -> None:
    """The command line's one line on an interruption, and nothing else (no traceback, no worker's noise)."""
    lines = stderr.splitlines()
    assert len(lines) <= 1 and all(line.startswith("mistakebound") and "interrupted" in line for line in lines), stderr


def _strip(records):
    return [{k: v for k, v in r.items() if k not in TIMING} for r in records]


def _once(path: Path, config: Path) -> list[dict]:
    """The records of the results file, asserting each cell of the grid is there exactly once."""
    records = read_records(path)
    ids = [c.id for c in SweepConfig.from_toml(config.read_text()).cells()]
    assert Counter(r["id"] for r in records) == Counter(ids)
    return records


def _kill_tree(pids: set[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


# ------------------------------------------------------------------ dead workers
CRASHING = """
[[grid]]
learners = ["Halving", "SOA", "faulty_players:Aborting", "faulty_players:Vanishing"]
adversaries = ["OppositeLabel", "BinarySearchThreshold"]
classes = ["thresholds"]
sizes = [5, 9, 17]
seeds = [0, 1, 2]
horizons = [10]
"""


def test_a_player_that_aborts_its_worker_costs_only_its_own_cells_which_run_again_on_resume(tmp_path, monkeypatch):
    config = _setup(tmp_path, CRASHING, "abort.on")
    first = _run(config, "--executor", "processes", "--workers", "2", "--batch", "4")
    assert first.returncode == 3, first.stdout + first.stderr  # infrastructure errors only: resume
    assert "Traceback" not in first.stderr
    records = _once(tmp_path / "grid.csv", config)
    dead = [r for r in records if r["verdict"] == "infra"]
    # exactly the 12 cells of Aborting and Vanishing on thresholds:9; every other cell, SOA's included, ran as usual
    assert sorted((r["learner"], r["class"]) for r in dead) == (
        [("faulty_players:Aborting", "thresholds:9")] * 6 + [("faulty_players:Vanishing", "thresholds:9")] * 6)
    assert all(r["error_type"] == "WorkerDied" for r in dead)
    assert all(("SIGABRT" if r["learner"].endswith("Aborting") else "exit code 5") in r["error"] for r in dead)
    assert all(r["verdict"] == "ok" for r in records if r not in dead)
    kept = {r["id"]: r for r in records if r not in dead}

    # still crashing: the same 12 cells run again (not "already recorded"), once each, and nothing else
    again = _run(config, "--executor", "processes", "--workers", "2")
    assert again.returncode == 3 and "(12 run now, 12 of them again after infrastructure errors, 60 already " \
                                      "recorded)" in again.stdout, again.stdout + again.stderr
    _once(tmp_path / "grid.csv", config)

    # the crash gone (say, more memory): the resumed sweep finishes them; the rows kept were not recomputed
    (tmp_path / "abort.on").unlink()
    final = _run(config, "--executor", "processes", "--workers", "2")
    assert final.returncode == 0, final.stdout + final.stderr
    records = _once(tmp_path / "grid.csv", config)
    assert all(r["verdict"] == "ok" for r in records)
    assert all(r["seconds"] == kept[r["id"]]["seconds"] for r in records if r["id"] in kept)
    monkeypatch.chdir(tmp_path)  # faulty_players importable here too
    monkeypatch.setattr(sys, "path", list(sys.path))
    whole = sweep(config, executor="inprocess")
    assert _strip(records) == _strip(whole.records)  # as if nothing had happened


SLOW = """
[[grid]]
learners = ["faulty_players:Sluggish", "SOA"]
adversaries = ["OppositeLabel"]
classes = ["thresholds", "singletons"]
sizes = [3, 4, 5, 6, 7, 8]
seeds = [0, 1, 2, 3, 4, 5]
horizons = [6]
"""  # about 4 s on two workers: time for four kills (with 10 ms a prediction, a loaded CI machine ended it first)


def test_workers_killed_at_random_moments_lose_no_row_and_only_their_running_cells(tmp_path):
    config = _setup(tmp_path, SLOW)
    n_cells = len(SweepConfig.from_toml(SLOW).cells())
    proc = _start(config, "--executor", "processes", "--workers", "2", "--batch", "5")
    kills: list[int] = []
    rng = random.Random(13)

    def killer() -> None:
        time.sleep(0.6)  # past start-up
        while len(kills) < 4 and proc.poll() is None:
            workers = sorted(_tree(proc.pid) - {proc.pid})
            if workers:
                try:  # a stray Ctrl-C reaching a worker alone is ignored: Ctrl-C is the main process's
                    os.kill(rng.choice(workers), signal.SIGINT)
                    time.sleep(rng.uniform(0.05, 0.2))
                    victim = rng.choice(workers)
                    os.kill(victim, signal.SIGKILL)
                    kills.append(victim)
                except OSError:
                    pass
            time.sleep(rng.uniform(0.1, 0.4))

    thread = threading.Thread(target=killer)
    thread.start()
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        thread.join()
    assert len(kills) >= 2, "the sweep ended before the kills"
    assert proc.returncode in (0, 3), out + err
    assert "Traceback" not in err
    records = _once(tmp_path / "grid.csv", config)
    dead = [r for r in records if r["verdict"] == "infra"]
    assert len(dead) <= len(kills)  # one cell per kill at most: the one its worker was running
    assert all(r["error_type"] == "WorkerDied" and "SIGKILL" in r["error"] for r in dead)
    assert all(r["verdict"] == "ok" for r in records if r not in dead)
    assert (proc.returncode == 3) == bool(dead)

    resumed = _run(config, "--executor", "processes", "--workers", "2")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert f"({len(dead)} run now" in resumed.stdout
    records = _once(tmp_path / "grid.csv", config)
    assert len(records) == n_cells and all(r["verdict"] == "ok" for r in records)


# ------------------------------------------------------------------ stopping the main process
HANGING = """
[[grid]]
learners = ["faulty_players:Slow", "faulty_players:Hanging"]
adversaries = ["OppositeLabel"]
classes = ["thresholds"]
sizes = [5, 9, 17]
seeds = [0, 1, 2, 3]
horizons = [6]
"""


def _stop(proc: subprocess.Popen, how: str, running, *, timeout: float, grace: float) -> tuple[str, str, float]:
    """Once ``running()`` returns, stop the sweep as ``how`` says (``ctrl-c...``: SIGINT to the process group,
    as a terminal does; ``sigterm``, ``sigkill``: to the main process); assert that the main process and
    its workers (at least three processes) are all gone within ``grace`` seconds; kill what is left anyway.
    Returns stdout, stderr and the seconds from the signal to the main process's end."""
    pids: set[int] = set()
    try:
        running()
        pids = _tree(proc.pid)
        assert len(pids) >= 3  # the main process and its two workers
        started = time.monotonic()
        if how.startswith("ctrl-c"):
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGTERM if how == "sigterm" else signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=timeout)
        elapsed = time.monotonic() - started
        assert not _wait_gone(pids, grace), f"processes left behind after {how}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        _kill_tree(pids)
    return stdout, stderr, elapsed


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "sigkill"])
def test_a_process_pool_sweep_stopped_with_a_hanging_cell_leaves_no_process_and_resumes(tmp_path, how):
    config = _setup(tmp_path, HANGING, "hang.on")
    out = tmp_path / "grid.csv"
    proc = _start(config, "--executor", "processes", "--workers", "2", "--batch", "3")

    def running() -> None:  # the Slow cells come first; then both workers hang in Hanging's cells
        _wait_for(lambda: _rows(out) >= 12 and len(_tree(proc.pid)) >= 3, 30, proc)
        time.sleep(0.3)

    stdout, stderr, elapsed = _stop(proc, how, running, timeout=10, grace=3)
    if how == "sigkill":
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 3, stdout + stderr
        assert elapsed < 3, f"took {elapsed:.1f} s to stop"
        assert "recorded in grid.csv; run the same command again to resume" in stdout
        _one_line_at_most(stderr)  # no traceback, from the main process or a worker
    finished = ResultsFile(out).load()
    assert len(finished) >= 12 and all(r["learner"] == "faulty_players:Slow" for r in finished.values())

    (tmp_path / "hang.on").unlink()
    resumed = _run(config, "--executor", "processes", "--workers", "2")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "already recorded" in resumed.stdout
    records = _once(out, config)
    assert all(r["verdict"] == "ok" for r in records)


@pytest.mark.parametrize("how", ["ctrl-c", "ctrl-c-at-start", "sigkill"])
def test_a_dask_local_cluster_sweep_stopped_is_quiet_and_leaves_no_process(tmp_path, how):
    pytest.importorskip("distributed")
    # Slow cells of 0.4 s first, so that the signal lands while cells run; hanging ones after them
    config = _setup(tmp_path, HANGING.replace("horizons = [6]", "horizons = [40]"), "hang.on")
    out = tmp_path / "grid.csv"
    proc = _start(config, "--executor", "dask", "--workers", "2", "--batch", "2")

    def running() -> None:
        if how == "ctrl-c-at-start":  # as soon as a worker process exists: it is still importing dask
            # (the main process, the resource tracker, the forkserver or a first worker, a worker)
            _wait_for(lambda: len(_tree(proc.pid)) >= 4, 40, proc)
            time.sleep(0.3)  # past the interpreter's first instants (where SIGINT still kills silently)
        else:
            _wait_for(lambda: _rows(out) >= 2, 40, proc)

    # the main process (scheduler and nannies inside) and two workers
    stdout, stderr, elapsed = _stop(proc, how, running, timeout=15, grace=5)
    if how == "sigkill":
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 3, stdout + stderr
        # at start, the Ctrl-C waits until the LocalCluster is up (to be closed): a few seconds on a busy machine
        assert elapsed < (3 if how == "ctrl-c" else 10), f"took {elapsed:.1f} s to stop"
        _one_line_at_most(stderr)  # no worker's traceback, not even from one still importing
    if how != "ctrl-c-at-start":
        assert len(ResultsFile(out).load()) >= 2


def test_a_dask_worker_killed_by_its_player_costs_only_that_cell(tmp_path):
    pytest.importorskip("distributed")
    # each death costs a new worker process (a second or two): one, in a batch with others
    grid = (CRASHING.replace("seeds = [0, 1, 2]", "seeds = [0]").replace("sizes = [5, 9, 17]", "sizes = [9, 17]")
            .replace(', "faulty_players:Vanishing"', ""))
    config = _setup(tmp_path, grid, "abort.on")
    done = _run(config, "--executor", "dask", "--workers", "2", "--batch", "4", timeout=90)
    assert done.returncode == 3, done.stdout + done.stderr
    records = _once(tmp_path / "grid.csv", config)
    dead = [r for r in records if r["verdict"] == "infra"]
    assert sorted((r["learner"], r["class"]) for r in dead) == [("faulty_players:Aborting", "thresholds:9")] * 2
    assert all(r["verdict"] == "ok" for r in records if r not in dead)


# ------------------------------------------------------------------ a player's own exits and interrupts
EXITS = """
[[grid]]
learners = ["faulty_players:Exiting", "faulty_players:ExitingAtBirth", "faulty_players:Interrupting", "Halving",
            "no_such_module:Learner", "faulty_players:Greedy"]
adversaries = ["OppositeLabel"]
classes = ["thresholds"]
sizes = [3, 5]
horizons = [6]
"""


@pytest.mark.parametrize("executor", ["inprocess", "processes"])
def test_system_exit_and_keyboard_interrupt_from_a_player_are_its_errors_not_the_sweeps(tmp_path, executor):
    config = _setup(tmp_path, EXITS)
    done = _run(config, "--executor", executor, "--workers", "2")
    assert done.returncode == 1, done.stdout + done.stderr  # player errors: not 7, not 3
    assert "Traceback" not in done.stderr
    records = _once(tmp_path / "grid.csv", config)
    by_learner = {}
    for r in records:
        by_learner.setdefault(r["learner"].split(":")[-1], set()).add((r["verdict"], r["error_type"]))
    assert by_learner["Halving"] == {("ok", None)}
    for name in ("Exiting", "ExitingAtBirth", "Interrupting"):
        assert {verdict for verdict, _ in by_learner[name]} == {"error"}, by_learner[name]
    # issue 27: a module that cannot be imported where the sweep runs is not the player's error: run again on resume
    assert by_learner["Learner"] == {("infra", "PlayerImportError (ModuleNotFoundError)")}, by_learner["Learner"]
    # the engine wraps what a player raises in play() (PlayerError); a constructor's raises as itself
    for r in records:
        if "Exiting" in r["learner"]:
            assert "SystemExit" in r["error_type"] and "7" in r["error"], r
        if "Interrupting" in r["learner"]:
            assert r["error_type"] == "KeyboardInterrupt", r
    assert by_learner["Greedy"] == {("infra", "MemoryError")}  # out of memory: the machine's fault, not a verdict
    # player errors are kept, infrastructure errors run again: a resumed sweep runs the 2 MemoryError cells and
    # the 2 of the module it could not import only
    again = _run(config, "--executor", executor, "--workers", "2")
    assert again.returncode == 1, again.stdout + again.stderr
    assert "(4 run now, 4 of them again after infrastructure errors, 8 already recorded)" in again.stdout, \
        again.stdout
    assert _strip(_once(tmp_path / "grid.csv", config)) == _strip(records)


# ------------------------------------------------------------------ memory and the class cache
def test_each_pool_worker_gets_its_share_of_the_memory_budget(tmp_path):
    config = _setup(tmp_path, '[[grid]]\nlearners = ["faulty_players:MemoryBudget"]\nadversaries = ["OppositeLabel"]\n'
                              'classes = ["thresholds"]\nsizes = [3, 4, 5, 6]\n')
    limit = 4 * 2**30
    env = dict(os.environ, MISTAKEBOUND_MEMORY_LIMIT=str(limit))
    done = subprocess.run(_command(config, "--executor", "processes", "--workers", "2"), cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    budgets = {int(re.search(r"budget=(\d+)", r["error"]).group(1)) for r in read_records(tmp_path / "grid.csv")}
    (budget,) = budgets  # the same in both workers: half of the main process's budget (4 GiB less its own size)
    assert limit // 4 < budget <= limit // 2


def test_a_player_that_scribbles_on_its_class_is_caught_and_the_class_rebuilt(tmp_path, monkeypatch):
    _setup(tmp_path, "")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    grid = {"grid": [{"learners": ["Halving", "faulty_players:Scribbling", "SOA"], "adversaries": ["OppositeLabel"],
                      "classes": ["thresholds"], "sizes": [7, 8], "horizons": [12]},
                     {"kind": "search", "search": "ldim", "classes": ["thresholds"], "sizes": [7, 8]}]}
    clean = {"grid": [dict(grid["grid"][0], learners=["Halving", "SOA"]), grid["grid"][1]]}
    records = sweep(grid, executor="inprocess").records
    scribbled = [r for r in records if r["learner"] == "faulty_players:Scribbling"]
    assert [r["verdict"] for r in scribbled] == ["error", "error"]
    assert all("changed the class" in r["error"] for r in scribbled)
    # the cells after it, in the same process, saw the class as built
    from mistakebound.interfaces.sweep.cells import _classes

    _classes.clear()
    expected = _strip(sweep(clean, executor="inprocess").records)
    assert _strip([r for r in records if r not in scribbled]) == expected


def test_ctrl_c_during_an_in_process_cell_stops_the_sweep_and_a_players_own_interrupt_does_not(tmp_path, monkeypatch):
    _setup(tmp_path, "")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    out = tmp_path / "r.csv"
    grid = {"grid": [{"learners": ["Halving", "faulty_players:Interrupting", "faulty_players:CtrlC", "SOA"],
                      "adversaries": ["OppositeLabel"], "classes": ["thresholds"], "sizes": [4], "horizons": [5]}]}
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt):
        sweep(grid, out=out, executor="inprocess")
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers  # restored
    recorded = ResultsFile(out).load()
    # the two cells before the Ctrl-C are recorded (the player's own KeyboardInterrupt as its error), none after
    assert sorted((r["learner"], r["verdict"]) for r in recorded.values()) == [
        ("Halving", "ok"), ("faulty_players:Interrupting", "error")]


def test_a_dask_sweep_beside_another_cluster_says_nothing_of_ports(tmp_path):
    """Port 8787 (Dask's default dashboard) taken, as by a second sweep on the machine: no warning, same rows."""
    pytest.importorskip("distributed")
    import socket

    config = _setup(tmp_path, """
[[grid]]
learners = ["Halving"]
adversaries = ["OppositeLabel"]
classes = ["thresholds"]
sizes = [3, 4]
seeds = [0]
horizons = [6]
""")
    taken = socket.socket()
    taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        taken.bind(("", 8787))
        taken.listen()
    except OSError:
        pass  # already in use: the condition this test wants
    try:
        done = _run(config, "--executor", "dask", "--workers", "2")
    finally:
        taken.close()
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr.strip() == "", done.stderr
    assert len(read_records(tmp_path / "grid.csv")) == 2


# ------------------------------------------------------------------ issue 27: a worker that ran out of memory retires
POISON = '''
from mistakebound.learners import Halving

POISONED = []


class Poisoning(Halving):
    """Runs out of memory and leaves its process poisoned (a leak the allocator does not give back)."""

    def predict_one(self, x):
        POISONED.append(bytearray(1024))
        raise MemoryError("this cell asked for too much")


class Canary(Halving):
    """A good cell, unless it runs in a process poisoned by an earlier cell."""

    def predict_one(self, x):
        if POISONED:
            raise MemoryError("the worker is poisoned by an earlier cell")
        return super().predict_one(x)
'''


@pytest.mark.parametrize("executor, workers", [("processes", "1"), ("dask", "2")])
def test_a_cell_that_runs_out_of_memory_retires_its_worker_and_the_good_cells_after_it_succeed(tmp_path, executor,
                                                                                               workers):
    """One batch of six cells: the poisoning cells are ``infra``, and the good ones after them run in a fresh
    process, recorded ``ok`` (a pool worker retires after such a cell; a LocalCluster's worker is restarted
    by its nanny, quietly)."""
    if executor == "dask":
        pytest.importorskip("distributed")
    (tmp_path / "poison.py").write_text(POISON)
    config = tmp_path / "grid.toml"
    config.write_text('[[grid]]\nlearners = ["poison:Poisoning", "poison:Canary"]\nadversaries = ["OppositeLabel"]\n'
                      'classes = ["thresholds"]\nsizes = [3, 4, 5]\nhorizons = [5]\n')
    done = _run(config, "--executor", executor, "--workers", workers, "--batch", "6", timeout=120)  # one batch
    assert done.returncode == 3, done.stdout + done.stderr
    records = _once(tmp_path / "grid.csv", config)
    verdicts = {(r["learner"], r["size"]): r["verdict"] for r in records}
    assert [verdicts[("poison:Poisoning", n)] for n in (3, 4, 5)] == ["infra"] * 3
    assert [verdicts[("poison:Canary", n)] for n in (3, 4, 5)] == ["ok"] * 3, verdicts
    assert all(r["error_type"] == "MemoryError" for r in records if r["verdict"] == "infra")
    if executor == "dask":
        assert done.stderr.strip() == "", done.stderr  # the restarts are quiet


# ------------------------------------------------------------------ issue 27: several cells out of memory at once
@pytest.mark.parametrize("executor", ["processes", "dask"])
def test_cells_running_out_of_memory_at_once_are_each_their_own_and_every_good_cell_finishes(tmp_path, executor):
    """Batches of one cell on two workers, eight cells that run out of memory side by side with eight good ones:
    each Greedy cell is recorded as its own ``MemoryError`` (``infra``), never as a worker lost or a retry budget
    spent; each good cell, whose worker may be restarted for another cell, runs again and is ``ok``."""
    if executor == "dask":
        pytest.importorskip("distributed")
    config = _setup(tmp_path, '[[grid]]\nlearners = ["faulty_players:Greedy", "faulty_players:Slow"]\n'
                    'adversaries = ["OppositeLabel"]\nclasses = ["thresholds"]\nsizes = [3, 4, 5, 6, 7, 8, 9, 10]\n'
                    'horizons = [4]\n')
    done = _run(config, "--executor", executor, "--workers", "2", "--batch", "1", timeout=180)
    assert done.returncode == 3, done.stdout + done.stderr
    records = _once(tmp_path / "grid.csv", config)
    outcome = {(r["learner"], r["size"]): (r["verdict"], r["error_type"]) for r in records}
    sizes = range(3, 11)
    greedy = {n: outcome[("faulty_players:Greedy", n)] for n in sizes}
    assert greedy == {n: ("infra", "MemoryError") for n in sizes}, outcome
    assert {n: outcome[("faulty_players:Slow", n)][0] for n in sizes} == {n: "ok" for n in sizes}, outcome
    assert done.stderr.strip() == "", done.stderr
    # a Greedy cell's record in hand is not computed again when its worker is restarted (one lost in flight, rarely)
    runs = Counter((tmp_path / "greedy.runs").read_text().split())
    assert len(runs) == len(sizes) and sum(runs.values()) <= len(sizes) + 2, runs


def test_a_batch_lost_with_a_worker_restarted_for_another_cells_memory_goes_again_whatever_its_retries(tmp_path):
    """No cell of it ran (the restarted worker refused every batch), so none is blamed and no retry is spent: the
    same batch, lost with a worker that merely died, after as many retries, is recorded."""
    from types import SimpleNamespace

    from mistakebound.interfaces.sweep.cells import Cell
    from mistakebound.interfaces.sweep.executors import _DASK_RETRIES, _DaskWork, _lost

    class Client:
        def __init__(self):
            self.sent, self.restarts = [], []

        def map(self, function, batches, markers, pure):
            self.sent += [(b, m) for b, m in zip(batches, markers)]
            return [SimpleNamespace(key=f"k{len(self.sent)}-{i}") for i in range(len(batches))]

        def restart_workers(self, addresses, raise_for_error):
            self.restarts += addresses

    class Running(list):
        def update(self, futures):
            self.extend(futures)

    client, running = Client(), Running()
    sent = _DaskWork(client, str(tmp_path))
    sent.restart("tcp://127.0.0.1:1")
    assert client.restarts == ["tcp://127.0.0.1:1"]
    batch = [Cell(kind="game", learner="Halving", adversary="OppositeLabel", cls="thresholds:3", size=3, horizon=3)]

    def killed(address: str) -> Exception:  # what dask raises for a task whose worker was lost while it was there
        exc = RuntimeError("KilledWorker")
        exc.last_worker = SimpleNamespace(address=address)
        return exc

    assert _lost(sent, running, killed("tcp://127.0.0.1:1"), batch, None, _DASK_RETRIES) == []  # sent again
    assert len(running) == 1 and client.sent[-1][0] == batch
    records = _lost(sent, running, killed("tcp://127.0.0.1:2"), batch, None, _DASK_RETRIES)  # a worker that died
    assert [(r["verdict"], r["error_type"]) for r in records] == [("infra", "WorkerDied")] and len(running) == 1
