"""The command line: ``mistakebound check | ldim | play | worst-case | tree | plot | sweep``.

* ``check`` runs :func:`mistakebound.verification.selfcheck.run_check` and the scenario
  suites and prints the table and a one-line summary.
* ``ldim CLASS`` prints the size, Littlestone dimension (first, as soon as it is known)
  and VC dimension of a class (``--what`` chooses the parameters, each searched with a
  budget of its own), and with ``--tree`` a shattered tree of depth ``Ldim``.
* ``play LEARNER ADVERSARY SETTING`` plays one game, prints the transcript, the totals
  and the learner's claim with its verdict, and with ``--out FILE.jsonl`` writes it as
  JSON Lines.
* ``worst-case LEARNER CLASS`` computes the learner's exact worst case ``M_A(H)`` (or
  proven bounds on it) and the adversary's optimal line, beside ``Ldim(H)``, and judges
  the learner's claim against it.
* ``tree CLASS --out FILE.png`` draws a shattered tree (or, with ``--worst-case
  LEARNER``, the optimal adversary line against that learner).
* ``plot SETTING --learners A,B --adversary X --out FILE.png`` draws cumulative mistakes
  (or regret) over the rounds with each learner's claim.

Names come from the one registry (:mod:`mistakebound.game.registry`): a ``SETTING`` is
a zoo class (``thresholds:64``), a space (``halfspaces:d=16,R=1,gamma=0.25``,
``k_disjunctions:1000,3``, ``experts:4``, ``oco:d=1,radius=1``) or a class file
(``.npy``, ``.csv``, ``.json``); a ``CLASS`` is a setting that is a finite class; a
learner or an adversary is a registered name (any case, ``-`` and ``_`` ignored), with
parameters if it takes any (``ObliviousCoin(labels=coin)``), or an import path
``module:Class`` (the current directory is importable).  Claims and verdicts come from
:func:`~mistakebound.verification.claims.stated_bound` and
:func:`~mistakebound.verification.claims.judge`, as in every other front end.  Figures
need matplotlib (``pip install 'mistakebound[plot]'``).  Long searches and sweeps show a
progress bar on stderr when it is a terminal (see :mod:`mistakebound.interfaces.progress`).

Exit codes (:mod:`mistakebound.interfaces.arguments`): 0 success; 1 a bound is broken
(or a game errored) in ``check``, ``play``, ``plot`` or ``worst-case`` (and, with a
one-line ``internal error`` message, an unexpected exception: a bug); 2 bad input,
including an output file that cannot be written; 3 interrupted (Ctrl-C or SIGTERM) or a
search stopped by its budget, after printing the partial results.  Every failure is one
line on stderr, never a traceback (``MISTAKEBOUND_TRACEBACK=1`` shows the traceback of an
internal error).  Output files (``--out``, ``--json``) are probed before the work (the
folder takes a new file, the target is not a folder or a read-only file); a write that
still fails (a full disk) is reported after the results, which are printed first.  They
are written atomically (:mod:`mistakebound.foundations.files`): a symbolic link is kept
and its target written, and the ``wrote`` line names the target.  Standard output that
cannot be written (``> /dev/full``) or is closed (``>&-``) is exit 2 with one line too; a
reader that leaves the pipe (``mistakebound check | head -1``) ends the command with
exit 0.  An argument longer than :data:`MAX_ARGUMENT_CHARS` characters is refused before
anything reads it, and an error line longer than about 2,000 characters has its middle
cut.  Text from files and players (a class file's name, instance names) is printed with
control characters escaped (``\\x1b``), never raw.

Examples
--------
>>> main(["ldim", "thresholds:7"])
class: thresholds(7)
|H| = 8
|X| = 7
Ldim = 3
log2|H| = 3.00 (upper bound on Ldim)
VCdim = 1
0
>>> main(["play", "halving", "binary-search-threshold", "thresholds:7", "--quiet"])
game: Halving vs BinarySearchThreshold on thresholds(7), realizable, seed 0, at most 100 rounds
rounds = 3
mistakes = 3
expected mistakes = 3
regret = 3 (the best hypothesis in hindsight makes 0 mistakes)
version space = 1 of 8 hypotheses: x<1
bound = 3 on mistakes: holds (Theorem 21.3 (textbook ch. 21): M <= log2 |H|)
forced = 3 on mistakes: holds (the binary-search adversary on thresholds (mistake-bound lecture notes, seed 001): floor(log2(N + 1)) mistakes on every deterministic learner)
0
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mistakebound.foundations.errors import GameError, GameInterrupted, MistakeboundError
from mistakebound.game import registry
from mistakebound.game.hypothesis_class import COUNTED_FROM_1, HypothesisClass
from mistakebound.game.oco import OCOSetting, OCOTranscript
from mistakebound.game.play import Observer, play
from mistakebound.game.transcript import format_rounds, instance_text, round_record
from mistakebound.game.spaces import ExpertAdvice
from mistakebound.interfaces import startup
from mistakebound.interfaces.arguments import (
    EXIT_BAD_INPUT,
    EXIT_BROKEN,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Parser,
    positive,
    seconds,
    shortened,
    seed,
    workers,
)
from mistakebound.foundations.json_format import json_value
from mistakebound.foundations.text import number_text, one_line, printable
from mistakebound.foundations.text_tables import text_table
from mistakebound.interfaces.progress import Progress
if TYPE_CHECKING:  # the commands import the claims when they run: `verify` loads no search
    from mistakebound.verification.claims import Bound, Verdict

__all__ = [
    "main",
    "format_tree",
    "format_transcript",
    "transcript_records",
    "EXIT_OK",
    "EXIT_BROKEN",
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
]

#: Default number of rounds of ``play`` and ``plot``.
DEFAULT_ROUNDS = 100
_JSONL_SUFFIXES = (".jsonl", ".ndjson")


class _BadInput(Exception):
    """Bad user input, reported as one line on stderr with exit code 2."""


class _OutputFailed(Exception):
    """An output file could not be written after the work was done (exit code 2; the results were printed)."""


class _ClaimFailed(Exception):
    """A finished game whose claims could not be read (the claim raised): the game is still shown."""

    def __init__(self, error: Exception, transcript: Any):
        super().__init__(str(error))
        self.error = error
        self.transcript = transcript


# --------------------------------------------------------------------- settings
def _finite_class(spec: str, command: str) -> HypothesisClass:
    """The finite class ``spec`` names; a space is refused with the command named."""
    H = registry.load_setting(spec)
    if not isinstance(H, HypothesisClass):
        raise _BadInput(f"CLASS: {command} searches a finite class; {H.describe()} is a space "
                        "(a zoo class such as thresholds:15, or a .npy/.csv/.json class file, is expected)")
    return H


# --------------------------------------------------------------------------- output
def format_tree(tree, H: HypothesisClass) -> str:
    """A shattered tree as indented text: node instances, edge labels, leaf witnesses.

    Nodes are numbered as in the textbook (root 1, children ``2i`` along label 0 and
    ``2i + 1`` along label 1); each line is one node, indented by its depth.  A leaf's
    witness row is counted from 1, as in every message about a class's rows
    (:data:`~mistakebound.game.hypothesis_class.COUNTED_FROM_1`).

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
    from mistakebound.theory.tree_walk import depth_first, leaf_text, successors

    lines: list[str] = []
    succ = successors(tree)
    for node, parent, edge, depth in depth_first(tree):
        prefix = "  " * depth + ("" if parent is None else f"{edge} -> ")
        if succ[node]:
            lines.append(f"{prefix}[{node}] x = {tree.nodes[node]['instance']!r}")
        else:
            w = tree.nodes[node].get("witness")
            lines.append(f"{prefix}[{node}] leaf: witness {leaf_text(tree, node, H)} (row {'?' if w is None else w + 1})")
    return "\n".join(lines)


def _cmd_ldim(args, out) -> int:
    """``ldim``: the class's profile from the library's door, each line printed (and flushed) as it comes.

    :func:`~mistakebound.theory.profile.class_profile` chooses the engines and the budgets
    and answers; this command prints: Ldim first, then each parameter of ``--what``, a
    parameter that stops early with its proven bounds on its own line, the others' lines
    still following.
    """
    from mistakebound.theory.profile import profile_steps
    from mistakebound.theory.search import SearchIncomplete

    _check_out(args.certificate, CERTIFICATE_SUFFIXES, "certificate", option="--certificate")
    H = _finite_class(args.cls, "ldim")
    print(f"class: {H.describe()}", file=out)
    print(f"|H| = {H.n_hypotheses}", file=out)
    lines = _ProfileLines(args, H, out)
    for parameter, result, P in profile_steps(H, what=args.what, max_nodes=args.max_nodes, time_limit=args.time_limit,
                                              workers=args.workers, keep_search=args.tree or args.certificate is not None):
        lines(parameter, result, P)
    for name, reason in lines.partial:
        print(f"the {name} is partial: {reason}", file=out)
    if P.search is None:
        if args.certificate is not None:
            print("certificate: not written: the Littlestone search did not run", file=out)
    else:
        _certify_ldim(args, P, out)
    if lines.partial:
        return EXIT_INTERRUPTED
    if args.tree:
        try:
            tree = P.tree()
        except SearchIncomplete as exc:  # out of memory while reading the tree off: Ldim stays exact
            print(f"no shattered tree: {_partial_reason(exc.result.status)}", file=out)
            return EXIT_INTERRUPTED
        print(f"shattered tree of depth {P.ldim.lower} (root 1; children 2i on label 0, 2i+1 on label 1; "
              f"{COUNTED_FROM_1}):", file=out)
        print(format_tree(tree, H), file=out)
    return EXIT_OK


def _partial_reason(status: str) -> str:
    """What to do about a search of ``ldim`` that stopped with ``status``."""
    from mistakebound.foundations.memory import available_memory, format_bytes

    if status == "memory":
        avail = available_memory()
        return ("the search ran out of memory"
                + ("" if avail is None else f" ({format_bytes(avail)} available now)")
                + ": the bounds above are proven; search a smaller class or give it more memory")
    if status == "interrupted":
        return f"interrupted ({startup.interrupted_by() or 'Ctrl-C'}): the bounds above are proven"
    return "raise --max-nodes / --time-limit for the exact value"


#: What ``ldim`` calls each parameter of the profile when it says why one is partial.
PARAMETER_NAMES = {"ldim": "Littlestone dimension", "vc": "VC dimension", "rldim": "randomized Littlestone dimension"}


class _ProfileLines:
    """Prints each answer of :func:`~mistakebound.theory.profile.profile_steps` as it comes.

    Collects in ``partial`` the (parameter, what to do about it) lines printed after them all.
    """

    def __init__(self, args, H: HypothesisClass, out):
        self.args, self.H, self.out = args, H, out
        self.partial: list[tuple[str, str]] = []
        self._note = None

    def __call__(self, parameter: str, result, P) -> None:
        getattr(self, f"_{parameter}")(result, P)

    def _why(self, parameter: str, P) -> None:
        reason = P.partial[parameter]
        if reason.startswith("memory: "):  # refused before it allocated
            text = one_line(reason[len("memory: "):])
        elif reason.startswith("not searched: "):
            text = _partial_reason(reason[len("not searched: "):])
        elif reason == "vc-default-limit":
            from mistakebound.theory.profile import VC_SECONDS

            text = (f"its search stopped at the default limit of {P.vc_seconds:.1f} s (the longer of {VC_SECONDS:g} s "
                    "and the Ldim search's time); give --time-limit for more")
        else:
            text = _partial_reason(reason)
        self.partial.append((PARAMETER_NAMES[parameter], text))

    def _class(self, result, P) -> None:
        # what is known before any search, printed at once: a long search shows what it is searching
        if "ldim" not in P.partial and P.n_distinct != self.H.n_hypotheses:
            print(f"distinct hypotheses = {P.n_distinct}", file=self.out)
        print(f"|X| = {self.H.n_instances}", file=self.out, flush=True)

    def _ldim(self, bounds, P) -> None:
        for text in P.notes:  # a worker lost: one line on stderr
            _error("ldim", text)
        if bounds.exact:
            print(f"Ldim = {bounds.lower}", file=self.out, flush=True)
        elif P.partial["ldim"].startswith("memory: "):
            print(f"0 <= Ldim <= {bounds.upper} (partial: memory; Ldim <= log2|H|), not searched", file=self.out,
                  flush=True)
        else:
            print(f"{bounds.describe()}, after {bounds.nodes} nodes in {bounds.seconds:.2f} s", file=self.out,
                  flush=True)
        if not bounds.exact:
            self._why("ldim", P)
        print(f"log2|H| = {math.log2(self.H.n_hypotheses):.2f} (upper bound on Ldim)", file=self.out, flush=True)
        if "vc" in self.args.what and bounds.status != "interrupted":
            import threading

            # a VC search still running after LDIM_VC_NOTE_SECONDS says how long it may take (stderr)
            from mistakebound.theory.profile import VC_SECONDS

            default = self.args.time_limit is None
            limit = max(VC_SECONDS, bounds.seconds) if default else self.args.time_limit
            self._note = threading.Timer(LDIM_VC_NOTE_SECONDS, _note, ("ldim", (
                f"note: searching for VCdim (<= {bounds.upper}) for up to {limit:.1f} s"
                f"{' (--time-limit sets it)' if default else ''}")))
            self._note.daemon = True
            self._note.start()

    def _vc(self, vc, P) -> None:
        if self._note is not None:
            self._note.cancel()
        top, low = P.ldim.upper, min(P.ldim.lower, 1)
        if vc is None:
            print(f"{low} <= VCdim <= {top} (partial: interrupted; VCdim <= Ldim), not searched", file=self.out)
        elif vc.exact:
            print(f"VCdim = {vc.lower}", file=self.out, flush=True)
        elif P.partial["vc"].startswith("memory: "):
            print(f"{low} <= VCdim <= {top} (partial: memory; VCdim <= Ldim), not searched", file=self.out)
        else:
            print(f"{vc.lower} <= VCdim <= {vc.upper} (partial: {vc.status}; VCdim <= Ldim), after {vc.nodes} nodes",
                  file=self.out, flush=True)
        if "vc" in P.partial:
            self._why("vc", P)

    def _rldim(self, rl, P) -> None:
        if rl is None:
            why = P.partial["rldim"]
            print(f"RL not searched ({'partial: memory' if why.startswith('memory: ') else 'interrupted'})",
                  file=self.out)
        elif rl.exact:
            print(f"RL = {rl.lower} (= {float(rl.lower):.4g}; the best expected mistakes of a randomized "
                  "learner, FHMM 2023)", file=self.out, flush=True)
        else:
            print(f"{rl.describe()}, after {rl.nodes} nodes", file=self.out, flush=True)
        if "rldim" in P.partial:
            self._why("rldim", P)


#: The file names ``--certificate`` takes: JSON, or JSON compressed with gzip (``.json.gz``).
CERTIFICATE_SUFFIXES = (".json", ".gz")


def _certify_ldim(args, P, out) -> None:
    """With ``--certificate``: the certificate of what ``ldim`` proved (the profile's), written."""
    if args.certificate is None:
        return
    from mistakebound.theory.search import OutOfBudget

    try:
        writer = P.certificate(max_nodes=args.max_nodes, time_limit=args.time_limit)
    except OutOfBudget:
        print("certificate: not written: the budget ran out while reading the shattered tree off the search; "
              "raise --max-nodes / --time-limit", file=out)
        return
    names = {"ldim": "Ldim", "vc": "VCdim", "rldim": "RL"}
    done = [_claimed(section, names[section["result"]]) for section in writer.document()["results"]]
    _write_certificate(args.certificate, writer, out, done)


def _claimed(section: dict, name: str) -> str:
    """``"2 <= Ldim <= 3"`` / ``"Ldim = 3"``: what a certificate section proves."""
    if "claim" in section:
        claim = section["claim"]
        lo = claim["lower"][1] if "lower" in claim else "?"
        hi = claim["upper"][1] if "upper" in claim else "?"
    else:  # a VC section: the shattered set, and the value its upper proof refutes above
        lo = len(section["lower"]) if "lower" in section else "?"
        hi = section["upper"]["value"] if "upper" in section else "?"
    return f"{name} = {lo}" if lo == hi else f"{lo} <= {name} <= {hi}"


def _write_certificate(path: str, writer, out, done: list[str]) -> None:
    size = len(writer.document()["spaces"])
    _write_output("--certificate", path, out,
                  f"wrote {path}: a certificate of {', '.join(done)} ({size:,} version spaces); "
                  f"check it with: mistakebound verify {path}", save=lambda: writer.write(path, parameter="--certificate"))


#: A VC search of ``ldim`` still running after this many seconds prints a note on stderr
#: with the Ldim found and the VC search's limit.
LDIM_VC_NOTE_SECONDS = 1.0


def _cmd_check(args, out) -> int:
    from mistakebound.verification.selfcheck import CheckReport, default_classes, run_check, run_scenarios
    from mistakebound.verification.suites import all_scenarios

    # class by class, then scenario by scenario: the same rows as run_check(seed) followed
    # by run_scenarios(seed), with a progress bar and partial results on Ctrl-C
    json_path = getattr(args, "json", None)
    _check_out(json_path, (".json",), "JSON", option="--json")  # refused before any game is played
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
            print(printable(f"no JSON report written to {json_path} (the check did not finish)"), file=out)
        return EXIT_INTERRUPTED
    report = CheckReport(rows=rows)
    print(report.format_table(), file=out)
    print(file=out)
    print(report.legend(), file=out)
    print(file=out)
    print(report.summary(), file=out)
    if json_path:
        _write_output("--json", json_path, out, f"wrote {json_path} ({len(report.rows)} rows, JSON)",
                      data=report.to_json())
    return EXIT_OK if report.ok else EXIT_BROKEN



# ------------------------------------------------------------------ players and games
def format_transcript(rounds: Sequence[Any]) -> str:
    """The rounds of a game as a table (:func:`~mistakebound.game.transcript.format_rounds`).

    Examples
    --------
    >>> from mistakebound.game.transcript import Round
    >>> print(format_transcript([Round(1, 8, 1.0, 1, 0), Round(2, 4, 0.25, 0, 0)]))
    t  x  p     prediction  y  mistake
    -  -  ----  ----------  -  -------
    1  8  1     1           0  yes
    2  4  0.25  0           0  no
    """
    return format_rounds(rounds)


def transcript_records(T: Any, *, claim: Bound | None = None, verdict: Verdict | None = None,
                       complete: bool = True) -> list[dict]:
    """The JSON Lines records of a game: one object per round, then one summary object.

    Round objects hold ``type`` (``"round"``), ``t``, ``x`` (tuples as lists), ``p``,
    ``prediction``, ``y`` and ``mistake`` (``t``, ``w``, ``value`` for an online convex
    optimisation game); the summary (``type`` ``"summary"``) holds the players, the
    class, the seed, the totals, the version space, the learner's claim and the verdict.

    Examples
    --------
    >>> from mistakebound.game.transcript import Round, Transcript
    >>> T = Transcript(rounds=[Round(1, (0, 1), 1.0, 1, 0)], learner="L", adversary="A", seed=0)
    >>> records = transcript_records(T)
    >>> records[0]
    {'type': 'round', 't': 1, 'x': [0, 1], 'p': 1.0, 'prediction': 1, 'y': 0, 'mistake': True}
    >>> records[1]["mistakes"], records[1]["complete"], records[1]["verdict"]
    (1, True, None)
    """
    claimed = None if claim is None else {
        "value": json_value(claim.value), "measure": claim.measure, "source": claim.source,
        "assumptions": list(claim.assumptions), "reason": claim.reason,
    }
    forced = None if verdict is None else verdict.forced
    judged = {
        "bound": claimed if claim is not None and claim.stated else None,
        "claim": claimed,
        "forced": None if forced is None or not forced.stated else {
            "value": json_value(forced.value), "measure": forced.measure, "source": forced.source},
        "verdict": None if verdict is None else verdict.status,
        "bound_holds": None if verdict is None else verdict.holds,
        "message": None if verdict is None else verdict.message,
    }
    if isinstance(T, OCOTranscript):
        records = [{"type": "round", "t": r.t, "w": list(r.w), "value": r.value} for r in T.rounds]
        summary = {"type": "summary", "complete": bool(complete), "learner": T.learner, "adversary": T.adversary,
                   "setting": OCOSetting(T.d, radius=T.radius).describe(), "seed": T.seed, "rounds": len(T),
                   "cumulative_loss": T.cumulative_loss, "regret": T.best_fixed_regret() if len(T) else 0.0,
                   **judged}
    else:
        # one round format (round_record); a game played with --stream kept only its totals: its
        # rounds were written as they were played
        records = [round_record(r) for r in T.rounds] if T.rounds_kept else []
        summary = {
            "type": "summary", "complete": bool(complete), "learner": T.learner, "adversary": T.adversary,
            "class": T.class_name, "seed": T.seed, "realizable": T.realizable, "rounds": len(T),
            "mistakes": T.mistakes, "expected_mistakes": T.expected_mistakes, "regret": T.regret,
            "best_hypothesis_mistakes": T.best_hypothesis_mistakes,
            "version_space": None if T.version_space is None else list(T.version_space),
            **judged,
        }
    records.append({k: json_value(v) for k, v in summary.items()})
    return records


def _jsonl_writer(records: list[dict]):
    """A function writing ``records`` as JSON Lines to a temporary file (for :func:`_write_output`)."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            for record in records:
                fh.write(json.dumps(record) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    return write


def _check_out(path: str | None, suffixes: tuple[str, ...], what: str, option: str = "--out") -> None:
    """Refuse, before any work, an output path that is misnamed or could not be written.

    The suffix, then :func:`~mistakebound.foundations.files.check_writable`: the folder
    exists and takes a new file, the target is not a folder or a read-only file (a
    symbolic link is followed, and the file written is named when it is written).
    """
    if path is None:
        return
    from mistakebound.foundations.errors import InvalidArgumentError
    from mistakebound.foundations.files import check_writable

    p = Path(path)
    if p.suffix.lower() not in suffixes:
        raise _BadInput(f"{option}: expected a {what} file name ending in {' or '.join(suffixes)}, got {path!r}")
    try:
        check_writable(p, parameter=option)
    except InvalidArgumentError as exc:
        raise _BadInput(str(exc)) from None


def _save_drawing(fig: Any, path: str, out, what: str) -> None:
    """Save a figure to ``--out``, saying ``what`` it shows; when the write fails, say it was drawn, not written."""
    from mistakebound.interfaces.plots import save_figure

    try:
        _write_output("--out", path, out, f"wrote {path}: {what}", save=lambda: save_figure(fig, path))
    except _OutputFailed:
        print(f"drawn, not written: {what}", file=out)
        raise


def _write_output(option: str, path: str, out, line: str, *, data: Any = None, save: Any = None) -> None:
    """Write an output file atomically and print ``line``; a failure is :class:`_OutputFailed` (exit 2).

    ``data`` is text, bytes or a function ``write(temporary_path)`` (as for
    :func:`~mistakebound.foundations.files.write_atomically`), or ``save()`` does the
    writing (a figure, through :func:`~mistakebound.interfaces.plots.save_figure`).  The
    results were printed before: a failure loses the file, never what was computed.  A
    symbolic link is kept and its target written, and ``line`` then says so.  ``line`` is
    printed on one line, its control characters escaped (the file name's too).
    """
    from mistakebound.foundations.errors import InvalidArgumentError
    from mistakebound.foundations.files import output_target, write_atomically

    try:
        target = output_target(path, parameter=option)
        if save is not None:
            save()
        else:
            write_atomically(path, data, parameter=option)
    except (OSError, InvalidArgumentError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        for prefix in (f"{option}: ", "path: "):  # the option is named once, in front
            if isinstance(exc, InvalidArgumentError) and reason.startswith(prefix):
                reason = reason[len(prefix):]
                break
        raise _OutputFailed(f"{option}: cannot write {path!r}: {reason}; the results above are complete, "
                            "but the file was not written (a file already there is unchanged)") from None
    if target != Path(path):
        note = f"a symbolic link: its target {str(target)!r} was written, the link kept"
        line = line[:-1] + f"; {note})" if line.endswith(")") else f"{line} ({note})"
    print(printable(line), file=out)  # one line, whatever the file name holds


def _require_plots() -> None:
    from mistakebound.interfaces.plots import _matplotlib

    _matplotlib()


def _bound_line(claim: Bound, verdict: Verdict) -> str:
    """``bound = 4 on mistakes: holds (Theorem 21.3 ...)``, or why there is none."""
    if not claim.stated:
        return f"bound = none: {claim.reason}" if claim.reason else "bound = none stated by the learner for this game"
    status = {"ok": "holds", None: f"not judged (this game does not measure {claim.measure})"}.get(
        verdict.bound_status, verdict.bound_status)
    source = f" ({claim.source})" if claim.source else ""
    return f"bound = {number_text(claim.value)} on {claim.measure}: {status}{source}"


def _forced_line(forced: Bound | None, verdict: Verdict) -> str | None:
    """``forced = 4 on mistakes: holds (Lemma 21.6 ...)`` when the adversary claims a count."""
    if forced is None or not forced.stated:
        return None
    status = {"ok": "holds", None: f"not judged (this game does not measure {forced.measure})"}.get(
        verdict.forced_status, verdict.forced_status)
    source = f" ({forced.source})" if forced.source else ""
    return f"forced = {number_text(forced.value)} on {forced.measure}: {status}{source}"


class _RoundBar(Observer):
    """Advances a progress bar after each round."""

    def __init__(self, bar: Progress):
        self.bar = bar

    def on_round(self, game: Any, r: Any) -> None:
        self.bar.update()


def _run_game(args: Any, setting: Any, learner_name: str, bar: Progress | None = None, *,
              keep: str = "rounds", rounds_out: Any = None) -> tuple:
    """Build the players by name and play one game with the CLI's options.

    Returns ``(learner, transcript, claim, verdict)``.  Raises ``GameInterrupted`` (with
    the rounds played) on Ctrl-C and ``GameError`` when a player breaks a rule.
    ``keep`` and ``rounds_out`` are :func:`play`'s ``keep`` and ``out`` (``play --stream``).
    """
    from mistakebound.verification.claims import forced_bound, judge_played

    realizable = not args.unrealizable
    learner = registry.build("learner", learner_name, setting, rounds=args.rounds)
    adversary = registry.build("adversary", args.adversary, setting, rounds=args.rounds)
    forced = forced_bound(adversary, setting, learner=learner, rounds=args.rounds, realizable=realizable)
    if isinstance(setting, OCOSetting) and args.unrealizable:
        raise _BadInput("--unrealizable: an online convex optimisation game has no labels to realize")
    observers = [] if bar is None or isinstance(setting, OCOSetting) else [_RoundBar(bar)]
    T = play(learner, adversary, setting, rounds=args.rounds, seed=args.seed, realizable=realizable,
             observers=observers, keep=keep, out=rounds_out)
    try:
        verdict = judge_played(learner, setting, T, rounds=args.rounds, realizable=realizable, forced=forced)
    except MistakeboundError as exc:  # nothing already played is lost: the caller prints the game first
        raise _ClaimFailed(exc, T) from exc
    return learner, T, verdict.bound, verdict


def _plural(n: Any, word: str) -> str:
    return f"{number_text(n)} {word}{'' if n == 1 else 's'}"


def _game_header(T: Any, rounds: int, setting: Any = None) -> str:
    if isinstance(T, OCOTranscript):
        where = setting.describe() if setting is not None else f"oco(d={T.d})"
        return f"game: {T.learner} vs {T.adversary} on {where}, seed {T.seed}, at most {rounds} rounds"
    kind = "realizable" if T.realizable else "unrealizable"
    return f"game: {T.learner} vs {T.adversary} on {T.class_name}, {kind}, seed {T.seed}, at most {rounds} rounds"


def _totals(T: Any, setting: Any) -> list[str]:
    if isinstance(T, OCOTranscript):
        return [f"rounds = {len(T)}", f"cumulative loss = {number_text(T.cumulative_loss)}",
                f"regret = {number_text(T.best_fixed_regret() if len(T) else 0.0)} (against the best fixed point "
                "in hindsight)"]
    lines = [
        f"rounds = {len(T)}",
        f"mistakes = {T.mistakes}",
        f"expected mistakes = {number_text(T.expected_mistakes)}",
    ]
    if T.regret is not None:
        lines.append(
            f"regret = {number_text(T.regret)} (the best hypothesis in hindsight makes "
            f"{_plural(T.best_hypothesis_mistakes, 'mistake')})"
        )
    if T.version_space is not None and isinstance(setting, HypothesisClass):
        names = [setting.hypothesis_name(i) for i in T.version_space]
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        lines.append(f"version space = {len(names)} of {setting.n_hypotheses} hypotheses" + (f": {shown}" if names else ""))
    return lines


def _oco_table(T: OCOTranscript) -> str:
    rows = [[str(r.t), "(" + ",".join(number_text(v) for v in r.w) + ")", number_text(r.value)] for r in T.rounds]
    return text_table(["t", "w", "loss"], rows)


def _stream_game(args: Any, setting: Any, bar: Progress) -> tuple:
    """``play --stream``: the rounds go to ``--out`` as they are played (the game keeps only its
    totals), then the summary; the file is written atomically, and not at all if the game stops."""
    from mistakebound.foundations.files import write_atomically

    result: list = []

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            result.extend(_run_game(args, setting, args.learner, bar, keep="totals", rounds_out=fh))
            _, T, claim, verdict = result
            fh.write(json.dumps(transcript_records(T, claim=claim, verdict=verdict)[-1]) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    try:
        write_atomically(args.out, write)
    except OSError as exc:  # a full disk, say: one line, exit 2 (the game's own errors pass through)
        raise _BadInput(f"--out: cannot write {args.out!r}: {exc.strerror or exc}") from None
    return tuple(result)


def _cmd_play(args, out) -> int:
    if args.rounds is None:
        args.rounds = DEFAULT_ROUNDS
    stream = bool(getattr(args, "stream", False))
    if stream and not args.out:
        raise _BadInput("--stream: needs --out FILE.jsonl, the file the rounds are written to as they are played")
    args.quiet = args.quiet or stream  # a streamed game keeps no rounds to print
    _check_out(args.out, _JSONL_SUFFIXES, "JSON Lines")
    setting = registry.load_setting(args.cls)
    try:
        with Progress(args.rounds, desc="play", unit="rounds") as bar:
            if stream:
                learner, T, claim, verdict = _stream_game(args, setting, bar)
            else:
                learner, T, claim, verdict = _run_game(args, setting, args.learner, bar)
    except GameInterrupted as exc:
        played = exc.transcript
        print(f"interrupted after {len(played)} rounds of {played.learner} vs {played.adversary} "
              f"on {setting.describe()}", file=out)
        if len(played) and not args.quiet:
            print(_oco_table(played) if isinstance(played, OCOTranscript) else format_transcript(played.rounds),
                  file=out)
        for line in _totals(played, setting)[:3]:
            print(line, file=out)
        return EXIT_INTERRUPTED
    except _ClaimFailed as failed:  # the game finished; the learner's or adversary's claim could not be read
        T = failed.transcript
        print(_game_header(T, args.rounds, setting), file=out)
        if not args.quiet:
            print(_oco_table(T) if isinstance(T, OCOTranscript) else format_transcript(T.rounds), file=out)
        for line in _totals(T, setting):
            print(line, file=out)
        message = one_line(failed.error)
        print(f"bound = not judged: {message}", file=out)
        _error("play", f"error: {message}")
        return EXIT_BROKEN
    except GameError as exc:
        message = one_line(exc)
        print(f"game stopped: {message}", file=out)
        played = exc.transcript
        if played is not None:
            if len(played) and not args.quiet:
                rounds = played.rounds
                print(_oco_table(played) if isinstance(played, OCOTranscript) else format_transcript(rounds), file=out)
            print(f"rounds completed = {len(played)}", file=out)
        _error("play", f"error: {message}")
        return EXIT_BROKEN
    print(_game_header(T, args.rounds, setting), file=out)
    if not args.quiet:
        print(_oco_table(T) if isinstance(T, OCOTranscript) else format_transcript(T.rounds), file=out)
    for line in _totals(T, setting):
        print(line, file=out)
    print(_bound_line(claim, verdict), file=out)
    forced_line = _forced_line(verdict.forced, verdict)
    if forced_line:
        print(forced_line, file=out)
    if args.out and stream:
        print(printable(f"wrote {args.out} ({len(T)} rounds and a summary, JSON Lines)"), file=out)
    elif args.out:
        records = transcript_records(T, claim=claim, verdict=verdict)
        _write_output("--out", args.out, out, f"wrote {args.out} ({len(T)} rounds and a summary, JSON Lines)",
                      data=_jsonl_writer(records))
    return EXIT_BROKEN if verdict.broken else EXIT_OK


# ------------------------------------------------------------------------- worst case
def _worst_case(learner: Any, H: HypothesisClass, args: Any, desc: str, writer: Any = None):
    """worst_case_mistakes with the CLI's budget and a progress bar counting positions (certified into ``writer``)."""
    from mistakebound.theory.worst_case import worst_case_mistakes
    from mistakebound.theory.worst_case_certificate import worst_case_section

    with Progress(args.max_nodes, desc=desc, unit="positions") as bar:
        if writer is not None:
            return worst_case_section(learner, H, writer, horizon=args.horizon, max_nodes=args.max_nodes,
                                      time_limit=args.time_limit, progress=bar.update)[0]
        return worst_case_mistakes(learner, H, horizon=args.horizon, max_nodes=args.max_nodes,
                                   time_limit=args.time_limit, progress=bar.update)


def _interval_text(W: Any) -> str:
    return f">= {number_text(W.lower)} and <= {number_text(W.upper)}"


def _claim_line(claim: Bound, verdict: Verdict, W: Any) -> str:
    """The learner's claim beside the search's proven interval: held, broken, or undecided."""
    if not claim.stated:
        return f"claim = none: {claim.reason}" if claim.reason else "claim = none"
    source = f" ({claim.source})" if claim.source else ""
    head = f"claim = {number_text(claim.value)} on {claim.measure}{source}"
    if verdict.status == "BROKEN":
        return f"{head}: BROKEN (the adversary's line forces {number_text(W.lower)})"
    if verdict.status == "ok":
        return f"{head}: holds" + ("" if W.exact else f" (proven: M_A(H) <= {number_text(W.upper)})")
    return f"{head}: undecided (a claim, not proven: the search proved only M_A(H) {_interval_text(W)})"


def _cmd_worst_case(args, out) -> int:
    from mistakebound.theory.littlestone import littlestone_bounds
    from mistakebound.verification.claims import judge, stated_bound

    _check_out(args.certificate, CERTIFICATE_SUFFIXES, "certificate", option="--certificate")
    H = _finite_class(args.cls, "worst-case")
    learner = registry.build("learner", args.learner, H, rounds=args.horizon)
    name = registry.find("learner", args.learner).name
    writer = None
    if args.certificate is not None:
        from mistakebound.theory.certificate import CertificateWriter

        writer = CertificateWriter(H)
    W = _worst_case(learner, H, args, f"worst case of {name}", writer)
    over = f" over {args.horizon} rounds" if args.horizon is not None else ""
    print(f"learner: {W.learner}", file=out)
    print(f"class: {H.describe()}", file=out)
    if W.exact:
        print(f"M_A(H){over} = {number_text(W.lower)} (exact; {W.nodes:,} positions searched)", file=out)
    else:
        why = "interrupted" if W.status == "interrupted" else "the budget ran out"
        print(f"M_A(H){over} {_interval_text(W)} (partial: {why} after {W.nodes:,} positions; "
              "raise --max-nodes / --time-limit or give a smaller --horizon)", file=out)
    G = W.witness
    k = G.number_of_nodes() - 1
    if k:
        rows = []
        for t in range(k):
            a = G.nodes[t]
            gain = float(a["gain"])
            rows.append([str(t + 1), instance_text(a["instance"]), number_text(a["prediction"]), str(a["label"]),
                         "yes" if gain == 1 else ("no" if gain == 0 else number_text(gain))])
        what = "optimal line" if W.exact else "best line found"
        print(f"{what} (the adversary's instances and labels; replay with MinimaxAdversary):", file=out)
        print(text_table(["t", "x", "p", "y", "mistake"], rows), file=out)
    else:
        print("optimal line: empty (no instance splits the class, or the horizon is 0)", file=out)
    if writer is None:
        ldim = littlestone_bounds(H, max_nodes=args.max_nodes, time_limit=args.time_limit)
    else:  # the same search, certified in the same file
        from mistakebound.theory.ldim_certificate import ldim_certificate
        from mistakebound.theory.littlestone import LdimBounds

        section = ldim_certificate(H, writer, max_nodes=args.max_nodes, time_limit=args.time_limit)
        lo, hi = section["claim"]["lower"][1], section["claim"]["upper"][1]
        ldim = LdimBounds(lower=lo, upper=hi, status="exact" if lo == hi else "budget")
    if ldim.exact:
        print(f"Ldim = {ldim.lower} (forced on every deterministic learner; SOA makes no more)", file=out)
    else:
        print(f"{ldim.describe()} (forced on every deterministic learner; SOA makes no more)", file=out)
    claim = stated_bound(learner, H, rounds=args.horizon, realizable=True)
    verdict = judge(W, claim)
    print(_claim_line(claim, verdict, W), file=out)
    if writer is not None:
        wsection = writer.document()["results"][0]
        done = [_claimed(wsection, f"M_A(H){over}"), _claimed(writer.document()["results"][1], "Ldim")]
        _write_certificate(args.certificate, writer, out, done)
    if verdict.broken:
        return EXIT_BROKEN
    return EXIT_OK if W.exact and ldim.exact else EXIT_INTERRUPTED


# ------------------------------------------------------------------------ verify
def _cmd_verify(args, out) -> int:
    """Check a certificate with the independent checker; with CLASS, of that class; with --learner, replayed."""
    from mistakebound.certificates.verify import CertificateError, describe, check, load
    from mistakebound.foundations.memory import available_memory

    if args.learner is not None and args.cls is None:
        raise _BadInput("--learner: replaying a worst-case certificate needs CLASS (the class the learner is built on)")
    H = expected = None
    if args.cls is not None:
        from mistakebound.theory.certificate import class_section

        H = _finite_class(args.cls, "verify")
        expected = class_section(H)
    memory = available_memory()
    try:
        document = load(args.file, memory=memory)
        proven = check(document, expected, memory=memory)
    except MemoryError:
        raise _BadInput(f"FILE: cannot check {args.file!r}: out of memory; expected a certificate the "
                        "memory available can hold") from None
    except OSError as exc:
        raise _BadInput(f"FILE: cannot read {args.file!r}: {exc.strerror or exc}; expected a certificate "
                        "written with --certificate") from None
    except CertificateError as exc:
        print(f"REJECTED: {exc}", file=out)
        return EXIT_BROKEN
    learner_text = None
    if args.learner is not None:
        from mistakebound.theory.worst_case_certificate import replay

        if "worst-case" not in proven:
            raise _BadInput("--learner: the certificate has no worst-case result to replay")
        learner = registry.build("learner", args.learner, H, rounds=proven["worst-case"].about["horizon"])
        try:
            replay(document, learner, H)
        except CertificateError as exc:
            print(f"REJECTED: {exc}", file=out)
            return EXIT_BROKEN
        from mistakebound.game.players import describe as describe_player

        learner_text = f"{describe_player(learner)} (replayed: it makes every move the certificate records)"
    H_text = None
    if H is not None:
        H_text = f"{H.describe()} ({H.n_hypotheses} hypotheses on {H.n_instances} instances, sha256 {expected['sha256']})"
    for line in describe(proven, H=H_text, learner=learner_text):
        print(f"verified: {line}", file=out)
    return EXIT_OK


# ------------------------------------------------------------------------ tree, plot
#: What ``tree --format`` writes, and the file names each format takes.
TREE_FORMATS = {"png": (".png",), "svg": (".svg",), "pdf": (".pdf",), "dot": (".dot", ".gv"),
                "tikz": (".tex", ".tikz"), "json": (".json",)}


def _tree_format(args) -> str:
    """The format ``tree`` writes: ``--format``, else the one ``--out``'s suffix names."""
    if args.format is not None:
        _check_out(args.out, TREE_FORMATS[args.format], f"{args.format}")
        return args.format
    suffixes = tuple(x for names in TREE_FORMATS.values() for x in names)
    _check_out(args.out, suffixes, "figure or export")
    suffix = Path(args.out).suffix.lower()
    return next(f for f, names in TREE_FORMATS.items() if suffix in names)


def _inches(text: str) -> float:
    """A width in inches, at least 1 (``tree --width``)."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 1):
        raise argparse.ArgumentTypeError(f"expected a width in inches >= 1, got {text!r}")
    return value


def _cmd_tree(args, out) -> int:
    from mistakebound.interfaces.plots import draw_strategy, draw_tree

    fmt = _tree_format(args)
    figure = fmt in ("png", "svg", "pdf")
    if args.worst_case and not figure:
        raise _BadInput(f"--format: {fmt} exports a shattered tree; a worst-case line is drawn "
                        "(png, svg or pdf) or written with 'mistakebound worst-case --certificate'")
    if figure:
        _require_plots()
    H = _finite_class(args.cls, "tree")
    if args.worst_case:
        learner = registry.build("learner", args.worst_case, H, rounds=args.horizon)
        name = registry.find("learner", args.worst_case).name
        W = _worst_case(learner, H, args, f"worst case of {name}")
        fig = draw_strategy(W.witness, H, learner=name, width=args.width)
        state = (f"{number_text(W.lower)} mistakes (exact)" if W.exact else
                 f"between {number_text(W.lower)} and {number_text(W.upper)} mistakes (partial: {W.status})")
        what = f"the worst-case line of {name} on {H.describe()}, {state}"
        _save_drawing(fig, args.out, out, what)
        return EXIT_OK if W.exact else EXIT_INTERRUPTED
    from mistakebound.theory.littlestone import shattered_tree
    from mistakebound.theory.search import SearchIncomplete, SearchInterrupted

    with Progress(None, desc="Littlestone dimension") as bar:
        bar.start_ticker()
        try:
            tree = shattered_tree(H, max_nodes=args.max_nodes, time_limit=args.time_limit)
        except (SearchIncomplete, SearchInterrupted) as exc:
            bounds = exc.result
            print(f"{bounds.describe()}, after {bounds.nodes} nodes in {bounds.seconds:.2f} s; no tree drawn", file=out)
            print("the result is partial: raise --max-nodes / --time-limit for the exact value and the tree", file=out)
            return EXIT_INTERRUPTED
    depth = tree.graph["depth"]
    what = f"a shattered tree of {H.describe()}, depth {depth} = Ldim, {2 ** depth} leaves"
    if not figure:
        from mistakebound.theory import tree_export

        text = {"dot": tree_export.tree_to_dot, "tikz": tree_export.tree_to_tikz,
                "json": lambda T: tree_export.tree_to_json(T, H)}[fmt](tree)
        _write_output("--out", args.out, out, f"wrote {args.out}: {what} ({fmt})", data=text + "\n")
        return EXIT_OK
    fig = draw_tree(tree, H, levels=args.levels, width=args.width)
    drawn = fig.tree_layout
    if drawn.levels < drawn.depth:
        what += f", levels 0-{drawn.levels} drawn (the rest counted; --levels draws more)"
    _save_drawing(fig, args.out, out, what)
    return EXIT_OK


def _cmd_plot(args, out) -> int:
    from mistakebound.interfaces.plots import FIGURE_FORMATS, claim_curve, plot_cumulative, save_figure

    if args.rounds is None:
        args.rounds = DEFAULT_ROUNDS
    _check_out(args.out, FIGURE_FORMATS, "figure")
    names = [n.strip() for n in args.learners.split(",") if n.strip()]
    if not names:
        raise _BadInput(f"--learners: expected comma-separated learner names, got {args.learners!r}")
    labels = [registry.find("learner", n).name for n in names]  # unknown names fail before any game
    adversary_name = registry.find("adversary", args.adversary).name
    _require_plots()
    setting = registry.load_setting(args.cls)
    games: list[tuple[str, Any, Bound, Verdict]] = []
    learners: list[Any] = []
    refused: list[tuple[str, MistakeboundError]] = []  # learners that cannot play this game: a note each
    try:
        with Progress(len(names), desc="plot", unit="games") as bar:
            for name, label in zip(names, labels):
                try:
                    learner, T, claim, verdict = _run_game(args, setting, name)
                except GameError:
                    raise
                except MistakeboundError as exc:  # refused (not applicable, too large...): the others are drawn
                    refused.append((label, exc))
                else:
                    games.append((label, T, claim, verdict))
                    learners.append(learner)
                bar.update()
    except KeyboardInterrupt:
        print(f"interrupted after {len(games)} of {len(names)} games; no figure written", file=out)
        _print_games(games, out)
        return EXIT_INTERRUPTED
    except GameError as exc:  # a player broke a rule: a game errored (exit 1), as in play
        message = one_line(exc)
        print(f"game {len(games) + len(refused) + 1} of {len(names)} stopped: {message}; no figure written", file=out)
        _print_games(games, out)
        _error("plot", f"error: {message}")
        return EXIT_BROKEN
    if not games:  # nothing to draw: the first refusal is the error (bad input, exit 2)
        raise refused[0][1]
    notes = [f"{label} not drawn: {' '.join(str(exc).split())}" for label, exc in refused]
    oco = isinstance(setting, OCOSetting)
    regret_curve = oco or (args.unrealizable and isinstance(setting, (HypothesisClass, ExpertAdvice)))
    measure = "regret" if regret_curve else "mistakes"  # spaces without a best hypothesis: mistakes
    kind = "online convex optimisation" if oco else ("unrealizable" if args.unrealizable else "realizable")
    what = "Regret" if measure == "regret" else "Cumulative mistakes"
    title = f"{what} on {setting.describe()} against {adversary_name} ({kind}, seed {args.seed})"
    bounds = [claim_curve(learner, setting, rounds=args.rounds, realizable=not args.unrealizable, transcript=T)
              if c.stated and (c.measure == "regret") == regret_curve else None
              for learner, (_, T, c, _) in zip(learners, games)]
    fig = plot_cumulative([T for _, T, _, _ in games], bounds, title, H=setting, measure=measure,
                          labels=[label for label, _, _, _ in games], log=args.log, notes=notes)
    _print_games(games, out)  # the games first: a figure that cannot be written loses none of them
    for note in notes:
        print(note, file=out)
    _write_output("--out", args.out, out, f"wrote {args.out}", save=lambda: save_figure(fig, args.out))
    return EXIT_BROKEN if any(v.broken for *_, v in games) else EXIT_OK


def _print_games(games, out) -> None:
    rows = []
    for label, T, claim, verdict in games:
        if isinstance(T, OCOTranscript):
            totals = [str(len(T)), "-", "-", number_text(T.best_fixed_regret() if len(T) else 0.0)]
        else:
            totals = [str(len(T)), str(T.mistakes), number_text(T.expected_mistakes), number_text(T.regret)]
        rows.append([
            label, *totals,
            "-" if not claim.stated else f"{number_text(claim.value)} ({claim.measure})",
            {"ok": "ok", "no bound": "-"}.get(verdict.status, verdict.status),
        ])
    if rows:
        print(text_table(["learner", "rounds", "mistakes", "expected", "regret", "bound", "verdict"], rows), file=out)


# --------------------------------------------------------------------------- parser
def _fill(text: str) -> str:
    return textwrap.fill(text, width=78)


def _players_usage(adversaries: bool = True) -> str:
    """The registered learners (and adversaries), one per line with a summary."""
    lines = ["learners (LEARNER; case, '-' and '_' ignored; or module:Class; parameters as Name(key=value)):"]
    lines += registry.usage("learner")
    if adversaries:
        lines.append("adversaries (ADVERSARY):")
        lines += registry.usage("adversary")
    return "\n".join(lines)


def _settings_usage(spaces: bool) -> str:
    from mistakebound.game.specs import BOOLEAN_SPELLINGS

    lines = [f"zoo classes (CLASS, e.g. thresholds:64, k_sparse:8,2, singletons:5,true; a boolean is "
             f"{BOOLEAN_SPELLINGS}):"]
    lines += registry.usage("class")
    if spaces:
        lines.append("spaces (SETTING, as NAME:ARGS with arguments by position or key=value):")
        lines += registry.usage("space")
    lines.append("or a class file: a path ending in .npy, .csv or .json (rows hypotheses, columns instances).")
    return "\n".join(lines)


def _epilog(players: bool | str, settings: str) -> str:
    """A command's help epilog: only the names it takes (``players`` True: learners and
    adversaries, ``"learners"``: learners only; ``settings`` ``"all"``, ``"classes"`` or ``""``)."""
    parts = []
    if players:
        try:
            parts.append(_players_usage(adversaries=players is True))
        except Exception:  # noqa: BLE001 - help must work even if the registry cannot be listed
            pass
    if settings:
        try:
            parts.append(_settings_usage(spaces=settings == "all"))
        except Exception:  # noqa: BLE001 - help must work even if the zoo cannot be listed
            pass
    parts.append(_fill(
        "exit codes: 0 ok, 1 a bound is broken (or a game errored), 2 bad input (or an output "
        "file that cannot be written), 3 interrupted (Ctrl-C, SIGTERM) or a search out of budget "
        "(partial results printed)"
    ))
    return "\n\n".join(parts)


def _add_budget(p: argparse.ArgumentParser, what: str, default_nodes: int | None = None) -> None:
    p.add_argument("--max-nodes", type=positive, default=default_nodes,
                   help=f"stop {what} after this many nodes and print proven bounds (exit 3)")
    p.add_argument("--time-limit", type=seconds, default=None,
                   help=f"stop {what} after this many seconds and print proven bounds (exit 3); Ctrl-C does the same")


def _parameters(text: str) -> tuple[str, ...]:
    """``--what``: a comma-separated list of the profile's parameters (ldim is always computed)."""
    from mistakebound.theory.profile import PARAMETERS  # the library's list

    names = tuple(dict.fromkeys(n.strip().lower() for n in text.split(",") if n.strip()))
    unknown = [n for n in names if n not in PARAMETERS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list among {', '.join(PARAMETERS)}, "
                                         f"got {text!r}")
    return names


def _add_certificate(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--certificate", metavar="FILE.json", default=None,
                   help=f"also write a certificate of {what} to this file (.json, or .json.gz compressed), "
                        "whose every step `mistakebound verify FILE` checks")


class _Version(argparse.Action):
    """``--version``: the version installed and which Littlestone engine the install has (read when asked)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib import metadata

        from mistakebound.theory import ldim_kernel

        try:
            version = metadata.version("mistakebound")
        except metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree, not installed
            version = "(not installed)"
        engine = ("the compiled Littlestone search" if ldim_kernel.AVAILABLE else
                  "the Python Littlestone search only: the C extension was not built (no C compiler at install); "
                  "searches are 5 to 10 times slower")
        print(f"mistakebound {version}, {engine}; Python {platform.python_version()}")
        parser.exit(EXIT_OK)


def _parser(wanted: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; a description given as a callable is written only for ``wanted``.

    (``ldim``'s names the library's default VC time, which ``verify``, say, has no need to import.)
    """
    formatter = argparse.RawDescriptionHelpFormatter
    parser = Parser(
        prog="mistakebound",
        description="The online mistake-bound game, played and verified exactly.",
        epilog=_epilog(players=True, settings="all"), formatter_class=formatter,
    )
    parser.add_argument("--version", action=_Version, help="print the version and the engine this install has, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, summary: str, description: Any, players: bool | str = True, settings: str = "all"):
        if callable(description):
            description = description() if wanted in (None, name) else summary
        return sub.add_parser(
            name, help=summary, description=_fill(description),
            epilog=_epilog(players, settings), formatter_class=formatter,
        )

    check = command(
        "check", "play every learner against every adversary and check their claims",
        "Play every registered learner against every applicable adversary on the built-in "
        "classes, judge each game against the learner's claimed bound and the adversary's "
        "forced count, run the scenario suites, and print the table. Exit 0 if all hold, 1 otherwise.",
        players=False, settings="",
    )
    check.add_argument("--seed", type=seed, default=0, help="seed of every game (default 0)")
    check.add_argument("--json", metavar="FILE.json",
                       help="also write the report as JSON (lossless; read back with CheckReport.from_json)")
    check.set_defaults(run=_cmd_check)

    def ldim_description() -> str:
        from mistakebound.theory.profile import VC_SECONDS  # the library's default, named here

        return ("Print |H|, |X|, the Littlestone dimension, the log2|H| bound and the VC dimension "
                "of a class given as a zoo spec (e.g. thresholds:64, k_sparse:8,2) or a .npy/.csv/.json "
                "class file (rows hypotheses, columns instances); --what chooses the parameters. The "
                "sizes of the class are printed before any search, and the Ldim line as soon as it is "
                "known, before the other searches start. Each parameter's search has a budget of its "
                "own: the whole of --max-nodes and of --time-limit, not a share. Without --time-limit "
                f"the VC search stops after the longer of {VC_SECONDS:g} s and the time the Ldim search took, and prints "
                f"proven bounds (VCdim <= Ldim) with exit 3; a VC search still running after {LDIM_VC_NOTE_SECONDS:g} s "
                "says on stderr how long it may take. "
                "The searches keep to one memory budget (the least of MemAvailable, the cgroup "
                "limit, ulimit -v and MISTAKEBOUND_MEMORY_LIMIT, shared with --workers). A search "
                "that runs out of memory or of its budget prints the bounds it proved on its line, the "
                "other parameters' lines still follow, and the command exits 3; Ctrl-C or SIGTERM "
                "stops it with the bounds proven so far and starts no further search. A worker that "
                "dies is dropped with a note on stderr, and the search goes on without it.")

    ldim = command(
        "ldim", "print |H|, |X|, Ldim and VCdim (or RL) of a class", ldim_description,
        players=False, settings="classes",
    )

    ldim.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or a .npy, .csv or .json class file")
    ldim.add_argument("--tree", action="store_true", help="also print a shattered tree of depth Ldim")
    _add_budget(ldim, "each search (Ldim, VC, RL: each has the whole budget, not a share)")
    ldim.add_argument("--what", type=_parameters, default=("ldim", "vc"), metavar="LIST",
                      help="the parameters to compute, comma-separated, among: ldim (always, printed first), vc, "
                           "rldim (the randomized Littlestone dimension, an exact fraction); default ldim,vc; "
                           "--what ldim skips the VC search")
    _add_certificate(ldim, "every parameter computed")
    ldim.add_argument("--workers", type=workers, default=1,
                      help="processes searching for Ldim with the Python search, this one included "
                           "(default 1: the compiled search, faster where it is built); pays only without "
                           "it, or on very long searches (see the README's Performance section)")
    ldim.set_defaults(run=_cmd_ldim)

    play_p = command(
        "play", "play one game and print its transcript, totals and the learner's claim",
        "Play LEARNER against ADVERSARY on SETTING and print one line per round (t, x, the "
        "learner's probability p of label 1, its prediction, the label y, mistake) and the "
        "totals: mistakes, expected mistakes, regret against the best hypothesis in "
        "hindsight, the version space, and the learner's claimed bound with its verdict. "
        "Exit 1 if the claim is broken.",
    )
    play_p.add_argument("learner", metavar="LEARNER", help="a learner name (listed below) or module:Class")
    play_p.add_argument("adversary", metavar="ADVERSARY", help="an adversary name (listed below) or module:Class")
    play_p.add_argument("cls", metavar="SETTING", help="a zoo class, a space, or a class file (listed below)")
    play_p.add_argument("--rounds", type=positive, default=None, help=f"the horizon (default {DEFAULT_ROUNDS})")
    play_p.add_argument("--seed", type=seed, default=0, help="seed of the game (default 0)")
    play_p.add_argument("--unrealizable", action="store_true",
                        help="allow labels no hypothesis gives (default: realizable games)")
    play_p.add_argument("--out", metavar="FILE.jsonl",
                        help="also write the game as JSON Lines: one object per round, then a summary")
    play_p.add_argument("-q", "--quiet", action="store_true", help="print the totals only, not the rounds")
    play_p.add_argument("--stream", action="store_true",
                        help="for long horizons: write the rounds to --out as they are played and keep only the "
                             "totals in memory (the same file; implies -q)")
    play_p.set_defaults(run=_cmd_play)

    worst = command(
        "worst-case", "the exact worst case M_A(H) of a learner and the optimal adversary line",
        "Search the game tree for the largest number of mistakes any realizable adaptive "
        "adversary can force on LEARNER over CLASS (the game value M_A(H)), print it with the "
        "adversary's optimal line and Ldim(H), and judge the learner's claim against it. A "
        "search that runs out of its budget prints proven lower and upper bounds and exits 3; "
        "a claim the search proves broken exits 1.",
        players="learners", settings="classes",
    )
    worst.add_argument("learner", metavar="LEARNER", help="a learner name (listed below) or module:Class")
    worst.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or a .npy, .csv or .json class file")
    worst.add_argument("--horizon", type=seed, default=None,
                       help="limit games to this many rounds (needed for learners that change state without a mistake)")
    _add_budget(worst, "the search")
    _add_certificate(worst, "M_A(H) (with the learner's predictions as recorded) and Ldim")
    worst.set_defaults(run=_cmd_worst_case)

    check_p = command(
        "verify", "check a certificate written by --certificate, step by step",
        "Check every step of a certificate (written by ldim or worst-case with --certificate) with "
        "the independent checker mistakebound.certificates.verify, which imports nothing of the "
        "searches (python -I -S .../certificates/verify.py FILE runs the same checks alone), and "
        "print what it proves. With CLASS, the certificate must speak of exactly that class. With "
        "--learner, the predictions a worst-case certificate records are replayed against that "
        "learner (built on CLASS). Exit 0 if every step checks, 1 naming the first that fails, "
        "2 if the file cannot be read.",
        players="learners", settings="classes",
    )
    check_p.add_argument("file", metavar="FILE", help="the certificate (.json or .json.gz)")
    check_p.add_argument("cls", metavar="CLASS", nargs="?", default=None,
                         help="the class it must speak of: zoo spec NAME:ARGS, or a .npy, .csv or .json class file")
    check_p.add_argument("--learner", metavar="LEARNER", default=None,
                         help="replay a worst-case certificate's recorded predictions against this learner "
                              "(needs CLASS)")
    check_p.set_defaults(run=_cmd_verify)

    tree = command(
        "tree", "draw a shattered tree (or a worst-case line), or write it as DOT, TikZ or JSON",
        "Draw a shattered tree of CLASS of depth Ldim: nodes labelled with their instances, "
        "edges with the labels 0 and 1, leaves with the witness hypotheses, to print at --width "
        "inches with 7 pt text; a tree too deep for that is cut, the subtrees below the cut "
        "counted. --format dot|tikz|json (or the suffix .dot, .tex, .json) writes the whole tree "
        "as text instead. With --worst-case LEARNER draw the adversary's optimal line against "
        "LEARNER. Figures need matplotlib (pip install 'mistakebound[plot]').",
        settings="classes",
    )
    tree.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or a .npy, .csv or .json class file")
    tree.add_argument("--worst-case", metavar="LEARNER", help="draw the worst-case line against this learner")
    tree.add_argument("--horizon", type=seed, default=None, help="with --worst-case: limit games to this many rounds")
    _add_budget(tree, "the search (the shattered tree's, or with --worst-case the worst case's)")
    tree.add_argument("--out", metavar="FILE", required=True,
                      help="the file: a figure (.png, .svg, .pdf) or an export (.dot, .tex, .json)")
    tree.add_argument("--format", choices=tuple(TREE_FORMATS), default=None,
                      help="what to write (default: the one --out's suffix names): a figure, a Graphviz "
                           "digraph (dot), a LaTeX forest (tikz) or the tree's nodes (json, read back by "
                           "mistakebound.theory.tree_export.tree_from_json)")
    tree.add_argument("--levels", type=seed, default=None,
                      help="figures: draw this many levels below the root (default: as many as fit --width)")
    tree.add_argument("--width", type=_inches, default=6.5, metavar="INCHES",
                      help="figures: the width to print at, text at 7 pt (default 6.5, a paper's text width)")
    tree.set_defaults(run=_cmd_tree)

    plot = command(
        "plot", "draw cumulative mistakes (or regret) against the learners' claims",
        "Play each learner of --learners against --adversary on SETTING (same seed) and draw "
        "cumulative mistakes over the rounds, or with --unrealizable (and on oco settings) the "
        "regret, each learner's claimed bound dashed in its colour (a curve in t when the claim "
        "grows with the rounds). A learner that cannot play this game is left out with a note "
        "under the figure. Needs matplotlib (pip install 'mistakebound[plot]').",
    )
    plot.add_argument("cls", metavar="SETTING", help="a zoo class, a space, or a class file (listed below)")
    plot.add_argument("--learners", required=True, metavar="L1,L2", help="comma-separated learner names")
    plot.add_argument("--adversary", required=True, metavar="ADVERSARY", help="an adversary name")
    plot.add_argument("--rounds", type=positive, default=None, help=f"the horizon (default {DEFAULT_ROUNDS})")
    plot.add_argument("--seed", type=seed, default=0, help="seed of every game (default 0)")
    plot.add_argument("--unrealizable", action="store_true", help="unrealizable games; plot the regret")
    plot.add_argument("--out", metavar="FILE", required=True, help="the figure: a .png, .svg or .pdf file name")
    plot.add_argument("--log", action="store_true",
                      help="logarithmic axes (linear below 1, so 0 stays on them): for bounds far above the curves")
    plot.set_defaults(run=_cmd_plot)

    from mistakebound.interfaces.sweep.cli import add_parser as add_sweep_parser

    add_sweep_parser(sub)  # mistakebound sweep CONFIG.toml (see mistakebound.interfaces.sweep)
    return parser


class _Output:
    """Standard output as the commands write it: control characters escaped (see ``printable``).

    A write the system refuses (``> /dev/full``, a full disk) is :class:`_OutputFailed` (exit
    2, one line naming standard output); a reader that left (``| head``) stays
    ``BrokenPipeError`` (exit 0)."""

    def __init__(self, stream):
        self._stream = stream

    @staticmethod
    def _failed(exc: OSError) -> _OutputFailed:
        return _OutputFailed(f"standard output: cannot write ({exc.strerror or exc}); the results printed "
                             "there are lost: expected a terminal, a pipe or a file with room for them")

    def write(self, text: str) -> int:
        try:
            return self._stream.write(printable(text, lines=True))
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def __getattr__(self, name: str) -> Any:  # flush, isatty, encoding, ...
        return getattr(self._stream, name)


_SAID = {"lines": 0}  # how many lines the command line printed on stderr in this process

#: The most characters an argument (a name, a class spec, a file name) may hold: a file
#: name's limit on Linux (PATH_MAX).  Longer ones are refused before anything reads them.
MAX_ARGUMENT_CHARS = 4096
_METAVARS = {"cls": "CLASS", "learner": "LEARNER", "adversary": "ADVERSARY", "config": "CONFIG.toml"}


def _check_lengths(args: argparse.Namespace) -> None:
    """Refuse an argument longer than :data:`MAX_ARGUMENT_CHARS` (50,000 ``[`` as a class spec, say)."""
    for key, value in vars(args).items():
        if isinstance(value, str) and len(value) > MAX_ARGUMENT_CHARS:
            name = _METAVARS.get(key, "--" + key.replace("_", "-"))
            raise _BadInput(f"{name}: expected at most {MAX_ARGUMENT_CHARS:,} characters (a name, a class spec or a "
                            f"file name), got {len(value):,}: {value[:40]!r}...")


def _error(command: str, message: str, exc: BaseException | None = None) -> None:
    """One line on stderr: ``mistakebound COMMAND: error: MESSAGE`` (control characters escaped)."""
    _SAID["lines"] += 1
    _note(command, message, exc)


def _note(command: str, message: str, exc: BaseException | None = None) -> None:
    """One line on stderr that reports no outcome (a note while the command works): not counted in ``_SAID``."""
    message = shortened(one_line(message) or (type(exc).__name__ if exc is not None else "error"))
    try:
        print(printable(f"mistakebound{' ' + command if command else ''}: {message}"), file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr closed: the exit code still says it
        pass


def _quiet_stdout() -> None:
    """The reader of standard output left (``mistakebound check | head -1``): send the rest nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no file descriptor behind stdout
        pass


def _run(argv: Sequence[str] | None, out) -> int:
    """Parse ``argv`` and run the command, turning every failure into one line and an exit code."""
    words = sys.argv[1:] if argv is None else list(argv)
    parser = _parser(next((w for w in words if isinstance(w, str) and not w.startswith("-")), None))
    if sys.stdout is None:  # started with standard output closed (`mistakebound ... >&-`)
        words = sys.argv[1:] if argv is None else list(argv)
        _error(next((w for w in words if isinstance(w, str) and not w.startswith("-")), ""),
               "error: standard output is closed; expected somewhere to print the results (> /dev/null discards them)")
        return EXIT_BAD_INPUT
    try:
        args = parser.parse_args(None if argv is None else list(argv))
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2), already printed
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except BrokenPipeError:
        raise
    except OSError as exc:  # --help could not be written
        _error("", f"error: {_Output._failed(exc)}")
        return EXIT_BAD_INPUT
    command = args.command
    try:
        _check_lengths(args)
        return args.run(args, out)
    except _ClaimFailed as exc:  # a claim that raised after its game (plot): a player's fault, not bad input
        _error(command, f"error: {exc}")
        return EXIT_BROKEN
    except _OutputFailed as exc:  # the results were printed; the file could not be written
        _error(command, f"error: {exc}")
        return EXIT_BAD_INPUT
    except (MistakeboundError, _BadInput) as exc:
        _error(command, f"error: {str(exc) or type(exc).__name__}")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # a command without partial results to show
        _error(command, f"interrupted ({startup.interrupted_by() or 'Ctrl-C'})")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        raise
    except MemoryError as exc:  # not refused in advance: the input is too large for this machine
        _error(command, f"error: out of memory ({type(exc).__name__}{': ' + str(exc) if str(exc) else ''}); "
                        "give a smaller class, budget (--max-nodes, --time-limit) or number of rounds")
        return EXIT_BAD_INPUT
    except RecursionError:
        _error(command, "error: the input is nested too deeply to read (RecursionError)")
        return EXIT_BAD_INPUT
    except OSError as exc:  # the system refused something outside the output files (a read, a process)
        where = f" ({exc.filename!r})" if getattr(exc, "filename", None) else ""
        _error(command, f"error: {exc.strerror or exc}{where}")
        return EXIT_BAD_INPUT
    except Exception as exc:  # noqa: BLE001 - a bug (ours, or a player's that the game did not catch)
        if os.environ.get("MISTAKEBOUND_TRACEBACK"):
            import traceback

            traceback.print_exc()
        _error(command, f"internal error: {type(exc).__name__}: {exc} (a bug in mistakebound or in code "
                        "it ran; set MISTAKEBOUND_TRACEBACK=1 to see where)")
        return EXIT_BROKEN


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the exit code.

    Every failure is one line on stderr and an exit code, never a traceback: bad input,
    an output file that cannot be written (checked before the work where it can be, and
    reported after the results otherwise), Ctrl-C or SIGTERM at any moment (exit 3, after
    the partial results the command has), a reader that leaves the pipe (exit 0).

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the program name; default ``sys.argv[1:]``.

    Returns
    -------
    int
        0 on success, 1 for a broken bound, a game error or an internal error, 2 for bad
        input (or an output file that could not be written), 3 when interrupted or a
        search ran out of its budget (partial results printed).

    Examples
    --------
    >>> main(["ldim", "singletons:3"])
    class: singletons(3)
    |H| = 3
    |X| = 3
    Ldim = 1
    log2|H| = 1.58 (upper bound on Ldim)
    VCdim = 1
    0
    """
    words = sys.argv[1:] if argv is None else list(argv)
    command = next((w for w in words if isinstance(w, str) and not w.startswith("-")), "")
    code = EXIT_INTERRUPTED
    try:
        startup.begin()
        code = _main(argv, command)
    except KeyboardInterrupt:  # the first signal came as the command returned (a second one exits at once)
        code = EXIT_INTERRUPTED
        _error(command, f"interrupted ({startup.interrupted_by() or 'Ctrl-C'})")
    finally:
        startup.finish()
    return code


def _main(argv: Sequence[str] | None, command: str) -> int:
    """:func:`main` without its signal handling: run, report an interruption, flush standard output."""
    said = _SAID["lines"]
    try:
        try:
            code = _run(argv, _Output(sys.stdout))
        except KeyboardInterrupt:  # while parsing, or a second Ctrl-C while a command printed its partial results
            code = EXIT_INTERRUPTED
            _error(command, f"interrupted ({startup.interrupted_by() or 'Ctrl-C'})")
        by = startup.interrupted_by()
        if by is not None and code != EXIT_INTERRUPTED:
            # the signal's KeyboardInterrupt never reached the command (C code that clears errors, such as
            # PyObject_HasAttr, can swallow it) or came as it returned: what was printed may not be all of it
            code = EXIT_INTERRUPTED
            _error(command, f"interrupted ({by}) as the command finished; take the results above as partial")
        elif by is not None and _SAID["lines"] == said:
            _error(command, f"interrupted ({by}); the partial results are above")
        try:
            if sys.stdout is not None:
                _Output(sys.stdout).flush()
        except BrokenPipeError:
            raise
        except _OutputFailed as exc:  # the last lines (or --help) could not be written
            _error(command, f"error: {exc}")
            code = EXIT_BAD_INPUT if code == EXIT_OK else code
        except (OSError, ValueError):  # standard output closed meanwhile: the exit code still says it
            pass
    except BrokenPipeError:  # e.g. `mistakebound check | head`: the reader left
        _quiet_stdout()
        code = EXIT_OK
    return code

