"""The command's start-up under too little memory: one line, exit 2, never a traceback (issue 27).

``mistakebound ...`` under ``ulimit -v 150000`` was a traceback out of numpy's import (or an
OpenBLAS abort, or ``RuntimeError: can't start new thread`` as an internal error).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from mistakebound.interfaces.startup import MIN_ADDRESS_SPACE, exhausted

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ulimit -v is tested on Linux")

COMMANDS = [["ldim", "thresholds:7"], ["play", "halving", "opposite-label", "thresholds:7", "-q"]]


def run(argv, limit_kib=None, env=None, script=False):
    prefix = f"ulimit -v {limit_kib}; " if limit_kib else ""
    entry = [os.path.join(os.path.dirname(sys.executable), "mistakebound")] if script else [sys.executable, "-m",
                                                                                           "mistakebound"]
    cmd = prefix + 'exec "$@"'
    full = {k: v for k, v in os.environ.items() if k != "MISTAKEBOUND_MEMORY_LIMIT"}
    return subprocess.run(["/bin/sh", "-c", cmd, "sh", *entry, *argv], capture_output=True, text=True,
                          env={**full, **(env or {})}, timeout=120)


@pytest.mark.parametrize("limit_kib", [20_000, 100_000, 150_000, MIN_ADDRESS_SPACE // 1024 - 1])
@pytest.mark.parametrize("script", [False, True])
def test_a_start_under_too_small_an_address_space_is_refused_in_one_line(limit_kib, script):
    out = run(COMMANDS[0], limit_kib, script=script)
    assert out.returncode == 2 and out.stdout == "", out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.startswith(f"mistakebound: error: ulimit -v is {limit_kib:,} (KiB), less than the "
                                 f"{MIN_ADDRESS_SPACE // 1024:,} the command needs to start")


@pytest.mark.parametrize("limit_kib", [MIN_ADDRESS_SPACE // 1024, 300_000, 400_000])
@pytest.mark.parametrize("argv", COMMANDS)
def test_at_or_above_the_minimum_a_command_runs_or_ends_cleanly(limit_kib, argv):
    out = run(argv, limit_kib)
    assert out.returncode in (0, 2, 3), out.stderr  # 3: a search stopped by the memory budget, partial results
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr, out.stderr
    if out.returncode == 2:
        assert out.stderr.count("\n") == 1


def test_an_import_that_runs_out_of_memory_while_starting_is_one_line(tmp_path):
    """Fault injection: numpy's import raises MemoryError (a limit just above the minimum, many cores)."""
    fake = tmp_path / "numpy"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise MemoryError('failed to allocate while loading numpy')\n")
    out = run(COMMANDS[0], env={"PYTHONPATH": str(tmp_path)})
    assert out.returncode == 2 and out.stdout == "", out.stderr
    assert out.stderr == ("mistakebound: error: out of memory while starting: the system refused memory (MemoryError: "
                          "failed to allocate while loading numpy); give the command more memory (ulimit -v, the "
                          "control group's limit) or less work\n")


def test_a_library_that_cannot_be_mapped_while_starting_is_one_line(tmp_path):
    fake = tmp_path / "numpy"
    fake.mkdir()
    (fake / "__init__.py").write_text(textwrap.dedent("""
        raise ImportError("libopenblas.so: failed to map segment from shared object")
    """))
    out = run(COMMANDS[1], env={"PYTHONPATH": str(tmp_path)})
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr
    assert "failed to map segment" in out.stderr


def test_another_import_error_at_start_up_keeps_its_traceback(tmp_path):
    """Only the system refusing memory is turned into a line: a broken install still shows where."""
    fake = tmp_path / "numpy"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('something else')\n")
    out = run(COMMANDS[0], env={"PYTHONPATH": str(tmp_path)})
    assert out.returncode == 1 and "Traceback" in out.stderr


@pytest.mark.parametrize("exc", [MemoryError(), RuntimeError("can't start new thread"), OSError(12, "Cannot allocate memory"),
                                 ImportError("x.so: failed to map segment from shared object")])
def test_what_counts_as_the_system_refusing_memory(exc):
    assert exhausted(exc).startswith("the system refused memory (")


def test_a_thread_that_cannot_start_in_a_command_is_exit_2(capsys, monkeypatch):
    from mistakebound.interfaces import cli
    from mistakebound.interfaces.cli import ldim

    def refuse(*args, **kwargs):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(ldim, "run", refuse)  # the parser, built by main, takes the command's run from here
    code = cli.main(["ldim", "thresholds:3"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "internal error" not in err, err
    assert "the system refused memory (RuntimeError: can't start new thread)" in err


def test_a_signal_in_the_instant_before_the_handlers_are_swapped_ends_in_one_line_with_code_3():
    """Ctrl-C as the command returns, before ``finish`` swapped the raising handler for the one that exits
    (the fault campaign caught one such traceback in 20 start-up signals): exit 3, one line, no traceback.
    The handler's raise is injected where ``finish`` installs the new handlers."""
    code = textwrap.dedent("""
        import signal
        from mistakebound.interfaces import startup
        startup._state.update(cli=True, pid=__import__("os").getpid())
        startup.begin()
        real = startup._install
        calls = []
        def install(handlers):
            if not calls:
                calls.append(1)
                startup._state["signal"] = signal.SIGINT
                raise KeyboardInterrupt  # what _interrupt raises when the signal lands here
            real(handlers)
        startup._install = install
        startup.finish()
        print("finish returned")
    """)
    run_ = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run_.returncode == 3, (run_.returncode, run_.stderr)
    assert "Traceback" not in run_.stderr and "finish returned" not in run_.stdout
    assert [line for line in run_.stderr.splitlines() if line.strip()] == ["mistakebound: interrupted (Ctrl-C)"]


def test_a_ctrl_c_during_finish_outside_the_command_line_is_the_callers(monkeypatch):
    """In a process that is not the command line's (a notebook calling ``main``), a KeyboardInterrupt in
    ``finish`` is raised to the caller, never turned into an exit."""
    from mistakebound.interfaces import startup

    def interrupted(what):
        raise KeyboardInterrupt

    monkeypatch.setitem(startup._state, "cli", False)
    monkeypatch.setattr(startup, "_searches", interrupted)
    with pytest.raises(KeyboardInterrupt):
        startup.finish()
