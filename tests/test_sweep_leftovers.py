"""Issue 27, family 3: what outlives a sweep.

Processes a player starts end with its cell (``sweep ... | cat`` ends, and ``/proc``
shows no process of the sweep's session left), the temporary folders of a Dask sweep
killed with ``kill -9`` are removed by the next run, and a full disk (a small tmpfs)
costs neither the summary nor a row: the error names the file, finalising needs no
second copy of the results, and ``--plot`` leaves no empty folder.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

from mistakebound.interfaces.sweep import SweepConfig, read_records
from tests.processes import group_members, session_members

pytestmark = [pytest.mark.faults, pytest.mark.skipif(not sys.platform.startswith("linux"),
                                                      reason="reads process groups from /proc")]

SWEEP = [sys.executable, "-m", "mistakebound.interfaces.cli", "sweep"]

SPAWNING = '''
import os
import subprocess
import time

from mistakebound.learners import Halving

_STARTED = set()


class Spawning(Halving):
    """Halving that starts a `sleep 1000` holding the sweep's stdout, once per game."""

    def predict_one(self, x):
        if id(self) not in _STARTED:
            _STARTED.add(id(self))
            subprocess.Popen(["sleep", "1000"])
        return super().predict_one(x)


class Daemonizing(Halving):
    """Halving that leaves a `sleep 1000` behind by a double fork (its parent exits at once)."""

    def predict_one(self, x):
        if id(self) not in _STARTED:
            _STARTED.add(id(self))
            subprocess.run(["sh", "-c", "sleep 1000 &"])
        return super().predict_one(x)


class SpawnAbort(Halving):
    """Starts a `sleep 1000` (its own and its double fork's), then crashes its worker process (os.abort)."""

    def predict_one(self, x):
        subprocess.Popen(["sleep", "1000"])
        subprocess.run(["sh", "-c", "sleep 1000 &"])
        os.abort()


class Witness(Halving):
    """Halving that first waits up to 30 s until no `sleep` of its session is left (what crashed cells started).

    The sweep ends a dead worker's group when it learns of the loss; under a loaded machine (the suite's two
    processes, Dask's nanny restarting two workers) that took more than 10 s once."""

    def predict_one(self, x):
        if id(self) not in _STARTED:
            _STARTED.add(id(self))
            deadline = time.monotonic() + 30
            while (left := _sleeps()) and time.monotonic() < deadline:
                time.sleep(0.05)
            if left:
                raise RuntimeError(f"processes of crashed cells outlive them: {left}")
        return super().predict_one(x)


def _sleeps():
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                command = fh.read()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == os.getsid(0) and fields[0] not in ("Z", "X") and command.startswith(b"sleep"):
            found.append(int(entry))
    return found


class Hanging(Halving):
    def predict_one(self, x):
        time.sleep(1000)


class SpawnHang(Halving):
    """Starts a `sleep 1000`, then hangs: what it started outlives a sweep killed with kill -9."""

    def predict_one(self, x):
        subprocess.Popen(["sleep", "1000"])
        time.sleep(1000)
'''


def _setup(tmp_path: Path, grid: str) -> Path:
    (tmp_path / "players.py").write_text(SPAWNING)
    config = tmp_path / "grid.toml"
    config.write_text(grid)
    return config


def _kill_session(sid: int) -> None:
    for pid, _ in session_members(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


GRID = """
[[grid]]
learners = ["players:Spawning", "players:Daemonizing", "Halving"]
adversaries = ["OppositeLabel"]
classes = ["thresholds"]
sizes = [3, 4]
horizons = [5]
"""


@pytest.mark.parametrize("executor", ["inprocess", "processes", "dask"])
def test_processes_a_player_starts_end_with_the_sweep_and_sweep_into_cat_ends(tmp_path, executor):
    if executor == "dask":
        pytest.importorskip("distributed")
    _setup(tmp_path, GRID)
    command = " ".join([*SWEEP, "grid.toml", "--no-progress", "--executor", executor, "--workers", "2"]) + " | cat"
    proc = subprocess.Popen(command, shell=True, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=90)  # the pipe ends only when no process holds it
    except subprocess.TimeoutExpired:
        left = session_members(proc.pid)
        _kill_session(proc.pid)
        proc.communicate()
        pytest.fail(f"sweep | cat hung; left: {left}")
    assert proc.returncode == 0 and "no bound broken in 6 cells" in out, out + err
    deadline = time.monotonic() + 5
    while session_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = session_members(proc.pid)
    _kill_session(proc.pid)
    assert left == [], left


def test_a_hanging_cells_children_die_with_the_pool_on_sigterm(tmp_path):
    _setup(tmp_path, GRID.replace('"Halving"]', '"players:Hanging"]'))
    proc = subprocess.Popen([*SWEEP, "grid.toml", "--no-progress", "--executor", "processes", "--workers", "2"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not any("players" in c or "Hanging" in c for _, c in session_members(proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(3)  # the hanging cells run
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
        assert proc.returncode == 3
        deadline = time.monotonic() + 5
        while session_members(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session_members(proc.pid) == []
    finally:
        _kill_session(proc.pid)


@pytest.mark.parametrize("executor", ["processes", "dask"])
def test_processes_a_crashed_workers_player_started_end_with_its_cell_not_with_the_next_run(tmp_path, executor):
    """A player starts processes and crashes its worker (os.abort): the sweep records the cell ``infra`` and goes
    on; the cells after it see what it started end (the Witness waits up to 30 s for it), not at the end of the sweep
    nor in a next run, and when the sweep returns no process of its session is left."""
    if executor == "dask":
        pytest.importorskip("distributed")
    _setup(tmp_path, GRID.replace('"players:Spawning", "players:Daemonizing", "Halving"',
                                  '"players:SpawnAbort", "players:Witness"'))
    log = open(tmp_path / "log.txt", "w+b")  # not a pipe: what survives would hold it
    try:
        proc = subprocess.Popen([*SWEEP, "grid.toml", "--no-progress", "--executor", executor, "--workers", "2",
                                 "--batch", "1"], cwd=tmp_path, stdout=log, stderr=log, start_new_session=True)
        try:
            proc.wait(timeout=120)
            deadline = time.monotonic() + 5  # the forkserver, if any, exits as it sees its parent gone
            while session_members(proc.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            left = session_members(proc.pid)  # what the cells started ended with them, not with a next run
        finally:
            _kill_session(proc.pid)
        log.seek(0)
        output = log.read().decode()
    finally:
        log.close()
    assert proc.returncode == 3, output
    assert left == [], left
    records = read_records(tmp_path / "grid.csv")
    assert sorted((r["learner"], r["verdict"], r["error_type"]) for r in records) == \
        [("players:SpawnAbort", "infra", "WorkerDied")] * 2 + [("players:Witness", "ok", None)] * 2


def test_at_the_end_of_a_dask_sweep_the_groups_of_its_dead_workers_are_ended_and_no_live_ones(tmp_path):
    """The markers name the workers that ran cells: the group of one that died (its leader gone, a `sleep` left in
    it) is ended; the group of one alive (a worker still closing, or a PID used again) is not touched."""
    from mistakebound.interfaces.sweep.executors import _end_dead_workers_groups

    dead = subprocess.Popen(["sh", "-c", "sleep 1000 & echo $!"], stdout=subprocess.PIPE, text=True, process_group=0)
    orphan = int(dead.stdout.readline())
    dead.wait(10)  # the leader is gone, its sleep lives on in its group
    alive = subprocess.Popen(["sleep", "1000"], process_group=0)
    try:
        assert [p for p, _ in group_members(dead.pid)] == [orphan]
        (tmp_path / "0.run").write_text(f"{dead.pid:10d} {0:10d}\n")  # died while its cell ran
        (tmp_path / "1.run").write_text(f"{alive.pid:10d}       done\n")
        (tmp_path / "2.run").write_text("")  # a batch that never started
        _end_dead_workers_groups(str(tmp_path))
        deadline = time.monotonic() + 5
        while group_members(dead.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert group_members(dead.pid) == []
        assert alive.poll() is None
    finally:
        for pid in (orphan, alive.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        alive.wait(5)


# ------------------------------------------------------------------ temporary folders of a killed Dask sweep
HANGING = """
[[grid]]
learners = ["players:SpawnHang"]
adversaries = ["OppositeLabel"]
classes = ["thresholds"]
sizes = [3, 4]
horizons = [5]
"""


@pytest.mark.parametrize("executor", ["dask", "processes"])
def test_a_sweep_killed_with_kill_9_leaves_folders_and_processes_that_the_next_run_removes(tmp_path, request,
                                                                                          executor):
    """Its workers die at once, what their players started lives on: the next sweep ends it, and removes the folder."""
    if executor == "dask":
        pytest.importorskip("distributed")
    config = _setup(tmp_path, HANGING)
    tmp = Path(tempfile.mkdtemp(prefix="mb27-", dir="/tmp"))  # short: the forkserver's socket lives in it
    request.addfinalizer(lambda: shutil.rmtree(tmp, ignore_errors=True))
    env = {**os.environ, "TMPDIR": str(tmp)}
    log = open(tmp_path / "log.txt", "w+b")  # not a pipe: the players' processes hold it after the kill
    request.addfinalizer(log.close)
    proc = subprocess.Popen([*SWEEP, "grid.toml", "--no-progress", "--executor", executor, "--workers", "2"],
                            cwd=config.parent, env=env, stdout=log, stderr=log, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not [c for _, c in session_members(proc.pid) if c.startswith("sleep")]:
            assert time.monotonic() < deadline and proc.poll() is None, (tmp_path / "log.txt").read_text()
            time.sleep(0.1)
        proc.kill()
        proc.communicate(timeout=30)
        deadline = time.monotonic() + 10
        while any(not c.startswith("sleep") for _, c in session_members(proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        if executor == "dask":  # a pool worker ends its group as it dies (the test below)
            assert {c.split()[0] for _, c in session_members(proc.pid)} == {"sleep"}  # the players' processes, alone
        left = sorted(p.name for p in tmp.iterdir())
        assert len(left) == 1 and left[0].startswith(f"mistakebound-sweep-{proc.pid}-"), left  # one folder holds all
        other = tmp_path / "other.toml"
        other.write_text(HANGING.replace("players:SpawnHang", "Halving"))
        done = subprocess.run([*SWEEP, "other.toml", "--no-progress", "--executor", "inprocess"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert list(tmp.iterdir()) == []
        deadline = time.monotonic() + 5
        while session_members(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session_members(proc.pid) == []
    finally:
        _kill_session(proc.pid)


def test_a_pool_sweep_killed_with_kill_9_leaves_no_process_its_players_started_without_a_next_run(tmp_path, request):
    """A pool worker that sees its parent gone ends its own process group (what its players started) as it exits."""
    config = _setup(tmp_path, HANGING)
    log = open(tmp_path / "log.txt", "w+b")  # not a pipe: the players' processes would hold it
    request.addfinalizer(log.close)
    proc = subprocess.Popen([*SWEEP, "grid.toml", "--no-progress", "--executor", "processes", "--workers", "2"],
                            cwd=config.parent, stdout=log, stderr=log, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not (sleeps := [p for p, c in session_members(proc.pid) if c.startswith("sleep")]):
            assert time.monotonic() < deadline and proc.poll() is None, (tmp_path / "log.txt").read_text()
            time.sleep(0.1)
        groups = {os.getpgid(p) for p in sleeps}
        assert proc.pid not in groups  # the workers' own groups, not the sweep's
        proc.kill()
        proc.communicate(timeout=30)
        deadline = time.monotonic() + 10
        while any(group_members(g) for g in groups) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert {g: group_members(g) for g in groups} == {g: [] for g in groups}
        assert session_members(proc.pid) == []
    finally:
        _kill_session(proc.pid)


# ------------------------------------------------------------------ full disks
@pytest.fixture
def small_disk(tmp_path):
    """A folder on a tmpfs of 32 KiB (root only), unmounted after the test."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = []

    def mount(kib: int) -> Path:
        if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kib}k", "tmpfs", str(folder)],
                                               capture_output=True).returncode:
            pytest.skip("mounting a small tmpfs needs root")
        mounted.append(folder)
        return folder

    yield mount
    for f in mounted:
        subprocess.run(["umount", str(f)], check=False)


BIG = """
[[grid]]
learners = ["Halving", "SOA"]
adversaries = ["OppositeLabel"]
classes = ["thresholds"]
sizes = [3, 4, 5, 6, 7, 8, 9, 10]
seeds = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
horizons = [5]
"""


def _once(path: Path, config: Path) -> list[dict]:
    records = read_records(path)
    ids = [c.id for c in SweepConfig.from_toml(config.read_text()).cells()]
    assert Counter(r["id"] for r in records) == Counter(ids)
    return records


def test_a_disk_that_fills_while_rows_are_appended_names_the_file_prints_the_summary_and_resumes(tmp_path, small_disk):
    disk = small_disk(256)
    ballast = disk / "ballast"
    ballast.write_bytes(b"x" * 220 * 1024)  # the disk full after about 30 KiB of rows
    config = _setup(tmp_path, BIG)
    argv = [*SWEEP, "grid.toml", "--no-progress", "--executor", "processes", "--workers", "2",
            "--out", str(disk / "r.csv")]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and f"--out: cannot write '{disk / 'r.csv'}': No space left on device" in lines[0], lines
    assert "sweep: stopped" in done.stdout and "learner  cells" in done.stdout, "the summary comes first"
    ballast.unlink()  # room again: the same command resumes
    again = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "already recorded" in again.stdout and "no bound broken in 320 cells" in again.stdout
    _once(disk / "r.csv", config)
    assert sorted(p.name for p in disk.iterdir()) == ["r.csv"]


def test_finalising_needs_no_second_copy_and_a_disk_without_room_for_one_keeps_the_rows(tmp_path, small_disk):
    disk = small_disk(64)
    config = _setup(tmp_path, BIG)
    done = subprocess.run([*SWEEP, "grid.toml", "--no-progress", "--executor", "inprocess",
                           "--out", str(disk / "in_order.csv")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr  # 51 KB of rows on a 64 KiB disk: no copy needed
    assert "sweep: note" not in done.stdout
    _once(disk / "in_order.csv", config)
    (disk / "in_order.csv").unlink()
    done = subprocess.run([*SWEEP, "grid.toml", "--no-progress", "--executor", "processes", "--workers", "2",
                           "--out", str(disk / "r.csv")], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "kept in the order the cells finished" in done.stdout and "no bound broken in 320 cells" in done.stdout
    _once(disk / "r.csv", config)
    assert sorted(p.name for p in disk.iterdir()) == ["r.csv"]


def test_plots_that_do_not_fit_leave_no_empty_folder(tmp_path, small_disk):
    disk = small_disk(64)
    (disk / "ballast").write_bytes(b"x" * 60 * 1024)  # room for the folders, not for a figure
    config = _setup(tmp_path, BIG)
    done = subprocess.run([*SWEEP, "grid.toml", "--no-progress", "--executor", "inprocess", "--out", "r.csv",
                           "--plot", str(disk / "plots" / "deeper")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "--plot: cannot write the plots to" in lines[0] and "No space left" in lines[0], lines
    assert "no bound broken in 320 cells" in done.stdout
    assert [p.name for p in disk.iterdir()] == ["ballast"]  # neither plots/ nor plots/deeper
    _once(tmp_path / "r.csv", config)
