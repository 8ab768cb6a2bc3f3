"""How much memory this process can still take, and the one check a search makes before it starts.

One memory budget for the whole process tree.  :func:`available_memory` is the smallest
of four limits, each read when it is called (:func:`memory_limits` lists them):

``"system"``
    ``MemAvailable`` of ``/proc/meminfo`` on Linux (free memory plus reclaimable
    caches: free pages alone would refuse searches that fit); elsewhere the free pages
    (``os.sysconf``).
``"cgroup"``
    The memory limit of this process's control group (containers, systemd slices,
    batch schedulers): cgroup v2 ``memory.max`` minus ``memory.current`` (under
    ``/sys/fs/cgroup``, or ``/sys/fs/cgroup/unified`` on a hybrid system), or cgroup v1
    ``memory.limit_in_bytes`` minus ``memory.usage_in_bytes``, with the inactive file
    cache (``inactive_file`` of ``memory.stat``, which the kernel reclaims before it
    kills) counted as free; the tightest over the group and its ancestors.
``"address space"``
    ``ulimit -v`` (the soft ``RLIMIT_AS``) minus this process's virtual size
    (``/proc/self/statm``): past it, every allocation fails with ``MemoryError``.
``"environment"``
    The environment variable ``MISTAKEBOUND_MEMORY_LIMIT`` (:data:`MEMORY_LIMIT_VARIABLE`):
    the bytes this process may hold in all, minus its resident size.  A process that
    starts workers gives each its share (:func:`memory_share`) through it, so the workers
    of a sweep or of a parallel search divide the budget instead of each taking a
    fraction of the whole machine.  Set it yourself to cap a run (``2G``, ``512M``,
    ``1.5G``, ``1048576``: the grammar of :func:`parse_size`, a positive whole or decimal
    number of bytes with an optional unit ``K``, ``M``, ``G``, ``T``, powers of 1024).
    Empty is the same as unset; any other value that is not a size (``0``, ``1e9``,
    ``abc``) is refused (:func:`environment_limit`): an
    :class:`~mistakebound.foundations.errors.InvalidArgumentError` naming the variable,
    which the command line reports before any work with exit code 2, never a run without
    the cap its user asked for.

A limit that is absent or cannot be read is left out; when none can be read,
:func:`available_memory` returns ``None`` and nothing is refused.

Every exact search estimates what it will need and calls :func:`require_memory`, which
raises :class:`~mistakebound.foundations.errors.InsufficientMemoryError` before anything
is allocated when the estimate exceeds :func:`available_memory`; the memos of the
searches take their default sizes from it (see :mod:`mistakebound.theory.search_protocol`).

Examples
--------
>>> m = available_memory()
>>> m is None or m >= 0
True
>>> sorted(memory_limits())
['address space', 'cgroup', 'environment', 'system']
>>> format_bytes(3 * 2**20), format_bytes(5 * 2**30)
('3.0 MiB', '5.00 GiB')
>>> parse_size("512M"), parse_size("2g"), parse_size("4096"), parse_size("1.5G")
(536870912, 2147483648, 4096, 1610612736)
>>> require_memory(1024, parameter="H", what="a tiny search")
>>> require_memory(2**80, parameter="max_nodes", what="a search of 10**20 nodes",
...                advice="lower max_nodes")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mistakebound.foundations.errors.InsufficientMemoryError: max_nodes: a search of 10**20 nodes needs about ... but only ... available...; lower max_nodes
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import EllipsisType

try:
    import resource
except ImportError:  # pragma: no cover - not Unix
    resource = None  # type: ignore[assignment]

# the size grammar and the variable live with the certificate checker, which reads the variable too
# and must import nothing of the package; this module takes them from there (one home for each)
from mistakebound.certificates.document import MEMORY_LIMIT_VARIABLE, parse_size
from mistakebound.foundations.errors import InsufficientMemoryError, InvalidArgumentError

__all__ = [
    "MEMORY_LIMIT_VARIABLE",
    "available_memory",
    "collection_paused",
    "environment_limit",
    "format_bytes",
    "memory_limits",
    "memory_share",
    "parse_size",
    "require_memory",
]

#: Where the control groups are mounted, and where this process's groups are listed.
CGROUP_ROOT = "/sys/fs/cgroup"
PROC_CGROUP = "/proc/self/cgroup"
PROC_STATM = "/proc/self/statm"
PROC_MEMINFO = "/proc/meminfo"

#: cgroup v1 writes "no limit" as a number near 2**63.
_NO_LIMIT = 1 << 60

def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def _page_size() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not Unix
        return 4096


def _statm(field: int) -> int | None:
    """Field ``field`` of ``/proc/self/statm`` in bytes (0: virtual size, 1: resident size)."""
    text = _read(PROC_STATM)
    try:
        return int(text.split()[field]) * _page_size()
    except (AttributeError, ValueError, IndexError):
        return None


def _system_available() -> int | None:
    """``MemAvailable``, else the free pages; None when unknown."""
    text = _read(PROC_MEMINFO)
    if text:
        for line in text.splitlines():
            if line.startswith("MemAvailable:"):
                try:
                    return int(line.split()[1]) * 1024
                except (ValueError, IndexError):
                    break
    try:
        pages, size = os.sysconf("SC_AVPHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return pages * size if pages > 0 and size > 0 else None


def _int_file(path: str) -> int | None:
    text = _read(path)
    if text is None:
        return None
    text = text.strip()
    if text == "max":
        return None
    try:
        value = int(text)
    except ValueError:
        return None
    return None if value >= _NO_LIMIT else value


def _inactive_file(directory: str, key: str) -> int:
    text = _read(os.path.join(directory, "memory.stat")) or ""
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key:
            try:
                return int(value)
            except ValueError:
                return 0
    return 0


def _ancestors(root: str, relative: str) -> list[str]:
    """The group's directory and its ancestors up to ``root`` (those that exist)."""
    parts = [p for p in relative.strip().split("/") if p and p not in (".", "..")]
    out = []
    for i in range(len(parts), -1, -1):
        d = os.path.join(root, *parts[:i])
        if os.path.isdir(d):
            out.append(d)
    return out


def _cgroup_available() -> int | None:
    """The tightest ``limit - (usage - inactive file cache)`` over this process's memory groups."""
    text = _read(PROC_CGROUP)
    if not text:
        return None
    best: int | None = None
    for line in text.splitlines():
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and controllers == "":  # cgroup v2 (under "unified" on a hybrid system)
            roots = (CGROUP_ROOT, os.path.join(CGROUP_ROOT, "unified"))
            files = ("memory.max", "memory.current", "inactive_file")
        elif "memory" in controllers.split(","):  # cgroup v1
            roots = (os.path.join(CGROUP_ROOT, "memory"),)
            files = ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file")
        else:
            continue
        for d in (d for root in roots for d in _ancestors(root, path)):
            limit = _int_file(os.path.join(d, files[0]))
            if limit is None:
                continue
            usage = _int_file(os.path.join(d, files[1]))
            used = 0 if usage is None else max(usage - _inactive_file(d, files[2]), 0)
            free = max(limit - used, 0)
            best = free if best is None else min(best, free)
    return best


def _address_space_available() -> int | None:
    """``ulimit -v`` (soft ``RLIMIT_AS``) minus this process's virtual size; None without a limit."""
    if resource is None:  # pragma: no cover - not Unix
        return None
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (OSError, ValueError):  # pragma: no cover
        return None
    if soft == resource.RLIM_INFINITY or soft < 0:
        return None
    size = _statm(0)
    return max(soft - (size or 0), 0)


def environment_limit() -> int | None:
    """The bytes :data:`MEMORY_LIMIT_VARIABLE` allows in all (None when it is unset or empty).

    Raises
    ------
    InvalidArgumentError
        For a value outside the grammar of :func:`parse_size`, naming the variable, the
        value and what is expected; the command line calls it before any command's work.

    Examples
    --------
    >>> import os
    >>> os.environ[MEMORY_LIMIT_VARIABLE] = "1e9"
    >>> environment_limit()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: MISTAKEBOUND_MEMORY_LIMIT: expected a size in bytes: ..., got '1e9'
    >>> os.environ[MEMORY_LIMIT_VARIABLE] = "1.5G"
    >>> environment_limit()
    1610612736
    >>> del os.environ[MEMORY_LIMIT_VARIABLE]
    """
    try:
        return parse_size(os.environ.get(MEMORY_LIMIT_VARIABLE))
    except ValueError as exc:
        raise InvalidArgumentError(f"{MEMORY_LIMIT_VARIABLE}: {exc}") from None


def _environment_available() -> int | None:
    """``MISTAKEBOUND_MEMORY_LIMIT`` minus this process's resident size; None when unset (refused when bad)."""
    limit = environment_limit()
    if limit is None:
        return None
    resident = _statm(1)
    return max(limit - (resident or 0), 0)


def memory_limits() -> dict[str, int | None]:
    """What each source says this process can still allocate, in bytes (None: no limit or unknown).

    The sources are described in the module docstring; :func:`available_memory` is the
    smallest of them.

    Examples
    --------
    >>> limits = memory_limits()
    >>> all(v is None or v >= 0 for v in limits.values())
    True
    """
    return {
        "system": _system_available(),
        "cgroup": _cgroup_available(),
        "address space": _address_space_available(),
        "environment": _environment_available(),
    }


def available_memory() -> int | None:
    """Bytes a new allocation can still get: the smallest of :func:`memory_limits`, or None when unknown.

    Examples
    --------
    >>> m = available_memory()
    >>> m is None or m >= 0
    True
    """
    known = [v for v in memory_limits().values() if v is not None]
    return max(min(known), 0) if known else None


def _binding(available: int) -> str:
    """The name of the limit that gives ``available`` ("" when none of them does)."""
    for name, value in memory_limits().items():
        if value is not None and max(value, 0) <= available:
            return name
    return ""


def memory_share(processes: int) -> int | None:
    """Each process's share when this one and ``processes - 1`` others divide the available memory.

    A process starting workers passes each its share through
    :data:`MEMORY_LIMIT_VARIABLE` (or an argument the worker puts there), so that
    :func:`available_memory` in the worker, and every default derived from it, stays
    within the share.  None when the available memory is unknown.

    Examples
    --------
    >>> s = memory_share(4)
    >>> s is None or 4 * s <= available_memory() + 4
    True
    """
    processes = max(int(processes), 1)
    available = available_memory()
    return None if available is None else available // processes


def format_bytes(n: int) -> str:
    """``n`` bytes as MiB below a GiB, else as GiB."""
    return f"{n / 2**20:,.1f} MiB" if n < 2**30 else f"{n / 2**30:,.2f} GiB"


_WHY = {
    "system": "",
    "cgroup": " (the control group's limit)",
    "address space": " (under ulimit -v)",
    "environment": f" (the {MEMORY_LIMIT_VARIABLE} budget)",
}


def require_memory(needed: int, *, parameter: str, what: str, advice: str = "",
                   available: int | None | EllipsisType = ...) -> None:
    """Refuse, before it starts, work estimated to need more memory than is available.

    Parameters
    ----------
    needed : int
        The estimated bytes.
    parameter : str
        The argument that makes the work this large (named first in the message).
    what : str
        The work, in words (``"a Littlestone search of 5000 x 30"``).
    advice : str
        What the user can do instead, appended to the message.
    available : int or None, optional
        :func:`available_memory` as the caller already read it (reading it walks the
        cgroup files: a caller that needs it twice reads it once); read now by default.

    Raises
    ------
    InsufficientMemoryError
        With ``needed`` and ``available`` set, when :func:`available_memory` is less
        than ``needed``; the message names the limit that binds.  When the available
        memory cannot be read, nothing is refused.
    """
    if available is ...:
        available = available_memory()
    if available is not None and needed > available:
        tail = f"; {advice}" if advice else ""
        raise InsufficientMemoryError(
            f"{parameter}: {what} needs about {format_bytes(needed)}, but only {format_bytes(available)} "
            f"of memory is available{_WHY.get(_binding(available), '')}{tail}",
            needed=int(needed), available=int(available),
        )


@contextmanager
def collection_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused within, as it was after: for a builder of many containers, none garbage.

    A tree of 2^13 leaves is some 16,000 dicts and a certificate's refutation as many lists
    (one per entry): every 700 of them start a collection that walks the young objects, and
    some walk the whole heap, which cost a third of building them.  Nothing built here is
    a cycle to collect; the collector runs again on leaving (unless it was off on entering).

    Yields
    ------
    None
        Within, :func:`gc.isenabled` is False.

    Examples
    --------
    >>> import gc
    >>> with collection_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
