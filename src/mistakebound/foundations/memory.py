"""How much memory the machine can still give, and the one check a search makes before it starts.

Every exact search estimates what it will need and calls :func:`require_memory`, which
raises :class:`~mistakebound.foundations.errors.InsufficientMemoryError` before anything
is allocated when the estimate exceeds :func:`available_memory`.

Examples
--------
>>> m = available_memory()
>>> m is None or m > 0
True
>>> format_bytes(3 * 2**20), format_bytes(5 * 2**30)
('3.0 MiB', '5.00 GiB')
>>> require_memory(1024, parameter="H", what="a tiny search")
>>> require_memory(2**80, parameter="max_nodes", what="a search of 10**20 nodes",
...                advice="lower max_nodes")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mistakebound.foundations.errors.InsufficientMemoryError: max_nodes: a search of 10**20 nodes needs about ... but only ... available; lower max_nodes
"""

from __future__ import annotations

import os

from mistakebound.foundations.errors import InsufficientMemoryError

__all__ = ["available_memory", "format_bytes", "require_memory"]


def available_memory() -> int | None:
    """Bytes a new allocation can still get, or ``None`` when unknown.

    ``MemAvailable`` of ``/proc/meminfo`` on Linux (free memory plus reclaimable
    caches: free pages alone would refuse searches that fit), else
    ``os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")``.
    """
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        pages, size = os.sysconf("SC_AVPHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return pages * size if pages > 0 and size > 0 else None


def format_bytes(n: int) -> str:
    """``n`` bytes as MiB below a GiB, else as GiB."""
    return f"{n / 2**20:,.1f} MiB" if n < 2**30 else f"{n / 2**30:,.2f} GiB"


def require_memory(needed: int, *, parameter: str, what: str, advice: str = "") -> None:
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

    Raises
    ------
    InsufficientMemoryError
        With ``needed`` and ``available`` set, when the machine reports less memory than
        ``needed``.  When the available memory cannot be read, nothing is refused.
    """
    available = available_memory()
    if available is not None and needed > available:
        tail = f"; {advice}" if advice else ""
        raise InsufficientMemoryError(
            f"{parameter}: {what} needs about {format_bytes(needed)}, but only {format_bytes(available)} "
            f"of memory is available{tail}",
            needed=int(needed), available=int(available),
        )
