"""``mistakebound ldim CLASS``: a class's profile (``|H|``, ``|X|``, Ldim, VCdim, RL) from the library's door, printed as it comes.

:func:`~mistakebound.theory.profile.profile_steps` chooses the engines and the budgets and
answers; this command prints: the sizes first, then Ldim as soon as it is known, then each
parameter of ``--what``, a parameter that stops early with its proven bounds on its own
line, the others' lines still following; with ``--tree`` a shattered tree of depth Ldim
(:func:`~mistakebound.theory.tree_export.tree_to_text`), with ``--certificate`` the
profile's certificate (:meth:`~mistakebound.theory.profile.Profile.certificate`). When the Ldim
search ran in Python because this install has no compiled search, a note on stderr says so
(:func:`~mistakebound.theory.ldim_kernel.engine_description`, as ``mistakebound --version``).

Examples
--------
>>> from mistakebound.interfaces.cli import main
>>> main(["ldim", "thresholds:3", "--what", "ldim", "--tree"])  # doctest: +ELLIPSIS
class: thresholds(3)
|H| = 4
|X| = 3
Ldim = 2
log2|H| = 2.00 (upper bound on Ldim)
shattered tree of depth 2 (root 1; children 2i on label 0, 2i+1 on label 1; ...):
[1] x = 2
...
0
"""

from __future__ import annotations

import math

from mistakebound.foundations.text import one_line
from mistakebound.game.hypothesis_class import COUNTED_FROM_1, HypothesisClass
from mistakebound.interfaces import startup
from mistakebound.interfaces.arguments import EXIT_INTERRUPTED, EXIT_OK, horizon, workers
from mistakebound.interfaces.cli.certificates import certify_profile, value_name
from mistakebound.interfaces.cli.failures import BadInput
from mistakebound.interfaces.cli.help_text import add_command
from mistakebound.interfaces.cli.messages import error, note
from mistakebound.interfaces.cli.options import (CERTIFICATE_SUFFIXES, add_budget, add_certificate, add_rules,
                                                 parameters, refuse_order, rules_of)
from mistakebound.interfaces.cli.output import check_out
from mistakebound.interfaces.cli.settings import finite_class

__all__ = ["NAME", "SUMMARY", "LDIM_VC_NOTE_SECONDS", "PARAMETER_NAMES", "add_parser", "run"]

#: A VC search of ``ldim`` still running after this many seconds prints a note on stderr
#: with the Ldim found and the VC search's limit.
LDIM_VC_NOTE_SECONDS = 1.0

#: What ``ldim`` calls each parameter of the profile when it says why one is partial.
PARAMETER_NAMES = {"ldim": "Littlestone dimension", "vc": "VC dimension", "rldim": "randomized Littlestone dimension",
                   "value": "game's value"}


def _description() -> str:
    from mistakebound.theory.profile import VC_SECONDS  # the library's default, named here

    return ("Print |H|, |X|, the Littlestone dimension, the log2|H| bound and the VC dimension "
            "of a class given as a zoo spec (e.g. thresholds:64, k_sparse:8,2) or a .npy/.csv/.json "
            "class file (rows hypotheses, columns instances); --what chooses the parameters. The "
            "sizes of the class are printed before any search, and the Ldim line as soon as it is "
            "known, before the other searches start. Each parameter's search has a budget of its "
            "own: the whole of --max-nodes and of --time-limit, not a share. Without --time-limit "
            f"every search after the Ldim's (VC, RL and the others of --what) stops after the longer of "
            f"{VC_SECONDS:g} s and the time the Ldim search took, and prints proven bounds (VCdim <= Ldim) with exit "
            f"3; a VC search still running after {LDIM_VC_NOTE_SECONDS:g} s "
            "says on stderr how long it may take. "
            "The searches keep to one memory budget (the least of MemAvailable, the cgroup "
            "limit, ulimit -v and MISTAKEBOUND_MEMORY_LIMIT, shared with --workers). A search "
            "that runs out of memory or of its budget prints the bounds it proved on its line, the "
            "other parameters' lines still follow, and the command exits 3; Ctrl-C or SIGTERM "
            "stops it with the bounds proven so far and starts no further search. A worker that "
            "dies is dropped with a note on stderr, and the search goes on without it.")


#: The command's name, and its line in ``mistakebound --help``.
NAME = "ldim"
SUMMARY = "print |H|, |X|, Ldim and VCdim (or RL) of a class"


def add_parser(subparsers):
    """Register ``ldim`` on ``subparsers``."""
    p = add_command(subparsers, NAME, SUMMARY, _description,
                    players=False, settings="classes")
    p.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or a .npy, .csv or .json class file")
    p.add_argument("--tree", action="store_true", help="also print a shattered tree of depth Ldim")
    add_budget(p, "each search (Ldim, VC, RL: each has the whole budget, not a share)")
    p.add_argument("--what", type=parameters, default=("ldim", "vc"), metavar="LIST",
                   help="the parameters to compute, comma-separated, among: ldim (always, printed first), vc, "
                        "self_directed, best_order, worst_order (the games where someone else orders the "
                        "instances), rldim (the randomized Littlestone dimension, an exact fraction), value (the "
                        "game's value under --labels, --feedback, --noise and --randomized, computed whenever one "
                        "of them is given); default ldim,vc; --what ldim skips the VC search; mistakebound dims "
                        "prints them all")
    add_rules(p)
    p.add_argument("--horizon", type=horizon, default=None, metavar="T",
                   help="the game's value in T rounds instead of without a limit (the parameter value): for "
                        "--randomized learners the sequence-form linear program (needs the lp extra), against an "
                        "--oblivious adversary or an adaptive one held to its labels, certified with "
                        "--certificate; needed for --randomized --oblivious --feedback bandit, whose value depends "
                        "on T")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object per line instead of text: the class first, then each parameter as it "
                        "is found (its value, or its proven lower and upper bounds with the status)")
    add_certificate(p, "every parameter computed")
    p.add_argument("--workers", type=workers, default=1,
                   help="threads searching for Ldim together (default 1): the compiled search's threads share "
                        "one memo and the budget (on large random classes the busiest of two does about half "
                        "the work of one); without the compiled search, or with --tree, worker processes of the "
                        "Python search")
    p.set_defaults(run=run)
    return p


def run(args, out) -> int:
    """Run ``ldim``: each line of the profile printed (and flushed) as it comes; exit 3 if a parameter is partial."""
    from mistakebound.theory.profile import profile_steps, requested
    from mistakebound.theory.search_protocol import SearchIncomplete, SearchInterrupted

    check_out(args.certificate, CERTIFICATE_SUFFIXES, "certificate", option="--certificate")
    rules = rules_of(args)
    requested(args.what, rules, args.horizon)  # a request the door refuses is refused before anything is read
    if args.tree:
        refuse_order(args, "ldim --tree", "the shattered tree is the adaptive game's")
    if args.json and (args.tree or args.certificate is not None):
        raise BadInput("--json: prints the parameters alone, one object per line; --tree and --certificate "
                       "print text: give them in a run of their own")
    H = finite_class(args.cls, "ldim", args.labels)
    rules = rules_of(args, H)
    if args.json:
        lines = _JsonLines(H, out)
    else:
        print(f"class: {H.describe()}", file=out)
        print(f"|H| = {H.n_hypotheses}", file=out)
        lines = _ProfileLines(args, H, out)
    for parameter, result, P in profile_steps(H, what=args.what, max_nodes=args.max_nodes, time_limit=args.time_limit,
                                              workers=args.workers, keep_search=args.certificate is not None,
                                              read="tree" if args.tree else None, rules=rules, horizon=args.horizon):
        lines(parameter, result, P)
        if parameter == "ldim":
            _say_python_fallback(P)
    if args.json:
        return EXIT_INTERRUPTED if lines.partial else EXIT_OK
    for name, reason in lines.partial:
        print(f"the {name} is partial: {reason}", file=out)
    certify_profile(args.certificate, P, out, max_nodes=args.max_nodes, time_limit=args.time_limit)
    if lines.partial:
        return EXIT_INTERRUPTED
    if args.tree:
        from mistakebound.theory.tree_export import tree_to_text

        try:
            tree = P.tree()
        except (SearchIncomplete, SearchInterrupted) as exc:  # the reading stopped (budget, memory, Ctrl-C): Ldim exact
            print(f"no shattered tree: {_partial_reason(exc.result.status)}", file=out)
            return EXIT_INTERRUPTED
        edges = ("label 0, 2i+1 on label 1" if H.n_labels == 2 else
                 "the smaller of two different labels, 2i+1 on the larger: a multiclass tree")
        print(f"shattered tree of depth {P.ldim.lower} (root 1; children 2i on {edges}; {COUNTED_FROM_1}):", file=out)
        print(tree_to_text(tree, H), file=out)
    return EXIT_OK


class _JsonLines:
    """``--json``: the class, then each parameter's :meth:`~mistakebound.theory.search_protocol.SearchResult.record`
    as it is found, one JSON object per line (the rules beside the game's value, why beside a partial one)."""

    def __init__(self, H: HypothesisClass, out):
        self.H, self.out = H, out
        self.partial: list[str] = []

    def __call__(self, parameter: str, result, P) -> None:
        import json

        if parameter == "class":
            record = {"class": self.H.describe(), "n_hypotheses": self.H.n_hypotheses,
                      "n_instances": self.H.n_instances, "n_distinct": P.n_distinct}
        else:
            missing = "not defined" if parameter in P.undefined else "not searched"
            record = {"parameter": parameter,
                      **(result.record() if result is not None else {"value": None, "status": missing})}
            if parameter == "value":
                record["rules"] = P.rules.record()
                record["horizon"] = P.horizon
            if parameter in P.partial:
                self.partial.append(parameter)
                record["why"] = P.partial[parameter]
        print(json.dumps(record), file=self.out, flush=True)


def _say_python_fallback(P) -> None:
    """A note on stderr when the Ldim search ran in Python because the install has no compiled search
    (:func:`~mistakebound.theory.ldim_kernel.engine_description` says it; the profile records the engine)."""
    from mistakebound.theory import ldim_kernel

    if P.engine == "python" and not ldim_kernel.AVAILABLE:
        note("ldim", f"note: the Ldim was searched by {ldim_kernel.engine_description()}")


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


class _ProfileLines:
    """Prints each answer of :func:`~mistakebound.theory.profile.profile_steps` as it comes.

    Collects in ``partial`` the (parameter, what to do about it) lines printed after them all.
    """

    def __init__(self, args, H: HypothesisClass, out):
        self.args, self.H, self.out = args, H, out
        self.partial: list[tuple[str, str]] = []
        self._note = None

    def __call__(self, parameter: str, result, P) -> None:
        own = getattr(self, f"_{parameter}", None)
        if own is not None:
            own(result, P)
            return
        from mistakebound.interfaces.cli.dims import parameter_line  # a parameter of the door's MORE: dims's line

        print(parameter_line(parameter, result, P), file=self.out, flush=True)
        if parameter in P.partial:
            self._why(parameter, P)

    def _why(self, parameter: str, P) -> None:
        reason = P.partial[parameter]
        if reason.startswith("memory: "):  # refused before it allocated
            text = one_line(reason[len("memory: "):])
        elif reason.startswith("not searched: "):
            text = _partial_reason(reason[len("not searched: "):])
        elif reason in ("vc-default-limit", "default-limit"):
            from mistakebound.theory.profile import VC_SECONDS, vc_time_limit

            text = (f"its search stopped at the default limit of {vc_time_limit(P.ldim):.1f} s (the longer of "
                    f"{VC_SECONDS:g} s and the Ldim search's time); give --time-limit for more")
        else:
            text = _partial_reason(reason)
        from mistakebound.theory.profile import TITLES

        self.partial.append((PARAMETER_NAMES.get(parameter) or TITLES[parameter].removeprefix("the "), text))

    def _class(self, result, P) -> None:
        # what is known before any search, printed at once: a long search shows what it is searching
        if "ldim" not in P.partial and P.n_distinct != self.H.n_hypotheses:
            print(f"distinct hypotheses = {P.n_distinct}", file=self.out)
        print(f"|X| = {self.H.n_instances}", file=self.out, flush=True)

    def _ldim(self, bounds, P) -> None:
        for text in P.notes:  # a worker lost: one line on stderr
            error("ldim", text)
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
            from mistakebound.theory.profile import vc_time_limit

            default = self.args.time_limit is None
            limit = vc_time_limit(bounds, self.args.time_limit)
            self._note = threading.Timer(LDIM_VC_NOTE_SECONDS, note, ("ldim", (
                f"note: searching for VCdim (<= {bounds.upper}) for up to {limit:.1f} s"
                f"{' (--time-limit sets it)' if default else ''}")))
            self._note.daemon = True
            self._note.start()

    def _vc(self, vc, P) -> None:
        if self._note is not None:
            self._note.cancel()
        low, top = P.vc_from_ldim
        if self.H.n_labels != 2:
            print(f"VCdim: not defined for {self.H.n_labels} labels (the Natarajan dimension is not computed)",
                  file=self.out)
        elif vc is None:
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

    def _value(self, value, P) -> None:
        rules = value_name(P.rules, P.horizon)[len("value ("):-1]
        if value is None:
            print(f"value ({rules}) not searched (interrupted)", file=self.out)
        elif value.exact:
            print(f"value ({rules}) = {value.lower}", file=self.out, flush=True)
        else:
            print(f"{value.lower} <= value ({rules}) <= {value.upper} (partial: {value.status}), after "
                  f"{value.nodes} nodes", file=self.out, flush=True)
        if "value" in P.partial:
            self._why("value", P)
