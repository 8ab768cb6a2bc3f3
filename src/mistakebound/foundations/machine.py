"""The machine a measurement ran on: CPU, memory, Python, numpy, date and load.

The benchmarks print and store it beside every number they measure, and so does the fault
campaign of the tests (``python -m tests.fault_campaign``): a figure means little without
the machine it came from.

Examples
--------
>>> sorted(machine())
['cpu', 'cpu_count', 'date', 'load_average', 'memory_gib', 'numpy', 'python', 'uname']
>>> memory_total() is None or memory_total() > 0
True
"""

from __future__ import annotations

import datetime
import os
import platform

import numpy as np

__all__ = ["machine", "memory_total"]


def memory_total() -> int | None:
    """The machine's memory in bytes (``MemTotal`` of ``/proc/meminfo``), ``None`` where it cannot be read."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _load_average() -> str | None:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except (AttributeError, OSError):
        return None


def machine() -> dict:
    """What the numbers were measured on, as a dict of JSON values.

    Returns
    -------
    dict
        ``cpu`` (model name), ``uname``, ``cpu_count``, ``memory_gib`` (``None`` if unknown),
        ``python`` and ``numpy`` versions, ``date`` (ISO, local time zone) and
        ``load_average`` (the three figures, ``None`` where the system has none).
    """
    u = platform.uname()
    total = memory_total()
    return {
        "cpu": _cpu_model(),
        "uname": f"{u.system} {u.release} {u.machine}",
        "cpu_count": os.cpu_count(),
        "memory_gib": None if total is None else round(total / 1024**3, 1),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "load_average": _load_average(),
    }
