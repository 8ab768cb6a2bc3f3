"""The sweep's temporary folders: one per process, named after its owner, removed by the next run if it was killed.

A Dask sweep writes temporary files: the markers that tell which cell a lost worker ran,
Dask's own ``dask-scratch-space`` (a folder per worker and for the scheduler), and the
folder of multiprocessing's forkserver.  A sweep that ends removes them; one that is
killed (``kill -9``, the OOM killer) cannot.  So they all live in one folder per
process, :func:`process_folder`: ``mistakebound-sweep-<pid>-<start>-XXXXXXXX`` in the
system's temporary folder, its name holding the owner's PID and the time that process
started (so that a PID used again by another process is not taken for the owner).  It
is removed when the process exits normally, and :func:`remove_abandoned`, called when a
sweep starts, removes every such folder whose owner is gone (only folders of this
user, never through a link), after ending what is left in the process groups its
workers noted there (:func:`~mistakebound.interfaces.sweep.strays.end_noted_groups`).

Examples
--------
>>> import os
>>> folder = process_folder()
>>> folder.name.startswith(f"{PREFIX}{os.getpid()}-") and folder.is_dir()
True
>>> owner(folder) == (os.getpid(), _start_time(os.getpid()))
True
"""

from __future__ import annotations

import multiprocessing.util
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

__all__ = ["PREFIX", "process_folder", "remove_abandoned", "owner", "owner_alive"]

#: How the name of every folder of this module starts.
PREFIX = "mistakebound-sweep-"
_NAME = re.compile(re.escape(PREFIX) + r"(\d+)-(\d+)-[A-Za-z0-9_]+$")
_folder: Path | None = None


def _start_time(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot, ``/proc/PID/stat``), None if unknown, gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return None if fields[0] in (b"Z", b"X") else int(fields[19])  # a zombie is dead, not yet reaped
    except (OSError, ValueError, IndexError):
        return None


def owner(folder: Path) -> tuple[int, int] | None:
    """``(pid, start time)`` of the process a folder's name says made it, None for another name."""
    match = _NAME.match(folder.name)
    return None if match is None else (int(match.group(1)), int(match.group(2)))


def owner_alive(pid: int, start: int) -> bool:
    """Whether process ``pid`` runs and is the one that started at ``start`` (0: start time unknown)."""
    if os.path.isdir("/proc/self"):
        now = _start_time(pid)
        return now is not None and (start == 0 or now == start)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # alive, someone else's
        return True
    return True


def process_folder() -> Path:
    """This process's temporary folder for sweeps, made on first use, removed when the process exits."""
    global _folder
    if _folder is not None and _folder.is_dir():
        return _folder
    pid = os.getpid()
    _folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{pid}-{_start_time(pid) or 0}-"))
    # removed at exit after multiprocessing's own folder in it (its finalizer's priority is -100)
    multiprocessing.util.Finalize(None, _remove, args=(_folder, pid), exitpriority=-200)
    return _folder


def _remove(folder: Path, pid: int) -> None:
    if os.getpid() == pid:  # not in a forked child
        shutil.rmtree(folder, ignore_errors=True)


def remove_abandoned(root: str | os.PathLike | None = None) -> list[Path]:
    """Remove the sweep folders in ``root`` (default: the temporary folder) whose owner is gone; return them.

    Only directories (not links) of this user whose name is this module's are looked at.
    """
    base = Path(root if root is not None else tempfile.gettempdir())
    removed = []
    try:
        entries = list(base.iterdir())
    except OSError:
        return removed
    uid = os.getuid() if hasattr(os, "getuid") else None
    for path in entries:
        found = owner(path)
        if found is None or owner_alive(*found):
            continue
        try:
            info = path.lstat()
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or (uid is not None and info.st_uid != uid):
            continue
        from mistakebound.interfaces.sweep.strays import end_noted_groups

        end_noted_groups(path)  # what the killed sweep's players started, still running
        shutil.rmtree(path, ignore_errors=True)
        if not path.exists():
            removed.append(path)
    return removed
