"""The memory a class's construction is estimated to need bounds what it takes, and not absurdly.

Every builder of a class (the zoo, the three file formats, ``from_matrix``) checks its
estimate with :func:`~mistakebound.foundations.memory.require_memory` before it allocates.
The property tested here: at each check, the memory already in use plus the estimate is
at least the peak the step then reaches (measured by ``tracemalloc``, which numpy reports
its arrays to), and at most three times that peak on small-to-medium sizes (the estimate
is a bound, not a guess).  Issue 27: ``random:100000,2000,...`` was estimated at 772 MiB
and allocated a 1.49 GiB float64 array; a JSON class file was parsed before any check.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np
import pytest

from mistakebound.foundations import memory

# how far above the measured peak an estimate may be (within this factor)
SLACK = 3.0


class Checks:
    """Records, at every :func:`require_memory`, the traced bytes in use plus the estimate."""

    def __init__(self, monkeypatch):
        self.bounds: list[int] = []
        self.unchecked = None  # the peak reached before the first check
        real = memory.require_memory

        def spy(needed, **kw):
            current, peak = tracemalloc.get_traced_memory()
            if self.unchecked is None:
                self.unchecked = peak
            self.bounds.append(current + int(needed))
            return real(needed, **kw)

        import mistakebound.foundations.json_format as json_format
        import mistakebound.game.class_files as class_files
        import mistakebound.game.hypothesis_class as hypothesis_class

        monkeypatch.setattr(memory, "require_memory", spy)
        for module in (hypothesis_class, class_files, json_format):
            if hasattr(module, "require_memory"):
                monkeypatch.setattr(module, "require_memory", spy)

    def measure(self, step) -> tuple[int, int]:
        """(the largest bound checked, the peak) of ``step()``."""
        tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            step()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert self.bounds, "the step checked no estimate"
        return max(self.bounds), peak


#: What a step may allocate before its first check (a file's header, the first block of a CSV file).
UNCHECKED = 4 * 2**20


def _assert_bounds(checks: Checks, step, what: str, slack: float | None = SLACK, unchecked: int = UNCHECKED) -> None:
    bound, peak = checks.measure(step)
    assert checks.unchecked <= unchecked, f"{what}: {checks.unchecked / 2**20:.1f} MiB taken before any check"
    assert bound >= peak, f"{what}: estimated {bound / 2**20:.1f} MiB, took {peak / 2**20:.1f} MiB"
    if slack is not None:
        assert bound <= slack * peak, f"{what}: estimated {bound / 2**20:.1f} MiB, took only {peak / 2**20:.1f} MiB"


SPECS = ["random:20000,300,0.5,1", "random:2000,3000,0.3,2", "random:300,20000,0.5,3", "thresholds:3000",
         "random:1000,1000,0.5,4", "parities:10", "monotone_disjunctions:10",  # a table of one block
         "intervals:90", "parities:11", "monotone_disjunctions:11", "monotone_conjunctions:11", "disjunctions:7",
         "singletons:3000", "projections:16", "one_vs_rest:400,5"]
#: Classes of many rows and few columns: the estimate counts what every class builds per row, at once or
#: later (a name, the groups of distinct rows), more than building the table takes; bounded below only.
NARROW = ["power_set:16", "k_sparse:40,3", "all_functions:10,4", "monotone_functions:12,3"]


@pytest.mark.parametrize("spec", SPECS + NARROW)
def test_a_zoo_class_takes_no_more_than_its_estimate(monkeypatch, spec):
    from mistakebound.game.classes import from_spec

    checks = Checks(monkeypatch)
    _assert_bounds(checks, lambda: from_spec(spec), spec, None if spec in NARROW else SLACK)


def _matrix(n, m, dtype="uint8", seed=0):
    return (np.random.default_rng(seed).random((n, m)) < 0.5).astype(dtype)


@pytest.mark.parametrize("dtype, shape, order", [
    ("uint8", (20000, 300), "C"), ("bool", (2000, 3000), "C"), ("float64", (20000, 300), "C"),
    ("int64", (2000, 3000), "C"), (">u2", (3000, 1000), "C"), ("uint8", (2000, 3000), "F"),
    ("float32", (2000, 3000), "F"),
])
def test_a_npy_file_takes_no_more_than_its_estimate(monkeypatch, tmp_path, dtype, shape, order):
    from mistakebound.game.class_files import load_class

    path = tmp_path / "m.npy"
    a = _matrix(*shape, dtype=dtype)
    np.save(path, np.asfortranarray(a) if order == "F" else a)
    del a
    checks = Checks(monkeypatch)
    _assert_bounds(checks, lambda: load_class(path, max_bytes=None), f"{dtype} {shape} {order}")


@pytest.mark.parametrize("shape, names", [((20000, 300), False), ((2000, 3000), True)])
def test_a_csv_file_takes_no_more_than_its_estimate(monkeypatch, tmp_path, shape, names):
    from mistakebound.game.class_files import load_class

    a = _matrix(*shape)
    path = tmp_path / "m.csv"
    lines = [",".join(["name"] * names + [f"x{j}" for j in range(shape[1])])] if names else []
    lines += [",".join([f"h{i}"] * names + list(map(str, row))) for i, row in enumerate(a.tolist())]
    path.write_text("\n".join(lines) + "\n")
    del a, lines
    checks = Checks(monkeypatch)
    _assert_bounds(checks, lambda: load_class(path, max_bytes=None), f"csv {shape}")


@pytest.mark.parametrize("shape", [(3000, 300), (300, 3000)])
def test_a_json_file_takes_no_more_than_its_estimate(monkeypatch, tmp_path, shape):
    from mistakebound.game.class_files import class_to_json, load_class
    from mistakebound.game.hypothesis_class import HypothesisClass

    path = tmp_path / "m.json"
    path.write_text(class_to_json(HypothesisClass.from_matrix(_matrix(*shape))))
    checks = Checks(monkeypatch)
    # checked before the file is read (its size is known): nothing of it in memory before the first check
    _assert_bounds(checks, lambda: load_class(path, max_bytes=None), f"json {shape}", unchecked=2**20)


@pytest.mark.parametrize("shape", [(3000, 300)])
def test_a_json_text_takes_no_more_than_its_estimate(monkeypatch, shape):
    """class_from_json of a text in memory (a user's): the parse is checked before it starts."""
    from mistakebound.game.class_files import class_from_json, class_to_json
    from mistakebound.game.hypothesis_class import HypothesisClass

    text = class_to_json(HypothesisClass.from_matrix(_matrix(*shape)))
    checks = Checks(monkeypatch)
    _assert_bounds(checks, lambda: class_from_json(text), f"json text {shape}")


@pytest.mark.parametrize("dtype", ["bool", "float64", "int8"])
def test_a_matrix_takes_no_more_than_its_estimate(monkeypatch, dtype):
    from mistakebound.game.hypothesis_class import HypothesisClass

    a = _matrix(3000, 2000, dtype=dtype)
    checks = Checks(monkeypatch)
    _assert_bounds(checks, lambda: HypothesisClass.from_matrix(a), f"from_matrix {dtype}")


CHILD = textwrap.dedent("""
    import sys
    from mistakebound.game.classes import from_spec

    def peak():  # VmHWM: this process's resident peak (ru_maxrss would count the parent's, before exec)
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmHWM:"))

    before = peak()
    try:
        from_spec(sys.argv[1])
    except MemoryError as exc:
        print("refused", type(exc).__name__, exc)
    else:
        print("built", peak() - before)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/status is Linux's")
def test_random_is_refused_under_a_limit_it_would_break_and_fits_one_it_was_estimated_for():
    """Issue 27: random:100000,2000 allocated a float64 table (1.49 GiB) after an estimate of 772 MiB.

    Here a smaller one, 20,000 x 2,000 (40 M entries): under a limit above its estimate it is
    built, and the child's resident peak stays under that limit."""
    import os

    from mistakebound.game.hypothesis_class import class_memory

    spec = "random:20000,2000,0.5,0"
    limit = class_memory(20000, 2000) + 96 * 2**20  # the estimate's table part and room for the interpreter
    env = {**os.environ, memory.MEMORY_LIMIT_VARIABLE: str(limit)}
    out = subprocess.run([sys.executable, "-c", CHILD, spec], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    word, *rest = out.stdout.split()
    if word == "built":
        assert int(rest[0]) <= limit
    else:
        assert word == "refused" and rest[0] == "InsufficientMemoryError"


FIGURE = textwrap.dedent("""
    import sys
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mistakebound.foundations import memory
    from mistakebound.interfaces import plots

    def peak():
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmHWM:"))

    estimates = []
    real = memory.require_memory
    def spy(needed, **kw):
        estimates.append(int(needed))
        return real(needed, **kw)
    plots.require_memory = spy
    w, h, dpi = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
    fig = plt.figure(figsize=(w, h))
    fig.add_subplot().plot([0, 1], [0, 1])
    fig.canvas.draw()  # what drawing at the figure's own dpi takes is not the file's
    before = peak()
    plots.save_figure(fig, sys.argv[4], dpi=dpi)
    print(max(estimates, default=0), peak() - before)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/status is Linux's")
@pytest.mark.parametrize("w, h, dpi", [(20, 10, 300), (10, 10, 900)])
def test_a_raster_figure_takes_no_more_than_its_estimate(tmp_path, w, h, dpi):
    """Issue 27: ``tree --width 100 --dpi 2400`` drew a 240,000-pixel-wide raster (4.9 GB, 73 s) unchecked."""
    out = subprocess.run([sys.executable, "-c", FIGURE, str(w), str(h), str(dpi), str(tmp_path / "f.png")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    estimate, grew = map(int, out.stdout.split())
    assert grew <= estimate <= SLACK * grew, (estimate, grew)
