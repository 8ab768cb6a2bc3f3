"""``mistakebound verify FILE [CLASS] [--learner LEARNER]``: a certificate checked by the independent checker.

The checker is :mod:`mistakebound.certificates.verify`, which imports nothing of the
searches: this command imports no search either (``mistakebound.theory`` is never
loaded, except :mod:`mistakebound.theory.certificate` for the class section of CLASS and
the replay of ``--learner``).
"""

from __future__ import annotations

from mistakebound.game import registry
from mistakebound.interfaces.arguments import EXIT_BROKEN, EXIT_OK
from mistakebound.interfaces.cli.failures import BadInput
from mistakebound.interfaces.cli.help_text import add_command
from mistakebound.interfaces.cli.settings import finite_class

__all__ = ["NAME", "SUMMARY", "add_parser", "run"]

#: The command's name, and its line in ``mistakebound --help``.
NAME = "verify"
SUMMARY = "check a certificate written by --certificate, step by step"


def add_parser(subparsers):
    """Register ``verify`` on ``subparsers``."""
    p = add_command(
        subparsers, NAME, SUMMARY,
        "Check every step of a certificate (written by ldim or worst-case with --certificate) with "
        "the independent checker mistakebound.certificates.verify, which imports nothing of the "
        "searches (python -I -S .../certificates/verify.py FILE runs the same checks alone), and "
        "print what it proves. With CLASS, the certificate must speak of exactly that class. With "
        "--learner, the predictions a worst-case certificate records are replayed against that "
        "learner (built on CLASS). Exit 0 if every step checks, 1 naming the first that fails, "
        "2 if the file cannot be read.",
        players="learners", settings="classes",
    )
    p.add_argument("file", metavar="FILE", help="the certificate (.json or .json.gz)")
    p.add_argument("cls", metavar="CLASS", nargs="?", default=None,
                   help="the class it must speak of: zoo spec NAME:ARGS, or a .npy, .csv or .json class file")
    p.add_argument("--learner", metavar="LEARNER", default=None,
                   help="replay a worst-case certificate's recorded predictions against this learner "
                        "(needs CLASS)")
    p.set_defaults(run=run)
    return p


def run(args, out) -> int:
    """Check a certificate with the independent checker; with CLASS, of that class; with --learner, replayed."""
    from mistakebound.certificates.verify import CertificateError, describe, check, load
    from mistakebound.foundations.memory import available_memory

    if args.learner is not None and args.cls is None:
        raise BadInput("--learner: replaying a worst-case certificate needs CLASS (the class the learner is built on)")
    H = expected = None
    if args.cls is not None:
        from mistakebound.theory.certificate import class_section

        H = finite_class(args.cls, "verify")
        expected = class_section(H)
    memory = available_memory()
    try:
        document = load(args.file, memory=memory)
        proven = check(document, expected, memory=memory)
    except MemoryError:
        raise BadInput(f"FILE: cannot check {args.file!r}: out of memory; expected a certificate the "
                       "memory available can hold") from None
    except OSError as exc:
        raise BadInput(f"FILE: cannot read {args.file!r}: {exc.strerror or exc}; expected a certificate "
                       "written with --certificate") from None
    except CertificateError as exc:
        print(f"REJECTED: {exc}", file=out)
        return EXIT_BROKEN
    learner_text = None
    if args.learner is not None:
        from mistakebound.theory.worst_case_certificate import replay

        if "worst-case" not in proven:
            raise BadInput("--learner: the certificate has no worst-case result to replay")
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
