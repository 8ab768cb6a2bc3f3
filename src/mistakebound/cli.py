"""The command line: ``mistakebound check`` and ``mistakebound ldim CLASS``.

``check`` runs :func:`mistakebound.selfcheck.run_check` and prints its table and a
one-line summary.  ``ldim`` prints the size, VC dimension and Littlestone dimension of
a class given as a zoo spec (``thresholds:64``, ``k_sparse:8,2``) or as a ``.npy`` or
``.csv`` file holding a 0/1 matrix (rows are hypotheses, columns instances), and with
``--tree`` a shattered tree of depth ``Ldim``.

Exit codes: 0 success, 1 a bound is broken (or a game errored) in ``check``, 2 bad
input (a one-line message on stderr, never a traceback).

Examples
--------
>>> main(["ldim", "thresholds:7"])
class: thresholds(7)
|H| = 8
|X| = 7
VCdim = 1
Ldim = 3
log2|H| = 3.00 (upper bound on Ldim)
0
"""

from __future__ import annotations

import argparse
import inspect
import math
import os
import sys
import textwrap
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mistakebound.errors import InvalidArgumentError, MistakeboundError
from mistakebound.hypothesis_class import HypothesisClass

__all__ = ["main", "load_class", "format_tree", "EXIT_OK", "EXIT_BROKEN", "EXIT_BAD_INPUT"]

#: Exit code: success.
EXIT_OK = 0
#: Exit code: ``check`` found a broken bound or an errored game.
EXIT_BROKEN = 1
#: Exit code: bad input (arguments, class spec, matrix file).
EXIT_BAD_INPUT = 2

_FILE_SUFFIXES = (".npy", ".csv")


class _BadInput(Exception):
    """Bad user input, reported as one line on stderr with exit code 2."""


# --------------------------------------------------------------------- class loading
def _zoo() -> dict:
    from mistakebound import classes

    return dict(classes.ZOO)


def _zoo_usage() -> str:
    """One line per zoo class: ``name:ARGS`` as ``ldim`` accepts it (optional ones in brackets)."""
    lines = []
    for name, factory in _zoo().items():
        try:
            params = list(inspect.signature(factory).parameters.values())
        except (TypeError, ValueError):
            params = []
        required = [p.name for p in params if p.default is inspect.Parameter.empty]
        optional = [f"[,{p.name}]" for p in params if p.default is not inspect.Parameter.empty]
        lines.append(f"  {name}:{','.join(required)}{''.join(optional)}")
    return "\n".join(lines)


def _load_matrix_file(path: Path) -> HypothesisClass:
    suffix = path.suffix.lower()
    if not path.exists():
        raise _BadInput(f"CLASS: file {str(path)!r} does not exist; expected a .npy or .csv 0/1 matrix file")
    if path.is_dir():
        raise _BadInput(f"CLASS: {str(path)!r} is a directory; expected a .npy or .csv 0/1 matrix file")
    if path.stat().st_size == 0:
        raise _BadInput(f"CLASS: file {str(path)!r} is empty; expected a 0/1 matrix (rows hypotheses, columns instances)")
    try:
        if suffix == ".npy":
            matrix = np.load(path, allow_pickle=False)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # loadtxt warns on an input with no data
                matrix = np.loadtxt(path, delimiter=",", ndmin=2)
            if matrix.size and np.isfinite(matrix).all() and np.abs(matrix).max() < 2**31 \
                    and np.array_equal(matrix, np.round(matrix)):
                matrix = matrix.astype(np.int64)  # so a bad entry reads "2", not "2.0"
    except ValueError as exc:
        detail = " ".join(str(exc).split()).split("; use `usecols`")[0]
        if "allow_pickle" in detail:
            detail = "it holds pickled Python objects, which are never loaded"
        raise _BadInput(f"CLASS: cannot read {str(path)!r} as a 0/1 matrix: {detail}") from None
    except (OSError, EOFError) as exc:
        raise _BadInput(f"CLASS: cannot read {str(path)!r}: {' '.join(str(exc).split()) or type(exc).__name__}") from None
    if isinstance(matrix, np.ndarray) and matrix.size == 0:
        raise _BadInput(f"CLASS: file {str(path)!r} holds no entries; expected a non-empty 0/1 matrix")
    try:
        return HypothesisClass.from_matrix(matrix, name=path.name)
    except MistakeboundError as exc:
        raise _BadInput(f"CLASS: file {str(path)!r}: {exc}") from None


def load_class(spec: str) -> HypothesisClass:
    """The class named by a command-line ``CLASS`` argument.

    Parameters
    ----------
    spec : str
        A zoo spec ``NAME:ARGS`` (``thresholds:64``, ``k_sparse:8,2``) or a path to a
        ``.npy`` file (loaded without pickle) or a ``.csv`` file (comma-separated 0/1,
        no header), one row per hypothesis.

    Raises
    ------
    InvalidArgumentError
        With a one-line message naming the problem: an unknown class name (with the
        closest names), bad arguments, a missing, empty, unreadable or non-0/1 file.

    Examples
    --------
    >>> load_class("singletons:4").n_hypotheses
    4
    """
    try:
        return _load(spec)
    except _BadInput as exc:
        raise InvalidArgumentError(str(exc)) from None


def _load(spec: str) -> HypothesisClass:
    if spec.lower().endswith(_FILE_SUFFIXES):
        return _load_matrix_file(Path(spec))
    if os.sep in spec or Path(spec).is_file():
        raise _BadInput(f"CLASS: {spec!r} is not a .npy or .csv file; expected a zoo spec such as "
                        f"'thresholds:64' or a path ending in .npy or .csv")
    from mistakebound import classes

    try:
        return classes.from_spec(spec)
    except (MistakeboundError, TypeError, ValueError, OverflowError) as exc:
        message = " ".join(str(exc).split())
        own = f"spec {spec!r}: "
        if message.startswith(own):
            message = message[len(own):]
        raise _BadInput(f"CLASS: {spec!r}: {message}") from None


# --------------------------------------------------------------------------- output
def format_tree(tree, H: HypothesisClass) -> str:
    """A shattered tree as indented text: node instances, edge labels, leaf witnesses.

    Nodes are numbered as in the textbook (root 1, children ``2i`` along label 0 and
    ``2i + 1`` along label 1); each line is one node, indented by its depth.

    Examples
    --------
    >>> from mistakebound import classes, shattered_tree
    >>> H = classes.thresholds(3)
    >>> print(format_tree(shattered_tree(H), H))  # doctest: +ELLIPSIS
    [1] x = 2
      0 -> [2] x = 1
        0 -> [4] leaf: witness ...
        1 -> [5] leaf: witness ...
      1 -> [3] x = 3
        0 -> [6] leaf: witness ...
        1 -> [7] leaf: witness ...
    """
    root = tree.graph.get("root")
    if root is None:
        root = next(n for n in tree if tree.in_degree(n) == 0)
    lines: list[str] = []
    stack = [(root, 0, None)]
    while stack:
        node, depth, edge = stack.pop()
        attrs = tree.nodes[node]
        prefix = "  " * depth + ("" if edge is None else f"{edge} -> ")
        children = sorted(tree.successors(node), key=lambda c: tree.edges[node, c]["label"])
        if children:
            lines.append(f"{prefix}[{node}] x = {attrs['instance']!r}")
        else:
            w = attrs.get("witness")
            name = attrs.get("witness_name") or (H.hypothesis_name(w) if w is not None else "?")
            lines.append(f"{prefix}[{node}] leaf: witness {name} (row {w})")
        for child in reversed(children):
            stack.append((child, depth + 1, tree.edges[node, child]["label"]))
    return "\n".join(lines)


def _cmd_ldim(args, out) -> int:
    from mistakebound.littlestone import LdimSearch
    from mistakebound.vc import vc_dimension

    H = load_class(args.cls)
    search = LdimSearch(H)
    ldim = search.ldim(search.full)
    print(f"class: {H.describe()}", file=out)
    print(f"|H| = {H.n_hypotheses}", file=out)
    if search.n_distinct != H.n_hypotheses:
        print(f"distinct hypotheses = {search.n_distinct}", file=out)
    print(f"|X| = {H.n_instances}", file=out)
    print(f"VCdim = {vc_dimension(H)}", file=out)
    print(f"Ldim = {ldim}", file=out)
    print(f"log2|H| = {math.log2(H.n_hypotheses):.2f} (upper bound on Ldim)", file=out)
    if args.tree:
        print(f"shattered tree of depth {ldim} (root 1; children 2i on label 0, 2i+1 on label 1):", file=out)
        print(format_tree(search.tree(), H), file=out)
    return EXIT_OK


def _cmd_check(args, out) -> int:
    from mistakebound.selfcheck import CheckReport, run_check, run_scenarios

    grid = run_check(seed=args.seed)
    report = CheckReport(rows=grid.rows + run_scenarios(seed=args.seed).rows)
    print(report.format_table(), file=out)
    print(file=out)
    print(report.legend(), file=out)
    print(file=out)
    print(report.summary(), file=out)
    return EXIT_OK if report.ok else EXIT_BROKEN


# --------------------------------------------------------------------------- parser
def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit code 2)."""

    def error(self, message: str):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _fill(text: str) -> str:
    return textwrap.fill(text, width=78)


def _parser() -> argparse.ArgumentParser:
    try:
        zoo_text = (
            "zoo classes (CLASS specs, e.g. thresholds:64, k_sparse:8,2, singletons:5,empty):\n"
            + _zoo_usage()
            + "\nor CLASS is a path to a .npy or .csv file holding a 0/1 matrix (rows hypotheses)."
        )
    except Exception:  # noqa: BLE001 - help must work even if the zoo cannot be listed
        zoo_text = ""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog="mistakebound",
        description="The online mistake-bound game, played and verified exactly.",
        epilog=zoo_text, formatter_class=formatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    check = sub.add_parser(
        "check", help="play every learner against every adversary and check the proven bounds",
        description=_fill(
            "Play every realizable learner against every applicable adversary on the built-in "
            "classes, check each game against the learner's proven upper bound and the "
            "adversary's forced lower bound, and print the table. Exit 0 if all hold, 1 otherwise."
        ),
        epilog=zoo_text, formatter_class=formatter,
    )
    check.add_argument("--seed", type=_seed, default=0, help="seed of every game (default 0)")
    check.set_defaults(run=_cmd_check)
    ldim = sub.add_parser(
        "ldim", help="print |H|, |X|, VCdim and Ldim of a class",
        description=_fill(
            "Print |H|, |X|, the VC dimension, the Littlestone dimension and the log2|H| bound "
            "of a class given as a zoo spec (e.g. thresholds:64, k_sparse:8,2) or a .npy/.csv "
            "0/1 matrix file (rows hypotheses, columns instances)."
        ),
        epilog=zoo_text, formatter_class=formatter,
    )
    ldim.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or path to a .npy or .csv 0/1 matrix")
    ldim.add_argument("--tree", action="store_true", help="also print a shattered tree of depth Ldim")
    ldim.set_defaults(run=_cmd_ldim)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the program name; default ``sys.argv[1:]``.

    Returns
    -------
    int
        0 on success, 1 if ``check`` finds a broken bound or an error, 2 for bad input.

    Examples
    --------
    >>> main(["ldim", "singletons:3"])
    class: singletons(3)
    |H| = 3
    |X| = 3
    VCdim = 1
    Ldim = 1
    log2|H| = 1.58 (upper bound on Ldim)
    0
    """
    parser = _parser()
    try:
        args = parser.parse_args(None if argv is None else list(argv))
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2), already printed
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    out = sys.stdout
    try:
        return args.run(args, out)
    except (MistakeboundError, _BadInput) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        print(f"mistakebound {args.command}: error: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. `mistakebound check | head`: the reader left
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
