"""The independent checker of certificates (format ``mistakebound-certificate``, version 2).

Plain Python and the standard library only: it shares no code with the searches and runs
as a program of its own, ``python -I -S verify.py CERTIFICATE.json`` (exit 0 when every step
checks, 1 naming the first step that fails, 2 when the file cannot or will not be read).
This file reads the document's header and hands the rest out: :mod:`~mistakebound.certificates.document` reads the
file (regular files only, within a byte budget, one strict JSON grammar), :mod:`~mistakebound.certificates.context`
the class, the table of spaces and the grammar of values, and each result goes to the
module that checks its kind: :mod:`~mistakebound.certificates.ldim` (the Littlestone dimension and shattered trees),
:mod:`~mistakebound.certificates.vc` (the VC dimension), :mod:`~mistakebound.certificates.worst_case` (a learner's worst case ``M_A(H)``),
:mod:`~mistakebound.certificates.randomized` (the randomized Littlestone dimension), :mod:`~mistakebound.certificates.game_value` (the value of
the game under other rules for deterministic learners: ``"value-full"``, ``"value-bandit"``),
:mod:`~mistakebound.certificates.randomized_value` (for randomized learners: ``"value-randomized"``) and
:mod:`~mistakebound.certificates.randomized_bandit_value` (randomized learners under bandit feedback:
``"value-randomized-bandit"``), whose
positions :mod:`~mistakebound.certificates.positions` describes, :mod:`~mistakebound.certificates.horizon_value` (randomized learners in a game of a
few rounds, against oblivious or adaptive adversaries: ``"value-horizon"``), :mod:`~mistakebound.certificates.threshold` (the
threshold dimension: ``"threshold"``), :mod:`~mistakebound.certificates.stars` (the star number and the one-inclusion graph's
largest degree: ``"star"``, ``"degree"``), :mod:`~mistakebound.certificates.teaching` (the teaching parameters: ``"td"``,
``"tsmin"``, ``"rtd"``), :mod:`~mistakebound.certificates.self_directed` (``"self-directed"``) and :mod:`~mistakebound.certificates.orders`
(``"best-order"``, ``"worst-order"``, ``"transductive"``).

The document
------------
A JSON object with exactly these keys ``[header]``::

    {"format": "mistakebound-certificate", "version": 2,
     "class": {"n_hypotheses": n, "n_instances": m, "rows": ["6", ...], "domain": [...],
               "sha256": "..."},
     "spaces": ["<hex bitset of rows>", [s, x, y], ...],
     "results": [{"result": "ldim", ...}, {"result": "vc", ...}, ...]}

The class and the spaces are described in :mod:`~mistakebound.certificates.context`: ``rows[i]`` is hypothesis ``i``'s
labels in hexadecimal (bit ``x``: instance ``x``), ``domain`` the instances' names, ``sha256``
names the whole (a class of ``k > 2`` labels adds ``"labels": k`` and writes its rows as texts of
labels, which only the kinds of the game's value read ``[class-labels]``); a space is a
non-empty set of rows, a bitset or ``[s, x, y]``, the part
``V_x^y`` (the rows of space ``s`` labelling ``x`` with ``y``) of a space listed before it.
``x`` *splits* ``V`` when both ``V_x^0`` and ``V_x^1`` are non-empty.  Results are checked in
order, each kind at most once ``[one-each]``, and a result may use what an earlier one proved
(a VC dimension is at most the Littlestone dimension).  Each kind's module documents its
section and argues, step by step, why a step that checks is true; each condition of an
argument is named in brackets, and the line of code that checks it carries the same name.

What is verified
----------------
:func:`check` returns, per kind, a :class:`Proven`: the bounds proved and what they are
bounds *of*.  :func:`statement` writes each as one complete sentence, naming the class (by
its shape and hash, or by the name of the class a user gave and the certificate was found
to be), for the game's value the rules it was checked under (``value(H; 3 labels, bandit
feedback, noise 1, deterministic learners) = 4``), and for a worst case the horizon and the learner: the checker proves the value of
the game for a learner that makes the moves the certificate records, which is the named
learner only once ``mistakebound verify FILE CLASS --learner NAME`` has replayed them.

Examples
--------
>>> rows, domain = ["0", "1"], [0]            # two hypotheses on one instance: Ldim 1
>>> c = {"format": FORMAT, "version": 2,
...      "class": {"n_hypotheses": 2, "n_instances": 1, "rows": rows, "domain": domain,
...                "sha256": class_hash(rows, domain)},
...      "spaces": ["3", "1", "2"],             # both rows; row 0; row 1
...      "results": [{"result": "ldim",
...          "facts": [[1, "ge", 0, None], [2, "ge", 0, None], [0, "ge", 1, [0, 0, 1]],
...                    [1, "le", 0, []], [2, "le", 0, []], [0, "le", 1, [[0, 1, 4]]]],
...          "claim": {"lower": [2, 1], "upper": [5, 1]}}]}
>>> proven = check(c)
>>> proven
{'ldim': (1, 1)}
>>> print(statement(proven["ldim"]))  # doctest: +ELLIPSIS
1 <= Ldim(H) <= 1, where H is the class of 2 hypotheses on 1 instances with sha256 ...
>>> c["results"][0]["facts"][2][2] = 2
>>> check(c)
Traceback (most recent call last):
...
mistakebound.certificates.document.CertificateError: ldim fact 2: its children must have values >= 1, got 0 and 0
"""

from __future__ import annotations

import argparse
import os
import sys

if __package__:
    from . import (game_value, horizon_value, ldim, randomized, randomized_bandit_value, randomized_value, vc,
                   worst_case)
    from . import stars, threshold
    from . import teaching
    from . import orders
    from . import self_directed
    from .context import Context, brief, class_hash
    from .document import (FORMAT, MEMORY_LIMIT_VARIABLE, VERSION, CertificateError, UnreadableCertificate,
                           environment_memory, load, parse_json, parse_size)
else:  # run as a program (python -I -S verify.py): the other modules are this file's neighbours
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import game_value  # type: ignore[no-redef]
    import horizon_value  # type: ignore[no-redef]
    import ldim  # type: ignore[no-redef]
    import randomized  # type: ignore[no-redef]
    import randomized_bandit_value  # type: ignore[no-redef]
    import randomized_value  # type: ignore[no-redef]
    import stars  # type: ignore[no-redef]
    import threshold  # type: ignore[no-redef]
    import teaching  # type: ignore[no-redef]
    import vc  # type: ignore[no-redef]
    import worst_case  # type: ignore[no-redef]
    import orders  # type: ignore[no-redef]
    import self_directed  # type: ignore[no-redef]
    from context import Context, brief, class_hash  # type: ignore[no-redef]
    from document import (FORMAT, MEMORY_LIMIT_VARIABLE, VERSION, CertificateError,  # type: ignore[no-redef]
                          UnreadableCertificate, environment_memory, load, parse_json, parse_size)

__all__ = ["FORMAT", "KINDS", "MULTICLASS", "VERSION", "CertificateError", "Context", "Proven", "UnreadableCertificate", "check",
           "check_file", "class_hash", "describe", "load", "main", "parse_json", "rules_text", "statement"]

#: The kinds of result this version checks, and the module that checks each.
KINDS = {"ldim": ldim, "vc": vc, "worst-case": worst_case, "rldim": randomized, "value-full": game_value,
         "value-bandit": game_value, "value-randomized": randomized_value,
         "value-randomized-bandit": randomized_bandit_value, "value-horizon": horizon_value,
         "threshold": threshold,
         "star": stars,
         "degree": stars,
         "td": teaching,
         "tsmin": teaching,
         "rtd": teaching,
         "self-directed": self_directed,
         "best-order": orders,
         "worst-order": orders,
         "transductive": orders,
         }
#: The kinds that read a class of more than two labels (their ``check`` is told its kind).
MULTICLASS = ("value-full", "value-bandit", "value-randomized", "value-randomized-bandit", "value-horizon")
#: How each kind's value is named in a statement (the game's value by its rules: :func:`rules_text`).
NAMES = {"ldim": "Ldim(H)", "vc": "VCdim(H)", "worst-case": "M_A(H)", "rldim": "RL(H)",
         "threshold": "Tdim(H)",
         "star": "star(H)",
         "degree": "degree(H)",
         "td": "TD(H)",
         "tsmin": "TSmin(H)",
         "rtd": "RTD(H)",
         "self-directed": "SD(H; deterministic learners)",
         "best-order": "M_best(H; deterministic learners)",
         "worst-order": "M_worst(H; deterministic learners)",
         "transductive": "M(H, {horizon} rounds; transductive, deterministic learners)",
         }
#: The keys of a document, all required.
DOCUMENT_KEYS = ("format", "version", "class", "spaces", "results")


class Proven(tuple):
    """What one result proves: the pair ``(lower, upper)`` (None for a side not claimed), and of what.

    ``kind`` names the result; ``H`` describes the class (its shape and hash); for the game's
    value, ``rules`` (labels, feedback, noise, randomized, as the section states them); for a worst
    case, ``horizon`` (None: the game without a horizon), ``learner`` (the name the
    certificate gives the table of moves, which the checker cannot confirm) and ``states``
    (the size of that table).  As a pair it compares equal to ``(lower, upper)``.
    """

    kind: str
    H: str
    about: dict

    def __new__(cls, kind: str, lower: object, upper: object, H: str, **about: object) -> Proven:
        self = super().__new__(cls, (lower, upper))
        self.kind, self.H, self.about = kind, H, about
        return self


def _text(v: object) -> str:
    return "?" if v is None else str(v)


def rules_text(rules: dict) -> str:
    """The rules of a game's value in words: ``"3 labels, bandit feedback, noise 1, deterministic learners"``.

    Rules that name the adversary (``"adaptive"``, a game of a few rounds: :mod:`~mistakebound.certificates.horizon_value`) say which."""
    adversary = () if "adaptive" not in rules else (
        "adaptive adversaries held to their labels" if rules["adaptive"] else "oblivious adversaries",)
    return ", ".join((f"{rules['labels']} labels",
                      "full information" if rules["feedback"] == "full" else "bandit feedback",
                      f"noise {rules['noise']}") + adversary + (_learners(rules),))


def _learners(rules: dict) -> str:
    """The learners a value is of: under bandit feedback with noise, the recursion's randomized ones draw only
    labels a row gives (not in a game of a few rounds, whose learners draw any label)."""
    if not rules["randomized"]:
        return "deterministic learners"
    if rules["feedback"] == "bandit" and rules["noise"] and "adaptive" not in rules:
        return "randomized learners drawing labels a hypothesis left gives"
    return "randomized learners"


def statement(proven: Proven, *, H: str | None = None, learner: str | None = None) -> str:
    """The complete statement ``proven`` makes, as one line.

    ``H`` replaces the class's description (its shape and hash) once the caller has found the
    certificate to speak of a class it knows by name; ``learner`` replaces the description of
    the recorded table once the caller has replayed it against that learner.
    """
    lo, hi = proven
    if proven.kind in MULTICLASS:
        T = proven.about.get("horizon")
        rounds = "" if T is None else f", {T} round{'' if T == 1 else 's'}"
        name = f"value(H; {rules_text(proven.about['rules'])}{rounds})"
        line = f"{name} = {lo}" if lo is not None and lo == hi else f"{_text(lo)} <= {name} <= {_text(hi)}"
        return f"{line}, where H is {H or proven.H}"
    line = f"{_text(lo)} <= {NAMES[proven.kind].format(**proven.about)} <= {_text(hi)}"
    if proven.kind == "worst-case":
        h = proven.about["horizon"]
        line += " with no horizon" if h is None else f" over a horizon of {h} round{'' if h == 1 else 's'}"
        named = ascii(proven.about["learner"])
        A = learner or (f"the learner that makes the moves the certificate records (a table of "
                        f"{proven.about['states']} states, said to be {named}; not replayed)")
        return f"{line}, where A is {A} and H is {H or proven.H}"
    return f"{line}, where H is {H or proven.H}"


def describe(proven: dict[str, Proven], *, H: str | None = None, learner: str | None = None) -> list[str]:
    """One :func:`statement` per result, in the order checked."""
    return [statement(p, H=H, learner=learner) for p in proven.values()]


def check(c: object, expected_class: dict | None = None, *, memory: int | None = None) -> dict[str, Proven]:
    """Check every step of certificate ``c``; return each result's :class:`Proven`, by kind.

    With ``expected_class`` (a class section as the package writes it, for the class a user
    named) the certificate must speak of exactly that class: shape, rows and domain.
    ``memory`` (bytes, None when not known) bounds what the class and the spaces may take;
    past it :class:`UnreadableCertificate` is raised before they are built.  Raises
    :class:`CertificateError` naming the first failing step.
    """
    if not isinstance(c, dict) or set(c) != set(DOCUMENT_KEYS):  # [header]
        raise Context.fail("header", f"expected an object with exactly the keys {', '.join(DOCUMENT_KEYS)}")
    if c["format"] != FORMAT or type(c["version"]) is not int or c["version"] != VERSION:  # [header]
        raise Context.fail("header", f"expected format {FORMAT!r} version {VERSION}, got {brief(c['format'])} "
                                     f"version {brief(c['version'])}")
    ctx = Context(c["class"], memory)
    if expected_class is not None:
        ctx.same_class(expected_class)
    ctx.read_spaces(c["spaces"], memory)
    results = c["results"]
    if not isinstance(results, list) or not results:
        raise Context.fail("results", "expected a non-empty list of results")
    for r, section in enumerate(results):
        kind = section.get("result") if isinstance(section, dict) else None
        if not isinstance(kind, str) or kind not in KINDS:
            raise Context.fail(f"result {r}", f"expected a kind among {sorted(KINDS)}, got {brief(kind)}")
        if kind in ctx.proven:  # [one-each]
            raise Context.fail(f"result {r}", f"a second {kind!r} result")
        if ctx.labels > 2 and kind not in MULTICLASS:  # [class-labels]
            raise Context.fail(f"result {r}", f"a {kind!r} result reads a class of two labels, not {ctx.labels}")
        checker = KINDS[kind]
        lower, upper, about = checker.check(section, ctx, kind) if kind in MULTICLASS else checker.check(section, ctx)
        ctx.proven[kind] = Proven(kind, lower, upper, ctx.describe(), **about)
    return dict(ctx.proven)


def check_file(path: str | os.PathLike, expected_class: dict | None = None, *,
               memory: int | None = None) -> dict[str, Proven]:
    """:func:`check` on the certificate :func:`~.document.load` reads from ``path``, within ``memory`` bytes."""
    return check(load(path, memory=memory), expected_class, memory=memory)


def main(argv: list[str] | None = None) -> int:
    """``python verify.py CERTIFICATE.json [--memory-limit SIZE]``: 0 verified, 1 rejected, 2 not read."""
    parser = argparse.ArgumentParser(
        prog="verify.py", description="Check every step of a mistakebound certificate.",
        epilog=f"The memory the checker may use: --memory-limit, else {MEMORY_LIMIT_VARIABLE}; without either "
               "it reads at most 1 GiB of certificate text. Exit 0: verified; 1: rejected; 2: not read.")
    parser.add_argument("file", metavar="CERTIFICATE", help="the certificate (.json, or .json.gz compressed)")
    parser.add_argument("--memory-limit", metavar="SIZE", type=_size, default=None,
                        help="the bytes the checker may use (512M, 2G, ...)")
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    try:
        memory = args.memory_limit or environment_memory()
    except ValueError as exc:  # the variable is set to something that is not a size
        print(f"verify.py: error: {exc}", file=sys.stderr)
        return 2
    try:
        proven = check_file(args.file, memory=memory)
    except MemoryError:
        print(f"verify: cannot check {args.file!r}: out of memory", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"verify: cannot read {args.file!r}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except CertificateError as exc:
        print(f"verify: REJECTED: {exc}", file=sys.stderr)
        return 1
    for line in describe(proven):
        print(f"verified: {line}")
    return 0


def _size(text: str) -> int:
    """``--memory-limit``: :func:`~.document.parse_size`, the one grammar of sizes (empty is refused here)."""
    try:
        size = parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if size is None:
        raise argparse.ArgumentTypeError(f"expected a size in bytes (512M, 1.5G, 1048576), got {text!r}")
    return size


if __name__ == "__main__":
    raise SystemExit(main())
