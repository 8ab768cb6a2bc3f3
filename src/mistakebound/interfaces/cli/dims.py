"""``mistakebound dims CLASS``: every parameter of a class's profile, one line each, from the library's door.

:func:`~mistakebound.theory.profile.profile_steps` computes; this command prints, each line
flushed as soon as its parameter is known, cheapest first: ``name = value``, or
``lower <= name <= upper (partial: why)`` for a search that stopped with proven bounds, or
``name: not defined (why)``.  ``--what`` chooses the parameters (the names of
:data:`~mistakebound.theory.profile.PARAMETERS`, as ``ldim --what``); each search has the
whole of ``--max-nodes`` and ``--time-limit``.  ``--witness`` prints under each line what
proves its lower bound (a shattered tree or set, an order, a sequence, a strategy), and
``--json`` one object per parameter with its witness.  Exit 3 when a parameter is partial.

Examples
--------
>>> from mistakebound.interfaces.cli import main
>>> main(["dims", "thresholds:7", "--what", "ldim,worst_order"])
class: thresholds(7)
|H| = 8
|X| = 7
ldim = 3
worst_order = 3
0
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mistakebound.foundations.json_format import json_value
from mistakebound.interfaces.arguments import EXIT_INTERRUPTED, EXIT_OK
from mistakebound.interfaces.cli.help_text import add_command
from mistakebound.interfaces.cli.certificates import certify_profile
from mistakebound.interfaces.cli.failures import BadInput
from mistakebound.interfaces.cli.options import (CERTIFICATE_SUFFIXES, add_budget, add_certificate, add_rules, parameters,
                                                 rules_of)
from mistakebound.interfaces.cli.output import check_out
from mistakebound.interfaces.cli.settings import finite_class

__all__ = ["NAME", "SUMMARY", "WITNESS_CHARS", "add_parser", "parameter_line", "run", "witness_json"]

NAME = "dims"
SUMMARY = "print every parameter of a class (Ldim, VCdim, orders, ...), one line each"
#: The longest witness ``--witness`` prints on its line (``--json`` prints it whole).
WITNESS_CHARS = 400


def _description() -> str:
    from mistakebound.theory.profile import PARAMETERS, TITLES  # the library's list, named here

    listed = "; ".join(f"{name}: {TITLES[name]}" for name in PARAMETERS)
    return ("Print a class's parameters, one line each as it is found, cheapest first: 'name = value', or "
            "'lower <= name <= upper (partial: why)' when its search stopped, with proven bounds (exit 3). "
            f"The parameters: {listed}. Each search has the whole budget, not a share.")


def add_parser(subparsers):
    """Register ``dims`` on ``subparsers``."""
    p = add_command(subparsers, NAME, SUMMARY, _description, players=False, settings="classes")
    p.add_argument("cls", metavar="CLASS", help="zoo spec NAME:ARGS, or a .npy, .csv or .json class file")
    p.add_argument("--what", type=parameters, default=None, metavar="LIST",
                   help="the parameters, comma-separated (the names of ldim --what); default every one but value, "
                        "which the rules options add")
    add_budget(p, "each parameter's search (each has the whole budget)")
    add_rules(p)
    p.add_argument("--witness", action="store_true",
                   help="print under each line what proves its lower bound (the Ldim's shattered tree is read off the "
                        "Ldim search in its run, within its budget); with --json, a 'witness' key")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object per line: the class, then each parameter with its bounds")
    add_certificate(p, "every parameter computed that a kind of certificate checks")
    p.set_defaults(run=run)
    return p


def witness_json(witness: Any) -> Any:
    """A witness as JSON can hold it: tuples and sets as lists, a dict of text keys as an object and any other as
    a list of ``[key, value]`` pairs, attrs values as objects, exact fractions as their text.

    Examples
    --------
    >>> witness_json({frozenset({2, 0}): (1, 0)}), witness_json({"depth": 2})
    ([[[0, 2], [1, 0]]], {'depth': 2})
    """
    import attrs

    if attrs.has(type(witness)):
        return {f.name: witness_json(getattr(witness, f.name)) for f in attrs.fields(type(witness))}
    if isinstance(witness, Mapping):  # a dict, or a strategy read as it is asked (theory.order_games.Strategy)
        if all(isinstance(k, str) for k in witness):
            return {k: witness_json(v) for k, v in witness.items()}
        return [[witness_json(k), witness_json(v)] for k, v in witness.items()]
    if isinstance(witness, (set, frozenset)):
        return sorted(witness_json(v) for v in witness)
    if isinstance(witness, (tuple, list)):
        return [witness_json(v) for v in witness]
    return json_value(witness)


def _witness(parameter: str, result, P) -> Any:
    """The witness of ``result`` (the shattered tree, read off the search, for the Ldim)."""
    if parameter == "ldim" and P.ldim_engine is not None and result.exact:
        from mistakebound.theory.search_protocol import SearchIncomplete, SearchInterrupted
        from mistakebound.theory.tree_export import tree_to_json

        try:
            return json.loads(tree_to_json(P.tree()))
        except (SearchIncomplete, SearchInterrupted):  # the budget stopped the reading, the value found: no tree
            return None
    return getattr(result, "witness", None)


def run(args, out) -> int:
    """Run ``dims``: each parameter's line printed (and flushed) as it is found; exit 3 if one is partial."""
    from mistakebound.theory.profile import PARAMETERS, profile_steps, requested

    rules = rules_of(args)
    what = args.what or tuple(p for p in PARAMETERS if p != "value")
    requested(what, rules)  # refused before the class is read
    check_out(args.certificate, CERTIFICATE_SUFFIXES, "certificate", option="--certificate")
    if args.json and args.certificate is not None:
        raise BadInput("--json: prints the parameters alone, one object per line; --certificate prints text: give "
                       "it in a run of its own")
    H = finite_class(args.cls, NAME, args.labels)
    rules = rules_of(args, H)
    if args.json:
        print(json.dumps({"class": H.describe(), "n_hypotheses": H.n_hypotheses, "n_instances": H.n_instances}),
              file=out, flush=True)
    else:
        print(f"class: {H.describe()}\n|H| = {H.n_hypotheses}\n|X| = {H.n_instances}", file=out, flush=True)
    partial = False
    for parameter, result, P in profile_steps(H, what=what, max_nodes=args.max_nodes, time_limit=args.time_limit,
                                              keep_search=args.certificate is not None,
                                              read="tree" if args.witness and "ldim" in what else None, rules=rules):
        if parameter not in what and parameter != "value":  # the "class" step; value comes with the rules
            continue
        why, undefined = P.partial.get(parameter), P.undefined.get(parameter)
        partial = partial or why is not None
        witness = _witness(parameter, result, P) if result is not None and args.witness else None
        if args.json:
            record = {"parameter": parameter, **(result.record() if result is not None else
                                                 {"value": None, "status": "not defined" if undefined else
                                                  "not searched"})}
            if why is not None or undefined is not None:
                record["why"] = why or undefined
            if args.witness:
                record["witness"] = witness_json(witness)
            print(json.dumps(record), file=out, flush=True)
            continue
        print(parameter_line(parameter, result, P), file=out, flush=True)
        if args.witness and witness is not None:
            text = json.dumps(witness_json(witness))
            if len(text) > WITNESS_CHARS:
                text = f"{text[:WITNESS_CHARS]}... ({len(text):,} characters; --json prints it whole)"
            print(f"  witness: {text}", file=out, flush=True)
    certify_profile(args.certificate, P, out, max_nodes=args.max_nodes, time_limit=args.time_limit)
    return EXIT_INTERRUPTED if partial else EXIT_OK


def parameter_line(parameter: str, result, P) -> str:
    """``name = value``, ``lower <= name <= upper (partial: why)`` or ``name: not defined (why)``: a parameter of
    the profile ``P`` as ``dims`` (and ``ldim``, for the parameters it has no line of its own for) prints it."""
    why, undefined = P.partial.get(parameter), P.undefined.get(parameter)
    if result is None:
        return f"{parameter}: not defined ({undefined})" if undefined else f"{parameter}: {why or 'not searched'}"
    if result.exact:
        return f"{parameter} = {result.lower}"
    return f"{result.lower} <= {parameter} <= {result.upper} (partial: {why or result.status})"
