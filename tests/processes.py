"""What the fault tests and the fault campaign read from the machine, in one place: the live processes of a
session or a process group (from ``/proc``), and a local TCP server that accepts and says nothing, or answers
at once (a scheduler address that is not one).

The tests read ``/proc`` themselves rather than through the package's own reader
(``interfaces/sweep/strays.py``), so that what they check is not what they use.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from pathlib import Path

__all__ = ["WITH_WORKER_PROCESSES", "Server", "group_members", "session_members"]

#: A ``python -c`` program that runs ``mistakebound`` with the compiled search's threads turned off:
#: ``--workers`` then runs the Python search's worker processes, as an install without the threads does
#: (``kernel_threads.available``), so that there are worker processes to kill.  It passes for ``python -m
#: mistakebound`` (``startup.is_cli_process`` reads ``sys.orig_argv``), so that the command's own handling
#: of signals is installed.  Run it as ``[python, "-c", WITH_WORKER_PROCESSES, "ldim", ...]``.
WITH_WORKER_PROCESSES = (
    "import sys; sys.orig_argv = [sys.executable, '-m', 'mistakebound', *sys.argv[1:]]; "
    "import mistakebound.theory.kernel_threads as k; k.THREADS = False; "
    "from mistakebound.interfaces.cli import main; raise SystemExit(main())")


def _live(field: int, value: int) -> list[tuple[int, str]]:
    """(PID, command line) of the live processes whose ``/proc/PID/stat`` field ``field`` (after the name) is ``value``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        if int(fields[field]) == value and fields[0] not in ("Z", "X"):
            found.append((int(entry), command))
    return found


def session_members(sid: int) -> list[tuple[int, str]]:
    """(PID, command line) of the live processes of session ``sid``."""
    return _live(3, sid)


def group_members(pgid: int) -> list[tuple[int, str]]:
    """(PID, command line) of the live processes of process group ``pgid``."""
    return _live(2, pgid)


class Server:
    """A local TCP server that accepts connections and says nothing (``reply`` None) or answers ``reply`` at once."""

    def __init__(self, reply: bytes | None = None):
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.socket.getsockname()[1]}"
        self.reply, self.connections = reply, []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return  # closed
            self.connections.append(connection)
            if self.reply is not None:
                with contextlib.suppress(OSError):
                    connection.sendall(self.reply)

    def close(self) -> None:
        self.socket.close()
        for c in self.connections:
            c.close()
