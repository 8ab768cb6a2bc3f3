"""The command line's first and last moments: Ctrl-C and SIGTERM without a traceback.

The ``mistakebound`` command (the console script, or ``python -m mistakebound``) spends
its first few tenths of a second importing numpy, networkx and the package.  A Ctrl-C
then would print a ``KeyboardInterrupt`` traceback, so the package calls
:func:`guard_startup` before its first heavy import: in the command-line process (and
only there: a program that imports the package keeps its own signal handling), Ctrl-C
or SIGTERM during start-up print one line and exit with code 3.

:func:`begin` (called by :func:`mistakebound.interfaces.cli.main`) hands the signals to
the commands: Ctrl-C raises ``KeyboardInterrupt``, which each command turns into its
partial results and exit code 3 (a second Ctrl-C exits at once, with code 3 and one line),
and SIGTERM does the same in the command-line process
(a process forked from it that gets SIGTERM still dies of it), and :func:`interrupted_by`
tells the command line which of them stopped the command.  :func:`finish` (when the
command has returned) makes a late signal exit at once, with code 3 and one line, so
that nothing raises while the interpreter shuts down; once the last exit function has run
and only the interpreter's own teardown is left (a few milliseconds, where it would
restore the default handlers and die of the signal), signals are ignored and the process
exits with the command's code.

Memory at start-up: the command needs :data:`MIN_ADDRESS_SPACE` (256 MiB) of address space to
load Python, numpy (and its BLAS threads) and the package.  Under a lower ``ulimit -v``,
:func:`guard_startup` refuses at once with one line and exit code 2 (bad input: the
resource the command was given), before an import fails half way; should an import still
run out of memory (a limit just above, a machine of many cores), the start-up's exception
hook turns the ``MemoryError`` (or the ``ImportError`` of a library that could not be
mapped) into the same one line, never a traceback.  :func:`exhausted` names such failures
for the command line, which reports them with exit code 2 once a command runs (a thread
that cannot start, a library that cannot be mapped).

Examples
--------
>>> exhausted(RuntimeError("can't start new thread"))
"the system refused memory (RuntimeError: can't start new thread); give the command more memory (ulimit -v, the control group's limit) or less work"
>>> exhausted(ValueError("x")) is None
True
>>> is_cli_process()  # a test run or a user's program is not the command line
False
>>> guard_startup(), begin(), finish()  # outside the command line they change nothing
(None, None, None)
"""

from __future__ import annotations

import atexit
import os
import signal
import sys

from mistakebound.interfaces.exit_codes import EXIT_BAD_INPUT, EXIT_INTERRUPTED  # not arguments: argparse loads later

__all__ = ["MIN_ADDRESS_SPACE", "is_cli_process", "guard_startup", "begin", "finish", "interrupted_by", "exhausted"]

#: The address space (``ulimit -v``) the command needs to start: Python, numpy with its BLAS
#: threads and the package take about 190 MiB of it on Linux x86-64; 256 MiB leaves room to work.
MIN_ADDRESS_SPACE = 256 * 2**20

_SIGNALS = ("SIGINT", "SIGTERM")
_state: dict = {"cli": None, "pid": None, "signal": None, "unraisablehook": sys.unraisablehook, "phase": "startup",
                "excepthook": sys.excepthook}


def _script_is_the_command(script: str) -> bool:
    """Whether ``script`` is the ``mistakebound`` console script (its name, and its first lines)."""
    name = os.path.basename(script)
    for tail in ("-script.pyw", "-script.py", ".exe"):
        if name.endswith(tail):
            name = name[: -len(tail)]
    if name != "mistakebound":
        return False
    try:
        with open(script, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    return b"from mistakebound" in head and b"import main" in head


def _detect(argv: list[str]) -> bool:
    """Whether the interpreter's own arguments ``argv`` run the command line."""
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "-" or arg.startswith("--") and arg not in ("--check-hash-based-pycs",):
            return False
        if arg.startswith("-"):
            flags = arg[1:]
            for k, flag in enumerate(flags):
                if flag == "m":  # -m MODULE, -mMODULE, -Im MODULE
                    module = flags[k + 1:] or (argv[i + 1] if i + 1 < len(argv) else "")
                    return module in ("mistakebound", "mistakebound.interfaces.cli")
                if flag == "c":
                    return False
                if flag in "XW":  # -X opt, -W arg: the value follows (or is attached)
                    if k == len(flags) - 1:
                        i += 1
                    break
            if arg == "--check-hash-based-pycs":
                i += 1
            i += 1
            continue
        return _script_is_the_command(arg)
    return False


def is_cli_process() -> bool:
    """Whether this process runs the ``mistakebound`` command (not a test, not a user's program)."""
    if _state["cli"] is None:
        argv = list(getattr(sys, "orig_argv", None) or [sys.executable, *sys.argv])
        _state["cli"] = _detect(argv)
        _state["pid"] = os.getpid()
    return bool(_state["cli"]) and _state["pid"] == os.getpid()


def _say(line: str) -> None:
    try:
        os.write(2, (line + "\n").encode("utf-8", "backslashreplace"))
    except OSError:
        pass


def _exit_now(signum, frame) -> None:  # noqa: ARG001 - a signal handler's signature
    """Exit at once with code 3 and one line (start-up, shut-down)."""
    if os.getpid() != _state["pid"]:  # a process forked from the command: die of the signal
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    try:
        sys.stdout.flush()
    except Exception:  # noqa: BLE001 - a broken pipe, a flush already running: the line below still goes out
        pass
    what = "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name
    # a progress bar may be half drawn on stderr: the line starts at its first column (cleared on a terminal)
    _say(("\r\033[K" if os.isatty(2) else "\r") + f"mistakebound: interrupted ({what})")
    os._exit(EXIT_INTERRUPTED)


def _interrupt(signum, frame) -> None:
    """Ctrl-C or SIGTERM in the command: ``KeyboardInterrupt`` (partial results, exit 3), remembered.

    A second one (Ctrl-C again while the partial results print) exits at once."""
    if os.getpid() != _state["pid"]:  # a process forked from the command: die of the signal
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    if _state["signal"] is not None:
        _exit_now(signum, frame)
    _state["signal"] = signum
    _searches("stop_searches")  # every later search stops at once: the command ends after its partial results
    raise KeyboardInterrupt


def _searches(what: str) -> None:
    """Call ``stop_searches`` or ``resume_searches`` of the search protocol, if a search was ever imported
    (none is running otherwise; start-up stays free of the package's imports)."""
    protocol = sys.modules.get("mistakebound.theory.search_protocol")
    if protocol is not None:
        getattr(protocol, what)()


def interrupted_by() -> str | None:
    """``"Ctrl-C"`` or ``"SIGTERM"`` once the command got one of them (command-line process only), else None."""
    signum = _state["signal"]
    if signum is None:
        return None
    return "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name


def _install(handlers: dict) -> None:
    for name, handler in handlers.items():
        signum = getattr(signal, name, None)
        if signum is None:  # pragma: no cover - a platform without it
            continue
        try:
            if signal.getsignal(signum) is signal.SIG_IGN:
                continue  # ignored by whoever started us (nohup, a background job): keep it so
            signal.signal(signum, handler)
        except (ValueError, OSError):  # pragma: no cover - not the main thread
            pass


def _ignore_signals_at_exit() -> None:
    """The last exit function: the interpreter now tears itself down, and would die of a signal instead of
    exiting with the command's code (it restores the default handlers there); a signal is ignored then."""
    if os.getpid() == _state["pid"]:
        for name in _SIGNALS:
            try:
                signal.signal(getattr(signal, name), signal.SIG_IGN)
            except (ValueError, OSError, AttributeError):  # pragma: no cover
                pass


def exhausted(exc: BaseException) -> str | None:
    """What to say when ``exc`` is the system refusing memory (None when it is something else).

    A ``MemoryError``; an ``ImportError`` of a compiled library that could not be mapped
    (``failed to map segment``, ``cannot allocate memory``); a thread that could not start
    (``RuntimeError: can't start new thread``); an ``OSError`` of errno ``ENOMEM``.
    """
    import errno

    text = str(exc)
    low = text.lower()
    if isinstance(exc, MemoryError) or (
            isinstance(exc, ImportError) and ("failed to map segment" in low or "cannot allocate memory" in low)) or (
            isinstance(exc, RuntimeError) and "can't start new thread" in low) or (
            isinstance(exc, OSError) and exc.errno == errno.ENOMEM):
        first = text.strip().splitlines()[-1] if text.strip() else ""
        what = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
        return (f"the system refused memory ({what[:300]}); give the command more memory (ulimit -v, the control "
                "group's limit) or less work")
    return None


def _address_space() -> int | None:
    """The soft ``ulimit -v`` in bytes, or None when there is none (or it cannot be read)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not Unix
        return None
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (OSError, ValueError):  # pragma: no cover
        return None
    return None if soft == resource.RLIM_INFINITY or soft < 0 else soft


def _refuse_to_start(line: str) -> None:
    _say(f"mistakebound: error: {line}")
    os._exit(EXIT_BAD_INPUT)


def _startup_hook(kind, value, tb) -> None:
    """``sys.excepthook`` of the command's start-up: memory refused while loading is one line and exit 2."""
    why = exhausted(value) if _state["phase"] == "startup" else None
    if why is None:
        _state["excepthook"](kind, value, tb)
        return
    limit = _address_space()
    under = f" under ulimit -v {limit // 1024:,} (KiB)" if limit is not None else ""
    _refuse_to_start(f"out of memory while starting{under}: {why}")


def guard_startup() -> None:
    """In the command-line process: from now until :func:`begin`, Ctrl-C or SIGTERM exit 3 with one line,
    and a start-up without the memory it needs is refused in one line (exit 2)."""
    if is_cli_process():
        _install({name: _exit_now for name in _SIGNALS})
        atexit.register(_ignore_signals_at_exit)  # registered first, so it runs last
        limit = _address_space()
        if limit is not None and limit < MIN_ADDRESS_SPACE:
            _refuse_to_start(f"ulimit -v is {limit // 1024:,} (KiB), less than the {MIN_ADDRESS_SPACE // 1024:,} the "
                             "command needs to start (Python, numpy and the package); raise it (ulimit -v "
                             f"{MIN_ADDRESS_SPACE // 1024}) or lift it (ulimit -v unlimited)")
        if sys.excepthook is not _startup_hook:
            _state["excepthook"] = sys.excepthook
            sys.excepthook = _startup_hook


def _unraisable(unraisable) -> None:
    """``sys.unraisablehook`` of the command: a signal that struck inside a callback is raised again.

    Python cannot raise out of some callbacks (a weak reference's, the import lock's while a module
    loads): the ``KeyboardInterrupt`` of :func:`_interrupt` would be printed as "Exception ignored"
    with its traceback and then lost.  Here the signal is forgotten and sent again, so that its handler
    raises in the ordinary code that runs next (sent from a thread a moment later: sent from here, it
    would raise inside this hook); anything else goes to the hook that was there before.  Should the
    thread not start (the interpreter shutting down), the signal stays remembered and the command
    still ends with exit code 3 and its one line."""
    exc = getattr(unraisable, "exc_value", None)
    signum = _state["signal"]
    if isinstance(exc, KeyboardInterrupt) and signum is not None and os.getpid() == _state["pid"]:
        import threading

        try:
            resend = threading.Timer(0.005, os.kill, (os.getpid(), signum))
            resend.daemon = True
            _state["signal"] = None
            resend.start()
        except RuntimeError:  # pragma: no cover - no new threads at shutdown
            _state["signal"] = signum
        return
    _state["unraisablehook"](unraisable)


def begin() -> None:
    """In the command-line process: Ctrl-C and SIGTERM raise ``KeyboardInterrupt`` from now on."""
    _state["phase"] = "command"
    _searches("resume_searches")  # a new command in the same process (the tests run many)
    if is_cli_process():
        _install({name: _interrupt for name in _SIGNALS})
        if sys.unraisablehook is not _unraisable:
            _state["unraisablehook"] = sys.unraisablehook
            sys.unraisablehook = _unraisable


def finish() -> None:
    """In the command-line process: the command has returned; a signal from now exits at once (code 3).

    Searches run again from here (a signal during the command stopped them): a caller that runs the
    command in its own process, as the tests do, goes on searching after it.  A signal in the instant
    before the handlers are swapped (the first one still raises) ends the process as one after it does."""
    try:
        if is_cli_process():
            _install({name: _exit_now for name in _SIGNALS})
        _searches("resume_searches")
    except KeyboardInterrupt:  # the command's handler, just before the swap: exit at once, code 3, one line
        if not _state["cli"]:
            raise  # not the command line's process: the caller's own Ctrl-C
        _exit_now(_state["signal"] or signal.SIGINT, None)
    if is_cli_process():
        # CPython marks a KeyboardInterrupt that leaves code run by exec(str) (dataclasses, namedtuple,
        # ... while importing) as unhandled even when a caller catches it, and then ends the process with
        # SIGINT instead of its exit code; the next exec(str) that finishes clears the mark.
        exec("pass", {})  # noqa: S102 - a constant
