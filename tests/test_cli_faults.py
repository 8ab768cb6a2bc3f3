"""Fault injection on the command line: signals at any moment, full disks, broken pipes, bad outputs.

Every test runs ``mistakebound`` in a subprocess (the console script, and ``python -m
mistakebound``) and checks what a user sees: the exit code (0 ok, 2 bad input or an output
that cannot be written, 3 interrupted), stderr (one line, never a traceback), and the files
left behind (an old file kept with its mode, no temporary file).  Run them alone with
``pytest -m faults``.  They start about 60 short processes, two or four at a time: about 30 s
of CPU (a minute of wall time on a machine other jobs share).
"""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mistakebound.foundations.files import TEMPORARY_SUFFIX

pytestmark = [pytest.mark.faults,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals, /proc and mounts as Linux has them")]

SCRIPT = Path(sys.executable).with_name("mistakebound")
#: The subprocesses keep compiled modules (in a folder of their own, not beside the sources): a
#: user's installation has them, and each process starts about 0.3 s sooner.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
CHILD_ENV["PYTHONPYCACHEPREFIX"] = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"mistakebound-pycache-{os.getuid()}")
ENTRIES = {"module": [sys.executable, "-m", "mistakebound"], "script": [str(SCRIPT)]}
GAME = ["play", "halving", "obliviouscoin", "thresholds:7", "--unrealizable", "--quiet"]
SHORT_GAME = ["play", "halving", "binary-search-threshold", "thresholds:7", "--quiet"]


def command(entry: str) -> list[str]:
    if entry == "script" and not SCRIPT.exists():
        pytest.skip("the mistakebound console script is not installed beside this interpreter")
    return ENTRIES[entry]


def run(args: list[str], *, entry: str = "module", cwd: Path | None = None, timeout: float = 120,
        prefix: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run((prefix or command(entry)) + [str(a) for a in args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=CHILD_ENV)


def start(args: list[str], *, entry: str = "module", **kwargs) -> subprocess.Popen:
    """``mistakebound ARGS`` started in the background (stdout and stderr piped unless given)."""
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    kwargs.setdefault("env", CHILD_ENV)
    return subprocess.Popen(command(entry) + [str(a) for a in args], text=True, **kwargs)


def one_line(err: str, *needles: str) -> str:
    """The single non-blank line of ``err``, checked: no traceback, the needles in it."""
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(TEMPORARY_SUFFIX))


def handler_installed(pid: int) -> bool:
    """Whether process ``pid`` catches SIGTERM yet (the command line's start-up guard is in place)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            caught = next(int(line.split()[1], 16) for line in fh if line.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return False
    return bool(caught >> (signal.SIGTERM - 1) & 1)


def numpy_loaded(pid: int) -> bool:
    """Whether process ``pid`` has mapped numpy's core extension (it is importing the package's dependencies)."""
    try:
        with open(f"/proc/{pid}/maps") as fh:
            return "_multiarray_umath" in fh.read()
    except OSError:
        return False


def signal_later(proc: subprocess.Popen, signum: int, delay: float, when=handler_installed) -> dict:
    """Send ``signum`` ``delay`` seconds after ``when(pid)`` holds; the report says if the guard was in place then."""
    report: dict = {}

    def go():
        while proc.poll() is None and not when(proc.pid):
            time.sleep(0.002)
        report["guarded"] = handler_installed(proc.pid)
        time.sleep(delay)
        if proc.poll() is None:
            proc.send_signal(signum)
            report["sent"] = True

    report["thread"] = threading.Thread(target=go, daemon=True)
    report["thread"].start()
    return report


def interrupted_line(err: str) -> str:
    """The command line's own line in ``err`` (a progress bar may be drawn there too): one, no traceback."""
    assert "Traceback" not in err, err
    lines = [part for part in err.replace("\r", "\n").splitlines() if part.startswith("mistakebound")]
    assert len(lines) == 1 and "interrupted" in lines[0], err
    return lines[0]


# ------------------------------------------------------------------------------ signals
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("entry", ["script", "module"])
def test_a_signal_while_the_package_loads_exits_3_with_one_line_and_no_traceback(entry, signum):
    """Ctrl-C or SIGTERM while Python imports numpy, networkx and the package (the first second).

    The delays count from the moment numpy's extension is mapped into the process: the
    package installed its guard before that (checked), in its first line.  Earlier than the
    package, the interpreter's own start-up and ``site`` run, which no code of it can reach."""
    rng = random.Random(f"{entry} {signum}")
    delays = [rng.uniform(0.0, 1.0) for _ in range(2)]
    procs = [start(["check"], entry=entry) for _ in delays]
    reports = [signal_later(p, signum, d, when=numpy_loaded) for p, d in zip(procs, delays)]
    for proc, delay, report in zip(procs, delays, reports):
        out, err = proc.communicate(timeout=120)
        report["thread"].join()
        assert report["guarded"], "numpy is imported before the guard is in place"
        assert proc.returncode == 3, (delay, proc.returncode, err)
        one_line(err, "interrupted")
        assert "Traceback" not in out


#: Trials of the test below; each runs ``mistakebound ldim thresholds:5`` (about 1 s) and sends
#: one Ctrl-C at a random moment of its first second.
CTRL_C_TRIALS = 10


def test_ctrl_c_at_a_random_moment_of_the_first_second_is_exit_3_or_0_and_never_a_traceback():
    """Counted from the moment the process is started: while the interpreter starts, while the
    package and numpy load, while the command runs or exits.

    The guard is in place from the package's first line (``mistakebound/__init__.py``); a signal
    sent before that (the interpreter's own start-up and ``site``, about 20-40 ms, where no code
    of the package can run) is Python's: those trials are counted apart (``guarded`` is read
    from ``/proc`` just before the signal is sent) and must be a minority."""
    rng = random.Random(13)
    outcomes = []
    for pair in range(CTRL_C_TRIALS // 2):  # two at a time: the machine has at least two CPUs to share
        delays = [rng.uniform(0.0, 1.0) for _ in range(2)]
        procs = [start(["ldim", "thresholds:5"]) for _ in delays]
        started = time.monotonic()
        guarded = [None, None]
        for k in sorted(range(2), key=delays.__getitem__):
            time.sleep(max(started + delays[k] - time.monotonic(), 0))
            if procs[k].poll() is None:
                guarded[k] = handler_installed(procs[k].pid)
                procs[k].send_signal(signal.SIGINT)
        for k, proc in enumerate(procs):
            out, err = proc.communicate(timeout=60)
            outcomes.append((round(delays[k], 3), guarded[k], proc.returncode, err))
    checked = [o for o in outcomes if o[1] is not False]  # guarded, or finished before the signal
    assert len(checked) >= CTRL_C_TRIALS // 2, outcomes  # the unguarded window is ~5% of the second
    for delay, guarded, code, err in checked:
        assert "Traceback" not in err, (delay, err)
        assert code in (0, 3), (delay, guarded, code, err)
        if code == 3:
            one_line(err, "mistakebound", "interrupted (Ctrl-C)")
        else:
            assert err == "", (delay, err)


def test_the_guard_is_in_place_before_argparse_and_the_package_load():
    """``python -X importtime``: the start-up module is imported, whole, before ``argparse`` starts
    (it reads its exit code from a module that imports nothing), and first in the package."""
    done = run(["-X", "importtime", "-m", "mistakebound", "ldim", "thresholds:1"], prefix=[sys.executable])
    assert done.returncode == 0, done.stderr
    order = [line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    guard = order.index("mistakebound.interfaces.startup")
    assert order.index("argparse") > guard and order.index("numpy") > guard
    assert order.index("mistakebound.foundations") > guard  # nothing of the package before it


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_while_the_command_works_exits_3_after_the_partial_results(tmp_path, signum):
    """The delays count from the first stroke of the progress bar (forced on): ``check`` is playing."""
    rng = random.Random(signum)
    env = dict(CHILD_ENV, MISTAKEBOUND_PROGRESS="1")
    runs = []
    for k in range(2):
        err_path = tmp_path / f"err{k}"
        err_file = open(err_path, "w")
        proc = start(["check"], stderr=err_file, env=env)
        started = (lambda path: lambda pid: path.stat().st_size > 0)(err_path)
        runs.append((proc, err_file, err_path, signal_later(proc, signum, rng.uniform(0.0, 1.5), when=started)))
    for proc, err_file, err_path, report in runs:
        out, _ = proc.communicate(timeout=120)
        err_file.close()
        report["thread"].join()
        err = err_path.read_text()
        assert proc.returncode == 3, (proc.returncode, err)
        assert interrupted_line(err).endswith("the partial results are above"), err
        assert out.startswith(("learner", "interrupted")), out


@pytest.mark.parametrize("gap", [0.0005, 0.05])
def test_a_second_ctrl_c_while_partial_results_print_exits_3_at_once(tmp_path, gap):
    err_path = tmp_path / "err"
    with open(err_path, "w") as err_file:
        proc = start(["check"], stderr=err_file, env=dict(CHILD_ENV, MISTAKEBOUND_PROGRESS="1"))
        started = lambda pid: err_path.stat().st_size > 0  # noqa: E731 - the bar drew: check is playing
        first = signal_later(proc, signal.SIGINT, 0.3, when=started)
        second = signal_later(proc, signal.SIGINT, 0.3 + gap, when=started)
        proc.communicate(timeout=120)
    first["thread"].join(), second["thread"].join()
    err = err_path.read_text()
    assert proc.returncode == 3 and "Traceback" not in err, err
    assert 1 <= len([p for p in err.replace("\r", "\n").splitlines() if p.startswith("mistakebound")]) <= 2, err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_play_out_keeps_the_old_file_and_leaves_no_temporary(tmp_path, signum):
    """At random moments of a game of 60,000 rounds and of the writing of its 5 MB of JSON Lines."""
    rng = random.Random(signum)
    folders = []
    procs = []
    for k in range(2):
        folder = tmp_path / f"run{k}"
        folder.mkdir()
        old = folder / "game.jsonl"
        old.write_text("old\n")
        old.chmod(0o600)
        folders.append(folder)
        procs.append(start(GAME + ["--rounds", "60000", "--out", "game.jsonl"], cwd=folder))
    reports = [signal_later(p, signum, rng.uniform(0.2, 2.0)) for p in procs]
    for folder, proc, report in zip(folders, procs, reports):
        out, err = proc.communicate(timeout=180)
        report["thread"].join()
        path = folder / "game.jsonl"
        assert leftovers(folder) == [] and sorted(p.name for p in folder.iterdir()) == ["game.jsonl"]
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        if proc.returncode == 0:  # it finished first
            assert json.loads(path.read_text().splitlines()[-1])["type"] == "summary"
            continue
        assert proc.returncode == 3, err
        one_line(err, "interrupted")
        text = path.read_text()
        assert text == "old\n" or json.loads(text.splitlines()[-1])["type"] == "summary"


@pytest.mark.parametrize("stream", [False, True], ids=["written after the game", "streamed"])
def test_a_kill_9_during_play_out_leaves_a_named_temporary_that_the_next_run_removes(tmp_path, stream):
    """``kill -9`` while the temporary file exists (the JSON Lines written after the game, or the
    rounds streamed into it as they are played); the next write to the same file removes it."""
    rounds = ["--rounds", "1000000", "--stream"] if stream else ["--rounds", "40000"]
    proc = start(GAME + rounds + ["--out", "game.jsonl"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
    seen = []
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline and not seen:
        seen = leftovers(tmp_path)
        time.sleep(0.005)
    if not seen:  # pragma: no cover - the write finished between two looks
        proc.wait()
        pytest.skip("the temporary file was never seen")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    (name,) = leftovers(tmp_path)
    assert name.startswith(f"game.jsonl.{proc.pid}.") and not name.startswith(".")
    done = run(SHORT_GAME + ["--out", "game.jsonl"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert leftovers(tmp_path) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


# ------------------------------------------------------------------------- broken pipes
@pytest.mark.parametrize("args", [
    GAME + ["--rounds", "20000"],
    ["play", "halving", "obliviouscoin", "thresholds:7", "--unrealizable", "--rounds", "20000"],
    ["ldim", "thresholds:255", "--tree"],
    ["--help"],
], ids=["play quiet", "play transcript", "ldim tree", "help"])
def test_a_reader_that_leaves_the_pipe_is_exit_0_without_a_word(tmp_path, args):
    cmd = " ".join(f"'{a}'" for a in command("module") + args)
    done = subprocess.run(["bash", "-c", f"{cmd} 2>{tmp_path / 'err'} | head -1; echo \"${{PIPESTATUS[0]}}\""],
                          capture_output=True, text=True, timeout=120)
    lines = done.stdout.splitlines()
    assert lines[-1] == "0", done.stdout
    assert (tmp_path / "err").read_text() == ""


# --------------------------------------------------------------- outputs that cannot be written
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_standard_output_on_a_full_device_or_closed_is_exit_2_with_one_line():
    """``> /dev/full`` (every write fails with ENOSPC) and ``>&-`` (no standard output at all)."""
    with open("/dev/full", "w") as full:
        procs = [(start(args, stdout=full), says) for args, says in [
            (["ldim", "thresholds:5"], "mistakebound ldim: error: standard output: cannot write (No space left"),
            (["--help"], "mistakebound: error: standard output: cannot write (No space left on device)"),
            (SHORT_GAME, "mistakebound play: error: standard output: cannot write (No space left on device)"),
        ]]
        procs.append((start(["ldim", "thresholds:5"], preexec_fn=lambda: os.close(1)),
                      "mistakebound ldim: error: standard output is closed"))
    for proc, says in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 2, (says, proc.returncode, err)
        one_line(err, says)


def test_outputs_under_proc_are_refused_before_the_work(tmp_path):
    """``check`` plays for about 15 s: refused at once, nothing printed on stdout."""
    began = time.monotonic()
    procs = [(start(args), args, option) for args, option in [
        (["check", "--json", "/proc/x.json"], "--json"),
        (GAME + ["--rounds", "10", "--out", "/proc/x.jsonl"], "--out"),
        (["tree", "thresholds:7", "--out", "/proc/x.png"], "--out"),
        (["plot", "thresholds:7", "--learners", "halving", "--adversary", "binary-search-threshold",
          "--out", "/sys/x.png"], "--out")]]
    for proc, args, option in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 2, (args, err)
        one_line(err, f"{option}: cannot create files in", "error")
        assert out == "", args
    assert time.monotonic() - began < 12  # four start-ups side by side; the whole check alone plays ~15 s


def read_only_folder(folder: Path):
    """Make ``folder`` read-only for this process: chmod, or (as root, who ignores modes) a read-only mount."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return lambda: folder.chmod(0o755)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)], capture_output=True)
    if done.returncode:
        pytest.skip("root, and no mount: a read-only folder cannot be made here")
    return lambda: subprocess.run(["umount", str(folder)], check=False)


def test_a_read_only_folder_and_a_read_only_file_exit_2_and_keep_everything(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    undo = read_only_folder(folder)
    try:
        done = run(SHORT_GAME + ["--out", folder / "game.jsonl"])
        assert done.returncode == 2 and done.stdout == ""
        one_line(done.stderr, "--out: cannot create files in")
    finally:
        undo()
    path = tmp_path / "game.jsonl"
    path.write_text("keep\n")
    path.chmod(0o444)
    done = run(SHORT_GAME + ["--out", path])
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, "is read-only (mode 0444)")
    assert path.read_text() == "keep\n" and leftovers(tmp_path) == []


FULL_DISK = ("import errno, os, sys\n"
             "def full(fd):\n"
             "    raise OSError(errno.ENOSPC, 'No space left on device')\n"
             "os.fsync = full\n"
             "from mistakebound.interfaces.cli import main\n"
             "sys.exit(main(sys.argv[1:]))\n")


@pytest.mark.parametrize("args, what", [
    (SHORT_GAME + ["--out", "game.jsonl"], "game.jsonl"),
    (["tree", "thresholds:7", "--out", "tree.png"], "tree.png"),
], ids=["play", "tree"])
def test_a_disk_that_fills_up_after_the_work_prints_the_results_then_one_line_exit_2(tmp_path, args, what):
    """``os.fsync`` fails with ENOSPC (what a full disk gives at the last moment)."""
    old = tmp_path / what
    old.write_bytes(b"old")
    old.chmod(0o640)
    done = run(args, cwd=tmp_path, prefix=[sys.executable, "-c", FULL_DISK])
    assert done.returncode == 2, done.stderr
    one_line(done.stderr, "No space left on device", "the results above are complete")
    assert done.stdout.strip(), "the results come first"
    assert old.read_bytes() == b"old" and stat.S_IMODE(old.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_a_full_tmpfs_exits_2_after_the_game_and_keeps_the_old_file(tmp_path):
    folder = tmp_path / "small"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                                           capture_output=True).returncode:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        old = folder / "game.jsonl"
        old.write_text("old\n")
        old.chmod(0o600)
        done = run(GAME + ["--rounds", "5000", "--out", old])
        assert done.returncode == 2, done.stderr
        one_line(done.stderr, "No space left on device")
        assert "rounds = 5000" in done.stdout
        assert old.read_text() == "old\n" and stat.S_IMODE(old.stat().st_mode) == 0o600
        assert leftovers(folder) == []
    finally:
        subprocess.run(["umount", str(folder)], check=False)


SMALL_CHECK = ("from mistakebound.game import classes\n"
               "import mistakebound.verification.selfcheck as selfcheck, mistakebound.verification.suites as suites\n"
               "selfcheck.default_classes = lambda: (classes.thresholds(3),)\n"
               "suites.all_scenarios = lambda: ()\n")


def test_check_json_that_cannot_be_written_after_the_suite_exits_2_after_the_table(tmp_path):
    """The suite is cut to one class (the whole one plays for about 15 s)."""
    done = run(["check", "--json", "report.json"], cwd=tmp_path, prefix=[sys.executable, "-c", SMALL_CHECK + FULL_DISK])
    assert done.returncode == 2, done.stderr
    one_line(done.stderr, "--json: cannot write 'report.json': No space left on device")
    assert "games" in done.stdout and leftovers(tmp_path) == [] and not (tmp_path / "report.json").exists()


# ------------------------------------------------------------------------------- links
def test_a_symbolic_link_is_written_through_openly_and_kept(tmp_path):
    (tmp_path / "runs").mkdir()
    target = tmp_path / "runs" / "game1.jsonl"
    target.write_text("old\n")
    target.chmod(0o600)
    link = tmp_path / "latest.jsonl"
    link.symlink_to("runs/game1.jsonl")
    done = run(SHORT_GAME + ["--out", "latest.jsonl"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "a symbolic link: its target 'runs/game1.jsonl' was written, the link kept" in done.stdout
    assert link.is_symlink() and json.loads(target.read_text().splitlines()[-1])["type"] == "summary"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert leftovers(tmp_path) == leftovers(tmp_path / "runs") == []
    (tmp_path / "loop.jsonl").symlink_to("loop.jsonl")
    done = run(SHORT_GAME + ["--out", "loop.jsonl"], cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, "symbolic link that loops")


# ------------------------------------------------------------------------- file names
def test_file_names_with_control_characters_are_printed_escaped(tmp_path):
    name, bad = "a\x1b[31mb\rc.csv", "a\x1b[31mb\rd.csv"
    (tmp_path / name).write_text("0,1\n1,1\n")
    (tmp_path / bad).write_text("0,1\n1,2\n")
    out = "g\x1b]0;owned\x07.jsonl"
    good, refused, game = (start(args, cwd=tmp_path) for args in (["ldim", name], ["ldim", bad],
                                                                  SHORT_GAME + ["--out", out]))
    stdout, stderr = good.communicate(timeout=60)
    assert good.returncode == 0, stderr
    assert "class: a\\x1b[31mb\\rc.csv" in stdout and "\x1b" not in stdout and "\r" not in stdout
    _, stderr = refused.communicate(timeout=60)
    assert refused.returncode == 2 and "\x1b" not in stderr and "\r" not in stderr
    one_line(stderr, "a\\x1b[31mb\\rd.csv", "row 2, column 2: '2' is not 0 or 1")
    stdout, _ = game.communicate(timeout=60)
    assert game.returncode == 0 and "wrote g\\x1b]0;owned\\x07.jsonl" in stdout and "\x1b" not in stdout
    assert (tmp_path / out).exists()


# ------------------------------------------------------------------------ no exception leaks
def test_an_unexpected_error_is_one_line_exit_1_and_the_traceback_on_request(tmp_path):
    """A bug (here: a learner module whose class raises TypeError on construction) is never a bare traceback."""
    (tmp_path / "buggy.py").write_text(
        "from mistakebound.learners import Halving\n"
        "class Buggy(Halving):\n"
        "    def predict_one(self, x):\n"
        "        return {}['missing']\n")
    done = run(["play", "buggy:Buggy", "binary-search-threshold", "thresholds:7", "--quiet"], cwd=tmp_path)
    assert done.returncode in (1, 2), done.stderr
    one_line(done.stderr, "error")
    env = dict(CHILD_ENV, MISTAKEBOUND_TRACEBACK="1")
    shown = subprocess.run(command("module") + ["ldim", "thresholds:3"], cwd=tmp_path, capture_output=True,
                           text=True, env=env)
    assert shown.returncode == 0 and shown.stderr == ""  # the variable changes nothing when all goes well


def test_the_exit_codes_are_the_documented_ones():
    from mistakebound.interfaces import arguments, cli, exit_codes, startup

    assert (arguments.EXIT_OK, arguments.EXIT_BROKEN, arguments.EXIT_BAD_INPUT, arguments.EXIT_INTERRUPTED) == (0, 1, 2, 3)
    for name in exit_codes.__all__:  # one definition, re-exported (the start-up guard reads it before argparse)
        assert getattr(arguments, name) is getattr(exit_codes, name) is getattr(cli, name)
    assert startup.EXIT_INTERRUPTED is exit_codes.EXIT_INTERRUPTED
    assert errno.ENOSPC  # the fault the disk tests inject


def test_a_signal_whose_interrupt_never_reached_the_command_still_exits_3(monkeypatch, capsys):
    """C code that clears errors (``PyObject_HasAttr``) can swallow the KeyboardInterrupt a signal raised;
    the command then returns normally, but the signal was received: exit 3, one line, never exit 0."""
    from mistakebound.interfaces import cli, startup

    monkeypatch.setitem(startup._state, "signal", signal.SIGINT)  # the handler ran; its exception was lost
    code = cli.main(["ldim", "singletons:3"])
    out, err = capsys.readouterr()
    assert code == cli.EXIT_INTERRUPTED
    assert "Ldim = 1" in out
    assert one_line(err, "interrupted (Ctrl-C)", "partial")


def test_a_signal_inside_a_callback_is_raised_again_in_ordinary_code_without_a_traceback(monkeypatch, capsys):
    """A signal that strikes while the import lock's weak-reference callback runs (the CI flake of
    stop 28): Python prints an exception raised there as "Exception ignored" with a traceback and
    drops it.  The command's hook sends the signal again, so the next line of ordinary code raises."""
    import weakref

    from mistakebound.interfaces import startup

    old_handler = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)  # restored after the test
    for key, value in {"cli": True, "pid": os.getpid(), "signal": None}.items():
        monkeypatch.setitem(startup._state, key, value)
    try:
        startup.begin()
        assert sys.unraisablehook is startup._unraisable

        class Thing:
            pass

        thing = Thing()
        ref = weakref.ref(thing, lambda _ref: startup._interrupt(signal.SIGINT, None))
        with pytest.raises(KeyboardInterrupt):
            del thing  # the callback raises; Python cannot propagate it from there
            for _ in range(1000):  # the handler runs at the next check of pending signals
                time.sleep(0.001)
        assert ref() is None
        assert startup._state["signal"] == signal.SIGINT  # remembered: the command says it was interrupted
    finally:
        signal.signal(signal.SIGINT, old_handler)
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_the_callback_hook_passes_other_exceptions_to_the_hook_before_it(monkeypatch):
    from mistakebound.interfaces import startup

    seen = []
    monkeypatch.setitem(startup._state, "unraisablehook", seen.append)
    monkeypatch.setitem(startup._state, "signal", signal.SIGINT)

    class Unraisable:
        exc_value = ValueError("not a signal")

    startup._unraisable(Unraisable)
    assert seen == [Unraisable]
    assert startup._state["signal"] == signal.SIGINT
