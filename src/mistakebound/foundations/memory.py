"""How much memory the machine can still give, for searches that check before they start.

The exact searches (:class:`~mistakebound.theory.littlestone.LdimSearch`,
:func:`~mistakebound.theory.worst_case.worst_case_mistakes`) estimate what they will need and
raise :class:`~mistakebound.foundations.errors.InsufficientMemoryError` before allocating when the
estimate exceeds :func:`available_memory`.

Examples
--------
>>> m = available_memory()
>>> m is None or m > 0
True
>>> format_bytes(3 * 2**20), format_bytes(5 * 2**30)
('3.0 MiB', '5.00 GiB')
"""

from __future__ import annotations

import os

__all__ = ["available_memory", "format_bytes"]


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
