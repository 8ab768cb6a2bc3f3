"""Shattered trees and Ldim certificates on the compiled search against the Python search (issue 26).

For each class, in one process, medians of ``--repeats`` runs (after one warm-up run of
each, so that imports are not timed):

* ``value``: :func:`~mistakebound.theory.littlestone.littlestone_dimension` (the compiled
  search: the baseline the goal is stated against);
* ``tree``: :func:`~mistakebound.theory.littlestone.shattered_tree`, read off the compiled
  search (:func:`~mistakebound.theory.ldim_kernel.kernel_tree`), and with
  :data:`~mistakebound.theory.ldim_kernel.AVAILABLE` off, off the Python search;
* ``certificate``: :func:`~mistakebound.theory.ldim_certificate.ldim_certificate` into a
  fresh writer, compiled and Python likewise (the checker's time is not counted; every
  certificate written is checked once, untimed, and the line says so).

Each line gives the same-run ratios tree/value and certificate/value (compiled), and
Python/compiled for the tree and the certificate; wall seconds and, since the machine is
shared, process CPU seconds too.  The load (``uptime``) is printed first.

Then the command line against the door (:data:`FRONT`): ``mistakebound ldim SPEC --what ldim
--tree`` run in this process (:func:`mistakebound.interfaces.cli.main`, the spec parsed, the
class built and the tree printed inside, its output thrown away) against the class built from
the spec, :func:`~mistakebound.theory.littlestone.shattered_tree` and the tree's text
(:func:`~mistakebound.theory.tree_export.tree_to_text`), alternately; ``cli/api`` is 1.0 when
both take the one engine (:func:`~mistakebound.theory.littlestone.ldim_engine`'s reading).

Run from the repository root::

    python -m benchmarks.kernel_trees            # 5 repeats, the three classes of the issue
    python -m benchmarks.kernel_trees --smoke    # small classes, one repeat
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from benchmarks.suite import median_times
from mistakebound.certificates.verify import check
from mistakebound.game import classes
from mistakebound.theory import ldim_kernel
from mistakebound.theory.certificate import CertificateWriter
from mistakebound.theory.ldim_certificate import ldim_certificate
from mistakebound.theory.littlestone import is_shattered, littlestone_dimension, shattered_tree

__all__ = ["CASES", "FRONT", "FRONT_SMOKE", "SMOKE", "certificate_of", "front_door", "main", "measure"]

#: The classes of the issue's goal.
CASES = (("thresholds(4095)", lambda: classes.thresholds(4095)),
         ("intervals(128)", lambda: classes.intervals(128)),
         ("random(5000, 30, 0.3, seed=0)", lambda: classes.random(5000, 30, 0.3, seed=0)))

#: Small ones, for CI's smoke run.
SMOKE = (("thresholds(63)", lambda: classes.thresholds(63)),
         ("random(300, 12, 0.3, seed=0)", lambda: classes.random(300, 12, 0.3, seed=0)))


#: The specs of the command line against the door (the first and the last class of :data:`CASES`).
FRONT = ("thresholds:4095", "random:5000,30,0.3,0")
FRONT_SMOKE = ("thresholds:63",)


def certificate_of(H) -> CertificateWriter:
    """The Ldim certificate of ``H``, written as ``ldim_certificate`` writes it."""
    writer = CertificateWriter(H)
    ldim_certificate(H, writer)
    return writer


def measure(name: str, H, repeats: int) -> list[str]:
    """The lines of one class: the seconds of each question, compiled and Python, and the ratios."""
    rows = {}
    rows["value"] = median_times(lambda: littlestone_dimension(H), repeats, warm=True)
    rows["tree"] = median_times(lambda: shattered_tree(H), repeats, warm=True)
    rows["certificate"] = median_times(lambda: certificate_of(H), repeats, warm=True)
    old = ldim_kernel.AVAILABLE
    ldim_kernel.AVAILABLE = False
    try:
        rows["python tree"] = median_times(lambda: shattered_tree(H), repeats, warm=True)
        rows["python certificate"] = median_times(lambda: certificate_of(H), repeats, warm=True)
    finally:
        ldim_kernel.AVAILABLE = old
    d = rows["value"][2]
    for what in ("tree", "python tree"):  # the trees are checked, untimed
        assert rows[what][2].graph["depth"] == d and is_shattered(H, rows[what][2]), what
    for what in ("certificate", "python certificate"):
        assert check(rows[what][2].document()) == {"ldim": (d, d)}, what
    out = [f"## {name}: Ldim = {d} (trees checked shattered, certificates checked)",
           "| question | wall s | cpu s | /value (wall) | /value (cpu) |"]
    vw, vc = rows["value"][:2]
    for what, (w, c, _) in rows.items():
        out.append(f"| {what} | {w:.4f} | {c:.4f} | {w / vw:.1f} | {c / vc:.1f} |")
    out.append(f"python/compiled: tree {rows['python tree'][0] / rows['tree'][0]:.1f}x (wall), "
               f"{rows['python tree'][1] / rows['tree'][1]:.1f}x (cpu); certificate "
               f"{rows['python certificate'][0] / rows['certificate'][0]:.1f}x (wall), "
               f"{rows['python certificate'][1] / rows['certificate'][1]:.1f}x (cpu)")
    return out


def front_door(spec: str, repeats: int) -> str:
    """``ldim SPEC --what ldim --tree`` in this process against the door, alternately: medians of wall and CPU seconds."""
    import contextlib
    import io

    from mistakebound.game import registry
    from mistakebound.interfaces import cli
    from mistakebound.theory.tree_export import tree_to_text

    def api() -> str:
        H = registry.load_setting(spec)
        return tree_to_text(shattered_tree(H), H)

    def line() -> str:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            assert cli.main(["ldim", spec, "--what", "ldim", "--tree"]) == 0
        return out.getvalue()

    assert line().endswith(api() + "\n")  # the same tree (untimed)
    times: dict[str, tuple[list, list]] = {"api": ([], []), "cli": ([], [])}
    for _ in range(repeats):
        for name, f in (("api", api), ("cli", line)):
            w0, c0 = time.perf_counter(), time.process_time()
            f()
            times[name][0].append(time.perf_counter() - w0)
            times[name][1].append(time.process_time() - c0)
    (aw, ac), (lw, lc) = ([statistics.median(v) for v in times[k]] for k in ("api", "cli"))
    return f"| {spec} | {aw:.4f} | {lw:.4f} | {lw / aw:.2f} | {ac:.4f} | {lc:.4f} | {lc / ac:.2f} |"


def main(argv: list[str] | None = None) -> int:
    """Print the table (markdown) of the classes chosen."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.kernel_trees", description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="small classes, one repeat")
    args = parser.parse_args(argv)
    if not ldim_kernel.AVAILABLE:
        print("the compiled search is not built: nothing to compare")
        return 0
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min); cores: {os.cpu_count()}")
    for name, make in SMOKE if args.smoke else CASES:
        for line in measure(name, make(), 1 if args.smoke else args.repeats):
            print(line, flush=True)
    print(f"## ldim SPEC --what ldim --tree in this process (cli) against build + shattered_tree + tree_to_text (api), "
          f"medians of {1 if args.smoke else args.repeats} alternating runs")
    print("| spec | api wall s | cli wall s | cli/api (wall) | api cpu s | cli cpu s | cli/api (cpu) |")
    for spec in FRONT_SMOKE if args.smoke else FRONT:
        print(front_door(spec, 1 if args.smoke else 2 * args.repeats + 1), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
