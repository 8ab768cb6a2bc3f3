"""What a sweep found: a table per learner, the broken bounds with replay commands.

:func:`format_summary` prints, per learner, the cells, the worst ratio of the measured
quantity (mistakes, expected mistakes or regret, as the learner's bound states it) to
the bound and where it happened, and the counts of broken bounds, player errors,
infrastructure errors (``infra``: run again on resume), searches whose partial interval
left the claim undecided, searches out of budget (``budget``), and cells not applicable;
then every violation with the command that replays it (:func:`replay_command`), the
first errors and the first infrastructure errors.  The worst ratio is taken over exact
values only: a partial search proved a lower bound, not its value, so it has no ratio
(its interval is in the ``lower`` and ``upper`` columns).  The ``at`` column names the
worst cell in full (class, seed, horizon, adversary).  The figures are in
:mod:`~mistakebound.interfaces.sweep.figures`.

Examples
--------
>>> from mistakebound.interfaces.sweep.cells import Cell, run_cell
>>> records = [run_cell(Cell(kind="game", learner="Halving", adversary="OppositeLabel",
...                          cls=f"thresholds:{n}", size=n, seed=0, horizon=30)) for n in (3, 7)]
>>> print(format_summary(records))  # doctest: +ELLIPSIS
learner  cells  worst ratio  at                                         broken  errors  infra  undecided  budget  n/a
-------  -----  -----------  -----------------------------------------  ------  ------  -----  ---------  ------  ---
Halving  2      0.5          thresholds:3 seed 0 T 30 vs OppositeLabel  0       0       0      0          0       0
<BLANKLINE>
no bound broken in 2 cells
>>> replay_command(records[0])
'mistakebound play Halving OppositeLabel thresholds:3 --rounds 30 --seed 0'
>>> replay_command(records[0] | {"setting": "feedback=bandit,noise=1"})
'mistakebound play Halving OppositeLabel thresholds:3 --rounds 30 --seed 0 --feedback bandit --noise 1'
"""

from __future__ import annotations

import shlex
from typing import Iterable

from mistakebound.foundations.text import number_text, printable
from mistakebound.foundations.text_tables import text_table

__all__ = ["replay_command", "learner_table", "format_summary", "violations"]


def replay_command(record: dict) -> str:
    """The command line that replays a cell (a game, a worst-case search or an Ldim search)."""
    q = shlex.quote
    if record.get("kind") == "game":
        command = (f"mistakebound play {q(record['learner'])} {q(record['adversary'])} {q(record['class'])} "
                   f"--rounds {record['horizon']} --seed {record['seed']}")
        for part in (record.get("setting") or "").split(","):  # the rules: play's options of the same names
            if part:
                key, value = part.split("=", 1)
                command += f" --{key} {q(value)}"
        return command if record.get("realizable", True) else command + " --unrealizable"
    if record.get("search") == "worst_case":
        command = (f"mistakebound worst-case {q(record['learner'])} {q(record['class'])} "
                   f"--max-nodes {record['max_nodes']}")
        return command if record.get("horizon") is None else command + f" --horizon {record['horizon']}"
    return f"mistakebound ldim {q(record['class'])} --max-nodes {record['max_nodes']}"  # it finds VCdim too


def violations(records: Iterable[dict]) -> list[dict]:
    """The records whose verdict is ``BROKEN``, in order."""
    return [r for r in records if r.get("verdict") == "BROKEN"]


def _where(r: dict) -> str:
    parts = [r["class"]]
    if r.get("kind") == "game":
        parts += [f"seed {r['seed']}", f"T {r['horizon']}", f"vs {r['adversary']}"]
    else:
        parts.append(r.get("search") or "")
    return " ".join(parts)


def learner_table(records: Iterable[dict]) -> list[dict]:
    """One row per learner (``"(ldim)"``, ``"(vc)"`` for searches of a class): counts and the worst ratio of exact
    values.

    Examples
    --------
    >>> partial = {"learner": None, "search": "ldim", "verdict": "budget", "exact": False, "ratio": 0.9,
    ...            "class": "random:9,9,0.5,1"}
    >>> row = learner_table([partial])[0]
    >>> row["worst_ratio"], row["budget"]   # a lower bound over the bound is no ratio
    (None, 1)
    """
    rows: dict[str, dict] = {}
    for r in records:
        name = r.get("learner") or f"({r.get('search')})"
        row = rows.setdefault(name, {"learner": name, "cells": 0, "worst_ratio": None, "at": None,
                                     "broken": 0, "errors": 0, "infra": 0, "undecided": 0, "budget": 0, "n/a": 0})
        row["cells"] += 1
        verdict = r.get("verdict")
        row["broken"] += verdict == "BROKEN"
        row["errors"] += verdict == "error"
        row["infra"] += verdict == "infra"
        row["undecided"] += verdict == "undecided"
        row["budget"] += verdict == "budget"
        row["n/a"] += verdict == "n/a"
        ratio = r.get("ratio") if r.get("exact") is not False else None  # files of older sweeps had one
        if ratio is not None and (row["worst_ratio"] is None or ratio > row["worst_ratio"]):
            row["worst_ratio"], row["at"] = ratio, _where(r)
    return list(rows.values())


def format_summary(records: Iterable[dict], *, max_errors: int = 5) -> str:
    """The summary as text: the learner table (the worst cell named in full), the violations with replay
    commands, errors."""
    records = list(records)
    table = learner_table(records)

    def short(text: str | None) -> str:
        return "-" if text is None else text

    lines = [text_table(
        ["learner", "cells", "worst ratio", "at", "broken", "errors", "infra", "undecided", "budget", "n/a"],
        [[t["learner"], str(t["cells"]), number_text(t["worst_ratio"], digits=3), short(t["at"]), str(t["broken"]),
          str(t["errors"]), str(t["infra"]), str(t["undecided"]), str(t["budget"]), str(t["n/a"])] for t in table],
    ), ""]
    broken = violations(records)
    if broken:
        lines.append(f"{len(broken)} bound(s) broken:")
        for r in broken:
            lines.append(printable(f"  {r['learner'] or r['class']}: {r.get('note') or 'broken'} on {_where(r)}"))
            lines.append(printable(f"    replay: {replay_command(r)}"))
    else:
        lines.append(f"no bound broken in {len(records)} cells")
    for verdict, title in (("error", "failed"), ("infra", "stopped by infrastructure errors (run again on resume)")):
        failed = [r for r in records if r.get("verdict") == verdict]
        if failed:
            lines.append(f"{len(failed)} cell(s) {title}:")
            lines.extend(printable(f"  {r['id']} {_where(r)}: {r['error_type']}: {r['error']}") for r in failed[:max_errors])
            if len(failed) > max_errors:
                lines.append(f"  ... and {len(failed) - max_errors} more (see the error columns of the results file)")
    partial = [r for r in records if r.get("exact") is False and r.get("verdict") not in ("BROKEN", "infra")]
    if partial:
        lines.append(f"{len(partial)} search(es) out of budget: only their proven interval [lower, upper] is "
                     "known, and no ratio is taken from them (raise max_nodes for exact values)")
    return "\n".join(lines)
