"""Mutation testing of the certificate checker: disable each check in turn and see a lie get through.

Every check the soundness arguments rely on carries its condition's name in a comment,
``# [name]``, on the line that checks it (see :mod:`mistakebound.certificates.verify`).  For
each such line this module builds a *mutant* of the checker with that check disabled:

* an ``if`` whose condition is on the line (and whose body refuses) never refuses
  (its condition becomes ``False``); one whose body only skips (``continue``) always skips;
* a ``for`` over the line's failures (``for u in missing: raise ...``) loops over nothing;
* a call ``ctx.integer(v, ...)``, ``ctx.instance(x, ...)``, ``ctx.label_of(y, ...)`` or
  ``ctx.number(v, ...)`` on the line returns ``v`` unchecked.

The mutant (the checker's modules copied to a folder, one of them rewritten) is imported as
the checker is run alone, and the campaign of :mod:`tests.certificate_lies` is run against
it: the check is *noticed* when a lie is accepted, a hostile document crashes the mutant or
exhausts its time, or an honest certificate is refused.  A check whose removal nothing
notices is either redundant or untested; :data:`UNNOTICED` lists the ones known, with why.

Run it (the test runs it in a subprocess, with a memory limit, and reads its JSON)::

    python -m tests.certificate_mutations            # JSON, one entry per mutant
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from mistakebound.certificates import verify
from tests import certificate_lies as cl

__all__ = ["CHECKER", "MODULES", "UNNOTICED", "mutant_source", "run", "tagged_lines"]

CHECKER = Path(verify.__file__).parent
MODULES = ("verify", "document", "context", "ldim", "vc", "worst_case", "randomized")
#: The calls that check a value and return it: a mutant returns their first argument unchecked.
CHECKS = ("integer", "instance", "label_of", "number")
#: Checks whose removal the campaign cannot notice, and why (the closing note of issue 21 lists them).
UNNOTICED: dict[str, str] = {}
#: Seconds a mutant may take on one document before it counts as hung (noticed).
SECONDS = 10

_TAG = re.compile(r"#\s*\[([a-z0-9-]+)\]")


def tagged_lines(module: str) -> list[tuple[int, str]]:
    """``(line number, condition name)`` of every line of the checker's ``module`` that carries a name."""
    lines = (CHECKER / f"{module}.py").read_text().splitlines()
    return [(i, m.group(1)) for i, line in enumerate(lines, 1) for m in [_TAG.search(line)] if m]


class _Disable(ast.NodeTransformer):
    def __init__(self, line: int):
        self.line, self.done = line, 0

    def visit_If(self, node: ast.If) -> ast.AST:
        self.generic_visit(node)
        if node.test.lineno <= self.line <= node.test.end_lineno:
            body = list(ast.walk(ast.Module(body=node.body, type_ignores=[])))
            if any(isinstance(n, ast.Raise) for n in body):  # a refusal: it never refuses
                node.test = ast.Constant(False)
                self.done += 1
            elif [type(n) for n in node.body] == [ast.Continue]:  # a guarded skip: it always skips
                node.test = ast.Constant(True)
                self.done += 1
        return node

    def visit_For(self, node: ast.For) -> ast.AST:
        self.generic_visit(node)
        if node.iter.lineno <= self.line <= node.iter.end_lineno:
            node.iter = ast.List(elts=[], ctx=ast.Load())
            self.done += 1
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (node.lineno == self.line and isinstance(node.func, ast.Attribute) and node.func.attr in CHECKS
                and node.args):
            self.done += 1
            return node.args[0]
        return node


def mutant_source(module: str, line: int) -> str:
    """The source of ``module`` with the check on ``line`` disabled (raises if nothing there can be)."""
    tree = ast.parse((CHECKER / f"{module}.py").read_text())
    t = _Disable(line)
    tree = ast.fix_missing_locations(t.visit(tree))
    if not t.done:
        raise ValueError(f"{module}.py line {line}: a name on a line that is no check a mutant can disable")
    return ast.unparse(tree)


def _load(folder: Path):
    """The checker whose modules are in ``folder``, imported afresh as the program imports them."""
    for name in MODULES:
        sys.modules.pop(name, None)
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module("verify")
    finally:
        sys.path.remove(str(folder))


class _Hung(Exception):
    pass


def _alarm(signum, frame):  # noqa: ARG001
    raise _Hung()


def noticed(checker, documents: list) -> str | None:
    """What gives the mutant away (a lie accepted, a crash, an honest document refused), or None."""
    signal.signal(signal.SIGALRM, _alarm)
    for lie in documents:
        signal.alarm(SECONDS)
        try:
            result = cl.outcome(lie, checker)
        except _Hung:
            result = "hung"
        except MemoryError:
            result = "crashed: MemoryError"
        finally:
            signal.alarm(0)
        if result != "ok":
            return f"{result.split(':')[0]} on {lie.kind} ({lie.why})"
    return None


def documents(count: int = 40, seed: int = 1) -> list:
    """The campaign's documents for the mutants: lies, hostile documents and honest ones, on small classes."""
    out = []
    for i, M in enumerate(cl.classes(count, seed)):
        out += cl.lies(M, seed + i)
    return out


def run(count: int = 40) -> dict[str, str | None]:
    """Every mutant, by ``"module.py:line [name]"``, and what noticed it (None: nothing did)."""
    docs = documents(count)
    results: dict[str, str | None] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for module in MODULES:
            for line, tag in tagged_lines(module):
                folder = Path(tmp) / f"{module}-{line}"
                folder.mkdir()
                for name in MODULES:
                    shutil.copy(CHECKER / f"{name}.py", folder / f"{name}.py")
                (folder / f"{module}.py").write_text(mutant_source(module, line))
                checker = _load(folder)
                # the lies aimed at the mutated module's own kind first: most mutants fall at once
                kind = {"ldim": "ldim", "randomized": "rldim", "vc": "vc", "worst_case": "worst-case"}.get(module)
                ordered = sorted(docs, key=lambda d: not (kind and d.kind.startswith(kind)))
                results[f"{module}.py:{line} [{tag}]"] = noticed(checker, ordered)
    return results


def main() -> int:
    start = time.perf_counter()
    results = run()
    json.dump({"seconds": time.perf_counter() - start, "mutants": results}, sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
