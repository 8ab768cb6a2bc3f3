"""What ``ldim``, ``dims`` and ``worst-case`` do with ``--certificate``: write it, and say what it proves.

Examples
--------
>>> claimed({"claim": {"lower": [">=", 2], "upper": ["<=", 3]}}, "Ldim")
'2 <= Ldim <= 3'
>>> claimed({"lower": [0, 1], "upper": {"value": 2}}, "VCdim")
'VCdim = 2'
"""

from __future__ import annotations

from mistakebound.interfaces.cli.output import write_output

__all__ = ["certify_profile", "claimed", "proven_lines", "value_name", "write_certificate"]


def claimed(section: dict, name: str) -> str:
    """``"2 <= Ldim <= 3"`` / ``"Ldim = 3"``: what a certificate section proves."""
    if "claim" in section:  # each side [fact, value], or (a game of a few rounds) the value alone
        claim = section["claim"]
        lo, hi = (claim[side][1] if isinstance(claim.get(side), list) else claim.get(side, "?")
                  for side in ("lower", "upper"))
    else:  # a VC section: the shattered set, and the value its upper proof refutes above
        lo = len(section["lower"]) if "lower" in section else "?"
        hi = section["upper"]["value"] if "upper" in section else "?"
    return f"{name} = {lo}" if lo == hi else f"{lo} <= {name} <= {hi}"


def proven_lines(writer, name_of) -> list[str]:
    """What the certificate in ``writer`` proves, as the independent checker finds it: ``"name = value"`` or
    ``"lower <= name <= upper"`` per result, ``name_of(kind, about)`` naming each (``about``: what the checker
    says the result is of, e.g. the rules of a game's value).  A certificate the checker refuses raises its
    :class:`~mistakebound.certificates.verify.CertificateError` (a writer's bug, never to be written silently).

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.theory.certificate import CertificateWriter
    >>> from mistakebound.theory.star_certificate import degree_section
    >>> w = CertificateWriter(classes.power_set(2))
    >>> _ = degree_section(classes.power_set(2), w)
    >>> proven_lines(w, lambda kind, about: kind)
    ['degree = 2']
    """
    from mistakebound.certificates.verify import check

    lines = []
    for kind, proven in check(writer.document()).items():
        name, (lo, hi) = name_of(kind, proven.about), proven
        lines.append(f"{name} = {lo}" if lo == hi else f"{'?' if lo is None else lo} <= {name} <= "
                                                        f"{'?' if hi is None else hi}")
    return lines


def write_certificate(path: str, writer, out, done: list[str]) -> None:
    """Write the certificate of ``writer`` to ``path`` and say what it proves (``done``) and how to check it."""
    size = len(writer.document()["spaces"])  # none when only the game's value is certified: its facts hold states
    spaces = f" ({size:,} version spaces)" if size else ""
    write_output("--certificate", path, out,
                 f"wrote {path}: a certificate of {', '.join(done)}{spaces}; "
                 f"check it with: mistakebound verify {path}", save=lambda: writer.write(path, parameter="--certificate"))


def value_name(rules, horizon: int | None) -> str:
    """``"value (2 labels, ..., deterministic, 3 rounds)"``: the game's value as the commands name it."""
    rounds = "" if horizon is None else f", {horizon} round{'s' * (horizon != 1)}"
    return f"value ({rules.describe()}{rounds})"


#: The names the commands print for the kinds of result that are not named as the profile's parameters.
KIND_NAMES = {"ldim": "Ldim", "vc": "VCdim", "rldim": "RL"}


def _name_of(kind: str, about: dict) -> str:
    """A result's name: the game's value by its rules, the others as the profile names them."""
    from mistakebound.game.rules import Rules

    from mistakebound.theory.profile import MORE

    if "rules" in about:
        return value_name(Rules(**about["rules"]), about.get("horizon"))
    return KIND_NAMES.get(kind) or next((p.name for p in MORE if p.kind == kind), kind)


def certify_profile(path: str | None, P, out, *, max_nodes: int | None, time_limit: float | None) -> None:
    """With ``--certificate PATH``: the certificate of what the profile ``P`` proved
    (:meth:`~mistakebound.theory.profile.Profile.certificate`, within the budget), written, and what it proves."""
    if path is None:
        return
    if P.ldim_engine is None and P.H.n_labels == 2:
        print("certificate: not written: the Littlestone search did not run", file=out)
        return
    from mistakebound.theory.profile import certified_rules
    from mistakebound.theory.search_protocol import OutOfBudget

    try:
        writer = P.certificate(max_nodes=max_nodes, time_limit=time_limit)
    except OutOfBudget:
        print("certificate: not written: the budget ran out while reading the shattered tree off the search; "
              "raise --max-nodes / --time-limit", file=out)
        return
    write_certificate(path, writer, out, proven_lines(writer, _name_of))
    from mistakebound.theory.profile import MORE

    left = [p.name for p in MORE if P.result(p.name) is not None and writer.section(p.kind) is None]
    if left:
        print(f"certificate: {', '.join(left)} not in it (no kind of certificate checks "
              f"{'it' if len(left) == 1 else 'them'} under {P.rules.describe()})", file=out)
    if P.value is not None and (not P.rules.textbook or P.horizon is not None) and not certified_rules(P.rules,
                                                                                                       P.horizon):
        what = ("deterministic learners' values in a game of a few rounds" if P.horizon is not None
                else "randomized learners, or more than two labels, under another order of the instances"
                if P.rules.order != "adaptive"
                else "randomized learners against an oblivious adversary without a horizon (give --horizon T)")
        print(f"certificate: the value under {P.rules.describe()} is not in it (no kind of certificate checks "
              f"{what})", file=out)
