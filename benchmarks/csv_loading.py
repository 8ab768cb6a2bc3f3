"""Reading class files: time and peak memory of ``load_class`` on large ``.csv`` files, beside ``.npy``.

Run from the repository root::

    python -m benchmarks.csv_loading            # files of about 288 MB, 3 runs each (a few minutes)
    python -m benchmarks.csv_loading --smoke    # files of about 3 MB, 1 run each (seconds)

Each file is written once into a temporary folder; each run loads it in a fresh Python
process, which reports the seconds ``load_class`` took and its peak resident memory
(``VmHWM`` of ``/proc/self/status``, Linux only; so the process's own start-up, about
60-90 MB with numpy, is included).  Medians of ``--repeats`` runs are printed with the
machine; nothing is asserted (benchmarks are not tests).

Layouts (rows x columns of 0/1, about ``--size-mb`` megabytes of CSV each):

- ``plain``: the matrix alone, ``0,1,...`` (what ``save_class(..., matrix_only=True)`` writes);
- ``named``: a header row and a name column (what ``save_class`` writes for a named class);
- ``tall``: 4 columns and millions of rows (the shape that cost 2.4 GB before);
- ``float``: pandas' float output, ``h1,1.0,0.0,...`` under a header;
- ``r``: R's ``write.csv``: every name and header cell quoted;
- ``spaces``: ``0, 1, ...`` (cells with spaces: read cell by cell, the slow path);
- ``npy``: the same matrix as ``plain``, as ``.npy``, read by ``load_class``, for comparison;
- ``np.load``: that ``.npy`` file read by ``numpy.load`` alone (no 0/1 check, no class): the floor.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

__all__ = ["LAYOUTS", "write_layout", "measure", "main"]

LAYOUTS = ("plain", "named", "tall", "float", "r", "spaces", "npy", "np.load")

_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from mistakebound.game.class_files import load_class
t1 = time.perf_counter()
if sys.argv[2:] == ["np.load"]:
    import numpy as np
    matrix = np.load(sys.argv[1])
else:
    matrix = load_class(sys.argv[1], max_bytes=None).matrix
t2 = time.perf_counter()
peak = 0
try:
    with open("/proc/self/status") as fh:
        peak = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:")) * 1024
except OSError:
    pass
print(json.dumps({"seconds": t2 - t1, "peak": peak, "shape": list(matrix.shape)}))
"""


def _grid(matrix: np.ndarray, width: int = 1, lead: bool = False) -> np.ndarray:
    """The rows of ``matrix`` as ``0,1,...\\n`` bytes (cells of ``width`` characters: ``0``, ``0.0``), one row each.

    With ``lead`` each cell has its comma before it (``,0,1...\\n``: for a name column)."""
    n, m = matrix.shape
    cell = width + 1
    text = np.full((n, m * cell + (1 if lead else 0)), ord(","), dtype=np.uint8)
    start = 1 if lead else 0
    text[:, start:start + m * cell:cell] = matrix + ord("0")
    if width == 3:  # "1.0"
        text[:, start + 1:start + m * cell:cell] = ord(".")
        text[:, start + 2:start + m * cell:cell] = ord("0")
    text[:, -1] = ord("\n")
    return text


def write_layout(layout: str, folder: Path, size_mb: float, seed: int = 0) -> Path:
    """Write one layout of about ``size_mb`` megabytes into ``folder`` and return its path."""
    rng = np.random.default_rng(seed)
    target = int(size_mb * 1e6)
    if layout == "tall":
        n, m = target // 8, 4
    elif layout == "float":
        side = int((target / 4) ** 0.5)
        n, m = side, side
    else:
        side = int((target / 2) ** 0.5)
        n, m = side, side
    matrix = rng.integers(0, 2, size=(n, m), dtype=np.uint8)
    path = folder / f"{layout}.{'npy' if layout in ('npy', 'np.load') else 'csv'}"
    if layout in ("npy", "np.load"):
        np.save(path, matrix)
    elif layout in ("plain", "tall"):
        path.write_bytes(_grid(matrix).tobytes())
    elif layout == "spaces":
        text = _grid(matrix).tobytes().replace(b",", b", ")
        path.write_bytes(text)
    else:
        width = 3 if layout == "float" else 1
        quote = '"' if layout == "r" else ""
        rows = _grid(matrix, width, lead=True)
        with open(path, "wb") as fh:
            fh.write((f"{quote}{quote}," + ",".join(f"{quote}x{j}{quote}" for j in range(m)) + "\n").encode())
            for i in range(n):
                fh.write(f"{quote}h{i}{quote}".encode() + rows[i].tobytes())
    return path


def measure(path: Path, repeats: int, src: str | None = None) -> dict:
    """Median seconds and peak bytes of ``load_class(path)`` over ``repeats`` fresh processes.

    ``src``: a folder to import ``mistakebound`` from instead (another checkout's ``src``)."""
    env = None if src is None else {**os.environ, "PYTHONPATH": src}
    runs = []
    for _ in range(repeats):
        raw = ["np.load"] if path.name == "np.load.npy" else []
        done = subprocess.run([sys.executable, "-c", _CHILD, str(path), *raw], capture_output=True, text=True, env=env)
        if done.returncode:
            raise RuntimeError(f"{path.name}: {done.stderr.strip().splitlines()[-1]}")
        runs.append(json.loads(done.stdout))
    return {
        "file_bytes": path.stat().st_size,
        "shape": runs[0]["shape"],
        "seconds": statistics.median(r["seconds"] for r in runs),
        "peak": statistics.median(r["peak"] for r in runs),
        "runs": runs,
    }


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    memory = ""
    try:
        with open("/proc/meminfo") as fh:
            memory = f", {int(next(l for l in fh if l.startswith('MemTotal')).split()[1]) / 2**20:.0f} GiB"
    except (OSError, StopIteration):
        pass
    return (f"{cpu}, {os.cpu_count()} CPUs{memory}, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, numpy {np.__version__}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.csv_loading", description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="files of about 3 MB, one run each")
    parser.add_argument("--size-mb", type=float, default=None, help="size of each CSV file (default 288, smoke 3)")
    parser.add_argument("--repeats", type=int, default=None, help="runs per file; the median is printed (default 3)")
    parser.add_argument("--only", default=None, help="comma-separated layouts (default all)")
    parser.add_argument("--json", default=None, help="also write the figures as JSON to this file")
    parser.add_argument("--src", default=None,
                        help="import mistakebound from this folder (another checkout's src/, to compare versions)")
    args = parser.parse_args(argv)
    size = args.size_mb or (3 if args.smoke else 288)
    repeats = args.repeats or (1 if args.smoke else 3)
    layouts = args.only.split(",") if args.only else list(LAYOUTS)
    print(f"machine: {_machine()}" + (f"; mistakebound from {args.src}" if args.src else ""))
    print(f"{'layout':8} {'file MB':>8} {'shape':>16} {'median s':>9} {'peak MiB':>9}")
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for layout in layouts:
            path = write_layout(layout, Path(folder), size)
            r = measure(path, repeats, args.src)
            results[layout] = r
            shape = "x".join(map(str, r["shape"]))
            print(f"{layout:8} {r['file_bytes'] / 1e6:8.1f} {shape:>16} {r['seconds']:9.2f} {r['peak'] / 2**20:9.0f}",
                  flush=True)
            path.unlink()
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": _machine(), "repeats": repeats, "results": results},
                                              indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
