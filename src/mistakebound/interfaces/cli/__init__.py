"""The command line: ``mistakebound check | ldim | dims | play | worst-case | verify | tree | plot | sweep``.

A module per command (:mod:`.check`, :mod:`.ldim`, :mod:`.dims`, :mod:`.play`, :mod:`.worst_case`,
:mod:`.verify`, :mod:`.tree`, :mod:`.plot`, and :mod:`mistakebound.interfaces.sweep.cli`),
each with ``add_parser(subparsers)`` and ``run(args, out) -> int``; the parser is built
from them (:mod:`.parser`).  The pieces they share are named after what they do:
:mod:`.output` (standard output and output files), :mod:`.messages` (lines on stderr),
:mod:`.failures`, :mod:`.options` (budget and certificate options, argument lengths),
:mod:`.help_text`, :mod:`.settings`, :mod:`.certificates`, :mod:`.games`.  This module
runs a command and turns every outcome into an exit code (:func:`main`).

* ``check`` runs :func:`mistakebound.verification.selfcheck.run_check` and the scenario
  suites and prints the table and a one-line summary.
* ``ldim CLASS`` prints the size, Littlestone dimension (first, as soon as it is known)
  and VC dimension of a class (``--what`` chooses the parameters, each searched with a
  budget of its own), and with ``--tree`` a shattered tree of depth ``Ldim``.
* ``dims CLASS`` prints every parameter of the class's profile, one line each as it is
  found (``--what`` chooses them, ``--witness`` and ``--json`` give what proves each).
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
and its target written, and the ``wrote`` line names the target, unless the link was
planted by another user in a shared sticky folder such as ``/tmp`` (refused, exit 2); a
replaced file keeps its permission bits but never a set-id or sticky bit, a new one gets
the umask's.  ``MISTAKEBOUND_MEMORY_LIMIT`` set to something that is not a size is refused
before any work (exit 2), and a start under less than 256 MiB of ``ulimit -v`` too
(:mod:`mistakebound.interfaces.startup`).  Standard output that
cannot be written (``> /dev/full``) or is closed (``>&-``) is exit 2 with one line too; a
reader that leaves the pipe (``mistakebound check | head -1``) ends the command with
exit 0.  An argument longer than 4,096 characters
(:data:`~mistakebound.interfaces.cli.options.MAX_ARGUMENT_CHARS`) is refused before anything
reads it, and an error line longer than about 2,000 characters has its middle cut.  Text from files and players (a class file's name, instance names) is printed with
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

import os
import sys
from collections.abc import Sequence

from mistakebound.foundations.errors import MistakeboundError
from mistakebound.foundations.memory import environment_limit
from mistakebound.interfaces import startup
from mistakebound.interfaces.arguments import EXIT_BAD_INPUT, EXIT_BROKEN, EXIT_INTERRUPTED, EXIT_OK
from mistakebound.interfaces.cli.failures import BadInput, ClaimFailed, OutputFailed
from mistakebound.interfaces.cli.messages import SAID, error
from mistakebound.interfaces.cli.options import check_lengths
from mistakebound.interfaces.cli.output import Output
from mistakebound.interfaces.cli.parser import build_parser

__all__ = [
    "main",
    "EXIT_OK",
    "EXIT_BROKEN",
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
]


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
    command = next((w for w in words if isinstance(w, str) and not w.startswith("-")), None)
    parser = build_parser(command)
    if sys.stdout is None:  # started with standard output closed (`mistakebound ... >&-`)
        error(command or "",
              "error: standard output is closed; expected somewhere to print the results (> /dev/null discards them)")
        return EXIT_BAD_INPUT
    try:
        args = parser.parse_args(None if argv is None else list(argv))
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2), already printed
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except BrokenPipeError:
        raise
    except OSError as exc:  # --help could not be written
        error("", f"error: {Output.failed(exc)}")
        return EXIT_BAD_INPUT
    command = args.command
    try:
        check_lengths(args)
        environment_limit()  # a memory limit that is not a size is refused before any work, never ignored
        return args.run(args, out)
    except ClaimFailed as exc:  # a claim that raised after its game (plot): a player's fault, not bad input
        error(command, f"error: {exc}")
        return EXIT_BROKEN
    except OutputFailed as exc:  # the results were printed; the file could not be written
        error(command, f"error: {exc}")
        return EXIT_BAD_INPUT
    except (MistakeboundError, BadInput) as exc:
        error(command, f"error: {str(exc) or type(exc).__name__}")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # a command without partial results to show
        error(command, f"interrupted ({startup.interrupted_by() or 'Ctrl-C'})")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        raise
    except MemoryError as exc:  # not refused in advance: the input is too large for this machine
        error(command, f"error: out of memory ({type(exc).__name__}{': ' + str(exc) if str(exc) else ''}); "
                        "give a smaller class, budget (--max-nodes, --time-limit) or number of rounds")
        return EXIT_BAD_INPUT
    except RecursionError:
        error(command, "error: the input is nested too deeply to read (RecursionError)")
        return EXIT_BAD_INPUT
    except OSError as exc:  # the system refused something outside the output files (a read, a process)
        where = f" ({exc.filename!r})" if getattr(exc, "filename", None) else ""
        error(command, f"error: {exc.strerror or exc}{where}")
        return EXIT_BAD_INPUT
    except Exception as exc:  # noqa: BLE001 - a bug (ours, or a player's that the game did not catch)
        why = startup.exhausted(exc)  # or the system refusing memory: a thread, a library that cannot be mapped
        if why is not None:
            error(command, f"error: {why}")
            return EXIT_BAD_INPUT
        if os.environ.get("MISTAKEBOUND_TRACEBACK"):
            import traceback

            traceback.print_exc()
        error(command, f"internal error: {type(exc).__name__}: {exc} (a bug in mistakebound or in code "
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
        error(command, f"interrupted ({startup.interrupted_by() or 'Ctrl-C'})")
    finally:
        startup.finish()
    return code


def _main(argv: Sequence[str] | None, command: str) -> int:
    """:func:`main` without its signal handling: run, report an interruption, flush standard output."""
    said = SAID["lines"]
    try:
        try:
            code = _run(argv, Output(sys.stdout))
        except KeyboardInterrupt:  # while parsing, or a second Ctrl-C while a command printed its partial results
            code = EXIT_INTERRUPTED
            error(command, f"interrupted ({startup.interrupted_by() or 'Ctrl-C'})")
        by = startup.interrupted_by()
        if by is not None and code != EXIT_INTERRUPTED:
            # the signal's KeyboardInterrupt never reached the command (C code that clears errors, such as
            # PyObject_HasAttr, can swallow it) or came as it returned: what was printed may not be all of it
            code = EXIT_INTERRUPTED
            error(command, f"interrupted ({by}) as the command finished; take the results above as partial")
        elif by is not None and SAID["lines"] == said:
            error(command, f"interrupted ({by}); the partial results are above")
        try:
            if sys.stdout is not None:
                Output(sys.stdout).flush()
        except BrokenPipeError:
            raise
        except OutputFailed as exc:  # the last lines (or --help) could not be written
            error(command, f"error: {exc}")
            code = EXIT_BAD_INPUT if code == EXIT_OK else code
        except (OSError, ValueError):  # standard output closed meanwhile: the exit code still says it
            pass
    except BrokenPipeError:  # e.g. `mistakebound check | head`: the reader left
        _quiet_stdout()
        code = EXIT_OK
    return code

