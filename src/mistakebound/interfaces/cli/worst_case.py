"""``mistakebound worst-case LEARNER CLASS``: a learner's exact worst case ``M_A(H)``, the adversary's optimal line, Ldim, and the claim judged.

The search is :func:`~mistakebound.theory.worst_case.worst_case_mistakes` (certified into
``--certificate`` by :func:`~mistakebound.theory.worst_case_certificate.worst_case_section`),
the claim :func:`~mistakebound.verification.claims.stated_bound` judged by
:func:`~mistakebound.verification.claims.judge`.  With ``--labels``, ``--feedback``,
``--noise``, ``--oblivious`` or ``--randomized`` the search plays the game those rules name
(:func:`~mistakebound.game.rules.Rules`), and the game's value
(:func:`~mistakebound.theory.game_values.game_value`) stands where Ldim stands for the
textbook's game.

Examples
--------
>>> from mistakebound.interfaces.cli import main
>>> main(["worst-case", "halving", "thresholds:3"])  # doctest: +ELLIPSIS
learner: Halving
class: thresholds(3)
M_A(H) = 2 (exact; ... positions searched)
...
Ldim = 2 (forced on every deterministic learner; SOA makes no more)
claim = 2 on mistakes (...): holds
0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mistakebound.foundations.text import number_text
from mistakebound.foundations.text_tables import text_table
from mistakebound.game import registry
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.rules import Rules
from mistakebound.game.transcript import instance_text
from mistakebound.interfaces.arguments import EXIT_BROKEN, EXIT_INTERRUPTED, EXIT_OK, seed
from mistakebound.interfaces.cli.certificates import claimed, write_certificate
from mistakebound.interfaces.cli.help_text import add_command
from mistakebound.interfaces.cli.failures import BadInput
from mistakebound.interfaces.cli.options import (CERTIFICATE_SUFFIXES, add_budget, add_certificate, add_rules,
                                                 given_rules, refuse_order)
from mistakebound.interfaces.cli.output import check_out
from mistakebound.interfaces.cli.settings import finite_class
from mistakebound.interfaces.progress import Progress

if TYPE_CHECKING:  # the commands import the claims when they run: `verify` loads no search
    from mistakebound.verification.claims import Bound, Verdict

__all__ = ["NAME", "SUMMARY", "add_parser", "run", "search_worst_case"]

#: The command's name, and its line in ``mistakebound --help``.
NAME = "worst-case"
SUMMARY = "the exact worst case M_A(H) of a learner and the optimal adversary line"


def add_parser(subparsers):
    """Register ``worst-case`` on ``subparsers``."""
    p = add_command(
        subparsers, NAME, SUMMARY,
        "Search the game tree for the largest number of mistakes any realizable adaptive "
        "adversary can force on LEARNER over CLASS (the game value M_A(H)), print it with the "
        "adversary's optimal line and Ldim(H), and judge the learner's claim against it. A "
        "search that runs out of its budget prints proven lower and upper bounds and exits 3; "
        "a claim the search proves broken exits 1. --labels, --feedback and --noise search another game (a "
        "learner that does not play it is refused, exit 2), and print the game's value in place of Ldim.",
        players="learners", settings="classes",
    )
    p.add_argument("learner", metavar="LEARNER", help="a learner name (listed below) or module:Class")
    p.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or a .npy, .csv or .json class file")
    p.add_argument("--horizon", type=seed, default=None,
                   help="limit games to this many rounds (needed for learners that change state without a mistake)")
    add_budget(p, "the search")
    add_rules(p)
    add_certificate(p, "M_A(H) (with the learner's predictions as recorded) and Ldim (the textbook's game only)")
    p.set_defaults(run=run)
    return p


def search_worst_case(learner: Any, H: HypothesisClass, args: Any, desc: str, writer: Any = None):
    """worst_case_mistakes with the command's budget, its rules (``args.rules``, if any) and a progress bar counting
    positions (certified into ``writer``)."""
    from mistakebound.theory.worst_case import worst_case_mistakes
    from mistakebound.theory.worst_case_certificate import worst_case_section

    with Progress(args.max_nodes, desc=desc, unit="positions") as bar:
        if writer is not None:
            return worst_case_section(learner, H, writer, horizon=args.horizon, max_nodes=args.max_nodes,
                                      time_limit=args.time_limit, progress=bar.update)[0]
        return worst_case_mistakes(learner, H, horizon=args.horizon, max_nodes=args.max_nodes,
                                   time_limit=args.time_limit, progress=bar.update, rules=getattr(args, "rules", None))


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


def _value_line(learner: Any, H: HypothesisClass, rules: Any, args: Any, out: Any) -> Any:
    """Print the game's value under ``rules`` (for the learner's kind, deterministic or randomized); returns it."""
    import attrs

    from mistakebound.game.players import is_randomized
    from mistakebound.theory.game_values import game_value

    value = game_value(H, attrs.evolve(rules, randomized=is_randomized(learner)), max_nodes=args.max_nodes,
                       time_limit=args.time_limit)
    text = f"value = {number_text(value.lower)}" if value.exact else value.describe()
    print(f"{text} (the game's value: forced on every learner of its kind; GameSOA makes no more)", file=out)
    return value


def run(args, out) -> int:
    """Run ``worst-case``; exit 1 if the claim is proven broken, 3 if a search stopped early."""
    from mistakebound.theory.littlestone import littlestone_bounds
    from mistakebound.theory.search_protocol import spending
    from mistakebound.verification.claims import judge, stated_bound

    check_out(args.certificate, CERTIFICATE_SUFFIXES, "certificate", option="--certificate")
    refuse_order(args, "worst-case", "the worst case of a learner is searched in the game where the adversary picks "
                                     "each instance as it goes; `ldim CLASS --order ORDER --what value` gives the "
                                     "order's value")
    H = finite_class(args.cls, "worst-case", labels=args.labels)
    args.rules = rules = given_rules(args, H)
    game = rules if rules is not None else Rules(labels=H.n_labels)  # the game searched
    textbook = (game.labels, game.feedback, game.noise) == (2, "full", 0)
    if args.certificate is not None and not textbook:
        raise BadInput(f"--certificate: certificates of the worst case are written for the textbook's game (two "
                       f"labels, full information, no noise); this one has {game.describe()}")
    learner = registry.build("learner", args.learner, H, rounds=args.horizon)
    name = registry.find("learner", args.learner).name
    writer = None
    if args.certificate is not None:
        from mistakebound.theory.certificate import CertificateWriter

        writer = CertificateWriter(H)
    W = search_worst_case(learner, H, args, f"worst case of {name}", writer)
    over = f" over {args.horizon} rounds" if args.horizon is not None else ""
    print(f"learner: {W.learner}", file=out)
    print(f"class: {H.describe()}", file=out)
    if rules is not None:
        print(f"rules: {rules.describe()}", file=out)
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
        replay = "; replay with MinimaxAdversary" if textbook else ""
        print(f"{what} (the adversary's instances and labels{replay}):", file=out)
        print(text_table(["t", "x", "p", "y", "mistake"], rows), file=out)
    else:
        print("optimal line: empty (no instance splits the class, or the horizon is 0)", file=out)
    if not textbook:
        ldim = _value_line(learner, H, game, args, out)
    elif writer is None:
        ldim = littlestone_bounds(H, max_nodes=args.max_nodes, time_limit=args.time_limit)
    else:  # the same search, certified in the same file
        from mistakebound.theory.ldim_certificate import ldim_certificate
        from mistakebound.theory.littlestone import LdimBounds

        section = ldim_certificate(H, writer, max_nodes=args.max_nodes, time_limit=args.time_limit)
        lo, hi = section["claim"]["lower"][1], section["claim"]["upper"][1]
        ldim = LdimBounds(lower=lo, upper=hi, status="exact" if lo == hi else "budget")
    if not textbook:
        pass  # the game's value is printed
    elif ldim.exact:
        print(f"Ldim = {ldim.lower} (forced on every deterministic learner; SOA makes no more)", file=out)
    else:
        print(f"{ldim.describe()} (forced on every deterministic learner; SOA makes no more)", file=out)
    with spending(args.time_limit):  # a claim that searches (SOA's Ldim) is bounded like every search here
        claim = stated_bound(learner, H, rounds=args.horizon, realizable=True, rules=rules)
    verdict = judge(W, claim)
    print(_claim_line(claim, verdict, W), file=out)
    if writer is not None:
        wsection = writer.document()["results"][0]
        done = [claimed(wsection, f"M_A(H){over}"), claimed(writer.document()["results"][1], "Ldim")]
        write_certificate(args.certificate, writer, out, done)
    if verdict.broken:
        return EXIT_BROKEN
    return EXIT_OK if W.exact and ldim.exact else EXIT_INTERRUPTED
