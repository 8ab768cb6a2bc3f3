"""Reliability under faults (issue 13): hostile inputs to every command, and processes killed at random moments.

Measured, in five parts, all drawn from one seeded generator (``--seed``, default 13):

1. **Hostile inputs** (``--inputs N``, default 10,000): N argument lists for ``check``,
   ``ldim``, ``play``, ``worst-case``, ``tree``, ``plot``, ``sweep`` (hostile TOML configs
   written to a temporary folder) and random word lists, each run in-process through
   ``mistakebound.interfaces.cli.main(argv)`` with stdout and stderr captured and an
   alarm after ``--timeout`` seconds (default 20).  The inputs: class specs of absurd
   sizes and bad syntax; ``.npy`` files that are pickles, object arrays, 3-d, garbled,
   truncated, a link to ``/dev/zero``, or whose header claims a huge or negative shape;
   CSV files with a BOM, ``1.0000000000000001``, a 2 or a -1, ragged rows, words, NaN,
   NUL bytes, Latin-1 bytes, a FIFO, a symlink loop, control characters in the file name;
   numbers ``nan``, ``inf``, ``9`` * 5000, ``-1``, ``0x10``; misspelt or foreign player
   names; outputs that cannot be written (``/proc/x``, ``/sys/x``, under a regular file,
   a missing folder, a folder, a symlink loop, a wrong suffix, a name over 255 bytes).
   Searches always get ``--time-limit 2`` or a small ``--max-nodes``, so that a valid
   input finishes fast.  The calls run in a forked child process (address space capped at
   8 GiB) that reports each result on a pipe: a call that kills its process is counted
   as a crash and the next call runs in a new child; one the alarm cannot stop is killed
   40 s later (a hard hang).  Each argument list is *built bad* (it holds a part that
   must be refused), *valid*, or *unknown* (odd parts that may be valid).  Counted per
   call: the exit code; a *traceback* (``Traceback`` in what the call printed, in what
   its subprocesses printed on the inherited stdout/stderr, or an exception escaping
   ``main``); an *internal error* (the command line's ``internal error`` line: a bug
   caught, exit 1); a *hang* (the alarm rang); *exit 2 not one line* (exit 2 whose
   stderr is not exactly one non-empty line); *exit 1 for a bad input* (built bad, exit
   1); *bad input accepted* (built bad, exit 0 or 3); *raw control characters* (ESC, CR
   or BEL printed unescaped); *exit code not 0-3*; processes left behind by a call with
   ``--workers`` or a process pool (descendants still alive 3 s after it returned, but
   for the forkserver and resource tracker, which stay by design).  After the calls, the
   files: temporary files left, symlinks replaced, read-only files changed (as root a
   read-only file is writable, so writing one is not counted as a fault).
2. **Code from a config** (``--trust``, default ``max(8, N // 200)``; subprocess sweeps):
   configs naming ``os:abort``, ``this:s``, ``builtins:input``, ``os:system``,
   ``subprocess:Popen``, ``importlib:import_module``, ``sys:exit``, or a module beside the
   config that leaves a marker file when imported (``evilmod:Learner``, a class) or when
   its function runs (``evilmod:boom``), in turn (V) with an error elsewhere in the config,
   so validation must refuse it, (N) valid, run with ``--no-import``, (R) valid, run.
   Counted: *code ran during validation* (V) or *with --no-import* (N): the module's
   marker, the Zen of Python printed, a SIGABRT, or a hang (stdin is a pipe nobody writes
   to); *non-player code ran* (R: the same, but for the import of the user's module
   named by the config, which is by design and counted apart); crashes, hangs,
   tracebacks, and a wrong exit (V, N: not 2).
3. **Kill tests** (``--kills K``, default 60, in the ratio 2 : 1 : 1 : 1 of the kinds
   below).  An uninterrupted sweep and Ldim search are timed first; the kills land at
   uniform random moments inside them.  Every PID of each process tree is recorded while
   it runs (``/proc/*/stat`` parent links, polled every 20 ms); an *orphan* is one still
   alive 3 s after the main process ended (then killed).

   * *sweep main*: ``mistakebound sweep grid.toml --executor processes --workers 2 --out
     results.csv`` (144 cells, 48 of them with a learner sleeping 50 ms per round) killed
     with SIGKILL, SIGTERM or SIGINT in turn (to the main process), then resumed with the
     same command until it exits 0 (3 tries).  Counted: orphans; *torn rows* (a complete
     line of the results file that does not parse as a row of the sweep's columns; the
     results file is CSV, so "parses" means the right number of fields, each decoding;
     a torn *last* line after SIGKILL is expected, dropped on resume, and counted apart);
     after the resume, *rows lost* (a cell of the grid missing) and *duplicated* (a cell
     more than once); for SIGTERM/SIGINT also a wrong exit code (not 3), a stop slower
     than 3 s, a traceback on stderr.
   * *sweep worker*: the same sweep, one worker process (a leaf of the tree that is not
     the resource tracker or the forkserver) killed with SIGKILL mid-sweep.  Counted:
     cells recorded as failed (verdict ``infra`` or ``error``) beyond the one the dead
     worker ran, a wrong exit code (3 with an ``infra`` cell, else 0), orphans, torn
     rows, and after a resume rows lost/duplicated and cells still failed.
   * *ldim main*: ``mistakebound ldim random:20000,30,0.3,1 --workers 2 --time-limit 8``
     (Ldim 11, exact in 2-5 s here, then the VC search up to the 8 s limit) killed with
     SIGKILL, SIGTERM or SIGINT in turn, inside the whole command's time.
     Counted: orphans; for SIGTERM/SIGINT a wrong exit code (not 3), bounds lost (the
     search had started, ``|X| =`` printed, but no ``Ldim`` line), a stop over 3 s.
   * *ldim worker*: the same search, its worker killed with SIGKILL inside the Ldim
     search's time (the workers live only then).  Counted: a wrong
     exit code (not 3 with proven bounds, nor 0 with the exact value), bounds lost,
     orphans, tracebacks.
4. **Signals during start-up** (``--startup-kills``, default 20): SIGINT and SIGTERM in
   turn to ``mistakebound ldim thresholds:6`` (the console script) at a uniform moment in
   its first 0.6 s (imports included).  Counted: tracebacks, split into those of the
   interpreter's own start-up (``Fatal Python error: init_import_site``: the ``site``
   module and ``.pth`` files, before any code of the package runs) and the rest; deaths
   by the signal's default action before Python installed its handler (no output: not
   a fault); a wrong exit code (not 0 or 3, those two cases aside); orphans.
5. The summary: every figure, the machine (CPU, CPU count, memory, Python, numpy, date,
   load average), the seed and sizes, and up to 5 argument lists per kind of finding
   (with ``--json OUT``, all of it as JSON: every finding's whole argument list and the
   text of its config).

Run from the repository root (Linux: it reads ``/proc``)::

    python -m tests.fault_campaign                               # the full campaign: 8.5 min on 2 cores (11 loaded)
    python -m tests.fault_campaign --inputs 300 --kills 6        # a quick pass, about 70 s
    python -m tests.fault_campaign --json campaign.json --seed 13

Everything it starts runs in process groups of its own, killed at the end (and every
process seen in a tree); the temporary folder is deleted.  Nothing here asserts: the
exit code is 0 whatever was found (1 only if the campaign itself could not run).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import os
import pickle
import random
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from pathlib import Path

import numpy as np

from mistakebound.foundations.machine import machine
from mistakebound.interfaces.arguments import EXIT_BAD_INPUT, EXIT_BROKEN, EXIT_INTERRUPTED, EXIT_OK
from tests.processes import WITH_WORKER_PROCESSES, Server, session_members

__all__ = ["main", "hostile_cases", "run_inputs", "run_trust", "run_kills", "run_startup_kills", "run_file_kills", "headline"]

EXIT_CODES = {EXIT_OK, EXIT_BROKEN, EXIT_BAD_INPUT, EXIT_INTERRUPTED}
PY = sys.executable
EXAMPLES = 5  # argument lists kept per kind of finding in the printed summary

# --------------------------------------------------------------------------- vocabulary
GOOD_SPECS = ["thresholds:7", "intervals:4", "singletons:3,empty", "k_sparse:5,2", "power_set:3", "random:6,4,0.5,1",
              "monotone_disjunctions:2", "parities:2", "projections:3", "Thresholds(5)", "random:40,8,0.3,2"]
SPACES = ["experts:3", "halfspaces:d=2,R=2,gamma=0.05", "halfspaces:d=3,R=1,gamma=0.25", "halfspaces:d=2",
          "k_disjunctions:10,2", "oco:d=1,radius=1", "oco:d=2,radius=0.5"]
BAD_SPECS = ["thresholds:0", "thresholds:-1", "thresholds:1e400", "thresholds:x", "treshold:4", "thresholds:nan",
             "thresholds:inf", "thresholds:" + "9" * 5000, "parities:1000000000000", "k_sparse:200000,100000",
             "disjunctions:" + "9" * 200, "disjunctions:" + "9" * 4000, "random:1,1,nan,0", "random:10,10,inf,0",
             "random:-1,4,0.5,0", "random:100000000000,100000000000,0.5,0", "power_set:40", "", ":", "(",
             "thresholds(", "a/b", "x.txt", "experts:0", "experts:x", "experts:1e9", "halfspaces:d=0",
             "halfspaces:d=2,R=-1", "halfspaces:d=2,gamma=nan", "k_disjunctions:10**9,2", "oco:d=0",
             "oco:d=1,radius=-1", "thresholds:7\x00", "thresholds:\x1b[31m7", "Thresholds(n=-1)",
             "Thresholds(__import__('os'))", "intervals:" + "1" * 30, "singletons:3,empty,empty,x"]
#: Class files: (name, refused?).  Written by :func:`write_files`.
GOOD_FILES = ["good.npy", "good.csv", "bom.csv", "crlf.csv", "big_endian.npy", "bool.npy", "a\x1b[31mb.csv",
              "space name.csv", "ünï.csv"]
BAD_FILES = ["three_d.npy", "twos.npy", "objects.npy", "pickle.npy", "garbage.npy", "huge_shape.npy",
             "huge_rows.npy", "truncated.npy", "negative_shape.npy", "float_half.npy", "complex.npy", "ragged.csv",
             "words.csv", "empty.csv", "nan.csv", "almost_one.csv", "two.csv", "nul.csv", "latin1.csv",
             "minus.csv", "header_only.csv", "dir.npy", "missing.npy", "missing.csv", "loop.npy", "loop.csv",
             "fifo.csv", "zero.npy", "empty.npy", "bad\x07name\r.csv"]
#: Numbers for options taking an integer >= 1 (--rounds, --max-nodes) or >= 0 (--seed, --horizon): valid ones,
#: ones Python's int() reads though they look odd (not counted as bad), and invalid ones.
GOOD_NUMBERS = ["1", "2", "3", "5", "7", "12", "20", "30"]
ODD_NUMBERS = [" 3", "1_0", "+4", "٣"]
BAD_NUMBERS = ["-1", "1.5", "1e3", "nan", "inf", "-inf", "x", "", "0x10", "9" * 5000, "³", "\x00", "1e-400"]
HUGE_NUMBERS = ["99999999999999999999", "4294967296", "9223372036854775808"]
GOOD_LEARNERS = ["halving", "SOA", "consistent", "Perceptron", "ExpertsFromClass", "littlestone-experts",
                 "weighted-majority", "deterministic-weighted-majority", "winnow", "online-gradient-descent",
                 "follow-the-leader", "randomized-linear-classifier", "disjunction-elimination",
                 "OptimalRandomizedLearner", "Winnow(eta=0.1)", "mistakebound.learners:Halving"]
BAD_LEARNERS = ["halvng", "", "OppositeLabel", "Halving(x=1)", "Winnow(eta=nan)", "no_such_module:X", "os:path",
                "os:getcwd", ":", "a:", ":b", "..:x", "Halving(" + "(" * 200, "SOA\x1b[2J", "x" * 5000,
                "mistakebound.learners:Nope", "Halving()()", "Halving(eta=" + "9" * 5000 + ")"]
GOOD_ADVERSARIES = ["opposite-label", "ShatteredTreeWalker", "binary-search-threshold", "BasisVectorForcer",
                    "ObliviousCoin", "random-expert-losses", "split-advice", "heaviest-expert-loss",
                    "separable-stream", "midpoint-adversary", "disjunction-stream", "disjunction-adversary",
                    "alternating-losses", "minimax-adversary", "randomized-forcer", "ObliviousCoin(labels=coin)",
                    "mistakebound.adversaries:OppositeLabel"]
BAD_ADVERSARIES = ["oposite", "", "Halving", "ObliviousCoin(labels=never)", "ObliviousCoin(coin)", "os:getcwd",
                   "no_such_module:X", "..:x", "\x1b]0;title\x07"]
JUNK = ["--bogus", "-x", "extra", "--seed", "--rounds", "--out"]  # an error wherever they end a command
ODD_JUNK = ["--", "-q", "--tree"]  # valid for some commands
OUT_SUFFIXES = {"play": [".jsonl", ".ndjson"], "check": [".json"], "tree": [".png", ".svg", ".txt", ".pdf"],
                "plot": [".png", ".svg", ".pdf"], "sweep": [".csv"]}

# the sweep grids: a valid base and its hostile replacements, key by key
TOML_GOOD = {
    "learners": [["Halving"], ["Halving", "SOA"], ["Consistent", "SOA"], ["mistakebound.learners:Halving"]],
    "adversaries": [["OppositeLabel"], ["OppositeLabel", "BinarySearchThreshold"]],
    "classes": [["thresholds"], ["thresholds", "singletons"], ["k_sparse:{n},2"], ["FILE:good.npy"],
                ["FILE:bom.csv"], ["random:12,6,0.5,3"]],
    "sizes": [[3], [3, 4], [4, 5, 6]],
    "seeds": [[0], [0, 1]],
    "horizons": [[5], [8], [3, 10]],
}
#: Values that are odd but may be valid, or fail only when a cell runs (an import path is checked as text only):
#: not counted as bad input either way.
TOML_ODD = {
    "learners": ["Halving", ["no_such_module:X"], ["mistakebound.learners:Nope"], ["Halving(x=1)"]],
    "adversaries": ["OppositeLabel", ["no_such_module:Y"]],
    "classes": ["thresholds", ["thresholds", "thresholds"]],
    "sizes": [4, [3, 3], [10**18]],  # a huge size is refused only where a family takes it (not a class file)
    "seeds": [[2**70], [0, 0]],
    "horizons": [[5, 5]],
}
TOML_BAD = {
    "learners": [["halvng"], ["..:x"], [":"], ["a:"], [""], [5], [], ["x" * 5000], ["os:path"], ["Halving", None],
                 ["SOA\u202e"], [["Halving"]]],
    "adversaries": [["oposite"], [""], [], ["os:getcwd"], ["Halving"], [{"a": 1}]],
    "classes": [["treshold"], ["thresholds:{n}:{n}"], ["FILE:missing.npy"], ["FILE:pickle.npy"],
                ["FILE:almost_one.csv"], ["FILE:huge_shape.npy"], ["{n}"], ["thresholds:{m}"], ["../../etc/passwd"],
                ["FILE:fifo.csv"], ["parities:1000000000000"], []],
    "sizes": [[-1], [0], ["4"], [1.5], [float("nan")], [float("inf")], [], [True]],
    "seeds": [[-1], [1.5], ["x"]],
    "horizons": [[0], [-1], [float("nan")], ["5"], [1.5]],
}
STRUCTURAL = ["", "grid = 5", "[[grid]]", "[[grid]]\nlerners = ['Halving']", "[grid]\nlearners = ['Halving']",
              "\x00\x01\x02", "[[grid]]\nlearners = " + "[" * 50_000, "x = 1\nx = 2", "[[grid]]\nkind = 'vc'",
              "[[grid]]\nkind = 'search'\nsearch = 'ldim'\nclasses = ['thresholds']\nsizes = [3]\nmax_nodes = -1",
              "[[grid]]\nkind = 'search'\nsearch = 'ldim'\nclasses = ['thresholds']\nsizes = [3]\nmax_nodes = 'x'",
              "[[grid]]\nrealizable = 'yes'\nlearners = ['Halving']\nadversaries = ['OppositeLabel']\n"
              "classes = ['thresholds']\nsizes = [3]",
              "\ufeff[[grid]]\nlearners = ['Halving']", "a = '" + "x" * 100_000 + "'", "[[grid]]\n" * 5000]
TOML_SEARCHES = [  # valid searches, small budgets
    "[[grid]]\nkind = 'search'\nsearch = 'ldim'\nclasses = ['thresholds', 'singletons']\nsizes = [3, 5]\n"
    "max_nodes = 2000",
    "[[grid]]\nkind = 'search'\nsearch = 'worst_case'\nlearners = ['Halving']\nclasses = ['singletons']\n"
    "sizes = [3, 4]\nmax_nodes = 500",
    "[[grid]]\nkind = 'search'\nsearch = 'ldim'\nclasses = ['random:60,10,0.3,1']\nmax_nodes = 3",
]
#: A grid of 10^6 cells: valid, so it runs (a hang at the alarm); not drawn (it says nothing of faults and costs
#: --timeout seconds each), kept to try by hand.
TOML_HUGE = "[[grid]]\nlearners = ['Halving']\nadversaries = ['OppositeLabel']\nclasses = ['thresholds']\n" \
            "sizes = [{}]\nseeds = [{}]\nhorizons = [5]".format(", ".join(map(str, range(3, 1003))),
                                                            ", ".join(map(str, range(1000))))


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if v != v else ("inf" if v > 0 else "-inf") if v in (float("inf"), float("-inf")) else repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)  # a TOML basic string is a JSON string for these
    if v is None:
        return '"__none__"'  # TOML has no null: a string where a name goes
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + "}"
    return "[" + ", ".join(_toml_value(x) for x in v) + "]"


# --------------------------------------------------------------------------- files
def write_files(d: Path) -> None:
    """The class files, good and bad, output targets and the cwd of the in-process calls, in ``d``."""
    np.save(d / "good.npy", np.array([[0, 1, 1], [1, 0, 1], [0, 0, 0]], dtype=np.uint8))
    np.save(d / "big_endian.npy", np.array([[0, 1], [1, 1]], dtype=">u2"))
    np.save(d / "bool.npy", np.array([[True, False], [False, False]]))
    np.save(d / "three_d.npy", np.zeros((2, 2, 2)))
    np.save(d / "twos.npy", np.full((2, 2), 2))
    np.save(d / "objects.npy", np.array([[0, 1]], dtype=object), allow_pickle=True)
    np.save(d / "float_half.npy", np.array([[0.5, 1.0]]))
    np.save(d / "complex.npy", np.array([[0j, 1 + 0j]]))
    np.save(d / "empty.npy", np.zeros((0, 0), dtype=np.uint8))
    (d / "pickle.npy").write_bytes(pickle.dumps([[0, 1]]))
    (d / "garbage.npy").write_bytes(b"\x93NUMPY\x01\x00{'descr': '<f8', 'fortran_order': False, 'shape': (2,")

    def header(shape: str, descr: str = "|u1") -> bytes:
        text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}"
        text += " " * (63 - (10 + len(text)) % 64) + "\n"
        return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text.encode()

    (d / "huge_shape.npy").write_bytes(header("(100000000000, 100000000000)") + b"\x00" * 64)
    (d / "huge_rows.npy").write_bytes(header("(4611686018427387904, 2)") + b"\x00" * 64)
    (d / "negative_shape.npy").write_bytes(header("(-5, 3)") + b"\x00" * 64)
    (d / "truncated.npy").write_bytes(header("(1000, 1000)") + b"\x01" * 100)
    (d / "good.csv").write_text("0,1\n1,1\n")
    (d / "crlf.csv").write_bytes(b"0,1\r\n1,0\r\n")
    (d / "space name.csv").write_text("0,1\n1,1\n")
    (d / "ünï.csv").write_text("1,0\n0,0\n")
    (d / "ragged.csv").write_text("0,1\n1\n")
    (d / "words.csv").write_text("a,b\nc,d\n")
    (d / "empty.csv").write_text("")
    (d / "header_only.csv").write_text("x,y\n")
    (d / "nan.csv").write_text("nan,1\n")
    (d / "two.csv").write_text("0,1\n1,2\n")  # in the first row, 2 would make a header (documented)
    (d / "minus.csv").write_text("0,1\n1,-1\n")
    (d / "nul.csv").write_bytes(b"0,1\n1,\x001\n")
    (d / "latin1.csv").write_bytes(b"x\xe9,y\n0,1\n")
    (d / "bom.csv").write_bytes(b"\xef\xbb\xbf0,1\r\n1,1\r\n")
    (d / "almost_one.csv").write_text("0,1\n1.0000000000000001,1\n")
    (d / "a\x1b[31mb.csv").write_text("0,1\n1,1\n")
    (d / "bad\x07name\r.csv").write_text("0,x\n")
    (d / "dir.npy").mkdir()
    (d / "loop.npy").symlink_to("loop.npy")
    (d / "loop.csv").symlink_to("loop.csv")
    (d / "zero.npy").symlink_to("/dev/zero")
    os.mkfifo(d / "fifo.csv")
    (d / "out").mkdir()
    (d / "cwd").mkdir()
    (d / "configs").mkdir()
    (d / "not_results.csv").write_text("a,b\n1,2\n")
    for suffixes in OUT_SUFFIXES.values():
        for suffix in suffixes:
            for name, target in (("loop", None), ("link", f"out/target{suffix}")):
                p = d / f"{name}{suffix}"
                if not p.is_symlink():
                    p.symlink_to(target or p.name)
            ro = d / f"ro{suffix}"
            if not ro.exists():
                ro.write_text("keep")
                ro.chmod(0o444)


# --------------------------------------------------------------------------- the hostile argument lists
class Gen:
    """Draws hostile argument lists; each is a dict: command, argv, bad (built to be refused: True/False/None)."""

    def __init__(self, rng: random.Random, d: Path):
        self.rng, self.d, self.n = rng, d, 0
        self.bad = False

    def pick(self, good: list, bad: list, p_bad: float):
        if bad and self.rng.random() < p_bad:
            self.bad = True
            return self.rng.choice(bad)
        return self.rng.choice(good)

    def spec(self, spaces: bool = False, p_bad: float = 0.35) -> str:
        r = self.rng.random()
        if r < 0.25:
            f = self.pick(GOOD_FILES, BAD_FILES, 0.6)
            return str(self.d / f)
        if spaces and r < 0.45:
            return self.rng.choice(SPACES)
        return self.pick(GOOD_SPECS, BAD_SPECS, p_bad)

    def number(self, p_bad: float = 0.3, huge: bool = False, zero: bool = False) -> str:
        """An integer option's value: ``zero`` if 0 is valid (a seed, a horizon), else >= 1 is."""
        r = self.rng.random()
        if huge and r < 0.05:
            return self.rng.choice(HUGE_NUMBERS)
        if r < 0.1:
            return self.rng.choice(ODD_NUMBERS + (["0", "-0"] if zero else []))
        return self.pick(GOOD_NUMBERS, BAD_NUMBERS + ([] if zero else ["0", "-0"]), p_bad)

    def out(self, command: str, p_bad: float = 0.4) -> str:
        suffixes = OUT_SUFFIXES[command]
        self.n += 1
        suffix = self.rng.choice(suffixes)
        good = [str(self.d / "out" / f"o{self.n}{suffix}"), str(self.d / f"link{suffix}"),
                str(self.d / f"ro{suffix}"),  # root can write a read-only file: not counted as bad
                str(self.d / "out" / f"g\x1b]0;t\x07\r{self.n}{suffix}")]
        bad = [f"/proc/x{suffix}", f"/proc/self/x{suffix}", str(self.d / "good.npy" / f"x{suffix}"),
               str(self.d / "nodir" / f"x{suffix}"), str(self.d / "out"), str(self.d / f"loop{suffix}"),
               str(self.d / "out" / f"wrong{self.n}.exe"), "", f"/sys/x{suffix}", str(self.d / "out" / ("n" * 300 + suffix))]
        return self.pick(good, bad, p_bad)

    def learner(self, p_bad: float = 0.25) -> str:
        return self.pick(GOOD_LEARNERS, BAD_LEARNERS, p_bad)

    def adversary(self, p_bad: float = 0.25) -> str:
        return self.pick(GOOD_ADVERSARIES, BAD_ADVERSARIES, p_bad)

    def junk(self, p: float = 0.08) -> list[str]:
        r = self.rng.random()
        if r < p / 2:
            self.bad = True
            return [self.rng.choice(JUNK)]
        if r < p:
            if self.bad is False:
                self.bad = None  # maybe valid, maybe not: not counted either way
            return [self.rng.choice(ODD_JUNK)]
        return []

    # -- commands
    def ldim(self) -> list[str]:
        argv = ["ldim", self.spec()]
        if self.rng.random() < 0.3:
            argv += ["--max-nodes", self.number(0.4, huge=True)]
        if self.rng.random() < 0.15:
            argv += ["--workers", self.pick(["1", "2"], ["0", "257", "10**9", "x", "-2", "nan"], 0.5)]
        if self.rng.random() < 0.2:
            argv += ["--tree"]
        argv += ["--time-limit", "2"]
        if self.rng.random() < 0.1:  # a hostile limit after ours: the last one counts
            argv += ["--time-limit", self.pick(["0.5"], ["0", "-1", "nan", "inf", "x", "1e-400"], 0.9)]
        return argv + self.junk()

    def play(self) -> list[str]:
        argv = ["play", self.learner(), self.adversary(), self.spec(spaces=True)]
        if self.rng.random() < 0.6:
            argv += ["--rounds", self.number(0.35)]
        else:
            argv += ["--rounds", "20"]
        if self.rng.random() < 0.3:
            argv += ["--seed", self.number(0.3, huge=True, zero=True)]
        if self.rng.random() < 0.3:
            argv += ["--out", self.out("play")]
            if self.rng.random() < 0.3:
                argv += ["--stream"]
        elif self.rng.random() < 0.05:
            argv += ["--stream"]  # without --out
        if self.rng.random() < 0.2:
            argv += ["--unrealizable"]
        if self.rng.random() < 0.6:
            argv += ["-q"]
        return argv + self.junk()

    def worst_case(self) -> list[str]:
        argv = ["worst-case", self.learner(), self.spec()]
        if self.rng.random() < 0.5:
            argv += ["--horizon", self.number(0.3, zero=True)]
        if self.rng.random() < 0.4:
            argv += ["--max-nodes", self.pick(["200", "2000"], BAD_NUMBERS, 0.3)]
        return argv + ["--time-limit", "2"] + self.junk()

    def tree(self) -> list[str]:
        argv = ["tree", self.spec(), "--out", self.out("tree")]
        if self.rng.random() < 0.3:
            argv += ["--worst-case", self.learner(), "--horizon", self.pick(["3", "5"], BAD_NUMBERS, 0.2)]
        if self.rng.random() < 0.2:
            argv += ["--max-nodes", self.pick(["50", "500"], BAD_NUMBERS, 0.3)]
        return argv + ["--time-limit", "2"] + self.junk(0.04)

    def plot(self) -> list[str]:
        learners = ",".join(self.learner(0.15) for _ in range(self.rng.randint(1, 2)))
        argv = ["plot", self.spec(spaces=True), "--learners", learners, "--adversary", self.adversary(0.15),
                "--out", self.out("plot"), "--rounds", self.pick(["10", "20"], BAD_NUMBERS, 0.2)]
        if self.rng.random() < 0.2:
            argv += ["--unrealizable"]
        return argv + self.junk(0.04)

    def check(self) -> list[str]:
        r = self.rng.random()
        if r < 0.025:  # must be refused before the suite runs (the suite takes about 15 s)
            self.bad = True
            return ["check", "--json", self.rng.choice(["/proc/x.json", str(self.d / "nodir" / "c.json"),
                                                        str(self.d / "loop.json"), str(self.d / "out")])]
        if r < 0.03:
            self.n += 1
            return ["check", "--json", str(self.d / "out" / f"check{self.n}.json")]
        self.bad = True
        argv = ["check"]
        argv += self.rng.choice([["--seed", self.rng.choice(BAD_NUMBERS)], ["--json"], ["--seed"],
                                 ["--json", str(self.d / "out" / "c.txt")] + ["--bogus"], ["extra"], ["-x"],
                                 ["--seed", "1", "--seed", self.rng.choice(BAD_NUMBERS)]])
        return argv

    def sweep_config(self) -> str:
        r = self.rng.random()
        if r < 0.12:
            self.bad = self.bad or r < 0.11
            return self.rng.choice(STRUCTURAL) if r < 0.11 else self.rng.choice(TOML_SEARCHES)
        grid: dict = {}
        if self.rng.random() < 0.2:
            grid["kind"] = "game"
        for key in TOML_GOOD:
            if self.rng.random() < 0.03:
                value = self.rng.choice(TOML_ODD[key])
                if self.bad is False:
                    self.bad = None
            else:
                value = self.pick(TOML_GOOD[key], TOML_BAD[key], 0.06)
            if key == "classes" and isinstance(value, list):
                value = [str(self.d / v[5:]) if isinstance(v, str) and v.startswith("FILE:") else v for v in value]
            if key in ("seeds", "horizons", "adversaries") and self.rng.random() < 0.05 and not self.bad:
                continue  # optional keys left out (adversaries: a missing one is refused)
            grid[key] = value
        if "adversaries" not in grid:
            self.bad = True
        if self.rng.random() < 0.03:
            grid[self.rng.choice(["lerners", "size", "realisable", "\x1b"])] = [1]
            self.bad = True
        text = "[[grid]]\n" + "".join(f"{json.dumps(k)} = {_toml_value(v)}\n" for k, v in grid.items())
        if self.rng.random() < 0.1:
            text += self.rng.choice(TOML_SEARCHES).replace("[[grid]]\n", "\n[[grid]]\n", 1)
        return text

    def sweep(self) -> list[str]:
        self.n += 1
        config = self.d / "configs" / f"s{self.n}.toml"
        text = self.sweep_config()
        config.write_bytes(text.encode("utf-8", "surrogatepass"))
        self.config = text
        argv = ["sweep", str(config), "--no-progress"]
        if self.rng.random() < 0.03:
            argv[1] = self.rng.choice([str(self.d / "configs" / "missing.toml"), str(self.d / "configs"),
                                       str(self.d / "good.npy"), str(self.d / "fifo.csv")])
            self.bad = True
        if self.rng.random() < 0.015:
            argv += ["--executor", "processes", "--workers", "2"]
        else:
            argv += ["--executor", self.pick(["inprocess"], ["bogus", ""], 0.02)]
        if self.rng.random() < 0.5:
            argv += ["--out", self.pick([str(self.d / "out" / f"s{self.n}.csv"), str(self.d / "link.csv"),
                                         str(self.d / "out" / "shared.csv")],
                                        ["/proc/x.csv", str(self.d / "nodir" / "x.csv"), str(self.d / "loop.csv"),
                                         str(self.d / "out"), str(self.d / "out" / "x.jsonl"),
                                         str(self.d / "not_results.csv"), str(self.d / "good.npy" / "x.csv")], 0.35)]
        if self.rng.random() < 0.05:
            argv += ["--plot", self.pick([str(self.d / "out" / f"plots{self.n}")],
                                         ["/proc/x", str(self.d / "good.npy")], 0.5)]
        if self.rng.random() < 0.15:
            argv += ["--no-import"]
        if self.rng.random() < 0.05:
            argv += [self.rng.choice(["--workers", "--batch"]), self.rng.choice(BAD_NUMBERS)]
            self.bad = True
        return argv + self.junk(0.03)

    def words(self) -> list[str]:
        self.bad = None  # anything goes
        words = ["check", "ldim", "play", "worst-case", "tree", "plot", "sweep", "--help", "-h", "--version"] + JUNK \
            + ODD_JUNK
        argv = [self.rng.choice(words) if self.rng.random() < 0.7 else
                "".join(chr(self.rng.randrange(1, 0x3000)) for _ in range(self.rng.randint(0, 6)))
                for _ in range(self.rng.randint(0, 5))]
        if argv and argv[0] == "check" and not any(a.startswith("-") or a not in words for a in argv[1:]):
            argv.append("--bogus")  # a valid check takes 15 s: run as bad
        return argv

    COMMANDS = [("ldim", 20), ("play", 22), ("worst_case", 12), ("tree", 6), ("plot", 5), ("sweep", 20),
                ("check", 5), ("words", 10)]

    def draw(self) -> dict:
        self.bad, self.config = False, None
        names, weights = zip(*self.COMMANDS)
        name = self.rng.choices(names, weights)[0]
        argv = getattr(self, name)()
        if self.bad is not None and any(a in ("--help", "-h", "--version") for a in argv):
            self.bad = None
        case = {"command": name.replace("_", "-"), "argv": argv, "bad": self.bad}
        if self.config is not None:
            case["config"] = self.config[:3000]
        return case


def hostile_cases(n: int, seed: int, d: Path) -> list[dict]:
    """``n`` hostile argument lists (and their config files, written to ``d``), from ``seed``."""
    gen = Gen(random.Random(seed), d)
    return [gen.draw() for _ in range(n)]


# ============================================================================ issue 27, families 4 and 5 (begin)
# Memory estimates and limits, numbers and files that reached an internal error, safe output writing.
# In-process cases (drawn by Gen like the others, command "issue27"): numbers out of their documented ranges,
# class files holding numbers longer than int() reads, lone surrogates and CSV cells of huge exponents,
# MISTAKEBOUND_MEMORY_LIMIT values (set for the one call), an output over a set-uid file and through a link
# planted by another user in a sticky folder.  In subprocesses (part 6, run_memory_starts): the command
# started under ulimit -v values around its minimum and with bad MISTAKEBOUND_MEMORY_LIMIT values.
I27_BIG = str(10**30)
#: (argv, built bad?) with FILE:name for a file of I27_FILES and OUT:name for an output in d/out.
I27_NUMBERS = [
    (["play", "halving", "ObliviousCoin", "thresholds:7", "--rounds", I27_BIG, "-q"], True),
    (["play", "halving", "opposite-label", "thresholds:7", "--rounds", str(10**12 + 1), "-q"], True),
    (["tree", "thresholds:7", "--width", "1e308", "--out", "OUT:w.svg"], True),
    (["tree", "thresholds:7", "--width", "100000", "--out", "OUT:w.png"], True),
    (["tree", "thresholds:7", "--width", "nan", "--out", "OUT:w.svg"], True),
    (["tree", "thresholds:7", "--width", "100", "--out", "OUT:w.svg"], False),
    (["ldim", "thresholds:7", "--max-nodes", "9" * 5000], True),
    (["ldim", "thresholds:7", "--max-nodes", str(2**63)], True),
    (["ldim", "thresholds:7", "--max-nodes", str(2**63 - 1), "--time-limit", "2"], False),
    (["ldim", "thresholds:7", "--what", "rldim", "--horizon", I27_BIG], True),
    (["worst-case", "halving", "thresholds:7", "--horizon", "9" * 5000], True),
    (["tree", "thresholds:7", "--levels", I27_BIG, "--out", "OUT:l.svg"], True),
    (["play", "halving", "opposite-label", "thresholds:7", "--seed", str(2**128), "-q"], True),
    (["play", "halving", "opposite-label", "thresholds:7", "--seed", str(2**128 - 1), "-q"], False),
    (["play", "halving", "opposite-label", "thresholds:7", "--labels", "257", "-q"], True),
    (["play", "halving", "opposite-label", "thresholds:7", "--noise", I27_BIG, "-q"], True),
    (["ldim", "thresholds:7", "--time-limit", "1e308"], True),
    (["ldim", "thresholds:7", "--time-limit", "1e-400"], True),
]
I27_CLASS = '{"format":"mistakebound.class","version":%s,"name":%s,"names":%s,"domain":%s,"matrix":[[0,0],[1,0]]}'
#: Class files: name -> (text, built bad?).
I27_FILES = {
    "bigint27.json": (I27_CLASS % ("1", '"x"', '["a","b"]', "[1%s,2]" % ("0" * 5000)), True),
    "bigver27.json": (I27_CLASS % ("1" + "0" * 5000, '"x"', '["a","b"]', "[1,2]"), True),
    "surrogate27.json": (I27_CLASS % ("1", '"x\\ud800"', '["a\\udc00","b"]', '["\\udfff",2]'), False),
    "exponent27.csv": (",a,b\nh1,0e-999999999999999999999,1\nh2,1,0\n", False),
    "tiny27.csv": (",a,b\nh1,1e-999999999999999999999,1\nh2,1,0\n", True),
    "huge27.csv": (",a,b\nh1,1e999999999999999999999,1\nh2,1,0\n", True),
}
#: MISTAKEBOUND_MEMORY_LIMIT values: (value, built bad?).
I27_LIMITS = [("1.5G", False), ("2 GiB", False), ("", False), ("1e9", True), ("abc", True), ("0", True),
              ("-1", True), ("1.5.G", True), ("9" * 5000, True), ("1\x1bG", True)]
I27_PLANTED = "shared27/out27.jsonl"  # a link owned by user 65534 in a 1777 folder, to victim27.txt


def _i27_files(d: Path) -> None:
    """The class files, the shared folder with its planted link, and the victim (once)."""
    if (d / "victim27.txt").exists():
        return
    for name, (text, _) in I27_FILES.items():
        (d / name).write_text(text)
    (d / "victim27.txt").write_text("precious")
    shared = d / "shared27"
    shared.mkdir()
    shared.chmod(0o1777)
    link = d / I27_PLANTED
    link.symlink_to(d / "victim27.txt")
    with contextlib.suppress(OSError, AttributeError):
        os.lchown(link, 65534, 65534)  # as root: another user's link (otherwise ours, and followed)


def _i27_case(self) -> list[str]:
    """One case of issue 27's families 4 and 5 (sets self.bad, and self.env for a memory limit)."""
    _i27_files(self.d)
    self.n += 1
    r = self.rng.random()
    if r < 0.45:
        argv, self.bad = self.rng.choice(I27_NUMBERS)
    elif r < 0.65:
        name = self.rng.choice(sorted(I27_FILES))
        argv, self.bad = ["ldim", "FILE:" + name, "--time-limit", "2"], I27_FILES[name][1]
        if self.rng.random() < 0.3:
            argv = ["play", "halving", "opposite-label", "FILE:" + name, "-q", "--out", f"OUT:f{self.n}.jsonl"]
    elif r < 0.85:
        value, self.bad = self.rng.choice(I27_LIMITS)
        self.env = {"MISTAKEBOUND_MEMORY_LIMIT": value}
        argv = self.rng.choice([["play", "halving", "opposite-label", "thresholds:7", "-q"],
                                ["ldim", "thresholds:7", "--time-limit", "2"]])
    elif r < 0.93:
        out = self.d / "out" / f"setuid27_{self.n}.jsonl"
        out.write_text("old")
        out.chmod(0o4755)
        argv, self.bad = ["play", "halving", "opposite-label", "thresholds:3", "-q", "--out", str(out)], False
    else:
        planted = os.lstat(self.d / I27_PLANTED).st_uid != os.geteuid()
        argv = ["play", "halving", "opposite-label", "thresholds:3", "-q", "--out", str(self.d / I27_PLANTED)]
        self.bad = True if planted else None
    return [str(self.d / a[5:]) if a.startswith("FILE:") else str(self.d / "out" / a[4:]) if a.startswith("OUT:")
            else a for a in argv]


_i27_plain_draw = Gen.draw


def _i27_draw(self) -> dict:
    self.env = None
    case = _i27_plain_draw(self)
    if self.env is not None:
        case["env"] = self.env
    return case


Gen.issue27 = _i27_case
Gen.draw = _i27_draw
Gen.COMMANDS = Gen.COMMANDS + [("issue27", 8)]


@contextlib.contextmanager
def _i27_environment(case: dict):
    """The case's environment variables set for its call, and restored after it."""
    env = case.get("env") or {}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def i27_file_hygiene(d: Path) -> dict:
    """After the calls: set-uid bits kept on replaced outputs, the victim of the planted link changed."""
    kept = [p.name for p in (d / "out").glob("setuid27_*.jsonl") if p.stat().st_mode & 0o6000  # set-uid, set-gid
            and p.read_text() != "old"]
    victim = d / "victim27.txt"
    changed = victim.exists() and victim.read_text() != "precious"
    return {"set_id_bits_kept": len(kept), "planted_link_followed": int(changed), "examples": kept[:5]}


I27_ULIMITS = [20_000, 100_000, 150_000, 262_143, 262_144, 300_000, 400_000]
I27_START_COMMANDS = [["ldim", "thresholds:7"], ["play", "halving", "opposite-label", "thresholds:7", "-q"]]


def run_memory_starts(d: Path) -> dict:
    """Part 6 (issue 27): the console script under each ulimit -v of I27_ULIMITS and each bad memory limit."""
    script = str(Path(sys.executable).with_name("mistakebound"))
    runs = []
    env0 = {k: v for k, v in os.environ.items() if k != "MISTAKEBOUND_MEMORY_LIMIT"}
    cases = [(limit, None, argv) for limit in I27_ULIMITS for argv in I27_START_COMMANDS]
    cases += [(None, value, argv) for value, bad in I27_LIMITS if bad
              for argv in I27_START_COMMANDS]
    for limit, value, argv in cases:
        prefix = f"ulimit -v {limit}; " if limit else ""
        env = dict(env0, **({"MISTAKEBOUND_MEMORY_LIMIT": value} if value is not None else {}))
        try:
            done = subprocess.run(["/bin/sh", "-c", prefix + 'exec "$@"', "sh", script, *argv], capture_output=True,
                                  text=True, env=env, timeout=60, cwd=d / "cwd", start_new_session=True)
            code, err, hang = done.returncode, done.stderr, False
        except subprocess.TimeoutExpired as exc:
            code, err, hang = None, str(exc.stderr or ""), True
        lines = [line for line in err.splitlines() if line.strip()]
        must_refuse = value is not None or (limit is not None and limit < 262_144)
        runs.append({"ulimit_kib": limit, "limit": value, "argv": argv, "code": code, "hang": hang,
                     "traceback": "Traceback" in err, "internal_error": "internal error" in err,
                     "not_one_line": code == EXIT_BAD_INPUT and len(lines) != 1,
                     "wrong_exit": code not in ((EXIT_BAD_INPUT,) if must_refuse else (EXIT_OK, EXIT_BAD_INPUT,
                                                                                     EXIT_INTERRUPTED)),
                     "stderr": err[-200:]})
    counts = {"starts": len(runs), **{k: sum(bool(r[k]) for r in runs) for k in
                                      ("traceback", "internal_error", "not_one_line", "wrong_exit", "hang")},
              "clean_refusals": sum(r["code"] == EXIT_BAD_INPUT and len(r["stderr"].strip().splitlines()) == 1
                                    for r in runs)}
    return {"counts": counts, "findings": [r for r in runs if any(r[k] for k in (
        "traceback", "internal_error", "not_one_line", "wrong_exit", "hang"))], "runs": runs}
# ============================================================================ issue 27, families 4 and 5 (end)


# --------------------------------------------------------------------------- /proc
def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, pgid) of ``pid``, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1]), int(fields[2])


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            s = _stat(int(entry))
            if s is not None:
                children.setdefault(s[1], []).append(int(entry))
    return children


def tree(root: int) -> set[int]:
    """``root`` and its descendants now."""
    children, found, stack = _children_map(), set(), [root]
    while stack:
        pid = stack.pop()
        if pid not in found:
            found.add(pid)
            stack += children.get(pid, [])
    return found


def alive(pid: int) -> bool:
    s = _stat(pid)
    return s is not None and s[0] not in ("Z", "X")


def wait_gone(pids: set[int], seconds: float) -> set[int]:
    """The PIDs of ``pids`` still alive after ``seconds`` (returns early when none is)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return set()
        time.sleep(0.05)
    return {p for p in pids if alive(p)}


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\x00", b" ").decode(errors="replace")
    except OSError:
        return ""


def kill_all(pids) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


class Watcher:
    """Polls the process tree of ``root`` every 20 ms in a thread: every PID seen (with its command line)."""

    def __init__(self, root: int):
        self.root, self.seen, self._stop = root, {root: ""}, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for pid in tree(self.root):
                if pid not in self.seen or not self.seen[pid]:
                    self.seen[pid] = cmdline(pid)
            if not alive(self.root):
                return
            time.sleep(0.02)

    def workers(self) -> list[int]:
        """Live leaves of the tree but the root, the resource tracker and a forkserver: the worker processes.

        A forkserver is the root's child whose command line names it; the workers it forks carry the same
        command line one level further down.
        """
        now = tree(self.root)
        children = _children_map()

        def infrastructure(p: int) -> bool:
            line, s = cmdline(p), _stat(p)
            return "resource_tracker" in line or ("forkserver" in line and s is not None and s[1] == self.root)

        return sorted(p for p in now - {self.root} if alive(p) and not any(c in now for c in children.get(p, []))
                      and not infrastructure(p))

    def stop(self) -> set[int]:
        self._stop.set()
        self._thread.join(2)
        return set(self.seen)


# --------------------------------------------------------------------------- part 1: in-process calls
class Hang(BaseException):
    """The alarm rang: the call did not return in time (not an Exception, so ``except Exception`` lets it by)."""


def _call(argv: list[str], timeout: float, log_fd: int) -> dict:
    from mistakebound.interfaces import cli

    rang = [False]

    def ring(signum, frame):
        rang[0] = True
        raise Hang()

    out, err = io.StringIO(), io.StringIO()
    start = os.lseek(log_fd, 0, os.SEEK_END)
    escaped = None
    code = None
    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, timeout, 1.0)  # then once a second, until it returns
    t0 = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    except Hang:
        pass
    except BaseException as exc:  # noqa: BLE001 - escaping main is what is counted
        escaped = f"{type(exc).__name__}: {str(exc)[:200]} @ " + "".join(traceback.format_tb(exc.__traceback__)[-1:])[:300]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    seconds = time.perf_counter() - t0
    try:
        o, e = out.getvalue(), err.getvalue()
    except Exception:  # noqa: BLE001
        o, e = "", ""
    end = os.lseek(log_fd, 0, os.SEEK_END)
    leaked = ""
    if end > start:  # what subprocesses (or C code) wrote straight to the inherited stdout/stderr
        leaked = os.pread(log_fd, min(end - start, 20000), start).decode(errors="replace")
    lines = [line for line in e.splitlines() if line.strip()]
    return {
        "code": code if isinstance(code, int) else (None if code is None else repr(code)),
        "hang": rang[0], "escaped": escaped, "seconds": round(seconds, 3),
        "traceback": "Traceback" in o or "Traceback" in e or "Traceback" in leaked,
        "internal_error": "internal error" in e,
        "err_lines": len(lines), "err": e[-400:], "leaked": leaked[-400:],
        "raw_control": any(c in o + e for c in "\x1b\r\x07"),
    }


def _child_main(cases: list[dict], start: int, wfd: int, timeout: float, cwd: Path, log: Path) -> None:
    """Run ``cases[start:]`` in this (forked) process, one JSON line per call to ``wfd``."""
    try:
        os.setpgid(0, 0)
        limit = 8 * 2**30
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.chdir(cwd)
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        sys.stdin = open(os.devnull)
        log_fd = os.open(log, os.O_RDONLY)
        pipe = os.fdopen(wfd, "w", buffering=1)
        for i in range(start, len(cases)):
            with _i27_environment(cases[i]):  # issue 27: a case may set MISTAKEBOUND_MEMORY_LIMIT for its call
                result = _call(cases[i]["argv"], timeout, log_fd)
            result["i"] = i
            if cases[i]["command"] in ("ldim", "sweep") and any(a in ("--workers", "processes") for a in cases[i]["argv"]):
                me = os.getpid()
                # the forkserver and resource tracker of this process stay by design (started once, reused)
                kids = {p for p in tree(me) - {me} if not (_stat(p) and _stat(p)[1] == me and any(
                    s in cmdline(p) for s in ("forkserver", "resource_tracker")))}
                left = wait_gone(kids, 3) if kids else set()
                result["left_behind"] = len(left)
                kill_all(left)
            pipe.write(json.dumps(result) + "\n")
            pipe.flush()
        pipe.close()
        kill_all(tree(os.getpid()) - {os.getpid()})  # the forkserver and resource tracker of in-process searches
    except BaseException:  # noqa: BLE001
        with contextlib.suppress(Exception):
            os.write(2, traceback.format_exc().encode())
        os._exit(70)
    os._exit(0)


def run_inputs(cases: list[dict], timeout: float, d: Path, progress: bool = True) -> list[dict]:
    """Every case's result (see :func:`_call`), running them in forked children (a new one after a crash)."""
    results: list[dict | None] = [None] * len(cases)
    log = d / "child_output.log"
    i = 0
    t0 = time.monotonic()
    last_print = t0
    while i < len(cases):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            _child_main(cases, i, w, timeout, d / "cwd", log)
        os.close(w)
        buf = b""
        done_here = False
        while True:
            ready, _, _ = select.select([r], [], [], timeout + 40)
            if not ready:  # the alarm did not stop it: a hard hang
                results[i] = {"i": i, "code": None, "hang": True, "hard_hang": True, "escaped": None,
                              "traceback": False, "internal_error": False, "err_lines": 0, "err": "", "leaked": "",
                              "raw_control": False, "seconds": timeout + 40}
                with contextlib.suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)
                kill_all(tree(pid))
                os.waitpid(pid, 0)
                i += 1
                break
            chunk = os.read(r, 1 << 16)
            if not chunk:  # the child ended
                _, status = os.waitpid(pid, 0)
                kill_all(tree(pid) - {pid})
                with contextlib.suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)
                if i < len(cases):
                    how = (f"signal {signal.Signals(os.WTERMSIG(status)).name}" if os.WIFSIGNALED(status)
                           else f"exit {os.WEXITSTATUS(status)}")
                    results[i] = {"i": i, "code": None, "hang": False, "crash": how, "escaped": None,
                                  "traceback": False, "internal_error": False, "err_lines": 0, "err": "",
                                  "leaked": "", "raw_control": False, "seconds": None}
                    i += 1
                done_here = True
                break
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                res = json.loads(line)
                results[res["i"]] = res
                i = res["i"] + 1
            if progress and time.monotonic() - last_print > 30:
                last_print = time.monotonic()
                print(f"  inputs: {i}/{len(cases)} after {last_print - t0:.0f} s", flush=True)
        os.close(r)
        if not done_here and i >= len(cases):
            break
    return [r for r in results if r is not None]


# --------------------------------------------------------------------------- part 2: code from a config
EVIL = '''
import pathlib
pathlib.Path(__file__).with_name("evil.ran").write_text("imported")
from mistakebound.learners import Halving


class Learner(Halving):
    """A learner that is fine, in a module that leaves a marker when imported."""


def boom():
    pathlib.Path(__file__).with_name("evil.called").write_text("called")
'''
DANGEROUS = ["os:abort", "this:s", "builtins:input", "os:system", "subprocess:Popen", "evilmod:Learner",
             "evilmod:boom", "importlib:import_module", "sys:exit"]
ZEN = "Beautiful is better than ugly"


def run_trust(n: int, rng: random.Random, d: Path, timeout: float) -> list[dict]:
    """``n`` sweeps of configs naming code, in subprocesses (see the module docstring)."""
    results = []
    for k in range(n):
        mode = "VNR"[k % 3]
        name = rng.choice(DANGEROUS)
        role = rng.choice(["learners", "adversaries"])
        folder = d / f"trust{k}"
        folder.mkdir()
        (folder / "evilmod.py").write_text(EVIL)
        learners = ["Halving", name] if role == "learners" else ["Halving"]
        adversaries = ["OppositeLabel", name] if role == "adversaries" else ["OppositeLabel"]
        classes = ["treshold"] if mode == "V" else ["thresholds"]
        (folder / "grid.toml").write_text(
            f"[[grid]]\nlearners = {_toml_value(learners)}\nadversaries = {_toml_value(adversaries)}\n"
            f"classes = {_toml_value(classes)}\nsizes = [3, 4]\nhorizons = [5]\n")
        executor = rng.choice([["inprocess"], ["processes", "--workers", "2"]])
        argv = [PY, "-m", "mistakebound", "sweep", "grid.toml", "--no-progress", "--executor", *executor]
        if mode == "N":
            argv.append("--no-import")
        stdin_r, stdin_w = os.pipe()  # a terminal nobody types in: input() waits (communicate would close it)
        proc = subprocess.Popen(argv, cwd=folder, stdin=stdin_r, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        os.close(stdin_r)
        watch = Watcher(proc.pid)
        try:
            out, err, hang = communicate_or_kill_session(proc, timeout)
        finally:
            os.close(stdin_w)
        seen = watch.stop()
        kill_all(wait_gone(seen - {proc.pid}, 3))
        text = (out + err).decode(errors="replace")
        marker = (folder / "evil.ran").exists() or (folder / "evil.called").exists()
        ran = {"marker": marker, "zen": ZEN in text, "abort": proc.returncode == -signal.SIGABRT, "hang": hang}
        # run time may import a user's module named by the config (by design); it may never call a
        # function that is not a player class, nor import anything while validating
        code_ran = ran["zen"] or ran["abort"] or ran["hang"] or (folder / "evil.called").exists() or \
            (marker and mode in "VN")
        results.append({"mode": mode, "name": name, "role": role, "argv": argv[2:], "code": proc.returncode,
                        "ran": ran, "imported_at_run": mode == "R" and marker, "code_ran": bool(code_ran), "traceback": "Traceback" in text,
                        "exit_ok": (proc.returncode == EXIT_BAD_INPUT) if mode in "VN" else proc.returncode in (0, 1, 2),
                        "stderr": err.decode(errors="replace")[-300:], "config": (folder / "grid.toml").read_text()})
    return results


# --------------------------------------------------------------------------- part 3: kills
KILL_PLAYERS = '''
"""A slow learner for the kill tests: Halving that sleeps 50 ms per prediction."""
import time

from mistakebound.learners import Halving


class Slow(Halving):
    def predict_one(self, x):
        time.sleep(0.05)
        return super().predict_one(x)
'''
KILL_GRID = """
[[grid]]
learners = ["kill_players:Slow", "Halving", "SOA"]
adversaries = ["OppositeLabel", "BinarySearchThreshold"]
classes = ["thresholds", "singletons"]
sizes = [3, 4, 5, 6, 7, 8]
seeds = [0, 1]
horizons = [6]
"""
LDIM_CLASS = "random:20000,30,0.3,1"  # Ldim 11, exact in about 5 s with 2 processes here


def _sweep_argv() -> list[str]:
    return [PY, "-m", "mistakebound", "sweep", "grid.toml", "--executor", "processes", "--workers", "2",
            "--out", "results.csv", "--no-progress"]


def _check_rows(path: Path) -> dict:
    """Torn rows (complete lines that do not parse as a row) and the torn last line of a results file."""
    from mistakebound.interfaces.sweep.cells import FIELDS
    from mistakebound.interfaces.sweep.results import decode

    if not path.exists():
        return {"rows": 0, "torn": 0, "torn_last": False}
    data = path.read_bytes()
    torn_last = bool(data) and not data.endswith(b"\n")
    complete = data[: data.rfind(b"\n") + 1]
    torn = 0
    rows = 0
    try:
        parsed = list(csv.reader(io.StringIO(complete.decode("utf-8"), newline="")))
    except (UnicodeDecodeError, csv.Error):
        return {"rows": 0, "torn": 1, "torn_last": torn_last}
    for k, row in enumerate(parsed):
        if k == 0:
            torn += tuple(row) != FIELDS
            continue
        rows += 1
        try:
            if len(row) != len(FIELDS):
                raise ValueError
            for f, v in zip(FIELDS, row):
                decode(f, v)
        except ValueError:
            torn += 1
    return {"rows": rows, "torn": torn, "torn_last": torn_last}


def _final_check(folder: Path) -> dict:
    from mistakebound.interfaces.sweep import SweepConfig, read_records

    ids = [c.id for c in SweepConfig.from_toml((folder / "grid.toml").read_text()).cells()]
    records = read_records(folder / "results.csv") if (folder / "results.csv").exists() else []
    count = Counter(r["id"] for r in records)
    return {"lost": sum(1 for i in ids if count[i] == 0), "duplicated": sum(c - 1 for c in count.values() if c > 1),
            "failed": sum(1 for r in records if r["verdict"] in ("infra", "error")), "cells": len(ids)}


def _resume(folder: Path) -> dict:
    """Run the sweep again until it exits 0 (at most 3 times)."""
    codes = []
    for _ in range(3):
        proc = subprocess.Popen(_sweep_argv(), cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        watch = Watcher(proc.pid)
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        kill_all(wait_gone(watch.stop() - {proc.pid}, 3))
        codes.append(proc.returncode)
        if proc.returncode == 0:
            break
    return {"resume_codes": codes, "resume_traceback": b"Traceback" in out + err}


def _start(argv: list[str], folder: Path) -> tuple[subprocess.Popen, Watcher]:
    proc = subprocess.Popen(argv, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    return proc, Watcher(proc.pid)


def communicate_or_kill_session(proc: subprocess.Popen, timeout: float) -> tuple[bytes, bytes, bool]:
    """``proc``'s output, and whether it hung: past ``timeout`` its session (``start_new_session``) is killed."""
    try:
        out, err = proc.communicate(timeout=timeout)
        return out, err, False
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return out, err, True


def _end(proc: subprocess.Popen, watch: Watcher, timeout: float) -> dict:
    """Wait for ``proc``; then the orphans: PIDs of its tree still alive 3 s after it ended (then killed)."""
    t0 = time.monotonic()
    stopped = True
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stopped = False
        proc.kill()
        out, err = proc.communicate()
    stop_s = time.monotonic() - t0
    seen = watch.stop()
    left = wait_gone(seen - {proc.pid}, 3)
    orphans = {p: watch.seen.get(p, "")[:120] for p in left}
    kill_all(left)
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    return {"code": proc.returncode, "stopped": stopped, "stop_s": round(stop_s, 2), "orphans": len(orphans),
            "orphan_cmds": sorted(set(orphans.values())), "pids_seen": len(seen),
            "stdout": out.decode(errors="replace"), "stderr": err.decode(errors="replace")}


def _wait_workers(watch: Watcher, proc: subprocess.Popen, seconds: float, folder: Path | None = None,
                  at_least: int = 2) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        workers = watch.workers()
        if len(workers) >= at_least and (folder is None or _check_rows(folder / "results.csv")["rows"] >= 3):
            return workers
        time.sleep(0.03)
    return []


def kill_sweep_main(folder: Path, how: signal.Signals, rng: random.Random, span: float) -> dict:
    proc, watch = _start(_sweep_argv(), folder)
    delay = rng.uniform(0.3, max(0.6, 0.9 * span))
    time.sleep(delay)
    before_exit = proc.poll()
    with contextlib.suppress(OSError):
        os.kill(proc.pid, how)
    end = _end(proc, watch, 20)
    rows = _check_rows(folder / "results.csv")
    res = {"kind": "sweep-main", "signal": how.name, "delay_s": round(delay, 2), "finished_first": before_exit is not None,
           **{k: end[k] for k in ("code", "stopped", "stop_s", "orphans", "orphan_cmds", "pids_seen")},
           "rows_before_resume": rows["rows"], "torn": rows["torn"], "torn_last": rows["torn_last"],
           "traceback": "Traceback" in end["stderr"], "stderr_lines": len(end["stderr"].splitlines())}
    res.update(_resume(folder))
    res.update(_final_check(folder))
    if before_exit is None and how != signal.SIGKILL:
        res["ended_before_the_signal"] = ended_before_the_signal(end["code"], end["stdout"], rows["rows"],
                                                                 res["cells"])
        res["wrong_exit"] = not res["ended_before_the_signal"] and end["code"] != EXIT_INTERRUPTED
        res["slow_stop"] = end["stop_s"] > 3
    return res


def ended_before_the_signal(code: int, stdout: str, rows: int, cells: int) -> bool:
    """Whether a sweep that got a signal while its process was alive had already ended its command.

    The command line ignores a signal once the command has returned and the interpreter tears
    itself down (``startup._ignore_signals_at_exit``): the exit code is then the command's.  Exit 0
    is right only when the work was whole: every cell's row written and the summary's table printed.
    """
    return code == EXIT_OK and rows == cells and any(line.startswith("learner ") for line in stdout.splitlines())


def kill_sweep_worker(folder: Path, rng: random.Random, span: float) -> dict:
    proc, watch = _start(_sweep_argv(), folder)
    time.sleep(rng.uniform(0.0, 0.6 * span))
    workers = _wait_workers(watch, proc, 10, folder)
    victim = rng.choice(workers) if workers else None
    if victim is not None:
        with contextlib.suppress(OSError):
            os.kill(victim, signal.SIGKILL)
    end = _end(proc, watch, 120)
    rows = _check_rows(folder / "results.csv")
    first = _final_check(folder)
    from mistakebound.interfaces.sweep import read_records

    records = read_records(folder / "results.csv") if (folder / "results.csv").exists() else []
    infra = sum(r["verdict"] == "infra" for r in records)
    res = {"kind": "sweep-worker", "signal": "SIGKILL", "killed": victim is not None,
           "victim_cmd": watch.seen.get(victim, "")[:100] if victim else "",
           **{k: end[k] for k in ("code", "stopped", "stop_s", "orphans", "orphan_cmds", "pids_seen")},
           "torn": rows["torn"], "failed_first": first["failed"], "infra_first": infra,
           "failed_other": max(0, first["failed"] - 1), "traceback": "Traceback" in end["stderr"],
           "wrong_exit": end["code"] != (EXIT_INTERRUPTED if infra else EXIT_OK)}
    res.update(_resume(folder))
    final = _final_check(folder)
    res.update({"lost": final["lost"], "duplicated": final["duplicated"], "still_failed": final["failed"],
                "cells": final["cells"]})
    return res


def _bounds_printed(stdout: str) -> bool:
    return "Ldim =" in stdout or "<= Ldim <=" in stdout


def _ldim_argv(processes: bool = False) -> list[str]:
    """``ldim --workers 2``: the compiled search's two threads, or (``processes``) the Python search's worker process."""
    entry = ["-c", WITH_WORKER_PROCESSES] if processes else ["-m", "mistakebound"]
    return [PY, *entry, "ldim", LDIM_CLASS, "--workers", "2", "--time-limit", "8"]


def kill_ldim(folder: Path, how: signal.Signals | None, rng: random.Random, span: float, whole: float) -> dict:
    """Kill the main process (``how``) inside the whole command's ``whole`` seconds, or its worker (``how`` None)
    inside the Ldim search's ``span`` seconds (the workers live only then)."""
    proc, watch = _start(_ldim_argv(processes=how is None), folder)  # threads have no process to kill
    victim = None
    if how is None:  # a worker
        time.sleep(rng.uniform(0.0, max(0.3, 0.6 * span)))
        workers = _wait_workers(watch, proc, 10, at_least=1)  # --workers 2: this process and one worker
        victim = rng.choice(workers) if workers else None
        if victim is not None:
            with contextlib.suppress(OSError):
                os.kill(victim, signal.SIGKILL)
        end = _end(proc, watch, 120)
    else:
        delay = rng.uniform(0.2, max(0.5, 0.9 * whole))
        time.sleep(delay)
        finished_first = proc.poll() is not None
        with contextlib.suppress(OSError):
            os.kill(proc.pid, how)
        end = _end(proc, watch, 20)
    res = {"kind": "ldim-worker" if how is None else "ldim-main", "signal": (how or signal.SIGKILL).name,
           **{k: end[k] for k in ("code", "stopped", "stop_s", "orphans", "orphan_cmds", "pids_seen")},
           "traceback": "Traceback" in end["stderr"], "bounds": _bounds_printed(end["stdout"]),
           "search_started": "|X| =" in end["stdout"], "stderr": end["stderr"][-300:], "stdout": end["stdout"][-300:]}
    if how is None:
        res["killed"] = victim is not None
        res["victim_cmd"] = watch.seen.get(victim, "")[:100] if victim else ""
        ok = (end["code"] == EXIT_INTERRUPTED and res["bounds"]) or (end["code"] == EXIT_OK and "Ldim =" in end["stdout"])
        res["wrong_exit"] = end["code"] not in (EXIT_OK, EXIT_INTERRUPTED)
        res["bounds_lost"] = victim is not None and not res["bounds"]
        res["ok"] = ok
    else:
        res["delay_s"] = round(delay, 2)
        res["finished_first"] = finished_first
        if how != signal.SIGKILL and not finished_first:
            res["wrong_exit"] = end["code"] != EXIT_INTERRUPTED
            res["bounds_lost"] = res["search_started"] and not res["bounds"]  # before it: nothing proven yet
            res["slow_stop"] = end["stop_s"] > 3
    return res


def kill_startup(folder: Path, how: signal.Signals, rng: random.Random) -> dict:
    """Ctrl-C or SIGTERM in a command's first moments (imports included): exit 3 (or 0 if done), one line, no traceback."""
    argv = [str(Path(PY).with_name("mistakebound")), "ldim", "thresholds:6", "--time-limit", "2"]
    if not Path(argv[0]).exists():
        argv[:1] = [PY, "-m", "mistakebound"]
    proc, watch = _start(argv, folder)
    delay = rng.uniform(0.0, 0.6)
    time.sleep(delay)
    finished_first = proc.poll() is not None
    with contextlib.suppress(OSError):
        os.kill(proc.pid, how)
    end = _end(proc, watch, 20)
    err = end["stderr"] + end["stdout"]
    # where a traceback comes from: the interpreter's own start-up (site, .pth files: before any code of the
    # package runs), the package's imports before its guard is installed, or later
    site = "init_import_site" in err
    before_python = end["code"] == -how and not err.strip()  # the default action: Python had no handler yet
    return {"kind": "startup", "signal": how.name, "delay_s": round(delay, 3), "finished_first": finished_first,
            **{k: end[k] for k in ("code", "stopped", "stop_s", "orphans")},
            "traceback": "Traceback" in err, "traceback_in_interpreter_startup": "Traceback" in err and site,
            "traceback_in_package": "Traceback" in err and not site,
"died_before_python_handler": before_python,
            "wrong_exit": end["code"] not in (EXIT_OK, EXIT_INTERRUPTED) and not before_python and not site,
            "stderr_lines": len([x for x in end["stderr"].splitlines() if x.strip()]),
            "stderr": end["stderr"][-600:]}


def run_startup_kills(k: int, rng: random.Random, d: Path) -> list[dict]:
    results = []
    for j in range(k):
        folder = d / f"startup{j}"
        folder.mkdir()
        try:
            results.append(kill_startup(folder, (signal.SIGINT, signal.SIGTERM)[j % 2], rng))
        except Exception as exc:  # noqa: BLE001 - the campaign's own failure, reported
            results.append({"kind": "startup", "campaign_error": f"{type(exc).__name__}: {exc}"})
        shutil.rmtree(folder, ignore_errors=True)
    return results


def summarize_startup(results: list[dict]) -> dict:
    bad = [r for r in results if r.get("traceback") or r.get("wrong_exit") or r.get("orphans")
           or "campaign_error" in r]
    return {"counts": {"signals": len(results), "finished_before_the_signal": sum(bool(r.get("finished_first"))
                                                                                 for r in results),
                       "exit_codes": dict(Counter(str(r.get("code")) for r in results)),
                       "tracebacks": sum(bool(r.get("traceback")) for r in results),
                       "tracebacks_in_interpreter_startup": sum(bool(r.get("traceback_in_interpreter_startup"))
                                                                for r in results),
                       "tracebacks_in_package": sum(bool(r.get("traceback_in_package")) for r in results),
                       "killed_before_python_installed_a_handler": sum(bool(r.get("died_before_python_handler"))
                                                                       for r in results),
                       "wrong_exit": sum(bool(r.get("wrong_exit")) for r in results),
                       "more_than_one_line_without_traceback": sum(
                           r.get("stderr_lines", 0) > 1 and not r.get("traceback") for r in results),
                       "orphans": sum(r.get("orphans", 0) for r in results)},
            "findings": bad}


def _play_argv(out: str, rounds: int, stream: bool) -> list[str]:
    return [PY, "-m", "mistakebound", "play", "halving", "ObliviousCoin", "thresholds:64", "--unrealizable",
            "--rounds", str(rounds), "-q", "--out", out, *(["--stream"] if stream else [])]


PLAY_ROUNDS = 60_000


def _temporary(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in ("out.jsonl",) and p.is_file())


def kill_play_out(folder: Path, stream: bool, rng: random.Random, span: float) -> dict:
    """SIGKILL during ``play --out`` (``--stream`` in turn) over an existing file; then a short play to the same file."""
    out = folder / "out.jsonl"
    out.write_text('{"old": true}\n')
    proc, watch = _start(_play_argv("out.jsonl", PLAY_ROUNDS, stream), folder)
    delay = rng.uniform(0.3, max(0.6, 0.95 * span))
    time.sleep(delay)
    finished_first = proc.poll() is not None
    with contextlib.suppress(OSError):
        os.kill(proc.pid, signal.SIGKILL)
    end = _end(proc, watch, 20)
    left_after_kill = _temporary(folder)
    data = out.read_bytes() if out.exists() else b""
    lines = data.split(b"\n")
    torn_last = bool(lines and lines[-1])
    bad_lines = 0
    for line in lines[:-1]:
        try:
            json.loads(line)
        except ValueError:
            bad_lines += 1
    again = subprocess.run(_play_argv("out.jsonl", 5, False), cwd=folder, capture_output=True, timeout=60)
    left_after_rerun = _temporary(folder)
    return {"kind": "play-out", "signal": "SIGKILL", "stream": stream, "delay_s": round(delay, 2),
            "finished_first": finished_first, "code": end["code"], "orphans": end["orphans"],
            "old_file_kept": data == b'{"old": true}\n', "torn_lines": bad_lines, "torn_last": torn_last,
            "temporary_after_kill": len(left_after_kill), "temporary_after_rerun": len(left_after_rerun),
            "temporary_names": left_after_rerun[:3] or left_after_kill[:3], "rerun_code": again.returncode,
            "rerun_traceback": b"Traceback" in again.stderr}


def run_file_kills(k: int, rng: random.Random, d: Path) -> dict:
    folder = d / "play_calibrate"
    folder.mkdir()
    t0 = time.monotonic()
    subprocess.run(_play_argv("out.jsonl", PLAY_ROUNDS, False), cwd=folder, capture_output=True, timeout=300)
    span = time.monotonic() - t0
    shutil.rmtree(folder, ignore_errors=True)
    runs = []
    for j in range(k):
        folder = d / f"play{j}"
        folder.mkdir()
        try:
            runs.append(kill_play_out(folder, bool(j % 2), rng, span))
        except Exception as exc:  # noqa: BLE001 - the campaign's own failure, reported
            runs.append({"kind": "play-out", "campaign_error": f"{type(exc).__name__}: {exc}"})
        shutil.rmtree(folder, ignore_errors=True)
    counts = {"kills": len(runs), "finished_before_the_kill": sum(bool(r.get("finished_first")) for r in runs),
              "torn_lines": sum(r.get("torn_lines", 0) for r in runs),
              "torn_last_line": sum(bool(r.get("torn_last")) for r in runs),
              "torn_last_line_without_stream": sum(bool(r.get("torn_last")) and not r.get("stream") for r in runs),
              "temporary_files_after_kill": sum(r.get("temporary_after_kill", 0) for r in runs),
              "temporary_files_after_next_run": sum(r.get("temporary_after_rerun", 0) for r in runs),
              "orphans": sum(r.get("orphans", 0) for r in runs),
              "rerun_not_0": sum(r.get("rerun_code") != 0 for r in runs),
              "campaign_errors": sum("campaign_error" in r for r in runs)}
    return {"counts": counts, "span_s": round(span, 2), "runs": runs}


PATTERN = ["sweep-main", "sweep-main", "sweep-worker", "ldim-main", "ldim-worker"]
MAIN_SIGNALS = [signal.SIGKILL, signal.SIGTERM, signal.SIGINT]


def calibrate(d: Path) -> dict:
    """Seconds of an uninterrupted sweep and Ldim search here and now: the kills land inside them."""
    folder = d / "calibrate"
    folder.mkdir()
    (folder / "kill_players.py").write_text(KILL_PLAYERS)
    (folder / "grid.toml").write_text(KILL_GRID)
    out = {}
    for name, argv in (("sweep", _sweep_argv()), ("ldim", _ldim_argv())):
        proc, watch = _start(argv, folder)
        t0 = time.monotonic()
        end = _end(proc, watch, 120)
        out[name + "_s"] = round(time.monotonic() - t0, 2)
        out[name + "_code"] = end["code"]
        out[name + "_orphans"] = end["orphans"]
        if name == "ldim":
            import re

            found = re.search(r"found in ([0-9.]+) s", end["stderr"] + end["stdout"])
            out["ldim_search_s"] = float(found.group(1)) if found else out["ldim_s"]
            out["ldim_stdout"] = end["stdout"][-300:]
    # the Python search's worker processes live only while its Ldim search runs (then the VC search runs alone):
    # the worker kills land inside that
    proc, watch = _start(_ldim_argv(processes=True) + ["--what", "ldim"], folder)
    t0 = time.monotonic()
    end = _end(proc, watch, 120)
    out["ldim_workers_s"] = round(time.monotonic() - t0, 2)
    out.update({k: v for k, v in _final_check(folder).items() if k in ("lost", "duplicated", "failed", "cells")})
    shutil.rmtree(folder, ignore_errors=True)
    return out


def run_kills(k: int, rng: random.Random, d: Path, progress: bool = True, spans: dict | None = None) -> list[dict]:
    results = []
    turn: Counter = Counter()
    spans = spans or {"sweep_s": 3.0, "ldim_search_s": 4.0, "ldim_s": 9.0}
    for j in range(k):
        kind = PATTERN[j % len(PATTERN)]
        folder = d / f"kill{j}"
        folder.mkdir()
        (folder / "kill_players.py").write_text(KILL_PLAYERS)
        (folder / "grid.toml").write_text(KILL_GRID)
        t0 = time.monotonic()
        try:
            if kind == "sweep-main":
                res = kill_sweep_main(folder, MAIN_SIGNALS[turn[kind] % 3], rng, spans["sweep_s"])
            elif kind == "sweep-worker":
                res = kill_sweep_worker(folder, rng, spans["sweep_s"])
            elif kind == "ldim-main":
                res = kill_ldim(folder, MAIN_SIGNALS[turn[kind] % 3], rng, spans["ldim_search_s"], spans["ldim_s"])
            else:
                res = kill_ldim(folder, None, rng, spans.get("ldim_workers_s", spans["ldim_search_s"]), spans["ldim_s"])
        except Exception as exc:  # noqa: BLE001 - the campaign's own failure, reported
            res = {"kind": kind, "campaign_error": f"{type(exc).__name__}: {exc}"}
        turn[kind] += 1
        res["seconds"] = round(time.monotonic() - t0, 1)
        results.append(res)
        if progress:
            brief = {x: res.get(x) for x in ("signal", "code", "orphans", "lost", "duplicated", "torn",
                                              "failed_other", "wrong_exit", "bounds") if x in res}
            print(f"  kill {j + 1}/{k} {kind}: {brief} ({res['seconds']} s)", flush=True)
        shutil.rmtree(folder, ignore_errors=True)
    return results


# --------------------------------------------------------------------------- part 6 (issue 27, families 2 and 3): sweeps
# [issue 27 sweeps: begin]  A block of its own: sweeps that must refuse what they cannot finish, and leave nothing.
#
# Configuration cases (``--sweep-cases N``, drawn in turn from _sweep27_cases()): parameter typos of registered players,
# a grid of 72 million cells, sizes 1..20,000 and sizes=[20000] validated with their peak memory measured (GNU time;
# building the class of 20,000 takes 1.2 GB: a peak over SWEEP27_PEAK_MIB is counted), worker counts past the parser's and the machine's limits, scheduler addresses of a server
# that accepts and stays silent, of one that answers like an HTTP server, tls://, another scheme, no port, and a
# module:Class that cannot be imported where the sweep runs (exit 3, then a resume from a folder that holds it:
# exit 0, each row once).  Each runs as `python -m mistakebound sweep` in a session of its own with a private TMPDIR.
# Counted: a wrong exit code, exit 2 that is not one line, a traceback, a hang (over SWEEP27_TIMEOUT s), a refusal
# slower than SWEEP27_FAST s, rows lost or duplicated, processes of its session left 3 s after it ended, temporary
# folders left in its TMPDIR.
# Kills (``--sweep-kills K``, Dask and process-pool sweeps in turn): a sweep of players that start a `sleep 1000`
# (holding its stdout) and sleep 50 ms per prediction, killed with SIGKILL at a uniform moment of its first seconds,
# then resumed with the same command until it exits 0 (3 tries).  Counted: rows lost or duplicated after the resume,
# processes of the killed sweep's session still alive after the resume (its players' children: the next run ends
# them), temporary folders left in its TMPDIR after the resume, tracebacks.
SWEEP27_TIMEOUT = 60.0
SWEEP27_FAST = 20.0
SWEEP27_PEAK_MIB = 400
SWEEP27_PLAYERS = '''
"""Players for the issue-27 sweep cases: one starts a `sleep 1000` that holds the sweep's stdout, and is slow."""
import subprocess
import time

from mistakebound.learners import Halving

_STARTED = set()


class SlowSpawning(Halving):
    def predict_one(self, x):
        if id(self) not in _STARTED:
            _STARTED.add(id(self))
            subprocess.Popen(["sleep", "1000"])
        time.sleep(0.05)
        return super().predict_one(x)
'''
SWEEP27_BASE = {"learners": ["Halving"], "adversaries": ["OppositeLabel"], "classes": ["thresholds"], "sizes": [3, 4],
                "horizons": [5]}


def _sweep27_toml(**changes) -> str:
    grid = {**SWEEP27_BASE, **changes}
    return "[[grid]]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in grid.items())


def _sweep27_cases() -> list[dict]:
    """The configuration cases: (name, config, extra options, expected exit code, what stderr must say)."""
    from mistakebound.interfaces.sweep.executors import worker_limit

    limit = worker_limit("processes")[0]
    cases = [
        ("typo: Halving(foo=1)", _sweep27_toml(learners=["Halving(foo=1)"]), [], 2, "takes no parameter 'foo'"),
        ("typo: ObliviousCoin(labels=bogus)", _sweep27_toml(adversaries=["ObliviousCoin(labels=bogus)"]), [], 2,
         "'labels' must be in"),
        ("typo: ObliviousCoin(lables=coin)", _sweep27_toml(adversaries=["ObliviousCoin(lables=coin)"]), [], 2,
         "did you mean 'labels'"),
        ("typo: Winnow(eta=nan) and a bad name", _sweep27_toml(learners=["Winnow(eta=0.5)", "Halving(tie=2)"]), [], 2,
         "takes no parameter 'tie'"),
        ("grid: 72 million cells", _sweep27_toml(learners=["Halving", "SOA", "Consistent"],
                                                 adversaries=["OppositeLabel", "BinarySearchThreshold",
                                                              "ObliviousCoin"],
                                                 classes=["thresholds", "singletons"], sizes=list(range(3, 23)),
                                                 seeds=list(range(200_000))), [], 2, "72,000,000 cells"),
        ("grid: sizes 1..20000 and a typo at the end, peak memory measured", _sweep27_toml(classes=["thresholds", "treshold"],
                                                                      sizes=list(range(1, 20_001))), [], 2,
         "did you mean 'thresholds'"),
        ("grid: sizes=[20000], peak memory measured", _sweep27_toml(classes=["thresholds", "treshold"],
                                                                    sizes=[20_000]), [], 2, "treshold"),
        ("grid: --max-cells 1", _sweep27_toml(), ["--max-cells", "1"], 2, "limit of 1"),
        ("workers: 100000", _sweep27_toml(), ["--workers", "100000"], 2, "--workers"),
        ("workers: 1000 on dask", _sweep27_toml(), ["--workers", "1000", "--executor", "dask"], 2, "--workers"),
        ("scheduler: silent server", _sweep27_toml(), ["--scheduler", "SILENT"], 2, "sent nothing"),
        ("scheduler: HTTP server", _sweep27_toml(), ["--scheduler", "HTTP"], 2, "no dask scheduler"),
        ("scheduler: tls://", _sweep27_toml(), ["--scheduler", "tls://127.0.0.1:8786"], 2, "TLS"),
        ("scheduler: ucx://", _sweep27_toml(), ["--scheduler", "ucx://127.0.0.1:8786"], 2, "scheme"),
        ("scheduler: no port", _sweep27_toml(), ["--scheduler", "tcp://127.0.0.1"], 2, "no port"),
        ("scheduler: refused", _sweep27_toml(), ["--scheduler", "REFUSED"], 2, "cannot be reached"),
        ("import: module missing, then resumed", _sweep27_toml(learners=["Halving", "fc27_players:Late"]), [], 3,
         ""),
    ]
    if limit < 256:
        cases.append((f"workers: {limit + 1} (the machine's limit + 1)", _sweep27_toml(),
                      ["--workers", str(limit + 1), "--executor", "processes"], 2, f"at most {limit}"))
    return cases


def _end_session27(sid: int, seconds: float = 3.0) -> list[str]:
    """The command lines of session ``sid`` still alive ``seconds`` after it ended (then killed)."""
    deadline = time.monotonic() + seconds
    while session_members(sid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = session_members(sid)
    kill_all([p for p, _ in left])
    return [c[:80] for _, c in left]


def _run27(argv: list[str], folder: Path, env: dict, timeout: float) -> dict:
    """Run a sweep in a session of its own; its exit, output, time, a hang, and its session's processes left."""
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    out, err, hang = communicate_or_kill_session(proc, timeout)
    return {"code": proc.returncode, "stdout": out.decode(errors="replace"), "stderr": err.decode(errors="replace"),
            "seconds": round(time.monotonic() - t0, 2), "hang": hang, "left": _end_session27(proc.pid),
            "pid": proc.pid}


def _temporaries27(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir()) if tmp.exists() else []


def run_sweep27_cases(n: int, rng: random.Random, d: Path) -> list[dict]:
    """``n`` configuration cases, drawn in turn from :func:`_sweep27_cases` (in an order drawn from ``rng``)."""
    cases = _sweep27_cases()
    order = list(range(len(cases)))
    rng.shuffle(order)
    results = []
    for k in range(n):
        name, config, options, expected, says = cases[order[k % len(order)]]
        folder = d / f"sweep27_{k}"
        folder.mkdir()
        tmp = Path(tempfile.mkdtemp(prefix="fc27-", dir="/tmp"))
        env = {**os.environ, "TMPDIR": str(tmp)}
        (folder / "grid.toml").write_text(config)
        servers = []
        options = list(options)
        for i, o in enumerate(options):
            if o in ("SILENT", "HTTP"):
                servers.append(Server(None if o == "SILENT" else b"HTTP/1.1 400 Bad Request\r\n\r\n"))
                options[i] = servers[-1].address
            elif o == "REFUSED":
                import socket

                with socket.socket() as s:
                    s.bind(("127.0.0.1", 0))
                    options[i] = f"tcp://127.0.0.1:{s.getsockname()[1]}"
        argv = [PY, "-m", "mistakebound", "sweep", "grid.toml", "--no-progress", *options]
        measured = "peak memory" in name and os.path.exists("/usr/bin/time")
        try:
            run = _run27((["/usr/bin/time", "-f", "peak_kib=%M"] if measured else []) + argv, folder, env,
                         SWEEP27_TIMEOUT)
            lines = run["stderr"].splitlines()
            peak = None
            if measured and lines and lines[-1].startswith("peak_kib="):
                peak = int(lines.pop()[len("peak_kib="):]) // 1024
                lines = [line for line in lines if not line.startswith("Command exited")]
                run["stderr"] = "\n".join(lines)
            res = {"case": name, "code": run["code"], "seconds": run["seconds"], "hang": run["hang"],
                   "left": run["left"], "stderr": run["stderr"][-300:], "peak_mib": peak,
                   "heavy": peak is not None and peak > SWEEP27_PEAK_MIB}
            res["traceback"] = "Traceback" in run["stdout"] + run["stderr"]
            res["wrong_exit"] = run["code"] != expected
            res["not_one_line"] = expected == 2 and run["code"] == 2 and not (len(lines) == 1 and says in lines[0])
            res["slow"] = expected == 2 and run["seconds"] > SWEEP27_FAST
            res["rows_lost"] = res["rows_duplicated"] = 0
            if name.startswith("import:"):  # now from a folder that holds the module: every cell once, exit 0
                (folder / "fc27_players.py").write_text("from mistakebound.learners import Halving\n\n\n"
                                                        "class Late(Halving):\n    pass\n")
                again = _run27(argv, folder, env, SWEEP27_TIMEOUT)
                res["wrong_exit"] = res["wrong_exit"] or again["code"] != 0
                res["traceback"] = res["traceback"] or "Traceback" in again["stderr"]
                res["left"] += again["left"]
                from mistakebound.interfaces.sweep import SweepConfig, read_records

                ids = [c.id for c in SweepConfig.from_toml(config).cells()]
                count = Counter(r["id"] for r in read_records(folder / "grid.csv"))
                res["rows_lost"] = sum(1 for i in ids if count[i] == 0)
                res["rows_duplicated"] = sum(c - 1 for c in count.values() if c > 1)
            res["temporaries"] = _temporaries27(tmp)
        except Exception as exc:  # noqa: BLE001 - a fault of the campaign, reported
            res = {"case": name, "campaign_error": f"{type(exc).__name__}: {exc}"}
        finally:
            for server in servers:
                server.close()
            shutil.rmtree(tmp, ignore_errors=True)
        results.append(res)
    return results


def run_sweep27_kills(k: int, rng: random.Random, d: Path) -> list[dict]:
    """``k`` sweeps of players that start processes, killed with SIGKILL, then resumed (Dask and pool in turn)."""
    import importlib.util

    executors = ["dask", "processes"] if importlib.util.find_spec("distributed") else ["processes"]
    results = []
    spans: dict[str, float] = {}
    config = _sweep27_toml(learners=["fc27_spawning:SlowSpawning", "Halving"], sizes=[3, 4, 5, 6, 7, 8],
                           seeds=[0, 1, 2, 3, 4, 5], horizons=[8])
    for i in range(k):
        executor = executors[i % len(executors)]
        folder = d / f"sweep27_kill{i}"
        folder.mkdir()
        (folder / "fc27_spawning.py").write_text(SWEEP27_PLAYERS)
        (folder / "grid.toml").write_text(config)
        tmp = Path(tempfile.mkdtemp(prefix="fc27-", dir="/tmp"))
        env = {**os.environ, "TMPDIR": str(tmp)}
        argv = [PY, "-m", "mistakebound", "sweep", "grid.toml", "--no-progress", "--executor", executor,
                "--workers", "2"]
        res: dict = {"kind": "sweep27-kill", "executor": executor}
        if executor not in spans:  # an uninterrupted run first, timed: the kills land inside its time
            calibration = d / f"sweep27_calibrate_{executor}"
            shutil.copytree(folder, calibration)
            spans[executor] = _run27(argv, calibration, env, 120)["seconds"]
        try:
            with open(folder / "killed.log", "wb") as log:  # a file: its players' processes hold it after the kill
                proc = subprocess.Popen(argv, cwd=folder, env=env, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                                        start_new_session=True)
            delay = rng.uniform(0.5, max(1.0, 0.9 * spans[executor]))
            time.sleep(delay)
            finished_first = proc.poll() is not None
            with contextlib.suppress(OSError):
                os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
            time.sleep(1.0)  # its workers die with it; its players' processes stay, for the next run to end
            codes, traceback_seen = [], False
            for _ in range(3):
                again = _run27(argv, folder, env, 120)
                codes.append(again["code"])
                traceback_seen = traceback_seen or "Traceback" in again["stderr"]
                if again["code"] == 0:
                    break
            from mistakebound.interfaces.sweep import SweepConfig, read_records

            ids = [c.id for c in SweepConfig.from_toml(config).cells()]
            count = Counter(r["id"] for r in read_records(folder / "grid.csv")) if (folder / "grid.csv").exists() \
                else Counter()
            res.update(delay_s=round(delay, 2), span_s=spans[executor], finished_first=finished_first,
                       resume_codes=codes,
                       rows_lost=sum(1 for x in ids if count[x] == 0),
                       rows_duplicated=sum(c - 1 for c in count.values() if c > 1),
                       left_after_resume=_end_session27(proc.pid, 3.0), temporaries=_temporaries27(tmp),
                       traceback=traceback_seen, wrong_exit=codes[-1:] != [0])
        except Exception as exc:  # noqa: BLE001 - a fault of the campaign, reported
            res["campaign_error"] = f"{type(exc).__name__}: {exc}"
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        results.append(res)
    return results


def summarize_sweep27(cases: list[dict], kills: list[dict]) -> dict:
    """The table of part 6: inputs tried, clean refusals, and each finding (all but the first two are faults)."""
    refused = [r for r in cases if r.get("code") == 2]
    counts = {
        "inputs tried (config cases + kills)": len(cases) + len(kills),
        "clean refusals (exit 2, one line, fast)": sum(1 for r in refused if not r.get("not_one_line")
                                                       and not r.get("slow") and not r.get("wrong_exit")),
        "tracebacks": sum(1 for r in cases + kills if r.get("traceback")),
        "wrong exit codes": sum(1 for r in cases + kills if r.get("wrong_exit")),
        "exit 2 not one line (or not saying why)": sum(1 for r in cases if r.get("not_one_line")),
        "refusals slower than 20 s": sum(1 for r in cases if r.get("slow")),
        f"validations over {SWEEP27_PEAK_MIB} MiB": sum(1 for r in cases if r.get("heavy")),
        "hangs": sum(1 for r in cases if r.get("hang")),
        "data lost (rows lost / duplicated)": f"{sum(r.get('rows_lost', 0) for r in cases + kills)} / "
                                              f"{sum(r.get('rows_duplicated', 0) for r in cases + kills)}",
        "leftovers: processes": sum(len(r.get("left", [])) + len(r.get("left_after_resume", []))
                                    for r in cases + kills),
        "leftovers: temporary folders": sum(len(r.get("temporaries", [])) for r in cases + kills),
        "campaign errors": sum(1 for r in cases + kills if "campaign_error" in r),
    }
    findings = [r for r in cases + kills if r.get("traceback") or r.get("wrong_exit") or r.get("not_one_line")
                or r.get("slow") or r.get("heavy") or r.get("hang") or r.get("left") or r.get("left_after_resume")
                or r.get("temporaries") or r.get("rows_lost") or r.get("rows_duplicated") or "campaign_error" in r]
    return {"counts": counts, "findings": findings, "cases": cases, "kills": kills}


def headline27(report: dict) -> dict:
    """The part-6 lines of the headline (indented ones are faults: 0 expected)."""
    c = report["sweep27"]["counts"]
    return {
        "issue 27 sweep cases (configs, workers, schedulers, kills)": c["inputs tried (config cases + kills)"],
        "  sweeps: tracebacks / wrong exit codes / hangs": f"{c['tracebacks']} / {c['wrong exit codes']} / {c['hangs']}",
        "  sweeps: exit 2 not one line / refusals over 20 s / validations over 400 MiB":
            f"{c['exit 2 not one line (or not saying why)']} / {c['refusals slower than 20 s']} / "
            f"{c[f'validations over {SWEEP27_PEAK_MIB} MiB']}",
        "  sweeps: rows lost / duplicated": c["data lost (rows lost / duplicated)"],
        "  sweeps: processes / temporary folders left": f"{c['leftovers: processes']} / "
                                                         f"{c['leftovers: temporary folders']}",
        "  sweeps: campaign errors (a case that could not be run)": c["campaign errors"],
    }
# [issue 27 sweeps: end]


# --------------------------------------------------------------------------- the summary
def summarize_inputs(cases: list[dict], results: list[dict]) -> dict:
    by_i = {r["i"]: r for r in results}
    codes: Counter = Counter()
    by_command: dict[str, Counter] = {}
    findings: dict[str, list] = {k: [] for k in (
        "traceback", "escaped", "internal_error", "hang", "crash", "exit2_not_one_line", "exit1_for_bad_input",
        "bad_input_accepted", "raw_control", "exit_code_not_0_3", "left_behind")}
    seconds = []
    for i, case in enumerate(cases):
        r = by_i.get(i)
        if r is None:
            continue
        code = r.get("code")
        codes[str(code)] += 1
        by_command.setdefault(case["command"], Counter())[str(code)] += 1
        if r.get("seconds") is not None:
            seconds.append(r["seconds"])
        item = {"argv": case["argv"], "config": case.get("config"), "code": code, "err": (r.get("err") or "")[-200:],
                "escaped": r.get("escaped"), "leaked": (r.get("leaked") or "")[-200:], "crash": r.get("crash")}
        if r.get("traceback") or r.get("escaped"):
            findings["traceback"].append(item)
        if r.get("escaped"):
            findings["escaped"].append(item)
        if r.get("internal_error"):
            findings["internal_error"].append(item)
        if r.get("hang"):
            findings["hang"].append(item)
        if r.get("crash"):
            findings["crash"].append(item)
        if code == EXIT_BAD_INPUT and r.get("err_lines") != 1:
            findings["exit2_not_one_line"].append(item)
        if case["bad"] is True and code == EXIT_BROKEN:
            findings["exit1_for_bad_input"].append(item)
        if case["bad"] is True and code in (EXIT_OK, EXIT_INTERRUPTED):
            findings["bad_input_accepted"].append(item)
        if r.get("raw_control"):
            findings["raw_control"].append(item)
        if code is not None and code not in EXIT_CODES:
            findings["exit_code_not_0_3"].append(item)
        if r.get("left_behind"):
            findings["left_behind"].append(item)
    seconds.sort()
    return {"inputs": len(results), "exit_codes": dict(sorted(codes.items())),
            "by_command": {k: dict(sorted(v.items())) for k, v in sorted(by_command.items())},
            "built_bad": sum(c["bad"] is True for c in cases),
            "counts": {k: len(v) for k, v in findings.items()}, "findings": findings,
            "seconds_total": round(sum(seconds), 1),
            "seconds_median": seconds[len(seconds) // 2] if seconds else None,
            "seconds_max": seconds[-1] if seconds else None}


def file_hygiene(d: Path) -> dict:
    """After the in-process calls: temporary files left, symlinks replaced, read-only files changed."""
    temporary = [str(p.relative_to(d)) for p in d.rglob("*") if "tmp" in p.name.lower() and p.is_file()]
    replaced = [p.name for p in d.glob("link.*") if not p.is_symlink()]
    changed = []
    for p in d.glob("ro.*"):
        try:
            if p.read_text() != "keep" or (p.stat().st_mode & 0o777) != 0o444:
                changed.append(p.name)
        except OSError:
            changed.append(p.name)
    return {"temporary_files_left": len(temporary), "symlinks_replaced": len(replaced),
            "read_only_files_changed": len(changed), "examples": temporary[:5] + replaced[:5] + changed[:5]}


def summarize_trust(results: list[dict]) -> dict:
    counts = {
        "configs": len(results),
        "code_ran_during_validation": sum(r["code_ran"] for r in results if r["mode"] == "V"),
        "code_ran_with_no_import": sum(r["code_ran"] for r in results if r["mode"] == "N"),
        "non_player_code_ran": sum(r["code_ran"] for r in results if r["mode"] == "R"),
        "hangs": sum(r["ran"]["hang"] for r in results),
        "crashes": sum(r["code"] is not None and r["code"] < 0 for r in results),
        "tracebacks": sum(r["traceback"] for r in results),
        "wrong_exit": sum(not r["exit_ok"] for r in results),
        "user_module_imported_at_run_time": sum(r["imported_at_run"] for r in results),
    }
    return {"counts": counts, "findings": [r for r in results if r["code_ran"] or r["traceback"] or not r["exit_ok"]
                                            or r["ran"]["hang"] or (r["code"] or 0) < 0]}


def summarize_kills(results: list[dict]) -> dict:
    def total(kind, key):
        return sum(int(r.get(key) or 0) for r in results if r.get("kind") == kind)

    def n(kind, **match):
        return sum(1 for r in results if r.get("kind") == kind and all(r.get(k) == v for k, v in match.items()))

    counts = {
        "kills": len(results),
        "sweep_main_kills": n("sweep-main"),
        "sweep_main_by_signal": dict(Counter(r["signal"] for r in results if r.get("kind") == "sweep-main")),
        "sweep_main_finished_before_kill": n("sweep-main", finished_first=True),
        "sweep_main_ended_while_tearing_down": n("sweep-main", ended_before_the_signal=True),
        "sweep_main_orphans": total("sweep-main", "orphans"),
        "sweep_main_runs_with_orphans": sum(1 for r in results if r.get("kind") == "sweep-main" and r.get("orphans")),
        "sweep_main_rows_lost": total("sweep-main", "lost"),
        "sweep_main_rows_duplicated": total("sweep-main", "duplicated"),
        "sweep_main_rows_torn": total("sweep-main", "torn"),
        "sweep_main_torn_last_line_dropped": n("sweep-main", torn_last=True),
        "sweep_main_rows_recorded_at_the_kill": sorted(r.get("rows_before_resume", 0) for r in results
                                                       if r.get("kind") == "sweep-main"),
        "sweep_main_wrong_exit": n("sweep-main", wrong_exit=True),
        "sweep_main_stop_over_3s": n("sweep-main", slow_stop=True),
        "sweep_main_tracebacks": n("sweep-main", traceback=True),
        "sweep_worker_kills": n("sweep-worker", killed=True),
        "sweep_worker_cells_failed_beyond_the_dead_one": total("sweep-worker", "failed_other"),
        "sweep_worker_wrong_exit": n("sweep-worker", wrong_exit=True),
        "sweep_worker_orphans": total("sweep-worker", "orphans"),
        "sweep_worker_rows_lost": total("sweep-worker", "lost"),
        "sweep_worker_rows_duplicated": total("sweep-worker", "duplicated"),
        "sweep_worker_rows_torn": total("sweep-worker", "torn"),
        "sweep_worker_still_failed_after_resume": total("sweep-worker", "still_failed"),
        "sweep_worker_tracebacks": n("sweep-worker", traceback=True),
        "ldim_main_kills": n("ldim-main"),
        "ldim_main_finished_before_kill": n("ldim-main", finished_first=True),
        "ldim_main_orphans": total("ldim-main", "orphans"),
        "ldim_main_runs_with_orphans": sum(1 for r in results if r.get("kind") == "ldim-main" and r.get("orphans")),
        "ldim_main_wrong_exit": n("ldim-main", wrong_exit=True),
        "ldim_main_bounds_lost": n("ldim-main", bounds_lost=True),
        "ldim_main_stop_over_3s": n("ldim-main", slow_stop=True),
        "ldim_main_tracebacks": n("ldim-main", traceback=True),
        "ldim_worker_kills": n("ldim-worker", killed=True),
        "ldim_worker_exit_codes": dict(Counter(str(r.get("code")) for r in results if r.get("kind") == "ldim-worker")),
        "ldim_worker_wrong_exit": n("ldim-worker", wrong_exit=True),
        "ldim_worker_bounds_lost": n("ldim-worker", bounds_lost=True),
        "ldim_worker_orphans": total("ldim-worker", "orphans"),
        "ldim_worker_tracebacks": n("ldim-worker", traceback=True),
        "campaign_errors": sum(1 for r in results if "campaign_error" in r),
    }
    orphan_cmds = Counter(c for r in results for c in r.get("orphan_cmds", []))
    return {"counts": counts, "orphan_commands": dict(orphan_cmds.most_common(10))}


def _print_table(title: str, rows: dict) -> None:
    print(f"\n{title}")
    width = max(len(k) for k in rows) if rows else 10
    for k, v in rows.items():
        print(f"  {k:<{width}}  {v}")


def _printable(argv) -> str:
    """An argument list to show: odd arguments quoted, long ones cut (the JSON has them whole)."""
    parts = []
    for a in argv:
        if len(a) > 60:
            parts.append(repr(a[:30] + f"...[{len(a)} chars]"))
        elif not a or not a.isprintable() or any(c in a for c in " '\""):
            parts.append(repr(a))
        else:
            parts.append(a)
    return " ".join(parts)


def headline(report: dict) -> dict:
    """The figures the issue quotes, from the parts' counts."""
    inp, tr, kc, st, fi = (report[k]["counts"] for k in ("inputs", "trust", "kills", "startup", "files"))
    return {
        "hostile inputs (in-process calls)": report["inputs"]["inputs"],
        "  tracebacks (printed or escaping main)": inp["traceback"],
        "  internal errors (exit 1, a bug caught)": inp["internal_error"],
        "  hangs (alarm) / crashes (process died)": f"{inp['hang']} / {inp['crash']}",
        "  exit 1 for a bad input / bad input accepted": f"{inp['exit1_for_bad_input']} / {inp['bad_input_accepted']}",
        "  exit 2 not one line / exit code not 0-3": f"{inp['exit2_not_one_line']} / {inp['exit_code_not_0_3']}",
        "  processes left behind by a call": inp["left_behind"],
        "config trust cases (subprocess sweeps)": tr["configs"],
        "  code ran in validation / with --no-import / non-player": f"{tr['code_ran_during_validation']} / "
        f"{tr['code_ran_with_no_import']} / {tr['non_player_code_ran']}",
        "kill tests": kc["kills"],
        "  orphan processes (sweep main / worker / ldim main / worker)": f"{kc['sweep_main_orphans']} / "
        f"{kc['sweep_worker_orphans']} / {kc['ldim_main_orphans']} / {kc['ldim_worker_orphans']}",
        "  rows lost / duplicated / torn (all sweep kills)": f"{kc['sweep_main_rows_lost'] + kc['sweep_worker_rows_lost']} / "
        f"{kc['sweep_main_rows_duplicated'] + kc['sweep_worker_rows_duplicated']} / "
        f"{kc['sweep_main_rows_torn'] + kc['sweep_worker_rows_torn']}",
        "  cells failed beyond the dead worker's": kc["sweep_worker_cells_failed_beyond_the_dead_one"],
        "  wrong exit codes (sweep main / worker / ldim main / worker)": f"{kc['sweep_main_wrong_exit']} / "
        f"{kc['sweep_worker_wrong_exit']} / {kc['ldim_main_wrong_exit']} / {kc['ldim_worker_wrong_exit']}",
        "  proven bounds lost (ldim main / worker)": f"{kc['ldim_main_bounds_lost']} / {kc['ldim_worker_bounds_lost']}",
        "  SIGTERM/SIGINT stops over 3 s (sweep / ldim)": f"{kc['sweep_main_stop_over_3s']} / "
        f"{kc['ldim_main_stop_over_3s']}",
        "  tracebacks": sum(kc[k] for k in kc if k.endswith("_tracebacks")),
        "signals during start-up": st["signals"],
        "  tracebacks (package / interpreter start-up)": f"{st['tracebacks_in_package']} / "
        f"{st['tracebacks_in_interpreter_startup']}",
        "SIGKILLs during play --out": fi["kills"],
        "  temporary files left after the next run": fi["temporary_files_after_next_run"],
        **_i27_headline(report),
    }


def _i27_headline(report: dict) -> dict:
    """Issue 27's figures (families 4 and 5), when the campaign ran them."""
    if "memory_starts" not in report:
        return {}
    ms, f27 = report["memory_starts"]["counts"], report["inputs"].get("files_issue27", {})
    return {
        "starts under ulimit -v / a bad memory limit (subprocesses)": ms["starts"],
        "starts refused cleanly (exit 2, one line)": ms["clean_refusals"],
        "  tracebacks / internal errors / wrong exit codes / hangs": f"{ms['traceback']} / {ms['internal_error']} / "
        f"{ms['wrong_exit']} / {ms['hang']}",
        "  outputs that kept a set-id bit / planted links followed": f"{f27.get('set_id_bits_kept', 0)} / "
        f"{f27.get('planted_link_followed', 0)}",
    }


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fault_campaign",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=10_000, help="hostile argument lists run in-process")
    parser.add_argument("--kills", type=int, default=60, help="kill tests")
    parser.add_argument("--trust", type=int, default=None, help="config trust cases (default max(8, inputs // 200))")
    parser.add_argument("--startup-kills", type=int, default=20,
                        help="Ctrl-C / SIGTERM in a command's first 0.6 s (imports included)")
    parser.add_argument("--file-kills", type=int, default=10,
                        help="SIGKILL during play --out (and --stream) over an existing file, then a rerun")
    # [issue 27 sweeps: begin]
    parser.add_argument("--sweep-cases", type=int, default=None,
                        help="issue-27 sweep configuration cases (default max(4, inputs // 25))")
    parser.add_argument("--sweep-kills", type=int, default=None,
                        help="issue-27 SIGKILLs of Dask and pool sweeps whose players start processes, then a resume "
                             "(default kills // 3)")
    # [issue 27 sweeps: end]
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds before an in-process call is a hang")
    parser.add_argument("--json", metavar="OUT", default=None, help="also write every figure and finding as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("fault_campaign: needs Linux (/proc)", file=sys.stderr)
        return 1
    os.environ.pop("MISTAKEBOUND_TRACEBACK", None)
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        # started in the background by a shell (`cmd &` ignores SIGINT, and children inherit that): without this
        # every command started here would ignore the SIGINTs of the kill tests
        signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.time()
    info = machine()
    print(f"machine: {info['cpu']}, {info['cpu_count']} CPUs, {info['memory_gib']} GiB, {info['uname']}, "
          f"Python {info['python']}, numpy {info['numpy']}, {info['date']}, load {info['load_average']}")
    n_trust = args.trust if args.trust is not None else max(8, args.inputs // 200)
    print(f"campaign: seed {args.seed}, {args.inputs} inputs, {n_trust} config trust cases, {args.kills} kills",
          flush=True)
    rng = random.Random(args.seed)
    d = Path(tempfile.mkdtemp(prefix="fault_campaign_"))
    report: dict = {"machine": info, "seed": args.seed, "timeout_s": args.timeout,
                    "command": "python -m tests.fault_campaign " + " ".join(argv if argv is not None else sys.argv[1:])}
    try:
        write_files(d)
        t0 = time.monotonic()
        cases = hostile_cases(args.inputs, rng.randrange(2**32), d)
        results = run_inputs(cases, args.timeout, d, progress=not args.quiet)
        report["inputs"] = summarize_inputs(cases, results)
        report["inputs"]["wall_s"] = round(time.monotonic() - t0, 1)
        report["inputs"]["files"] = file_hygiene(d)

        t0 = time.monotonic()
        report["trust"] = summarize_trust(run_trust(n_trust, random.Random(rng.randrange(2**32)), d, args.timeout))
        report["trust"]["wall_s"] = round(time.monotonic() - t0, 1)

        t0 = time.monotonic()
        kill_rng = random.Random(rng.randrange(2**32))
        spans = calibrate(d) if args.kills else {}
        if spans and not args.quiet:
            print(f"  kills: an uninterrupted sweep takes {spans['sweep_s']} s (exit {spans['sweep_code']}), the Ldim "
                  f"search {spans['ldim_search_s']} s (whole command {spans['ldim_s']} s, exit {spans['ldim_code']})",
                  flush=True)
        kills = run_kills(args.kills, kill_rng, d, progress=not args.quiet, spans=spans)
        report["kills"] = summarize_kills(kills)
        report["kills"]["calibration"] = spans
        report["kills"]["wall_s"] = round(time.monotonic() - t0, 1)
        report["kills"]["runs"] = kills

        t0 = time.monotonic()
        report["startup"] = summarize_startup(run_startup_kills(args.startup_kills, random.Random(rng.randrange(2**32)), d))
        report["startup"]["wall_s"] = round(time.monotonic() - t0, 1)

        t0 = time.monotonic()
        report["files"] = run_file_kills(args.file_kills, random.Random(rng.randrange(2**32)), d)
        report["files"]["wall_s"] = round(time.monotonic() - t0, 1)

        # [issue 27 sweeps: begin]
        t0 = time.monotonic()
        n27 = args.sweep_cases if args.sweep_cases is not None else max(4, args.inputs // 25)
        k27 = args.sweep_kills if args.sweep_kills is not None else args.kills // 3
        rng27 = random.Random(rng.randrange(2**32))
        report["sweep27"] = summarize_sweep27(run_sweep27_cases(n27, rng27, d), run_sweep27_kills(k27, rng27, d))
        report["sweep27"]["wall_s"] = round(time.monotonic() - t0, 1)
        # [issue 27 sweeps: end]
        # issue 27 (families 4 and 5): the outputs of the in-process calls, and starts under too little memory
        report["inputs"]["files_issue27"] = i27_file_hygiene(d)
        t0 = time.monotonic()
        report["memory_starts"] = run_memory_starts(d)
        report["memory_starts"]["wall_s"] = round(time.monotonic() - t0, 1)
    finally:
        leftover = tree(os.getpid()) - {os.getpid()}
        kill_all(leftover)
        shutil.rmtree(d, ignore_errors=True)
    report["wall_s"] = round(time.time() - started, 1)

    inp = report["inputs"]
    print(f"\n== hostile inputs: {inp['inputs']} in-process calls ({inp['built_bad']} built to be refused), "
          f"{inp['wall_s']} s (median call {inp['seconds_median']} s, longest {inp['seconds_max']} s)")
    _print_table("exit codes", inp["exit_codes"])
    _print_table("exit codes by command", {k: v for k, v in inp["by_command"].items()})
    _print_table("findings (calls)", inp["counts"])
    _print_table("files written by the calls (root ignores modes: a read-only file is writable)",
                 {k: v for k, v in inp["files"].items() if k != "examples"})
    if inp["files"]["examples"]:
        print(f"    e.g. {inp['files']['examples']}")
    for kind, items in inp["findings"].items():
        if items:
            print(f"\n  {kind}: {len(items)}, e.g.")
            for item in items[:EXAMPLES]:
                what = item.get("escaped") or item.get("crash") or (item["err"] or item["leaked"]).strip()[-160:]
                print(f"    mistakebound {_printable(item['argv'])}\n      -> exit {item['code']}: {what!r}")
    tr = report["trust"]
    print(f"\n== code from a config: {tr['counts']['configs']} subprocess sweeps, {tr['wall_s']} s")
    _print_table("findings", tr["counts"])
    for item in tr["findings"][:EXAMPLES]:
        print(f"    [{item['mode']}] {item['name']} as {item['role'][:-1]}: exit {item['code']}, ran {item['ran']}, "
              f"stderr {item['stderr'][-120:]!r}")
    ki = report["kills"]
    cal = ki.get("calibration") or {}
    print(f"\n== kill tests: {ki['counts']['kills']}, {ki['wall_s']} s (kills drawn uniformly inside an uninterrupted "
          f"sweep's {cal.get('sweep_s')} s, the Ldim search's {cal.get('ldim_search_s')} s, the ldim command's "
          f"{cal.get('ldim_s')} s and the life of its Python search's worker processes, "
          f"{cal.get('ldim_workers_s')} s, measured first)")
    _print_table("figures", ki["counts"])
    if ki["orphan_commands"]:
        _print_table("orphans by command line", ki["orphan_commands"])
    st = report["startup"]
    print(f"\n== signals during start-up: {st['counts']['signals']}, {st['wall_s']} s")
    _print_table("figures", st["counts"])
    for item in st["findings"][:EXAMPLES]:
        print(f"    {item.get('signal')} at {item.get('delay_s')} s: exit {item.get('code')}, "
              f"stderr {item.get('stderr', item.get('campaign_error', ''))[-160:]!r}")
    fi = report["files"]
    print(f"\n== SIGKILL during play --out over an existing file ({PLAY_ROUNDS} rounds, {fi['span_s']} s uninterrupted), "
          f"then a rerun to the same file: {fi['counts']['kills']}, {fi['wall_s']} s")
    _print_table("figures", fi["counts"])
    names = sorted({n for r in fi["runs"] for n in r.get("temporary_names", [])})
    if names:
        print(f"    files left, e.g. {names[:3]}")
    # [issue 27 sweeps: begin]
    s27 = report["sweep27"]
    print(f"\n== issue 27 sweeps: {len(s27['cases'])} configuration cases, {len(s27['kills'])} SIGKILLs of sweeps "
          f"whose players start processes, then resumed; {s27['wall_s']} s")
    _print_table("figures", s27["counts"])
    for item in s27["findings"][:EXAMPLES]:
        print(f"    {item.get('case') or item.get('executor')}: {json.dumps(item, default=str)[:300]}")
    # [issue 27 sweeps: end]
    # issue 27 (families 4 and 5)
    _print_table("files written by the calls, issue 27 (set-id bits, a link planted in a shared folder)",
                 {k: v for k, v in inp["files_issue27"].items() if k != "examples"})
    ms = report["memory_starts"]
    print(f"\n== starts under ulimit -v {I27_ULIMITS} (KiB) and bad MISTAKEBOUND_MEMORY_LIMIT values: "
          f"{ms['counts']['starts']}, {ms['wall_s']} s")
    _print_table("figures", ms["counts"])
    for item in ms["findings"][:EXAMPLES]:
        print(f"    ulimit -v {item['ulimit_kib']}, limit {item['limit']!r}: mistakebound {_printable(item['argv'])} "
              f"-> exit {item['code']}: {item['stderr'][-160:]!r}")
    report["headline"] = headline(report)
    report["headline"].update(headline27(report))  # [issue 27 sweeps]
    _print_table(f"== headline (seed {args.seed}; the figures of issue 13)", report["headline"])
    print(f"\ncampaign: {report['wall_s']} s in all")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
