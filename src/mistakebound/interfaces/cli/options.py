"""Options several commands share, and the length every argument is held to.

* :func:`add_budget`: ``--max-nodes`` and ``--time-limit`` of a search;
* :func:`add_certificate`: ``--certificate FILE.json``, and :data:`CERTIFICATE_SUFFIXES`;
* :func:`add_rules` and :func:`rules_of`: ``--labels``, ``--feedback``, ``--noise``,
  ``--oblivious``, ``--randomized`` and ``--order``, the game's settings, as one
  :class:`~mistakebound.game.rules.Rules` value (:func:`refuse_order` for a command that
  plays only the default order);
* :func:`check_lengths`: an argument longer than :data:`MAX_ARGUMENT_CHARS` refused
  before anything reads it.

Examples
--------
>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_budget(p, "the search")
>>> p.parse_args(["--max-nodes", "10"])
Namespace(max_nodes=10, time_limit=None)
>>> q = argparse.ArgumentParser()
>>> add_rules(q)
>>> rules_of(q.parse_args(["--labels", "3", "--noise", "1"])).describe()
'3 labels, full information, noise budget 1, adaptive, deterministic'
>>> rules_of(q.parse_args(["--order", "self-directed"])).order
'self-directed'
>>> check_lengths(argparse.Namespace(cls="x" * 5000))
Traceback (most recent call last):
...
mistakebound.interfaces.cli.failures.BadInput: CLASS: expected at most 4,096 characters (a name, a class spec or a file name), got 5,000: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'...
"""

from __future__ import annotations

import argparse
from typing import Any

from mistakebound.game.rules import FEEDBACKS, ORDERS, Rules
from mistakebound.interfaces.arguments import labels, nodes, noise, seconds
from mistakebound.interfaces.cli.failures import BadInput

__all__ = ["CERTIFICATE_SUFFIXES", "DEFAULT_ROUNDS", "MAX_ARGUMENT_CHARS", "add_budget", "add_certificate",
           "add_rules", "check_lengths", "given_rules", "refuse_order", "rules_of"]

#: Default number of rounds of ``play`` and ``plot``.
DEFAULT_ROUNDS = 100

#: The file names ``--certificate`` takes: JSON, or JSON compressed with gzip (``.json.gz``).
CERTIFICATE_SUFFIXES = (".json", ".gz")

#: The most characters an argument (a name, a class spec, a file name) may hold: a file
#: name's limit on Linux (PATH_MAX).  Longer ones are refused before anything reads them.
MAX_ARGUMENT_CHARS = 4096
_METAVARS = {"cls": "CLASS", "learner": "LEARNER", "adversary": "ADVERSARY", "config": "CONFIG.toml"}


def add_budget(p: argparse.ArgumentParser, what: str, default_nodes: int | None = None) -> None:
    """``--max-nodes`` and ``--time-limit``: the budget of ``what`` (a search)."""
    p.add_argument("--max-nodes", type=nodes, default=default_nodes,
                   help=f"stop {what} after this many nodes, 1..2**63-1, and print proven bounds (exit 3)")
    p.add_argument("--time-limit", type=seconds, default=None,
                   help=f"stop {what} after this many seconds (more than 0, at most 10**9) and print proven bounds "
                        "(exit 3); Ctrl-C does the same")


def add_certificate(p: argparse.ArgumentParser, what: str) -> None:
    """``--certificate FILE.json``: a certificate of ``what``, for ``mistakebound verify``."""
    p.add_argument("--certificate", metavar="FILE.json", default=None,
                   help=f"also write a certificate of {what} to this file (.json, or .json.gz compressed), "
                        "whose every step `mistakebound verify FILE` checks")


def add_rules(p: argparse.ArgumentParser, *, labels_help: str | None = None) -> None:
    """The game's settings (:class:`~mistakebound.game.rules.Rules`): the textbook's game unless given (its
    defaults are the library's, ``Rules()``); ``labels_help`` says what ``--labels`` does for a command that
    reads no class."""
    textbook = Rules()
    p.add_argument("--labels", type=labels, default=None, metavar="K",
                   help=labels_help or f"the number of labels, 0..K-1 (K from 2 to 256): a class file of K labels is read with it "
                                       f"(default: the class's own, {textbook.labels} for a file)")
    p.add_argument("--feedback", choices=FEEDBACKS, default=textbook.feedback,
                   help=f"what the learner is shown: the label (full) or only whether it erred (bandit); "
                        f"default {textbook.feedback}")
    p.add_argument("--noise", type=noise, default=textbook.noise, metavar="R",
                   help=f"the adversary's labels may disagree with the best hypothesis R times, 0..10**12 (default "
                        f"{textbook.noise}: realizable)")
    p.add_argument("--oblivious", action="store_true",
                   help="the adversary commits to its sequence before the game (default: it adapts)")
    p.add_argument("--randomized", action="store_true", help="the learner may randomize (default: deterministic)")
    p.add_argument("--order", choices=ORDERS, default=textbook.order,
                   help=f"who orders the instances: the adversary as the game goes (adaptive), the adversary before "
                        f"round 1 (transductive), the learner (self-directed), or every instance once in the order "
                        f"best or worst for the learner; default {textbook.order}")


def given_rules(args: argparse.Namespace, H: Any = None) -> Rules | None:
    """:func:`rules_of` when one of the options of :func:`add_rules` was given, else None (the textbook's game,
    recorded as such)."""
    textbook = Rules()
    if (args.labels, args.feedback, args.noise, args.oblivious, args.randomized, args.order) == (
            None, textbook.feedback, textbook.noise, not textbook.adaptive, textbook.randomized, textbook.order):
        return None
    return rules_of(args, H)


def rules_of(args: argparse.Namespace, H: Any = None) -> Rules:
    """The :class:`~mistakebound.game.rules.Rules` of the options :func:`add_rules` declared; the labels are
    ``--labels``, or the class ``H``'s own (2 without a class)."""
    labels = args.labels if args.labels is not None else getattr(H, "n_labels", Rules().labels)
    return Rules(labels=labels, feedback=args.feedback, noise=args.noise, adaptive=not args.oblivious,
                 randomized=args.randomized, order=args.order)


def refuse_order(args: argparse.Namespace, command: str, why: str) -> None:
    """Refuse ``--order`` other than the default in a command that cannot honour it (``why`` says what it plays).

    Examples
    --------
    >>> refuse_order(argparse.Namespace(order="adaptive"), "check", "its suites")
    >>> refuse_order(argparse.Namespace(order="best"), "check", "its suites play the adaptive game")
    Traceback (most recent call last):
    ...
    mistakebound.interfaces.cli.failures.BadInput: --order best: check cannot honour it (its suites play the adaptive game); leave --order adaptive
    """
    if getattr(args, "order", Rules().order) != Rules().order:
        raise BadInput(f"--order {args.order}: {command} cannot honour it ({why}); leave --order {Rules().order}")


def check_lengths(args: argparse.Namespace) -> None:
    """Refuse an argument longer than :data:`MAX_ARGUMENT_CHARS` (50,000 ``[`` as a class spec, say)."""
    for key, value in vars(args).items():
        if isinstance(value, str) and len(value) > MAX_ARGUMENT_CHARS:
            name = _METAVARS.get(key, "--" + key.replace("_", "-"))
            raise BadInput(f"{name}: expected at most {MAX_ARGUMENT_CHARS:,} characters (a name, a class spec or a "
                           f"file name), got {len(value):,}: {value[:40]!r}...")


def parameters(text: str) -> tuple[str, ...]:
    """``--what``: a comma-separated list of the profile's parameters (the library's names,
    :data:`~mistakebound.theory.profile.PARAMETERS`), in the order given, each once.

    Examples
    --------
    >>> parameters("vc, ldim,vc")
    ('vc', 'ldim')
    """
    from mistakebound.theory.profile import PARAMETERS  # the library's list

    names = tuple(dict.fromkeys(n.strip().lower() for n in text.split(",") if n.strip()))
    unknown = [n for n in names if n not in PARAMETERS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list among {', '.join(PARAMETERS)}, "
                                         f"got {text!r}")
    return names

