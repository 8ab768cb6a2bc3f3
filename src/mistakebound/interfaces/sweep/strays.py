"""Processes a cell's players start: ended with the cell, with its worker, and with the sweep.

A player may start processes (a solver, a ``sleep 1000`` left behind by mistake).  Left
alone they outlive the sweep and keep its standard output open, so that ``mistakebound
sweep CONFIG | cat`` never ends.  Here is the one mechanism that ends them (Linux; elsewhere
every function does nothing):

* A worker process the sweep starts (a pool worker, a LocalCluster's Dask worker) calls
  :func:`adopt_orphans` first: it leads a process group of its own, which whatever its
  players start joins, and becomes a *child subreaper* (``PR_SET_CHILD_SUBREAPER``), so
  that a process whose parent exits (a daemon's double fork) is reparented to it rather
  than to init.
* After each cell, :func:`end_strays` kills (``SIGKILL``) every process that has become
  a child of this one since ``before`` (:func:`children`), its descendants first, and
  reaps them; in a subreaper that is everything the cell started and left.  The sweep's
  own process (the in-process executor) leads no group of its own (its group is the
  shell's job, ``cat`` included): it is a subreaper only while a cell runs
  (:func:`adopting`), and ends the same way what the cell left.
* When the sweep ends a worker (the pool's close, a dead worker buried, the Dask
  cluster closed), :func:`end_group` kills what is left in that worker's group, also
  when the worker died before it could clean up; a Dask worker that died with its cell
  (its nanny, not the sweep, sees it go) has its group ended by :func:`end_dead_group`
  when the sweep learns of the loss, and at the latest when the sweep ends.
* A sweep killed with ``kill -9`` ends nothing itself: a pool worker, told by its parent
  death signal or its parent-watch thread, ends its own group as it dies
  (``executors._end_with_group``); a LocalCluster's worker dies at once, and what its
  players started lives on in its group.  Each worker notes its group in the sweep's
  temporary folder (:data:`FOLDER_VARIABLE`, :mod:`~mistakebound.interfaces.sweep.scratch`),
  and the next sweep, which removes that folder, first kills what is left in those groups
  (:func:`end_noted_groups`).

Examples
--------
>>> import subprocess, sys
>>> before = children()
>>> child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
>>> end_strays(before) >= (1 if sys.platform.startswith("linux") else 0)
True
>>> child.wait(5) in (-9, 0) or not sys.platform.startswith("linux")
True
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterator

__all__ = ["adopt_orphans", "adopting", "children", "end_strays", "end_group", "end_dead_group", "end_noted_groups",
           "group_members", "FOLDER_VARIABLE"]

#: The environment variable that gives a worker the sweep's temporary folder, where it notes its process group.
FOLDER_VARIABLE = "MISTAKEBOUND_SWEEP_FOLDER"

_LINUX = sys.platform.startswith("linux")
#: Whether this process called :func:`adopt_orphans` (a worker of the sweep's own).
_adopting = False


def adopt_orphans() -> bool:
    """Lead a process group of this process's own and adopt orphaned descendants; True if both were done.

    Only for a worker process the sweep started (never for the sweep's own process, nor
    for a remote Dask worker, whose group is someone else's).
    """
    global _adopting
    if not _LINUX:
        return False
    try:
        if os.getpgid(0) != os.getpid():
            os.setpgid(0, 0)
    except OSError:
        return False
    _adopting = _subreaper(True)
    folder = os.environ.get(FOLDER_VARIABLE)
    if folder:  # noted, so that the next sweep ends the group if this one is killed with kill -9
        try:
            os.makedirs(os.path.join(folder, "groups"), exist_ok=True)
            with open(os.path.join(folder, "groups", str(os.getpid())), "w"):
                pass
        except OSError:
            pass
    return _adopting


def _subreaper(on: bool) -> bool:
    """Set or clear ``PR_SET_CHILD_SUBREAPER`` for this process; True if done."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, int(on), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _is_subreaper() -> bool:
    try:
        import ctypes

        flag = ctypes.c_int(0)
        return ctypes.CDLL(None, use_errno=True).prctl(37, ctypes.byref(flag), 0, 0, 0) == 0 and bool(flag.value)
    except (OSError, AttributeError):
        return False


@contextlib.contextmanager
def adopting() -> Iterator[frozenset[int]]:
    """Within the block this process adopts orphaned descendants; at its end, what they left is ended.

    For a cell run in the sweep's own process: yields the children it has before the cell
    (left alone), and on leaving kills the children the block left, orphans of a double
    fork included (:func:`end_strays`), then restores the subreaper flag as it was.

    Yields
    ------
    frozenset of int
        The children this process had before the block.
    """
    if not _LINUX:
        yield frozenset()
        return
    was = _is_subreaper()
    if not was:
        _subreaper(True)
    before = children()
    try:
        yield before
    finally:
        try:
            end_strays(before)
        finally:
            if not was:
                _subreaper(False)


def _stat(pid: int | str) -> tuple[int, int, bool] | None:
    """``(parent, process group, zombie)`` of a process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), int(fields[2]), fields[0] in (b"Z", b"X")


def children() -> frozenset[int]:
    """The PIDs of this process's children now (any thread's).

    Examples
    --------
    >>> isinstance(children(), frozenset)
    True
    """
    if not _LINUX:
        return frozenset()
    found: set[int] = set()
    try:
        tasks = os.listdir("/proc/self/task")
        for tid in tasks:
            with open(f"/proc/self/task/{tid}/children", "rb") as fh:
                found.update(int(p) for p in fh.read().split())
        return frozenset(found)
    except OSError:  # no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN): read every process's parent
        me = os.getpid()
        return frozenset(int(p) for p in os.listdir("/proc") if p.isdigit() and (_stat(p) or (0, 0))[0] == me)


def _descendants(roots: set[int]) -> list[int]:
    """``roots`` and every descendant of theirs, deepest first."""
    by_parent: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            info = _stat(entry)
            if info is not None:
                by_parent.setdefault(info[0], []).append(int(entry))
    order, stack, seen = [], list(roots), set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        order.append(pid)
        stack += by_parent.get(pid, [])
    return order[::-1]


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _reap(pids: set[int], seconds: float) -> None:
    """Wait for our children ``pids`` to exit (their zombies reaped); the others are only waited for."""
    deadline = time.monotonic() + seconds
    left = set(pids)
    while left and time.monotonic() < deadline:
        for pid in list(left):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not ours (a descendant): gone when /proc says so
                done = pid if _stat(pid) is None else 0
            except OSError:
                done = pid
            if done:
                left.discard(pid)
        if left:
            time.sleep(0.005)


def end_strays(before: frozenset[int] = frozenset()) -> int:
    """Kill the children this process has now but had not in ``before``, and their descendants; return how many.

    Repeated while new children appear (orphans reparented to a subreaper as their
    parents die), at most a few rounds; each killed child is reaped.
    """
    if not _LINUX:
        return 0
    killed = 0
    for _ in range(5):
        new = set(children()) - set(before)
        if not new:
            break
        doomed = _descendants(new)
        _kill(doomed)
        killed += len(doomed)
        _reap(new, 2.0)
    return killed


def group_members(pgid: int) -> list[int]:
    """The PIDs of the live processes in process group ``pgid`` (from ``/proc``)."""
    if not _LINUX:
        return []
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            info = _stat(entry)
            if info is not None and info[1] == pgid:
                found.append(int(entry))
    return found


def end_noted_groups(folder: str | os.PathLike) -> int:
    """Kill what is left in the process groups the workers of a killed sweep noted in ``folder``; return how many.

    A group number is not given to a new group while a process of the old one lives, so a
    group that still has members is the one the worker led: its players' processes.
    """
    try:
        names = os.listdir(os.path.join(folder, "groups"))
    except OSError:
        return 0
    ended = 0
    for name in names:
        if name.isdigit() and group_members(int(name)):
            end_group(int(name))
            ended += 1
    return ended


def end_dead_group(leader: int | None) -> bool:
    """Kill what is left in the process group of a worker ``leader`` that is dead now; True if it had members.

    For a worker that died without ending its group (a Dask worker killed while its cell ran):
    what its players started ends with the cell.  A live process's group is left alone: it is
    the worker's own to end, or, its PID used again, someone else's.

    Examples
    --------
    >>> end_dead_group(None), end_dead_group(os.getpid())
    (False, False)
    """
    if not _LINUX or leader is None or not group_members(leader):
        return False
    info = _stat(leader)
    if info is not None and not info[2]:  # alive (a zombie is dead, not yet reaped)
        return False
    end_group(leader)
    return True


def end_group(pgid: int | None) -> None:
    """Kill what is left in the process group ``pgid`` (a worker's, led by it), the sweep's own group never."""
    if not _LINUX or pgid is None or pgid <= 1 or pgid == os.getpgid(0):
        return
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
