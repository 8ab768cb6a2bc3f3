"""``mistakebound check``: every learner against every adversary, and the scenario suites, judged.

The rows come from :func:`~mistakebound.verification.selfcheck.run_check` and
:func:`~mistakebound.verification.selfcheck.run_scenarios`, class by class and scenario
by scenario, with a progress bar and the partial table on Ctrl-C; ``--json`` writes the
report (:meth:`~mistakebound.verification.selfcheck.CheckReport.to_json`).
"""

from __future__ import annotations

from mistakebound.foundations.text import printable
from mistakebound.interfaces.arguments import EXIT_BROKEN, EXIT_INTERRUPTED, EXIT_OK, seed
from mistakebound.interfaces.cli.help_text import add_command
from mistakebound.interfaces.cli.options import add_rules, given_rules, refuse_order
from mistakebound.interfaces.cli.output import check_out, write_output
from mistakebound.interfaces.progress import Progress

__all__ = ["NAME", "SUMMARY", "add_parser", "run"]

#: The command's name, and its line in ``mistakebound --help``.
NAME = "check"
SUMMARY = "play every learner against every adversary and check their claims"


def add_parser(subparsers):
    """Register ``check`` on ``subparsers``."""
    p = add_command(
        subparsers, NAME, SUMMARY,
        "Play every registered learner against every applicable adversary on the built-in "
        "classes, judge each game against the learner's claimed bound and the adversary's "
        "forced count, run the scenario suites, and print the table. Exit 0 if all hold, 1 otherwise.",
        players=False, settings="",
    )
    p.add_argument("--seed", type=seed, default=0, help="seed of every game, 0..2**128-1 (default 0)")
    add_rules(p, labels_help="the number of labels of the classes played on, 0..K-1 (default 2)")
    p.add_argument("--json", metavar="FILE.json",
                   help="also write the report as JSON (lossless; read back with CheckReport.from_json)")
    p.set_defaults(run=run)
    return p


def run(args, out) -> int:
    """Run ``check``: the table, the legend and the summary; exit 0 if every claim holds, 1 otherwise."""
    from mistakebound.verification.selfcheck import CheckReport, default_classes, run_check, run_scenarios
    from mistakebound.verification.suites import all_scenarios

    # class by class, then scenario by scenario: the same rows as run_check(seed) followed
    # by run_scenarios(seed), with a progress bar and partial results on Ctrl-C
    json_path = getattr(args, "json", None)
    check_out(json_path, (".json",), "JSON", option="--json")  # refused before any game is played
    refuse_order(args, "check", "its learners and adversaries play the game where the adversary picks each "
                                "instance as it goes")
    rules = given_rules(args)
    # under other rules: the grid on classes of their labels, played by them; the scenarios are the textbook's
    classes_ = default_classes() if rules is None else default_classes(labels=rules.labels)
    scenarios = all_scenarios() if rules is None else ()
    rows: list = []
    try:
        with Progress(len(classes_) + len(scenarios), desc="check", unit="steps") as bar:
            for H in classes_:
                rows += run_check([H], seed=args.seed, rules=rules).rows
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
        write_output("--json", json_path, out, f"wrote {json_path} ({len(report.rows)} rows, JSON)",
                     data=report.to_json())
    return EXIT_OK if report.ok else EXIT_BROKEN
