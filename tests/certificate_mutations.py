"""Mutation testing of the certificate checker: disable each check in turn and see a lie get through.

Every check the soundness arguments rely on carries its condition's name in a comment,
``# [name]``, on the line that checks it (see :mod:`mistakebound.certificates.verify`).  For
each such line this module builds a *mutant* of the checker with that check disabled:

* an ``if`` whose condition is on the line (and whose body refuses) never refuses
  (its condition becomes ``False``); one whose body only skips (``continue``) always skips;
* a ``for`` over the line's failures (``for u in missing: raise ...``) loops over nothing;
* a call ``ctx.integer(v, ...)``, ``ctx.instance(x, ...)``, ``ctx.label_of(y, ...)`` or
  ``ctx.number(v, ...)`` on the line returns ``v`` unchecked.

The mutant (the checker's modules, compiled once, one of them rewritten) is imported by their plain
names as the checker is run alone, and the campaign of :mod:`tests.certificate_lies` is run against
it: the check is *noticed* when a lie is accepted, a hostile document crashes the mutant or
exhausts its time, or an honest certificate is refused.  A check whose removal nothing
notices is either redundant or untested; :data:`UNNOTICED` lists the ones known, with why.

Run it (the test runs it in a subprocess, with a memory limit, and reads its JSON)::

    python -m tests.certificate_mutations            # JSON, one entry per mutant
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.abc
import importlib.util
import json
import re
import signal
import sys
import time
from pathlib import Path

from mistakebound.certificates import verify
from tests import certificate_lies as cl

__all__ = ["CHECKER", "MODULES", "UNNOTICED", "mutant_source", "run", "tagged_lines"]

CHECKER = Path(verify.__file__).parent
MODULES = ("verify", "document", "context", "ldim", "vc", "worst_case", "randomized", "positions", "game_value",
           "randomized_value", "randomized_bandit_value", "horizon_value",
           "threshold",
           "stars",
           "teaching",
           "self_directed",
           "orders",
           )
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


class _Modules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports the checker's modules by their plain names (as ``python verify.py`` does) from code compiled
    once: the originals for every mutant, the mutated module for its own."""

    def __init__(self, codes: dict):
        self.codes = codes
        self.ran: dict = {}

    def find_spec(self, name, path=None, target=None):  # noqa: ARG002
        if name in self.codes:
            return importlib.util.spec_from_file_location(name, self.codes[name].co_filename, loader=self)
        return None

    def create_module(self, spec):  # noqa: ARG002
        return None

    def exec_module(self, module) -> None:
        self.ran[module.__name__] = code = self.codes[module.__name__]
        exec(code, module.__dict__)  # noqa: S102 - the checker's own code, or its mutant


@functools.lru_cache(maxsize=None)
def _original(name: str):
    path = CHECKER / f"{name}.py"
    return compile(path.read_text(), str(path), "exec", dont_inherit=True)


def _load(module: str, source: str):
    """The checker with ``module`` replaced by ``source``, imported afresh as the program imports it."""
    for name in MODULES:
        sys.modules.pop(name, None)
    codes = {name: _original(name) for name in MODULES}
    codes[module] = compile(source, str(CHECKER / f"{module}.py"), "exec", dont_inherit=True)
    finder = _Modules(codes)
    sys.meta_path.insert(0, finder)
    try:
        checker = importlib.import_module("verify")
    finally:
        sys.meta_path.remove(finder)
    assert finder.ran == codes, "every module of the checker, the mutant among them, came from the finder"
    return checker


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
    for module in MODULES:
        for line, tag in tagged_lines(module):
            checker = _load(module, mutant_source(module, line))
            # the lies aimed at the mutated module's own kind first: most mutants fall at once
            kind = {"ldim": "ldim", "randomized": "rldim", "vc": "vc", "worst_case": "worst-case", "positions": "value-",
                    "game_value": "value-", "randomized_value": "value-randomized",
                    "randomized_bandit_value": "value-randomized-bandit", "horizon_value": "value-horizon",
                    "threshold": "threshold", "stars": "star",
                    "teaching": "t",
                    "self_directed": "self-directed", "orders": "worst-order"}.get(module)
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
