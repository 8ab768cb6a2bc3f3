"""The compiled search's source builds with more than one compiler and gives the same answers.

``_ldim_kernel.c`` is compiled here, as a Python extension against the limited API of 3.11
(as ``setup.py`` builds it) with warnings as errors, by gcc with ``-DMB_PORTABLE`` (the plain
C bit counting and clock of ``_kernel_compat.h``, which no install on a GCC or clang machine
compiles otherwise) and without, and by a second compiler, clang: the one on the PATH, or
zig's (``python -m ziglang cc``: ``pip install ziglang``, not in the ``test`` extra).  Each built
module is imported in a child process (a crash there fails one test, not the run), must have
multi-phase initialisation (PEP 489: its ``PyInit`` returns a module definition), and must
give on a few classes exactly the installed kernel's answers (bounds, status, nodes: the
search is deterministic) and the textbook recursion's value where that is cheap.  The
compatibility shim alone is also compiled for Windows, macOS and Linux on musl, x86-64 and
arm64, by zig's cross-compiling clang (its Windows clock and builtins; MSVC's intrinsics are
compiled only by the Windows wheels' build, ``[tool.cibuildwheel]`` of pyproject.toml).

A compiler that is missing skips its builds, with the reason; nothing else does.
``.ci/sanitize`` runs these tests with the kernel built under AddressSanitizer and
UndefinedBehaviorSanitizer, and passes its flags in ``MB_KERNEL_BUILD_CFLAGS``.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from mistakebound.game import classes
from mistakebound.theory import ldim_kernel
from mistakebound.theory.textbook import textbook_ldim

if sys.platform == "win32":  # pragma: no cover - the command lines below are gcc's and clang's
    pytest.skip("builds with gcc/clang command lines; on Windows setup.py builds with MSVC", allow_module_level=True)

SOURCE = Path(__file__).parents[1] / "src" / "mistakebound" / "theory" / "_ldim_kernel.c"

#: The build's flags: setup.py's limited API, warnings as errors (but for the `self` that
#: every METH_VARARGS function takes and this one does not read), and extra flags from the
#: environment (.ci/sanitize's).
#: A free-threaded CPython has no limited API: there setup.py builds for the full one.
LIMITED_API = 0 if sysconfig.get_config_var("Py_GIL_DISABLED") else 0x030B0000
FLAGS = ["-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Werror",
         *([f"-DPy_LIMITED_API=0x{LIMITED_API:08X}"] if LIMITED_API else [])]
EXTRA_FLAGS_VARIABLE = "MB_KERNEL_BUILD_CFLAGS"


@functools.cache
def compiler(name: str) -> list[str] | None:
    """The command that runs the C compiler ``name`` ("gcc" or "clang"), or None when there is none."""
    if shutil.which(name):
        return [name]
    if name == "clang" and importlib.util.find_spec("ziglang") is not None:
        return [sys.executable, "-m", "ziglang", "cc"]  # zig's C compiler is clang
    return None


MISSING = {
    "gcc": "no gcc on the PATH: the kernel's build with gcc is not checked",
    "clang": "no clang: neither `clang` on the PATH nor the ziglang package (pip install ziglang: zig's clang)",
}


def build(name: str, portable: bool, folder: Path) -> Path:
    """Compiles the kernel with compiler ``name`` into ``folder``; returns the module's file."""
    command = compiler(name)
    if command is None:
        pytest.skip(MISSING[name])
    include = sysconfig.get_paths()["include"]
    suffix = ".abi3.so" if ".abi3.so" in importlib.machinery.EXTENSION_SUFFIXES else ".so"
    out = folder / f"_ldim_kernel{suffix}"
    args = [*command, *FLAGS, *shlex.split(os.environ.get(EXTRA_FLAGS_VARIABLE, ""))]
    if portable:
        args.append("-DMB_PORTABLE")
    if sys.platform == "darwin":  # an extension leaves Python's symbols to the interpreter that loads it
        args += ["-undefined", "dynamic_lookup"]
    args += [f"-I{include}", "-o", str(out), str(SOURCE)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    version = subprocess.run([*command, "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    assert done.returncode == 0, f"{shlex.join(args)} failed ({version}):\n{done.stdout}{done.stderr}"
    return out


#: What the child process runs: imports the built module (by path, under its own name),
#: checks that its PyInit returns a module definition (multi-phase initialisation; ctypes
#: takes the reference PyModuleDef_Init lends as its own, so one is added back), and answers
#: the cases.
CHILD = r"""
import ctypes, importlib.util, json, sys
path, cases = sys.argv[1], json.load(sys.stdin)
spec = importlib.util.spec_from_file_location("_ldim_kernel", path)
kernel = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernel)
init = ctypes.PyDLL(path).PyInit__ldim_kernel
init.restype = ctypes.py_object
definition = init()
ctypes.pythonapi.Py_IncRef(ctypes.py_object(definition))
answers = []
for hexed, n, m, max_nodes, time_limit, memo in cases:
    lower, upper, status, nodes, distinct, exc = kernel.ldim_bounds(bytes.fromhex(hexed), n, m, max_nodes, time_limit, memo)[:6]
    answers.append([lower, upper, status, nodes, distinct, repr(exc)])
print(json.dumps({"definition": type(definition).__name__, "portable": kernel.PORTABLE,
                  "limited_api": kernel.LIMITED_API, "answers": answers}))
"""


def answers_of(module: Path, cases: list[tuple]) -> dict:
    """What the module at ``module`` answers to ``cases``, asked in a child process."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(module)], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"the module built at {module} failed in its child process:\n{done.stderr}"
    return json.loads(done.stdout)


def as_case(matrix: np.ndarray, max_nodes: int = -1, time_limit: float = -1.0, memo: int = 1 << 24) -> tuple:
    m = np.ascontiguousarray(matrix, dtype=np.uint8)
    return (m.tobytes().hex(), m.shape[0], m.shape[1], max_nodes, time_limit, memo)


#: Classes whose value the textbook recursion gives in milliseconds; thresholds(70) and the
#: 100-row random class have more than 64 distinct rows (bitsets of two words).
SMALL = [classes.thresholds(15), classes.parities(4), classes.singletons(9),
         *(classes.random(24, 7, 0.4, seed=s) for s in range(4)), classes.random(100, 8, 0.5, seed=2)]
#: And larger ones, where the installed kernel (tested against the Python search) is the oracle.
LARGE = [classes.thresholds(255), classes.random(300, 12, 0.3, seed=1)]


@functools.cache
def textbook_values() -> list[int]:
    return [textbook_ldim(H.matrix) for H in SMALL]


def installed(case: tuple) -> list:
    """The installed kernel's answer to ``case``, as the child reports it."""
    answer = list(ldim_kernel._kernel.ldim_bounds(bytes.fromhex(case[0]), *case[1:])[:6])  # the memo's peak left out
    return answer[:-1] + [repr(answer[-1])]


def cases() -> list[tuple]:
    """Each class searched in full, with no memo, with a memo emptied again and again, and on a node budget."""
    out = []
    for H in SMALL + LARGE:
        out += [as_case(H.matrix), as_case(H.matrix, memo=0), as_case(H.matrix, memo=300),
                as_case(H.matrix, max_nodes=5)]
    return out


#: A search the clock must stop: about 2,000 nodes, with a time limit of 0 s (checked every 16 nodes).
CLOCKED = classes.random(2000, 30, 0.2, seed=3)


@pytest.mark.parametrize("name, portable", [("gcc", True), ("gcc", False), ("clang", True), ("clang", False)],
                         ids=["gcc-portable", "gcc", "clang-portable", "clang"])
def test_the_built_kernel_answers_as_the_installed_one(name, portable, tmp_path):
    assert ldim_kernel.AVAILABLE, "the installed package has no compiled search to compare with"
    module = build(name, portable, tmp_path)
    asked = cases()
    got = answers_of(module, asked + [as_case(CLOCKED.matrix, time_limit=0.0)])
    assert got["definition"] == "moduledef", "PyInit__ldim_kernel must return a module definition (PEP 489)"
    assert (got["portable"], got["limited_api"]) == (int(portable), LIMITED_API)
    *answers, clocked = got["answers"]
    for case, answer in zip(asked, answers, strict=True):
        assert answer == installed(case), f"{name}{' -DMB_PORTABLE' if portable else ''}: case {case[1:]}"
    full = answers[::4]  # the full searches, class by class
    assert [a[:3] for a in full[:len(SMALL)]] == [[v, v, 0] for v in textbook_values()]
    value = installed(as_case(CLOCKED.matrix))[0]
    lower, upper, status, nodes = clocked[:4]
    assert status == 1 and lower <= value <= upper and nodes < 100, f"the clock did not stop the search: {clocked}"


#: A probe of every part of _kernel_compat.h, compiled alone (without Python's headers, which
#: are this machine's) for other systems by zig's cross-compiling clang.
PROBE = """#include "_kernel_compat.h"
int mb_probe(uint64_t x);
int mb_probe(uint64_t x) { return MB_POPCOUNT64(x) + MB_CLZ64(x | 1) + (mb_now() > 0.0); }
"""


@pytest.mark.parametrize("target", ["x86_64-windows-gnu", "aarch64-windows-gnu", "x86_64-macos", "aarch64-macos",
                                    "aarch64-linux-musl", "x86_64-linux-musl"])
def test_the_compat_shim_compiles_for_other_systems(target, tmp_path):
    # Windows' QueryPerformanceCounter clock, macOS's and musl's (no function multi-versioning)
    if importlib.util.find_spec("ziglang") is None:
        pytest.skip("no ziglang package (pip install ziglang): zig's clang cross-compiles the shim")
    (tmp_path / "probe.c").write_text(PROBE)
    args = [sys.executable, "-m", "ziglang", "cc", "-target", target, "-c", "-O2", "-Wall", "-Wextra", "-Werror",
            f"-I{SOURCE.parent}", "-o", str(tmp_path / "probe.o"), str(tmp_path / "probe.c")]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{shlex.join(args)} failed:\n{done.stdout}{done.stderr}"


def test_the_installed_kernel_is_built_as_setup_py_says():
    # setup.py's limited API, and the builtins (MB_PORTABLE is the tests' alone); a kernel built
    # for the full API before (_ldim_kernel.cpython-3XX-*.so) is imported before the abi3 one
    assert ldim_kernel.AVAILABLE
    file = Path(ldim_kernel._kernel.__file__)
    assert LIMITED_API == 0 or ".cpython-" not in file.name, f"{file}, a full-API build, shadows the abi3 one: remove it"
    assert (ldim_kernel._kernel.PORTABLE, ldim_kernel._kernel.LIMITED_API) == (0, LIMITED_API)
