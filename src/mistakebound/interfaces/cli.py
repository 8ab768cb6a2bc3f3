"""The command line: ``mistakebound check | ldim | play | worst-case | tree | plot``.

* ``check`` runs :func:`mistakebound.verification.selfcheck.run_check` and the scenario suites and
  prints the table and a one-line summary.
* ``ldim CLASS`` prints the size, VC dimension and Littlestone dimension of a class, and
  with ``--tree`` a shattered tree of depth ``Ldim``.
* ``play LEARNER ADVERSARY CLASS`` plays one game, prints the transcript and the totals,
  and with ``--out FILE.jsonl`` writes it as JSON Lines.
* ``worst-case LEARNER CLASS`` computes the learner's exact worst case ``M_A(H)`` and
  the adversary's optimal line, beside ``Ldim(H)``.
* ``tree CLASS --out FILE.png`` draws a shattered tree (or, with ``--worst-case
  LEARNER``, the optimal adversary line against that learner).
* ``plot CLASS --learners A,B --adversary X --out FILE.png`` draws cumulative mistakes
  (or regret) over the rounds with each learner's proven bound.

A ``CLASS`` is a zoo spec (``thresholds:64``, ``k_sparse:8,2``) or a ``.npy`` or
``.csv`` file holding a 0/1 matrix (rows are hypotheses, columns instances); learners
and adversaries are named as in :mod:`mistakebound.game.registry` (``--help`` lists them).
Figures need matplotlib (``pip install 'mistakebound[plot]'``).  Long searches and
sweeps show a progress bar on stderr when it is a terminal (see
:mod:`mistakebound.interfaces.progress`).

Exit codes: 0 success; 1 a bound is broken (or a game errored) in ``check``, ``play``
or ``plot``; 2 bad input (a one-line message on stderr, never a traceback); 3
interrupted (Ctrl-C) or a search stopped by its budget, after printing the partial
results.

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
>>> main(["play", "halving", "binary-search-threshold", "thresholds:7", "--quiet"])
game: Halving vs BinarySearchThreshold on thresholds(7), realizable, seed 0, at most 100 rounds
rounds = 3
mistakes = 3
expected mistakes = 3
regret = 3 (the best hypothesis in hindsight makes 0 mistakes)
version space = 1 of 8 hypotheses: x<1
bound = 3 on mistakes: holds (Theorem 21.3 (textbook ch. 21): M <= log2 |H|)
0
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import re
import sys
import textwrap
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from mistakebound.foundations.errors import GameError, InvalidArgumentError, MistakeboundError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.interfaces.progress import Progress
from mistakebound.interfaces.serialize import read_npy_matrix

__all__ = [
    "main",
    "load_class",
    "format_tree",
    "format_transcript",
    "transcript_records",
    "EXIT_OK",
    "EXIT_BROKEN",
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
]

#: Exit code: success.
EXIT_OK = 0
#: Exit code: ``check`` found a broken bound or an errored game.
EXIT_BROKEN = 1
#: Exit code: bad input (arguments, class spec, matrix file).
EXIT_BAD_INPUT = 2
#: Exit code: interrupted (Ctrl-C), or a search stopped by its budget; partial results printed.
EXIT_INTERRUPTED = 3

#: Default number of rounds of ``play`` and ``plot``.
DEFAULT_ROUNDS = 100
#: Deepest shattered tree ``tree`` draws (2^8 = 256 leaves).
MAX_DRAWN_DEPTH = 8
_JSONL_SUFFIXES = (".jsonl", ".ndjson")

_FILE_SUFFIXES = (".npy", ".csv")


class _BadInput(Exception):
    """Bad user input, reported as one line on stderr with exit code 2."""


# --------------------------------------------------------------------- class loading
def _zoo() -> dict:
    from mistakebound.game import classes

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
        if suffix == ".npy":  # header first: pickles and oversized matrices refused before loading
            matrix = read_npy_matrix(path)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # loadtxt warns on an input with no data
                matrix = np.loadtxt(path, delimiter=",", ndmin=2)
            if matrix.size and np.isfinite(matrix).all() and np.abs(matrix).max() < 2**31 \
                    and np.array_equal(matrix, np.round(matrix)):
                matrix = matrix.astype(np.int64)  # so a bad entry reads "2", not "2.0"
    except ValueError as exc:
        detail = " ".join(str(exc).split()).split("; use `usecols`")[0]
        raise _BadInput(f"CLASS: cannot read {str(path)!r} as a 0/1 matrix: {detail}") from None
    except (OSError, EOFError) as exc:
        raise _BadInput(f"CLASS: cannot read {str(path)!r}: {' '.join(str(exc).split()) or type(exc).__name__}") from None
    except MistakeboundError as exc:
        raise _BadInput(f"CLASS: {' '.join(str(exc).split())}") from None
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


def _is_file(spec: str) -> bool:
    """Whether ``spec`` names an existing file; False for names the OS refuses (too long, NUL)."""
    try:
        return Path(spec).is_file()
    except (OSError, ValueError):
        return False


def _load(spec: str) -> HypothesisClass:
    if spec.lower().endswith(_FILE_SUFFIXES):
        return _load_matrix_file(Path(spec))
    if os.sep in spec or _is_file(spec):
        raise _BadInput(f"CLASS: {spec!r} is not a .npy or .csv file; expected a zoo spec such as "
                        f"'thresholds:64' or a path ending in .npy or .csv")
    from mistakebound.game import classes

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
    from mistakebound.theory.littlestone import LdimSearch
    from mistakebound.theory.vc import vc_bounds

    H = load_class(args.cls)
    search = LdimSearch(H)
    bounds = search.bounds(max_nodes=args.max_nodes, time_limit=args.time_limit, workers=args.workers)
    print(f"class: {H.describe()}", file=out)
    print(f"|H| = {H.n_hypotheses}", file=out)
    if search.n_distinct != H.n_hypotheses:
        print(f"distinct hypotheses = {search.n_distinct}", file=out)
    print(f"|X| = {H.n_instances}", file=out)
    if not bounds.exact:
        print(f"{bounds.describe()}, after {bounds.nodes} nodes in {bounds.seconds:.2f} s", file=out)
        print("the result is partial: raise --max-nodes / --time-limit for the exact value", file=out)
        return EXIT_INTERRUPTED
    ldim = bounds.lower
    left = None if args.time_limit is None else max(args.time_limit - bounds.seconds, 1e-3)
    vc = vc_bounds(H, max_nodes=args.max_nodes, time_limit=left)  # the same budget, for the VC search
    if vc.exact or vc.lower == ldim:  # VCdim <= Ldim: a shattered set of size Ldim settles it
        print(f"VCdim = {vc.lower}", file=out)
    else:
        upper = min(vc.upper, ldim)
        print(f"{vc.lower} <= VCdim <= {upper} (partial: {vc.status}; VCdim <= Ldim), "
              f"after {vc.nodes} nodes", file=out)
    print(f"Ldim = {ldim}", file=out)
    print(f"log2|H| = {math.log2(H.n_hypotheses):.2f} (upper bound on Ldim)", file=out)
    if not (vc.exact or vc.lower == ldim):
        print("the VC dimension is partial: raise --max-nodes / --time-limit for the exact value", file=out)
        return EXIT_INTERRUPTED
    if args.tree:
        print(f"shattered tree of depth {ldim} (root 1; children 2i on label 0, 2i+1 on label 1):", file=out)
        print(format_tree(search.tree(), H), file=out)
    return EXIT_OK


def _cmd_check(args, out) -> int:
    from mistakebound.verification.selfcheck import CheckReport, default_classes, run_check, run_scenarios
    from mistakebound.verification.suites import all_scenarios

    # class by class, then scenario by scenario: the same rows as run_check(seed) followed
    # by run_scenarios(seed), with a progress bar and partial results on Ctrl-C
    json_path = getattr(args, "json", None)
    try:  # refused before any game is played
        _check_out(json_path, (".json",), "JSON")
    except _BadInput as exc:
        raise _BadInput(str(exc).replace("--out:", "--json:", 1)) from None
    classes_ = default_classes()
    scenarios = all_scenarios()
    rows: list = []
    try:
        with Progress(len(classes_) + len(scenarios), desc="check", unit="steps") as bar:
            for H in classes_:
                rows += run_check([H], seed=args.seed).rows
                bar.update()
            for sc in scenarios:
                rows += run_scenarios([sc], seed=args.seed).rows
                bar.update()
    except KeyboardInterrupt:
        report = CheckReport(rows=rows)
        if rows:
            print(report.format_table(), file=out)
            print(file=out)
        print(f"interrupted: {report.summary()} so far", file=out)
        if json_path:
            print(f"no JSON report written to {json_path} (the check did not finish)", file=out)
        return EXIT_INTERRUPTED
    report = CheckReport(rows=rows)
    print(report.format_table(), file=out)
    print(file=out)
    print(report.legend(), file=out)
    print(file=out)
    print(report.summary(), file=out)
    if json_path:
        from mistakebound.foundations.files import write_atomically

        write_atomically(json_path, report.to_json())
        print(f"wrote {json_path} ({len(report.rows)} rows, JSON)", file=out)
    return EXIT_OK if report.ok else EXIT_BROKEN


# ------------------------------------------------------------------ players and games
def _number_text(value: Any) -> str:
    """A number as the tables print it: integers plainly, other floats with 4 significant digits."""
    if value is None:
        return "-"
    value = float(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value.is_integer():
        return str(int(value))
    return f"{value:.4g}"


def _instance_text(x: Any) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(str(v) for v in x) + ")"
    return str(x)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (tuple, list, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines)


def format_transcript(rounds: Sequence[Any]) -> str:
    """The rounds of a game as a table: ``t, x, p, prediction, y, mistake``.

    ``rounds`` holds :class:`~mistakebound.game.transcript.Round` objects (or objects with
    the same attributes; a ``prediction`` of None prints as ``?``).

    Examples
    --------
    >>> from mistakebound.game.transcript import Round
    >>> print(format_transcript([Round(1, 8, 1.0, 1, 0), Round(2, 4, 0.25, 0, 0)]))
    t  x  p     prediction  y  mistake
    -  -  ----  ----------  -  -------
    1  8  1     1           0  yes
    2  4  0.25  0           0  no
    """
    rows = []
    for r in rounds:
        prediction = getattr(r, "prediction", None)
        mistake = "?" if prediction is None else ("yes" if prediction != r.y else "no")
        rows.append([
            str(r.t), _instance_text(r.x), _number_text(r.p),
            "?" if prediction is None else str(prediction), str(r.y), mistake,
        ])
    return _table(["t", "x", "p", "prediction", "y", "mistake"], rows)


def transcript_records(T: Any, *, bound: Any = None, complete: bool = True) -> list[dict]:
    """The JSON Lines records of a game: one object per round, then one summary object.

    Round objects hold ``type`` (``"round"``), ``t``, ``x`` (tuples as lists), ``p``,
    ``prediction``, ``y`` and ``mistake``; the summary (``type`` ``"summary"``) holds the
    players, the class, the seed, the totals, the version space and the learner's bound.

    Examples
    --------
    >>> from mistakebound.game.transcript import Round, Transcript
    >>> T = Transcript(rounds=[Round(1, (0, 1), 1.0, 1, 0)], learner="L", adversary="A", seed=0)
    >>> records = transcript_records(T)
    >>> records[0]
    {'type': 'round', 't': 1, 'x': [0, 1], 'p': 1.0, 'prediction': 1, 'y': 0, 'mistake': True}
    >>> records[1]["mistakes"], records[1]["complete"]
    (1, True)
    """
    records: list[dict] = [
        {"type": "round", "t": r.t, "x": _jsonable(r.x), "p": float(r.p), "prediction": r.prediction,
         "y": r.y, "mistake": bool(r.mistake)}
        for r in T.rounds
    ]
    summary = {
        "type": "summary", "complete": bool(complete), "learner": T.learner, "adversary": T.adversary,
        "class": T.class_name, "seed": T.seed, "realizable": T.realizable, "rounds": len(T),
        "mistakes": T.mistakes, "expected_mistakes": T.expected_mistakes, "regret": T.regret,
        "best_hypothesis_mistakes": T.best_hypothesis_mistakes,
        "version_space": None if T.version_space is None else list(T.version_space),
        "bound": None if bound is None else {"value": _jsonable(bound.value), "measure": bound.measure,
                                             "source": bound.source},
        "bound_holds": None if bound is None else _bound_holds(T, bound),
    }
    records.append({k: _jsonable(v) for k, v in summary.items()})
    return records


def _write_jsonl(path: str, records: list[dict]) -> None:
    from mistakebound.foundations.files import write_atomically

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            for record in records:
                fh.write(json.dumps(record) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    write_atomically(path, write)


def _check_out(path: str | None, suffixes: tuple[str, ...], what: str) -> None:
    """Refuse, before any work, an output path with a wrong suffix or a missing directory."""
    if path is None:
        return
    p = Path(path)
    if p.suffix.lower() not in suffixes:
        raise _BadInput(f"--out: expected a {what} file name ending in {' or '.join(suffixes)}, got {path!r}")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise _BadInput(f"--out: the directory {str(folder)!r} of {path!r} does not exist")
    if p.is_dir():
        raise _BadInput(f"--out: {path!r} is a directory; expected a file name")


def _require_plots() -> None:
    from mistakebound.interfaces.plots import _matplotlib

    _matplotlib()


def _bound_value(T: Any, bound: Any) -> float | None:
    if bound is None:
        return None
    if bound.measure == "mistakes":
        return T.mistakes
    if bound.measure == "expected mistakes":
        return T.expected_mistakes
    return T.regret


def _bound_holds(T: Any, bound: Any) -> bool | None:
    value = _bound_value(T, bound)
    if value is None:
        return None
    return value <= bound.value + 1e-9


def _bound_line(T: Any, bound: Any) -> str:
    if bound is None:
        return "bound = none stated by the learner for this game"
    verdict = "holds" if _bound_holds(T, bound) else "BROKEN"
    source = f" ({bound.source})" if bound.source else ""
    return f"bound = {_number_text(bound.value)} on {bound.measure}: {verdict}{source}"


class _Watched:
    """Forwards a deterministic learner's calls and records each completed round."""

    def __init__(self, inner: Any, on_round):
        self.inner = inner
        self.rounds: list = []
        self._p: float | None = None
        self._on_round = on_round

    def predict_one(self, x: Any) -> Any:
        value = self.inner.predict_one(x)
        self._p = value
        return value

    def learn_one(self, x: Any, y: int) -> None:
        self.inner.learn_one(x, y)
        p = float(self._p) if self._p is not None else float("nan")
        prediction = int(p) if p in (0.0, 1.0) and not isinstance(self, _WatchedRandomized) else None
        self.rounds.append(_PartialRound(len(self.rounds) + 1, x, p, prediction, int(y)))
        self._on_round()


class _WatchedRandomized(_Watched):
    """The same for a randomized learner (the engine's draws are not seen here)."""

    def predict_proba_one(self, x: Any) -> Any:
        value = self.inner.predict_proba_one(x)
        self._p = value
        return value


@attrs.frozen
class _PartialRound:
    t: int
    x: Any
    p: float
    prediction: int | None
    y: int


def _watch(learner: Any, on_round) -> _Watched:
    from mistakebound.game.players import is_randomized

    if is_randomized(learner):
        return _WatchedRandomized(learner, on_round)
    return _Watched(learner, on_round)


def _build_players(args: Any, H: HypothesisClass, learner_name: str, rounds: int | None):
    from mistakebound.game.registry import get_adversary, get_learner

    lf = get_learner(learner_name)
    af = get_adversary(args.adversary)
    learner = lf(H, rounds=rounds)
    adversary = af(H, rounds=rounds)
    applies = getattr(adversary, "applies_to", None)
    if callable(applies) and not applies(H):
        raise _BadInput(f"ADVERSARY: {af.name} does not apply to {H.describe()} ({af.summary})")
    return lf, learner, adversary


def _run_game(args: Any, H: HypothesisClass, learner_name: str, on_round=None, watching: list | None = None):
    """Play one game with the CLI's options; returns (factory, transcript, bound).

    The learner is wrapped so that each completed round is recorded (``watching``
    receives the wrapper, whose ``rounds`` survive a Ctrl-C) and reported to
    ``on_round``; the transcript names the learner itself.
    """
    from mistakebound.game.play import play
    from mistakebound.game.players import describe

    lf, learner, adversary = _build_players(args, H, learner_name, args.rounds)
    realizable = not args.unrealizable
    watched = _watch(learner, on_round or (lambda: None))
    if watching is not None:
        watching.append(watched)
    try:
        T = play(watched, adversary, H, rounds=args.rounds, seed=args.seed, realizable=realizable)
    except GameError as exc:
        if exc.transcript is not None:
            exc.transcript = attrs.evolve(exc.transcript, learner=describe(learner))
        raise
    T = attrs.evolve(T, learner=describe(learner))
    return lf, T, lf.bound(H, rounds=args.rounds, realizable=realizable)


def _plural(n: Any, word: str) -> str:
    return f"{_number_text(n)} {word}{'' if n == 1 else 's'}"


def _game_header(T: Any, rounds: int) -> str:
    kind = "realizable" if T.realizable else "unrealizable"
    return f"game: {T.learner} vs {T.adversary} on {T.class_name}, {kind}, seed {T.seed}, at most {rounds} rounds"


def _totals(T: Any, H: HypothesisClass, bound: Any) -> list[str]:
    lines = [
        f"rounds = {len(T)}",
        f"mistakes = {T.mistakes}",
        f"expected mistakes = {_number_text(T.expected_mistakes)}",
    ]
    if T.regret is not None:
        lines.append(
            f"regret = {_number_text(T.regret)} (the best hypothesis in hindsight makes "
            f"{_plural(T.best_hypothesis_mistakes, 'mistake')})"
        )
    if T.version_space is not None:
        names = [H.hypothesis_name(i) for i in T.version_space]
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        lines.append(f"version space = {len(names)} of {H.n_hypotheses} hypotheses" + (f": {shown}" if names else ""))
    lines.append(_bound_line(T, bound))
    return lines


def _cmd_play(args, out) -> int:
    if args.rounds is None:
        args.rounds = DEFAULT_ROUNDS
    _check_out(args.out, _JSONL_SUFFIXES, "JSON Lines")
    H = load_class(args.cls)
    watching: list = []
    try:
        with Progress(args.rounds, desc="play", unit="rounds") as bar:
            lf, T, bound = _run_game(args, H, args.learner, bar.update, watching)
    except KeyboardInterrupt:
        rounds = watching[0].rounds if watching else []
        learner = type(watching[0].inner).__name__ if watching else args.learner
        print(f"interrupted after {len(rounds)} rounds of {learner} vs {args.adversary} on {H.describe()}", file=out)
        if rounds and not args.quiet:
            print(format_transcript(rounds), file=out)
        print(f"rounds = {len(rounds)}", file=out)
        if all(r.prediction is not None for r in rounds):
            print(f"mistakes = {sum(r.prediction != r.y for r in rounds)}", file=out)
        print(f"expected mistakes = {_number_text(math.fsum(abs(r.p - r.y) for r in rounds))}", file=out)
        return EXIT_INTERRUPTED
    except GameError as exc:
        message = " ".join(str(exc).split())
        print(f"game stopped: {message}", file=out)
        played = exc.transcript
        if played is not None:
            if len(played) and not args.quiet:
                print(format_transcript(played.rounds), file=out)
            print(f"rounds completed = {len(played)}", file=out)
        print(f"mistakebound play: error: {message}", file=sys.stderr)
        return EXIT_BROKEN
    print(_game_header(T, args.rounds), file=out)
    if not args.quiet:
        print(format_transcript(T.rounds), file=out)
    for line in _totals(T, H, bound):
        print(line, file=out)
    if args.out:
        _write_jsonl(args.out, transcript_records(T, bound=bound))
        print(f"wrote {args.out} ({len(T)} rounds and a summary, JSON Lines)", file=out)
    return EXIT_BROKEN if bound is not None and not _bound_holds(T, bound) else EXIT_OK


# ------------------------------------------------------------------------- worst case
def _worst_case(learner: Any, H: HypothesisClass, horizon: int | None, max_nodes: int, desc: str):
    """worst_case_mistakes with a progress bar (counting positions when the search reports them)."""
    from mistakebound.theory.worst_case import worst_case_mistakes

    reports = "progress" in inspect.signature(worst_case_mistakes).parameters
    with Progress(max_nodes if reports else None, desc=desc, unit="positions") as bar:
        if reports:
            return worst_case_mistakes(learner, H, horizon=horizon, max_nodes=max_nodes, progress=bar.update)
        bar.start_ticker()
        return worst_case_mistakes(learner, H, horizon=horizon, max_nodes=max_nodes)


def _interrupted_worst_case(args, learner: Any, lf: Any, H: HypothesisClass, out) -> int:
    """After Ctrl-C in the search: a proven lower bound from one quick game, and the learner's bound."""
    from mistakebound.adversaries.opposite_label import OppositeLabel
    from mistakebound.game.play import play

    print(f"interrupted: the search of {args.learner} on {H.describe()} did not finish", file=out)
    try:
        rounds = args.horizon if args.horizon is not None else H.n_hypotheses + H.n_instances
        T = play(learner, OppositeLabel(), H, rounds=rounds, seed=0)
        print(f"M_A(H) >= {_number_text(T.expected_mistakes)} (forced by OppositeLabel in one game)", file=out)
    except (KeyboardInterrupt, MistakeboundError):
        pass
    bound = lf.bound(H, rounds=args.horizon)
    if bound is not None:
        print(f"M_A(H) <= {_number_text(bound.value)} (the learner's proven bound: {bound.source})", file=out)
    return EXIT_INTERRUPTED


def _cmd_worst_case(args, out) -> int:
    from mistakebound.theory.littlestone import LdimSearch
    from mistakebound.game.registry import get_learner

    H = load_class(args.cls)
    lf = get_learner(args.learner)
    learner = lf(H, rounds=args.horizon)
    try:
        W = _worst_case(learner, H, args.horizon, args.max_nodes, f"worst case of {lf.name}")
    except KeyboardInterrupt:
        return _interrupted_worst_case(args, lf(H, rounds=args.horizon), lf, H, out)
    over = f" over {args.horizon} rounds" if args.horizon is not None else ""
    print(f"learner: {W.learner}", file=out)
    print(f"class: {H.describe()}", file=out)
    if W.exact:
        print(f"M_A(H){over} = {_number_text(W.value)} (exact; {W.nodes:,} positions searched)", file=out)
    else:
        print(
            f"M_A(H){over} >= {_number_text(W.lower)} and <= {_number_text(W.upper)} (partial: the budget of "
            f"{args.max_nodes:,} positions ran out; raise --max-nodes or give a smaller --horizon)", file=out,
        )
    G = W.strategy
    k = G.number_of_nodes() - 1
    if k:
        rows = []
        for t in range(k):
            a = G.nodes[t]
            gain = float(a["gain"])
            rows.append([str(t + 1), _instance_text(a["instance"]), _number_text(a["prediction"]), str(a["label"]),
                         "yes" if gain == 1 else ("no" if gain == 0 else _number_text(gain))])
        what = "optimal line" if W.exact else "best line found"
        print(f"{what} (the adversary's instances and labels; replay with MinimaxAdversary):", file=out)
        print(_table(["t", "x", "p", "y", "mistake"], rows), file=out)
    else:
        print("optimal line: empty (no instance splits the class, or the horizon is 0)", file=out)
    try:
        search = LdimSearch(H)
        ldim = search.ldim(search.full)
    except KeyboardInterrupt:
        print("Ldim = ? (interrupted)", file=out)
        return EXIT_INTERRUPTED
    print(f"Ldim = {ldim} (forced on every deterministic learner; SOA makes no more)", file=out)
    bound = lf.bound(H, rounds=args.horizon)
    if bound is not None:
        print(f"bound = {_number_text(bound.value)} ({lf.name}'s proven bound: {bound.source})", file=out)
    return EXIT_OK if W.exact else EXIT_INTERRUPTED


# ------------------------------------------------------------------------ tree, plot
def _cmd_tree(args, out) -> int:
    from mistakebound.interfaces.plots import FIGURE_FORMATS, draw_strategy, draw_tree, save_figure

    _check_out(args.out, FIGURE_FORMATS, "figure")
    _require_plots()
    H = load_class(args.cls)
    if args.worst_case:
        from mistakebound.game.registry import get_learner

        lf = get_learner(args.worst_case)
        learner = lf(H, rounds=args.horizon)
        try:
            W = _worst_case(learner, H, args.horizon, 200_000 if args.max_nodes is None else args.max_nodes,
                            f"worst case of {lf.name}")
        except KeyboardInterrupt:
            return _interrupted_worst_case(
                argparse.Namespace(learner=args.worst_case, horizon=args.horizon), lf(H, rounds=args.horizon), lf, H, out,
            )
        fig = draw_strategy(W.strategy, H, learner=lf.name)
        save_figure(fig, args.out)
        state = "exact" if W.exact else f"partial: between {_number_text(W.lower)} and {_number_text(W.upper)}"
        print(f"wrote {args.out}: the worst-case line of {lf.name} on {H.describe()}, "
              f"{_number_text(W.value)} mistakes ({state})", file=out)
        return EXIT_OK if W.exact else EXIT_INTERRUPTED
    from mistakebound.theory.littlestone import LdimSearch, SearchIncomplete, SearchInterrupted

    with Progress(None, desc="Littlestone dimension") as bar:
        bar.start_ticker()
        search = LdimSearch(H)
        bounds = search.bounds(max_nodes=args.max_nodes, time_limit=args.time_limit)
        if bounds.exact:
            depth = bounds.lower
            if depth > MAX_DRAWN_DEPTH:
                raise _BadInput(
                    f"CLASS: {H.describe()} has Ldim {depth}; a shattered tree of that depth has 2^{depth} leaves, "
                    f"too many to draw (at most depth {MAX_DRAWN_DEPTH}); use 'mistakebound ldim --tree' for text"
                )
            try:  # the value is proven; the tree is read off the memo (searching again only what it lost)
                tree = search.tree(max_nodes=None if args.max_nodes is None else max(args.max_nodes - bounds.nodes, 1),
                                   time_limit=None if args.time_limit is None else max(args.time_limit - bounds.seconds, 1e-3))
            except (SearchIncomplete, SearchInterrupted) as exc:
                bounds = exc.bounds
    if not bounds.exact:
        print(f"{bounds.describe()}, after {bounds.nodes} nodes in {bounds.seconds:.2f} s; no tree drawn", file=out)
        print("the result is partial: raise --max-nodes / --time-limit for the exact value and the tree", file=out)
        return EXIT_INTERRUPTED
    save_figure(draw_tree(tree, H), args.out)
    print(f"wrote {args.out}: a shattered tree of {H.describe()}, depth {depth} = Ldim, {2 ** depth} leaves", file=out)
    return EXIT_OK


def _cmd_plot(args, out) -> int:
    from mistakebound.interfaces.plots import FIGURE_FORMATS, plot_cumulative, save_figure
    from mistakebound.game.registry import get_adversary, get_learner

    if args.rounds is None:
        args.rounds = DEFAULT_ROUNDS
    _check_out(args.out, FIGURE_FORMATS, "figure")
    names = [n.strip() for n in args.learners.split(",") if n.strip()]
    if not names:
        raise _BadInput(f"--learners: expected comma-separated learner names, got {args.learners!r}")
    factories = [get_learner(n) for n in names]  # unknown names fail before any game
    adversary_name = get_adversary(args.adversary).name
    _require_plots()
    H = load_class(args.cls)
    games: list[tuple[Any, Any, Any]] = []
    try:
        with Progress(len(factories), desc="plot", unit="games") as bar:
            for f in factories:
                _, T, bound = _run_game(args, H, f.name)
                games.append((f, T, bound))
                bar.update()
    except KeyboardInterrupt:
        print(f"interrupted after {len(games)} of {len(factories)} games; no figure written", file=out)
        _print_games(games, out)
        return EXIT_INTERRUPTED
    measure = "regret" if args.unrealizable else "mistakes"
    kind = "unrealizable" if args.unrealizable else "realizable"
    what = "Regret" if args.unrealizable else "Cumulative mistakes"
    title = f"{what} on {H.describe()} against {adversary_name} ({kind}, seed {args.seed})"
    bounds = [b if (b is not None and (b.measure == "regret") == args.unrealizable) else None for _, _, b in games]
    fig = plot_cumulative([T for _, T, _ in games], bounds, title, H=H, measure=measure,
                          labels=[f.name for f, _, _ in games])
    save_figure(fig, args.out)
    _print_games(games, out)
    print(f"wrote {args.out}", file=out)
    broken = any(b is not None and not _bound_holds(T, b) for _, T, b in games)
    return EXIT_BROKEN if broken else EXIT_OK


def _print_games(games, out) -> None:
    rows = []
    for f, T, bound in games:
        verdict = "-" if bound is None else ("ok" if _bound_holds(T, bound) else "BROKEN")
        rows.append([
            f.name, str(len(T)), str(T.mistakes), _number_text(T.expected_mistakes), _number_text(T.regret),
            "-" if bound is None else f"{_number_text(bound.value)} ({bound.measure})", verdict,
        ])
    if rows:
        print(_table(["learner", "rounds", "mistakes", "expected", "regret", "bound", "verdict"], rows), file=out)


# --------------------------------------------------------------------------- parser
def _integer(text: str, minimum: int, maximum: int | None = None) -> int:
    """``text`` as an integer in ``[minimum, maximum]``, or an argparse error saying what was expected."""
    expected = f"an integer >= {minimum}" if maximum is None else f"an integer from {minimum} to {maximum}"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
    if value < minimum or (maximum is not None and value > maximum):
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
    return value


def _seed(text: str) -> int:
    return _integer(text, 0)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit code 2)."""

    def error(self, message: str):
        # one line: control characters an argument held are shown escaped ('\\r'), not printed
        message = re.sub(r"[\x00-\x1f\x7f]", lambda m: repr(m.group())[1:-1], message)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _fill(text: str) -> str:
    return textwrap.fill(text, width=78)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


def _positive(text: str) -> int:
    return _integer(text, 1)


#: The most processes --workers may ask for (a typo must not start thousands).
MAX_WORKERS = 256


def _workers(text: str) -> int:
    return _integer(text, 1, MAX_WORKERS)


def _players_usage() -> str:
    """The registered learners and adversaries, one per line with a summary."""
    from mistakebound.game.registry import ADVERSARIES, LEARNERS

    width = max(len(n) for n in (*LEARNERS, *ADVERSARIES)) + 2
    lines = ["learners (LEARNER; case, '-' and '_' are ignored):"]
    lines += [f"  {name.ljust(width)}{f.summary}" for name, f in LEARNERS.items()]
    lines.append("adversaries (ADVERSARY):")
    lines += [f"  {name.ljust(width)}{f.summary}" for name, f in ADVERSARIES.items()]
    return "\n".join(lines)


def _epilog(players: bool) -> str:
    parts = []
    if players:
        try:
            parts.append(_players_usage())
        except Exception:  # noqa: BLE001 - help must work even if the registry cannot be listed
            pass
    try:
        parts.append(
            "zoo classes (CLASS specs, e.g. thresholds:64, k_sparse:8,2, singletons:5,empty):\n"
            + _zoo_usage()
            + "\nor CLASS is a path to a .npy or .csv file holding a 0/1 matrix (rows hypotheses)."
        )
    except Exception:  # noqa: BLE001 - help must work even if the zoo cannot be listed
        pass
    parts.append(_fill(
        "exit codes: 0 ok, 1 a bound is broken (or a game errored), 2 bad input, "
        "3 interrupted or a search out of budget (partial results printed)"
    ))
    return "\n\n".join(parts)


def _parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    full = _epilog(players=True)
    parser = _Parser(
        prog="mistakebound",
        description="The online mistake-bound game, played and verified exactly.",
        epilog=full, formatter_class=formatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, summary: str, description: str, players: bool = True):
        return sub.add_parser(
            name, help=summary, description=_fill(description),
            epilog=full if players else _epilog(players=False), formatter_class=formatter,
        )

    check = command(
        "check", "play every learner against every adversary and check the proven bounds",
        "Play every realizable learner against every applicable adversary on the built-in "
        "classes, check each game against the learner's proven upper bound and the "
        "adversary's forced lower bound, and print the table. Exit 0 if all hold, 1 otherwise.",
        players=False,
    )
    check.add_argument("--seed", type=_seed, default=0, help="seed of every game (default 0)")
    check.add_argument("--json", metavar="FILE.json",
                       help="also write the report as JSON (lossless; read back with CheckReport.from_json)")
    check.set_defaults(run=_cmd_check)

    ldim = command(
        "ldim", "print |H|, |X|, VCdim and Ldim of a class",
        "Print |H|, |X|, the VC dimension, the Littlestone dimension and the log2|H| bound "
        "of a class given as a zoo spec (e.g. thresholds:64, k_sparse:8,2) or a .npy/.csv "
        "0/1 matrix file (rows hypotheses, columns instances).",
        players=False,
    )
    ldim.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or path to a .npy or .csv 0/1 matrix")
    ldim.add_argument("--tree", action="store_true", help="also print a shattered tree of depth Ldim")
    ldim.add_argument("--max-nodes", type=_positive, default=None,
                      help="stop after this many search nodes and print proven bounds (exit 3)")
    ldim.add_argument("--time-limit", type=_seconds, default=None,
                      help="stop after this many seconds and print proven bounds (exit 3); Ctrl-C does the same")
    ldim.add_argument("--workers", type=_workers, default=1,
                      help="processes searching for Ldim, this one included (default 1); pays on long "
                           "searches of large classes (see the README's Performance section)")
    ldim.set_defaults(run=_cmd_ldim)

    play = command(
        "play", "play one game and print its transcript and totals",
        "Play LEARNER against ADVERSARY on CLASS and print one line per round (t, x, the "
        "learner's probability p of label 1, its prediction, the label y, mistake) and the "
        "totals: mistakes, expected mistakes, regret against the best hypothesis in "
        "hindsight, the version space, and the learner's proven bound with its verdict. "
        "Exit 1 if the bound is broken.",
    )
    play.add_argument("learner", metavar="LEARNER", help="a learner name (listed below)")
    play.add_argument("adversary", metavar="ADVERSARY", help="an adversary name (listed below)")
    play.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or path to a .npy or .csv 0/1 matrix")
    play.add_argument("--rounds", type=_positive, default=None, help=f"the horizon (default {DEFAULT_ROUNDS})")
    play.add_argument("--seed", type=_seed, default=0, help="seed of the game (default 0)")
    play.add_argument("--unrealizable", action="store_true",
                      help="allow labels no hypothesis gives (default: realizable games)")
    play.add_argument("--out", metavar="FILE.jsonl",
                      help="also write the game as JSON Lines: one object per round, then a summary")
    play.add_argument("-q", "--quiet", action="store_true", help="print the totals only, not the rounds")
    play.set_defaults(run=_cmd_play)

    worst = command(
        "worst-case", "the exact worst case M_A(H) of a learner and the optimal adversary line",
        "Search the game tree for the largest number of mistakes any realizable adaptive "
        "adversary can force on LEARNER over CLASS (the game value M_A(H)), print it with the "
        "adversary's optimal line, and print Ldim(H) beside it. A search that runs out of "
        "its budget prints proven lower and upper bounds and exits 3.",
    )
    worst.add_argument("learner", metavar="LEARNER", help="a learner name (listed below)")
    worst.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or path to a .npy or .csv 0/1 matrix")
    worst.add_argument("--horizon", type=_seed, default=None,
                       help="limit games to this many rounds (needed for learners that change state without a mistake)")
    worst.add_argument("--max-nodes", type=_positive, default=200_000,
                       help="budget of positions to expand (default 200000)")
    worst.set_defaults(run=_cmd_worst_case)

    tree = command(
        "tree", "draw a shattered tree (or a worst-case line) to PNG or SVG",
        "Draw a shattered tree of CLASS of depth Ldim: nodes labelled with their instances, "
        "edges with the labels 0 and 1, leaves with the witness hypotheses. With "
        "--worst-case LEARNER draw instead the adversary's optimal line against LEARNER. "
        "Needs matplotlib (pip install 'mistakebound[plot]').",
    )
    tree.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or path to a .npy or .csv 0/1 matrix")
    tree.add_argument("--worst-case", metavar="LEARNER", help="draw the worst-case line against this learner")
    tree.add_argument("--horizon", type=_seed, default=None, help="with --worst-case: limit games to this many rounds")
    tree.add_argument("--max-nodes", type=_positive, default=None,
                      help="budget of search nodes for the shattered tree: when it runs out, print proven "
                           "bounds and exit 3 (default: no budget); with --worst-case, of positions (default 200000)")
    tree.add_argument("--time-limit", type=_seconds, default=None,
                      help="stop the shattered-tree search after this many seconds and print proven bounds "
                           "(exit 3); Ctrl-C does the same")
    tree.add_argument("--out", metavar="FILE", required=True, help="the figure: a .png, .svg or .pdf file name")
    tree.set_defaults(run=_cmd_tree)

    plot = command(
        "plot", "draw cumulative mistakes (or regret) against the proven bounds",
        "Play each learner of --learners against --adversary on CLASS (same seed) and draw "
        "cumulative mistakes over the rounds, or with --unrealizable the regret against the "
        "best hypothesis in hindsight, each learner's proven bound a dashed line of its "
        "colour. Needs matplotlib (pip install 'mistakebound[plot]').",
    )
    plot.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or path to a .npy or .csv 0/1 matrix")
    plot.add_argument("--learners", required=True, metavar="L1,L2", help="comma-separated learner names")
    plot.add_argument("--adversary", required=True, metavar="ADVERSARY", help="an adversary name")
    plot.add_argument("--rounds", type=_positive, default=None, help=f"the horizon (default {DEFAULT_ROUNDS})")
    plot.add_argument("--seed", type=_seed, default=0, help="seed of every game (default 0)")
    plot.add_argument("--unrealizable", action="store_true", help="unrealizable games; plot the regret")
    plot.add_argument("--out", metavar="FILE", required=True, help="the figure: a .png, .svg or .pdf file name")
    plot.set_defaults(run=_cmd_plot)

    from mistakebound.interfaces.sweep.cli import add_parser as add_sweep_parser

    add_sweep_parser(sub)  # mistakebound sweep CONFIG.toml (see mistakebound.interfaces.sweep)
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
        0 on success, 1 for a broken bound or a game error, 2 for bad input, 3 when
        interrupted or a search ran out of its budget (partial results printed).

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
    except KeyboardInterrupt:  # a command without partial results to show
        print(f"mistakebound {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `mistakebound check | head`: the reader left
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
